package drawio

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
	"github.com/fsmforge/fsmforge/internal/xmlscan"
)

// document is a draw.io file as read, before any interpretation: its
// pages and their cells.
type document struct {
	file  string
	pages []*page
	diags diag.List // what the decoder ignored
}

// page is a <diagram> of an mxfile, or the one page of a bare
// mxGraphModel.
type page struct {
	id, name  string
	index     int  // from 0, in file order
	line, col int  // of the <diagram> element in the file; 0 if not in it
	inFile    bool // the cells' line and column are positions in the file
	cells     []cell
}

// label names the page as the designer sees it, in positions and
// messages: its name (shortened to maxName runes), or "Page-N".
func (p *page) label() string {
	if p.name != "" {
		return importer.Shorten(p.name, maxName)
	}
	return "Page-" + strconv.Itoa(p.index+1)
}

// cell is an mxCell, with the attributes of the object or UserObject
// element that wraps it ("Edit Data" in draw.io), if any.
type cell struct {
	id, parent     string
	source, target string
	value          string // the value attribute, or the wrapper's label: HTML when the style says html=1
	style          string
	vertex, edge   bool
	wrapper        string // the wrapper's element name ("UserObject", "object"), or ""
	attrs          []attr // the wrapper's attributes but id and label, in file order
	geo            geometry
	line, col      int // of the cell (its wrapper's) element; 0 if unknown
}

// attr is an attribute of a wrapper: a custom property of the cell.
type attr struct {
	name string
	raw  string // as written: references not replaced
}

// get returns the wrapper attribute called name.
func (c *cell) get(name string) (string, bool) {
	for i := range c.attrs {
		if c.attrs[i].name == name {
			return xmlscan.Unescape(c.attrs[i].raw), true
		}
	}
	return "", false
}

// geometry is a cell's mxGeometry.
type geometry struct {
	set                      bool // the cell has an mxGeometry
	x, y, w, h               float64
	relative                 bool
	sourcePoint, targetPoint bool // an edge's loose ends
	sourceX, sourceY         float64
	targetX, targetY         float64
	badNumber                string // an attribute that is not a number, for a diagnostic
}

// decoder holds the state of one decode call.
type decoder struct {
	opt    Options // with its defaults
	doc    *document
	budget int64 // bytes that compressed content may still inflate to
	labels int64 // bytes that labels with placeholders may still grow to
	cells  int   // cells, wrappers and pages read, against opt.MaxElements
	props  int   // attributes of wrappers read, against opt.MaxElements too

	// Wrappers without an mxCell: how many, and the note about the last
	// one reported (the first maxRepeats are).
	noCell, noCellNote int

	// Reused from one compressed page to the next.
	flate io.ReadCloser
	buf   []byte
}

// decode reads a draw.io file into a document.
func decode(r io.Reader, opt Options) (*document, error) {
	src, err := readAll(r, opt)
	if err != nil {
		return nil, err
	}
	d := &decoder{opt: opt, doc: &document{file: opt.File}, budget: opt.MaxSize, labels: opt.MaxSize}
	if strings.HasPrefix(src, pngSignature) {
		text, err := d.png(src)
		if err != nil {
			return nil, err
		}
		if err := d.xmlIn(text, "the diagram of the PNG", diag.Pos{File: opt.File}); err != nil {
			return nil, err
		}
		return d.done(), nil
	}
	src, wasUTF16, err := d.sniff(src)
	if err != nil {
		return nil, err
	}
	p := d.newParser(src, true, "", diag.Pos{File: opt.File})
	p.sc.UTF16 = wasUTF16
	if err := p.file(); err != nil {
		return nil, err
	}
	return d.done(), nil
}

// done returns the document read, the note about the last wrapper without
// an mxCell reported saying how many more there are.
func (d *decoder) done() *document {
	if n := d.noCell - maxRepeats; n > 0 {
		d.doc.diags[d.noCellNote].Message += fmt.Sprintf(" (and %d more like it)", n)
	}
	return d.doc
}

