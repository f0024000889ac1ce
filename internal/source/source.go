// Package source holds what the importers (chart/visio, chart/drawio,
// chart/scxml, chart/graphml) do alike with a file before they parse it:
// read it whole within a size limit, take off its byte-order mark and
// decode UTF-16 or Latin-1, tell text that cannot be XML and a format by
// its first bytes, turn byte offsets into lines and columns, and build the
// error of a file that cannot be read.
//
// The messages stay the importers': the functions here report what they
// found (a sentinel, a flag, a description) and each importer words the
// error with its own prefix ("visio: ...") and sentinel.
//
// # Sections
//
//   - Reading: [ReadAll], [ErrTooLarge], [SizeString], [Fatal], [ErrText].
//   - Encodings: [DecodeText], [Encoding], [FromLatin1], [InvalidUTF8],
//     [PseudoAttr].
//   - Sniffing: [NotXML], [Binary], [BinaryWhere], [QuoteStart];
//     [RootElement], [IsZip], [IsGzip], [IsPNG] tell formats apart.
//   - Quoting: [Shorten], [Quote], [MaxQuoted]: what a message quotes of
//     a file's content, a short prefix whatever its length.
//   - Positions: [LineCol], [Lines].
package source

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/diag"
)

// ErrTooLarge is the error of [ReadAll] for a reader that holds more than
// the limit. The importers turn it into their own ErrTooLarge with their
// message.
var ErrTooLarge = errors.New("source: larger than the limit")

// ReadAll reads r to its end into a string, refusing more than max bytes:
// it returns [ErrTooLarge] then, or the reader's error. A reader that
// tells its length (a *bytes.Reader, *strings.Reader, *bytes.Buffer, or a
// regular *os.File) is refused before it is read when it is too large,
// and its text is read into a buffer of its size.
func ReadAll(r io.Reader, max int64) (string, error) {
	var b strings.Builder
	switch f := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		if int64(f.Len()) > max {
			return "", ErrTooLarge
		}
		b.Grow(f.Len())
	case *os.File:
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > max {
				return "", ErrTooLarge
			}
			b.Grow(int(fi.Size()))
		}
	}
	if _, err := io.Copy(&b, io.LimitReader(r, max+1)); err != nil {
		return "", err
	}
	if int64(b.Len()) > max {
		return "", ErrTooLarge
	}
	return b.String(), nil
}

// SizeString renders a size for a message: "256 MiB", "4 KiB", or "1000
// bytes" when n is not a whole number of KiB.
func SizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Fatal returns a [diag.List] holding one error, at line and col
// (0 when unknown) of file, wrapping err: what an importer returns for a
// file that cannot be read.
func Fatal(file string, line, col int, err error, msg, hint string) error {
	return diag.List{{Pos: diag.Pos{File: file, Line: line, Col: col}, Message: msg, Hint: hint, Err: err}}
}

// ErrText is err's message without a repetition of path, for an error of
// os.Open(path) whose message names the path already.
func ErrText(err error, path string) string {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err.Error()
	}
	return err.Error()
}

// Encoding is how [DecodeText] found a text encoded.
type Encoding uint8

const (
	// NoBOM: no byte-order mark; the text is returned as it is.
	NoBOM Encoding = iota
	// UTF8BOM: UTF-8 with a byte-order mark, which is taken off.
	UTF8BOM
	// UTF16BOM: UTF-16, little- or big-endian, with a byte-order mark.
	UTF16BOM
	// UTF16Bare: UTF-16 without a byte-order mark, told by its first
	// character, '<'.
	UTF16Bare
)

// UTF16 reports whether the text was UTF-16.
func (e Encoding) UTF16() bool { return e == UTF16BOM || e == UTF16Bare }

