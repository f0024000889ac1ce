package machine

import (
	"fmt"
	"strconv"
)

// StateID is a state's number in its machine: its index in
// [Description.States]. Runtimes number their states from 0 in the order
// they were added, so the same definition gives the same IDs.
type StateID int32

// The state IDs that name no state of a machine.
const (
	// NoState is no state: the state before the first, or an entity the
	// machine does not hold.
	NoState StateID = -1
	// Final is where an entity goes when it finishes: the table's Final,
	// the crowd's Final, a statechart's top-level final state.
	Final StateID = -2
)

// String returns "state N", or "none" and "final".
func (s StateID) String() string {
	switch s {
	case NoState:
		return "none"
	case Final:
		return "final"
	}
	return "state " + strconv.Itoa(int(s))
}

// Kind says which runtime a machine runs on. Code written by fsmforge gen
// runs its table's semantics and describes itself as that table: its kind
// is KindTable or KindStatechart, so that its saves and a table agent's
// are interchangeable.
type Kind uint8

// The runtimes. Their values are saved (package save): they do not change.
const (
	KindGuarded    Kind = 1 // fsm.GuardMachine and fsm.Flow
	KindBehavior   Kind = 2 // fsm.BehaviorMachine
	KindTable      Kind = 3 // table.Agent on a flat table, and code generated from one
	KindStatechart Kind = 4 // table.Agent on a statechart table, and code generated from one
	KindTableCrowd Kind = 5 // tablecrowd.Crowd: a flat table run over a crowd
	KindCrowd      Kind = 6 // crowd.Machine
)

var kindNames = [...]string{"", "guarded", "behavior", "table", "statechart", "tablecrowd", "crowd"}

// String returns the kind's name as the viewer's API spells it:
// "guarded", "behavior", "table", "statechart", "tablecrowd" or "crowd".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// MarshalText returns the kind's name, for JSON.
func (k Kind) MarshalText() ([]byte, error) { return marshalName(k, kindNames[:]) }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error { return unmarshalName(b, kindNames[:], "kind", k) }

// StateKind says what a state is in a statechart; every state of a flat
// machine is Atomic.
type StateKind uint8

// The kinds of state, as SCXML names them.
const (
	Atomic      StateKind = iota // a state with no children
	Compound                     // a state with children, one active at a time
	Parallel                     // a state whose children are all active
	FinalState                   // a final state
	History                      // a shallow history pseudo-state
	DeepHistory                  // a deep history pseudo-state
)

var stateKindNames = [...]string{"atomic", "compound", "parallel", "final", "history", "deep history"}

// String returns the kind's name, for example "deep history".
func (k StateKind) String() string {
	if int(k) < len(stateKindNames) {
		return stateKindNames[k]
	}
	return "state kind " + strconv.Itoa(int(k))
}

// MarshalText returns the kind's name, for JSON.
func (k StateKind) MarshalText() ([]byte, error) { return marshalName(k, stateKindNames[:]) }

// UnmarshalText reads a state kind's name.
func (k *StateKind) UnmarshalText(b []byte) error {
	return unmarshalName(b, stateKindNames[:], "state kind", k)
}

// Description is a machine's definition as plain data: what a tool needs to
// list it, draw it and name what its events say. It holds no pointer into
// the runtime; a runtime makes a fresh one on each call to its Describe.
type Description struct {
	// Name is the machine's name (a table's or chart's name), or empty.
	Name string `json:"name"`
	// Kind is the runtime.
	Kind Kind `json:"kind"`
	// States lists the states by ID: States[id] is state id.
	States []State `json:"states"`
	// Initial is the state a new entity starts in, or NoState when the
	// game says (fsm.Graph.New takes it).
	Initial StateID `json:"initial"`
	// Transitions lists the transitions, grouped by source state, each
	// source's in the order the runtime tries them. An event's Transition
	// field indexes it.
	Transitions []Transition `json:"transitions"`
	// Triggers lists what transitions wait for: tests, messages, events,
	// timers, by the runtime's own IDs (a table's TestID indexes it). An
	// event's Trigger field indexes it.
	Triggers []Trigger `json:"triggers"`
}

// State describes one state.
type State struct {
	Name   string    `json:"name"`
	Kind   StateKind `json:"kind"`
	Parent StateID   `json:"parent"` // the enclosing state, or NoState at the top
	// Entry lists the actions performed on entering the state, as a
	// designer writes them ("XMovement=left", "raise alarm"), when the
	// definition holds them (a table's); empty otherwise.
	Entry []string `json:"entry,omitempty"`
	// Source says where the state was drawn (`goomba.vdx:41:7: page
	// "Page-1", shape 12 "walkLeft"`), when the description came with its
	// drawing (compile.Result.Describe); empty otherwise: runtimes do not
	// keep their drawings.
	Source string `json:"source,omitempty"`
}

