package goomba_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/save"
)

// TestSaveContinues saves the level after a random tick, with the drawing's
// table or the generated code, loads the save with either (their saves are
// the same bytes), and checks that the rest of the trace is the trace of
// the level that never stopped.
func TestSaveContinues(t *testing.T) {
	tab, err := goomba.Load()
	if err != nil {
		t.Fatal(err)
	}
	d := tab.Describe()
	tb, err := goomba.TableBrains(tab)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]goomba.Brains{"table": tb, "gen": goomba.GenBrains()}
	const ticks = 60
	whole := run(t, tb, ticks)
	rng := rand.New(rand.NewPCG(3, 0))
	for range 20 {
		k := rng.IntN(ticks + 1)
		for _, from := range []string{"table", "gen"} {
			for _, into := range []string{"table", "gen"} {
				l, err := goomba.NewLevel(3, kinds[from])
				if err != nil {
					t.Fatal(err)
				}
				for range k {
					if err := l.Step(); err != nil {
						t.Fatal(err)
					}
				}
				var f save.File
				if err := l.Save(&f, &d); err != nil {
					t.Fatal(err)
				}
				loaded, err := save.Decode(f.Encode(nil))
				if err != nil {
					t.Fatal(err)
				}
				l, err = goomba.LoadLevel(loaded, &d, kinds[into])
				if err != nil {
					t.Fatalf("saved by %s after tick %d, loaded by %s: %v", from, k, into, err)
				}
				for range ticks - k {
					if err := l.Step(); err != nil {
						t.Fatal(err)
					}
				}
				if !slices.Equal(l.Trace, whole) {
					t.Errorf("saved by %s after tick %d, loaded by %s: trace\n%q\nwant\n%q", from, k, into, l.Trace, whole)
				}
			}
		}
	}
}

// TestLoadRefuses: a save of another machine, or a damaged one, is an
// error and loads nothing.
func TestLoadRefuses(t *testing.T) {
	tab, err := goomba.Load()
	if err != nil {
		t.Fatal(err)
	}
	d := tab.Describe()
	tb, _ := goomba.TableBrains(tab)
	l, _ := goomba.NewLevel(2, tb)
	var f save.File
	if err := l.Save(&f, &d); err != nil {
		t.Fatal(err)
	}
	other := d
	other.States = slices.Clone(d.States)
	other.States[0].Name = "patrol"
	if _, err := goomba.LoadLevel(&f, &other, tb); !errors.Is(err, save.ErrMismatch) {
		t.Errorf("LoadLevel into another drawing = %v, want save.ErrMismatch", err)
	}
	f.Entries[0].Data = f.Entries[0].Data[:len(f.Entries[0].Data)-1]
	if l, err := goomba.LoadLevel(&f, &d, tb); err == nil || l != nil {
		t.Errorf("LoadLevel of a cut save = %v, %v; want an error", l, err)
	}
}
