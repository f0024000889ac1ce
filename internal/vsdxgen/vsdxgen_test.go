package vsdxgen_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// TestParts checks that a package is written the same way twice, that
// every part is well-formed XML for encoding/xml, and that every part but
// the packaging's own has a content type.
func TestParts(t *testing.T) {
	d := vdxgen.Goomba(nil)
	data := vsdxgen.Bytes(d, vsdxgen.Options{Title: "Goomba"})
	if !bytes.Equal(data, vsdxgen.Bytes(d, vsdxgen.Options{Title: "Goomba"})) {
		t.Errorf("Bytes differs from one call to the next")
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	parts := vsdxgen.Parts(d, vsdxgen.Options{Title: "Goomba"})
	if len(zr.File) != len(parts) || zr.File[0].Name != "[Content_Types].xml" {
		t.Fatalf("%d files, want %d, [Content_Types].xml first", len(zr.File), len(parts))
	}
	types := string(parts[0].Data)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(rc)
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				break
			}
		}
		rc.Close()
		if !strings.HasSuffix(f.Name, ".rels") && f.Name != "[Content_Types].xml" && !strings.Contains(types, "PartName='/"+f.Name+"'") {
			t.Errorf("%s has no content type of its own", f.Name)
		}
	}
}

// TestGenerate reads a generated drawing with the Goomba stencil.
func TestGenerate(t *testing.T) {
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	const states, transitions = 150, 420
	c, err := visio.Read(bytes.NewReader(vsdxgen.Generate(states, transitions)), visio.Options{Stencil: st})
	if err != nil || len(c.States) != states || len(c.Transitions) != transitions || len(c.Diagnostics) != 0 {
		t.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
	}
	if b := c.States[101].Box; b == nil || b.X <= c.States[0].Box.X || b.Y >= c.States[0].Box.Y {
		t.Errorf("state 102 at %+v, want it right of and above state 1 at %+v", b, c.States[0].Box)
	}
}

// TestFromDocument writes a .vdx drawing as a .vsdx: both read the same.
func TestFromDocument(t *testing.T) {
	d := vdxgen.Goomba([]vdxgen.Shape{{ID: "9", Text: "a\r\nb", XForm: &vdxgen.XForm{PinX: 1, PinY: 2, Width: 3, Height: 4}, Relationships: "SUM(DEPENDSON(1,Sheet.1!SheetRef()))"}})
	doc, err := visio.DecodeVDX(bytes.NewReader(d.Bytes()), visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := vsdxgen.Bytes(vsdxgen.FromDocument(doc), vsdxgen.Options{})
	doc2, err := visio.DecodeVSDX(bytes.NewReader(data), int64(len(data)), visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, s2 := doc.Pages[0].Shapes[8], doc2.Pages[0].Shapes[8]
	if s.Text != "a\nb" || s2.Text != s.Text || s2.XForm.PinY != 2 || s2.XForm.Height != 4 || len(s2.Members) != 1 || s2.Members[0] != "1" {
		t.Errorf("shape 9 = %q %+v, then %q %+v members %v", s.Text, s.XForm, s2.Text, s2.XForm, s2.Members)
	}
	if len(doc2.Masters) != len(doc.Masters) || len(doc2.Pages[0].Connects) != len(doc.Pages[0].Connects) {
		t.Errorf("masters %d, connects %d", len(doc2.Masters), len(doc2.Pages[0].Connects))
	}
}
