package visio

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// Interpret reads a chart from a drawing: with Options.Stencil, as a
// drawing made with that stencil; without, as a plain state diagram (see
// the package documentation for both readings). It calls doc.Resolve
// first, and [chart.Flatten] last: states drawn inside others (in a group
// or a container) are recorded as nested, then flattened. States get the
// Box they are drawn in when the drawing gives it. Only Options.Stencil is
// used.
//
// The chart is never nil. Its Diagnostics hold the document's own
// diagnostics followed by the interpretation's; the error, when not nil, is
// a [chart.Diagnostics] of those that are errors. The chart's strings do not
// share memory with the file.
func Interpret(doc *Document, opt Options) (*chart.Chart, error) {
	return interpret(doc, opt, false)
}

// interpret is Interpret; consume says that the caller drops doc after
// it (Read does), so that interpret may drop the parts of doc it no longer
// needs as it goes, leaving their memory to the chart.
func interpret(doc *Document, opt Options, consume bool) (*chart.Chart, error) {
	doc.Resolve()
	in := &interp{
		doc:     doc,
		st:      opt.Stencil,
		c:       &chart.Chart{Name: chartName(doc), File: doc.File, Stencil: opt.Stencil},
		consume: consume,
	}
	if in.st != nil {
		in.props = in.st.PropertyNames()
		in.roles = make(map[*Master]chart.Role)
	}
	for _, d := range doc.Diagnostics {
		d.Pos = in.strs.Pos(d.Pos)
		in.c.Diagnostics = append(in.c.Diagnostics, d)
	}
	in.run()
	if in.st != nil {
		in.initialAncestors()
	}
	chart.Flatten(in.c)
	if in.c.States == nil {
		in.c.States = []chart.State{}
	}
	if in.c.Transitions == nil {
		in.c.Transitions = []chart.Transition{}
	}
	return in.c, in.c.Diagnostics.Err()
}

