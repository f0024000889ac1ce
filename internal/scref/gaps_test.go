package scref_test

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
)

// TestIgnoredInParallel checks what the differential test's author found
// package compile to drop without a word: a parallel state's children
// are all entered, so a start state inside one is an error and an Initial
// mark on one of its regions a warning (SCXML's <parallel> has no
// <initial>). When it compiles, the table and the reference agree.
func TestIgnoredInParallel(t *testing.T) {
	to := func(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }
	region := func(id, parent string, initial bool) chart.State {
		return chart.State{ID: id, Name: id, Parent: parent, Initial: initial, Pos: diag.Pos{Shape: id}}
	}
	parallel := func(s chart.State) chart.State { s.Kind = chart.ParallelState; return s }
	tests := []struct {
		name   string
		states []chart.State
		trans  []chart.Transition
		want   string // in a diagnostic
		error  bool   // the diagnostic is an error
	}{{
		// The start state would enter B2 with the action door=shut.
		name: "start state in a parallel state",
		states: []chart.State{parallel(region("P", "", true)),
			{ID: "start1", Kind: chart.StartState, Parent: "P", Pos: diag.Pos{Shape: "start1"}},
			region("A", "P", false), region("B", "P", false), region("B1", "B", false), region("B2", "B", false)},
		trans: []chart.Transition{{ID: "t1", From: "start1", Order: 1, Target: to("B2"),
			Actions: []chart.Action{{Property: "door", Value: "shut"}}}},
		want:  `start state "start1" is in parallel state "P", which has no initial state`,
		error: true,
	}, {
		name: "initial region",
		states: []chart.State{parallel(region("P", "", true)),
			region("A", "P", false), region("B", "P", true), region("A1", "A", false), region("A2", "A", false)},
		want: `region "B" of parallel state "P" is marked initial; the mark is ignored`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &chart.Chart{Name: "gap", Statechart: true, States: tt.states, Transitions: tt.trans}
			if c.Transitions == nil {
				c.Transitions = []chart.Transition{}
			}
			res, err := compile.Compile(c, compile.Options{})
			var all []string
			found := false
			for _, d := range res.Diagnostics {
				all = append(all, d.Error())
				found = found || strings.Contains(d.Message, tt.want) && (d.Severity == diag.Error) == tt.error
			}
			if !found || (err != nil) != tt.error {
				t.Fatalf("Compile: %v; diagnostics:\n%s\nwant one saying %q", err, strings.Join(all, "\n"), tt.want)
			}
			if err != nil {
				return
			}
			var st stats
			if d := compare(c, res, randomScript(1, 3, c), &st); d != "" {
				t.Fatalf("table and reference differ: %s", d)
			}
		})
	}
}
