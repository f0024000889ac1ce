package importer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// nestChart makes a chart of states "id", "id<parent" or "id:kind<parent"
// (kind: start, end, choice, parallel, history, deep; "init" for a normal
// state marked initial), named as their ID but pseudo-states, and
// transitions "from>to", "from>to+also" or "from>to [guard]", named t0,
// t1...
func nestChart(states []string, trans ...string) *chart.Chart {
	kinds := map[string]chart.StateKind{"start": chart.StartState, "end": chart.EndState, "choice": chart.ChoiceState,
		"parallel": chart.ParallelState, "history": chart.HistoryState, "deep": chart.DeepHistoryState}
	c := &chart.Chart{}
	for _, s := range states {
		s, parent, _ := strings.Cut(s, "<")
		id, kind, _ := strings.Cut(s, ":")
		st := chart.State{ID: id, Name: id, Parent: parent, Kind: kinds[kind], Initial: kind == "init" || kind == "start", Pos: diag.Pos{Shape: id}}
		if st.Kind != chart.NormalState && st.Kind != chart.ParallelState {
			st.Name = ""
		}
		c.States = append(c.States, st)
	}
	for i, t := range trans {
		t, guard, _ := strings.Cut(t, " ")
		from, to, _ := strings.Cut(t, ">")
		to, also, _ := strings.Cut(to, "+")
		tr := chart.Transition{ID: fmt.Sprint("t", i), From: from, Target: chart.Target{State: to}, Guard: strings.Trim(guard, "[]"), Label: guard, Pos: diag.Pos{Shape: fmt.Sprint("t", i)}}
		if to == "" {
			tr.Target.Kind = chart.ToFinal
		}
		if also != "" {
			tr.Also = []string{also}
		}
		c.Transitions = append(c.Transitions, tr)
	}
	return c
}

// problemLines renders problems as "severity at shape: message".
func problemLines(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Severity.String()+" at "+p.Pos.Shape+": "+p.Message)
	}
	return out
}

// TestCheckNesting checks a plain chart's nesting, rule by rule: the
// problems (each must start as want's), and the transitions after.
func TestCheckNesting(t *testing.T) {
	for _, tt := range []struct {
		name  string
		c     *chart.Chart
		taken []string // IDs the drawing uses besides the chart's
		want  []string
		trans []string // "ID from>to" of the transitions after, when not nil
	}{
		{"flat", nestChart([]string{"a", "b"}, "a>b"), nil, nil, nil},
		{"pseudo-states in a parallel state",
			nestChart([]string{"p:parallel", "r1<p", "s:start<p", "c:choice<p", "f:end<p", "r1a<r1"}),
			nil,
			[]string{`error at s: a start pseudo-state inside parallel state "p": the states inside a parallel state are its regions`,
				`error at c: a choice pseudo-state inside parallel state "p"`,
				`error at f: an end pseudo-state inside parallel state "p"`},
			nil},
		{"history transitions",
			nestChart([]string{"g", "gs:start<g", "a<g", "h1:history<g", "h2:deep<g", "h3:history<g", "h4:history<g", "x"},
				"gs>a", "h1>a", "h1>a", "h2>a [ready]", "h3>", "h4>a+x"),
			nil,
			[]string{`error at h1: history h1 has 2 transitions: a history has one, its default`,
				`error at t3: the transition of history h2 has a trigger or a guard ("[ready]")`,
				`error at t4: the transition of history h3 enters no state: it goes to the final`,
				`error at t5: the transition of history h4 goes to "x", which is not inside state "g"`},
			nil},
		{"UML's defaults",
			nestChart([]string{"g", "gs:start<g", "a<g", "b<g", "h:history<g", "k", "k1<k", "k2:init<k", "kh:deep<k", "n", "n1<n", "nh:history<n"},
				"gs>a+b"),
			[]string{"h#1", "h#2"},
			[]string{`note at h: history h has no transition: when there is no history yet, it enters "a", where the start state of "g" leads, as UML enters the state`,
				`note at kh: history kh has no transition: when there is no history yet, it enters "k2", the initial state of "k", as UML enters the state`,
				`error at nh: history nh has no transition, and state "n" has no start state whose one transition, nor a state marked initial, says which state to enter`},
			[]string{"t0 gs>a+b", "h#3 h>a+b", "kh#1 kh>k2"}},
		{"entered without an initial state",
			nestChart([]string{"s:start", "g", "g1<g", "g2<g", "p:parallel", "r1<p", "r1a<r1", "r2<p", "r2a<r2", "r2b<r2",
				"q", "qs:start<q", "q1<q", "qh:history<q", "q1a<q1", "q1b<q1", "u", "u1<u"},
				"s>g", "g1>r1a", "qs>q1", "qh>q1", "g2>u1"),
			nil,
			[]string{`error at g: state "g" holds states but no initial state, and transition t0 enters it: the drawing does not say which of them the machine is then in (a statechart would enter "g1", the first in the file)`,
				`error at r2: state "r2" holds states but no initial state, and transition t1 enters its parallel state`,
				`error at q1: state "q1" holds states but no initial state, and transition t2 enters it`},
			nil},
		{"a parent that is no state, and a state inside itself",
			nestChart([]string{"a<nowhere", "h:history<nowhere", "b<b", "c"}, "c>a"),
			nil, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			added := 0
			n := Nesting{
				Add:   func(tr chart.Transition) { added++; tt.c.Transitions = append(tt.c.Transitions, tr) },
				Taken: func(id string) bool { return slices.Contains(tt.taken, id) },
			}
			got := problemLines(CheckNesting(tt.c, n))
			if len(got) != len(tt.want) {
				t.Fatalf("CheckNesting =\n%s\nwant %d:\n%s", strings.Join(got, "\n"), len(tt.want), strings.Join(tt.want, "\n"))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("problem %d = %s, want %s...", i, got[i], w)
				}
			}
			if tt.trans == nil {
				return
			}
			var trans []string
			for _, tr := range tt.c.Transitions {
				s := tr.ID + " " + tr.From + ">" + tr.Target.State
				for _, a := range tr.Also {
					s += "+" + a
				}
				trans = append(trans, s)
			}
			if !slices.Equal(trans, tt.trans) {
				t.Errorf("transitions = %q, want %q", trans, tt.trans)
			}
			if last := tt.c.Transitions[len(tt.c.Transitions)-1]; added == 0 || last.Pos.Shape != last.ID || last.Pos.Line != 0 {
				t.Errorf("%d added, the last at %+v: want them added through Add, each at its history with its own ID as shape", added, last.Pos)
			}
		})
	}
}

