package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats" // every drawing format
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

// readFlags are the flags of every command that reads a drawing: the
// stencil, the leniency and the limits of chart.ReadOptions.
type readFlags struct {
	stencil                               *string
	lenient                               *bool
	maxSize                               *int64
	maxDepth, maxElements, maxTransitions *int
}

// addReadFlags adds the reading flags to f.
func addReadFlags(f *flags) *readFlags {
	return &readFlags{
		stencil:        f.String("stencil", "", "the stencil `FILE` (JSON) the drawing was made with"),
		lenient:        f.Bool("lenient", false, "read what fsmforge cannot hold yet (SCXML's data model and executable content...) as warnings, and leave it out"),
		maxSize:        f.Int64("max-size", 0, "read files of up to `BYTES` bytes, and their compressed content up to as much (default 256 MiB; SCXML 16 MiB)"),
		maxDepth:       f.Int("max-depth", 0, "let states, groups and cells nest `N` deep (default 100)"),
		maxElements:    f.Int("max-elements", 0, "read up to `N` shapes, states and transitions (default 1048576; SCXML 250000 elements)"),
		maxTransitions: f.Int("max-transitions", 0, "read up to `N` transitions (default 1048576)"),
	}
}

// options returns the chart.ReadOptions the flags say, the stencil loaded.
func (r *readFlags) options() (chart.ReadOptions, error) {
	if *r.maxSize < 0 || *r.maxDepth < 0 || *r.maxElements < 0 || *r.maxTransitions < 0 {
		return chart.ReadOptions{}, &usageError{msg: "the -max- flags cannot be negative"}
	}
	st, err := loadStencil(*r.stencil)
	if err != nil {
		return chart.ReadOptions{}, err
	}
	return chart.ReadOptions{Stencil: st, Lenient: *r.lenient, MaxSize: *r.maxSize, MaxDepth: *r.maxDepth,
		MaxElements: *r.maxElements, MaxTransitions: *r.maxTransitions}, nil
}

// loadStencil loads the stencil at path, or returns nil for "".
func loadStencil(path string) (*chart.Stencil, error) {
	if path == "" {
		return nil, nil
	}
	return chart.LoadStencil(path)
}

// readChart reads the drawing at path, whatever its format. The chart
// carries the importer's diagnostics; it is nil only when the file could
// not be read at all, and err then says why.
func readChart(path string, opt chart.ReadOptions) (*chart.Chart, error) {
	c, err := chart.ReadFile(path, opt)
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
// file could not be read or the chart has errors. cmd names the command,
// for hints.
func compileFile(cmd, path string, ro chart.ReadOptions, opt compile.Options, stderr io.Writer) (*compile.Result, error) {
	_, res, err := compileChart(cmd, path, ro, opt, stderr)
	return res, err
}

// compileChart is compileFile, which also returns the chart read.
func compileChart(cmd, path string, ro chart.ReadOptions, opt compile.Options, stderr io.Writer) (*chart.Chart, *compile.Result, error) {
	c, err := readChart(path, ro)
	if err != nil {
		var ds diag.List
		if errors.As(err, &ds) {
			printDiagnostics(stderr, ds)
			suggestLenient(stderr, cmd, path, ds, ro.Lenient)
			return nil, nil, fmt.Errorf("%s: not read: %s", path, counts(ds))
		}
		return nil, nil, err
	}
	if opt.Stencil == nil {
		opt.Stencil = ro.Stencil
	}
	res, err := compile.Compile(c, opt)
	printDiagnostics(stderr, res.Diagnostics)
	suggestStencil(stderr, path, ro.Stencil)
	suggestLenient(stderr, cmd, path, res.Diagnostics, ro.Lenient)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", path, counts(res.Diagnostics))
	}
	return c, res, nil
}

