package scxml_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// testStencil has tests and actions whose names SCXML cannot hold as
// they are: spaces, markup, non-ASCII.
func testStencil(t testing.TB) *chart.Stencil {
	st := &chart.Stencil{
		Name:    "test <stencil>",
		Version: "2.1",
		Masters: chart.Masters{State: "State", Transition: "Transition", AnyState: "Handler"},
		Tests: []chart.Test{
			{Name: "hitTriggerLeft"},
			{Name: "hit by player", Message: true},
			{Name: "x < y & z"},
			{Name: "αβ", Message: true, Values: []string{"one", "two words"}},
		},
		Actions: []chart.Property{
			{Name: "XMovement", Values: []string{"left", "right"}},
			{Name: "Anim ation", Values: []string{"a b", "c\"d"}},
		},
	}
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	return st
}

// words are the pieces of generated names, IDs and labels: what XML or
// SCXML ids cannot hold as it is among them.
var words = []string{"walk", "Left", "12", "a b", "x.y", "-dash", "_u", "é", "日本", "q\"uote", "<tag>", "a&b", "semi;colon", "new\nline", "tab\tbed", "#", "~", "@"}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func word(r *rand.Rand, n int) string {
	var b strings.Builder
	for range 1 + r.IntN(n) {
		b.WriteString(pick(r, words))
	}
	return b.String()
}

// genChart generates a flat chart that follows the conventions of the
// importers: with a stencil, its tests and actions; without, transitions
// whose event, guard and action are their label's.
func genChart(r *rand.Rand, st *chart.Stencil) *chart.Chart {
	c := &chart.Chart{Name: word(r, 2), Stencil: st, States: []chart.State{}, Transitions: []chart.Transition{}}
	used := map[string]bool{}
	id := func() string {
		for {
			s := word(r, 3)
			if r.IntN(3) == 0 {
				s = strconv.Itoa(r.IntN(1000))
			}
			if !used[s] {
				used[s] = true
				return s
			}
		}
	}
	n := 1 + r.IntN(10)
	for i := range n {
		s := chart.State{ID: id(), Name: chart.NormalizeSpace(word(r, 3))}
		switch r.IntN(10) {
		case 0:
			s.Kind = chart.StartState
		case 1:
			s.Kind = chart.EndState
		case 2:
			s.Kind = chart.ChoiceState
		}
		if r.IntN(5) == 0 {
			s.Name = ""
		}
		if r.IntN(4) == 0 && i > 0 {
			s.Name = c.States[r.IntN(i)].Name // names may repeat
		}
		if r.IntN(2) == 0 {
			q := func() float64 { return float64(r.IntN(80000)-20000) / 4 }
			s.Box = &chart.Box{X: q(), Y: q(), W: q(), H: q()}
		}
		if st != nil {
			for _, p := range st.Actions {
				if r.IntN(2) == 0 {
					s.Entry = append(s.Entry, chart.Action{Property: p.Name, Value: pick(r, p.Values)})
				}
			}
		} else {
			for range r.IntN(3) {
				s.Entry = append(s.Entry, chart.Action{Property: chart.NormalizeSpace(word(r, 2)), Value: chart.NormalizeSpace(word(r, 2))})
			}
		}
		c.States = append(c.States, s)
	}
	switch r.IntN(8) {
	case 0: // no initial state
	case 1: // two
		c.States[0].Initial = true
		c.States[n-1].Initial = true
	default:
		c.States[r.IntN(n)].Initial = true
	}
	orders := map[string]int{}
	for range r.IntN(25) {
		t := chart.Transition{ID: id()}
		if r.IntN(8) == 0 {
			t.AnyState = true
		} else {
			t.From = pick(r, c.States).ID
		}
		orders[t.From]++
		t.Order = orders[t.From]
		if r.IntN(5) == 0 {
			t.Order = 1 + r.IntN(5)
		}
		switch r.IntN(8) {
		case 0:
			t.Target.Kind = chart.ToFinal
		case 1:
			t.Target.Kind = chart.ToReturn
		default:
			t.Target.State = pick(r, c.States).ID
		}
		t.Push = t.Target.Kind != chart.ToReturn && r.IntN(6) == 0
		if st != nil {
			test := pick(r, st.Tests)
			t.Test, t.Label = test.Name, test.Name
			if len(test.Values) > 0 {
				t.Value = pick(r, test.Values)
			} else if r.IntN(4) == 0 {
				t.Value = chart.NormalizeSpace(word(r, 2))
			}
			switch r.IntN(6) {
			case 0:
				t.Label = ""
			case 1:
				t.Label = strings.TrimSpace(word(r, 3))
			}
		} else {
			var label string
			if r.IntN(4) > 0 {
				label += word(r, 2)
			}
			if r.IntN(3) == 0 {
				label += " [" + word(r, 2) + "]"
			}
			if r.IntN(4) == 0 {
				label += " / " + word(r, 2) + "()"
			}
			t.Label = strings.TrimSpace(label)
			t.Event, t.Guard, t.Action = chart.ParseLabel(t.Label)
			if t.Label == chart.NormalizeSpace(t.Label) && t.Action == "" && r.IntN(3) == 0 {
				t.Label = "" // drawn without a label, read from event and cond
				if t.Event != "" || t.Guard != "" {
					t.Label = t.Event
					if t.Guard != "" {
						t.Label = strings.TrimSpace(t.Event + " [" + t.Guard + "]")
					}
				}
			}
			t.Test = t.Event
			if t.Test == "" {
				t.Test = t.Guard
			}
			if r.IntN(8) == 0 {
				t.Test = chart.NormalizeSpace(word(r, 2))
			}
			if r.IntN(4) == 0 {
				t.Value = chart.NormalizeSpace(word(r, 2))
			}
		}
		c.Transitions = append(c.Transitions, t)
	}
	return c
}

