package fsm

import (
	"errors"
	"fmt"

	"github.com/fsmforge/fsmforge/machine"
)

// ErrNoState is returned by an update of a machine that has no current state
// yet: a zero [GuardMachine], a [Flow] before [Flow.Start], a
// [BehaviorMachine] made with a nil initial state and never given one.
var ErrNoState = errors.New("fsm: machine has no current state yet: make it with Graph.New, call Flow.Start, or give the BehaviorMachine a state")

// ErrReentrant is returned by [GuardMachine.Update] and [GuardMachine.Goto]
// when they are called from inside a guard, Enter, Exit, OnTransition or
// observer of the same machine's update, which would otherwise recurse without end. The
// machine is left as it was. A GuardMachine whose guard panicked keeps
// returning it: the panic interrupted an update that never finished.
//
// [BehaviorMachine.Update] returns it when called from inside the same
// machine's update or change of state, and [BehaviorMachine.ChangeState] and
// [BehaviorMachine.RevertToPreviousState] when called from inside the same
// machine's change of state (an Enter or Exit); the machine is left as it
// was and keeps working. A BehaviorMachine whose state panicked during an
// update keeps returning it from Update, as a GuardMachine does.
var ErrReentrant = errors.New("fsm: machine updated from inside its own update, or changed state from inside its own change of state (from a guard or action, an Enter or Exit, or after a guard panicked)")

// GuardMachine runs one entity through a [Graph]: polled guards decide the
// transitions, the way the XNA article's StateMachine does. Make one with
// [Graph.New]; it is a few words of plain data (the graph, the entity, the
// current and previous state), so games keep it by value inside the entity.
//
// Choose a GuardMachine when the transitions are conditions on the world that
// can be written down next to the graph (and drawn, listed and checked), and
// many entities share one flow. Choose a [BehaviorMachine] when each state is
// code that runs every update and decides for itself when to change state,
// and states receive messages, as in Buckland's West World.
//
// A GuardMachine must not be copied while it updates (for instance by an
// action that grows the slice holding it): the copy would stay busy.
// It is not safe for concurrent use; distinct machines sharing a graph may
// update concurrently if their callbacks allow it.
type GuardMachine[E, T any] struct {
	node   *node[E, T] // the current state, and through it the graph; nil in a zero machine
	entity E
	prev   StateID
	busy   bool
}

// Update takes the first transition out of the current state whose guard
// holds, running the old state's Exit and the new state's Enter, and repeats
// from the new state while a guard holds (the article's while (MoveToNext())).
// It returns nil when no guard holds, or a [*machine.ChainError] when the graph's
// ChainLimit is reached, [ErrNoState] on a zero machine and [ErrReentrant]
// from inside its own update. It allocates nothing unless it returns a
// ChainError. A panic in a guard or action leaves the machine in the last
// state it entered and propagates.
func (m *GuardMachine[E, T]) Update() error {
	// The per-frame path, written out in one function so that an update
	// calls nothing but guards and actions (and, on a transition, its
	// deferred idle): try the guards, take the first that holds, try the
	// new state's guards, and go to chainOn only if one of those holds too.
	from := m.node
	if from == nil || m.busy {
		return m.refuse()
	}
	// busy is set while guards and actions run, so that one calling back
	// into its machine gets ErrReentrant. There is no defer while guards
	// run: a panicking guard leaves the machine busy (see ErrReentrant).
	m.busy = true
	var taken *transition[E, T]
	for out := from.out; len(out) > 0; out = out[1:] { // fire, written out
		t := &out[0]
		if t.guard != nil {
			if t.guard(m.entity) {
				taken = t
				break
			}
		} else if t.cond() {
			taken = t
			break
		}
	}
	if taken == nil {
		m.busy = false
		return nil
	}
	// A panicking action (or a guard after it) leaves the machine usable,
	// in the last state it entered. Only an update that takes a transition
	// pays for the defer.
	defer m.idle()
	to := taken.to
	if from.Exit != nil { // step, written out
		from.Exit(m.entity)
	} else if from.exit != nil {
		from.exit()
	}
	m.prev, m.node = from.id, to
	if g := from.graph; g.OnTransition != nil || g.watch != nil {
		g.report(m.entity, from, to, taken)
	}
	if to.Enter != nil {
		to.Enter(m.entity)
	} else if to.enter != nil {
		to.enter()
	}
	for out := to.out; len(out) > 0; out = out[1:] { // fire, written out
		t := &out[0]
		if t.guard != nil {
			if t.guard(m.entity) {
				return m.chainOn(from.id, t)
			}
		} else if t.cond() {
			return m.chainOn(from.id, t)
		}
	}
	return nil // the common case: one transition
}

