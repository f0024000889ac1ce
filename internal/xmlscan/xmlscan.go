// Package xmlscan is a small, fast XML scanner for the importers of large
// drawings (chart/visio, chart/drawio). encoding/xml spends most of a large
// drawing's import allocating tokens nobody reads (a drawing is mostly
// geometry and formatting); a [Scanner] returns substrings of the
// document, allocates only to replace entity references, and still checks
// that the XML is well-formed: names, quoting, entity references, nesting,
// a single root. It resolves element namespaces but not attribute ones
// (the drawings' attributes have no prefix, but for a few looked up with
// [Scanner.AttrNS]). It does not expand entities declared in a DOCTYPE: a
// reference to one is an error.
//
// It refuses the characters XML 1.0 does not allow, written as they are
// or as character references: control characters other than tab, line
// feed and carriage return (a NUL byte among them), U+FFFE and U+FFFF, and
// (as references) surrogates. It refuses them wherever they are, as
// encoding/xml does in text, attribute values and CDATA sections, and
// where encoding/xml lets them through: in comments, processing
// instructions and the DOCTYPE, and &#xD800; (which encoding/xml reads as
// U+FFFD). Invalid UTF-8 is its callers' to refuse: it is not checked.
// Messages quote at most [source.MaxQuoted] bytes of a name.
//
// Besides the document (or a window of it), a scanner holds the open
// elements with their namespace bindings, and the current start tag's
// attributes, at most [Scanner.MaxAttrs] of them. A start tag costs time
// in proportion to its length, however many bindings are in scope.
//
// # Sections
//
//   - Tokens: [Scanner.Next] moves to the next token, of a [Kind]; the
//     token's name, attributes ([Attr]), text and offset are read with
//     the Scanner's methods.
//   - Walking the tree: [Scanner.Depth], [Scanner.Child], [Scanner.Skip],
//     [Scanner.Text].
//   - Errors: [Scanner.Err] returns the [SyntaxError] that stopped the
//     scanner, at a byte offset; [Scanner.LineCol] (or package
//     internal/source) turns offsets into lines and columns.
//   - Streaming: a scanner of [NewReader] reads its document from an
//     [io.Reader] and holds only a window of it, for the large parts of
//     a zip package, which are not in memory: the tokens, errors and
//     offsets are those of the whole document.
package xmlscan

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/internal/source"
)

// Kind is the kind of the scanner's current token.
type Kind uint8

const (
	None     Kind = iota // no token: before the first, at the end, or after an error
	StartTag             // a start tag (also for <x/>, followed by its EndTag)
	EndTag               // an end tag
	CharData             // character data or a CDATA section
)

// Attr is an attribute of a start tag, as written.
type Attr struct {
	Prefix, Local string
	Raw           string // as written: entity references not replaced
}

// Value returns the attribute's value, entity references replaced.
func (a *Attr) Value() string { return Unescape(a.Raw) }

type openElem struct {
	qname string // as written, to match the end tag
	off   int
	nns   int // namespace bindings the element declares
	// For a scanner of NewReader, the line and column of off once the
	// window has left it behind (0 before).
	line, col int
}

type nsBinding struct {
	prefix, uri string
	hides       int // index in Scanner.ns of the binding of prefix this one hides, or -1
}

// SyntaxError is malformed XML at a byte offset of the document, or for a
// scanner of [NewReader], its reader's error.
type SyntaxError struct {
	Offset int
	Msg    string
	Deep   bool  // elements nested deeper than the scanner's limit
	Read   error // the reader's error, when reading the document failed

	TooManyAttrs bool // a start tag has more attributes than the scanner's MaxAttrs

	final bool // reading more of the document cannot change the error
}

// Error returns Msg.
func (e *SyntaxError) Error() string { return e.Msg }

