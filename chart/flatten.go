package chart

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
)

// ErrNesting: a chart's compound states cannot be flattened (a Parent that
// names no state, a state inside itself, a compound without an initial
// state), or hold what flattening cannot express.
var ErrNesting = errors.New("chart: bad nesting")

// ErrLimit: a file or a chart goes over a limit of [ReadOptions] (or a
// fixed bound of the chart file format): the error names the limit, and
// its hint says how to raise it ([LimitHint]).
var ErrLimit = errors.New("chart: limit exceeded")

// Flatten turns a chart whose states nest (State.Parent set) into the flat
// chart that compile reads, the way UML defines a composite state's
// behaviour:
//
//   - The leaves (states no state names as Parent) become the chart's
//     states; compound states are removed, and every Parent cleared.
//   - A compound's transitions apply in each of its descendants, after the
//     descendant's own: each leaf gets a copy of them (ID "T@L" for
//     transition T and leaf L), ranked after its own transitions, the
//     innermost compound's first. Copies keep the original's position.
//   - Entering a compound enters its initial child, followed down to a
//     leaf. A compound's initial child is the child with Initial set, or
//     else the target of the transition of its start pseudo-state; the
//     start pseudo-states inside compounds, and their transitions, are
//     removed. After Flatten, only the top level's initial state (or its
//     initial leaf) is Initial.
//   - A leaf takes the entry actions of its compounds for the properties
//     it does not set itself (the innermost compound's first).
//
// Flatten adds a note for each compound it removed, and an error wrapping
// [ErrNesting] for a Parent that names no state, a state nested inside
// itself, and a compound whose initial child cannot be found although a
// transition enters it or the machine starts in it (the transitions are
// then left pointing at the compound, which compile reports as a missing
// state; a compound nothing enters needs no initial state, and gets a
// note). It does nothing to a chart without nesting.
//
// Copying multiplies: a compound of 3,000 states with 3,000 transitions
// of its own makes 9,000,000 transitions. maxTransitions bounds the
// transitions the flat chart may have, and, separately, the entry
// actions copied from compounds into the states inside them (each action
// of a compound counted once for each leaf inside it); 0 means
// [DefaultMaxTransitions], and importers pass [ReadOptions].MaxTransitions.
// Flatten counts before it copies anything: over the limit, it adds an
// error wrapping [ErrLimit] that names the compounds that copy the most,
// and leaves the chart's states and transitions as they were, still
// nested, which compile refuses for the error. It panics when
// maxTransitions is negative.
//
// Flatten takes time and memory linear in the chart plus the transitions
// and actions it copies, however deeply the states nest.
func Flatten(c *Chart, maxTransitions int) {
	if maxTransitions < 0 {
		panic("chart: Flatten: maxTransitions must not be negative (0 means DefaultMaxTransitions)")
	}
	if maxTransitions == 0 {
		maxTransitions = DefaultMaxTransitions
	}
	if !slices.ContainsFunc(c.States, func(s State) bool { return s.Parent != "" }) {
		return
	}
	f := &flattener{c: c, max: maxTransitions, index: make(map[string]int, len(c.States))}
	f.run()
}

type flattener struct {
	c        *Chart
	max      int              // the most transitions, and entry actions copied
	index    map[string]int   // state ID -> index in c.States (the last, for a repeated ID)
	children [][]int          // per state, its children's indices, in order
	parent   []int            // per state, its parent's index, or -1
	order    []int            // the states, each after its parent
	initial  []int            // per compound, its initial child, or -1
	consumed []bool           // per state, a start pseudo-state inside a compound
	entry    []int            // per compound, its entry leaf, or -1 (unknown), -2 (not computed)
	leaves   []int            // per state, the leaves inside it (itself, for a leaf)
	own      map[string][]int // state ID -> indices of the transitions leaving it (any-state ones aside)
}

func (f *flattener) errorf(at diag.Pos, hint, format string, args ...any) {
	f.c.Diagnostics = append(f.c.Diagnostics, diag.Diagnostic{
		Pos: at, Severity: diag.Error, Message: fmt.Sprintf(format, args...), Hint: hint, Err: ErrNesting,
	})
}

func (f *flattener) isLeaf(i int) bool { return len(f.children[i]) == 0 && !f.consumed[i] }

