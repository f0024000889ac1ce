package visio

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
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
// [Document], without interpreting it. Only Options.File, MaxSize and
// MaxDepth are used. It reads the whole file into memory (no more than
// MaxSize bytes) and keeps it there while the Document lives; see the
// package documentation for what a large drawing costs.
//
// The error, when not nil, is a [chart.Diagnostics] holding one error with
// its position, which wraps [ErrTooLarge], [ErrNotVisio], [ErrMalformed] or
// [ErrTooDeep]; the Document is then nil. Problems that do not stop the
// reading are in Document.Diagnostics.
func DecodeVDX(r io.Reader, opt Options) (*Document, error) {
	opt = opt.withDefaults()
	src, err := readAll(r, opt)
	if err != nil {
		return nil, err
	}
	src, wasUTF16, err := sniff(src, opt.File)
	if err != nil {
		return nil, err
	}
	p := &parser{
		sc:       newScanner(src, 2*opt.MaxDepth+32),
		doc:      &Document{File: opt.File},
		lines:    lines{src: src},
		maxDepth: opt.MaxDepth,
	}
	p.sc.utf16 = wasUTF16
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// readAll reads r, refusing more than opt.MaxSize bytes.
func readAll(r io.Reader, opt Options) (string, error) {
	tooLarge := func() error {
		return fatal(opt.File, 0, 0, ErrTooLarge,
			fmt.Sprintf("visio: the file is larger than %s", sizeString(opt.MaxSize)),
			"raise Options.MaxSize if the drawing really is this large")
	}
	var b strings.Builder
	switch f := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		if int64(f.Len()) > opt.MaxSize {
			return "", tooLarge()
		}
		b.Grow(f.Len())
	case *os.File:
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > opt.MaxSize {
				return "", tooLarge()
			}
			b.Grow(int(fi.Size()))
		}
	}
	if _, err := io.Copy(&b, io.LimitReader(r, opt.MaxSize+1)); err != nil {
		return "", fatal(opt.File, 0, 0, err, "visio: cannot read the drawing: "+err.Error(), "")
	}
	if int64(b.Len()) > opt.MaxSize {
		return "", tooLarge()
	}
	return b.String(), nil
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// sniff recognises what the file is before it is parsed as XML: it returns
// the text without its byte-order mark, in UTF-8, and whether it was UTF-16.
func sniff(src, file string) (string, bool, error) {
	notVisio := func(msg, hint string) (string, bool, error) {
		return "", false, fatal(file, 0, 0, ErrNotVisio, "visio: "+msg, hint)
	}
	const saveAs = "open it in Visio and save it as \"XML Drawing (*.vdx)\""
	isUTF16 := false
	switch {
	case src == "":
		return notVisio("the file is empty", "")
	case strings.HasPrefix(src, "\xEF\xBB\xBF"):
		src = src[3:]
	case strings.HasPrefix(src, "\xFF\xFE"), strings.HasPrefix(src, "\xFE\xFF"):
		s, ok := fromUTF16(src[2:], src[0] == 0xFE)
		if !ok {
			return notVisio("the file starts like UTF-16 text but is not", "")
		}
		src, isUTF16 = s, true
	case strings.HasPrefix(src, "PK\x03\x04"), strings.HasPrefix(src, "PK\x05\x06"):
		return notVisio("this is a zip archive, probably a .vsdx drawing (Visio 2013 and later), not a Visio XML drawing", "read it with visio.Read or visio.DecodeVSDX, which read both")
	case strings.HasPrefix(src, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"):
		return notVisio("this is a binary Visio file (.vsd, .vss) or another OLE compound file, not a Visio XML drawing", saveAs)
	case strings.HasPrefix(src, "\x1F\x8B"):
		return notVisio("this is a gzip-compressed file, not a Visio XML drawing", "uncompress it first")
	case strings.HasPrefix(src, "MZ"):
		return notVisio("this is a Windows program or driver (the .vdx extension is also used for virtual device drivers), not a Visio drawing", "")
	}
	head := src[:min(len(src), 1024)]
	if i := strings.IndexFunc(src, notSpace); i < 0 || src[i] != '<' || strings.IndexByte(head, 0) >= 0 {
		what := "a binary file"
		if strings.IndexByte(head, 0) < 0 && utf8.ValidString(head) {
			what = "a text file that is not XML"
		}
		return notVisio(fmt.Sprintf("this is %s, not a Visio XML drawing (it starts with %s)", what, quoteStart(src)), "")
	}
	if !utf8.ValidString(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRuneInString(src[off:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			off += n
		}
		l, c := lineCol(src, off)
		return "", false, fatal(file, l, c, ErrMalformed, "visio: malformed XML: invalid UTF-8", "the file may be in another encoding or damaged; Visio writes UTF-8")
	}
	return src, isUTF16, nil
}

// fromUTF16 decodes UTF-16 text without its byte-order mark.
func fromUTF16(s string, bigEndian bool) (string, bool) {
	if len(s)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(s)/2)
	for i := range u {
		a, b := uint16(s[2*i]), uint16(s[2*i+1])
		if bigEndian {
			u[i] = a<<8 | b
		} else {
			u[i] = b<<8 | a
		}
	}
	return string(utf16.Decode(u)), true
}

// quoteStart quotes the first bytes of s for a message.
func quoteStart(s string) string {
	const n = 16
	if len(s) > n {
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

// fatal returns a one-error Diagnostics for a file that cannot be read.
func fatal(file string, line, col int, err error, msg, hint string) error {
	return chart.Diagnostics{{Pos: chart.Pos{File: file, Line: line, Col: col}, Message: msg, Hint: hint, Err: err}}
}

// parser fills a Document from the tokens of a .vdx file, or of the XML
// parts of a .vsdx package, one after the other.
type parser struct {
	sc       *scanner
	doc      *Document
	lines    lines
	part     string // the part being read, for a package
	maxDepth int    // of groups
	fatal    error  // a problem that stops the reading (not malformed XML)

	// Shapes and rows are allocated in blocks; the slices of a shape's
	// members and rows are gathered on stacks and then copied to their
	// exact size, so that a large drawing costs few allocations.
	shapeBlock []Shape
	propBlock  []Prop
	shapeStack []*Shape
	propStack  []Prop
}

const blockSize = 256

func (p *parser) newShape() *Shape {
	if len(p.shapeBlock) == 0 {
		p.shapeBlock = make([]Shape, blockSize)
	}
	s := &p.shapeBlock[0]
	p.shapeBlock = p.shapeBlock[1:]
	return s
}

// keepProps copies rows to a slice of their own size.
func (p *parser) keepProps(rows []Prop) []Prop {
	if len(rows) == 0 {
		return nil
	}
	if len(p.propBlock) < len(rows) {
		p.propBlock = make([]Prop, max(blockSize, len(rows)))
	}
	out := p.propBlock[:len(rows):len(rows)]
	copy(out, rows)
	p.propBlock = p.propBlock[len(rows):]
	return out
}

func (p *parser) pos() Pos {
	l, c := p.lines.pos(p.sc.tokOff)
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
func (p *parser) visio() bool { return p.sc.space == p.doc.Namespace }

// child moves to the next child element of the element at depth d; it
// returns false when that element ends.
func (p *parser) child(d int) bool {
	for p.fatal == nil && p.sc.next() {
		switch p.sc.kind {
		case tokStart:
			if p.sc.depth() == d+1 {
				return true
			}
			p.sc.skip()
		case tokEnd:
			if p.sc.depth() < d {
				return false
			}
		}
	}
	return false
}

func (p *parser) parse() error {
	sc := p.sc
	for sc.next() && sc.kind != tokStart {
	}
	if sc.err != nil {
		return p.syntaxError()
	}
	switch {
	case sc.local == "VisioDocument" && (sc.space == NamespaceVDX2003 || sc.space == NamespaceVDX2002):
	case sc.local == "VisioDocument" && sc.space == NamespaceVSDX:
		return p.notVisio("this is the document part of a .vsdx package (namespace "+NamespaceVSDX+"), not a Visio XML drawing", "")
	case sc.local == "VisioDocument":
		return p.notVisio(fmt.Sprintf("<VisioDocument> is in namespace %q; a Visio XML drawing's is %q (or Visio 2002's %q)", sc.space, NamespaceVDX2003, NamespaceVDX2002), "")
	default:
		return p.notVisio(fmt.Sprintf("this is XML but not a Visio drawing: its root element is <%s>%s, not <VisioDocument>", qname(sc.prefix, sc.local), inNamespace(sc.space)), "")
	}
	p.doc.Namespace = sc.space
	for p.child(1) {
		if !p.visio() {
			sc.skip()
			continue
		}
		switch sc.local {
		case "DocumentProperties":
			for p.child(2) {
				if p.visio() && sc.local == "Title" {
					p.doc.Title = strings.TrimSpace(sc.text())
				} else {
					sc.skip()
				}
			}
		case "Masters":
			for p.child(2) {
				if p.visio() && sc.local == "Master" {
					p.master()
				} else {
					sc.skip()
				}
			}
		case "Pages":
			for p.child(2) {
				if p.visio() && sc.local == "Page" {
					p.page()
				} else {
					sc.skip()
				}
			}
		default:
			sc.skip()
		}
	}
	if p.fatal != nil {
		return p.fatal
	}
	for sc.next() { // after the root: comments and white space only
	}
	if sc.err != nil {
		return p.syntaxError()
	}
	return nil
}

func qname(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

func inNamespace(space string) string {
	if space == "" {
		return ""
	}
	return fmt.Sprintf(" (namespace %q)", space)
}

func (p *parser) notVisio(msg, hint string) error {
	l, c := p.lines.pos(p.sc.tokOff)
	return fatal(p.file(), l, c, ErrNotVisio, "visio: "+msg, hint)
}

func (p *parser) syntaxError() error {
	e := p.sc.err
	l, c := lineCol(p.sc.src, e.off)
	if e.deep {
		return fatal(p.file(), l, c, ErrTooDeep, "visio: "+e.msg, "")
	}
	hint := "the file is damaged or was not written by Visio; open it in an XML editor at this line"
	if p.part != "" {
		hint = "the drawing is damaged or was not written by Visio; unzip it and open the part in an XML editor at this line"
	}
	return fatal(p.file(), l, c, ErrMalformed, "visio: malformed XML: "+e.msg, hint)
}

func (p *parser) master() {
	sc := p.sc
	m := &Master{ID: sc.attr("ID"), NameU: sc.attr("NameU"), Name: sc.attr("Name"), Pos: p.pos()}
	d := sc.depth()
	for p.child(d) {
		if p.visio() && sc.local == "Shapes" {
			m.Shapes = p.shapes(0)
		} else {
			sc.skip()
		}
	}
	p.doc.Masters = append(p.doc.Masters, m)
}

func (p *parser) page() {
	sc := p.sc
	bg := sc.attr("Background")
	pg := &Page{
		ID: sc.attr("ID"), NameU: sc.attr("NameU"), Name: sc.attr("Name"),
		Background: bg == "1" || strings.EqualFold(bg, "true"), BackPage: sc.attr("BackPage"),
		Pos: p.pos(),
	}
	d := sc.depth()
	for p.child(d) {
		switch {
		case !p.visio():
			sc.skip()
		case sc.local == "PageSheet":
			for p.child(d + 1) {
				if !p.visio() || sc.local != "PageProps" {
					sc.skip()
					continue
				}
				for p.child(d + 2) {
					switch {
					case !p.visio():
						sc.skip()
					case sc.local == "PageWidth":
						pg.Width = number(sc.text())
					case sc.local == "PageHeight":
						pg.Height = number(sc.text())
					default:
						sc.skip()
					}
				}
			}
		case sc.local == "Shapes":
			pg.Shapes = p.shapes(0)
		case sc.local == "Connects":
			p.connects(pg, d+1)
		default:
			sc.skip()
		}
	}
	p.doc.Pages = append(p.doc.Pages, pg)
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
	for p.child(d) {
		if !p.visio() || sc.local != "Connect" {
			sc.skip()
			continue
		}
		if len(pg.Connects) == cap(pg.Connects) { // double: append grows large slices by 1.25
			pg.Connects = slices.Grow(pg.Connects, max(16, len(pg.Connects)))
		}
		pg.Connects = append(pg.Connects, Connect{
			FromSheet: sc.attr("FromSheet"), FromCell: sc.attr("FromCell"),
			ToSheet: sc.attr("ToSheet"), ToCell: sc.attr("ToCell"),
			Pos: p.pos(),
		})
		sc.skip()
	}
}

// shapes reads a <Shapes> element whose shapes are nested group levels
// deep.
func (p *parser) shapes(group int) []*Shape {
	sc := p.sc
	if group > p.maxDepth {
		l, c := p.lines.pos(sc.tokOff)
		p.fatal = fatal(p.file(), l, c, ErrTooDeep,
			fmt.Sprintf("visio: groups nested more than %d deep", p.maxDepth),
			"ungroup the shapes, or raise Options.MaxDepth if the drawing really nests groups this deep")
		return nil
	}
	base := len(p.shapeStack)
	d := sc.depth()
	for p.child(d) {
		if p.visio() && sc.local == "Shape" {
			var s *Shape
			if p.doc.Namespace == NamespaceVSDX {
				s = p.shapeVSDX(group)
			} else {
				s = p.shape(group)
			}
			p.shapeStack = append(p.shapeStack, s)
		} else {
			sc.skip()
		}
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
		ID: sc.attr("ID"), NameU: sc.attr("NameU"), Name: sc.attr("Name"), Type: sc.attr("Type"),
		MasterID: sc.attr("Master"), MasterShapeID: sc.attr("MasterShape"),
		Pos: p.pos(),
	}
	rows := len(p.propStack)
	d := sc.depth()
	for p.child(d) {
		if !p.visio() {
			if sc.space == namespaceV14 && sc.local == "Layout" {
				p.layout(s)
			} else {
				sc.skip()
			}
			continue
		}
		switch sc.local {
		case "Text":
			s.Text, s.HasText = normText(sc.text()), true
		case "XForm", "XForm1D":
			s.OneD = s.OneD || sc.local == "XForm1D"
			for p.child(d + 1) {
				if p.visio() {
					s.XForm.setCell(sc.local, sc.text())
				} else {
					sc.skip()
				}
			}
		case "Prop":
			p.propStack = append(p.propStack, p.prop())
		case "Shapes":
			s.Shapes = p.shapes(group + 1)
		default:
			sc.skip()
		}
	}
	s.Props = p.keepProps(p.propStack[rows:])
	p.propStack = p.propStack[:rows]
	return s
}

// layout reads the Relationships cell of a Visio 2010 <v14:Layout>.
func (p *parser) layout(s *Shape) {
	sc := p.sc
	d := sc.depth()
	for p.child(d) {
		if sc.space == namespaceV14 && sc.local == "Relationships" {
			f := sc.attr("F")
			s.Members, s.Containers = dependsOn(f, "1"), dependsOn(f, "4")
		}
		sc.skip()
	}
}

// propCells maps the elements of a <Prop> to its cells.
var propCells = map[string]Cells{"Label": CellLabel, "Value": CellValue, "Format": CellFormat, "Prompt": CellPrompt, "Type": CellType}

func (p *parser) prop() Prop {
	sc := p.sc
	pr := Prop{Name: sc.attr("Name"), Deleted: sc.attr("Del") == "1", Pos: p.pos()}
	pr.Row = rowName(sc.attr("NameU"), pr.Name, sc.attr("ID"))
	d := sc.depth()
	for p.child(d) {
		cell, ok := propCells[sc.local]
		if !ok || !p.visio() {
			sc.skip()
			continue
		}
		inherited := sc.attr("F") == "Inh"
		pr.setCell(cell, sc.text(), inherited)
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
