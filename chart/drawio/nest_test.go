package drawio_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// in is a vertex drawn inside parent, at (x, y) relative to it.
func in(id, value, style, parent string, x, y int) string {
	return `<mxCell id="` + id + `" value="` + xmlEscape(value) + `" style="` + style + `" vertex="1" parent="` + parent + `"><mxGeometry x="` +
		strconv.Itoa(x) + `" y="` + strconv.Itoa(y) + `" width="80" height="40" as="geometry"/></mxCell>`
}

// obj is a vertex inside parent with Edit Data attrs.
func obj(id, label, attrs, style, parent string) string {
	return `<object label="` + xmlEscape(label) + `" ` + attrs + ` id="` + id + `"><mxCell style="` + style + `" vertex="1" parent="` + parent + `"><mxGeometry width="80" height="40" as="geometry"/></mxCell></object>`
}

// also is an edge that adds a target to transition t.
func also(id, t, source, target string) string {
	return `<object label="" fsmforgeAlso="` + t + `" id="` + id + `"><mxCell style="dashed=1;" edge="1" parent="1" source="` + source + `" target="` + target + `"><mxGeometry relative="1" as="geometry"/></mxCell></object>`
}

const (
	box     = "rounded=1;whiteSpace=wrap;container=1;"
	startSt = "ellipse;shape=startState;fillColor=#000000;"
	endSt   = "ellipse;shape=endState;fillColor=#000000;"
	ssStart = "ellipse;noLabel=1;fillColor=#000000;"
)

