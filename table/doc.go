// Package table holds compiled state tables and the runtime that executes
// them: the form a designer's drawing takes in the game, as in "Visual
// Finite State Machine AI Systems" (Gamasutra, 2004), where Visio drawings
// become state tables run by a small AIObject.
//
// A [Table] is built by code ([Builder]) or decoded from its binary or JSON
// form; package compile lowers a designer's chart into one. An [Agent] runs
// a table for one entity against the game's [Host], which answers the
// table's tests and performs its entry actions. Many agents share one
// table.
//
// # Layout
//
// A table is the article's state table, with names kept for every state,
// test, property and value so that traces, viewers and saved games use
// stable names:
//
//   - Tests: the transitions' conditions, deduplicated: a name from the
//     transition stencil's drop-list and an optional value (health=low) is
//     one [Test] with one [TestID], however many transitions use it. A test
//     is polled (the host answers it) or a message (it holds when the agent
//     has received it).
//   - Properties: the entry actions' drop-lists, such as XMovement
//     {existing, right, left, death}. An entry action ([Action]) sets a
//     property ([PropertyID]) to one of its values ([ValueID]).
//   - States: for each, the ordered TestIDs of its transitions and its entry
//     actions; one is the initial state (the first unless said otherwise).
//   - The destination table, tests × states: the cell for test t and state
//     q, at t×states+q as in the article, holds where q goes when t holds: a
//     state, [Final] (-1 as an int16, the article's final state), or [Return];
//     [NoState] (-4) when q has no transition on t. A parallel bit says
//     whether the transition pushes.
//   - Any-state transitions (the article's message-handler shape): tests with a
//     destination, tried in every state before the state's own.
//   - [Options]: whether updates chain, and the chain and stack limits.
//
// The same table always encodes to the same bytes, and building the same
// table by the same calls gives the same table.
//
// # The runtime
//
// [NewAgent] puts an agent in the initial state and performs its entry
// actions. Each [Agent.Update] then:
//
//  1. tries the current state's transitions in order, the any-state ones
//     first (an any-state transition is skipped in its own destination:
//     it never leaves a state for the same state);
//  2. for each, a polled test holds if [Host.Test] says so; a message test
//     holds if its message was posted since the last update;
//  3. takes the first whose test holds: pushes the state it leaves if the
//     transition says so, goes to the destination (for Return, pops the
//     stack and goes there), and performs the new state's entry actions in
//     order through [Host.Do] — a transition to the state it leaves enters
//     it again, and a Return enters the state returned to again;
//  4. stops there: one transition per update, as the article's AIObject does,
//     unless the table chains (below). A transition to Final makes the agent
//     done (its Result says [Result.Final]); the game removes the entity, as
//     the article's setDeletePending does.
//
// [Agent.Receive] is the article's receive(): it sets the message's flag and
// updates at once. [Agent.Post] only sets the flag, for the next update. A
// flag is consumed by the transition that uses it, and every flag an update
// saw is cleared when it returns: a message the current state does not test
// is dropped. Messages posted during an update (by the host's Test or Do)
// wait for the next update.
//
// # Chaining
//
// With [Options.Chain], an update goes on from the state it entered, trying
// its transitions in turn, until no test holds, the agent is done, or it has
// taken [Options.ChainLimit] transitions (by default the number of states):
// if a test still holds then, the update stops with a [*machine.ChainError] naming
// the states visited, as package fsm's guarded machines do. Without it
// (the default) a state whose test already holds on entry leaves at the
// next update. Chaining is a property of the table because it changes what
// the machine does.
//
// # The stack
//
// A transition with Push pushes the state it leaves; a transition to Return
// pops the top state and enters it: the pushdown extension of the article. The stack
// is stored in the agent, at most [MaxStack] (16) states deep, or
// [Options.StackLimit]. A push onto a full stack or a return with an empty
// one is not taken: the update returns a [*StackError] and the agent stays
// where it was.
//
// # Hosts
//
// The game implements [Host]: Test(entity, TestID) bool for polled tests
// and Do(entity, PropertyID, ValueID) for entry actions. IDs are dense, so a
// host binds the table once by name ([Table.LookupTest],
// [Table.LookupProperty], [Table.LookupValue]) or checks its own constants
// against it, then answers with a switch or a slice indexed by ID: no map
// look-up and no allocation per test.
//
// A game that works out what its entities perceive once per frame, in its
// own code, can give that to [Agent.UpdateSensed] as a set of bits (bit t
// for polled test t) instead, as Unity's Animator reads the parameters the
// game sets: the host is then only asked to perform entry actions (and
// about the tests past the 64th).
//
// # Crowds
//
// Package github.com/fsmforge/fsmforge/crowd/tablecrowd runs one flat
// table for many entities on package crowd's buckets and workers, with
// each entity's update exactly an Agent's. It lives there so that this
// package, and code generated from its tables, do not depend on the
// worker pool.
//
// # Statecharts
//
// A statechart table (see [StateKind]; package compile makes one from an
// SCXML document, and from any chart whose states nest) runs with the
// semantics of the W3C SCXML recommendation, the one published
// definition of statechart behaviour, checked on the W3C's own tests (see
// the README). What a game programmer needs of it:
//
//   - An agent is in a configuration: an atomic state and every state it
//     is nested in; inside a parallel state, one state in each region.
//     [Agent.In] and [Agent.AppendActive] say which; [Agent.State] is the
//     first active atomic state (in the order states were added), or the
//     top-level final state the agent ended in.
//   - Entering a compound state enters its initial child (the state
//     marked initial, else its default transition's targets, else its
//     first child); a parallel state enters all its regions; a history
//     state enters what was active in its parent when the parent was last
//     left (the children for a shallow history, every atomic state below
//     for a deep one), or its default transition's targets the first time.
//   - Events are the table's message tests. [Agent.Post] puts one on the
//     external queue; a RaiseAction puts one on the internal queue, which
//     is always emptied first; a SendAction puts one on the external queue
//     at once, or after a delay in game time: give the time with
//     [Agent.SetTime] each frame, and sends whose time has come join the
//     queue at the next update, earliest first. A CancelAction takes back
//     a timer's pending sends; a state timer ("after 2 s") is a send on
//     entry and a cancel on exit. Entering a final state raises
//     "done.state.P" for its parent P (when the table has that message),
//     and for a parallel state when all its regions are final.
//   - A microstep takes a set of transitions: the eventless ones whose
//     condition holds, or else those of the next internal event, or else
//     of the next external event (an event that enables nothing is
//     dropped). For each active atomic state, in order, the first enabled
//     transition of the state, else of its parent, and so up, is taken;
//     of two that would leave the same state, the one from the deeper
//     source, else the first, wins. Taking them exits the states they
//     leave (innermost first, recording history, running exit actions),
//     performs their actions, then enters their targets (outermost first,
//     running entry actions). A transition with To NoState only performs
//     its actions; an internal one whose targets are inside its source
//     does not leave the source.
//   - An update takes one microstep by default, as the article's AIObject
//     takes one transition. With [Options.Chain] it takes microsteps until
//     no eventless transition is enabled and both queues are empty (SCXML's
//     macrosteps, every event posted before it included), at most
//     ChainLimit of them: a [*machine.ChainError] then says where it stopped.
//   - Any-state transitions are the root's: tried after the states' own
//     and their ancestors'.
//   - The pushdown stack: a transition with Push saves its source state
//     with the atomic states active inside it (an any-state one, the
//     whole configuration), up to [Options.StackLimit]; a transition to
//     [Return] goes back to them, as a deep history would, popping them.
//     A return with nothing pushed, or a push onto a full stack, is not
//     taken, and the update returns a [*StackError]. Transitions of one
//     microstep (in parallel regions) that push more than the stack has
//     room for are taken, and the pushes that find it full are dropped
//     without an error: each was checked against the stack as it was
//     before the microstep.
//   - Crowds (package tablecrowd) do not run statechart tables yet: its
//     New says so.
//     Agents, snapshots and saves do ([Snapshot]), and generated code
//     (package gogen) runs them all, the stack included.
//   - A statechart agent's memory is fixed when it is made: six sets of
//     one bit per state (the configuration and a microstep's scratch), one
//     more per history state, two queues of [Options.QueueLimit] events,
//     [Options.TimerLimit] pending sends (24 bytes each), and lists of up
//     to one transition per state. [NewAgent] allocates them; updates
//     allocate nothing, and cost one interface call per polled test asked
//     and per game action, plus a pass over the configuration per
//     microstep (BenchmarkGuard: about 56 ns per agent and update, against
//     10 for the flat Goomba).
//
// # Snapshots and saves
//
// An agent's state is plain data: [Agent.Snapshot] copies it into a
// [Snapshot] (IDs, which [Table.StateName] and [Table.Test] turn into
// names), reusing the snapshot's slices, and [RestoreAgent] makes an agent
// from one, performing no action, after checking all of it against the
// table. The restored agent continues exactly as the saved one would have:
// the same host calls, results and errors, given the same answers,
// messages and times (TestExactContinuation checks it on hundreds of
// random tables saved at a random frame). For a flat agent a snapshot is
// the state, the done flag, the stack and the messages posted; for a
// statechart agent, also the configuration (every active state), what each
// history state recorded, both event queues, the pending sends with their
// due times in firing order, the game time, and the configuration saved
// with each stack entry.
//
// A snapshot's binary form ([Snapshot.AppendBinary],
// [Snapshot.UnmarshalBinary]) is format 1 of the runtime contract, shared
// byte for byte with the snapshots of code package gogen generates, so that
// a save made with a table restores into generated code and back. In
// internal/wire's numbers (unsigned varints unless said otherwise):
//
//	flags        1 byte: bit 0 done, bit 1 statechart, other bits 0
//	State        signed varint: a state's ID, or a marker as its int16
//	             reading (NoState -4, AnyState -3)
//	Stack        count, then each entry as State is written, bottom first
//	Posted       count, then each TestID, ascending
//	only for a statechart:
//	Active       count, then each active state's ID, ascending
//	History      count, then per history state that recorded, ascending by
//	             ID: its ID, count, the recorded states ascending
//	Internal     count, then the events in queue order; External likewise
//	Timers       count, then in firing order (due time, then sending):
//	             timer ID (NoTimer is 65535), event TestID, due time (8
//	             bytes, IEEE 754 little endian)
//	Now          8 bytes, IEEE 754 little endian
//	Saved        count (the stack's depth), then each: count, the atomic
//	             states ascending
//
// Timers' sequence numbers are not written: restoring numbers them in the
// order written, which keeps every ordering the same. Decoding checks the
// encoding only; restoring checks the rest.
//
// [AppendAgents] saves a slice of agents of one table at once: a header
// with the table's [Table.Fingerprint] and the names of its states, tests
// and timers, then each agent's snapshot in binary, written without making
// one for a flat agent (about 4 bytes and 5 ns per Goomba).
// [RestoreAgents] loads it into the same table (about 25 ns per Goomba),
// and refuses a table with another fingerprint. [RemapAgents] loads it into
// a changed table: states through a [machine.Mapping] by name
// ([SavedStates], [Snapshot.Remap]), tests and timers by name; an agent
// whose state is gone goes to the mapping's fallback and is reported.
//
// # Describing and observing
//
// [Table.Describe] gives the table in package machine's vocabulary
// ([machine.Description]): states with their kinds and parents, the tests
// as triggers, and the transitions grouped by source in the order the
// runtime tries them, any-state ones listed under each state they are
// tried in. [Table.Fingerprint] hashes it.
//
// [Agent.Observe] attaches a [machine.Observer] to an agent, which is then
// told of every transition it takes (every microstep, for a statechart),
// with what caused it and the transition's index in the description. With
// no observer, an update pays one comparison per transition taken; with a
// [machine.Recorder], a copy of the event under its lock per transition
// (on BenchmarkGoomba, one transition every 35 frames, about 0.9 ns per
// goomba and frame).
//
// # Binary form
//
// Little-endian throughout. A str is a one-byte length and that many bytes
// of UTF-8 (names are 1 to 255 bytes; a test's value may be empty).
//
//	offset  size  field
//	0       4     magic "FSMT"
//	4       2     format version, 1
//	6       2     flags, 0 (a reader rejects flags it does not know)
//	8       4     length of the whole file in bytes, checksum included
//	12      4     reserved, 0
//	16      …     six sections, in this order, each a 4-byte ASCII tag, a
//	              4-byte length of what follows, and that many bytes:
//	  META  str name; 1 byte option flags (bit 0: Chain); 2 ChainLimit;
//	        1 StackLimit
//	  PROP  2 count; per property: str name, 2 count, per value: str value
//	  TEST  2 count; per test: 1 kind (0 polled, 1 message), str name,
//	        str value
//	  STAT  2 count; 2 initial state; per state: str name, 2 count, per
//	        transition: 2 TestID; 2 count, per entry action: 2 PropertyID,
//	        2 ValueID
//	  ANYS  2 count; per any-state transition: 2 TestID, 2 destination,
//	        1 push (0 or 1)
//	  DEST  2 tests; 2 states; tests×states cells of 2 bytes, the cell for
//	        test t and state q at index t×states+q (a StateID, or 0xFFFF
//	        Final, 0xFFFE Return, 0xFFFC none); then ⌈cells/8⌉ bytes of push
//	        bits, cell i at bit i%8 of byte i/8, unused bits 0
//	end−4   4     CRC-32 (IEEE, hash/crc32) of every byte before it
//
// A statechart table is written as version 2: META, PROP and TEST as
// above, then one section in place of STAT, ANYS and DEST:
//
//	CHRT  2 QueueLimit; 2 TimerLimit; 2 count, per timer: str name;
//	      2 count; per state: str name, 1 kind (a StateKind), 2 parent
//	      (0xFFFC at the top), entry actions, exit actions; 2 count, per
//	      state marked initial: 2 StateID; then three transition lists:
//	      the states', the any-state ones, the default ones.
//	      Actions: 2 count; per action: 1 kind (an ActionKind),
//	      2 PropertyID, 2 ValueID, 2 event TestID, 2 TimerID (0xFFFF
//	      none), 8 delay (float64 bits), condition.
//	      Transition list: 4 count; per transition: 2 source, 2 TestID
//	      (0xFFFF none), 2 target (0xFFFC none), 1 flags (bit 0 push,
//	      bit 1 internal), 2 count of events and 2 TestID each,
//	      condition, 2 count of further targets and 2 StateID each,
//	      actions.
//	      Condition: 2 count; per term: 1 CondOp, 2 TestID, 2 StateID.
//
// Decoding version 2 builds the table again with a [Builder], which
// checks it. Flat tables are still written as version 1, byte for byte as
// before, and both versions are read.
//
// The Goomba table takes 339 bytes. [Table.UnmarshalBinary] checks the
// header, the length and the checksum before reading the sections, checks
// every count against the bytes left before allocating, and then validates
// the table as [Builder.Build] does. It reports the first problem found in
// the file with its byte offset, or every problem with the table, as an
// [diag.List]; it never panics. Decoding and re-encoding a valid file gives
// the same bytes.
//
// # JSON form
//
// [Table.MarshalJSON] writes a document for people: the format name and
// version, the options, the properties with their values, the tests, the
// initial state's name, the any-state transitions, and the states with
// their entry actions ({"property": "XMovement", "value": "left"}) and
// transitions ({"test": "hitTriggerLeft", "to": "walkRight"}, with "value"
// for a test's value, "final": true or "return": true instead of "to", and
// "push": true). IDs are positions in the arrays; the destination table is
// not written, since the transitions say the same. [Table.UnmarshalJSON]
// reads it back to an identical table, rejecting unknown members. A
// statechart table is written as version 2, which adds to each state its
// "kind", "parent", "initial" and "exit" actions, to actions "kind"
// ("raise", "send", "cancel"), "event", "timer", "delay" and "cond", to
// transitions "events", "cond" (terms in postfix: {"op": "test", "test":
// "seesPlayer"}, {"op": "in", "state": "aim"}, {"op": "not"}...),
// "also", "internal" and "actions", and "timers" and "defaults" (default
// transitions, with "from") to the table.
//
// # Costs
//
// For a flat table, [NewAgent] allocates nothing. [Agent.Update] allocates
// nothing unless it returns a StackError or ChainError; it costs one
// interface call per polled test tried (message tests are a bit test, and
// an update with nothing posted skips them) and one per entry action
// performed. On the Goomba benchmarks (BenchmarkGoomba here and in
// gogen/internal/goombagen) that is about 2× a hand-written switch of the
// same machine: both are a call per entity (the compiler inlines neither),
// but the switch reads the entity's fields directly where the agent makes
// an interface call to the host for the polled test. That call structure
// alone (the benchmark's "floor") costs 1.3 to 1.7× the switch.
// [Agent.UpdateSensed] makes no call to the host for the tests and costs
// that floor or more (the benchmark's game works out every test's answer
// each frame), the call to it being what remains. Making the agent generic
// in the host's type does not remove the interface call (Go calls a type
// parameter's methods through its dictionary), nor did a build with
// profile-guided optimisation that we tried (the call in the generic Update
// stayed an interface call); generated code does.
//
// A Table is safe for concurrent use; an Agent is not. Build and the
// decoders cost time and memory in proportion to the file or to tests ×
// states, which [MaxCells] bounds.
package table
