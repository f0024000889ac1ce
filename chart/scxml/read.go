package scxml

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Options tunes reading an SCXML file: it is [chart.ReadOptions], the
// options every importer shares. The zero value reads a plain state
// machine, strictly, with the default limits, which an SCXML file uses so:
//
//   - Lenient makes executable content other than the chart's actions
//     (<log>, <assign>, <script>, <if>, a <send> elsewhere than to the
//     machine itself...) and data models warnings instead of errors: they
//     are left out, and the states and transitions of a file written for
//     an SCXML interpreter can still be read, drawn and compiled.
//   - MaxSize bounds the file: 0 means DefaultMaxSize, 16 MiB, smaller
//     than other formats' since each element kept costs about 1 KB.
//   - MaxElements bounds the elements the reader keeps: states,
//     transitions, actions, editor info, and the elements of executable
//     content (whose contents are skipped); 0 means DefaultMaxElements,
//     250,000 (about 250 MB).
//   - MaxDepth bounds how deeply states nest: XML elements may nest
//     MaxDepth+32 deep (a state's content is a few levels deeper).
//   - MaxTransitions does not apply: the reader keeps nested states as
//     they are, and does not flatten them.
type Options = chart.ReadOptions

// Defaults of Options for SCXML, where they differ from package chart's.
const (
	DefaultMaxSize     = 16 << 20 // 16 MiB
	DefaultMaxElements = 250_000
)

// withDefaults fills in the defaults, SCXML's first; it panics on
// negative limits, which are programming errors.
func withDefaults(o Options) Options {
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxElements == 0 {
		o.MaxElements = DefaultMaxElements
	}
	return o.WithDefaults()
}

// Errors for [errors.Is]. The first four stop reading a file: the error
// returned is then a [diag.List] whose single diagnostic wraps one
// of them and says where and why. ErrUnsupported marks the diagnostics of
// a file that was read.
var (
	// ErrTooLarge: the file is larger than Options.MaxSize, or has more
	// elements than Options.MaxElements.
	ErrTooLarge = errors.New("scxml: file too large")
	// ErrNotSCXML: the file is not an SCXML document: empty, binary, not
	// XML, or XML whose root is not <scxml>.
	ErrNotSCXML = errors.New("scxml: not an SCXML document")
	// ErrMalformed: the file is not well-formed XML, not valid UTF-8, or
	// in an encoding the reader does not know.
	ErrMalformed = errors.New("scxml: malformed XML")
	// ErrTooDeep: elements nest deeper than Options.MaxDepth+32.
	ErrTooDeep = errors.New("scxml: nested too deep")
	// ErrUnsupported: the file uses SCXML the chart model cannot express
	// (executable content other than the chart's actions, data models,
	// <invoke>), an element or attribute SCXML or fsmforge does not have,
	// or one where it cannot be.
	ErrUnsupported = errors.New("scxml: not expressible in a chart")
)

// Read reads an SCXML document from r into a chart.
//
// When the file cannot be read at all (too large, not SCXML, malformed,
// nested too deep), Read returns a nil chart and a [diag.List]
// with one error. Otherwise it returns the chart, never nil, its states
// nested as the file nests them (State.Parent), whose Diagnostics list
// what was found wrong or left out, and, when some of those are errors, a
// [diag.List] of the errors.
//
// Read never panics, is safe to call concurrently, and holds the whole
// file in memory while it reads it.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	opt = withDefaults(opt)
	src, err := readAll(r, opt)
	if err != nil {
		return nil, err
	}
	src, err = sniff(src, opt.File)
	if err != nil {
		return nil, err
	}
	doc, err := parse(src, opt)
	if err != nil {
		return nil, err
	}
	return interpret(doc, opt)
}

// ReadFile reads the SCXML file at path; see [Read].
func ReadFile(path string, opt Options) (*chart.Chart, error) {
	if opt.File == "" {
		opt.File = path
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, source.Fatal(opt.File, 0, 0, err, "scxml: cannot read the file: "+source.ErrText(err, path), "")
	}
	defer f.Close()
	return Read(f, opt)
}

// readAll reads r, refusing more than opt.MaxSize bytes.
func readAll(r io.Reader, opt Options) (string, error) {
	src, err := source.ReadAll(r, opt.MaxSize)
	if errors.Is(err, source.ErrTooLarge) {
		return "", source.Fatal(opt.File, 0, 0, ErrTooLarge, "scxml: the file is larger than "+source.SizeString(opt.MaxSize),
			chart.LimitHint("MaxSize"))
	}
	if err != nil {
		return "", source.Fatal(opt.File, 0, 0, err, "scxml: cannot read the file: "+err.Error(), "")
	}
	return src, nil
}

// chartName is the machine's name attribute (<scxml name="...">), or the
// file's base name without its extension when it has none.
func chartName(file, name string) string {
	if name = strings.TrimSpace(name); name != "" || file == "" {
		return name
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