// chartName is the file's base name without its extension, or the
// document's title when it has no file name.
func chartName(doc *Document) string {
	if doc.File == "" {
		return doc.Title
	}
	base := filepath.Base(doc.File)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// interp holds the state of one Interpret call.
type interp struct {
	doc   *Document
	st    *chart.Stencil // nil for a plain state diagram
	props chart.Properties
	roles map[*Master]chart.Role
	c     *chart.Chart
	strs  importer.Strings // strings of the chart, cloned from the file once

	consume bool // the document is dropped after: see interpret

	// The last position's file and shape ID (see file and shapeID).
	lastPart, lastFile string
	lastShape          *Shape
	lastPrefix, lastID string
}

// node is a shape of the page being read, with what the reading found
// out about it.
type node struct {
	s          *Shape
	parent     *node
	id         string // chart ID, for states
	role       chart.Role
	state      bool
	glued      bool  // plain: a connector is glued to it
	gluedBelow bool  // plain: a connector is glued to one of its members
	container  bool  // a container (Relationships cell) holds shapes
	inState    *node // the first container holding it that is a state
	inStateSet bool  // inState is computed
	begin, end glue  // for a connector: what its ends are glued to
	skip       bool  // no ID, or another shape's: left out
}

// glue is what a connector's end is glued to, according to Connects.
type glue struct {
	set   bool   // a Connect row names this end
	to    *node  // the shape it names
	stale string // the shape ID it names, when no shape has it
}

// pos returns the chart position of p, on page pg, for shape s named name,
// where s's ID takes the prefix of its page.
func (in *interp) pos(p Pos, pg *Page, s *Shape, prefix, name string) chart.Pos {
	cp := chart.Pos{File: in.file(p.Part), Line: p.Line, Col: p.Col, ShapeName: in.strs.Clone(name)}
	if pg != nil {
		cp.Page = in.strs.Clone(pg.Label())
	}
	if s != nil {
		cp.Shape = in.shapeID(prefix, s)
	}
	return cp
}

// file returns the file's name, followed by the part's for a package, as
// chart positions give it: "drawing.vsdx!visio/pages/page1.xml". It keeps
// the last, as positions come part after part.
func (in *interp) file(part string) string {
	if part != in.lastPart || in.lastFile == "" {
		f := in.doc.File
		if part != "" {
			f += "!" + part
		}
		in.lastPart, in.lastFile = part, in.strs.Clone(f)
	}
	return in.lastFile
}

// shapeID returns the chart ID of shape s, which takes the prefix of its
// page: a copy, made once for the positions and the ID of a state or a
// transition, which come one after the other (shape IDs are unique: they
// are not worth interning).
func (in *interp) shapeID(prefix string, s *Shape) string {
	if s != in.lastShape || prefix != in.lastPrefix {
		id := prefix + s.ID
		if prefix == "" {
			id = strings.Clone(id)
		}
		in.lastShape, in.lastPrefix, in.lastID = s, prefix, id
	}
	return in.lastID
}

func (in *interp) diag(sev chart.Severity, at chart.Pos, hint, format string, args ...any) {
	in.c.Diagnostics = append(in.c.Diagnostics, chart.Diagnostic{
		Pos: at, Severity: sev, Message: "visio: " + fmt.Sprintf(format, args...), Hint: hint,
	})
}

func (in *interp) run() {
	doc := in.doc
	if len(doc.Pages) == 0 {
		in.diag(chart.Error, chart.Pos{File: in.strs.Clone(doc.File)}, "a stencil (.vsx) or a template (.vtx) has no pages: open the drawing made with it",
			"the drawing has no pages")
		return
	}
	if !slices.ContainsFunc(doc.Pages, func(pg *Page) bool { return !pg.Background }) {
		in.diag(chart.Error, chart.Pos{File: in.strs.Clone(doc.File)}, "", "the drawing has only background pages")
		return
	}
	if in.st != nil && !in.checkMasters() {
		return
	}
	first := true
	for _, pg := range doc.Pages {
		if pg.Background {
			in.diag(chart.Note, in.pos(pg.Pos, pg, nil, "", ""), "", "background page: its shapes are not part of the chart")
			continue
		}
		prefix := pg.ID + "/"
		if first {
			prefix, first = "", false
		}
		in.page(pg, prefix)
	}
	importer.NumberOrders(in.c.Transitions)
}

// initialAncestors marks Initial the compound states around a state of
// the initial-state master: the machine starts in it, so in each of them.
// (In a plain diagram, a start pseudo-state inside a compound only says
// which of its states a transition into it enters.)
func (in *interp) initialAncestors() {
	index := make(map[string]int, len(in.c.States))
	for i := range in.c.States {
		index[in.c.States[i].ID] = i
	}
	for i := range in.c.States {
		if !in.c.States[i].Initial {
			continue
		}
		// Climb to the first compound already marked: it is marked by a
		// climb that went on above it, or is an initial state that climbs
		// on its own turn. Each state is so climbed through once, cycles
		// (Flatten's to report) included.
		for p := in.c.States[i].Parent; p != ""; {
			j, ok := index[p]
			if !ok || in.c.States[j].Initial {
				break
			}
			in.c.States[j].Initial = true
			p = in.c.States[j].Parent
		}
	}
}

// isPart reports whether s is a member of an instance of a group master:
// part of its group's picture, not a shape of its own.
func isPart(s *Shape) bool { return s.MasterID == "" && s.MasterShapeID != "" }

// whole returns the shape n is part of: n itself, or the group whose
// master's picture n belongs to.
func whole(n *node) *node {
	for n.parent != nil && isPart(n.s) {
		n = n.parent
	}
	return n
}

func (in *interp) page(pg *Page, prefix string) {
	strict := in.st != nil
	sev := chart.Warning // of a problem that drops a transition
	if strict {
		sev = chart.Error
	}

	// Index the page's shapes, groups' members included, in document order.
	count := 0
	var countShapes func([]*Shape)
	countShapes = func(shapes []*Shape) {
		for _, s := range shapes {
			count++
			countShapes(s.Shapes)
		}
	}
	countShapes(pg.Shapes)
	nodes := make([]node, 0, count)
	byID := make(map[string]*node, count)
	var index func([]*Shape, *node)
	index = func(shapes []*Shape, parent *node) {
		for _, s := range shapes {
			nodes = append(nodes, node{s: s, parent: parent})
			n := &nodes[len(nodes)-1]
			if _, dup := byID[s.ID]; dup || s.ID == "" {
				msg := "shape ID " + s.ID + " is used twice on the page; the second shape is ignored"
				if s.ID == "" {
					msg = "shape without an ID; ignored"
				}
				in.diag(sev, in.pos(s.Pos, pg, s, prefix, displayName(s)), "the file is damaged; re-save it from Visio", "%s", msg)
				n.skip = true
			} else {
				byID[s.ID] = n
			}
			index(s.Shapes, n)
		}
	}
	index(pg.Shapes, nil)

	// Containers: which shapes hold which, from the Relationships cells
	// of both.
	var containerOf map[string][]string // member ID -> container IDs, in file order
	seen := make(map[[2]string]bool)    // member and container
	link := func(member, container string) {
		if k := [2]string{member, container}; !seen[k] {
			seen[k] = true
			if containerOf == nil {
				containerOf = make(map[string][]string)
			}
			containerOf[member] = append(containerOf[member], container)
		}
	}
	for i := range nodes {
		n := &nodes[i]
		for _, m := range n.s.Members {
			link(m, n.s.ID)
		}
		for _, c := range n.s.Containers {
			link(n.s.ID, c)
		}
	}
	for _, cs := range containerOf {
		for _, c := range cs {
			if n := byID[c]; n != nil {
				n.container = true
			}
		}
	}

	// Glue.
	for _, c := range pg.Connects {
		from := byID[c.FromSheet]
		if from == nil {
			in.diag(chart.Warning, in.pos(c.Pos, pg, nil, prefix, ""), "",
				"a Connect row glues shape %s, which is not on the page; ignored", c.FromSheet)
			continue
		}
		var end *glue
		switch c.FromCell {
		case "BeginX":
			end = &from.begin
		case "EndX":
			end = &from.end
		default:
			continue // a 2-D shape or a control handle glued: no transition end
		}
		if end.set {
			in.diag(chart.Warning, in.pos(c.Pos, pg, from.s, prefix, displayName(from.s)), "",
				"a second Connect row glues the %s of the connector; the first is kept", endName(c.FromCell))
			continue
		}
		end.set = true
		if end.to = byID[c.ToSheet]; end.to == nil {
			end.stale = c.ToSheet
		}
	}
	if in.consume {
		pg.Connects = nil // read: their memory is the chart's
	}

	// Which shapes are states and transitions.
	if strict {
		for i := range nodes {
			n := &nodes[i]
			if n.s.MasterID != "" && n.s.Master != nil && !n.skip {
				n.role = in.roles[n.s.Master]
			}
			n.state = n.role == chart.RoleState || n.role == chart.RoleInitial
		}
	} else {
		for i := range nodes {
			n := &nodes[i]
			if !n.s.OneD {
				continue
			}
			for _, g := range [2]glue{n.begin, n.end} {
				if g.to == nil {
					continue
				}
				t := whole(g.to)
				t.glued = true
				for a := t.parent; a != nil && !a.gluedBelow; a = a.parent {
					a.gluedBelow = true
				}
			}
		}
		for i := range nodes {
			n := &nodes[i]
			n.state = !n.skip && plainState(n)
			if !n.state {
				continue
			}
			if what, lacks := unsupported(n.s); what != "" {
				in.diag(chart.Error, in.pos(n.s.Pos, pg, n.s, prefix, displayName(n.s)),
					"draw the machine without it",
					"%s is not supported (charts have no %s); the shape is left out", what, lacks)
				n.state = false
			}
		}
	}

	states, transitions := 0, 0
	for i := range nodes {
		n := &nodes[i]
		if n.state {
			states++
		}
		if in.isTransition(n) {
			transitions++
		}
	}
	in.c.States = slices.Grow(in.c.States, states)
	in.c.Transitions = slices.Grow(in.c.Transitions, transitions)
	for i := range nodes {
		if n := &nodes[i]; n.state {
			in.state(pg, n, prefix, parentState(n, byID, containerOf))
		}
	}
	unmastered := 0
	for i := range nodes {
		n := &nodes[i]
		switch {
		case in.isTransition(n):
			in.transition(pg, n, prefix, sev)
		case strict && n.role == chart.RoleNone && n.s.MasterID == "" && !isPart(n.s) && !n.skip:
			if n.s.OneD && (n.begin.set || n.end.set) {
				in.diag(chart.Warning, in.pos(n.s.Pos, pg, n.s, prefix, chart.NormalizeSpace(n.s.Text)),
					fmt.Sprintf("draw transitions with the stencil's %q master", in.st.Masters.Transition),
					"connector drawn without a master of stencil %q: not a transition; ignored", in.st.Name)
			} else {
				unmastered++
			}
		}
	}
	if unmastered > 0 {
		in.diag(chart.Note, in.pos(pg.Pos, pg, nil, "", ""), "", "%d shapes drawn without a master are not part of the chart", unmastered)
	}
}

// isTransition reports whether a shape is read as a transition: a shape of
// the stencil's transition master, or a 1-D shape of a plain diagram.
func (in *interp) isTransition(n *node) bool {
	if in.st != nil {
		return n.role == chart.RoleTransition
	}
	return n.s.OneD && !isPart(n.s) && !n.skip
}

func endName(cell string) string {
	if cell == "BeginX" {
		return "start"
	}
	return "end"
}

// parentState returns the state a state is drawn inside: the nearest
// group around it that is a state, or a container that holds it (or holds
// a group around it) and is a state; nil if none. Each shape's containers
// are looked at once.
func parentState(n *node, byID map[string]*node, containerOf map[string][]string) *node {
	for x := n; x != nil; x = x.parent {
		if x != n && x.state {
			return x
		}
		if !x.inStateSet {
			x.inStateSet = true
			for _, id := range containerOf[x.s.ID] {
				if c := byID[id]; c != nil && c != x && c.state {
					x.inState = c
					break
				}
			}
		}
		if c := x.inState; c != nil && c != n {
			return c
		}
	}
	return nil
}

// plainState reports whether a shape of a plain state diagram is a state:
// a 2-D shape at the top of the page (not a guide, a picture, a group that
// only holds states, or a container no connector is glued to), or any 2-D
// shape a connector is glued to.
func plainState(n *node) bool {
	s := n.s
	switch {
	case s.OneD || s.Type == "Guide" || isPart(s):
		return false
	case n.glued:
		return true
	case n.parent != nil || s.Type == "Foreign" || n.container:
		return false
	case n.gluedBelow && strings.TrimSpace(s.Text) == "":
		return false // a frame around states
	}
	return true
}

// stateText returns the text that names a state: its shape's, or when it
// has none, the first text of the members of its master's picture (a UML
// state master draws its name in a member).
func stateText(s *Shape) string {
	if strings.TrimSpace(s.Text) != "" {
		return s.Text
	}
	for _, m := range s.Shapes {
		if isPart(m) {
			if t := stateText(m); t != "" {
				return t
			}
		}
	}
	return ""
}

// box returns where a state is drawn on its page, in pixels from the top
// left corner, or nil when the drawing does not say. A member's cells are
// relative to its group. Rotation is ignored.
func box(n *node, pg *Page) *chart.Box {
	if pg.Height <= 0 {
		return nil
	}
	x, y, ok := n.s.XForm.origin()
	if !ok {
		return nil
	}
	for a := n.parent; a != nil; a = a.parent {
		ax, ay, ok := a.s.XForm.origin()
		if !ok {
			return nil
		}
		x, y = x+ax, y+ay
	}
	w, h := n.s.XForm.Width, n.s.XForm.Height
	if w < 0 {
		x, w = x+w, -w
	}
	if h < 0 {
		y, h = y+h, -h
	}
	b := &chart.Box{X: pixels(x), Y: pixels(pg.Height - y - h), W: pixels(w), H: pixels(h)}
	for _, v := range [...]float64{b.X, b.Y, b.W, b.H} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil // cells too large to be a place on a page
		}
	}
	return b
}

