package table_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// goombasMidRun returns n goombas and their agents after frames frames of
// BenchmarkGoomba's game, with a message posted to every seventh.
func goombasMidRun(tb testing.TB, n, frames int) (*table.Table, []goomba, []table.Agent[*goomba]) {
	t := goombaTable(tb)
	w := &world{}
	gs := make([]goomba, n)
	as := make([]table.Agent[*goomba], n)
	for i := range gs {
		spawn(&gs[i], i)
		as[i] = table.NewAgent(t, &gs[i], w)
	}
	for frame := range frames {
		for i := range gs {
			g, a := &gs[i], &as[i]
			g.step()
			if hitAt(frame, i) {
				a.Receive(w, hitByPlayer)
			}
			if r, _ := a.Update(w); r.Final() {
				spawn(g, i)
				*a = table.NewAgent(t, g, w)
			}
		}
	}
	for i := 0; i < n; i += 7 {
		as[i].Post(hitByPlayer)
	}
	return t, gs, as
}

// TestSaveAgents saves goombas and guard NPCs mid-run, loads them, and
// checks that the loaded agents are the saved ones: same snapshots, and
// the same results and host calls from then on.
func TestSaveAgents(t *testing.T) {
	tb, gs, as := goombasMidRun(t, 300, 600)
	save, err := table.AppendAgents([]byte("game"), as)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(save, []byte("gameFSMA")) {
		t.Fatalf("AppendAgents did not append: % x", save[:8])
	}
	save = save[4:]
	back, err := table.RestoreAgents(tb, save, func(i int) *goomba { return &gs[i] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	var s1, s2 table.Snapshot
	for i := range as {
		as[i].Snapshot(&s1)
		back[i].Snapshot(&s2)
		checkSnapshot(t, "agent "+strconv.Itoa(i), &s2, &s1)
		if back[i].Entity() != &gs[i] {
			t.Fatalf("agent %d: entity %p, want %p", i, back[i].Entity(), &gs[i])
		}
	}
	// Each saved agent's snapshot in binary is in the save, in order.
	var want []byte
	for i := range as {
		as[i].Snapshot(&s1)
		want, _ = s1.AppendBinary(want)
	}
	if !bytes.HasSuffix(save, want) {
		t.Errorf("the save does not end with the agents' snapshots in binary")
	}

	npc, noise, calm := guardChart(t)
	h := &nopHost{}
	chars := make([]table.Agent[int], 40)
	for i := range chars {
		chars[i] = table.NewAgent(npc, i, h)
		for f := range i {
			chars[i].SetTime(float64(f) / 3)
			if f%5 == 0 {
				chars[i].Post(noise)
			}
			if f%11 == 0 {
				chars[i].Post(calm)
			}
			chars[i].Update(h)
		}
	}
	save, err = table.AppendAgents(nil, chars)
	if err != nil {
		t.Fatal(err)
	}
	reuse := make([]table.Agent[int], 3, 50)
	loaded, err := table.RestoreAgents(npc, save, func(i int) int { return i }, reuse)
	if err != nil || len(loaded) != 43 {
		t.Fatalf("RestoreAgents = %d agents, %v", len(loaded), err)
	}
	for i := range chars {
		chars[i].Snapshot(&s1)
		loaded[3+i].Snapshot(&s2)
		checkSnapshot(t, "npc "+strconv.Itoa(i), &s2, &s1)
		for f := range 20 {
			for _, a := range []*table.Agent[int]{&chars[i], &loaded[3+i]} {
				a.SetTime(float64(i+f) / 3)
				if f%3 == 0 {
					a.Post(noise)
				}
			}
			r1, e1 := chars[i].Update(h)
			r2, e2 := loaded[3+i].Update(h)
			if r1 != r2 || fmt.Sprint(e1) != fmt.Sprint(e2) || chars[i].String() != loaded[3+i].String() {
				t.Fatalf("npc %d, frame %d: loaded %+v %v %s, saved %+v %v %s", i, f, r2, e2, loaded[3+i].String(), r1, e1, chars[i].String())
			}
		}
	}

	// No agents: a save that loads into any table.
	empty, err := table.AppendAgents[int](nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := table.RestoreAgents(npc, empty, func(int) int { return 0 }, nil); err != nil || len(got) != 0 {
		t.Errorf("RestoreAgents(empty save) = %d agents, %v", len(got), err)
	}
}

// TestSaveAgentsErrors checks what AppendAgents and RestoreAgents refuse.
func TestSaveAgentsErrors(t *testing.T) {
	tb, gs, as := goombasMidRun(t, 20, 100)
	other := mustSpec(t, "a x b")
	entity := func(i int) *goomba { return &gs[i] }
	mixed := append(slices.Clone(as[:2]), table.NewAgent(other, &gs[2], (*world)(nil)))
	if _, err := table.AppendAgents(nil, mixed); err == nil || !strings.Contains(err.Error(), `table: AppendAgents: agent 2 runs another table ("spec") than agent 0 ("goomba")`) {
		t.Errorf("AppendAgents(two tables) = %v", err)
	}
	if b, err := table.AppendAgents([]byte("x"), make([]table.Agent[int], 2)); err == nil || string(b) != "x" || !strings.Contains(err.Error(), "agent 0 has no table") {
		t.Errorf("AppendAgents(zero agents) = %q, %v", b, err)
	}
	save, err := table.AppendAgents(nil, as)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]table.Agent[*goomba], 1, 40)
	for _, tc := range []struct {
		name string
		t    *table.Table
		b    []byte
		want string
	}{
		{"another table", other, save, `table: RestoreAgents (table "spec"): the save was made with another table (fingerprint`},
		{"not a save", tb, []byte("FSMT\x01"), `not a save of agents (it starts "FSMT", not "FSMA")`},
		{"format", tb, []byte("FSMA\x02"), "a save of format 2; this package reads format 1"},
		{"truncated", tb, save[:len(save)-3], "agent 19: byte"},
		{"left over", tb, append(slices.Clone(save), 0), "1 bytes left over"},
		{"agent refused", tb, bytes.Replace(save, []byte{0, 4, 0, 0}, []byte{0, 8, 0, 0}, 1), ": state #4 is not a state of the table (it has 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := table.RestoreAgents(tc.t, tc.b, entity, dst)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("RestoreAgents = %v\nwant an error containing %q", err, tc.want)
			}
			if len(got) != 1 {
				t.Errorf("RestoreAgents returned %d agents with its error, want dst as given (1)", len(got))
			}
		})
	}
}

