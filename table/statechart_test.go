package table_test

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/table"
)

// nopHost answers no test and records the game actions done.
type nopHost struct{ done []string }

func (h *nopHost) Test(e int, t table.TestID) bool               { return false }
func (h *nopHost) Do(e int, p table.PropertyID, v table.ValueID) {}

// TestStatechartRaiseOrder is W3C test 144: events raised on entry are
// handled in the order raised.
func TestStatechartRaiseOrder(t *testing.T) {
	var b table.Builder
	b.Options.Chain = true
	foo, bar := b.AddMessage("foo", ""), b.AddMessage("bar", "")
	s0 := b.AddState("s0", b.Raise(foo), b.Raise(bar))
	s1 := b.AddState("s1")
	pass := b.AddState("pass")
	fail := b.AddState("fail")
	b.SetKind(pass, table.KindFinal)
	b.SetKind(fail, table.KindFinal)
	b.AddTransition(table.Transition{From: s0, Test: foo, To: s1})
	b.AddTransition(table.Transition{From: s0, Test: table.NoTest, Events: []table.TestID{foo, bar}, To: fail})
	b.AddTransition(table.Transition{From: s1, Test: bar, To: pass})
	b.AddTransition(table.Transition{From: s1, Test: table.NoTest, Events: []table.TestID{foo, bar}, To: fail})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	h := &nopHost{}
	a := table.NewAgent[int](tb, 0, h)
	res, err := a.Update(h)
	if err != nil || !a.Done() || a.Name() != "pass" {
		t.Fatalf("Update = %+v, %v; agent %v", res, err, a.String())
	}
}

