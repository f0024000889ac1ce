package dot_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/dot"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

type golden struct {
	name  string // testdata/<name>.dot
	chart func(testing.TB) *chart.Chart
	opt   dot.Options
}

func goldens() []golden {
	return []golden{
		{"goomba", goomba, dot.Options{}},
		{"lucidchart", lucidchart, dot.Options{LeftToRight: true}},
		{"guard", func(testing.TB) *chart.Chart { return guard() }, dot.Options{Title: "guard: a hand-built chart"}},
		{"soldier", func(testing.TB) *chart.Chart { return soldier() }, dot.Options{}},
	}
}

func write(t testing.TB, c *chart.Chart, opt dot.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := dot.Write(&b, c, opt); err != nil {
		t.Fatalf("Write = %v", err)
	}
	return b.Bytes()
}

// TestGolden compares the DOT of the Goomba, the Lucidchart diagram and
// the hand-built charts with testdata/*.dot; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tt := range goldens() {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.chart(t)
			got := write(t, c, tt.opt)
			if again := write(t, c, tt.opt); !bytes.Equal(got, again) {
				t.Fatalf("two writes of one chart differ")
			}
			if _, err := parseDOT(string(got)); err != nil {
				t.Errorf("parseDOT = %v\n%s", err, got)
			}
			charttest.GoldenBytes(t, got, filepath.Join("testdata", tt.name+".dot"), *update)
		})
	}
}

// TestDrawing checks what the graphs say, node by node, through the DOT
// parser of syntax_test.go.
func TestDrawing(t *testing.T) {
	t.Run("goomba", func(t *testing.T) {
		g, err := parseDOT(string(write(t, goomba(t), dot.Options{})))
		if err != nil {
			t.Fatal(err)
		}
		if g.name != "goomba" || g.attrs["label"] != "goomba" {
			t.Errorf("graph %q, label %q, want goomba", g.name, g.attrs["label"])
		}
		// 3 states, the initial marker and the final node.
		if len(g.nodes) != 5 || len(g.edges) != 6 {
			t.Errorf("%d nodes, %d edges, want 5 and 6", len(g.nodes), len(g.edges))
		}
		n, _ := g.node("1")
		for _, s := range []string{"walkLeft", "entry / XMovement=left", "entry / Animation=moveLeft"} {
			if !strings.Contains(n.attrs["label"], s) {
				t.Errorf("label of walkLeft = %q, want it to contain %q", n.attrs["label"], s)
			}
		}
		labels := edgeLabels(g)
		for _, want := range []string{"__start->1:", "1->2:1. hitTriggerLeft", "1->3:2. hitByPlayer", "3->__final:animationDone"} {
			if !labels[want] {
				t.Errorf("no edge %s in %v", want, labels)
			}
		}
		if f, _ := g.node("__final"); f.attrs["shape"] != "doublecircle" {
			t.Errorf("final node %v, want a doublecircle", f.attrs)
		}
	})
	t.Run("lucidchart", func(t *testing.T) {
		c := lucidchart(t)
		g, err := parseDOT(string(write(t, c, dot.Options{LeftToRight: true})))
		if err != nil {
			t.Fatal(err)
		}
		if g.attrs["rankdir"] != "LR" {
			t.Errorf("rankdir = %q, want LR", g.attrs["rankdir"])
		}
		shapes := map[string]int{}
		for _, n := range g.nodes {
			shapes[n.attrs["shape"]]++
		}
		// 15 states in boxes (the default shape), 4 choices, 4 ends, 1 start;
		// no added node: the start pseudo-state is the initial marker.
		want := map[string]int{"": 15, "diamond": 4, "doublecircle": 4, "point": 1}
		if len(shapes) != len(want) {
			t.Errorf("shapes = %v, want %v", shapes, want)
		}
		for k, v := range want {
			if shapes[k] != v {
				t.Errorf("shapes = %v, want %v", shapes, want)
				break
			}
		}
		if len(g.edges) != 24 {
			t.Errorf("%d edges, want 24", len(g.edges))
		}
		labels := edgeLabels(g)
		for _, want := range []string{"1->4:", "10->13:1. Sim", "10->16:2. Não", "23->29:2. Receita"} {
			if !labels[want] {
				t.Errorf("no edge %s in %v", want, labels)
			}
		}
		if n, _ := g.node("7"); unescString(n.attrs["label"]) != "Existe um registro conforme os filtros próximo no BD?" {
			t.Errorf("label of 7 = %q", n.attrs["label"])
		}
	})
	t.Run("guard", func(t *testing.T) {
		g, err := parseDOT(string(write(t, guard(), dot.Options{})))
		if err != nil {
			t.Fatal(err)
		}
		labels := edgeLabels(g)
		for _, want := range []string{
			"1->1:2. timeout (5)", "1->2:1. seePlayer", "2->3:1. inRange ⤴ push", "3->__return:done",
			"__any->4:1. hit", "__any->__final:2. killed", "4->__return:timeout (2)",
		} {
			if !labels[want] {
				t.Errorf("no edge %s in %v", want, labels)
			}
		}
		for _, e := range g.edges {
			key := e.from + "->" + e.to
			wantStyle := ""
			switch {
			case e.from == "__any" || e.to == "__return":
				wantStyle = "dashed"
			case key == "2->3":
				wantStyle = "bold"
			}
			if e.attrs["style"] != wantStyle {
				t.Errorf("edge %s: style %q, want %q", key, e.attrs["style"], wantStyle)
			}
		}
		if n, _ := g.node("__any"); n.attrs["label"] != "any state" || n.attrs["style"] != "dashed" {
			t.Errorf("any-state node %v", n.attrs)
		}
		if n, _ := g.node("__return"); n.attrs["shape"] != "invhouse" || n.attrs["label"] != dot.Return {
			t.Errorf("return node %v", n.attrs)
		}
		if g.attrs["label"] != "guard" {
			t.Errorf("title %q, want the chart's name", g.attrs["label"])
		}
	})
}

