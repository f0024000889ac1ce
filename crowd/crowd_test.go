package crowd_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
)

// TestMatchesNaive checks both forms against the obvious switch, entity by
// entity, over many steps and at several worker counts.
func TestMatchesNaive(t *testing.T) {
	const n, steps = 5000, 40
	for _, form := range []struct {
		name string
		defs []crowd.Def[monster]
	}{{"per-entity", perEntityDefs()}, {"per-bucket", perBucketDefs()}} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", form.name, workers), func(t *testing.T) {
				m := newW3(t, form.defs, n, 7, crowd.Options[monster]{ChunkSize: 100})
				if err := m.SetWorkers(workers); err != nil {
					t.Fatal(err)
				}
				naive := newNaive(n, 7)
				for step := range steps {
					if err := m.Step(); err != nil {
						t.Fatal(err)
					}
					naiveStep(naive)
					seen := 0
					for s := range crowd.StateID(m.NumStates()) {
						for id, e := range m.Each(s) {
							seen++
							want, got := naive[id], *e
							if want.Timer == 0 {
								got.Timer = 0 // the naive switch resets on the way out, crowd on the way in
							}
							if want.state != s || want.monster != got {
								t.Fatalf("step %d: entity %d = %v in %s, want %v in %s", step, id, *e, m.StateName(s), want.monster, m.StateName(want.state))
							}
							if got, _ := m.StateOf(id); got != s {
								t.Fatalf("step %d: StateOf(%d) = %s, want %s", step, id, got, s)
							}
						}
					}
					if seen != n || m.Len() != n {
						t.Fatalf("step %d: saw %d entities, Len %d, want %d", step, seen, m.Len(), n)
					}
				}
			})
		}
	}
}

// TestDeterministicWorkers runs the same seeded crowd with 1, 2, 3 and 8
// workers, with finals, adds and removes along the way: same checksums, same
// counts, same transitions, same errors.
func TestDeterministicWorkers(t *testing.T) {
	type result struct {
		sums  []uint64
		trans [][]crowd.Transition
		errs  []string
		gone  []crowd.ID
	}
	run := func(workers int) result {
		var r result
		var m *crowd.Machine[monster]
		defs := perEntityDefs()
		// Chase sometimes ends a monster, sometimes returns a bad state;
		// flee spawns a monster now and then.
		defs[chase].Func = func(e *monster, prev crowd.StateID) crowd.StateID {
			next := fnChase(e, prev)
			switch e.Seed % 97 {
			case 0:
				return crowd.Final
			case 1:
				return 42
			}
			return next
		}
		nextID := crowd.ID(100000)
		defs[flee].Func = func(e *monster, prev crowd.StateID) crowd.StateID {
			if e.Seed%211 == 0 {
				// The IDs asked for depend on the entity, not on the worker.
				if err := m.Add(crowd.ID(e.Seed%1000)+nextID, monster{Seed: e.Seed | 1}, idle); err != nil && !errors.Is(err, crowd.ErrExists) {
					t.Error(err)
				}
			}
			return fnFlee(e, prev)
		}
		m = newW3(t, defs, 20000, 3, crowd.Options[monster]{
			ChunkSize: 256,
			OnFinal:   func(id crowd.ID, _ *monster) { r.gone = append(r.gone, id) },
		})
		if err := m.SetWorkers(workers); err != nil {
			t.Fatal(err)
		}
		for step := range 30 {
			err := m.Step()
			if err != nil {
				r.errs = append(r.errs, err.Error())
			}
			if step%7 == 3 {
				for id := crowd.ID(step); id < 20000; id += 997 {
					_ = m.Remove(id)
				}
			}
			nextID += 1000
			r.sums = append(r.sums, checksum(m))
			r.trans = append(r.trans, m.Transitions(nil))
		}
		return r
	}
	want := run(1)
	if len(want.errs) == 0 || len(want.gone) == 0 {
		t.Fatalf("the run should report invalid states and finals: %d errors, %d gone", len(want.errs), len(want.gone))
	}
	for _, w := range []int{2, 3, 8} {
		got := run(w)
		if !slices.Equal(got.sums, want.sums) {
			t.Errorf("workers=%d: checksums differ from 1 worker's", w)
		}
		if !slices.Equal(got.errs, want.errs) {
			t.Errorf("workers=%d: errors = %q, want %q", w, got.errs, want.errs)
		}
		if !slices.Equal(got.gone, want.gone) {
			t.Errorf("workers=%d: OnFinal order differs", w)
		}
		for i := range want.trans {
			if !slices.Equal(got.trans[i], want.trans[i]) {
				t.Errorf("workers=%d step %d: transitions = %v, want %v", w, i, got.trans[i], want.trans[i])
				break
			}
		}
	}
}

