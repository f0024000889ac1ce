package drawio_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/diag"
)

// inside is a vertex drawn inside another.
func inside(id, value, style, parent string) string {
	return strings.Replace(vertex(id, value, style), `parent="1"`, `parent="`+parent+`"`, 1)
}

// group is a container vertex.
func group(id, value, parent string) string {
	return inside(id, value, "rounded=1;container=1;", parent)
}

// TestStateSmith reads StateSmith's conventions, one drawing at a time:
// what the chart holds, and the diagnostics.
func TestStateSmith(t *testing.T) {
	start := vertex("i", "$initial_state", "ellipse;noLabel=1;fillColor=#000000;")
	for _, tt := range []struct {
		name  string
		xml   string
		want  []string // in the rendering of the chart
		diags []string // among the diagnostics, severity first
	}{
		{"history",
			// Entering G enters its history, as StateSmith's drawings do.
			model(start, group("g", "G", "1"), inside("gi", "$initial_state", "ellipse;", "g"), inside("h", "$H", "ellipse;", "g"), inside("a", "A", "", "g"),
				vertex("b", "B", ""), edge("e1", "", "", "i", "g"), edge("e0", "", "", "gi", "h"), edge("e2", "", "", "h", "a"), edge("e3", "GO", "", "b", "g")),
			[]string{`state "h" name="" kind=history initial=false parent="g"`,
				`transition "e2" from="h" any=false order=1 test="" value="" label="" event="" guard="" action="" target=a`},
			nil},
		{"a history continue that carries no history",
			model(start, group("g", "G", "1"), inside("h", "$HC", "", "g"), inside("a", "A", "", "g"), edge("e1", "", "", "i", "a")),
			nil,
			[]string{`error: drawio: the $HC in state "G" carries no history: StateSmith wants a $H or a $HC in the state around its own; ignored`}},
		{"exit point",
			model(start, group("g", "G", "1"), inside("a", "A", "", "g"), inside("x", "exit : done", "ellipse;", "g"),
				vertex("b", "B", ""), edge("e1", "", "", "i", "a"), edge("e2", "DONE", "", "a", "x"), edge("e3", "via exit done", "", "g", "b")),
			[]string{`state "x" name="exit point done" kind=choice`,
				`transition "e2" from="a" any=false order=1 test="DONE"`,
				`transition "e3" from="x" any=false order=1 test="" value="" label="via exit done" event="" guard="" action="" target=b`},
			nil},
		{"entry point",
			model(start, group("g", "G", "1"), inside("gi", "$initial_state", "ellipse;", "g"), inside("a", "A", "", "g"), inside("c", "C", "", "g"),
				inside("n", "entry : back", "ellipse;", "g"), vertex("b", "B", ""),
				edge("e1", "", "", "i", "b"), edge("e2", "", "", "gi", "a"), edge("e3", "BACK via entry back", "", "b", "g"), edge("e4", "", "", "n", "c")),
			[]string{`transition "e3" from="b" any=false order=1 test="BACK" value="" label="BACK via entry back" event="BACK" guard="" action="" target=n`,
				`transition "e4" from="n"`},
			nil},
		{"via a point that is not there",
			model(start, group("g", "G", "1"), inside("a", "A", "", "g"), vertex("b", "B", ""),
				edge("e1", "", "", "i", "a"), edge("e3", "via exit nope", "", "g", "b")),
			nil,
			[]string{`error: drawio: the transition goes via exit "nope", but the state it leaves, "G", has no exit point "nope"`}},
		{"else is tried last",
			model(start, vertex("c", "$choice", "rhombus;"), vertex("a", "A", ""), vertex("b", "B", ""), vertex("d", "D", ""),
				edge("e0", "", "", "i", "c"), edge("e1", "else", "", "c", "a"), edge("e2", "[x > 1]", "", "c", "b"), edge("e3", "[y]", "", "c", "d")),
			[]string{`transition "e1" from="c" any=false order=3 test="else" value="" label="else"`,
				`transition "e2" from="c" any=false order=1 test="x > 1"`, `transition "e3" from="c" any=false order=2 test="y"`},
			nil},
		{"two else",
			model(start, vertex("c", "$choice", "rhombus;"), vertex("a", "A", ""), edge("e0", "", "", "i", "c"),
				edge("e1", "else", "", "c", "a"), edge("e2", "[else]", "", "c", "a")),
			nil,
			[]string{`error: drawio: state "c": 2 transitions are marked else`}},
		{"notes and settings",
			model(start, vertex("a", "A", ""), group("n", "$NOTES about A", "1"), inside("q", "Q", "", "n"),
				vertex("cfg", "$CONFIG: toml\n[RenderConfig]", ""), vertex("sticky", "remember", "shape=note;"),
				edge("e0", "", "", "i", "a"), edge("e1", "GO", "", "a", "q")),
			[]string{`state "a" name="A"`},
			[]string{`note: drawio: $NOTES shape n: a comment`, `note: drawio: $CONFIG shape cfg: a setting of StateSmith's code generator`,
				`note: drawio: note shape sticky: a comment`, `note: drawio: edge e1 starts or ends in a note or a setting`}},
		{"behaviours on one edge",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), edge("e0", "", "", "i", "a"),
				edge("e1", "NEXT / { }\n2. (EV1, EV2) [ready] / go()", "", "a", "b")),
			[]string{`transition "e1" from="a" any=false order=3 test="NEXT"`,
				`transition "e1#2" from="a" any=false order=2 test="EV1" value="" label="2. (EV1, EV2) [ready] / go()" event="EV1" guard="ready" action="go()"`,
				`transition "e1#3" from="a" any=false order=2 test="EV2"`},
			[]string{`warning: drawio: state "A": 2 of 3 transitions have an order and 1 has none`}},
		{"do is the update",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), edge("e0", "", "", "i", "a"), edge("e1", "do [t > 2]", "", "a", "b")),
			[]string{`transition "e1" from="a" any=false order=1 test="t > 2" value="" label="do [t > 2]" event="" guard="t > 2"`},
			nil},
		{"a handler stops its parent's transition",
			model(start, group("g", "G", "1"), inside("a", "A\nEV / count++;", "", "g"), vertex("b", "B", ""),
				edge("e0", "", "", "i", "a"), edge("e1", "EV", "", "g", "b")),
			nil,
			[]string{`warning: drawio: state "A": the behaviour written in it is code`,
				`error: drawio: state "A" handles EV itself ("EV / count++;"), which stops the transition on EV of state "G"`}},
		{"inner handler text",
			model(start, group("a", "A", "1"), inside("t", "enter / on();", "text;fillColor=none;gradientColor=none;strokeColor=none;", "a"),
				edge("e0", "", "", "i", "a")),
			[]string{`state "a" name="A"`},
			[]string{`warning: drawio: state "A": the behaviour written in it is code for a code generator, which fsmforge does not run: "enter / on();"`}},
		{"parent alias",
			model(start, group("g", "G", "1"), inside("gi", "$initial_state", "ellipse;", "g"), inside("a", "A", "", "g"),
				inside("al", "$PARENT_ALIAS", "", "g"), vertex("b", "B", ""), edge("e0", "", "", "i", "a"), edge("e9", "", "", "gi", "a"), edge("e1", "GO", "", "al", "b"), edge("e2", "BACK", "", "b", "al")),
			[]string{`transition "e1" from="g" any=false order=1 test="GO"`, `transition "e2" from="b" any=false order=1 test="BACK" value="" label="BACK" event="BACK" guard="" action="" target=g`},
			nil},
		{"outside the state machine",
			model(group("m", "$STATEMACHINE: Lamp", "1"), inside("i", "$initial_state", "ellipse;", "m"), inside("a", "A", "", "m"), vertex("z", "Z", ""),
				edge("e0", "", "", "i", "a")),
			[]string{`state "a" name="A"`},
			[]string{`note: drawio: 1 shape drawn outside the $STATEMACHINE shape is not part of the chart`}},
		{"H is a state's name",
			model(start, vertex("h", "H", "ellipse;"), vertex("k", "H*", "ellipse;"), edge("e0", "", "", "i", "h")),
			[]string{`state "h" name="H" kind=normal`},
			[]string{`warning: drawio: shape h is labelled "H": StateSmith reads it as a state of that name`,
				`error: drawio: history k is drawn in no state`}},
		{"orthogonal regions drawn in no state",
			model(start, vertex("o", "$ORTHO 1 : LEFT", ""), edge("e0", "", "", "i", "o")),
			[]string{`state "o" name="LEFT" kind=normal`},
			[]string{`error: drawio: $ORTHO region "LEFT" is drawn in no state: regions run in parallel inside the state they are drawn in`}},
		{"a label StateSmith refuses",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), edge("e0", "", "", "i", "a"), edge("e1", "EV1 EV2", "", "a", "b")),
			nil,
			[]string{`error: drawio: behaviour "EV1 EV2" does not follow StateSmith's grammar: unexpected text "EV2"`}},
		{"an event's else",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), vertex("d", "D", ""),
				edge("e0", "", "", "i", "a"), edge("e1", "EV [else]", "", "a", "b"), edge("e2", "EV [ready]", "", "a", "d")),
			[]string{`transition "e1" from="a" any=false order=2 test="EV" value="" label="EV [else]" event="EV" guard=""`,
				`transition "e2" from="a" any=false order=1 test="EV" value="" label="EV [ready]" event="EV" guard="ready"`},
			nil},
		{"else StateSmith refuses",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), edge("e0", "", "", "i", "a"),
				edge("e1", "(EV, else)", "", "a", "b"), edge("e2", "1. else", "", "a", "b"), edge("e3", "else [x]", "", "a", "b"), edge("e4", "1. [else]", "", "a", "b")),
			nil,
			[]string{`error: drawio: behaviour "(EV, else)": else with an order, a trigger or a guard`,
				`error: drawio: behaviour "1. else": else with an order, a trigger or a guard`,
				`error: drawio: behaviour "else [x]": else with an order, a trigger or a guard`,
				`error: drawio: behaviour "1. [else]": [else] with an order`}},
		{"a pseudo-state's trigger",
			model(start, vertex("c", "$choice", "rhombus;"), vertex("a", "A", ""),
				edge("e0", "GO", "", "i", "c"), edge("e1", "EV [x]", "", "c", "a"), edge("e2", "", "", "c", "a")),
			nil,
			[]string{`error: drawio: behaviour "GO": a transition from an $initial_state cannot have a trigger`,
				`error: drawio: behaviour "EV [x]": a transition from a $choice cannot have a trigger`}},
		{"a trigger on a start told by its style",
			model(vertex("i", "", "ellipse;fillColor=#000000;"), vertex("c", "$choice", "rhombus;"), vertex("a", "A", ""),
				edge("e0", "GO", "", "i", "c"), edge("e1", "", "", "c", "a")),
			nil,
			[]string{`error: drawio: behaviour "GO": a transition from an $initial_state cannot have a trigger`}},
		{"a trigger via an exit point",
			model(start, group("g", "G", "1"), inside("a", "A", "", "g"), inside("x", "exit : done", "ellipse;", "g"),
				vertex("b", "B", ""), edge("e1", "", "", "i", "a"), edge("e2", "DONE", "", "a", "x"), edge("e3", "GO via exit done", "", "g", "b")),
			nil,
			[]string{`error: drawio: behaviour "GO via exit done": a transition via an exit point leaves from the point, a pseudo-state, so it cannot have a trigger`}},
		{"events ignore case",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), edge("e0", "", "", "i", "a"), edge("e1", "Go", "", "a", "b"), edge("e2", "GO", "", "b", "a")),
			[]string{`transition "e2" from="b" any=false order=1 test="Go" value="" label="GO" event="Go"`},
			[]string{`warning: drawio: event GO is read as Go: StateSmith's events ignore case`}},
		{"enter on an edge",
			model(start, vertex("a", "A", ""), vertex("b", "B", ""), edge("e0", "", "", "i", "a"), edge("e1", "enter / x++", "", "a", "b"), edge("e2", "exit", "", "a", "b")),
			nil,
			[]string{`error: drawio: behaviour "enter / x++": a transition cannot be taken on enter`,
				`error: drawio: behaviour "exit": a transition cannot be taken on exit`}},
		{"a handler that does not consume",
			model(start, group("g", "G", "1"), inside("a", "A\nEV / consume_event = false;\n$mod / prefix.auto();\ndo / x++;", "", "g"), vertex("b", "B", ""),
				edge("e0", "", "", "i", "a"), edge("e1", "EV", "", "g", "b"), edge("e2", "[t > 3]", "", "g", "b")),
			[]string{`transition "e1" from="g" any=false order=1 test="EV"`, `transition "e2" from="g" any=false order=2 test="t > 3"`},
			nil},
		{"a handler in another case",
			model(start, group("g", "G", "1"), inside("a", "A\nev / count++;", "", "g"), vertex("b", "B", ""),
				edge("e0", "", "", "i", "a"), edge("e1", "EV", "", "g", "b")),
			nil,
			[]string{`warning: drawio: event EV is read as ev: StateSmith's events ignore case`,
				`error: drawio: state "A" handles ev itself ("ev / count++;"), which stops the transition on ev of state "G" ("EV") while the machine is in it;`}},
		{"a guarded handler",
			model(start, group("g", "G", "1"), inside("a", "A\nEV [busy] / count++;", "", "g"), vertex("b", "B", ""),
				edge("e0", "", "", "i", "a"), edge("e1", "EV", "", "g", "b")),
			nil,
			[]string{`error: drawio: state "A" handles EV itself ("EV [busy] / count++;"), which stops the transition on EV of state "G" ("EV") while the machine is in it and the guard [busy] holds`}},
		{"a state consumes the do event",
			model(start, group("g", "G", "1"), inside("a", "A\ndo / consume_event = true;", "", "g"), vertex("b", "B", ""),
				edge("e0", "", "", "i", "a"), edge("e1", "[t > 3]", "", "g", "b")),
			nil,
			[]string{`error: drawio: state "A" consumes the do event ("do / consume_event = true;"), which stops the transition e1 of state "G" ("[t > 3]")`}},
		{"behaviour StateSmith refuses",
			model(start, vertex("a", "A\nEV1 EV2 / x();\nelse / y();", ""), edge("e0", "", "", "i", "a")),
			nil,
			[]string{`error: drawio: state "A": behaviour "EV1 EV2 / x();" does not follow StateSmith's grammar`,
				`error: drawio: state "A": behaviour "else / y();": else as a trigger is only valid on a transition`}},
		{"branches of an initial state in a state",
			model(start, group("g", "G", "1"), inside("gi", "$initial_state", "ellipse;", "g"), inside("a", "A", "", "g"), inside("b", "B", "", "g"),
				edge("g0", "", "", "gi", "a"), edge("g1", "[x]", "", "gi", "b"), edge("e0", "", "", "i", "g")),
			nil,
			[]string{`error: drawio: the initial state of state "G" has 2 transitions: a conditional initial transition inside a state is not supported yet`}},
		{"a guarded initial transition in a state",
			model(start, group("g", "G", "1"), inside("gi", "$initial_state", "ellipse;", "g"), inside("a", "A", "", "g"),
				edge("g0", "[x] / go()", "", "gi", "a"), edge("e0", "", "", "i", "g")),
			nil,
			[]string{`error: drawio: the transition of the initial state of state "G" has a trigger or a guard ("[x] / go()")`}},
		{"entering the initial state",
			model(start, group("g", "G", "1"), inside("gi", "$initial_state", "ellipse;", "g"), inside("a", "A", "", "g"), inside("b", "B", "", "g"),
				edge("g0", "", "", "gi", "a"), edge("g1", "RESTART", "", "b", "gi"), edge("g2", "NEXT", "", "a", "b"), edge("e0", "", "", "i", "g")),
			[]string{`transition "g1" from="b" any=false order=1 test="RESTART" value="" label="RESTART" event="RESTART" guard="" action="" target=a`},
			[]string{`note: drawio: edge g1 enters the initial state gi: it goes where the initial state leads, to a`}},
		{"trigger map",
			model(start, vertex("a", "A", ""), edge("e0", "", "", "i", "a"), vertex("rc", "$CONFIG: TriggerMap\nANY => *", "")),
			nil,
			[]string{`error: drawio: $CONFIG shape rc sets StateSmith's TriggerMap, which renames the events of the drawing`}},
		{"a name StateSmith refuses",
			model(start, vertex("a", "Door open", ""), edge("e0", "", "", "i", "a")),
			[]string{`state "a" name="Door open"`},
			[]string{`warning: drawio: state name "Door open" is not a StateSmith identifier: StateSmith refuses the drawing; read as a state of that name`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := drawio.Read(strings.NewReader(tt.xml), drawio.Options{File: "ss.drawio"})
			if c == nil {
				t.Fatal("Read = nil")
			}
			got := strings.Join(render(c), "\n")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("chart lacks %s in\n%s", w, got)
				}
			}
			checkDiagnostics(t, c.Diagnostics, tt.diags)
			for _, d := range c.Diagnostics {
				if d.Severity == diag.Error && !slices.ContainsFunc(tt.diags, func(w string) bool { return strings.HasPrefix("error: "+d.Message, w) }) {
					t.Errorf("unexpected error: %s", d.Message)
				}
			}
		})
	}
}

