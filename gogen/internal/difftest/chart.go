package difftest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/table"
)

// ChartMachine is a statechart machine under test as the driver sees it,
// in the table's IDs: the generated machine behind an adapter, or a
// table.Agent.
type ChartMachine interface {
	Update() (table.Result, error)
	Post(ev table.TestID) error
	SetTime(now float64)
	NextTimer() (float64, bool)
	Active(dst []table.StateID) []table.StateID
	In(s table.StateID) bool
	State() table.StateID
	Done() bool
	// Err describes an error the machine returned, in the table's terms.
	Err(err error) ChartErr
}

// ChartErr is an error of a statechart machine described by its kind
// ("", "queue full", "chain", "other") and, for a chain, its fields.
type ChartErr struct {
	Kind    string
	Limit   int
	Path    []table.StateID
	Visited int
	At      table.StateID
}

// TableChartErr describes an error of a statechart table.Agent.
func TableChartErr(err error) ChartErr {
	var ce *table.ChainError
	switch {
	case err == nil:
		return ChartErr{}
	case errors.Is(err, table.ErrQueueFull):
		return ChartErr{Kind: "queue full"}
	case errors.As(err, &ce):
		return ChartErr{Kind: "chain", Limit: ce.Limit, Path: ce.Path, Visited: ce.Visited, At: ce.At}
	}
	return ChartErr{Kind: "other: " + err.Error()}
}

// chartAgent is a table.Agent as a ChartMachine.
type chartAgent struct {
	a table.Agent[*Host]
}

func (a *chartAgent) Update() (table.Result, error)              { return a.a.Update(agentHost{}) }
func (a *chartAgent) Post(ev table.TestID) error                 { return a.a.Post(ev) }
func (a *chartAgent) SetTime(now float64)                        { a.a.SetTime(now) }
func (a *chartAgent) NextTimer() (float64, bool)                 { return a.a.NextTimer() }
func (a *chartAgent) Active(dst []table.StateID) []table.StateID { return a.a.AppendActive(dst) }
func (a *chartAgent) In(s table.StateID) bool                    { return a.a.In(s) }
func (a *chartAgent) State() table.StateID                       { return a.a.State() }
func (a *chartAgent) Done() bool                                 { return a.a.Done() }
func (a *chartAgent) Err(err error) ChartErr                     { return TableChartErr(err) }

// ChartStats counts what a run went through, as the table.Agent saw it.
type ChartStats struct {
	Updates, Steps, Finals, QueueFull, Chains, Timers int
	States                                            map[table.StateID]int // updates that ended with the state active
}

