package scxml_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// fixtures are the real SCXML files of testdata (see testdata/README.md):
// their states and transitions, read leniently, the initial state at the
// top level, and the first error of the strict reading, which names the
// first element a chart cannot express ("" when there is none).
var fixtures = []struct {
	file                string
	states, transitions int
	initial             string
	strictFirst         string // the strict reading's Error(), or ""
}{
	{"qt_trafficlight.scxml", 9, 8, "working", ""},
	{"qt_calculator.scxml", 16, 33, "wrapper",
		`qt_calculator.scxml:4:5: scxml: <datamodel>: a chart has no data model or scripts; left out (and 28 more)`},
	{"commons_scxml_microwave01_jexl.xml", 5, 8, "off",
		`commons_scxml_microwave01_jexl.xml:43:9: shape on: scxml: <cs:var> in <if> of state "on": executable content cannot be expressed in a chart; left out (and 5 more)`},
	{"zhornyak_stopwatch_bom.scxml", 6, 8, "#initial", // the root's initial attribute names a state inside another
		`zhornyak_stopwatch_bom.scxml:3:2: scxml: <datamodel>: a chart has no data model or scripts; left out (and 9 more)`},
	{"zhornyak_skoda_bolero_infotainment.scxml", 203, 242, "start",
		`zhornyak_skoda_bolero_infotainment.scxml:6:2: scxml: <datamodel>: a chart has no data model or scripts; left out (and 100 more)`},
}

// TestFixtures reads every real SCXML file: strictly, each fails with an
// error naming the first element a chart cannot express, or reads without
// one; leniently, each gives its states and transitions without errors,
// with warnings for what was left out; with the goomba stencil, each
// fails for its tests. None panics.
func TestFixtures(t *testing.T) {
	st := charttest.Stencil(t)
	for _, f := range fixtures {
		t.Run(f.file, func(t *testing.T) {
			path := filepath.Join("testdata", f.file)
			c, err := scxml.ReadFile(path, scxml.Options{File: f.file})
			if f.strictFirst == "" && err != nil || f.strictFirst != "" && (err == nil || err.Error() != f.strictFirst || !errors.Is(err, scxml.ErrUnsupported)) {
				t.Errorf("ReadFile strictly = %v, want the error %q", err, f.strictFirst)
			}
			charttest.CheckChart(t, c, err)

			c, err = scxml.ReadFile(path, scxml.Options{File: f.file, Lenient: true})
			if c == nil {
				t.Fatalf("ReadFile leniently = nil, %v", err)
			}
			charttest.CheckChart(t, c, err)
			if len(c.States) != f.states || len(c.Transitions) != f.transitions {
				t.Errorf("ReadFile leniently = %d states, %d transitions, want %d, %d", len(c.States), len(c.Transitions), f.states, f.transitions)
			}
			var initial []string
			for _, s := range c.States {
				if s.Initial && s.Parent == "" {
					initial = append(initial, s.ID)
				}
			}
			if len(initial) != 1 || initial[0] != f.initial {
				t.Errorf("initial states at the top level %v, want %s", initial, f.initial)
			}
			if errs := c.Diagnostics.Errors(); len(errs) > 0 {
				t.Errorf("ReadFile leniently: errors %v", errs)
			}
			if f.strictFirst != "" && len(c.Diagnostics.Warnings()) == 0 {
				t.Error("ReadFile leniently: no warnings for what it left out")
			}

			c, err = scxml.ReadFile(path, scxml.Options{File: f.file, Stencil: st, Lenient: true})
			if c == nil || err == nil || !slices.ContainsFunc(c.Diagnostics.Errors(), func(d diag.Diagnostic) bool {
				return strings.Contains(d.Message, `is not in stencil "goomba"`)
			}) {
				t.Errorf("ReadFile with the goomba stencil = %v, want an error for an unknown test", err)
			}
			charttest.CheckChart(t, c, err)
		})
	}
}

// TestSharedFixtures reads the fixtures of ../../../shared/fixtures/scxml
// when that folder is there: each must read, or fail with an error that
// says why; none may panic.
func TestSharedFixtures(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/fixtures/scxml/*")
	if len(files) == 0 {
		t.Skip("no ../../../shared/fixtures/scxml")
	}
	for _, f := range files {
		for _, lenient := range []bool{false, true} {
			c, err := scxml.ReadFile(f, scxml.Options{Lenient: lenient})
			if c == nil && err == nil {
				t.Errorf("ReadFile(%s) = nil, nil", f)
			}
			if err != nil && err.Error() == "" {
				t.Errorf("ReadFile(%s): an empty error", f)
			}
			charttest.CheckChart(t, c, err)
		}
	}
}

// The testdata fixtures are copies of the shared ones, when those are
// there.
func TestFixturesAreCopies(t *testing.T) {
	for _, f := range fixtures {
		shared, err := os.ReadFile(filepath.Join("../../../shared/fixtures/scxml", f.file))
		if err != nil {
			t.Skip("no ../../../shared/fixtures/scxml")
		}
		own, err := os.ReadFile(filepath.Join("testdata", f.file))
		if err != nil || string(own) != string(shared) {
			t.Errorf("testdata/%s differs from the shared fixture (%v)", f.file, err)
		}
	}
}
