package scxml

import (
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// initials finds the states the machine starts in, and each compound
// state's initial child.
func (in *interp) initials() {
	in.rootInitial()
	for _, r := range in.recs {
		in.extraInitial(r)
		if r.history() || r.kind == chart.ParallelState {
			continue // a parallel state enters all its children
		}
		if len(r.kids) == 0 {
			if v, ok := r.n.attr("", "initial"); ok {
				in.diag(diag.Warning, in.pos(r.n, r), nil, "", "initial %q on %s, which has no states inside; ignored", v, r.what())
			}
			if s := r.start; s != nil {
				in.diag(diag.Warning, in.pos(s.n, r), nil, "", "<initial> in %s, which has no states inside; ignored", r.what())
				s.ignored = true
			}
			continue
		}
		in.compoundInitial(r)
	}
}

// rootInitial finds the state the machine starts in: the one the root's
// initial attribute names, or the first.
func (in *interp) rootInitial() {
	if in.noInitial {
		return
	}
	if v, ok := in.doc.root.attr("", "initial"); ok {
		in.initialAttr(in.doc.root, nil, v)
		return
	}
	in.firstInitial(nil)
}

// extraInitial reads ff:initial on r: a further initial state.
func (in *interp) extraInitial(r *srec) {
	v, ok := r.n.attr(Namespace, attrInitial)
	switch {
	case !ok:
	case v != valueTrue:
		in.diag(diag.Error, in.pos(r.n, r), ErrUnsupported, `ff:initial is "true" or absent`, "ff:initial %q", v)
	case r.parent != nil || !r.chartState():
		in.diag(diag.Warning, in.pos(r.n, r), nil, "", "ff:initial on %s, which is not a state at the top level; ignored", r.what())
	default:
		r.initial = true
	}
}

// compoundInitial finds the initial child of compound r: its <initial>
// element's start pseudo-state, the child its initial attribute names,
// or its first child.
func (in *interp) compoundInitial(r *srec) {
	v, hasAttr := r.n.attr("", "initial")
	switch {
	case r.start != nil:
		if hasAttr {
			in.diag(diag.Error, in.pos(r.start.n, r), ErrUnsupported, "keep one of them", "%s has both an initial attribute and an <initial> element", r.what())
		}
	case hasAttr:
		in.initialAttr(r.n, r, v)
	default:
		in.firstInitial(r)
	}
}

// firstInitial makes the first child of r (the first top-level state,
// for nil) its initial state, as SCXML does when none is named.
func (in *interp) firstInitial(r *srec) {
	kids := in.top
	if r != nil {
		kids = r.kids
	}
	for _, k := range kids {
		if k.chartState() {
			k.initial = true
			return
		}
	}
}

// initialAttr reads initial attribute v of element n, the root (parent
// nil) or compound parent. Naming one child, it marks the child initial;
// naming several states, or one deeper down, it makes a start
// pseudo-state inside parent that leads to them. When it names no state
// it is reported, and the first child is initial.
func (in *interp) initialAttr(n *node, parent *srec, v string) {
	var targets []*srec
	ok := true
	ids := strings.Fields(v)
	if len(ids) == 0 {
		in.diag(diag.Error, in.pos(n, parent), ErrUnsupported, "name the state it starts in, or remove the attribute for the first", "initial %q names no state", v)
		ok = false
	}
	for _, sid := range ids {
		t, found := in.resolve(n, parent, "initial state", sid)
		switch {
		case !found:
			ok = false
		case t.implicit:
			in.diag(diag.Error, in.pos(n, parent), ErrUnsupported, "name the state the machine starts in", "the initial state %q is the final state", sid)
			ok = false
		case parent != nil && !t.inside(parent):
			in.diag(diag.Error, in.pos(n, parent), ErrUnsupported, "name one of the states inside it",
				"the initial state %q of %s is not inside it", sid, parent.what())
			ok = false
		}
		targets = append(targets, t)
	}
	switch {
	case !ok:
		in.firstInitial(parent)
	case len(targets) == 1 && targets[0].parent == parent:
		targets[0].initial = true
	default:
		def := "#initial"
		if parent != nil {
			def = parent.id + def
		}
		s := &srec{n: n, parent: parent, kind: chart.StartState, initial: true, targets: targets, id: in.unique(def)}
		in.used[s.id] = true
		if parent == nil {
			in.rootStart = s
		} else {
			parent.start = s
		}
	}
}

// states adds the chart's states, in document order, compounds before
// their children, a compound's start pseudo-state right after it, and
// the root's first.
func (in *interp) states() {
	in.c.States = make([]chart.State, 0, len(in.recs)+1)
	in.c.Transitions = make([]chart.Transition, 0, len(in.trans)+1)
	if s := in.rootStart; s != nil {
		in.addStart(s)
	}
	for _, r := range in.recs {
		if !r.chartState() {
			continue // its actions were reported
		}
		in.addState(r)
		if s := r.start; s != nil && !s.ignored {
			in.addStart(s)
		}
	}
}

// addState adds the state of r.
func (in *interp) addState(r *srec) {
	s := chart.State{ID: r.id, Name: r.name, Kind: r.kind, Initial: r.initial, Entry: r.entry, Exit: r.exit, Box: r.box(), Pos: in.pos(r.n, r)}
	if r.parent != nil {
		s.Parent = r.parent.id
	}
	if len(r.kids) > 0 && s.Kind != chart.NormalState && s.Kind != chart.ParallelState {
		in.diag(diag.Error, s.Pos, ErrUnsupported, "remove ff:kind, or the states inside it", "a %s pseudo-state cannot hold states", s.Kind)
		s.Kind = chart.NormalState
	}
	in.c.States = append(in.c.States, s)
}

// addStart adds start pseudo-state s, and, when it was made for an
// initial attribute, its transition.
func (in *interp) addStart(s *srec) {
	in.addState(s)
	if len(s.targets) == 0 {
		return // an <initial> element's transition is read with the others
	}
	tid := in.unique(defaultTransitionID(s.id, 1))
	in.used[tid] = true
	t := chart.Transition{
		ID: tid, From: s.id, Order: 1, Target: chart.Target{Kind: chart.ToState, State: s.targets[0].id},
		Pos: diag.Pos{File: in.doc.file, Line: s.n.line, Col: s.n.col, Shape: tid},
	}
	for _, u := range s.targets[1:] {
		t.Also = append(t.Also, u.id)
	}
	in.c.Transitions = append(in.c.Transitions, t)
}
