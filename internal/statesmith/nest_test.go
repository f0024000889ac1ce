package statesmith

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// nested makes a chart of states "id" or "id<parent" (kind normal, named
// as the ID) and transitions "from>to".
func tree(states []string, trans ...string) *chart.Chart {
	c := &chart.Chart{}
	for _, s := range states {
		id, parent, _ := strings.Cut(s, "<")
		c.States = append(c.States, chart.State{ID: id, Name: id, Parent: parent, Pos: diag.Pos{Shape: id}})
	}
	for i, t := range trans {
		from, to, _ := strings.Cut(t, ">")
		c.Transitions = append(c.Transitions, chart.Transition{ID: fmt.Sprint("t", i), From: from, Target: chart.Target{State: to}, Pos: diag.Pos{Shape: fmt.Sprint("t", i)}})
	}
	return c
}

// kind sets the kind of state id.
func withKind(c *chart.Chart, id string, k chart.StateKind) *chart.Chart {
	for i := range c.States {
		if c.States[i].ID == id {
			c.States[i].Kind = k
			c.States[i].Name = ""
		}
	}
	return c
}

// problemLines renders problems as "severity at shape: message".
func problemLines(ps []importer.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Severity.String()+" at "+p.Pos.Shape+": "+p.Message)
	}
	return out
}

func checkNest(t *testing.T, ps []importer.Problem, want []string) {
	t.Helper()
	got := problemLines(ps)
	if len(got) != len(want) {
		t.Errorf("problems =\n%s\nwant %d:\n%s", strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
		return
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("problem %d = %s, want %s...", i, got[i], w)
		}
	}
}

func TestRegions(t *testing.T) {
	at := func(id string) diag.Pos { return diag.Pos{Shape: id} }
	for _, tt := range []struct {
		name    string
		c       *chart.Chart
		regions []Region
		order   []string // the states' IDs after
		want    []string
	}{
		{"in document order",
			tree([]string{"p", "a<p", "a1<a", "b<p"}),
			[]Region{{"a", "", at("a")}, {"b", "", at("b")}},
			[]string{"p", "a", "a1", "b"},
			[]string{`warning at p: state "p" holds 2 $ORTHO regions, which StateSmith does not generate code for yet`}},
		{"by their numbers, what they hold with them",
			tree([]string{"x", "p", "b<p", "b1<b", "y", "b2<b", "a<p", "a1<a", "c<p"}),
			[]Region{{"b", "2", at("b")}, {"a", "1.5", at("a")}, {"c", "", at("c")}},
			[]string{"x", "p", "a", "a1", "y", "b", "b1", "b2", "c"},
			[]string{`warning at p: state "p" holds 3 $ORTHO regions`}},
		{"errors",
			tree([]string{"top", "p", "a<p", "o<p", "b<p"}),
			[]Region{{"top", "", at("top")}, {"a", "x", at("a")}, {"b", "", at("b")}},
			[]string{"top", "p", "a", "o", "b"},
			[]string{`error at top: $ORTHO region "top" is drawn in no state`,
				`warning at p: state "p" holds 2 $ORTHO regions`,
				`error at o: state "p" holds $ORTHO regions and "o", which is not one`,
				`error at a: the order "x" of $ORTHO region "a" is not a number; the region is read as unordered`}},
		{"without a name",
			withKind(tree([]string{"p", "a<p"}), "a", chart.NormalState),
			[]Region{{"a", "", at("a")}},
			[]string{"p", "a"},
			[]string{`error at a: $ORTHO region a has no name`, `warning at p:`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ps := Regions(tt.c, tt.regions)
			checkNest(t, ps, tt.want)
			var order []string
			for _, s := range tt.c.States {
				order = append(order, s.ID)
			}
			if !slices.Equal(order, tt.order) {
				t.Errorf("states = %v, want %v", order, tt.order)
			}
			for _, s := range tt.c.States {
				if s.ID == "p" && s.Kind != chart.ParallelState {
					t.Errorf("p is %v, want parallel", s.Kind)
				}
			}
		})
	}
}

