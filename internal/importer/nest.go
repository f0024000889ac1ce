package importer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// This file checks what the nesting of a chart read from a drawing asks
// of it, in UML's terms, for every importer: the pseudo-states drawn
// directly in a parallel state, the transitions of the history states
// (and the defaults UML gives those drawn without one), and the compound
// states the machine enters without an initial state to say where.
// Package internal/statesmith checks what StateSmith's drawings ask
// (statesmith.Reading.Hierarchy), with the same pieces.

// Nesting says how an importer's drawings give a compound state its
// initial state, for the errors of [CheckNesting], and how the importer
// adds the transitions the check makes. The zero value is for a drawing
// that draws a start state, and appends the transitions to the chart.
type Nesting struct {
	// InitialHint says how to give a compound state its initial state,
	// for the errors about those without one: by default, "draw a start
	// state in it, with a transition to the state to enter; or end the
	// transition at that state".
	InitialHint string

	// Add adds a transition the check makes, a history's default, to the
	// chart as the importer adds those it reads (drawn without an order:
	// [Unordered]); nil appends it to the chart's Transitions.
	Add func(chart.Transition)

	// Taken reports whether the drawing uses an ID that no transition the
	// check makes may take, besides the IDs of the chart's states and
	// transitions (which none takes either); nil for none.
	Taken func(id string) bool

	// CompileChecksStarts says that package compile checks the chart's
	// start pseudo-states, as it does those of a drawing made with a
	// stencil (the start master's): a start drawn directly in a parallel
	// state is then its to report, and the check leaves it out. By
	// default (false) the check reports it.
	CompileChecksStarts bool
}

// StencilInitialHint is [Nesting.InitialHint] for a drawing made with
// stencil st: it says how st's masters give a compound state its initial
// state, those of them st has: a shape of its start master drawn in the
// compound, with a transition without a test to the state to enter, or
// that state drawn with its initial-state master (which also marks the
// compound initial when no state beside it is: [MarkInitialAncestors]);
// or else, as a stencil with neither can, the transition ended at that
// state. shape is a format with one %q that names a shape of a master
// (the master's name) as the importer's drawings do: "a shape of the %q
// master" (Visio), "the library's %q shape" (draw.io), "a node of the
// role %q" (yEd).
func StencilInitialHint(st *chart.Stencil, shape string) string {
	m := st.Masters
	var ways []string
	if m.Start != "" {
		ways = append(ways, "draw "+fmt.Sprintf(shape, m.Start)+" in it, with a transition without a test to the state to enter")
	}
	if m.Initial != "" {
		that := "that state"
		if len(ways) == 0 {
			that = "the state inside to enter"
		}
		ways = append(ways, "draw "+that+" as "+fmt.Sprintf(shape, m.Initial))
	}
	if len(ways) == 0 {
		return fmt.Sprintf("end the transition at the state inside to enter: stencil %q has no start or initial-state master to draw an initial state with", st.Name)
	}
	return strings.Join(ways, ", or ") + "; or end the transition at that state"
}

// IgnoredTest is the warning about test, set on the transition of
// pseudo-state from (as the importer describes it: "node S") of kind k,
// a start or a history ([chart.StateKind.UntestedTransition]), whose
// transition is taken without a test: the importer keeps the transition,
// which says where the pseudo-state leads, and clears its test. The
// stencil's transition master may preset a test, which designers then
// forget to clear. The hint says to clear prop (the stencil's test
// property) in the transition's where: "Shape Data" (Visio), "Edit Data"
// (draw.io), "properties (Edit > Properties > Data)" (yEd). It panics if
// k is not the kind of a start or a history.
func IgnoredTest(at diag.Pos, k chart.StateKind, from, test, prop, where string) Problem {
	if !k.UntestedTransition() {
		panic("importer: IgnoredTest of a " + k.String() + " state, whose transitions take tests")
	}
	what, why := "a start state", "a start's transition says where its state starts, taken without a test whenever the state is entered (or the machine starts)"
	if k.IsHistory() {
		what, why = "a history state", "a history's transition is its default, taken without a test whenever its state has no history yet"
		if k == chart.DeepHistoryState {
			what = "a deep history state"
		}
	}
	return Problem{Pos: at, Severity: diag.Warning, Hint: fmt.Sprintf("clear %q in the transition's %s", prop, where),
		Message: fmt.Sprintf("the transition of %s, %s, has test %q, which is ignored: %s", from, what, Shorten(test, 40), why)}
}

