package fsm_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/machine"
)

// pilot is the observation tests' entity.
type pilot struct {
	id          uint64
	fuel, enemy int
}

func lowFuel(p *pilot) bool                { return p.fuel < 10 }
func (p *pilot) sighted() bool             { return p.enemy > 0 }
func (p *pilot) cleared() bool             { return p.enemy == 0 }
func near[N int | float64](n N) bool       { return n < 3 }
func farFrom[P any](P) bool                { return true }
func pilotID(p *pilot) uint64              { return p.id }
func (e *events) Observe(ev machine.Event) { *e = append(*e, ev) }

type events []machine.Event

// pilotGraph: cruise → refuel (lowFuel), cruise → fight (a closure),
// fight → cruise ((*pilot).cleared), refuel → cruise (a closure).
func pilotGraph() (*fsm.Graph[*pilot, int], [3]fsm.StateID) {
	g := &fsm.Graph[*pilot, int]{}
	cruise := g.AddState(fsm.State[*pilot, int]{Name: "cruise"})
	refuel := g.AddState(fsm.State[*pilot, int]{Name: "refuel"})
	fight := g.AddState(fsm.State[*pilot, int]{Name: "fight"})
	g.AddTransition(cruise, refuel, lowFuel)
	g.AddTransition(cruise, fight, func(p *pilot) bool { return p.sighted() })
	g.AddTransition(fight, cruise, (*pilot).cleared)
	g.AddTransition(refuel, cruise, func(p *pilot) bool { return p.fuel >= 10 })
	return g, [3]fsm.StateID{cruise, refuel, fight}
}

