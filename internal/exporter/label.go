package exporter

import (
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
)

// Push marks the label of a transition that pushes the state it leaves.
const Push = "⤴ push"

// Stay marks the label of a transition without target (ToNone): it
// performs its actions and the machine stays where it is.
const Stay = "↺ stays"

// Internal marks the label of an internal transition: one that does not
// leave and re-enter its source to reach states inside it.
const Internal = "«internal»"

// Parallel ends the name of a parallel state, whose regions run together.
const Parallel = "‖"

// TransitionLabels returns the text drawn on each of c's transitions, by
// index into c.Transitions: what [chart.TransitionLabels] gives (its rank
// when its source has several, its test and value or, in a plain diagram,
// its label as drawn), then "/ " and its actions ([ActionText], separated
// by semicolons), then the marks of a push ([Push]), a transition without
// target ([Stay]) and an internal transition ([Internal]). The text is
// trimmed of white space at both ends, and is empty for a transition that
// has none of these. It allocates a new slice and strings.
func TransitionLabels(c *chart.Chart) []string {
	labels := chart.TransitionLabels(c)
	for i := range labels {
		labels[i] = transitionLabel(c, i, labels[i])
	}
	return labels
}

// transitionLabel returns text, the rank, test and value of transition i,
// followed by its actions and marks.
func transitionLabel(c *chart.Chart, i int, text string) string {
	t := &c.Transitions[i]
	if len(t.Actions) > 0 {
		sep := " / "
		if c.Stencil == nil && t.Label != "" && t.Action != "" {
			sep = "; " // the label as drawn already has its "/ action"
		}
		text = strings.TrimSpace(text + sep + actionList(t.Actions))
	}
	if t.Push {
		text = strings.TrimSpace(text + " " + Push)
	}
	if t.Target.Kind == chart.ToNone {
		text = strings.TrimSpace(text + " " + Stay)
	}
	if t.Internal {
		text = strings.TrimSpace(text + " " + Internal)
	}
	return text
}

// actionList is how a transition's actions read after its "/": each
// briefly, separated by semicolons.
func actionList(as []chart.Action) string {
	var b strings.Builder
	for k, a := range as {
		if k > 0 {
			b.WriteString("; ")
		}
		b.WriteString(ActionText(a))
	}
	return b.String()
}

// ActionText returns how an action reads in a label: "XMovement=left",
// "raise hit", "send timeout after 1.5s as t1" (a delay in seconds, and
// the timer that names it), "cancel t1"; preceded by its guard in
// brackets when it has one, "[low] raise flee". It is how
// [chart.FormatAction] writes actions, but for people: words as they are,
// never quoted, which each format escapes its own way.
func ActionText(a chart.Action) string {
	var s string
	switch a.Kind {
	case chart.RaiseAction:
		s = "raise " + a.Event
	case chart.SendAction:
		s = "send " + a.Event
		if a.Delay > 0 {
			s += " after " + strconv.FormatFloat(a.Delay, 'g', -1, 64) + "s"
		}
		if a.Timer != "" {
			s += " as " + a.Timer
		}
	case chart.CancelAction:
		s = "cancel " + a.Timer
	default:
		s = a.Property + "=" + a.Value
	}
	if a.Guard != "" {
		s = "[" + a.Guard + "] " + s
	}
	return s
}

// StateLabel returns what state s says, given name, the name an exporter
// shows for it (its Name, or a stand-in when that is empty or blank): name,
// followed by " " and the Parallel mark when s is a parallel state.
func StateLabel(s *chart.State, name string) string {
	if s.Kind == chart.ParallelState {
		name += " " + Parallel
	}
	return name
}

// ActionLines returns the lines under a state's name: "entry / ..." for
// each entry action, then "exit / ..." for each exit action, in order
// (see [ActionText]). It allocates one slice and the lines.
func ActionLines(s *chart.State) []string {
	lines := make([]string, 0, len(s.Entry)+len(s.Exit))
	for _, a := range s.Entry {
		lines = append(lines, "entry / "+ActionText(a))
	}
	for _, a := range s.Exit {
		lines = append(lines, "exit / "+ActionText(a))
	}
	return lines
}
