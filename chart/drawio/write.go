package drawio

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
)

// WriteOptions tunes writing a chart. The zero value writes every page
// uncompressed.
type WriteOptions struct {
	// Compress writes each page compressed (base64 of deflated, URL-encoded
	// XML), as draw.io does when the file's Compressed property is set:
	// smaller, but not readable in a diff. Default false.
	Compress bool
}

// The sizes of the shapes Write and WriteLibrary draw.
const (
	stateW, stateH = 120, 60
	pseudoSize     = 30
	choiceSize     = 40
	gridX, gridY   = 200, 120
	margin         = 40
)

// Styles of the shapes fsmforge draws.
const (
	styleState      = "rounded=1;whiteSpace=wrap;"
	styleInitial    = "rounded=1;whiteSpace=wrap;strokeWidth=3;"
	styleHandler    = "shape=hexagon;perimeter=hexagonPerimeter2;whiteSpace=wrap;fixedSize=1;dashed=1;"
	styleStart      = "ellipse;shape=startState;fillColor=#000000;strokeColor=#000000;"
	styleEnd        = "ellipse;shape=endState;fillColor=#000000;strokeColor=#000000;"
	styleChoice     = "rhombus;whiteSpace=wrap;"
	styleTransition = "rounded=0;orthogonalLoop=1;jettySize=auto;endArrow=block;endFill=1;"
	styleAlso       = "rounded=0;orthogonalLoop=1;jettySize=auto;endArrow=block;endFill=1;dashed=1;"
	styleContainer  = "container=1;verticalAlign=top;arcSize=6;"
	styleParallel   = "swimlane;rounded=1;whiteSpace=wrap;container=1;startSize=30;arcSize=6;"
	styleRegion     = "rounded=0;whiteSpace=wrap;dashed=1;container=1;verticalAlign=top;align=left;spacingLeft=6;"
	styleHistory    = "ellipse;whiteSpace=wrap;aspect=fixed;"
	styleComposite  = "swimlane;rounded=1;whiteSpace=wrap;container=1;startSize=30;arcSize=6;fontStyle=0;"
)

// Write writes c as a draw.io diagram (an mxfile, one diagram per page of
// the chart) that [Read] reads back into an equal chart: the same states
// (IDs, names, kinds, parents, initial states, entry and exit actions)
// and transitions (IDs, ends, orders, tests, values, labels, stack
// operations, actions, further targets, internal or not), positions
// aside. Read it with c.Stencil when c has one.
//
// A chart with a stencil is drawn with the shapes of the stencil's
// library (see [WriteLibrary]): states, initial states and transitions
// carry the stencil's properties in their Edit Data, any-state
// transitions leave a message-handler shape; a compound state is a shape
// of the composite master when the stencil has one and the state is not
// drawn with the initial-state master (else a container of the state or
// initial-state master), a parallel state, a start or a history one of
// the parallel, start or history master. Initial states are drawn as
// Read reads them (see Nested states in the package documentation): a
// state the initial-state master makes initial through a state inside
// it (a compound the machine starts in, a parallel state) is drawn with
// its own master, the states inside that start it with the initial-state
// master, and a parallel state that no state inside starts has one of
// its regions drawn with it. A
// plain chart is drawn as a UML state diagram: boxes, start, end and
// choice shapes, edges labelled "event [guard] / action"; where the
// label alone would not give the transition's order, test, event, guard
// or action back, or a state's initial flag, the fsmforge attributes
// (AttrOrder, AttrTest...) say it, and they carry what a label does not
// hold: a history's name (AttrName), entry and exit actions (AttrEntry,
// AttrExit) and a transition's actions (AttrActions), one a line (see
// the package documentation).
//
// States are drawn at their Box; those without one on a grid below the
// others. States of a page whose IDs carry the page's prefix ("4/36", as
// Read makes them for pages after the first) go on a page of their own;
// otherwise all are drawn on one page. A state with a Parent is drawn
// inside it, a container (container=1) large enough to hold the states
// inside, which are laid out in rows when they have no Box; a parallel
// state is marked AttrParallel, its regions stacked inside it; a history
// is an ellipse labelled H or H*. A transition to several states (Also)
// is an edge to its Target and, to each further state, an edge marked
// AttrAlso; an internal transition is marked AttrInternal; a transition
// without a target (chart.ToNone) is an edge from its state back to it,
// marked AttrStay. Transitions that end in the final state, or return,
// end loose. A chart that runs as a statechart (Chart.Statechart) is
// marked AttrStatechart; a chart whose Name is not its File's base name
// (which Read gives a drawing) is marked AttrName, and a chart's Fallback
// is kept in AttrFallback, in the diagram's Edit Data.
//
// The output is deterministic: the same chart gives the same bytes. Write
// returns an error, and writes nothing, for a chart it cannot draw so that
// it reads back: a plain chart with values, stack operations or any-state
// transitions (which only a stencil gives); a chart with a stencil whose
// property names are not XML names, or that has what its masters and
// properties cannot say: pseudo-states other than starts and histories,
// parallel states, starts or histories without their masters, a start
// that is not initial, an initial history, initial states that a drawing
// cannot mark so (a region of a parallel state marked initial; a state
// not marked initial though a state inside it is and none beside it is,
// nor a start, so that Read would mark it; an initial parallel state
// beside another initial state), exit actions, entry actions that are
// not the stencil's (or on a start or a history), transitions with
// actions, without a target or internal, a test on a start's or a
// history's transition or none on another; an action of an unknown
// kind, with a field its kind does not
// use, or a delay that is not a number of seconds from 0; an ID shared by
// a state and a transition; a state inside a pseudo-state, inside itself
// or inside a state the chart does not have; a history at the top level,
// a parallel state without regions. It panics if c is nil.
func Write(w io.Writer, c *chart.Chart, opt WriteOptions) error {
	if c == nil {
		panic("drawio: Write of a nil chart")
	}
	wr := &writer{c: c, st: c.Stencil, opt: opt}
	if err := wr.check(); err != nil {
		return err
	}
	wr.paginate()
	// Each transition's position among those leaving the same state (or
	// any state), in the order Read reads them: what it takes as the
	// order when none is written.
	wr.nth = make([]int, len(c.Transitions))
	wr.ranked = make(map[string]bool)
	seen := make(map[string]int)
	for _, pg := range wr.pages {
		for _, i := range pg.trans {
			t := &c.Transitions[i]
			key := t.From
			if t.AnyState {
				key = "\x00any"
			}
			seen[key]++
			wr.nth[i] = seen[key]
			if t.Order != wr.nth[i] || wr.st == nil && orderPrefix(t.Label) > 0 {
				wr.ranked[key] = true
			}
		}
	}
	var out bytes.Buffer
	out.WriteString(`<mxfile host="fsmforge" pages="` + strconv.Itoa(len(wr.pages)) + `">` + "\n")
	for _, pg := range wr.pages {
		model := wr.model(pg)
		out.WriteString(`  <diagram id="` + esc(pg.id) + `" name="` + esc(pg.name) + `">`)
		if opt.Compress {
			out.WriteString(compress(model))
		} else {
			out.WriteString("\n")
			out.WriteString(model)
			out.WriteString("  ")
		}
		out.WriteString("</diagram>\n")
	}
	out.WriteString("</mxfile>\n")
	_, err := w.Write(out.Bytes())
	return err
}