// pixels converts inches to pixels of 1/96 inch, to a thousandth.
func pixels(inches float64) float64 {
	return math.Round(inches*96*1000) / 1000
}

func (in *interp) state(pg *Page, n *node, prefix string, parent *node) {
	s := n.s
	n.id = in.shapeID(prefix, s)
	st := chart.State{ID: n.id, Box: box(n, pg)}
	if parent != nil {
		st.Parent = in.strs.Clone(prefix + parent.s.ID)
	}
	text := stateText(s)
	if in.st == nil {
		st.Name = in.strs.Clone(chart.NormalizeSpace(text))
		st.Kind = kindOf(s)
		st.Initial = st.Kind == chart.StartState
		st.Pos = in.pos(s.Pos, pg, s, prefix, st.Name)
		in.c.States = append(in.c.States, st)
		return
	}
	if p, ok := findProp(s, in.props.Name); ok {
		st.Name = chart.NormalizeSpace(p.Value)
	}
	if st.Name == "" {
		st.Name = chart.NormalizeSpace(text)
	}
	st.Name = in.strs.Clone(st.Name)
	st.Initial = n.role == chart.RoleInitial
	st.Pos = in.pos(s.Pos, pg, s, prefix, st.Name)
	for _, a := range in.st.Actions {
		p, ok := findProp(s, a.Name)
		if !ok {
			continue // reported with the master
		}
		v := strings.TrimSpace(p.Value)
		if v == "" {
			continue
		}
		at := in.propPos(&p, pg, s, prefix, st.Name)
		if !slices.Contains(a.Values, v) {
			in.diag(chart.Error, at, "pick one of "+strings.Join(a.Values, ", ")+" in the state's Shape Data",
				"state %q: %s value %q is not in the drop-list of stencil %q", st.Name, a.Name, v, in.st.Name)
			continue
		}
		st.Entry = append(st.Entry, chart.Action{Property: in.strs.Clone(a.Name), Value: in.strs.Clone(v), Pos: at})
	}
	in.c.States = append(in.c.States, st)
}

