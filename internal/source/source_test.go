package source

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/fsmforge/fsmforge/diag"
)

func TestReadAll(t *testing.T) {
	boom := errors.New("boom")
	for _, tt := range []struct {
		name string
		r    io.Reader
		max  int64
		want string
		err  error
	}{
		{"bytes", bytes.NewReader([]byte("abc")), 3, "abc", nil},
		{"bytes too large", bytes.NewReader([]byte("abcd")), 3, "", ErrTooLarge},
		{"strings", strings.NewReader(""), 0, "", nil},
		{"unknown length", iotest.OneByteReader(strings.NewReader("abc")), 3, "abc", nil},
		{"unknown length too large", iotest.OneByteReader(strings.NewReader("abcd")), 3, "", ErrTooLarge},
		{"error", iotest.ErrReader(boom), 3, "", boom},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadAll(tt.r, tt.max)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("ReadAll = %q, %v, want %q, %v", got, err, tt.want, tt.err)
			}
		})
	}
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, []byte("abcd"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, max := range []int64{3, 4} {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ReadAll(f, max)
			f.Close()
			if max == 3 && err != ErrTooLarge || max == 4 && (got != "abcd" || err != nil) {
				t.Errorf("ReadAll(file of 4 bytes, %d) = %q, %v", max, got, err)
			}
		}
	})
}

