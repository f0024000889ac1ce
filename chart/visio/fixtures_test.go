package visio_test

import (
	"flag"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const lucid = "testdata/jgraph_drawio_utf8_lucidchart_uml_state_diagram.vdx"

// TestLucidchart reads the gold standard of the plain reading: a UML state
// diagram drawn in Lucidchart and saved by Visio 2010.
func TestLucidchart(t *testing.T) {
	c, err := visio.ReadFile(lucid, visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %v, want none", c.Diagnostics)
	}
	kinds := map[chart.StateKind]int{}
	names := map[string]int{}
	for _, s := range c.States {
		kinds[s.Kind]++
		if s.Kind == chart.NormalState {
			names[s.Name]++
		}
		if s.Pos.Line == 0 || s.Pos.Page != "State Diagram" || s.Pos.Shape != s.ID {
			t.Errorf("state %s: Pos = %v", s.ID, s.Pos)
		}
	}
	want := map[chart.StateKind]int{chart.NormalState: 15, chart.ChoiceState: 4, chart.EndState: 4, chart.StartState: 1}
	if !maps.Equal(kinds, want) {
		t.Errorf("states by kind = %v, want %v", kinds, want)
	}
	if names["Retorna ao usuário"] != 4 || names["Pesquisa Receitas"] != 1 || names["Pergunta ao usuário se prefere receitas conforme o filtro ou um estabelecimento próximo sem filtro"] != 1 {
		t.Errorf("state names = %v", names)
	}
	ids := map[string]bool{}
	for _, s := range c.States {
		if ids[s.ID] {
			t.Errorf("state ID %s repeated", s.ID)
		}
		ids[s.ID] = true
		if s.Initial != (s.Kind == chart.StartState) {
			t.Errorf("state %s: Initial = %v, Kind = %v", s.ID, s.Initial, s.Kind)
		}
	}
	if len(c.Transitions) != 24 {
		t.Fatalf("%d transitions, want 24", len(c.Transitions))
	}
	labels := map[string]int{}
	for _, tr := range c.Transitions {
		labels[tr.Label]++
		if !ids[tr.From] || tr.Target.Kind != chart.ToState || !ids[tr.Target.State] {
			t.Errorf("transition %s: %s -> %v, want between states", tr.ID, tr.From, tr.Target)
		}
		if tr.Test != tr.Event || tr.Guard != "" || tr.Action != "" || tr.Event != tr.Label {
			t.Errorf("transition %s: label %q read as event %q guard %q action %q, test %q", tr.ID, tr.Label, tr.Event, tr.Guard, tr.Action, tr.Test)
		}
	}
	wantLabels := map[string]int{"": 16, "Sim": 3, "Não": 3, "Receita": 1, "Estabelecimento": 1}
	if !maps.Equal(labels, wantLabels) {
		t.Errorf("labels = %v, want %v", labels, wantLabels)
	}
	// The choice after "Existe um registro...?" (shape 10): Sim to
	// "Retorna ao usuário" (13) first, Não to the question (16) second.
	var fromChoice []string
	for _, tr := range c.Transitions {
		if tr.From == "10" {
			fromChoice = append(fromChoice, tr.Label+">"+tr.Target.State+"#"+strconv.Itoa(tr.Order))
		}
	}
	if want := []string{"Sim>13#1", "Não>16#2"}; !slices.Equal(fromChoice, want) {
		t.Errorf("transitions from choice 10 = %v, want %v", fromChoice, want)
	}
}

// TestFixtures reads every drawing of testdata as a plain diagram: each
// imports, with warnings where it is not a state diagram, and with errors
// where it cannot be read as drawn (the flowchart's connectors lie on its
// boxes but are not glued to them); with the goomba stencil, each is
// refused as drawn with another stencil. None panics.
func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.vdx")
	if err != nil || len(files) < 4 {
		t.Fatalf("testdata/*.vdx = %v, %v", files, err)
	}
	st := charttest.Stencil(t)
	want := map[string]struct {
		states, transitions int
		err                 string // of the plain reading, if any
	}{
		"jgraph_drawio_utf8_lucidchart_uml_state_diagram.vdx": {24, 24, ""},
		"aspose_drp_basic_flowchart_3pages.vdx":               {34, 16, `shape 14: visio: the connector is glued to no shape, though its start lies on state 1 "DRP"`},
		"dia_xvdtosvg_seq_test_visio2002.vdx":                 {2, 2, ""},
		"visioautomation_vdx_with_warnings_1.vdx":             {2, 1, ""},
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := visio.ReadFile(f, visio.Options{})
			if c == nil {
				t.Fatalf("ReadFile = nil, %v", err)
			}
			w, ok := want[filepath.Base(f)]
			if ok && (w.err == "" && err != nil || w.err != "" && (err == nil || !strings.Contains(err.Error(), w.err))) {
				t.Errorf("ReadFile error = %v, want %q", err, w.err)
			}
			if ok && (len(c.States) != w.states || len(c.Transitions) != w.transitions) {
				t.Errorf("ReadFile = %d states, %d transitions, want %d, %d", len(c.States), len(c.Transitions), w.states, w.transitions)
			}
			for _, d := range c.Diagnostics {
				if d.Error() == "" || !strings.Contains(d.Message, "visio: ") {
					t.Errorf("diagnostic %#v renders as %q", d, d.Error())
				}
			}
			checkChart(t, c, err)

			c, err = visio.ReadFile(f, visio.Options{Stencil: st})
			if err == nil || !strings.Contains(err.Error(), `the drawing was not made with stencil "goomba"`) {
				t.Errorf("ReadFile with the goomba stencil = %v, want an error: not made with stencil goomba", err)
			}
			if c == nil || len(c.States) != 0 {
				t.Errorf("ReadFile with the goomba stencil = %+v, want an empty chart", c)
			}
		})
	}
}

