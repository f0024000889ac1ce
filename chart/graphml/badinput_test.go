package graphml_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/diag"
)

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func utf16le(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// nest returns a drawing whose groups nest n deep.
func nest(n int) string {
	var b strings.Builder
	b.WriteString(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph id="G">`)
	for i := range n {
		b.WriteString(`<node id="n` + strings.Repeat("x", i) + `"><graph>`)
	}
	b.WriteString(strings.Repeat(`</graph></node>`, n))
	b.WriteString(`</graph></graphml>`)
	return b.String()
}

// TestBadInput feeds the reader files it must refuse, each with an error
// that says why (and where, for XML), wrapping the right sentinel.
func TestBadInput(t *testing.T) {
	small := doc(node("a", "A"), node("b", "B"), edge("e", "a", "b", "go"))
	zeros := gzipped(t, make([]byte, 1<<20))
	for _, tt := range []struct {
		name string
		data []byte
		opt  graphml.Options
		err  error
		want string // in the error's text
	}{
		{"empty", nil, graphml.Options{}, graphml.ErrNotGraphML, "graphml: the file is empty"},
		{"spaces", []byte(" \n\t"), graphml.Options{}, graphml.ErrNotGraphML, "not a GraphML file"},
		{"text", []byte("hello, world"), graphml.Options{}, graphml.ErrNotGraphML, `this is a text file that is not XML, not a GraphML file (it starts with "hello, world")`},
		{"binary", []byte("\x00\x01\x02<graphml>"), graphml.Options{}, graphml.ErrNotGraphML, "this is a binary file"},
		{"zip", []byte("PK\x03\x04rest"), graphml.Options{}, graphml.ErrNotGraphML, "this is a zip archive"},
		{"bad gzip", []byte("\x1F\x8B\x08\x00garbage"), graphml.Options{}, graphml.ErrNotGraphML, "gzip"},
		{"gzip bomb", zeros, graphml.Options{MaxSize: 1 << 16}, graphml.ErrTooLarge, "the file uncompresses to more than 64 KiB"},
		{"gzip twice", gzipped(t, gzipped(t, []byte(small))), graphml.Options{}, graphml.ErrNotGraphML, "compressed twice"},
		{"draw.io", []byte(`<mxfile host="x"><diagram/></mxfile>`), graphml.Options{}, graphml.ErrNotGraphML, "the root element is <mxfile>, not <graphml>"},
		{"malformed", []byte("<graphml>\n  <graph>\n</graphml>"), graphml.Options{}, graphml.ErrMalformed, "test.graphml:3:11: graphml: malformed XML: element <graph> closed by </graphml>"},
		{"truncated", []byte(small[:len(small)/2]), graphml.Options{}, graphml.ErrMalformed, "graphml: malformed XML: unexpected EOF"},
		{"invalid UTF-8", []byte("<graphml>\n<graph id='\xFF'/></graphml>"), graphml.Options{}, graphml.ErrMalformed, "test.graphml:2:12: graphml: malformed XML: invalid UTF-8"},
		{"encoding", []byte(`<?xml version="1.0" encoding="Shift_JIS"?><graphml/>`), graphml.Options{}, graphml.ErrMalformed, `declares an encoding this reader does not know: "Shift_JIS"`},
		{"entity", []byte(`<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><graphml><graph><node id="&b;"/></graph></graphml>`),
			graphml.Options{}, graphml.ErrMalformed, "invalid character entity &b;"},
		{"two roots", []byte("<graphml/>\n<graphml/>"), graphml.Options{}, graphml.ErrMalformed, "test.graphml:2:1: graphml: malformed XML: a second root element, <graphml>, after </graphml>"},
		{"text after root", []byte("<graphml/>junk"), graphml.Options{}, graphml.ErrMalformed, "text outside the root element"},
		{"no root", []byte(`<?xml version="1.0"?><!-- nothing -->`), graphml.Options{}, graphml.ErrNotGraphML, "no root element"},
		{"too large", []byte(small), graphml.Options{MaxSize: 100}, graphml.ErrTooLarge, "the file is larger than 100 bytes"},
		{"too many nodes", []byte(small), graphml.Options{MaxElements: 2}, graphml.ErrTooLarge, "more than 2 nodes and edges"},
		{"deep XML", []byte("<graphml>" + strings.Repeat("<a>", 1e6)), graphml.Options{}, graphml.ErrTooDeep, "XML elements nest more than 232 deep"},
		{"deep groups", []byte(nest(6)), graphml.Options{MaxDepth: 5}, graphml.ErrTooDeep, "group nodes nest more than 5 deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			opt.File = "test.graphml"
			c, err := graphml.Read(bytes.NewReader(tt.data), opt)
			if c != nil {
				t.Errorf("Read = %+v, want a nil chart", c)
			}
			if !errors.Is(err, tt.err) {
				t.Fatalf("Read error = %v, want %v", err, tt.err)
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 || l[0].Severity != diag.Error {
				t.Fatalf("Read error = %#v, want a Diagnostics of one error", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "graphml: ") {
				t.Errorf("Read error = %q, want %q", err.Error(), tt.want)
			}
		})
	}
}

// TestEncodings reads drawings that are not plain UTF-8.
func TestEncodings(t *testing.T) {
	small := doc(node("a", "Café"), node("b", "B"), edge("e", "a", "b", "go"))
	latin1 := []byte(strings.Replace(strings.Replace(small, "Café", "Caf\xE9", 1), `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1))
	noBOM := utf16le(small)[2:]
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"UTF-8", []byte(small)},
		{"UTF-8 with BOM", append([]byte("\xEF\xBB\xBF"), small...)},
		{"UTF-16LE with BOM", utf16le(strings.Replace(small, "UTF-8", "UTF-16", 1))},
		{"UTF-16LE without BOM", noBOM},
		{"ISO-8859-1", latin1},
		{"gzip (.graphmlz)", gzipped(t, []byte(small))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := graphml.Read(bytes.NewReader(tt.data), graphml.Options{File: "x.graphml"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := summary(c), "a=Café; b=B; | e:a>b#1[go]"; got != want {
				t.Errorf("chart = %s, want %s", got, want)
			}
		})
	}
}

