package charttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// CheckChart checks what an importer's Read (or ReadFile, or Interpret)
// returned, c and err, against what every importer promises:
//
//   - a nil chart comes with an error; an error is a [diag.List]
//     holding errors, and it is there exactly when the chart's
//     diagnostics hold errors;
//   - States and Transitions are not nil; state and transition IDs are not
//     empty and unique among both; a state's Parent, when it has one, is
//     a normal or parallel state of the chart, and no state is inside
//     itself; boxes are finite (not all importers refuse a negative width
//     or height);
//   - a transition leaves a state of the chart or, with AnyState, none;
//     its Target names a state of the chart when its kind is ToState
//     (unless an error of [chart.Flatten] left it pointing at a compound
//     state) and no state otherwise; its further targets (Also) are
//     states of the chart; its Order counts from 1;
//   - every diagnostic has a valid severity and renders, its message
//     prefixed by the package that found it ("drawio: ...").
//
// It reports what is wrong with tb.Errorf, and stops at the first problem
// of the read's error, before looking at the chart.
func CheckChart(tb testing.TB, c *chart.Chart, err error) {
	tb.Helper()
	if err != nil {
		var l diag.List
		if !errors.As(err, &l) || len(l) == 0 || !l.HasErrors() || err.Error() == "" {
			tb.Errorf("error %T %q is not a list of errors", err, err)
			return
		}
		for _, d := range l {
			if d.Error() == "" || d.Message == "" {
				tb.Errorf("diagnostic %#v of the error renders empty", d)
				return
			}
		}
	}
	if c == nil {
		if err == nil {
			tb.Errorf("chart nil without an error")
		}
		return
	}
	if (err != nil) != c.Diagnostics.HasErrors() {
		tb.Errorf("error %v, chart diagnostics %v", err, c.Diagnostics)
	}
	if c.States == nil || c.Transitions == nil {
		tb.Errorf("chart with nil States or Transitions")
	}
	nesting := false
	for _, d := range c.Diagnostics {
		if d.Error() == "" || d.Message == "" || !prefixed(d.Message) {
			tb.Errorf("diagnostic %#v renders as %q", d, d.Error())
		}
		if d.Severity > diag.Note {
			tb.Errorf("diagnostic %#v has an invalid severity", d)
		}
		if d.Severity == diag.Error && errors.Is(d.Err, chart.ErrNesting) {
			nesting = true
		}
	}
	if err := c.Diagnostics.Err(); err != nil {
		var l diag.List
		if err.Error() == "" || !errors.As(err, &l) {
			tb.Errorf("Diagnostics.Err() = %T %q", err, err)
		}
	}
	ids := map[string]bool{}
	for _, s := range c.States {
		if s.ID == "" || ids[s.ID] {
			tb.Errorf("state ID %q empty or repeated", s.ID)
		}
		ids[s.ID] = true
		if b := s.Box; b != nil && !finite(b.X, b.Y, b.W, b.H) {
			tb.Errorf("state %s: Box %+v", s.ID, *b)
		}
	}
	checkNesting(tb, c)
	seen := map[string]bool{}
	for _, tr := range c.Transitions {
		if tr.ID == "" || seen[tr.ID] || ids[tr.ID] {
			tb.Errorf("transition ID %q empty or repeated", tr.ID)
		}
		seen[tr.ID] = true
		if tr.AnyState != (tr.From == "") || tr.From != "" && !ids[tr.From] {
			tb.Errorf("transition %s: From %q, AnyState %v", tr.ID, tr.From, tr.AnyState)
		}
		if tr.Target.Kind == chart.ToState && !ids[tr.Target.State] && !nesting ||
			tr.Target.Kind == chart.ToState && tr.Target.State == "" ||
			tr.Target.Kind != chart.ToState && tr.Target.State != "" {
			tb.Errorf("transition %s: Target %+v", tr.ID, tr.Target)
		}
		if tr.Order < 1 {
			tb.Errorf("transition %s: Order %d", tr.ID, tr.Order)
		}
	}
}

