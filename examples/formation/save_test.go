package formation

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/fsmforge/fsmforge/save"
)

// TestSaveContinues saves a squadron after a random frame, with messages
// on the board, loads it, and checks that every later frame's summary is
// the one of the squadron that never stopped.
func TestSaveContinues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	const frames = 60
	for range 20 {
		opts := Options{Seed: rng.Uint64(), Ships: 4 + rng.IntN(12), FormationSize: 1 + rng.IntN(4)}
		k := rng.IntN(frames + 1)
		var whole, after bytes.Buffer
		cut := 0
		sq := NewSquadron(opts)
		for sq.Frame() < frames {
			if sq.Frame() == k {
				cut = whole.Len()
			}
			step(t, sq, &whole)
		}
		if k == frames {
			cut = whole.Len()
		}
		sq = NewSquadron(opts)
		for sq.Frame() < k {
			step(t, sq, &bytes.Buffer{})
		}
		var f save.File
		if err := sq.Save(&f); err != nil {
			t.Fatal(err)
		}
		loaded, err := save.Decode(f.Encode(nil))
		if err != nil {
			t.Fatal(err)
		}
		if sq, err = LoadSquadron(loaded); err != nil {
			t.Fatalf("saved after frame %d: %v", k, err)
		}
		for sq.Frame() < frames {
			step(t, sq, &after)
		}
		if got, want := after.String(), whole.String()[cut:]; got != want {
			t.Errorf("%+v, saved after frame %d: the loaded squadron gives\n%s\nwant\n%s", opts, k, got, want)
		}
	}
}

func step(t *testing.T, sq *Squadron, out *bytes.Buffer) {
	t.Helper()
	if err := sq.Step(); err != nil {
		t.Fatal(err)
	}
	if err := sq.Summary(out); err != nil {
		t.Fatal(err)
	}
}
