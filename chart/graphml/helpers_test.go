package graphml_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/internal/charttest"
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
		if s.Parent != "" {
			b.WriteString("^" + s.Parent)
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
		if t.Internal {
			b.WriteString("+internal")
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

// soldierStencil loads testdata/soldier.stencil.json, a stencil that
// names all the masters of statecharts.
func soldierStencil(tb testing.TB) *chart.Stencil {
	tb.Helper()
	st, err := chart.LoadStencil("testdata/soldier.stencil.json")
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// read reads a drawing given as text, checking the chart.
func read(t *testing.T, text string, opt graphml.Options) (*chart.Chart, error) {
	t.Helper()
	if opt.File == "" {
		opt.File = "test.graphml"
	}
	c, err := graphml.Read(strings.NewReader(text), opt)
	charttest.CheckChart(t, c, err)
	return c, err
}

// readCase is a small drawing and what reading it gives, for the
// table-driven tests: want is the chart, summarised ("" is not checked);
// diags are substrings of the diagnostics ("severity: message"); err is
// whether Read returns an error.
type readCase struct {
	name  string
	text  string
	want  string
	diags []string
	err   bool
}

// check reads the drawing with opt and checks the chart, the error and
// the diagnostics tt lists; it returns the chart for the test's own
// checks.
func (tt readCase) check(t *testing.T, opt graphml.Options) *chart.Chart {
	t.Helper()
	c, err := read(t, tt.text, opt)
	if c == nil {
		t.Fatalf("Read = nil, %v", err)
	}
	if (err != nil) != tt.err {
		t.Errorf("Read error = %v, want error %v", err, tt.err)
	}
	if got := summary(c); tt.want != "" && got != tt.want {
		t.Errorf("chart =\n%s\nwant\n%s", got, tt.want)
	}
	msgs := messages(c)
	t.Logf("%s\n%s", summary(c), msgs)
	for _, w := range tt.diags {
		if !strings.Contains(msgs, w) {
			t.Errorf("diagnostics =\n%s\nwant %s", msgs, w)
		}
	}
	return c
}
