package importer

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

func TestRankOrders(t *testing.T) {
	tr := func(id, from string) chart.Transition { return chart.Transition{ID: id, From: from, Label: id} }
	nan, inf := math.NaN(), math.Inf(1)
	for _, tt := range []struct {
		name   string
		keys   []float64
		want   string // the Orders, in chart order
		warned string // start of a diagnostic, or ""
	}{
		{"document order", []float64{nan, nan, nan}, "1 2 3", ""},
		{"whole orders kept", []float64{3, 1, 7}, "3 1 7", ""},
		{"unordered after ordered", []float64{nan, 2, nan}, "3 2 4", `x: state "s": 1 of 3 transitions have an order and 2 have none`},
		{"decimals ranked", []float64{2, 1.5, 1}, "3 2 1", ""},
		{"else last", []float64{inf, nan, 1}, "3 2 1", `x: state "s": 1 of 3 transitions have an order and 1 has none`},
		{"two else", []float64{inf, inf}, "1 2", `x: state "s": 2 transitions are marked else`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &chart.Chart{States: []chart.State{{ID: "s", Name: "s"}}}
			for i := range tt.keys {
				c.Transitions = append(c.Transitions, tr(fmt.Sprint("t", i), "s"))
			}
			c.Transitions = append(c.Transitions, tr("other", "o"))
			RankOrders(c, append(tt.keys, nan), "x")
			var got []string
			for _, t := range c.Transitions[:len(tt.keys)] {
				got = append(got, fmt.Sprint(t.Order))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("orders = %s, want %s", g, tt.want)
			}
			if o := c.Transitions[len(tt.keys)].Order; o != 1 {
				t.Errorf("the other state's transition has order %d, want 1", o)
			}
			switch {
			case tt.warned == "" && len(c.Diagnostics) > 0:
				t.Errorf("diagnostics = %v, want none", c.Diagnostics)
			case tt.warned != "" && (len(c.Diagnostics) != 1 || !strings.HasPrefix(c.Diagnostics[0].Message, tt.warned)):
				t.Errorf("diagnostics = %v, want one starting %q", c.Diagnostics, tt.warned)
			}
		})
	}
}

// TestRankOrdersNames checks that the warnings name a state by its name
// (by its ID when it has none) and are at its position.
func TestRankOrdersNames(t *testing.T) {
	at := diag.Pos{Shape: "7"}
	c := &chart.Chart{States: []chart.State{{ID: "a", Name: "Alpha", Pos: at}, {ID: "b"}}}
	for _, from := range []string{"a", "a", "b", "b"} {
		c.Transitions = append(c.Transitions, chart.Transition{From: from, Label: "x"})
	}
	RankOrders(c, []float64{1, Unordered, Else, Else}, "x")
	if len(c.Diagnostics) != 2 {
		t.Fatalf("diagnostics = %v, want 2", c.Diagnostics)
	}
	if d := c.Diagnostics[0]; !strings.HasPrefix(d.Message, `x: state "Alpha": 1 of 2`) || d.Pos != at {
		t.Errorf("diagnostic = %q at %v, want one naming Alpha at %v", d.Message, d.Pos, at)
	}
	if d := c.Diagnostics[1]; !strings.HasPrefix(d.Message, `x: state "b": 2 transitions are marked else`) {
		t.Errorf("diagnostic = %q, want one naming b", d.Message)
	}
}
