package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/table"
)

func runCompile(args []string, stdout, stderr io.Writer) error {
	f := newFlags("compile", `Usage: fsmforge compile [-stencil FILE] [-lenient] [-minimize] [-chain] [-format binary|json] -o OUT FILE

Compiles a designer's drawing into a state table for package table's
runtime: the binary form (a versioned header and a checksum), or JSON for
people. Problems are printed as fsmforge check prints them; errors stop
the compile. With -minimize, states that behave identically are merged
and the merges are listed. The same drawing always gives the same bytes.

Flags:
`)
	rf := addReadFlags(f)
	cf := addCompileFlags(f)
	out := f.String("o", "", "write the table to `OUT` (- for stdout)")
	format := f.String("format", "", "binary or json (default: json if OUT ends in .json, else binary)")
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
	ro, opt, err := options(f, rf, cf)
	if err != nil {
		return err
	}
	res, err := compileFile("compile", files[0], ro, opt, stderr)
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

// compileFlags are the flags of every command that compiles a drawing:
// the fields of compile.Options.
type compileFlags struct {
	minimize, chain        *bool
	chainLimit, stackLimit *int
	name                   *string
}

// addCompileFlags adds the compiling flags to f.
func addCompileFlags(f *flags) *compileFlags {
	return &compileFlags{
		minimize:   f.Bool("minimize", false, "merge states that behave identically"),
		chain:      f.Bool("chain", false, "let an update take transitions until no test holds (a drawing can say so itself, with its chain property)"),
		chainLimit: f.Int("chain-limit", 0, "with -chain, stop an update after `N` transitions (default: the number of states)"),
		stackLimit: f.Int("stack-limit", 0, "let the state stack hold `N` states (default 16)"),
		name:       f.String("name", "", "the table's `NAME` (default: the drawing's)"),
	}
}

// options returns the compile.Options the flags say.
func (c *compileFlags) options(f *flags) (compile.Options, error) {
	if *c.chainLimit < 0 || *c.chainLimit > 65535 {
		return compile.Options{}, &usageError{msg: fmt.Sprintf("%s: -chain-limit %d: want 0 to 65535", f.Name(), *c.chainLimit), help: f.help()}
	}
	if *c.stackLimit < 0 || *c.stackLimit > table.MaxStack {
		return compile.Options{}, &usageError{msg: fmt.Sprintf("%s: -stack-limit %d: want 0 to %d", f.Name(), *c.stackLimit, table.MaxStack), help: f.help()}
	}
	return compile.Options{Minimize: *c.minimize, Chain: *c.chain, ChainLimit: *c.chainLimit, StackLimit: *c.stackLimit, Name: *c.name}, nil
}

// options returns the reading and compiling options a command's flags
// say, the stencil loaded.
func options(f *flags, rf *readFlags, cf *compileFlags) (chart.ReadOptions, compile.Options, error) {
	ro, err := rf.options()
	if err != nil {
		return ro, compile.Options{}, err
	}
	opt, err := cf.options(f)
	return ro, opt, err
}
