package scxml

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// document is an SCXML file as a tree of the elements the reader looks
// into. Elements of executable content, data models and other namespaces
// are leaves: their contents are skipped.
type document struct {
	root     *node
	file     string
	ns       string            // the namespace read as SCXML's: SCXMLNamespace, or "" for a file that declares none
	prefixes map[string]string // namespace → the prefix the file binds it to, for messages
}

// node is an element.
type node struct {
	space, local string
	attrs        []xml.Attr // of SCXML elements, and of leaves in fsmforge's and Qt's namespaces
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
}

// sniff recognises what the file is before it is parsed as XML: it returns
// the text in UTF-8, without a byte-order mark.
func sniff(src, file string) (string, error) {
	notSCXML := func(msg, hint string) (string, error) {
		return "", fatal(file, 0, 0, ErrNotSCXML, "scxml: "+msg, hint)
	}
	utf16 := false
	switch {
	case strings.TrimSpace(src) == "":
		return notSCXML("the file is empty", "")
	case strings.HasPrefix(src, "\xEF\xBB\xBF"):
		src = src[3:]
	case strings.HasPrefix(src, "\xFF\xFE"), strings.HasPrefix(src, "\xFE\xFF"):
		s, ok := fromUTF16(src[2:], src[0] == 0xFE)
		if !ok {
			return notSCXML("the file starts like UTF-16 text but is not", "")
		}
		src, utf16 = s, true
	case strings.HasPrefix(src, "PK\x03\x04"), strings.HasPrefix(src, "PK\x05\x06"):
		return notSCXML("this is a zip archive, not an SCXML document", "unzip it first, or export the state machine as SCXML")
	case strings.HasPrefix(src, "\x1F\x8B"):
		return notSCXML("this is a gzip-compressed file, not an SCXML document", "uncompress it first")
	}
	head := src[:min(len(src), 1024)]
	if i := strings.IndexFunc(src, notSpace); i < 0 || src[i] != '<' || strings.IndexByte(head, 0) >= 0 {
		what := "a binary file"
		if strings.IndexByte(head, 0) < 0 && utf8.ValidString(head) {
			what = "a text file that is not XML"
		}
		return notSCXML(fmt.Sprintf("this is %s, not an SCXML document (it starts with %s)", what, quoteStart(src)), "")
	}
	switch enc := strings.ToLower(declaredEncoding(src)); enc {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
	case "utf-16", "utf-16le", "utf-16be", "utf16":
		if !utf16 {
			return "", fatal(file, 1, 1, ErrMalformed, "scxml: the file declares encoding "+strconv.Quote(enc)+" but has no UTF-16 byte-order mark",
				"save the file as UTF-8")
		}
	case "iso-8859-1", "latin1", "latin-1", "iso_8859-1", "l1":
		src = fromLatin1(src)
	default:
		return "", fatal(file, 1, 1, ErrMalformed, "scxml: encoding "+strconv.Quote(enc)+" is not supported",
			"save the file as UTF-8, the encoding SCXML editors write")
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
		l := lineIndex{src: src, line: 1}
		line, col := l.pos(off)
		return "", fatal(file, line, col, ErrMalformed, "scxml: malformed XML: invalid UTF-8",
			"the file may be in another encoding than it declares, or damaged; save it as UTF-8")
	}
	return src, nil
}

func notSpace(r rune) bool { return !unicode.IsSpace(r) }

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
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end < 0 {
		return ""
	}
	return rest[1 : 1+end]
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

// fromLatin1 decodes ISO 8859-1 text.
func fromLatin1(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// quoteStart quotes the first bytes of s for a message.
func quoteStart(s string) string {
	const n = 16
	if len(s) > n {
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

// lineIndex turns byte offsets into line and column, moving forward; a
// step back starts over from the beginning.
type lineIndex struct {
	src             string
	off, line, from int // from: offset of the line's first byte
}

func (x *lineIndex) pos(off int) (line, col int) {
	off = min(max(off, 0), len(x.src))
	if off < x.off {
		x.off, x.line, x.from = 0, 1, 0
	}
	seg := x.src[x.off:off]
	if n := strings.Count(seg, "\n"); n > 0 {
		x.line += n
		x.from = x.off + strings.LastIndexByte(seg, '\n') + 1
	}
	x.off = off
	return x.line, off - x.from + 1
}

// parser builds a document from the tokens of encoding/xml.
type parser struct {
	d           *xml.Decoder
	doc         *document
	lines       lineIndex
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
		lines:       lineIndex{src: src, line: 1},
		maxDepth:    opt.MaxDepth,
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
			line, col := p.lines.pos(off)
			if len(stack)+1 > p.maxDepth {
				return p.tooDeep(line, col)
			}
			if p.left--; p.left < 0 {
				return fatal(p.doc.file, line, col, ErrTooLarge, fmt.Sprintf("scxml: the file has more than %d elements", p.maxElements),
					"raise Options.MaxElements if the state machine really is this large")
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
				return fatal(p.doc.file, line, col, ErrMalformed, "scxml: malformed XML: an element after the end of the root element <scxml>",
					"an XML document has one root element; remove what follows </scxml>")
			}
			n := &node{space: t.Name.Space, local: t.Name.Local, line: line, col: col}
			parent := stack[len(stack)-1]
			parent.kids = append(parent.kids, n)
			if t.Name.Space == p.doc.ns && structural[t.Name.Local] {
				n.attrs = t.Attr
				stack = append(stack, n)
				continue
			}
			if t.Name.Space == Namespace || t.Name.Space == QtNamespace || t.Name.Space == qtRuntimeNamespace || t.Name.Space == "qt" {
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
		return fatal(p.doc.file, 0, 0, ErrNotSCXML, "scxml: the file has no root element", "")
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
				line, col := p.lines.pos(off)
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
		return fatal(p.doc.file, line, col, ErrNotSCXML,
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
	return fatal(p.doc.file, line, col, ErrNotSCXML, fmt.Sprintf("scxml: the root element is <%s>, not <scxml>", t.Name.Local), hint)
}

func (p *parser) tooDeep(line, col int) error {
	return fatal(p.doc.file, line, col, ErrTooDeep, fmt.Sprintf("scxml: elements nest more than %d deep", p.maxDepth),
		"raise Options.MaxDepth if the state machine really nests this deeply")
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
	return fatal(p.doc.file, line, col, ErrMalformed, "scxml: malformed XML: "+strings.TrimPrefix(msg, "xml: "),
		"the file is damaged or was not written by an XML tool; open it in an XML editor at this line")
}
