package scxml_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// doc wraps the body of an <scxml> element.
func doc(attrs, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" version="1.0"` + attrs + `>
` + body + `
</scxml>
`
}

func read(t *testing.T, src string, opt scxml.Options) (*chart.Chart, error) {
	t.Helper()
	if opt.File == "" {
		opt.File = "test.scxml"
	}
	c, err := scxml.Read(strings.NewReader(src), opt)
	charttest.CheckChart(t, c, err)
	return c, err
}

// summary renders a chart's states and transitions on one line each, for
// comparisons: "S id name kind [in parent] [initial] [entry] [exit:
// actions]", "T id from->target test #order [also=...] [internal]
// [value=...] [push] [do: actions]".
func summary(c *chart.Chart) []string {
	var out []string
	for _, s := range c.States {
		line := fmt.Sprintf("S %s %q %s", s.ID, s.Name, s.Kind)
		if s.Parent != "" {
			line += " in " + s.Parent
		}
		if s.Initial {
			line += " initial"
		}
		for _, a := range s.Entry {
			line += " " + actionString(a)
		}
		if len(s.Exit) > 0 {
			line += " exit:"
			for _, a := range s.Exit {
				line += " " + actionString(a)
			}
		}
		out = append(out, line)
	}
	for _, t := range c.Transitions {
		from := t.From
		if t.AnyState {
			from = "*"
		}
		line := fmt.Sprintf("T %s %s->%v %q #%d", t.ID, from, t.Target, t.Test, t.Order)
		if len(t.Also) > 0 {
			line += " also=" + strings.Join(t.Also, ",")
		}
		if t.Internal {
			line += " internal"
		}
		if t.Value != "" {
			line += " value=" + t.Value
		}
		if t.Push {
			line += " push"
		}
		if len(t.Actions) > 0 {
			line += " do:"
			for _, a := range t.Actions {
				line += " " + actionString(a)
			}
		}
		out = append(out, line)
	}
	return out
}

// actionString renders an action: "XMovement=left", "raise(e)",
// "send(e,1.5s,t1)", "cancel(t1)".
func actionString(a chart.Action) string {
	switch a.Kind {
	case chart.RaiseAction:
		return "raise(" + a.Event + ")"
	case chart.SendAction:
		return fmt.Sprintf("send(%s,%vs,%s)", a.Event, a.Delay, a.Timer)
	case chart.CancelAction:
		return "cancel(" + a.Timer + ")"
	}
	return a.Property + "=" + a.Value
}

func messages(c *chart.Chart) []string {
	var out []string
	for _, d := range c.Diagnostics {
		out = append(out, d.Error())
	}
	return out
}

// TestReadPlain reads plain state machines: what each SCXML construct
// becomes in the chart.
func TestReadPlain(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
		diags     []string // substrings of the diagnostics, in order
	}{
		{
			name: "flat",
			src: doc(` initial="b"`, `
	<state id="a"><transition event="go" target="b"/></state>
	<state id="b">
		<transition event="back" cond="ready" target="a"/>
		<transition cond="x &gt; 1" target="c"/>
		<transition target="a"/>
	</state>
	<final id="c"/>`),
			want: []string{
				`S a "a" normal`, `S b "b" normal initial`, `S c "c" end`,
				`T a#1 a->b "go" #1`, `T b#1 b->a "back" #1`, `T b#2 b->c "x > 1" #2`, `T b#3 b->a "" #3`,
			},
		},
		{
			name: "first state is initial",
			src:  doc(``, `<final id="f"/><state id="a"/>`),
			want: []string{`S f "f" end initial`, `S a "a" normal`},
		},
		{
			name: "nested, initial attribute, element and default",
			src: doc(` initial="outer"`, `
	<state id="outer" initial="mid">
		<transition event="reset" target="outer"/>
		<state id="first"/>
		<state id="mid">
			<initial><transition target="deep2"/></initial>
			<state id="deep1"/>
			<state id="deep2"><transition event="next" target="deep1"/></state>
		</state>
	</state>
	<state id="other"><transition event="enter" target="mid"/></state>`),
			want: []string{
				`S outer "outer" normal initial`, `S first "first" normal in outer`, `S mid "mid" normal in outer initial`,
				`S mid#initial "" start in mid initial`, `S deep1 "deep1" normal in mid`, `S deep2 "deep2" normal in mid`, `S other "other" normal`,
				`T outer#1 outer->outer "reset" #1`, `T mid#initial#1 mid#initial->deep2 "" #1`,
				`T deep2#1 deep2->deep1 "next" #1`, `T other#1 other->mid "enter" #1`,
			},
		},
		{
			name: "initial deeper than a child",
			src: doc(` initial="s"`, `
	<state id="s" initial="b2">
		<state id="a"/>
		<state id="b"><state id="b1"/><state id="b2"/></state>
	</state>
	<state id="t"><transition event="e" target="s"/></state>`),
			want: []string{
				`S s "s" normal initial`, `S s#initial "" start in s initial`, `S a "a" normal in s`, `S b "b" normal in s`,
				`S b1 "b1" normal in b initial`, `S b2 "b2" normal in b`, `S t "t" normal`,
				`T s#initial#1 s#initial->b2 "" #1`, `T t#1 t->s "e" #1`,
			},
		},
		{
			name: "root initial inside a compound",
			src:  doc(` initial="y"`, `<state id="w"><state id="x"/><state id="y"/></state>`),
			want: []string{`S #initial "" start initial`, `S w "w" normal`, `S x "x" normal in w initial`, `S y "y" normal in w`, `T #initial#1 #initial->y "" #1`},
		},
		{
			name: "several events",
			src:  doc(``, `<state id="a"><transition event=" up  down" target="a"/></state>`),
			want: []string{`S a "a" normal initial`, `T a#1 a->a "up down" #1`},
		},
		{
			name: "parallel, history, finals and initial targets",
			src: doc(` initial="p1 p2"`, `
	<parallel id="p">
		<onentry><raise event="in.p"/></onentry>
		<state id="r1"><state id="p1"/><final id="r1done"/></state>
		<state id="r2" initial="p2"><history id="h" type="deep"><transition target="p2"><raise event="back"/></transition></history><state id="q2"/><state id="p2"/></state>
		<transition event="done.state.p" target="f"/>
	</parallel>
	<final id="f"><onentry><send event="bye"/></onentry><onexit><raise event="gone"/></onexit></final>`),
			want: []string{
				`S #initial "" start initial`, `S p "p" parallel raise(in.p)`, `S r1 "r1" normal in p`, `S p1 "p1" normal in r1 initial`,
				`S r1done "r1done" end in r1`, `S r2 "r2" normal in p`, `S h "h" deepHistory in r2`, `S q2 "q2" normal in r2`,
				`S p2 "p2" normal in r2 initial`, `S f "f" end send(bye,0s,) exit: raise(gone)`,
				`T #initial#1 #initial->p1 "" #1 also=p2`, `T h#1 h->p2 "" #1 do: raise(back)`, `T p#1 p->f "done.state.p" #1`,
			},
		},
		{
			name: "targets, targetless and internal transitions, executable content",
			src: doc(``, `<state id="s">
		<onentry><send event="t" delay="1.5s" id="timer1"/><send event="now" target="#_internal"/><send event="x" type="scxml"/></onentry>
		<onentry><cancel sendid="timer1"/></onentry>
		<onexit><ff:action property="Anim" value="idle"/><send event="later" delay="250ms"/><send event="soon" delay=".5s"/></onexit>
		<transition event="a.* b. *" cond="  In('s') &amp;&amp; ready " type="internal" target="x y"><raise event="moved"/></transition>
		<transition event="tick"><send event="tock" delay="0s"/></transition>
		<state id="x"/><state id="y"/>
	</state>`),
			want: []string{
				`S s "s" normal initial send(t,1.5s,timer1) raise(now) send(x,0s,) cancel(timer1) exit: Anim=idle send(later,0.25s,) send(soon,0.5s,)`,
				`S x "x" normal in s initial`, `S y "y" normal in s`,
				`T s#1 s->x "a.* b. *" #1 also=y internal do: raise(moved)`, `T s#2 s->(none) "tick" #2 do: send(tock,0s,)`,
			},
		},
		{
			name: "fsmforge attributes of the new elements",
			src: doc(` initial="p"`, `<parallel id="p" ff:id="1" ff:name="Both">
		<state id="r"><initial ff:id="2" ff:name="start"><transition target="a" ff:id="3"/></initial><state id="a"/>
			<history id="h" ff:id="4" ff:name="H"><transition target="a" ff:id="5"/></history></state>
	</parallel>`),
			want: []string{
				`S 1 "Both" parallel initial`, `S r "r" normal in 1`, `S 2 "start" start in r initial`, `S a "a" normal in r`, `S 4 "H" history in r`,
				`T 3 2->a "" #1`, `T 5 4->a "" #1`,
			},
		},
		{
			name: "ids of Qt and other editors",
			src:  doc(` initial="Main::idle"`, `<state id="Main::idle"><transition event="go" target="a-b.c"/></state><state id="a-b.c"/>`),
			want: []string{`S Main::idle "Main::idle" normal initial`, `S a-b.c "a-b.c" normal`, `T Main::idle#1 Main::idle->a-b.c "go" #1`},
		},
		{
			name: "fsmforge attributes",
			src: doc(` initial="walk"`, `
	<state id="walk" ff:id="1" ff:name="Walk left">
		<onentry><ff:action property="XMovement" value="left"/></onentry>
		<transition event="hit" target="stun" ff:id="7" ff:order="3" ff:value="hard" ff:stack="push"/>
		<transition event="time_out" ff:event="time out" ff:label="time out / beep" target="walk"/>
	</state>
	<state id="stun" ff:kind="choice"><transition ff:stack="return" ff:test="done"/></state>
	<state id="start" ff:kind="start"><transition target="walk"/></state>
	<state id="any" ff:kind="anyState"><transition event="die" target="Final"/></state>
	<final id="Final" ff:implicit="true"/>`),
			want: []string{
				`S 1 "Walk left" normal initial XMovement=left`, `S stun "stun" choice`, `S start "start" start`,
				`T 7 1->stun "hit" #3 value=hard push`, `T 1#2 1->1 "time out" #2`, `T stun#1 stun->(return) "done" #1`,
				`T start#1 start->1 "" #1`, `T any#1 *->(final) "die" #1`,
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := read(t, tt.src, scxml.Options{})
			if err != nil {
				t.Fatalf("Read = %v", err)
			}
			if got := summary(c); !slices.Equal(got, tt.want) {
				t.Errorf("Read =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			checkDiags(t, c, tt.diags)
		})
	}
}

