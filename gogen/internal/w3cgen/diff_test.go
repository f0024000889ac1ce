package w3cgen

import (
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs each generated W3C test and table.Agent on the
// same statechart through the same seeded random scripts (the tests'
// own raised and sent events, and random events posted), restarting both
// when they end: same results, errors, active states, timers and
// snapshots (in binary form) after every update, also for machines
// restored from saves mid-run.
func TestDifferential(t *testing.T) {
	for _, c := range []struct {
		name  string
		table func() *table.Table
		gen   func(*difftest.Host) difftest.ChartMachine
		pass  table.StateID // the state "pass", reached by the first run
	}{
		{"test387", fixtures.Test387, newT387, table.StateID(T387StatePass)},
		{"test405", fixtures.Test405, newT405, table.StateID(T405StatePass)},
		{"test208", fixtures.Test208, newT208, table.StateID(T208StatePass)},
	} {
		t.Run(c.name, func(t *testing.T) {
			tbl := c.table()
			var total difftest.ChartStats
			for seed := range uint64(8) {
				st := difftest.RunChart(t, tbl, c.gen, 1000, seed)
				total.Add(st)
			}
			t.Logf("%+v", total)
			if total.Steps < 100 || total.Finals == 0 || total.Saves < 50 {
				t.Errorf("the runs went through %+v; want microsteps, finishes and saves", total)
			}
			// Run alone, as internal/w3c runs it, the test passes.
			m := c.gen(&difftest.Host{T: tbl, Holds: make([]bool, tbl.NumTests())})
			for range 1000 {
				if m.Done() {
					break
				}
				if r, err := m.Update(); err != nil {
					t.Fatal(err)
				} else if !r.Moved() {
					due, ok := m.NextTimer()
					if !ok {
						break
					}
					m.SetTime(due)
				}
			}
			if !m.Done() || m.State() != c.pass {
				t.Errorf("run alone, the generated machine ends in %v (done %v), want pass (%v)", m.State(), m.Done(), c.pass)
			}
		})
	}
}

// genT387 is the generated T387Machine as a difftest.ChartMachine.
type genT387 struct{ m T387Machine }

func newT387(*difftest.Host) difftest.ChartMachine { return &genT387{NewT387Machine(struct{}{})} }

var t387IDs = difftest.GenIDs[T387State, T387Test]{Final: T387Final, NoState: T387NoState, NoTest: T387NoTest}

func (g *genT387) Update() (table.Result, error) {
	r, err := g.m.Update(struct{}{})
	return t387IDs.Result(r.From, r.To, r.Test, r.Steps), err
}

func (g *genT387) Post(ev table.TestID) error {
	msg, ok := T387Test(ev).Message()
	if !ok {
		panic("not a message")
	}
	return g.m.Post(msg)
}

func (g *genT387) SetTime(now float64)        { g.m.SetTime(now) }
func (g *genT387) NextTimer() (float64, bool) { return g.m.NextTimer() }
func (g *genT387) In(s table.StateID) bool    { return g.m.In(T387State(min(s, 255))) }
func (g *genT387) State() table.StateID       { return t387IDs.State(g.m.State()) }
func (g *genT387) Done() bool                 { return g.m.Done() }

func (g *genT387) Active(dst []table.StateID) []table.StateID {
	var buf [T387NumStates]T387State
	return t387IDs.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *genT387) Save() ([]byte, error) {
	var s T387Snapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *genT387) Load(b []byte, _ *difftest.Host) (difftest.ChartMachine, error) {
	var s T387Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreT387Machine(&s)
	if err != nil {
		return nil, err
	}
	return &genT387{m}, nil
}

func (g *genT387) Err(err error) difftest.ChartErr {
	return difftest.GenErr(t387IDs, err, ErrT387QueueFull, ErrT387ChainLimit, func(ce *T387ChainError) (int, []T387State, int, T387State) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}

// genT405 is the generated T405Machine as a difftest.ChartMachine.
type genT405 struct{ m T405Machine }

func newT405(*difftest.Host) difftest.ChartMachine { return &genT405{NewT405Machine(struct{}{})} }

var t405IDs = difftest.GenIDs[T405State, T405Test]{Final: T405Final, NoState: T405NoState, NoTest: T405NoTest}

func (g *genT405) Update() (table.Result, error) {
	r, err := g.m.Update(struct{}{})
	return t405IDs.Result(r.From, r.To, r.Test, r.Steps), err
}

func (g *genT405) Post(ev table.TestID) error {
	msg, ok := T405Test(ev).Message()
	if !ok {
		panic("not a message")
	}
	return g.m.Post(msg)
}

func (g *genT405) SetTime(now float64)        { g.m.SetTime(now) }
func (g *genT405) NextTimer() (float64, bool) { return g.m.NextTimer() }
func (g *genT405) In(s table.StateID) bool    { return g.m.In(T405State(min(s, 255))) }
func (g *genT405) State() table.StateID       { return t405IDs.State(g.m.State()) }
func (g *genT405) Done() bool                 { return g.m.Done() }

func (g *genT405) Active(dst []table.StateID) []table.StateID {
	var buf [T405NumStates]T405State
	return t405IDs.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *genT405) Save() ([]byte, error) {
	var s T405Snapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *genT405) Load(b []byte, _ *difftest.Host) (difftest.ChartMachine, error) {
	var s T405Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreT405Machine(&s)
	if err != nil {
		return nil, err
	}
	return &genT405{m}, nil
}

func (g *genT405) Err(err error) difftest.ChartErr {
	return difftest.GenErr(t405IDs, err, ErrT405QueueFull, ErrT405ChainLimit, func(ce *T405ChainError) (int, []T405State, int, T405State) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}

// genT208 is the generated T208Machine as a difftest.ChartMachine.
type genT208 struct{ m T208Machine }

func newT208(*difftest.Host) difftest.ChartMachine { return &genT208{NewT208Machine(struct{}{})} }

var t208IDs = difftest.GenIDs[T208State, T208Test]{Final: T208Final, NoState: T208NoState, NoTest: T208NoTest}

func (g *genT208) Update() (table.Result, error) {
	r, err := g.m.Update(struct{}{})
	return t208IDs.Result(r.From, r.To, r.Test, r.Steps), err
}

func (g *genT208) Post(ev table.TestID) error {
	msg, ok := T208Test(ev).Message()
	if !ok {
		panic("not a message")
	}
	return g.m.Post(msg)
}

func (g *genT208) SetTime(now float64)        { g.m.SetTime(now) }
func (g *genT208) NextTimer() (float64, bool) { return g.m.NextTimer() }
func (g *genT208) In(s table.StateID) bool    { return g.m.In(T208State(min(s, 255))) }
func (g *genT208) State() table.StateID       { return t208IDs.State(g.m.State()) }
func (g *genT208) Done() bool                 { return g.m.Done() }

func (g *genT208) Active(dst []table.StateID) []table.StateID {
	var buf [T208NumStates]T208State
	return t208IDs.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *genT208) Save() ([]byte, error) {
	var s T208Snapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *genT208) Load(b []byte, _ *difftest.Host) (difftest.ChartMachine, error) {
	var s T208Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreT208Machine(&s)
	if err != nil {
		return nil, err
	}
	return &genT208{m}, nil
}

func (g *genT208) Err(err error) difftest.ChartErr {
	return difftest.GenErr(t208IDs, err, ErrT208QueueFull, ErrT208ChainLimit, func(ce *T208ChainError) (int, []T208State, int, T208State) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}
