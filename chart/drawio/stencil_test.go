package drawio_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// uo is a shape of the goomba stencil: a UserObject with a role and
// attributes around an mxCell.
func uo(id, role, attrs, cell string) string {
	return `<UserObject label="` + id + `" fsmforge="` + role + `" fsmforgeStencil="goomba" fsmforgeVersion="1" ` + attrs + ` id="` + id + `">` + cell + `</UserObject>`
}

const (
	vcell = `<mxCell vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`
	acts  = `Name="" XMovement="left" Animation="moveLeft"`
)

func ecell(source, target string) string {
	ends := ""
	if source != "" {
		ends += ` source="` + source + `"`
	}
	if target != "" {
		ends += ` target="` + target + `"`
	}
	return `<mxCell edge="1" parent="1"` + ends + `><mxGeometry relative="1" as="geometry"/></mxCell>`
}

// TestStencil checks the reading of drawings made with a stencil: the
// chart, and the diagnostics, as chart/visio gives them for Visio.
func TestStencil(t *testing.T) {
	a := uo("a", "Initial State", acts, vcell)
	b := uo("b", "State", `Name="Bee" XMovement="right" Animation=""`, vcell)
	for _, tt := range []struct {
		name  string
		cells []string
		want  []string
		diags []string
		err   bool
	}{
		{"good",
			[]string{a, b, uo("h", "Message Handler", "", vcell),
				uo("t1", "Transition", `Test="hitTriggerLeft" Value="" Order="2" Stack="push"`, ecell("a", "b")),
				uo("t2", "Transition", `Test="hitByPlayer" Value="" Order="" Stack="return"`, ecell("h", "")),
				uo("t3", "Transition", `Test="animationDone" Value="x" Order="" Stack="none" Final="1"`, ecell("b", ""))},
			[]string{`state "a" name="a" kind=normal initial=true parent="" entry=[XMovement=left Animation=moveLeft]`,
				`state "b" name="Bee" kind=normal initial=false parent="" entry=[XMovement=right]`,
				`transition "t1" from="a" any=false order=2 test="hitTriggerLeft" value="" label="t1" event="" guard="" action="" target=b push=true`,
				`transition "t2" from="" any=true order=1 test="hitByPlayer" value="" label="t2" event="" guard="" action="" target=(return) push=false`,
				`transition "t3" from="b" any=false order=1 test="animationDone" value="x" label="t3" event="" guard="" action="" target=(final) push=false`},
			nil, false},
		{"bad values",
			[]string{uo("a", "State", `Name="" XMovement="sideways" Animation="moveLeft"`, vcell), b,
				uo("t1", "Transition", `Test="jump" Value="" Order="" Stack=""`, ecell("a", "b")),
				uo("t2", "Transition", `Test="" Value="" Order="x" Stack="pop"`, ecell("a", "b")),
				uo("t3", "Transition", `Value=""`, ecell("a", "b")),
				uo("t4", "Transition", `Test="hitByPlayer" Stack="return"`, ecell("a", "b"))},
			[]string{`state "a" name="a" kind=normal initial=false parent="" entry=[Animation=moveLeft]`},
			[]string{`shape a "a": drawio: state "a": XMovement value "sideways" is not in the drop-list of stencil "goomba"`,
				`shape t1 "t1": drawio: test "jump" is not in stencil "goomba"`,
				`shape t2 "t2": drawio: transition without a test`, `shape t2 "t2": drawio: order "x" is not a whole number`,
				`shape t2 "t2": drawio: stack operation "pop" is not one of none, push, return`,
				`shape t3 "t3": drawio: transition without a "Test" property`,
				`shape t4 "t4": drawio: a returning transition is attached at its end to state b`},
			true},
		{"ends",
			[]string{a, b, uo("h", "Message Handler", "", vcell), `<mxCell id="n" value="note" style="text;" vertex="1" parent="1"/>`,
				uo("t1", "Transition", `Test="hitByPlayer"`, ecell("", "b")),
				uo("t2", "Transition", `Test="hitByPlayer"`, ecell("a", "h")),
				uo("t3", "Transition", `Test="hitByPlayer"`, ecell("n", "a")),
				uo("t4", "Transition", `Test="hitByPlayer"`, ecell("", "")),
				`<mxCell id="plain" edge="1" parent="1" source="a" target="b"/>`},
			nil,
			[]string{`shape t1 "t1": drawio: the start of the transition is attached to no state`,
				`shape t2 "t2": drawio: the end of the transition is attached to shape h "h", which is not a state`,
				`shape t3 "t3": drawio: the start of the transition is attached to shape n "note", which is not a state`,
				`shape t4 "t4": drawio: the start of the transition is attached to no state`,
				`shape plain: warning: drawio: the edge from shape a "a" to shape b "b" is not a transition of stencil "goomba" (it has no fsmforge="Transition"); ignored`,
				`note: drawio: 1 shape without an fsmforge attribute is not part of the chart`},
			true},
		{"other stencils and versions",
			[]string{a, strings.Replace(b, `fsmforgeStencil="goomba"`, `fsmforgeStencil="robot"`, 1),
				strings.Replace(uo("c", "State", acts+` Colour="red"`, vcell), `fsmforgeVersion="1"`, `fsmforgeVersion="0.9"`, 1),
				uo("x", "Cloud", "", vcell), uo("y", "Cloud", "", vcell)},
			[]string{`state "a"`, `state "c"`},
			[]string{`shape b "b": warning: drawio: 1 shapes come from stencil "robot", not "goomba"; ignored`,
				`shape c "c": warning: drawio: the drawing was made with version "0.9" of stencil "goomba", which is at version "1"`,
				`shape x "x": warning: drawio: master "Cloud" is not in stencil "goomba": its 2 shapes are ignored`,
				`shape c "c": note: drawio: state shape: property "Colour" is not in stencil "goomba"; ignored`},
			false},
		{"another stencil",
			[]string{strings.ReplaceAll(a, `"goomba"`, `"robot"`)},
			nil,
			[]string{`drawio: the drawing was not made with stencil "goomba": its shapes come from stencil "robot", none of which is the stencil's "State" or "Transition"`},
			true},
		{"a plain drawing",
			[]string{`<mxCell id="a" value="A" vertex="1" parent="1"/>`},
			nil,
			[]string{`drawio: the drawing was not made with stencil "goomba": no shape has an fsmforge attribute, none of which is the stencil's "State" or "Transition"`},
			true},
		{"missing actions",
			[]string{uo("a", "State", `Name=""`, vcell), uo("b", "State", ``, vcell)},
			[]string{`state "a"`},
			[]string{`shape a "a": warning: drawio: state 2 shapes: no property "XMovement", which stencil "goomba" (version 1) lists`},
			false},
		{"nested",
			[]string{uo("on", "State", acts, vcell),
				`<UserObject label="in" fsmforge="Initial State" Name="" XMovement="right" Animation="" id="in"><mxCell vertex="1" parent="on"/></UserObject>`,
				uo("t", "Transition", `Test="hitByPlayer"`, ecell("on", "")), uo("u", "Transition", `Test="hitTriggerLeft"`, ecell("in", "on"))},
			// A state shape inside another nests in it; the stencil's
			// initial-state shape is the compound's initial state, and the
			// machine starts there: so in the compound too, which its level
			// does not mark.
			[]string{`state "on" name="on" kind=normal initial=true parent="" entry=[XMovement=left Animation=moveLeft]`,
				`state "in" name="in" kind=normal initial=true parent="on" entry=[XMovement=right]`,
				`transition "u" from="in" any=false order=1 test="hitTriggerLeft" value="" label="u" event="" guard="" action="" target=on`,
				`transition "t" from="on" any=false order=1 test="hitByPlayer"`},
			[]string{`shape t "t": warning: drawio: the end of the edge is on no state`}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(strings.NewReader(model(tt.cells...)), drawio.Options{Stencil: charttest.Stencil(t), File: "s.drawio"})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			if (err != nil) != tt.err {
				t.Errorf("Read error = %v, want an error: %v", err, tt.err)
			}
			charttest.CheckChart(t, c, err)
			diags := checkContains(t, c, tt.want, tt.diags)
			if tt.diags == nil && len(diags) > 0 {
				t.Errorf("Diagnostics = %s, want none", strings.Join(diags, "\n"))
			}
		})
	}
}