// goombaV2 is a later version of the Goomba table: the states reordered,
// walkRight renamed walkEast, a stunned state added, the tests
// renumbered.
func goombaV2(tb testing.TB) *table.Table {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "existing", "right", "left", "death")
	b.AddProperty("Animation", "existing", "moveRight", "moveLeft", "death")
	done := b.AddTest("animationDone", "")
	hit := b.AddMessage("hitByPlayer", "")
	stomp := b.AddMessage("stomp", "")
	left := b.AddTest("hitTriggerLeft", "")
	right := b.AddTest("hitTriggerRight", "")
	dy := b.AddState("dying", b.Action("XMovement", "death"), b.Action("Animation", "death"))
	wl := b.AddState("walkLeft", b.Action("XMovement", "left"), b.Action("Animation", "moveLeft"))
	we := b.AddState("walkEast", b.Action("XMovement", "right"), b.Action("Animation", "moveRight"))
	st := b.AddState("stunned")
	b.SetInitial(wl)
	b.AddTransition(table.Transition{From: wl, Test: hit, To: dy})
	b.AddTransition(table.Transition{From: wl, Test: left, To: we})
	b.AddTransition(table.Transition{From: we, Test: hit, To: dy})
	b.AddTransition(table.Transition{From: we, Test: right, To: wl})
	b.AddTransition(table.Transition{From: we, Test: stomp, To: st})
	b.AddTransition(table.Transition{From: st, Test: right, To: wl})
	b.AddTransition(table.Transition{From: dy, Test: done, To: table.Final})
	t, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestRemapAgents loads a save of goombas into a later version of their
