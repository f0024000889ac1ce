package compile_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/table"
)

var update = flag.Bool("update", false, "rewrite the golden files (and the generated drawings) in testdata")

const (
	lucid    = "../chart/visio/testdata/jgraph_drawio_utf8_lucidchart_uml_state_diagram.vdx"
	visioDir = "../chart/visio/testdata"
	shared   = "../../shared/fixtures/vdx"
)

// readFile reads a drawing, naming it by its base name in positions.
func readFile(t testing.TB, path string, st *chart.Stencil) *chart.Chart {
	t.Helper()
	c, err := visio.ReadFile(path, visio.Options{File: filepath.Base(path), Stencil: st})
	if c == nil {
		t.Fatalf("ReadFile(%s) = %v", path, err)
	}
	return c
}

// golden compares got with the golden file, or rewrites it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the compiler gives:\n%s\n(run go test -run %s -update to accept it)", file, got, t.Name())
	}
}

// report is a golden file: the table's JSON form and what a command-line
// tool would show beside it.
type report struct {
	Table       *table.Table   `json:"table"`
	States      []reportState  `json:"states"`
	Merged      []reportMerge  `json:"merged,omitempty"`
	Diagnostics []string       `json:"diagnostics"`
	Sizes       map[string]int `json:"sizes,omitempty"`
}

type reportState struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Table string `json:"table"` // the table state's name, or "(final)"; none for a start
}

type reportMerge struct {
	Kept   string   `json:"kept"`
	Merged []string `json:"merged"`
}

func makeReport(c *chart.Chart, r *compile.Result) []byte {
	rep := report{Table: r.Table, States: []reportState{}, Diagnostics: strings.Split(strings.TrimSuffix(render(r.Diagnostics), "\n"), "\n")}
	for _, s := range c.States {
		rs := reportState{ID: s.ID, Name: s.Name}
		if id, ok := r.States[s.ID]; ok {
			rs.Table = r.Table.StateName(id)
			if id == table.Final {
				rs.Table = "(final)"
			}
		}
		rep.States = append(rep.States, rs)
	}
	for _, m := range r.Merged {
		rep.Merged = append(rep.Merged, reportMerge{m.Kept, m.Merged})
	}
	if r.Table != nil {
		b, _ := r.Table.MarshalBinary()
		rep.Sizes = map[string]int{"states": r.Table.NumStates(), "tests": r.Table.NumTests(), "binary": len(b)}
	}
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

// TestGolden compiles goomba.vdx and the Lucidchart diagram (plain, and
// minimised) against testdata/*.golden.json.
func TestGolden(t *testing.T) {
	st := stencil(t)
	for _, tt := range []struct {
		name, file string
		st         *chart.Stencil
		opt        compile.Options
	}{
		{"goomba", goombaVDX, st, compile.Options{Stencil: st}},
		{"lucidchart", lucid, nil, compile.Options{}},
		{"lucidchart.min", lucid, nil, compile.Options{Minimize: true, Chain: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := readFile(t, tt.file, tt.st)
			r, err := compile.Compile(c, tt.opt)
			checkResult(t, r, err)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "testdata/"+tt.name+".golden.json", makeReport(c, r))
		})
	}
}

// badDrawings are small drawings made to show the compiler's diagnostics,
// written to testdata/bad/NAME.vdx by -update (from here, so that they can
// be regenerated); their diagnostics are in NAME.diag beside them.
func badDrawings(st *chart.Stencil) []struct {
	name       string
	d          *vdxgen.Drawing
	read, want *chart.Stencil // stencils to read and compile with
} {
	v2, koopa := *st, *st
	v2.Version, koopa.Name = "2", "koopa"
	state, tr, glue := vdxgen.State, vdxgen.Transition, vdxgen.Glue
	handler := vdxgen.Shape{ID: "9", Name: "Message Handler", Master: vdxgen.MasterHandler, Text: "on hit"}
	pushes := vdxgen.Prop{Row: "Stack", Value: "push", Inherit: true}
	returns := vdxgen.Prop{Row: "Stack", Value: "return", Inherit: true}
	plain := func(shapes []vdxgen.Shape, masters []vdxgen.Master, glue ...[]vdxgen.Connect) *vdxgen.Drawing {
		pg := vdxgen.Page{ID: "0", Name: "Page-1", Shapes: shapes}
		for _, g := range glue {
			pg.Connects = append(pg.Connects, g...)
		}
		return &vdxgen.Drawing{Masters: masters, Pages: []vdxgen.Page{pg}}
	}
	box := func(id, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, Text: text} }
	line := func(id, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, OneD: true, Text: text} }
	umlMasters := []vdxgen.Master{{ID: "1", Name: "Initial state", Shape: vdxgen.Shape{ID: "5"}},
		{ID: "2", Name: "Final state", Shape: vdxgen.Shape{ID: "5"}}, {ID: "3", Name: "Decision", Shape: vdxgen.Shape{ID: "5"}}}
	noInitial := vdxgen.Goomba(nil)
	noInitial.Pages[0].Shapes[0].Master = vdxgen.MasterState

	return []struct {
		name       string
		d          *vdxgen.Drawing
		read, want *chart.Stencil
	}{
		{"stencil_version", vdxgen.Goomba(nil), &v2, st},
		{"other_stencil", vdxgen.Goomba(nil), &koopa, st},
		{"read_plain", vdxgen.Goomba(nil), nil, st},
		{"no_initial", noInitial, st, st},
		{"two_initials", vdxgen.Goomba([]vdxgen.Shape{state("9", vdxgen.MasterInitial, "idle", "existing", "existing"), tr("10", "hitTriggerRight")}, glue("10", "9", "2")), st, st},
		{"duplicate_name", vdxgen.Goomba([]vdxgen.Shape{state("9", vdxgen.MasterState, "walkRight", "existing", "existing"), tr("10", "hitTriggerLeft")}, glue("10", "3", "9")), st, st},
		{"same_test", vdxgen.Goomba([]vdxgen.Shape{tr("9", "hitTriggerLeft")}, glue("9", "1", "3")), st, st},
		{"unknown_test", vdxgen.Goomba([]vdxgen.Shape{tr("9", "jump")}, glue("9", "3", "1")), st, st},
		{"unreachable", vdxgen.Goomba([]vdxgen.Shape{state("9", vdxgen.MasterState, "stunned", "existing", "existing"), state("10", vdxgen.MasterState, "hiding", "existing", "existing"), tr("11", "animationDone")}, glue("11", "9", "10")), st, st},
		{"any_state", vdxgen.Goomba([]vdxgen.Shape{handler, state("10", vdxgen.MasterState, "stunned", "existing", "death"),
			tr("11", "hitByPlayer", pushes), tr("12", "animationDone", returns)}, glue("11", "9", "10"), glue("12", "10", "")), st, st},
		{"return_without_push", vdxgen.Goomba([]vdxgen.Shape{tr("9", "hitTriggerRight", returns)}, glue("9", "3", "")), st, st},
		{"plain_no_start", plain([]vdxgen.Shape{box("1", "Idle"), box("2", "Busy"), line("3", "go"), line("4", "[done]")}, nil, glue("3", "1", "2"), glue("4", "2", "1")), nil, nil},
		{"plain_uml", plain([]vdxgen.Shape{
			{ID: "1", Master: "1"}, box("2", "Closed"), box("3", "Open"), {ID: "4", Master: "3", Text: "?"}, box("5", "Closed"), {ID: "6", Master: "2"},
			line("7", ""), line("8", "push [unlocked] / swing()"), line("9", "[timeout]"), line("10", "[locked]"), line("11", "else"), line("12", ""),
			line("13", "pull / creak()"), line("14", "kick"),
		}, umlMasters, glue("7", "1", "2"), glue("8", "2", "3"), glue("9", "3", "4"), glue("10", "4", "5"), glue("11", "4", "2"), glue("12", "5", "6"),
			glue("13", "3", "2"), glue("14", "6", "1")), nil, nil},
	}
}

