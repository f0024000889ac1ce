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
// text of a node or an edge is its first label that is not empty; in plain
// GraphML without yEd's graphics, its property named "label" (or else
// "name"). A node or an edge with more labels is a warning naming the text
// left out (an error in a drawing made for StateSmith, which reads the
// last label; a note with a stencil).
//
// States and transitions keep their node and edge ids ("n0::n2::n1");
// an edge without an id is given one ("edge3"), and the second and later
// transitions read from one edge get "#2", "#3"... after its id. yEd has no
// pages: positions give the file, the id, the name and the line:column of
// the element.
//
// A drawing is read one of three ways: with a stencil (Options.Stencil;
// see "With a stencil"); as a drawing made for StateSmith, when a node's
// label is one of StateSmith's keywords ($initial_state, $choice,
// $STATEMACHINE, $NOTES, $PARENT_ALIAS, $H, $HC, $ORTHO, $CONFIG,
// $RenderConfig, "entry : 1", "exit : 1"; see "StateSmith"); or else as a
// plain UML diagram, Kingly's included.
//
// # Plain diagrams
//
// Without a stencil, nodes are states and edges transitions. A state's
// name is its label up to the first line, after the first, that holds a
// '/', its lines joined (Kingly names a state on several lines); the lines
// from there are behaviour ("entry / light_on()"), code for a code
// generator that fsmforge does not run: a warning says so.
//
// An edge's text is a UML label, "event [guard] / action", read with
// [chart.ParseLabel]: line breaks are white space, so Kingly's "typed
// [ok]" above "/ show" is one transition; the transition's Label keeps it
// as drawn. A label that starts with a bar is Kingly's list of
// transitions, "| ev1 [g1] / a1 | ev2 / a2": one transition per part. A
// guard that is Kingly's list of conditions, "[ready, loaded]" (a comma
// outside parentheses), all of which must hold, is read as one condition
// named as written, with a warning. An order before the label, "2.
// INCREASE [count >= 3]" (StateSmith's), ranks the transitions of a
// state: those with an order first, by increasing order ("1.5." between
// "1." and "2."), then those without, in document order, then the UML
// "[else]" one; a state whose transitions mix orders and none is a
// warning that lists the order they are tried in, and an "[else]" with an
// order is an error. An edge whose only arrow is at its
// source is read backwards, as drawn, with a warning (Kingly reads it
// forwards).
//
// Pseudo-states are recognised by their label and shape:
//
//   - start: a node labelled "init" (Kingly's, any capitalization, any
//     shape) that no edge enters; a label "[*]" with edges leaving it; an
//     ellipse labelled "init", "initial", "start" or "begin"; an
//     unlabelled ellipse no larger than 50×50 pixels that edges only
//     leave; a GenericNode whose configuration names a start (yEd's
//     flowchart start, a BPMN start event).
//   - end: "[*]" with no edge leaving it; an ellipse labelled "final" or
//     "end"; an unlabelled small ellipse that edges only enter; a BPMN end
//     event.
//   - choice: a diamond; a flowchart decision or a BPMN gateway.
//
// A node labelled "H" or "H*" (Kingly's shallow and deep history, any
// shape; or an ellipse labelled "h" or "h*") is a history pseudo-state
// ([chart.HistoryState], [chart.DeepHistoryState]) of the group it is drawn
// in (see "Groups"); one drawn in no group is an error, and it and its
// edges are left out.
//
// # Groups
//
// A group node (yfiles.foldertype "group" or "folder", or any node with a
// nested <graph>) is a compound state: its members' State.Parent names it,
// and the chart lists it before them, in document order. A folder (a
// group yEd shows closed) is read from its open realizer, which holds its
// members. The chart keeps the nesting as drawn: a group's transitions
// stay the group's, tried in each state inside it after the state's own,
// as package compile runs a chart whose states nest (a statechart: see
// package table). A group of a drawing made with a stencil is a compound
// state only when its role is that of a master that draws states (the
// state, initial-state, composite or parallel master; see "With a
// stencil"); otherwise (no role, the message handler's) it is a frame,
// and its members belong to the state around it. A pseudo-state (a start, an end,
// a choice, a history) holds no nodes: one that does is an error, and it,
// what it holds and its edges are left out.
//
// Inside a group, a start pseudo-state is the group's initial
// pseudo-state (State.Initial): its transition leads to the state that
// entering the group enters. An end pseudo-state is the group's final
// state: entering it completes the group, whose transitions without a
// label (UML's completion transitions) are then taken. With a stencil, the
// group's state of the initial-state master is its initial state, or its
// node of the start master says which it is (see "With a stencil"). A group
// that holds states but no initial one is an error when the machine
// enters it so: a transition ends at the group, the machine starts in it,
// a shallow history may restore it, or entering the state around it
// enters it. The drawing does not say which of its states the machine is
// then in (a statechart would enter the first in the file). A group that
// nothing enters so needs none (StateSmith's tutorial draws one).
//
// A start inside a group enters it through its one transition: one with
// several transitions (StateSmith's and Kingly's conditional initial
// transitions), or whose transition has an event or a guard, is an error
// naming the start (draw its one transition to a choice, and the branches
// from the choice); an action on it is code, not run: a warning. (With a
// stencil, package compile reports a start with several transitions.)
//
// A history's one transition is its default: the state it enters while
// its group has no history yet. An event or a guard on it, a second
// transition, and a transition to no state or to a state outside the
// group are errors. A history without a transition enters its group as a
// transition to the group does, as UML and Kingly define it: the reader
// adds that default, from the history to where the group's start leads
// (or, with a stencil, to its state of the initial-state master), with
// ID "H#1" for history node H (as chart/drawio and chart/scxml name the
// transitions they make; "H#2"... when a node or a transition has that
// ID) and the node's position, with a note; when the group does not say
// where it is entered, it is an error naming the history. These checks
// are chart/drawio's too (package internal/importer).
//
// # StateSmith
//
// A drawing made for StateSmith is read as StateSmith reads it
// (StateSmith's label grammar and its yEd importer), or refused with an
// error naming the node or the edge:
//
//   - "$STATEMACHINE: Name" is the group that wraps the whole machine: it
//     is the chart itself, not a compound state, and names it
//     (Chart.Name; else the file's base name without its extension).
//     Nodes outside it are left out, as StateSmith does, but for
//     settings: a warning names the states among them (a note when there
//     are none), and an edge between a state and a node left out (outside,
//     or in $NOTES) is a warning. A $STATEMACHINE node that holds nothing
//     is StateSmith's flat machine, whose states are the nodes beside it.
//     A second one at the top level is an error, as is one inside another
//     node. Behaviour written in it is code, not run: a warning.
//   - "$NOTES" nodes are comments; "$CONFIG" and "$RenderConfig" nodes are
//     settings of StateSmith's code generator. They and what they hold are
//     left out, with a note (their edges too: see above). A TriggerMap
//     among the settings renames the drawing's events: an error.
//   - "$initial_state" is the start pseudo-state, "$choice" (or "$choice:
//     label") a choice; a node drawn inside either is an error. A
//     transition into an $initial_state goes where its one transition
//     leads, with a note (StateSmith takes it as a choice's); when it
//     leads to several places, an error.
//   - "$PARENT_ALIAS" stands for the group it is drawn in: its edges
//     start or end there. One drawn in no state is an error (or a note
//     when it stands for the whole machine and has no edge).
//   - An entry point "entry : L" and an exit point "exit : L" are choice
//     pseudo-states inside their state, named "entry point L" and "exit
//     point L". A transition into a state "via entry L" goes to its entry
//     point L, whose transitions lead on inside; a transition of a state
//     "via exit L" leaves from its exit point L, which the states inside
//     enter to leave that way. A point drawn in no state, a "via" to a
//     point the state does not have, and a point drawn twice are errors;
//     an exit point no transition goes through is a warning.
//   - "$H" is the history of the state it is drawn in. Its one
//     transition, without a trigger or a guard, is its default, which
//     StateSmith requires: none, several, a trigger or a guard, or a
//     transition to a state outside its state is an error. A "$HC" drawn in
//     one of that state's states carries the history one level down, into
//     that state's states, and a $HC in one of those one more level: a $H
//     without a $HC below it is a shallow history ([chart.HistoryState]);
//     one whose $HC nodes reach into every state inside that holds states
//     is a deep one ([chart.DeepHistoryState]), with a note; one whose $HC
//     nodes reach into some of them only is an error, read as deep (a
//     chart's history keeps one level or all). A second $H or $HC in one
//     state, a $HC without a $H or a carrying $HC in the state around its
//     own, and an edge to or from a $HC are errors, as in StateSmith; a $H
//     drawn in no state is an error, and it and its edges are left out.
//     "H*" is no name to StateSmith: an error. A node labelled "H" is a
//     state named H, as StateSmith reads it (its history is "$H"), with a
//     warning.
//   - "$ORTHO order : NAME" is an orthogonal region, a state named NAME,
//     of the state it is drawn in, which is then a parallel state
//     ([chart.ParallelState]): its regions are all active at once while it
//     is, in the order of their numbers (the regions, with what they hold,
//     are moved in the chart to follow it). StateSmith does not generate
//     code for regions yet: a warning for each such state. A region drawn
//     in no state, a state drawn beside a state's regions, and an order
//     that is not a number are errors.
//   - A node without a label is nothing to StateSmith: an error when an
//     edge touches it or it holds nodes, else left out (one note counts
//     them).
//   - Any other node is a state, named by its first line; a name that is
//     not an identifier, which StateSmith refuses, is a warning.
//
// An edge's label holds behaviours, one per line ("order. triggers [guard]
// / action via entry|exit L"), each read with StateSmith's grammar
// (package internal/statesmith): a behaviour that does not follow it is an
// error naming the edge. Each behaviour, and each trigger of a trigger
// list "(EV1, EV2)", is a transition to the edge's target. No trigger, or
// "do", means StateSmith's do event: the machine's update, a transition
// without an event. "else" (or the guard "[else]", which may follow a
// trigger: "EV [else]") is tried after the state's other transitions; else
// with an order, as a trigger with other triggers or a guard, or twice
// from one state is an error. Orders are ranked as in plain diagrams,
// decimals included, with a warning when a state mixes orders and none.
// A trigger on a transition of a pseudo-state, and "enter", "entry" or
// "exit" on an edge, are errors. A transition from a state to a state
// inside it is local, as StateSmith takes it: it does not leave the state
// (Transition.Internal). A state that holds states but no $initial_state,
// which a transition enters (also a local one from a state inside it, or
// from its $PARENT_ALIAS), is an error: StateSmith then stays in the state
// itself, with none of its states active, which a chart cannot say.
// StateSmith's events ignore case: the first spelling met names the
// event, and a warning reports each other one. StateSmith reads an edge
// from its source to its target whatever its arrows: so does the reader,
// with a warning when the arrow is at the source.
//
// A state's behaviour (the lines under its name: "enter / on();", "EV /
// count++;") is code, not run: a warning. An event it handles without a
// transition stops there in StateSmith: a transition on that event of a
// state around it is not taken while the machine is in it, which a chart
// cannot say, so it is an error naming both;
// "consume_event = false;" in the action keeps the event going, "$mod"
// and "enter", "exit" and "do" handlers stop nothing. A state whose
// behaviour consumes the do event ("do / consume_event = true;") while a
// state around it has a transition on the update is an error too.
//
// # With a stencil
//
// yEd has no masters: a drawing made with a stencil says with a custom
// property (attr.name Options.RoleKey, "fsmforge" by default, for nodes and
// edges) which master of the stencil each node or edge stands for: the
// stencil's state, initial-state, transition or message-handler master
// ("State", "Initial State", "Transition", "Message Handler" for the
// Goomba's), or one of its masters of statecharts (composite, parallel,
// start, history, deep history: [chart.Masters]). The stencil's
// properties are custom properties of the same names, read as chart/visio
// reads Shape Data:
//
//   - A state is named by its Name property, or else by the first line of
//     its label. Its entry actions are the stencil's action properties, in
//     the stencil's order; a value not in the property's drop-list is an
//     error. A key's <default> applies to nodes that do not set it.
//   - A state of the initial-state master is the initial state of the
//     group it is drawn in, or of the top level; and the machine starts in
//     it when nothing says otherwise, so each group around it that is a
//     state is marked initial too (State.Initial), up to a level that says
//     where it starts (with a state of the initial-state master or a node
//     of the start master drawn in it): a designer starts the machine
//     inside a composite or a parallel group by drawing its initial state
//     there, and none at the levels above. A region of a parallel state is
//     not marked, the parallel state is: the machine starts in all its
//     regions. A region drawn with the initial-state master whose parallel
//     state is not so marked (its level starts elsewhere) says nothing: a
//     warning. chart/visio and chart/drawio read their initial-state
//     master so too.
//   - A node of the composite master is a compound state: a yEd group or
//     folder node, whose members are its states (State.Parent). It is a
//     state even when no edge touches it (a region, say), named and given
//     entry actions as a state is. A group of the state or initial-state
//     master that holds states is a compound state too. A composite group
//     is marked initial when the machine starts in a state drawn in it (a
//     group of the initial-state master is so marked anyway).
//   - A node of the parallel master is a group node that is a parallel
//     state ([chart.ParallelState]): each state drawn in it (a composite,
//     or a group of the state master) is a region, and all of them are
//     active together. It is named and given entry actions as a state is,
//     and is marked initial when the machine starts in one of its regions.
//   - A node of the composite or parallel master that is not a group node
//     (a shape: states drawn over it are not inside it for yEd) holds no
//     states: it is read as a simple state, with a warning that names it
//     and says how to group its states. So is a parallel group that holds
//     no states, which would have no regions; a composite group that holds
//     none is a simple state, as drawn.
//   - A node of the start master is a start pseudo-state
//     ([chart.StartState]; UML's initial state, a filled circle) of the
//     group it is drawn in, or of the top level: nameless and marked
//     initial, as in plain diagrams. It is how a group that the machine
//     does not start in says which of its states entering it enters. Its
//     one edge, of the transition master, goes to that state, without a
//     test: a test set on it is ignored, with a warning that names the
//     start and the test and says to clear the edge's Test property (Edit
//     > Properties > Data); the edge is kept, without it, as on a
//     history's edge, and as chart/visio and chart/drawio keep theirs. One holding nodes is an error, and it, what
//     it holds and its edges are left out; action properties set on it
//     are not read: a warning (a key's default is not reported). Package
//     compile reports a start without an edge or with several, two in
//     one group, one beside a state of the initial-state master, an edge
//     into one, and one drawn in a parallel group, whose states are its
//     regions.
//   - A node of the history or deep-history master is a history
//     pseudo-state ([chart.HistoryState], [chart.DeepHistoryState]) of the
//     group it is drawn in, nameless, as in plain diagrams, and read as
//     they are (see "Groups"): one drawn in no state or holding nodes is
//     an error, and it and its edges are left out; one without an edge
//     gets UML's default. Its one edge, of the transition master, is its
//     default transition, without a test: a test set on it is ignored,
//     with a warning (the edge is kept, as a start's). Action properties set on it are not read: a
//     warning (a key's default is not reported).
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
// # How the machine runs
//
// Custom properties of the graph itself (yEd's Edit > Properties Manager,
// for "Graph"; the top-level <graph>'s <data>, or its keys' defaults) say
// how the machine runs: [PropChain] ("fsmforgeChain": true, 1 or yes;
// false, 0, no or nothing) and [PropChainLimit] ("fsmforgeChainLimit": a
// whole number from 0 to 65535, 0 or nothing for the number of states)
// are the chart's Chain and ChainLimit. Another value is a warning, and
// ignored. [PropFallback] ("fsmforgeFallback", a text) is the chart's
// Fallback: the name of the state where a running game sends the agents
// of a state that a new version of the drawing no longer has (package
// reload), its white space made single spaces as in a state's name;
// nothing for the initial state. A name of no state is not the reader's
// error: package compile warns about it.
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
// Problems are [diag.Diagnostic] values with the file, the node or edge
// id and name, and the line:column of its element. A drawing made with a
// stencil is a build asset and is read strictly: a duplicate id, a
// transition without a test or with an unknown one (but for a start's or
// a history's, taken without a test: one set on it is a warning), a
// drop-list value the stencil does not list are errors. A plain diagram is read leniently
// where nothing is lost: an edge that does not join two states, a second
// label, is a warning and left out. In all, what the drawing says that a
// chart cannot say, or that its tool reads otherwise (a conditional
// initial transition inside a group, a group entered without an initial
// state, a StateSmith handler that stops a transition...), is an error: a drawing is read with the
// meaning its tool gives it, or refused. An edge whose source or target is
// missing or names no node is an error naming the edge. Nothing the reader
// leaves out goes unreported.
//
// # Bad input
//
// The reader never panics and never hangs. It refuses, with an error that
// says why and where ([ErrTooLarge], [ErrNotGraphML], [ErrMalformed],
// [ErrTooDeep]): a file over Options.MaxSize (256 MiB by default, once
// uncompressed for a gzip file); more than Options.MaxElements nodes and
// edges (about a million by default), or edges whose labels make more
// than Options.MaxTransitions transitions (as many by default: the labels
// of StateSmith and Kingly make several transitions of one edge); an empty, binary or zip file, or XML whose root is not
// <graphml> (with a hint when it is a draw.io, Visio or SCXML file);
// malformed XML or invalid UTF-8, with the line and column; XML elements
// nested deeper than 2×Options.MaxDepth+32, or groups deeper than
// Options.MaxDepth (100 by default). It reads UTF-8, with or without
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
// 1,000 groups, each with its initial state, and 21,000 transitions,
// graphics included (7.4 MB), reads in about 0.6 s on one core and
// allocates about 22 times the file's size, mostly encoding/xml's tokens
// (BenchmarkRead). The checks of nested states cost time linear in the
// chart times the depth of its nesting. A chart does not share
// memory with the file. The package holds no global state: calls may run
// concurrently.
package graphml
