package npcgen

import (
	"errors"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs the generated NPC and table.Agent on the same
// statechart through the same seeded random scripts: same host calls,
// results, errors, active states and timers after every update.
func TestDifferential(t *testing.T) {
	tbl := fixtures.NPC()
	total := difftest.ChartStats{}
	seen := map[table.StateID]bool{}
	for seed := range uint64(8) {
		st := difftest.RunChart(t, tbl, newGen, 3000, seed)
		total.Updates += st.Updates
		total.Steps += st.Steps
		total.QueueFull += st.QueueFull
		total.Chains += st.Chains
		total.Timers += st.Timers
		for s := range st.States {
			seen[s] = true
		}
	}
	t.Logf("%+v, states active: %d of %d", total, len(seen), tbl.NumStates())
	if total.Steps < 1000 || total.QueueFull == 0 || total.Timers == 0 {
		t.Errorf("the runs went through %+v; want microsteps, full queues and pending timers", total)
	}
	// Every state but the history and "stand" (left in the microstep
	// that enters it, since aim is active then) ends some update active.
	for s := range tbl.NumStates() {
		id := table.StateID(s)
		if tbl.Kind(id) != table.KindDeepHistory && State(s) != StateStand && !seen[id] {
			t.Errorf("state %s was never active after an update", tbl.StateName(id))
		}
	}
}

// host is the generated Host over the scripted difftest.Host.
type host struct{ h *difftest.Host }

func (h host) SeesPlayer() bool { return h.h.Test(table.TestID(TestSeesPlayer)) }
func (h host) Anim(v Anim)      { h.h.Do(table.ActionID(PropertyAnim), table.ValueID(v)) }

// gen is the generated Machine as a difftest.ChartMachine.
type gen struct {
	m Machine
	h host
}

func newGen(h *difftest.Host) difftest.ChartMachine {
	g := &gen{h: host{h}}
	g.m = NewMachine(g.h)
	return g
}

func tableState(s State) table.StateID {
	switch s {
	case Final:
		return table.Final
	case NoState:
		return table.NoState
	}
	return table.StateID(s)
}

func (g *gen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	test := table.TestID(r.Test)
	if r.Test == NoTest {
		test = table.NoTest
	}
	return table.Result{From: tableState(r.From), To: tableState(r.To), Test: test, Steps: r.Steps}, err
}

func (g *gen) Post(ev table.TestID) error {
	msg, ok := Test(ev).Message()
	if !ok {
		panic("not a message")
	}
	return g.m.Post(msg)
}

func (g *gen) SetTime(now float64)        { g.m.SetTime(now) }
func (g *gen) NextTimer() (float64, bool) { return g.m.NextTimer() }
func (g *gen) In(s table.StateID) bool    { return g.m.In(State(min(s, 255))) }
func (g *gen) State() table.StateID       { return tableState(g.m.State()) }
func (g *gen) Done() bool                 { return g.m.Done() }

func (g *gen) Active(dst []table.StateID) []table.StateID {
	var buf [NumStates]State
	for _, s := range g.m.Active(buf[:0]) {
		dst = append(dst, tableState(s))
	}
	return dst
}

func (g *gen) Err(err error) difftest.ChartErr {
	var ce *ChainError
	switch {
	case err == nil:
		return difftest.ChartErr{}
	case errors.Is(err, ErrQueueFull):
		return difftest.ChartErr{Kind: "queue full"}
	case errors.As(err, &ce):
		if !errors.Is(err, ErrChainLimit) {
			return difftest.ChartErr{Kind: "chain, but not ErrChainLimit"}
		}
		path := make([]table.StateID, len(ce.Path))
		for i, s := range ce.Path {
			path[i] = tableState(s)
		}
		return difftest.ChartErr{Kind: "chain", Limit: ce.Limit, Path: path, Visited: ce.Visited, At: tableState(ce.At)}
	}
	return difftest.ChartErr{Kind: "other: " + err.Error()}
}
