package drawio

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// The attributes fsmforge reads from the Edit Data of a cell (its object or
// UserObject wrapper), besides the stencil's properties.
const (
	// AttrRole names the stencil master a shape stands for: one of the
	// names of Stencil.Masters ("State", "Initial State", "Transition",
	// "Message Handler" for the Goomba), matched with Stencil.Role.
	AttrRole = "fsmforge"
	// AttrStencil names the stencil the shape comes from: a drawing made
	// with another stencil is refused.
	AttrStencil = "fsmforgeStencil"
	// AttrVersion is the version of that stencil: a drawing made with
	// another version is warned about.
	AttrVersion = "fsmforgeVersion"

	// In a plain diagram (read without a stencil), what the drawing alone
	// cannot say; Write sets them only where they are needed.

	// AttrInitial, "1" or "0", on a state: whether the machine starts in
	// it (by default, only start pseudo-states are initial).
	AttrInitial = "fsmforgeInitial"
	// AttrOrder, on an edge: the transition's Order (by default, its
	// position in document order, or the "2." that starts its label).
	AttrOrder = "fsmforgeOrder"
	// AttrTest, AttrEvent, AttrGuard, AttrAction, on an edge: the
	// transition's Test, Event, Guard and Action, when they are not what
	// its label says.
	AttrTest   = "fsmforgeTest"
	AttrEvent  = "fsmforgeEvent"
	AttrGuard  = "fsmforgeGuard"
	AttrAction = "fsmforgeAction"
)

// drawioAttrs are wrapper attributes draw.io itself uses.
var drawioAttrs = []string{"placeholders", "tooltip", "link", "linkTarget", "tags", AttrRole, AttrStencil, AttrVersion}

// class is what a cell is in a chart.
type class uint8

const (
	clNone    class = iota // not part of the chart
	clState                // a state or pseudo-state
	clFrame                // a group or frame: its members are read as if drawn outside it
	clLabel                // a label of an edge
	clEdge                 // an edge, read as a transition
	clHandler              // with a stencil, a message handler
	clLayer                // the root cell or a layer
)

// node is a cell of the page being read, with what the reading found out
// about it.
type node struct {
	c        *cell
	idx      int   // in the page's nodes
	parent   *node // nil at the top of the page
	kids     []*node
	class    class
	kind     chart.StateKind
	role     chart.Role
	text     string // the label as text
	id       string // chart ID, for states
	name     string // for messages
	attached int    // edges ending on it
	skip     bool   // no ID, or another cell's: left out
	src, dst *node  // an edge's ends
	stale    string // an end's cell ID that is not on the page
	staleEnd string // "start" or "end"
}

// interp holds the state of one interpretation.
type interp struct {
	doc   *document
	opt   Options
	st    *chart.Stencil // nil for a plain diagram
	props chart.Properties
	c     *chart.Chart
	strs  importer.Strings
	attrs map[attrKey]*attrUse // stencil: attributes unknown or missing, by role
	akeys []attrKey
	deep  error
	ids   map[string]bool // chart IDs given, across pages

	stateAttrs, edgeAttrs []string // stencil: the properties of states and transitions
}

type attrKey struct {
	role    chart.Role
	name    string
	missing bool
}

type attrUse struct {
	n  int
	at chart.Pos
}

// interpret reads a chart from a document.
func interpret(doc *document, opt Options) (*chart.Chart, error) {
	in := &interp{
		doc: doc,
		opt: opt,
		st:  opt.Stencil,
		c:   &chart.Chart{Name: chartName(doc.file), File: doc.file, Stencil: opt.Stencil},
		ids: make(map[string]bool),
	}
	if in.st != nil {
		in.props = in.st.PropertyNames()
		in.attrs = make(map[attrKey]*attrUse)
		in.stateAttrs = []string{in.props.Name}
		for _, a := range in.st.Actions {
			in.stateAttrs = append(in.stateAttrs, a.Name)
		}
		in.edgeAttrs = []string{in.props.Test, in.props.Value, in.props.Order, in.props.Stack}
	}
	for _, d := range doc.diags {
		d.Pos = in.strs.Pos(d.Pos)
		in.c.Diagnostics = append(in.c.Diagnostics, d)
	}
	in.run()
	if in.deep != nil {
		return nil, in.deep
	}
	if in.c.States == nil {
		in.c.States = []chart.State{}
	}
	if in.c.Transitions == nil {
		in.c.Transitions = []chart.Transition{}
	}
	return in.c, in.c.Diagnostics.Err()
}

