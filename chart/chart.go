package chart

import (
	"fmt"
	"strconv"

	"github.com/fsmforge/fsmforge/diag"
)

// Chart is a state machine as a designer drew it, before any check: the
// states and transitions of the drawing, where each came from, and the
// stencil it was drawn with. Importers (package chart/visio and others)
// return one; package compile checks it and lowers it into a table.
//
// States and Transitions are in document order: pages in order, shapes in
// the order the file lists them, groups before their members. A Chart is
// plain data, safe to read from several goroutines once built.
type Chart struct {
	// Name names the machine: by default the file's base name without its
	// extension ("goomba" for goomba.vdx).
	Name string `json:"name"`

	// File is the file the chart was read from, as given to the importer.
	File string `json:"file,omitempty"`

	// Stencil is the stencil the drawing was read with, or nil for a plain
	// state diagram.
	Stencil *Stencil `json:"stencil,omitempty"`

	// Chain and ChainLimit are what the drawing says of how its machine
	// runs, when it says so (each importer's documentation says where: a
	// property of the drawing as a whole): Chain lets an update take
	// transitions until no test holds, at most ChainLimit of them (0: the
	// number of states). Package compile chains when the chart or its
	// options say so, so that a table and the code generated from the
	// same drawing run alike without flags.
	Chain      bool `json:"chain,omitempty"`
	ChainLimit int  `json:"chainLimit,omitempty"`

	// Fallback names the state that agents go to when a new version of
	// the drawing, loaded while the game runs (package reload), no longer
	// has the state they are in: the name of one of the chart's states,
	// or "" (the initial state). Like Chain, it is what the drawing says
	// of how its machine runs, when it says so (each importer's
	// documentation says where: a property of the drawing as a whole).
	// Importers make its runs of white space single spaces, as in state
	// names, and take any name: package compile warns when it names none
	// of the chart's states.
	Fallback string `json:"fallback,omitempty"`

	// FallbackPos is where the drawing names Fallback, when the importer
	// knows (the zero Pos otherwise): what package compile's warning
	// points at. The chart's JSON file does not keep it.
	FallbackPos diag.Pos `json:"-"`

	// Statechart says that the chart runs with the semantics of the W3C
	// SCXML recommendation even when its states do not nest: events are
	// queued, transitions without event are taken as soon as their
	// condition holds. The SCXML importer sets it; package compile runs
	// every chart that nests states as a statechart anyway.
	Statechart bool `json:"statechart,omitempty"`

	States      []State      `json:"states"`      // in document order; never nil from an importer
	Transitions []Transition `json:"transitions"` // in document order; never nil from an importer

	// Diagnostics holds what the importer found wrong or ignored: errors
	// that did not stop the import, warnings and notes.
	Diagnostics diag.List `json:"diagnostics,omitempty"`
}

// State is a state of the chart, or a pseudo-state (start, end, choice) of a
// plain state diagram.
type State struct {
	// ID identifies the state within the chart: the ID of its shape (for
	// drawings of several pages, prefixed with the page ID, "4/36", on every
	// page but the first). Names may repeat; IDs never do.
	ID string `json:"id"`

	// Name is the designer's name for the state: the stencil's name
	// property, or the shape's text, with runs of white space made single
	// spaces. Pseudo-states are often nameless.
	Name string `json:"name"`

	Kind StateKind `json:"kind"` // NormalState, or the kind of pseudo-state

	// Initial is true for the state the machine starts in: a shape of the
	// stencil's initial-state master, or the start pseudo-state of a plain
	// diagram (the machine then starts at the target of its transition).
	// Inside a compound state, it marks the compound's initial child (or
	// its start pseudo-state).
	Initial bool `json:"initial,omitempty"`

	// Entry lists the actions taken on entering the state, in the order of
	// the stencil's action properties (in a statechart, in the order
	// written).
	Entry []Action `json:"entry,omitempty"`

	// Exit lists the actions taken on leaving the state, in order.
	Exit []Action `json:"exit,omitempty"`

	// Parent is the ID of the compound or parallel state the state is
	// drawn inside (a UML composite state, a draw.io container, a nested
	// SCXML state, a yEd group node), or "" at the top level. Package
	// compile runs nested charts as statecharts; an importer may flatten
	// them first ([Flatten]).
	Parent string `json:"parent,omitempty"`

	// Box is where the state is drawn, when the drawing says: exporters
	// keep the designer's layout. Nil when the source has no geometry.
	Box *Box `json:"box,omitempty"`

	Pos diag.Pos `json:"pos"` // the state's shape
}

