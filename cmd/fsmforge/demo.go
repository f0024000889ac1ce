package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// demos are the demos by name, each with the arguments it runs with in the tour.
var demos = map[string]struct {
	run     func(ctx context.Context, args []string, stdout io.Writer) error
	about   string
	tourArg []string
}{
	"westworld": {runWestWorld, "Buckland's Miner Bob and Elsa: behaviour states and delayed telegrams", []string{"-n", "30"}},
	"formation": {runFormation, "the Astralia formation flyers: guarded transitions and a double-buffered board", []string{"-frames", "24"}},
}

func demoNames() []string {
	names := make([]string, 0, len(demos))
	for name := range demos {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// tourOrder is the order of the tour: the story first.
var tourOrder = []string{"westworld", "formation"}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runTour(ctx, stdout)
	}
	name := args[0]
	if strings.HasPrefix(name, "-") {
		f := newFlags("demo", demoUsage())
		return f.parse(args, stdout)
	}
	d, ok := demos[name]
	if !ok {
		return &usageError{msg: fmt.Sprintf("demo: unknown demo %q", name), help: demoUsage()}
	}
	return d.run(ctx, args[1:], stdout)
}

func demoUsage() string {
	var b strings.Builder
	b.WriteString("Usage: fsmforge demo [NAME] [flags]\n\nWith no NAME, runs a short tour of every demo. Demos:\n")
	for _, name := range demoNames() {
		fmt.Fprintf(&b, "  %-10s %s\n", name, demos[name].about)
	}
	b.WriteString("Run 'fsmforge demo NAME -h' for a demo's flags.\n")
	return b.String()
}

func runTour(ctx context.Context, stdout io.Writer) error {
	for i, name := range tourOrder {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := demos[name]
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "=== fsmforge demo %s %s\n=== %s\n\n", name, strings.Join(d.tourArg, " "), d.about)
		if err := d.run(ctx, d.tourArg, stdout); err != nil {
			return fmt.Errorf("demo %s: %w", name, err)
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