// checkDiags checks that the diagnostics hold each of want, in order, and
// nothing else but notes.
func checkDiags(t *testing.T, c *chart.Chart, want []string) {
	t.Helper()
	got := messages(c)
	i := 0
	for _, g := range got {
		if i < len(want) && strings.Contains(g, want[i]) {
			i++
		} else if !strings.Contains(g, ": note: ") {
			t.Errorf("unexpected diagnostic %s", g)
		}
	}
	if i < len(want) {
		t.Errorf("diagnostics\n%s\nwant, in order, %q", strings.Join(got, "\n"), want[i:])
	}
}

// TestReadLabels checks the labels, events, guards and actions of plain
// transitions.
func TestReadLabels(t *testing.T) {
	c, err := read(t, doc(``, `<state id="a">
		<transition event="push" cond="unlocked" target="a"/>
		<transition cond="  x   &lt; 2 " target="a"/>
		<transition event="e" cond="c" ff:label="e [c] / act()" target="a"/>
		<transition event="e2" ff:test="other" target="a"/>
		<transition event=" a.*
			b " cond="x == 'a  b'" target="a"/>
	</state>`), scxml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type parts struct{ label, event, guard, action, test string }
	want := []parts{
		{"push [unlocked]", "push", "unlocked", "", "push"},
		{"[x < 2]", "", "x   < 2", "", "x   < 2"}, // the condition verbatim, trimmed; the label with single spaces
		{"e [c] / act()", "e", "c", "act()", "e"},
		{"e2", "e2", "", "", "other"},
		{"a.* b [x == 'a b']", "a.* b", "x == 'a  b'", "", "a.* b"}, // descriptors as written, separated by single spaces
	}
	for i, tr := range c.Transitions {
		got := parts{tr.Label, tr.Event, tr.Guard, tr.Action, tr.Test}
		if i >= len(want) || got != want[i] {
			t.Errorf("transition %d = %+v, want %+v", i, got, want[min(i, len(want)-1)])
		}
	}
}

// TestReadLayout reads Qt Creator's geometry, through nested states.
func TestReadLayout(t *testing.T) {
	c, err := read(t, doc(``, `
	<state id="outer">
		<qt:editorinfo geometry="100;100;-50;-50;300;200" scenegeometry="100;100;50;50;300;200"/>
		<state id="inner">
			<qt:editorinfo geometry="80;60;-20;-10;40;30" scenegeometry="0;0;999;999;40;30"/>
		</state>
		<state id="scene">
			<qt:editorinfo scenegeometry="1;2;3;4;5;6"/>
		</state>
	</state>
	<state id="bad"><qt:editorinfo geometry="1;2;x;4;5;6"/></state>
	<state id="none"/>`), scxml.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*chart.Box{
		"outer": {X: 50, Y: 50, W: 300, H: 200},
		"inner": {X: 160, Y: 150, W: 40, H: 30},
		"scene": {X: 3, Y: 4, W: 5, H: 6},
		"bad":   nil,
		"none":  nil,
	}
	for _, s := range c.States {
		w := want[s.ID]
		if (s.Box == nil) != (w == nil) || s.Box != nil && *s.Box != *w {
			t.Errorf("state %s: Box = %+v, want %+v", s.ID, s.Box, w)
		}
	}
	checkDiags(t, c, []string{`warning: scxml: qt:editorinfo geometry "1;2;x;4;5;6" is not 6 numbers; ignored`})
}

// TestReadUnsupported checks that what a chart cannot express is an error
// naming the element (or a warning, read leniently), never dropped in
// silence.
func TestReadUnsupported(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		strict    []string // diagnostics read strictly, in order
		lenient   []string // read leniently; nil: the same
	}{
		{
			name: "executable content",
			src: doc(``, `<datamodel><data id="x"/></datamodel>
	<state id="a">
		<onentry><send event="e" target="#_parent"/><ff:action property="p" value="v"/><if cond="In('a')"><raise event="x"/></if></onentry>
		<onexit><log expr="1"/><script>f()</script><foreach array="a" item="i"/></onexit>
		<transition event="e" target="a"><assign location="x" expr="1"/></transition>
		<invoke src="other.scxml"/>
	</state>`),
			strict: []string{
				`test.scxml:3:1: scxml: <datamodel>: a chart has no data model or scripts; left out`,
				`test.scxml:5:12: shape a: scxml: <send> in <onentry> of state "a": target "#_parent" is not the machine itself: a chart sends events to itself only; left out`,
				`test.scxml:6:11: shape a: note: scxml: <log> in <onexit> of state "a" is left out`,
				`test.scxml:6:26: shape a: scxml: <script> in <onexit> of state "a"`,
				`test.scxml:6:46: shape a: scxml: <foreach> in <onexit> of state "a"`,
				`test.scxml:7:36: shape a: scxml: <assign> in <transition> of state "a"`,
				`test.scxml:8:3: shape a: scxml: <invoke> in state "a": a chart cannot invoke`,
			},
			lenient: []string{
				`test.scxml:3:1: warning: scxml: <datamodel>`,
				`test.scxml:5:12: shape a: warning: scxml: <send>`,
				`test.scxml:6:11: shape a: note: scxml: <log>`,
				`test.scxml:6:26: shape a: warning: scxml: <script>`,
				`test.scxml:6:46: shape a: warning: scxml: <foreach>`,
				`test.scxml:7:36: shape a: warning: scxml: <assign>`,
				`test.scxml:8:3: shape a: warning: scxml: <invoke>`,
			},
		},
		{
			name: "send to elsewhere, or with a data model",
			src: doc(``, `<state id="a"><onentry>
		<send event="e" target="http://example.com/"/>
		<send event="e" type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"/>
		<send eventexpr="'e'"/>
		<send event="e" delayexpr="'1s'"/>
		<send event="e" targetexpr="t"/>
		<send event="e" idlocation="x"/>
		<send event="e" namelist="x y"/>
		<send event="e"><param name="p" expr="1"/></send>
		<send event="e"><content>text</content></send>
		<send event="e" target="#_internal" delay="1s"/>
		<send event="e" target="#_internal" id="t"/>
	</onentry></state>`),
			strict: []string{
				`test.scxml:4:3: shape a: scxml: <send> in <onentry> of state "a": target "http://example.com/" is not the machine itself`,
				`test.scxml:5:3: shape a: scxml: <send> in <onentry> of state "a": type "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor" is not SCXML's event processor`,
				`test.scxml:6:3: shape a: scxml: <send> in <onentry> of state "a": eventexpr needs a data model`,
				`test.scxml:7:3: shape a: scxml: <send> in <onentry> of state "a": delayexpr needs a data model`,
				`test.scxml:8:3: shape a: scxml: <send> in <onentry> of state "a": targetexpr needs a data model`,
				`test.scxml:9:3: shape a: scxml: <send> in <onentry> of state "a": idlocation needs a data model`,
				`test.scxml:10:3: shape a: scxml: <send> in <onentry> of state "a": namelist needs a data model`,
				`test.scxml:11:3: shape a: scxml: <send> in <onentry> of state "a": its <param> needs a data model`,
				`test.scxml:12:3: shape a: scxml: <send> in <onentry> of state "a": its <content> needs a data model`,
				`test.scxml:13:3: shape a: scxml: <send> in <onentry> of state "a": it puts a delayed event on the internal queue`,
				`test.scxml:14:3: shape a: scxml: <send> in <onentry> of state "a": it names an event on the internal queue`,
			},
			lenient: []string{
				`test.scxml:4:3: shape a: warning: scxml: <send>`, `test.scxml:5:3: shape a: warning: scxml: <send>`,
				`test.scxml:6:3: shape a: warning: scxml: <send>`, `test.scxml:7:3: shape a: warning: scxml: <send>`,
				`test.scxml:8:3: shape a: warning: scxml: <send>`, `test.scxml:9:3: shape a: warning: scxml: <send>`,
				`test.scxml:10:3: shape a: warning: scxml: <send>`, `test.scxml:11:3: shape a: warning: scxml: <send>`,
				`test.scxml:12:3: shape a: warning: scxml: <send>`, `test.scxml:13:3: shape a: warning: scxml: <send>`,
				`test.scxml:14:3: shape a: warning: scxml: <send>`,
			},
		},
		{
			name: "bad raise, send and cancel",
			src: doc(``, `<state id="a"><onentry>
		<send event="e" delay="1"/>
		<send event="e" delay="2h"/>
		<send event="e" delay="-1s"/>
		<send event="e" delay="1.2.3s"/>
		<send event="e" delay="ms"/>
		<send/>
		<send event="a b"/>
		<raise/>
		<raise event=" "/>
		<raise event="e"><x/></raise>
		<cancel/>
		<cancel sendidexpr="id"/>
		<send event="e" mode="fast"/>
	</onentry></state>`),
			strict: []string{
				`test.scxml:4:3: shape a: scxml: <send> in <onentry> of state "a": delay "1" is not a time: it has no unit, "s" or "ms"`,
				`test.scxml:5:3: shape a: scxml: <send> in <onentry> of state "a": delay "2h" is not a time: it has no unit`,
				`test.scxml:6:3: shape a: scxml: <send> in <onentry> of state "a": delay "-1s" is not a time: its number is not digits with at most one dot`,
				`test.scxml:7:3: shape a: scxml: <send> in <onentry> of state "a": delay "1.2.3s" is not a time`,
				`test.scxml:8:3: shape a: scxml: <send> in <onentry> of state "a": delay "ms" is not a time`,
				`test.scxml:9:3: shape a: scxml: <send> in <onentry> of state "a" has no event`,
				`test.scxml:10:3: shape a: scxml: <send> in <onentry> of state "a": event "a b" is not one name`,
				`test.scxml:11:3: shape a: scxml: <raise> in <onentry> of state "a" has no event`,
				`test.scxml:12:3: shape a: scxml: <raise> in <onentry> of state "a" has no event`,
				`test.scxml:13:20: scxml: <x> cannot be in <raise> in <onentry> of state "a"`,
				`test.scxml:14:3: shape a: scxml: <cancel> in <onentry> of state "a" has no sendid`,
				`test.scxml:15:3: shape a: scxml: <cancel> in <onentry> of state "a": sendidexpr needs a data model`,
				`test.scxml:16:3: shape a: warning: scxml: <send> has no attribute "mode"; ignored`,
			},
			lenient: []string{
				`test.scxml:4:3: shape a: scxml: <send>`, `test.scxml:5:3: shape a: scxml: <send>`, `test.scxml:6:3: shape a: scxml: <send>`,
				`test.scxml:7:3: shape a: scxml: <send>`, `test.scxml:8:3: shape a: scxml: <send>`, `test.scxml:9:3: shape a: scxml: <send>`,
				`test.scxml:10:3: shape a: scxml: <send>`, `test.scxml:11:3: shape a: scxml: <raise>`, `test.scxml:12:3: shape a: scxml: <raise>`,
				`test.scxml:13:20: scxml: <x> cannot be in <raise>`, `test.scxml:14:3: shape a: scxml: <cancel>`,
				`test.scxml:15:3: shape a: warning: scxml: <cancel> in <onentry> of state "a": sendidexpr`,
				`test.scxml:16:3: shape a: warning: scxml: <send> has no attribute "mode"`,
			},
		},
		{
			name: "history",
			src: doc(``, `<state id="s">
		<history id="h1"/>
		<history id="h2" type="middle"><transition target="a"/><transition target="b"/></history>
		<history id="h3"><transition event="e" cond="c" target="a"/></history>
		<history id="h4"><transition/></history>
		<history id="h5"><transition target="t"/></history>
		<history id="h6"><onentry/><state id="in"/><transition target="a"/></history>
		<state id="a"/><state id="b"/>
	</state>
	<state id="t"/><history id="top"><transition target="a"/></history>
	<final id="f"><history id="h7"/></final>`),
			strict: []string{
				`test.scxml:4:3: shape h1: scxml: history "h1" has no default transition`,
				`test.scxml:5:3: shape h2: scxml: history type "middle"; read as shallow`,
				`test.scxml:5:58: shape h2: scxml: history "h2" has a second <transition>; a history has one, its default`,
				`test.scxml:6:20: shape h3#1: scxml: the transition of history "h3" has an event or a condition`,
				`test.scxml:7:20: shape h4#1: scxml: the transition of history "h4" has no target`,
				`test.scxml:8:20: shape h5#1: scxml: the transition of history "h5" goes to "t", which is not inside state "s"`,
				`test.scxml:9:20: shape h6: scxml: <onentry> cannot be a child of <history>`,
				`test.scxml:9:30: shape h6: scxml: <state> cannot be a child of <history>`,
				`test.scxml:12:17: scxml: <history> cannot be a child of <scxml>`,
				`test.scxml:13:16: shape f: scxml: <history> cannot be a child of <final>`,
			},
		},
		{
			name: "initial",
			src: doc(` initial=" "`, `<state id="s1"><initial><transition target="a"/></initial><initial/><state id="a"/></state>
	<state id="s2" initial="b"><initial/><state id="b"/></state>
	<state id="s3"><initial><transition event="e" target="out"/><transition target="c"/><state id="no"/></initial><state id="c"/></state>
	<parallel id="p"><initial><transition target="d"/></initial><final id="pf"/><state id="d"/></parallel>
	<state id="s4" initial="s1"><state id="e"/></state>
	<state id="s5" initial="Final"><state id="g"/></state>
	<state id="out"><initial><transition target="out"/></initial></state>
	<final id="Final" ff:implicit="true"/>`),
			strict: []string{
				`test.scxml:2:1: scxml: initial " " names no state`,
				`test.scxml:3:59: shape s1: scxml: state "s1" has two <initial> elements`,
				`test.scxml:4:29: shape s2: scxml: <initial> of state "s2" has no transition`,
				`test.scxml:4:29: shape s2: scxml: state "s2" has both an initial attribute and an <initial> element`,
				`test.scxml:5:26: shape s3#initial#1: scxml: the transition of <initial> of state "s3" has an event or a condition`,
				`test.scxml:5:26: shape s3#initial#1: scxml: the transition of <initial> of state "s3" goes to "out", which is not inside state "s3"`,
				`test.scxml:5:62: shape s3#initial: scxml: <initial> of state "s3" has a second <transition>`,
				`test.scxml:5:86: shape s3#initial: scxml: <state> cannot be a child of <initial>`,
				`test.scxml:6:19: shape p: scxml: <initial> cannot be a child of <parallel>`,
				`test.scxml:6:62: shape p: scxml: <final> cannot be a child of <parallel>`,
				`test.scxml:7:2: shape s4: scxml: the initial state "s1" of state "s4" is not inside it`,
				`test.scxml:8:2: shape s5: scxml: the initial state "Final" is the final state`,
				`test.scxml:9:18: shape out: warning: scxml: <initial> in state "out", which has no states inside; ignored`,
			},
		},
		{
			name: "targets",
			src: doc(``, `<state id="a"><transition target="a Final"/><transition target="any"/><transition target="a nowhere"/></state>
	<state id="any" ff:kind="anyState"><onentry><raise event="e"/></onentry></state>
	<final id="Final" ff:implicit="true"/>`),
			strict: []string{
				`test.scxml:3:15: shape a#1: scxml: target "Final" is the final state, which cannot be one of several targets; left out`,
				`test.scxml:3:45: shape a: scxml: target "any" is the any-state element`,
				`test.scxml:3:71: shape a: scxml: target "nowhere" is not the id of a state`,
				`test.scxml:4:37: shape any: scxml: <onentry> of any-state element "any", which is not a state of the chart; left out`,
			},
		},
		{
			name: "final",
			src:  doc(``, `<state id="s"><final id="f"><donedata><param name="x" expr="1"/></donedata><transition target="s"/></final></state>`),
			strict: []string{
				`test.scxml:3:29: shape f: scxml: <donedata> in final "f": a chart has no data; left out`,
				`test.scxml:3:76: shape f: scxml: <transition> cannot be a child of <final>`,
			},
			lenient: []string{
				`test.scxml:3:29: shape f: warning: scxml: <donedata> in final "f"`,
				`test.scxml:3:76: shape f: scxml: <transition> cannot be a child of <final>`,
			},
		},
		{
			name: "structure",
			src: doc(` initial="a b"`, `<state id="a" initial="zz"><state id="c"/><transition event="e" target="nowhere"/></state>
	<state id="a"/><bogus/><transition target="a"/><ff:thing/><other:x xmlns:other="urn:other"/>
	<final id="f"><transition target="a"/></final>
	<state id="t"><transition ff:orde="1" ff:stack="pop" target="a"/><transition ff:stack="return" target="a"/><transition event="x"/></state>`),
			strict: []string{
				`test.scxml:2:1: scxml: initial state "b" is not the id of a state`,
				`test.scxml:3:1: shape a: scxml: initial state "zz" is not the id of a state`,
				`test.scxml:3:43: shape a: scxml: target "nowhere" is not the id of a state`,
				`test.scxml:4:2: scxml: id "a" is also the id of the state at line 3`,
				`test.scxml:4:17: scxml: unknown SCXML element <bogus>`,
				`test.scxml:4:25: scxml: <transition> cannot be a child of <scxml>`,
				`test.scxml:4:49: scxml: <ff:thing> cannot be here`,
				`test.scxml:4:60: warning: scxml: <other:x> is not SCXML; ignored`,
				`test.scxml:5:16: shape f: scxml: <transition> cannot be a child of <final>`,
				`test.scxml:6:16: shape t#1: scxml: <transition> has no attribute ff:orde`,
				`test.scxml:6:16: shape t#1: scxml: ff:stack "pop" is not one of none, push, return`,
				`test.scxml:6:67: shape t#2: scxml: a returning transition (ff:stack="return") has target "a"`,
			},
		},
		{
			name:   "no namespace",
			src:    `<scxml><state id="a"/></scxml>`,
			strict: []string{`warning: scxml: the root element <scxml> declares no namespace; its elements are read as SCXML's`},
		},
	} {
		for _, lenient := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/lenient=%v", tt.name, lenient), func(t *testing.T) {
				c, err := read(t, tt.src, scxml.Options{Lenient: lenient})
				if c == nil {
					t.Fatalf("Read = nil, %v", err)
				}
				want := tt.strict
				if lenient && tt.lenient != nil {
					want = tt.lenient
				}
				got := messages(c)
				i := 0
				for _, g := range got {
					if i < len(want) && strings.Contains(g, want[i]) {
						i++
					} else if !strings.Contains(g, ": note: ") {
						t.Errorf("unexpected diagnostic %s", g)
					}
				}
				if i < len(want) {
					t.Errorf("diagnostics\n%s\nwant, in order,\n%s", strings.Join(got, "\n"), strings.Join(want[i:], "\n"))
				}
				if c.Diagnostics.HasErrors() != (err != nil) {
					t.Errorf("Read error %v with diagnostics %v", err, got)
				}
				for _, d := range c.Diagnostics.Errors() {
					if d.Hint == "" {
						t.Errorf("error %s has no hint", d.Error())
					}
				}
			})
		}
	}
}