// The hints of the checks of nesting.
const (
	hintHistoryInside  = "draw the history inside the state whose history it keeps"
	hintHistoryDefault = "draw one transition, without a label, from the history to the state to enter when there is no history yet"
	hintInitials       = "draw a start state in it, with a transition to the state to enter; or end the transition at that state"
)

// HistoryInNoState is the error about history state id, drawn in no state,
// which the importer leaves out with its transitions: a history keeps the
// history of the state it is drawn in. noun names it as the drawing
// does: "history" (UML's), "$H" (StateSmith's).
func HistoryInNoState(at diag.Pos, noun, id string) Problem {
	return Problem{Pos: at, Severity: diag.Error, Hint: hintHistoryInside,
		Message: fmt.Sprintf("%s %s is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out", noun, id)}
}

// CheckNesting checks what the nesting of a chart read from a plain
// diagram, or from a drawing made with a stencil, asks of it, as UML
// says, and returns the problems it finds:
//   - a start, end or choice pseudo-state drawn directly in a parallel
//     state, whose states are its regions, is an error (a start is left
//     out when n.CompileChecksStarts);
//   - the transitions of the history states are checked
//     ([CheckHistoryTransitions], the histories named "history");
//   - a history drawn in a state but without a transition gets the
//     default UML gives it: it enters its state as a transition to the
//     state would, where the state's start state leads (its one
//     transition, without a trigger or a guard), or else the state inside
//     marked initial. The transition, which n.Add adds, has the ID of the
//     history and "#1" (as the SCXML importer names the transitions it
//     makes; "#2", "#3"... when that is taken), the position of the
//     history but for its Shape, the transition's ID; a note says so. A
//     state that does not say where it is entered is an error;
//   - a compound state the machine enters by default without an initial
//     state is an error ([NoInitials]), with n.InitialHint.
//
// A chart whose states nest none has none of these. CheckNesting changes
// c only through n.Add; it costs time linear in the chart, plus the
// transitions' targets times the depth of their nesting.
func CheckNesting(c *chart.Chart, n Nesting) []Problem {
	if !nested(c) {
		return nil
	}
	t := newTree(c)
	ps := t.regionsOnly(n.CompileChecksStarts)
	ps = append(ps, t.historyTransitions("history")...)
	ps = append(ps, t.historyDefaults(n)...)
	return append(ps, t.noInitials(n.InitialHint)...)
}

// nested reports whether a state of the chart is inside another.
func nested(c *chart.Chart) bool {
	return slices.ContainsFunc(c.States, func(s chart.State) bool { return s.Parent != "" })
}

// tree indexes the nesting of a chart's states, and their transitions.
type tree struct {
	c        *chart.Chart
	index    map[string]int   // a state's index in c.States, by ID (the first of a repeated ID)
	parent   []int            // per state, the index of the state it is in; -1 for none
	children [][]int          // per state, the indices of the states inside it
	out      map[string][]int // the transitions leaving each state, by ID: indices in c.Transitions
	entries  map[int]entry    // where entering a state leads, by index in c.States ([tree.entry])
}

func newTree(c *chart.Chart) *tree {
	n := len(c.States)
	t := &tree{c: c, index: make(map[string]int, n), parent: make([]int, n), children: make([][]int, n), out: make(map[string][]int)}
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
		t.parent[i] = -1
		if p, ok := t.index[c.States[i].Parent]; ok && c.States[i].Parent != "" && p != i {
			t.parent[i] = p
			t.children[p] = append(t.children[p], i)
		}
	}
	return t
}

