package visio_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/diag"
)

// The designer-pipeline article's Goomba, drawn in Visio with the goomba stencil.
func ExampleReadFile() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := visio.ReadFile("../../examples/goomba/goomba.vdx", visio.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
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
	name := map[string]string{}
	for _, s := range c.States {
		name[s.ID] = s.Name
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

// door is a plain UML state diagram: two boxes, a start node and labelled
// connectors, one of them glued to nothing at its end.
const door = `<?xml version='1.0' encoding='utf-8'?>
<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core'>
  <Masters>
    <Master ID='0' NameU='Initial state'><Shapes><Shape ID='5'/></Shapes></Master>
  </Masters>
  <Pages>
    <Page ID='0' NameU='Page-1'>
      <Shapes>
        <Shape ID='1' Master='0'/>
        <Shape ID='2'><Text>Closed</Text></Shape>
        <Shape ID='3'><Text>Open</Text></Shape>
        <Shape ID='4'><XForm1D/></Shape>
        <Shape ID='5'><XForm1D/><Text>push [unlocked] / swing()</Text></Shape>
        <Shape ID='6'><XForm1D/><Text>after(5s)</Text></Shape>
        <Shape ID='7'><XForm1D/><Text>kick</Text></Shape>
      </Shapes>
      <Connects>
        <Connect FromSheet='4' FromCell='BeginX' ToSheet='1'/>
        <Connect FromSheet='4' FromCell='EndX' ToSheet='2'/>
        <Connect FromSheet='5' FromCell='BeginX' ToSheet='2'/>
        <Connect FromSheet='5' FromCell='EndX' ToSheet='3'/>
        <Connect FromSheet='6' FromCell='BeginX' ToSheet='3'/>
        <Connect FromSheet='6' FromCell='EndX' ToSheet='2'/>
        <Connect FromSheet='7' FromCell='BeginX' ToSheet='3'/>
      </Connects>
    </Page>
  </Pages>
</VisioDocument>`

// A plain state diagram: read without a stencil.
func ExampleRead() {
	c, err := visio.Read(strings.NewReader(door), visio.Options{File: "door.vdx"})
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
	// state 1 "": start
	// state 2 "Closed": normal
	// state 3 "Open": normal
	// 1 -> 2: event "", guard "", action ""
	// 2 -> 3: event "push", guard "unlocked", action "swing()"
	// 3 -> 2: event "after(5s)", guard "", action ""
	// 3 -> (final): event "kick", guard "", action ""
}

// The drawing model, before any interpretation.
func ExampleDecodeVDX() {
	doc, err := visio.DecodeVDX(strings.NewReader(door), visio.Options{File: "door.vdx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	doc.Resolve()
	for _, s := range doc.Pages[0].Shapes[:3] {
		master := "none"
		if s.Master != nil {
			master = s.Master.Label()
		}
		fmt.Printf("shape %s at line %d: master %s, text %q, 1-D %v\n", s.ID, s.Pos.Line, master, s.Text, s.OneD)
	}
	for _, c := range doc.Pages[0].Connects[:2] {
		fmt.Printf("connector %s: %s glued to shape %s\n", c.FromSheet, c.FromCell, c.ToSheet)
	}
	// Output:
	// shape 1 at line 9: master Initial state, text "", 1-D false
	// shape 2 at line 10: master none, text "Closed", 1-D false
	// shape 3 at line 11: master none, text "Open", 1-D false
	// connector 4: BeginX glued to shape 1
	// connector 4: EndX glued to shape 2
}

// The Goomba again, saved by Visio 2013 or later as a .vsdx: ReadFile
// tells the formats apart by their content.
func ExampleReadFile_vsdx() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := visio.ReadFile("../../examples/goomba/goomba.vsdx", visio.Options{Stencil: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
		fmt.Printf("state %s at (%g, %g), %g by %g px\n", s.Name, s.Box.X, s.Box.Y, s.Box.W, s.Box.H)
	}
	fmt.Println(len(c.Transitions), "transitions,", len(c.Diagnostics), "diagnostics")
	fmt.Println(c.States[0].Pos)
	// Output:
	// state walkLeft at (144, 300), 144 by 72 px
	// state walkRight at (528, 300), 144 by 72 px
	// state death at (336, 540), 144 by 72 px
	// 5 transitions, 0 diagnostics
	// ../../examples/goomba/goomba.vsdx!visio/pages/page1.xml:2:182: page "Page-1", shape 1 "walkLeft"
}

// A UML state machine drawn with Visio's UML stencil: the composite state
// "Distance Dependant States", a container named by its heading, holds
// four states, and its transition applies in each of them. But the drawing
// cannot be read as drawn: three connectors between those states lie on
// them without being glued to them, so that Visio does not connect them.
// (And the composite state has no initial state, though a transition
// enters it: a warning.)
func ExampleReadFile_uml() {
	c, err := visio.ReadFile("testdata/hossam_obstacle_car_uml_statemachine.vsdx", visio.Options{File: "car.vsdx"})
	for _, s := range c.States {
		if s.ID == "13" {
			continue // the diagram's title, a box of text read as a state
		}
		in := ""
		if s.Parent != "" {
			in = " in " + s.Parent
		}
		fmt.Printf("%s %s %q%s\n", s.ID, s.Kind, s.Name, in)
	}
	for _, t := range c.Transitions[5:6] {
		fmt.Printf("%s: %s -%s-> %s\n", t.ID, t.From, t.Event, t.Target)
	}
	for _, d := range err.(diag.List) {
		fmt.Println(d.Message)
	}
	// Output:
	// 235 normal "Distance Dependant States"
	// 199 start "Start"
	// 203 normal "Inital state"
	// 215 normal "Direction Setting"
	// 223 normal "Starting"
	// 243 normal "Distance check"
	// 247 normal "Dist > 70 cm" in 235
	// 252 normal "30 < Dist < 70" in 235
	// 257 normal "20 < Dist < 30" in 235
	// 260 normal "Dist < 20" in 235
	// 238: 235 -KPD2 (STOP) is pressed-> 203
	// visio: the connector is glued to no shape, though its start lies on state 247 "Dist > 70 cm" and its end on state 260 "Dist < 20": it is not a transition until its ends are glued
	// visio: the connector is glued to no shape, though its start lies on state 260 "Dist < 20" and its end on state 247 "Dist > 70 cm": it is not a transition until its ends are glued
	// visio: the connector is glued to no shape, though its start lies on state 257 "20 < Dist < 30" and its end on state 252 "30 < Dist < 70": it is not a transition until its ends are glued
}

// The model of a .vsdx: masters and pages found through the package's
// relationships, shapes with their cells.
func ExampleDecodeVSDX() {
	f, err := os.Open("../../examples/goomba/goomba.vsdx")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := visio.DecodeVSDX(f, fi.Size(), visio.Options{File: "goomba.vsdx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	doc.Resolve()
	for _, m := range doc.Masters {
		fmt.Printf("master %s %q in %s\n", m.ID, m.Label(), m.Shapes[0].Pos.Part)
	}
	pg := doc.Pages[0]
	fmt.Printf("page %q, %g by %g inches\n", pg.Label(), pg.Width, pg.Height)
	s := pg.Shapes[0]
	name, _ := s.Prop("Name")
	move, _ := s.Prop("XMovement")
	fmt.Printf("shape %s of %q: Name=%s, XMovement=%s of %q, pin (%g, %g)\n", s.ID, s.Master.Label(), name.Value, move.Value, move.Format, s.XForm.PinX, s.XForm.PinY)
	// Output:
	// master 2 "Initial State" in visio/masters/master1.xml
	// master 3 "State" in visio/masters/master2.xml
	// master 4 "Transition" in visio/masters/master3.xml
	// page "Page-1", 8.5 by 11 inches
	// shape 1 of "Initial State": Name=walkLeft, XMovement=left of "existing;right;left;death", pin (2.25, 7.5)
}

// A Visio stencil for the Goomba's stencil file: its masters carry the
// tests and actions as drop-lists.
func ExampleWriteStencil() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	var vsx bytes.Buffer
	if err := visio.WriteStencil(&vsx, st); err != nil {
		fmt.Println(err)
		return
	}
	doc, err := visio.DecodeVDX(&vsx, visio.Options{File: "goomba.vsx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range doc.Masters {
		fmt.Printf("%s:", m.Label())
		for _, p := range m.Shapes[0].Props {
			if list := p.List(); list != nil {
				fmt.Printf(" %s[%s]", p.Label, strings.Join(list, ";"))
			} else {
				fmt.Printf(" %s", p.Label)
			}
		}
		fmt.Println()
	}
	// Output:
	// Initial State: Name XMovement[existing;right;left;death] Animation[existing;moveRight;moveLeft;death]
	// State: Name XMovement[existing;right;left;death] Animation[existing;moveRight;moveLeft;death]
	// Transition: Test[hitTriggerLeft;animationDone;hitTriggerRight;hitByPlayer] Value Order Stack[none;push;return] Final
	// Message Handler:
}
