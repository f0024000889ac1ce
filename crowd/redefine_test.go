package crowd

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

// redefEnt is the data of the entities of the Redefine tests: a xorshift
// state, and a hash of the entries the state functions saw (prev != their
// state), so that an entity whose previous state differs between two
// machines ends with different data.
type redefEnt struct{ x, entered uint32 }

// redefDefs returns states named names, every other one a BatchFunc: each
// steps its entities' xorshift, records their entries, and sends one in
// moves elsewhere, one in 97 to Final and one in 1009 to a state the
// machine does not have.
func redefDefs(names []string, moves uint32) []Def[redefEnt] {
	n := StateID(len(names))
	next := func(e *redefEnt, me, prev StateID) StateID {
		if prev != me {
			e.entered = e.entered*31 + uint32(me) + 1
		}
		x := e.x
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		e.x = x
		switch {
		case x%97 == 0:
			return Final
		case x%1009 == 0:
			return n + 3
		case x%moves != 0:
			return me
		}
		return StateID(x/moves) % n
	}
	defs := make([]Def[redefEnt], n)
	for i, name := range names {
		me := StateID(i)
		defs[i].Name = name
		if i%2 == 0 {
			defs[i].Func = func(e *redefEnt, prev StateID) StateID { return next(e, me, prev) }
			continue
		}
		defs[i].Batch = func(b *Batch[redefEnt]) {
			for j := range b.Len() {
				e, prev := b.At(j)
				b.Set(j, next(e, me, prev))
			}
		}
	}
	return defs
}

// redefGame is a machine and what the game saw of it.
type redefGame struct {
	m      *Machine[redefEnt]
	finals []string
	log    []string
}

