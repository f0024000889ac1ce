package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/graphml"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/table"
)

// importers read a drawing into a chart, by the file's extension (lower
// case, with its dot).
var importers = map[string]func(path string, o readOpts) (*chart.Chart, error){
	".vdx":      readVisio,
	".vsdx":     readVisio,
	".vsx":      readVisio,
	".vssx":     readVisio,
	".drawio":   readDrawio,
	".dio":      readDrawio,
	".xml":      readXML,
	".svg":      readDrawio, // .drawio.svg
	".png":      readDrawio, // .drawio.png
	".scxml":    readSCXML,
	".graphml":  readGraphML,
	".graphmlz": readGraphML,
	".json":     readChartJSON,
}

// readOpts says how to read a drawing.
type readOpts struct {
	Stencil *chart.Stencil // nil: a plain state diagram
	// Lenient reads what a chart cannot express (SCXML's executable
	// content and data models) as warnings, for drawing and converting
	// real files; a compile wants it strict.
	Lenient bool
}

func readVisio(path string, o readOpts) (*chart.Chart, error) {
	return visio.ReadFile(path, visio.Options{File: path, Stencil: o.Stencil})
}

func readDrawio(path string, o readOpts) (*chart.Chart, error) {
	return drawio.ReadFile(path, drawio.Options{File: path, Stencil: o.Stencil})
}

func readSCXML(path string, o readOpts) (*chart.Chart, error) {
	return scxml.ReadFile(path, scxml.Options{File: path, Stencil: o.Stencil, Lenient: o.Lenient})
}

func readGraphML(path string, o readOpts) (*chart.Chart, error) {
	return graphml.ReadFile(path, graphml.Options{File: path, Stencil: o.Stencil})
}

// readXML reads a .xml file, which draw.io, SCXML tools and Visio all
// write: by the root element it starts with.
func readXML(path string, o readOpts) (*chart.Chart, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	head := string(data[:min(len(data), 4096)])
	switch {
	case strings.Contains(head, "<scxml"):
		return readSCXML(path, o)
	case strings.Contains(head, "<VisioDocument"):
		return readVisio(path, o)
	case strings.Contains(head, "<graphml"):
		return readGraphML(path, o)
	}
	return readDrawio(path, o) // draw.io, which also reads UTF-16 files
}

// readChartJSON reads a chart written by "fsmforge convert ... OUT.json",
// with the stencil it carries (st, when given, must be the same).
func readChartJSON(path string, o readOpts) (*chart.Chart, error) {
	c, err := chart.LoadJSON(path)
	if err != nil {
		return nil, err
	}
	if o.Stencil != nil && c.Stencil == nil {
		c.Stencil = o.Stencil
	}
	return c, nil
}

// drawingKinds lists the extensions importers read, for messages.
func drawingKinds() string {
	var exts []string
	for ext := range importers {
		if ext == ".png" || ext == ".svg" {
			ext = ".drawio" + ext // the only ones read
		}
		exts = append(exts, ext)
	}
	slices.Sort(exts)
	return strings.Join(exts, ", ")
}

// loadStencil loads the stencil at path, or returns nil for "".
func loadStencil(path string) (*chart.Stencil, error) {
	if path == "" {
		return nil, nil
	}
	return chart.LoadStencil(path)
}

// readChart reads the drawing at path with the stencil (nil: a plain
// diagram). The chart carries the importer's diagnostics; it is nil only
// when the file could not be read at all, and err then says why.
func readChart(path string, o readOpts) (*chart.Chart, error) {
	read, ok := importers[strings.ToLower(filepath.Ext(path))]
	if !ok {
		return nil, fmt.Errorf("%s: not a drawing fsmforge reads (it reads %s)", path, drawingKinds())
	}
	c, err := read(path, o)
	if c == nil {
		if err == nil {
			err = fmt.Errorf("%s: nothing read", path)
		}
		return nil, err
	}
	return c, nil
}

// compileFile reads and compiles the drawing at path. It prints every
// diagnostic (warnings included) to stderr, and returns an error when the
// file could not be read or the chart has errors.
func compileFile(path string, st *chart.Stencil, opt compile.Options, stderr io.Writer) (*compile.Result, error) {
	c, err := readChart(path, readOpts{Stencil: st})
	if err != nil {
		var ds chart.Diagnostics
		if errors.As(err, &ds) {
			printDiagnostics(stderr, ds)
			return nil, fmt.Errorf("%s: not read", path)
		}
		return nil, err
	}
	if opt.Stencil == nil {
		opt.Stencil = st
	}
	res, err := compile.Compile(c, opt)
	printDiagnostics(stderr, res.Diagnostics)
	suggestStencil(stderr, path, st)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, plural(len(res.Diagnostics.Errors()), "error"))
	}
	return res, nil
}

// suggestStencil, when a drawing was read without a stencil and a stencil
// file sits beside it, says that it was read as a plain diagram and
// suggests the stencil: a drawing made with a stencil often reads as a
// plain diagram too, without its entry actions and the stencil's checks.
func suggestStencil(w io.Writer, path string, st *chart.Stencil) {
	if st != nil {
		return
	}
	found, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.stencil.json"))
	if len(found) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: read as a plain state diagram, without a stencil; if it was drawn with %s, give -stencil %s\n",
		path, strings.Join(found, " or "), found[0])
}

// printDiagnostics prints each diagnostic on a line, as
//
//	goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft": compile: ...
//
// with its hint, if any, on the next line.
func printDiagnostics(w io.Writer, ds chart.Diagnostics) {
	for _, d := range ds {
		fmt.Fprintln(w, d.Error())
		if d.Hint != "" {
			fmt.Fprintf(w, "\thint: %s\n", d.Hint)
		}
	}
}

// tableMagic starts every binary table file.
var tableMagic = []byte("FSMT")

// isTableFile reports whether data is a table, binary or JSON, rather
// than a drawing.
func isTableFile(data []byte) bool {
	if bytes.HasPrefix(data, tableMagic) {
		return true
	}
	data = bytes.TrimLeft(data, " \t\r\n")
	return bytes.HasPrefix(data, []byte("{")) && bytes.Contains(data[:min(len(data), 200)], []byte(`"fsmforge table"`))
}

// loadMachine returns the table at path: a compiled table (binary or
// JSON), or a drawing compiled on the fly with the stencil at stencilPath.
func loadMachine(path, stencilPath string, opt compile.Options, stderr io.Writer) (*table.Table, *compile.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if isTableFile(data) {
		if stencilPath != "" {
			return nil, nil, fmt.Errorf("%s: a compiled table needs no -stencil", path)
		}
		t := new(table.Table)
		if bytes.HasPrefix(data, tableMagic) {
			err = t.UnmarshalBinary(data)
		} else {
			err = t.UnmarshalJSON(data)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return t, nil, nil
	}
	st, err := loadStencil(stencilPath)
	if err != nil {
		return nil, nil, err
	}
	res, err := compileFile(path, st, opt, stderr)
	if err != nil {
		return nil, nil, err
	}
	return res.Table, res, nil
}

// writeFile writes data to path ("-": stdout) through a temporary file
// renamed into place, so that a failed write leaves the old file whole. A
// file that already holds data is left untouched.
func writeFile(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
