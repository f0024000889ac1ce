package crowd_test

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
)

// Bats hang until they get hungry, hunt, and leave the game once fed.
func Example() {
	type bat struct{ hunger int }
	const (
		hang crowd.StateID = iota
		hunt
	)
	m, err := crowd.New([]crowd.Def[bat]{
		{Name: "hang", Func: func(b *bat, prev crowd.StateID) crowd.StateID {
			b.hunger++
			if b.hunger >= 3 {
				return hunt
			}
			return hang
		}},
		{Name: "hunt", Func: func(b *bat, prev crowd.StateID) crowd.StateID {
			if prev != hunt {
				return hunt // the first step in hunt: take off
			}
			return crowd.Final // fed: gone
		}},
	}, crowd.Options[bat]{
		OnFinal: func(id crowd.ID, b *bat) { fmt.Printf("bat %d flies off\n", id) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	for id := range crowd.ID(4) {
		_ = m.Add(id, bat{hunger: int(id)}, hang)
	}
	for step := 1; m.Len() > 0; step++ {
		if err := m.Step(); err != nil {
			fmt.Println(err)
		}
		fmt.Printf("step %d: hang %d, hunt %d\n", step, m.Count(hang), m.Count(hunt))
	}
	// Output:
	// step 1: hang 2, hunt 2
	// step 2: hang 1, hunt 3
	// bat 2 flies off
	// bat 3 flies off
	// step 3: hang 0, hunt 2
	// bat 1 flies off
	// step 4: hang 0, hunt 1
	// bat 0 flies off
	// step 5: hang 0, hunt 0
}

// A per-bucket state function loops over its entities itself.
func ExampleBatchFunc() {
	type particle struct{ y, vy float32 }
	const (
		fall crowd.StateID = iota
		rest
	)
	m, _ := crowd.New([]crowd.Def[particle]{
		{Name: "fall", Batch: func(b *crowd.Batch[particle]) {
			for i := range b.Len() {
				p, _ := b.At(i)
				p.vy -= 1
				p.y += p.vy
				if p.y <= 0 {
					p.y, p.vy = 0, 0
					b.Set(i, rest)
				}
			}
		}},
		{Name: "rest", Func: func(*particle, crowd.StateID) crowd.StateID { return rest }},
	}, crowd.Options[particle]{})
	defer m.Close()
	for i := range crowd.ID(3) {
		_ = m.Add(i, particle{y: float32(i) * 4}, fall)
	}
	for range 3 {
		_ = m.Step()
	}
	fmt.Println("falling:", m.Count(fall), "resting:", m.Count(rest))
	for id, p := range m.Each(fall) {
		fmt.Printf("particle %d at %.0f\n", id, p.y)
	}
	// Output:
	// falling: 1 resting: 2
	// particle 2 at 2
}

// A saved game: the crowd's state, with each bat's data written by the
// game's codec, restored into a new machine that goes on as the first.
func ExampleMachine_Snapshot() {
	type bat struct{ hunger uint8 }
	const (
		hang crowd.StateID = iota
		hunt
	)
	states := []crowd.Def[bat]{
		{Name: "hang", Func: func(b *bat, prev crowd.StateID) crowd.StateID {
			if b.hunger++; b.hunger >= 3 {
				return hunt
			}
			return hang
		}},
		{Name: "hunt", Func: func(b *bat, prev crowd.StateID) crowd.StateID {
			if prev != hunt {
				return hunt // the first step in hunt: take off
			}
			return crowd.Final // fed: gone
		}},
	}
	codec := machine.Codec[bat]{
		Append: func(b []byte, v *bat) ([]byte, error) { return append(b, v.hunger), nil },
		Decode: func(b []byte, v *bat) error {
			if len(b) != 1 {
				return fmt.Errorf("a bat takes 1 byte, not %d", len(b))
			}
			v.hunger = b[0]
			return nil
		},
	}
	m, _ := crowd.New(states, crowd.Options[bat]{})
	defer m.Close()
	for id := range crowd.ID(4) {
		_ = m.Add(id, bat{hunger: uint8(id)}, hang)
	}
	_ = m.Step()

	var snap crowd.Snapshot[bat]
	m.Snapshot(&snap)
	save, err := snap.AppendBinary(nil, codec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("saved %d bats after step %d in %d bytes\n", len(snap.IDs), snap.Steps, len(save))

	var loaded crowd.Snapshot[bat]
	if err := loaded.Decode(save, codec); err != nil {
		fmt.Println(err)
		return
	}
	r, _ := crowd.New(states, crowd.Options[bat]{})
	defer r.Close()
	if err := r.Restore(&loaded); err != nil {
		fmt.Println(err)
		return
	}
	// The two go on alike: the bats hunting since step 1 leave at step 2,
	// in both, as the restored ones know they were hunting already.
	for r.Len() > 0 {
		_ = m.Step()
		_ = r.Step()
		fmt.Printf("step %d: hang %d, hunt %d; restored: hang %d, hunt %d\n",
			r.Steps(), m.Count(hang), m.Count(hunt), r.Count(hang), r.Count(hunt))
	}
	// Output:
	// saved 4 bats after step 1 in 37 bytes
	// step 2: hang 1, hunt 3; restored: hang 1, hunt 3
	// step 3: hang 0, hunt 2; restored: hang 0, hunt 2
	// step 4: hang 0, hunt 1; restored: hang 0, hunt 1
	// step 5: hang 0, hunt 0; restored: hang 0, hunt 0
}

// A flight recorder attached to a crowd keeps its last changes of state.
func ExampleMachine_Observe() {
	const (
		calm crowd.StateID = iota
		angry
	)
	m, _ := crowd.New([]crowd.Def[int]{
		{Name: "calm", Func: func(poked *int, _ crowd.StateID) crowd.StateID {
			if *poked > 0 {
				return angry
			}
			return calm
		}},
		{Name: "angry", Func: func(poked *int, _ crowd.StateID) crowd.StateID {
			*poked--
			if *poked < 0 {
				return crowd.Final
			}
			return angry
		}},
	}, crowd.Options[int]{})
	defer m.Close()
	rec := machine.NewRecorder(100)
	m.Observe(rec.Register(m.Describe()))
	for id := range crowd.ID(3) {
		_ = m.Add(id, int(id), calm)
	}
	for tick := range uint64(4) {
		rec.SetTick(tick)
		_ = m.Step()
	}
	evs := rec.Events(nil)
	// The workers report as they go: put the events in a stable order.
	slices.SortStableFunc(evs, func(a, b machine.Event) int {
		return cmp.Or(cmp.Compare(a.Tick, b.Tick), cmp.Compare(a.Entity, b.Entity))
	})
	d := rec.Machines()[0]
	for _, ev := range evs {
		fmt.Printf("tick %d: %d %s -> %s\n", ev.Tick, ev.Entity, d.StateName(ev.From), d.StateName(ev.To))
	}
	// Output:
	// tick 0: 1 calm -> angry
	// tick 0: 2 calm -> angry
	// tick 2: 1 angry -> final
	// tick 3: 2 angry -> final
}

// The designer edits a running machine of guards: patrol is renamed walk
// (the mapping is told), rest is added, and alert is removed, its guards
// sent to the fallback, idle.
func ExampleMachine_Redefine() {
	stay := func(me crowd.StateID) crowd.Func[int] {
		return func(*int, crowd.StateID) crowd.StateID { return me }
	}
	defs := func(names ...string) []crowd.Def[int] {
		out := make([]crowd.Def[int], len(names))
		for i, name := range names {
			out[i] = crowd.Def[int]{Name: name, Func: stay(crowd.StateID(i))}
		}
		return out
	}
	m, err := crowd.New(defs("idle", "patrol", "alert"), crowd.Options[int]{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	for id := range crowd.ID(6) {
		_ = m.Add(id, 0, crowd.StateID(id%3))
	}
	states := defs("idle", "walk", "rest")
	old := []string{"idle", "patrol", "alert"}
	d := machine.Description{Initial: 0, States: []machine.State{{Name: "idle"}, {Name: "walk"}, {Name: "rest"}}}
	mp := machine.NewMapping(old, nil, &d) // idle by name; patrol and alert gone
	mp.To[1] = 1                           // patrol is walk
	if err := m.Redefine(states, mp); err != nil {
		fmt.Println(err)
		return
	}
	for s := range crowd.StateID(m.NumStates()) {
		fmt.Printf("%s:", m.StateName(s))
		for id := range m.Each(s) {
			fmt.Print(" ", id)
		}
		fmt.Println()
	}
	fmt.Println(mp.Moved)
	// Output:
	// idle: 0 3 2 5
	// walk: 1 4
	// rest:
	// [{2 alert state 0} {5 alert state 0}]
}
