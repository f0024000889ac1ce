package drawio_test

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// TestRoundTrip writes random charts, with and without a stencil, on one
// page or several, plain or compressed, and reads them back: every state,
// transition, test and action comes back, and every Box.
func TestRoundTrip(t *testing.T) {
	stencils := map[string]*chart.Stencil{"plain": nil, "goomba": charttest.Stencil(t), "robot": robotStencil(t)}
	for _, name := range []string{"plain", "goomba", "robot"} {
		st := stencils[name]
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(name))))
			for i := range 300 {
				c := randomChart(r, st, 1+i%3)
				opt := drawio.WriteOptions{Compress: i%4 == 3}
				var b bytes.Buffer
				if err := drawio.Write(&b, c, opt); err != nil {
					t.Fatalf("chart %d: Write = %v", i, err)
				}
				back, err := drawio.Read(bytes.NewReader(b.Bytes()), drawio.Options{Stencil: st, File: "random.drawio"})
				if err != nil {
					t.Fatalf("chart %d: Read(Write(c)) = %v\n%s", i, err, b.String())
				}
				charttest.CheckChart(t, back, err)
				if p := problems(back); len(p) > 0 {
					t.Errorf("chart %d: Read(Write(c)) reports %s", i, strings.Join(p, "\n"))
				}
				if d := diff(render(back), render(c)); d != "" {
					t.Fatalf("chart %d: Read(Write(c)) differs from c at %s\n%s", i, d, b.String())
				}
				for k := range c.States {
					if want, got := c.States[k].Box, back.States[k].Box; want != nil && (got == nil || *got != *want) {
						t.Errorf("chart %d: state %s: Box = %v, want %v", i, c.States[k].ID, got, want)
					}
				}
				var again bytes.Buffer
				if err := drawio.Write(&again, c, opt); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
					t.Fatalf("chart %d: Write is not deterministic (%v)", i, err)
				}
			}
		})
	}
}