// events are generated event names: one SCXML name each.
var events = []string{"e", "go", "hit.head", "done.state.s", "Btn.1", "ÉvÉ", "a-b_c", "x.y.z"}

// genStatechart generates a chart of nested states that follows the
// conventions of the reader: states in document order (a compound before
// the states inside it), one initial state inside each compound state
// and none inside a parallel one, histories with one default transition
// to states inside their parent; and, with or without a stencil, entry
// and exit actions and transitions of every kind of action and target.
func genStatechart(r *rand.Rand, st *chart.Stencil) *chart.Chart {
	g := &statechartGen{r: r, st: st, used: map[string]bool{}}
	c := &chart.Chart{Name: word(r, 2), Stencil: st, Statechart: r.IntN(2) == 0, States: []chart.State{}, Transitions: []chart.Transition{}}
	g.c = c
	g.states("", chart.NormalState, 0)
	var top []int
	for i := range c.States {
		if c.States[i].Parent == "" {
			top = append(top, i)
		}
	}
	switch r.IntN(6) {
	case 0: // no initial state
	case 1: // two
		c.States[top[0]].Initial = true
		c.States[top[len(top)-1]].Initial = true
	default:
		c.States[pick(r, top)].Initial = true
	}
	g.defaults()
	g.transitions()
	return c
}

type statechartGen struct {
	r    *rand.Rand
	st   *chart.Stencil
	c    *chart.Chart
	used map[string]bool
}

func (g *statechartGen) id() string {
	for {
		s := word(g.r, 3)
		if g.r.IntN(3) == 0 {
			s = strconv.Itoa(g.r.IntN(1000))
		}
		if !g.used[s] {
			g.used[s] = true
			return s
		}
	}
}

