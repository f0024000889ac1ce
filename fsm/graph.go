package fsm

import (
	"fmt"
	"iter"
	"math"
	"strconv"
)

// StateID identifies a state of a [Graph]: the index at which [Graph.AddState]
// added it, so tables indexed by StateID are plain slices. IDs are stable for
// the life of the graph; a state's name is its stable identity across runs.
type StateID uint16

// NoState is the StateID of "no state": the previous state of a machine that
// has not moved yet, or the current state of one that has not started.
const NoState StateID = math.MaxUint16

// MaxStates is the most states a [Graph] holds: every StateID but [NoState].
const MaxStates = int(NoState)

// String returns "#n", or "none" for [NoState]. Use [Graph.Name] for the name.
func (id StateID) String() string {
	if id == NoState {
		return "none"
	}
	return "#" + strconv.Itoa(int(id))
}

// State describes one state of a [Graph]: what [Graph.AddState] takes.
// Enter and Exit may be nil.
type State[E, T any] struct {
	// Name identifies the state in errors, traces and viewers; unique in its graph.
	Name string
	// Tag is whatever the game associates with the state: an enum, a behaviour
	// function, an animation. The machine never looks at it.
	Tag T
	// Enter runs when a machine moves into the state, after the old state's Exit.
	Enter func(E)
	// Exit runs when a machine leaves the state, before the new state's Enter.
	Exit func(E)
}

// Transition is a read-only view of one guarded transition, for viewers and
// tests. Index is its position among From's transitions: guards are tried in
// that order and the first that holds is taken.
type Transition struct {
	From, To StateID
	Index    int
}

type transition[E any] struct {
	guard func(E) bool
	to    StateID
}

type node[E, T any] struct {
	State[E, T]
	out   []transition[E]
	graph *Graph[E, T]
	id    StateID
}

// Graph is the definition of a guarded state machine, built once and shared
// by every entity that runs it: states added with [Graph.AddState], guarded
// transitions with [Graph.AddTransition]. [Graph.New] then makes one
// entity's [GuardMachine], a few words of data that point back at the graph.
//
// The zero value is an empty graph ready for use. A graph must not be
// changed while a machine that uses it is updating; reading it is safe from
// many goroutines at once once it is built.
type Graph[E, T any] struct {
	// ChainLimit bounds the transitions one [GuardMachine.Update] may take
	// before it stops and reports a [*ChainError]. Zero or less means the
	// number of states in the graph.
	ChainLimit int

	// OnTransition, if not nil, is called on every transition a machine of
	// this graph takes, after the old state's Exit and before the new state's
	// Enter. It is the hook for counters, traces and viewers; nil costs nothing.
	OnTransition func(e E, from, to StateID)

	nodes  []*node[E, T] // one allocation each, so machines may point at them while the graph grows
	byName map[string]StateID
}

// AddState adds a state and returns its ID. It panics if the name is empty or
// already used in this graph, or if the graph already has [MaxStates] states:
// those are mistakes in the program, not in its input.
func (g *Graph[E, T]) AddState(s State[E, T]) StateID {
	if s.Name == "" {
		panic("fsm: AddState: a state needs a name")
	}
	if _, dup := g.byName[s.Name]; dup {
		panic(fmt.Sprintf("fsm: AddState: a state named %q is already in the graph", s.Name))
	}
	if len(g.nodes) >= MaxStates {
		panic(fmt.Sprintf("fsm: AddState: a graph holds at most %d states", MaxStates))
	}
	if g.byName == nil {
		g.byName = make(map[string]StateID)
	}
	id := StateID(len(g.nodes))
	g.nodes = append(g.nodes, &node[E, T]{State: s, graph: g, id: id})
	g.byName[s.Name] = id
	return id
}

