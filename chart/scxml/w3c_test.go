package scxml_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/w3c"
)

// w3cData is package internal/w3c's copy of the W3C SCXML conformance
// tests that need no data model (see its README.md; its TestCopies checks
// it against the shared fixtures).
const w3cData = "../../internal/w3c/testdata"

// w3cTests are the conformance tests that need no data model, which
// package compile must pass: what each must read as (features, see
// features), and the errors of the strict reading, each with its
// position, for the executable content a chart does not have.
var w3cTests = []struct {
	file     string
	features []string
	errors   []string
}{
	{"txml/test144.txml", []string{"raise", "event *"}, nil},
	{"txml/test310.txml", []string{"parallel", "guard In()", "eventless"}, nil},
	{"txml/test355.txml", []string{"eventless"}, nil},
	{"txml/test375.txml", []string{"raise"}, nil},
	{"txml/test377.txml", []string{"exit actions", "raise", "eventless"}, nil},
	{"txml/test404.txml", []string{"parallel", "exit actions", "transition actions", "raise"}, nil},
	{"txml/test413.txml", []string{"parallel", "start", "several targets", "guard In()"}, nil},
	{"txml/test189.txml", []string{"send", "raise"}, nil},
	{"txml/test200.txml", []string{"send"}, nil},
	{"txml/test348.txml", []string{"send"}, nil},
	{"txml/test419.txml", []string{"raise", "send", "eventless", "event *"}, nil},
	{"txml/test421.txml", []string{"raise", "send"}, nil},
	{"txml/test495.txml", []string{"raise", "send"}, nil},
	{"txml/test185.txml", []string{"delayed send"}, nil},
	{"txml/test208.txml", []string{"delayed send", "timer", "cancel"}, nil},
	{"txml/test364.txml", []string{"parallel", "start", "several targets", "delayed send"}, nil},
	{"txml/test387.txml", []string{"history", "deepHistory", "delayed send"}, nil},
	{"txml/test399.txml", []string{"several events", "event foo.*", "event *"}, nil},
	{"txml/test405.txml", []string{"parallel", "exit actions", "transition actions"}, nil},
	{"txml/test406.txml", []string{"parallel", "transition actions"}, nil},
	{"txml/test409.txml", []string{"delayed send", "eventless"}, nil},
	{"txml/test411.txml", []string{"delayed send"}, nil},
	{"txml/test412.txml", []string{"start", "transition actions", "raise"}, nil},
	{"txml/test416.txml", []string{"final inside", "delayed send"}, nil},
	{"txml/test417.txml", []string{"parallel", "final inside", "delayed send"}, nil},
	{"txml/test423.txml", []string{"delayed send", "raise"}, nil},
	{"txml/test576.txml", []string{"parallel", "start", "several targets"}, nil},
	{"txml/test415.txml", []string{"raise"}, nil},
	{"null/test436.scxml", []string{"parallel", "guard In()"}, []string{
		`test436.scxml:15:7: shape pass: note: scxml: <log> in <onentry> of final "pass" is left out`,
		`test436.scxml:20:7: shape fail: note: scxml: <log> in <onentry> of final "fail" is left out`,
	}},
}

// w3cDoc reads file of w3cData, converted by [w3c.Convert].
func w3cDoc(t testing.TB, file string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(w3cData, file))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := w3c.Convert(src)
	if err != nil {
		t.Fatalf("w3c.Convert(%s) = %v", file, err)
	}
	return doc
}

// features lists what a chart uses of statecharts, for TestW3C.
func features(c *chart.Chart) []string {
	var out []string
	add := func(f string) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	actions := func(list []chart.Action) {
		for _, a := range list {
			switch {
			case a.Kind == chart.SendAction && a.Delay > 0:
				add("delayed send")
			default:
				add(a.Kind.String())
			}
			if a.Kind == chart.SendAction && a.Timer != "" {
				add("timer")
			}
		}
	}
	for _, s := range c.States {
		switch {
		case s.Kind == chart.EndState && s.Parent != "":
			add("final inside")
		case s.Kind != chart.NormalState && s.Kind != chart.EndState:
			add(s.Kind.String())
		}
		actions(s.Entry)
		if len(s.Exit) > 0 {
			add("exit actions")
			actions(s.Exit)
		}
	}
	for _, t := range c.Transitions {
		if len(t.Actions) > 0 {
			add("transition actions")
			actions(t.Actions)
		}
		if len(t.Also) > 0 {
			add("several targets")
		}
		if strings.HasPrefix(t.Guard, "In(") {
			add("guard In()")
		}
		if t.Event == "" && !strings.HasPrefix(t.From, "#initial") && !strings.HasSuffix(t.From, "#initial") {
			add("eventless")
		}
		for _, e := range strings.Fields(t.Event) {
			if strings.Contains(e, "*") {
				add("event " + e)
			}
		}
		if strings.Contains(t.Event, " ") {
			add("several events")
		}
	}
	return out
}

