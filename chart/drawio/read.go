package drawio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Options tunes reading a drawing. The zero value reads a plain state
// diagram with the default limits.
type Options struct {
	// File names the drawing in positions and messages. ReadFile sets it
	// to the path when it is empty.
	File string

	// Stencil is the stencil the drawing was made with: states, initial
	// states, transitions and message handlers are then recognised by the
	// fsmforge attribute of their Edit Data and read from their
	// properties. Nil (the default) reads a plain state diagram.
	Stencil *chart.Stencil

	// MaxSize is the largest file read, in bytes, and also the most its
	// compressed pages may inflate to, all pages together; 0 means
	// DefaultMaxSize.
	MaxSize int64

	// MaxDepth is how deeply cells may nest (a state in a container in a
	// container...); 0 means DefaultMaxDepth. XML elements may nest
	// MaxDepth+32 deep.
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
		panic("drawio: Options.MaxSize and Options.MaxDepth must not be negative (0 means the default)")
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
	// ErrTooLarge: the file is larger than Options.MaxSize, or its
	// compressed pages inflate to more than that.
	ErrTooLarge = errors.New("drawio: file too large")
	// ErrNotDrawio: the file is not a draw.io diagram: empty, binary, a
	// PNG or an SVG without a diagram, a shape library, or XML of another
	// kind.
	ErrNotDrawio = errors.New("drawio: not a draw.io diagram")
	// ErrMalformed: the file, or the diagram inside a page, an SVG or a
	// PNG, is not well-formed XML or valid UTF-8, or a compressed page is
	// not valid base64, deflate or URL encoding.
	ErrMalformed = errors.New("drawio: malformed diagram")
	// ErrTooDeep: cells nest deeper than Options.MaxDepth.
	ErrTooDeep = errors.New("drawio: nested too deep")
)

// Read reads a draw.io diagram from r and interprets it as a chart. The
// container is told from the content, whatever the file's name: an mxfile
// of one or more pages, each plain or compressed; a bare mxGraphModel; an
// SVG with the diagram in its content attribute (.drawio.svg); a PNG with
// the diagram in a text chunk (.drawio.png); UTF-8, or UTF-16 with a
// byte-order mark.
//
// When the file cannot be read at all, Read returns a nil chart and a
// [chart.Diagnostics] holding one error, which wraps [ErrTooLarge],
// [ErrNotDrawio], [ErrMalformed] or [ErrTooDeep]. Otherwise it returns the
// chart, never nil, whose Diagnostics list what was found wrong or
// ignored, and, when some of those are errors, a [chart.Diagnostics] of the
// errors. Read never panics on any input (it panics if Options.MaxSize
// or MaxDepth is negative, a programming error); it reads the whole file
// into memory. See the package documentation for what it costs.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	opt = opt.withDefaults()
	doc, err := decode(r, opt)
	if err != nil {
		return nil, err
	}
	return interpret(doc, opt)
}

// ReadFile reads the diagram at path; see [Read].
func ReadFile(path string, opt Options) (*chart.Chart, error) {
	if opt.File == "" {
		opt.File = path
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, source.Fatal(path, 0, 0, err, "drawio: cannot read the diagram: "+source.ErrText(err, path), "")
	}
	defer f.Close()
	return Read(f, opt)
}

// chartName is the file's base name without its extensions: "goomba" for
// goomba.drawio, goomba.drawio.svg and goomba.drawio.png.
func chartName(file string) string {
	if file == "" {
		return ""
	}
	base := filepath.Base(file)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	for _, ext := range []string{".drawio", ".dio"} {
		if strings.HasSuffix(strings.ToLower(base), ext) && len(base) > len(ext) {
			base = base[:len(base)-len(ext)]
		}
	}
	return base
}

// readAll reads r, refusing more than opt.MaxSize bytes.
func readAll(r io.Reader, opt Options) (string, error) {
	src, err := source.ReadAll(r, opt.MaxSize)
	if errors.Is(err, source.ErrTooLarge) {
		return "", source.Fatal(opt.File, 0, 0, ErrTooLarge, "drawio: the file is larger than "+source.SizeString(opt.MaxSize),
			"raise Options.MaxSize if the diagram really is this large")
	}
	if err != nil {
		return "", source.Fatal(opt.File, 0, 0, err, "drawio: cannot read the diagram: "+err.Error(), "")
	}
	return src, nil
}
