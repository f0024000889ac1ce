package graphml_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// TestStencil reads small drawings made with the goomba stencil: roles
// and properties as yEd custom properties, with chart/visio's checks.
func TestStencil(t *testing.T) {
	st := charttest.Stencil(t)
	left := node("L", "walkLeft", "role=Initial State", "xm=left", "an=moveLeft")
	right := node("R", "walkRight", "role=State", "xm=right", "an=moveRight")
	death := node("D", "death", "role=State", "xm=death", "an=death")
	end := node("X", "", "shape=ellipse", "box=0,0,20,20")
	tr := func(id, from, to, test string, opts ...string) string {
		return edge(id, from, to, test, append([]string{"role=Transition", "test=" + test}, opts...)...)
	}
	for _, tt := range []readCase{
		{
			name: "message handler and stack",
			text: doc(left, right, death, end, node("H", "on hit", "role=Message Handler"),
				tr("t1", "L", "R", "hitTriggerLeft"), tr("t2", "R", "L", "hitTriggerRight", "order=0"),
				tr("t3", "H", "D", "hitByPlayer", "stack=push", "order=1"), tr("t4", "D", "X", "animationDone", "stack=return")),
			want: "L=walkLeft* XMovement:left Animation:moveLeft; R=walkRight XMovement:right Animation:moveRight; D=death XMovement:death Animation:death; |" +
				" t1:L>R#1[hitTriggerLeft] t2:R>L#1[hitTriggerRight] t3:any>D#1[hitByPlayer]+push t4:D>(return)#1[animationDone]",
		},
		{
			name:  "name property and behaviour text",
			text:  doc(node("L", "Walking left\nmoves left", "role=Initial State", "name=walkLeft", "xm=left"), end, tr("t1", "L", "X", "animationDone")),
			want:  "L=walkLeft* XMovement:left; | t1:L>(final)#1[animationDone]",
			diags: []string{`note: graphml: the text below the state's name is not read: "moves left"`},
		},
		{
			name: "compound",
			text: doc(node("S", "start", "role=Initial State"),
				group("G", "alive", []string{"role=State", "an=moveLeft"}, node("A", "a", "role=Initial State", "xm=left"), node("B", "b", "role=State", "xm=right"),
					tr("t1", "A", "B", "hitTriggerLeft")),
				group("F", "frame", nil, node("C", "c", "role=State")),
				tr("t0", "S", "G", "animationDone"), tr("t2", "G", "C", "hitByPlayer"), tr("t3", "C", "S", "animationDone")),
			// G keeps its entry action and its transition; C, in a frame
			// (a group without a role), is at the top level.
			want: "S=start*; G=alive Animation:moveLeft; A=a^G* XMovement:left; B=b^G XMovement:right; C=c; |" +
				" t1:A>B#1[hitTriggerLeft] t0:S>G#1[animationDone] t2:G>C#1[hitByPlayer] t3:C>S#1[animationDone]",
			diags: []string{`note: graphml: 1 node without a "fsmforge" property or an edge is not part of the chart`},
		},
		{
			name: "compound without an initial state",
			text: doc(node("S", "start", "role=Initial State"),
				group("G", "alive", []string{"role=State"}, node("A", "a", "role=State"), node("B", "b", "role=State")),
				tr("t0", "S", "G", "animationDone")),
			want:  "S=start*; G=alive; A=a^G; B=b^G; | t0:S>G#1[animationDone]",
			diags: []string{`error: graphml: state "alive" holds states but no initial state, and transition t0 enters it: the drawing does not say which of them the machine is then in (a statechart would enter "a", the first in the file)`},
			err:   true,
		},
		{
			name: "errors",
			text: doc(left, right, death, end, node("H", "handler", "role=Message Handler"),
				node("Q", "odd", "role=State", "xm=sideways"),
				tr("t1", "L", "R", "hitTriggerLeftt"), tr("t2", "L", "R", ""), edge("t3", "L", "R", "x", "role=Transition"),
				tr("t4", "X", "R", "hitByPlayer"), tr("t5", "L", "H", "hitByPlayer"), tr("t6", "L", "R", "hitByPlayer", "order=first"),
				tr("t7", "L", "R", "hitByPlayer", "stack=sideways"), tr("t8", "L", "R", "hitByPlayer", "stack=return")),
			diags: []string{
				`error: graphml: state "odd": XMovement value "sideways" is not in the drop-list of stencil "goomba"`,
				`error: graphml: test "hitTriggerLeftt" is not in stencil "goomba"`,
				`error: graphml: transition without a test`,
				`error: graphml: transition without a "Test" property`,
				`error: graphml: the transition starts at node X, which is not a state`,
				`error: graphml: the transition ends at the message handler node H "handler"`,
				`error: graphml: order "first" is not a whole number`,
				`error: graphml: stack operation "sideways" is not one of none, push, return`,
				`error: graphml: a returning transition ends at state R`,
			},
			err: true,
		},
		{
			name: "roles",
			text: doc(left, right, node("W", "wall", "role=Wall"), node("T", "t", "role=Transition"),
				edge("e1", "L", "R", "plain"), edge("e2", "L", "R", "", "role=State"), edge("e3", "L", "R", "", "role=Wall")),
			want: "L=walkLeft* XMovement:left Animation:moveLeft; R=walkRight XMovement:right Animation:moveRight; |",
			diags: []string{
				`warning: graphml: role "Wall" is not a master of stencil "goomba": its 2 nodes and edges are ignored`,
				`warning: graphml: node with role "Transition", which is for edges; ignored`,
				`warning: graphml: edge without a "fsmforge" property: not a transition; ignored`,
				`warning: graphml: edge with role "State", which is for nodes; ignored`,
			},
		},
		{
			name:  "another stencil",
			text:  doc(node("a", "A", "role=Room"), edge("e", "a", "a", "", "role=Door")),
			want:  "|",
			diags: []string{`error: graphml: the drawing was not made with stencil "goomba": the "fsmforge" property names its masters ("State", "Transition"...), but its values are "Room", "Door"`},
			err:   true,
		},
		{
			name: "keys",
			text: strings.Replace(strings.Replace(doc(left, end, tr("t1", "L", "X", "animationDone")),
				`<key attr.name="Animation" attr.type="string" for="node" id="an"/>`, `<key attr.name="Colour" for="node" id="colour"/>`, 1),
				`<key attr.name="XMovement" attr.type="string" for="node" id="xm"/>`,
				`<key attr.name="XMovement" attr.type="string" for="node" id="xm"><default>existing</default></key>`, 1),
			want: "L=walkLeft* XMovement:left; | t1:L>(final)#1[animationDone]",
			diags: []string{
				`warning: graphml: the file declares no node property "Animation", which stencil "goomba" (version 1) lists`,
				`note: graphml: property "Colour" is not in stencil "goomba"; ignored`,
				`warning: graphml: <data> refers to key "an", which no <key> declares; ignored`,
			},
		},
		{
			name: "key defaults",
			text: strings.Replace(doc(node("L", "walkLeft", "role=Initial State"), end, tr("t1", "L", "X", "animationDone")),
				`<key attr.name="XMovement" attr.type="string" for="node" id="xm"/>`,
				`<key attr.name="XMovement" attr.type="string" for="node" id="xm"><default>existing</default></key>`, 1),
			want: "L=walkLeft* XMovement:existing; | t1:L>(final)#1[animationDone]",
		},
		{
			name: "duplicate ids",
			text: doc(left, node("L", "again", "role=State"), end, tr("t1", "L", "X", "animationDone"), tr("t1", "L", "X", "animationDone")),
			diags: []string{
				`error: graphml: node id "L" is used twice; the second node and what it holds are ignored`,
				`error: graphml: edge id "t1" is used twice; the second edge is ignored`,
			},
			err: true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.check(t, graphml.Options{Stencil: st})
			for _, d := range c.Diagnostics {
				if d.Severity == 0 && d.Hint == "" && !strings.HasPrefix(d.Message, "chart:") {
					t.Errorf("error %q has no hint", d.Message)
				}
			}
		})
	}
}