// TestNested reads what nesting draws, construct by construct: the chart
// (rendered), and the diagnostics with their positions (as Error renders
// them: `shape a "A": drawio: ...`). Unless a case lists errors,
// the reading must have none.
func TestNested(t *testing.T) {
	for _, tt := range []struct {
		name  string
		xml   string
		want  []string // in the rendering of the chart
		diags []string // in the diagnostics, as Error renders them
	}{
		{"containers nest, groups do not",
			model(vertex("s", "", startSt), `<mxCell id="on" value="On" style="swimlane;" vertex="1" parent="1"><mxGeometry x="100" y="100" width="300" height="200" as="geometry"/></mxCell>`,
				in("g", "", "group;", "on", 10, 30), in("a", "A", "", "g", 5, 5), in("b", "B", "", "on", 150, 30),
				`<mxCell id="c" value="C" style="`+box+`" vertex="1" parent="on" collapsed="1"><mxGeometry x="10" y="100" width="80" height="40" as="geometry"/></mxCell>`,
				in("d", "D", "", "c", 5, 5), in("is", "", startSt, "on", 200, 150),
				edge("e0", "", "", "s", "on"), edge("e1", "", "", "is", "a"), edge("e2", "go", "", "b", "d")),
			[]string{`state "on" name="On" kind=normal initial=false parent=""`,
				`state "a" name="A" kind=normal initial=false parent="on"`, // the group is only drawn
				`state "c" name="C" kind=normal initial=false parent="on"`,
				`state "d" name="D" kind=normal initial=false parent="c"`, // collapsed, it keeps it
				`state "is" name="" kind=start initial=true parent="on"`,
				`transition "e2" from="b" any=false order=1 test="go" value="" label="go" event="go" guard="" action="" target=d`},
			nil},
		{"boxes add up",
			model(`<mxCell id="on" value="On" style="swimlane;" vertex="1" parent="1"><mxGeometry x="100" y="100" width="300" height="200" as="geometry"/></mxCell>`,
				in("a", "A", "", "on", 10, 30)),
			nil, nil},
		{"final state of a compound",
			model(vertex("s", "", startSt), group("on", "On", "1"), obj("a", "A", `fsmforgeInitial="1"`, "", "on"), in("f", "", endSt, "on", 0, 0), vertex("off", "Off", ""),
				edge("e0", "", "", "s", "on"), edge("e1", "done", "", "a", "f"), edge("e2", "", "", "on", "off")),
			[]string{`state "a" name="A" kind=normal initial=true parent="on"`, `state "f" name="" kind=end initial=false parent="on"`,
				`transition "e2" from="on" any=false order=1 test="" value="" label="" event="" guard="" action="" target=off`},
			nil},
		{"a nameless container marked a state",
			model(vertex("s", "", startSt), obj("on", "", `fsmforgeInitial="0"`, box, "1"), obj("a", "A", `fsmforgeInitial="1"`, "", "on"), edge("e0", "", "", "s", "on")),
			[]string{`state "on" name="" kind=normal initial=false parent=""`, `state "a" name="A" kind=normal initial=true parent="on"`},
			nil},
		{"history and its default",
			model(vertex("s", "", startSt), group("g", "G", "1"), in("gi", "", startSt, "g", 0, 0), in("h", "H", "ellipse;", "g", 0, 0), in("k", "H*", "ellipse;", "g", 0, 0),
				in("a", "A", "", "g", 0, 0), in("b", "B", "", "g", 0, 0), vertex("x", "X", ""),
				edge("e0", "", "", "s", "g"), edge("e1", "", "", "gi", "a"), edge("e2", "", "", "h", "b"), edge("e3", "back", "", "x", "h"), edge("e4", "deep", "", "x", "k"), edge("e5", "out", "", "g", "x")),
			[]string{`state "h" name="" kind=history initial=false parent="g"`, `state "k" name="" kind=deepHistory initial=false parent="g"`,
				`transition "e2" from="h" any=false order=1 test="" value="" label="" event="" guard="" action="" target=b`,
				// UML's default: where the start state leads.
				`transition "k#1" from="k" any=false order=1 test="" value="" label="" event="" guard="" action="" target=a`},
			[]string{`shape k "H*": note: drawio: history k has no transition: when there is no history yet, it enters "A", where the start state of "G" leads, as UML enters the state`}},
		{"history default from the initial mark",
			model(vertex("s", "", startSt), group("g", "G", "1"), in("h", "H", "ellipse;", "g", 0, 0), obj("a", "A", `fsmforgeInitial="1"`, "", "g"),
				edge("e0", "", "", "s", "h")),
			[]string{`transition "h#1" from="h" any=false order=1 test="" value="" label="" event="" guard="" action="" target=a`},
			[]string{`shape h "H": note: drawio: history h has no transition: when there is no history yet, it enters "A", the initial state of "G", as UML enters the state`}},
		{"history errors",
			model(vertex("s", "", startSt), vertex("top", "H", "ellipse;"), group("g", "G", "1"), in("gi", "", startSt, "g", 0, 0), in("a", "A", "", "g", 0, 0),
				in("h1", "H", "ellipse;", "g", 0, 0), in("h2", "H*", "ellipse;", "g", 0, 0), in("h3", "H", "ellipse;", "g", 0, 0), vertex("x", "X", ""),
				group("n", "N", "1"), in("h4", "H", "ellipse;", "n", 0, 0), in("na", "NA", "", "n", 0, 0),
				edge("e0", "", "", "s", "g"), edge("e1", "", "", "gi", "a"), edge("e2", "", "", "h1", "x"), edge("e3", "[ready]", "", "h2", "a"),
				edge("e4", "", "", "h3", "a"), edge("e5", "", "", "h3", "a"), edge("e6", "", "", "top", "x")),
			[]string{`state "h1" name="" kind=history`},
			[]string{`shape top "H": drawio: history top is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`,
				`shape e2: drawio: the transition of history h1 goes to "X", which is not inside state "G": a history enters the states of its own state`,
				`shape e3 "[ready]": drawio: the transition of history h2 has a trigger or a guard ("[ready]")`,
				`shape h3 "H": drawio: history h3 has 2 transitions: a history has one, its default`,
				`shape h4 "H": drawio: history h4 has no transition, and state "N" has no start state whose one transition, nor a state marked initial, says which state to enter when there is no history yet`}},
		{"parallel regions",
			model(vertex("s", "", startSt), obj("p", "Combat", `fsmforgeParallel="1"`, "swimlane;", "1"),
				in("r1", "Weapon", box, "p", 0, 30), in("r1i", "", startSt, "r1", 0, 0), in("aim", "Aim", "", "r1", 0, 0), in("fire", "Fire", "", "r1", 0, 0),
				in("r2", "Movement", box, "p", 0, 130), in("r2i", "", startSt, "r2", 0, 0), in("stand", "Stand", "", "r2", 0, 0), in("chase", "Chase", "", "r2", 0, 0),
				vertex("x", "X", ""),
				edge("e0", "", "", "s", "p"), edge("e1", "", "", "r1i", "aim"), edge("e2", "", "", "r2i", "stand"),
				edge("e3", "fight", "", "x", "fire"), also("e3b", "e3", "x", "chase"), edge("e4", "calm", "", "p", "x")),
			[]string{`state "p" name="Combat" kind=parallel initial=false parent=""`, `state "r1" name="Weapon" kind=normal initial=false parent="p"`,
				`state "chase" name="Chase" kind=normal initial=false parent="r2"`,
				`transition "e3" from="x" any=false order=1 test="fight" value="" label="fight" event="fight" guard="" action="" target=fire push=false also=[chase]`},
			nil},
		{"parallel errors",
			model(vertex("s", "", startSt), obj("p", "P", `fsmforgeParallel="1"`, "swimlane;", "1"), in("r", "R", box, "p", 0, 0), in("ri", "", startSt, "r", 0, 0), in("ra", "RA", "", "r", 0, 0),
				in("ps", "", startSt, "p", 0, 0), obj("q", "Q", `fsmforgeParallel="1"`, "", "1"), obj("z", "Z", `fsmforgeParallel="maybe"`, "", "1"),
				edge("e0", "", "", "s", "p"), edge("e1", "", "", "ri", "ra"), edge("e2", "", "", "ps", "r")),
			[]string{`state "q" name="Q" kind=normal`},
			[]string{`shape ps: drawio: a start pseudo-state inside parallel state "P": the states inside a parallel state are its regions`,
				`shape q "Q": warning: drawio: state q is marked fsmforgeParallel = 1 but holds no states: read as a plain state`,
				`shape z "Z": warning: drawio: fsmforgeParallel "maybe" is not 1 or 0; ignored`}},
		{"edges that add a target, wrongly",
			model(vertex("s", "", startSt), vertex("a", "A", ""), vertex("b", "B", ""), vertex("c", "C", ""),
				edge("e0", "", "", "s", "a"), edge("e1", "go", "", "a", "b"), edge("e2", "stop", "", "a", ""),
				also("x1", "nope", "a", "c"), also("x2", "e1", "b", "c"), also("x3", "e1", "a", ""), also("x4", "e2", "a", "c")),
			[]string{`transition "e1" from="a" any=false order=1 test="go" value="" label="go" event="go" guard="" action="" target=b push=false`},
			[]string{`shape x1: warning: drawio: the edge adds a target to transition "nope", which the page does not have; ignored`,
				`shape x2: warning: drawio: the edge adds a target to transition e1, but does not start at the state it leaves; ignored`,
				`shape x3: warning: drawio: the edge adds a target to transition e1, but ends on no state; ignored`,
				`shape x4: warning: drawio: the edge adds a target to transition e2, which enters no state; ignored`}},
		{"entering a compound without an initial state",
			model(vertex("s", "", startSt), group("g", "G", "1"), in("a", "A", "", "g", 0, 0), in("b", "B", "", "g", 0, 0),
				group("n", "N", "1"), in("na", "NA", "", "n", 0, 0), edge("e0", "", "", "s", "g"), edge("e1", "", "", "s", "na")),
			nil,
			// N is entered only through NA: it needs no initial state.
			[]string{`shape g "G": drawio: state "G" holds states but no initial state, and transition e0 enters it: the drawing does not say which of them the machine is then in (a statechart would enter "A", the first in the file)`}},
		{"statechart",
			`<mxGraphModel><root><object label="" fsmforgeStatechart="1" id="0"><mxCell/></object><mxCell id="1" parent="0"/>` + vertex("a", "A", "") + `</root></mxGraphModel>`,
			[]string{`state "a"`}, nil},
		{"StateSmith history",
			model(vertex("i", "$initial_state", ssStart), group("g", "G", "1"), inside("gi", "$initial_state", ssStart, "g"), inside("h", "$H", "ellipse;", "g"),
				group("a", "A", "g"), inside("hc", "$HC", "", "a"), inside("ai", "$initial_state", ssStart, "a"), inside("a1", "A1", "", "a"), inside("a2", "A2", "", "a"),
				inside("b", "B", "", "g"), vertex("x", "X", ""),
				edge("e0", "", "", "i", "g"), edge("e1", "", "", "gi", "h"), edge("e2", "", "", "h", "a"), edge("e3", "", "", "ai", "a1"),
				edge("e4", "NEXT", "", "a1", "a2"), edge("e5", "OUT", "", "g", "x"), edge("e6", "IN", "", "x", "g")),
			[]string{`state "h" name="" kind=deepHistory initial=false parent="g"`},
			[]string{`shape h: note: drawio: $H h: the $HC in state "A" carry the history of state "G" to every level: read as a deep history`}},
		{"StateSmith history errors",
			model(vertex("i", "$initial_state", ssStart), group("g", "G", "1"), inside("gi", "$initial_state", ssStart, "g"), inside("h", "$H", "", "g"), inside("h2", "$H", "", "g"),
				group("a", "A", "g"), inside("hc", "$HC", "", "a"), inside("ai", "$initial_state", ssStart, "a"), group("a1", "A1", "a"), inside("a1i", "$initial_state", ssStart, "a1"), inside("a11", "A11", "", "a1"),
				group("k", "K", "1"), inside("khc", "$HC", "", "k"), inside("kk", "KK", "", "k"), vertex("x", "X", ""),
				edge("e0", "", "", "i", "g"), edge("e1", "", "", "gi", "a"), edge("e3", "", "", "ai", "a1"), edge("e4", "", "", "a1i", "a11"),
				edge("e5", "", "", "h2", "a"), edge("e6", "", "", "x", "khc")),
			nil,
			[]string{`shape h: drawio: $H h has no transition: StateSmith requires one, its default, to the state it enters when there is no history yet`,
				`shape h2: drawio: $H h2 is the second $H in state "G", after h, which StateSmith refuses`,
				`shape h: drawio: $H h: the $HC carry the history of state "G" into state "A", but not into state "A1", which hold no $HC`,
				`drawio: the $HC in state "K" carries no history`,
				`shape e6: drawio: edge e6 starts or ends at a $HC, which StateSmith allows no transition; ignored`}},
		{"StateSmith regions",
			model(vertex("i", "$initial_state", ssStart), group("p", "P", "1"),
				group("r2", "$ORTHO 2 : LEGS", "p"), inside("r2i", "$initial_state", ssStart, "r2"), inside("walk", "WALK", "", "r2"),
				group("r1", "$ORTHO 1 : ARMS", "p"), inside("r1i", "$initial_state", ssStart, "r1"), inside("wave", "WAVE", "", "r1"),
				edge("e0", "", "", "i", "p"), edge("e1", "", "", "r2i", "walk"), edge("e2", "", "", "r1i", "wave"), edge("e3", "GO", "", "p", "walk")),
			[]string{`state "p" name="P" kind=parallel initial=false parent=""`,
				// By their numbers: ARMS, with what it holds, before LEGS.
				"state \"r1\" name=\"ARMS\" kind=normal initial=false parent=\"p\" entry=[]\nstate \"r1i\"",
				"state \"wave\" name=\"WAVE\" kind=normal initial=false parent=\"r1\" entry=[]\nstate \"r2\" name=\"LEGS\"",
				// StateSmith's transitions into a state from around it are local.
				`transition "e3" from="p" any=false order=1 test="GO" value="" label="GO" event="GO" guard="" action="" target=walk push=false internal`},
			[]string{`shape p "P": warning: drawio: state "P" holds 2 $ORTHO regions, which StateSmith does not generate code for yet`}},
		{"StateSmith region errors",
			model(vertex("i", "$initial_state", ssStart), group("p", "P", "1"), inside("r1", "$ORTHO x : ARMS", "", "p"), inside("r2", "$ORTHO :", "", "p"), inside("o", "OTHER", "", "p"),
				edge("e0", "", "", "i", "r1")),
			nil,
			[]string{`shape r1 "ARMS": drawio: the order "x" of $ORTHO region "ARMS" is not a number; the region is read as unordered`,
				`shape r2: drawio: $ORTHO region r2 has no name, which StateSmith's grammar requires`,
				`shape o "OTHER": drawio: state "P" holds $ORTHO regions and "OTHER", which is not one: the states inside a parallel state are its regions`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(strings.NewReader(tt.xml), drawio.Options{File: "n.drawio"})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			charttest.CheckChart(t, c, err)
			checkContains(t, c, tt.want, tt.diags)
			for _, d := range c.Diagnostics {
				if d.Severity == diag.Error && !slices.ContainsFunc(tt.diags, func(w string) bool { return strings.Contains(d.Error(), w) }) {
					t.Errorf("unexpected error: %s", d.Error())
				}
			}
			if tt.name == "boxes add up" {
				if b := c.States[1].Box; b == nil || *b != (chart.Box{X: 110, Y: 130, W: 80, H: 40}) {
					t.Errorf("A's Box = %v, want its place on the page", b)
				}
			}
			if tt.name == "statechart" && !c.Statechart {
				t.Errorf("Statechart = false, want true")
			}
		})
	}
}

