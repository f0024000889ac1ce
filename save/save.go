package save

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/fsmforge/fsmforge/internal/wire"
	"github.com/fsmforge/fsmforge/machine"
)

// Version is the format version Encode writes. Decode reads it and the
// earlier ones: version 1 saved no triggers (Entry.Triggers is then nil,
// and a restore into a changed definition drops the messages waiting).
const Version = 2

// magic opens every save.
const magic = "fsmforge"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Errors matched with errors.Is.
var (
	// ErrCorrupt: the file is not a save, or was truncated or changed
	// after it was written.
	ErrCorrupt = errors.New("save: not a save, truncated or corrupt")
	// ErrVersion: the save was written by a later version of fsmforge.
	ErrVersion = errors.New("save: written by a later fsmforge")
	// ErrMissing: the save has no entry of the name asked for.
	ErrMissing = errors.New("save: no such entry")
	// ErrMismatch: an entry does not fit the machine it is restored into
	// (another kind, or a changed definition where an exact restore was
	// asked).
	ErrMismatch = errors.New("save: the machine does not match the save")
)

// File is a save: the entries of a set of machines, in the order the game
// added them.
type File struct {
	Entries []Entry
}

// Entry is one machine in a save.
type Entry struct {
	// Name is the game's name for the machine, unique in the file.
	Name string
	// Kind is the runtime the snapshot came from, or 0 for the game's own
	// data (File.AddData).
	Kind machine.Kind
	// Fingerprint is machine.Fingerprint of the definition it ran.
	Fingerprint uint64
	// States holds the definition's state names, by ID, and Triggers its
	// triggers, by index: what a restore into a changed definition maps by.
	States   []string
	Triggers []machine.Trigger
	// Data is the runtime's snapshot in its binary form.
	Data []byte
}

// Add appends an entry for the machine d describes, with its snapshot's
// bytes. It panics if the file already has an entry of that name: the game
// names its machines.
func (f *File) Add(name string, d *machine.Description, data []byte) {
	if _, ok := f.Entry(name); ok {
		panic(fmt.Sprintf("save: File.Add: a second machine named %q", name))
	}
	states := make([]string, len(d.States))
	for i, s := range d.States {
		states[i] = s.Name
	}
	f.Entries = append(f.Entries, Entry{Name: name, Kind: d.Kind, Fingerprint: machine.Fingerprint(d), States: states,
		Triggers: append([]machine.Trigger(nil), d.Triggers...), Data: data})
}

// AddData appends an entry that is the game's own data, not a machine's
// (its Kind is 0 and it has no states): the world the machines run in,
// saved by the game's code beside them. It panics if the file already has
// an entry of that name.
func (f *File) AddData(name string, data []byte) {
	if _, ok := f.Entry(name); ok {
		panic(fmt.Sprintf("save: File.AddData: a second entry named %q", name))
	}
	f.Entries = append(f.Entries, Entry{Name: name, Data: data})
}

// Entry returns the entry of the given name.
func (f *File) Entry(name string) (*Entry, bool) {
	for i := range f.Entries {
		if f.Entries[i].Name == name {
			return &f.Entries[i], true
		}
	}
	return nil, false
}

// Need returns the entry of the given name, or an error wrapping
// ErrMissing that says which entries the save has.
func (f *File) Need(name string) (*Entry, error) {
	if e, ok := f.Entry(name); ok {
		return e, nil
	}
	names := make([]string, len(f.Entries))
	for i := range f.Entries {
		names[i] = f.Entries[i].Name
	}
	return nil, fmt.Errorf("%w: %q; the save has %q", ErrMissing, name, names)
}

// Mapping compares the entry with the definition it is about to be
// restored into. It returns nil when the fingerprints are equal: restore
// exactly. Otherwise it returns the mapping of the entry's states to d's by
// name, for the runtime's Remap, whose Moved lists what could not be
// mapped. It returns an error wrapping ErrMismatch when d is another kind
// of runtime.
func (e *Entry) Mapping(d *machine.Description) (*machine.Mapping, error) {
	if e.Kind != d.Kind {
		return nil, fmt.Errorf("%w: %q was saved from a %s machine, not a %s one", ErrMismatch, e.Name, e.Kind, d.Kind)
	}
	if e.Fingerprint == machine.Fingerprint(d) {
		return nil, nil
	}
	return machine.NewMapping(e.States, e.Triggers, d), nil
}

