package compile_test

import (
	"fmt"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

// The designer-pipeline article's Goomba, drawn in Visio with the Goomba stencil, compiled into
// its state table: each state's ordered tests and entry actions, and the
// destination table indexed by test and state (-1 is the final state, -4
// no transition).
func ExampleCompile() {
	st, err := chart.LoadStencil("../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := visio.ReadFile("../examples/goomba/goomba.vdx", visio.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := compile.Compile(c, compile.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	t := res.Table
	for q := range table.StateID(t.NumStates()) {
		fmt.Printf("state %d %s: tests", q, t.StateName(q))
		for tr := range t.Transitions(q) {
			fmt.Printf(" %d", tr.Test)
		}
		fmt.Print("; enter")
		for a := range t.Actions(q) {
			fmt.Printf(" %s=%s", t.Property(a.Property), t.Value(a.Property, a.Value))
		}
		fmt.Println()
	}
	for id := range table.TestID(t.NumTests()) {
		fmt.Printf("%-16s", t.Test(id))
		for q := range table.StateID(t.NumStates()) {
			fmt.Printf(" %3d", int16(t.Dest(id, q)))
		}
		fmt.Println()
	}
	fmt.Println(len(res.Diagnostics), "diagnostics")
	// Output:
	// state 0 walkLeft: tests 0 3; enter XMovement=left Animation=moveLeft
	// state 1 walkRight: tests 2 3; enter XMovement=right Animation=moveRight
	// state 2 death: tests 1; enter XMovement=death Animation=death
	// hitTriggerLeft     1  -4  -4
	// animationDone     -4  -4  -1
	// hitTriggerRight   -4   0  -4
	// hitByPlayer        2   2  -4
	// 0 diagnostics
}

// Checking a chart built by code: a state nothing leads to, and a
// transition on a test the stencil does not have.
func ExampleCheck() {
	st, err := chart.LoadStencil("../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c := &chart.Chart{
		Name:    "guard",
		Stencil: st,
		States: []chart.State{
			{ID: "1", Name: "idle", Initial: true, Pos: diag.Pos{File: "guard.vdx", Shape: "1"}},
			{ID: "2", Name: "alert", Pos: diag.Pos{File: "guard.vdx", Shape: "2"}},
		},
		Transitions: []chart.Transition{
			{ID: "3", From: "1", Test: "seePlayer", Target: chart.Target{Kind: chart.ToState, State: "2"}, Pos: diag.Pos{File: "guard.vdx", Shape: "3"}},
			{ID: "4", From: "2", Test: "animationDone", Target: chart.Target{Kind: chart.ToState, State: "1"}, Pos: diag.Pos{File: "guard.vdx", Shape: "4"}},
		},
	}
	for _, d := range compile.Check(c, compile.Options{}) {
		fmt.Println(d)
		fmt.Println("\thint:", d.Hint)
	}
	// Output:
	// guard.vdx: shape 3: compile: test "seePlayer" is not in stencil "goomba"
	// 	hint: pick one of hitTriggerLeft, animationDone, hitTriggerRight, hitByPlayer in the transition's Test property
	// guard.vdx: shape 1: warning: compile: state "idle" has no way out: no transition leaves it, so the machine stays there for ever
	// 	hint: add a transition out of it (one to the final state ends the machine), unless the machine is meant to stay there
	// guard.vdx: shape 2: warning: compile: state "alert" is unreachable: no path leads to it from the initial state "idle"
	// 	hint: draw a transition into it, or delete it
}

// Minimising a chart where two states behave the same: the second is
// merged into the first.
func ExampleCompile_minimize() {
	c := &chart.Chart{
		Name: "blink",
		States: []chart.State{
			{ID: "1", Name: "on", Initial: true, Entry: []chart.Action{{Property: "Light", Value: "on"}}},
			{ID: "2", Name: "off", Entry: []chart.Action{{Property: "Light", Value: "off"}}},
			{ID: "3", Name: "on again", Entry: []chart.Action{{Property: "Light", Value: "on"}}},
		},
		Transitions: []chart.Transition{
			{ID: "4", From: "1", Test: "tick", Target: chart.Target{Kind: chart.ToState, State: "2"}},
			{ID: "5", From: "2", Test: "tick", Target: chart.Target{Kind: chart.ToState, State: "3"}},
			{ID: "6", From: "3", Test: "tick", Target: chart.Target{Kind: chart.ToState, State: "2"}},
		},
	}
	res, err := compile.Compile(c, compile.Options{Minimize: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range res.Merged {
		fmt.Printf("%s <- %q\n", m.Kept, m.Merged)
	}
	fmt.Println(res.Table.NumStates(), "states; on again is now", res.Table.StateName(res.States["3"]))
	// Output:
	// on <- ["on again"]
	// 2 states; on again is now on
}

// The compiled table's description names where each state was drawn, for
// tools that point the designer at a shape.
func ExampleResult_Describe() {
	st, err := chart.LoadStencil("../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := visio.ReadFile("../examples/goomba/goomba.vdx", visio.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := compile.Compile(c, compile.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Describe().States {
		fmt.Printf("%s: %s\n", s.Name, s.Source)
	}
	// Output:
	// walkLeft: ../examples/goomba/goomba.vdx:179:7: page "Page-1", shape 1 "walkLeft"
	// walkRight: ../examples/goomba/goomba.vdx:187:7: page "Page-1", shape 2 "walkRight"
	// death: ../examples/goomba/goomba.vdx:195:7: page "Page-1", shape 3 "death"
}
