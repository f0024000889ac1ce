package xmlscan

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/internal/source"
)

// tokens renders the tokens of src: "<ns:local a=v>", "</local>", "text".
func tokens(src string) ([]string, *SyntaxError) {
	sc := New(src, 100)
	var out []string
	for sc.Next() {
		switch sc.Kind() {
		case StartTag:
			s := "<" + sc.Space() + ":" + sc.Local()
			for _, a := range sc.Attrs() {
				s += " " + QName(a.Prefix, a.Local) + "=" + a.Value()
			}
			out = append(out, s+">")
		case EndTag:
			out = append(out, "</"+sc.Local()+">")
		case CharData:
			t := sc.Raw()
			if !sc.CDATA() {
				t = Unescape(t)
			}
			out = append(out, fmt.Sprintf("%q", t))
		}
	}
	return out, sc.Err()
}

func TestScanner(t *testing.T) {
	src := "\ufeff"[:0] + `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE v [ <!ENTITY x "y"> ]>
<!-- a comment -->
<a xmlns='u1' xml:space='preserve' k="&lt;&amp;&#65;&#x42;">x&gt;<p:b xmlns:p='u2'><c/><![CDATA[<raw>&amp;]]></p:b><p:d/>` + "\r\nend</a>\n<?pi after?>\n"
	got, err := tokens(src)
	if err != nil {
		t.Fatalf("scan: %d: %s", err.Offset, err.Msg)
	}
	want := []string{
		"<u1:a xml:space=preserve k=<&AB>", `"x>"`, "<u2:b>", "<u1:c>", "</c>", `"<raw>&amp;"`, "</b>",
		"<undeclared:p:d>", "</d>", `"\nend"`, "</a>",
	}
	if !slices.Equal(got, want) {
		t.Errorf("tokens =\n%q\nwant\n%q", got, want)
	}
}

