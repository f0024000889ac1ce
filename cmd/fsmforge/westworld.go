package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/examples/westworld"
)

func runWestWorld(ctx context.Context, args []string, stdout io.Writer) error {
	f := newFlags("westworld", `Usage: fsmforge demo westworld [flags]

Buckland's West World: Miner Bob digs, banks, drinks and sleeps; Elsa keeps
house and cooks him stew when he comes home. Same seed, same story.

Flags:
`)
	seed := f.Uint64("seed", 1, "seed for Elsa's dice")
	solo := f.Bool("solo", false, "Bob alone, as in Buckland's first West World (20 updates unless -n)")
	n := f.Int("n", 0, "number of updates (default 30, or 20 with -solo)")
	trace := f.Bool("trace", false, "print one tab-separated line per update per character instead of the story:\nupdate, entity, state, location, gold carried, money in bank, thirst, fatigue")
	if err := f.parse(args, stdout); err != nil {
		return err
	}
	switch {
	case *n < 0:
		return &usageError{msg: fmt.Sprintf("westworld: -n %d: the number of updates cannot be negative", *n), help: f.help()}
	case *n == 0 && *solo:
		*n = 20
	case *n == 0:
		*n = 30
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	opts := westworld.Options{Seed: *seed, Solo: *solo, Color: colorful(stdout)}
	if !*trace {
		opts.Out = out
	}
	w := westworld.NewWorld(opts)
	for range *n {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.Update(); err != nil {
			return err
		}
		if *trace {
			if err := w.WriteTrace(out); err != nil {
				return err
			}
		}
	}
	return out.Flush()
}
