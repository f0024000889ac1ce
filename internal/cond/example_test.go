package cond_test

import (
	"errors"
	"fmt"

	"github.com/fsmforge/fsmforge/internal/cond"
)

func Example() {
	e, err := cond.Parse("seesPlayer && !tired || In('Alert')")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e)
	for _, t := range e {
		fmt.Printf("%-5v %q\n", t.Op, t.Name)
	}
	fmt.Println("tests:", e.Names(), "states:", e.States(), "depth:", e.Depth())

	// The game answers the tests; here the guard sees the player.
	test := func(name string) bool { return name == "seesPlayer" }
	in := func(state string) bool { return false }
	fmt.Println("taken:", e.Eval(test, in))
	// Output:
	// seesPlayer && !tired || In(Alert)
	// Test  "seesPlayer"
	// Test  "tired"
	// Not   ""
	// And   ""
	// In    "Alert"
	// Or    ""
	// tests: [seesPlayer tired] states: [Alert] depth: 2
	// taken: true
}

func ExampleParse_error() {
	_, err := cond.Parse("(seesPlayer && !tired")
	var e *cond.Error
	if errors.As(err, &e) {
		fmt.Println(err)
		fmt.Println("hint:", e.Hint)
	}
	// Output:
	// column 1: found "(" that is never closed: expected ")" before the end of the guard
	// hint: add the missing ")", or remove the "(" that opens too much
}

func ExampleExpr_String() {
	for _, guard := range []string{"(a && b) || (c && d)", "a&&(b||c)", "!(!hp < 10)", `In ( "s1" )`} {
		e, _ := cond.Parse(guard)
		fmt.Println(e.String())
	}
	// Output:
	// a && b || c && d
	// a && (b || c)
	// !!hp < 10
	// In(s1)
}