// propPos is where a property's value was set: its row when the shape sets
// it, the shape otherwise.
func (in *interp) propPos(p *Prop, pg *Page, s *Shape, prefix, name string) chart.Pos {
	if p.Set&CellValue != 0 {
		return in.pos(p.Pos, pg, s, prefix, name)
	}
	return in.pos(s.Pos, pg, s, prefix, name)
}

func (in *interp) transition(pg *Page, n *node, prefix string, sev chart.Severity) {
	s := n.s
	label := strings.TrimSpace(s.Text)
	at := in.pos(s.Pos, pg, s, prefix, chart.NormalizeSpace(label))
	strict := in.st != nil
	what, ignored := "connector", "; ignored"
	if strict {
		what, ignored = "transition", ""
	}
	const reglue = "drag the connector's end onto the shape until the shape is outlined, so that it is glued"
	switch {
	case n.begin.stale != "" || n.end.stale != "":
		end, id := "start", n.begin.stale
		if id == "" {
			end, id = "end", n.end.stale
		}
		in.diag(sev, at, "the file is inconsistent; "+reglue,
			"the %s of the %s is glued to shape %s, which is not on the page%s", end, what, id, ignored)
		return
	case n.begin.to == nil && n.end.to == nil && !strict:
		in.diag(chart.Note, at, "", "connector glued to no shape; ignored")
		return
	case n.begin.to == nil:
		in.diag(sev, at, reglue, "the start of the %s is glued to no state%s", what, ignored)
		return
	}
	t := chart.Transition{ID: in.shapeID(prefix, s), Label: in.strs.Clone(label), Pos: at}
	from := whole(n.begin.to)
	switch {
	case from.state:
		t.From = from.id
	case strict && from.role == chart.RoleAnyState:
		t.AnyState = true
	default:
		in.diag(sev, at, "", "the start of the %s is glued to %s, which is not a state%s", what, describe(from.s), ignored)
		return
	}
	if n.end.to == nil {
		t.Target.Kind = chart.ToFinal
	} else if to := whole(n.end.to); to.state {
		t.Target = chart.Target{Kind: chart.ToState, State: to.id}
	} else {
		hint := ""
		if strict && to.role == chart.RoleAnyState {
			hint = "a message handler only starts transitions"
		}
		in.diag(sev, at, hint, "the end of the %s is glued to %s, which is not a state%s", what, describe(to.s), ignored)
		return
	}
	if strict {
		if !in.stencilTransition(&t, pg, s, prefix) {
			return
		}
	} else {
		t.Event, t.Guard, t.Action = chart.ParseLabel(label)
		t.Event, t.Guard, t.Action = in.strs.Clone(t.Event), in.strs.Clone(t.Guard), in.strs.Clone(t.Action)
		t.Test = t.Event
		if t.Test == "" {
			t.Test = t.Guard
		}
	}
	in.c.Transitions = append(in.c.Transitions, t)
}

