package statesmith

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// This file reads what StateSmith draws of a statechart's structure:
// orthogonal regions ($ORTHO) and history ($H, $HC).

// Region is an orthogonal region of a drawing made for StateSmith: a
// vertex labelled "$ORTHO order : NAME", in the chart a state named NAME
// inside the state that runs its regions in parallel ([Regions]).
type Region struct {
	State string // the chart ID of the region's state
	Order string // the order written (Vertex.Order), "" for none
	Pos   diag.Pos
}

// Continue is StateSmith's history continue vertex, "$HC", drawn in a
// state: not a state of the chart, it makes the history vertex ($H) of
// the state around that state remember the states inside it too
// ([Histories]).
type Continue struct {
	State string // the chart ID of the state it is drawn in; "" at the top
	Pos   diag.Pos
}

// Hierarchy runs [Regions] on r.Regions, [Histories] on r.Continues and
// [LocalTransitions], on a chart read from a drawing made for StateSmith,
// then checks the transitions of its $H vertices as any history's
// (importer.CheckHistoryTransitions) and reports the states it enters
// without an $initial_state ([CheckEntries]): the importer records its
// $ORTHO regions and $HC vertices as it reads the drawing, and calls
// Hierarchy once the chart is read (after [Reading.Finish]).
func (r *Reading) Hierarchy(c *chart.Chart) []importer.Problem {
	ps := Regions(c, r.Regions)
	ps = append(ps, Histories(c, r.Continues)...)
	LocalTransitions(c)
	ps = append(ps, importer.CheckHistoryTransitions(c, "$H")...)
	return append(ps, CheckEntries(c)...)
}

// CheckEntries reports, as errors, the states of a chart read from a
// drawing made for StateSmith that hold states but no $initial_state,
// and that the machine enters by default (importer.NoInitials): StateSmith
// then stays in the state itself, with none of its states active, which a
// chart cannot say (a statechart enters the first of its states in the
// file). It costs what importer.NoInitials costs.
func CheckEntries(c *chart.Chart) []importer.Problem {
	var ps []importer.Problem
	name := names{c: c}
	for _, e := range importer.NoInitials(c, "$H") {
		s := &c.States[e.State]
		ps = append(ps, importer.Problem{Pos: s.Pos, Severity: diag.Error, Hint: "draw an $initial_state in it, with a transition to the state to enter; or end the transition at that state",
			Message: fmt.Sprintf("state %q holds states but no $initial_state, and %s: StateSmith then stays in %q itself, with none of its states active, which a chart cannot say "+
				"(a statechart would enter %q, the first in the file)", name.of(s.ID), e.How, name.of(s.ID), name.of(c.States[e.First].ID))})
	}
	return ps
}

