package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/examples/guard"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/save"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

func runGuard(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("guard", `Usage: fsmforge demo guard [flags]

Guard NPCs drawn as a statechart in Qt Creator's SCXML editor
(examples/guard/guard.scxml) and run with the W3C SCXML semantics: a guard
patrols until it hears a noise, then is alert: a compound state with a
deep history (it comes back to what it was doing) holding a parallel
state, its weapon aiming and firing while its legs stand and chase. It
gives up the search five seconds after the alert began (a state timer,
"after 5s" on the drawing, in game time: a tick is 0.1 s), and dies when
hit. A seeded script makes the noises, sightings and shots. Prints each
guard's active states when they change, and the event that changed them.

Flags:
`)
	n := f.Int("guards", 3, "number of guards")
	ticks := f.Int("ticks", 100, "number of ticks")
	seed := f.Uint64("seed", 1, "the script's seed")
	saving := addSaveFlags(f, "tick")
	live := addLiveFlags(f, "tick")
	watch := addWatchFlags(f, guardDrawingFile, ".scxml or .drawio, both beside it")
	if err := f.parse(args, stdout); err != nil {
		return err
	}
	if err := watch.check(f, saving, live, guardDrawingFile); err != nil {
		return err
	}
	if err := saving.check(f, *ticks); err != nil {
		return err
	}
	if err := live.check(f, saving); err != nil {
		return err
	}
	if *n < 1 || *n > 100 {
		return &usageError{msg: fmt.Sprintf("guard: -guards %d: want 1 to 100", *n), help: f.help()}
	}
	if *ticks < 1 {
		return &usageError{msg: fmt.Sprintf("guard: -ticks %d: must be at least 1", *ticks), help: f.help()}
	}
	if watch.on {
		return guardWatch(ctx, watch, live, *n, *seed, stdout)
	}
	t, err := guard.Load()
	if err != nil {
		return err
	}
	if live.on() {
		return guardLive(ctx, live, t, *n, *seed, stdout)
	}
	var l *guard.Level
	if saving.load != "" {
		saved, err := saving.read()
		if err != nil {
			return err
		}
		if l, err = guard.LoadLevel(t, saved); err != nil {
			return err
		}
	} else {
		if l, err = guard.NewLevel(t, *n, *seed); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d guards running %q (%d states, a statechart), %d ticks of %.1f s\n", *n, t.Name(), t.NumStates(), *ticks, guard.TickSeconds)
		for i := range l.Len() {
			fmt.Fprintf(stdout, "tick   0: guard %d %-13s -> %s\n", i+1, "", l.Active(i))
		}
	}
	for l.Tick() < saving.stopAt(*ticks) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := l.Step(func(g *guard.Guard, event, active string) {
			fmt.Fprintf(stdout, "tick %3d: guard %d %-13s -> %s\n", l.Tick(), g.ID, event, active)
		}); err != nil {
			return err
		}
	}
	if saving.at > 0 {
		var f save.File
		if err := l.Save(&f); err != nil {
			return err
		}
		return saving.write(&f, stderr)
	}
	return nil
}

// guardLive runs guard levels in real time with the viewer serving the
// guards' statechart, drawn as in guard.scxml: a level whose guards are
// all dead, or that ran 600 ticks, starts again with the next seed.
func guardLive(ctx context.Context, live *demoLive, t *table.Table, n int, seed uint64, stdout io.Writer) error {
	l, err := guard.NewLevel(t, n, seed)
	if err != nil {
		return err
	}
	var drawing *viewer.Drawing
	if c, res, err := guard.Drawing(); err == nil {
		drawing = viewer.FromCompile(c, res)
	}
	v := live.viewer()
	agents := func(yield func(*table.Agent[*guard.Guard]) bool) { l.Agents()(yield) } // the level running
	v.Add("guards", viewer.TableAgents(t, agents), drawing)
	return live.run(ctx, "guard", v, stdout, func(tick uint64) error {
		if l.Tick() >= 600 || allDead(l) {
			seed++
			if l, err = guard.NewLevel(t, n, seed); err != nil {
				return err
			}
		}
		return l.Step(func(g *guard.Guard, event, active string) {
			fmt.Fprintf(stdout, "tick %3d: guard %d %-13s -> %s\n", l.Tick(), g.ID, event, active)
		})
	})
}

// allDead reports whether every guard of l is done.
func allDead(l *guard.Level) bool {
	for a := range l.Agents() {
		if !a.Done() {
			return false
		}
	}
	return true
}

// guardDrawingFile is the drawing -watch runs by default.
const guardDrawingFile = "examples/guard/guard.scxml"

// guardWatch runs guard levels in real time from the drawing on disk,
// reloading it whenever it is saved: each guard keeps its active states,
// history, queued events and timers, by name, and each reload is printed.
// A level whose guards are all dead, or that ran 600 ticks, starts again
// with the next seed, on the drawing as it is then.
func guardWatch(ctx context.Context, watch *demoWatch, live *demoLive, n int, seed uint64, stdout io.Writer) error {
	cfg, err := watch.config(nil)
	if err != nil {
		return err
	}
	return watching(ctx, "guard", watch, live, cfg, stdout, func(d *reload.Drawing, v *viewer.Viewer, out io.Writer) (func(uint64) error, error) {
		l, err := guard.NewLevel(d.Table(), n, seed)
		if err != nil {
			return nil, err
		}
		d.Run("guards", reload.Func(func(t *table.Table, m *machine.Mapping) (func(), error) { return l.PrepareReload(t, m) }))
		agents := func(yield func(*table.Agent[*guard.Guard]) bool) { l.Agents()(yield) } // the level running
		view := -1
		if v != nil {
			view = d.View("guards", func(t *table.Table) viewer.Source { return viewer.TableAgents(t, agents) })
		}
		return func(uint64) error {
			if l.Tick() >= 600 || allDead(l) {
				seed++
				if l, err = guard.NewLevel(d.Table(), n, seed); err != nil {
					return err
				}
				if v != nil {
					v.Replace(view, viewer.TableAgents(d.Table(), agents))
				}
			}
			err := l.Step(func(g *guard.Guard, event, active string) {
				fmt.Fprintf(out, "tick %3d: guard %d %-13s -> %s\n", l.Tick(), g.ID, event, active)
			})
			if err != nil { // a drawing that chains forever, say: the designer mends it
				fmt.Fprintln(out, err)
				if v != nil {
					v.Report(view, 0, err)
				}
			}
			return nil
		}, nil
	})
}
