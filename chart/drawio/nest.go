package drawio

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// This file reads what nesting makes of a drawing's states: parallel
// states and their regions, histories, the transitions that enter several
// regions at once, and the compounds a transition enters.

// structure checks, once the cells of a page are classified, what their
// nesting says: a history drawn in no state is left out (an error), and a
// state marked parallel that holds no states is a plain state (a
// warning).
func (in *interp) structure(pg *page, nodes []node, prefix string) {
	regions := make(map[*node]int)
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class != clState {
			continue
		}
		p := parentState(n)
		if (n.kind == chart.HistoryState || n.kind == chart.DeepHistoryState) && p == nil {
			what := "history pseudo-state"
			if n.ss.Kind == statesmith.History {
				what = "$H"
			}
			in.diag(chart.Error, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "draw the history inside the state whose history it keeps",
				"%s %s is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out", what, n.c.id)
			n.class = clBad
			continue
		}
		if p != nil && p.kind == chart.ParallelState {
			regions[p]++
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if !n.skip && n.class == clState && n.kind == chart.ParallelState && regions[n] == 0 {
			in.diag(chart.Warning, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "draw its regions (containers) inside it, or remove "+AttrParallel,
				"state %s is marked %s = 1 but holds no states: read as a plain state", n.c.id, AttrParallel)
			n.kind = chart.NormalState
		}
	}
}

// alsoEdges reads the edges of a page that add a target to a transition
// (AttrAlso): each adds the state it ends on to the Also of the transition
// whose edge it names, among the page's, those from first on. One that
// names no transition of the page, or one that enters no state, or that
// does not start where the transition starts or ends on no state, is
// ignored with a warning.
func (in *interp) alsoEdges(pg *page, nodes []node, prefix string, first int) {
	var byID map[string]int
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class != clAlso {
			continue
		}
		if byID == nil {
			byID = make(map[string]int, len(in.c.Transitions)-first)
			for k := first; k < len(in.c.Transitions); k++ {
				byID[in.c.Transitions[k].ID] = k
			}
		}
		v, _ := n.c.get(AttrAlso)
		v = strings.TrimSpace(v)
		at := in.pos(pg, n.c, prefix, chart.NormalizeSpace(edgeLabel(n)))
		const hint = "set " + AttrAlso + " (Edit Data) to the cell ID of the edge of the transition it adds a target to, or remove it to make the edge a transition of its own"
		k, ok := byID[prefix+v]
		if !ok {
			in.diag(chart.Warning, at, hint, "the edge adds a target to transition %q, which the page does not have; ignored", importer.Shorten(v, 40))
			continue
		}
		t := &in.c.Transitions[k]
		src, dst := aliased(n.src), aliased(n.dst)
		switch {
		case t.Target.Kind != chart.ToState:
			in.diag(chart.Warning, at, "glue the end of the transition's edge to a state", "the edge adds a target to transition %s, which enters no state; ignored", t.ID)
		case src == nil || src.class != clState || src.id != t.From:
			in.diag(chart.Warning, at, "start the edge at the state the transition leaves", "the edge adds a target to transition %s, but does not start at the state it leaves; ignored", t.ID)
		case dst == nil || dst.class != clState:
			in.diag(chart.Warning, at, "glue the end of the edge to the state the transition enters too", "the edge adds a target to transition %s, but ends on no state; ignored", t.ID)
		default:
			t.Also = append(t.Also, dst.id)
		}
	}
}

// stateSmithNesting records, for [statesmith.Reading.Hierarchy], the
// $ORTHO regions and the $HC vertices of a page of a drawing made for
// StateSmith.
func (in *interp) stateSmithNesting(pg *page, nodes []node, prefix string) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.skip:
		case n.class == clState && n.ss.Kind == statesmith.Ortho:
			in.smith.Regions = append(in.smith.Regions, statesmith.Region{State: n.id, Order: n.ss.Order, Pos: in.pos(pg, n.c, prefix, n.name)})
		case n.class == clContinue:
			id := ""
			if p := parentState(n); p != nil {
				id = p.id
			}
			in.smith.Continues = append(in.smith.Continues, statesmith.Continue{State: id, Pos: in.pos(pg, n.c, prefix, "$HC")})
		}
	}
}

