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

// Qt's traffic light, written for an SCXML interpreter: read leniently,
// its delayed events are left out (with warnings) and its nested states
// flattened.
func ExampleReadFile() {
	c, err := scxml.ReadFile("testdata/qt_trafficlight.scxml", scxml.Options{Lenient: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
		initial := ""
		if s.Initial {
			initial = " (initial)"
		}
		var out []string
		for _, t := range c.Transitions {
			if t.From == s.ID {
				out = append(out, t.Test+"→"+t.Target.State)
			}
		}
		fmt.Printf("%s%s: %s\n", s.Name, initial, strings.Join(out, ", "))
	}
	warnings, notes := 0, 0
	for _, d := range c.Diagnostics {
		switch d.Severity {
		case chart.Warning:
			warnings++
		case chart.Note:
			notes++
		}
	}
	fmt.Println(warnings, "warnings,", notes, "notes")
	// Output:
	// red: startGoingGreen→redGoingGreen, smash→blinking
	// redGoingGreen: goGreen→green, smash→blinking
	// greenGoingRed (initial): goRed→red, smash→blinking
	// green: startGoingRed→greenGoingRed, smash→blinking
	// blinking: unblink→unblinking, repair→greenGoingRed
	// unblinking: blink→blinking, repair→greenGoingRed
	// 6 warnings, 3 notes
}

// A plain state machine with a compound state, as an SCXML editor saves
// it: the compound is flattened, and its transition applies in each of its
// states after their own.
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
	for _, s := range c.States {
		fmt.Printf("state %s (%s, initial %v)\n", s.Name, s.Kind, s.Initial)
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s: %s --%s--> %s (order %d)\n", t.ID, t.From, t.Label, t.Target, t.Order)
	}
	for _, d := range c.Diagnostics {
		fmt.Println(d.Error())
	}
	// Output:
	// state locked (normal, initial true)
	// state unlocked (normal, initial false)
	// state opened (normal, initial false)
	// state broken (end, initial false)
	// locked#1: locked --unlock [hasKey]--> unlocked (order 1)
	// unlocked#1: unlocked --open--> opened (order 1)
	// opened#1: opened --close--> locked (order 1)
	// closed#1@locked: locked --smash--> broken (order 2)
	// closed#1@unlocked: unlocked --smash--> broken (order 2)
	// door.scxml:2:3: shape closed: note: chart: compound state "closed" flattened: its 1 transition applies in each of its 2 states; entering it enters "locked"
}
