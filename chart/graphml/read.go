package graphml

import (
	"errors"
	"io"
	"os"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Options tunes reading a drawing. The zero value reads a plain state
// diagram with the default limits.
type Options struct {
	// File names the drawing in positions and messages, and names the
	// chart when the drawing does not ($STATEMACHINE). ReadFile sets it to
	// the path when it is empty.
	File string

	// Stencil is the stencil the drawing was made with: nodes and edges
	// then play the part their role property names, and carry the
	// stencil's properties as yEd custom properties (see the package
	// documentation). Nil (the default) reads a plain state diagram: nodes
	// are states named by their label, edges are transitions labelled
	// "event [guard] / action".
	Stencil *chart.Stencil

	// RoleKey is the name (attr.name) of the custom property whose value
	// names the stencil master a node or an edge stands for; "" means
	// DefaultRoleKey. Used only with a Stencil.
	RoleKey string

	// MaxSize is the largest file read, in bytes (for a compressed file,
	// once uncompressed); 0 means DefaultMaxSize.
	MaxSize int64

	// MaxDepth is how deeply group nodes may nest; 0 means
	// DefaultMaxDepth. XML elements may nest 2×MaxDepth+32 deep (a group
	// level is two: the node and its graph).
	MaxDepth int

	// MaxNodes is the largest number of nodes and edges (together) read;
	// 0 means DefaultMaxNodes. Flattening the compound states may make at
	// most twice as many transitions.
	MaxNodes int
}

// Defaults of Options.
const (
	DefaultMaxSize  = 256 << 20 // 256 MiB
	DefaultMaxDepth = 100
	DefaultMaxNodes = 1 << 20
	DefaultRoleKey  = "fsmforge"
)

// withDefaults fills in the defaults; it panics on negative limits, which
// are programming errors.
func (o Options) withDefaults() Options {
	if o.MaxSize < 0 || o.MaxDepth < 0 || o.MaxNodes < 0 {
		panic("graphml: Options.MaxSize, MaxDepth and MaxNodes must not be negative (0 means the default)")
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxNodes == 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.RoleKey == "" {
		o.RoleKey = DefaultRoleKey
	}
	return o
}

// Errors that stop reading a drawing, for [errors.Is]. The error returned is
// a [chart.Diagnostics] whose single diagnostic wraps one of them and says
// where and why.
var (
	// ErrTooLarge: the file is larger than Options.MaxSize, holds more
	// than Options.MaxNodes nodes and edges, or its flattening would make
	// more than twice as many transitions.
	ErrTooLarge = errors.New("graphml: file too large")
	// ErrNotGraphML: the file is not a GraphML document: empty, binary, a
	// zip, or XML of another kind.
	ErrNotGraphML = errors.New("graphml: not a GraphML file")
	// ErrMalformed: the file is not well-formed XML, not valid UTF-8, or
	// in an encoding this reader does not know.
	ErrMalformed = errors.New("graphml: malformed XML")
	// ErrTooDeep: groups nest deeper than Options.MaxDepth.
	ErrTooDeep = errors.New("graphml: nested too deep")
)

// Read reads a GraphML drawing from r (yEd's, or plain GraphML) and
// interprets it as a chart, as the package documentation describes. A file
// compressed with gzip (yEd's .graphmlz) is uncompressed first.
//
// When the file cannot be read at all, Read returns a nil chart and a
// [chart.Diagnostics] holding one error, which wraps [ErrTooLarge],
// [ErrNotGraphML], [ErrMalformed] or [ErrTooDeep]. Otherwise it returns the
// chart (never nil; its States and Transitions never nil), whose
// Diagnostics list what was found wrong or ignored, and, when some of those
// are errors, a [chart.Diagnostics] of the errors.
//
// Read panics if a limit of opt is negative. It holds no global state:
// calls may run concurrently.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	opt = opt.withDefaults()
	doc, err := decode(r, opt)
	if err != nil {
		return nil, err
	}
	return interpret(doc, opt)
}

// ReadFile reads the drawing at path; see [Read].
func ReadFile(path string, opt Options) (*chart.Chart, error) {
	if opt.File == "" {
		opt.File = path
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, source.Fatal(path, 0, 0, err, "graphml: cannot read the drawing: "+source.ErrText(err, path), "")
	}
	defer f.Close()
	return Read(f, opt)
}
