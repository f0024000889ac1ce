package visio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/source"
	"github.com/fsmforge/fsmforge/internal/xmlscan"
)

// A Visio package (.vsdx, and .vssx, .vstx, .vsdm...) is a zip archive of
// XML parts linked by relationship parts, as the Open Packaging Conventions
// (ECMA-376 part 2) define:
//
//	[Content_Types].xml            the content type of every part
//	_rels/.rels                    the package's relationships: the document part
//	visio/document.xml             the document part
//	visio/_rels/document.xml.rels  its relationships: the pages and masters parts
//	visio/pages/pages.xml          <Pages>: each <Page> names its part with <Rel r:id>
//	visio/pages/_rels/pages.xml.rels
//	visio/pages/page1.xml          <PageContents>: <Shapes>, <Connects>
//	visio/masters/masters.xml      <Masters>: each <Master> names its part
//	visio/masters/master1.xml      <MasterContents>: <Shapes>
//
// Part names are found through the relationships, never guessed, and are
// only looked up in the archive: nothing is written to disk.

// Relationship types of a Visio package.
const (
	relDocument       = "http://schemas.microsoft.com/visio/2010/relationships/document"
	relPages          = "http://schemas.microsoft.com/visio/2010/relationships/pages"
	relPage           = "http://schemas.microsoft.com/visio/2010/relationships/page"
	relMasters        = "http://schemas.microsoft.com/visio/2010/relationships/masters"
	relMaster         = "http://schemas.microsoft.com/visio/2010/relationships/master"
	relOfficeDocument = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
	relCore           = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
	relCustom         = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"
)

// Namespaces of the packaging parts.
const (
	nsContentTypes  = "http://schemas.openxmlformats.org/package/2006/content-types"
	nsRelationships = "http://schemas.openxmlformats.org/package/2006/relationships"
	nsR             = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsCore          = "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
	nsDC            = "http://purl.org/dc/elements/1.1/"
	nsCustom        = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
)

// Content types of the parts of a Visio package.
const (
	ctPages   = "application/vnd.ms-visio.pages+xml"
	ctPage    = "application/vnd.ms-visio.page+xml"
	ctMasters = "application/vnd.ms-visio.masters+xml"
	ctMaster  = "application/vnd.ms-visio.master+xml"
)

// ratioFloor is the size under which a part's compression ratio is not
// checked: a small part cannot be a bomb.
const ratioFloor = 1 << 20

// partWindow is how much of a part's text the parser holds at a time (see
// xmlscan.NewReader); a variable for the tests.
var partWindow = 64 << 10

// DecodeVSDX reads a Visio package (a .vsdx drawing of Visio 2013 and
// later, or a .vssx stencil, .vstx template, or their macro-enabled kinds)
// of size bytes from r into a [Document], without interpreting it. A
// stencil or a template gives a Document with masters and no pages.
//
// It reads the parts the relationships lead to, and no other: the content
// types, the package's and the document's relationships, the pages and
// masters parts and each page and master they list, the document's title
// from docProps/core.xml and its custom properties from
// docProps/custom.xml. It unpacks each part as it parses it, holding 64
// KiB of its text at a time (a UTF-16 part whole), and copies out what the
// Document keeps: the Document does not keep the parts in memory, nor the
// file. Only Options.File and the limits are used: MaxSize bounds size;
// MaxParts the files the archive holds, and the pages, masters and
// relationships a part lists; MaxPartSize each part read, uncompressed;
// MaxUnpacked all of them together, each read of a part counted (two
// pages may share a part); MaxRatio the compression ratio of each part
// over 1 MiB, and that of all the parts read to the file's size; MaxDepth
// how deeply groups nest; MaxElements the shapes, rows and other elements
// kept (see [Options]). Names in the archive are only looked up, never
// used as paths.
//
// The error, when not nil, is a [diag.List] holding one error with
// its position ("drawing.vsdx!visio/pages/page1.xml:3:5" for a problem in
// a part), which wraps [ErrTooLarge] (a limit is exceeded), [ErrUnsafe] (a
// zip bomb or a name that leads outside the archive), [ErrZip] (a damaged
// archive, or a package missing a part, a relationship or a content type
// it needs), [ErrNotVisio] (a zip that is not a Visio package, such as a
// .docx), [ErrMalformed] (malformed XML, invalid UTF-8 with its byte
// offset in the part, or a character XML does not allow) or [ErrTooDeep];
// the Document is then nil.
func DecodeVSDX(r io.ReaderAt, size int64, opt Options) (*Document, error) {
	return decodeVSDX(r, size, opt, nil)
}

// readVSDX reads a package and interprets it, as Read does: the shapes
// and Connect rows of its pages go to the interpretation as they are
// parsed, and the Document never holds them.
func readVSDX(r io.ReaderAt, size int64, opt Options) (*chart.Chart, error) {
	in := newInterp(opt)
	if _, err := decodeVSDX(r, size, opt, in); err != nil {
		return nil, err
	}
	return in.finish()
}

// decodeVSDX is DecodeVSDX; with in, the pages' shapes and Connect rows
// go to it instead of the Document.
func decodeVSDX(r io.ReaderAt, size int64, opt Options, in *interp) (*Document, error) {
	opt = opt.WithDefaults()
	k := &pkg{opt: opt, doc: &Document{File: opt.File, Namespace: NamespaceVSDX}, in: in,
		maxAll: max(ratioFloor, mulSat(max(size, 0), int64(opt.MaxRatio)))}
	if in != nil {
		in.doc, in.stream = k.doc, true
	}
	if size > opt.MaxSize {
		return nil, k.fail(Pos{}, ErrTooLarge, fmt.Sprintf("visio: the file is larger than %s", source.SizeString(opt.MaxSize)),
			"raise Options.MaxSize if the drawing really is this large")
	}
	if err := k.open(r, size); err != nil {
		return nil, err
	}
	if err := k.read(); err != nil {
		return nil, err
	}
	return k.doc, nil
}

