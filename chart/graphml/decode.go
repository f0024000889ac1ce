package graphml

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// The XML namespaces of GraphML and of yEd's extensions.
const (
	NamespaceGraphML = "http://graphml.graphdrawing.org/xmlns"
	NamespaceYEd     = "http://www.yworks.com/xml/graphml"
)

// elem is an element of the file that the reader keeps: GraphML's own
// elements, and the yEd elements it reads inside <data>. Others are
// skipped as they are parsed.
type elem struct {
	space, local string
	attr         []xml.Attr
	text         []byte // character data directly inside, for elements that keep it
	kids         []*elem
	line, col    int
	inData       bool // inside a <data> element
}

// get returns the value of the attribute with the given local name (of no
// namespace first), or "".
func (e *elem) get(name string) string {
	v := ""
	for _, a := range e.attr {
		if a.Name.Local == name {
			if a.Name.Space == "" {
				return a.Value
			}
			if v == "" {
				v = a.Value
			}
		}
	}
	return v
}

// kid returns e's first child with the given local name, or nil.
func (e *elem) kid(local string) *elem {
	for _, k := range e.kids {
		if k.local == local {
			return k
		}
	}
	return nil
}

// document is a decoded GraphML file: its root element and its size.
type document struct {
	file  string
	root  *elem // <graphml>
	nodes int   // <node> and <edge> elements kept
}

