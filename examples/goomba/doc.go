// Package goomba is the worked example of the designer pipeline of
// "Visual Finite State Machine AI Systems" (Gamasutra, 2004): the Goomba patroller,
// drawn in Visio by a designer, run in a tiny one-dimensional level.
//
// The designer's drawing, goomba.vdx, was made with the shapes of the
// programmers' stencil, goomba.stencil.json: three states (walkLeft, the
// initial state; walkRight; death) whose entry actions set XMovement and
// Animation from their drop-lists, and transitions on the tests
// hitTriggerLeft, hitTriggerRight, animationDone and the message
// hitByPlayer. A goomba walks left until it hits its left trigger, right
// until it hits its right one, dies when the player stomps it, and enters
// the final state (the game removes it) when its death animation is done.
//
// The level runs the drawing two ways, which must agree tick for tick:
//
//   - at run time: [Load] reads the drawing with its stencil, compiles it
//     with package compile, and each goomba gets a table.Agent
//     ([TableBrains]);
//   - as Go code: goomba_fsm.go was generated from the same drawing by
//     "fsmforge gen" (see the go:generate line in gen.go); *Goomba
//     implements its Host interface, and each goomba gets a Machine
//     ([GenBrains]). A test fails when goomba_fsm.go is stale.
//
// "fsmforge demo goomba" shows the level; "fsmforge run goomba.vdx
// -stencil goomba.stencil.json -events goomba.events" runs one goomba
// against scripted events.
package goomba
