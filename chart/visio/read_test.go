package visio_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// TestGoomba reads examples/goomba/goomba.vdx with its stencil: the article's
// patroller, without a single diagnostic.
func TestGoomba(t *testing.T) {
	c, err := visio.ReadFile("../../examples/goomba/goomba.vdx", visio.Options{Stencil: charttest.Stencil(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %v, want none", c.Diagnostics)
	}
	if c.Name != "goomba" || c.File != "../../examples/goomba/goomba.vdx" || c.Stencil == nil || c.Stencil.Name != "goomba" {
		t.Errorf("chart %q from %q with stencil %v", c.Name, c.File, c.Stencil)
	}
	type state struct {
		id, name string
		initial  bool
		entry    string
	}
	var states []state
	for _, s := range c.States {
		var entry []string
		for _, a := range s.Entry {
			entry = append(entry, a.Property+"="+a.Value)
			if a.Pos.Line == 0 || a.Pos.Shape != s.ID {
				t.Errorf("state %s: action %s at %v", s.Name, a.Property, a.Pos)
			}
		}
		states = append(states, state{s.ID, s.Name, s.Initial, strings.Join(entry, " ")})
		if s.Kind != chart.NormalState || s.Pos.Page != "Page-1" || s.Pos.ShapeName != s.Name || s.Pos.Line == 0 {
			t.Errorf("state %s: kind %v at %v", s.Name, s.Kind, s.Pos)
		}
	}
	wantStates := []state{
		{"1", "walkLeft", true, "XMovement=left Animation=moveLeft"},
		{"2", "walkRight", false, "XMovement=right Animation=moveRight"},
		{"3", "death", false, "XMovement=death Animation=death"},
	}
	if !slices.Equal(states, wantStates) {
		t.Errorf("states = %+v\nwant %+v", states, wantStates)
	}
	var transitions []string
	for _, tr := range c.Transitions {
		transitions = append(transitions, fmt.Sprintf("%s: %s -%s-> %v #%d", tr.ID, tr.From, tr.Test, tr.Target, tr.Order))
		if tr.Label != tr.Test || tr.Value != "" || tr.Push || tr.AnyState || tr.Pos.Line == 0 || tr.Pos.Shape != tr.ID {
			t.Errorf("transition %+v", tr)
		}
	}
	wantTransitions := []string{
		"4: 1 -hitTriggerLeft-> 2 #1",
		"5: 2 -hitTriggerRight-> 1 #1",
		"6: 1 -hitByPlayer-> 3 #2",
		"7: 2 -hitByPlayer-> 3 #2",
		"8: 3 -animationDone-> (final) #1",
	}
	if !slices.Equal(transitions, wantTransitions) {
		t.Errorf("transitions =\n%s\nwant\n%s", strings.Join(transitions, "\n"), strings.Join(wantTransitions, "\n"))
	}
	if m, _ := c.Stencil.Test("hitByPlayer"); !m.Message {
		t.Errorf("hitByPlayer is not a message test")
	}
}

// TestGoombaPlain reads goomba.vdx without its stencil: the same states,
// named by their text, and the same transitions, labelled by theirs. The
// death transition's Final property is the stencil's: read without it, its
// free end is warned about.
func TestGoombaPlain(t *testing.T) {
	c, err := visio.ReadFile("../../examples/goomba/goomba.vdx", visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.States {
		got = append(got, s.ID+" "+s.Name)
	}
	for _, tr := range c.Transitions {
		got = append(got, fmt.Sprintf("%s -%s-> %v", tr.From, tr.Event, tr.Target))
	}
	want := []string{"1 walkLeft", "2 walkRight", "3 death",
		"1 -hitTriggerLeft-> 2", "2 -hitTriggerRight-> 1", "1 -hitByPlayer-> 3", "2 -hitByPlayer-> 3", "3 -animationDone-> (final)"}
	if !slices.Equal(got, want) {
		t.Errorf("plain reading = %q\nwant %q", got, want)
	}
	checkDiags(t, c.Diagnostics, []wantDiag{{diag.Warning, `shape 8 "animationDone": warning: visio: the end of the connector is glued to no state: taken as a transition to the final state, which ends the machine`}})
}

// goomba is vdxgen.Goomba with the death transition (shape 8), whose end
// is free, marked Final, as examples/goomba/goomba.vdx marks it: the
// Transition master has a Final row, false, and shape 8 sets it true.
func goomba(extra []vdxgen.Shape, glue ...[]vdxgen.Connect) *vdxgen.Drawing {
	d := vdxgen.Goomba(extra, glue...)
	for i := range d.Masters {
		if m := &d.Masters[i]; m.ID == vdxgen.MasterTransition {
			m.Shape.Props = append(m.Shape.Props, vdxgen.Prop{Row: "Final", Label: "Final", Value: "0", Type: 3})
		}
	}
	if s := &d.Pages[0].Shapes[7]; s.ID == "8" {
		s.Props = append(s.Props, final("1"))
	}
	return d
}

// final is a transition's Final row set to v.
func final(v string) vdxgen.Prop { return vdxgen.Prop{Row: "Final", Value: v, Inherit: true} }

// wantDiag is an expected diagnostic: its severity and text in its rendering.
type wantDiag struct {
	sev  diag.Severity
	text string
}

func checkDiags(t *testing.T, got diag.List, want []wantDiag) {
	t.Helper()
	var lines []string
	for _, d := range got {
		lines = append(lines, d.Severity.String()+": "+d.Error())
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(d diag.Diagnostic) bool { return d.Severity == w.sev && strings.Contains(d.Error(), w.text) }) {
			t.Errorf("want %v %q among the diagnostics:\n%s", w.sev, w.text, strings.Join(lines, "\n"))
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d diagnostics, want %d:\n%s", len(got), len(want), strings.Join(lines, "\n"))
	}
}

// summary renders a chart's transitions as "from -test-> target #order",
// with "*" for any state and "+" for a push.
func summary(c *chart.Chart) []string {
	var out []string
	for _, tr := range c.Transitions {
		from := tr.From
		if tr.AnyState {
			from = "*"
		}
		push := ""
		if tr.Push {
			push = "+"
		}
		out = append(out, fmt.Sprintf("%s -%s%s-> %v #%d", from, tr.Test, push, tr.Target, tr.Order))
	}
	return out
}

// TestStencilDrawings reads drawings made with the goomba stencil: what is
// read, and what is reported where.
func TestStencilDrawings(t *testing.T) {
	st := charttest.Stencil(t)
	base := []string{"1 -hitTriggerLeft-> 2 #1", "2 -hitTriggerRight-> 1 #1", "1 -hitByPlayer-> 3 #2", "2 -hitByPlayer-> 3 #2", "3 -animationDone-> (final) #1"}
	handler := vdxgen.Shape{ID: "9", Name: "Message Handler", Master: "5", Text: "on hit"}
	for _, tt := range []struct {
		name  string
		d     *vdxgen.Drawing
		want  []string // summary of the transitions, if not nil
		diags []wantDiag
	}{
		{"goomba", goomba(nil), base, nil},
		{"any state, push and return",
			goomba([]vdxgen.Shape{
				handler,
				vdxgen.Shape{ID: "10", Name: "State.10", Master: "3", Text: "stunned", Props: []vdxgen.Prop{{Row: "Name", Value: "stunned", Inherit: true}}},
				vdxgen.Transition("11", "hitByPlayer", vdxgen.Prop{Row: "Stack", Value: "push", Inherit: true}),
				vdxgen.Transition("12", "animationDone", vdxgen.Prop{Row: "Stack", Value: "return", Inherit: true}, vdxgen.Prop{Row: "Order", Value: "3", Inherit: true}),
			}, vdxgen.Glue("11", "9", "10"), vdxgen.Glue("12", "10", "")),
			append(slices.Clone(base), "* -hitByPlayer+-> 10 #1", "10 -animationDone-> (return) #3"), nil},
		{"order", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", vdxgen.Prop{Row: "Order", Value: "7", Inherit: true})}, vdxgen.Glue("9", "3", "1")),
			append(replaced(base, "3 -animationDone-> (final) #1", "3 -animationDone-> (final) #8"), "3 -animationDone-> 1 #7"),
			[]wantDiag{{diag.Warning, `visio: state "death": 1 of 2 transitions have an order and 1 has none; those without one are tried after those with one, in document order: 1. "animationDone" (order 7), 2. "animationDone" (no order)`}}},
		{"test value", goomba([]vdxgen.Shape{vdxgen.Transition("9", "hitTriggerLeft", vdxgen.Prop{Row: "Value", Value: "2", Inherit: true})}, vdxgen.Glue("9", "3", "1")),
			append(slices.Clone(base), "3 -hitTriggerLeft-> 1 #2"), nil},
		{"copied master and twice glued", func() *vdxgen.Drawing {
			d := vdxgen.Goomba([]vdxgen.Shape{vdxgen.State("9", "6", "hiding", "existing", "existing")}, vdxgen.Glue("8", "3", "9"))
			m := vdxgen.GoombaMasters()[1]
			m.ID, m.Name = "6", "State.6"
			d.Masters = append(d.Masters, m)
			return d
		}(), append(slices.Clone(base[:4]), "3 -animationDone-> 9 #1"),
			[]wantDiag{{diag.Warning, `shape 8 "animationDone": warning: visio: a second Connect row glues the start of the connector; the first is kept`}}},
		{"unknown value", goomba([]vdxgen.Shape{vdxgen.State("9", "3", "jumping", "jump", "moveLeft")}),
			base, []wantDiag{{diag.Error, `shape 9 "jumping": visio: state "jumping": XMovement value "jump" is not in the drop-list of stencil "goomba"`}}},
		{"unknown test", goomba([]vdxgen.Shape{vdxgen.Transition("9", "jump")}, vdxgen.Glue("9", "3", "1")),
			base, []wantDiag{{diag.Error, `shape 9 "jump": visio: test "jump" is not in stencil "goomba"`}}},
		{"no test", goomba([]vdxgen.Shape{vdxgen.Transition("9", "")}, vdxgen.Glue("9", "3", "1")),
			base, []wantDiag{{diag.Error, `visio: transition without a test`}}},
		{"dangling start", goomba([]vdxgen.Shape{vdxgen.Transition("9", "hitByPlayer")}, vdxgen.Glue("9", "", "1")),
			base, []wantDiag{{diag.Error, `shape 9 "hitByPlayer": visio: the start of the transition is glued to no state`}}},
		{"stale glue", goomba([]vdxgen.Shape{vdxgen.Transition("9", "hitByPlayer")}, vdxgen.Glue("9", "1", "99")),
			base, []wantDiag{{diag.Error, `the end of the transition is glued to shape 99, which is not on the page`}}},
		{"stale connector", goomba(nil, vdxgen.Glue("98", "1", "2")),
			base, []wantDiag{{diag.Warning, `t.vdx:44:1: page "Page-1": warning: visio: a Connect row glues shape 98, which is not on the page; ignored`},
				{diag.Warning, `t.vdx:45:1: page "Page-1": warning: visio: a Connect row glues shape 98, which is not on the page; ignored`}}},
		{"glued to a transition", goomba([]vdxgen.Shape{vdxgen.Transition("9", "hitByPlayer")}, vdxgen.Glue("9", "4", "1")),
			base, []wantDiag{{diag.Error, `the start of the transition is glued to shape 4 "hitTriggerLeft", which is not a state`}}},
		{"ends at a handler", goomba([]vdxgen.Shape{handler, vdxgen.Transition("10", "hitByPlayer")}, vdxgen.Glue("10", "1", "9")),
			base, []wantDiag{{diag.Error, `the end of the transition is glued to shape 9 "on hit", which is not a state`}}},
		{"returning end glued", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", vdxgen.Prop{Row: "Stack", Value: "return", Inherit: true})}, vdxgen.Glue("9", "3", "1")),
			base, []wantDiag{{diag.Error, `a returning transition is glued at its end to state 1`}}},
		{"bad order and stack", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", vdxgen.Prop{Row: "Order", Value: "first", Inherit: true}, vdxgen.Prop{Row: "Stack", Value: "pop", Inherit: true})}, vdxgen.Glue("9", "3", "1")),
			base, []wantDiag{{diag.Error, `order "first" is not a whole number`}, {diag.Error, `stack operation "pop" is not one of none, push, return`}}},
		{"unknown master", func() *vdxgen.Drawing {
			d := goomba([]vdxgen.Shape{{ID: "9", Name: "Process", Master: "6", Text: "Make"}, {ID: "10", Name: "Process.10", Master: "6"}})
			d.Masters = append(d.Masters, vdxgen.Master{ID: "6", Name: "Process", Shape: vdxgen.Shape{ID: "5"}})
			return d
		}(), base, []wantDiag{{diag.Warning, `shape 9 "Make": warning: visio: master "Process" is not in stencil "goomba": its 2 shapes are ignored`}}},
		{"missing master", goomba([]vdxgen.Shape{{ID: "9", Master: "77", Text: "lost"}}),
			base, []wantDiag{{diag.Warning, `shape 9 "lost": warning: visio: shape refers to master 77, which the drawing does not have; it inherits nothing`}}},
		{"unmastered shapes", goomba([]vdxgen.Shape{{ID: "9", Text: "a note"}, {ID: "10", OneD: true, Text: "go"}}, vdxgen.Glue("10", "1", "2")),
			base, []wantDiag{{diag.Warning, `shape 10 "go": warning: visio: connector drawn without a master of stencil "goomba": not a transition; ignored`}, {diag.Note, `page "Page-1": note: visio: 1 shapes drawn without a master are not part of the chart`}}},
		{"another version", func() *vdxgen.Drawing {
			d := goomba(nil)
			d.Masters[1].Shape.Props[1].Format = "existing;right;left" // State: no death
			d.Masters[2].Shape.Props = append(d.Masters[2].Shape.Props, vdxgen.Prop{Row: "Speed", Label: "Speed"})
			d.Masters[0].Shape.Props = d.Masters[0].Shape.Props[:2] // Initial State: no Animation
			return d
		}(), nil, []wantDiag{
			{diag.Warning, `visio: master "Initial State" has no property "Animation", which stencil "goomba" (version 1) lists`},
			{diag.Warning, `visio: master "State": the drop-list of "XMovement" is existing;right;left but stencil "goomba" (version 1) lists existing;right;left;death: the drawing was made with another version of the stencil`},
			{diag.Warning, `visio: master "Transition": property "Speed" is not in stencil "goomba" (version 1): the values its shapes give it are left out`},
		}},
		{"not a drop-list", func() *vdxgen.Drawing {
			d := goomba(nil)
			d.Masters[2].Shape.Props[0].Type = 0
			return d
		}(), base, []wantDiag{{diag.Warning, `master "Transition": property "Test" is not a drop-list; stencil "goomba" (version 1) lists hitTriggerLeft;animationDone;hitTriggerRight;hitByPlayer`}}},
		{"another stencil", &vdxgen.Drawing{
			Masters: []vdxgen.Master{{ID: "0", Name: "Process", Shape: vdxgen.Shape{ID: "5"}}, {ID: "1", Name: "Dynamic connector", Shape: vdxgen.Shape{ID: "5", OneD: true}}},
			Pages:   []vdxgen.Page{{ID: "0", Name: "Page-1", Shapes: []vdxgen.Shape{{ID: "1", Master: "0", Text: "Make"}, {ID: "2", Master: "1"}}}},
		}, []string{}, []wantDiag{{diag.Error, `visio: the drawing was not made with stencil "goomba": its shapes use masters "Process", "Dynamic connector", none of which is the stencil's "State" or "Transition"`}}},
		{"two pages and a background", func() *vdxgen.Drawing {
			d := goomba(nil)
			d.Pages = append(d.Pages,
				vdxgen.Page{ID: "7", Name: "Background", Background: true, Shapes: []vdxgen.Shape{vdxgen.State("1", "3", "ghost", "existing", "existing")}},
				vdxgen.Page{ID: "4", Name: "Page-2", Shapes: []vdxgen.Shape{vdxgen.State("1", "3", "resting", "existing", "existing"), vdxgen.Transition("2", "animationDone", final("1"))}, Connects: vdxgen.Glue("2", "1", "")})
			return d
		}(), append(slices.Clone(base), "4/1 -animationDone-> (final) #1"), []wantDiag{{diag.Note, `page "Background": note: visio: background page: its shapes are not part of the chart`}}},
		{"free end", vdxgen.Goomba(nil), base, // and no Final row in the master: it is optional
			[]wantDiag{{diag.Warning, `t.vdx:32:1: page "Page-1", shape 8 "animationDone": warning: visio: the end of the connector is glued to no state: taken as a transition to the final state, which ends the machine`}}},
		{"final set on the shape only", func() *vdxgen.Drawing {
			d := vdxgen.Goomba(nil)
			d.Pages[0].Shapes[7].Props = append(d.Pages[0].Shapes[7].Props, final("true"))
			return d
		}(), base, nil},
		{"final not set", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", final("0"))}, vdxgen.Glue("9", "2", "")),
			append(slices.Clone(base), "2 -animationDone-> (final) #3"),
			[]wantDiag{{diag.Warning, `shape 9 "animationDone": warning: visio: the end of the connector is glued to no state: taken as a transition to the final state`}}},
		{"final and glued", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", final("1"))}, vdxgen.Glue("9", "2", "1")),
			base, []wantDiag{{diag.Error, `shape 9 "animationDone": visio: the connector is marked Final, but its end is glued to state 1 "walkLeft"`}}},
		{"final and returns", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", final("yes"), vdxgen.Prop{Row: "Stack", Value: "return", Inherit: true})}, vdxgen.Glue("9", "2", "")),
			base, []wantDiag{{diag.Error, `shape 9 "animationDone": visio: the transition returns (Stack = return) and is marked Final: it cannot do both`}}},
		{"final not a boolean", goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone", final("maybe"))}, vdxgen.Glue("9", "2", "")),
			append(slices.Clone(base), "2 -animationDone-> (final) #3"),
			[]wantDiag{{diag.Warning, `shape 9 "animationDone": warning: visio: Final "maybe" is not 1 or 0 (true or false); ignored`},
				{diag.Warning, `shape 9 "animationDone": warning: visio: the end of the connector is glued to no state: taken as a transition`}}},
		{"free end on a state", func() *vdxgen.Drawing {
			d := goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone")}, vdxgen.Glue("9", "2", ""))
			for i := range d.Pages[0].Shapes[:3] { // 1.5 by 0.75 inches, side by side
				d.Pages[0].Shapes[i].XForm = &vdxgen.XForm{PinX: 1 + 2*float64(i), PinY: 5, Width: 1.5, Height: 0.75}
			}
			d.Pages[0].Shapes[8].XForm = &vdxgen.XForm{BeginX: 3.5, BeginY: 5, EndX: 4.25, EndY: 5.375} // on death's top edge
			return d
		}(), append(slices.Clone(base), "2 -animationDone-> (final) #3"),
			[]wantDiag{{diag.Warning, `shape 9 "animationDone": warning: visio: the end of the connector is glued to no state, though its end lies on state 3 "death": taken as a transition to the final state`}}},
		{"free start on a state", func() *vdxgen.Drawing {
			d := goomba([]vdxgen.Shape{vdxgen.Transition("9", "animationDone")}, vdxgen.Glue("9", "", "1"))
			d.Pages[0].Shapes[2].XForm = &vdxgen.XForm{PinX: 5, PinY: 5, Width: 1.5, Height: 0.75}
			d.Pages[0].Shapes[8].XForm = &vdxgen.XForm{BeginX: 5.7, BeginY: 5.2, EndX: 8, EndY: 8} // inside death
			return d
		}(), base, []wantDiag{{diag.Error, `shape 9 "animationDone": visio: the start of the transition is glued to no state, though it lies on state 3 "death": it is not a transition until it is glued`}}},
		{"state group", func() *vdxgen.Drawing {
			d := goomba([]vdxgen.Shape{
				{ID: "9", Name: "State.9", Master: "6", Text: "grouped", Shapes: []vdxgen.Shape{{ID: "10", MasterShape: "6"}, {ID: "11", MasterShape: "7"}}},
				vdxgen.Transition("12", "animationDone"),
			}, vdxgen.Glue("12", "11", "10"))
			d.Masters = append(d.Masters, vdxgen.Master{ID: "6", Name: "State", Shape: vdxgen.Shape{ID: "5", Text: "state", Props: vdxgen.GoombaMasters()[1].Shape.Props, Shapes: []vdxgen.Shape{{ID: "6"}, {ID: "7", Text: "name"}}}})
			return d
		}(), append(slices.Clone(base), "9 -animationDone-> 9 #1"), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := visio.Read(bytes.NewReader(tt.d.Bytes()), visio.Options{File: "t.vdx", Stencil: st})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			checkChart(t, c, err)
			checkDiags(t, c.Diagnostics, tt.diags)
			if (err != nil) != c.Diagnostics.HasErrors() {
				t.Errorf("Read error = %v with diagnostics %v", err, c.Diagnostics)
			}
			if tt.want != nil && !slices.Equal(summary(c), tt.want) {
				t.Errorf("transitions =\n%s\nwant\n%s", strings.Join(summary(c), "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestStencilValues reads test values against a stencil whose test lists
// them.
func TestStencilValues(t *testing.T) {
	st := charttest.Stencil(t)
	st2 := *st
	st2.Tests = slices.Clone(st.Tests)
	st2.Tests[0].Values = []string{"1", "2"}
	d := goomba([]vdxgen.Shape{
		vdxgen.Transition("9", "hitTriggerLeft", vdxgen.Prop{Row: "Value", Value: "2", Inherit: true}),
		vdxgen.Transition("10", "hitTriggerLeft", vdxgen.Prop{Row: "Value", Value: "3", Inherit: true}),
	}, vdxgen.Glue("9", "3", "1"), vdxgen.Glue("10", "3", "2"))
	c, err := visio.Read(bytes.NewReader(d.Bytes()), visio.Options{File: "v.vdx", Stencil: &st2})
	if err == nil || !strings.Contains(err.Error(), `visio: test "hitTriggerLeft" does not take value "3"`) {
		t.Errorf("Read = %v, want an error about value 3", err)
	}
	if got := summary(c); len(got) != 6 || got[5] != "3 -hitTriggerLeft-> 1 #2" || c.Transitions[5].Value != "2" {
		t.Errorf("transitions = %q", got)
	}
}

// TestUnknownValuePosition checks that a bad drop-list value is reported
// at its row, with the hint listing the drop-list.
func TestUnknownValuePosition(t *testing.T) {
	d := goomba([]vdxgen.Shape{vdxgen.State("9", "3", "jumping", "jump", "moveLeft")})
	src := d.Bytes()
	c, err := visio.Read(bytes.NewReader(src), visio.Options{File: "t.vdx", Stencil: charttest.Stencil(t)})
	var l diag.List
	if !errors.As(err, &l) || len(l) != 1 {
		t.Fatalf("Read = %v", err)
	}
	line := 1 + bytes.Count(src[:bytes.Index(src, []byte("<Prop NameU='XMovement' ID='9'><Value Unit='STR'>jump"))], []byte("\n"))
	want := fmt.Sprintf(`t.vdx:%d:`, line)
	if got := l[0].Error(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, `page "Page-1", shape 9 "jumping": visio: state "jumping": XMovement value "jump" is not in the drop-list of stencil "goomba"`) {
		t.Errorf("Error() = %q, want it to start with %q", got, want)
	}
	if l[0].Hint != "pick one of existing, right, left, death in the state's Shape Data" {
		t.Errorf("Hint = %q", l[0].Hint)
	}
	if len(c.States) != 4 || len(c.States[3].Entry) != 1 || c.States[3].Entry[0].Value != "moveLeft" {
		t.Errorf("states = %+v", c.States)
	}
}

// TestPlainDiagrams reads diagrams without a stencil.
func TestPlainDiagrams(t *testing.T) {
	box := func(id, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, Text: text} }
	line := func(id, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, OneD: true, Text: text} }
	page := func(shapes []vdxgen.Shape, glue ...[]vdxgen.Connect) *vdxgen.Drawing {
		pg := vdxgen.Page{ID: "0", Name: "Page-1", Shapes: shapes}
		for _, g := range glue {
			pg.Connects = append(pg.Connects, g...)
		}
		return &vdxgen.Drawing{Pages: []vdxgen.Page{pg}}
	}
	type state struct {
		id, name string
		kind     chart.StateKind
	}
	for _, tt := range []struct {
		name   string
		d      *vdxgen.Drawing
		states []state
		want   []string // "from -event [guard] / action-> target"
		diags  []wantDiag
	}{
		{"uml labels", page([]vdxgen.Shape{box("1", "Idle"), box("2", "Busy\nworking"), line("3", "start(job) [ready && n > 0] / begin(); log(\"a/b\")"),
			line("4", "[done]"), line("5", "timeout / reset"), line("6", "  finish  ")},
			vdxgen.Glue("3", "1", "2"), vdxgen.Glue("4", "2", "1"), vdxgen.Glue("5", "2", ""), vdxgen.Glue("6", "2", "2")),
			[]state{{"1", "Idle", chart.NormalState}, {"2", "Busy working", chart.NormalState}},
			[]string{`1 -start(job) [ready && n > 0] / begin(); log("a/b")-> 2`, "2 - [done] / -> 1", "2 -timeout [] / reset-> (final)", "2 -finish [] / -> 2"},
			[]wantDiag{{diag.Warning, `shape 5 "timeout / reset": warning: visio: the end of the connector is glued to no state: taken as a transition to the final state, which ends the machine`}}},
		{"final marked", func() *vdxgen.Drawing {
			end := line("4", "stop")
			end.Props = []vdxgen.Prop{{Row: "fsmforgeFinal", Value: "1", Type: 3}}
			glued := line("5", "halt")
			glued.Props = []vdxgen.Prop{{Row: "fsmforgeFinal", Value: "TRUE", Type: 3}}
			atEnd := line("7", "done")
			atEnd.Props = []vdxgen.Prop{{Row: "fsmforgeFinal", Value: "1", Type: 3}}
			odd := line("8", "quit")
			odd.Props = []vdxgen.Prop{{Row: "fsmforgeFinal", Value: "sure", Type: 0}}
			d := page([]vdxgen.Shape{box("1", "Idle"), box("2", "Busy"), line("3", "go"), end, glued, {ID: "6", Master: "0"}, atEnd, odd},
				vdxgen.Glue("3", "1", "2"), vdxgen.Glue("4", "2", ""), vdxgen.Glue("5", "2", "1"), vdxgen.Glue("7", "1", "6"), vdxgen.Glue("8", "1", ""))
			d.Masters = []vdxgen.Master{{ID: "0", Name: "Final state", Shape: vdxgen.Shape{ID: "5"}}}
			return d
		}(), []state{{"1", "Idle", chart.NormalState}, {"2", "Busy", chart.NormalState}, {"6", "", chart.EndState}},
			[]string{"1 -go [] / -> 2", "2 -stop [] / -> (final)", "1 -done [] / -> 6", "1 -quit [] / -> (final)"},
			[]wantDiag{{diag.Error, `shape 5 "halt": visio: the connector is marked fsmforgeFinal, but its end is glued to state 1 "Idle"`},
				{diag.Warning, `shape 8 "quit": warning: visio: fsmforgeFinal "sure" is not 1 or 0 (true or false); ignored`},
				{diag.Warning, `shape 8 "quit": warning: visio: the end of the connector is glued to no state: taken as a transition to the final state`}}},
		{"pseudo-states", func() *vdxgen.Drawing {
			d := page([]vdxgen.Shape{
				{ID: "1", Master: "0"}, {ID: "2", Master: "1", Text: "?"}, {ID: "3", Master: "2"}, {ID: "4", Master: "3", Text: "Start"},
				{ID: "5", Master: "3", Text: "End"}, {ID: "6", Name: "com.lucidchart.UMLEndBlock.6"}, {ID: "7", Master: "4", Text: "Legend"},
			})
			d.Masters = []vdxgen.Master{{ID: "0", Name: "Initial state", Shape: vdxgen.Shape{ID: "5"}}, {ID: "1", Name: "Decision", Shape: vdxgen.Shape{ID: "5"}}, {ID: "2", Name: "com.lucidchart.UMLEndBlock30", Shape: vdxgen.Shape{ID: "5"}},
				{ID: "3", Name: "Start/End", Shape: vdxgen.Shape{ID: "5"}}, {ID: "4", Name: "Legend", Shape: vdxgen.Shape{ID: "5"}}}
			return d
		}(), []state{{"1", "", chart.StartState}, {"2", "?", chart.ChoiceState}, {"3", "", chart.EndState}, {"4", "Start", chart.StartState},
			{"5", "End", chart.EndState}, {"6", "", chart.EndState}, {"7", "Legend", chart.NormalState}}, nil, nil},
		{"groups", page([]vdxgen.Shape{
			{ID: "1", Shapes: []vdxgen.Shape{box("2", "inner A"), box("3", "inner B"), box("4", "decoration")}},
			{ID: "5", Text: "Frame", Shapes: []vdxgen.Shape{box("6", "in frame")}},
			{ID: "7", Type: "Guide"}, {ID: "8", Type: "Foreign"},
			line("9", "go"), line("10", "back"),
		}, vdxgen.Glue("9", "2", "3"), vdxgen.Glue("10", "3", "5")),
			[]state{{"2", "inner A", chart.NormalState}, {"3", "inner B", chart.NormalState}, {"5", "Frame", chart.NormalState}},
			[]string{"2 -go [] / -> 3", "3 -back [] / -> 5"}, nil},
		{"loose connectors", page([]vdxgen.Shape{box("1", "A"), line("2", "x"), line("3", "y"), line("4", "z"), line("5", "w"), line("6", "")},
			vdxgen.Glue("2", "", ""), vdxgen.Glue("3", "", "1"), vdxgen.Glue("4", "2", "1"), vdxgen.Glue("5", "1", "99")),
			[]state{{"1", "A", chart.NormalState}}, nil,
			[]wantDiag{{diag.Warning, `shape 2 "x": warning: visio: the connector is glued to no shape: not a transition; ignored`},
				{diag.Note, `shape 6: note: visio: connector glued to no shape; ignored`},
				{diag.Warning, `shape 3 "y": warning: visio: the start of the connector is glued to no state; ignored`},
				{diag.Warning, `shape 4 "z": warning: visio: the start of the connector is glued to shape 2 "x", which is not a state; ignored`},
				{diag.Warning, `shape 5 "w": warning: visio: the end of the connector is glued to shape 99, which is not on the page; ignored`}}},
		{"drawn but not glued", func() *vdxgen.Drawing {
			at := func(s vdxgen.Shape, x *vdxgen.XForm) vdxgen.Shape { s.XForm = x; return s }
			return page([]vdxgen.Shape{
				at(box("1", "A"), &vdxgen.XForm{PinX: 2, PinY: 5, Width: 2, Height: 1}),
				at(box("2", "B"), &vdxgen.XForm{PinX: 6, PinY: 5, Width: 2, Height: 1}),
				at(box("3", "Big"), &vdxgen.XForm{PinX: 4, PinY: 2, Width: 6, Height: 2}),
				at(line("4", "go"), &vdxgen.XForm{BeginX: 3, BeginY: 5, EndX: 5, EndY: 5}),      // from A's edge to B's
				at(line("5", "back"), &vdxgen.XForm{BeginX: 6, BeginY: 4.45, EndX: 9, EndY: 9}), // from under B, within 1/16 inch
				at(line("6", "off"), &vdxgen.XForm{BeginX: 7.5, BeginY: 8, EndX: 6, EndY: 5}),   // from nowhere to B
			})
		}(), []state{{"1", "A", chart.NormalState}, {"2", "B", chart.NormalState}, {"3", "Big", chart.NormalState}}, []string{},
			[]wantDiag{{diag.Error, `shape 4 "go": visio: the connector is glued to no shape, though its start lies on state 1 "A" and its end on state 2 "B": it is not a transition until its ends are glued`},
				{diag.Error, `shape 5 "back": visio: the connector is glued to no shape, though its start lies on state 2 "B": it is not a transition until its ends are glued`},
				{diag.Warning, `shape 6 "off": warning: visio: the connector is glued to no shape: not a transition; ignored`}}},
		{"text besides the name", func() *vdxgen.Drawing {
			uml := vdxgen.Shape{ID: "5", Shapes: []vdxgen.Shape{{ID: "6", Text: "name"}, {ID: "7", Text: "entry / x"}}}
			d := page([]vdxgen.Shape{box("1", "Idle\nentry / start()\nexit / stop()"), box("2", "Wait for\nthe bus"),
				{ID: "3", Master: "0", Shapes: []vdxgen.Shape{{ID: "4", MasterShape: "6", Text: "Busy"}, {ID: "5", MasterShape: "7", Text: "do / work()"}}},
				line("6", "go")}, vdxgen.Glue("6", "1", "3"))
			d.Masters = []vdxgen.Master{{ID: "0", Name: "State with internal behavior", Shape: uml}}
			return d
		}(), []state{{"1", "Idle", chart.NormalState}, {"2", "Wait for the bus", chart.NormalState}, {"3", "Busy", chart.NormalState}},
			[]string{"1 -go [] / -> 3"},
			[]wantDiag{{diag.Warning, `shape 1 "Idle": warning: visio: state "Idle": the text written in it besides its name is left out: "entry / start() exit / stop()"`},
				{diag.Warning, `shape 3 "Busy": warning: visio: state "Busy": the text written in it besides its name is left out: "do / work()"`}}},
		{"duplicate IDs", page([]vdxgen.Shape{box("1", "A"), box("1", "B"), line("2", "")}, vdxgen.Glue("2", "1", "1")),
			[]state{{"1", "A", chart.NormalState}}, []string{"1 - [] / -> 1"},
			[]wantDiag{{diag.Warning, `p.vdx:12:1: page "Page-1", shape 1 "B": warning: visio: shape ID 1 is used twice on the page; the second shape is ignored`}}},
		{"no pages", &vdxgen.Drawing{}, nil, nil, []wantDiag{{diag.Error, "visio: the drawing has no pages"}}},
		{"background only", &vdxgen.Drawing{Pages: []vdxgen.Page{{ID: "0", Name: "Back", Background: true}}}, nil, nil, []wantDiag{{diag.Error, "visio: the drawing has only background pages"}}},
		{"Visio 2002", func() *vdxgen.Drawing {
			d := page([]vdxgen.Shape{box("1", "A & B"), box("2", "<C>"), line("3", "go")}, vdxgen.Glue("3", "1", "2"))
			d.Namespace = visio.NamespaceVDX2002
			return d
		}(), []state{{"1", "A & B", chart.NormalState}, {"2", "<C>", chart.NormalState}}, []string{"1 -go [] / -> 2"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := visio.Read(bytes.NewReader(tt.d.Bytes()), visio.Options{File: "p.vdx"})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			checkChart(t, c, err)
			checkDiags(t, c.Diagnostics, tt.diags)
			var states []state
			for _, s := range c.States {
				states = append(states, state{s.ID, s.Name, s.Kind})
				if s.Initial != (s.Kind == chart.StartState) {
					t.Errorf("state %s: Initial %v", s.ID, s.Initial)
				}
			}
			if !slices.Equal(states, tt.states) {
				t.Errorf("states = %v\nwant %v", states, tt.states)
			}
			var got []string
			for _, tr := range c.Transitions {
				got = append(got, fmt.Sprintf("%s -%s [%s] / %s-> %v", tr.From, tr.Event, tr.Guard, tr.Action, tr.Target))
				want := tr.Event
				if want == "" {
					want = tr.Guard
				}
				if tr.Test != want {
					t.Errorf("transition %s: Test %q, want %q", tr.ID, tr.Test, want)
				}
			}
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("transitions =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestBadInput feeds files that are not Visio drawings, or broken ones:
// each is refused with a clear error, never a panic.
func TestBadInput(t *testing.T) {
	deepGroups := func(n int) []byte {
		var b strings.Builder
		b.WriteString("<VisioDocument xmlns='" + visio.NamespaceVDX2003 + "'><Pages><Page ID='0'><Shapes>")
		for i := range n {
			fmt.Fprintf(&b, "<Shape ID='%d' Type='Group'><Shapes>", i+1)
		}
		for range n {
			b.WriteString("</Shapes></Shape>")
		}
		b.WriteString("</Shapes></Page></Pages></VisioDocument>")
		return []byte(b.String())
	}
	deepXML := []byte("<VisioDocument xmlns='" + visio.NamespaceVDX2003 + "'>" + strings.Repeat("<x>", 100000) + strings.Repeat("</x>", 100000) + "</VisioDocument>")
	const doc = "<?xml version='1.0'?>\n<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core'>\n"
	for _, tt := range []struct {
		name string
		data []byte
		opt  visio.Options
		err  error
		want string
	}{
		{"empty", nil, visio.Options{}, visio.ErrNotVisio, "b.vdx: visio: the file is empty"},
		{"vsd", []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00\x00"), visio.Options{}, visio.ErrNotVisio, "binary Visio file (.vsd, .vss)"},
		{"gzip", []byte("\x1F\x8B\x08\x00"), visio.Options{}, visio.ErrNotVisio, "gzip-compressed"},
		{"driver", []byte("MZ\x90\x00\x03\x00"), visio.Options{}, visio.ErrNotVisio, "virtual device drivers"},
		{"text", []byte("hello, world"), visio.Options{}, visio.ErrNotVisio, `this is a text file that is not XML, not a Visio XML drawing (it starts with "hello, world")`},
		{"binary", []byte("<\x00\x01\x02"), visio.Options{}, visio.ErrNotVisio, "this is a binary file"},
		{"svg", []byte("<?xml version='1.0'?>\n<svg xmlns='http://www.w3.org/2000/svg'/>"), visio.Options{}, visio.ErrNotVisio, `b.vdx:2:1: visio: this is XML but not a Visio drawing: its root element is <svg> (namespace "http://www.w3.org/2000/svg"), not <VisioDocument>`},
		{"vsdx part", []byte("<VisioDocument xmlns='http://schemas.microsoft.com/office/visio/2012/main'/>"), visio.Options{}, visio.ErrNotVisio, "the document part of a .vsdx package"},
		{"no namespace", []byte("<VisioDocument/>"), visio.Options{}, visio.ErrNotVisio, `<VisioDocument> is in namespace ""`},
		{"unclosed", []byte(doc + "<Pages>\n  <Page ID='0'>\n"), visio.Options{}, visio.ErrMalformed, "b.vdx:5:1: visio: malformed XML: unexpected end of file: <Page> (line 4:3) is not closed"},
		{"mismatched", []byte(doc + "<Pages></Page>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:8: visio: malformed XML: <Pages> (line 3:1) is closed by </Page>"},
		{"entity", []byte(doc + "<Pages><Page Name='a &nbsp; b'/></Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:22: visio: malformed XML: unknown entity &nbsp;"},
		{"ampersand", []byte(doc + "<Pages>Q&A</Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:9: visio: malformed XML: '&' that starts no reference"},
		{"unquoted", []byte(doc + "<Pages><Page ID=0/></Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:17: visio: malformed XML: value of attribute ID of <Page> is not quoted"},
		{"char ref", []byte(doc + "<Pages>&#0;</Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed,
			"b.vdx:3:8: visio: malformed XML: character reference &#0; is U+0000 (a NUL byte), which XML does not allow: the file is damaged or was not written by an XML tool"},
		{"control ref", []byte(doc + "<Pages><Page Name='&#x1B;[31m'/></Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed,
			"b.vdx:3:20: visio: malformed XML: character reference &#x1B; is U+001B (a control character), which XML does not allow"},
		{"NUL", []byte(doc + strings.Repeat(" ", 1024) + "<Pages><Page Name='walk\x00Left'/></Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed,
			"b.vdx:3:1048: visio: malformed XML: character U+0000 (a NUL byte) is not allowed in XML: the file is damaged or was not written by an XML tool"},
		{"control", []byte(doc + "<Pages>\x01</Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:8: visio: malformed XML: character U+0001 (a control character) is not allowed in XML"},
		{"noncharacter", []byte(doc + "<Pages>\uFFFE</Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:8: visio: malformed XML: character U+FFFE (a noncharacter) is not allowed in XML"},
		{"control in comment", []byte(doc + "<!-- \x07 --></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:6: visio: malformed XML: character U+0007 (a control character)"},
		{"NUL early", []byte(doc + "<Pages>\x00</Pages></VisioDocument>"), visio.Options{}, visio.ErrNotVisio,
			`b.vdx:3:8: visio: this is a binary file, not a Visio XML drawing (it starts with "<?xml version='1"...; a NUL byte at byte offset 98)`},
		{"binary", []byte("\x89PNG\r\n\x1a\n\x00\x00"), visio.Options{}, visio.ErrNotVisio, `(it starts with "\x89PNG\r\n\x1a\n\x00\x00"; byte 0x89 (not UTF-8) at byte offset 0)`},
		{"utf-8", []byte(doc + "<Pages>caf\xE9</Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:11: visio: malformed XML: invalid UTF-8 (byte 0xE9 at byte offset 101)"},
		{"utf-8 after BOM", []byte("\xEF\xBB\xBF" + doc + "<Pages>caf\xE9</Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed, "b.vdx:3:11: visio: malformed XML: invalid UTF-8 (byte 0xE9 at byte offset 104)"},
		{"long name", []byte(doc + "<Pages><" + strings.Repeat("n", 1<<20) + "></Pages></VisioDocument>"), visio.Options{}, visio.ErrMalformed,
			"b.vdx:3:1048586: visio: malformed XML: <" + strings.Repeat("n", 64) + "...> (line 3:8) is closed by </Pages>"},
		{"second root", []byte(doc + "</VisioDocument><VisioDocument/>"), visio.Options{}, visio.ErrMalformed, "a second root element"},
		{"text after", []byte(doc + "</VisioDocument>\ntrailing"), visio.Options{}, visio.ErrMalformed, "b.vdx:4:1: visio: malformed XML: text outside the root element"},
		{"encoding", []byte("<?xml version='1.0' encoding='windows-1252'?><VisioDocument/>"), visio.Options{}, visio.ErrMalformed, `encoding "windows-1252" is not supported`},
		{"declaration late", []byte(" <?xml version='1.0'?><VisioDocument/>"), visio.Options{}, visio.ErrMalformed, "XML declaration not at the start"},
		{"comment", []byte(doc + "<!-- never closed"), visio.Options{}, visio.ErrMalformed, "comment not closed"},
		{"too large", []byte(doc + strings.Repeat(" ", 200) + "</VisioDocument>"), visio.Options{MaxSize: 100}, visio.ErrTooLarge, "b.vdx: visio: the file is larger than 100 bytes"},
		{"deep groups", deepGroups(6), visio.Options{MaxDepth: 5}, visio.ErrTooDeep, "visio: groups nested more than 5 deep"},
		{"thousands deep", deepGroups(5000), visio.Options{}, visio.ErrTooDeep, "visio: groups nested more than 100 deep"},
		{"deep XML", deepXML, visio.Options{}, visio.ErrTooDeep, "visio: XML elements nested more than 232 deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.File = "b.vdx"
			c, err := visio.Read(bytes.NewReader(tt.data), tt.opt)
			if c != nil || err == nil {
				t.Fatalf("Read = %.300v, %v, want an error", c, err)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("Read error %q is not %v", err, tt.err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Read error = %.300q, want %q in it", err, tt.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("Read error = %.300q...: %d bytes, want no more than 400", err, len(err.Error()))
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 || l[0].Severity != diag.Error || l[0].Pos.File != "b.vdx" {
				t.Errorf("Read error = %#v, want one diag.Diagnostic", err)
			}
		})
	}
}

// TestEncodings reads the same drawing with a byte-order mark, in UTF-16
// both ways, and through an io.Reader of unknown size.
func TestEncodings(t *testing.T) {
	src := goomba(nil).Bytes()
	src = bytes.Replace(src, []byte("encoding='utf-8'"), []byte("encoding='UTF-16'"), 1)
	utf16 := func(bigEndian bool) []byte {
		var b bytes.Buffer
		if bigEndian {
			b.WriteString("\xFE\xFF")
		} else {
			b.WriteString("\xFF\xFE")
		}
		for _, r := range string(src) { // all in the BMP
			if bigEndian {
				b.WriteByte(byte(r >> 8))
				b.WriteByte(byte(r))
			} else {
				b.WriteByte(byte(r))
				b.WriteByte(byte(r >> 8))
			}
		}
		return b.Bytes()
	}
	utf8 := bytes.Replace(src, []byte("encoding='UTF-16'"), []byte("encoding='utf-8'"), 1)
	for name, data := range map[string][]byte{
		"utf-8 with BOM": append([]byte("\xEF\xBB\xBF"), utf8...),
		"utf-16le":       utf16(false),
		"utf-16be":       utf16(true),
	} {
		t.Run(name, func(t *testing.T) {
			c, err := visio.Read(struct{ *bytes.Reader }{bytes.NewReader(data)}, visio.Options{Stencil: charttest.Stencil(t)})
			if err != nil || len(c.States) != 3 || len(c.Transitions) != 5 {
				t.Errorf("Read = %v", err)
			}
		})
	}
	if _, err := visio.Read(bytes.NewReader(src), visio.Options{}); err == nil || !strings.Contains(err.Error(), "the file says it is in UTF-16 but is not") {
		t.Errorf("Read(UTF-8 that says UTF-16) = %v", err)
	}
	if _, err := visio.Read(bytes.NewReader([]byte("\xFF\xFE<\x00a")), visio.Options{}); err == nil || !strings.Contains(err.Error(), "starts like UTF-16") {
		t.Errorf("Read(odd UTF-16) = %v", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := visio.ReadFile("testdata/none.vdx", visio.Options{})
	if err == nil || err.Error() != "testdata/none.vdx: visio: cannot read the drawing: no such file or directory" {
		t.Errorf("ReadFile(missing) = %v", err)
	}
}

func TestNegativeOptions(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "must not be negative") {
			t.Errorf("Read with MaxSize -1: recover() = %v", r)
		}
	}()
	visio.Read(bytes.NewReader(nil), visio.Options{MaxSize: -1})
}

// TestStencilFile reads a Visio stencil (.vsx: masters, no pages) as a
// drawing.
func TestStencilFile(t *testing.T) {
	d := &vdxgen.Drawing{Masters: vdxgen.GoombaMasters()}
	c, err := visio.Read(bytes.NewReader(d.Bytes()), visio.Options{File: "goomba.vsx"})
	if err == nil || !strings.Contains(err.Error(), "goomba.vsx: visio: the drawing has no pages") || len(c.States) != 0 {
		t.Errorf("Read(stencil) = %v", err)
	}
	if c.Diagnostics[0].Hint == "" {
		t.Errorf("no hint")
	}
}

// replaced returns a copy of list with old replaced by new.
func replaced(list []string, old, new string) []string {
	out := slices.Clone(list)
	for i, s := range out {
		if s == old {
			out[i] = new
		}
	}
	return out
}

// TestRepeatedDiagnostics reads drawings with the same problem in
// hundreds of shapes, quoting a name of 100 KB: the first 100 of a kind
// are listed, then one diagnostic says how many more there are, and no
// message quotes more than a short prefix of the name.
func TestRepeatedDiagnostics(t *testing.T) {
	long := strings.Repeat("m", 100<<10)
	shapes := func(format string) string {
		var b strings.Builder
		for i := range 300 {
			fmt.Fprintf(&b, format, i+1)
		}
		return b.String()
	}
	const head = "<VisioDocument xmlns='" + visio.NamespaceVDX2003 + "'><Pages><Page ID='0' NameU='" + "p" + "'><Shapes>"
	for _, tt := range []struct {
		name, body, kind string
		n                int // diagnostics of the kind
	}{
		{"missing master", shapes("<Shape ID='%d' Master='" + long + "'/>"), "shape refers to master mmmm", 300},
		{"ID used twice", shapes("<Shape ID='" + long + "' Name='%d'/>"), "shape ID mmmm", 299},
		{"Connect rows", "</Shapes><Connects>" + shapes("<Connect FromSheet='"+long+"%d' FromCell='BeginX' ToSheet='1'/>") + "</Connects><Shapes>", "a Connect row glues shape mmmm", 300},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := head + tt.body + "</Shapes></Page></Pages></VisioDocument>"
			c, err := visio.Read(strings.NewReader(src), visio.Options{File: "r.vdx"})
			if c == nil {
				t.Fatalf("Read = %v", err)
			}
			listed, more, size := 0, 0, 0
			for _, d := range c.Diagnostics {
				msg := d.Error()
				size += len(msg)
				if len(msg) > 400 {
					t.Errorf("diagnostic of %d bytes: %.200s...", len(msg), msg)
				}
				switch {
				case strings.Contains(msg, "more of this kind are not listed"):
					more++
					want := fmt.Sprintf("visio: %d more of this kind are not listed (the first 100 are), from this one on: %s", tt.n-100, tt.kind)
					if !strings.Contains(msg, want) {
						t.Errorf("summary = %.300s, want %q in it", msg, want)
					}
				case strings.Contains(msg, tt.kind):
					listed++
				}
			}
			if listed != 100 || more != 1 || size > 100<<10 {
				t.Errorf("%d diagnostics listed and %d summaries, %d bytes in all; want 100, 1 and no more than 100 KiB", listed, more, size)
			}
		})
	}
}
