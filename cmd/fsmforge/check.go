package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
)

func runCheck(args []string, stdout, stderr io.Writer) error {
	f := newFlags("check", `Usage: fsmforge check [-stencil FILE] [-lenient] FILE...

Checks designers' drawings without compiling them: reads each (Visio
.vdx/.vsdx, draw.io, SCXML, yEd .graphml, a chart .json; the format is told
from the file's content) with the stencil, or as a plain state diagram
without one, and prints every problem found, errors, warnings and notes,
each with where it is and a hint:

  goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft": compile: ...
  	hint: ...

and one line per file on stdout. Exits with status 1 if a file has errors.

Flags:
`)
	rf := addReadFlags(f)
	files, err := f.parseFiles(args, stdout, 1, -1)
	if err != nil {
		return err
	}
	ro, err := rf.options()
	if err != nil {
		return err
	}
	bad := 0
	for _, path := range files {
		c, err := readChart(path, ro)
		var ds diag.List
		switch {
		case c != nil:
			ds = compile.Check(c, compile.Options{Stencil: ro.Stencil})
		case errors.As(err, &ds):
		default:
			return err
		}
		printDiagnostics(stderr, ds)
		if c != nil {
			suggestStencil(stderr, path, ro.Stencil)
		}
		suggestLenient(stderr, "check", path, ds, ro.Lenient)
		if ds.HasErrors() {
			bad++
		}
		if c == nil {
			fmt.Fprintf(stdout, "%s: not read: %s\n", path, counts(ds))
			continue
		}
		fmt.Fprintf(stdout, "%s: %s, %s: %s\n", path,
			plural(len(c.States), "state"), plural(len(c.Transitions), "transition"), counts(ds))
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
