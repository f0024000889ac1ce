package observegen

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// world is the Goomba's host for table.Agent, answering by the IDs the
// generated constants share with the table.
type world struct{}

func (world) Test(g *Goomba, t table.TestID) bool {
	switch GoombaTest(t) {
	case GoombaTestHitTriggerLeft:
		return g.HitTriggerLeft()
	case GoombaTestHitTriggerRight:
		return g.HitTriggerRight()
	case GoombaTestAnimationDone:
		return g.AnimationDone()
	}
	return false
}

func (world) Do(g *Goomba, p table.PropertyID, v table.ValueID) {
	switch GoombaProperty(p) {
	case GoombaPropertyXMovement:
		g.XMovement(GoombaXMovement(v))
	case GoombaPropertyAnimation:
		g.Animation(GoombaAnimation(v))
	}
}

// TestGoombaEvents runs a crowd of goombas twice through the same random
// frames, as goombagen's differential test does: once with the generated
// machine (Options.Host "*Goomba", Options.Observe), once with table.Agent,
// each machine observed by a flight recorder of its own runtime with the
// goomba's index as the entity. The goombas move, are nudged, are hit
// (Receive) or sent a hit (Post), update, are detached from and attached
// to the recorder again, and respawn when done; after every frame both
// recorders must hold the same events, in the same order.
func TestGoombaEvents(t *testing.T) {
	tbl := fixtures.Goomba()
	d := tbl.Describe()
	const n = 64
	causes := map[machine.Cause]int{}
	total := 0
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 2))
		rg, ra := machine.NewRecorder(1024), machine.NewRecorder(1024)
		og, oa := rg.Register(d), ra.Register(d)
		gs, es := make([]Goomba, n), make([]Goomba, n)
		ms := make([]GoombaMachine, n)
		as := make([]table.Agent[*Goomba], n)
		start := func(i int) {
			gs[i].spawn(i)
			es[i].spawn(i)
			ms[i] = NewGoombaMachine(&gs[i])
			as[i] = table.NewAgent(tbl, &es[i], world{})
			ms[i].Observe(og, uint64(i))
			as[i].Observe(oa, uint64(i))
		}
		for i := range n {
			start(i)
		}
		var ge, ae []machine.Event
		for frame := range 3000 {
			rg.SetTick(uint64(frame))
			ra.SetTick(uint64(frame))
			for i := range n {
				g, e, m, a := &gs[i], &es[i], &ms[i], &as[i]
				g.step()
				e.step()
				if rng.IntN(8) == 0 {
					dx := int32(rng.IntN(9) - 4)
					g.x += dx
					e.x += dx
				}
				switch rng.IntN(400) {
				case 0:
					m.Post(GoombaMessageHitByPlayer)
					if err := a.Post(table.TestID(GoombaTestHitByPlayer)); err != nil {
						t.Fatal(err)
					}
				case 1:
					r, err := m.Receive(g, GoombaMessageHitByPlayer)
					ar, aerr := a.Receive(world{}, table.TestID(GoombaTestHitByPlayer))
					if fmt.Sprint(r.Steps, err) != fmt.Sprint(ar.Steps, aerr) {
						t.Fatalf("seed %d, frame %d, goomba %d: Receive = %+v, %v; table: %+v, %v", seed, frame, i, r, err, ar, aerr)
					}
				case 2:
					m.Observe(nil, 0)
					a.Observe(nil, 0)
				case 3, 4, 5, 6:
					if o, _ := m.Observer(); o == nil {
						m.Observe(og, uint64(i))
						a.Observe(oa, uint64(i))
					}
				}
				r, err := m.Update(g)
				ar, aerr := a.Update(world{})
				if err != nil || aerr != nil || r.Steps != ar.Steps || r.Final() != ar.Final() {
					t.Fatalf("seed %d, frame %d, goomba %d: Update = %+v, %v; table: %+v, %v", seed, frame, i, r, err, ar, aerr)
				}
				if ar.Final() && rng.IntN(2) == 0 {
					start(i)
				}
			}
			ge, ae = rg.Events(ge[:0]), ra.Events(ae[:0])
			if !slices.Equal(ge, ae) {
				t.Fatalf("seed %d, frame %d: events differ:\ngenerated   %+v\ntable.Agent %+v", seed, frame, ge, ae)
			}
			for _, ev := range ae {
				causes[ev.Cause]++
			}
			total += len(ae)
			rg.Reset()
			ra.Reset()
		}
	}
	t.Logf("%d events: %v", total, causes)
	if causes[machine.CauseTest] < 10000 || causes[machine.CauseMessage] < 100 {
		t.Errorf("events by cause %v; want polled tests and messages", causes)
	}
}