// TestStatechartParallel enters a parallel state by its default, and
// leaves it when both regions are final.
func TestStatechartParallel(t *testing.T) {
	var b table.Builder
	b.Options.Chain = true
	go1 := b.AddMessage("go", "")
	done := b.AddMessage("done.state.p", "")
	p := b.AddState("p")
	b.SetKind(p, table.KindParallel)
	r1 := b.AddState("r1")
	b.Nest(r1, p)
	a1 := b.AddState("a1")
	b.Nest(a1, r1)
	f1 := b.AddState("f1")
	b.Nest(f1, r1)
	b.SetKind(f1, table.KindFinal)
	r2 := b.AddState("r2")
	b.Nest(r2, p)
	f2 := b.AddState("f2")
	b.Nest(f2, r2)
	b.SetKind(f2, table.KindFinal)
	pass := b.AddState("pass")
	b.SetKind(pass, table.KindFinal)
	b.AddTransition(table.Transition{From: a1, Test: go1, To: f1})
	b.AddTransition(table.Transition{From: p, Test: done, To: pass})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	h := &nopHost{}
	a := table.NewAgent[int](tb, 0, h)
	got := a.AppendActive(nil)
	if len(got) != 5 {
		t.Fatalf("active = %v, want p r1 a1 r2 f2", got)
	}
	if err := a.Post(go1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Update(h); err != nil || !a.Done() || a.Name() != "pass" {
		t.Fatalf("Update: %v; agent %v", err, a.String())
	}
}

// TestStatechartBinary checks that a statechart table reads back from its
// binary form as the same table.
func TestStatechartBinary(t *testing.T) {
	tb := sampleChart(t)
	data, err := tb.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back table.Table
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	again, err := back.MarshalBinary()
	if err != nil || string(again) != string(data) {
		t.Fatalf("MarshalBinary(UnmarshalBinary(data)) = %x, %v; want %x", again, err, data)
	}
}

// sampleChart builds a statechart table that uses every feature.
func sampleChart(t testing.TB) *table.Table {
	var b table.Builder
	b.Options.Chain = true
	b.Options.QueueLimit = 7
	foo := b.AddMessage("foo", "")
	hp := b.AddTest("hp", "")
	anim := b.AddProperty("anim", "walk", "run")
	tm := b.AddTimer("t1")
	s0 := b.AddState("s0", b.Raise(foo), b.Send(foo, 1.5, tm))
	s01 := b.AddState("s01")
	b.Nest(s01, s0)
	h := b.AddState("h")
	b.Nest(h, s0)
	b.SetKind(h, table.KindDeepHistory)
	b.SetDefault(table.Transition{From: h, Test: table.NoTest, To: s01, Actions: []table.Action{b.Cancel(tm)}})
	b.SetExit(s0, table.Action{Property: anim, Value: 1, Cond: table.Cond{{Op: table.CondIn, State: s01}, {Op: table.CondNot}}})
	s1 := b.AddState("s1")
	b.AddTransition(table.Transition{From: s01, Test: foo, To: s1, Cond: table.Cond{{Op: table.CondTest, Test: hp}, {Op: table.CondIn, State: s01}, {Op: table.CondAnd}}, Internal: true})
	b.AddTransition(table.Transition{From: s1, Test: table.NoTest, To: h, Actions: []table.Action{b.Raise(foo)}})
	b.AddTransition(table.Transition{From: table.AnyState, Test: foo, To: table.NoState})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestStatechartJSON checks that a statechart table reads back from its
// JSON form as the same table.
func TestStatechartJSON(t *testing.T) {
	tb := sampleChart(t)
	data, err := tb.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back table.Table
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	b1, _ := tb.MarshalBinary()
	b2, err := back.MarshalBinary()
	if err != nil || string(b1) != string(b2) {
		t.Fatalf("binary of JSON round trip differs: %v\n%s", err, data)
	}
}

// guardChart builds a guard NPC: a compound Alert with a deep history and
// a parallel of weapon and movement, a state timer that gives up the
// search, and an any-state transition on the alarm.
func guardChart(tb testing.TB) (*table.Table, table.TestID, table.TestID) {
	t, err := buildNPC()
	if err != nil {
		tb.Fatal(err)
	}
	noise, _ := t.LookupTest("noise", "")
	calm, _ := t.LookupTest("calm", "")
	return t, noise, calm
}

// buildNPC builds the guard NPC of guardChart.
func buildNPC() (*table.Table, error) {
	var b table.Builder
	b.Name = "npc"
	b.Options.Chain = true
	noise, calm, giveUp := b.AddMessage("noise", ""), b.AddMessage("calm", ""), b.AddMessage("giveUp", "")
	sees := b.AddTest("seesPlayer", "")
	anim := b.AddProperty("anim", "idle", "walk", "aim", "fire")
	search := b.AddTimer("search")
	patrol := b.AddState("patrol", table.Action{Property: anim, Value: 1})
	alert := b.AddState("alert", b.Send(giveUp, 2, search))
	b.SetExit(alert, b.Cancel(search))
	hist := b.AddState("alertHistory")
	b.Nest(hist, alert)
	b.SetKind(hist, table.KindDeepHistory)
	combat := b.AddState("combat")
	b.Nest(combat, alert)
	b.SetKind(combat, table.KindParallel)
	weapon := b.AddState("weapon")
	b.Nest(weapon, combat)
	aim := b.AddState("aim", table.Action{Property: anim, Value: 2})
	b.Nest(aim, weapon)
	fire := b.AddState("fire", table.Action{Property: anim, Value: 3})
	b.Nest(fire, weapon)
	move := b.AddState("movement")
	b.Nest(move, combat)
	stand := b.AddState("stand")
	b.Nest(stand, move)
	chase := b.AddState("chase", table.Action{Property: anim, Value: 1})
	b.Nest(chase, move)
	b.SetDefault(table.Transition{From: hist, Test: table.NoTest, To: aim, Also: []table.StateID{stand}})
	b.AddTransition(table.Transition{From: patrol, Test: noise, To: hist})
	b.AddTransition(table.Transition{From: aim, Test: sees, To: fire})
	b.AddTransition(table.Transition{From: fire, Test: table.NoTest, Cond: table.Cond{{Op: table.CondTest, Test: sees}, {Op: table.CondNot}}, To: aim})
	b.AddTransition(table.Transition{From: stand, Test: table.NoTest, Cond: table.Cond{{Op: table.CondIn, State: aim}}, To: chase})
	b.AddTransition(table.Transition{From: alert, Test: giveUp, To: patrol})
	b.AddTransition(table.Transition{From: alert, Test: calm, To: patrol})
	return b.Build()
}

// seesHost says the player is seen on odd frames.
type seesHost struct{ frame int }

func (h *seesHost) Test(e int, t table.TestID) bool               { return h.frame%2 == 1 }
func (h *seesHost) Do(e int, p table.PropertyID, v table.ValueID) {}

// TestStatechartAllocs checks that updates of a statechart agent allocate
// nothing: events, timers, history and parallel regions included.
func TestStatechartAllocs(t *testing.T) {
	tb, noise, calm := guardChart(t)
	h := &seesHost{}
	a := table.NewAgent[int](tb, 0, h)
	now := 0.0
	allocs := testing.AllocsPerRun(1000, func() {
		h.frame++
		now += 0.1
		a.SetTime(now)
		switch h.frame % 50 {
		case 1:
			a.Post(noise)
		case 25:
			a.Post(calm)
		}
		if _, err := a.Update(h); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Update allocates %v times per call, want 0", allocs)
	}
}

// BenchmarkGuard runs guard NPCs of a statechart table, beside the same
// number of updates of the flat Goomba for scale.
func BenchmarkGuard(b *testing.B) {
	tb, noise, calm := guardChart(b)
	const n = 1024
	h := &seesHost{}
	agents := make([]table.Agent[int], n)
	for i := range agents {
		agents[i] = table.NewAgent[int](tb, i, h)
	}
	now := 0.0
	b.ReportAllocs()
	for b.Loop() {
		h.frame++
		now += 0.1
		for i := range agents {
			a := &agents[i]
			a.SetTime(now)
			switch (h.frame + i) % 50 {
			case 1:
				a.Post(noise)
			case 25:
				a.Post(calm)
			}
			a.Update(h)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/agent")
}

// TestStatechartGuard follows a guard through its chart: the history's
// default, eventless transitions across regions, the state timer, and
// the deep history restored on the next alert.
func TestStatechartGuard(t *testing.T) {
	tb, noise, _ := guardChart(t)
	h := &seesHost{}
	a := table.NewAgent[int](tb, 0, h)
	active := func() string {
		var names []string
		for _, s := range a.AppendActive(nil) {
			if tb.Atomic(s) {
				names = append(names, tb.StateName(s))
			}
		}
		return strings.Join(names, " ")
	}
	step := func(now float64, frame int, post table.TestID, want string) {
		t.Helper()
		h.frame = frame
		a.SetTime(now)
		if post != table.NoTest {
			a.Post(post)
		}
		if _, err := a.Update(h); err != nil {
			t.Fatal(err)
		}
		if got := active(); got != want {
			t.Errorf("at %v: active %q, want %q", now, got, want)
		}
	}
	step(0, 0, table.NoTest, "patrol")
	step(0.1, 0, noise, "aim chase")         // history's default, then stand → chase on In(aim)
	step(0.2, 1, table.NoTest, "fire chase") // sees the player
	step(2.5, 1, table.NoTest, "patrol")     // the search timer (2 s) fired
	step(2.6, 1, noise, "fire chase")        // deep history: fire and chase again
	step(2.7, 0, table.NoTest, "aim chase")  // lost sight
	if due, ok := a.NextTimer(); !ok || due != 4.6 {
		t.Errorf("NextTimer = %v, %v; want 4.6 (the alert entered at 2.6)", due, ok)
	}
	giveUp, _ := tb.LookupTest("giveUp", "")
	if got := a.AppendTimers(nil); len(got) != 1 || got[0].Due != 4.6 || got[0].Event != giveUp || tb.TimerName(got[0].Timer) != "search" {
		t.Errorf("AppendTimers = %+v, want the search timer's giveUp at 4.6", got)
	}
}

// TestStatechartBuildErrors checks that a statechart that could not run
// (entering it would loop, or leave a state half entered) does not build.
func TestStatechartBuildErrors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build func(b *table.Builder)
		want  string
	}{
		{"default outside", func(b *table.Builder) {
			a := b.AddState("a")
			a1 := b.AddState("a1")
			b.Nest(a1, a)
			c := b.AddState("c")
			b.SetDefault(table.Transition{From: a, Test: table.NoTest, To: c})
		}, `default transition of "a": enters "c", which is not inside "a"`},
		{"history default to history", func(b *table.Builder) {
			a := b.AddState("a")
			h := b.AddState("h")
			b.Nest(h, a)
			b.SetKind(h, table.KindHistory)
			a1 := b.AddState("a1")
			b.Nest(a1, a)
			b.SetDefault(table.Transition{From: h, Test: table.NoTest, To: h})
		}, `a history's default enters states`},
		{"history at the top", func(b *table.Builder) {
			h := b.AddState("h")
			b.SetKind(h, table.KindHistory)
		}, "is a history state at the top"},
		{"child added late", func(b *table.Builder) {
			a, c := b.AddState("a"), b.AddState("c")
			a1 := b.AddState("a1")
			b.Nest(a1, a)
			_ = c
		}, `state "c": is added between the children of a state it is not nested in`},
		{"parent after child", func(b *table.Builder) {
			a1, a := b.AddState("a1"), b.AddState("a")
			b.Nest(a1, a)
		}, "add a state's children after it"},
		{"parallel without regions", func(b *table.Builder) {
			p := b.AddState("p")
			b.SetKind(p, table.KindParallel)
		}, "parallel state without regions"},
		{"bad condition", func(b *table.Builder) {
			a := b.AddState("a")
			b.SetKind(a, table.KindBasic)
			b.AddTransition(table.Transition{From: a, Test: table.NoTest, To: a, Cond: table.Cond{{Op: table.CondAnd}}})
		}, "&& or || with fewer than two values"},
		{"queue limit", func(b *table.Builder) {
			b.Options.QueueLimit = -1
			b.SetKind(b.AddState("a"), table.KindBasic)
		}, "QueueLimit -1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b table.Builder
			tt.build(&b)
			if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build() = %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestStatechartDescribes checks what a statechart table says of itself:
// kinds, parents, defaults, exit actions and timers.
func TestStatechartDescribes(t *testing.T) {
	tb, _, _ := guardChart(t)
	id := func(name string) table.StateID {
		s, ok := tb.LookupState(name)
		if !ok {
			t.Fatalf("no state %q", name)
		}
		return s
	}
	if k := tb.Kind(id("combat")); k != table.KindParallel {
		t.Errorf("Kind(combat) = %v", k)
	}
	if p := tb.Parent(id("aim")); p != id("weapon") {
		t.Errorf("Parent(aim) = %v", tb.StateName(p))
	}
	d, ok := tb.Default(id("alertHistory"))
	if !ok || d.To != id("aim") || len(d.Also) != 1 || d.Also[0] != id("stand") {
		t.Errorf("Default(alertHistory) = %+v, %v; want to aim and stand", d, ok)
	}
	if d, ok := tb.Default(table.NoState); !ok || d.To != id("patrol") {
		t.Errorf("Default(NoState) = %+v, %v; want to patrol", d, ok)
	}
	var exits []table.Action
	for a := range tb.ExitActions(id("alert")) {
		exits = append(exits, a)
	}
	if len(exits) != 1 || exits[0].Kind != table.CancelAction || tb.TimerName(exits[0].Timer) != "search" || tb.NumTimers() != 1 {
		t.Errorf("ExitActions(alert) = %+v, NumTimers %d; want the cancel of search", exits, tb.NumTimers())
	}
}

// TestStatechartStack runs the pushdown stack in a statechart: an alarm
// interrupts a patrol (pushing it, with the leg it was on), and the
// return comes back to that leg, not to the patrol's first.
func TestStatechartStack(t *testing.T) {
	var b table.Builder
	b.Options.Chain = true
	b.Options.StackLimit = 1
	next, alarm, done := b.AddMessage("next", ""), b.AddMessage("alarm", ""), b.AddMessage("done", "")
	patrol := b.AddState("patrol")
	legA := b.AddState("legA")
	b.Nest(legA, patrol)
	legB := b.AddState("legB")
	b.Nest(legB, patrol)
	fight := b.AddState("fight")
	b.AddTransition(table.Transition{From: legA, Test: next, To: legB})
	b.AddTransition(table.Transition{From: patrol, Test: alarm, To: fight, Push: true})
	b.AddTransition(table.Transition{From: fight, Test: alarm, To: fight, Push: true})
	b.AddTransition(table.Transition{From: fight, Test: done, To: table.Return})
	b.AddTransition(table.Transition{From: legB, Test: done, To: table.Return})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	h := &nopHost{}
	a := table.NewAgent[int](tb, 0, h)
	step := func(ev table.TestID, want string, wantErr bool) {
		t.Helper()
		a.Post(ev)
		_, err := a.Update(h)
		if (err != nil) != wantErr || a.Name() != want {
			t.Errorf("after %s: in %s (stack %d), %v; want %s, error %v", tb.Test(ev), a.Name(), a.Depth(), err, want, wantErr)
		}
	}
	step(next, "legB", false)
	step(alarm, "fight", false)
	step(alarm, "fight", true) // the stack holds 1: the push is refused
	step(done, "legB", false)  // back to the leg it was on
	step(done, "legB", true)   // legB returns, with nothing to return to
	data, err := tb.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back table.Table
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
}
