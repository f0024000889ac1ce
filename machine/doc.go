// Package machine is what every fsmforge runtime says about itself, in one
// vocabulary, so that one tool can list, draw and watch any of them: a
// guarded machine (package fsm), a table agent (package table), generated
// code (package gogen) or a crowd of a million entities (package crowd).
//
// # Descriptions
//
// A [Description] is a machine's definition as plain data: its states, each
// with a stable name, a small [StateID] (its index), its parent when states
// nest, its kind and, from compile.Result.Describe, where it was drawn;
// its transitions, each with a source, targets and the name of what
// triggers it. Every runtime's definition has a Describe method that
// returns one (fsm.Graph, fsm.Behaviors, table.Table, crowd.Machine,
// tablecrowd.Crowd), and a file written by fsmforge gen -observe has a
// Describe function that returns its table's.
//
// # Errors
//
// A [ChainError] is what every runtime that chains transitions returns
// when one update reaches its chain limit; it matches [ErrChainLimit].
//
// # Events
//
// An [Event] reports one transition: which machine, which entity, from and
// to which state, what caused it (a polled test, a guard, a message, a
// statechart event, a timer or a call such as Goto) and the game's tick.
// A runtime reports its transitions to an [Observer] attached to it. With
// none attached a runtime pays one comparison per transition, never per
// update (a crowd pays one per run of entities it steps).
//
// Observers are called on the goroutine that runs the update, in the middle
// of it: they must not call back into the machine. A crowd reports from its
// workers, one batch of events per worker at a time; an observer attached
// to a crowd must be safe for concurrent use ([Recorder] is).
//
// # The flight recorder
//
// A [Recorder] keeps the last N events of a set of machines in a ring, as
// the Go runtime's trace.FlightRecorder keeps the last seconds of a trace:
// recording costs a copy of 40 bytes and allocates nothing, so a game can
// leave it attached and look back when something goes wrong. The game
// tells it the tick once per frame ([Recorder.SetTick]).
package machine