func TestCheckNestingHints(t *testing.T) {
	c := nestChart([]string{"s:start", "g", "a<g"}, "s>g")
	const shape = "a shape of the %q master"
	stencil := func(initial, start string) *chart.Stencil {
		return &chart.Stencil{Name: "goomba", Masters: chart.Masters{Initial: initial, Start: start}}
	}
	for _, tt := range []struct {
		hint, want string
	}{
		{"", hintInitials},
		{StencilInitialHint(stencil("Initial State", "Start"), shape),
			`draw a shape of the "Start" master in it, with a transition without a test to the state to enter, or draw that state as a shape of the "Initial State" master; or end the transition at that state`},
		{StencilInitialHint(stencil("", "Start"), shape),
			`draw a shape of the "Start" master in it, with a transition without a test to the state to enter; or end the transition at that state`},
		{StencilInitialHint(stencil("Initial State", ""), shape),
			`draw the state inside to enter as a shape of the "Initial State" master; or end the transition at that state`},
		{StencilInitialHint(stencil("", ""), shape),
			`end the transition at the state inside to enter: stencil "goomba" has no start or initial-state master to draw an initial state with`},
	} {
		ps := CheckNesting(c, Nesting{InitialHint: tt.hint})
		if len(ps) != 1 || ps[0].Hint != tt.want {
			t.Errorf("CheckNesting(InitialHint %q) = %+v, want one problem with hint %q", tt.hint, ps, tt.want)
		}
	}
}

