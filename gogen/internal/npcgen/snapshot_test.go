package npcgen

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// npc records the game actions of an NPC and answers SeesPlayer.
type npc struct {
	sees  bool
	anims []Anim
}

func (n *npc) SeesPlayer() bool { return n.sees }
func (n *npc) Anim(v Anim)      { n.anims = append(n.anims, v) }

// remembering returns an NPC back on alert from its deep history, with its
// give-up timer pending and a calm and a noise waiting: the snapshot then
// holds every list a statechart's has but the stack.
func remembering(tb testing.TB, h *npc) Machine {
	tb.Helper()
	m := NewMachine(h)
	for _, step := range []struct {
		now float64
		msg Message
	}{{0, MessageNoise}, {0.5, MessageCalm}, {0.5, MessageNoise}} {
		m.SetTime(step.now)
		if err := m.Post(step.msg); err != nil {
			tb.Fatal(err)
		}
		if _, err := m.Update(h); err != nil {
			tb.Fatal(err)
		}
	}
	m.Post(MessageCalm)
	m.Post(MessageNoise)
	return m
}

// TestSnapshot checks the snapshot of the NPC back on alert: its fields,
// its bytes (table's format 1, worked out by hand here), and that the
// machine restored from them goes on as the one saved.
func TestSnapshot(t *testing.T) {
	h := &npc{}
	m := remembering(t, h)
	var s Snapshot
	m.Snapshot(&s)
	want := Snapshot{State: StateAim, Active: []State{StateAlert, StateCombat, StateWeapon, StateAim, StateMovement, StateChase},
		History:  []Recorded{{History: StateAlertHistory, States: []State{StateAim, StateChase}}},
		External: []Test{TestCalm, TestNoise}, Timers: []PendingTimer{{Timer: 0, Event: TestGiveUp, Due: 2.5}}, Now: 0.5}
	if fmt.Sprintf("%+v", s) != fmt.Sprintf("%+v", want) {
		t.Fatalf("Snapshot() = %+v\nwant         %+v", s, want)
	}
	b, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	const wantHex = "02" + // flags: a statechart, not done
		"0a" + // state 5 (aim), zig-zag
		"00" + "00" + // no stack, no posted messages
		"06" + "010304050709" + // active
		"01" + "02" + "020509" + // history: alertHistory recorded aim, chase
		"00" + // internal queue
		"02" + "0100" + // external queue: calm, noise
		"01" + "00" + "02" + "0000000000000440" + // timers: search, giveUp, due 2.5
		"000000000000e03f" + // now: 0.5
		"00" // saved configurations
	if got := hex.EncodeToString(b); got != wantHex {
		t.Fatalf("AppendBinary() = %s\nwant             %s", got, wantHex)
	}
	var back Snapshot
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	r, err := RestoreMachine(&back)
	if err != nil {
		t.Fatal(err)
	}
	hr := &npc{}
	for i, now := range []float64{0.5, 0.5, 2, 2.5, 3} {
		m.SetTime(now)
		r.SetTime(now)
		h.anims, hr.anims = h.anims[:0], hr.anims[:0]
		rm, em := m.Update(h)
		rr, er := r.Update(hr)
		var sm, sr Snapshot
		m.Snapshot(&sm)
		r.Snapshot(&sr)
		if rm != rr || fmt.Sprint(em) != fmt.Sprint(er) || !slices.Equal(h.anims, hr.anims) || fmt.Sprintf("%+v", sm) != fmt.Sprintf("%+v", sr) {
			t.Errorf("update %d: restored %+v, %v, %v, %+v; want %+v, %v, %v, %+v", i, rr, er, hr.anims, sr, rm, em, h.anims, sm)
		}
	}
}

