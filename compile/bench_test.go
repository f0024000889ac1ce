package compile_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// BenchmarkImportCompile reads a generated drawing of the Goomba stencil
// (vdxgen.Generate: 10,000 states, 40,000 transitions, every state
// reachable) and compiles it into a table, as the budget says:
// under 1 s, memory linear in the file. Besides ns/op and B/op it reports
// the file's size (MB-file) and the bytes allocated per byte of file
// (alloc/file-byte). The sub-benchmarks split the cost: import alone (the
// baseline, visio.Read), compile alone, and compile with minimisation.
//
//	go test -run '^$' -bench ImportCompile -benchmem -benchtime 5x ./compile
func BenchmarkImportCompile(b *testing.B) {
	st := stencil(b)
	for _, size := range []struct{ states, transitions int }{{10000, 40000}} {
		data := vdxgen.Generate(size.states, size.transitions)
		name := fmt.Sprintf("states=%d,transitions=%d", size.states, size.transitions)
		importOnly := func() {
			c, err := visio.Read(bytes.NewReader(data), visio.Options{Stencil: st})
			if err != nil || len(c.States) != size.states || len(c.Transitions) != size.transitions {
				b.Fatalf("Read = %v", err)
			}
		}
		c, err := visio.Read(bytes.NewReader(data), visio.Options{Stencil: st})
		if err != nil {
			b.Fatal(err)
		}
		compileOnly := func(min bool) func() {
			return func() {
				r, err := compile.Compile(c, compile.Options{Stencil: st, Minimize: min})
				if err != nil || r.Table.NumStates() == 0 {
					b.Fatalf("Compile = %v", err)
				}
			}
		}
		for _, bm := range []struct {
			name string
			f    func()
		}{
			{name, func() { importOnly(); compileOnly(false)() }},
			{name + "/import-only", importOnly},
			{name + "/compile-only", compileOnly(false)},
			{name + "/compile-minimize", compileOnly(true)},
		} {
			b.Run(bm.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				n := 0
				for b.Loop() {
					bm.f()
					n++
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(len(data))/1e6, "MB-file")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/float64(len(data)), "alloc/file-byte")
			})
		}
	}
}
