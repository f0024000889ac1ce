package visio

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Options tunes reading a drawing: it is [chart.ReadOptions], the options
// every importer shares. The zero value reads a plain state diagram with
// the default limits, which a Visio drawing uses so:
//
//   - MaxSize bounds the file; MaxDepth how deeply groups nest (XML
//     elements may nest 2×MaxDepth+32 deep: a group level is two);
//     MaxElements the elements the reader keeps, all together: shapes
//     (of pages and masters, group members included), Shape Data rows
//     (of shapes and page sheets), Connect rows, pages, masters, the
//     shapes Relationships cells name, custom properties and a package's
//     content types. MaxTransitions does not apply: the reader keeps
//     composite states as drawn, and flattens nothing (it bounds
//     [chart.Flatten], for those who flatten a chart).
//   - The limits of a Visio package (.vsdx), a zip archive of XML parts,
//     against archives made to exhaust the reader's memory or time:
//     MaxParts is how many files the archive may hold, and how many pages,
//     masters or relationships a part may list; MaxPartSize the largest
//     part read, uncompressed; MaxUnpacked the largest total of the parts
//     read, uncompressed, a part read twice counted twice; MaxRatio the
//     highest ratio of a part's uncompressed size to its compressed size,
//     for parts over 1 MiB, and of that total to the file's size, beyond
//     1 MiB. Visio's own parts compress 4 to 8 times.
type Options = chart.ReadOptions

// Errors that stop reading a drawing, for [errors.Is]. The error returned is
// a [diag.List] whose single diagnostic wraps one of them and says
// where and why.
var (
	// ErrTooLarge: the file is larger than Options.MaxSize, it holds more
	// elements than MaxElements, or a package exceeds MaxParts,
	// MaxPartSize or MaxUnpacked.
	ErrTooLarge = errors.New("visio: file too large")
	// ErrNotVisio: the file is not a Visio drawing: empty, binary, a
	// binary Visio file (.vsd), XML of another kind, a zip that is not an
	// Office package, or an Office document of another kind (.docx).
	// DecodeVDX also refuses a .vsdx with it.
	ErrNotVisio = errors.New("visio: not a Visio drawing")
	// ErrMalformed: the file (or a part of a package) is not well-formed
	// XML, not valid UTF-8, or holds a character XML does not allow (a
	// control character such as a NUL byte, raw or as a reference).
	ErrMalformed = errors.New("visio: malformed XML")
	// ErrTooDeep: groups nest deeper than Options.MaxDepth.
	ErrTooDeep = errors.New("visio: nested too deep")
	// ErrZip: a .vsdx cannot be read: a damaged or truncated zip, a part
	// that does not unpack, or a package without a part, relationship or
	// content type it needs.
	ErrZip = errors.New("visio: damaged Visio package")
	// ErrUnsafe: a .vsdx is made to attack its reader: a part whose
	// compression ratio exceeds Options.MaxRatio (a zip bomb), parts read
	// that unpack to more than MaxRatio times the file's size (a bomb, or
	// a part listed thousands of times), or a name that leads outside the
	// archive (a zip slip).
	ErrUnsafe = errors.New("visio: unsafe zip archive")
)

// Read reads a Visio drawing from r and interprets it as a chart: a Visio
// package (.vsdx, told by its content: a zip) as [DecodeVSDX] then
// [Interpret] would, any other file as a Visio XML drawing (.vdx) as
// [DecodeVDX] then Interpret would; but it hands each shape of a page to
// the interpretation as it is parsed, and keeps no Document of the pages
// (see the package documentation, Costs). (So it reads the shapes of a
// .vdx whose masters follow its pages, where Visio never writes them,
// without their masters, and says so in a warning.)
// A *bytes.Reader or *strings.Reader not yet read from is used in place; any
// other reader is read into memory first (no more than Options.MaxSize
// bytes).
//
// When the file cannot be read at all, Read returns a nil chart and an
// error as the decoders do. Otherwise it returns the chart, whose
// Diagnostics list what was found wrong or ignored, and, when some of those
// are errors, a [diag.List] of the errors.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	type readerAt interface {
		io.ReaderAt
		Len() int
		Size() int64
	}
	if ra, ok := r.(readerAt); ok && int64(ra.Len()) == ra.Size() {
		var magic [4]byte
		if n, _ := ra.ReadAt(magic[:], 0); source.IsZip(string(magic[:n])) {
			return readVSDX(ra, ra.Size(), opt)
		}
		return readVDX(r, opt)
	}
	o := opt.WithDefaults()
	src, err := readAll(r, o)
	if err != nil {
		return nil, err
	}
	if source.IsZip(src) {
		return readVSDX(strings.NewReader(src), int64(len(src)), opt)
	}
	return readVDX(strings.NewReader(src), opt)
}

// ReadFile reads the drawing at path, a .vsdx or a .vdx; see [Read]. A
// .vsdx is read from the file as needed, not into memory.
func ReadFile(path string, opt Options) (*chart.Chart, error) {
	if opt.File == "" {
		opt.File = path
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, source.Fatal(path, 0, 0, err, "visio: cannot read the drawing: "+source.ErrText(err, path), "")
	}
	defer f.Close()
	var magic [4]byte
	if n, _ := f.ReadAt(magic[:], 0); source.IsZip(string(magic[:n])) {
		fi, err := f.Stat()
		if err != nil {
			return nil, source.Fatal(path, 0, 0, err, "visio: cannot read the drawing: "+source.ErrText(err, path), "")
		}
		return readVSDX(f, fi.Size(), opt)
	}
	return Read(f, opt)
}

// short shortens a name, an ID or a text of the drawing for a message, to
// source.MaxQuoted bytes: a file may hold a name of a megabyte.
func short(s string) string { return source.Shorten(s, source.MaxQuoted) }

// posText shortens a page's name, a shape's ID or a part's name for a
// position, which diag.Pos.String renders whole: to 128 bytes, more than
// any drawing's, for the positions of a file made to flood its reader's
// messages. (A shape's name is the chart's to shorten, to 40 characters.)
func posText(s string) string { return source.Shorten(s, 2*source.MaxQuoted) }

// quote quotes a string of the drawing for a message, shortened as by
// short.
func quote(s string) string { return source.Quote(s) }
