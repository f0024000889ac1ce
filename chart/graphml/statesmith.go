package graphml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// This file reads the drawings made for StateSmith the way StateSmith's
// yEd importer and its processing read them: what a node's label says
// (package internal/statesmith), the behaviours of an edge's label, and
// what the drawing can say that a chart cannot hold, which is refused.

// dropHint is the hint of the diagnostics about code in the drawing.
const dropHint = "No code from the drawing is run: a state's entry actions come from a stencil's properties, and the game does the rest."

// report adds the problems package internal/statesmith found as
// diagnostics: about says what they are about ("edge e1: "), and at is
// where those without a position of their own are.
func (in *interp) report(ps []importer.Problem, at diag.Pos, about string) {
	in.c.Diagnostics = importer.AppendDiagnostics(in.c.Diagnostics, ps, "graphml: ", about, at, sentence)
}

// sentence writes a hint of package internal/statesmith (lower case, no
// final period) as this package writes its hints: a sentence.
func sentence(hint string) string {
	if hint == "" {
		return ""
	}
	if c := hint[0]; c >= 'a' && c <= 'z' {
		hint = string(c-'a'+'A') + hint[1:]
	}
	if !strings.HasSuffix(hint, ".") {
		hint += "."
	}
	return hint
}

// madeForStateSmith reports whether a node of a drawing read without a
// stencil is labelled with one of StateSmith's keywords ($initial_state,
// $choice, $NOTES, "entry : 1"...): the drawing was made for StateSmith,
// and its labels follow its grammar.
func (in *interp) madeForStateSmith() bool {
	if in.st != nil {
		return false
	}
	for _, n := range in.nodes {
		if statesmith.IsKeyword(n.label) {
			return true
		}
	}
	return false
}

// isConfig reports whether a node holds settings of StateSmith's code
// generator ($CONFIG, $RenderConfig).
func isConfig(n *node) bool {
	k := n.vertex().Kind
	return k == statesmith.Config || k == statesmith.RenderConfig
}

// classifyStateSmith reads the i-th node of a drawing made for StateSmith
// by what its label says.
func (in *interp) classifyStateSmith(i int, n *node) {
	v := n.vertex()
	at := in.at(n.e, n.id, importer.Shorten(shownName(n.label), 40))
	bad := func(hint, format string, args ...any) {
		n.what = isBad
		in.diag(diag.Error, at, hint, format, args...)
	}
	// in.members(i), which counts the nodes inside, is asked only where
	// it is needed: not of a named state, the most common of nodes.
	switch v.Kind {
	case statesmith.Notes:
		n.what = isNotes
		in.diag(diag.Note, at, "", "$NOTES node: it and the %s inside it are notes, not part of the chart", importer.Plural(in.members(i), "node"))
	case statesmith.Config, statesmith.RenderConfig:
		in.config(i, n, v, at)
	case statesmith.Machine:
		bad("Draw one state machine per file, in a $STATEMACHINE group at the top level.",
			"%s node %s is drawn inside another node: a state machine inside another is not supported; it, what it holds and its edges are left out", v.Kind, n.id)
	case statesmith.Ortho:
		// A region: [statesmith.Reading.Hierarchy] makes the state
		// around it parallel.
		n.what, n.kind, n.name = isState, chart.NormalState, v.Name
		in.smith.Regions = append(in.smith.Regions, statesmith.Region{State: n.id, Order: v.Order, Pos: in.at(n.e, n.id, v.Name)})
		in.behaviour(n, v.Behaviour)
	case statesmith.History, statesmith.HistoryContinue:
		in.smithHistory(i, n, v, bad)
	case statesmith.ParentAlias:
		switch p := parentState(n); {
		case p == nil && in.machine != nil && n.in == 0 && n.out == 0:
			n.what = isIgnored
			in.diag(diag.Note, at, "", "$PARENT_ALIAS node %s stands for the whole machine and has no edge: not part of the chart", n.id)
		case p == nil && in.machine != nil:
			bad("Draw the transitions from or to the states themselves.",
				"$PARENT_ALIAS node %s stands for the whole machine: transitions to or from the machine itself are not supported; its edges are left out", n.id)
		case p == nil:
			bad("Draw the $PARENT_ALIAS inside the group it stands for.", "$PARENT_ALIAS node %s is drawn in no state: it stands for no state; its edges are left out", n.id)
		case in.members(i) > 0:
			bad("Draw the nodes beside the $PARENT_ALIAS, not inside it.", "$PARENT_ALIAS node %s holds other nodes, which StateSmith refuses", n.id)
		default:
			n.what, n.stateID = isAlias, p.id
		}
	case statesmith.Initial, statesmith.Choice, statesmith.EntryPoint, statesmith.ExitPoint:
		in.pseudoState(n, v, in.members(i), bad)
	case statesmith.State:
		switch {
		case isHistory(n) && !statesmith.IsStateName(v.Name):
			// "H*" is no StateSmith name: it can only be UML's deep history,
			// which StateSmith does not read.
			bad("Label it $H, and draw a $HC in each state inside the state around it, for StateSmith's deep history.",
				"history node %s %q: StateSmith reads neither a state of that name nor UML's deep history; it and its edges are left out", n.id, shownName(n.label))
		case isHistory(n):
			// StateSmith reads "H" as a state named H (its history is $H).
			n.what, n.kind, n.name = isState, chart.NormalState, v.Name
			in.diag(diag.Warning, at, "Rename the state if it is one, or label the node $H for StateSmith's history.",
				"node %s is labelled %q: StateSmith reads it as a state of that name, as does this reader; in UML and Kingly drawings it would be a history pseudo-state", n.id, v.Name)
			in.behaviour(n, v.Behaviour)
		case v.Name == "" && (n.in > 0 || n.out > 0 || in.members(i) > 0):
			bad("Give the node a label: a state's name, or $initial_state for the start.",
				"node %s has no label: StateSmith reads it, what it holds and its edges as nothing", n.id)
		case v.Name == "":
			n.what = isIgnored
			in.unlabelled++
		default:
			n.what, n.kind, n.name = isState, chart.NormalState, v.Name
			if !statesmith.IsStateName(v.Name) {
				in.diag(diag.Warning, at, "Name the state with letters, digits and underscores, as StateSmith requires.",
					"state name %q is not a StateSmith identifier: StateSmith refuses the drawing; read as a state of that name", v.Name)
			}
			in.behaviour(n, v.Behaviour)
		}
	}
}