func TestScannerErrors(t *testing.T) {
	for _, tt := range []struct {
		src  string
		line int
		col  int
		msg  string
	}{
		{"", 1, 1, "no root element"},
		{"<a>", 1, 4, "unexpected end of file: <a> (line 1:1) is not closed"},
		{"<a></b>", 1, 4, "<a> (line 1:1) is closed by </b>"},
		{"<a/></a>", 1, 5, "</a> closes no element"},
		{"<a/><b/>", 1, 5, "a second root element"},
		{"<a>\n <1/></a>", 2, 3, "invalid element name after '<'"},
		{"<a b='1'c='2'/>", 1, 9, `expected space, '>' or '/>' in <a>, found 'c'`},
		{"<a b/>", 1, 4, "attribute b of <a> has no value"},
		{"<a b=1/>", 1, 6, "value of attribute b of <a> is not quoted"},
		{"<a b='1/>", 1, 6, "value of attribute b of <a> is not closed"},
		{"<a b='<'/>", 1, 7, "'<' in the value of attribute b of <a>"},
		{"<a b='&x;'/>", 1, 7, "unknown entity &x;"},
		{"<a>&#xD800;</a>", 1, 4, "character reference &#xD800; is U+D800 (a surrogate), which XML does not allow"},
		{"<a>&#x110000;</a>", 1, 4, "invalid character reference &#x110000;"},
		{"<a>\n x\x00</a>", 2, 3, "character U+0000 (a NUL byte) is not allowed in XML: the file is damaged or was not written by an XML tool"},
		{"<" + strings.Repeat("n", 100) + ">", 1, 103, "unexpected end of file: <" + strings.Repeat("n", 64) + "...> (line 1:1) is not closed"},
		{"<a></a\x01>", 1, 7, "character U+0001 (a control character) is not allowed in XML"},
		{"<a></a x>", 1, 8, "expected '>' to end </a>, found 'x'"},
		{"<a>& b</a>", 1, 4, "'&' that starts no reference"},
		{"<a / >", 1, 4, "expected '>' after '/' in <a>"},
		{"<a></a >x", 1, 9, "text outside the root element"},
		{"<a><!x></a>", 1, 4, "invalid markup after '<!'"},
		{"<a><![CDATA[x</a>", 1, 4, "CDATA section not closed"},
		{"<![CDATA[x]]><a/>", 1, 1, "CDATA section outside the root element"},
		{"<a><!DOCTYPE a></a>", 1, 4, "DOCTYPE inside the document"},
		{"<!DOCTYPE a [", 1, 1, "DOCTYPE not closed"},
		{"<a><?pi</a>", 1, 4, "processing instruction not closed"},
		{"<a></", 1, 6, "invalid element name after '</'"},
		{"<a></a", 1, 7, "expected '>' to end </a>, found end of file"},
		{"<a <", 1, 4, "invalid attribute name in <a>: '<'"},
		{"<a", 1, 1, "unexpected end of file inside <a>"},
		{"<", 1, 1, "unexpected end of file after '<'"},
		{"<a/><?xml version='1.0'?>", 1, 5, "XML declaration not at the start of the file"},
		{"<?xml version='1.0' encoding='UTF-16'?><a/>", 1, 1, "the file says it is in UTF-16 but is not"},
		{"<?xml version='1.0' encoding='latin1'?><a/>", 1, 1, `encoding "latin1" is not supported`},
		{strings.Repeat("<a>", 101), 1, 301, "XML elements nested more than 100 deep"},
	} {
		_, err := tokens(tt.src)
		if err == nil {
			t.Errorf("scan(%q) = no error, want %q", tt.src, tt.msg)
			continue
		}
		line, col := source.LineCol(tt.src, err.Offset)
		if line != tt.line || col != tt.col || !strings.HasPrefix(err.Msg, tt.msg) {
			t.Errorf("scan(%q) = %d:%d: %s, want %d:%d: %s", tt.src, line, col, err.Msg, tt.line, tt.col, tt.msg)
		}
		if deep := strings.Contains(tt.msg, "deep"); err.Deep != deep || err.Error() != err.Msg {
			t.Errorf("scan(%q): Deep = %v, Error() = %q, want %v and %q", tt.src, err.Deep, err.Error(), deep, err.Msg)
		}
	}
}

// TestEncoding checks the declared encodings the scanner accepts: UTF-8,
// and UTF-16 when the document was UTF-16; the message for others names
// the Editor.
func TestEncoding(t *testing.T) {
	for _, tt := range []struct {
		enc    string
		utf16  bool
		editor string
		want   string // the error, or ""
	}{
		{"UTF-8", false, "", ""},
		{"us-ascii", false, "", ""},
		{"UTF-16", true, "", ""},
		{"utf-16le", false, "", "the file says it is in utf-16le but is not"},
		{"windows-1252", false, "Visio", `encoding "windows-1252" is not supported: Visio writes UTF-8`},
		{"windows-1252", false, "", `encoding "windows-1252" is not supported`},
	} {
		sc := New(`<?xml version="1.0" encoding="`+tt.enc+`"?><a/>`, 10)
		sc.UTF16, sc.Editor = tt.utf16, tt.editor
		for sc.Next() {
		}
		got := ""
		if err := sc.Err(); err != nil {
			got = err.Msg
		}
		if got != tt.want {
			t.Errorf("scan(encoding %s, UTF16 %v, Editor %q) = %q, want %q", tt.enc, tt.utf16, tt.editor, got, tt.want)
		}
	}
}

