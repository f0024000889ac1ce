package goombagen

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// TestDifferential runs the generated machine, hosted by *Goomba, and
// table.Agent, hosted by world over the same entity, on two copies of a
// crowd of goombas through the same random frames: the goombas move, are
// nudged past or short of their triggers, are hit (Receive) or sent a hit
// for the next update (Post), are saved and restored, and update. Results,
// errors, states, snapshots and the entities themselves (which the entry
// actions set) must stay the same. A save is in binary form: the generated
// machine's bytes must be the agent's, and the generated machine is
// restored from the agent's save, the agent (every other time) from the
// generated machine's.
func TestDifferential(t *testing.T) {
	tbl := fixtures.Goomba()
	const n = 64
	var steps, finals, saves int
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 1))
		gs, ts := make([]Goomba, n), make([]Goomba, n)
		as := make([]table.Agent[*Goomba], n)
		start := func(i int) {
			spawn(&gs[i], i)
			gs[i].fsm = NewMachine(&gs[i])
			spawn(&ts[i], i)
			as[i] = table.NewAgent(tbl, &ts[i], world{})
		}
		for i := range n {
			start(i)
		}
		for frame := range 3000 {
			for i := range n {
				g, e, a := &gs[i], &ts[i], &as[i]
				check := func(what string, r Result, err error, ar table.Result, aerr error) {
					t.Helper()
					if tableResult(r) != ar || !sameErr(err, aerr) || tableState(g.fsm.State()) != a.State() ||
						g.fsm.Done() != a.Done() || g.fsm.String() != a.String() || entity(g) != entity(e) {
						t.Fatalf("seed %d, frame %d, goomba %d: %s:\ngenerated   %+v, %v in %s, %+v\ntable.Agent %+v, %v in %s, %+v",
							seed, frame, i, what, tableResult(r), err, g.fsm.String(), entity(g), ar, aerr, a.String(), entity(e))
					}
				}
				g.step()
				e.step()
				if rng.IntN(8) == 0 {
					d := int32(rng.IntN(9) - 4)
					g.x += d
					e.x += d
				}
				if rng.IntN(300) == 0 {
					g.fsm.Post(MessageHitByPlayer)
					if err := a.Post(table.TestID(TestHitByPlayer)); err != nil {
						t.Fatal(err)
					}
				}
				if rng.IntN(400) == 0 {
					r, err := g.fsm.Receive(g, MessageHitByPlayer)
					ar, aerr := a.Receive(world{}, table.TestID(TestHitByPlayer))
					check("Receive", r, err, ar, aerr)
				}
				if rng.IntN(100) == 0 {
					saves++
					saveLoad(t, g, a, e, tbl, rng.IntN(2) == 0)
				}
				r, err := g.fsm.Update(g)
				ar, aerr := a.Update(world{})
				check("Update", r, err, ar, aerr)
				steps += int(ar.Steps)
				if ar.Final() && rng.IntN(2) == 0 {
					finals++
					start(i)
				}
			}
		}
	}
	if steps < 10000 || finals < 100 || saves < 1000 {
		t.Errorf("%d transitions, %d goombas finished and %d saves; want more", steps, finals, saves)
	}
}

// saveLoad saves goomba g's generated machine and its agent a (of entity
// e) to bytes, which must be the same, and restores the generated machine
// from the agent's save; with both, the agent from the generated
// machine's save too (otherwise it goes on uninterrupted).
func saveLoad(t *testing.T, g *Goomba, a *table.Agent[*Goomba], e *Goomba, tbl *table.Table, both bool) {
	t.Helper()
	var s Snapshot
	var as table.Snapshot
	g.fsm.Snapshot(&s)
	a.Snapshot(&as)
	gb, gerr := s.AppendBinary(nil)
	ab, aerr := as.AppendBinary(nil)
	if gerr != nil || aerr != nil || !bytes.Equal(gb, ab) {
		t.Fatalf("AppendBinary: %x, %v (generated, %+v); want %x, %v (table, %+v)", gb, gerr, s, ab, aerr, as)
	}
	var s2 Snapshot
	if err := s2.UnmarshalBinary(ab); err != nil {
		t.Fatal(err)
	}
	m, err := RestoreMachine(&s2)
	if err != nil {
		t.Fatal(err)
	}
	g.fsm = m
	if !both {
		return
	}
	var as2 table.Snapshot
	if err := as2.UnmarshalBinary(gb); err != nil {
		t.Fatal(err)
	}
	if *a, err = table.RestoreAgent(tbl, e, &as2); err != nil {
		t.Fatal(err)
	}
}

