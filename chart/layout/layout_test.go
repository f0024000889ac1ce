package layout_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/layout"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// boxes renders the boxes of c, one state a line.
func boxes(c *chart.Chart) []byte {
	var b bytes.Buffer
	for _, s := range c.States {
		fmt.Fprintf(&b, "%-4s %-8s %-40.40q", s.ID, s.Kind, s.Name)
		if s.Box == nil {
			b.WriteString(" no box\n")
			continue
		}
		fmt.Fprintf(&b, " x=%v y=%v w=%v h=%v\n", s.Box.X, s.Box.Y, s.Box.W, s.Box.H)
	}
	return b.Bytes()
}

// copyBoxes returns the boxes of c, copied.
func copyBoxes(c *chart.Chart) []*chart.Box {
	out := make([]*chart.Box, len(c.States))
	for i, s := range c.States {
		if s.Box != nil {
			b := *s.Box
			out[i] = &b
		}
	}
	return out
}

// check checks a layout: every state has a box of whole pixels, those that
// had one (before) kept it, and no two boxes of a page overlap.
func check(t testing.TB, c *chart.Chart, before []*chart.Box) {
	t.Helper()
	for i, s := range c.States {
		b := s.Box
		if b == nil {
			t.Fatalf("state %s has no box", s.ID)
		}
		if before[i] != nil && *before[i] != *b {
			t.Errorf("state %s: box %v moved to %v", s.ID, *before[i], *b)
		}
		for _, v := range []float64{b.X, b.Y, b.W, b.H} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Round(v) {
				t.Fatalf("state %s: box %v, want whole pixels", s.ID, *b)
			}
		}
		if b.W <= 0 || b.H <= 0 {
			t.Errorf("state %s: box %v, want a size", s.ID, *b)
		}
	}
	// Overlaps: sorted by X, each box against those that start before it
	// ends.
	idx := make([]int, len(c.States))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return int(c.States[a].Box.X - c.States[b].Box.X) })
	for k, i := range idx {
		a := c.States[i]
		for _, j := range idx[k+1:] {
			b := c.States[j]
			if b.Box.X >= a.Box.X+a.Box.W {
				break
			}
			if a.Pos.Page == b.Pos.Page && b.Box.Y < a.Box.Y+a.Box.H && a.Box.Y < b.Box.Y+b.Box.H {
				if before[i] != nil && before[j] != nil {
					continue // the designer's
				}
				if inside(c, a, b) || inside(c, b, a) {
					if before[i] == nil && before[j] == nil && !contains(a.Box, b.Box) && !contains(b.Box, a.Box) {
						t.Errorf("state %s %v is not inside its compound %s %v", b.ID, *b.Box, a.ID, *a.Box)
					}
					continue
				}
				t.Errorf("boxes of %s %v and %s %v overlap", a.ID, *a.Box, b.ID, *b.Box)
			}
		}
	}
}

// inside reports whether state s is inside compound p, at any depth.
func inside(c *chart.Chart, s, p chart.State) bool {
	for k := 0; s.Parent != "" && k < len(c.States); k++ {
		if s.Parent == p.ID {
			return true
		}
		i := slices.IndexFunc(c.States, func(x chart.State) bool { return x.ID == s.Parent })
		if i < 0 {
			return false
		}
		s = c.States[i]
	}
	return false
}

// contains reports whether box a holds box b whole.
func contains(a, b *chart.Box) bool {
	return b.X >= a.X && b.Y >= a.Y && b.X+b.W <= a.X+a.W && b.Y+b.H <= a.Y+a.H
}

// TestGolden compares the layouts of the Goomba, the Lucidchart diagram
// and the hand-built chart with testdata/*.layout.txt; -update rewrites
// them.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		chart func(testing.TB) *chart.Chart
		opt   layout.Options
	}{
		{"goomba", goomba, layout.Options{}},
		{"lucidchart", lucidchart, layout.Options{}},
		{"lucidchart.lr", lucidchart, layout.Options{LeftToRight: true}},
		{"guard", func(testing.TB) *chart.Chart { return guard() }, layout.Options{}},
		{"nested", func(testing.TB) *chart.Chart { return nested() }, layout.Options{}},
		{"nested.lr", func(testing.TB) *chart.Chart { return nested() }, layout.Options{LeftToRight: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.chart(t)
			for _, s := range c.States {
				if s.Box != nil {
					t.Fatalf("state %s already has a box", s.ID)
				}
			}
			before := copyBoxes(c)
			layout.Layered(c, tt.opt)
			check(t, c, before)
			got := boxes(c)
			again := tt.chart(t)
			layout.Layered(again, tt.opt)
			if !bytes.Equal(got, boxes(again)) {
				t.Fatalf("two layouts of one chart differ")
			}
			charttest.GoldenBytes(t, got, filepath.Join("testdata", tt.name+".layout.txt"), *update)
		})
	}
}