func (f *flattener) run() {
	c := f.c
	n := len(c.States)
	for i := range c.States {
		f.index[c.States[i].ID] = i
	}
	f.linkParents()
	f.findInitials()
	f.own = make(map[string][]int, n)
	for t := range c.Transitions {
		if tr := &c.Transitions[t]; !tr.AnyState {
			f.own[tr.From] = append(f.own[tr.From], t)
		}
	}
	f.leaves = make([]int, n)
	for _, i := range slices.Backward(f.order) {
		if f.isLeaf(i) {
			f.leaves[i] = 1
		}
		if p := f.parent[i]; p >= 0 {
			f.leaves[p] += f.leaves[i]
		}
	}
	f.reportEntries()
	total, ok := f.withinLimit()
	if !ok {
		return
	}
	f.copyTransitions(total)
	f.setInitials()
	f.copyEntries()
	f.noteCompounds()
	kept := make([]State, 0, n)
	for i := range c.States {
		if f.isLeaf(i) {
			st := c.States[i]
			st.Parent = ""
			kept = append(kept, st)
		}
	}
	c.States = kept
}

// linkParents finds each state's parent and children, moves the states
// whose chain of parents comes back to them to the top level, and orders
// the states parents first.
func (f *flattener) linkParents() {
	c := f.c
	n := len(c.States)
	f.parent = make([]int, n)
	f.children = make([][]int, n)
	for i := range c.States {
		f.parent[i] = -1
		p := c.States[i].Parent
		if p == "" {
			continue
		}
		j, ok := f.index[p]
		if !ok || j == i {
			f.errorf(c.States[i].Pos, "Check the drawing: the state must be drawn inside an existing state, or at the top level.",
				"chart: state %q is inside %q, which is not a state of the chart", label(&c.States[i]), p)
			continue
		}
		f.parent[i] = j
	}
	// Break cycles: walk up from each state, marking the states on the
	// way; meeting a state of the walk again closes a cycle, whose first
	// state in document order moves to the top level.
	const (
		unseen = iota
		onWalk
		done
	)
	mark := make([]uint8, n)
	var walk, cut []int
	for i := range c.States {
		walk = walk[:0]
		j := i
		for j >= 0 && mark[j] == unseen {
			mark[j] = onWalk
			walk = append(walk, j)
			j = f.parent[j]
		}
		if j >= 0 && mark[j] == onWalk {
			k := slices.Min(walk[slices.Index(walk, j):])
			f.parent[k] = -1
			cut = append(cut, k)
		}
		for _, k := range walk {
			mark[k] = done
		}
	}
	slices.Sort(cut)
	for _, k := range cut {
		f.errorf(c.States[k].Pos, "A state cannot contain itself; check the file's nesting.",
			"chart: state %q is nested inside itself", label(&c.States[k]))
	}
	for i := range c.States {
		if p := f.parent[i]; p >= 0 {
			f.children[p] = append(f.children[p], i)
		}
	}
	f.order = make([]int, 0, n)
	for i := range c.States {
		if f.parent[i] < 0 {
			f.order = append(f.order, i)
		}
	}
	for k := 0; k < len(f.order); k++ {
		f.order = append(f.order, f.children[f.order[k]]...)
	}
}

// findInitials finds each compound's initial child and entry leaf, and
// reports the compounds entered that have none.
func (f *flattener) findInitials() {
	c := f.c
	n := len(c.States)
	f.initial = make([]int, n)
	f.consumed = make([]bool, n)
	starts := make(map[string]int) // ID of a nested start pseudo-state -> its compound
	for i := range c.States {
		f.initial[i] = -1
		for _, k := range f.children[i] {
			st := &c.States[k]
			if st.Kind == StartState {
				starts[st.ID] = i
				f.consumed[k] = true
			} else if st.Initial && f.initial[i] < 0 {
				f.initial[i] = k
			}
		}
	}
	if len(starts) > 0 {
		for t := range c.Transitions {
			tr := &c.Transitions[t]
			comp, ok := starts[tr.From]
			if !ok {
				continue
			}
			if tr.Target.Kind != ToState || f.initial[comp] >= 0 {
				continue
			}
			if k, ok := f.index[tr.Target.State]; ok {
				f.initial[comp] = k
			}
		}
	}
	f.entry = make([]int, n)
	for i := range f.entry {
		f.entry[i] = -2
	}
}

