// Package difftest drives a generated machine and a [table.Agent] running
// the same table through the same random frames, and reports the first
// difference in what they ask the host, what they return, and what they
// show: the differential test of package gogen.
package difftest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Machine is one machine under test as the driver sees it, in the table's
// IDs: the generated machine behind an adapter, or a table.Agent.
type Machine interface {
	Update() (table.Result, error)
	Receive(msg table.TestID) (table.Result, error)
	Post(msg table.TestID)
	State() table.StateID
	Done() bool
	Depth() int
	String() string
	Snapshot() table.Snapshot
	Restore(s table.Snapshot) error
	// Save returns the machine's snapshot in its binary form
	// (AppendBinary), and Load restores the machine from one
	// (UnmarshalBinary, then the restore); a Load that fails changes
	// nothing.
	Save() ([]byte, error)
	Load(b []byte) error
	// Err describes an error the machine returned, in the table's terms.
	Err(err error) Err
}

// Err is an error described by its kind and fields, so that the generated
// machine's errors and table's compare.
type Err struct {
	Kind     string // "", "not started", "reentrant", "overflow", "underflow", "chain", "restore"
	State    table.StateID
	Test     table.TestID
	Limit    int
	Path     []table.StateID
	Visited  int
	Overflow bool
}

func (e Err) String() string {
	if e.Kind == "" {
		return "no error"
	}
	return fmt.Sprintf("%s error: state %v test %v limit %d path %v visited %d", e.Kind, e.State, e.Test, e.Limit, e.Path, e.Visited)
}

// TableErr describes an error of a table.Agent.
func TableErr(err error) Err {
	var se *table.StackError
	var ce *machine.ChainError
	switch {
	case err == nil:
		return Err{}
	case errors.As(err, &se):
		kind := "underflow"
		if errors.Is(err, table.ErrStackOverflow) {
			kind = "overflow"
		}
		return Err{Kind: kind, State: se.State, Test: se.Test, Limit: se.Limit, Overflow: se.Overflow}
	case errors.As(err, &ce):
		if !errors.Is(err, machine.ErrChainLimit) {
			return Err{Kind: "chain, but not ErrChainLimit"}
		}
		return Err{Kind: "chain", State: table.StateID(ce.At), Test: chainTest(ce), Limit: ce.Limit, Path: tablePath(ce.Path), Visited: ce.Visited}
	case errors.Is(err, table.ErrNoTable):
		return Err{Kind: "not started"}
	case errors.Is(err, table.ErrReentrant):
		return Err{Kind: "reentrant"}
	}
	return Err{Kind: "restore"}
}

// chainTest returns the test a chain error says still held, or NoTest.
func chainTest(ce *machine.ChainError) table.TestID {
	if ce.Trigger < 0 {
		return table.NoTest
	}
	return table.TestID(ce.Trigger)
}

// tablePath returns a chain error's path as the table's states.
func tablePath(p []machine.StateID) []table.StateID {
	out := make([]table.StateID, len(p))
	for i, s := range p {
		out[i] = table.StateID(s)
	}
	return out
}

// Host is the scripted host both machines use: it answers polled tests
// from Holds, logs every call, and runs Hook (once) inside the next call,
// so that a host can call back into its machine.
type Host struct {
	T     *table.Table
	Holds []bool // by TestID
	Log   []string
	Hook  func()
}

// Test answers polled test id.
func (h *Host) Test(id table.TestID) bool {
	h.Log = append(h.Log, "test "+h.T.Test(id).String())
	h.hook()
	return h.Holds[id]
}

// Do performs an entry action.
func (h *Host) Do(p table.PropertyID, v table.ValueID) {
	h.Log = append(h.Log, "do "+h.T.Property(p)+"="+h.T.Value(p, v))
	h.hook()
}

func (h *Host) hook() {
	if f := h.Hook; f != nil {
		h.Hook = nil
		f()
	}
}

// agentHost adapts Host to table.Host.
type agentHost struct{}

func (agentHost) Test(h *Host, id table.TestID) bool              { return h.Test(id) }
func (agentHost) Do(h *Host, p table.PropertyID, v table.ValueID) { h.Do(p, v) }

// agent is a table.Agent as a Machine.
type agent struct {
	a table.Agent[*Host]
	h *Host
}

func newAgent(t *table.Table, h *Host) Machine {
	return &agent{a: table.NewAgent(t, h, agentHost{}), h: h}
}

func (a *agent) Update() (table.Result, error)                  { return a.a.Update(agentHost{}) }
func (a *agent) Receive(msg table.TestID) (table.Result, error) { return a.a.Receive(agentHost{}, msg) }
func (a *agent) Post(msg table.TestID) {
	if err := a.a.Post(msg); err != nil {
		panic(err)
	}
}
func (a *agent) State() table.StateID { return a.a.State() }
func (a *agent) Done() bool           { return a.a.Done() }
func (a *agent) Depth() int           { return a.a.Depth() }
func (a *agent) String() string       { return a.a.String() }
func (a *agent) Snapshot() table.Snapshot {
	var s table.Snapshot
	a.a.Snapshot(&s)
	return s
}
func (a *agent) Restore(s table.Snapshot) error {
	r, err := table.RestoreAgent(a.a.Table(), a.h, &s)
	if err == nil {
		a.a = r
	}
	return err
}
func (a *agent) Save() ([]byte, error) {
	var s table.Snapshot
	a.a.Snapshot(&s)
	return s.AppendBinary(nil)
}
func (a *agent) Load(b []byte) error {
	var s table.Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return err
	}
	return a.Restore(s)
}
func (a *agent) Err(err error) Err { return TableErr(err) }