// TestCheckNestingStarts checks that a start drawn directly in a parallel
// state is left to package compile when it checks the starts.
func TestCheckNestingStarts(t *testing.T) {
	c := nestChart([]string{"p:parallel", "r1<p", "s:start<p", "f:end<p"})
	for _, tt := range []struct {
		checked bool
		want    []string
	}{
		{false, []string{`error at s: a start pseudo-state inside parallel state "p": the states inside a parallel state are its regions`,
			`error at f: an end pseudo-state inside parallel state "p": the states inside a parallel state are its regions`}},
		{true, []string{`error at f: an end pseudo-state inside parallel state "p": the states inside a parallel state are its regions`}},
	} {
		got := problemLines(CheckNesting(c, Nesting{CompileChecksStarts: tt.checked}))
		if !slices.Equal(got, tt.want) {
			t.Errorf("CheckNesting(CompileChecksStarts %v) =\n%s\nwant\n%s", tt.checked, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

func TestIgnoredTest(t *testing.T) {
	for _, tt := range []struct {
		k    chart.StateKind
		want string
	}{
		{chart.StartState, `the transition of node S, a start state, has test "hitByPlayer", which is ignored: a start's transition says where its state starts, taken without a test whenever the state is entered (or the machine starts)`},
		{chart.HistoryState, `the transition of node S, a history state, has test "hitByPlayer", which is ignored: a history's transition is its default, taken without a test whenever its state has no history yet`},
		{chart.DeepHistoryState, `the transition of node S, a deep history state, has test "hitByPlayer", which is ignored: a history's transition is its default, taken without a test whenever its state has no history yet`},
	} {
		p := IgnoredTest(diag.Pos{Shape: "e1"}, tt.k, "node S", "hitByPlayer", "Test", "Edit Data")
		if p.Severity != diag.Warning || p.Pos.Shape != "e1" || p.Message != tt.want || p.Hint != `clear "Test" in the transition's Edit Data` {
			t.Errorf("IgnoredTest(%v) = %+v, want a warning at e1: %s", tt.k, p, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("IgnoredTest(normal) did not panic")
		}
	}()
	IgnoredTest(diag.Pos{}, chart.NormalState, "node S", "hitByPlayer", "Test", "Edit Data")
}

func TestNoInitials(t *testing.T) {
	// A deep history restores the states inside those it restores; a
	// shallow one may restore a compound, which its initial state enters.
	c := nestChart([]string{"g", "gs:start<g", "a<g", "a1<a", "a2<g", "h:history<g", "k", "ks:start<k", "b<k", "b1<b", "b2<k", "kh:deep<k"}, "gs>a2", "ks>b2")
	got := NoInitials(c, "$H")
	want := []NoInitial{{State: 2, How: "$H h may restore it", First: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("NoInitials = %+v, want %+v", got, want)
	}
	if got := CheckHistoryTransitions(nestChart([]string{"a", "h:history"}, "h>a [x]"), "$H"); got != nil {
		t.Errorf("CheckHistoryTransitions of a history drawn in no state = %v, want nothing: the importer left it out", problemLines(got))
	}
}

func TestHistoryInNoState(t *testing.T) {
	p := HistoryInNoState(diag.Pos{Shape: "h"}, "$H", "h")
	if p.Severity != diag.Error || p.Pos.Shape != "h" || p.Hint == "" ||
		p.Message != "$H h is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out" {
		t.Errorf("HistoryInNoState = %+v", p)
	}
}

func TestMarkInitialAncestors(t *testing.T) {
	st := &chart.Stencil{Masters: chart.Masters{State: "State", Initial: "Initial State", Composite: "Composite"}}
	for _, tt := range []struct {
		name   string
		states []string
		want   string   // the states marked initial, after
		ps     []string // the problems
	}{
		{"to the top", []string{"a", "a1<a", "a2:init<a", "b"}, "a a2", nil},
		{"a level that marks its own", []string{"s:init", "a", "a1:init<a"}, "s a1", nil},
		{"a start at the level", []string{"s:start", "a", "a1:init<a"}, "s a1", nil},
		{"deep", []string{"a", "b<a", "c<b", "d:init<c"}, "a b c d", nil},
		{"regions", []string{"p:parallel", "r1<p", "x:init<r1", "r2<p", "y:init<r2", "z"}, "p x y", nil},
		{"a region drawn initial", []string{"p:parallel", "r1:init<p", "r2<p"}, "p", nil},
		{"a region drawn initial where the machine starts elsewhere", []string{"s:init", "p:parallel", "r1:init<p", "r2<p"}, "s",
			[]string{`warning at r1: region "r1" of parallel state "p" is drawn with the "Initial State" master: entering "p" enters all its regions, and the machine does not start in it (its level starts elsewhere), so the mark is ignored`}},
		{"a region drawn initial beside a region that marks the parallel state", []string{"s:start", "g", "p:parallel<g", "r1:init<p", "r2<p", "x:init<r2"}, "s p x", nil},
		{"a region of a region", []string{"p:parallel", "q:parallel<p", "r1:init<q", "r2<q", "r3<p"}, "p", nil},
		{"a region of a region where the machine starts elsewhere", []string{"s:start", "p:parallel", "q:parallel<p", "r1:init<q", "r2<q", "r3<p"}, "s",
			[]string{`warning at r1: region "r1" of parallel state "q" is drawn with the "Initial State" master`}},
		{"a start in a parallel state", []string{"p:parallel", "s:start<p", "r<p"}, "", nil},
		{"two compounds, undecided", []string{"a", "a1:init<a", "b", "b1:init<b"}, "a a1 b b1", nil},
		{"a cycle", []string{"a<b", "b<a", "c:init<a"}, "a c", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := nestChart(tt.states)
			ps := problemLines(MarkInitialAncestors(c.States, st))
			var got []string
			for _, s := range c.States {
				if s.Initial {
					got = append(got, s.ID)
				}
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("marked %q, want %q", g, tt.want)
			}
			if len(ps) != len(tt.ps) {
				t.Fatalf("MarkInitialAncestors =\n%s\nwant %d:\n%s", strings.Join(ps, "\n"), len(tt.ps), strings.Join(tt.ps, "\n"))
			}
			for i, w := range tt.ps {
				if !strings.HasPrefix(ps[i], w) {
					t.Errorf("problem %d = %s, want %s...", i, ps[i], w)
				}
			}
		})
	}
	c := nestChart([]string{"s:init", "p:parallel", "r1:init<p", "r2<p"})
	if ps := MarkInitialAncestors(c.States, st); len(ps) != 1 || ps[0].Hint != `draw the region with the "Composite" master: entering a parallel state enters all its regions` {
		t.Errorf("MarkInitialAncestors = %+v, want one problem whose hint names the composite master", ps)
	}
}
