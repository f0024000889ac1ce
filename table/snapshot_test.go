package table_test

import (
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// The guard NPC's states, in the order buildNPC adds them.
const (
	npcPatrol table.StateID = iota
	npcAlert
	npcHistory
	npcCombat
	npcWeapon
	npcAim
	npcFire
	npcMovement
	npcStand
	npcChase
)

// TestChartSnapshot takes snapshots of a guard NPC through alert, history
// and a pending timer, and checks what they hold.
func TestChartSnapshot(t *testing.T) {
	tb, noise, calm := guardChart(t)
	h := &nopHost{}
	a := table.NewAgent[int](tb, 0, h)
	var s table.Snapshot
	a.Snapshot(&s)
	if !s.Statechart || s.State != npcPatrol || !slices.Equal(s.Active, []table.StateID{npcPatrol}) || len(s.History)+len(s.Timers)+len(s.Stack) != 0 {
		t.Fatalf("at the start: %+v", s)
	}
	a.SetTime(0.5)
	a.Post(noise)
	a.Update(h)
	a.Post(calm)
	a.Snapshot(&s)
	want := table.Snapshot{State: npcAim, Statechart: true, Now: 0.5,
		Active:   []table.StateID{npcAlert, npcCombat, npcWeapon, npcAim, npcMovement, npcChase},
		External: []table.TestID{calm},
		Timers:   []table.Timer{{Due: 2.5, Event: 2, Timer: 0}}}
	checkSnapshot(t, "alert", &s, &want)

	a.Update(h) // calm: back to patrol, recording aim and chase
	a.Post(noise)
	a.Snapshot(&s)
	want = table.Snapshot{State: npcPatrol, Statechart: true, Now: 0.5,
		Active:   []table.StateID{npcPatrol},
		History:  []table.Recorded{{History: npcHistory, States: []table.StateID{npcAim, npcChase}}},
		External: []table.TestID{noise}}
	checkSnapshot(t, "patrol", &s, &want)

	// Restored, the agent goes back to what the history recorded.
	b, err := table.RestoreAgent(tb, 0, &s)
	if err != nil {
		t.Fatal(err)
	}
	b.Update(h)
	if got := b.AppendActive(nil); !slices.Equal(got, []table.StateID{npcAlert, npcCombat, npcWeapon, npcAim, npcMovement, npcChase}) {
		t.Errorf("restored, then noise: active %v, want alert with aim and chase", got)
	}

	if n := testing.AllocsPerRun(100, func() { a.Snapshot(&s) }); n != 0 {
		t.Errorf("Snapshot of a statechart agent into a grown value: %v allocations, want 0", n)
	}
	a.Post(noise)
	a.Update(h)
	a.Snapshot(&s) // grown with History, Timers and Active of alert
	if n := testing.AllocsPerRun(100, func() { a.Snapshot(&s) }); n != 0 {
		t.Errorf("Snapshot of a statechart agent into a grown value: %v allocations, want 0", n)
	}
	data, _ := s.AppendBinary(nil)
	var back table.Snapshot
	back.UnmarshalBinary(data)
	if n := testing.AllocsPerRun(100, func() { back.UnmarshalBinary(data) }); n != 0 {
		t.Errorf("UnmarshalBinary into a grown value: %v allocations, want 0", n)
	}
}

// checkSnapshot compares two snapshots field by field.
func checkSnapshot(t *testing.T, what string, got, want *table.Snapshot) {
	t.Helper()
	recEq := func(a, b table.Recorded) bool { return a.History == b.History && slices.Equal(a.States, b.States) }
	if got.State != want.State || got.Done != want.Done || got.Statechart != want.Statechart || got.Now != want.Now ||
		!slices.Equal(got.Stack, want.Stack) || !slices.Equal(got.Posted, want.Posted) || !slices.Equal(got.Active, want.Active) ||
		!slices.EqualFunc(got.History, want.History, recEq) || !slices.Equal(got.Internal, want.Internal) ||
		!slices.Equal(got.External, want.External) || !slices.Equal(got.Timers, want.Timers) ||
		!slices.EqualFunc(got.Saved, want.Saved, slices.Equal) {
		t.Errorf("%s: Snapshot() = %+v,\nwant %+v", what, *got, *want)
	}
}

// TestSnapshotBinaryLayout checks the binary form byte for byte against
// the layout, written out by hand.
func TestSnapshotBinaryLayout(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    table.Snapshot
		hex  string
	}{
		{"zero agent", table.Snapshot{State: table.NoState}, "00" + "07" + "00" + "00"},
		{"flat", table.Snapshot{State: 1, Done: true, Stack: []table.StateID{0}, Posted: []table.TestID{2, 5}},
			"01" + "02" + "0100" + "020205"},
		{"statechart", table.Snapshot{State: 5, Stack: []table.StateID{table.AnyState, 2}, Statechart: true,
			Active: []table.StateID{1, 3}, History: []table.Recorded{{History: 2, States: []table.StateID{5, 9}}},
			Internal: []table.TestID{1}, External: []table.TestID{0, 2},
			Timers: []table.Timer{{Due: 2.5, Event: 2, Timer: table.NoTimer}}, Now: 0.5,
			Saved: [][]table.StateID{{5, 9}, {9}}},
			"02" + "0a" + "02" + "05" + "04" + "00" + // flags, state, stack, posted
				"020103" + "01" + "02" + "020509" + // active, history
				"0101" + "020002" + // queues
				"01" + "ffff03" + "02" + "0000000000000440" + // timers
				"000000000000e03f" + // now
				"02" + "020509" + "0109"}, // saved
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := tc.s.AppendBinary([]byte{0xAA})
			if err != nil || hex.EncodeToString(data) != "aa"+tc.hex {
				t.Fatalf("AppendBinary = %x, %v\nwant aa%s", data, err, tc.hex)
			}
			var back table.Snapshot
			if err := back.UnmarshalBinary(data[1:]); err != nil {
				t.Fatal(err)
			}
			checkSnapshot(t, "read back", &back, &tc.s)
		})
	}
}

