package crowd_test

import (
	"fmt"
	"strings"
	"testing"

	crowddemo "github.com/fsmforge/fsmforge/examples/crowd"
)

// TestSameRunAnyWorkers is the determinism check of the crowd issue: the
// same seeded run on 1, 2, 3 and 8 workers gives identical checksums.
func TestSameRunAnyWorkers(t *testing.T) {
	var want []uint64
	for _, workers := range []int{1, 2, 3, 8} {
		m, err := crowddemo.New(30000, 12345, workers)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		for range 40 {
			if err := m.Step(); err != nil {
				t.Fatal(err)
			}
			got = append(got, crowddemo.Checksum(m))
		}
		m.Close()
		if want == nil {
			want = got
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("workers=%d: step %d checksum %x, want %x (1 worker)", workers, i+1, got[i], want[i])
			}
		}
	}
}

func ExampleSummary() {
	m, _ := crowddemo.New(1000, 1, 2)
	defer m.Close()
	var b strings.Builder
	for range 3 {
		_ = m.Step()
		_ = crowddemo.Summary(&b, m)
	}
	fmt.Print(b.String())
	// Output:
	// step    1 | idle     246  wander     256  chase     234  flee     264 |    118 changed state
	// step    2 | idle     255  wander     264  chase     229  flee     252 |    103 changed state
	// step    3 | idle     260  wander     259  chase     228  flee     253 |     95 changed state
}