func entity(g *Goomba) Goomba {
	c := *g
	c.fsm = Machine{}
	return c
}

func tableState(s State) table.StateID {
	switch s {
	case Final:
		return table.Final
	case NoState:
		return table.NoState
	}
	return table.StateID(s)
}

func tableResult(r Result) table.Result {
	t := table.TestID(r.Test)
	if r.Test == NoTest {
		t = table.NoTest
	}
	return table.Result{From: tableState(r.From), To: tableState(r.To), Test: t, Steps: r.Steps}
}

func sameErr(err, aerr error) bool {
	switch {
	case err == nil || aerr == nil:
		return err == nil && aerr == nil
	case errors.Is(err, ErrNotStarted):
		return errors.Is(aerr, table.ErrNoTable)
	case errors.Is(err, ErrReentrant):
		return errors.Is(aerr, table.ErrReentrant)
	}
	return false
}

// TestMachine checks the zero machine, a done machine and the names.
func TestMachine(t *testing.T) {
	g := &Goomba{}
	var zero Machine
	if r, err := zero.Update(g); err != ErrNotStarted || r != (Result{From: NoState, To: NoState, Test: NoTest}) {
		t.Errorf("zero.Update() = %+v, %v; want ErrNotStarted", r, err)
	}
	zero.Post(MessageHitByPlayer)
	var s Snapshot
	zero.Snapshot(&s)
	if s.State != NoState || len(s.Posted) != 0 || zero.String() != "none" {
		t.Errorf("zero machine after a Post: %+v %q", s, zero.String())
	}

	m := NewMachine(g)
	if g.vx != -1 || g.anim != AnimationMoveLeft || m.String() != "walkLeft" {
		t.Fatalf("NewMachine: %+v in %s; want walking left", *g, m.String())
	}
	if r, err := m.Receive(g, MessageHitByPlayer); err != nil || r != (Result{From: StateWalkLeft, To: StateDying, Test: TestHitByPlayer, Steps: 1}) {
		t.Fatalf("Receive(hit) = %+v, %v", r, err)
	}
	g.animFrames = deathFrames
	if r, err := m.Update(g); err != nil || !r.Final() || !r.Moved() || !m.Done() || m.String() != "dying (done)" {
		t.Fatalf("Update() = %+v, %v in %s; want final", r, err, m.String())
	}
	m.Post(MessageHitByPlayer)
	if r, err := m.Update(g); err != nil || !r.Final() || r.Moved() {
		t.Errorf("Update() when done = %+v, %v", r, err)
	}
	m.Snapshot(&s)
	if s.State != StateDying || !s.Done || len(s.Posted) != 0 {
		t.Errorf("Snapshot() = %+v", s)
	}
}

// TestAllocations checks that updates allocate nothing.
func TestAllocations(t *testing.T) {
	gs := make([]Goomba, 16)
	for i := range gs {
		spawn(&gs[i], i)
		gs[i].fsm = NewMachine(&gs[i])
	}
	frame := 0
	if n := testing.AllocsPerRun(1000, func() {
		for i := range gs {
			g := &gs[i]
			g.step()
			if hitAt(frame, i) {
				g.fsm.Receive(g, MessageHitByPlayer)
			}
			if r, _ := g.fsm.Update(g); r.Final() {
				spawn(g, i)
				g.fsm = NewMachine(g)
			}
		}
		frame++
	}); n != 0 {
		t.Errorf("a frame allocates %v times, want 0", n)
	}
}