// TestRestoreHistory refuses history records that are not one the chart
// can make, and timers that are not the table's.
func TestRestoreHistory(t *testing.T) {
	const pre = `npcgen: table "npc": RestoreMachine: `
	for _, c := range []struct {
		edit func(s *Snapshot)
		want string
	}{
		{func(s *Snapshot) { s.History[0].History = StateAlert }, `history record 0: "alert" is not a history state`},
		{func(s *Snapshot) { s.History = append(s.History, s.History[0]) }, `history state "alertHistory": recorded twice`},
		{func(s *Snapshot) { s.History[0].States = []State{StatePatrol} }, `history state "alertHistory": recorded "patrol", which is not inside its parent "alert"`},
		{func(s *Snapshot) { s.History[0].States = []State{StateWeapon, StateChase} }, `history state "alertHistory": recorded "weapon", which is not an atomic state`},
		{func(s *Snapshot) { s.History[0].States = []State{StateAim} },
			`history state "alertHistory": what it recorded is no configuration of "alert": parallel state "combat" is active, but not its region "movement"`},
		{func(s *Snapshot) { s.History[0].States = nil },
			`history state "alertHistory": what it recorded is no configuration of "alert": compound state "alert" is active with 0 active children; one is`},
		{func(s *Snapshot) { s.Timers[0].Timer = 1 }, "pending send 0: Timer(1) is not a timer of the table"},
		{func(s *Snapshot) { s.Timers[0].Event = TestSeesPlayer }, `pending send 0: "seesPlayer" is not an event (a message test) of the table`},
		{func(s *Snapshot) { s.Timers[0].Due = math.NaN() }, "pending send 0: its due time is NaN"},
	} {
		var s Snapshot
		m := remembering(t, &npc{})
		m.Snapshot(&s)
		c.edit(&s)
		if m, err := RestoreMachine(&s); err == nil || err.Error() != pre+c.want || m.State() != NoState {
			t.Errorf("RestoreMachine(%+v) = %v, %v\nwant the error %s", s, m.State(), err, pre+c.want)
		}
	}
}

// TestSnapshotAllocations checks that taking a snapshot into a value that
// has grown, writing it into a buffer with room, reading it back into a
// snapshot that has grown, and restoring allocate nothing.
func TestSnapshotAllocations(t *testing.T) {
	m := remembering(t, &npc{})
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

// BenchmarkSave saves and restores the NPC back on alert (its history
// recorded, a send pending, two events queued): Snapshot, AppendBinary,
// UnmarshalBinary and the restore, into values and a buffer that have
// grown; table.Agent on the same table, in the same state, is the
// baseline.
func BenchmarkSave(b *testing.B) {
	b.Run("gen", func(b *testing.B) {
		m := remembering(b, &npc{})
		var s, back Snapshot
		var buf []byte
		for b.Loop() {
			m.Snapshot(&s)
			buf, _ = s.AppendBinary(buf[:0])
			if err := back.UnmarshalBinary(buf); err != nil {
				b.Fatal(err)
			}
			if _, err := RestoreMachine(&back); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes/save")
	})
	b.Run("table", func(b *testing.B) {
		tbl := fixtures.NPC()
		h := &seesHost{}
		var th table.Host[int] = tableHost{h}
		a := table.NewAgent(tbl, 0, th)
		for _, step := range []struct {
			now float64
			msg Message
		}{{0, MessageNoise}, {0.5, MessageCalm}, {0.5, MessageNoise}} {
			a.SetTime(step.now)
			_ = a.Post(table.TestID(step.msg.Test()))
			_, _ = a.Update(th)
		}
		_ = a.Post(table.TestID(TestCalm))
		_ = a.Post(table.TestID(TestNoise))
		var s, back table.Snapshot
		var buf []byte
		for b.Loop() {
			a.Snapshot(&s)
			buf, _ = s.AppendBinary(buf[:0])
			if err := back.UnmarshalBinary(buf); err != nil {
				b.Fatal(err)
			}
			if _, err := table.RestoreAgent(tbl, 0, &back); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes/save")
	})
}

// FuzzRestore reads arbitrary bytes as a save of the NPC in both runtimes:
// the generated code must accept exactly the saves table.Agent accepts
// (UnmarshalBinary then the restore), without panicking, and the machines
// restored must save the same bytes.
func FuzzRestore(f *testing.F) {
	h := &npc{}
	m := remembering(f, h)
	for _, now := range []float64{0.5, 0.5, 3, 3} {
		var s Snapshot
		m.Snapshot(&s)
		b, _ := s.AppendBinary(nil)
		f.Add(b)
		m.SetTime(now)
		m.Update(h)
	}
	tbl := fixtures.NPC()
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Snapshot
		var as table.Snapshot
		gerr := s.UnmarshalBinary(b)
		var g Machine
		if gerr == nil {
			g, gerr = RestoreMachine(&s)
		}
		aerr := as.UnmarshalBinary(b)
		var a table.Agent[int]
		if aerr == nil {
			a, aerr = table.RestoreAgent(tbl, 0, &as)
		}
		if (gerr == nil) != (aerr == nil) {
			t.Fatalf("%x: generated: %v; table: %v", b, gerr, aerr)
		}
		if gerr != nil {
			return
		}
		var gs Snapshot
		g.Snapshot(&gs)
		gb, err1 := gs.AppendBinary(nil)
		a.Snapshot(&as)
		ab, err2 := as.AppendBinary(nil)
		if err1 != nil || err2 != nil || !bytes.Equal(gb, ab) {
			t.Fatalf("%x restored: generated saves %x, %v; table %x, %v", b, gb, err1, ab, err2)
		}
	})
}
