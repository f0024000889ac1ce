package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/viewer"
)

// demoWatch holds a demo's -watch and -drawing flags: run from a drawing
// on disk and reload it whenever it is saved.
type demoWatch struct {
	on      bool
	drawing string
	stencil string
}

// addWatchFlags adds the flags to f; def is the drawing run by default,
// which formats lists.
func addWatchFlags(f *flags, def, formats string) *demoWatch {
	w := &demoWatch{}
	f.BoolVar(&w.on, "watch", false, "run in real time until interrupted, from the drawing on disk (-drawing), and reload it whenever it is saved; prints each reload")
	f.StringVar(&w.drawing, "drawing", def, "with -watch, the drawing `FILE` to run: "+formats)
	f.StringVar(&w.stencil, "stencil", "", "with -watch, the stencil `FILE` the drawing was drawn with (default: the demo's own)")
	return w
}

// check reports a usage error in the flags.
func (w *demoWatch) check(f *flags, s *demoSave, live *demoLive, def string) error {
	switch {
	case !w.on && w.drawing != def:
		return &usageError{msg: f.Name() + ": -drawing is for -watch", help: f.help()}
	case !w.on && w.stencil != "":
		return &usageError{msg: f.Name() + ": -stencil is for -watch", help: f.help()}
	case !w.on:
		return nil
	case !(live.tps > 0) || live.tps > 1000:
		return &usageError{msg: fmt.Sprintf("%s: -tps %v: want 0 to 1000", f.Name(), live.tps), help: f.help()}
	case s != nil && (s.at > 0 || s.load != ""):
		return &usageError{msg: f.Name() + ": -watch runs until interrupted: it saves and loads nothing", help: f.help()}
	}
	if w.drawing == def {
		w.drawing = findUp(def)
	}
	if _, err := os.Stat(w.drawing); err != nil {
		return &usageError{msg: fmt.Sprintf("%s: -drawing %s: %v (the demos' drawings are in examples/: run from the repository's root, or give -drawing FILE)", f.Name(), w.drawing, err), help: f.help()}
	}
	return nil
}

// findUp returns path, or, when it is not in the working folder, the
// same path in the nearest folder above that has it: the demos' drawings
// are found from anywhere in the repository.
func findUp(path string) string {
	dir, err := os.Getwd()
	if err != nil {
		return path
	}
	for {
		p := filepath.Join(dir, path)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return path
		}
		dir = up
	}
}

// config returns how the drawing is read: with -stencil's stencil, or
// st, the demo's own.
func (w *demoWatch) config(st *chart.Stencil) (reload.Config, error) {
	if w.stencil != "" {
		var err error
		if st, err = chart.LoadStencil(w.stencil); err != nil {
			return reload.Config{}, err
		}
	}
	return reload.Config{Read: chart.ReadOptions{Stencil: st}}, nil
}

// lockedWriter serialises writes to w: the reloader logs from its own
// goroutine too.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// watching runs a demo from its drawing on disk, reloading it on each
// save: it makes the Reloader (with live's viewer when -live is given),
// loads the drawing, lets start set the level up, then calls the
// reloader's Frame and step tps times a second until ctx ends. start gets
// the drawing, the viewer (nil without -live) and the output to print
// to, and returns the per-tick step.
func watching(ctx context.Context, name string, w *demoWatch, live *demoLive, cfg reload.Config, stdout io.Writer,
	start func(d *reload.Drawing, v *viewer.Viewer, out io.Writer) (func(tick uint64) error, error)) error {
	out := &lockedWriter{w: stdout}
	var v *viewer.Viewer
	if live.on() {
		v = live.viewer()
	}
	r := reload.New(reload.Options{Log: out, Viewer: v})
	defer r.Close()
	d, err := r.Load(w.drawing, cfg)
	if err != nil {
		return err
	}
	step, err := start(d, v, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "fsmforge demo %s: running %s (%d states), reloading it when it is saved (looked at every %v)\n", name, w.drawing, d.Table().NumStates(), reload.DefaultPoll)
	frame := func(tick uint64) { r.Frame(tick) }
	if v == nil {
		fmt.Fprintln(out, "(interrupt, Ctrl-C, to stop)")
		return realTime(ctx, live.tps, frame, step)
	}
	return serveFrames(ctx, v, out, "the viewer is at %s\n(interrupt, Ctrl-C, to stop)\n", live.tps, frame, step)
}
