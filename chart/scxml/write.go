package scxml

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
)

// WriteOptions tunes writing a chart. The zero value follows the chart's
// own stencil and writes no comment.
type WriteOptions struct {
	// Stencil is the stencil the chart follows: its name and version are
	// written on the root element, and transitions' tests as their events.
	// Nil (the default) means the chart's Stencil; a chart without one is
	// written as a plain state machine, events as events and guards as
	// conditions.
	Stencil *chart.Stencil

	// Comment, when not empty, is written as an XML comment before the
	// root element: where the file came from, that it is generated. It
	// must not contain "--".
	Comment string
}

// Write writes chart c as an SCXML document: deterministic, indented with
// four spaces, the layout (State.Box) in Qt Creator's <qt:editorinfo>
// elements, and every datum of the chart that SCXML has no place for in
// fsmforge's attributes, so that [Read] gives back the same chart, but for
// positions (see the package documentation for the format).
//
// Write refuses, with a [chart.Diagnostics] error and nothing written, a
// chart that does not hold together: nested states (flatten it first with
// [chart.Flatten]), two states with one ID, a transition from or to a
// state the chart does not have, one that both pushes and returns, or text
// that XML cannot hold (invalid UTF-8, control characters).
//
// Write costs time and memory linear in the chart; it builds the whole
// file in memory and writes it with one call to w.Write.
func Write(w io.Writer, c *chart.Chart, opt WriteOptions) error {
	if c == nil {
		return chart.Diagnostics{{Message: "scxml: no chart (nil)", Hint: "pass the chart an importer returned"}}
	}
	wr := &writer{c: c, st: cmp.Or(opt.Stencil, c.Stencil), sids: make(map[string]string, len(c.States)), exact: widened(c)}
	if err := wr.check(opt); err != nil {
		return err
	}
	wr.names()
	wr.document(opt)
	_, err := w.Write(wr.b.Bytes())
	return err
}

// writer holds the state of one Write.
type writer struct {
	c      *chart.Chart
	st     *chart.Stencil
	b      bytes.Buffer
	sids   map[string]string // chart ID → SCXML id
	taken  map[string]bool   // SCXML ids
	any    string            // SCXML id of the any-state element, if there are any-state transitions
	final  string            // SCXML id of the final state, if a transition ends the machine
	out    map[string][]int  // chart ID of a state → its transitions, in written order
	anyOut []int             // the any-state transitions, in written order
	diags  chart.Diagnostics
	exact  map[string]bool // events SCXML's prefix matching would widen: written with ff:event
}

func (wr *writer) errorf(at chart.Pos, hint, format string, args ...any) {
	wr.diags = append(wr.diags, chart.Diagnostic{Pos: at, Message: "scxml: " + fmt.Sprintf(format, args...), Hint: hint})
}

// check refuses what cannot be written.
func (wr *writer) check(opt WriteOptions) error {
	c := wr.c
	text := func(at chart.Pos, what, s string) {
		if !xmlSafe(s) {
			wr.errorf(at, "remove control characters and invalid UTF-8", "%s %q has a character XML cannot hold", what, s)
		}
	}
	if strings.Contains(opt.Comment, "--") || strings.HasSuffix(opt.Comment, "-") {
		wr.errorf(chart.Pos{}, "", "the comment %q contains \"--\" or ends with \"-\", which XML comments cannot", opt.Comment)
	}
	text(chart.Pos{}, "the comment", opt.Comment)
	text(chart.Pos{File: c.File}, "the chart's name", c.Name)
	if wr.st != nil {
		text(chart.Pos{File: wr.st.File}, "the stencil's name", wr.st.Name)
		text(chart.Pos{File: wr.st.File}, "the stencil's version", wr.st.Version)
	}
	ids := make(map[string]int, len(c.States))
	for i := range c.States {
		s := &c.States[i]
		if _, dup := ids[s.ID]; dup {
			wr.errorf(s.Pos, "give every state its own ID", "state ID %q is used twice", s.ID)
		}
		ids[s.ID] = i
		if s.Parent != "" {
			wr.errorf(s.Pos, "flatten the chart first (chart.Flatten)", "state %q is inside state %q: Write writes flat charts", s.ID, s.Parent)
		}
		text(s.Pos, "state ID", s.ID)
		text(s.Pos, "state name", s.Name)
		for _, a := range s.Entry {
			text(a.Pos, "entry-action property", a.Property)
			text(a.Pos, "entry-action value", a.Value)
		}
	}
	wr.out = make(map[string][]int, len(c.States))
	for i := range c.Transitions {
		t := &c.Transitions[i]
		for _, f := range [...]struct{ what, s string }{{"transition ID", t.ID}, {"test", t.Test}, {"value", t.Value},
			{"label", t.Label}, {"event", t.Event}, {"guard", t.Guard}, {"action", t.Action}} {
			text(t.Pos, f.what, f.s)
		}
		if t.AnyState {
			wr.anyOut = append(wr.anyOut, i)
		} else if _, ok := ids[t.From]; ok {
			wr.out[t.From] = append(wr.out[t.From], i)
		} else {
			wr.errorf(t.Pos, "", "transition %q leaves state %q, which the chart does not have", t.ID, t.From)
		}
		switch t.Target.Kind {
		case chart.ToState:
			if _, ok := ids[t.Target.State]; !ok {
				wr.errorf(t.Pos, "", "transition %q goes to state %q, which the chart does not have", t.ID, t.Target.State)
			}
		case chart.ToFinal:
		case chart.ToReturn:
			if t.Push {
				wr.errorf(t.Pos, "drop the push or the return", "transition %q both pushes and returns", t.ID)
			}
		default:
			wr.errorf(t.Pos, "", "transition %q has an unknown target kind %d", t.ID, t.Target.Kind)
		}
	}
	if len(wr.diags) > 0 {
		return wr.diags
	}
	byOrder := func(a, b int) int { return cmp.Compare(c.Transitions[a].Order, c.Transitions[b].Order) }
	for _, list := range wr.out {
		slices.SortStableFunc(list, byOrder)
	}
	slices.SortStableFunc(wr.anyOut, byOrder)
	return nil
}

