package scxml

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// transitions adds the chart's transitions, in document order.
func (in *interp) transitions() {
	anyOrder := 0 // position among the any-state transitions of every any-state element
	for _, tn := range in.trans {
		if tn.owner.any {
			anyOrder++
			in.transition(tn, anyOrder)
		} else {
			in.transition(tn, tn.k)
		}
	}
}

// transition reads transition element tn; k is its position among the
// transitions of its state (or the any-state transitions).
func (in *interp) transition(tn tnode, k int) {
	n, r := tn.n, tn.owner
	if r.history {
		return
	}
	id, explicit := n.attr(Namespace, attrID)
	if !explicit || id == "" {
		id = defaultTransitionID(r.id, tn.k)
	}
	if in.used[id] {
		if explicit {
			in.diag(chart.Error, in.pos(n, nil), ErrUnsupported, "give every transition its own ff:id", "ff:id %q is also the ID of another state or transition", id)
		}
		id = in.unique(id)
	}
	in.used[id] = true
	t := chart.Transition{ID: id, Order: k, Pos: chart.Pos{File: in.doc.file, Line: n.line, Col: n.col, Shape: id}}
	in.attrs(n, t.Pos, []string{"event", "cond", "target", "type"},
		[]string{attrID, attrTest, attrEvent, attrLabel, attrValue, attrOrder, attrStack})
	in.content(n, r, false)
	if r.any {
		t.AnyState = true
	} else {
		t.From = r.id
	}
	bad := func(sev chart.Severity, hint, format string, args ...any) {
		in.diag(sev, t.Pos, ErrUnsupported, hint, format, args...)
	}

	// Order, value and stack operation.
	if v, ok := n.attr(Namespace, attrOrder); ok {
		o, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || o < 0 {
			bad(chart.Error, "ff:order ranks the transitions leaving a state 1, 2, 3... (0 for document order)", "ff:order %q is not a whole number", v)
		} else if o > 0 {
			t.Order = o
		}
	}
	if v, ok := n.attr(Namespace, attrValue); ok {
		t.Value = strings.TrimSpace(v)
	}
	ret := false
	if v, ok := n.attr(Namespace, attrStack); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", chart.StackNone:
		case chart.StackPush:
			t.Push = true
		case chart.StackReturn:
			ret = true
		default:
			bad(chart.Error, "ff:stack is one of none, push, return", "ff:stack %q is not one of none, push, return", v)
		}
	}
	if v, ok := n.attr("", "type"); ok && v != "external" {
		switch {
		case v != "internal":
			bad(chart.Warning, "type is internal or external", "transition type %q; read as external", v)
		case len(r.kids) > 0:
			bad(chart.Warning, "nested states are flattened: the transition leaves the state it is in and enters its target, and the entry actions the target takes from the states around it run again",
				"internal transition of %s: read as external (the chart has no compound states to stay in)", r.what())
		}
	}

	// Target.
	target, _ := n.attr("", "target")
	targets := strings.Fields(target)
	switch {
	case len(targets) > 1:
		bad(chart.Error, "a chart's transition enters one state: keep one target", "the transition has %d targets, %q; left out", len(targets), target)
		return
	case len(targets) == 0 && ret:
		t.Target = chart.Target{Kind: chart.ToReturn}
	case len(targets) == 0:
		bad(chart.Warning, "give it a target, or ff:stack=\"return\" to go to the state on top of the stack",
			"transition without a target (an internal transition, for its actions only): a chart has none; left out")
		in.targetless(t, n, r)
		return
	case ret:
		bad(chart.Error, "remove the target: a returning transition goes to the state on top of the stack",
			"a returning transition (ff:stack=\"return\") has target %q", targets[0])
		return
	default:
		to, ok := in.resolve(n, r, "target", targets[0])
		if !ok {
			return
		}
		if to.implicit {
			t.Target = chart.Target{Kind: chart.ToFinal}
		} else {
			t.Target = chart.Target{Kind: chart.ToState, State: to.id}
		}
	}

	// Test.
	event, _ := n.attr("", "event")
	cond, _ := n.attr("", "cond")
	test, hasTest := n.attr(Namespace, attrTest)
	lbl, hasLabel := n.attr(Namespace, attrLabel)
	lbl = strings.TrimSpace(lbl)
	cond = chart.NormalizeSpace(cond)
	events := strings.Fields(event)
	if hasTest {
		test = strings.TrimSpace(test)
	}
	if hasTest && in.st != nil {
		tok := token(test)
		if len(events) > 0 && (len(events) > 1 || events[0] != tok) || cond != "" && cond != tok {
			bad(chart.Warning, "make event or cond the test, or remove ff:test", "ff:test %q is the transition's test; its event %q and cond %q are not", test, event, cond)
		}
	}
	if in.st != nil {
		if !in.stencilTest(&t, n, events, cond, test, hasTest) {
			return
		}
		t.Label = t.Test
		if hasLabel {
			t.Label = lbl
		}
		t.Pos.ShapeName = t.Label
		in.c.Transitions = append(in.c.Transitions, t)
		return
	}

	// A plain state machine: one transition per event.
	ev, exact := n.attr(Namespace, attrEvent)
	if exact {
		ev = chart.NormalizeSpace(ev)
		if tok := token(ev); len(events) != 1 && ev != "" || len(events) == 1 && events[0] != tok {
			bad(chart.Warning, "make event the event, or remove ff:event", "ff:event %q is the transition's event; its event attribute %q is not", ev, event)
		}
		events = []string{ev}
	}
	if len(events) == 0 {
		events = []string{""}
	}
	if len(events) > 1 {
		bad(chart.Note, "", "the transition is taken on any of %d events: read as %d transitions", len(events), len(events))
	}
	for j, e := range events {
		u := t
		if j > 0 {
			u.ID = in.unique(fmt.Sprintf("%s~%d", t.ID, j+1))
			in.used[u.ID] = true
			u.Pos.Shape = u.ID
		}
		u.Event, u.Guard = e, cond
		u.Label = label(e, cond)
		if hasLabel && len(events) == 1 {
			u.Label = lbl
			_, _, u.Action = chart.ParseLabel(lbl)
		}
		u.Test = cmp.Or(e, cond)
		if hasTest {
			u.Test = test
		}
		u.Pos.ShapeName = cmp.Or(u.Label, u.Test)
		if exact {
			if in.exact == nil {
				in.exact = make(map[int]bool)
			}
			in.exact[len(in.c.Transitions)] = true
		}
		in.c.Transitions = append(in.c.Transitions, u)
	}
}

