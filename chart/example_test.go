package chart_test

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
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
	for _, d := range err.(diag.List) {
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
