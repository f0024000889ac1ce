package compile_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

// fallbackDiags returns the diagnostics of l about the chart's Fallback.
func fallbackDiags(l diag.List) diag.List {
	var out diag.List
	for _, d := range l {
		if strings.Contains(d.Message, "fallback") {
			out = append(out, d)
		}
	}
	return out
}

// TestFallback warns when the chart's Fallback is not the name of one of
// its states, as the table names them, at where the drawing names it;
// the warning does not stop the compile.
func TestFallback(t *testing.T) {
	st := stencil(t)
	at := diag.Pos{File: "goomba.drawio", Page: "Page-1", Shape: "0", Line: 3, Col: 9}
	nested := func(fallback string) *chart.Chart {
		c := &chart.Chart{Name: "nested", File: "t", Fallback: fallback, States: []chart.State{
			initial(state("p", "alive")), initial(state("a", "walk")), state("b", "run"),
		}, Transitions: []chart.Transition{uml("t1", "a", "go", "b"), uml("t2", "b", "stop", "a")}}
		c.States[1].Parent, c.States[2].Parent = "p", "p"
		return c
	}
	plain := func(fallback string) *chart.Chart {
		c := &chart.Chart{Name: "plain", File: "t", Fallback: fallback, States: []chart.State{
			kind(chart.StartState, state("s", "")), state("a", "Idle"), state("b", "Idle"),
		}, Transitions: []chart.Transition{uml("t0", "s", "", "a"), uml("t1", "a", "go", "b"), uml("t2", "b", "stop", "a")}}
		return c
	}
	long := strings.Repeat("x", 300)
	for _, tt := range []struct {
		name string
		c    *chart.Chart
		want string // the warning as it renders, "" for none
	}{
		{"none", goombaChart(st, nil), ""},
		{"a state", func() *chart.Chart { c := goombaChart(st, nil); c.Fallback = "death"; return c }(), ""},
		{"no such state, where read", func() *chart.Chart {
			c := goombaChart(st, nil)
			c.Fallback, c.FallbackPos = "jump", at
			return c
		}(), `goomba.drawio:3:9: page "Page-1", shape 0: warning: compile: fallback "jump" is not the name of a state of the chart`},
		{"no such state, no position", func() *chart.Chart { c := goombaChart(st, nil); c.Fallback = "jump"; return c }(),
			`t: warning: compile: fallback "jump" is not the name of a state of the chart`},
		{"names are told apart by case", func() *chart.Chart { c := goombaChart(st, nil); c.Fallback = "WalkLeft"; return c }(),
			`t: warning: compile: fallback "WalkLeft" is not the name of a state of the chart`},
		{"plain", func() *chart.Chart { c := goombaChart(nil, nil); c.Fallback = "walkRight"; return c }(), ""},
		{"plain, renamed in the table", plain("Idle#2"), ""},
		{"plain, a start is no state", func() *chart.Chart { c := plain(""); c.States[0].Name = "begin"; c.Fallback = "begin"; return c }(),
			`t: warning: compile: fallback "begin" is not the name of a state of the chart`},
		{"statechart, a compound", nested("alive"), ""},
		{"statechart, a child", nested("run"), ""},
		{"statechart, no such state", nested("fly"), `t: warning: compile: fallback "fly" is not the name of a state of the chart`},
		{"statechart, not the final state added", func() *chart.Chart {
			c := nested("final")
			c.Transitions = append(c.Transitions, uml("t3", "b", "die", "final"))
			return c
		}(), `t: warning: compile: fallback "final" is not the name of a state of the chart`},
		{"a name cut as the table cuts it", func() *chart.Chart {
			c := goombaChart(nil, []chart.State{state("9", long)}, trans("10", "9", "x", "1"), trans("11", "1", "y", "9"))
			c.Fallback = long
			return c
		}(), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := compile.Compile(tt.c, compile.Options{})
			checkResult(t, r, err)
			if r.Table == nil {
				t.Fatalf("Compile = no table:\n%s", render(r.Diagnostics))
			}
			got := fallbackDiags(r.Diagnostics)
			if tt.want == "" {
				if len(got) > 0 {
					t.Errorf("Compile: diagnostics\n%swant none about the fallback", render(got))
				}
				if name := tt.c.Fallback; name != "" {
					if _, ok := r.Table.LookupState(name[:min(len(name), table.MaxName)]); !ok {
						t.Errorf("Compile: the table has no state %q", name)
					}
				}
				return
			}
			if len(got) != 1 || got[0].Error() != tt.want || got[0].Severity != diag.Warning || !errors.Is(got[0], compile.ErrMissingState) ||
				got[0].Hint != "name one of the drawing's states, or leave it empty for the initial state" {
				t.Errorf("Compile: diagnostics\n%swant the warning %s, ErrMissingState, with its hint", render(got), tt.want)
			}
			if checked := fallbackDiags(compile.Check(tt.c, compile.Options{})); render(checked) != render(got) {
				t.Errorf("Check: diagnostics\n%swant Compile's\n%s", render(checked), render(got))
			}
		})
	}
}