func TestInvalidNextState(t *testing.T) {
	defs := []crowd.Def[int]{
		{Name: "a", Func: func(e *int, _ crowd.StateID) crowd.StateID { return crowd.StateID(*e) }},
		{Name: "b", Func: func(*int, crowd.StateID) crowd.StateID { return 1 }},
	}
	m, err := crowd.New(defs, crowd.Options[int]{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i, next := range []int{1, 7, 0, 9, 1 << 20} {
		if err := m.Add(crowd.ID(i), next, 0); err != nil {
			t.Fatal(err)
		}
	}
	err = m.Step()
	var se *crowd.StepError
	if !errors.As(err, &se) {
		t.Fatalf("Step() = %v, want a *StepError", err)
	}
	if se.Invalid != 3 || len(se.First) != 3 || se.First[0] != (crowd.Invalid{ID: 1, State: 0, Returned: 7}) {
		t.Errorf("StepError = %+v", se)
	}
	const want = `crowd: 3 invalid next states: entity 1 in state "a" returned #7 (the machine has 2 states) (and 2 more); each such entity stayed where it was`
	if err.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", err, want)
	}
	if m.Len() != 5 || m.Count(0) != 4 || m.Count(1) != 1 {
		t.Errorf("after the step: len %d, counts %v; want 5, [4 1]", m.Len(), m.Counts(nil))
	}
	if s, _ := m.StateOf(3); s != 0 {
		t.Errorf("StateOf(3) = %s, want #0: it stays where it was", s)
	}
}

func TestAddRemove(t *testing.T) {
	var finals []crowd.ID
	defs := []crowd.Def[int]{
		{Name: "live", Func: func(e *int, _ crowd.StateID) crowd.StateID {
			if *e < 0 {
				return crowd.Final
			}
			return 0
		}},
		{Name: "other", Batch: func(*crowd.Batch[int]) {}},
	}
	m, err := crowd.New(defs, crowd.Options[int]{OnFinal: func(id crowd.ID, e *int) { finals = append(finals, id) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	mustAdd := func(id crowd.ID, v int, s crowd.StateID) {
		t.Helper()
		if err := m.Add(id, v, s); err != nil {
			t.Fatal(err)
		}
	}
	mustAdd(1, 1, 0)
	mustAdd(2, -1, 0)
	mustAdd(3, 3, 1)
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"add twice", m.Add(1, 0, 0), crowd.ErrExists},
		{"remove absent", m.Remove(99), crowd.ErrNotFound},
		{"add to no state", m.Add(4, 0, 2), nil},
		{"id too large", m.Add(crowd.MaxID+1, 0, 0), nil},
	} {
		if tc.err == nil || (tc.want != nil && !errors.Is(tc.err, tc.want)) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if m.Len() != 3 {
		t.Fatalf("failed adds changed the machine: Len = %d", m.Len())
	}

	// Removing during iteration is safe; the removed one is not visited again.
	for id := range m.Each(0) {
		if err := m.Remove(id); err != nil {
			t.Fatal(err)
		}
		mustAdd(id+10, 5, 0) // takes effect after the loop
	}
	if got := ids(m, 0); !slices.Equal(got, []crowd.ID{11, 12}) {
		t.Errorf("bucket 0 = %v, want [11 12]", got)
	}
	// Re-adding a removed ID before the next step.
	if err := m.Remove(3); err != nil {
		t.Fatal(err)
	}
	mustAdd(3, -1, 0)
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(finals, []crowd.ID{3}) {
		t.Errorf("finals = %v, want [3]", finals)
	}
	if _, ok := m.StateOf(3); ok || m.Len() != 2 || m.Count(1) != 0 {
		t.Errorf("after step: StateOf(3) ok=%v, Len %d, Count(1) %d", ok, m.Len(), m.Count(1))
	}
	if got := m.Transitions(nil); !slices.Equal(got, []crowd.Transition{{From: 0, To: machine.Final, N: 1}}) {
		t.Errorf("Transitions = %v", got)
	}
}

func ids(m *crowd.Machine[int], s crowd.StateID) []crowd.ID {
	var out []crowd.ID
	for id := range m.Each(s) {
		out = append(out, id)
	}
	return out
}

func TestPanicOnWorker(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			defs := perEntityDefs()
			boom := true
			defs[wander].Func = func(e *monster, prev crowd.StateID) crowd.StateID {
				if boom && e.Seed%49 == 0 {
					panic("boom")
				}
				return fnWander(e, prev)
			}
			m := newW3(t, defs, 20000, 11, crowd.Options[monster]{ChunkSize: 64})
			if err := m.SetWorkers(workers); err != nil {
				t.Fatal(err)
			}
			pe := catch(t, m)
			if pe.StateName != "wander" || pe.Value != "boom" || !strings.Contains(pe.Error(), `state "wander" panicked on entity`) {
				t.Errorf("panic = %v", pe)
			}
			if s, _ := m.StateOf(pe.ID); s != wander {
				t.Errorf("the panicking entity %d is in %s, want wander", pe.ID, s)
			}
			// No entity is lost, and every bucket agrees with StateOf.
			seen := map[crowd.ID]bool{}
			for s := range crowd.StateID(4) {
				n := 0
				for id := range m.Each(s) {
					n++
					if seen[id] {
						t.Fatalf("entity %d twice", id)
					}
					seen[id] = true
					if got, _ := m.StateOf(id); got != s {
						t.Errorf("entity %d in bucket %s, StateOf says %s", id, s, got)
					}
				}
				if n != m.Count(s) {
					t.Errorf("Count(%s) = %d, bucket holds %d", s, m.Count(s), n)
				}
			}
			if len(seen) != 20000 || m.Len() != 20000 {
				t.Errorf("after the panic: %d entities seen, Len %d, want 20000", len(seen), m.Len())
			}
			// The machine keeps working once the function behaves.
			boom = false
			if err := m.Step(); err != nil || m.Len() != 20000 {
				t.Errorf("the step after the panic: %v, Len %d", err, m.Len())
			}
		})
	}
}

