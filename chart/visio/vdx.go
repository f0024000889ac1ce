package visio

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
	"github.com/fsmforge/fsmforge/internal/xmlscan"
)

// The XML namespaces of Visio XML drawings.
const (
	NamespaceVDX2003 = "http://schemas.microsoft.com/visio/2003/core" // Visio 2003 to 2010
	NamespaceVDX2002 = "urn:schemas-microsoft-com:office:visio"       // Visio 2002
)

// NamespaceVSDX is the namespace of the XML parts of a Visio package
// (.vsdx, .vssx: Visio 2013 and later).
const NamespaceVSDX = "http://schemas.microsoft.com/office/visio/2012/main"

// namespaceV14 is the namespace of the cells Visio 2010 added to .vdx.
const namespaceV14 = "http://schemas.microsoft.com/office/visio/2010/extension"

// DecodeVDX reads a Visio XML drawing (.vdx, Visio 2002 to 2010) into a
// [Document], without interpreting it. Only Options.File, MaxSize,
// MaxDepth and MaxElements are used. It reads the whole file into memory
// (no more than MaxSize bytes) and keeps it there while the Document
// lives; see the package documentation for what a large drawing costs.
//
// The error, when not nil, is a [diag.List] holding one error with
// its position, which wraps [ErrTooLarge], [ErrNotVisio], [ErrMalformed] or
// [ErrTooDeep]; the Document is then nil. Problems that do not stop the
// reading are in Document.Diagnostics.
func DecodeVDX(r io.Reader, opt Options) (*Document, error) {
	return decodeVDX(r, opt, nil)
}

// readVDX reads a .vdx from r and interprets it, as Read does: the shapes
// and Connect rows of its pages go to the interpretation as they are
// parsed, and the Document never holds them.
func readVDX(r io.Reader, opt Options) (*chart.Chart, error) {
	in := newInterp(opt)
	if _, err := decodeVDX(r, opt, in); err != nil {
		return nil, err
	}
	return in.finish()
}