// names chooses the SCXML ids: each state's name made an NCName (or its
// kind's, or its ID's, when it has none), followed by "_2", "_3"... when
// an earlier state took it.
func (wr *writer) names() {
	wr.taken = make(map[string]bool, len(wr.c.States)+2)
	take := func(base string) string {
		id := ncName(base)
		if wr.taken[id] {
			for i := 2; ; i++ {
				if s := id + "_" + strconv.Itoa(i); !wr.taken[s] {
					id = s
					break
				}
			}
		}
		wr.taken[id] = true
		return id
	}
	for i := range wr.c.States {
		s := &wr.c.States[i]
		base := s.Name
		if base == "" && s.Kind != chart.NormalState {
			base = s.Kind.String()
		}
		wr.sids[s.ID] = take(cmp.Or(base, s.ID))
	}
	if len(wr.anyOut) > 0 {
		wr.any = take("AnyState")
	}
	for _, t := range wr.c.Transitions {
		if t.Target.Kind == chart.ToFinal {
			wr.final = take("Final")
			break
		}
	}
}

// attr is an attribute to write; Name "ff:x" for fsmforge's.
type attr struct{ name, value string }

func (wr *writer) start(indent int, elem string, attrs []attr, empty bool) {
	wr.b.WriteString(strings.Repeat("    ", indent))
	wr.b.WriteByte('<')
	wr.b.WriteString(elem)
	for _, a := range attrs {
		wr.b.WriteByte(' ')
		wr.b.WriteString(a.name)
		wr.b.WriteString(`="`)
		xml.EscapeText(&wr.b, []byte(a.value)) // never fails on a bytes.Buffer
		wr.b.WriteByte('"')
	}
	if empty {
		wr.b.WriteString("/>\n")
	} else {
		wr.b.WriteString(">\n")
	}
}

func (wr *writer) end(indent int, elem string) {
	wr.b.WriteString(strings.Repeat("    ", indent))
	wr.b.WriteString("</" + elem + ">\n")
}

func (wr *writer) document(opt WriteOptions) {
	c := wr.c
	wr.b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	if opt.Comment != "" {
		wr.b.WriteString("<!-- " + opt.Comment + " -->\n")
	}
	root := []attr{
		{"xmlns", SCXMLNamespace}, {"xmlns:ff", Namespace}, {"xmlns:qt", QtNamespace}, {"version", "1.0"},
	}
	if c.Name != "" {
		root = append(root, attr{"name", c.Name})
	}
	var initials []string
	for _, s := range c.States {
		if s.Initial {
			initials = append(initials, s.ID)
		}
	}
	if len(initials) > 0 {
		root = append(root, attr{"initial", wr.sids[initials[0]]})
	} else {
		root = append(root, attr{"ff:" + attrInitial, initialNone})
	}
	if wr.st != nil {
		root = append(root, attr{"ff:" + attrStencil, wr.st.Name})
		if wr.st.Version != "" {
			root = append(root, attr{"ff:" + attrVersion, wr.st.Version})
		}
	}
	if c.Chain {
		root = append(root, attr{"ff:" + attrChain, "true"})
	}
	if c.ChainLimit != 0 {
		root = append(root, attr{"ff:" + attrChainLimit, strconv.Itoa(c.ChainLimit)})
	}
	wr.start(0, "scxml", root, false)
	var right, top float64
	boxes := false
	for i := range c.States {
		s := &c.States[i]
		wr.state(s, s.Initial && s.ID != initials[0])
		if b := s.Box; b != nil {
			if !boxes || b.X+b.W > right {
				right = b.X + b.W
			}
			if !boxes || b.Y < top {
				top = b.Y
			}
			boxes = true
		}
	}
	// The any-state element and the final state go right of the drawing.
	if wr.any != "" {
		wr.start(1, "state", []attr{{"id", wr.any}, {"ff:" + attrKind, kindAnyState}}, false)
		if boxes {
			wr.editorInfo(&chart.Box{X: right + 60, Y: top, W: 120, H: 100})
		}
		for k, i := range wr.anyOut {
			wr.transition(&c.Transitions[i], wr.any, k+1)
		}
		wr.end(1, "state")
	}
	if wr.final != "" {
		attrs := []attr{{"id", wr.final}, {"ff:" + attrImplicit, valueTrue}}
		if boxes {
			wr.start(1, "final", attrs, false)
			y := top
			if wr.any != "" {
				y += 160
			}
			wr.editorInfo(&chart.Box{X: right + 100, Y: y, W: 40, H: 40})
			wr.end(1, "final")
		} else {
			wr.start(1, "final", attrs, true)
		}
	}
	wr.end(0, "scxml")
}

