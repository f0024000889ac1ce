package guard_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/examples/guard"
)

// TestLevel runs a level and checks what the guards went through: each
// state of the drawing is reached, and the run is the same twice.
func TestLevel(t *testing.T) {
	run := func() string {
		tb, err := guard.Load()
		if err != nil {
			t.Fatal(err)
		}
		l, err := guard.NewLevel(tb, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for range 200 {
			if err := l.Step(func(g *guard.Guard, ev, active string) {
				fmt.Fprintf(&b, "%d %d %s: %s\n", l.Tick(), g.ID, ev, active)
			}); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	trace := run()
	if again := run(); again != trace {
		t.Fatalf("two runs with the same seed differ:\n%s\n%s", trace, again)
	}
	for _, want := range []string{"noise: aim stand", " : chase fire", " : aim chase", "alert.after.1: patrol", "hit: dead"} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace never shows %q:\n%s", want, trace)
		}
	}
}

// Example runs two guards for seven seconds of game time: guard 2 hears a
// noise and fights (its weapon aims and fires while its legs chase), then
// gives up the search five seconds after its alert began; guard 1, still
// on patrol, is shot.
func Example() {
	tb, err := guard.Load()
	if err != nil {
		panic(err)
	}
	l, err := guard.NewLevel(tb, 2, 64)
	if err != nil {
		panic(err)
	}
	for range 70 {
		l.Step(func(g *guard.Guard, event, active string) {
			fmt.Printf("tick %2d: guard %d %-13s -> %s\n", l.Tick(), g.ID, event, active)
		})
	}
	// Output:
	// tick 10: guard 2 noise         -> aim stand
	// tick 11: guard 2               -> chase fire
	// tick 13: guard 2               -> aim chase
	// tick 16: guard 2               -> chase fire
	// tick 18: guard 2               -> aim chase
	// tick 19: guard 2               -> chase fire
	// tick 20: guard 2               -> aim chase
	// tick 27: guard 2               -> chase fire
	// tick 28: guard 2               -> aim chase
	// tick 31: guard 2               -> chase fire
	// tick 33: guard 2               -> aim chase
	// tick 48: guard 2               -> chase fire
	// tick 49: guard 2               -> aim chase
	// tick 53: guard 2               -> chase fire
	// tick 55: guard 2               -> aim chase
	// tick 60: guard 2 alert.after.1 -> patrol
	// tick 67: guard 1 hit           -> dead
}
