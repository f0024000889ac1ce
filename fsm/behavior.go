package fsm

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Behavior is a state of a [BehaviorMachine], in Buckland's style: code that
// runs on entering, on every update and on leaving, and that decides for
// itself when its entity changes state (by calling ChangeState on the
// entity's machine from Execute or OnMessage). M is the message type states
// receive, typically a message.Telegram.
//
// Behaviors keep no per-entity data (that lives in the entity), so one value
// serves every entity: declare each state once, as a package-level value of
// a small type, and embed [NopBehavior] to skip the methods it does not need:
//
//	type eatStew struct{ fsm.NopBehavior[*Miner, Telegram] }
//	var EatStew eatStew
//
// The machine compares states with ==, so a Behavior's dynamic type must be
// comparable (a pointer or a struct of comparable fields): IsInState panics,
// as == on interfaces does, given two states of the same uncomparable type.
type Behavior[E, M any] interface {
	Enter(e E)
	Execute(e E)
	Exit(e E)
	// OnMessage returns whether the state handled the message.
	OnMessage(e E, msg M) bool
}

// NopBehavior implements every [Behavior] method by doing nothing and
// handling no message. Embed it in a state type to write only what differs.
type NopBehavior[E, M any] struct{}

// Enter does nothing.
func (NopBehavior[E, M]) Enter(E) {}

// Execute does nothing.
func (NopBehavior[E, M]) Execute(E) {}

// Exit does nothing.
func (NopBehavior[E, M]) Exit(E) {}

// OnMessage handles nothing: it returns false.
func (NopBehavior[E, M]) OnMessage(E, M) bool { return false }

// ErrNilState is returned by [BehaviorMachine.ChangeState] given a nil state.
var ErrNilState = errors.New("fsm: change to a nil state")

// ErrNoPrevious is returned by [BehaviorMachine.RevertToPreviousState] when
// the machine has never changed state.
var ErrNoPrevious = errors.New("fsm: no previous state to revert to")

// BehaviorMachine is Buckland's reusable state machine: for one entity, a
// current state, the previous one and a global state whose Execute runs every
// update and whose OnMessage sees what the current state does not handle.
// The states are [Behavior] values; the machine is three interface values,
// the owner and, for a machine made by [Behaviors.New], its registry and
// the IDs of its states there.
//
// Choose a BehaviorMachine when states are behaviours that act every update
// and change state themselves, with messages (telegrams) between entities.
// Choose a [GuardMachine] when transitions are guards that a graph can list,
// a viewer can draw and a designer can edit.
//
// States call back into their machine: Execute and OnMessage may call
// ChangeState and RevertToPreviousState. Calls that would recurse without
// end return [ErrReentrant] and change nothing: Update from inside Update
// (from an Execute, or an Enter, Exit or OnMessage it leads to) or from
// inside a change of state, and ChangeState or RevertToPreviousState from
// inside a change of state (from an Enter or Exit, or an OnMessage they
// lead to). The machine keeps
// working after such an error. A state that panics leaves the machine in
// the last state it made current; a panic during Update leaves it refusing
// Update (see there).
//
// The zero value has no owner and no state; make one with
// [NewBehaviorMachine], or with [Behaviors.New] to save it, describe it and
// watch it by state ID.
// A BehaviorMachine is not safe for concurrent use.
type BehaviorMachine[E, M any] struct {
	owner    E
	current  Behavior[E, M]
	previous Behavior[E, M]
	global   Behavior[E, M]
	busy     busy // what the machine is running: updating, changing, or both

	// A machine made by Behaviors.New: its registry, and the IDs of its
	// current, previous and global states there.
	reg             *Behaviors[E, M]
	cur, prev, glob StateID
}

// busy records what a BehaviorMachine is running, to refuse the calls that
// would recurse.
type busy uint8

const (
	updating busy = 1 << iota // Update is running the Execute methods
	changing                  // ChangeState is running an Exit or an Enter
)

// NewBehaviorMachine returns a machine for owner whose current state is
// initial (which may be nil, to be set later with [BehaviorMachine.SetCurrent]).
// The initial state's Enter is not run, as in Buckland's SetCurrentState.
// The machine is tied to no registry: to save it by state IDs, describe it
// or watch it, make it with [Behaviors.New] instead.
func NewBehaviorMachine[E, M any](owner E, initial Behavior[E, M]) *BehaviorMachine[E, M] {
	return &BehaviorMachine[E, M]{owner: owner, current: initial, cur: NoState, prev: NoState, glob: NoState}
}

// SetCurrent sets the current state without running any Enter or Exit: for
// setting up and for restoring a saved game. On a machine tied to a
// [Behaviors] registry it panics if s is neither nil nor registered; it
// records no transition and reports none.
func (m *BehaviorMachine[E, M]) SetCurrent(s Behavior[E, M]) {
	if m.reg != nil {
		m.cur = m.idOf("SetCurrent", s)
	}
	m.current = s
}

// SetPrevious sets the previous state without running anything. On a
// machine tied to a registry it panics as SetCurrent does.
func (m *BehaviorMachine[E, M]) SetPrevious(s Behavior[E, M]) {
	if m.reg != nil {
		m.prev = m.idOf("SetPrevious", s)
	}
	m.previous = s
}

