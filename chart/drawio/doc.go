// Package drawio reads draw.io (diagrams.net) diagrams into a
// [chart.Chart], writes charts as draw.io diagrams, and writes a
// stencil's shapes as a draw.io shape library, so that designers can draw
// state machines in draw.io as they do in Visio (package chart/visio).
//
//	st, err := chart.LoadStencil("goomba.stencil.json")
//	...
//	c, err := drawio.ReadFile("goomba.drawio", drawio.Options{Stencil: st})
//
// # Files
//
// [Read] tells the container from the content, whatever the file is
// called: an mxfile (.drawio, .dio, .xml) of one or more pages, a bare
// mxGraphModel, an SVG with the diagram in its content attribute
// (.drawio.svg), a PNG with the diagram in a text chunk (.drawio.png).
// A page is stored plain, or compressed (base64 of the raw deflate of the
// URL-encoded XML); which is told from the page itself, not from the
// mxfile's compressed attribute. Files are UTF-8, or UTF-16 with a
// byte-order mark.
//
// Vertices are states and edges transitions (from their source to their
// target). Labels are read as draw.io shows them: placeholders ("%Test%")
// replaced when the shape has placeholders="1"; HTML labels (style html=1)
// turned into text, <br> and the ends of <div> and <p> made line breaks,
// character references decoded. Custom properties are the attributes of
// the object or UserObject element that wraps a cell: what draw.io's Edit
// Data (Ctrl+M) edits.
//
// Pages after the first give their states and transitions IDs prefixed by
// the page's ID ("pageid/cellid"), as chart/visio does. A page that a
// shape of another page links to (draw.io's Edit Link > Page, a
// drill-down of a composite state) is a sub-diagram, not a part of the
// chart: it is left out with a note.
//
// # With a stencil
//
// A drawing made with a stencil is drawn with the shapes of the
// stencil's library ([WriteLibrary]; "fsmforge stencil -format drawio").
// Each shape carries in its Edit Data:
//
//   - fsmforge ([AttrRole], or the attribute Options.RoleKey names): the
//     master it stands for, one of the names of the stencil's masters
//     ("State", "Initial State", "Transition", "Message Handler" for the
//     Goomba), matched by [chart.Stencil.Role];
//   - fsmforgeStencil and fsmforgeVersion ([AttrStencil], [AttrVersion]):
//     the stencil it comes from;
//   - the properties of its role, named as the stencil names them: a
//     state's Name (when empty, the label names the state) and entry
//     actions (XMovement, Animation), a transition's Test, Value, Order,
//     Stack and Final.
//
// The masters of statecharts, when the stencil names them, are drawn with
// the library's shapes too (see Nested states): a shape of the composite
// master, a container with a heading, is a compound state (a state even
// when no transition is glued to it, named and given entry actions as a
// state is); one of the parallel master, a container too, a parallel
// state (chart.ParallelState) whose states are its regions; one of the
// history or deep-history master, a circle labelled H or H*, a history
// pseudo-state (chart.HistoryState, chart.DeepHistoryState) of the
// compound state it is drawn in; one of the start master, a filled
// circle, a start pseudo-state (chart.StartState, initial, as in a plain
// diagram) of the compound state it is drawn in, or at the top of the
// machine: its one transition goes to the state its compound state (or
// the machine) starts in. Pseudo-states have no entry actions, and are
// named by their Name property alone (a history's label is UML's
// notation, a start has none: empty, the pseudo-state is nameless). A
// transition that leaves a history (its default) or a start has no test:
// one set on it (the library's transition presets the first) is ignored,
// with a warning that names the pseudo-state's kind and the test, and
// says to clear its Test in the edge's Edit Data; the edge is kept, as
// chart/visio and chart/graphml keep it.
//
// The rules are chart/visio's. A state's action values must be in the
// stencil's drop-lists; a transition's test must be one of the stencil's
// tests, its value one the test takes; Order is a whole number (empty or
// 0: document order); Stack is none, push or return (a returning
// transition's end is loose); Final, 1 on a transition whose end is glued
// to nothing on purpose (the machine ends there), keeps it from being
// warned about, and is an error on a transition glued at its end. A
// transition starts at a state, or at a message-handler shape: it then
// applies in any state. A drawing none of
// whose shapes names a master of the stencil was made with another
// stencil (an error); shapes of another stencil, or naming an unknown
// master, are ignored with a warning; shapes of another version of the
// stencil are warned about; an edge between states that is not a
// transition of the stencil (the arrow draw.io draws from a shape's hover
// arrows) is ignored with a warning. Shapes without an fsmforge
// attribute (titles, notes) are left out with a note. A state shape drawn
// inside another (a container) is a state inside it (see Nested states).
// A shape of the stencil's initial-state master is the initial state of
// the compound state it is drawn in, and the machine starts there when
// nothing says otherwise, so each compound state around it is initial
// too, up to a level that marks its own: a shape of the initial-state
// master or a start among the compound's siblings, as chart/visio reads a
// drawing. A region of a parallel state is never initial: the parallel
// state is (a region drawn with the initial-state master whose parallel
// state is not marked, its level starting elsewhere, says nothing: a
// warning). So a drawing whose machine starts in a compound state, or in
// a parallel state, draws the state it starts in inside it with the
// initial-state master; a compound state the machine does not start in
// says where it starts with a start (or, inside a compound whose level
// marks its own initial state, with the initial-state master). As in a
// plain diagram, a history drawn in no state is an error; a shape of the
// parallel master that holds no states is a plain state, with a warning.
// What package compile checks of starts, the reader leaves to it: a start
// without its one transition or with several, two starts in one state, a
// start beside a state marked initial, a start drawn directly in a
// parallel state.
//
// # Without a stencil
//
// A plain state diagram is read as people draw them in draw.io. A
// vertex is a state named by its text; when its text has several lines,
// the lines from the first (after the first) that holds a '/' are UML
// behaviours ("entry / start()"), left out with a warning: fsmforge runs
// no code from a drawing. Pseudo-states are told by their style:
// shape=startState or a black ellipse without text is a start;
// shape=endState, or a double ellipse without text, an end; a rhombus a
// choice; any other ellipse without text (a junction) a choice too; an
// ellipse labelled H a shallow history, H* a deep history (see Nested
// states). Text shapes, notes, frames (umlFrame), images, lines and
// boxes without outline or fill are not states unless an edge ends on
// them; groups (style group) and containers without text are frames
// whose members are read as if drawn outside them, unless the
// container's Edit Data holds [AttrInitial] or [AttrParallel]: it is
// then a state without a name.
//
// An edge's label is its own text followed by its label cells' (edgeLabel
// children), read as "event [guard] / action"; a label that starts with a
// number and a dot ("2. INCREASE [count >= 3]") gives the transition's
// order. The transitions leaving a state are tried by their order, those
// without one after those with one, in document order (a warning says so
// when a state mixes them), and a UML "[else]" last. An edge without
// arrowheads is a line, not a transition. An edge whose end is glued to
// nothing enters the final state, with a warning (the designer may have
// forgotten to glue it) unless it carries [AttrFinal] = 1; one whose
// source is nothing is an error, and one attached to nothing at all is
// left out with a note. Where a label cannot say everything, [Write] adds
// attributes a plain reading also honours: [AttrInitial],
// [AttrParallel], [AttrName], [AttrEntry] and [AttrExit] on a state;
// [AttrOrder], [AttrTest], [AttrEvent], [AttrGuard], [AttrAction],
// [AttrActions], [AttrFinal], [AttrStay], [AttrInternal] and [AttrAlso]
// on an edge (see Actions). An edge marked [AttrStay] = 1, drawn from its
// state back to it (or with a loose end), is a transition without a
// target (chart.ToNone): one whose end is glued to another state is left
// out with a warning. The diagram's own Edit Data (Edit Data with
// nothing selected) may say how the machine runs: [AttrChain] and
// [AttrChainLimit], the chart's Chain and ChainLimit, and
// [AttrStatechart], its Statechart; [AttrName], the chart's Name
// (else the file's name gives it); and [AttrFallback], its Fallback: the
// name of the state where a running game sends the agents of a state that
// a new version of the drawing no longer has (package reload), empty for
// the initial state. The name of no state is not the reader's error:
// package compile warns about it.
//
// # Actions
//
// A plain diagram's states carry their entry and exit actions in
// [AttrEntry] and [AttrExit], and an edge the actions taken with its
// transition (chart.Transition.Actions, besides the label's "/ action")
// in [AttrActions]: one action a line, as the other exporters' labels
// show them,
//
//	Animation=walk
//	[low] raise flee
//	send tick after 1.5s as t1
//	cancel t1
//
// a game action (PROPERTY=VALUE), raising an event, sending one after a
// delay in seconds (optional) named by a timer (optional), cancelling
// the timer's event; each after its guard in brackets, when it has one.
// A word with white space, '"' or '=' (or empty, or starting with '[')
// is quoted as a Go string ("walk left"); a guard whose brackets do not
// balance, or with spaces around it, is quoted inside its brackets. A
// line that does not read is left out with a warning that says why.
//
// # StateSmith's drawings
//
// A diagram one of whose vertices is labelled with a keyword of StateSmith
// (a code generator whose users draw in draw.io: "$initial_state",
// "$choice", "$NOTES", "$STATEMACHINE: Name", "entry : 1"...) is read as
// StateSmith reads it (package internal/statesmith holds its grammar):
//
//   - A vertex's first line names it; the lines below are its behaviours
//     ("enter / light_on();", "EV / count++;"), text cells without fill,
//     outline or shape inside it included: a warning says they are not
//     run. A behaviour that handles an event a state around it has a
//     transition on is an error: StateSmith stops the event in the inner
//     state, and the chart, which keeps no handler, would take the outer
//     transition.
//   - An edge's label holds one behaviour per line, "order. trigger
//     [guard] / action via entry|exit point": each line, and each trigger
//     of a list "(EV1, EV2)", is a transition to the edge's target. "do"
//     is the machine's update (no event); else and [else] are tried after
//     the others; decimal orders ("1.5.") are ranked; events whose case
//     differs are one event, with a warning.
//   - Read faithfully: $initial_state; $choice; $H, $HC and $ORTHO (see
//     Nested states); entry and exit points ("entry : L", "exit : L"),
//     choices inside their state, which the transitions "via entry L"
//     into the state and "via exit L" out of it go through; $PARENT_ALIAS, the state it is drawn in; $NOTES vertices
//     and note shapes, with what is drawn in them, and pages whose name
//     starts with $notes, left out with a note; $CONFIG and $RenderConfig
//     (settings of StateSmith's generator), left out with a note;
//     $STATEMACHINE, a frame that names the chart, the vertices outside it
//     left out with a note. A vertex labelled H is a state named H.
//   - A transition from a state to a state inside it is internal
//     (Transition.Internal): StateSmith's transitions are local, they do
//     not leave the state.
//   - Refused, with an error naming the shape: a TriggerMap
//     setting (it renames events); a trigger on a pseudo-state's
//     transition or with "via exit"; enter, entry or exit on an edge; a
//     start inside a state with several transitions or a trigger or guard
//     on its one transition; a label StateSmith's grammar refuses.
//
// # Nested states
//
// The reader keeps the hierarchy a drawing draws: a state drawn inside
// another (a vertex whose parent cell is a vertex: a container, a
// swimlane, a UML state with container=1) is its child (State.Parent),
// and package compile runs the chart as a statechart. Groups and frames
// in between are only drawn: the states in them are children of the
// state around the group. A collapsed container keeps its states; an
// edge takes its ends from its source and target, whatever cell it is
// drawn in. Positions (State.Box) are on the page, the positions of the
// containers added up.
//
//   - A start pseudo-state inside a state is its initial pseudo-state: its
//     one transition, without a trigger or a guard, leads to the state
//     entered first. A state inside marked [AttrInitial] = 1 does as well.
//   - An end pseudo-state inside a state is its final state: entering it
//     completes the state, and the state's transitions without a label
//     (UML's completion transitions) are taken.
//   - An ellipse labelled H inside a state is its shallow history
//     (chart.HistoryState), H* its deep history (chart.DeepHistoryState).
//     A history's one transition, without a trigger or a guard, to states
//     inside its state, is its default: what it enters when there is no
//     history yet. A history drawn without one gets the one UML gives it,
//     to where the state's start pseudo-state leads (or its state marked
//     initial), ID the history's and "#1", with a note.
//   - Parallel regions: draw.io has none, so fsmforge's convention is a
//     state marked [AttrParallel] = 1 in its Edit Data (with a stencil, a
//     shape of its parallel master), a parallel state
//     (chart.ParallelState) whose children, the containers drawn inside
//     it, are its regions, all active at once; Write draws it as a
//     swimlane and its regions as dashed containers stacked in it. A
//     transition that enters states in several regions at once is drawn
//     as an edge to one of them and, to each other one, an edge from the
//     same state marked [AttrAlso] = the first edge's cell ID
//     (Transition.Also).
//   - With a stencil, a shape of the composite master is a compound
//     state, those of its history and deep-history masters are
//     histories, as the ellipses labelled H and H* of a plain diagram
//     are, and those of its start master starts, as a plain diagram's
//     start pseudo-states; the rules above hold for them, a start's and
//     a history's transition without a test. A shape of the
//     initial-state master is its compound state's initial state, and
//     marks the compounds around it initial (see With a stencil).
//   - In a drawing made for StateSmith: $H is the history of the state it
//     is drawn in, which needs one transition, its default; a $HC in one of
//     the states inside makes it remember that state's states too, and so
//     on down; a $H whose $HC reach every level is a deep history, one
//     that reaches some of them an error (read as deep). A $HC is not a
//     state: an edge to or from it is an error. The states labelled
//     "$ORTHO order : NAME" inside a state are its regions, named NAME,
//     in the order of their numbers (those without one last, in document
//     order): the state is parallel, and holds nothing else. StateSmith
//     does not generate code for regions yet: a warning says so.
//
// Errors, each at the shape: a history drawn in no state (left out, with
// its transitions), or whose transitions are not one, without a trigger
// or a guard, to states inside its state; a state the machine enters by
// default (a transition ends at it, the machine starts in it, a history
// may restore it, entering the state around it enters it) that holds
// states but no initial one, as the drawing does not say which of them
// to enter; a start, end or choice pseudo-state inside a parallel state,
// whose states are its regions; a dashed line across or inside a state,
// meant as UML's regions, which a line cannot say. An edge marked
// [AttrAlso] that names no transition of its page, or that does not start
// where it does, or ends on no state, is left out with a warning; so is
// [AttrParallel] on a state that holds none. The reader never flattens a
// chart ([chart.Flatten] does, for those who want one).
//
// # Writing
//
// [Write] writes a chart as an uncompressed mxfile (compressed pages on
// request), one diagram per page, deterministically; Read gives the same
// chart back (positions aside), which compiles to the same table. States
// are drawn at their Box; the others on a grid. A state that holds states
// is a container (container=1), the states inside drawn relative to it,
// large enough to hold them: one without a Box is laid out around them.
// Parallel states, regions, histories and transitions to several states
// are drawn with the conventions above; a chart that runs as a
// statechart without nesting (Chart.Statechart) says so in the diagram's
// Edit Data ([AttrStatechart]).
//
// A chart's name that is not its file's (an SCXML document's name
// attribute) is kept in the diagram's Edit Data ([AttrName]); one that is
// follows the file the drawing is saved as. A plain chart keeps what a
// statechart read from SCXML says ("fsmforge convert guard.scxml
// guard.drawio"): the names of its histories ([AttrName]), its states' entry and exit actions and its
// transitions' actions of every kind, guarded or not ([AttrEntry],
// [AttrExit], [AttrActions]), its transitions without a target
// ([AttrStay], a loop on the state), internal ones ([AttrInternal]), and
// those that enter several states ([AttrAlso]). A chart with a stencil
// is drawn with the shapes of the stencil's library: a compound state
// with its composite master when it has one (unless it is drawn with the
// initial-state master: then as a container of that master), parallel
// states, starts and histories with theirs. Its initial states are drawn
// so that the reading above marks them back: a compound or parallel
// state that is initial because a state inside it is (the machine starts
// there) with its own master, the state inside with the initial-state
// master (a parallel state that no state inside makes initial, with one
// of its regions drawn with it); the initial states of other levels
// with the initial-state master. What its masters and properties cannot
// say (exit actions, actions other than the stencil's entry actions,
// transitions with actions, without a target or internal, pseudo-states
// other than starts and histories, initial states no drawing marks so,
// such as an initial parallel state beside another initial state) Write
// refuses with an error.
//
// [WriteLibrary] writes a stencil's draw.io shape library: one shape per
// master, carrying the attributes above with their defaults, the
// drop-lists listed in each shape's tooltip; the parallel master's shape
// holds two regions, dashed, drawn with the composite master (or the
// state master); the start master's is a small filled circle.
//
// # Diagnostics and bad input
//
// Problems are [diag.Diagnostic] values with the file, page, cell ID,
// name and, for uncompressed pages, the line and column of the cell's
// element. A drawing made with a stencil is read strictly (a transition
// that cannot be read is an error); a plain diagram leniently (what cannot
// be a transition is a warning, what is not a state a note). Nothing the
// reader leaves out goes unreported.
//
// The reader never panics and never hangs. It refuses, with an error that
// says why and where ([ErrTooLarge], [ErrNotDrawio], [ErrMalformed],
// [ErrTooDeep]) and names the option that raises the limit:
//
//   - a file over Options.MaxSize (256 MiB by default); compressed
//     content (pages, an SVG's content, a PNG's text chunk, whose Latin-1
//     counts as the UTF-8 it becomes) inflating to more than that, all of
//     it together, counted as it inflates (a deflate bomb); labels whose
//     placeholders (placeholders="1") would make them more than that, all
//     labels together, counted as they grow (a property named a thousand
//     times in a label);
//   - more than Options.MaxElements cells (1,048,576 by default), a page
//     and an element that wraps a cell counting as one too; more
//     properties than that, counted apart: the attributes of the object
//     and UserObject elements around cells; more actions than that,
//     counted apart too: the lines of [AttrEntry], [AttrExit] and
//     [AttrActions] that are not blank;
//   - an empty or binary file, a PNG or SVG without a diagram, a shape
//     library, XML of another kind;
//   - malformed XML or invalid UTF-8 (with the line and column), inside
//     compressed pages too; invalid base64, deflate or URL encoding;
//   - XML nested deeper than Options.MaxDepth+32 elements, cells nested
//     deeper than Options.MaxDepth (100 by default).
//
// A cell nested in itself is an error of the chart. Whatever the file
// holds, its diagnostics stay small: they quote at most 64 characters of a
// name or a value, the names in positions (of the diagnostics, and of the
// chart's states and transitions, which other packages quote) at most 100
// (a page's name too: a longer one is shortened), a message at most
// 1,000; of diagnostics that say the same thing, the first 10 are kept,
// the tenth saying how many more there were ("(and 990 more like it)");
// of the lines of an attribute that do not read as actions, the first 5.
//
// # Costs
//
// The whole file is read into memory, and each compressed page inflated
// twice: once to learn its size, once into a string of that size (a PNG's
// text chunk once, into a string that grows). The XML scanner
// (internal/xmlscan, which chart/visio uses too) allocates only for what
// it keeps, and for the attributes of the start tag it reads (about 50
// bytes each: a single tag of millions of attributes is held whole before
// Options.MaxElements refuses it). Nothing is allocated from a count in
// the file beyond what its bytes can hold. So the memory a reading takes
// is bounded by the limits: the file, what its compressed content
// inflates to and what placeholders add to labels (each at most
// Options.MaxSize), about 1 KB a cell, 32 bytes a property and 200 an
// action: "fsmforge check" reads and checks a drawing of a million states
// in about 1.5 GB.
// BenchmarkRead reads a drawing of 3,200 states and 6,400 transitions made
// with the goomba stencil: 6.5 MB with plain pages, read at about 220
// MB/s on a 2-core machine, allocating 3.7 times the file's size; 0.19
// MB with compressed pages, allocating 3.9 times the size of the XML they
// inflate to. The package holds no global state: calls may run
// concurrently.
package drawio
