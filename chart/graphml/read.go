package graphml

import (
	"errors"
	"io"
	"os"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Options tunes reading a drawing: it is [chart.ReadOptions], the options
// every importer shares. The zero value reads a plain state diagram with
// the default limits, which a GraphML file uses so: MaxSize bounds the
// file (for a compressed file, once uncompressed); MaxElements the nodes
// and edges, together; MaxDepth how deeply group nodes nest (XML elements
// may nest 2×MaxDepth+32 deep: a group level is two, the node and its
// graph); MaxTransitions the transitions the edges' labels make (the
// labels of StateSmith and Kingly make several of one edge; the reader
// keeps nested states as they are, and does not flatten them). RoleKey is
// the name (attr.name) of the custom property whose value names the
// stencil master a node or an edge stands for ([chart.DefaultRoleKey] by
// default); it is used only with a Stencil.
type Options = chart.ReadOptions

// DefaultRoleKey is the default of Options.RoleKey.
const DefaultRoleKey = chart.DefaultRoleKey

// Errors that stop reading a drawing, for [errors.Is]. The error returned is
// a [diag.List] whose single diagnostic wraps one of them and says
// where and why.
var (
	// ErrTooLarge: the file is larger than Options.MaxSize, holds more
	// than Options.MaxElements nodes and edges, or its edges' labels make
	// more than Options.MaxTransitions transitions.
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
// [diag.List] holding one error, which wraps [ErrTooLarge],
// [ErrNotGraphML], [ErrMalformed] or [ErrTooDeep]. Otherwise it returns the
// chart (never nil; its States and Transitions never nil), whose
// Diagnostics list what was found wrong or ignored, and, when some of those
// are errors, a [diag.List] of the errors.
//
// Read panics if a limit of opt is negative. It holds no global state:
// calls may run concurrently.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	opt = opt.WithDefaults()
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
