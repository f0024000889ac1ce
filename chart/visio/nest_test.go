package visio_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
	"github.com/fsmforge/fsmforge/table"
)

// Helpers that draw the shapes of the nesting tests.
var (
	box  = func(id, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, Text: text} }
	line = func(id, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, OneD: true, Text: text} }
	at   = func(s vdxgen.Shape, x, y, w, h float64) vdxgen.Shape {
		s.XForm = &vdxgen.XForm{PinX: x, PinY: y, Width: w, Height: h}
		return s
	}
	in = func(s vdxgen.Shape, containers ...string) vdxgen.Shape {
		s.Relationships = vdxgen.In(containers...)
		return s
	}
	uml = func(id, master, text string) vdxgen.Shape { return vdxgen.Shape{ID: id, Master: master, Text: text} }
	arc = func(id, text string) vdxgen.Shape {
		return vdxgen.Shape{ID: id, Master: vdxgen.UMLConnector, OneD: true, Text: text}
	}
	glue = func(g ...[]vdxgen.Connect) []vdxgen.Connect { return slices.Concat(g...) }
)

// umlDrawing draws a UML state machine with the masters of Visio's UML
// stencil: a start (1) leads to Idle (9); the composite state Busy (2,
// named by its heading 3) holds a start (4), A (5), B (6), a final state
// (7) and a shallow history (8), through Relationships cells, with the
// connectors between them: A -next-> B -finish-> final. Idle -go-> Busy;
// Busy's completion (its unlabelled arrow) and abort lead back to Idle;
// resume enters Busy's history, whose default is A.
func umlDrawing() *vdxgen.Drawing {
	return &vdxgen.Drawing{Masters: vdxgen.UMLMasters(), Pages: []vdxgen.Page{{ID: "0", Name: "Page-1", Shapes: []vdxgen.Shape{
		at(uml("1", vdxgen.UMLInitial, ""), 1, 10, 0.25, 0.25),
		at(vdxgen.Composite("2", "3", "Busy", "4", "5", "6", "7", "8", "21", "22", "23", "28"), 4, 5, 6, 4),
		at(in(uml("4", vdxgen.UMLInitial, ""), "2"), 1.5, 6, 0.25, 0.25),
		at(in(uml("5", vdxgen.UMLState, "A"), "2"), 3, 6, 1, 0.5),
		at(in(uml("6", vdxgen.UMLState, "B"), "2"), 5, 6, 1, 0.5),
		at(in(uml("7", vdxgen.UMLFinal, ""), "2"), 6.5, 6, 0.3, 0.3),
		at(in(uml("8", vdxgen.UMLShallowHistory, ""), "2"), 1.5, 4, 0.3, 0.3),
		at(uml("9", vdxgen.UMLState, "Idle"), 4, 9, 1.5, 0.75),
		arc("20", ""), in(arc("21", ""), "2"), in(arc("22", "next"), "2"), in(arc("23", "finish"), "2"),
		arc("24", "go"), arc("25", ""), arc("26", "abort"), arc("27", "resume"), in(arc("28", ""), "2"),
	}, Connects: glue(vdxgen.Glue("20", "1", "9"), vdxgen.Glue("21", "4", "5"), vdxgen.Glue("22", "5", "6"), vdxgen.Glue("23", "6", "7"),
		vdxgen.Glue("24", "9", "2"), vdxgen.Glue("25", "2", "9"), vdxgen.Glue("26", "2", "9"), vdxgen.Glue("27", "9", "8"), vdxgen.Glue("28", "8", "5")),
	}}}
}

