package statesmith

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// Reading is what an importer gathers while it reads a drawing made for
// StateSmith, for [Reading.Finish]: the points it records, and what
// [Reading.State] and [Reading.Edge] read, and the regions and history
// continue vertices for [Reading.Hierarchy]. The zero value is ready to
// use; it is not safe for concurrent use.
type Reading struct {
	Points    []Point    // entry and exit points
	Regions   []Region   // $ORTHO regions, for [Reading.Hierarchy]
	Continues []Continue // $HC vertices, for [Reading.Hierarchy]

	vias     []Via     // transitions through the points
	handlers []Handler // events states stop without a transition
	events   Events    // the drawing's events, each with one spelling
}

// State reads the behaviour written in state id below its name
// ([StateHandlers]) and keeps its handlers, at pos, for Finish, their
// events named as the chart knows them ([Events]). It returns the
// behaviour's problems, which the importer says are about the state, and
// then the warnings about the spellings of its events. Neither has a
// position: both are at the state.
func (r *Reading) State(id string, pos diag.Pos, behaviour string) (problems, spellings []importer.Problem) {
	hs, problems := StateHandlers(behaviour)
	for _, h := range hs {
		h.State, h.Pos = id, pos
		if h.Event != "" {
			var ps []importer.Problem
			h.Event, ps = r.events.Name(h.Event)
			spellings = append(spellings, ps...)
		}
		r.handlers = append(r.handlers, h)
	}
	return problems, spellings
}

// Edge reads the label of an edge that leaves a vertex of kind from
// ([EdgeTransitions]): the transitions it stands for, their events named
// as the chart knows them ([Events]). The importer appends them to the
// chart in this order, the first at index first of its Transitions, so
// that Finish resolves those that go through points ([Via]). It returns
// the label's problems, which the importer says are about the edge, and
// then the warnings about the spellings of its events. Neither has a
// position: both are at the edge.
func (r *Reading) Edge(label string, from Kind, first int) (ts []Transition, problems, spellings []importer.Problem) {
	ts, problems = EdgeTransitions(label, from)
	for k := range ts {
		t := &ts[k]
		if t.Event != "" {
			var ps []importer.Problem
			t.Event, ps = r.events.Name(t.Event)
			spellings = append(spellings, ps...)
		}
		if t.ViaEntry != "" || t.ViaExit != "" {
			r.vias = append(r.vias, Via{Transition: first + k, Entry: t.ViaEntry, Exit: t.ViaExit})
		}
	}
	return ts, problems, spellings
}

// Finish makes a chart read from a drawing made for StateSmith, whose
// states nest, mean what StateSmith makes of the drawing, and reports
// what it cannot say, in this order: [ResolveVias] (r's points and the
// vias of its edges), [EnterStarts], [CheckStarts], [CheckHandlers] (the
// handlers of its states). A drawing not made for StateSmith needs only
// CheckStarts. [Reading.Hierarchy] reads the regions and histories after
// it.
func (r *Reading) Finish(c *chart.Chart) []importer.Problem {
	ps := ResolveVias(c, r.Points, r.vias)
	ps = append(ps, EnterStarts(c)...)
	ps = append(ps, CheckStarts(c)...)
	return append(ps, CheckHandlers(c, r.handlers)...)
}

// Point is an entry or exit point drawn inside a state: in the chart, a
// choice pseudo-state whose Parent is that state.
type Point struct {
	State  string // the chart ID of the point's choice pseudo-state
	Parent string // the chart ID of the state it is drawn in
	Label  string // "1", "from_back"
	Exit   bool   // an exit point; false for an entry point
	Pos    diag.Pos
}

// Via is a transition of the chart that goes through a point: "via entry
// L" enters its target through the entry point L drawn inside it, "via
// exit L" leaves its source's exit point L.
type Via struct {
	Transition  int // index in the chart's Transitions
	Entry, Exit string
}

