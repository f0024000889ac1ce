package drawio_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
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
		{"entry without stencil", &chart.Chart{States: []chart.State{{ID: "1", Entry: []chart.Action{{Property: "XMovement", Value: "left"}}}}},
			`state "1" has entry actions, which a chart without a stencil cannot carry`},
		{"push without stencil", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Push: true, Target: chart.Target{Kind: chart.ToFinal}}}},
			`transition "2" has a value, a stack operation or starts in any state`},
		{"shared ID", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "1", From: "1"}}},
			`transition "1" has the ID of a state`},
		{"pseudo-state with stencil", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Kind: chart.StartState}}},
			`state "1" is a start pseudo-state, which a chart drawn with stencil "goomba" cannot have`},
		{"unknown action", &chart.Chart{Stencil: st, States: []chart.State{{ID: "1", Entry: []chart.Action{{Property: "Colour", Value: "red"}}}}},
			`entry action "Colour" is not a property of stencil "goomba"`},
		{"property name", &chart.Chart{Stencil: &chart.Stencil{Name: "s", Masters: chart.Masters{State: "S", Transition: "T"}, Tests: []chart.Test{{Name: "t"}},
			Actions: []chart.Property{{Name: "two words", Values: []string{"a"}}}}},
			`property "two words" cannot be an attribute of a draw.io shape`},
		{"initial without master", &chart.Chart{Stencil: robotStencil(t), States: []chart.State{{ID: "1", Initial: true}}},
			`state "1" is initial, but stencil "robot" has no initial-state master`},
		{"exit actions", &chart.Chart{States: []chart.State{{ID: "1", Exit: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}}}}},
			`state "1" has exit actions, which a drawing cannot carry`},
		{"transition actions", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Target: chart.Target{State: "1"}, Actions: []chart.Action{{Kind: chart.RaiseAction, Event: "e"}}}}},
			`transition "2" has actions, which a drawing cannot carry`},
		{"no target", &chart.Chart{States: []chart.State{state("1")}, Transitions: []chart.Transition{{ID: "2", From: "1", Target: chart.Target{Kind: chart.ToNone}}}},
			`transition "2" has no target, which a drawing cannot carry`},
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
			`state "1" is a parallel state, which a chart drawn with stencil "goomba" cannot have`},
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
