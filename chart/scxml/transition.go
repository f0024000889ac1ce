package scxml

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// transitions adds the chart's transitions, in document order.
func (in *interp) transitions() {
	anyOrder := 0 // position among the any-state transitions of every any-state element
	for _, tn := range in.trans {
		switch {
		case tn.owner.ignored:
		case tn.owner.any:
			anyOrder++
			in.transition(tn, anyOrder)
		default:
			in.transition(tn, tn.k)
		}
	}
}

// transition reads transition element tn; k is its position among the
// transitions of its state (or the any-state transitions).
func (in *interp) transition(tn tnode, k int) {
	n, r := tn.n, tn.owner
	t := chart.Transition{ID: in.transitionID(tn), Order: k}
	t.Pos = diag.Pos{File: in.doc.file, Line: n.line, Col: n.col, Shape: t.ID}
	in.attrs(n, t.Pos, []string{"event", "cond", "target", "type"},
		[]string{attrID, attrTest, attrEvent, attrLabel, attrValue, attrOrder, attrStack})
	t.Actions = in.actions(n, r)
	if r.any {
		t.AnyState = true
	} else {
		t.From = r.id
	}
	ret := in.transitionAttrs(&t, n)
	if !in.target(&t, n, r, ret) {
		return
	}
	if r.untested() && r.n.local != "state" {
		in.defaultTransition(&t, n, r)
	}
	if in.st != nil {
		in.stencilTransition(t, n, r)
	} else {
		in.plainTransition(t, n)
	}
}

// transitionID is the chart ID of transition tn: ff:id, or its state's
// ID, '#' and its position.
func (in *interp) transitionID(tn tnode) string {
	id, explicit := tn.n.attr(Namespace, attrID)
	if !explicit || id == "" {
		id = defaultTransitionID(tn.owner.id, tn.k)
	}
	if in.used[id] {
		if explicit {
			in.diag(diag.Error, in.pos(tn.n, nil), ErrUnsupported, "give every transition its own ff:id", "ff:id %q is also the ID of another state or transition", id)
		}
		id = in.unique(id)
	}
	in.used[id] = true
	return id
}

// transitionAttrs reads ff:order, ff:value, ff:stack and type into t. It
// reports whether t returns (ff:stack="return").
func (in *interp) transitionAttrs(t *chart.Transition, n *node) (ret bool) {
	bad := func(sev diag.Severity, hint, format string, args ...any) {
		in.diag(sev, t.Pos, ErrUnsupported, hint, format, args...)
	}
	if v, ok := n.attr(Namespace, attrOrder); ok {
		o, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || o < 0 {
			bad(diag.Error, "ff:order ranks the transitions leaving a state 1, 2, 3... (0 for document order)", "ff:order %q is not a whole number", v)
		} else if o > 0 {
			t.Order = o
		}
	}
	if v, ok := n.attr(Namespace, attrValue); ok {
		t.Value = strings.TrimSpace(v)
	}
	if v, ok := n.attr(Namespace, attrStack); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", chart.StackNone:
		case chart.StackPush:
			t.Push = true
		case chart.StackReturn:
			ret = true
		default:
			bad(diag.Error, "ff:stack is one of none, push, return", "ff:stack %q is not one of none, push, return", v)
		}
	}
	switch v, _ := n.attr("", "type"); v {
	case "", "external":
	case "internal":
		t.Internal = true
	default:
		bad(diag.Warning, "type is internal or external", "transition type %q; read as external", v)
	}
	return ret
}

// target reads the targets of transition t, element n of state r: the
// first is its Target, the others Also. It reports whether the
// transition is kept.
func (in *interp) target(t *chart.Transition, n *node, r *srec, ret bool) bool {
	target, _ := n.attr("", "target")
	ids := strings.Fields(target)
	switch {
	case len(ids) == 0 && ret:
		t.Target = chart.Target{Kind: chart.ToReturn}
		return true
	case len(ids) == 0:
		t.Target = chart.Target{Kind: chart.ToNone}
		return true
	case ret:
		in.diag(diag.Error, t.Pos, ErrUnsupported, "remove the target: a returning transition goes to the state on top of the stack",
			"a returning transition (ff:stack=\"return\") has target %q", target)
		return false
	}
	tos := make([]*srec, 0, len(ids))
	for _, sid := range ids {
		to, ok := in.resolve(n, r, "target", sid)
		if !ok {
			return false
		}
		tos = append(tos, to)
	}
	if tos[0].implicit && len(tos) == 1 {
		t.Target = chart.Target{Kind: chart.ToFinal}
		return true
	}
	for _, to := range tos {
		if to.implicit {
			in.diag(diag.Error, t.Pos, ErrUnsupported, "end the machine with a transition of its own to the final state",
				"target %q is the final state, which cannot be one of several targets; left out", to.sid)
			return false
		}
	}
	t.Target = chart.Target{Kind: chart.ToState, State: tos[0].id}
	for _, to := range tos[1:] {
		t.Also = append(t.Also, to.id)
	}
	return true
}