// TestRoleKey reads roles from another property.
func TestRoleKey(t *testing.T) {
	text := strings.Replace(doc(node("L", "walkLeft", "role=Initial State"), node("X", ""), edge("t", "L", "X", "", "role=Transition", "test=animationDone")),
		`attr.name="fsmforge"`, `attr.name="Kind"`, 1)
	c, err := read(t, text, graphml.Options{Stencil: charttest.Stencil(t), RoleKey: "Kind"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(c), "L=walkLeft*; | t:L>(final)#1[animationDone]"; got != want {
		t.Errorf("chart = %s, want %s", got, want)
	}
}

// statechartStencil is the goomba stencil with the masters of
// statecharts: "Composite", "Parallel", "History" and "Deep History".
func statechartStencil(tb testing.TB) *chart.Stencil {
	st := *charttest.Stencil(tb)
	st.Masters.Composite, st.Masters.Parallel = "Composite", "Parallel"
	st.Masters.History, st.Masters.DeepHistory = "History", "Deep History"
	return &st
}

// TestStencilStatechart reads small drawings made with a stencil that
// names the masters of statecharts: composite and parallel groups,
// history nodes, and what a designer may get wrong with them, each
// problem at its node or edge.
func TestStencilStatechart(t *testing.T) {
	st := statechartStencil(t)
	tr := func(id, from, to, test string, opts ...string) string {
		return edge(id, from, to, test, append([]string{"role=Transition", "test=" + test}, opts...)...)
	}
	idle := node("I", "idle", "role=Initial State")
	for _, tt := range []nestCase{
		{readCase: readCase{
			name: "composite with an initial state, a history and entry actions",
			text: doc(idle, group("C", "label", []string{"role=Composite", "name=alive", "an=moveLeft"},
				node("A", "a", "role=Initial State", "xm=left"), node("B", "b", "role=State"), node("H", "H", "role=History", "shape=ellipse"),
				tr("t1", "A", "B", "hitTriggerLeft")),
				tr("t0", "I", "C", "animationDone"), tr("t2", "C", "I", "hitByPlayer"), tr("t3", "I", "H", "hitTriggerRight")),
			want: "I=idle*; C=alive Animation:moveLeft; A=a^C* XMovement:left; B=b^C; H^C(history); |" +
				" t1:A>B#1[hitTriggerLeft] t0:I>C#1[animationDone] t2:C>I#1[hitByPlayer] t3:I>H#2[hitTriggerRight] H#1:H>A#1",
			diags: []string{`note: graphml: history H has no transition: when there is no history yet, it enters "a", the initial state of "alive", as UML enters the state`},
		}},
		{readCase: readCase{
			name: "parallel with two regions, a deep history with its default",
			text: doc(idle, group("P", "both", []string{"role=Parallel"},
				group("L", "legs", []string{"role=Composite"}, node("L1", "walk", "role=Initial State"), node("L2", "jump", "role=State"), node("LH", "H*", "role=Deep History"),
					tr("l1", "L1", "L2", "hitTriggerLeft"), edge("l2", "LH", "L2", "", "role=Transition")),
				group("A", "arms", []string{"role=Composite"}, node("A1", "swing", "role=Initial State"))),
				tr("t0", "I", "P", "animationDone"), tr("t1", "L2", "LH", "hitByPlayer")),
			want: "I=idle*; P=both(parallel); L=legs^P; L1=walk^L*; L2=jump^L; LH^L(deepHistory); A=arms^P; A1=swing^A*; |" +
				" l1:L1>L2#1[hitTriggerLeft] l2:LH>L2#1 t0:I>P#1[animationDone] t1:L2>LH#1[hitByPlayer]",
		}},
		{readCase: readCase{
			name: "a composite folder, shown closed",
			text: doc(idle, strings.NewReplacer(`yfiles.foldertype="group"`, `yfiles.foldertype="folder"`, `<y:Realizers active="0">`, `<y:Realizers active="1">`).Replace(
				group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"))), tr("t0", "I", "C", "animationDone")),
			want: "I=idle*; C=alive; A=a^C*; | t0:I>C#1[animationDone]",
		}},
		{readCase: readCase{
			name: "a composite group that holds nothing and no edge touches is a state",
			text: doc(idle, group("C", "later", []string{"role=Composite"})),
			want: "I=idle*; C=later; |",
		}},
		{readCase: readCase{
			name: "a state group keeps holding states",
			text: doc(idle, group("G", "alive", []string{"role=State"}, node("A", "a", "role=Initial State")), tr("t0", "I", "G", "animationDone")),
			want: "I=idle*; G=alive; A=a^G*; | t0:I>G#1[animationDone]",
		}},
		{
			readCase: readCase{
				name: "a composite that is not a group",
				// A, drawn over C, is not inside it for yEd.
				text:  doc(idle, node("C", "alive", "role=Composite"), node("A", "a", "role=State"), tr("t0", "I", "C", "animationDone")),
				want:  "I=idle*; C=alive; A=a; | t0:I>C#1[animationDone]",
				diags: []string{`warning: graphml: node C "alive" has the role "Composite", a state that holds states, but is not a group node: it holds none, and is read as a simple state`},
			},
			at: "C",
		},
		{
			readCase: readCase{
				name:  "a parallel that is not a group",
				text:  doc(idle, node("P", "both", "role=Parallel"), tr("t0", "I", "P", "animationDone")),
				want:  "I=idle*; P=both; | t0:I>P#1[animationDone]",
				diags: []string{`warning: graphml: node P "both" has the role "Parallel", a state that holds states, but is not a group node: it holds none, and is read as a simple state`},
			},
			at: "P",
		},
		{
			readCase: readCase{
				name:  "a parallel group without regions",
				text:  doc(idle, group("P", "both", []string{"role=Parallel"}), tr("t0", "I", "P", "animationDone")),
				want:  "I=idle*; P=both; | t0:I>P#1[animationDone]",
				diags: []string{`warning: graphml: node P "both" has the role "Parallel", a parallel state, but holds no states to be its regions: it is read as a simple state`},
			},
			at: "P",
		},
		{
			readCase: readCase{
				name:  "a history in no state",
				text:  doc(idle, node("H", "H", "role=History"), tr("t0", "I", "H", "animationDone"), edge("t1", "H", "I", "", "role=Transition")),
				want:  "I=idle*; |",
				diags: []string{`error: graphml: history H is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`},
				err:   true,
			},
			at: "H",
		},
		{
			readCase: readCase{
				name: "a history holding nodes",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"),
					group("H", "H", []string{"role=Deep History"}, node("X", "x", "role=State")))),
				want:  "I=idle*; C=alive; A=a^C*; |",
				diags: []string{`error: graphml: history node H "H" holds other nodes: a pseudo-state holds none; it, what it holds and its edges are left out`},
				err:   true,
			},
			at: "H",
		},
		{
			readCase: readCase{
				name: "a history's transition with a test",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"), node("H", "", "role=History"),
					tr("h1", "H", "A", "hitByPlayer")), tr("t0", "I", "H", "animationDone")),
				// The edge is kept, without its test: it says where the
				// history leads.
				want:  "I=idle*; C=alive; A=a^C*; H^C(history); | h1:H>A#1 t0:I>H#1[animationDone]",
				diags: []string{`error: graphml: the transition of history H has test "hitByPlayer": a history's transition is its default, taken without a test whenever its state has no history yet`},
				err:   true,
			},
		},
		{
			readCase: readCase{
				name: "a history with an action property",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"), node("H", "H", "role=History", "an=moveLeft"),
					edge("h1", "H", "A", "", "role=Transition")), tr("t0", "I", "H", "animationDone")),
				want:  "I=idle*; C=alive; A=a^C*; H^C(history); | h1:H>A#1 t0:I>H#1[animationDone]",
				diags: []string{`warning: graphml: history H: Animation "moveLeft" is not read: a history is a pseudo-state, without entry actions`},
			},
		},
		{
			readCase: readCase{
				name:  "a node with a transition's role",
				text:  doc(idle, node("T", "t", "role=Transition")),
				want:  "I=idle*; |",
				diags: []string{`warning: graphml: node with role "Transition", which is for edges; ignored`},
			},
			at: "T",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.run(t, graphml.Options{Stencil: st})
			for _, d := range c.Diagnostics {
				// Errors and warnings name their node or edge, where its
				// element or the property at fault is, with a hint.
				if d.Severity <= chart.Warning && (d.Hint == "" || d.Pos.Shape == "" || d.Pos.Line == 0) {
					t.Errorf("%s %q at %+v, hint %q: want a node or an edge, a line and a hint", d.Severity, d.Message, d.Pos, d.Hint)
				}
			}
		})
	}
}

// TestStencilStatechartHints checks the hints that name the stencil's
// masters: all of them for an unknown role, those of nodes for a node
// with a transition's role.
func TestStencilStatechartHints(t *testing.T) {
	c, _ := read(t, doc(node("I", "idle", "role=Initial State"), node("W", "wall", "role=Wall"), node("T", "t", "role=Transition")),
		graphml.Options{Stencil: statechartStencil(t)})
	for _, want := range []string{
		`Use the stencil's masters only: "State", "Initial State", "Transition", "Message Handler", "Composite", "Parallel", "History", "Deep History".`,
		`Give the node the role of one of the stencil's masters for nodes ("State", "Initial State", "Message Handler", "Composite", "Parallel", "History", "Deep History"); transitions are edges.`,
	} {
		if !slices.ContainsFunc(c.Diagnostics, func(d chart.Diagnostic) bool { return d.Hint == want }) {
			t.Errorf("diagnostics = %v, want one with hint %s", c.Diagnostics, want)
		}
	}
}
