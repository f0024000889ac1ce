package drawio

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds a small XML scanner, the one package chart/visio uses
// (a copy: the two could share it from an internal package). encoding/xml
// spends most of a large drawing's import allocating tokens nobody reads;
// this scanner returns substrings of the file,
// allocates only to replace entity references, and still checks that the
// XML is well-formed: names, quoting, entity references, nesting, a single
// root. It resolves element namespaces but not attribute ones (draw.io's
// attributes have no prefix). It does not expand entities declared in a
// DOCTYPE: a reference to one is an error.

// tokKind is the kind of the scanner's current token.
type tokKind uint8

const (
	tokNone  tokKind = iota
	tokStart         // a start tag (also for <x/>, followed by its tokEnd)
	tokEnd           // an end tag
	tokText          // character data or a CDATA section
)

type xmlAttr struct {
	prefix, local string
	raw           string // as written: entity references not replaced
}

type openElem struct {
	qname string // as written, to match the end tag
	off   int
	nns   int // namespace bindings the element declares
}

type nsBinding struct{ prefix, uri string }

// syntaxError is malformed XML at a byte offset.
type syntaxError struct {
	off  int
	msg  string
	deep bool // elements nested deeper than the scanner's limit
}

// scanner reads the tokens of an XML document held in a string.
type scanner struct {
	src      string
	off      int // where the next token starts
	maxDepth int

	// The current token.
	kind          tokKind
	tokOff        int
	local, prefix string
	space         string    // element's namespace URI
	attrs         []xmlAttr // start tag's attributes, xmlns ones left out
	raw           string    // text as written
	cdata         bool      // raw is a CDATA section's content
	selfClosing   bool      // the start tag was <x/>: its end comes next

	stack    []openElem
	ns       []nsBinding
	rootDone bool
	utf16    bool // the file was UTF-16, decoded: its declaration may say so
	err      *syntaxError
}

func newScanner(src string, maxDepth int) *scanner {
	return &scanner{src: src, maxDepth: maxDepth, attrs: make([]xmlAttr, 0, 16)}
}

// depth is the number of open elements: after a tokStart, the depth of the
// element it opens; after a tokEnd, one less than that of the element it
// closes.
func (s *scanner) depth() int { return len(s.stack) }

func (s *scanner) fail(off int, format string, args ...any) bool {
	if s.err == nil {
		s.err = &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
	}
	s.kind = tokNone
	return false
}

