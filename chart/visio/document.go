package visio

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
)

// Document is a Visio drawing as a file holds it, whatever the file's
// format: its masters, its pages, their shapes and the glue between them.
// [DecodeVDX] fills one from a Visio XML drawing (.vdx), [DecodeVSDX] from a
// Visio package (.vsdx, .vssx); [Interpret] reads a chart from either.
//
// Each shape holds what the file says of it; [Document.Resolve] links it
// to its master, from which it inherits. The strings of a Document decoded
// from a .vdx share memory with the file's text, which stays in memory
// while the Document does; those of a package's are copies: its parts'
// text does not.
type Document struct {
	// File names the drawing in positions, as given in Options.File.
	File string
	// Title is the document's title (DocumentProperties), often empty.
	Title string
	// Namespace is the XML namespace of the file (NamespaceVDX2003 or
	// NamespaceVDX2002), or of the XML parts of a package
	// (NamespaceVSDX).
	Namespace string

	Masters []*Master // the document stencil, in file order
	Pages   []*Page   // in file order, background pages included

	// CustomProps lists the document's custom properties (in Visio, File
	// > Info > Properties > Advanced > Custom): a .vdx's
	// <DocumentProperties><CustomProps>, a package's docProps/custom.xml.
	CustomProps []CustomProp

	// Diagnostics lists what the parser and Resolve ignored or found odd:
	// of each kind, the first 100, then how many more there are.
	Diagnostics diag.List

	resolved bool
	rep      repeats                       // caps Diagnostics of each kind
	shapeIDs map[*Master]map[string]*Shape // see masterShape
}

// Master is a master of the drawing's document stencil: the model its
// instances inherit from.
type Master struct {
	ID    string // what shapes name in their Master attribute
	NameU string // universal name: what a stencil matches
	Name  string // local name, as Visio shows it
	// Shapes holds the master's shapes: one top-level shape (which may be a
	// group), the one its instances inherit from.
	Shapes []*Shape
	Pos    Pos // of the <Master> element
}

// Label returns the master's universal name, or its local name when it has
// none, or "master " + ID.
func (m *Master) Label() string {
	switch {
	case m.NameU != "":
		return m.NameU
	case m.Name != "":
		return m.Name
	}
	return "master " + m.ID
}

// Page is a page of the drawing.
type Page struct {
	ID    string // unique among the pages
	NameU string // universal name: "Page-1"
	Name  string // local name, as the designer sees it
	// Background marks a background page, shown behind the pages whose
	// BackPage names it: decoration, not part of a chart.
	Background bool
	BackPage   string    // ID of the page's background page, if any
	Shapes     []*Shape  // top-level shapes, in file order; groups hold their members
	Connects   []Connect // the glue of the page's connectors, in file order
	// Width and Height are the page's size in inches (its page sheet's
	// PageWidth and PageHeight), or 0 when the file does not say.
	Width, Height float64
	// Props lists the Shape Data rows of the page itself: its page
	// sheet's Property section (the page's ShapeSheet).
	Props []Prop
	Pos   Pos // of the <Page> element
}

// CustomProp is a custom property of the document: its name and its value
// as the file writes it ("1", "true", "42").
type CustomProp struct {
	Name, Value string
	Pos         Pos // of its element
}

// Label returns the page's local name, as the designer sees it, or its
// universal name, or "page " + ID.
func (p *Page) Label() string {
	switch {
	case p.Name != "":
		return p.Name
	case p.NameU != "":
		return p.NameU
	}
	return "page " + p.ID
}

