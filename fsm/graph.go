package fsm

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"

	"github.com/fsmforge/fsmforge/machine"
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

// String returns "#n", or "none" for [NoState]. Use [Graph.StateName] for the name.
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

// transition is one guarded transition. A graph's transitions have a guard;
// a [Flow]'s have a condition instead, so that trying it is one call.
type transition[E, T any] struct {
	guard func(E) bool // nil for a Flow's transition
	cond  func() bool  // a Flow's condition, when guard is nil
	to    *node[E, T]
}

// node is a state of a graph. A [Flow]'s states keep their actions in enter
// and exit, without an argument, and leave Enter and Exit nil.
type node[E, T any] struct {
	// out is the state's transitions, in first while they fit: most
	// states' transitions then lie in the state, allocated with it. out
	// comes first, where an update that takes no transition reads.
	out   []transition[E, T]
	first [2]transition[E, T]
	State[E, T]
	enter, exit func()
	graph       *Graph[E, T]
	id          StateID
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
	// before it stops and reports a [*machine.ChainError]. Zero or less means the
	// number of states in the graph.
	ChainLimit int

	// OnTransition, if not nil, is called on every transition a machine of
	// this graph takes, guarded or by [GuardMachine.Goto], after the old
	// state's Exit and before the new state's Enter. It is the game's own
	// hook, with the entity as its type E: for counters and game logic. An
	// observer attached with [Graph.Observe] is told of the same
	// transitions, right after OnTransition, in the vocabulary of package
	// machine: for tools, viewers and flight recorders. Either, or both, may
	// be set; with neither, a transition pays two nil checks for them, and an
	// update that takes none pays nothing.
	OnTransition func(e E, from, to StateID)

	// watch is what Observe attached, nil when nothing is: next to
	// OnTransition, which a transition reads with it, and one word, so
	// that a Flow, which holds its graph, stays small.
	watch *watch[E]

	nodes  []*node[E, T]      // never move, so machines may point at them while the graph grows
	byName map[string]StateID // nil while the graph has at most smallGraph states
	room   []node[E, T]       // the latest states, with room for the next up to its capacity
}

// watch is what [Graph.Observe] attached: the observer, the entity's
// number, and the index in Describe's transitions of each state's first
// transition, kept up to date as transitions are added.
type watch[E any] struct {
	obs      machine.Observer
	entityOf func(E) uint64
	bases    []int32
}

// smallGraph is the most states a graph finds by name without a map.
const smallGraph = 8

// firstNodes is how many states a graph makes room for at first, enough
// for most (the article's formation enemy has six); it makes room for as
// many again each time it runs out, so a graph allocates a few times for its
// states rather than once per state.
const firstNodes = 8

// AddState adds a state and returns its ID. It panics if the name is empty or
// already used in this graph, or if the graph already has [MaxStates] states:
// those are mistakes in the program, not in its input. It allocates when the
// graph runs out of room for states: at the first state, for 8, and then for
// as many again as the graph has.
func (g *Graph[E, T]) AddState(s State[E, T]) StateID {
	return g.addState(s, nil, nil)
}

// addState adds a state whose actions are s.Enter and s.Exit or, for a
// [Flow], enter and exit.
func (g *Graph[E, T]) addState(s State[E, T], enter, exit func()) StateID {
	if s.Name == "" {
		panic("fsm: AddState: a state needs a name")
	}
	if _, dup := g.LookupState(s.Name); dup {
		panic(fmt.Sprintf("fsm: AddState: a state named %q is already in the graph", s.Name))
	}
	if len(g.nodes) >= MaxStates {
		panic(fmt.Sprintf("fsm: AddState: a graph holds at most %d states", MaxStates))
	}
	if len(g.room) == cap(g.room) {
		// Room for as many states again, in one allocation, and room to
		// point at them.
		n := min(max(len(g.nodes), firstNodes), MaxStates-len(g.nodes))
		g.room = make([]node[E, T], 0, n)
		g.nodes = slices.Grow(g.nodes, n)
	}
	id := StateID(len(g.nodes))
	g.room = g.room[:len(g.room)+1]
	n := &g.room[len(g.room)-1] // zero: set only what is not (fewer write barriers)
	n.Name, n.Tag, n.graph, n.id = s.Name, s.Tag, g, id
	if s.Enter != nil {
		n.Enter = s.Enter
	}
	if s.Exit != nil {
		n.Exit = s.Exit
	}
	if enter != nil {
		n.enter = enter
	}
	if exit != nil {
		n.exit = exit
	}
	if w := g.watch; w != nil {
		base := int32(0)
		if k := len(g.nodes); k > 0 {
			base = w.bases[k-1] + int32(len(g.nodes[k-1].out))
		}
		w.bases = append(w.bases, base)
	}
	g.nodes = append(g.nodes, n)
	if g.byName != nil {
		g.byName[s.Name] = id
	} else if len(g.nodes) > smallGraph {
		g.byName = make(map[string]StateID, 2*len(g.nodes))
		for _, n := range g.nodes {
			g.byName[n.Name] = n.id
		}
	}
	return id
}

