package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

func runView(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newFlags("view", `Usage: fsmforge view [flags] FILE
       fsmforge view -recording FILE

Opens a drawing in the browser viewer without a game: one simulated agent
of the machine, drawn as the designer drew it. The page lists the polled
tests, which hold while checked, and the messages and events, sent with a
click; Step runs one update (DT seconds of game time, so that timers
advance), Resume runs them at TPS a second, and the entry and exit actions
each update performed are listed. A designer checks the machine before any
programmer touches it. With -recording, opens a recording saved from a
running game's viewer (its "recording" link) instead, to scrub through.

Prints the page's URL, with the token its commands need, and serves until
interrupted. When the drawing is saved, the page follows: the simulated
agent keeps its state, by name, and the page lists what changed; a
version with errors is shown on the page, and the last good one runs on.

Flags:
`)
	addr := f.String("addr", "127.0.0.1:0", "serve on `HOST:PORT` (a loopback address unless -remote)")
	remote := f.Bool("remote", false, "let -addr be an address other machines reach")
	recording := f.String("recording", "", "open the recording `FILE` instead of a drawing")
	tps := f.Float64("tps", 10, "updates a second once resumed")
	dt := f.Float64("dt", 0.1, "game time of an update, in `SECONDS`")
	rf := addReadFlags(f)
	cf := addCompileFlags(f)
	files, err := f.parseFiles(args, stdout, 0, 1)
	if err != nil {
		return err
	}
	switch {
	case *recording == "" && len(files) == 0:
		return &usageError{msg: "view: no file given", help: f.help()}
	case *recording != "" && len(files) > 0:
		return &usageError{msg: "view: -recording opens a recording: give no drawing besides", help: f.help()}
	}
	if !(*tps > 0) || *tps > 1000 {
		return &usageError{msg: fmt.Sprintf("view: -tps %v: want 0 to 1000 updates a second", *tps), help: f.help()}
	}
	if !(*dt > 0) || *dt > 1e6 {
		return &usageError{msg: fmt.Sprintf("view: -dt %v: want a number of seconds above 0", *dt), help: f.help()}
	}
	opt := viewer.Options{Addr: *addr, Remote: *remote}
	if *recording != "" {
		return viewRecording(ctx, *recording, opt, stdout)
	}
	ro, copt, err := options(f, rf, cf)
	if err != nil {
		return err
	}
	opt.Paused = true
	v := viewer.New(opt)
	out := &lockedWriter{w: stdout}
	r := reload.New(reload.Options{Log: out, Viewer: v}) // warnings, then each reload
	defer r.Close()
	d, err := r.Load(files[0], reload.Config{Read: ro, Compile: copt})
	suggestStencil(stderr, files[0], ro.Stencil)
	if err != nil {
		var ds diag.List
		if errors.As(err, &ds) {
			suggestLenient(stderr, "view", files[0], ds, ro.Lenient)
		}
		return err // with every error, its position and hint
	}
	sim := viewer.NewSim(d.Table(), *dt)
	d.Run("simulator", sim)
	name := strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	m := d.View(name, func(*table.Table) viewer.Source { return sim })
	banner := "fsmforge view: " + strings.ReplaceAll(files[0], "%", "%%") + ": %s\nOpen it in a browser; the page follows the drawing when it is saved. Interrupt (Ctrl-C) to stop.\n"
	return serveFrames(ctx, v, out, banner, *tps, func(tick uint64) { r.Frame(tick) }, func(uint64) error {
		if _, err := sim.Step(); err != nil {
			v.Report(m, 0, err) // the page shows it; the designer goes on
		}
		return nil
	})
}

// viewRecording serves the recording at path until ctx ends.
func viewRecording(ctx context.Context, path string, opt viewer.Options, stdout io.Writer) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	rec, err := viewer.ReadRecording(file)
	file.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	v := viewer.Open(rec, opt)
	url, err := v.Start()
	if err != nil {
		return err
	}
	defer v.Close()
	fmt.Fprintf(stdout, "fsmforge view: %s (%d machines, %d transitions): %s\nOpen it in a browser; interrupt (Ctrl-C) to stop.\n", path, len(rec.Machines), len(rec.Events), url)
	<-ctx.Done()
	return nil
}