type writer struct {
	c     *chart.Chart
	st    *chart.Stencil
	opt   WriteOptions
	props chart.Properties
	pages []*wpage
	nth   []int // per transition, its place among those leaving its state
	// ranked marks the states (by ID, "\x00any" for the any-state
	// transitions) whose transitions are not tried in document order:
	// each of their transitions is written with its order, since Read
	// tries those without one after those with one.
	ranked map[string]bool
	holds  map[string]bool            // the states of the page being written that hold states
	kinds  map[string]chart.StateKind // the kind of each state, by ID (the first of a repeated ID)
	// drawnInitial marks the states (by ID) a chart with a stencil draws
	// with the initial-state master (see initials).
	drawnInitial map[string]bool
}

// groupKey is the key of a transition's state in writer.ranked.
func groupKey(t *chart.Transition) string {
	if t.AnyState {
		return "\x00any"
	}
	return t.From
}

// wpage is a page being written.
type wpage struct {
	id, name string
	prefix   string // removed from the chart's IDs to give cell IDs
	states   []int  // indices in c.States
	trans    []int  // indices in c.Transitions
}

var errWrite = errors.New("drawio: cannot write the chart")

func writeErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errWrite}, args...)...)
}

// reserved are the wrapper attributes a stencil's property may not be
// named.
var reserved = []string{"id", "label", "placeholders", "tooltip", "link", "linkTarget", "tags", AttrRole, AttrStencil, AttrVersion, AttrAlso}

// check refuses what cannot be written so that it reads back.
func (wr *writer) check() error {
	c, st := wr.c, wr.st
	if st != nil {
		wr.props = st.PropertyNames()
		p := wr.props
		names := []string{p.Name, p.Test, p.Value, p.Order, p.Stack}
		for _, a := range st.Actions {
			names = append(names, a.Name)
		}
		for _, n := range names {
			if !isXMLName(n) || slices.Contains(reserved, n) {
				return writeErr("stencil %q: property %q cannot be an attribute of a draw.io shape: use a name of letters, digits, '_', '-' and '.', other than %s",
					st.Name, n, strings.Join(reserved, ", "))
			}
		}
	}
	ids := make(map[string]bool, len(c.States))
	wr.kinds = make(map[string]chart.StateKind, len(c.States))
	for i := range c.States {
		s := &c.States[i]
		ids[s.ID] = true
		if _, dup := wr.kinds[s.ID]; !dup {
			wr.kinds[s.ID] = s.Kind
		}
		if s.ID == "" {
			return writeErr("a state without an ID")
		}
		if err := wr.checkState(s); err != nil {
			return err
		}
	}
	seen := make(map[string]bool, len(c.Transitions))
	for i := range c.Transitions {
		t := &c.Transitions[i]
		switch {
		case t.ID == "":
			return writeErr("a transition without an ID")
		case ids[t.ID]:
			return writeErr("transition %q has the ID of a state; draw.io cells need IDs of their own", t.ID)
		case seen[t.ID]:
			return writeErr("two transitions have the ID %q", t.ID)
		}
		seen[t.ID] = true
		if err := wr.checkTransition(t); err != nil {
			return err
		}
		for _, id := range t.Also {
			if !ids[id] {
				return writeErr("transition %q also enters %q, which the chart does not have", t.ID, id)
			}
		}
	}
	if err := wr.checkNesting(); err != nil {
		return err
	}
	if st != nil {
		return wr.initials()
	}
	return nil
}