// TestWalk reads a tree with Child, Skip, Text, Attr and AttrNS.
func TestWalk(t *testing.T) {
	src := `<r xmlns:x="ux"><a id="1" x:k="v&amp;w">one<b>two</b><![CDATA[<3>]]></a>` +
		`<skip><a id="deep"/></skip><a id="2"/><c/></r>`
	sc := New(src, 10)
	for sc.Next() && sc.Kind() != StartTag {
	}
	var got []string
	for sc.Child(1) {
		if sc.Local() != "a" {
			sc.Skip()
			continue
		}
		id, k, self := sc.Attr("id"), sc.AttrNS("ux", "k"), sc.SelfClosing()
		got = append(got, fmt.Sprintf("a id=%s k=%q self=%v at %d text=%q rest=%.4s", id, k, self, sc.Offset(), sc.Text(), sc.Rest()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`a id=1 k="v&w" self=false at 16 text="onetwo<3>" rest=<ski`,
		fmt.Sprintf(`a id=2 k="" self=true at %d text="" rest=<c/>`, strings.Index(src, `<a id="2"`)),
	}
	if !slices.Equal(got, want) {
		t.Errorf("walk =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sc.Src() != src || sc.Depth() != 0 || sc.Kind() != EndTag || sc.Local() != "r" {
		t.Errorf("Src() = %q, Depth() = %d, token %v %s, want the document, 0, and the end of r", sc.Src(), sc.Depth(), sc.Kind(), sc.Local())
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":              "plain",
		"a&amp;b&lt;&gt;":    "a&b<>",
		"&quot;&apos;&#233;": `"'é`,
		"l1\r\nl2\rl3":       "l1\nl2\nl3",
		"&bogus":             "&bogus",
	} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestQName(t *testing.T) {
	if got := QName("", "a"); got != "a" {
		t.Errorf(`QName("", "a") = %q, want "a"`, got)
	}
	if got := QName("p", "a"); got != "p:a" {
		t.Errorf(`QName("p", "a") = %q, want "p:a"`, got)
	}
}

// trace renders every token sc reads, with all the scanner says of it and
// its line and column, then its error.
func trace(sc *Scanner) []string {
	var out []string
	for sc.Next() {
		l, c := sc.LineCol(sc.Offset())
		s := fmt.Sprintf("%d %d:%d@%d depth %d", sc.Kind(), l, c, sc.Offset(), sc.Depth())
		switch sc.Kind() {
		case StartTag:
			s += fmt.Sprintf(" <%s:%s {%s} self %v", sc.Prefix(), sc.Local(), sc.Space(), sc.SelfClosing())
			for _, a := range sc.Attrs() {
				s += fmt.Sprintf(" %s:%s=%q", a.Prefix, a.Local, a.Raw)
			}
		case EndTag:
			s += fmt.Sprintf(" </%s:%s", sc.Prefix(), sc.Local())
		case CharData:
			s += fmt.Sprintf(" %q cdata %v", sc.Raw(), sc.CDATA())
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		l, c := sc.LineCol(err.Offset)
		out = append(out, fmt.Sprintf("error %d:%d@%d %q deep %v many %v", l, c, err.Offset, err.Msg, err.Deep, err.TooManyAttrs))
	}
	return out
}

// streamDocs are documents whose tokens cross the windows of a scanner of
// NewReader in every way: long text, attributes, comments, CDATA sections,
// multi-byte characters, line ends, and malformed XML of every kind.
func streamDocs() []string {
	docs := []string{
		"",
		"<a/>",
		" \n <a>\r\n</a> \n",
		"<?xml version='1.0' encoding='utf-8'?>\n<a/>",
		"<a>x</a><!-- c -->  <?pi?>\n",
		`<r xmlns:x="ux"><a id="1" x:k="v&amp;w">one<b>two</b><![CDATA[<3>]]></a>` +
			`<skip><a id="deep"/></skip><a id="2"/><c/></r>`,
		"<a>" + strings.Repeat("é€😀\u2028", 40) + "</a>",
		"<a b='" + strings.Repeat("x€", 100) + "' c=\"&#x1F600;&amp;\">\r\n" + strings.Repeat("line\n", 30) + "</a>",
		"<!DOCTYPE a [ <!ENTITY x 'y>'> ]>\n<a><!--" + strings.Repeat("-", 50) + "--><![CDATA[" + strings.Repeat("]>", 30) + "]]></a>",
		"<a>\n<b>\n<c>\n</c>\n</b>\n" + strings.Repeat(" ", 100) + "</a>",
		"<a>\n  <b>\n   <c>text" + strings.Repeat("\n", 20) + "</b></a>",
		"<p:a xmlns:p='" + strings.Repeat("u", 70) + "'><p:b xmlns:p='v'/><p:c/></p:a>",
		strings.Repeat("<a>", 60) + strings.Repeat("</a>", 60),
		strings.Repeat("<a>\n", 101),
		"<a>€\xE2\x82</a>",
		"<a>\xE2\x82\xE2\x82\xAC\xFF</a>",
		"<a\xE2\x82\xAC/>",
		"<€ b€='1'/>",
	}
	var src []string
	src = append(src, `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE v [ <!ENTITY x "y"> ]>
<!-- a comment -->
<a xmlns='u1' xml:space='preserve' k="&lt;&amp;&#65;&#x42;">x&gt;<p:b xmlns:p='u2'><c/><![CDATA[<raw>&amp;]]></p:b><p:d/>`+"\r\nend</a>\n<?pi after?>\n")
	for _, e := range []string{
		"<a>", "<a></b>", "<a/></a>", "<a/><b/>", "<a>\n <1/></a>", "<a b='1'c='2'/>", "<a b/>", "<a b=1/>",
		"<a b='1/>", "<a b='<'/>", "<a b='&x;'/>", "<a>&#xD800;</a>", "<a>& b</a>", "<a / >", "<a></a >x",
		"<a><!x></a>", "<a><![CDATA[x</a>", "<![CDATA[x]]><a/>", "<a><!DOCTYPE a></a>", "<!DOCTYPE a [",
		"<a><?pi</a>", "<a></", "<a></a", "<a <", "<a", "<", "<a/><?xml version='1.0'?>",
		"<?xml version='1.0' encoding='UTF-16'?><a/>", "<a>\n<!-- x -- </a>", "<a>x&amp</a>", "<a>x&am",
		// Characters XML does not allow, alone and beside other errors.
		"<a>x\x00y</a>", "<a b='\x01'/>", "<a>&#1;</a>", "<a><!-- \x1F --></a>", "<a><?pi \x02?></a>", "<a><![CDATA[\x03]]></a>",
		"<a>\uFFFE</a>", "<a>\uFFFF\x00</a>", "\x01<a/>", "<a/>\x01", "<a/><!-- \x01 -->", "<a\x01/>", "<a></a\x01>", "<a x\x01='1'/>",
		"<a b='\x01", "<a b='x'\x01", "<a><!-- \x01", "<a><!-- \x01 -- x", "<a/ \x01>", "</a\x00", "<a></b>\x00", "<a>\x00</b>",
		"<a>" + strings.Repeat("x", 40) + "\x00" + strings.Repeat("y", 40) + "</a>", "<a>\xEF\xBF</a>\xBF", "<a>\xEF\xBF\xBE</a>",
	} {
		src = append(src, e, "<r>\n"+strings.Repeat(" ", 37)+"<x y='z'>"+e+"</x></r>")
	}
	return append(docs, src...)
}

// xmlDecoderRefuses reports whether encoding/xml (which the SCXML and
// GraphML readers use) refuses a document, and why.
func xmlDecoderRefuses(src string) (bool, string) {
	d := xml.NewDecoder(strings.NewReader(src))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return false, ""
		}
		if err != nil {
			return true, err.Error()
		}
	}
}

// TestIllegalChars checks that the scanner refuses the characters XML
// does not allow, raw or as references, as encoding/xml does, with the
// character's name, and where encoding/xml lets them through: in comments,
// processing instructions and the DOCTYPE, and a surrogate as a reference
// (which it reads as U+FFFD).
func TestIllegalChars(t *testing.T) {
	type where struct{ pre, post string }
	places := map[string]where{
		"text":      {"<a>x", "y</a>"},
		"attribute": {"<a b='x", "y'/>"},
		"CDATA":     {"<a><![CDATA[x", "y]]></a>"},
		"before":    {"", "<a/>"},
		"after":     {"<a/>", ""},
	}
	lenient := map[string]where{ // encoding/xml accepts these
		"comment": {"<a><!-- x", "y --></a>"},
		"PI":      {"<a><?pi x", "y?></a>"},
		"DOCTYPE": {"<!DOCTYPE a [ x", "y ]><a/>"},
	}
	type char struct {
		raw, ref, name string
	}
	var chars []char
	for r := rune(0); r < 0x20; r++ {
		if r != '\t' && r != '\n' && r != '\r' {
			chars = append(chars, char{string(r), fmt.Sprintf("&#%d;", r), fmt.Sprintf("%U", r)})
		}
	}
	chars = append(chars, char{"\uFFFE", "&#xFFFE;", "U+FFFE"}, char{"\uFFFF", "&#xFFFF;", "U+FFFF"})
	check := func(src, name string, xmlRefuses bool) {
		t.Helper()
		_, err := tokens(src)
		if err == nil || !strings.Contains(err.Msg, name) || !strings.Contains(err.Msg, "not written by an XML tool") {
			t.Errorf("scan(%q) = %v, want an error naming %s", src, err, name)
		}
		if refused, why := xmlDecoderRefuses(src); refused != xmlRefuses {
			t.Errorf("encoding/xml refuses %q: %v (%s), want %v", src, refused, why, xmlRefuses)
		}
	}
	for _, c := range chars {
		for _, w := range places {
			check(w.pre+c.raw+w.post, c.name, true)
			if w.pre != "" && w.post != "" && !strings.Contains(w.pre, "CDATA") {
				check(w.pre+c.ref+w.post, c.name, true)
			}
		}
		for _, w := range lenient {
			check(w.pre+c.raw+w.post, c.name, false)
		}
	}
	check("<a>&#xD800;</a>", "U+D800", false)
	// What XML allows, both accept.
	for _, src := range []string{"<a b='&#9;&#10;&#13;\t'>\t\n\r\x7F\u0085\uFFFD\U0010FFFF&#x10FFFF;&#xE000;</a>", "<a>\uFFFD\uFEFF</a>"} {
		if _, err := tokens(src); err != nil {
			t.Errorf("scan(%q) = %v", src, err)
		}
		if refused, why := xmlDecoderRefuses(src); refused {
			t.Errorf("encoding/xml refuses %q: %s", src, why)
		}
	}
}

// TestIllegalAt checks the scanner's search for characters XML does not
// allow against a loop over the characters.
func TestIllegalAt(t *testing.T) {
	slow := func(s string) int {
		for i, r := range s {
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
				return i
			}
		}
		return -1
	}
	pieces := []string{"a", "\t", "\n", "\r", "\x00", "\x1F", " ", "\x7F", "é", "\uFFFD", "\uFFFE", "\uFFFF", "\uEFBF", "\xEF", "\xBF", "€", "😀"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(4) > 0 {
				p = pieces[rng.IntN(4)]
			}
			b.WriteString(p)
		}
		s := b.String()
		if !utf8.ValidString(s) {
			continue
		}
		if got, want := illegalAt(s), slow(s); got != want {
			t.Fatalf("illegalAt(%q) = %d, want %d", s, got, want)
		}
		if got, want := illegalAt([]byte(s)), slow(s); got != want {
			t.Fatalf("illegalAt([]byte(%q)) = %d, want %d", s, got, want)
		}
	}
}

// TestShortMessages checks that a message quotes no more than a prefix of
// a name, however long.
func TestShortMessages(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	for _, src := range []string{
		"<" + long + ">", "<a></" + long + ">", "<" + long + "></a>", "<a " + long + "/>", "<a " + long + "='1' x/>",
		"<a " + long + "=1/>", "<a " + long + "='1/>", "<a " + long + "='<'/>", "<a/></" + long + ">", "<" + long + " / >",
		"<?xml version='1.0' encoding='" + long + "'?><a/>", "<" + long, "<a x='1'" + long + ">",
	} {
		for _, sc := range []*Scanner{New(src, 10), NewReader(strings.NewReader(src), 10, 100)} {
			for sc.Next() {
			}
			if err := sc.Err(); err == nil || len(err.Msg) > 300 {
				t.Errorf("scan(%.80q...) = %.400v: want an error of no more than 300 bytes", src, err)
			}
		}
	}
}

// TestReader checks that a scanner of NewReader reads what a scanner of
// the whole document reads, whatever its window and however its reader
// cuts the document.
func TestReader(t *testing.T) {
	readers := map[string]func(string) io.Reader{
		"whole":   func(s string) io.Reader { return strings.NewReader(s) },
		"onebyte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"half":    func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
		"dataerr": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
	}
	for i, src := range streamDocs() {
		want := trace(New(src, 100))
		for _, window := range []int{1, 2, 3, 5, 8, 13, 64, 1 << 20} {
			for name, r := range readers {
				got := trace(NewReader(r(src), 100, window))
				if !slices.Equal(got, want) {
					t.Errorf("doc %d (%.40q), window %d, %s reader:\ngot  %q\nwant %q", i, src, window, name, got, want)
				}
			}
		}
	}
}

// TestReaderWalk walks a tree with Child, Skip, Text and Attr in a window
// of a few bytes.
func TestReaderWalk(t *testing.T) {
	src := `<r xmlns:x="ux"><a id="1" x:k="v&amp;w">one<b>two</b><![CDATA[<3>]]></a>` +
		`<skip><a id="deep"/></skip><a id="2"/><c/></r>`
	sc := NewReader(strings.NewReader(src), 10, 3)
	for sc.Next() && sc.Kind() != StartTag {
	}
	var got []string
	for sc.Child(1) {
		if sc.Local() != "a" {
			sc.Skip()
			continue
		}
		got = append(got, fmt.Sprintf("a id=%s k=%q at %d text=%q", sc.Attr("id"), sc.AttrNS("ux", "k"), sc.Offset(), sc.Text()))
	}
	want := []string{`a id=1 k="v&w" at 16 text="onetwo<3>"`, fmt.Sprintf(`a id=2 k="" at %d text=""`, strings.Index(src, `<a id="2"`))}
	if sc.Err() != nil || !slices.Equal(got, want) {
		t.Errorf("walk = %v\n%s\nwant\n%s", sc.Err(), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(sc.Src()) > 2*len(`<skip><a id="deep"/></skip>`) {
		t.Errorf("Src() = %q: the window holds more than it should", sc.Src())
	}
}

// TestReaderError checks that a reader's error stops the scanner, with the
// error in the SyntaxError's Read field.
func TestReaderError(t *testing.T) {
	fail := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("<a>\n<b/>"), iotest.ErrReader(fail))
	sc := NewReader(r, 10, 2)
	n := 0
	for sc.Next() {
		n++
	}
	err := sc.Err()
	if err == nil || err.Read != fail || n != 4 || !strings.Contains(err.Msg, "disk on fire") {
		t.Fatalf("scan = %d tokens, %+v, want 4 tokens and the reader's error", n, err)
	}
	if sc.Next() || sc.Err() != err {
		t.Errorf("Next after the error = true or another error %v", sc.Err())
	}
}

// FuzzReader checks that a scanner of NewReader reads what a scanner of the
// whole document reads, in a window of window%100+1 bytes.
func FuzzReader(f *testing.F) {
	for _, src := range streamDocs() {
		f.Add(src, uint8(len(src)%7))
	}
	f.Fuzz(func(t *testing.T, src string, window uint8) {
		want := trace(New(src, 20))
		if got := trace(NewReader(iotest.HalfReader(strings.NewReader(src)), 20, int(window)%100+1)); !slices.Equal(got, want) {
			t.Errorf("window %d:\ngot  %q\nwant %q", int(window)%100+1, got, want)
		}
	})
}

// BenchmarkIllegalAt measures the search for characters XML does not
// allow, a pass over the whole document, beside the check for invalid
// UTF-8 its callers make (the baseline).
func BenchmarkIllegalAt(b *testing.B) {
	line := "\t\t<Cell N='PinX' V='4.25' U='IN'/><Text>walk left — \u00e9t\u00e9</Text>\r\n"
	src := strings.Repeat(line, (1<<20)/len(line))
	b.Run("size=1MiB", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if illegalAt(src) >= 0 {
				b.Fatal("illegal")
			}
		}
	})
	b.Run("size=1MiB/utf8.ValidString", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if !utf8.ValidString(src) {
				b.Fatal("invalid")
			}
		}
	})
}