// TestFlatEvents runs the generated guard (any-state transitions, push
// and return) and odd table (chaining, awkward names) beside table.Agent
// with difftest.Run, which compares the events both machines report
// besides everything else.
func TestFlatEvents(t *testing.T) {
	for _, c := range []struct {
		name  string
		table func() *table.Table
		gen   func(h *difftest.Host) difftest.Machine
	}{
		{"guard", fixtures.Guard, newGuardGen},
		{"odd", fixtures.Odd, newOddGen},
	} {
		t.Run(c.name, func(t *testing.T) {
			tbl := c.table()
			total := difftest.Stats{Causes: map[machine.Cause]int{}}
			for seed := range uint64(8) {
				st := difftest.Run(t, tbl, c.gen, 2000, seed)
				total.Steps += st.Steps
				total.Finals += st.Finals
				total.Events += st.Events
				total.StackErrors += st.StackErrors
				total.ChainErrors += st.ChainErrors
				total.Saves += st.Saves
				for k, v := range st.Causes {
					total.Causes[k] += v
				}
			}
			t.Logf("%+v", total)
			if total.Events != total.Steps || total.Causes[machine.CauseTest] == 0 || total.Causes[machine.CauseMessage] == 0 || total.Finals == 0 || total.StackErrors == 0 || total.Saves < 100 {
				t.Errorf("the runs went through %+v; want an event per transition, tests and messages, finishes, stack errors and saves", total)
			}
		})
	}
}

// TestChartEvents runs the generated NPC (timers, eventless transitions,
// parallel regions, deep history, chaining) and sentry (the stack,
// any-state transitions) beside table.Agent with difftest.RunChart, which
// compares the events both machines report besides everything else.
func TestChartEvents(t *testing.T) {
	for _, c := range []struct {
		name  string
		table func() *table.Table
		gen   func(h *difftest.Host) difftest.ChartMachine
		want  []machine.Cause
	}{
		{"npc", fixtures.NPC, newNPCGen, []machine.Cause{machine.CauseEvent, machine.CauseTimer, machine.CauseNone}},
		{"sentry", fixtures.Sentry, newSentryGen, []machine.Cause{machine.CauseEvent, machine.CauseNone}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var total difftest.ChartStats
			for seed := range uint64(8) {
				total.Add(difftest.RunChart(t, c.table(), c.gen, 2000, seed))
			}
			t.Logf("%d updates, %d microsteps, %d events by cause %v, %d saves", total.Updates, total.Steps, total.Events, total.Causes, total.Saves)
			if total.Events != total.Steps || total.Saves < 100 {
				t.Errorf("%d events for %d microsteps, %d saves; want one per microstep, and saves", total.Events, total.Steps, total.Saves)
			}
			for _, cause := range c.want {
				if total.Causes[cause] == 0 {
					t.Errorf("no event with cause %v: %v", cause, total.Causes)
				}
			}
		})
	}
}

