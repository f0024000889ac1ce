package drawio

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// The attributes fsmforge reads from the Edit Data of a cell (its object or
// UserObject wrapper), besides the stencil's properties.
const (
	// AttrRole names the stencil master a shape stands for (the default
	// of ReadOptions.RoleKey, which names another attribute): one of the
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

	// AttrChain, "1" or "0", and AttrChainLimit, a whole number, in the
	// Edit Data of the diagram itself (Edit Data with nothing selected,
	// kept on the page's root cell): the chart's Chain and ChainLimit,
	// how its machine runs. Read from the first page that sets them.
	AttrChain      = "fsmforgeChain"
	AttrChainLimit = "fsmforgeChainLimit"

	// AttrFallback, in the Edit Data of the diagram itself, as AttrChain:
	// the chart's Fallback, the name of the state where a running game
	// (package reload) sends the agents of a state that a new version of
	// the drawing no longer has; empty for the initial state. Read from
	// the first page that sets it.
	AttrFallback = "fsmforgeFallback"

	// AttrFinal, "1" or "0", on an edge whose end is glued to no shape:
	// the machine ends there on purpose, so no warning says that the
	// arrow's end may have come loose.
	AttrFinal = "fsmforgeFinal"

	// AttrParallel, "1" or "0", on a state: whether it is a parallel
	// state, whose children (containers drawn inside it) are its regions,
	// all active at once.
	AttrParallel = "fsmforgeParallel"
	// AttrAlso, on an edge, names (by cell ID) the edge of a transition
	// that enters several states at once, in the regions of a parallel
	// state: the edge is not a transition of its own, but one more target
	// of that transition (Transition.Also), where the edge ends.
	AttrAlso = "fsmforgeAlso"
	// AttrInternal, "1" or "0", on an edge: the transition is internal
	// (Transition.Internal): one to states inside the state it leaves
	// does not leave it.
	AttrInternal = "fsmforgeInternal"
	// AttrStatechart, "1" or "0", in the Edit Data of the diagram itself,
	// as AttrChain: the chart's Statechart, whether it runs as an SCXML
	// statechart even without nested states.
	AttrStatechart = "fsmforgeStatechart"

	// AttrName, on a state: its name, where its label does not give it
	// (a history's label is H or H*, not its name). In the Edit Data of
	// the diagram itself, as AttrChain: the chart's Name, where the
	// file's name does not give it.
	AttrName = "fsmforgeName"
	// AttrEntry and AttrExit, on a state: its entry and exit actions
	// (State.Entry, State.Exit); AttrActions, on an edge: the actions
	// performed while the transition is taken (Transition.Actions). One
	// action a line: PROPERTY=VALUE (a game action), raise EVENT, send
	// EVENT after SECONDS s as TIMER (the delay and the timer optional),
	// cancel TIMER, each after an optional [guard]; a word with spaces,
	// '"' or '=' is quoted as a Go string ("walk left").
	AttrEntry   = "fsmforgeEntry"
	AttrExit    = "fsmforgeExit"
	AttrActions = "fsmforgeActions"
	// AttrStay, "1" or "0", on an edge drawn from a state back to it (or
	// with a loose end): the transition has no target (chart.ToNone): it
	// performs its actions, and the machine stays in the states it is
	// in, leaving none.
	AttrStay = "fsmforgeStay"
)

// drawioAttrs are wrapper attributes draw.io itself uses.
var drawioAttrs = []string{"placeholders", "tooltip", "link", "linkTarget", "tags", AttrRole, AttrStencil, AttrVersion}

// class is what a cell is in a chart.
type class uint8

const (
	clNone     class = iota // not part of the chart
	clState                 // a state or pseudo-state
	clFrame                 // a group or frame: its members are read as if drawn outside it
	clLabel                 // a label of an edge
	clEdge                  // an edge, read as a transition
	clHandler               // with a stencil, a message handler
	clLayer                 // the root cell or a layer
	clNotes                 // StateSmith's notes and settings: left out with what they hold
	clBad                   // a vertex reported as an error: left out with its edges
	clAlias                 // StateSmith's $PARENT_ALIAS: stands for the state it is drawn in
	clInner                 // StateSmith's inner handler text: part of the label of the state it is in
	clContinue              // StateSmith's $HC: not a state, it continues a history
	clAlso                  // an edge that adds a target to a transition (AttrAlso)
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
	text     string            // the label as text
	id       string            // chart ID, for states
	name     string            // for messages
	attached int               // edges ending on it
	skip     bool              // no ID, or another cell's: left out
	src, dst *node             // an edge's ends
	stale    string            // an end's cell ID that is not on the page
	staleEnd string            // "start" or "end"
	ss       statesmith.Vertex // in a StateSmith drawing, what the label says
}

// interp holds the state of one interpretation.
type interp struct {
	doc   *document
	opt   Options        // with its defaults
	st    *chart.Stencil // nil for a plain diagram
	props chart.Properties
	c     *chart.Chart
	strs  importer.Strings
	attrs map[attrKey]*attrUse // stencil: attributes unknown or missing, by role
	akeys []attrKey
	fatal error           // stops the reading: cells nested too deep, too many actions
	ids   map[string]bool // chart IDs given, across pages

	nactions int // the lines of actions read, against Options.MaxElements

	// A drawing made for StateSmith (a vertex labelled with one of its
	// keywords) is read with its conventions.
	ss    bool
	keys  []float64          // per transition, the order drawn ([importer.RankOrders])
	smith statesmith.Reading // entry and exit points, handlers, events

	stateAttrs, edgeAttrs []string // stencil: the properties of states and transitions
}

