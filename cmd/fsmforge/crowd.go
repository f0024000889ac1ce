package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/fsmforge/fsmforge/crowd"
	crowddemo "github.com/fsmforge/fsmforge/examples/crowd"
	"github.com/fsmforge/fsmforge/save"
	"github.com/fsmforge/fsmforge/viewer"
)

func runCrowd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("crowd", `Usage: fsmforge demo crowd [flags]

A horde of monsters sharing one four-state machine (idle, wander, chase,
flee) on package crowd: each state's monsters sit in a bucket, and each
step runs the buckets on parallel workers. Prints the monsters in each
state every few steps, then the speed. The counts are the same for a seed
whatever -workers is.

Flags:
`)
	entities := f.Int("entities", 1000000, "number of monsters")
	steps := f.Int("steps", 100, "number of steps")
	workers := f.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines")
	seed := f.Uint64("seed", 1, "seed of the monsters' random sequences")
	every := f.Int("every", 0, "print the counts every N steps (default: 10 lines in all)")
	saving := addSaveFlags(f, "step")
	live := addLiveFlags(f, "step")
	if err := f.parse(args, stdout); err != nil {
		return err
	}
	if err := saving.check(f, *steps); err != nil {
		return err
	}
	if err := live.check(f, saving); err != nil {
		return err
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"entities", *entities}, {"steps", *steps}, {"workers", *workers}} {
		if v.n < 1 {
			return &usageError{msg: fmt.Sprintf("crowd: -%s %d: must be at least 1", v.name, v.n), help: f.help()}
		}
	}
	if *every < 0 {
		return &usageError{msg: fmt.Sprintf("crowd: -every %d: cannot be negative", *every), help: f.help()}
	}
	if *every == 0 {
		*every = max(1, *steps/10)
	}
	var m *crowd.Machine[crowddemo.Monster]
	var err error
	if saving.load != "" {
		saved, err := saving.read()
		if err != nil {
			return err
		}
		m, err = crowddemo.Load(saved, *workers)
		if err != nil {
			return err
		}
	} else if m, err = crowddemo.New(*entities, *seed, *workers); err != nil {
		return err
	}
	defer m.Close()
	if live.on() {
		v := live.viewer()
		v.Add("horde", viewer.Crowd(m), nil)
		return live.run(ctx, "crowd", v, stdout, func(tick uint64) error {
			if err := m.Step(); err != nil {
				return err
			}
			if (tick+1)%uint64(*every) == 0 {
				fmt.Fprintf(stdout, "step %4d |", tick+1)
				for q := range crowd.StateID(m.NumStates()) {
					fmt.Fprintf(stdout, " %s %d", m.StateName(q), m.Count(q))
				}
				fmt.Fprintln(stdout)
			}
			return nil
		})
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if saving.load == "" {
		fmt.Fprintf(out, "%d monsters, %d steps, %d workers\n", *entities, *steps, *workers)
	}
	var busy time.Duration
	ran := 0
	for i := int(m.Steps()) + 1; i <= saving.stopAt(*steps); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		if err := m.Step(); err != nil {
			return err
		}
		busy += time.Since(start)
		ran++
		if i%*every == 0 || i == *steps {
			if err := crowddemo.Summary(out, m); err != nil {
				return err
			}
		}
	}
	if saving.at > 0 {
		var f save.File
		if err := crowddemo.Save(&f, m); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
		return saving.write(&f, stderr)
	}
	fmt.Fprintf(out, "checksum %016x\n", crowddemo.Checksum(m))
	if ran == 0 {
		return out.Flush()
	}
	sec := busy.Seconds()
	fmt.Fprintf(out, "speed: %.0f steps/s, %.1f ns per entity-update (wall clock, this machine)\n",
		float64(ran)/sec, float64(busy.Nanoseconds())/float64(ran)/float64(m.Len()))
	return out.Flush()
}
