package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/examples/westworld"
	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/save"
	"github.com/fsmforge/fsmforge/viewer"
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
	live := addLiveFlags(f, "update")
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
	if err := live.check(f, saving); err != nil {
		return err
	}
	if live.on() {
		return westWorldLive(ctx, live, westworld.Options{Seed: *seed, Solo: *solo, Color: colorful(stdout), Out: stdout})
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

// westWorldLive tells West World's story in real time with the viewer
// serving Bob's and Elsa's behaviour machines: the states each has been
// in, and the changes of state seen so far.
func westWorldLive(ctx context.Context, live *demoLive, opts westworld.Options) error {
	w := westworld.NewWorld(opts)
	v := live.viewer()
	id := func(e westworld.EntityID) uint64 { return uint64(e) }
	bob := func(yield func(*fsm.BehaviorMachine[*westworld.Miner, westworld.Telegram]) bool) { yield(w.Bob.FSM) }
	v.Add("Miner Bob", viewer.WithTelegrams(viewer.BehaviorMachines(westworld.MinerStates, bob, func(m *westworld.Miner) uint64 { return id(m.ID) }), w.Dispatcher, id), nil)
	if w.Elsa != nil {
		elsa := func(yield func(*fsm.BehaviorMachine[*westworld.Wife, westworld.Telegram]) bool) { yield(w.Elsa.FSM) }
		v.Add("Elsa", viewer.WithTelegrams(viewer.BehaviorMachines(westworld.WifeStates, elsa, func(e *westworld.Wife) uint64 { return id(e.ID) }), w.Dispatcher, id), nil)
	}
	return live.run(ctx, "westworld", v, opts.Out, func(uint64) error { return w.Update() })
}
