package w3c

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/source"
)

// ConfNamespace is the namespace of the test suite's placeholders, bound
// to the prefix conf in every test.
const ConfNamespace = "http://www.w3.org/2005/scxml-conformance"

// SCXMLNamespace is the namespace of SCXML 1.0, which Convert's output is
// in.
const SCXMLNamespace = "http://www.w3.org/2005/07/scxml"

// Hints of Convert's diagnostics.
const (
	hintDataModel = "the test needs a data model; NoDataModel lists the tests that do not"
	hintDeclare   = `declare it on the root: xmlns:conf="` + ConfNamespace + `"`
)

// Convert converts a test of the suite (a .txml file) into a plain SCXML
// document for the null data model: the placeholders of the conformance
// namespace are replaced, and the rest of the file is copied byte for
// byte (comments, white space and layout kept), so that the output can be
// read side by side with the test. A document with no placeholders (such
// as the suite's null/test436.scxml, already converted) comes back as it
// is, but for its declaration of the conformance namespace.
//
// It replaces
//
//   - <conf:pass/> and <conf:fail/> by <final id="pass"/> and
//     <final id="fail"/> (uscxml's conversion adds an <onentry> with a
//     <log>, which only reports the outcome: the outcome is the final
//     state the machine halts in);
//   - conf:targetpass="" and conf:targetfail="" by target="pass" and
//     target="fail";
//   - conf:datamodel="" by datamodel="null";
//   - conf:delay="N" (seconds) by delay="Ns" (uscxml's conversions for
//     data models with expressions write delayexpr="'Ns'");
//   - conf:inState="s" by cond="In('s')", and conf:true="" and
//     conf:false="" by cond="true" and cond="false";
//   - and it takes out every declaration of the conformance namespace
//     (xmlns:conf="..."), with the white space before it, but for the
//     end of a line: the output has the input's lines, and a line
//     without placeholders is the same in both.
//
// Every other placeholder stands for an expression, a location or a
// script of a data model: Convert reports it and returns no document.
// The attributes it writes are quoted with '"', whatever quote the
// placeholder used.
//
// The error, when there is one, is a [diag.List] in document
// order, each at the line and column of the placeholder (Pos.File is
// empty: the caller knows the file's name): placeholders that need a data
// model or whose values mean nothing (conf:delay="soon"), an
// attribute that a replacement would write twice, a document that is not
// well-formed XML, whose root is not SCXML's <scxml>, or that is not
// UTF-8. Convert does not check that the document is valid SCXML
// otherwise. It never panics; it costs time and memory in proportion to
// the document's size.
func Convert(txml []byte) ([]byte, error) {
	c := &converter{src: txml, lines: source.NewLines(string(txml))}
	out := c.run()
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	return out, nil
}

// converter holds the state of one Convert.
type converter struct {
	src   []byte
	lines source.Lines
	dec   *xml.Decoder
	diags diag.List

	out    bytes.Buffer
	copied int // src[:copied] is in out, or replaced there

	defaults []string // the default namespace in scope, one per open element
	roots    int      // elements seen at depth 0
	stopped  bool     // on malformed XML, or maxErrors reached
}

// maxErrors is the most diagnostics Convert reports: a document made of
// errors would otherwise be reported at length.
const maxErrors = 100

func (c *converter) run() []byte {
	if off := source.InvalidUTF8(string(c.src)); off >= 0 {
		c.errorAt(off, "the document is not UTF-8 (byte 0x%02X)", "save it as UTF-8", c.src[off])
		return nil
	}
	c.dec = xml.NewDecoder(bytes.NewReader(c.src))
	for !c.stopped {
		start := int(c.dec.InputOffset())
		tok, err := c.dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.syntaxError(err, start)
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			c.startElement(t, start)
		case xml.EndElement:
			c.defaults = c.defaults[:len(c.defaults)-1]
		case xml.CharData:
			c.charData(t, start)
		}
	}
	if c.stopped {
		return nil
	}
	if c.roots == 0 {
		c.errorAt(len(c.src), "the document has no root element", "")
		return nil
	}
	c.out.Write(c.src[c.copied:])
	return c.out.Bytes()
}

// syntaxError reports err, an error of the decoder, at the token that
// starts at off.
func (c *converter) syntaxError(err error, off int) {
	defer func() { c.stopped = true }()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := strings.TrimPrefix(se.Msg, "xml: ")
		c.diags = append(c.diags, diag.Diagnostic{Pos: diag.Pos{Line: se.Line}, Message: "w3c: malformed XML: " + msg})
		return
	}
	c.errorAt(off, "malformed XML: %s", "", strings.TrimPrefix(err.Error(), "xml: "))
}

