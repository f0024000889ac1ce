package graphml_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/graphml"
)

// TestPlain reads small plain diagrams, not made for StateSmith (no node
// has one of its keywords; see TestStateSmith): the chart, summarised, and
// the diagnostics each must hold (as "severity: message" substrings).
func TestPlain(t *testing.T) {
	start := node("s", "", "shape=ellipse", "box=0,0,20,20")
	for _, tt := range []readCase{
		{
			name: "door",
			text: doc(start, node("a", "Closed"), node("b", "Open"),
				edge("e1", "s", "a", ""), edge("e2", "a", "b", "push [unlocked] / swing()"), edge("e3", "b", "a", "after(5s)")),
			want: "s(start)*; a=Closed; b=Open; | e1:s>a#1 e2:a>b#1[push] e3:b>a#1[after(5s)]",
		},
		{
			name: "orders",
			text: doc(start, node("a", "A"), node("b", "B"),
				edge("e1", "s", "a", ""), edge("e2", "a", "b", "3. GO"), edge("e3", "a", "b", "1. STOP")),
			want: "s(start)*; a=A; b=B; | e1:s>a#1 e2:a>b#3[GO] e3:a>b#1[STOP]",
		},
		{
			name: "mixed orders",
			text: doc(start, node("a", "A"), node("b", "B"),
				edge("e1", "s", "a", ""), edge("e2", "a", "b", "STOP"), edge("e3", "a", "b", "3. GO"), edge("e4", "a", "a", "1.5s elapsed")),
			want: "s(start)*; a=A; b=B; | e1:s>a#1 e2:a>b#4[STOP] e3:a>b#3[GO] e4:a>a#5[1.5s elapsed]",
			diags: []string{`warning: graphml: state "A": 1 of 3 transitions have an order and 2 have none; those without one are tried after those with one, in document order: ` +
				`1. "3. GO" (order 3), 2. "STOP" (no order), 3. "1.5s elapsed" (no order)`},
		},
		{
			name: "decimal orders",
			text: doc(start, node("a", "A"), edge("e1", "s", "a", ""), edge("e2", "a", "a", "1.5. TICK"), edge("e3", "a", "a", "1. TOCK"), edge("e4", "a", "a", "1.25. TACK")),
			want: "s(start)*; a=A; | e1:s>a#1 e2:a>a#3[TICK] e3:a>a#1[TOCK] e4:a>a#2[TACK]",
		},
		{
			name: "else is tried last",
			text: doc(start, node("c", "", "shape=diamond"), node("a", "A"), node("b", "B"),
				edge("e1", "s", "c", ""), edge("e2", "c", "a", "[else]"), edge("e3", "c", "b", "[ready]")),
			want: "s(start)*; c(choice); a=A; b=B; | e1:s>c#1 e2:c>a#2[else] e3:c>b#1[ready]",
		},
		{
			name:  "else with an order",
			text:  doc(start, node("c", "", "shape=diamond"), node("a", "A"), edge("e1", "s", "c", ""), edge("e2", "c", "a", "2. [else]")),
			want:  "s(start)*; c(choice); a=A; | e1:s>c#1",
			diags: []string{`error: graphml: edge e2: [else] with an order`},
			err:   true,
		},
		{
			name: "Kingly's labels",
			text: doc(node("i", "Init", "box=0,0,80,30"), node("a", "A"), node("b", "Password\nentered"),
				edge("e1", "i", "a", ""), edge("e2", "a", "b", "typed [letters?]\n/ show\nstrong"), edge("e3", "b", "a", "| reset / clear | back [ok] / undo, redo")),
			want: "i(start)*; a=A; b=Password entered; | e1:i>a#1 e2:a>b#1[typed] e3:b>a#1[reset] e3#2:b>a#2[back]",
		},
		{
			name:  "Kingly's guard list",
			text:  doc(start, node("a", "A"), node("b", "B"), edge("e1", "s", "a", ""), edge("e2", "a", "b", "[ready, f(x, y)] / go"), edge("e3", "a", "b", "[f(x, y)]")),
			want:  "s(start)*; a=A; b=B; | e1:s>a#1 e2:a>b#1[ready, f(x, y)] e3:a>b#2[f(x, y)]",
			diags: []string{`warning: graphml: edge e2: guard "ready, f(x, y)" is read as one condition of that name; Kingly reads a guard list as all of its conditions`},
		},
		{
			name: "init entered is a state",
			text: doc(start, node("a", "A"), node("i", "init"), edge("e1", "s", "a", ""), edge("e2", "a", "i", "go"), edge("e3", "i", "a", "back")),
			want: "s(start)*; a=A; i=init; | e1:s>a#1 e2:a>i#1[go] e3:i>a#1[back]",
		},
		{
			name:  "conditional initial transition in a group",
			text:  doc(start, group("g", "G", nil, node("gi", "init"), node("a", "A"), node("b", "B"), edge("g1", "gi", "a", "[x]"), edge("g2", "gi", "b", "[not x]")), edge("e1", "s", "g", "")),
			diags: []string{`error: graphml: the initial state of state "G" has 2 transitions: a conditional initial transition inside a state is not supported yet`},
			err:   true,
		},
		{
			name:  "guarded initial transition in a group",
			text:  doc(start, group("g", "G", nil, node("gi", "init"), node("a", "A"), edge("g1", "gi", "a", "[x] / go")), edge("e1", "s", "g", "")),
			diags: []string{`error: graphml: the transition of the initial state of state "G" has a trigger or a guard ("[x] / go")`},
			err:   true,
		},
		{
			name: "pseudo-states",
			text: doc(node("i", "[*]"), node("a", "A"), node("c", "pick", "shape=diamond"), node("d", "", "shape=diamond"),
				node("f", "[*]"), node("z", "", "shape=ellipse", "box=0,0,30,30"), node("big", "", "shape=ellipse", "box=0,0,80,80"),
				edge("e1", "i", "a", ""), edge("e2", "a", "c", ""), edge("e3", "c", "d", "[x]"), edge("e4", "d", "f", ""),
				edge("e5", "a", "z", "quit"), edge("e6", "big", "a", "")),
			want: "i(start)*; a=A; c=pick(choice); d(choice); f(end); z(end); big; | e1:i>a#1 e2:a>c#1 e3:c>d#1[x] e4:d>f#1 e5:a>z#2[quit] e6:big>a#1",
		},
		{
			name: "generic nodes",
			text: doc(
				`<node id="s"><data key="ng"><y:GenericNode configuration="com.yworks.flowchart.start1"><y:NodeLabel>go</y:NodeLabel></y:GenericNode></data></node>`,
				`<node id="t"><data key="ng"><y:GenericNode configuration="com.yworks.flowchart.terminator"><y:NodeLabel>End</y:NodeLabel></y:GenericNode></data></node>`,
				`<node id="b"><data key="ng"><y:GenericNode configuration="com.yworks.bpmn.Event"><y:NodeLabel>done</y:NodeLabel><y:StyleProperties><y:Property class="java.lang.Enum" name="com.yworks.bpmn.characteristic" value="com.yworks.yfiles.bpmn.view.EventCharEnum.EVENT_CHARACTERISTIC_END"/></y:StyleProperties></y:GenericNode></data></node>`,
				`<node id="g"><data key="ng"><y:GenericNode configuration="com.yworks.bpmn.Gateway.withShadow"/></data></node>`,
				edge("e1", "s", "g", ""), edge("e2", "g", "t", "[a]"), edge("e3", "g", "b", "[b]")),
			want: "s=go(start)*; t=End(end); b=done(end); g(choice); | e1:s>g#1 e2:g>t#1[a] e3:g>b#2[b]",
		},
		{
			name: "plain GraphML",
			text: `<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="k0" for="node" attr.name="label" attr.type="string"/>
  <key id="k1" for="edge" attr.name="Label" attr.type="string"/>
  <graph id="G" edgedefault="directed">
    <node id="a"><data key="k0">Idle</data></node>
    <node id="b"><data key="k0">Run</data></node>
    <edge source="a" target="b"><data key="k1">go</data></edge>
    <edge source="b" target="a"/>
  </graph>
</graphml>`,
			want: "a=Idle; b=Run; | edge1:a>b#1[go] edge2:b>a#1",
		},
		{
			name: "no namespace",
			text: `<graphml><graph><node id="a"/><node id="b"/><edge id="a2" source="a" target="b"/></graph></graphml>`,
			want: "a; b; | a2:a>b#1",
		},
		{
			name: "bad edges",
			text: doc(start, node("a", "A"),
				edge("e1", "s", "a", ""), edge("e2", "a", "nowhere", "x"), `<edge id="e3" source="a"/>`, edge("e1", "a", "a", "dup"),
				`<hyperedge id="h"><endpoint node="a"/><endpoint node="s"/></hyperedge>`),
			want: "s(start)*; a=A; | e1:s>a#1",
			diags: []string{
				`error: graphml: edge e2: its target, node "nowhere", is not in the file`,
				`error: graphml: edge e3 has no target`,
				`warning: graphml: edge id "e1" is used twice; the second edge is ignored`,
				`warning: graphml: hyperedge: not a transition; ignored`,
			},
			err: true,
		},
		{
			name: "bad nodes",
			text: doc(start, node("a", "A"), node("a", "B"), `<node><data key="ng"><y:ShapeNode><y:NodeLabel>C</y:NodeLabel></y:ShapeNode></data></node>`,
				`<node id="d"><data key="nokey">x</data><data key="nokey">y</data></node>`, edge("e1", "s", "a", "")),
			want: "s(start)*; a=A; d; | e1:s>a#1",
			diags: []string{
				`warning: graphml: node id "a" is used twice; the second node and what it holds are ignored`,
				`warning: graphml: node without an id; it and what it holds are ignored`,
				`warning: graphml: <data> refers to key "nokey", which no <key> declares; ignored`,
			},
		},
		{
			name:  "backwards",
			text:  doc(start, node("a", "A"), node("b", "B"), edge("e1", "s", "a", ""), edge("e2", "b", "a", "go", "arrows=standard,none")),
			want:  "s(start)*; a=A; b=B; | e1:s>a#1 e2:a>b#1[go]",
			diags: []string{`warning: graphml: the edge's arrow is at its source: read as a transition from a to b, as drawn (Kingly and StateSmith read it from b to a)`},
		},
		{
			name: "labels",
			text: doc(`<node id="a"><data key="ng"><y:ShapeNode><y:NodeLabel>A</y:NodeLabel><y:NodeLabel/><y:NodeLabel>note</y:NodeLabel></y:ShapeNode></data></node>`,
				`<edge id="e" source="a" target="a"><data key="eg"><y:ArcEdge><y:EdgeLabel>go</y:EdgeLabel><y:EdgeLabel>/ act()</y:EdgeLabel></y:ArcEdge></data></edge>`),
			want: "a=A; | e:a>a#1[go]",
			diags: []string{
				`warning: graphml: node a has 2 labels; only the first is read, not "note"`,
				`warning: graphml: edge e has 2 labels; only the first is read, not "/ act()"`,
			},
		},
		{
			name:  "behaviour text",
			text:  doc(node("a", "  IDLE\nenter / { x = 1; }\nTICK / y++;")),
			want:  "a=IDLE; |",
			diags: []string{`warning: graphml: state "IDLE": the behaviour written in it is code for a code generator, which fsmforge does not run: "enter / { x = 1; } TICK / y++;"`},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.check(t, graphml.Options{})
			if len(tt.diags) == 0 && !tt.err {
				for _, d := range c.Diagnostics {
					if d.Severity != 2 {
						t.Errorf("unexpected diagnostic %v", d)
					}
				}
			}
		})
	}
}