// Scanner reads the tokens of an XML document held in a string, or read
// from an [io.Reader] (see [NewReader]). It is not safe for concurrent
// use.
type Scanner struct {
	// UTF16 says that the document was UTF-16, decoded to UTF-8 before
	// scanning: its XML declaration may then say UTF-16. False by
	// default: a declaration of UTF-16 is an error.
	UTF16 bool

	// Editor names the program that writes the documents read, in the
	// error for an encoding other than UTF-8 ("encoding "latin1" is not
	// supported: Visio writes UTF-8"); "" leaves that part out.
	Editor string

	// MaxAttrs is the most attributes a start tag may have, namespace
	// declarations included; 0 means DefaultMaxAttrs. The scanner holds
	// a start tag's attributes (48 bytes each) until the next start tag:
	// a tag of tens of millions of them would exhaust the memory. A tag
	// with more stops the scanner with a [SyntaxError] at the tag, whose
	// TooManyAttrs is set.
	MaxAttrs int

	src      string // the document, or the window of it a reader's scanner holds
	off      int    // where the next token starts, in src
	maxDepth int

	// The current token.
	kind          Kind
	tokOff        int // in the document
	local, prefix string
	space         string // element's namespace URI
	attrs         []Attr // start tag's attributes, xmlns ones left out
	raw           string // text as written
	cdata         bool   // raw is a CDATA section's content
	selfClosing   bool   // the start tag was <x/>: its end comes next

	stack    []openElem
	ns       []nsBinding    // the namespace bindings in scope, the innermost last
	nsTop    map[string]int // prefix → index in ns of its binding in scope (see bind)
	rootDone bool
	err      *SyntaxError

	// illegal is the document's offset of the first character XML does
	// not allow in the text read so far, or -1: the scanner stops there
	// once a token reaches it.
	illegal int

	// Lines: at is where LineCol last was; start is the line of src[0].
	at, start linePos

	// A scanner of NewReader: src is a window of the document, which
	// starts at the document's offset base; r gives what follows it.
	r        io.Reader
	base     int
	window   int    // the least a window holds, but at the document's end
	eof      bool   // r is read to its end: src ends where the document does
	inWindow bool   // Next is reading a token of the window
	chunk    []byte // what r reads into
	pending  [utf8.UTFMax]byte
	npending int // bytes of pending: the start of a character r has yet to complete
}

// linePos is an offset of the document, its line, from 1, and the offset
// where that line starts.
type linePos struct{ off, line, from int }

// advance moves p forward to off; seg is the document's text from p.off
// to off.
func (p *linePos) advance(seg string, off int) {
	if n := strings.Count(seg, "\n"); n > 0 {
		p.line += n
		p.from = p.off + strings.LastIndexByte(seg, '\n') + 1
	}
	p.off = off
}

// DefaultMaxAttrs is the default of [Scanner.MaxAttrs]: 1,048,576
// attributes, 48 MiB of [Attr], far more than any drawing's element has.
const DefaultMaxAttrs = 1 << 20

// New returns a scanner of the document src whose elements may nest
// maxDepth deep.
func New(src string, maxDepth int) *Scanner {
	return &Scanner{src: src, maxDepth: maxDepth, attrs: make([]Attr, 0, 16), at: linePos{line: 1}, start: linePos{line: 1}, illegal: illegalAt(src)}
}

// NewReader returns a scanner of the document r reads, whose elements may
// nest maxDepth deep, that holds no more of the document than window
// bytes (at least one) at a time, or twice its longest token if that is
// more: the parts of the document its tokens have left behind are
// garbage, but for the strings that the scanner returned and that its
// caller keeps (clone them). It reads the document as it goes, and never
// splits a UTF-8 character.
//
// Tokens, errors and their offsets are those a scanner of the whole
// document ([New]) finds, with one exception: when r fails, the scanner
// stops with a [SyntaxError] whose Read field holds r's error. Finding
// that the XML is malformed may take reading the rest of the document:
// until then, a token cut by the window's end cannot be told from a
// malformed one. [Scanner.Src] and [Scanner.Rest] return the window.
func NewReader(r io.Reader, maxDepth, window int) *Scanner {
	s := New("", maxDepth)
	s.r, s.window = r, max(window, 1)
	s.chunk = make([]byte, min(max(window, 64), 32<<10))
	return s
}

// Kind returns the kind of the current token.
func (s *Scanner) Kind() Kind { return s.kind }

// Offset returns the byte offset of the current token in the document.
func (s *Scanner) Offset() int { return s.tokOff }

// LineCol returns the line and byte column (from 1) of the document's
// offset off, as internal/source's LineCol does; an offset out of the
// document counts as its start or its end. It moves forward through the
// text, so that the positions of a document's tokens, asked in order, cost
// one pass over it; a step back starts over from the start of the document
// or, for a scanner of [NewReader], of its window: an offset before the
// window counts as the window's start.
func (s *Scanner) LineCol(off int) (line, col int) {
	off = min(max(off, s.base), s.base+len(s.src))
	if off < s.at.off {
		s.at = s.start
	}
	s.at.advance(s.src[s.at.off-s.base:off-s.base], off)
	return s.at.line, off - s.at.from + 1
}