// edgeLabels returns the set of "from->to:label" of g's edges.
func edgeLabels(g *dotGraph) map[string]bool {
	m := map[string]bool{}
	for _, e := range g.edges {
		m[e.from+"->"+e.to+":"+unescString(e.attrs["label"])] = true
	}
	return m
}

// TestEscape draws states and transitions whose texts DOT or Graphviz
// would read as syntax, and reads them back.
func TestEscape(t *testing.T) {
	tests := []struct {
		text, want string // want: as Graphviz shows it; "" means text
	}{
		{text: `say "hi"`},
		{text: `back\slash`},
		{text: `\N and \l`},
		{text: `ends with \`},
		{text: "two\nlines"},
		{text: "crlf\r\nline", want: "crlf\nline"},
		{text: "tab\there", want: "tab here"},
		{text: "nul\x00", want: "nul "},
		{text: "bad \xff utf-8", want: "bad \uFFFD utf-8"},
		{text: "a & b &amp; c"},
		{text: "<b>not html</b>"},
		{text: "ünïcödé 😀 ↩"},
		{text: "line\u2028sep", want: "line\nsep"},
		{text: "{[;,=]} -> --"},
		{text: "not xml \uFFFE\uFFFF"},
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
				},
				Transitions: []chart.Transition{{ID: "t", From: tt.text, Label: tt.text, Test: "x", Order: 1, Target: chart.Target{State: "b"}}},
			}
			out := write(t, c, dot.Options{})
			g, err := parseDOT(string(out))
			if err != nil {
				t.Fatalf("parseDOT = %v\n%s", err, out)
			}
			if len(g.nodes) != 3 || len(g.edges) != 2 {
				t.Fatalf("%d nodes, %d edges, want 3 and 2:\n%s", len(g.nodes), len(g.edges), out)
			}
			a := g.nodes[1]
			if got := unescString(a.attrs["label"]); got != want {
				t.Errorf("state label = %q, want %q", got, want)
			}
			if got := unescString(g.edges[1].attrs["label"]); got != want {
				t.Errorf("edge label = %q, want %q", got, want)
			}
			if got := unescString(g.attrs["label"]); got != want {
				t.Errorf("title = %q, want %q", got, want)
			}
			if g.edges[1].from != a.id {
				t.Errorf("edge from %q, state %q", g.edges[1].from, a.id)
			}
		})
	}
}

// TestAddedNodes checks that the nodes the writer adds never take a
// state's ID.
func TestAddedNodes(t *testing.T) {
	c := &chart.Chart{
		Name: "clash",
		States: []chart.State{
			{ID: "__start", Name: "a", Initial: true},
			{ID: "__any", Name: "b"},
			{ID: "__return", Name: "c"},
			{ID: "__final", Name: "d"},
			{ID: "___final", Name: "e"},
		},
		Transitions: []chart.Transition{
			{From: "__start", Target: chart.Target{Kind: chart.ToFinal}},
			{AnyState: true, Target: chart.Target{Kind: chart.ToReturn}},
		},
	}
	g, err := parseDOT(string(write(t, c, dot.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	labels := edgeLabels(g)
	for _, want := range []string{"___start->__start:", "__start->____final:", "___any->___return:"} {
		if !labels[want] {
			t.Errorf("no edge %s in %v", want, labels)
		}
	}
	if len(g.nodes) != 9 {
		t.Errorf("%d nodes, want 9", len(g.nodes))
	}
}

// TestPages puts the states of each page in a cluster.
func TestPages(t *testing.T) {
	c := &chart.Chart{
		Name: "pages",
		States: []chart.State{
			{ID: "1", Name: "a", Initial: true, Pos: diag.Pos{Page: "Page-1"}},
			{ID: "2/1", Name: "b", Pos: diag.Pos{Page: "Flow 2"}},
			{ID: "2", Name: "c", Pos: diag.Pos{Page: "Page-1"}},
		},
		Transitions: []chart.Transition{
			{From: "1", Test: "go", Target: chart.Target{State: "2/1"}},
			{From: "2/1", Test: "back", Target: chart.Target{State: "9"}},
		},
	}
	g, err := parseDOT(string(write(t, c, dot.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"1": "cluster_0", "2": "cluster_0", "2/1": "cluster_1", "9": "", "__start": ""}
	for _, n := range g.nodes {
		if want[n.id] != n.cluster {
			t.Errorf("node %s in %q, want %q", n.id, n.cluster, want[n.id])
		}
	}
	if n, _ := g.node("9"); n.attrs["label"] != "9 (missing)" || n.attrs["style"] != "dashed" {
		t.Errorf("missing state drawn %v", n.attrs)
	}
	if len(g.nodes) != 5 || len(g.clusters) != 2 {
		t.Errorf("%d nodes, %d clusters, want 5 and 2", len(g.nodes), len(g.clusters))
	}
}

func TestWriteErrors(t *testing.T) {
	if err := dot.Write(&bytes.Buffer{}, nil, dot.Options{}); !errors.Is(err, dot.ErrNilChart) {
		t.Errorf("Write(nil chart) = %v, want ErrNilChart", err)
	}
	broken := errors.New("disk full")
	if err := dot.Write(failWriter{broken}, goomba(t), dot.Options{}); !errors.Is(err, broken) {
		t.Errorf("Write to a failing writer = %v, want %v", err, broken)
	}
	var b bytes.Buffer
	if err := dot.Write(&b, &chart.Chart{}, dot.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := parseDOT(b.String()); err != nil {
		t.Errorf("empty chart: parseDOT = %v\n%s", err, b.String())
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestParser checks the DOT parser of syntax_test.go on DOT written by
// others (../shared/fixtures/dot: qmuntal/stateless's phone call, a
// hand-written Mealy machine), which declare nodes by using them.
func TestParser(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/fixtures/dot/*.dot")
	if len(files) == 0 {
		t.Skip("no ../shared/fixtures/dot")
	}
	want := map[string][2]int{"stateless_phonecall.dot": {6, 8}, "mealyfsm_connection_fsm.dot": {3, 7}}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		g, err := parse(string(src), false)
		if err != nil {
			t.Errorf("parse(%s) = %v", file, err)
			continue
		}
		if w, ok := want[filepath.Base(file)]; ok && (len(g.nodes) != w[0] || len(g.edges) != w[1]) {
			t.Errorf("parse(%s) = %d nodes, %d edges, want %d and %d", file, len(g.nodes), len(g.edges), w[0], w[1])
		}
	}
}

// TestGraphviz pipes the golden graphs through `dot -Tsvg` when Graphviz
// is installed.
func TestGraphviz(t *testing.T) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not installed")
	}
	for _, tt := range goldens() {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, "-Tsvg")
			cmd.Stdin = bytes.NewReader(write(t, tt.chart(t), tt.opt))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || stderr.Len() > 0 || !bytes.Contains(out, []byte("<svg")) {
				t.Errorf("dot -Tsvg = %v, stderr:\n%s", err, stderr.String())
			}
		})
	}
}
