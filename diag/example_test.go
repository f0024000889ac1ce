package diag_test

import (
	"fmt"
	"os"

	"github.com/fsmforge/fsmforge/diag"
)

// Positions render like a compiler's, with the page and shape a designer
// looks for.
func ExamplePos_String() {
	p := diag.Pos{File: "goomba.vdx", Line: 41, Col: 7, Page: "Page-1", Shape: "12", ShapeName: "walkLeft"}
	fmt.Println(p)
	fmt.Println(diag.Pos{File: "goomba.stencil.json", Line: 3, Col: 5})
	// Output:
	// goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft"
	// goomba.stencil.json:3:5
}

// A list of diagnostics is an error made of its errors; warnings travel
// with it but do not fail a build.
func ExampleList() {
	at := diag.Pos{File: "goomba.vdx", Line: 60, Col: 7, Page: "Page-1", Shape: "4"}
	l := diag.List{
		{Pos: at, Severity: diag.Warning, Message: "visio: master \"Process\" is not in stencil \"goomba\": its 1 shapes are ignored"},
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

// Print writes a list as the fsmforge command and hot reload's log show
// it: a diagnostic a line, its hint under it.
func ExampleList_Print() {
	at := diag.Pos{File: "goomba.vdx", Line: 60, Col: 7, Page: "Page-1", Shape: "4"}
	l := diag.List{
		{Pos: at, Message: "visio: test \"jump\" is not in stencil \"goomba\"", Hint: "add it to the stencil, or pick one of its tests"},
		{Pos: at, Severity: diag.Warning, Message: "visio: the transition has no label"},
	}
	l.Print(os.Stdout, "\t")
	// Output:
	// 	goomba.vdx:60:7: page "Page-1", shape 4: visio: test "jump" is not in stencil "goomba"
	// 		hint: add it to the stencil, or pick one of its tests
	// 	goomba.vdx:60:7: page "Page-1", shape 4: warning: visio: the transition has no label
}