// displayName names a shape for people: by its text, or its Visio name.
func displayName(s *Shape) string {
	if t := chart.NormalizeSpace(s.Text); t != "" {
		return t
	}
	return s.Label()
}

func describe(s *Shape) string {
	if name := chart.NormalizeSpace(s.Text); name != "" {
		return fmt.Sprintf("shape %s %q", s.ID, importer.Shorten(name, 40))
	}
	return fmt.Sprintf("shape %s (%s)", s.ID, s.Label())
}

// stencilTransition reads a transition's test, value, order and stack
// operation from its custom properties; it reports whether they are valid.
func (in *interp) stencilTransition(t *chart.Transition, pg *Page, s *Shape, prefix string) bool {
	st, names := in.st, in.props
	valid := true
	tp, hasTest := findProp(s, names.Test)
	if t.Pos.ShapeName == "" { // a connector without text: name it by its test
		t.Pos.ShapeName = in.strs.Clone(strings.TrimSpace(tp.Value))
	}
	bad := func(p *Prop, hint, format string, args ...any) {
		at := t.Pos
		if p != nil {
			at = in.propPos(p, pg, s, prefix, t.Pos.ShapeName)
		}
		in.diag(chart.Error, at, hint, format, args...)
		valid = false
	}
	pickTest := func() string {
		return "pick one of " + strings.Join(importer.TestNames(in.st), ", ") + " in the connector's Shape Data"
	}

	var test chart.Test
	switch {
	case !hasTest:
		bad(nil, fmt.Sprintf("draw transitions with the %q master of stencil %q", st.Masters.Transition, st.Name),
			"transition without a %q property", names.Test)
	case strings.TrimSpace(tp.Value) == "":
		bad(&tp, pickTest(), "transition without a test")
	default:
		t.Test = in.strs.Clone(strings.TrimSpace(tp.Value))
		var found bool
		if test, found = st.Test(t.Test); !found {
			bad(&tp, pickTest(), "test %q is not in stencil %q", t.Test, st.Name)
		}
	}
	if vp, ok := findProp(s, names.Value); ok {
		if v := strings.TrimSpace(vp.Value); v != "" {
			t.Value = in.strs.Clone(v)
			if len(test.Values) > 0 && !slices.Contains(test.Values, v) {
				bad(&vp, "pick one of "+strings.Join(test.Values, ", "), "test %q does not take value %q", test.Name, v)
			}
		}
	}
	if op, ok := findProp(s, names.Order); ok {
		if v := strings.TrimSpace(op.Value); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				bad(&op, "number the transitions leaving a state 1, 2, 3... in the order their tests are tried (0 for document order)",
					"order %q is not a whole number", v)
			}
			t.Order = n // 0: document order
		}
	}
	if sp, ok := findProp(s, names.Stack); ok {
		switch v := strings.TrimSpace(sp.Value); strings.ToLower(v) {
		case "", chart.StackNone:
		case chart.StackPush:
			t.Push = true
		case chart.StackReturn:
			if t.Target.Kind == chart.ToState {
				bad(&sp, "unglue the end of the connector: a returning transition goes to the state on top of the stack",
					"a returning transition is glued at its end to state %s", t.Target.State)
			}
			t.Target = chart.Target{Kind: chart.ToReturn}
		default:
			bad(&sp, "pick one of none, push, return", "stack operation %q is not one of none, push, return", v)
		}
	}
	return valid
}