// sniff recognises what the file is before it is parsed as XML: it returns
// the text without its byte-order mark, in UTF-8, and whether it was
// UTF-16.
func (d *decoder) sniff(src string) (string, bool, error) {
	file := d.opt.File
	notDrawio := func(msg, hint string) (string, bool, error) {
		return "", false, source.Fatal(file, 0, 0, ErrNotDrawio, "drawio: "+msg, hint)
	}
	if src == "" {
		return notDrawio("the file is empty", "")
	}
	text, enc, ok := source.DecodeText(src, true)
	switch {
	case !ok && enc == source.UTF16Bare:
		return notDrawio("the file looks like UTF-16 text but is not", "")
	case !ok:
		return notDrawio("the file starts like UTF-16 text but is not", "")
	case enc != source.NoBOM: // text with a byte-order mark, or UTF-16
	case source.IsZip(src):
		return notDrawio("this is a zip archive (a .vsdx or an office document?), not a draw.io diagram", "")
	case strings.HasPrefix(src, "\x1F\x8B"):
		return notDrawio("this is a gzip-compressed file, not a draw.io diagram", "uncompress it first")
	case strings.HasPrefix(src, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"):
		return notDrawio("this is a binary Visio file (.vsd) or another OLE compound file, not a draw.io diagram", "")
	case strings.HasPrefix(src, "\xFF\xD8\xFF"), strings.HasPrefix(src, "GIF8"), strings.HasPrefix(src, "%PDF"):
		return notDrawio("this is an image or a PDF, not a draw.io diagram", "export the diagram from draw.io as .drawio, .drawio.svg or .drawio.png (with a copy of the diagram)")
	}
	if what := source.NotXML(text, nil); what != "" {
		return notDrawio(fmt.Sprintf("this is %s, not a draw.io diagram (it starts with %s%s)", what, source.QuoteStart(text), source.BinaryWhere(text)), "")
	}
	if off := source.InvalidUTF8(text); off >= 0 {
		l, c := source.LineCol(text, off)
		return "", false, source.Fatal(file, l, c, ErrMalformed, "drawio: malformed XML: invalid UTF-8", "the file may be in another encoding or damaged; draw.io writes UTF-8")
	}
	return text, enc.UTF16(), nil
}

// xmlIn parses XML that is not the file's own text (the content of an SVG
// attribute, a PNG chunk): its root must be an mxfile or an mxGraphModel.
// where names it in messages; at is where it is in the file.
func (d *decoder) xmlIn(text, where string, at diag.Pos) error {
	text = strings.TrimPrefix(text, "\xEF\xBB\xBF")
	if off := source.InvalidUTF8(text); off >= 0 {
		l, c := source.LineCol(text, off)
		return d.malformed(at, fmt.Sprintf("%s is not valid UTF-8 (line %d, column %d)", where, l, c), "")
	}
	p := d.newParser(text, false, where, at)
	return p.file()
}

func (d *decoder) malformed(at diag.Pos, msg, hint string) error {
	return diag.List{{Pos: at, Message: "drawio: " + msg, Hint: hint, Err: ErrMalformed}}
}

// parser reads the elements of one XML text: the file, or XML found inside
// it.
type parser struct {
	d      *decoder
	sc     *xmlscan.Scanner
	lines  source.Lines
	inFile bool     // the text is the file's: positions are the file's
	where  string   // names the text in messages when it is not the file's
	at     diag.Pos // where the text is in the file, when it is not the file's
	err    error    // a problem that stops the reading (not malformed XML)

	// A wrapper's attributes are gathered on a stack, then copied to a
	// slice of their own size cut from a block: few allocations.
	attrStack []attr
	attrBlock importer.Block[attr]
}

func (d *decoder) newParser(src string, inFile bool, where string, at diag.Pos) *parser {
	sc := xmlscan.New(src, d.opt.MaxDepth+32)
	sc.Editor = "draw.io"
	return &parser{d: d, sc: sc, lines: source.NewLines(src), inFile: inFile, where: where, at: at}
}

// pos returns the position of the current token, for the file's own text.
func (p *parser) pos() (line, col int) {
	if !p.inFile {
		return 0, 0
	}
	return p.lines.Pos(p.sc.Offset())
}

// syntaxError turns the scanner's error into the error of the reading.
func (p *parser) syntaxError() error {
	e := p.sc.Err()
	sentinel, msg := ErrMalformed, "malformed XML: "+clipText(e.Msg)
	hint := "the file is damaged or was not written by draw.io; open it in an XML editor at this line"
	switch {
	case e.Deep:
		sentinel, msg, hint = ErrTooDeep, e.Msg, chart.LimitHint("MaxDepth")
	case e.TooManyAttrs:
		sentinel, msg, hint = ErrTooLarge, clipText(e.Msg), "no drawing has this many properties on one shape: the file is damaged, or made to exhaust its reader"
	}
	l, c := source.LineCol(p.sc.Src(), e.Offset)
	if p.inFile {
		return source.Fatal(p.d.opt.File, l, c, sentinel, "drawio: "+msg, hint)
	}
	if sentinel == ErrMalformed {
		hint = "the file is damaged or was not written by draw.io; save the diagram again from draw.io"
	}
	return diag.List{{Pos: p.at, Message: fmt.Sprintf("drawio: %s, line %d, column %d: %s", p.where, l, c, msg),
		Hint: hint, Err: sentinel}}
}

// notDrawio reports XML that is not a diagram.
func (p *parser) notDrawio(msg, hint string) error {
	at := p.at
	if p.inFile {
		at.Line, at.Col = p.pos()
	}
	return diag.List{{Pos: at, Message: "drawio: " + msg, Hint: hint, Err: ErrNotDrawio}}
}

// child moves to the next child element of the element at depth d; it
// returns false when that element ends.
func (p *parser) child(d int) bool {
	return p.err == nil && p.sc.Child(d)
}

// file reads the whole text: its root element and what it holds.
func (p *parser) file() error {
	sc := p.sc
	for sc.Next() && sc.Kind() != xmlscan.StartTag {
	}
	if sc.Err() != nil {
		return p.syntaxError()
	}
	switch sc.Local() {
	case "mxfile":
		for p.child(1) {
			if sc.Local() == "diagram" {
				p.diagram()
			} else {
				sc.Skip()
			}
		}
	case "mxGraphModel":
		if pg := p.newPage(); pg != nil {
			p.model(pg)
		}
	case "svg":
		if p.where != "" {
			return p.notDrawio(fmt.Sprintf("%s is an SVG, not a diagram", p.where), "")
		}
		return p.svg()
	case "mxlibrary":
		return p.notDrawio("this is a draw.io shape library (<mxlibrary>), not a diagram",
			"open it in draw.io with File > Open Library, draw with its shapes, and read the diagram")
	default:
		where := "this is XML"
		if p.where != "" {
			where = p.where + " is XML"
		}
		return p.notDrawio(fmt.Sprintf("%s but not a draw.io diagram: its root element is <%s>, not <mxfile> or <mxGraphModel>", where, importer.Shorten(xmlscan.QName(sc.Prefix(), sc.Local()), maxWord)),
			"a draw.io file starts with <mxfile>; save the diagram again from draw.io")
	}
	if p.err != nil {
		return p.err
	}
	for sc.Next() { // after the root: comments and white space only
	}
	if sc.Err() != nil {
		return p.syntaxError()
	}
	return nil
}

// newPage adds a page to the document; it returns nil, and sets p.err,
// when the document has too many cells and pages already.
func (p *parser) newPage() *page {
	doc := p.d.doc
	pg := &page{index: len(doc.pages), inFile: p.inFile}
	pg.line, pg.col = p.pos()
	if !p.count(pg, pg.line, pg.col) {
		return nil
	}
	doc.pages = append(doc.pages, pg)
	return pg
}

// count counts a cell, a wrapper or a page at line and col (0 when not in
// the file) of page pg against Options.MaxElements; when there are too many,
// it sets p.err and returns false.
func (p *parser) count(pg *page, line, col int) bool {
	if p.d.cells++; p.d.cells <= p.d.opt.MaxElements {
		return true
	}
	at := p.at
	if p.inFile {
		at.Line, at.Col = line, col
	}
	if pg.index < len(p.d.doc.pages) { // a cell of a page; not the page itself
		at.Page = pg.label()
	}
	p.err = diag.List{{Pos: at, Err: ErrTooLarge,
		Message: fmt.Sprintf("drawio: the diagram has more than %d cells and pages", p.d.opt.MaxElements),
		Hint:    chart.LimitHint("MaxElements")}}
	return false
}

// cellPos is the position of a cell of page pg, at line and col of the
// file (when the page is in it), for messages about it.
func (p *parser) cellPos(pg *page, line, col int, id string) diag.Pos {
	at := p.pagePos(pg)
	if p.inFile {
		at.Line, at.Col = line, col
	}
	at.Shape = id
	return at
}

// pagePos is the position of a page, for messages about it.
func (p *parser) pagePos(pg *page) diag.Pos {
	at := p.at
	if p.inFile {
		at.Line, at.Col = pg.line, pg.col
	}
	at.Page = pg.label()
	return at
}

// diagram reads a <diagram> element: a page, whose content is an
// mxGraphModel element or, compressed, text. What it is is told from the
// content, whatever the mxfile's compressed attribute says.
func (p *parser) diagram() {
	sc := p.sc
	pg := p.newPage()
	if pg == nil {
		return
	}
	pg.id, pg.name = sc.Attr("id"), sc.Attr("name")
	d := sc.Depth()
	var text strings.Builder
	model := false
	for p.err == nil && sc.Next() {
		if sc.Kind() == xmlscan.EndTag && sc.Depth() < d {
			break
		}
		switch sc.Kind() {
		case xmlscan.CharData:
			if !model {
				if sc.CDATA() {
					text.WriteString(sc.Raw())
				} else {
					text.WriteString(xmlscan.Unescape(sc.Raw()))
				}
			}
		case xmlscan.StartTag:
			if sc.Local() == "mxGraphModel" && !model && sc.Depth() == d+1 {
				model = true
				p.model(pg)
			} else {
				sc.Skip()
			}
		}
	}
	if model || p.err != nil || sc.Err() != nil {
		return
	}
	data := strings.TrimSpace(text.String())
	if data == "" {
		return // an empty page
	}
	where := fmt.Sprintf("the compressed page %q", pg.label())
	at := p.pagePos(pg)
	xml, err := p.d.inflate(data, where, at)
	if err != nil {
		p.err = err
		return
	}
	inner := p.d.newParser(xml, false, where, at)
	for inner.sc.Next() && inner.sc.Kind() != xmlscan.StartTag {
	}
	switch {
	case inner.sc.Err() != nil:
		p.err = inner.syntaxError()
		return
	case inner.sc.Local() != "mxGraphModel":
		p.err = p.d.malformed(at, fmt.Sprintf("%s holds <%s>, not <mxGraphModel>", where, importer.Shorten(xmlscan.QName(inner.sc.Prefix(), inner.sc.Local()), maxWord)), "")
		return
	}
	inner.model(pg)
	if inner.err == nil {
		for inner.sc.Next() {
		}
	}
	switch {
	case inner.err != nil:
		p.err = inner.err
	case inner.sc.Err() != nil:
		p.err = inner.syntaxError()
	}
}

// model reads the cells of the mxGraphModel whose start tag is the current
// token into pg.
func (p *parser) model(pg *page) {
	sc := p.sc
	d := sc.Depth()
	if pg.cells == nil && !sc.SelfClosing() {
		// About one cell per mxCell tag to the end of the page: a cheap
		// count that spares the cells' slice its growth. The tags may be
		// in comments, or smaller than a cell is drawn: the count is
		// trusted up to one cell per minCell bytes, and MaxElements.
		rest := sc.Rest()
		if end := strings.Index(rest, "</mxGraphModel>"); end >= 0 {
			rest = rest[:end]
		}
		pg.cells = make([]cell, 0, min(strings.Count(rest, "<mxCell"), len(rest)/minCell, p.d.opt.MaxElements))
	}
	for p.child(d) {
		if sc.Local() != "root" {
			sc.Skip()
			continue
		}
		rd := sc.Depth()
		for p.child(rd) {
			line, col := p.pos()
			if !p.count(pg, line, col) {
				return
			}
			c := cell{line: line, col: col}
			if sc.Local() == "mxCell" {
				p.cellAttrs(&c, false)
				p.cellBody(&c)
				pg.cells = append(pg.cells, c)
				continue
			}
			// A wrapper: object, UserObject, or any element holding an
			// mxCell, whose attributes are the cell's data.
			c.wrapper = sc.Local()
			if !p.countProps(pg, line, col) {
				return
			}
			attrs := p.attrStack[:0]
			if n := len(sc.Attrs()); cap(attrs) < n {
				attrs = make([]attr, 0, n)
			}
			for i := range sc.Attrs() {
				a := &sc.Attrs()[i]
				name := a.Local
				if a.Prefix != "" {
					name = xmlscan.QName(a.Prefix, a.Local)
				}
				switch name {
				case "id":
					c.id = a.Value()
				case "label":
					c.value = a.Value()
				default:
					attrs = append(attrs, attr{name, a.Raw})
				}
			}
			p.attrStack = attrs
			c.attrs = p.attrBlock.Keep(attrs)
			wd := sc.Depth()
			found := false
			for p.child(wd) {
				if sc.Local() == "mxCell" && !found {
					found = true
					p.cellAttrs(&c, true)
					p.cellBody(&c)
				} else {
					sc.Skip()
				}
			}
			if !found {
				p.noCell(pg, &c)
				continue
			}
			if !p.expand(pg, &c) {
				return
			}
			pg.cells = append(pg.cells, c)
		}
	}
}

// countProps counts the attributes of the wrapper whose start tag is the
// current token, at line and col of page pg, against
// Options.MaxElements (properties are counted apart from cells); when
// there are too many, it sets p.err and returns false.
func (p *parser) countProps(pg *page, line, col int) bool {
	if p.d.props += len(p.sc.Attrs()); p.d.props <= p.d.opt.MaxElements {
		return true
	}
	p.err = diag.List{{Pos: p.cellPos(pg, line, col, ""), Err: ErrTooLarge,
		Message: fmt.Sprintf("drawio: the diagram has more than %d properties (attributes of the object and UserObject elements around its cells)", p.d.opt.MaxElements),
		Hint:    chart.LimitHint("MaxElements")}}
	return false
}

// minCell is the fewest bytes of the file a cell is counted for when the
// cells' slice is allocated: an mxCell with an ID, a parent and a
// geometry takes more.
const minCell = 64

// noCell notes a wrapper that holds no mxCell: the first maxRepeats
// of them, the others counted (see decoder.done).
func (p *parser) noCell(pg *page, c *cell) {
	d := p.d
	if d.noCell++; d.noCell > maxRepeats {
		return
	}
	d.noCellNote = len(d.doc.diags)
	d.doc.diags = append(d.doc.diags, diag.Diagnostic{Pos: p.cellPos(pg, c.line, c.col, c.id), Severity: diag.Note,
		Message: fmt.Sprintf("drawio: <%s> holds no mxCell; ignored", importer.Shorten(c.wrapper, maxWord))})
}

// expand replaces the placeholders of the label of a wrapped cell that
// has placeholders="1", as draw.io shows it: labelText reads the label
// as it then is. The labels grow by at most Options.MaxSize bytes, all
// together; it sets p.err and returns false when they would grow more.
func (p *parser) expand(pg *page, c *cell) bool {
	if !strings.Contains(c.value, "%") {
		return true
	}
	if v, _ := c.get("placeholders"); v != "1" {
		return true
	}
	v, ok := placeholders(c.value, c, p.d.labels)
	if !ok {
		p.err = diag.List{{Pos: p.cellPos(pg, c.line, c.col, c.id), Err: ErrTooLarge,
			Message: fmt.Sprintf("drawio: the placeholders of the label expand to more than %s (with those of the other labels of the file)", source.SizeString(p.d.opt.MaxSize)),
			Hint:    `with placeholders="1", draw.io shows %name% in a label as the value of the shape's property name; ` + chart.LimitHint("MaxSize")}}
		return false
	}
	p.d.labels -= int64(len(v))
	c.value = v
	return true
}

// cellAttrs reads the attributes of the mxCell start tag that is the
// current token; in a wrapper, the wrapper's id and label stand.
func (p *parser) cellAttrs(c *cell, wrapped bool) {
	sc := p.sc
	for i := range sc.Attrs() {
		a := &sc.Attrs()[i]
		if a.Prefix != "" {
			continue
		}
		switch a.Local {
		case "id":
			if !wrapped {
				c.id = a.Value()
			}
		case "value":
			if !wrapped {
				c.value = a.Value()
			}
		case "parent":
			c.parent = a.Value()
		case "source":
			c.source = a.Value()
		case "target":
			c.target = a.Value()
		case "style":
			c.style = a.Value()
		case "vertex":
			c.vertex = a.Raw == "1"
		case "edge":
			c.edge = a.Raw == "1"
		}
	}
}

// cellBody reads the children of the mxCell whose start tag is the current
// token: its geometry.
func (p *parser) cellBody(c *cell) {
	sc := p.sc
	d := sc.Depth()
	for p.child(d) {
		if sc.Local() != "mxGeometry" || c.geo.set {
			sc.Skip()
			continue
		}
		g := &c.geo
		g.set = true
		g.x = p.number(g, "x")
		g.y = p.number(g, "y")
		g.w = p.number(g, "width")
		g.h = p.number(g, "height")
		g.relative = sc.Attr("relative") == "1"
		gd := sc.Depth()
		for p.child(gd) {
			if sc.Local() != "mxPoint" {
				sc.Skip()
				continue
			}
			switch sc.Attr("as") {
			case "sourcePoint":
				g.sourcePoint = true
				g.sourceX, g.sourceY = p.number(g, "x"), p.number(g, "y")
			case "targetPoint":
				g.targetPoint = true
				g.targetX, g.targetY = p.number(g, "x"), p.number(g, "y")
			}
			sc.Skip()
		}
	}
}

// number reads a numeric attribute of the current tag; absent is 0.
func (p *parser) number(g *geometry, name string) float64 {
	s := p.sc.Attr(name)
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v != v || v > 1e15 || v < -1e15 {
		if g.badNumber == "" {
			g.badNumber = name + "=" + strconv.Quote(importer.Shorten(s, maxWord))
		}
		return 0
	}
	return v
}

// svg reads the content attribute of an SVG root element: the diagram,
// XML-escaped (draw.io's .drawio.svg), or compressed as a page is.
func (p *parser) svg() error {
	content, ok := "", false
	for _, a := range p.sc.Attrs() {
		if a.Prefix == "" && a.Local == "content" {
			content, ok = a.Value(), true
		}
	}
	line, col := p.pos()
	at := diag.Pos{File: p.d.opt.File, Line: line, Col: col}
	content = strings.TrimSpace(content)
	if !ok || content == "" {
		return diag.List{{Pos: at, Message: "drawio: this SVG holds no draw.io diagram (its <svg> has no content attribute)",
			Hint: "export it from draw.io as SVG with \"Include a copy of my diagram\" checked, or read the .drawio file", Err: ErrNotDrawio}}
	}
	const where = "the content attribute of the SVG"
	if !strings.HasPrefix(content, "<") {
		xml, err := p.d.inflate(content, where, at)
		if err != nil {
			return err
		}
		content = xml
	}
	return p.d.xmlIn(content, where, at)
}

// inflate decodes compressed diagram text: base64 of raw deflate of the
// URL-encoded XML (encodeURIComponent), as draw.io writes compressed pages.
// The result counts against the decoder's budget.
func (d *decoder) inflate(data, where string, at diag.Pos) (string, error) {
	data = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, data)
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil && !strings.HasSuffix(data, "=") {
		if r2, err2 := base64.RawStdEncoding.DecodeString(data); err2 == nil {
			raw, err = r2, nil
		}
	}
	if err != nil {
		msg := fmt.Sprintf("%s is neither XML nor valid base64", where)
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			msg += fmt.Sprintf(" (byte %d: %s)", int64(ce), source.QuoteStart(data[min(int(ce), len(data)):]))
		}
		return "", d.malformed(at, msg, "the file is damaged; save the diagram again from draw.io")
	}
	out, err := d.inflateText(func() io.Reader { return d.deflated(raw) }, where, at)
	if err != nil && len(raw) > 2 && raw[0] == 0x78 { // zlib, as some tools write
		if _, zerr := zlib.NewReader(bytes.NewReader(raw)); zerr == nil {
			out, err = d.inflateText(func() io.Reader {
				zr, _ := zlib.NewReader(bytes.NewReader(raw)) // it just did not fail
				return zr
			}, where, at)
		}
	}
	return out, err
}

