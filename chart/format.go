package chart

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fsmforge/fsmforge/diag"
)

// Format is a drawing format that [Read] and [ReadFile] recognise. An
// importer registers its formats with [RegisterFormat] when it is
// imported, as image/png does for image.Decode: a program chooses the
// formats it reads by the packages it imports, and package
// chart/formats imports them all.
type Format struct {
	// Name names the format in messages and listings: "draw.io".
	Name string

	// Extensions lists the file names the format is saved under, lower
	// case, with their dot: ".drawio", ".drawio.svg". Read takes them as
	// a hint, when the content does not tell the format.
	Extensions []string

	// Match reports whether a file is in the format, by its first bytes:
	// head holds the first SniffLen bytes of the file, or the whole file
	// when it is shorter. It must not keep head.
	Match func(head []byte) bool

	// Read reads a drawing from r.
	Read func(r io.Reader, opt ReadOptions) (*Chart, error)

	// ReadFile, when not nil, reads the drawing at path, for formats that
	// read a file better than a stream (a zip archive is read in place).
	// Nil means opening the file and calling Read.
	ReadFile func(path string, opt ReadOptions) (*Chart, error)
}

// SniffLen is how many of a file's first bytes [Format.Match] is given.
const SniffLen = 8192

// ErrUnknownFormat is the error of [Read] and [ReadFile] for a file no
// registered format reads.
var ErrUnknownFormat = errors.New("chart: unknown drawing format")

var (
	formatsMu sync.RWMutex
	formats   []Format
)

// RegisterFormat registers a format for [Read] and [ReadFile]. Importers
// call it from an init function. It panics when the format has no name,
// Match or Read, or when a format of the same name is registered already.
func RegisterFormat(f Format) {
	if f.Name == "" || f.Match == nil || f.Read == nil {
		panic("chart: RegisterFormat needs a Format with a Name, a Match and a Read")
	}
	formatsMu.Lock()
	defer formatsMu.Unlock()
	for _, g := range formats {
		if g.Name == f.Name {
			panic("chart: format " + f.Name + " registered twice")
		}
	}
	f.Extensions = slices.Clone(f.Extensions)
	formats = append(formats, f)
	slices.SortFunc(formats, func(a, b Format) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
}

// Formats returns the registered formats, sorted by name (case aside): the chart file
// format of this package, and those of the importers the program imports.
func Formats() []Format {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	return slices.Clone(formats)
}

// ReadFile reads the drawing at path, in whichever registered format it
// is, told by its content, and by its extension when the content does not
// tell. opt.File is set to path when empty. The error of a file no format
// reads wraps [ErrUnknownFormat] and lists the formats the program reads.
// Otherwise ReadFile returns what the format's importer returns: a chart
// carrying its diagnostics, and their errors as a [diag.List] error;
// nil and the error when the file could not be read at all.
func ReadFile(path string, opt ReadOptions) (*Chart, error) {
	if opt.File == "" {
		opt.File = path
	}
	cannotRead := func(err error) error {
		return diag.List{{Pos: diag.Pos{File: opt.File}, Message: "chart: cannot read drawing: " + errText(err, path), Err: err}}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, cannotRead(err)
	}
	head := make([]byte, SniffLen)
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, cannotRead(err)
	}
	format, err := detect(head[:n], path, opt.File)
	if err != nil {
		return nil, err
	}
	if format.ReadFile != nil {
		return format.ReadFile(path, opt)
	}
	if f, err = os.Open(path); err != nil {
		return nil, cannotRead(err)
	}
	defer f.Close()
	return format.Read(f, opt)
}

