package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/examples/westworld"
	"github.com/fsmforge/fsmforge/save"
)

func runWestWorld(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("westworld", `Usage: fsmforge demo westworld [flags]

Buckland's West World: Miner Bob digs, banks, drinks and sleeps; Elsa keeps
house and cooks him stew when he comes home. Same seed, same story.

Flags:
`)
	seed := f.Uint64("seed", 1, "seed for Elsa's dice")
	solo := f.Bool("solo", false, "Bob alone, as in Buckland's first West World (20 updates unless -n)")
	n := f.Int("n", 0, "number of updates (default 30, or 20 with -solo)")
	trace := f.Bool("trace", false, "print one tab-separated line per update per character instead of the story:\nupdate, entity, state, location, gold carried, money in bank, thirst, fatigue")
	saving := addSaveFlags(f, "update")
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
	if err := saving.check(f, *n); err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	opts := westworld.Options{Seed: *seed, Solo: *solo, Color: colorful(stdout)}
	if !*trace {
		opts.Out = out
	}
	w := westworld.NewWorld(opts)
	if saving.load != "" {
		saved, err := saving.read()
		if err != nil {
			return err
		}
		if w, err = westworld.LoadWorld(saved, opts); err != nil {
			return err
		}
	}
	for w.Updates() < saving.stopAt(*n) {
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
	if saving.at > 0 {
		var f save.File
		if err := w.Save(&f); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
		return saving.write(&f, stderr)
	}
	return out.Flush()
}
