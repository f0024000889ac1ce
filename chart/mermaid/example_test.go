package mermaid_test

import (
	"fmt"
	"os"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/mermaid"
)

// A door drawn as a plain state diagram: three states, a transition to the
// final state, and the rank of each transition where a state has several.
// Mermaid's IDs are s0, s1, ...; the ":" of a label is an entity code.
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
			{ID: "6", From: "2", Order: 1, Label: "after: 5s", Test: "after", Target: chart.Target{State: "1"}},
			{ID: "7", From: "3", Order: 1, Label: "kick", Test: "kick", Target: chart.Target{Kind: chart.ToFinal}},
		},
	}
	if err := mermaid.Write(os.Stdout, c, mermaid.Options{LeftToRight: true}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ---
	// title: "door"
	// ---
	// stateDiagram-v2
	//     direction LR
	//     state "Closed" as s0
	//     state "Open" as s1
	//     state "Locked" as s2
	//
	//     [*] --> s0
	//     s0 --> s1 : 1. push #91;unlocked#93; / swing()
	//     s0 --> s2 : 2. lock
	//     s1 --> s0 : after#58; 5s
	//     s2 --> [*] : kick
}
