package visio_test

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
)

// The seed's Goomba, drawn in Visio with the goomba stencil.
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