// TestWriteErrors checks what Write refuses to write.
func TestWriteErrors(t *testing.T) {
	st := charttest.Stencil(t)
	state := func(id string) chart.State { return chart.State{ID: id, Name: id} }
	for _, tt := range []struct {
		name string
		c    *chart.Chart
		want string
	}{
		{"raise with a property", &chart.Chart{States: []chart.State{{ID: "1", Entry: []chart.Action{{Kind: chart.RaiseAction, Event: "e", Property: "p"}}}}},
			`state "1": entry action 1 is a raise action with a property or value, which it does not use`},
		{"cancel with an event", &chart.Chart{States: []chart.State{{ID: "1", Exit: []chart.Action{{Kind: chart.CancelAction, Timer: "t", Event: "e"}}}}},
			`state "1": exit action 1 is a cancel action with an event, which it does not use`},
		{"game action with a delay", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Target: chart.Target{State: "1"},
			Actions: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}, {Property: "p", Value: "v", Delay: 1}}}}},
			`transition "2": action 2 is a game action with a delay, which it does not use`},
		{"negative delay", &chart.Chart{States: []chart.State{{ID: "1", Entry: []chart.Action{{Kind: chart.SendAction, Event: "e", Delay: -1}}}}},
			`state "1": entry action 1 is a send action with delay -1: a delay is 0 or more seconds`},
		{"unknown action kind", &chart.Chart{States: []chart.State{{ID: "1", Entry: []chart.Action{{Kind: 9}}}}},
			`state "1": entry action 1 is an action of unknown kind 9`},
		{"raise with stencil", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Entry: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}}}}},
			`state "1": entry action 1 is a raise action, which a chart drawn with stencil "goomba" cannot carry`},
		{"push without stencil", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Push: true, Target: chart.Target{Kind: chart.ToFinal}}}},
			`transition "2" has a value, a stack operation or starts in any state`},
		{"shared ID", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "1", From: "1"}}},
			`transition "1" has the ID of a state`},
		{"pseudo-state with stencil", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Kind: chart.ChoiceState}}},
			`state "1" is a choice pseudo-state, which a chart drawn with stencil "goomba" cannot have`},
		{"start without its master", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Kind: chart.StartState, Initial: true}}},
			`state "1" is a start state, but stencil "goomba" has no master to draw one with`},
		{"start not initial", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{{ID: "1", Kind: chart.StartState}, state("2")}},
			`start state "1" is not initial, which a shape of stencil "sentry"'s start master always is`},
		{"start's entry actions", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{{ID: "1", Kind: chart.StartState, Initial: true, Entry: []chart.Action{{Property: "Speed", Value: "slow"}}}}},
			`start state "1" has entry actions, which a start cannot carry`},
		{"start's test", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{{ID: "1", Kind: chart.StartState, Initial: true}, state("2")},
			Transitions: []chart.Transition{{ID: "3", From: "1", Test: "seePlayer", Target: chart.Target{State: "2"}}}},
			`transition "3" leaves a start state and has test "seePlayer": a start's transition says where its state starts, taken without a test`},
		{"unknown action", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Entry: []chart.Action{{Property: "Colour", Value: "red"}}}}},
			`entry action "Colour" is not a property of stencil "goomba"`},
		{"property name", &chart.Chart{Stencil: &chart.Stencil{Name: "s", Masters: chart.Masters{State: "S", Transition: "T"}, Tests: []chart.Test{{Name: "t"}},
			Actions: []chart.Property{{Name: "two words", Values: []string{"a"}}}}},
			`property "two words" cannot be an attribute of a draw.io shape`},
		{"initial without master", &chart.Chart{Stencil: robotStencil(t), States: []chart.State{{ID: "1", Initial: true}}},
			`state "1" is initial, but stencil "robot" has no initial-state master`},
		{"exit actions with stencil", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Exit: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}}}}},
			`state "1" has exit actions, which a chart drawn with stencil "goomba" cannot carry`},
		{"transition actions with stencil", &chart.Chart{Stencil: st, States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Test: "hitByPlayer", Target: chart.Target{State: "1"}, Actions: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}}}}},
			`transition "2" has actions, which a chart drawn with stencil "goomba" cannot carry`},
		{"no target with stencil", &chart.Chart{Stencil: st, States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Test: "hitByPlayer", Target: chart.Target{Kind: chart.ToNone}}}},
			`transition "2" has no target, which a chart drawn with stencil "goomba" cannot carry`},
		{"history with stencil", &chart.Chart{Stencil: st, States: []chart.State{state("1"), {ID: "2", Kind: chart.HistoryState, Parent: "1"}}},
			`state "2" is a history state, but stencil "goomba" has no master to draw one with`},
		{"history's test", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{state("1"), {ID: "2", Kind: chart.DeepHistoryState, Parent: "1"}, {ID: "3", Parent: "1"}},
			Transitions: []chart.Transition{{ID: "4", From: "2", Test: "seePlayer", Target: chart.Target{State: "3"}}}},
			`transition "4" leaves a history and has test "seePlayer": a history's transition is its default, taken without a test`},
		{"no test with stencil", &chart.Chart{Stencil: st, States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Target: chart.Target{State: "1"}}}},
			`transition "2" has no test, which every transition of a chart drawn with stencil "goomba" but a start's or a history's has`},
		// A parallel state is initial through a state inside it drawn with
		// the initial-state master; not when a state beside it is initial.
		{"initial parallel beside an initial state", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{
			{ID: "1", Kind: chart.ParallelState, Initial: true}, {ID: "2", Parent: "1"}, {ID: "3", Parent: "2", Initial: true}, {ID: "4", Initial: true}}},
			`parallel state "1" is initial, which a drawing made with stencil "sentry" cannot say here`},
		{"initial history", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{state("1"), {ID: "2", Kind: chart.HistoryState, Parent: "1", Initial: true}}},
			`state "2" is an initial history state, which the stencil's masters cannot draw`},
		{"initial region", &chart.Chart{Stencil: sentryStencil(t), States: []chart.State{
			{ID: "1", Kind: chart.ParallelState, Initial: true}, {ID: "2", Parent: "1", Initial: true}, {ID: "3", Parent: "1"}}},
			`state "2", a region of parallel state "1", is marked initial, which a drawing cannot say`},
		// The machine would start in "1", where "2" is initial: Read marks
		// "1" initial too.
		{"initial inside a state that is not", &chart.Chart{Stencil: st, States: []chart.State{state("1"), {ID: "2", Parent: "1", Initial: true}}},
			`state "1" is not initial, but a drawing made with stencil "goomba" would read it so`},
		{"internal with stencil", &chart.Chart{Stencil: st, States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Test: "hitByPlayer", Internal: true, Target: chart.Target{State: "1"}}}},
			`transition "2" is internal, which a chart drawn with stencil "goomba" cannot carry`},
		{"more targets of the final state", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Target: chart.Target{Kind: chart.ToFinal}, Also: []string{"1"}}}},
			`transition "2" enters more states (Also) but its target is the final`},
		{"more targets not in the chart", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Target: chart.Target{State: "1"}, Also: []string{"9"}}}},
			`transition "2" also enters "9", which the chart does not have`},
		{"parent not in the chart", &chart.Chart{States: []chart.State{{ID: "1", Parent: "9"}}},
			`state "1" is inside "9", which the chart does not have`},
		{"parent a pseudo-state", &chart.Chart{States: []chart.State{{ID: "1", Kind: chart.ChoiceState}, {ID: "2", Parent: "1"}}},
			`state "2" is inside "1", a choice pseudo-state`},
		{"inside itself", &chart.Chart{States: []chart.State{{ID: "1", Parent: "2"}, {ID: "2", Parent: "1"}}},
			`is inside itself`},
		{"history at the top", &chart.Chart{States: []chart.State{{ID: "1", Kind: chart.HistoryState}}},
			`history state "1" is at the top level`},
		{"parallel without regions", &chart.Chart{States: []chart.State{{ID: "1", Kind: chart.ParallelState}}},
			`parallel state "1" has no regions`},
		{"parallel with stencil", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Kind: chart.ParallelState}, {ID: "2", Parent: "1"}}},
			`state "1" is a parallel state, but stencil "goomba" has no master to draw one with`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := drawio.Write(&b, tt.c, drawio.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "drawio: ") {
				t.Errorf("Write = %v, want an error with %q", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("Write wrote %d bytes before failing", b.Len())
			}
		})
	}
}