// TestReadFile reads a file, and names it in the error when it cannot.
func TestReadFile(t *testing.T) {
	c, err := graphml.ReadFile("testdata/statesmith_tutorial1.graphml", graphml.Options{})
	if err != nil || c.File != "testdata/statesmith_tutorial1.graphml" || c.States[0].Pos.File != c.File {
		t.Errorf("ReadFile = %v, %v", c, err)
	}
	c, err = graphml.ReadFile("testdata/missing.graphml", graphml.Options{})
	if c != nil || !errors.Is(err, os.ErrNotExist) || err.Error() != "testdata/missing.graphml: graphml: cannot read the drawing: no such file or directory" {
		t.Errorf("ReadFile(missing) = %v, %v", c, err)
	}
}

// TestNegativeOptions checks that a negative limit, a programming error,
// panics with a message that says so.
func TestNegativeOptions(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "must not be negative") {
			t.Errorf("recover() = %v", r)
		}
	}()
	graphml.Read(strings.NewReader("<graphml/>"), graphml.Options{MaxDepth: -1})
}

// TestTransitionLimit reads labels that make more transitions than
// Options.MaxTransitions (Kingly's lists of transitions, StateSmith's
// behaviours and trigger lists: several transitions per edge), and a
// group whose transitions flattening once multiplied, which now stay
// what they are.
func TestTransitionLimit(t *testing.T) {
	kingly := doc(node("i", "init"), node("a", "A"), edge("e0", "i", "a", ""),
		edge("e1", "a", "a", "| a | b | c | d | e"), edge("e2", "a", "a", "| f | g | h | i | j"))
	smith := doc(node("s", "$initial_state"), node("a", "A"), edge("e0", "s", "a", ""),
		edge("e1", "a", "a", "(A, B, C, D, E)\nF\nG\n(H, I, J)"))
	for _, tt := range []struct {
		name string
		text string
		line int // of the edge that goes over
	}{
		{"Kingly", kingly, strings.Count(kingly[:strings.Index(kingly, `<edge id="e2"`)], "\n") + 1},
		{"StateSmith", smith, strings.Count(smith[:strings.Index(smith, `<edge id="e1"`)], "\n") + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := graphml.Read(strings.NewReader(tt.text), graphml.Options{File: "test.graphml", MaxTransitions: 8})
			var l diag.List
			if c != nil || !errors.Is(err, graphml.ErrTooLarge) || !errors.As(err, &l) || len(l) != 1 {
				t.Fatalf("Read = %v, %v; want ErrTooLarge", c, err)
			}
			if want := "graphml: the edges' labels make more than 8 transitions"; l[0].Message != want || l[0].Pos.Line != tt.line || l[0].Hint == "" {
				t.Errorf("Read error = %+v, want %q at line %d, with a hint", l[0], want, tt.line)
			}
			if _, err := graphml.Read(strings.NewReader(tt.text), graphml.Options{File: "test.graphml", MaxTransitions: 11}); err != nil {
				t.Errorf("Read with MaxTransitions 11 = %v", err)
			}
		})
	}
	groups := doc(group("g", "G", nil, node("a", "A"), node("b", "B"), node("c", "C")),
		edge("e1", "g", "g", "x"), edge("e2", "g", "g", "y"), edge("e3", "g", "g", "z"), edge("e4", "g", "g", "w"), edge("e5", "g", "g", "v"))
	c, _ := graphml.Read(strings.NewReader(groups), graphml.Options{File: "test.graphml", MaxTransitions: 10})
	if c == nil || len(c.Transitions) != 5 {
		t.Errorf("Read(groups) = %+v, want 5 transitions", c)
	}
}

// TestChain reads how the machine runs from the graph's own properties.
func TestChain(t *testing.T) {
	data := strings.Replace(doc(node("a", "A")), `<graph edgedefault="directed" id="G">`,
		`<key attr.name="fsmforgeChain" attr.type="boolean" for="graph" id="ch"/>`+
			`<key attr.name="fsmforgeChainLimit" attr.type="int" for="graph" id="cl"><default>4</default></key>`+
			`<graph edgedefault="directed" id="G"><data key="ch">true</data>`, 1)
	c, err := graphml.Read(strings.NewReader(data), graphml.Options{File: "test.graphml"})
	if c == nil || !c.Chain || c.ChainLimit != 4 {
		t.Errorf("Read = %+v, %v; want a chart that chains, at most 4", c, err)
	}
}