// counts renders how many errors, warnings and notes a list holds: "2
// errors, 1 warning, 0 notes".
func counts(ds diag.List) string {
	var n [3]int
	for _, d := range ds {
		if int(d.Severity) < len(n) {
			n[d.Severity]++
		}
	}
	return plural(n[diag.Error], "error") + ", " + plural(n[diag.Warning], "warning") + ", " + plural(n[diag.Note], "note")
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

// suggestLenient, when errors of a strict reading would be warnings of a
// lenient one (their hints say -lenient), prints the command line that
// reads the file leniently.
func suggestLenient(w io.Writer, cmd, path string, ds diag.List, lenient bool) {
	if lenient {
		return
	}
	for _, d := range ds {
		if d.Severity == diag.Error && strings.Contains(d.Hint, "-lenient") {
			fmt.Fprintf(w, "%s: to leave out what fsmforge cannot hold yet, with a warning for each, run: fsmforge %s -lenient ... %s\n", path, cmd, path)
			return
		}
	}
}

// printDiagnostics prints each diagnostic on a line, with its hint, if
// any, on the next (diag.List.Print).
func printDiagnostics(w io.Writer, ds diag.List) { ds.Print(w, "") }

// tableMagic starts every binary table file.
var tableMagic = []byte("FSMT")

// isTableFile reports whether a file that starts with head is a table,
// binary or JSON, rather than a drawing.
func isTableFile(head []byte) bool {
	if bytes.HasPrefix(head, tableMagic) {
		return true
	}
	head = bytes.TrimLeft(head, " \t\r\n")
	return bytes.HasPrefix(head, []byte("{")) && bytes.Contains(head[:min(len(head), 200)], []byte(`"fsmforge table"`))
}

// isStencilFile reports whether a file that starts with head is a stencil
// file: a JSON object in which a key of a stencil ("masters", "tests",
// "actions" or "properties") comes before one of a chart ("states" or
// "transitions").
func isStencilFile(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "masters", "tests", "actions", "properties":
			return true
		case "states", "transitions":
			return false
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

// readHead returns the first bytes of the file at path.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, chart.SniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return head[:n], nil
}

// loadMachine returns the table at path: a compiled table (binary or
// JSON), or a drawing compiled on the fly with the reading options.
func loadMachine(cmd, path string, ro chart.ReadOptions, opt compile.Options, stderr io.Writer) (*table.Table, *compile.Result, error) {
	head, err := readHead(path)
	if err != nil {
		return nil, nil, err
	}
	if !isTableFile(head) {
		if isStencilFile(head) {
			return nil, nil, fmt.Errorf("%s is a stencil file, not a drawing or a table: give it as -stencil %s, with the drawing made with it", path, path)
		}
		res, err := compileFile(cmd, path, ro, opt, stderr)
		if err != nil {
			return nil, nil, err
		}
		return res.Table, res, nil
	}
	if ro.Stencil != nil {
		return nil, nil, fmt.Errorf("%s: a compiled table needs no -stencil", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
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

// writeFile writes data to path ("-": stdout); see writeOutput.
func writeFile(path string, data []byte, stdout io.Writer) error {
	return writeOutput(path, stdout, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeOutput writes what produce writes to path ("-": stdout), through a
// temporary file beside it renamed into place, so that a failed write
// leaves the old file whole. A file that already holds the same bytes is
// left untouched (go:generate leaves it alone). Output is streamed: it is
// never held whole in memory.
func writeOutput(path string, stdout io.Writer, produce func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriter(stdout)
		if err := produce(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("cannot write %s: folder %s does not exist", path, dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	bw := bufio.NewWriter(tmp)
	err = produce(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && sameContent(tmp.Name(), path) {
		os.Remove(tmp.Name())
		return nil
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// sameContent reports whether the files at a and b hold the same bytes.
func sameContent(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	sa, errA := fa.Stat()
	sb, errB := fb.Stat()
	if errA != nil || errB != nil || sa.Size() != sb.Size() || !sb.Mode().IsRegular() {
		return false
	}
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(fa, ba)
		nb, errB := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if errA != nil || errB != nil {
			return errA == errB
		}
	}
}