// tree indexes the nesting of a chart's states, and their transitions.
type tree struct {
	c        *chart.Chart
	index    map[string]int   // a state's index in c.States, by ID (the first of a repeated ID)
	children [][]int          // per state, the indices of the states inside it
	out      map[string][]int // the transitions leaving each state, by ID: indices in c.Transitions
	entries  map[int]entry    // where entering a state leads, by index in c.States ([tree.entry])
}

func newTree(c *chart.Chart) *tree {
	t := &tree{c: c, index: make(map[string]int, len(c.States)), children: make([][]int, len(c.States)), out: make(map[string][]int)}
	for i := range c.Transitions {
		if tr := &c.Transitions[i]; !tr.AnyState {
			t.out[tr.From] = append(t.out[tr.From], i)
		}
	}
	for i := range c.States {
		if _, dup := t.index[c.States[i].ID]; !dup {
			t.index[c.States[i].ID] = i
		}
	}
	for i := range c.States {
		if p, ok := t.index[c.States[i].Parent]; ok && c.States[i].Parent != "" && p != i {
			t.children[p] = append(t.children[p], i)
		}
	}
	return t
}

// inside reports whether state id is inside state p (p itself excluded).
func (t *tree) inside(id, p string) bool {
	i, ok := t.index[id]
	for n := 0; ok && n <= len(t.c.States); n++ {
		q := t.c.States[i].Parent
		if q == "" {
			return false
		}
		if q == p {
			return true
		}
		i, ok = t.index[q]
	}
	return false
}

// nested checks the chart, once read, for what its nesting asks of it: in
// a plain diagram, that a parallel state holds only regions (no start,
// end or choice pseudo-state); that each history has one transition, its
// default, which enters states inside its state without a test (in a
// plain diagram, a history drawn without one gets the one UML gives it);
// that a compound state the machine enters by default has an initial
// state.
func (in *interp) nested() {
	c := in.c
	if !slices.ContainsFunc(c.States, func(s chart.State) bool { return s.Parent != "" }) {
		return
	}
	t := newTree(c)
	if in.st == nil && !in.ss {
		in.regionsOnly(t)
	}
	in.histories(t)
	in.entries(t)
}

// regionsOnly reports the pseudo-states drawn directly inside a parallel
// state, whose children are its regions.
func (in *interp) regionsOnly(t *tree) {
	c := in.c
	for i := range c.States {
		s := &c.States[i]
		p, ok := t.index[s.Parent]
		if !ok || s.Parent == "" || c.States[p].Kind != chart.ParallelState {
			continue
		}
		switch s.Kind {
		case chart.StartState, chart.EndState, chart.ChoiceState:
			in.diag(chart.Error, s.Pos, "draw it inside one of the regions",
				"a %s pseudo-state inside parallel state %q: the states inside a parallel state are its regions", s.Kind, stateName(t, s.Parent))
		}
	}
}

// stateName names state id for a message: by its name, or its ID.
func stateName(t *tree, id string) string {
	if i, ok := t.index[id]; ok && t.c.States[i].Name != "" {
		return t.c.States[i].Name
	}
	return id
}

// hintHistoryDefault says how to draw a history's default.
const hintHistoryDefault = "draw one transition, without a label, from the history to the state to enter when there is no history yet"

// histories checks the transitions of the history states: each has one,
// its default, without a trigger or a guard, to states inside the
// history's state (errors otherwise). A history of a plain diagram drawn
// without a transition gets the one UML gives it: it enters its state as
// a transition to the state would ([interp.defaultHistory]). In a drawing
// made for StateSmith, [statesmith.Histories] reports a $H without
// exactly one transition.
func (in *interp) histories(t *tree) {
	c := in.c
	what := "history "
	if in.ss {
		what = "$H "
	}
	for i := range c.States {
		h := c.States[i]
		if h.Kind != chart.HistoryState && h.Kind != chart.DeepHistoryState || h.Parent == "" {
			continue
		}
		ts := t.out[h.ID]
		switch {
		case len(ts) == 0 && !in.ss:
			in.defaultHistory(t, i)
		case len(ts) > 1 && !in.ss:
			in.diag(chart.Error, h.Pos, hintHistoryDefault,
				"%s%s has %d transitions: a history has one, its default, to the state it enters when there is no history yet", what, h.ID, len(ts))
		}
		for _, k := range ts {
			tr := &c.Transitions[k]
			if tr.Event != "" || tr.Guard != "" {
				in.diag(chart.Error, tr.Pos, hintHistoryDefault,
					"the transition of %s%s has a trigger or a guard (%q): a history's transition is its default, taken whenever there is no history, without a test",
					what, h.ID, importer.Shorten(chart.NormalizeSpace(tr.Label), 40))
			}
			if tr.Target.Kind != chart.ToState {
				in.diag(chart.Error, tr.Pos, "glue the end of the edge to the state to enter when there is no history yet",
					"the transition of %s%s enters no state: it goes to the %s", what, h.ID, tr.Target.Kind)
				continue
			}
			for _, id := range append([]string{tr.Target.State}, tr.Also...) {
				if !t.inside(id, h.Parent) {
					in.diag(chart.Error, tr.Pos, "draw the transition to a state inside the history's state",
						"the transition of %s%s goes to %q, which is not inside state %q: a history enters the states of its own state", what, h.ID, stateName(t, id), stateName(t, h.Parent))
				}
			}
		}
	}
}

