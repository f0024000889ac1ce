package crowd_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
)

// BenchmarkW3 runs workload W3 (see w3_test.go) three ways, after 64
// untimed warm-up steps: the obvious switch over a slice of monsters, the
// per-entity state functions and the per-bucket ones, on 1 and 2 workers;
// and the last two again with a machine.Recorder attached, recording
// every change of state (one entity in ten per step). ns/entity is the
// cost of one entity-update.
func BenchmarkW3(b *testing.B) {
	const warmup = 64
	for _, n := range []int{65536, 1000000} {
		b.Run(fmt.Sprintf("entities=%d/switch", n), func(b *testing.B) {
			ms := newNaive(n, 1)
			for range warmup {
				naiveStep(ms)
			}
			for b.Loop() {
				naiveStep(ms)
			}
			perEntity(b, n)
		})
		for _, form := range []struct {
			name string
			defs func() []crowd.Def[monster]
		}{{"perEntity", perEntityDefs}, {"perBucket", perBucketDefs}} {
			for _, workers := range []int{1, 2} {
				for _, rec := range []bool{false, true} {
					name := fmt.Sprintf("entities=%d/%s/workers=%d", n, form.name, workers)
					if rec {
						name += "/recorder"
					}
					b.Run(name, func(b *testing.B) { benchW3(b, form.defs(), n, workers, rec) })
				}
			}
		}
	}
}

func benchW3(b *testing.B, defs []crowd.Def[monster], n, workers int, record bool) {
	const warmup = 64
	// A benchmark function runs several times (b.N grows): each run's
	// machine is let go at its end.
	m := buildW3(b, defs, n, 1, crowd.Options[monster]{})
	defer m.Close()
	if err := m.SetWorkers(workers); err != nil {
		b.Fatal(err)
	}
	if record {
		rec := machine.NewRecorder(0)
		m.Observe(rec.Register(m.Describe()))
	}
	for range warmup {
		if err := m.Step(); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := m.Step(); err != nil {
			b.Fatal(err)
		}
	}
	perEntity(b, n)
}

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