// pos returns the position of a cell of page pg.
func (in *interp) pos(pg *page, c *cell, prefix, name string) chart.Pos {
	p := chart.Pos{File: in.doc.file, Page: pg.label(), ShapeName: name}
	if c != nil {
		p.Shape = prefix + c.id
		p.Line, p.Col = c.line, c.col
	} else {
		p.Line, p.Col = pg.line, pg.col
	}
	return in.strs.Pos(p)
}

func (in *interp) diag(sev chart.Severity, at chart.Pos, hint, format string, args ...any) {
	in.c.Diagnostics = append(in.c.Diagnostics, chart.Diagnostic{
		Pos: at, Severity: sev, Message: "drawio: " + fmt.Sprintf(format, args...), Hint: hint,
	})
}

// pageLink is the prefix of a link to a page of the same file.
const pageLink = "data:page/id,"

func (in *interp) run() {
	doc := in.doc
	if len(doc.pages) == 0 {
		in.diag(chart.Error, chart.Pos{File: in.strs.Clone(doc.file)}, "draw the chart on a page of the diagram", "the diagram has no pages")
		return
	}
	// A page linked from a shape of another page is a sub-diagram of that
	// shape (draw.io's "Link > Page"): a drill-down, not a part of the
	// chart. The first page always is.
	type linkInfo struct {
		pg *page
		c  *cell
	}
	links := make(map[string]linkInfo)
	for _, pg := range doc.pages {
		for i := range pg.cells {
			c := &pg.cells[i]
			if l, ok := c.get("link"); ok && strings.HasPrefix(l, pageLink) {
				id := strings.TrimPrefix(l, pageLink)
				if id != pg.id {
					if _, seen := links[id]; !seen {
						links[id] = linkInfo{pg, c}
					}
				}
			}
		}
	}
	var pages []*page
	for i, pg := range doc.pages {
		if l, ok := links[pg.id]; ok && i > 0 && pg.id != "" {
			from := fmt.Sprintf("shape %s", l.c.id)
			if t := chart.NormalizeSpace(labelText(l.c)); t != "" {
				from += " " + strconv.Quote(importer.Shorten(t, 40))
			}
			in.diag(chart.Note, in.pos(pg, nil, "", ""), "draw the states of a composite state inside its shape (a container) to make them part of the chart",
				"page %q is a sub-diagram linked from %s on page %q: its shapes are not part of the chart", pg.label(), from, l.pg.label())
			continue
		}
		pages = append(pages, pg)
	}
	if in.st != nil && !in.checkRoles(pages) {
		return
	}
	used := make(map[string]bool)
	for i, pg := range pages {
		prefix := ""
		if i > 0 {
			prefix = pg.id
			if prefix == "" {
				prefix = strconv.Itoa(pg.index + 1)
			}
			for base, n := prefix, 2; used[prefix]; n++ { // pages that share an ID
				prefix = base + "-" + strconv.Itoa(n)
			}
			used[prefix] = true
			prefix += "/"
		}
		in.page(pg, prefix)
		if in.deep != nil {
			return
		}
	}
	in.reportAttrs()
	importer.RankOrders(in.c, nil, "drawio")
	chart.Flatten(in.c, 0)
}