// Local returns the local name of the current start or end tag.
func (s *Scanner) Local() string { return s.local }

// Prefix returns the namespace prefix of the current start or end tag, as
// written.
func (s *Scanner) Prefix() string { return s.prefix }

// Space returns the namespace URI of the current start tag's element;
// for an undeclared prefix p, "undeclared:p".
func (s *Scanner) Space() string { return s.space }

// Attrs returns the attributes of the current start tag, the namespace
// declarations left out. The slice is the scanner's: it changes with the
// next start tag.
func (s *Scanner) Attrs() []Attr { return s.attrs }

// Raw returns the current character data as written: entity references
// not replaced, unless [Scanner.CDATA].
func (s *Scanner) Raw() string { return s.raw }

// CDATA reports whether the current character data is a CDATA section's
// content, which has no references.
func (s *Scanner) CDATA() bool { return s.cdata }

// SelfClosing reports whether the current start tag was written <x/>: its
// end tag is the next token.
func (s *Scanner) SelfClosing() bool { return s.selfClosing }

// Rest returns the document from the end of the current token (for a
// scanner of [NewReader], to the end of its window).
func (s *Scanner) Rest() string { return s.src[s.off:] }

// Src returns the document (for a scanner of [NewReader], its window).
func (s *Scanner) Src() string { return s.src }

// Err returns the error that stopped the scanner, or nil.
func (s *Scanner) Err() *SyntaxError { return s.err }

// Depth is the number of open elements: after a StartTag, the depth of
// the element it opens; after an EndTag, one less than that of the element
// it closes.
func (s *Scanner) Depth() int { return len(s.stack) }

func (s *Scanner) fail(off int, format string, args ...any) bool {
	if s.err == nil {
		s.err = &SyntaxError{Offset: s.base + off, Msg: fmt.Sprintf(format, args...)}
	}
	s.kind = None
	return false
}

// Next reads the next token. It returns false at the end of the document
// or on an error (then [Scanner.Err] says which).
func (s *Scanner) Next() bool {
	if s.r != nil && !s.inWindow {
		return s.nextStream()
	}
	ok := s.next()
	if s.illegal >= 0 {
		return s.checkIllegal(ok)
	}
	return ok
}

// checkIllegal stops the scanner at the first character XML does not
// allow once the token read (ok), or the error found, reaches it. The
// error is then final: a token of the window read past the character, or
// failed after it, and so would a scanner of the whole document, whose
// tokens and errors are those of the window up to the window's end.
func (s *Scanner) checkIllegal(ok bool) bool {
	switch e := s.err; {
	// An error of a window that does not end the document may be the
	// window's end (nextStream reads more and scans again): it is not
	// past the character until the document's own error says so.
	case e != nil && e.Read == nil && e.Offset >= s.illegal && (s.r == nil || s.eof || e.final || e.Deep),
		e == nil && s.base+s.off > s.illegal:
		s.err = nil
		s.fail(s.illegal-s.base, "%s", illegalMsg(s.src[s.illegal-s.base:]))
		s.err.final = true
		return false
	}
	return ok
}

