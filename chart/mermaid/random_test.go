package mermaid_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/mermaid"
)

// randomChart builds a chart of a few states nested at random, with every
// kind of state, target and action, and IDs and texts that Mermaid reads as
// syntax, that clash with the nodes the writer adds, or repeat; parents
// that are missing, pseudo-states, the state itself or a cycle; text is
// one more ID and label. The same r gives the same chart.
func randomChart(r *rand.Rand, text string) *chart.Chart {
	names := []string{"a", "b.c", "x::y", "-1", "s0", "__any", "[*]", "state x {", "--", "}", "%%", "a:b;c",
		`q"uote`, "<<fork>>", "direction TB", "{}", "ü 😀", "", " ", "a", text}
	pick := func() string {
		if r.IntN(3) == 0 {
			return names[r.IntN(len(names))]
		}
		return "s" + strconv.Itoa(r.IntN(14))
	}
	actions := func() []chart.Action {
		var as []chart.Action
		for range r.IntN(3) {
			as = append(as, chart.Action{Kind: chart.ActionKind(r.IntN(5)), Property: pick(), Value: pick(),
				Event: pick(), Delay: float64(r.IntN(4)) / 2, Timer: pick(), Guard: names[r.IntN(len(names))]})
		}
		return as
	}
	c := &chart.Chart{Name: pick(), Statechart: r.IntN(2) == 0}
	if r.IntN(4) == 0 {
		c.Stencil = &chart.Stencil{Name: "s"}
	}
	for i := range 1 + r.IntN(14) {
		s := chart.State{ID: "s" + strconv.Itoa(i), Name: pick(), Kind: chart.StateKind(r.IntN(8)),
			Initial: r.IntN(3) == 0, Entry: actions(), Exit: actions()}
		if r.IntN(8) == 0 {
			s.ID = pick()
		}
		if r.IntN(4) != 0 {
			s.Parent = pick()
		}
		if r.IntN(6) == 0 {
			s.Pos.Page = pick()
		}
		c.States = append(c.States, s)
	}
	for i := range r.IntN(16) {
		t := chart.Transition{ID: strconv.Itoa(i), From: pick(), AnyState: r.IntN(10) == 0, Order: r.IntN(3),
			Test: pick(), Value: pick(), Label: names[r.IntN(len(names))], Action: pick(),
			Target:   chart.Target{Kind: chart.TargetKind(r.IntN(5)), State: pick()},
			Internal: r.IntN(4) == 0, Push: r.IntN(5) == 0, Actions: actions()}
		for range r.IntN(3) {
			t.Also = append(t.Also, pick())
		}
		c.Transitions = append(c.Transitions, t)
	}
	return c
}

// checkRandom draws a random chart twice and checks that the output is
// the same, and that it passes the checker of syntax_test.go (braces
// balanced, composite states named only by their children, every ID a
// Mermaid identifier), with at least one arrow per target of each
// transition.
func checkRandom(t *testing.T, c *chart.Chart) {
	t.Helper()
	out := write(t, c, mermaid.Options{})
	if again := write(t, c, mermaid.Options{}); !bytes.Equal(out, again) {
		t.Fatalf("two writes of one chart differ")
	}
	d, err := parseMermaid(string(out))
	if err != nil {
		t.Fatalf("parseMermaid = %v\n%s", err, out)
	}
	targets := 0
	for _, tr := range c.Transitions {
		targets += 1 + len(tr.Also)
	}
	if len(d.transitions) < targets {
		t.Fatalf("%d arrows for %d targets:\n%s", len(d.transitions), targets, out)
	}
}

// TestRandomNested draws random nested charts (seeded: the same charts
// every run).
func TestRandomNested(t *testing.T) {
	for seed := range uint64(500) {
		checkRandom(t, randomChart(rand.New(rand.NewPCG(seed, 0x5eed)), "t"))
	}
}

// FuzzWriteNested draws random nested charts made from a seed and a text.
func FuzzWriteNested(f *testing.F) {
	for k, s := range []string{"a", `"`, "%%", ":;", "\n", "direction LR", "<<fork>>", "{", "\xff"} {
		f.Add(uint64(k), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, text string) {
		checkRandom(t, randomChart(rand.New(rand.NewPCG(seed, seed>>7)), text))
	})
}
