package tablecrowd_test

import (
	"bytes"
	"cmp"
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

// stackSpec is crowdSpecs' table with a stack: states a, b, c, d; polled
// tests and the messages m and k.
var stackSpec = crowdSpecs[1].spec

// editSpec returns spec with the token from replaced by to in every line
// (from "" for none), the lines drop says so left out, and first put
// before the others.
func editSpec(spec, from, to string, drop func(fields []string) bool, first ...string) string {
	var b strings.Builder
	for _, line := range first {
		b.WriteString(line + "\n")
	}
	for line := range strings.Lines(spec) {
		f := strings.Fields(line)
		if len(f) == 0 || drop != nil && drop(f) {
			continue
		}
		for i := range f {
			if from != "" && f[i] == from {
				f[i] = to
			}
		}
		b.WriteString(strings.Join(f, " ") + "\n")
	}
	return b.String()
}

// mentions returns a drop function for editSpec: the lines naming token.
func mentions(token string) func([]string) bool {
	return func(f []string) bool { return slices.Contains(f, token) }
}

// bind makes h answer for table t: the names it logs and the messages the
// game posts.
func bind(h *botHost, t *table.Table) {
	h.t, h.msgs = t, h.msgs[:0]
	for id := range table.TestID(t.NumTests()) {
		if t.Test(id).Message {
			h.msgs = append(h.msgs, id)
		}
	}
}

// mapping returns machine.MappingBetween the two tables.
func mapping(from, to *table.Table) *machine.Mapping {
	od, nd := from.Describe(), to.Describe()
	return machine.MappingBetween(&od, &nd)
}

// decoded returns a copy of a crowd's snapshot, through its binary form.
func decoded(tb testing.TB, save []byte) *tablecrowd.Snapshot[bot] {
	tb.Helper()
	s := new(tablecrowd.Snapshot[bot])
	if err := s.Decode(save, botCodec); err != nil {
		tb.Fatal(err)
	}
	return s
}

// playedGame returns a bot game on tbl that has played frames frames, the
// game's posts of the next one made: messages are waiting, some entities
// have stacks.
func playedGame(tb testing.TB, tbl *table.Table, n, frames int) *botGame {
	tb.Helper()
	g := newBotGame(tb, tbl, 3, n, 2)
	g.start(tb)
	for f := 1; f <= frames; f++ {
		g.post(tb, f)
		_ = g.c.Step()
	}
	g.post(tb, frames+1)
	return g
}

// namedState returns the name of the state an entity in old state q of
// table from is in after a reload onto to: its namesake, or to's initial
// state.
func namedState(from, to *table.Table, q table.StateID) string {
	name := from.StateName(q)
	if _, ok := to.LookupState(name); ok {
		return name
	}
	return to.StateName(to.Initial())
}

// TestReload reloads a running crowd onto new versions of its table, and
// checks that every entity kept its data and its state by name (a state
// that is gone sends it to the initial state, reported by ID in Moved), its
// stack by name and its messages by name (a message that is gone is
// dropped); that the crowd kept its machine, and the machine its
// Transitions of the last step exactly when every state keeps its ID; and
// that it then steps as a crowd made by New with the new table, into
// which the same snapshot, remapped, was restored: the same snapshot
// (bucket order included) after every step, host calls, errors and
// OnFinal calls.
func TestReload(t *testing.T) {
	const n, frames, after = 60, 25, 40
	flat := editSpec(stackSpec, "", "", func(f []string) bool { return slices.Contains(f, "push") || slices.Contains(f, "return") }, "a y b", "b y c")
	for _, tc := range []struct {
		name        string
		from        string // the crowd's table: stackSpec if ""
		spec        string // its new version
		transitions bool   // every state keeps its ID: the machine's Transitions stay
		lost        bool   // entities must have been moved to the fallback
	}{
		{"same table", "", stackSpec, true, false},
		{"transition changed", "", editSpec(stackSpec, "", "", func(f []string) bool { return strings.Join(f, " ") == "a q final" }, "a q b"), true, false},
		{"state renamed", "", editSpec(stackSpec, "c", "see", nil), false, true},
		{"pushed state renamed", "", editSpec(stackSpec, "b", "bee", nil), false, true},
		{"state and message added, all renumbered", "", editSpec(stackSpec, "", "", nil, "a !alarm e", "e v a"), false, false},
		{"state appended", "", editSpec(stackSpec, "", "", nil) + "d !k e\ne v a\n", true, false},
		{"state removed", "", editSpec(stackSpec, "", "", mentions("d")), false, false},
		{"message removed", "", editSpec(stackSpec, "", "", mentions("!m")), true, false},
		{"states reordered", "", editSpec(stackSpec, "", "", func(f []string) bool { return strings.Join(f, " ") == "d v return" }, "d v return"), false, false},
		{"stack limit raised", "", editSpec(stackSpec, "", "", mentions("options"), "options stack 5"), true, false},
		{"stack limit raised, state renamed", "", editSpec(stackSpec, "c", "see", mentions("options"), "options stack 3"), false, true},
		{"stack introduced", flat, stackSpec, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := crowdSpecTable(t, cmp.Or(tc.from, stackSpec))
			nt := old
			if tc.name != "same table" {
				nt = mustSpec(t, tc.spec)
			}
			g := playedGame(t, old, n, frames)
			var snap tablecrowd.Snapshot[bot]
			saved := g.save(t, &snap)
			if len(snap.Stacks) == 0 && tc.from == "" || len(snap.Posted) == 0 {
				t.Fatalf("%d stacks and %d messages posted: the test exercises too little", len(snap.Stacks), len(snap.Posted))
			}
			before := decoded(t, saved)
			m := g.c.Machine()
			transitions := m.Transitions(nil)
			if len(transitions) == 0 {
				t.Fatal("no transitions in the last step: the test exercises too little")
			}
			mp := mapping(g.c.Table(), nt)
			if err := g.c.Reload(nt, mp); err != nil {
				t.Fatalf("Reload = %v", err)
			}
			bind(g.h, nt)
			if g.c.Table() != nt {
				t.Errorf("Table() is not the new table")
			}
			if g.c.Machine() != m {
				t.Errorf("the crowd did not keep its machine")
			}
			if got := m.Transitions(nil); tc.transitions && !slices.Equal(got, transitions) || !tc.transitions && len(got) > 0 {
				t.Errorf("Transitions() after the reload = %v; want those of the last step (%v): %t", got, transitions, tc.transitions)
			}
			checkReloaded(t, before, old, nt, g, mp, tc.lost)

			// A crowd made by New with the new table, restored from the
			// same snapshot remapped.
			f := newBotGame(t, nt, 3, n, 1)
			f.frame = g.frame
			remapped := decoded(t, saved)
			remapped.Remap(mapping(old, nt))
			if err := f.c.Restore(remapped); err != nil {
				t.Fatal(err)
			}
			compareGames(t, g, f, frames+1, after)
		})
	}
}