// next is Next of a scanner of the whole document, or of the window.
func (s *Scanner) next() bool {
	if s.err != nil {
		return false
	}
	if s.selfClosing {
		s.selfClosing = false
		s.kind, s.tokOff = EndTag, s.base+s.off
		s.pop()
		return true
	}
	for {
		if s.off >= len(s.src) {
			if s.r != nil && !s.eof {
				return false // more to read
			}
			if n := len(s.stack); n > 0 {
				top := s.stack[n-1]
				return s.fail(len(s.src), "unexpected end of file: <%s> (line %s) is not closed", short(top.qname), s.lineOf(top))
			}
			if !s.rootDone {
				return s.fail(len(s.src), "no root element")
			}
			s.kind = None
			return false
		}
		start := s.off
		if s.src[start] != '<' {
			end := strings.IndexByte(s.src[start:], '<')
			if end < 0 {
				if s.r != nil && !s.eof {
					return false // more to read
				}
				end = len(s.src)
			} else {
				end += start
			}
			text := s.src[start:end]
			s.off = end
			if len(s.stack) == 0 {
				if i := strings.IndexFunc(text, notSpace); i >= 0 {
					return s.fail(start+i, "text outside the root element")
				}
				continue
			}
			if !s.checkRefs(text, start) {
				return false
			}
			s.kind, s.tokOff, s.raw, s.cdata = CharData, s.base+start, text, false
			return true
		}
		if start+1 >= len(s.src) {
			return s.fail(start, "unexpected end of file after '<'")
		}
		switch s.src[start+1] {
		case '/':
			return s.endTag(start)
		case '?':
			if !s.pi(start) {
				return false
			}
		case '!':
			switch {
			case strings.HasPrefix(s.src[start:], "<!--"):
				end := strings.Index(s.src[start+4:], "-->")
				if end < 0 {
					return s.fail(start, "comment not closed (no -->)")
				}
				s.off = start + 4 + end + 3
			case strings.HasPrefix(s.src[start:], "<![CDATA["):
				if len(s.stack) == 0 {
					return s.fail(start, "CDATA section outside the root element")
				}
				end := strings.Index(s.src[start+9:], "]]>")
				if end < 0 {
					return s.fail(start, "CDATA section not closed (no ]]>)")
				}
				s.kind, s.tokOff, s.raw, s.cdata = CharData, s.base+start, s.src[start+9:start+9+end], true
				s.off = start + 9 + end + 3
				return true
			case strings.HasPrefix(s.src[start:], "<!DOCTYPE"):
				if len(s.stack) > 0 || s.rootDone {
					return s.fail(start, "DOCTYPE inside the document")
				}
				if !s.doctype(start) {
					return false
				}
			default:
				return s.fail(start, "invalid markup after '<!'")
			}
		default:
			return s.startTag(start)
		}
	}
}

// nextStream reads the next token of a scanner of NewReader, in its
// window.
func (s *Scanner) nextStream() bool {
	for s.err == nil {
		off, nns, selfClosing := s.off, len(s.ns), s.selfClosing
		s.inWindow = true
		ok := s.Next()
		s.inWindow = false
		if ok {
			return true
		}
		if s.eof || s.err != nil && (s.err.Deep || s.err.final) {
			return false // the window ends where the document does, or the error is the document's
		}
		// The token may go on after the window, or its error be the
		// window's end: read more, and scan it again.
		s.err = nil
		s.off, s.selfClosing = off, selfClosing
		s.unbind(nns)
		s.fill(off)
	}
	return false
}

// pi skips a processing instruction; an XML declaration must come first.
func (s *Scanner) pi(start int) bool {
	end := strings.Index(s.src[start+2:], "?>")
	if end < 0 {
		return s.fail(start, "processing instruction not closed (no ?>)")
	}
	body := s.src[start+2 : start+2+end]
	s.off = start + 2 + end + 2
	target := body
	if i := strings.IndexFunc(body, isSpace); i >= 0 {
		target = body[:i]
	}
	if strings.EqualFold(target, "xml") {
		if s.base+start != 0 {
			return s.fail(start, "XML declaration not at the start of the file")
		}
		if enc := source.PseudoAttr(body, "encoding"); enc != "" {
			switch strings.ToLower(enc) {
			case "utf-8", "utf8", "us-ascii", "ascii":
			case "utf-16", "utf-16le", "utf-16be", "unicode":
				if !s.UTF16 {
					return s.fail(start, "the file says it is in %s but is not", short(enc))
				}
			default:
				if s.Editor == "" {
					return s.fail(start, "encoding %q is not supported", short(enc))
				}
				return s.fail(start, "encoding %q is not supported: %s writes UTF-8", short(enc), s.Editor)
			}
		}
	}
	return true
}

// doctype skips a document type declaration, internal subset included.
func (s *Scanner) doctype(start int) bool {
	depth := 0
	var quote byte
	for i := start + 2; i < len(s.src); i++ {
		c := s.src[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth <= 0:
			s.off = i + 1
			return true
		}
	}
	return s.fail(start, "DOCTYPE not closed")
}