// TestReadStencil reads charts made with the goomba stencil, and what the
// stencil reading refuses.
func TestReadStencil(t *testing.T) {
	st := charttest.Stencil(t)
	const root = ` ff:stencil="goomba" ff:stencilVersion="1" initial="walkLeft"`
	good := doc(root, `
	<state id="walkLeft">
		<onentry><ff:action property="Animation" value="moveLeft"/><ff:action property="XMovement" value="left"/></onentry>
		<transition event="hitTriggerLeft" target="walkRight"/>
		<transition cond="hitByPlayer" target="Final"/>
	</state>
	<state id="walkRight"><transition event="hit_trigger" ff:test="hitTriggerRight" ff:label="back" target="walkLeft"/></state>
	<final id="Final" ff:implicit="true"/>`)
	c, err := read(t, good, scxml.Options{Stencil: st})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`S walkLeft "walkLeft" normal initial XMovement=left Animation=moveLeft`, `S walkRight "walkRight" normal`,
		`T walkLeft#1 walkLeft->walkRight "hitTriggerLeft" #1`, `T walkLeft#2 walkLeft->(final) "hitByPlayer" #2`,
		`T walkRight#1 walkRight->walkLeft "hitTriggerRight" #1`,
	}
	if got := summary(c); !slices.Equal(got, want) {
		t.Errorf("Read =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkDiags(t, c, []string{`warning: scxml: ff:test "hitTriggerRight" is the transition's test; its event "hit_trigger" and cond "" are not`})
	if c.Stencil != st || c.Transitions[2].Label != "back" || c.Transitions[0].Label != "hitTriggerLeft" {
		t.Errorf("Read: Stencil %p (want %p), labels %q, %q", c.Stencil, st, c.Transitions[0].Label, c.Transitions[2].Label)
	}

	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"nested", doc(root, `<state id="walk"><onentry><ff:action property="XMovement" value="left"/></onentry>
			<state id="walkLeft"><onentry><ff:action property="Animation" value="moveLeft"/></onentry></state></state>`),
			nil},
		{"start pseudo-state and history, untested", doc(root, `<state id="s" ff:kind="start"><transition target="walkLeft"/></state>
			<state id="walkLeft"><initial><transition target="a"/></initial><history id="h"><transition target="a"/></history><state id="a"/></state>`), nil},
		{"another stencil", doc(` ff:stencil="mario"`, `<state id="a"/>`),
			[]string{`scxml: the chart was made with stencil "mario", not "goomba"`}},
		{"another version", doc(` ff:stencil="goomba" ff:stencilVersion="0"`, `<state id="a"/>`),
			[]string{`warning: scxml: the chart was made with version "0" of stencil "goomba"; this is version "1"`}},
		{"no stencil named", doc(``, `<state id="a"/>`),
			[]string{`warning: scxml: the file does not name its stencil; read as made with stencil "goomba"`}},
		{"bad tests and actions", doc(root, `<state id="walkLeft">
			<onentry><ff:action property="Speed" value="fast"/><ff:action property="XMovement" value="up"/><ff:action value="x"/></onentry>
			<transition event="jump" target="walkLeft"/>
			<transition event="hitByPlayer" cond="hitTriggerLeft" target="walkLeft"/>
			<transition event="a b" target="walkLeft"/>
			<transition target="walkLeft"/>
		</state>`), []string{
			`scxml: state "walkLeft": action property "Speed" is not in stencil "goomba"`,
			`scxml: state "walkLeft": XMovement value "up" is not in the drop-list of stencil "goomba"`,
			`scxml: <ff:action> without a property`,
			`scxml: test "jump" is not in stencil "goomba"`,
			`scxml: the transition has both event "hitByPlayer" and cond "hitTriggerLeft"`,
			`scxml: the transition's event names 2 events, "a b"`,
			`scxml: transition without a test`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := read(t, tt.src, scxml.Options{Stencil: st})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			checkDiags(t, c, tt.want)
			if tt.name == "nested" {
				want := []string{`S #initial "" start initial`, `S walk "walk" normal XMovement=left`, `S walkLeft "walkLeft" normal in walk initial Animation=moveLeft`,
					`T #initial#1 #initial->walkLeft "" #1`}
				if got := summary(c); !slices.Equal(got, want) {
					t.Errorf("Read = %q, want %q", got, want)
				}
			}
			if tt.name == "another stencil" && (len(c.States) != 0 || err == nil) {
				t.Errorf("Read = %d states, %v; want none and an error", len(c.States), err)
			}
		})
	}
}