// Read reads a drawing from r, in whichever registered format it is,
// told by its content, and by the extension of name when the content does
// not tell. name is the file's name (it may be ""); opt.File is set to it
// when empty. See [ReadFile] for what it returns.
func Read(r io.Reader, name string, opt ReadOptions) (*Chart, error) {
	if opt.File == "" {
		opt.File = name
	}
	// A reader of bytes in memory (a *bytes.Reader, a *strings.Reader) is
	// given to the format as it is, so that it reads it in one piece.
	if ra, ok := r.(interface {
		io.ReaderAt
		Len() int
		Size() int64
	}); ok && int64(ra.Len()) == ra.Size() {
		head := make([]byte, min(int64(SniffLen), ra.Size()))
		n, _ := ra.ReadAt(head, 0)
		format, err := detect(head[:n], name, opt.File)
		if err != nil {
			return nil, err
		}
		return format.Read(r, opt)
	}
	br := bufio.NewReaderSize(r, SniffLen)
	head, err := br.Peek(SniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, diag.List{{Pos: diag.Pos{File: opt.File}, Message: "chart: cannot read drawing: " + err.Error(), Err: err}}
	}
	format, err := detect(head, name, opt.File)
	if err != nil {
		return nil, err
	}
	return format.Read(br, opt)
}

// detect picks the format of a file from its first bytes and its name:
// the one format whose Match takes it; among several, the one whose
// extension the name has; when none takes it, the one whose extension the
// name has, which will say what is wrong with the file.
func detect(head []byte, name, file string) (Format, error) {
	all := Formats()
	var byContent []Format
	for _, f := range all {
		if f.Match(head) {
			byContent = append(byContent, f)
		}
	}
	byName, hasExt := formatOfName(all, name)
	switch {
	case len(byContent) == 1:
		return byContent[0], nil
	case len(byContent) > 1 && hasExt && slices.ContainsFunc(byContent, func(f Format) bool { return f.Name == byName.Name }):
		return byName, nil
	case len(byContent) > 1:
		return byContent[0], nil
	case hasExt:
		return byName, nil
	}
	what := "its content is no drawing format this program reads"
	if len(bytes.TrimSpace(head)) == 0 {
		what = "it is empty"
	}
	return Format{}, diag.List{{Pos: diag.Pos{File: file}, Err: ErrUnknownFormat,
		Message: "chart: not a drawing: " + what,
		Hint:    "this program reads " + FormatList(all)}}
}

// formatOfName returns the format whose extension ends name, the longest
// extension winning (".drawio.svg" over ".svg").
func formatOfName(all []Format, name string) (Format, bool) {
	lower := strings.ToLower(filepath.Base(name))
	best, n := Format{}, 0
	for _, f := range all {
		for _, ext := range f.Extensions {
			if len(ext) > n && strings.HasSuffix(lower, ext) {
				best, n = f, len(ext)
			}
		}
	}
	return best, n > 0
}

// FormatList describes formats for a message: "chart JSON (.json);
// draw.io (.drawio, .dio, ...); ...", followed by a word on package
// chart/formats when only the chart file format is registered.
func FormatList(fs []Format) string {
	var parts []string
	for _, f := range fs {
		s := f.Name
		if len(f.Extensions) > 0 {
			s += " (" + strings.Join(f.Extensions, ", ") + ")"
		}
		parts = append(parts, s)
	}
	list := strings.Join(parts, "; ")
	if len(fs) <= 1 {
		list += "; import github.com/fsmforge/fsmforge/chart/formats for the drawing formats"
	}
	return list
}

// jsonFormat is the chart file format of this package, which every program
// reads.
var jsonFormat = Format{
	Name:       "chart JSON",
	Extensions: []string{".json"},
	Match: func(head []byte) bool {
		head = bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF"))
		head = bytes.TrimLeft(head, " \t\r\n")
		return len(head) > 0 && head[0] == '{' && !bytes.Contains(head, []byte(`"fsmforge table"`))
	},
	Read: readJSONChart,
}

func init() { RegisterFormat(jsonFormat) }

// readJSONChart reads a chart file as a format: the stencil of opt, when
// given, is given to a file that carries none; a file's own stencil is
// kept (package compile compares it with the one it expects).
func readJSONChart(r io.Reader, opt ReadOptions) (*Chart, error) {
	c, err := readJSON(r, opt)
	if err != nil {
		return nil, err
	}
	if opt.Stencil != nil && c.Stencil == nil {
		c.Stencil = opt.Stencil
	}
	return c, nil
}
