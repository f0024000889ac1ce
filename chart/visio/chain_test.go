package visio_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// vdxCustom returns the Goomba as a .vdx whose document has the custom
// properties props (name, value) and whose page's sheet has the Shape
// Data rows rows (name, value).
func vdxCustom(props, rows [][2]string) []byte {
	src := string(goomba(nil).Bytes())
	var custom, sheet strings.Builder
	for _, p := range props {
		custom.WriteString("<CustomProp Name='" + p[0] + "' PropType='String'>" + p[1] + "</CustomProp>")
	}
	for i, r := range rows {
		sheet.WriteString("<Prop NameU='" + r[0] + "' ID='" + string(rune('1'+i)) + "'><Value Unit='STR'>" + r[1] + "</Value><Label>" + r[0] + "</Label><Type>0</Type></Prop>")
	}
	src = strings.Replace(src, "<Creator>fsmforge tests</Creator>", "<Creator>fsmforge tests</Creator><CustomProps>"+custom.String()+"</CustomProps>", 1)
	i := strings.LastIndex(src, "</PageProps></PageSheet>") + len("</PageProps>") // the page's, after the masters'
	src = src[:i] + sheet.String() + src[i:]
	return []byte(src)
}

// vsdxCustom returns the Goomba as a .vsdx whose docProps/custom.xml holds
// the custom properties props (name, and the value element: "<vt:bool>true</vt:bool>"),
// when not nil, and whose page's sheet has the Shape Data rows rows.
func vsdxCustom(props, rows [][2]string) []byte {
	parts := goombaParts()
	if props != nil {
		var b strings.Builder
		b.WriteString("<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n<Properties xmlns='http://schemas.openxmlformats.org/officeDocument/2006/custom-properties' xmlns:vt='http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes'>")
		for i, p := range props {
			b.WriteString("<property fmtid='{D5CDD505-2E9C-101B-9397-08002B2CF9AE}' pid='" + string(rune('2'+i)) + "' name='" + p[0] + "'>" + p[1] + "</property>")
		}
		b.WriteString("</Properties>\n")
		parts = withPart(parts, "docProps/custom.xml", []byte(b.String()))
		parts = editPart(parts, "_rels/.rels", "</Relationships>",
			"<Relationship Id='rId9' Type='http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties' Target='docProps/custom.xml'/></Relationships>")
		parts = editPart(parts, "[Content_Types].xml", "</Types>",
			"<Override PartName='/docProps/custom.xml' ContentType='application/vnd.openxmlformats-officedocument.custom-properties+xml'/></Types>")
	}
	if rows != nil {
		var b strings.Builder
		b.WriteString("<Section N='Property'>")
		for _, r := range rows {
			b.WriteString("<Row N='" + r[0] + "'><Cell N='Value' V='" + r[1] + "' U='STR'/><Cell N='Label' V='" + r[0] + "'/></Row>")
		}
		b.WriteString("</Section></PageSheet>")
		parts = editPart(parts, "visio/pages/pages.xml", "</PageSheet>", b.String())
	}
	return vsdxgen.Zip(parts)
}

