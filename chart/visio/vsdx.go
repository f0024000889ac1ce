package visio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
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
)

// Namespaces of the packaging parts.
const (
	nsContentTypes  = "http://schemas.openxmlformats.org/package/2006/content-types"
	nsRelationships = "http://schemas.openxmlformats.org/package/2006/relationships"
	nsR             = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsCore          = "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
	nsDC            = "http://purl.org/dc/elements/1.1/"
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

// DecodeVSDX reads a Visio package (a .vsdx drawing of Visio 2013 and
// later, or a .vssx stencil, .vstx template, or their macro-enabled kinds)
// of size bytes from r into a [Document], without interpreting it. A
// stencil or a template gives a Document with masters and no pages.
//
// It reads the parts the relationships lead to, and no other: the content
// types, the package's and the document's relationships, the pages and
// masters parts and each page and master they list, and the document's
// title from docProps/core.xml. It keeps them in memory, uncompressed,
// while the Document lives. Only Options.File and the limits are used:
// MaxSize bounds size; MaxParts the files the archive holds; MaxPartSize
// each part read, uncompressed; MaxUnpacked all of them together; MaxRatio
// the compression ratio of each part over 1 MiB; MaxDepth how deeply groups
// nest. Names in the archive are only looked up, never used as paths.
//
// The error, when not nil, is a [chart.Diagnostics] holding one error with
// its position ("drawing.vsdx!visio/pages/page1.xml:3:5" for a problem in
// a part), which wraps [ErrTooLarge] (a limit is exceeded), [ErrUnsafe] (a
// zip bomb or a name that leads outside the archive), [ErrZip] (a damaged
// archive, or a package missing a part, a relationship or a content type
// it needs), [ErrNotVisio] (a zip that is not a Visio package, such as a
// .docx), [ErrMalformed] or [ErrTooDeep]; the Document is then nil.
func DecodeVSDX(r io.ReaderAt, size int64, opt Options) (*Document, error) {
	opt = opt.withDefaults()
	k := &pkg{opt: opt, doc: &Document{File: opt.File, Namespace: NamespaceVSDX}}
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
	unpack int64               // bytes of the parts read so far, uncompressed
	texts  map[string]partText // the parts read, by name: each is unpacked once
	p      *parser             // shared by the parts, for its blocks of shapes and rows
}

// partText is a part as read.
type partText struct {
	text     string
	wasUTF16 bool
}

// fail returns a one-error Diagnostics at pos, in a part or the file.
func (k *pkg) fail(pos Pos, err error, msg, hint string) error {
	file := k.doc.File
	if pos.Part != "" {
		file += "!" + pos.Part
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
			return k.fail(Pos{}, ErrUnsafe, fmt.Sprintf("visio: the zip archive holds a file named %q, a path that leads outside the archive; refused", f.Name),
				"a Visio drawing never holds such a name: the file was made to attack the programs that unzip it")
		}
		if strings.HasSuffix(f.Name, "/") {
			continue // a folder
		}
		key := strings.ToLower(f.Name)
		if _, dup := k.parts[key]; dup {
			return k.fail(Pos{}, ErrZip, fmt.Sprintf("visio: the zip archive holds two files named %q", f.Name), resave)
		}
		k.parts[key] = f
	}
	return nil
}

func (k *pkg) tooManyParts(n uint64) error {
	return k.fail(Pos{}, ErrTooLarge, fmt.Sprintf("visio: the zip archive holds %d files, more than %d", n, k.opt.MaxParts),
		"raise Options.MaxParts if the drawing really has this many pages and masters")
}

