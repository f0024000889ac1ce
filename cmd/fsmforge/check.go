package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
)

func runCheck(args []string, stdout, stderr io.Writer) error {
	f := newFlags("check", `Usage: fsmforge check [-stencil FILE] FILE...

Checks designers' drawings without compiling them: reads each (Visio
.vdx/.vsdx, draw.io, SCXML, yEd .graphml, a chart .json) with the stencil,
or as a plain state diagram without one, and prints
every problem found, errors and warnings, each with where it is and a hint:

  goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft": compile: ...
  	hint: ...

and one line per file on stdout. Exits with status 1 if a file has errors.

Flags:
`)
	stencil := f.String("stencil", "", "the stencil `FILE` (JSON) the drawings were made with")
	lenient := f.Bool("lenient", false, "report what a chart cannot hold (SCXML's executable content, data models) as warnings, not errors")
	files, err := f.parseFiles(args, stdout, 1, -1)
	if err != nil {
		return err
	}
	st, err := loadStencil(*stencil)
	if err != nil {
		return err
	}
	bad := 0
	for _, path := range files {
		c, err := readChart(path, readOpts{Stencil: st, Lenient: *lenient})
		var ds chart.Diagnostics
		switch {
		case c != nil:
			ds = compile.Check(c, compile.Options{Stencil: st})
		case errors.As(err, &ds):
		default:
			return err
		}
		printDiagnostics(stderr, ds)
		suggestStencil(stderr, path, st)
		errs, warns := len(ds.Errors()), len(ds.Warnings())
		if errs > 0 {
			bad++
		}
		if c == nil {
			fmt.Fprintf(stdout, "%s: not read: %s\n", path, plural(errs, "error"))
			continue
		}
		fmt.Fprintf(stdout, "%s: %s, %s: %s, %s\n", path,
			plural(len(c.States), "state"), plural(len(c.Transitions), "transition"),
			plural(errs, "error"), plural(warns, "warning"))
	}
	if bad > 0 {
		return fmt.Errorf("check: errors in %d of %s", bad, plural(len(files), "file"))
	}
	return nil
}

// plural returns "1 state", "2 states", "2 properties".
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