// BenchmarkSnapshot saves and restores the state of a machine of a million
// entities whose data is nothing (E is struct{}: a game that keeps its
// data itself, by ID), after 30 steps in which one entity in ten changed
// state each step: what the machine itself adds to a save. Snapshot fills
// a Snapshot, Restore restores it into a machine that has held as many
// entities (into a fresh one, Restore also allocates the storage),
// AppendBinary and Decode write and read its binary form
// (B/entity is its size per entity). Each is measured against the
// baseline, copy: copying as many bytes as the snapshot holds, 12 per
// entity (an ID, a state and a previous state). x-copy is the ratio: the
// median of the ratios of each run of the operation to a copy run right
// after it, so that it holds when other work slows the machine down.
func BenchmarkSnapshot(b *testing.B) {
	const n = 1000000
	m := buildTokens(b, n)
	defer m.Close()
	var s crowd.Snapshot[struct{}]
	m.Snapshot(&s)
	src, dst := make([]byte, 12*n), make([]byte, 12*n)
	for i := range src {
		src[i] = byte(i)
	}
	// measure runs op in the benchmark's loop, and a copy after each run,
	// untimed, and reports the median ratio of their times.
	measure := func(b *testing.B, op func()) {
		var ratios []float64
		for b.Loop() {
			t0 := time.Now()
			op()
			t1 := time.Now()
			b.StopTimer()
			copy(dst, src)
			t2 := time.Now()
			b.StartTimer()
			ratios = append(ratios, float64(t1.Sub(t0))/float64(t2.Sub(t1)))
		}
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "x-copy")
	}
	b.Run(fmt.Sprintf("entities=%d/copy", n), func(b *testing.B) {
		b.SetBytes(12 * n)
		measure(b, func() { copy(dst, src) })
	})
	b.Run(fmt.Sprintf("entities=%d/Snapshot", n), func(b *testing.B) {
		var into crowd.Snapshot[struct{}]
		m.Snapshot(&into)
		measure(b, func() { m.Snapshot(&into) })
	})
	b.Run(fmt.Sprintf("entities=%d/Restore", n), func(b *testing.B) {
		r := buildTokens(b, 0)
		defer r.Close()
		if err := r.Restore(&s); err != nil {
			b.Fatal(err)
		}
		measure(b, func() {
			if err := r.Restore(&s); err != nil {
				b.Fatal(err)
			}
		})
	})
	var bin []byte
	b.Run(fmt.Sprintf("entities=%d/AppendBinary", n), func(b *testing.B) {
		measure(b, func() {
			var err error
			if bin, err = s.AppendBinary(bin[:0], machine.Codec[struct{}]{}); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(len(bin))/n, "B/entity")
	})
	b.Run(fmt.Sprintf("entities=%d/Decode", n), func(b *testing.B) {
		var into crowd.Snapshot[struct{}]
		measure(b, func() {
			if err := into.Decode(bin, machine.Codec[struct{}]{}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// buildTokens returns a machine of n entities with no data, in W3's four
// states, after 30 steps in which one in ten changed state: their state
// functions hash the entity's ID and the step.
func buildTokens(b *testing.B, n int) *crowd.Machine[struct{}] {
	step := uint32(0)
	def := func(me crowd.StateID) crowd.Def[struct{}] {
		return crowd.Def[struct{}]{Name: fmt.Sprint("s", me), Batch: func(bt *crowd.Batch[struct{}]) {
			for i := range bt.Len() {
				r := (uint32(bt.ID(i)) ^ step*0x9e3779b9) * 2654435761
				bt.Set(i, decide(me, r>>8))
			}
		}}
	}
	m, err := crowd.New([]crowd.Def[struct{}]{def(idle), def(wander), def(chase), def(flee)}, crowd.Options[struct{}]{})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := m.Add(crowd.ID(i), struct{}{}, crowd.StateID(i%4)); err != nil {
			b.Fatal(err)
		}
	}
	for range 30 {
		step++
		if err := m.Step(); err != nil {
			b.Fatal(err)
		}
	}
	return m
}

// BenchmarkRedefine redefines a machine of a million W3 monsters (28
// bytes each, after 30 steps) in place, one edit per op: a state renamed
// (the mapping told: every state keeps its ID) and back; a state appended
// and removed again (it holds no entities); a state removed, its quarter
// of the entities sent to the fallback and reported in Moved (the machine
// is put back untimed, by a Restore); the states reordered and back, every
// entity changing ID. Beside them, in the same run, the baselines: the
// machine's Snapshot and Restore into the same machine, buffers reused;
// and what a move onto a new machine costs, a Snapshot, its Remap and a
// Restore into a machine made by New with the new states.
func BenchmarkRedefine(b *testing.B) {
	const n = 1000000
	m := newW3(b, perBucketDefs(), n, 1, crowd.Options[monster]{})
	for range 30 {
		if err := m.Step(); err != nil {
			b.Fatal(err)
		}
	}
	w3 := perBucketDefs()
	names := func(defs []crowd.Def[monster]) []string {
		out := make([]string, len(defs))
		for i := range defs {
			out[i] = defs[i].Name
		}
		return out
	}
	mapping := func(from, to []crowd.Def[monster]) *machine.Mapping {
		d := machine.Description{Initial: machine.NoState}
		for i := range to {
			d.States = append(d.States, machine.State{Name: to[i].Name})
		}
		return machine.NewMapping(names(from), nil, &d)
	}
	renamed := slices.Clone(w3)
	renamed[chase].Name = "hunt"
	appended := append(slices.Clone(w3), crowd.Def[monster]{Name: "rest", Batch: func(*crowd.Batch[monster]) {}})
	removed := slices.Delete(slices.Clone(w3), int(flee), int(flee)+1)
	reordered := []crowd.Def[monster]{w3[flee], w3[chase], w3[wander], w3[idle]}
	there, back := mapping(w3, renamed), mapping(renamed, w3)
	there.To[chase], back.To[chase] = machine.StateID(chase), machine.StateID(chase) // the mapping told of the rename
	// redefine runs op, redefining m onto one then the other of defs, as
	// the mappings say.
	redefine := func(b *testing.B, defs [2][]crowd.Def[monster], mps [2]*machine.Mapping) {
		for i := 0; b.Loop(); i++ {
			if err := m.Redefine(defs[i%2], mps[i%2]); err != nil {
				b.Fatal(err)
			}
		}
		if m.NumStates() != 4 || m.StateName(chase) != "chase" {
			if err := m.Redefine(w3, mapping(defs[0], w3)); err != nil {
				b.Fatal(err)
			}
		}
	}
	name := fmt.Sprintf("entities=%d", n)
	b.Run(name+"/rename", func(b *testing.B) {
		redefine(b, [2][]crowd.Def[monster]{renamed, w3}, [2]*machine.Mapping{there, back})
	})
	b.Run(name+"/append", func(b *testing.B) {
		redefine(b, [2][]crowd.Def[monster]{appended, w3}, [2]*machine.Mapping{mapping(w3, appended), mapping(appended, w3)})
	})
	b.Run(name+"/reorder", func(b *testing.B) {
		redefine(b, [2][]crowd.Def[monster]{reordered, w3}, [2]*machine.Mapping{mapping(w3, reordered), mapping(reordered, w3)})
	})
	var saved crowd.Snapshot[monster]
	m.Snapshot(&saved)
	b.Run(name+"/remove", func(b *testing.B) {
		mp, undo := mapping(w3, removed), mapping(removed, w3)
		for b.Loop() {
			mp.Moved = mp.Moved[:0]
			if err := m.Redefine(removed, mp); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if err := m.Redefine(w3, undo); err != nil {
				b.Fatal(err)
			}
			if err := m.Restore(&saved); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(len(mp.Moved)), "moved/op")
	})
	b.Run(name+"/Snapshot+Restore", func(b *testing.B) {
		var s crowd.Snapshot[monster]
		for b.Loop() {
			m.Snapshot(&s)
			if err := m.Restore(&s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name+"/Snapshot+Remap+New+Restore/remove", func(b *testing.B) {
		var s crowd.Snapshot[monster]
		for b.Loop() {
			m.Snapshot(&s)
			s.Remap(mapping(w3, removed))
			r, err := crowd.New(removed, crowd.Options[monster]{})
			if err != nil {
				b.Fatal(err)
			}
			if err := r.Restore(&s); err != nil {
				b.Fatal(err)
			}
			r.Close()
		}
	})
}