// Shape is a shape of a page or a master. IDs are unique within a page
// (across groups) or a master.
type Shape struct {
	ID    string // unique within its page or master
	NameU string // universal name: "State.12"
	Name  string // local name
	// Type is Visio's shape type: "Shape", "Group", "Guide", "Foreign".
	Type string

	// MasterID is the ID of the master this shape is an instance of; empty
	// for a shape drawn without a master and for the members of an
	// instance of a group master, which instead name the master's shape
	// they come from in MasterShapeID.
	MasterID      string
	MasterShapeID string // for a member of an instance: the master's shape it is

	// Text is the shape's text (fields included, formatting marks left
	// out); HasText says whether the shape has a text at all. Resolve gives
	// a shape without a text its master's.
	Text    string
	HasText bool // the shape (or, after Resolve, its master) has a <Text>

	// OneD marks a 1-D shape (a connector or a line, with begin and end
	// points) as opposed to a 2-D box. Resolve sets it on the instances of
	// a 1-D master.
	OneD bool

	// Props lists the custom properties (Visio's Shape Data) the file gives
	// the shape itself. An instance of a master inherits its master's too,
	// cell by cell: read them with [Shape.Prop] and [Shape.EffectiveProps].
	Props []Prop

	// Shapes holds the members of a group.
	Shapes []*Shape

	// XForm is where the shape is drawn. Resolve fills in the cells the
	// shape does not give from its Base.
	XForm XForm

	// Members and Containers come from the shape's Relationships cell
	// (Visio 2010 and later): for a container, the IDs of the shapes it
	// holds (DEPENDSON(1, ...)); for a shape, the IDs of the containers
	// that hold it (DEPENDSON(4, ...)). Both are nil for most shapes.
	Members, Containers []string

	Pos Pos // of the <Shape> element

	// Master and Base are set by Resolve: the master the shape is an
	// instance of (for members of an instance, the instance's master), and
	// the master's shape it inherits from (nil if none).
	Master *Master
	Base   *Shape // a shape of Master.Shapes, or nil
}

// Label returns the shape's universal name, or its local name, or
// "Sheet." + ID, as Visio names shapes.
func (s *Shape) Label() string {
	switch {
	case s.NameU != "":
		return s.NameU
	case s.Name != "":
		return s.Name
	}
	return "Sheet." + s.ID
}

// Prop returns the shape's custom property named name (row name, then
// local name), as inherited: the shape's own row with the cells it does not
// set taken from its Base's row. It returns false when neither has such a
// row, or the shape deletes it.
func (s *Shape) Prop(name string) (Prop, bool) {
	own, ok := findRow(s.Props, name)
	if s.Base == nil {
		if ok && !own.Deleted {
			return *own, true
		}
		return Prop{}, false
	}
	base, baseOK := s.Base.Prop(name)
	switch {
	case ok && own.Deleted:
		return Prop{}, false
	case ok && baseOK && base.Row == own.Row:
		return inherit(base, *own), true
	case ok:
		return *own, true
	}
	base.Set = 0
	return base, baseOK
}

// findRow finds the row named name: by row name, then local name.
func findRow(rows []Prop, name string) (*Prop, bool) {
	for i := range rows {
		if rows[i].Row == name {
			return &rows[i], true
		}
	}
	for i := range rows {
		if rows[i].Name == name {
			return &rows[i], true
		}
	}
	return nil, false
}

// EffectiveProps returns the shape's custom properties as inherited: the
// rows of its Base (see [Shape.Prop]) in their order, each overridden cell
// by cell by the shape's own row of the same name, then the rows only the
// shape has; rows the shape deletes are left out. It returns a new slice.
func (s *Shape) EffectiveProps() []Prop {
	var base []Prop
	if s.Base != nil {
		base = s.Base.EffectiveProps()
	}
	out := make([]Prop, 0, len(base)+len(s.Props))
	for _, b := range base {
		if o, ok := findRow(s.Props, b.Row); ok && o.Row == b.Row {
			if !o.Deleted {
				out = append(out, inherit(b, *o))
			}
			continue
		}
		b.Set = 0
		out = append(out, b)
	}
	for _, o := range s.Props {
		if !o.Deleted && !slices.ContainsFunc(base, func(b Prop) bool { return b.Row == o.Row }) {
			out = append(out, o)
		}
	}
	return out
}

// inherit returns the row own with the cells it does not set taken from
// base.
func inherit(base, own Prop) Prop {
	m := base
	m.Set, m.Pos = own.Set, own.Pos
	if own.Name != "" {
		m.Name = own.Name
	}
	if own.Set&CellLabel != 0 {
		m.Label = own.Label
	}
	if own.Set&CellValue != 0 {
		m.Value = own.Value
	}
	if own.Set&CellFormat != 0 {
		m.Format = own.Format
	}
	if own.Set&CellPrompt != 0 {
		m.Prompt = own.Prompt
	}
	if own.Set&CellType != 0 {
		m.Type = own.Type
	}
	return m
}

