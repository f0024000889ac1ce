package diag

import (
	"cmp"
	"strconv"
	"strings"
)

// Pos is where something comes from: the file, the page and shape of a
// drawing, and the line and column of its text. Any part may be empty or
// zero (a JSON stencil has no page, a generated chart no file, a binary
// table no line). Line and Col are 1-based; Col counts bytes, as in Go's
// own tools.
type Pos struct {
	File      string `json:"file,omitempty"`      // as given to the reader
	Page      string `json:"page,omitempty"`      // page name, as the designer sees it
	Shape     string `json:"shape,omitempty"`     // shape ID in its page
	ShapeName string `json:"shapeName,omitempty"` // the state's name, the transition's label, or the shape's Visio name
	Line      int    `json:"line,omitempty"`      // from 1; 0 if unknown
	Col       int    `json:"col,omitempty"`       // from 1, in bytes; 0 if unknown
}

// maxShapeName is how many characters of a shape's name String shows.
const maxShapeName = 40

// The longest page names and shape IDs String quotes whole, in runes.
const (
	maxPageName = 100
	maxShapeID  = 100
)

// String renders the position for people and editors, leaving out the
// parts that are empty:
//
//	goomba.vdx:41:7: page "Page-1", shape 12 "walkLeft"
//	goomba.stencil.json:3:5
//	page "Page-1", shape 12
//
// A shape name longer than 40 characters is cut with "...", a page name
// or a shape ID longer than 100. The zero Pos renders as "".
func (p Pos) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		if p.File != "" {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(p.Line))
		if p.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(p.Col))
		}
	}
	if p.Page == "" && p.Shape == "" && p.ShapeName == "" {
		return b.String()
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if p.Page != "" {
		b.WriteString("page ")
		b.WriteString(strconv.Quote(shorten(p.Page, maxPageName)))
		if p.Shape != "" || p.ShapeName != "" {
			b.WriteString(", ")
		}
	}
	if p.Shape != "" {
		b.WriteString("shape ")
		b.WriteString(shorten(p.Shape, maxShapeID))
		if p.ShapeName != "" {
			b.WriteByte(' ')
		}
	}
	if p.ShapeName != "" {
		b.WriteString(strconv.Quote(shorten(p.ShapeName, maxShapeName)))
	}
	return b.String()
}

// IsZero reports whether p says nothing at all.
func (p Pos) IsZero() bool { return p == Pos{} }

// Compare orders positions by file, then line, then column: -1 if p comes
// before q, +1 if after, 0 if neither (pages and shapes are not ordered).
// A position with no line comes before the lines of its file.
func (p Pos) Compare(q Pos) int {
	return cmp.Or(strings.Compare(p.File, q.File), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Col, q.Col))
}

// shorten cuts s to n runes, marking the cut with "...". It reads at most
// n runes of s.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s // n runes take at least n bytes
	}
	i := 0
	cut := -1
	for k := range s {
		if i == n-3 {
			cut = k
		}
		if i == n {
			return s[:cut] + "..."
		}
		i++
	}
	return s
}
