package scref

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/cond"
)

// state is a state of the document, or the root (SCXML's <scxml>
// element), the parent of the top-level states.
type state struct {
	id   string // the chart's ID; "" for the root
	name string // the name done events carry: the chart's Name, or the ID
	kind chart.StateKind
	root bool

	parent   *state
	children []*state // states, parallels and finals, in document order (getChildStates)
	history  []*state // history children, in document order
	order    int      // place in document order; -1 for the root
	marked   bool     // marked Initial in the chart

	onentry, onexit []action
	transitions     []*transition // in the order they are tried
	initial         *transition   // a compound's (and the root's) default transition
	transition      *transition   // a history state's default transition
}

// transition is a transition of the document.
type transition struct {
	source   *state
	events   []string  // descriptors; none: eventless
	cond     cond.Expr // nil: none
	target   []*state  // none: targetless
	internal bool
	content  []action
}

// action is an action with its parsed guard.
type action struct {
	chart.Action
	cond cond.Expr // nil: none
}

// document is a chart read for the interpreter.
type document struct {
	root   *state
	states []*state // in document order
	byID   map[string]*state
	descs  []string // the event descriptors of every transition of the chart
}

// listened reports whether a transition of the chart has a descriptor
// that matches event (default transitions too, whose descriptors count
// for nothing else: package compile makes its done events so).
func (d *document) listened(event string) bool {
	return nameMatch(d.descs, event)
}

// errUnsupported is wrapped by New's errors for what the reference does
// not model.
var errUnsupported = errors.New("scref: not supported")

