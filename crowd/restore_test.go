package crowd

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// layout describes what of a machine's storage decides its next steps: per
// bucket, its segments (their previous states and IDs in order) as the next
// purge leaves them, the storage's length with its holes, and the state
// adds join.
func layout[E any](m *Machine[E]) string {
	var b []byte
	for s := range m.buckets {
		b = strconv.AppendInt(b, int64(s), 10)
		b = append(b, ':')
		for _, sg := range m.buckets[s].segs {
			n := len(b)
			b = append(b, ' ')
			b = append(b, sg.prev.String()...)
			b = append(b, '[')
			live := false
			for _, sl := range m.cur[sg.off : sg.off+sg.n] {
				if m.where.get(sl.id) != dead {
					b = strconv.AppendUint(append(b, ' '), uint64(sl.id), 10)
					live = true
				}
			}
			b = append(b, ']')
			if !live {
				b = b[:n]
			}
		}
		b = append(b, '\n')
	}
	return string(fmt.Appendf(b, "storage %d, open %s, %d entities, %d steps", len(m.cur)+m.ghost, m.openAfterPurge(), m.total, m.steps))
}

// TestRestoreLayout restores snapshots taken at random points of random
// runs (steps, adds in runs, removes, removed IDs added again) and checks
// that the restored machine's layout is the original's after every later
// operation, not only after steps.
func TestRestoreLayout(t *testing.T) {
	seeds := 120
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		chunk := []int{8, 16, 64}[rng.IntN(3)]
		moves := uint32(2 + rng.IntN(8)) // one in moves changes state
		defs := make([]Def[uint32], 3)
		for i := range defs {
			me := StateID(i)
			defs[i] = Def[uint32]{Name: fmt.Sprint("s", i), Func: func(e *uint32, _ StateID) StateID {
				x := *e
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				*e = x
				switch {
				case x%97 == 0:
					return Final
				case x%moves != 0:
					return me
				}
				return (me + 1 + StateID(x/moves%2)) % 3
			}}
		}
		newMachine := func() *Machine[uint32] {
			m, err := New(defs, Options[uint32]{ChunkSize: chunk})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(m.Close)
			_ = m.SetWorkers(1 + rng.IntN(2))
			return m
		}
		ms := []*Machine[uint32]{newMachine()}
		restoreAt := 5 + rng.IntN(150)
		var log []string
		nextID := ID(0)
		for op := range 250 {
			if op == restoreAt {
				var s Snapshot[uint32]
				ms[0].Snapshot(&s)
				r := newMachine()
				if err := r.Restore(&s); err != nil {
					t.Fatal(err)
				}
				ms = append(ms, r)
			}
			switch k := rng.IntN(10); {
			case k < 3:
				for _, m := range ms {
					_ = m.Step()
				}
				log = append(log, "step")
			case k < 6: // a run of adds
				s, n := StateID(rng.IntN(3)), 1+rng.IntN(chunk)
				for range n {
					for _, m := range ms {
						_ = m.Add(nextID, uint32(nextID)*2654435761|1, s)
					}
					nextID++
				}
				log = append(log, fmt.Sprintf("add %d to %s", n, s))
			case k < 8: // removes
				n := rng.IntN(8)
				for range n {
					id := ID(rng.IntN(int(nextID) + 1))
					for _, m := range ms {
						_ = m.Remove(id)
					}
				}
				log = append(log, fmt.Sprintf("remove %d", n))
			default: // IDs added again, removed or not
				id, s := nextID-ID(rng.IntN(min(int(nextID), 20)+1)), StateID(rng.IntN(3))
				for _, m := range ms {
					_ = m.Add(id, 5, s)
				}
				log = append(log, fmt.Sprint("add again ", id))
			}
			if len(ms) == 2 {
				if got, want := layout(ms[1]), layout(ms[0]); got != want {
					t.Fatalf("seed %d: restored after operation %d, after %v: layout\n%s\nwant\n%s", seed, restoreAt, log[restoreAt:], got, want)
				}
			}
		}
	}
}

// TestRestoreNoStaleData checks that a machine whose entities hold pointers
// keeps no copy of its old entities' data once restored.
func TestRestoreNoStaleData(t *testing.T) {
	tr := &staleTracker{}
	defs := []Def[staleEnt]{
		{Name: "a", Func: func(e *staleEnt, _ StateID) StateID { return StateID(e.id % 2) }},
		{Name: "b", Func: func(e *staleEnt, _ StateID) StateID { return StateID(e.id % 3 % 2) }},
	}
	m, err := New(defs, Options[staleEnt]{ChunkSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for id := range ID(500) {
		if err := m.Add(id, tr.make(id), 0); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if err := m.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for id := range ID(500) {
		tr.left(m.entity(id).p, "restored over")
	}
	s := Snapshot[staleEnt]{Open: NoState}
	for id := ID(1000); id < 1100; id++ {
		e := tr.make(id)
		s.IDs, s.Data = append(s.IDs, id), append(s.Data, e)
		s.States, s.Previous = append(s.States, StateID(id%2)), append(s.Previous, NoState)
	}
	if err := m.Restore(&s); err != nil {
		t.Fatal(err)
	}
	s = Snapshot[staleEnt]{} // the machine's copies only
	if err := staleCopies(m); err != nil {
		t.Fatal(err)
	}
	if left := tr.check(t, m); left != 500 {
		t.Errorf("%d entities left the machine, want 500", left)
	}
}

// entity returns entity id's data, which must be in the machine.
func (m *Machine[E]) entity(id ID) *E {
	s, _ := m.StateOf(id)
	for i, e := range m.Each(s) {
		if i == id {
			return e
		}
	}
	panic(fmt.Sprint("no entity ", id))
}