func (s *Scanner) startTag(start int) bool {
	if len(s.stack) == 0 && s.rootDone {
		return s.fail(start, "a second root element")
	}
	qname, i, ok := s.name(start + 1)
	if !ok {
		return s.fail(start+1, "invalid element name after '<'")
	}
	s.attrs = s.attrs[:0]
	nns := 0
	for {
		j := skipSpace(s.src, i)
		if j >= len(s.src) {
			return s.fail(start, "unexpected end of file inside <%s>", short(qname))
		}
		c := s.src[j]
		if c == '>' {
			s.off = j + 1
			break
		}
		if c == '/' {
			if j+1 < len(s.src) && s.src[j+1] == '>' {
				s.off = j + 2
				s.selfClosing = true
				break
			}
			return s.fail(j, "expected '>' after '/' in <%s>", short(qname))
		}
		if j == i {
			return s.fail(j, "expected space, '>' or '/>' in <%s>, found %s", short(qname), quoteChar(s.src[j:]))
		}
		if max := cmp.Or(s.MaxAttrs, DefaultMaxAttrs); len(s.attrs)+nns >= max {
			// Final: reading more of the document cannot change it.
			s.fail(start, "<%s> has more than %d attributes", short(qname), max)
			s.err.TooManyAttrs, s.err.final = true, true
			return false
		}
		aname, k, ok := s.name(j)
		if !ok {
			return s.fail(j, "invalid attribute name in <%s>: %s", short(qname), quoteChar(s.src[j:]))
		}
		k = skipSpace(s.src, k)
		if k >= len(s.src) || s.src[k] != '=' {
			return s.fail(j, "attribute %s of <%s> has no value", short(aname), short(qname))
		}
		k = skipSpace(s.src, k+1)
		if k >= len(s.src) || s.src[k] != '"' && s.src[k] != '\'' {
			return s.fail(k, "value of attribute %s of <%s> is not quoted", short(aname), short(qname))
		}
		end := strings.IndexByte(s.src[k+1:], s.src[k])
		if end < 0 {
			return s.fail(k, "value of attribute %s of <%s> is not closed", short(aname), short(qname))
		}
		raw := s.src[k+1 : k+1+end]
		if lt := strings.IndexByte(raw, '<'); lt >= 0 {
			return s.fail(k+1+lt, "'<' in the value of attribute %s of <%s>", short(aname), short(qname))
		}
		if !s.checkRefs(raw, k+1) {
			return false
		}
		i = k + 1 + end + 1
		prefix, local := splitName(aname)
		switch {
		case prefix == "" && local == "xmlns":
			s.bind("", s.keep(Unescape(raw)))
			nns++
		case prefix == "xmlns":
			s.bind(s.keep(local), s.keep(Unescape(raw)))
			nns++
		default:
			s.attrs = append(s.attrs, Attr{prefix, local, raw})
		}
	}
	if len(s.stack) >= s.maxDepth {
		s.fail(start, "XML elements nested more than %d deep", s.maxDepth)
		s.err.Deep = true
		return false
	}
	s.stack = append(s.stack, openElem{qname: qname, off: s.base + start, nns: nns})
	s.prefix, s.local = splitName(qname)
	s.space = s.lookupNS(s.prefix)
	s.kind, s.tokOff = StartTag, s.base+start
	return true
}

// keep returns s, a substring of src the scanner keeps, cloned when src
// is a window.
func (s *Scanner) keep(str string) string {
	if s.r == nil {
		return str
	}
	return strings.Clone(str)
}

func (s *Scanner) endTag(start int) bool {
	qname, i, ok := s.name(start + 2)
	if !ok {
		return s.fail(start+2, "invalid element name after '</'")
	}
	i = skipSpace(s.src, i)
	if i >= len(s.src) || s.src[i] != '>' {
		return s.fail(i, "expected '>' to end </%s>, found %s", short(qname), quoteChar(s.src[i:]))
	}
	n := len(s.stack)
	if n == 0 {
		return s.fail(start, "</%s> closes no element", short(qname))
	}
	if top := s.stack[n-1]; top.qname != qname {
		return s.fail(start, "<%s> (line %s) is closed by </%s>", short(top.qname), s.lineOf(top), short(qname))
	}
	s.prefix, s.local = splitName(qname)
	s.off = i + 1
	s.kind, s.tokOff = EndTag, s.base+start
	s.pop()
	return true
}

func (s *Scanner) pop() {
	n := len(s.stack) - 1
	s.unbind(len(s.ns) - s.stack[n].nns)
	s.stack = s.stack[:n]
	if n == 0 {
		s.rootDone = true
	}
}

// xmlNamespace is bound to the prefix xml by definition.
const xmlNamespace = "http://www.w3.org/XML/1998/namespace"