// read builds the document of chart c.
func read(c *chart.Chart) (*document, error) {
	switch {
	case c == nil:
		return nil, errors.New("scref: nil chart")
	case c.Stencil != nil:
		return nil, fmt.Errorf("%w: a chart with a stencil", errUnsupported)
	case !c.Statechart:
		return nil, fmt.Errorf("%w: a chart that is not a statechart (Chart.Statechart)", errUnsupported)
	}
	d := &document{root: &state{root: true, order: -1, name: "(root)"}, byID: map[string]*state{}}
	starts, err := d.readStates(c)
	if err != nil {
		return nil, err
	}
	if err := d.readTransitions(c, starts); err != nil {
		return nil, err
	}
	// Initial transitions of the compounds and the root.
	for _, s := range append([]*state{d.root}, d.states...) {
		if s.root || isCompoundState(s) {
			if err := d.readInitial(c, s, starts[s]); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// readStates reads the states in document order: depth first from the
// top, children in chart order. It returns the start pseudo-state of
// each state (and of the root) that has one.
func (d *document) readStates(c *chart.Chart) (map[*state]*chart.State, error) {
	kids := map[string][]int{} // by parent ID, "" for the top
	seen := map[string]bool{}
	for i := range c.States {
		s := &c.States[i]
		if seen[s.ID] {
			return nil, fmt.Errorf("scref: two states with ID %q", s.ID)
		}
		seen[s.ID] = true
		switch s.Kind {
		case chart.NormalState, chart.StartState, chart.EndState, chart.ParallelState, chart.HistoryState, chart.DeepHistoryState:
		default:
			return nil, fmt.Errorf("%w: state %q of kind %s", errUnsupported, s.ID, s.Kind)
		}
		kids[s.Parent] = append(kids[s.Parent], i)
	}
	starts := map[*state]*chart.State{}
	var from []*chart.State // per state, its chart state
	var walk func(parent *state, parentID string) error
	walk = func(parent *state, parentID string) error {
		for _, i := range kids[parentID] {
			cs := &c.States[i]
			if cs.Kind == chart.StartState {
				if starts[parent] != nil || len(kids[cs.ID]) > 0 {
					return fmt.Errorf("scref: two start states in %q, or states inside start state %q", parentID, cs.ID)
				}
				starts[parent] = cs
				continue
			}
			s := &state{id: cs.ID, name: cmp.Or(cs.Name, cs.ID), kind: cs.Kind, parent: parent, order: len(d.states), marked: cs.Initial}
			d.states = append(d.states, s)
			d.byID[s.id] = s
			if isHistoryState(s) {
				parent.history = append(parent.history, s)
			} else {
				parent.children = append(parent.children, s)
			}
			from = append(from, cs)
			if err := walk(s, s.id); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(d.root, ""); err != nil {
		return nil, err
	}
	switch {
	case len(d.states)+len(starts) != len(c.States):
		return nil, errors.New("scref: a state is inside itself, or inside a state the chart does not have")
	case len(d.root.children) == 0:
		return nil, errors.New("scref: no top-level state")
	}
	// Actions, once every state is known to In().
	for i, s := range d.states {
		var err error
		if s.onentry, err = d.readActions(from[i].Entry); err != nil {
			return nil, err
		}
		if s.onexit, err = d.readActions(from[i].Exit); err != nil {
			return nil, err
		}
	}
	return starts, nil
}

// readTransitions reads the transitions, each state's in the order they
// are tried: by Order, then in chart order. A history state's is its
// default; a start state's is read by readInitial.
func (d *document) readTransitions(c *chart.Chart, starts map[*state]*chart.State) error {
	isStart := map[string]bool{}
	for _, st := range starts {
		isStart[st.ID] = true
	}
	order := make([]int, len(c.Transitions))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(c.Transitions[a].Order, c.Transitions[b].Order) })
	for _, i := range order {
		ct := &c.Transitions[i]
		d.descs = append(d.descs, strings.Fields(ct.Event)...)
		src := d.root
		switch {
		case ct.AnyState:
		case isStart[ct.From]:
			continue
		default:
			if src = d.byID[ct.From]; src == nil {
				return fmt.Errorf("scref: transition %q leaves %q, which the chart does not have", ct.ID, ct.From)
			}
		}
		t, err := d.readTransition(ct, src)
		if err != nil {
			return err
		}
		switch {
		case !isHistoryState(src):
			src.transitions = append(src.transitions, t)
		case src.transition != nil:
			return fmt.Errorf("scref: history state %q has two transitions", src.id)
		default:
			src.transition = t
		}
	}
	for _, s := range d.states {
		if isHistoryState(s) && s.transition == nil {
			return fmt.Errorf("scref: history state %q has no transition", s.id)
		}
	}
	return nil
}

// readInitial sets the initial transition of compound (or root) s: to
// the child marked Initial, else its start state's transition, else to
// its first child.
func (d *document) readInitial(c *chart.Chart, s *state, start *chart.State) error {
	var marked *state
	for _, k := range s.children {
		if k.marked {
			if marked != nil {
				return fmt.Errorf("scref: %q and %q are both initial", marked.id, k.id)
			}
			marked = k
		}
	}
	switch {
	case marked != nil && start != nil:
		return fmt.Errorf("scref: state %q has a start state and an initial state", s.id)
	case marked != nil:
		s.initial = &transition{source: s, target: []*state{marked}}
	case start != nil:
		var found *chart.Transition
		for i := range c.Transitions {
			if t := &c.Transitions[i]; !t.AnyState && t.From == start.ID {
				if found != nil {
					return fmt.Errorf("scref: start state %q has two transitions", start.ID)
				}
				found = t
			}
		}
		if found == nil {
			return fmt.Errorf("scref: start state %q has no transition", start.ID)
		}
		t, err := d.readTransition(found, s)
		if err != nil {
			return err
		}
		if len(t.target) == 0 {
			return fmt.Errorf("scref: start state %q leads nowhere", start.ID)
		}
		t.events, t.cond, t.internal = nil, nil, false // a default transition has only targets and actions
		s.initial = t
	default:
		s.initial = &transition{source: s, target: []*state{s.children[0]}}
	}
	return nil
}

// readTransition reads transition ct leaving src.
func (d *document) readTransition(ct *chart.Transition, src *state) (*transition, error) {
	t := &transition{source: src, internal: ct.Internal}
	if ct.Push {
		return nil, fmt.Errorf("%w: transition %q pushes", errUnsupported, ct.ID)
	}
	switch ct.Target.Kind {
	case chart.ToNone:
		if len(ct.Also) > 0 {
			return nil, fmt.Errorf("scref: transition %q has no target but more targets", ct.ID)
		}
	case chart.ToState:
		for _, id := range append([]string{ct.Target.State}, ct.Also...) {
			s := d.byID[id]
			if s == nil {
				return nil, fmt.Errorf("scref: transition %q goes to %q, which is no state", ct.ID, id)
			}
			t.target = append(t.target, s)
		}
	default:
		return nil, fmt.Errorf("%w: transition %q to the %s", errUnsupported, ct.ID, ct.Target.Kind)
	}
	t.events = strings.Fields(ct.Event)
	for _, e := range t.events {
		if rest, ok := strings.CutPrefix(e, "after"); ok && rest != "" && (rest[0] == '(' || rest[0] >= '0' && rest[0] <= '9') || e == "after" {
			return nil, fmt.Errorf("%w: transition %q: state timer %q", errUnsupported, ct.ID, ct.Event)
		}
	}
	var err error
	if t.cond, err = d.readCond(ct.Guard); err != nil {
		return nil, fmt.Errorf("scref: transition %q: %w", ct.ID, err)
	}
	if t.content, err = d.readActions(ct.Actions); err != nil {
		return nil, err
	}
	return t, nil
}

// readCond parses a guard; "" is none.
func (d *document) readCond(g string) (cond.Expr, error) {
	if strings.TrimSpace(g) == "" {
		return nil, nil
	}
	e, err := cond.Parse(g)
	if err != nil {
		return nil, err
	}
	for _, id := range e.States() {
		if d.byID[id] == nil {
			return nil, fmt.Errorf("In(%s): no such state", id)
		}
	}
	return e, nil
}

// readActions reads a list of actions.
func (d *document) readActions(list []chart.Action) ([]action, error) {
	var out []action
	for _, a := range list {
		switch a.Kind {
		case chart.GameAction, chart.RaiseAction, chart.SendAction, chart.CancelAction:
		default:
			return nil, fmt.Errorf("scref: action of kind %s", a.Kind)
		}
		if (a.Kind == chart.RaiseAction || a.Kind == chart.SendAction) && a.Event == "" {
			return nil, fmt.Errorf("scref: %s of no event", a.Kind)
		}
		e, err := d.readCond(a.Guard)
		if err != nil {
			return nil, fmt.Errorf("scref: action guard: %w", err)
		}
		out = append(out, action{Action: a, cond: e})
	}
	return out, nil
}