// TestChain reads the chaining a drawing asks for: from the document's
// custom properties, in both containers, or else from the Shape Data of
// its page; a value that cannot be read is a warning. Interpret reads the
// same from the Document (see checkAsDocument).
func TestChain(t *testing.T) {
	st := charttest.Stencil(t)
	vt := func(kind, v string) string { return "<vt:" + kind + ">" + v + "</vt:" + kind + ">" }
	for _, tt := range []struct {
		name  string
		data  []byte
		chain bool
		limit int
		diags []wantDiag
	}{
		{"none", vdxCustom(nil, nil), false, 0, nil},
		{"vdx custom", vdxCustom([][2]string{{"Author&apos;s note", "x"}, {"fsmforgeChain", "true"}, {"fsmforgeChainLimit", "12"}}, nil), true, 12, nil},
		{"vdx custom 1, no limit", vdxCustom([][2]string{{"FSMFORGECHAIN", " 1 "}}, nil), true, 0, nil},
		{"vdx custom off", vdxCustom([][2]string{{"fsmforgeChain", "no"}, {"fsmforgeChainLimit", "4"}}, nil), false, 4, nil},
		{"vdx custom bad", vdxCustom([][2]string{{"fsmforgeChain", "perhaps"}, {"fsmforgeChainLimit", "70000"}}, nil), false, 0, []wantDiag{
			{diag.Warning, `c.vdx:3:86: warning: visio: fsmforgeChain "perhaps" is not 1 or 0 (true or false); ignored`},
			{diag.Warning, `warning: visio: fsmforgeChainLimit "70000" is not a whole number from 0 to 65535; ignored`}}},
		{"vdx page", vdxCustom(nil, [][2]string{{"fsmforgeChain", "TRUE"}, {"fsmforgeChainLimit", "3"}}), true, 3, nil},
		{"vdx page bad", vdxCustom(nil, [][2]string{{"fsmforgeChainLimit", "-1"}}), false, 0, []wantDiag{
			{diag.Warning, `page "Page-1": warning: visio: fsmforgeChainLimit "-1" is not a whole number from 0 to 65535; ignored`}}},
		{"vdx custom before page", vdxCustom([][2]string{{"fsmforgeChainLimit", "5"}}, [][2]string{{"fsmforgeChain", "1"}}), false, 5, nil},
		{"vsdx custom", vsdxCustom([][2]string{{"fsmforgeChain", vt("bool", "true")}, {"fsmforgeChainLimit", vt("i4", "9")}}, nil), true, 9, nil},
		{"vsdx custom number", vsdxCustom([][2]string{{"fsmforgeChainLimit", vt("r8", "7.0")}}, nil), false, 7, nil},
		{"vsdx custom bad", vsdxCustom([][2]string{{"fsmforgeChain", vt("lpwstr", "oui")}, {"fsmforgeChainLimit", vt("r8", "2.5")}}, nil), false, 0, []wantDiag{
			{diag.Warning, `c.vdx!docProps/custom.xml:2:`},
			{diag.Warning, `warning: visio: fsmforgeChainLimit "2.5" is not a whole number from 0 to 65535; ignored`}}},
		{"vsdx page", vsdxCustom(nil, [][2]string{{"fsmforgeChain", "1"}}), true, 0, nil},
		{"vsdx page bad", vsdxCustom(nil, [][2]string{{"fsmforgeChain", "2"}}), false, 0, []wantDiag{
			{diag.Warning, `c.vdx!visio/pages/pages.xml:2:`}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, o := range []visio.Options{{File: "c.vdx", Stencil: st}, {File: "c.vdx"}} {
				c, err := visio.Read(bytes.NewReader(tt.data), o)
				if c == nil {
					t.Fatalf("Read = nil, %v", err)
				}
				checkChart(t, c, err)
				checkAsDocument(t, tt.data, o, c, err) // the Document's CustomProps and Page.Props
				if c.Chain != tt.chain || c.ChainLimit != tt.limit {
					t.Errorf("Read(stencil %v) = Chain %v, ChainLimit %d, want %v, %d", o.Stencil != nil, c.Chain, c.ChainLimit, tt.chain, tt.limit)
				}
				var diags diag.List
				for _, d := range c.Diagnostics {
					if strings.Contains(d.Message, "fsmforgeChain") {
						diags = append(diags, d)
					}
				}
				checkDiags(t, diags, tt.diags)
			}
		})
	}
}

// TestCustomPropsPart reads a package whose relationships lead to a
// custom properties part it does not have: a warning.
func TestCustomPropsPart(t *testing.T) {
	data := vsdxCustom([][2]string{{"fsmforgeChain", "<vt:bool>true</vt:bool>"}}, nil)
	parts := withPart(unzipParts(t, data), "docProps/custom.xml", nil)
	c, err := visio.Read(bytes.NewReader(vsdxgen.Zip(parts)), visio.Options{File: "m.vsdx", Stencil: charttest.Stencil(t)})
	if err != nil || c.Chain {
		t.Fatalf("Read = Chain %v, %v", c.Chain, err)
	}
	checkDiags(t, c.Diagnostics, []wantDiag{{diag.Warning, `m.vsdx!_rels/.rels:2:499: warning: visio: the package has no part docProps/custom.xml, where its relationships say the document's custom properties are; they are left out`}})
}
