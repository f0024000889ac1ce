package statesmith_test

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/diag"
)

// A drawing, made for StateSmith or a plain UML one, written once and
// saved both as draw.io and as yEd save it, for TestImportersAgree. In a
// UML drawing, a shape labelled "[*]" is a start state, one labelled "H"
// or "H*" a history (drawn in draw.io as its reader expects them).
type drawing struct {
	shapes []shape
	links  []link
}

type shape struct{ id, label, parent string } // parent "": at the top
type link struct{ id, from, to, label string }

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&quot;")
}

// drawioText is the drawing as draw.io saves it, a container for each
// shape that holds others.
func (d drawing) drawioText() string {
	var b strings.Builder
	b.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>`)
	for _, s := range d.shapes {
		style, value, parent := "rounded=1;", s.label, "1"
		switch s.label {
		case "[*]":
			style, value = "ellipse;shape=startState;fillColor=#000000;", ""
		case "H", "H*":
			style = "ellipse;"
		}
		if d.holds(s.id) {
			style += "container=1;"
		}
		if s.parent != "" {
			parent = s.parent
		}
		fmt.Fprintf(&b, `<mxCell id="%s" value="%s" style="%s" vertex="1" parent="%s"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`,
			s.id, esc(value), style, parent)
	}
	for _, l := range d.links {
		fmt.Fprintf(&b, `<mxCell id="%s" value="%s" style="" edge="1" parent="1" source="%s" target="%s"><mxGeometry relative="1" as="geometry"/></mxCell>`,
			l.id, esc(l.label), l.from, l.to)
	}
	b.WriteString(`</root></mxGraphModel>`)
	return b.String()
}

// graphmlText is the drawing as yEd saves it, a group node for each shape
// that holds others.
func (d drawing) graphmlText() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
<key for="node" id="ng" yfiles.type="nodegraphics"/><key for="edge" id="eg" yfiles.type="edgegraphics"/>
<graph edgedefault="directed" id="G">
`)
	d.graphmlNodes(&b, "")
	for _, l := range d.links {
		fmt.Fprintf(&b, `<edge id="%s" source="%s" target="%s"><data key="eg"><y:PolyLineEdge><y:Arrows source="none" target="standard"/><y:EdgeLabel>%s</y:EdgeLabel></y:PolyLineEdge></data></edge>
`, l.id, l.from, l.to, esc(l.label))
	}
	b.WriteString("</graph>\n</graphml>\n")
	return b.String()
}

func (d drawing) graphmlNodes(b *strings.Builder, parent string) {
	for _, s := range d.shapes {
		if s.parent != parent {
			continue
		}
		if !d.holds(s.id) {
			fmt.Fprintf(b, `<node id="%s"><data key="ng"><y:ShapeNode><y:Geometry height="40" width="80" x="0" y="0"/><y:NodeLabel>%s</y:NodeLabel></y:ShapeNode></data></node>
`, s.id, esc(s.label))
			continue
		}
		fmt.Fprintf(b, `<node id="%s" yfiles.foldertype="group"><data key="ng"><y:ProxyAutoBoundsNode><y:Realizers active="0"><y:GroupNode><y:Geometry height="40" width="80" x="0" y="0"/><y:NodeLabel>%s</y:NodeLabel></y:GroupNode></y:Realizers></y:ProxyAutoBoundsNode></data><graph edgedefault="directed" id="%[1]s:">
`, s.id, esc(s.label))
		d.graphmlNodes(b, s.id)
		b.WriteString("</graph></node>\n")
	}
}

func (d drawing) holds(id string) bool {
	return slices.ContainsFunc(d.shapes, func(s shape) bool { return s.parent == id })
}

