package drawio_test

import (
	"errors"
	"flag"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata and examples/goomba/goomba.drawio")

// fixture is what reading a file of testdata gives.
type fixture struct {
	states, transitions int
	kinds               map[chart.StateKind]int // when not nil, the states by kind
	err                 error                   // a sentinel the error wraps, for a file that cannot be read
	errText             string                  // in the error
}

var fixtures = map[string]fixture{
	// fsmforge's own: a guard, Patrol and Alert, which holds a deep
	// history, a final state and Combat, parallel, of two regions; an
	// edge that adds a target to a transition.
	"fsmforge_guard_nested.drawio": {states: 17, transitions: 17,
		kinds: map[chart.StateKind]int{chart.StartState: 4, chart.NormalState: 9, chart.EndState: 2, chart.DeepHistoryState: 1, chart.ParallelState: 1}},
	// fsmforge's own: statecharts drawn with the sentry stencil's
	// library (TestLibraryStatechart), read here without the stencil:
	// the start shapes are starts, but the states drawn with the
	// initial-state master are not initial, nor the parallel states
	// parallel. Patrol has no initial state.
	"fsmforge_sentry_library.drawio": {states: 15, transitions: 14,
		kinds:   map[chart.StateKind]int{chart.NormalState: 12, chart.StartState: 2, chart.HistoryState: 1},
		errText: `shape patrol "Patrol": drawio: state "Patrol" holds states but no initial state`},
	"fsmforge_sentry_awake.drawio": {states: 11, transitions: 10,
		kinds: map[chart.StateKind]int{chart.NormalState: 8, chart.StartState: 1, chart.HistoryState: 1, chart.DeepHistoryState: 1}},
	// 7 vertices (start, 5 states, end), 9 labelled edges.
	"convert2mermaid_state_diagram.drawio": {states: 7, transitions: 9,
		kinds: map[chart.StateKind]int{chart.StartState: 1, chart.NormalState: 5, chart.EndState: 1}},
	// A data-flow diagram in UTF-16: not a state machine, but it reads.
	"jgraph_drawio_utf16le_bom_dfd.xml": {states: 25, transitions: 35},
	// Page 1 only (the other three pages are sub-diagrams linked from its
	// states): 11 states, one of them a compound of 2; 19 transitions.
	"jgraph_uml_state_smart_lock.drawio": {states: 11, transitions: 19,
		kinds: map[chart.StateKind]int{chart.StartState: 1, chart.NormalState: 8, chart.ChoiceState: 1, chart.EndState: 1}},
	"startleft_negative_wrong_root_mxfilee.drawio": {err: drawio.ErrNotDrawio, errText: "its root element is <mxfilee>, not <mxfile> or <mxGraphModel>"},
	// ON_GROUP{ON1, ON2, ON3}, OFF, BOOM and the initial state: 7
	// states; 9 transitions, one of them ON_GROUP's.
	"statesmith_design1_compressed.drawio": {states: 7, transitions: 9,
		kinds: map[chart.StateKind]int{chart.StartState: 1, chart.NormalState: 6}},
	"statesmith_design1_uncompressed.drawio": {states: 7, transitions: 9,
		kinds: map[chart.StateKind]int{chart.StartState: 1, chart.NormalState: 6}},
	// An edge with no source: an error; the rest reads.
	"statesmith_negative_unterminated_edge.drawio": {states: 3, transitions: 2, errText: `shape ClSxLSJ55C_C8lVC4yGv-4 "EV1": drawio: the start of the edge is attached to no state`},
}

// TestFixtures reads every diagram of testdata (copies of
// ../shared/fixtures/drawio), without a stencil and with the goomba
// stencil, which none of them was made with.
func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	st := charttest.Stencil(t)
	n := 0
	for _, f := range files {
		base := filepath.Base(f)
		want, ok := fixtures[base]
		if !ok {
			continue
		}
		n++
		t.Run(base, func(t *testing.T) {
			c, err := drawio.ReadFile(f, drawio.Options{File: base})
			if want.err != nil {
				if c != nil || !errors.Is(err, want.err) || !strings.Contains(err.Error(), want.errText) {
					t.Fatalf("ReadFile = %v, %v, want nil and an error wrapping %v with %q", c, err, want.err, want.errText)
				}
				return
			}
			if c == nil {
				t.Fatalf("ReadFile = nil, %v", err)
			}
			if (err != nil) != (want.errText != "") || err != nil && !strings.Contains(err.Error(), want.errText) {
				t.Errorf("ReadFile error = %v, want %q", err, want.errText)
			}
			if len(c.States) != want.states || len(c.Transitions) != want.transitions {
				t.Errorf("ReadFile = %d states, %d transitions, want %d, %d", len(c.States), len(c.Transitions), want.states, want.transitions)
			}
			if want.kinds != nil {
				kinds := map[chart.StateKind]int{}
				for _, s := range c.States {
					kinds[s.Kind]++
				}
				if !maps.Equal(kinds, want.kinds) {
					t.Errorf("states by kind = %v, want %v", kinds, want.kinds)
				}
			}
			charttest.CheckChart(t, c, err)
			for _, d := range c.Diagnostics {
				if !strings.HasPrefix(d.Message, "drawio: ") && !strings.HasPrefix(d.Message, "chart: ") {
					t.Errorf("diagnostic %q is not prefixed by its package", d.Message)
				}
			}

			c, err = drawio.ReadFile(f, drawio.Options{File: base, Stencil: st})
			if err == nil || !strings.Contains(err.Error(), `the drawing was not made with stencil "goomba"`) || c == nil || len(c.States) != 0 {
				t.Errorf("ReadFile with the goomba stencil = %v, want an empty chart and an error: not made with stencil goomba", err)
			}
		})
	}
	if n != len(fixtures) {
		t.Errorf("read %d fixtures of testdata, want %d", n, len(fixtures))
	}
}