// state writes state s; extra marks an initial state after the first.
func (wr *writer) state(s *chart.State, extra bool) {
	sid := wr.sids[s.ID]
	out := wr.out[s.ID]
	elem := "state"
	attrs := []attr{{"id", sid}}
	if s.ID != sid {
		attrs = append(attrs, attr{"ff:" + attrID, s.ID})
	}
	if s.Name != sid {
		attrs = append(attrs, attr{"ff:" + attrName, s.Name})
	}
	switch s.Kind {
	case chart.StartState:
		attrs = append(attrs, attr{"ff:" + attrKind, kindStart})
	case chart.ChoiceState:
		attrs = append(attrs, attr{"ff:" + attrKind, kindChoice})
	case chart.EndState:
		if len(out) == 0 {
			elem = "final"
		} else {
			attrs = append(attrs, attr{"ff:" + attrKind, kindEnd})
		}
	}
	if extra {
		attrs = append(attrs, attr{"ff:" + attrInitial, valueTrue})
	}
	if s.Box == nil && len(s.Entry) == 0 && len(out) == 0 {
		wr.start(1, elem, attrs, true)
		return
	}
	wr.start(1, elem, attrs, false)
	if s.Box != nil {
		wr.editorInfo(s.Box)
	}
	if len(s.Entry) > 0 {
		wr.start(2, "onentry", nil, false)
		for _, a := range s.Entry {
			wr.start(3, "ff:"+elemAction, []attr{{attrProperty, a.Property}, {attrValue, a.Value}}, true)
		}
		wr.end(2, "onentry")
	}
	for k, i := range out {
		wr.transition(&wr.c.Transitions[i], s.ID, k+1)
	}
	wr.end(1, elem)
}

// editorInfo writes a layout as Qt Creator keeps it: the position (here
// the top-left corner) and the rectangle around it, and the same in scene
// coordinates.
func (wr *writer) editorInfo(b *chart.Box) {
	f := func(xs ...float64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strings.Join(s, ";")
	}
	wr.start(2, "qt:"+qtEditorInfo, []attr{
		{qtGeometry, f(b.X, b.Y, 0, 0, b.W, b.H)},
		{qtSceneGeometry, f(b.X, b.Y, b.X, b.Y, b.W, b.H)},
	}, true)
}

// transition writes transition t, the k-th of the element whose chart ID
// (or SCXML id, for the any-state element) is owner.
func (wr *writer) transition(t *chart.Transition, owner string, k int) {
	var attrs []attr
	if wr.st != nil {
		tok := token(t.Test)
		if tok != "" {
			attrs = append(attrs, attr{"event", tok})
		}
		if tok != t.Test {
			attrs = append(attrs, attr{"ff:" + attrTest, t.Test})
		}
	} else {
		if t.Event != "" {
			attrs = append(attrs, attr{"event", token(t.Event)})
		}
		if t.Guard != "" {
			attrs = append(attrs, attr{"cond", t.Guard})
		}
	}
	switch t.Target.Kind {
	case chart.ToState:
		attrs = append(attrs, attr{"target", wr.sids[t.Target.State]})
	case chart.ToFinal:
		attrs = append(attrs, attr{"target", wr.final})
	}
	if id := defaultTransitionID(owner, k); t.ID != id {
		attrs = append(attrs, attr{"ff:" + attrID, t.ID})
	}
	if wr.st == nil {
		if token(t.Event) != t.Event || wr.exact[t.Event] {
			attrs = append(attrs, attr{"ff:" + attrEvent, t.Event})
		}
		if t.Test != cmp.Or(t.Event, t.Guard) {
			attrs = append(attrs, attr{"ff:" + attrTest, t.Test})
		}
		if t.Label != label(t.Event, t.Guard) || t.Action != "" {
			attrs = append(attrs, attr{"ff:" + attrLabel, t.Label})
		}
	} else if t.Label != t.Test {
		attrs = append(attrs, attr{"ff:" + attrLabel, t.Label})
	}
	if t.Value != "" {
		attrs = append(attrs, attr{"ff:" + attrValue, t.Value})
	}
	if t.Order != k {
		attrs = append(attrs, attr{"ff:" + attrOrder, strconv.Itoa(t.Order)})
	}
	switch {
	case t.Push:
		attrs = append(attrs, attr{"ff:" + attrStack, chart.StackPush})
	case t.Target.Kind == chart.ToReturn:
		attrs = append(attrs, attr{"ff:" + attrStack, chart.StackReturn})
	}
	wr.start(2, "transition", attrs, true)
}