// checkState refuses a state that cannot be drawn so that it reads back.
func (wr *writer) checkState(s *chart.State) error {
	st := wr.st
	if st == nil {
		for _, list := range []struct {
			what string
			as   []chart.Action
		}{{"entry", s.Entry}, {"exit", s.Exit}} {
			for k, a := range list.as {
				if why := checkAction(a); why != "" {
					return writeErr("state %q: %s action %d is %s", s.ID, list.what, k+1, why)
				}
			}
		}
		return nil
	}
	if len(s.Exit) > 0 {
		return writeErr("state %q has exit actions, which a chart drawn with stencil %q cannot carry", s.ID, st.Name)
	}
	if wr.kindMaster(s.Kind) == "" {
		switch s.Kind {
		case chart.ParallelState, chart.HistoryState, chart.DeepHistoryState, chart.StartState:
			return writeErr("state %q is a %s state, but stencil %q has no master to draw one with", s.ID, s.Kind, st.Name)
		}
		return writeErr("state %q is a %s pseudo-state, which a chart drawn with stencil %q cannot have", s.ID, s.Kind, st.Name)
	}
	switch {
	case s.Kind == chart.StartState: // initial: see initials
	case s.Initial && st.Masters.Initial == "":
		return writeErr("state %q is initial, but stencil %q has no initial-state master", s.ID, st.Name)
	case s.Initial && s.Kind != chart.NormalState && s.Kind != chart.ParallelState:
		return writeErr("state %q is an initial %s state, which the stencil's masters cannot draw", s.ID, s.Kind)
	}
	if s.Kind.IsPseudo() && len(s.Entry) > 0 {
		what := "history"
		if s.Kind == chart.StartState {
			what = "start"
		}
		return writeErr("%s state %q has entry actions, which a %s cannot carry", what, s.ID, what)
	}
	for k, a := range s.Entry {
		if a.Kind != chart.GameAction {
			return writeErr("state %q: entry action %d is a %s action, which a chart drawn with stencil %q cannot carry: its entry actions are the stencil's properties", s.ID, k+1, a.Kind, st.Name)
		}
		if _, ok := st.Action(a.Property); !ok {
			return writeErr("state %q: entry action %q is not a property of stencil %q", s.ID, a.Property, st.Name)
		}
		for _, b := range s.Entry[:k] {
			if b.Property == a.Property {
				return writeErr("state %q: entry action %q is set twice", s.ID, a.Property)
			}
		}
	}
	return nil
}

// kindMaster returns the master of the writer's stencil that draws a
// state of the given kind ("" when none does): the state master for a
// normal state, the parallel and history masters for their kinds.
func (wr *writer) kindMaster(k chart.StateKind) string {
	m := wr.st.Masters
	switch k {
	case chart.NormalState:
		return m.State
	case chart.ParallelState:
		return m.Parallel
	case chart.HistoryState:
		return m.History
	case chart.DeepHistoryState:
		return m.DeepHistory
	case chart.StartState:
		return m.Start
	}
	return ""
}

// checkTransition refuses a transition that cannot be drawn so that it
// reads back.
func (wr *writer) checkTransition(t *chart.Transition) error {
	st := wr.st
	if st == nil && (t.Value != "" || t.Push || t.Target.Kind == chart.ToReturn || t.AnyState) {
		return writeErr("transition %q has a value, a stack operation or starts in any state, which a chart without a stencil cannot carry", t.ID)
	}
	if st != nil && t.AnyState && st.Masters.AnyState == "" {
		return writeErr("transition %q applies in any state, but stencil %q has no message-handler master", t.ID, st.Name)
	}
	if t.Target.Kind == chart.ToState && t.Target.State == "" {
		return writeErr("transition %q goes to a state without an ID", t.ID)
	}
	if len(t.Also) > 0 && t.Target.Kind != chart.ToState {
		return writeErr("transition %q enters more states (Also) but its target is the %s", t.ID, t.Target.Kind)
	}
	if st == nil {
		if t.Target.Kind == chart.ToNone && t.From == "" {
			return writeErr("transition %q has no target and leaves no state", t.ID)
		}
		for k, a := range t.Actions {
			if why := checkAction(a); why != "" {
				return writeErr("transition %q: action %d is %s", t.ID, k+1, why)
			}
		}
		return nil
	}
	switch {
	case len(t.Actions) > 0:
		return writeErr("transition %q has actions, which a chart drawn with stencil %q cannot carry", t.ID, st.Name)
	case t.Internal:
		return writeErr("transition %q is internal, which a chart drawn with stencil %q cannot carry", t.ID, st.Name)
	case t.Target.Kind == chart.ToNone:
		return writeErr("transition %q has no target, which a chart drawn with stencil %q cannot carry (an edge whose end is loose goes to the final state)", t.ID, st.Name)
	case wr.leaves(t, chart.StartState):
		if t.Test != "" {
			return writeErr("transition %q leaves a start state and has test %q: a start's transition says where its state starts, taken without a test", t.ID, t.Test)
		}
	case wr.leaves(t, chart.HistoryState) || wr.leaves(t, chart.DeepHistoryState):
		if t.Test != "" {
			return writeErr("transition %q leaves a history and has test %q: a history's transition is its default, taken without a test", t.ID, t.Test)
		}
	case t.Test == "":
		return writeErr("transition %q has no test, which every transition of a chart drawn with stencil %q but a start's or a history's has", t.ID, st.Name)
	}
	return nil
}