// TestLayout checks that boxes are moved so that none is left of or above
// the origin, and that a geometry that is not a box is left out.
func TestLayout(t *testing.T) {
	c, err := read(t, doc(node("a", "A", "box=-100,20,50,50"), node("b", "B", "box=10,-30,50,50"), node("c", "C", "box=x,0,1,1")), graphml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := c.States[0].Box; b == nil || b.X != 0 || b.Y != 50 || b.W != 50 {
		t.Errorf("a's Box = %+v, want at (0, 50)", b)
	}
	if b := c.States[1].Box; b == nil || b.X != 110 || b.Y != 0 {
		t.Errorf("b's Box = %+v, want at (110, 0)", b)
	}
	if b := c.States[2].Box; b != nil {
		t.Errorf("c's Box = %+v, want nil", b)
	}
}

// TestPositions checks where diagnostics point.
func TestPositions(t *testing.T) {
	text := doc(node("a", "A"), edge("e1", "a", "zz", "go"))
	c, _ := read(t, text, graphml.Options{File: "door.graphml"})
	if len(c.Diagnostics) != 1 {
		t.Fatalf("diagnostics = %v", c.Diagnostics)
	}
	d := c.Diagnostics[0]
	line := strings.Count(text[:strings.Index(text, `<edge id="e1"`)], "\n") + 1
	if d.Pos.File != "door.graphml" || d.Pos.Shape != "e1" || d.Pos.ShapeName != "go" || d.Pos.Line != line || d.Pos.Col != 5 {
		t.Errorf("Pos = %+v, want door.graphml:%d:5, shape e1 \"go\"", d.Pos, line)
	}
	if want := `door.graphml:` + strconv.Itoa(line) + `:5: shape e1 "go": graphml: edge e1: its target, node "zz", is not in the file`; d.Error() != want {
		t.Errorf("Error() = %q, want %q", d.Error(), want)
	}
	if d.Hint == "" {
		t.Errorf("no hint")
	}
}