// ResolveVias makes the transitions that go through entry and exit points
// start and end where StateSmith makes them: a transition into state S
// "via entry L" goes to S's entry point L, whose own transitions lead on
// inside S; a transition of S "via exit L" leaves from S's exit point L,
// which the states inside S enter to leave S that way. A point drawn twice
// in a state and a name no point has are errors; an exit point that no
// transition names is a warning. It costs time linear in the points and
// the vias.
func ResolveVias(c *chart.Chart, points []Point, vias []Via) []importer.Problem {
	type key struct {
		parent, label string
		exit          bool
	}
	var ps []importer.Problem
	name := names{c: c}
	byKey := make(map[key]*Point, len(points))
	used := make(map[key]bool)
	for i := range points {
		p := &points[i]
		k := key{p.Parent, p.Label, p.Exit}
		if byKey[k] != nil {
			ps = append(ps, importer.Problem{Pos: p.Pos, Severity: diag.Error, Hint: hintTwice,
				Message: fmt.Sprintf("%s %q is drawn twice in state %q", pointKind(p.Exit), p.Label, name.of(p.Parent))})
			continue
		}
		byKey[k] = p
	}
	for _, v := range vias {
		t := &c.Transitions[v.Transition]
		if v.Entry != "" {
			k := key{t.Target.State, v.Entry, false}
			if p := byKey[k]; p != nil && t.Target.Kind == chart.ToState {
				t.Target.State = p.State
				used[k] = true
			} else {
				ps = append(ps, importer.Problem{Pos: t.Pos, Severity: diag.Error,
					Message: fmt.Sprintf("the transition goes via entry %q, but the state it enters, %q, has no entry point %q", v.Entry, name.of(t.Target.State), v.Entry),
					Hint:    "draw the entry point inside the state (a shape labelled \"entry : " + v.Entry + "\"), or correct the label"})
			}
		}
		if v.Exit != "" {
			k := key{t.From, v.Exit, true}
			if p := byKey[k]; p != nil && !t.AnyState {
				t.From = p.State
				used[k] = true
			} else {
				ps = append(ps, importer.Problem{Pos: t.Pos, Severity: diag.Error,
					Message: fmt.Sprintf("the transition goes via exit %q, but the state it leaves, %q, has no exit point %q", v.Exit, name.of(t.From), v.Exit),
					Hint:    "draw the exit point inside the state (a shape labelled \"exit : " + v.Exit + "\"), or correct the label"})
			}
		}
	}
	for i := range points {
		p := &points[i]
		if p.Exit && !used[key{p.Parent, p.Label, true}] {
			ps = append(ps, importer.Problem{Pos: p.Pos, Severity: diag.Warning,
				Message: fmt.Sprintf("exit point %q of state %q: no transition of the state goes via exit %q, so the machine stays in the point once it enters it", p.Label, name.of(p.Parent), p.Label),
				Hint:    "label the transition that leaves the state this way \"via exit " + p.Label + "\""})
		}
	}
	return ps
}

func pointKind(exit bool) string {
	if exit {
		return "exit point"
	}
	return "entry point"
}

// names names the states of a chart for messages: by name, or by ID for
// a state without one. It indexes the states when first asked, so that
// a chart without problems costs nothing.
type names struct {
	c  *chart.Chart
	by map[string]string // a state's name by ID; the first of a duplicated ID
}

// of names state id.
func (n *names) of(id string) string {
	if n.by == nil {
		n.by = make(map[string]string, len(n.c.States))
		for i := range n.c.States {
			st := &n.c.States[i]
			if _, dup := n.by[st.ID]; !dup {
				n.by[st.ID] = st.Name
			}
		}
	}
	if name := n.by[id]; name != "" {
		return name
	}
	return id
}

// Handler is an event a state handles in its own behaviour, without a
// transition, so that it does not reach the states around it
// ([StateHandlers]): "EV / count++;" written in the state.
type Handler struct {
	State string // the chart ID of the state; set by the importer
	Event string // the event; "" for the do event, the machine's update
	Guard string // the handler stops the event only when it holds; "" for always
	Text  string // the behaviour as written
	Pos   diag.Pos
}

// CheckHandlers reports the handlers that change what the chart means:
// in StateSmith, a state that handles an event stops it there, so a
// transition on the same event (whatever its case) of a state it is drawn
// in is not taken while the machine is in it; a state that consumes the
// do event likewise stops the transitions without an event, taken on the
// update, of the states around it. fsmforge, which keeps no handler
// without a transition, would take them. Each is an error naming the
// state, the event and the transition. A guarded handler stops the
// transition only when its guard holds, but then the chart still means
// something else: an error too, which says so. CheckHandlers runs on a
// chart whose states still nest; it costs time linear in the chart and in
// the handlers times the depth of their states.
func CheckHandlers(c *chart.Chart, hs []Handler) []importer.Problem {
	if len(hs) == 0 {
		return nil
	}
	parent := make(map[string]string, len(c.States))
	for i := range c.States {
		parent[c.States[i].ID] = c.States[i].Parent
	}
	type ev struct{ state, event string }
	on := make(map[ev]int) // the first transition of a state on an event ("" for the update), by its lower case
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if t.AnyState {
			continue
		}
		k := ev{t.From, strings.ToLower(t.Event)}
		if _, ok := on[k]; !ok {
			on[k] = i
		}
	}
	var ps []importer.Problem
	name := names{c: c}
	for _, h := range hs {
		seen := 0
		for p := parent[h.State]; p != "" && seen <= len(c.States); p = parent[p] {
			seen++
			if i, ok := on[ev{p, strings.ToLower(h.Event)}]; ok {
				ps = append(ps, stops(&name, &h, p, &c.Transitions[i]))
				break
			}
		}
	}
	return ps
}