// findProp finds the property a stencil names, as inherited: by row name,
// local name, then label (the seed's code matched labels).
func findProp(s *Shape, name string) (Prop, bool) {
	if p, ok := s.Prop(name); ok {
		return p, true
	}
	for sh := s; sh != nil; sh = sh.Base {
		for i := range sh.Props {
			if sh.Props[i].Label == name && !sh.Props[i].Deleted {
				if p, ok := s.Prop(sh.Props[i].Row); ok {
					return p, true
				}
			}
		}
	}
	return Prop{}, false
}

// checkMasters compares the masters the drawing uses with the stencil. It
// returns false when the drawing was made with another stencil altogether.
func (in *interp) checkMasters() bool {
	st := in.st
	type use struct {
		shapes int
		first  *Shape
		page   *Page
	}
	uses := make(map[*Master]*use)
	var order []*Master
	shapes := 0
	var walk func(*Page, []*Shape)
	walk = func(pg *Page, list []*Shape) {
		for _, s := range list {
			shapes++
			if m := s.Master; m != nil && s.MasterID != "" {
				u := uses[m]
				if u == nil {
					u = &use{first: s, page: pg}
					uses[m] = u
					order = append(order, m)
				}
				u.shapes++
			}
			walk(pg, s.Shapes)
		}
	}
	for _, pg := range in.doc.Pages {
		if !pg.Background {
			walk(pg, pg.Shapes)
		}
	}
	known := false
	for _, m := range order {
		r := st.Role(m.NameU)
		if r == chart.RoleNone && m.Name != "" {
			r = st.Role(m.Name)
		}
		in.roles[m] = r
		known = known || r != chart.RoleNone
	}
	if !known && shapes > 0 {
		names := make([]string, 0, len(order))
		for _, m := range order {
			names = append(names, strconv.Quote(m.Label()))
		}
		used := "no masters"
		if len(names) > 0 {
			used = "masters " + strings.Join(names, ", ")
		}
		in.diag(chart.Error, chart.Pos{File: in.strs.Clone(in.doc.File)},
			"read it with the stencil it was made with, or without a stencil, as a plain state diagram",
			"the drawing was not made with stencil %q: its shapes use %s, none of which is the stencil's %q or %q",
			st.Name, used, st.Masters.State, st.Masters.Transition)
		return false
	}
	for _, m := range order {
		r, u := in.roles[m], uses[m]
		if r == chart.RoleNone {
			in.diag(chart.Warning, in.pos(u.first.Pos, u.page, u.first, "", displayName(u.first)),
				"draw charts with the stencil's masters only; decorations belong on a background page",
				"master %q is not in stencil %q: its %d shapes are ignored", m.Label(), st.Name, u.shapes)
			continue
		}
		in.checkMaster(m, r)
	}
	return true
}

