package visio_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// oddStencil has what Visio row names cannot hold (spaces, punctuation,
// two names that clean up alike), no initial state and no message handler.
func oddStencil() *chart.Stencil {
	return &chart.Stencil{
		Name:       "door & lock",
		Masters:    chart.Masters{State: "Room <big>", Transition: "Door 'n' hall"},
		Properties: chart.Properties{Name: "Room name", Test: "When?", Stack: "1 stack"},
		Tests:      []chart.Test{{Name: "open"}, {Name: "knock knock", Values: []string{"1", "2"}}},
		Actions: []chart.Property{
			{Name: "Light level", Values: []string{"dark", "lit & bright"}},
			{Name: "Light-level", Values: []string{"a", "b", "c"}},
		},
	}
}

// startStencil is the Goomba's stencil with a start master instead of an
// initial-state master: the machine starts where the start's transition
// goes.
func startStencil(t testing.TB) *chart.Stencil {
	st := charttest.Stencil(t)
	st.Name = "goomba with a start"
	st.Masters.Initial, st.Masters.Start = "", "Start"
	return st
}

// TestWriteStencil writes stencils as .vsx files, reads them back as
// documents (masters, no pages), checks that their masters carry the
// stencil's vocabulary (the sentry's, its masters of statecharts too), and
// reads a drawing made with those masters with the stencil: without a
// single diagnostic. (TestGoldenSentry reads one drawn with the masters of
// statecharts.)
func TestWriteStencil(t *testing.T) {
	for _, st := range []*chart.Stencil{charttest.Stencil(t), oddStencil(), sentry(t), startStencil(t)} {
		t.Run(st.Name, func(t *testing.T) {
			var b, again bytes.Buffer
			if err := visio.WriteStencil(&b, st); err != nil {
				t.Fatal(err)
			}
			if err := visio.WriteStencil(&again, st); err != nil || !bytes.Equal(b.Bytes(), again.Bytes()) {
				t.Errorf("WriteStencil twice gives different bytes (%v)", err)
			}
			vsx := b.Bytes()
			doc, err := visio.DecodeVDX(bytes.NewReader(vsx), visio.Options{File: "s.vsx"})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Title != st.Name || len(doc.Pages) != 0 || len(doc.Diagnostics) != 0 {
				t.Errorf("DecodeVDX = title %q, %d pages, %v", doc.Title, len(doc.Pages), doc.Diagnostics)
			}
			c, err := visio.Interpret(doc, visio.Options{Stencil: st})
			if err == nil || !strings.Contains(err.Error(), "s.vsx: visio: the drawing has no pages") || c == nil {
				t.Errorf("Interpret(stencil file) = %v", err)
			}
			checkVocabulary(t, doc, st)
			checkMasterXML(t, vsx, st)

			d := stencilDrawing(t, vsx, doc, st)
			c, err = visio.Read(bytes.NewReader(d.data), visio.Options{File: "d.vdx", Stencil: st})
			if err != nil || len(c.Diagnostics) != 0 {
				t.Fatalf("Read(drawing made with the stencil) = %v, %v", err, c.Diagnostics)
			}
			checkChart(t, c, err)
			var states []string
			for _, s := range c.States {
				var entry []string
				for _, a := range s.Entry {
					entry = append(entry, a.Property+"="+a.Value)
				}
				states = append(states, fmt.Sprintf("%s %v %s", s.Name, s.Initial, strings.Join(entry, ",")))
			}
			if !slices.Equal(states, d.states) {
				t.Errorf("states = %q\nwant %q", states, d.states)
			}
			if got := summary(c); !slices.Equal(got, d.transitions) {
				t.Errorf("transitions = %q\nwant %q", got, d.transitions)
			}
		})
	}
}

