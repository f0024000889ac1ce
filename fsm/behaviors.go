package fsm

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/fsmforge/fsmforge/machine"
)

// Behaviors is a registry of the states of [BehaviorMachine]s: each
// [Behavior] added under a stable name gets a small [StateID] (the order of
// [Behaviors.Add]), so that machines made by [Behaviors.New] can say which
// state they are in, be saved and restored by ID ([BehaviorMachine.Snapshot],
// [BehaviorMachine.Restore]), described ([Behaviors.Describe]) and watched
// ([Behaviors.Observe]). A game registers its states once, at start, and
// shares the registry among its entities; games that need none of that
// keep using [NewBehaviorMachine] alone.
//
// A Behavior machine's transitions are code, not data: the registry learns
// them as its machines take them. Each change of state of a machine tied to
// it records the pair (from, to) the first time it occurs; Describe lists
// the pairs seen, in the order they were first seen.
//
// The zero value is an empty registry ready for use. Add must not be called
// while machines of the registry run; once the states are added, machines
// tied to the registry may run on several goroutines at once (recording a
// pair is safe for concurrent use). A Behaviors must not be copied after
// first use.
type Behaviors[E, M any] struct {
	// Name names the registry's machine in its Describe; empty by default.
	Name string

	states  []Behavior[E, M]
	names   []string
	byName  map[string]StateID         // nil while the registry has at most smallGraph states
	byState map[Behavior[E, M]]StateID // nil while the registry has at most smallGraph states

	seen   atomic.Pointer[seenPairs] // nil until a pair is seen
	seenMu sync.Mutex                // held while a pair is added

	obs      machine.Observer
	entityOf func(E) uint64
}

// seenPairs is the transitions the machines of a registry took, as (from,
// to) pairs in the order first seen, and by source state. A seenPairs is
// never changed once published: a new pair makes a new one, which shares
// the old one's arrays (appending only past what the old one holds).
type seenPairs struct {
	pairs  []seenPair
	byFrom [][]seenPair // by from: the pairs leaving it, each with its index in pairs
}

type seenPair struct {
	from, to StateID
	index    int32 // in pairs
}

// ErrUnregistered is matched by [errors.Is] against the error a machine tied
// to a [Behaviors] registry returns when asked to change to a state that is
// not registered.
var ErrUnregistered = errors.New("fsm: the state is not in the machine's Behaviors registry")

// Add registers b under name and returns its ID, the number of states added
// before it. It panics, as mistakes in the program do, if name is empty or
// already used, if b is nil, already registered, or of a type that is not
// comparable, or if the registry already holds [MaxStates] states.
func (r *Behaviors[E, M]) Add(name string, b Behavior[E, M]) StateID {
	switch {
	case name == "":
		panic("fsm: Behaviors.Add: a state needs a name")
	case b == nil:
		panic(fmt.Sprintf("fsm: Behaviors.Add(%q): nil state", name))
	case !reflect.TypeOf(b).Comparable():
		panic(fmt.Sprintf("fsm: Behaviors.Add(%q): a state of type %T is not comparable (use a pointer, or a struct of comparable fields)", name, b))
	case len(r.states) >= MaxStates:
		panic(fmt.Sprintf("fsm: Behaviors.Add(%q): a registry holds at most %d states", name, MaxStates))
	}
	if _, dup := r.LookupState(name); dup {
		panic(fmt.Sprintf("fsm: Behaviors.Add: a state named %q is already registered", name))
	}
	if id := r.StateOf(b); id != NoState {
		panic(fmt.Sprintf("fsm: Behaviors.Add(%q): the state is already registered as %q", name, r.names[id]))
	}
	id := StateID(len(r.states))
	r.states = append(r.states, b)
	r.names = append(r.names, name)
	if r.byName != nil {
		r.byName[name], r.byState[b] = id, id
	} else if len(r.states) > smallGraph {
		r.byName = make(map[string]StateID, 2*len(r.states))
		r.byState = make(map[Behavior[E, M]]StateID, 2*len(r.states))
		for i, s := range r.states {
			r.byName[r.names[i]], r.byState[s] = StateID(i), StateID(i)
		}
	}
	return id
}

// NumStates returns the number of states registered.
func (r *Behaviors[E, M]) NumStates() int { return len(r.states) }

// StateName returns the name of state id, or id's [StateID.String] if the
// registry has no such state.
func (r *Behaviors[E, M]) StateName(id StateID) string {
	if int(id) >= len(r.names) {
		return id.String()
	}
	return r.names[id]
}