// DecodeText returns src in UTF-8 without its byte-order mark, and how it
// was encoded: UTF-8 with or without a byte-order mark, UTF-16 with one
// and, when bare is true, UTF-16 without one whose first character is
// '<'. It returns ok false (and enc the UTF-16 it looked like) when src
// starts like UTF-16 but is not: an odd number of bytes. Invalid UTF-8 is
// returned as it is; invalid UTF-16 becomes U+FFFD. UTF-16 costs the
// UTF-8 text returned, allocated once, and two passes over src.
func DecodeText(src string, bare bool) (text string, enc Encoding, ok bool) {
	switch {
	case strings.HasPrefix(src, "\xEF\xBB\xBF"):
		return src[3:], UTF8BOM, true
	case strings.HasPrefix(src, "\xFF\xFE"), strings.HasPrefix(src, "\xFE\xFF"):
		s, ok := fromUTF16(src[2:], src[0] == 0xFE)
		return s, UTF16BOM, ok
	case bare && (strings.HasPrefix(src, "<\x00") || strings.HasPrefix(src, "\x00<")):
		s, ok := fromUTF16(src, src[0] == 0)
		return s, UTF16Bare, ok
	}
	return src, NoBOM, true
}

// fromUTF16 decodes UTF-16 text without its byte-order mark straight
// into UTF-8, as utf16.Decode and a conversion to string do (an unpaired
// surrogate becomes U+FFFD), in one string of the exact size: a first
// pass counts its bytes. It costs the text it returns and nothing more.
func fromUTF16(s string, bigEndian bool) (string, bool) {
	if len(s)%2 != 0 {
		return "", false
	}
	lo, hi := 0, 1 // the low and high bytes of a unit
	if bigEndian {
		lo, hi = 1, 0
	}
	unit := func(i int) rune { return rune(s[i+hi])<<8 | rune(s[i+lo]) }
	size := 0
	for i := 0; i < len(s); i += 2 {
		r := unit(i)
		switch {
		case r < 0x80:
			size++
		case r < 0x800:
			size += 2
		case isPair(s, i, unit):
			size += 4
			i += 2
		default: // other characters of 3 bytes, and U+FFFD for an unpaired surrogate
			size += 3
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i := 0; i < len(s); i += 2 {
		r := unit(i)
		switch {
		case r < 0x80:
			b.WriteByte(byte(r))
		case isPair(s, i, unit):
			b.WriteRune(utf16.DecodeRune(r, unit(i+2)))
			i += 2
		case utf16.IsSurrogate(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

// isPair reports whether the unit at i of s is a high surrogate followed
// by a low one.
func isPair(s string, i int, unit func(int) rune) bool {
	r := unit(i)
	return r >= 0xD800 && r < 0xDC00 && i+2 < len(s) && unit(i+2) >= 0xDC00 && unit(i+2) < 0xE000
}

// FromLatin1 decodes ISO 8859-1 text into UTF-8, in one string of the
// exact size (a byte from 0x80 takes two).
func FromLatin1(s string) string {
	size := len(s)
	for i := 0; i < len(s); i++ {
		size += int(s[i] >> 7)
	}
	var b strings.Builder
	b.Grow(size)
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// InvalidUTF8 returns the offset of the first invalid UTF-8 sequence of s,
// or -1.
func InvalidUTF8(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for off := 0; off < len(s); {
		r, n := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && n == 1 {
			return off
		}
		off += n
	}
	return -1
}

// PseudoAttr returns the value of name="value" (or 'value') in decl, the
// text of an XML declaration, or "".
func PseudoAttr(decl, name string) string {
	i := strings.Index(decl, name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len(name):], " \t\r\n")
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

// NotXML returns "" when text may be an XML document: its first character
// after white space is '<', and its first KiB holds no NUL byte. Otherwise
// it says what text is, for a message: "a text file that is not XML" when
// its first KiB is UTF-8 without a NUL byte, else "a binary file". isSpace
// tells white space; nil means XML's: space, tab, CR and LF.
func NotXML(text string, isSpace func(rune) bool) string {
	if isSpace == nil {
		isSpace = xmlSpace
	}
	head := text[:min(len(text), headLen)]
	i := strings.IndexFunc(text, func(r rune) bool { return !isSpace(r) })
	if i >= 0 && text[i] == '<' && strings.IndexByte(head, 0) < 0 {
		return ""
	}
	if off, _ := Binary(text); off < 0 {
		return "a text file that is not XML"
	}
	return "a binary file"
}

// headLen is how much of a file NotXML and Binary look at.
const headLen = 1024

// Binary returns the offset of what makes [NotXML] call text a binary
// file, in its first KiB: a NUL byte, or a byte that is not UTF-8 (a
// character the KiB's end cuts is not one); and what it is, for a message:
// "a NUL byte", "byte 0xFF (not UTF-8)". It returns -1 and "" when
// there is none.
func Binary(text string) (off int, what string) {
	head := text[:min(len(text), headLen)]
	if len(text) > len(head) {
		// A character the first KiB cuts is not counted as invalid.
		for i := len(head) - 1; i >= 0 && i > len(head)-utf8.UTFMax; i-- {
			if utf8.RuneStart(head[i]) {
				if !utf8.FullRuneInString(head[i:]) {
					head = head[:i]
				}
				break
			}
		}
	}
	nul := strings.IndexByte(head, 0)
	bad := InvalidUTF8(head)
	switch {
	case nul >= 0 && (bad < 0 || nul < bad):
		return nul, "a NUL byte"
	case bad >= 0:
		return bad, fmt.Sprintf("byte 0x%02X (not UTF-8)", head[bad])
	}
	return -1, ""
}

// BinaryWhere says where [Binary] finds what makes text a binary file,
// for the end of a message: "; a NUL byte at byte offset 12", or "" when
// it finds nothing (text that is not XML but not binary either).
func BinaryWhere(text string) string {
	off, what := Binary(text)
	if off < 0 {
		return ""
	}
	return "; " + what + " at byte offset " + strconv.Itoa(off)
}

func xmlSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// IsZip reports whether a file that starts with head is a zip archive (an
// empty one included).
func IsZip(head string) bool {
	return strings.HasPrefix(head, "PK\x03\x04") || strings.HasPrefix(head, "PK\x05\x06")
}

// QuoteStart quotes the first 16 bytes of s for a message, with "..." when
// there are more.
func QuoteStart(s string) string {
	const n = 16
	if len(s) > n {
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

// MaxQuoted is the most bytes of a string read from a file (a name, a
// text, an ID) that a message quotes: a file may hold a name of a
// megabyte, and a message quoting it whole, repeated, floods a build log.
const MaxQuoted = 64

// Shorten returns s, or when it is longer than n bytes its first n or
// fewer (not cutting a UTF-8 character) followed by "...". It allocates
// only when it shortens.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n, 0)
	for i := cut; i >= 0 && i > cut-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			cut = i
			break
		}
	}
	return s[:cut] + "..."
}

// Quote quotes s for a message as strconv.Quote does, shortened to
// [MaxQuoted] bytes (see [Shorten]): "walkLeft", "aaaa...".
func Quote(s string) string {
	return strconv.Quote(Shorten(s, MaxQuoted))
}

// LineCol returns the line and byte column (from 1) of off in src; an
// offset out of src counts as its start or its end.
func LineCol(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	return strings.Count(before, "\n") + 1, off - (strings.LastIndexByte(before, '\n') + 1) + 1
}

// Lines turns offsets into lines and columns as [LineCol] does, moving
// forward through its text: the whole text costs one pass however many
// positions are asked for. A step back starts over from the beginning.
// The zero value is for an empty text; see [NewLines].
type Lines struct {
	src             string
	off, line, from int // from: offset of the line's first byte
}

// NewLines returns the Lines of src.
func NewLines(src string) Lines { return Lines{src: src, line: 1} }

// Pos returns the line and byte column (from 1) of off.
func (x *Lines) Pos(off int) (line, col int) {
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
