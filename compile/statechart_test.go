package compile_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

// nested returns state s nested in parent.
func nested(parent string, s chart.State) chart.State { s.Parent = parent; return s }

// event returns a statechart transition on event descriptors ev, with
// guard g, to the targets (none: no target).
func event(id, from, ev, g string, to ...string) chart.Transition {
	t := chart.Transition{ID: id, From: from, Event: ev, Guard: g, Test: ev, Pos: diag.Pos{File: "t", Shape: id}}
	if len(to) == 0 {
		t.Target.Kind = chart.ToNone
		return t
	}
	t.Target = chart.Target{Kind: chart.ToState, State: to[0]}
	t.Also = to[1:]
	return t
}

// statechart returns a plain statechart of the states and transitions.
func statechart(states []chart.State, trans ...chart.Transition) *chart.Chart {
	return &chart.Chart{Name: "sc", File: "t", Statechart: true, States: states, Transitions: trans}
}

// TestStatechartLowering compiles a small statechart and checks what the
// table holds: the order, kinds and nesting of states, the defaults, the
// events a descriptor matches, the conditions.
func TestStatechartLowering(t *testing.T) {
	c := statechart([]chart.State{
		initial(state("idle", "idle")),
		state("alert", "alert"),
		nested("alert", kind(chart.DeepHistoryState, state("h", "h"))),
		nested("alert", kind(chart.ParallelState, state("combat", "combat"))),
		nested("combat", state("weapon", "weapon")),
		nested("weapon", state("aim", "aim")),
		nested("combat", state("legs", "legs")),
		nested("legs", state("run", "run")),
		kind(chart.EndState, state("dead", "dead")),
	},
		event("t1", "idle", "noise.near noise.far", "", "h"),
		event("t2", "h", "", "", "aim", "run"),
		event("t3", "alert", "noise.*", "seesPlayer && !In(aim)"),
		event("t4", "alert", "hit", "", "dead"),
	)
	r, err := compile.Compile(c, compile.Options{})
	checkResult(t, r, err)
	if err != nil {
		t.Fatalf("%v", err)
	}
	tb := r.Table
	var got []string
	for s := range table.StateID(tb.NumStates()) {
		p := "-"
		if q := tb.Parent(s); q != table.NoState {
			p = tb.StateName(q)
		}
		got = append(got, tb.StateName(s)+":"+tb.Kind(s).String()+"^"+p)
	}
	want := "idle:basic^- alert:basic^- h:deepHistory^alert combat:parallel^alert weapon:basic^combat aim:basic^weapon legs:basic^combat run:basic^legs dead:final^-"
	if strings.Join(got, " ") != want {
		t.Errorf("states = %s\nwant %s", strings.Join(got, " "), want)
	}
	var alertTrans []string
	for tr := range tb.Transitions(r.States["alert"]) {
		var evs []string
		for _, e := range tr.Events {
			evs = append(evs, tb.Test(e).Name)
		}
		alertTrans = append(alertTrans, strings.Join(evs, ",")+"/"+strconv.Itoa(len(tr.Cond))+">"+tb.StateName(tr.To))
	}
	if got, want := strings.Join(alertTrans, " "), "noise.near,noise.far/4>none hit/0>dead"; got != want {
		t.Errorf("alert's transitions = %s, want %s", got, want)
	}
}

