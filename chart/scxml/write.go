package scxml

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
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
// four spaces, states nested as the chart nests them (State.Parent), the
// layout (State.Box) in Qt Creator's <qt:editorinfo> elements, and every
// datum of the chart that SCXML has no place for in fsmforge's
// attributes, so that [Read] gives back the same chart, but for positions
// (see the package documentation for the format).
//
// Write refuses, with a [diag.List] error and nothing written, a
// chart that does not hold together: two states with one ID, a Parent
// that is not a normal or parallel state of the chart (or that nests a
// state inside itself), a history at the top level or whose transitions
// are not one default transition, several initial states inside one
// compound state or any inside a parallel one, a transition from or to a
// state the chart does not have, one that both pushes and returns, an
// action that SCXML cannot write (an event that is not one name, a
// negative delay), or text that XML cannot hold (invalid UTF-8, control
// characters).
//
// Write costs time and memory linear in the chart; it builds the whole
// file in memory and writes it with one call to w.Write.
func Write(w io.Writer, c *chart.Chart, opt WriteOptions) error {
	if c == nil {
		return diag.List{{Message: "scxml: no chart (nil)", Hint: "pass the chart an importer returned"}}
	}
	wr := &writer{c: c, st: cmp.Or(opt.Stencil, c.Stencil), sids: make(map[string]string, len(c.States))}
	if err := wr.check(opt); err != nil {
		return err
	}
	wr.initials()
	wr.names()
	wr.document(opt)
	_, err := w.Write(wr.b.Bytes())
	return err
}

// writer holds the state of one Write.
type writer struct {
	c         *chart.Chart
	st        *chart.Stencil
	b         bytes.Buffer
	byID      map[string]int        // chart ID → index of the state
	sids      map[string]string     // chart ID → SCXML id
	taken     map[string]bool       // SCXML ids
	any       string                // SCXML id of the any-state element, if there are any-state transitions
	final     string                // SCXML id of the final state, if a transition ends the machine
	kids      map[string][]int      // chart ID of a state ("" for the top level) → the states inside it, in chart order
	out       map[string][]int      // chart ID of a state → its transitions, in written order
	anyOut    []int                 // the any-state transitions, in written order
	asInitial map[string]bool       // start pseudo-states written as their parent's <initial>
	geometry  map[string][2]float64 // chart ID → the position written in its geometry
	nesting   []uint8               // for each state, whether nestsItself followed its parents
	diags     diag.List
}

func (wr *writer) errorf(at diag.Pos, hint, format string, args ...any) {
	wr.diags = append(wr.diags, diag.Diagnostic{Pos: at, Message: "scxml: " + fmt.Sprintf(format, args...), Hint: hint})
}

// text refuses s, which XML cannot hold.
func (wr *writer) text(at diag.Pos, what, s string) {
	if !xmlSafe(s) {
		wr.errorf(at, "remove control characters and invalid UTF-8", "%s %q has a character XML cannot hold", what, s)
	}
}