// TestMaxAttrs checks that a start tag of more than MaxAttrs attributes,
// namespace declarations included, stops the scanner at the tag, with a
// message that names the element, shortened, and the limit; and that a
// scanner of NewReader stops there too, whatever its window.
func TestMaxAttrs(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	for _, tt := range []struct {
		max  int
		src  string
		err  string // "" for none
		line int    // of the error
	}{
		{3, "<a x='1' y='2' z='3'/>", "", 0},
		{3, "<a xmlns='u' xmlns:p='v' p:z='3'><p:b/></a>", "", 0},
		{3, "<r>\n <a w='0' x='1' y='2' z='3'/></r>", "<a> has more than 3 attributes", 2},
		{3, "<a xmlns='u' xmlns:p='v' x='1' y='2'/>", "<a> has more than 3 attributes", 1},
		{3, "<a x='1' y='2' z='3' q", "<a> has more than 3 attributes", 1},
		{3, "<a x='1' y='2' z='3' 'q'/>", "<a> has more than 3 attributes", 1},
		{3, "<a x='1' y='2' z='3'q='4'/>", "expected space", 1},
		{3, "<" + long + " w='0' x='1' y='2' z='3'/>", "<" + long[:source.MaxQuoted] + "...> has more than 3 attributes", 1},
		{0, "<a" + strings.Repeat(" a=''", DefaultMaxAttrs) + "/>", "", 0},
		{0, "<a" + strings.Repeat(" a=''", DefaultMaxAttrs+1) + "/>", fmt.Sprintf("<a> has more than %d attributes", DefaultMaxAttrs), 1},
	} {
		scanners := []*Scanner{New(tt.src, 10)}
		windows := []int{1, 7, 64, 1 << 20}
		if len(tt.src) > 1<<20 {
			windows = []int{64 << 10} // the window grows to the tag
		}
		for _, window := range windows {
			scanners = append(scanners, NewReader(iotest.HalfReader(strings.NewReader(tt.src)), 10, window))
		}
		for k, sc := range scanners {
			sc.MaxAttrs = tt.max
			for sc.Next() {
			}
			err := sc.Err()
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("scanner %d: scan(%.40q..., MaxAttrs %d) = %q, want no error", k, tt.src, tt.max, err.Msg)
			case tt.err == "":
			case err == nil || !strings.HasPrefix(err.Msg, tt.err):
				t.Errorf("scanner %d: scan(%.40q..., MaxAttrs %d) = %.200v, want %q", k, tt.src, tt.max, err, tt.err)
			case strings.Contains(tt.err, "attributes"):
				// At the start tag: its line, its '<'.
				if l, _ := sc.LineCol(err.Offset); !err.TooManyAttrs || l != tt.line || tt.src[err.Offset] != '<' {
					t.Errorf("scanner %d: scan(%.40q...) = error at line %d, offset %d, TooManyAttrs %v; want at the tag, line %d, TooManyAttrs true", k, tt.src, l, err.Offset, err.TooManyAttrs, tt.line)
				}
			}
		}
	}
}

