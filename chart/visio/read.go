package visio

import (
	"errors"
	"io"
	"os"

	"github.com/fsmforge/fsmforge/chart"
)

// Options tunes reading a drawing. The zero value reads a plain state
// diagram with the default limits.
type Options struct {
	// File names the drawing in positions and messages. ReadFile sets it
	// to the path when it is empty.
	File string

	// Stencil is the stencil the drawing was made with: states, initial
	// states and transitions are then recognised by their masters and read
	// from their custom properties. Nil (the default) reads a plain state
	// diagram: 2-D shapes are states named by their text, connectors are
	// transitions labelled "event [guard] / action".
	Stencil *chart.Stencil

	// MaxSize is the largest file read, in bytes; 0 means DefaultMaxSize.
	MaxSize int64

	// MaxDepth is how deeply groups may nest; 0 means DefaultMaxDepth.
	// XML elements may nest 2×MaxDepth+32 deep (a group level is two).
	MaxDepth int
}

// Defaults of Options.
const (
	DefaultMaxSize  = 256 << 20 // 256 MiB
	DefaultMaxDepth = 100
)

// withDefaults fills in the defaults; it panics on negative limits, which
// are programming errors.
func (o Options) withDefaults() Options {
	if o.MaxSize < 0 || o.MaxDepth < 0 {
		panic("visio: Options.MaxSize and Options.MaxDepth must not be negative (0 means the default)")
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	return o
}

// Errors that stop reading a drawing, for [errors.Is]. The error returned is
// a [chart.Diagnostics] whose single diagnostic wraps one of them and says
// where and why.
var (
	// ErrTooLarge: the file is larger than Options.MaxSize.
	ErrTooLarge = errors.New("visio: file too large")
	// ErrNotVisio: the file is not a Visio XML drawing: empty, binary, a
	// zip (.vsdx), a binary Visio file (.vsd), or XML of another kind.
	ErrNotVisio = errors.New("visio: not a Visio XML drawing")
	// ErrMalformed: the file is not well-formed XML, or not valid UTF-8.
	ErrMalformed = errors.New("visio: malformed XML")
	// ErrTooDeep: groups nest deeper than Options.MaxDepth.
	ErrTooDeep = errors.New("visio: nested too deep")
)

// Read reads a Visio XML drawing from r and interprets it as a chart:
// [DecodeVDX] then [Interpret].
//
// When the file cannot be read at all, Read returns a nil chart and an
// error as DecodeVDX does. Otherwise it returns the chart, whose
// Diagnostics list what was found wrong or ignored, and, when some of those
// are errors, a [chart.Diagnostics] of the errors.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	doc, err := DecodeVDX(r, opt)
	if err != nil {
		return nil, err
	}
	return Interpret(doc, opt)
}

// ReadFile reads the drawing at path; see [Read].
func ReadFile(path string, opt Options) (*chart.Chart, error) {
	if opt.File == "" {
		opt.File = path
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fatal(path, 0, 0, err, "visio: cannot read the drawing: "+errText(err, path), "")
	}
	defer f.Close()
	return Read(f, opt)
}

// errText is err's message without a repetition of path.
func errText(err error, path string) string {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err.Error()
	}
	return err.Error()
}
