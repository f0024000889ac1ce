package crowd_test

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
)

// Workload W3: monsters of 28 bytes sharing a four-state machine (idle,
// wander, chase, flee). Each state does a few float operations and a
// xorshift step; a monster changes state with probability 1/10 per step,
// and entering a state (prev != current) resets its timer. The same work is
// written three ways: a per-entity state function, a per-bucket function,
// and the obvious alternative, a slice of monsters with a state field and a
// switch.

type monster struct {
	X, Y, VX, VY float32
	Timer        float32
	Energy       float32
	Seed         uint32
}

const (
	idle crowd.StateID = iota
	wander
	chase
	flee
	numW3
)

const dt = 1.0 / 60

func xorshift(s *uint32) uint32 {
	x := *s
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	*s = x
	return x
}

// decide returns me, or with probability 1/10 another state.
func decide(me crowd.StateID, r uint32) crowd.StateID {
	if r%10 != 0 {
		return me
	}
	return (me + 1 + crowd.StateID(r/10%3)) % numW3
}

// The four states' work, shared by all three forms: a xorshift step and a
// few float operations, small enough for the compiler to inline in each.

func (m *monster) idle() crowd.StateID {
	r := xorshift(&m.Seed)
	m.VX *= 0.9
	m.VY *= 0.9
	return decide(idle, r)
}

func (m *monster) wander() crowd.StateID {
	r := xorshift(&m.Seed)
	m.VX += float32(int32(r)>>20) * (dt / 2048)
	m.X += m.VX * dt
	return decide(wander, r)
}

func (m *monster) chase() crowd.StateID {
	r := xorshift(&m.Seed)
	m.VX -= m.X * dt
	m.X += m.VX * (2 * dt)
	m.Energy -= dt
	return decide(chase, r)
}

func (m *monster) flee() crowd.StateID {
	r := xorshift(&m.Seed)
	m.VY += m.Y * dt
	m.Y += m.VY * (3 * dt)
	m.Energy += dt
	return decide(flee, r)
}

func (m *monster) enter(prev, me crowd.StateID) {
	if prev != me {
		m.Timer = 0
	}
	m.Timer += dt
}

// Per-entity state functions.

func fnIdle(m *monster, prev crowd.StateID) crowd.StateID   { m.enter(prev, idle); return m.idle() }
func fnWander(m *monster, prev crowd.StateID) crowd.StateID { m.enter(prev, wander); return m.wander() }
func fnChase(m *monster, prev crowd.StateID) crowd.StateID  { m.enter(prev, chase); return m.chase() }
func fnFlee(m *monster, prev crowd.StateID) crowd.StateID   { m.enter(prev, flee); return m.flee() }

func perEntityDefs() []crowd.Def[monster] {
	return []crowd.Def[monster]{
		{Name: "idle", Func: fnIdle},
		{Name: "wander", Func: fnWander},
		{Name: "chase", Func: fnChase},
		{Name: "flee", Func: fnFlee},
	}
}

// Per-bucket state functions.

func batchIdle(b *crowd.Batch[monster]) {
	for i := range b.Len() {
		m, prev := b.At(i)
		m.enter(prev, idle)
		b.Set(i, m.idle())
	}
}

func batchWander(b *crowd.Batch[monster]) {
	for i := range b.Len() {
		m, prev := b.At(i)
		m.enter(prev, wander)
		b.Set(i, m.wander())
	}
}

func batchChase(b *crowd.Batch[monster]) {
	for i := range b.Len() {
		m, prev := b.At(i)
		m.enter(prev, chase)
		b.Set(i, m.chase())
	}
}

func batchFlee(b *crowd.Batch[monster]) {
	for i := range b.Len() {
		m, prev := b.At(i)
		m.enter(prev, flee)
		b.Set(i, m.flee())
	}
}

func perBucketDefs() []crowd.Def[monster] {
	return []crowd.Def[monster]{
		{Name: "idle", Batch: batchIdle},
		{Name: "wander", Batch: batchWander},
		{Name: "chase", Batch: batchChase},
		{Name: "flee", Batch: batchFlee},
	}
}

// The obvious alternative: a state field and a switch.

type naiveMonster struct {
	monster
	state crowd.StateID
}

func naiveStep(ms []naiveMonster) {
	for i := range ms {
		e := &ms[i]
		var next crowd.StateID
		e.Timer += dt
		switch e.state {
		case idle:
			next = e.idle()
		case wander:
			next = e.wander()
		case chase:
			next = e.chase()
		case flee:
			next = e.flee()
		}
		if next != e.state {
			e.state = next
			e.Timer = 0 // entering resets the timer
		}
	}
}

// spawn returns monster i of a seeded population and its first state.
func spawn(seed uint32, i int) (monster, crowd.StateID) {
	s := seed ^ uint32(i)*2654435761
	if s == 0 {
		s = 1
	}
	m := monster{Seed: s, X: float32(i%1000) - 500, Y: float32(i/1000%1000) - 500}
	return m, crowd.StateID(xorshift(&m.Seed) % uint32(numW3))
}

func newW3(tb testing.TB, defs []crowd.Def[monster], n int, seed uint32, opts crowd.Options[monster]) *crowd.Machine[monster] {
	tb.Helper()
	m := buildW3(tb, defs, n, seed, opts)
	tb.Cleanup(m.Close)
	return m
}

// buildW3 is newW3 for a caller that closes the machine itself, so that it
// is garbage once the caller is done with it.
func buildW3(tb testing.TB, defs []crowd.Def[monster], n int, seed uint32, opts crowd.Options[monster]) *crowd.Machine[monster] {
	tb.Helper()
	m, err := crowd.New(defs, opts)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		data, s := spawn(seed, i)
		if err := m.Add(crowd.ID(i), data, s); err != nil {
			tb.Fatal(err)
		}
	}
	return m
}

func newNaive(n int, seed uint32) []naiveMonster {
	ms := make([]naiveMonster, n)
	for i := range ms {
		ms[i].monster, ms[i].state = spawn(seed, i)
	}
	return ms
}

// checksum hashes every bucket in order: IDs, states and data.
func checksum(m *crowd.Machine[monster]) uint64 {
	h := fnv.New64a()
	var buf [32]byte
	for s := range crowd.StateID(m.NumStates()) {
		for id, e := range m.Each(s) {
			put := func(i int, v uint32) {
				buf[i], buf[i+1], buf[i+2], buf[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
			}
			put(0, uint32(id))
			put(4, uint32(s))
			put(8, math.Float32bits(e.X))
			put(12, math.Float32bits(e.Y))
			put(16, math.Float32bits(e.VX))
			put(20, math.Float32bits(e.Timer))
			put(24, math.Float32bits(e.Energy))
			put(28, e.Seed)
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}