// TestReaderMaxAttrs checks that scanners of NewReader stop where a
// scanner of the whole document does, for a small MaxAttrs.
func TestReaderMaxAttrs(t *testing.T) {
	for i, src := range streamDocs() {
		sc := New(src, 100)
		sc.MaxAttrs = 2
		want := trace(sc)
		for _, window := range []int{1, 3, 8, 64} {
			sc := NewReader(iotest.HalfReader(strings.NewReader(src)), 100, window)
			sc.MaxAttrs = 2
			if got := trace(sc); !slices.Equal(got, want) {
				t.Errorf("doc %d (%.40q), window %d:\ngot  %q\nwant %q", i, src, window, got, want)
			}
		}
	}
}

// TestManyNamespaces checks that the namespaces of elements are resolved
// as the innermost binding of their prefix says, however many bindings
// are in scope, against a scan of a stack of maps, on random documents;
// and that a scanner of NewReader resolves them alike.
func TestManyNamespaces(t *testing.T) {
	prefixes := []string{"", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 2))
		var b strings.Builder
		var want []string
		scopes := []map[string]string{{}}
		resolve := func(p string) string {
			for i := len(scopes) - 1; i >= 0; i-- {
				if u, ok := scopes[i][p]; ok {
					return u
				}
			}
			if p != "" {
				return "undeclared:" + p
			}
			return ""
		}
		var open []string
		for n := 0; n < 300 && (n == 0 || len(open) > 0); n++ {
			if len(open) > 0 && r.IntN(3) == 0 {
				b.WriteString("</" + open[len(open)-1] + ">")
				open, scopes = open[:len(open)-1], scopes[:len(scopes)-1]
				continue
			}
			scope := map[string]string{}
			var decl strings.Builder
			for range r.IntN(1 + 4*r.IntN(4)) { // up to 12 bindings
				p, u := prefixes[r.IntN(len(prefixes))], fmt.Sprintf("u%d", r.IntN(1000))
				if _, dup := scope[p]; dup {
					continue
				}
				scope[p] = u
				if p == "" {
					decl.WriteString(" xmlns='" + u + "'")
				} else {
					decl.WriteString(" xmlns:" + p + "='" + u + "'")
				}
			}
			p := prefixes[r.IntN(len(prefixes))]
			name := "x"
			if p != "" {
				name = p + ":x"
			}
			scopes = append(scopes, scope)
			want = append(want, resolve(p))
			b.WriteString("<" + name + decl.String() + ">")
			open = append(open, name)
		}
		for len(open) > 0 {
			b.WriteString("</" + open[len(open)-1] + ">")
			open = open[:len(open)-1]
		}
		src := b.String()
		for _, sc := range []*Scanner{New(src, 1000), NewReader(iotest.HalfReader(strings.NewReader(src)), 1000, 16)} {
			var got []string
			for sc.Next() {
				if sc.Kind() == StartTag {
					got = append(got, sc.Space())
				}
			}
			if sc.Err() != nil || !slices.Equal(got, want) {
				t.Fatalf("seed %d: scan(%.80q...) = %v, spaces\n%q\nwant\n%q", seed, src, sc.Err(), got, want)
			}
		}
	}
}

// TestManyNamespacesTime checks that a start tag costs O(1) however many
// namespace bindings are in scope: 400,000 bindings (each start tag
// looked through them) and as many elements took minutes.
func TestManyNamespacesTime(t *testing.T) {
	const n = 400_000
	var b strings.Builder
	b.WriteString("<r")
	for i := range n {
		fmt.Fprintf(&b, " xmlns:p%d='u'", i)
	}
	b.WriteString(">" + strings.Repeat("<a/><p7:a q:x='1'/>", n) + "</r>")
	start := time.Now()
	sc := New(b.String(), 10)
	for sc.Next() {
		if sc.Kind() == StartTag && sc.Local() == "a" && sc.Prefix() == "p7" && (sc.Space() != "u" || sc.AttrNS("u", "x") != "") {
			t.Fatalf("<p7:a> in %q, want u", sc.Space())
		}
	}
	if d := time.Since(start); sc.Err() != nil || d > 30*time.Second {
		t.Errorf("scan = %v, in %v; want no error, in well under a second", sc.Err(), d)
	}
}