// TestPanicKeepsSortedRuns checks exactly what a machine holds after a
// panic with one worker: the runs of 256 entities before the panicking
// entity's run have moved, the rest has stayed, in order.
func TestPanicKeepsSortedRuns(t *testing.T) {
	const n, bad = 1000, 600
	even := func(v int) crowd.StateID { return crowd.StateID(v % 2) } // evens go to state 0
	armed := true
	var prevs map[int]crowd.StateID // once disarmed, the previous states seen
	forms := map[string]crowd.Def[int]{
		"Func": {Name: "a", Func: func(e *int, prev crowd.StateID) crowd.StateID {
			if armed && *e == bad {
				panic("boom")
			}
			if prevs != nil {
				prevs[*e] = prev
			}
			return even(*e)
		}},
		"Batch": {Name: "a", Batch: func(b *crowd.Batch[int]) {
			for i := range b.Len() {
				e, prev := b.At(i)
				if armed && *e == bad {
					panic("boom")
				}
				if prevs != nil {
					prevs[*e] = prev
				}
				b.Set(i, even(*e))
			}
		}},
	}
	stateB := func(e *int, prev crowd.StateID) crowd.StateID {
		if prevs != nil {
			prevs[*e] = prev
		}
		return 0
	}
	for _, name := range []string{"Func", "Batch"} {
		t.Run(name, func(t *testing.T) {
			armed, prevs = true, nil
			m, err := crowd.New([]crowd.Def[int]{{Name: "b", Func: stateB}, forms[name]}, crowd.Options[int]{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if err := m.SetWorkers(1); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if err := m.Add(crowd.ID(i), i, 1); err != nil {
					t.Fatal(err)
				}
			}
			func() {
				defer func() {
					pe, _ := recover().(*crowd.PanicError)
					if pe == nil || pe.Batch != (name == "Batch") {
						t.Fatalf("recovered %v", pe)
					}
					if want := crowd.ID(bad); name == "Func" && pe.ID != want || name == "Batch" && pe.ID != 512 {
						t.Errorf("PanicError.ID = %d", pe.ID)
					}
				}()
				_ = m.Step()
			}()
			var wantA, wantB []int
			for i := range n {
				switch {
				case i >= 512:
					wantA = append(wantA, i)
				case i%2 == 0:
					wantB = append(wantB, i)
				default:
					wantA = append(wantA, i)
				}
			}
			slices.Sort(wantA) // stayers first, then the unsorted rest: already in order
			for s, want := range [][]int{wantB, wantA} {
				var got []int
				for _, e := range m.Each(crowd.StateID(s)) {
					got = append(got, *e)
				}
				if !slices.Equal(got, want) {
					t.Errorf("state %d holds %d entities %v..., want %d %v...", s, len(got), head(got), len(want), head(want))
				}
			}

			// The next step sees the sorted entities' previous state as
			// the one they were in, and the others' as before the step
			// that panicked: none, as they had not been stepped.
			armed, prevs = false, map[int]crowd.StateID{}
			if err := m.Step(); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				want := crowd.StateID(1)
				if i >= 512 {
					want = crowd.NoState
				}
				if prevs[i] != want {
					t.Errorf("entity %d: prev = %s, want %s", i, prevs[i], want)
				}
			}
		})
	}
}

func head(s []int) []int { return s[:min(len(s), 8)] }

