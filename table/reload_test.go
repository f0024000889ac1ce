package table_test

import (
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// TestReloadChart reloads running guard NPCs into a later version of their
// chart, as hot reload does: the same outcome as a save of them loaded by
// RemapAgents (TestRemapChart), in place, with their observers kept.
func TestReloadChart(t *testing.T) {
	npc, noise, calm := guardChart(t)
	h := &seesHost{}
	chars := make([]table.Agent[int], 3)
	for i := range chars {
		chars[i] = table.NewAgent(npc, i, h)
	}
	rec := machine.NewRecorder(16)
	obs := rec.Register(npc.Describe())
	chars[0].Observe(obs, 0)
	chars[1].SetTime(1)
	chars[1].Post(noise)
	chars[1].Update(h)
	h.frame = 1
	chars[2].Post(noise)
	chars[2].Update(h)
	chars[2].Post(calm)
	chars[2].Update(h)
	chars[0].Post(noise)

	v2 := npcV2(t)
	m, err := table.Reload(v2, chars, "")
	if err != nil {
		t.Fatal(err)
	}
	var s table.Snapshot
	chars[0].Snapshot(&s)
	if chars[0].Table() != v2 || s.State != 0 || !slices.Equal(s.External, []table.TestID{3}) {
		t.Errorf("npc 0: %+v; want patrol of the new table, with noise (now test 3) queued", s)
	}
	if o, id := chars[0].Observer(); o != obs || id != 0 {
		t.Errorf("npc 0 lost its observer")
	}
	chars[1].Snapshot(&s)
	if chars[1].Name() != "patrol" || len(s.Timers) != 1 || s.Timers[0].Event != 1 {
		t.Errorf("npc 1: in %s, timers %+v; want the fallback patrol, giveUp (now test 1) pending", chars[1].Name(), s.Timers)
	}
	if len(m.Moved) != 1 || m.Moved[0] != (machine.Moved{Entity: 1, From: "aim", To: 0}) {
		t.Errorf("Moved = %+v; want npc 1, moved from aim to patrol", m.Moved)
	}
}

// TestReloadFlat reloads goombas mid-run into a table whose walkRight is
// gone, with a fallback named: the others keep their states by name.
func TestReloadFlat(t *testing.T) {
	_, _, as := goombasMidRun(t, 40, 300)
	before := make([]string, len(as))
	for i := range as {
		before[i] = as[i].Name()
	}
	v2 := goombaV2(t)
	m, err := table.Reload(v2, as, "dying")
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i := range as {
		switch {
		case before[i] == "walkRight":
			if as[i].Name() != "dying" {
				t.Errorf("goomba %d: from walkRight (gone) to %s, want the fallback dying", i, as[i].Name())
			}
			moved++
		case as[i].Name() != before[i] && !as[i].Done():
			t.Errorf("goomba %d: from %s to %s", i, before[i], as[i].Name())
		}
	}
	if moved == 0 || len(m.Moved) != moved {
		t.Errorf("%d goombas in walkRight, Moved holds %d", moved, len(m.Moved))
	}
	if _, err := table.Reload(v2, as, "nowhere"); err == nil {
		t.Error("Reload with a fallback the table lacks succeeded")
	}
}

// TestReloadRefuses checks that agents of two tables are refused, and
// left as they were.
func TestReloadRefuses(t *testing.T) {
	a := mustSpec(t, "a x b\nb x a")
	b := mustSpec(t, "c x d")
	agents := []table.Agent[int]{table.NewAgent(a, 0, nil), table.NewAgent(b, 1, nil)}
	if _, err := table.Reload(b, agents, ""); err == nil {
		t.Fatal("Reload of agents of two tables succeeded")
	}
	if agents[0].Table() != a || agents[1].Table() != b {
		t.Error("a refused Reload changed the agents")
	}
	if _, err := table.Reload(b, []table.Agent[int]{{}}, ""); err == nil {
		t.Error("Reload of a zero agent succeeded")
	}
}

// TestPrepareReload moves agents with the caller's mapping, as hot reload
// does to follow a state the designer renamed, in two steps: nothing
// changes before the commit, and a mapping that does not fit is refused.
func TestPrepareReload(t *testing.T) {
	a := mustSpec(t, "a x b\nb x a")
	v2 := mustSpec(t, "a x c\nc x a")
	agents := []table.Agent[int]{table.NewAgent(a, 0, nil), table.NewAgent(a, 1, nil)}
	if _, err := agents[1].Update(yes{}); err != nil {
		t.Fatal(err)
	}
	seq := func(yield func(*table.Agent[int]) bool) {
		for i := range agents {
			if !yield(&agents[i]) {
				return
			}
		}
	}
	od, nd := a.Describe(), v2.Describe()
	m := machine.MappingBetween(&od, &nd)
	bq, _ := a.LookupState("b")
	cq, _ := v2.LookupState("c")
	m.To[bq] = machine.StateID(cq) // b was renamed c
	commit, err := table.PrepareReload(v2, seq, m)
	if err != nil {
		t.Fatal(err)
	}
	if agents[1].Table() != a || agents[1].Name() != "b" {
		t.Fatal("PrepareReload changed an agent before the commit")
	}
	commit()
	if agents[0].Name() != "a" || agents[1].Name() != "c" || agents[1].Table() != v2 || len(m.Moved) != 0 {
		t.Errorf("after the commit: %s, %s, moved %v; want a, c (renamed), none moved", agents[0].Name(), agents[1].Name(), m.Moved)
	}

	for _, bad := range []struct {
		name string
		m    *machine.Mapping
	}{
		{"no mapping", nil},
		{"another table's", machine.MappingBetween(&nd, &od)},
		{"a state out of range", &machine.Mapping{To: []machine.StateID{0, 7}, Old: []string{"a", "c"}}},
	} {
		if bad.name == "another table's" {
			bad.m.To = append(bad.m.To, 0) // three states: not v2's two
			bad.m.Old = append(bad.m.Old, "z")
		}
		if _, err := table.PrepareReload(a, seq, bad.m); err == nil {
			t.Errorf("%s: PrepareReload succeeded", bad.name)
		}
	}
}

// yes answers every test true.
type yes struct{}

func (yes) Test(int, table.TestID) bool             { return true }
func (yes) Do(int, table.PropertyID, table.ValueID) {}

// TestPrepareReloadTriggers follows the caller's mapping of tests too: a
// message the designer renamed, mapped by hand, still reaches the agent.
func TestPrepareReloadTriggers(t *testing.T) {
	a := mustSpec(t, "a !m b\nb !m a")
	v2 := mustSpec(t, "a !n b\nb !n a")
	agents := []table.Agent[int]{table.NewAgent(a, 0, nil)}
	m1, _ := a.LookupTest("m", "")
	if err := agents[0].Post(m1); err != nil {
		t.Fatal(err)
	}
	od, nd := a.Describe(), v2.Describe()
	mp := machine.MappingBetween(&od, &nd)
	if _, ok := mp.Trigger(int32(m1)); ok {
		t.Fatal("m maps by name to a test of v2")
	}
	n2, _ := v2.LookupTest("n", "")
	mp.Triggers[m1] = int32(n2) // m was renamed n
	commit, err := table.PrepareReload(v2, func(yield func(*table.Agent[int]) bool) { yield(&agents[0]) }, mp)
	if err != nil {
		t.Fatal(err)
	}
	commit()
	if _, err := agents[0].Update(nil); err != nil {
		t.Fatal(err)
	}
	if agents[0].Name() != "b" {
		t.Errorf("after the reload the agent is in %s: the message posted as m did not arrive as n", agents[0].Name())
	}
}
