package visio

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"iter"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
)

// The names of the custom properties and Shape Data rows the reader reads
// besides a stencil's, as chart/drawio names its attributes.
const (
	// PropChain ("1", "true" or "yes"; "0", "false" or "no") and
	// PropChainLimit (a whole number from 0 to 65535), custom properties
	// of the document, or else Shape Data rows of a page's sheet: the
	// chart's Chain and ChainLimit, how its machine runs.
	PropChain      = "fsmforgeChain"
	PropChainLimit = "fsmforgeChainLimit"
	// PropFallback, a custom property of the document, or else a Shape
	// Data row of a page's sheet, as PropChain: the chart's Fallback, the
	// name of the state where a running game (package reload) sends the
	// agents of a state that a new version of the drawing no longer has;
	// empty for the initial state.
	PropFallback = "fsmforgeFallback"
	// PropFinal, "1" or "0" ("true" or "false"), a Shape Data row of a
	// connector of a plain diagram whose end is glued to no shape: the
	// machine ends there on purpose, so no warning says that the
	// connector's end may have come loose. With a stencil, its Final
	// property ([chart.Properties]) says so.
	PropFinal = "fsmforgeFinal"
)

// Hints of the diagnostics about glue.
const (
	hintReglue   = "drag the connector's end onto the shape until the shape is outlined, so that it is glued"
	hintGlueBoth = "drag each end of the connector onto its state until the state is outlined, so that it is glued: " +
		"Visio moves only glued ends with their shapes, and fsmforge reads only glued ends"
	hintText = "fsmforge runs no code from a drawing: UML behaviours (entry / ..., do / ..., exit / ...) are code for a code generator; " +
		"a state's entry actions come from a stencil's properties, and the game does the rest"
)