// Transition describes one transition.
type Transition struct {
	From StateID `json:"from"`
	// To lists the targets: one for a flat machine; none for a targetless
	// statechart transition, which runs its actions and stays; several
	// for a statechart transition into parallel regions. Final and
	// NoState are never targets here: see Final and Return.
	To []StateID `json:"to"`
	// Trigger is the test, message or event the transition waits for, an
	// index in Description.Triggers, or -1 for a transition with none (a
	// guard, an eventless statechart transition).
	Trigger int32 `json:"trigger"`
	// Condition is the transition's guard as text when it has one that is
	// not its trigger ("hp < 10", a Go function's name), or empty.
	Condition string `json:"condition,omitempty"`
	// Final says the transition finishes the machine; Return that it pops
	// the stack; Push that it pushes the state it leaves.
	Final  bool `json:"final,omitempty"`
	Return bool `json:"return,omitempty"`
	Push   bool `json:"push,omitempty"`
	// Source says where it was drawn, when known; empty otherwise (no
	// runtime keeps its transitions' positions).
	Source string `json:"source,omitempty"`
}

// TriggerKind says what kind of thing a trigger is.
type TriggerKind uint8

// The kinds of trigger.
const (
	TriggerTest    TriggerKind = iota // a test the host answers (polled)
	TriggerMessage                    // a message posted to the entity
	TriggerEvent                      // a statechart event
)

var triggerKindNames = [...]string{"test", "message", "event"}

// String returns "test", "message" or "event".
func (k TriggerKind) String() string {
	if int(k) < len(triggerKindNames) {
		return triggerKindNames[k]
	}
	return "trigger kind " + strconv.Itoa(int(k))
}

// MarshalText returns the kind's name, for JSON.
func (k TriggerKind) MarshalText() ([]byte, error) { return marshalName(k, triggerKindNames[:]) }

// UnmarshalText reads a trigger kind's name.
func (k *TriggerKind) UnmarshalText(b []byte) error {
	return unmarshalName(b, triggerKindNames[:], "trigger kind", k)
}

// Trigger names what a transition waits for.
type Trigger struct {
	Name string      `json:"name"`
	Kind TriggerKind `json:"kind"`
}

// StateName returns the name of state id, or id's String when the
// description has no such state.
func (d *Description) StateName(id StateID) string {
	if id >= 0 && int(id) < len(d.States) {
		return d.States[id].Name
	}
	return id.String()
}

// LookupState returns the ID of the state with the given name. For a
// statechart, whose names are unique across the whole chart, that is the
// one state of that name.
func (d *Description) LookupState(name string) (StateID, bool) {
	for i := range d.States {
		if d.States[i].Name == name {
			return StateID(i), true
		}
	}
	return NoState, false
}

// Check reports the first way d is not a well-formed description: a state
// with no name or the name of another, a parent or target that is not a
// state, a trigger out of range. Runtimes' descriptions always pass; tests
// and tools that read descriptions from elsewhere use it.
func (d *Description) Check() error {
	seen := make(map[string]StateID, len(d.States))
	valid := func(id StateID) bool { return id >= 0 && int(id) < len(d.States) }
	for i, s := range d.States {
		id := StateID(i)
		if s.Name == "" {
			return fmt.Errorf("machine: %s has no name", id)
		}
		if j, dup := seen[s.Name]; dup {
			return fmt.Errorf("machine: %s and %s are both named %q", j, id, s.Name)
		}
		seen[s.Name] = id
		if s.Parent != NoState && (!valid(s.Parent) || s.Parent == id) {
			return fmt.Errorf("machine: state %q: parent %s is not another state", s.Name, s.Parent)
		}
	}
	if d.Initial != NoState && !valid(d.Initial) {
		return fmt.Errorf("machine: the initial state %s is not a state", d.Initial)
	}
	for i, t := range d.Transitions {
		if !valid(t.From) {
			return fmt.Errorf("machine: transition %d leaves %s, which is not a state", i, t.From)
		}
		for _, to := range t.To {
			if !valid(to) {
				return fmt.Errorf("machine: transition %d from %q goes to %s, which is not a state", i, d.States[t.From].Name, to)
			}
		}
		if t.Trigger < -1 || int(t.Trigger) >= len(d.Triggers) {
			return fmt.Errorf("machine: transition %d from %q has trigger %d of %d", i, d.States[t.From].Name, t.Trigger, len(d.Triggers))
		}
	}
	return nil
}

// marshalName returns the name of v, an index in names, or an error when
// it is out of range.
func marshalName[T ~uint8](v T, names []string) ([]byte, error) {
	if int(v) >= len(names) {
		return nil, fmt.Errorf("machine: %d has no name", v)
	}
	return []byte(names[v]), nil
}

// unmarshalName sets *v to the index of the name b in names.
func unmarshalName[T ~uint8](b []byte, names []string, what string, v *T) error {
	for i, n := range names {
		if n == string(b) && (n != "" || i == 0) { // "" names the zero value only
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("machine: unknown %s %q", what, b)
}