// Example runs one goomba from the generated code: it walks left to its
// trigger, turns, is hit by the player and dies.
func Example() {
	g := &Goomba{left: -2, right: 2}
	m := NewMachine(g)
	for frame := range 40 {
		g.step()
		if frame == 6 {
			r, _ := m.Receive(g, MessageHitByPlayer)
			fmt.Printf("frame %d: hit: %v → %v\n", frame, r.From, r.To)
		}
		r, err := m.Update(g)
		if err != nil {
			fmt.Println(err)
			return
		}
		if r.Moved() {
			fmt.Printf("frame %d: x=%d %v: %v → %v\n", frame, g.x, r.Test, r.From, r.To)
		}
		if r.Final() {
			break
		}
	}
	// Output:
	// frame 1: x=-2 hitTriggerLeft: walkLeft → walkRight
	// frame 5: x=2 hitTriggerRight: walkRight → walkLeft
	// frame 6: hit: walkLeft → dying
	// frame 36: x=1 animationDone: dying → final
}

// TestSnapshotBinary checks the binary form of a goomba's snapshot (table's
// format 1, worked out by hand here), what UnmarshalBinary refuses, and
// that saving and restoring allocate nothing.
func TestSnapshotBinary(t *testing.T) {
	for _, c := range []struct {
		s    Snapshot
		want string
	}{
		{Snapshot{State: NoState}, "00070000"},
		{Snapshot{State: StateWalkRight}, "00020000"},
		{Snapshot{State: StateDying, Done: true, Posted: []Message{MessageHitByPlayer}}, "0104000102"},
	} {
		b, err := c.s.AppendBinary(nil)
		if got := hex.EncodeToString(b); err != nil || got != c.want {
			t.Errorf("AppendBinary(%+v) = %s, %v; want %s", c.s, got, err, c.want)
		}
		var back Snapshot
		if err := back.UnmarshalBinary(b); err != nil || fmt.Sprintf("%+v", back) != fmt.Sprintf("%+v", c.s) {
			t.Errorf("UnmarshalBinary(%s) = %+v, %v", c.want, back, err)
		}
	}
	if b, err := (&Snapshot{Posted: []Message{1}}).AppendBinary([]byte{9}); err == nil || len(b) != 1 {
		t.Errorf("AppendBinary of a bad message = %x, %v; want an error", b, err)
	}
	ok := Snapshot{State: StateWalkLeft, Posted: []Message{MessageHitByPlayer}}
	const pre = `goombagen: table "goomba": Snapshot.UnmarshalBinary: `
	for _, c := range []struct{ hex, want string }{
		{"", "byte 0: truncated"},
		{"02000000", "byte 1: a statechart's snapshot; this table is flat"},
		{"04000000", "byte 1: unknown flags 4"},
		{"0006", "byte 2: state 3 is neither a state of the table nor a marker it has"},
		{"00000100", "byte 3: a stack; this table has none"},
		{"00000001", "byte 4: 1 posted messages, more than the 0 bytes left can hold"},
		{"0000000100", `byte 5: posted "hitTriggerLeft" is not a message`},
		{"0000000104", "byte 5: posted message 4: the table has 4 tests"},
		{"000000020202", "byte 6: posted message 2 after 2: not ascending"},
		{"0000000000", "byte 4: 1 bytes left over"},
	} {
		s := ok
		b, _ := hex.DecodeString(c.hex)
		if err := s.UnmarshalBinary(b); err == nil || err.Error() != pre+c.want {
			t.Errorf("UnmarshalBinary(%s) = %v\nwant %s", c.hex, err, pre+c.want)
		}
		if fmt.Sprintf("%+v", s) != fmt.Sprintf("%+v", ok) {
			t.Errorf("UnmarshalBinary(%s) changed the snapshot: %+v", c.hex, s)
		}
	}

	m := NewMachine(&Goomba{})
	m.Post(MessageHitByPlayer)
	var s, back Snapshot
	m.Snapshot(&s)
	buf, _ := s.AppendBinary(nil)
	back.UnmarshalBinary(buf)
	if n := testing.AllocsPerRun(100, func() {
		m.Snapshot(&s)
		buf, _ = s.AppendBinary(buf[:0])
		if err := back.UnmarshalBinary(buf); err != nil {
			t.Fatal(err)
		}
		if _, err := RestoreMachine(&back); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("a save and a restore allocate %v times, want 0", n)
	}
}
