package scxml_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
)

// The Goomba of the package documentation, built in Go and written as
// SCXML: two walking states drawn in Qt Creator, a stunned state the
// goomba returns from, and a message handler whose transitions apply in
// every state.
func ExampleWrite() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	entry := func(kv ...string) []chart.Action {
		var out []chart.Action
		for i := 0; i < len(kv); i += 2 {
			out = append(out, chart.Action{Property: kv[i], Value: kv[i+1]})
		}
		return out
	}
	to := func(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }
	c := &chart.Chart{
		Name:    "goomba",
		Stencil: st,
		States: []chart.State{
			{ID: "walkLeft", Name: "walkLeft", Initial: true, Entry: entry("XMovement", "left", "Animation", "moveLeft"), Box: &chart.Box{X: 144, Y: 300, W: 144, H: 72}},
			{ID: "walkRight", Name: "walkRight", Entry: entry("XMovement", "right", "Animation", "moveRight"), Box: &chart.Box{X: 528, Y: 300, W: 144, H: 72}},
			{ID: "stunned", Name: "stunned", Entry: entry("XMovement", "existing"), Box: &chart.Box{X: 336, Y: 100, W: 144, H: 72}},
			{ID: "death", Name: "death", Entry: entry("XMovement", "death", "Animation", "death"), Box: &chart.Box{X: 336, Y: 540, W: 144, H: 72}},
		},
		Transitions: []chart.Transition{
			{ID: "walkLeft#1", From: "walkLeft", Order: 1, Test: "hitTriggerLeft", Label: "hitTriggerLeft", Target: to("walkRight")},
			{ID: "walkRight#1", From: "walkRight", Order: 1, Test: "hitTriggerRight", Label: "hitTriggerRight", Target: to("walkLeft")},
			{ID: "stunned#1", From: "stunned", Order: 1, Test: "animationDone", Label: "animationDone", Target: chart.Target{Kind: chart.ToReturn}},
			{ID: "death#1", From: "death", Order: 1, Test: "animationDone", Label: "animationDone", Target: chart.Target{Kind: chart.ToFinal}},
			{ID: "AnyState#1", AnyState: true, Order: 1, Test: "hitByPlayer", Value: "fromAbove", Label: "hitByPlayer", Target: to("death")},
			{ID: "AnyState#2", AnyState: true, Order: 2, Test: "hitByPlayer", Label: "hitByPlayer", Target: to("stunned"), Push: true},
		},
	}
	if err := scxml.Write(os.Stdout, c, scxml.WriteOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" version="1.0" name="goomba" initial="walkLeft" ff:stencil="goomba" ff:stencilVersion="1">
	//     <state id="walkLeft">
	//         <qt:editorinfo geometry="144;300;0;0;144;72" scenegeometry="144;300;144;300;144;72"/>
	//         <onentry>
	//             <ff:action property="XMovement" value="left"/>
	//             <ff:action property="Animation" value="moveLeft"/>
	//         </onentry>
	//         <transition event="hitTriggerLeft" target="walkRight"/>
	//     </state>
	//     <state id="walkRight">
	//         <qt:editorinfo geometry="528;300;0;0;144;72" scenegeometry="528;300;528;300;144;72"/>
	//         <onentry>
	//             <ff:action property="XMovement" value="right"/>
	//             <ff:action property="Animation" value="moveRight"/>
	//         </onentry>
	//         <transition event="hitTriggerRight" target="walkLeft"/>
	//     </state>
	//     <state id="stunned">
	//         <qt:editorinfo geometry="336;100;0;0;144;72" scenegeometry="336;100;336;100;144;72"/>
	//         <onentry>
	//             <ff:action property="XMovement" value="existing"/>
	//         </onentry>
	//         <transition event="animationDone" ff:stack="return"/>
	//     </state>
	//     <state id="death">
	//         <qt:editorinfo geometry="336;540;0;0;144;72" scenegeometry="336;540;336;540;144;72"/>
	//         <onentry>
	//             <ff:action property="XMovement" value="death"/>
	//             <ff:action property="Animation" value="death"/>
	//         </onentry>
	//         <transition event="animationDone" target="Final"/>
	//     </state>
	//     <state id="AnyState" ff:kind="anyState">
	//         <qt:editorinfo geometry="732;100;0;0;120;100" scenegeometry="732;100;732;100;120;100"/>
	//         <transition event="hitByPlayer" target="death" ff:value="fromAbove"/>
	//         <transition event="hitByPlayer" target="stunned" ff:stack="push"/>
	//     </state>
	//     <final id="Final" ff:implicit="true">
	//         <qt:editorinfo geometry="772;260;0;0;40;40" scenegeometry="772;260;772;260;40;40"/>
	//     </final>
	// </scxml>
}

