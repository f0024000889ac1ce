package visio_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/table"
)

// The sentry: a stencil that names the five masters of statecharts, the
// Visio stencil WriteStencil makes of it, and a drawing made with that
// stencil's masters (see sentryPage). The tests write the last two, and
// -update rewrites them.
const (
	sentryStencil = "testdata/sentry/sentry.stencil.json"
	sentryVSX     = "testdata/sentry/sentry.vsx"
	sentryVDX     = "testdata/sentry/sentry.vdx"
	sentryGolden  = "testdata/sentry/sentry.golden.json"
)

// sentry loads the sentry's stencil file.
func sentry(t testing.TB) *chart.Stencil {
	t.Helper()
	st, err := chart.LoadStencil(sentryStencil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// masterIDs returns the IDs of a written stencil's masters, by name.
func masterIDs(t testing.TB, vsx []byte) map[string]string {
	t.Helper()
	doc, err := visio.DecodeVDX(bytes.NewReader(vsx), visio.Options{File: "s.vsx"})
	if err != nil {
		t.Fatal(err)
	}
	ids := make(map[string]string)
	for _, m := range doc.Masters {
		ids[m.NameU] = m.ID
	}
	return ids
}

// withPages returns the stencil vsx, written by WriteStencil, with the
// pages given: a drawing made with its masters.
func withPages(vsx []byte, pages ...vdxgen.Page) []byte {
	d := (&vdxgen.Drawing{Pages: pages}).Bytes()
	d = d[bytes.Index(d, []byte("<Pages>")):bytes.LastIndex(d, []byte("</VisioDocument>"))]
	i := bytes.LastIndex(vsx, []byte("</VisioDocument>"))
	return slices.Concat(vsx[:i], d, vsx[i:])
}

// sentryShapes draws with the masters of a written stencil (ids, by
// name) and the rows of the sentry stencil: each shape at its place, held
// by the containers given (outermost first), as Visio 2010 writes them.
type sentryShapes struct {
	ids   map[string]string
	at    map[string][2]float64 // the centre of each 2-D shape
	holds map[string][]string   // container ID -> members, nested ones too
}

// shape is a 2-D shape of the master, centred on (x, y), w by h inches,
// inside the containers in.
func (ss *sentryShapes) shape(id, master string, x, y, w, h float64, in []string) vdxgen.Shape {
	if ss.at == nil {
		ss.at, ss.holds = make(map[string][2]float64), make(map[string][]string)
	}
	ss.at[id] = [2]float64{x, y}
	s := vdxgen.Shape{ID: id, Name: master + "." + id, Master: ss.ids[master], XForm: &vdxgen.XForm{PinX: x, PinY: y, Width: w, Height: h}}
	if len(in) > 0 {
		s.Relationships = vdxgen.In(in...)
	}
	for _, c := range in {
		ss.holds[c] = append(ss.holds[c], id)
	}
	return s
}

// sentrySizes are the sizes of the sentry's shapes by master, in inches:
// 1.5 by 0.75 for the others.
var sentrySizes = map[string][2]float64{"Composite State": {3.5, 4}, "Parallel State": {7.5, 5}}

// state is a state of the master, named name, whose Animation is anim.
func (ss *sentryShapes) state(id, master, name, anim string, x, y float64, in ...string) vdxgen.Shape {
	size, ok := sentrySizes[master]
	if !ok {
		size = [2]float64{1.5, 0.75}
	}
	s := ss.shape(id, master, x, y, size[0], size[1], in)
	s.Text = name
	s.Props = []vdxgen.Prop{{Row: "Name", Label: "Name", Value: name, Inherit: true}, {Row: "Animation", Label: "Animation", Value: anim, Inherit: true}}
	return s
}

// history is a history pseudo-state of the master: its text is the
// master's, "H" or "H*".
func (ss *sentryShapes) history(id, master string, x, y float64, in ...string) vdxgen.Shape {
	return ss.shape(id, master, x, y, 0.3, 0.3, in)
}

// start is a start pseudo-state, a shape of the start master.
func (ss *sentryShapes) start(id string, x, y float64, in ...string) vdxgen.Shape {
	return ss.shape(id, "Start", x, y, 0.25, 0.25, in)
}

// arrow is a transition from the centre of shape from to that of shape
// to, glued to both, testing test ("": the master's; "-": no test), its
// text text ("": the master's).
func (ss *sentryShapes) arrow(id, test, text, from, to string) (vdxgen.Shape, []vdxgen.Connect) {
	a, b := ss.at[from], ss.at[to]
	s := vdxgen.Shape{ID: id, Name: "Transition." + id, Master: ss.ids["Transition"], OneD: true, Text: text,
		XForm: &vdxgen.XForm{BeginX: a[0], BeginY: a[1], EndX: b[0], EndY: b[1]}}
	switch test {
	case "":
	case "-":
		s.Props = []vdxgen.Prop{{Row: "Test", Label: "Test", Inherit: true}}
	default:
		s.Props = []vdxgen.Prop{{Row: "Test", Label: "Test", Value: test, Inherit: true}}
	}
	return s, vdxgen.Glue(id, from, to)
}

// done gives each container the Relationships formula that lists its
// members.
func (ss *sentryShapes) done(shapes []vdxgen.Shape) {
	for i := range shapes {
		if m := ss.holds[shapes[i].ID]; len(m) > 0 {
			shapes[i].Relationships = vdxgen.Holds(m...)
		}
	}
}

// sentryPage draws the sentry with the masters of the written stencil
// (ids): the parallel state Awake (1) holds two regions, the composite
// states Patrol (2) and Ears (6). Patrol starts in walk (3, of the
// initial-state master), which sees the player to look (4), which loses
// him back to walk; its history (5) goes to walk the first time (a
// transition without a test, labelled "first time"). Ears starts in
// listen (7, of the state master), as its start (20, of the start master)
// says by its transition (21, its test cleared, without text); listen
// hears a noise to alert (8), which times out back to listen; its deep
// history (9) goes to listen the first time (its test cleared). Awake is
// hit by the player into asleep (10), which wakes into Patrol's history
// when its time is up, into Ears' deep history at a noise. The machine
// starts in Awake (marked initial for walk, of the initial-state master),
// in walk and, as Ears' start says, listen.
func sentryPage(ids map[string]string) vdxgen.Page {
	ss := &sentryShapes{ids: ids}
	shapes := []vdxgen.Shape{
		ss.state("1", "Parallel State", "Awake", "existing", 4.25, 7),
		ss.state("2", "Composite State", "Patrol", "walk", 2.4, 6.9, "1"),
		ss.state("3", "Initial State", "walk", "walk", 1.6, 7.8, "1", "2"),
		ss.state("4", "State", "look", "look", 3.2, 6.3, "1", "2"),
		ss.history("5", "History", 1.2, 5.4, "1", "2"),
		ss.state("6", "Composite State", "Ears", "existing", 6.1, 6.9, "1"),
		ss.start("20", 7.2, 8.3, "1", "6"),
		ss.state("7", "State", "listen", "listen", 5.3, 7.8, "1", "6"),
		ss.state("8", "State", "alert", "alert", 6.9, 6.3, "1", "6"),
		ss.history("9", "Deep History", 5, 5.4, "1", "6"),
		ss.state("10", "State", "asleep", "sleep", 4.25, 2.5),
	}
	var connects []vdxgen.Connect
	for _, a := range [...]struct{ id, test, text, from, to string }{
		{"11", "seePlayer", "seePlayer", "3", "4"},
		{"12", "lostPlayer", "lostPlayer", "4", "3"},
		{"13", "-", "first time", "5", "3"},
		{"21", "-", "", "20", "7"},
		{"14", "noise", "noise", "7", "8"},
		{"15", "timeUp", "timeUp", "8", "7"},
		{"16", "-", "", "9", "7"},
		{"17", "hitByPlayer", "hitByPlayer", "1", "10"},
		{"18", "timeUp", "timeUp", "10", "5"},
		{"19", "noise", "noise", "10", "9"},
	} {
		s, g := ss.arrow(a.id, a.test, a.text, a.from, a.to)
		shapes, connects = append(shapes, s), append(connects, g...)
	}
	ss.done(shapes)
	return vdxgen.Page{ID: "0", Name: "Sentry", Shapes: shapes, Connects: connects}
}

// TestGoldenSentry writes the sentry stencil as a Visio stencil
// (testdata/sentry/sentry.vsx) and a drawing made with it
// (testdata/sentry/sentry.vdx), both golden files, reads the drawing with
// the stencil, without a diagnostic, into the chart of
// testdata/sentry/sentry.golden.json (-update rewrites the three), and
// compiles it into a statechart that runs as drawn.
func TestGoldenSentry(t *testing.T) {
	st := sentry(t)
	var b bytes.Buffer
	if err := visio.WriteStencil(&b, st); err != nil {
		t.Fatal(err)
	}
	charttest.GoldenBytes(t, b.Bytes(), sentryVSX, *update)
	charttest.GoldenBytes(t, withPages(b.Bytes(), sentryPage(masterIDs(t, b.Bytes()))), sentryVDX, *update)

	c, err := visio.ReadFile(sentryVDX, visio.Options{File: "sentry.vdx", Stencil: st})
	if err != nil || len(c.Diagnostics) != 0 {
		t.Fatalf("ReadFile(%s) = %v, %v", sentryVDX, err, c.Diagnostics)
	}
	checkChart(t, c, err)
	wantStates := []string{
		"1 Awake (parallel) initial", "2 Patrol in 1", "3 walk in 2 initial", "4 look in 2", "5 (history) in 2",
		"6 Ears in 1", "20 (start) in 6 initial", "7 listen in 6", "8 alert in 6", "9 (deepHistory) in 6", "10 asleep",
	}
	if got := tree(c); !slices.Equal(got, wantStates) {
		t.Errorf("states = %q\nwant %q", got, wantStates)
	}
	wantTrans := []string{
		"3 -seePlayer-> 4 #1", "4 -lostPlayer-> 3 #1", "5 --> 3 #1", "20 --> 7 #1", "7 -noise-> 8 #1", "8 -timeUp-> 7 #1",
		"9 --> 7 #1", "1 -hitByPlayer-> 10 #1", "10 -timeUp-> 5 #1", "10 -noise-> 9 #2",
	}
	if got := summary(c); !slices.Equal(got, wantTrans) {
		t.Errorf("transitions = %q\nwant %q", got, wantTrans)
	}
	var entry []string
	for _, s := range c.States {
		for _, a := range s.Entry {
			entry = append(entry, s.ID+" "+a.Property+"="+a.Value)
		}
	}
	wantEntry := []string{"1 Animation=existing", "2 Animation=walk", "3 Animation=walk", "4 Animation=look", "6 Animation=existing",
		"7 Animation=listen", "8 Animation=alert", "10 Animation=sleep"}
	if !slices.Equal(entry, wantEntry) {
		t.Errorf("entry actions = %q\nwant %q", entry, wantEntry)
	}
	golden := *c
	golden.Stencil = nil // the stencil has its own file
	charttest.Golden(t, &golden, sentryGolden, *update)

	r, err := compile.Compile(c, compile.Options{Stencil: st})
	if err != nil {
		t.Fatalf("compile.Compile = %v", err)
	}
	if len(r.Diagnostics) != 0 {
		t.Errorf("compile.Compile: %v", r.Diagnostics)
	}
	runSentry(t, r)
}

// runSentry runs the compiled sentry: from walk and listen, through
// asleep, back into each region's history. Each compound's default
// transition enters the state drawn as its start: Patrol's walk, of the
// initial-state master; Ears' listen, the end of its start's transition
// (the start is no state of the table).
func runSentry(t *testing.T, r *compile.Result) {
	t.Helper()
	tb := r.Table
	if !tb.Statechart() || tb.Kind(r.States["1"]) != table.KindParallel || tb.Kind(r.States["5"]) != table.KindHistory ||
		tb.Kind(r.States["9"]) != table.KindDeepHistory || tb.Parent(r.States["2"]) != r.States["1"] || tb.Parent(r.States["4"]) != r.States["2"] {
		t.Fatalf("table: statechart %v, Awake %v, 5 %v, 9 %v, Patrol in %v, look in %v", tb.Statechart(), tb.Kind(r.States["1"]),
			tb.Kind(r.States["5"]), tb.Kind(r.States["9"]), tb.Parent(r.States["2"]), tb.Parent(r.States["4"]))
	}
	if s, ok := r.States["20"]; ok {
		t.Errorf("the start is state %v of the table", s)
	}
	for _, d := range []struct{ from, to string }{{"2", "3"}, {"6", "7"}, {"9", "7"}} {
		tr, ok := tb.Default(r.States[d.from])
		if !ok || tr.To != r.States[d.to] || tr.Test != table.NoTest {
			t.Errorf("Default(%s) = %v to %s, test %v, want to %s without a test", d.from, ok, tb.StateName(tr.To), tr.Test, tb.StateName(r.States[d.to]))
		}
	}
	h := &pollHost{tb: tb}
	a := table.NewAgent[int](tb, 0, h)
	active := func() string {
		var names []string
		for _, s := range a.AppendActive(nil) {
			names = append(names, tb.StateName(s))
		}
		slices.Sort(names)
		return strings.Join(names, " ")
	}
	for _, step := range []struct {
		polled  string // the polled tests that hold
		message string // the message received
		want    string // the states active after the update
	}{
		{"", "", "Awake Ears Patrol listen walk"},
		{"seePlayer noise", "", "Awake Ears Patrol alert look"},
		{"", "hitByPlayer", "asleep"},
		{"timeUp", "", "Awake Ears Patrol listen look"}, // Patrol's history: look; Ears from its start
		{"noise", "", "Awake Ears Patrol alert look"},
		{"", "hitByPlayer", "asleep"},
		{"noise", "", "Awake Ears Patrol alert walk"}, // Ears' history: alert; Patrol from its start
	} {
		h.holds = map[string]bool{}
		for _, p := range strings.Fields(step.polled) {
			h.holds[p] = true
		}
		if step.message != "" {
			ev, ok := tb.LookupTest(step.message, "")
			if !ok {
				t.Fatalf("no message %q", step.message)
			}
			if err := a.Post(ev); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.Update(h); err != nil {
			t.Fatal(err)
		}
		if got := active(); got != step.want {
			t.Errorf("after %q, %q: active %s, want %s", step.polled, step.message, got, step.want)
		}
	}
}

// pollHost answers the polled tests it holds true, by name, and does no
// action.
type pollHost struct {
	tb    *table.Table
	holds map[string]bool
}

func (h *pollHost) Test(_ int, id table.TestID) bool              { return h.holds[h.tb.Test(id).Name] }
func (h *pollHost) Do(_ int, _ table.PropertyID, _ table.ValueID) {}

// TestStencilStatechartDiagnostics reads drawings made with the sentry's
// written stencil that misuse its masters of statecharts: what the reader
// reports, and what it lets through for package compile to report.
func TestStencilStatechartDiagnostics(t *testing.T) {
	st := sentry(t)
	var b bytes.Buffer
	if err := visio.WriteStencil(&b, st); err != nil {
		t.Fatal(err)
	}
	vsx := b.Bytes()
	ids := masterIDs(t, vsx)
	for _, tt := range []struct {
		name    string
		page    func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect)
		states  []string
		diags   []wantDiag // of the reader
		hint    string     // in the hint of the reader's first diagnostic
		trans   []string   // the transitions, when not nil (see summary)
		compile []wantDiag // of package compile, after the reader's
	}{
		{
			// A history at the top: read, and refused by package
			// compile; its transition without a test is its default.
			name: "history at the top",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.history("2", "History", 4, 8)}
				t1, g1 := ss.arrow("3", "timeUp", "", "1", "2")
				t2, g2 := ss.arrow("4", "-", "", "2", "1")
				return append(s, t1, t2), glue(g1, g2)
			},
			states:  []string{"1 a initial", "2 (history)"},
			compile: []wantDiag{{diag.Error, `history state "2" is at the top: it belongs inside a compound state`}},
		},
		{
			// A transition without a test from a state is an error, as
			// ever.
			name: "no test",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "State", "b", "look", 4, 8)}
				t1, g1 := ss.arrow("3", "-", "", "1", "2")
				return append(s, t1), g1
			},
			states: []string{"1 a initial", "2 b"},
			diags:  []wantDiag{{diag.Error, `visio: transition without a test`}},
		},
		{
			// A composite state no transition is glued to, holding
			// nothing, is a state; a parallel state without regions is
			// read, and refused by package compile; a state drawn inside a
			// history is read outside it.
			name: "empty",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Composite State", "C", "walk", 2, 8), ss.state("2", "Parallel State", "P", "look", 6, 8),
					ss.state("3", "Initial State", "a", "walk", 2, 3, "4"), ss.history("4", "Deep History", 2, 3)}
				ss.done(s)
				t1, g1 := ss.arrow("5", "timeUp", "", "3", "2")
				return append(s, t1), g1
			},
			states: []string{"1 C", "2 P (parallel)", "3 a initial", "4 (deepHistory)"},
			diags:  []wantDiag{{diag.Warning, `state 3 "a" is drawn inside shape 4 "H*", a deep history pseudo-state, which holds no states: it is read outside it`}},
			compile: []wantDiag{
				{diag.Error, `shape 2 "P": compile: parallel state "2" has no regions`},
				{diag.Error, `shape 4: compile: history state "4" is at the top`},
			},
		},
		{
			// A region of the initial-state master: the machine starts in
			// the parallel state, which enters all its regions, so that the
			// region is not marked. A transition into the parallel state
			// needs no initial state in it.
			name: "initial region",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Parallel State", "P", "existing", 4, 7), ss.state("2", "Initial State", "r1", "walk", 2, 7, "1"),
					ss.state("3", "State", "r2", "look", 6, 7, "1"), ss.state("4", "State", "out", "sleep", 4, 2)}
				ss.done(s)
				t1, g1 := ss.arrow("5", "hitByPlayer", "", "1", "4")
				t2, g2 := ss.arrow("6", "timeUp", "", "4", "1")
				return append(s, t1, t2), glue(g1, g2)
			},
			states: []string{"1 P (parallel) initial", "2 r1 in 1", "3 r2 in 1", "4 out"},
		},
		{
			// A start at the top starts the machine, so that the
			// initial-state master inside C marks C's initial state, not
			// C; the start's transition, its test cleared, needs none.
			name: "start at the top",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.start("1", 1, 9), ss.state("2", "State", "a", "walk", 2, 8),
					ss.state("3", "Composite State", "C", "existing", 6, 7), ss.state("4", "Initial State", "c1", "look", 6, 8, "3"),
					ss.state("5", "State", "c2", "alert", 6, 6, "3")}
				ss.done(s)
				t1, g1 := ss.arrow("6", "-", "", "1", "2")
				t2, g2 := ss.arrow("7", "timeUp", "", "2", "3")
				t3, g3 := ss.arrow("8", "noise", "", "4", "5")
				t4, g4 := ss.arrow("9", "hitByPlayer", "", "3", "2")
				return append(s, t1, t2, t3, t4), glue(g1, g2, g3, g4)
			},
			states: []string{"1 (start) initial", "2 a", "3 C", "4 c1 in 3 initial", "5 c2 in 3"},
		},
		{
			// A start's transition that keeps the test its master presets
			// (the first of the stencil's) is read without it, with a
			// warning: package compile has nothing more to say.
			name: "start with the master's test",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "Composite State", "C", "existing", 6, 7),
					ss.start("3", 5, 8, "2"), ss.state("4", "State", "c1", "look", 6, 7, "2")}
				ss.done(s)
				t1, g1 := ss.arrow("5", "timeUp", "", "1", "2")
				t2, g2 := ss.arrow("6", "", "", "3", "4")
				t3, g3 := ss.arrow("7", "hitByPlayer", "", "2", "1")
				return append(s, t1, t2, t3), glue(g1, g2, g3)
			},
			states: []string{"1 a initial", "2 C", "3 (start) in 2 initial", "4 c1 in 2"},
			diags: []wantDiag{{diag.Warning, `shape 6 "seePlayer": warning: visio: the transition of shape 3 (Start.3), a start state, has test "seePlayer", which is ignored:` +
				` a start's transition says where its state starts, taken without a test whenever the state is entered (or the machine starts)`}},
			hint:  `clear "Test" in the transition's Shape Data`,
			trans: []string{"1 -timeUp-> 2 #1", "3 --> 4 #1", "2 -hitByPlayer-> 1 #1"},
		},
		{
			// So is a history's, even when its test is not the stencil's
			// (an error on another transition).
			name: "history with a test",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "Composite State", "C", "existing", 6, 7),
					ss.history("3", "Deep History", 5, 8, "2"), ss.state("4", "Initial State", "c1", "look", 6, 7, "2")}
				ss.done(s)
				t1, g1 := ss.arrow("5", "timeUp", "", "1", "3")
				t2, g2 := ss.arrow("6", "jump", "", "3", "4")
				t3, g3 := ss.arrow("7", "hitByPlayer", "", "2", "1")
				return append(s, t1, t2, t3), glue(g1, g2, g3)
			},
			states: []string{"1 a initial", "2 C", "3 (deepHistory) in 2", "4 c1 in 2 initial"},
			diags: []wantDiag{{diag.Warning, `shape 6 "seePlayer": warning: visio: the transition of shape 3 "H*", a deep history state, has test "jump", which is ignored:` +
				` a history's transition is its default, taken without a test whenever its state has no history yet`}},
			hint:  `clear "Test" in the transition's Shape Data`,
			trans: []string{"1 -timeUp-> 3 #1", "3 --> 4 #1", "2 -hitByPlayer-> 1 #1"},
		},
		{
			// A region of the initial-state master in a parallel state
			// whose level starts elsewhere says nothing: a warning.
			name: "initial region where the machine starts elsewhere",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Parallel State", "P", "existing", 4, 7), ss.state("2", "Initial State", "r1", "walk", 2, 7, "1"),
					ss.state("3", "State", "r2", "look", 6, 7, "1"), ss.state("4", "Initial State", "out", "sleep", 4, 2)}
				ss.done(s)
				t1, g1 := ss.arrow("5", "hitByPlayer", "", "1", "4")
				t2, g2 := ss.arrow("6", "timeUp", "", "4", "1")
				return append(s, t1, t2), glue(g1, g2)
			},
			states: []string{"1 P (parallel)", "2 r1 in 1", "3 r2 in 1", "4 out initial"},
			diags: []wantDiag{{diag.Warning, `shape 2 "r1": warning: visio: region "r1" of parallel state "P" is drawn with the "Initial State" master:` +
				` entering "P" enters all its regions, and the machine does not start in it (its level starts elsewhere), so the mark is ignored`}},
			hint: `draw the region with the "Composite State" master`,
		},
		{
			// A composite state without a start that a transition enters:
			// the warning's hint says to draw one. (Package compile warns
			// of it too, as of any compound state without an initial
			// state: the two say the same.)
			name: "no start",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "Composite State", "C", "existing", 6, 7),
					ss.state("3", "State", "c1", "look", 6, 7, "2")}
				ss.done(s)
				t1, g1 := ss.arrow("4", "timeUp", "", "1", "2")
				t2, g2 := ss.arrow("5", "hitByPlayer", "", "2", "1")
				return append(s, t1, t2), glue(g1, g2)
			},
			states:  []string{"1 a initial", "2 C", "3 c1 in 2"},
			diags:   []wantDiag{{diag.Warning, `composite state 2 "C" has no initial state, though transition 4 enters it: it enters state 3 "c1"`}},
			hint:    `draw a shape of the "Start" master in it, with a transition without a test to the state to enter`,
			compile: []wantDiag{{diag.Warning, `state "2" has no initial state: entering it enters "c1", its first`}},
		},
		{
			// Two starts in one compound state: package compile reports
			// them, the reader does not.
			name: "two starts",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "Composite State", "C", "existing", 6, 7),
					ss.start("3", 5, 8, "2"), ss.start("4", 7, 8, "2"), ss.state("5", "State", "c1", "look", 6, 7, "2")}
				ss.done(s)
				t1, g1 := ss.arrow("6", "timeUp", "", "1", "2")
				t2, g2 := ss.arrow("7", "-", "", "3", "5")
				t3, g3 := ss.arrow("8", "-", "", "4", "5")
				return append(s, t1, t2, t3), glue(g1, g2, g3)
			},
			states:  []string{"1 a initial", "2 C", "3 (start) in 2 initial", "4 (start) in 2 initial", "5 c1 in 2"},
			compile: []wantDiag{{diag.Error, `shape 4: compile: state "2" has two start states`}},
		},
		{
			// A start without a transition: package compile reports it,
			// the reader does not (nor that C, which has a start, has no
			// initial state).
			name: "start without a transition",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "Composite State", "C", "existing", 6, 7),
					ss.start("3", 5, 8, "2"), ss.state("4", "State", "c1", "look", 6, 7, "2")}
				ss.done(s)
				t1, g1 := ss.arrow("5", "timeUp", "", "1", "2")
				t2, g2 := ss.arrow("6", "hitByPlayer", "", "2", "1")
				return append(s, t1, t2), glue(g1, g2)
			},
			states:  []string{"1 a initial", "2 C", "3 (start) in 2 initial", "4 c1 in 2"},
			compile: []wantDiag{{diag.Error, `shape 3: compile: start state "3" has 0 transitions; it needs one`}},
		},
		{
			// A state drawn inside a start (in C) is read outside it, in
			// C, with a warning, as one drawn inside a history: package
			// compile sees a start that holds nothing.
			name: "start holding a state",
			page: func(ss *sentryShapes) ([]vdxgen.Shape, []vdxgen.Connect) {
				s := []vdxgen.Shape{ss.state("1", "Initial State", "a", "walk", 2, 8), ss.state("2", "Composite State", "C", "existing", 6, 7),
					ss.start("3", 6, 7, "2"), ss.state("4", "State", "c1", "look", 6, 7, "2", "3")}
				ss.done(s)
				t1, g1 := ss.arrow("5", "timeUp", "", "1", "2")
				t2, g2 := ss.arrow("6", "-", "", "3", "4")
				t3, g3 := ss.arrow("7", "hitByPlayer", "", "2", "1")
				return append(s, t1, t2, t3), glue(g1, g2, g3)
			},
			states: []string{"1 a initial", "2 C", "3 (start) in 2 initial", "4 c1 in 2"},
			diags:  []wantDiag{{diag.Warning, `state 4 "c1" is drawn inside shape 3 (Start.3), a start pseudo-state, which holds no states: it is read outside it`}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ss := &sentryShapes{ids: ids}
			shapes, connects := tt.page(ss)
			data := withPages(vsx, vdxgen.Page{ID: "0", Name: "Page-1", Shapes: shapes, Connects: connects})
			c, err := visio.Read(bytes.NewReader(data), visio.Options{File: "s.vdx", Stencil: st})
			checkChart(t, c, err)
			if got := tree(c); !slices.Equal(got, tt.states) {
				t.Errorf("states = %q\nwant %q", got, tt.states)
			}
			checkDiags(t, c.Diagnostics, tt.diags)
			if tt.hint != "" && (len(c.Diagnostics) == 0 || !strings.Contains(c.Diagnostics[0].Hint, tt.hint)) {
				t.Errorf("diagnostics %v: want the hint %q", c.Diagnostics, tt.hint)
			}
			if got := summary(c); tt.trans != nil && !slices.Equal(got, tt.trans) {
				t.Errorf("transitions = %q\nwant %q", got, tt.trans)
			}
			if c.Diagnostics.HasErrors() {
				return
			}
			r, _ := compile.Compile(c, compile.Options{Stencil: st})
			var mine diag.List
			for _, d := range r.Diagnostics[len(c.Diagnostics):] {
				if d.Severity != diag.Note {
					mine = append(mine, d)
				}
			}
			checkDiags(t, mine, tt.compile)
		})
	}
}

