package difftest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/scref"
)

// RandomChart returns the random statechart of seed that gogen's
// TestRandomStatecharts generates code for, and the options to compile it
// with: the chart internal/scref.Generate makes from seed, to which an
// odd seed adds the pushdown stack. Of the transitions of its states
// (and its any-state transitions) that have targets, about a fifth then
// push and a tenth return instead, at least one of each; two pushes in
// three get a way back, a new transition from the state they go to that
// returns, on an event or eventless when a test holds. Two such charts in
// three have a stack limit of 1 to 3 instead of the default, so that
// pushes overflow; returns taken before any push find the stack empty.
// The same seed gives the same chart and options.
func RandomChart(seed uint64) (*chart.Chart, compile.Options) {
	c := scref.Generate(seed)
	if seed%2 == 0 {
		return c, compile.Options{}
	}
	r := rand.New(rand.NewPCG(seed, 0x57ac))
	kind := make(map[string]chart.StateKind, len(c.States))
	for _, s := range c.States {
		kind[s.ID] = s.Kind
	}
	// The transitions that may push or return: those of states (not of
	// start or history pseudo-states) that go to states.
	var cand []int
	for i := range c.Transitions {
		tr := &c.Transitions[i]
		if tr.Target.Kind != chart.ToState {
			continue
		}
		if k := kind[tr.From]; tr.AnyState || k == chart.NormalState || k == chart.ParallelState || k == chart.EndState {
			cand = append(cand, i)
		}
	}
	if len(cand) < 2 {
		return c, compile.Options{}
	}
	// What each candidate does: go to its targets, push or return; at
	// least one pushes and one returns (a return needs a push: compile
	// refuses it otherwise).
	const (
		goes = iota
		pushes
		returns
	)
	does := make([]int, len(cand))
	for k := range does {
		switch x := r.IntN(10); {
		case x < 2:
			does[k] = pushes
		case x == 2:
			does[k] = returns
		}
	}
	if !slices.Contains(does, pushes) {
		does[r.IntN(len(does))] = pushes
	}
	if !slices.Contains(does, returns) {
		p := slices.Index(does, pushes) // kept: the return goes elsewhere
		does[(p+1+r.IntN(len(does)-1))%len(does)] = returns
	}
	var back []chart.Transition
	for k, i := range cand {
		tr := &c.Transitions[i]
		switch does[k] {
		case pushes:
			tr.Push = true
			// Mostly a way back, from the state the push goes to: on an
			// event, or eventless when a test holds.
			if to := tr.Target.State; r.IntN(3) != 0 && (kind[to] == chart.NormalState || kind[to] == chart.ParallelState) {
				b := chart.Transition{ID: fmt.Sprintf("r%d", len(back)+1), From: to, Order: len(c.Transitions) + len(back) + 1,
					Target: chart.Target{Kind: chart.ToReturn}}
				if r.IntN(3) == 0 {
					b.Guard = scref.Tests[r.IntN(len(scref.Tests))]
				} else {
					b.Event = scref.Events[r.IntN(len(scref.Events))]
				}
				back = append(back, b)
			}
		case returns:
			tr.Target, tr.Also, tr.Push = chart.Target{Kind: chart.ToReturn}, nil, false
		}
	}
	c.Transitions = append(c.Transitions, back...)
	var opt compile.Options
	if r.IntN(3) != 0 {
		opt.StackLimit = 1 + r.IntN(3)
	}
	return c, opt
}