// TestSharedFixtures reads every file of ../shared/fixtures/drawio, where
// they come from: each imports, or fails with an error that says why.
func TestSharedFixtures(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/fixtures/drawio/*")
	if len(files) == 0 {
		t.Skip("no ../shared/fixtures/drawio")
	}
	for _, f := range files {
		c, err := drawio.ReadFile(f, drawio.Options{})
		want, ok := fixtures[filepath.Base(f)]
		switch {
		case !ok && err != nil:
			t.Errorf("ReadFile(%s) = %v (a new fixture?)", f, err)
		case !ok:
			t.Logf("ReadFile(%s) = %d states, %d transitions (a new fixture: add it to testdata)", f, len(c.States), len(c.Transitions))
		case err != nil && want.err == nil && want.errText == "":
			t.Errorf("ReadFile(%s) = %v", f, err)
		case c != nil && (len(c.States) != want.states || len(c.Transitions) != want.transitions):
			t.Errorf("ReadFile(%s) = %d states, %d transitions, want %d, %d", f, len(c.States), len(c.Transitions), want.states, want.transitions)
		}
	}
}

// TestStateSmithPair reads StateSmith's Design1 saved compressed and
// uncompressed: the same chart, positions aside.
func TestStateSmithPair(t *testing.T) {
	a, err := drawio.ReadFile("testdata/statesmith_design1_compressed.drawio", drawio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := drawio.ReadFile("testdata/statesmith_design1_uncompressed.drawio", drawio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(render(a), render(b)); d != "" {
		t.Errorf("compressed and uncompressed Design1 differ at %s", d)
	}
	for i := range a.States {
		if a.States[i].Pos.Line != 0 || b.States[i].Pos.Line == 0 {
			t.Errorf("state %s: lines %d (compressed), %d (plain), want 0 and the line", a.States[i].ID, a.States[i].Pos.Line, b.States[i].Pos.Line)
		}
		if *a.States[i].Box != *b.States[i].Box {
			t.Errorf("state %s: Box %v (compressed), %v (plain)", a.States[i].ID, a.States[i].Box, b.States[i].Box)
		}
	}
	got := strings.Join(render(a), "\n")
	for _, want := range []string{
		`state "ybaX8FbpUQNGJi_0bP3v-3" name="ON_GROUP" kind=normal initial=false parent=""`,
		`state "ybaX8FbpUQNGJi_0bP3v-5" name="ON1" kind=normal initial=false parent="ybaX8FbpUQNGJi_0bP3v-3"`,
		`state "ybaX8FbpUQNGJi_0bP3v-14" name="" kind=start initial=true`,
		// "2. INCREASE [count >= 3]": order 2, from the label.
		`transition "ybaX8FbpUQNGJi_0bP3v-16" from="ybaX8FbpUQNGJi_0bP3v-10" any=false order=2 test="INCREASE" value="" label="2. INCREASE [count >= 3]" event="INCREASE" guard="count >= 3"`,
		// ON_GROUP's OFF transition, which applies in each of its states.
		`transition "ybaX8FbpUQNGJi_0bP3v-2" from="ybaX8FbpUQNGJi_0bP3v-3" any=false order=1 test="OFF"`,
		// ON3's DIM, drawn without an order: after the "2." of INCREASE, as in StateSmith.
		`transition "ybaX8FbpUQNGJi_0bP3v-9" from="ybaX8FbpUQNGJi_0bP3v-10" any=false order=3 test="DIM"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Design1 lacks %s in\n%s", want, got)
		}
	}
}

// TestSmartLock checks the reading of the UML state diagram of draw.io's
// blog: labels in edgeLabel cells, HTML line breaks, sub-diagram pages,
// decorations, a compound state.
func TestSmartLock(t *testing.T) {
	c, err := drawio.ReadFile("testdata/jgraph_uml_state_smart_lock.drawio", drawio.Options{File: "lock.drawio"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(render(c), "\n")
	for _, want := range []string{
		`state "-KjRy6q1H4NhqvM-Cx5Z-16" name="Monitoring, Verifying Access Using Internal Records" kind=normal`,
		`transition "_zQdXd1eFr0759UnzaPl-2" from="-KjRy6q1H4NhqvM-Cx5Z-4" any=false order=1 test="5 seconds unlocked" value="" label="5 seconds unlocked\n[server unresponsive] /lock" event="5 seconds unlocked" guard="server unresponsive" action="lock"`,
		`transition "-KjRy6q1H4NhqvM-Cx5Z-8" from="U0YIL_bT853RhMY6K4DB-1" any=false order=1 test="access permitted" value="" label="access permitted [valid-key] /unlock"`,
		// A compound of 2 states, which its transition leaves.
		`state "-KjRy6q1H4NhqvM-Cx5Z-15" name="Reconnecting" kind=normal initial=false parent="dkxcmgxp9GDG2H__4WZW-2"`,
		`transition "_zQdXd1eFr0759UnzaPl-18" from="dkxcmgxp9GDG2H__4WZW-2" any=false order=1 test="server connected"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("smart lock lacks %s in\n%s", want, got)
		}
	}
	var diags []string
	for _, d := range c.Diagnostics {
		diags = append(diags, d.Error())
	}
	for _, want := range []string{
		`page "Monitoring": note: drawio: page "Monitoring" is a sub-diagram linked from shape CVMuBMA0sMH7xyALMZ2U-1 "Monitoring, Locked" on page "Smart Lock": its shapes are not part of the chart`,
		`shape _zQdXd1eFr0759UnzaPl-42 "IOT Smart Lock - UML State Diagram": note: drawio: frame _zQdXd1eFr0759UnzaPl-42 "IOT Smart Lock - UML State Diagram" is not a state; ignored`,
		`shape _zQdXd1eFr0759UnzaPl-23 "invalid key /ignore": warning: drawio: edge "invalid key /ignore" attached to no shape: not a transition; ignored`,
		`shape _zQdXd1eFr0759UnzaPl-29: warning: drawio: line without an arrowhead between shape dkxcmgxp9GDG2H__4WZW-2 "Reconnecting, Locked" and shape -KjRy6q1H4NhqvM-Cx5Z-29 (ellipse): not a transition; ignored`,
	} {
		if !slices.ContainsFunc(diags, func(d string) bool { return strings.Contains(d, want) }) {
			t.Errorf("smart lock: want a diagnostic with %q among\n%s", want, strings.Join(diags, "\n"))
		}
	}
}

// TestGolden compares the charts read from fixtures with
// testdata/*.golden.json; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tt := range []struct{ file, golden string }{
		{"testdata/statesmith_design1_uncompressed.drawio", "testdata/statesmith_design1.golden.json"},
		{"testdata/convert2mermaid_state_diagram.drawio", "testdata/convert2mermaid.golden.json"},
		{"testdata/fsmforge_guard_nested.drawio", "testdata/fsmforge_guard_nested.golden.json"},
	} {
		t.Run(filepath.Base(tt.golden), func(t *testing.T) {
			c, err := drawio.ReadFile(tt.file, drawio.Options{File: filepath.Base(tt.file)})
			if err != nil {
				t.Fatal(err)
			}
			charttest.Golden(t, c, tt.golden, *update)
		})
	}
}