// stops is the error of a handler that stops transition t of state p.
func stops(name *names, h *Handler, p string, t *chart.Transition) importer.Problem {
	when, hint := "", "to keep the machine in the state on "+t.Event+", draw a transition on it from the state to itself; or remove the handler"
	if h.Guard != "" {
		when = " and the guard [" + h.Guard + "] holds"
		hint = "to keep the machine in the state on " + t.Event + " [" + h.Guard + "], draw a transition on it from the state to itself; or remove the handler"
	}
	if h.Event == "" {
		return importer.Problem{Pos: h.Pos, Severity: diag.Error, Hint: hintDo,
			Message: fmt.Sprintf("state %q consumes the do event (%s), which stops the transition %s of state %q (%s) while the machine is in it%s; a chart cannot say so",
				name.of(h.State), strconv.Quote(h.Text), t.ID, name.of(p), strconv.Quote(t.Label), when)}
	}
	return importer.Problem{Pos: h.Pos, Severity: diag.Error, Hint: hint,
		Message: fmt.Sprintf("state %q handles %s itself (%s), which stops the transition on %s of state %q (%s) while the machine is in it%s; fsmforge keeps no handler without a transition, so it would take that transition",
			name.of(h.State), h.Event, strconv.Quote(h.Text), t.Event, name.of(p), strconv.Quote(t.Label), when)}
}

// EnterStarts makes the transitions into a start pseudo-state (StateSmith's
// $initial_state) go where its one transition leads, as StateSmith takes
// it, as a choice's: a note says so. A start whose transitions do not lead
// to one state without a condition (several, or one with an event or a
// guard) is an error for each transition into it, which goes where the
// start's first transition leads; a start
// without a transition, or whose first leads to itself, is an error too,
// and the transitions into it are left as they are. It costs time linear
// in the chart.
func EnterStarts(c *chart.Chart) []importer.Problem {
	kind := make(map[string]chart.StateKind, len(c.States))
	for i := range c.States {
		kind[c.States[i].ID] = c.States[i].Kind
	}
	out := make(map[string][]int)
	for i := range c.Transitions {
		if t := &c.Transitions[i]; kind[t.From] == chart.StartState && !t.AnyState {
			out[t.From] = append(out[t.From], i)
		}
	}
	var ps []importer.Problem
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if t.Target.Kind != chart.ToState || kind[t.Target.State] != chart.StartState {
			continue
		}
		start, ts := t.Target.State, out[t.Target.State]
		if len(ts) == 0 || c.Transitions[ts[0]].Target.State == start {
			ps = append(ps, importer.Problem{Pos: t.Pos, Severity: diag.Error, Hint: hintEnterStart,
				Message: fmt.Sprintf("edge %s enters the initial state %s, which does not lead to one state", t.ID, start)})
			continue
		}
		u := &c.Transitions[ts[0]]
		t.Target = u.Target
		if len(ts) == 1 && u.Event == "" && u.Guard == "" {
			ps = append(ps, importer.Problem{Pos: t.Pos, Severity: diag.Note,
				Message: fmt.Sprintf("edge %s enters the initial state %s: it goes where the initial state leads, to %s", t.ID, start, t.Target)})
			continue
		}
		ps = append(ps, importer.Problem{Pos: t.Pos, Severity: diag.Error, Hint: hintEnterStart,
			Message: fmt.Sprintf("edge %s enters the initial state %s, which does not lead to one state without a condition; read as going where its first transition leads, to %s", t.ID, start, t.Target)})
	}
	return ps
}

// CheckStarts reports the start pseudo-states inside a state that a chart
// cannot read as drawn: a chart enters a compound state through the one
// transition of its start, without a test (package compile; and
// [chart.Flatten] enters the first target of a start's transitions), so
// a start with several (StateSmith's and Kingly's conditional initial
// transitions), or whose one transition has an event or a guard, is an
// error at the start; an action on it is code, not run: a warning at the
// transition. It costs time linear in the chart.
func CheckStarts(c *chart.Chart) []importer.Problem {
	var starts []int // nested starts, in the chart's order
	out := make(map[string][]*chart.Transition)
	for i := range c.States {
		if st := &c.States[i]; st.Kind == chart.StartState && st.Parent != "" {
			starts = append(starts, i)
			out[st.ID] = nil
		}
	}
	if len(starts) == 0 {
		return nil
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if ts, ok := out[t.From]; ok && !t.AnyState {
			out[t.From] = append(ts, t)
		}
	}
	var ps []importer.Problem
	name := names{c: c}
	for _, i := range starts {
		st := &c.States[i]
		ts := out[st.ID]
		if len(ts) == 0 {
			continue
		}
		switch t := ts[0]; {
		case len(ts) > 1:
			ps = append(ps, importer.Problem{Pos: st.Pos, Severity: diag.Error, Hint: hintChoice,
				Message: fmt.Sprintf("the initial state of state %q has %d transitions: a conditional initial transition inside a state is not supported yet, as entering the state would always take the first", name.of(st.Parent), len(ts))})
		case t.Event != "" || t.Guard != "":
			ps = append(ps, importer.Problem{Pos: st.Pos, Severity: diag.Error, Hint: hintChoice,
				Message: fmt.Sprintf("the transition of the initial state of state %q has a trigger or a guard (%s): not supported yet, as entering the state always takes it", name.of(st.Parent), strconv.Quote(t.Label))})
		case t.Action != "":
			ps = append(ps, importer.Problem{Pos: t.Pos, Severity: diag.Warning, Hint: hintCode,
				Message: fmt.Sprintf("the action of the initial transition of state %q is code for a code generator, which fsmforge does not run: %s", name.of(st.Parent), strconv.Quote(t.Action))})
		}
	}
	return ps
}
