package vdxgen_test

import (
	"bytes"
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
