package mermaid_test

import (
	"bytes"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/mermaid"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

type golden struct {
	name  string // testdata/<name>.mmd
	chart func(testing.TB) *chart.Chart
	opt   mermaid.Options
}

func goldens() []golden {
	return []golden{
		{"goomba", goomba, mermaid.Options{}},
		{"lucidchart", lucidchart, mermaid.Options{LeftToRight: true}},
		{"guard", func(testing.TB) *chart.Chart { return guard() }, mermaid.Options{Title: "guard: a hand-built chart"}},
		{"soldier", func(testing.TB) *chart.Chart { return soldier() }, mermaid.Options{}},
	}
}

func write(t testing.TB, c *chart.Chart, opt mermaid.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := mermaid.Write(&b, c, opt); err != nil {
		t.Fatalf("Write = %v", err)
	}
	return b.Bytes()
}

// TestGolden compares the Mermaid of the Goomba, the Lucidchart diagram
// and the hand-built charts with testdata/*.mmd; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tt := range goldens() {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.chart(t)
			got := write(t, c, tt.opt)
			if again := write(t, c, tt.opt); !bytes.Equal(got, again) {
				t.Fatalf("two writes of one chart differ")
			}
			if _, err := parseMermaid(string(got)); err != nil {
				t.Errorf("parseMermaid = %v\n%s", err, got)
			}
			charttest.GoldenBytes(t, got, filepath.Join("testdata", tt.name+".mmd"), *update)
		})
	}
}

// transitions returns the set of "from-->to:label" of d's transitions.
func transitions(d *mmdDiagram) map[string]bool {
	m := map[string]bool{}
	for _, t := range d.transitions {
		m[t.from+"-->"+t.to+":"+t.label] = true
	}
	return m
}

// TestDrawing checks what the diagrams say, state by state, through the
// checker of syntax_test.go.
func TestDrawing(t *testing.T) {
	t.Run("goomba", func(t *testing.T) {
		d, err := parseMermaid(string(write(t, goomba(t), mermaid.Options{})))
		if err != nil {
			t.Fatal(err)
		}
		if d.title != "goomba" || d.direction != "" {
			t.Errorf("title %q, direction %q, want goomba and none", d.title, d.direction)
		}
		if len(d.states) != 3 || len(d.transitions) != 6 {
			t.Errorf("%d states, %d transitions, want 3 and 6", len(d.states), len(d.transitions))
		}
		s, _ := d.state("s0")
		if s.name != "walkLeft" || strings.Join(s.descr, "|") != "entry / XMovement=left|entry / Animation=moveLeft" {
			t.Errorf("s0 = %+v, want walkLeft and its entry actions", s)
		}
		tr := transitions(d)
		for _, want := range []string{"[*]-->s0:", "s0-->s1:1. hitTriggerLeft", "s0-->s2:2. hitByPlayer", "s2-->[*]:animationDone"} {
			if !tr[want] {
				t.Errorf("no transition %s in %v", want, tr)
			}
		}
	})
	t.Run("lucidchart", func(t *testing.T) {
		d, err := parseMermaid(string(write(t, lucidchart(t), mermaid.Options{LeftToRight: true})))
		if err != nil {
			t.Fatal(err)
		}
		if d.direction != "LR" {
			t.Errorf("direction = %q, want LR", d.direction)
		}
		// 15 states and 4 choices declared; the start and the 4 ends are [*].
		choices := 0
		for _, s := range d.states {
			if s.choice {
				choices++
			}
		}
		if len(d.states) != 19 || choices != 4 {
			t.Errorf("%d states, %d choices, want 19 and 4", len(d.states), choices)
		}
		if len(d.transitions) != 24 {
			t.Errorf("%d transitions, want 24", len(d.transitions))
		}
		from, to := 0, 0
		for _, tr := range d.transitions {
			if tr.from == "[*]" {
				from++
			}
			if tr.to == "[*]" {
				to++
			}
		}
		if from != 1 || to != 4 {
			t.Errorf("%d transitions from [*], %d to it, want 1 and 4", from, to)
		}
		if s, _ := d.state("s1"); s.name != "Existe um registro conforme os filtros próximo no BD?" {
			t.Errorf("s1 = %+v", s)
		}
		tr := transitions(d)
		for _, want := range []string{"[*]-->s0:", "s2-->s3:1. Sim", "s2-->s4:2. Não"} {
			if !tr[want] {
				t.Errorf("no transition %s in %v", want, tr)
			}
		}
	})
	t.Run("guard", func(t *testing.T) {
		d, err := parseMermaid(string(write(t, guard(), mermaid.Options{})))
		if err != nil {
			t.Fatal(err)
		}
		tr := transitions(d)
		for _, want := range []string{
			"[*]-->s0:", "s0-->s0:2. timeout (5)", "s0-->s1:1. seePlayer", "s1-->s2:1. inRange ⤴ push", "s2-->__return:done",
			"__any-->s3:1. hit", "__any-->[*]:2. killed", "s3-->__return:timeout (2)",
		} {
			if !tr[want] {
				t.Errorf("no transition %s in %v", want, tr)
			}
		}
		if s, ok := d.state("__any"); !ok || s.name != "any state" || d.classes["__any"] != "anyState" {
			t.Errorf("any state %+v, class %q", s, d.classes["__any"])
		}
		if s, ok := d.state("__return"); !ok || s.name != mermaid.Return || d.notes["__return"] == "" {
			t.Errorf("return state %+v, note %q", s, d.notes["__return"])
		}
		if d.title != "guard: a hand-built chart" && d.title != "guard" {
			t.Errorf("title %q", d.title)
		}
	})
}

