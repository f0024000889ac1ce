package w3cgen

import (
	"errors"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs each generated W3C test and table.Agent on the
// same statechart through the same seeded random scripts (the tests'
// own raised and sent events, and random events posted), restarting both
// when they end: same results, errors, active states and timers after
// every update.
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
				total.Steps += st.Steps
				total.Finals += st.Finals
			}
			t.Logf("%+v", total)
			if total.Steps < 100 || total.Finals == 0 {
				t.Errorf("the runs went through %+v; want microsteps and finishes", total)
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

func t387State(s T387State) table.StateID {
	switch s {
	case T387Final:
		return table.Final
	case T387NoState:
		return table.NoState
	}
	return table.StateID(s)
}

func (g *genT387) Update() (table.Result, error) {
	r, err := g.m.Update(struct{}{})
	test := table.TestID(r.Test)
	if r.Test == T387NoTest {
		test = table.NoTest
	}
	return table.Result{From: t387State(r.From), To: t387State(r.To), Test: test, Steps: r.Steps}, err
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
func (g *genT387) State() table.StateID       { return t387State(g.m.State()) }
func (g *genT387) Done() bool                 { return g.m.Done() }

func (g *genT387) Active(dst []table.StateID) []table.StateID {
	var buf [T387NumStates]T387State
	for _, s := range g.m.Active(buf[:0]) {
		dst = append(dst, t387State(s))
	}
	return dst
}

func (g *genT387) Err(err error) difftest.ChartErr {
	var ce *T387ChainError
	switch {
	case err == nil:
		return difftest.ChartErr{}
	case errors.Is(err, ErrT387QueueFull):
		return difftest.ChartErr{Kind: "queue full"}
	case errors.As(err, &ce) && errors.Is(err, ErrT387ChainLimit):
		path := make([]table.StateID, len(ce.Path))
		for i, s := range ce.Path {
			path[i] = t387State(s)
		}
		return difftest.ChartErr{Kind: "chain", Limit: ce.Limit, Path: path, Visited: ce.Visited, At: t387State(ce.At)}
	}
	return difftest.ChartErr{Kind: "other: " + err.Error()}
}

// genT405 is the generated T405Machine as a difftest.ChartMachine.
type genT405 struct{ m T405Machine }

func newT405(*difftest.Host) difftest.ChartMachine { return &genT405{NewT405Machine(struct{}{})} }

func t405State(s T405State) table.StateID {
	switch s {
	case T405Final:
		return table.Final
	case T405NoState:
		return table.NoState
	}
	return table.StateID(s)
}

func (g *genT405) Update() (table.Result, error) {
	r, err := g.m.Update(struct{}{})
	test := table.TestID(r.Test)
	if r.Test == T405NoTest {
		test = table.NoTest
	}
	return table.Result{From: t405State(r.From), To: t405State(r.To), Test: test, Steps: r.Steps}, err
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
func (g *genT405) State() table.StateID       { return t405State(g.m.State()) }
func (g *genT405) Done() bool                 { return g.m.Done() }

func (g *genT405) Active(dst []table.StateID) []table.StateID {
	var buf [T405NumStates]T405State
	for _, s := range g.m.Active(buf[:0]) {
		dst = append(dst, t405State(s))
	}
	return dst
}

func (g *genT405) Err(err error) difftest.ChartErr {
	var ce *T405ChainError
	switch {
	case err == nil:
		return difftest.ChartErr{}
	case errors.Is(err, ErrT405QueueFull):
		return difftest.ChartErr{Kind: "queue full"}
	case errors.As(err, &ce) && errors.Is(err, ErrT405ChainLimit):
		path := make([]table.StateID, len(ce.Path))
		for i, s := range ce.Path {
			path[i] = t405State(s)
		}
		return difftest.ChartErr{Kind: "chain", Limit: ce.Limit, Path: path, Visited: ce.Visited, At: t405State(ce.At)}
	}
	return difftest.ChartErr{Kind: "other: " + err.Error()}
}

// genT208 is the generated T208Machine as a difftest.ChartMachine.
type genT208 struct{ m T208Machine }

func newT208(*difftest.Host) difftest.ChartMachine { return &genT208{NewT208Machine(struct{}{})} }

func t208State(s T208State) table.StateID {
	switch s {
	case T208Final:
		return table.Final
	case T208NoState:
		return table.NoState
	}
	return table.StateID(s)
}

func (g *genT208) Update() (table.Result, error) {
	r, err := g.m.Update(struct{}{})
	test := table.TestID(r.Test)
	if r.Test == T208NoTest {
		test = table.NoTest
	}
	return table.Result{From: t208State(r.From), To: t208State(r.To), Test: test, Steps: r.Steps}, err
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
func (g *genT208) State() table.StateID       { return t208State(g.m.State()) }
func (g *genT208) Done() bool                 { return g.m.Done() }

func (g *genT208) Active(dst []table.StateID) []table.StateID {
	var buf [T208NumStates]T208State
	for _, s := range g.m.Active(buf[:0]) {
		dst = append(dst, t208State(s))
	}
	return dst
}

func (g *genT208) Err(err error) difftest.ChartErr {
	var ce *T208ChainError
	switch {
	case err == nil:
		return difftest.ChartErr{}
	case errors.Is(err, ErrT208QueueFull):
		return difftest.ChartErr{Kind: "queue full"}
	case errors.As(err, &ce) && errors.Is(err, ErrT208ChainLimit):
		path := make([]table.StateID, len(ce.Path))
		for i, s := range ce.Path {
			path[i] = t208State(s)
		}
		return difftest.ChartErr{Kind: "chain", Limit: ce.Limit, Path: path, Visited: ce.Visited, At: t208State(ce.At)}
	}
	return difftest.ChartErr{Kind: "other: " + err.Error()}
}