// TestStatechartErrors checks that each way states can nest wrongly is an
// error with its position and a hint, and no table.
func TestStatechartErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		c      *chart.Chart
		err    error
		substr string
	}{
		{"unknown parent", statechart([]chart.State{initial(state("a", "a")), nested("x", state("b", "b"))}),
			compile.ErrMissingState, `state "b" is inside "x", which the chart does not have`},
		{"inside itself", statechart([]chart.State{initial(state("a", "a")), nested("c", state("b", "b")), nested("b", state("c", "c"))}),
			compile.ErrNesting, `state "b" is inside itself`},
		{"history at the top", statechart([]chart.State{initial(state("a", "a")), kind(chart.HistoryState, state("h", "h"))}, event("t", "h", "", "", "a")),
			compile.ErrNesting, `history state "h" is at the top`},
		{"parallel without regions", statechart([]chart.State{initial(kind(chart.ParallelState, state("p", "p")))}),
			compile.ErrNesting, `parallel state "p" has no regions`},
		{"two targets in one region", statechart([]chart.State{initial(state("a", "a")), state("b", "b"), nested("b", state("b1", "b1")), nested("b", state("b2", "b2"))},
			event("t", "a", "go", "", "b1", "b2")),
			compile.ErrTransition, `goes to "b1" and "b2", which cannot be active together`},
		{"two initial states", statechart([]chart.State{initial(state("a", "a")), initial(state("b", "b"))}),
			compile.ErrTwoInitials, `the top level has two initial states`},
		{"history without default", statechart([]chart.State{initial(state("a", "a")), nested("a", state("a1", "a1")), nested("a", kind(chart.HistoryState, state("h", "h")))}),
			compile.ErrTransition, `history state "h" has 0 transitions; it needs one`},
		{"initial outside", statechart([]chart.State{initial(state("a", "a")), nested("a", kind(chart.StartState, state("i", "i"))), nested("a", state("a1", "a1")), state("b", "b")},
			event("t", "i", "", "", "b")),
			compile.ErrTransition, `default transition "t" goes to "b", which is not inside "a"`},
		{"history default outside", statechart([]chart.State{initial(state("a", "a")), nested("a", state("a1", "a1")), nested("a", kind(chart.HistoryState, state("h", "h"))), state("b", "b")},
			event("t", "h", "", "", "b")),
			compile.ErrTransition, `default transition "t" goes to "b", which is not inside "a"`},
		{"In unknown", statechart([]chart.State{initial(state("a", "a"))}, event("t", "a", "", "In(zz)")),
			compile.ErrMissingState, `In(zz): the chart has no such state`},
		{"bad guard", statechart([]chart.State{initial(state("a", "a"))}, event("t", "a", "", "a && ")),
			compile.ErrTransition, `condition "a &&"`},
		{"event and test", statechart([]chart.State{initial(state("a", "a")), state("b", "b")}, event("t", "a", "go", "", "b"), event("u", "b", "", "go", "a")),
			compile.ErrSameTest, `"go" is both an event and a condition's test`},
		{"minimize", statechart([]chart.State{initial(state("a", "a"))}),
			compile.ErrOptions, `minimisation merges the states of flat charts only`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := compile.Compile(tt.c, compile.Options{Minimize: tt.name == "minimize"})
			checkResult(t, r, err)
			if err == nil || r.Table != nil || !errors.Is(err, tt.err) || !strings.Contains(render(r.Diagnostics), tt.substr) {
				t.Errorf("Compile = %v\n%s\nwant an error wrapping %v, saying %q", err, render(r.Diagnostics), tt.err, tt.substr)
			}
		})
	}
}

// TestStatechartHostile compiles statecharts made to be slow or deep:
// nesting 100,000 deep, 60,000 regions of one parallel state (with a
// transition from each into the next), and more states than a table
// holds.
func TestStatechartHostile(t *testing.T) {
	deep := []chart.State{initial(state("s0", "s0"))}
	for i := 1; i < 100_000; i++ {
		deep = append(deep, nested("s"+strconv.Itoa(i-1), state("s"+strconv.Itoa(i), "s"+strconv.Itoa(i))))
	}
	wide := []chart.State{initial(kind(chart.ParallelState, state("p", "p")))}
	for i := range 60_000 {
		wide = append(wide, nested("p", state("r"+strconv.Itoa(i), "r"+strconv.Itoa(i))))
	}
	for _, tt := range []struct {
		name  string
		c     *chart.Chart
		table bool
		want  string
	}{
		{"deep", statechart(deep), false, "nested more than 64 deep"},
		{"wide", statechart(wide), true, ""},
		{"wide, each region into the next", statechart(wide, crossing(60_000)...), true, ""},
		{"an event for each of 30,000 states", statechart(manyStates(30_000, func(i int) string { return "s" + strconv.Itoa(i) }), chain(30_000, "e")...), true, ""},
		{"3,000 any-state transitions and 30,000 states", statechart(manyStates(30_000, func(i int) string { return "s" + strconv.Itoa(i) }), anyState(3_000)...), true, ""},
		{"too wide", statechart(append(wide, manyStates(10_000, func(i int) string { return "x" + strconv.Itoa(i) })...)), false, "70001 states; a table holds at most 65532"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r, err := compile.Compile(tt.c, compile.Options{})
			checkResult(t, r, err)
			if d := time.Since(start); d > 20*time.Second || (r.Table != nil) != tt.table || !strings.Contains(render(r.Diagnostics), tt.want) {
				t.Errorf("Compile in %v: table %v, %v; want table %v, saying %q", d, r.Table != nil, err, tt.table, tt.want)
			}
		})
	}
}

// TestStatechartGraph checks the warnings of a statechart's graph: the
// outermost state of each part no run enters, and the atomic states
// nothing leaves; a region of a parallel state may be left by another.
func TestStatechartGraph(t *testing.T) {
	c := statechart([]chart.State{
		initial(state("a", "a")),
		nested("a", initial(state("a1", "a1"))),
		nested("a", state("a2", "a2")), // a transition of a leaves it
		state("b", "b"),                // nothing enters b, so neither b1
		nested("b", initial(state("b1", "b1"))),
		kind(chart.ParallelState, state("p", "p")),
		nested("p", state("r1", "r1")),
		nested("r1", initial(state("x", "x"))), // left by r2's transition
		nested("r1", state("y", "y")),          // entered by no one: r1 enters x
		nested("p", state("r2", "r2")),
		state("c", "c"),
	},
		event("t0", "a1", "next", "", "a2"),
		event("t1", "a", "go", "", "p"),
		event("t2", "r2", "back", "", "c"),
	)
	r, err := compile.Compile(c, compile.Options{})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range r.Diagnostics {
		switch {
		case errors.Is(d.Err, compile.ErrUnreachable):
			got = append(got, d.Pos.Shape+":unreachable")
		case errors.Is(d.Err, compile.ErrNoWayOut):
			got = append(got, d.Pos.Shape+":no way out")
		default:
			got = append(got, d.Pos.Shape+":"+d.Message)
		}
	}
	want := "b:unreachable y:unreachable c:no way out"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("diagnostics = %s\nwant %s\n%s", g, want, render(r.Diagnostics))
	}
}

// chain returns a transition from each state si of n to the next, on its
// own event PREFIXi.
func chain(n int, prefix string) []chart.Transition {
	out := make([]chart.Transition, n)
	for i := range out {
		out[i] = event("t"+strconv.Itoa(i), "s"+strconv.Itoa(i), prefix+strconv.Itoa(i), "", "s"+strconv.Itoa((i+1)%n))
	}
	return out
}

// anyState returns n any-state transitions, the i-th to state si on
// event ai.
func anyState(n int) []chart.Transition {
	out := make([]chart.Transition, n)
	for i := range out {
		out[i] = event("a"+strconv.Itoa(i), "", "a"+strconv.Itoa(i), "", "s"+strconv.Itoa(i))
		out[i].AnyState = true
	}
	return out
}

// crossing returns a transition from each region ri of n into the next.
func crossing(n int) []chart.Transition {
	out := make([]chart.Transition, n)
	for i := range out {
		out[i] = event("t"+strconv.Itoa(i), "r"+strconv.Itoa(i), "go", "", "r"+strconv.Itoa((i+1)%n))
	}
	return out
}

// TestAfterDelay reads state timers' labels.
func TestAfterDelay(t *testing.T) {
	for _, tt := range []struct {
		in string
		d  float64
		ok bool
	}{
		{"after 2s", 2, true}, {"after 2 s", 2, true}, {"after 500ms", 0.5, true}, {"after(1.5s)", 1.5, true}, {" after 0s ", 0, true},
		{"afterglow", 0, false}, {"after", 0, false}, {"after 2", 0, false}, {"after -1s", 0, false}, {"after(2s", 0, false}, {"hit", 0, false},
	} {
		d, ok := compile.AfterDelay(tt.in)
		if d != tt.d || ok != tt.ok {
			t.Errorf("afterDelay(%q) = %v, %v; want %v, %v", tt.in, d, ok, tt.d, tt.ok)
		}
	}
}

// TestStateTimer runs a state timer: taken after its delay in the state,
// and not when the state was left and entered again meanwhile.
func TestStateTimer(t *testing.T) {
	c := &chart.Chart{Name: "c", File: "t", States: []chart.State{initial(state("search", "search")), state("patrol", "patrol")},
		Transitions: []chart.Transition{uml("t1", "search", "after 2s", "patrol"), uml("t2", "search", "noise", "search"), uml("t3", "patrol", "noise", "search")}}
	r, err := compile.Compile(c, compile.Options{Chain: true})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table
	noise, _ := tb.LookupTest("noise", "")
	a := table.NewAgent[int](tb, 0, nil)
	step := func(now float64, post bool, want string) {
		t.Helper()
		a.SetTime(now)
		if post {
			a.Post(noise)
		}
		if _, err := a.Update(nil); err != nil {
			t.Fatal(err)
		}
		if a.Name() != want {
			t.Errorf("at %v s: in %s, want %s", now, a.Name(), want)
		}
	}
	step(1, false, "search")
	step(1.5, true, "search") // re-entered: the timer starts again
	step(3, false, "search")
	step(3.5, false, "patrol")
}