// byID returns the box of each state, by ID.
func byID(c *chart.Chart) map[string]chart.Box {
	m := map[string]chart.Box{}
	for _, s := range c.States {
		m[s.ID] = *s.Box
	}
	return m
}

// TestLayers checks the layers of the Lucidchart diagram: the start on
// top, every transition going down but the one that closes its cycle.
func TestLayers(t *testing.T) {
	for _, lr := range []bool{false, true} {
		t.Run("LeftToRight="+strconv.FormatBool(lr), func(t *testing.T) {
			c := lucidchart(t)
			layout.Layered(c, layout.Options{LeftToRight: lr})
			box := byID(c)
			// along returns the start of a box along the layers, and its end.
			along := func(b chart.Box) (float64, float64) {
				if lr {
					return b.X, b.X + b.W
				}
				return b.Y, b.Y + b.H
			}
			start, _ := along(box["1"])
			for _, s := range c.States {
				if a, _ := along(*s.Box); a < start {
					t.Errorf("state %s at %v, before the start at %v", s.ID, a, start)
				}
			}
			var up []string
			for _, tr := range c.Transitions {
				_, fromEnd := along(box[tr.From])
				toStart, _ := along(box[tr.Target.State])
				if toStart <= fromEnd {
					up = append(up, tr.From+"->"+tr.Target.State)
				}
			}
			// 44 -> 26 ("Passou do limite da cidade?" Não: back to the
			// query) closes the one cycle.
			if !slices.Equal(up, []string{"44->26"}) {
				t.Errorf("transitions against the layers: %v, want [44->26]", up)
			}
		})
	}
}

// TestAnyState puts the targets of any-state transitions below the
// initial state, not beside it.
func TestAnyState(t *testing.T) {
	c := guard()
	layout.Layered(c, layout.Options{})
	box := byID(c)
	if box["4"].Y <= box["1"].Y {
		t.Errorf("stunned (any-state target) at y=%v, initial patrol at y=%v: want it below", box["4"].Y, box["1"].Y)
	}
	if box["1"].Y != layout.Margin || box["1"].X < layout.Margin {
		t.Errorf("initial state at %v, want on the first row", box["1"])
	}
}

// TestPartial keeps the boxes a chart has and places the others to their
// right.
func TestPartial(t *testing.T) {
	c := goomba(t)
	c.States[1].Box = &chart.Box{X: 500, Y: 300, W: 100, H: 50}
	before := copyBoxes(c)
	layout.Layered(c, layout.Options{})
	check(t, c, before)
	for _, i := range []int{0, 2} {
		b := c.States[i].Box
		if b.X < 600+layout.DefaultLayerGap || b.Y < 300 {
			t.Errorf("state %s at %v, want right of the box at x=500..600 and not above y=300", c.States[i].ID, *b)
		}
	}
	if b := c.States[0].Box; b.Y != 300 {
		t.Errorf("initial state at %v, want at y=300, the top of the boxes there", *b)
	}

	// A chart laid out already is left alone.
	done := copyBoxes(c)
	layout.Layered(c, layout.Options{LeftToRight: true})
	for i, s := range c.States {
		if *s.Box != *done[i] {
			t.Errorf("state %s moved from %v to %v", s.ID, *done[i], *s.Box)
		}
	}
}

// TestPages lays out each page on its own, from the page's corner.
func TestPages(t *testing.T) {
	to := func(id string) chart.Target { return chart.Target{State: id} }
	c := &chart.Chart{
		States: []chart.State{
			{ID: "1", Name: "a", Initial: true, Pos: diag.Pos{Page: "one"}},
			{ID: "2", Name: "b", Pos: diag.Pos{Page: "one"}},
			{ID: "p2/1", Kind: chart.StartState, Pos: diag.Pos{Page: "two"}},
			{ID: "p2/2", Name: "c", Pos: diag.Pos{Page: "two"}},
			{ID: "p2/3", Name: "d", Pos: diag.Pos{Page: "two"}, Box: &chart.Box{X: 0, Y: 500, W: 10, H: 10}},
		},
		Transitions: []chart.Transition{
			{From: "1", Target: to("2")},
			{From: "2", Target: to("p2/2")}, // between pages: left out
			{From: "p2/1", Target: to("p2/2")},
			{From: "p2/2", Target: to("p2/3")},
		},
	}
	before := copyBoxes(c)
	layout.Layered(c, layout.Options{})
	check(t, c, before)
	box := byID(c)
	if box["1"].Y != layout.Margin || box["2"].Y <= box["1"].Y {
		t.Errorf("page one: a at %v, b at %v", box["1"], box["2"])
	}
	// Page two has a box: the new ones go to its right, from its top.
	if box["p2/1"].Y != 500 || box["p2/1"].X < 10+layout.DefaultLayerGap || box["p2/2"].Y <= box["p2/1"].Y {
		t.Errorf("page two: start at %v, c at %v", box["p2/1"], box["p2/2"])
	}
	if box["p2/1"].W != layout.PseudoSize {
		t.Errorf("start pseudo-state %v, want %v wide", box["p2/1"], layout.PseudoSize)
	}
}

