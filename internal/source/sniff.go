package source

import (
	"bytes"
	"strings"
)

// RootElement returns the local name of the root element of an XML
// document that starts with head ("mxfile" for <mxfile ...>, "scxml" for
// <sc:scxml ...>), or "" when head does not reach it or is not XML. It
// reads UTF-8 with or without a byte-order mark and UTF-16 with one or
// starting with '<', and skips the XML declaration, processing
// instructions, comments and a document type declaration. It is for
// telling formats apart: it checks nothing else.
func RootElement(head []byte) string {
	s := string(head)
	if len(s)%2 == 1 && (strings.HasPrefix(s, "\xFF\xFE") || strings.HasPrefix(s, "\xFE\xFF") || strings.HasPrefix(s, "<\x00") || strings.HasPrefix(s, "\x00<")) {
		s = s[:len(s)-1] // a UTF-16 head cut in the middle of a unit
	}
	s, _, ok := DecodeText(s, true)
	if !ok {
		return ""
	}
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "<?"):
			i := strings.Index(s, "?>")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		case strings.HasPrefix(s, "<!--"):
			i := strings.Index(s[4:], "-->")
			if i < 0 {
				return ""
			}
			s = s[4+i+3:]
		case strings.HasPrefix(s, "<!"):
			s = skipDoctype(s)
			if s == "" {
				return ""
			}
		case strings.HasPrefix(s, "<"):
			name := s[1:]
			end := strings.IndexAny(name, " \t\r\n/>")
			if end < 0 {
				return ""
			}
			name = name[:end]
			if i := strings.LastIndexByte(name, ':'); i >= 0 {
				name = name[i+1:]
			}
			return name
		default:
			return ""
		}
	}
}

// skipDoctype returns s after the declaration <!...> it starts with, its
// internal subset in brackets included, or "" when s ends first.
func skipDoctype(s string) string {
	depth := 0
	for i := 2; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '>':
			if depth <= 0 {
				return s[i+1:]
			}
		}
	}
	return ""
}

// IsGzip reports whether head starts like a gzip stream.
func IsGzip(head []byte) bool { return bytes.HasPrefix(head, []byte{0x1f, 0x8b}) }

// IsPNG reports whether head starts like a PNG image.
func IsPNG(head []byte) bool { return bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")) }