// TestWriteNested writes a chart whose states nest: compounds become
// containers, with the states inside them drawn relative to them, and
// reading the drawing back gives the chart back, boxes included.
func TestWriteNested(t *testing.T) {
	c := &chart.Chart{
		States: []chart.State{
			{ID: "s", Kind: chart.StartState, Initial: true},
			{ID: "on", Name: "On", Box: &chart.Box{X: 100, Y: 100, W: 300, H: 200}},
			{ID: "a", Name: "A", Parent: "on", Initial: true, Box: &chart.Box{X: 120, Y: 150, W: 80, H: 40}},
			{ID: "b", Name: "B", Parent: "on", Box: &chart.Box{X: 250, Y: 150, W: 80, H: 40}},
			{ID: "off", Name: "Off"},
		},
		Transitions: []chart.Transition{
			{ID: "t1", From: "s", Order: 1, Target: chart.Target{State: "on"}},
			{ID: "t2", From: "a", Order: 1, Label: "next", Event: "next", Test: "next", Target: chart.Target{State: "b"}},
			{ID: "t3", From: "on", Order: 1, Label: "off", Event: "off", Test: "off", Target: chart.Target{State: "off"}},
		},
	}
	var b bytes.Buffer
	if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `parent="on"`) || !strings.Contains(b.String(), `x="20" y="50"`) || !strings.Contains(b.String(), `container=1;`) {
		t.Errorf("Write did not draw A inside On, a container, relative to it:\n%s", b.String())
	}
	back, err := drawio.Read(&b, drawio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	charttest.CheckChart(t, back, err)
	if d := diff(render(back), render(c)); d != "" {
		t.Errorf("Read(Write(nested)) differs at %s", d)
	}
	for i, s := range c.States {
		if s.Box != nil && (back.States[i].Box == nil || *back.States[i].Box != *s.Box) {
			t.Errorf("%s's Box = %v, want %v", s.ID, back.States[i].Box, s.Box)
		}
	}
}