// enter returns the leaf that entering state i enters, or -1: i itself
// for a leaf, else the entry leaf of its initial child, following the
// chain of initial children (which a start's transition may lead out of
// the compound, even round in a circle).
func (f *flattener) enter(i int) int {
	var path []int
	res, k := -1, i
	for {
		if len(f.children[k]) == 0 {
			res = k
			break
		}
		if f.entry[k] != -2 {
			res = f.entry[k]
			break
		}
		f.entry[k] = -1 // on the path: a circle leads nowhere
		path = append(path, k)
		if k = f.initial[k]; k < 0 {
			break
		}
	}
	for _, p := range path {
		f.entry[p] = res
	}
	return res
}

// reportEntries reports the compounds without an entry leaf.
func (f *flattener) reportEntries() {
	c := f.c
	entered := make([]bool, len(c.States)) // a transition enters the compound, or the machine starts in it
	for t := range c.Transitions {
		if tr := &c.Transitions[t]; tr.Target.Kind == ToState {
			if k, ok := f.index[tr.Target.State]; ok {
				entered[k] = true
			}
		}
	}
	for i := range c.States {
		if f.parent[i] < 0 && c.States[i].Initial {
			entered[i] = true
		}
	}
	for i := range c.States {
		if len(f.children[i]) == 0 || f.enter(i) >= 0 {
			continue
		}
		if entered[i] {
			f.errorf(c.States[i].Pos, "Mark one of its states initial, or draw a start state inside it with a transition to its first state.",
				"chart: compound state %q has no initial state, so no transition can enter it", label(&c.States[i]))
		} else {
			c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Pos: c.States[i].Pos, Severity: diag.Note,
				Message: fmt.Sprintf("chart: compound state %q has no initial state; no transition enters it, so it needs none", label(&c.States[i]))})
		}
	}
}

// ownCount is how many transitions leave state i.
func (f *flattener) ownCount(i int) int { return len(f.own[f.c.States[i].ID]) }

// kept reports whether transition t is kept as it is: it does not leave a
// compound or a start inside one.
func (f *flattener) kept(t int) bool {
	tr := &f.c.Transitions[t]
	k, ok := f.index[tr.From]
	return !ok || tr.AnyState || f.isLeaf(k)
}

// withinLimit counts the transitions of the flat chart and the entry
// actions copied, and reports an error when either is over the limit. It
// returns the transitions of the flat chart, and whether both are within
// it.
func (f *flattener) withinLimit() (transitions int, ok bool) {
	c := f.c
	total := 0
	for t := range c.Transitions {
		if f.kept(t) {
			total++
		}
	}
	actions := 0
	for i := range c.States {
		if len(f.children[i]) > 0 {
			total += f.ownCount(i) * f.leaves[i]
			actions += len(c.States[i].Entry) * f.leaves[i]
		}
	}
	switch {
	case total > f.max:
		f.overLimit(total, "transitions", f.ownCount, "transition",
			"the flat chart would have %s transitions, more than the limit of %s: %s",
			"draw the transitions that leave a compound state on fewer states, or split the chart; ")
	case actions > f.max:
		f.overLimit(actions, "entry actions", func(i int) int { return len(c.States[i].Entry) }, "entry action",
			"flattening would copy %s entry actions into the states inside compound states, more than the limit of %s: %s",
			"set the entry actions on the states that need them rather than on their compound state; ")
	default:
		return total, true
	}
	return total, false
}

// overLimit reports that flattening copies too much, naming the three
// compounds that copy the most (count(i) of their own, into each leaf).
func (f *flattener) overLimit(total int, what string, count func(int) int, unit, format, hint string) {
	c := f.c
	var comps []int
	for i := range c.States {
		if len(f.children[i]) > 0 && count(i) > 0 && f.leaves[i] > 0 {
			comps = append(comps, i)
		}
	}
	slices.SortStableFunc(comps, func(a, b int) int { return count(b)*f.leaves[b] - count(a)*f.leaves[a] })
	var names []string
	for _, i := range comps[:min(3, len(comps))] {
		names = append(names, fmt.Sprintf("compound state %q copies its %s into each of its %s", label(&c.States[i]),
			pluralC(count(i), unit), pluralC(f.leaves[i], "state")))
	}
	msg := strings.Join(names, "; ")
	if len(comps) > 3 {
		msg += fmt.Sprintf("; and %d more compound states copy %s", len(comps)-3, what)
	}
	at := diag.Pos{File: c.File}
	if len(comps) > 0 {
		at = c.States[comps[0]].Pos
	}
	c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Pos: at, Severity: diag.Error, Err: ErrLimit,
		Message: "chart: " + fmt.Sprintf(format, commas(total), commas(f.max), msg),
		Hint:    hint + LimitHint("MaxTransitions")})
}