// TestStencilStatechart checks the reading of the masters of statecharts
// (the sentry stencil's): the chart, and the diagnostics.
func TestStencilStatechart(t *testing.T) {
	sentry := func(id, role, attrs, parent string) string {
		return `<UserObject label="` + id + `" fsmforge="` + role + `" fsmforgeStencil="sentry" fsmforgeVersion="1" ` + attrs + ` id="` + id + `">` +
			`<mxCell vertex="1" parent="` + parent + `"><mxGeometry width="80" height="40" as="geometry"/></mxCell></UserObject>`
	}
	edge := func(id, test, source, target string) string {
		return `<UserObject label="" fsmforge="Transition" fsmforgeStencil="sentry" fsmforgeVersion="1" Test="` + test + `" id="` + id + `">` + ecell(source, target) + `</UserObject>`
	}
	const acts = `Name="" Animation="walk" Speed="slow"`
	for _, tt := range []struct {
		name  string
		cells []string
		want  []string
		diags []string // when nil, none
		err   bool
	}{
		{"good",
			[]string{sentry("top", "Initial State", acts, "1"), sentry("c", "Composite State", `Name="Compound" Animation="run" Speed=""`, "1"),
				sentry("ci", "Initial State", acts, "c"), sentry("h", "Deep History", `Name="back"`, "c"), sentry("h2", "History", `Name=""`, "c"),
				sentry("p", "Parallel State", acts, "c"), sentry("r1", "Composite State", acts, "p"), sentry("r2", "State", acts, "p"),
				edge("t1", "noise", "top", "h"), edge("t2", "", "h", "p"), edge("t3", "seePlayer", "top", "h2")},
			[]string{`state "c" name="Compound" kind=normal initial=false parent="" entry=[Animation=run]`,
				`state "ci" name="ci" kind=normal initial=true parent="c" entry=[Animation=walk Speed=slow]`,
				`state "h" name="back" kind=deepHistory initial=false parent="c" entry=[]`,
				`state "h2" name="" kind=history initial=false parent="c" entry=[]`,
				`state "p" name="p" kind=parallel initial=false parent="c" entry=[Animation=walk Speed=slow]`,
				`state "r2" name="r2" kind=normal initial=false parent="p" entry=[Animation=walk Speed=slow]`,
				`transition "t2" from="h" any=false order=1 test="" value="" label="" event="" guard="" action="" target=p push=false`,
				// UML's default for the history drawn without a transition.
				`transition "h2#1" from="h2" any=false order=1 test="" value="" label="" event="" guard="" action="" target=ci push=false`},
			[]string{`shape h2 "h2": note: drawio: history h2 has no transition: when there is no history yet, it enters "ci", the initial state of "Compound", as UML enters the state`},
			false},
		{"errors",
			[]string{sentry("top", "Initial State", acts, "1"), sentry("h", "History", `Name=""`, "1"), sentry("c", "Composite State", acts, "1"),
				sentry("ci", "Initial State", acts, "c"), sentry("ch", "History", `Name="" Animation="walk"`, "c"), sentry("p", "Parallel State", acts, "1"),
				edge("t1", "seePlayer", "ch", "ci")},
			// The history's transition is kept, its test cleared.
			[]string{`state "p" name="p" kind=normal`,
				`transition "t1" from="ch" any=false order=1 test="" value="" label="" event="" guard="" action="" target=ci push=false`},
			[]string{`shape h "h": drawio: history h is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`,
				`shape t1 "seePlayer": warning: drawio: the transition of shape ch "ch", a history state, has test "seePlayer", which is ignored: a history's transition is its default, taken without a test whenever its state has no history yet`,
				`shape p "p": warning: drawio: parallel state p (a "Parallel State" shape) holds no states: read as a plain state`,
				`shape ch "ch": note: drawio: history state shape: property "Animation" is not in stencil "sentry"; ignored`},
			true},
		// The machine starts in ci, so in c; d says where it starts with a
		// start; a start's transition with a test is kept, its test
		// cleared, with a warning. A start drawn directly in a parallel
		// state is left to package compile.
		{"starts",
			[]string{sentry("c", "Composite State", acts, "1"), sentry("ci", "Initial State", acts, "c"),
				sentry("d", "Composite State", acts, "1"), sentry("ds", "Start", `Name=""`, "d"), sentry("d1", "State", acts, "d"),
				sentry("e", "Composite State", acts, "1"), sentry("es", "Start", `Name="begin"`, "e"), sentry("e1", "State", acts, "e"),
				sentry("p", "Parallel State", acts, "1"), sentry("ps", "Start", ``, "p"), sentry("r", "Composite State", acts, "p"), sentry("ri", "State", acts, "r"),
				edge("t1", "", "ds", "d1"), edge("t2", "seePlayer", "es", "e1"), edge("t3", "noise", "ci", "d"), edge("t4", "", "ps", "ri")},
			[]string{`state "c" name="c" kind=normal initial=true parent="" entry=[Animation=walk Speed=slow]`,
				`state "ci" name="ci" kind=normal initial=true parent="c" entry=[Animation=walk Speed=slow]`,
				`state "d" name="d" kind=normal initial=false parent=""`,
				`state "ds" name="" kind=start initial=true parent="d" entry=[]`,
				`state "es" name="begin" kind=start initial=true parent="e" entry=[]`,
				// ps, in p, is a region: never initial.
				`state "ps" name="" kind=start initial=false parent="p" entry=[]`,
				`state "p" name="p" kind=parallel initial=false parent=""`,
				`transition "t1" from="ds" any=false order=1 test="" value="" label="" event="" guard="" action="" target=d1 push=false`,
				`transition "t2" from="es" any=false order=1 test="" value="" label="" event="" guard="" action="" target=e1 push=false`},
			[]string{`shape t2 "seePlayer": warning: drawio: the transition of shape es "es", a start state, has test "seePlayer", which is ignored: a start's transition says where its state starts, taken without a test whenever the state is entered (or the machine starts)`},
			false},
		// A region drawn with the initial-state master marks its parallel
		// state (p2, in d, whose level says nothing), unless the parallel
		// state's level starts elsewhere (p, in c, which starts in ci): a
		// warning.
		{"initial regions",
			[]string{sentry("top", "Initial State", acts, "1"),
				sentry("c", "Composite State", acts, "1"), sentry("ci", "Initial State", acts, "c"),
				sentry("p", "Parallel State", acts, "c"), sentry("r1", "Initial State", acts, "p"), sentry("r2", "State", acts, "p"),
				sentry("d", "Composite State", acts, "1"), sentry("p2", "Parallel State", acts, "d"),
				sentry("s1", "Initial State", acts, "p2"), sentry("s2", "State", acts, "p2"),
				edge("t1", "noise", "top", "c"), edge("t2", "noise", "top", "d")},
			[]string{`state "top" name="top" kind=normal initial=true parent=""`,
				`state "c" name="c" kind=normal initial=false parent=""`,
				`state "ci" name="ci" kind=normal initial=true parent="c"`,
				`state "p" name="p" kind=parallel initial=false parent="c"`,
				`state "r1" name="r1" kind=normal initial=false parent="p"`,
				`state "d" name="d" kind=normal initial=false parent=""`,
				`state "p2" name="p2" kind=parallel initial=true parent="d"`,
				`state "s1" name="s1" kind=normal initial=false parent="p2"`},
			[]string{`shape r1 "r1": warning: drawio: region "r1" of parallel state "p" is drawn with the "Initial State" master: entering "p" enters all its regions, and the machine does not start in it (its level starts elsewhere), so the mark is ignored`},
			false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(strings.NewReader(model(tt.cells...)), drawio.Options{Stencil: sentryStencil(t), File: "s.drawio"})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			if (err != nil) != tt.err {
				t.Errorf("Read error = %v, want an error: %v", err, tt.err)
			}
			charttest.CheckChart(t, c, err)
			diags := checkContains(t, c, tt.want, tt.diags)
			if tt.diags == nil && len(diags) > 0 {
				t.Errorf("Diagnostics = %s, want none", strings.Join(diags, "\n"))
			}
			if len(tt.diags) > 0 && len(diags) != len(tt.diags) {
				t.Errorf("Diagnostics = %s, want %d", strings.Join(diags, "\n"), len(tt.diags))
			}
		})
	}
}

