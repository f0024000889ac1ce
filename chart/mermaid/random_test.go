package mermaid_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/mermaid"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// randomChart builds a chart with charttest.Random from IDs and texts
// that Mermaid reads as syntax, that clash with the nodes the writer adds, or
// repeat; text is one more ID and label. The same r gives the same chart.
func randomChart(r *rand.Rand, text string) *chart.Chart {
	names := []string{"a", "b.c", "x::y", "-1", "s0", "__any", "[*]", "state x {", "--", "}", "%%", "a:b;c",
		`q"uote`, "<<fork>>", "direction TB", "{}", "ü 😀", "", " ", "a", text}
	return charttest.Random(r, names)
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