// pkg holds the state of one DecodeVSDX call.
type pkg struct {
	opt    Options
	doc    *Document
	parts  map[string]*zip.File // by lower-case name: OPC part names ignore case
	types  contentTypes
	unpack int64   // bytes unpacked so far, each read of a part counted
	maxAll int64   // the most all reads may unpack: MaxRatio times the file's size, or ratioFloor
	p      *parser // shared by the parts, for its blocks of shapes and rows
	in     *interp // Read's: takes the pages' shapes (see pageStream)
}

// fail returns a one-error Diagnostics at pos, in a part or the file.
func (k *pkg) fail(pos Pos, err error, msg, hint string) error {
	file := k.doc.File
	if pos.Part != "" {
		file += "!" + posText(pos.Part)
	}
	return source.Fatal(file, pos.Line, pos.Col, err, msg, hint)
}

const resave = "the drawing is damaged or was written by a program that does not follow the .vsdx format; open it in Visio and save it again"

// open reads the archive's directory and checks the names it holds.
func (k *pkg) open(r io.ReaderAt, size int64) error {
	if n, ok := zipEntries(r, size); ok && n > uint64(k.opt.MaxParts) {
		return k.tooManyParts(n)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return k.fail(Pos{}, ErrZip, "visio: the zip archive is damaged or truncated ("+err.Error()+")", "the file was not completely written or copied; get the drawing again")
	}
	if len(zr.File) > k.opt.MaxParts {
		return k.tooManyParts(uint64(len(zr.File)))
	}
	k.parts = make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		if unsafeName(f.Name) {
			return k.fail(Pos{}, ErrUnsafe, fmt.Sprintf("visio: the zip archive holds a file named %s, a path that leads outside the archive; refused", quote(f.Name)),
				"a Visio drawing never holds such a name: the file was made to attack the programs that unzip it")
		}
		if strings.HasSuffix(f.Name, "/") {
			continue // a folder
		}
		key := strings.ToLower(f.Name)
		if _, dup := k.parts[key]; dup {
			return k.fail(Pos{}, ErrZip, fmt.Sprintf("visio: the zip archive holds two files named %s", quote(f.Name)), resave)
		}
		k.parts[key] = f
	}
	return nil
}

func (k *pkg) tooManyParts(n uint64) error {
	return k.fail(Pos{}, ErrTooLarge, fmt.Sprintf("visio: the zip archive holds %d files, more than %d", n, k.opt.MaxParts),
		"raise Options.MaxParts if the drawing really has this many pages and masters")
}

// tooManyListed reports a part that lists more pages, masters or
// relationships than the archive may hold parts: each needs its own (a
// relationship leads to a part).
func (k *pkg) tooManyListed(part, what string) error {
	return k.fail(Pos{Part: part}, ErrTooLarge, fmt.Sprintf("visio: %s lists more than %d %s", short(part), k.opt.MaxParts, what),
		"raise Options.MaxParts if the drawing really has this many pages and masters")
}

// unsafeName reports whether a name in the archive could lead outside it
// if it were a path: absolute, with a drive letter, a backslash, a NUL or
// a ".." segment.
func unsafeName(name string) bool {
	return name == "" || name[0] == '/' || strings.ContainsAny(name, "\\\x00") ||
		len(name) >= 2 && name[1] == ':' ||
		slices.Contains(strings.Split(name, "/"), "..")
}

