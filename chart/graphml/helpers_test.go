package graphml_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
)

// The tests build small drawings as yEd writes them: doc wraps nodes and
// edges (made by node, group and edge) in a file that declares yEd's
// graphics keys and the goomba stencil's custom properties.

const head = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
  <key for="node" id="ng" yfiles.type="nodegraphics"/>
  <key for="edge" id="eg" yfiles.type="edgegraphics"/>
  <key attr.name="fsmforge" attr.type="string" for="all" id="role"/>
  <key attr.name="Name" attr.type="string" for="node" id="name"/>
  <key attr.name="XMovement" attr.type="string" for="node" id="xm"/>
  <key attr.name="Animation" attr.type="string" for="node" id="an"/>
  <key attr.name="Test" attr.type="string" for="edge" id="test"/>
  <key attr.name="Value" attr.type="string" for="edge" id="value"/>
  <key attr.name="Order" attr.type="int" for="edge" id="order"/>
  <key attr.name="Stack" attr.type="string" for="edge" id="stack"/>
  <graph edgedefault="directed" id="G">
`

func doc(body ...string) string {
	return head + strings.Join(body, "") + "  </graph>\n</graphml>\n"
}

// attrs turns "key=value" options into data elements and graphics: role,
// name, xm, an, test, value, order, stack are custom properties; shape and
// box (x,y,w,h) and arrows (source,target) are graphics.
func attrs(opts []string) (data, shape, box, arrows string) {
	shape, box, arrows = "roundrectangle", "0,0,100,40", "none,standard"
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "shape":
			shape = v
		case "box":
			box = v
		case "arrows":
			arrows = v
		default:
			data += fmt.Sprintf("      <data key=%q>%s</data>\n", k, v)
		}
	}
	return data, shape, box, arrows
}

func geometry(box string) string {
	v := strings.Split(box+",,,", ",")
	return fmt.Sprintf(`<y:Geometry height=%q width=%q x=%q y=%q/>`, v[3], v[2], v[0], v[1])
}

// node is a yEd ShapeNode.
func node(id, label string, opts ...string) string {
	data, shape, box, _ := attrs(opts)
	return fmt.Sprintf(`    <node id=%q>
%s      <data key="ng"><y:ShapeNode>%s<y:NodeLabel>%s</y:NodeLabel><y:Shape type=%q/></y:ShapeNode></data>
    </node>
`, id, data, geometry(box), label, shape)
}

// group is a yEd group node holding members.
func group(id, label string, opts []string, members ...string) string {
	data, _, box, _ := attrs(opts)
	return fmt.Sprintf(`    <node id=%q yfiles.foldertype="group">
%s      <data key="ng"><y:ProxyAutoBoundsNode><y:Realizers active="0">
        <y:GroupNode>%s<y:NodeLabel>%s</y:NodeLabel><y:State closed="false"/></y:GroupNode>
        <y:GroupNode><y:Geometry height="50" width="50" x="0" y="0"/><y:NodeLabel>%[4]s</y:NodeLabel><y:State closed="true"/></y:GroupNode>
      </y:Realizers></y:ProxyAutoBoundsNode></data>
      <graph edgedefault="directed" id="%[1]s:">
%[5]s      </graph>
    </node>
`, id, data, geometry(box), label, strings.Join(members, ""))
}

// edge is a yEd PolyLineEdge.
func edge(id, source, target, label string, opts ...string) string {
	data, _, _, arrows := attrs(opts)
	from, to, _ := strings.Cut(arrows, ",")
	return fmt.Sprintf(`    <edge id=%q source=%q target=%q>
%s      <data key="eg"><y:PolyLineEdge><y:Arrows source=%q target=%q/><y:EdgeLabel>%s</y:EdgeLabel></y:PolyLineEdge></data>
    </edge>