// checkVocabulary reads the stencil's vocabulary back from the masters.
func checkVocabulary(t *testing.T, doc *visio.Document, st *chart.Stencil) {
	t.Helper()
	names := st.PropertyNames()
	var masters []string
	for _, m := range doc.Masters {
		masters = append(masters, m.NameU+"="+m.Name)
		if len(m.Shapes) != 1 {
			t.Fatalf("master %s has %d shapes", m.NameU, len(m.Shapes))
		}
	}
	var want []string
	for _, m := range []string{st.Masters.Initial, st.Masters.State, st.Masters.Transition, st.Masters.AnyState,
		st.Masters.Composite, st.Masters.Parallel, st.Masters.History, st.Masters.DeepHistory, st.Masters.Start} {
		if m != "" {
			want = append(want, m+"="+m)
		}
	}
	if !slices.Equal(masters, want) {
		t.Errorf("masters = %q, want %q", masters, want)
	}
	labels := func(s *visio.Shape) []string {
		var out []string
		for _, p := range s.Props {
			l := fmt.Sprintf("%s:%d", p.Label, p.Type)
			if list := p.List(); list != nil {
				l += "[" + strings.Join(list, ";") + "]=" + p.Value
			}
			out = append(out, l)
		}
		return out
	}
	state := []string{names.Name + ":0"}
	for _, a := range st.Actions {
		state = append(state, fmt.Sprintf("%s:1[%s]=%s", a.Name, strings.Join(a.Values, ";"), a.Values[0]))
	}
	var tests []string
	for _, tt := range st.Tests {
		tests = append(tests, tt.Name)
	}
	transition := []string{fmt.Sprintf("%s:1[%s]=%s", names.Test, strings.Join(tests, ";"), tests[0]), names.Value + ":0", names.Order + ":2", names.Stack + ":1[none;push;return]=none", names.Final + ":3"}
	for _, m := range doc.Masters {
		s := m.Shapes[0]
		switch r := st.Role(m.NameU); {
		case r.HasActions():
			if got := labels(s); !slices.Equal(got, state) || s.OneD {
				t.Errorf("master %s: rows %q, want %q", m.NameU, got, state)
			}
		case r.Kind().IsHistory():
			text := map[chart.Role]string{chart.RoleHistory: "H", chart.RoleDeepHistory: "H*"}[r]
			if len(s.Props) != 0 || s.OneD || s.Text != text {
				t.Errorf("master %s: rows %q, text %q, want none and %q", m.NameU, labels(s), s.Text, text)
			}
		case r == chart.RoleStart:
			if len(s.Props) != 0 || s.OneD || s.Text != "" {
				t.Errorf("master %s: rows %q, text %q, want none", m.NameU, labels(s), s.Text)
			}
		case r == chart.RoleTransition:
			if got := labels(s); !slices.Equal(got, transition) || !s.OneD {
				t.Errorf("master %s: rows %q, want %q; 1-D %v", m.NameU, got, transition, s.OneD)
			}
		case r == chart.RoleAnyState:
			if len(s.Props) != 0 || s.OneD {
				t.Errorf("master %s: rows %q", m.NameU, labels(s))
			}
		}
	}
}

type drawing struct {
	data                []byte
	states, transitions []string
}