// checkReloaded checks that g's crowd, reloaded onto nt from old, holds
// what before held, by name, and that mp reports the entities moved.
func checkReloaded(t *testing.T, before *tablecrowd.Snapshot[bot], old, nt *table.Table, g *botGame, mp *machine.Mapping, lost bool) {
	t.Helper()
	var got tablecrowd.Snapshot[bot]
	g.c.Snapshot(&got)
	type held struct {
		state string
		data  bot
	}
	want, have := map[crowd.ID]held{}, map[crowd.ID]held{}
	moved := map[uint64]bool{}
	for i, id := range before.Crowd.IDs {
		q := table.StateID(before.Crowd.States[i])
		want[id] = held{namedState(old, nt, q), before.Crowd.Data[i]}
		if _, ok := nt.LookupState(old.StateName(q)); !ok {
			moved[uint64(id)] = true
		}
	}
	for i, id := range got.Crowd.IDs {
		have[id] = held{nt.StateName(table.StateID(got.Crowd.States[i])), got.Crowd.Data[i]}
	}
	if fmt.Sprint(have) != fmt.Sprint(want) {
		t.Errorf("after the reload, the entities (state, data) are\n%v\nwant\n%v", have, want)
	}
	names := func(tbl *table.Table, states []table.StateID, rename func(table.StateID) string) []string {
		var out []string
		for _, q := range states {
			out = append(out, rename(q))
		}
		return out
	}
	var wantStacks, gotStacks []string
	for _, st := range before.Stacks {
		wantStacks = append(wantStacks, fmt.Sprint(st.ID, names(old, st.States, func(q table.StateID) string { return namedState(old, nt, q) })))
		for _, q := range st.States {
			if _, ok := nt.LookupState(old.StateName(q)); !ok {
				moved[uint64(st.ID)] = true
			}
		}
	}
	for _, st := range got.Stacks {
		gotStacks = append(gotStacks, fmt.Sprint(st.ID, names(nt, st.States, nt.StateName)))
	}
	if !slices.Equal(gotStacks, wantStacks) {
		t.Errorf("after the reload, the stacks are\n%v\nwant\n%v", gotStacks, wantStacks)
	}
	var wantPosted, gotPosted []string
	for _, p := range before.Posted {
		name := old.Test(p.Msg).String()
		if id, ok := nt.LookupTest(name, ""); ok && nt.Test(id).Message {
			wantPosted = append(wantPosted, fmt.Sprint(p.ID, name))
		}
	}
	for _, p := range got.Posted {
		gotPosted = append(gotPosted, fmt.Sprint(p.ID, nt.Test(p.Msg).String()))
	}
	slices.Sort(wantPosted)
	slices.Sort(gotPosted)
	if !slices.Equal(gotPosted, wantPosted) {
		t.Errorf("after the reload, the messages posted are\n%v\nwant\n%v", gotPosted, wantPosted)
	}
	reported := map[uint64]bool{}
	for _, mv := range mp.Moved {
		reported[mv.Entity] = true
		if mv.To != machine.StateID(nt.Initial()) {
			t.Errorf("Moved: entity %d went to %v, want the initial state", mv.Entity, mv.To)
		}
		if _, ok := old.LookupState(mv.From); !ok {
			t.Errorf("Moved: entity %d came from %q, not a state of the old table", mv.Entity, mv.From)
		}
	}
	if fmt.Sprint(reported) != fmt.Sprint(moved) {
		t.Errorf("Moved reports entities %v, want %v", reported, moved)
	}
	if lost && len(moved) == 0 {
		t.Error("no entity was moved to the fallback: the test exercises too little")
	}
}

