package npcgen

import (
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs the generated NPC and table.Agent on the same
// statechart through the same seeded random scripts: same host calls,
// results, errors, active states, timers and snapshots (in binary form)
// after every update, also for machines restored from saves mid-run.
func TestDifferential(t *testing.T) {
	tbl := fixtures.NPC()
	total := difftest.ChartStats{}
	seen := map[table.StateID]bool{}
	for seed := range uint64(8) {
		st := difftest.RunChart(t, tbl, newGen, 3000, seed)
		total.Add(st)
		for s := range st.States {
			seen[s] = true
		}
	}
	t.Logf("%+v, states active: %d of %d", total, len(seen), tbl.NumStates())
	if total.Steps < 1000 || total.QueueFull == 0 || total.Timers == 0 || total.Saves < 100 {
		t.Errorf("the runs went through %+v; want microsteps, full queues, pending timers and saves", total)
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
func (h host) Anim(v Anim)      { h.h.Do(table.PropertyID(PropertyAnim), table.ValueID(v)) }

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

func (g *gen) Active(dst []table.StateID) []table.StateID {
	var buf [NumStates]State
	return ids.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *gen) Err(err error) difftest.ChartErr {
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
