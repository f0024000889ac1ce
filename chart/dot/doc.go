// Package dot writes a [chart.Chart] as a Graphviz DOT digraph, for
// `fsmforge graph FILE -format dot | dot -Tsvg`.
//
//	c, err := visio.ReadFile("goomba.vdx", visio.Options{Stencil: st})
//	...
//	err = dot.Write(os.Stdout, c, dot.Options{})
//
// # What is drawn
//
// The digraph is named after the chart and labelled with Options.Title (by
// default the chart's name). Nodes are boxes with rounded corners.
//
//   - A state is a node whose ID is the state's ID, quoted, labelled with
//     its name (its ID when it has none). A state with entry or exit
//     actions has an HTML-like label: its name, a rule, then one line per
//     action, "entry / XMovement=left", then "exit / cancel t1", in the
//     chart's order (see Labels below).
//   - The initial state is marked by an arrow from a point node,
//     "__start". A start pseudo-state is drawn as such a point itself, an
//     end pseudo-state as a bull's eye (a filled double circle), a choice
//     pseudo-state as a diamond labelled with its name.
//   - A transition is an edge labelled with its test, and its value in
//     brackets, "hitByPlayer (3)"; in a plain diagram (a chart read
//     without a stencil), with its label as drawn, "push [unlocked] /
//     swing()". When a state has several transitions, each label starts
//     with its rank, "1. hitTriggerLeft", the order in which they are
//     tried (by Order, then chart order, as package compile does).
//   - A transition to the final state (ToFinal) goes to one bull's eye,
//     "__final", shared by the whole chart.
//   - A transition that returns to the state on top of the stack
//     (ToReturn) goes to one node "↩ return", "__return", of shape
//     invhouse, by a dashed edge. A transition that pushes (Push) is drawn
//     bold and its label ends with "⤴ push".
//   - Transitions that apply in any state (AnyState) start from one dashed
//     box, "any state" ("__any"), by dashed edges.
//   - A drawing of several pages puts each page's states in a dashed
//     cluster labelled with the page's name.
//   - A transition naming a state the chart does not have draws that state
//     as a dashed node labelled "ID (missing)".
//
// Diagnostics are not drawn. The added nodes' IDs start with two
// underscores; when a state of the chart already has one of them, the
// added node takes one more leading underscore.
//
// # Nesting
//
// A chart whose states nest (State.Parent: a statechart read from SCXML,
// a drawing with composite states) is drawn with Graphviz's clusters; the
// graph then sets compound=true, for the edges clipped at clusters, and
// newrank=true. A chart without nesting is drawn as described above, byte
// for byte as before nesting was drawn.
//
//   - A compound state (a state that others are drawn inside) is a
//     cluster with rounded corners, "cluster_state_" and its ID, labelled
//     as its node would be: its name, and its entry and exit actions
//     under a rule. The states inside it are drawn in it, in chart order.
//   - A parallel state's name ends with "‖" ([Parallel]). Its children are
//     its regions, which run together: each is a cluster (a node when
//     nothing is inside it) with a dashed border.
//   - An edge to or from a compound state attaches to the border of its
//     cluster: it ends at an invisible point inside the cluster,
//     "__anchor_" and the state's ID, and is clipped at the cluster (lhead,
//     ltail), except at a cluster the other end is inside, which Graphviz
//     cannot clip: a transition from a compound state to a state inside
//     it starts from the point, as does a loop on a compound state.
//   - Only the initial states of the top level have the arrow from
//     "__start". Inside a compound state, a smaller point, "__start_" and
//     its ID, has an arrow to each of its children marked Initial; a start
//     pseudo-state inside it is such a point itself, with an edge to each
//     target of its transition. A parallel state's regions are all
//     entered: none has an initial arrow.
//   - A history pseudo-state is a small circle labelled "H" (shallow) or
//     "H*" (deep), its name beside it; its default transition is an edge
//     like any other. An end pseudo-state inside a compound state, its
//     final state, is the same bull's eye as at the top level.
//   - A state whose Parent is missing, is a pseudo-state or itself, or
//     would close a cycle of parents is drawn at the top level.
//
// # Labels
//
// A transition's label reads "event [guard] / actions", UML's order: its
// rank and its label as drawn (or its test and value, see above), then,
// when it has actions (Transition.Actions), "/ " and each action briefly,
// separated by semicolons: "XMovement=left" for a game action,
// "raise hit", "send timeout after 1.5s as t1" (a delay in seconds, and
// the timer that names it), "cancel t1", each preceded by its guard in
// brackets, "[low] raise flee", when it has one. Marks end it: "⤴ push"
// ([Push]), "↺ stays" ([Stay]) for a transition without target (ToNone),
// which is drawn as a dotted loop on its source, and "«internal»"
// ([Internal]) for an internal transition. A transition with several
// targets (Transition.Also) is an edge to each, with the same label.
//
// # Escaping
//
// Every ID is a DOT quoted string, the state's ID with quotes and
// backslashes escaped; IDs must stay apart, so the rare control character,
// line break, "%" or byte of invalid UTF-8 in one is percent-encoded
// ("%0A"). In labels, quotes and backslashes are
// escaped (so that a name's "\n" or "\N" is not read by Graphviz), "&" is
// written "&amp;", line breaks become "\n" (or <br/> in an HTML-like
// label, where <, > and " are entities too), other control characters
// spaces, and invalid UTF-8 U+FFFD. Other characters are written as UTF-8,
// Graphviz's default charset.
//
// # Determinism
//
// The output depends only on the chart and the options: states in chart
// order (each inside its parent's cluster), then the added nodes, then the
// initial markers' edges and the transitions in chart order. Nothing is
// read from a map in the order the map gives.
package dot
