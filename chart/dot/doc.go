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
//     its name (its ID when it has none). A state with entry actions has
//     an HTML-like label: its name, a rule, then one line per action,
//     "entry / XMovement=left", in the chart's order.
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
// order, then the added nodes, then the initial marker's edge and the
// transitions in chart order. Nothing is read from a map in the order the
// map gives.
package dot
