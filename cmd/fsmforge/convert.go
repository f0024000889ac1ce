package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/layout"
	"github.com/fsmforge/fsmforge/chart/scxml"
)

// exporters write a chart, by the output's extension.
var exporters = map[string]func(io.Writer, *chart.Chart) error{
	".drawio": func(w io.Writer, c *chart.Chart) error { return drawio.Write(w, c, drawio.WriteOptions{}) },
	".dio":    func(w io.Writer, c *chart.Chart) error { return drawio.Write(w, c, drawio.WriteOptions{}) },
	".scxml":  func(w io.Writer, c *chart.Chart) error { return scxml.Write(w, c, scxml.WriteOptions{}) },
	".json":   chart.WriteJSON,
}

func runConvert(args []string, stdout, stderr io.Writer) error {
	f := newFlags("convert", `Usage: fsmforge convert [-stencil FILE] [-lenient] [-relayout] IN OUT

Converts a drawing from one editor's format to another's: IN is any drawing
fsmforge reads (Visio .vdx/.vsdx, draw.io, SCXML, yEd .graphml, or a chart
file .json), OUT a draw.io drawing (.drawio), an SCXML document (.scxml,
which Qt Creator's SCXML editor opens) or a chart file (.json). Every
state, transition, test and entry action is kept, and so is the layout
where IN has one (Visio, draw.io, Qt Creator, yEd coordinates); a chart
without one is laid out in layers from its initial state. A drawing with
errors is not converted.

Flags:
`)
	rf := addReadFlags(f)
	relayout := f.Bool("relayout", false, "lay the states out afresh, even where IN has coordinates")
	files, err := f.parseFiles(args, stdout, 2, 2)
	if err != nil {
		return err
	}
	in, out := files[0], files[1]
	write, ok := exporters[strings.ToLower(filepath.Ext(out))]
	if !ok {
		return &usageError{msg: fmt.Sprintf("convert: %s: cannot write %q files; OUT ends in .drawio, .scxml or .json", out, filepath.Ext(out)), help: f.help()}
	}
	ro, err := rf.options()
	if err != nil {
		return err
	}
	c, err := readForExport("convert", in, ro, stderr)
	if err != nil {
		return err
	}
	if *relayout {
		for i := range c.States {
			c.States[i].Box = nil
		}
	}
	layout.Layered(c, layout.Options{}) // places only the states without a Box
	if err := writeOutput(out, stdout, func(w io.Writer) error { return write(w, c) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s, %s\n", out, plural(len(c.States), "state"), plural(len(c.Transitions), "transition"))
	return nil
}
