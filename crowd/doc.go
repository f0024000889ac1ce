// Package crowd runs one state machine over many entities at once: a
// million monsters sharing idle, wander, chase and flee.
//
// A [Machine] is built once from its states ([Def]): a name and a state
// function. Entities are added with the game's own [ID] and their data, of
// any type E: a handle into the game's columns, a pointer, or the data
// itself. Each [Machine.Step] runs every entity's state function once; the
// function returns the entity's next state, or [Final] to remove it.
//
// # Design
//
// The entities of each state sit together in that state's bucket, so a
// step runs one function over a run of entities instead of a switch per
// entity. A state function gets the state the entity was in at the
// previous step, so it can tell that the entity has just entered (prev !=
// its own state) and run its entry code; there are no separate enter and
// exit callbacks.
//
// The entities' data is stored in the buckets and moves with the entities,
// so a step visits memory in order. Most entities stay in their state from
// one step to the next, and stay where they are; the ones that change state
// (the movers) are copied aside as their functions return, and the holes
// they leave are filled with the stayers from the end of their run of
// storage, one copy per mover. Once every function has run, the movers are
// appended to the end of the storage, one run per state per step. The
// state an entity was in at the previous step is kept per run of entities,
// not per entity: the stayers of a state all come from it, and the
// newcomers arrive grouped by the state they left; entities added to one
// state one after another, between steps, make one run. When the storage
// holds too many holes the buckets are copied back into one run each. As
// with the article's double-buffered buckets, a step never sees its own
// effects:
// [Machine.StateOf] answers with the states before the step, and adds and
// removes asked for during it take effect after it.
//
// Two forms of state function exist. [Func] gets one entity at a time,
// through a function value. [BatchFunc] gets a pointer to a [Batch] of up to
// 256 entities of its state at once, so the loop over them
// is the game's own and the compiler inlines the per-entity work.
//
// # Workers and determinism
//
// A step cuts the buckets into tasks of at most ChunkSize entities and runs
// them on [Machine.Workers] goroutines (by default GOMAXPROCS). The cut
// depends only on the buckets, and every task writes only its own
// entities, so the result of a step (each entity's state and data, the
// order inside every bucket, the errors reported, the order of
// [Options.OnFinal] calls) is the same whatever the number of workers. A
// game that seeds its randomness per entity is deterministic on any
// machine. StateID functions run concurrently: they may change their own
// entity freely, and read other game data that the step does not change.
//
// # Errors
//
// A state function that returns a state the machine does not have keeps its
// entity where it was; Step returns a [*StepError] that counts these and
// describes the first few. A state function that panics makes Step panic on
// the caller's goroutine with a [*PanicError] naming the state and entity;
// no entity is lost (see PanicError).
//
// # Watching
//
// [Machine.Count], [Machine.Counts] and [Machine.Transitions] (the from→to
// counts of the last step, as [machine.Count] values: [Transition] is that
// type) read what the step recorded anyway; nothing is counted for them.
// [Machine.Each] lists a state's entities in order.
//
// [Machine.Describe] lists the states as a [machine.Description], the
// vocabulary every fsmforge runtime shares, with no transitions: a crowd's
// state functions decide at run time where each entity goes, so there are
// none to list. [Machine.Observe] attaches a [machine.Observer] (a
// [machine.Recorder], say) that is told of every entity that changes
// state, as a [machine.Event]: Entity is its ID, From and To its states
// ([machine.Final] when it returned Final), Cause [machine.CauseCall]. The
// workers report as they go, each the events of a task (up to ChunkSize
// entities of one state) once it has run, 256 at a time, to ObserveBatch
// when the observer has it: the order of the tasks' reports depends on the
// workers, the events inside each do not. With no observer attached a step
// pays a check per task (no instruction more per entity, counted with
// callgrind); with a Recorder recording every change of state, a step of
// W3 (a million entities, one in ten changing state) takes 4 to 8% longer,
// on one worker or two: 40 bytes written per event by the crowd, and
// copied by the Recorder (BenchmarkW3's recorder runs, medians of 5 on a
// shared 2-core machine).
//
// # Saving and restoring
//
// [Machine.Snapshot] fills a [Snapshot], the machine's state as plain data:
// per entity, in bucket order, its ID, state, previous state and data; and
// how the storage is cut into runs, with its holes and the run that adds
// join. [Machine.Restore] puts a snapshot back, into the same machine or a
// fresh one made by [New] with the same states and options: each entity
// with its previous state, so that no state function runs its entry code
// again, and, with the same ChunkSize, the storage cut as it was, so that
// the machine goes on exactly as the one saved would have (the same states,
// data, bucket order, counts, transitions and OnFinal calls, step after
// step, whatever the number of workers). A replay or a rollback restores
// and steps again to the same frame. Restore checks the whole snapshot
// first and changes nothing if it is not one the machine could hold.
//
// [Snapshot.AppendBinary] and [Snapshot.Decode] write and read a
// snapshot's binary form, the game's data going through a [machine.Codec]
// it gives (a zero Codec saves no data, for a game that keeps its
// entities' data itself, by ID). The form is: the format version (an
// unsigned varint, now 1), the step count, the number of entities, each
// entity's ID in 4 bytes little endian, the number of runs and for each its
// state, its previous state plus one (0 for NoState) and its length, the
// holes, the open state plus one (0 for none), a byte saying whether data
// follows, and then for each entity, in order, the length and the bytes of
// its data as the Codec wrote them. Numbers are unsigned varints unless
// said otherwise. That is 4 bytes per entity, plus its data and, for data
// under 128 bytes, one byte of length; and a few bytes per run, about one
// run per ChunkSize entities and one per pair of states an entity moved
// between in the last step: 4.004 bytes per entity for a million entities
// without data after 30 steps of W3, 33 with W3's 28-byte monsters.
// Decode never allocates more than its input accounts for.
//
// [Snapshot.Remap] renumbers a snapshot's states by name for a machine
// whose states changed ([machine.Mapping]): an entity whose state is gone
// goes to the mapping's fallback, reported with its ID.
//
// For a million entities (BenchmarkSnapshot, E struct{}), Snapshot takes
// about 1.5 times as long as copying the 12 bytes per entity a snapshot
// holds, Restore about 3 times (it writes each entity's state in the index
// by ID, in bucket order: at random), AppendBinary about 1.9 times and
// Decode about as long. Snapshot, AppendBinary and
// Decode allocate nothing once their buffers have grown; Restore
// allocates nothing either once it has restored as many entities before.
//
// # Redefining
//
// [Machine.Redefine] moves a running machine onto a new version of its
// definition, for a game whose designer edits the machine while it runs:
// states renamed, added, removed (their entities sent to a fallback,
// reported by ID) or reordered, functions changed. It works in place:
// it renumbers and merges the buckets, a merged bucket holding the old
// buckets in ascending order of old state, and rewrites the index by ID,
// copying no entity's data. The machine then goes on exactly as a machine
// made by New with the new states, into which its snapshot, remapped by
// the same [machine.Mapping], was restored. For a million entities
// (BenchmarkRedefine) a state renamed or added takes about 1.6 µs, the
// states reordered (every entity changing ID) 0.55 ms, a state removed and
// its quarter of the entities sent to the fallback 2.4 ms, most of it
// listing them in the mapping's Moved; a Snapshot and a Restore take 23
// ms, and into a machine made by New with the new states 53 ms, allocating
// 124 MB.
//
// # What the machine keeps
//
// When E holds pointers (pointers, strings, slices, maps, channels,
// functions or interfaces, at any depth), the machine keeps no copy of an
// entity's data once the entity has left it, so that the garbage collector
// can free what the data points to. An entity's data moves: inside the
// storage, through the arena where a step's movers wait, to the spare
// storage when the storage is rewritten; each place it leaves is set to the
// zero value of E by the worker that moves it, while it is in cache. An
// entity that returned [Final] has its data dropped at the end of its step,
// once [Options.OnFinal] has seen it. The data of an entity removed by
// [Machine.Remove] stays, unseen, in its bucket until the bucket is
// compacted, at the start of the next step (or at an Add of its ID before
// then). An add asked for during a step and not carried out drops its data
// at the end of the step.
//
// When E holds no pointers (numbers, and arrays and structs of them), the
// step leaves the stale bytes where they are: they keep nothing alive, and
// clearing them would cost a write per mover and per entity copied by a
// defrag, a few percent of a step of W3's monsters. [New] looks at E once.
//
// # Choosing crowd
//
// Use crowd when many entities share one machine and the machine is simple
// enough to be one function per state: on one core the per-entity cost is
// below that of a hand-written switch over the entities when they fit in
// cache, and about the same at a million (see the README's measurements);
// the work spreads over cores, which a switch over one slice does not. Use
// package fsm when an entity's machine has guards, enter and exit actions,
// messages or a history that differ per entity, or when there are only a
// few hundred entities.
//
// # Costs
//
// Step allocates nothing in steady state, with or without an observer. The
// storage and its spare for
// defragmenting each hold up to 2.25 times the entities (their data plus
// their 4-byte ID): the storage is rewritten when the holes left by the
// movers make it twice the entities, every ten steps or so when one in ten
// moves. The arena where movers wait holds about 1.3 times the entities,
// so about 5.8 times the entities in all at the peak; plus a byte per ID up
// to the largest (4 bytes in a machine of more than 254 states), and two
// arrays of 4 bytes per state for each worker; with an observer, a buffer
// of 256 events (40 bytes each) per worker. A machine that has been
// restored keeps a second index by ID, the one Restore replaced, for the
// next Restore. IDs above [Options.MaxID]
// (by default 16,777,215) are refused, so a stray ID cannot make the index
// by ID grow to gigabytes.
package crowd
