package drawio

import (
	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// This file chooses, for Write, which states of a chart with a stencil
// are drawn with the initial-state master. Read gives that master its
// meaning in nested states ([importer.MarkInitialAncestors]): a state
// drawn with it is initial, and so is each compound state around it, up
// to a level that marks its own (a state drawn with the master, or a
// start, among the compound's siblings), but for the regions of a
// parallel state, which are never initial (the parallel state is). So a
// compound state that is initial because the state inside it is need not
// be drawn with the master, and a parallel state, which the master cannot
// draw, can only be initial that way.

// initials chooses the states drawn with the initial-state master
// (wr.drawnInitial) so that Read marks initial the states the chart marks
// initial, and no other, or returns an error that names a state whose
// mark no drawing made with the stencil gives back. Read marks a start
// initial, as in a plain diagram, but for one drawn directly in a
// parallel state (a region, which package compile refuses).
//
// Level by level (the states inside a state, or at the top), from the
// deepest (levels.choose), then the marks Read would give the drawing
// compared with the chart's. It costs time linear in the chart, plus
// what MarkInitialAncestors costs.
func (wr *writer) initials() error {
	l := newLevels(wr.c)
	for x := len(l.order) - 1; x >= 0; x-- {
		if j := l.order[x]; len(l.kids[j]) > 0 {
			l.choose(l.kids[j], wr.c.States[j].Kind == chart.ParallelState)
		}
	}
	l.choose(l.top, false)
	wr.drawnInitial = make(map[string]bool)
	for i := range wr.c.States {
		if l.drawn[i] {
			wr.drawnInitial[wr.c.States[i].ID] = true
		}
	}
	return wr.checkInitials(l)
}

// levels holds the nesting of a chart's states, and what initials
// chooses.
type levels struct {
	c      *chart.Chart
	parent []int   // per state, the index of the state it is in; -1 for none
	kids   [][]int // per state, the states inside it
	top    []int   // the states at the top
	order  []int   // breadth first: each state before those inside it
	drawn  []bool  // per state, whether it is drawn with the initial-state master
	// up: per state, whether Read, climbing from a state drawn with the
	// master (it, or one inside it), goes on to the state around it; for
	// a state other than a region, whether it is initial.
	up []bool
}

// newLevels indexes the nesting of c's states (the first of a repeated
// ID), which check found to name states of the chart, without cycles.
func newLevels(c *chart.Chart) *levels {
	n := len(c.States)
	l := &levels{c: c, parent: make([]int, n), kids: make([][]int, n), drawn: make([]bool, n), up: make([]bool, n)}
	index := make(map[string]int, n)
	for i := range c.States {
		if _, dup := index[c.States[i].ID]; !dup {
			index[c.States[i].ID] = i
		}
	}
	for i := range c.States {
		l.parent[i] = -1
		if p, ok := index[c.States[i].Parent]; ok && c.States[i].Parent != "" && p != i {
			l.parent[i] = p
			l.kids[p] = append(l.kids[p], i)
		} else {
			l.top = append(l.top, i)
		}
	}
	l.order = append([]int(nil), l.top...)
	for k := 0; k < len(l.order); k++ {
		l.order = append(l.order, l.kids[l.order[k]]...)
	}
	return l
}

// childUp reports whether Read's climb reaches state j from inside it.
func (l *levels) childUp(j int) bool {
	for _, k := range l.kids[j] {
		if l.up[k] {
			return true
		}
	}
	return false
}

// drawableRegion returns a region of parallel state j that the
// initial-state master can draw: its first normal region, or one of its
// parallel regions' own (Read climbs through regions); -1 for none.
func (l *levels) drawableRegion(j int) int {
	for _, k := range l.kids[j] {
		switch l.c.States[k].Kind {
		case chart.NormalState:
			return k
		case chart.ParallelState:
			if r := l.drawableRegion(k); r >= 0 {
				return r
			}
		}
	}
	return -1
}

// drawRegion draws a region of parallel state j with the initial-state
// master (see drawableRegion), so that Read's climb from it reaches j.
func (l *levels) drawRegion(j int) {
	r := l.drawableRegion(j)
	l.drawn[r] = true
	for k := r; k != j; k = l.parent[k] {
		l.up[k] = true
	}
}

// choose chooses which states of a level (the regions of a parallel
// state when regions is true), those inside them chosen, are drawn with
// the initial-state master. A level without a start whose initial states
// are each made initial by a state inside it, and whose other states
// none, draws none with the master, so that its compounds keep their
// own masters (a parallel state that no state inside makes initial draws
// one of its regions with the master); any other level draws its initial
// states with it. A region is never initial: Read climbs through it.
func (l *levels) choose(level []int, regions bool) {
	if regions {
		for _, k := range level {
			l.up[k] = l.childUp(k)
		}
		return
	}
	states := l.c.States
	start, initial, implied := false, false, true
	for _, k := range level {
		s := &states[k]
		switch {
		case s.Kind == chart.StartState:
			start = true
		case s.Initial:
			initial = true
			implied = implied && (l.childUp(k) || s.Kind == chart.ParallelState && l.drawableRegion(k) >= 0)
		default:
			implied = implied && !l.childUp(k)
		}
	}
	if !start && initial && implied {
		for _, k := range level {
			s := &states[k]
			l.up[k] = s.Initial && s.Kind != chart.StartState
			if l.up[k] && !l.childUp(k) { // a parallel state: one of its regions drawn initial
				l.drawRegion(k)
			}
		}
		return
	}
	for _, k := range level {
		s := &states[k]
		if s.Kind == chart.StartState {
			continue
		}
		l.drawn[k] = s.Initial && s.Kind == chart.NormalState
		l.up[k] = l.drawn[k] || !start && !initial && l.childUp(k)
	}
}

// checkInitials compares the chart's initial states with those Read
// would mark in the drawing l chose, and returns an error about the
// first that differs.
func (wr *writer) checkInitials(l *levels) error {
	c := wr.c
	read := make([]chart.State, len(c.States))
	for i := range c.States {
		s := &c.States[i]
		read[i] = chart.State{ID: s.ID, Parent: s.Parent, Kind: s.Kind, Initial: l.drawn[i] || s.Kind == chart.StartState}
	}
	importer.MarkInitialAncestors(read, wr.st) // the marks it drops are compared below
	for i := range c.States {
		s := &c.States[i]
		if read[i].Initial == s.Initial {
			continue
		}
		p := l.parent[i]
		switch {
		case s.Kind == chart.StartState && !s.Initial:
			return writeErr("start state %q is not initial, which a shape of stencil %q's start master always is", s.ID, wr.st.Name)
		case s.Initial && p >= 0 && c.States[p].Kind == chart.ParallelState:
			return writeErr("state %q, a region of parallel state %q, is marked initial, which a drawing cannot say: entering the parallel state enters every region", s.ID, c.States[p].ID)
		case s.Initial && s.Kind == chart.ParallelState:
			return writeErr("parallel state %q is initial, which a drawing made with stencil %q cannot say here: a parallel state is initial when a state inside one of its regions is drawn with the %q master and no state beside it is initial, nor a start",
				s.ID, wr.st.Name, wr.st.Masters.Initial)
		case s.Initial:
			return writeErr("state %q is initial, which a drawing made with stencil %q cannot say here: Read marks initial a state drawn with the %q master, and each state around it up to a level with a state so drawn or a start",
				s.ID, wr.st.Name, wr.st.Masters.Initial)
		}
		return writeErr("state %q is not initial, but a drawing made with stencil %q would read it so: a state inside it is initial, and no state beside it is, nor a start, so that Read marks it initial too",
			s.ID, wr.st.Name)
	}
	return nil
}
