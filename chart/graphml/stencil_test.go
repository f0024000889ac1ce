package graphml_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/table"
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
// statecharts: "Composite", "Parallel", "Start", "History" and "Deep
// History".
func statechartStencil(tb testing.TB) *chart.Stencil {
	st := *charttest.Stencil(tb)
	st.Masters.Composite, st.Masters.Parallel, st.Masters.Start = "Composite", "Parallel", "Start"
	st.Masters.History, st.Masters.DeepHistory = "History", "Deep History"
	return &st
}

// tr is an edge of the transition role with a test.
func tr(id, from, to, test string, opts ...string) string {
	return edge(id, from, to, test, append([]string{"role=Transition", "test=" + test}, opts...)...)
}

// startNode is a node of the start role: a small filled circle without a
// label.
func startNode(id string, opts ...string) string {
	return node(id, "", append([]string{"role=Start", "shape=ellipse", "box=0,0,20,20"}, opts...)...)
}

// TestStencilStatechart reads small drawings made with a stencil that
// names the masters of statecharts: composite and parallel groups,
// start and history nodes, where the machine starts, and what a designer
// may get wrong with them, each problem at its node or edge. A case that
// lists no diagnostics has no error or warning.
func TestStencilStatechart(t *testing.T) {
	st := statechartStencil(t)
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
				want: "I=idle*; C=alive; A=a^C*; H^C(history); | h1:H>A#1 t0:I>H#1[animationDone]",
				diags: []string{`warning: graphml: the transition of node H, a history state, has test "hitByPlayer", which is ignored:` +
					` a history's transition is its default, taken without a test whenever its state has no history yet`},
			},
		},
		{
			readCase: readCase{
				name: "a deep history's transition with a test",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"), node("H", "H*", "role=Deep History"),
					tr("h1", "H", "A", "hitByPlayer")), tr("t0", "I", "H", "animationDone")),
				want: "I=idle*; C=alive; A=a^C*; H^C(deepHistory); | h1:H>A#1 t0:I>H#1[animationDone]",
				diags: []string{`warning: graphml: the transition of node H "H*", a deep history state, has test "hitByPlayer", which is ignored:` +
					` a history's transition is its default, taken without a test whenever its state has no history yet`},
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
		{readCase: readCase{
			name: "the machine starts in a composite group",
			// No state at the top is of the initial-state master: the
			// machine starts in A, so in C.
			text: doc(node("I", "idle", "role=State"), group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"), node("B", "b", "role=State"),
				tr("t1", "A", "B", "hitTriggerLeft")), tr("t0", "C", "I", "hitByPlayer"), tr("t2", "I", "C", "animationDone")),
			want: "I=idle; C=alive*; A=a^C*; B=b^C; | t1:A>B#1[hitTriggerLeft] t0:C>I#1[hitByPlayer] t2:I>C#1[animationDone]",
		}},
		{readCase: readCase{
			name: "the machine starts in a parallel group",
			// P is marked, not the region L around the initial state.
			text: doc(node("I", "idle", "role=State"), group("P", "both", []string{"role=Parallel"},
				group("L", "legs", []string{"role=Composite"}, node("L1", "walk", "role=Initial State"), node("L2", "jump", "role=State"), tr("l1", "L1", "L2", "hitTriggerLeft")),
				group("A", "arms", []string{"role=Composite"}, startNode("AS"), node("A1", "swing", "role=State"), edge("a0", "AS", "A1", "", "role=Transition"))),
				tr("t0", "P", "I", "hitByPlayer"), tr("t1", "I", "P", "animationDone")),
			want: "I=idle; P=both(parallel)*; L=legs^P; L1=walk^L*; L2=jump^L; A=arms^P; AS^A(start)*; A1=swing^A; |" +
				" l1:L1>L2#1[hitTriggerLeft] a0:AS>A1#1 t0:P>I#1[hitByPlayer] t1:I>P#1[animationDone]",
		}},
		{readCase: readCase{
			name: "a start node says where a composite starts",
			// The machine starts in idle: the start node's group does not
			// climb.
			text: doc(idle, group("C", "alive", []string{"role=Composite"}, startNode("S"), node("A", "a", "role=State"), node("H", "H", "role=History"),
				edge("s1", "S", "A", "", "role=Transition")), tr("t0", "I", "C", "animationDone"), tr("t1", "I", "H", "hitByPlayer")),
			want:  "I=idle*; C=alive; S^C(start)*; A=a^C; H^C(history); | s1:S>A#1 t0:I>C#1[animationDone] t1:I>H#2[hitByPlayer] H#1:H>A#1",
			diags: []string{`note: graphml: history H has no transition: when there is no history yet, it enters "a", where the start state of "alive" leads, as UML enters the state`},
		}},
		{readCase: readCase{
			name: "a start node at the top",
			text: doc(startNode("S"), node("I", "idle", "role=State"), group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State")),
				edge("s1", "S", "I", "", "role=Transition"), tr("t0", "I", "C", "animationDone")),
			// The top level marks its own start: C is not marked.
			want: "S(start)*; I=idle; C=alive; A=a^C*; | s1:S>I#1 t0:I>C#1[animationDone]",
		}},
		{
			readCase: readCase{
				name: "a start node's transition with a test",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, startNode("S"), node("A", "a", "role=State"),
					tr("s1", "S", "A", "hitByPlayer")), tr("t0", "I", "C", "animationDone")),
				// The edge is kept, without its test: it says where C
				// starts.
				want: "I=idle*; C=alive; S^C(start)*; A=a^C; | s1:S>A#1 t0:I>C#1[animationDone]",
				diags: []string{`warning: graphml: the transition of node S, a start state, has test "hitByPlayer", which is ignored:` +
					` a start's transition says where its state starts, taken without a test whenever the state is entered (or the machine starts)`},
			},
		},
		{readCase: readCase{
			name: "a start node without an edge",
			// Package compile reports it (see TestStencilStart).
			text: doc(idle, group("C", "alive", []string{"role=Composite"}, startNode("S"), node("A", "a", "role=State")), tr("t0", "I", "C", "animationDone")),
			want: "I=idle*; C=alive; S^C(start)*; A=a^C; | t0:I>C#1[animationDone]",
		}},
		{readCase: readCase{
			name: "a start node in a parallel group",
			// Package compile reports it (see TestStencilStart).
			text: doc(idle, group("P", "both", []string{"role=Parallel"}, startNode("S"),
				group("A", "arms", []string{"role=Composite"}, node("A1", "swing", "role=Initial State"))),
				edge("s1", "S", "A", "", "role=Transition"), tr("t0", "I", "P", "animationDone")),
			// A state drawn in a parallel state is not its initial
			// state: all of them start.
			want: "I=idle*; P=both(parallel); S^P(start); A=arms^P; A1=swing^A*; | s1:S>A#1 t0:I>P#1[animationDone]",
		}},
		{
			readCase: readCase{
				name: "a start node holding nodes",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"),
					group("S", "", []string{"role=Start"}, node("X", "x", "role=State")))),
				want:  "I=idle*; C=alive; A=a^C*; |",
				diags: []string{`error: graphml: start node S holds other nodes: a pseudo-state holds none; it, what it holds and its edges are left out`},
				err:   true,
			},
			at: "S",
		},
		{
			readCase: readCase{
				name: "a start node with an action property",
				text: doc(idle, group("C", "alive", []string{"role=Composite"}, startNode("S", "an=moveLeft"), node("A", "a", "role=State"),
					edge("s1", "S", "A", "", "role=Transition")), tr("t0", "I", "C", "animationDone")),
				want:  "I=idle*; C=alive; S^C(start)*; A=a^C; | s1:S>A#1 t0:I>C#1[animationDone]",
				diags: []string{`warning: graphml: start state S: Animation "moveLeft" is not read: a start state is a pseudo-state, without entry actions`},
			},
		},
		{
			readCase: readCase{
				name: "a region of the initial-state master where the machine does not start",
				text: doc(idle, group("P", "both", []string{"role=Parallel"},
					group("L", "legs", []string{"role=Initial State"}, node("L1", "walk", "role=Initial State")),
					group("A", "arms", []string{"role=Composite"}, node("A1", "swing", "role=Initial State"))),
					tr("t0", "I", "P", "animationDone")),
				want: "I=idle*; P=both(parallel); L=legs^P; L1=walk^L*; A=arms^P; A1=swing^A*; | t0:I>P#1[animationDone]",
				diags: []string{`warning: graphml: region "legs" of parallel state "both" is drawn with the "Initial State" master: entering "both" enters all its regions,` +
					` and the machine does not start in it (its level starts elsewhere), so the mark is ignored`},
			},
			at: "L",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.run(t, graphml.Options{Stencil: st})
			if len(tt.diags) == 0 && slices.ContainsFunc(c.Diagnostics, func(d diag.Diagnostic) bool { return d.Severity <= diag.Warning }) {
				t.Errorf("diagnostics =\n%s\nwant no error or warning", messages(c))
			}
			for _, d := range c.Diagnostics {
				// Errors and warnings name their node or edge, where its
				// element or the property at fault is, with a hint.
				if d.Severity <= diag.Warning && (d.Hint == "" || d.Pos.Shape == "" || d.Pos.Line == 0) {
					t.Errorf("%s %q at %+v, hint %q: want a node or an edge, a line and a hint", d.Severity, d.Message, d.Pos, d.Hint)
				}
			}
		})
	}
}

