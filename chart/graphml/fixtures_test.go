package graphml_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/table"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtures lists the state machines among the drawings, with their counts
// (nested states included), and the errors of those the reader refuses.
var fixtures = map[string]struct {
	name                string
	states, transitions int
	compiles            bool     // a plain diagram that compile accepts (leniently)
	errors              []string // the start of each error's message, in order
}{
	// 8 nodes: the $STATEMACHINE group (the chart), a start, OFF,
	// ON_GROUP{ON1, ON2, ON3}, BOOM; 9 edges, ON_GROUP's OFF among them.
	"statesmith_tutorial1.graphml": {"Tutorial1Sm", 7, 9, true, nil},
	// 7 nodes: the $STATEMACHINE group, a start, NOT_PRESSED,
	// PRESSED{start, CONFIRMING_HELD, HELD}; 5 edges.
	"statesmith_button_sm1.graphml": {"ButtonSm1", 6, 5, true, nil},
	// 5 nodes (init is the start), 7 edges.
	"kingly_password_meter.graphml": {"kingly_password_meter", 5, 7, true, nil},
	// Read without its stencil: the end marker is an end state, and
	// nothing says where the machine starts.
	"goomba.graphml": {"goomba", 4, 5, false, nil},
	// StateSmith's documentation: a state's do behaviour "1.5. do /
	// update_display();" (code, a warning) and two ordered do
	// transitions, "1. do [voltage > 6]" and "2. do [ time > 500 ]".
	"statesmith_startup_delay1.graphml": {"StartupDelay1Sm", 4, 3, true, nil},
	// Nested groups without initial states, entered through their
	// leaves; "do" transitions, the machine's update.
	"statesmith_tiny2.graphml": {"Tiny2", 7, 4, true, nil},
	// A conditional initial transition inside GROUP ([var == 1], [var ==
	// 2], else), which a chart cannot say yet.
	"statesmith_initial_state_branches.graphml": {"MainSm", 7, 5, false, []string{
		`graphml: the initial state of state "GROUP" has 3 transitions`,
	}},
	// StateSmith's LaserTagMenu1 example (gzipped): MM_BACK_PRESS_EATER
	// and MM_BACK_PRESS_EATER_5 handle BACK_PRESS in their behaviour,
	// which stops the BACK_PRESS transition of MENUS_GROUP around them;
	// an exit point "saved", gone through by "via exit saved".
	"statesmith_lasertag_menu1.graphmlz": {"LaserTagMenu1Sm", 35, 50, false, []string{
		`graphml: state "MM_BACK_PRESS_EATER" handles BACK_PRESS itself`,
		`graphml: state "MM_BACK_PRESS_EATER_5" handles BACK_PRESS itself`,
	}},
	// StateSmith's specification (gzipped): its history tests read but
	// two, whose $HC nodes reach some levels only; a TriggerMap;
	// conditional initial transitions; local transitions into states
	// without an initial state.
	"statesmith_spec2.graphmlz": {"Spec2Sm", 255, 217, false, spec2Errors},
	// Kingly: eventless transitions, guards on one event.
	"kingly_eventful_eventless_guards.graphml": {"kingly_eventful_eventless_guards", 5, 7, true, nil},
	// Kingly: a history node "H" without an edge, an "init" inside
	// Group 1: the history's default is drawn to where init leads.
	"kingly_hierarchy_history_h.graphml": {"kingly_hierarchy_history_h", 8, 8, true, nil},
	// fsmforge's soldier, read without its stencil: "H" and "H*" are
	// histories and retreat's small unlabelled circle is its start, but
	// nothing says where "combat" and "engage" start.
	"soldier.graphml": {"soldier", 19, 14, false, []string{
		`graphml: history n1::n3 has no transition, and state "combat" has no start state`,
		`graphml: state "engage" holds states but no initial state, and transition n1::e0 enters it`,
	}},
	// Kingly: Group 1's init node has two guarded transitions.
	"kingly_hierarchy_conditional_init.graphml": {"kingly_hierarchy_conditional_init", 6, 4, false, []string{
		`graphml: the initial state of state "Group 1" has 2 transitions`,
	}},
}

