package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/examples/formation"
	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/save"
	"github.com/fsmforge/fsmforge/viewer"
)

func runFormation(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("formation", `Usage: fsmforge demo formation [flags]

The Astralia formation flyers of the XNA article: ships arrive, join a
rallying leader or lead, patrol, attack; a downed leader's first follower
takes over. One line per frame: ships in each state, transitions taken.

Flags:
`)
	seed := f.Uint64("seed", 1, "seed for the enemy's appearances and the hits")
	frames := f.Int("frames", 40, "number of frames")
	ships := f.Int("ships", 12, "number of ships")
	size := f.Int("size", 3, "followers a leader waits for before patrolling")
	saving := addSaveFlags(f, "frame")
	live := addLiveFlags(f, "frame")
	if err := f.parse(args, stdout); err != nil {
		return err
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"frames", *frames}, {"ships", *ships}, {"size", *size}} {
		if v.n < 1 {
			return &usageError{msg: fmt.Sprintf("formation: -%s %d: must be at least 1", v.name, v.n), help: f.help()}
		}
	}
	if err := saving.check(f, *frames); err != nil {
		return err
	}
	if err := live.check(f, saving); err != nil {
		return err
	}
	opts := formation.Options{Seed: *seed, Ships: *ships, FormationSize: *size}
	if live.on() {
		return formationLive(ctx, live, opts, stdout)
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	sq := formation.NewSquadron(opts)
	if saving.load != "" {
		saved, err := saving.read()
		if err != nil {
			return err
		}
		if sq, err = formation.LoadSquadron(saved); err != nil {
			return err
		}
	}
	for sq.Frame() < saving.stopAt(*frames) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := sq.Step(); err != nil {
			return err
		}
		if err := sq.Summary(out); err != nil {
			return err
		}
	}
	if saving.at > 0 {
		var f save.File
		if err := sq.Save(&f); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
		return saving.write(&f, stderr)
	}
	return out.Flush()
}

// formationLive runs squadrons in real time with the viewer serving the
// ships' guarded machines: a squadron all shot down, or that flew 600
// frames, takes off again with the next seed.
func formationLive(ctx context.Context, live *demoLive, opts formation.Options, stdout io.Writer) error {
	sq := formation.NewSquadron(opts)
	v := live.viewer()
	ships := func(yield func(*fsm.GuardMachine[*formation.Ship, formation.Action]) bool) {
		for _, s := range sq.Ships {
			if !yield(&s.AI) {
				return
			}
		}
	}
	id := func(s *formation.Ship) uint64 { return uint64(s.ID) }
	m := v.Add("ships", viewer.GuardMachines(sq.Flow, ships, id), nil)
	return live.run(ctx, "formation", v, stdout, func(tick uint64) error {
		if len(sq.Ships) == 0 || sq.Frame() >= 600 {
			opts.Seed++
			sq = formation.NewSquadron(opts)
			v.Replace(m, viewer.GuardMachines(sq.Flow, ships, id)) // the new squadron's own graph
		}
		if err := sq.Step(); err != nil {
			return err
		}
		return sq.Summary(stdout)
	})
}
