package w3c

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files testdata/scxml/*.scxml and testdata/FEATURES.md")

// fixtures is the folder of the shared copy of uscxml's test/w3c, which
// the files in testdata were copied from.
const fixtures = "../../../shared/fixtures/scxml-irp"

func txmlFile(n int) string { return filepath.Join("testdata", "txml", fmt.Sprintf("test%d.txml", n)) }
func scxmlFile(n int) string {
	return filepath.Join("testdata", "scxml", fmt.Sprintf("test%d.scxml", n))
}

// TestConvertGolden converts the tests of NoDataModel and compares the
// output with testdata/scxml.
func TestConvertGolden(t *testing.T) {
	for _, n := range NoDataModel {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			in, err := os.ReadFile(txmlFile(n))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Convert(in)
			if err != nil {
				t.Fatalf("Convert(%s) = %v", txmlFile(n), err)
			}
			if bytes.Contains(got, []byte("conf:")) || bytes.Contains(got, []byte(ConfNamespace)) {
				t.Errorf("Convert(%s) leaves the conformance namespace:\n%s", txmlFile(n), got)
			}
			if *update {
				if err := os.WriteFile(scxmlFile(n), got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(scxmlFile(n))
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Convert(%s) =\n%s\nwant (%s)\n%s", txmlFile(n), got, scxmlFile(n), want)
			}
		})
	}
}

// TestConvertKeepsLayout checks that Convert changes only the
// lines of placeholders and namespace declarations: the others are the
// same, and so is the number of lines.
func TestConvertKeepsLayout(t *testing.T) {
	for _, n := range NoDataModel {
		in, err := os.ReadFile(txmlFile(n))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Convert(in)
		if err != nil {
			t.Fatalf("Convert(%s) = %v", txmlFile(n), err)
		}
		inLines, outLines := strings.Split(string(in), "\n"), strings.Split(string(out), "\n")
		if len(inLines) != len(outLines) {
			t.Errorf("Convert(%s) has %d lines, want %d", txmlFile(n), len(outLines), len(inLines))
			continue
		}
		for i := range inLines {
			if inLines[i] != outLines[i] && !strings.Contains(inLines[i], "conf") {
				t.Errorf("Convert(%s) line %d = %q, want %q (it has no placeholder)", txmlFile(n), i+1, outLines[i], inLines[i])
			}
		}
	}
}

// TestConvertNull436 checks that uscxml's converted test436.scxml comes
// back as it is but for its declaration of the conformance namespace.
func TestConvertNull436(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "null", "test436.scxml"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Convert(in)
	if err != nil {
		t.Fatalf("Convert(null/test436.scxml) = %v", err)
	}
	want := strings.Replace(string(in), ` xmlns:conf="`+ConfNamespace+`"`, "", 1)
	if string(got) != want {
		t.Errorf("Convert(null/test436.scxml) =\n%s\nwant\n%s", got, want)
	}
}

// TestConvert checks each conversion, on documents written for it.
func TestConvert(t *testing.T) {
	const head = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance" version="1.0">`
	const plain = `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">`
	tests := []struct {
		name, in, want string
	}{
		{"pass and fail", head + "\n<conf:pass/>\n<conf:fail></conf:fail>\n</scxml>",
			plain + "\n<final id=\"pass\"/>\n<final id=\"fail\"/>\n</scxml>"},
		{"pass with a comment", head + "<conf:pass> <!-- x --> </conf:pass></scxml>",
			plain + `<final id="pass"/></scxml>`},
		{"targets", head + `<state id="s"><transition conf:targetpass=""/><transition event="e" conf:targetfail='' /></state></scxml>`,
			plain + `<state id="s"><transition target="pass"/><transition event="e" target="fail" /></state></scxml>`},
		{"datamodel", `<scxml conf:datamodel="" version="1.0" xmlns="http://www.w3.org/2005/07/scxml"` + "\n" + `  xmlns:conf="http://www.w3.org/2005/scxml-conformance"/>`,
			`<scxml datamodel="null" version="1.0" xmlns="http://www.w3.org/2005/07/scxml"` + "\n/>"},
		{"delay", head + `<state id="s"><onentry><send event="a" conf:delay="1"/><send event="b" conf:delay = "1.5"/></onentry></state></scxml>`,
			plain + `<state id="s"><onentry><send event="a" delay="1s"/><send event="b" delay="1.5s"/></onentry></state></scxml>`},
		{"inState", head + `<state id="s"><transition conf:inState='s' target="s"/><onentry><if conf:inState="a.b-c_d"/></onentry></state></scxml>`,
			plain + `<state id="s"><transition cond="In('s')" target="s"/><onentry><if cond="In('a.b-c_d')"/></onentry></state></scxml>`},
		{"true and false", head + `<state id="s"><transition conf:true="" target="s"/><transition conf:false="" target="s"/></state></scxml>`,
			plain + `<state id="s"><transition cond="true" target="s"/><transition cond="false" target="s"/></state></scxml>`},
		{"another prefix", `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:t="http://www.w3.org/2005/scxml-conformance"><state id="s"><transition t:targetpass=""/></state><t:pass/></scxml>`,
			`<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="s"><transition target="pass"/></state><final id="pass"/></scxml>`},
		{"prefixed scxml", `<?xml version="1.0"?>` + "\n<!-- c -->\n" + `<s:scxml xmlns:s="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance"><s:state id="a" conf:targetpass=""/></s:scxml>` + "\n",
			`<?xml version="1.0"?>` + "\n<!-- c -->\n" + `<s:scxml xmlns:s="http://www.w3.org/2005/07/scxml"><s:state id="a" target="pass"/></s:scxml>` + "\n"},
		{"declared twice", head + `<state id="s" xmlns:conf="http://www.w3.org/2005/scxml-conformance"/></scxml>`,
			plain + `<state id="s"/></scxml>`},
		{"no placeholders", plain + "\r\n<state id=\"s\"/>\r\n</scxml>\r\n",
			plain + "\r\n<state id=\"s\"/>\r\n</scxml>\r\n"},
		{"byte-order mark", "\uFEFF" + head + "<conf:pass/></scxml>",
			"\uFEFF" + plain + `<final id="pass"/></scxml>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Convert([]byte(tt.in))
			if err != nil {
				t.Fatalf("Convert(%q) = %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Errorf("Convert(%q) =\n%s\nwant\n%s", tt.in, got, tt.want)
			}
		})
	}
}

// TestConvertErrors checks Convert's diagnostics: the first one's text,
// and how many there are.
func TestConvertErrors(t *testing.T) {
	const head = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance" version="1.0">`
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"data model attribute", head + "\n<state id=\"s\">\n  <transition conf:idVal=\"1=1\" conf:targetpass=\"\"/></state></scxml>",
			`3:15: w3c: conf:idVal="1=1" on <transition> needs a data model`, 1},
		{"data model element", head + "\n<state id=\"s\"><onentry>\n<conf:incrementID id=\"1\"/><conf:script/>\n</onentry></state></scxml>",
			`3:1: w3c: <conf:incrementID> needs a data model`, 2},
		{"bad delay", head + `<state id="s"><onentry><send conf:delay="soon"/></onentry></state></scxml>`,
			`1:145: w3c: conf:delay="soon" on <send> is not a number of seconds`, 1},
		{"empty delay", head + `<state id="s"><onentry><send conf:delay=""/></onentry></state></scxml>`,
			`1:145: w3c: conf:delay="" on <send> is not a number of seconds`, 1},
		{"bad inState", head + `<state id="s"><transition conf:inState="a'b"/></state></scxml>`,
			`1:142: w3c: conf:inState="a'b" on <transition> is not a state's id`, 1},
		{"target twice", head + `<state id="s"><transition target="s" conf:targetpass=""/></state></scxml>`,
			`1:153: w3c: conf:targetpass on <transition> writes target, which the element has already (line 1)`, 1},
		{"two placeholders", head + `<state id="s"><transition conf:targetfail="" conf:targetpass=""/></state></scxml>`,
			`1:161: w3c: conf:targetpass on <transition> writes target, which conf:targetfail writes already`, 1},
		{"datamodel twice", `<scxml datamodel="null" conf:datamodel="" xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance"/>`,
			`1:25: w3c: conf:datamodel on <scxml> writes datamodel, which the element has already (line 1)`, 1},
		{"undeclared prefix", `<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="s"><transition conf:targetpass=""/></state><conf:pass/></scxml>`,
			`1:74: w3c: the prefix conf of conf:targetpass is not declared`, 2},
		{"pass with content", head + `<conf:pass><state id="x"/>text</conf:pass></scxml>`,
			`1:127: w3c: <conf:pass> holds an element; it must be empty`, 2},
		{"pass with an attribute", head + `<conf:pass id="x"/></scxml>`,
			`1:116: w3c: <conf:pass> has an attribute id; it takes none`, 1},
		{"pass outside SCXML", `<s:scxml xmlns:s="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance"><conf:pass/></s:scxml>`,
			`1:106: w3c: <conf:pass> is where the default namespace is not SCXML's: <final> would not be an SCXML element`, 1},
		{"root", `<conf:pass xmlns:conf="http://www.w3.org/2005/scxml-conformance"/>`,
			`1:1: w3c: the root element is <conf:pass>, not <scxml> of namespace http://www.w3.org/2005/07/scxml`, 2},
		{"root namespace", `<scxml/>`,
			`1:1: w3c: the root element is <scxml>, not <scxml> of namespace http://www.w3.org/2005/07/scxml`, 1},
		{"two roots", `<scxml xmlns="http://www.w3.org/2005/07/scxml"/><scxml xmlns="http://www.w3.org/2005/07/scxml"/>`,
			`1:49: w3c: a second root element, <scxml>`, 1},
		{"text outside", `<scxml xmlns="http://www.w3.org/2005/07/scxml"/>` + "\n oops",
			`2:2: w3c: text "oops" outside the root element`, 1},
		{"malformed", head + "\n<state>\n</scxml>",
			`3: w3c: malformed XML: element <state> closed by </scxml>`, 1},
		{"unclosed pass", head + "<conf:pass>",
			`1: w3c: malformed XML: unexpected EOF`, 1},
		{"empty", ``, `1:1: w3c: the document has no root element`, 1},
		{"not UTF-8", "<scxml>\xff</scxml>", `1:8: w3c: the document is not UTF-8 (byte 0xFF)`, 1},
		{"encoding", `<?xml version="1.0" encoding="ISO-8859-1"?><scxml/>`,
			`1:1: w3c: malformed XML: encoding "ISO-8859-1" declared but Decoder.CharsetReader is nil`, 1},
		{"too many", head + strings.Repeat(`<conf:script/>`, 150) + `</scxml>`,
			`1:116: w3c: <conf:script> needs a data model`, maxErrors + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Convert([]byte(tt.in))
			if err == nil {
				t.Fatalf("Convert(%q) = %q, nil; want an error", tt.in, out)
			}
			if out != nil {
				t.Errorf("Convert(%q) = %q with an error; want nil", tt.in, out)
			}
			var diags diag.List
			if !errors.As(err, &diags) {
				t.Fatalf("Convert(%q) error %T, want diag.List", tt.in, err)
			}
			if got := diags[0].Error(); got != tt.want {
				t.Errorf("Convert(%q) first error\n%s\nwant\n%s", tt.in, got, tt.want)
			}
			if len(diags) != tt.n {
				t.Errorf("Convert(%q) = %d errors, want %d:\n%v", tt.in, len(diags), tt.n, diags)
			}
		})
	}
}

// TestConvertFixtures converts every test of the shared fixtures: those
// of NoDataModel must convert, the others may be refused, but only for
// placeholders, with positions. It is skipped when the fixtures are not
// there.
func TestConvertFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtures, "txml", "*.txml"))
	if err != nil || len(files) == 0 {
		t.Skipf("no fixtures in %s (%v): the suite's copy in testdata is checked by TestConvertGolden", fixtures, err)
	}
	need := map[string]bool{}
	for _, n := range NoDataModel {
		need[fmt.Sprintf("test%d.txml", n)] = true
	}
	converted, others := 0, []string(nil)
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Convert(in)
		if err == nil {
			converted++
			if !need[filepath.Base(f)] {
				others = append(others, filepath.Base(f))
			}
			continue
		}
		if need[filepath.Base(f)] {
			t.Errorf("Convert(%s) = %v", f, err)
		}
		var diags diag.List
		if !errors.As(err, &diags) {
			t.Fatalf("Convert(%s) error %T, want diag.List", f, err)
		}
		for _, d := range diags {
			if d.Pos.Line == 0 || !strings.HasPrefix(d.Message, "w3c: ") {
				t.Errorf("Convert(%s): %v: no line, or no prefix", f, d)
			}
		}
	}
	// Those others have no placeholder that needs a data model, but most
	// write one's expressions directly (ECMAScript, XPath), or invoke.
	t.Logf("%d of %d .txml files convert; besides those of NoDataModel: %s", converted, len(files), strings.Join(others, " "))
}

// TestCopies checks that testdata holds the fixtures' files byte for byte.
// It is skipped when the fixtures are not there.
func TestCopies(t *testing.T) {
	if _, err := os.Stat(filepath.Join(fixtures, "txml")); err != nil {
		t.Skipf("no fixtures to compare the copies with: %v", err)
	}
	names := []string{"manifest.xml", filepath.Join("null", "test436.scxml")}
	for _, n := range NoDataModel {
		names = append(names, filepath.Join("txml", fmt.Sprintf("test%d.txml", n)))
	}
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/%s differs from %s", name, filepath.Join(fixtures, name))
		}
	}
	copies, err := filepath.Glob(filepath.Join("testdata", "txml", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(copies) != len(NoDataModel) {
		t.Errorf("testdata/txml holds %d files, want the %d of NoDataModel", len(copies), len(NoDataModel))
	}
}

func FuzzConvert(f *testing.F) {
	for _, n := range NoDataModel {
		in, err := os.ReadFile(txmlFile(n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(in)
	}
	for _, s := range []string{
		``, `<scxml/>`, `<conf:pass/>`,
		`<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:conf="http://www.w3.org/2005/scxml-conformance"><conf:pass><x/></conf:pass><state conf:idVal="1" conf:delay="x"/></scxml>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Convert(in)
		if err != nil {
			if out != nil {
				t.Fatalf("Convert = %q with error %v", out, err)
			}
			var diags diag.List
			if !errors.As(err, &diags) {
				t.Fatalf("Convert error %T, want diag.List", err)
			}
			for _, d := range diags {
				if !strings.HasPrefix(d.Message, "w3c: ") {
					t.Fatalf("Convert error %q has no prefix", d.Message)
				}
			}
			_ = err.Error()
			return
		}
		// The output converts to itself: nothing is left to convert.
		again, err := Convert(out)
		if err != nil {
			t.Fatalf("Convert(Convert(in)) = %v\nin:  %q\nout: %q", err, in, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("Convert(Convert(in)) = %q, want %q", again, out)
		}
	})
}