// inflateText reads the text the readers newReader returns inflate,
// within the decoder's budget, and URL-decodes it unless it is XML
// already. It reads twice, first to learn the text's size, so that the
// text is allocated once, at its size.
func (d *decoder) inflateText(newReader func() io.Reader, where string, at diag.Pos) (string, error) {
	const damaged = "the file is damaged; save the diagram again from draw.io"
	if d.buf == nil {
		d.buf = make([]byte, 32<<10)
	}
	buf := d.buf
	pass := func(out *strings.Builder) (int, error) {
		lr := &io.LimitedReader{R: newReader(), N: d.budget + 1}
		u := urlDecoder{out: out, pending: -1, encoded: true}
		for {
			n, err := lr.Read(buf)
			if !u.write(buf[:n]) {
				return 0, d.malformed(at, fmt.Sprintf("%s inflates to text that is neither XML nor URL-encoded XML (bad escape at byte %d)", where, u.off), damaged)
			}
			if lr.N <= 0 {
				return 0, diag.List{{Pos: at, Err: ErrTooLarge,
					Message: fmt.Sprintf("drawio: %s inflates to more than %s (with the other compressed content of the file)", where, source.SizeString(d.opt.MaxSize)),
					Hint:    chart.LimitHint("MaxSize")}}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return 0, d.malformed(at, fmt.Sprintf("%s is not valid deflate data: %v", where, err), damaged)
			}
		}
		if u.pending >= 0 {
			return 0, d.malformed(at, fmt.Sprintf("%s inflates to text that is neither XML nor URL-encoded XML (bad escape at byte %d)", where, u.off), damaged)
		}
		d.budget -= d.budget + 1 - lr.N
		return u.n, nil
	}
	budget := d.budget
	n, err := pass(nil)
	if err != nil {
		return "", err
	}
	d.budget = budget // the second pass counts again
	var b strings.Builder
	b.Grow(n)
	if _, err := pass(&b); err != nil {
		return "", err
	}
	text := b.String()
	if o := source.InvalidUTF8(text); o >= 0 {
		return "", d.malformed(at, fmt.Sprintf("%s is not valid UTF-8 (byte %d of its XML)", where, o), damaged)
	}
	return text, nil
}