// name names state id for a message: by its name, or its ID.
func (t *tree) name(id string) string {
	if i, ok := t.index[id]; ok && t.c.States[i].Name != "" {
		return t.c.States[i].Name
	}
	return id
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

// regionsOnly reports the pseudo-states drawn directly inside a parallel
// state, whose children are its regions, the starts left out when
// package compile checks them (startsChecked).
func (t *tree) regionsOnly(startsChecked bool) []Problem {
	var ps []Problem
	for i := range t.c.States {
		s := &t.c.States[i]
		p := t.parent[i]
		if p < 0 || t.c.States[p].Kind != chart.ParallelState {
			continue
		}
		switch k := s.Kind; {
		case k == chart.StartState && startsChecked:
			continue
		case k != chart.StartState && k != chart.EndState && k != chart.ChoiceState:
			continue
		}
		a := "a"
		if s.Kind == chart.EndState {
			a = "an"
		}
		ps = append(ps, Problem{Pos: s.Pos, Severity: diag.Error, Hint: "draw it inside one of the regions",
			Message: fmt.Sprintf("%s %s pseudo-state inside parallel state %q: the states inside a parallel state are its regions", a, s.Kind, t.name(s.Parent))})
	}
	return ps
}

// isHistory reports whether a state is a history drawn in a state.
func isHistory(s *chart.State) bool {
	return s.Kind.IsHistory() && s.Parent != ""
}

// CheckHistoryTransitions checks the transitions of the chart's history
// states drawn in a state: a history has at most one, its default,
// taken whenever its state has no history yet, without a trigger or a
// guard, to states inside its state; more than one, a trigger or a
// guard, and a transition to no state or to a state outside are errors.
// noun names the histories as the drawing does: "history" (UML's), "$H"
// (StateSmith's). What a history without a transition means is the
// drawing's to say (UML gives it a default: [CheckNesting]; StateSmith
// refuses it). It costs time linear in the chart, plus the targets of the
// histories' transitions times the depth of their nesting.
func CheckHistoryTransitions(c *chart.Chart, noun string) []Problem {
	if !nested(c) {
		return nil
	}
	return newTree(c).historyTransitions(noun)
}

func (t *tree) historyTransitions(noun string) []Problem {
	var ps []Problem
	for i := range t.c.States {
		h := &t.c.States[i]
		if !isHistory(h) {
			continue
		}
		ts := t.out[h.ID]
		if len(ts) > 1 {
			ps = append(ps, Problem{Pos: h.Pos, Severity: diag.Error, Hint: hintHistoryDefault,
				Message: fmt.Sprintf("%s %s has %d transitions: a history has one, its default, to the state it enters when there is no history yet", noun, h.ID, len(ts))})
		}
		for _, k := range ts {
			ps = append(ps, t.historyTransition(h, &t.c.Transitions[k], noun)...)
		}
	}
	return ps
}

// historyTransition checks transition tr of history h.
func (t *tree) historyTransition(h *chart.State, tr *chart.Transition, noun string) []Problem {
	var ps []Problem
	if tr.Event != "" || tr.Guard != "" {
		ps = append(ps, Problem{Pos: tr.Pos, Severity: diag.Error, Hint: hintHistoryDefault,
			Message: fmt.Sprintf("the transition of %s %s has a trigger or a guard (%q): a history's transition is its default, taken whenever there is no history, without a test",
				noun, h.ID, Shorten(chart.NormalizeSpace(tr.Label), 40))})
	}
	if tr.Target.Kind != chart.ToState {
		return append(ps, Problem{Pos: tr.Pos, Severity: diag.Error, Hint: "end the transition at the state to enter when there is no history yet",
			Message: fmt.Sprintf("the transition of %s %s enters no state: it goes to the %s", noun, h.ID, tr.Target.Kind)})
	}
	for _, id := range append([]string{tr.Target.State}, tr.Also...) {
		if !t.inside(id, h.Parent) {
			ps = append(ps, Problem{Pos: tr.Pos, Severity: diag.Error, Hint: "draw the transition to a state inside the history's state",
				Message: fmt.Sprintf("the transition of %s %s goes to %q, which is not inside state %q: a history enters the states of its own state", noun, h.ID, t.name(id), t.name(h.Parent))})
		}
	}
	return ps
}

// historyDefaults gives each history drawn in a state without a
// transition the default UML gives it ([CheckNesting]).
func (t *tree) historyDefaults(n Nesting) []Problem {
	c := t.c
	var ps []Problem
	var taken map[string]bool // the IDs of the chart, when first needed
	for i := range c.States {
		h := &c.States[i]
		if !isHistory(h) || t.parent[i] < 0 || len(t.out[h.ID]) > 0 {
			continue
		}
		parent := t.name(h.Parent)
		e := t.entry(t.parent[i])
		if e.target.State == "" {
			ps = append(ps, Problem{Pos: h.Pos, Severity: diag.Error, Hint: hintHistoryDefault,
				Message: fmt.Sprintf("history %s has no transition, and state %q has no start state whose one transition, nor a state marked initial, says which state to enter when there is no history yet",
					h.ID, parent)})
			continue
		}
		if taken == nil {
			taken = make(map[string]bool, len(c.States)+len(c.Transitions))
			for k := range c.States {
				taken[c.States[k].ID] = true
			}
			for k := range c.Transitions {
				taken[c.Transitions[k].ID] = true
			}
		}
		id := h.ID + "#1"
		for k := 2; taken[id] || n.Taken != nil && n.Taken(id); k++ {
			id = h.ID + "#" + strconv.Itoa(k)
		}
		taken[id] = true
		pos := h.Pos
		pos.Shape = id
		tr := chart.Transition{ID: id, From: h.ID, Target: e.target, Also: slices.Clone(e.also), Pos: pos}
		if n.Add != nil {
			n.Add(tr)
		} else {
			c.Transitions = append(c.Transitions, tr)
		}
		how := fmt.Sprintf("%q, the initial state of %q", t.name(e.target.State), parent)
		if e.start {
			how = fmt.Sprintf("%q, where the start state of %q leads", t.name(e.target.State), parent)
		}
		ps = append(ps, Problem{Pos: h.Pos, Severity: diag.Note,
			Message: fmt.Sprintf("history %s has no transition: when there is no history yet, it enters %s, as UML enters the state", h.ID, how)})
	}
	return ps
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

// NoInitial is a compound state that the machine enters by default,
// though it holds no initial state to say which of its states the
// machine is then in ([NoInitials]).
type NoInitial struct {
	State int    // its index in c.States
	How   string // how the machine enters it: "transition e1 enters it", "history h may restore it"
	First int    // the index in c.States of the first state inside it in the file, which a statechart enters
}

// NoInitials returns the states that hold states but no initial one (no
// start pseudo-state drawn in them, no state marked initial), and that
// the machine enters by default: a transition ends at one, the machine
// starts in one, a shallow history may restore one, or entering the
// state around one enters it (its initial state, or its region). Which of
// its states the machine is then in, the drawing does not say: a
// statechart enters the first in the file (StateSmith stays in the state
// itself, with none of its states active). noun names the histories in
// How as the drawing does: "history" (UML's), "$H" (StateSmith's). The
// states come in the chart's order. It costs time linear in the chart,
// plus the transitions' targets times the depth of their nesting.
func NoInitials(c *chart.Chart, noun string) []NoInitial {
	if !nested(c) {
		return nil
	}
	return newTree(c).findNoInitials(noun)
}

// noInitials reports the states [NoInitials] finds, with hint.
func (t *tree) noInitials(hint string) []Problem {
	if hint == "" {
		hint = hintInitials
	}
	var ps []Problem
	for _, e := range t.findNoInitials("history") {
		s := &t.c.States[e.State]
		ps = append(ps, Problem{Pos: s.Pos, Severity: diag.Error, Hint: hint,
			Message: fmt.Sprintf("state %q holds states but no initial state, and %s: the drawing does not say which of them the machine is then in (a statechart would enter %q, the first in the file)",
				t.name(s.ID), e.How, t.name(t.c.States[e.First].ID))})
	}
	return ps
}

func (t *tree) findNoInitials(noun string) []NoInitial {
	c := t.c
	n := len(c.States)
	parent, kids := t.parent, t.children
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
			how := noun + " " + s.ID + " may restore it"
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
				enter(k, fmt.Sprintf("entering state %q enters it", t.name(c.States[i].ID)))
			}
		}
	}
	var out []NoInitial
	for i := range c.States {
		if why[i] == "" || len(kids[i]) == 0 || hasInitial[i] || c.States[i].Kind != chart.NormalState {
			continue
		}
		out = append(out, NoInitial{State: i, How: why[i], First: kids[i][0]})
	}
	return out
}