// Regions makes the states that hold StateSmith's $ORTHO regions parallel
// states (chart.ParallelState), whose children are the regions, and puts
// the regions of each in their order: those with an order by increasing
// order, then those without, in the chart's order. Reordering moves each
// region with the states inside it, within the places they held in
// c.States; the other states keep theirs. A region drawn in no state, a
// state that holds regions and other states (all the states of a
// parallel state are its regions), and an order that is not a number
// (StateSmith's grammar refuses it; the region is then unordered) are
// errors. It costs time linear in the chart, plus the states inside the
// parallel states whose regions it reorders.
func Regions(c *chart.Chart, regions []Region) []importer.Problem {
	if len(regions) == 0 {
		return nil
	}
	var ps []importer.Problem
	name := names{c: c}
	index := make(map[string]int, len(c.States))
	for i := range c.States {
		if _, dup := index[c.States[i].ID]; !dup {
			index[c.States[i].ID] = i
		}
	}
	isRegion := make(map[string]bool, len(regions))
	byParent := make(map[string][]int) // the regions of each parallel state, by index in regions
	var parents []string               // in the order of their first region
	for k, r := range regions {
		i, ok := index[r.State]
		if !ok {
			continue
		}
		isRegion[r.State] = true
		if c.States[i].Name == "" {
			ps = append(ps, importer.Problem{Pos: r.Pos, Severity: diag.Error, Hint: "name the region after the colon: \"$ORTHO 1 : NAME\"",
				Message: fmt.Sprintf("$ORTHO region %s has no name, which StateSmith's grammar requires", r.State)})
		}
		p := c.States[i].Parent
		if p == "" {
			ps = append(ps, importer.Problem{Pos: r.Pos, Severity: diag.Error, Hint: hintRegion,
				Message: fmt.Sprintf("$ORTHO region %q is drawn in no state: regions run in parallel inside the state they are drawn in", name.of(r.State))})
			continue
		}
		if _, seen := byParent[p]; !seen {
			parents = append(parents, p)
		}
		byParent[p] = append(byParent[p], k)
	}
	for _, p := range parents {
		s := &c.States[index[p]]
		if s.Kind == chart.NormalState {
			s.Kind = chart.ParallelState
		}
		ps = append(ps, importer.Problem{Pos: s.Pos, Severity: diag.Warning, Hint: "StateSmith refuses orthogonal regions for now: check the machine with fsmforge's tools",
			Message: fmt.Sprintf("state %q holds %s, which StateSmith does not generate code for yet: read as UML's orthogonal regions, all active at once while %q is, in the order of their numbers",
				name.of(p), importer.Plural(len(byParent[p]), "$ORTHO region"), name.of(p))})
	}
	for i := range c.States {
		s := &c.States[i]
		if _, ok := byParent[s.Parent]; ok && s.Parent != "" && !isRegion[s.ID] {
			ps = append(ps, importer.Problem{Pos: s.Pos, Severity: diag.Error, Hint: hintNotRegion,
				Message: fmt.Sprintf("state %q holds $ORTHO regions and %s, which is not one: the states inside a parallel state are its regions", name.of(s.Parent), describeState(s))})
		}
	}
	var children map[string][]int
	for _, p := range parents {
		ks := byParent[p]
		keys := make(map[int]float64, len(ks))
		for _, k := range ks {
			r := &regions[k]
			keys[k] = math.Inf(1)
			if r.Order == "" {
				continue
			}
			v, err := strconv.ParseFloat(r.Order, 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				ps = append(ps, importer.Problem{Pos: r.Pos, Severity: diag.Error, Hint: hintRegionOrder,
					Message: fmt.Sprintf("the order %q of $ORTHO region %q is not a number; the region is read as unordered", r.Order, name.of(r.State))})
				continue
			}
			keys[k] = v
		}
		drawn := slices.Clone(ks)
		slices.SortStableFunc(drawn, func(a, b int) int { return index[regions[a].State] - index[regions[b].State] })
		ordered := slices.Clone(drawn)
		slices.SortStableFunc(ordered, func(a, b int) int {
			switch ka, kb := keys[a], keys[b]; {
			case ka < kb:
				return -1
			case ka > kb:
				return 1
			}
			return 0
		})
		if slices.Equal(drawn, ordered) {
			continue
		}
		if children == nil {
			children = make(map[string][]int, len(c.States))
			for i := range c.States {
				if q := c.States[i].Parent; q != "" {
					children[q] = append(children[q], i)
				}
			}
		}
		var blocks [][]int
		for _, k := range ordered {
			blocks = append(blocks, subtree(index[regions[k].State], c, children))
		}
		reorder(c, blocks)
	}
	return ps
}

// subtree returns the indices in c.States of state i and the states
// inside it, in increasing order.
func subtree(i int, c *chart.Chart, children map[string][]int) []int {
	out := []int{i}
	seen := map[int]bool{i: true}
	for k := 0; k < len(out); k++ {
		for _, j := range children[c.States[out[k]].ID] {
			if !seen[j] {
				seen[j] = true
				out = append(out, j)
			}
		}
	}
	slices.Sort(out)
	return out
}

// reorder puts the blocks of states (indices in c.States, each in
// increasing order, disjoint) one after the other, in the places they
// take together.
func reorder(c *chart.Chart, blocks [][]int) {
	var places, seq []int
	for _, b := range blocks {
		places = append(places, b...)
		seq = append(seq, b...)
	}
	slices.Sort(places)
	moved := make([]chart.State, len(seq))
	for j, i := range seq {
		moved[j] = c.States[i]
	}
	for j, i := range places {
		c.States[i] = moved[j]
	}
}

// describeState names a state for a message: its name, or its kind and
// ID for a pseudo-state or a state without a name.
func describeState(s *chart.State) string {
	if s.Name != "" {
		return strconv.Quote(s.Name)
	}
	if s.Kind != chart.NormalState {
		return s.Kind.String() + " pseudo-state " + s.ID
	}
	return "state " + s.ID
}