// Qt's traffic light, written for an SCXML interpreter: its compound
// states are kept, each with its initial state, and the events it sends
// itself after a delay are entry actions.
func ExampleReadFile() {
	c, err := scxml.ReadFile("testdata/qt_trafficlight.scxml", scxml.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	depth := map[string]int{}
	for _, s := range c.States {
		if s.Parent != "" {
			depth[s.ID] = depth[s.Parent] + 1
		}
		line := strings.Repeat("  ", depth[s.ID]) + s.Name
		if s.Initial {
			line += " (initial)"
		}
		for _, a := range s.Entry {
			line += fmt.Sprintf(", %s %s after %gs", a.Kind, a.Event, a.Delay)
		}
		for _, t := range c.Transitions {
			if t.From == s.ID {
				line += ", " + t.Event + "→" + t.Target.State
			}
		}
		fmt.Println(line)
	}
	fmt.Println(len(c.Diagnostics), "diagnostics")
	// Output:
	// working (initial), smash→broken
	//   red, send startGoingGreen after 3s, startGoingGreen→redGoingGreen
	//   yellow (initial)
	//     redGoingGreen, send goGreen after 1s, goGreen→green
	//     greenGoingRed (initial), send goRed after 1s, goRed→red
	//   green, send startGoingRed after 3s, startGoingRed→greenGoingRed
	// broken, repair→working
	//   blinking (initial), send unblink after 1s, unblink→unblinking
	//   unblinking, send blink after 1s, blink→blinking
	// 0 diagnostics
}

// A plain state machine with a compound state, as an SCXML editor saves
// it: the chart runs as SCXML says (Statechart), the compound state is
// kept, its initial state marked, and its transition, which SCXML takes
// in each of its states unless they take one of their own, stays its own
// (package compile runs it so).
func ExampleRead() {
	const door = `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="closed">
  <state id="closed" initial="locked">
    <transition event="smash" target="broken"/>
    <state id="locked"><transition event="unlock" cond="hasKey" target="unlocked"/></state>
    <state id="unlocked"><transition event="open" target="opened"/></state>
  </state>
  <state id="opened"><transition event="close" target="closed"/></state>
  <final id="broken"/>
</scxml>`
	c, err := scxml.Read(strings.NewReader(door), scxml.Options{File: "door.scxml"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("statechart:", c.Statechart)
	for _, s := range c.States {
		fmt.Printf("state %s (%s, in %q, initial %v)\n", s.Name, s.Kind, s.Parent, s.Initial)
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s: %s --%s--> %s (order %d)\n", t.ID, t.From, t.Label, t.Target, t.Order)
	}
	fmt.Println(len(c.Diagnostics), "diagnostics")
	// Output:
	// statechart: true
	// state closed (normal, in "", initial true)
	// state locked (normal, in "closed", initial true)
	// state unlocked (normal, in "closed", initial false)
	// state opened (normal, in "", initial false)
	// state broken (end, in "", initial false)
	// closed#1: closed --smash--> broken (order 1)
	// locked#1: locked --unlock [hasKey]--> unlocked (order 1)
	// unlocked#1: unlocked --open--> opened (order 1)
	// opened#1: opened --close--> closed (order 1)
	// 0 diagnostics
}

// A guard as a statechart, built in Go and written as SCXML: a compound
// state whose start pseudo-state is written as <initial>, a parallel
// state of two regions, a deep history, a timer sent on entry and
// cancelled on exit, a final state inside a compound one, and a
// transition to one state in each region.
func ExampleWrite_statechart() {
	to := func(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }
	c := &chart.Chart{
		Name: "guard",
		States: []chart.State{
			{ID: "patrol", Name: "patrol", Initial: true},
			{ID: "alert", Name: "alert",
				Entry: []chart.Action{{Kind: chart.SendAction, Event: "calm", Delay: 10, Timer: "calming"}},
				Exit:  []chart.Action{{Kind: chart.CancelAction, Timer: "calming"}}},
			{ID: "alert#initial", Kind: chart.StartState, Parent: "alert", Initial: true},
			{ID: "h", Name: "h", Kind: chart.DeepHistoryState, Parent: "alert"},
			{ID: "search", Name: "search", Parent: "alert"},
			{ID: "fight", Name: "fight", Kind: chart.ParallelState, Parent: "alert"},
			{ID: "legs", Name: "legs", Parent: "fight"},
			{ID: "chase", Name: "chase", Parent: "legs", Initial: true},
			{ID: "arms", Name: "arms", Parent: "fight"},
			{ID: "aim", Name: "aim", Parent: "arms", Initial: true},
			{ID: "done", Name: "done", Kind: chart.EndState, Parent: "arms"},
		},
		Transitions: []chart.Transition{
			{ID: "patrol#1", From: "patrol", Order: 1, Event: "noise", Label: "noise", Test: "noise", Target: to("alert")},
			{ID: "alert#initial#1", From: "alert#initial", Order: 1, Target: to("search"),
				Actions: []chart.Action{{Kind: chart.RaiseAction, Event: "alerted"}}},
			{ID: "h#1", From: "h", Order: 1, Target: to("search")},
			{ID: "search#1", From: "search", Order: 1, Event: "see", Label: "see", Test: "see", Target: to("chase"), Also: []string{"aim"}},
			{ID: "alert#1", From: "alert", Order: 1, Event: "calm", Label: "calm", Test: "calm", Target: to("patrol")},
			{ID: "alert#2", From: "alert", Order: 2, Event: "hit.*", Label: "hit.*", Test: "hit.*", Target: to("h"), Internal: true},
			{ID: "aim#1", From: "aim", Order: 1, Guard: "In('chase')", Label: "[In('chase')]", Test: "In('chase')", Target: to("done")},
		},
	}
	if err := scxml.Write(os.Stdout, c, scxml.WriteOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" version="1.0" name="guard" initial="patrol">
	//     <state id="patrol">
	//         <transition event="noise" target="alert"/>
	//     </state>
	//     <state id="alert">
	//         <initial>
	//             <transition target="search">
	//                 <raise event="alerted"/>
	//             </transition>
	//         </initial>
	//         <onentry>
	//             <send event="calm" delay="10s" id="calming"/>
	//         </onentry>
	//         <onexit>
	//             <cancel sendid="calming"/>
	//         </onexit>
	//         <transition event="calm" target="patrol"/>
	//         <transition event="hit.*" target="h" type="internal"/>
	//         <history id="h" type="deep">
	//             <transition target="search"/>
	//         </history>
	//         <state id="search">
	//             <transition event="see" target="chase aim"/>
	//         </state>
	//         <parallel id="fight">
	//             <state id="legs" initial="chase">
	//                 <state id="chase"/>
	//             </state>
	//             <state id="arms" initial="aim">
	//                 <state id="aim">
	//                     <transition cond="In(&#39;chase&#39;)" target="done"/>
	//                 </state>
	//                 <final id="done"/>
	//             </state>
	//         </parallel>
	//     </state>
	// </scxml>
}
