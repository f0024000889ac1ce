package chart_test

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
)

// The Goomba's stencil: the masters designers draw with, the tests the game
// implements and the entry actions' drop-lists.
func ExampleLoadStencil() {
	st, err := chart.LoadStencil("../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("stencil %s, version %s\n", st.Name, st.Version)
	fmt.Printf("master %q draws %s\n", "State.7", st.Role("State.7"))
	for _, t := range st.Tests {
		kind := "polled"
		if t.Message {
			kind = "message"
		}
		fmt.Printf("test %s (%s)\n", t.Name, kind)
	}
	for _, a := range st.Actions {
		fmt.Printf("action %s: %s\n", a.Name, strings.Join(a.Values, ", "))
	}
	// Output:
	// stencil goomba, version 1
	// master "State.7" draws state
	// test hitTriggerLeft (polled)
	// test animationDone (polled)
	// test hitTriggerRight (polled)
	// test hitByPlayer (message)
	// action XMovement: existing, right, left, death
	// action Animation: existing, moveRight, moveLeft, death
}

// A stencil with mistakes: each is reported where it is, with a hint.
func ExampleReadStencil() {
	const file = `{
  "name": "patroller",
  "masters": {"state": "State", "transition": "Transition"},
  "tests": [
    {"name": "hitWall"},
    {"name": "seePlayer", "mesage": true},
    {"name": "hitWall"}
  ]
}`
	_, err := chart.ReadStencil(strings.NewReader(file), "patroller.json")
	for _, d := range err.(chart.Diagnostics) {
		fmt.Println(d)
		if d.Hint != "" {
			fmt.Println("\thint:", d.Hint)
		}
	}
	// Output:
	// patroller.json:6:27: chart: stencil: unknown key "tests[1].mesage"
	// 	hint: the keys here are name, message, values
	// patroller.json:7:6: chart: stencil: test "hitWall" is listed twice
}

// Positions render like a compiler's, with the page and shape a designer
// looks for.
func ExamplePos_String() {
	p := chart.Pos{File: "goomba.vdx", Line: 41, Col: 7, Page: "Page-1", Shape: "12", ShapeName: "walkLeft"}
	fmt.Println(p)
	fmt.Println(chart.Pos{File: "goomba.stencil.json", Line: 3, Col: 5})
	// Output:
	// goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft"
	// goomba.stencil.json:3:5
}

// A list of diagnostics is an error made of its errors; warnings travel
// with it but do not fail a build.
func ExampleDiagnostics() {
	at := chart.Pos{File: "goomba.vdx", Line: 60, Col: 7, Page: "Page-1", Shape: "4"}
	l := chart.Diagnostics{
		{Pos: at, Severity: chart.Warning, Message: "visio: master \"Process\" is not in stencil \"goomba\": its 1 shapes are ignored"},
		{Pos: at, Message: "visio: test \"jump\" is not in stencil \"goomba\""},
		{Pos: at, Message: "visio: the start of the transition is glued to no state"},
	}
	fmt.Println(len(l.Errors()), "errors,", len(l.Warnings()), "warning")
	if err := l.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 2 errors, 1 warning
	// goomba.vdx:60:7: page "Page-1", shape 4: visio: test "jump" is not in stencil "goomba" (and 1 more)
}