func (c *converter) errorAt(off int, format, hint string, args ...any) {
	if c.stopped {
		return
	}
	if len(c.diags) == maxErrors {
		c.diags = append(c.diags, diag.Diagnostic{Message: fmt.Sprintf("w3c: more than %d errors; stopped", maxErrors)})
		c.stopped = true
		return
	}
	line, col := c.lines.Pos(off)
	c.diags = append(c.diags, diag.Diagnostic{
		Pos:     diag.Pos{Line: line, Col: col},
		Message: "w3c: " + fmt.Sprintf(format, args...),
		Hint:    hint,
	})
}

// charData refuses text around the root element, which encoding/xml lets
// through.
func (c *converter) charData(t xml.CharData, off int) {
	if len(c.defaults) > 0 {
		return
	}
	text := t
	if off == 0 {
		text = bytes.TrimPrefix(text, []byte("\uFEFF")) // a byte-order mark
	}
	if s := bytes.TrimLeft(text, " \t\r\n"); len(s) > 0 {
		c.errorAt(off+len(t)-len(s), "text %s outside the root element", "", source.Quote(string(s)))
	}
}

// startElement converts the element that t starts, at offset off: a
// placeholder element whole, another element's start tag.
func (c *converter) startElement(t xml.StartElement, off int) {
	end := int(c.dec.InputOffset())
	def := c.defaultNamespace(t)
	c.defaults = append(c.defaults, def)
	if len(c.defaults) == 1 {
		c.roots++
		if c.roots > 1 {
			c.errorAt(off, "a second root element, <%s>", "", qname(c.src[off:end]))
		} else if t.Name.Space != SCXMLNamespace || t.Name.Local != "scxml" {
			c.errorAt(off, "the root element is <%s>, not <scxml> of namespace %s", "", qname(c.src[off:end]), SCXMLNamespace)
		}
	}
	switch t.Name.Space {
	case ConfNamespace:
		c.placeholderElement(t, off)
		return
	case "conf":
		c.errorAt(off, "the prefix conf of <%s> is not declared", hintDeclare, qname(c.src[off:end]))
	}
	c.startTag(t, off, end)
}

// defaultNamespace returns the default namespace in the scope of the
// element that t starts.
func (c *converter) defaultNamespace(t xml.StartElement) string {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == "xmlns" {
			return a.Value
		}
	}
	if n := len(c.defaults); n > 0 {
		return c.defaults[n-1]
	}
	return ""
}

// placeholderElement replaces the element of the conformance namespace
// that t starts at off, reading it to its end.
func (c *converter) placeholderElement(t xml.StartElement, off int) {
	name := qname(c.src[off:int(c.dec.InputOffset())])
	var final string
	switch t.Name.Local {
	case "pass", "fail":
		final = `<final id="` + t.Name.Local + `"/>`
		if parent := len(c.defaults) - 2; parent < 0 || c.defaults[parent] != SCXMLNamespace {
			c.errorAt(off, "<%s> is where the default namespace is not SCXML's: <final> would not be an SCXML element", "", name)
		}
		for _, a := range t.Attr {
			if a.Name.Space != "xmlns" && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
				c.errorAt(off, "<%s> has an attribute %s; it takes none", "", name, attrName(a.Name))
				break
			}
		}
	default:
		c.errorAt(off, "<%s> needs a data model", hintDataModel, name)
	}
	if !c.skipContent(name) {
		return
	}
	c.out.Write(c.src[c.copied:off])
	c.out.WriteString(final)
	c.copied = int(c.dec.InputOffset())
}

// skipContent reads to the end of the placeholder element name, whose
// start tag is the last token read; it reports content other than white
// space and comments. It returns false on malformed XML.
func (c *converter) skipContent(name string) bool {
	for depth := 1; depth > 0; {
		if c.stopped {
			return false
		}
		start := int(c.dec.InputOffset())
		tok, err := c.dec.Token()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			c.syntaxError(err, start)
			return false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 1 {
				c.errorAt(start, "<%s> holds an element; it must be empty", "", name)
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 1 && len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				c.errorAt(start, "<%s> holds text; it must be empty", "", name)
			}
		}
	}
	c.defaults = c.defaults[:len(c.defaults)-1]
	return true
}