// table, by state and test name.
func TestRemapAgents(t *testing.T) {
	_, gs, as := goombasMidRun(t, 60, 300)
	save, err := table.AppendAgents(nil, as)
	if err != nil {
		t.Fatal(err)
	}
	v2 := goombaV2(t)
	if _, err := table.RestoreAgents(v2, save, func(i int) *goomba { return &gs[i] }, nil); err == nil {
		t.Fatal("RestoreAgents into a changed table succeeded")
	}
	names, fp, err := table.SavedStates(save)
	if err != nil || !slices.Equal(names, []string{"walkLeft", "walkRight", "dying"}) || fp != goombaTable(t).Fingerprint() {
		t.Fatalf("SavedStates = %q, %#x, %v", names, fp, err)
	}
	d := v2.Describe()
	m := machine.NewMapping(names, nil, &d)
	got, err := table.RemapAgents(v2, save, m, func(i int) *goomba { return &gs[i] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i := range as {
		old, now := as[i].Name(), got[i].Name()
		switch {
		case old == "walkRight":
			if now != "walkLeft" {
				t.Errorf("agent %d: in walkRight (gone), loaded in %s, want the fallback walkLeft", i, now)
			}
			if moved >= len(m.Moved) || m.Moved[moved] != (machine.Moved{Entity: uint64(i), From: "walkRight", To: 1}) {
				t.Errorf("agent %d: Moved = %+v", i, m.Moved)
			}
			moved++
		case old != now:
			t.Errorf("agent %d: in %s, loaded in %s", i, old, now)
		}
		var s1, s2 table.Snapshot
		as[i].Snapshot(&s1)
		got[i].Snapshot(&s2)
		if len(s1.Posted) != len(s2.Posted) || len(s2.Posted) > 0 && s2.Posted[0] != 1 {
			t.Errorf("agent %d: posted %v, loaded %v (hitByPlayer is test 1 now)", i, s1.Posted, s2.Posted)
		}
	}
	if moved == 0 || moved != len(m.Moved) {
		t.Errorf("%d agents moved, Moved holds %d", moved, len(m.Moved))
	}
	// A save cut short in its last agent loads nothing, and reports no move.
	m.Moved = nil
	if got, err := table.RemapAgents(v2, save[:len(save)-1], m, func(i int) *goomba { return &gs[i] }, nil); err == nil || len(got) != 0 || len(m.Moved) != 0 {
		t.Errorf("RemapAgents of a truncated save = %d agents, %v, Moved %v; want none, an error, no moves", len(got), err, m.Moved)
	}
}

// npcV2 is a later version of the guard NPC: fire is gone, combat has a
// third region, and the tests are renumbered.
func npcV2(tb testing.TB) *table.Table {
	var b table.Builder
	b.Name = "npc"
	b.Options.Chain = true
	sees := b.AddTest("seesPlayer", "")
	giveUp, calm, noise := b.AddMessage("giveUp", ""), b.AddMessage("calm", ""), b.AddMessage("noise", "")
	anim := b.AddProperty("anim", "idle", "walk", "aim", "fire")
	search := b.AddTimer("search")
	patrol := b.AddState("patrol", table.Action{Property: anim, Value: 1})
	alert := b.AddState("alert", b.Send(giveUp, 2, search))
	b.SetExit(alert, b.Cancel(search))
	hist := b.AddState("alertHistory")
	b.Nest(hist, alert)
	b.SetKind(hist, table.KindDeepHistory)
	combat := b.AddState("combat")
	b.Nest(combat, alert)
	b.SetKind(combat, table.KindParallel)
	weapon := b.AddState("weapon")
	b.Nest(weapon, combat)
	aim := b.AddState("aim", table.Action{Property: anim, Value: 2})
	b.Nest(aim, weapon)
	move := b.AddState("movement")
	b.Nest(move, combat)
	stand := b.AddState("stand")
	b.Nest(stand, move)
	chase := b.AddState("chase", table.Action{Property: anim, Value: 1})
	b.Nest(chase, move)
	voice := b.AddState("voice")
	b.Nest(voice, combat)
	b.Nest(b.AddState("shout"), voice)
	b.SetDefault(table.Transition{From: hist, Test: table.NoTest, To: aim, Also: []table.StateID{stand}})
	b.AddTransition(table.Transition{From: patrol, Test: noise, To: hist})
	b.AddTransition(table.Transition{From: aim, Test: sees, To: aim})
	b.AddTransition(table.Transition{From: stand, Test: table.NoTest, Cond: table.Cond{{Op: table.CondIn, State: aim}}, To: chase})
	b.AddTransition(table.Transition{From: alert, Test: giveUp, To: patrol})
	b.AddTransition(table.Transition{From: alert, Test: calm, To: patrol})
	t, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// TestRemapChart loads a save of guard NPCs into a later version of their
// chart: an NPC whose configuration lost a state, or no longer fits (a
// region was added), restarts in the fallback; the others keep theirs, and
// their events and timers follow the tests by name.
func TestRemapChart(t *testing.T) {
	npc, noise, calm := guardChart(t)
	h := &seesHost{}
	chars := make([]table.Agent[int], 3)
	for i := range chars {
		chars[i] = table.NewAgent(npc, i, h)
	}
	chars[1].SetTime(1)
	chars[1].Post(noise)
	chars[1].Update(h) // alert: aim and chase, a timer pending
	h.frame = 1
	chars[2].Post(noise)
	chars[2].Update(h) // alert: fire and chase
	chars[2].Post(calm)
	chars[2].Update(h) // patrol, with fire in the history
	chars[0].Post(noise)
	save, err := table.AppendAgents(nil, chars)
	if err != nil {
		t.Fatal(err)
	}
	v2 := npcV2(t)
	names, _, _ := table.SavedStates(save)
	d := v2.Describe()
	m := machine.NewMapping(names, nil, &d)
	got, err := table.RemapAgents(v2, save, m, func(i int) int { return i }, nil)
	if err != nil {
		t.Fatal(err)
	}
	var s table.Snapshot
	got[0].Snapshot(&s)
	if s.State != 0 || !slices.Equal(s.External, []table.TestID{3}) {
		t.Errorf("npc 0: %+v; want patrol, with noise (now test 3) queued", s)
	}
	got[1].Snapshot(&s)
	if got[1].Name() != "patrol" || len(s.Timers) != 1 || s.Timers[0].Event != 1 {
		t.Errorf("npc 1: in %s, timers %+v; want the fallback patrol (a region was added), giveUp (now test 1) pending", got[1].Name(), s.Timers)
	}
	got[2].Snapshot(&s)
	if got[2].Name() != "patrol" || len(s.History) != 0 {
		t.Errorf("npc 2: in %s, history %+v; want patrol, the history that held fire dropped", got[2].Name(), s.History)
	}
	if len(m.Moved) != 1 || m.Moved[0] != (machine.Moved{Entity: 1, From: "aim", To: 0}) {
		t.Errorf("Moved = %+v; want npc 1, moved from aim to patrol", m.Moved)
	}
	if !slices.Equal(m.Lost(), []string{"fire"}) {
		t.Errorf("Lost() = %q", m.Lost())
	}
}

// BenchmarkSaveAgents saves 10,000 goombas mid-run, and loads them, beside
// a copy of the agents for scale. ns/agent is per agent saved or loaded.
func BenchmarkSaveAgents(b *testing.B) {
	const n = 10000
	name := "agents=" + strconv.Itoa(n)
	tb, gs, as := goombasMidRun(b, n, 300)
	save, err := table.AppendAgents(nil, as)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("copy/"+name, func(b *testing.B) {
		dst := make([]table.Agent[*goomba], n)
		for b.Loop() {
			copy(dst, as)
		}
		perAgent(b, n)
	})
	b.Run("save/"+name, func(b *testing.B) {
		buf := make([]byte, 0, len(save))
		for b.Loop() {
			buf, _ = table.AppendAgents(buf[:0], as)
		}
		perAgent(b, n)
		b.ReportMetric(float64(len(save))/n, "bytes/agent")
	})
	b.Run("restore/"+name, func(b *testing.B) {
		dst := make([]table.Agent[*goomba], 0, n)
		entity := func(i int) *goomba { return &gs[i] }
		for b.Loop() {
			dst, err = table.RestoreAgents(tb, save, entity, dst[:0])
			if err != nil {
				b.Fatal(err)
			}
		}
		perAgent(b, n)
	})
}