func TestWriteNil(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "drawio: Write of a nil chart") {
			t.Errorf("Write(nil) panicked with %v", r)
		}
	}()
	drawio.Write(&bytes.Buffer{}, nil, drawio.WriteOptions{})
}

var _ = errors.Is

// TestStatechartRoundTrip writes random statecharts that compile (states
// nested in compounds and in the regions of parallel states, named
// histories, entry and exit actions of every kind, transitions with
// actions, without a target, internal, into two regions at once) as plain
// diagrams, and reads them back without a stencil: the same chart,
// without a diagnostic, compiling to the same table byte for byte.
func TestStatechartRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for i := range 300 {
		c := randomStatechart(r)
		want, ok := compiled(c)
		if !ok {
			_, err := compile.Compile(c, compile.Options{})
			t.Fatalf("chart %d does not compile: %v", i, err)
		}
		var b bytes.Buffer
		if err := drawio.Write(&b, c, drawio.WriteOptions{Compress: i%4 == 3}); err != nil {
			t.Fatalf("chart %d: Write = %v", i, err)
		}
		back, err := drawio.Read(bytes.NewReader(b.Bytes()), drawio.Options{File: "random.drawio"})
		if err != nil {
			t.Fatalf("chart %d: Read(Write(c)) = %v\n%s", i, err, b.String())
		}
		charttest.CheckChart(t, back, err)
		if p := problems(back); len(p) > 0 {
			t.Errorf("chart %d: Read(Write(c)) reports %s", i, strings.Join(p, "\n"))
		}
		if d := diff(render(back), render(c)); d != "" {
			t.Fatalf("chart %d: Read(Write(c)) differs from c at %s\n%s", i, d, b.String())
		}
		if got, _ := compiled(back); !bytes.Equal(got, want) {
			t.Fatalf("chart %d: Read(Write(c)) compiles to another table than c\n%s", i, b.String())
		}
	}
}