// bind adds the binding of prefix to uri, which hides any other of
// prefix until unbind takes it off.
func (s *Scanner) bind(prefix, uri string) {
	if s.nsTop == nil {
		s.nsTop = make(map[string]int)
	}
	hides, ok := s.nsTop[prefix]
	if !ok {
		hides = -1
	}
	s.nsTop[prefix] = len(s.ns)
	s.ns = append(s.ns, nsBinding{prefix, uri, hides})
}

// unbind takes off the bindings after the first n.
func (s *Scanner) unbind(n int) {
	for i := len(s.ns) - 1; i >= n; i-- {
		if b := s.ns[i]; b.hides < 0 {
			delete(s.nsTop, b.prefix)
		} else {
			s.nsTop[b.prefix] = b.hides
		}
	}
	s.ns = s.ns[:n]
}

// nsLinear is how many bindings lookupNS looks through rather than ask
// Scanner.nsTop: a document binds a few prefixes, but one made to be
// slow may bind millions, which every start tag would look through.
const nsLinear = 8

func (s *Scanner) lookupNS(prefix string) string {
	if prefix == "xml" {
		return xmlNamespace
	}
	if len(s.ns) <= nsLinear {
		for i := len(s.ns) - 1; i >= 0; i-- {
			if s.ns[i].prefix == prefix {
				return s.ns[i].uri
			}
		}
	} else if i, ok := s.nsTop[prefix]; ok {
		return s.ns[i].uri
	}
	if prefix != "" {
		// An undeclared prefix: not well-formed for namespaces, but
		// encoding/xml accepts it too. Such an element is in no namespace
		// the importers use, so they skip it.
		return "undeclared:" + prefix
	}
	return ""
}

// Skip reads to the end of the element whose start tag is the current
// token; it does nothing on another token. It returns false on an error.
func (s *Scanner) Skip() bool {
	if s.kind != StartTag {
		return true
	}
	d := s.Depth()
	for s.Next() {
		if s.kind == EndTag && s.Depth() < d {
			return true
		}
	}
	return false
}

// Child moves to the start tag of the next child of the element at depth
// d (the current element's [Scanner.Depth] when its start tag was read),
// skipping character data and deeper elements. It returns false when that
// element ends, at the end of the document, or on an error.
func (s *Scanner) Child(d int) bool {
	for s.Next() {
		switch s.kind {
		case StartTag:
			if s.Depth() == d+1 {
				return true
			}
			s.Skip()
		case EndTag:
			if s.Depth() < d {
				return false
			}
		}
	}
	return false
}

// Attr returns the value of the unprefixed attribute name of the current
// start tag, entity references replaced; "" when there is none.
func (s *Scanner) Attr(name string) string {
	for i := range s.attrs {
		if s.attrs[i].Local == name && s.attrs[i].Prefix == "" {
			return Unescape(s.attrs[i].Raw)
		}
	}
	return ""
}

// AttrNS returns the value of the attribute local of the current start tag
// whose prefix is bound to namespace space, entity references replaced.
func (s *Scanner) AttrNS(space, local string) string {
	for i := range s.attrs {
		if a := &s.attrs[i]; a.Local == local && a.Prefix != "" && s.lookupNS(a.Prefix) == space {
			return Unescape(a.Raw)
		}
	}
	return ""
}

// Text reads the character data of the element whose start tag is the
// current token, descendants included, to the element's end. It allocates
// only when the text comes in several pieces or holds references.
func (s *Scanner) Text() string {
	d := s.Depth()
	var first string
	var b []byte
	n := 0
	for s.Next() {
		switch s.kind {
		case CharData:
			t := s.raw
			if !s.cdata {
				t = Unescape(t)
			}
			switch n {
			case 0:
				first = t
			case 1:
				b = append(append(b, first...), t...)
			default:
				b = append(b, t...)
			}
			n++
		case EndTag:
			if s.Depth() < d {
				if n > 1 {
					return string(b)
				}
				return first
			}
		}
	}
	return ""
}