// Box is a shape's place on its page, in draw.io's units: pixels of 1/96
// inch at 100% zoom, X growing rightwards and Y downwards from the page's
// top-left corner. (X, Y) is the top-left corner of the shape.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Action is an action of a state (on entry or exit) or of a transition.
// Most are game actions: a stencil property and the value the designer
// picked from its drop-list (the Goomba's XMovement = left), which the
// game performs. The others are a statechart's own: raising an event, sending
// one to the machine itself after a delay (a timer), cancelling a timer.
type Action struct {
	// Kind is what the action does; the zero value is a game action.
	Kind ActionKind `json:"kind,omitempty"`

	Property string `json:"property,omitempty"` // a game action's property: "XMovement"
	Value    string `json:"value,omitempty"`    // an entry of its drop-list: "left"

	// Event is the event a RaiseAction or SendAction makes ("alarm.heard").
	Event string `json:"event,omitempty"`

	// Delay is how long a SendAction's event waits, in seconds of game
	// time; 0 sends it at once (after the events already waiting).
	Delay float64 `json:"delay,omitempty"`

	// Timer names a SendAction's pending event, so that a CancelAction
	// naming the same Timer takes it back before it is due ("" for a
	// SendAction that cannot be cancelled).
	Timer string `json:"timer,omitempty"`

	// Guard makes the action conditional: it is performed only when the
	// condition holds ("" always does), written as a transition's Guard
	// is. SCXML's <if>, <elseif> and <else> become guards.
	Guard string `json:"guard,omitempty"`

	Pos diag.Pos `json:"pos"` // where the action was set
}

// ActionKind says what an [Action] does.
type ActionKind uint8

const (
	// GameAction sets Property to Value: the game performs it.
	GameAction ActionKind = iota
	// RaiseAction puts Event on the machine's internal queue: it is
	// handled before any event from outside.
	RaiseAction
	// SendAction puts Event on the machine's external queue after Delay
	// seconds of game time, as an event from outside.
	SendAction
	// CancelAction takes back the pending SendAction named Timer.
	CancelAction
)

var actionKindNames = [...]string{GameAction: "game", RaiseAction: "raise", SendAction: "send", CancelAction: "cancel"}

