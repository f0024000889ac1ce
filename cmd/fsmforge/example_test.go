package main

import (
	"context"
	"os"
)

// The formation demo prints a line per frame: ships per state, transitions.
func Example_formation() {
	run(context.Background(), []string{"demo", "formation", "-frames", "3", "-ships", "3"}, nil, os.Stdout, os.Stderr)
	// Output:
	// frame   1 | idle  0 follow  0 lead  0 rally  1 patrol  0 attack  0 | idle→lead lead→rally
	// frame   2 | idle  0 follow  0 lead  0 rally  1 patrol  0 attack  0 | -
	// frame   3 | idle  0 follow  1 lead  0 rally  1 patrol  0 attack  0 | idle→follow
}

// -trace prints tab-separated lines for tests and tools.
func Example_westworldTrace() {
	run(context.Background(), []string{"demo", "westworld", "-solo", "-trace", "-n", "4"}, nil, os.Stdout, os.Stderr)
	// Output:
	// 1	Miner Bob	EnterMineAndDigForNugget	goldmine	0	0	1	0
	// 2	Miner Bob	EnterMineAndDigForNugget	goldmine	1	0	2	1
	// 3	Miner Bob	EnterMineAndDigForNugget	goldmine	2	0	3	2
	// 4	Miner Bob	VisitBankAndDepositGold	bank	3	0	4	3
}