// TestNestedRoundTrip writes random nested charts (states in compounds
// and in the regions of parallel states, histories, start and final
// states inside compounds, transitions to several states) and reads them
// back: the same chart, boxes aside. With a stencil, the states are
// marked initial as Read marks them (importer.MarkInitialAncestors), and
// the sentry's have starts.
func TestNestedRoundTrip(t *testing.T) {
	stencils := map[string]*chart.Stencil{"plain": nil, "goomba": charttest.Stencil(t), "sentry": sentryStencil(t)}
	for k, name := range []string{"plain", "goomba", "sentry"} {
		st := stencils[name]
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(5+k)))
			tables := 0
			defer func() { t.Logf("%d of the charts compile, to the same tables", tables) }()
			for i := range 500 {
				c := randomNested(r, st)
				if i%5 == 4 { // a second page, its IDs prefixed as Read makes them
					c2 := randomNested(r, st)
					for _, s := range c2.States {
						s.ID, s.Pos.Page = "pg2/"+s.ID, "Page-2"
						if s.Parent != "" {
							s.Parent = "pg2/" + s.Parent
						}
						c.States = append(c.States, s)
					}
					for _, t := range c2.Transitions {
						t.ID, t.From, t.Pos.Page = "pg2/"+t.ID, "pg2/"+t.From, "Page-2"
						if t.Target.Kind == chart.ToState {
							t.Target.State = "pg2/" + t.Target.State
						}
						for k := range t.Also {
							t.Also[k] = "pg2/" + t.Also[k]
						}
						c.Transitions = append(c.Transitions, t)
					}
				}
				if st != nil {
					// The states of the initial-state master, and those
					// Read marks with them, on both pages at once: their
					// top level is one.
					importer.MarkInitialAncestors(c.States, st)
				}
				opt := drawio.WriteOptions{Compress: i%4 == 3}
				var b bytes.Buffer
				if err := drawio.Write(&b, c, opt); err != nil {
					t.Fatalf("chart %d: Write = %v", i, err)
				}
				if two := i%5 == 4; two != strings.Contains(b.String(), `pages="2"`) {
					t.Fatalf("chart %d: two pages %v, but Write wrote\n%s", i, two, b.String())
				}
				back, err := drawio.Read(bytes.NewReader(b.Bytes()), drawio.Options{Stencil: st, File: "random.drawio"})
				if back == nil {
					t.Fatalf("chart %d: Read(Write(c)) = %v\n%s", i, err, b.String())
				}
				charttest.CheckChart(t, back, err)
				if d := diff(render(back), render(c)); d != "" {
					t.Fatalf("chart %d: Read(Write(c)) differs from c at %s\n%s", i, d, b.String())
				}
				if back.Statechart != c.Statechart {
					t.Fatalf("chart %d: Statechart = %v, want %v", i, back.Statechart, c.Statechart)
				}
				if want, ok := compiled(c); ok && err == nil { // the reader's checks may find errors compile does not look for
					if got, _ := compiled(back); !bytes.Equal(got, want) {
						t.Fatalf("chart %d: Read(Write(c)) compiles to another table than c\n%s", i, b.String())
					}
					tables++
				}
				checkContained(t, back)
				var again bytes.Buffer
				if err := drawio.Write(&again, c, opt); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
					t.Fatalf("chart %d: Write is not deterministic (%v)", i, err)
				}
			}
		})
	}
}

