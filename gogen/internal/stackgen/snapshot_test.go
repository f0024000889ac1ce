package stackgen

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// stunned returns the sentry stunned with the patrol pushed (legA saved)
// and then the whole alert (an any-state push: aim and look saved).
func stunned(t *testing.T, h *sentryHost) Machine {
	t.Helper()
	m := NewMachine(h)
	for range 2 {
		if err := m.Post(MessageHit); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Update(h); err != nil {
			t.Fatal(err)
		}
	}
	if got := m.Active(nil); !slices.Equal(got, []State{StateStunned}) || m.Depth() != 2 {
		t.Fatalf("Active() = %v, Depth() = %d; want stunned, 2", got, m.Depth())
	}
	return m
}

// TestSnapshot takes a snapshot of the stunned sentry and checks its
// fields, its bytes (table's format 1, worked out by hand here) and that
// the machine restored from them goes on as the one saved.
func TestSnapshot(t *testing.T) {
	h := &sentryHost{}
	m := stunned(t, h)
	m.SetTime(1.5)
	var s Snapshot
	m.Snapshot(&s)
	want := Snapshot{State: StateStunned, Stack: []State{StatePatrol, AnyState}, Active: []State{StateStunned},
		Now: 1.5, Saved: [][]State{{StateLegA}, {StateAim, StateLook}}}
	if fmt.Sprintf("%+v", s) != fmt.Sprintf("%+v", want) {
		t.Fatalf("Snapshot() = %+v\nwant         %+v", s, want)
	}
	b, err := s.AppendBinary([]byte{0xAA})
	if err != nil {
		t.Fatal(err)
	}
	const wantHex = "aa" +
		"02" + // flags: a statechart, not done
		"16" + // state 11 (stunned), zig-zag
		"02" + "00" + "05" + // stack: patrol, AnyState (-3)
		"00" + // no posted messages
		"01" + "0b" + // active: stunned
		"00" + "00" + "00" + "00" + // history, internal, external, timers
		"000000000000f83f" + // now: 1.5
		"02" + "0101" + "020508" // saved: {legA}, {aim, look}
	if got := hex.EncodeToString(b); got != wantHex {
		t.Fatalf("AppendBinary() = %s\nwant             %s", got, wantHex)
	}
	var s2 Snapshot
	if err := s2.UnmarshalBinary(b[1:]); err != nil || fmt.Sprintf("%+v", s2) != fmt.Sprintf("%+v", want) {
		t.Fatalf("UnmarshalBinary() = %+v, %v", s2, err)
	}
	r, err := RestoreMachine(&s2)
	if err != nil {
		t.Fatal(err)
	}
	if r.State() != StateStunned || r.Depth() != 2 || r.Time() != 1.5 || r.Done() {
		t.Fatalf("restored: %v, depth %d, time %v", r.State(), r.Depth(), r.Time())
	}
	// Healthy: the eventless return to the alert's regions, then a clear
	// back to the leg saved with the patrol.
	hr := &sentryHost{}
	for i, post := range [][]Message{nil, {MessageClear}, {MessageClear}} {
		h.healthy, hr.healthy = true, true
		for _, msg := range post {
			m.Post(msg)
			r.Post(msg)
		}
		rm, em := m.Update(h)
		rr, er := r.Update(hr)
		if rm != rr || fmt.Sprint(em) != fmt.Sprint(er) || !slices.Equal(m.Active(nil), r.Active(nil)) || m.Depth() != r.Depth() {
			t.Errorf("update %d: restored %+v, %v in %v (depth %d); want %+v, %v in %v (depth %d)",
				i, rr, er, r.Active(nil), r.Depth(), rm, em, m.Active(nil), m.Depth())
		}
	}
	if !slices.Equal(h.anims, append(slices.Clone(h.anims[:len(h.anims)-len(hr.anims)]), hr.anims...)) || len(hr.anims) == 0 {
		t.Errorf("game actions: restored %v, want the end of %v", hr.anims, h.anims)
	}

	var zero Machine
	zero.Snapshot(&s)
	if fmt.Sprintf("%+v", s) != fmt.Sprintf("%+v", Snapshot{State: NoState, Stack: []State{}, Active: []State{}, Saved: [][]State{}}) {
		t.Errorf("zero.Snapshot() = %+v", s)
	}
	if b, _ := s.AppendBinary(nil); hex.EncodeToString(b) != "020700000000000000000000000000000000" {
		t.Errorf("zero machine's AppendBinary() = %x", b)
	}
}

