package vdxgen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// TestGenerate reads a generated drawing with the Goomba stencil: the
// numbers of states and transitions asked for, no state testing a test
// twice, every state reachable from s1 by the first round of transitions.
func TestGenerate(t *testing.T) {
	if vdxgen.NamespaceVDX2003 != visio.NamespaceVDX2003 {
		t.Errorf("NamespaceVDX2003 = %q, want visio's %q", vdxgen.NamespaceVDX2003, visio.NamespaceVDX2003)
	}
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	const states, transitions = 50, 170
	c, err := visio.Read(bytes.NewReader(vdxgen.Generate(states, transitions)), visio.Options{Stencil: st})
	if err != nil || len(c.States) != states || len(c.Transitions) != transitions {
		t.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
	}
	if !c.States[0].Initial || c.States[0].Name != "s1" {
		t.Errorf("first state = %+v, want the initial s1", c.States[0])
	}
	type key struct{ from, test string }
	seen := map[key]bool{}
	next := map[string]string{}
	for i, tr := range c.Transitions {
		k := key{tr.From, tr.Test}
		if seen[k] {
			t.Errorf("state %s tests %s twice", tr.From, tr.Test)
		}
		seen[k] = true
		if i < states {
			next[tr.From] = tr.Target.State
		}
	}
	at, visited := "1", map[string]bool{}
	for range states {
		visited[at] = true
		at = next[at]
	}
	if len(visited) != states {
		t.Errorf("the first round visits %d states, want %d", len(visited), states)
	}
}

// TestBytes checks that a drawing is written the same way twice and reads
// back as written.
func TestBytes(t *testing.T) {
	d := vdxgen.Goomba(nil)
	var b bytes.Buffer
	if _, err := d.WriteTo(&b); err != nil || !bytes.Equal(b.Bytes(), d.Bytes()) {
		t.Fatalf("WriteTo and Bytes differ (%v)", err)
	}
	c, err := visio.Read(&b, visio.Options{})
	if err != nil || len(c.States) != 3 || len(c.Transitions) != 5 {
		t.Errorf("Read = %v", err)
	}
}

// TestGeometry writes shapes placed by their XForm, and a container, and
// reads them back.
func TestGeometry(t *testing.T) {
	d := &vdxgen.Drawing{Pages: []vdxgen.Page{{ID: "0", Name: "P", Height: 10, Shapes: []vdxgen.Shape{
		{ID: "1", Text: "A", XForm: &vdxgen.XForm{PinX: 2, PinY: 9, Width: 2, Height: 1}, Relationships: "SUM(DEPENDSON(1,Sheet.2!SheetRef()))"},
		{ID: "2", Text: "B", XForm: &vdxgen.XForm{PinX: 2, PinY: 9, Width: 1, Height: 0.5}},
		{ID: "3", OneD: true, XForm: &vdxgen.XForm{BeginX: 1, BeginY: 1, EndX: 1, EndY: 3}},
	}}}}
	doc, err := visio.DecodeVDX(bytes.NewReader(d.Bytes()), visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pg := doc.Pages[0]
	a, line := pg.Shapes[0], pg.Shapes[2]
	if pg.Width != 8.5 || pg.Height != 10 || a.XForm.LocPinX != 1 || a.XForm.PinY != 9 || len(a.Members) != 1 {
		t.Errorf("page %gx%g, shape 1 %+v, members %v", pg.Width, pg.Height, a.XForm, a.Members)
	}
	if x := line.XForm; !line.OneD || x.Width != 2 || x.PinY != 2 || x.Angle < 1.57 || x.Angle > 1.58 || x.EndY != 3 {
		t.Errorf("connector: %+v", x)
	}
}

// TestUML reads a composite state drawn with the UML masters: a container
// named by its heading, holding the shapes that name it as their
// container.
func TestUML(t *testing.T) {
	d := &vdxgen.Drawing{Masters: vdxgen.UMLMasters(), Pages: []vdxgen.Page{{ID: "0", Name: "P", Shapes: []vdxgen.Shape{
		vdxgen.Composite("1", "2", "Busy", "3", "4"),
		{ID: "3", Master: vdxgen.UMLInitial, Relationships: vdxgen.In("1")},
		{ID: "4", Master: vdxgen.UMLState, Text: "A", Relationships: vdxgen.In("1")},
		{ID: "5", Master: vdxgen.UMLDeepHistory, Relationships: vdxgen.In("1")},
		{ID: "6", Master: vdxgen.UMLConnector, OneD: true, Relationships: vdxgen.In("1")},
		{ID: "7", Master: vdxgen.UMLConnector, OneD: true, Text: "back"},
	}, Connects: append(vdxgen.Glue("6", "3", "4"), vdxgen.Glue("7", "4", "5")...)}}}
	if got, want := vdxgen.Holds("2", "3"), "SUM(DEPENDSON(1,Sheet.2!SheetRef(),Sheet.3!SheetRef()))"; got != want {
		t.Errorf("Holds = %q, want %q", got, want)
	}
	c, err := visio.Read(bytes.NewReader(d.Bytes()), visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.States {
		got = append(got, s.ID+" "+s.Kind.String()+" "+s.Name+" in "+s.Parent)
	}
	want := []string{"1 normal Busy in ", "3 start  in 1", "4 normal A in 1", "5 deepHistory  in 1"}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(c.Transitions) != 2 {
		t.Errorf("states = %q, %d transitions; want %q, 2", got, len(c.Transitions), want)
	}
}