// tooManyListed reports a pages or masters part that lists more pages or
// masters than the archive may hold parts: each needs its own.
func (k *pkg) tooManyListed(part, what string) error {
	return k.fail(Pos{Part: part}, ErrTooLarge, fmt.Sprintf("visio: %s lists more than %d %s", part, k.opt.MaxParts, what),
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

// part reads the part name (as found in the archive: the caller looked it
// up) in full, within the limits, as UTF-8 text without a byte-order mark;
// wasUTF16 says it was converted from UTF-16.
func (k *pkg) part(name string, at Pos) (text string, wasUTF16 bool, err error) {
	f := k.parts[strings.ToLower(name)]
	if f == nil {
		return "", false, k.fail(at, ErrZip, fmt.Sprintf("visio: the package has no part %s", name), resave)
	}
	if t, ok := k.texts[f.Name]; ok {
		return t.text, t.wasUTF16, nil
	}
	defer func() {
		if err == nil {
			if k.texts == nil {
				k.texts = make(map[string]partText)
			}
			k.texts[f.Name] = partText{text, wasUTF16}
		}
	}()
	o := k.opt
	here := Pos{Part: name}
	tooLarge := func(size string) error {
		return k.fail(here, ErrTooLarge, fmt.Sprintf("visio: part %s is %s uncompressed, more than %s", name, size, source.SizeString(o.MaxPartSize)),
			"raise Options.MaxPartSize if the drawing really is this large")
	}
	tooMuch := func() error {
		return k.fail(here, ErrTooLarge, fmt.Sprintf("visio: the parts read come to more than %s uncompressed", source.SizeString(o.MaxUnpacked)),
			"raise Options.MaxUnpacked if the drawing really is this large")
	}
	bomb := func(size uint64) error {
		return k.fail(here, ErrUnsafe, fmt.Sprintf("visio: part %s would unpack from %d bytes to %d or more, a compression ratio over %d: a zip bomb; refused", name, f.CompressedSize64, size, o.MaxRatio),
			"a Visio drawing does not compress that well; raise Options.MaxRatio if this one really does")
	}
	declared := f.UncompressedSize64
	switch {
	case declared > uint64(o.MaxPartSize):
		return "", false, tooLarge(strconv.FormatUint(declared, 10) + " bytes")
	case declared > uint64(o.MaxUnpacked-k.unpack):
		return "", false, tooMuch()
	case declared > ratioFloor && declared/uint64(o.MaxRatio) > f.CompressedSize64:
		return "", false, bomb(declared)
	}
	// Read no more than the limits allow, whatever the header says.
	limit := min(o.MaxPartSize, o.MaxUnpacked-k.unpack)
	if f.Method != zip.Store {
		limit = min(limit, max(ratioFloor, mulSat(int64(min(f.CompressedSize64, 1<<62)), int64(o.MaxRatio))))
	}
	rc, err := f.Open()
	if err != nil {
		return "", false, k.zipError(name, err)
	}
	defer rc.Close()
	var b strings.Builder
	// Trust the declared size only so far: beyond, the builder grows as
	// the data comes.
	b.Grow(int(min(declared, uint64(limit), 32*min(f.CompressedSize64, 1<<30)+4096)))
	n, err := io.Copy(&b, io.LimitReader(rc, limit+1))
	switch {
	case n > limit && n > o.MaxPartSize:
		return "", false, tooLarge("over " + source.SizeString(o.MaxPartSize))
	case n > limit && n > o.MaxUnpacked-k.unpack:
		return "", false, tooMuch()
	case n > limit:
		return "", false, bomb(uint64(n))
	case err != nil:
		return "", false, k.zipError(name, err)
	}
	k.unpack += n
	return k.text(b.String(), name)
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
	return k.fail(Pos{Part: name}, ErrZip, fmt.Sprintf("visio: cannot unpack part %s: %s", name, msg),
		"the file was not completely written or copied; get the drawing again")
}

// text checks the encoding of a part: UTF-8, with or without a byte-order
// mark, or UTF-16 with one.
func (k *pkg) text(src, name string) (string, bool, error) {
	src, enc, ok := source.DecodeText(src, false)
	if !ok {
		return "", false, k.fail(Pos{Part: name}, ErrMalformed, "visio: malformed XML: the part starts like UTF-16 text but is not", resave)
	}
	if off := source.InvalidUTF8(src); off >= 0 {
		l, c := source.LineCol(src, off)
		return "", false, k.fail(Pos{Part: name, Line: l, Col: c}, ErrMalformed, "visio: malformed XML: invalid UTF-8", resave)
	}
	return src, enc.UTF16(), nil
}

// xml reads the part name and moves a parser to its root element, which
// must be local in namespace space; what names the part in messages.
func (k *pkg) xml(name string, at Pos, local, space, what string) (*parser, error) {
	src, wasUTF16, err := k.part(name, at)
	if err != nil {
		return nil, err
	}
	p := k.p
	if p == nil {
		p = &parser{doc: k.doc, maxDepth: k.opt.MaxDepth}
		k.p = p
	}
	p.sc = newScanner(src, k.opt.MaxDepth, wasUTF16)
	p.lines = source.NewLines(src)
	p.part = name
	sc := p.sc
	for sc.Next() && sc.Kind() != xmlscan.StartTag {
	}
	if sc.Err() != nil {
		return nil, p.syntaxError()
	}
	if sc.Local() != local || sc.Space() != space {
		l, c := p.lines.Pos(sc.Offset())
		return nil, k.fail(Pos{Part: name, Line: l, Col: c}, ErrZip,
			fmt.Sprintf("visio: %s %s has root element <%s>%s, not <%s> in namespace %q", what, name, xmlscan.QName(sc.Prefix(), sc.Local()), inNamespace(sc.Space()), local, space), resave)
	}
	return p, nil
}

// end reads the rest of a part after its root element's children.
func (k *pkg) end(p *parser) error {
	if p.fatal != nil {
		return p.fatal
	}
	for p.sc.Next() {
	}
	if p.sc.Err() != nil {
		return p.syntaxError()
	}
	return nil
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
		return k.fail(docRel.pos, ErrNotVisio, fmt.Sprintf("visio: the document part %s has content type %q, not a Visio document's (application/vnd.ms-visio.drawing.main+xml)", name, t), resave)
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
	return fmt.Sprintf("an Office document whose main part is %s (content type %q)", name, contentType)
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
		switch sc.Local() {
		case "Default":
			k.types.defaults[strings.ToLower(sc.Attr("Extension"))] = sc.Attr("ContentType")
		case "Override":
			k.types.overrides[strings.ToLower(strings.TrimPrefix(sc.Attr("PartName"), "/"))] = sc.Attr("ContentType")
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
			return nil, k.fail(Pos{}, ErrZip, fmt.Sprintf("visio: the package has no relationships part %s for %s", name, source), resave)
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
		r := rel{id: sc.Attr("Id"), typ: sc.Attr("Type"), pos: p.pos()}
		target, external := sc.Attr("Target"), sc.Attr("TargetMode") == "External"
		sc.Skip()
		if external {
			continue
		}
		t, ok := resolveTarget(source, target)
		if !ok {
			return nil, k.fail(r.pos, ErrZip, fmt.Sprintf("visio: relationship %s leads to %q, which is not a part of the package", r.id, target), resave)
		}
		if f := k.parts[strings.ToLower(t)]; f != nil {
			t = f.Name
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

// byID finds a relationship by its ID.
func byID(rels []rel, id string) (rel, bool) {
	for _, r := range rels {
		if r.id == id {
			return r, true
		}
	}
	return rel{}, false
}

// checkType checks that the part a relationship leads to has the content
// type want.
func (k *pkg) checkType(r rel, want, what string) error {
	if got := k.types.of(r.target); got != want {
		return k.fail(r.pos, ErrZip, fmt.Sprintf("visio: %s %s has content type %q in [Content_Types].xml, not %q", what, r.target, got, want), resave)
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
			return k.tooManyListed(r.target, "masters")
		}
		m := &Master{ID: sc.Attr("ID"), NameU: sc.Attr("NameU"), Name: sc.Attr("Name"), Pos: p.pos()}
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
	for i, l := range list {
		m := k.doc.Masters[i]
		if l.rid == "" {
			continue // a master without shapes
		}
		mr, ok := byID(rels, l.rid)
		if !ok {
			return k.fail(l.pos, ErrZip, fmt.Sprintf("visio: master %s names relationship %s, which %s does not have", m.ID, l.rid, relsName(r.target)), resave)
		}
		if err := k.checkType(mr, ctMaster, "master part"); err != nil {
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
			return k.tooManyListed(r.target, "pages")
		}
		bg := sc.Attr("Background")
		pg := &Page{
			ID: sc.Attr("ID"), NameU: sc.Attr("NameU"), Name: sc.Attr("Name"),
			Background: bg == "1" || strings.EqualFold(bg, "true"), BackPage: sc.Attr("BackPage"),
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
				for p.child(3) {
					if p.visio() && sc.Local() == "Cell" {
						switch sc.Attr("N") {
						case "PageWidth":
							pg.Width = number(sc.Attr("V"))
						case "PageHeight":
							pg.Height = number(sc.Attr("V"))
						}
					}
					sc.Skip()
				}
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
	for i, l := range list {
		pg := k.doc.Pages[i]
		if l.rid == "" {
			return k.fail(pg.Pos, ErrZip, fmt.Sprintf("visio: page %q has no <Rel> naming its part", pg.Label()), resave)
		}
		pr, ok := byID(rels, l.rid)
		if !ok {
			return k.fail(l.pos, ErrZip, fmt.Sprintf("visio: page %q names relationship %s, which %s does not have", pg.Label(), l.rid, relsName(r.target)), resave)
		}
		if err := k.checkType(pr, ctPage, "page part"); err != nil {
			return err
		}
		p, err := k.xml(pr.target, l.pos, "PageContents", NamespaceVSDX, "page part")
		if err != nil {
			return err
		}
		for p.child(1) {
			switch {
			case !p.visio():
				p.sc.Skip()
			case p.sc.Local() == "Shapes" && pg.Shapes == nil:
				pg.Shapes = p.shapes(0)
			case p.sc.Local() == "Connects":
				p.connects(pg, 2)
			default:
				p.sc.Skip()
			}
		}
		if err := k.end(p); err != nil {
			return err
		}
	}
	return nil
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
				k.doc.Title = strings.TrimSpace(p.sc.Text())
			} else {
				p.sc.Skip()
			}
		}
		err = k.end(p)
	}
	var l chart.Diagnostics
	if errors.As(err, &l) && len(l) == 1 {
		k.doc.Title = ""
		d := l[0]
		d.Severity = chart.Warning
		d.Message += "; the document's title is left out"
		k.doc.Diagnostics = append(k.doc.Diagnostics, d)
	}
}

// shapeVSDX reads a <Shape> of a .vsdx part: its cells, its Shape Data
// section, its text and its members.
func (p *parser) shapeVSDX(group int) *Shape {
	sc := p.sc
	s := p.shapeBlock.New()
	*s = Shape{
		ID: sc.Attr("ID"), NameU: sc.Attr("NameU"), Name: sc.Attr("Name"), Type: sc.Attr("Type"),
		MasterID: sc.Attr("Master"), MasterShapeID: sc.Attr("MasterShape"),
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
				s.Members, s.Containers = dependsOn(f, "1"), dependsOn(f, "4")
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
			s.Text, s.HasText = normText(sc.Text()), true
		case "Shapes":
			s.Shapes = p.shapes(group + 1)
		default:
			sc.Skip()
		}
	}
	s.Props = p.propBlock.Keep(p.propStack[rows:])
	p.propStack = p.propStack[:rows]
	return s
}

// propSection reads the rows of a Property section at depth d onto the
// stack of rows.
func (p *parser) propSection(d int) {
	sc := p.sc
	for p.child(d) {
		if !p.visio() || sc.Local() != "Row" {
			sc.Skip()
			continue
		}
		pr := Prop{Name: sc.Attr("LocalName"), Deleted: sc.Attr("Del") == "1", Pos: p.pos()}
		pr.Row = rowName(sc.Attr("N"), pr.Name, sc.Attr("IX"))
		for p.child(d + 1) {
			if p.visio() && sc.Local() == "Cell" {
				if cell, ok := propCells[sc.Attr("N")]; ok {
					pr.setCell(cell, sc.Attr("V"), sc.Attr("F") == "Inh")
				}
			}
			sc.Skip()
		}
		p.propStack = append(p.propStack, pr)
	}
}