// TestNesting reads states drawn inside others, as Visio draws them: UML
// composite states (containers named by their heading) with their start,
// final and history pseudo-states, groups that are states, containers
// listed on one side of the Relationships cells, containers nested in
// containers, frames around states, and, with a stencil, a state that is
// a container and a container of no master of the stencil. Each reads
// alike from a .vdx and a .vsdx.
func TestNesting(t *testing.T) {
	startMaster := vdxgen.Master{ID: "0", Name: "Initial state", Shape: vdxgen.Shape{ID: "5"}}
	compositeMaster := vdxgen.Master{ID: "1", Name: "Composite state", Shape: vdxgen.Shape{ID: "5"}}
	frameMaster := vdxgen.Master{ID: "9", Name: "Container 1", Shape: vdxgen.Shape{ID: "5", Type: "Group", Shapes: []vdxgen.Shape{{ID: "6", Text: "Heading"}}}}
	page := func(masters []vdxgen.Master, shapes []vdxgen.Shape, connects ...[]vdxgen.Connect) *vdxgen.Drawing {
		return &vdxgen.Drawing{Masters: masters, Pages: []vdxgen.Page{{ID: "0", Name: "Page-1", Shapes: shapes, Connects: glue(connects...)}}}
	}
	// With the stencil: walkLeft (1, initial) and walkRight (2) are
	// inside a state 9 "alive", or inside a Visio container 9 whose
	// heading says "alive"; alive -hitByPlayer-> death (3).
	stencil := func(container vdxgen.Shape, glued bool) *vdxgen.Drawing {
		d := goomba([]vdxgen.Shape{container, vdxgen.Transition("10", "hitByPlayer")})
		d.Masters = append(d.Masters, frameMaster)
		pg := &d.Pages[0]
		pg.Shapes = slices.DeleteFunc(pg.Shapes, func(s vdxgen.Shape) bool { return s.ID == "6" || s.ID == "7" })
		pg.Connects = slices.DeleteFunc(pg.Connects, func(c vdxgen.Connect) bool { return c.From == "6" || c.From == "7" })
		if glued {
			pg.Connects = append(pg.Connects, vdxgen.Glue("10", "9", "3")...)
		} else {
			pg.Connects = append(pg.Connects, vdxgen.Glue("10", "1", "3")...)
		}
		return d
	}
	stateContainer := vdxgen.State("9", vdxgen.MasterState, "alive", "existing", "existing")
	stateContainer.Relationships = vdxgen.Holds("1", "2")
	visioContainer := vdxgen.Shape{ID: "9", Master: "9", Type: "Group", Relationships: vdxgen.Holds("1", "2"),
		Shapes: []vdxgen.Shape{{ID: "11", MasterShape: "6", Text: "alive"}}}
	stencilStates := []string{"1 walkLeft in 9 initial", "2 walkRight in 9", "3 death", "9 alive initial"}
	stencilTransitions := []string{"1 -hitTriggerLeft-> 2 #1", "2 -hitTriggerRight-> 1 #1", "3 -animationDone-> (final) #1", "9 -hitByPlayer-> 3 #1"}

	for _, tt := range []struct {
		name        string
		d           *vdxgen.Drawing
		stencil     bool
		states      []string // "ID name in parent initial", kind when not normal
		transitions []string
		diags       []wantDiag
		compiles    bool // compile.Compile reads the chart without an error
	}{
		{
			name: "uml", d: umlDrawing(), compiles: true,
			states: []string{"1 (start) initial", "2 Busy", "4 (start) in 2 initial", "5 A in 2", "6 B in 2", "7 (end) in 2", "8 (history) in 2", "9 Idle"},
			transitions: []string{"1 --> 9 #1", "4 --> 5 #1", "5 -next-> 6 #1", "6 -finish-> 7 #1", "9 -go-> 2 #1", "2 --> 9 #1", "2 -abort-> 9 #2",
				"9 -resume-> 8 #2", "8 --> 5 #1"},
		},
		{
			// Group 1 "Outer" holds A (2), B (3) and a start (9); the group
			// and its members are glued.
			name: "group",
			d: page([]vdxgen.Master{startMaster}, []vdxgen.Shape{
				{ID: "1", Text: "Outer", Shapes: []vdxgen.Shape{box("2", "A"), box("3", "B"), {ID: "9", Master: "0"}}},
				box("4", "X"), line("5", "go"), line("6", "out"), line("7", "in"), line("8", ""),
			}, vdxgen.Glue("5", "2", "3"), vdxgen.Glue("6", "1", "4"), vdxgen.Glue("7", "4", "2"), vdxgen.Glue("8", "9", "2")),
			states:      []string{"1 Outer", "2 A in 1", "3 B in 1", "9 (start) in 1 initial", "4 X"},
			transitions: []string{"2 -go-> 3 #1", "1 -out-> 4 #1", "4 -in-> 2 #1", "9 --> 2 #1"},
		},
		{
			// Container 1 "Busy" lists a start (2), A (3) and B (4) as its
			// members; of those, only 2 and 3 name it as their container.
			name: "one-sided",
			d: page([]vdxgen.Master{startMaster}, []vdxgen.Shape{
				{ID: "1", Text: "Busy", Relationships: vdxgen.Holds("2", "3", "4")},
				in(vdxgen.Shape{ID: "2", Master: "0"}, "1"), in(box("3", "A"), "1"), box("4", "B"),
				box("5", "X"), line("6", ""), line("7", "next"), line("8", "abort"), line("9", "resume"),
			}, vdxgen.Glue("6", "2", "3"), vdxgen.Glue("7", "3", "4"), vdxgen.Glue("8", "1", "5"), vdxgen.Glue("9", "5", "1")),
			states:      []string{"1 Busy", "2 (start) in 1 initial", "3 A in 1", "4 B in 1", "5 X"},
			transitions: []string{"2 --> 3 #1", "3 -next-> 4 #1", "1 -abort-> 5 #1", "5 -resume-> 1 #1"},
		},
		{
			// Outer (1) holds Inner (2) and A (3); Inner holds B (4), which
			// lists both as its containers, the outer first: the smaller
			// is its parent.
			name: "nested containers",
			d: page(nil, []vdxgen.Shape{
				at(box("1", "Outer"), 4, 5, 6, 6), at(in(box("2", "Inner"), "1"), 5, 5, 3, 3), at(in(box("3", "A"), "1"), 2, 5, 1, 0.5),
				at(in(box("4", "B"), "1", "2"), 5, 5, 1, 0.5), line("5", "in"), line("6", "reset"), line("7", "up"),
			}, vdxgen.Glue("5", "3", "2"), vdxgen.Glue("6", "1", "3"), vdxgen.Glue("7", "4", "3")),
			states:      []string{"1 Outer", "2 Inner in 1", "3 A in 1", "4 B in 2"},
			transitions: []string{"3 -in-> 2 #1", "1 -reset-> 3 #1", "4 -up-> 3 #1"},
			diags: []wantDiag{{diag.Warning, `shape 2 "Inner": warning: visio: composite state 2 "Inner" has no initial state, though transition 5 enters it: ` +
				`it enters state 4 "B", the first of its states in the file`}},
		},
		{
			// A container no connector is glued to is a frame, not a state:
			// the flat chart it was.
			name: "frame",
			d: page(nil, []vdxgen.Shape{
				{ID: "1", Text: "Legend", Relationships: vdxgen.Holds("2", "3")}, in(box("2", "A"), "1"), in(box("3", "B"), "1"), line("4", "go"),
			}, vdxgen.Glue("4", "2", "3")),
			states:      []string{"2 A", "3 B"},
			transitions: []string{"2 -go-> 3 #1"},
		},
		{
			// But a container of a composite-state master is a state, glued
			// or not: A and B are inside it.
			name: "composite frame",
			d: page([]vdxgen.Master{compositeMaster}, []vdxgen.Shape{
				{ID: "1", Master: "1", Text: "Both", Relationships: vdxgen.Holds("2", "3")}, in(box("2", "A"), "1"), in(box("3", "B"), "1"), line("4", "go"),
			}, vdxgen.Glue("4", "2", "3")),
			states:      []string{"1 Both", "2 A in 1", "3 B in 1"},
			transitions: []string{"2 -go-> 3 #1"},
		},
		{
			name: "stencil state container", d: stencil(stateContainer, true), stencil: true, compiles: true,
			states: stencilStates, transitions: stencilTransitions,
		},
		{
			// A Visio container, of a master the stencil does not name, that
			// a transition is glued to is a composite state named by its
			// heading: the stencil has no composite master of its own.
			name: "stencil visio container", d: stencil(visioContainer, true), stencil: true, compiles: true,
			states: stencilStates, transitions: stencilTransitions,
		},
		{
			// So is a container drawn without a master.
			name: "stencil container without master", d: stencil(vdxgen.Shape{ID: "9", Text: "alive", Relationships: vdxgen.Holds("1", "2")}, true),
			stencil: true, compiles: true, states: stencilStates, transitions: stencilTransitions,
		},
		{
			// One that no transition is glued to is a frame, as before.
			name: "stencil frame", d: stencil(visioContainer, false), stencil: true, compiles: true,
			states:      []string{"1 walkLeft initial", "2 walkRight", "3 death"},
			transitions: []string{"1 -hitTriggerLeft-> 2 #1", "2 -hitTriggerRight-> 1 #1", "3 -animationDone-> (final) #1", "1 -hitByPlayer-> 3 #2"},
			diags:       []wantDiag{{diag.Warning, `visio: master "Container 1" is not in stencil "goomba": its 1 shapes are ignored`}},
		},
	} {
		for _, format := range []string{"vdx", "vsdx"} {
			t.Run(tt.name+"."+format, func(t *testing.T) {
				data := tt.d.Bytes()
				if format == "vsdx" {
					data = vsdxgen.Bytes(tt.d, vsdxgen.Options{})
				}
				opt := visio.Options{File: "n." + format}
				if tt.stencil {
					opt.Stencil = charttest.Stencil(t)
				}
				c, err := visio.Read(bytes.NewReader(data), opt)
				if err != nil {
					t.Fatalf("Read = %v", err)
				}
				checkChart(t, c, err)
				if got := tree(c); !slices.Equal(got, tt.states) {
					t.Errorf("states = %q\nwant %q", got, tt.states)
				}
				if got := summary(c); !slices.Equal(got, tt.transitions) {
					t.Errorf("transitions = %q\nwant %q", got, tt.transitions)
				}
				checkDiags(t, c.Diagnostics, tt.diags)
				if tt.compiles {
					if r, err := compile.Compile(c, compile.Options{}); err != nil || r.Table == nil {
						t.Errorf("compile.Compile = %v", err)
					}
				}
			})
		}
	}
}

