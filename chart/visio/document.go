package visio

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
)

// Document is a Visio drawing as a file holds it, whatever the file's
// format: its masters, its pages, their shapes and the glue between them.
// [DecodeVDX] fills one from a Visio XML drawing (.vdx); a reader for .vsdx
// fills the same model. [Interpret] reads a chart from it.
//
// Each shape holds what the file says of it; [Document.Resolve] links it
// to its master, from which it inherits. Strings may share memory with the
// file's text, which stays in memory while the Document does.
type Document struct {
	// File names the drawing in positions, as given in Options.File.
	File string
	// Title is the document's title (DocumentProperties), often empty.
	Title string
	// Namespace is the XML namespace of the file (NamespaceVDX2003 or
	// NamespaceVDX2002); empty for formats that are not XML.
	Namespace string

	Masters []*Master // the document stencil, in file order
	Pages   []*Page   // in file order, background pages included

	// Diagnostics lists what the parser and Resolve ignored or found odd.
	Diagnostics chart.Diagnostics

	resolved bool
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
	Pos        Pos       // of the <Page> element
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
func chartPos(file string, p Pos, pg *Page, s *Shape, name string) chart.Pos {
	if p.Part != "" {
		file += "!" + p.Part
	}
	cp := chart.Pos{File: file, Line: p.Line, Col: p.Col, ShapeName: name}
	if pg != nil {
		cp.Page = pg.Label()
	}
	if s != nil {
		cp.Shape = s.ID
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
	masters := make(map[string]*Master, len(d.Masters))
	for _, m := range d.Masters {
		if _, dup := masters[m.ID]; dup {
			d.Diagnostics = append(d.Diagnostics, chart.Diagnostic{
				Pos: chartPos(d.File, m.Pos, nil, nil, m.Label()), Severity: chart.Warning,
				Message: fmt.Sprintf("visio: master ID %s is used twice; shapes inherit from the first", m.ID),
			})
			continue
		}
		masters[m.ID] = m
	}
	for _, pg := range d.Pages {
		for _, s := range pg.Shapes {
			d.resolve(masters, pg, s, nil)
		}
	}
}

// resolve resolves s, whose group (if any) is an instance of inherited.
func (d *Document) resolve(masters map[string]*Master, pg *Page, s *Shape, inherited *Master) {
	switch {
	case s.MasterID != "":
		m := masters[s.MasterID]
		if m == nil {
			d.Diagnostics = append(d.Diagnostics, chart.Diagnostic{
				Pos: chartPos(d.File, s.Pos, pg, s, displayName(s)), Severity: chart.Warning,
				Message: fmt.Sprintf("visio: shape refers to master %s, which the drawing does not have; it inherits nothing", s.MasterID),
				Hint:    "the file may have been edited by hand or written by another program; re-save it from Visio",
			})
			break
		}
		s.Master = m
		if len(m.Shapes) > 0 {
			s.Base = m.Shapes[0]
		}
	case s.MasterShapeID != "" && inherited != nil:
		s.Master = inherited
		s.Base = findShape(inherited.Shapes, s.MasterShapeID)
		if s.Base == nil {
			d.Diagnostics = append(d.Diagnostics, chart.Diagnostic{
				Pos: chartPos(d.File, s.Pos, pg, s, displayName(s)), Severity: chart.Warning,
				Message: fmt.Sprintf("visio: shape refers to shape %s of master %q, which has no such shape; it inherits nothing", s.MasterShapeID, inherited.Label()),
			})
		}
	}
	if b := s.Base; b != nil {
		if !s.HasText && b.HasText {
			s.Text, s.HasText = b.Text, true
		}
		s.OneD = s.OneD || b.OneD
	}
	for _, c := range s.Shapes {
		d.resolve(masters, pg, c, s.Master)
	}
}

// findShape finds the shape with the given ID among shapes and their
// members.
func findShape(shapes []*Shape, id string) *Shape {
	for _, s := range shapes {
		if s.ID == id {
			return s
		}
		if f := findShape(s.Shapes, id); f != nil {
			return f
		}
	}
	return nil
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

// splitList splits a drop-list's Format into its entries.
func splitList(format string) []string {
	out := strings.Split(format, ";")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}