// AddTransition adds a transition from one state to another, guarded by
// guard, after the transitions already leaving from. A transition to the
// state it leaves is allowed: it runs Exit then Enter. AddTransition panics if
// either ID is not a state of this graph or the guard is nil. A state's first
// two transitions are kept in the state and allocate nothing; more grow as
// a slice does.
func (g *Graph[E, T]) AddTransition(from, to StateID, guard func(E) bool) {
	g.mustHave("AddTransition", from)
	g.mustHave("AddTransition", to)
	if guard == nil {
		panic(fmt.Sprintf("fsm: AddTransition %s → %s: nil guard", g.nodes[from].Name, g.nodes[to].Name))
	}
	g.addTransition(from, to, transition[E, T]{guard: guard})
}

// addTransition adds t, guarded, from from to to, states of g.
func (g *Graph[E, T]) addTransition(from, to StateID, t transition[E, T]) {
	n := g.nodes[from]
	t.to = g.nodes[to]
	if n.out == nil {
		n.out = n.first[:0]
	}
	n.out = append(n.out, t)
	if w := g.watch; w != nil {
		for i := int(from) + 1; i < len(w.bases); i++ {
			w.bases[i]++
		}
	}
}

func (g *Graph[E, T]) mustHave(op string, id StateID) {
	if !g.HasState(id) {
		panic(fmt.Sprintf("fsm: %s: %s is not a state of this graph (it has %d)", op, id, len(g.nodes)))
	}
}

// HasState reports whether id is a state of g.
func (g *Graph[E, T]) HasState(id StateID) bool { return int(id) < len(g.nodes) }

// NumStates returns the number of states.
func (g *Graph[E, T]) NumStates() int { return len(g.nodes) }

// StateName returns the name of state id, or id's [StateID.String] if g has no such state.
func (g *Graph[E, T]) StateName(id StateID) string {
	if !g.HasState(id) {
		return id.String()
	}
	return g.nodes[id].Name
}

// Tag returns the tag of state id, or the zero T if g has no such state.
func (g *Graph[E, T]) Tag(id StateID) T {
	if !g.HasState(id) {
		var zero T
		return zero
	}
	return g.nodes[id].Tag
}

// LookupState returns the ID of the state with the given name.
func (g *Graph[E, T]) LookupState(name string) (StateID, bool) {
	if g.byName == nil {
		for _, n := range g.nodes {
			if n.Name == name {
				return n.id, true
			}
		}
		return NoState, false
	}
	id, ok := g.byName[name]
	return id, ok
}

// Transitions yields the transitions leaving from, in the order their guards
// are tried. It yields nothing for an ID that is not a state of g.
func (g *Graph[E, T]) Transitions(from StateID) iter.Seq[Transition] {
	return func(yield func(Transition) bool) {
		if !g.HasState(from) {
			return
		}
		for i, t := range g.nodes[from].out {
			if !yield(Transition{From: from, To: t.to.id, Index: i}) {
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

// Restore returns a machine for entity e in the states s describes,
// running no action: for loading a saved game, where s comes from
// [GuardMachine.Snapshot] (or from the states' names, through
// [Graph.LookupState]). It returns an error naming the state if s's state
// or previous state is not a state of g.
func (g *Graph[E, T]) Restore(e E, s *Snapshot) (GuardMachine[E, T], error) {
	if !g.HasState(s.State) {
		return GuardMachine[E, T]{}, fmt.Errorf("fsm: Restore: state %s is not a state of this graph (it has %d)", s.State, len(g.nodes))
	}
	if s.Previous != NoState && !g.HasState(s.Previous) {
		return GuardMachine[E, T]{}, fmt.Errorf("fsm: Restore: previous state %s is not a state of this graph (it has %d)", s.Previous, len(g.nodes))
	}
	return GuardMachine[E, T]{node: g.nodes[s.State], entity: e, prev: s.Previous}, nil
}

// Snapshot is a [GuardMachine]'s or a [Flow]'s state as plain data, to save
// a game or show the machine in a viewer: its current and previous states.
// IDs are those of its Graph; a game that saves by name maps them with
// [Graph.StateName] and [Graph.LookupState].
type Snapshot struct {
	State    StateID // the current state; NoState for a zero machine
	Previous StateID // the state the last transition left, or NoState
}

// fire returns the first transition out of n whose guard holds for e, or nil.
// [GuardMachine.Update], the per-frame path, has it written out.
func (n *node[E, T]) fire(e E) *transition[E, T] {
	out := n.out
	for i := range out {
		t := &out[i]
		if t.guard != nil {
			if t.guard(e) {
				return t
			}
		} else if t.cond() {
			return t
		}
	}
	return nil
}

func (g *Graph[E, T]) chainLimit() int {
	if g.ChainLimit > 0 {
		return g.ChainLimit
	}
	return len(g.nodes)
}