func TestHistories(t *testing.T) {
	at := func(id string) diag.Pos { return diag.Pos{Shape: id} }
	for _, tt := range []struct {
		name      string
		c         *chart.Chart
		continues []Continue
		kind      chart.StateKind // of h after
		want      []string
	}{
		{"shallow",
			withKind(tree([]string{"g", "h<g", "a<g", "a1<a"}, "h>a"), "h", chart.HistoryState),
			nil, chart.HistoryState, nil},
		{"continued to every level",
			withKind(tree([]string{"g", "h<g", "a<g", "a1<a", "a11<a1", "b<g"}, "h>a"), "h", chart.HistoryState),
			[]Continue{{"a", at("hc1")}, {"a1", at("hc2")}}, chart.DeepHistoryState,
			[]string{`note at h: $H h: the $HC in states "a" and "a1" carry the history of state "g" to every level: read as a deep history`}},
		{"continued to some levels",
			withKind(tree([]string{"g", "h<g", "a<g", "a1<a", "a11<a1", "b<g", "b1<b"}, "h>a"), "h", chart.HistoryState),
			[]Continue{{"a", at("hc1")}}, chart.DeepHistoryState,
			[]string{`error at h: $H h: the $HC carry the history of state "g" into state "a", but not into states "a1" and "b", which hold no $HC`}},
		{"errors",
			withKind(withKind(tree([]string{"g", "h<g", "h2<g", "a<g", "k", "k1<k"}, "h2>a", "h2>a"), "h", chart.HistoryState), "h2", chart.HistoryState),
			[]Continue{{"k", at("hc1")}, {"k", at("hc2")}, {"", at("hc3")}}, chart.HistoryState,
			[]string{`error at h: $H h has no transition: StateSmith requires one`,
				`error at h2: $H h2 is the second $H in state "g", after h, which StateSmith refuses`,
				`error at hc2: a second $HC in state "k", which StateSmith refuses; ignored`,
				`error at hc1: the $HC in state "k" carries no history`,
				`error at hc3: the $HC drawn in no state carries no history`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ps := Histories(tt.c, tt.continues)
			checkNest(t, ps, tt.want)
			if k := tt.c.States[1].Kind; k != tt.kind {
				t.Errorf("h is %v, want %v", k, tt.kind)
			}
		})
	}
}

func TestLocalTransitions(t *testing.T) {
	c := tree([]string{"g", "a<g", "a1<a", "b"}, "g>a1", "a>g", "g>b", "a1>a1", "g>g")
	c.Transitions = append(c.Transitions, chart.Transition{ID: "t5", From: "g", Target: chart.Target{State: "a"}, Also: []string{"b"}})
	LocalTransitions(c)
	var internal []string
	for _, t := range c.Transitions {
		if t.Internal {
			internal = append(internal, t.ID)
		}
	}
	// Only g>a1 goes from a state to states inside it.
	if !slices.Equal(internal, []string{"t0"}) {
		t.Errorf("internal transitions = %v, want [t0]", internal)
	}
}

func TestHierarchy(t *testing.T) {
	c := withKind(tree([]string{"p", "r1<p", "r2<p", "h<r1", "x<r1"}, "h>x", "p>x"), "h", chart.HistoryState)
	r := Reading{Regions: []Region{{State: "r2", Order: "1"}, {State: "r1", Order: "2"}}}
	ps := r.Hierarchy(c)
	if len(ps) != 1 || ps[0].Severity != diag.Warning {
		t.Errorf("Hierarchy = %v, want the warning about StateSmith's regions", problemLines(ps))
	}
	var order []string
	for _, s := range c.States {
		order = append(order, s.ID)
	}
	if want := []string{"p", "r2", "r1", "h", "x"}; !slices.Equal(order, want) {
		t.Errorf("states = %v, want %v", order, want)
	}
	if !c.Transitions[1].Internal || c.States[0].Kind != chart.ParallelState {
		t.Errorf("p>x internal = %v, p is %v; want true, parallel", c.Transitions[1].Internal, c.States[0].Kind)
	}
}

// TestHierarchyChecks checks what Hierarchy reports besides Regions and
// Histories: the transitions of the $H vertices, as any history's, and
// the states entered without an $initial_state, in StateSmith's words.
func TestHierarchyChecks(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    *chart.Chart
		want []string
	}{
		{"a $H with two transitions",
			withKind(tree([]string{"g", "h<g", "a<g", "b<g", "x"}, "h>a", "h>x"), "h", chart.HistoryState),
			[]string{`error at h: $H h has 2 transitions: a history has one`,
				`error at t1: the transition of $H h goes to "x", which is not inside state "g"`}},
		{"entered without an $initial_state",
			withKind(tree([]string{"x", "g", "h<g", "a<g", "a1<a", "a2<a"}, "x>g", "h>a"), "h", chart.HistoryState),
			[]string{`error at g: state "g" holds states but no $initial_state, and transition t0 enters it: StateSmith then stays in "g" itself, with none of its states active, which a chart cannot say (a statechart would enter "h", the first in the file)`,
				`error at a: state "a" holds states but no $initial_state, and transition t1 enters it`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var r Reading
			checkNest(t, r.Hierarchy(tt.c), tt.want)
		})
	}
}
