package scxml_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
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

// sameChart compares two charts in everything Write keeps: positions
// aside, and transitions by ID.
func sameChart(a, b *chart.Chart) error {
	if a.Name != b.Name {
		return fmt.Errorf("name %q, want %q", b.Name, a.Name)
	}
	if len(a.States) != len(b.States) {
		return fmt.Errorf("%d states, want %d", len(b.States), len(a.States))
	}
	for i := range a.States {
		s, t := a.States[i], b.States[i]
		if s.ID != t.ID || s.Name != t.Name || s.Kind != t.Kind || s.Initial != t.Initial ||
			!slices.EqualFunc(s.Entry, t.Entry, func(x, y chart.Action) bool { return x.Property == y.Property && x.Value == y.Value }) ||
			(s.Box == nil) != (t.Box == nil) || s.Box != nil && *s.Box != *t.Box {
			return fmt.Errorf("state %d = %+v, want %+v", i, t, s)
		}
	}
	if len(a.Transitions) != len(b.Transitions) {
		return fmt.Errorf("%d transitions, want %d", len(b.Transitions), len(a.Transitions))
	}
	byID := map[string]chart.Transition{}
	for _, t := range b.Transitions {
		t.Pos = chart.Pos{}
		byID[t.ID] = t
	}
	for _, t := range a.Transitions {
		t.Pos = chart.Pos{}
		if u, ok := byID[t.ID]; !ok || u != t {
			return fmt.Errorf("transition %q = %+v, want %+v", t.ID, u, t)
		}
	}
	return nil
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
		{"nested", func(c *chart.Chart) { c.States[1].Parent = "a" }, scxml.WriteOptions{}, `state "b" is inside state "a": Write writes flat charts`},
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
			var l chart.Diagnostics
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