// zipEntries reads how many files the archive's end of central directory
// record says it holds, without reading the directory; ok is false when
// the record is not found (zip.NewReader then reports the damage).
func zipEntries(r io.ReaderAt, size int64) (n uint64, ok bool) {
	const eocdLen = 22
	if size < eocdLen {
		return 0, false
	}
	buf := make([]byte, min(size, eocdLen+0xFFFF))
	if _, err := r.ReadAt(buf, size-int64(len(buf))); err != nil && err != io.EOF {
		return 0, false
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < eocdLen {
		return 0, false
	}
	n = uint64(binary.LittleEndian.Uint16(buf[i+10:]))
	if n == 0xFFFF && i >= 20 && string(buf[i-20:i-16]) == "PK\x06\x07" { // zip64
		off := int64(binary.LittleEndian.Uint64(buf[i-20+8:]))
		var rec [56]byte
		if off >= 0 && off <= size-int64(len(rec)) {
			if _, err := r.ReadAt(rec[:], off); err == nil && string(rec[:4]) == "PK\x06\x06" {
				n = binary.LittleEndian.Uint64(rec[32:])
			}
		}
	}
	return n, true
}

// A part is read as its parser goes (see partReader), but its problems
// are those found, and reported, as if it had been read whole first: a
// part that does not unpack within the limits, then text that is not
// UTF-8, then what the parser finds.

// errStop is what a partReader's Read returns once it has found a
// problem: the scanner stops, and partReader.finish reports the problem.
var errStop = errors.New("visio: the part cannot be read")

// partReader reads the text of the part name for a scanner, within the
// limits, and checks as it goes that the part unpacks and is UTF-8.
type partReader struct {
	k     *pkg
	name  string
	f     *zip.File
	rc    io.ReadCloser
	r     io.Reader // rc, limited to limit+1 bytes
	limit int64
	ratio int64  // the most the part may unpack to by Options.MaxRatio
	n     int64  // bytes read from r
	err   error  // a part that does not unpack within the limits: reading stops
	head  []byte // bytes read ahead, to hand out first

	// The UTF-8 check.
	text   int64 // bytes of text handed out, after a byte-order mark
	line   int   // the line at text, from 1
	from   int64 // where that line starts
	carry  [utf8.UTFMax]byte
	ncarry int   // bytes of carry: the start of a character the text handed out cuts
	bad    int64 // offset of the first invalid UTF-8 in the text, or -1
	badAt  Pos
	badB   byte  // the byte at bad
	bom    int64 // the byte-order mark's length, before the text
}

// openPart opens the part name (as found in the archive: the caller looked it
// up), checking the sizes its header declares against the limits.
func (k *pkg) openPart(name string, at Pos) (*partReader, error) {
	f := k.parts[strings.ToLower(name)]
	if f == nil {
		return nil, k.fail(at, ErrZip, fmt.Sprintf("visio: the package has no part %s", short(name)), resave)
	}
	pr := &partReader{k: k, name: name, f: f, line: 1, bad: -1}
	o := k.opt
	declared := f.UncompressedSize64
	switch {
	case declared > uint64(o.MaxPartSize):
		return nil, pr.tooLarge(strconv.FormatUint(declared, 10) + " bytes")
	case declared > uint64(o.MaxUnpacked-k.unpack):
		return nil, pr.tooMuch()
	case declared > ratioFloor && declared/uint64(o.MaxRatio) > f.CompressedSize64:
		return nil, pr.bomb(f, declared)
	case declared > uint64(k.maxAll-k.unpack):
		return nil, pr.bombAll()
	}
	// Read no more than the limits allow, whatever the header says.
	pr.ratio = math.MaxInt64
	if f.Method != zip.Store {
		pr.ratio = max(ratioFloor, mulSat(int64(min(f.CompressedSize64, 1<<62)), int64(o.MaxRatio)))
	}
	pr.limit = min(o.MaxPartSize, o.MaxUnpacked-k.unpack, pr.ratio, k.maxAll-k.unpack)
	rc, err := f.Open()
	if err != nil {
		return nil, k.zipError(name, err)
	}
	pr.rc, pr.r = rc, io.LimitReader(rc, pr.limit+1)
	return pr, nil
}

func (pr *partReader) tooLarge(size string) error {
	return pr.k.fail(Pos{Part: pr.name}, ErrTooLarge, fmt.Sprintf("visio: part %s is %s uncompressed, more than %s", short(pr.name), size, source.SizeString(pr.k.opt.MaxPartSize)),
		"raise Options.MaxPartSize if the drawing really is this large")
}

func (pr *partReader) tooMuch() error {
	return pr.k.fail(Pos{Part: pr.name}, ErrTooLarge, fmt.Sprintf("visio: the parts read come to more than %s uncompressed", source.SizeString(pr.k.opt.MaxUnpacked)),
		"raise Options.MaxUnpacked if the drawing really is this large")
}

func (pr *partReader) bomb(f *zip.File, size uint64) error {
	return pr.k.fail(Pos{Part: pr.name}, ErrUnsafe, fmt.Sprintf("visio: part %s would unpack from %d bytes to %d or more, a compression ratio over %d: a zip bomb; refused", short(pr.name), f.CompressedSize64, size, pr.k.opt.MaxRatio),
		"a Visio drawing does not compress that well; raise Options.MaxRatio if this one really does")
}

func (pr *partReader) bombAll() error {
	k := pr.k
	return k.fail(Pos{Part: pr.name}, ErrUnsafe, fmt.Sprintf("visio: the parts read would unpack to more than %s, over %d times the file's size: a zip bomb, or a part read again and again; refused",
		source.SizeString(k.maxAll), k.opt.MaxRatio),
		"a Visio drawing does not compress that well, and reads each part once; raise Options.MaxRatio if this one really does")
}

// read reads the part, unpacking it; it returns errStop, and sets pr.err,
// when the part exceeds a limit or does not unpack.
func (pr *partReader) read(p []byte) (int, error) {
	if pr.err != nil {
		return 0, errStop
	}
	n, err := pr.r.Read(p)
	pr.n += int64(n)
	if pr.n > pr.limit {
		o, k := pr.k.opt, pr.k
		switch {
		case pr.n > o.MaxPartSize:
			pr.err = pr.tooLarge("over " + source.SizeString(o.MaxPartSize))
		case pr.n > o.MaxUnpacked-k.unpack:
			pr.err = pr.tooMuch()
		case pr.n > pr.ratio:
			pr.err = pr.bomb(pr.f, uint64(pr.n))
		default:
			pr.err = pr.bombAll()
		}
		return 0, errStop
	}
	if err != nil && err != io.EOF {
		pr.err = pr.k.zipError(pr.name, err)
		return 0, errStop
	}
	return n, err
}

// start reads the part's byte-order mark: it returns true for UTF-16,
// which the parser reads whole; UTF-8's is left out.
func (pr *partReader) start() bool {
	var head [3]byte
	n := 0
	for n < len(head) {
		m, err := pr.read(head[n:])
		n += m
		if err != nil {
			break
		}
	}
	pr.head = head[:n]
	switch {
	case bytes.HasPrefix(pr.head, []byte("\xEF\xBB\xBF")):
		pr.head, pr.bom = nil, 3
	case bytes.HasPrefix(pr.head, []byte("\xFF\xFE")), bytes.HasPrefix(pr.head, []byte("\xFE\xFF")):
		return true
	}
	return false
}

// Read hands out the part's text, up to its first invalid UTF-8 byte.
func (pr *partReader) Read(p []byte) (int, error) {
	if pr.bad >= 0 {
		return 0, errStop
	}
	var n int
	var err error
	if len(pr.head) > 0 {
		n = copy(p, pr.head)
		pr.head = pr.head[n:]
	} else {
		n, err = pr.read(p)
	}
	n = pr.check(p[:n], err == io.EOF)
	if pr.bad >= 0 {
		return n, errStop
	}
	return n, err
}

// check checks that p, the text that follows what was handed out, is
// UTF-8, eof saying the text ends with it. It returns how many bytes of p
// come before the first invalid byte, which it records.
func (pr *partReader) check(p []byte, eof bool) int {
	i := 0 // bytes of p checked
	if n := pr.ncarry; n > 0 {
		// A character the last bytes handed out started.
		var c [2 * utf8.UTFMax]byte
		copy(c[:], pr.carry[:n])
		m := n + copy(c[n:], p[:min(len(p), utf8.UTFMax-n)])
		switch r, size := utf8.DecodeRune(c[:m]); {
		case r == utf8.RuneError && size == 1 && !utf8.FullRune(c[:m]) && !eof: // p is all of it so far
			pr.ncarry = copy(pr.carry[:], c[:m])
			return pr.passed(p, len(p))
		case r == utf8.RuneError && size == 1:
			pr.ncarry = 0
			pr.badB = c[0]
			pr.invalid(p, -n)
			return 0
		default:
			i = size - n
			pr.ncarry = 0
		}
	}
	end := len(p)
	if !eof {
		end -= xmlscan.IncompleteTail(p[i:])
	}
	if !utf8.Valid(p[i:end]) {
		for j := i; j < end; {
			r, size := utf8.DecodeRune(p[j:end])
			if r == utf8.RuneError && size == 1 {
				pr.badB = p[j]
				pr.invalid(p, j)
				return j
			}
			j += size
		}
	}
	pr.ncarry = copy(pr.carry[:], p[end:])
	return pr.passed(p, len(p))
}

// passed counts the lines of the n first bytes of p, checked text, and
// returns n.
func (pr *partReader) passed(p []byte, n int) int {
	if c := bytes.Count(p[:n], []byte("\n")); c > 0 {
		pr.line += c
		pr.from = pr.text + int64(bytes.LastIndexByte(p[:n], '\n')) + 1
	}
	pr.text += int64(n)
	return n
}

// invalid records the first invalid UTF-8 byte of the text, at offset i
// of p (negative: in the bytes before p).
func (pr *partReader) invalid(p []byte, i int) {
	if i > 0 {
		pr.passed(p, i)
	}
	pr.bad = pr.text + int64(min(i, 0))
	pr.badAt = Pos{Part: pr.name, Line: pr.line, Col: int(pr.bad-pr.from) + 1}
}

// whole reads the rest of the part, for a UTF-16 part.
func (pr *partReader) whole() string {
	f := pr.f
	var b strings.Builder
	// Trust the declared size only so far: beyond, the builder grows as
	// the data comes.
	b.Grow(int(min(f.UncompressedSize64, uint64(pr.limit), 32*min(f.CompressedSize64, 1<<30)+4096)))
	b.Write(pr.head)
	pr.head = nil
	buf := make([]byte, 32<<10)
	for {
		n, err := pr.read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// finish reads the rest of the part, checking it, and closes it. It
// returns the part's first problem: that it does not unpack within the
// limits, then that its text is not UTF-8, then err, what the parser
// found. What a part unpacks to counts against Options.MaxUnpacked each
// time it is read.
func (pr *partReader) finish(err error) error {
	var small [64]byte
	buf := small[:] // enough at the end of the part, the usual case
	for {
		n, rerr := pr.read(buf)
		if pr.bad < 0 {
			pr.check(buf[:n], rerr == io.EOF)
		}
		if rerr != nil {
			break
		}
		if n > 0 && len(buf) == len(small) { // more after the parser stopped
			buf = make([]byte, 32<<10)
		}
	}
	pr.rc.Close()
	if pr.err != nil {
		return pr.err
	}
	k := pr.k
	k.unpack += pr.n
	if pr.bad >= 0 {
		return k.fail(pr.badAt, ErrMalformed, fmt.Sprintf("visio: malformed XML: invalid UTF-8 (byte 0x%02X at byte offset %d of the part)", pr.badB, pr.bom+pr.bad), resave)
	}
	return err
}

// mulSat returns a×b for a, b ≥ 0, or the largest int64 when that
// overflows.
func mulSat(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// zipError reports a part that cannot be unpacked.
func (k *pkg) zipError(name string, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, zip.ErrAlgorithm):
		msg = "it is compressed with a method other than deflate"
	case errors.Is(err, zip.ErrChecksum):
		msg = "its checksum is wrong"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, zip.ErrFormat):
		msg = "it is truncated or damaged (" + msg + ")"
	}
	return k.fail(Pos{Part: name}, ErrZip, fmt.Sprintf("visio: cannot unpack part %s: %s", short(name), msg),
		"the file was not completely written or copied; get the drawing again")
}

// xml opens the part name and moves a parser to its root element, which
// must be local in namespace space; what names the part in messages. The
// caller ends the part's reading with end or stop.
func (k *pkg) xml(name string, at Pos, local, space, what string) (*parser, error) {
	pr, err := k.openPart(name, at)
	if err != nil {
		return nil, err
	}
	p := k.p
	if p == nil {
		p = &parser{doc: k.doc, maxDepth: k.opt.MaxDepth, maxElems: k.opt.MaxElements, own: &owner{seed: maphash.MakeSeed()}}
		k.p = p
	}
	p.part, p.pr, p.fatal = name, pr, nil
	if pr.start() {
		src := pr.whole()
		if pr.err != nil {
			return nil, k.stop(p, nil)
		}
		text, enc, ok := source.DecodeText(src, false)
		if !ok {
			return nil, k.stop(p, k.fail(Pos{Part: name}, ErrMalformed, fmt.Sprintf("visio: malformed XML: the part starts like UTF-16 text but is not (UTF-16 has an even number of bytes; it has %d)", len(src)), resave))
		}
		p.sc = newScanner(text, k.opt.MaxDepth, enc.UTF16())
	} else {
		// The part may not unpack to more than its header says (zip
		// refuses it): a small part's window is its size.
		window := int(min(uint64(partWindow), pr.f.UncompressedSize64+1))
		p.sc = xmlscan.NewReader(pr, 2*k.opt.MaxDepth+32, window)
		p.sc.Editor = "Visio"
	}
	sc := p.sc
	for sc.Next() && sc.Kind() != xmlscan.StartTag {
	}
	if sc.Err() != nil {
		return nil, k.stop(p, p.syntaxError())
	}
	if sc.Local() != local || sc.Space() != space {
		l, c := sc.LineCol(sc.Offset())
		return nil, k.stop(p, k.fail(Pos{Part: name, Line: l, Col: c}, ErrZip,
			fmt.Sprintf("visio: %s %s has root element <%s>%s, not <%s> in namespace %q", what, short(name), short(xmlscan.QName(sc.Prefix(), sc.Local())), inNamespace(sc.Space()), local, space), resave))
	}
	return p, nil
}

// end reads the rest of a part after its root element's children, and
// ends its reading.
func (k *pkg) end(p *parser) error {
	if p.fatal != nil {
		return k.stop(p, p.fatal)
	}
	for p.sc.Next() {
	}
	if p.sc.Err() != nil {
		return k.stop(p, p.syntaxError())
	}
	return k.stop(p, nil)
}

// stop ends the reading of the part p reads, which the parser stops at
// err (nil if it read it all); it returns the part's first problem (see
// partReader.finish).
func (k *pkg) stop(p *parser, err error) error {
	err = p.pr.finish(err)
	p.pr, p.sc = nil, nil
	return err
}

// contentTypes is [Content_Types].xml: the content type of each part, by
// its name or its extension.
type contentTypes struct {
	defaults  map[string]string // by lower-case extension, without the dot
	overrides map[string]string // by lower-case part name, without the leading '/'
}

func (ct *contentTypes) of(name string) string {
	if t, ok := ct.overrides[strings.ToLower(name)]; ok {
		return t
	}
	ext := path.Ext(name)
	return ct.defaults[strings.ToLower(strings.TrimPrefix(ext, "."))]
}

// rel is a relationship of a part.
type rel struct {
	id, typ string
	target  string // the part it leads to, as a name in the archive
	pos     Pos
}

// relsName returns the name of the relationships part of part name ("" for
// the package).
func relsName(name string) string {
	dir, file := path.Split(name)
	return dir + "_rels/" + file + ".rels"
}

// read reads the package: content types, relationships, then the pages
// and masters.
func (k *pkg) read() error {
	notVisio := func(msg string) error {
		return k.fail(Pos{}, ErrNotVisio, "visio: "+msg, "")
	}
	if k.parts["[content_types].xml"] == nil {
		return notVisio("this is a zip archive but not an Office document (it has no [Content_Types].xml), and not a Visio drawing")
	}
	if err := k.contentTypes(); err != nil {
		return err
	}
	if k.parts["_rels/.rels"] == nil {
		return notVisio("this zip archive has no _rels/.rels, the relationships that lead to its document: it is not a Visio drawing")
	}
	rels, err := k.rels("", false)
	if err != nil {
		return err
	}
	docRel, ok := find(rels, relDocument)
	if !ok {
		if o, ok := find(rels, relOfficeDocument); ok {
			return notVisio(fmt.Sprintf("this is %s, not a Visio drawing", officeKind(o.target, k.types.of(o.target))))
		}
		return notVisio("this package has no Visio document part: it is not a Visio drawing")
	}
	name := docRel.target
	if t := k.types.of(name); !strings.HasPrefix(t, "application/vnd.ms-visio.") || !strings.HasSuffix(t, ".main+xml") {
		return k.fail(docRel.pos, ErrNotVisio, fmt.Sprintf("visio: the document part %s has content type %s, not a Visio document's (application/vnd.ms-visio.drawing.main+xml)", short(name), quote(t)), resave)
	}
	p, err := k.xml(name, docRel.pos, "VisioDocument", NamespaceVSDX, "the document part")
	if err != nil {
		return err
	}
	p.sc.Skip()
	if err := k.end(p); err != nil {
		return err
	}
	if core, ok := find(rels, relCore); ok {
		k.title(core)
	}
	if custom, ok := find(rels, relCustom); ok {
		if err := k.customProps(custom); err != nil {
			return err
		}
	}
	drels, err := k.rels(name, true)
	if err != nil {
		return err
	}
	if m, ok := find(drels, relMasters); ok {
		if err := k.masters(m); err != nil {
			return err
		}
	}
	if pg, ok := find(drels, relPages); ok {
		if err := k.pages(pg); err != nil {
			return err
		}
	}
	return nil
}

func find(rels []rel, typ string) (rel, bool) {
	for _, r := range rels {
		if r.typ == typ {
			return r, true
		}
	}
	return rel{}, false
}

// officeKind names the Office document whose main part is name.
func officeKind(name, contentType string) string {
	switch {
	case strings.Contains(contentType, "wordprocessingml"):
		return "a Word document (.docx)"
	case strings.Contains(contentType, "spreadsheetml"):
		return "an Excel workbook (.xlsx)"
	case strings.Contains(contentType, "presentationml"):
		return "a PowerPoint presentation (.pptx)"
	}
	return fmt.Sprintf("an Office document whose main part is %s (content type %s)", short(name), quote(contentType))
}

// contentTypes reads [Content_Types].xml.
func (k *pkg) contentTypes() error {
	p, err := k.xml(k.parts["[content_types].xml"].Name, Pos{}, "Types", nsContentTypes, "the content types part")
	if err != nil {
		return err
	}
	k.types = contentTypes{defaults: map[string]string{}, overrides: map[string]string{}}
	sc := p.sc
	for p.child(1) {
		if sc.Space() != nsContentTypes {
			sc.Skip()
			continue
		}
		if !p.count(1) {
			break
		}
		switch sc.Local() {
		case "Default":
			k.types.defaults[p.own.str(strings.ToLower(sc.Attr("Extension")))] = p.own.str(sc.Attr("ContentType"))
		case "Override":
			k.types.overrides[p.own.str(strings.ToLower(strings.TrimPrefix(sc.Attr("PartName"), "/")))] = p.own.str(sc.Attr("ContentType"))
		}
		sc.Skip()
	}
	return k.end(p)
}

// rels reads the relationships of part source ("" for the package);
// required says whether the relationships part must exist. Targets are
// resolved to names in the archive; external targets are left out.
func (k *pkg) rels(source string, required bool) ([]rel, error) {
	name := relsName(source)
	f := k.parts[strings.ToLower(name)]
	if f == nil {
		if required {
			return nil, k.fail(Pos{}, ErrZip, fmt.Sprintf("visio: the package has no relationships part %s for %s", short(name), short(source)), resave)
		}
		return nil, nil
	}
	p, err := k.xml(f.Name, Pos{}, "Relationships", nsRelationships, "the relationships part")
	if err != nil {
		return nil, err
	}
	var out []rel
	sc := p.sc
	for p.child(1) {
		if sc.Space() != nsRelationships || sc.Local() != "Relationship" {
			sc.Skip()
			continue
		}
		r := rel{id: p.own.str(sc.Attr("Id")), typ: p.own.str(sc.Attr("Type")), pos: p.pos()}
		target, external := sc.Attr("Target"), sc.Attr("TargetMode") == "External"
		sc.Skip()
		if external {
			continue
		}
		t, ok := resolveTarget(source, target)
		if !ok {
			return nil, k.stop(p, k.fail(r.pos, ErrZip, fmt.Sprintf("visio: relationship %s leads to %s, which is not a part of the package", short(r.id), quote(target)), resave))
		}
		if len(out) == k.opt.MaxParts {
			// Each leads to a part, and the archive holds no more.
			return nil, k.stop(p, k.tooManyListed(name, "relationships"))
		}
		if f := k.parts[strings.ToLower(t)]; f != nil {
			t = f.Name
		} else {
			t = p.own.str(t)
		}
		r.target = t
		out = append(out, r)
	}
	return out, k.end(p)
}

// resolveTarget resolves a relationship's target, relative to the folder
// of the part source or absolute, to a part name; ok is false when it
// leads outside the package. Names stay in their URI form, as the
// archive's names, [Content_Types].xml and relationships all write them.
func resolveTarget(source, target string) (string, bool) {
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	if target == "" || strings.ContainsAny(target, "\\\x00") || strings.Contains(target, "://") {
		return "", false
	}
	var name string
	if strings.HasPrefix(target, "/") {
		name = path.Clean(target[1:])
	} else {
		name = path.Join(path.Dir(source), target)
	}
	if name == "." || name == ".." || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") {
		return "", false
	}
	return name, true
}

