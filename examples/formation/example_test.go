package formation_test

import (
	"os"

	"github.com/fsmforge/fsmforge/examples/formation"
)

func Example() {
	sq := formation.NewSquadron(formation.Options{Seed: 1, Ships: 4, FormationSize: 3})
	for range 8 {
		if err := sq.Step(); err != nil {
			panic(err)
		}
		sq.Summary(os.Stdout)
	}
	// Output:
	// frame   1 | idle  0 follow  0 lead  0 rally  1 patrol  0 attack  0 | idle→lead lead→rally
	// frame   2 | idle  0 follow  0 lead  0 rally  1 patrol  0 attack  0 | -
	// frame   3 | idle  0 follow  1 lead  0 rally  1 patrol  0 attack  0 | idle→follow
	// frame   4 | idle  0 follow  1 lead  0 rally  1 patrol  0 attack  0 | -
	// frame   5 | idle  0 follow  2 lead  0 rally  1 patrol  0 attack  0 | idle→follow
	// frame   6 | idle  0 follow  2 lead  0 rally  1 patrol  0 attack  0 | -
	// frame   7 | idle  0 follow  3 lead  0 rally  1 patrol  0 attack  0 | idle→follow
	// frame   8 | idle  0 follow  3 lead  0 rally  0 patrol  0 attack  1 | rally→patrol patrol→attack
}