// stencilDrawing makes a drawing from a written stencil: its masters, and
// a page of their instances, each row setting its value only, as Visio
// writes them.
func stencilDrawing(t *testing.T, vsx []byte, doc *visio.Document, st *chart.Stencil) drawing {
	t.Helper()
	master := map[string]*visio.Master{}
	for _, m := range doc.Masters {
		master[m.NameU] = m
	}
	row := func(m *visio.Master, label string) string { // the row the stencil's property has
		for _, p := range m.Shapes[0].Props {
			if p.Label == label {
				return p.Row
			}
		}
		t.Fatalf("master %s has no row %q", m.NameU, label)
		return ""
	}
	names := st.PropertyNames()
	var shapes, connects strings.Builder
	var d drawing
	id := 0
	state := func(role string, name string, initial bool, pick func(values []string) string) string {
		id++
		m := master[role]
		fmt.Fprintf(&shapes, "<Shape ID='%d' NameU='%s.%d' Type='Shape' Master='%s'><XForm><PinX>%d</PinX><PinY>5</PinY></XForm>", id, escape(role), id, m.ID, 2*id)
		fmt.Fprintf(&shapes, "<Prop NameU='%s' ID='1'><Value Unit='STR'>%s</Value></Prop>", row(m, names.Name), escape(name))
		var entry []string
		for i, a := range st.Actions {
			v := pick(a.Values)
			fmt.Fprintf(&shapes, "<Prop NameU='%s' ID='%d'><Value Unit='STR'>%s</Value></Prop>", row(m, a.Name), i+2, escape(v))
			entry = append(entry, a.Name+"="+v)
		}
		shapes.WriteString("</Shape>\n")
		d.states = append(d.states, fmt.Sprintf("%s %v %s", name, initial, strings.Join(entry, ",")))
		return fmt.Sprint(id)
	}
	transition := func(from, to, test string, more ...[2]string) {
		id++
		m := master[st.Masters.Transition]
		fmt.Fprintf(&shapes, "<Shape ID='%d' Type='Shape' Master='%s'><XForm1D><BeginX>1</BeginX><BeginY>1</BeginY><EndX>2</EndX><EndY>2</EndY></XForm1D>", id, m.ID)
		fmt.Fprintf(&shapes, "<Prop NameU='%s' ID='1'><Value Unit='STR'>%s</Value></Prop>", row(m, names.Test), escape(test))
		for i, kv := range more {
			fmt.Fprintf(&shapes, "<Prop NameU='%s' ID='%d'><Value Unit='STR'>%s</Value></Prop>", row(m, kv[0]), i+2, escape(kv[1]))
		}
		shapes.WriteString("</Shape>\n")
		if from != "" {
			fmt.Fprintf(&connects, "<Connect FromSheet='%d' FromCell='BeginX' ToSheet='%s'/>", id, from)
		}
		if to != "" {
			fmt.Fprintf(&connects, "<Connect FromSheet='%d' FromCell='EndX' ToSheet='%s'/>", id, to)
		}
	}
	first := func(v []string) string { return v[0] }
	last := func(v []string) string { return v[len(v)-1] }
	tests := st.Tests
	var a, b string
	if st.Masters.Initial != "" {
		a = state(st.Masters.Initial, "start here", true, last)
	} else {
		a = state(st.Masters.State, "start here", false, last)
	}
	b = state(st.Masters.State, "then", false, first)
	if st.Masters.Start != "" && st.Masters.Initial == "" {
		// A start says where the machine starts, by a transition whose
		// test is cleared.
		id++
		fmt.Fprintf(&shapes, "<Shape ID='%d' NameU='%s.%d' Type='Shape' Master='%s'><XForm><PinX>1</PinX><PinY>7</PinY></XForm></Shape>\n",
			id, escape(st.Masters.Start), id, master[st.Masters.Start].ID)
		d.states = append(d.states, " true ") // nameless, marked initial, no entry actions
		s := fmt.Sprint(id)
		transition(s, a, "")
		d.transitions = append(d.transitions, fmt.Sprintf("%s --> %s #1", s, a))
	}
	value := "7"
	if len(tests[len(tests)-1].Values) > 0 {
		value = tests[len(tests)-1].Values[0]
	}
	transition(a, b, tests[0].Name, [2]string{names.Order, "2"})
	transition(b, a, tests[len(tests)-1].Name, [2]string{names.Value, value}, [2]string{names.Stack, "push"})
	transition(b, "", tests[0].Name, [2]string{names.Stack, "return"})
	transition(a, "", tests[len(tests)-1].Name, [2]string{names.Final, "1"}, [2]string{names.Order, "1"})
	d.transitions = append(d.transitions,
		fmt.Sprintf("%s -%s-> %s #2", a, tests[0].Name, b),
		fmt.Sprintf("%s -%s+-> %s #1", b, tests[len(tests)-1].Name, a),
		fmt.Sprintf("%s -%s-> (return) #2", b, tests[0].Name),
		fmt.Sprintf("%s -%s-> (final) #1", a, tests[len(tests)-1].Name),
	)
	if st.Masters.AnyState != "" {
		id++
		fmt.Fprintf(&shapes, "<Shape ID='%d' Type='Shape' Master='%s'/>\n", id, master[st.Masters.AnyState].ID)
		h := fmt.Sprint(id)
		transition(h, a, tests[len(tests)-1].Name)
		d.transitions = append(d.transitions, fmt.Sprintf("* -%s-> %s #1", tests[len(tests)-1].Name, a))
	}
	pages := "<Pages><Page ID='0' NameU='Page-1' Name='Page-1'><PageSheet><PageProps><PageWidth>8.5</PageWidth><PageHeight>11</PageHeight></PageProps></PageSheet>\n<Shapes>\n" +
		shapes.String() + "</Shapes><Connects>" + connects.String() + "</Connects></Page></Pages>\n"
	i := bytes.LastIndex(vsx, []byte("</VisioDocument>"))
	d.data = slices.Concat(vsx[:i], []byte(pages), vsx[i:])
	return d
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", "'", "&apos;").Replace(s)
}

// TestWriteStencilInvalid refuses a stencil that does not validate, and
// reports the writer's error.
func TestWriteStencilInvalid(t *testing.T) {
	var b bytes.Buffer
	err := visio.WriteStencil(&b, &chart.Stencil{Name: "x"})
	var l diag.List
	if !errors.As(err, &l) || !strings.Contains(err.Error(), "the state master is missing") || b.Len() != 0 {
		t.Errorf("WriteStencil(invalid) = %v, wrote %d bytes", err, b.Len())
	}
	if err := visio.WriteStencil(&b, nil); err == nil {
		t.Errorf("WriteStencil(nil) = nil")
	}
	if err := visio.WriteStencil(failWriter{}, charttest.Stencil(t)); err == nil || err.Error() != "disk full" {
		t.Errorf("WriteStencil(failing writer) = %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
