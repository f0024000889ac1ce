package fsm_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/machine"
)

// The XNA article's state machine ported to Go as the article writes it: a
// state is a struct of closures, a transition is a guard closure that
// captures the entity, and update moves while a guard holds. It is the
// baseline that BenchmarkToggle, BenchmarkBuild and BenchmarkFormation run
// fsm.GuardMachine and fsm.Flow beside.

// xnaState is the article's State<T>: a name, a tag, enter and exit actions
// (nil for none), and the transitions leaving it, tried in order.
type xnaState[T any] struct {
	name            string
	tag             T
	onEnter, onExit func()
	transitions     []xnaTransition[T]
}

// xnaTransition is the article's Transition: a condition and where it leads.
type xnaTransition[T any] struct {
	next      *xnaState[T]
	condition func() bool
}

func newXNAState[T any](name string, tag T, onEnter, onExit func()) *xnaState[T] {
	return &xnaState[T]{name: name, tag: tag, onEnter: onEnter, onExit: onExit}
}

func (s *xnaState[T]) addTransition(next *xnaState[T], condition func() bool) {
	s.transitions = append(s.transitions, xnaTransition[T]{next: next, condition: condition})
}

// xnaMachine is the article's StateMachine.
type xnaMachine[T any] struct {
	current *xnaState[T]
}

func newXNAMachine[T any](initial *xnaState[T]) *xnaMachine[T] {
	return &xnaMachine[T]{current: initial}
}

// update moves while a guard holds. As in the article, a guard cycle loops
// for ever: there is no chain limit, no reentrancy check, no previous state.
func (m *xnaMachine[T]) update() {
	for m.moveToNext() {
	}
}

func (m *xnaMachine[T]) moveToNext() bool {
	for i := range m.current.transitions {
		t := &m.current.transitions[i]
		if t.condition() {
			if m.current.onExit != nil {
				m.current.onExit()
			}
			m.current = t.next
			if m.current.onEnter != nil {
				m.current.onEnter()
			}
			return true
		}
	}
	return false
}

// lamp is the toggle benchmark's entity: a switch flipped every frame, and
// the transitions its machine took, counted by the states' Enter.
type lamp struct {
	on    bool
	moves int
}

func (l *lamp) enter() { l.moves++ }
func (l *lamp) check(b *testing.B) {
	if l.moves != b.N {
		b.Fatalf("%d transitions in %d updates, want one per update", l.moves, b.N)
	}
}

// BenchmarkToggle measures one transition: a two-state toggle (off and on,
// each with an Enter action, each left by one guard) whose switch flips
// every frame, so that every update takes exactly one transition and then
// tries one guard that does not hold. The closure sub-benchmark is the
// article's machine ported as written (xnaMachine), the baseline;
// GuardMachine/observed has a flight recorder attached.
func BenchmarkToggle(b *testing.B) {
	b.Run("closure", func(b *testing.B) {
		l := &lamp{}
		off := newXNAState("off", 0, l.enter, nil)
		on := newXNAState("on", 1, l.enter, nil)
		off.addTransition(on, func() bool { return l.on })
		on.addTransition(off, func() bool { return !l.on })
		m := newXNAMachine(off)
		for b.Loop() {
			l.on = !l.on
			m.update()
		}
		l.check(b)
	})
	b.Run("GuardMachine", func(b *testing.B) {
		var g fsm.Graph[*lamp, int]
		enter := (*lamp).enter
		off := g.AddState(fsm.State[*lamp, int]{Name: "off", Tag: 0, Enter: enter})
		on := g.AddState(fsm.State[*lamp, int]{Name: "on", Tag: 1, Enter: enter})
		g.AddTransition(off, on, func(l *lamp) bool { return l.on })
		g.AddTransition(on, off, func(l *lamp) bool { return !l.on })
		l := &lamp{}
		m := g.New(l, off)
		for b.Loop() {
			l.on = !l.on
			if err := m.Update(); err != nil {
				b.Fatal(err)
			}
		}
		l.check(b)
	})
	b.Run("GuardMachine/observed", func(b *testing.B) {
		var g fsm.Graph[*lamp, int]
		enter := (*lamp).enter
		off := g.AddState(fsm.State[*lamp, int]{Name: "off", Tag: 0, Enter: enter})
		on := g.AddState(fsm.State[*lamp, int]{Name: "on", Tag: 1, Enter: enter})
		g.AddTransition(off, on, func(l *lamp) bool { return l.on })
		g.AddTransition(on, off, func(l *lamp) bool { return !l.on })
		rec := machine.NewRecorder(1024)
		g.Observe(rec.Register(g.Describe()), nil)
		l := &lamp{}
		m := g.New(l, off)
		for b.Loop() {
			l.on = !l.on
			if err := m.Update(); err != nil {
				b.Fatal(err)
			}
		}
		l.check(b)
	})
	b.Run("Flow", func(b *testing.B) {
		l := &lamp{}
		var f fsm.Flow[int]
		off := f.AddState("off", 0, l.enter, nil)
		on := f.AddState("on", 1, l.enter, nil)
		f.AddTransition(off, on, func() bool { return l.on })
		f.AddTransition(on, off, func() bool { return !l.on })
		f.Start(off)
		for b.Loop() {
			l.on = !l.on
			if err := f.Update(); err != nil {
				b.Fatal(err)
			}
		}
		l.check(b)
	})
}

