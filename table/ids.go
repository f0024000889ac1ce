package table

import "strconv"

// StateID identifies a state of a [Table]: its index in the table, so data
// indexed by state is a plain slice. The four largest values are not states
// but the markers [Final], [Return], [AnyState] and [NoState]; as an int16
// (the binary form's reading) they are -1, -2, -3 and -4, so the article's "-1
// for the final state" holds byte for byte.
type StateID uint16

// The StateID markers. A transition's destination is a state, Final or
// Return; its source is a state or AnyState.
const (
	// Final is the destination of a transition into the final state: the
	// agent is done and the game should remove its entity (the article's
	// setDeletePending). -1 in the article's table.
	Final StateID = 0xFFFF
	// Return is the destination of a transition that goes back to the state
	// on top of the agent's stack, popping it.
	Return StateID = 0xFFFE
	// AnyState is the source of an any-state transition (the article's
	// message-handler shape): tried in every state, before the state's own.
	AnyState StateID = 0xFFFD
	// NoState fills the cells of the destination table for a test a state
	// does not use, and is the Result.To of an update that took no transition.
	NoState StateID = 0xFFFC
)

// String returns "#n" for a state, or "final", "return", "any" or "none"
// for the markers. Use [Table.StateName] for a state's name.
func (id StateID) String() string {
	switch id {
	case Final:
		return "final"
	case Return:
		return "return"
	case AnyState:
		return "any"
	case NoState:
		return "none"
	}
	return "#" + strconv.Itoa(int(id))
}

// TestID identifies one test of a [Table]: its index in the table's
// deduplicated list of tests (a name and an optional value, polled or a
// message). Hosts answer tests by TestID, typically with a switch or a slice
// of functions indexed by it.
type TestID uint16

// NoTest is the Result.Test of an update that took no transition.
const NoTest TestID = 0xFFFF

// String returns "test #n", or "no test" for [NoTest]. Use [Table.Test] for
// the name.
func (id TestID) String() string {
	if id == NoTest {
		return "no test"
	}
	return "test #" + strconv.Itoa(int(id))
}

// PropertyID identifies an entry-action property of a [Table], such as
// XMovement or Animation in the article's stencil: its index in the table's
// list of properties.
type PropertyID uint16

// String returns "property #n". Use [Table.Property] for the name.
func (id PropertyID) String() string { return "property #" + strconv.Itoa(int(id)) }

// ValueID identifies one value of a property's drop-list (left in XMovement
// {existing, right, left, death}): its index in that list, so ValueIDs are
// only meaningful together with their [PropertyID].
type ValueID uint16

// String returns "value #n". Use [Table.Value] for the name.
func (id ValueID) String() string { return "value #" + strconv.Itoa(int(id)) }

// Action is one entry action: set Property to Value when the state is
// entered. The host performs it ([Host.Do]). In a statechart table (see
// [StateKind]), actions are also performed on exit and by transitions,
// and an action may instead raise or send an event or cancel a timer
// (Kind; see [Builder.Raise], [Builder.Send], [Builder.Cancel]). The
// fields an action's kind does not use are zero (Event NoTest for a
// cancel, Timer NoTimer for a raise): Build refuses others.
type Action struct {
	Property PropertyID // the property to set, such as XMovement
	Value    ValueID    // one of its values, such as left

	Kind  ActionKind // GameAction (the zero value), or a statechart's own
	Event TestID     // the event a RaiseAction or SendAction makes
	Timer TimerID    // the timer a SendAction starts or a CancelAction stops
	Delay float64    // a SendAction's delay, in seconds of game time

	// Cond, in a statechart, makes the action conditional: it is
	// performed only when Cond holds (SCXML's <if>); nil always holds.
	Cond Cond
}

// Limits of a table. They are checked by [Builder.Build] and by decoding.
const (
	// MaxStates is the most states a table holds: every StateID below the markers.
	MaxStates = int(NoState)
	// MaxTests is the most tests a table holds: every TestID but NoTest.
	MaxTests = int(NoTest)
	// MaxProperties is the most entry-action properties a table holds, and
	// MaxValues the most values in one property's drop-list.
	MaxProperties = 0xFFFF
	MaxValues     = 0xFFFF
	// MaxCells bounds the destination table (tests × states), which bounds
	// the memory a table may take however it was made.
	MaxCells = 1 << 20
	// MaxMessages is the most message tests a table holds: the agent keeps
	// their flags in one 64-bit word.
	MaxMessages = 64
	// MaxName is the longest name or test value, in bytes.
	MaxName = 255
	// MaxStack is the deepest stack an agent may have, and the default
	// [Options.StackLimit]. The stack is stored in the agent, so that making
	// an agent costs no allocation.
	MaxStack = 16
)
