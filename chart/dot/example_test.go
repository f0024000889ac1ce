package dot_test

import (
	"fmt"
	"os"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/dot"
)

// A door drawn as a plain state diagram: three states, a transition to the
// final state, and the rank of each transition where a state has several.
func ExampleWrite() {
	c := &chart.Chart{
		Name: "door",
		States: []chart.State{
			{ID: "1", Name: "Closed", Initial: true},
			{ID: "2", Name: "Open"},
			{ID: "3", Name: "Locked"},
		},
		Transitions: []chart.Transition{
			{ID: "4", From: "1", Order: 1, Label: "push [unlocked] / swing()", Test: "push", Target: chart.Target{State: "2"}},
			{ID: "5", From: "1", Order: 2, Label: "lock", Test: "lock", Target: chart.Target{State: "3"}},
			{ID: "6", From: "2", Order: 1, Label: "after(5s)", Test: "after(5s)", Target: chart.Target{State: "1"}},
			{ID: "7", From: "3", Order: 1, Label: "kick", Test: "kick", Target: chart.Target{Kind: chart.ToFinal}},
		},
	}
	if err := dot.Write(os.Stdout, c, dot.Options{LeftToRight: true}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// digraph "door" {
	// 	label="door";
	// 	labelloc=t;
	// 	rankdir=LR;
	// 	node [shape=box, style=rounded];
	//
	// 	"__start" [label="", shape=point, width=0.15];
	// 	"1" [label="Closed"];
	// 	"2" [label="Open"];
	// 	"3" [label="Locked"];
	// 	"__final" [label="", shape=doublecircle, style=filled, fillcolor=black, width=0.2, fixedsize=true, tooltip="final"];
	//
	// 	"__start" -> "1";
	// 	"1" -> "2" [label="1. push [unlocked] / swing()"];
	// 	"1" -> "3" [label="2. lock"];
	// 	"2" -> "1" [label="after(5s)"];
	// 	"3" -> "__final" [label="kick"];
	// }
}