// Interpret reads a chart from a drawing: with Options.Stencil, as a
// drawing made with that stencil; without, as a plain state diagram (see
// the package documentation for both readings). It calls doc.Resolve
// first. States drawn inside others (in a group or a container) are
// inside them in the chart (State.Parent): it is never flattened. States
// get the Box they are drawn in when the drawing gives it. Only
// Options.Stencil is used.
//
// The chart is never nil. Its Diagnostics hold the document's own
// diagnostics followed by the interpretation's; the error, when not nil, is
// a [diag.List] of those that are errors. The chart's strings do not
// share memory with the file.
func Interpret(doc *Document, opt Options) (*chart.Chart, error) {
	doc.Resolve()
	in := newInterp(opt)
	in.doc = doc
	for _, pg := range doc.Pages {
		if pg.Background {
			continue
		}
		sh := in.beginPage(pg)
		for _, s := range pg.Shapes {
			in.collect(sh, s)
		}
		sh.shapesRead = true
		for i := range pg.Connects {
			in.connect(sh, &pg.Connects[i])
		}
	}
	return in.finish()
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

// The interpretation reads a drawing in two passes. The first (collect.go),
// collect and connect, reads each shape of a page (and each Connect row)
// once, as soon as it is resolved, into a node: the little the second pass
// needs of it, what the shape says of the state or transition it may be
// (its name, entry actions and box; its test, value, order, stack
// operation, final mark and where its ends are) worked out, and the
// diagnostics found kept for their turn.
// Read feeds a package's shapes to it as the parser reads them, and drops
// each after; Interpret feeds it a Document's. The second, finish, which
// needs the whole drawing (a connector's glue comes after the shapes;
// whether a shape of a plain diagram is a state depends on it), builds the
// chart from the nodes alone.

// interp holds the state of one Interpret or Read call.
type interp struct {
	doc    *Document
	st     *chart.Stencil // nil for a plain state diagram
	props  chart.Properties
	c      *chart.Chart
	strs   importer.Strings // strings of the chart, cloned from the file once
	texts  *owner           // and those that are many (texts, names), in blocks
	ids    arena            // the nodes' IDs, which the chart keeps
	vals   []string         // the values of transitions (see transDraft)
	valIdx map[string]int32
	stream bool // shapes are the parser's, reused after collect: copy what is kept

	sheets []*sheet // the pages that are not background pages, in order
	path   []*Shape // collect: the groups around the shape being read

	// The masters the shapes of the pages use (with a stencil), for
	// checkMasters: their roles, the first shape of each, in order.
	roles  map[*Master]chart.Role
	uses   map[*Master]*use
	order  []*Master
	shapes int // of the pages, groups' members included

	// The last position's file (see file).
	lastPart, lastFile string

	rep repeats // caps the chart's diagnostics of each kind
}

// use is how a master is used: by how many shapes, the first where, and
// for a master of no part of the stencil, how many of its shapes are
// composite states (see prepare).
type use struct {
	shapes, composites int
	at                 diag.Pos
}

func newInterp(opt Options) *interp {
	in := &interp{st: opt.Stencil, texts: &owner{seed: maphash.MakeSeed()}}
	if in.st != nil {
		in.props = in.st.PropertyNames()
		in.roles = make(map[*Master]chart.Role)
		in.uses = make(map[*Master]*use)
	}
	return in
}

// text returns a copy of s, a text or a name, that does not share memory
// with the file: short ones in blocks (see owner), long ones interned.
func (in *interp) text(s string) string {
	if len(s) > ownShort {
		return in.strs.Clone(s)
	}
	return in.texts.str(s)
}

// keep returns s, or a copy for a streamed shape, whose strings share
// memory with the parser's text.
func (in *interp) keep(s string) string {
	if in.stream {
		return strings.Clone(s)
	}
	return s
}

// finish builds the chart from the pages read.
func (in *interp) finish() (*chart.Chart, error) {
	doc := in.doc
	doc.Resolve()
	doc.rep.flush(&doc.Diagnostics) // of the shapes resolved as they were read
	in.c = &chart.Chart{Name: chartName(doc), File: doc.File, Stencil: in.st}
	for _, d := range doc.Diagnostics {
		d.Pos = in.strs.Pos(d.Pos)
		in.c.Diagnostics = append(in.c.Diagnostics, d)
	}
	in.run()
	in.chain()
	in.fallback()
	in.sheets = nil
	if in.st != nil {
		in.report(importer.MarkInitialAncestors(in.c.States, in.st), kindRegionMark)
	}
	in.checkInitials()
	in.rep.flush(&in.c.Diagnostics)
	if in.c.States == nil {
		in.c.States = []chart.State{}
	}
	if in.c.Transitions == nil {
		in.c.Transitions = []chart.Transition{}
	}
	return in.c, in.c.Diagnostics.Err()
}

func (in *interp) run() {
	doc := in.doc
	if len(doc.Pages) == 0 {
		in.diag(diag.Error, diag.Pos{File: in.strs.Clone(doc.File)}, "a stencil (.vsx) or a template (.vtx) has no pages: open the drawing made with it",
			"the drawing has no pages")
		return
	}
	if !slices.ContainsFunc(doc.Pages, func(pg *Page) bool { return !pg.Background }) {
		in.diag(diag.Error, diag.Pos{File: in.strs.Clone(doc.File)}, "", "the drawing has only background pages")
		return
	}
	for _, sh := range in.sheets {
		in.prepare(sh)
	}
	if in.st != nil && !in.checkMasters() {
		return
	}
	sheets := in.sheets
	for _, pg := range doc.Pages {
		if pg.Background {
			in.diag(diag.Note, in.pos(pg.Pos, pg, "", ""), "", "background page: its shapes are not part of the chart")
			continue
		}
		in.page(sheets[0])
		sheets[0] = nil // read: its memory is the chart's
		sheets = sheets[1:]
	}
	importer.RankOrders(in.c, nil, "visio")
}

// chain reads the chart's Chain and ChainLimit from the document's custom
// properties PropChain and PropChainLimit, or else from the Shape Data
// rows of the first page (not a background page) whose sheet has either.
// A value that cannot be read is a warning, and left out.
func (in *interp) chain() {
	doc := in.doc
	chain, limit, ok := in.customChain(doc.CustomProps)
	for _, pg := range doc.Pages {
		if ok || pg.Background {
			break
		}
		chain, limit, ok = in.pageChain(pg)
	}
	if !ok {
		return
	}
	if chain.set {
		on, ok := importer.ParseFlag(chain.value)
		in.c.Chain = on
		if !ok {
			in.diag(diag.Warning, chain.at, "write 1 (true) or 0 (false)", "%s %s is not 1 or 0 (true or false); ignored", PropChain, quote(chain.value))
		}
	}
	if l := strings.TrimSpace(limit.value); limit.set && l != "" {
		n, ok := importer.ParseChainLimit(l)
		if f, err := strconv.ParseFloat(l, 64); !ok && err == nil && f == math.Trunc(f) && f >= 0 && f <= importer.MaxChainLimit {
			n, ok = int(f), true // a number property: "12.0"
		}
		if !ok {
			in.diag(diag.Warning, limit.at, "write a whole number from 1 to 65535, or 0 (or nothing) for the number of states",
				"%s %s is not a whole number from 0 to 65535; ignored", PropChainLimit, quote(limit.value))
		} else {
			in.c.ChainLimit = n
		}
	}
}

// setting is a value of what the drawing says of how its machine runs
// (its chaining, its fallback), and where it is set.
type setting struct {
	value string
	at    diag.Pos
	set   bool
}

// fallback reads the chart's Fallback from the document's custom
// property PropFallback, or else from the Shape Data of the first page
// (not a background page) whose sheet has it, as chain reads Chain. Its
// white space is made single spaces, as in a state's name; a name of no
// state is package compile's to report.
func (in *interp) fallback() {
	doc := in.doc
	s := in.customSetting(doc.CustomProps, PropFallback)
	for _, pg := range doc.Pages {
		if s.set || pg.Background {
			break
		}
		s = in.pageSetting(pg, PropFallback)
	}
	if v := chart.NormalizeSpace(s.value); v != "" {
		in.c.Fallback, in.c.FallbackPos = in.text(v), s.at
	}
}

// customChain finds PropChain and PropChainLimit among the document's
// custom properties.
func (in *interp) customChain(props []CustomProp) (chain, limit setting, ok bool) {
	chain, limit = in.customSetting(props, PropChain), in.customSetting(props, PropChainLimit)
	return chain, limit, chain.set || limit.set
}

// customSetting finds the custom property of the document named name:
// the first so named, names told apart regardless of case, as Visio
// does.
func (in *interp) customSetting(props []CustomProp, name string) setting {
	for i := range props {
		if p := &props[i]; strings.EqualFold(p.Name, name) {
			return setting{p.Value, in.pos(p.Pos, nil, "", ""), true}
		}
	}
	return setting{}
}

// pageChain finds PropChain and PropChainLimit among the Shape Data rows
// of the sheet of page pg.
func (in *interp) pageChain(pg *Page) (chain, limit setting, ok bool) {
	chain, limit = in.pageSetting(pg, PropChain), in.pageSetting(pg, PropChainLimit)
	return chain, limit, chain.set || limit.set
}

// pageSetting finds the Shape Data row named name of the sheet of page
// pg, by row name, local name or label: the first so named, regardless
// of case.
func (in *interp) pageSetting(pg *Page, name string) setting {
	for i := range pg.Props {
		p := &pg.Props[i]
		if !p.Deleted && (strings.EqualFold(p.Row, name) || strings.EqualFold(p.Name, name) || strings.EqualFold(p.Label, name)) {
			return setting{p.Value, in.pos(p.Pos, pg, "", ""), true}
		}
	}
	return setting{}
}

// isPart reports whether s is a member of an instance of a group master:
// part of its group's picture, not a shape of its own.
func isPart(s *Shape) bool { return s.MasterID == "" && s.MasterShapeID != "" }

// whole returns the shape n is part of: n itself, or the group whose
// master's picture n belongs to.
func whole(sh *sheet, n *node) *node {
	for n.parent != 0 && n.flags&fPart != 0 {
		n = sh.node(n.parent)
	}
	return n
}

// page builds the states and transitions of a page read.
func (in *interp) page(sh *sheet) {
	strict := in.st != nil
	sev := in.severity()
	in.c.Diagnostics = append(in.c.Diagnostics, sh.dup...)
	in.c.Diagnostics = append(in.c.Diagnostics, sh.glue...)

	// Which shapes of a plain diagram are states: those a connector is
	// glued to (see prepare), and others by where they are.
	if !strict {
		for n := range sh.nodes.all() {
			if n.draft < 0 || !plainState(sh, n) {
				continue
			}
			if d, ok := sh.unsup[n]; ok {
				in.rep.add(&in.c.Diagnostics, d, "unsupported")
				continue
			}
			n.flags |= fState
		}
	}
	in.c.Diagnostics = append(in.c.Diagnostics, sh.stateDiags...)
	in.nest(sh)

	states, transitions := 0, 0
	for n := range sh.nodes.all() {
		if n.flags&fState != 0 {
			states++
		}
		if in.isTransition(n) {
			transitions++
		}
	}
	in.c.States = slices.Grow(in.c.States, states)
	for n := range sh.nodes.all() {
		if n.flags&fState != 0 {
			in.state(sh, n, sh.up[n])
		}
	}
	// The transitions' array is the largest allocation of a reading (256
	// bytes a transition), made after the states': their allocations,
	// small ones, usually reach the collector's trigger first, so that the
	// parser's garbage is being collected, or has been, when the array is
	// allocated (an allocation during a collection helps it finish first)
	// rather than only after, on top of it.
	in.c.Transitions = slices.Grow(in.c.Transitions, transitions)
	unmastered := 0
	for n := range sh.nodes.all() {
		switch {
		case in.isTransition(n):
			in.transition(sh, n, sev)
		case strict && n.role == chart.RoleNone && n.flags&(fMastered|fPart|fSkip|fState) == 0:
			if n.flags&fOneD != 0 && n.flags&(fBegin|fEnd) != 0 {
				in.diag(diag.Warning, in.at(sh, n, chart.NormalizeSpace(n.text)),
					fmt.Sprintf("draw transitions with the stencil's %q master", in.st.Masters.Transition),
					"connector drawn without a master of stencil %q: not a transition; ignored", in.st.Name)
			} else {
				unmastered++
			}
		}
	}
	if unmastered > 0 {
		in.diag(diag.Note, in.pos(sh.pg.Pos, sh.pg, "", ""), "", "%d shapes drawn without a master are not part of the chart", unmastered)
	}
}

// isTransition reports whether a shape is read as a transition: a shape of
// the stencil's transition master, or a 1-D shape of a plain diagram.
func (in *interp) isTransition(n *node) bool {
	if in.st != nil {
		return n.role == chart.RoleTransition
	}
	return n.flags&(fOneD|fPart|fSkip) == fOneD
}

func endName(cell string) string {
	if cell == "BeginX" {
		return "start"
	}
	return "end"
}

// plainState reports whether a shape of a plain state diagram is a state:
// a 2-D shape at the top of the page (not a guide, a picture, a group that
// only holds states, or a container no connector is glued to, unless its
// master says it is a composite state or a region), or any 2-D shape a
// connector is glued to.
func plainState(sh *sheet, n *node) bool {
	switch {
	case n.flags&(fOneD|fGuide|fPart) != 0:
		return false
	case n.flags&fGlued != 0:
		return true
	case n.parent == 0 && n.flags&(fForeign|fContainer) == fContainer && (sh.states.at(n.draft).composite || sh.states.at(n.draft).region):
		return true
	case n.parent != 0 || n.flags&(fForeign|fContainer) != 0:
		return false
	case n.flags&fGluedBelow != 0 && strings.TrimSpace(n.text) == "":
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

// plainText returns the name of a state of a plain diagram and, shortened
// for a message, the text written in it besides its name: the text that
// names it (see stateText) up to its first line after the first that
// holds a '/' (UML's "entry / action" below the name), and the rest of
// it and the other texts of its master's picture (a UML state's
// behaviour compartment) as the other text.
func plainText(s *Shape) (name, extra string) {
	name, rest := importer.SplitBehaviour(stateText(s))
	var b strings.Builder
	add := func(t string) {
		if t = strings.TrimSpace(t); t != "" && b.Len() < 4*source.MaxQuoted {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(source.Shorten(t, 4*source.MaxQuoted))
		}
	}
	add(rest)
	named := strings.TrimSpace(s.Text) != ""
	var walk func(*Shape)
	walk = func(g *Shape) { // in stateText's order: the first text names the state
		for _, m := range g.Shapes {
			if !isPart(m) {
				continue
			}
			if strings.TrimSpace(m.Text) != "" {
				if named {
					add(m.Text)
				}
				named = true
			}
			walk(m)
		}
	}
	walk(s)
	if b.Len() == 0 {
		return name, ""
	}
	return name, importer.Shorten(chart.NormalizeSpace(b.String()), 60)
}

// box returns where a shape is drawn on its page, in inches from the
// page's bottom-left corner (X rightwards, Y upwards; X and Y the box's
// bottom-left corner), or nil when the drawing does not say; groups holds
// the groups around it, the nearest last. A member's cells are relative
// to its group. Rotation is ignored. See pixelBox.
func box(s *Shape, groups []*Shape) *chart.Box {
	x, y, ok := s.XForm.origin()
	if !ok {
		return nil
	}
	for i := len(groups) - 1; i >= 0; i-- {
		ax, ay, ok := groups[i].XForm.origin()
		if !ok {
			return nil
		}
		x, y = x+ax, y+ay
	}
	w, h := s.XForm.Width, s.XForm.Height
	if w < 0 {
		x, w = x+w, -w
	}
	if h < 0 {
		y, h = y+h, -h
	}
	return &chart.Box{X: x, Y: y, W: w, H: h}
}

// pixelBox turns b, a box of the function box, into a state's Box on a
// page height inches high, in place: pixels from the page's top-left
// corner. It returns nil when the page's height is not known (the pages
// of a drawing are complete when their states are built, whatever the
// order of their elements) or the box is too large to be a place on a
// page.
func pixelBox(b *chart.Box, height float64) *chart.Box {
	if b == nil || height <= 0 {
		return nil
	}
	*b = chart.Box{X: pixels(b.X), Y: pixels(height - b.Y - b.H), W: pixels(b.W), H: pixels(b.H)}
	for _, v := range [...]float64{b.X, b.Y, b.W, b.H} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
	}
	return b
}

// pixels converts inches to pixels of 1/96 inch, to a thousandth.
func pixels(inches float64) float64 {
	return math.Round(inches*96*1000) / 1000
}

func (in *interp) state(sh *sheet, n *node, parent *node) {
	d := sh.states.at(n.draft)
	d.box = pixelBox(d.box, sh.pg.Height) // on() reads it so
	st := chart.State{ID: n.id, Name: d.name, Box: d.box}
	if parent != nil {
		st.Parent = parent.id
	}
	st.Kind = d.kind
	if in.st == nil {
		st.Initial = d.initial
	} else {
		// A start pseudo-state is marked, as in a plain diagram: its
		// compound state (or the machine) starts at its transition's end.
		st.Initial = n.role == chart.RoleInitial || n.role == chart.RoleStart
		st.Entry = in.entry(sh, n, d)
	}
	st.Pos = in.at(sh, n, st.Name)
	if extra := sh.extra[n]; extra != "" {
		in.diag(diag.Warning, st.Pos, hintText, "state %s: the text written in it besides its name is left out: %s", quote(st.Name), quote(extra))
	}
	in.c.States = append(in.c.States, st)
}

func (in *interp) transition(sh *sheet, n *node, sev diag.Severity) {
	label := strings.TrimSpace(n.text)
	at := in.at(sh, n, chart.NormalizeSpace(label))
	strict := in.st != nil
	what, ignored := "connector", "; ignored"
	if strict {
		what, ignored = "transition", ""
	}
	switch beginStale, endStale := sh.staleEnds(n); {
	case beginStale != "" || endStale != "":
		end, id := "start", beginStale
		if id == "" {
			end, id = "end", endStale
		}
		in.diag(sev, at, "the file is inconsistent; "+hintReglue,
			"the %s of the %s is glued to shape %s, which is not on the page%s", end, what, short(id), ignored)
		return
	case n.begin == 0 && n.end == 0 && !strict:
		in.unglued(sh, n, at, label)
		return
	case n.begin == 0:
		if on := sh.startOn(n); on != nil {
			// Not a transition as Visio connects it, but drawn as one.
			in.diag(diag.Error, at, hintReglue, "the start of the %s is glued to no state, though it lies on %s: it is not a transition until it is glued",
				what, sh.describe(on))
		} else {
			in.diag(sev, at, hintReglue, "the start of the %s is glued to no state%s", what, ignored)
		}
		return
	}
	t := chart.Transition{ID: n.id, Label: in.text(label), Pos: at}
	from := whole(sh, sh.node(n.begin))
	switch {
	case from.flags&fState != 0:
		t.From = from.id
	case strict && from.role == chart.RoleAnyState:
		t.AnyState = true
	default:
		in.diag(sev, at, "", "the start of the %s is glued to %s, which is not a state%s", what, sh.describe(from), ignored)
		return
	}
	var to *node
	if n.end == 0 {
		t.Target.Kind = chart.ToFinal
	} else if to = whole(sh, sh.node(n.end)); to.flags&fState != 0 {
		t.Target = chart.Target{Kind: chart.ToState, State: to.id}
	} else {
		hint := ""
		if strict && to.role == chart.RoleAnyState {
			hint = "a message handler only starts transitions"
		}
		in.diag(sev, at, hint, "the end of the %s is glued to %s, which is not a state%s", what, sh.describe(to), ignored)
		return
	}
	valid := true
	untested := strict && sh.untested(from) // a start's or a history's transition: taken without a test
	test := ""                              // the test set on it, ignored
	for _, f := range sh.tdiags[n] {
		if untested && aboutTest(f.kind) {
			test = cmp.Or(test, f.test)
			continue
		}
		in.rep.add(&in.c.Diagnostics, f.d, f.kind)
		valid = valid && f.d.Severity != diag.Error
	}
	returns := false
	if strict {
		d := sh.trans.at(n.draft)
		switch {
		case untested && d.test > 0:
			test = in.st.Tests[d.test-1].Name
		case valid && d.test > 0: // its test is the stencil's
			t.Test = in.strs.Clone(in.st.Tests[d.test-1].Name)
		}
		if test != "" {
			in.report([]importer.Problem{importer.IgnoredTest(at, sh.states.at(from.draft).kind, sh.describe(from), test, in.props.Test, "Shape Data")}, kindIgnoredTest)
		}
		if t.Pos.ShapeName == "" { // a connector without text: named by its test
			t.Pos.ShapeName = t.Test
		}
		t.Order, t.Push = int(d.order), d.push
		if d.value > 0 {
			t.Value = in.vals[d.value-1]
		}
		if n.flags&fBigOrder != 0 {
			t.Order = sh.orders[n]
		}
		if returns = d.ret; returns {
			if t.Target.Kind == chart.ToState {
				in.diag(diag.Error, sh.ret[n], "unglue the end of the connector: a returning transition goes to the state on top of the stack",
					"a returning transition is glued at its end to state %s", short(t.Target.State))
				valid = false
			}
			t.Target = chart.Target{Kind: chart.ToReturn}
		}
	} else {
		t.Event, t.Guard, t.Action = chart.ParseLabel(label)
		t.Event, t.Guard, t.Action = in.text(t.Event), in.text(t.Guard), in.text(t.Action)
		t.Test = t.Event
		if t.Test == "" {
			t.Test = t.Guard
		}
	}
	if !valid || !in.checkFinal(sh, n, to, &t, returns) {
		return
	}
	in.c.Transitions = append(in.c.Transitions, t)
}

// checkFinal checks a transition's final mark (PropFinal in a plain
// diagram, the stencil's Final property in a drawing made with one)
// against its end, to (nil when the end is glued to nothing). A
// transition whose end is glued to no state ends the machine (the
// article: "any transition that ends with no state is considered to have
// entered a final state"); unless marked, a warning says so, for a
// designer who forgot to glue the connector's end. A returning
// transition, whose end is loose by design, is not warned about, nor one
// that enters an end pseudo-state. A marked transition whose end is glued
// to a state, or that returns, is an error, and checkFinal returns false.
func (in *interp) checkFinal(sh *sheet, n, to *node, t *chart.Transition, returns bool) bool {
	name := PropFinal
	if in.st != nil {
		name = in.props.Final
	}
	marked := n.flags&fFinal != 0
	switch {
	case marked && returns:
		in.diag(diag.Error, t.Pos, "set "+name+" to 0 (false): a returning transition goes to the state on top of the stack",
			"the transition returns (%s = %s) and is marked %s: it cannot do both", in.props.Stack, chart.StackReturn, name)
		return false
	case marked && to != nil && (in.st != nil || sh.states.at(to.draft).kind != chart.EndState):
		in.diag(diag.Error, t.Pos, "unglue the end of the connector to end the machine there, or set "+name+" to 0 (false)",
			"the connector is marked %s, but its end is glued to %s", name, sh.describe(to))
		return false
	case !marked && t.Target.Kind == chart.ToFinal:
		hint := "glue its end to a state if you meant one; if the machine should end there, set its Shape Data row " + quote(name) + " to 1 (true)"
		if in.st == nil {
			hint += ", or end it on an end shape (a UML final state)"
		}
		lies := ""
		if on := sh.endOn(n); on != nil {
			lies = ", though its end lies on " + sh.describe(on)
		}
		in.diag(diag.Warning, t.Pos, hint,
			"the end of the connector is glued to no state%s: taken as a transition to the final state, which ends the machine", lies)
	}
	return true
}

// unglued reports a connector of a plain diagram glued to no shape at
// all. One whose start lies on a state was drawn as a transition but is
// not one, as Visio connects shapes: an error. Others are left out: with
// a warning when they have a text, with a note when they have none (a
// line without a label is drawing, not a transition).
func (in *interp) unglued(sh *sheet, n *node, at diag.Pos, label string) {
	if on := sh.startOn(n); on != nil {
		end := ""
		if to := sh.endOn(n); to != nil {
			end = " and its end on " + sh.describe(to)
		}
		in.diag(diag.Error, at, hintGlueBoth, "the connector is glued to no shape, though its start lies on %s%s: it is not a transition until its ends are glued",
			sh.describe(on), end)
		return
	}
	if label != "" {
		in.diag(diag.Warning, at, "glue its start to the state it leaves and its end to the state it enters (or leave its end free to end the machine), or delete it",
			"the connector is glued to no shape: not a transition; ignored")
		return
	}
	in.diag(diag.Note, at, "", "connector glued to no shape; ignored")
}

// startOn and endOn return the state the free start or end of the
// connector n lies on (see sheet.on), or nil.
func (sh *sheet) startOn(n *node) *node {
	if n.draft < 0 {
		return nil
	}
	e := sh.ends.at(n.draft)
	return sh.on(e[0], e[1])
}

func (sh *sheet) endOn(n *node) *node {
	if n.draft < 0 {
		return nil
	}
	e := sh.ends.at(n.draft)
	return sh.on(e[2], e[3])
}

// stateBox is a state of a page and where it is drawn.
type stateBox struct {
	n *node
	b chart.Box
}

// onTolerance is how far outside a state's box, in pixels (1/16 inch), a
// connector's free end is taken as lying on it.
const onTolerance = 6

// on returns the state whose box holds the point (x, y), in inches on the
// page (see lineEnds), or lies within onTolerance of it: the smallest such box, for
// states drawn inside others. It returns nil when none does, when the
// point is not known, and when the page's budget of boxes is spent (a
// drawing of a million free connectors over a million states is not
// tried a million million times).
func (sh *sheet) on(x, y float32) *node {
	if x != x || y != y || sh.pg.Height <= 0 { // NaN: unknown
		return nil
	}
	if sh.boxes == nil {
		sh.boxes = []stateBox{}
		for n := range sh.nodes.all() {
			if n.flags&fState != 0 && n.draft >= 0 {
				if b := sh.states.at(n.draft).box; b != nil {
					sh.boxes = append(sh.boxes, stateBox{n, *b})
				}
			}
		}
		sh.budget = 1 << 24
	}
	if sh.budget < len(sh.boxes) {
		return nil
	}
	sh.budget -= len(sh.boxes)
	var best *stateBox
	px, py := pixels(float64(x)), pixels(sh.pg.Height-float64(y))
	for i := range sh.boxes {
		b := &sh.boxes[i].b
		if px >= b.X-onTolerance && px <= b.X+b.W+onTolerance && py >= b.Y-onTolerance && py <= b.Y+b.H+onTolerance &&
			(best == nil || b.W*b.H < best.b.W*best.b.H) {
			best = &sh.boxes[i]
		}
	}
	if best == nil {
		return nil
	}
	return best.n
}

// displayName names a shape for people: by its text, or its Visio name.
func displayName(s *Shape) string {
	if t := chart.NormalizeSpace(s.Text); t != "" {
		return t
	}
	return s.Label()
}

// findProp finds the property a stencil names, as inherited: by row name,
// local name, then label (the article's code matched labels): the first
// row labelled name, of the shape then of its bases, that the shape has
// (see Shape.Prop). Each label tried costs a lookup of all the rows: past
// labelTries of them, the rows the shape has are found once for all (see
// heldRows), so that a shape of many rows labelled name, which it deletes,
// costs time in proportion to its rows, not to their square.
func findProp(s *Shape, name string) (Prop, bool) {
	if p, ok := s.Prop(name); ok {
		return p, true
	}
	tried := 0
	var held map[string]bool
	for sh := s; sh != nil; sh = sh.Base {
		for i := range sh.Props {
			r := &sh.Props[i]
			if r.Label != name || r.Deleted {
				continue
			}
			if tried++; tried > labelTries && held == nil {
				held = heldRows(s)
			}
			if held != nil && !held[r.Row] {
				continue
			}
			if p, ok := s.Prop(r.Row); ok {
				return p, true
			}
		}
	}
	return Prop{}, false
}

// labelTries is how many rows labelled as it looks for findProp tries one
// by one.
const labelTries = 4

// heldRows returns the names s.Prop finds a row by, each with whether it
// finds one: at the first of s and its bases that has a row of that name
// (by row name, else by local name, as findRow), whether that row is not
// deleted.
func heldRows(s *Shape) map[string]bool {
	held := make(map[string]bool)
	level := make(map[string]bool)
	for sh := s; sh != nil; sh = sh.Base {
		clear(level)
		for i := range sh.Props {
			if p := &sh.Props[i]; !hasKey(level, p.Row) {
				level[p.Row] = !p.Deleted
			}
		}
		for i := range sh.Props {
			if p := &sh.Props[i]; !hasKey(level, p.Name) {
				level[p.Name] = !p.Deleted
			}
		}
		for k, v := range level {
			if !hasKey(held, k) {
				held[k] = v
			}
		}
	}
	return held
}

func hasKey(m map[string]bool, k string) bool {
	_, ok := m[k]
	return ok
}

// checkMasters compares the masters the drawing uses with the stencil. It
// returns false when the drawing was made with another stencil altogether.
func (in *interp) checkMasters() bool {
	st := in.st
	known := false
	for _, m := range in.order {
		known = known || in.role(m) != chart.RoleNone
	}
	if !known && in.shapes > 0 {
		const listed = 10
		names := make([]string, 0, min(len(in.order), listed+1))
		for _, m := range in.order[:min(len(in.order), listed)] {
			names = append(names, quote(m.Label()))
		}
		if len(in.order) > listed {
			names = append(names, fmt.Sprintf("and %d more", len(in.order)-listed))
		}
		used := "no masters"
		if len(names) > 0 {
			used = "masters " + strings.Join(names, ", ")
		}
		in.diag(diag.Error, diag.Pos{File: in.strs.Clone(in.doc.File)},
			"read it with the stencil it was made with, or without a stencil, as a plain state diagram",
			"the drawing was not made with stencil %q: its shapes use %s, none of which is the stencil's %q or %q",
			st.Name, used, st.Masters.State, st.Masters.Transition)
		return false
	}
	for _, m := range in.order {
		r, u := in.role(m), in.uses[m]
		if r == chart.RoleNone {
			if ignored := u.shapes - u.composites; ignored > 0 { // a composite state is Visio's container, of any master
				in.diag(diag.Warning, u.at,
					"draw charts with the stencil's masters only; decorations belong on a background page",
					"master %s is not in stencil %q: its %d shapes are ignored", quote(m.Label()), st.Name, ignored)
			}
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
	at := func(p *Prop) diag.Pos {
		pos := m.Pos
		if p != nil {
			pos = p.Pos
		}
		return in.pos(pos, nil, "", m.Label())
	}
	const update = "update the drawing's master from the stencil, or the stencil file from the drawing"
	list := func(p *Prop, prop string, want []string) {
		got := p.List()
		if got == nil {
			in.diag(diag.Warning, at(p), update, "master %s: property %q is not a drop-list; stencil %q (version %s) lists %s",
				quote(m.Label()), prop, st.Name, importer.Version(st), strings.Join(want, ";"))
			return
		}
		if !sameSet(got, want) {
			in.diag(diag.Warning, at(p), update,
				"master %s: the drop-list of %q is %s but stencil %q (version %s) lists %s: the drawing was made with another version of the stencil",
				quote(m.Label()), prop, short(strings.Join(got, ";")), st.Name, importer.Version(st), strings.Join(want, ";"))
		}
	}
	var known []string
	switch {
	case r.HasActions():
		known = []string{names.Name}
		for _, a := range st.Actions {
			known = append(known, a.Name)
			p, ok := findProp(base, a.Name)
			if !ok {
				in.diag(diag.Warning, at(nil), update, "master %s has no property %q, which stencil %q (version %s) lists",
					quote(m.Label()), a.Name, st.Name, importer.Version(st))
				continue
			}
			list(&p, a.Name, a.Values)
		}
	case r == chart.RoleTransition:
		known = []string{names.Test, names.Value, names.Order, names.Stack, names.Final} // all but Test optional
		p, ok := findProp(base, names.Test)
		if !ok {
			in.diag(diag.Warning, at(nil), update, "master %s has no property %q: its transitions have no test", quote(m.Label()), names.Test)
			break
		}
		list(&p, names.Test, importer.TestNames(in.st))
	default:
		return
	}
	for i := range base.Props {
		p := &base.Props[i]
		if !slices.Contains(known, p.Row) && !slices.Contains(known, p.Name) && !slices.Contains(known, p.Label) {
			in.diag(diag.Warning, at(p), update, "master %s: property %s is not in stencil %q (version %s): the values its shapes give it are left out",
				quote(m.Label()), quote(p.Row), st.Name, importer.Version(st))
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

// unsupported names what a shape of a plain diagram is that the reader
// does not read, told by the words of its master's name (or its own): a
// part of parallel regions (an orthogonal, concurrent or parallel state, a
// fork, a join); "" for other shapes. (A region of an orthogonal state is
// left out when it is drawn inside a state: see nest.)
func unsupported(s *Shape) string {
	for w := range shapeWords(s) {
		switch w {
		case "orthogonal":
			return "an orthogonal state"
		case "concurrent", "parallel":
			return "a " + w + " state"
		case "fork", "join":
			return "a " + w
		}
	}
	return ""
}

// hasWord reports whether the name of a shape's master (or its own name)
// has the word w.
func hasWord(s *Shape, w string) bool {
	for x := range shapeWords(s) {
		if x == w {
			return true
		}
	}
	return false
}

// shapeWords yields the words of the universal and local names of a
// shape's master, or of the shape's own names when it has no master.
func shapeWords(s *Shape) iter.Seq[string] {
	names := [2]string{s.NameU, s.Name}
	if s.Master != nil {
		names = [2]string{s.Master.NameU, s.Master.Name}
	}
	return func(yield func(string) bool) {
		for _, name := range names {
			for _, w := range nameWords(name) {
				if !yield(w) {
					return
				}
			}
		}
	}
}

// nameWords returns the words of a master's name (see importer.Words), of
// its first 256 bytes: a name of a megabyte, of a master a million shapes
// use, would otherwise cost a million times a megabyte.
func nameWords(name string) []string {
	return importer.Words(source.Shorten(name, 256))
}

// kindOf recognises the pseudo-states of a plain state diagram by the
// words of their master's name (or their own, without a master):
// "start" or "initial" for a start, "end" or "final" for an end, "decision"
// or "choice" for a choice, "history" for a history state, deep when the
// name also says "deep" or the shape's text is "H*" (UML's notation). A
// flowchart terminator ("Start/End") is told by its text. It also reports
// whether the machine starts there: at a start, and at a named shape of a
// start master, which is a state the machine starts in rather than a
// pseudo-state (fsmforge's stencils draw the initial state with an
// "Initial State" master).
func kindOf(s *Shape) (kind chart.StateKind, initial bool) {
	var start, end, choice, terminator, history, deep bool
	for w := range shapeWords(s) {
		switch w {
		case "start", "initial":
			start = true
		case "end", "final":
			end = true
		case "decision", "choice":
			choice = true
		case "terminator":
			terminator = true
		case "history":
			history = true
		case "deep":
			deep = true
		}
	}
	switch {
	case history && (deep || strings.TrimSpace(s.Text) == "H*"):
		return chart.DeepHistoryState, false
	case history:
		return chart.HistoryState, false
	case choice:
		return chart.ChoiceState, false
	case start && !end:
		if strings.TrimSpace(s.Text) != "" && importer.TerminatorKind(s.Text) == chart.NormalState {
			return chart.NormalState, true
		}
		return chart.StartState, true
	case end && !start:
		return chart.EndState, false
	case start || terminator:
		k := importer.TerminatorKind(s.Text)
		return k, k == chart.StartState
	}
	return chart.NormalState, false
}
