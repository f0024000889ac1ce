package scxml_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// fixtures are the real SCXML files of testdata (see testdata/README.md):
// their states and transitions after flattening, read leniently, and the
// first error of the strict reading, which names the first element a
// chart cannot express.
var fixtures = []struct {
	file                string
	states, transitions int
	initial             string
	strictFirst         string // the strict reading's Error()
	lenientErrors       int    // errors left when read leniently: parallel states
}{
	{"qt_trafficlight.scxml", 6, 12, "greenGoingRed",
		`qt_trafficlight.scxml:16:17: shape red: scxml: <send> in <onentry> of state "red": executable content cannot be expressed in a chart; left out (and 5 more)`, 0},
	{"qt_calculator.scxml", 11, 45, "begin",
		`qt_calculator.scxml:4:5: scxml: <datamodel>: a chart has no data model or scripts; left out (and 47 more)`, 0}, // DIGIT, OPER: SCXML matches events by prefix
	{"commons_scxml_microwave01_jexl.xml", 3, 9, "off",
		`commons_scxml_microwave01_jexl.xml:41:7: shape on: scxml: <if> in <onentry> of state "on": executable content cannot be expressed in a chart; left out (and 5 more)`, 0},
	{"zhornyak_stopwatch_bom.scxml", 3, 6, "ready",
		`zhornyak_stopwatch_bom.scxml:3:2: scxml: <datamodel>: a chart has no data model or scripts; left out (and 13 more)`, 0},
	{"zhornyak_skoda_bolero_infotainment.scxml", 122, 780, "off_Restore",
		`zhornyak_skoda_bolero_infotainment.scxml:6:2: scxml: <datamodel>: a chart has no data model or scripts; left out (and 230 more)`, 7}, // 10 event descriptors SCXML matches by prefix or wildcard
}

// TestFixtures reads every real SCXML file: strictly, each fails with an
// error naming the first element a chart cannot express; leniently, each
// gives its states and transitions, with warnings for what was left out
// (and errors only for parallel states); with the goomba stencil, each
// fails for its tests. None panics.
func TestFixtures(t *testing.T) {
	st := charttest.Stencil(t)
	for _, f := range fixtures {
		t.Run(f.file, func(t *testing.T) {
			path := filepath.Join("testdata", f.file)
			c, err := scxml.ReadFile(path, scxml.Options{File: f.file})
			if c == nil || err == nil || err.Error() != f.strictFirst || !errors.Is(err, scxml.ErrUnsupported) {
				t.Errorf("ReadFile strictly = %v, want the error %s", err, f.strictFirst)
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
				if s.Initial {
					initial = append(initial, s.ID)
				}
			}
			if len(initial) != 1 || initial[0] != f.initial {
				t.Errorf("initial states %v, want %s", initial, f.initial)
			}
			errs := c.Diagnostics.Errors()
			if len(errs) != f.lenientErrors {
				t.Errorf("ReadFile leniently: %d errors, want %d: %v", len(errs), f.lenientErrors, errs)
			}
			for _, d := range errs {
				if !strings.Contains(d.Message, "<parallel>") {
					t.Errorf("ReadFile leniently: error %s", d.Error())
				}
			}
			if len(c.Diagnostics.Warnings()) == 0 {
				t.Error("ReadFile leniently: no warnings for what it left out")
			}

			c, err = scxml.ReadFile(path, scxml.Options{File: f.file, Stencil: st, Lenient: true})
			if c == nil || err == nil || !slices.ContainsFunc(c.Diagnostics.Errors(), func(d chart.Diagnostic) bool {
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