// compiled returns the table c compiles to, marshalled, and whether it
// compiles.
func compiled(c *chart.Chart) ([]byte, bool) {
	res, err := compile.Compile(c, compile.Options{Stencil: c.Stencil})
	if err != nil {
		return nil, false
	}
	b, err := res.Table.MarshalBinary()
	return b, err == nil
}

// checkContained checks that each state is drawn inside the state it is
// in.
func checkContained(t *testing.T, c *chart.Chart) {
	t.Helper()
	boxes := make(map[string]*chart.Box)
	for _, s := range c.States {
		boxes[s.ID] = s.Box
	}
	for _, s := range c.States {
		p := boxes[s.Parent]
		if s.Parent == "" || p == nil || s.Box == nil {
			continue
		}
		if b := s.Box; b.X < p.X || b.Y < p.Y || b.X+b.W > p.X+p.W || b.Y+b.H > p.Y+p.H {
			t.Errorf("state %s at %v is not inside %s at %v", s.ID, *b, s.Parent, *p)
		}
	}
}

// randomNested makes a nested chart as the reader could return it:
// without a stencil, of every kind of state, with entry and exit actions
// of every kind (guarded or not), transitions with actions, without a
// target, internal, to several states, named histories; with a stencil,
// of nested states, and of parallel states and histories when it has
// their masters.
func randomNested(r *rand.Rand, st *chart.Stencil) *chart.Chart {
	c := &chart.Chart{Name: "random", Stencil: st, Statechart: st == nil && r.IntN(3) == 0, States: []chart.State{}, Transitions: []chart.Transition{}}
	n := 2 + r.IntN(12)
	holds := map[string]int{}
	for k := range n {
		s := chart.State{ID: "s" + strconv.Itoa(k), Name: chart.NormalizeSpace(names[r.IntN(len(names))]), Pos: diag.Pos{Page: "Page-1"}}
		var parents []int
		for j := range c.States {
			if q := c.States[j].Kind; q == chart.NormalState || q == chart.ParallelState {
				parents = append(parents, j)
			}
		}
		if len(parents) > 0 && r.IntN(3) > 0 {
			s.Parent = c.States[parents[r.IntN(len(parents))]].ID
		}
		if r.IntN(4) == 0 {
			s.Box = &chart.Box{X: float64(r.IntN(800)), Y: float64(r.IntN(600)), W: 80 + float64(r.IntN(80)), H: 40}
		}
		if st == nil {
			randomPlainState(r, &s)
		} else {
			randomStencilState(r, st, &s)
		}
		holds[s.Parent]++
		c.States = append(c.States, s)
	}
	for i := range c.States {
		if s := &c.States[i]; s.Kind == chart.ParallelState && holds[s.ID] == 0 {
			s.Kind = chart.NormalState
		}
	}
	kinds := map[string]chart.StateKind{}
	for _, s := range c.States {
		kinds[s.ID] = s.Kind
	}
	counts := map[string]int{}
	add := func(t chart.Transition) {
		t.ID = "t" + strconv.Itoa(len(c.Transitions))
		t.Pos = diag.Pos{Page: "Page-1"}
		if st == nil {
			t.Label = labels[r.IntN(len(labels))]
			order, ev, gu, ac, test := deriveLabel(t.Label)
			t.Event, t.Guard, t.Action, t.Test = ev, gu, ac, test
			counts[t.From]++
			t.Order = counts[t.From]
			if order > 0 {
				t.Order = order
			}
		} else {
			if k := kinds[t.From]; k != chart.HistoryState && k != chart.DeepHistoryState && k != chart.StartState { // a start's or a history's has no test
				t.Test = st.Tests[r.IntN(len(st.Tests))].Name
			}
			counts[t.From]++
			t.Order = counts[t.From]
		}
		if r.IntN(5) == 0 {
			t.Order = 1 + r.IntN(4)
		}
		c.Transitions = append(c.Transitions, t)
	}
	state := func() string { return c.States[r.IntN(len(c.States))].ID }
	for _, s := range c.States {
		if s.Kind.IsHistory() || st != nil && s.Kind == chart.StartState {
			add(chart.Transition{From: s.ID, Target: chart.Target{Kind: chart.ToState, State: state()}}) // its default, or where it starts
		}
	}
	for range r.IntN(12) {
		t := chart.Transition{From: state(), Target: chart.Target{Kind: chart.ToState, State: state()}}
		switch r.IntN(7) {
		case 0:
			t.Target = chart.Target{Kind: chart.ToFinal}
		case 1, 2:
			for range 1 + r.IntN(2) {
				t.Also = append(t.Also, state())
			}
		case 3:
			if st == nil {
				t.Target = chart.Target{Kind: chart.ToNone}
			}
		}
		if st == nil {
			t.Internal = r.IntN(5) == 0
			t.Actions = randomActions(r)
		}
		add(t)
	}
	return c
}