func TestSize(t *testing.T) {
	long := "Pergunta ao usuário se prefere receitas conforme o filtro ou um estabelecimento próximo sem filtro" // 98 characters
	tests := []struct {
		state chart.State
		w, h  float64
	}{
		{chart.State{Name: "idle"}, 120, 60},
		{chart.State{Name: "walkingAroundTheBlock"}, 8*21 + 40, 60},
		{chart.State{ID: "idTwelve1234"}, 8*12 + 40, 60},
		{chart.State{Name: long}, 8*40 + 40, 60 + 2*20},
		{chart.State{Name: "two\nlines"}, 120, 80},
		{chart.State{Name: "walkLeft", Entry: []chart.Action{{Property: "XMovement", Value: "left"}, {Property: "Animation", Value: "moveLeft"}}}, 8*26 + 40, 100},
		{chart.State{Kind: chart.StartState, Name: "begin"}, 30, 30},
		{chart.State{Kind: chart.EndState}, 30, 30},
		{chart.State{Kind: chart.ChoiceState}, 60, 60},
		{chart.State{Kind: chart.ChoiceState, Name: "paid?"}, 80, 60},
	}
	for _, tt := range tests {
		if w, h := layout.Size(&tt.state); w != tt.w || h != tt.h {
			t.Errorf("Size(%q %v) = %v, %v, want %v, %v", tt.state.Name, tt.state.Kind, w, h, tt.w, tt.h)
		}
	}
}

// TestOptions checks the gaps and the defaults of zero or odd values.
func TestOptions(t *testing.T) {
	for _, opt := range []layout.Options{{}, {LayerGap: -1, NodeGap: math.NaN()}, {LayerGap: math.Inf(1), NodeGap: 0}} {
		c := goomba(t)
		layout.Layered(c, opt)
		if got, want := string(boxes(c)), string(golden(t, "goomba")); got != want {
			t.Errorf("Layered(%+v) =\n%s, want the defaults'\n%s", opt, got, want)
		}
	}
	c := goomba(t)
	layout.Layered(c, layout.Options{LayerGap: 200, NodeGap: 100})
	box := byID(c)
	if gap := box["2"].Y - (box["1"].Y + box["1"].H); gap < 200 {
		t.Errorf("layer gap %v, want at least 200", gap)
	}
	layout.Layered(nil, layout.Options{})            // no panic
	layout.Layered(&chart.Chart{}, layout.Options{}) // nor here
}

func golden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".layout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLarge lays out generated charts, with and without the dummy nodes of
// long edges, and checks the result.
func TestLarge(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    *chart.Chart
	}{
		{"ring", generated(500, 2000)},
		{"random", random(500, 2000, 1)},
		{"sparse", random(300, 330, 2)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := copyBoxes(tt.c)
			layout.Layered(tt.c, layout.Options{})
			check(t, tt.c, before)
		})
	}
}

// generated builds the chart of internal/vdxgen.Generate (the benchmarks'
// drawings) directly: state i+1 has transitions to the states 1, 8, 15 and
// 22 after it, round the ring.
func generated(states, transitions int) *chart.Chart {
	c := &chart.Chart{Name: "generated", States: make([]chart.State, states), Transitions: make([]chart.Transition, transitions)}
	moves := []string{"existing", "right", "left", "death"}
	for i := range states {
		c.States[i] = chart.State{ID: strconv.Itoa(i + 1), Name: "s" + strconv.Itoa(i+1), Initial: i == 0,
			Entry: []chart.Action{{Property: "XMovement", Value: moves[(i+1)%4]}}}
	}
	for j := range transitions {
		from, round := j%states, j/states
		to := (from + 1 + 7*round) % states
		c.Transitions[j] = chart.Transition{ID: strconv.Itoa(states + 1 + j), From: strconv.Itoa(from + 1), Order: round + 1, Test: "t", Target: chart.Target{State: strconv.Itoa(to + 1)}}
	}
	return c
}

// random builds a chart of random transitions, some from any state, some
// to the final state.
func random(states, transitions int, seed uint64) *chart.Chart {
	r := rand.New(rand.NewPCG(seed, 7))
	c := &chart.Chart{Name: "random", States: make([]chart.State, states), Transitions: make([]chart.Transition, transitions)}
	for i := range states {
		c.States[i] = chart.State{ID: strconv.Itoa(i), Name: fmt.Sprintf("state%0*d", r.IntN(20), i), Initial: i == 0}
	}
	for j := range transitions {
		tr := chart.Transition{ID: "t" + strconv.Itoa(j), From: strconv.Itoa(r.IntN(states)), Test: "t", Target: chart.Target{State: strconv.Itoa(r.IntN(states))}}
		switch r.IntN(50) {
		case 0:
			tr.AnyState, tr.From = true, ""
		case 1:
			tr.Target = chart.Target{Kind: chart.ToFinal}
		}
		c.Transitions[j] = tr
	}
	return c
}