// randomStatechart makes a plain statechart that compiles: states nested
// in compounds, each with its initial state, and in the regions of
// parallel states; histories, named or not, with their defaults; entry
// and exit actions; transitions on events, some guarded, with actions,
// some without a target, internal, or into two regions at once.
func randomStatechart(r *rand.Rand) *chart.Chart {
	c := &chart.Chart{Name: "random", Statechart: r.IntN(2) == 0, States: []chart.State{}, Transitions: []chart.Transition{}}
	kind := map[string]chart.StateKind{}
	kids := map[string][]string{}
	add := func(s chart.State) {
		s.Pos = diag.Pos{Page: "Page-1"}
		c.States = append(c.States, s)
		kind[s.ID] = s.Kind
		kids[s.Parent] = append(kids[s.Parent], s.ID)
	}
	// The tree: a parallel state's children are compound regions.
	for k := range 3 + r.IntN(10) {
		var parents []string
		for _, s := range c.States {
			if s.Kind == chart.NormalState {
				parents = append(parents, s.ID)
			}
		}
		s := chart.State{ID: "s" + strconv.Itoa(k), Name: "S" + strconv.Itoa(k), Entry: statechartActions(r), Exit: statechartActions(r)}
		if len(parents) > 0 && r.IntN(3) > 0 {
			s.Parent = parents[r.IntN(len(parents))]
		}
		if r.IntN(6) == 0 {
			s.Kind = chart.ParallelState
		}
		add(s)
		if s.Kind == chart.ParallelState {
			for j := range 2 {
				region := chart.State{ID: s.ID + "r" + strconv.Itoa(j), Name: s.Name + " region " + strconv.Itoa(j), Parent: s.ID}
				add(region)
				add(chart.State{ID: region.ID + "a", Name: region.Name + " a", Parent: region.ID, Initial: true})
			}
		}
	}
	// An initial state in each compound, and at the top.
	for _, p := range append([]string{""}, slices.Collect(maps.Keys(kids))...) {
		if p != "" && kind[p] == chart.ParallelState {
			continue
		}
		marked := false
		for i := range c.States {
			if s := &c.States[i]; s.Parent == p && s.Initial {
				marked = true
			}
		}
		for i := range c.States {
			if s := &c.States[i]; s.Parent == p && !marked && (s.Kind == chart.NormalState || s.Kind == chart.ParallelState) {
				s.Initial, marked = true, true
			}
		}
	}
	var normal []string
	for _, s := range c.States {
		if s.Kind == chart.NormalState {
			normal = append(normal, s.ID)
		}
	}
	slices.Sort(normal)
	order := map[string]int{}
	transition := func(t chart.Transition) {
		order[t.From]++
		t.ID, t.Order, t.Pos = "t"+strconv.Itoa(len(c.Transitions)), order[t.From], diag.Pos{Page: "Page-1"}
		c.Transitions = append(c.Transitions, t)
	}
	// Histories in some compounds, with their defaults.
	for _, p := range normal {
		if len(kids[p]) == 0 || r.IntN(2) == 0 {
			continue
		}
		h := chart.State{ID: p + "h", Parent: p, Kind: chart.HistoryState + chart.StateKind(r.IntN(2))}
		if r.IntN(2) == 0 {
			h.Name = "history of " + p
		}
		target := kids[p][r.IntN(len(kids[p]))]
		add(h)
		transition(chart.Transition{From: h.ID, Target: chart.Target{State: target}})
	}
	events := []string{"go", "hit", "calm", "tick.fast"}
	for range r.IntN(14) {
		t := chart.Transition{From: normal[r.IntN(len(normal))], Event: events[r.IntN(len(events))], Actions: statechartActions(r)}
		if r.IntN(3) == 0 {
			t.Guard = []string{"low", "ready && !low", "In(s0)"}[r.IntN(3)]
		}
		t.Test, t.Label = t.Event, t.Event
		if t.Guard != "" {
			t.Label += " [" + t.Guard + "]"
		}
		ids := slices.Collect(maps.Keys(kind))
		slices.Sort(ids)
		switch k := r.IntN(8); {
		case k == 0:
			t.Target.Kind = chart.ToNone
		case k == 1:
			t.Target.Kind = chart.ToFinal
		case k == 2 && strings.Contains(strings.Join(ids, " "), "r1a"):
			for _, id := range ids { // into both regions of a parallel state
				if strings.HasSuffix(id, "r0a") {
					t.Target, t.Also = chart.Target{State: id}, []string{strings.TrimSuffix(id, "r0a") + "r1a"}
					break
				}
			}
		default:
			t.Target.State = ids[r.IntN(len(ids))]
		}
		t.Internal = t.Target.Kind == chart.ToState && r.IntN(4) == 0
		transition(t)
	}
	return c
}

// statechartActions makes up to 2 actions of every kind that compile.
func statechartActions(r *rand.Rand) []chart.Action {
	var as []chart.Action
	for range r.IntN(3) {
		a := chart.Action{Kind: chart.ActionKind(r.IntN(4))}
		switch a.Kind {
		case chart.GameAction:
			a.Property, a.Value = []string{"Animation", "Speed"}[r.IntN(2)], []string{"walk", "run fast", "()"}[r.IntN(3)]
		case chart.RaiseAction:
			a.Event = []string{"go", "calm", "alarm.raised"}[r.IntN(3)]
		case chart.SendAction:
			a.Event, a.Delay = []string{"tick.fast", "hit"}[r.IntN(2)], []float64{0, 0.5, 2}[r.IntN(3)]
			a.Timer = []string{"", "t1", "t2"}[r.IntN(3)]
		case chart.CancelAction:
			a.Timer = []string{"t1", "t2"}[r.IntN(2)]
		}
		if r.IntN(4) == 0 {
			a.Guard = "ready"
		}
		as = append(as, a)
	}
	return as
}

// TestWriteStatecharts writes statecharts read from SCXML, and charttest's
// soldier, as plain diagrams and reads them back without a stencil: the
// same chart, history names, exit actions, transitions' actions,
// targetless and internal transitions included, without a diagnostic,
// compiling to the same table.
func TestWriteStatecharts(t *testing.T) {
	guard, err := scxml.ReadFile("../../examples/guard/guard.scxml", scxml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*chart.Chart{guard, charttest.Soldier()} {
		t.Run(c.Name, func(t *testing.T) {
			want, ok := compiled(c)
			if !ok {
				t.Fatal("the chart does not compile")
			}
			var b bytes.Buffer
			if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
				t.Fatalf("Write = %v", err)
			}
			file := "converted.drawio"
			if c.File != "" {
				file = strings.TrimSuffix(filepath.Base(c.File), filepath.Ext(c.File)) + ".drawio"
			}
			back, err := drawio.Read(&b, drawio.Options{File: file})
			if err != nil {
				t.Fatalf("Read(Write(c)) = %v", err)
			}
			charttest.CheckChart(t, back, err)
			if p := problems(back); len(p) > 0 {
				t.Errorf("Read(Write(c)) reports %s", strings.Join(p, "\n"))
			}
			if d := diff(render(back), render(c)); d != "" {
				t.Errorf("Read(Write(c)) differs from c at %s", d)
			}
			if got, _ := compiled(back); !bytes.Equal(got, want) {
				t.Errorf("Read(Write(c)) compiles to another table than c")
			}
			if back.Statechart != c.Statechart || back.Name != c.Name {
				t.Errorf("Statechart, Name = %v, %q, want %v, %q", back.Statechart, back.Name, c.Statechart, c.Name)
			}
		})
	}
}

// TestWriteName writes a chart's name in the diagram's Edit Data when it
// is not its file's: then the name follows the file the drawing is saved
// as.
func TestWriteName(t *testing.T) {
	for _, tt := range []struct{ name, file, want string }{
		{"Guard NPC", "guard.scxml", "Guard NPC"},
		{"machineName", "w3c/test330.scxml", "machineName"},
		{"guard", "examples/guard/guard.scxml", "out"},
		{"", "", "out"},
	} {
		c := &chart.Chart{Name: tt.name, File: tt.file, States: []chart.State{{ID: "a", Name: "A"}}}
		var b bytes.Buffer
		if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := drawio.Read(&b, drawio.Options{File: "out.drawio"})
		if err != nil || back.Name != tt.want {
			t.Errorf("Read(Write(chart %q of %s)).Name = %q, %v, want %q", tt.name, tt.file, back.Name, err, tt.want)
		}
	}
}

