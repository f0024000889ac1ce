package drawio_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
)

// The designer-pipeline article's Goomba, drawn in draw.io with the shapes of the goomba
// stencil's library.
func ExampleReadFile() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := drawio.ReadFile("../../examples/goomba/goomba.drawio", drawio.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	name := map[string]string{}
	for _, s := range c.States {
		name[s.ID] = s.Name
		var entry []string
		for _, a := range s.Entry {
			entry = append(entry, a.Property+"="+a.Value)
		}
		initial := ""
		if s.Initial {
			initial = " (initial)"
		}
		fmt.Printf("state %s%s: %s\n", s.Name, initial, strings.Join(entry, ", "))
	}
	for _, t := range c.Transitions {
		to := name[t.Target.State]
		if t.Target.Kind == chart.ToFinal {
			to = "(final)"
		}
		fmt.Printf("%s --%s--> %s\n", name[t.From], t.Test, to)
	}
	fmt.Println(len(c.Diagnostics), "diagnostics")
	// Output:
	// state walkLeft (initial): XMovement=left, Animation=moveLeft
	// state walkRight: XMovement=right, Animation=moveRight
	// state death: XMovement=death, Animation=death
	// walkLeft --hitTriggerLeft--> walkRight
	// walkRight --hitTriggerRight--> walkLeft
	// walkLeft --hitByPlayer--> death
	// walkRight --hitByPlayer--> death
	// death --animationDone--> (final)
	// 0 diagnostics
}

// A plain UML state diagram, as draw.io saves it: HTML labels, a label in
// an edgeLabel cell, an edge with a loose end.
func ExampleRead() {
	const door = `<mxfile><diagram id="p1" name="Door"><mxGraphModel><root>
  <mxCell id="0"/><mxCell id="1" parent="0"/>
  <mxCell id="s" value="" style="ellipse;html=1;shape=startState;" vertex="1" parent="1"/>
  <mxCell id="c" value="&lt;b&gt;Closed&lt;/b&gt;" style="rounded=1;html=1;" vertex="1" parent="1"/>
  <mxCell id="o" value="Open" style="rounded=1;html=1;" vertex="1" parent="1"/>
  <mxCell id="e1" edge="1" parent="1" source="s" target="c"/>
  <mxCell id="e2" value="push [unlocked]&lt;br&gt;/ swing()" style="html=1;" edge="1" parent="1" source="c" target="o"/>
  <mxCell id="e3" edge="1" parent="1" source="o" target="c"/>
  <mxCell id="l3" value="after(5s)" style="edgeLabel;html=1;" vertex="1" parent="e3"/>
  <mxCell id="e4" value="kick" edge="1" parent="1" source="o"/>
</root></mxGraphModel></diagram></mxfile>`
	c, err := drawio.Read(strings.NewReader(door), drawio.Options{File: "door.drawio"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
		fmt.Printf("state %s %q: %s\n", s.ID, s.Name, s.Kind)
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s -> %v: event %q, guard %q, action %q\n", t.From, t.Target, t.Event, t.Guard, t.Action)
	}
	// Output:
	// state s "": start
	// state c "Closed": normal
	// state o "Open": normal
	// s -> c: event "", guard "", action ""
	// c -> o: event "push", guard "unlocked", action "swing()"
	// o -> c: event "after(5s)", guard "", action ""
	// o -> (final): event "kick", guard "", action ""
}

// A chart written as a draw.io diagram: each state at its Box, or on a
// grid.
func ExampleWrite() {
	c := &chart.Chart{
		States: []chart.State{
			{ID: "s", Kind: chart.StartState, Initial: true},
			{ID: "idle", Name: "Idle", Box: &chart.Box{X: 100, Y: 40, W: 120, H: 60}},
		},
		Transitions: []chart.Transition{
			{ID: "t1", From: "s", Order: 1, Target: chart.Target{State: "idle"}},
			{ID: "t2", From: "idle", Order: 1, Label: "quit", Event: "quit", Test: "quit", Target: chart.Target{Kind: chart.ToFinal}},
		},
	}
	if err := drawio.Write(os.Stdout, c, drawio.WriteOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <mxfile host="fsmforge" pages="1">
	//   <diagram id="page-1" name="Page-1">
	//     <mxGraphModel dx="0" dy="0" grid="1" gridSize="10" guides="1" tooltips="1" connect="1" arrows="1" fold="1" page="1" pageScale="1" pageWidth="850" pageHeight="1100" math="0" shadow="0">
	//       <root>
	//         <mxCell id="0"/>
	//         <mxCell id="1" parent="0"/>
	//         <mxCell id="s" value="" style="ellipse;shape=startState;fillColor=#000000;strokeColor=#000000;" vertex="1" parent="1">
	//           <mxGeometry x="85" y="155" width="30" height="30" as="geometry"/>
	//         </mxCell>
	//         <mxCell id="idle" value="Idle" style="rounded=1;whiteSpace=wrap;" vertex="1" parent="1">
	//           <mxGeometry x="100" y="40" width="120" height="60" as="geometry"/>
	//         </mxCell>
	//         <mxCell id="t1" value="" style="rounded=0;orthogonalLoop=1;jettySize=auto;endArrow=block;endFill=1;" edge="1" parent="1" source="s" target="idle">
	//           <mxGeometry relative="1" as="geometry"/>
	//         </mxCell>
	//         <object label="quit" fsmforgeFinal="1" id="t2">
	//           <mxCell style="rounded=0;orthogonalLoop=1;jettySize=auto;endArrow=block;endFill=1;" edge="1" parent="1" source="idle">
	//             <mxGeometry relative="1" as="geometry"><mxPoint x="320" y="70" as="targetPoint"/></mxGeometry>
	//           </mxCell>
	//         </object>
	//       </root>
	//     </mxGraphModel>
	//   </diagram>
	// </mxfile>
}

// The shapes designers draw the Goomba with, as a draw.io library.
func ExampleLibrary() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	entries, err := drawio.Library(st)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		fmt.Printf("%dx%d %s\n", e.W, e.H, e.Title)
	}
	// Output:
	// 120x60 State (stencil goomba): a state; type its name as the label, pick its entry actions in Edit Data (Ctrl+M)
	// 120x60 Initial State (stencil goomba): the state the machine starts in; type its name as the label, pick its entry actions in Edit Data (Ctrl+M)
	// 160x40 Transition (stencil goomba): connect its ends to states (a loose end ends the machine: set Final to 1 when it should); pick its Test in Edit Data (Ctrl+M)
	// 120x60 Message Handler (stencil goomba): the transitions drawn from it apply in any state
}