// decode reads, sniffs and parses a file into a document.
func decode(r io.Reader, opt Options) (*document, error) {
	data, err := readAll(r, opt)
	if err != nil {
		return nil, err
	}
	data, err = sniff(data, opt)
	if err != nil {
		return nil, err
	}
	p := &parser{
		file:     opt.File,
		data:     data,
		lines:    source.NewLines(data),
		maxDepth: 2*opt.MaxDepth + 32,
		maxNodes: opt.MaxElements,
		maxElems: 16*opt.MaxElements + 1024,
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return &document{file: opt.File, root: p.root, nodes: p.nodes}, nil
}

// readAll reads r, refusing more than opt.MaxSize bytes.
func readAll(r io.Reader, opt Options) (string, error) {
	data, err := source.ReadAll(r, opt.MaxSize)
	if errors.Is(err, source.ErrTooLarge) {
		return "", source.Fatal(opt.File, 0, 0, ErrTooLarge, "graphml: the file is larger than "+source.SizeString(opt.MaxSize),
			sentence(chart.LimitHint("MaxSize")))
	}
	if err != nil {
		return "", source.Fatal(opt.File, 0, 0, err, "graphml: cannot read the drawing: "+err.Error(), "")
	}
	return data, nil
}

// sniff recognises what the file is before it is parsed as XML: it
// uncompresses gzip (yEd's .graphmlz), and returns the text in UTF-8,
// without a byte-order mark.
func sniff(data string, opt Options) (string, error) {
	file := opt.File
	notGraphML := func(msg, hint string) (string, error) {
		return "", source.Fatal(file, 0, 0, ErrNotGraphML, "graphml: "+msg, hint)
	}
	if strings.HasPrefix(data, "\x1F\x8B") {
		zr, err := gzip.NewReader(strings.NewReader(data))
		if err != nil {
			return notGraphML("the file starts like a gzip-compressed file but is not one: "+err.Error(), "")
		}
		var b strings.Builder
		_, err = io.Copy(&b, io.LimitReader(zr, opt.MaxSize+1))
		if int64(b.Len()) > opt.MaxSize {
			return "", source.Fatal(file, 0, 0, ErrTooLarge,
				"graphml: the file uncompresses to more than "+source.SizeString(opt.MaxSize),
				sentence(chart.LimitHint("MaxSize")))
		}
		if err != nil {
			return notGraphML("the gzip-compressed file is damaged: "+err.Error(), "")
		}
		data = b.String()
		if strings.HasPrefix(data, "\x1F\x8B") {
			return notGraphML("the file is compressed twice", "")
		}
	}
	if data == "" {
		return notGraphML("the file is empty", "")
	}
	text, enc, ok := source.DecodeText(data, true)
	switch {
	case !ok:
		return notGraphML("the file starts like UTF-16 text but is not", "")
	case enc != source.NoBOM: // text with a byte-order mark, or UTF-16
	case source.IsZip(data):
		return notGraphML("this is a zip archive, not a GraphML file", "In yEd, save the diagram as GraphML (.graphml).")
	}
	if what := source.NotXML(text, nil); what != "" {
		return notGraphML(fmt.Sprintf("this is %s, not a GraphML file (it starts with %s%s)", what, source.QuoteStart(text), source.BinaryWhere(text)), "")
	}
	// A declared single-byte encoding is converted here, so that offsets
	// into the text are offsets into what the XML parser reads.
	switch enc := strings.ToLower(declaredEncoding(text)); enc {
	case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "l1":
		text = source.FromLatin1(text)
	}
	if off := source.InvalidUTF8(text); off >= 0 {
		l, c := source.LineCol(text, off)
		return "", source.Fatal(file, l, c, ErrMalformed, "graphml: malformed XML: invalid UTF-8",
			"The file may be in another encoding than it declares, or damaged; yEd writes UTF-8.")
	}
	return text, nil
}

func notSpace(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' }

// declaredEncoding returns the encoding of the XML declaration that starts
// data, or "".
func declaredEncoding(data string) string {
	if !strings.HasPrefix(data, "<?xml") {
		return ""
	}
	end := strings.Index(data[:min(len(data), 512)], "?>")
	if end < 0 {
		return ""
	}
	return source.PseudoAttr(data[:end], "encoding")
}

// parser builds the tree of kept elements with encoding/xml.
type parser struct {
	file     string
	data     string
	lines    source.Lines
	maxDepth int // of XML elements
	maxNodes int
	maxElems int // of kept elements
	root     *elem
	nodes    int
	elems    int
}

// keepText lists the elements whose character data is kept.
var keepText = map[string]bool{"data": true, "default": true, "NodeLabel": true, "EdgeLabel": true}

// keepInData lists the yEd elements read inside <data>, besides the
// realizers (local names ending in Node or Edge).
var keepInData = map[string]bool{
	"Realizers": true, "Geometry": true, "NodeLabel": true, "EdgeLabel": true, "Shape": true,
	"State": true, "Arrows": true, "StyleProperties": true, "Property": true,
}

// keep reports whether a child named name of the kept element parent is
// kept.
func keep(parent *elem, name xml.Name) bool {
	if parent.inData || parent.local == "data" {
		if name.Space == NamespaceGraphML {
			return false
		}
		l := name.Local
		return keepInData[l] || strings.HasSuffix(l, "Node") || strings.HasSuffix(l, "Edge")
	}
	if name.Space != NamespaceGraphML && name.Space != "" {
		return false
	}
	switch parent.local {
	case "graphml":
		return name.Local == "key" || name.Local == "graph"
	case "key":
		return name.Local == "default"
	case "graph":
		return name.Local == "node" || name.Local == "edge" || name.Local == "hyperedge" || name.Local == "data"
	case "node":
		return name.Local == "data" || name.Local == "graph"
	case "edge":
		return name.Local == "data"
	}
	return false
}

func (p *parser) fail(off int, err error, msg, hint string) error {
	l, c := p.lines.Pos(off)
	return source.Fatal(p.file, l, c, err, msg, hint)
}

func (p *parser) parse() error {
	dec := xml.NewDecoder(strings.NewReader(p.data))
	dec.Strict = true
	dec.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "utf-16", "utf-16le", "utf-16be", "us-ascii", "ascii", "utf8",
			"iso-8859-1", "latin1", "latin-1", "iso8859-1", "l1":
			return input, nil // converted by sniff, or a subset of UTF-8
		}
		return nil, errUnknownEncoding
	}
	var stack []*elem // nil for a skipped element
	depth := 0
	for {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.syntaxError(dec, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > p.maxDepth {
				return p.fail(off, ErrTooDeep, fmt.Sprintf("graphml: XML elements nest more than %d deep", p.maxDepth),
					sentence(chart.LimitHint("MaxDepth")))
			}
			if p.root != nil && len(stack) == 0 {
				return p.fail(off, ErrMalformed, fmt.Sprintf("graphml: malformed XML: a second root element, <%s>, after </graphml>", t.Name.Local), "")
			}
			if p.root == nil {
				if t.Name.Local != "graphml" {
					return p.fail(off, ErrNotGraphML, fmt.Sprintf("graphml: the root element is <%s>, not <graphml>", t.Name.Local), rootHint(t.Name))
				}
				p.root = p.newElem(t, off)
				stack = append(stack, p.root)
				continue
			}
			parent := stack[len(stack)-1]
			if parent == nil || !keep(parent, t.Name) {
				stack = append(stack, nil)
				continue
			}
			p.elems++
			if p.elems > p.maxElems {
				return p.fail(off, ErrTooLarge, fmt.Sprintf("graphml: the file holds more than %d elements that describe nodes and edges", p.maxElems),
					sentence(chart.LimitHint("MaxElements")))
			}
			if t.Name.Local == "node" || t.Name.Local == "edge" || t.Name.Local == "hyperedge" {
				p.nodes++
				if p.nodes > p.maxNodes {
					return p.fail(off, ErrTooLarge, fmt.Sprintf("graphml: the file holds more than %d nodes and edges", p.maxNodes),
						sentence(chart.LimitHint("MaxElements")))
				}
			}
			e := p.newElem(t, off)
			e.inData = parent.inData || parent.local == "data"
			parent.kids = append(parent.kids, e)
			stack = append(stack, e)
		case xml.EndElement:
			depth--
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 && bytes.IndexFunc(t, notSpace) >= 0 {
				return p.fail(off, ErrMalformed, "graphml: malformed XML: text outside the root element", "")
			}
			if len(stack) > 0 {
				if e := stack[len(stack)-1]; e != nil && keepText[e.local] {
					e.text = append(e.text, t...)
				}
			}
		}
	}
	if p.root == nil {
		return source.Fatal(p.file, 0, 0, ErrNotGraphML, "graphml: the file has no root element", "")
	}
	return nil
}

var errUnknownEncoding = errors.New("unknown encoding")

func (p *parser) newElem(t xml.StartElement, off int) *elem {
	l, c := p.lines.Pos(off)
	return &elem{space: t.Name.Space, local: t.Name.Local, attr: t.Attr, line: l, col: c}
}

// syntaxError turns an error of encoding/xml into a positioned one.
func (p *parser) syntaxError(dec *xml.Decoder, err error) error {
	line, col := dec.InputPos()
	if errors.Is(err, errUnknownEncoding) {
		return source.Fatal(p.file, line, col, ErrMalformed, "graphml: the file declares an encoding this reader does not know: "+
			strconv.Quote(declaredEncoding(p.data)), "Save the file as UTF-8, as yEd does.")
	}
	msg := err.Error()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
	} else if err == io.ErrUnexpectedEOF {
		msg = "unexpected end of file"
	}
	return source.Fatal(p.file, line, col, ErrMalformed, "graphml: malformed XML: "+msg, "")
}

// rootHint says what a file with another root element may be.
func rootHint(name xml.Name) string {
	switch name.Local {
	case "mxfile", "mxGraphModel":
		return "This is a draw.io drawing: read it with package chart/drawio."
	case "VisioDocument":
		return "This is a Visio XML drawing: read it with package chart/visio."
	case "scxml":
		return "This is an SCXML state chart: read it with package chart/scxml."
	case "gexf":
		return "This is a GEXF graph; export it from its editor as GraphML."
	case "svg", "html":
		return "This is a picture or a page, not a diagram."
	}
	return ""
}