func newRedefGame(t testing.TB, names []string, moves uint32, chunk, workers int) *redefGame {
	t.Helper()
	g := &redefGame{}
	m, err := New(redefDefs(names, moves), Options[redefEnt]{ChunkSize: chunk, OnFinal: func(id ID, e *redefEnt) {
		g.finals = append(g.finals, fmt.Sprintf("%d %v", id, *e))
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if err := m.SetWorkers(workers); err != nil {
		t.Fatal(err)
	}
	g.m = m
	return g
}

// redefOps plays the same random operations on machines: steps, runs of
// adds, removes, removed IDs added again. IDs are spread by spread, so that
// the index by ID is larger than the entities.
type redefOps struct {
	rng    *rand.Rand
	nextID ID
	spread ID
	chunk  int
}

// play does one operation on every game and returns what it was.
func (o *redefOps) play(gs ...*redefGame) string {
	n := gs[0].m.NumStates()
	switch k := o.rng.IntN(10); {
	case k < 3:
		for _, g := range gs {
			err := g.m.Step()
			g.log = append(g.log, fmt.Sprintf("step %d: err %v, counts %v, transitions %v", g.m.Steps(), err, g.m.Counts(nil), g.m.Transitions(nil)))
		}
		return "step"
	case k < 6:
		s, k := StateID(o.rng.IntN(n)), 1+o.rng.IntN(o.chunk)
		for range k {
			for _, g := range gs {
				if err := g.m.Add(o.nextID*o.spread, redefEnt{x: uint32(o.nextID)*2654435761 | 1}, s); err != nil {
					g.log = append(g.log, err.Error())
				}
			}
			o.nextID++
		}
		return fmt.Sprintf("add %d to %s", k, s)
	case k < 8:
		k := o.rng.IntN(8)
		for range k {
			id := ID(o.rng.IntN(int(o.nextID)+1)) * o.spread
			for _, g := range gs {
				_ = g.m.Remove(id)
			}
		}
		return fmt.Sprintf("remove %d", k)
	default:
		id, s := (o.nextID-ID(o.rng.IntN(min(int(o.nextID), 20)+1)))*o.spread, StateID(o.rng.IntN(n))
		for _, g := range gs {
			_ = g.m.Add(id, redefEnt{x: 5}, s)
		}
		return fmt.Sprint("add again ", id)
	}
}

// contents lists a machine's entities in bucket order, with their data.
func contents(m *Machine[redefEnt]) string {
	var b strings.Builder
	for s := range StateID(m.NumStates()) {
		fmt.Fprintf(&b, "%s:", m.StateName(s))
		for id, e := range m.Each(s) {
			fmt.Fprintf(&b, " %d=%v", id, *e)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// checkMachine returns an error describing the first of m's invariants
// that does not hold: the per-state structures have one entry per state,
// the index by ID has entries of the right size and agrees with the
// buckets, the runs lie in the storage without overlapping, the open run
// ends the storage, the workers' counts are zero.
func checkMachine[E any](m *Machine[E]) error {
	n := len(m.defs)
	switch {
	case len(m.buckets) != n || len(m.nbuckets) != n || len(m.byName) != n:
		return fmt.Errorf("%d states, %d buckets, %d spare buckets, %d names", n, len(m.buckets), len(m.nbuckets), len(m.byName))
	case m.where.bytes != (n <= smallStates) || m.spareWhere.bytes != m.where.bytes:
		return fmt.Errorf("%d states, and the index by ID takes bytes: %t (its spare: %t)", n, m.where.bytes, m.spareWhere.bytes)
	}
	for name, s := range m.byName {
		if int(s) >= n || m.defs[s].Name != name {
			return fmt.Errorf("byName[%q] = %s, not its state", name, s)
		}
	}
	used := make([]bool, len(m.cur))
	inState := make([]int, n)
	total, deadN := 0, 0
	for s := range m.buckets {
		b := &m.buckets[s]
		live, tomb := 0, 0
		for _, sg := range b.segs {
			if int(sg.off+sg.n) > len(m.cur) || sg.prev != NoState && int(sg.prev) >= n {
				return fmt.Errorf("state %d: run %+v outside the storage (%d) or of no previous state", s, sg, len(m.cur))
			}
			for i := sg.off; i < sg.off+sg.n; i++ {
				if used[i] {
					return fmt.Errorf("state %d: place %d in two runs", s, i)
				}
				used[i] = true
				switch w := m.where.get(m.cur[i].id); w {
				case StateID(s):
					live++
				case dead:
					tomb++
				default:
					return fmt.Errorf("state %d: entity %d is in state %s by the index", s, m.cur[i].id, w)
				}
			}
		}
		if live != b.count || tomb != b.dead {
			return fmt.Errorf("state %d: %d live and %d removed entities, counted %d and %d", s, live, tomb, b.count, b.dead)
		}
		total += live
		deadN += tomb
	}
	for id := range ID(m.where.len()) {
		if w := m.where.get(id); w != absent && w != dead {
			if int(w) >= n {
				return fmt.Errorf("entity %d in state %s, of %d", id, w, n)
			}
			inState[w]++
		}
	}
	for s := range n {
		if inState[s] != m.buckets[s].count {
			return fmt.Errorf("state %d: %d entities by the index, %d in the bucket", s, inState[s], m.buckets[s].count)
		}
	}
	if total != m.total || deadN != m.dead {
		return fmt.Errorf("%d live and %d removed entities, counted %d and %d", total, deadN, m.total, m.dead)
	}
	if m.open != NoState {
		b := m.buckets[m.open].segs
		if len(b) == 0 || b[len(b)-1].off+b[len(b)-1].n != uint32(len(m.cur)) || b[len(b)-1].prev != NoState {
			return fmt.Errorf("open state %s: its last run does not end the storage (%d) as adds' run", m.open, len(m.cur))
		}
	}
	for _, w := range m.scratch {
		if len(w.cnt) < n+1 || len(w.off) < n+1 || slices.ContainsFunc(w.cnt, func(c uint32) bool { return c != 0 }) {
			return fmt.Errorf("a worker's counts: %d for %d states, not all zero", len(w.cnt), n)
		}
	}
	return nil
}

// mappingOf returns the mapping from states named old to states named
// nw, by name and then as hand says (old name to new name), with
// fallback (a new name) for the states that are gone.
func mappingOf(old, nw []string, hand map[string]string, fallback string) *machine.Mapping {
	d := machine.Description{Initial: machine.NoState}
	for _, name := range nw {
		d.States = append(d.States, machine.State{Name: name})
	}
	mp := machine.NewMapping(old, nil, &d)
	for from, to := range hand {
		mp.To[slices.Index(old, from)] = machine.StateID(slices.Index(nw, to))
	}
	if fallback != "" {
		mp.Fallback = machine.StateID(slices.Index(nw, fallback))
	}
	return mp
}

// cloneMapping returns a copy of mp's maps, with no moves reported.
func cloneMapping(mp *machine.Mapping) *machine.Mapping {
	return &machine.Mapping{To: slices.Clone(mp.To), Old: slices.Clone(mp.Old), Fallback: mp.Fallback}
}

// redefineTwin plays a random game on states old, redefines its machine
// onto states nw as mp says, with adds, removes and entities in the
// storage's holes pending, and checks that it then holds, and goes on
// exactly as, a machine made by New with nw into which its snapshot,
// remapped by mp, was restored: the same layout (bucket order, runs,
// previous states, the run adds join) after every operation, the same
// data, counts, transitions, errors and OnFinal calls; and that mp.Moved
// lists what the snapshot's Remap lists. It returns what was pending when
// the machine was redefined.
func redefineTwin(t testing.TB, seed uint64, old, nw []string, mp *machine.Mapping, spread ID) (seen pending) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	chunk := []int{8, 16, 64}[rng.IntN(3)]
	moves := uint32(2 + rng.IntN(8))
	ops := &redefOps{rng: rng, spread: spread, chunk: chunk}
	g := newRedefGame(t, old, moves, chunk, 1+rng.IntN(3))
	var done []string
	for range 20 + rng.IntN(100) {
		done = append(done, ops.play(g))
	}
	var s Snapshot[redefEnt]
	if rng.IntN(3) == 0 { // restored into itself: holes not allocated, no Transitions
		g.m.Snapshot(&s)
		if err := g.m.Restore(&s); err != nil {
			t.Fatal(err)
		}
		done = append(done, "restore")
	}
	for range 3 { // adds and removes pending, whatever came last
		done = append(done, ops.play(g))
	}
	g.m.Snapshot(&s)
	twinMp := cloneMapping(mp)
	s.Remap(twinMp)
	twin := newRedefGame(t, nw, moves, chunk, 1+rng.IntN(3))
	if err := twin.m.Restore(&s); err != nil {
		t.Fatalf("the twin's Restore: %v", err)
	}
	transitions := g.m.Transitions(nil)
	moved := len(mp.Moved)
	seen = pending{open: g.m.openAfterPurge() != NoState, removed: g.m.dead > 0, holes: s.Holes > 0}
	if err := g.m.Redefine(redefDefs(nw, moves), mp); err != nil {
		t.Fatalf("Redefine = %v", err)
	}
	if err := checkMachine(g.m); err != nil {
		t.Fatalf("after Redefine, after %v: %v", done, err)
	}
	if got, want := fmt.Sprint(mp.Moved[moved:]), fmt.Sprint(twinMp.Moved); got != want {
		t.Errorf("Redefine reported Moved\n%v\nwant, as Remap reports\n%v", got, want)
	}
	wantTr := []Transition(nil)
	if mp.Identity() {
		wantTr = transitions
	}
	if got := g.m.Transitions(nil); !slices.Equal(got, wantTr) {
		t.Errorf("Transitions after Redefine = %v, want %v", got, wantTr)
	}
	if got, want := layout(g.m), layout(twin.m); got != want {
		t.Fatalf("after Redefine, after %v: layout\n%s\nwant\n%s", done, got, want)
	}
	if got, want := contents(g.m), contents(twin.m); got != want {
		t.Fatalf("after Redefine: entities\n%s\nwant\n%s", got, want)
	}
	g.log, g.finals = nil, nil
	done = done[:0]
	for op := range 80 {
		done = append(done, ops.play(g, twin))
		if got, want := layout(g.m), layout(twin.m); got != want {
			t.Fatalf("operation %d after Redefine, after %v: layout\n%s\nwant\n%s", op, done, got, want)
		}
	}
	if err := checkMachine(g.m); err != nil {
		t.Fatalf("after Redefine and %v: %v", done, err)
	}
	if got, want := contents(g.m), contents(twin.m); got != want {
		t.Fatalf("after Redefine and %v: entities\n%s\nwant\n%s", done, got, want)
	}
	if !slices.Equal(g.log, twin.log) {
		t.Fatalf("after Redefine, the steps logged\n%v\nwant\n%v", g.log, twin.log)
	}
	if !slices.Equal(g.finals, twin.finals) {
		t.Fatalf("after Redefine, OnFinal saw\n%v\nwant\n%v", g.finals, twin.finals)
	}
	// Restored into itself, with the index by ID the last Restore
	// replaced, if it was of the size Redefine left.
	want := layout(g.m)
	g.m.Snapshot(&s)
	if err := g.m.Restore(&s); err != nil {
		t.Fatal(err)
	}
	if err := checkMachine(g.m); err != nil {
		t.Fatalf("after Redefine, a Restore: %v", err)
	}
	if got := layout(g.m); got != want {
		t.Fatalf("after Redefine, a Restore of the machine into itself: layout\n%s\nwant\n%s", got, want)
	}
	seen.moved = len(twinMp.Moved) > 0
	return seen
}

// pending is what a machine held when redefineTwin redefined it: adds
// joining a run, removed entities in their buckets, holes in the storage,
// entities sent to the fallback.
type pending struct{ open, removed, holes, moved bool }

// names returns the names prefix0 to prefix(n-1).
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(prefix, i)
	}
	return out
}

// TestRedefine redefines machines in the middle of random games, for the
// edits a designer makes, and checks each against the twin restored from
// the remapped snapshot (see redefineTwin).
func TestRedefine(t *testing.T) {
	w3 := []string{"idle", "wander", "chase", "flee"}
	wide := append(slices.Clone(w3), names("extra", 296)...) // 300 states: 4 bytes per ID
	for _, tc := range []struct {
		name     string
		old, nw  []string
		hand     map[string]string // old name → new name, beyond the namesakes
		fallback string            // for the states that are gone
	}{
		{"same states", w3, w3, nil, ""},
		{"renamed, the mapping told", w3, []string{"idle", "wander", "hunt", "flee"}, map[string]string{"chase": "hunt"}, ""},
		{"renamed, by name", w3, []string{"idle", "wander", "hunt", "flee"}, nil, "idle"},
		{"states appended", w3, append(slices.Clone(w3), "rest", "sleep"), nil, ""},
		{"removed, fallback before", w3, []string{"idle", "wander", "flee"}, nil, "idle"},
		{"removed, fallback after", w3, []string{"idle", "chase", "flee"}, nil, "flee"},
		{"last removed", w3, []string{"idle", "wander", "chase"}, nil, "wander"},
		{"two removed", w3, []string{"idle", "flee"}, nil, "flee"},
		{"reordered", w3, []string{"flee", "chase", "wander", "idle"}, nil, ""},
		{"reordered, renamed, added, removed", w3, []string{"zed", "flee", "idle", "hunt"}, map[string]string{"chase": "hunt"}, "zed"},
		{"merged by hand", w3, []string{"idle", "roam", "flee"}, map[string]string{"wander": "roam", "chase": "roam"}, ""},
		{"all in one", w3, []string{"all"}, map[string]string{"idle": "all", "wander": "all", "chase": "all", "flee": "all"}, ""},
		{"to 300 states", w3, append(names("extra", 296), "flee", "idle", "wander", "chase"), nil, ""},
		{"from 300 states", wide, []string{"chase", "idle", "wander"}, nil, "idle"},
		{"300 states reordered", wide, append(names("extra", 296), "flee", "idle", "wander", "chase"), nil, ""},
	} {
		for _, spread := range []ID{1, 50} { // dense IDs, and an index by ID larger than the entities
			t.Run(fmt.Sprintf("%s/spread=%d", tc.name, spread), func(t *testing.T) {
				seeds := 12
				if testing.Short() {
					seeds = 4
				}
				var seen pending
				mp := mappingOf(tc.old, tc.nw, tc.hand, tc.fallback)
				for seed := range uint64(seeds) {
					p := redefineTwin(t, seed, tc.old, tc.nw, cloneMapping(mp), spread)
					seen = pending{seen.open || p.open, seen.removed || p.removed, seen.holes || p.holes, seen.moved || p.moved}
				}
				if want := (pending{true, true, true, slices.Contains(mp.To, machine.NoState)}); seen != want {
					t.Errorf("of %d redefinitions, pending: %+v; want %+v: the test exercises too little", seeds, seen, want)
				}
			})
		}
	}
}

// FuzzRedefine redefines a machine onto a mapping made of the fuzzer's
// bytes (per old state: gone, or a new state) and checks it against the
// twin restored from the remapped snapshot.
func FuzzRedefine(f *testing.F) {
	f.Add(uint64(1), uint8(4), uint8(4), []byte{1, 2, 3, 4}, uint8(0))
	f.Add(uint64(2), uint8(4), uint8(3), []byte{1, 0, 2, 3}, uint8(1))
	f.Add(uint64(3), uint8(3), uint8(6), []byte{3, 2, 1}, uint8(5))
	f.Add(uint64(4), uint8(5), uint8(1), []byte{0, 0, 0, 0, 1}, uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, nOld, nNew uint8, to []byte, fallback uint8) {
		old, nw := names("s", 1+int(nOld)%8), names("t", 1+int(nNew)%8)
		mp := &machine.Mapping{To: make([]machine.StateID, len(old)), Old: old, Fallback: machine.StateID(int(fallback) % len(nw))}
		for q := range mp.To {
			b := byte(q)
			if q < len(to) {
				b = to[q]
			}
			if b%4 == 0 {
				mp.To[q] = machine.NoState
			} else {
				mp.To[q] = machine.StateID(int(b/4) % len(nw))
			}
		}
		redefineTwin(t, seed, old, nw, mp, ID(1+seed%3*20))
	})
}

// TestRedefineErrors checks that Redefine refuses bad definitions and
// mappings with an error that says what is wrong, and changes nothing.
func TestRedefineErrors(t *testing.T) {
	w3 := []string{"idle", "wander", "chase", "flee"}
	good := redefDefs([]string{"idle", "flee"}, 5)
	f := func(*redefEnt, StateID) StateID { return 0 }
	for _, tc := range []struct {
		name   string
		states []Def[redefEnt]
		mp     func() *machine.Mapping
		want   string
	}{
		{"no states", nil, nil, "crowd: Redefine: a machine needs at least one state"},
		{"no name", []Def[redefEnt]{{Func: f}}, nil, "state #0 has no name"},
		{"two functions", []Def[redefEnt]{{Name: "a", Func: f, Batch: func(*Batch[redefEnt]) {}}}, nil, `state "a" (#0) needs exactly one of Func and Batch`},
		{"no function", []Def[redefEnt]{{Name: "a"}}, nil, `state "a" (#0) needs exactly one of Func and Batch`},
		{"names repeated", []Def[redefEnt]{{Name: "a", Func: f}, {Name: "a", Func: f}}, nil, `states #0 and #1 are both named "a"`},
		{"no mapping", good, func() *machine.Mapping { return nil }, "no mapping (nil)"},
		{"mapping of other states", good, func() *machine.Mapping { return mappingOf(w3[:3], []string{"idle", "flee"}, nil, "idle") }, "the mapping maps 3 states, and the machine has 4"},
		{"state out of range", good, func() *machine.Mapping {
			mp := mappingOf(w3, []string{"idle", "flee"}, nil, "idle")
			mp.To[2] = 2
			return mp
		}, `the mapping sends state "chase" to state 2, which is not one of the 2 new states`},
		{"state to Final", good, func() *machine.Mapping {
			mp := mappingOf(w3, []string{"idle", "flee"}, nil, "idle")
			mp.To[1] = machine.Final
			return mp
		}, `the mapping sends state "wander" to final`},
		{"fallback out of range", good, func() *machine.Mapping {
			mp := mappingOf(w3, []string{"idle", "flee"}, nil, "idle")
			mp.Fallback = 2
			return mp
		}, `state "chase" is gone (the mapping sends it to NoState), and the mapping's Fallback, state 2, is not one of the 2 new states`},
		{"fallback none", good, func() *machine.Mapping {
			mp := mappingOf(w3, []string{"idle", "flee"}, nil, "idle")
			mp.Fallback = machine.NoState
			return mp
		}, `the mapping's Fallback, none, is not one of the 2 new states`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newRedefGame(t, w3, 5, 16, 2)
			ops := &redefOps{rng: rand.New(rand.NewPCG(1, 2)), spread: 1, chunk: 16}
			for range 60 {
				ops.play(g)
			}
			mp := mappingOf(w3, []string{"idle", "flee"}, nil, "idle")
			if tc.mp != nil {
				mp = tc.mp()
			}
			var moved int
			if mp != nil {
				mp.Moved = append(mp.Moved, machine.Moved{Entity: 99})
				moved = len(mp.Moved)
			}
			before, tr := layout(g.m), g.m.Transitions(nil)
			err := g.m.Redefine(tc.states, mp)
			if err == nil || !strings.HasPrefix(err.Error(), "crowd: Redefine: ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Redefine = %v, want an error starting \"crowd: Redefine: \" and containing %q", err, tc.want)
			}
			if got := layout(g.m); got != before || g.m.NumStates() != 4 || g.m.StateName(3) != "flee" || !slices.Equal(g.m.Transitions(nil), tr) {
				t.Errorf("a refused Redefine changed the machine:\n%s\nwant\n%s", got, before)
			}
			if mp != nil && len(mp.Moved) != moved {
				t.Errorf("a refused Redefine reported %d moves", len(mp.Moved)-moved)
			}
			if err := checkMachine(g.m); err != nil {
				t.Fatal(err)
			}
			if err := g.m.Step(); err != nil && !errors.As(err, new(*StepError)) {
				t.Errorf("Step after a refused Redefine = %v", err)
			}
		})
	}
}