// checkMaster compares the custom properties of a master with those the
// stencil expects of it.
func (in *interp) checkMaster(m *Master, r chart.Role) {
	if len(m.Shapes) == 0 {
		return
	}
	st, names, base := in.st, in.props, m.Shapes[0]
	at := func(p *Prop) chart.Pos {
		pos := m.Pos
		if p != nil {
			pos = p.Pos
		}
		return in.pos(pos, nil, nil, "", m.Label())
	}
	const update = "update the drawing's master from the stencil, or the stencil file from the drawing"
	list := func(p *Prop, prop string, want []string) {
		got := p.List()
		if got == nil {
			in.diag(chart.Warning, at(p), update, "master %q: property %q is not a drop-list; stencil %q (version %s) lists %s",
				m.Label(), prop, st.Name, importer.Version(st), strings.Join(want, ";"))
			return
		}
		if !sameSet(got, want) {
			in.diag(chart.Warning, at(p), update,
				"master %q: the drop-list of %q is %s but stencil %q (version %s) lists %s: the drawing was made with another version of the stencil",
				m.Label(), prop, strings.Join(got, ";"), st.Name, importer.Version(st), strings.Join(want, ";"))
		}
	}
	var known []string
	switch r {
	case chart.RoleState, chart.RoleInitial:
		known = []string{names.Name}
		for _, a := range st.Actions {
			known = append(known, a.Name)
			p, ok := findProp(base, a.Name)
			if !ok {
				in.diag(chart.Warning, at(nil), update, "master %q has no property %q, which stencil %q (version %s) lists",
					m.Label(), a.Name, st.Name, importer.Version(st))
				continue
			}
			list(&p, a.Name, a.Values)
		}
	case chart.RoleTransition:
		known = []string{names.Test, names.Value, names.Order, names.Stack}
		p, ok := findProp(base, names.Test)
		if !ok {
			in.diag(chart.Warning, at(nil), update, "master %q has no property %q: its transitions have no test", m.Label(), names.Test)
			break
		}
		list(&p, names.Test, importer.TestNames(in.st))
	default:
		return
	}
	for i := range base.Props {
		p := &base.Props[i]
		if !slices.Contains(known, p.Row) && !slices.Contains(known, p.Name) && !slices.Contains(known, p.Label) {
			in.diag(chart.Note, at(p), "", "master %q: property %q is not in stencil %q; ignored", m.Label(), p.Row, st.Name)
		}
	}
}