// flat renders what a chart means, positions and notes aside: its states,
// its transitions, and its errors and warnings without the importer's
// prefix (and graphml's "edge e1: ", which drawio's position says),
// sorted.
func flat(c *chart.Chart) string {
	var lines []string
	for _, s := range c.States {
		lines = append(lines, fmt.Sprintf("state %s %q %v initial=%v", s.ID, s.Name, s.Kind, s.Initial))
	}
	for _, t := range c.Transitions {
		lines = append(lines, fmt.Sprintf("transition %s %s>%v order=%d test=%q event=%q guard=%q action=%q label=%q",
			t.ID, t.From, t.Target, t.Order, t.Test, t.Event, t.Guard, t.Action, t.Label))
	}
	var diags []string
	for _, d := range c.Diagnostics {
		if d.Severity == diag.Note {
			continue
		}
		m := d.Message
		for _, p := range []string{"drawio: ", "graphml: "} {
			m = strings.TrimPrefix(m, p)
		}
		if rest, ok := strings.CutPrefix(m, "edge "); ok {
			if id, after, ok := strings.Cut(rest, ": "); ok && !strings.Contains(id, " ") {
				m = after
			}
		}
		diags = append(diags, d.Severity.String()+": "+m)
	}
	slices.Sort(diags)
	return strings.Join(append(lines, diags...), "\n")
}

