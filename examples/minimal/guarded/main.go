// Command guarded is the README's minimal GuardMachine program.
package main

import (
	"fmt"

	"github.com/fsmforge/fsmforge/fsm"
)

// Guard is the entity the guards look at.
type Guard struct{ SeesPlayer, Tired bool }

func main() {
	// Build the graph once; every guard shares it.
	var g fsm.Graph[*Guard, string]
	patrol := g.AddState(fsm.State[*Guard, string]{Name: "patrol", Tag: "walks the wall"})
	chase := g.AddState(fsm.State[*Guard, string]{Name: "chase", Tag: "runs",
		Enter: func(*Guard) { fmt.Println("Halt!") }})
	rest := g.AddState(fsm.State[*Guard, string]{Name: "rest", Tag: "sits down"})
	g.AddTransition(patrol, chase, func(x *Guard) bool { return x.SeesPlayer })
	g.AddTransition(chase, rest, func(x *Guard) bool { return x.Tired })
	g.AddTransition(rest, patrol, func(x *Guard) bool { return !x.Tired })

	bob := &Guard{}
	ai := g.New(bob, patrol) // a few words per entity, no allocation
	for frame := range 4 {
		bob.SeesPlayer, bob.Tired = frame == 1, frame == 2
		if err := ai.Update(); err != nil { // a guard cycle is an error, not a hang
			panic(err)
		}
		fmt.Printf("frame %d: %s (%s)\n", frame, ai.Name(), ai.Tag())
	}
}
