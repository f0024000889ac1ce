package table

import (
	"iter"
	"math"
)

// Options are the runtime settings a table carries, chosen by whoever built
// it (the designer, through the compiler) because they change what the
// machine does. The zero value is the article's runtime: one transition per
// update and a stack of [MaxStack] states.
type Options struct {
	// Chain makes [Agent.Update] keep taking transitions from the state it
	// entered while a test holds, as package fsm's GuardMachine does. By
	// default (false) an update takes at most one transition, as the article's
	// AIObject does; the next test is tried at the next update.
	Chain bool

	// ChainLimit bounds the transitions one chaining update takes: when it
	// has taken that many and a test still holds, the update stops with a
	// [*machine.ChainError]. Zero means the number of states in the table. At most
	// 65535; ignored unless Chain is set.
	ChainLimit int

	// StackLimit is the most states an agent's stack holds; a transition
	// that would push onto a full stack is not taken and the update returns a
	// [*StackError]. Zero means [MaxStack], which is also the largest value.
	StackLimit int

	// QueueLimit is, in a statechart table, the most events each of an
	// agent's two queues holds (internal: raised; external: posted and
	// sent); zero means [DefaultQueueLimit]. An event that finds its queue
	// full is dropped and the update returns an error wrapping
	// [ErrQueueFull].
	QueueLimit int

	// TimerLimit is, in a statechart table, the most sends with a delay an
	// agent keeps pending; zero means [DefaultTimerLimit]. A send over the
	// limit is dropped with an error wrapping [ErrQueueFull].
	TimerLimit int
}

// Test is one test of a table: a name from the transition stencil's
// drop-list, an optional value, and whether it is a message. Tests are
// deduplicated: a name and value pair appears once, and every transition
// that uses it refers to the same [TestID].
type Test struct {
	// Name is the test's name, such as "hitTriggerLeft".
	Name string
	// Value is the test's optional value ("" for none), for tests such as
	// health=low; the host reads it when it binds its tests.
	Value string
	// Message marks a test that holds when its message was received
	// ([Agent.Receive] or [Agent.Post]) rather than one the host is asked
	// about ([Host.Test]).
	Message bool
}

// String returns Name, or Name=Value when the test has a value.
func (t Test) String() string {
	if t.Value == "" {
		return t.Name
	}
	return t.Name + "=" + t.Value
}

// Transition is one transition of a table, as [Builder.AddTransition] takes
// it and [Table.Transitions] lists it.
type Transition struct {
	// From is the state the transition leaves, or [AnyState] for a
	// transition tried in every state before the state's own (except in its
	// own destination, which it never leaves for itself).
	From StateID
	// Test is the test that takes the transition when it holds.
	Test TestID
	// To is the destination: a state, [Final] or [Return].
	To StateID
	// Push pushes the state the transition leaves onto the agent's stack,
	// for a later transition to [Return] to come back to. Not allowed with
	// To Final or Return.
	Push bool

	// The fields below are those of a statechart table's transitions (see
	// [StateKind]); a flat table's are zero. In a statechart table, Test is
	// the trigger when it is a message test, or a condition when it is a
	// polled test, or NoTest; To is NoState for a transition without
	// target, which performs its actions and leaves no state.

	// Events are further events (message tests) that trigger the
	// transition: any of them, or Test, does.
	Events []TestID
	// Cond is the transition's condition, which must hold too.
	Cond Cond
	// Also lists further targets: states in other regions of a parallel
	// state, entered with To.
	Also []StateID
	// Internal makes a transition whose targets are all inside its source
	// leave and re-enter only what is inside the source.
	Internal bool
	// Actions are performed while the transition is taken: after the
	// states left have run their exit actions, before the states entered
	// run their entry actions.
	Actions []Action
}

