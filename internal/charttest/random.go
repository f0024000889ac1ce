package charttest

import (
	"math/rand/v2"
	"strconv"

	"github.com/fsmforge/fsmforge/chart"
)

// Random builds a chart of a few states nested at random, with every kind
// of state, target and action; names are the IDs and texts it picks from
// besides "s0" to "s13" (an exporter's test gives those its syntax reads,
// those that clash with the nodes it adds, and repeats); parents may be
// missing, pseudo-states, the state itself or a cycle. The same r and
// names give the same chart.
func Random(r *rand.Rand, names []string) *chart.Chart {
	pick := func() string {
		if r.IntN(3) == 0 {
			return names[r.IntN(len(names))]
		}
		return "s" + strconv.Itoa(r.IntN(14))
	}
	actions := func() []chart.Action {
		var as []chart.Action
		for range r.IntN(3) {
			as = append(as, chart.Action{Kind: chart.ActionKind(r.IntN(5)), Property: pick(), Value: pick(),
				Event: pick(), Delay: float64(r.IntN(4)) / 2, Timer: pick(), Guard: names[r.IntN(len(names))]})
		}
		return as
	}
	c := &chart.Chart{Name: pick(), Statechart: r.IntN(2) == 0}
	if r.IntN(4) == 0 {
		c.Stencil = &chart.Stencil{Name: "s"}
	}
	for i := range 1 + r.IntN(14) {
		s := chart.State{ID: "s" + strconv.Itoa(i), Name: pick(), Kind: chart.StateKind(r.IntN(8)),
			Initial: r.IntN(3) == 0, Entry: actions(), Exit: actions()}
		if r.IntN(8) == 0 {
			s.ID = pick()
		}
		if r.IntN(4) != 0 {
			s.Parent = pick()
		}
		if r.IntN(6) == 0 {
			s.Pos.Page = pick()
		}
		c.States = append(c.States, s)
	}
	for i := range r.IntN(16) {
		t := chart.Transition{ID: strconv.Itoa(i), From: pick(), AnyState: r.IntN(10) == 0, Order: r.IntN(3),
			Test: pick(), Value: pick(), Label: names[r.IntN(len(names))], Action: pick(),
			Target:   chart.Target{Kind: chart.TargetKind(r.IntN(5)), State: pick()},
			Internal: r.IntN(4) == 0, Push: r.IntN(5) == 0, Actions: actions()}
		for range r.IntN(3) {
			t.Also = append(t.Also, pick())
		}
		c.Transitions = append(c.Transitions, t)
	}
	return c
}
