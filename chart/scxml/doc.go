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
// [SCXMLNamespace]) and keeps what SCXML has no place for in attributes
// and elements of fsmforge's namespace, [Namespace]
// (https://fsmforge.dev/scxml, written with the prefix ff).
//
// # Reading
//
//   - <state> is a state, named by its id. Its id is its chart ID too,
//     unless ff:id gives another; ff:name gives its name when the name
//     is not a valid id ("Walk left" is written id="Walk_left"
//     ff:name="Walk left").
//   - <final> is an end pseudo-state (chart.EndState): a transition into
//     it ends the machine, as compile lowers it. The final state Write adds
//     for transitions that end the machine without entering a state of
//     the chart (chart.ToFinal) is marked ff:implicit="true": it is not a
//     state, and transitions into it are read back as ToFinal.
//   - The initial attribute of <scxml> names the state the machine starts
//     in; without it, the first state is. It may name a state inside
//     another: the machine starts in the state entering it enters.
//   - <transition event="..." cond="..." target="..."> is a transition of
//     the state it is in, ranked by its position among that state's
//     transitions (SCXML tries them in document order): Order 1, 2, 3...
//     In a plain state machine, a transition without event and cond is a
//     completion transition (Test ""; see package compile); with a
//     stencil, it is an error. One without a target (an internal
//     transition, taken for its actions) is left out with a warning,
//     unless it is a return (ff:stack="return"); since SCXML selects it as
//     any other, and it then stops its event, a transition on the same
//     event of a state around its own, or a later one of its own state,
//     would be taken by the chart and not by SCXML: an error, unless read
//     leniently.
//   - <onentry> holds the state's entry actions, as
//     <ff:action property="XMovement" value="left"/>.
//   - <qt:editorinfo geometry="..."/>, Qt Creator's layout, gives
//     State.Box (see Layout below). Other elements of other namespaces are
//     ignored, with a warning.
//
// # Nested states
//
// A <state> inside a <state> is a compound state's child: the reader
// records the nesting (State.Parent), each compound's initial state (its
// initial attribute, its <initial> element's transition, or its first
// child), then flattens the chart with [chart.Flatten], which adds a note
// for each compound: the leaves become the chart's states, a compound's
// transitions apply in each of its descendants after the descendant's
// own, entering a compound enters its initial state (followed down to a
// leaf), and a leaf takes the entry actions of its compounds for the
// properties it does not set. A <final> inside a compound completes it in
// SCXML (event done.state.id) but ends the machine in a chart: an error,
// or a warning when reading leniently.
//
// # With a stencil
//
// With Options.Stencil, the chart is a build asset and is read strictly.
// A transition's test is its event attribute (the text Qt Creator shows on
// the arrow and edits), or its cond when it has no event; it must be one
// of the stencil's tests, whether a message or a polled condition, and
// ff:value one of the test's values. ff:test gives the test when event
// cannot hold it (a test name with spaces: event="hit_by_player"
// ff:test="hit by player"). An entry action's property must be one of the
// stencil's action properties, and its value in the property's drop-list;
// entry actions are listed in the stencil's order. The transition's label
// is its test, or ff:label. The root element names the stencil and its
// version, ff:stencil="goomba" ff:stencilVersion="1": a file made with
// another stencil is an error (and the chart is left empty), one made with
// another version of it, or naming none, a warning.
//
// # Without a stencil
//
// A plain state machine is read as SCXML writes it: a transition's event
// is its Event (an event attribute naming several events, "a b", gives
// one transition per event, with a note), its cond its Guard, its test the
// event, or the condition when it has no event; its label is "event
// [cond]" unless ff:label says otherwise (its action is then the label's,
// "event [guard] / action"). ff:event gives an event that the event
// attribute cannot hold (one with spaces), or that SCXML would match more
// widely than the chart does (below). The chart is named by the name
// attribute of <scxml>, or else after the file.
//
// SCXML matches an event against a transition's descriptors by prefix,
// token by token: event="DIGIT" is also taken on DIGIT.0, "Btn.*" on every
// Btn event, "*" on every event. A chart takes a transition on the one
// event it names. So a wildcard descriptor, and a descriptor that is a
// prefix of another event of the chart (DIGIT beside DIGIT.0, as in Qt's
// calculator), are errors wrapping [ErrUnsupported], warnings when read
// leniently; a transition that gives its event with ff:event is taken
// exactly, and Write marks such events so.
//
// # What a chart cannot express
//
// SCXML is a programming language; a chart is a drawing of tests and
// entry actions. What the chart cannot express is reported with the
// element's line and column and wraps [ErrUnsupported], never dropped in
// silence:
//
//   - <parallel> and <history> are errors. A parallel state is read as a
//     compound entering its first child, transitions into a history are
//     left out, so that the rest of the file can still be read.
//   - Executable content other than fsmforge's entry actions (<send>,
//     <raise>, <assign>, <script>, <log>, <if>, <foreach>, <cancel>, and
//     elements of other namespaces in <onentry>, <onexit> and
//     <transition>), data models (<datamodel>, <script> at the top level,
//     <donedata>) and <invoke> are errors, and warnings with
//     Options.Lenient: the content is left out, and the states and
//     transitions of a file written for an SCXML interpreter can be read,
//     drawn and checked.
//   - A transition with several targets, an initial attribute naming
//     several states (parallel regions), a target that is not the id of
//     a state, two states with one id, unknown SCXML elements, elements
//     where SCXML does not allow them, and fsmforge attributes or elements
//     the package does not know are errors. SCXML attributes it does not
//     know are warnings, and so is a datamodel attribute other than
//     "null": conditions are read as the names of tests, not evaluated.
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
//
// On <state> and <final>:
//
//   - ff:id: the chart's ID of the state, when it is not the id.
//   - ff:name: the state's name, when it is not the id ("" for a
//     nameless one).
//   - ff:kind (on <state>): "start", "choice" or "end" for the pseudo-
//     states of plain charts (an end pseudo-state with transitions leaving
//     it cannot be a <final>), or "anyState" for the element that holds
//     the any-state transitions (below).
//   - ff:initial="true": a further initial state (a chart that has more
//     than one, which compile reports).
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
// In <onentry>: <ff:action property="..." value="..."/>, an entry action.
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
// geometry="x;y;0;0;w;h" (the position at the box's top-left corner) and
// the same scenegeometry, and puts the any-state element and the final
// state to the right of the drawing; elements without geometry are laid
// out by Qt Creator. Other editors' layouts (ScxmlEditor's, in a comment)
// are ignored.
//
// # Writing
//
// [Write] writes a flat chart: its states in chart order, each with its
// editor info, entry actions and transitions (sorted by Order), then the
// any-state element and the final state when there are any. SCXML ids are
// the states' names made XML names (characters that cannot be in one
// become '_', a leading digit gets a '_' before it, and a repeated id gets
// "_2", "_3"...); a nameless state takes its kind's name or its ID. With a
// stencil, a transition's test is written as its event; without one, its
// Event as event and its Guard as cond. Every datum of the chart is
// written, so that Read gives back the chart: states (IDs, names, kinds,
// initial, entry actions, boxes) and transitions (IDs, from, any-state,
// order, test, value, label, event, guard, action, target, push and
// return), but for positions, and for the order of Chart.Transitions,
// which comes back grouped by state.
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
// elements than Options.MaxElements (250,000 by default); nested states
// whose flattening would make more than Options.MaxTransitions
// transitions ([chart.ErrLimit]). Options is [chart.ReadOptions], with
// SCXML's own defaults for MaxSize and MaxElements. It reads
// UTF-8 with or without a byte-order mark, UTF-16 with one, and ISO 8859-1
// when the XML declaration says so; columns count bytes of the UTF-8 text.
// A root <scxml> without SCXML's namespace is read, with a warning.
//
// # Costs
//
// The whole file is read into memory and parsed with encoding/xml; the
// reader keeps a tree of the SCXML elements it looks into (the contents of
// executable content and data models are skipped) and builds the chart
// from it. Reading a generated chart of 10,000 states and 40,000
// transitions (6.2 MB, with entry actions and layout) took 0.55 s and
// allocated 17 bytes per byte of file, 2.6 times the time encoding/xml
// takes only to tokenize the file (BenchmarkRead, on two cores shared
// with other work, load average 11); writing it took 0.08 s
// (BenchmarkWrite). A file of many tiny elements costs more: at most about
// 1 KB per element kept, so 250 MB at the default Options.MaxElements.
// Read and Write hold no global state: calls may run concurrently.
package scxml