// checkDiagnostics checks that each of want, "severity: message start",
// begins the message of a diagnostic of that severity.
func checkDiagnostics(t *testing.T, ds diag.List, want []string) {
	t.Helper()
	for _, w := range want {
		sev, msg, _ := strings.Cut(w, ": ")
		found := false
		for _, d := range ds {
			if d.Severity.String() == sev && strings.HasPrefix(d.Message, msg) {
				found = true
			}
		}
		if !found {
			var all []string
			for _, d := range ds {
				all = append(all, d.Severity.String()+": "+d.Message)
			}
			t.Errorf("no %s diagnostic %q among\n%s", sev, msg, strings.Join(all, "\n"))
		}
	}
}

// TestLooseEnds checks that an edge whose end is glued to nothing is taken
// to the final state with a warning, unless it says it means it.
func TestLooseEnds(t *testing.T) {
	for _, tt := range []struct {
		name, edge string
		warn       bool
	}{
		{"forgotten", edge("e1", "die", "", "a", ""), true},
		{"meant", `<object id="e1" label="die" fsmforgeFinal="1"><mxCell style="" edge="1" parent="1" source="a"><mxGeometry relative="1" as="geometry"/></mxCell></object>`, false},
		{"not meant", `<object id="e1" label="die" fsmforgeFinal="0"><mxCell style="" edge="1" parent="1" source="a"><mxGeometry relative="1" as="geometry"/></mxCell></object>`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			xml := model(vertex("s", "", "ellipse;shape=startState;"), vertex("a", "A", ""), edge("e0", "", "", "s", "a"), tt.edge)
			c, err := drawio.Read(strings.NewReader(xml), drawio.Options{File: "x.drawio"})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(render(c), "\n"); !strings.Contains(got, `transition "e1" from="a" any=false order=1 test="die"`) || !strings.Contains(got, "target=(final)") {
				t.Errorf("chart lacks e1 to the final state:\n%s", got)
			}
			warned := false
			for _, d := range c.Diagnostics {
				warned = warned || d.Severity == diag.Warning && strings.Contains(d.Message, "the end of the edge is on no state: taken as a transition to the final state")
			}
			if warned != tt.warn {
				t.Errorf("warned = %v, want %v: %v", warned, tt.warn, c.Diagnostics)
			}
		})
	}
}