func catch(t *testing.T, m *crowd.Machine[monster]) (pe *crowd.PanicError) {
	t.Helper()
	defer func() {
		v := recover()
		var ok bool
		if pe, ok = v.(*crowd.PanicError); !ok {
			t.Fatalf("recovered %v (%T), want a *crowd.PanicError", v, v)
		}
	}()
	_ = m.Step()
	t.Fatal("Step did not panic")
	return nil
}

func TestNewErrors(t *testing.T) {
	f := func(*int, crowd.StateID) crowd.StateID { return 0 }
	b := func(*crowd.Batch[int]) {}
	for _, tc := range []struct {
		defs []crowd.Def[int]
		opts crowd.Options[int]
		want string
	}{
		{nil, crowd.Options[int]{}, "at least one state"},
		{[]crowd.Def[int]{{Name: "", Func: f}}, crowd.Options[int]{}, "state #0 has no name"},
		{[]crowd.Def[int]{{Name: "a", Func: f, Batch: b}}, crowd.Options[int]{}, `"a" (#0) needs exactly one`},
		{[]crowd.Def[int]{{Name: "a"}}, crowd.Options[int]{}, `"a" (#0) needs exactly one`},
		{[]crowd.Def[int]{{Name: "a", Func: f}, {Name: "a", Batch: b}}, crowd.Options[int]{}, `#0 and #1 are both named "a"`},
		{[]crowd.Def[int]{{Name: "a", Func: f}}, crowd.Options[int]{ChunkSize: -1}, "ChunkSize -1"},
	} {
		_, err := crowd.New(tc.defs, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v) = %v, want an error containing %q", tc.defs, err, tc.want)
		}
	}
	m, _ := crowd.New([]crowd.Def[int]{{Name: "a", Func: f}}, crowd.Options[int]{})
	for _, n := range []int{0, -3} {
		if err := m.SetWorkers(n); !errors.Is(err, crowd.ErrWorkers) {
			t.Errorf("SetWorkers(%d) = %v, want ErrWorkers", n, err)
		}
	}
}

func TestManyStates(t *testing.T) {
	const n = 70000 // more than 65,535
	defs := make([]crowd.Def[uint32], n)
	for i := range defs {
		defs[i] = crowd.Def[uint32]{Name: fmt.Sprint("s", i), Func: func(e *uint32, _ crowd.StateID) crowd.StateID {
			*e = (*e + 1) % n
			return crowd.StateID(*e)
		}}
	}
	m, err := crowd.New(defs, crowd.Options[uint32]{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range uint32(1000) {
		if err := m.Add(crowd.ID(i), i*69, crowd.StateID(i*69)); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if err := m.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if s, _ := m.StateOf(999); s != crowd.StateID((999*69+3)%n) {
		t.Errorf("StateOf(999) = %d, want %d", s, (999*69+3)%n)
	}
}

func TestReentrantStep(t *testing.T) {
	var m *crowd.Machine[int]
	var inner error
	m, _ = crowd.New([]crowd.Def[int]{{Name: "a", Func: func(*int, crowd.StateID) crowd.StateID {
		inner = m.Step()
		return 0
	}}}, crowd.Options[int]{})
	defer m.Close()
	_ = m.Add(0, 0, 0)
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(inner, crowd.ErrBusy) {
		t.Errorf("Step inside a state function = %v, want ErrBusy", inner)
	}
}

func TestZeroAllocSteadyState(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	for _, defs := range [][]crowd.Def[monster]{perEntityDefs(), perBucketDefs()} {
		m := newW3(t, defs, 10000, 5, crowd.Options[monster]{ChunkSize: 512})
		_ = m.SetWorkers(2)
		for range 20 {
			_ = m.Step()
		}
		if a := testing.AllocsPerRun(20, func() { _ = m.Step() }); a != 0 {
			t.Errorf("Step allocates %v times in steady state, want 0", a)
		}
	}
}

// TestBatchSetBack: a BatchFunc may change its mind; the last Set counts.
func TestBatchSetBack(t *testing.T) {
	defs := []crowd.Def[int]{
		{Name: "a", Batch: func(b *crowd.Batch[int]) {
			for i := range b.Len() {
				b.Set(i, 1)
				if e, _ := b.At(i); *e%3 != 0 {
					b.Set(i, b.State()) // stays after all
				}
			}
		}},
		{Name: "b", Func: func(*int, crowd.StateID) crowd.StateID { return 1 }},
	}
	m, err := crowd.New(defs, crowd.Options[int]{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range 1000 {
		if err := m.Add(crowd.ID(i), i, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	if got, want := m.Counts(nil), []int{666, 334}; !slices.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	for id, e := range m.Each(1) {
		if *e%3 != 0 || int(id) != *e {
			t.Errorf("entity %d (%d) in b", id, *e)
		}
	}
}
