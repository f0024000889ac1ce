package scxml_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// bigChart is a chart of the goomba stencil with n states, each with two
// entry actions and a box, and m transitions.
func bigChart(st *chart.Stencil, n, m int) *chart.Chart {
	c := &chart.Chart{Name: "big", Stencil: st}
	for i := range n {
		c.States = append(c.States, chart.State{
			ID: strconv.Itoa(i), Name: "state" + strconv.Itoa(i), Initial: i == 0,
			Entry: []chart.Action{{Property: "XMovement", Value: "left"}, {Property: "Animation", Value: "moveLeft"}},
			Box:   &chart.Box{X: float64(i%100) * 200, Y: float64(i/100) * 120, W: 144, H: 72},
		})
	}
	orders := make([]int, n)
	for j := range m {
		from := j % n
		orders[from]++
		test := st.Tests[j%len(st.Tests)].Name
		c.Transitions = append(c.Transitions, chart.Transition{
			ID: "t" + strconv.Itoa(j), From: strconv.Itoa(from), Order: orders[from], Test: test, Label: test,
			Target: chart.Target{State: strconv.Itoa((j * 7) % n)},
		})
	}
	return c
}

// BenchmarkRead reads generated charts of the goomba stencil, from 100
// states and 400 transitions to 10,000 and 40,000. The baseline,
// encoding-xml-tokens, only runs the standard library's XML tokenizer over
// the same file, which the reader does first.
func BenchmarkRead(b *testing.B) {
	st := charttest.Stencil(b)
	for _, size := range []struct{ states, transitions int }{{100, 400}, {10000, 40000}} {
		var buf bytes.Buffer
		if err := scxml.Write(&buf, bigChart(st, size.states, size.transitions), scxml.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		name := fmt.Sprintf("states=%d,transitions=%d", size.states, size.transitions)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				c, err := scxml.Read(bytes.NewReader(data), scxml.Options{Stencil: st})
				if err != nil || len(c.States) != size.states || len(c.Transitions) != size.transitions {
					b.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
				}
			}
		})
		b.Run(name+"/encoding-xml-tokens", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d := xml.NewDecoder(bytes.NewReader(data))
				for {
					if _, err := d.Token(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkWrite writes the same charts.
func BenchmarkWrite(b *testing.B) {
	st := charttest.Stencil(b)
	for _, size := range []struct{ states, transitions int }{{100, 400}, {10000, 40000}} {
		c := bigChart(st, size.states, size.transitions)
		b.Run(fmt.Sprintf("states=%d,transitions=%d", size.states, size.transitions), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := scxml.Write(io.Discard, c, scxml.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