// states adds the states inside parent (of kind kind; "" for the top
// level), at the given depth.
func (g *statechartGen) states(parent string, kind chart.StateKind, depth int) {
	r, c := g.r, g.c
	n := 1 + r.IntN(4)
	if parent == "" {
		n = 1 + r.IntN(5)
	}
	first := len(c.States)
	for k := range n {
		s := chart.State{ID: g.id(), Name: chart.NormalizeSpace(word(r, 3)), Parent: parent}
		if r.IntN(5) == 0 {
			s.Name = ""
		}
		switch x := r.IntN(12); {
		case k == 0 && parent != "" && kind == chart.NormalState && r.IntN(3) == 0:
			s.Kind = chart.StartState // written as <initial>, when it is the initial state
		case x < 2 && depth < 3:
			s.Kind = chart.ParallelState
		case x == 2:
			s.Kind = chart.EndState
		case x == 3:
			s.Kind = chart.ChoiceState
		case x == 4 && (k == 0 || r.IntN(2) == 0) && kind == chart.NormalState:
			s.Kind = chart.StartState
		case x == 5 && parent != "" && k > 0:
			s.Kind = chart.HistoryState
			if r.IntN(2) == 0 {
				s.Kind = chart.DeepHistoryState
			}
		}
		if r.IntN(2) == 0 {
			q := func() float64 { return float64(r.IntN(80000)-20000) / 4 }
			if r.IntN(4) == 0 {
				q = func() float64 { return float64(r.IntN(1000)) / 10 } // not exact in binary
			}
			s.Box = &chart.Box{X: q(), Y: q(), W: q(), H: q()}
		}
		if s.Kind != chart.HistoryState && s.Kind != chart.DeepHistoryState && (s.Kind != chart.StartState || r.IntN(4) == 0) {
			s.Entry = g.actions(true)
			s.Exit = g.actions(false)
		}
		c.States = append(c.States, s)
		if (s.Kind == chart.NormalState && r.IntN(3) == 0 || s.Kind == chart.ParallelState) && depth < 3 {
			g.states(s.ID, s.Kind, depth+1)
		}
	}
	if parent == "" || kind != chart.NormalState {
		return
	}
	var kids []int
	for i := first; i < len(c.States); i++ {
		if s := &c.States[i]; s.Parent == parent && s.Kind != chart.HistoryState && s.Kind != chart.DeepHistoryState {
			kids = append(kids, i)
		}
	}
	if c.States[first].Kind == chart.StartState && r.IntN(4) > 0 {
		c.States[first].Initial = true
		return
	}
	c.States[pick(r, kids)].Initial = true
}

// actions generates entry (entry true), exit or transition actions:
// with a stencil, its game actions in its order, as the reader lists
// entry actions.
func (g *statechartGen) actions(entry bool) []chart.Action {
	r := g.r
	var out []chart.Action
	for range r.IntN(4) {
		var a chart.Action
		switch r.IntN(5) {
		case 0:
			a = chart.Action{Kind: chart.RaiseAction, Event: pick(r, events)}
		case 1:
			a = chart.Action{Kind: chart.SendAction, Event: pick(r, events)}
			switch r.IntN(3) {
			case 0:
				a.Delay = float64(r.IntN(20000)) / 8
			case 1:
				a.Delay = float64(r.IntN(5000)) / 1000
			}
			if r.IntN(2) == 0 {
				a.Timer = strings.TrimSpace(word(r, 2))
			}
		case 2:
			a = chart.Action{Kind: chart.CancelAction, Timer: strings.TrimSpace(word(r, 2))}
		default:
			if g.st == nil {
				a = chart.Action{Property: chart.NormalizeSpace(word(r, 2)), Value: chart.NormalizeSpace(word(r, 2))}
			} else {
				p := pick(r, g.st.Actions)
				a = chart.Action{Property: p.Name, Value: pick(r, p.Values)}
			}
		}
		if a.Kind == chart.CancelAction && a.Timer == "" || a.Property == "" && a.Kind == chart.GameAction || a.Value == "" && a.Kind == chart.GameAction {
			continue
		}
		out = append(out, a)
	}
	if entry && g.st != nil {
		var game []chart.Action
		for _, p := range g.st.Actions {
			for _, a := range out {
				if a.Kind == chart.GameAction && a.Property == p.Name {
					game = append(game, a)
				}
			}
		}
		for i := range out {
			if out[i].Kind == chart.GameAction {
				out[i], game = game[0], game[1:]
			}
		}
	}
	return out
}