// Histories reads StateSmith's history vertices: the chart's history
// states (chart.HistoryState), each StateSmith's $H in the state whose
// history it keeps, and the $HC vertices continues lists. A $H remembers
// which of its state's children was active; a $HC drawn in one of them
// makes it remember that state's children too, and a $HC in one of those
// one more level, and so on. A chart's history remembers one level
// (chart.HistoryState) or all of them (chart.DeepHistoryState): a $H
// whose $HC vertices reach every state inside its own that holds states
// becomes deep, with a note; one whose $HC vertices reach only some of
// them is an error, read as deep. As in StateSmith, these are errors: a
// second $H or $HC in a state, a $HC without a $H or a carried $HC in the
// state around its own, and a $H without a transition, its default (to
// the state entered while there is no history yet), which StateSmith
// requires; importer.CheckHistoryTransitions, which [Reading.Hierarchy]
// runs, checks the transitions of those with some. It costs time linear
// in the chart, and in the states inside those with a history.
func Histories(c *chart.Chart, continues []Continue) []importer.Problem {
	var hs []int
	for i := range c.States {
		if c.States[i].Kind == chart.HistoryState {
			hs = append(hs, i)
		}
	}
	if len(hs) == 0 && len(continues) == 0 {
		return nil
	}
	var ps []importer.Problem
	name := names{c: c}
	index := make(map[string]int, len(c.States))
	children := make(map[string][]int, len(c.States))
	for i := range c.States {
		if _, dup := index[c.States[i].ID]; !dup {
			index[c.States[i].ID] = i
		}
		if q := c.States[i].Parent; q != "" {
			children[q] = append(children[q], i)
		}
	}
	parentOf := func(id string) string {
		if i, ok := index[id]; ok {
			return c.States[i].Parent
		}
		return ""
	}
	leaves := make(map[string]bool, len(hs)) // whether a transition leaves each $H
	for _, i := range hs {
		leaves[c.States[i].ID] = false
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if _, ok := leaves[t.From]; ok && !t.AnyState {
			leaves[t.From] = true
		}
	}
	hOf := make(map[string]int, len(hs)) // a state's $H, by index in c.States
	for _, i := range hs {
		h := &c.States[i]
		p := h.Parent
		if p == "" {
			ps = append(ps, importer.Problem{Pos: h.Pos, Severity: diag.Error, Hint: "draw the $H inside the state whose history it keeps",
				Message: fmt.Sprintf("$H %s is drawn in no state", h.ID)})
			continue
		}
		if f, dup := hOf[p]; dup {
			ps = append(ps, importer.Problem{Pos: h.Pos, Severity: diag.Error, Hint: "keep one $H in each state",
				Message: fmt.Sprintf("$H %s is the second $H in state %q, after %s, which StateSmith refuses", h.ID, name.of(p), c.States[f].ID)})
		} else {
			hOf[p] = i
		}
		if !leaves[h.ID] {
			ps = append(ps, importer.Problem{Pos: h.Pos, Severity: diag.Error, Hint: hintHistory,
				Message: fmt.Sprintf("$H %s has no transition: StateSmith requires one, its default, to the state it enters when there is no history yet", h.ID)})
		}
	}
	// A $HC carries a history when the state around its own holds a $H,
	// or a $HC that carries one.
	hcOf := make(map[string]bool, len(continues)) // the states that hold a carrying $HC
	held := make(map[string]bool, len(continues))
	for _, hc := range continues {
		if hc.State != "" && held[hc.State] {
			ps = append(ps, importer.Problem{Pos: hc.Pos, Severity: diag.Error, Hint: "keep one $HC in each state",
				Message: fmt.Sprintf("a second $HC in state %q, which StateSmith refuses; ignored", name.of(hc.State))})
			continue
		}
		held[hc.State] = true
	}
	var carries func(s string, depth int) bool
	carries = func(s string, depth int) bool { // whether the $HC in state s carries a history
		g := parentOf(s)
		if s == "" || g == "" || depth > len(c.States) {
			return false
		}
		if _, ok := hOf[g]; ok {
			return true
		}
		return held[g] && carries(g, depth+1)
	}
	for _, hc := range continues {
		if !held[hc.State] || hcOf[hc.State] {
			continue
		}
		if !carries(hc.State, 0) {
			where := "drawn in no state"
			if hc.State != "" {
				where = fmt.Sprintf("in state %q", name.of(hc.State))
			}
			ps = append(ps, importer.Problem{Pos: hc.Pos, Severity: diag.Error, Hint: "draw a $H in the state around the $HC's state, or remove the $HC",
				Message: fmt.Sprintf("the $HC %s carries no history: StateSmith wants a $H or a $HC in the state around its own; ignored", where)})
			held[hc.State] = false
			continue
		}
		hcOf[hc.State] = true
	}
	for _, i := range hs {
		h := &c.States[i]
		if f, ok := hOf[h.Parent]; !ok || f != i {
			continue
		}
		deep, lacking := continued(h.Parent, c, children, hcOf)
		if len(deep) == 0 {
			continue
		}
		h.Kind = chart.DeepHistoryState
		if len(lacking) == 0 {
			ps = append(ps, importer.Problem{Pos: h.Pos, Severity: diag.Note,
				Message: fmt.Sprintf("$H %s: the $HC in %s carry the history of state %q to every level: read as a deep history", h.ID, quoteNames(&name, c, deep), name.of(h.Parent))})
			continue
		}
		ps = append(ps, importer.Problem{Pos: h.Pos, Severity: diag.Error, Hint: "draw a $HC in every state inside it that holds states, for a deep history, or in none, for a shallow one",
			Message: fmt.Sprintf("$H %s: the $HC carry the history of state %q into %s, but not into %s, which hold no $HC; a chart's history keeps one level or all of them: read as keeping all",
				h.ID, name.of(h.Parent), quoteNames(&name, c, deep), quoteNames(&name, c, lacking))})
	}
	return ps
}

