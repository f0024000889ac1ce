package formats_test

import (
	"fmt"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats" // every drawing format
)

// A game reads a designer's drawing at run time with one call, whatever
// editor drew it: the format is told from the file's content.
func Example() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, path := range []string{
		"../../examples/goomba/goomba.vdx",
		"../../examples/goomba/goomba.drawio",
		"../../examples/goomba/goomba.scxml",
	} {
		c, err := chart.ReadFile(path, chart.ReadOptions{Stencil: st})
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %d states, %d transitions\n", c.File, len(c.States), len(c.Transitions))
	}
	// Output:
	// ../../examples/goomba/goomba.vdx: 3 states, 5 transitions
	// ../../examples/goomba/goomba.drawio: 3 states, 5 transitions
	// ../../examples/goomba/goomba.scxml: 3 states, 5 transitions
}
