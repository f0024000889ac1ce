package visio

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

// tokens renders the tokens of src: "<ns:local a=v>", "</local>", "text".
func tokens(src string) ([]string, *syntaxError) {
	sc := newScanner(src, 100)
	var out []string
	for sc.next() {
		switch sc.kind {
		case tokStart:
			s := "<" + sc.space + ":" + sc.local
			for _, a := range sc.attrs {
				s += " " + qname(a.prefix, a.local) + "=" + unescape(a.raw)
			}
			out = append(out, s+">")
		case tokEnd:
			out = append(out, "</"+sc.local+">")
		case tokText:
			t := sc.raw
			if !sc.cdata {
				t = unescape(t)
			}
			out = append(out, fmt.Sprintf("%q", t))
		}
	}
	return out, sc.err
}

func TestScanner(t *testing.T) {
	src := "\ufeff"[:0] + `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE v [ <!ENTITY x "y"> ]>
<!-- a comment -->
<a xmlns='u1' xml:space='preserve' k="&lt;&amp;&#65;&#x42;">x&gt;<p:b xmlns:p='u2'><c/><![CDATA[<raw>&amp;]]></p:b><p:d/>` + "\r\nend</a>\n<?pi after?>\n"
	got, err := tokens(src)
	if err != nil {
		t.Fatalf("scan: %d: %s", err.off, err.msg)
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
		{strings.Repeat("<a>", 101), 1, 301, "XML elements nested more than 100 deep"},
	} {
		_, err := tokens(tt.src)
		if err == nil {
			t.Errorf("scan(%q) = no error, want %q", tt.src, tt.msg)
			continue
		}
		line, col := lineCol(tt.src, err.off)
		if line != tt.line || col != tt.col || !strings.HasPrefix(err.msg, tt.msg) {
			t.Errorf("scan(%q) = %d:%d: %s, want %d:%d: %s", tt.src, line, col, err.msg, tt.line, tt.col, tt.msg)
		}
	}
}

func TestLines(t *testing.T) {
	src := "ab\ncd\r\n\nxyz"
	x := lines{src: src}
	for _, tt := range []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {5, 2, 3}, {8, 4, 1}, {2, 1, 3}, {10, 4, 3}, {100, 4, 4}, {-1, 1, 1},
	} {
		l, c := x.pos(tt.off)
		wl, wc := lineCol(src, tt.off)
		if l != tt.line || c != tt.col || wl != l || wc != c {
			t.Errorf("pos(%d) = %d:%d, lineCol = %d:%d, want %d:%d", tt.off, l, c, wl, wc, tt.line, tt.col)
		}
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
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"com.lucidchart.UMLStartBlock20": {"com", "lucidchart", "uml", "start", "block", "20"},
		"Initial state":                  {"initial", "state"},
		"Start/End":                      {"start", "end"},
		"XMLHttpRequest":                 {"xml", "http", "request"},
		"Legend":                         {"legend"},
		"":                               nil,
	} {
		if got := words(in); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKindOf(t *testing.T) {
	m := func(name string) *Master { return &Master{NameU: name} }
	for _, tt := range []struct {
		s    Shape
		want chart.StateKind
	}{
		{Shape{Master: m("com.lucidchart.UMLStartBlock20")}, chart.StartState},
		{Shape{Master: m("Final state")}, chart.EndState},
		{Shape{Master: m("Decision")}, chart.ChoiceState},
		{Shape{Master: m("Start/End"), Text: "Begin"}, chart.StartState},
		{Shape{Master: m("Terminator"), Text: "Stop"}, chart.EndState},
		{Shape{Master: m("Start/End"), Text: "Login"}, chart.NormalState},
		{Shape{Master: m("Process")}, chart.NormalState},
		{Shape{NameU: "Initial.3"}, chart.StartState},
		{Shape{NameU: "Weekend"}, chart.NormalState},
	} {
		if got := kindOf(&tt.s); got != tt.want {
			t.Errorf("kindOf(%+v) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