// deflated returns a reader of the raw deflate data raw: the decoder's,
// reset, after the first.
func (d *decoder) deflated(raw []byte) io.Reader {
	if d.flate == nil {
		d.flate = flate.NewReader(bytes.NewReader(raw))
	} else {
		d.flate.(flate.Resetter).Reset(bytes.NewReader(raw), nil)
	}
	return d.flate
}

// urlDecoder decodes encodeURIComponent's escapes in a stream of chunks,
// unless the stream starts with '<' (XML as it is). It writes what it
// decodes to out, or only counts it when out is nil.
type urlDecoder struct {
	out     *strings.Builder
	n       int  // bytes decoded
	off     int  // bytes read, for messages
	started bool // a byte other than white space was read
	encoded bool
	esc     [2]byte
	pending int // after a '%', how many of its two digits were read; -1 if none
}

func (u *urlDecoder) emit(b []byte) {
	u.n += len(b)
	if u.out != nil {
		u.out.Write(b)
	}
}

// write decodes a chunk; it returns false at a bad escape.
func (u *urlDecoder) write(chunk []byte) bool {
	if !u.started {
		i := 0
		for i < len(chunk) && (chunk[i] == ' ' || chunk[i] == '\t' || chunk[i] == '\n' || chunk[i] == '\r') {
			i++
		}
		u.emit(chunk[:i])
		u.off += i
		chunk = chunk[i:]
		if len(chunk) > 0 {
			u.started, u.encoded = true, chunk[0] != '<'
		}
	}
	if !u.encoded {
		u.emit(chunk)
		u.off += len(chunk)
		return true
	}
	for len(chunk) > 0 {
		if u.pending >= 0 {
			u.esc[u.pending] = chunk[0]
			chunk = chunk[1:]
			if u.pending++; u.pending == 2 {
				hi, ok1 := unhex(u.esc[0])
				lo, ok2 := unhex(u.esc[1])
				if !ok1 || !ok2 {
					return false
				}
				u.n++
				if u.out != nil {
					u.out.WriteByte(hi<<4 | lo)
				}
				u.off += 3
				u.pending = -1
			}
			continue
		}
		j := bytes.IndexByte(chunk, '%')
		if j < 0 {
			u.emit(chunk)
			u.off += len(chunk)
			break
		}
		u.emit(chunk[:j])
		u.off += j
		chunk = chunk[j+1:]
		u.pending = 0
	}
	return true
}

