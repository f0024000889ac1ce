package visio

import (
	"fmt"
	"hash/maphash"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
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
// it (Read does), so that the shapes and Connects of each page are dropped
// as soon as they are read, leaving their memory to the chart.
func interpret(doc *Document, opt Options, consume bool) (*chart.Chart, error) {
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
		if consume {
			pg.Shapes, pg.Connects = nil, nil
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
// (its name, entry actions and box; its test, value, order and stack
// operation) worked out, and the diagnostics found kept for their turn.
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

	maxTransitions int // Options.MaxTransitions, for Flatten

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

// use is how a master is used: by how many shapes, the first where.
type use struct {
	shapes int
	at     chart.Pos
}

func newInterp(opt Options) *interp {
	in := &interp{st: opt.Stencil, maxTransitions: opt.MaxTransitions, texts: &owner{seed: maphash.MakeSeed()}}
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
	in.rep.flush(&in.c.Diagnostics)
	in.sheets = nil
	if in.st != nil {
		in.initialAncestors()
	}
	chart.Flatten(in.c, in.maxTransitions)
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
	sheets := in.sheets
	for _, pg := range doc.Pages {
		if pg.Background {
			in.diag(chart.Note, in.pos(pg.Pos, pg, "", ""), "", "background page: its shapes are not part of the chart")
			continue
		}
		in.page(sheets[0])
		sheets[0] = nil // read: its memory is the chart's
		sheets = sheets[1:]
	}
	importer.RankOrders(in.c, nil, "visio")
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
	for _, cs := range sh.containerOf {
		for _, c := range cs {
			if n := sh.node(sh.lookup(c)); n != nil {
				n.flags |= fContainer
			}
		}
	}
	in.c.Diagnostics = append(in.c.Diagnostics, sh.glue...)

	// Which shapes of a plain diagram are states: those a connector is
	// glued to, and others by where they are.
	if !strict {
		for n := range sh.nodes.all() {
			if n.flags&fOneD == 0 {
				continue
			}
			for _, g := range [2]ref{n.begin, n.end} {
				if g == 0 {
					continue
				}
				t := whole(sh, sh.node(g))
				t.flags |= fGlued
				for a := sh.node(t.parent); a != nil && a.flags&fGluedBelow == 0; a = sh.node(a.parent) {
					a.flags |= fGluedBelow
				}
			}
		}
		for n := range sh.nodes.all() {
			if n.draft < 0 || !plainState(n) {
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
			in.state(sh, n, parentState(sh, n))
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
		case strict && n.role == chart.RoleNone && n.flags&(fMastered|fPart|fSkip) == 0:
			if n.flags&fOneD != 0 && n.flags&(fBegin|fEnd) != 0 {
				in.diag(chart.Warning, in.at(sh, n, chart.NormalizeSpace(n.text)),
					fmt.Sprintf("draw transitions with the stencil's %q master", in.st.Masters.Transition),
					"connector drawn without a master of stencil %q: not a transition; ignored", in.st.Name)
			} else {
				unmastered++
			}
		}
	}
	if unmastered > 0 {
		in.diag(chart.Note, in.pos(sh.pg.Pos, sh.pg, "", ""), "", "%d shapes drawn without a master are not part of the chart", unmastered)
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

// parentState returns the state a state is drawn inside: the nearest
// group around it that is a state, or a container that holds it (or holds
// a group around it) and is a state; nil if none. Each shape's containers
// are looked at once.
func parentState(sh *sheet, n *node) *node {
	for x := n; x != nil; x = sh.node(x.parent) {
		if x != n && x.flags&fState != 0 {
			return x
		}
		if x.flags&fInStateSet == 0 {
			x.flags |= fInStateSet
			for _, id := range sh.containerOf[sh.shapeID(x)] {
				if c := sh.node(sh.lookup(id)); c != nil && c != x && c.flags&fState != 0 {
					if sh.inState == nil {
						sh.inState = make(map[*node]*node)
					}
					sh.inState[x] = c
					break
				}
			}
		}
		if c := sh.inState[x]; c != nil && c != n {
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
	switch {
	case n.flags&(fOneD|fGuide|fPart) != 0:
		return false
	case n.flags&fGlued != 0:
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

// box returns where a shape is drawn on its page pg, in pixels from the
// top left corner, or nil when the drawing does not say; groups holds the
// groups around it, the nearest last. A member's cells are relative to its
// group. Rotation is ignored.
func box(s *Shape, groups []*Shape, pg *Page) *chart.Box {
	if pg.Height <= 0 {
		return nil
	}
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

func (in *interp) state(sh *sheet, n *node, parent *node) {
	d := sh.states.at(n.draft)
	st := chart.State{ID: n.id, Name: d.name, Box: d.box}
	if parent != nil {
		st.Parent = parent.id
	}
	if in.st == nil {
		st.Kind, st.Initial = d.kind, d.initial
	} else {
		st.Initial = n.role == chart.RoleInitial
		st.Entry = in.entry(sh, n, d)
	}
	st.Pos = in.at(sh, n, st.Name)
	in.c.States = append(in.c.States, st)
}

func (in *interp) transition(sh *sheet, n *node, sev chart.Severity) {
	label := strings.TrimSpace(n.text)
	at := in.at(sh, n, chart.NormalizeSpace(label))
	strict := in.st != nil
	what, ignored := "connector", "; ignored"
	if strict {
		what, ignored = "transition", ""
	}
	const reglue = "drag the connector's end onto the shape until the shape is outlined, so that it is glued"
	switch beginStale, endStale := sh.staleEnds(n); {
	case beginStale != "" || endStale != "":
		end, id := "start", beginStale
		if id == "" {
			end, id = "end", endStale
		}
		in.diag(sev, at, "the file is inconsistent; "+reglue,
			"the %s of the %s is glued to shape %s, which is not on the page%s", end, what, short(id), ignored)
		return
	case n.begin == 0 && n.end == 0 && !strict:
		in.diag(chart.Note, at, "", "connector glued to no shape; ignored")
		return
	case n.begin == 0:
		in.diag(sev, at, reglue, "the start of the %s is glued to no state%s", what, ignored)
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
	if n.end == 0 {
		t.Target.Kind = chart.ToFinal
	} else if to := whole(sh, sh.node(n.end)); to.flags&fState != 0 {
		t.Target = chart.Target{Kind: chart.ToState, State: to.id}
	} else {
		hint := ""
		if strict && to.role == chart.RoleAnyState {
			hint = "a message handler only starts transitions"
		}
		in.diag(sev, at, hint, "the end of the %s is glued to %s, which is not a state%s", what, sh.describe(to), ignored)
		return
	}
	if strict {
		d := sh.trans.at(n.draft)
		diags := sh.tdiags[n]
		for _, f := range diags {
			in.rep.add(&in.c.Diagnostics, f.d, f.kind)
		}
		valid := diags == nil
		if valid { // its test is the stencil's
			t.Test = in.strs.Clone(in.st.Tests[d.test-1].Name)
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
		if d.ret {
			if t.Target.Kind == chart.ToState {
				in.diag(chart.Error, sh.ret[n], "unglue the end of the connector: a returning transition goes to the state on top of the stack",
					"a returning transition is glued at its end to state %s", short(t.Target.State))
				valid = false
			}
			t.Target = chart.Target{Kind: chart.ToReturn}
		}
		if !valid {
			return
		}
	} else {
		t.Event, t.Guard, t.Action = chart.ParseLabel(label)
		t.Event, t.Guard, t.Action = in.text(t.Event), in.text(t.Guard), in.text(t.Action)
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

// findProp finds the property a stencil names, as inherited: by row name,
// local name, then label (the article's code matched labels).
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
		in.diag(chart.Error, chart.Pos{File: in.strs.Clone(in.doc.File)},
			"read it with the stencil it was made with, or without a stencil, as a plain state diagram",
			"the drawing was not made with stencil %q: its shapes use %s, none of which is the stencil's %q or %q",
			st.Name, used, st.Masters.State, st.Masters.Transition)
		return false
	}
	for _, m := range in.order {
		r, u := in.role(m), in.uses[m]
		if r == chart.RoleNone {
			in.diag(chart.Warning, u.at,
				"draw charts with the stencil's masters only; decorations belong on a background page",
				"master %s is not in stencil %q: its %d shapes are ignored", quote(m.Label()), st.Name, u.shapes)
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
		return in.pos(pos, nil, "", m.Label())
	}
	const update = "update the drawing's master from the stencil, or the stencil file from the drawing"
	list := func(p *Prop, prop string, want []string) {
		got := p.List()
		if got == nil {
			in.diag(chart.Warning, at(p), update, "master %s: property %q is not a drop-list; stencil %q (version %s) lists %s",
				quote(m.Label()), prop, st.Name, importer.Version(st), strings.Join(want, ";"))
			return
		}
		if !sameSet(got, want) {
			in.diag(chart.Warning, at(p), update,
				"master %s: the drop-list of %q is %s but stencil %q (version %s) lists %s: the drawing was made with another version of the stencil",
				quote(m.Label()), prop, short(strings.Join(got, ";")), st.Name, importer.Version(st), strings.Join(want, ";"))
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
				in.diag(chart.Warning, at(nil), update, "master %s has no property %q, which stencil %q (version %s) lists",
					quote(m.Label()), a.Name, st.Name, importer.Version(st))
				continue
			}
			list(&p, a.Name, a.Values)
		}
	case chart.RoleTransition:
		known = []string{names.Test, names.Value, names.Order, names.Stack}
		p, ok := findProp(base, names.Test)
		if !ok {
			in.diag(chart.Warning, at(nil), update, "master %s has no property %q: its transitions have no test", quote(m.Label()), names.Test)
			break
		}
		list(&p, names.Test, importer.TestNames(in.st))
	default:
		return
	}
	for i := range base.Props {
		p := &base.Props[i]
		if !slices.Contains(known, p.Row) && !slices.Contains(known, p.Name) && !slices.Contains(known, p.Label) {
			in.diag(chart.Note, at(p), "", "master %s: property %s is not in stencil %q; ignored", quote(m.Label()), quote(p.Row), st.Name)
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
		for _, w := range nameWords(name) {
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

// nameWords returns the words of a master's name (see importer.Words), of
// its first 256 bytes: a name of a megabyte, of a master a million shapes
// use, would otherwise cost a million times a megabyte.
func nameWords(name string) []string {
	return importer.Words(source.Shorten(name, 256))
}

// kindOf recognises the pseudo-states of a plain state diagram by the
// words of their master's name (or their own, without a master):
// "start" or "initial" for a start, "end" or "final" for an end, "decision"
// or "choice" for a choice. A flowchart terminator ("Start/End") is told
// by its text. It also reports whether the machine starts there: at a
// start, and at a named shape of a start master, which is a state the
// machine starts in rather than a pseudo-state (fsmforge's stencils draw
// the initial state with an "Initial State" master).
func kindOf(s *Shape) (kind chart.StateKind, initial bool) {
	names := [2]string{s.NameU, s.Name}
	if s.Master != nil {
		names = [2]string{s.Master.NameU, s.Master.Name}
	}
	var start, end, choice, terminator bool
	for _, name := range names {
		for _, w := range nameWords(name) {
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
