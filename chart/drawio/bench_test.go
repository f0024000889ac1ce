package drawio_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// bigChart makes a chart of the goomba stencil on pages pages, each of
// states states and transitions transitions.
func bigChart(st *chart.Stencil, pages, states, transitions int) *chart.Chart {
	r := rand.New(rand.NewPCG(5, 5))
	c := &chart.Chart{Stencil: st}
	for p := range pages {
		prefix, page := "", "Page-"+strconv.Itoa(p+1)
		if p > 0 {
			prefix = "p" + strconv.Itoa(p+1) + "/"
		}
		for i := range states {
			s := chart.State{ID: prefix + "s" + strconv.Itoa(i), Name: "state " + strconv.Itoa(i), Initial: p == 0 && i == 0, Pos: diag.Pos{Page: page},
				Box: &chart.Box{X: float64(40 + 200*(i%50)), Y: float64(40 + 120*(i/50)), W: 120, H: 60}}
			for _, a := range st.Actions {
				s.Entry = append(s.Entry, chart.Action{Property: a.Name, Value: a.Values[r.IntN(len(a.Values))]})
			}
			c.States = append(c.States, s)
		}
		for i := range transitions {
			t := chart.Transition{ID: prefix + "t" + strconv.Itoa(i), From: prefix + "s" + strconv.Itoa(r.IntN(states)),
				Target: chart.Target{State: prefix + "s" + strconv.Itoa(r.IntN(states))}, Test: st.Tests[r.IntN(len(st.Tests))].Name}
			t.Label = t.Test
			c.Transitions = append(c.Transitions, t)
		}
	}
	seen := map[string]int{}
	for i := range c.Transitions {
		seen[c.Transitions[i].From]++
		c.Transitions[i].Order = seen[c.Transitions[i].From]
	}
	return c
}

// BenchmarkRead imports a generated drawing made with the goomba stencil,
// four pages of 800 states and 1,600 transitions: 6 MB with its pages
// plain, 0.2 MB compressed. It reports the speed in MB/s of the file, the
// file's size (file-MB), and the bytes allocated per byte of the file
// (alloc/file) and, for compressed pages, of the XML they inflate to
// (alloc/xml).
func BenchmarkRead(b *testing.B) {
	st := charttest.Stencil(b)
	for _, tt := range []struct {
		name     string
		compress bool
	}{{"plain", false}, {"compressed", true}} {
		const pages, states, transitions = 4, 800, 1600
		b.Run(fmt.Sprintf("%s/states=%d,transitions=%d", tt.name, pages*states, pages*transitions), func(b *testing.B) {
			c := bigChart(st, pages, states, transitions)
			var file, xml bytes.Buffer
			if err := drawio.Write(&file, c, drawio.WriteOptions{Compress: tt.compress}); err != nil {
				b.Fatal(err)
			}
			drawio.Write(&xml, c, drawio.WriteOptions{})
			data := file.Bytes()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			n := 0
			for b.Loop() {
				c, err := drawio.Read(bytes.NewReader(data), drawio.Options{Stencil: st})
				if err != nil || len(c.States) != pages*states || len(c.Transitions) != pages*transitions {
					b.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
				}
				n++
			}
			runtime.ReadMemStats(&after)
			perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
			b.ReportMetric(float64(len(data))/1e6, "file-MB")
			b.ReportMetric(perOp/float64(len(data)), "alloc/file")
			if tt.compress {
				b.ReportMetric(perOp/float64(xml.Len()), "alloc/xml")
			}
		})
	}
}