// descendants returns the states below p, but for histories.
func (g *statechartGen) descendants(p string) []string {
	var out []string
	for _, s := range g.c.States {
		for q := s.Parent; q != ""; q = g.state(q).Parent {
			if q == p {
				if s.Kind != chart.HistoryState && s.Kind != chart.DeepHistoryState {
					out = append(out, s.ID)
				}
				break
			}
		}
	}
	return out
}

func (g *statechartGen) state(id string) *chart.State {
	for i := range g.c.States {
		if g.c.States[i].ID == id {
			return &g.c.States[i]
		}
	}
	return nil
}

// defaults gives each history, and each start pseudo-state inside a
// compound state, a default transition to states inside its parent.
func (g *statechartGen) defaults() {
	r, c := g.r, g.c
	for i := range c.States {
		s := c.States[i]
		history := s.Kind == chart.HistoryState || s.Kind == chart.DeepHistoryState
		if !history && (s.Kind != chart.StartState || s.Parent == "" || r.IntN(4) == 0) {
			continue
		}
		inside := g.descendants(s.Parent)
		if len(inside) == 0 {
			continue // a start with nothing to lead to: it is a state like another
		}
		t := chart.Transition{ID: g.id(), From: s.ID, Order: 1, Target: chart.Target{State: pick(r, inside)}, Actions: g.actions(false)}
		if r.IntN(3) == 0 {
			t.Also = []string{pick(r, inside)}
		}
		c.Transitions = append(c.Transitions, t)
	}
}

// transitions adds transitions between the states, but from histories.
func (g *statechartGen) transitions() {
	r, c, st := g.r, g.c, g.st
	var from []string
	for _, s := range c.States {
		if s.Kind != chart.HistoryState && s.Kind != chart.DeepHistoryState {
			from = append(from, s.ID)
		}
	}
	orders := map[string]int{}
	for _, t := range c.Transitions {
		orders[t.From]++
	}
	for range r.IntN(25) {
		t := chart.Transition{ID: g.id(), Actions: g.actions(false), Internal: r.IntN(5) == 0}
		if r.IntN(8) == 0 {
			t.AnyState = true
		} else {
			t.From = pick(r, from)
		}
		orders[t.From]++
		t.Order = orders[t.From]
		if r.IntN(5) == 0 {
			t.Order = 1 + r.IntN(5)
		}
		switch r.IntN(10) {
		case 0:
			t.Target.Kind = chart.ToFinal
		case 1:
			t.Target.Kind = chart.ToReturn
		case 2:
			t.Target.Kind = chart.ToNone
		default:
			t.Target.State = pick(r, c.States).ID
			for range r.IntN(3) / 2 * (1 + r.IntN(2)) {
				t.Also = append(t.Also, pick(r, c.States).ID)
			}
		}
		t.Push = t.Target.Kind != chart.ToReturn && r.IntN(6) == 0
		if st != nil {
			test := pick(r, st.Tests)
			t.Test, t.Label = test.Name, test.Name
			if len(test.Values) > 0 {
				t.Value = pick(r, test.Values)
			}
		} else {
			t.Event = strings.Join(pickN(r, events, r.IntN(3)), " ")
			if r.IntN(3) == 0 {
				t.Guard = pick(r, []string{"In('a')", "x  <  2", "ready && !busy", "a\nb"})
			}
			t.Label = strings.TrimSpace(t.Event + " [" + chart.NormalizeSpace(t.Guard) + "]")
			if t.Guard == "" {
				t.Label = t.Event
			}
			t.Test = t.Event
			if t.Test == "" {
				t.Test = t.Guard
			}
			if r.IntN(6) == 0 {
				t.Label = strings.TrimSpace(word(r, 3))
				_, _, t.Action = chart.ParseLabel(t.Label)
			}
		}
		c.Transitions = append(c.Transitions, t)
	}
}