// defaultHistory gives history state h (an index in c.States), drawn
// without a transition, the default UML gives it: it enters its state as
// a transition to the state would ([tree.entry]). The transition's ID is
// the history's ID and "#1" (as the SCXML importer names the transitions
// it makes), its position the history's; a note says so. A state that
// does not say where it is entered is an error.
func (in *interp) defaultHistory(t *tree, h int) {
	c := in.c
	hs := c.States[h]
	e := t.entry(t.index[hs.Parent])
	parent := stateName(t, hs.Parent)
	if e.target.State == "" {
		in.diag(chart.Error, hs.Pos, hintHistoryDefault,
			"history %s has no transition, and state %q has no start state whose one transition, nor a state marked initial, says which state to enter when there is no history yet",
			hs.ID, parent)
		return
	}
	id := hs.ID + "#1"
	for n := 2; in.ids[id]; n++ {
		id = hs.ID + "#" + strconv.Itoa(n)
	}
	in.ids[id] = true
	pos := hs.Pos
	pos.Shape = id
	in.addTransition(chart.Transition{ID: id, From: hs.ID, Order: 1, Target: e.target, Also: slices.Clone(e.also), Pos: pos}, importer.Unordered)
	how := fmt.Sprintf("%q, the initial state of %q", stateName(t, e.target.State), parent)
	if e.start {
		how = fmt.Sprintf("%q, where the start state of %q leads", stateName(t, e.target.State), parent)
	}
	in.diag(chart.Note, hs.Pos, "", "history %s has no transition: when there is no history yet, it enters %s, as UML enters the state", hs.ID, how)
}

// entry is where entering a compound state leads.
type entry struct {
	target chart.Target // no state when the compound does not say
	also   []string
	start  bool // where its start pseudo-state's transition leads; else its state marked initial
}

// entry returns where entering state p (an index in c.States) leads: the
// target of the one transition, without a trigger or a guard, of the
// start pseudo-state inside it, or the state inside marked initial. It
// remembers what it found.
func (t *tree) entry(p int) entry {
	if e, ok := t.entries[p]; ok {
		return e
	}
	c := t.c
	var e entry
	for _, k := range t.children[p] {
		s := &c.States[k]
		switch {
		case e.target.State != "":
		case s.Kind == chart.StartState:
			if found := t.out[s.ID]; len(found) == 1 {
				if tr := &c.Transitions[found[0]]; tr.Event == "" && tr.Guard == "" && tr.Target.Kind == chart.ToState {
					e = entry{target: tr.Target, also: tr.Also, start: true}
				}
			}
		case s.Initial && (s.Kind == chart.NormalState || s.Kind == chart.ParallelState):
			e = entry{target: chart.Target{Kind: chart.ToState, State: s.ID}}
		}
	}
	if t.entries == nil {
		t.entries = make(map[int]entry)
	}
	t.entries[p] = e
	return e
}