// Table is a compiled state machine: the article's state table plus names. It
// holds the deduplicated tests, the entry-action properties and their
// values, the states with the ordered tests of their transitions and their
// entry actions, the any-state transitions, and the destination table
// indexed by test and state.
//
// A Table is made by [Builder.Build] or by decoding ([Table.UnmarshalBinary],
// [Table.UnmarshalJSON]), both of which validate it, and is not changed
// afterwards: it is safe for concurrent use, and every [Agent] running it
// shares it. A zero Table has no states; it must not be given to
// [NewAgent]. Unmarshalling into a Table that agents are using is a
// programmer error.
type Table struct {
	name    string
	opts    Options
	props   []property
	tests   []Test
	states  []state
	initial StateID
	any     []Transition // From is AnyState
	dest    []StateID    // len(tests) × len(states): the cell for test t and state q is t*len(states)+q
	push    []byte       // one bit per dest cell, least significant bit first

	// Derived by compile, for the runtime.
	spans []span // per state: its steps and its entry actions
	steps []step // per state, the any-state transitions that apply there, then its own
	// polled holds, per state, the steps of steps that have a polled test,
	// in the same order: all an update tries when no message is posted.
	polled []step
	acts   []gameAction
	slot   []uint8 // per test: message slot, or noSlot for a polled test

	sc *statechart // a statechart table's runtime data; nil for a flat table
	fp uint64      // Fingerprint, once worked out (atomic; 0 before)
}

type property struct {
	name   string
	values []string
}

type state struct {
	name    string
	tests   []TestID // ordered: the tests of the state's transitions
	actions []Action
}

// span locates one state's runtime data.
type span struct {
	lo, hi   uint32 // steps
	plo, phi uint32 // polled: the steps with a polled test, in order
	alo, ahi uint32 // acts
	sensed   uint64 // the polled tests, by ID, of those below 64
	narrow   uint8  // 1 if every polled test's ID is below 64
}

// step is one transition as the runtime tries it.
type step struct {
	test TestID
	to   StateID
	slot uint8 // message slot, or noSlot for a polled test
	push bool
}

const noSlot = math.MaxUint8

// gameAction is an entry action of a flat table as the runtime performs
// it: an Action without what only statecharts use.
type gameAction struct {
	Property PropertyID
	Value    ValueID
}

// Name returns the table's name ("goomba"), which may be empty.
func (t *Table) Name() string {
	if t == nil {
		return ""
	}
	return t.name
}

// Options returns the table's runtime options as they were built, zeros
// (defaults) included.
func (t *Table) Options() Options { return t.opts }

// NumStates returns the number of states; their IDs are 0 to NumStates()-1.
func (t *Table) NumStates() int { return len(t.states) }

// NumTests returns the number of tests; their IDs are 0 to NumTests()-1.
func (t *Table) NumTests() int { return len(t.tests) }

// NumProperties returns the number of entry-action properties.
func (t *Table) NumProperties() int { return len(t.props) }

// Initial returns the initial state.
func (t *Table) Initial() StateID { return t.initial }

// HasState reports whether s is a state of t (not a marker).
func (t *Table) HasState(s StateID) bool { return t != nil && s >= 0 && int(s) < len(t.states) }

// StateName returns the name of state s, or s.String() for a marker or an
// ID that is not a state of t.
func (t *Table) StateName(s StateID) string {
	if !t.HasState(s) {
		return s.String()
	}
	return t.states[s].name
}

// LookupState returns the state named name. It costs a scan of the states.
func (t *Table) LookupState(name string) (StateID, bool) {
	for i := range t.states {
		if t.states[i].name == name {
			return StateID(i), true
		}
	}
	return NoState, false
}

// Test returns test id, or a zero Test if t has no such test.
func (t *Table) Test(id TestID) Test {
	if int(id) >= len(t.tests) {
		return Test{}
	}
	return t.tests[id]
}

// testName returns the test's String, or id's for an unknown test.
func (t *Table) testName(id TestID) string {
	if t == nil || int(id) >= len(t.tests) {
		return id.String()
	}
	return t.tests[id].String()
}

