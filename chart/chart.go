package chart

import (
	"fmt"
	"strconv"
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

	States      []State      `json:"states"`      // in document order; never nil from an importer
	Transitions []Transition `json:"transitions"` // in document order; never nil from an importer

	// Diagnostics holds what the importer found wrong or ignored: errors
	// that did not stop the import, warnings and notes.
	Diagnostics Diagnostics `json:"diagnostics,omitempty"`
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
	Initial bool `json:"initial,omitempty"`

	// Entry lists the actions taken on entering the state, in the order of
	// the stencil's action properties.
	Entry []Action `json:"entry,omitempty"`

	// Parent is the ID of the compound state the state is drawn inside (a
	// UML composite state, a draw.io container, a nested SCXML state, a yEd
	// group node), or "" at the top level. Compile reads flat charts only:
	// importers call [Flatten] before they return.
	Parent string `json:"parent,omitempty"`

	// Box is where the state is drawn, when the drawing says: exporters
	// keep the designer's layout. Nil when the source has no geometry.
	Box *Box `json:"box,omitempty"`

	Pos Pos `json:"pos"` // the state's shape
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

// Action is an entry action of a state: a stencil property and the value
// the designer picked from its drop-list (the Goomba's XMovement = left).
type Action struct {
	Property string `json:"property"` // the stencil's action property: "XMovement"
	Value    string `json:"value"`    // an entry of its drop-list: "left"
	Pos      Pos    `json:"pos"`      // where the value was set
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
	Label  string `json:"label,omitempty"`
	Event  string `json:"event,omitempty"`  // "push" in "push [unlocked] / swing()"
	Guard  string `json:"guard,omitempty"`  // "unlocked", without its brackets
	Action string `json:"action,omitempty"` // "swing()"

	Target Target `json:"target"` // where the transition goes

	// Push asks the runtime to push the state the transition leaves on the
	// state stack, for a later transition whose target is ToReturn.
	Push bool `json:"push,omitempty"`

	Pos Pos `json:"pos"` // the transition's connector
}

// Target is where a transition goes.
type Target struct {
	Kind TargetKind `json:"kind"` // a state, the final state or a return
	// State is the ID of the target state when Kind is ToState, else "".
	State string `json:"state,omitempty"`
}

// String returns the target state's ID, "(final)" or "(return)".
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
)

var stateKindNames = [...]string{NormalState: "normal", StartState: "start", EndState: "end", ChoiceState: "choice"}

// String returns "normal", "start", "end" or "choice".
func (k StateKind) String() string {
	if int(k) < len(stateKindNames) {
		return stateKindNames[k]
	}
	return "StateKind(" + strconv.Itoa(int(k)) + ")"
}

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
)

var targetKindNames = [...]string{ToState: "state", ToFinal: "final", ToReturn: "return"}

// String returns "state", "final" or "return".
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