// TestSnapshotBinaryErrors checks what AppendBinary refuses to write and
// UnmarshalBinary to read.
func TestSnapshotBinaryErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    table.Snapshot
		want string
	}{
		{"posted order", table.Snapshot{Posted: []table.TestID{3, 1}}, "Posted is not strictly ascending"},
		{"flat with chart fields", table.Snapshot{Active: []table.StateID{1}}, "statechart fields set in a flat agent's snapshot"},
		{"active order", table.Snapshot{Statechart: true, Active: []table.StateID{1, 1}}, "Active is not strictly ascending"},
		{"history order", table.Snapshot{Statechart: true, History: []table.Recorded{{History: 3}, {History: 2}}}, "History is not strictly ascending"},
		{"recorded order", table.Snapshot{Statechart: true, History: []table.Recorded{{History: 3, States: []table.StateID{5, 4}}}}, "History[0].States is not strictly ascending"},
		{"saved count", table.Snapshot{Statechart: true, Stack: []table.StateID{1}}, "0 saved configurations for a stack of 1 states"},
		{"saved order", table.Snapshot{Statechart: true, Stack: []table.StateID{1}, Saved: [][]table.StateID{{4, 2}}}, "Saved[0] is not strictly ascending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := tc.s.AppendBinary(nil)
			if err == nil || data != nil || !strings.HasPrefix(err.Error(), "table: Snapshot.AppendBinary: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AppendBinary = %x, %v; want an error containing %q", data, err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name, hex, want string
	}{
		{"empty", "", "byte 0: truncated"},
		{"flags", "04000000", "byte 1: flags 0x4: bits other than"},
		{"state", "00feff07", "state 65535: neither a state"},
		{"marker", "0009", "state -5: neither a state"},
		{"stack count", "000005", "5 stack entries, more than the 0 bytes left can hold"},
		{"posted order", "000000020303", "posted messages: 3 after 3, not ascending"},
		{"left over", "0000000000", "1 bytes left over"},
		{"test range", "00000001ffff03", "test 65535 is more than 65534"},
		{"saved count", "02" + "00" + "0100" + "00" + "00" + "00" + "0000" + "00" + "0000000000000000" + "00", "0 saved configurations for a stack of 1 states"},
		{"active order", "02" + "00" + "00" + "00" + "020101", "active states: 1 after 1, not ascending"},
		{"timers truncated", "02" + "00" + "00" + "00" + "00" + "00" + "0000" + "05", "5 pending sends"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, _ := hex.DecodeString(tc.hex)
			var s table.Snapshot
			err := s.UnmarshalBinary(data)
			if err == nil || !strings.HasPrefix(err.Error(), "table: Snapshot.UnmarshalBinary: byte ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("UnmarshalBinary(%s) = %v; want an error containing %q", tc.hex, err, tc.want)
			}
		})
	}
}