// TestFallbackDrawn compiles drawings whose Fallback names no state:
// the warning is where the designer wrote it, in each format.
func TestFallbackDrawn(t *testing.T) {
	const graph = `<graph edgedefault="directed" id="G">`
	for _, tt := range []struct {
		name string
		read func() (*chart.Chart, error)
		want string
	}{
		{"drawio", func() (*chart.Chart, error) {
			return drawio.Read(strings.NewReader(`<mxfile><diagram id="p1" name="Door"><mxGraphModel><root>`+
				`<object label="" fsmforgeFallback="ajar" id="0"><mxCell/></object><mxCell id="1" parent="0"/>`+
				`<mxCell id="s" value="" style="ellipse;shape=startState;" vertex="1" parent="1"><mxGeometry width="30" height="30" as="geometry"/></mxCell>`+
				`<mxCell id="o" value="opened" style="rounded=1;" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`+
				`<mxCell id="c" value="closed" style="rounded=1;" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`+
				`<mxCell id="e0" edge="1" parent="1" source="s" target="o"><mxGeometry relative="1" as="geometry"/></mxCell>`+
				`<mxCell id="e1" value="close" edge="1" parent="1" source="o" target="c"><mxGeometry relative="1" as="geometry"/></mxCell>`+
				`<mxCell id="e2" value="open" edge="1" parent="1" source="c" target="o"><mxGeometry relative="1" as="geometry"/></mxCell>`+
				`</root></mxGraphModel></diagram></mxfile>`), drawio.Options{File: "door.drawio"})
		}, `door.drawio:1:58: page "Door", shape 0: warning: compile: fallback "ajar"`},
		{"scxml", func() (*chart.Chart, error) {
			return scxml.Read(strings.NewReader(`<?xml version="1.0"?>`+"\n"+
				`<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" version="1.0" initial="opened" ff:fallback="ajar">`+"\n"+
				`<state id="opened"><transition event="close" target="closed"/></state><state id="closed"><transition event="open" target="opened"/></state></scxml>`),
				scxml.Options{File: "door.scxml"})
		}, `door.scxml:2:1: warning: compile: fallback "ajar"`},
		{"graphml", func() (*chart.Chart, error) {
			return graphml.Read(strings.NewReader(`<?xml version="1.0"?>`+"\n"+
				`<graphml xmlns="http://graphml.graphdrawing.org/xmlns">`+"\n"+
				`<key attr.name="fsmforgeFallback" attr.type="string" for="graph" id="fb"/>`+"\n"+
				graph+`<data key="fb">ajar</data>`+
				`<node id="s"/><node id="o"/><node id="c"/><edge source="s" target="o"/><edge source="o" target="c"/><edge source="c" target="o"/></graph></graphml>`),
				graphml.Options{File: "door.graphml"})
		}, `door.graphml:4:38: warning: compile: fallback "ajar"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.read()
			if err != nil {
				t.Fatal(err)
			}
			r, err := compile.Compile(c, compile.Options{})
			checkResult(t, r, err)
			got := fallbackDiags(r.Diagnostics)
			if len(got) != 1 || !strings.HasPrefix(got[0].Error(), tt.want) || !strings.Contains(got[0].Error(), `compile: fallback "ajar" is not the name of a state of the chart`) {
				t.Errorf("Compile: diagnostics\n%swant one at %s", render(r.Diagnostics), tt.want)
			}
		})
	}
}