// leaves reports whether transition t leaves a state of kind k.
func (wr *writer) leaves(t *chart.Transition, k chart.StateKind) bool {
	from, ok := wr.kinds[t.From]
	return ok && !t.AnyState && from == k
}

// checkNesting refuses a state inside a state the chart does not have, or
// inside a pseudo-state, or inside itself: a drawing could not say so.
func (wr *writer) checkNesting() error {
	c := wr.c
	index := make(map[string]int, len(c.States))
	for i := range c.States {
		if _, dup := index[c.States[i].ID]; !dup {
			index[c.States[i].ID] = i
		}
	}
	state := make([]uint8, len(c.States)) // 0: not seen, 1: on the path, 2: done
	for i := range c.States {
		var path []int
		for k := i; state[k] == 0; {
			state[k] = 1
			path = append(path, k)
			p := c.States[k].Parent
			if p == "" {
				break
			}
			j, ok := index[p]
			switch {
			case !ok:
				return writeErr("state %q is inside %q, which the chart does not have", c.States[k].ID, p)
			case c.States[j].Kind != chart.NormalState && c.States[j].Kind != chart.ParallelState:
				return writeErr("state %q is inside %q, a %s pseudo-state", c.States[k].ID, p, c.States[j].Kind)
			case state[j] == 1:
				return writeErr("state %q is inside itself", c.States[j].ID)
			}
			k = j
		}
		for _, k := range path {
			state[k] = 2
		}
	}
	holds := make(map[string]bool)
	for i := range c.States {
		holds[c.States[i].Parent] = true
	}
	for i := range c.States {
		s := &c.States[i]
		switch {
		case s.Kind.IsHistory() && s.Parent == "":
			return writeErr("history state %q is at the top level: a drawing draws a history inside the state whose history it keeps", s.ID)
		case s.Kind == chart.ParallelState && !holds[s.ID]:
			return writeErr("parallel state %q has no regions", s.ID)
		}
	}
	return nil
}

// isXMLName reports whether s can name an attribute without a namespace
// prefix.
func isXMLName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || unicode.IsLetter(r) || i > 0 && (r == '-' || r == '.' || unicode.IsDigit(r))
		if !ok || r >= utf8.RuneSelf && !unicode.In(r, unicode.Letter, unicode.Digit) {
			return false
		}
	}
	return !strings.HasPrefix(strings.ToLower(s), "xml")
}

// paginate puts the states and transitions on pages: by their position's
// page, when the IDs of each page after the first carry its prefix as
// Read gives them, else all on one page.
func (wr *writer) paginate() {
	c := wr.c
	var names []string
	pageOf := make([]int, len(c.States))
	for i := range c.States {
		k := slices.Index(names, c.States[i].Pos.Page)
		if k < 0 {
			k = len(names)
			names = append(names, c.States[i].Pos.Page)
		}
		pageOf[i] = k
	}
	if len(names) > 1 {
		if pages, ok := wr.split(names, pageOf); ok {
			wr.pages = pages
			return
		}
	}
	name := "Page-1"
	if len(names) == 1 && names[0] != "" {
		name = names[0]
	}
	pg := &wpage{id: "page-1", name: name}
	for i := range c.States {
		pg.states = append(pg.states, i)
	}
	for i := range c.Transitions {
		pg.trans = append(pg.trans, i)
	}
	wr.pages = []*wpage{pg}
}

func (wr *writer) split(names []string, pageOf []int) ([]*wpage, bool) {
	c := wr.c
	pages := make([]*wpage, len(names))
	for k, n := range names {
		if n == "" {
			n = "Page-" + strconv.Itoa(k+1)
		}
		pages[k] = &wpage{name: n}
	}
	index := make(map[string]int, len(c.States))
	for i := range c.States {
		s := &c.States[i]
		k := pageOf[i]
		index[s.ID] = k
		pg := pages[k]
		if k > 0 {
			p, rest, ok := strings.Cut(s.ID, "/")
			if !ok || p == "" || rest == "" || pg.prefix != "" && pg.prefix != p+"/" {
				return nil, false
			}
			pg.prefix = p + "/"
		}
		pg.states = append(pg.states, i)
	}
	for i := range c.States {
		if p := c.States[i].Parent; p != "" && index[p] != pageOf[i] {
			return nil, false // a state inside one of another page
		}
	}
	for k := 1; k < len(pages); k++ {
		pages[k].id = strings.TrimSuffix(pages[k].prefix, "/")
		for j := 1; j < k; j++ {
			if pages[j].id == pages[k].id {
				return nil, false
			}
		}
	}
	pages[0].id = "page-1"
	for n := 2; slices.ContainsFunc(pages[1:], func(p *wpage) bool { return p.id == pages[0].id }); n++ {
		pages[0].id = "page-" + strconv.Itoa(n)
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		k, ok := index[t.From]
		if t.AnyState {
			k, ok = 0, true
			for j := 1; j < len(pages); j++ {
				if strings.HasPrefix(t.ID, pages[j].prefix) {
					k = j
				}
			}
		}
		if !ok {
			return nil, false
		}
		for _, id := range append([]string{t.Target.State}, t.Also...) {
			if kt, ok := index[id]; t.Target.Kind == chart.ToState && (!ok || kt != k) {
				return nil, false
			}
		}
		if k > 0 && (!strings.HasPrefix(t.ID, pages[k].prefix) || len(t.ID) == len(pages[k].prefix)) {
			return nil, false
		}
		pages[k].trans = append(pages[k].trans, i)
	}
	return pages, true
}

