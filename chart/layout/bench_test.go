package layout_test

import (
	"fmt"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/layout"
)

// BenchmarkLayered lays out generated charts, from 100 states and 400
// transitions to the 10,000 and 40,000: the chart of the
// importers' benchmarks (internal/vdxgen: a ring whose states each lead to
// the 1st, 8th, 15th and 22nd after them, which makes long chains and too
// many dummy nodes to insert) and random transitions. The baseline, grid,
// only sizes the states and puts them on a square grid: the least a
// layout costs.
func BenchmarkLayered(b *testing.B) {
	for _, size := range []struct{ states, transitions int }{{100, 400}, {10000, 40000}} {
		for _, shape := range []struct {
			name  string
			chart *chart.Chart
		}{
			{"ring", generated(size.states, size.transitions)},
			{"random", random(size.states, size.transitions, 1)},
		} {
			c := shape.chart
			b.Run(fmt.Sprintf("states=%d,transitions=%d/%s", size.states, size.transitions, shape.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for i := range c.States {
						c.States[i].Box = nil
					}
					layout.Layered(c, layout.Options{})
				}
			})
		}
		c := generated(size.states, size.transitions)
		b.Run(fmt.Sprintf("states=%d,transitions=%d/grid", size.states, size.transitions), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				grid(c)
			}
		})
	}
}

// grid puts the states of c on a square grid, in chart order.
func grid(c *chart.Chart) {
	side := 1
	for side*side < len(c.States) {
		side++
	}
	for i := range c.States {
		w, h := layout.Size(&c.States[i])
		c.States[i].Box = &chart.Box{X: float64(40 + 400*(i%side)), Y: float64(40 + 140*(i/side)), W: w, H: h}
	}
}
