package table_test

import (
	"fmt"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/table"
)

// A crowd of goombas on package crowd: the Goomba table (built as in the
// Builder example), the level as host, each goomba's data stored in the
// machine. The game moves the goombas, the player stomps one now and then
// (a message, posted by crowd ID), and each step updates every goomba as
// its own agent would; a goomba whose death animation is done goes to the
// final state and leaves the machine, which OnFinal reports.
func ExampleCrowd() {
	t, _ := buildGoomba()
	level, err := NewLevel(t)
	if err != nil {
		fmt.Println(err)
		return
	}
	hit, _ := t.LookupTest("hitByPlayer", "")

	frame := 0
	c, err := table.NewCrowd(t, level, crowd.Options[Goomba]{
		OnFinal: func(id crowd.ID, g *Goomba) {
			fmt.Printf("frame %d: goomba %d removed at x=%d\n", frame, id, g.X)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for id := range crowd.ID(4) {
		if err := c.Add(id, Goomba{X: int(id) - 1}); err != nil { // enters walkLeft
			fmt.Println(err)
			return
		}
	}

	m := c.Machine()
	walkLeft, _ := m.LookupState("walkLeft") // crowd.StateID(q) is the table's state q
	walkRight, _ := m.LookupState("walkRight")
	dying, _ := m.LookupState("dying")
	for frame = 1; m.Len() > 0; frame++ {
		for q := range crowd.StateID(m.NumStates()) { // the game's own work
			for _, g := range m.Each(q) {
				g.X += g.VX
				g.AnimFrames++
			}
		}
		if frame%3 == 0 {
			// The player stomps goomba 0 at frame 3, 1 at frame 6, and so on.
			if err := c.Post(crowd.ID(frame/3-1), hit); err != nil {
				fmt.Println(err)
				return
			}
		}
		if err := c.Step(); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("frame %d: walkLeft %d, walkRight %d, dying %d\n", frame, m.Count(walkLeft), m.Count(walkRight), m.Count(dying))
	}
	// Output:
	// frame 1: walkLeft 3, walkRight 1, dying 0
	// frame 2: walkLeft 2, walkRight 2, dying 0
	// frame 3: walkLeft 1, walkRight 2, dying 1
	// frame 4: walkLeft 0, walkRight 3, dying 1
	// frame 5: goomba 0 removed at x=0
	// frame 5: walkLeft 0, walkRight 3, dying 0
	// frame 6: walkLeft 0, walkRight 2, dying 1
	// frame 7: walkLeft 1, walkRight 1, dying 1
	// frame 8: goomba 1 removed at x=2
	// frame 8: walkLeft 2, walkRight 0, dying 0
	// frame 9: walkLeft 1, walkRight 0, dying 1
	// frame 10: walkLeft 1, walkRight 0, dying 1
	// frame 11: goomba 2 removed at x=0
	// frame 11: walkLeft 1, walkRight 0, dying 0
	// frame 12: walkLeft 0, walkRight 0, dying 1
	// frame 13: walkLeft 0, walkRight 0, dying 1
	// frame 14: goomba 3 removed at x=-2
	// frame 14: walkLeft 0, walkRight 0, dying 0
}