// TestRedefineBusy checks that Redefine from a state function, from
// OnFinal and inside an Each loop returns ErrBusy and changes nothing.
func TestRedefineBusy(t *testing.T) {
	var m *Machine[int]
	var errs []error
	redefine := func() {
		errs = append(errs, m.Redefine([]Def[int]{{Name: "b", Func: func(*int, StateID) StateID { return 0 }}}, &machine.Mapping{To: []machine.StateID{0}}))
	}
	m, err := New([]Def[int]{{Name: "a", Func: func(e *int, _ StateID) StateID {
		if *e == 0 {
			redefine()
			return Final
		}
		return 0
	}}}, Options[int]{OnFinal: func(ID, *int) { redefine() }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for id := range ID(3) {
		if err := m.Add(id, int(id), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	for range m.Each(0) {
		redefine()
		break
	}
	if len(errs) != 3 {
		t.Fatalf("%d Redefines, want 3 (state function, OnFinal, Each)", len(errs))
	}
	for i, err := range errs {
		if !errors.Is(err, ErrBusy) || !strings.HasPrefix(err.Error(), "crowd: Redefine: ") {
			t.Errorf("Redefine %d during a step or a loop = %v, want ErrBusy", i, err)
		}
	}
	if m.StateName(0) != "a" || m.Len() != 2 {
		t.Errorf("after the refused Redefines: state %q, %d entities; want a, 2", m.StateName(0), m.Len())
	}
}

// TestRedefineNoStaleData checks that a machine whose entities hold
// pointers, redefined (a state removed into another, then added back),
// keeps no copy of an entity's data outside its live entities.
func TestRedefineNoStaleData(t *testing.T) {
	tr := &staleTracker{}
	walk := func(e *staleEnt, _ StateID) StateID { e.n++; return StateID(e.id+ID(e.n)) % 3 }
	defs := []Def[staleEnt]{{Name: "a", Func: walk}, {Name: "b", Func: walk}, {Name: "c", Func: walk}}
	m, err := New(defs, Options[staleEnt]{ChunkSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for id := range ID(500) {
		if err := m.Add(id, tr.make(id), StateID(id%3)); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		_ = m.Step()
	}
	two := func(e *staleEnt, _ StateID) StateID { e.n++; return StateID(e.id+ID(e.n)) % 2 }
	if err := m.Redefine([]Def[staleEnt]{{Name: "a", Func: two}, {Name: "c", Func: two}}, &machine.Mapping{To: []machine.StateID{0, machine.NoState, 1}, Fallback: 1}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_ = m.Step()
	}
	if err := m.Redefine(defs, &machine.Mapping{To: []machine.StateID{0, 2}}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_ = m.Step()
		if err := staleCopies(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkMachine(m); err != nil {
		t.Fatal(err)
	}
	if left := tr.check(t, m); left != 0 {
		t.Errorf("%d entities left the machine, want 0", left)
	}
}

// TestRemapOpen checks what Snapshot.Remap makes of Open: its namesake,
// unless it has none or a later old state maps to the same new state (the
// fallback included), as Redefine leaves the state adds join.
func TestRemapOpen(t *testing.T) {
	const none = machine.NoState
	for _, tc := range []struct {
		to       []machine.StateID // a, b, c, d to the new states
		fallback machine.StateID
		open     StateID
		want     StateID
	}{
		{[]machine.StateID{0, 1, 2, 3}, 0, 0, 0},
		{[]machine.StateID{0, 1, 2, 3}, 0, NoState, NoState},
		{[]machine.StateID{3, 2, 1, 0}, 0, 1, 2},
		{[]machine.StateID{0, none, 1, 2}, 0, 0, NoState}, // b's entities follow a's
		{[]machine.StateID{0, none, 1, 2}, 2, 0, 0},
		{[]machine.StateID{0, none, 1, 2}, 2, 2, 1},
		{[]machine.StateID{0, none, 1, 2}, 0, 1, NoState}, // gone
		{[]machine.StateID{0, 0, 1, 2}, 0, 0, NoState},    // merged by hand
		{[]machine.StateID{0, 0, 1, 2}, 0, 1, 0},
		{[]machine.StateID{1, 0, 1, 2}, 0, 0, NoState},
		{[]machine.StateID{0, 1, 2, none}, 1, 1, NoState},
		{[]machine.StateID{0, 1, 2, none}, 1, 3, NoState},
	} {
		s := Snapshot[int]{Open: tc.open}
		s.Remap(&machine.Mapping{To: tc.to, Fallback: tc.fallback})
		if s.Open != tc.want {
			t.Errorf("Remap(To %v, Fallback %v) of Open %s: %s, want %s", tc.to, tc.fallback, tc.open, s.Open, tc.want)
		}
		r := renumbering{to: make([]StateID, len(tc.to)), prev: make([]StateID, len(tc.to))}
		for q, to := range tc.to {
			r.to[q], r.prev[q] = StateID(to), StateID(to)
			if to == none {
				r.to[q], r.prev[q] = StateID(tc.fallback), NoState
			}
		}
		if got := r.open(tc.open); got != tc.want {
			t.Errorf("Redefine(To %v, Fallback %v) of open %s: %s, want %s", tc.to, tc.fallback, tc.open, got, tc.want)
		}
	}
}