// side is one of the two machines with its host, and the recorder of its
// events when the generated machine is Observable.
type side struct {
	name  string
	h     *Host
	m     Machine
	start func(h *Host) Machine
	w     *watcher
}

// Run drives a generated machine (made by gen, which starts it through the
// host it is given, as NewMachine does) and a table.Agent on t through
// frames random frames, and fails the test at the first difference. Each
// frame sets which polled tests hold, then does some of: post or receive a
// message, have the host call back into its machine during the next call
// (an update, a receive or a post), snapshot and restore, restore a bad
// snapshot; then updates, and sometimes starts both machines again (more
// often when they are done). It reports how many transitions, errors and finishes it saw, so a
// test can check that the run went through what it meant to.
//
// Every comparison includes both machines' snapshots in binary form
// (AppendBinary), which must be the same bytes. From a seeded random frame
// on, and then now and then (by a second random source, so that the
// frames are the same as without), both sides save to bytes and load
// them: each its own save, or each the other's, or the generated machine
// alone while table.Agent goes on uninterrupted; and a truncated or
// corrupted save must fail to load on both sides, changing nothing.
//
// When the generated machine's adapter is [Observable], each machine has a
// machine.Recorder attached (again after a restore, which drops it), and
// the events each operation reported are part of the comparison: the same
// events, field by field, in the same order.
func Run(tb testing.TB, t *table.Table, gen func(h *Host) Machine, frames int, seed uint64) Stats {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	saves := rand.New(rand.NewPCG(seed, 0x5a7e))
	firstSave := saves.IntN(max(frames, 1))
	var msgs, polled []table.TestID
	for i := range t.NumTests() {
		if t.Test(table.TestID(i)).Message {
			msgs = append(msgs, table.TestID(i))
		} else {
			polled = append(polled, table.TestID(i))
		}
	}
	var s [2]*side
	var st Stats
	var trace []string
	watchers := [2]*watcher{newWatcher(t), newWatcher(t)}
	observing := false
	fail := func(frame int, format string, args ...any) {
		tb.Helper()
		tb.Fatalf("frame %d (seed %d): %s\ntrace, last first:\n%s", frame, seed, fmt.Sprintf(format, args...), strings.Join(lastFirst(trace, 30), "\n"))
	}
	// same runs op on both sides and compares what it returned and logged.
	same := func(frame int, what string, op func(sd *side) string) {
		tb.Helper()
		var out [2]string
		for i, sd := range s {
			sd.h.Log = sd.h.Log[:0]
			if observing {
				sd.w.attach(sd.m)
			}
			out[i] = op(sd) + " | " + strings.Join(sd.h.Log, ", ") + " | " + show(sd.m)
			if observing {
				evs, problem := sd.w.take()
				if problem != "" {
					fail(frame, "%s: %s: %s", what, sd.name, problem)
				}
				if sd.name == "table.Agent" {
					st.Events += len(evs)
					countCauses(&st.Causes, evs)
				}
				out[i] += " | events " + showEvents(evs)
			}
		}
		trace = append(trace, what+": "+out[1])
		if out[0] != out[1] {
			fail(frame, "%s:\ngenerated:   %s\ntable.Agent: %s", what, out[0], out[1])
		}
	}
	result := func(sd *side, r table.Result, err error) string {
		e := sd.m.Err(err)
		switch e.Kind {
		case "":
		case "overflow", "underflow":
			st.StackErrors++
		case "chain":
			st.ChainErrors++
		case "reentrant":
			st.Reentrant++
		}
		if sd.name == "table.Agent" {
			st.Steps += int(r.Steps)
			if r.Final() && r.Moved() {
				st.Finals++
			}
		}
		return fmt.Sprintf("%+v %v", r, e)
	}
	start := func(frame int) {
		tb.Helper()
		s = [2]*side{
			{name: "generated", h: &Host{T: t, Holds: make([]bool, t.NumTests())}, start: gen, w: watchers[0]},
			{name: "table.Agent", h: &Host{T: t, Holds: make([]bool, t.NumTests())}, start: func(h *Host) Machine { return newAgent(t, h) }, w: watchers[1]},
		}
		same(frame, "start", func(sd *side) string { sd.m = sd.start(sd.h); return "" })
	}
	start(0)
	_, observing = s[0].m.(Observable)
	for frame := range frames {
		busy := rng.Float64()
		holds := make([]bool, t.NumTests())
		for _, id := range polled {
			holds[id] = rng.Float64() < busy*0.6
		}
		for _, sd := range s {
			copy(sd.h.Holds, holds)
		}
		if len(msgs) > 0 && rng.Float64() < 0.3 {
			msg := msgs[rng.IntN(len(msgs))]
			same(frame, "Post "+t.Test(msg).String(), func(sd *side) string { sd.m.Post(msg); return "" })
		}
		if len(msgs) > 0 && rng.Float64() < 0.15 {
			msg := msgs[rng.IntN(len(msgs))]
			same(frame, "Receive "+t.Test(msg).String(), func(sd *side) string {
				r, err := sd.m.Receive(msg)
				return result(sd, r, err)
			})
		}
		if rng.Float64() < 0.03 {
			same(frame, "Snapshot, Restore", func(sd *side) string {
				snap := sd.m.Snapshot()
				err := sd.m.Restore(snap)
				return fmt.Sprintf("%+v %v", snap, err)
			})
		}
		if frame == firstSave || saves.IntN(40) == 0 {
			st.Saves++
			saveLoad(tb, frame, saves, s, same)
		}
		if rng.Float64() < 0.01 {
			bad := table.Snapshot{State: table.StateID(t.NumStates() + rng.IntN(3))}
			if rng.IntN(2) == 0 {
				bad = table.Snapshot{State: 0, Stack: make([]table.StateID, table.MaxStack+1)}
			}
			same(frame, "Restore a bad snapshot", func(sd *side) string {
				return fmt.Sprintf("error %t", sd.m.Restore(bad) != nil)
			})
		}
		var hook int
		var hookMsg table.TestID
		if rng.Float64() < 0.05 {
			hook = 1 + rng.IntN(3)
			if len(msgs) > 0 {
				hookMsg = msgs[rng.IntN(len(msgs))]
			} else if hook > 1 {
				hook = 1
			}
		}
		same(frame, "Update", func(sd *side) string {
			var inner string
			switch hook {
			case 1:
				sd.h.Hook = func() { r, err := sd.m.Update(); inner = "inner Update: " + result(sd, r, err) }
			case 2:
				sd.h.Hook = func() { r, err := sd.m.Receive(hookMsg); inner = "inner Receive: " + result(sd, r, err) }
			case 3:
				sd.h.Hook = func() { sd.m.Post(hookMsg); inner = "inner Post" }
			}
			r, err := sd.m.Update()
			out := result(sd, r, err)
			sd.h.Hook = nil
			return out + " " + inner
		})
		if s[1].m.Done() && rng.Float64() < 0.5 || rng.Float64() < 0.002 {
			start(frame)
		}
	}
	return st
}