// page reads the states and transitions of a page.
func (in *interp) page(pg *page, prefix string) {
	strict := in.st != nil
	sev := chart.Warning // of a problem that drops a transition
	if strict {
		sev = chart.Error
	}
	nodes := make([]node, len(pg.cells))
	byID := make(map[string]*node, len(pg.cells))
	for i := range pg.cells {
		c := &pg.cells[i]
		n := &nodes[i]
		n.c, n.idx = c, i
		if _, dup := byID[c.id]; dup || c.id == "" {
			msg := "cell ID " + strconv.Quote(c.id) + " is used twice on the page; the second cell is ignored"
			if c.id == "" {
				msg = "cell without an ID; ignored"
			}
			in.diag(sev, in.pos(pg, c, prefix, ""), "the file is damaged; save it again from draw.io", "%s", msg)
			n.skip = true
			continue
		}
		byID[c.id] = n
	}

	// The root cell and the layers, then each cell's parent.
	for i := range nodes {
		n := &nodes[i]
		if !n.skip && n.c.parent == "" && !n.c.vertex && !n.c.edge {
			n.class = clLayer
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class == clLayer || n.c.vertex || n.c.edge {
			continue
		}
		if p, ok := byID[n.c.parent]; ok && p.class == clLayer && p.c.parent == "" {
			n.class = clLayer
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class == clLayer || n.c.parent == "" {
			continue
		}
		p, ok := byID[n.c.parent]
		switch {
		case !ok:
			in.diag(chart.Warning, in.pos(pg, n.c, prefix, ""), "the file is inconsistent; save it again from draw.io",
				"the parent of cell %s, %s, is not on the page; the cell is read as drawn at the top of the page", n.c.id, strconv.Quote(n.c.parent))
		case p.class != clLayer:
			n.parent = p
		}
	}
	if !in.nesting(pg, nodes, prefix) {
		return
	}
	for i := range nodes {
		if n := &nodes[i]; n.parent != nil && !n.skip {
			n.parent.kids = append(n.parent.kids, n)
		}
	}

	// The ends of the edges.
	for i := range nodes {
		n := &nodes[i]
		if n.skip || !n.c.edge || n.class == clLayer {
			continue
		}
		end := func(id, which string) *node {
			if id == "" {
				return nil
			}
			e, ok := byID[id]
			if !ok {
				if n.stale == "" {
					n.stale, n.staleEnd = id, which
				}
				return nil
			}
			e.attached++
			return e
		}
		n.src = end(n.c.source, "start")
		n.dst = end(n.c.target, "end")
	}

	// What each cell is.
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class == clLayer {
			continue
		}
		n.text = labelText(n.c)
		switch {
		case n.parent != nil && n.parent.c.edge:
			n.class = clLabel
		case n.c.edge:
			n.class = clEdge
			if strict {
				in.stencilEdge(pg, n, prefix)
			}
		case !n.c.vertex:
			n.class = clNone
		case strict:
			in.stencilVertex(pg, n, prefix)
		default:
			in.plainVertex(pg, n, prefix)
		}
	}

	// States in document order, then transitions.
	states, edges := 0, 0
	for i := range nodes {
		switch nodes[i].class {
		case clState:
			states++
		case clEdge:
			edges++
		}
	}
	in.c.States = slices.Grow(in.c.States, states)
	in.c.Transitions = slices.Grow(in.c.Transitions, edges)
	ignored := 0
	for i := range nodes {
		n := &nodes[i]
		if n.skip {
			continue
		}
		if (n.class == clState || n.class == clEdge) && in.ids[prefix+n.c.id] {
			// "4/36" on the first page, and 36 on page 4.
			in.diag(chart.Error, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "give the cell another ID, or the page another ID",
				"cell %s of page %q has the ID %q of a cell of another page; ignored", n.c.id, pg.label(), prefix+n.c.id)
			n.class = clNone
			continue
		}
		in.ids[prefix+n.c.id] = true
		_, hasRole := n.c.get(AttrRole)
		switch {
		case n.class == clState:
			in.state(pg, n, prefix)
		case n.class == clEdge && strict && n.role != chart.RoleTransition:
			if !in.unroledEdge(pg, n, prefix) && !hasRole {
				ignored++
			}
		case n.class == clNone && strict:
			if !hasRole {
				ignored++
			}
		case n.class == clNone && n.c.vertex && n.text != "":
			in.diag(chart.Note, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "", "%s is not a state; ignored", in.what(n))
		case n.class == clFrame && strings.HasPrefix(n.text, "$STATEMACHINE"):
			in.diag(chart.Note, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "",
				"the $STATEMACHINE shape (StateSmith's) is not a state: the states drawn in it are the chart's")
		case n.class == clNone || n.class == clFrame:
			ignored++
		}
	}
	if ignored > 0 {
		what := "shapes without text (groups, lines, images, empty boxes) are"
		if ignored == 1 {
			what = "shape without text (a group, a line, an image, an empty box) is"
		}
		if strict {
			what = "shapes without an " + AttrRole + " attribute are"
			if ignored == 1 {
				what = "shape without an " + AttrRole + " attribute is"
			}
		}
		in.diag(chart.Note, in.pos(pg, nil, "", ""), "", "%d %s not part of the chart", ignored, what)
	}
	for i := range nodes {
		n := &nodes[i]
		if !n.skip && n.class == clEdge && (!strict || n.role == chart.RoleTransition) {
			in.transition(pg, n, prefix, sev)
		}
	}
}

// nesting checks that parents do not form a cycle (a cell in a cycle is
// moved to the top) and that cells nest no deeper than Options.MaxDepth
// (else in.deep is set and it returns false). It costs one pass over the
// cells.
func (in *interp) nesting(pg *page, nodes []node, prefix string) bool {
	depth := make([]int, len(nodes))   // from 1 at the top of the page
	state := make([]uint8, len(nodes)) // 0: not seen, 1: on the path, 2: done
	var path []int
	for i := range nodes {
		if state[i] == 2 || nodes[i].skip {
			continue
		}
		path = path[:0]
		for k := i; ; {
			n := &nodes[k]
			if state[k] == 2 {
				break
			}
			if state[k] == 1 { // a cycle: the cells from k on
				j := slices.Index(path, k)
				ids := make([]string, 0, len(path)-j)
				for _, q := range path[j:] {
					ids = append(ids, nodes[q].c.id)
					nodes[q].parent = nil
					depth[q], state[q] = 1, 2
				}
				path = path[:j]
				in.diag(chart.Error, in.pos(pg, n.c, prefix, ""), "a cell cannot contain itself; the file is damaged",
					"cells %s are nested inside each other; they are read as drawn at the top of the page", strings.Join(ids, ", "))
				break
			}
			if n.parent == nil {
				depth[k], state[k] = 1, 2
				break
			}
			state[k] = 1
			path = append(path, k)
			k = n.parent.idx
		}
		for j := len(path) - 1; j >= 0; j-- {
			k := path[j]
			if state[k] == 2 {
				continue
			}
			depth[k], state[k] = depth[nodes[k].parent.idx]+1, 2
			if depth[k]-1 > in.opt.MaxDepth {
				in.deep = chart.Diagnostics{{Pos: in.pos(pg, nodes[k].c, prefix, ""), Err: ErrTooDeep,
					Message: fmt.Sprintf("drawio: cells nest more than %d deep", in.opt.MaxDepth),
					Hint:    "raise Options.MaxDepth if the diagram really nests this deep"}}
				return false
			}
		}
	}
	return true
}

// what describes a vertex for a note about it.
func (in *interp) what(n *node) string {
	shape := shapeOf(n.c.style)
	kind := "shape"
	switch shape {
	case "text":
		kind = "text"
	case "note":
		kind = "note"
	case "umlFrame":
		kind = "frame"
	case "image":
		kind = "image"
	}
	return fmt.Sprintf("%s %s %q", kind, n.c.id, importer.Shorten(chart.NormalizeSpace(n.text), 40))
}

// decorative lists the shapes that are not states unless an edge ends on
// them.
var decorative = []string{"text", "note", "umlFrame", "image", "line", "curlyBracket", "callout", "edgeLabel"}

// plainVertex classifies a vertex of a plain diagram.
func (in *interp) plainVertex(pg *page, n *node, prefix string) {
	c := n.c
	shape := shapeOf(c.style)
	visible := n.text
	if nl, _ := styleGet(c.style, "noLabel"); nl == "1" {
		visible = ""
	}
	n.class = clState
	ellipse := shape == "ellipse" || shape == "doubleEllipse"
	switch {
	case shape == "startState" || n.text == "$initial_state":
		n.kind = chart.StartState
	case shape == "endState":
		n.kind = chart.EndState
	case shape == "rhombus" || strings.HasPrefix(n.text, "$choice"):
		n.kind = chart.ChoiceState
	case strings.HasPrefix(n.text, "$STATEMACHINE"):
		n.class = clFrame
	case ellipse && (visible == "H" || visible == "H*"):
		in.diag(chart.Error, in.pos(pg, c, prefix, visible), "draw the state the machine returns to explicitly",
			"history pseudo-states are not supported")
		n.class = clNone
		n.text = ""
	case ellipse && visible == "":
		fill, _ := styleGet(c.style, "fillColor")
		switch {
		case shape == "doubleEllipse":
			n.kind = chart.EndState
		case isBlack(fill):
			n.kind = chart.StartState
		default:
			n.kind = chart.ChoiceState // a junction, or an entry or exit point
		}
	case n.attached > 0:
		// A shape an edge ends on is a state, whatever it looks like.
	case slices.Contains(decorative, shape) || shape == "line" || styleIs(c.style, "strokeColor", "none") && styleIs(c.style, "fillColor", "none"):
		n.class = clNone
	case shape == "group" || n.text == "" && hasVertexKids(n):
		n.class = clFrame
	}
	if shape == "line" && n.class == clNone && n.parent != nil && styleIs(c.style, "dashed", "1") {
		in.diag(chart.Error, in.pos(pg, c, prefix, ""), "draw the regions as separate machines",
			"a dashed line inside %s divides it into parallel regions, which are not supported", describe(n.parent))
	}
}

func styleIs(style, key, value string) bool {
	v, ok := styleGet(style, key)
	return ok && v == value
}

func hasVertexKids(n *node) bool {
	for _, k := range n.kids {
		if k.c.vertex {
			return true
		}
	}
	return false
}

// describe names a cell for messages: its ID and text, or its style.
func describe(n *node) string {
	if t := chart.NormalizeSpace(n.text); t != "" {
		return fmt.Sprintf("shape %s %q", n.c.id, importer.Shorten(t, 40))
	}
	if s := shapeOf(n.c.style); s != "" {
		return fmt.Sprintf("shape %s (%s)", n.c.id, s)
	}
	return "shape " + n.c.id
}

// parentState returns the ID of the state a state is drawn in, or "".
func parentState(n *node) string {
	for p := n.parent; p != nil; p = p.parent {
		if p.class == clState && p.kind == chart.NormalState {
			return p.id
		}
	}
	return ""
}

// box returns where a vertex is on its page, adding up the positions of
// the vertices it is drawn in.
func box(n *node) *chart.Box {
	g := &n.c.geo
	if !g.set || n.c.edge {
		return nil
	}
	b := &chart.Box{X: g.x, Y: g.y, W: g.w, H: g.h}
	for p := n.parent; p != nil; p = p.parent {
		pg := &p.c.geo
		if !pg.set || p.c.edge {
			break
		}
		if g.relative {
			b.X, b.Y = pg.x+b.X*pg.w, pg.y+b.Y*pg.h
		} else {
			b.X += pg.x
			b.Y += pg.y
		}
		g = pg
	}
	return b
}

// splitBehaviour splits a state's text into its name and the behaviours
// written under it (UML's "entry / action", StateSmith's "enter / ..."):
// the lines from the first line after the first that holds a '/'.
func splitBehaviour(text string) (name, behaviour string) {
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.Contains(lines[i], "/") {
			return chart.NormalizeSpace(strings.Join(lines[:i], " ")), strings.TrimSpace(strings.Join(lines[i:], "\n"))
		}
	}
	return chart.NormalizeSpace(text), ""
}