// compareGames plays a and b on from frame from for frames frames and
// checks that they do the same: the same snapshot before the first step
// and after every step, the same host calls since, errors and OnFinal
// calls.
func compareGames(t *testing.T, a, b *botGame, from, frames int) {
	t.Helper()
	var sa, sb tablecrowd.Snapshot[bot]
	if x, y := a.save(t, &sa), b.save(t, &sb); !bytes.Equal(x, y) {
		t.Fatalf("before stepping, the crowds differ:\n%+v\nwant\n%+v", sa, sb)
	}
	logged := make([]int, a.n)
	for i := range a.n {
		logged[i] = len(a.h.logs[i])
	}
	for i := range b.n {
		b.h.logs[i] = b.h.logs[i][:0]
	}
	finals := len(a.finals)
	b.finals = b.finals[:0]
	for f := from; f < from+frames; f++ {
		if f > from {
			a.post(t, f)
			b.post(t, f)
		}
		errA, errB := a.c.Step(), b.c.Step()
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("frame %d: Step() = %v, want %v", f, errA, errB)
		}
		if x, y := a.save(t, &sa), b.save(t, &sb); !bytes.Equal(x, y) {
			t.Fatalf("frame %d: the crowds differ after the step:\n%+v\nwant\n%+v", f, sa, sb)
		}
		for i := range a.n {
			if got, want := a.h.logs[i][logged[i]:], b.h.logs[i]; !slices.Equal(got, want) {
				t.Fatalf("frame %d: entity %d: host calls\n%v\nwant\n%v", f, i, got, want)
			}
		}
		if got := a.finals[finals:]; !slices.Equal(got, b.finals) {
			t.Fatalf("frame %d: OnFinal calls\n%v\nwant\n%v", f, got, b.finals)
		}
	}
}