// MarkInitialAncestors gives the initial-state master of stencil st its
// meaning in a chart whose states nest: a state of that master (Initial)
// is the initial state of the compound state around it, and the machine
// starts there when nothing says otherwise, so each compound around it is
// marked Initial too, up to the first level that says where it starts (a
// state marked Initial or a start state among the compound's siblings, or
// the compound itself already marked). A region of a parallel state is
// never marked, nor left marked: entering the parallel state enters every
// region, and the parallel state is marked instead. Two initial states
// drawn in two compounds of one level, which no mark of that level
// decides between, leave both compounds marked: package compile reports
// the level's two initial states.
//
// It returns a warning for each region drawn with the initial-state
// master whose mark has no effect: the parallel state is not marked (nor,
// for a region of a parallel state that is itself a region, the first
// state around that is no region), for its level starts elsewhere. A
// start drawn directly in a parallel state is no region (package compile
// reports it), and its mark is dropped without a word. st names the
// masters in the warnings. It costs time linear in the states times the
// depth of their nesting.
func MarkInitialAncestors(states []chart.State, st *chart.Stencil) []Problem {
	index := make(map[string]int, len(states))
	for i := range states {
		index[states[i].ID] = i
	}
	marked := make(map[string]bool) // the levels, by parent ID, that mark their own initial state
	for i := range states {
		if states[i].Initial || states[i].Kind == chart.StartState {
			marked[states[i].Parent] = true
		}
	}
	region := func(i int) bool {
		j, ok := index[states[i].Parent]
		return ok && states[j].Kind == chart.ParallelState
	}
	for i := range states {
		if !states[i].Initial || states[i].Kind == chart.StartState {
			continue
		}
		// Climb to a compound already marked, or to a level that marks its
		// own; each compound is marked once, and a climb through a cycle
		// (a damaged chart) stops after as many steps as there are states.
		p := states[i].Parent
		for range len(states) {
			j, ok := index[p]
			if !ok || states[j].Initial {
				break
			}
			if !region(j) {
				if marked[states[j].Parent] {
					break
				}
				states[j].Initial = true
			}
			p = states[j].Parent
		}
	}
	var ps []Problem
	for i := range states {
		if !states[i].Initial || !region(i) {
			continue
		}
		states[i].Initial = false
		if states[i].Kind != chart.StartState && !markedAbove(states, index, region, i) {
			ps = append(ps, ignoredRegionMark(states, index, i, st))
		}
	}
	return ps
}