// tree renders a chart's states as "ID name in parent initial", with the
// kind in parentheses for the name of a pseudo-state.
func tree(c *chart.Chart) []string {
	var out []string
	for _, s := range c.States {
		name := s.Name
		if s.Kind != chart.NormalState {
			name = strings.TrimSpace(name + " (" + s.Kind.String() + ")")
		}
		line := s.ID + " " + name
		if s.Parent != "" {
			line += " in " + s.Parent
		}
		if s.Initial {
			line += " initial"
		}
		out = append(out, line)
	}
	return out
}

// TestNestingDiagnostics checks what the reader reports of nesting it
// cannot read as drawn: states drawn inside themselves, regions of
// orthogonal states, states inside pseudo-states, composite states
// without an initial state that a transition enters, and the parts of
// parallel regions it does not read.
func TestNestingDiagnostics(t *testing.T) {
	masters := []vdxgen.Master{
		{ID: "0", Name: "Region", Shape: vdxgen.Shape{ID: "5"}}, {ID: "1", Name: "Decision", Shape: vdxgen.Shape{ID: "5"}},
		{ID: "2", Name: "Fork", Shape: vdxgen.Shape{ID: "5"}},
	}
	masters = append(masters, vdxgen.UMLMasters()...)
	page := func(shapes []vdxgen.Shape, connects ...[]vdxgen.Connect) *vdxgen.Drawing {
		return &vdxgen.Drawing{Masters: masters, Pages: []vdxgen.Page{{ID: "0", Name: "Page-1", Shapes: shapes, Connects: glue(connects...)}}}
	}
	for _, tt := range []struct {
		name   string
		d      *vdxgen.Drawing
		states []string
		diags  []wantDiag
	}{
		{
			// A holds B and B holds A: B is read at the top level.
			name: "cycle",
			d: page([]vdxgen.Shape{
				{ID: "1", Text: "A", Relationships: "SUM(DEPENDSON(1,Sheet.2!SheetRef()),DEPENDSON(4,Sheet.2!SheetRef()))"},
				{ID: "2", Text: "B", Relationships: "SUM(DEPENDSON(1,Sheet.1!SheetRef()),DEPENDSON(4,Sheet.1!SheetRef()))"},
				line("3", "x"),
			}, vdxgen.Glue("3", "1", "2")),
			states: []string{"1 A in 2", "2 B"},
			diags: []wantDiag{
				{diag.Error, `c.vdx:46:1: page "Page-1", shape 2 "B": visio: state 2 "B" is drawn inside itself: it is inside state 1 "A", which is inside it ` +
					`(groups or containers that hold each other); it is read at the top level`},
				{diag.Warning, `shape 2 "B": warning: visio: composite state 2 "B" has no initial state, though transition 3 enters it`},
			},
		},
		{
			// Composite P (1) holds region R (3), which holds S (4).
			name: "region",
			d: page([]vdxgen.Shape{
				at(vdxgen.Composite("1", "2", "P", "3", "4"), 4, 5, 6, 4), at(in(vdxgen.Shape{ID: "3", Master: "0", Text: "R", Relationships: vdxgen.Holds("4")}, "1"), 4, 5, 5, 3),
				at(in(box("4", "S"), "3", "1"), 4, 5, 1, 0.5), box("5", "X"), line("6", "in"), line("7", "out"),
			}, vdxgen.Glue("6", "5", "1"), vdxgen.Glue("7", "4", "5")),
			states: []string{"1 P", "4 S in 1", "5 X"},
			diags: []wantDiag{
				{diag.Error, `page "Page-1", shape 3 "R": visio: a region of an orthogonal state is not supported: the Visio reader reads no parallel regions; the shape is left out`},
				{diag.Warning, `shape 1 "P": warning: visio: composite state 1 "P" has no initial state, though transition 6 enters it: it enters state 4 "S", the first of its states in the file`},
			},
		},
		{
			// S (2) is drawn inside a choice (1): it is read outside it.
			name: "pseudo-state",
			d: page([]vdxgen.Shape{
				{ID: "1", Master: "1", Relationships: vdxgen.Holds("2")}, in(box("2", "S"), "1"), line("3", "x"),
			}, vdxgen.Glue("3", "1", "2")),
			states: []string{"1 (choice)", "2 S"},
			diags:  []wantDiag{{diag.Warning, `shape 2 "S": warning: visio: state 2 "S" is drawn inside shape 1 (Sheet.1), a choice pseudo-state, which holds no states: it is read outside it`}},
		},
		{
			// A history state at the top, a fork and an orthogonal state:
			// the first is read (package compile refuses a history state
			// outside a compound state), the others are left out.
			name: "unsupported",
			d: page([]vdxgen.Shape{
				box("1", "A"), uml("2", vdxgen.UMLShallowHistory, "H"), {ID: "3", Master: "2"}, {ID: "4", Name: "Orthogonal state", Text: "O"}, line("5", "back"),
			}, vdxgen.Glue("5", "1", "2")),
			states: []string{"1 A", "2 (history)"},
			diags: []wantDiag{
				{diag.Error, `c.vdx:47:1: page "Page-1", shape 3 "Sheet.3": visio: a fork is not supported: the Visio reader reads no parallel regions; the shape is left out`},
				{diag.Error, `shape 4 "O": visio: an orthogonal state is not supported: the Visio reader reads no parallel regions; the shape is left out`},
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := visio.Read(bytes.NewReader(tt.d.Bytes()), visio.Options{File: "c.vdx"})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			checkChart(t, c, err)
			if got := tree(c); !slices.Equal(got, tt.states) {
				t.Errorf("states = %q\nwant %q", got, tt.states)
			}
			checkDiags(t, c.Diagnostics, tt.diags)
		})
	}
}