// LookupTest returns the test with this name and value ("" for none),
// polled or message. It costs a scan of the tests.
func (t *Table) LookupTest(name, value string) (TestID, bool) {
	for i := range t.tests {
		if t.tests[i].Name == name && t.tests[i].Value == value {
			return TestID(i), true
		}
	}
	return NoTest, false
}

// Property returns the name of property p, or p.String() if t has none such.
func (t *Table) Property(p PropertyID) string {
	if int(p) >= len(t.props) {
		return p.String()
	}
	return t.props[p].name
}

// LookupProperty returns the property named name. It costs a scan of the
// properties.
func (t *Table) LookupProperty(name string) (PropertyID, bool) {
	for i := range t.props {
		if t.props[i].name == name {
			return PropertyID(i), true
		}
	}
	return 0, false
}

// NumValues returns the number of values in property p's drop-list, 0 if t
// has no property p.
func (t *Table) NumValues(p PropertyID) int {
	if int(p) >= len(t.props) {
		return 0
	}
	return len(t.props[p].values)
}

// Value returns the name of value v of property p, or v.String() if there
// is none such.
func (t *Table) Value(p PropertyID, v ValueID) string {
	if int(v) >= t.NumValues(p) {
		return v.String()
	}
	return t.props[p].values[v]
}

// LookupValue returns the value of property p named name. It costs a scan
// of the property's values.
func (t *Table) LookupValue(p PropertyID, name string) (ValueID, bool) {
	for i := range t.NumValues(p) {
		if t.props[p].values[i] == name {
			return ValueID(i), true
		}
	}
	return 0, false
}

// Actions yields the entry actions of state s in the order the host
// performs them. It yields nothing if s is not a state of t.
func (t *Table) Actions(s StateID) iter.Seq[Action] {
	return func(yield func(Action) bool) {
		if !t.HasState(s) {
			return
		}
		for _, a := range t.states[s].actions {
			if !yield(a) {
				return
			}
		}
	}
}

// Transitions yields the transitions leaving from, in the order their tests
// are tried; from may be [AnyState] for the any-state transitions. (In a
// state, the any-state transitions are tried first.) It yields nothing if
// from is neither a state of t nor AnyState.
func (t *Table) Transitions(from StateID) iter.Seq[Transition] {
	if t.sc != nil {
		return t.sc.transitions(from)
	}
	return func(yield func(Transition) bool) {
		if from == AnyState {
			for _, tr := range t.any {
				if !yield(tr) {
					return
				}
			}
			return
		}
		if !t.HasState(from) {
			return
		}
		for _, id := range t.states[from].tests {
			cell := t.cell(id, from)
			if !yield(Transition{From: from, Test: id, To: t.dest[cell], Push: t.pushAt(cell)}) {
				return
			}
		}
	}
}

// Dest returns the destination table's cell for test id and state s: the
// destination of s's transition on that test (a state, [Final] or
// [Return]), or [NoState] if s has no transition on it or either ID is out
// of range. Any-state transitions are not in the destination table.
func (t *Table) Dest(id TestID, s StateID) StateID {
	if int(id) >= len(t.tests) || !t.HasState(s) {
		return NoState
	}
	return t.dest[t.cell(id, s)]
}

func (t *Table) cell(id TestID, s StateID) int { return int(id)*len(t.states) + int(s) }

func (t *Table) pushAt(cell int) bool { return t.push[cell>>3]>>(cell&7)&1 != 0 }

// stackLimit returns the effective stack limit.
func (t *Table) stackLimit() int {
	if t.opts.StackLimit > 0 {
		return t.opts.StackLimit
	}
	return MaxStack
}

// chainLimit returns the effective chain limit.
func (t *Table) chainLimit() int {
	if t.opts.ChainLimit > 0 {
		return t.opts.ChainLimit
	}
	return len(t.states)
}
