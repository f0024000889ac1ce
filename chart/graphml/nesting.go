package graphml

import (
	"fmt"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// This file reads what nesting adds to a drawing: history pseudo-states
// (UML's and Kingly's "H" and "H*", StateSmith's $H and $HC) and their
// default transitions, and the states that hold states but no initial
// one. What StateSmith's drawings nest ($ORTHO regions, how deep a $H
// keeps, local transitions) package internal/statesmith reads
// ([statesmith.Reading.Hierarchy]), as for chart/drawio.

// Hints of the diagnostics of nesting.
const (
	hintHistoryInside  = "Draw the history node inside the group whose state it keeps."
	hintHistoryDefault = "Draw one transition, without a label, from the history node to the state to enter when there is no history yet."
)

// smithHistory reads the i-th node of a drawing made for StateSmith, a $H
// or a $HC, which StateSmith draws inside the state whose history it
// keeps: a $H is a history pseudo-state, a $HC a mark without edges that
// makes the $H of the state around its own keep one more level. Whether
// a $H is shallow or deep, and what StateSmith refuses of them,
// [statesmith.Reading.Hierarchy] says once the chart is read.
func (in *interp) smithHistory(i int, n *node, v statesmith.Vertex, bad func(hint, format string, args ...any)) {
	p := parentState(n)
	switch {
	case in.members(i) > 0:
		bad("Draw the nodes beside it, not inside it.", "%s node %s holds other nodes, which StateSmith refuses for a pseudo-state", v.Kind, n.id)
	case v.Kind == statesmith.HistoryContinue:
		n.what = isContinue
		id := ""
		if p != nil {
			id = p.id
		}
		in.smith.Continues = append(in.smith.Continues, statesmith.Continue{State: id, Pos: in.at(n.e, n.id, "$HC")})
	case p == nil:
		bad(hintHistoryInside, "$H %s is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out", n.id)
	default:
		n.what, n.kind = isState, chart.HistoryState
	}
}

// historyDefaults checks the transition of each history pseudo-state, its
// default: the state it enters when its state has no history yet. A
// history has one, without an event or a guard. In a drawing made for
// StateSmith, which requires it, [statesmith.Histories] reports a $H
// without one. In a plain diagram, a history without a transition enters
// its state as a transition to the state would, as UML and Kingly define
// it (its default entry), so the reader draws the default from the
// history to where that state's start leads, with a note, or reports an
// error when it cannot say where.
func (in *interp) historyDefaults() {
	c := in.c
	out := make(map[string][]int)
	for i := range c.States {
		if k := c.States[i].Kind; k == chart.HistoryState || k == chart.DeepHistoryState {
			out[c.States[i].ID] = nil
		}
	}
	if len(out) == 0 {
		return
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if ts, ok := out[t.From]; ok && !t.AnyState {
			out[t.From] = append(ts, i)
		}
	}
	name := in.stateNames()
	what := "history node "
	if in.ss {
		what = "$H "
	}
	n := len(c.States)
	for i := range n {
		h := c.States[i]
		if h.Kind != chart.HistoryState && h.Kind != chart.DeepHistoryState {
			continue
		}
		ts := out[h.ID]
		switch {
		case len(ts) == 1:
			if t := &c.Transitions[ts[0]]; t.Event != "" || t.Guard != "" {
				in.diag(chart.Error, t.Pos, hintHistoryDefault,
					"the transition of %s%s has a trigger or a guard (%q): a history's transition is its default, taken whenever there is no history, without a test",
					what, h.ID, importer.Shorten(chart.NormalizeSpace(t.Label), 40))
			}
		case in.ss:
			// [statesmith.Histories] reports a $H without one transition.
		case len(ts) > 1:
			in.diag(chart.Error, h.Pos, hintHistoryDefault,
				"%s%s has %d transitions: a history has one, its default, to the state it enters when there is no history yet", what, h.ID, len(ts))
		default:
			t, ok := in.defaultEntry(h.Parent)
			if !ok {
				in.diag(chart.Error, h.Pos, hintHistoryDefault,
					"%s%s has no transition, and state %q has no start state whose one transition says which state to enter when there is no history yet",
					what, h.ID, name(h.Parent))
				continue
			}
			in.addTransition(chart.Transition{ID: in.newTransitionID(h.ID + "#default"), From: h.ID, Target: t, Pos: h.Pos}, importer.Unordered)
			in.diag(chart.Note, h.Pos, "",
				"%s%s has no transition: when there is no history yet, it enters %q, where the start state of %q leads, as UML and Kingly enter the state",
				what, h.ID, name(t.State), name(h.Parent))
		}
	}
}

// defaultEntry returns where entering the state with ID parent leads: the
// target of the one transition, without event or guard, of the start
// pseudo-state drawn in it.
func (in *interp) defaultEntry(parent string) (chart.Target, bool) {
	c := in.c
	for i := range c.States {
		s := &c.States[i]
		if s.Parent != parent || s.Kind != chart.StartState {
			continue
		}
		var found []*chart.Transition
		for j := range c.Transitions {
			if t := &c.Transitions[j]; t.From == s.ID && !t.AnyState {
				found = append(found, t)
			}
		}
		if len(found) != 1 || found[0].Event != "" || found[0].Guard != "" || found[0].Target.Kind != chart.ToState {
			return chart.Target{}, false
		}
		return found[0].Target, true
	}
	return chart.Target{}, false
}

// newTransitionID returns id, or id with primes after it, so that no
// state or transition has it.
func (in *interp) newTransitionID(id string) string {
	taken := make(map[string]bool, len(in.c.Transitions))
	for i := range in.c.Transitions {
		taken[in.c.Transitions[i].ID] = true
	}
	for in.byID[id] != nil || taken[id] {
		id += "'"
	}
	return id
}

// stateNames returns a function that names a state of the chart by its
// ID, for messages: its name, or else its ID.
func (in *interp) stateNames() func(id string) string {
	by := make(map[string]string, len(in.c.States))
	for i := range in.c.States {
		by[in.c.States[i].ID] = in.c.States[i].Name
	}
	return func(id string) string {
		if n := by[id]; n != "" {
			return n
		}
		return id
	}
}

// checkEntries reports the states that hold states but no initial one
// (no start pseudo-state drawn in them, no state of the stencil's
// initial-state role), and that the machine enters by default: a
// transition ends at one, the machine starts in one, a shallow history
// may restore one, or entering the state around one enters it (its
// initial state, or its region). Which of its states the machine is then
// in, the drawing does not say, and a statechart would enter the first in
// the file; StateSmith stays in the state itself, with none of its states
// active. Each is an error. It costs time linear in the chart, plus the
// transitions' targets times the depth of their nesting.
func (in *interp) checkEntries() {
	c := in.c
	n := len(c.States)
	idx := make(map[string]int, n)
	for i := range c.States {
		idx[c.States[i].ID] = i
	}
	parent := make([]int, n)
	kids := make([][]int, n)
	nested := false
	for i := range c.States {
		parent[i] = -1
		if j, ok := idx[c.States[i].Parent]; ok && c.States[i].Parent != "" {
			parent[i] = j
			kids[j] = append(kids[j], i)
			nested = true
		}
	}
	if !nested {
		return
	}
	hasInitial := make([]bool, n)
	for i := range c.States {
		if p := parent[i]; p >= 0 && c.States[i].Initial {
			hasInitial[p] = true
		}
	}
	name := func(i int) string {
		if c.States[i].Name != "" {
			return c.States[i].Name
		}
		return c.States[i].ID
	}
	why := make([]string, n) // how the machine enters state i by default; "" for not at all
	var queue []int
	enter := func(i int, how string) {
		if why[i] == "" {
			why[i] = how
			queue = append(queue, i)
		}
	}
	// Regions of a parallel state a transition enters through another.
	regions := func(i int, how string) {
		for prev, p := i, parent[i]; p >= 0 && prev != p; prev, p = p, parent[p] {
			if c.States[p].Kind == chart.ParallelState {
				for _, k := range kids[p] {
					if k != prev {
						enter(k, how)
					}
				}
			}
		}
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if t.Target.Kind != chart.ToState {
			continue
		}
		for _, id := range append([]string{t.Target.State}, t.Also...) {
			if j, ok := idx[id]; ok {
				enter(j, "transition "+t.ID+" enters it")
				regions(j, "transition "+t.ID+" enters its parallel state")
			}
		}
	}
	for i := range c.States {
		s := &c.States[i]
		switch {
		case s.Parent == "" && s.Initial && s.Kind == chart.NormalState:
			enter(i, "the machine starts in it")
		case s.Kind == chart.HistoryState && parent[i] >= 0:
			for _, k := range kids[parent[i]] {
				enter(k, "history node "+s.ID+" may restore it")
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, k := range kids[i] {
			if c.States[i].Kind == chart.ParallelState || c.States[k].Initial && c.States[k].Kind == chart.NormalState {
				enter(k, fmt.Sprintf("entering state %q enters it", name(i)))
			}
		}
	}
	for i := range c.States {
		s := &c.States[i]
		if why[i] == "" || len(kids[i]) == 0 || hasInitial[i] || s.Kind != chart.NormalState {
			continue
		}
		first := name(kids[i][0])
		switch {
		case in.ss:
			in.diag(chart.Error, s.Pos, "Draw an $initial_state in it, with a transition to the state to enter; or end the transition at that state.",
				"state %q holds states but no $initial_state, and %s: StateSmith then stays in %q itself, with none of its states active, which a chart cannot say "+
					"(a statechart would enter %q, the first in the file)", s.Name, why[i], s.Name, first)
		case in.st != nil:
			in.diag(chart.Error, s.Pos, fmt.Sprintf("Give one of the states in it the role %q.", in.st.Masters.Initial),
				"state %q holds states but none of role %q, and %s: the drawing does not say which of them the machine is then in "+
					"(a statechart would enter %q, the first in the file)", name(i), in.st.Masters.Initial, why[i], first)
		default:
			in.diag(chart.Error, s.Pos, "Draw a start state in it, with a transition to the state to enter; or end the transition at that state.",
				"state %q holds states but no start state, and %s: the drawing does not say which of them the machine is then in "+
					"(a statechart would enter %q, the first in the file)", name(i), why[i], first)
		}
	}
}