// startTag copies the start tag src[off:end] of t to the output with its
// placeholder attributes replaced and its declarations of the conformance
// namespace taken out.
func (c *converter) startTag(t xml.StartElement, off, end int) {
	spans, ok := lexAttrs(c.src[off:end])
	if !ok || len(spans) != len(t.Attr) {
		// The decoder read the tag: this is a bug of lexAttrs.
		c.errorAt(off, "internal error: cannot read the attributes of <%s>; please report it with the file", "", qname(c.src[off:end]))
		return
	}
	var edits []edit
	for i, a := range t.Attr {
		sp := spans[i]
		sp.shift(off)
		switch {
		case (a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns") && a.Value == ConfNamespace:
			edits = append(edits, c.removal(sp, end))
		case a.Name.Space == ConfNamespace:
			if e, ok := c.placeholderAttr(t, a, sp); ok {
				edits = append(edits, e)
			}
		case a.Name.Space == "conf":
			c.errorAt(sp.name, "the prefix conf of %s is not declared", hintDeclare, attrName(a.Name))
		}
	}
	if len(edits) == 0 {
		return
	}
	c.checkDuplicates(t, spans, edits, off)
	for _, e := range edits {
		c.out.Write(c.src[c.copied:e.from])
		c.out.WriteString(e.text)
		c.copied = e.to
	}
}

// removal returns the edit that takes out the attribute at sp, in a
// start tag that ends at end, keeping the lines: with the white space
// before it when it does not start a line, else with the white space after
// it when another attribute follows on the same line.
func (c *converter) removal(sp attrSpan, end int) edit {
	e := edit{from: sp.space, to: sp.end}
	nl := bytes.LastIndexByte(c.src[sp.space:sp.name], '\n')
	if nl < 0 {
		return e
	}
	e.from = sp.space + nl + 1
	j := sp.end
	for j < end && (c.src[j] == ' ' || c.src[j] == '\t') {
		j++
	}
	if j < end && !isSpace(c.src[j]) && c.src[j] != '/' && c.src[j] != '>' {
		e.to = j
	}
	return e
}

// edit replaces src[from:to] by text.
type edit struct {
	from, to int
	text     string
	attr     string // the attribute text writes, or ""
	pos      int    // the placeholder's offset, for messages
	holder   string // the placeholder, for messages
}

// placeholderAttr returns the edit that replaces the placeholder
// attribute a of t, whose text is at sp; false when a needs a data model
// or its value means nothing.
func (c *converter) placeholderAttr(t xml.StartElement, a xml.Attr, sp attrSpan) (edit, bool) {
	holder := "conf:" + a.Name.Local
	elem := t.Name.Local
	var name, value string
	switch a.Name.Local {
	case "targetpass":
		name, value = "target", "pass"
	case "targetfail":
		name, value = "target", "fail"
	case "datamodel":
		name, value = "datamodel", "null"
	case "delay":
		if !isSeconds(a.Value) {
			c.errorAt(sp.name, "%s=%s on <%s> is not a number of seconds", `write conf:delay="1" or conf:delay="1.5"`, holder, source.Quote(a.Value), elem)
			return edit{}, false
		}
		name, value = "delay", a.Value+"s"
	case "inState":
		if !isStateID(a.Value) {
			c.errorAt(sp.name, "%s=%s on <%s> is not a state's id", "", holder, source.Quote(a.Value), elem)
			return edit{}, false
		}
		name, value = "cond", "In('"+a.Value+"')"
	case "true", "false":
		name, value = "cond", a.Name.Local
	default:
		c.errorAt(sp.name, "%s=%s on <%s> needs a data model", hintDataModel, holder, source.Quote(a.Value), elem)
		return edit{}, false
	}
	return edit{
		from: sp.name, to: sp.end,
		text: name + `="` + escapeAttr(value) + `"`,
		attr: name, pos: sp.name, holder: holder,
	}, true
}

// checkDuplicates reports the attributes that the edits of the start tag
// of t (at off) would write twice.
func (c *converter) checkDuplicates(t xml.StartElement, spans []attrSpan, edits []edit, off int) {
	for i, e := range edits {
		if e.attr == "" {
			continue
		}
		for j, a := range t.Attr {
			if a.Name.Space == "" && a.Name.Local == e.attr {
				line, _ := c.lines.Pos(off + spans[j].name)
				c.errorAt(e.pos, "%s on <%s> writes %s, which the element has already (line %d)", "", e.holder, t.Name.Local, e.attr, line)
			}
		}
		for _, f := range edits[:i] {
			if f.attr == e.attr {
				c.errorAt(e.pos, "%s on <%s> writes %s, which %s writes already", "", e.holder, t.Name.Local, e.attr, f.holder)
			}
		}
	}
}

// isSeconds reports whether s is a number of seconds as the tests write
// them: digits, optionally with a fraction ("1", "1.5").
func isSeconds(s string) bool {
	digits := func(s string) bool {
		if s == "" {
			return false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	whole, frac, dot := strings.Cut(s, ".")
	return digits(whole) && (!dot || digits(frac))
}

// isStateID reports whether s can be the id of a state in In('s'): not
// empty, without white space or quotes.
func isStateID(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\r\n'\"")
}

// escapeAttr escapes s for an attribute value quoted with '"'.
func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;").Replace(s)
}

// attrName returns the name of an attribute for a message: conf:x for one
// of the conformance namespace.
func attrName(n xml.Name) string {
	switch n.Space {
	case "":
		return n.Local
	case ConfNamespace:
		return "conf:" + n.Local
	}
	return n.Space + ":" + n.Local
}

// qname returns the element name of the tag tag, as written, shortened
// for a message.
func qname(tag []byte) string {
	tag = bytes.TrimPrefix(tag, []byte("<"))
	if i := bytes.IndexAny(tag, " \t\r\n/>"); i >= 0 {
		tag = tag[:i]
	}
	return source.Shorten(string(tag), source.MaxQuoted)
}
