package visio

import (
	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// Nesting: which state each state is drawn inside (State.Parent), read as
// Visio draws it. A state is inside the nearest state around it: a group
// that is a state and holds it (or holds a group around it), or the
// innermost container that is a state and holds it (a container's
// Relationships cell lists its members: DEPENDSON(1, ...) on the
// container, DEPENDSON(4, ...) on its members). Shapes merely drawn over
// others are not inside them: Visio moves neither with the other.

// prepare marks what the page's shapes are to one another before the
// masters are checked and the states built: the containers that hold
// shapes (fContainer), the shapes connectors are glued to (fGlued, and in
// a plain diagram fGluedBelow on the groups around them), and, with a
// stencil, the containers of no master of the stencil that a transition is
// glued to, which are composite states (see compositeCandidate).
func (in *interp) prepare(sh *sheet) {
	for _, cs := range sh.containerOf {
		for _, c := range cs {
			if n := sh.node(sh.lookup(c)); n != nil {
				n.flags |= fContainer
			}
		}
	}
	strict := in.st != nil
	for n := range sh.nodes.all() {
		if strict && n.role != chart.RoleTransition || !strict && n.flags&fOneD == 0 {
			continue
		}
		for _, g := range [2]ref{n.begin, n.end} {
			if g == 0 {
				continue
			}
			t := whole(sh, sh.node(g))
			t.flags |= fGlued
			if strict {
				continue
			}
			for a := sh.node(t.parent); a != nil && a.flags&fGluedBelow == 0; a = sh.node(a.parent) {
				a.flags |= fGluedBelow
			}
		}
	}
	if !strict {
		return
	}
	for n := range sh.nodes.all() {
		if n.role == chart.RoleNone && n.draft >= 0 && n.flags&(fContainer|fGlued) == fContainer|fGlued {
			n.flags |= fState
			if m := sh.masterOf[n]; m != nil {
				in.uses[m].composites++
			}
		}
	}
}

// nest finds the state each state of the page is drawn inside, in
// sh.up, and makes of it a tree the chart can hold: it breaks the cycles
// of groups and containers that hold each other (an error), leaves out
// the regions of orthogonal states drawn inside states (an error: the
// reader reads no parallel regions), and moves the states drawn inside a
// pseudo-state out of it (a warning: a start, end, choice or history
// pseudo-state holds no states).
func (in *interp) nest(sh *sheet) {
	for n := range sh.nodes.all() {
		if n.flags&fState == 0 {
			continue
		}
		if p := enclosing(sh, n); p != nil {
			if sh.up == nil {
				sh.up = make(map[*node]*node)
			}
			sh.up[n] = p
		}
	}
	if len(sh.up) == 0 {
		return
	}
	in.breakCycles(sh)
	for n := range sh.nodes.all() {
		if n.flags&fState != 0 && sh.up[n] != nil && n.draft >= 0 && sh.states.at(n.draft).region {
			in.diag(diag.Error, in.at(sh, n, sh.displayName(n)), hintRegions,
				"a region of an orthogonal state is not supported: the Visio reader reads no parallel regions; the shape is left out")
			n.flags &^= fState
		}
	}
	memo := make(map[*node]*node)
	for n := range sh.nodes.all() {
		p := sh.up[n]
		if n.flags&fState == 0 || p == nil {
			continue
		}
		h := sh.holder(p, memo)
		if h == p {
			continue
		}
		if p.flags&fState != 0 { // a pseudo-state (a region left out is reported)
			in.diag(diag.Warning, in.at(sh, n, sh.displayName(n)), "draw the state beside it, or inside the composite state it belongs to",
				"%s is drawn inside %s, %s, which holds no states: it is read outside it", sh.describe(n), sh.describe(p), pseudoName(sh.states.at(p.draft).kind))
		}
		if h == nil {
			delete(sh.up, n)
		} else {
			sh.up[n] = h
		}
	}
}

// pseudoName names a kind of pseudo-state for a message.
func pseudoName(k chart.StateKind) string {
	switch k {
	case chart.StartState:
		return "a start pseudo-state"
	case chart.EndState:
		return "an end pseudo-state"
	case chart.ChoiceState:
		return "a choice pseudo-state"
	case chart.DeepHistoryState:
		return "a deep history pseudo-state"
	}
	return "a history pseudo-state"
}

// hintRegions is the hint of the diagnostics about parallel regions.
const hintRegions = "draw the machine without them, or draw it in a format whose reader reads parallel states (SCXML's <parallel>)"

// holds reports whether the state n may hold states: a state (not left
// out) that is not a pseudo-state, or a parallel state (with a stencil),
// whose states are its regions.
func (sh *sheet) holds(n *node) bool {
	if n.flags&fState == 0 || n.draft < 0 {
		return false
	}
	k := sh.states.at(n.draft).kind
	return k == chart.NormalState || k == chart.ParallelState
}

// holder returns the nearest state from p upwards (p included) that may
// hold states, or nil. memo keeps what it found for the states it passed,
// so that a chain of states that hold none is climbed once.
func (sh *sheet) holder(p *node, memo map[*node]*node) *node {
	var passed []*node
	for p != nil && !sh.holds(p) {
		if h, ok := memo[p]; ok {
			p = h
			break
		}
		passed = append(passed, p)
		p = sh.up[p]
	}
	for _, x := range passed {
		memo[x] = p
	}
	return p
}

// breakCycles finds the states drawn inside themselves, through groups and
// containers that hold each other (a damaged or hostile file: Visio makes
// no such drawing), and reads each such cycle's last state at the top
// level, with an error. It takes time linear in the nested states.
func (in *interp) breakCycles(sh *sheet) {
	const walking, done = 1, 2
	mark := make(map[*node]uint8, len(sh.up))
	var path []*node
	for n := range sh.nodes.all() {
		if sh.up[n] == nil || mark[n] != 0 {
			continue
		}
		path = path[:0]
		x := n
		for x != nil && mark[x] == 0 {
			mark[x] = walking
			path = append(path, x)
			x = sh.up[x]
		}
		if x != nil && mark[x] == walking {
			last := path[len(path)-1]
			in.diag(diag.Error, in.at(sh, last, sh.displayName(last)), "the file is damaged: drag the state out of its container, and back in if it belongs there",
				"%s is drawn inside itself: it is inside %s, which is inside it (groups or containers that hold each other); it is read at the top level",
				sh.describe(last), sh.describe(x))
			delete(sh.up, last)
		}
		for _, p := range path {
			mark[p] = done
		}
	}
}

// enclosing returns the state the state n is drawn inside: the nearest
// group around it that is a state, or the innermost state among the
// containers that hold it (or hold a group around it); nil if none. The
// states among each shape's containers are looked at once (see
// innermost).
func enclosing(sh *sheet, n *node) *node {
	for x := n; x != nil; x = sh.node(x.parent) {
		if x != n && x.flags&fState != 0 {
			return x
		}
		if x.flags&fInStateSet == 0 {
			x.flags |= fInStateSet
			if c := innermost(sh, x); c != nil {
				if sh.inState == nil {
					sh.inState = make(map[*node]*node)
				}
				sh.inState[x] = c
			}
		}
		if c := sh.inState[x]; c != nil && c != n {
			return c
		}
	}
	return nil
}

// innermost returns the innermost state among the containers that hold
// the shape x: the one of the smallest box, since a container inside
// another is smaller (Visio lists a shape among the members of each
// container it is in, nested or not), the first in the file of those of
// the same size or whose box the drawing does not give; nil if none of
// them is a state. States' boxes are still in inches (see box).
func innermost(sh *sheet, x *node) *node {
	var best *node
	var area float64
	for _, id := range sh.containerOf[sh.shapeID(x)] {
		c := sh.node(sh.lookup(id))
		if c == nil || c == x || c.flags&fState == 0 || c.draft < 0 {
			continue
		}
		a := -1.0 // unknown
		if b := sh.states.at(c.draft).box; b != nil {
			a = b.W * b.H
		}
		if best == nil || a >= 0 && (area < 0 || a < area) {
			best, area = c, a
		}
	}
	return best
}

// checkInitials warns of each compound state that a transition enters but
// that has no initial state: no start pseudo-state inside it (with a
// stencil, a shape of the start master) and no state marked initial (of
// the initial-state master). Package compile then enters the first of
// its states in the file, which the drawing does not show. A parallel
// state, which enters all its regions, needs none.
func (in *interp) checkInitials() {
	c := in.c
	type compound struct {
		first   int // the first child but start and history pseudo-states, or -1
		initial bool
		warned  bool
	}
	var kids map[string]*compound
	for i := range c.States {
		s := &c.States[i]
		if s.Parent == "" {
			continue
		}
		if kids == nil {
			kids = make(map[string]*compound)
		}
		k := kids[s.Parent]
		if k == nil {
			k = &compound{first: -1}
			kids[s.Parent] = k
		}
		k.initial = k.initial || s.Initial || s.Kind == chart.StartState
		if k.first < 0 && s.Kind != chart.StartState && !s.Kind.IsHistory() {
			k.first = i
		}
	}
	if kids == nil {
		return
	}
	index := make(map[string]int, len(kids))
	for i := range c.States {
		if kids[c.States[i].ID] != nil {
			index[c.States[i].ID] = i
		}
	}
	hint := "draw an initial state (a filled circle) inside it, with an arrow to the state it starts in"
	if in.st != nil {
		hint = importer.StencilInitialHint(in.st, "a shape of the %q master")
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		k := kids[t.Target.State]
		if t.Target.Kind != chart.ToState || k == nil || k.initial || k.warned || k.first < 0 {
			continue
		}
		k.warned = true
		s := &c.States[index[t.Target.State]]
		if s.Kind == chart.ParallelState {
			continue
		}
		in.diag(diag.Warning, s.Pos, hint,
			"composite state %s %s has no initial state, though transition %s enters it: it enters state %s %s, the first of its states in the file",
			short(s.ID), quote(s.Name), short(t.ID), short(c.States[k.first].ID), quote(c.States[k.first].Name))
	}
}
