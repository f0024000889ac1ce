package w3c

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
)

func TestTestsManifest(t *testing.T) {
	manifest, err := os.ReadFile(filepath.Join("testdata", "manifest.xml"))
	if err != nil {
		t.Fatal(err)
	}
	tests, err := Tests(manifest)
	if err != nil {
		t.Fatalf("Tests(manifest.xml) = %v", err)
	}
	if len(tests) != 231 {
		t.Errorf("Tests(manifest.xml) = %d tests, want 231", len(tests))
	}
	byID := map[int]Test{}
	mandatory, manual := 0, 0
	for _, u := range tests {
		byID[u.ID] = u
		if u.Mandatory {
			mandatory++
		}
		if u.Manual {
			manual++
		}
	}
	if mandatory != 167 || manual != 9 {
		t.Errorf("Tests(manifest.xml) = %d mandatory, %d manual; want 167, 9", mandatory, manual)
	}
	for _, n := range NoDataModel {
		u, ok := byID[n]
		if !ok {
			t.Errorf("Tests(manifest.xml) has no test %d", n)
			continue
		}
		file := fmt.Sprintf("test%d.txml", n)
		if !u.Mandatory || u.Manual != (n == 415) || !slices.Equal(u.Files, []string{file}) || u.Deps != nil {
			t.Errorf("test %d = %+v, want mandatory, manual only for 415, Files [%s], no Deps", n, u, file)
		}
		if _, err := os.Stat(filepath.Join("testdata", "txml", file)); err != nil {
			t.Errorf("test %d: %v", n, err)
		}
	}
	want := Test{
		ID: 355, Mandatory: true, Section: "3.2", SpecID: "#scxml",
		Assertion: "At system initialization time, if the 'initial' attribute is not present, the Processor MUST enter the first state in document order.",
		Files:     []string{"test355.txml"}, Line: 8,
	}
	if got := byID[355]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("test 355 = %+v\nwant %+v", got, want)
	}
	if got := byID[403].Files; !slices.Equal(got, []string{"test403a.txml", "test403b.txml", "test403c.txml"}) {
		t.Errorf("test 403 Files = %q", got)
	}
	if got := byID[276].Deps; !slices.Equal(got, []string{"test276sub1.txml"}) {
		t.Errorf("test 276 Deps = %q", got)
	}
}

func TestTestsErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int // tests read
	}{
		{"root", `<manifest/>`, `1: w3c: manifest: the root element is <manifest>, not <assertions>`, 0},
		{"malformed", "<assertions>\n<assert>", `2: w3c: manifest: malformed XML: unexpected EOF`, 0},
		{"id", "<assertions>\n<assert><test id=\"x\" conformance=\"mandatory\" manual=\"false\"><start uri=\"a/b\"/></test></assert></assertions>",
			`2: w3c: manifest: test id "x" is not a number`, 0},
		{"conformance", "<assertions><assert>\n<test id=\"1\" conformance=\"maybe\" manual=\"false\"><start uri=\"a/b\"/></test></assert></assertions>",
			`2: w3c: manifest: test 1: conformance is "maybe", not "mandatory" or "optional"`, 1},
		{"manual", "<assertions><assert>\n<test id=\"1\" conformance=\"optional\" manual=\"no\"><start uri=\"a/b\"/></test></assert></assertions>",
			`2: w3c: manifest: test 1: manual is "no", not "true" or "false"`, 1},
		{"no start", "<assertions><assert>\n<test id=\"1\" conformance=\"optional\" manual=\"false\"/></assert></assertions>",
			`2: w3c: manifest: test 1 has no <start uri=...>`, 1},
		{"twice", "<assertions>\n<assert><test id=\"1\" conformance=\"optional\" manual=\"false\"><start uri=\"a\"/></test></assert>\n" +
			"<assert><test id=\"1\" conformance=\"optional\" manual=\"false\"><start uri=\"b\"/></test></assert></assertions>",
			`3: w3c: manifest: test 1 is listed twice (line 2)`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Tests([]byte(tt.in))
			var diags diag.List
			if !errors.As(err, &diags) {
				t.Fatalf("Tests(%q) error = %v, want diag.List", tt.in, err)
			}
			if diags[0].Error() != tt.want {
				t.Errorf("Tests(%q) error = %s, want %s", tt.in, diags[0].Error(), tt.want)
			}
			if len(got) != tt.n {
				t.Errorf("Tests(%q) = %d tests, want %d", tt.in, len(got), tt.n)
			}
			for _, u := range got {
				if slices.ContainsFunc(u.Files, func(f string) bool { return strings.Contains(f, "/") }) {
					t.Errorf("Tests(%q) Files = %q, want base names", tt.in, u.Files)
				}
			}
		})
	}
}

func FuzzTests(f *testing.F) {
	manifest, err := os.ReadFile(filepath.Join("testdata", "manifest.xml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(manifest[:4000])
	f.Add([]byte(`<assertions><assert><test id="1"><start uri="x"/></test></assert></assertions>`))
	f.Fuzz(func(t *testing.T, in []byte) {
		tests, err := Tests(in)
		if err != nil {
			_ = err.Error()
		}
		for _, u := range tests {
			if u.Line < 1 {
				t.Fatalf("test %d at line %d", u.ID, u.Line)
			}
		}
	})
}