`, id, source, target, data, from, to, label)
}

// summary renders a chart for comparisons: its states (with * for the
// initial one and the kind of pseudo-states), then its transitions.
func summary(c *chart.Chart) string {
	var b strings.Builder
	for _, s := range c.States {
		b.WriteString(s.ID)
		if s.Name != "" && s.Name != s.ID {
			b.WriteString("=" + s.Name)
		}
		if s.Kind != chart.NormalState {
			b.WriteString("(" + s.Kind.String() + ")")
		}
		if s.Initial {
			b.WriteString("*")
		}
		for _, a := range s.Entry {
			b.WriteString(" " + a.Property + ":" + a.Value)
		}
		b.WriteString("; ")
	}
	b.WriteString("|")
	for _, t := range c.Transitions {
		from := t.From
		if t.AnyState {
			from = "any"
		}
		fmt.Fprintf(&b, " %s:%s>%v#%d", t.ID, from, t.Target, t.Order)
		if t.Test != "" {
			b.WriteString("[" + t.Test + "]")
		}
		if t.Value != "" {
			b.WriteString("=" + t.Value)
		}
		if t.Push {
			b.WriteString("+push")
		}
	}
	return b.String()
}

// messages renders the diagnostics, one per line: severity and message.
func messages(c *chart.Chart) string {
	var lines []string
	for _, d := range c.Diagnostics {
		lines = append(lines, d.Severity.String()+": "+d.Message)
	}
	return strings.Join(lines, "\n")
}

// checkChart checks what every chart the reader returns must satisfy:
// unique IDs, transitions between states of the chart (but into a
// compound whose flattening failed), orders from 1, and diagnostics that
// render.
func checkChart(t testing.TB, c *chart.Chart) {
	t.Helper()
	if c.States == nil || c.Transitions == nil {
		t.Fatalf("chart with nil States or Transitions")
	}
	nesting := false
	for _, d := range c.Diagnostics {
		if d.Error() == "" || d.Message == "" {
			t.Fatalf("diagnostic %#v renders empty", d)
		}
		if d.Severity == chart.Error && errors.Is(d.Err, chart.ErrNesting) {
			nesting = true
		}
		if d.Severity > chart.Note {
			t.Fatalf("diagnostic %#v has an invalid severity", d)
		}
	}
	ids := map[string]bool{}
	for _, s := range c.States {
		if s.ID == "" || ids[s.ID] {
			t.Fatalf("state ID %q empty or repeated", s.ID)
		}
		if s.Parent != "" {
			t.Fatalf("state %s: Parent %q after flattening", s.ID, s.Parent)
		}
		ids[s.ID] = true
	}
	seen := map[string]bool{}
	for _, tr := range c.Transitions {
		if tr.ID == "" || seen[tr.ID] || ids[tr.ID] {
			t.Fatalf("transition ID %q empty or repeated", tr.ID)
		}
		seen[tr.ID] = true
		if tr.AnyState != (tr.From == "") || tr.From != "" && !ids[tr.From] {
			t.Fatalf("transition %s: From %q, AnyState %v", tr.ID, tr.From, tr.AnyState)
		}
		if (tr.Target.Kind == chart.ToState) != (tr.Target.State != "") || tr.Target.Kind == chart.ToState && !ids[tr.Target.State] && !nesting {
			t.Fatalf("transition %s: Target %+v", tr.ID, tr.Target)
		}
		if tr.Order < 1 {
			t.Fatalf("transition %s: Order %d", tr.ID, tr.Order)
		}
	}
	err := c.Diagnostics.Err()
	if err != nil && err.Error() == "" {
		t.Fatalf("Diagnostics.Err() renders empty")
	}
	var l chart.Diagnostics
	if err != nil && !errors.As(err, &l) {
		t.Fatalf("Diagnostics.Err() is a %T", err)
	}
}

// read reads a drawing given as text, checking the chart.
func read(t *testing.T, text string, opt graphml.Options) (*chart.Chart, error) {
	t.Helper()
	if opt.File == "" {
		opt.File = "test.graphml"
	}
	c, err := graphml.Read(strings.NewReader(text), opt)
	if c == nil {
		if err == nil {
			t.Fatal("Read = nil, nil")
		}
		return nil, err
	}
	checkChart(t, c)
	if (err != nil) != c.Diagnostics.HasErrors() {
		t.Fatalf("Read error %v, chart diagnostics %v", err, c.Diagnostics)
	}
	return c, err
}

func goombaStencil(t testing.TB) *chart.Stencil {
	t.Helper()
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	return st
}
