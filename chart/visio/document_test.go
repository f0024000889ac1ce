package visio_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/visio"
)

// inheritance is a drawing whose shapes inherit from their masters in every
// way Visio allows: cell by cell, with deleted rows, group members, text
// and 1-D-ness.
const inheritance = `<?xml version='1.0' encoding='utf-8'?>
<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core' xmlns:vx='http://schemas.microsoft.com/visio/2006/extension'>
 <DocumentProperties><Title> Inheritance </Title></DocumentProperties>
 <Masters>
  <Master ID='1' NameU='Box' Name='Boîte'>
   <Shapes><Shape ID='5' Type='Group'>
     <Prop NameU='Color' ID='1'><Value Unit='STR'>red</Value><Label>Colour</Label><Format>red; green</Format><Type>1</Type></Prop>
     <Prop NameU='Size' ID='2'><Value>1</Value><Label>Size</Label><Type>2</Type></Prop>
     <Prop NameU='Gone' ID='3'><Value>x</Value></Prop>
     <Text>box</Text>
     <Shapes><Shape ID='6' Type='Shape'><Text>inner</Text><XForm1D><BeginX>0</BeginX></XForm1D></Shape></Shapes>
   </Shape></Shapes>
  </Master>
  <Master ID='2' NameU='Line'><Shapes><Shape ID='5'><XForm1D><BeginX>0</BeginX></XForm1D></Shape></Shapes></Master>
 </Masters>
 <Pages><Page ID='0' NameU='Page-1' Name='Seite 1'>
  <Shapes>
   <Shape ID='1' Master='1' Type='Group'>
     <Prop NameU='Color' ID='1'><Value Unit='STR'>green</Value><Label F='Inh'>Colour</Label></Prop>
     <Prop NameU='Gone' ID='3' Del='1'/>
     <Prop NameU='Own' ID='4'><Value>mine</Value><Label>Own</Label><vx:Extra>ignored</vx:Extra></Prop>
     <Shapes><Shape ID='2' MasterShape='6'/><Shape ID='3' MasterShape='9'/></Shapes>
   </Shape>
   <Shape ID='4' Master='2'/>
   <Shape ID='7' Master='1'><Text>own &amp; <fld IX='0'>field</fld> text</Text></Shape>
  </Shapes>
  <Connects><Connect FromSheet='4' FromCell='BeginX' ToSheet='1' ToCell='PinX'/></Connects>
 </Page></Pages>
</VisioDocument>
`

func TestDecodeVDXInheritance(t *testing.T) {
	doc, err := visio.DecodeVDX(strings.NewReader(inheritance), visio.Options{File: "i.vdx"})
	if err != nil {
		t.Fatal(err)
	}
	if doc.File != "i.vdx" || doc.Title != "Inheritance" || doc.Namespace != visio.NamespaceVDX2003 || len(doc.Masters) != 2 || len(doc.Pages) != 1 {
		t.Fatalf("DecodeVDX = %+v", doc)
	}
	pg := doc.Pages[0]
	if pg.Label() != "Seite 1" || doc.Masters[0].Label() != "Box" || len(pg.Shapes) != 3 || len(pg.Connects) != 1 {
		t.Fatalf("page %q with %d shapes, %d connects; master %q", pg.Label(), len(pg.Shapes), len(pg.Connects), doc.Masters[0].Label())
	}
	if c := pg.Connects[0]; c != (visio.Connect{FromSheet: "4", FromCell: "BeginX", ToSheet: "1", ToCell: "PinX", Pos: visio.Pos{Line: 27, Col: 13}}) {
		t.Errorf("Connect = %+v", c)
	}
	box, line, text := pg.Shapes[0], pg.Shapes[1], pg.Shapes[2]
	if box.HasText || box.OneD || len(box.Props) != 3 || box.Pos != (visio.Pos{Line: 18, Col: 4}) {
		t.Errorf("before Resolve: box = %+v", box)
	}
	if _, ok := box.Prop("Size"); ok {
		t.Errorf("before Resolve: box has the master's Size")
	}

	doc.Resolve()
	doc.Resolve() // does nothing more
	if box.Master != doc.Masters[0] || box.Base != doc.Masters[0].Shapes[0] {
		t.Errorf("box.Master, Base = %v, %v", box.Master, box.Base)
	}
	if !box.HasText || box.Text != "box" || box.OneD {
		t.Errorf("box: text %q (%v), 1-D %v", box.Text, box.HasText, box.OneD)
	}
	color, ok := box.Prop("Color")
	if !ok || color.Value != "green" || color.Label != "Colour" || color.Format != "red; green" || color.Type != 1 || color.Set != visio.CellValue || color.Pos.Line != 19 {
		t.Errorf("box.Prop(Color) = %+v, %v", color, ok)
	}
	if got := color.List(); !slices.Equal(got, []string{"red", "green"}) {
		t.Errorf("List() = %q", got)
	}
	if size, ok := box.Prop("Size"); !ok || size.Value != "1" || size.Set != 0 || size.List() != nil || size.Pos.Line != 8 {
		t.Errorf("box.Prop(Size) = %+v, %v", size, ok)
	}
	if p, ok := box.Prop("Gone"); ok {
		t.Errorf("box.Prop(Gone) = %+v, want it deleted", p)
	}
	if p, ok := box.Prop("Own"); !ok || p.Value != "mine" {
		t.Errorf("box.Prop(Own) = %+v, %v", p, ok)
	}
	var rows []string
	for _, p := range box.EffectiveProps() {
		rows = append(rows, p.Row+"="+p.Value)
	}
	if want := []string{"Color=green", "Size=1", "Own=mine"}; !slices.Equal(rows, want) {
		t.Errorf("EffectiveProps() = %q, want %q", rows, want)
	}
	inner, broken := box.Shapes[0], box.Shapes[1]
	if inner.Master != doc.Masters[0] || inner.Base == nil || inner.Base.ID != "6" || inner.Text != "inner" || !inner.OneD {
		t.Errorf("member 2 = %+v", inner)
	}
	if broken.Base != nil {
		t.Errorf("member 3 Base = %+v", broken.Base)
	}
	if !line.OneD || line.HasText {
		t.Errorf("line: 1-D %v, text %v", line.OneD, line.HasText)
	}
	if text.Text != "own & field text" {
		t.Errorf("text = %q", text.Text)
	}
	if len(doc.Diagnostics) != 1 || !strings.Contains(doc.Diagnostics[0].Error(), `i.vdx:22:45: page "Seite 1", shape 3 "Sheet.3": warning: visio: shape refers to shape 9 of master "Box", which has no such shape`) {
		t.Errorf("Diagnostics = %v", doc.Diagnostics)
	}
}