// TestBadInput checks the files Read refuses, and the encodings it
// reads.
func TestBadInput(t *testing.T) {
	deep := `<scxml xmlns="http://www.w3.org/2005/07/scxml">` + strings.Repeat("<state>", 200) + strings.Repeat("</state>", 200) + `</scxml>`
	deepExec := `<scxml xmlns="http://www.w3.org/2005/07/scxml"><state><onentry>` + strings.Repeat("<if>", 200) + strings.Repeat("</if>", 200) + `</onentry></state></scxml>`
	for _, tt := range []struct {
		name, src string
		opt       scxml.Options
		err       error
		msg       string
	}{
		{"empty", "", scxml.Options{}, scxml.ErrNotSCXML, "test.scxml: scxml: the file is empty"},
		{"spaces", " \n\t", scxml.Options{}, scxml.ErrNotSCXML, "the file is empty"},
		{"binary", "\x00\x01\x02<scxml>", scxml.Options{}, scxml.ErrNotSCXML, "this is a binary file, not an SCXML document"},
		{"zip", "PK\x03\x04rest", scxml.Options{}, scxml.ErrNotSCXML, "this is a zip archive"},
		{"gzip", "\x1F\x8Brest", scxml.Options{}, scxml.ErrNotSCXML, "gzip"},
		{"text", "state a -> b", scxml.Options{}, scxml.ErrNotSCXML, `this is a text file that is not XML, not an SCXML document (it starts with "state a -> b")`},
		{"draw.io", `<mxfile><diagram/></mxfile>`, scxml.Options{}, scxml.ErrNotSCXML, "test.scxml:1:1: scxml: the root element is <mxfile>, not <scxml>"},
		{"other namespace", `<scxml xmlns="urn:x"/>`, scxml.Options{}, scxml.ErrNotSCXML, `the root element <scxml> is in namespace "urn:x"`},
		{"no root", `<?xml version="1.0"?><!-- nothing -->`, scxml.Options{}, scxml.ErrNotSCXML, "the file has no root element"},
		{"malformed", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\">\n</scxml>", scxml.Options{}, scxml.ErrMalformed,
			"test.scxml:3:9: scxml: malformed XML: element <state> closed by </scxml>"},
		{"unclosed", `<scxml xmlns="http://www.w3.org/2005/07/scxml"><state>`, scxml.Options{}, scxml.ErrMalformed, "malformed XML: unexpected EOF"},
		{"unclosed in skipped content", `<scxml xmlns="http://www.w3.org/2005/07/scxml"><datamodel><data>`, scxml.Options{}, scxml.ErrMalformed, "malformed XML: unexpected EOF"},
		{"entity", `<scxml xmlns="http://www.w3.org/2005/07/scxml" name="&nbsp;"/>`, scxml.Options{}, scxml.ErrMalformed, "invalid character entity &nbsp;"},
		{"two roots", `<scxml xmlns="http://www.w3.org/2005/07/scxml"/><scxml/>`, scxml.Options{}, scxml.ErrMalformed, "an element after the end of the root element"},
		{"invalid UTF-8", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"\xff\"/></scxml>", scxml.Options{}, scxml.ErrMalformed, "test.scxml:2:12: scxml: malformed XML: invalid UTF-8"},
		{"unknown encoding", `<?xml version="1.0" encoding="Shift_JIS"?><scxml/>`, scxml.Options{}, scxml.ErrMalformed, `encoding "shift_jis" is not supported`},
		{"UTF-16 declared, not UTF-16", `<?xml version="1.0" encoding="UTF-16"?><scxml/>`, scxml.Options{}, scxml.ErrMalformed, "no UTF-16 byte-order mark"},
		{"odd UTF-16", "\xFF\xFE<\x00s", scxml.Options{}, scxml.ErrNotSCXML, "starts like UTF-16"},
		{"too large", doc("", ""), scxml.Options{MaxSize: 100}, scxml.ErrTooLarge, "the file is larger than 100 bytes"},
		{"too deep", deep, scxml.Options{}, scxml.ErrTooDeep, "scxml: elements nest more than 132 deep"},
		{"too many elements", doc("", strings.Repeat(`<state><onentry><send/></onentry></state>`, 10)), scxml.Options{MaxElements: 29}, scxml.ErrTooLarge,
			"test.scxml:3:377: scxml: the file has more than 29 elements"},
		{"too deep in skipped content", deepExec, scxml.Options{MaxDepth: 50}, scxml.ErrTooDeep, "scxml: elements nest more than 82 deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := read(t, tt.src, tt.opt)
			if c != nil || !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Read = %v, %v; want nil, an error wrapping %v with %q", c, err, tt.err, tt.msg)
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 {
				t.Errorf("Read error %T is not a one-diagnostic list", err)
			}
		})
	}

	// Encodings that are read.
	body := `<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="caf` + "\u00e9" + `"/></scxml>`
	utf16 := func(s string, big bool) string {
		var b []byte
		if big {
			b = []byte{0xFE, 0xFF}
		} else {
			b = []byte{0xFF, 0xFE}
		}
		for _, r := range s {
			if big {
				b = append(b, byte(r>>8), byte(r))
			} else {
				b = append(b, byte(r), byte(r>>8))
			}
		}
		return string(b)
	}
	for _, tt := range []struct{ name, src string }{
		{"UTF-8", body},
		{"UTF-8 with BOM", "\xEF\xBB\xBF" + `<?xml version="1.0" encoding="UTF-8"?>` + body},
		{"UTF-16LE", utf16(`<?xml version="1.0" encoding="UTF-16"?>`+body, false)},
		{"UTF-16BE", utf16(body, true)},
		{"ISO 8859-1", `<?xml version="1.0" encoding="ISO-8859-1"?><scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="caf` + "\xe9" + `"/></scxml>`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := read(t, tt.src, scxml.Options{})
			if err != nil || len(c.States) != 1 || c.States[0].Name != "café" {
				t.Errorf("Read = %v, %v; want one state café", c, err)
			}
		})
	}
}