// cellID is the cell ID of a chart ID on a page.
func (pg *wpage) cellID(id string) string { return strings.TrimPrefix(id, pg.prefix) }

// freeID returns base, or base-2, base-3... whichever no cell of the page
// uses.
func freeID(used map[string]bool, base string) string {
	id := base
	for n := 2; used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	used[id] = true
	return id
}

// model returns the mxGraphModel of a page.
func (wr *writer) model(pg *wpage) string {
	c := wr.c
	used := make(map[string]bool)
	for _, i := range pg.states {
		used[pg.cellID(c.States[i].ID)] = true
	}
	for _, i := range pg.trans {
		used[pg.cellID(c.Transitions[i].ID)] = true
	}
	root, layer := "0", "1"
	if used[root] || used[layer] {
		root, layer = freeID(used, "root"), freeID(used, "layer")
	}
	boxes := wr.layout(pg)
	onPage := make(map[string]int, len(pg.states)) // chart ID -> index in c.States
	for _, i := range pg.states {
		onPage[c.States[i].ID] = i
	}
	wr.holds = make(map[string]bool)
	for _, i := range pg.states {
		if p := c.States[i].Parent; p != "" {
			wr.holds[p] = true
		}
	}
	handler := ""
	for _, i := range pg.trans {
		if c.Transitions[i].AnyState {
			handler = freeID(used, "anyState")
			break
		}
	}

	var b strings.Builder
	b.WriteString(`    <mxGraphModel dx="0" dy="0" grid="1" gridSize="10" guides="1" tooltips="1" connect="1" arrows="1" fold="1" page="1" pageScale="1" pageWidth="850" pageHeight="1100" math="0" shadow="0">` + "\n")
	b.WriteString("      <root>\n")
	if attrs := wr.diagramAttrs(pg == wr.pages[0]); attrs != "" {
		b.WriteString(`        <object label=""` + attrs + ` id="` + esc(root) + `"><mxCell/></object>` + "\n")
	} else {
		b.WriteString(`        <mxCell id="` + esc(root) + `"/>` + "\n")
	}
	b.WriteString(`        <mxCell id="` + esc(layer) + `" parent="` + esc(root) + `"/>` + "\n")
	for _, i := range pg.states {
		s := &c.States[i]
		parent, px, py := layer, 0.0, 0.0
		if k, ok := onPage[s.Parent]; ok && s.Parent != "" && k != i {
			parent = pg.cellID(s.Parent)
			px, py = boxes[s.Parent].X, boxes[s.Parent].Y
		}
		bx := boxes[s.ID]
		geo := fmt.Sprintf(`<mxGeometry x="%s" y="%s" width="%s" height="%s" as="geometry"/>`, num(bx.X-px), num(bx.Y-py), num(bx.W), num(bx.H))
		region := false
		if k, ok := onPage[s.Parent]; ok && s.Parent != "" {
			region = c.States[k].Kind == chart.ParallelState
		}
		wr.state(&b, pg, s, parent, geo, region)
	}
	if handler != "" {
		y := float64(margin)
		for _, bx := range boxes {
			y = max(y, bx.Y+bx.H+margin)
		}
		fmt.Fprintf(&b, `        <UserObject label="%s" %s id="%s">`+"\n", esc(wr.st.Masters.AnyState), wr.stencilAttrs(wr.st.Masters.AnyState), esc(handler))
		fmt.Fprintf(&b, `          <mxCell style="%s" vertex="1" parent="%s">`+"\n", styleHandler, esc(layer))
		fmt.Fprintf(&b, `            <mxGeometry x="%d" y="%s" width="%d" height="%d" as="geometry"/>`+"\n", margin, num(y), stateW, stateH)
		b.WriteString("          </mxCell>\n        </UserObject>\n")
	}
	for _, i := range pg.trans {
		wr.transition(&b, pg, &c.Transitions[i], layer, handler, wr.nth[i], boxes)
		wr.alsoEdges(&b, pg, &c.Transitions[i], layer, used)
	}
	b.WriteString("      </root>\n")
	b.WriteString("    </mxGraphModel>\n")
	return b.String()
}

// diagramAttrs returns the attributes of a page's root cell, the
// diagram's Edit Data, each after a space: the chart's Chain, ChainLimit
// and Statechart when they are set; on the first page, its Name when it
// is not the name of its file, which Read would give it, and its Fallback
// when it has one.
func (wr *writer) diagramAttrs(first bool) string {
	c := wr.c
	attrs := ""
	if c.Chain || c.ChainLimit != 0 {
		chain := "0"
		if c.Chain {
			chain = "1"
		}
		attrs += ` ` + AttrChain + `="` + chain + `"`
	}
	if c.ChainLimit != 0 {
		attrs += fmt.Sprintf(` %s="%d"`, AttrChainLimit, c.ChainLimit)
	}
	if c.Statechart {
		attrs += ` ` + AttrStatechart + `="1"`
	}
	if first && c.Name != "" && c.Name != chartName(c.File) {
		attrs += ` ` + AttrName + `="` + esc(c.Name) + `"`
	}
	if first && c.Fallback != "" {
		attrs += ` ` + AttrFallback + `="` + esc(c.Fallback) + `"`
	}
	return attrs
}

