package crowd_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
)

// monsterCodec writes a monster in 28 bytes.
var monsterCodec = machine.Codec[monster]{
	Append: func(b []byte, m *monster) ([]byte, error) {
		for _, f := range [...]float32{m.X, m.Y, m.VX, m.VY, m.Timer, m.Energy} {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		return binary.LittleEndian.AppendUint32(b, m.Seed), nil
	},
	Decode: func(b []byte, m *monster) error {
		if len(b) != 28 {
			return fmt.Errorf("a monster takes 28 bytes, not %d", len(b))
		}
		f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])) }
		*m = monster{X: f(0), Y: f(1), VX: f(2), VY: f(3), Timer: f(4), Energy: f(5), Seed: binary.LittleEndian.Uint32(b[24:])}
		return nil
	},
}

// w3game is a game running a W3 crowd with everything that changes a
// machine's layout: monsters that finish (chase sometimes returns Final),
// an OnFinal that removes another monster and spawns one, monsters that
// spawn others during a step, and the game's own removes and adds
// between steps. What it sees is logged, to compare two runs.
type w3game struct {
	m   *crowd.Machine[monster]
	log []string
}

func newW3Game(t *testing.T, perBucket bool, chunk, workers int) *w3game {
	t.Helper()
	g := &w3game{}
	defs := perEntityDefs()
	if perBucket {
		defs = perBucketDefs()
	}
	defs[chase] = crowd.Def[monster]{Name: "chase", Func: func(e *monster, prev crowd.StateID) crowd.StateID {
		next := fnChase(e, prev)
		if e.Seed%61 == 0 {
			return crowd.Final
		}
		return next
	}}
	defs[flee] = crowd.Def[monster]{Name: "flee", Func: func(e *monster, prev crowd.StateID) crowd.StateID {
		if e.Seed%211 == 0 {
			// Two monsters may ask for one ID: neither add is carried out.
			_ = g.m.Add(crowd.ID(300000+e.Seed%50000), monster{Seed: e.Seed | 1}, wander)
		}
		return fnFlee(e, prev)
	}}
	m, err := crowd.New(defs, crowd.Options[monster]{
		ChunkSize: chunk,
		OnFinal: func(id crowd.ID, e *monster) {
			g.log = append(g.log, fmt.Sprintf("final %d %x", id, e.Seed))
			if id%3 == 0 {
				_ = g.m.Remove(id / 3)
			}
			if id%2 == 0 {
				_ = g.m.Add(400000+id, monster{Seed: uint32(id)*2654435761 | 1}, chase)
			}
		},
	})
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

func (g *w3game) populate(t *testing.T, n int, seed uint32) {
	t.Helper()
	for i := range n {
		data, s := spawn(seed, i)
		if err := g.m.Add(crowd.ID(i), data, s); err != nil {
			t.Fatal(err)
		}
	}
}

// frame steps the machine and logs what the step did.
func (g *w3game) frame() {
	err := g.m.Step()
	g.log = append(g.log, fmt.Sprintf("step %d: err %v, counts %v, transitions %v, sum %x",
		g.m.Steps(), err, g.m.Counts(nil), g.m.Transitions(nil), checksum(g.m)))
}

// removes is the game's removals after frame f.
func (g *w3game) removes(f int) {
	for id := crowd.ID(f % 7); id < 20000; id += 499 {
		_ = g.m.Remove(id)
	}
}

// adds is the game's adds after frame f: three runs of 20 adds to one
// state, the first 30 (part 0) before the others (part 1). Part 0 then
// removes two of the second run, the last added among them; on even
// frames, part 1 adds that one again first.
func (g *w3game) adds(f, part int) {
	id := func(j int) crowd.ID { return crowd.ID(500000 + f*100 + j) }
	add := func(j int) {
		m, _ := spawn(uint32(f), j)
		if err := g.m.Add(id(j), m, crowd.StateID(f+j/20)%numW3); err != nil {
			g.log = append(g.log, err.Error())
		}
	}
	if part == 1 && f%2 == 0 {
		add(29)
	}
	for j := range 60 {
		if j/30 == part {
			add(j)
		}
	}
	if part == 0 {
		_ = g.m.Remove(id(25))
		_ = g.m.Remove(id(29))
	}
}

// entities lists every entity as a string: ID, state and data, by ID.
func entities(m *crowd.Machine[monster]) []string {
	var out []string
	for s := range crowd.StateID(m.NumStates()) {
		for id, e := range m.Each(s) {
			out = append(out, fmt.Sprintf("%d %s %v", id, m.StateName(s), *e))
		}
	}
	slices.Sort(out)
	return out
}

// TestSnapshotContinues is the property that a snapshot, encoded, decoded
// and restored into a fresh machine, goes on exactly as the machine it was
// taken from: per-state counts, transitions, every entity's state and data,
// the order inside the buckets, OnFinal's calls and the errors, step after
// step. The snapshot is taken after k steps (k random), after the game has
// removed entities (still in their buckets: the next step purges them) and
// added some, with more added before the next step; the storage holds
// holes then, as the step's movers left it.
func TestSnapshotContinues(t *testing.T) {
	const after = 25 // steps compared after the snapshot
	seeds := 24
	if testing.Short() {
		seeds = 6
	}
	var holes, open, finals int
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		k := rng.IntN(40)
		// Small crowds defragment their storage when its segments
		// outnumber a 64th of the entities, large ones when its holes
		// outnumber the entities.
		n := []int{2000, 8000, 2000, 8000, 60000}[rng.IntN(5)] + rng.IntN(1000)
		chunk := []int{64, 100, 256, 1000, 2048}[rng.IntN(5)]
		perBucket := rng.IntN(2) == 1
		workers, workers2 := 1+rng.IntN(3), 1+rng.IntN(3)
		name := fmt.Sprintf("seed=%d/k=%d/n=%d/chunk=%d/perBucket=%v/workers=%d,%d", seed, k, n, chunk, perBucket, workers, workers2)
		t.Run(name, func(t *testing.T) {
			g := newW3Game(t, perBucket, chunk, workers)
			g.populate(t, n, uint32(seed)+1)
			for f := range k {
				g.frame()
				g.removes(f)
				g.adds(f, 0)
				g.adds(f, 1)
			}
			g.frame()
			g.removes(k)
			g.adds(k, 0)

			var snap crowd.Snapshot[monster]
			g.m.Snapshot(&snap)
			if snap.Holes > 0 {
				holes++
			}
			if snap.Open != crowd.NoState {
				open++
			}
			if len(snap.Runs) == 0 && n > 0 {
				t.Fatal("a snapshot of a machine with entities has no runs")
			}
			b, err := snap.AppendBinary(nil, monsterCodec)
			if err != nil {
				t.Fatal(err)
			}
			var back crowd.Snapshot[monster]
			if err := back.Decode(b, monsterCodec); err != nil {
				t.Fatal(err)
			}
			g2 := newW3Game(t, perBucket, chunk, workers2)
			if err := g2.m.Restore(&back); err != nil {
				t.Fatal(err)
			}
			if got, want := checksum(g2.m), checksum(g.m); got != want || g2.m.Len() != g.m.Len() || g2.m.Steps() != g.m.Steps() {
				t.Fatalf("restored: checksum %x, Len %d, Steps %d; want %x, %d, %d", got, g2.m.Len(), g2.m.Steps(), want, g.m.Len(), g.m.Steps())
			}
			if tr := g2.m.Transitions(nil); len(tr) != 0 {
				t.Errorf("Transitions after Restore = %v, want none", tr)
			}
			g.log, g2.log = nil, nil
			for _, x := range []*w3game{g, g2} {
				x.adds(k, 1)
				for f := k + 1; f <= k+after; f++ {
					x.frame()
					x.removes(f)
					x.adds(f, 0)
					x.adds(f, 1)
				}
			}
			if slices.ContainsFunc(g.log, func(s string) bool { return strings.HasPrefix(s, "final") }) {
				finals++
			}
			for i := range min(len(g.log), len(g2.log)) {
				if g.log[i] != g2.log[i] {
					t.Fatalf("after the restore, line %d:\n%s\nwant\n%s", i, g2.log[i], g.log[i])
				}
			}
			if len(g.log) != len(g2.log) {
				t.Fatalf("after the restore: %d lines logged, want %d", len(g2.log), len(g.log))
			}
			if got, want := entities(g2.m), entities(g.m); !slices.Equal(got, want) {
				t.Fatalf("entities differ at the end")
			}
		})
	}
	if holes == 0 || open == 0 || finals == 0 {
		t.Errorf("of %d snapshots, %d had holes, %d an open run, %d were followed by finals: the test must see each", seeds, holes, open, finals)
	}
}

