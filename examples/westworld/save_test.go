package westworld

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/fsmforge/fsmforge/save"
)

// TestSaveFileContinues saves the world into a save file after a random
// update, loads it into a new world, and checks that the story from there
// is the story of the world that never stopped, with and without Elsa.
func TestSaveFileContinues(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	for _, solo := range []bool{false, true} {
		for range 10 {
			seed, n := rng.Uint64(), 60
			k := rng.IntN(n + 1)
			var whole bytes.Buffer
			w := NewWorld(Options{Seed: seed, Solo: solo, Out: &whole})
			cut := 0
			for i := range n {
				if i == k {
					cut = whole.Len()
				}
				if err := w.Update(); err != nil {
					t.Fatal(err)
				}
			}
			if k == n {
				cut = whole.Len()
			}

			var before bytes.Buffer
			w = NewWorld(Options{Seed: seed, Solo: solo, Out: &before})
			for range k {
				if err := w.Update(); err != nil {
					t.Fatal(err)
				}
			}
			var f save.File
			if err := w.Save(&f); err != nil {
				t.Fatal(err)
			}
			loaded, err := save.Decode(f.Encode(nil))
			if err != nil {
				t.Fatal(err)
			}
			var after bytes.Buffer
			w, err = LoadWorld(loaded, Options{Out: &after})
			if err != nil {
				t.Fatalf("seed %d, saved after update %d: %v", seed, k, err)
			}
			for w.Updates() < n {
				if err := w.Update(); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := after.String(), whole.String()[cut:]; got != want {
				t.Errorf("seed %d, solo %v, saved after update %d: the loaded world says\n%s\nwant\n%s", seed, solo, k, got, want)
			}
		}
	}
}
