package chart

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrNesting: a chart's compound states cannot be flattened (a Parent that
// names no state, a state inside itself, a compound without an initial
// state), or hold what flattening cannot express.
var ErrNesting = errors.New("chart: bad nesting")

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
func Flatten(c *Chart) {
	nested := false
	for i := range c.States {
		if c.States[i].Parent != "" {
			nested = true
			break
		}
	}
	if !nested {
		return
	}
	f := &flattener{c: c, index: make(map[string]int, len(c.States))}
	f.run()
}

type flattener struct {
	c        *Chart
	index    map[string]int // state ID -> index in c.States
	children [][]int        // per state, its children's indices, in order
	parent   []int          // per state, its parent's index, or -1
	entry    []int          // per compound, its entry leaf, or -1 (unknown), -2 (not computed)
}

func (f *flattener) errorf(at Pos, hint, format string, args ...any) {
	f.c.Diagnostics = append(f.c.Diagnostics, Diagnostic{
		Pos: at, Severity: Error, Message: fmt.Sprintf(format, args...), Hint: hint, Err: ErrNesting,
	})
}

func (f *flattener) run() {
	c := f.c
	n := len(c.States)
	for i := range c.States {
		f.index[c.States[i].ID] = i
	}
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
	// Break cycles: a state whose chain of parents comes back to it is
	// moved to the top level.
	for i := range c.States {
		seen := 0
		for j := f.parent[i]; j >= 0; j = f.parent[j] {
			if j == i || seen > n {
				f.errorf(c.States[i].Pos, "A state cannot contain itself; check the file's nesting.",
					"chart: state %q is nested inside itself", label(&c.States[i]))
				f.parent[i] = -1
				break
			}
			seen++
		}
	}
	for i := range c.States {
		if p := f.parent[i]; p >= 0 {
			f.children[p] = append(f.children[p], i)
		}
	}

	// Initial children and entry leaves.
	initial := make([]int, n) // per compound, its initial child, or -1
	consumed := make([]bool, n)
	starts := make(map[string]int) // ID of a nested start pseudo-state -> its compound
	for i := range c.States {
		initial[i] = -1
		if len(f.children[i]) == 0 {
			continue
		}
		for _, k := range f.children[i] {
			st := &c.States[k]
			if st.Kind == StartState {
				starts[st.ID] = i
				consumed[k] = true
			} else if st.Initial && initial[i] < 0 {
				initial[i] = k
			}
		}
	}
	if len(starts) > 0 {
		for t := range c.Transitions {
			tr := &c.Transitions[t]
			comp, ok := starts[tr.From]
			if !ok || tr.Target.Kind != ToState || initial[comp] >= 0 {
				continue
			}
			if k, ok := f.index[tr.Target.State]; ok {
				initial[comp] = k
			}
		}
	}
	f.entry = make([]int, n)
	for i := range f.entry {
		f.entry[i] = -2
	}
	var enter func(i, depth int) int
	enter = func(i, depth int) int {
		if len(f.children[i]) == 0 {
			return i
		}
		if f.entry[i] != -2 {
			return f.entry[i]
		}
		f.entry[i] = -1
		if k := initial[i]; k >= 0 && depth <= n {
			f.entry[i] = enter(k, depth+1)
		}
		return f.entry[i]
	}
	entered := make([]bool, n) // a transition enters the compound, or the machine starts in it
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
		if len(f.children[i]) == 0 || enter(i, 0) >= 0 {
			continue
		}
		if entered[i] {
			f.errorf(c.States[i].Pos, "Mark one of its states initial, or draw a start state inside it with a transition to its first state.",
				"chart: compound state %q has no initial state, so no transition can enter it", label(&c.States[i]))
		} else {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Pos: c.States[i].Pos, Severity: Note,
				Message: fmt.Sprintf("chart: compound state %q has no initial state; no transition enters it, so it needs none", label(&c.States[i]))})
		}
	}

	// Transitions: retarget into compounds; copy those leaving compounds
	// to each leaf.
	isLeaf := func(i int) bool { return len(f.children[i]) == 0 && !consumed[i] }
	own := make(map[string][]int, n) // state ID -> indices of its transitions
	for t := range c.Transitions {
		tr := &c.Transitions[t]
		if tr.Target.Kind == ToState {
			if k, ok := f.index[tr.Target.State]; ok && len(f.children[k]) > 0 {
				if e := f.entry[k]; e >= 0 {
					tr.Target.State = c.States[e].ID
				}
			}
		}
		if !tr.AnyState {
			own[tr.From] = append(own[tr.From], t)
		}
	}
	var out []Transition
	for t := range c.Transitions {
		tr := c.Transitions[t]
		if k, ok := f.index[tr.From]; ok && !tr.AnyState && (consumed[k] || len(f.children[k]) > 0) {
			continue // a nested start's, or a compound's: copied below
		}
		out = append(out, tr)
	}
	for i := range c.States {
		if !isLeaf(i) || f.parent[i] < 0 {
			continue
		}
		leaf := &c.States[i]
		order := 0
		for _, t := range own[leaf.ID] {
			order = max(order, c.Transitions[t].Order)
		}
		for p := f.parent[i]; p >= 0; p = f.parent[p] {
			for _, t := range own[c.States[p].ID] {
				tr := c.Transitions[t]
				order++
				tr.ID = tr.ID + "@" + leaf.ID
				tr.From = leaf.ID
				tr.Order = order
				out = append(out, tr)
			}
		}
	}
	if out == nil {
		out = []Transition{}
	}
	c.Transitions = out

	// Initial flags, entry actions, and the states kept.
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
	for i := range c.States {
		if !isLeaf(i) {
			continue
		}
		for p := f.parent[i]; p >= 0; p = f.parent[p] {
			for _, a := range c.States[p].Entry {
				if !hasAction(c.States[i].Entry, a.Property) {
					c.States[i].Entry = append(c.States[i].Entry, a)
				}
			}
		}
	}
	for i := range c.States {
		if len(f.children[i]) == 0 {
			continue
		}
		st := &c.States[i]
		leaves := 0
		f.eachLeaf(i, func(int) { leaves++ })
		verb := "apply"
		if len(own[st.ID]) == 1 {
			verb = "applies"
		}
		msg := fmt.Sprintf("chart: compound state %q flattened: its %s %s in each of its %s", label(st),
			plural(len(own[st.ID]), "transition"), verb, plural(leaves, "state"))
		if e := f.entry[i]; e >= 0 {
			msg += fmt.Sprintf("; entering it enters %q", label(&c.States[e]))
		}
		c.Diagnostics = append(c.Diagnostics, Diagnostic{Pos: st.Pos, Severity: Note, Message: msg})
	}
	kept := make([]State, 0, n)
	for i := range c.States {
		if isLeaf(i) {
			st := c.States[i]
			st.Parent = ""
			kept = append(kept, st)
		}
	}
	c.States = kept
}

func (f *flattener) eachLeaf(i int, fn func(int)) {
	for _, k := range f.children[i] {
		if len(f.children[k]) == 0 {
			if f.c.States[k].Kind != StartState {
				fn(k)
			}
			continue
		}
		f.eachLeaf(k, fn)
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