// WriteLibrary writes the library draw.io opens with File > Open Library.
func ExampleWriteLibrary() {
	st := &chart.Stencil{
		Name:    "door",
		Masters: chart.Masters{State: "State", Transition: "Transition"},
		Tests:   []chart.Test{{Name: "push"}},
	}
	var b strings.Builder
	if err := drawio.WriteLibrary(&b, st); err != nil {
		fmt.Println(err)
		return
	}
	lib := b.String()
	fmt.Println(lib[:len(`<mxlibrary>[`)], strings.Count(lib, `"xml":`), "shapes", lib[len(lib)-len("]</mxlibrary>\n"):])
	// Output:
	// <mxlibrary>[ 2 shapes ]</mxlibrary>
}

// A statechart drawn in draw.io: a container holds the states inside a
// state, a history (an ellipse labelled H*) remembers them, a state
// marked fsmforgeParallel = 1 runs its regions (the containers inside
// it) at once, and an edge marked fsmforgeAlso adds a target to a
// transition.
func ExampleRead_nested() {
	const guard = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
  <mxCell id="s" style="shape=startState;" vertex="1" parent="1"/>
  <mxCell id="patrol" value="Patrol" style="rounded=1;" vertex="1" parent="1"/>
  <mxCell id="alert" value="Alert" style="swimlane;" vertex="1" parent="1"/>
  <mxCell id="as" style="shape=startState;" vertex="1" parent="alert"/>
  <mxCell id="search" value="Search" style="rounded=1;" vertex="1" parent="alert"/>
  <mxCell id="h" value="H*" style="ellipse;" vertex="1" parent="alert"/>
  <object label="Combat" fsmforgeParallel="1" id="combat"><mxCell style="swimlane;" vertex="1" parent="alert"/></object>
  <mxCell id="weapon" value="Weapon" style="container=1;dashed=1;" vertex="1" parent="combat"/>
  <object label="Aim" fsmforgeInitial="1" id="aim"><mxCell style="rounded=1;" vertex="1" parent="weapon"/></object>
  <mxCell id="movement" value="Movement" style="container=1;dashed=1;" vertex="1" parent="combat"/>
  <object label="Stand" fsmforgeInitial="1" id="stand"><mxCell style="rounded=1;" vertex="1" parent="movement"/></object>
  <mxCell id="chase" value="Chase" style="rounded=1;" vertex="1" parent="movement"/>
  <mxCell id="e0" edge="1" parent="1" source="s" target="patrol"/>
  <mxCell id="e1" value="noise [!deaf]" edge="1" parent="1" source="patrol" target="alert"/>
  <mxCell id="e2" value="alarm" edge="1" parent="1" source="patrol" target="h"/>
  <mxCell id="e3" edge="1" parent="1" source="as" target="search"/>
  <mxCell id="e4" value="enemy" edge="1" parent="1" source="search" target="aim"/>
  <object label="" fsmforgeAlso="e4" id="e4b"><mxCell edge="1" parent="1" source="search" target="chase"/></object>
</root></mxGraphModel>`
	c, err := drawio.Read(strings.NewReader(guard), drawio.Options{File: "guard.drawio"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
		fmt.Printf("state %s %q: %s, in %q\n", s.ID, s.Name, s.Kind, s.Parent)
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s: %s --%q--> %s %v\n", t.ID, t.From, t.Label, t.Target, t.Also)
	}
	for _, d := range c.Diagnostics {
		fmt.Println(d.Severity, d.Message)
	}
	// Output:
	// state s "": start, in ""
	// state patrol "Patrol": normal, in ""
	// state alert "Alert": normal, in ""
	// state as "": start, in "alert"
	// state search "Search": normal, in "alert"
	// state h "": deepHistory, in "alert"
	// state combat "Combat": parallel, in "alert"
	// state weapon "Weapon": normal, in "combat"
	// state aim "Aim": normal, in "weapon"
	// state movement "Movement": normal, in "combat"
	// state stand "Stand": normal, in "movement"
	// state chase "Chase": normal, in "movement"
	// e0: s --""--> patrol []
	// e1: patrol --"noise [!deaf]"--> alert []
	// e2: patrol --"alarm"--> h []
	// e3: as --""--> search []
	// e4: search --"enemy"--> aim [chase]
	// h#1: h --""--> search []
	// note drawio: history h has no transition: when there is no history yet, it enters "Search", where the start state of "Alert" leads, as UML enters the state
}

// What a label cannot say of a statechart read from SCXML, Write keeps in
// the shapes' Edit Data: exit actions, a transition's actions, a
// transition without a target (a loop on its state), a history's name.
func ExampleWrite_statechart() {
	c := &chart.Chart{
		Name: "guard", File: "guard.scxml",
		States: []chart.State{
			{ID: "alert", Name: "Alert", Initial: true,
				Exit: []chart.Action{{Kind: chart.CancelAction, Timer: "calm"}}},
			{ID: "search", Name: "Search", Parent: "alert", Initial: true,
				Entry: []chart.Action{{Kind: chart.SendAction, Event: "calm", Delay: 5, Timer: "calm"}, {Property: "Animation", Value: "look around"}}},
			{ID: "h", Name: "deepHistory", Kind: chart.DeepHistoryState, Parent: "alert"},
		},
		Transitions: []chart.Transition{
			{ID: "t1", From: "h", Order: 1, Target: chart.Target{State: "search"}},
			{ID: "t2", From: "alert", Order: 1, Label: "noise", Event: "noise", Test: "noise", Target: chart.Target{Kind: chart.ToNone},
				Actions: []chart.Action{{Kind: chart.RaiseAction, Event: "alarm", Guard: "!deaf"}}},
		},
	}
	var b strings.Builder
	if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, "fsmforge") && !strings.Contains(line, "<mxfile") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// <object label="Alert" fsmforgeInitial="1" fsmforgeExit="cancel calm" id="alert">
	// <object label="Search" fsmforgeInitial="1" fsmforgeEntry="send calm after 5s as calm&#10;Animation=&quot;look around&quot;" id="search">
	// <object label="H*" fsmforgeName="deepHistory" id="h">
	// <object label="noise" fsmforgeStay="1" fsmforgeActions="[!deaf] raise alarm" id="t2">
}
