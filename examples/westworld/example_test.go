package westworld_test

import (
	"os"

	"github.com/fsmforge/fsmforge/examples/westworld"
)

func Example() {
	w := westworld.NewWorld(westworld.Options{Seed: 1, Out: os.Stdout})
	for range 4 {
		if err := w.Update(); err != nil {
			panic(err)
		}
	}
	w.WriteTrace(os.Stdout)
	// Output:
	// Miner Bob: Rested up and ready. Back to diggin'!
	// Miner Bob: Steppin' out of the shack
	// Miner Bob: Trampin' up the hill to the mine
	// Elsa: Scrubbin' the pots
	// Miner Bob: Chip, chip... got me a nugget
	// Elsa: Airin' out the quilts
	// Miner Bob: Chip, chip... got me a nugget
	// Elsa: Airin' out the quilts
	// Miner Bob: Chip, chip... got me a nugget
	// Miner Bob: Leavin' the mine with mah pockets a-janglin'
	// Miner Bob: Off to the bank with mah gold
	// Elsa: Airin' out the quilts
	// 4	Miner Bob	VisitBankAndDepositGold	bank	3	0	4	3
	// 4	Elsa	DoHouseWork	shack	-	-	-	-
}