// withStencil lists the drawings made with a stencil whose masters are
// the goomba stencil's ("State", "Transition"...), which it does not
// refuse.
var withStencil = map[string]bool{"goomba.graphml": true, "soldier.graphml": true}

// spec2Errors are the errors of StateSmith's specification.
var spec2Errors = []string{
	"graphml: node n1::n6 sets StateSmith's TriggerMap",
	"graphml: edge n0::n8::n3::n2::n0::e3 enters the initial state n0::n8::n3::n2::n0::n0::n1, which does not lead to one state",
	`graphml: the initial state of state "G" has 3 transitions`,
	`graphml: the initial state of state "TEST10_A" has 3 transitions`,
	// TEST7's DEEP_HISTORY1: the $HC nodes carry the history of
	// ALIENS_DETECTED and GET_BACKUP into LOCAL_HELP, not into HERO.
	`graphml: $H n0::n8::n3::n1::n1::n0::n3: the $HC carry the history of state "ALIENS_DETECTED" into states "GET_BACKUP" and "LOCAL_HELP", but not into state "HERO"`,
	`graphml: $H n0::n8::n3::n1::n1::n0::n4::n3: the $HC carry the history of state "GET_BACKUP" into state "LOCAL_HELP", but not into state "HERO"`,
	// States without an initial state that StateSmith's local
	// transitions to a parent (TEST4, TEST5) or an initial state enter.
	`graphml: state "TEST4_ROOT" holds states but no $initial_state, and transition n0::n5::e0 enters it`,
	`graphml: state "TEST4_S10" holds states but no $initial_state, and transition n0::n5::n1::e2 enters it`,
	`graphml: state "TEST4B_G" holds states but no $initial_state, and transition n0::n5::n3::n0::e0 enters it`,
	`graphml: state "TEST4D_G" holds states but no $initial_state, and transition n0::n5::n3::n1::e0 enters it`,
	`graphml: state "TEST4C_G" holds states but no $initial_state, and transition n0::n5::n3::n2::e0 enters it`,
	`graphml: state "TEST5_ROOT" holds states but no $initial_state, and transition n0::n6::e0 enters it`,
	`graphml: state "TEST9B_ROOT" holds states but no $initial_state, and transition n0::n10::e3 enters it`,
}

// TestFixtures reads every drawing of testdata and of the shared fixtures
// (when ../../../shared/fixtures/graphml is there) as a plain diagram:
// each imports with the counts above, and without errors but those
// listed; with the goomba stencil, each but those drawn with a stencil
// (withStencil) is refused as drawn with another stencil. None panics.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.graphml*")
	if len(files) < 12 {
		t.Fatalf("testdata/*.graphml = %v", files)
	}
	shared, _ := filepath.Glob("../../../shared/fixtures/graphml/*.graphml")
	files = append(files, shared...)
	st := charttest.Stencil(t)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := read(t, string(data), graphml.Options{File: filepath.Base(f)})
			w, ok := fixtures[filepath.Base(f)]
			if !ok {
				t.Fatalf("no counts for %s: add them to fixtures", f)
			}
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			var errs []string
			for _, d := range c.Diagnostics {
				if d.Severity == diag.Error {
					errs = append(errs, d.Message)
				}
			}
			if len(errs) != len(w.errors) {
				t.Errorf("Read errors =\n%s\nwant %d errors:\n%s", strings.Join(errs, "\n"), len(w.errors), strings.Join(w.errors, "\n"))
			} else {
				for i := range errs {
					if !strings.HasPrefix(errs[i], w.errors[i]) {
						t.Errorf("error %d = %s, want %s...", i, errs[i], w.errors[i])
					}
				}
			}
			if c.Name != w.name || len(c.States) != w.states || len(c.Transitions) != w.transitions {
				t.Errorf("Read = %q, %d states, %d transitions, want %q, %d, %d", c.Name, len(c.States), len(c.Transitions), w.name, w.states, w.transitions)
			}
			for _, d := range c.Diagnostics {
				if !strings.HasPrefix(d.Message, "graphml: ") {
					t.Errorf("diagnostic %q: want a graphml: prefix", d.Message)
				}
			}
			if w.compiles {
				if _, err := compile.Compile(c, compile.Options{}); err != nil {
					t.Errorf("compile.Compile = %v", err)
				}
			}

			if withStencil[filepath.Base(f)] {
				return
			}
			c, err = read(t, string(data), graphml.Options{File: filepath.Base(f), Stencil: st})
			if err == nil || !strings.Contains(err.Error(), `the drawing was not made with stencil "goomba"`) {
				t.Errorf("Read with the goomba stencil = %v, want an error: not made with stencil goomba", err)
			}
			if c == nil || len(c.States) != 0 {
				t.Errorf("Read with the goomba stencil = %+v, want an empty chart", c)
			}
		})
	}
}