// TestW3C reads the conformance tests that need no data model, converted
// for the null data model by [w3c.Convert]: each reads without an error, but for the
// executable content a chart does not have (<if>, <log>), and uses what
// it tests (parallel states, histories, delayed events...). Read
// leniently, none has an error.
func TestW3C(t *testing.T) {
	for _, w := range w3cTests {
		t.Run(w.file, func(t *testing.T) {
			doc := w3cDoc(t, w.file)
			name := filepath.Base(w.file)
			c, err := scxml.Read(bytes.NewReader(doc), scxml.Options{File: name})
			charttest.CheckChart(t, c, err)
			if c == nil {
				t.Fatalf("Read = %v", err)
			}
			var got []string
			for _, d := range c.Diagnostics {
				got = append(got, d.Error())
			}
			if !c.Statechart {
				t.Error("Read: Statechart false, want true")
			}
			if !slices.Equal(got, w.errors) {
				t.Errorf("Read: diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(w.errors, "\n"))
			}
			var ids []string
			for _, s := range c.States {
				ids = append(ids, s.ID)
			}
			if w.file != "txml/test415.txml" && (!slices.Contains(ids, "pass") || !slices.Contains(ids, "fail")) { // 415 halts in its own final state
				t.Errorf("Read: states %q, want pass and fail among them", ids)
			}
			f := features(c)
			for _, want := range w.features {
				if !slices.Contains(f, want) {
					t.Errorf("Read: features %q, want %s", f, want)
				}
			}

			c, err = scxml.Read(bytes.NewReader(doc), scxml.Options{File: name, Lenient: true})
			charttest.CheckChart(t, c, err)
			if err != nil {
				t.Errorf("Read leniently = %v", err)
			}
		})
	}
}

// ExampleRead_w3c reads test 576 of the W3C conformance suite, converted
// for the null data model: the machine starts in two states of the
// regions of a parallel state, deep inside a compound one.
func ExampleRead_w3c() {
	const test576 = `<scxml initial="s11p112 s11p122" datamodel="null" version="1.0" xmlns="http://www.w3.org/2005/07/scxml">
<state id="s0">
  <transition target="fail"/>
</state>
<state id="s1">
  <onentry>
    <send event="timeout" delay="1s"/>
  </onentry>
  <transition event="timeout" target="fail"/>
  <state id="s11" initial="s111">
    <state id="s111"/>
    <parallel id="s11p1">
      <state id="s11p11" initial="s11p111">
        <state id="s11p111"/>
        <state id="s11p112">
          <onentry>
            <raise event="In-s11p112"/>
          </onentry>
        </state>
      </state>
      <state id="s11p12" initial="s11p121">
        <state id="s11p121"/>
        <state id="s11p122">
          <transition event="In-s11p112" target="pass"/>
        </state>
      </state>
    </parallel>
  </state>
</state>
<final id="pass"/>
<final id="fail"/>
</scxml>`
	c, err := scxml.Read(strings.NewReader(test576), scxml.Options{File: "test576.scxml"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.States {
		line := fmt.Sprintf("%-10s %-8s", s.ID, s.Kind)
		if s.Parent != "" {
			line += " in " + s.Parent
		}
		if s.Initial {
			line += " (initial)"
		}
		for _, a := range s.Entry {
			line += fmt.Sprintf(" entry: %s %s", a.Kind, a.Event)
			if a.Delay > 0 {
				line += fmt.Sprintf(" after %gs", a.Delay)
			}
		}
		fmt.Println(strings.TrimSpace(line))
	}
	for _, t := range c.Transitions {
		line := t.ID + ": " + t.From + " -> " + strings.Join(append([]string{t.Target.String()}, t.Also...), " ")
		if t.Event != "" {
			line += " on " + t.Event
		}
		fmt.Println(line)
	}
	// Output:
	// #initial   start    (initial)
	// s0         normal
	// s1         normal   entry: send timeout after 1s
	// s11        normal   in s1 (initial)
	// s111       normal   in s11 (initial)
	// s11p1      parallel in s11
	// s11p11     normal   in s11p1
	// s11p111    normal   in s11p11 (initial)
	// s11p112    normal   in s11p11 entry: raise In-s11p112
	// s11p12     normal   in s11p1
	// s11p121    normal   in s11p12 (initial)
	// s11p122    normal   in s11p12
	// pass       end
	// fail       end
	// #initial#1: #initial -> s11p112 s11p122
	// s0#1: s0 -> fail
	// s1#1: s1 -> fail on timeout
	// s11p122#1: s11p122 -> pass on In-s11p112
}
