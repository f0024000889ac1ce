package visio

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
)

// The first pass of the interpretation (see interp): the records of a
// page's shapes, and how they are read.

// sheet is a page being read: its shapes as nodes, in document order
// (groups' members after their group), and what was found about them.
type sheet struct {
	pg     *Page
	prefix string // of the chart IDs of the page's shapes: "" or the page's ID and '/'
	page   string // the page's label, for positions
	part   string // the part of the first shape's position, that nodes do not repeat

	nodes  chunks[node]
	states chunks[stateDraft]
	acts   chunks[actDraft]
	trans  chunks[transDraft] // with a stencil; ends holds the same transitions
	ends   chunks[lineEnds]   // of the transitions (1-D shapes of a plain diagram)

	byNum []ref          // by shape ID, for small numbers
	byStr map[string]ref // the other shape IDs

	containerOf map[string][]string // member ID -> container IDs, in file order
	seen        map[[2]string]bool  // member and container

	shapesRead bool      // the page's shapes are read: Connect rows can be
	pending    []Connect // Connect rows read before the shapes (copies)

	// Diagnostics, in the order they are reported: those of the shapes'
	// IDs, of the Connect rows, and of the states' properties.
	dup, glue, stateDiags diag.List

	// What few nodes need.
	labels   map[*node]string          // a shape without text: its NameU or Name
	far      map[*node]Pos             // a position nodes cannot hold
	stale    map[*node]*[2]string      // shape IDs an end is glued to, when no shape has them
	unsup    map[*node]diag.Diagnostic // plain: what a state cannot be
	tdiags   map[*node][]finding       // a transition's properties' problems
	ret      map[*node]diag.Pos        // a returning transition's Stack property
	orders   map[*node]int             // an order too large for transDraft
	inState  map[*node]*node           // the innermost container holding a node that is a state (see innermost)
	up       map[*node]*node           // the state a state is drawn inside (see nest)
	masterOf map[*node]*Master         // with a stencil: the master of a shape that may be a composite state
	bigActs  map[int32]chart.Action    // actions actDraft cannot hold, by index in acts
	extra    map[*node]string          // plain: the text of a state besides its name, shortened

	// The states' boxes, for telling which state a connector's free end
	// lies on (see sheet.on), made when first needed; budget is how many
	// more boxes may be tried.
	boxes  []stateBox
	budget int
}

// node is a shape of a page: what the interpretation keeps of it and
// finds out about it.
type node struct {
	id         string // chart ID: the page's prefix and the shape's ID
	text       string // the shape's text
	parent     ref    // its group
	begin, end ref    // for a connector: what its ends are glued to
	line, col  int32  // of the shape (see sheet.pos)
	draft      int32  // in sheet.states, or for a transition sheet.ends (and sheet.trans); -1 if neither
	flags      flags
	role       chart.Role
}

// ref is a node of the same sheet: its index in sheet.nodes plus 1, or 0
// for none.
type ref int32

// node returns the node r, or nil.
func (sh *sheet) node(r ref) *node {
	if r == 0 {
		return nil
	}
	return sh.nodes.at(int32(r - 1))
}

// flags are what is known of a node.
type flags uint16

const (
	fOneD       flags = 1 << iota // a 1-D shape
	fPart                         // a member of a master's group (isPart)
	fMastered                     // an instance of a master (MasterID)
	fGuide                        // Type Guide
	fForeign                      // Type Foreign
	fSkip                         // no ID, or another shape's: left out
	fFar                          // its position is in sheet.far
	fState                        // read as a state
	fGlued                        // a connector (with a stencil, a transition) is glued to it
	fGluedBelow                   // plain: a connector is glued to one of its members
	fContainer                    // a container (Relationships cell) holds shapes
	fInStateSet                   // sheet.inState is computed (see enclosing)
	fBegin                        // a Connect row glues the connector's start
	fEnd                          // and its end
	fBigOrder                     // the order is in sheet.orders
	fFinal                        // a transition marked final (Final, or fsmforgeFinal)
)