// LookupState returns the ID of the state registered under name.
func (r *Behaviors[E, M]) LookupState(name string) (StateID, bool) {
	if r.byName == nil {
		for i, n := range r.names {
			if n == name {
				return StateID(i), true
			}
		}
		return NoState, false
	}
	id, ok := r.byName[name]
	return id, ok
}

// Behavior returns the behaviour of state id, or nil if the registry has no
// such state.
func (r *Behaviors[E, M]) Behavior(id StateID) Behavior[E, M] {
	if int(id) >= len(r.states) {
		return nil
	}
	return r.states[id]
}

// StateOf returns the ID of behaviour b, or [NoState] if b is nil or not
// registered. It compares b with the states registered (up to 8 of them;
// a map look-up beyond) and allocates nothing.
func (r *Behaviors[E, M]) StateOf(b Behavior[E, M]) StateID {
	if b == nil {
		return NoState
	}
	if r.byState == nil {
		for i, s := range r.states {
			if s == b {
				return StateID(i)
			}
		}
		return NoState
	}
	if id, ok := r.byState[b]; ok {
		return id
	}
	return NoState
}

// New returns a machine for owner tied to the registry, whose current state
// is initial, or none if initial is [NoState] (give it one with
// [BehaviorMachine.ChangeState]). As with [NewBehaviorMachine], the initial
// state's Enter is not run. New panics if initial is neither NoState nor a
// state of the registry.
func (r *Behaviors[E, M]) New(owner E, initial StateID) *BehaviorMachine[E, M] {
	if initial != NoState && int(initial) >= len(r.states) {
		panic(fmt.Sprintf("fsm: Behaviors.New: %s is not a state of the registry (it has %d)", initial, len(r.states)))
	}
	return &BehaviorMachine[E, M]{owner: owner, current: r.Behavior(initial), reg: r,
		cur: initial, prev: NoState, glob: NoState}
}

// Observe attaches o to the registry: every machine tied to it reports each
// change of state ([BehaviorMachine.ChangeState] and
// [BehaviorMachine.RevertToPreviousState]) to o, as a [machine.Event] with
// Cause [machine.CauseCall], Trigger -1, and Transition the index of the
// pair (From, To) in the transitions of [Behaviors.Describe], or -1 when the
// machine had no state before (From is then [machine.NoState]). Entity is
// entity(owner), or 0 when entity is nil. o is called after the old state's
// Exit, before the new state's Enter.
//
// Observe(nil, nil) detaches the observer; attaching replaces the one
// attached before. With none attached a change of state costs one
// comparison for it. Observe must not be called while machines of the
// registry run. o is called on the goroutine that runs the machine.
func (r *Behaviors[E, M]) Observe(o machine.Observer, entity func(E) uint64) {
	r.obs, r.entityOf = o, entity
	if o == nil {
		r.entityOf = nil
	}
}

// Describe returns the registry as plain data: the states by ID, each with
// its name, and as transitions the (from, to) pairs its machines have taken
// so far, in the order first taken (an event's Transition indexes them;
// the list only grows). Kind is [machine.KindBehavior]; Initial is
// [machine.NoState]; there are no triggers and no conditions. Describe
// allocates the description afresh on every call.
func (r *Behaviors[E, M]) Describe() machine.Description {
	d := machine.Description{Name: r.Name, Kind: machine.KindBehavior, Initial: machine.NoState,
		States: make([]machine.State, len(r.states))}
	for i, name := range r.names {
		d.States[i] = machine.State{Name: name, Kind: machine.Atomic, Parent: machine.NoState}
	}
	if seen := r.seen.Load(); seen != nil {
		d.Transitions = make([]machine.Transition, len(seen.pairs))
		to := make([]machine.StateID, len(seen.pairs))
		for i, p := range seen.pairs {
			to[i] = machine.StateID(p.to)
			d.Transitions[i] = machine.Transition{From: machine.StateID(p.from), To: to[i : i+1 : i+1], Trigger: -1}
		}
	}
	return d
}

// see records that a machine went from from to to and returns the pair's
// index, or -1 if from is NoState. A pair seen before costs a look along
// the pairs seen leaving from.
func (r *Behaviors[E, M]) see(from, to StateID) int32 {
	if from == NoState {
		return -1
	}
	if seen := r.seen.Load(); seen != nil && int(from) < len(seen.byFrom) {
		for _, p := range seen.byFrom[from] {
			if p.to == to {
				return p.index
			}
		}
	}
	return r.addSeen(from, to)
}