// stencilTest reads the test of a transition of a chart made with the
// stencil: ff:test, or the event, or the condition when there is no event.
// It reports whether the transition is kept.
func (in *interp) stencilTest(t *chart.Transition, n *node, events []string, cond, test string, hasTest bool) bool {
	st := in.st
	names := make([]string, len(st.Tests))
	for i, x := range st.Tests {
		names[i] = x.Name
	}
	pick := "pick one of " + strings.Join(names, ", ")
	errorf := func(hint, format string, args ...any) {
		in.diag(chart.Error, t.Pos, nil, hint, format, args...)
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

// descriptors reports the events whose SCXML meaning the chart cannot
// keep. SCXML matches an event against a transition's descriptors by
// prefix, token by token: "DIGIT" is taken on the events DIGIT and
// DIGIT.0, "a.*" on every event that starts with a, and "*" on every
// event; a chart takes a transition on the one event it names. A
// wildcard, and a descriptor that is a prefix of another event of the
// chart, would be taken on fewer events than the drawing says (see
// widens): errors, or warnings when reading leniently.
func (in *interp) descriptors() {
	if in.st != nil {
		return // a stencil's tests are names, matched exactly
	}
	events := chartEvents(in.c)
	reported := make(map[string]bool)
	for i := range in.c.Transitions {
		t := &in.c.Transitions[i]
		e := t.Event
		if e == "" || reported[e] || in.exact[i] {
			continue
		}
		wide, other := widens(e, events)
		switch {
		case !wide:
			continue
		case other == "":
			in.diag(in.leniency(), t.Pos, ErrUnsupported, "name the events one by one, or "+lenientHint,
				"event descriptor %q matches every event that starts with %q: a chart takes a transition on the one event it names", e, strings.TrimSuffix(strings.TrimSuffix(e, "*"), "."))
		default:
			in.diag(in.leniency(), t.Pos, ErrUnsupported, "name the event exactly, "+strconv.Quote(e)+" and "+strconv.Quote(other)+" on two transitions, or "+lenientHint,
				"event descriptor %q is also taken on event %q in SCXML, which matches events by prefix; a chart takes it on %q alone", e, other, e)
		}
		reported[e] = true
	}
}

// widened returns the events of a plain chart that SCXML's prefix
// matching would take on more events than the chart does (see widens).
// Write marks them exact (ff:event), and Read takes them as they are.
func widened(c *chart.Chart) map[string]bool {
	if c.Stencil != nil {
		return nil
	}
	events := chartEvents(c)
	out := make(map[string]bool)
	for _, e := range events {
		if wide, _ := widens(e, events); wide {
			out[e] = true
		}
	}
	return out
}

// chartEvents returns the events of c's transitions, sorted, each once.
func chartEvents(c *chart.Chart) []string {
	var events []string
	for i := range c.Transitions {
		if e := c.Transitions[i].Event; e != "" {
			events = append(events, e)
		}
	}
	slices.Sort(events)
	return slices.Compact(events)
}

// widens reports whether SCXML takes the descriptor e on more events than
// a chart whose events are events (sorted, as chartEvents returns them)
// takes it on: when e is a wildcard ("*", "a.*", "a."), other is "";
// when e is a prefix of another event of the chart (DIGIT beside DIGIT.0),
// other is that event.
func widens(e string, events []string) (wide bool, other string) {
	if e == "*" || strings.HasSuffix(e, ".*") || strings.HasSuffix(e, ".") {
		return true, ""
	}
	j, _ := slices.BinarySearch(events, e+".")
	if j < len(events) && strings.HasPrefix(events[j], e+".") {
		return true, events[j]
	}
	return false, ""
}

// targetless records a transition without a target of state r, which a
// chart cannot hold but which SCXML selects like any other: it stops its
// event there, so that a transition on the same event of a state around
// r, or a later one of r itself, is not taken while it is enabled. The
// transitions it stops are reported once all are read (stopped).
func (in *interp) targetless(t chart.Transition, n *node, r *srec) {
	if r.any || in.opt.Lenient {
		return
	}
	event, _ := n.attr("", "event")
	cond, _ := n.attr("", "cond")
	text := strings.TrimSpace(event)
	if c := chart.NormalizeSpace(cond); c != "" {
		text += " [" + c + "]"
	}
	events := strings.Fields(event)
	if len(events) == 0 {
		events = []string{""}
	}
	for _, e := range events {
		in.handlers = append(in.handlers, statesmith.Handler{State: r.id, Event: e, Guard: chart.NormalizeSpace(cond), Text: text, Pos: t.Pos})
		in.handlerAt = append(in.handlerAt, len(in.c.Transitions))
	}
}

// stopped reports the transitions that a transition without a target
// stops (see targetless): those of the states around its state, and the
// later ones of its own state, on its event. Each is an error: the chart,
// which leaves the targetless transition out, would take them.
func (in *interp) stopped() {
	for _, p := range statesmith.CheckHandlers(in.c, in.handlers) {
		in.diag(p.Severity, p.Pos, ErrUnsupported, p.Hint+", or read the file leniently", "%s", p.Message)
	}
	for k, h := range in.handlers {
		for i := in.handlerAt[k]; i < len(in.c.Transitions); i++ {
			t := &in.c.Transitions[i]
			if t.From != h.State || t.AnyState || t.Event != h.Event {
				continue
			}
			in.diag(chart.Error, h.Pos, ErrUnsupported, "move the transition without a target after the others, or remove it; or read the file leniently",
				"the transition without a target on %q of state %q comes first, so SCXML takes it and not the later transition %s on the same event; a chart, which has no transition without a target, would take that one", h.Event, h.State, t.ID)
			break
		}
	}
}