// TestDecodeVDXFixtures checks the model of the drawings of testdata.
func TestDecodeVDXFixtures(t *testing.T) {
	for _, tt := range []struct {
		file                      string
		namespace                 string
		masters, pages            int
		shapes, connects, oneD    int // on the first page, top level
		shape, master, text, cell string
	}{
		{lucid, visio.NamespaceVDX2003, 4, 1, 48, 48, 24, "4", "3107", "Inicía a pesquisa de um estabelecimento", "Connections.X4"},
		{"testdata/dia_xvdtosvg_seq_test_visio2002.vdx", visio.NamespaceVDX2002, 10, 1, 21, 19, 19, "29", "", "Lifeline A", "Connections.X2"},
		{"testdata/visioautomation_vdx_with_warnings_1.vdx", visio.NamespaceVDX2003, 2, 1, 3, 2, 1, "1", "0", "Shape1", "PinX"},
		{"testdata/aspose_drp_basic_flowchart_3pages.vdx", visio.NamespaceVDX2003, 10, 3, 30, 14, 13, "1", "0", "DRP", "Connections.X4"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			doc, err := readDoc(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Namespace != tt.namespace || len(doc.Masters) != tt.masters || len(doc.Pages) != tt.pages {
				t.Fatalf("namespace %q, %d masters, %d pages", doc.Namespace, len(doc.Masters), len(doc.Pages))
			}
			pg := doc.Pages[0]
			doc.Resolve()
			oneD := 0
			for _, s := range pg.Shapes {
				if s.OneD {
					oneD++
				}
			}
			if len(pg.Shapes) != tt.shapes || len(pg.Connects) != tt.connects || oneD != tt.oneD {
				t.Errorf("%d shapes (%d 1-D), %d connects", len(pg.Shapes), oneD, len(pg.Connects))
			}
			i := slices.IndexFunc(pg.Shapes, func(s *visio.Shape) bool { return s.ID == tt.shape })
			if i < 0 {
				t.Fatalf("no shape %s", tt.shape)
			}
			s := pg.Shapes[i]
			if s.MasterID != tt.master || strings.TrimSpace(s.Text) != tt.text || s.Pos.Line == 0 {
				t.Errorf("shape %s: master %q, text %q at %+v", s.ID, s.MasterID, s.Text, s.Pos)
			}
			if pg.Connects[1].ToCell != tt.cell {
				t.Errorf("Connects[1] = %+v", pg.Connects[1])
			}
		})
	}
}

func readDoc(file string) (*visio.Document, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return visio.DecodeVDX(f, visio.Options{File: file})
}