// TestRestore restores a snapshot without active states, which enters
// State as a transition would, and refuses every kind of bad snapshot
// with an error that says what is wrong, returning a zero machine.
func TestRestore(t *testing.T) {
	for _, c := range []struct {
		state, shows State
		active       []State
	}{
		{StatePatrol, StateLegA, []State{StatePatrol, StateLegA}},
		{StateLegB, StateLegB, []State{StatePatrol, StateLegB}},
		{StateAlert, StateAim, []State{StateAlert, StateWeapon, StateAim, StateWatch, StateLook}},
		{StateListen, StateAim, []State{StateAlert, StateWeapon, StateAim, StateWatch, StateListen}},
	} {
		m, err := RestoreMachine(&Snapshot{State: c.state})
		if got := m.Active(nil); err != nil || !slices.Equal(got, c.active) || m.State() != c.shows {
			t.Errorf("RestoreMachine(State %v) = %v showing %v, %v; want %v showing %v", c.state, got, m.State(), err, c.active, c.shows)
		}
	}

	ok := func() Snapshot {
		return Snapshot{State: StateLegA, Active: []State{StatePatrol, StateLegA}}
	}
	const pre = `stackgen: table "sentry": RestoreMachine: `
	for _, c := range []struct {
		edit func(s *Snapshot)
		want string
	}{
		{func(s *Snapshot) { s.State = 12 }, "state State(12) is not a state of the table (it has 12)"},
		{func(s *Snapshot) { s.Active = []State{StatePatrol, 40} }, "active state State(40) is not a state of the table (it has 12)"},
		{func(s *Snapshot) { s.Done = true }, "done, with 2 active states (a machine that is done has none)"},
		{func(s *Snapshot) { s.Done, s.Active = true, nil }, `done in "legA", which is not a final state at the top`},
		{func(s *Snapshot) { s.Active = []State{StateLegA} }, `the configuration: state "legA" is active, but not its parent "patrol"`},
		{func(s *Snapshot) { s.Active = []State{StatePatrol} }, `the configuration: compound state "patrol" is active with 0 active children; one is`},
		{func(s *Snapshot) { s.Active = append(s.Active, StateLegB) }, `the configuration: compound state "patrol" is active with 2 active children; one is`},
		{func(s *Snapshot) { s.Active = append(s.Active, StateStunned) }, `the configuration: 2 states active at the top of the chart; one is`},
		{func(s *Snapshot) { s.State, s.Active = StateAim, []State{StateAlert, StateWeapon, StateAim} },
			`the configuration: parallel state "alert" is active, but not its region "watch"`},
		{func(s *Snapshot) { s.State = StateLegB }, `state "legB", but the configuration's first active atomic state is "legA"`},
		{func(s *Snapshot) { s.Stack, s.Saved = make([]State, 3), make([][]State, 3) }, "a stack of 3 states; the table's stack limit is 2"},
		{func(s *Snapshot) { s.Stack = []State{StateLegA} }, "0 saved configurations for a stack of 1 states (one each)"},
		{func(s *Snapshot) { s.Stack, s.Saved = []State{NoState}, [][]State{{StateLegA}} }, `stack entry 0: "none" is not a state a transition leaves`},
		{func(s *Snapshot) { s.Stack, s.Saved = []State{StateLegA}, [][]State{{StateLegB}} }, `stack entry 0 ("legA"): saved "legB", which is not inside it`},
		{func(s *Snapshot) { s.Stack, s.Saved = []State{StatePatrol}, [][]State{{StatePatrol}} }, `stack entry 0 ("patrol"): saved "patrol", which is not an atomic state`},
		{func(s *Snapshot) { s.Stack, s.Saved = []State{StatePatrol}, [][]State{{}} },
			`stack entry 0 ("patrol"): what it saved is no configuration of it: compound state "patrol" is active with 0 active children; one is`},
		{func(s *Snapshot) { s.Stack, s.Saved = []State{AnyState}, [][]State{{StateLegA, StateInvestigate}} },
			`stack entry 0: what it saved is no configuration of it: 2 states active at the top of the chart; one is`},
		{func(s *Snapshot) { s.History = []Recorded{{History: StatePatrol}} }, `history record 0: "patrol" is not a history state`},
		{func(s *Snapshot) { s.Internal = []Test{TestHealthy} }, `internal queue, event 0: "healthy" is not an event (a message test) of the table`},
		{func(s *Snapshot) { s.External = make([]Test, scQueueLimit+1) }, "33 events in the external queue; the table's queues hold 32"},
		{func(s *Snapshot) { s.Timers = make([]PendingTimer, scTimerLimit+1) }, "17 pending sends; the table allows 16"},
		{func(s *Snapshot) { s.Timers = []PendingTimer{{Timer: 0}} }, "pending send 0: Timer(0) is not a timer of the table"},
		{func(s *Snapshot) { s.Timers = []PendingTimer{{Timer: NoTimer, Event: TestCalm, Due: math.NaN()}} }, "pending send 0: its due time is NaN"},
		{func(s *Snapshot) {
			s.Timers = []PendingTimer{{Timer: NoTimer, Event: TestCalm, Due: 2}, {Timer: NoTimer, Event: TestCalm, Due: 1}}
		}, "pending send 1: due before the send listed before it: list them in firing order"},
		{func(s *Snapshot) { s.Now = math.NaN() }, "the time (Now) is NaN"},
	} {
		s := ok()
		c.edit(&s)
		m, err := RestoreMachine(&s)
		if err == nil || err.Error() != pre+c.want || m.State() != NoState {
			t.Errorf("RestoreMachine(%+v) = %v, %v\nwant the error %s", s, m.State(), err, pre+c.want)
		}
	}
	if _, err := RestoreMachine(nil); err == nil || err.Error() != pre+"no snapshot (nil)" {
		t.Errorf("RestoreMachine(nil) = %v", err)
	}
}