func TestGraphDescribe(t *testing.T) {
	g, _ := pilotGraph()
	d := g.Describe()
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if d.Name != "" || d.Kind != machine.KindGuarded || d.Initial != machine.NoState || len(d.Triggers) != 0 {
		t.Errorf("Describe() = name %q, kind %s, initial %s, %d triggers; want none, guarded, none, 0", d.Name, d.Kind, d.Initial, len(d.Triggers))
	}
	var got []string
	for _, tr := range d.Transitions {
		got = append(got, fmt.Sprintf("%s→%s %q %d", d.StateName(tr.From), d.StateName(tr.To[0]), tr.Condition, tr.Trigger))
	}
	// Grouped by source state in ID order, each in the order tried.
	want := []string{
		`cruise→refuel "fsm_test.lowFuel" -1`,
		`cruise→fight "" -1`,
		`refuel→cruise "" -1`,
		`fight→cruise "fsm_test.(*pilot).cleared" -1`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Describe().Transitions =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The same list as Transitions yields, state by state.
	k := 0
	for s := range fsm.StateID(g.NumStates()) {
		for tr := range g.Transitions(s) {
			if dt := d.Transitions[k]; dt.From != machine.StateID(tr.From) || dt.To[0] != machine.StateID(tr.To) {
				t.Errorf("Describe().Transitions[%d] = %v, want Transitions(%s)[%d] = %v", k, dt, s, tr.Index, tr)
			}
			k++
		}
	}
}

func TestFuncNames(t *testing.T) {
	p := &pilot{}
	tests := []struct {
		name  string
		guard func(*pilot) bool
		want  string
	}{
		{"function", lowFuel, "fsm_test.lowFuel"},
		{"method expression", (*pilot).sighted, "fsm_test.(*pilot).sighted"},
		{"method value", func() func(*pilot) bool { f := p.sighted; return func(*pilot) bool { return f() } }(), ""},
		{"closure", func(*pilot) bool { return true }, ""},
		{"closure calling a generic function", func(p *pilot) bool { return near(p.fuel) }, ""},
		{"generic function", farFrom[*pilot], "fsm_test.farFrom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g fsm.Graph[*pilot, int]
			a := g.AddState(fsm.State[*pilot, int]{Name: "a"})
			g.AddTransition(a, a, tt.guard)
			if got := g.Describe().Transitions[0].Condition; got != tt.want {
				t.Errorf("Condition = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("flow", func(t *testing.T) {
		var f fsm.Flow[int]
		a := f.AddState("a", 0, nil, nil)
		f.AddTransition(a, a, p.sighted)       // a method value
		f.AddTransition(a, a, gate[int]{2}.ok) // a generic type's method value
		f.AddTransition(a, a, func() bool { return false })
		var got []string
		for _, tr := range f.Describe().Transitions {
			got = append(got, tr.Condition)
		}
		if want := []string{"fsm_test.(*pilot).sighted", "fsm_test.gate.ok", ""}; !slices.Equal(got, want) {
			t.Errorf("Flow conditions = %q, want %q", got, want)
		}
	})
}

func TestGraphObserve(t *testing.T) {
	g, ids := pilotGraph()
	cruise, refuel, fight := ids[0], ids[1], ids[2]
	var evs, want events
	g.Observe(&evs, pilotID)
	want = events{
		{Entity: 7, From: 0, To: 2, Cause: machine.CauseGuard, Trigger: -1, Transition: 1},
		{Entity: 7, From: 2, To: 0, Cause: machine.CauseGuard, Trigger: -1, Transition: 3},
		{Entity: 7, From: 0, To: 1, Cause: machine.CauseGuard, Trigger: -1, Transition: 0},
		{Entity: 7, From: 1, To: 2, Cause: machine.CauseCall, Trigger: -1, Transition: -1},
	}
	var hooked []string
	g.OnTransition = func(p *pilot, from, to fsm.StateID) {
		hooked = append(hooked, g.StateName(from)+"→"+g.StateName(to))
		if n := len(hooked); n <= len(want) && len(evs) != n-1 {
			t.Errorf("OnTransition ran after the observer")
		}
	}
	p := &pilot{id: 7, fuel: 50, enemy: 1}
	m := g.New(p, cruise)
	mustUpdate := func() {
		t.Helper()
		if err := m.Update(); err != nil {
			t.Fatal(err)
		}
	}
	mustUpdate() // cruise → fight by the closure, transition 1
	p.enemy, p.fuel = 0, 5
	mustUpdate() // fight → cruise (3), cruise → refuel (0): a chain
	if err := m.Goto(fight); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(evs, want) {
		t.Errorf("events = %+v\nwant %+v", evs, want)
	}
	if len(hooked) != len(want) {
		t.Errorf("OnTransition saw %q, want %d transitions", hooked, len(want))
	}
	d := g.Describe()
	for i, ev := range evs {
		if ev.Transition < 0 {
			continue
		}
		if tr := d.Transitions[ev.Transition]; tr.From != ev.From || tr.To[0] != ev.To {
			t.Errorf("event %d is %s→%s, its transition %d is %s→%s", i, ev.From, ev.To, ev.Transition, tr.From, tr.To[0])
		}
	}

	// A transition added to an earlier state moves the later indexes.
	g.AddTransition(cruise, cruise, func(*pilot) bool { return false })
	evs = evs[:0]
	p.fuel = 50
	if err := m.Goto(refuel); err != nil {
		t.Fatal(err)
	}
	mustUpdate() // refuel → cruise: was 2, now 3
	if len(evs) != 2 || evs[1].Transition != 3 || g.Describe().Transitions[3].From != machine.StateID(refuel) {
		t.Errorf("after a transition was added, events %+v; want refuel → cruise as transition 3", evs)
	}

	// Without an entity function, Entity is 0; detached, nothing is told.
	g.Observe(&evs, nil)
	evs = evs[:0]
	_ = m.Goto(fight)
	g.Observe(nil, nil)
	_ = m.Goto(cruise)
	if len(evs) != 1 || evs[0].Entity != 0 {
		t.Errorf("events = %+v, want one with entity 0", evs)
	}
}

func TestFlowObserve(t *testing.T) {
	var f fsm.Flow[int]
	on := false
	off := f.AddState("off", 0, nil, nil)
	lit := f.AddState("on", 1, nil, nil)
	f.AddTransition(off, lit, func() bool { return on })
	f.AddTransition(lit, off, func() bool { return !on })
	f.Start(off)
	rec := machine.NewRecorder(8)
	f.Observe(rec.Register(f.Describe()), 42)
	on = true
	if err := f.Update(); err != nil {
		t.Fatal(err)
	}
	f.Observe(nil, 0)
	on = false
	if err := f.Update(); err != nil {
		t.Fatal(err)
	}
	want := []machine.Event{{Entity: 42, From: 0, To: 1, Cause: machine.CauseGuard, Trigger: -1, Transition: 0}}
	if got := rec.Events(nil); !slices.Equal(got, want) {
		t.Errorf("recorded %+v, want %+v", got, want)
	}
}

func TestObserveNoAllocs(t *testing.T) {
	g, ids := pilotGraph()
	var n int
	g.Observe(machine.ObserverFunc(func(machine.Event) { n++ }), pilotID)
	p := &pilot{fuel: 50}
	m := g.New(p, ids[0])
	allocs := testing.AllocsPerRun(100, func() {
		p.enemy ^= 1
		if err := m.Update(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || n != 101 {
		t.Errorf("observed Update allocates %v times, told %d transitions; want 0, 101", allocs, n)
	}
}

// gate gives a generic type's method value as a condition.
type gate[N int | float64] struct{ n N }

func (g gate[N]) ok() bool { return near(g.n) }
