package xmlscan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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
		{"<a>&#xD800;</a>", 1, 4, "invalid character reference &#xD800;"},
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
		{"<a></a", 1, 4, "expected '>' to end </a>"},
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