// continued walks down from state p, which holds a $H: the states inside
// it that hold a carrying $HC (held), and those inside them, and so on,
// are remembered too (deep); the states that hold states, inside the
// remembered ones, that hold no $HC are not (lacking). Both are indices
// in c.States, in increasing order.
func continued(p string, c *chart.Chart, children map[string][]int, held map[string]bool) (deep, lacking []int) {
	stack := []string{p}
	seen := map[string]bool{p: true}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range children[s] {
			id := c.States[k].ID
			if seen[id] {
				continue
			}
			seen[id] = true
			switch {
			case held[id]:
				deep = append(deep, k)
				stack = append(stack, id)
			case holdsStates(c, children[id]):
				lacking = append(lacking, k)
			}
		}
	}
	slices.Sort(deep)
	slices.Sort(lacking)
	return deep, lacking
}

// holdsStates reports whether some of the states kids (indices in
// c.States) are states, not pseudo-states.
func holdsStates(c *chart.Chart, kids []int) bool {
	for _, k := range kids {
		if c.States[k].Kind == chart.NormalState || c.States[k].Kind == chart.ParallelState {
			return true
		}
	}
	return false
}

// quoteNames lists states for a message: state "A", states "A" and "B".
func quoteNames(name *names, c *chart.Chart, is []int) string {
	qs := make([]string, len(is))
	for k, i := range is {
		qs[k] = strconv.Quote(name.of(c.States[i].ID))
	}
	if len(qs) == 1 {
		return "state " + qs[0]
	}
	return "states " + strings.Join(qs[:len(qs)-1], ", ") + " and " + qs[len(qs)-1]
}

// LocalTransitions marks internal (Transition.Internal) the transitions
// of a drawing made for StateSmith that go from a state to states inside
// it: StateSmith takes them as UML's local transitions, which do not
// leave the state, as a chart's internal transition does not. It costs
// time linear in the transitions times the depth of the states' nesting.
func LocalTransitions(c *chart.Chart) {
	parent := make(map[string]string, len(c.States))
	for i := range c.States {
		if p := c.States[i].Parent; p != "" {
			parent[c.States[i].ID] = p
		}
	}
	if len(parent) == 0 {
		return
	}
	inside := func(id, p string) bool {
		for q, n := parent[id], 0; q != "" && n <= len(c.States); q, n = parent[q], n+1 {
			if q == p {
				return true
			}
		}
		return false
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if t.AnyState || t.Target.Kind != chart.ToState || !inside(t.Target.State, t.From) {
			continue
		}
		local := true
		for _, id := range t.Also {
			local = local && inside(id, t.From)
		}
		t.Internal = local
	}
}