// TestFixtureDiagnostics checks what the readings of the flowchart and the
// sequence diagram report.
func TestFixtureDiagnostics(t *testing.T) {
	for _, tt := range []struct {
		file string
		want []string
	}{
		{"testdata/aspose_drp_basic_flowchart_3pages.vdx", []string{
			`:12:5069: page "Flow 1", shape 19: visio: the start of the connector is glued to no state, though it lies on state 18 "Realistic?": it is not a transition until it is glued`,
			`page "Flow 1", shape 37 "Yes": visio: the connector is glued to no shape, though its start lies on state 18 "Realistic?" and its end on state 21 "Buy": it is not a transition until its ends are glued`,
			`page "Flow 1", shape 9: warning: visio: the end of the connector is glued to no state, though its end lies on state 1 "DRP": taken as a transition to the final state, which ends the machine`,
			`page "Flow 1", shape 8 "6/1/00": warning: visio: state "6/1/00": the text written in it besides its name is left out: "Distribution Resources Flowchart"`,
			`page "Flow 2", shape 4/67 "Created with the \"Line-Curve\" connect...": warning: visio: the connector is glued to no shape: not a transition; ignored`,
			`page "VBackground": note: visio: background page: its shapes are not part of the chart`,
		}},
		{"testdata/dia_xvdtosvg_seq_test_visio2002.vdx", []string{
			`:2830:13: page "ARP Sequence", shape 34: warning: visio: the start of the connector is glued to shape 31 (Sheet.31), which is not a state; ignored`,
			`shape 36 "[Condition A]": warning: visio: the start of the connector is glued to shape 30 "Operation A", which is not a state; ignored`,
		}},
	} {
		c, err := visio.ReadFile(tt.file, visio.Options{File: filepath.Base(tt.file)})
		if c == nil {
			t.Fatalf("ReadFile(%s) = %v", tt.file, err)
		}
		var got []string
		for _, d := range c.Diagnostics {
			got = append(got, d.Error())
		}
		for _, w := range tt.want {
			if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
				t.Errorf("ReadFile(%s): want a diagnostic with %q among\n%s", tt.file, w, strings.Join(got, "\n"))
			}
		}
	}
}

// TestGolden compares the charts read from the Goomba and the Lucidchart
// diagram with testdata/*.golden.json; -update rewrites them.
func TestGolden(t *testing.T) {
	st := charttest.Stencil(t)
	for _, tt := range []struct {
		file, golden string
		stencil      *chart.Stencil
	}{
		{"../../examples/goomba/goomba.vdx", "testdata/goomba.golden.json", st},
		{lucid, "testdata/lucidchart.golden.json", nil},
	} {
		t.Run(filepath.Base(tt.golden), func(t *testing.T) {
			c, err := visio.ReadFile(tt.file, visio.Options{File: filepath.Base(tt.file), Stencil: tt.stencil})
			if err != nil {
				t.Fatal(err)
			}
			c.Stencil = nil // the stencil has its own tests
			charttest.Golden(t, c, tt.golden, *update)
		})
	}
}

// checkChart checks what charttest.CheckChart checks, and that no state's
// box has a negative size: the reader turns a negative width or height
// into a box drawn the other way.
func checkChart(t testing.TB, c *chart.Chart, err error) {
	t.Helper()
	charttest.CheckChart(t, c, err)
	if c == nil {
		return
	}
	for _, s := range c.States {
		if b := s.Box; b != nil && (b.W < 0 || b.H < 0) {
			t.Errorf("state %s: Box %+v", s.ID, *b)
		}
	}
}