type attrKey struct {
	role    chart.Role
	name    string
	missing bool
}

type attrUse struct {
	n  int
	at diag.Pos
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
		in.edgeAttrs = []string{in.props.Test, in.props.Value, in.props.Order, in.props.Stack, in.props.Final}
	}
	for _, d := range doc.diags {
		d.Pos = in.strs.Pos(d.Pos)
		in.c.Diagnostics = append(in.c.Diagnostics, d)
	}
	in.run()
	if in.fatal != nil {
		return nil, in.fatal
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
func (in *interp) pos(pg *page, c *cell, prefix, name string) diag.Pos {
	p := diag.Pos{File: in.doc.file, Page: pg.label(), ShapeName: name}
	if c != nil {
		p.Shape = prefix + c.id
		p.Line, p.Col = c.line, c.col
	} else {
		p.Line, p.Col = pg.line, pg.col
	}
	return in.strs.Pos(p)
}

func (in *interp) diag(sev diag.Severity, at diag.Pos, hint, format string, args ...any) {
	in.c.Diagnostics = append(in.c.Diagnostics, diag.Diagnostic{
		Pos: at, Severity: sev, Message: "drawio: " + fmt.Sprintf(format, args...), Hint: hint,
	})
}

// pageLink is the prefix of a link to a page of the same file.
const pageLink = "data:page/id,"

func (in *interp) run() {
	doc := in.doc
	if len(doc.pages) == 0 {
		in.diag(diag.Error, diag.Pos{File: in.strs.Clone(doc.file)}, "draw the chart on a page of the diagram", "the diagram has no pages")
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
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(pg.name)), "$notes") {
			in.diag(diag.Note, in.pos(pg, nil, "", ""), "", "page %q is StateSmith's notes page (its name starts with $notes): its shapes are not part of the chart", pg.label())
			continue
		}
		if l, ok := links[pg.id]; ok && i > 0 && pg.id != "" {
			from := fmt.Sprintf("shape %s", l.c.id)
			if t := chart.NormalizeSpace(labelText(l.c)); t != "" {
				from += " " + strconv.Quote(importer.Shorten(t, 40))
			}
			in.diag(diag.Note, in.pos(pg, nil, "", ""), "draw the states of a composite state inside its shape (a container) to make them part of the chart",
				"page %q is a sub-diagram linked from %s on page %q: its shapes are not part of the chart", pg.label(), from, l.pg.label())
			continue
		}
		pages = append(pages, pg)
	}
	if in.st != nil && !in.checkRoles(pages) {
		return
	}
	in.ss = in.st == nil && madeForStateSmith(pages)
	in.diagramData(pages)
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
		if in.fatal != nil {
			return
		}
	}
	in.reportAttrs()
	switch {
	case in.ss:
		in.report(in.smith.Finish(in.c), diag.Pos{}, "")
		in.report(in.smith.Hierarchy(in.c), diag.Pos{}, "")
	case in.st != nil:
		// The initial-state master's meaning in nested states: the
		// machine starts in its shape, so in each compound around it, up
		// to a level that marks its own. What package compile checks of
		// starts (their one transition, two at a level, one beside a
		// state marked initial) is left to it.
		in.report(importer.MarkInitialAncestors(in.c.States, in.st), diag.Pos{}, "")
		in.nested()
	default:
		in.nested()
		in.report(statesmith.CheckStarts(in.c), diag.Pos{}, "")
	}
	importer.RankOrders(in.c, in.keys, "drawio")
}

// report adds the problems package internal/statesmith found as
// diagnostics: about says what they are about (`state "A": `), and at is
// where those without a position of their own are.
func (in *interp) report(ps []importer.Problem, at diag.Pos, about string) {
	in.c.Diagnostics = importer.AppendDiagnostics(in.c.Diagnostics, ps, "drawio: ", about, at, nil)
}

// madeForStateSmith reports whether a vertex of the pages is labelled with
// one of StateSmith's keywords ($initial_state, $choice, $NOTES...): the
// drawing was made for StateSmith, and its labels follow its grammar.
func madeForStateSmith(pages []*page) bool {
	for _, pg := range pages {
		for i := range pg.cells {
			if c := &pg.cells[i]; c.vertex && statesmith.IsKeyword(labelText(c)) {
				return true
			}
		}
	}
	return false
}

// addTransition appends a transition and the order drawn on it.
func (in *interp) addTransition(t chart.Transition, key float64) {
	in.c.Transitions = append(in.c.Transitions, t)
	in.keys = append(in.keys, key)
}