// TestSharedFixtures checks that the shared fixtures are the copies in
// testdata.
func TestSharedFixtures(t *testing.T) {
	shared, _ := filepath.Glob("../../../shared/fixtures/graphml/*.graphml")
	if len(shared) == 0 {
		t.Skip("../../../shared/fixtures/graphml is absent")
	}
	for _, f := range shared {
		a, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("testdata", filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("testdata/%s is not a copy of %s (%v)", filepath.Base(f), f, err)
		}
	}
}

// transitionsByName lists a chart's transitions as "from>to:label", by
// state names, sorted.
func transitionsByName(c *chart.Chart) []string {
	name := map[string]string{}
	for _, s := range c.States {
		name[s.ID] = s.Name
		if s.Kind != chart.NormalState {
			name[s.ID] = "(" + s.Kind.String() + ")"
		}
	}
	var out []string
	for _, t := range c.Transitions {
		out = append(out, name[t.From]+">"+name[t.Target.State]+":"+t.Label)
	}
	slices.Sort(out)
	return out
}

// TestTutorial1 reads StateSmith's tutorial: the same machine as its
// draw.io drawing (shared/fixtures/drawio/statesmith_design1_*.drawio),
// whose nine edges are, by state names: the start to OFF, OFF to ON1
// "INCREASE", ON_GROUP to OFF "OFF", ON1 to OFF "DIM", ON1 to ON2 and ON2
// to ON3 "INCREASE", ON2 to ON1 and ON3 to ON2 "DIM", ON3 to BOOM "2.
// INCREASE [count >= 3]". ON_GROUP holds ON1, ON2 and ON3, and keeps its
// edge: a statechart tries it in each of them after their own.
func TestTutorial1(t *testing.T) {
	c, err := graphml.ReadFile("testdata/statesmith_tutorial1.graphml", graphml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"(start)>OFF:",
		"OFF>ON1:INCREASE",
		"ON1>OFF:DIM",
		"ON1>ON2:INCREASE",
		"ON2>ON1:DIM", "ON2>ON3:INCREASE",
		"ON3>BOOM:2. INCREASE [count >= 3]", "ON3>ON2:DIM",
		"ON_GROUP>OFF:OFF",
	}
	if got := transitionsByName(c); !slices.Equal(got, want) {
		t.Errorf("transitions =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got := summary(c)
	wantSummary := "n0::n0(start)*; n0::n1=OFF; n0::n2=ON_GROUP; n0::n2::n0=ON1^n0::n2; n0::n2::n1=ON2^n0::n2; n0::n2::n2=ON3^n0::n2; n0::n3=BOOM; |" +
		" n0::e0:n0::n0>n0::n1#1 n0::e1:n0::n1>n0::n2::n0#1[INCREASE] n0::e2:n0::n2>n0::n1#1[OFF] n0::e3:n0::n2::n0>n0::n1#1[DIM]" +
		" n0::n2::e0:n0::n2::n0>n0::n2::n1#2[INCREASE] n0::n2::e1:n0::n2::n1>n0::n2::n2#1[INCREASE]" +
		" n0::n2::e2:n0::n2::n1>n0::n2::n0#2[DIM] n0::n2::e3:n0::n2::n2>n0::n2::n1#3[DIM]" +
		" n0::e4:n0::n2::n2>n0::n3#2[INCREASE]"
	if got != wantSummary {
		t.Errorf("chart =\n%s\nwant\n%s", got, wantSummary)
	}
	// The ordered, guarded transition.
	i := slices.IndexFunc(c.Transitions, func(t chart.Transition) bool { return t.ID == "n0::e4" })
	if tr := c.Transitions[i]; tr.Order != 2 || tr.Event != "INCREASE" || tr.Guard != "count >= 3" || tr.Test != "INCREASE" {
		t.Errorf("transition n0::e4 = %+v, want order 2, event INCREASE, guard count >= 3", tr)
	}
	// Behaviour text is code, not run: a warning. ON3's "2. INCREASE
	// [count >= 3]" is tried before its "DIM", which has no order, as
	// StateSmith tries them: a warning. ON_GROUP needs no initial state:
	// no transition enters it.
	msgs := messages(c)
	for _, w := range []string{
		`warning: graphml: state "ON1": the behaviour written in it is code for a code generator, which fsmforge does not run: "enter / light_on1();"`,
		`warning: graphml: state "ON3": 1 of 2 transitions have an order and 1 has none; those without one are tried after those with one, in document order: 1. "2. INCREASE [count >= 3]" (order 2), 2. "DIM" (no order)`,
	} {
		if !strings.Contains(msgs, w) {
			t.Errorf("diagnostics =\n%s\nwant %s", msgs, w)
		}
	}
	if strings.Contains(msgs, "error") || strings.Contains(msgs, "ON_GROUP") {
		t.Errorf("diagnostics =\n%s\nwant none on ON_GROUP, and no error", msgs)
	}
	if b := c.States[1].Box; b == nil || *b != (chart.Box{X: 57.60000000000002, Y: 252.12528570681764, W: 292.7501043588012, H: 42.42671096345512}) {
		t.Errorf("OFF's Box = %+v", b)
	}
	r, err := compile.Compile(c, compile.Options{})
	if err != nil {
		t.Fatalf("compile.Compile = %v", err)
	}
	if !r.Table.Statechart() {
		t.Errorf("compile.Compile: a flat table, want a statechart")
	}
}

// TestButtonSm1 reads a StateSmith machine whose group has its own start
// state: PRESSED holds it, CONFIRMING_HELD and HELD, and keeps its
// transition back to NOT_PRESSED.
func TestButtonSm1(t *testing.T) {
	c, err := graphml.ReadFile("testdata/statesmith_button_sm1.graphml", graphml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"(start)>CONFIRMING_HELD:",
		"(start)>NOT_PRESSED:",
		"CONFIRMING_HELD>HELD:[debounce_ms() > 800]",
		"NOT_PRESSED>PRESSED:[is_pressed && is_debounced]",
		"PRESSED>NOT_PRESSED:[is_released && is_debounced] / {\n  if (debounce_ms() <= 200) {\n    output_event(tap);\n  }\n  output_event(release);\n}",
	}
	if got := transitionsByName(c); !slices.Equal(got, want) {
		t.Errorf("transitions =\n%q\nwant\n%q", got, want)
	}
	for _, tr := range c.Transitions {
		if tr.Label != "" && (tr.Event != "" || tr.Guard == "" || tr.Test != tr.Guard) {
			t.Errorf("transition %s: event %q guard %q test %q", tr.ID, tr.Event, tr.Guard, tr.Test)
		}
	}
	want2 := "n0::n0(start)*; n0::n1=NOT_PRESSED; n0::n2=PRESSED; n0::n2::n0=CONFIRMING_HELD^n0::n2; n0::n2::n1^n0::n2(start)*; n0::n2::n2=HELD^n0::n2; |"
	if got := summary(c); !strings.HasPrefix(got, want2) {
		t.Errorf("chart =\n%s\nwant\n%s...", got, want2)
	}
}

// TestKingly reads a flat Kingly machine with multi-line labels.
func TestKingly(t *testing.T) {
	c, err := graphml.ReadFile("testdata/kingly_password_meter.graphml", graphml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("diagnostics = %v, want none", c.Diagnostics)
	}
	want := "n0(start)*; n1=done; n2=strong; n3=weak; n4=idle; |" +
		" e0:n4>n3#1[start] e1:n3>n3#1[typed] e2:n2>n2#1[typed] e3:n2>n1#2[clicked submit]" +
		" e4:n3>n2#2[typed] e5:n2>n3#3[typed] e6:n0>n4#1"
	if got := summary(c); got != want {
		t.Errorf("chart =\n%s\nwant\n%s", got, want)
	}
	tr := c.Transitions[4]
	if tr.Label != "typed [letter and numbers?]\n/ display strong password screen" || tr.Guard != "letter and numbers?" || tr.Action != "display strong password screen" {
		t.Errorf("transition e4 = %+v", tr)
	}
}

// TestGoomba reads the Goomba drawn in yEd with the goomba stencil: the
// chart of examples/goomba/goomba.vdx (see chart/visio's golden file), with
// the end marker for the final state; it compiles.
func TestGoomba(t *testing.T) {
	st := charttest.Stencil(t)
	c, err := graphml.ReadFile("testdata/goomba.graphml", graphml.Options{Stencil: st})
	if err != nil {
		t.Fatal(err)
	}
	want := "n0=walkLeft* XMovement:left Animation:moveLeft; n1=walkRight XMovement:right Animation:moveRight; n2=death XMovement:death Animation:death; |" +
		" e0:n0>n1#1[hitTriggerLeft] e1:n1>n0#1[hitTriggerRight] e2:n0>n2#2[hitByPlayer] e3:n1>n2#2[hitByPlayer] e4:n2>(final)#1[animationDone]"
	if got := summary(c); got != want {
		t.Errorf("chart =\n%s\nwant\n%s", got, want)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("diagnostics =\n%s\nwant none", messages(c))
	}
	r, err := compile.Compile(c, compile.Options{})
	if err != nil {
		t.Fatalf("compile.Compile = %v", err)
	}
	if len(r.Diagnostics) != 0 {
		t.Errorf("compile.Compile diagnostics = %v, want none", r.Diagnostics)
	}
}

// TestSoldier reads a statechart drawn with a stencil that names all the
// masters of statecharts (testdata/soldier.stencil.json): "combat", a
// composite group, holds "approach", the parallel group "engage", the
// composite group "retreat", a shallow history drawn without an edge
// (which gets UML's default, to where combat starts, with a note) and a
// deep history whose edge, without a test, is its default; "engage" has
// two regions, the composite groups "weapon" and "cover", each with its
// state of the initial-state master. No other state is of that master, so
// the machine starts in them: engage and combat are marked initial, the
// regions are not. "retreat", which the machine does not start in,
// starts at "fall back" through a node of the start master, nameless. A
// message handler's transition applies in every state. The states have
// their kinds, parents and initial marks, and the chart compiles with the
// stencil, without a diagnostic but the reader's note, into a statechart
// of the same shape, which an agent runs: it starts aiming and seeking
// cover, and enters retreat (through a transition, and through the
// history) at fall back.
func TestSoldier(t *testing.T) {
	st := soldierStencil(t)
	c, err := graphml.ReadFile("testdata/soldier.graphml", graphml.Options{Stencil: st})
	charttest.CheckChart(t, c, err)
	if err != nil {
		t.Fatal(err)
	}
	want := "n0=idle Animation:idle; n1=combat* Animation:existing; n1::n0=approach^n1 Animation:run;" +
		" n1::n1=engage^n1(parallel)* Animation:existing; n1::n1::n0=weapon^n1::n1 Animation:existing;" +
		" n1::n1::n0::n0=aim^n1::n1::n0* Animation:aim; n1::n1::n0::n1=fire^n1::n1::n0 Animation:shoot;" +
		" n1::n1::n0::n2=reload^n1::n1::n0 Animation:reload; n1::n1::n1=cover^n1::n1 Animation:existing;" +
		" n1::n1::n1::n0=seek^n1::n1::n1* Animation:run; n1::n1::n1::n1=hold^n1::n1::n1 Animation:crouch;" +
		" n1::n2=retreat^n1 Animation:existing; n1::n2::n0^n1::n2(start)*; n1::n2::n1=fall back^n1::n2 Animation:run;" +
		" n1::n2::n2=bandage^n1::n2 Animation:crouch; n1::n3^n1(history); n1::n4^n1(deepHistory); n2=dead Animation:die; |" +
		" n1::n1::n0::e0:n1::n1::n0::n0>n1::n1::n0::n1#1[aimed] n1::n1::n0::e1:n1::n1::n0::n1>n1::n1::n0::n2#1[ammoEmpty]" +
		" n1::n1::n0::e2:n1::n1::n0::n2>n1::n1::n0::n0#1[reloaded] n1::n1::n1::e0:n1::n1::n1::n0>n1::n1::n1::n1#1[coverFound]" +
		" n1::n2::e0:n1::n2::n0>n1::n2::n1#1 n1::n2::e1:n1::n2::n1>n1::n2::n2#1[coverFound]" +
		" n1::e0:n1::n0>n1::n1#1[inRange] n1::e1:n1::n1>n1::n2#1[lowHealth] n1::e2:n1::n2>n1::n4#1[healed] n1::e3:n1::n4>n1::n1#1" +
		" e0:n0>n1::n0#1[enemySeen] e1:n0>n1::n3#2[alarm] e2:n1>n0#1[enemyLost] e3:any>n2#1[killed] n1::n3#1:n1::n3>n1::n1#1"
	if got := summary(c); got != want {
		t.Errorf("chart =\n%s\nwant\n%s", got, want)
	}
	wantDiags := `note: graphml: history n1::n3 has no transition: when there is no history yet, it enters "engage", the initial state of "combat", as UML enters the state`
	if got := messages(c); got != wantDiags {
		t.Errorf("diagnostics =\n%s\nwant\n%s", got, wantDiags)
	}

	r, err := compile.Compile(c, compile.Options{Stencil: st})
	if err != nil {
		t.Fatalf("compile.Compile = %v", err)
	}
	if r.Diagnostics.HasErrors() || len(r.Diagnostics) != len(c.Diagnostics) {
		t.Errorf("compile.Compile diagnostics =\n%v\nwant the chart's only", r.Diagnostics)
	}
	tab := r.Table
	if !tab.Statechart() {
		t.Fatalf("compile.Compile: a flat table, want a statechart")
	}
	for _, w := range []struct {
		id, parent string
		kind       table.StateKind
	}{
		{"n1", "", table.KindBasic},
		{"n1::n1", "n1", table.KindParallel},
		{"n1::n1::n0", "n1::n1", table.KindBasic},
		{"n1::n1::n1::n1", "n1::n1::n1", table.KindBasic},
		{"n1::n2", "n1", table.KindBasic},
		{"n1::n2::n1", "n1::n2", table.KindBasic},
		{"n1::n3", "n1", table.KindHistory},
		{"n1::n4", "n1", table.KindDeepHistory},
	} {
		s := r.States[w.id]
		parent := table.NoState
		if w.parent != "" {
			parent = r.States[w.parent]
		}
		if tab.Kind(s) != w.kind || tab.Parent(s) != parent {
			t.Errorf("table state of %s: kind %v, parent %v; want %v, parent %v (%s)", w.id, tab.Kind(s), tab.Parent(s), w.kind, parent, w.parent)
		}
	}
	if _, ok := r.States["n1::n2::n0"]; ok {
		t.Errorf("the start node n1::n2::n0 is a state of the table; want its transition only, retreat's default")
	}
	runSoldier(t, tab)
}

// runSoldier runs the compiled soldier, polled test and message by
// message, and checks the states active after each update.
func runSoldier(t *testing.T, tab *table.Table) {
	t.Helper()
	h := &pollHost{tb: tab}
	a := table.NewAgent[int](tab, 0, h)
	for _, step := range []struct {
		polled  string // the polled test that holds, if any
		message string // the message received, if any
		want    string // the states active after the update, in document order
	}{
		{"", "", "combat engage weapon aim cover seek"}, // NewAgent: aim and seek are of the initial-state master
		{"lowHealth", "", "combat retreat fall back"},   // retreat's start node
		{"coverFound", "", "combat retreat bandage"},
		{"healed", "", "combat engage weapon aim cover seek"}, // the deep history's default
		{"lowHealth", "", "combat retreat fall back"},
		{"", "enemyLost", "idle"},
		{"", "alarm", "combat retreat fall back"}, // the shallow history restores retreat, which starts at its start node
		{"", "enemyLost", "idle"},
		{"", "enemySeen", "combat approach"},
		{"inRange", "", "combat engage weapon aim cover seek"},
		{"", "killed", "dead"},
	} {
		h.holds = step.polled
		if step.message != "" {
			msg, ok := tab.LookupTest(step.message, "")
			if !ok {
				t.Fatalf("no message %q in the table", step.message)
			}
			if err := a.Post(msg); err != nil {
				t.Fatal(err)
			}
		}
		if step.polled != "" || step.message != "" {
			if _, err := a.Update(h); err != nil {
				t.Fatal(err)
			}
		}
		var names []string
		for _, s := range a.AppendActive(nil) {
			names = append(names, tab.StateName(s))
		}
		if got := strings.Join(names, " "); got != step.want {
			t.Errorf("after %q%q: active = %q, want %q", step.polled, step.message, got, step.want)
		}
	}
}

// pollHost answers the polled tests of a table: one holds at a time.
type pollHost struct {
	tb    *table.Table
	holds string
}

func (h *pollHost) Test(_ int, id table.TestID) bool {
	return h.holds != "" && h.tb.Test(id).Name == h.holds
}
func (h *pollHost) Do(_ int, _ table.PropertyID, _ table.ValueID) {}

// TestGolden compares the charts read from the drawings of testdata with
// testdata/*.golden.json, diagnostics included (those of the drawings the
// reader refuses too); -update rewrites them. StateSmith's specification
// and LaserTagMenu1, whose charts are large, are checked by TestFixtures.
func TestGolden(t *testing.T) {
	st := charttest.Stencil(t)
	for _, tt := range []struct {
		file, golden string
		stencil      *chart.Stencil
		refused      bool
	}{
		{"testdata/statesmith_tutorial1.graphml", "testdata/statesmith_tutorial1.golden.json", nil, false},
		{"testdata/statesmith_button_sm1.graphml", "testdata/statesmith_button_sm1.golden.json", nil, false},
		{"testdata/statesmith_startup_delay1.graphml", "testdata/statesmith_startup_delay1.golden.json", nil, false},
		{"testdata/statesmith_tiny2.graphml", "testdata/statesmith_tiny2.golden.json", nil, false},
		{"testdata/statesmith_initial_state_branches.graphml", "testdata/statesmith_initial_state_branches.golden.json", nil, true},
		{"testdata/kingly_password_meter.graphml", "testdata/kingly_password_meter.golden.json", nil, false},
		{"testdata/kingly_eventful_eventless_guards.graphml", "testdata/kingly_eventful_eventless_guards.golden.json", nil, false},
		{"testdata/kingly_hierarchy_history_h.graphml", "testdata/kingly_hierarchy_history_h.golden.json", nil, false},
		{"testdata/kingly_hierarchy_conditional_init.graphml", "testdata/kingly_hierarchy_conditional_init.golden.json", nil, true},
		{"testdata/goomba.graphml", "testdata/goomba.golden.json", st, false},
		{"testdata/soldier.graphml", "testdata/soldier.golden.json", soldierStencil(t), false},
	} {
		t.Run(filepath.Base(tt.golden), func(t *testing.T) {
			c, err := graphml.ReadFile(tt.file, graphml.Options{File: filepath.Base(tt.file), Stencil: tt.stencil})
			if c == nil || (err != nil) != tt.refused {
				t.Fatalf("ReadFile = %v, want refused %v", err, tt.refused)
			}
			c.Stencil = nil // the stencil has its own tests
			charttest.Golden(t, c, tt.golden, *update)
		})
	}
}
