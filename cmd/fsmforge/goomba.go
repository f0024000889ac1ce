package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/save"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

func runGoomba(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("goomba", `Usage: fsmforge demo goomba [flags]

The Goomba of the article "Visual Finite State Machine AI Systems",
drawn in Visio (examples/goomba/goomba.vdx, with the
stencil goomba.stencil.json), in a one-dimensional level: each goomba walks
between its two triggers ('|'), '<' or '>', until the player 'P' stomps
one ('x'), which is removed when its death animation is done. Prints the
level each tick and the transitions taken. The goombas run the drawing
compiled at run time (-code table) or the Go code "fsmforge gen" made from
it (-code gen); the demo then runs the other too and checks that both
traces are the same.

Flags:
`)
	n := f.Int("goombas", 3, "number of goombas")
	ticks := f.Int("ticks", 40, "number of ticks")
	code := f.String("code", "table", "what runs the goombas: table (the drawing, compiled at run time) or gen (the generated code)")
	saving := addSaveFlags(f, "tick")
	live := addLiveFlags(f, "tick")
	watch := addWatchFlags(f, goombaDrawingFile, ".vdx, .vsdx, .drawio or .scxml, all beside it")
	if err := f.parse(args, stdout); err != nil {
		return err
	}
	if watch.on && *code != "table" {
		return &usageError{msg: "goomba: -watch runs the drawing's table: generated code is compiled into the game and cannot be reloaded", help: f.help()}
	}
	if err := watch.check(f, saving, live, goombaDrawingFile); err != nil {
		return err
	}
	if err := saving.check(f, *ticks); err != nil {
		return err
	}
	if err := live.check(f, saving); err != nil {
		return err
	}
	if *n < 1 || *n > 20 {
		return &usageError{msg: fmt.Sprintf("goomba: -goombas %d: want 1 to 20", *n), help: f.help()}
	}
	if *ticks < 1 {
		return &usageError{msg: fmt.Sprintf("goomba: -ticks %d: must be at least 1", *ticks), help: f.help()}
	}
	t, err := goomba.Load()
	if err != nil {
		return err
	}
	tableBrains, err := goomba.TableBrains(t)
	if err != nil {
		return err
	}
	brains := map[string]goomba.Brains{"table": tableBrains, "gen": goomba.GenBrains()}
	other := map[string]string{"table": "gen", "gen": "table"}[*code]
	if other == "" {
		return &usageError{msg: fmt.Sprintf("goomba: -code %q: want table or gen", *code), help: f.help()}
	}
	if watch.on {
		return goombaWatch(ctx, watch, live, *n, stdout)
	}
	if live.on() {
		return goombaLive(ctx, live, t, brains[*code], *n, stdout)
	}
	d := t.Describe()
	var saved *save.File
	if saving.load != "" {
		if saved, err = saving.read(); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "goomba.vdx: %d states, %d tests; the goombas run %s\n\n", t.NumStates(), t.NumTests(),
			map[string]string{"table": "the drawing, compiled at run time", "gen": "the Go code generated from the drawing"}[*code])
	}
	// level makes the level of a run: new, or loaded from the save.
	level := func(b goomba.Brains) (*goomba.Level, error) {
		if saved != nil {
			return goomba.LoadLevel(saved, &d, b)
		}
		return goomba.NewLevel(*n, b)
	}

	l, err := level(brains[*code])
	if err != nil {
		return err
	}
	shown := len(l.Trace)
	if saved == nil {
		shown = 0
	}
	show := func() {
		var events []string
		for _, line := range l.Trace[shown:] {
			_, ev, _ := strings.Cut(line, ": ")
			events = append(events, ev)
		}
		shown = len(l.Trace)
		var row strings.Builder
		l.Draw(&row)
		line := strings.TrimSuffix(row.String(), "\n")
		if len(events) > 0 {
			line += "  " + strings.Join(events, "; ")
		}
		fmt.Fprintln(stdout, line)
	}
	if saved == nil {
		show()
	}
	for l.Tick < saving.stopAt(*ticks) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := l.Step(); err != nil {
			return err
		}
		show()
	}
	if saving.at > 0 {
		var f save.File
		if err := l.Save(&f, &d); err != nil {
			return err
		}
		return saving.write(&f, stderr)
	}

	again, err := level(brains[other])
	if err != nil {
		return err
	}
	for again.Tick < *ticks {
		if err := again.Step(); err != nil {
			return err
		}
	}
	if !slices.Equal(l.Trace, again.Trace) {
		return fmt.Errorf("goomba: the %s run and the %s run differ", *code, other)
	}
	fmt.Fprintf(stdout, "\n%d goombas left; the %s run gave the same %d trace lines\n", l.Alive(), other, len(l.Trace))
	return nil
}