// page reads the states and transitions of a page.
func (in *interp) page(pg *page, prefix string) {
	strict := in.st != nil
	sev := diag.Warning // of a problem that drops a transition
	if strict {
		sev = diag.Error
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
			in.diag(diag.Warning, in.pos(pg, n.c, prefix, ""), "the file is inconsistent; save it again from draw.io",
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
		if n := &nodes[i]; !n.skip && n.class != clLayer {
			n.text = labelText(n.c)
		}
	}
	if in.ss {
		in.innerText(nodes)
	}
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class == clLayer || n.class == clInner {
			continue
		}
		switch {
		case n.parent != nil && n.parent.c.edge:
			n.class = clLabel
		case n.c.edge && hasAttr(n.c, AttrAlso):
			n.class = clAlso
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

	if in.ss {
		in.leaveOut(pg, nodes, prefix)
	}
	in.structure(pg, nodes, prefix)

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
	for i := range nodes {
		n := &nodes[i]
		if n.skip {
			continue
		}
		if (n.class == clState || n.class == clEdge) && in.ids[prefix+n.c.id] {
			// "4/36" on the first page, and 36 on page 4.
			in.diag(diag.Error, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "give the cell another ID, or the page another ID",
				"cell %s of page %q has the ID %q of a cell of another page; ignored", n.c.id, pg.label(), prefix+n.c.id)
			n.class = clNone
			n.skip = true
			continue
		}
		in.ids[prefix+n.c.id] = true
		if n.class == clState {
			n.id = in.strs.Clone(prefix + n.c.id) // before any state names its parent's
		}
	}
	firstTransition := len(in.c.Transitions)
	ignored := 0
	for i := range nodes {
		n := &nodes[i]
		if n.skip {
			continue
		}
		_, hasRole := n.c.get(in.opt.RoleKey)
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
			in.diag(diag.Note, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "", "%s is not a state; ignored", in.what(n))
		case n.class == clFrame && strings.HasPrefix(n.text, "$STATEMACHINE"):
			in.diag(diag.Note, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "",
				"the $STATEMACHINE shape (StateSmith's) is not a state: the states drawn in it are the chart's")
		case n.class == clNone || n.class == clFrame:
			ignored++
		}
		if n.class == clState && n.kind == chart.ChoiceState && (n.ss.Kind == statesmith.EntryPoint || n.ss.Kind == statesmith.ExitPoint) {
			in.point(pg, n, prefix)
		}
	}
	if ignored > 0 {
		what := "shapes without text (groups, lines, images, empty boxes) are"
		if ignored == 1 {
			what = "shape without text (a group, a line, an image, an empty box) is"
		}
		if strict {
			what = "shapes without an " + in.opt.RoleKey + " attribute are"
			if ignored == 1 {
				what = "shape without an " + in.opt.RoleKey + " attribute is"
			}
		}
		in.diag(diag.Note, in.pos(pg, nil, "", ""), "", "%d %s not part of the chart", ignored, what)
	}
	for i := range nodes {
		n := &nodes[i]
		if !n.skip && n.class == clEdge && (!strict || n.role == chart.RoleTransition) {
			in.transition(pg, n, prefix, sev)
		}
	}
	in.alsoEdges(pg, nodes, prefix, firstTransition)
	if in.ss {
		in.stateSmithNesting(pg, nodes, prefix)
	}
}

// nesting checks that parents do not form a cycle (a cell in a cycle is
// moved to the top) and that cells nest no deeper than Options.MaxDepth
// (else in.fatal is set and it returns false). It costs one pass over the
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
				in.diag(diag.Error, in.pos(pg, n.c, prefix, ""), "a cell cannot contain itself; the file is damaged",
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
				in.fatal = diag.List{{Pos: in.pos(pg, nodes[k].c, prefix, ""), Err: ErrTooDeep,
					Message: fmt.Sprintf("drawio: cells nest more than %d deep", in.opt.MaxDepth),
					Hint:    chart.LimitHint("MaxDepth")}}
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
	if in.ss && in.stateSmithVertex(pg, n, prefix) {
		return
	}
	c := n.c
	shape := shapeOf(c.style)
	visible := n.text
	if nl, _ := styleGet(c.style, "noLabel"); nl == "1" {
		visible = ""
	}
	n.class = clState
	ellipse := shape == "ellipse" || shape == "doubleEllipse"
	switch {
	case shape == "startState": // a label $initial_state makes the drawing StateSmith's: see stateSmithVertex
		n.kind = chart.StartState
	case shape == "endState":
		n.kind = chart.EndState
	case shape == "rhombus" || strings.HasPrefix(n.text, "$choice"):
		n.kind = chart.ChoiceState
	case strings.HasPrefix(n.text, "$STATEMACHINE"):
		n.class = clFrame
	case ellipse && visible == "H" && in.ss:
		// StateSmith reads "H" as a state named H (its history is $H).
		in.diag(diag.Warning, in.pos(pg, c, prefix, visible), "rename the state if it is one, or label the shape $H for StateSmith's history",
			"shape %s is labelled \"H\": StateSmith reads it as a state of that name, as does this reader; in a UML drawing it would be a history pseudo-state", c.id)
	case ellipse && visible == "H":
		n.kind = chart.HistoryState
	case ellipse && visible == "H*":
		n.kind = chart.DeepHistoryState
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
	case shape == "group" || n.text == "" && hasVertexKids(n) && !hasAttr(c, AttrInitial) && !hasAttr(c, AttrParallel):
		// A container without text is a frame, unless its Edit Data says
		// it is a state (one Write draws for a state without a name).
		n.class = clFrame
	}
	if shape == "line" && n.class == clNone && n.parent != nil && styleIs(c.style, "dashed", "1") {
		in.diag(diag.Error, in.pos(pg, c, prefix, ""), regionsHint,
			"a dashed line inside %s divides it into parallel regions, which a line cannot say: which states are in which region?", describe(n.parent))
	}
	if v, ok := c.get(AttrParallel); ok && n.class == clState {
		on, valid := importer.ParseFlag(v)
		switch {
		case !valid:
			in.diag(diag.Warning, in.pos(pg, c, prefix, chart.NormalizeSpace(n.text)), "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrParallel, importer.Shorten(v, 20))
		case on && n.kind != chart.NormalState:
			in.diag(diag.Warning, in.pos(pg, c, prefix, chart.NormalizeSpace(n.text)), "remove the attribute, or draw the shape as a state",
				"%s = 1 on a %s pseudo-state; ignored", AttrParallel, n.kind)
		case on:
			n.kind = chart.ParallelState
		}
	}
}

// regionsHint says how to draw parallel regions.
const regionsHint = "mark the state " + AttrParallel + " = 1 in its Edit Data, and draw each region as a container inside it"

// hasAttr reports whether a cell's Edit Data has an attribute.
func hasAttr(c *cell, name string) bool {
	_, ok := c.get(name)
	return ok
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

// parentState returns the state a vertex is drawn in (a normal or
// parallel state), or nil.
func parentState(n *node) *node {
	for p := n.parent; p != nil; p = p.parent {
		if p.class == clState && (p.kind == chart.NormalState || p.kind == chart.ParallelState) {
			return p
		}
	}
	return nil
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

func (in *interp) state(pg *page, n *node, prefix string) {
	c := n.c
	st := chart.State{ID: n.id, Kind: n.kind, Box: box(n)}
	if p := parentState(n); p != nil {
		st.Parent = p.id
	}
	if in.st == nil {
		text := n.text
		if nl, _ := styleGet(c.style, "noLabel"); nl == "1" {
			text = "" // not shown: StateSmith's "$initial_state"
		}
		name, behaviour := importer.SplitBehaviour(text)
		if in.ss {
			name, behaviour = stateSmithName(n)
		}
		st.Name = in.strs.Clone(name)
		st.Initial = st.Kind == chart.StartState
		st.Pos = in.pos(pg, c, prefix, st.Name)
		if st.Kind.IsHistory() {
			st.Name = "" // "H", "H*", "$H": what it is, not a name
		}
		if v, ok := c.get(AttrName); ok {
			st.Name = in.strs.Clone(chart.NormalizeSpace(v))
		}
		st.Entry = in.actions(c, AttrEntry, st.Pos)
		st.Exit = in.actions(c, AttrExit, st.Pos)
		if in.ss && st.Kind == chart.NormalState && (n.ss.Kind == statesmith.State || n.ss.Kind == statesmith.Ortho) && name != "" && !statesmith.IsStateName(name) {
			in.diag(diag.Warning, st.Pos, "name the state with letters, digits and underscores, as StateSmith requires",
				"state name %q is not a StateSmith identifier: StateSmith refuses the drawing; read as a state of that name", name)
		}
		if v, ok := c.get(AttrInitial); ok {
			switch strings.TrimSpace(v) {
			case "1", "true":
				st.Initial = true
			case "0", "false", "":
				st.Initial = false
			default:
				in.diag(diag.Warning, st.Pos, "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrInitial, v)
			}
		}
		if behaviour != "" {
			in.behaviour(&st, behaviour)
		}
		if g := c.geo.badNumber; g != "" {
			in.diag(diag.Warning, st.Pos, "", "geometry attribute %s is not a number; read as 0", g)
		}
		n.name = st.Name
		in.c.States = append(in.c.States, st)
		return
	}
	in.stencilState(pg, n, prefix, st)
}

// maxBadActions is how many lines of an attribute that do not read as
// actions are reported one by one; one more warning counts the others.
const maxBadActions = 5

// actions reads the actions an attribute of a plain diagram's cell lists
// (AttrEntry, AttrExit, AttrActions), each at pos: nil when it lists
// none. A line that does not read is left out with a warning. More
// actions in the diagram than Options.MaxElements stop the reading
// (in.fatal).
func (in *interp) actions(c *cell, name string, pos diag.Pos) []chart.Action {
	v, ok := c.get(name)
	if !ok {
		return nil
	}
	as, bad, over := parseActions(v, pos, in.opt.MaxElements-in.nactions)
	in.nactions += len(as) + len(bad)
	if over {
		if in.fatal == nil {
			in.fatal = diag.List{{Pos: pos, Err: ErrTooLarge,
				Message: fmt.Sprintf("drawio: the diagram has more than %d actions (lines of %s, %s and %s)", in.opt.MaxElements, AttrEntry, AttrExit, AttrActions),
				Hint:    chart.LimitHint("MaxElements")}}
		}
		return nil
	}
	for k, b := range bad {
		if k == maxBadActions {
			in.diag(diag.Warning, pos, chart.ActionSyntax, "%s: %d more lines do not read; ignored", name, len(bad)-k)
			break
		}
		in.diag(diag.Warning, pos, chart.ActionSyntax, "%s line %d %q: %s; ignored", name, b.line, importer.Shorten(b.text, 60), b.why)
	}
	for i := range as {
		a := &as[i]
		a.Property, a.Value, a.Event = in.strs.Clone(a.Property), in.strs.Clone(a.Value), in.strs.Clone(a.Event)
		a.Timer, a.Guard = in.strs.Clone(a.Timer), in.strs.Clone(a.Guard)
	}
	if len(as) == 0 {
		return nil
	}
	return as
}

// noteAttr records an attribute of a role missing from a shape, or one
// the stencil does not know.
func (in *interp) noteAttr(role chart.Role, name string, missing bool, at diag.Pos) {
	k := attrKey{role, name, missing}
	u := in.attrs[k]
	if u == nil {
		u = &attrUse{at: at}
		in.attrs[k] = u
		in.akeys = append(in.akeys, k)
	}
	u.n++
}

func (in *interp) unknownAttrs(n *node, known []string, at diag.Pos) {
	for _, a := range n.c.attrs {
		if !slices.Contains(known, a.name) && !slices.Contains(drawioAttrs, a.name) && a.name != in.opt.RoleKey {
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
			in.diag(diag.Warning, u.at, update, "%s %s: no property %q, which stencil %q (version %s) lists",
				k.role, shapes, k.name, in.st.Name, importer.Version(in.st))
		} else {
			in.diag(diag.Note, u.at, "", "%s %s: property %q is not in stencil %q; ignored", k.role, shapes, k.name, in.st.Name)
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

func (in *interp) transition(pg *page, n *node, prefix string, sev diag.Severity) {
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
			in.diag(diag.Error, at, regionsHint,
				"a dashed line across %s divides it into parallel regions, which a line cannot say: which states are in which region?", describe(n.src))
			return
		}
		if n.src != nil && n.dst != nil && n.src.class == clState && n.dst.class == clState {
			in.diag(diag.Warning, at, "give the line an arrowhead at its end if it is a transition",
				"line without an arrowhead between %s and %s: not a transition; ignored", describe(n.src), describe(n.dst))
		} else {
			in.diag(diag.Note, at, "", "line without an arrowhead: not a transition; ignored")
		}
		return
	}
	const reattach = "drag the end of the edge onto the shape until the shape is outlined, so that it is connected"
	switch {
	case n.stale != "":
		in.diag(sev, at, "the file is inconsistent; "+reattach,
			"the %s of the %s is attached to cell %q, which is not on the page%s", n.staleEnd, what, n.stale, ignored)
		return
	case n.src == nil && n.dst == nil && !strict && strings.TrimSpace(label) != "":
		in.diag(diag.Warning, at, reattach, "edge %q attached to no shape: not a transition; ignored", importer.Shorten(chart.NormalizeSpace(label), 40))
		return
	case n.src == nil && n.dst == nil && !strict:
		in.diag(diag.Note, at, "", "edge attached to no shape; ignored")
		return
	case n.src == nil:
		in.diag(diag.Error, at, reattach, "the start of the %s is attached to no state", what)
		return
	}
	src, dst := aliased(n.src), aliased(n.dst)
	switch {
	case src.class == clBad || dst != nil && dst.class == clBad:
		return // reported with the vertex
	case src.class == clNotes || dst != nil && dst.class == clNotes:
		in.diag(diag.Note, at, "", "edge %s starts or ends in a note or a setting; not part of the chart", c.id)
		return
	case src.class == clContinue || dst != nil && dst.class == clContinue:
		in.diag(diag.Error, at, "remove the edge: a $HC only marks the state it is drawn in", "edge %s starts or ends at a $HC, which StateSmith allows no transition; ignored", c.id)
		return
	case src.class == clAlias || dst != nil && dst.class == clAlias:
		in.diag(diag.Error, at, "draw the $PARENT_ALIAS inside the state it stands for", "edge %s starts or ends at a $PARENT_ALIAS drawn in no state", c.id)
		return
	}
	t := chart.Transition{ID: in.strs.Clone(prefix + c.id), Label: in.strs.Clone(label), Pos: at}
	switch from := src; {
	case from.class == clState:
		t.From = from.id
	case strict && from.class == clHandler:
		t.AnyState = true
	default:
		in.diag(sev, at, "", "the start of the %s is attached to %s, which is not a state%s", what, describe(from), ignored)
		return
	}
	if dst == nil {
		t.Target.Kind = chart.ToFinal
	} else if to := dst; to.class == clState {
		t.Target = chart.Target{Kind: chart.ToState, State: to.id}
	} else {
		hint := ""
		if strict && to.class == clHandler {
			hint = "a message handler only starts transitions"
		}
		in.diag(sev, at, hint, "the end of the %s is attached to %s, which is not a state%s", what, describe(to), ignored)
		return
	}
	if !strict && !in.checkStay(n, src, dst, &t) {
		return
	}
	if !in.checkFinal(n, &t) {
		return
	}
	switch {
	case strict:
		if !in.stencilTransition(&t, n) {
			return
		}
	case in.ss:
		in.stateSmithTransitions(t, src, label)
		return
	default:
		in.plainTransition(&t, n, label)
	}
	key := importer.Unordered
	switch {
	case !strict && t.Event == "" && strings.EqualFold(t.Guard, "else"):
		key = importer.Else // UML's [else]: after the others
	case t.Order != 0:
		key = float64(t.Order)
	}
	in.addTransition(t, key)
}

// aliased returns the state a $PARENT_ALIAS stands for (the state it is
// drawn in), or n.
func aliased(n *node) *node {
	if n == nil || n.class != clAlias {
		return n
	}
	if p := parentState(n); p != nil {
		return p
	}
	return n
}

// checkFinal checks an edge's final mark (AttrFinal in a plain diagram,
// the stencil's Final property in a drawing made with one) against its
// end. An edge whose end touches no shape ends the machine; unless marked,
// a warning says so, for a designer who forgot to glue the arrow's end (a
// returning transition, whose end is loose by design, is not warned
// about). A marked edge whose end is glued to a shape is an error, and
// checkFinal returns false.
func (in *interp) checkFinal(n *node, t *chart.Transition) bool {
	name := AttrFinal
	if in.st != nil {
		name = in.props.Final
	}
	marked := false
	if v, ok := n.c.get(name); ok {
		if marked, ok = importer.ParseFlag(v); !ok {
			in.diag(diag.Warning, t.Pos, "write 1 or 0", "%s %q is not 1 or 0; ignored", name, v)
		}
	}
	switch {
	case marked && t.Target.Kind == chart.ToState:
		in.diag(in.sevDrop(), t.Pos, "detach the arrow's end to end the machine, or set "+name+" to 0",
			"the edge is marked %s = 1, but its end is glued to a state", name)
		return false
	case !marked && t.Target.Kind == chart.ToFinal && !in.returns(n):
		in.diag(diag.Warning, t.Pos, "glue the arrow's end to a state if it should go there; if the machine should end, set the edge's property "+name+" to 1 (Edit Data), or end it on an end state",
			"the end of the edge is on no state: taken as a transition to the final state, which ends the machine")
	}
	return true
}

// checkStay reads a plain edge's AttrStay: marked 1, an edge drawn from
// its state back to it, or with a loose end, is a transition without a
// target (chart.ToNone). One marked so whose end is glued to another
// state is left out with a warning, and checkStay returns false.
func (in *interp) checkStay(n, src, dst *node, t *chart.Transition) bool {
	v, ok := n.c.get(AttrStay)
	if !ok {
		return true
	}
	on, valid := importer.ParseFlag(v)
	switch {
	case !valid:
		in.diag(diag.Warning, t.Pos, "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrStay, importer.Shorten(v, 20))
	case on && dst != nil && dst != src:
		in.diag(diag.Warning, t.Pos, "draw the edge back to the state it leaves, or set "+AttrStay+" to 0",
			"the edge is marked %s = 1, but its end is glued to %s, another state; ignored", AttrStay, describe(dst))
		return false
	case on:
		t.Target = chart.Target{Kind: chart.ToNone}
	}
	return true
}

// sevDrop is the severity of a problem that leaves a transition out: an
// error with a stencil, a warning in a plain diagram.
func (in *interp) sevDrop() diag.Severity {
	if in.st != nil {
		return diag.Error
	}
	return diag.Warning
}

// returns reports whether an edge of a drawing made with a stencil is a
// returning transition (its stack property says return).
func (in *interp) returns(n *node) bool {
	if in.st == nil {
		return false
	}
	v, _ := n.c.get(in.props.Stack)
	return strings.EqualFold(strings.TrimSpace(v), chart.StackReturn)
}

// stateSmithTransitions reads the label of an edge of a StateSmith
// drawing that leaves vertex from ([statesmith.EdgeTransitions]): one
// transition per behaviour (a line of the label) and per trigger of its
// trigger list, each to the edge's target, tried in the behaviour's order.
func (in *interp) stateSmithTransitions(t chart.Transition, from *node, label string) {
	ts, ps, spellings := in.smith.Edge(label, statesmith.SourceKind(from.ss.Kind, from.kind), len(in.c.Transitions))
	in.report(ps, t.Pos, "")
	in.report(spellings, t.Pos, "")
	for k, st := range ts {
		u := t
		if k > 0 {
			u.ID = in.strs.Clone(t.ID + "#" + strconv.Itoa(k+1))
		}
		u.Label = in.strs.Clone(st.Text)
		u.Event, u.Guard, u.Action = in.strs.Clone(st.Event), in.strs.Clone(st.Guard), in.strs.Clone(st.Action)
		u.Test = in.strs.Clone(st.Test())
		in.addTransition(u, st.Order)
	}
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
	t.Actions = in.actions(c, AttrActions, t.Pos)
	if v, ok := c.get(AttrInternal); ok {
		if on, valid := importer.ParseFlag(v); valid {
			t.Internal = on
		} else {
			in.diag(diag.Warning, t.Pos, "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrInternal, importer.Shorten(v, 20))
		}
	}
	if v, ok := c.get(AttrOrder); ok {
		o, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || o < 0 {
			in.diag(diag.Warning, t.Pos, "write a whole number from 1 (0 for document order)", "%s %q is not a whole number; ignored", AttrOrder, v)
		} else {
			t.Order = o
		}
	}
	t.Event, t.Guard, t.Action, t.Test = in.strs.Clone(t.Event), in.strs.Clone(t.Guard), in.strs.Clone(t.Action), in.strs.Clone(t.Test)
}

// innerText finds StateSmith's inner handler texts: text cells without
// fill, gradient, outline or shape drawn inside a state, whose text is more
// of the state's behaviour. Their text is added to the state's label.
func (in *interp) innerText(nodes []node) {
	for i := range nodes {
		n := &nodes[i]
		c := n.c
		if n.skip || !c.vertex || n.parent == nil || !n.parent.c.vertex || c.style == "" {
			continue
		}
		if _, hasShape := styleGet(c.style, "shape"); hasShape {
			continue
		}
		if !styleIs(c.style, "fillColor", "none") || !styleIs(c.style, "gradientColor", "none") || !styleIs(c.style, "strokeColor", "none") {
			continue
		}
		n.class = clInner
		if t := strings.TrimSpace(n.text); t != "" {
			n.parent.text += "\n" + t
		}
	}
}

// noteShapes are the shapes StateSmith reads as $NOTES.
var noteShapes = []string{"note", "note2", "mxgraph.mockup.text.stickyNote2"}

// stateSmithVertex classifies a vertex by StateSmith's keywords, and
// reports false for a state, which plainVertex classifies.
func (in *interp) stateSmithVertex(pg *page, n *node, prefix string) bool {
	v := statesmith.ParseVertex(n.text)
	n.ss = v
	at := func() diag.Pos {
		return in.pos(pg, n.c, prefix, importer.Shorten(chart.NormalizeSpace(n.text), 40))
	}
	switch v.Kind {
	case statesmith.State:
		if !slices.Contains(noteShapes, shapeOf(n.c.style)) {
			return false
		}
		n.class = clNotes
		in.diag(diag.Note, at(), "", "note shape %s: a comment, as StateSmith reads it: it and what is drawn in it are not part of the chart", n.c.id)
	case statesmith.Notes:
		n.class = clNotes
		in.diag(diag.Note, at(), "", "$NOTES shape %s: a comment: it and what is drawn in it are not part of the chart", n.c.id)
	case statesmith.Config, statesmith.RenderConfig:
		n.class = clNotes
		if statesmith.SetsTriggerMap(n.text) {
			in.diag(diag.Error, at(), "write the events' own names on the transitions, and remove the TriggerMap",
				"%s shape %s sets StateSmith's TriggerMap, which renames the events of the drawing; fsmforge reads the events as drawn, so it is not supported", v.Kind, n.c.id)
			break
		}
		in.diag(diag.Note, at(), "", "%s shape %s: a setting of StateSmith's code generator, not part of the chart", v.Kind, n.c.id)
	case statesmith.Machine:
		n.class = clFrame
		if v.Name != "" {
			in.c.Name = in.strs.Clone(v.Name)
		}
		if v.Behaviour != "" {
			in.diag(diag.Warning, at(), dropHint, "the $STATEMACHINE's behaviour is code for StateSmith's generator, which fsmforge does not run: %q", importer.Shorten(chart.NormalizeSpace(v.Behaviour), 60))
		}
	case statesmith.Initial:
		n.class, n.kind = clState, chart.StartState
	case statesmith.Choice, statesmith.EntryPoint, statesmith.ExitPoint:
		n.class, n.kind = clState, chart.ChoiceState
	case statesmith.History:
		n.class, n.kind = clState, chart.HistoryState
	case statesmith.HistoryContinue:
		n.class = clContinue
	case statesmith.Ortho:
		n.class = clState // a region: its state becomes parallel (statesmith.Regions)
	case statesmith.ParentAlias:
		n.class = clAlias
	}
	return true
}

// dropHint is the hint of the warnings about StateSmith's code.
const dropHint = "fsmforge runs no code from the drawing: a state's entry actions come from a stencil's properties, and the game does the rest"

// leaveOut leaves out, in a StateSmith drawing, what is drawn inside notes
// and settings, and the vertices outside the $STATEMACHINE shape (when it
// holds any), as StateSmith does; one note counts them.
func (in *interp) leaveOut(pg *page, nodes []node, prefix string) {
	var machine *node
	for i := range nodes {
		n := &nodes[i]
		if n.ss.Kind == statesmith.Machine && n.class == clFrame && machine == nil && hasVertexKids(n) {
			machine = n
		}
	}
	inside, outside := 0, 0
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class == clLayer || n.class == clNotes || n == machine {
			continue
		}
		in := false
		top := n
		for p := n.parent; p != nil; p = p.parent {
			if p.class == clNotes {
				in = true
			}
			top = p
		}
		switch {
		case in && n.c.vertex:
			n.class = clNotes
			inside++
		case machine != nil && n.c.vertex && top != machine && n.class != clLabel:
			n.class = clNotes
			outside++
		}
	}
	if outside > 0 {
		in.diag(diag.Note, in.pos(pg, machine.c, prefix, importer.Shorten(chart.NormalizeSpace(machine.text), 40)), "",
			"%s drawn outside the $STATEMACHINE shape %s not part of the chart, as in StateSmith", importer.Plural(outside, "shape"), importer.IsAre(outside))
	}
}

// point records an entry or exit point, to resolve the transitions that
// go through it.
func (in *interp) point(pg *page, n *node, prefix string) {
	at := in.pos(pg, n.c, prefix, n.ss.Kind.String()+" : "+n.ss.Name)
	p := parentState(n)
	if p == nil || p.id == "" { // no state, or one not read yet
		in.diag(diag.Error, at, "draw the point inside the state it enters or leaves", "%s %q is drawn in no state", n.ss.Kind, n.ss.Name)
		return
	}
	in.smith.Points = append(in.smith.Points, statesmith.Point{State: n.id, Parent: p.id, Label: n.ss.Name, Exit: n.ss.Kind == statesmith.ExitPoint, Pos: at})
}

// stateSmithName returns the name of a state or pseudo-state of a
// StateSmith drawing, and its behaviour text.
func stateSmithName(n *node) (name, behaviour string) {
	switch n.ss.Kind {
	case statesmith.State, statesmith.Ortho:
		return n.ss.Name, n.ss.Behaviour
	case statesmith.Choice:
		return n.ss.Name, ""
	case statesmith.EntryPoint, statesmith.ExitPoint:
		return n.ss.Kind.String() + " " + n.ss.Name, ""
	}
	return "", ""
}

// behaviour reports the behaviour written in a state below its name,
// which fsmforge does not run, and, in a StateSmith drawing, records the
// events the state handles without a transition, which change what the
// transitions of the states around it mean ([statesmith.CheckHandlers]).
func (in *interp) behaviour(st *chart.State, text string) {
	in.diag(diag.Warning, st.Pos, dropHint, "state %q: the behaviour written in it is code for a code generator, which fsmforge does not run: %q",
		st.Name, importer.Shorten(chart.NormalizeSpace(text), 60))
	if !in.ss {
		return
	}
	ps, spellings := in.smith.State(st.ID, st.Pos, text)
	in.report(ps, st.Pos, fmt.Sprintf("state %q: ", st.Name))
	in.report(spellings, st.Pos, "")
}

// diagramData reads what the Edit Data of the diagram itself says of the
// chart: its Chain and ChainLimit from the first page's root cell that
// sets them, its Statechart, its Name ([AttrName]) and its Fallback
// ([AttrFallback]) from the first that sets each.
func (in *interp) diagramData(pages []*page) {
	chainRead, statechartRead, nameRead, fallbackRead := false, false, false, false
	for _, pg := range pages {
		for i := range pg.cells {
			c := &pg.cells[i]
			if c.parent != "" || c.vertex || c.edge {
				continue
			}
			if v, ok := c.get(AttrStatechart); ok && !statechartRead {
				statechartRead = true
				if on, ok := importer.ParseFlag(v); ok {
					in.c.Statechart = on
				} else {
					in.diag(diag.Warning, in.pos(pg, c, "", ""), "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrStatechart, importer.Shorten(v, 20))
				}
			}
			if v, ok := c.get(AttrName); ok && !nameRead {
				nameRead = true
				if strings.TrimSpace(v) != "" {
					in.c.Name = in.strs.Clone(v)
				}
			}
			if v, ok := c.get(AttrFallback); ok && !fallbackRead {
				fallbackRead = true
				in.fallbackOf(pg, c, v)
			}
			if !chainRead {
				chainRead = in.chainOf(pg, c)
			}
			if chainRead && statechartRead && nameRead && fallbackRead {
				return
			}
		}
	}
}

// fallbackOf sets the chart's Fallback to v, the value of AttrFallback on
// root cell c of page pg, its white space made single spaces as in a
// state's name. A name of no state is package compile's to report: the
// drawing's states are not all named yet.
func (in *interp) fallbackOf(pg *page, c *cell, v string) {
	if v = chart.NormalizeSpace(v); v != "" {
		in.c.Fallback, in.c.FallbackPos = in.strs.Clone(v), in.pos(pg, c, "", "")
	}
}

// chainOf reads the chart's Chain and ChainLimit from root cell c of page
// pg, and reports whether it sets either.
func (in *interp) chainOf(pg *page, c *cell) bool {
	v, okChain := c.get(AttrChain)
	l, okLimit := c.get(AttrChainLimit)
	if !okChain && !okLimit {
		return false
	}
	at := in.pos(pg, c, "", "")
	if on, ok := importer.ParseFlag(v); ok {
		in.c.Chain = on
	} else {
		in.diag(diag.Warning, at, "write 1 or 0", "%s %q is not 1 or 0; ignored", AttrChain, importer.Shorten(v, 20))
	}
	if l = strings.TrimSpace(l); l != "" {
		if n, ok := importer.ParseChainLimit(l); ok {
			in.c.ChainLimit = n
		} else {
			in.diag(diag.Warning, at, "write a whole number from 1 to 65535, or leave it empty for the number of states", "%s %q is not a whole number from 0 to 65535; ignored", AttrChainLimit, importer.Shorten(l, 20))
		}
	}
	return true
}