// TestReadFile reads a file by path and names the chart after its name
// attribute, or else after the file.
func TestReadFile(t *testing.T) {
	c, err := scxml.ReadFile("testdata/qt_trafficlight.scxml", scxml.Options{Lenient: true})
	if err != nil || c.Name != "TrafficLightStateMachine" || c.File != "testdata/qt_trafficlight.scxml" {
		t.Errorf("ReadFile = %v, %v; want a chart named TrafficLightStateMachine", c, err)
	}
	c, err = scxml.Read(strings.NewReader(doc(``, `<state id="a"/>`)), scxml.Options{File: "dir/lights.scxml"})
	if err != nil || c.Name != "lights" {
		t.Errorf("Read of a machine without a name = %v, %v; want a chart named lights", c, err)
	}
	c, err = scxml.Read(strings.NewReader(doc(` ff:chain="true" ff:chainLimit="7"`, `<state id="a"/>`)), scxml.Options{})
	if err != nil || !c.Chain || c.ChainLimit != 7 {
		t.Errorf("Read of ff:chain = %v, %v; want a chart that chains, at most 7", c, err)
	}
	c, err = scxml.Read(strings.NewReader(doc(` name="lights"`, `<state id="a"/>`)), scxml.Options{})
	if err != nil || c.Name != "lights" {
		t.Errorf("Read without a file name = %v, %v; want a chart named lights", c, err)
	}
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{doc(``, `<state id="a"/>`), false}, // fsmforge's chart: flat, runs as drawn
		{doc(` ff:statechart="true"`, `<state id="a"/>`), true},
		{`<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="a"/></scxml>`, true}, // any other SCXML file
	} {
		c, err = scxml.Read(strings.NewReader(tt.src), scxml.Options{})
		if err != nil || c.Statechart != tt.want {
			t.Errorf("Read(%s): Statechart %v (%v), want %v", tt.src, c.Statechart, err, tt.want)
		}
	}
	c, _ = scxml.Read(strings.NewReader(doc(` ff:statechart="yes"`, `<state id="a"/>`)), scxml.Options{})
	checkDiags(t, c, []string{`warning: scxml: ff:statechart "yes" is not true or false; ignored`})
	_, err = scxml.ReadFile("testdata/missing.scxml", scxml.Options{})
	if err == nil || !strings.Contains(err.Error(), "testdata/missing.scxml: scxml: cannot read the file: no such file or directory") {
		t.Errorf("ReadFile(missing) = %v", err)
	}
}

