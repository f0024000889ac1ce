package graphml_test

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/graphml"
)

// TestStateSmith reads StateSmith's conventions, one small drawing each:
// a drawing with a node labelled with one of StateSmith's keywords is read
// as StateSmith reads it, or refused with an error naming the node or the
// edge. want is the chart, summarised (empty: not checked); diags are
// substrings of the diagnostics ("severity: message").
func TestStateSmith(t *testing.T) {
	start := node("s", "$initial_state", "shape=ellipse", "box=0,0,20,20")
	for _, tt := range []readCase{
		// The machine.
		{
			name: "state machine group",
			text: doc(node("x", "stray"),
				group("m", "$STATEMACHINE: Lamp", nil, start, node("a", "A"), edge("e1", "s", "a", ""), edge("e2", "a", "m", "bad")),
				edge("e3", "x", "a", "also stray")),
			want: "s(start)*; a=A; | e1:s>a#1",
			diags: []string{
				`warning: graphml: 1 node outside the $STATEMACHINE group is not part of the chart, as in StateSmith, 1 of them states: "stray"`,
				`error: graphml: edge e2 starts or ends at the $STATEMACHINE group`,
				`warning: graphml: 1 edge between a state and a note or a node outside the $STATEMACHINE group is not part of the chart, as in StateSmith: e3`,
			},
			err: true,
		},
		{
			name: "notes outside the state machine",
			text: doc(node("x", "$NOTES: read me"), node("y", ""),
				group("m", "$STATEMACHINE: Lamp", nil, start, node("a", "A"), edge("e1", "s", "a", "")), edge("e2", "x", "y", "")),
			want: "s(start)*; a=A; | e1:s>a#1",
			diags: []string{
				`note: graphml: 2 nodes outside the $STATEMACHINE group are not part of the chart (notes, and nodes without a name)`,
				`note: graphml: 1 edge to or from notes, or from nodes outside the $STATEMACHINE group, is not part of the chart`,
			},
		},
		{
			name: "flat state machine",
			text: doc(node("m", "$STATEMACHINE: Lamp"), start, node("a", "A"), edge("e1", "s", "a", "")),
			want: "s(start)*; a=A; | e1:s>a#1",
		},
		{
			name:  "the machine's behaviour",
			text:  doc(group("m", "$STATEMACHINE: Lamp\nEV / count++;", nil, start, node("a", "A"), edge("e1", "s", "a", ""))),
			want:  "s(start)*; a=A; | e1:s>a#1",
			diags: []string{`warning: graphml: the $STATEMACHINE's behaviour is code for StateSmith's generator, which fsmforge does not run: "EV / count++;"`},
		},
		{
			name:  "two state machines",
			text:  doc(group("m", "$STATEMACHINE: One", nil, start), group("m2", "$STATEMACHINE: Two", nil, node("b", "B"))),
			want:  "s(start)*; |",
			diags: []string{`error: graphml: a second $STATEMACHINE group; this reader reads the first one, "One"`},
			err:   true,
		},
		{
			name: "a state machine inside another",
			text: doc(group("m", "$STATEMACHINE: One", nil, start, node("a", "A"), group("sub", "$STATEMACHINE: Sub", nil, node("b", "B")),
				edge("e1", "s", "a", ""), edge("e2", "a", "sub", "GO"))),
			want:  "s(start)*; a=A; | e1:s>a#1",
			diags: []string{`error: graphml: $STATEMACHINE node sub is drawn inside another node: a state machine inside another is not supported`},
			err:   true,
		},
		// What is left out.
		{
			name: "notes",
			text: doc(start, node("a", "A"), group("n", "$NOTES", nil, node("n1", "old"), node("n2", "older")), node("n3", "$NOTES: todo"),
				edge("e1", "s", "a", ""), edge("e2", "a", "n1", "")),
			want: "s(start)*; a=A; | e1:s>a#1",
			diags: []string{
				`note: graphml: $NOTES node: it and the 2 nodes inside it are notes, not part of the chart`,
				`note: graphml: $NOTES node: it and the 0 nodes inside it are notes, not part of the chart`,
				`warning: graphml: 1 edge between a state and a note or a node outside the $STATEMACHINE group is not part of the chart, as in StateSmith: e2`,
			},
		},
		{
			name: "settings",
			text: doc(group("m", "$STATEMACHINE: Lamp", nil, start, node("a", "A"), edge("e1", "s", "a", ""),
				node("c", "$CONFIG: HFileTop\n// top"), group("rc", "$RenderConfig", nil, node("c2", "$CONFIG: FileTop\n// hi")))),
			want: "s(start)*; a=A; | e1:s>a#1",
			diags: []string{
				`note: graphml: $CONFIG node c: settings of StateSmith's code generator; it and the 0 nodes inside it are not part of the chart`,
				`note: graphml: $RenderConfig node rc: settings of StateSmith's code generator; it and the 1 node inside it are not part of the chart`,
			},
		},
		{
			name: "trigger map",
			text: doc(group("m", "$STATEMACHINE: Lamp", nil, start, node("a", "A"), edge("e1", "s", "a", "")),
				group("rc", "$RenderConfig", nil, node("c2", "$CONFIG: TriggerMap\nANY => *"))),
			diags: []string{`error: graphml: node c2 sets StateSmith's TriggerMap, which renames the events of the drawing`},
			err:   true,
		},
		{
			name: "unlabelled nodes",
			text: doc(start, node("a", "A"), node("blank", ""), node("b", ""), edge("e1", "s", "a", ""), edge("e2", "a", "b", "GO")),
			want: "s(start)*; a=A; | e1:s>a#1",
			diags: []string{
				`error: graphml: node b has no label: StateSmith reads it, what it holds and its edges as nothing`,
				`note: graphml: 1 node without a label or an edge is not part of the chart, as in StateSmith`,
			},
			err: true,
		},
		{
			name:  "a name StateSmith refuses",
			text:  doc(start, node("a", "Door open"), edge("e0", "s", "a", "")),
			want:  "s(start)*; a=Door open; | e0:s>a#1",
			diags: []string{`warning: graphml: state name "Door open" is not a StateSmith identifier: StateSmith refuses the drawing; read as a state of that name`},
		},
		// Pseudo-states.
		{
			name: "parent alias",
			text: doc(start, node("off", "OFF"),
				group("on", "ON", nil, node("on::s", "$initial_state"), node("on::a", "A"), node("alias", "$PARENT_ALIAS"),
					edge("on::e0", "on::s", "on::a", ""), edge("on::e1", "alias", "off", "POWER"), edge("on::e2", "on::a", "alias", "RESET")),
				edge("e1", "s", "off", ""), edge("e2", "off", "on", "POWER")),
			want: "s(start)*; off=OFF; on=ON; on::s^on(start)*; on::a=A^on; | on::e0:on::s>on::a#1 on::e1:on>off#1[POWER] on::e2:on::a>on#1[RESET] e1:s>off#1 e2:off>on#1[POWER]",
		},
		{
			name: "parent alias of the machine",
			text: doc(group("m", "$STATEMACHINE: M", nil, start, node("a", "A"), node("al", "$PARENT_ALIAS"), node("al2", "$PARENT_ALIAS"),
				edge("e1", "s", "a", ""), edge("e2", "al2", "a", "RESET"))),
			diags: []string{
				`note: graphml: $PARENT_ALIAS node al stands for the whole machine and has no edge: not part of the chart`,
				`error: graphml: $PARENT_ALIAS node al2 stands for the whole machine: transitions to or from the machine itself are not supported`,
			},
			err: true,
		},
		{
			name:  "parent alias in no state",
			text:  doc(start, node("a", "A"), node("al", "$PARENT_ALIAS"), edge("e1", "s", "a", ""), edge("e2", "al", "a", "GO")),
			want:  "s(start)*; a=A; | e1:s>a#1",
			diags: []string{`error: graphml: $PARENT_ALIAS node al is drawn in no state: it stands for no state; its edges are left out`},
			err:   true,
		},
		{
			name: "a choice holding nodes",
			text: doc(start, group("c", "$choice", nil, node("a", "A")), edge("e1", "s", "c", "")),
			diags: []string{
				`error: graphml: $choice node c holds other nodes, which StateSmith refuses for a pseudo-state`,
			},
			err: true,
		},
		{
			name: "else is tried last",
			text: doc(start, node("c", "$choice: pick"), node("a", "A"), node("b", "B"), node("d", "D"),
				edge("e0", "s", "c", ""), edge("e1", "c", "a", "else"), edge("e2", "c", "b", "[x > 1]"), edge("e3", "c", "d", "[y]")),
			want: "s(start)*; c=pick(choice); a=A; b=B; d=D; | e0:s>c#1 e1:c>a#3[else] e2:c>b#1[x > 1] e3:c>d#2[y]",
		},
		{
			name: "an event's else",
			text: doc(start, node("a", "A"), node("b", "B"), node("d", "D"),
				edge("e0", "s", "a", ""), edge("e1", "a", "b", "EV [else]"), edge("e2", "a", "d", "EV [ready]")),
			want: "s(start)*; a=A; b=B; d=D; | e0:s>a#1 e1:a>b#2[EV] e2:a>d#1[EV]",
		},
		{
			name: "two else",
			text: doc(start, node("c", "$choice"), node("a", "A"), edge("e0", "s", "c", ""),
				edge("e1", "c", "a", "else"), edge("e2", "c", "a", "[else]")),
			diags: []string{`error: graphml: state "c": 2 transitions are marked else`},
			err:   true,
		},
		{
			name: "else StateSmith refuses",
			text: doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""),
				edge("e1", "a", "b", "(EV, else)"), edge("e2", "a", "b", "1. else"), edge("e3", "a", "b", "else [x]")),
			diags: []string{
				`error: graphml: edge e1: behaviour "(EV, else)": else with an order, a trigger or a guard`,
				`error: graphml: edge e2: behaviour "1. else": else with an order, a trigger or a guard`,
				`error: graphml: edge e3: behaviour "else [x]": else with an order, a trigger or a guard`,
			},
			err: true,
		},
		{
			name: "a pseudo-state's trigger",
			text: doc(start, node("c", "$choice"), node("a", "A"), edge("e0", "s", "c", ""), edge("e1", "c", "a", "EV [x]"), edge("e2", "c", "a", "")),
			diags: []string{
				`error: graphml: edge e1: behaviour "EV [x]": a transition from a $choice cannot have a trigger`,
			},
			err: true,
		},
		{
			name: "entering the initial state",
			text: doc(start, group("g", "G", nil, node("gi", "$initial_state"), node("a", "A"), node("b", "B"),
				edge("g0", "gi", "a", ""), edge("g1", "b", "gi", "RESTART")), edge("e0", "s", "g", "")),
			want:  "s(start)*; g=G; gi^g(start)*; a=A^g; b=B^g; | g0:gi>a#1 g1:b>a#1[RESTART] e0:s>g#1",
			diags: []string{`note: graphml: edge g1 enters the initial state gi: it goes where the initial state leads, to a`},
		},
		{
			name: "branches of an initial state in a state",
			text: doc(start, group("g", "G", nil, node("gi", "$initial_state"), node("a", "A"), node("b", "B"),
				edge("g0", "gi", "a", "[x]"), edge("g1", "gi", "b", "else")), edge("e0", "s", "g", "")),
			diags: []string{`error: graphml: the initial state of state "G" has 2 transitions: a conditional initial transition inside a state is not supported yet`},
			err:   true,
		},
		// Entry and exit points.
		{
			name: "exit point",
			text: doc(start, group("g", "G", nil, node("a", "A"), node("x", "exit : done")), node("b", "B"),
				edge("e1", "s", "a", ""), edge("e2", "a", "x", "DONE"), edge("e3", "g", "b", "via exit done")),
			want: "s(start)*; g=G; a=A^g; x=exit point done^g(choice); b=B; | e1:s>a#1 e2:a>x#1[DONE] e3:x>b#1",
		},
		{
			name: "entry point",
			text: doc(start, group("g", "G", nil, node("gi", "$initial_state"), node("a", "A"), node("c", "C"), node("n", "entry:back")), node("b", "B"),
				edge("e1", "s", "b", ""), edge("e2", "gi", "a", ""), edge("e3", "b", "g", "BACK via entry back"), edge("e4", "n", "c", "")),
			want: "s(start)*; g=G; gi^g(start)*; a=A^g; c=C^g; n=entry point back^g(choice); b=B; | e1:s>b#1 e2:gi>a#1 e3:b>n#1[BACK] e4:n>c#1",
		},
		{
			name: "a trigger via an exit point",
			text: doc(start, group("g", "G", nil, node("a", "A"), node("x", "exit : done")), node("b", "B"),
				edge("e1", "s", "a", ""), edge("e2", "a", "x", "DONE"), edge("e3", "g", "b", "GO via exit done")),
			diags: []string{`error: graphml: edge e3: behaviour "GO via exit done": a transition via an exit point leaves from the point, a pseudo-state, so it cannot have a trigger`},
			err:   true,
		},
		{
			name:  "via a point that is not there",
			text:  doc(start, group("g", "G", nil, node("a", "A")), node("b", "B"), edge("e1", "s", "a", ""), edge("e3", "g", "b", "via exit nope")),
			diags: []string{`error: graphml: the transition goes via exit "nope", but the state it leaves, "G", has no exit point "nope"`},
			err:   true,
		},
		{
			name: "an exit point no transition goes through",
			text: doc(start, group("g", "G", nil, node("a", "A"), node("x", "exit : 1")), edge("e1", "s", "a", ""), edge("e2", "a", "x", "EV")),
			diags: []string{
				`warning: graphml: exit point "1" of state "G": no transition of the state goes via exit "1", so the machine stays in the point once it enters it`,
			},
		},
		{
			name:  "a point in no state",
			text:  doc(start, node("a", "A"), node("p", "entry : 1"), edge("e1", "s", "a", ""), edge("e2", "p", "a", "")),
			want:  "s(start)*; a=A; | e1:s>a#1",
			diags: []string{`error: graphml: entry point "1" (node p) is drawn in no state`},
			err:   true,
		},
		// Edge labels.
		{
			name: "behaviours on one edge",
			text: doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""),
				edge("e1", "a", "b", "NEXT / { }\n2. (EV1, EV2) [ready] / go()")),
			want: "s(start)*; a=A; b=B; | e0:s>a#1 e1:a>b#3[NEXT] e1#2:a>b#2[EV1] e1#3:a>b#2[EV2]",
			diags: []string{`warning: graphml: state "A": 2 of 3 transitions have an order and 1 has none; those without one are tried after those with one, in document order: ` +
				`1. "2. (EV1, EV2) [ready] / go()" (order 2), 2. "2. (EV1, EV2) [ready] / go()" (order 2), 3. "NEXT / { }" (no order)`},
		},
		{
			name: "decimal orders",
			text: doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""),
				edge("e1", "a", "b", "1.5. EV"), edge("e2", "a", "b", "1. EV [x]"), edge("e3", "a", "b", "2. do")),
			want: "s(start)*; a=A; b=B; | e0:s>a#1 e1:a>b#2[EV] e2:a>b#1[EV] e3:a>b#3",
		},
		{
			name: "do is the update",
			text: doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""), edge("e1", "a", "b", "do [t > 2]"), edge("e2", "b", "a", "DO")),
			want: "s(start)*; a=A; b=B; | e0:s>a#1 e1:a>b#1[t > 2] e2:b>a#1",
		},
		{
			name: "events ignore case",
			text: doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""), edge("e1", "a", "b", "Go"), edge("e2", "b", "a", "GO")),
			want: "s(start)*; a=A; b=B; | e0:s>a#1 e1:a>b#1[Go] e2:b>a#1[Go]",
			diags: []string{
				`warning: graphml: event GO is read as Go: StateSmith's events ignore case`,
			},
		},
		{
			name: "enter on an edge",
			text: doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""), edge("e1", "a", "b", "enter / x++"), edge("e2", "a", "b", "exit")),
			diags: []string{
				`error: graphml: edge e1: behaviour "enter / x++": a transition cannot be taken on enter`,
				`error: graphml: edge e2: behaviour "exit": a transition cannot be taken on exit`,
			},
			err: true,
		},
		{
			name:  "a label StateSmith refuses",
			text:  doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""), edge("e1", "a", "b", "EV1 EV2")),
			diags: []string{`error: graphml: edge e1: behaviour "EV1 EV2" does not follow StateSmith's grammar: unexpected text "EV2"`},
			err:   true,
		},
		{
			name: "two labels",
			text: doc(start, node("a", "A"),
				`<edge id="e1" source="s" target="a"><data key="eg"><y:PolyLineEdge><y:EdgeLabel>GO</y:EdgeLabel><y:EdgeLabel>STOP</y:EdgeLabel></y:PolyLineEdge></data></edge>`),
			diags: []string{`error: graphml: edge e1 has 2 labels: StateSmith reads its last, "STOP", and this reader its first, "GO"`},
			err:   true,
		},
		{
			name:  "an arrow at the source",
			text:  doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""), edge("e1", "a", "b", "GO", "arrows=standard,none")),
			want:  "s(start)*; a=A; b=B; | e0:s>a#1 e1:a>b#1[GO]",
			diags: []string{`warning: graphml: the edge's arrow is at its source, but StateSmith reads an edge from its source to its target: read as a transition from a to b`},
		},
		// State behaviour.
		{
			name: "behaviour",
			text: doc(start, node("a", "A\nenter / on();\nexit / off();"), edge("e0", "s", "a", "")),
			want: "s(start)*; a=A; | e0:s>a#1",
			diags: []string{
				`warning: graphml: state "A": the behaviour written in it is code for a code generator, which fsmforge does not run: "enter / on(); exit / off();"`,
			},
		},
		{
			name: "a handler stops its parent's transition",
			text: doc(start, group("g", "G", nil, node("a", "A\nEV / count++;")), node("b", "B"),
				edge("e0", "s", "a", ""), edge("e1", "g", "b", "EV")),
			diags: []string{
				`warning: graphml: state "A": the behaviour written in it is code`,
				`error: graphml: state "A" handles EV itself ("EV / count++;"), which stops the transition on EV of state "G"`,
			},
			err: true,
		},
		{
			name: "a handler that does not consume",
			text: doc(start, group("g", "G", nil, node("a", "A\nev / consume_event = false;\n$mod / prefix.auto();\ndo / x++;")), node("b", "B"),
				edge("e0", "s", "a", ""), edge("e1", "g", "b", "EV"), edge("e2", "g", "b", "[t > 3]")),
			want: "s(start)*; g=G; a=A^g; b=B; | e0:s>a#1 e1:g>b#1[EV] e2:g>b#2[t > 3]",
		},
		{
			name: "a state consumes the do event",
			text: doc(start, group("g", "G", nil, node("a", "A\ndo / consume_event = true;")), node("b", "B"),
				edge("e0", "s", "a", ""), edge("e1", "g", "b", "[t > 3]")),
			diags: []string{`error: graphml: state "A" consumes the do event ("do / consume_event = true;"), which stops the transition e1 of state "G" ("[t > 3]")`},
			err:   true,
		},
		{
			name: "a guarded handler",
			text: doc(start, group("g", "G", nil, node("a", "A\nEV [busy] / count++;")), node("b", "B"),
				edge("e0", "s", "a", ""), edge("e1", "g", "b", "EV")),
			diags: []string{
				`error: graphml: state "A" handles EV itself ("EV [busy] / count++;"), which stops the transition on EV of state "G" ("EV") while the machine is in it and the guard [busy] holds`,
			},
			err: true,
		},
		{
			name: "a handler in another case",
			text: doc(start, group("g", "G", nil, node("a", "A\nev / count++;")), node("b", "B"),
				edge("e0", "s", "a", ""), edge("e1", "g", "b", "EV")),
			diags: []string{
				`warning: graphml: event EV is read as ev: StateSmith's events ignore case`,
				`error: graphml: state "A" handles ev itself ("ev / count++;"), which stops the transition on ev of state "G" ("EV")`,
			},
			err: true,
		},
		{
			name: "an else handler",
			text: doc(start, node("a", "A\nEV [else] / z();\nelse / y();\n1. [else] / x();"), edge("e0", "s", "a", "")),
			diags: []string{
				`error: graphml: state "A": behaviour "else / y();": else as a trigger is only valid on a transition`,
				`error: graphml: state "A": behaviour "1. [else] / x();": [else] with an order`,
			},
			err: true,
		},
		{
			name:  "an ordered [else]",
			text:  doc(start, node("a", "A"), node("b", "B"), edge("e0", "s", "a", ""), edge("e1", "a", "b", "1. [else]")),
			diags: []string{`error: graphml: edge e1: behaviour "1. [else]": [else] with an order`},
			err:   true,
		},
		{
			name: "entering an initial state that does not lead to one state",
			text: doc(start, group("g", "G", nil, node("gi", "$initial_state"), node("a", "A"), node("b", "B"),
				edge("g0", "gi", "a", "[x]"), edge("g1", "b", "gi", "RESTART")), edge("e0", "s", "g", "")),
			diags: []string{
				`error: graphml: edge g1 enters the initial state gi, which does not lead to one state`,
				`error: graphml: the transition of the initial state of state "G" has a trigger or a guard ("[x]")`,
			},
			err: true,
		},
		{
			name:  "behaviour StateSmith refuses",
			text:  doc(start, node("a", "A\nEV1 EV2 / x();"), edge("e0", "s", "a", "")),
			diags: []string{`error: graphml: state "A": behaviour "EV1 EV2 / x();" does not follow StateSmith's grammar`},
			err:   true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.check(t, graphml.Options{})
			for _, d := range c.Diagnostics {
				if !strings.HasPrefix(d.Message, "graphml: ") && !strings.HasPrefix(d.Message, "chart: ") {
					t.Errorf("diagnostic %q: want a graphml: prefix", d.Message)
				}
				if d.Severity.String() != "note" && d.Hint == "" && strings.HasPrefix(d.Message, "graphml: ") {
					t.Errorf("diagnostic %q has no hint", d.Message)
				}
			}
		})
	}
}