// TestBadDrawings compiles the drawings of testdata/bad and compares their
// diagnostics with the .diag files beside them.
func TestBadDrawings(t *testing.T) {
	st := stencil(t)
	for _, tt := range badDrawings(st) {
		t.Run(tt.name, func(t *testing.T) {
			file := "testdata/bad/" + tt.name + ".vdx"
			if *update {
				if err := os.WriteFile(file, tt.d.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := readFile(t, file, tt.read)
			r, err := compile.Compile(c, compile.Options{Stencil: tt.want})
			checkResult(t, r, err)
			out := render(r.Diagnostics)
			if r.Table != nil {
				out += fmt.Sprintf("compiled: %d states, %d tests\n", r.Table.NumStates(), r.Table.NumTests())
			} else {
				out += "not compiled\n"
			}
			golden(t, "testdata/bad/"+tt.name+".diag", []byte(out))
		})
	}
}

// TestFixtures compiles every drawing of chart/visio/testdata (diagnostics
// in testdata/fixtures) and of ../shared/fixtures/vdx when it is there, as
// plain diagrams and with the Goomba stencil: each compiles or says why,
// and none panics.
func TestFixtures(t *testing.T) {
	st := stencil(t)
	files, err := filepath.Glob(visioDir + "/*.vdx")
	if err != nil || len(files) < 4 {
		t.Fatalf("%s/*.vdx = %v, %v", visioDir, files, err)
	}
	more, _ := filepath.Glob(shared + "/*.vdx") // none when ../shared is absent
	for _, f := range slices.Concat(files, more) {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			var out strings.Builder
			for _, s := range []*chart.Stencil{nil, st} {
				c, err := visio.ReadFile(f, visio.Options{File: filepath.Base(f), Stencil: s})
				if c == nil {
					out.WriteString("not read: " + err.Error() + "\n")
					continue
				}
				r, err := compile.Compile(c, compile.Options{})
				checkResult(t, r, err)
				rm, err := compile.Compile(c, compile.Options{Minimize: true})
				checkResult(t, rm, err)
				if s != nil {
					if r.Table != nil {
						t.Errorf("compiled with the Goomba stencil")
					}
					continue
				}
				out.WriteString(render(r.Diagnostics))
				if r.Table != nil {
					fmt.Fprintf(&out, "compiled: %d states, %d tests; minimised: %d states\n", r.Table.NumStates(), r.Table.NumTests(), rm.Table.NumStates())
				} else {
					out.WriteString("not compiled\n")
				}
			}
			if strings.HasPrefix(f, visioDir) {
				golden(t, "testdata/fixtures/"+strings.TrimSuffix(filepath.Base(f), ".vdx")+".diag", []byte(out.String()))
			}
		})
	}
	if len(more) == 0 {
		t.Log(shared, "is absent: its drawings were not compiled")
	}
}

// TestLucidchart checks the plain lowering of the Lucidchart diagram.
func TestLucidchart(t *testing.T) {
	c := readFile(t, lucid, nil)
	r, err := compile.Compile(c, compile.Options{})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table
	if tb.NumStates() != 19 || tb.NumTests() != 5 || tb.StateName(tb.Initial()) != "Inicía a pesquisa de um estabelecimento" {
		t.Errorf("%d states, %d tests, initial %q; want 19 (15 states, 4 choices), 5, the start's target",
			tb.NumStates(), tb.NumTests(), tb.StateName(tb.Initial()))
	}
	for id := range table.TestID(tb.NumTests()) {
		if tb.Test(id).Message {
			t.Errorf("test %v is a message; every test of the diagram is a condition", tb.Test(id))
		}
	}
	if w := r.Diagnostics.Errors(); w != nil {
		t.Errorf("errors: %v", w)
	}
}
