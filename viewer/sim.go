package viewer

import (
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Sim is one simulated agent of a table, for a designer who checks a
// drawing before any game runs it (fsmforge view): its polled tests hold
// when the page says so ([Holder]), messages and events are sent from the
// page ([Poster]), each [Sim.Step] is one update DT seconds of game time
// after the last, and the entry and exit actions performed are listed in
// the agent's view. It is a [Source] of one agent, ID 0.
type Sim struct {
	t       *table.Table
	dt      float64
	agent   table.Agent[*Sim]
	holds   []bool // by test
	actions []string
	last    []string // the actions the last step performed
	now     float64
	steps   uint64
	err     error
}

// NewSim returns a simulated agent of t in its initial state, each step
// dt seconds of game time (0 or less: 0.1 s).
func NewSim(t *table.Table, dt float64) *Sim {
	if !(dt > 0) {
		dt = 0.1
	}
	s := &Sim{t: t, dt: dt, holds: make([]bool, t.NumTests())}
	s.agent = table.NewAgent(t, s, simHost{})
	s.last = append(s.last, s.actions...)
	s.actions = s.actions[:0]
	return s
}

type simHost struct{}

func (simHost) Test(s *Sim, id table.TestID) bool { return int(id) < len(s.holds) && s.holds[id] }
func (simHost) Do(s *Sim, p table.PropertyID, v table.ValueID) {
	s.actions = append(s.actions, s.t.Property(p)+"="+s.t.Value(p, v))
}

// Step runs one update at the next step's game time and returns what it
// did; its error is kept for the page too.
func (s *Sim) Step() (table.Result, error) {
	s.steps++
	s.now = float64(s.steps) * s.dt
	s.agent.SetTime(s.now)
	r, err := s.agent.Update(simHost{})
	s.last = append(s.last[:0], s.actions...)
	s.actions = s.actions[:0]
	s.err = err
	return r, err
}

// Err returns the error of the last step, or nil.
func (s *Sim) Err() error { return s.err }

// Describe returns the table's description.
func (s *Sim) Describe() machine.Description { return s.t.Describe() }

// Len returns 1.
func (s *Sim) Len() int { return 1 }

// Agent fills a with the simulated agent, ID 0, and the actions its last
// step performed.
func (s *Sim) Agent(id uint64, a *Agent) bool {
	if id != 0 {
		return false
	}
	var snap table.Snapshot
	fillTableAgent(&s.agent, &snap, a)
	a.ID, a.Time = 0, s.now
	a.Actions = append(a.Actions, s.last...)
	for i, h := range s.holds {
		if h {
			a.Holding = append(a.Holding, int32(i))
		}
	}
	return true
}

// Agents lists the agent when it is in state st.
func (s *Sim) Agents(st machine.StateID, max int, dst []uint64) []uint64 {
	if max > 0 && (st == machine.NoState || st >= 0 && !s.agent.Done() && s.agent.In(table.StateID(st))) {
		dst = append(dst, 0)
	}
	return dst
}

// Counts counts the agent's active states.
func (s *Sim) Counts(counts []int) {
	if s.agent.Done() {
		return
	}
	for _, q := range s.agent.AppendActive(nil) {
		if int(q) < len(counts) {
			counts[q]++
		}
	}
}

// Observe attaches o to the agent.
func (s *Sim) Observe(o machine.Observer) {
	if cur, _ := s.agent.Observer(); cur != o {
		s.agent.Observe(o, 0)
	}
}

// Post sends a message or event to the agent.
func (s *Sim) Post(id uint64, trigger int32) error {
	if id != 0 {
		return errNoAgent
	}
	return s.agent.Post(table.TestID(trigger))
}

// Hold makes the polled test trigger hold, or not, from the next step on.
func (s *Sim) Hold(id uint64, trigger int32, on bool) error {
	if id != 0 {
		return errNoAgent
	}
	if trigger < 0 || int(trigger) >= len(s.holds) || s.t.Test(table.TestID(trigger)).Message {
		return errNotTest
	}
	s.holds[trigger] = on
	return nil
}

// Holder is a Source whose polled tests the page makes hold, for a
// simulated agent: Hold sets whether trigger (a polled test, by its index
// in the Description.Triggers) holds for agent id from the next update on.
type Holder interface {
	Hold(id uint64, trigger int32, on bool) error
}

// PrepareReload readies the move of the simulated agent onto t, a new
// version of its drawing (package reload calls it when the designer saves:
// a *Sim is a reload.Target), as table.PrepareReload moves a game's
// agents: it keeps its state, configuration, history, queued events and
// timers, by name, and the tests held that t still has. It changes
// nothing; the commit makes the move. The Sim stays the same pointer, so
// that the viewer shows it as it was; give the viewer the new version with
// Viewer.Reloaded.
func (s *Sim) PrepareReload(t *table.Table, m *machine.Mapping) (commit func(), err error) {
	move, err := table.PrepareReload(t, func(yield func(*table.Agent[*Sim]) bool) { yield(&s.agent) }, m)
	if err != nil {
		return nil, err
	}
	holds := make([]bool, t.NumTests())
	for id, on := range s.holds {
		if to, ok := m.Trigger(int32(id)); on && ok && int(to) < len(holds) {
			holds[to] = true
		}
	}
	return func() {
		move()
		s.t, s.holds = t, holds
	}, nil
}