// AddTransition adds a transition from one state to another, guarded by
// guard, after the transitions already leaving from. A transition to the
// state it leaves is allowed: it runs Exit then Enter. AddTransition panics if
// either ID is not a state of this graph or the guard is nil.
func (g *Graph[E, T]) AddTransition(from, to StateID, guard func(E) bool) {
	g.mustHave("AddTransition", from)
	g.mustHave("AddTransition", to)
	if guard == nil {
		panic(fmt.Sprintf("fsm: AddTransition %s → %s: nil guard", g.nodes[from].Name, g.nodes[to].Name))
	}
	g.nodes[from].out = append(g.nodes[from].out, transition[E]{guard: guard, to: to})
}

func (g *Graph[E, T]) mustHave(op string, id StateID) {
	if !g.Has(id) {
		panic(fmt.Sprintf("fsm: %s: %s is not a state of this graph (it has %d)", op, id, len(g.nodes)))
	}
}

// Has reports whether id is a state of g.
func (g *Graph[E, T]) Has(id StateID) bool { return int(id) < len(g.nodes) }

// Len returns the number of states.
func (g *Graph[E, T]) Len() int { return len(g.nodes) }

// Name returns the name of state id, or id's [StateID.String] if g has no such state.
func (g *Graph[E, T]) Name(id StateID) string {
	if !g.Has(id) {
		return id.String()
	}
	return g.nodes[id].Name
}

// Tag returns the tag of state id, or the zero T if g has no such state.
func (g *Graph[E, T]) Tag(id StateID) T {
	if !g.Has(id) {
		var zero T
		return zero
	}
	return g.nodes[id].Tag
}

// Lookup returns the ID of the state with the given name.
func (g *Graph[E, T]) Lookup(name string) (StateID, bool) {
	id, ok := g.byName[name]
	return id, ok
}

// Transitions yields the transitions leaving from, in the order their guards
// are tried. It yields nothing for an ID that is not a state of g.
func (g *Graph[E, T]) Transitions(from StateID) iter.Seq[Transition] {
	return func(yield func(Transition) bool) {
		if !g.Has(from) {
			return
		}
		for i, t := range g.nodes[from].out {
			if !yield(Transition{From: from, To: t.to, Index: i}) {
				return
			}
		}
	}
}

// New returns a machine for entity e, in state initial. It allocates nothing:
// the machine is a value the game keeps in the entity or in a slice. The
// initial state's Enter is not run, as in the article; call [GuardMachine.Goto]
// if the game wants it. New panics if initial is not a state of g.
func (g *Graph[E, T]) New(e E, initial StateID) GuardMachine[E, T] {
	g.mustHave("New", initial)
	return GuardMachine[E, T]{node: g.nodes[initial], entity: e, prev: NoState}
}

// Restore returns a machine for entity e in state current, with previous as
// its previous state ([NoState] for none), running no action: for loading a
// saved game, where the states come from [GuardMachine.Current] and
// [GuardMachine.Previous] (or from their names, through [Graph.Lookup]).
// It returns an error naming the state if either is not a state of g.
func (g *Graph[E, T]) Restore(e E, current, previous StateID) (GuardMachine[E, T], error) {
	if !g.Has(current) {
		return GuardMachine[E, T]{}, fmt.Errorf("fsm: Restore: current state %s is not a state of this graph (it has %d)", current, len(g.nodes))
	}
	if previous != NoState && !g.Has(previous) {
		return GuardMachine[E, T]{}, fmt.Errorf("fsm: Restore: previous state %s is not a state of this graph (it has %d)", previous, len(g.nodes))
	}
	return GuardMachine[E, T]{node: g.nodes[current], entity: e, prev: previous}, nil
}

// fire returns the target of the first transition out of n whose guard holds.
func (n *node[E, T]) fire(e E) (StateID, bool) {
	for i := range n.out {
		if n.out[i].guard(e) {
			return n.out[i].to, true
		}
	}
	return NoState, false
}

func (g *Graph[E, T]) chainLimit() int {
	if g.ChainLimit > 0 {
		return g.ChainLimit
	}
	return len(g.nodes)
}
