package table_test

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// A guard NPC (the statechart of buildNPC: patrol, or alert with a deep
// history and a parallel of weapon and movement; alert gives up after 2 s)
// is saved in the middle of an alert, with its search timer pending, and
// restored: the restored agent goes on as the saved one would.
func ExampleAgent_Snapshot() {
	t, _ := buildNPC()
	noise, _ := t.LookupTest("noise", "")
	h := &nopHost{} // sees nothing
	names := func(ids []table.StateID) string {
		var s []string
		for _, id := range ids {
			s = append(s, t.StateName(id))
		}
		return strings.Join(s, " ")
	}

	a := table.NewAgent[int](t, 1, h)
	a.SetTime(10)
	a.Post(noise)
	a.Update(h)

	var s table.Snapshot
	a.Snapshot(&s)
	data, err := s.AppendBinary(nil) // what a save file keeps
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("saved in %d bytes: %s\n", len(data), names(s.Active))

	var back table.Snapshot
	if err := back.UnmarshalBinary(data); err != nil {
		fmt.Println(err)
		return
	}
	b, err := table.RestoreAgent(t, 1, &back)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tm := range b.AppendTimers(nil) {
		fmt.Printf("restored: %s, %s due at %v s\n", names(b.AppendActive(nil)), t.Test(tm.Event), tm.Due)
	}
	b.SetTime(12)
	b.Update(h)
	fmt.Println("at 12 s:", b.Name())
	// Output:
	// saved in 34 bytes: alert combat weapon aim movement chase
	// restored: alert combat weapon aim movement chase, giveUp due at 12 s
	// at 12 s: patrol
}

// A table describes itself in package machine's vocabulary: states,
// triggers and transitions in the order the runtime tries them, for tools
// that list, draw or watch any runtime.
func ExampleTable_Describe() {
	t, _ := buildGoomba()
	d := t.Describe()
	fmt.Println(d.Name, d.Kind, "starts in", d.StateName(d.Initial))
	for i, tr := range d.Transitions {
		to := "final"
		if !tr.Final {
			to = d.StateName(tr.To[0])
		}
		trig := d.Triggers[tr.Trigger]
		fmt.Printf("%d: %s --%s (%s)--> %s\n", i, d.StateName(tr.From), trig.Name, trig.Kind, to)
	}
	// Output:
	// goomba table starts in walkLeft
	// 0: walkLeft --hitByPlayer (message)--> dying
	// 1: walkLeft --hitTriggerLeft (test)--> walkRight
	// 2: walkRight --hitByPlayer (message)--> dying
	// 3: walkRight --hitTriggerRight (test)--> walkLeft
	// 4: dying --animationDone (test)--> final
}

// Goombas report their transitions to a flight recorder, which keeps the
// last events of every machine registered; the game stamps them with its
// tick, and looks back when something goes wrong.
func ExampleAgent_Observe() {
	t, _ := buildGoomba()
	level, _ := NewLevel(t)
	hit, _ := t.LookupTest("hitByPlayer", "")
	rec := machine.NewRecorder(256)
	obs := rec.Register(t.Describe())

	goombas := make([]Goomba, 2)
	agents := make([]table.Agent[*Goomba], 2)
	for i := range agents {
		agents[i] = table.NewAgent(t, &goombas[i], level)
		agents[i].Observe(obs, uint64(i)) // entity i in the events
	}
	for tick := range uint64(8) {
		rec.SetTick(tick)
		for i := range agents {
			g := &goombas[i]
			g.X += g.VX
			g.AnimFrames++
			if tick == 3 && i == 1 {
				agents[i].Receive(level, hit)
				continue
			}
			agents[i].Update(level)
		}
	}
	for _, ev := range rec.Events(nil) {
		d := rec.Machines()[ev.Machine]
		fmt.Printf("tick %d: goomba %d %s -> %s (%s %s)\n", ev.Tick, ev.Entity,
			d.StateName(ev.From), d.StateName(ev.To), ev.Cause, d.Triggers[ev.Trigger].Name)
	}
	// Output:
	// tick 1: goomba 0 walkLeft -> walkRight (test hitTriggerLeft)
	// tick 1: goomba 1 walkLeft -> walkRight (test hitTriggerLeft)
	// tick 3: goomba 1 walkRight -> dying (message hitByPlayer)
	// tick 5: goomba 0 walkRight -> walkLeft (test hitTriggerRight)
	// tick 5: goomba 1 dying -> final (test animationDone)
}

// A game saves all its goombas' agents at once, beside its own data, and
// loads them into the same table.
func ExampleAppendAgents() {
	t, _ := buildGoomba()
	level, _ := NewLevel(t)
	goombas := []Goomba{{X: 0}, {X: -3}, {X: 0}} // the second is past the left trigger
	agents := make([]table.Agent[*Goomba], len(goombas))
	for i := range agents {
		agents[i] = table.NewAgent(t, &goombas[i], level)
		agents[i].Update(level)
	}
	save, err := table.AppendAgents(nil, agents)
	if err != nil {
		fmt.Println(err)
		return
	}

	loaded, err := table.RestoreAgents(t, save, func(i int) *Goomba { return &goombas[i] }, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, a := range loaded {
		fmt.Println(i, a.Name())
	}
	// Output:
	// 0 walkLeft
	// 1 walkRight
	// 2 walkLeft
}

// A save made with an older version of a table loads into the new one by
// state name: the states are renumbered (walkRight comes first now, and
// is the initial state), a state airborne was added, and patrol is gone:
// the agent that was there goes to the new table's initial state, and is
// reported.
func ExampleRemapAgents() {
	old, _ := specTable("walkLeft !turn walkRight\nwalkRight !turn patrol\npatrol !turn walkLeft")
	agents := make([]table.Agent[int], 3)
	turn, _ := old.LookupTest("turn", "")
	for i := range agents {
		agents[i] = table.NewAgent[int](old, i, nil)
		for range i {
			agents[i].Receive(nil, turn)
		}
	}
	save, _ := table.AppendAgents(nil, agents)

	changed, _ := specTable("walkRight !turn walkLeft\nwalkLeft !turn walkRight\nwalkLeft !jump airborne")
	names, _, _ := table.SavedStates(save)
	d := changed.Describe()
	m := machine.NewMapping(names, nil, &d)
	loaded, err := table.RemapAgents(changed, save, m, func(i int) int { return i }, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, a := range loaded {
		fmt.Printf("agent %d: %s (%d), now %s (%d)\n", i, agents[i].Name(), agents[i].State(), a.Name(), a.State())
	}
	fmt.Println("lost:", m.Lost())
	for _, mv := range m.Moved {
		fmt.Printf("agent %d was in %s, put in %s\n", mv.Entity, mv.From, d.StateName(mv.To))
	}
	// Output:
	// agent 0: walkLeft (0), now walkLeft (1)
	// agent 1: walkRight (1), now walkRight (0)
	// agent 2: patrol (2), now walkRight (0)
	// lost: [patrol]
	// agent 2 was in patrol, put in walkRight
}