// checkNesting checks that each Parent is a normal or parallel state of
// the chart that does not nest inside itself, and that a transition's
// further targets (Also) are states of the chart, with a target that is a
// state.
func checkNesting(tb testing.TB, c *chart.Chart) {
	tb.Helper()
	byID := make(map[string]*chart.State, len(c.States))
	for i := range c.States {
		if _, dup := byID[c.States[i].ID]; !dup {
			byID[c.States[i].ID] = &c.States[i]
		}
	}
	for _, s := range c.States {
		for n, p := 0, s.Parent; p != ""; n++ {
			q, ok := byID[p]
			switch {
			case !ok:
				tb.Errorf("state %s: Parent %q is not a state", s.ID, p)
			case q.Kind != chart.NormalState && q.Kind != chart.ParallelState:
				tb.Errorf("state %s: Parent %q is a %s state", s.ID, p, q.Kind)
			case q.ID == s.ID || n > len(c.States):
				tb.Errorf("state %s is inside itself", s.ID)
			}
			if !ok || q.ID == s.ID || n > len(c.States) {
				break
			}
			p = q.Parent
		}
	}
	for _, t := range c.Transitions {
		if len(t.Also) > 0 && t.Target.Kind != chart.ToState {
			tb.Errorf("transition %s: Also %q with target %s", t.ID, t.Also, t.Target)
		}
		for _, id := range t.Also {
			if byID[id] == nil {
				tb.Errorf("transition %s: Also %q is not a state", t.ID, id)
			}
		}
	}
}

// prefixed reports whether msg starts with a lower-case package name and
// ": ".
func prefixed(msg string) bool {
	for i := 0; i < len(msg); i++ {
		switch c := msg[i]; {
		case c >= 'a' && c <= 'z':
		case c == ':' && i > 0:
			return i+1 < len(msg) && msg[i+1] == ' '
		default:
			return false
		}
	}
	return false
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// Golden compares c, marshalled to indented JSON, with the golden file
// (see [GoldenBytes]), and checks that the golden file reads back as a
// chart.
func Golden(tb testing.TB, c *chart.Chart, golden string, update bool) {
	tb.Helper()
	got, err := json.MarshalIndent(c, "", "\t")
	if err != nil {
		tb.Fatal(err)
	}
	GoldenBytes(tb, append(got, '\n'), golden, update)
	want, err := os.ReadFile(golden)
	if err != nil {
		return // GoldenBytes said so
	}
	var back chart.Chart
	if err := json.Unmarshal(want, &back); err != nil {
		tb.Errorf("json.Unmarshal(%s) = %v", golden, err)
	}
}

// GoldenBytes compares got with the golden file (a path relative to the
// test's directory); with update, it writes the file first. The packages
// define their own -update flag (a flag defined twice panics), and pass
// it.
func GoldenBytes(tb testing.TB, got []byte, golden string, update bool) {
	tb.Helper()
	if update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		tb.Fatalf("%v (run go test -run Golden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("output differs from %s (run go test -run Golden -update and review the diff):\n%s", golden, got)
	}
}

// AddFiles adds the files that match the patterns (relative to the test's
// directory; see [filepath.Glob]) to the fuzzer's corpus: a pattern that
// matches nothing, such as a folder that is absent, adds nothing.
func AddFiles(f *testing.F, patterns ...string) {
	f.Helper()
	for _, pattern := range patterns {
		files, _ := filepath.Glob(pattern) // the only error is a bad pattern, which matches nothing
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) > MaxSeed {
				continue // the package's tests read it; as a seed it would stall the fuzzer
			}
			f.Add(data)
		}
	}
}

// MaxSeed is the largest file AddFiles adds to a corpus: the fuzzer
// minimizes each new input it finds by removing ranges of its bytes, which
// costs the square of its size in reads, and the mutations of a larger
// seed keep it minimizing for most of a run.
const MaxSeed = 16 << 10

// ShortMinimize bounds the time the fuzzer spends minimizing an input to
// two seconds, unless -fuzzminimizetime is given: with its default, a
// minute, the mutations of drawings of a few KB kept both workers of a
// two-core machine minimizing for most of a run. Call it from TestMain,
// before m.Run.
func ShortMinimize() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		flag.Set("test.fuzzminimizetime", "2s")
	}
}