// byID indexes relationships by their ID: the first of an ID.
func byID(rels []rel) map[string]*rel {
	m := make(map[string]*rel, len(rels))
	for i := range rels {
		if _, dup := m[rels[i].id]; !dup {
			m[rels[i].id] = &rels[i]
		}
	}
	return m
}

// checkType checks that the part a relationship leads to has the content
// type want.
func (k *pkg) checkType(r rel, want, what string) error {
	if got := k.types.of(r.target); got != want {
		return k.fail(r.pos, ErrZip, fmt.Sprintf("visio: %s %s has content type %s in [Content_Types].xml, not %q", what, short(r.target), quote(got), want), resave)
	}
	return nil
}

// listed is a page or master of the pages or masters part, with the
// relationship that leads to its part.
type listed struct {
	rid string
	pos Pos
}

// masters reads the masters part and the master parts it lists.
func (k *pkg) masters(r rel) error {
	if err := k.checkType(r, ctMasters, "the masters part"); err != nil {
		return err
	}
	p, err := k.xml(r.target, r.pos, "Masters", NamespaceVSDX, "the masters part")
	if err != nil {
		return err
	}
	sc := p.sc
	var list []listed
	for p.child(1) {
		if !p.visio() || sc.Local() != "Master" {
			sc.Skip()
			continue
		}
		if len(list) == k.opt.MaxParts {
			return k.stop(p, k.tooManyListed(r.target, "masters"))
		}
		if !p.count(1) {
			break
		}
		m := &Master{ID: p.own.str(sc.Attr("ID")), NameU: p.own.str(sc.Attr("NameU")), Name: p.own.str(sc.Attr("Name")), Pos: p.pos()}
		var l listed
		for p.child(2) {
			if p.visio() && sc.Local() == "Rel" {
				l = listed{sc.AttrNS(nsR, "id"), p.pos()}
			}
			sc.Skip()
		}
		k.doc.Masters = append(k.doc.Masters, m)
		list = append(list, l)
	}
	if err := k.end(p); err != nil {
		return err
	}
	if len(list) == 0 {
		return nil
	}
	rels, err := k.rels(r.target, true)
	if err != nil {
		return err
	}
	ids := byID(rels)
	for i, l := range list {
		m := k.doc.Masters[i]
		if l.rid == "" {
			continue // a master without shapes
		}
		mr := ids[l.rid]
		if mr == nil {
			return k.fail(l.pos, ErrZip, fmt.Sprintf("visio: master %s names relationship %s, which %s does not have", short(m.ID), short(l.rid), short(relsName(r.target))), resave)
		}
		if err := k.checkType(*mr, ctMaster, "master part"); err != nil {
			return err
		}
		p, err := k.xml(mr.target, l.pos, "MasterContents", NamespaceVSDX, "master part")
		if err != nil {
			return err
		}
		for p.child(1) {
			if p.visio() && p.sc.Local() == "Shapes" && m.Shapes == nil {
				m.Shapes = p.shapes(0)
			} else {
				p.sc.Skip()
			}
		}
		if err := k.end(p); err != nil {
			return err
		}
	}
	return nil
}