// checkMasterXML checks that the written stencil vsx holds the masters of
// statecharts st names, as Visio draws them: the composite and parallel
// states containers, the history states circles saying H and H*, the
// start a circle filled black (colour 0).
func checkMasterXML(t *testing.T, vsx []byte, st *chart.Stencil) {
	t.Helper()
	for _, m := range []struct{ name, want string }{
		{st.Masters.Composite, "<User NameU='msvStructureType' Name='msvStructureType' ID='1'><Value Unit='STR'>Container</Value>"},
		{st.Masters.Parallel, "<User NameU='msvStructureType' Name='msvStructureType' ID='1'><Value Unit='STR'>Container</Value>"},
		{st.Masters.History, "<Ellipse IX='1'>"},
		{st.Masters.DeepHistory, "<Ellipse IX='1'>"},
		{st.Masters.Start, "<Ellipse IX='1'>"},
		{st.Masters.Start, "<Fill><FillForegnd>0</FillForegnd>"},
	} {
		if m.name == "" {
			continue
		}
		start := bytes.Index(vsx, []byte(fmt.Sprintf(" NameU='%s' ", m.name)))
		if start < 0 {
			t.Errorf("no master %q", m.name)
			continue
		}
		end := bytes.Index(vsx[start:], []byte("</Master>"))
		if !bytes.Contains(vsx[start:start+end], []byte(m.want)) {
			t.Errorf("master %q does not hold %s", m.name, m.want)
		}
	}
}