// TestEscape draws states and transitions whose texts Mermaid would read
// as syntax, and reads them back.
func TestEscape(t *testing.T) {
	tests := []struct {
		text, want string // want: as Mermaid shows it; "" means text
	}{
		{text: `say "hi"`},
		{text: "a: b; c # d"},
		{text: "50%% done %%{init}%%"},
		{text: "<b>bold</b> & <br> &amp;"},
		{text: "x <<choice>> [[fork]] {y}"},
		{text: "turn direction LR now"},
		{text: "DIRECTION\u00a0TB"},
		{text: "two\nlines"},
		{text: "crlf\r\nline", want: "crlf\nline"},
		{text: "tab\there", want: "tab here"},
		{text: "bad \xff utf-8", want: "bad \uFFFD utf-8"},
		{text: "ünïcödé 😀 ↩"},
		{text: "`code` -->  [*]"},
		{text: "#35; is not an entity"},
		{text: "classDef x fill:#f00;"},
		{text: "note right of s0 : x"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			want := tt.want
			if want == "" {
				want = tt.text
			}
			c := &chart.Chart{
				Name: tt.text,
				States: []chart.State{
					{ID: tt.text, Name: tt.text, Initial: true},
					{ID: "b", Name: "b", Entry: []chart.Action{{Property: tt.text, Value: "v"}}},
					{ID: "c", Name: tt.text, Kind: chart.ChoiceState},
				},
				Transitions: []chart.Transition{
					{ID: "t", From: tt.text, Label: tt.text, Test: "x", Order: 1, Target: chart.Target{State: "b"}},
					{ID: "u", From: "b", Label: "y", Test: "y", Order: 1, Target: chart.Target{State: "c"}},
				},
			}
			out := write(t, c, mermaid.Options{})
			d, err := parseMermaid(string(out))
			if err != nil {
				t.Fatalf("parseMermaid = %v\n%s", err, out)
			}
			if len(d.states) != 3 || len(d.transitions) != 3 {
				t.Fatalf("%d states, %d transitions, want 3 and 3:\n%s", len(d.states), len(d.transitions), out)
			}
			if d.states[0].name != want {
				t.Errorf("state name = %q, want %q", d.states[0].name, want)
			}
			if got := d.transitions[1].label; got != want {
				t.Errorf("transition label = %q, want %q", got, want)
			}
			if got := d.states[1].descr; len(got) != 1 || got[0] != "entry / "+want+"=v" {
				t.Errorf("entry = %q, want entry / %s=v", got, want)
			}
			if got := d.notes["s2"]; got != want {
				t.Errorf("choice note = %q, want %q", got, want)
			}
			if d.title != strings.ToValidUTF8(tt.text, "\uFFFD") {
				t.Errorf("title = %q, want %q", d.title, tt.text)
			}
		})
	}
}

// TestPseudoStates draws a start that a transition enters and an end that
// one leaves as states of their own, since [*] would mean the other.
func TestPseudoStates(t *testing.T) {
	c := &chart.Chart{
		Name: "pseudo",
		States: []chart.State{
			{ID: "1", Kind: chart.StartState, Initial: true},
			{ID: "2", Name: "a"},
			{ID: "3", Kind: chart.EndState},
			{ID: "4", Kind: chart.StartState},
			{ID: "5", Kind: chart.EndState},
		},
		Transitions: []chart.Transition{
			{From: "1", Target: chart.Target{State: "2"}},
			{From: "2", Test: "stop", Order: 1, Target: chart.Target{State: "3"}},
			{From: "2", Test: "back", Order: 2, Target: chart.Target{State: "4"}},
			{From: "5", Test: "again", Target: chart.Target{State: "2"}},
			{From: "2", Test: "gone", Order: 3, Target: chart.Target{State: "7"}},
		},
	}
	d, err := parseMermaid(string(write(t, c, mermaid.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	tr := transitions(d)
	for _, want := range []string{"[*]-->s0:", "s0-->[*]:1. stop", "s0-->s1:2. back", "s2-->s0:again", "s0-->s3:3. gone"} {
		if !tr[want] {
			t.Errorf("no transition %s in %v", want, tr)
		}
	}
	names := map[string]string{}
	for _, s := range d.states {
		names[s.id] = s.name
	}
	if names["s0"] != "a" || names["s1"] != "start" || names["s2"] != "end" || names["s3"] != "7 (missing)" || len(names) != 4 {
		t.Errorf("states %v, want s0 a, s1 start, s2 end, s3 missing", names)
	}
}

func TestWriteErrors(t *testing.T) {
	if err := mermaid.Write(&bytes.Buffer{}, nil, mermaid.Options{}); !errors.Is(err, mermaid.ErrNilChart) {
		t.Errorf("Write(nil chart) = %v, want ErrNilChart", err)
	}
	broken := errors.New("disk full")
	if err := mermaid.Write(failWriter{broken}, goomba(t), mermaid.Options{}); !errors.Is(err, broken) {
		t.Errorf("Write to a failing writer = %v, want %v", err, broken)
	}
	var b bytes.Buffer
	if err := mermaid.Write(&b, &chart.Chart{}, mermaid.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := parseMermaid(b.String()); err != nil {
		t.Errorf("empty chart: parseMermaid = %v\n%s", err, b.String())
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }
