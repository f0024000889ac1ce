package scxml

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// document is an SCXML file as a tree of the elements the reader looks
// into. Elements of executable content, data models and other namespaces
// are leaves: their contents are skipped (but for the children of
// <raise>, <send> and <cancel>, kept as leaves to be reported).
type document struct {
	root     *node
	file     string
	ns       string            // the namespace read as SCXML's: SCXMLNamespace, or "" for a file that declares none
	prefixes map[string]string // namespace → the prefix the file binds it to, for messages
}

// node is an element.
type node struct {
	space, local string
	attrs        []xml.Attr // of SCXML elements (not within <raise>, <send>, <cancel>), and of leaves in fsmforge's and Qt's namespaces
	kids         []*node
	line, col    int
}

// attr returns the value of the attribute space:local and whether it is
// there.
func (n *node) attr(space, local string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// structural lists the SCXML elements whose children the reader reads.
var structural = map[string]bool{
	"scxml": true, "state": true, "parallel": true, "final": true, "initial": true,
	"history": true, "transition": true, "onentry": true, "onexit": true,
	"if": true, // its branches hold executable content
}

// actionElements lists the executable content a chart keeps, whose
// children the reader keeps as leaves, to report them.
var actionElements = map[string]bool{"raise": true, "send": true, "cancel": true}

// sniff recognises what the file is before it is parsed as XML: it returns
// the text in UTF-8, without a byte-order mark.
func sniff(src, file string) (string, error) {
	notSCXML := func(msg, hint string) (string, error) {
		return "", source.Fatal(file, 0, 0, ErrNotSCXML, "scxml: "+msg, hint)
	}
	if strings.TrimSpace(src) == "" {
		return notSCXML("the file is empty", "")
	}
	text, enc, ok := source.DecodeText(src, false)
	switch {
	case !ok:
		return notSCXML("the file starts like UTF-16 text but is not", "")
	case enc != source.NoBOM: // text with a byte-order mark
	case source.IsZip(src):
		return notSCXML("this is a zip archive, not an SCXML document", "unzip it first, or export the state machine as SCXML")
	case strings.HasPrefix(src, "\x1F\x8B"):
		return notSCXML("this is a gzip-compressed file, not an SCXML document", "uncompress it first")
	}
	if what := source.NotXML(text, unicode.IsSpace); what != "" {
		return notSCXML(fmt.Sprintf("this is %s, not an SCXML document (it starts with %s%s)", what, source.QuoteStart(text), source.BinaryWhere(text)), "")
	}
	switch declared := strings.ToLower(declaredEncoding(text)); declared {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
	case "utf-16", "utf-16le", "utf-16be", "utf16":
		if !enc.UTF16() {
			return "", source.Fatal(file, 1, 1, ErrMalformed, "scxml: the file declares encoding "+strconv.Quote(declared)+" but has no UTF-16 byte-order mark",
				"save the file as UTF-8")
		}
	case "iso-8859-1", "latin1", "latin-1", "iso_8859-1", "l1":
		text = source.FromLatin1(text)
	default:
		return "", source.Fatal(file, 1, 1, ErrMalformed, "scxml: encoding "+strconv.Quote(declared)+" is not supported",
			"save the file as UTF-8, the encoding SCXML editors write")
	}
	if off := source.InvalidUTF8(text); off >= 0 {
		line, col := source.LineCol(text, off)
		return "", source.Fatal(file, line, col, ErrMalformed, "scxml: malformed XML: invalid UTF-8",
			"the file may be in another encoding than it declares, or damaged; save it as UTF-8")
	}
	return text, nil
}

// declaredEncoding returns the encoding of the XML declaration at the
// start of src, or "".
func declaredEncoding(src string) string {
	if !strings.HasPrefix(src, "<?xml") {
		return ""
	}
	decl := src
	if i := strings.Index(src, "?>"); i >= 0 {
		decl = src[:i]
	}
	return source.PseudoAttr(decl, "encoding")
}

// parser builds a document from the tokens of encoding/xml.
type parser struct {
	d           *xml.Decoder
	doc         *document
	lines       source.Lines
	maxDepth    int
	left        int // elements the reader may still keep
	maxElements int
}

// parse reads src into a document. It fails on malformed XML, a root that
// is not <scxml>, and elements nested deeper than opt.MaxDepth.
func parse(src string, opt Options) (*document, error) {
	p := &parser{
		d:           xml.NewDecoder(strings.NewReader(src)),
		doc:         &document{file: opt.File, prefixes: map[string]string{}},
		lines:       source.NewLines(src),
		maxDepth:    opt.MaxDepth + 32,
		left:        opt.MaxElements,
		maxElements: opt.MaxElements,
	}
	p.d.Strict = true
	p.d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // sniff converted it
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

func (p *parser) run() error {
	var stack []*node // the open elements whose children are read
	for {
		off := int(p.d.InputOffset())
		tok, err := p.d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line, col := p.lines.Pos(off)
			if len(stack)+1 > p.maxDepth {
				return p.tooDeep(line, col)
			}
			if p.left--; p.left < 0 {
				return source.Fatal(p.doc.file, line, col, ErrTooLarge, fmt.Sprintf("scxml: the file has more than %d elements", p.maxElements),
					chart.LimitHint("MaxElements"))
			}
			p.declare(t.Attr)
			if p.doc.root == nil {
				if err := p.rootElement(t, line, col); err != nil {
					return err
				}
				n := &node{space: t.Name.Space, local: t.Name.Local, attrs: t.Attr, line: line, col: col}
				p.doc.root = n
				stack = append(stack, n)
				continue
			}
			if len(stack) == 0 {
				return source.Fatal(p.doc.file, line, col, ErrMalformed, "scxml: malformed XML: an element after the end of the root element <scxml>",
					"an XML document has one root element; remove what follows </scxml>")
			}
			n := &node{space: t.Name.Space, local: t.Name.Local, line: line, col: col}
			parent := stack[len(stack)-1]
			parent.kids = append(parent.kids, n)
			inAction := parent.space == p.doc.ns && actionElements[parent.local]
			switch {
			case inAction: // the content of <send>, <raise> or <cancel>: a leaf without attributes
			case t.Name.Space == p.doc.ns && (structural[t.Name.Local] || actionElements[t.Name.Local]):
				n.attrs = t.Attr
				stack = append(stack, n)
				continue
			case t.Name.Space == p.doc.ns && executable[t.Name.Local],
				t.Name.Space == Namespace || t.Name.Space == QtNamespace || t.Name.Space == qtRuntimeNamespace || t.Name.Space == "qt":
				n.attrs = t.Attr
			}
			if err := p.skip(len(stack) + 1); err != nil {
				return err
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if p.doc.root == nil {
		return source.Fatal(p.doc.file, 0, 0, ErrNotSCXML, "scxml: the file has no root element", "")
	}
	return nil
}

// skip reads the contents of an element at the given depth, which the
// reader does not look into, up to its end tag.
func (p *parser) skip(depth int) error {
	for open := 1; open > 0; {
		off := int(p.d.InputOffset())
		tok, err := p.d.Token()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return p.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			open++
			if depth+open-1 > p.maxDepth {
				line, col := p.lines.Pos(off)
				return p.tooDeep(line, col)
			}
			p.declare(t.Attr)
		case xml.EndElement:
			open--
		}
	}
	return nil
}

// declare records the prefixes the attributes bind namespaces to.
func (p *parser) declare(attrs []xml.Attr) {
	for _, a := range attrs {
		if a.Name.Space == "xmlns" {
			if _, ok := p.doc.prefixes[a.Value]; !ok {
				p.doc.prefixes[a.Value] = a.Name.Local
			}
		}
	}
}

// rootElement checks the root element.
func (p *parser) rootElement(t xml.StartElement, line, col int) error {
	switch {
	case t.Name.Local == "scxml" && t.Name.Space == SCXMLNamespace:
		p.doc.ns = SCXMLNamespace
		return nil
	case t.Name.Local == "scxml" && t.Name.Space == "":
		p.doc.ns = "" // reported by interpret
		return nil
	case t.Name.Local == "scxml":
		return source.Fatal(p.doc.file, line, col, ErrNotSCXML,
			fmt.Sprintf("scxml: the root element <scxml> is in namespace %q, not SCXML's %q", t.Name.Space, SCXMLNamespace),
			`declare xmlns="`+SCXMLNamespace+`" on the root element`)
	}
	hint := ""
	switch strings.ToLower(t.Name.Local) {
	case "mxfile", "mxgraphmodel":
		hint = "it looks like a draw.io diagram"
	case "visiodocument":
		hint = "it looks like a Visio XML drawing (.vdx)"
	case "graphml":
		hint = "it looks like a GraphML graph (yEd)"
	case "svg":
		hint = "it looks like an SVG picture"
	case "html":
		hint = "it looks like a web page"
	case "xmi", "model":
		hint = "it looks like a UML model (XMI)"
	}
	return source.Fatal(p.doc.file, line, col, ErrNotSCXML, fmt.Sprintf("scxml: the root element is <%s>, not <scxml>", t.Name.Local), hint)
}

func (p *parser) tooDeep(line, col int) error {
	return source.Fatal(p.doc.file, line, col, ErrTooDeep, fmt.Sprintf("scxml: elements nest more than %d deep", p.maxDepth),
		chart.LimitHint("MaxDepth"))
}

// syntaxError turns an error of encoding/xml into a diagnostic at the
// decoder's position.
func (p *parser) syntaxError(err error) error {
	line, col := p.d.InputPos()
	msg := err.Error()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
		if se.Line > 0 && se.Line != line {
			line, col = se.Line, 0
		}
	} else if err == io.ErrUnexpectedEOF {
		msg = "unexpected end of file"
	}
	return source.Fatal(p.doc.file, line, col, ErrMalformed, "scxml: malformed XML: "+strings.TrimPrefix(msg, "xml: "),
		"the file is damaged or was not written by an XML tool; open it in an XML editor at this line")
}