// TestRestorePrevious checks that a restored entity's state function sees
// the previous state it would have seen: its own state for one that
// stayed, the one it left for one that moved, NoState for one just added;
// so a restored entity does not run its entry code again.
func TestRestorePrevious(t *testing.T) {
	type ent struct {
		n       int
		entered int // times the state function saw prev != its state
	}
	var seen []string
	f := func(me crowd.StateID) crowd.Func[ent] {
		return func(e *ent, prev crowd.StateID) crowd.StateID {
			if prev != me {
				e.entered++
			}
			seen = append(seen, fmt.Sprintf("%d:%s", e.n, prev))
			if e.n%2 == 0 {
				return 1 - me
			}
			return me
		}
	}
	defs := []crowd.Def[ent]{{Name: "a", Func: f(0)}, {Name: "b", Func: f(1)}}
	build := func() *crowd.Machine[ent] {
		m, err := crowd.New(defs, crowd.Options[ent]{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	m := build()
	_ = m.SetWorkers(1)
	for i := range 4 {
		if err := m.Add(crowd.ID(i), ent{n: i}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(9, ent{n: 9}, 1); err != nil {
		t.Fatal(err)
	}
	var s crowd.Snapshot[ent]
	m.Snapshot(&s)
	// Entities 1 and 3 stayed in a; 0 and 2 moved to b; 9 was just added.
	want := crowd.Snapshot[ent]{
		Steps:    1,
		IDs:      []crowd.ID{3, 1, 0, 2, 9}, // 3 filled the hole 0 left
		States:   []crowd.StateID{0, 0, 1, 1, 1},
		Previous: []crowd.StateID{0, 0, 0, 0, crowd.NoState},
		Data:     []ent{{3, 1}, {1, 1}, {0, 1}, {2, 1}, {9, 0}},
		Runs:     []uint32{2, 2, 1},
		Holes:    2, // where 0 and 2 were
		Open:     1,
	}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Fatalf("Snapshot =\n%+v\nwant\n%+v", s, want)
	}
	r := build()
	_ = r.SetWorkers(1)
	if err := r.Restore(&s); err != nil {
		t.Fatal(err)
	}
	seen = nil
	if err := r.Step(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"3:#0", "1:#0", "0:#0", "2:#0", "9:none"}; !slices.Equal(seen, want) {
		t.Errorf("after Restore, the state functions saw %v, want %v", seen, want)
	}
	for id, e := range r.Each(0) {
		if want := map[crowd.ID]int{1: 1, 3: 1, 0: 2, 2: 2}[id]; e.entered != want {
			t.Errorf("entity %d entered %d times, want %d", id, e.entered, want)
		}
	}
}

// TestRestoreUngrouped restores entities listed out of state order, with
// no runs: each state's entities in the order listed, runs cut where the
// previous state changes.
func TestRestoreUngrouped(t *testing.T) {
	var prevs []string
	f := func(e *int, prev crowd.StateID) crowd.StateID {
		prevs = append(prevs, fmt.Sprintf("%d:%s", *e, prev))
		return crowd.StateID(*e % 2)
	}
	m, err := crowd.New([]crowd.Def[int]{{Name: "even", Func: f}, {Name: "odd", Func: f}}, crowd.Options[int]{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_ = m.SetWorkers(1) // prevs is appended to in the order the functions run
	s := crowd.Snapshot[int]{
		IDs:      []crowd.ID{5, 2, 7, 4, 1},
		States:   []crowd.StateID{1, 0, 1, 0, 1},
		Previous: []crowd.StateID{1, 1, 0, crowd.NoState, 0},
		Data:     []int{5, 2, 7, 4, 1},
		Open:     crowd.NoState,
	}
	if err := m.Restore(&s); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"2:#1", "4:none", "5:#1", "7:#0", "1:#0"}; !slices.Equal(prevs, want) {
		t.Errorf("the first step saw %v, want %v", prevs, want)
	}
}

func TestRestoreErrors(t *testing.T) {
	f := func(*int, crowd.StateID) crowd.StateID { return 0 }
	m, err := crowd.New([]crowd.Def[int]{{Name: "a", Func: f}, {Name: "b", Func: f}}, crowd.Options[int]{MaxID: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range 10 {
		if err := m.Add(crowd.ID(i), i, crowd.StateID(i%2)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	var before crowd.Snapshot[int]
	m.Snapshot(&before)
	good := func() *crowd.Snapshot[int] {
		return &crowd.Snapshot[int]{
			IDs:      []crowd.ID{1, 2, 3},
			States:   []crowd.StateID{0, 1, 1},
			Previous: []crowd.StateID{0, crowd.NoState, 1},
			Data:     []int{1, 2, 3},
			Runs:     []uint32{1, 2},
			Open:     crowd.NoState,
		}
	}
	for _, tc := range []struct {
		name   string
		change func(s *crowd.Snapshot[int])
		want   string
	}{
		{"lengths", func(s *crowd.Snapshot[int]) { s.Data = s.Data[:2] }, "crowd: Restore: the snapshot has 3 IDs, 3 states, 3 previous states and 2 data: one of each per entity"},
		{"runs sum", func(s *crowd.Snapshot[int]) { s.Runs = []uint32{1, 1} }, "crowd: Restore: the runs hold 2 entities, not 3"},
		{"empty run", func(s *crowd.Snapshot[int]) { s.Runs = []uint32{1, 0, 2} }, "crowd: Restore: run 1 is empty"},
		{"state", func(s *crowd.Snapshot[int]) { s.States[2] = 2 }, `crowd: Restore: entity 2 (ID 3): state #2 does not exist (the machine has 2 states)`},
		{"final", func(s *crowd.Snapshot[int]) { s.States[0] = crowd.Final }, `crowd: Restore: entity 0 (ID 1): state final does not exist (the machine has 2 states)`},
		{"previous", func(s *crowd.Snapshot[int]) { s.Previous[1] = 7 }, `crowd: Restore: entity 1 (ID 2): previous state #7 does not exist (the machine has 2 states)`},
		{"id", func(s *crowd.Snapshot[int]) { s.IDs[1] = 1001 }, `crowd: Restore: entity 1: ID 1001 is above the machine's largest ID, 1000 (Options.MaxID)`},
		{"duplicate", func(s *crowd.Snapshot[int]) { s.IDs[2] = 1 }, `crowd: Restore: entities 0 and 2 both have ID 1`},
		{"holes", func(s *crowd.Snapshot[int]) { s.Holes = -1 }, `crowd: Restore: Holes -1 is not between 0 and 4294967295`},
		{"open", func(s *crowd.Snapshot[int]) { s.Open = 2 }, `crowd: Restore: Open is #2, not a state (the machine has 2 states) nor NoState`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := good()
			tc.change(s)
			err := m.Restore(s)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("Restore = %v, want %q", err, tc.want)
			}
			var after crowd.Snapshot[int]
			m.Snapshot(&after)
			if fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatalf("a failed Restore changed the machine:\n%+v\nwas\n%+v", after, before)
			}
		})
	}
	if err := m.Restore(good()); err != nil {
		t.Fatal(err)
	}
	if m.Len() != 3 || m.Count(1) != 2 || m.Steps() != 0 {
		t.Errorf("restored: Len %d, Count(1) %d, Steps %d; want 3, 2, 0", m.Len(), m.Count(1), m.Steps())
	}
	for id := range crowd.ID(12) {
		_, ok := m.StateOf(id)
		if want := id >= 1 && id <= 3; ok != want {
			t.Errorf("StateOf(%d) ok = %v, want %v", id, ok, want)
		}
	}
}

func TestRestoreBusy(t *testing.T) {
	var m *crowd.Machine[int]
	var inner error
	var panicked any
	m, _ = crowd.New([]crowd.Def[int]{{Name: "a", Func: func(*int, crowd.StateID) crowd.StateID {
		inner = m.Restore(&crowd.Snapshot[int]{})
		func() {
			defer func() { panicked = recover() }()
			m.Snapshot(&crowd.Snapshot[int]{})
		}()
		return 0
	}}}, crowd.Options[int]{})
	defer m.Close()
	_ = m.Add(0, 0, 0)
	if err := m.Step(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(inner, crowd.ErrBusy) {
		t.Errorf("Restore inside a state function = %v, want ErrBusy", inner)
	}
	if panicked == nil {
		t.Error("Snapshot inside a state function did not panic")
	}
}

func TestSnapshotAllocs(t *testing.T) {
	m := newW3(t, perEntityDefs(), 5000, 3, crowd.Options[monster]{ChunkSize: 256})
	for range 5 {
		_ = m.Step()
	}
	var s crowd.Snapshot[monster]
	m.Snapshot(&s)
	b, err := s.AppendBinary(nil, monsterCodec)
	if err != nil {
		t.Fatal(err)
	}
	var back crowd.Snapshot[monster]
	if err := back.Decode(b, monsterCodec); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Snapshot", func() { m.Snapshot(&s) }},
		{"AppendBinary", func() { b, _ = s.AppendBinary(b[:0], monsterCodec) }},
		{"Decode", func() { _ = back.Decode(b, monsterCodec) }},
	} {
		if a := testing.AllocsPerRun(10, tc.f); a != 0 {
			t.Errorf("%s allocates %v times once grown, want 0", tc.name, a)
		}
	}
}

func TestSnapshotBinary(t *testing.T) {
	m := newW3(t, perEntityDefs(), 3000, 9, crowd.Options[monster]{ChunkSize: 128})
	for range 7 {
		_ = m.Step()
	}
	var s crowd.Snapshot[monster]
	m.Snapshot(&s)
	b, err := s.AppendBinary([]byte("prefix"), monsterCodec)
	if err != nil || string(b[:6]) != "prefix" {
		t.Fatalf("AppendBinary: %v, %q", err, b[:6])
	}
	b = b[6:]
	var back crowd.Snapshot[monster]
	if err := back.Decode(b, monsterCodec); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back) != fmt.Sprint(s) {
		t.Fatal("the snapshot read back differs")
	}
	if per := float64(len(b)) / float64(len(s.IDs)); per > 33.1 {
		t.Errorf("%.2f bytes per entity, want at most 33.1 (4 for the ID, 1+28 for the data)", per)
	}

	// Without the data: zero values come back.
	b2, err := s.AppendBinary(nil, machine.Codec[monster]{})
	if err != nil {
		t.Fatal(err)
	}
	if per := float64(len(b2)) / float64(len(s.IDs)); per > 4.1 {
		t.Errorf("without data: %.2f bytes per entity, want at most 4.1", per)
	}
	if err := back.Decode(b2, monsterCodec); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.IDs, s.IDs) || !slices.Equal(back.Previous, s.Previous) || back.Data[0] != (monster{}) {
		t.Error("the snapshot without data reads back wrong")
	}
	if err := back.Decode(b, machine.Codec[monster]{}); err == nil || !strings.Contains(err.Error(), "needs a Codec") {
		t.Errorf("Decode of data with no Codec = %v", err)
	}
	if len(back.IDs) != 0 {
		t.Error("a failed Decode left entities")
	}

	// Every truncation is an error, and so is every byte more.
	small := crowd.Snapshot[monster]{IDs: s.IDs[:40], States: s.States[:40], Previous: s.Previous[:40], Data: s.Data[:40], Holes: 3, Open: 1}
	bs, err := small.AppendBinary(nil, monsterCodec)
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(bs) {
		if err := back.Decode(bs[:i], monsterCodec); err == nil {
			t.Fatalf("Decode of the first %d bytes of %d succeeded", i, len(bs))
		}
	}
	if err := back.Decode(append(b[:len(b):len(b)], 0), monsterCodec); err == nil || !strings.Contains(err.Error(), "left over") {
		t.Errorf("Decode with a byte more = %v", err)
	}
	bad := slices.Clone(b)
	bad[0] = 2
	if err := back.Decode(bad, monsterCodec); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("Decode of version 2 = %v", err)
	}

	// Codec errors name the entity.
	failing := machine.Codec[monster]{Append: func(b []byte, m *monster) ([]byte, error) {
		if m.Seed == s.Data[5].Seed {
			return b, errors.New("no")
		}
		return monsterCodec.Append(b, m)
	}}
	if _, err := s.AppendBinary(nil, failing); err == nil || err.Error() != fmt.Sprintf("crowd: Snapshot.AppendBinary: entity 5 (ID %d): no", s.IDs[5]) {
		t.Errorf("AppendBinary with a failing codec = %v", err)
	}

	// Long data takes a longer length.
	long := machine.Codec[monster]{
		Append: func(b []byte, m *monster) ([]byte, error) { return append(b, make([]byte, 200+m.Seed%300)...), nil },
		Decode: func(b []byte, m *monster) error { m.Seed = uint32(len(b)); return nil },
	}
	b3, err := s.AppendBinary(nil, long)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Decode(b3, long); err != nil {
		t.Fatal(err)
	}
	for i := range back.Data {
		if want := 200 + s.Data[i].Seed%300; back.Data[i].Seed != want {
			t.Fatalf("entity %d: %d bytes of data, want %d", i, back.Data[i].Seed, want)
		}
	}
}

func FuzzSnapshotDecode(f *testing.F) {
	s := crowd.Snapshot[monster]{
		Steps:    3,
		IDs:      []crowd.ID{4, 1, 9},
		States:   []crowd.StateID{0, 2, 2},
		Previous: []crowd.StateID{0, crowd.NoState, 1},
		Data:     []monster{{X: 1}, {Seed: 2}, {}},
		Holes:    7,
		Open:     2,
	}
	for _, c := range []machine.Codec[monster]{monsterCodec, {}} {
		b, err := s.AppendBinary(nil, c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s crowd.Snapshot[monster]
		if err := s.Decode(b, monsterCodec); err != nil {
			_ = err.Error()
			return
		}
		again, err := s.AppendBinary(nil, monsterCodec)
		if err != nil {
			t.Fatal(err)
		}
		var s2 crowd.Snapshot[monster]
		if err := s2.Decode(again, monsterCodec); err != nil || fmt.Sprint(s2) != fmt.Sprint(s) {
			t.Fatalf("a snapshot read back, written and read again differs (%v)", err)
		}
		// Restore into a machine that holds entities: a snapshot it refuses
		// leaves them as they were.
		m, err := crowd.New(perEntityDefs(), crowd.Options[monster]{})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		for id := range crowd.ID(5) {
			if err := m.Add(id*3, monster{Seed: uint32(id)}, crowd.StateID(id%4)); err != nil {
				t.Fatal(err)
			}
		}
		_ = m.Step()
		var before, after crowd.Snapshot[monster]
		m.Snapshot(&before)
		if err := m.Restore(&s); err != nil {
			if m.Snapshot(&after); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatalf("a refused Restore (%v) changed the machine:\n%v\nbefore:\n%v", err, after, before)
			}
			return
		}
		_ = m.Step()
	})
}

func TestRemap(t *testing.T) {
	f := func(*int, crowd.StateID) crowd.StateID { return 0 }
	old, err := crowd.New([]crowd.Def[int]{{Name: "a", Func: f}, {Name: "b", Func: f}, {Name: "c", Func: f}}, crowd.Options[int]{})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	// The new machine renames nothing, drops b and puts c first.
	m, err := crowd.New([]crowd.Def[int]{{Name: "c", Func: f}, {Name: "d", Func: f}, {Name: "a", Func: f}}, crowd.Options[int]{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s := crowd.Snapshot[int]{
		IDs:      []crowd.ID{10, 11, 12, 13, 14},
		States:   []crowd.StateID{0, 0, 1, 2, 2},
		Previous: []crowd.StateID{0, 1, 0, crowd.NoState, 2},
		Data:     make([]int, 5),
		Runs:     []uint32{1, 1, 1, 1, 1},
		Open:     2,
	}
	d := m.Describe()
	names := make([]string, old.NumStates())
	for i := range names {
		names[i] = old.StateName(crowd.StateID(i))
	}
	mp := machine.NewMapping(names, nil, &d)
	mp.Fallback = 1 // d
	s.Remap(mp)
	if want := []crowd.StateID{2, 2, 1, 0, 0}; !slices.Equal(s.States, want) {
		t.Errorf("States = %v, want %v", s.States, want)
	}
	if want := []crowd.StateID{2, crowd.NoState, crowd.NoState, crowd.NoState, 0}; !slices.Equal(s.Previous, want) {
		t.Errorf("Previous = %v, want %v", s.Previous, want)
	}
	if want := []machine.Moved{{Entity: 12, From: "b", To: 1}}; !slices.Equal(mp.Moved, want) {
		t.Errorf("Moved = %v, want %v", mp.Moved, want)
	}
	if s.Open != 0 {
		t.Errorf("Open = %s, want #0", s.Open)
	}
	if err := m.Restore(&s); err != nil {
		t.Fatal(err)
	}
	if got := m.Counts(nil); !slices.Equal(got, []int{2, 1, 2}) {
		t.Errorf("Counts = %v, want [2 1 2]", got)
	}
	var ids []crowd.ID
	for s := range crowd.StateID(3) {
		for id := range m.Each(s) {
			ids = append(ids, id)
		}
	}
	if want := []crowd.ID{13, 14, 12, 10, 11}; !slices.Equal(ids, want) {
		t.Errorf("bucket order %v, want %v", ids, want)
	}
}