// SetGlobal sets the global state (nil for none) without running anything.
// On a machine tied to a registry it panics as SetCurrent does.
func (m *BehaviorMachine[E, M]) SetGlobal(s Behavior[E, M]) {
	if m.reg != nil {
		m.glob = m.idOf("SetGlobal", s)
	}
	m.global = s
}

// Update runs the global state's Execute, if there is one, then the current
// state's. It returns [ErrNoState], running nothing, when there is no current
// state, and [ErrReentrant], running nothing, when called from inside an
// update of the same machine (from an Execute, or an Enter, Exit or
// OnMessage that one leads to) or from inside a change of state: that would
// recurse without end. A state that panics during Update leaves the machine
// returning ErrReentrant from Update from then on, as a [GuardMachine] whose
// guard panicked does: the update never finished. Make a new machine with
// the same states to go on. Update allocates nothing.
func (m *BehaviorMachine[E, M]) Update() error {
	if m.current == nil {
		return ErrNoState
	}
	if m.busy != 0 {
		return ErrReentrant
	}
	// No defer on this path (it would cost about a third of an update of
	// trivial states): a panicking state leaves the machine updating.
	m.busy = updating
	if m.global != nil {
		m.global.Execute(m.owner)
	}
	// The global state may have changed the current one: run whichever is current now.
	m.current.Execute(m.owner)
	m.busy = 0 // changing is set only during ChangeState, which has returned
	return nil
}

// ChangeState records the current state as the previous one, runs its
// Exit, makes s current and runs its Enter, in Buckland's order. With no current
// state yet, it only makes s current and runs its Enter. Execute and
// OnMessage may call it, as often as they like.
//
// It returns an error and changes nothing given nil ([ErrNilState]), given a
// state not in the registry of a machine tied to one (an error matching
// [ErrUnregistered]), or when
// called from inside a change of state of the same machine: from an Enter or
// Exit, or an OnMessage that one leads to ([ErrReentrant]). The
// change asked for would interrupt the one under way, and a state that
// changes state on entering could recurse without end; to leave a state as
// soon as it is entered, change state from its Execute. A panic in Exit
// leaves the current state current (and recorded as the previous one); a
// panic in Enter leaves s current. Either way ChangeState
// keeps working (but see Update).
//
// On a machine tied to a [Behaviors] registry, the change is recorded (see
// [Behaviors.Describe]) and reported to the registry's observer, after
// Exit and before Enter; that costs finding s's ID (a comparison per
// state registered, up to 8, or a map look-up) and, the first time a pair
// of states is seen, a lock and a few allocations. ChangeState otherwise
// allocates nothing.
func (m *BehaviorMachine[E, M]) ChangeState(s Behavior[E, M]) error {
	if s == nil {
		return ErrNilState
	}
	if m.busy&changing != 0 {
		return ErrReentrant
	}
	to := NoState
	if m.reg != nil {
		if to = m.reg.StateOf(s); to == NoState {
			return m.reg.unknown("BehaviorMachine.ChangeState", s)
		}
	}
	m.busy |= changing
	defer m.endChange()    // a panicking state does not leave the machine busy
	m.previous = m.current // as Buckland: Exit sees its own state as the previous one
	m.prev = m.cur
	if m.current != nil {
		m.current.Exit(m.owner)
	}
	m.current = s
	if m.reg != nil {
		m.moved(to)
	}
	s.Enter(m.owner)
	return nil
}

func (m *BehaviorMachine[E, M]) endChange() { m.busy &^= changing }

// RevertToPreviousState changes back to the previous state (Buckland's "state
// blip": a detour such as a bathroom visit that returns to what was
// interrupted), as ChangeState does. It returns [ErrNoPrevious], changing
// nothing, if there is none, and [ErrReentrant] as ChangeState does.
func (m *BehaviorMachine[E, M]) RevertToPreviousState() error {
	if m.previous == nil {
		return ErrNoPrevious
	}
	return m.ChangeState(m.previous)
}

// IsInState reports whether s is the current state.
func (m *BehaviorMachine[E, M]) IsInState(s Behavior[E, M]) bool {
	return m.current != nil && m.current == s
}

// HandleMessage offers msg to the current state, then to the global state,
// and reports whether either handled it.
func (m *BehaviorMachine[E, M]) HandleMessage(msg M) bool {
	if m.current != nil && m.current.OnMessage(m.owner, msg) {
		return true
	}
	return m.global != nil && m.global.OnMessage(m.owner, msg)
}

// Current returns the current state, or nil.
func (m *BehaviorMachine[E, M]) Current() Behavior[E, M] { return m.current }

// Previous returns the previous state, or nil.
func (m *BehaviorMachine[E, M]) Previous() Behavior[E, M] { return m.previous }

// Global returns the global state, or nil.
func (m *BehaviorMachine[E, M]) Global() Behavior[E, M] { return m.global }

// Owner returns the entity the machine passes to its states.
func (m *BehaviorMachine[E, M]) Owner() E { return m.owner }

// NameOf returns a printable name for a state value: its String method if it
// has one, else its type's name without package or pointer marks ("eatStew"),
// or "none" for nil. It is for traces and errors, not for per-frame paths.
func NameOf(state any) string {
	switch s := state.(type) {
	case nil:
		return "none"
	case fmt.Stringer:
		return s.String()
	}
	t := reflect.TypeOf(state)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if name == "" {
		return t.String()
	}
	return name
}