// randomPlainState makes s a state of a plain diagram: of any kind, a
// history named or not, with entry and exit actions.
func randomPlainState(r *rand.Rand, s *chart.State) {
	switch k := r.IntN(12); {
	case k < 6:
	case k == 6:
		s.Kind = chart.ParallelState
	case k == 7 || k == 8:
		if s.Parent != "" {
			s.Kind = chart.HistoryState + chart.StateKind(k-7)
			if r.IntN(2) == 0 {
				s.Name = ""
			}
		}
	default:
		s.Kind = chart.StateKind(1 + r.IntN(3)) // start, end, choice
	}
	s.Initial = s.Kind == chart.StartState
	if r.IntN(5) == 0 {
		s.Initial = !s.Initial
	}
	s.Entry, s.Exit = randomActions(r), randomActions(r)
}

// randomStencilState makes s a state of a drawing made with stencil st:
// parallel, a history or a start (initial) when st has their masters;
// else initial or not, with entry actions from st's drop-lists.
func randomStencilState(r *rand.Rand, st *chart.Stencil, s *chart.State) {
	switch k := r.IntN(11); {
	case k == 0 && st.Masters.Parallel != "":
		s.Kind = chart.ParallelState
	case k == 1 && st.Masters.History != "" && s.Parent != "":
		s.Kind = chart.HistoryState
	case k == 2 && st.Masters.DeepHistory != "" && s.Parent != "":
		s.Kind = chart.DeepHistoryState
	case k == 3 && st.Masters.Start != "":
		s.Kind, s.Initial = chart.StartState, true
	}
	if s.Kind.UntestedTransition() { // a history or a start
		if r.IntN(2) == 0 {
			s.Name = ""
		}
		return
	}
	if s.Kind == chart.NormalState && r.IntN(4) == 0 {
		s.Initial = true
	}
	for _, a := range st.Actions {
		if r.IntN(3) > 0 {
			s.Entry = append(s.Entry, chart.Action{Property: a.Name, Value: a.Values[r.IntN(len(a.Values))]})
		}
	}
}