// stackChart builds the statechart of TestStatechartStack: a patrol of
// two legs that an alarm interrupts, pushing it.
func stackChart(tb testing.TB) *table.Table {
	var b table.Builder
	b.Name = "stack"
	b.Options.Chain = true
	b.Options.StackLimit = 2
	next, alarm, done := b.AddMessage("next", ""), b.AddMessage("alarm", ""), b.AddMessage("done", "")
	patrol := b.AddState("patrol")
	legA := b.AddState("legA")
	b.Nest(legA, patrol)
	legB := b.AddState("legB")
	b.Nest(legB, patrol)
	fight := b.AddState("fight")
	b.AddTransition(table.Transition{From: legA, Test: next, To: legB})
	b.AddTransition(table.Transition{From: patrol, Test: alarm, To: fight, Push: true})
	b.AddTransition(table.Transition{From: fight, Test: alarm, To: fight, Push: true})
	b.AddTransition(table.Transition{From: fight, Test: done, To: table.Return})
	b.AddTransition(table.Transition{From: legB, Test: done, To: table.Return})
	b.AddTransition(table.Transition{From: table.AnyState, Test: next, To: fight, Push: true})
	t, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestRestoreChartErrors checks that RestoreAgent refuses, with a message
// naming the table, the state and the problem, every statechart snapshot
// that does not fit the table, and takes the ones that do.
func TestRestoreChartErrors(t *testing.T) {
	npc, _, _ := guardChart(t)
	stack := stackChart(t)
	flat := goombaTable(t)
	alert := func(f func(s *table.Snapshot)) table.Snapshot {
		s := table.Snapshot{State: npcAim, Statechart: true, Now: 0.5,
			Active: []table.StateID{npcAlert, npcCombat, npcWeapon, npcAim, npcMovement, npcChase},
			Timers: []table.Timer{{Due: 2.5, Event: 2, Timer: 0}}}
		if f != nil {
			f(&s)
		}
		return s
	}
	inStack := func(stack []table.StateID, saved ...[]table.StateID) table.Snapshot {
		return table.Snapshot{State: 3, Statechart: true, Active: []table.StateID{3}, Stack: stack, Saved: saved}
	}
	for _, tc := range []struct {
		name string
		t    *table.Table
		s    table.Snapshot
		want string // "" for none
	}{
		{"alert", npc, alert(nil), ""},
		{"restart in alert", npc, table.Snapshot{State: npcAlert, Statechart: true}, ""},
		{"done", npc, table.Snapshot{State: npcAlert, Statechart: true, Done: true}, `done in "alert", which is not a final state at the top`},
		{"done and active", npc, alert(func(s *table.Snapshot) { s.Done = true }), "a done agent with 6 active states"},
		{"flat into chart", npc, table.Snapshot{}, "the snapshot is a flat agent's, and the table is a statechart"},
		{"chart into flat", flat, alert(nil), "the snapshot is a statechart agent's, and the table is flat"},
		{"state", npc, alert(func(s *table.Snapshot) { s.State = 40 }), "state #40 is not a state of the table (it has 10)"},
		{"active unknown", npc, alert(func(s *table.Snapshot) { s.Active = append(s.Active, 12) }), "active state #12 is not a state"},
		{"parent", npc, alert(func(s *table.Snapshot) { s.Active = s.Active[1:] }), `state "combat" is active, but not its parent "alert"`},
		{"two children", npc, alert(func(s *table.Snapshot) { s.Active = append(s.Active, npcFire) }), `compound state "weapon" is active with 2 active children; one is`},
		{"region", npc, alert(func(s *table.Snapshot) { s.Active = s.Active[:4] }), `parallel state "combat" is active, but not its region "movement"`},
		{"top", npc, alert(func(s *table.Snapshot) { s.Active = append(s.Active, npcPatrol) }), "2 states active at the top of the chart; one is"},
		{"history active", npc, alert(func(s *table.Snapshot) { s.Active = append(s.Active, npcHistory) }), `history state "alertHistory" is active`},
		{"shown state", npc, alert(func(s *table.Snapshot) { s.State = npcChase }), `state "chase", but the configuration's first active atomic state is "aim"`},
		{"posted", npc, alert(func(s *table.Snapshot) { s.Posted = []table.TestID{0} }), "posted messages in a statechart agent's snapshot"},
		{"now", npc, alert(func(s *table.Snapshot) { s.Now = math.NaN() }), "the time (Now) is NaN"},
		{"queue size", npc, alert(func(s *table.Snapshot) { s.Internal = make([]table.TestID, 33) }), "33 events in the internal queue; the table's queues hold 32"},
		{"queue event", npc, alert(func(s *table.Snapshot) { s.External = []table.TestID{0, 3} }), "external queue, event 1: test #3 is not a message test"},
		{"timer", npc, alert(func(s *table.Snapshot) { s.Timers[0].Timer = 7 }), "pending send 0: timer 7 is not a timer of the table (it has 1)"},
		{"timer event", npc, alert(func(s *table.Snapshot) { s.Timers[0].Event = 3 }), "pending send 0: event test #3 is not a message test"},
		{"due", npc, alert(func(s *table.Snapshot) { s.Timers[0].Due = math.NaN() }), `pending send 0 (event "giveUp"): its due time is NaN`},
		{"timer order", npc, alert(func(s *table.Snapshot) {
			s.Timers = append(s.Timers, table.Timer{Due: 1, Event: 2, Timer: table.NoTimer})
		}), "pending send 1 (event \"giveUp\"): due at 1, before the send listed before it (2.5)"},
		{"timers", npc, alert(func(s *table.Snapshot) { s.Timers = make([]table.Timer, 17) }), "17 pending sends; the table allows 16"},
		{"history", npc, alert(func(s *table.Snapshot) {
			s.History = []table.Recorded{{History: npcHistory, States: []table.StateID{npcFire, npcStand}}}
		}), ""},
		{"history kind", npc, alert(func(s *table.Snapshot) { s.History = []table.Recorded{{History: npcAlert}} }), `history record 0: "alert" is not a history state`},
		{"history twice", npc, alert(func(s *table.Snapshot) {
			s.History = []table.Recorded{{History: npcHistory, States: []table.StateID{npcAim, npcStand}}, {History: npcHistory, States: []table.StateID{npcAim, npcStand}}}
		}), `history state "alertHistory": recorded twice`},
		{"history outside", npc, alert(func(s *table.Snapshot) {
			s.History = []table.Recorded{{History: npcHistory, States: []table.StateID{npcPatrol}}}
		}),
			`history state "alertHistory": recorded "patrol", which is not inside its parent "alert"`},
		{"history not atomic", npc, alert(func(s *table.Snapshot) {
			s.History = []table.Recorded{{History: npcHistory, States: []table.StateID{npcCombat}}}
		}),
			`deep history state "alertHistory": recorded "combat", which is not an atomic state`},
		{"history configuration", npc, alert(func(s *table.Snapshot) {
			s.History = []table.Recorded{{History: npcHistory, States: []table.StateID{npcAim, npcFire, npcStand}}}
		}), `history state "alertHistory": what it recorded is no configuration of "alert": compound state "weapon" is active with 2 active children; one is`},
		{"history empty", npc, alert(func(s *table.Snapshot) { s.History = []table.Recorded{{History: npcHistory}} }),
			`what it recorded is no configuration of "alert": compound state "alert" is active with 0 active children`},
		{"no pushes", npc, alert(func(s *table.Snapshot) { s.Stack, s.Saved = []table.StateID{0}, [][]table.StateID{{0}} }), "a stack of 1 states, but no transition of the table pushes"},
		{"stack", stack, inStack([]table.StateID{0, table.AnyState}, []table.StateID{2}, []table.StateID{1}), ""},
		{"stack atomic", stack, inStack([]table.StateID{3}, []table.StateID{3}), ""},
		{"stack deep", stack, inStack([]table.StateID{0, 0, 0}, []table.StateID{2}, []table.StateID{2}, []table.StateID{2}), "a stack of 3 states; the table's stack limit is 2"},
		{"saved count", stack, inStack([]table.StateID{0}), "0 saved configurations for a stack of 1 states"},
		{"stack entry", stack, inStack([]table.StateID{9}, []table.StateID{2}), "stack entry 0: #9 is not a state a transition leaves"},
		{"saved outside", stack, inStack([]table.StateID{0}, []table.StateID{3}), `stack entry 0 ("patrol"): saved "fight", which is not inside it`},
		{"saved compound", stack, inStack([]table.StateID{table.AnyState}, []table.StateID{0}), `stack entry 0 (any): saved "patrol", which is not an atomic state`},
		{"saved configuration", stack, inStack([]table.StateID{0}, []table.StateID{1, 2}), `stack entry 0 ("patrol"): what it saved is no configuration of it: compound state "patrol" is active with 2 active children`},
		{"saved atomic", stack, inStack([]table.StateID{3}, []table.StateID{3, 1}), `stack entry 0: atomic state "fight" saved with 2 states; it saves itself alone`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := table.RestoreAgent(tc.t, 7, &tc.s)
			if tc.want == "" {
				if err != nil || a.Table() != tc.t || a.Entity() != 7 {
					t.Fatalf("RestoreAgent(%+v) = %v, %v", tc.s, a.String(), err)
				}
				var back table.Snapshot
				a.Snapshot(&back)
				if len(tc.s.Active) > 0 {
					checkSnapshot(t, "snapshot of the restored agent", &back, &tc.s)
				}
				return
			}
			prefix := `table: RestoreAgent (table "` + tc.t.Name() + `"): `
			if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("RestoreAgent(%+v) = %v\nwant an error containing %q", tc.s, err, tc.want)
			}
			if a.Table() != nil {
				t.Errorf("RestoreAgent returned an agent with a table with its error")
			}
		})
	}
}

