package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/visio"
)

func runStencil(args []string, stdout, stderr io.Writer) error {
	f := newFlags("stencil", `Usage: fsmforge stencil -format vsx|drawio [-o OUT] STENCIL

Turns the programmers' stencil file (JSON) into shapes designers draw
with: a Visio XML stencil (-format vsx: masters for the state, the initial
state, the transition and the message handler, whose Shape Data carry the
stencil's drop-lists, and for the composite and parallel states, the
history, deep history and start states when the stencil names them), or a
draw.io shape library (-format drawio: open it with File > Open Library;
each shape carries the properties under Edit Data). Drawings made with
either read back with -stencil STENCIL.

Flags:
`)
	format := f.String("format", "", "the output format: `vsx` or drawio (required)")
	out := f.String("o", "-", "the output `FILE`; - for stdout")
	files, err := f.parseFiles(args, stdout, 1, 1)
	if err != nil {
		return err
	}
	var write func(io.Writer, *chart.Stencil) error
	switch *format {
	case "vsx":
		write = visio.WriteStencil
	case "drawio":
		write = drawio.WriteLibrary
	case "":
		return &usageError{msg: "stencil: -format is required: vsx or drawio", help: f.help()}
	default:
		return &usageError{msg: fmt.Sprintf("stencil: unknown -format %q; use vsx or drawio", *format), help: f.help()}
	}
	st, err := loadStencil(files[0])
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := write(&buf, st); err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	return writeFile(*out, buf.Bytes(), stdout)
}