// pages reads the pages part and the page parts it lists.
func (k *pkg) pages(r rel) error {
	if err := k.checkType(r, ctPages, "the pages part"); err != nil {
		return err
	}
	var ps *pageStream
	if k.in != nil {
		// The masters are read: the pages' shapes are resolved as they
		// are read, as Resolve would after.
		ps = &pageStream{in: k.in, masters: k.doc.masterIndex()}
		k.doc.resolved = true
	}
	p, err := k.xml(r.target, r.pos, "Pages", NamespaceVSDX, "the pages part")
	if err != nil {
		return err
	}
	sc := p.sc
	var list []listed
	for p.child(1) {
		if !p.visio() || sc.Local() != "Page" {
			sc.Skip()
			continue
		}
		if len(list) == k.opt.MaxParts {
			return k.stop(p, k.tooManyListed(r.target, "pages"))
		}
		if !p.count(1) {
			break
		}
		bg := sc.Attr("Background")
		pg := &Page{
			ID: p.own.str(sc.Attr("ID")), NameU: p.own.str(sc.Attr("NameU")), Name: p.own.str(sc.Attr("Name")),
			Background: bg == "1" || strings.EqualFold(bg, "true"), BackPage: p.own.str(sc.Attr("BackPage")),
			Pos: p.pos(),
		}
		var l listed
		for p.child(2) {
			switch {
			case !p.visio():
				sc.Skip()
			case sc.Local() == "Rel":
				l = listed{sc.AttrNS(nsR, "id"), p.pos()}
				sc.Skip()
			case sc.Local() == "PageSheet":
				p.pageSheetVSDX(pg, 3)
			default:
				sc.Skip()
			}
		}
		k.doc.Pages = append(k.doc.Pages, pg)
		list = append(list, l)
	}
	if err := k.end(p); err != nil {
		return err
	}
	if len(list) == 0 {
		return nil
	}
	rels, err := k.rels(r.target, true)
	if err != nil {
		return err
	}
	ids := byID(rels)
	for i, l := range list {
		pg := k.doc.Pages[i]
		if l.rid == "" {
			return k.fail(pg.Pos, ErrZip, fmt.Sprintf("visio: page %s has no <Rel> naming its part", quote(pg.Label())), resave)
		}
		pr := ids[l.rid]
		if pr == nil {
			return k.fail(l.pos, ErrZip, fmt.Sprintf("visio: page %s names relationship %s, which %s does not have", quote(pg.Label()), short(l.rid), short(relsName(r.target))), resave)
		}
		if err := k.checkType(*pr, ctPage, "page part"); err != nil {
			return err
		}
		p, err := k.xml(pr.target, l.pos, "PageContents", NamespaceVSDX, "page part")
		if err != nil {
			return err
		}
		p.startPage(ps, pg)
		for p.child(1) {
			switch {
			case !p.visio():
				p.sc.Skip()
			case p.sc.Local() == "Shapes" && pg.Shapes == nil && (ps == nil || !ps.read):
				pg.Shapes = p.shapes(0)
			case p.sc.Local() == "Connects":
				p.connects(pg, 2)
			default:
				p.sc.Skip()
			}
		}
		p.finishPage()
		if err := k.end(p); err != nil {
			return err
		}
	}
	return nil
}