// goombaLive runs goomba levels in real time with the viewer serving the
// goombas' machine, drawn as in goomba.vdx: a level whose goombas are all
// removed, or that ran 300 ticks, starts again (Replace: new brains). Clicking the transition
// hitByPlayer on the page stomps the goomba followed.
func goombaLive(ctx context.Context, live *demoLive, t *table.Table, brains goomba.Brains, n int, stdout io.Writer) error {
	l, err := goomba.NewLevel(n, brains)
	if err != nil {
		return err
	}
	hit, _ := t.LookupTest("hitByPlayer", "")
	v := live.viewer()
	// A new level's brains are new machines: a new Custom observes them.
	source := func() viewer.Source {
		return &viewer.Custom{
			Description: t.Describe(),
			N:           func() int { return len(l.Goombas) },
			State: func(i int) machine.StateID {
				if l.Brains[i].Done() {
					return machine.Final
				}
				q, _ := t.LookupState(l.Brains[i].State())
				return machine.StateID(q)
			},
			Attach: func(o machine.Observer) { l.Observe(o) },
			Send: func(i int, trigger int32) error {
				if trigger != int32(hit) {
					return fmt.Errorf("a goomba takes hitByPlayer only")
				}
				l.Stomp(i)
				return nil
			},
		}
	}
	m := v.Add("goombas", source(), goombaDrawing())
	var row strings.Builder
	return live.run(ctx, "goomba", v, stdout, func(tick uint64) error {
		if l.Alive() == 0 || l.Tick >= 300 {
			if l, err = goomba.NewLevel(n, brains); err != nil {
				return err
			}
			v.Replace(m, source())
		}
		if err := l.Step(); err != nil {
			v.Report(m, 0, err)
			return nil
		}
		row.Reset()
		l.Draw(&row)
		fmt.Fprint(stdout, row.String())
		return nil
	})
}

// goombaDrawing returns the Goomba's drawing, goomba.vdx, as the viewer
// draws it, or nil when it cannot be read (the page then lays it out).
func goombaDrawing() *viewer.Drawing {
	c, res, err := goomba.Drawing()
	if err != nil {
		return nil
	}
	return viewer.FromCompile(c, res)
}

// goombaDrawingFile is the drawing -watch runs by default.
const goombaDrawingFile = "examples/goomba/goomba.vdx"

// goombaWatch runs goomba levels in real time from the drawing on disk,
// reloading it whenever it is saved: the goombas keep their states, by
// name, and each reload is printed. A level whose goombas are all removed,
// or that ran 300 ticks, starts again, on the drawing as it is then. With
// -live the viewer shows the drawing as the designer saves it.
func goombaWatch(ctx context.Context, watch *demoWatch, live *demoLive, n int, stdout io.Writer) error {
	st, err := goomba.Stencil()
	if err != nil {
		return err
	}
	cfg, err := watch.config(st)
	if err != nil {
		return err
	}
	return watching(ctx, "goomba", watch, live, cfg, stdout, func(d *reload.Drawing, v *viewer.Viewer, out io.Writer) (func(uint64) error, error) {
		brains, err := goomba.TableBrains(d.Table())
		if err != nil {
			return nil, err
		}
		l, err := goomba.NewLevel(n, brains)
		if err != nil {
			return nil, err
		}
		// The level changes when one ends: the targets ask for the one
		// running.
		d.Run("goombas", reload.Func(func(t *table.Table, m *machine.Mapping) (func(), error) { return l.PrepareReload(t, m) }))
		agents := func(yield func(*table.Agent[*goomba.Goomba]) bool) { l.Agents()(yield) } // the level running
		view := -1
		if v != nil {
			view = d.View("goombas", func(t *table.Table) viewer.Source { return viewer.TableAgents(t, agents) })
		}
		var row strings.Builder
		return func(uint64) error {
			if l.Alive() == 0 || l.Tick >= 300 {
				if l, err = goomba.NewLevel(n, brains); err != nil {
					return err
				}
				if v != nil {
					v.Replace(view, viewer.TableAgents(d.Table(), agents))
				}
			}
			if err := l.Step(); err != nil {
				if v != nil {
					v.Report(view, 0, err)
				}
				fmt.Fprintln(out, err)
				return nil
			}
			row.Reset()
			l.Draw(&row)
			fmt.Fprint(out, row.String())
			return nil
		}, nil
	})
}