func pickN[T any](r *rand.Rand, list []T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = pick(r, list)
	}
	return out
}

// sameChart compares two charts in everything Write keeps: positions
// aside (those of actions too), empty lists as none, and transitions by
// ID.
func sameChart(a, b *chart.Chart) error {
	if a.Name != b.Name {
		return fmt.Errorf("name %q, want %q", b.Name, a.Name)
	}
	if a.Statechart != b.Statechart || a.Chain != b.Chain || a.ChainLimit != b.ChainLimit {
		return fmt.Errorf("statechart %v, chain %v, %d, want %v, %v, %d", b.Statechart, b.Chain, b.ChainLimit, a.Statechart, a.Chain, a.ChainLimit)
	}
	if a.Fallback != b.Fallback {
		return fmt.Errorf("fallback %q, want %q", b.Fallback, a.Fallback)
	}
	if len(a.States) != len(b.States) {
		return fmt.Errorf("%d states, want %d", len(b.States), len(a.States))
	}
	for i := range a.States {
		if s, t := withoutPos(a.States[i]), withoutPos(b.States[i]); !reflect.DeepEqual(s, t) {
			return fmt.Errorf("state %d = %s, want %s", i, show(t), show(s))
		}
	}
	if len(a.Transitions) != len(b.Transitions) {
		return fmt.Errorf("%d transitions, want %d", len(b.Transitions), len(a.Transitions))
	}
	byID := map[string]chart.Transition{}
	for _, t := range b.Transitions {
		byID[t.ID] = transitionWithoutPos(t)
	}
	for _, t := range a.Transitions {
		t = transitionWithoutPos(t)
		if u, ok := byID[t.ID]; !ok || !reflect.DeepEqual(u, t) {
			return fmt.Errorf("transition %q = %+v, want %+v", t.ID, u, t)
		}
	}
	return nil
}

func show(s chart.State) string {
	box := "<nil>"
	if s.Box != nil {
		box = fmt.Sprintf("%+v", *s.Box)
	}
	s.Box = nil
	return fmt.Sprintf("%+v box %s", s, box)
}

func withoutPos(s chart.State) chart.State {
	s.Pos = diag.Pos{}
	s.Entry, s.Exit = actionsWithoutPos(s.Entry), actionsWithoutPos(s.Exit)
	return s
}

func transitionWithoutPos(t chart.Transition) chart.Transition {
	t.Pos = diag.Pos{}
	t.Actions = actionsWithoutPos(t.Actions)
	if len(t.Also) == 0 {
		t.Also = nil
	}
	return t
}

func actionsWithoutPos(list []chart.Action) []chart.Action {
	if len(list) == 0 {
		return nil
	}
	out := make([]chart.Action, len(list))
	for i, a := range list {
		a.Pos = diag.Pos{}
		out[i] = a
	}
	return out
}

// TestRoundTrip writes generated charts and reads them back: Read(Write(c))
// is c, with and without a stencil, without a diagnostic; writing the
// chart read gives the same file.
func TestRoundTrip(t *testing.T) {
	for _, withStencil := range []bool{false, true} {
		t.Run(fmt.Sprintf("stencil=%v", withStencil), func(t *testing.T) {
			var st *chart.Stencil
			if withStencil {
				st = testStencil(t)
			}
			r := rand.New(rand.NewPCG(1, 2))
			for i := range 1000 {
				c := genChart(r, st)
				var b bytes.Buffer
				if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil {
					t.Fatalf("chart %d: Write = %v", i, err)
				}
				back, err := scxml.Read(bytes.NewReader(b.Bytes()), scxml.Options{Stencil: st})
				if err != nil || len(back.Diagnostics) > 0 {
					t.Fatalf("chart %d: Read(Write(c)) = %v, diagnostics %v\n%s", i, err, back.Diagnostics, b.String())
				}
				if err := sameChart(c, back); err != nil {
					t.Fatalf("chart %d: Read(Write(c)): %v\n%s", i, err, b.String())
				}
				var again bytes.Buffer
				if err := scxml.Write(&again, back, scxml.WriteOptions{}); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
					t.Fatalf("chart %d: Write(Read(Write(c))) differs from Write(c) (%v):\n%s\n%s", i, err, again.String(), b.String())
				}
			}
		})
	}
}