// gridLayout returns where each state of a page without nesting is
// drawn: at its Box, or on a grid below the states that have one.
func (wr *writer) gridLayout(pg *wpage) map[string]chart.Box {
	c := wr.c
	boxes := make(map[string]chart.Box, len(pg.states))
	top := float64(margin)
	for _, i := range pg.states {
		if b := c.States[i].Box; b != nil {
			top = max(top, b.Y+b.H+margin)
		}
	}
	k := 0
	for _, i := range pg.states {
		s := &c.States[i]
		if s.Box != nil {
			boxes[s.ID] = *s.Box
			continue
		}
		w, h := float64(stateW), float64(stateH)
		switch s.Kind {
		case chart.StartState, chart.EndState:
			w, h = pseudoSize, pseudoSize
		case chart.ChoiceState:
			w, h = choiceSize, choiceSize
		}
		x := float64(margin + (k%5)*gridX)
		y := top + float64((k/5)*gridY)
		boxes[s.ID] = chart.Box{X: x + (stateW-w)/2, Y: y + (stateH-h)/2, W: w, H: h}
		k++
	}
	return boxes
}

// state writes the cell of a state; region says that it is a region of
// a parallel state.
func (wr *writer) state(b *strings.Builder, pg *wpage, s *chart.State, parent, geo string, region bool) {
	id := pg.cellID(s.ID)
	compound := wr.holds[s.ID]
	if wr.st != nil {
		wr.stencilState(b, s, id, parent, geo, compound, region)
		return
	}
	style, label := styleState, s.Name
	switch {
	case s.Kind == chart.StartState:
		style = styleStart
	case s.Kind == chart.EndState:
		style = styleEnd
	case s.Kind == chart.ChoiceState:
		style = styleChoice
	case s.Kind == chart.HistoryState:
		style, label = styleHistory, "H"
	case s.Kind == chart.DeepHistoryState:
		style, label = styleHistory, "H*"
	case s.Kind == chart.ParallelState:
		style = styleParallel
	case region:
		style = styleRegion
	case compound:
		style = styleState + styleContainer
	}
	attrs := wr.plainStateAttrs(s, compound)
	if len(attrs) == 0 {
		fmt.Fprintf(b, `        <mxCell id="%s" value="%s" style="%s" vertex="1" parent="%s">`+"\n", esc(id), esc(label), style, esc(parent))
		b.WriteString("          " + geo + "\n")
		b.WriteString("        </mxCell>\n")
		return
	}
	fmt.Fprintf(b, `        <object label="%s" %s id="%s">`+"\n", esc(label), strings.Join(attrs, " "), esc(id))
	fmt.Fprintf(b, `          <mxCell style="%s" vertex="1" parent="%s">`+"\n", style, esc(parent))
	b.WriteString("            " + geo + "\n")
	b.WriteString("          </mxCell>\n        </object>\n")
}

// plainStateAttrs returns the attributes that say what a plain state's
// shape and label do not: whether it is initial (or a state at all, for a
// container without a name), parallel, its name when its label is H or
// H*, its entry and exit actions.
func (wr *writer) plainStateAttrs(s *chart.State, compound bool) []string {
	var attrs []string
	// A container without text is a frame, unless its Edit Data says it
	// is a state.
	nameless := compound && s.Name == "" && s.Kind != chart.ParallelState
	if s.Initial != (s.Kind == chart.StartState) || nameless {
		initial := "0"
		if s.Initial {
			initial = "1"
		}
		attrs = append(attrs, AttrInitial+`="`+initial+`"`)
	}
	if s.Kind == chart.ParallelState {
		attrs = append(attrs, AttrParallel+`="1"`)
	}
	if s.Kind.IsHistory() && s.Name != "" {
		attrs = append(attrs, AttrName+`="`+esc(s.Name)+`"`)
	}
	if len(s.Entry) > 0 {
		attrs = append(attrs, AttrEntry+`="`+esc(formatActions(s.Entry))+`"`)
	}
	if len(s.Exit) > 0 {
		attrs = append(attrs, AttrExit+`="`+esc(formatActions(s.Exit))+`"`)
	}
	return attrs
}

// stencilState writes the cell of a state of a chart drawn with a
// stencil: a shape of the master of its kind, a compound drawn with the
// composite master when the stencil has one (unless it is initial),
// a region dashed.
func (wr *writer) stencilState(b *strings.Builder, s *chart.State, id, parent, geo string, compound, region bool) {
	st := wr.st
	master, style := st.Masters.State, styleState
	drawnInitial := wr.drawnInitial[s.ID]
	switch {
	case s.Kind == chart.ParallelState:
		master, style = st.Masters.Parallel, styleParallel
	case s.Kind.IsPseudo():
		wr.stencilPseudo(b, s, id, parent, geo)
		return
	case drawnInitial:
		master, style = st.Masters.Initial, styleInitial
	case compound && st.Masters.Composite != "":
		master, style = st.Masters.Composite, styleComposite
	}
	switch {
	case region && s.Kind == chart.NormalState:
		style = styleRegion
		if drawnInitial {
			style += "strokeWidth=3;"
		}
	case compound && master != st.Masters.Composite && s.Kind == chart.NormalState:
		style += styleContainer
	}
	// The label names the state, as the designer edits it; the name
	// property stays empty.
	fmt.Fprintf(b, `        <UserObject label="%s" %s %s=""`, esc(s.Name), wr.stencilAttrs(master), wr.props.Name)
	for _, a := range st.Actions {
		v := ""
		for _, e := range s.Entry {
			if e.Property == a.Name {
				v = e.Value
			}
		}
		fmt.Fprintf(b, ` %s="%s"`, a.Name, esc(v))
	}
	fmt.Fprintf(b, ` tooltip="%s" id="%s">`+"\n", esc(stateTooltip(st, wr.props)), esc(id))
	fmt.Fprintf(b, `          <mxCell style="%s" vertex="1" parent="%s">`+"\n", style, esc(parent))
	b.WriteString("            " + geo + "\n")
	b.WriteString("          </mxCell>\n        </UserObject>\n")
}

