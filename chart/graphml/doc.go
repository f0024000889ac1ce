// Package graphml reads GraphML drawings into a [chart.Chart]: the state
// machines people draw in yEd (and save as .graphml or .graphmlz), those
// written for StateSmith and Kingly, and plain GraphML from other tools.
//
//	c, err := graphml.ReadFile("Tutorial1Sm.graphml", graphml.Options{})
//
// # Reading
//
// The reader follows GraphML (namespace http://graphml.graphdrawing.org/xmlns)
// and yEd's extensions (namespace http://www.yworks.com/xml/graphml). Data
// values are resolved through the file's <key> declarations, never by their
// ids: a key with yfiles.type "nodegraphics" or "edgegraphics" holds yEd's
// graphics, a key with an attr.name a custom property (yEd's Edit >
// Properties Manager), whose <default> applies to elements that do not set
// it.
//
// From yEd's graphics it reads a node's realizer (ShapeNode, GenericNode
// and its configuration, GroupNode, SVGNode...): its y:Geometry, its
// y:Shape type and its labels (y:NodeLabel, hidden ones included); and an
// edge's labels (y:EdgeLabel) and arrows, whatever its kind (PolyLineEdge,
// QuadCurveEdge, BezierEdge, ArcEdge...). A group node
// (ProxyAutoBoundsNode) has two realizers, open and closed: the open one
// is read, whichever yEd shows, since it holds the group's members. The
// text of a node or an edge is its first label that is not empty (a note
// reports the others); in plain GraphML without yEd's graphics, its
// property named "label" (or else "name").
//
// States and transitions keep their node and edge ids ("n0::n2::n1");
// an edge without an id is given one ("edge3"). yEd has no pages: positions
// give the file, the id, the name and the line:column of the element.
//
// # Plain diagrams
//
// Without a stencil, nodes are states and edges transitions. A state's
// name is the first line of its text, with white space normalised. The
// text below it (StateSmith's behaviour text, "enter / light_on1();") is
// code for other generators: it is not read, and a note says so, because
// a chart's entry actions are a stencil's properties.
//
// An edge's text is a UML label, "event [guard] / action", read with
// [chart.ParseLabel]; the transition's Label keeps it as drawn. StateSmith
// orders the transitions of a state with a prefix, "2. INCREASE [count >=
// 3]": the number before the first dot becomes the transition's Order (2),
// and the rest is the label. A decimal order ("1.5. EV") is an error:
// orders are whole numbers here. Transitions without an order are numbered
// by their position among the transitions leaving their state. An edge
// whose only arrow is at its source is read backwards, with a note.
//
// Pseudo-states are recognised by their label and shape:
//
//   - start: StateSmith's "$initial_state"; a label "[*]" with edges
//     leaving it; an ellipse labelled "init" (Kingly), "initial", "start"
//     or "begin"; an unlabelled ellipse no larger than 50×50 pixels that
//     edges only leave; a GenericNode whose configuration names a start
//     (yEd's flowchart start, a BPMN start event).
//   - end: "[*]" with no edge leaving it; an ellipse labelled "final" or
//     "end"; an unlabelled small ellipse that edges only enter; a BPMN end
//     event.
//   - choice: StateSmith's "$choice" (or "$choice: name"); a diamond; a
//     flowchart decision or a BPMN gateway.
//
// # Groups
//
// A group node (yfiles.foldertype "group" or "folder", or any node with a
// nested <graph>) is a compound state: its members' State.Parent names it.
// A group of a drawing made with a stencil is a compound state only when
// its role is a state; otherwise it is a frame, and its members belong to
// the state around it. Before it returns, the reader flattens the chart
// with [chart.Flatten], which adds a note for each compound: the leaves
// become the chart's states, a compound's transitions apply to each of its
// descendants after the descendant's own, and a transition into a compound
// enters its initial child (the target of the start pseudo-state inside
// it, or its child of the stencil's initial-state master). A compound
// without an initial state is an error when a transition enters it, and
// only a note when none does (StateSmith's tutorial draws one).
//
// # StateSmith
//
// StateSmith's special labels are read as it defines them:
// "$STATEMACHINE: Name" is the group that wraps the whole machine: it is
// the chart itself, not a compound state, and names it (Chart.Name; else
// the file's base name without its extension). Nodes outside it are left
// out, with a note; a second one is an error. "$NOTES" nodes are
// comments: they, what they hold and their edges are left out, with a
// note. "$PARENT_ALIAS" stands for the group it is drawn in: its edges
// start or end there. History ("$H", "$HC", and an ellipse labelled "H"
// or "H*"), orthogonal regions ("$ortho_state") and entry or exit points
// ("entry : 1") cannot be expressed in a chart: each is an error naming
// the node, and its edges are left out.
//
// # With a stencil
//
// yEd has no masters: a drawing made with a stencil says with a custom
// property (attr.name Options.RoleKey, "fsmforge" by default, for nodes and
// edges) which master of the stencil each node or edge stands for: the
// stencil's state, initial-state, transition or message-handler master
// ("State", "Initial State", "Transition", "Message Handler" for the
// Goomba's). The stencil's properties are custom properties of the same
// names, read as chart/visio reads Shape Data:
//
//   - A state is named by its Name property, or else by the first line of
//     its label. Its entry actions are the stencil's action properties, in
//     the stencil's order; a value not in the property's drop-list is an
//     error. A key's <default> applies to nodes that do not set it.
//   - A transition is an edge of the transition role. Its Test property
//     must name one of the stencil's tests; Value, Order and Stack are
//     optional, with the same checks as in chart/visio. It starts at a
//     state, or at a message handler (the transition then applies in any
//     state). yEd cannot draw an edge that ends nowhere: an edge that ends
//     at a node without a role (an end marker) enters the final state, or,
//     with Stack "return", returns to the state on top of the stack.
//   - A drawing none of whose nodes and edges plays a part of the stencil
//     is an error (it was drawn with another stencil, or none); a role the
//     stencil does not know is a warning and its elements are left out; an
//     edge without a role is a warning; nodes without a role and without
//     edges are counted in a note. A property the stencil lists that the
//     file does not declare is a warning, and a custom property the
//     stencil does not know a note. yEd's properties have no drop-lists,
//     so there are no versions to compare.
//
// # Layout
//
// State.Box is the node's y:Geometry. yEd's coordinates are pixels with y
// growing downwards, like a chart's, but they may be negative: when any
// state's box is left of or above the origin, all boxes are moved by the
// same amount so that the smallest x and y are 0. Otherwise they are kept
// as they are. Plain GraphML has no geometry: Box is nil.
//
// # Diagnostics
//
// Problems are [chart.Diagnostic] values with the file, the node or edge
// id and name, and the line:column of its element. A drawing made with a
// stencil is a build asset and is read strictly: a duplicate id, a
// transition without a test or with an unknown one, a drop-list value the
// stencil does not list are errors. A plain diagram is read leniently:
// what cannot be a transition is a warning and left out. In both, an edge
// whose source or target is missing or names no node is an error naming
// the edge. Nothing the reader leaves out goes unreported.
//
// # Bad input
//
// The reader never panics and never hangs. It refuses, with an error that
// says why and where ([ErrTooLarge], [ErrNotGraphML], [ErrMalformed],
// [ErrTooDeep]): a file over Options.MaxSize (256 MiB by default, once
// uncompressed for a gzip file); more than Options.MaxNodes nodes and
// edges (about a million by default), or groups whose flattening would
// make more than twice as many transitions; an empty, binary or zip file, or XML
// whose root is not <graphml> (with a hint when it is a draw.io, Visio or
// SCXML file); malformed XML or invalid UTF-8, with the line and column;
// XML elements nested deeper than 2×Options.MaxDepth+32, or groups deeper
// than Options.MaxDepth (100 by default). It reads UTF-8, with or without
// a byte-order mark, UTF-16 with a byte-order mark or an XML declaration,
// and ISO-8859-1 when the XML declaration says so; another declared
// encoding is an error. Entities other than XML's own are errors
// (encoding/xml in strict mode): nothing is expanded.
//
// # Costs
//
// The whole file is read into memory and parsed with encoding/xml; only
// the elements the reader uses are kept (GraphML's, and yEd's realizers,
// geometry, shapes and labels), the rest is skipped as it is parsed. Time
// and memory grow linearly with the file: a drawing of 10,000 states in
// 1,000 groups with 20,000 transitions, graphics included (7 MB), reads in
// about 0.6 s on one core and allocates about 23 times the file's size,
// mostly encoding/xml's tokens (BenchmarkRead). A chart does not share
// memory with the file. The package holds no global state: calls may run
// concurrently.
package graphml
