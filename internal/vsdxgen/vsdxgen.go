// Package vsdxgen writes Visio packages (.vsdx) for tests, benchmarks,
// fuzz corpora and examples: the drawings of package internal/vdxgen, in
// the format of Visio 2013 and later. A package is a zip of XML parts
// linked by relationship parts, as Visio writes them:
//
//	[Content_Types].xml, _rels/.rels
//	docProps/core.xml, docProps/app.xml
//	visio/document.xml, visio/_rels/document.xml.rels
//	visio/masters/masters.xml (+ _rels), visio/masters/master1.xml...
//	visio/pages/pages.xml (+ _rels), visio/pages/page1.xml (+ _rels)...
//
// Shapes carry their cells (Cell N='PinX' V='...'), their Shape Data rows
// (Section N='Property'; an instance's row gives only its value, the rest
// is inherited from its master), their text with a field, and the page's
// Connects. [Parts] returns the parts so that tests can damage them;
// [Zip] packs them ([Store] without compression); [Bytes] does both. [FromDocument] turns a drawing read
// by chart/visio (a .vdx) into a vdxgen.Drawing, so that a .vdx can be
// written again as a .vsdx.
//
// The output of a given Drawing never changes from one run to the next.
package vsdxgen

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// Part is a file of a package.
type Part struct {
	Name string // in the archive, without a leading '/': "visio/pages/page1.xml"
	Data []byte
}

// Namespaces and types of a Visio package.
const (
	NamespaceVSDX  = "http://schemas.microsoft.com/office/visio/2012/main"
	nsR            = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsRels         = "http://schemas.openxmlformats.org/package/2006/relationships"
	relVisio       = "http://schemas.microsoft.com/visio/2010/relationships/"
	ctVisio        = "application/vnd.ms-visio."
	ContentTypeDoc = "application/vnd.ms-visio.drawing.main+xml" // of visio/document.xml
)

// Options tunes the package written. The zero value writes a drawing.
type Options struct {
	// Stencil writes a .vssx: the document's content type says stencil,
	// and it has no pages.
	Stencil bool
	// Title is the document's title in docProps/core.xml; "" leaves it out.
	Title string
}

// Bytes returns the drawing as a .vsdx file.
func Bytes(d *vdxgen.Drawing, opt Options) []byte {
	return Zip(Parts(d, opt))
}

// Generate draws a chart of the given numbers of states and transitions
// with the Goomba stencil ([vdxgen.GenerateDrawing]) and returns it as a
// .vsdx file. States are laid out on a grid of 100 columns, at positions
// with as many digits as Visio writes, and each connector is routed with
// a bend, so that the parts do not compress like a file of repeated text:
// about 16 times (Visio's own parts: 4 to 8 times). It costs about 80 bytes
// of file (1.3 KB of XML) per shape, and panics if states < 1.
func Generate(states, transitions int) []byte {
	d := vdxgen.GenerateDrawing(states, transitions)
	pg := &d.Pages[0]
	const cols = 100
	pos := func(i int) (float64, float64) { // the centre of state i, from 0
		return 1 + float64(i%cols)*2.236067977499789 + float64(i%7)*0.0131, 1 + float64(i/cols)*1.618033988749895 + float64(i%11)*0.0173
	}
	for i := range pg.Shapes {
		s := &pg.Shapes[i]
		if !s.OneD {
			x, y := pos(i)
			s.XForm = &vdxgen.XForm{PinX: x, PinY: y, Width: 1.5 + float64(i%5)*0.0625, Height: 0.75}
		}
	}
	for j := 0; j+1 < len(pg.Connects); j += 2 {
		from, _ := strconv.Atoi(pg.Connects[j].To)
		to, _ := strconv.Atoi(pg.Connects[j+1].To)
		s := &pg.Shapes[states+j/2]
		bx, by := pos(from - 1)
		ex, ey := pos(to - 1)
		k := float64(j%13) * 0.01234567
		s.XForm = &vdxgen.XForm{BeginX: bx + 0.75, BeginY: by + k, EndX: ex - 0.75, EndY: ey - k}
	}
	pg.Width, pg.Height = 2+cols*2.236067977499789, 2+float64(states/cols+1)*1.618033988749895
	return Bytes(d, Options{Title: "generated"})
}