// pageSheetVSDX reads a page's <PageSheet> at depth d: the page's size
// and its Shape Data rows.
func (p *parser) pageSheetVSDX(pg *Page, d int) {
	sc := p.sc
	rows := len(p.propStack)
	for p.child(d) {
		switch {
		case !p.visio():
			sc.Skip()
		case sc.Local() == "Cell":
			switch sc.Attr("N") {
			case "PageWidth":
				pg.Width = number(sc.Attr("V"))
			case "PageHeight":
				pg.Height = number(sc.Attr("V"))
			}
			sc.Skip()
		case sc.Local() == "Section" && sc.Attr("N") == "Property":
			p.propSection(d + 1)
		default:
			sc.Skip()
		}
	}
	pg.Props = append(pg.Props, p.propStack[rows:]...)
	p.propStack = p.propStack[:rows]
}

// title reads the document's title from the core properties part; a
// problem there is a warning.
func (k *pkg) title(r rel) {
	if k.parts[strings.ToLower(r.target)] == nil {
		return
	}
	p, err := k.xml(r.target, r.pos, "coreProperties", nsCore, "the core properties part")
	if err == nil {
		for p.child(1) {
			if p.sc.Space() == nsDC && p.sc.Local() == "title" {
				k.doc.Title = p.own.str(strings.TrimSpace(p.sc.Text()))
			} else {
				p.sc.Skip()
			}
		}
		err = k.end(p)
	}
	var l diag.List
	if errors.As(err, &l) && len(l) == 1 {
		k.doc.Title = ""
		d := l[0]
		d.Severity = diag.Warning
		d.Message += "; the document's title is left out"
		k.doc.Diagnostics = append(k.doc.Diagnostics, d)
	}
}