// markedAbove reports whether the first state around region i that is
// no region (the parallel state around it, or around the parallel states
// that are regions too) is marked Initial: whether the region's mark
// marked it, or it is marked anyway.
func markedAbove(states []chart.State, index map[string]int, region func(int) bool, i int) bool {
	j := i
	for range len(states) {
		k, ok := index[states[j].Parent]
		if !ok {
			return false
		}
		if j = k; !region(j) {
			return states[j].Initial
		}
	}
	return false
}

// ignoredRegionMark is the warning about region i of a parallel state,
// drawn with st's initial-state master, whose mark has no effect.
func ignoredRegionMark(states []chart.State, index map[string]int, i int, st *chart.Stencil) Problem {
	name := func(k int) string { return cmp.Or(states[k].Name, states[k].ID) }
	s := &states[i]
	p := name(index[s.Parent])
	m := st.Masters
	region := cmp.Or(m.Composite, m.State)
	return Problem{Pos: s.Pos, Severity: diag.Warning,
		Hint: fmt.Sprintf("draw the region with the %q master: entering a parallel state enters all its regions", region),
		Message: fmt.Sprintf("region %q of parallel state %q is drawn with the %q master: entering %q enters all its regions, and the machine does not start in it (its level starts elsewhere), so the mark is ignored",
			name(i), p, m.Initial, p)}
}