// XForm holds the cells that place a shape, in inches: its pin (PinX,
// PinY), the point it turns about, in the coordinates of its page or, for
// a member of a group, of its group (from the group's bottom-left corner, Y
// upwards); its size; the pin's place in the shape (LocPinX, LocPinY, from
// the shape's bottom-left corner); its angle in radians; and for a 1-D
// shape its begin and end points. Set says which cells are known.
type XForm struct {
	PinX, PinY, Width, Height, LocPinX, LocPinY, Angle float64
	BeginX, BeginY, EndX, EndY                         float64
	Set                                                XFormCells
}

// XFormCells is a set of the cells of an XForm.
type XFormCells uint16

// The cells of an XForm.
const (
	XPinX XFormCells = 1 << iota
	XPinY
	XWidth
	XHeight
	XLocPinX
	XLocPinY
	XAngle
	XBeginX
	XBeginY
	XEndX
	XEndY
)

// xformCells maps the names of the cells of an XForm to their bits.
var xformCells = map[string]XFormCells{
	"PinX": XPinX, "PinY": XPinY, "Width": XWidth, "Height": XHeight, "LocPinX": XLocPinX, "LocPinY": XLocPinY,
	"Angle": XAngle, "BeginX": XBeginX, "BeginY": XBeginY, "EndX": XEndX, "EndY": XEndY,
}

// cell returns a pointer to the cell c (a single bit) of x.
func (x *XForm) cell(c XFormCells) *float64 {
	switch c {
	case XPinX:
		return &x.PinX
	case XPinY:
		return &x.PinY
	case XWidth:
		return &x.Width
	case XHeight:
		return &x.Height
	case XLocPinX:
		return &x.LocPinX
	case XLocPinY:
		return &x.LocPinY
	case XAngle:
		return &x.Angle
	case XBeginX:
		return &x.BeginX
	case XBeginY:
		return &x.BeginY
	case XEndX:
		return &x.EndX
	case XEndY:
		return &x.EndY
	}
	return nil
}

