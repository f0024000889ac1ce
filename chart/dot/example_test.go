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
	if err := dot.Write(os.Stdout, c, dot.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// digraph "lamp" {
	// 	label="lamp";
	// 	labelloc=t;
	// 	compound=true;
	// 	newrank=true;
	// 	node [shape=box, style=rounded];
	//
	// 	"__start" [label="", shape=point, width=0.15];
	// 	"off" [label="off"];
	// 	subgraph "cluster_state_on" {
	// 		label=<<table border="0" cellborder="0" cellspacing="0"><tr><td>on</td></tr><hr/><tr><td align="left" balign="left">exit / cancel dimmer</td></tr></table>>;
	// 		style=rounded;
	// 		"__anchor_on" [label="", shape=point, style=invis, width=0.01, height=0.01];
	// 		"__start_on" [label="", shape=point, width=0.1];
	// 		"on.h" [label="H", shape=circle, style=solid, width=0.3, xlabel="on.h"];
	// 		"dim" [label="dim"];
	// 		"bright" [label=<<table border="0" cellborder="0" cellspacing="0"><tr><td>bright</td></tr><hr/><tr><td align="left" balign="left">entry / send fade after 30s as dimmer</td></tr></table>>];
	// 	}
	//
	// 	"__start" -> "off";
	// 	"__start_on" -> "dim";
	// 	"off" -> "__anchor_on" [label="1. switch", lhead="cluster_state_on"];
	// 	"off" -> "on.h" [label="2. resume"];
	// 	"on.h" -> "dim";
	// 	"dim" -> "bright" [label="turn"];
	// 	"bright" -> "dim" [label="fade"];
	// 	"__anchor_on" -> "off" [label="1. switch", ltail="cluster_state_on"];
	// 	"__anchor_on" -> "__anchor_on" [label="2. tap [low] / raise blink ↺ stays", style=dotted];
	// }
}
