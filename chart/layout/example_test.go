package layout_test

import (
	"fmt"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/layout"
)

// A door with no geometry: the initial state on top, the states it leads
// to below, and the transition back up reversed for the layout only.
func ExampleLayered() {
	c := &chart.Chart{
		Name: "door",
		States: []chart.State{
			{ID: "1", Name: "Closed", Initial: true},
			{ID: "2", Name: "Open"},
			{ID: "3", Name: "Locked for the night"},
		},
		Transitions: []chart.Transition{
			{From: "1", Test: "push", Target: chart.Target{State: "2"}},
			{From: "1", Test: "lock", Target: chart.Target{State: "3"}},
			{From: "2", Test: "after", Target: chart.Target{State: "1"}},
			{From: "3", Test: "unlock", Target: chart.Target{State: "1"}},
		},
	}
	layout.Layered(c, layout.Options{})
	for _, s := range c.States {
		fmt.Printf("%-21s x=%v y=%v w=%v h=%v\n", s.Name, s.Box.X, s.Box.Y, s.Box.W, s.Box.H)
	}
	// Output:
	// Closed                x=140 y=40 w=120 h=60
	// Open                  x=40 y=180 w=120 h=60
	// Locked for the night  x=200 y=180 w=200 h=60
}