// RunChart runs the generated machine (made by gen) and a table.Agent of
// t through the same seeded random script of frames: events posted (some
// frames many at once, to fill the queue), game time advanced (to the
// next timer now and then), polled tests answered from a seeded
// assignment that changes every frame. After every update it compares the
// results, the errors, the active states, In for every state, the shown
// state, Done, the next timer, and every call to the host (tests asked
// and game actions performed, in order). A machine that is done is made
// again, both sides at once.
func RunChart(tb testing.TB, t *table.Table, gen func(h *Host) ChartMachine, frames int, seed uint64) ChartStats {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var events []table.TestID
	for i := range t.NumTests() {
		if t.Test(table.TestID(i)).Message {
			events = append(events, table.TestID(i))
		}
	}
	ha := &Host{T: t, Holds: make([]bool, t.NumTests())}
	hg := &Host{T: t, Holds: make([]bool, t.NumTests())}
	start := func() (ChartMachine, ChartMachine) {
		ha.Log, hg.Log = ha.Log[:0], hg.Log[:0]
		a := &chartAgent{a: table.NewAgent(t, ha, agentHost{})}
		g := gen(hg)
		return a, g
	}
	a, g := start()
	st := ChartStats{States: map[table.StateID]int{}}
	var trace []string
	fail := func(frame int, format string, args ...any) {
		tb.Helper()
		tb.Fatalf("seed %d, frame %d: %s\nlast frames:\n%s", seed, frame, fmt.Sprintf(format, args...), joinLines(lastFirst(trace, 12)))
	}
	now := 0.0
	compare := func(frame int, what string) {
		tb.Helper()
		if !slices.Equal(ha.Log, hg.Log) {
			fail(frame, "%s: host calls differ:\n table: %q\n gen:   %q", what, ha.Log, hg.Log)
		}
		aa, ga := a.Active(nil), g.Active(nil)
		if !slices.Equal(aa, ga) {
			fail(frame, "%s: Active() = %v (gen), want %v (table)", what, ga, aa)
		}
		if a.State() != g.State() || a.Done() != g.Done() {
			fail(frame, "%s: State, Done = %v, %v (gen), want %v, %v", what, g.State(), g.Done(), a.State(), a.Done())
		}
		for s := range t.NumStates() + 1 {
			if a.In(table.StateID(s)) != g.In(table.StateID(s)) {
				fail(frame, "%s: In(%d) = %v (gen), want %v", what, s, g.In(table.StateID(s)), a.In(table.StateID(s)))
			}
		}
		da, oka := a.NextTimer()
		dg, okg := g.NextTimer()
		if da != dg || oka != okg {
			fail(frame, "%s: NextTimer() = %v, %v (gen), want %v, %v", what, dg, okg, da, oka)
		}
		ha.Log, hg.Log = ha.Log[:0], hg.Log[:0]
	}
	compare(0, "start")
	for frame := 1; frame <= frames; frame++ {
		for i := range ha.Holds {
			v := rng.IntN(3) == 0
			ha.Holds[i], hg.Holds[i] = v, v
		}
		line := fmt.Sprintf("frame %d:", frame)
		if len(events) > 0 {
			n := 0
			switch r := rng.IntN(10); {
			case r < 4:
				n = 1
			case r == 4:
				n = 2 + rng.IntN(40)
			}
			for range n {
				ev := events[rng.IntN(len(events))]
				ea, eg := a.Post(ev), g.Post(ev)
				if a.Err(ea).Kind != g.Err(eg).Kind {
					fail(frame, "Post(%v) = %v (gen), want %v", ev, eg, ea)
				}
				line += fmt.Sprintf(" post %s", t.Test(ev))
			}
		}
		switch r := rng.IntN(10); {
		case r < 5:
			now += rng.Float64() * 0.5
		case r == 5:
			if due, ok := a.NextTimer(); ok {
				now = max(now, due)
			}
		}
		a.SetTime(now)
		g.SetTime(now)
		ra, ea := a.Update()
		rg, eg := g.Update()
		line += fmt.Sprintf(" t=%.3g → %+v %v", now, ra, ea)
		trace = append(trace, line)
		if ra != rg {
			fail(frame, "Update() = %+v (gen), want %+v", rg, ra)
		}
		xa, xg := a.Err(ea), g.Err(eg)
		if xa.Kind != xg.Kind || xa.Limit != xg.Limit || !slices.Equal(xa.Path, xg.Path) || xa.Visited != xg.Visited || xa.At != xg.At {
			fail(frame, "Update error = %+v (gen: %v), want %+v (table: %v)", xg, eg, xa, ea)
		}
		compare(frame, "after Update")
		st.Updates++
		st.Steps += int(ra.Steps)
		switch xa.Kind {
		case "queue full":
			st.QueueFull++
		case "chain":
			st.Chains++
		}
		if _, ok := a.NextTimer(); ok {
			st.Timers++
		}
		for _, s := range a.Active(nil) {
			st.States[s]++
		}
		if a.Done() {
			st.Finals++
			a, g = start()
			compare(frame, "restart")
		}
	}
	return st
}

func joinLines(lines []string) string {
	s := ""
	for _, l := range lines {
		s += "  " + l + "\n"
	}
	return s
}