// entries reports the states that hold states but no initial one (no
// start pseudo-state drawn in them, no state marked initial), and that
// the machine enters by default: a transition ends at one, the machine
// starts in one, a shallow history may restore one, or entering the
// state around one enters it (its initial state, or its region). Which of
// its states the machine is then in, the drawing does not say (a
// statechart would enter the first in the file; StateSmith stays in the
// state itself, with none of its states active): each is an error. It
// costs time linear in the chart, plus the transitions' targets times the
// depth of their nesting.
func (in *interp) entries(t *tree) {
	c := in.c
	n := len(c.States)
	parent := make([]int, n)
	for i := range c.States {
		parent[i] = -1
		if j, ok := t.index[c.States[i].Parent]; ok && c.States[i].Parent != "" && j != i {
			parent[i] = j
		}
	}
	kids := t.children
	hasInitial := make([]bool, n)
	for i := range c.States {
		if p := parent[i]; p >= 0 && c.States[i].Initial {
			hasInitial[p] = true
		}
	}
	why := make([]string, n) // how the machine enters state i by default; "" for not at all
	var queue []int
	enter := func(i int, how string) {
		if why[i] == "" {
			why[i] = how
			queue = append(queue, i)
		}
	}
	// The other regions of the parallel states a transition enters
	// through one of them (each parallel state's once).
	skipped := make(map[int]int) // per parallel state seen, the region not entered yet, or -1
	regions := func(i int, how string) {
		for prev, p, k := i, parent[i], 0; p >= 0 && prev != p && k <= n; prev, p, k = p, parent[p], k+1 {
			if c.States[p].Kind != chart.ParallelState {
				continue
			}
			if r, seen := skipped[p]; seen {
				if r >= 0 && r != prev {
					enter(r, how)
					skipped[p] = -1
				}
				continue
			}
			skipped[p] = prev
			for _, r := range kids[p] {
				if r != prev {
					enter(r, how)
				}
			}
		}
	}
	for i := range c.Transitions {
		tr := &c.Transitions[i]
		if tr.Target.Kind != chart.ToState {
			continue
		}
		for _, id := range append([]string{tr.Target.State}, tr.Also...) {
			if j, ok := t.index[id]; ok {
				enter(j, "transition "+tr.ID+" enters it")
				regions(j, "transition "+tr.ID+" enters its parallel state")
			}
		}
	}
	restored := make(map[int]bool) // the states whose children a shallow history restores
	for i := range c.States {
		s := &c.States[i]
		switch {
		case s.Parent == "" && s.Initial && s.Kind == chart.NormalState:
			enter(i, "the machine starts in it")
		case s.Kind == chart.HistoryState && parent[i] >= 0 && !restored[parent[i]]:
			restored[parent[i]] = true
			how := "history " + s.ID + " may restore it"
			for _, k := range kids[parent[i]] {
				enter(k, how)
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, k := range kids[i] {
			if c.States[i].Kind == chart.ParallelState || c.States[k].Initial && c.States[k].Kind == chart.NormalState {
				enter(k, fmt.Sprintf("entering state %q enters it", stateName(t, c.States[i].ID)))
			}
		}
	}
	for i := range c.States {
		s := &c.States[i]
		if why[i] == "" || len(kids[i]) == 0 || hasInitial[i] || s.Kind != chart.NormalState {
			continue
		}
		first := stateName(t, c.States[kids[i][0]].ID)
		switch {
		case in.ss:
			in.diag(chart.Error, s.Pos, "draw an $initial_state in it, with a transition to the state to enter; or end the transition at that state",
				"state %q holds states but no $initial_state, and %s: StateSmith then stays in %q itself, with none of its states active, which a chart cannot say "+
					"(a statechart would enter %q, the first in the file)", s.Name, why[i], s.Name, first)
		case in.st != nil && in.st.Masters.Initial != "":
			in.diag(chart.Error, s.Pos, fmt.Sprintf("draw the state to enter with the %q shape of stencil %q's library", in.st.Masters.Initial, in.st.Name),
				"state %q holds states but none of master %q, and %s: the drawing does not say which of them the machine is then in "+
					"(a statechart would enter %q, the first in the file)", stateName(t, s.ID), in.st.Masters.Initial, why[i], first)
		case in.st != nil:
			in.diag(chart.Error, s.Pos, "end the transition at the state inside to enter",
				"state %q holds states, and %s, but stencil %q has no initial-state master to say which of them the machine is then in "+
					"(a statechart would enter %q, the first in the file)", stateName(t, s.ID), why[i], in.st.Name, first)
		default:
			in.diag(chart.Error, s.Pos, "draw a start state in it, with a transition to the state to enter, or mark that state "+AttrInitial+" = 1 in its Edit Data; or end the transition at that state",
				"state %q holds states but no start state nor one marked initial, and %s: the drawing does not say which of them the machine is then in "+
					"(a statechart would enter %q, the first in the file)", stateName(t, s.ID), why[i], first)
		}
	}
}