// xnaFlyer builds ship f's machine in the closure port: the formation
// enemy's six states and seven guards, as flyerGraph has them.
func xnaFlyer(f *flyer) *xnaMachine[uint8] {
	idle := newXNAState("idle", sIdle, nil, nil)
	follow := newXNAState("follow", sFollow, nil, nil)
	lead := newXNAState("lead", sLead, func() { enterLead(f) }, nil)
	rally := newXNAState("rally", sRally, func() { enterRally(f) }, nil)
	patrol := newXNAState("patrol", sPatrol, nil, nil)
	attack := newXNAState("attack", sAttack, nil, nil)
	idle.addTransition(lead, func() bool { return f.leader == nil })
	idle.addTransition(follow, func() bool { return f.leader != nil })
	follow.addTransition(lead, func() bool { return f.leader == nil })
	lead.addTransition(rally, func() bool { return f.members < benchFormation })
	rally.addTransition(patrol, func() bool { return f.members == benchFormation })
	patrol.addTransition(attack, func() bool { return f.target != nil })
	attack.addTransition(patrol, func() bool { return f.target == nil })
	return newXNAMachine(idle)
}

// flowFlyer builds the same machine as an fsm.Flow.
func flowFlyer(f *flyer) *fsm.Flow[uint8] {
	ai := new(fsm.Flow[uint8])
	idle := ai.AddState("idle", sIdle, nil, nil)
	follow := ai.AddState("follow", sFollow, nil, nil)
	lead := ai.AddState("lead", sLead, func() { enterLead(f) }, nil)
	rally := ai.AddState("rally", sRally, func() { enterRally(f) }, nil)
	patrol := ai.AddState("patrol", sPatrol, nil, nil)
	attack := ai.AddState("attack", sAttack, nil, nil)
	ai.AddTransition(idle, lead, func() bool { return f.leader == nil })
	ai.AddTransition(idle, follow, func() bool { return f.leader != nil })
	ai.AddTransition(follow, lead, func() bool { return f.leader == nil })
	ai.AddTransition(lead, rally, func() bool { return f.members < benchFormation })
	ai.AddTransition(rally, patrol, func() bool { return f.members == benchFormation })
	ai.AddTransition(patrol, attack, func() bool { return f.target != nil })
	ai.AddTransition(attack, patrol, func() bool { return f.target == nil })
	ai.Start(idle)
	return ai
}

var (
	sinkXNA  *xnaMachine[uint8]
	sinkFlow *fsm.Flow[uint8]
)

// BenchmarkBuild measures building one ship's machine in the article's
// closure form: the formation enemy's six states and seven guards, each a
// closure over the ship. The closure sub-benchmark is the closure port
// (xnaFlyer), the baseline; Flow builds the same machine as an fsm.Flow.
// (A GuardMachine's graph is built once for all ships: see BenchmarkNew.)
func BenchmarkBuild(b *testing.B) {
	f := &flyer{}
	b.Run("closure/states=6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkXNA = xnaFlyer(f)
		}
	})
	b.Run("Flow/states=6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkFlow = flowFlyer(f)
		}
	})
}