// setCell sets the cell named name to the number v; it ignores other
// cells and values that are not numbers.
func (x *XForm) setCell(name, v string) {
	c, ok := xformCells[name]
	if !ok {
		return
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	*x.cell(c) = f
	x.Set |= c
}

// inherit fills in the cells of x it does not know from base.
func (x *XForm) inherit(base *XForm) {
	for c := XPinX; c <= XEndY; c <<= 1 {
		if x.Set&c == 0 && base.Set&c != 0 {
			*x.cell(c) = *base.cell(c)
			x.Set |= c
		}
	}
}

// origin returns where the shape's bottom-left corner is in the
// coordinates of its parent, and whether the cells say.
func (x *XForm) origin() (float64, float64, bool) {
	if x.Set&(XPinX|XPinY|XWidth|XHeight) != XPinX|XPinY|XWidth|XHeight {
		return 0, 0, false
	}
	lx, ly := x.Width/2, x.Height/2
	if x.Set&XLocPinX != 0 {
		lx = x.LocPinX
	}
	if x.Set&XLocPinY != 0 {
		ly = x.LocPinY
	}
	return x.PinX - lx, x.PinY - ly, true
}

// Prop is a custom property of a shape: a row of its Shape Data (Visio
// 2003's Custom Properties) section.
type Prop struct {
	// Row is the row's universal name (NameU), its local name when it has
	// none, or "Row_" + its ID: what inheritance matches rows by.
	Row  string
	Name string // local name, when the file gives one

	Label  string // what the Shape Data window shows
	Value  string // the value shown, for a list the entry picked
	Format string // for a list (Type 1 or 4), the ';'-separated entries
	Prompt string // the row's tooltip
	Type   int    // 0 string, 1 fixed list, 2 number, 3 boolean, 4 variable list, 5 date, 6 duration, 7 currency

	// Set says which cells the shape sets itself; in a row returned by
	// Shape.Prop, the others come from the master.
	Set Cells

	// Deleted marks a row the shape deletes from those its master gives it.
	Deleted bool

	// Pos is where the row was read: in the shape, or in its master for a
	// row the shape only inherits.
	Pos Pos
}

// List returns the entries of a list property's drop-list (Type 1 or 4),
// or nil for other types.
func (p *Prop) List() []string {
	if p.Type != 1 && p.Type != 4 || p.Format == "" {
		return nil
	}
	return splitList(p.Format)
}

// Cells is a set of the cells of a Prop row.
type Cells uint8

// The cells of a Prop row.
const (
	CellLabel Cells = 1 << iota
	CellValue
	CellFormat
	CellPrompt
	CellType
)

// Connect is a row of a page's Connects: the end of a connector glued to a
// shape. FromSheet is the connector's ID, FromCell the end that is glued
// ("BeginX" or "EndX"), ToSheet the ID of the shape it is glued to, ToCell
// where on that shape ("PinX" for dynamic glue, "Connections.X1"...).
type Connect struct {
	FromSheet, FromCell string // the connector's ID, and "BeginX" or "EndX"
	ToSheet, ToCell     string // the glued-to shape's ID, and where on it
	Pos                 Pos    // of the <Connect> element
}

// Pos is where an element starts in the file. In chart positions, a part
// follows the file name after a '!': "drawing.vsdx!visio/pages/page1.xml".
type Pos struct {
	Part      string // the part of a package (a .vsdx is a zip of XML parts); "" for a .vdx
	Line, Col int    // from 1; Col counts bytes
}

// chartPos converts p to a chart position in file, on page pg (may be
// nil), for shape s (may be nil) named name.
func chartPos(file string, p Pos, pg *Page, s *Shape, name string) diag.Pos {
	if p.Part != "" {
		file += "!" + posText(p.Part)
	}
	cp := diag.Pos{File: file, Line: p.Line, Col: p.Col, ShapeName: name}
	if pg != nil {
		cp.Page = posText(pg.Label())
	}
	if s != nil {
		cp.Shape = posText(s.ID)
	}
	return cp
}

// Resolve links each shape that is an instance of a master (or a member
// of one) to the master and to the master's shape it inherits from
// (Shape.Master and Shape.Base), after which [Shape.Prop] merges their
// custom properties cell by cell; it gives the shape its master's text if
// it has none, and its being 1-D. It adds a diagnostic for each shape that
// names a master or a master's shape the drawing does not have. It runs
// once; later calls do nothing. [Interpret] calls it.
func (d *Document) Resolve() {
	if d.resolved {
		return
	}
	d.resolved = true
	masters := d.masterIndex()
	for _, pg := range d.Pages {
		for _, s := range pg.Shapes {
			d.resolve(masters, pg, s, nil)
		}
	}
	d.rep.flush(&d.Diagnostics)
}

// masterIndex returns the masters by ID, reporting IDs used twice.
func (d *Document) masterIndex() map[string]*Master {
	masters := make(map[string]*Master, len(d.Masters))
	for _, m := range d.Masters {
		if _, dup := masters[m.ID]; dup {
			d.rep.add(&d.Diagnostics, diag.Diagnostic{
				Pos: chartPos(d.File, m.Pos, nil, nil, m.Label()), Severity: diag.Warning,
				Message: fmt.Sprintf("visio: master ID %s is used twice; shapes inherit from the first", short(m.ID)),
			}, "master twice")
			continue
		}
		masters[m.ID] = m
	}
	return masters
}

// resolve resolves s, whose group (if any) is an instance of inherited.
func (d *Document) resolve(masters map[string]*Master, pg *Page, s *Shape, inherited *Master) {
	switch {
	case s.MasterID != "":
		m := masters[s.MasterID]
		if m == nil {
			d.rep.add(&d.Diagnostics, diag.Diagnostic{
				Pos: chartPos(d.File, s.Pos, pg, s, displayName(s)), Severity: diag.Warning,
				Message: fmt.Sprintf("visio: shape refers to master %s, which the drawing does not have; it inherits nothing", short(s.MasterID)),
				Hint:    "the file may have been edited by hand or written by another program; re-save it from Visio",
			}, "no master")
			break
		}
		s.Master = m
		if len(m.Shapes) > 0 {
			s.Base = m.Shapes[0]
		}
	case s.MasterShapeID != "" && inherited != nil:
		s.Master = inherited
		s.Base = d.masterShape(inherited, s.MasterShapeID)
		if s.Base == nil {
			d.rep.add(&d.Diagnostics, diag.Diagnostic{
				Pos: chartPos(d.File, s.Pos, pg, s, displayName(s)), Severity: diag.Warning,
				Message: fmt.Sprintf("visio: shape refers to shape %s of master %s, which has no such shape; it inherits nothing", short(s.MasterShapeID), quote(inherited.Label())),
			}, "no master shape")
		}
	}
	if b := s.Base; b != nil {
		if !s.HasText && b.HasText {
			s.Text, s.HasText = b.Text, true
		}
		s.OneD = s.OneD || b.OneD
		s.XForm.inherit(&b.XForm)
	}
	for _, c := range s.Shapes {
		d.resolve(masters, pg, c, s.Master)
	}
}

// masterShape returns the shape of master m whose ID is id, the first of
// m's shapes and their members, in document order; nil if none. It indexes
// m's shapes when first asked: each member of each instance of a group
// master names a shape of it, and a master of many members would cost
// their square to search one by one.
func (d *Document) masterShape(m *Master, id string) *Shape {
	index, ok := d.shapeIDs[m]
	if !ok {
		index = make(map[string]*Shape)
		var add func([]*Shape)
		add = func(shapes []*Shape) {
			for _, s := range shapes {
				if _, dup := index[s.ID]; !dup {
					index[s.ID] = s
				}
				add(s.Shapes)
			}
		}
		add(m.Shapes)
		if d.shapeIDs == nil {
			d.shapeIDs = make(map[*Master]map[string]*Shape)
		}
		d.shapeIDs[m] = index
	}
	return index[id]
}

// rowName is the name inheritance matches a Prop row by.
func rowName(nameU, name, id string) string {
	switch {
	case nameU != "":
		return nameU
	case name != "":
		return name
	}
	return "Row_" + id
}

// normText makes the line ends of a shape's text '\n': CR LF, CR, and
// Visio's U+2028 (a line break within a paragraph, Shift+Enter) and
// U+2029. It allocates only when it changes s.
func normText(s string) string {
	if !strings.ContainsAny(s, "\r\u2028\u2029") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer("\r", "\n", "\u2028", "\n", "\u2029", "\n").Replace(s)
}

// dependsOn reads the shapes a Relationships formula names
// ("SUM(DEPENDSON(1,Sheet.270!SheetRef(),Sheet.277!SheetRef()))") for the
// relationship kind: their IDs, in order.
func dependsOn(formula string, kind string) []string {
	var ids []string
	for rest := formula; ; {
		i := strings.Index(rest, "DEPENDSON(")
		if i < 0 {
			return ids
		}
		rest = rest[i+len("DEPENDSON("):]
		// The arguments, split at the commas outside parentheses, up to
		// the matching ')'.
		var args []string
		depth, start, end := 0, 0, len(rest)
	scan:
		for j := 0; j < len(rest); j++ {
			switch rest[j] {
			case '(':
				depth++
			case ')':
				if depth == 0 {
					args = append(args, rest[start:j])
					end = j + 1
					break scan
				}
				depth--
			case ',':
				if depth == 0 {
					args = append(args, rest[start:j])
					start = j + 1
				}
			}
		}
		rest = rest[end:]
		if len(args) == 0 || strings.TrimSpace(args[0]) != kind {
			continue
		}
		for _, a := range args[1:] {
			if id, ok := strings.CutPrefix(strings.TrimSpace(a), "Sheet."); ok {
				if j := strings.IndexByte(id, '!'); j > 0 && isNumber(id[:j]) {
					ids = append(ids, id[:j])
				}
			}
		}
	}
}

func isNumber(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// splitList splits a drop-list's Format into its entries.
func splitList(format string) []string {
	out := strings.Split(format, ";")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}
