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

// StackMachine is a ChartMachine with a stack: the adapter of a generated
// machine whose table pushes or returns must be one (a table.Agent is).
type StackMachine interface {
	ChartMachine
	Depth() int
}

// ChartErr is an error of a statechart machine described by its kind
// ("", "queue full", "chain", "overflow", "underflow", "other") and, for a
// chain or the stack, its fields.
type ChartErr struct {
	Kind    string
	Limit   int // the chain limit, or the stack limit
	Path    []table.StateID
	Visited int
	At      table.StateID
	State   table.StateID // the stack: the state the machine showed
	Test    table.TestID  // the stack: the transition's test
}

// equal reports whether e and o describe the same error.
func (e ChartErr) equal(o ChartErr) bool {
	return e.Kind == o.Kind && e.Limit == o.Limit && slices.Equal(e.Path, o.Path) && e.Visited == o.Visited &&
		e.At == o.At && e.State == o.State && e.Test == o.Test
}

// TableChartErr describes an error of a statechart table.Agent.
func TableChartErr(err error) ChartErr {
	var ce *table.ChainError
	var se *table.StackError
	switch {
	case err == nil:
		return ChartErr{}
	case errors.Is(err, table.ErrQueueFull):
		return ChartErr{Kind: "queue full"}
	case errors.As(err, &ce):
		return ChartErr{Kind: "chain", Limit: ce.Limit, Path: ce.Path, Visited: ce.Visited, At: ce.At}
	case errors.As(err, &se):
		kind := "underflow"
		if errors.Is(err, table.ErrStackOverflow) {
			kind = "overflow"
		}
		if se.Overflow != (kind == "overflow") {
			return ChartErr{Kind: "stack, but Overflow does not match its sentinel"}
		}
		return ChartErr{Kind: kind, Limit: se.Limit, State: se.State, Test: se.Test}
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
func (a *chartAgent) Depth() int                                 { return a.a.Depth() }

// ChartStats counts what a run went through, as the table.Agent saw it.
type ChartStats struct {
	Updates, Steps, Finals, QueueFull, Chains, Timers int
	// The stack: updates that returned a StackError for a push onto a
	// full stack, or a return with an empty one; updates that ended with
	// a deeper stack (Pushes) or a shallower one (Pops); the deepest stack
	// after an update.
	Overflows, Underflows, Pushes, Pops, MaxDepth int
	States                                        map[table.StateID]int // updates that ended with the state active
}

// UsesStack reports whether a transition of t pushes or returns.
func UsesStack(t *table.Table) bool {
	for i := range t.NumStates() + 1 {
		s := table.AnyState
		if i < t.NumStates() {
			s = table.StateID(i)
		}
		for tr := range t.Transitions(s) {
			if tr.Push || tr.To == table.Return {
				return true
			}
		}
	}
	return false
}

// RunChart runs the generated machine (made by gen) and a table.Agent of
// t through the same seeded random script of frames: events posted (some
// frames many at once, to fill the queue), game time advanced (to the
// next timer now and then), polled tests answered from a seeded
// assignment that changes every frame. After every update it compares the
// results, the errors, the active states, In for every state, the shown
// state, Done, the next timer, the stack's depth (when t uses the stack:
// gen must then return a StackMachine), and every call to the host
// (tests asked and game actions performed, in order). A machine that is
// done is made again, both sides at once.
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
	stack := UsesStack(t)
	if _, ok := g.(StackMachine); stack && !ok {
		tb.Fatalf("table %q uses the stack, but the generated machine's adapter (%T) has no Depth method", t.Name(), g)
	}
	depth := func(m ChartMachine) int {
		if sm, ok := m.(StackMachine); ok && stack {
			return sm.Depth()
		}
		return 0
	}
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
		if depth(a) != depth(g) {
			fail(frame, "%s: Depth() = %d (gen), want %d", what, depth(g), depth(a))
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
		before := depth(a)
		ra, ea := a.Update()
		rg, eg := g.Update()
		line += fmt.Sprintf(" t=%.3g → %+v %v", now, ra, ea)
		if stack {
			line += fmt.Sprintf(" (stack %d)", depth(a))
		}
		trace = append(trace, line)
		if ra != rg {
			fail(frame, "Update() = %+v (gen), want %+v", rg, ra)
		}
		xa, xg := a.Err(ea), g.Err(eg)
		if !xa.equal(xg) {
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
		case "overflow":
			st.Overflows++
		case "underflow":
			st.Underflows++
		}
		switch d := depth(a); {
		case d > before:
			st.Pushes++
		case d < before:
			st.Pops++
		}
		st.MaxDepth = max(st.MaxDepth, depth(a))
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
