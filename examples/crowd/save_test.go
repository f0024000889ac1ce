package crowd

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/save"
)

// TestSaveContinues saves the horde after a random step, loads it on
// another number of workers, and checks that every later step's counts and
// the final checksum are those of the horde that never stopped.
func TestSaveContinues(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	const steps = 30
	for range 6 {
		n, seed, k := 1+rng.IntN(5000), rng.Uint64(), rng.IntN(steps+1)
		whole := run(t, n, seed, 2, steps, nil)
		var f save.File
		run(t, n, seed, 1, k, &f)
		loaded, err := save.Decode(f.Encode(nil))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(loaded, 2)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for range steps - k {
			if err := m.Step(); err != nil {
				t.Fatal(err)
			}
			Summary(&b, m)
		}
		got := b.String()
		m.Close()
		if want := whole[k:]; got != strings.Join(want, "") {
			t.Errorf("%d monsters, seed %d, saved after step %d: the loaded horde gives\n%s\nwant\n%s", n, seed, k, got, strings.Join(want, ""))
		}
	}
}

// run steps a new horde steps times, saving it into f if f is not nil,
// and returns each step's summary.
func run(t *testing.T, n int, seed uint64, workers, steps int, f *save.File) []string {
	t.Helper()
	m, err := New(n, seed, workers)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var lines []string
	for range steps {
		if err := m.Step(); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		Summary(&b, m)
		lines = append(lines, b.String())
	}
	if f != nil {
		if err := Save(f, m); err != nil {
			t.Fatal(err)
		}
	}
	return lines
}