// next reads the next token. It returns false at the end of the document or
// on an error (then s.err is set).
func (s *scanner) next() bool {
	if s.err != nil {
		return false
	}
	if s.selfClosing {
		s.selfClosing = false
		s.kind, s.tokOff = tokEnd, s.off
		s.pop()
		return true
	}
	for {
		if s.off >= len(s.src) {
			if n := len(s.stack); n > 0 {
				top := s.stack[n-1]
				return s.fail(len(s.src), "unexpected end of file: <%s> (line %s) is not closed", top.qname, s.lineOf(top.off))
			}
			if !s.rootDone {
				return s.fail(len(s.src), "no root element")
			}
			s.kind = tokNone
			return false
		}
		start := s.off
		if s.src[start] != '<' {
			end := strings.IndexByte(s.src[start:], '<')
			if end < 0 {
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
			s.kind, s.tokOff, s.raw, s.cdata = tokText, start, text, false
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
				s.kind, s.tokOff, s.raw, s.cdata = tokText, start, s.src[start+9:start+9+end], true
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

// pi skips a processing instruction; an XML declaration must come first.
func (s *scanner) pi(start int) bool {
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
		if start != 0 {
			return s.fail(start, "XML declaration not at the start of the file")
		}
		if enc := pseudoAttr(body, "encoding"); enc != "" {
			switch strings.ToLower(enc) {
			case "utf-8", "utf8", "us-ascii", "ascii":
			case "utf-16", "utf-16le", "utf-16be", "unicode":
				if !s.utf16 {
					return s.fail(start, "the file says it is in %s but is not", enc)
				}
			default:
				return s.fail(start, "encoding %q is not supported: draw.io writes UTF-8", enc)
			}
		}
	}
	return true
}

// pseudoAttr returns the value of name="value" in an XML declaration.
func pseudoAttr(body, name string) string {
	i := strings.Index(body, name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(body[i+len(name):], " \t\r\n")
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

// doctype skips a document type declaration, internal subset included.
func (s *scanner) doctype(start int) bool {
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

func (s *scanner) startTag(start int) bool {
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
			return s.fail(start, "unexpected end of file inside <%s>", qname)
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
			return s.fail(j, "expected '>' after '/' in <%s>", qname)
		}
		if j == i {
			return s.fail(j, "expected space, '>' or '/>' in <%s>, found %s", qname, quoteChar(s.src[j:]))
		}
		aname, k, ok := s.name(j)
		if !ok {
			return s.fail(j, "invalid attribute name in <%s>: %s", qname, quoteChar(s.src[j:]))
		}
		k = skipSpace(s.src, k)
		if k >= len(s.src) || s.src[k] != '=' {
			return s.fail(j, "attribute %s of <%s> has no value", aname, qname)
		}
		k = skipSpace(s.src, k+1)
		if k >= len(s.src) || s.src[k] != '"' && s.src[k] != '\'' {
			return s.fail(k, "value of attribute %s of <%s> is not quoted", aname, qname)
		}
		end := strings.IndexByte(s.src[k+1:], s.src[k])
		if end < 0 {
			return s.fail(k, "value of attribute %s of <%s> is not closed", aname, qname)
		}
		raw := s.src[k+1 : k+1+end]
		if lt := strings.IndexByte(raw, '<'); lt >= 0 {
			return s.fail(k+1+lt, "'<' in the value of attribute %s of <%s>", aname, qname)
		}
		if !s.checkRefs(raw, k+1) {
			return false
		}
		i = k + 1 + end + 1
		prefix, local := splitName(aname)
		switch {
		case prefix == "" && local == "xmlns":
			s.ns = append(s.ns, nsBinding{"", unescape(raw)})
			nns++
		case prefix == "xmlns":
			s.ns = append(s.ns, nsBinding{local, unescape(raw)})
			nns++
		default:
			s.attrs = append(s.attrs, xmlAttr{prefix, local, raw})
		}
	}
	if len(s.stack) >= s.maxDepth {
		s.fail(start, "XML elements nested more than %d deep", s.maxDepth)
		s.err.deep = true
		return false
	}
	s.stack = append(s.stack, openElem{qname, start, nns})
	s.prefix, s.local = splitName(qname)
	s.space = s.lookupNS(s.prefix)
	s.kind, s.tokOff = tokStart, start
	return true
}

func (s *scanner) endTag(start int) bool {
	qname, i, ok := s.name(start + 2)
	if !ok {
		return s.fail(start+2, "invalid element name after '</'")
	}
	i = skipSpace(s.src, i)
	if i >= len(s.src) || s.src[i] != '>' {
		return s.fail(start, "expected '>' to end </%s>", qname)
	}
	n := len(s.stack)
	if n == 0 {
		return s.fail(start, "</%s> closes no element", qname)
	}
	if top := s.stack[n-1]; top.qname != qname {
		return s.fail(start, "<%s> (line %s) is closed by </%s>", top.qname, s.lineOf(top.off), qname)
	}
	s.prefix, s.local = splitName(qname)
	s.off = i + 1
	s.kind, s.tokOff = tokEnd, start
	s.pop()
	return true
}

func (s *scanner) pop() {
	n := len(s.stack) - 1
	s.ns = s.ns[:len(s.ns)-s.stack[n].nns]
	s.stack = s.stack[:n]
	if n == 0 {
		s.rootDone = true
	}
}

// xmlNamespace is bound to the prefix xml by definition.
const xmlNamespace = "http://www.w3.org/XML/1998/namespace"

func (s *scanner) lookupNS(prefix string) string {
	if prefix == "xml" {
		return xmlNamespace
	}
	for i := len(s.ns) - 1; i >= 0; i-- {
		if s.ns[i].prefix == prefix {
			return s.ns[i].uri
		}
	}
	if prefix != "" {
		// An undeclared prefix: not well-formed for namespaces, but
		// encoding/xml accepts it too. Such an element is in no namespace
		// draw.io uses, so it is skipped.
		return "undeclared:" + prefix
	}
	return ""
}

// skip reads to the end of the element whose start tag is the current
// token.
func (s *scanner) skip() bool {
	if s.kind != tokStart {
		return true
	}
	d := s.depth()
	for s.next() {
		if s.kind == tokEnd && s.depth() < d {
			return true
		}
	}
	return false
}

// attr returns the value of the unprefixed attribute name of the current
// start tag, entity references replaced.
func (s *scanner) attr(name string) string {
	for i := range s.attrs {
		if s.attrs[i].local == name && s.attrs[i].prefix == "" {
			return unescape(s.attrs[i].raw)
		}
	}
	return ""
}

// name reads an XML name at i; it returns the name and where it ends.
func (s *scanner) name(i int) (string, int, bool) {
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

// checkRefs checks the entity and character references of text at off.
func (s *scanner) checkRefs(text string, off int) bool {
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
	if err != nil || !isXMLChar(r) {
		return 0, 0, fmt.Sprintf("invalid character reference &%s;", ref)
	}
	return r, end + 1, ""
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// unescape replaces the references of checked text and turns line ends
// into '\n'; it allocates only when there is something to replace.
func unescape(raw string) string {
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

// quoteChar quotes the character at the start of s for a message.
func quoteChar(s string) string {
	if s == "" {
		return "end of file"
	}
	r, _ := utf8.DecodeRuneInString(s)
	return strconv.QuoteRune(r)
}

// lineOf returns "line:col" of off, for messages that point back.
func (s *scanner) lineOf(off int) string {
	l, c := lineCol(s.src, off)
	return strconv.Itoa(l) + ":" + strconv.Itoa(c)
}

// lineCol returns the line and byte column (from 1) of off in src.
func lineCol(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	return strings.Count(before, "\n") + 1, off - (strings.LastIndexByte(before, '\n') + 1) + 1
}

// lines turns offsets into lines and columns, moving forward through src:
// the whole file costs one pass however many positions are asked for. A
// step back starts over.
type lines struct {
	src             string
	off, line, from int // from: offset of the line's first byte
}

func (x *lines) pos(off int) (line, col int) {
	off = min(max(off, 0), len(x.src))
	if off < x.off || x.line == 0 {
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
