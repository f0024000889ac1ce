package w3c

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Test is a test of the suite, as its manifest lists it.
type Test struct {
	// ID is the test's number: 144 for test144.txml.
	ID int

	// Mandatory is true for conformance="mandatory", false for
	// conformance="optional".
	Mandatory bool

	// Manual is true for manual="true": a person must observe the
	// outcome (the machine does not end in pass or fail).
	Manual bool

	// Section is the number of the specification's section the test's
	// assertion is about ("3.13"), as the manifest numbers them; see the
	// package documentation for the renumbered appendices.
	Section string

	// SpecID is the anchor of that section in the specification
	// ("#transition").
	SpecID string

	// Assertion is the text of the assertion the test checks, its white
	// space collapsed.
	Assertion string

	// Files are the base names of the test's documents, the manifest's
	// <start uri="144/test144.txml"/> without the folder (the suite's
	// files are in one folder, txml/): one for every test but 403, which
	// has three (test403a.txml, test403b.txml, test403c.txml).
	Files []string

	// Deps are the base names of the files the test's documents load
	// (<dep uri="..."/>), such as test276sub1.txml; nil for most tests.
	Deps []string

	// Line is the line of the test's <test> element in the manifest.
	Line int
}

// Tests returns the tests that manifest (the suite's manifest.xml) lists,
// in its order (by section, not by number). It returns a
// [diag.List] for malformed XML, a root element other than
// <assertions>, and for a test whose id is not a number, whose
// conformance is not "mandatory" or "optional", whose manual is not
// "true" or "false", that has no <start>, or whose id another test has
// already; it returns the tests it could read with it. Elements and
// attributes it does not know are ignored.
func Tests(manifest []byte) ([]Test, error) {
	r := manifestReader{lines: source.NewLines(string(manifest)), seen: map[int]int{}}
	dec := xml.NewDecoder(bytes.NewReader(manifest))
	var open []string // the names of the open elements
	for {
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		line, _ := r.lines.Pos(off)
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "xml: ")
			if se := (*xml.SyntaxError)(nil); errors.As(err, &se) {
				line, msg = se.Line, se.Msg
			}
			r.fail(line, "malformed XML: %s", msg)
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			open = append(open, t.Name.Local)
			if len(open) == 1 && t.Name.Local != "assertions" {
				r.fail(line, "the root element is <%s>, not <assertions>", source.Shorten(t.Name.Local, source.MaxQuoted))
				return nil, r.diags
			}
			r.start(open, t, line)
		case xml.EndElement:
			if len(open) == 2 && open[1] == "assert" {
				r.endAssert()
			}
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) == 2 && open[1] == "assert" {
				r.text = append(r.text, t...)
			}
		}
	}
	if len(r.diags) > 0 {
		return r.tests, r.diags
	}
	return r.tests, nil
}

// manifestReader holds the state of one Tests.
type manifestReader struct {
	lines source.Lines
	tests []Test
	diags diag.List
	seen  map[int]int // test id → line

	// The <assert> being read: its attributes, its text, and its tests,
	// which take its text when it ends.
	section, specID string
	text            []byte
	pending         []Test
	inTest          bool // the last of pending is the <test> being read
}

func (r *manifestReader) fail(line int, format string, args ...any) {
	r.diags = append(r.diags, diag.Diagnostic{Pos: diag.Pos{Line: line}, Message: "w3c: manifest: " + fmt.Sprintf(format, args...)})
}

// start reads the start tag t at line, the last of open.
func (r *manifestReader) start(open []string, t xml.StartElement, line int) {
	switch {
	case len(open) == 2 && open[1] == "assert":
		r.section, r.specID, r.text, r.pending = attr(t, "specnum"), attr(t, "specid"), r.text[:0], r.pending[:0]
	case len(open) == 3 && open[1] == "assert" && open[2] == "test":
		r.test(t, line)
	case len(open) == 4 && open[1] == "assert" && open[2] == "test" && r.inTest:
		u := &r.pending[len(r.pending)-1]
		switch open[3] {
		case "start":
			u.Files = append(u.Files, path.Base(attr(t, "uri")))
		case "dep":
			u.Deps = append(u.Deps, path.Base(attr(t, "uri")))
		}
	}
}

// test starts the test of the <test> element t at line.
func (r *manifestReader) test(t xml.StartElement, line int) {
	r.inTest = false
	id, err := strconv.Atoi(attr(t, "id"))
	if err != nil || id < 0 {
		r.fail(line, "test id %s is not a number", source.Quote(attr(t, "id")))
		return
	}
	if prev, ok := r.seen[id]; ok {
		r.fail(line, "test %d is listed twice (line %d)", id, prev)
		return
	}
	r.seen[id] = line
	u := Test{ID: id, Section: r.section, SpecID: r.specID, Line: line}
	switch c := attr(t, "conformance"); c {
	case "mandatory":
		u.Mandatory = true
	case "optional":
	default:
		r.fail(line, "test %d: conformance is %s, not \"mandatory\" or \"optional\"", id, source.Quote(c))
	}
	switch m := attr(t, "manual"); m {
	case "true":
		u.Manual = true
	case "false":
	default:
		r.fail(line, "test %d: manual is %s, not \"true\" or \"false\"", id, source.Quote(m))
	}
	r.pending = append(r.pending, u)
	r.inTest = true
}

// endAssert adds the tests of the <assert> that ends to the list.
func (r *manifestReader) endAssert() {
	text := strings.Join(strings.Fields(string(r.text)), " ")
	for _, u := range r.pending {
		if len(u.Files) == 0 {
			r.fail(u.Line, "test %d has no <start uri=...>", u.ID)
		}
		u.Assertion = text
		r.tests = append(r.tests, u)
	}
	r.pending, r.inTest = r.pending[:0], false
}

// attr returns the value of t's attribute local of no namespace, or "".
func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
