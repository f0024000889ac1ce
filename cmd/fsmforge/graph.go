package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/dot"
	"github.com/fsmforge/fsmforge/chart/mermaid"
	"github.com/fsmforge/fsmforge/diag"
)

func runGraph(args []string, stdout, stderr io.Writer) error {
	f := newFlags("graph", `Usage: fsmforge graph [-format dot|mermaid] [-stencil FILE] [-lenient] [-o FILE] FILE

Draws a drawing's state machine as text for the tools people read diagrams
in: Graphviz DOT (fsmforge graph goomba.vdx | dot -Tsvg > goomba.svg) or a
Mermaid stateDiagram-v2 (for Markdown on GitHub and GitLab). The initial
state, the final state, transitions from any state and returns to the state
on the stack are drawn distinctly. The output is the same for the same
drawing. FILE is any drawing fsmforge reads, or a chart file (.json).

Flags:
`)
	format := f.String("format", "dot", "the output format: `dot` or mermaid")
	rf := addReadFlags(f)
	out := f.String("o", "-", "the output `FILE`; - for stdout")
	files, err := f.parseFiles(args, stdout, 1, 1)
	if err != nil {
		return err
	}
	var write func(io.Writer, *chart.Chart) error
	switch *format {
	case "dot":
		write = func(w io.Writer, c *chart.Chart) error { return dot.Write(w, c, dot.Options{}) }
	case "mermaid":
		write = func(w io.Writer, c *chart.Chart) error { return mermaid.Write(w, c, mermaid.Options{}) }
	default:
		return &usageError{msg: fmt.Sprintf("graph: unknown -format %q; use dot or mermaid", *format), help: f.help()}
	}
	ro, err := rf.options()
	if err != nil {
		return err
	}
	c, err := readForExport("graph", files[0], ro, stderr)
	if err != nil {
		return err
	}
	return writeOutput(*out, stdout, func(w io.Writer) error { return write(w, c) })
}

// readForExport reads the drawing at path for an exporter: it prints the
// importer's diagnostics, and fails when the chart has errors, since what
// the importer could not read would be missing from the output.
func readForExport(cmd, path string, ro chart.ReadOptions, stderr io.Writer) (*chart.Chart, error) {
	c, err := readChart(path, ro)
	if err != nil {
		var ds diag.List
		if errors.As(err, &ds) {
			printDiagnostics(stderr, ds)
			suggestLenient(stderr, cmd, path, ds, ro.Lenient)
			return nil, fmt.Errorf("%s: not read: %s", path, counts(ds))
		}
		return nil, err
	}
	printDiagnostics(stderr, c.Diagnostics)
	suggestStencil(stderr, path, ro.Stencil)
	suggestLenient(stderr, cmd, path, c.Diagnostics, ro.Lenient)
	if c.Diagnostics.HasErrors() {
		return nil, fmt.Errorf("%s: %s; nothing written", path, counts(c.Diagnostics))
	}
	return c, nil
}