// stateDraft is what a shape that may be a state says of it: with a
// stencil, its entry actions are acts[first:first+n].
type stateDraft struct {
	name      string
	box       *chart.Box // in inches until the state is built (see box, pixelBox)
	first, n  int32
	kind      chart.StateKind
	initial   bool // plain: the machine starts here (see kindOf)
	composite bool // plain: its master says it is a composite state
	region    bool // plain: its master says it is a region (of an orthogonal state)
}

// actDraft is an entry action of a state: the stencil's action act takes
// the value val of its drop-list, set in the row at line:col of the
// shape's part (own), or inherited. One it cannot hold (big) is in
// sheet.bigActs.
type actDraft struct {
	line, col int32
	act, val  uint16
	own, big  bool
}

// transDraft is what the properties of a transition of a stencil say: its
// test (an index in the stencil's tests, plus 1), value, order (see
// fBigOrder) and stack operation.
type transDraft struct {
	test, value, order int32 // value: an index in interp.vals, plus 1
	push, ret          bool
}

// lineEnds is where a connector's start and end are on its page, in
// inches from the page's bottom-left corner, Y upwards: start x, y, end x,
// y; NaN where the drawing does not say.
type lineEnds [4]float32

// value returns the index plus 1 of a transition's value in in.vals.
func (in *interp) value(v string) int32 {
	i, ok := in.valIdx[v]
	if !ok {
		if in.valIdx == nil {
			in.valIdx = make(map[string]int32)
		}
		v = in.strs.Clone(v)
		in.vals = append(in.vals, v)
		i = int32(len(in.vals))
		in.valIdx[v] = i
	}
	return i
}

// chunks is a list of values that do not move: a node's address stays.
type chunks[T any] struct {
	c [][]T
	n int
}

const chunkSize = 512

// add appends a zero value and returns it.
func (l *chunks[T]) add() *T {
	if l.n%chunkSize == 0 {
		l.c = append(l.c, make([]T, 0, chunkSize))
	}
	last := &l.c[len(l.c)-1]
	*last = (*last)[:len(*last)+1]
	l.n++
	return &(*last)[len(*last)-1]
}

func (l *chunks[T]) at(i int32) *T { return &l.c[i/chunkSize][i%chunkSize] }

// all yields the values in order.
func (l *chunks[T]) all() iter.Seq[*T] {
	return func(yield func(*T) bool) {
		for _, c := range l.c {
			for i := range c {
				if !yield(&c[i]) {
					return
				}
			}
		}
	}
}

// shapeID returns the shape's ID in its page, without the prefix.
func (sh *sheet) shapeID(n *node) string { return n.id[len(sh.prefix):] }

// lookup finds the node of the shape with the given ID.
func (sh *sheet) lookup(id string) ref {
	if v, ok := smallID(id); ok && v < len(sh.byNum) && sh.byNum[v] != 0 {
		return sh.byNum[v]
	}
	return sh.byStr[id]
}

// register records n under id, which no node has.
func (sh *sheet) register(id string, n ref) {
	// IDs are numbers from 1, mostly dense: a table holds those up to
	// about twice the shapes read so far.
	if v, ok := smallID(id); ok && v < 2*sh.nodes.n+1024 {
		if v >= len(sh.byNum) {
			t := make([]ref, max(v+1, 2*len(sh.byNum), 256))
			copy(t, sh.byNum)
			sh.byNum = t
		}
		sh.byNum[v] = n
		return
	}
	if sh.byStr == nil {
		sh.byStr = make(map[string]ref)
	}
	sh.byStr[id] = n
}

