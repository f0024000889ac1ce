package drawio

import (
	"math"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// This file writes and reads the actions of a plain diagram's states and
// transitions (AttrEntry, AttrExit, AttrActions): one action a line, in
// the grammar of chart.ParseActions and chart.FormatAction ("[low] raise
// flee").

// formatActions writes actions one a line.
func formatActions(as []chart.Action) string {
	lines := make([]string, len(as))
	for i, a := range as {
		lines[i] = chart.FormatAction(a)
	}
	return strings.Join(lines, "\n")
}

// checkAction returns what keeps an action from being written so that
// it reads back, or "": a kind it does not know, a field its kind does
// not use, a delay that is not a number of seconds from 0.
func checkAction(a chart.Action) string {
	var stray []string
	extra := func(set bool, field string) {
		if set {
			stray = append(stray, field)
		}
	}
	switch a.Kind {
	case chart.GameAction:
		extra(a.Event != "", "an event")
		extra(a.Delay != 0, "a delay")
		extra(a.Timer != "", "a timer")
	case chart.RaiseAction:
		extra(a.Property != "" || a.Value != "", "a property or value")
		extra(a.Delay != 0, "a delay")
		extra(a.Timer != "", "a timer")
	case chart.SendAction:
		extra(a.Property != "" || a.Value != "", "a property or value")
		if a.Delay < 0 || math.IsNaN(a.Delay) || math.IsInf(a.Delay, 0) {
			return "a send action with delay " + strconv.FormatFloat(a.Delay, 'g', -1, 64) + ": a delay is 0 or more seconds"
		}
	case chart.CancelAction:
		extra(a.Property != "" || a.Value != "", "a property or value")
		extra(a.Event != "", "an event")
		extra(a.Delay != 0, "a delay")
	default:
		return "an action of unknown kind " + strconv.Itoa(int(a.Kind))
	}
	if len(stray) > 0 {
		return "a " + a.Kind.String() + " action with " + strings.Join(stray, " and ") + ", which it does not use"
	}
	return ""
}

// badAction is a line of an actions attribute that does not read.
type badAction struct {
	line int    // from 1
	text string // the line, trimmed
	why  string
}

// parseActions reads the actions of an attribute (chart.ParseActions),
// each at pos, and returns those that do not read apart; over, when the
// text holds more than max actions, those that do not read counted
// (nothing else is then returned). Its time is linear in the text; it
// allocates for what it returns.
func parseActions(text string, pos diag.Pos, max int) (as []chart.Action, bad []badAction, over bool) {
	as, errs := chart.ParseActions(text, pos)
	if len(as)+len(errs) > max {
		return nil, nil, true
	}
	for _, e := range errs {
		bad = append(bad, badAction{line: e.Line, text: e.Text, why: e.Why})
	}
	return as, bad, false
}