// saveLoad has both sides save to bytes and load: their own save, the
// other's, or (the generated machine alone) its own while table.Agent goes
// on; then a corrupted save, which both must refuse.
func saveLoad(tb testing.TB, frame int, rng *rand.Rand, s [2]*side, same func(int, string, func(*side) string)) {
	tb.Helper()
	var saved [2][]byte
	for i, sd := range s {
		b, err := sd.m.Save()
		if err != nil {
			tb.Fatalf("frame %d: %s: Save: %v", frame, sd.name, err)
		}
		saved[i] = b
	}
	how := rng.IntN(3)
	what := [...]string{"Save, Load its own", "Save, Load the other's", "Save, Load (generated only)"}[how]
	same(frame, what, func(sd *side) string {
		i := 0
		if sd.name == "table.Agent" {
			i = 1
		}
		switch how {
		case 1:
			i = 1 - i
		case 2:
			if i == 1 {
				return fmt.Sprintf("%x <nil>", saved[1])
			}
		}
		return fmt.Sprintf("%x %v", saved[i], sd.m.Load(saved[i]))
	})
	bad := corrupt(rng, saved[0])
	same(frame, "Load a corrupted save", func(sd *side) string {
		return fmt.Sprintf("error %t", sd.m.Load(bad) != nil)
	})
}

// corrupt returns a copy of save that no decoder accepts: cut short, with
// a byte more, or with an unknown flag set.
func corrupt(rng *rand.Rand, save []byte) []byte {
	switch rng.IntN(3) {
	case 0:
		return save[:rng.IntN(len(save))]
	case 1:
		return append(slices.Clip(save), 0)
	}
	bad := slices.Clone(save)
	bad[0] |= 4 << rng.IntN(6)
	return bad
}

// Stats counts what a run went through, as the table.Agent saw it.
type Stats struct {
	Steps, Finals, StackErrors, ChainErrors, Reentrant int
	Saves                                              int // frames at which both sides saved and loaded
	// Events counts the events observed (when the generated machine is
	// Observable), and Causes counts them by cause.
	Events int
	Causes map[machine.Cause]int
}

func show(m Machine) string {
	s := m.Snapshot()
	b, err := m.Save()
	return fmt.Sprintf("%s state %v done %t depth %d snapshot %+v save %x %v", m.String(), m.State(), m.Done(), m.Depth(), s, b, err)
}

func lastFirst(trace []string, n int) []string {
	out := slices.Clone(trace[max(0, len(trace)-n):])
	slices.Reverse(out)
	return out
}
