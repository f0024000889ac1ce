package crowd_test

import (
	"fmt"

	"github.com/fsmforge/fsmforge/crowd"
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