// TestStencilStatechartHints checks the hints of the diagnostics about
// what the masters of statecharts draw: a test on a start's transition,
// a region drawn with the initial-state master that says nothing, and a
// compound state entered without an initial state.
func TestStencilStatechartHints(t *testing.T) {
	sentry := func(id, role, parent string) string {
		return `<UserObject label="` + id + `" fsmforge="` + role + `" fsmforgeStencil="sentry" fsmforgeVersion="1" Name="" Animation="walk" Speed="slow" id="` + id + `">` +
			`<mxCell vertex="1" parent="` + parent + `"><mxGeometry width="80" height="40" as="geometry"/></mxCell></UserObject>`
	}
	edge := func(id, test, source, target string) string {
		return `<UserObject label="" fsmforge="Transition" fsmforgeStencil="sentry" fsmforgeVersion="1" Test="` + test + `" id="` + id + `">` + ecell(source, target) + `</UserObject>`
	}
	c, _ := drawio.Read(strings.NewReader(model(sentry("top", "Initial State", "1"),
		sentry("c", "Composite State", "1"), sentry("ci", "Initial State", "c"),
		sentry("p", "Parallel State", "c"), sentry("r1", "Initial State", "p"), sentry("r2", "State", "p"),
		sentry("e", "Composite State", "1"), sentry("es", "Start", "e"), sentry("e1", "State", "e"),
		sentry("g", "Composite State", "1"), sentry("g1", "State", "g"),
		edge("t1", "noise", "top", "c"), edge("t2", "seePlayer", "es", "e1"), edge("t3", "noise", "top", "e"), edge("t4", "noise", "top", "g"))),
		drawio.Options{Stencil: sentryStencil(t), File: "s.drawio"})
	for _, want := range []struct{ shape, hint string }{
		{"t2", `clear "Test" in the transition's Edit Data`},
		{"r1", `draw the region with the "Composite State" master: entering a parallel state enters all its regions`},
		{"g", `draw the library's "Start" shape in it, with a transition without a test to the state to enter, or draw that state as the library's "Initial State" shape; or end the transition at that state`},
	} {
		if !slices.ContainsFunc(c.Diagnostics, func(d diag.Diagnostic) bool { return d.Pos.Shape == want.shape && d.Hint == want.hint }) {
			t.Errorf("diagnostics = %v, want one at shape %s with hint %q", c.Diagnostics, want.shape, want.hint)
		}
	}
}
