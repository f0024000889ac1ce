// Package fsmforge is a toolkit for game-AI finite state machines in Go.
// This package holds no code: it is the map of the others.
//
// # Packages
//
//   - [github.com/fsmforge/fsmforge/fsm]: machines for one entity at a time.
//     GuardMachine runs a graph of ordered, guarded transitions built once and
//     shared by many entities (and Flow is the same machine with closures, as
//     in the XNA article); BehaviorMachine runs Buckland-style states with
//     Enter, Execute, Exit and OnMessage, a previous and a global state.
//   - [github.com/fsmforge/fsmforge/message]: how entities talk. Board is a
//     double-buffered board queried by destination, sender or type;
//     Dispatcher delivers telegrams now or after a delay in game time.
//   - [github.com/fsmforge/fsmforge/crowd]: one machine, many entities.
//     Machine keeps each state's entities (and their data) in a bucket and
//     steps every bucket through its state function on parallel workers,
//     with a result that does not depend on their number.
//   - [github.com/fsmforge/fsmforge/machine]: what every runtime says about
//     itself in one vocabulary: a Description of its states and transitions,
//     an Event for each transition reported to an Observer, Recorder, a
//     flight recorder of the last transitions of a set of machines, and
//     ChainError, which every runtime that chains returns.
//   - [github.com/fsmforge/fsmforge/save]: one save file for a set of
//     machines, checksummed, with each machine's fingerprint and state
//     names, so that a save restored into a changed drawing maps states by
//     name.
//   - [github.com/fsmforge/fsmforge/chart]: the designer's chart (states,
//     entry actions, ordered tested transitions, positions) and the
//     programmers' stencil, a JSON file form for charts, the options every
//     importer shares (ReadOptions) and ReadFile, which reads a drawing of
//     any registered format, told from its content;
//     [github.com/fsmforge/fsmforge/chart/formats] registers them all.
//   - One package per editor, each reading its drawings into a chart:
//     [github.com/fsmforge/fsmforge/chart/visio] (Visio .vdx and .vsdx;
//     writes .vsx stencils), [github.com/fsmforge/fsmforge/chart/drawio]
//     (reads and writes draw.io; writes shape libraries),
//     [github.com/fsmforge/fsmforge/chart/scxml] (reads and writes SCXML,
//     Qt Creator's editor), [github.com/fsmforge/fsmforge/chart/graphml]
//     (yEd). [github.com/fsmforge/fsmforge/chart/dot] and
//     [github.com/fsmforge/fsmforge/chart/mermaid] draw a chart as text;
//     [github.com/fsmforge/fsmforge/chart/layout] lays out charts without
//     coordinates.
//   - [github.com/fsmforge/fsmforge/viewer]: the running game's machines
//     live in the browser, drawn as the designer drew them: follow an
//     agent, counts as a heat map, a timeline, pause, step, breakpoints,
//     messages sent by clicking; a simulator for designers (fsmforge
//     view); a documented HTTP API.
//   - [github.com/fsmforge/fsmforge/diag]: the problems every step finds
//     (reading a drawing, compiling it, decoding a table, generating code)
//     as one positioned list of diagnostics with hints.
//   - [github.com/fsmforge/fsmforge/compile]: checks a chart, with positioned
//     diagnostics and hints, and lowers it into a table, optionally
//     minimised.
//   - [github.com/fsmforge/fsmforge/table]: compiled state tables (tests,
//     entry actions, a destination table), their binary and JSON forms;
//     Agent, the runtime that runs a table for one entity against the
//     game's Host. [github.com/fsmforge/fsmforge/crowd/tablecrowd] runs a
//     flat table over a crowd.
//   - [github.com/fsmforge/fsmforge/gogen]: Go code generated from a table:
//     typed constants, a typed Host interface, a Machine with the runtime's
//     behaviour.
//   - [github.com/fsmforge/fsmforge/examples/westworld]: Buckland's Miner Bob
//     and Elsa.
//   - [github.com/fsmforge/fsmforge/examples/formation]: the Astralia
//     formation flyers of the XNA article.
//   - [github.com/fsmforge/fsmforge/examples/goomba]: the designer
//     pipeline's Goomba: a drawing (Visio, draw.io, SCXML) run at run time
//     and as generated code.
//   - [github.com/fsmforge/fsmforge/examples/crowd]: the crowd demo's
//     monsters.
//   - examples/minimal/guarded and examples/minimal/behavior: the README's
//     minimal programs.
//   - cmd/fsmforge: the command-line tool: demos (each with -live, the
//     viewer), and check, compile, inspect, run, view, gen, graph, convert
//     and stencil for designers' drawings.
//
// # Design rules
//
// States and messages are identified by stable names and small typed IDs;
// machines are plain data that can be listed, saved and restored; per-frame
// paths take time from the caller, never the wall clock, and allocate
// nothing; randomness takes a seed.
package fsmforge