// String returns "game", "raise", "send" or "cancel".
func (k ActionKind) String() string {
	if int(k) < len(actionKindNames) {
		return actionKindNames[k]
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its String, for JSON.
func (k ActionKind) MarshalText() ([]byte, error) {
	if int(k) >= len(actionKindNames) {
		return nil, fmt.Errorf("chart: invalid action kind %d", k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind written by MarshalText.
func (k *ActionKind) UnmarshalText(b []byte) error {
	return unmarshalName(b, actionKindNames[:], "action kind", k)
}

// Transition is an arrow of the chart: when its test holds in state From,
// the machine goes to Target.
type Transition struct {
	// ID identifies the transition within the chart: the ID of its
	// connector shape, prefixed like a State's ID.
	ID string `json:"id"`

	// From is the ID of the state the transition leaves. It is empty when
	// AnyState is true.
	From string `json:"from,omitempty"`

	// AnyState marks a transition that applies in every state: one drawn
	// from the stencil's message-handler shape.
	AnyState bool `json:"anyState,omitempty"`

	// Order ranks the transition among those leaving the same state (or
	// among the any-state transitions), from 1: the value of the stencil's
	// order property when the drawing sets it, or else the position of the
	// transition in document order. Tests are tried by increasing Order.
	Order int `json:"order"`

	// Test names what is tested: with a stencil, one of its tests; in a
	// plain diagram, the label's event, or its guard when it has no event.
	Test string `json:"test,omitempty"`

	// Value is the test's optional argument (mValue in the article's state table).
	Value string `json:"value,omitempty"`

	// Label is the connector's text as drawn, trimmed. In a plain diagram
	// it is read as a UML label, "event [guard] / action", split into
	// Event, Guard and Action (each empty when absent).
	//
	// Event is the transition's trigger: one or more event descriptors
	// separated by spaces, each matching the events it names and those
	// that begin with it and a dot ("hit" matches "hit" and "hit.head";
	// "*" matches every event). Guard is its condition: test names
	// combined with !, && and || (and parentheses), true, false and
	// In(state) (see package compile).
	Label  string `json:"label,omitempty"`
	Event  string `json:"event,omitempty"`  // "push" in "push [unlocked] / swing()"
	Guard  string `json:"guard,omitempty"`  // "unlocked", without its brackets
	Action string `json:"action,omitempty"` // "swing()"

	Target Target `json:"target"` // where the transition goes

	// Also lists further target states, entered with Target.State: states
	// in other regions of a parallel state (SCXML's target="a b").
	Also []string `json:"also,omitempty"`

	// Internal marks an internal transition (SCXML's type="internal"): one
	// whose targets are all inside its source state does not leave and
	// re-enter the source.
	Internal bool `json:"internal,omitempty"`

	// Actions are performed while the transition is taken: after the
	// states left have run their exit actions, before the states entered
	// run their entry actions.
	Actions []Action `json:"actions,omitempty"`

	// Push asks the runtime to push the state the transition leaves on the
	// state stack, for a later transition whose target is ToReturn.
	Push bool `json:"push,omitempty"`

	Pos diag.Pos `json:"pos"` // the transition's connector
}

// Target is where a transition goes.
type Target struct {
	Kind TargetKind `json:"kind"` // a state, the final state or a return
	// State is the ID of the target state when Kind is ToState, else "".
	State string `json:"state,omitempty"`
}

// String returns the target state's ID, "(final)", "(return)" or "(none)".
func (t Target) String() string {
	if t.Kind == ToState {
		return t.State
	}
	return "(" + t.Kind.String() + ")"
}

// StateKind says whether a state is a real state or a pseudo-state.
type StateKind uint8

const (
	// NormalState is a state the machine can be in.
	NormalState StateKind = iota
	// StartState is an initial pseudo-state: the machine begins at the
	// target of its transition.
	StartState
	// EndState is a final pseudo-state: entering it ends the machine.
	EndState
	// ChoiceState is a choice pseudo-state: on entering it, the first of
	// its transitions whose test holds is taken at once.
	ChoiceState
	// ParallelState is a state whose children are regions, all active
	// at once while it is (SCXML's <parallel>).
	ParallelState
	// HistoryState is a shallow history pseudo-state: a transition to it
	// enters the child of its parent that was active when the parent was
	// last left, or, the first time, the target of its own transition.
	HistoryState
	// DeepHistoryState is a deep history pseudo-state: as HistoryState,
	// with every state below the parent that was active.
	DeepHistoryState
)

// An EndState inside a compound state is a final state of it: entering
// it completes the compound (SCXML's <final>; see package compile).

var stateKindNames = [...]string{NormalState: "normal", StartState: "start", EndState: "end", ChoiceState: "choice",
	ParallelState: "parallel", HistoryState: "history", DeepHistoryState: "deepHistory"}

// String returns "normal", "start", "end", "choice", "parallel", "history"
// or "deepHistory".
func (k StateKind) String() string {
	if int(k) < len(stateKindNames) {
		return stateKindNames[k]
	}
	return "StateKind(" + strconv.Itoa(int(k)) + ")"
}

// IsHistory reports whether k is the kind of a history pseudo-state,
// shallow or deep: HistoryState or DeepHistoryState.
func (k StateKind) IsHistory() bool { return k == HistoryState || k == DeepHistoryState }

// IsPseudo reports whether k is the kind of a pseudo-state, which the
// machine passes through but is never in: StartState, EndState,
// ChoiceState, HistoryState or DeepHistoryState. NormalState and
// ParallelState are states; a kind out of range is neither.
func (k StateKind) IsPseudo() bool {
	return k == StartState || k == EndState || k == ChoiceState || k.IsHistory()
}

// UntestedTransition reports whether a pseudo-state of kind k leaves by
// one transition taken without a test: a start's, which says where its
// compound state (or the machine) starts, taken whenever it is entered,
// and a history's, its default, taken when there is no history yet
// (StartState, HistoryState, DeepHistoryState). A test set on such a
// transition means nothing: the importers clear it, with a warning.
func (k StateKind) UntestedTransition() bool { return k == StartState || k.IsHistory() }

// MarshalText encodes the kind as its String, for JSON.
func (k StateKind) MarshalText() ([]byte, error) {
	if int(k) >= len(stateKindNames) {
		return nil, fmt.Errorf("chart: invalid state kind %d", k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind written by MarshalText.
func (k *StateKind) UnmarshalText(b []byte) error {
	return unmarshalName(b, stateKindNames[:], "state kind", k)
}

// TargetKind says what a transition's target is.
type TargetKind uint8

const (
	// ToState: the transition enters Target.State.
	ToState TargetKind = iota
	// ToFinal: the transition ends the machine (the article: "any transition
	// that ends with no state is considered to have entered a final
	// state"; the game removes the entity).
	ToFinal
	// ToReturn: the transition returns to the state on top of the stack,
	// pushed by an earlier transition with Push set.
	ToReturn
	// ToNone: the transition has no target (SCXML's transition without
	// target): it performs its actions and leaves no state.
	ToNone
)

var targetKindNames = [...]string{ToState: "state", ToFinal: "final", ToReturn: "return", ToNone: "none"}

// String returns "state", "final", "return" or "none".
func (k TargetKind) String() string {
	if int(k) < len(targetKindNames) {
		return targetKindNames[k]
	}
	return "TargetKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its String, for JSON.
func (k TargetKind) MarshalText() ([]byte, error) {
	if int(k) >= len(targetKindNames) {
		return nil, fmt.Errorf("chart: invalid target kind %d", k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind written by MarshalText.
func (k *TargetKind) UnmarshalText(b []byte) error {
	return unmarshalName(b, targetKindNames[:], "target kind", k)
}

// unmarshalName sets *v to the index of b in names.
func unmarshalName[T ~uint8](b []byte, names []string, what string, v *T) error {
	for i, n := range names {
		if n == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("chart: unknown %s %q", what, b)
}
