package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/compile"
)

func runCompile(args []string, stdout, stderr io.Writer) error {
	f := newFlags("compile", `Usage: fsmforge compile [-stencil FILE] [-minimize] [-format binary|json] -o OUT FILE

Compiles a designer's drawing into a state table for package table's
runtime: the binary form (a versioned header and a checksum), or JSON for
people. Problems are printed as fsmforge check prints them; errors stop
the compile. With -minimize, states that behave identically are merged
and the merges are listed. The same drawing always gives the same bytes.

Flags:
`)
	stencil := f.String("stencil", "", "the stencil `FILE` (JSON) the drawing was made with")
	out := f.String("o", "", "write the table to `OUT` (- for stdout)")
	format := f.String("format", "", "binary or json (default: json if OUT ends in .json, else binary)")
	minimize := f.Bool("minimize", false, "merge states that behave identically")
	chain := f.Bool("chain", false, "let an update take transitions until no test holds")
	files, err := f.parseFiles(args, stdout, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return &usageError{msg: "compile: no output file: give -o OUT", help: f.help()}
	}
	switch *format {
	case "":
		*format = "binary"
		if strings.EqualFold(filepath.Ext(*out), ".json") {
			*format = "json"
		}
	case "binary", "json":
	default:
		return &usageError{msg: fmt.Sprintf("compile: -format %q: want binary or json", *format), help: f.help()}
	}
	st, err := loadStencil(*stencil)
	if err != nil {
		return err
	}
	res, err := compileFile(files[0], st, compile.Options{Minimize: *minimize, Chain: *chain}, stderr)
	if err != nil {
		return err
	}
	var data []byte
	if *format == "json" {
		data, err = res.Table.MarshalJSON()
		if err == nil {
			var b bytes.Buffer
			err = json.Indent(&b, data, "", "  ")
			data = append(b.Bytes(), '\n')
		}
	} else {
		data, err = res.Table.MarshalBinary()
	}
	if err != nil {
		return err
	}
	if err := writeFile(*out, data, stdout); err != nil {
		return err
	}
	if *out == "-" {
		return nil
	}
	t := res.Table
	fmt.Fprintf(stdout, "%s: %s, %s, %s: wrote %s (%d bytes, %s)\n", files[0],
		plural(t.NumStates(), "state"), plural(t.NumTests(), "test"), plural(t.NumProperties(), "property"),
		*out, len(data), *format)
	for _, m := range res.Merged {
		fmt.Fprintf(stdout, "merged into %s: %s\n", m.Kept, strings.Join(m.Merged, ", "))
	}
	return nil
}