// TestUMLElse checks that a plain diagram's [else] branch is tried last.
func TestUMLElse(t *testing.T) {
	xml := model(vertex("s", "", "ellipse;shape=startState;"), vertex("c", "", "rhombus;"), vertex("a", "A", ""), vertex("b", "B", ""),
		edge("e0", "", "", "s", "c"), edge("e1", "[else]", "", "c", "a"), edge("e2", "[hp > 10]", "", "c", "b"))
	c, err := drawio.Read(strings.NewReader(xml), drawio.Options{File: "x.drawio"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(render(c), "\n")
	for _, w := range []string{`transition "e1" from="c" any=false order=2 test="else"`, `transition "e2" from="c" any=false order=1 test="hp > 10"`} {
		if !strings.Contains(got, w) {
			t.Errorf("chart lacks %s in\n%s", w, got)
		}
	}
}

// TestChain reads the chart's chaining from the diagram's own Edit Data,
// and writes it back.
func TestChain(t *testing.T) {
	xml := `<mxGraphModel><root><object label="" fsmforgeChain="1" fsmforgeChainLimit="5" id="0"><mxCell/></object><mxCell id="1" parent="0"/>` +
		vertex("s", "", "ellipse;shape=startState;") + vertex("a", "A", "") + edge("e0", "", "", "s", "a") + `</root></mxGraphModel>`
	c, err := drawio.Read(strings.NewReader(xml), drawio.Options{File: "x.drawio"})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Chain || c.ChainLimit != 5 {
		t.Fatalf("Read: Chain, ChainLimit = %v, %d, want true, 5", c.Chain, c.ChainLimit)
	}
	var b strings.Builder
	if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := drawio.Read(strings.NewReader(b.String()), drawio.Options{File: "x.drawio"})
	if err != nil {
		t.Fatal(err)
	}
	if !back.Chain || back.ChainLimit != 5 {
		t.Errorf("Read(Write(c)): Chain, ChainLimit = %v, %d, want true, 5\n%s", back.Chain, back.ChainLimit, b.String())
	}
}
