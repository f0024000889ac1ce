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

// Options tunes reading an SCXML file. The zero value reads a plain state
// machine, strictly, with the default limits.
type Options struct {
	// File names the file in positions and messages, and the chart (its
	// base name without the extension). ReadFile sets it to the path when
	// it is empty.
	File string

	// Stencil is the stencil the chart was made with: transitions' tests
	// and states' entry actions are then checked against it. Nil (the
	// default) reads a plain state machine: a transition's test is its
	// event, or its condition when it has no event.
	Stencil *chart.Stencil

	// Lenient makes executable content other than fsmforge's entry actions
	// (<send>, <assign>, <script>...) and data models warnings instead of
	// errors: they are left out, and the states and transitions of a file
	// written for an SCXML interpreter can still be read, drawn and
	// compiled. False by default. Parallel states and history are errors
	// either way.
	Lenient bool

	// MaxSize is the largest file read, in bytes; 0 means DefaultMaxSize.
	MaxSize int64

	// MaxDepth is how deeply XML elements may nest; 0 means
	// DefaultMaxDepth.
	MaxDepth int

	// MaxElements is how many elements the reader keeps: states,
	// transitions, entry actions, editor info, and the elements of
	// executable content (whose contents are skipped); 0 means
	// DefaultMaxElements. It bounds the memory a file of many small
	// elements takes, about 1 KB each.
	MaxElements int
}

// Defaults of Options.
const (
	DefaultMaxSize     = 16 << 20 // 16 MiB
	DefaultMaxDepth    = 100
	DefaultMaxElements = 250_000
)

// withDefaults fills in the defaults; it panics on negative limits, which
// are programming errors.
func (o Options) withDefaults() Options {
	if o.MaxSize < 0 || o.MaxDepth < 0 || o.MaxElements < 0 {
		panic("scxml: Options.MaxSize, MaxDepth and MaxElements must not be negative (0 means the default)")
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxElements == 0 {
		o.MaxElements = DefaultMaxElements
	}
	return o
}

// Errors for [errors.Is]. The first four stop reading a file: the error
// returned is then a [chart.Diagnostics] whose single diagnostic wraps one
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
	// ErrTooDeep: elements nest deeper than Options.MaxDepth.
	ErrTooDeep = errors.New("scxml: nested too deep")
	// ErrUnsupported: the file uses SCXML the chart model cannot express
	// (parallel states, history, executable content, data models), an
	// element or attribute SCXML or fsmforge does not have, or one where it
	// cannot be.
	ErrUnsupported = errors.New("scxml: not expressible in a chart")
)

// Read reads an SCXML document from r into a chart.
//
// When the file cannot be read at all (too large, not SCXML, malformed,
// nested too deep), Read returns a nil chart and a [chart.Diagnostics]
// with one error. Otherwise it returns the chart, flattened
// ([chart.Flatten]), never nil, whose Diagnostics list what was found
// wrong or left out, and, when some of those are errors, a
// [chart.Diagnostics] of the errors.
//
// Read never panics, is safe to call concurrently, and holds the whole
// file in memory while it reads it.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	opt = opt.withDefaults()
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
			"raise Options.MaxSize if the state machine really is this large")
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