// Zip packs parts into a zip archive, in order, compressed with deflate,
// dated 1980-01-01 as Visio dates them.
func Zip(parts []Part) []byte { return pack(parts, zip.Deflate) }

// Store packs parts into a zip archive as Zip does, but without
// compression: faster to write, and its parts' text is in the file, for
// fuzzing.
func Store(parts []Part) []byte { return pack(parts, zip.Store) }

func pack(parts []Part, method uint16) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, p := range parts {
		f, err := w.CreateHeader(&zip.FileHeader{Name: p.Name, Method: method, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			panic("vsdxgen: " + err.Error()) // only for bad names, which Parts does not make
		}
		f.Write(p.Data) // a bytes.Buffer does not fail
	}
	if err := w.Close(); err != nil {
		panic("vsdxgen: " + err.Error())
	}
	return b.Bytes()
}

func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&apos;")
		case '\r':
			b.WriteString("&#xD;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

const xmlDecl = "<?xml version='1.0' encoding='utf-8' ?>\n"

// rels writes a relationships part.
func rels(rs ...[2]string) []byte {
	var b bytes.Buffer
	b.WriteString(xmlDecl)
	b.WriteString("<Relationships xmlns='" + nsRels + "'>")
	for i, r := range rs {
		fmt.Fprintf(&b, "<Relationship Id='rId%d' Type='%s' Target='%s'/>", i+1, r[0], esc(r[1]))
	}
	b.WriteString("</Relationships>\n")
	return b.Bytes()
}

// Parts returns the parts of the drawing as a package, [Content_Types].xml
// first. Masters are written to master1.xml..., pages to page1.xml..., in
// the drawing's order.
func Parts(d *vdxgen.Drawing, opt Options) []Part {
	docType := ContentTypeDoc
	if opt.Stencil {
		docType = "application/vnd.ms-visio.stencil.main+xml"
	}
	var parts []Part
	types := [][2]string{{"/visio/document.xml", docType}, {"/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml"},
		{"/docProps/app.xml", "application/vnd.openxmlformats-officedocument.extended-properties+xml"}}
	add := func(name string, data []byte) { parts = append(parts, Part{name, data}) }

	add("_rels/.rels", rels(
		[2]string{relVisio + "document", "visio/document.xml"},
		[2]string{"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties", "docProps/core.xml"},
		[2]string{"http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties", "docProps/app.xml"}))
	var core bytes.Buffer
	core.WriteString(xmlDecl)
	core.WriteString("<cp:coreProperties xmlns:cp='http://schemas.openxmlformats.org/package/2006/metadata/core-properties' xmlns:dc='http://purl.org/dc/elements/1.1/' xmlns:dcterms='http://purl.org/dc/terms/' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>")
	if opt.Title != "" {
		fmt.Fprintf(&core, "<dc:title>%s</dc:title>", esc(opt.Title))
	}
	core.WriteString("<dc:creator>fsmforge</dc:creator></cp:coreProperties>\n")
	add("docProps/core.xml", core.Bytes())
	add("docProps/app.xml", []byte(xmlDecl+"<Properties xmlns='http://schemas.openxmlformats.org/officeDocument/2006/extended-properties'><Application>fsmforge</Application><Template></Template></Properties>\n"))
	add("visio/document.xml", []byte(xmlDecl+documentXML))

	var docRels [][2]string
	masterPart := make(map[string]string) // master ID -> part name, relative to visio/masters
	if len(d.Masters) > 0 {
		docRels = append(docRels, [2]string{relVisio + "masters", "masters/masters.xml"})
		types = append(types, [2]string{"/visio/masters/masters.xml", ctVisio + "masters+xml"})
		var list bytes.Buffer
		var mrels [][2]string
		list.WriteString(xmlDecl + "<Masters xmlns='" + NamespaceVSDX + "' xmlns:r='" + nsR + "' xml:space='preserve'>")
		for i, m := range d.Masters {
			name := "master" + strconv.Itoa(i+1) + ".xml"
			masterPart[m.ID] = name
			mrels = append(mrels, [2]string{relVisio + "master", name})
			types = append(types, [2]string{"/visio/masters/" + name, ctVisio + "master+xml"})
			fmt.Fprintf(&list, "<Master ID='%s' NameU='%s' Name='%s' IconSize='1' AlignName='2' MatchByName='0' IconUpdate='1' PatternFlags='0' Hidden='0' MasterType='2'>", m.ID, esc(m.Name), esc(m.Name))
			list.WriteString("<PageSheet LineStyle='0' FillStyle='0' TextStyle='0'><Cell N='PageWidth' V='2'/><Cell N='PageHeight' V='1.25'/></PageSheet>")
			fmt.Fprintf(&list, "<Rel r:id='rId%d'/></Master>", i+1)
			var part bytes.Buffer
			part.WriteString(xmlDecl + "<MasterContents xmlns='" + NamespaceVSDX + "' xmlns:r='" + nsR + "' xml:space='preserve'><Shapes>")
			writeShape(&part, &m.Shape)
			part.WriteString("</Shapes></MasterContents>\n")
			add("visio/masters/"+name, part.Bytes())
		}
		list.WriteString("</Masters>\n")
		add("visio/masters/masters.xml", list.Bytes())
		add("visio/masters/_rels/masters.xml.rels", rels(mrels...))
	}
	if !opt.Stencil && len(d.Pages) > 0 {
		docRels = append(docRels, [2]string{relVisio + "pages", "pages/pages.xml"})
		types = append(types, [2]string{"/visio/pages/pages.xml", ctVisio + "pages+xml"})
		var list bytes.Buffer
		var prels [][2]string
		list.WriteString(xmlDecl + "<Pages xmlns='" + NamespaceVSDX + "' xmlns:r='" + nsR + "' xml:space='preserve'>")
		for i, pg := range d.Pages {
			name := "page" + strconv.Itoa(i+1) + ".xml"
			prels = append(prels, [2]string{relVisio + "page", name})
			types = append(types, [2]string{"/visio/pages/" + name, ctVisio + "page+xml"})
			bg := ""
			if pg.Background {
				bg = " Background='1'"
			}
			w, h := pg.Size()
			fmt.Fprintf(&list, "<Page ID='%s' NameU='%s' Name='%s'%s ViewScale='1'><PageSheet LineStyle='0' FillStyle='0' TextStyle='0'><Cell N='PageWidth' V='%g'/><Cell N='PageHeight' V='%g'/><Cell N='PageScale' V='1' U='IN_F'/><Cell N='DrawingScale' V='1' U='IN_F'/></PageSheet><Rel r:id='rId%d'/></Page>",
				pg.ID, esc(pg.Name), esc(pg.Name), bg, w, h, i+1)
			var part bytes.Buffer
			part.WriteString(xmlDecl + "<PageContents xmlns='" + NamespaceVSDX + "' xmlns:r='" + nsR + "' xml:space='preserve'><Shapes>")
			var used []string // the parts of the masters the page uses, in order
			for _, s := range pg.Shapes {
				writeShape(&part, &s)
				if mp, ok := masterPart[s.Master]; ok && !contains(used, mp) {
					used = append(used, mp)
				}
			}
			part.WriteString("</Shapes>")
			if len(pg.Connects) > 0 {
				part.WriteString("<Connects>")
				for _, c := range pg.Connects {
					from, to := "9", "100"
					if c.Cell == "EndX" {
						from = "12"
					}
					fmt.Fprintf(&part, "<Connect FromSheet='%s' FromCell='%s' FromPart='%s' ToSheet='%s' ToCell='Connections.X1' ToPart='%s'/>", c.From, c.Cell, from, c.To, to)
				}
				part.WriteString("</Connects>")
			}
			part.WriteString("</PageContents>\n")
			var urels [][2]string
			for _, mp := range used {
				urels = append(urels, [2]string{relVisio + "master", "../masters/" + mp})
			}
			add("visio/pages/"+name, part.Bytes())
			if len(urels) > 0 {
				add("visio/pages/_rels/"+name+".rels", rels(urels...))
			}
		}
		list.WriteString("</Pages>\n")
		add("visio/pages/pages.xml", list.Bytes())
		add("visio/pages/_rels/pages.xml.rels", rels(prels...))
	}
	add("visio/_rels/document.xml.rels", rels(docRels...))

	var ct bytes.Buffer
	ct.WriteString(xmlDecl + "<Types xmlns='http://schemas.openxmlformats.org/package/2006/content-types'>")
	ct.WriteString("<Default Extension='rels' ContentType='application/vnd.openxmlformats-package.relationships+xml'/><Default Extension='xml' ContentType='application/xml'/>")
	for _, t := range types {
		fmt.Fprintf(&ct, "<Override PartName='%s' ContentType='%s'/>", t[0], t[1])
	}
	ct.WriteString("</Types>\n")
	return append([]Part{{"[Content_Types].xml", ct.Bytes()}}, parts...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// documentXML is the document part: settings and the styles the shapes
// use (0 No Style, 2 Normal, 4 Connector).
const documentXML = `<VisioDocument xmlns='http://schemas.microsoft.com/office/visio/2012/main' xmlns:r='http://schemas.openxmlformats.org/officeDocument/2006/relationships' xml:space='preserve'>` +
	`<DocumentSettings TopPage='0' DefaultTextStyle='2' DefaultLineStyle='2' DefaultFillStyle='2' DefaultGuideStyle='0'><GlueSettings>9</GlueSettings><SnapSettings>295</SnapSettings><SnapExtensions>34</SnapExtensions><DynamicGridEnabled>1</DynamicGridEnabled><ProtectStyles>0</ProtectStyles><ProtectShapes>0</ProtectShapes><ProtectMasters>0</ProtectMasters><ProtectBkgnds>0</ProtectBkgnds></DocumentSettings>` +
	`<Colors><ColorEntry IX='0' RGB='#000000'/><ColorEntry IX='1' RGB='#FFFFFF'/></Colors>` +
	`<FaceNames><FaceName NameU='Arial' UnicodeRanges='-536859905 -1073711037 9 0' CharSets='1073742335 -65536' Panose='2 11 6 4 2 2 2 2 2 4' Flags='325'/></FaceNames>` +
	`<StyleSheets>` +
	`<StyleSheet ID='0' NameU='No Style' IsCustomNameU='1' Name='No Style' IsCustomName='1'><Cell N='EnableLineProps' V='1'/><Cell N='EnableFillProps' V='1'/><Cell N='EnableTextProps' V='1'/><Cell N='HideForApply' V='0'/><Cell N='LineWeight' V='0.01041666666666667'/><Cell N='LineColor' V='0'/><Cell N='LinePattern' V='1'/><Cell N='FillForegnd' V='1'/><Cell N='FillPattern' V='1'/><Cell N='VerticalAlign' V='1'/></StyleSheet>` +
	`<StyleSheet ID='2' NameU='Normal' IsCustomNameU='1' Name='Normal' IsCustomName='1' LineStyle='0' FillStyle='0' TextStyle='0'><Cell N='EnableLineProps' V='1'/><Cell N='EnableFillProps' V='1'/><Cell N='EnableTextProps' V='1'/><Cell N='HideForApply' V='0'/></StyleSheet>` +
	`<StyleSheet ID='4' NameU='Connector' IsCustomNameU='1' Name='Connector' IsCustomName='1' LineStyle='2' FillStyle='2' TextStyle='2'><Cell N='EnableLineProps' V='1'/><Cell N='EnableFillProps' V='1'/><Cell N='EnableTextProps' V='1'/><Cell N='HideForApply' V='0'/><Cell N='EndArrow' V='4'/></StyleSheet>` +
	`</StyleSheets>` +
	`<DocumentSheet NameU='TheDoc' IsCustomNameU='1' Name='TheDoc' IsCustomName='1' LineStyle='0' FillStyle='0' TextStyle='0'><Cell N='OutputFormat' V='0'/><Cell N='LockPreview' V='0'/><Cell N='AddMarkup' V='0'/><Cell N='ViewMarkup' V='0'/><Cell N='DocLangID' V='1033'/></DocumentSheet>` +
	`</VisioDocument>
`

// writeShape writes a shape with its cells, rows, text and members.
func writeShape(b *bytes.Buffer, s *vdxgen.Shape) {
	typ := s.Type
	if typ == "" {
		typ = "Shape"
		if len(s.Shapes) > 0 {
			typ = "Group"
		}
	}
	fmt.Fprintf(b, "<Shape ID='%s'", s.ID)
	if s.Name != "" {
		fmt.Fprintf(b, " NameU='%s' Name='%s'", esc(s.Name), esc(s.Name))
	}
	fmt.Fprintf(b, " Type='%s'", typ)
	if s.Master != "" {
		fmt.Fprintf(b, " Master='%s'", s.Master)
	} else {
		style := "2"
		if s.OneD {
			style = "4"
		}
		fmt.Fprintf(b, " LineStyle='%s' FillStyle='%s' TextStyle='%s'", style, style, style)
	}
	if s.MasterShape != "" {
		fmt.Fprintf(b, " MasterShape='%s'", s.MasterShape)
	}
	b.WriteString(">")
	for _, c := range s.Cells() {
		fmt.Fprintf(b, "<Cell N='%s' V='%s'/>", c[0], c[1])
	}
	if s.Relationships != "" {
		fmt.Fprintf(b, "<Cell N='Relationships' V='0' F='%s'/>", esc(s.Relationships))
	}
	if s.OneD && s.XForm != nil { // a dynamic connector's route: a bend halfway
		x := s.XForm
		dx, dy := x.EndX-x.BeginX, x.EndY-x.BeginY
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		fmt.Fprintf(b, "<Section N='Geometry' IX='0'><Cell N='NoFill' V='1'/><Cell N='NoLine' V='0'/><Cell N='NoShow' V='0'/><Cell N='NoSnap' V='0'/><Cell N='NoQuickDrag' V='0'/>"+
			"<Row T='MoveTo' IX='1'><Cell N='X' V='0'/><Cell N='Y' V='0'/></Row>"+
			"<Row T='LineTo' IX='2'><Cell N='X' V='%s'/><Cell N='Y' V='0'/></Row>"+
			"<Row T='LineTo' IX='3'><Cell N='X' V='%s'/><Cell N='Y' V='%s'/></Row>"+
			"<Row T='LineTo' IX='4'><Cell N='X' V='%s'/><Cell N='Y' V='%s'/></Row></Section>",
			f(dx/2), f(dx/2), f(dy), f(dx), f(dy))
	}
	if len(s.Props) > 0 {
		b.WriteString("<Section N='Property'>")
		for _, p := range s.Props {
			fmt.Fprintf(b, "<Row N='%s'", esc(p.Row))
			if p.Del {
				b.WriteString(" Del='1'/>")
				continue
			}
			fmt.Fprintf(b, "><Cell N='Value' V='%s' U='STR'/>", esc(p.Value))
			if !p.Inherit {
				fmt.Fprintf(b, "<Cell N='Prompt' V=''/><Cell N='Label' V='%s'/><Cell N='Format' V='%s'/><Cell N='Type' V='%d'/><Cell N='Invisible' V='0'/>", esc(p.Label), esc(p.Format), p.Type)
			}
			b.WriteString("</Row>")
		}
		b.WriteString("</Section>")
	}
	if s.Text != "" {
		fmt.Fprintf(b, "<Section N='Field'><Row IX='0'><Cell N='Value' V='%s' U='STR'/></Row></Section><Text><cp IX='0'/><fld IX='0'>%s</fld></Text>", esc(s.Text), esc(s.Text))
	}
	if len(s.Shapes) > 0 {
		b.WriteString("<Shapes>")
		for i := range s.Shapes {
			writeShape(b, &s.Shapes[i])
		}
		b.WriteString("</Shapes>")
	}
	b.WriteString("</Shape>")
}

// FromDocument turns a drawing read by chart/visio into a vdxgen.Drawing:
// masters (by universal name), pages, shapes with their geometry (a box's
// pin is taken as its centre), Shape Data rows (a row that sets only its
// value is written as an instance's row), text and glue. What the model
// does not hold (styles, geometry sections, connection points) is left
// out. doc need not be resolved.
func FromDocument(doc *visio.Document) *vdxgen.Drawing {
	d := &vdxgen.Drawing{}
	for _, m := range doc.Masters {
		vm := vdxgen.Master{ID: m.ID, Name: m.NameU}
		if vm.Name == "" {
			vm.Name = m.Name
		}
		if len(m.Shapes) > 0 {
			vm.Shape = fromShape(m.Shapes[0])
		}
		d.Masters = append(d.Masters, vm)
	}
	for _, pg := range doc.Pages {
		vp := vdxgen.Page{ID: pg.ID, Name: pg.NameU, Background: pg.Background, Width: pg.Width, Height: pg.Height}
		if vp.Name == "" {
			vp.Name = pg.Name
		}
		for _, s := range pg.Shapes {
			vp.Shapes = append(vp.Shapes, fromShape(s))
		}
		for _, c := range pg.Connects {
			vp.Connects = append(vp.Connects, vdxgen.Connect{From: c.FromSheet, Cell: c.FromCell, To: c.ToSheet})
		}
		d.Pages = append(d.Pages, vp)
	}
	return d
}

// relationships writes a Relationships formula for a container's members
// and a shape's containers.
func relationships(members, containers []string) string {
	var terms []string
	for _, l := range []struct {
		kind string
		ids  []string
	}{{"1", members}, {"4", containers}} {
		if len(l.ids) == 0 {
			continue
		}
		t := "DEPENDSON(" + l.kind
		for _, id := range l.ids {
			t += ",Sheet." + id + "!SheetRef()"
		}
		terms = append(terms, t+")")
	}
	return "SUM(" + strings.Join(terms, ",") + ")"
}

func fromShape(s *visio.Shape) vdxgen.Shape {
	vs := vdxgen.Shape{ID: s.ID, Name: s.NameU, Master: s.MasterID, MasterShape: s.MasterShapeID, Type: s.Type, OneD: s.OneD, Text: s.Text}
	if len(s.Members) > 0 || len(s.Containers) > 0 {
		vs.Relationships = relationships(s.Members, s.Containers)
	}
	if vs.Name == "" {
		vs.Name = s.Name
	}
	x := s.XForm
	const box = visio.XPinX | visio.XPinY | visio.XWidth | visio.XHeight
	const line = visio.XBeginX | visio.XBeginY | visio.XEndX | visio.XEndY
	switch {
	case s.OneD && x.Set&line == line:
		vs.XForm = &vdxgen.XForm{BeginX: x.BeginX, BeginY: x.BeginY, EndX: x.EndX, EndY: x.EndY}
	case !s.OneD && x.Set&box == box:
		vs.XForm = &vdxgen.XForm{PinX: x.PinX, PinY: x.PinY, Width: x.Width, Height: x.Height}
	}
	for _, p := range s.Props {
		vs.Props = append(vs.Props, vdxgen.Prop{Row: p.Row, Label: p.Label, Value: p.Value, Format: p.Format, Type: p.Type,
			Inherit: p.Set == visio.CellValue, Del: p.Deleted})
	}
	for _, m := range s.Shapes {
		vs.Shapes = append(vs.Shapes, fromShape(m))
	}
	return vs
}