// TestQtCreatorSaved reads the Goomba as Qt Creator saves it after a
// designer moved a state, renamed an event and added a state: its
// qt:editorversion, editor info on the root and on transitions, transition
// types, and the fsmforge attributes it keeps.
func TestQtCreatorSaved(t *testing.T) {
	const saved = `<?xml version="1.0" encoding="UTF-8"?>
<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" xmlns:qt="http://www.qt.io/2015/02/scxml-ext" version="1.0" name="goomba" ff:stencil="goomba" ff:stencilVersion="1" qt:editorversion="13.0.0" initial="walkLeft">
    <qt:editorinfo initialGeometry="100;200;-20;-20;40;40"/>
    <state id="walkLeft" ff:id="1">
        <qt:editorinfo geometry="150.50;310;-60;-50;144;72" scenegeometry="150.50;310;90.50;260;144;72"/>
        <onentry>
            <ff:action property="XMovement" value="left"/>
            <ff:action property="Animation" value="moveLeft"/>
        </onentry>
        <transition type="external" event="hitTriggerLeft" target="walkRight" ff:id="4">
            <qt:editorinfo movePoint="10;-4"/>
        </transition>
        <transition type="external" event="hitByPlayer" target="death" ff:id="6"/>
    </state>
    <state id="walkRight" ff:id="2">
        <onentry>
            <ff:action property="XMovement" value="right"/>
            <ff:action property="Animation" value="moveRight"/>
        </onentry>
        <transition type="external" event="hitTriggerRight" target="walkLeft" ff:id="5"/>
        <transition type="external" event="Transition_1" target="State_1"/>
    </state>
    <state id="State_1">
        <qt:editorinfo geometry="400;400;-60;-50;120;100" scenegeometry="400;400;340;350;120;100"/>
    </state>
    <state id="death" ff:id="3">
        <onentry>
            <ff:action property="XMovement" value="death"/>
            <ff:action property="Animation" value="death"/>
        </onentry>
        <transition type="external" event="animationDone" target="Final" ff:id="8"/>
    </state>
    <final id="Final" ff:implicit="true"/>
</scxml>
`
	c, err := read(t, saved, scxml.Options{Stencil: charttest.Stencil(t)})
	want := []string{
		`S 1 "walkLeft" normal initial XMovement=left Animation=moveLeft`,
		`S 2 "walkRight" normal XMovement=right Animation=moveRight`,
		`S State_1 "State_1" normal`,
		`S 3 "death" normal XMovement=death Animation=death`,
		`T 4 1->2 "hitTriggerLeft" #1`, `T 6 1->3 "hitByPlayer" #2`, `T 5 2->1 "hitTriggerRight" #1`,
		`T 8 3->(final) "animationDone" #1`,
	}
	if got := summary(c); !slices.Equal(got, want) {
		t.Errorf("Read =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b := c.States[0].Box; b == nil || *b != (chart.Box{X: 90.5, Y: 260, W: 144, H: 72}) {
		t.Errorf("walkLeft: Box = %+v, want {90.5 260 144 72}", b)
	}
	if err == nil || err.Error() != `test.scxml:21:9: shape 2#2: scxml: test "Transition_1" is not in stencil "goomba"` {
		t.Errorf("Read = %v, want an error for the new transition's test", err)
	}
	for _, d := range c.Diagnostics.Errors() {
		if !strings.Contains(d.Hint, "pick one of hitTriggerLeft, animationDone, hitTriggerRight, hitByPlayer") {
			t.Errorf("hint %q", d.Hint)
		}
	}
}
