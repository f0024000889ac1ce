package layout_test

import (
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/layout"
)

// FuzzLayered lays out charts read from arbitrary bytes: each pair of
// bytes is a transition (from, to) among up to 16 states, some of them
// pseudo-states, on up to two pages, some with boxes already, some nested
// in earlier ones (nest's bits). The layout must not panic, must give every
// state a box, keep the boxes there were, place no two boxes of a page over
// each other but for a compound and the states inside it, which it holds.
func FuzzLayered(f *testing.F) {
	f.Add([]byte{0x01, 0x12, 0x20}, uint16(0), false, uint32(0))
	f.Add([]byte{0x01, 0x10, 0x12, 0x23, 0x31, 0xf2, 0x2e}, uint16(5), true, uint32(0))
	f.Add([]byte("\x00\x11\x22\x33\x44\x01\x02\x03\x04\x40\x30\x20\x10"), uint16(0xffff), false, uint32(0))
	f.Add([]byte{0x01, 0x12, 0x23, 0x34, 0x45, 0x50, 0x36}, uint16(7), false, uint32(0b01_01_10_01_01_00))
	f.Fuzz(func(t *testing.T, data []byte, flags uint16, lr bool, nest uint32) {
		n := 1 + int(flags%16)
		c := &chart.Chart{States: make([]chart.State, n)}
		for i := range n {
			s := chart.State{ID: strconv.Itoa(i), Name: "s" + strconv.Itoa(i*i*i)}
			bits := flags >> (i % 16)
			switch {
			case i == 0:
				s.Initial = true
			case bits&3 == 1:
				s.Kind = chart.EndState
			case bits&7 == 2:
				s.Kind = chart.ChoiceState
			case bits&15 == 6:
				s.Kind = chart.StartState
			}
			if i%5 == 4 {
				s.Pos.Page = "two"
			}
			if i%7 == 6 && bits&1 == 1 {
				s.Box = &chart.Box{X: float64(i * 37), Y: float64(i * 11), W: 50, H: 20}
			}
			if k := int(nest>>(2*(i%16))) & 3; k > 0 && i-k >= 0 && s.Box == nil && c.States[i-k].Box == nil {
				s.Parent = c.States[i-k].ID
				s.Pos.Page = c.States[i-k].Pos.Page
			}
			c.States[i] = s
		}
		for k := 0; k+1 < len(data) && k < 400; k += 2 {
			from, to := data[k]>>4, data[k]&15
			tr := chart.Transition{From: strconv.Itoa(int(from)), Target: chart.Target{State: strconv.Itoa(int(to))}}
			switch {
			case from == 15:
				tr.From, tr.AnyState = "", true
			case to == 14:
				tr.Target = chart.Target{Kind: chart.ToFinal}
			}
			c.Transitions = append(c.Transitions, tr)
		}
		// Designer's boxes may overlap each other; only new ones are checked.
		before := copyBoxes(c)
		layout.Layered(c, layout.Options{LeftToRight: lr})
		check(t, c, before)
	})
}