func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// unsupported names what a shape of a plain diagram is that a chart cannot
// hold, and what charts lack, told by the words of its master's name (or
// its own): a history state, or a part of parallel regions (an orthogonal,
// concurrent or parallel state, a fork, a join); "" for other shapes.
func unsupported(s *Shape) (what, lacks string) {
	names := [2]string{s.NameU, s.Name}
	if s.Master != nil {
		names = [2]string{s.Master.NameU, s.Master.Name}
	}
	for _, name := range names {
		for _, w := range importer.Words(name) {
			switch w {
			case "history":
				return "a history state", "history"
			case "orthogonal":
				return "an orthogonal state", "parallel regions"
			case "concurrent", "parallel":
				return "a " + w + " state", "parallel regions"
			case "fork", "join":
				return "a " + w, "parallel regions"
			}
		}
	}
	return "", ""
}

// kindOf recognises the pseudo-states of a plain state diagram by the
// words of their master's name (or their own, without a master):
// "start" or "initial" for a start, "end" or "final" for an end, "decision"
// or "choice" for a choice. A flowchart terminator ("Start/End") is told
// by its text.
func kindOf(s *Shape) chart.StateKind {
	names := [2]string{s.NameU, s.Name}
	if s.Master != nil {
		names = [2]string{s.Master.NameU, s.Master.Name}
	}
	var start, end, choice, terminator bool
	for _, name := range names {
		for _, w := range importer.Words(name) {
			switch w {
			case "start", "initial":
				start = true
			case "end", "final":
				end = true
			case "decision", "choice":
				choice = true
			case "terminator":
				terminator = true
			}
		}
	}
	switch {
	case choice:
		return chart.ChoiceState
	case start && !end:
		return chart.StartState
	case end && !start:
		return chart.EndState
	case start || terminator:
		return importer.TerminatorKind(s.Text)
	}
	return chart.NormalState
}