// TestSentryAnyState checks the events of the sentry's any-state
// transition: a hit in the investigate state stuns, and the event names
// the transition Describe lists under the active top-level state.
func TestSentryAnyState(t *testing.T) {
	tbl := fixtures.Sentry()
	d := tbl.Describe()
	h := sentryHost{&difftest.Host{T: tbl, Holds: make([]bool, tbl.NumTests())}}
	m := NewSentryMachine(h)
	var evs []machine.Event
	m.Observe(machine.ObserverFunc(func(ev machine.Event) { evs = append(evs, ev) }), 7)
	for _, msg := range []SentryMessage{SentryMessageNoise, SentryMessageHit} {
		if err := m.Post(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Update(h); err != nil {
			t.Fatal(err)
		}
	}
	if len(evs) != 2 {
		t.Fatalf("events %+v; want 2", evs)
	}
	ev := evs[1]
	tr := d.Transitions[ev.Transition]
	if ev.Entity != 7 || ev.From != machine.StateID(SentryStateInvestigate) || ev.To != machine.StateID(SentryStateStunned) ||
		ev.Cause != machine.CauseEvent || ev.Trigger != int32(SentryTestHit) || tr.From != machine.StateID(SentryStateInvestigate) ||
		tr.Trigger != ev.Trigger || !slices.Equal(tr.To, []machine.StateID{machine.StateID(SentryStateStunned)}) || !tr.Push {
		t.Errorf("event %+v, transition %+v; want investigate → stunned on hit, the any-state transition listed under investigate", ev, tr)
	}
}

// TestObserver checks Observe and Observer: the zero machine and a new
// one have no observer, copies share it, Observe(nil, 0) detaches it, a
// restored machine has none, and the final state is machine.Final.
func TestObserver(t *testing.T) {
	var zero GoombaMachine
	if o, e := zero.Observer(); o != nil || e != 0 {
		t.Errorf("zero.Observer() = %v, %d; want nil, 0", o, e)
	}
	g := &Goomba{}
	g.spawn(0)
	m := NewGoombaMachine(g)
	if o, _ := m.Observer(); o != nil {
		t.Errorf("NewGoombaMachine: Observer() = %v; want nil", o)
	}
	var evs []machine.Event
	obs := machine.ObserverFunc(func(ev machine.Event) { evs = append(evs, ev) })
	m.Observe(obs, 3)
	if o, e := m.Observer(); o == nil || e != 3 {
		t.Errorf("Observer() = %v, %d; want the observer, 3", o, e)
	}
	c := m // a copy shares the observer
	if _, err := c.Receive(g, GoombaMessageHitByPlayer); err != nil {
		t.Fatal(err)
	}
	g.animFrames = deathFrames
	if _, err := c.Update(g); err != nil || !c.Done() {
		t.Fatalf("Update: %v, done %t", err, c.Done())
	}
	want := []machine.Event{
		{Entity: 3, From: machine.StateID(GoombaStateWalkLeft), To: machine.StateID(GoombaStateDying), Cause: machine.CauseMessage, Trigger: int32(GoombaTestHitByPlayer), Transition: 0},
		{Entity: 3, From: machine.StateID(GoombaStateDying), To: machine.Final, Cause: machine.CauseTest, Trigger: int32(GoombaTestAnimationDone), Transition: 4},
	}
	if !slices.Equal(evs, want) {
		t.Errorf("events\n%+v\nwant\n%+v", evs, want)
	}
	var s GoombaSnapshot
	m.Snapshot(&s)
	r, err := RestoreGoombaMachine(&s)
	if o, _ := r.Observer(); err != nil || o != nil {
		t.Errorf("RestoreGoombaMachine: Observer() = %v, %v; want none", o, err)
	}
	m.Observe(nil, 9)
	if o, e := m.Observer(); o != nil || e != 0 {
		t.Errorf("after Observe(nil, 9): Observer() = %v, %d; want nil, 0", o, e)
	}
	evs = evs[:0]
	if _, err := m.Receive(g, GoombaMessageHitByPlayer); err != nil || len(evs) != 0 {
		t.Errorf("detached: Receive: %v, events %+v; want none", err, evs)
	}
}

// TestAllocs checks that updates allocate nothing, observed by a recorder
// or not, and that Observe allocates once.
func TestAllocs(t *testing.T) {
	rec := machine.NewRecorder(64)
	obs := rec.Register(fixtures.Goomba().Describe())
	gs := make([]Goomba, 16)
	ms := make([]GoombaMachine, len(gs))
	for i := range gs {
		gs[i].spawn(i)
		ms[i] = NewGoombaMachine(&gs[i])
	}
	frame := 0
	run := func() {
		for i := range gs {
			g, m := &gs[i], &ms[i]
			g.step()
			if hitAt(frame, i) {
				_, _ = m.Receive(g, GoombaMessageHitByPlayer)
			}
			if r, _ := m.Update(g); r.Final() {
				g.spawn(i)
				*m = NewGoombaMachine(g)
				m.Observe(obs, uint64(i))
			}
		}
		frame++
	}
	if n := testing.AllocsPerRun(1000, run); n != 0 {
		t.Errorf("a frame without observers allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(10, func() { ms[0].Observe(obs, 0) }); n != 1 {
		t.Errorf("Observe allocates %v times, want 1", n)
	}
	for i := range ms {
		ms[i].Observe(obs, uint64(i))
	}
	if n := testing.AllocsPerRun(1000, run); n != 0 {
		t.Errorf("a frame observed by a recorder allocates %v times, want 0", n)
	}
	if rec.Total() == 0 {
		t.Error("the recorder recorded nothing")
	}

	h := &seesHost{}
	npc := NewNPCMachine(h)
	npc.Observe(obs, 1)
	now := 0.0
	n := testing.AllocsPerRun(1000, func() {
		h.frame++
		now += 0.1
		npc.SetTime(now)
		switch h.frame % 50 {
		case 1:
			_ = npc.Post(NPCMessageNoise)
		case 25:
			_ = npc.Post(NPCMessageCalm)
		}
		_, _ = npc.Update(h)
	})
	if n != 0 {
		t.Errorf("an observed NPC's update allocates %v times, want 0", n)
	}
}

// TestDescribe checks that each generated file's Describe is its table's
// Describe, field for field, with the same fingerprint: a recorder or a
// save cannot tell the two runtimes apart.
func TestDescribe(t *testing.T) {
	for _, tt := range []struct {
		name string
		tbl  func() *table.Table
		gen  func() machine.Description
	}{
		{"goomba", fixtures.Goomba, GoombaDescribe},
		{"guard", fixtures.Guard, GuardDescribe},
		{"odd", fixtures.Odd, OddDescribe},
		{"npc", fixtures.NPC, NPCDescribe},
		{"sentry", fixtures.Sentry, SentryDescribe},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, want := tt.gen(), tt.tbl().Describe()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Describe() = %+v\nwant %+v", got, want)
			}
			if machine.Fingerprint(&got) != machine.Fingerprint(&want) {
				t.Errorf("fingerprints differ")
			}
			if err := got.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}