// name reads an XML name at i; it returns the name and where it ends.
func (s *Scanner) name(i int) (string, int, bool) {
	j := i
	for j < len(s.src) {
		c := s.src[j]
		if c < utf8.RuneSelf {
			if !nameChar[c] || j == i && !nameStart[c] {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(s.src[j:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		j += n
	}
	if j == i {
		return "", i, false
	}
	return s.src[i:j], j, true
}

var nameStart, nameChar [utf8.RuneSelf]bool

func init() {
	for c := 0; c < utf8.RuneSelf; c++ {
		start := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':'
		nameStart[c] = start
		nameChar[c] = start || c >= '0' && c <= '9' || c == '-' || c == '.'
	}
}

func splitName(qname string) (prefix, local string) {
	if i := strings.IndexByte(qname, ':'); i > 0 && i < len(qname)-1 {
		return qname[:i], qname[i+1:]
	}
	return "", qname
}

// QName returns the qualified name prefix:local, or local when there is no
// prefix.
func QName(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// checkRefs checks the entity and character references of text at off.
func (s *Scanner) checkRefs(text string, off int) bool {
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '&')
		if j < 0 {
			return true
		}
		i += j
		_, n, msg := charRef(text[i:])
		if msg != "" {
			return s.fail(off+i, "%s", msg)
		}
		i += n
	}
}

// charRef decodes the reference at the start of s ("&amp;", "&#38;"): the
// character, the reference's length, or why it is not one.
func charRef(s string) (rune, int, string) {
	end := strings.IndexByte(s, ';')
	if end < 0 || end > 12 {
		return 0, 0, "'&' that starts no reference (write &amp; for a literal '&')"
	}
	ref := s[1:end]
	switch ref {
	case "lt":
		return '<', end + 1, ""
	case "gt":
		return '>', end + 1, ""
	case "amp":
		return '&', end + 1, ""
	case "apos":
		return '\'', end + 1, ""
	case "quot":
		return '"', end + 1, ""
	}
	if !strings.HasPrefix(ref, "#") {
		return 0, 0, fmt.Sprintf("unknown entity &%s;", ref)
	}
	num, base := ref[1:], 10
	if strings.HasPrefix(num, "x") {
		num, base = num[1:], 16
	}
	v, err := strconv.ParseUint(num, base, 32)
	r := rune(v)
	switch {
	case err != nil || v > unicode.MaxRune:
		return 0, 0, fmt.Sprintf("invalid character reference &%s;", ref)
	case !isXMLChar(r):
		return 0, 0, fmt.Sprintf("character reference &%s; is %s, which XML does not allow: %s", ref, charName(r), notXMLTool)
	}
	return r, end + 1, ""
}

// illegalAt returns the offset of the first character of s that XML does
// not allow (see isXMLChar), or -1: a control character other than tab,
// LF and CR, or U+FFFE or U+FFFF. Invalid UTF-8 (surrogates among it) is
// not its concern. It reads about 3.8 GB/s (BenchmarkIllegalAt, median of
// 5; utf8.ValidString, its callers' check, 7.7 GB/s): a tenth of the time
// the scanner takes.
func illegalAt[T string | []byte](s T) int {
	for i := 0; i < len(s); i++ {
		if maybeIllegal[s[i]] && (s[i] != 0xEF || i+2 < len(s) && s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF)) {
			return i
		}
	}
	return -1
}

// maybeIllegal marks the bytes that start a character XML does not allow:
// the control characters but tab, LF and CR, and 0xEF, the first byte of
// U+FFFE and U+FFFF (and of other characters, which XML allows).
var maybeIllegal = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n' && c != '\r'
	}
	t[0xEF] = true
	return t
}()

// illegalMsg says what the character at the start of s, which XML does
// not allow, is.
func illegalMsg(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	return fmt.Sprintf("character %s is not allowed in XML: %s", charName(r), notXMLTool)
}

// notXMLTool is what an illegal character says of the file.
const notXMLTool = "the file is damaged or was not written by an XML tool"

