package fsm

import "fmt"

// Flow is the XNA article's state machine as written there: guards and
// actions are closures that capture the one entity the machine belongs to.
// It is a [GuardMachine] over its own [Graph]; use the graph form instead when
// many entities share a flow, so each entity costs a [GuardMachine] value
// rather than a graph of closures.
//
// The zero value is an empty flow: add states and transitions, then
// [Flow.Start]. A Flow holds room for 8 states and their first two
// transitions each: building one of that size allocates nothing beyond the
// Flow itself (about 1.3 KB with a small T) and the caller's closures, and
// its actions and conditions are called as given, one call each. A Flow
// must not be copied once it has states: its machine points into it.
type Flow[T any] struct {
	m     GuardMachine[struct{}, T] // first: what Update reads
	graph Graph[struct{}, T]

	// Room for the first states, so that building a flow allocates once
	// for them all (the Flow itself) rather than once per state. The graph
	// takes it at the first AddState; a flow of more states grows as a
	// Graph does.
	ptrs [firstNodes]*node[struct{}, T]
	room [firstNodes]node[struct{}, T]
}

// AddState adds a state with a name, a tag and optional enter and exit
// actions (nil for none), the article's State(name, tag, onEnter, onExit).
// It panics as [Graph.AddState] does.
func (f *Flow[T]) AddState(name string, tag T, onEnter, onExit func()) StateID {
	// The actions are kept as they are, not wrapped in a func(struct{}):
	// no allocation here, and one call per action in Update.
	if f.graph.nodes == nil {
		f.graph.nodes, f.graph.room = f.ptrs[:0], f.room[:0]
	}
	return f.graph.addState(State[struct{}, T]{Name: name, Tag: tag}, onEnter, onExit)
}

// AddTransition adds a transition guarded by condition after the ones already
// leaving from. It panics as [Graph.AddTransition] does.
func (f *Flow[T]) AddTransition(from, to StateID, condition func() bool) {
	if condition == nil {
		panic(fmt.Sprintf("fsm: Flow.AddTransition %s → %s: nil condition", f.graph.StateName(from), f.graph.StateName(to)))
	}
	f.graph.mustHave("AddTransition", from)
	f.graph.mustHave("AddTransition", to)
	f.graph.addTransition(from, to, transition[struct{}, T]{cond: condition})
}

// Start puts the flow in its initial state without running its Enter, as the
// article's constructor does. It panics if initial is not one of its states.
func (f *Flow[T]) Start(initial StateID) { f.m = f.graph.New(struct{}{}, initial) }

// Update runs [GuardMachine.Update]; before [Flow.Start] it returns [ErrNoState].
func (f *Flow[T]) Update() error { return f.m.Update() }

// Goto runs [GuardMachine.Goto].
func (f *Flow[T]) Goto(to StateID) error { return f.m.Goto(to) }

// Snapshot sets dst to the flow's current and previous states.
func (f *Flow[T]) Snapshot(dst *Snapshot) { f.m.Snapshot(dst) }

// Restore puts the flow in the states s describes, running no action (for
// loading a saved game), or returns an error naming the state, changing
// nothing, if one is not a state of the flow. Called from inside the flow's
// own update (from a condition or an action), it returns [ErrReentrant]
// and changes nothing: the update would overwrite what it restored.
func (f *Flow[T]) Restore(s *Snapshot) error {
	if f.m.busy {
		return ErrReentrant
	}
	m, err := f.graph.Restore(struct{}{}, s)
	if err != nil {
		return err
	}
	f.m = m
	return nil
}

// State returns the current state, or [NoState] before Start.
func (f *Flow[T]) State() StateID { return f.m.State() }

// Previous returns the state the last transition left, or [NoState].
func (f *Flow[T]) Previous() StateID { return f.m.Previous() }

// In reports whether the flow is in state id.
func (f *Flow[T]) In(id StateID) bool { return f.m.In(id) }

// Name returns the current state's name, or "none" before Start.
func (f *Flow[T]) Name() string { return f.m.Name() }

// Tag returns the current state's tag, the article's CurrentState.Tag.
func (f *Flow[T]) Tag() T { return f.m.Tag() }

// Graph returns the flow's graph, for introspection and its ChainLimit and
// OnTransition settings.
func (f *Flow[T]) Graph() *Graph[struct{}, T] { return &f.graph }
