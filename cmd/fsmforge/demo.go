package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// demos are the demos, in the order of the tour (the story first), each
// with the arguments it runs with in the tour.
var demos = []struct {
	name    string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	about   string
	tourArg []string
}{
	{"westworld", runWestWorld, "Buckland's Miner Bob and Elsa: behaviour states and delayed telegrams", []string{"-n", "30"}},
	{"formation", runFormation, "the Astralia formation flyers: guarded transitions and a double-buffered board", []string{"-frames", "24"}},
	{"goomba", runGoomba, "the designer-pipeline article's Goomba: a Visio drawing compiled at run time, and the Go code generated from it", []string{"-ticks", "30"}},
	{"guard", runGuard, "guard NPCs drawn as a statechart: nested states, a parallel region, history and a state timer, with SCXML's semantics", []string{"-guards", "2", "-ticks", "70", "-seed", "64"}},
	{"crowd", runCrowd, "a horde of monsters on one machine: per-state buckets on parallel workers", []string{"-entities", "200000", "-steps", "60"}},
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runTour(ctx, stdout, stderr)
	}
	name := args[0]
	if strings.HasPrefix(name, "-") {
		f := newFlags("demo", demoUsage())
		return f.parse(args, stdout)
	}
	for _, d := range demos {
		if d.name == name {
			return d.run(ctx, args[1:], stdout, stderr)
		}
	}
	return &usageError{msg: fmt.Sprintf("demo: unknown demo %q", name), help: demoUsage()}
}

func demoUsage() string {
	var b strings.Builder
	b.WriteString("Usage: fsmforge demo [NAME] [flags]\n\nWith no NAME, runs a short tour of every demo. Demos:\n")
	for _, d := range demos {
		fmt.Fprintf(&b, "  %-10s %s\n", d.name, d.about)
	}
	b.WriteString("Run 'fsmforge demo NAME -h' for a demo's flags.\n")
	return b.String()
}

func runTour(ctx context.Context, stdout, stderr io.Writer) error {
	for i, d := range demos {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "=== fsmforge demo %s %s\n=== %s\n\n", d.name, strings.Join(d.tourArg, " "), d.about)
		if err := d.run(ctx, d.tourArg, stdout, stderr); err != nil {
			return fmt.Errorf("demo %s: %w", d.name, err)
		}
	}
	return nil
}

// colorful reports whether w is a terminal that wants colour: NO_COLOR unset.
func colorful(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