// TestRoundTripStatecharts writes generated charts of nested states,
// parallel states, histories, start pseudo-states and final states, with
// actions of every kind and transitions to several states and to none,
// and reads them back: Read(Write(c)) is c, with and without a stencil,
// without a diagnostic; writing the chart read gives the same file.
func TestRoundTripStatecharts(t *testing.T) {
	for _, withStencil := range []bool{false, true} {
		t.Run(fmt.Sprintf("stencil=%v", withStencil), func(t *testing.T) {
			var st *chart.Stencil
			if withStencil {
				st = testStencil(t)
			}
			r := rand.New(rand.NewPCG(5, 6))
			initials := 0
			for i := range 1000 {
				c := genStatechart(r, st)
				if i%3 == 0 && len(c.States) > 0 {
					c.Fallback = c.States[i%len(c.States)].Name // a deleted state's agents go there on reload
				}
				var b bytes.Buffer
				if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil {
					t.Fatalf("chart %d: Write = %v", i, err)
				}
				initials += strings.Count(b.String(), "<initial")
				back, err := scxml.Read(bytes.NewReader(b.Bytes()), scxml.Options{Stencil: st})
				if err != nil || len(back.Diagnostics) > 0 {
					t.Fatalf("chart %d: Read(Write(c)) = %v, diagnostics %v\n%s", i, err, back.Diagnostics, b.String())
				}
				charttest.CheckChart(t, back, err)
				if err := sameChart(c, back); err != nil {
					t.Fatalf("chart %d: Read(Write(c)): %v\n%s", i, err, b.String())
				}
				var again bytes.Buffer
				if err := scxml.Write(&again, back, scxml.WriteOptions{}); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
					t.Fatalf("chart %d: Write(Read(Write(c))) differs from Write(c) (%v):\n%s\n%s", i, err, again.String(), b.String())
				}
			}
			if initials == 0 {
				t.Error("no chart was written with an <initial> element")
			}
		})
	}
}

// TestRoundTripFixtures reads the real files leniently, writes the charts
// and reads them back: the same chart.
func TestRoundTripFixtures(t *testing.T) {
	for _, f := range fixtures {
		c, _ := scxml.ReadFile("testdata/"+f.file, scxml.Options{Lenient: true})
		var b bytes.Buffer
		if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil {
			t.Fatalf("%s: Write = %v", f.file, err)
		}
		back, err := scxml.Read(&b, scxml.Options{})
		if err != nil || len(back.Diagnostics) > 0 {
			t.Fatalf("%s: Read(Write(c)) = %v, %v", f.file, err, back.Diagnostics)
		}
		c.Name = back.Name // the chart read from the file is named after the file
		if err := sameChart(c, back); err != nil {
			t.Errorf("%s: Read(Write(c)): %v", f.file, err)
		}
	}
}

