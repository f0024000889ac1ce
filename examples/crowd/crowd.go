// Package crowd is the crowd demo: a horde of monsters sharing one
// four-state machine (idle, wander, chase, flee) on package crowd. Each
// monster carries its own xorshift seed, so a run is the same for a given
// seed whatever the number of workers.
package crowd

import (
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/crowd"
)

// Monster is one monster's data: 28 bytes that move with it from bucket to
// bucket.
type Monster struct {
	X, Y, VX, VY float32
	Timer        float32 // seconds in the current state
	Energy       float32
	Seed         uint32 // its own random sequence
}

// The monster's states.
const (
	Idle crowd.StateID = iota
	Wander
	Chase
	Flee
	NumStates
)

// Step is the game time of one step, in seconds.
const Step = 1.0 / 60

func (m *Monster) rand() uint32 {
	x := m.Seed
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	m.Seed = x
	return x
}

// enter resets the timer on the first step in a state.
func (m *Monster) enter(prev, me crowd.StateID) {
	if prev != me {
		m.Timer = 0
	}
	m.Timer += Step
}

// decide stays in me, or with probability 1/10 picks one of the others.
func (m *Monster) decide(me crowd.StateID, r uint32) crowd.StateID {
	if r%10 != 0 {
		return me
	}
	return (me + 1 + crowd.StateID(r/10%3)) % NumStates
}

func idle(m *Monster, prev crowd.StateID) crowd.StateID {
	m.enter(prev, Idle)
	r := m.rand()
	m.VX *= 0.9
	m.VY *= 0.9
	m.Energy = min(m.Energy+Step, 1)
	return m.decide(Idle, r)
}

func wander(m *Monster, prev crowd.StateID) crowd.StateID {
	m.enter(prev, Wander)
	r := m.rand()
	m.VX += float32(int8(r>>8)) * (Step / 64)
	m.VY += float32(int8(r>>16)) * (Step / 64)
	m.X += m.VX * Step
	m.Y += m.VY * Step
	return m.decide(Wander, r)
}

func chase(m *Monster, prev crowd.StateID) crowd.StateID {
	m.enter(prev, Chase)
	r := m.rand()
	m.VX -= m.X * Step
	m.VY -= m.Y * Step
	m.X += m.VX * (2 * Step)
	m.Y += m.VY * (2 * Step)
	m.Energy -= Step
	return m.decide(Chase, r)
}

func flee(m *Monster, prev crowd.StateID) crowd.StateID {
	m.enter(prev, Flee)
	r := m.rand()
	m.VX += m.X * Step
	m.VY += m.Y * Step
	m.X += m.VX * (3 * Step)
	m.Y += m.VY * (3 * Step)
	m.Energy -= 2 * Step
	return m.decide(Flee, r)
}

// Defs returns the machine's four states.
func Defs() []crowd.Def[Monster] {
	return []crowd.Def[Monster]{
		{Name: "idle", Func: idle},
		{Name: "wander", Func: wander},
		{Name: "chase", Func: chase},
		{Name: "flee", Func: flee},
	}
}

// New makes a horde of n monsters from seed, each in a state drawn from its
// own random sequence, stepping on the given number of workers.
func New(n int, seed uint64, workers int) (*crowd.Machine[Monster], error) {
	if n < 0 || n > int(crowd.MaxID)+1 {
		return nil, fmt.Errorf("crowd demo: %d monsters: must be between 0 and %d", n, int(crowd.MaxID)+1)
	}
	m, err := crowd.New(Defs(), crowd.Options[Monster]{MaxID: crowd.ID(max(n-1, 0))})
	if err != nil {
		return nil, err
	}
	if err := m.SetWorkers(workers); err != nil {
		m.Close()
		return nil, err
	}
	for i := range n {
		s := uint32(seed) ^ uint32(seed>>32) ^ uint32(i)*2654435761
		if s == 0 {
			s = 1
		}
		mon := Monster{Seed: s, X: float32(i%1000) - 500, Y: float32(i/1000%1000) - 500}
		if err := m.Add(crowd.ID(i), mon, crowd.StateID(mon.rand()%uint32(NumStates))); err != nil {
			m.Close()
			return nil, err
		}
	}
	return m, nil
}

// Summary writes one line: the step number, the monsters in each state and
// how many changed state in the last step.
func Summary(w io.Writer, m *crowd.Machine[Monster]) error {
	moved := 0
	var buf [16]crowd.Transition
	for _, t := range m.Transitions(buf[:0]) {
		moved += t.N
	}
	_, err := fmt.Fprintf(w, "step %4d | idle %7d  wander %7d  chase %7d  flee %7d | %6d changed state\n",
		m.Steps(), m.Count(Idle), m.Count(Wander), m.Count(Chase), m.Count(Flee), moved)
	return err
}

// Checksum folds every monster's state and data, in bucket order, into one
// number: equal for equal runs.
func Checksum(m *crowd.Machine[Monster]) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint32) {
		h ^= uint64(v)
		h *= 1099511628211
	}
	for s := range NumStates {
		for id, mon := range m.Each(s) {
			mix(uint32(id))
			mix(uint32(s))
			mix(mon.Seed)
			mix(uint32(mon.X * 1000))
			mix(uint32(mon.Timer * 1000))
		}
	}
	return h
}
