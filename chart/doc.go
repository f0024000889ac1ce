// Package chart is the designer's chart: the states and transitions of a
// finite state machine as a designer drew them, the stencil they were drawn
// with, where each element came from, and what was wrong with the drawing.
//
// Importers (package chart/visio, and the packages beside it for other
// editors) read a drawing into a [Chart]; package compile checks a Chart and
// lowers it into a state table; the code generator and the command-line
// tool consume both. This package holds data, the options every importer
// shares, the registry of their formats, and the few helpers every
// importer needs: [NormalizeSpace] and [ParseLabel] for shape texts and
// UML labels, and [Flatten] for those who want a nested chart flat. It
// parses no drawing but its own JSON file form, and checks no chart.
//
// # Reading any drawing
//
// Each importer registers its format ([Format], [RegisterFormat]) when it
// is imported, as image/png does for image.Decode; package chart/formats
// imports them all. [ReadFile] and [Read] then read a drawing of any
// registered format, told from the file's first bytes (the extension is
// only a hint), and refuse a file no format reads with an error listing
// those the program reads:
//
//	import _ "github.com/fsmforge/fsmforge/chart/formats"
//	...
//	c, err := chart.ReadFile("goomba.drawio", chart.ReadOptions{Stencil: st})
//
// [ReadOptions] are the options of every importer (each importer's Options
// is this type): the stencil, whether to read leniently (what a chart
// cannot hold yet left out with a warning rather than refused with an
// error), the custom property naming a shape's master, and the limits
// that keep a game or a build server alive whatever file it is given
// (MaxSize, MaxDepth, MaxElements, MaxTransitions, and a zip archive's),
// each counted where the bytes or elements are produced, each error
// naming the limit and how to raise it ([LimitHint]).
//
// # The model
//
// A [Chart] lists [State] values and [Transition] values in document order.
// A state has a stable ID (its shape's ID, unique within the chart, while
// names may repeat), a Name, a [StateKind] (a normal state; a parallel
// state; or a start, end, choice, history or deep-history pseudo-state),
// whether the machine (or its parent) starts in it, the state it is
// nested in (Parent), and its entry and exit actions: [Action] values,
// most of them a property and the value the designer picked from its
// drop-list (XMovement = left), some a statechart's own (raise an event,
// send one after a delay of game time, cancel it), each possibly guarded.
//
// A transition leaves the state From, or any state (AnyState, drawn from a
// "message handler" shape), ranks Order among the transitions leaving that
// state, tests Test with an optional Value, and goes to its [Target]: a
// state, the final state (ToFinal: a transition whose end is glued to no
// state, which importers warn about unless the drawing says it is meant:
// the stencil's Final property), or the state on top of the stack
// (ToReturn), which a transition with Push set saved, or nowhere (ToNone:
// it only performs its actions); Also lists further targets in other
// regions of a parallel state, Internal marks an internal transition, and
// Actions are performed while it is taken. Transitions of plain UML
// diagrams keep their label and its parts: "event [guard] / action"; an
// Event holds SCXML's event descriptors, a Guard a condition, an Action
// the text of game actions that [ParseActions] reads.
// Transitions leaving one state are tried by Order: importers rank those
// the designer numbered first, then the others in document order, then an
// else, as StateSmith does, and warn when a state mixes them.
//
// A chart also says how its machine runs when the drawing does (a
// property of the drawing as a whole, which each importer's documentation
// names): Chain and ChainLimit, which package compile honours as it
// honours its own options; Statechart, set for SCXML documents, which
// run with SCXML's semantics even when flat; and Fallback, the state
// where package reload sends the agents of a state that a new version of
// the drawing no longer has (package compile warns when it names no
// state).
//
// # Nested states and layout
//
// Real drawings nest states (UML composite states, draw.io containers,
// nested SCXML states, yEd group nodes). Importers record the nesting in
// State.Parent, with each state after the state it is nested in, and
// package compile runs a nested chart as a statechart. [Flatten] still
// turns a nested chart into a flat one for those who want it: the
// leaves, each with its own transitions followed by those of the
// compounds around it, transitions into a compound entering its initial
// leaf; since that multiplies transitions, it counts them first, against
// a limit.
//
// State.Box keeps where the designer drew a state, in draw.io's pixels, so
// that exporters keep the layout; it is nil for sources without geometry.
//
// # Positions and diagnostics
//
// Every element carries a [diag.Pos]: file, page, shape ID and name, line and
// column in the XML. It renders as
//
//	goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft"
//
// Problems are [diag.Diagnostic] values with a position, a [diag.Severity] (Error,
// Warning, Note), a lower-case message prefixed by the package that found
// it ("visio: ...") and a hint for people. A [diag.List] list is an error
// that prints its first error and "(and N more)"; [diag.List.Err] keeps
// the errors and leaves the warnings out. An importer returns a Chart even
// when it found errors, with every diagnostic in Chart.Diagnostics, so that
// a tool can show them all.
//
// # Stencils
//
// A [Stencil] is the programmers' vocabulary: which Visio masters draw
// states, initial states, transitions and message handlers; which tests a
// transition may use (and which of them are messages received rather than
// conditions polled each update); which entry-action properties a state
// carries, with the values of their drop-lists. It is kept in a JSON file
// next to the Visio stencil and loaded with [LoadStencil]; the file for the
// Goomba of "Visual Finite State Machine AI Systems" (Gamasutra, 2004),
// examples/goomba/goomba.stencil.json, reads:
//
//	{
//	  "name": "goomba",
//	  "version": "1",
//	  "masters": {
//	    "state": "State",
//	    "initial": "Initial State",
//	    "transition": "Transition",
//	    "anyState": "Message Handler"
//	  },
//	  "tests": [
//	    {"name": "hitTriggerLeft"},
//	    {"name": "animationDone"},
//	    {"name": "hitTriggerRight"},
//	    {"name": "hitByPlayer", "message": true}
//	  ],
//	  "actions": [
//	    {"name": "XMovement", "values": ["existing", "right", "left", "death"]},
//	    {"name": "Animation", "values": ["existing", "moveRight", "moveLeft", "death"]}
//	  ]
//	}
//
// The keys:
//
//   - name (required): the stencil's name; version: free text, quoted in
//     messages about drawings made with another version.
//   - masters: the universal names (NameU) of the Visio masters. state and
//     transition are required; initial and anyState (a message handler,
//     whose transitions apply in every state) are optional, and so are
//     the masters of statecharts: composite (a container that is a
//     compound state), parallel (a container whose states are regions,
//     active together), history and deepHistory (UML's H and H*
//     pseudo-states, inside a compound state), start (UML's initial
//     pseudo-state, whose one transition says where its compound state,
//     or the machine, starts). A state's shape that holds states is a
//     compound state too, with or without a composite master.
//   - properties (optional): the names of the Shape Data rows that carry a
//     state's name ("name", default "Name"), a transition's test ("test",
//     default "Test"), its value ("value", default "Value"), its rank among
//     the transitions leaving its state ("order", default "Order"), its
//     stack operation ("stack", default "Stack", one of none, push,
//     return) and whether its loose end is meant to end the machine
//     ("final", default "Final": true keeps importers from warning that
//     the arrow's end came loose; a master need not have it). Rows are
//     matched by universal name, then local name, then label.
//   - tests (at least one): name; message: true for a message; values: the
//     values the transition's value row may take (any, when absent).
//   - actions: the entry-action properties of the state masters, in the
//     order actions are listed: name, and values, the drop-list.
//
// Names and values must be usable as entries of a Visio drop-list: not
// empty, without ';', control characters or surrounding spaces. Names are
// unique in their list, and no two roles share a master or a property.
// [ReadStencil] reports every problem with its line and column in the JSON
// file, unknown and repeated keys included. [Stencil.Role] and
// [Stencil.Matches] tell the importer which part a drawing's masters play.
//
// # JSON
//
// A Chart, its parts and a Stencil marshal to JSON with encoding/json; the
// kinds and severities marshal as words ("normal", "final", "warning").
// The chart's own file format is that JSON, indented: [WriteJSON] writes
// it, streaming, and [ReadJSON] (or [LoadJSON]) reads it back, checking
// its form with the line and column of each problem. A chart file keeps
// its nesting (a state's "parent"), as the importers' charts do.
// Chart and stencil files nest a few levels deep (a chart 6, a stencil
// 4): deeper than 64 levels, a file is refused. ReadJSON also refuses
// files over the limits of [ReadOptions] at their defaults (256 MiB;
// 1,048,576 states, transitions, entry actions or diagnostics), with an
// error wrapping [ErrLimit].
package chart
