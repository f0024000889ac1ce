// Package scxml reads W3C SCXML state machines into a [chart.Chart] and
// writes charts as SCXML, so that Qt Creator's SCXML editor (or any SCXML
// editor) can draw and edit fsmforge charts, and the state structure of
// SCXML files written for interpreters can be imported.
//
//	st, err := chart.LoadStencil("goomba.stencil.json")
//	...
//	c, err := scxml.ReadFile("goomba.scxml", scxml.Options{Stencil: st})
//	...
//	err = scxml.Write(w, c, scxml.WriteOptions{})
//
// It reads SCXML 1.0 (namespace http://www.w3.org/2005/07/scxml, see
// [SCXMLNamespace]) as a statechart: nested, parallel and history states,
// transitions to several states or none, and the executable content that
// needs no data model (<raise>, <send> to the machine itself, <cancel>),
// as package compile runs them with SCXML's semantics. It keeps what
// SCXML has no place for in attributes and elements of fsmforge's
// namespace, [Namespace] (https://fsmforge.dev/scxml, written with the
// prefix ff).
//
// # Reading
//
//   - <state> is a state (chart.NormalState), named by its id. Its id is
//     its chart ID too, unless ff:id gives another; ff:name gives its
//     name when the name is not a valid id ("Walk left" is written
//     id="Walk_left" ff:name="Walk left"). Ids are kept as they are,
//     whatever characters SCXML allows in them ("Main::idle").
//   - <parallel> is a parallel state (chart.ParallelState), whose
//     children are its regions.
//   - <final> is a final state (chart.EndState), with its id as ID and
//     name and its entry and exit actions: at the top level, entering it
//     ends the machine; inside a compound state, it completes it (SCXML's
//     done.state.id). The final state Write adds for transitions that end
//     the machine without entering a state of the chart (chart.ToFinal)
//     is marked ff:implicit="true": it is not a state, and transitions
//     into it are read back as ToFinal.
//   - <history type="shallow"> (the default) and <history type="deep">
//     are history pseudo-states (chart.HistoryState,
//     chart.DeepHistoryState) inside their parent; the <transition> inside
//     one, its default, is a transition from it (it may have actions).
//   - <onentry> and <onexit> hold the state's entry and exit actions
//     (State.Entry, State.Exit), several of each in document order (see
//     Actions below).
//   - <transition event="..." cond="..." target="..." type="..."> is a
//     transition of the state it is in, ranked by its position among that
//     state's transitions (SCXML tries them in document order): Order 1,
//     2, 3... Its event descriptors are its Event, as written, separated
//     by single spaces ("foo", "foo.", "foo.*" and "*" are kept as they
//     are; package compile matches them as SCXML does: "foo" matches foo
//     and foo.bar, "*" every event). Its cond is its Guard, verbatim but
//     for the white space around it. Its first target is its Target, the
//     others Also (the states of several regions); without a target it
//     has Target.Kind chart.ToNone: it runs its actions and leaves no
//     state. type="internal" sets Internal. The executable content inside
//     it is its Actions.
//   - The initial attribute of <scxml> or of a compound <state> naming one
//     of its children marks that child initial (State.Initial). Naming a
//     state deeper down, or several states (in the regions of a parallel
//     state), it gives the compound (or the top level) a start
//     pseudo-state (chart.StartState, initial) whose transition goes
//     there: its ID is the compound's ID and "#initial" ("#initial" at
//     the top level), its transition's "#1" after that. An <initial>
//     element is such a start pseudo-state too, with its transition and
//     its actions. A compound state (or the top level) without either
//     starts in its first child, which is marked initial: the chart says
//     which state every compound enters. A start pseudo-state comes right
//     after its compound in Chart.States.
//   - <qt:editorinfo geometry="..."/>, Qt Creator's layout, gives
//     State.Box (see Layout below). Other elements of other namespaces are
//     ignored, with a warning.
//
// States keep their nesting (State.Parent), in document order, compounds
// before the states inside them; the reader never flattens a chart (see
// [chart.Flatten] for those who want one).
//
// A file written for an SCXML interpreter (one that does not declare
// fsmforge's namespace) is read with Chart.Statechart set: its machine
// runs as SCXML says, events queued and transitions without event taken
// as soon as their condition holds, even when no state nests; and with
// Chart.Chain set, since SCXML runs each event to a stable configuration
// (a macrostep) before the next. A file that
// declares fsmforge's namespace is an fsmforge chart, which says so with
// ff:statechart="true" (Write writes it for a chart that does); without
// it, a flat chart runs as it was drawn.
//
// # Actions
//
// Executable content in <onentry>, <onexit>, <transition> (and the
// transition of <initial> and <history>) is read into chart actions, in
// document order:
//
//   - <raise event="e"/> is a chart.RaiseAction: e goes on the machine's
//     internal queue.
//   - <send event="e" delay="1.5s" id="t"/> is a chart.SendAction: e goes
//     on the machine's external queue after Delay seconds of game time (a
//     CSS2 time, as SCXML says: "1.5s", ".5s", "500ms"; none for 0), and
//     Timer is its id, for <cancel> ("" without one). target="#_internal"
//     without a delay makes it a RaiseAction, as SCXML queues it
//     internally; type may be SCXML's event processor
//     ("http://www.w3.org/TR/scxml/#SCXMLEventProcessor", or "scxml").
//   - <cancel sendid="t"/> is a chart.CancelAction of Timer t.
//   - <ff:action property="XMovement" value="left"/> is a game action
//     (chart.GameAction): the game sets the property to the value.
//
// A <send> to another target (#_parent, a URL...), of another type, or
// that needs a data model (eventexpr, delayexpr, targetexpr, typeexpr,
// idlocation, namelist, <param>, <content>), <cancel sendidexpr>, and the
// rest of executable content (<log>, <assign>, <script>, <if>, <foreach>)
// are errors wrapping [ErrUnsupported], warnings with Options.Lenient:
// the action is left out. A delay that is not a CSS2 time, and a <send>
// or <raise> without one event name, are errors either way.
//
// # With a stencil
//
// With Options.Stencil, the chart is a build asset and is read strictly.
// A transition's test is its event attribute (the text Qt Creator shows on
// the arrow and edits), or its cond when it has no event; it must be one
// of the stencil's tests, whether a message or a polled condition, and
// ff:value one of the test's values. ff:test gives the test when event
// cannot hold it (a test name with spaces: event="hit_by_player"
// ff:test="hit by player"). The transitions of start pseudo-states and
// histories need no test. A game action's property must be one of the
// stencil's action properties, and its value in the property's
// drop-list; the game actions among a state's entry actions are listed in
// the stencil's order. The transition's label is its test, or ff:label.
// The root element names the stencil and its version,
// ff:stencil="goomba" ff:stencilVersion="1": a file made with another
// stencil is an error (and the chart is left empty), one made with
// another version of it, or naming none, a warning.
//
// # Without a stencil
//
// A plain state machine is read as SCXML writes it: a transition's event
// is its Event, its cond its Guard, its test the event, or the condition
// when it has no event (so that a flat chart compiles as it always has);
// its label is "event [cond]" (the condition with single spaces) unless
// ff:label says otherwise (its action is then the label's, "event
// [guard] / action"). ff:event gives the Event when the event attribute
// cannot hold it as it is. The chart is named by the name attribute of
// <scxml>, or else after the file.
//
// # What a chart cannot express
//
// SCXML is a programming language; a chart is a drawing of states, tests
// and actions. What the chart cannot express is reported with the
// element's line and column and wraps [ErrUnsupported], never dropped in
// silence:
//
//   - Executable content other than the actions above, data models
//     (<datamodel>, <script> at the top level, <donedata>) and <invoke>
//     are errors, and warnings with Options.Lenient: the content is left
//     out, and the states and transitions of a file written for an SCXML
//     interpreter can be read, drawn and checked.
//   - A target that is not the id of a state, two states with one id,
//     an <initial> or <history> whose transition has an event or a
//     condition, no target, or targets outside its parent, a <history>
//     without its transition, unknown SCXML elements, elements where
//     SCXML does not allow them, and fsmforge attributes or elements the
//     package does not know are errors. SCXML attributes it does not know
//     are warnings, and so is a datamodel attribute other than "null":
//     conditions are read as text, not evaluated.
//
// Messages start "scxml: " and name the element, as the file writes it
// ("<send> in <onentry> of state "red""); their position is the file,
// line and column of the element, and the chart ID of the state it is in.
// The diagnostics of a chart come in document order.
//
// # The fsmforge namespace
//
// On <scxml>:
//
//   - ff:stencil, ff:stencilVersion: the stencil's name and version.
//   - ff:initial="none": the chart has no initial state.
//   - ff:chain="true", ff:chainLimit: how the machine runs, the chart's
//     Chain and ChainLimit (a value neither true nor false, or not a
//     whole number, is a warning).
//   - ff:statechart="true": the chart runs as a statechart
//     (Chart.Statechart; see Reading).
//   - ff:fallback: the chart's Fallback, the name of the state (its id,
//     or its ff:name) where a running game sends the agents of a state
//     that a new version of the file no longer has (package reload);
//     none, or empty, for the initial state. Its white space is made
//     single spaces, as in a state's name; a name of no state is not the
//     reader's error: package compile warns about it. A file from another
//     editor (Qt Creator's) that declares fsmforge's namespace for
//     ff:fallback becomes an fsmforge chart (see Reading): add
//     ff:statechart="true" and ff:chain="true" too, to keep it running as
//     SCXML says.
//
// On <state>, <parallel>, <final>, <history> and <initial>:
//
//   - ff:id: the chart's ID of the state, when it is not the id (for
//     <initial>, its compound's ID and "#initial").
//   - ff:name: the state's name, when it is not the id ("" for a
//     nameless one).
//   - ff:kind (on <state>): "start", "choice" or "end" for the pseudo-
//     states of plain charts (an end pseudo-state with transitions leaving
//     it, or in a parallel state, cannot be a <final>), or "anyState" for
//     the element that holds the any-state transitions (below).
//   - ff:initial="true" (on <state>, <parallel>, <final> at the top
//     level): a further initial state (a chart that has more than one,
//     which compile reports).
//   - ff:implicit="true" (on <final>): the final state of the machine,
//     not a state of the chart.
//
// On <transition>:
//
//   - ff:id: the chart's ID of the transition, when it is not the state's
//     ID, '#' and the transition's position among the state's ("walkLeft#2").
//   - ff:test, ff:event, ff:label: the test, the event and the label,
//     when event, cond and the label made of them cannot say them.
//   - ff:value: the test's argument (mValue in the state table of
//     "Visual Finite State Machine AI Systems").
//   - ff:order: the rank among the state's transitions, when it is not
//     the position (SCXML's order is document order).
//   - ff:stack: "push" to push the state left before going to the target;
//     "return" (without a target) to go to the state on top of the stack.
//
// In <onentry>, <onexit> and <transition>: <ff:action property="..."
// value="..."/>, a game action.
//
// Any-state transitions (those of the stencil's message handler, which
// the table runtime tries in every state BEFORE the state's own) are the
// transitions of a top-level <state ff:kind="anyState">, which holds no
// states and is no state of the chart; their order is their position
// among the transitions of all such elements. (Transitions of a compound
// state enclosing every state would be tried AFTER each state's own: they
// mean something else.) An SCXML interpreter never enters that element.
//
// # Layout
//
// Qt Creator keeps an element's layout in a child
// <qt:editorinfo geometry="x;y;rx;ry;w;h" scenegeometry="..."/> (namespace
// [QtNamespace], which Qt Creator recognises by the prefix qt): the
// item's position in its parent's coordinates, then the item's rectangle
// in its own, in pixels, y downwards; scenegeometry gives both in the
// scene's coordinates. The reader sets State.Box to the rectangle in scene
// coordinates: positions added up through the enclosing states' geometry
// (or scenegeometry, when one of them has none). Write writes
// geometry="x;y;0;0;w;h" (the position at the box's top-left corner, in
// the coordinates of the box of the state around it) and the box in
// scenegeometry; when adding up the positions would not give back the box
// exactly (decimal fractions), it writes the scenegeometry alone. It puts
// the any-state element and the final state to the right of the drawing;
// elements without geometry are laid out by Qt Creator. Other editors'
// layouts (ScxmlEditor's, in a comment) are ignored.
//
// # Writing
//
// [Write] writes the chart's states as nested elements: each state (in
// chart order, inside its parent) with its editor info, its <initial>,
// entry and exit actions, transitions (sorted by Order) and the states
// inside it; then the any-state element and the final state when there
// are any. A normal state is a <state>, a parallel one a <parallel>, a
// history a <history> holding its one transition, an end pseudo-state
// without transitions (and not in a parallel state) a <final>. A start
// pseudo-state that is a compound's first state, its initial state,
// without actions, entered by no transition and leaving by one transition
// without event or condition to states inside the compound, is the
// compound's <initial>; otherwise a compound's initial state is its
// initial attribute (a compound without one is written without either,
// and read back starting in its first state). SCXML ids are the states'
// names made XML names
// (characters that cannot be in one become '_', a leading digit gets a
// '_' before it, and a repeated id gets "_2", "_3"...); a nameless state
// takes its kind's name or its ID. With a stencil, a transition's test is
// written as its event; without one, its Event as event and its Guard as
// cond. Actions are written as the executable content they are read
// from. Every datum of the chart is written, so that Read gives back the
// chart: its name, Chain, ChainLimit, Statechart and Fallback, states
// (IDs, names, kinds, parents, initial, entry and exit actions, boxes)
// and transitions (IDs, from, any-state, order, test, value, label,
// event, guard, action, targets, internal, actions, push and return),
// but for positions (FallbackPos among them), for
// the order of Chart.Transitions, which comes back grouped by state, and
// for the order of states that chart order does not list parents first
// and children in order.
//
// # Example
//
// The article's Goomba with a message handler, as Write writes it (see
// examples/goomba/goomba.scxml for the one converted from goomba.vdx):
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" version="1.0" name="goomba" initial="walkLeft" ff:stencil="goomba" ff:stencilVersion="1">
//	    <state id="walkLeft">
//	        <qt:editorinfo geometry="144;300;0;0;144;72" scenegeometry="144;300;144;300;144;72"/>
//	        <onentry>
//	            <ff:action property="XMovement" value="left"/>
//	            <ff:action property="Animation" value="moveLeft"/>
//	        </onentry>
//	        <transition event="hitTriggerLeft" target="walkRight"/>
//	    </state>
//	    <state id="walkRight">
//	        <qt:editorinfo geometry="528;300;0;0;144;72" scenegeometry="528;300;528;300;144;72"/>
//	        <onentry>
//	            <ff:action property="XMovement" value="right"/>
//	            <ff:action property="Animation" value="moveRight"/>
//	        </onentry>
//	        <transition event="hitTriggerRight" target="walkLeft"/>
//	    </state>
//	    <state id="stunned">
//	        <qt:editorinfo geometry="336;100;0;0;144;72" scenegeometry="336;100;336;100;144;72"/>
//	        <onentry>
//	            <ff:action property="XMovement" value="existing"/>
//	        </onentry>
//	        <transition event="animationDone" ff:stack="return"/>
//	    </state>
//	    <state id="death">
//	        <qt:editorinfo geometry="336;540;0;0;144;72" scenegeometry="336;540;336;540;144;72"/>
//	        <onentry>
//	            <ff:action property="XMovement" value="death"/>
//	            <ff:action property="Animation" value="death"/>
//	        </onentry>
//	        <transition event="animationDone" target="Final"/>
//	    </state>
//	    <state id="AnyState" ff:kind="anyState">
//	        <qt:editorinfo geometry="732;100;0;0;120;100" scenegeometry="732;100;732;100;120;100"/>
//	        <transition event="hitByPlayer" target="death" ff:value="fromAbove"/>
//	        <transition event="hitByPlayer" target="stunned" ff:stack="push"/>
//	    </state>
//	    <final id="Final" ff:implicit="true">
//	        <qt:editorinfo geometry="772;260;0;0;40;40" scenegeometry="772;260;772;260;40;40"/>
//	    </final>
//	</scxml>
//
// Read with the goomba stencil, it gives four states (walkLeft initial),
// four transitions of their own and two any-state transitions: a stomp
// from above kills the goomba, any other hit stuns it and returns it to
// where it was.
//
// # Bad input
//
// The reader never panics and never hangs. It refuses, with an error that
// says why and where ([ErrTooLarge], [ErrNotSCXML], [ErrMalformed],
// [ErrTooDeep]): a file over Options.MaxSize (16 MiB by default); a file
// that is empty, binary, compressed, not XML, or XML whose root is not
// <scxml> (naming what it looks like: a draw.io diagram, a Visio drawing,
// GraphML...); malformed XML or invalid UTF-8, with the line and column;
// elements nested deeper than Options.MaxDepth+32 (132 by default); more
// elements than Options.MaxElements (250,000 by default). Options is
// [chart.ReadOptions], with SCXML's own defaults for MaxSize and
// MaxElements (MaxTransitions, which bounds flattening, does not apply:
// the reader does not flatten). It reads
// UTF-8 with or without a byte-order mark, UTF-16 with one, and ISO 8859-1
// when the XML declaration says so; columns count bytes of the UTF-8 text.
// A root <scxml> without SCXML's namespace is read, with a warning.
//
// # Costs
//
// The whole file is read into memory and parsed with encoding/xml; the
// reader keeps a tree of the SCXML elements it looks into (the contents of
// executable content and data models are skipped) and builds the chart
// from it, in time linear in the file (the depth of nesting aside).
// Reading a generated chart of 10,000 states and 40,000 transitions (6.2 MB, with entry actions and layout) took 0.55 s and
// allocated 17 bytes per byte of file, 2.6 times the time encoding/xml
// takes only to tokenize the file (BenchmarkRead, on two cores shared
// with other work, load average 11); writing it took 0.08 s
// (BenchmarkWrite). A file of many tiny elements costs more: at most about
// 1 KB per element kept, so 250 MB at the default Options.MaxElements.
// Read and Write hold no global state: calls may run concurrently.
package scxml
