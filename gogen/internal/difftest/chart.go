package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
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
	// Save returns the machine's snapshot in its binary form
	// (AppendBinary); Load returns a new machine on host h restored from
	// such a form (UnmarshalBinary, then the restore).
	Save() ([]byte, error)
	Load(b []byte, h *Host) (ChartMachine, error)
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
	var ce *machine.ChainError
	var se *table.StackError
	switch {
	case err == nil:
		return ChartErr{}
	case errors.Is(err, table.ErrQueueFull):
		return ChartErr{Kind: "queue full"}
	case errors.As(err, &ce):
		return ChartErr{Kind: "chain", Limit: ce.Limit, Path: tablePath(ce.Path), Visited: ce.Visited, At: table.StateID(ce.At)}
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

func (a *chartAgent) Save() ([]byte, error) {
	var s table.Snapshot
	a.a.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (a *chartAgent) Load(b []byte, h *Host) (ChartMachine, error) {
	var s table.Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	r, err := table.RestoreAgent(a.a.Table(), h, &s)
	if err != nil {
		return nil, err
	}
	return &chartAgent{a: r}, nil
}

// ChartStats counts what a run went through, as the table.Agent saw it.
type ChartStats struct {
	Updates, Steps, Finals, QueueFull, Chains, Timers int
	// The stack: updates that returned a StackError for a push onto a
	// full stack, or a return with an empty one; updates that ended with
	// a deeper stack (Pushes) or a shallower one (Pops); the deepest stack
	// after an update.
	Overflows, Underflows, Pushes, Pops, MaxDepth int
	// Saves counts the frames at which both machines saved and machines
	// restored from their saves joined the run.
	Saves  int
	States map[table.StateID]int // updates that ended with the state active
	// Events counts the events observed (when the generated machine is
	// Observable), and Causes counts them by cause.
	Events int
	Causes map[machine.Cause]int
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
// gen must then return a StackMachine), the snapshots in binary form
// (AppendBinary: the same bytes), and every call to the host (tests asked
// and game actions performed, in order). A machine that is done is made
// again, both sides at once.
//
// At a seeded random frame, and then now and then (by a second random
// source, so that the script is the same as without), the generated
// machine and the agent save to bytes, and two machines restored from
// those bytes join the run: a generated machine (from its own save or the
// agent's, by turns) and a table.Agent (from the generated machine's
// save). From then on they get the same script and must behave as the
// agent that went on uninterrupted; the next save replaces them.
//
// When the generated machine's adapter is [Observable], each machine has a
// machine.Recorder attached from its start (or its restore), and after
// every update each must have recorded the events the agent's recorded:
// the same events, field by field, in the same order.
func RunChart(tb testing.TB, t *table.Table, gen func(h *Host) ChartMachine, frames int, seed uint64) ChartStats {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	saves := rand.New(rand.NewPCG(seed, 0x5a7e))
	firstSave := 1 + saves.IntN(max(frames, 1))
	var events []table.TestID
	for i := range t.NumTests() {
		if t.Test(table.TestID(i)).Message {
			events = append(events, table.TestID(i))
		}
	}
	// ms[0] is the table.Agent the others are compared with, ms[1] the
	// generated machine, ms[2:] the restored ones.
	var ms []*chartSide
	observing := false
	watch := func(sides ...*chartSide) {
		for _, sd := range sides {
			if observing {
				sd.w = newWatcher(t)
				sd.w.attach(sd.m)
			}
		}
	}
	newHost := func() *Host { return &Host{T: t, Holds: make([]bool, t.NumTests())} }
	start := func() {
		ha, hg := newHost(), newHost()
		ms = []*chartSide{
			{name: "table", m: &chartAgent{a: table.NewAgent(t, ha, agentHost{})}, h: ha},
			{name: "gen", m: gen(hg), h: hg},
		}
		watch(ms...)
	}
	start()
	_, observing = ms[1].m.(Observable)
	watch(ms...)
	stack := UsesStack(t)
	if _, ok := ms[1].m.(StackMachine); stack && !ok {
		tb.Fatalf("table %q uses the stack, but the generated machine's adapter (%T) has no Depth method", t.Name(), ms[1].m)
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
		a := ms[0]
		ab, err := a.m.Save()
		if err != nil {
			fail(frame, "%s: table: Save: %v", what, err)
		}
		var ae []machine.Event
		if observing {
			var problem string
			if ae, problem = a.w.take(); problem != "" {
				fail(frame, "%s: table: %s", what, problem)
			}
			st.Events += len(ae)
			countCauses(&st.Causes, ae)
		}
		for _, g := range ms[1:] {
			if observing {
				ge, problem := g.w.take()
				if problem != "" {
					fail(frame, "%s: %s: %s", what, g.name, problem)
				}
				if !slices.Equal(ae, ge) {
					fail(frame, "%s: events differ:\n table: %s\n %s:   %s", what, showEvents(ae), g.name, showEvents(ge))
				}
			}
			if !slices.Equal(a.h.Log, g.h.Log) {
				fail(frame, "%s: host calls differ:\n table: %q\n %s:   %q", what, a.h.Log, g.name, g.h.Log)
			}
			aa, ga := a.m.Active(nil), g.m.Active(nil)
			if !slices.Equal(aa, ga) {
				fail(frame, "%s: Active() = %v (%s), want %v (table)", what, ga, g.name, aa)
			}
			if a.m.State() != g.m.State() || a.m.Done() != g.m.Done() {
				fail(frame, "%s: State, Done = %v, %v (%s), want %v, %v", what, g.m.State(), g.m.Done(), g.name, a.m.State(), a.m.Done())
			}
			for s := range t.NumStates() + 1 {
				if a.m.In(table.StateID(s)) != g.m.In(table.StateID(s)) {
					fail(frame, "%s: In(%d) = %v (%s), want %v", what, s, g.m.In(table.StateID(s)), g.name, a.m.In(table.StateID(s)))
				}
			}
			da, oka := a.m.NextTimer()
			dg, okg := g.m.NextTimer()
			if da != dg || oka != okg {
				fail(frame, "%s: NextTimer() = %v, %v (%s), want %v, %v", what, dg, okg, g.name, da, oka)
			}
			if depth(a.m) != depth(g.m) {
				fail(frame, "%s: Depth() = %d (%s), want %d", what, depth(g.m), g.name, depth(a.m))
			}
			gb, err := g.m.Save()
			if err != nil || !bytes.Equal(ab, gb) {
				fail(frame, "%s: Save() = %x, %v (%s), want %x (table)", what, gb, err, g.name, ab)
			}
		}
		for _, sd := range ms {
			sd.h.Log = sd.h.Log[:0]
		}
	}
	// save saves the agent and the generated machine, and adds machines
	// restored from their saves, which must be the same bytes.
	save := func(frame int) {
		tb.Helper()
		ab, aerr := ms[0].m.Save()
		gb, gerr := ms[1].m.Save()
		if aerr != nil || gerr != nil || !bytes.Equal(ab, gb) {
			fail(frame, "Save() = %x, %v (gen), want %x, %v (table)", gb, gerr, ab, aerr)
		}
		from, fromName := gb, "its own save"
		if st.Saves%2 == 1 {
			from, fromName = ab, "table's save"
		}
		hr, hx := newHost(), newHost()
		copy(hr.Holds, ms[0].h.Holds)
		copy(hx.Holds, ms[0].h.Holds)
		r, err := ms[1].m.Load(from, hr)
		if err != nil {
			fail(frame, "gen: Load(%x): %v", from, err)
		}
		x, err := ms[0].m.Load(gb, hx)
		if err != nil {
			fail(frame, "table: Load(%x) (gen's save): %v", gb, err)
		}
		ms = append(ms[:2], &chartSide{name: "gen restored from " + fromName, m: r, h: hr}, &chartSide{name: "table restored from gen's save", m: x, h: hx})
		watch(ms[2:]...)
		st.Saves++
		trace = append(trace, fmt.Sprintf("frame %d: saved and restored: %x", frame, gb))
	}
	compare(0, "start")
	for frame := 1; frame <= frames; frame++ {
		for i := range ms[0].h.Holds {
			v := rng.IntN(3) == 0
			for _, sd := range ms {
				sd.h.Holds[i] = v
			}
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
				ea := ms[0].m.Post(ev)
				for _, g := range ms[1:] {
					if eg := g.m.Post(ev); ms[0].m.Err(ea).Kind != g.m.Err(eg).Kind {
						fail(frame, "Post(%v) = %v (%s), want %v", ev, eg, g.name, ea)
					}
				}
				line += fmt.Sprintf(" post %s", t.Test(ev))
			}
		}
		switch r := rng.IntN(10); {
		case r < 5:
			now += rng.Float64() * 0.5
		case r == 5:
			if due, ok := ms[0].m.NextTimer(); ok {
				now = max(now, due)
			}
		}
		for _, sd := range ms {
			sd.m.SetTime(now)
		}
		if frame == firstSave || saves.IntN(100) == 0 {
			save(frame)
		}
		a := ms[0].m
		before := depth(a)
		ra, ea := a.Update()
		line += fmt.Sprintf(" t=%.3g → %+v %v", now, ra, ea)
		if stack {
			line += fmt.Sprintf(" (stack %d)", depth(a))
		}
		trace = append(trace, line)
		xa := a.Err(ea)
		for _, g := range ms[1:] {
			rg, eg := g.m.Update()
			if ra != rg {
				fail(frame, "Update() = %+v (%s), want %+v", rg, g.name, ra)
			}
			if xg := g.m.Err(eg); !xa.equal(xg) {
				fail(frame, "Update error = %+v (%s: %v), want %+v (table: %v)", xg, g.name, eg, xa, ea)
			}
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
			start()
			compare(frame, "restart")
		}
	}
	return st
}

// chartSide is one machine of RunChart with its host, and the recorder of
// its events when the generated machine is Observable.
type chartSide struct {
	name string
	m    ChartMachine
	h    *Host
	w    *watcher
}

func joinLines(lines []string) string {
	s := ""
	for _, l := range lines {
		s += "  " + l + "\n"
	}
	return s
}