// TestUnmarshalBinary refuses bytes that are not a snapshot of the
// sentry, saying where and why, and leaves the snapshot as it was.
func TestUnmarshalBinary(t *testing.T) {
	const good = "02" + "16" + "02" + "00" + "05" + "00" + "01" + "0b" + "00000000" + "000000000000f83f" + "02" + "0101" + "020508"
	var ok Snapshot
	if err := ok.UnmarshalBinary(mustHex(t, good)); err != nil {
		t.Fatal(err)
	}
	const pre = `stackgen: table "sentry": Snapshot.UnmarshalBinary: `
	for _, c := range []struct{ hex, want string }{
		{"", "byte 0: truncated"},
		{"00", "byte 1: a flat table's snapshot; this table is a statechart"},
		{"0a", "byte 1: unknown flags 10"},
		{"0218", "byte 2: state 12 is neither a state of the table nor a marker it has"},
		{"0201", "byte 2: truncated or overlong number"},
		{"020009", "byte 3: 9 stack entries, more than the 0 bytes left can hold"},
		{"02000000" + "01" + "0c", "byte 6: active state 12: the table has 12 states"},
		{"02000000" + "02" + "0b0a", "byte 7: active state 10 after 11: not ascending"},
		{"0200000100", "byte 4: posted messages; a statechart queues its events"},
		{good + "00", "byte 26: 1 bytes left over"},
		{good[:len(good)-12] + "01" + "0101", "byte 21: 1 saved configurations for a stack of 2"},
	} {
		s := ok
		err := s.UnmarshalBinary(mustHex(t, c.hex))
		if err == nil || err.Error() != pre+c.want {
			t.Errorf("UnmarshalBinary(%s) = %v\nwant %s", c.hex, err, pre+c.want)
		}
		if fmt.Sprintf("%+v", s) != fmt.Sprintf("%+v", ok) {
			t.Errorf("UnmarshalBinary(%s) changed the snapshot: %+v", c.hex, s)
		}
	}
	// What AppendBinary refuses to write.
	for _, s := range []Snapshot{
		{Active: []State{StateLegA, StatePatrol}},
		{Stack: []State{StatePatrol}},
		{Stack: []State{StatePatrol}, Saved: [][]State{{StateLegB, StateLegA}}},
	} {
		if b, err := s.AppendBinary([]byte{1}); err == nil || len(b) != 1 || !strings.HasPrefix(err.Error(), `stackgen: table "sentry": Snapshot.AppendBinary: `) {
			t.Errorf("AppendBinary(%+v) = %x, %v; want an error", s, b, err)
		}
	}
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSnapshotAllocations checks that taking a snapshot into a value that
// has grown, writing it into a buffer with room, reading it back into a
// snapshot that has grown, and restoring allocate nothing.
func TestSnapshotAllocations(t *testing.T) {
	m := stunned(t, &sentryHost{})
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

// FuzzRestore reads arbitrary bytes as a save of the sentry in both
// runtimes: the generated code must accept exactly the saves table.Agent
// accepts (UnmarshalBinary then the restore), without panicking, and the
// machines restored must save the same bytes.
func FuzzRestore(f *testing.F) {
	h := &sentryHost{}
	m := NewMachine(h)
	for _, msg := range []Message{MessageNoise, MessageHit, MessageHit, MessageClear, MessageCalm} {
		var s Snapshot
		m.Snapshot(&s)
		b, _ := s.AppendBinary(nil)
		f.Add(b)
		m.Post(msg)
		m.Update(h)
	}
	f.Add(mustHex(f, "0216020005000"+"1"+"0b00000000000000000000f83f0201010205"+"08"))
	tbl := fixtures.Sentry()
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