// defaultTransition checks the transition of an <initial> or <history>
// element r: taken without an event or a condition, it enters states
// inside r's parent.
func (in *interp) defaultTransition(t *chart.Transition, n *node, r *srec) {
	hint := "remove them: it is taken on entering " + r.parent.what() + ", without an event"
	if r.history() {
		hint = "remove them: it is taken on entering the history the first time, without an event"
	}
	if hasAttr(n, "event") || hasAttr(n, "cond") {
		in.diag(diag.Error, t.Pos, ErrUnsupported, hint, "the transition of %s has an event or a condition", r.what())
	}
	if t.Target.Kind != chart.ToState {
		in.diag(diag.Error, t.Pos, ErrUnsupported, `write target="...", naming states inside `+r.parent.what(), "the transition of %s has no target", r.what())
		return
	}
	for _, sid := range strings.Fields(attrOf(n, "target")) {
		if to := in.bySID[sid]; to != nil && !to.inside(r.parent) {
			in.diag(diag.Error, t.Pos, ErrUnsupported, "name states inside "+r.parent.what(),
				"the transition of %s goes to %q, which is not inside %s", r.what(), sid, r.parent.what())
		}
	}
}

func attrOf(n *node, local string) string {
	v, _ := n.attr("", local)
	return v
}

// plainTransition reads the event, condition, test and label of
// transition t of a plain state machine, element n, and adds it.
func (in *interp) plainTransition(t chart.Transition, n *node) {
	event := chart.NormalizeSpace(attrOf(n, "event"))
	cond := strings.TrimSpace(attrOf(n, "cond"))
	test, hasTest := n.attr(Namespace, attrTest)
	lbl, hasLabel := n.attr(Namespace, attrLabel)
	if ev, exact := n.attr(Namespace, attrEvent); exact {
		events := strings.Fields(event)
		if tok := token(ev); len(events) != 1 && ev != "" || len(events) == 1 && events[0] != tok {
			in.diag(diag.Warning, t.Pos, ErrUnsupported, "make event the event, or remove ff:event", "ff:event %q is the transition's event; its event attribute %q is not", ev, event)
		}
		event = ev
	}
	t.Event, t.Guard = event, cond
	t.Label = label(event, cond)
	if hasLabel {
		t.Label = strings.TrimSpace(lbl)
		_, _, t.Action = chart.ParseLabel(t.Label)
	}
	t.Test = cmp.Or(event, cond)
	if hasTest {
		t.Test = strings.TrimSpace(test)
	}
	t.Pos.ShapeName = cmp.Or(t.Label, t.Test)
	in.c.Transitions = append(in.c.Transitions, t)
}

// stencilTransition reads the test and label of transition t of a chart
// made with the stencil, element n of state r, and adds it when its test
// is the stencil's.
func (in *interp) stencilTransition(t chart.Transition, n *node, r *srec) {
	events := strings.Fields(attrOf(n, "event"))
	cond := chart.NormalizeSpace(attrOf(n, "cond"))
	test, hasTest := n.attr(Namespace, attrTest)
	lbl, hasLabel := n.attr(Namespace, attrLabel)
	if hasTest {
		test = strings.TrimSpace(test)
		tok := token(test)
		if len(events) > 0 && (len(events) > 1 || events[0] != tok) || cond != "" && cond != tok {
			in.diag(diag.Warning, t.Pos, ErrUnsupported, "make event or cond the test, or remove ff:test", "ff:test %q is the transition's test; its event %q and cond %q are not",
				test, attrOf(n, "event"), cond)
		}
	}
	untested := r.untested() && !hasTest && len(events) == 0 && cond == ""
	if !untested && !in.stencilTest(&t, events, cond, test, hasTest) {
		return
	}
	t.Label = t.Test
	if hasLabel {
		t.Label = strings.TrimSpace(lbl)
	}
	t.Pos.ShapeName = t.Label
	in.c.Transitions = append(in.c.Transitions, t)
}

// stencilTest reads the test of a transition of a chart made with the
// stencil: ff:test, or the event, or the condition when there is no event.
// It reports whether the transition is kept.
func (in *interp) stencilTest(t *chart.Transition, events []string, cond, test string, hasTest bool) bool {
	st := in.st
	names := make([]string, len(st.Tests))
	for i, x := range st.Tests {
		names[i] = x.Name
	}
	pick := "pick one of " + strings.Join(names, ", ")
	errorf := func(hint, format string, args ...any) {
		in.diag(diag.Error, t.Pos, nil, hint, format, args...)
	}
	switch {
	case hasTest:
	case len(events) > 0 && cond != "":
		errorf("a transition tests one thing: keep the event",
			"the transition has both event %q and cond %q", strings.Join(events, " "), cond)
		return false
	case len(events) > 1:
		errorf("a transition tests one thing: draw one transition per event", "the transition's event names %d events, %q", len(events), strings.Join(events, " "))
		return false
	case len(events) == 1:
		test = events[0]
	case cond != "":
		test = cond
	default:
		errorf(pick+`, and write it as the transition's event`, "transition without a test")
		return false
	}
	t.Test = test
	x, ok := st.Test(test)
	if !ok {
		errorf(pick, "test %q is not in stencil %q", test, st.Name)
		return false
	}
	if t.Value != "" && len(x.Values) > 0 && !slices.Contains(x.Values, t.Value) {
		errorf("pick one of "+strings.Join(x.Values, ", "), "test %q does not take value %q", test, t.Value)
		return false
	}
	return true
}