// charName names a character XML does not allow: "U+0000 (a NUL byte)",
// "U+001B (a control character)", "U+FFFF (a noncharacter)".
func charName(r rune) string {
	switch {
	case r == 0:
		return "U+0000 (a NUL byte)"
	case r < 0x20:
		return fmt.Sprintf("%U (a control character)", r)
	case r >= 0xD800 && r <= 0xDFFF:
		return fmt.Sprintf("%U (a surrogate)", r)
	case r == 0xFFFE || r == 0xFFFF:
		return fmt.Sprintf("%U (a noncharacter)", r)
	}
	return fmt.Sprintf("%U", r)
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// Unescape replaces the references of text the scanner checked (an
// attribute's Raw, character data) and turns line ends into '\n'; it
// allocates only when there is something to replace. A '&' that starts no
// reference is kept as it is.
func Unescape(raw string) string {
	if strings.IndexByte(raw, '&') < 0 && strings.IndexByte(raw, '\r') < 0 {
		return raw
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		switch c := raw[i]; c {
		case '&':
			r, n, msg := charRef(raw[i:])
			if msg != "" { // not checked: keep as is
				b = append(b, c)
				i++
				continue
			}
			b = utf8.AppendRune(b, r)
			i += n
		case '\r':
			b = append(b, '\n')
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		default:
			b = append(b, c)
			i++
		}
	}
	return string(b)
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func isSpace(r rune) bool  { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }
func notSpace(r rune) bool { return !isSpace(r) }

// short shortens a name or a value of the document for a message (see
// source.Shorten).
func short(name string) string { return source.Shorten(name, source.MaxQuoted) }

// quoteChar quotes the character at the start of s for a message.
func quoteChar(s string) string {
	if s == "" {
		return "end of file"
	}
	r, _ := utf8.DecodeRuneInString(s)
	return strconv.QuoteRune(r)
}

// lineOf returns "line:col" of the start tag of e, for messages that
// point back.
func (s *Scanner) lineOf(e openElem) string {
	l, c := e.line, e.col
	if l == 0 { // in the window
		p := s.start
		p.advance(s.src[:e.off-s.base], e.off)
		l, c = p.line, e.off-p.from+1
	}
	return strconv.Itoa(l) + ":" + strconv.Itoa(c)
}

// fill moves the window of a scanner of NewReader to start at keep, an
// offset in it, and reads more of the document after it: the window then
// holds at least twice what it kept from the old one, and at least the
// window size NewReader was given, unless the document ends first. When
// the reader fails, fill stops the scanner.
func (s *Scanner) fill(keep int) {
	tail := s.src[keep:]
	size := max(s.window, 2*len(tail))
	s.slide(keep)
	var b strings.Builder
	b.Grow(size)
	b.WriteString(tail)
	for zero := 0; b.Len() < size && !s.eof; {
		// Read after the start of a character the last read cut, and
		// keep back the start of one this read cuts.
		m := copy(s.chunk, s.pending[:s.npending])
		n, err := s.r.Read(s.chunk[m:min(len(s.chunk), m+max(size-b.Len(), utf8.UTFMax))])
		data := s.chunk[:m+n]
		s.npending = 0
		switch {
		case err == io.EOF:
			s.eof = true
		case err == nil && n > 0:
			zero = 0
		case err == nil:
			if zero++; zero == 100 {
				err = io.ErrNoProgress
			}
		}
		if err == nil {
			k := IncompleteTail(data)
			s.npending = copy(s.pending[:], data[len(data)-k:])
			data = data[:len(data)-k]
		}
		if s.illegal < 0 {
			if i := illegalAt(data); i >= 0 {
				s.illegal = s.base + b.Len() + i
			}
		}
		b.Write(data)
		if err != nil && err != io.EOF {
			s.src, s.off = b.String(), 0
			s.err = &SyntaxError{Offset: s.base + len(s.src), Msg: "cannot read the document: " + err.Error(), Read: err}
			s.kind = None
			return
		}
	}
	s.src, s.off = b.String(), 0
}

// slide moves the start of the window of a scanner of NewReader to cut,
// an offset in it: its lines are counted, and the open elements whose
// start tags it leaves behind get their lines, for messages, and a copy of
// their names, so as not to keep the window.
func (s *Scanner) slide(cut int) {
	end := s.base + cut
	p := s.start
	for i := range s.stack {
		if e := &s.stack[i]; e.line == 0 && e.off < end {
			p.advance(s.src[p.off-s.base:e.off-s.base], e.off)
			e.line, e.col = p.line, e.off-p.from+1
			e.qname = strings.Clone(e.qname)
		}
	}
	p.advance(s.src[p.off-s.base:cut], end)
	s.start = p
	if s.at.off < end {
		s.at = p
	}
	s.base = end
	s.src = s.src[cut:]
}

// IncompleteTail returns how many bytes at the end of p are the start of
// a UTF-8 character that p cuts (0 to 3): what a reader of a window of a
// stream keeps for the next window.
func IncompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i > len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return len(p) - i
			}
			return 0
		}
	}
	return 0
}
