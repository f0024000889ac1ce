package graphml_test

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
)

// folder is a yEd folder node: a group node shown closed, whose members
// the file still holds.
func folder(id, label string, members ...string) string {
	g := group(id, label, nil, members...)
	g = strings.Replace(g, `yfiles.foldertype="group"`, `yfiles.foldertype="folder"`, 1)
	return strings.Replace(g, `<y:Realizers active="0">`, `<y:Realizers active="1">`, 1)
}

// nestCase is a drawing with groups and what reading it gives (see
// readCase); at is the shape ID of the first error (or, without errors,
// the first warning), whose position must be its element's line.
type nestCase struct {
	readCase
	at string
}

// lineOf returns the line of the element with the given id in text.
func lineOf(t *testing.T, text, id string) int {
	t.Helper()
	for _, tag := range []string{`<node id="` + id + `"`, `<edge id="` + id + `"`} {
		if i := strings.Index(text, tag); i >= 0 {
			return strings.Count(text[:i], "\n") + 1
		}
	}
	t.Fatalf("no element %q", id)
	return 0
}

func (tt nestCase) run(t *testing.T, opt graphml.Options) *chart.Chart {
	t.Helper()
	c := tt.check(t, opt)
	if tt.at == "" {
		return c
	}
	for _, sev := range []diag.Severity{diag.Error, diag.Warning} {
		for _, d := range c.Diagnostics {
			if d.Severity != sev {
				continue
			}
			if d.Pos.Shape != tt.at || d.Pos.Line != lineOf(t, tt.text, tt.at) || d.Pos.Col == 0 || d.Pos.File != "test.graphml" || d.Hint == "" {
				t.Errorf("first problem at %+v (hint %q), want shape %s at line %d, with a hint", d.Pos, d.Hint, tt.at, lineOf(t, tt.text, tt.at))
			}
			return c
		}
	}
	t.Errorf("no error or warning, want one at %s", tt.at)
	return c
}