// TestWriteInitials writes charts with the sentry stencil whose states
// are initial as Read marks them (importer.MarkInitialAncestors): a
// state that a state inside makes initial is drawn with its own master
// (composite, parallel), the states inside that start it with the
// initial-state master, a parallel state that none starts with one of
// its regions drawn with it, a start with the start master. Read back,
// the chart is the same, without a diagnostic, and compiles to the same
// table.
func TestWriteInitials(t *testing.T) {
	st := sentryStencil(t)
	s := func(id, parent string, initial bool) chart.State {
		return chart.State{ID: id, Name: id, Parent: parent, Initial: initial}
	}
	kind := func(k chart.StateKind, st chart.State) chart.State {
		st.Kind = k
		if k.UntestedTransition() { // a start or a history: nameless
			st.Name = ""
		}
		return st
	}
	tr := func(id, from, to, test string) chart.Transition {
		return chart.Transition{ID: id, From: from, Test: test, Label: test, Order: 1, Target: chart.Target{State: to}}
	}
	for _, tt := range []struct {
		name   string
		states []chart.State
		trans  []chart.Transition
		want   string // each state's cell and its master
	}{
		{"the machine starts in a parallel state", // the Visio sentry's
			[]chart.State{kind(chart.ParallelState, s("awake", "", true)), s("patrol", "awake", false), s("walk", "patrol", true), s("look", "patrol", false),
				kind(chart.HistoryState, s("h", "patrol", false)), s("ears", "awake", false), kind(chart.StartState, s("start", "ears", true)),
				s("listen", "ears", false), s("alert", "ears", false), s("asleep", "", false)},
			[]chart.Transition{tr("t1", "walk", "look", "seePlayer"), tr("t2", "look", "walk", "lostPlayer"), tr("t3", "h", "walk", ""),
				tr("t4", "start", "listen", ""), tr("t5", "listen", "alert", "noise"), tr("t6", "alert", "listen", "calm"),
				tr("t7", "awake", "asleep", "hit"), tr("t8", "asleep", "h", "noise")},
			`awake:Parallel State patrol:Composite State walk:Initial State look:State h:History ears:Composite State start:Start listen:State alert:State asleep:State`},
		{"nested compounds",
			[]chart.State{s("a", "", true), s("b", "a", true), s("c", "b", true), s("d", "b", false), s("e", "a", false), s("f", "", false)},
			[]chart.Transition{tr("t1", "c", "d", "seePlayer"), tr("t2", "a", "f", "hit"), tr("t3", "f", "e", "calm")},
			`a:Composite State b:Composite State c:Initial State d:State e:State f:State`},
		{"a level that marks its own",
			[]chart.State{s("a", "", true), s("b", "", false), s("b1", "b", true), s("b2", "b", false)},
			[]chart.Transition{tr("t1", "a", "b", "seePlayer"), tr("t2", "b1", "b2", "noise")},
			`a:Initial State b:Composite State b1:Initial State b2:State`},
		{"a start at the top",
			[]chart.State{kind(chart.StartState, s("start", "", true)), s("b", "", false), s("b1", "b", true), s("b2", "b", false), s("c", "", false)},
			[]chart.Transition{tr("t1", "start", "b", ""), tr("t2", "b1", "b2", "noise"), tr("t3", "b", "c", "hit")},
			`start:Start b:Composite State b1:Initial State b2:State c:State`},
		{"an initial parallel state whose regions start with starts",
			[]chart.State{kind(chart.ParallelState, s("p", "", true)), s("r1", "p", false), kind(chart.StartState, s("s1", "r1", true)), s("x", "r1", false),
				s("r2", "p", false), kind(chart.StartState, s("s2", "r2", true)), s("y", "r2", false)},
			[]chart.Transition{tr("t1", "s1", "x", ""), tr("t2", "s2", "y", "")},
			`p:Parallel State r1:Initial State s1:Start x:State r2:Composite State s2:Start y:State`},
		{"a parallel state whose region is parallel",
			[]chart.State{kind(chart.ParallelState, s("p", "", true)), kind(chart.ParallelState, s("q", "p", false)), s("r1", "q", false), kind(chart.StartState, s("s1", "r1", true)),
				s("x", "r1", false), s("r2", "q", false), kind(chart.StartState, s("s2", "r2", true)), s("y", "r2", false)},
			[]chart.Transition{tr("t1", "s1", "x", ""), tr("t2", "s2", "y", "")},
			`p:Parallel State q:Parallel State r1:Initial State s1:Start x:State r2:Composite State s2:Start y:State`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &chart.Chart{Name: "initials", Stencil: st, States: tt.states, Transitions: tt.trans}
			for i := range c.States {
				c.States[i].Pos.Page = "Page-1"
			}
			want, ok := compiled(c)
			if !ok {
				_, err := compile.Compile(c, compile.Options{Stencil: st})
				t.Fatalf("the chart does not compile: %v", err)
			}
			var b bytes.Buffer
			if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
				t.Fatalf("Write = %v", err)
			}
			var masters []string
			for _, m := range regexp.MustCompile(`<UserObject [^>]*? fsmforge="([^"]*)"[^>]*? id="([^"]*)">\s*<mxCell [^>]*vertex="1"`).FindAllStringSubmatch(b.String(), -1) {
				masters = append(masters, m[2]+":"+m[1])
			}
			if got := strings.Join(masters, " "); got != tt.want {
				t.Errorf("Write drew\n%s\nwant\n%s", got, tt.want)
			}
			back, err := drawio.Read(&b, drawio.Options{Stencil: st, File: "initials.drawio"})
			if err != nil {
				t.Fatalf("Read(Write(c)) = %v", err)
			}
			charttest.CheckChart(t, back, err)
			if len(back.Diagnostics) != 0 {
				t.Errorf("Read(Write(c)) reports %v", back.Diagnostics)
			}
			if d := diff(render(back), render(c)); d != "" {
				t.Errorf("Read(Write(c)) differs from c at %s", d)
			}
			if got, _ := compiled(back); !bytes.Equal(got, want) {
				t.Errorf("Read(Write(c)) compiles to another table than c")
			}
		})
	}
}