func TestSizeString(t *testing.T) {
	for n, want := range map[int64]string{
		256 << 20: "256 MiB", 1 << 20: "1 MiB", 3 << 10: "3 KiB", 1000: "1000 bytes", 1025: "1025 bytes", 0: "0 bytes",
	} {
		if got := SizeString(n); got != want {
			t.Errorf("SizeString(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFatal(t *testing.T) {
	sentinel := errors.New("sentinel")
	err := Fatal("f.x", 2, 3, sentinel, "x: msg", "hint")
	var l diag.List
	if !errors.As(err, &l) || len(l) != 1 || !errors.Is(err, sentinel) || err.Error() != "f.x:2:3: x: msg" || l[0].Hint != "hint" {
		t.Errorf("Fatal = %#v (%v)", err, err)
	}
}

func TestErrText(t *testing.T) {
	_, err := os.Open("/no/such/file")
	if got := ErrText(err, "/no/such/file"); got != "no such file or directory" {
		t.Errorf("ErrText(%v) = %q", err, got)
	}
	if got := ErrText(err, "other"); got != err.Error() {
		t.Errorf("ErrText(%v, other) = %q, want the whole message", err, got)
	}
}

func TestDecodeText(t *testing.T) {
	for _, tt := range []struct {
		src  string
		bare bool
		want string
		enc  Encoding
		ok   bool
	}{
		{"<a/>", false, "<a/>", NoBOM, true},
		{"\xEF\xBB\xBF<a/>", false, "<a/>", UTF8BOM, true},
		{"\xFF\xFE<\x00a\x00/\x00>\x00", false, "<a/>", UTF16BOM, true},
		{"\xFE\xFF\x00<\x00a\x00/\x00>", false, "<a/>", UTF16BOM, true},
		{"\xFF\xFE<\x00a", false, "", UTF16BOM, false},
		{"<\x00a\x00/\x00>\x00", true, "<a/>", UTF16Bare, true},
		{"\x00<\x00a\x00/\x00>", true, "<a/>", UTF16Bare, true},
		{"\x00<\x00", true, "", UTF16Bare, false},
		{"<\x00a\x00/\x00>\x00", false, "<\x00a\x00/\x00>\x00", NoBOM, true},
		{"\xFF\xFE\x00\xD8", false, "\uFFFD", UTF16BOM, true},
	} {
		got, enc, ok := DecodeText(tt.src, tt.bare)
		if got != tt.want || enc != tt.enc || ok != tt.ok {
			t.Errorf("DecodeText(%q, %v) = %q, %v, %v, want %q, %v, %v", tt.src, tt.bare, got, enc, ok, tt.want, tt.enc, tt.ok)
		}
		if enc.UTF16() != (enc == UTF16BOM || enc == UTF16Bare) {
			t.Errorf("%v.UTF16() = %v", enc, enc.UTF16())
		}
	}
}

func TestFromLatin1(t *testing.T) {
	if got := FromLatin1("caf\xe9 \xff"); got != "café ÿ" {
		t.Errorf("FromLatin1 = %q, want %q", got, "café ÿ")
	}
}

func TestInvalidUTF8(t *testing.T) {
	for s, want := range map[string]int{"": -1, "abc": -1, "é": -1, "ab\xffc": 2, "é\xc3": 2} {
		if got := InvalidUTF8(s); got != want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestPseudoAttr(t *testing.T) {
	for decl, want := range map[string]string{
		`<?xml version="1.0" encoding="UTF-8"`:  "UTF-8",
		`xml version='1.0' encoding = 'latin1'`: "latin1",
		`<?xml version="1.0"`:                   "",
		`<?xml encoding=UTF-8`:                  "",
		`<?xml encoding="UTF-8`:                 "",
		`<?xml encoding`:                        "",
	} {
		if got := PseudoAttr(decl, "encoding"); got != want {
			t.Errorf("PseudoAttr(%q, encoding) = %q, want %q", decl, got, want)
		}
	}
}

func TestNotXML(t *testing.T) {
	for _, tt := range []struct {
		text    string
		isSpace func(rune) bool
		want    string
	}{
		{"<a/>", nil, ""},
		{" \r\n\t<a/>", nil, ""},
		{"hello", nil, "a text file that is not XML"},
		{"", nil, "a text file that is not XML"},
		{"   ", nil, "a text file that is not XML"},
		{"<a>\x00</a>", nil, "a binary file"},
		{"\xff\xfe\xfd", nil, "a binary file"},
		{"\u00a0<a/>", nil, "a text file that is not XML"},
		{"\u00a0<a/>", func(r rune) bool { return r == '\u00a0' }, ""},
		{strings.Repeat("x", 1023) + "é", nil, "a text file that is not XML"}, // a character the first KiB cuts
	} {
		if got := NotXML(tt.text, tt.isSpace); got != tt.want {
			t.Errorf("NotXML(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestBinary(t *testing.T) {
	for _, tt := range []struct {
		text string
		off  int
		what string
	}{
		{"<a/>", -1, ""},
		{"<a>\x00</a>", 3, "a NUL byte"},
		{"ab\xffc\x00", 2, "byte 0xFF (not UTF-8)"},
		{"abc\x00\xff", 3, "a NUL byte"},
		{strings.Repeat("x", 1023) + "é", -1, ""},
		{strings.Repeat("x", 1023) + "\xc3", 1023, "byte 0xC3 (not UTF-8)"}, // cut by the text's end, not the KiB's
		{strings.Repeat("x", 1024) + "\x00", -1, ""},                        // after the first KiB
		{"x\xc3", 1, "byte 0xC3 (not UTF-8)"},
	} {
		if off, what := Binary(tt.text); off != tt.off || what != tt.what {
			t.Errorf("Binary(%.20q) = %d, %q, want %d, %q", tt.text, off, what, tt.off, tt.what)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"walkLeft", 8, "walkLeft"},
		{"walkLeft", 4, "walk..."},
		{"éééé", 3, "é..."}, // not cutting a character
		{"éééé", 1, "..."},
		{"", 0, ""},
		{"\xff\xff\xff", 2, "\xff\xff..."},
	} {
		if got := Shorten(tt.s, tt.n); got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
	if got, want := Quote(strings.Repeat("n", 1<<20)), `"`+strings.Repeat("n", MaxQuoted)+`..."`; got != want {
		t.Errorf("Quote(a megabyte) = %.80s (%d bytes), want %.80s", got, len(got), want)
	}
}

func TestIsZip(t *testing.T) {
	for s, want := range map[string]bool{"PK\x03\x04rest": true, "PK\x05\x06": true, "PK\x03": false, "": false, "<a/>": false} {
		if got := IsZip(s); got != want {
			t.Errorf("IsZip(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestQuoteStart(t *testing.T) {
	if got := QuoteStart("short"); got != `"short"` {
		t.Errorf("QuoteStart(short) = %s", got)
	}
	if got := QuoteStart("0123456789abcdefXYZ"); got != `"0123456789abcdef"...` {
		t.Errorf("QuoteStart(long) = %s", got)
	}
}

func TestLines(t *testing.T) {
	src := "ab\ncd\r\n\nxyz"
	x := NewLines(src)
	for _, tt := range []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {5, 2, 3}, {8, 4, 1}, {2, 1, 3}, {10, 4, 3}, {100, 4, 4}, {-1, 1, 1},
	} {
		l, c := x.Pos(tt.off)
		wl, wc := LineCol(src, tt.off)
		if l != tt.line || c != tt.col || wl != l || wc != c {
			t.Errorf("Pos(%d) = %d:%d, LineCol = %d:%d, want %d:%d", tt.off, l, c, wl, wc, tt.line, tt.col)
		}
	}
	var zero Lines
	if l, c := zero.Pos(5); l != 1 || c != 1 {
		t.Errorf("Lines{}.Pos(5) = %d:%d, want 1:1", l, c)
	}
}

// decodeUTF16 is how DecodeText decoded UTF-16 before it wrote UTF-8
// straight: through a []uint16 and a []rune, 4.5 times the text.
func decodeUTF16(s string, bigEndian bool) string {
	u := make([]uint16, len(s)/2)
	for i := range u {
		a, b := uint16(s[2*i]), uint16(s[2*i+1])
		if bigEndian {
			u[i] = a<<8 | b
		} else {
			u[i] = b<<8 | a
		}
	}
	return string(utf16.Decode(u))
}

// TestFromUTF16 checks that fromUTF16 decodes as utf16.Decode does, on
// random text: ASCII, two- and three-byte characters, surrogate pairs,
// and surrogates unpaired, reversed, at the start and at the end.
func TestFromUTF16(t *testing.T) {
	units := []uint16{'<', 'a', 0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFE, 0xFFFF,
		0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		n := r.IntN(40)
		if i%100 == 0 {
			n = 1 << 16
		}
		b := make([]byte, 0, 2*n)
		for range n {
			u := units[r.IntN(len(units))]
			if r.IntN(4) == 0 {
				u = uint16(r.Uint32())
			}
			b = append(b, byte(u), byte(u>>8))
		}
		for _, big := range []bool{false, true} {
			s := string(b)
			got, ok := fromUTF16(s, big)
			if want := decodeUTF16(s, big); !ok || got != want {
				t.Fatalf("fromUTF16(%q, big endian %v) = %q, %v; want %q", s, big, got, ok, want)
			}
		}
	}
	if got, ok := fromUTF16("<\x00a", false); ok || got != "" {
		t.Errorf(`fromUTF16 of an odd length = %q, %v; want "", false`, got, ok)
	}
}

// BenchmarkDecodeText decodes 10 MiB of UTF-16 (markup, and some text of
// two and three bytes), beside the old way through []uint16 and []rune,
// the baseline.
func BenchmarkDecodeText(b *testing.B) {
	line := "\t\t<Cell N='PinX' V='4.25' U='IN'/><Text>walk left — \u00e9t\u00e9 \U0001F600</Text>\r\n"
	var u []byte
	for _, r := range strings.Repeat(line, (10<<20)/(2*len(line))) {
		for _, c := range utf16.AppendRune(nil, r) {
			u = append(u, byte(c), byte(c>>8))
		}
	}
	src := "\xFF\xFE" + string(u)
	b.Run("size=10MiB", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			DecodeText(src, false)
		}
	})
	b.Run("size=10MiB/baseline", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			decodeUTF16(src[2:], false)
		}
	})
}