// decodeVDX is DecodeVDX; with in, the pages' shapes and Connect rows go
// to it instead of the Document (see pageStream). Their strings share
// memory with the file's text, which stays in memory until the reading
// ends: in copies only what the chart keeps.
func decodeVDX(r io.Reader, opt Options, in *interp) (*Document, error) {
	opt = opt.WithDefaults()
	src, err := readAll(r, opt)
	if err != nil {
		return nil, err
	}
	src, wasUTF16, err := sniff(src, opt.File)
	if err != nil {
		return nil, err
	}
	p := &parser{
		sc:       newScanner(src, opt.MaxDepth, wasUTF16),
		doc:      &Document{File: opt.File},
		maxDepth: opt.MaxDepth,
		maxElems: opt.MaxElements,
		in:       in,
	}
	if in != nil {
		in.doc = p.doc
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// readAll reads r, refusing more than opt.MaxSize bytes.
func readAll(r io.Reader, opt Options) (string, error) {
	src, err := source.ReadAll(r, opt.MaxSize)
	if errors.Is(err, source.ErrTooLarge) {
		return "", source.Fatal(opt.File, 0, 0, ErrTooLarge, "visio: the file is larger than "+source.SizeString(opt.MaxSize),
			"raise Options.MaxSize if the drawing really is this large")
	}
	if err != nil {
		return "", source.Fatal(opt.File, 0, 0, err, "visio: cannot read the drawing: "+err.Error(), "")
	}
	return src, nil
}

// sniff recognises what the file is before it is parsed as XML: it returns
// the text without its byte-order mark, in UTF-8, and whether it was UTF-16.
func sniff(src, file string) (string, bool, error) {
	notVisio := func(msg, hint string) (string, bool, error) {
		return "", false, source.Fatal(file, 0, 0, ErrNotVisio, "visio: "+msg, hint)
	}
	const saveAs = "open it in Visio and save it as \"XML Drawing (*.vdx)\""
	if src == "" {
		return notVisio("the file is empty", "")
	}
	text, enc, ok := source.DecodeText(src, false)
	switch {
	case !ok:
		return notVisio(fmt.Sprintf("the file starts like UTF-16 text but is not (UTF-16 has an even number of bytes; it has %d)", len(src)), "")
	case enc != source.NoBOM: // text with a byte-order mark
	case source.IsZip(src):
		return notVisio("this is a zip archive, probably a .vsdx drawing (Visio 2013 and later), not a Visio XML drawing", "read it with visio.Read or visio.DecodeVSDX, which read both")
	case strings.HasPrefix(src, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"):
		return notVisio("this is a binary Visio file (.vsd, .vss) or another OLE compound file, not a Visio XML drawing", saveAs)
	case strings.HasPrefix(src, "\x1F\x8B"):
		return notVisio("this is a gzip-compressed file, not a Visio XML drawing", "uncompress it first")
	case strings.HasPrefix(src, "MZ"):
		return notVisio("this is a Windows program or driver (the .vdx extension is also used for virtual device drivers), not a Visio drawing", "")
	}
	if what := source.NotXML(text, nil); what != "" {
		// As source.BinaryWhere, with the offset in the file and the line.
		var where string
		var l, c int
		if off, b := source.Binary(text); off >= 0 {
			where = "; " + b + fileOffset(enc, off)
			l, c = source.LineCol(text, off)
		}
		return "", false, source.Fatal(file, l, c, ErrNotVisio,
			fmt.Sprintf("visio: this is %s, not a Visio XML drawing (it starts with %s%s)", what, source.QuoteStart(text), where), "")
	}
	if off := source.InvalidUTF8(text); off >= 0 {
		l, c := source.LineCol(text, off)
		return "", false, source.Fatal(file, l, c, ErrMalformed, fmt.Sprintf("visio: malformed XML: invalid UTF-8 (byte 0x%02X%s)", text[off], fileOffset(enc, off)),
			"the file may be in another encoding or damaged; Visio writes UTF-8")
	}
	return text, enc.UTF16(), nil
}

// fileOffset says where the offset off of a file's text, in encoding
// enc, is in the file: " at byte offset 37"; "" for UTF-16 text, decoded
// before it is read, where the line and column say.
func fileOffset(enc source.Encoding, off int) string {
	switch enc {
	case source.UTF8BOM:
		off += 3
	case source.UTF16BOM, source.UTF16Bare:
		return ""
	}
	return " at byte offset " + strconv.Itoa(off)
}

// newScanner returns a scanner of a .vdx file or a .vsdx part, src, whose
// groups may nest maxDepth deep (a group level is two XML elements); utf16
// says src was UTF-16.
func newScanner(src string, maxDepth int, utf16 bool) *xmlscan.Scanner {
	sc := xmlscan.New(src, 2*maxDepth+32)
	sc.UTF16, sc.Editor = utf16, "Visio"
	return sc
}

// parser fills a Document from the tokens of a .vdx file, or of the XML
// parts of a .vsdx package, one after the other.
type parser struct {
	sc       *xmlscan.Scanner
	doc      *Document
	part     string      // the part being read, for a package
	pr       *partReader // what reads it
	own      *owner      // for a package: copies the strings kept out of the part
	maxDepth int         // of groups
	fatal    error       // a problem that stops the reading (not malformed XML)
	oneD     int         // the 1-D shapes of the page, so far

	// The elements kept so far (shapes, rows, Connect rows...), and the
	// most that may be: Options.MaxElements.
	elems, maxElems int

	// Shapes and rows are allocated in blocks; the slices of a shape's
	// members and rows are gathered on stacks and then copied to their
	// exact size, so that a large drawing costs few allocations.
	shapeBlock importer.Block[Shape]
	propBlock  importer.Block[Prop]
	shapeStack []*Shape
	propStack  []Prop

	// stream, while a page is read by Read, takes the page's shapes and
	// Connect rows instead of the Document; in is Read's interpretation,
	// and pages its stream of a .vdx's pages (see parser.pagesStart).
	stream *pageStream
	in     *interp
	pages  *pageStream
}

// count counts n more elements the Document or the interpretation keeps
// against Options.MaxElements: shapes, Shape Data rows, Connect rows,
// pages, masters, the shapes a Relationships cell names, custom properties
// and content types. Past the limit, it stops the reading with an error
// wrapping [ErrTooLarge] and returns false.
func (p *parser) count(n int) bool {
	p.elems += n
	if p.elems <= p.maxElems {
		return true
	}
	if p.fatal == nil {
		l, c := p.sc.LineCol(p.sc.Offset())
		p.fatal = source.Fatal(p.file(), l, c, ErrTooLarge,
			fmt.Sprintf("visio: the drawing has more than %d elements (shapes, Shape Data rows, Connect rows, pages and masters, all together)", p.maxElems),
			chart.LimitHint("MaxElements"))
	}
	return false
}

// pageStream hands the shapes and Connect rows of a page to an
// interpretation as the parser reads them (Read of a package), instead of
// keeping them in the Document: each top-level shape, once read with its
// members, is resolved and collected, and its memory then serves the
// next. Its strings share memory with the part's text (the parser has no
// owner then): the interpretation copies what it keeps.
type pageStream struct {
	in      *interp
	sh      *sheet // nil for a background page: its shapes are only resolved
	pg      *Page
	masters map[string]*Master
	read    bool   // the page's shapes are read (pg.Shapes would not be nil)
	own     *owner // the parser's, while the page is read (see startPage)

	pool  []*Shape // the shapes of the top-level shape being read
	used  int
	props []Prop // their rows
}

// startPage starts reading the shapes and Connect rows of page pg: into
// pg, or with a stream ps (not nil), into the stream's interpretation.
// A stream's strings are the part's text (the parser copies none: the
// interpretation copies what it keeps).
func (p *parser) startPage(ps *pageStream, pg *Page) {
	p.oneD = 0
	if ps == nil {
		return
	}
	ps.pg, ps.sh, ps.read = pg, nil, false
	if !pg.Background {
		ps.sh = ps.in.beginPage(pg)
	}
	ps.own, p.own = p.own, nil
	p.stream = ps
}

// finishPage ends the reading of the page startPage started.
func (p *parser) finishPage() {
	ps := p.stream
	if ps == nil {
		return
	}
	if ps.sh != nil {
		ps.in.endPage(ps.sh)
	}
	p.stream, p.own = nil, ps.own
}

// newShape returns a new shape, zero or to be overwritten.
func (p *parser) newShape() *Shape {
	ps := p.stream
	if ps == nil {
		return p.shapeBlock.New()
	}
	if ps.used == len(ps.pool) {
		ps.pool = append(ps.pool, new(Shape))
	}
	ps.used++
	return ps.pool[ps.used-1]
}

// keepProps returns a copy of a shape's rows.
func (p *parser) keepProps(rows []Prop) []Prop {
	ps := p.stream
	if ps == nil {
		return p.propBlock.Keep(rows)
	}
	if len(rows) == 0 {
		return nil
	}
	i := len(ps.props)
	ps.props = append(ps.props, rows...)
	return ps.props[i:len(ps.props):len(ps.props)]
}

// shape resolves and collects a top-level shape read, then frees its
// memory for the next.
func (ps *pageStream) shape(s *Shape) {
	ps.in.doc.resolve(ps.masters, ps.pg, s, nil)
	if ps.sh != nil {
		ps.in.collect(ps.sh, s)
	}
	for _, x := range ps.pool[:ps.used] {
		*x = Shape{}
	}
	ps.used = 0
	clear(ps.props)
	ps.props = ps.props[:0]
}

func (p *parser) pos() Pos {
	l, c := p.sc.LineCol(p.sc.Offset())
	return Pos{Part: p.part, Line: l, Col: c}
}

// file names the file, or the part being read, in fatal errors.
func (p *parser) file() string {
	if p.part != "" {
		return p.doc.File + "!" + p.part
	}
	return p.doc.File
}

// visio reports whether the current element is in the drawing's namespace.
func (p *parser) visio() bool { return p.sc.Space() == p.doc.Namespace }

// child moves to the next child element of the element at depth d; it
// returns false when that element ends.
func (p *parser) child(d int) bool {
	return p.fatal == nil && p.sc.Child(d)
}

// element moves to the next child element of the element at depth d that
// is local in namespace space, skipping the others, and counts it (see
// count); it returns false when that element ends, or the count stops the
// reading.
func (p *parser) element(d int, space, local string) bool {
	for p.child(d) {
		if p.sc.Space() == space && p.sc.Local() == local && p.count(1) {
			return true
		}
		p.sc.Skip()
	}
	return false
}

func (p *parser) parse() error {
	sc := p.sc
	for sc.Next() && sc.Kind() != xmlscan.StartTag {
	}
	if sc.Err() != nil {
		return p.syntaxError()
	}
	switch {
	case sc.Local() == "VisioDocument" && (sc.Space() == NamespaceVDX2003 || sc.Space() == NamespaceVDX2002):
	case sc.Local() == "VisioDocument" && sc.Space() == NamespaceVSDX:
		return p.notVisio("this is the document part of a .vsdx package (namespace "+NamespaceVSDX+"), not a Visio XML drawing", "")
	case sc.Local() == "VisioDocument":
		return p.notVisio(fmt.Sprintf("<VisioDocument> is in namespace %s; a Visio XML drawing's is %q (or Visio 2002's %q)", quote(sc.Space()), NamespaceVDX2003, NamespaceVDX2002), "")
	default:
		return p.notVisio(fmt.Sprintf("this is XML but not a Visio drawing: its root element is <%s>%s, not <VisioDocument>", short(xmlscan.QName(sc.Prefix(), sc.Local())), inNamespace(sc.Space())), "")
	}
	p.doc.Namespace = sc.Space()
	for p.child(1) {
		if !p.visio() {
			sc.Skip()
			continue
		}
		switch sc.Local() {
		case "DocumentProperties":
			for p.child(2) {
				switch {
				case !p.visio():
					sc.Skip()
				case sc.Local() == "Title":
					p.doc.Title = strings.TrimSpace(sc.Text())
				case sc.Local() == "CustomProps":
					p.customProps(3)
				default:
					sc.Skip()
				}
			}
		case "Masters":
			if p.pages != nil {
				p.doc.rep.add(&p.doc.Diagnostics, diag.Diagnostic{
					Pos: chartPos(p.doc.File, p.pos(), nil, nil, ""), Severity: diag.Warning,
					Message: "visio: the masters come after the pages, where Visio never writes them: the pages' shapes were read without their masters",
					Hint:    "the file was written by another program; open it in Visio and save it again",
				}, "masters late")
			}
			for p.child(2) {
				if p.visio() && sc.Local() == "Master" {
					p.master()
				} else {
					sc.Skip()
				}
			}
		case "Pages":
			p.pagesStart()
			for p.child(2) {
				if p.visio() && sc.Local() == "Page" {
					p.page()
				} else {
					sc.Skip()
				}
			}
		default:
			sc.Skip()
		}
	}
	if p.fatal != nil {
		return p.fatal
	}
	for sc.Next() { // after the root: comments and white space only
	}
	if sc.Err() != nil {
		return p.syntaxError()
	}
	return nil
}

func inNamespace(space string) string {
	if space == "" {
		return ""
	}
	return " (namespace " + quote(space) + ")"
}

func (p *parser) notVisio(msg, hint string) error {
	l, c := p.sc.LineCol(p.sc.Offset())
	return source.Fatal(p.file(), l, c, ErrNotVisio, "visio: "+msg, hint)
}

func (p *parser) syntaxError() error {
	e := p.sc.Err()
	l, c := p.sc.LineCol(e.Offset)
	switch {
	case e.Deep:
		return source.Fatal(p.file(), l, c, ErrTooDeep, "visio: "+e.Msg, chart.LimitHint("MaxDepth"))
	case e.TooManyAttrs:
		return source.Fatal(p.file(), l, c, ErrTooLarge, "visio: "+e.Msg, "no drawing has this many attributes on one element: the file is damaged, or made to exhaust its reader")
	}
	hint := "the file is damaged or was not written by Visio; open it in an XML editor at this line"
	if p.part != "" {
		hint = "the drawing is damaged or was not written by Visio; unzip it and open the part in an XML editor at this line"
	}
	return source.Fatal(p.file(), l, c, ErrMalformed, "visio: malformed XML: "+e.Msg, hint)
}

// pagesStart starts reading the pages of a .vdx: for Read, it makes the
// stream that hands their shapes to the interpretation, resolved against
// the masters read (Visio writes them before the pages).
func (p *parser) pagesStart() {
	if p.in == nil || p.pages != nil {
		return
	}
	p.pages = &pageStream{in: p.in, masters: p.doc.masterIndex()}
	p.doc.resolved = true
}

// customProps reads the <CustomProp> elements of a .vdx's <CustomProps>
// at depth d.
func (p *parser) customProps(d int) {
	sc := p.sc
	for p.element(d, p.doc.Namespace, "CustomProp") {
		name, at := sc.Attr("Name"), p.pos()
		p.doc.CustomProps = append(p.doc.CustomProps, CustomProp{Name: name, Value: sc.Text(), Pos: at})
	}
}

func (p *parser) master() {
	sc := p.sc
	if !p.count(1) {
		sc.Skip()
		return
	}
	m := &Master{ID: sc.Attr("ID"), NameU: sc.Attr("NameU"), Name: sc.Attr("Name"), Pos: p.pos()}
	d := sc.Depth()
	for p.child(d) {
		if p.visio() && sc.Local() == "Shapes" {
			m.Shapes = p.shapes(0)
		} else {
			sc.Skip()
		}
	}
	p.doc.Masters = append(p.doc.Masters, m)
}

func (p *parser) page() {
	sc := p.sc
	if !p.count(1) {
		sc.Skip()
		return
	}
	bg := sc.Attr("Background")
	pg := &Page{
		ID: sc.Attr("ID"), NameU: sc.Attr("NameU"), Name: sc.Attr("Name"),
		Background: bg == "1" || strings.EqualFold(bg, "true"), BackPage: sc.Attr("BackPage"),
		Pos: p.pos(),
	}
	p.startPage(p.pages, pg)
	shapes := false // read: a second <Shapes> is not
	d := sc.Depth()
	for p.child(d) {
		switch {
		case !p.visio():
			sc.Skip()
		case sc.Local() == "PageSheet":
			p.pageSheet(pg, d+1)
		case sc.Local() == "Shapes" && !shapes:
			shapes = true
			pg.Shapes = p.shapes(0)
		case sc.Local() == "Connects":
			p.connects(pg, d+1)
		default:
			sc.Skip()
		}
	}
	p.finishPage()
	p.doc.Pages = append(p.doc.Pages, pg)
}

// pageSheet reads a .vdx page's <PageSheet> at depth d: the page's size
// and its Shape Data rows.
func (p *parser) pageSheet(pg *Page, d int) {
	sc := p.sc
	rows := len(p.propStack)
	for p.child(d) {
		switch {
		case !p.visio():
			sc.Skip()
		case sc.Local() == "PageProps":
			for p.child(d + 1) {
				switch {
				case !p.visio():
					sc.Skip()
				case sc.Local() == "PageWidth":
					pg.Width = number(sc.Text())
				case sc.Local() == "PageHeight":
					pg.Height = number(sc.Text())
				default:
					sc.Skip()
				}
			}
		case sc.Local() == "Prop":
			if p.count(1) {
				p.propStack = append(p.propStack, p.prop())
			}
		default:
			sc.Skip()
		}
	}
	pg.Props = append(pg.Props, p.propStack[rows:]...)
	p.propStack = p.propStack[:rows]
}

// number reads a cell's value as a number of inches; 0 if it is not one.
func number(v string) float64 {
	var x XForm
	x.setCell("Width", v)
	return x.Width
}

// connects reads the <Connect> elements of a <Connects> element at depth
// d into pg.
func (p *parser) connects(pg *Page, d int) {
	sc := p.sc
	for p.element(d, p.doc.Namespace, "Connect") {
		if ps := p.stream; ps != nil {
			if ps.sh != nil {
				c := Connect{
					FromSheet: sc.Attr("FromSheet"), FromCell: sc.Attr("FromCell"),
					ToSheet: sc.Attr("ToSheet"), ToCell: sc.Attr("ToCell"),
					Pos: p.pos(),
				}
				ps.in.connectLater(ps.sh, &c)
			}
			sc.Skip()
			continue
		}
		if len(pg.Connects) == cap(pg.Connects) {
			// Room for both ends of the page's connectors (its 1-D
			// shapes come before its Connects), then double: append
			// grows large slices by 1.25.
			pg.Connects = slices.Grow(pg.Connects, max(16, len(pg.Connects), 2*p.oneD-len(pg.Connects)))
		}
		own := p.own
		pg.Connects = append(pg.Connects, Connect{
			FromSheet: own.str(sc.Attr("FromSheet")), FromCell: own.str(sc.Attr("FromCell")),
			ToSheet: own.str(sc.Attr("ToSheet")), ToCell: own.str(sc.Attr("ToCell")),
			Pos: p.pos(),
		})
		sc.Skip()
	}
}

// shapes reads a <Shapes> element whose shapes are nested group levels
// deep.
func (p *parser) shapes(group int) []*Shape {
	sc := p.sc
	if group > p.maxDepth {
		l, c := sc.LineCol(sc.Offset())
		p.fatal = source.Fatal(p.file(), l, c, ErrTooDeep,
			fmt.Sprintf("visio: groups nested more than %d deep", p.maxDepth),
			"ungroup the shapes, or raise Options.MaxDepth if the drawing really nests groups this deep")
		return nil
	}
	base := len(p.shapeStack)
	d := sc.Depth()
	for p.element(d, p.doc.Namespace, "Shape") {
		var s *Shape
		if p.doc.Namespace == NamespaceVSDX {
			s = p.shapeVSDX(group)
		} else {
			s = p.shape(group)
		}
		if group == 0 && p.stream != nil {
			if p.shapeStack == nil {
				p.shapeStack = make([]*Shape, 0, 16) // as if s were kept there: see below
			}
			p.stream.shape(s)
			continue
		}
		p.shapeStack = append(p.shapeStack, s)
	}
	if group == 0 && p.stream != nil {
		// The shapes Clone below would return are nil when the stack
		// has never held a shape.
		ps := p.stream
		ps.read = p.shapeStack != nil
		if ps.sh != nil && ps.read {
			ps.sh.shapesRead = true // no other <Shapes> is read: Connect rows can be
		}
		return nil
	}
	out := slices.Clone(p.shapeStack[base:])
	clear(p.shapeStack[base:])
	p.shapeStack = p.shapeStack[:base]
	return out
}

func (p *parser) shape(group int) *Shape {
	sc := p.sc
	s := p.newShape()
	*s = Shape{
		ID: sc.Attr("ID"), NameU: sc.Attr("NameU"), Name: sc.Attr("Name"), Type: sc.Attr("Type"),
		MasterID: sc.Attr("Master"), MasterShapeID: sc.Attr("MasterShape"),
		Pos: p.pos(),
	}
	rows := len(p.propStack)
	d := sc.Depth()
	for p.child(d) {
		if !p.visio() {
			if sc.Space() == namespaceV14 && sc.Local() == "Layout" {
				p.layout(s)
			} else {
				sc.Skip()
			}
			continue
		}
		switch sc.Local() {
		case "Text":
			s.Text, s.HasText = normText(sc.Text()), true
		case "XForm", "XForm1D":
			s.OneD = s.OneD || sc.Local() == "XForm1D"
			for p.child(d + 1) {
				if p.visio() {
					s.XForm.setCell(sc.Local(), sc.Text())
				} else {
					sc.Skip()
				}
			}
		case "Prop":
			if p.count(1) {
				p.propStack = append(p.propStack, p.prop())
			}
		case "Shapes":
			s.Shapes = p.shapes(group + 1)
		default:
			sc.Skip()
		}
	}
	if s.OneD {
		p.oneD++
	}
	s.Props = p.keepProps(p.propStack[rows:])
	p.propStack = p.propStack[:rows]
	return s
}

// layout reads the Relationships cell of a Visio 2010 <v14:Layout>.
func (p *parser) layout(s *Shape) {
	sc := p.sc
	d := sc.Depth()
	for p.child(d) {
		if sc.Space() == namespaceV14 && sc.Local() == "Relationships" {
			f := sc.Attr("F")
			s.Members, s.Containers = dependsOn(f, "1"), dependsOn(f, "4")
			p.count(len(s.Members) + len(s.Containers))
		}
		sc.Skip()
	}
}

// propCells maps the elements of a <Prop> to its cells.
var propCells = map[string]Cells{"Label": CellLabel, "Value": CellValue, "Format": CellFormat, "Prompt": CellPrompt, "Type": CellType}

func (p *parser) prop() Prop {
	sc := p.sc
	pr := Prop{Name: sc.Attr("Name"), Deleted: sc.Attr("Del") == "1", Pos: p.pos()}
	pr.Row = rowName(sc.Attr("NameU"), pr.Name, sc.Attr("ID"))
	d := sc.Depth()
	for p.child(d) {
		cell, ok := propCells[sc.Local()]
		if !ok || !p.visio() {
			sc.Skip()
			continue
		}
		inherited := sc.Attr("F") == "Inh"
		pr.setCell(cell, sc.Text(), inherited)
	}
	return pr
}

// setCell sets the cell of a row to v; inherited says the file marks the
// value as the master's (F='Inh').
func (pr *Prop) setCell(cell Cells, v string, inherited bool) {
	switch cell {
	case CellLabel:
		pr.Label = v
	case CellValue:
		pr.Value = v
	case CellFormat:
		pr.Format = v
	case CellPrompt:
		pr.Prompt = v
	case CellType:
		pr.Type, _ = strconv.Atoi(strings.TrimSpace(v))
	}
	if !inherited {
		pr.Set |= cell
	}
}