// stencilPseudo writes the cell of a pseudo-state of a chart drawn with a
// stencil, its name in the name property: a history, a shape of the
// history or deep-history master labelled H or H*; a start, a filled
// circle of the start master, without a label.
func (wr *writer) stencilPseudo(b *strings.Builder, s *chart.State, id, parent, geo string) {
	master, label, style, tooltip := wr.st.Masters.Start, "", styleStart, startTooltip(wr.props)
	switch s.Kind {
	case chart.HistoryState:
		master, label, style, tooltip = wr.st.Masters.History, "H", styleHistory, historyTooltip(wr.props, false)
	case chart.DeepHistoryState:
		master, label, style, tooltip = wr.st.Masters.DeepHistory, "H*", styleHistory, historyTooltip(wr.props, true)
	}
	fmt.Fprintf(b, `        <UserObject label="%s" %s %s="%s" tooltip="%s" id="%s">`+"\n", label, wr.stencilAttrs(master), wr.props.Name, esc(s.Name),
		esc(tooltip), esc(id))
	fmt.Fprintf(b, `          <mxCell style="%s" vertex="1" parent="%s">`+"\n", style, esc(parent))
	b.WriteString("            " + geo + "\n")
	b.WriteString("          </mxCell>\n        </UserObject>\n")
}

// stencilAttrs returns the attributes that name a shape's master and
// stencil.
func (wr *writer) stencilAttrs(master string) string {
	s := fmt.Sprintf(`%s="%s" %s="%s"`, AttrRole, esc(master), AttrStencil, esc(wr.st.Name))
	if wr.st.Version != "" {
		s += fmt.Sprintf(` %s="%s"`, AttrVersion, esc(wr.st.Version))
	}
	return s
}

// stateTooltip lists the drop-lists of a state's properties.
func stateTooltip(st *chart.Stencil, p chart.Properties) string {
	lines := []string{p.Name + ": the state's name; empty: its label"}
	for _, a := range st.Actions {
		lines = append(lines, a.Name+": "+strings.Join(a.Values, " | "))
	}
	return strings.Join(lines, "\n")
}

// historyTooltip says what a history shape is, and its name property.
func historyTooltip(p chart.Properties, deep bool) string {
	what := "Shallow history: a transition to it enters the state inside its state that was active when the state was last left"
	if deep {
		what = "Deep history: a transition to it enters every state inside its state that was active when the state was last left"
	}
	return what + "\nDraw one transition, without a test, from it to the state to enter the first time (by default, the initial state)\n" +
		p.Name + ": the history's name, if it has one"
}

// startTooltip says what a start shape is, and its name property.
func startTooltip(p chart.Properties) string {
	return "Start: says where the state it is drawn in (at the top, the machine) starts\n" +
		"Draw one transition, without a test, from it to the state to start in\n" +
		p.Name + ": the start's name, if it has one"
}

// transitionTooltip lists the values of a transition's properties.
func transitionTooltip(st *chart.Stencil, p chart.Properties) string {
	var tests []string
	for _, t := range st.Tests {
		name := t.Name
		if t.Message {
			name += " (message)"
		}
		if len(t.Values) > 0 {
			name += " [" + strings.Join(t.Values, ", ") + "]"
		}
		tests = append(tests, name)
	}
	return strings.Join([]string{
		p.Test + ": " + strings.Join(tests, " | "),
		p.Value + ": the test's value, if it takes one",
		p.Order + ": 1, 2, 3... the order in which the tests of a state are tried (empty: as drawn)",
		p.Stack + ": none | push | return",
		p.Final + ": 1 when the arrow's end is loose on purpose: the machine ends there",
	}, "\n")
}