// nearestUp returns, for each state, the nearest compound around it that
// has(compound), or -1, so that each leaf visits only those.
func (f *flattener) nearestUp(has func(p int) bool) []int {
	up := make([]int, len(f.c.States))
	for _, i := range f.order {
		up[i] = -1
		if p := f.parent[i]; p >= 0 {
			if up[i] = up[p]; has(p) {
				up[i] = p
			}
		}
	}
	return up
}

// copyTransitions retargets the transitions into compounds to their
// entry leaves, and copies those leaving compounds to each leaf inside,
// into a slice of total transitions, as withinLimit counted them.
func (f *flattener) copyTransitions(total int) {
	c := f.c
	for t := range c.Transitions {
		tr := &c.Transitions[t]
		if tr.Target.Kind == ToState {
			if k, ok := f.index[tr.Target.State]; ok && len(f.children[k]) > 0 {
				if e := f.entry[k]; e >= 0 {
					tr.Target.State = c.States[e].ID
				}
			}
		}
	}
	up := f.nearestUp(func(p int) bool { return f.ownCount(p) > 0 })
	out := make([]Transition, 0, total)
	for t := range c.Transitions {
		if f.kept(t) {
			out = append(out, c.Transitions[t])
		}
	}
	for i := range c.States {
		if !f.isLeaf(i) || f.parent[i] < 0 {
			continue
		}
		leaf := &c.States[i]
		order := 0
		for _, t := range f.own[leaf.ID] {
			order = max(order, c.Transitions[t].Order)
		}
		for p := up[i]; p >= 0; p = up[p] {
			for _, t := range f.own[c.States[p].ID] {
				tr := c.Transitions[t]
				order++
				tr.ID = tr.ID + "@" + leaf.ID
				tr.From = leaf.ID
				tr.Order = order
				out = append(out, tr)
			}
		}
	}
	c.Transitions = out
}

// setInitials leaves the top level's initial state, or its entry leaf,
// the only initial state.
func (f *flattener) setInitials() {
	c := f.c
	top := -1
	for i := range c.States {
		if f.parent[i] < 0 && c.States[i].Initial && c.States[i].Kind == NormalState && top < 0 {
			top = i
		}
	}
	for i := range c.States {
		if f.parent[i] >= 0 {
			c.States[i].Initial = false
		}
	}
	if top >= 0 && len(f.children[top]) > 0 {
		c.States[top].Initial = false
		if e := f.entry[top]; e >= 0 {
			c.States[e].Initial = true
		}
	}
}

// copyEntries gives each leaf the entry actions of its compounds for the
// properties it does not set.
func (f *flattener) copyEntries() {
	c := f.c
	up := f.nearestUp(func(p int) bool { return len(c.States[p].Entry) > 0 })
	for i := range c.States {
		if !f.isLeaf(i) || up[i] < 0 {
			continue
		}
		st := &c.States[i]
		var set map[string]bool // the properties st sets, once it sets many
		for p := up[i]; p >= 0; p = up[p] {
			for _, a := range c.States[p].Entry {
				if set == nil && len(st.Entry) > 16 {
					set = make(map[string]bool, len(st.Entry))
					for _, b := range st.Entry {
						set[b.Property] = true
					}
				}
				if set != nil && set[a.Property] || set == nil && hasAction(st.Entry, a.Property) {
					continue
				}
				st.Entry = append(st.Entry, a)
				if set != nil {
					set[a.Property] = true
				}
			}
		}
	}
}

func hasAction(entry []Action, property string) bool {
	for _, a := range entry {
		if a.Property == property {
			return true
		}
	}
	return false
}

// noteCompounds adds a note for each compound removed.
func (f *flattener) noteCompounds() {
	c := f.c
	for i := range c.States {
		if len(f.children[i]) == 0 {
			continue
		}
		st := &c.States[i]
		own := f.ownCount(i)
		verb := "apply"
		if own == 1 {
			verb = "applies"
		}
		msg := fmt.Sprintf("chart: compound state %q flattened: its %s %s in each of its %s", label(st),
			plural(own, "transition"), verb, plural(f.leaves[i], "state"))
		if e := f.entry[i]; e >= 0 {
			msg += fmt.Sprintf("; entering it enters %q", label(&c.States[e]))
		}
		c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Pos: st.Pos, Severity: diag.Note, Message: msg})
	}
}

// label names a state in messages: its name, or its ID.
func label(s *State) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// pluralC is plural with thousands separated.
func pluralC(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return commas(n) + " " + word + "s"
}