// TestImportersAgree reads the same drawings, made for StateSmith or
// plain UML ones, from a draw.io file and from a yEd file: the charts, and
// the errors and warnings, must be the same, and hold what want lists.
func TestImportersAgree(t *testing.T) {
	start := shape{"s", "$initial_state", ""}
	enter := link{"e0", "s", "a", ""}
	for _, tt := range []struct {
		name string
		d    drawing
		want []string
	}{
		{"an event's else",
			drawing{[]shape{start, {"a", "A", ""}, {"b", "B", ""}, {"c", "C", ""}},
				[]link{enter, {"e1", "a", "b", "EV [else]"}, {"e2", "a", "c", "ev [ready]"}}},
			[]string{`transition e1 a>b order=2 test="EV" event="EV" guard=""`, `transition e2 a>c order=1 test="EV" event="EV" guard="ready"`,
				`warning: event ev is read as EV: StateSmith's events ignore case`}},
		{"else StateSmith refuses",
			drawing{[]shape{start, {"a", "A", ""}, {"b", "B", ""}},
				[]link{enter, {"e1", "a", "b", "(EV, else)"}, {"e2", "a", "b", "1. else"}, {"e3", "a", "b", "else [x]"}, {"e4", "a", "b", "1. [else]"}}},
			[]string{`error: behaviour "(EV, else)": else with an order, a trigger or a guard`, `error: behaviour "1. [else]": [else] with an order`}},
		{"triggers of pseudo-states",
			drawing{[]shape{start, {"c", "$choice", ""}, {"g", "G", ""}, {"n", "entry : 1", "g"}, {"a", "A", "g"}, {"x", "exit : 2", "g"}, {"b", "B", ""}},
				[]link{{"e0", "s", "c", "GO"}, {"e1", "c", "b", "EV [x]"}, {"e2", "c", "g", "else"}, {"e3", "n", "a", "do"},
					{"e4", "a", "x", "DONE"}, {"e5", "g", "b", "STOP via exit 2"}, {"e6", "b", "g", "BACK via entry 1"}}},
			[]string{`error: behaviour "GO": a transition from an $initial_state cannot have a trigger`,
				`error: behaviour "EV [x]": a transition from a $choice cannot have a trigger`,
				`error: behaviour "do": a transition from an entry point cannot have a trigger`,
				`error: behaviour "STOP via exit 2": a transition via an exit point leaves from the point, a pseudo-state, so it cannot have a trigger`}},
		{"handlers",
			drawing{[]shape{start, {"g", "G", ""}, {"gi", "$initial_state", "g"},
				{"a", "A\nev / consume_event = false;\n$mod / prefix.auto();\ndo / x++;\nPING [ready] / pong();", "g"},
				{"k", "K\ndo / consume_event = true;\nstop / x++;", "g"}, {"b", "B", ""}},
				[]link{{"e0", "s", "g", ""}, {"e1", "gi", "a", ""}, {"e2", "g", "b", "EV"}, {"e3", "g", "b", "[t > 3]"}, {"e4", "g", "b", "PING"}, {"e5", "g", "b", "STOP"}}},
			[]string{`error: state "A" handles PING itself ("PING [ready] / pong();"), which stops the transition on PING of state "G" ("PING") while the machine is in it and the guard [ready] holds`,
				`error: state "K" consumes the do event ("do / consume_event = true;"), which stops the transition e3 of state "G" ("[t > 3]")`,
				`error: state "K" handles stop itself ("stop / x++;"), which stops the transition on stop of state "G"`,
				`warning: event STOP is read as stop`}},
		{"a state's behaviour StateSmith refuses",
			drawing{[]shape{start, {"a", "A\nEV1 EV2 / x();\nelse / y();\nEV [else] / z();", ""}}, []link{enter}},
			[]string{`error: state "A": behaviour "EV1 EV2 / x();" does not follow StateSmith's grammar`,
				`error: state "A": behaviour "else / y();": else as a trigger is only valid on a transition`}},
		{"initial states inside states",
			drawing{[]shape{start, {"g", "G", ""}, {"gi", "$initial_state", "g"}, {"a", "A", "g"}, {"b", "B", "g"},
				{"h", "HOME", ""}, {"hi", "$initial_state", "h"}, {"c", "C", "h"}},
				[]link{{"e0", "s", "g", ""}, {"e1", "gi", "a", "[x]"}, {"e2", "gi", "b", "else"}, {"e3", "g", "h", "GO"}, {"e4", "hi", "c", "[y]"}}},
			[]string{`error: the initial state of state "G" has 2 transitions`,
				`error: the transition of the initial state of state "HOME" has a trigger or a guard ("[y]")`}},
		{"into an initial state",
			drawing{[]shape{start, {"g", "G", ""}, {"gi", "$initial_state", "g"}, {"a", "A", "g"}, {"b", "B", "g"}},
				[]link{{"e0", "s", "g", ""}, {"e1", "gi", "a", ""}, {"e2", "b", "gi", "RESTART"}, {"e3", "a", "b", "NEXT"}}},
			[]string{`transition e2 b>a order=1 test="RESTART"`}},
		{"labels StateSmith refuses",
			drawing{[]shape{start, {"a", "A", ""}, {"b", "Door open", ""}},
				[]link{enter, {"e1", "a", "b", "enter / x++"}, {"e2", "a", "b", "EV1 EV2"}, {"e3", "a", "b", "2x. EV"}}},
			[]string{`error: behaviour "enter / x++": a transition cannot be taken on enter`,
				`error: behaviour "EV1 EV2" does not follow StateSmith's grammar: unexpected text "EV2"`,
				`warning: state name "Door open" is not a StateSmith identifier`}},
		{"behaviours on one edge",
			drawing{[]shape{start, {"a", "A", ""}, {"b", "B", ""}},
				[]link{enter, {"e1", "a", "b", "NEXT / { }\n2. (EV1, EV2) [ready] / go()\n1.5. do"}}},
			[]string{`transition e1#2 a>b order=2 test="EV1" event="EV1" guard="ready" action="go()"`, `transition e1#3 a>b order=3 test="EV2"`,
				`transition e1#4 a>b order=1 test="" event="" guard="" action="" label="1.5. do"`}},
		{"$ORTHO regions by their numbers",
			drawing{[]shape{start, {"p", "P", ""},
				{"r2", "$ORTHO 2 : LEGS", "p"}, {"r2i", "$initial_state", "r2"}, {"walk", "WALK", "r2"},
				{"r1", "$ORTHO 1 : ARMS", "p"}, {"r1i", "$initial_state", "r1"}, {"wave", "WAVE", "r1"}},
				[]link{{"e0", "s", "p", ""}, {"e1", "r2i", "walk", ""}, {"e2", "r1i", "wave", ""}, {"e3", "p", "walk", "GO"}}},
			[]string{"state p \"P\" parallel initial=false\nstate r1 \"ARMS\" normal initial=false\nstate r1i", "state wave \"WAVE\" normal initial=false\nstate r2 \"LEGS\"",
				`warning: state "P" holds 2 $ORTHO regions, which StateSmith does not generate code for yet`}},
		{"$H and $HC",
			drawing{[]shape{start, {"g", "G", ""}, {"gi", "$initial_state", "g"}, {"h", "$H", "g"}, {"h2", "$H", "g"},
				{"a", "A", "g"}, {"hc", "$HC", "a"}, {"ai", "$initial_state", "a"}, {"a1", "A1", "a"}, {"b", "B", "g"}, {"b1", "B1", "b"},
				{"k", "K", ""}, {"k1", "K1", "k"}, {"x", "X", ""}},
				[]link{{"e0", "s", "g", ""}, {"e1", "gi", "a", ""}, {"e2", "h", "a", "[ready]"}, {"e3", "h", "x", ""}, {"e4", "ai", "a1", ""},
					{"e5", "g", "x", "OUT"}, {"e6", "x", "h", "BACK"}, {"e7", "x", "k", "IN"}}},
			[]string{`state h "" deepHistory`,
				`error: $H h has 2 transitions: a history has one, its default`,
				`error: $H h2 has no transition: StateSmith requires one`,
				`error: $H h2 is the second $H in state "G", after h, which StateSmith refuses`,
				`error: $H h: the $HC carry the history of state "G" into state "A", but not into state "B", which hold no $HC`,
				`error: the transition of $H h has a trigger or a guard ("[ready]")`,
				`error: the transition of $H h goes to "X", which is not inside state "G"`,
				`error: state "B" holds states but no $initial_state, and $H h2 may restore it: StateSmith then stays in "B" itself`,
				`error: state "K" holds states but no $initial_state, and transition e7 enters it`}},
		{"UML history and its default",
			drawing{[]shape{{"s", "[*]", ""}, {"g", "G", ""}, {"gi", "[*]", "g"}, {"h", "H", "g"}, {"k", "H*", "g"}, {"a", "A", "g"}, {"b", "B", "g"}, {"x", "X", ""}},
				[]link{{"e0", "s", "g", ""}, {"e1", "gi", "a", ""}, {"e2", "k", "b", ""}, {"e3", "g", "x", "out"}, {"e4", "x", "h", "back"}, {"e5", "x", "k", "deep"}}},
			[]string{`state h "" history`, `state k "" deepHistory`, `transition e2 k>b order=1`, `transition h#1 h>a order=1 test="" event="" guard=""`}},
		{"UML history errors",
			drawing{[]shape{{"s", "[*]", ""}, {"top", "H", ""}, {"g", "G", ""}, {"gi", "[*]", "g"}, {"a", "A", "g"},
				{"h1", "H", "g"}, {"h2", "H*", "g"}, {"h3", "H", "g"}, {"x", "X", ""}, {"n", "N", ""}, {"h4", "H", "n"}, {"na", "NA", "n"}},
				[]link{{"e0", "s", "g", ""}, {"e1", "gi", "a", ""}, {"e2", "h1", "x", ""}, {"e3", "h2", "a", "[ready]"},
					{"e4", "h3", "a", ""}, {"e5", "h3", "a", ""}, {"e6", "top", "x", ""}, {"e7", "x", "na", "go"}}},
			[]string{`error: history top is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`,
				`error: the transition of history h1 goes to "X", which is not inside state "G": a history enters the states of its own state`,
				`error: the transition of history h2 has a trigger or a guard ("[ready]")`,
				`error: history h3 has 2 transitions: a history has one, its default`,
				`error: history h4 has no transition, and state "N" has no start state whose one transition, nor a state marked initial, says which state to enter`}},
		{"UML compounds entered without an initial state",
			drawing{[]shape{{"s", "[*]", ""}, {"g", "G", ""}, {"a", "A", "g"}, {"b", "B", "g"}, {"n", "N", ""}, {"na", "NA", "n"}, {"nb", "NB", "n"},
				{"m", "M", ""}, {"mi", "[*]", "m"}, {"m1", "M1", "m"}, {"h", "H", "m"}},
				[]link{{"e0", "s", "g", ""}, {"e1", "a", "na", "go"}, {"e2", "mi", "m1", ""}, {"e3", "na", "h", "back"}, {"e4", "b", "m", "on"}}},
			[]string{`error: state "G" holds states but no initial state, and transition e0 enters it: the drawing does not say which of them the machine is then in (a statechart would enter "A", the first in the file)`,
				`transition h#1 h>m1`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dc, _ := drawio.Read(strings.NewReader(tt.d.drawioText()), drawio.Options{File: "x.drawio"})
			gc, _ := graphml.Read(strings.NewReader(tt.d.graphmlText()), graphml.Options{File: "x.graphml"})
			if dc == nil || gc == nil {
				t.Fatalf("drawio.Read = %v, graphml.Read = %v", dc, gc)
			}
			d, g := flat(dc), flat(gc)
			if d != g {
				t.Errorf("draw.io and yEd differ:\ndrawio:\n%s\ngraphml:\n%s", d, g)
			}
			for _, w := range tt.want {
				if !strings.Contains(g, w) {
					t.Errorf("chart lacks %s in\n%s", w, g)
				}
			}
		})
	}
}