// TestStatechartStack compiles a nested chart with a push and a return:
// the return comes back to the configuration the push left.
func TestStatechartStack(t *testing.T) {
	c := statechart([]chart.State{
		initial(state("patrol", "patrol")),
		nested("patrol", initial(state("legA", "legA"))),
		nested("patrol", state("legB", "legB")),
		state("fight", "fight"),
	},
		event("t1", "legA", "next", "", "legB"),
		push(event("t2", "patrol", "alarm", "", "fight")),
		func() chart.Transition {
			tr := event("t3", "fight", "done", "", "x")
			tr.Target = chart.Target{Kind: chart.ToReturn}
			return tr
		}(),
	)
	r, err := compile.Compile(c, compile.Options{Chain: true})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table
	a := table.NewAgent[int](tb, 0, nil)
	for _, ev := range []string{"next", "alarm", "done"} {
		id, _ := tb.LookupTest(ev, "")
		a.Post(id)
		if _, err := a.Update(nil); err != nil {
			t.Fatal(err)
		}
	}
	if a.Name() != "legB" || a.Depth() != 0 {
		t.Errorf("after next, alarm, done: in %s (stack %d), want legB", a.Name(), a.Depth())
	}
	// A return without a push anywhere is an error.
	c.Transitions[1].Push = false
	if r, err := compile.Compile(c, compile.Options{}); !errors.Is(err, compile.ErrNoPush) {
		t.Errorf("Compile without a push = %v, %v; want ErrNoPush", r.Diagnostics, err)
	}
}

// doorHost answers the door's conditions and records the actions.
type doorHost struct {
	tb   *table.Table
	hold map[string]bool
	did  []string
}

func (h *doorHost) Test(_ int, t table.TestID) bool { return h.hold[h.tb.Test(t).Name] }
func (h *doorHost) Do(_ int, p table.PropertyID, v table.ValueID) {
	h.did = append(h.did, h.tb.Property(p)+"="+h.tb.Value(p, v))
}

// TestPlainLabels compiles a plain diagram whose labels say
// "event [guard] / action": the transition waits for the event, is taken
// only when the guard holds, and performs the actions.
func TestPlainLabels(t *testing.T) {
	c := &chart.Chart{Name: "door", File: "t", States: []chart.State{
		kind(chart.StartState, state("1", "")), state("2", "Closed"), state("3", "Open"),
	}, Transitions: []chart.Transition{
		uml("10", "1", "", "2"),
		uml("11", "2", "push [unlocked && !jammed] / swing(); sound = creak", "3"),
		func() chart.Transition {
			t := uml("12", "3", "pull / slam(hard); count++", "2")
			t.Actions = []chart.Action{{Kind: chart.RaiseAction, Event: "closed"}}
			return t
		}(),
		uml("13", "2", "closed / lock()", "2"),
	}}
	r, err := compile.Compile(c, compile.Options{Chain: true})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	if d := render(r.Diagnostics); !strings.Contains(d, `transition "pull / slam(hard); count++": action "count++" is not one fsmforge performs`) {
		t.Errorf("diagnostics = %s\nwant a warning that count++ is left out", d)
	}
	tb := r.Table
	h := &doorHost{tb: tb, hold: map[string]bool{}}
	a := table.NewAgent[int](tb, 0, nil)
	step := func(ev string, want string, did ...string) {
		t.Helper()
		id, ok := tb.LookupTest(ev, "")
		if !ok || !tb.Test(id).Message {
			t.Fatalf("event %q is not a message of the table", ev)
		}
		h.did = nil
		a.Post(id)
		if _, err := a.Update(h); err != nil {
			t.Fatal(err)
		}
		if a.Name() != want || strings.Join(h.did, " ") != strings.Join(did, " ") {
			t.Errorf("after %s: in %s, did %q; want %s, %q", ev, a.Name(), h.did, want, did)
		}
	}
	step("push", "Closed") // locked
	h.hold["unlocked"] = true
	step("push", "Open", "swing=()", "sound=creak")
	step("pull", "Closed", "slam=hard", "lock=()") // the label's action, then the raised event's transition
	h.hold["jammed"] = true
	step("push", "Closed")
}

// TestDefaultWithTest warns that the test of a history's transition, its
// default, is ignored: a stencil's transition master may preset one.
func TestDefaultWithTest(t *testing.T) {
	c := statechart([]chart.State{
		initial(state("a", "a")),
		nested("a", initial(state("a1", "a1"))),
		nested("a", kind(chart.HistoryState, state("h", "h"))),
		state("b", "b"),
	},
		event("t1", "h", "", "", "a1"),
		event("t2", "a", "go", "", "b"),
		event("t3", "b", "back", "", "h"),
	)
	c.Transitions[0].Test = "seePlayer"
	r, err := compile.Compile(c, compile.Options{})
	checkResult(t, r, err)
	if err != nil || !strings.Contains(render(r.Diagnostics), `transition "t1" is a default transition, taken without a test: what it tests ("seePlayer") is ignored`) {
		t.Errorf("Compile = %v\n%s\nwant a warning that the test is ignored", err, render(r.Diagnostics))
	}
}
