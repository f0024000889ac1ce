package graphml_test

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
)

// StateSmith's tutorial, drawn in yEd: the $STATEMACHINE group names the
// chart, ON_GROUP holds ON1, ON2 and ON3 (their Parent) and keeps its OFF
// transition, which a statechart tries in each of them after their own,
// and ON3's "2. INCREASE [count >= 3]" is tried before its "DIM", which
// has no order, as StateSmith tries them (a warning says so).
func ExampleReadFile() {
	c, err := graphml.ReadFile("testdata/statesmith_tutorial1.graphml", graphml.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	name := map[string]string{}
	fmt.Println("chart", c.Name)
	for _, s := range c.States {
		name[s.ID] = s.Name
		if s.Kind != chart.NormalState {
			name[s.ID] = "(" + s.Kind.String() + ")"
		}
		if s.Parent != "" {
			fmt.Printf("%s is in %s\n", name[s.ID], name[s.Parent])
		}
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s --%d. %s--> %s\n", name[t.From], t.Order, t.Label, name[t.Target.State])
	}
	// Output:
	// chart Tutorial1Sm
	// ON1 is in ON_GROUP
	// ON2 is in ON_GROUP
	// ON3 is in ON_GROUP
	// (start) --1. --> OFF
	// OFF --1. INCREASE--> ON1
	// ON_GROUP --1. OFF--> OFF
	// ON1 --1. DIM--> OFF
	// ON1 --2. INCREASE--> ON2
	// ON2 --1. INCREASE--> ON3
	// ON2 --2. DIM--> ON1
	// ON3 --3. DIM--> ON2
	// ON3 --2. 2. INCREASE [count >= 3]--> BOOM
}

// door is a plain state diagram as yEd saves it (its graphics trimmed to
// what the reader uses).
const door = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
  <key for="node" id="d6" yfiles.type="nodegraphics"/>
  <key for="edge" id="d10" yfiles.type="edgegraphics"/>
  <graph edgedefault="directed" id="G">
    <node id="n0">
      <data key="d6"><y:ShapeNode><y:Geometry height="20" width="20" x="0" y="0"/><y:Shape type="ellipse"/></y:ShapeNode></data>
    </node>
    <node id="n1">
      <data key="d6"><y:ShapeNode><y:Geometry height="40" width="100" x="0" y="60"/><y:NodeLabel>Closed</y:NodeLabel></y:ShapeNode></data>
    </node>
    <node id="n2">
      <data key="d6"><y:ShapeNode><y:Geometry height="40" width="100" x="200" y="60"/><y:NodeLabel>Open
enter / beep();</y:NodeLabel></y:ShapeNode></data>
    </node>
    <edge id="e0" source="n0" target="n1"/>
    <edge id="e1" source="n1" target="n2">
      <data key="d10"><y:PolyLineEdge><y:EdgeLabel>push [unlocked] / swing()</y:EdgeLabel></y:PolyLineEdge></data>
    </edge>
    <edge id="e2" source="n2" target="n1">
      <data key="d10"><y:PolyLineEdge><y:EdgeLabel>after(5s)</y:EdgeLabel></y:PolyLineEdge></data>
    </edge>
  </graph>
</graphml>`

// A plain state diagram: read without a stencil.
func ExampleRead() {
	c, err := graphml.Read(strings.NewReader(door), graphml.Options{File: "door.graphml"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
		fmt.Printf("state %s %q: %s at %v\n", s.ID, s.Name, s.Kind, *s.Box)
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s -> %v: event %q, guard %q, action %q\n", t.From, t.Target, t.Event, t.Guard, t.Action)
	}
	for _, d := range c.Diagnostics {
		fmt.Println(d)
	}
	// Output:
	// state n0 "": start at {0 0 20 20}
	// state n1 "Closed": normal at {0 60 100 40}
	// state n2 "Open": normal at {200 60 100 40}
	// n0 -> n1: event "", guard "", action ""
	// n1 -> n2: event "push", guard "unlocked", action "swing()"
	// n2 -> n1: event "after(5s)", guard "", action ""
	// door.graphml:12:5: shape n2 "Open": warning: graphml: state "Open": the behaviour written in it is code for a code generator, which fsmforge does not run: "enter / beep();"
}

// The Goomba drawn in yEd with the goomba stencil: custom properties give
// each node and edge its master, entry actions and test.
func ExampleRead_stencil() {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := graphml.ReadFile("testdata/goomba.graphml", graphml.Options{Stencil: st})
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
		fmt.Printf("state %s: %s\n", s.Name, strings.Join(entry, ", "))
	}
	for _, t := range c.Transitions {
		fmt.Printf("%s --%s--> %s\n", name[t.From], t.Test, t.Target.String())
	}
	// Output:
	// state walkLeft: XMovement=left, Animation=moveLeft
	// state walkRight: XMovement=right, Animation=moveRight
	// state death: XMovement=death, Animation=death
	// walkLeft --hitTriggerLeft--> n1
	// walkRight --hitTriggerRight--> n0
	// walkLeft --hitByPlayer--> n2
	// walkRight --hitByPlayer--> n2
	// death --animationDone--> (final)
}