// TestStencilStatechartHints checks the hints that name the stencil's
// masters: all of them for an unknown role, those of nodes for a node
// with a transition's role, the initial-state and start masters for a
// composite entered without an initial state.
func TestStencilStatechartHints(t *testing.T) {
	c, _ := read(t, doc(node("I", "idle", "role=Initial State"), node("W", "wall", "role=Wall"), node("T", "t", "role=Transition"),
		group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=State")), tr("t0", "I", "C", "animationDone")),
		graphml.Options{Stencil: statechartStencil(t)})
	for _, want := range []string{
		`Use the stencil's masters only: "State", "Initial State", "Transition", "Message Handler", "Composite", "Parallel", "Start", "History", "Deep History".`,
		`Give the node the role of one of the stencil's masters for nodes ("State", "Initial State", "Message Handler", "Composite", "Parallel", "Start", "History", "Deep History"); transitions are edges.`,
		`Draw a node of the role "Start" in it, with a transition without a test to the state to enter, or draw that state as a node of the role "Initial State"; or end the transition at that state.`,
	} {
		if !slices.ContainsFunc(c.Diagnostics, func(d diag.Diagnostic) bool { return d.Hint == want }) {
			t.Errorf("diagnostics = %v, want one with hint %s", c.Diagnostics, want)
		}
	}
}

// TestStencilStart compiles small drawings made with a stencil that names
// the masters of statecharts, and checks where the machine starts: the
// states active once table.NewAgent returns, and after a polled test
// holds. Package compile, not the reader, reports a start node without an
// edge; a region's initial mark the reader reports as ignored, compile
// does not report again.
func TestStencilStart(t *testing.T) {
	st := statechartStencil(t)
	composite := group("C", "alive", []string{"role=Composite"}, startNode("S"), node("A", "a", "role=State"), node("B", "b", "role=State"),
		edge("s1", "S", "A", "", "role=Transition"), tr("t1", "A", "B", "hitTriggerLeft"))
	for _, tt := range []struct {
		name    string
		text    string
		active  string // the states active at the start, in document order
		polled  string // then a polled test that holds ("" for none)
		after   string // and the states active after that update
		compile string // the error or warning of package compile ("" for none)
	}{
		{
			name: "in a composite group",
			text: doc(node("I", "idle", "role=State"), group("C", "alive", []string{"role=Composite"}, node("A", "a", "role=Initial State"), node("B", "b", "role=State"),
				tr("t1", "A", "B", "hitTriggerLeft")), tr("t0", "C", "I", "animationDone"), tr("t2", "I", "C", "hitTriggerRight")),
			active: "alive a", polled: "hitTriggerLeft", after: "alive b",
		},
		{
			name: "in a parallel group",
			text: doc(node("I", "idle", "role=State"), group("P", "both", []string{"role=Parallel"},
				group("L", "legs", []string{"role=Composite"}, node("L1", "walk", "role=Initial State"), node("L2", "jump", "role=State"), tr("l1", "L1", "L2", "hitTriggerLeft")),
				group("A", "arms", []string{"role=Composite"}, startNode("AS"), node("A1", "swing", "role=State"), edge("a0", "AS", "A1", "", "role=Transition"))),
				tr("t0", "P", "I", "animationDone"), tr("t1", "I", "P", "hitTriggerRight")),
			active: "both legs walk arms swing", polled: "animationDone", after: "idle",
		},
		{
			name: "at a start node at the top, a composite starting at its start node",
			text: doc(startNode("T"), node("I", "idle", "role=State"), composite, edge("t", "T", "I", "", "role=Transition"),
				tr("t0", "I", "C", "animationDone"), tr("t2", "C", "I", "hitByPlayer")),
			active: "idle", polled: "animationDone", after: "alive a",
		},
		{
			name:   "in a state of the initial-state master, a composite starting at its start node",
			text:   doc(node("I", "idle", "role=Initial State"), composite, tr("t0", "I", "C", "animationDone"), tr("t2", "C", "I", "hitByPlayer")),
			active: "idle", polled: "animationDone", after: "alive a",
		},
		{
			name: "a region of the initial-state master where the machine does not start",
			text: doc(node("I", "idle", "role=Initial State"), group("P", "both", []string{"role=Parallel"},
				group("L", "legs", []string{"role=Initial State"}, node("L1", "walk", "role=Initial State")),
				group("A", "arms", []string{"role=Composite"}, node("A1", "swing", "role=Initial State"))),
				tr("t0", "I", "P", "animationDone")),
			active: "idle", polled: "animationDone", after: "both legs walk arms swing",
		},
		{
			name:    "a start node without an edge",
			text:    doc(node("I", "idle", "role=Initial State"), group("C", "alive", []string{"role=Composite"}, startNode("S"), node("A", "a", "role=State")), tr("t0", "I", "C", "animationDone")),
			compile: `error: compile: start state "S" has 0 transitions; it needs one`,
		},
		{
			name: "a start node in a parallel group",
			text: doc(node("I", "idle", "role=Initial State"), group("P", "both", []string{"role=Parallel"}, startNode("S"),
				group("A", "arms", []string{"role=Composite"}, node("A1", "swing", "role=Initial State"))),
				edge("s1", "S", "A", "", "role=Transition"), tr("t0", "I", "P", "animationDone")),
			compile: `error: compile: start state "S" is in parallel state "P", which has no initial state`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := read(t, tt.text, graphml.Options{Stencil: st})
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			r, err := compile.Compile(c, compile.Options{Stencil: st})
			var own []string // compile's errors and warnings
			for _, d := range r.Diagnostics {
				if d.Severity <= diag.Warning && strings.HasPrefix(d.Message, "compile: ") {
					own = append(own, d.Severity.String()+": "+d.Message)
				}
			}
			if got := strings.Join(own, "\n"); got != tt.compile {
				t.Errorf("compile.Compile diagnostics =\n%s\nwant %q", got, tt.compile)
			}
			if err != nil {
				if tt.compile == "" {
					t.Fatalf("compile.Compile = %v", err)
				}
				return
			}
			h := &pollHost{tb: r.Table}
			a := table.NewAgent[int](r.Table, 0, h)
			active := func() string {
				var names []string
				for _, s := range a.AppendActive(nil) {
					names = append(names, r.Table.StateName(s))
				}
				return strings.Join(names, " ")
			}
			if got := active(); got != tt.active {
				t.Errorf("active at the start = %q, want %q", got, tt.active)
			}
			h.holds = tt.polled
			if _, err := a.Update(h); err != nil {
				t.Fatal(err)
			}
			if got := active(); got != tt.after {
				t.Errorf("active after %s = %q, want %q", tt.polled, got, tt.after)
			}
		})
	}
}
