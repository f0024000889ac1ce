// Package save holds fsmforge's save format: the state of a set of running
// machines, one file for a saved game, a replay's checkpoint or a
// rollback.
//
// A [File] lists machines by the game's name for each ("goombas", "Miner
// Bob"). Each entry carries what restoring needs to trust it: the
// machine's kind, the fingerprint of its definition
// ([machine.Fingerprint]), the names of its states and triggers, and the runtime's own
// snapshot as bytes (table.Snapshot, crowd.Snapshot, fsm.Snapshot,
// message.DispatcherSnapshot each have a binary form; the game's own values
// go through a [machine.Codec] it gives).
//
// # Format
//
// A save is the 8 bytes "fsmforge", the format version (an unsigned varint,
// now 2), the number of machines, then for each: its name, kind (one byte),
// fingerprint (8 bytes, little endian), the number of states and their
// names, the number of triggers and each one's name and kind (one byte;
// version 1 has no triggers, and Decode reads it too), and the snapshot's bytes (a length, then the bytes). Strings and
// byte strings are a varint length then the bytes. The last 4 bytes are the
// CRC-32C (Castagnoli) of everything before them, little endian.
//
// Overhead per machine is its name, 12 bytes, its states' names and its
// triggers' names and a byte each; the
// snapshots' sizes are documented by their runtimes.
//
// # Restoring
//
// [Decode] checks the whole file before it returns: a truncated file, a
// flipped bit, another format or a later version is an error that says so,
// and nothing is restored from it. [Entry.Mapping] then compares an entry
// with the definition it is restored into: the same fingerprint restores
// exactly; another one maps states and triggers by name
// ([machine.Mapping]) and the runtime reports each entity it could not map
// and where it put it, and drops the messages and events whose trigger is
// gone.
package save