// Exact returns an error wrapping ErrMismatch unless the entry was saved
// from a machine of d's kind and definition.
func (e *Entry) Exact(d *machine.Description) error {
	m, err := e.Mapping(d)
	if err != nil || m == nil {
		return err
	}
	msg := "its definition changed"
	if lost := m.Lost(); len(lost) > 0 {
		msg = fmt.Sprintf("its definition changed (states gone: %q)", lost)
	} else if len(e.States) != len(d.States) {
		msg = fmt.Sprintf("its definition changed (%d states, now %d)", len(e.States), len(d.States))
	}
	return fmt.Errorf("%w: %q: %s", ErrMismatch, e.Name, msg)
}

// Encode appends the save's bytes to b. It panics if two entries have the
// same name (Add and AddData refuse them; Entries is the game's to edit),
// since Decode would refuse the file.
func (f *File) Encode(b []byte) []byte {
	for i := range f.Entries {
		if indexOf(f.Entries[:i], f.Entries[i].Name) >= 0 {
			panic(fmt.Sprintf("save: File.Encode: two entries named %q", f.Entries[i].Name))
		}
	}
	start := len(b)
	b = append(b, magic...)
	b = wire.AppendUint(b, Version)
	b = wire.AppendUint(b, uint64(len(f.Entries)))
	for i := range f.Entries {
		e := &f.Entries[i]
		b = wire.AppendString(b, e.Name)
		b = append(b, byte(e.Kind))
		b = binary.LittleEndian.AppendUint64(b, e.Fingerprint)
		b = wire.AppendUint(b, uint64(len(e.States)))
		for _, s := range e.States {
			b = wire.AppendString(b, s)
		}
		b = wire.AppendUint(b, uint64(len(e.Triggers)))
		for _, t := range e.Triggers {
			b = wire.AppendString(b, t.Name)
			b = append(b, byte(t.Kind))
		}
		b = wire.AppendBytes(b, e.Data)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// Decode reads a save. The entries' Data are slices of b. The error wraps
// ErrCorrupt or ErrVersion and says at which byte reading stopped.
func Decode(b []byte) (*File, error) {
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: it does not start with %q", ErrCorrupt, magic)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	r := wire.NewReader(body)
	r.Fixed(len(magic))
	// The version first: a later format may end otherwise than this one.
	v := r.Uint()
	if r.Err() == nil && v > Version {
		return nil, fmt.Errorf("%w: format version %d; this fsmforge reads version %d and earlier", ErrVersion, v, Version)
	} else if v == 0 && r.Err() == nil {
		return nil, fmt.Errorf("%w: format version 0", ErrCorrupt)
	}
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, the file says %08x (truncated, or changed after it was written)", ErrCorrupt, got, sum)
	}
	f := &File{Entries: make([]Entry, r.Count(12, "machines"))}
	for i := range f.Entries {
		e := &f.Entries[i]
		e.Name = r.String()
		e.Kind = machine.Kind(r.Byte())
		if p := r.Fixed(8); p != nil {
			e.Fingerprint = binary.LittleEndian.Uint64(p)
		}
		e.States = make([]string, r.Count(1, "states"))
		for j := range e.States {
			e.States[j] = r.String()
		}
		if v >= 2 {
			e.Triggers = make([]machine.Trigger, r.Count(2, "triggers"))
			for j := range e.Triggers {
				e.Triggers[j] = machine.Trigger{Name: r.String(), Kind: machine.TriggerKind(r.Byte())}
			}
		}
		e.Data = r.Bytes()
		if r.Err() == nil && indexOf(f.Entries[:i], e.Name) >= 0 {
			r.Fail("a second machine named %q", e.Name)
		}
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return f, nil
}

func indexOf(entries []Entry, name string) int {
	for i := range entries {
		if entries[i].Name == name {
			return i
		}
	}
	return -1
}

// WriteFile writes the save to path: to a temporary file in the same
// folder first, then renamed over path, so that a crash mid-write never
// leaves half a save where the last good one was.
func WriteFile(path string, f *File) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(f.Encode(nil))
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp makes it 0600; a save is not a secret
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save: writing %s: %w", path, err)
	}
	return nil
}

// ReadFile reads and decodes the save at path; errors name the file.
func ReadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// AppendRecord appends rec after its length (an unsigned varint): how a
// game puts several snapshots (one per agent) in one entry's data.
func AppendRecord(b, rec []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(rec))), rec...)
}

// NextRecord splits the record AppendRecord wrote at the start of b from
// the rest. It returns an error wrapping ErrCorrupt if b is cut short.
func NextRecord(b []byte) (rec, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, b, fmt.Errorf("%w: a record is cut short", ErrCorrupt)
	}
	return b[k : k+int(n)], b[k+int(n):], nil
}