// TestNesting reads groups in plain diagrams (UML's and Kingly's
// conventions): one case per construct and per error, which names the
// node or the edge where it is.
func TestNesting(t *testing.T) {
	start := node("s", "", "shape=ellipse", "box=0,0,20,20")
	for _, tt := range []nestCase{
		{readCase: readCase{
			name: "group with a start, states and a final state",
			text: doc(start, group("g", "G", nil, node("gs", "[*]"), node("a", "A"), node("b", "B"), node("f", "", "shape=ellipse", "box=0,0,20,20"),
				edge("g0", "gs", "a", ""), edge("g1", "a", "b", "go"), edge("g2", "b", "f", "stop")),
				node("z", "Z"), edge("e0", "s", "g", ""), edge("e1", "g", "z", "")),
			want: "s(start)*; g=G; gs^g(start)*; a=A^g; b=B^g; f^g(end); z=Z; | g0:gs>a#1 g1:a>b#1[go] g2:b>f#1[stop] e0:s>g#1 e1:g>z#1",
		}},
		{readCase: readCase{
			name: "groups nest, parents first",
			text: doc(start, group("g", "G", nil, node("gs", "[*]"), group("h", "H1", nil, node("hs", "[*]"), node("a", "A"), edge("h0", "hs", "a", "")),
				node("b", "B"), edge("g0", "gs", "h", "")), edge("e0", "s", "g", "")),
			want: "s(start)*; g=G; gs^g(start)*; h=H1^g; hs^h(start)*; a=A^h; b=B^g; | h0:hs>a#1 g0:gs>h#1 e0:s>g#1",
		}},
		{readCase: readCase{
			name: "folder nodes hold their members",
			text: doc(start, folder("g", "G", node("gs", "[*]"), node("a", "A"), edge("g0", "gs", "a", "")), edge("e0", "s", "g", "")),
			want: "s(start)*; g=G; gs^g(start)*; a=A^g; | g0:gs>a#1 e0:s>g#1",
		}},
		{readCase: readCase{
			name: "a transition of a group stays the group's",
			text: doc(start, node("off", "OFF"),
				group("on", "ON", nil, node("on::s", "", "shape=ellipse", "box=0,0,20,20"), node("on::a", "A"), node("on::b", "B"),
					edge("on::e0", "on::s", "on::b", "")),
				edge("e1", "s", "off", ""), edge("e2", "off", "on", "power"), edge("e3", "on", "off", "power"), edge("e4", "on::b", "on::a", "tick")),
			want: "s(start)*; off=OFF; on=ON; on::s^on(start)*; on::a=A^on; on::b=B^on; | on::e0:on::s>on::b#1 e1:s>off#1 e2:off>on#1[power] e3:on>off#1[power] e4:on::b>on::a#1[tick]",
		}},
		{readCase: readCase{
			name: "a group nothing enters needs no start",
			text: doc(start, group("g", "G", nil, node("a", "A"), node("b", "B"), edge("g0", "a", "b", "go")), edge("e0", "s", "a", "")),
			want: "s(start)*; g=G; a=A^g; b=B^g; | g0:a>b#1[go] e0:s>a#1",
		}},
		{readCase: readCase{
			name: "history with its default",
			text: doc(start, group("g", "G", nil, node("gs", "[*]"), node("a", "A"), node("b", "B"), node("h", "H", "shape=rectangle"),
				edge("g0", "gs", "a", ""), edge("g1", "a", "b", "next"), edge("g2", "h", "b", "")),
				node("z", "Z"), edge("e0", "s", "g", ""), edge("e1", "g", "z", "pause"), edge("e2", "z", "h", "resume")),
			want: "s(start)*; g=G; gs^g(start)*; a=A^g; b=B^g; h^g(history); z=Z; | g0:gs>a#1 g1:a>b#1[next] g2:h>b#1 e0:s>g#1 e1:g>z#1[pause] e2:z>h#1[resume]",
		}},
		{readCase: readCase{
			name: "deep history",
			text: doc(start, group("g", "G", nil, node("a", "A"), node("h", "H*"), edge("g0", "h", "a", "")), edge("e0", "s", "h", "")),
			want: "s(start)*; g=G; a=A^g; h^g(deepHistory); | g0:h>a#1 e0:s>h#1",
		}},
		{readCase: readCase{
			name: "a small ellipse labelled h",
			text: doc(start, group("g", "G", nil, node("a", "A"), node("h", "h*", "shape=ellipse", "box=0,0,20,20"), edge("g0", "h", "a", "")), edge("e0", "s", "h", "")),
			want: "s(start)*; g=G; a=A^g; h^g(deepHistory); | g0:h>a#1 e0:s>h#1",
		}},
		{
			readCase: readCase{
				name: "history without an edge: where the group's start leads",
				text: doc(start, group("g", "G", nil, node("gs", "init"), node("a", "A"), node("h", "H"), edge("g0", "gs", "a", "")),
					node("z", "Z"), edge("e0", "s", "z", ""), edge("e1", "z", "h", "back")),
				want:  "s(start)*; g=G; gs^g(start)*; a=A^g; h^g(history); z=Z; | g0:gs>a#1 e0:s>z#1 e1:z>h#1[back] h#1:h>a#1",
				diags: []string{`note: graphml: history h has no transition: when there is no history yet, it enters "A", where the start state of "G" leads, as UML enters the state`},
			},
		},
		{
			readCase: readCase{
				name:  "history without an edge nor a start",
				text:  doc(start, group("g", "G", nil, node("a", "A"), node("h", "H")), edge("e0", "s", "a", ""), edge("e1", "a", "h", "back")),
				want:  "s(start)*; g=G; a=A^g; h^g(history); | e0:s>a#1 e1:a>h#1[back]",
				diags: []string{`error: graphml: history h has no transition, and state "G" has no start state whose one transition, nor a state marked initial, says which state to enter when there is no history yet`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name: "a state a shallow history may restore, without a start",
				text: doc(start, group("g", "G", nil, node("gs", "[*]"), group("a", "A", nil, node("a1", "A1"), node("a2", "A2")), node("h", "H"),
					edge("g0", "gs", "a1", ""), edge("g1", "h", "a1", "")), node("z", "Z"), edge("e0", "s", "g", ""), edge("e1", "g", "z", "pause"), edge("e2", "z", "h", "resume")),
				diags: []string{`error: graphml: state "A" holds states but no initial state, and history h may restore it`},
				err:   true,
			},
			at: "a",
		},
		{
			readCase: readCase{
				name:  "history with two edges",
				text:  doc(start, group("g", "G", nil, node("a", "A"), node("b", "B"), node("h", "H"), edge("g0", "h", "a", ""), edge("g1", "h", "b", "")), edge("e0", "s", "h", "")),
				diags: []string{`error: graphml: history h has 2 transitions: a history has one, its default, to the state it enters when there is no history yet`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name:  "history with a labelled edge",
				text:  doc(start, group("g", "G", nil, node("a", "A"), node("h", "H"), edge("g0", "h", "a", "go [ready]")), edge("e0", "s", "h", "")),
				diags: []string{`error: graphml: the transition of history h has a trigger or a guard ("go [ready]")`},
				err:   true,
			},
			at: "g0",
		},
		{
			readCase: readCase{
				name:  "history in no state",
				text:  doc(start, node("a", "A"), node("h", "H"), edge("e0", "s", "a", ""), edge("e1", "a", "h", "back"), edge("e2", "h", "a", "")),
				want:  "s(start)*; a=A; | e0:s>a#1",
				diags: []string{`error: graphml: history h is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name:  "history holding nodes",
				text:  doc(start, group("g", "G", nil, node("gs", "[*]"), node("a", "A"), group("h", "H", nil, node("x", "X")), edge("g0", "gs", "a", "")), edge("e0", "s", "g", "")),
				want:  "s(start)*; g=G; gs^g(start)*; a=A^g; | g0:gs>a#1 e0:s>g#1",
				diags: []string{`error: graphml: history node h "H" holds other nodes: a pseudo-state holds none; it, what it holds and its edges are left out`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name:  "a start holding nodes",
				text:  doc(group("c", "[*]", nil, node("x", "X")), node("a", "A"), edge("e0", "c", "a", "")),
				want:  "a=A; |",
				diags: []string{`error: graphml: node c is read as a start pseudo-state, but it holds 1 node: a pseudo-state holds none; it, what it holds and its edges are left out`},
				err:   true,
			},
			at: "c",
		},
		{
			readCase: readCase{
				name:  "a group entered without a start",
				text:  doc(start, node("off", "OFF"), group("on", "ON", nil, node("a", "A"), node("b", "B")), edge("e1", "s", "off", ""), edge("e2", "off", "on", "power")),
				want:  "s(start)*; off=OFF; on=ON; a=A^on; b=B^on; | e1:s>off#1 e2:off>on#1[power]",
				diags: []string{`error: graphml: state "ON" holds states but no initial state, and transition e2 enters it: the drawing does not say which of them the machine is then in (a statechart would enter "A", the first in the file)`},
				err:   true,
			},
			at: "on",
		},
		{
			readCase: readCase{
				name:  "a group its start enters without a start",
				text:  doc(group("top", "TOP", nil, node("s", "[*]"), group("in", "IN", nil, node("a", "A")), edge("e0", "s", "in", ""))),
				want:  "top=TOP; s^top(start)*; in=IN^top; a=A^in; | e0:s>in#1",
				diags: []string{`error: graphml: state "IN" holds states but no initial state, and transition e0 enters it`},
				err:   true,
			},
			at: "in",
		},
		{
			readCase: readCase{
				name:  "conditional initial transition in a group",
				text:  doc(start, group("g", "G", nil, node("gi", "init"), node("a", "A"), node("b", "B"), edge("g1", "gi", "a", "[x]"), edge("g2", "gi", "b", "[not x]")), edge("e1", "s", "g", "")),
				diags: []string{`error: graphml: the initial state of state "G" has 2 transitions: a conditional initial transition inside a state is not supported yet`},
				err:   true,
			},
			at: "gi",
		},
		{
			readCase: readCase{
				name:  "initial action in a group",
				text:  doc(start, group("g", "G", nil, node("gi", "init"), node("a", "A"), edge("g1", "gi", "a", "/ logGtoA")), edge("e1", "s", "g", "")),
				want:  "s(start)*; g=G; gi^g(start)*; a=A^g; | g1:gi>a#1 e1:s>g#1",
				diags: []string{`warning: graphml: the action of the initial transition of state "G" is code for a code generator, which fsmforge does not run: "logGtoA"`},
			},
			at: "g1",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.run(t, graphml.Options{})
			if !tt.err {
				for _, d := range c.Diagnostics {
					if d.Severity == diag.Error {
						t.Errorf("unexpected error %v", d)
					}
				}
			}
		})
	}
}

// TestStateSmithNesting reads what StateSmith nests: $H and $HC, $ORTHO
// regions, local transitions, states entered without an $initial_state.
func TestStateSmithNesting(t *testing.T) {
	start := node("s", "$initial_state", "shape=ellipse", "box=0,0,20,20")
	gs := node("gs", "$initial_state")
	for _, tt := range []nestCase{
		{readCase: readCase{
			name: "$H: a shallow history",
			text: doc(start, group("g", "G", nil, gs, node("a", "A"), group("b", "B", nil, node("bs", "$initial_state"), node("b1", "B1"), edge("b0", "bs", "b1", "")),
				node("h", "$H"), edge("g0", "gs", "a", ""), edge("g1", "h", "a", "")),
				node("z", "Z"), edge("e0", "s", "g", ""), edge("e1", "z", "h", "BACK")),
			want: "s(start)*; g=G; gs^g(start)*; a=A^g; b=B^g; bs^b(start)*; b1=B1^b; h^g(history); z=Z; | b0:bs>b1#1 g0:gs>a#1 g1:h>a#1 e0:s>g#1 e1:z>h#1[BACK]",
		}},
		{readCase: readCase{
			name: "$H and $HC in every state inside: a deep history",
			text: doc(start, group("g", "G", nil, gs, node("a", "A"), group("b", "B", nil, node("bs", "$initial_state"), node("b1", "B1"), node("bc", "$HC"), edge("b0", "bs", "b1", "")),
				node("h", "$H"), edge("g0", "gs", "a", ""), edge("g1", "h", "a", "")),
				node("z", "Z"), edge("e0", "s", "g", ""), edge("e1", "z", "h", "BACK")),
			want: "s(start)*; g=G; gs^g(start)*; a=A^g; b=B^g; bs^b(start)*; b1=B1^b; h^g(deepHistory); z=Z; | b0:bs>b1#1 g0:gs>a#1 g1:h>a#1 e0:s>g#1 e1:z>h#1[BACK]",
		}},
		{
			readCase: readCase{
				name: "$HC in some states only",
				text: doc(start, group("g", "G", nil, gs, node("h", "$H"),
					group("b", "B", nil, node("bs", "$initial_state"), node("b1", "B1"), node("bc", "$HC"), edge("b0", "bs", "b1", "")),
					group("c", "C", nil, node("cs", "$initial_state"), node("c1", "C1"), edge("c0", "cs", "c1", "")),
					edge("g0", "gs", "b", ""), edge("g1", "h", "b", "")), edge("e0", "s", "g", "")),
				diags: []string{`error: graphml: $H h: the $HC carry the history of state "G" into state "B", but not into state "C", which hold no $HC; a chart's history keeps one level or all of them: read as keeping all`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name:  "$H without a transition",
				text:  doc(start, group("g", "G", nil, gs, node("a", "A"), node("h", "$H"), edge("g0", "gs", "a", "")), edge("e0", "s", "g", ""), edge("e1", "a", "h", "BACK")),
				diags: []string{`error: graphml: $H h has no transition: StateSmith requires one, its default, to the state it enters when there is no history yet`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name:  "$H with a trigger",
				text:  doc(start, group("g", "G", nil, gs, node("a", "A"), node("h", "$H"), edge("g0", "gs", "a", ""), edge("g1", "h", "a", "EV")), edge("e0", "s", "g", "")),
				diags: []string{`error: graphml: edge g1: behaviour "EV": a transition from a $H cannot have a trigger`},
				err:   true,
			},
			at: "g1",
		},
		{
			readCase: readCase{
				name:  "$H with a guard",
				text:  doc(start, group("g", "G", nil, gs, node("a", "A"), node("h", "$H"), edge("g0", "gs", "a", ""), edge("g1", "h", "a", "[x]")), edge("e0", "s", "g", "")),
				diags: []string{`error: graphml: the transition of $H h has a trigger or a guard ("[x]")`},
				err:   true,
			},
			at: "g1",
		},
		{
			readCase: readCase{
				name: "two $H in a state",
				text: doc(start, group("g", "G", nil, gs, node("a", "A"), node("h", "$H"), node("h2", "$h"), edge("g0", "gs", "a", ""), edge("g1", "h", "a", ""), edge("g2", "h2", "a", "")),
					edge("e0", "s", "g", "")),
				want:  "s(start)*; g=G; gs^g(start)*; a=A^g; h^g(history); h2^g(history); | g0:gs>a#1 g1:h>a#1 g2:h2>a#1 e0:s>g#1",
				diags: []string{`error: graphml: $H h2 is the second $H in state "G", after h, which StateSmith refuses`},
				err:   true,
			},
			at: "h2",
		},
		{
			readCase: readCase{
				name:  "$H in no state",
				text:  doc(group("m", "$STATEMACHINE: M", nil, start, node("a", "A"), node("h", "$H"), edge("e0", "s", "a", ""), edge("e1", "h", "a", ""))),
				want:  "s(start)*; a=A; | e0:s>a#1",
				diags: []string{`error: graphml: $H h is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`},
				err:   true,
			},
			at: "h",
		},
		{
			readCase: readCase{
				name: "$HC with an edge",
				text: doc(start, group("g", "G", nil, gs, node("h", "$H"), group("b", "B", nil, node("bs", "$initial_state"), node("b1", "B1"), node("bc", "$HC"),
					edge("b0", "bs", "b1", ""), edge("b1e", "bc", "b1", "")), edge("g0", "gs", "b", ""), edge("g1", "h", "b", "")), edge("e0", "s", "g", "")),
				want:  "s(start)*; g=G; gs^g(start)*; h^g(deepHistory); b=B^g; bs^b(start)*; b1=B1^b; | b0:bs>b1#1 g0:gs>b#1 g1:h>b#1 e0:s>g#1",
				diags: []string{`error: graphml: edge b1e starts or ends at a $HC, which StateSmith allows no transition; ignored`},
				err:   true,
			},
			at: "b1e",
		},
		{
			readCase: readCase{
				name: "$HC that carries no history",
				text: doc(start, group("g", "G", nil, gs, group("b", "B", nil, node("bs", "$initial_state"), node("b1", "B1"), node("bc", "$HC"), edge("b0", "bs", "b1", "")),
					edge("g0", "gs", "b", "")), edge("e0", "s", "g", "")),
				diags: []string{`error: graphml: the $HC in state "B" carries no history: StateSmith wants a $H or a $HC in the state around its own; ignored`},
				err:   true,
			},
			at: "bc",
		},
		{
			readCase: readCase{
				name: "$ORTHO regions: a parallel state",
				text: doc(start, group("p", "P", nil,
					group("l", "$ORTHO 1 : LEFT", nil, node("ls", "$initial_state"), node("l1", "L1"), edge("l0", "ls", "l1", "")),
					group("r", "$ORTHO 2 : RIGHT", nil, node("rs", "$initial_state"), node("r1", "R1"), edge("r0", "rs", "r1", ""))),
					edge("e0", "s", "p", "")),
				want:  "s(start)*; p=P(parallel); l=LEFT^p; ls^l(start)*; l1=L1^l; r=RIGHT^p; rs^r(start)*; r1=R1^r; | l0:ls>l1#1 r0:rs>r1#1 e0:s>p#1",
				diags: []string{`warning: graphml: state "P" holds 2 $ORTHO regions, which StateSmith does not generate code for yet: read as UML's orthogonal regions, all active at once while "P" is, in the order of their numbers`},
			},
			at: "p",
		},
		{
			readCase: readCase{
				name:  "a state beside $ORTHO regions",
				text:  doc(start, group("p", "P", nil, group("l", "$ORTHO : LEFT", nil, node("l1", "L1")), node("x", "X")), edge("e0", "s", "x", "")),
				diags: []string{`error: graphml: state "P" holds $ORTHO regions and "X", which is not one: the states inside a parallel state are its regions`},
				err:   true,
			},
			at: "x",
		},
		{
			readCase: readCase{
				name:  "$ORTHO in no state",
				text:  doc(start, group("o", "$ORTHO 1 : LEFT", nil, node("a", "A")), edge("e1", "s", "a", "")),
				want:  "s(start)*; o=LEFT; a=A^o; | e1:s>a#1",
				diags: []string{`error: graphml: $ORTHO region "LEFT" is drawn in no state: regions run in parallel inside the state they are drawn in`},
				err:   true,
			},
			at: "o",
		},
		{
			readCase: readCase{
				name: "transitions into a state are local",
				text: doc(start, group("g", "G", nil, gs, node("a", "A"), node("b", "B"), node("al", "$PARENT_ALIAS"), edge("g0", "gs", "a", ""),
					edge("g1", "al", "b", "EV1"), edge("g2", "b", "al", "EV2")), edge("e0", "s", "g", ""), edge("e1", "g", "a", "EV3")),
				want: "s(start)*; g=G; gs^g(start)*; a=A^g; b=B^g; | g0:gs>a#1 g1:g>b#1[EV1]+internal g2:b>g#1[EV2] e0:s>g#1 e1:g>a#2[EV3]+internal",
			},
		},
		{
			readCase: readCase{
				name: "a state entered without an $initial_state",
				text: doc(start, group("g", "G", nil, node("a", "A"), node("b", "B"), node("al", "$PARENT_ALIAS"), edge("g1", "a", "al", "EV")),
					edge("e0", "s", "a", "")),
				diags: []string{`error: graphml: state "G" holds states but no $initial_state, and transition g1 enters it: StateSmith then stays in "G" itself, with none of its states active, which a chart cannot say (a statechart would enter "A", the first in the file)`},
				err:   true,
			},
			at: "g",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t, graphml.Options{})
		})
	}
}

// TestNestedCompiles reads a nested plain diagram and a StateSmith one
// with histories, and compiles each into a statechart table without
// errors.
func TestNestedCompiles(t *testing.T) {
	plain := doc(node("s", "", "shape=ellipse", "box=0,0,20,20"),
		group("g", "Patrol", nil, node("gs", "[*]"), node("a", "Walk"), node("b", "Look"), node("f", "[*]"), node("h", "H"),
			edge("g0", "gs", "a", ""), edge("g1", "a", "b", "tick"), edge("g2", "b", "a", "tick"), edge("g3", "b", "f", "tired")),
		node("c", "Chase"), node("r", "Rest"),
		edge("e0", "s", "g", ""), edge("e1", "g", "c", "seen"), edge("e2", "c", "h", "lost"), edge("e3", "g", "r", ""), edge("e4", "r", "g", "rested"))
	smith := doc(node("s", "$initial_state"),
		group("g", "PATROL", nil, node("gs", "$initial_state"), node("a", "WALK"), node("b", "LOOK"), node("h", "$H"),
			edge("g0", "gs", "a", ""), edge("g1", "a", "b", "TICK"), edge("g2", "b", "a", "TICK"), edge("g3", "h", "b", "")),
		node("c", "CHASE"), edge("e0", "s", "g", ""), edge("e1", "g", "c", "SEEN"), edge("e2", "c", "h", "LOST"))
	for _, tt := range []struct{ name, text string }{{"plain", plain}, {"StateSmith", smith}} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := read(t, tt.text, graphml.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := compile.Compile(c, compile.Options{})
			if err != nil {
				t.Fatalf("compile.Compile = %v", err)
			}
			if !r.Table.Statechart() {
				t.Errorf("compile.Compile: a flat table, want a statechart")
			}
		})
	}
}
