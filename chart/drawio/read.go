package drawio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Options tunes reading a drawing: it is [chart.ReadOptions], the options
// every importer shares. The zero value reads a plain state diagram with
// the default limits, which a draw.io file uses so:
//
//   - MaxSize bounds the file, and what its content produces: its
//     compressed content (compressed pages, an SVG's content, a PNG's text
//     chunk, turned into UTF-8) may inflate to MaxSize bytes, all of it
//     together, and the labels whose placeholders are replaced
//     (placeholders="1") may grow by MaxSize bytes, all labels together.
//   - MaxElements bounds the cells, all pages together, where a page, and
//     an element that wraps a cell or should, count as one too; and,
//     counted apart, the attributes of the elements that wrap cells
//     (object, UserObject: the cells' Edit Data, their ID and label
//     included); and, counted apart too, the actions of a plain diagram
//     (the lines of AttrEntry, AttrExit and AttrActions).
//   - MaxDepth bounds how deeply cells nest (a state in a container in a
//     container...); XML elements may nest MaxDepth+32 deep.
//   - MaxTransitions is not used: the reader keeps the states' nesting,
//     and does not flatten the chart ([chart.Flatten] copies
//     transitions).
//   - RoleKey names the Edit Data attribute that says which master of the
//     stencil a shape stands for ([AttrRole] by default).
type Options = chart.ReadOptions

// Errors that stop reading a drawing, for [errors.Is]. The error returned is
// a [diag.List] whose single diagnostic wraps one of them and says
// where and why.
var (
	// ErrTooLarge: the file is larger than Options.MaxSize, its
	// compressed content inflates to more than that, or its labels'
	// placeholders expand to more than that; or it holds more than
	// Options.MaxElements cells, or more properties or actions than that.
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
// [diag.List] holding one error, which wraps [ErrTooLarge],
// [ErrNotDrawio], [ErrMalformed] or [ErrTooDeep]. Otherwise it returns the
// chart, never nil, whose Diagnostics list what was found wrong or
// ignored, and, when some of those are errors, a [diag.List] of the
// errors. Read never panics on any input (it panics if a limit of
// Options is negative, a programming error); it reads the whole file
// into memory. See the package documentation for what it costs.
func Read(r io.Reader, opt Options) (*chart.Chart, error) {
	opt = opt.WithDefaults() // panics on a negative limit
	doc, err := decode(r, opt)
	if err != nil {
		return nil, tidyError(err)
	}
	c, err := interpret(doc, opt)
	if c == nil {
		return nil, tidyError(err)
	}
	c.Diagnostics = tidy(c.Diagnostics)
	for i := range c.States {
		tidyPos(&c.States[i].Pos)
	}
	for i := range c.Transitions {
		tidyPos(&c.Transitions[i].Pos)
	}
	return c, c.Diagnostics.Err()
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
			chart.LimitHint("MaxSize"))
	}
	if err != nil {
		return "", source.Fatal(opt.File, 0, 0, err, "drawio: cannot read the diagram: "+err.Error(), "")
	}
	return src, nil
}

// What a diagnostic may quote of the file: the names of a position (page,
// shape ID, shape name), a word of a message (a name, a value), a whole
// message or hint, in runes; and how many diagnostics that say the same
// thing are kept.
const (
	maxName    = 100
	maxWord    = 64
	maxMessage = 1000
	maxRepeats = 10
)

// tidy bounds what diagnostics quote of the file, whatever the code that
// made them, so that no file makes its diagnostics large: the names of
// positions (see [tidyPos]) and the words of messages are shortened, and
// after maxRepeats diagnostics of the same severity and message, the
// others are dropped, the last one kept saying how many ("(and 12 more
// like it)").
func tidy(ds diag.List) diag.List {
	type key struct {
		sev       diag.Severity
		msg, hint string
	}
	var seen map[key]int
	for i := range ds {
		d := &ds[i]
		tidyPos(&d.Pos)
		d.Message = clipText(d.Message)
		d.Hint = clipText(d.Hint)
		if len(ds) > maxRepeats {
			if seen == nil {
				seen = make(map[key]int)
			}
			seen[key{d.Severity, d.Message, d.Hint}]++
		}
	}
	if len(ds) <= maxRepeats {
		return ds
	}
	out := ds[:0]
	kept := make(map[key]int)
	for _, d := range ds {
		k := key{d.Severity, d.Message, d.Hint}
		n := kept[k]
		if n == maxRepeats {
			continue
		}
		kept[k] = n + 1
		if n+1 == maxRepeats && seen[k] > maxRepeats {
			d.Message += fmt.Sprintf(" (and %d more like it)", seen[k]-maxRepeats)
		}
		out = append(out, d)
	}
	clear(ds[len(out):]) // let what was dropped go
	return out
}

// tidyPos shortens the names of a position to maxName runes: those of the
// states and transitions too, whose positions other packages quote in
// their messages, and match with those of the diagnostics (the IDs and
// names themselves are kept whole in State and Transition).
func tidyPos(p *diag.Pos) {
	p.Page = importer.Shorten(p.Page, maxName)
	p.Shape = importer.Shorten(p.Shape, maxName)
	p.ShapeName = importer.Shorten(p.ShapeName, maxName)
}

// tidyError tidies the diagnostics of an error that stops a reading.
func tidyError(err error) error {
	if l, ok := err.(diag.List); ok {
		return tidy(l)
	}
	return err
}

// clipText shortens the words of s longer than maxWord runes (a name, a
// quoted value without spaces) to their start and "...", then s itself to
// maxMessage runes. It returns s when there is nothing to shorten.
func clipText(s string) string {
	if len(s) <= maxWord {
		return s
	}
	long := false
	for w := range strings.FieldsSeq(s) {
		if len(w) > maxWord {
			long = true
			break
		}
	}
	if long {
		var b strings.Builder
		for len(s) > 0 {
			i := strings.IndexAny(s, " \t\n")
			if i < 0 {
				i = len(s)
			}
			b.WriteString(shortenWord(s[:i]))
			if i < len(s) {
				b.WriteByte(s[i])
				i++
			}
			s = s[i:]
		}
		s = b.String()
	}
	return importer.Shorten(s, maxMessage)
}

// shortenWord shortens a word of a message to maxWord runes, keeping the
// character that closes it, if any: <name...>, "value...".
func shortenWord(w string) string {
	if len(w) <= maxWord {
		return w
	}
	if last := w[len(w)-1]; strings.IndexByte(`>"')]`, last) >= 0 {
		return importer.Shorten(w[:len(w)-1], maxWord-1) + string(last)
	}
	return importer.Shorten(w, maxWord)
}
