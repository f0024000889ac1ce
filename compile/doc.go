// Package compile checks a designer's [chart.Chart] and lowers it into a
// [table.Table], the state table of "Visual Finite State Machine AI
// Systems" (Gamasutra, 2004): the tests deduplicated, each state's ordered
// transition tests and entry actions, and a destination table indexed by
// test and state, with -1 ([table.Final]) for the final state.
//
//	st, err := chart.LoadStencil("goomba.stencil.json")
//	c, err := visio.ReadFile("goomba.vdx", visio.Options{Stencil: st})
//	res, err := compile.Compile(c, compile.Options{Stencil: st})
//	// res.Table runs on table.NewAgent; res.Diagnostics says what was wrong.
//
// [Check] only checks; [Compile] checks and builds. Both return the
// chart's own diagnostics (those of its importer) followed by the
// compiler's, each a [diag.Diagnostic] with the element's position, a
// message starting "compile: ", a hint for people, and one of the
// package's sentinel errors for [errors.Is]. Errors stop a compile
// (the chart's own errors too); warnings and notes do not.
//
// A check lists at most 10 diagnostics of one kind (one sentinel error
// and one severity): one more, of the same kind, at the chart's file,
// follows the first 10 and counts the others ("and 99,989 more states
// sharing an ID with another"), so that a chart of 100,000 states that
// share an ID gives 11 diagnostics, not 99,999. A message quotes at most
// 64 bytes of a name of the drawing or the stencil, as the importers'
// messages do, and a message or a hint lists at most 20 names (the
// initial states, the stencil's tests, a drop-list), so that a name of a
// megabyte cannot make messages of a megabyte. The chart's own
// diagnostics are passed on as they are.
//
// # Checks
//
// A chart read with a stencil is a build asset and is checked strictly; a
// plain diagram (read without one) is lowered leniently, and what an error
// is in the first is a warning in the second. Errors:
//
//   - the wrong stencil ([ErrWrongStencil]): Options.Stencil names another
//     stencil than the one the chart was read with, or another version of
//     it (the message gives both), or the chart was read without one;
//   - against the stencil, for charts made by any importer or by code: a
//     test not in the stencil ([ErrUnknownTest]), an entry action on a
//     property it does not have ([ErrUnknownAction]) or a value not in a
//     drop-list ([ErrUnknownValue]), a state setting a property twice, a
//     transition without a test ([ErrNoTest]). An element the importer
//     already reported an error for (same file, page and shape) is not
//     reported again;
//   - no initial state ([ErrNoInitial]), or more than one, listed with
//     their positions, the first 20 ([ErrTwoInitials]);
//   - two states with one name ([ErrDuplicateName]), a state without a
//     name or with one a table cannot hold ([ErrName]: over
//     [table.MaxName] bytes, or not UTF-8);
//   - two states with one ID ([ErrDuplicateID]), a transition from or to a
//     state the chart does not have ([ErrMissingState]);
//   - a transition that cannot be lowered ([ErrTransition]): one that
//     pushes but goes to the final state or returns;
//   - two transitions leaving a state on the same test ([ErrSameTest]):
//     the second could never be taken;
//   - a chart a table cannot hold ([ErrLimit]): more than
//     [table.MaxStates] states, [table.MaxTests] tests, [table.MaxCells]
//     cells of tests × states, or [table.MaxMessages] (64) message tests;
//   - Options out of range ([ErrOptions]).
//
// Warnings: a state no path from the initial state reaches
// ([ErrUnreachable]); a state with no way out ([ErrNoWayOut]): no
// transition leaves it, counting the any-state transitions that apply
// there (a state whose only exits are any-state transitions has a way
// out); a cycle with no exit is not reported, since a patroller loops for
// ever by design. A state's transition on a test that an any-state
// transition already takes, which is never taken ([ErrShadowed]); a return
// when no transition pushes ([ErrNoPush]); what a table cannot represent
// and the compiler left out ([ErrIgnored]); a chart whose Fallback (where
// package reload sends the agents of a state that a new version of the
// drawing no longer has) is not the name of one of its states as the
// table names them ([ErrMissingState], at the place the drawing names it,
// or else at the chart's file).
//
// # Lowering
//
// The table's states are the chart's states in chart order (document
// order for an importer), pseudo-states aside (see below): StateID i is the
// i-th. Each state's entry actions keep their order. Its transitions are
// tried in the order of Transition.Order, then document order; so are the
// any-state transitions (drawn from the stencil's message-handler shape),
// which the table tries in every state before the state's own, except in
// their own destination. A transition whose end is glued to no state goes
// to [table.Final]; a returning one to [table.Return]; Push is kept.
//
// The table's properties are the stencil's action properties in its order,
// each with its whole drop-list, so that PropertyIDs and ValueIDs are the
// drop-lists' positions. Its tests are the stencil's tests, all of them,
// in the stencil's order (so that TestIDs are the same for every drawing
// made with one stencil and one host serves them all), each followed by
// the values the chart uses with it: in the order of the test's values in
// the stencil, or of first use when it lists none. First use means the
// order in which the table lists transitions: the any-state ones, then
// each state's in turn. A test is a message when the stencil says so.
// The generated Go constants follow these orders.
//
// Without a stencil, properties and values are numbered in order of first
// use by the states, and tests in order of first use by the transitions.
//
// # Plain diagrams
//
// A UML state diagram read without a stencil is lowered as follows.
//
//   - A start pseudo-state is not a state: the target of its one
//     transition is the initial state, and the transition needs no label
//     (a label is ignored, with a warning). A diagram without a start, or
//     with two, is an error, as is a start leading nowhere.
//   - An end pseudo-state is the final state: a transition into it goes to
//     [table.Final]. Transitions out of it are ignored, with a warning.
//   - A choice pseudo-state is a state of the table (named "choice",
//     "choice#2"... when it has no text), its branches polled tests: the
//     branch is taken at the update after the one that entered the
//     choice, unless the table chains (Options.Chain, or the chart's
//     Chain). A note says so.
//   - A transition's test is its label's event, or its guard when it has
//     no event. An event is received: a message test. A guard alone, a
//     choice's branch and a completion are conditions the host is asked
//     about: polled tests. A name used both ways is polled (with a note),
//     and when a diagram has more than [table.MaxMessages] events the
//     later ones are polled too (with a warning).
//   - A transition without a label, from a state or a choice, is a UML
//     completion transition: it takes the polled test "completion"
//     ([Completion]), which the host answers when the state's work is
//     done. One note counts them.
//   - A label that says more than one test, "event [guard]", or names
//     an action fsmforge can perform, "event [guard] / action", makes the
//     diagram a statechart (below),
//     which keeps all three parts: the transition waits for the event, is
//     taken only when the guard holds, and performs the actions
//     ([chart.ParseActions]: "swing()", "speed = fast", separated by ';').
//   - A transition into a start pseudo-state (ignored) and a second
//     transition on one test from one state (the first is kept) are
//     warnings.
//   - Names are only labels: states with one name are kept apart by ID and
//     renamed, in chart order, "Idle", "Idle#2", "Idle#3" (skipping names
//     taken), with a warning saying so; a nameless state is called
//     "state", a nameless pseudo-state after its kind. Names over
//     [table.MaxName] bytes are cut, with a warning.
//
// # Statecharts
//
// A chart whose states nest (State.Parent), or that has parallel or
// history states, exit actions, actions on transitions or that raise,
// send or cancel events, transitions with several targets, none, or
// internal ones, state timers, a plain diagram's labels with an event and
// a guard or with actions, or that says it is one (Chart.Statechart: an
// SCXML document), is lowered into a statechart table, which runs with
// the W3C SCXML semantics (see package table). Flat charts are lowered as
// above, exactly as before.
//
//   - States: in document order, each state's children right after it;
//     start pseudo-states are not states: the one inside a compound (or at
//     the top) gives its default transition, with its targets and
//     actions. A compound's initial child is the one marked Initial, else
//     its start's targets, else its first child. An end pseudo-state is a
//     final state of its parent (at the top, entering it ends the agent);
//     a transition to "the final state" (an arrow ending on nothing) goes
//     to a top-level final state named "final". History states keep their
//     one transition as their default.
//   - Events: a transition's trigger is its Event, descriptors separated
//     by spaces: "hit" matches the events hit and hit.head, "hit.*" too,
//     "*" every event. They are matched here against the events the chart
//     raises, sends or names, which become the table's message tests;
//     "done.state.ID" is one when a transition listens for it. With a
//     stencil, the transition's test is the trigger when the stencil says
//     it is a message, its condition otherwise.
//   - Conditions: a transition's Guard (and an action's) is parsed:
//     names of polled tests, true, false and In(stateID), combined with !,
//     && and || and parentheses, as package internal/cond documents. In
//     a drawing, as in flat plain diagrams, a choice's branches and the
//     events also tested as conditions are polled tests (with a note).
//   - Actions: a transition's actions are performed between the exits
//     and the entries: in a drawing, first those its label's action names
//     ([chart.ParseActions]; one that does not read, such as code for a
//     code generator, "count++", is left out with a warning), then its
//     Actions.
//   - Completion: in a drawing (not an SCXML document), an arrow without
//     label leaving a compound state with a final state, or a parallel
//     state, is taken when it completes (its done.state event); from any
//     other state it takes the polled test "completion". In an SCXML
//     document it is eventless, taken as soon as it can be.
//   - State timers: an arrow labelled "after 2s" (or "after 500ms",
//     "after(1.5s)") is taken once its source has been active that long
//     in game time: a send of its own event (STATE.after.1) on entering
//     the state, cancelled on leaving it.
//   - Errors, with the position of the element: a parent that is no
//     state, a state inside itself, nesting deeper than [table.MaxDepth],
//     a history state at the top or without exactly one transition, a
//     parallel state without regions, a final or history state with
//     states inside, two initial states in one state, a default
//     transition that leaves the state it is the default of, targets that
//     cannot be active together (not in different regions of one parallel
//     state), In() of a state the chart does not have, a condition that
//     does not parse, a name used both as an event and as a test, more
//     states than a table holds, a return without a push anywhere.
//     Warnings: a state no run enters (the outermost of each such
//     subtree: [ErrUnreachable]), an atomic state that nothing leaves,
//     neither its transitions nor those of a state around it
//     ([ErrNoWayOut]); in a drawing, transitions that leave a final state
//     or enter a start pseudo-state (ignored). A
//     push saves its source with what is active inside it; a return
//     comes back to that (see package table). A statechart cannot be
//     minimised.
//
// # Minimisation
//
// With Options.Minimize, states that behave identically are merged, as
// the article suggests ("it is also easy to optimize an FSM to a minimum
// set of states"): states with the same entry actions and the same
// ordered tests, with the same push flags, whose transitions go to
// equivalent states (Final and Return being their own targets), and which
// are the destinations of the same any-state transitions (which a state
// skips when it is their destination). This is partition refinement
// (Hopcroft's algorithm). The initial state is kept in its class;
// otherwise the first state of a class in chart order is kept. Each merged
// state's transitions are redirected to the kept one. Result.Merged lists
// what was merged; Result.States maps every chart state to its class.
// Unreachable states are not removed (they are reported). An agent runs
// the minimised table exactly as the original: the same entry actions
// performed and the same transitions taken, for the same host answers.
//
// # Determinism
//
// The same chart and options give the same table, byte for byte
// ([table.Table.MarshalBinary]): nothing depends on map order, and
// transitions are ordered by Order, so that a chart listing its
// transitions in another order but with the same orders gives the same
// table. Diagnostics come in a fixed order too: by the phase that found
// them (options, stencil, states, entry actions, initial state,
// transitions, limits, then the graph checks), each phase in chart order.
//
// # Costs
//
// Check and Compile cost time and memory linear in the chart, however
// many of its states or transitions share a name, a test or an ID, plus
// the destination table (tests × states cells, at most [table.MaxCells]);
// minimisation adds O(m log n) for n states and m transitions, by
// Hopcroft's algorithm. Importing and compiling a generated drawing of
// 10,000 states and 40,000 transitions (59 MB) takes about 0.24 s on a
// 2-core machine and allocates 1.7 bytes per byte of file; the compile is
// 16 ms and 0.29 bytes per byte of file of it, the rest is the import
// (BenchmarkImportCompile, medians of 5). Neither changes the chart; both are safe to
// call concurrently.
package compile
