package guard

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/save"
)

// TestSaveContinues saves a level after a random tick (often with the
// search timer running and the deep history recorded), loads it, and
// checks that every later change is the one of the level that never
// stopped.
func TestSaveContinues(t *testing.T) {
	tab, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 0))
	const ticks = 120
	timers := 0
	for range 30 {
		n, seed, k := 1+rng.IntN(5), rng.Uint64(), rng.IntN(ticks+1)
		l, err := NewLevel(tab, n, seed)
		if err != nil {
			t.Fatal(err)
		}
		whole := play(t, l, ticks)
		l, _ = NewLevel(tab, n, seed)
		before := play(t, l, k)
		for i := range l.agents {
			timers += len(l.agents[i].AppendTimers(nil))
		}
		var f save.File
		if err := l.Save(&f); err != nil {
			t.Fatal(err)
		}
		loaded, err := save.Decode(f.Encode(nil))
		if err != nil {
			t.Fatal(err)
		}
		if l, err = LoadLevel(tab, loaded); err != nil {
			t.Fatalf("saved after tick %d: %v", k, err)
		}
		if got := before + play(t, l, ticks-k); got != whole {
			t.Errorf("%d guards, seed %d, saved after tick %d:\n%s\nwant\n%s", n, seed, k, got, whole)
		}
	}
	if timers == 0 {
		t.Error("no save had a timer running")
	}
}

func play(t *testing.T, l *Level, ticks int) string {
	t.Helper()
	var b strings.Builder
	for range ticks {
		if err := l.Step(func(g *Guard, event, active string) {
			fmt.Fprintf(&b, "tick %d: guard %d %s -> %s\n", l.Tick(), g.ID, event, active)
		}); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
