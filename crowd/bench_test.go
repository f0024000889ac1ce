package crowd_test

import (
	"fmt"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
)

// BenchmarkW3 runs workload W3 (see w3_test.go) three ways, after 64
// untimed warm-up steps: the obvious switch over a slice of monsters, the
// per-entity state functions and the per-bucket ones, on 1 and 2 workers.
// ns/entity is the cost of one entity-update.
func BenchmarkW3(b *testing.B) {
	const warmup = 64
	for _, n := range []int{65536, 1000000} {
		b.Run(fmt.Sprintf("entities=%d/switch", n), func(b *testing.B) {
			ms := newNaive(n, 1)
			for range warmup {
				naiveStep(ms)
			}
			for b.Loop() {
				naiveStep(ms)
			}
			perEntity(b, n)
		})
		for _, form := range []struct {
			name string
			defs func() []crowd.Def[monster]
		}{{"perEntity", perEntityDefs}, {"perBucket", perBucketDefs}} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("entities=%d/%s/workers=%d", n, form.name, workers), func(b *testing.B) {
					// A benchmark function runs several times (b.N grows):
					// each run's machine is let go at its end.
					m := buildW3(b, form.defs(), n, 1, crowd.Options[monster]{})
					defer m.Close()
					if err := m.SetWorkers(workers); err != nil {
						b.Fatal(err)
					}
					for range warmup {
						if err := m.Step(); err != nil {
							b.Fatal(err)
						}
					}
					for b.Loop() {
						if err := m.Step(); err != nil {
							b.Fatal(err)
						}
					}
					perEntity(b, n)
				})
			}
		}
	}
}

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}