// refuse returns why Update cannot run.
func (m *GuardMachine[E, T]) refuse() error {
	if m.node == nil {
		return ErrNoState
	}
	return ErrReentrant
}

// chainPathMax is how many visited states a ChainError names: the first ones.
const chainPathMax = machine.ChainPathMax // at least 2

// chainOn carries on a chain whose first transition, from from, is taken and
// whose next guard holds on next, keeping the path for a ChainError; the
// machine is busy.
func (m *GuardMachine[E, T]) chainOn(from StateID, next *transition[E, T]) error {
	g := m.node.graph
	limit := g.chainLimit()
	var path [chainPathMax]StateID
	path[0], path[1] = from, m.node.id
	for n := 1; ; n++ {
		if n == limit {
			return newChainError(g, limit, path[:min(n+1, len(path))], n+1, m.node.id, next.to.id)
		}
		m.step(next.to, next)
		if n+1 < len(path) {
			path[n+1] = next.to.id
		}
		next = m.node.fire(m.entity)
		if next == nil {
			return nil
		}
	}
}

func (m *GuardMachine[E, T]) idle() { m.busy = false }

func newChainError[E, T any](g *Graph[E, T], limit int, path []StateID, visited int, at, next StateID) *machine.ChainError {
	e := &machine.ChainError{Kind: machine.KindGuarded, Limit: limit, Path: make([]machine.StateID, len(path)), Names: make([]string, len(path)),
		Visited: visited, At: machine.StateID(at), AtName: g.StateName(at), Trigger: -1, Next: machine.StateID(next), NextName: g.StateName(next)}
	for i, id := range path {
		e.Path[i], e.Names[i] = machine.StateID(id), g.StateName(id)
	}
	return e
}

// step runs the current state's Exit, moves to to by transition t (nil for
// Goto), and reports it and runs to's Enter.
func (m *GuardMachine[E, T]) step(to *node[E, T], t *transition[E, T]) {
	from := m.node
	if from.Exit != nil {
		from.Exit(m.entity)
	} else if from.exit != nil {
		from.exit()
	}
	m.prev, m.node = from.id, to
	if g := from.graph; g.OnTransition != nil || g.watch != nil {
		g.report(m.entity, from, to, t)
	}
	if to.Enter != nil {
		to.Enter(m.entity)
	} else if to.enter != nil {
		to.enter()
	}
}

// Goto moves the machine to state to now, whatever the guards say, running
// the current state's Exit and to's Enter; no guards are tried. It is for
// events that do not fit a guard (a hit, a message) and for running the
// initial state's Enter (Goto to the current state runs Exit then Enter).
// It returns an error, and changes nothing, if to is not a state of the graph,
// the machine has no state, or it is called from inside the machine's update.
func (m *GuardMachine[E, T]) Goto(to StateID) error {
	switch {
	case m.node == nil:
		return ErrNoState
	case m.busy:
		return ErrReentrant
	case !m.node.graph.HasState(to):
		return fmt.Errorf("fsm: Goto %s: not a state of this graph (it has %d)", to, m.node.graph.NumStates())
	}
	m.busy = true
	defer m.idle()
	m.step(m.node.graph.nodes[to], nil)
	return nil
}

// Snapshot sets dst to the machine's current and previous states; [Graph.Restore]
// makes a machine from it.
func (m *GuardMachine[E, T]) Snapshot(dst *Snapshot) {
	dst.State, dst.Previous = m.State(), m.Previous()
}

// State returns the current state, or [NoState] for a zero machine.
func (m *GuardMachine[E, T]) State() StateID {
	if m.node == nil {
		return NoState
	}
	return m.node.id
}

// Previous returns the state the last transition left, or [NoState] before
// the first transition.
func (m *GuardMachine[E, T]) Previous() StateID {
	if m.node == nil {
		return NoState
	}
	return m.prev
}

// In reports whether the machine is in state id.
func (m *GuardMachine[E, T]) In(id StateID) bool { return m.node != nil && m.node.id == id }

// Name returns the current state's name, or "none" for a zero machine.
func (m *GuardMachine[E, T]) Name() string {
	if m.node == nil {
		return NoState.String()
	}
	return m.node.Name
}

// Tag returns the current state's tag, or the zero T for a zero machine.
func (m *GuardMachine[E, T]) Tag() T {
	if m.node == nil {
		var zero T
		return zero
	}
	return m.node.Tag
}

// Entity returns the entity the machine passes to guards and actions.
func (m *GuardMachine[E, T]) Entity() E { return m.entity }

// Graph returns the graph the machine runs, or nil for a zero machine.
func (m *GuardMachine[E, T]) Graph() *Graph[E, T] {
	if m.node == nil {
		return nil
	}
	return m.node.graph
}