// TestUMLCompile compiles the UML drawing into a statechart and runs it:
// Busy starts in A; its history enters the state of Busy that was active
// when it was left; its final state completes it.
func TestUMLCompile(t *testing.T) {
	c, err := visio.Read(bytes.NewReader(umlDrawing().Bytes()), visio.Options{File: "uml.vdx"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := compile.Compile(c, compile.Options{Chain: true})
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table
	if !tb.Statechart() || tb.Kind(r.States["2"]) != table.KindBasic || tb.Parent(r.States["5"]) != r.States["2"] ||
		tb.Kind(r.States["7"]) != table.KindFinal || tb.Kind(r.States["8"]) != table.KindHistory {
		t.Fatalf("table: statechart %v, Busy %v, A in %v, 7 %v, 8 %v", tb.Statechart(), tb.Kind(r.States["2"]), tb.Parent(r.States["5"]),
			tb.Kind(r.States["7"]), tb.Kind(r.States["8"]))
	}
	a := table.NewAgent[int](tb, 0, nil)
	for _, step := range []struct{ event, want string }{
		{"", "Idle"}, {"go", "A"}, {"next", "B"}, {"abort", "Idle"}, {"resume", "B"}, {"finish", "Idle"},
	} {
		if step.event != "" {
			ev, ok := tb.LookupTest(step.event, "")
			if !ok {
				t.Fatalf("no event %q", step.event)
			}
			if err := a.Post(ev); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.Update(nil); err != nil {
			t.Fatal(err)
		}
		if a.Name() != step.want {
			t.Errorf("after %q: in %s, want %s", step.event, a.Name(), step.want)
		}
	}
}