// transition writes the cell of a transition; n is its position among the
// transitions leaving the same state, on this page.
func (wr *writer) transition(b *strings.Builder, pg *wpage, t *chart.Transition, layer, handler string, n int, boxes map[string]chart.Box) {
	id := pg.cellID(t.ID)
	source := pg.cellID(t.From)
	if t.AnyState {
		source = handler
	}
	ends := ` source="` + esc(source) + `"`
	loose := t.Target.Kind != chart.ToState && t.Target.Kind != chart.ToNone
	switch t.Target.Kind {
	case chart.ToState:
		ends += ` target="` + esc(pg.cellID(t.Target.State)) + `"`
	case chart.ToNone: // a loop on its state, marked AttrStay
		ends += ` target="` + esc(source) + `"`
	}
	geo := `<mxGeometry relative="1" as="geometry"/>`
	if loose {
		x, y := float64(margin+stateW+gridX/2), float64(margin)
		if bx, ok := boxes[t.From]; ok {
			x, y = bx.X+bx.W+gridX/2, bx.Y+bx.H/2
		}
		geo = fmt.Sprintf(`<mxGeometry relative="1" as="geometry"><mxPoint x="%s" y="%s" as="targetPoint"/></mxGeometry>`, num(x), num(y))
	}
	if st := wr.st; st != nil {
		p := wr.props
		label := esc(t.Label)
		placeholders := ""
		if t.Label == t.Test && t.Test != "" {
			label, placeholders = "%"+esc(p.Test)+"%", ` placeholders="1"`
		}
		order := ""
		if wr.ranked[groupKey(t)] {
			order = strconv.Itoa(t.Order)
		}
		final := ""
		if t.Target.Kind == chart.ToFinal {
			final = fmt.Sprintf(` %s="1"`, esc(p.Final))
		}
		stack := chart.StackNone
		switch {
		case t.Target.Kind == chart.ToReturn:
			stack = chart.StackReturn
		case t.Push:
			stack = chart.StackPush
		}
		fmt.Fprintf(b, `        <UserObject label="%s"%s %s %s="%s" %s="%s" %s="%s" %s="%s"%s tooltip="%s" id="%s">`+"\n",
			label, placeholders, wr.stencilAttrs(st.Masters.Transition),
			p.Test, esc(t.Test), p.Value, esc(t.Value), p.Order, order, p.Stack, stack, final,
			esc(transitionTooltip(st, p)), esc(id))
		fmt.Fprintf(b, `          <mxCell style="%s" edge="1" parent="%s"%s>`+"\n", styleTransition, esc(layer), ends)
		b.WriteString("            " + geo + "\n")
		b.WriteString("          </mxCell>\n        </UserObject>\n")
		return
	}
	// A plain transition: its label, and the attributes that say what the
	// label does not.
	order, ev, gu, ac, test := derive(t.Label)
	if order == 0 {
		order = n
	}
	var extra []string
	add := func(name, got, want string) {
		if got != want {
			extra = append(extra, fmt.Sprintf(`%s="%s"`, name, esc(want)))
		}
	}
	if order != t.Order || wr.ranked[groupKey(t)] {
		extra = append(extra, fmt.Sprintf(`%s="%d"`, AttrOrder, t.Order))
	}
	if t.Target.Kind == chart.ToFinal {
		extra = append(extra, AttrFinal+`="1"`)
	}
	if t.Internal {
		extra = append(extra, AttrInternal+`="1"`)
	}
	if t.Target.Kind == chart.ToNone {
		extra = append(extra, AttrStay+`="1"`)
	}
	if len(t.Actions) > 0 {
		extra = append(extra, AttrActions+`="`+esc(formatActions(t.Actions))+`"`)
	}
	add(AttrTest, test, t.Test)
	add(AttrEvent, ev, t.Event)
	add(AttrGuard, gu, t.Guard)
	add(AttrAction, ac, t.Action)
	if len(extra) == 0 {
		fmt.Fprintf(b, `        <mxCell id="%s" value="%s" style="%s" edge="1" parent="%s"%s>`+"\n", esc(id), esc(t.Label), styleTransition, esc(layer), ends)
		b.WriteString("          " + geo + "\n")
		b.WriteString("        </mxCell>\n")
		return
	}
	fmt.Fprintf(b, `        <object label="%s" %s id="%s">`+"\n", esc(t.Label), strings.Join(extra, " "), esc(id))
	fmt.Fprintf(b, `          <mxCell style="%s" edge="1" parent="%s"%s>`+"\n", styleTransition, esc(layer), ends)
	b.WriteString("            " + geo + "\n")
	b.WriteString("          </mxCell>\n        </object>\n")
}

// alsoEdges writes an edge for each further target of a transition
// (Also), from its state to the target, marked with AttrAlso: Read adds
// the target to the transition.
func (wr *writer) alsoEdges(b *strings.Builder, pg *wpage, t *chart.Transition, layer string, used map[string]bool) {
	for _, target := range t.Also {
		id := freeID(used, pg.cellID(t.ID)+"-also")
		fmt.Fprintf(b, `        <object label="" %s="%s" id="%s">`+"\n", AttrAlso, esc(pg.cellID(t.ID)), esc(id))
		fmt.Fprintf(b, `          <mxCell style="%s" edge="1" parent="%s" source="%s" target="%s">`+"\n", styleAlso, esc(layer), esc(pg.cellID(t.From)), esc(pg.cellID(target)))
		b.WriteString("            <mxGeometry relative=\"1\" as=\"geometry\"/>\n")
		b.WriteString("          </mxCell>\n        </object>\n")
	}
}

// derive reads a plain label as Read does: its order prefix, event, guard,
// action and test.
func derive(label string) (order int, event, guard, action, test string) {
	text := label
	if order = orderPrefix(label); order > 0 {
		text = label[strings.IndexByte(label, '.')+1:]
	}
	event, guard, action = chart.ParseLabel(text)
	test = event
	if test == "" {
		test = guard
	}
	return order, event, guard, action, test
}

// num formats a coordinate.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// esc escapes text for an XML attribute value, line ends and tabs
// included, so that they read back as they are.
func esc(s string) string {
	if !strings.ContainsAny(s, "&<>\"\n\r\t") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\n':
			b.WriteString("&#10;")
		case '\r':
			b.WriteString("&#13;")
		case '\t':
			b.WriteString("&#9;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// compress encodes a page as draw.io's compressed pages are: base64 of the
// raw deflate of the URL-encoded XML.
func compress(xml string) string {
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestCompression) // the level is valid
	bw := bufio.NewWriter(fw)
	bw.WriteString(uriEncode(xml))
	bw.Flush()
	fw.Close()
	return base64.StdEncoding.EncodeToString(z.Bytes())
}

// uriEncode is JavaScript's encodeURIComponent.
func uriEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) * 3 / 2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