// tooLarge is the error of compressed content that inflates to more
// than the decoder's budget.
func (d *decoder) tooLarge(where string, at diag.Pos) error {
	return diag.List{{Pos: at, Err: ErrTooLarge,
		Message: fmt.Sprintf("drawio: %s inflates to more than %s (with the other compressed content of the file)", where, source.SizeString(d.opt.MaxSize)),
		Hint:    chart.LimitHint("MaxSize")}}
}

// uriDecode undoes encodeURIComponent: %XX escapes become bytes. It
// returns false and the offset of a bad escape, or of invalid UTF-8 in the
// result.
func uriDecode(s string) (string, int, bool) {
	n := strings.Count(s, "%")
	if n == 0 {
		if off := source.InvalidUTF8(s); off >= 0 {
			return "", off, false
		}
		return s, 0, true
	}
	b := make([]byte, 0, len(s)-2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		if i+2 >= len(s) {
			return "", i, false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", i, false
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	if !utf8.Valid(b) {
		return "", 0, false
	}
	return string(b), 0, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// png returns the diagram a PNG carries in a text chunk (tEXt, zTXt or
// iTXt) whose keyword is mxfile (draw.io since 2017) or mxGraphModel
// (earlier).
func (d *decoder) png(src string) (string, error) {
	file := d.opt.File
	damaged := func(msg string) (string, error) {
		return "", source.Fatal(file, 0, 0, ErrMalformed, "drawio: the PNG is damaged: "+msg, "")
	}
	at := diag.Pos{File: file}
	for off := len(pngSignature); ; {
		if off == len(src) {
			break
		}
		if len(src)-off < 12 {
			return damaged(fmt.Sprintf("a chunk is cut short at byte %d", off))
		}
		n := int64(binary.BigEndian.Uint32([]byte(src[off : off+4])))
		typ := src[off+4 : off+8]
		if n > int64(len(src)-off-12) {
			return damaged(fmt.Sprintf("chunk %q at byte %d claims %d bytes, more than the file holds", typ, off, n))
		}
		data := src[off+8 : off+8+int(n)]
		crc := binary.BigEndian.Uint32([]byte(src[off+8+int(n) : off+12+int(n)]))
		off += 12 + int(n)
		if typ == "IEND" {
			break
		}
		if typ != "tEXt" && typ != "zTXt" && typ != "iTXt" {
			continue
		}
		kw, rest, ok := strings.Cut(data, "\x00")
		if !ok || kw != "mxfile" && kw != "mxGraphModel" {
			continue
		}
		if crc32.ChecksumIEEE([]byte(src[off-8-int(n):off-4])) != crc {
			return damaged(fmt.Sprintf("its %s chunk %q fails its CRC check", typ, kw))
		}
		where := fmt.Sprintf("the %s chunk %q of the PNG", typ, kw)
		var text string
		switch typ {
		case "tEXt": // Latin-1
			if !d.latin1(&text, rest) {
				return "", diag.List{{Pos: at, Err: ErrTooLarge,
					Message: fmt.Sprintf("drawio: %s is more than %s in UTF-8 (with the compressed content of the file)", where, source.SizeString(d.opt.MaxSize)),
					Hint:    chart.LimitHint("MaxSize")}}
			}
		case "zTXt": // Latin-1, compressed
			if rest == "" || rest[0] != 0 {
				return damaged(where + " has an unknown compression method")
			}
			out, err := d.zlib(rest[1:], true, where, at)
			if err != nil {
				return "", err
			}
			text = out
		case "iTXt": // UTF-8, compressed or not
			if len(rest) < 2 {
				return damaged(where + " is cut short")
			}
			compressed := rest[0] == 1
			parts := strings.SplitN(rest[2:], "\x00", 3)
			if len(parts) != 3 {
				return damaged(where + " is cut short")
			}
			text = parts[2]
			if compressed {
				out, err := d.zlib(text, false, where, at)
				if err != nil {
					return "", err
				}
				text = out
			}
		}
		text = strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(text, "<"):
		case strings.HasPrefix(text, "%3C"), strings.HasPrefix(text, "%3c"):
			u, off, ok := uriDecode(text)
			if !ok {
				return "", d.malformed(at, fmt.Sprintf("%s is not valid URL-encoded XML (bad escape at byte %d)", where, off), "")
			}
			text = u
		default:
			u, err := d.inflate(text, where, at)
			if err != nil {
				return "", err
			}
			text = u
		}
		return text, nil
	}
	return "", source.Fatal(file, 0, 0, ErrNotDrawio, "drawio: this PNG holds no draw.io diagram (it has no mxfile text chunk)",
		"export it from draw.io as PNG with \"Include a copy of my diagram\" checked, or read the .drawio file")
}

// zlib inflates the zlib stream of a PNG text chunk, within the
// decoder's budget, into text: Latin-1 turned into UTF-8 as it inflates
// when latin1 is true, the budget counting the UTF-8.
func (d *decoder) zlib(data string, latin1 bool, where string, at diag.Pos) (string, error) {
	zr, err := zlib.NewReader(strings.NewReader(data))
	if err != nil {
		return "", d.malformed(at, fmt.Sprintf("%s is not valid zlib data: %v", where, err), "")
	}
	if d.buf == nil {
		d.buf = make([]byte, 32<<10)
	}
	var b strings.Builder
	for {
		n, err := zr.Read(d.buf)
		chunk := d.buf[:n]
		size := n
		if latin1 {
			size = utf8Len(chunk)
		}
		if int64(b.Len()+size) > d.budget {
			return "", d.tooLarge(where, at)
		}
		if size == n {
			b.Write(chunk)
		} else {
			writeLatin1(&b, chunk)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", d.malformed(at, fmt.Sprintf("%s is not valid zlib data: %v", where, err), "the file is damaged; save the diagram again from draw.io")
		}
	}
	d.budget -= int64(b.Len())
	return b.String(), nil
}

// latin1 sets *text to s, ISO 8859-1, in UTF-8. Text that is not ASCII
// is converted within the decoder's budget, which counts the UTF-8: it
// returns false when that is more than the budget.
func (d *decoder) latin1(text *string, s string) bool {
	n := utf8Len(s)
	if n == len(s) {
		*text = s
		return true
	}
	if int64(n) > d.budget {
		return false
	}
	var b strings.Builder
	b.Grow(n)
	writeLatin1(&b, s)
	d.budget -= int64(n)
	*text = b.String()
	return true
}

// writeLatin1 writes Latin-1 text to b in UTF-8.
func writeLatin1[S string | []byte](b *strings.Builder, s S) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			b.WriteByte(c)
		} else {
			b.WriteByte(0xC0 | c>>6)
			b.WriteByte(0x80 | c&0x3F)
		}
	}
}

// utf8Len is the length of Latin-1 text in UTF-8.
func utf8Len[S string | []byte](s S) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			n++
		}
	}
	return n
}