// actionWords are the words of random actions: those that must be quoted
// to read back among them.
var actionWords = []string{"walk", "walk left", `say "hi"`, "a=b", "[x]", "", "raise", "after", "as", "=", "naïve", "tab\tfree", "line\nbreak", "1.5s", "()", "ammo.empty"}

// actionGuards are the guards of random actions: those that must be
// quoted to read back among them.
var actionGuards = []string{"", "", "low", "ammo == 0", "a[1] && b", "x]", "[y", " spaced ", `"q"`, "In(fire)", "a\nb"}

// randomActions makes up to 3 actions of every kind.
func randomActions(r *rand.Rand) []chart.Action {
	if r.IntN(3) > 0 {
		return nil
	}
	w := func() string { return actionWords[r.IntN(len(actionWords))] }
	var as []chart.Action
	for range 1 + r.IntN(3) {
		a := chart.Action{Kind: chart.ActionKind(r.IntN(4)), Guard: actionGuards[r.IntN(len(actionGuards))]}
		switch a.Kind {
		case chart.GameAction:
			a.Property, a.Value = w(), w()
		case chart.RaiseAction:
			a.Event = w()
		case chart.SendAction:
			a.Event, a.Timer = w(), w()
			a.Delay = []float64{0, 0.5, 1, 1.5, 1e-3, 120, 1e21}[r.IntN(7)]
		case chart.CancelAction:
			a.Timer = w()
		}
		as = append(as, a)
	}
	return as
}
