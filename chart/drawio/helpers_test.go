package drawio_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// robotStencil is a stencil with other property names, test values, and
// neither an initial-state nor a message-handler master.
func robotStencil(t testing.TB) *chart.Stencil {
	t.Helper()
	st := &chart.Stencil{
		Name:       "robot",
		Masters:    chart.Masters{State: "Room", Transition: "Door"},
		Properties: chart.Properties{Name: "Title", Test: "Condition", Value: "Arg", Order: "Priority", Stack: "Memory"},
		Tests: []chart.Test{
			{Name: "see", Values: []string{"wall", "door", "light"}},
			{Name: "bumped", Message: true},
			{Name: "timer"},
		},
		Actions: []chart.Property{{Name: "Motor", Values: []string{"stop", "forward", "back"}}},
	}
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	return st
}

// sentryStencil loads testdata/fsmforge_sentry.stencil.json: the masters
// of statecharts besides the others (composite, parallel, history, deep
// history).
func sentryStencil(t testing.TB) *chart.Stencil {
	t.Helper()
	st, err := chart.LoadStencil("testdata/fsmforge_sentry.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// render lists a chart's states and transitions, positions aside, one per
// line, for comparisons.
func render(c *chart.Chart) []string {
	var out []string
	for _, s := range c.States {
		line := fmt.Sprintf("state %q name=%q kind=%v initial=%v parent=%q entry=%v", s.ID, s.Name, s.Kind, s.Initial, s.Parent, actionTexts(s.Entry))
		if len(s.Exit) > 0 {
			line += fmt.Sprintf(" exit=%v", actionTexts(s.Exit))
		}
		out = append(out, line)
	}
	for _, t := range c.Transitions {
		line := fmt.Sprintf("transition %q from=%q any=%v order=%d test=%q value=%q label=%q event=%q guard=%q action=%q target=%v push=%v",
			t.ID, t.From, t.AnyState, t.Order, t.Test, t.Value, t.Label, t.Event, t.Guard, t.Action, t.Target, t.Push)
		if len(t.Also) > 0 {
			line += fmt.Sprintf(" also=%v", t.Also)
		}
		if t.Internal {
			line += " internal"
		}
		if len(t.Actions) > 0 {
			line += fmt.Sprintf(" actions=%v", actionTexts(t.Actions))
		}
		out = append(out, line)
	}
	return out
}

// actionTexts renders actions for render: a game action without a guard
// as PROPERTY=VALUE, the others with every field they use quoted.
func actionTexts(as []chart.Action) []string {
	var out []string
	for _, a := range as {
		var text string
		switch a.Kind {
		case chart.GameAction:
			text = a.Property + "=" + a.Value
			if a.Guard != "" {
				text = fmt.Sprintf("%q=%q", a.Property, a.Value)
			}
		case chart.RaiseAction:
			text = fmt.Sprintf("raise %q", a.Event)
		case chart.SendAction:
			text = fmt.Sprintf("send %q after %gs as %q", a.Event, a.Delay, a.Timer)
		case chart.CancelAction:
			text = fmt.Sprintf("cancel %q", a.Timer)
		default:
			text = fmt.Sprintf("%#v", a)
		}
		if a.Guard != "" {
			text = fmt.Sprintf("[%q] %s", a.Guard, text)
		}
		out = append(out, text)
	}
	return out
}

// diff returns the first line where two renderings differ, or "".
func diff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
	return ""
}

var names = []string{"walk", "walk left", "", "Idle", "a & b", `say "hi"`, "<tag>", "naïve café", "x/y", "1. first", "H", "100%", "%Name%", "tab\tfree"}

var labels = []string{"", "go", "push [unlocked] / swing()", "2. INCREASE [count >= 3]", "after(5s)", "[ready]", "/ reset()", "line one\nline two", "a & b < c", "0. zero", "%Test%"}

// randomChart makes a chart as an importer could return it: with a
// stencil, what a drawing made with it gives; without, a plain state
// diagram. pages > 1 spreads it over pages, IDs prefixed as Read makes
// them.
func randomChart(r *rand.Rand, st *chart.Stencil, pages int) *chart.Chart {
	c := &chart.Chart{Name: "random", Stencil: st, States: []chart.State{}, Transitions: []chart.Transition{}}
	initialDone := false
	for p := range pages {
		prefix, page := "", "Page-"+strconv.Itoa(p+1)
		if p > 0 {
			prefix = "pg" + strconv.Itoa(p+1) + "/"
		}
		first := len(c.States)
		n := 1 + r.IntN(7)
		for k := range n {
			s := chart.State{ID: prefix + strconv.Itoa(r.IntN(3)*100+k), Name: chart.NormalizeSpace(names[r.IntN(len(names))]), Pos: diag.Pos{Page: page}}
			if r.IntN(3) == 0 {
				s.Box = &chart.Box{X: float64(r.IntN(800)), Y: float64(r.IntN(600)), W: 80 + float64(r.IntN(80)), H: 40.5}
			}
			if st == nil {
				s.Kind = chart.StateKind(r.IntN(4))
				s.Initial = s.Kind == chart.StartState
				if r.IntN(5) == 0 {
					s.Initial = !s.Initial
				}
			} else {
				if st.Masters.Initial != "" && !initialDone && r.IntN(3) == 0 {
					s.Initial, initialDone = true, true
				}
				for _, a := range st.Actions {
					if r.IntN(3) > 0 {
						s.Entry = append(s.Entry, chart.Action{Property: a.Name, Value: a.Values[r.IntN(len(a.Values))]})
					}
				}
			}
			c.States = append(c.States, s)
		}
		pageStates := c.States[first:]
		m := r.IntN(10)
		counts := map[string]int{}
		for k := range m {
			t := chart.Transition{ID: prefix + "t" + strconv.Itoa(k), Pos: diag.Pos{Page: page}}
			from := pageStates[r.IntN(len(pageStates))].ID
			t.From = from
			switch r.IntN(4) {
			case 0:
				t.Target.Kind = chart.ToFinal
			default:
				t.Target = chart.Target{Kind: chart.ToState, State: pageStates[r.IntN(len(pageStates))].ID}
			}
			t.Label = labels[r.IntN(len(labels))]
			if st == nil {
				order, ev, gu, ac, test := deriveLabel(t.Label)
				t.Event, t.Guard, t.Action, t.Test = ev, gu, ac, test
				if r.IntN(6) == 0 {
					t.Test = "override"
				}
				if r.IntN(8) == 0 {
					t.Guard = "g [1]"
				}
				counts[t.From]++
				t.Order = counts[t.From]
				if order > 0 {
					t.Order = order
				}
				if r.IntN(5) == 0 {
					t.Order = 1 + r.IntN(4)
				}
			} else {
				if st.Masters.AnyState != "" && r.IntN(5) == 0 {
					t.From, t.AnyState = "", true
				}
				test := st.Tests[r.IntN(len(st.Tests))]
				t.Test = test.Name
				if len(test.Values) > 0 && r.IntN(2) == 0 {
					t.Value = test.Values[r.IntN(len(test.Values))]
				} else if len(test.Values) == 0 && r.IntN(4) == 0 {
					t.Value = "v" + strconv.Itoa(r.IntN(9))
				}
				if r.IntN(2) == 0 {
					t.Label = t.Test
				}
				key := t.From
				if t.AnyState {
					key = "\x00"
				}
				counts[key]++
				t.Order = counts[key]
				if r.IntN(4) == 0 {
					t.Order = 1 + r.IntN(5)
				}
				switch r.IntN(5) {
				case 0:
					t.Push = true
				case 1:
					t.Target = chart.Target{Kind: chart.ToReturn}
				}
			}
			c.Transitions = append(c.Transitions, t)
		}
	}
	return c
}

// deriveLabel reads a plain label as the reader does.
func deriveLabel(label string) (order int, event, guard, action, test string) {
	text := label
	if i := strings.IndexByte(label, '.'); i > 0 && i+1 < len(label) && label[i+1] == ' ' {
		if n, err := strconv.Atoi(label[:i]); err == nil && n > 0 {
			order, text = n, label[i+1:]
		}
	}
	event, guard, action = chart.ParseLabel(text)
	test = event
	if test == "" {
		test = guard
	}
	return order, event, guard, action, test
}

// problems lists a chart's diagnostics that are errors or warnings.
func problems(c *chart.Chart) []string {
	var out []string
	for _, d := range c.Diagnostics {
		if d.Severity != diag.Note {
			out = append(out, d.Error())
		}
	}
	return slices.Clip(out)
}

// checkContains reports each line of want that the rendering of c lacks,
// and each text of diags that none of its diagnostics holds; it returns
// the diagnostics, rendered.
func checkContains(t *testing.T, c *chart.Chart, want, diags []string) []string {
	t.Helper()
	got := strings.Join(render(c), "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("chart lacks %s in\n%s", w, got)
		}
	}
	var ds []string
	for _, d := range c.Diagnostics {
		ds = append(ds, d.Error())
	}
	for _, w := range diags {
		if !slices.ContainsFunc(ds, func(d string) bool { return strings.Contains(d, w) }) {
			t.Errorf("want a diagnostic with %q among\n%s", w, strings.Join(ds, "\n"))
		}
	}
	return ds
}
