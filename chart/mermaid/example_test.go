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

// A lamp drawn as a statechart: the compound state "on" holds its initial
// child "dim", "bright" and a history state that the lamp resumes by; a
// transition without target only raises an event.
func ExampleWrite_statechart() {
	c := &chart.Chart{
		Name: "lamp",
		States: []chart.State{
			{ID: "off", Name: "off", Initial: true},
			{ID: "on", Name: "on", Exit: []chart.Action{{Kind: chart.CancelAction, Timer: "dimmer"}}},
			{ID: "on.h", Name: "on.h", Kind: chart.HistoryState, Parent: "on"},
			{ID: "dim", Name: "dim", Parent: "on", Initial: true},
			{ID: "bright", Name: "bright", Parent: "on",
				Entry: []chart.Action{{Kind: chart.SendAction, Event: "fade", Delay: 30, Timer: "dimmer"}}},
		},
		Transitions: []chart.Transition{
			{ID: "1", From: "off", Order: 1, Label: "switch", Test: "switch", Target: chart.Target{State: "on"}},
			{ID: "2", From: "off", Order: 2, Label: "resume", Test: "resume", Target: chart.Target{State: "on.h"}},
			{ID: "3", From: "on.h", Order: 1, Target: chart.Target{State: "dim"}},
			{ID: "4", From: "dim", Order: 1, Label: "turn", Test: "turn", Target: chart.Target{State: "bright"}},
			{ID: "5", From: "bright", Order: 1, Label: "fade", Test: "fade", Target: chart.Target{State: "dim"}},
			{ID: "6", From: "on", Order: 1, Label: "switch", Test: "switch", Target: chart.Target{State: "off"}},
			{ID: "7", From: "on", Order: 2, Label: "tap [low]", Test: "tap", Target: chart.Target{Kind: chart.ToNone},
				Actions: []chart.Action{{Kind: chart.RaiseAction, Event: "blink"}}},
		},
	}
	if err := mermaid.Write(os.Stdout, c, mermaid.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ---
	// title: "lamp"
	// ---
	// stateDiagram-v2
	//     state "off" as s0
	//     state "on<br>exit / cancel dimmer" as s1 {
	//         state "H" as s2
	//         s2 : on.h
	//         state "dim" as s3
	//         state "bright" as s4
	//         s4 : entry / send fade after 30s as dimmer
	//         [*] --> s3
	//         s2 --> s3
	//         s3 --> s4 : turn
	//         s4 --> s3 : fade
	//     }
	//
	//     [*] --> s0
	//     s0 --> s1 : 1. switch
	//     s0 --> s2 : 2. resume
	//     s1 --> s0 : 1. switch
	//     s1 --> s1 : 2. tap #91;low#93; / raise blink ↺ stays
}