func (in *interp) state(pg *page, n *node, prefix string) {
	c := n.c
	n.id = in.strs.Clone(prefix + c.id)
	st := chart.State{ID: n.id, Kind: n.kind, Box: box(n)}
	if p := parentState(n); p != "" {
		st.Parent = p
	}
	if in.st == nil {
		text := n.text
		if nl, _ := styleGet(c.style, "noLabel"); nl == "1" {
			text = "" // not shown: StateSmith's "$initial_state"
		}
		name, behaviour := splitBehaviour(text)
		st.Name = in.strs.Clone(name)
		st.Initial = st.Kind == chart.StartState
		st.Pos = in.pos(pg, c, prefix, st.Name)
		if v, ok := c.get(AttrInitial); ok {
			switch strings.TrimSpace(v) {
			case "1", "true":
				st.Initial = true
			case "0", "false", "":
				st.Initial = false
			default:
				in.diag(chart.Warning, st.Pos, "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrInitial, v)
			}
		}
		if behaviour != "" {
			in.diag(chart.Note, st.Pos, "", "state %q: the behaviour written in it, %q, is not part of the chart", st.Name, importer.Shorten(chart.NormalizeSpace(behaviour), 40))
		}
		if g := c.geo.badNumber; g != "" {
			in.diag(chart.Warning, st.Pos, "", "geometry attribute %s is not a number; read as 0", g)
		}
		n.name = st.Name
		in.c.States = append(in.c.States, st)
		return
	}
	if v, ok := c.get(in.props.Name); ok {
		st.Name = chart.NormalizeSpace(v)
	}
	if st.Name == "" {
		st.Name = chart.NormalizeSpace(n.text)
	}
	st.Name = in.strs.Clone(st.Name)
	n.name = st.Name
	st.Initial = n.role == chart.RoleInitial
	st.Pos = in.pos(pg, c, prefix, st.Name)
	st.Entry = make([]chart.Action, 0, len(in.st.Actions))
	for _, a := range in.st.Actions {
		v, ok := c.get(a.Name)
		if !ok {
			in.noteAttr(n.role, a.Name, true, st.Pos)
			continue
		}
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if !slices.Contains(a.Values, v) {
			in.diag(chart.Error, st.Pos, "pick one of "+strings.Join(a.Values, ", ")+" in the state's Edit Data",
				"state %q: %s value %q is not in the drop-list of stencil %q", st.Name, a.Name, v, in.st.Name)
			continue
		}
		st.Entry = append(st.Entry, chart.Action{Property: in.strs.Clone(a.Name), Value: in.strs.Clone(v), Pos: st.Pos})
	}
	if len(st.Entry) == 0 {
		st.Entry = nil
	}
	in.unknownAttrs(n, in.stateAttrs, st.Pos)
	in.c.States = append(in.c.States, st)
}

// noteAttr records an attribute of a role missing from a shape, or one
// the stencil does not know.
func (in *interp) noteAttr(role chart.Role, name string, missing bool, at chart.Pos) {
	k := attrKey{role, name, missing}
	u := in.attrs[k]
	if u == nil {
		u = &attrUse{at: at}
		in.attrs[k] = u
		in.akeys = append(in.akeys, k)
	}
	u.n++
}

func (in *interp) unknownAttrs(n *node, known []string, at chart.Pos) {
	for _, a := range n.c.attrs {
		if !slices.Contains(known, a.name) && !slices.Contains(drawioAttrs, a.name) {
			in.noteAttr(n.role, a.name, false, at)
		}
	}
}

// reportAttrs reports the attributes noteAttr recorded, once per role and
// name, as visio reports a master's properties.
func (in *interp) reportAttrs() {
	const update = "draw with the shapes of the stencil's library (fsmforge stencil -format drawio), or update the stencil file"
	for _, k := range in.akeys {
		u := in.attrs[k]
		shapes := "shape"
		if u.n > 1 {
			shapes = strconv.Itoa(u.n) + " shapes"
		}
		if k.missing {
			in.diag(chart.Warning, u.at, update, "%s %s: no property %q, which stencil %q (version %s) lists",
				k.role, shapes, k.name, in.st.Name, importer.Version(in.st))
		} else {
			in.diag(chart.Note, u.at, "", "%s %s: property %q is not in stencil %q; ignored", k.role, shapes, k.name, in.st.Name)
		}
	}
}

// isArrowless reports whether an edge is drawn without arrowheads: a line,
// not a transition.
func isArrowless(style string) bool {
	end, _ := styleGet(style, "endArrow")
	start, _ := styleGet(style, "startArrow")
	return end == "none" && (start == "" || start == "none")
}

// orderPrefix reads the "2. " that starts a label as the transition's
// order, as StateSmith does.
func orderPrefix(label string) int {
	i := 0
	for i < len(label) && i < 6 && label[i] >= '0' && label[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(label) || label[i] != '.' || (label[i+1] != ' ' && label[i+1] != '\t' && label[i+1] != '\n') {
		return 0
	}
	n, _ := strconv.Atoi(label[:i])
	return n
}

// edgeLabel is an edge's text: its own label and those of its label cells.
func edgeLabel(n *node) string {
	if len(n.kids) == 0 {
		return n.text
	}
	var b strings.Builder
	b.WriteString(n.text)
	for _, k := range n.kids {
		if k.class == clLabel && k.text != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(k.text)
		}
	}
	return b.String()
}

func (in *interp) transition(pg *page, n *node, prefix string, sev chart.Severity) {
	c := n.c
	strict := in.st != nil
	label := edgeLabel(n)
	at := in.pos(pg, c, prefix, chart.NormalizeSpace(label))
	what, ignored := "edge", "; ignored"
	if strict {
		what, ignored = "transition", ""
	}
	if !strict && isArrowless(c.style) {
		if n.src != nil && n.src == n.dst && n.src.class == clState && styleIs(c.style, "dashed", "1") {
			in.diag(chart.Error, at, "draw the regions as separate machines",
				"a dashed line across %s divides it into parallel regions, which are not supported", describe(n.src))
			return
		}
		in.diag(chart.Note, at, "", "line without an arrowhead: not a transition; ignored")
		return
	}
	const reattach = "drag the end of the edge onto the shape until the shape is outlined, so that it is connected"
	switch {
	case n.stale != "":
		in.diag(sev, at, "the file is inconsistent; "+reattach,
			"the %s of the %s is attached to cell %q, which is not on the page%s", n.staleEnd, what, n.stale, ignored)
		return
	case n.src == nil && n.dst == nil && !strict:
		in.diag(chart.Note, at, "", "edge attached to no shape; ignored")
		return
	case n.src == nil:
		in.diag(chart.Error, at, reattach, "the start of the %s is attached to no state", what)
		return
	}
	t := chart.Transition{ID: in.strs.Clone(prefix + c.id), Label: in.strs.Clone(label), Pos: at}
	switch from := n.src; {
	case from.class == clState:
		t.From = from.id
	case strict && from.class == clHandler:
		t.AnyState = true
	default:
		in.diag(sev, at, "", "the start of the %s is attached to %s, which is not a state%s", what, describe(from), ignored)
		return
	}
	if n.dst == nil {
		t.Target.Kind = chart.ToFinal
	} else if to := n.dst; to.class == clState {
		t.Target = chart.Target{Kind: chart.ToState, State: to.id}
	} else {
		hint := ""
		if strict && to.class == clHandler {
			hint = "a message handler only starts transitions"
		}
		in.diag(sev, at, hint, "the end of the %s is attached to %s, which is not a state%s", what, describe(to), ignored)
		return
	}
	if strict {
		if !in.stencilTransition(&t, n) {
			return
		}
	} else {
		in.plainTransition(&t, n, label)
	}
	in.c.Transitions = append(in.c.Transitions, t)
}

// plainTransition reads a plain diagram's label: "2. event [guard] /
// action", then the fsmforge attributes that override it.
func (in *interp) plainTransition(t *chart.Transition, n *node, label string) {
	text := label
	if o := orderPrefix(label); o > 0 {
		t.Order = o
		text = label[strings.IndexByte(label, '.')+1:]
	}
	t.Event, t.Guard, t.Action = chart.ParseLabel(text)
	t.Test = t.Event
	if t.Test == "" {
		t.Test = t.Guard
	}
	c := n.c
	if v, ok := c.get(AttrEvent); ok {
		t.Event = v
	}
	if v, ok := c.get(AttrGuard); ok {
		t.Guard = v
	}
	if v, ok := c.get(AttrAction); ok {
		t.Action = v
	}
	if v, ok := c.get(AttrTest); ok {
		t.Test = v
	}
	if v, ok := c.get(AttrOrder); ok {
		o, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || o < 0 {
			in.diag(chart.Warning, t.Pos, "write a whole number from 1 (0 for document order)", "%s %q is not a whole number; ignored", AttrOrder, v)
		} else {
			t.Order = o
		}
	}
	t.Event, t.Guard, t.Action, t.Test = in.strs.Clone(t.Event), in.strs.Clone(t.Guard), in.strs.Clone(t.Action), in.strs.Clone(t.Test)
}
