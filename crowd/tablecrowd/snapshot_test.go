package tablecrowd_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// botCodec writes a bot as its id (a varint) and its seed (8 bytes).
var botCodec = machine.Codec[bot]{
	Append: func(b []byte, v *bot) ([]byte, error) {
		b = binary.AppendUvarint(b, uint64(v.id))
		return binary.LittleEndian.AppendUint64(b, v.seed), nil
	},
	Decode: func(b []byte, v *bot) error {
		id, n := binary.Uvarint(b)
		if n <= 0 || len(b) != n+8 || id > 1<<20 {
			return fmt.Errorf("a bot takes a varint of at most 2²⁰ and 8 bytes, not %d bytes", len(b))
		}
		*v = bot{id: int(id), seed: binary.LittleEndian.Uint64(b[n:])}
		return nil
	},
}

// botGame is a crowd of bots and everything the game does to it: messages
// posted between steps and by the host during them, entities that finish
// and come back (from OnFinal), entities the game removes and adds back.
// Two games given the same inputs must do the same.
type botGame struct {
	c      *tablecrowd.Crowd[bot]
	h      *botHost
	n      int
	frame  int
	finals []string // OnFinal's calls
}

func newBotGame(tb testing.TB, tbl *table.Table, odds uint64, n, workers int) *botGame {
	tb.Helper()
	g := &botGame{h: newBotHost(tbl, n, odds), n: n}
	c, err := tablecrowd.New(tbl, g.h, crowd.Options[bot]{
		ChunkSize: 7,
		OnFinal: func(id crowd.ID, b *bot) {
			g.finals = append(g.finals, fmt.Sprintf("frame %d: %d (seed %x)", g.frame, id, b.seed))
			if respawns(int(id), g.frame) {
				if err := g.c.Add(id, newBot(int(id), g.frame)); err != nil {
					tb.Error(err)
				}
			}
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	g.c = c
	tb.Cleanup(c.Close)
	if err := c.Machine().SetWorkers(workers); err != nil {
		tb.Fatal(err)
	}
	g.h.post = func(to int, msg table.TestID) {
		if err := c.Post(crowd.ID(to), msg); err != nil && !errors.Is(err, crowd.ErrNotFound) {
			tb.Error(err)
		}
	}
	return g
}

// start adds every bot.
func (g *botGame) start(tb testing.TB) {
	for i := range g.n {
		if err := g.c.Add(crowd.ID(i), newBot(i, 0)); err != nil {
			tb.Fatal(err)
		}
	}
}

// post is the game's part of frame f before the step: messages posted,
// an entity removed or added back.
func (g *botGame) post(tb testing.TB, f int) {
	g.frame = f
	for i := range g.n {
		r := mix(uint64(f)<<32 | uint64(i))
		if len(g.h.msgs) == 0 || r&7 != 0 {
			continue
		}
		err := g.c.Post(crowd.ID(i), g.h.msgs[int(r>>8)%len(g.h.msgs)])
		if err != nil && !errors.Is(err, crowd.ErrNotFound) {
			tb.Fatal(err)
		}
	}
	r := mix(uint64(f) ^ 0xabcdef)
	id := crowd.ID(r >> 8 % uint64(g.n))
	if _, ok := g.c.Machine().StateOf(id); ok && r&3 == 0 {
		if err := g.c.Machine().Remove(id); err != nil {
			tb.Fatal(err)
		}
	} else if !ok && r&3 == 1 {
		if err := g.c.Add(id, newBot(int(id), f+1000)); err != nil {
			tb.Fatal(err)
		}
	}
}

// save returns the binary form of the crowd's snapshot, into s.
func (g *botGame) save(tb testing.TB, s *tablecrowd.Snapshot[bot]) []byte {
	tb.Helper()
	g.c.Snapshot(s)
	b, err := s.AppendBinary(nil, botCodec)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestSnapshotContinues runs a crowd for k frames (k drawn at random, with
// a fixed seed), saves it between the game's posts and the step, restores
// the save into a new crowd (on another number of workers), and runs both
// on: each later step must leave the same snapshot (states, previous
// states, bucket order, data, stacks, messages), make the same host calls
// entity by entity, return the same error and make the same OnFinal calls.
func TestSnapshotContinues(t *testing.T) {
	const n, after = 60, 60
	stacks, posted := 0, 0
	for _, cs := range crowdSpecs {
		for trial := range 3 {
			k := 1 + int(mix(uint64(trial)<<8|uint64(len(cs.name)))%80)
			t.Run(fmt.Sprintf("%s/k=%d", cs.name, k), func(t *testing.T) {
				tbl := crowdSpecTable(t, cs.spec)
				a := newBotGame(t, tbl, cs.odds, n, 1+trial%2)
				a.start(t)
				for f := 1; f < k; f++ {
					a.post(t, f)
					_ = a.c.Step() // errors are compared after the save
				}
				a.post(t, k)
				var snap, back tablecrowd.Snapshot[bot]
				saved := a.save(t, &snap)
				stacks += len(snap.Stacks)
				posted += len(snap.Posted)
				if err := back.Decode(saved, botCodec); err != nil {
					t.Fatal(err)
				}
				b := newBotGame(t, tbl, cs.odds, n, 3-trial%2)
				b.frame = k
				if err := b.c.Restore(&back); err != nil {
					t.Fatal(err)
				}
				if got := b.save(t, &back); !bytes.Equal(got, saved) {
					t.Fatalf("the restored crowd's save differs from the one it was restored from (%d and %d bytes)", len(got), len(saved))
				}
				logged := make([]int, n)
				for i := range n {
					logged[i] = len(a.h.logs[i])
				}
				nfinals := len(a.finals)
				for f := k; f < k+after; f++ {
					if f > k {
						a.post(t, f)
						b.post(t, f)
					}
					errA, errB := a.c.Step(), b.c.Step()
					if fmt.Sprint(errA) != fmt.Sprint(errB) {
						t.Fatalf("frame %d: Step() = %v after the restore, %v without", f, errB, errA)
					}
					if sa, sb := a.save(t, &snap), b.save(t, &back); !bytes.Equal(sa, sb) {
						t.Fatalf("frame %d: the crowds differ after the step:\nsaved:    %+v\nrestored: %+v", f, snap, back)
					}
					for i := range n {
						if want, got := a.h.logs[i][logged[i]:], b.h.logs[i]; !slices.Equal(got, want) {
							t.Fatalf("frame %d: entity %d: host calls after the restore\n%v\nwant\n%v", f, i, got, want)
						}
					}
					if want := a.finals[nfinals:]; !slices.Equal(b.finals, want) {
						t.Fatalf("frame %d: OnFinal calls after the restore\n%v\nwant\n%v", f, b.finals, want)
					}
				}
			})
		}
	}
	if stacks == 0 || posted == 0 {
		t.Errorf("the saves held %d stacks and %d messages: the test exercises too little", stacks, posted)
	}
}

// TestRestoreChecks restores snapshots that do not fit the crowd: each is
// refused with an error that says why, and the crowd is left as it was.
func TestRestoreChecks(t *testing.T) {
	tbl := crowdSpecTable(t, crowdSpecs[1].spec) // stack 2
	g := newBotGame(t, tbl, 3, 20, 1)
	g.start(t)
	for f := 1; f <= 30; f++ {
		g.post(t, f)
		_ = g.c.Step()
	}
	g.post(t, 31)
	var good tablecrowd.Snapshot[bot]
	before := g.save(t, &good)
	if len(good.Stacks) == 0 || len(good.Posted) == 0 {
		t.Fatalf("%d stacks and %d messages: the test exercises too little", len(good.Stacks), len(good.Posted))
	}
	x, _ := tbl.LookupTest("x", "")
	absent := crowd.ID(19)
	if _, ok := g.c.Machine().StateOf(absent); ok {
		if err := g.c.Machine().Remove(absent); err != nil {
			t.Fatal(err)
		}
		before = g.save(t, &good)
	}
	for _, tc := range []struct {
		name, want string
		edit       func(s *tablecrowd.Snapshot[bot])
	}{
		{"nil", "no snapshot", nil},
		{"stack of an absent entity", "Stacks[0]: entity 19 is not in the snapshot", func(s *tablecrowd.Snapshot[bot]) {
			s.Stacks = append([]tablecrowd.Stack{{ID: absent, States: []table.StateID{0}}}, s.Stacks...)
		}},
		{"stacks not ascending", "not ascending by ID", func(s *tablecrowd.Snapshot[bot]) {
			s.Stacks = append(s.Stacks, s.Stacks[0])
		}},
		{"stack too deep", "the table's stack limit is 2", func(s *tablecrowd.Snapshot[bot]) {
			s.Stacks[0].States = []table.StateID{0, 1, 2}
		}},
		{"stack state", "entry 1: #9 is not a state of the table", func(s *tablecrowd.Snapshot[bot]) {
			s.Stacks[0].States = []table.StateID{0, 9}
		}},
		{"message to an absent entity", "Posted[0]: entity 19 is not in the snapshot", func(s *tablecrowd.Snapshot[bot]) {
			s.Posted = append([]tablecrowd.Posted{{ID: absent, Msg: good.Posted[0].Msg}}, s.Posted...)
		}},
		{"polled test posted", `"x" is a polled test, not a message`, func(s *tablecrowd.Snapshot[bot]) {
			s.Posted[0].Msg = x
		}},
		{"test out of range", "#99 is not a test of the table", func(s *tablecrowd.Snapshot[bot]) {
			s.Posted[0].Msg = 99
		}},
		{"machine: state", "crowd: Restore: entity", func(s *tablecrowd.Snapshot[bot]) {
			s.Crowd.States[0] = 7
		}},
		{"machine: ID twice", "both have ID", func(s *tablecrowd.Snapshot[bot]) {
			s.Crowd.IDs[1] = s.Crowd.IDs[0]
			s.Stacks, s.Posted = nil, nil
		}},
		{"ID above the largest", "above the machine's largest ID", func(s *tablecrowd.Snapshot[bot]) {
			s.Crowd.IDs[0] = crowd.DefaultMaxID + 1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *tablecrowd.Snapshot[bot]
			if tc.edit != nil {
				s = new(tablecrowd.Snapshot[bot])
				if err := s.Decode(before, botCodec); err != nil {
					t.Fatal(err)
				}
				tc.edit(s)
			}
			err := g.c.Restore(s)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), `tablecrowd: Crowd.Restore (table "spec"): `) {
				t.Fatalf("Restore = %v, want an error containing %q", err, tc.want)
			}
			var after tablecrowd.Snapshot[bot]
			if !bytes.Equal(g.save(t, &after), before) {
				t.Fatal("a failed Restore changed the crowd")
			}
		})
	}
}

// TestRestoreDuringStep checks that a Restore from OnFinal, during a step,
// is refused with crowd.ErrBusy, and that Snapshot panics there.
func TestRestoreDuringStep(t *testing.T) {
	tbl := mustSpec(t, "a x final")
	var c *tablecrowd.Crowd[*probe]
	var restoreErr error
	var snapPanic any
	var snap tablecrowd.Snapshot[*probe]
	c, err := tablecrowd.New(tbl, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{
		OnFinal: func(crowd.ID, **probe) {
			restoreErr = c.Restore(&snap)
			func() {
				defer func() { snapPanic = recover() }()
				c.Snapshot(&snap)
			}()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(0, newProbe(tbl, "x")); err != nil {
		t.Fatal(err)
	}
	c.Snapshot(&snap)
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(restoreErr, crowd.ErrBusy) {
		t.Errorf("Restore during a step = %v, want crowd.ErrBusy", restoreErr)
	}
	if snapPanic == nil {
		t.Error("Snapshot during a step did not panic")
	}
	if c.Machine().Len() != 0 {
		t.Errorf("Len() = %d after the entity finished, want 0", c.Machine().Len())
	}
}

// TestSnapshotAllocations checks that snapshots taken into, and decoded
// into, the same value allocate nothing once it has grown, but what the
// codec does.
func TestSnapshotAllocations(t *testing.T) {
	tbl := crowdSpecTable(t, crowdSpecs[1].spec)
	g := newBotGame(t, tbl, 3, 200, 1)
	g.start(t)
	for f := 1; f <= 30; f++ {
		g.post(t, f)
		_ = g.c.Step()
	}
	g.post(t, 31)
	var s tablecrowd.Snapshot[bot]
	b := g.save(t, &s)
	if n := testing.AllocsPerRun(20, func() { g.c.Snapshot(&s) }); n != 0 {
		t.Errorf("Snapshot: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := s.Decode(b, botCodec); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Decode: %v allocations, want 0", n)
	}
}

// TestSnapshotRemap restores a save into a table whose states were renamed
// and reordered: the entities and their stacks follow their states by name,
// and those whose state is gone go to the fallback, reported.
func TestSnapshotRemap(t *testing.T) {
	spec := crowdSpecs[1].spec // states a, b, c, d
	g := newBotGame(t, crowdSpecTable(t, spec), 3, 40, 1)
	g.start(t)
	for f := 1; f <= 30; f++ {
		g.post(t, f)
		_ = g.c.Step()
	}
	var s tablecrowd.Snapshot[bot]
	g.c.Snapshot(&s)
	old := g.c.Describe()
	names := make([]string, len(old.States))
	for i, st := range old.States {
		names[i] = st.Name
	}
	// The new table lists d second and calls c "see".
	var nb strings.Builder
	nb.WriteString("enter a P=a\nenter d Q=d\n")
	for line := range strings.Lines(spec) {
		f := strings.Fields(line)
		if strings.Join(f, " ") == "enter a P=a" || strings.Join(f, " ") == "enter d Q=d" {
			continue
		}
		for i := range f {
			if f[i] == "c" {
				f[i] = "see"
			}
		}
		nb.WriteString(strings.Join(f, " ") + "\n")
	}
	newSpec := nb.String()
	nt := mustSpec(t, newSpec)
	h := newBotHost(nt, 40, 3)
	c, err := tablecrowd.New(nt, h, crowd.Options[bot]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d := c.Describe()
	mp := machine.MappingBetween(&old, &d)
	want := map[crowd.ID]string{}
	for i, id := range s.Crowd.IDs {
		name := names[s.Crowd.States[i]]
		if name == "c" {
			name = "a" // the fallback: the initial state
		}
		want[id] = name
	}
	wantStacks := map[crowd.ID][]string{}
	moved := 0
	for _, st := range s.Stacks {
		for _, q := range st.States {
			name := names[q]
			if name == "c" {
				name = "a"
			}
			wantStacks[st.ID] = append(wantStacks[st.ID], name)
		}
		if slices.Contains(st.States, 2) {
			moved++
		}
	}
	for _, q := range s.Crowd.States {
		if q == 2 {
			moved++
		}
	}
	s.Remap(mp)
	if err := c.Restore(&s); err != nil {
		t.Fatal(err)
	}
	var back tablecrowd.Snapshot[bot]
	c.Snapshot(&back)
	for i, id := range back.Crowd.IDs {
		if got := nt.StateName(table.StateID(back.Crowd.States[i])); got != want[id] {
			t.Errorf("entity %d is in %q, want %q", id, got, want[id])
		}
	}
	for _, st := range back.Stacks {
		var got []string
		for _, q := range st.States {
			got = append(got, nt.StateName(q))
		}
		if !slices.Equal(got, wantStacks[st.ID]) {
			t.Errorf("entity %d: stack %q, want %q", st.ID, got, wantStacks[st.ID])
		}
	}
	if len(back.Stacks) != len(wantStacks) {
		t.Errorf("%d stacks, want %d", len(back.Stacks), len(wantStacks))
	}
	if len(mp.Moved) != moved || moved == 0 {
		t.Errorf("%d moves reported, want %d (not 0)", len(mp.Moved), moved)
	}
}

// fuzzHost answers from the entity's seed alone, whatever its id.
type fuzzHost struct{}

func (fuzzHost) Test(b *bot, id table.TestID) bool {
	b.seed = mix(b.seed)
	return b.seed>>62 == 0
}

func (fuzzHost) Do(b *bot, p table.PropertyID, v table.ValueID) { b.seed ^= uint64(p)<<32 | uint64(v) }

// FuzzSnapshotUnmarshal decodes arbitrary bytes: no panic, every error
// renders and leaves the snapshot empty, what decodes writes and reads
// back the same, and restoring it into a crowd either works (and the
// crowd steps) or changes nothing.
func FuzzSnapshotDecode(f *testing.F) {
	tbl := crowdSpecTable(f, crowdSpecs[1].spec)
	g := newBotGame(f, tbl, 3, 30, 1)
	g.start(f)
	var s tablecrowd.Snapshot[bot]
	for fr := 1; fr <= 40; fr++ {
		g.post(f, fr)
		if fr%10 == 0 {
			f.Add(g.save(f, &s))
		}
		_ = g.c.Step()
	}
	empty, err := (&tablecrowd.Snapshot[bot]{}).AppendBinary(nil, botCodec)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(empty)
	hand := tablecrowd.Snapshot[bot]{
		Crowd:  crowd.Snapshot[bot]{IDs: []crowd.ID{3, 1}, States: []crowd.StateID{1, 0}, Previous: []crowd.StateID{crowd.NoState, 0}, Data: []bot{{id: 3}, {id: 1}}, Open: crowd.NoState},
		Stacks: []tablecrowd.Stack{{ID: 3, States: []table.StateID{0}}},
		Posted: []tablecrowd.Posted{{ID: 1, Msg: 1}},
	}
	b, err := hand.AppendBinary(nil, machine.Codec[bot]{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)

	f.Fuzz(func(t *testing.T, b []byte) {
		var s tablecrowd.Snapshot[bot]
		if err := s.Decode(b, botCodec); err != nil {
			if err.Error() == "" {
				t.Fatal("an error renders empty")
			}
			if len(s.Crowd.IDs) != 0 || len(s.Stacks) != 0 || len(s.Posted) != 0 {
				t.Fatalf("a failed decode left %d entities, %d stacks, %d messages", len(s.Crowd.IDs), len(s.Stacks), len(s.Posted))
			}
			return
		}
		again, err := s.AppendBinary(nil, botCodec)
		if err != nil {
			t.Fatal(err)
		}
		var s2 tablecrowd.Snapshot[bot]
		if err := s2.Decode(again, botCodec); err != nil || fmt.Sprint(s2) != fmt.Sprint(s) {
			t.Fatalf("a snapshot read back, written and read again differs (%v)", err)
		}
		c, err := tablecrowd.New(tbl, fuzzHost{}, crowd.Options[bot]{MaxID: 1023})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Restore(&s); err != nil {
			if c.Machine().Len() != 0 {
				t.Fatalf("a failed Restore left %d entities", c.Machine().Len())
			}
			return
		}
		for range 3 {
			_ = c.Step()
		}
	})
}