// pseudoState reads StateSmith's $initial_state, $choice and entry and
// exit points: pseudo-states, which StateSmith refuses to draw things in.
func (in *interp) pseudoState(n *node, v statesmith.Vertex, members int, bad func(hint, format string, args ...any)) {
	if members > 0 {
		bad("Draw the nodes beside it, not inside it.", "%s node %s holds other nodes, which StateSmith refuses for a pseudo-state", v.Kind, n.id)
		return
	}
	n.what = isState
	switch v.Kind {
	case statesmith.Initial:
		n.kind = chart.StartState
	case statesmith.Choice:
		n.kind, n.name = chart.ChoiceState, v.Name
	default:
		// An entry or exit point is a choice inside its state, whose
		// transitions ResolveVias makes go through it.
		p := parentState(n)
		if p == nil {
			bad("Draw the point inside the state it enters or leaves.", "%s %q (node %s) is drawn in no state", v.Kind, v.Name, n.id)
			return
		}
		n.kind, n.name = chart.ChoiceState, v.Kind.String()+" "+v.Name
		in.smith.Points = append(in.smith.Points, statesmith.Point{State: n.id, Parent: p.id, Label: v.Name,
			Exit: v.Kind == statesmith.ExitPoint, Pos: in.at(n.e, n.id, n.name)})
	}
}

// config leaves out a $CONFIG or $RenderConfig node and what it holds:
// settings of StateSmith's code generator. A TriggerMap among them renames
// the drawing's events, which fsmforge does not do: an error.
func (in *interp) config(i int, n *node, v statesmith.Vertex, at diag.Pos) {
	n.what = isNotes
	members := in.members(i)
	for _, m := range append([]*node{n}, in.nodes[i+1:i+1+members]...) {
		if statesmith.SetsTriggerMap(m.label) {
			in.diag(diag.Error, in.at(m.e, m.id, importer.Shorten(shownName(m.label), 40)),
				"Write the events' own names on the transitions, and remove the TriggerMap.",
				"node %s sets StateSmith's TriggerMap, which renames the events of the drawing; fsmforge reads the events as drawn, so it is not supported", m.id)
			return
		}
	}
	in.diag(diag.Note, at, "", "%s node %s: settings of StateSmith's code generator; it and the %s inside it are not part of the chart",
		v.Kind, n.id, importer.Plural(members, "node"))
}

// isHistory reports whether a node is a history pseudo-state drawn as
// Kingly (and UML) draw it: labelled "H" or "H*", whatever its shape, or
// an ellipse labelled "h" or "h*".
func isHistory(n *node) bool {
	l := chart.NormalizeSpace(n.label)
	return l == "H" || l == "H*" || isEllipse(n) && (l == "h" || l == "h*")
}

// behaviour reports the text written in a state below its name, which
// fsmforge does not run, and, in a drawing made for StateSmith, records
// the events the state handles without a transition, which change what
// the transitions of the states around it mean
// ([statesmith.CheckHandlers]).
func (in *interp) behaviour(n *node, text string) {
	if text == "" || n.kind != chart.NormalState {
		return
	}
	at := in.at(n.e, n.id, n.name)
	if in.st != nil {
		in.diag(diag.Note, at,
			"A state's name is its Name property or the first line of its label; its entry actions are the stencil's properties.",
			"the text below the state's name is not read: %q", importer.Shorten(chart.NormalizeSpace(text), 60))
		return
	}
	in.diag(diag.Warning, at, dropHint, "state %q: the behaviour written in it is code for a code generator, which fsmforge does not run: %q",
		n.name, importer.Shorten(chart.NormalizeSpace(text), 60))
	if !in.ss {
		return
	}
	ps, spellings := in.smith.State(n.id, at, text)
	in.report(ps, at, fmt.Sprintf("state %q: ", n.name))
	in.report(spellings, at, "")
}

// stateSmithTransitions reads the label of an edge of a drawing made for
// StateSmith ([statesmith.EdgeTransitions]): one transition per behaviour
// (a line of the label) and per trigger of its trigger list, each to the
// edge's target, tried in the behaviour's order.
func (in *interp) stateSmithTransitions(t chart.Transition, from *node) {
	ts, ps, spellings := in.smith.Edge(t.Label, statesmith.SourceKind(from.vertex().Kind, from.kind), len(in.c.Transitions))
	in.report(ps, t.Pos, "edge "+t.ID+": ")
	in.report(spellings, t.Pos, "")
	for k, st := range ts {
		u := t
		if k > 0 {
			u.ID = t.ID + "#" + strconv.Itoa(k+1)
		}
		u.Label, u.Event, u.Guard, u.Action, u.Test = st.Text, st.Event, st.Guard, st.Action, st.Test()
		in.addTransition(u, st.Order)
	}
}