// customProps reads the document's custom properties from
// docProps/custom.xml: each <property name='...'> and the text of the
// value element it holds (<vt:lpwstr>, <vt:bool>, <vt:i4>...). A missing
// part is a warning, and the properties are left out; a damaged one
// stops the reading, as any part does.
func (k *pkg) customProps(r rel) error {
	if k.parts[strings.ToLower(r.target)] == nil {
		k.doc.rep.add(&k.doc.Diagnostics, diag.Diagnostic{
			Pos: chartPos(k.doc.File, r.pos, nil, nil, ""), Severity: diag.Warning,
			Message: fmt.Sprintf("visio: the package has no part %s, where its relationships say the document's custom properties are; they are left out", short(r.target)),
			Hint:    resave,
		}, "no custom part")
		return nil
	}
	p, err := k.xml(r.target, r.pos, "Properties", nsCustom, "the custom properties part")
	if err != nil {
		return err
	}
	sc := p.sc
	for p.element(1, nsCustom, "property") {
		cp := CustomProp{Name: p.own.str(sc.Attr("name")), Pos: p.pos()}
		for p.child(2) {
			cp.Value = p.own.str(sc.Text()) // the value element: one per property
		}
		k.doc.CustomProps = append(k.doc.CustomProps, cp)
	}
	return k.end(p)
}

