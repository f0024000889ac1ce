package observegen

import (
	"github.com/fsmforge/fsmforge/gogen/internal/difftest"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// The statecharts as difftest.ChartMachine, with hosts over the scripted
// difftest.Host: the adapters of npcgen and stackgen, and Observe and
// Observer, which make them difftest.Observable.

// npcHost is NPCHost over the scripted host.
type npcHost struct{ h *difftest.Host }

func (h npcHost) SeesPlayer() bool { return h.h.Test(table.TestID(NPCTestSeesPlayer)) }
func (h npcHost) Anim(v NPCAnim)   { h.h.Do(table.PropertyID(NPCPropertyAnim), table.ValueID(v)) }

// npcGen is the generated NPCMachine as a difftest.ChartMachine.
type npcGen struct {
	m NPCMachine
	h npcHost
}

func newNPCGen(h *difftest.Host) difftest.ChartMachine {
	g := &npcGen{h: npcHost{h}}
	g.m = NewNPCMachine(g.h)
	return g
}

var npcIDs = difftest.GenIDs[NPCState, NPCTest]{Final: NPCFinal, NoState: NPCNoState, NoTest: NPCNoTest}

func (g *npcGen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return npcIDs.Result(r.From, r.To, r.Test, r.Steps), err
}

func (g *npcGen) Post(ev table.TestID) error {
	msg, ok := NPCTest(ev).Message()
	if !ok {
		panic("not a message")
	}
	return g.m.Post(msg)
}

func (g *npcGen) SetTime(now float64)                       { g.m.SetTime(now) }
func (g *npcGen) NextTimer() (float64, bool)                { return g.m.NextTimer() }
func (g *npcGen) In(s table.StateID) bool                   { return g.m.In(NPCState(min(s, 255))) }
func (g *npcGen) State() table.StateID                      { return npcIDs.State(g.m.State()) }
func (g *npcGen) Done() bool                                { return g.m.Done() }
func (g *npcGen) Observe(o machine.Observer, entity uint64) { g.m.Observe(o, entity) }
func (g *npcGen) Observer() (machine.Observer, uint64)      { return g.m.Observer() }

func (g *npcGen) Active(dst []table.StateID) []table.StateID {
	var buf [NPCNumStates]NPCState
	return npcIDs.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *npcGen) Err(err error) difftest.ChartErr {
	return difftest.GenErr(npcIDs, err, ErrNPCQueueFull, ErrNPCChainLimit, func(ce *NPCChainError) (int, []NPCState, int, NPCState) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}

func (g *npcGen) Save() ([]byte, error) {
	var s NPCSnapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *npcGen) Load(b []byte, h *difftest.Host) (difftest.ChartMachine, error) {
	var s NPCSnapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreNPCMachine(&s)
	if err != nil {
		return nil, err
	}
	return &npcGen{m: m, h: npcHost{h}}, nil
}

// sentryHost is SentryHost over the scripted host.
type sentryHost struct{ h *difftest.Host }

func (h sentryHost) Healthy() bool { return h.h.Test(table.TestID(SentryTestHealthy)) }
func (h sentryHost) Anim(v SentryAnim) {
	h.h.Do(table.PropertyID(SentryPropertyAnim), table.ValueID(v))
}

// sentryGen is the generated SentryMachine as a difftest.StackMachine.
type sentryGen struct {
	m SentryMachine
	h sentryHost
}

func newSentryGen(h *difftest.Host) difftest.ChartMachine {
	g := &sentryGen{h: sentryHost{h}}
	g.m = NewSentryMachine(g.h)
	return g
}

var sentryIDs = difftest.GenIDs[SentryState, SentryTest]{Final: SentryFinal, NoState: SentryNoState, NoTest: SentryNoTest}

func (g *sentryGen) Update() (table.Result, error) {
	r, err := g.m.Update(g.h)
	return sentryIDs.Result(r.From, r.To, r.Test, r.Steps), err
}

func (g *sentryGen) Post(ev table.TestID) error {
	msg, ok := SentryTest(ev).Message()
	if !ok {
		panic("not a message")
	}
	return g.m.Post(msg)
}

func (g *sentryGen) SetTime(now float64)                       { g.m.SetTime(now) }
func (g *sentryGen) NextTimer() (float64, bool)                { return g.m.NextTimer() }
func (g *sentryGen) In(s table.StateID) bool                   { return g.m.In(SentryState(min(s, 255))) }
func (g *sentryGen) State() table.StateID                      { return sentryIDs.State(g.m.State()) }
func (g *sentryGen) Done() bool                                { return g.m.Done() }
func (g *sentryGen) Depth() int                                { return g.m.Depth() }
func (g *sentryGen) Observe(o machine.Observer, entity uint64) { g.m.Observe(o, entity) }
func (g *sentryGen) Observer() (machine.Observer, uint64)      { return g.m.Observer() }

func (g *sentryGen) Active(dst []table.StateID) []table.StateID {
	var buf [SentryNumStates]SentryState
	return sentryIDs.AppendStates(dst, g.m.Active(buf[:0]))
}

func (g *sentryGen) Err(err error) difftest.ChartErr {
	if x, ok := difftest.GenStackErr(sentryIDs, err, ErrSentryStackOverflow, ErrSentryStackUnderflow, func(se *SentryStackError) (bool, SentryState, SentryTest, int) {
		return se.Overflow, se.State, se.Test, se.Limit
	}); ok {
		return x
	}
	return difftest.GenErr(sentryIDs, err, ErrSentryQueueFull, ErrSentryChainLimit, func(ce *SentryChainError) (int, []SentryState, int, SentryState) {
		return ce.Limit, ce.Path, ce.Visited, ce.At
	})
}

func (g *sentryGen) Save() ([]byte, error) {
	var s SentrySnapshot
	g.m.Snapshot(&s)
	return s.AppendBinary(nil)
}

func (g *sentryGen) Load(b []byte, h *difftest.Host) (difftest.ChartMachine, error) {
	var s SentrySnapshot
	if err := s.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m, err := RestoreSentryMachine(&s)
	if err != nil {
		return nil, err
	}
	return &sentryGen{m: m, h: sentryHost{h}}, nil
}