// smallID reads an ID written as a decimal number of up to 9 digits,
// without leading zeros.
func smallID(id string) (int, bool) {
	if len(id) == 0 || len(id) > 9 || id[0] == '0' && len(id) > 1 {
		return 0, false
	}
	v := 0
	for _, c := range []byte(id) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// pos returns where n's shape is.
func (sh *sheet) pos(n *node) Pos {
	if n.flags&fFar != 0 {
		return sh.far[n]
	}
	return Pos{Part: sh.part, Line: int(n.line), Col: int(n.col)}
}

// label returns the Visio name of a node's shape (see Shape.Label).
func (sh *sheet) label(n *node) string {
	if l := sh.labels[n]; l != "" {
		return l
	}
	return "Sheet." + sh.shapeID(n)
}

// displayName names a node's shape for people: by its text, or its Visio
// name.
func (sh *sheet) displayName(n *node) string {
	if t := chart.NormalizeSpace(n.text); t != "" {
		return t
	}
	return sh.label(n)
}

// describe names a node's shape for a message: a state by its name
// ("state 12 "walkLeft""), another shape by its text or its Visio name
// ("shape 31 (Sheet.31)").
func (sh *sheet) describe(n *node) string {
	if n.flags&fState != 0 && n.draft >= 0 {
		if name := sh.states.at(n.draft).name; name != "" {
			return fmt.Sprintf("state %s %s", short(sh.shapeID(n)), quote(name))
		}
	}
	if name := chart.NormalizeSpace(cutText(n.text)); name != "" {
		return fmt.Sprintf("shape %s %s", short(sh.shapeID(n)), quote(name))
	}
	return fmt.Sprintf("shape %s (%s)", short(sh.shapeID(n)), short(sh.label(n)))
}

// cutText cuts a text to what a message may quote of it once its spaces
// are normalized: a shape's text, quoted in the messages about the
// connectors glued to it, may be long, and they many.
func cutText(s string) string { return source.Shorten(s, 4*source.MaxQuoted) }

// arena copies strings into shared blocks of up to 32 KiB.
type arena struct{ block strings.Builder }

// join returns a copy of a + b.
func (a *arena) join(x, y string) string {
	n := len(x) + len(y)
	switch {
	case n == 0:
		return ""
	case n > ownShort:
		return strings.Clone(x + y)
	case a.block.Cap()-a.block.Len() < n:
		size := min(max(ownFirst, 2*a.block.Cap()), ownBlock)
		a.block = strings.Builder{}
		a.block.Grow(size)
	}
	i := a.block.Len()
	a.block.WriteString(x)
	a.block.WriteString(y)
	return a.block.String()[i:]
}

// pos returns the chart position of p, on page pg (may be nil), for the
// shape whose chart ID is shape, named name.
func (in *interp) pos(p Pos, pg *Page, shape, name string) diag.Pos {
	cp := diag.Pos{File: in.file(p.Part), Line: p.Line, Col: p.Col, ShapeName: in.text(name), Shape: posText(shape)}
	if pg != nil {
		cp.Page = in.strs.Clone(posText(pg.Label()))
	}
	return cp
}

// at returns the chart position of a node's shape, named name.
func (in *interp) at(sh *sheet, n *node, name string) diag.Pos {
	p := sh.pos(n)
	return diag.Pos{File: in.file(p.Part), Line: p.Line, Col: p.Col, ShapeName: in.text(name), Page: sh.page, Shape: posText(n.id)}
}

// file returns the file's name, followed by the part's for a package, as
// chart positions give it: "drawing.vsdx!visio/pages/page1.xml". It keeps
// the last, as positions come part after part.
func (in *interp) file(part string) string {
	if part != in.lastPart || in.lastFile == "" {
		f := in.doc.File
		if part != "" {
			f += "!" + posText(part)
		}
		in.lastPart, in.lastFile = part, in.strs.Clone(f)
	}
	return in.lastFile
}

// severity is that of a problem that drops a transition.
func (in *interp) severity() diag.Severity {
	if in.st != nil {
		return diag.Error
	}
	return diag.Warning
}

// beginPage starts reading a page that is not a background page.
func (in *interp) beginPage(pg *Page) *sheet {
	sh := &sheet{pg: pg, page: in.strs.Clone(posText(pg.Label()))}
	if len(in.sheets) > 0 {
		sh.prefix = pg.ID + "/"
	}
	in.sheets = append(in.sheets, sh)
	return sh
}

// collect reads a top-level shape of the page and its members.
func (in *interp) collect(sh *sheet, s *Shape) {
	in.path = in.path[:0]
	in.collectShape(sh, s, 0)
	clear(in.path[:cap(in.path)])
}

func (in *interp) collectShape(sh *sheet, s *Shape, parent ref) {
	strict := in.st != nil
	n := sh.nodes.add()
	self := ref(sh.nodes.n)
	n.parent, n.draft = parent, -1
	n.id = in.ids.join(sh.prefix, s.ID)
	if in.stream {
		n.text = in.text(s.Text)
	} else {
		n.text = s.Text
	}
	if sh.nodes.n == 1 {
		sh.part = s.Pos.Part
	}
	if p := s.Pos; p.Part == sh.part && p.Line == int(int32(p.Line)) && p.Col == int(int32(p.Col)) {
		n.line, n.col = int32(p.Line), int32(p.Col)
	} else {
		n.flags |= fFar
		if sh.far == nil {
			sh.far = make(map[*node]Pos)
		}
		sh.far[n] = Pos{Part: in.keep(p.Part), Line: p.Line, Col: p.Col}
	}
	if strings.TrimSpace(s.Text) == "" {
		if s.NameU != "" || s.Name != "" {
			if sh.labels == nil {
				sh.labels = make(map[*node]string)
			}
			sh.labels[n] = in.keep(s.Label())
		}
	}
	if s.OneD {
		n.flags |= fOneD
	}
	if isPart(s) {
		n.flags |= fPart
	}
	if s.MasterID != "" {
		n.flags |= fMastered
	}
	switch s.Type {
	case "Guide":
		n.flags |= fGuide
	case "Foreign":
		n.flags |= fForeign
	}

	// Its ID.
	if s.ID == "" || sh.lookup(s.ID) != 0 {
		at, hint := in.at(sh, n, displayName(s)), "the file is damaged; re-save it from Visio"
		if s.ID == "" {
			in.addf(&sh.dup, in.severity(), at, hint, "shape without an ID; ignored")
		} else {
			in.addf(&sh.dup, in.severity(), at, hint, "shape ID %s is used twice on the page; the second shape is ignored", short(s.ID))
		}
		n.flags |= fSkip
	} else {
		sh.register(sh.shapeID(n), self)
	}

	// Containers: which shapes hold which, from the Relationships cells
	// of both.
	for _, m := range s.Members {
		sh.link(in, m, s.ID)
	}
	for _, c := range s.Containers {
		sh.link(in, s.ID, c)
	}

	// What it is.
	if strict {
		in.shapes++
		if m := s.Master; m != nil && s.MasterID != "" {
			u := in.uses[m]
			if u == nil {
				u = &use{at: in.pos(s.Pos, sh.pg, in.strs.Clone(s.ID), displayName(s))}
				in.uses[m] = u
				in.order = append(in.order, m)
			}
			u.shapes++
			if n.flags&fSkip == 0 {
				n.role = in.role(m)
			}
		}
		switch {
		case n.role.IsState():
			n.flags |= fState
			in.stencilState(sh, n, s)
		case n.role == chart.RoleTransition:
			in.stencilTransition(sh, n, s)
			*sh.ends.add() = ends(s, in.path)
		case n.role == chart.RoleNone:
			if n.flags&(fOneD|fPart|fSkip|fGuide|fForeign) == 0 {
				in.compositeCandidate(sh, n, s)
			}
		}
	} else if n.flags&(fOneD|fGuide|fPart|fSkip) == 0 {
		in.plainState(sh, n, s)
	} else if in.isTransition(n) {
		in.plainTransition(sh, n, s)
	}

	in.path = append(in.path, s)
	for _, c := range s.Shapes {
		in.collectShape(sh, c, self)
	}
	in.path = in.path[:len(in.path)-1]
}

// link records that the shape member is held by the shape container.
func (sh *sheet) link(in *interp, member, container string) {
	k := [2]string{member, container}
	if sh.seen[k] {
		return
	}
	k = [2]string{in.keep(member), in.keep(container)}
	if sh.seen == nil {
		sh.seen = make(map[[2]string]bool)
		sh.containerOf = make(map[string][]string)
	}
	sh.seen[k] = true
	sh.containerOf[k[0]] = append(sh.containerOf[k[0]], k[1])
}

// role returns the role of a master in the stencil.
func (in *interp) role(m *Master) chart.Role {
	r, ok := in.roles[m]
	if !ok {
		r = in.st.Role(m.NameU)
		if r == chart.RoleNone && m.Name != "" {
			r = in.st.Role(m.Name)
		}
		in.roles[m] = r
	}
	return r
}

// connect reads a Connect row of the page.
func (in *interp) connect(sh *sheet, c *Connect) {
	from := sh.node(sh.lookup(c.FromSheet))
	if from == nil {
		in.addf(&sh.glue, diag.Warning, in.pos(c.Pos, sh.pg, "", ""), "",
			"a Connect row glues shape %s, which is not on the page; ignored", short(c.FromSheet))
		return
	}
	var end *ref
	var set flags
	switch c.FromCell {
	case "BeginX":
		end, set = &from.begin, fBegin
	case "EndX":
		end, set = &from.end, fEnd
	default:
		return // a 2-D shape or a control handle glued: no transition end
	}
	if from.flags&set != 0 {
		in.addf(&sh.glue, diag.Warning, in.at(sh, from, sh.displayName(from)), "",
			"a second Connect row glues the %s of the connector; the first is kept", endName(c.FromCell))
		return
	}
	from.flags |= set
	if *end = sh.lookup(c.ToSheet); *end == 0 {
		if sh.stale == nil {
			sh.stale = make(map[*node]*[2]string)
		}
		st := sh.stale[from]
		if st == nil {
			st = new([2]string)
			sh.stale[from] = st
		}
		i := 0
		if set == fEnd {
			i = 1
		}
		st[i] = in.keep(c.ToSheet)
	}
}

// staleEnds returns the shape IDs a connector's start and end are glued
// to when no shape has them.
func (sh *sheet) staleEnds(n *node) (begin, end string) {
	if st := sh.stale[n]; st != nil {
		return st[0], st[1]
	}
	return "", ""
}

// connectLater reads a Connect row the parser is reading, now or, when
// the page's shapes are not all read yet, after them (see endPage).
func (in *interp) connectLater(sh *sheet, c *Connect) {
	if sh.shapesRead && sh.pending == nil {
		in.connect(sh, c)
		return
	}
	sh.pending = append(sh.pending, Connect{
		FromSheet: strings.Clone(c.FromSheet), FromCell: strings.Clone(c.FromCell),
		ToSheet: strings.Clone(c.ToSheet), ToCell: strings.Clone(c.ToCell), Pos: c.Pos,
	})
}

// endPage ends the reading of a page's part by the parser.
func (in *interp) endPage(sh *sheet) {
	sh.shapesRead = true
	for i := range sh.pending {
		in.connect(sh, &sh.pending[i])
	}
	sh.pending = nil
}

// stencilState reads what a shape of a state master (of the stencil's
// state, initial-state, composite or parallel master, or of one of its
// pseudo-states') says of its state: its name, box, kind and entry
// actions. A pseudo-state has no entry actions and no name property: a
// history is nameless unless its text says more than UML's "H" or "H*",
// a start pseudo-state unless it has a text, as in a plain diagram.
func (in *interp) stencilState(sh *sheet, n *node, s *Shape) {
	d := stateDraft{box: box(s, in.path), first: int32(sh.acts.n), kind: n.role.Kind()}
	switch {
	case d.kind.IsHistory():
		d.name = in.text(historyName(chart.NormalizeSpace(stateText(s))))
	case d.kind == chart.StartState:
		d.name = in.text(chart.NormalizeSpace(stateText(s)))
	default:
		d.name = in.text(in.stencilName(s))
		in.stencilActions(sh, n, s, &d)
	}
	n.draft = int32(sh.states.n)
	*sh.states.add() = d
}

// historyName is the name of a history pseudo-state whose text is name:
// none when the text is UML's notation, "H" or "H*".
func historyName(name string) string {
	if name == "H" || name == "H*" {
		return ""
	}
	return name
}

// stencilName returns the name of a state of a stencil: its name property,
// or else its text or its heading's (see stateText).
func (in *interp) stencilName(s *Shape) string {
	var name string
	if p, ok := findProp(s, in.props.Name); ok {
		name = chart.NormalizeSpace(p.Value)
	}
	if name == "" {
		name = chart.NormalizeSpace(stateText(s))
	}
	return name
}

// stencilActions reads the entry actions of the state d, the shape s of
// node n, from the stencil's action properties, into sh.acts.
func (in *interp) stencilActions(sh *sheet, n *node, s *Shape, d *stateDraft) {
	name := d.name
	for i, a := range in.st.Actions {
		p, ok := findProp(s, a.Name)
		if !ok {
			continue // reported with the master
		}
		v := strings.TrimSpace(p.Value)
		if v == "" {
			continue
		}
		val := slices.Index(a.Values, v)
		if val < 0 {
			in.addf(&sh.stateDiags, diag.Error, in.propPos(&p, sh, n, name), "pick one of "+strings.Join(a.Values, ", ")+" in the state's Shape Data",
				"state %s: %s value %s is not in the drop-list of stencil %q", quote(name), a.Name, quote(v), in.st.Name)
			continue
		}
		ad := sh.acts.add()
		*ad = actDraft{act: uint16(i), val: uint16(val), own: p.Set&CellValue != 0, line: int32(p.Pos.Line), col: int32(p.Pos.Col)}
		if i != int(ad.act) || val != int(ad.val) || ad.own && (p.Pos.Part != sh.part || p.Pos.Line != int(ad.line) || p.Pos.Col != int(ad.col)) {
			*ad = actDraft{big: true}
			if sh.bigActs == nil {
				sh.bigActs = make(map[int32]chart.Action)
			}
			sh.bigActs[int32(sh.acts.n-1)] = chart.Action{Property: in.strs.Clone(a.Name), Value: in.strs.Clone(v), Pos: in.propPos(&p, sh, n, name)}
		}
		d.n++
	}
}

// compositeCandidate reads what a 2-D shape of no master of the stencil
// says of the composite state it is when it is a container a transition
// is glued to (see prepare): its name, its text or its heading's (see
// stateText), and its box.
func (in *interp) compositeCandidate(sh *sheet, n *node, s *Shape) {
	n.draft = int32(sh.states.n)
	*sh.states.add() = stateDraft{name: in.text(chart.NormalizeSpace(stateText(s))), box: box(s, in.path)}
	if s.Master != nil && s.MasterID != "" {
		if sh.masterOf == nil {
			sh.masterOf = make(map[*node]*Master)
		}
		sh.masterOf[n] = s.Master
	}
}

// entry returns the entry actions of a state of a stencil.
func (in *interp) entry(sh *sheet, n *node, d *stateDraft) []chart.Action {
	if d.n == 0 {
		return nil
	}
	entry := make([]chart.Action, d.n)
	for i := range entry {
		ad := sh.acts.at(d.first + int32(i))
		if ad.big {
			entry[i] = sh.bigActs[d.first+int32(i)]
			continue
		}
		a := &in.st.Actions[ad.act]
		var at diag.Pos
		if ad.own {
			at = diag.Pos{File: in.file(sh.part), Line: int(ad.line), Col: int(ad.col), ShapeName: in.text(d.name), Page: sh.page, Shape: n.id}
		} else {
			at = in.at(sh, n, d.name)
		}
		entry[i] = chart.Action{Property: in.strs.Clone(a.Name), Value: in.strs.Clone(a.Values[ad.val]), Pos: at}
	}
	return entry
}

// plainState reads what a shape of a plain diagram that may be a state
// says of it: its name, box and kind, and whether it can be one.
func (in *interp) plainState(sh *sheet, n *node, s *Shape) {
	n.draft = int32(sh.states.n)
	kind, initial := kindOf(s)
	name, extra := plainText(s)
	if kind.IsHistory() {
		name = historyName(name) // "H" and "H*" are UML's notation, not names
	}
	*sh.states.add() = stateDraft{name: in.text(name), box: box(s, in.path), kind: kind, initial: initial,
		composite: hasWord(s, "composite"), region: hasWord(s, "region")}
	if extra != "" {
		if sh.extra == nil {
			sh.extra = make(map[*node]string)
		}
		sh.extra[n] = strings.Clone(extra) // shortened: small
	}
	if what := unsupported(s); what != "" {
		if sh.unsup == nil {
			sh.unsup = make(map[*node]diag.Diagnostic)
		}
		sh.unsup[n] = newDiagnostic(diag.Error, in.at(sh, n, displayName(s)), hintRegions,
			"%s is not supported: the Visio reader reads no parallel regions; the shape is left out", what)
	}
}

// plainTransition reads what a 1-D shape of a plain diagram says of the
// transition it may be: where its ends are, and whether its Shape Data
// row PropFinal marks it final.
func (in *interp) plainTransition(sh *sheet, n *node, s *Shape) {
	n.draft = int32(sh.ends.n)
	*sh.ends.add() = ends(s, in.path)
	if p, ok := findProp(s, PropFinal); ok {
		in.final(sh, n, &p, PropFinal, "")
	}
}

// final reads the row p, named name, that marks the transition n final: 1,
// true or yes mark it (fFinal); 0, false, no or nothing do not; other
// values are a warning, and do not.
func (in *interp) final(sh *sheet, n *node, p *Prop, name, shapeName string) {
	switch on, ok := importer.ParseFlag(p.Value); {
	case on:
		n.flags |= fFinal
	case !ok:
		if shapeName == "" {
			shapeName = chart.NormalizeSpace(n.text)
		}
		const format = "%s %s is not 1 or 0 (true or false); ignored"
		sh.finding(n, finding{d: newDiagnostic(diag.Warning, in.propPos(p, sh, n, shapeName), "write 1 (true) if the machine ends where the connector's end is free, else 0 (false)",
			format, name, quote(strings.TrimSpace(p.Value))), kind: format})
	}
}

// The formats of the findings about a transition's test, which the
// transition of a start or history pseudo-state, taken without one, does
// not have (see aboutTest).
const (
	noTestRow   = "transition without a %q property"
	noTestValue = "transition without a test"
	testUnknown = "test %s is not in stencil %q"
	testValue   = "test %q does not take value %s"
)

// aboutTest reports whether a finding of the format kind is about a
// transition's test: that it has none, or one the stencil does not have,
// or one that does not take its value. The transition leaving a start or
// history pseudo-state is taken without a test (see untested): what it
// sets, the reader ignores, with a warning ([importer.IgnoredTest]).
func aboutTest(kind string) bool {
	return kind == noTestRow || kind == noTestValue || kind == testUnknown || kind == testValue
}

// untested reports whether the node n is a pseudo-state whose transition
// is taken without a test: a start or history pseudo-state
// ([chart.StateKind.UntestedTransition]).
func (sh *sheet) untested(n *node) bool {
	return n.flags&fState != 0 && n.draft >= 0 && sh.states.at(n.draft).kind.UntestedTransition()
}

// finding records a problem of the transition n's properties, reported
// when the transition is read.
func (sh *sheet) finding(n *node, f finding) {
	if sh.tdiags == nil {
		sh.tdiags = make(map[*node][]finding)
	}
	sh.tdiags[n] = append(sh.tdiags[n], f)
}

// ends returns where the connector s, drawn inside groups (the nearest
// last), starts and ends on its page (see lineEnds).
func ends(s *Shape, groups []*Shape) lineEnds {
	nan := float32(math.NaN())
	e := lineEnds{nan, nan, nan, nan}
	var ox, oy float64
	for i := len(groups) - 1; i >= 0; i-- {
		ax, ay, ok := groups[i].XForm.origin()
		if !ok {
			return e
		}
		ox, oy = ox+ax, oy+ay
	}
	x := &s.XForm
	point := func(cx, cy XFormCells, vx, vy float64, at []float32) {
		if x.Set&(cx|cy) == cx|cy && math.Abs(ox+vx) < 1e30 && math.Abs(oy+vy) < 1e30 { // a place on a page
			at[0], at[1] = float32(ox+vx), float32(oy+vy)
		}
	}
	point(XBeginX, XBeginY, x.BeginX, x.BeginY, e[0:2])
	point(XEndX, XEndY, x.EndX, x.EndY, e[2:4])
	return e
}

// propPos is where a property's value was set: its row when the shape sets
// it, the shape otherwise.
func (in *interp) propPos(p *Prop, sh *sheet, n *node, name string) diag.Pos {
	if p.Set&CellValue != 0 {
		return in.pos(p.Pos, sh.pg, n.id, name)
	}
	return in.at(sh, n, name)
}

// stencilTransition reads a transition's test, value, order and stack
// operation from its custom properties, and what is wrong with them.
func (in *interp) stencilTransition(sh *sheet, n *node, s *Shape) {
	st, names := in.st, in.props
	var d transDraft
	tp, hasTest := findProp(s, names.Test)
	name := chart.NormalizeSpace(strings.TrimSpace(s.Text))
	if name == "" { // a connector without text: named by its test
		name = strings.TrimSpace(tp.Value)
	}
	// find records an error about the transition, of property p (nil for
	// none); test is the test of an unknown test's.
	find := func(p *Prop, test, hint, format string, args ...any) {
		var at diag.Pos
		if p != nil {
			at = in.propPos(p, sh, n, name)
		} else {
			at = in.at(sh, n, name)
		}
		sh.finding(n, finding{d: newDiagnostic(diag.Error, at, hint, format, args...), kind: format, test: test})
	}
	bad := func(p *Prop, hint, format string, args ...any) { find(p, "", hint, format, args...) }
	pickTest := func() string {
		return "pick one of " + strings.Join(importer.TestNames(in.st), ", ") + " in the connector's Shape Data"
	}

	var test chart.Test
	switch {
	case !hasTest:
		bad(nil, fmt.Sprintf("draw transitions with the %q master of stencil %q", st.Masters.Transition, st.Name),
			noTestRow, names.Test)
	case strings.TrimSpace(tp.Value) == "":
		bad(&tp, pickTest(), noTestValue)
	default:
		v := strings.TrimSpace(tp.Value)
		if i := slices.IndexFunc(st.Tests, func(t chart.Test) bool { return t.Name == v }); i >= 0 {
			test, d.test = st.Tests[i], int32(i+1)
		} else {
			find(&tp, v, pickTest(), testUnknown, quote(v), st.Name)
		}
	}
	if vp, ok := findProp(s, names.Value); ok {
		if v := strings.TrimSpace(vp.Value); v != "" {
			d.value = in.value(v)
			if len(test.Values) > 0 && !slices.Contains(test.Values, v) {
				bad(&vp, "pick one of "+strings.Join(test.Values, ", "), testValue, test.Name, quote(v))
			}
		}
	}
	if op, ok := findProp(s, names.Order); ok {
		if v := strings.TrimSpace(op.Value); v != "" {
			order, err := strconv.Atoi(v)
			if err != nil || order < 0 {
				bad(&op, "number the transitions leaving a state 1, 2, 3... in the order their tests are tried (0 for document order)",
					"order %s is not a whole number", quote(v))
			}
			d.order = int32(order) // 0: document order
			if int(d.order) != order {
				n.flags |= fBigOrder
				if sh.orders == nil {
					sh.orders = make(map[*node]int)
				}
				sh.orders[n] = order
			}
		}
	}
	if sp, ok := findProp(s, names.Stack); ok {
		switch v := strings.TrimSpace(sp.Value); strings.ToLower(v) {
		case "", chart.StackNone:
		case chart.StackPush:
			d.push = true
		case chart.StackReturn:
			d.ret = true
			if sh.ret == nil {
				sh.ret = make(map[*node]diag.Pos)
			}
			sh.ret[n] = in.propPos(&sp, sh, n, name)
		default:
			bad(&sp, "pick one of none, push, return", "stack operation %s is not one of none, push, return", quote(v))
		}
	}
	if fp, ok := findProp(s, names.Final); ok {
		in.final(sh, n, &fp, names.Final, name)
	}
	n.draft = int32(sh.trans.n)
	*sh.trans.add() = d
}
