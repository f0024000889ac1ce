package stackgen

import (
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs the generated sentry and table.Agent on the same
// statechart through the same seeded random scripts: same host calls,
// results, errors (StackError fields included), active states, stack
// depth and snapshots (in binary form) after every update, also for
// machines restored from saves mid-run.
func TestDifferential(t *testing.T) {
	tbl := fixtures.Sentry()
	var total difftest.ChartStats
	for seed := range uint64(8) {
		total.Add(difftest.RunChart(t, tbl, newGen, 2000, seed))
	}
	t.Logf("%+v", total)
	if total.Steps < 1000 || total.Pushes == 0 || total.Pops == 0 || total.Overflows == 0 || total.Underflows == 0 || total.MaxDepth != StackLimit || total.Saves < 100 {
		t.Errorf("the runs went through %+v; want microsteps, pushes, pops, overflows, underflows, a full stack and saves", total)
	}
}

// host is the generated Host over the scripted difftest.Host.
type host struct{ h *difftest.Host }

func (h host) Healthy() bool { return h.h.Test(table.TestID(TestHealthy)) }
func (h host) Anim(v Anim)   { h.h.Do(table.PropertyID(PropertyAnim), table.ValueID(v)) }

// gen is the generated Machine as a difftest.StackMachine.
type gen struct {
	m Machine
	h host
}

func newGen(h *difftest.Host) difftest.ChartMachine {
	g := &gen{h: host{h}}
	g.m = NewMachine(g.h)
	return g
}

var ids = difftest.GenIDs[State, Test]{Final: Final, NoState: NoState, NoTest: NoTest}

func (g *gen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return ids.Result(r.From, r.To, r.Test, r.Steps), err
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
func (g *gen) State() table.StateID       { return ids.State(g.m.State()) }
func (g *gen) Done() bool                 { return g.m.Done() }
func (g *gen) Depth() int                 { return g.m.Depth() }

func (g *gen) Active(dst []table.StateID) []table.StateID {
	var buf [NumStates]State
	return ids.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *gen) Err(err error) difftest.ChartErr {
	if x, ok := difftest.GenStackErr(ids, err, ErrStackOverflow, ErrStackUnderflow, func(se *StackError) (bool, State, Test, int) {
		return se.Overflow, se.State, se.Test, se.Limit
	}); ok {
		return x
	}
	return difftest.GenErr(ids, err, ErrQueueFull, ErrChainLimit, func(ce *ChainError) (int, []State, int, State) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}

func (g *gen) Save() ([]byte, error) {
	var s Snapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *gen) Load(b []byte, h *difftest.Host) (difftest.ChartMachine, error) {
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreMachine(&s)
	if err != nil {
		return nil, err
	}
	return &gen{m: m, h: host{h}}, nil
}
