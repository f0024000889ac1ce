// Package scref is a reference statechart interpreter, written to be
// read rather than to be fast, and the differential test that holds the
// optimized runtime (package table, fed by package compile) to it.
//
// The runtime keeps its states in document order so that descendants
// are ranges, its sets as bits, and precomputes transition domains; the
// W3C conformance tests (package internal/w3c) exercise only some of its
// paths. This package runs the same charts the slow, obvious way and
// compares the two on thousands of random charts.
//
// # The interpreter
//
// [New] takes a *chart.Chart, not a table: it works on the designer's
// states and transitions, with the functions of the W3C SCXML
// recommendation's Appendix D under their names there
// (selectEventlessTransitions, selectTransitions,
// removeConflictingTransitions, microstep, exitStates, enterStates,
// computeExitSet, computeEntrySet, addDescendantStatesToEnter,
// addAncestorStatesToEnter, getTransitionDomain, findLCCA,
// isInFinalState, getEffectiveTargetStates), ordered sets as slices and
// the history as a map. It reads a chart as package compile documents
// ("# Statecharts"):
//
//   - Document order: the chart's top-level states in chart order, each
//     state followed by its children in chart order. A NormalState with
//     children is compound: its initial child is the child marked
//     Initial, else the target(s) of its StartState child's one
//     transition (whose actions run on entering by default), else its
//     first child. A ParallelState's children are its regions. An
//     EndState is final: inside a compound it raises
//     "done.state.NAME" (NAME is the parent's Name, or its ID when it
//     has none, as a table names states when names are unique), and
//     "done.state.GRANDPARENT" too when that is a parallel state whose
//     regions are all final; at the top it ends the machine, which then
//     exits every active state, running their exit actions. History
//     states keep their one transition as their default.
//   - Transitions are tried in Order, then in chart order. Event holds
//     descriptors ("a" matches a and a.b; "a.*" too; "*" every event); a
//     transition without one is eventless. Guard is a condition of
//     package internal/cond: test names answered by the [Host], true,
//     false and In(stateID). Also adds targets; Internal makes a
//     transition whose targets are all inside its compound source keep
//     the source; Target.Kind [chart.ToNone] makes it targetless.
//     AnyState transitions belong to the root, tried last.
//   - Actions: game actions go to [Host.Do]; RaiseAction puts an event
//     on the internal queue; SendAction puts one on the external queue
//     at once (Delay 0) or makes a timer due Delay seconds of game time
//     later; CancelAction takes back the pending sends of its Timer. An
//     action's Guard is a condition as a transition's.
//
// Where it departs from the recommendation, it does as package compile
// and the table do, so that the two can be compared: a done event is
// raised only when some transition of the chart has a descriptor that
// matches it (compile makes no event nobody listens for; raising it
// would change nothing but the length of a queue); a top-level start
// state's actions run before the first entry; any-state transitions
// have the root as their source and domain.
//
// The game loop is the table's (table/run.go): [Interpreter.Update]
// moves the due timers to the external queue, earliest first, then takes
// a microstep (the eventless transitions enabled, or else those of the
// first internal event that enables some, or else of the first external
// one; events that enable nothing are dropped); with Chain it repeats
// until nothing is enabled and both queues are empty, at most ChainLimit
// microsteps ([ErrChainLimit]). Queues and timers are unbounded unless
// [Options] QueueLimit and TimerLimit bound them as a table's options
// do ([ErrQueueFull]).
//
// Not supported, and refused by New: stencils, choice pseudo-states,
// transitions to the final state or that return or push, state timers
// ("after 2s"), and charts that are not statecharts
// (Chart.Statechart false), whose unlabelled arrows are completion
// transitions.
//
// # The differential test
//
// [Generate] makes a random valid chart from a seed: nesting up to four
// deep, compounds, parallels, finals, history, events, done events,
// guards, several targets, internal, targetless and any-state
// transitions, actions of every kind. TestDifferential compiles 2,000 of
// them (go test -charts N for more), runs a table agent and the
// reference through the same script of 20 frames (time, events posted,
// test answers) and compares, after the start and every update, the
// active states, Done, the game actions performed, the pending timers,
// the microsteps taken and the errors; the first difference fails it
// with the seed, the script and the chart. TestW3C runs the 29 converted
// W3C tests (internal/w3c) through the reference. TestIgnoredInParallel
// records what compile ignores without a diagnostic.
package scref
