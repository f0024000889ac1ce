package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/dot"
	"github.com/fsmforge/fsmforge/chart/mermaid"
)

func runGraph(args []string, stdout, stderr io.Writer) error {
	f := newFlags("graph", `Usage: fsmforge graph [-format dot|mermaid] [-stencil FILE] [-o OUT] FILE

Draws a drawing's state machine as text for the tools people read diagrams
in: Graphviz DOT (fsmforge graph goomba.vdx | dot -Tsvg > goomba.svg) or a
Mermaid stateDiagram-v2 (for Markdown on GitHub and GitLab). The initial
state, the final state, transitions from any state and returns to the state
on the stack are drawn distinctly. The output is the same for the same
drawing. FILE is any drawing fsmforge reads, or a chart file (.json).

Flags:
`)
	format := f.String("format", "dot", "the output format: `dot` or mermaid")
	stencil := f.String("stencil", "", "the stencil `FILE` (JSON) the drawing was made with")
	lenient := f.Bool("lenient", false, "read what a chart cannot hold (SCXML's executable content, data models) as warnings, and leave it out")
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
	c, err := readForExport(files[0], *stencil, *lenient, stderr)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := write(&buf, c); err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	return writeFile(*out, buf.Bytes(), stdout)
}

// readForExport reads the drawing at path for an exporter: it prints the
// importer's diagnostics, and fails when the chart has errors, since what
// the importer could not read would be missing from the output.
func readForExport(path, stencilPath string, lenient bool, stderr io.Writer) (*chart.Chart, error) {
	st, err := loadStencil(stencilPath)
	if err != nil {
		return nil, err
	}
	c, err := readChart(path, readOpts{Stencil: st, Lenient: lenient})
	if err != nil {
		var ds chart.Diagnostics
		if errors.As(err, &ds) {
			printDiagnostics(stderr, ds)
			return nil, fmt.Errorf("%s: not read", path)
		}
		return nil, err
	}
	printDiagnostics(stderr, c.Diagnostics)
	suggestStencil(stderr, path, st)
	if n := len(c.Diagnostics.Errors()); n > 0 {
		return nil, fmt.Errorf("%s: %s; nothing written", path, plural(n, "error"))
	}
	return c, nil
}