// TestRestoreRestart checks that a statechart snapshot with nothing active
// restores into the configuration entering its State enters, history
// included, performing no action.
func TestRestoreRestart(t *testing.T) {
	npc, _, _ := guardChart(t)
	for _, tc := range []struct {
		s    table.Snapshot
		want []table.StateID
	}{
		{table.Snapshot{State: npcAlert, Statechart: true}, []table.StateID{npcAlert, npcCombat, npcWeapon, npcAim, npcMovement, npcStand}},
		{table.Snapshot{State: npcHistory, Statechart: true, History: []table.Recorded{{History: npcHistory, States: []table.StateID{npcFire, npcChase}}}},
			[]table.StateID{npcAlert, npcCombat, npcWeapon, npcFire, npcMovement, npcChase}},
		{table.Snapshot{State: npcChase, Statechart: true}, []table.StateID{npcAlert, npcCombat, npcWeapon, npcAim, npcMovement, npcChase}},
	} {
		a, err := table.RestoreAgent(npc, 0, &tc.s)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.AppendActive(nil); !slices.Equal(got, tc.want) || a.State() != tc.want[3] {
			t.Errorf("RestoreAgent(%+v): active %v, state %v; want %v", tc.s, got, a.State(), tc.want)
		}
	}
}

// TestSnapshotRemapTriggers checks that Remap renumbers the messages
// posted through the mapping's triggers: a message whose test moved in the
// new table is still the same message, and one whose test is gone is
// dropped.
func TestSnapshotRemapTriggers(t *testing.T) {
	old := mustSpec(t, "a !hit b\na !stun b\na !gone b\nb x a")
	changed := mustSpec(t, "a !stun b\nb x a\na !hit b") // hit and stun swap IDs; gone is gone
	ag := table.NewAgent(old, 0, nil)
	for _, name := range []string{"hit", "stun", "gone"} {
		id, _ := old.LookupTest(name, "")
		if err := ag.Post(id); err != nil {
			t.Fatal(err)
		}
	}
	var s table.Snapshot
	ag.Snapshot(&s)
	od, nd := old.Describe(), changed.Describe()
	m := machine.MappingBetween(&od, &nd)
	s.Remap(m, 0)
	got, err := table.RestoreAgent(changed, 0, &s)
	if err != nil {
		t.Fatal(err)
	}
	var back table.Snapshot
	got.Snapshot(&back)
	var names []string
	for _, id := range back.Posted {
		names = append(names, changed.Test(id).String())
	}
	if want := []string{"stun", "hit"}; !slices.Equal(names, want) {
		t.Errorf("posted after Remap = %q, want %q (in the new table's order)", names, want)
	}
}
