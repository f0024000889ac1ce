package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fsmforge/fsmforge/viewer"
)

// demoLive holds a demo's -live and -tps flags: run in real time until
// interrupted, with the browser viewer serving the demo's machines.
type demoLive struct {
	addr   string
	remote bool
	tps    float64
}

// addLiveFlags adds the flags to f; unit names a step ("update", "tick").
func addLiveFlags(f *flags, unit string) *demoLive {
	l := &demoLive{}
	f.StringVar(&l.addr, "live", "", "run in real time until interrupted and serve the browser viewer on `HOST:PORT` (127.0.0.1:0 picks a free port); prints the page's URL")
	f.BoolVar(&l.remote, "remote", false, "with -live, let the address be one other machines reach")
	f.Float64Var(&l.tps, "tps", 10, fmt.Sprintf("with -live or -watch, %ss a second", unit))
	return l
}

// on reports whether the demo runs live.
func (l *demoLive) on() bool { return l.addr != "" }

// check reports a usage error in the flags.
func (l *demoLive) check(f *flags, s *demoSave) error {
	switch {
	case !l.on():
		return nil
	case !(l.tps > 0) || l.tps > 1000:
		return &usageError{msg: fmt.Sprintf("%s: -tps %v: want 0 to 1000", f.Name(), l.tps), help: f.help()}
	case s != nil && (s.at > 0 || s.load != ""):
		return &usageError{msg: f.Name() + ": -live runs until interrupted: it saves and loads nothing", help: f.help()}
	}
	return nil
}

// viewer returns the demo's viewer, not serving yet.
func (l *demoLive) viewer() *viewer.Viewer {
	return viewer.New(viewer.Options{Addr: l.addr, Remote: l.remote})
}

// run serves v and calls step once per tick, tps times a second, at the
// viewer's frame boundary, until ctx ends (an interrupt: not an error) or
// step fails.
func (l *demoLive) run(ctx context.Context, name string, v *viewer.Viewer, stdout io.Writer, step func(tick uint64) error) error {
	return serveFrames(ctx, v, stdout, "fsmforge demo "+name+": the viewer is at %s\n(interrupt, Ctrl-C, to stop)\n", l.tps, v.Frame, step)
}

// serveFrames serves v, prints banner with the page's URL, and calls frame
// then step once per tick, tps times a second, until ctx ends (an
// interrupt: not an error) or step fails. frame is the frame boundary,
// where a paused game waits: the viewer's Frame, or the Reloader's, which
// calls it. Demos run live so, and so do -watch and the simulator.
func serveFrames(ctx context.Context, v *viewer.Viewer, stdout io.Writer, banner string, tps float64, frame func(tick uint64), step func(tick uint64) error) error {
	url, err := v.Start()
	if err != nil {
		return err
	}
	defer v.Close()
	fmt.Fprintf(stdout, banner, url)
	go func() { <-ctx.Done(); v.Close() }()
	return realTime(ctx, tps, frame, step)
}

// realTime calls frame, then step, once per tick, tps times a second,
// until ctx ends (an interrupt: not an error) or step fails. frame is the
// frame boundary: the viewer's, where a paused game waits, or hot
// reload's.
func realTime(ctx context.Context, tps float64, frame func(tick uint64), step func(tick uint64) error) error {
	every := time.Duration(float64(time.Second) / tps)
	next := time.Now()
	for tick := uint64(0); ctx.Err() == nil; tick++ {
		frame(tick)
		if ctx.Err() != nil {
			break
		}
		if err := step(tick); err != nil {
			return err
		}
		next = next.Add(every)
		if wait := time.Until(next); wait > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		} else {
			next = time.Now() // behind, or paused: do not rush to catch up
		}
	}
	return nil
}