// check refuses what cannot be written.
func (wr *writer) check(opt WriteOptions) error {
	c := wr.c
	if strings.Contains(opt.Comment, "--") || strings.HasSuffix(opt.Comment, "-") {
		wr.errorf(diag.Pos{}, "", "the comment %q contains \"--\" or ends with \"-\", which XML comments cannot", opt.Comment)
	}
	wr.text(diag.Pos{}, "the comment", opt.Comment)
	wr.text(diag.Pos{File: c.File}, "the chart's name", c.Name)
	if wr.st != nil {
		wr.text(diag.Pos{File: wr.st.File}, "the stencil's name", wr.st.Name)
		wr.text(diag.Pos{File: wr.st.File}, "the stencil's version", wr.st.Version)
	}
	wr.byID = make(map[string]int, len(c.States))
	for i := range c.States {
		s := &c.States[i]
		if _, dup := wr.byID[s.ID]; dup {
			wr.errorf(s.Pos, "give every state its own ID", "state ID %q is used twice", s.ID)
		}
		wr.byID[s.ID] = i
		wr.text(s.Pos, "state ID", s.ID)
		wr.text(s.Pos, "state name", s.Name)
		wr.checkActions(s.Entry)
		wr.checkActions(s.Exit)
	}
	if len(wr.diags) == 0 {
		wr.checkNesting()
	}
	wr.checkTransitions()
	if len(wr.diags) == 0 {
		wr.checkHistories()
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

// checkActions refuses the actions SCXML cannot write.
func (wr *writer) checkActions(list []chart.Action) {
	for _, a := range list {
		wr.text(a.Pos, "action property", a.Property)
		wr.text(a.Pos, "action value", a.Value)
		wr.text(a.Pos, "event", a.Event)
		wr.text(a.Pos, "timer", a.Timer)
		if a.Guard != strings.TrimSpace(a.Guard) {
			wr.errorf(a.Pos, "remove the spaces around it", "%s action with guard %q", a.Kind, a.Guard)
		}
		wr.text(a.Pos, "guard", a.Guard)
		switch a.Kind {
		case chart.GameAction:
		case chart.RaiseAction, chart.SendAction:
			if a.Event == "" || strings.ContainsFunc(a.Event, unicode.IsSpace) {
				wr.errorf(a.Pos, "name one event", "%s action with event %q: an event is one name", a.Kind, a.Event)
			}
			if a.Kind == chart.SendAction && (a.Delay < 0 || math.IsNaN(a.Delay) || math.IsInf(a.Delay, 0)) {
				wr.errorf(a.Pos, "make it 0 or more seconds", "send action %q has delay %v", a.Event, a.Delay)
			}
			if a.Kind == chart.SendAction && a.Timer != strings.TrimSpace(a.Timer) {
				wr.errorf(a.Pos, "remove the spaces around it", "send action %q has timer %q", a.Event, a.Timer)
			}
		case chart.CancelAction:
			if a.Timer == "" || a.Timer != strings.TrimSpace(a.Timer) {
				wr.errorf(a.Pos, "name the timer of a send action", "cancel action with timer %q", a.Timer)
			}
		default:
			wr.errorf(a.Pos, "", "an action of unknown kind %d", a.Kind)
		}
	}
}

// checkNesting refuses parents that cannot hold their states, and lists
// the states inside each.
func (wr *writer) checkNesting() {
	c := wr.c
	wr.kids = make(map[string][]int)
	initials := make(map[string]int)
	for i := range c.States {
		s := &c.States[i]
		if s.Parent == "" {
			wr.kids[""] = append(wr.kids[""], i)
			if s.Kind == chart.HistoryState || s.Kind == chart.DeepHistoryState {
				wr.errorf(s.Pos, "put it inside the compound state whose history it keeps", "history state %q is at the top level", s.ID)
			}
			continue
		}
		j, ok := wr.byID[s.Parent]
		if !ok {
			wr.errorf(s.Pos, "", "state %q is inside state %q, which the chart does not have", s.ID, s.Parent)
			continue
		}
		p := &c.States[j]
		if p.Kind != chart.NormalState && p.Kind != chart.ParallelState {
			wr.errorf(s.Pos, "only normal and parallel states hold states", "state %q is inside %s state %q", s.ID, p.Kind, p.ID)
			continue
		}
		if wr.nestsItself(i) {
			wr.errorf(s.Pos, "make the parents nest", "the parents of state %q loop", s.ID)
			continue
		}
		if s.Initial && p.Kind == chart.ParallelState {
			wr.errorf(s.Pos, "unmark it: a parallel state enters every state inside it", "state %q is initial inside parallel state %q", s.ID, p.ID)
		}
		if s.Initial {
			if initials[p.ID]++; initials[p.ID] == 2 {
				wr.errorf(s.Pos, "mark one: a compound state is entered in one state (a start pseudo-state leads to several)",
					"state %q has more than one initial state inside", p.ID)
			}
		}
		wr.kids[p.ID] = append(wr.kids[p.ID], i)
	}
}

// nestsItself reports whether following the parents of state i loops.
// It marks the states it has followed (wr.nesting), so that checking
// every state costs time linear in the chart.
func (wr *writer) nestsItself(i int) bool {
	const (
		unseen = iota
		following
		done
	)
	if wr.nesting == nil {
		wr.nesting = make([]uint8, len(wr.c.States))
	}
	var path []int
	loops := false
	for j := i; ; {
		if wr.nesting[j] == following {
			loops = true
			break
		}
		if wr.nesting[j] == done {
			break
		}
		wr.nesting[j] = following
		path = append(path, j)
		k, ok := wr.byID[wr.c.States[j].Parent]
		if !ok {
			break
		}
		j = k
	}
	for _, j := range path {
		wr.nesting[j] = done
	}
	return loops
}

// checkTransitions refuses transitions from or to no state of the chart,
// and lists the transitions of each state.
func (wr *writer) checkTransitions() {
	c := wr.c
	wr.out = make(map[string][]int, len(c.States))
	for i := range c.Transitions {
		t := &c.Transitions[i]
		for _, f := range [...]struct{ what, s string }{{"transition ID", t.ID}, {"test", t.Test}, {"value", t.Value},
			{"label", t.Label}, {"event", t.Event}, {"guard", t.Guard}, {"action", t.Action}} {
			wr.text(t.Pos, f.what, f.s)
		}
		wr.checkActions(t.Actions)
		if t.AnyState {
			wr.anyOut = append(wr.anyOut, i)
		} else if _, ok := wr.byID[t.From]; ok {
			wr.out[t.From] = append(wr.out[t.From], i)
		} else {
			wr.errorf(t.Pos, "", "transition %q leaves state %q, which the chart does not have", t.ID, t.From)
		}
		switch t.Target.Kind {
		case chart.ToState:
			for _, id := range append([]string{t.Target.State}, t.Also...) {
				if _, ok := wr.byID[id]; !ok {
					wr.errorf(t.Pos, "", "transition %q goes to state %q, which the chart does not have", t.ID, id)
				}
			}
		case chart.ToFinal, chart.ToNone:
		case chart.ToReturn:
			if t.Push {
				wr.errorf(t.Pos, "drop the push or the return", "transition %q both pushes and returns", t.ID)
			}
		default:
			wr.errorf(t.Pos, "", "transition %q has an unknown target kind %d", t.ID, t.Target.Kind)
		}
		if len(t.Also) > 0 && t.Target.Kind != chart.ToState {
			wr.errorf(t.Pos, "", "transition %q has further targets but its target is %s", t.ID, t.Target)
		}
	}
}

// checkHistories refuses history states whose transitions are not one
// default transition, as SCXML's <history> holds.
func (wr *writer) checkHistories() {
	c := wr.c
	for i := range c.States {
		s := &c.States[i]
		if s.Kind != chart.HistoryState && s.Kind != chart.DeepHistoryState {
			continue
		}
		out := wr.out[s.ID]
		if len(s.Entry)+len(s.Exit) > 0 {
			wr.errorf(s.Pos, "move them to the states it leads to", "history state %q has entry or exit actions", s.ID)
		}
		if len(out) != 1 || !wr.defaultTransition(&c.Transitions[out[0]], s.Parent) {
			wr.errorf(s.Pos, "give it one transition, without event or guard, to states inside "+strconv.Quote(s.Parent),
				"history state %q has %d transitions, which SCXML cannot write: a <history> has one, its default", s.ID, len(out))
		}
	}
}

// defaultTransition reports whether t can be the transition of an
// <initial> or <history> inside state parent: without event or
// condition, to states inside parent.
func (wr *writer) defaultTransition(t *chart.Transition, parent string) bool {
	if t.Target.Kind != chart.ToState || t.Event != "" || t.Guard != "" || wr.st != nil && t.Test != "" {
		return false
	}
	for _, id := range append([]string{t.Target.State}, t.Also...) {
		if !wr.inside(id, parent) {
			return false
		}
	}
	return true
}

// inside reports whether the state id is inside (below) state p.
func (wr *writer) inside(id, p string) bool {
	c := wr.c
	for n := 0; n <= len(c.States); n++ {
		j, ok := wr.byID[id]
		if !ok || c.States[j].Parent == "" {
			return false
		}
		if id = c.States[j].Parent; id == p {
			return true
		}
	}
	return false
}

// initials finds the start pseudo-states written as <initial> elements:
// the first state inside a compound state, initial, leading to states
// inside it, and not the target of a transition.
func (wr *writer) initials() {
	c := wr.c
	targeted := make(map[string]bool)
	for _, t := range c.Transitions {
		if t.Target.Kind == chart.ToState {
			targeted[t.Target.State] = true
			for _, id := range t.Also {
				targeted[id] = true
			}
		}
	}
	wr.asInitial = make(map[string]bool)
	for i := range c.States {
		p := &c.States[i]
		kids := wr.kids[p.ID]
		if p.Kind != chart.NormalState || len(kids) == 0 {
			continue
		}
		s := &c.States[kids[0]]
		out := wr.out[s.ID]
		if s.Kind == chart.StartState && s.Initial && len(s.Entry)+len(s.Exit) == 0 && !targeted[s.ID] &&
			len(out) == 1 && wr.defaultTransition(&c.Transitions[out[0]], p.ID) {
			wr.asInitial[s.ID] = true
		}
	}
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
		if wr.asInitial[s.ID] {
			continue // <initial> has no id
		}
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
	first := ""
	for _, i := range wr.kids[""] {
		if c.States[i].Initial {
			first = c.States[i].ID
			break
		}
	}
	if first != "" {
		root = append(root, attr{"initial", wr.sids[first]})
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
	if c.Statechart {
		root = append(root, attr{"ff:" + attrStatechart, valueTrue})
	}
	if c.Fallback != "" {
		root = append(root, attr{"ff:" + attrFallback, c.Fallback})
	}
	wr.start(0, "scxml", root, false)
	wr.geometry = make(map[string][2]float64)
	for _, i := range wr.kids[""] {
		s := &c.States[i]
		wr.state(s, 1, s.Initial && s.ID != first)
	}
	wr.extras()
	wr.end(0, "scxml")
}

// extras writes the any-state element and the final state, right of the
// drawing.
func (wr *writer) extras() {
	c := wr.c
	var right, top float64
	boxes := false
	for i := range c.States {
		if b := c.States[i].Box; b != nil {
			if !boxes || b.X+b.W > right {
				right = b.X + b.W
			}
			if !boxes || b.Y < top {
				top = b.Y
			}
			boxes = true
		}
	}
	if wr.any != "" {
		wr.start(1, "state", []attr{{"id", wr.any}, {"ff:" + attrKind, kindAnyState}}, false)
		if boxes {
			wr.editorInfo(2, &chart.Box{X: right + 60, Y: top, W: 120, H: 100}, nil)
		}
		for k, i := range wr.anyOut {
			wr.transition(&c.Transitions[i], wr.any, k+1, 2)
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
			wr.editorInfo(2, &chart.Box{X: right + 100, Y: y, W: 40, H: 40}, nil)
			wr.end(1, "final")
		} else {
			wr.start(1, "final", attrs, true)
		}
	}
}

// element returns the element and attributes state s is written as;
// extra marks a top-level initial state after the first.
func (wr *writer) element(s *chart.State, extra bool) (string, []attr) {
	sid := wr.sids[s.ID]
	elem := "state"
	attrs := []attr{{"id", sid}}
	var ff []attr
	if s.ID != sid {
		ff = append(ff, attr{"ff:" + attrID, s.ID})
	}
	if s.Name != sid {
		ff = append(ff, attr{"ff:" + attrName, s.Name})
	}
	switch s.Kind {
	case chart.ParallelState:
		elem = "parallel"
	case chart.HistoryState:
		elem = "history"
	case chart.DeepHistoryState:
		elem = "history"
		attrs = append(attrs, attr{"type", "deep"})
	case chart.StartState:
		ff = append(ff, attr{"ff:" + attrKind, kindStart})
	case chart.ChoiceState:
		ff = append(ff, attr{"ff:" + attrKind, kindChoice})
	case chart.EndState:
		if p, ok := wr.byID[s.Parent]; len(wr.out[s.ID]) == 0 && (!ok || wr.c.States[p].Kind != chart.ParallelState) {
			elem = "final"
		} else {
			ff = append(ff, attr{"ff:" + attrKind, kindEnd})
		}
	}
	if elem == "state" {
		if kids := wr.kids[s.ID]; len(kids) > 0 && !wr.asInitial[wr.c.States[kids[0]].ID] {
			for _, k := range kids {
				if wr.c.States[k].Initial {
					attrs = append(attrs, attr{"initial", wr.sids[wr.c.States[k].ID]})
					break
				}
			}
		}
	}
	if extra {
		ff = append(ff, attr{"ff:" + attrInitial, valueTrue})
	}
	return elem, append(attrs, ff...)
}

// state writes state s and the states inside it, at the given
// indentation; extra marks a top-level initial state after the first.
func (wr *writer) state(s *chart.State, indent int, extra bool) {
	elem, attrs := wr.element(s, extra)
	out := wr.out[s.ID]
	kids := wr.kids[s.ID]
	if s.Box == nil && len(s.Entry)+len(s.Exit)+len(out)+len(kids) == 0 {
		wr.start(indent, elem, attrs, true)
		return
	}
	wr.start(indent, elem, attrs, false)
	if s.Box != nil {
		wr.editorInfo(indent+1, s.Box, s)
	}
	if len(kids) > 0 && wr.asInitial[wr.c.States[kids[0]].ID] {
		wr.initial(&wr.c.States[kids[0]], s, indent+1)
		kids = kids[1:]
	}
	wr.block(indent+1, "onentry", s.Entry)
	wr.block(indent+1, "onexit", s.Exit)
	for k, i := range out {
		wr.transition(&wr.c.Transitions[i], s.ID, k+1, indent+1)
	}
	for _, i := range kids {
		wr.state(&wr.c.States[i], indent+1, false)
	}
	wr.end(indent, elem)
}

// initial writes start pseudo-state s of state parent as an <initial>
// element.
func (wr *writer) initial(s, parent *chart.State, indent int) {
	var attrs []attr
	if s.ID != parent.ID+"#initial" {
		attrs = append(attrs, attr{"ff:" + attrID, s.ID})
	}
	if s.Name != "" {
		attrs = append(attrs, attr{"ff:" + attrName, s.Name})
	}
	wr.start(indent, "initial", attrs, false)
	if s.Box != nil {
		wr.editorInfo(indent+1, s.Box, s)
	}
	wr.transition(&wr.c.Transitions[wr.out[s.ID][0]], s.ID, 1, indent+1)
	wr.end(indent, "initial")
}

// block writes actions as an <onentry> or <onexit> element.
func (wr *writer) block(indent int, elem string, actions []chart.Action) {
	if len(actions) == 0 {
		return
	}
	wr.start(indent, elem, nil, false)
	wr.actions(indent+1, actions)
	wr.end(indent, elem)
}

// actions writes actions as executable content: a run of actions with
// the same guard inside one <if>.
func (wr *writer) actions(indent int, actions []chart.Action) {
	for len(actions) > 0 {
		n := 1
		for n < len(actions) && actions[n].Guard == actions[0].Guard {
			n++
		}
		if g := actions[0].Guard; g != "" {
			wr.start(indent, "if", []attr{{"cond", g}}, false)
			wr.plainActions(indent+1, actions[:n])
			wr.end(indent, "if")
		} else {
			wr.plainActions(indent, actions[:n])
		}
		actions = actions[n:]
	}
}

// plainActions writes actions as executable content, their guards aside.
func (wr *writer) plainActions(indent int, actions []chart.Action) {
	for _, a := range actions {
		switch a.Kind {
		case chart.GameAction:
			wr.start(indent, "ff:"+elemAction, []attr{{attrProperty, a.Property}, {attrValue, a.Value}}, true)
		case chart.RaiseAction:
			wr.start(indent, "raise", []attr{{"event", a.Event}}, true)
		case chart.SendAction:
			attrs := []attr{{"event", a.Event}}
			if a.Delay != 0 {
				attrs = append(attrs, attr{"delay", strconv.FormatFloat(a.Delay, 'f', -1, 64) + "s"})
			}
			if a.Timer != "" {
				attrs = append(attrs, attr{"id", a.Timer})
			}
			wr.start(indent, "send", attrs, true)
		case chart.CancelAction:
			wr.start(indent, "cancel", []attr{{"sendid", a.Timer}}, true)
		}
	}
}

// editorInfo writes a layout as Qt Creator keeps it: the position (here
// the top-left corner) in the coordinates of the state around, the
// rectangle around it, and the same in scene coordinates. The reader adds
// up the positions of the states around; when that sum would not give
// back the box exactly, the position is left out, and the reader takes
// the scene's. s is the state, or nil for the elements Write adds.
func (wr *writer) editorInfo(indent int, b *chart.Box, s *chart.State) {
	f := func(xs ...float64) string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strings.Join(out, ";")
	}
	attrs := []attr{{qtSceneGeometry, f(b.X, b.Y, b.X, b.Y, b.W, b.H)}}
	if pos, ok := wr.position(s, b); ok {
		attrs = slices.Insert(attrs, 0, attr{qtGeometry, f(pos[0], pos[1], 0, 0, b.W, b.H)})
	}
	wr.start(indent, "qt:"+qtEditorInfo, attrs, true)
}

// position returns the position of box b of state s in its parent's
// coordinates, and whether the reader, adding up the positions written
// for the states around it, gets b back.
func (wr *writer) position(s *chart.State, b *chart.Box) ([2]float64, bool) {
	pos := [2]float64{b.X, b.Y}
	if s == nil {
		return pos, true
	}
	var around [][2]float64 // the positions written for the states around s, inside out
	exact := true
	for id := s.Parent; id != ""; id = wr.c.States[wr.byID[id]].Parent {
		g, ok := wr.geometry[id]
		if !ok {
			exact = false
			break
		}
		around = append(around, g)
	}
	if p, ok := wr.byID[s.Parent]; ok && wr.c.States[p].Box != nil {
		pb := wr.c.States[p].Box
		pos = [2]float64{b.X - pb.X, b.Y - pb.Y}
	}
	x, y := pos[0]+0, pos[1]+0
	for _, g := range around {
		x, y = x+g[0], y+g[1]
	}
	if exact && (x != b.X || y != b.Y) {
		return pos, false // the scene geometry gives it
	}
	wr.geometry[s.ID] = pos
	return pos, true
}

// transition writes transition t, the k-th of the element whose chart ID
// (or SCXML id, for the any-state element) is owner.
func (wr *writer) transition(t *chart.Transition, owner string, k, indent int) {
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
			attrs = append(attrs, attr{"event", t.Event})
		}
		if t.Guard != "" {
			attrs = append(attrs, attr{"cond", t.Guard})
		}
	}
	switch t.Target.Kind {
	case chart.ToState:
		targets := []string{wr.sids[t.Target.State]}
		for _, id := range t.Also {
			targets = append(targets, wr.sids[id])
		}
		attrs = append(attrs, attr{"target", strings.Join(targets, " ")})
	case chart.ToFinal:
		attrs = append(attrs, attr{"target", wr.final})
	}
	if t.Internal {
		attrs = append(attrs, attr{"type", "internal"})
	}
	if id := defaultTransitionID(owner, k); t.ID != id {
		attrs = append(attrs, attr{"ff:" + attrID, t.ID})
	}
	if wr.st == nil {
		if chart.NormalizeSpace(t.Event) != t.Event {
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
	if len(t.Actions) == 0 {
		wr.start(indent, "transition", attrs, true)
		return
	}
	wr.start(indent, "transition", attrs, false)
	wr.actions(indent+1, t.Actions)
	wr.end(indent, "transition")
}