// shapeVSDX reads a <Shape> of a .vsdx part: its cells, its Shape Data
// section, its text and its members.
func (p *parser) shapeVSDX(group int) *Shape {
	sc, own := p.sc, p.own
	s := p.newShape()
	*s = Shape{
		ID: own.str(sc.Attr("ID")), NameU: own.str(sc.Attr("NameU")), Name: own.str(sc.Attr("Name")), Type: own.str(sc.Attr("Type")),
		MasterID: own.str(sc.Attr("Master")), MasterShapeID: own.str(sc.Attr("MasterShape")),
		Pos: p.pos(),
	}
	rows := len(p.propStack)
	d := sc.Depth()
	for p.child(d) {
		if !p.visio() {
			sc.Skip()
			continue
		}
		switch sc.Local() {
		case "Cell":
			switch n := sc.Attr("N"); n {
			case "Relationships":
				f := sc.Attr("F")
				s.Members, s.Containers = own.strs(dependsOn(f, "1")), own.strs(dependsOn(f, "4"))
				p.count(len(s.Members) + len(s.Containers))
			case "BeginX", "BeginY", "EndX", "EndY":
				s.OneD = true
				s.XForm.setCell(n, sc.Attr("V"))
			default:
				s.XForm.setCell(n, sc.Attr("V"))
			}
			sc.Skip()
		case "Section":
			if sc.Attr("N") == "Property" {
				p.propSection(d + 1)
			} else {
				sc.Skip()
			}
		case "Text":
			s.Text, s.HasText = own.str(normText(sc.Text())), true
		case "Shapes":
			s.Shapes = p.shapes(group + 1)
		default:
			sc.Skip()
		}
	}
	if s.OneD {
		p.oneD++
	}
	s.Props = p.keepProps(p.propStack[rows:])
	p.propStack = p.propStack[:rows]
	return s
}

// propSection reads the rows of a Property section at depth d onto the
// stack of rows.
func (p *parser) propSection(d int) {
	sc := p.sc
	for p.element(d, p.doc.Namespace, "Row") {
		pr := Prop{Name: p.own.str(sc.Attr("LocalName")), Deleted: sc.Attr("Del") == "1", Pos: p.pos()}
		pr.Row = p.own.str(rowName(sc.Attr("N"), pr.Name, sc.Attr("IX")))
		for p.child(d + 1) {
			if p.visio() && sc.Local() == "Cell" {
				if cell, ok := propCells[sc.Attr("N")]; ok {
					pr.setCell(cell, p.own.str(sc.Attr("V")), sc.Attr("F") == "Inh")
				}
			}
			sc.Skip()
		}
		p.propStack = append(p.propStack, pr)
	}
}

// owner copies the strings a package's parser keeps out of the parts'
// text, of which the parser holds a window at a time (a string of the
// window kept in the Document would keep the window in memory): into
// blocks of up to 32 KiB, sharing one copy among the recent occurrences of
// a short string (cells, row names and master IDs repeat). A nil owner,
// the .vdx parser's, keeps strings as they are. The zero value is not
// ready to use: it needs a seed.
type owner struct {
	seed   maphash.Seed
	recent [256]string // by their hash
	block  strings.Builder
}

// The size of an owner's first block and of its largest, and the longest
// string it shares.
const (
	ownFirst = 1 << 10
	ownBlock = 32 << 10
	ownShort = 64
)

// str returns a copy of s, or s itself for a nil owner.
func (o *owner) str(s string) string {
	if o == nil || s == "" {
		return s
	}
	if len(s) > ownShort {
		return strings.Clone(s)
	}
	h := maphash.String(o.seed, s) % uint64(len(o.recent))
	if r := o.recent[h]; r == s {
		return r
	}
	if o.block.Cap()-o.block.Len() < len(s) {
		size := min(max(ownFirst, 2*o.block.Cap()), ownBlock)
		o.block = strings.Builder{}
		o.block.Grow(size)
	}
	n := o.block.Len()
	o.block.WriteString(s)
	c := o.block.String()[n:] // the bytes a builder wrote never change
	o.recent[h] = c
	return c
}

// strs copies the strings of ss in place, and returns ss.
func (o *owner) strs(ss []string) []string {
	for i := range ss {
		ss[i] = o.str(ss[i])
	}
	return ss
}