// TestWriteRefuses checks the charts Write cannot write.
func TestWriteRefuses(t *testing.T) {
	good := func() *chart.Chart {
		return &chart.Chart{
			States:      []chart.State{{ID: "a", Name: "a", Initial: true}, {ID: "b", Name: "b"}},
			Transitions: []chart.Transition{{ID: "t", From: "a", Order: 1, Target: chart.Target{State: "b"}}},
		}
	}
	for _, tt := range []struct {
		name   string
		change func(*chart.Chart)
		opt    scxml.WriteOptions
		want   string
	}{
		{"parent missing", func(c *chart.Chart) { c.States[1].Parent = "x" }, scxml.WriteOptions{}, `state "b" is inside state "x", which the chart does not have`},
		{"parent a pseudo-state", func(c *chart.Chart) {
			c.States[0].Kind = chart.ChoiceState
			c.States[1].Parent = "a"
		}, scxml.WriteOptions{}, `state "b" is inside choice state "a"`},
		{"inside itself", func(c *chart.Chart) { c.States[0].Parent, c.States[1].Parent = "b", "a" }, scxml.WriteOptions{}, `the parents of state "a" loop`},
		{"history at the top", func(c *chart.Chart) { c.States[1].Kind = chart.HistoryState }, scxml.WriteOptions{}, `history state "b" is at the top level`},
		{"history without default", func(c *chart.Chart) {
			c.States = append(c.States, chart.State{ID: "h", Kind: chart.DeepHistoryState, Parent: "a"})
			c.States[1].Parent = "a"
		}, scxml.WriteOptions{}, `history state "h" has 0 transitions, which SCXML cannot write`},
		{"history default with an event", func(c *chart.Chart) {
			c.States = append(c.States, chart.State{ID: "h", Kind: chart.HistoryState, Parent: "a"})
			c.States[1].Parent = "a"
			c.Transitions[0] = chart.Transition{ID: "t", From: "h", Order: 1, Event: "e", Target: chart.Target{State: "b"}}
		}, scxml.WriteOptions{}, `history state "h" has 1 transitions, which SCXML cannot write`},
		{"history default outside", func(c *chart.Chart) {
			c.States = append(c.States, chart.State{ID: "h", Kind: chart.HistoryState, Parent: "a"})
			c.Transitions[0] = chart.Transition{ID: "t", From: "h", Order: 1, Target: chart.Target{State: "b"}}
		}, scxml.WriteOptions{}, `history state "h" has 1 transitions`},
		{"history with actions", func(c *chart.Chart) {
			c.States = append(c.States, chart.State{ID: "h", Kind: chart.HistoryState, Parent: "a", Exit: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}}})
			c.States[1].Parent = "a"
			c.Transitions[0] = chart.Transition{ID: "t", From: "h", Order: 1, Target: chart.Target{State: "b"}}
		}, scxml.WriteOptions{}, `history state "h" has entry or exit actions`},
		{"two initial states inside", func(c *chart.Chart) {
			c.States = append(c.States, chart.State{ID: "c", Parent: "a", Initial: true})
			c.States[1].Parent, c.States[1].Initial = "a", true
		}, scxml.WriteOptions{}, `state "a" has more than one initial state inside`},
		{"initial inside parallel", func(c *chart.Chart) {
			c.States[0].Kind = chart.ParallelState
			c.States[1].Parent, c.States[1].Initial = "a", true
		}, scxml.WriteOptions{}, `state "b" is initial inside parallel state "a"`},
		{"further target missing", func(c *chart.Chart) { c.Transitions[0].Also = []string{"x"} }, scxml.WriteOptions{}, `transition "t" goes to state "x", which the chart does not have`},
		{"further targets without a target", func(c *chart.Chart) {
			c.Transitions[0].Target = chart.Target{Kind: chart.ToNone}
			c.Transitions[0].Also = []string{"b"}
		}, scxml.WriteOptions{}, `transition "t" has further targets but its target is (none)`},
		{"raise without event", func(c *chart.Chart) { c.States[0].Entry = []chart.Action{{Kind: chart.RaiseAction}} }, scxml.WriteOptions{}, `raise action with event "": an event is one name`},
		{"send of two events", func(c *chart.Chart) { c.States[0].Exit = []chart.Action{{Kind: chart.SendAction, Event: "a b"}} }, scxml.WriteOptions{}, `send action with event "a b": an event is one name`},
		{"negative delay", func(c *chart.Chart) {
			c.Transitions[0].Actions = []chart.Action{{Kind: chart.SendAction, Event: "e", Delay: -1}}
		}, scxml.WriteOptions{}, `send action "e" has delay -1`},
		{"infinite delay", func(c *chart.Chart) {
			c.Transitions[0].Actions = []chart.Action{{Kind: chart.SendAction, Event: "e", Delay: math.Inf(1)}}
		}, scxml.WriteOptions{}, `send action "e" has delay +Inf`},
		{"cancel of no timer", func(c *chart.Chart) { c.States[0].Entry = []chart.Action{{Kind: chart.CancelAction}} }, scxml.WriteOptions{}, `cancel action with timer ""`},
		{"unknown action", func(c *chart.Chart) { c.States[0].Entry = []chart.Action{{Kind: 9}} }, scxml.WriteOptions{}, `an action of unknown kind 9`},
		{"two IDs", func(c *chart.Chart) { c.States[1].ID = "a" }, scxml.WriteOptions{}, `state ID "a" is used twice`},
		{"no source", func(c *chart.Chart) { c.Transitions[0].From = "x" }, scxml.WriteOptions{}, `transition "t" leaves state "x", which the chart does not have`},
		{"no target", func(c *chart.Chart) { c.Transitions[0].Target.State = "x" }, scxml.WriteOptions{}, `transition "t" goes to state "x", which the chart does not have`},
		{"push and return", func(c *chart.Chart) {
			c.Transitions[0].Target = chart.Target{Kind: chart.ToReturn}
			c.Transitions[0].Push = true
		}, scxml.WriteOptions{}, `transition "t" both pushes and returns`},
		{"control character", func(c *chart.Chart) { c.States[0].Name = "a\x01" }, scxml.WriteOptions{}, `state name "a\x01" has a character XML cannot hold`},
		{"invalid UTF-8", func(c *chart.Chart) { c.Transitions[0].Test = "\xff" }, scxml.WriteOptions{}, `test "\xff" has a character XML cannot hold`},
		{"comment", func(*chart.Chart) {}, scxml.WriteOptions{Comment: "a -- b"}, `the comment "a -- b" contains "--"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := good()
			tt.change(c)
			var b bytes.Buffer
			err := scxml.Write(&b, c, tt.opt)
			var l diag.List
			if err == nil || !strings.Contains(err.Error(), "scxml: "+tt.want) || !errors.As(err, &l) || b.Len() > 0 {
				t.Errorf("Write = %v (%d bytes written), want an error %q", err, b.Len(), tt.want)
			}
		})
	}
	if err := scxml.Write(&bytes.Buffer{}, nil, scxml.WriteOptions{}); err == nil {
		t.Error("Write(nil) = nil, want an error")
	}
	var b bytes.Buffer
	if err := scxml.Write(&b, good(), scxml.WriteOptions{Comment: "made by a test"}); err != nil || !strings.Contains(b.String(), "\n<!-- made by a test -->\n<scxml ") {
		t.Errorf("Write with a comment = %v:\n%s", err, b.String())
	}
}

// TestWriteIDs checks the SCXML ids Write chooses.
func TestWriteIDs(t *testing.T) {
	c := &chart.Chart{States: []chart.State{
		{ID: "1", Name: "Walk left", Initial: true},
		{ID: "2", Name: "Walk left"},
		{ID: "3", Name: "12 o'clock"},
		{ID: "4", Kind: chart.StartState},
		{ID: "5"},
		{ID: "Final", Name: "Final"},
	}, Transitions: []chart.Transition{{ID: "t", From: "1", Order: 1, Target: chart.Target{Kind: chart.ToFinal}}}}
	var b bytes.Buffer
	if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<state id="Walk_left" ff:id="1" ff:name="Walk left">`,
		`<state id="Walk_left_2" ff:id="2" ff:name="Walk left"/>`,
		`<state id="_12_o_clock" ff:id="3" ff:name="12 o&#39;clock"/>`,
		`<state id="start" ff:id="4" ff:name="" ff:kind="start"/>`,
		`<state id="_5" ff:id="5" ff:name=""/>`,
		`<state id="Final"/>`,
		`<transition target="Final_2" ff:id="t"/>`,
		`<final id="Final_2" ff:implicit="true"/>`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Write: no %s in\n%s", want, b.String())
		}
	}
}