// addSeen records the pair (from, to), unless another machine just did.
func (r *Behaviors[E, M]) addSeen(from, to StateID) int32 {
	r.seenMu.Lock()
	defer r.seenMu.Unlock()
	old := r.seen.Load()
	next := &seenPairs{}
	if old != nil {
		if int(from) < len(old.byFrom) {
			for _, p := range old.byFrom[from] {
				if p.to == to {
					return p.index
				}
			}
		}
		*next = *old
	}
	// Readers of old see only what it holds: appending past its lengths,
	// and copying the one slice changed in place, leaves that as it was.
	p := seenPair{from: from, to: to, index: int32(len(next.pairs))}
	next.pairs = append(next.pairs, p)
	byFrom := make([][]seenPair, max(len(next.byFrom), len(r.states), int(from)+1))
	copy(byFrom, next.byFrom)
	byFrom[from] = append(byFrom[from], p)
	next.byFrom = byFrom
	r.seen.Store(next)
	return p.index
}

// unknown returns the error of op given s, a state not registered.
func (r *Behaviors[E, M]) unknown(op string, s Behavior[E, M]) error {
	return fmt.Errorf("fsm: %s(%s): %w (it has %d states; add it with Behaviors.Add)", op, NameOf(s), ErrUnregistered, len(r.states))
}

// BehaviorSnapshot is a [BehaviorMachine]'s state as plain data, by the IDs
// of its [Behaviors] registry: to save a game or show the machine in a
// viewer. Fill one with [BehaviorMachine.Snapshot], load one with
// [BehaviorMachine.Restore]; each field is [NoState] when the machine has
// no such state.
type BehaviorSnapshot struct {
	Current  StateID // the current state
	Previous StateID // the state the last change of state left
	Global   StateID // the global state
}

// State returns the current state's ID in the machine's registry, or
// [NoState] when it has none, or no registry (see [Behaviors.New]).
func (m *BehaviorMachine[E, M]) State() StateID {
	if m.reg == nil {
		return NoState
	}
	return m.cur
}

// Behaviors returns the registry the machine is tied to, or nil.
func (m *BehaviorMachine[E, M]) Behaviors() *Behaviors[E, M] { return m.reg }

// Snapshot sets dst to the machine's current, previous and global states, by
// their IDs in its registry. It panics if the machine has no registry: make
// it with [Behaviors.New] to save it.
func (m *BehaviorMachine[E, M]) Snapshot(dst *BehaviorSnapshot) {
	if m.reg == nil {
		panic("fsm: BehaviorMachine.Snapshot: the machine has no Behaviors registry (make it with Behaviors.New to save it)")
	}
	dst.Current, dst.Previous, dst.Global = m.cur, m.prev, m.glob
}

// Restore puts the machine in the states s names, by their IDs in its
// registry, running no Enter or Exit: for loading a saved game. It checks
// s first and changes nothing if an ID is neither [NoState] nor a state of
// the registry; it also refuses, with [ErrReentrant], to run from inside
// the machine's own update or change of state, and refuses a machine with
// no registry. The errors name the field and the ID.
func (m *BehaviorMachine[E, M]) Restore(s *BehaviorSnapshot) error {
	r := m.reg
	if r == nil {
		return errors.New("fsm: BehaviorMachine.Restore: the machine has no Behaviors registry (make it with Behaviors.New)")
	}
	if m.busy != 0 {
		return ErrReentrant
	}
	for _, f := range [...]struct {
		name string
		id   StateID
	}{{"Current", s.Current}, {"Previous", s.Previous}, {"Global", s.Global}} {
		if f.id != NoState && int(f.id) >= len(r.states) {
			return fmt.Errorf("fsm: BehaviorMachine.Restore: %s state %s is not a state of the registry (it has %d)", f.name, f.id, len(r.states))
		}
	}
	m.current, m.previous, m.global = r.Behavior(s.Current), r.Behavior(s.Previous), r.Behavior(s.Global)
	m.cur, m.prev, m.glob = s.Current, s.Previous, s.Global
	return nil
}

// moved records that the machine, tied to a registry, made to current, and
// reports it.
func (m *BehaviorMachine[E, M]) moved(to StateID) {
	r := m.reg
	from := m.cur
	m.cur = to
	i := r.see(from, to)
	if o := r.obs; o != nil {
		ev := machine.Event{From: machine.NoState, To: machine.StateID(to), Cause: machine.CauseCall, Trigger: -1, Transition: i}
		if from != NoState {
			ev.From = machine.StateID(from)
		}
		if r.entityOf != nil {
			ev.Entity = r.entityOf(m.owner)
		}
		o.Observe(ev)
	}
}

// idOf returns the ID of s for the machine's setters, panicking if s is
// not registered.
func (m *BehaviorMachine[E, M]) idOf(op string, s Behavior[E, M]) StateID {
	id := m.reg.StateOf(s)
	if id == NoState && s != nil {
		panic(m.reg.unknown("BehaviorMachine."+op, s).Error())
	}
	return id
}
