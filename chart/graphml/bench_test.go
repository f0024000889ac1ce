package graphml_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/graphml"
)

// generate returns a yEd drawing of n states in groups of ten, each group
// with an initial state and each state with two transitions, as yEd writes
// it (graphics included): it has 1 + n + 2×groups(n) states.
func generate(n int) string {
	var b strings.Builder
	b.WriteString(node("s", "$initial_state", "shape=ellipse"))
	b.WriteString(edge("e0", "s", "g0::0", ""))
	for g := 0; g < groups(n); g++ {
		var members strings.Builder
		gid := "g" + strconv.Itoa(g)
		members.WriteString(node(gid+"::s", "$initial_state", "shape=ellipse"))
		members.WriteString(edge(gid+"::e", gid+"::s", gid+"::0", ""))
		for i := 0; i < 10 && g*10+i < n; i++ {
			id := gid + "::" + strconv.Itoa(i)
			members.WriteString(node(id, "S"+strconv.Itoa(g*10+i)+"\nenter / f();", "box="+strconv.Itoa(i*120)+","+strconv.Itoa(g*60)+",100,40"))
		}
		b.WriteString(group(gid, "G"+strconv.Itoa(g), nil, members.String()))
	}
	for i := range n {
		from := "g" + strconv.Itoa(i/10) + "::" + strconv.Itoa(i%10)
		j := (i*7 + 3) % n
		to := "g" + strconv.Itoa(j/10) + "::" + strconv.Itoa(j%10)
		b.WriteString(edge("a"+strconv.Itoa(i), from, to, "1. hit [x > 1] / y()"))
		b.WriteString(edge("b"+strconv.Itoa(i), from, "g"+strconv.Itoa(j/10), "tick"))
	}
	return doc(b.String())
}

// groups is how many groups generate(n) draws.
func groups(n int) int { return (n + 9) / 10 }

func BenchmarkRead(b *testing.B) {
	for _, n := range []int{100, 10000} {
		text := generate(n)
		b.Run("states="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c, _ := graphml.Read(strings.NewReader(text), graphml.Options{})
				if len(c.States) != 1+n+2*groups(n) {
					b.Fatalf("%d states", len(c.States))
				}
			}
		})
	}
}

// TestLarge reads drawings made to be slow to read: many edges without
// ids, many $NOTES nodes, many states in groups, and checks what it
// reads; a reader quadratic in one of them shows here as a slow test.
// BenchmarkRead measures the time.
func TestLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large drawings")
	}
	const n = 10000
	var noIDs, notes strings.Builder
	noIDs.WriteString(node("a", "A"))
	notes.WriteString(node("a", "A"))
	for i := range n {
		noIDs.WriteString(`<edge source="a" target="a"/>`)
		notes.WriteString(group("n"+strconv.Itoa(i), "$NOTES", nil, node("m"+strconv.Itoa(i), "x")))
	}
	for _, tt := range []struct {
		name   string
		text   string
		states int
	}{
		{"edges without ids", doc(noIDs.String()), 1},
		{"notes", doc(notes.String()), 1},
		{"groups", generate(n), 1 + n + 2*groups(n)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := graphml.Read(strings.NewReader(tt.text), graphml.Options{})
			if c == nil || len(c.States) != tt.states {
				t.Fatalf("Read = %d states, want %d", len(c.States), tt.states)
			}
			if err != nil {
				t.Errorf("Read = %v", err)
			}
		})
	}
}