// TestReloadMessages checks that a message posted before a reload is seen
// by the step after it, under its new ID, and that one whose test is gone
// is dropped.
func TestReloadMessages(t *testing.T) {
	old := mustSpec(t, "a !m b\na !k c\nb x a")
	for _, tc := range []struct {
		name, spec, post, want string
	}{
		{"renumbered", "a !n c\na !k c\na !m b\nb x a", "m", "b"},
		{"kept", "a !m b\na !k c\nb x a\nc x a", "k", "c"},
		{"gone", "a !k c\nb x a\nb !m a", "m", "a"},
		{"now polled", "a m b\na !k c\nb x a", "m", "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tablecrowd.New(old, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			p := newProbe(old)
			if err := c.Add(7, p); err != nil {
				t.Fatal(err)
			}
			if err := c.Post(7, testID(t, old, tc.post)); err != nil {
				t.Fatal(err)
			}
			nt := mustSpec(t, tc.spec)
			if err := c.Reload(nt, mapping(old, nt)); err != nil {
				t.Fatal(err)
			}
			p.t = nt
			if err := c.Step(); err != nil {
				t.Fatal(err)
			}
			s, _ := c.Machine().StateOf(7)
			if got := nt.StateName(table.StateID(s)); got != tc.want {
				t.Errorf("after the reload and a step, the entity is in %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReloadRefused checks the reloads PrepareReload refuses: each returns
// an error that names the tables and says what is wrong, no commit, and
// leaves the crowd and the mapping as they were.
func TestReloadRefused(t *testing.T) {
	old := crowdSpecTable(t, stackSpec) // stack 2
	g := playedGame(t, old, 60, 25)
	var snap tablecrowd.Snapshot[bot]
	before := g.save(t, &snap)
	deep := false
	for _, st := range snap.Stacks {
		deep = deep || len(st.States) == 2
	}
	if !deep {
		t.Fatal("no stack of 2 states: the test exercises too little")
	}
	renamed := mustSpec(t, editSpec(stackSpec, "c", "see", nil))
	var sb table.Builder
	sb.Name = "nested"
	outer := sb.AddState("outer")
	sb.Nest(sb.AddState("inner"), outer)
	chart, err := sb.Build()
	if err != nil {
		t.Fatal(err)
	}
	shallow := mustSpec(t, editSpec(stackSpec, "", "", mentions("options"), "options stack 1"))
	flat := mustSpec(t, editSpec(stackSpec, "", "", func(f []string) bool { return slices.Contains(f, "push") || slices.Contains(f, "return") }, "a y b", "b y c"))
	goomba := crowdSpecTable(t, "")
	const prefix = `tablecrowd: Crowd.Reload (table "spec" onto `
	for _, tc := range []struct {
		name string
		t    *table.Table
		mp   func() *machine.Mapping // from the crowd's table to t, unless edited
		want string
	}{
		{"nil table", nil, nil, `the new table): the new table is nil`},
		{"zero table", &table.Table{}, nil, `the new table): the new table has no states`},
		{"statechart", chart, nil, `"nested"): the new table is a statechart`},
		{"nil mapping", renamed, func() *machine.Mapping { return nil }, `"spec"): no mapping (nil)`},
		{"mapping from another table", renamed, func() *machine.Mapping { return mapping(goomba, renamed) }, `the mapping maps 3 states, and the crowd's table has 4: make it from the crowd's current table`},
		{"state out of range", renamed, func() *machine.Mapping {
			mp := mapping(old, renamed)
			mp.To[1] = 9
			return mp
		}, `the mapping sends state "b" to state 9, which is not a state of the new table (it has 4)`},
		{"negative state", renamed, func() *machine.Mapping {
			mp := mapping(old, renamed)
			mp.To[1] = machine.Final
			return mp
		}, `the mapping sends state "b" to final, which is not a state of the new table`},
		{"fallback out of range", renamed, func() *machine.Mapping {
			mp := mapping(old, renamed)
			mp.Fallback = 7
			return mp
		}, `state "c" has no namesake in the new table, and the mapping's Fallback, state 7, is not one of its states (it has 4)`},
		{"triggers of another table", renamed, func() *machine.Mapping {
			mp := mapping(old, renamed)
			mp.Triggers = mp.Triggers[:3]
			return mp
		}, `the mapping maps 3 triggers, and the crowd's table has 10 tests`},
		{"message to a polled test", renamed, func() *machine.Mapping {
			mp := mapping(old, renamed)
			mp.Triggers[testID(t, old, "m")] = int32(testID(t, renamed, "x"))
			return mp
		}, `the mapping sends message "m" to trigger 0, which is not a message of the new table`},
		{"message out of range", renamed, func() *machine.Mapping {
			mp := mapping(old, renamed)
			mp.Triggers[testID(t, old, "k")] = 99
			return mp
		}, `the mapping sends message "k" to trigger 99`},
		{"stack deeper than the limit", shallow, nil, `deeper than the new table's stack limit, 1: raise the drawing's stack limit`},
		{"stack, and the table never pushes", flat, nil, `and the new table never pushes or returns`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mp *machine.Mapping
			if tc.mp != nil {
				mp = tc.mp()
			} else if tc.t != nil && tc.t.NumStates() > 0 {
				mp = mapping(old, tc.t)
			} else {
				mp = mapping(old, old)
			}
			var moved int
			if mp != nil {
				mp.Moved = append(mp.Moved, machine.Moved{Entity: 99})
				moved = len(mp.Moved)
			}
			m := g.c.Machine()
			err := g.c.Reload(tc.t, mp)
			if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Reload = %v\nwant an error starting %q and containing %q", err, prefix, tc.want)
			}
			commit, err := g.c.PrepareReload(tc.t, mp)
			if commit != nil || err == nil || !strings.HasPrefix(err.Error(), "tablecrowd: Crowd.PrepareReload (") {
				t.Errorf("PrepareReload = (commit %t, %v), want no commit and an error", commit != nil, err)
			}
			var after tablecrowd.Snapshot[bot]
			if !bytes.Equal(g.save(t, &after), before) || g.c.Table() != old || g.c.Machine() != m {
				t.Error("a refused reload changed the crowd")
			}
			if mp != nil && len(mp.Moved) != moved {
				t.Errorf("a refused reload reported %d moves", len(mp.Moved)-moved)
			}
		})
	}
	if err := g.c.Step(); err != nil && !errors.As(err, new(*tablecrowd.Error)) {
		t.Errorf("Step() after the refused reloads = %v", err)
	}
}

// TestReloadDuringStep checks that a reload from OnFinal, during a step,
// is refused with crowd.ErrBusy, as is a Reload from inside the machine's
// Each loop (mp.Moved left as it was), and that a commit called during a
// step or inside an Each loop panics, and can be called again after.
func TestReloadDuringStep(t *testing.T) {
	tbl := mustSpec(t, "a x final\nb x a")
	nt := mustSpec(t, "a x final\nb x a\nc x a") // a state added
	var c *tablecrowd.Crowd[*probe]
	var reloadErr, prepareErr error
	var commit func()
	var panicked any
	c, err := tablecrowd.New(tbl, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{
		OnFinal: func(crowd.ID, **probe) {
			reloadErr = c.Reload(nt, mapping(tbl, nt))
			_, prepareErr = c.PrepareReload(nt, mapping(tbl, nt))
			func() {
				defer func() { panicked = recover() }()
				commit()
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
	if commit, err = c.PrepareReload(nt, mapping(tbl, nt)); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{reloadErr, prepareErr} {
		if !errors.Is(err, crowd.ErrBusy) || !strings.Contains(err.Error(), "reload between steps") {
			t.Errorf("a reload during a step = %v, want crowd.ErrBusy", err)
		}
	}
	if panicked == nil || !strings.Contains(fmt.Sprint(panicked), "commit between steps") {
		t.Errorf("a commit during a step panicked with %v, want a message saying to commit between steps", panicked)
	}
	if c.Table() != tbl {
		t.Error("a reload during a step changed the table")
	}

	if err := c.Add(1, newProbe(tbl)); err != nil {
		t.Fatal(err)
	}
	gone := mustSpec(t, "c x b") // a gone: its entity moved to c
	for range c.Machine().Each(0) {
		mp := mapping(tbl, gone)
		if err := c.Reload(gone, mp); !errors.Is(err, crowd.ErrBusy) || !strings.Contains(err.Error(), "outside the machine's Each loops") {
			t.Errorf("a reload in an Each loop = %v, want crowd.ErrBusy", err)
		}
		if len(mp.Moved) != 0 {
			t.Errorf("a reload refused in an Each loop reported moves %v", mp.Moved)
		}
		if commit, err = c.PrepareReload(gone, mapping(tbl, gone)); err != nil {
			t.Fatalf("PrepareReload in an Each loop = %v", err)
		}
		func() {
			defer func() { panicked = recover() }()
			commit()
		}()
		if panicked == nil || !strings.Contains(fmt.Sprint(panicked), "outside Each loops") {
			t.Errorf("a commit in an Each loop panicked with %v, want a message saying to commit outside Each loops", panicked)
		}
		break
	}
	if c.Table() != tbl {
		t.Error("a reload in an Each loop changed the table")
	}
	commit()
	if c.Table() != gone || c.Machine().Count(0) != 1 {
		t.Errorf("a commit called again after the loop: table %q, %d entities in c; want the new table, 1", c.Table().Name(), c.Machine().Count(0))
	}
}

// TestReloadCommit checks what a commit does when the crowd changed
// between PrepareReload and it: the move is made from the crowd as it is
// then, the same as a reload at that moment (a twin game's); a commit
// that is not called leaves the crowd as it was; a second commit, or one
// after another reload, does nothing.
func TestReloadCommit(t *testing.T) {
	const n, frames = 60, 25
	old := crowdSpecTable(t, stackSpec)
	nt := mustSpec(t, editSpec(stackSpec, "c", "see", nil, "a !alarm e", "e v a"))
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, g *botGame)
		commit int // how many times commit is called
	}{
		{"unchanged", func(*testing.T, *botGame) {}, 1},
		{"stepped", func(t *testing.T, g *botGame) { _ = g.c.Step(); g.post(t, frames+2) }, 1},
		{"posted", func(t *testing.T, g *botGame) {
			for id := range crowd.ID(n) {
				if err := g.c.Post(id, testID(t, old, "k")); err != nil && !errors.Is(err, crowd.ErrNotFound) {
					t.Fatal(err)
				}
			}
		}, 1},
		{"added", func(t *testing.T, g *botGame) {
			if err := g.c.Add(n+3, newBot(3, 99)); err != nil {
				t.Fatal(err)
			}
		}, 1},
		{"removed through the machine", func(t *testing.T, g *botGame) {
			for id := range crowd.ID(n) {
				if _, ok := g.c.Machine().StateOf(id); ok {
					if err := g.c.Machine().Remove(id); err != nil {
						t.Fatal(err)
					}
					return
				}
			}
		}, 1},
		{"restored", func(t *testing.T, g *botGame) {
			var s tablecrowd.Snapshot[bot]
			g.c.Snapshot(&s)
			s.Posted = nil
			if err := g.c.Restore(&s); err != nil {
				t.Fatal(err)
			}
		}, 1},
		{"not committed", func(t *testing.T, g *botGame) { _ = g.c.Step() }, 0},
		{"committed twice", func(*testing.T, *botGame) {}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := playedGame(t, old, n, frames), playedGame(t, old, n, frames)
			mpA := mapping(old, nt)
			commit, err := a.c.PrepareReload(nt, mpA)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(t, a)
			tc.change(t, b)
			for range tc.commit {
				commit()
			}
			mpB := mapping(old, nt)
			if tc.commit > 0 {
				if err := b.c.Reload(nt, mpB); err != nil {
					t.Fatal(err)
				}
				bind(a.h, nt)
				bind(b.h, nt)
			} else if a.c.Table() != old {
				t.Fatal("a commit not called changed the table")
			}
			if got, want := fmt.Sprint(mpA.Moved), fmt.Sprint(mpB.Moved); tc.commit > 0 && got != want {
				t.Errorf("Moved = %v, want %v", got, want)
			}
			compareGames(t, a, b, a.frame, 10)
			if tc.commit > 1 {
				commit() // after steps: does nothing
				var sa, sb tablecrowd.Snapshot[bot]
				if !bytes.Equal(a.save(t, &sa), b.save(t, &sb)) || a.c.Table() != nt {
					t.Error("a second commit changed the crowd")
				}
			}
		})
	}

	t.Run("after another reload", func(t *testing.T) {
		g := playedGame(t, old, n, frames)
		commit, err := g.c.PrepareReload(nt, mapping(old, nt))
		if err != nil {
			t.Fatal(err)
		}
		same := mustSpec(t, editSpec(stackSpec, "", "", func(f []string) bool { return strings.Join(f, " ") == "a q final" }, "a q b"))
		if err := g.c.Reload(same, mapping(old, same)); err != nil {
			t.Fatal(err)
		}
		commit()
		if g.c.Table() != same {
			t.Error("a commit prepared before another reload moved the crowd")
		}
	})
}

// TestReloadCommitCannotRedo checks the one case where a commit that finds
// the crowd changed cannot redo the move: a stack grew deeper than the new
// table allows. The crowd stays on its table, as it was.
func TestReloadCommitCannotRedo(t *testing.T) {
	old := mustSpec(t, "options stack 2\na x b push\nb x c push\nc r return\nb r return")
	nt := mustSpec(t, "options stack 1\na x bee push\nbee x c push\nc r return\nbee r return")
	p := newProbe(old, "x")
	c, err := tablecrowd.New(old, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(0, p); err != nil {
		t.Fatal(err)
	}
	mp := mapping(old, nt)
	commit, err := c.PrepareReload(nt, mp)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // a → b → c: a stack of 2
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
	}
	commit()
	var s tablecrowd.Snapshot[*probe]
	c.Snapshot(&s)
	if c.Table() != old || len(s.Stacks) != 1 || len(s.Stacks[0].States) != 2 || len(mp.Moved) != 0 {
		t.Errorf("after a commit that could not redo the move: table %q (the old: %t), stacks %v, moved %v; want the crowd as it was", c.Table().Name(), c.Table() == old, s.Stacks, mp.Moved)
	}
	p.holds = map[string]bool{"r": true}
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	if st, _ := c.Machine().StateOf(0); old.StateName(table.StateID(st)) != "b" {
		t.Errorf("after a return, the entity is in %q, want b", old.StateName(table.StateID(st)))
	}
	commit() // the stack fits now, but the commit is spent
	if c.Table() != old {
		t.Error("a commit called again after one that could not redo the move moved the crowd")
	}
}

// TestReloadObservers checks that the crowd's observer stays attached
// across a reload, whether the states change or not, and reports the new
// table's states and tests; and that the machine's stays too, the machine
// being kept.
func TestReloadObservers(t *testing.T) {
	v1 := goombaTable(t)
	v2, err := buildGoombaV2()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		to    *table.Table
		hitTo string // where a hit goomba goes
	}{
		{"states changed", v2, "stunned"},
		{"same states", v1, "dying"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, frame := goombaCrowd(t, 64, crowd.Options[goomba]{})
			defer c.Close()
			var crowdLog, machineLog eventLog
			c.Observe(&crowdLog)
			c.Machine().Observe(&machineLog)
			for range 3 {
				if err := frame(); err != nil {
					t.Fatal(err)
				}
			}
			crowdLog.take(nil)
			machineLog.take(nil)
			if err := c.Reload(tc.to, mapping(v1, tc.to)); err != nil {
				t.Fatal(err)
			}
			walking := 0 // the goombas a hit moves
			for id := range crowd.ID(64) {
				if err := c.Post(id, hitByPlayer); err != nil {
					t.Fatal(err)
				}
				if s, _ := c.Machine().StateOf(id); strings.HasPrefix(tc.to.StateName(table.StateID(s)), "walk") {
					walking++
				}
			}
			if walking < 60 {
				t.Fatalf("%d goombas walking: the test exercises too little", walking)
			}
			if err := c.Step(); err != nil {
				t.Fatal(err)
			}
			hits := 0
			for _, ev := range crowdLog.take(nil) {
				if ev.Cause == machine.CauseMessage && tc.to.StateName(table.StateID(ev.To)) == tc.hitTo && ev.Trigger == int32(hitByPlayer) {
					hits++
				}
			}
			if hits != walking {
				t.Errorf("the crowd's observer saw %d goombas hit into %s after the reload, want %d", hits, tc.hitTo, walking)
			}
			if got := len(machineLog.take(nil)); got < walking {
				t.Errorf("the machine's observer saw %d events after the reload, want at least %d", got, walking)
			}
		})
	}
}

// TestReloadKeepsOptions checks that a crowd reloaded onto a table whose
// states differ keeps its machine and the machine's options: the largest
// ID, OnFinal, the number of workers.
func TestReloadKeepsOptions(t *testing.T) {
	old := mustSpec(t, "a x b\nb y final")
	nt := mustSpec(t, "a x bee\nbee y final\nbee z a")
	var finals []crowd.ID
	c, err := tablecrowd.New(old, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{
		MaxID:   100,
		OnFinal: func(id crowd.ID, _ **probe) { finals = append(finals, id) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Machine().SetWorkers(3); err != nil {
		t.Fatal(err)
	}
	p := newProbe(old, "x", "y")
	if err := c.Add(100, p); err != nil {
		t.Fatal(err)
	}
	m := c.Machine()
	if err := c.Reload(nt, mapping(old, nt)); err != nil {
		t.Fatal(err)
	}
	p.t = nt
	if c.Machine() != m {
		t.Fatal("the crowd did not keep its machine")
	}
	if got := c.Machine().Workers(); got != 3 {
		t.Errorf("Workers() = %d after the reload, want 3", got)
	}
	if got := c.Machine().MaxID(); got != 100 {
		t.Errorf("MaxID() = %d after the reload, want 100", got)
	}
	if err := c.Add(101, newProbe(nt)); err == nil {
		t.Error("Add(101) succeeded after the reload, above MaxID")
	}
	for range 2 { // a → bee → final
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(finals, []crowd.ID{100}) {
		t.Errorf("OnFinal saw %v after the reload, want [100]", finals)
	}
}

// TestReloadStackLimit checks reloads that change the stack limit, which
// lay the stacks out anew: a stack of two states kept, renamed, onto a
// deeper limit, and returned from; a table that stops pushing, reached
// when no stack is left, and one that pushes again.
func TestReloadStackLimit(t *testing.T) {
	old := mustSpec(t, "options stack 2\na x b push\nb y c push\nc r return\nb r return")
	deeper := mustSpec(t, "options stack 4\na x bee push\nbee y c push\nc r return\nbee r return")
	flat := mustSpec(t, "a x bee\nbee y c\nc r bee")
	c, err := tablecrowd.New(old, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, idle := newProbe(old, "x", "y"), newProbe(old)
	for id, e := range []*probe{p, idle, newProbe(old, "x")} {
		if err := c.Add(crowd.ID(id), e); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // a → b → c: a stack of 2 for entity 0, of 1 for entity 2
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
	}
	_ = c.Machine().Remove(2) // its stack goes with it
	// check checks the crowd's state names and stacks, by name, entity by
	// entity.
	check := func(when string, want ...string) {
		t.Helper()
		var s tablecrowd.Snapshot[*probe]
		c.Snapshot(&s)
		var got []string
		for id := range crowd.ID(2) {
			st, _ := c.Machine().StateOf(id)
			entry := c.Table().StateName(table.StateID(st))
			for _, stack := range s.Stacks {
				if stack.ID == id {
					for _, q := range stack.States {
						entry += " " + c.Table().StateName(q)
					}
				}
			}
			got = append(got, entry)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the entities and their stacks are %q, want %q", when, got, want)
		}
	}
	check("before the reloads", "c a b", "a")
	mp := mapping(old, deeper)
	mp.To[1] = 1 // b renamed bee
	if err := c.Reload(deeper, mp); err != nil {
		t.Fatal(err)
	}
	check("onto a deeper stack", "c a bee", "a")
	p.t, idle.t, p.holds = deeper, deeper, map[string]bool{"r": true}
	for range 2 {
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
	}
	check("returned twice", "a", "a")
	if err := c.Reload(flat, mapping(deeper, flat)); err != nil {
		t.Fatal(err)
	}
	p.t, idle.t, p.holds = flat, flat, map[string]bool{"x": true}
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	check("onto a table that never pushes", "bee", "a")
	back := mapping(flat, deeper)
	if err := c.Reload(deeper, back); err != nil {
		t.Fatal(err)
	}
	p.t, idle.t, p.holds = deeper, deeper, map[string]bool{"y": true}
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	check("pushing again", "c bee", "a")
	if len(mp.Moved)+len(back.Moved) != 0 {
		t.Errorf("moved %v and %v, want none", mp.Moved, back.Moved)
	}
}
