package drawio

import (
	"math"

	"github.com/fsmforge/fsmforge/chart"
)

// This file lays out the states of a page that nest, for Write: compound
// states are containers, large enough to hold what is drawn in them.

// The spaces of a nested layout.
const (
	pad    = 20 // inside a container, left, right and below what it holds
	header = 30 // inside a container, above what it holds: its label
	gap    = 40 // between shapes laid out side by side
	topRow = 5  // shapes in a row at the top of a page
)

// layout returns where each state of the page is drawn, on the page: at
// its Box, or, for a state without one, on a grid below those that have
// one. A state that holds states is drawn large enough to hold them: one
// without a Box around those that have one, with those that have none
// laid out below them in rows; one with a Box grown when they do not fit
// in it. The regions of a parallel state are stacked, as wide as the
// widest.
func (wr *writer) layout(pg *wpage) map[string]chart.Box {
	c := wr.c
	nested := false
	for _, i := range pg.states {
		nested = nested || c.States[i].Parent != ""
	}
	if !nested {
		return wr.gridLayout(pg)
	}
	l := &layouter{c: c, boxes: make(map[string]chart.Box, len(pg.states)), kids: make(map[string][]int), anchored: make(map[int]bool)}
	var top []int
	for _, i := range pg.states {
		if p := c.States[i].Parent; p != "" {
			l.kids[p] = append(l.kids[p], i)
		} else {
			top = append(top, i)
		}
	}
	for _, i := range pg.states {
		l.anchor(i, 0)
	}
	bottom := float64(margin)
	var free []int
	for _, i := range top {
		if !l.anchored[i] {
			free = append(free, i)
			continue
		}
		l.fit(i)
		b := l.boxes[c.States[i].ID]
		bottom = max(bottom, b.Y+b.H+margin)
	}
	l.flow(free, margin, bottom, topRow)
	return l.boxes
}

// layouter lays out the states of a page that nest.
type layouter struct {
	c        *chart.Chart
	boxes    map[string]chart.Box
	kids     map[string][]int // the states inside each state, by ID: indices in c.States
	anchored map[int]bool     // states with a Box, or states inside them with one
}

// anchor finds whether state i, or a state inside it, has a Box.
func (l *layouter) anchor(i, depth int) bool {
	if a, ok := l.anchored[i]; ok {
		return a
	}
	s := &l.c.States[i]
	a := s.Box != nil
	l.anchored[i] = a // cut a cycle, which Write refuses anyway
	if depth <= len(l.c.States) {
		for _, k := range l.kids[s.ID] {
			if l.anchor(k, depth+1) {
				a = true
			}
		}
	}
	l.anchored[i] = a
	return a
}

// fit lays out anchored state i: those inside it with a Box (or with one
// inside them) where they are, the others below them, and i itself at its
// Box, grown to hold them, or around them.
func (l *layouter) fit(i int) {
	s := &l.c.States[i]
	var inner *chart.Box // what the anchored states inside take
	var free []int
	for _, k := range l.kids[s.ID] {
		if !l.anchored[k] {
			free = append(free, k)
			continue
		}
		l.fit(k)
		inner = union(inner, l.boxes[l.c.States[k].ID])
	}
	var b chart.Box
	switch {
	case s.Box != nil:
		b = *s.Box
	case inner != nil:
		b = chart.Box{X: inner.X - pad, Y: inner.Y - header, W: inner.W + 2*pad, H: inner.H + header + pad}
	default: // not anchored: fit is called for anchored states only
		b = chart.Box{W: stateW, H: stateH}
	}
	x, y := b.X+pad, b.Y+header
	if inner != nil {
		y = max(y, inner.Y+inner.H+gap)
	}
	if len(free) > 0 {
		content := l.flow(free, x, y, l.columns(s, len(free)))
		b = *union(&b, chart.Box{X: content.X - pad, Y: content.Y - header, W: content.W + 2*pad, H: content.H + header + pad})
	}
	if inner != nil {
		b = *union(&b, *inner)
	}
	l.boxes[s.ID] = b
}

// columns is how many of n states inside s are laid out in a row: one
// for the regions of a parallel state, stacked, else about as many as
// rows.
func (l *layouter) columns(s *chart.State, n int) int {
	if s.Kind == chart.ParallelState {
		return 1
	}
	return max(1, int(math.Ceil(math.Sqrt(float64(n)))))
}

// flow lays out states without a Box in rows of cols, from (x0, y0), and
// returns the box they take.
func (l *layouter) flow(states []int, x0, y0 float64, cols int) chart.Box {
	x, y, rowH, n := x0, y0, 0.0, 0
	right, bottom := x0, y0
	for _, k := range states {
		if n == cols {
			x, y, rowH, n = x0, y+rowH+gap, 0, 0
		}
		l.place(k, x, y)
		b := l.boxes[l.c.States[k].ID]
		x += b.W + gap
		rowH = max(rowH, b.H)
		n++
		right, bottom = max(right, b.X+b.W), max(bottom, b.Y+b.H)
	}
	return chart.Box{X: x0, Y: y0, W: right - x0, H: bottom - y0}
}

// place lays out state i, which has no Box, nor any state inside it,
// with its top-left corner at (x, y).
func (l *layouter) place(i int, x, y float64) {
	s := &l.c.States[i]
	kids := l.kids[s.ID]
	if len(kids) == 0 {
		w, h := float64(stateW), float64(stateH)
		switch s.Kind {
		case chart.StartState, chart.EndState, chart.HistoryState, chart.DeepHistoryState:
			w, h = pseudoSize, pseudoSize
		case chart.ChoiceState:
			w, h = choiceSize, choiceSize
		}
		l.boxes[s.ID] = chart.Box{X: x, Y: y, W: w, H: h}
		return
	}
	content := l.flow(kids, x+pad, y+header, l.columns(s, len(kids)))
	if s.Kind == chart.ParallelState { // regions as wide as the widest
		for _, k := range kids {
			b := l.boxes[l.c.States[k].ID]
			b.W = content.W
			l.boxes[l.c.States[k].ID] = b
		}
	}
	l.boxes[s.ID] = chart.Box{X: x, Y: y, W: max(content.W+2*pad, stateW), H: content.H + header + pad}
}

// union returns the box that holds a (nil for none) and b.
func union(a *chart.Box, b chart.Box) *chart.Box {
	if a == nil {
		return &b
	}
	x, y := min(a.X, b.X), min(a.Y, b.Y)
	r, btm := max(a.X+a.W, b.X+b.W), max(a.Y+a.H, b.Y+b.H)
	return &chart.Box{X: x, Y: y, W: r - x, H: btm - y}
}
