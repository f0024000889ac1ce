package chart_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

func TestStateKindPredicates(t *testing.T) {
	for _, tt := range []struct {
		k                         chart.StateKind
		history, pseudo, untested bool
	}{
		{chart.NormalState, false, false, false},
		{chart.StartState, false, true, true},
		{chart.EndState, false, true, false},
		{chart.ChoiceState, false, true, false},
		{chart.ParallelState, false, false, false},
		{chart.HistoryState, true, true, true},
		{chart.DeepHistoryState, true, true, true},
		{chart.StateKind(99), false, false, false},
	} {
		t.Run(tt.k.String(), func(t *testing.T) {
			if got := tt.k.IsHistory(); got != tt.history {
				t.Errorf("%v.IsHistory() = %v, want %v", tt.k, got, tt.history)
			}
			if got := tt.k.IsPseudo(); got != tt.pseudo {
				t.Errorf("%v.IsPseudo() = %v, want %v", tt.k, got, tt.pseudo)
			}
			if got := tt.k.UntestedTransition(); got != tt.untested {
				t.Errorf("%v.UntestedTransition() = %v, want %v", tt.k, got, tt.untested)
			}
		})
	}
}

func TestRolePredicates(t *testing.T) {
	for _, tt := range []struct {
		r                 chart.Role
		state, hasActions bool
		kind              chart.StateKind
	}{
		{chart.RoleNone, false, false, chart.NormalState},
		{chart.RoleState, true, true, chart.NormalState},
		{chart.RoleInitial, true, true, chart.NormalState},
		{chart.RoleTransition, false, false, chart.NormalState},
		{chart.RoleAnyState, false, false, chart.NormalState},
		{chart.RoleComposite, true, true, chart.NormalState},
		{chart.RoleParallel, true, true, chart.ParallelState},
		{chart.RoleHistory, true, false, chart.HistoryState},
		{chart.RoleDeepHistory, true, false, chart.DeepHistoryState},
		{chart.RoleStart, true, false, chart.StartState},
	} {
		t.Run(tt.r.String(), func(t *testing.T) {
			if got := tt.r.IsState(); got != tt.state {
				t.Errorf("%v.IsState() = %v, want %v", tt.r, got, tt.state)
			}
			if got := tt.r.HasActions(); got != tt.hasActions {
				t.Errorf("%v.HasActions() = %v, want %v", tt.r, got, tt.hasActions)
			}
			if got := tt.r.Kind(); got != tt.kind {
				t.Errorf("%v.Kind() = %v, want %v", tt.r, got, tt.kind)
			}
			// A master's shapes carry entry actions only if they are
			// states, and not pseudo-states.
			if tt.r.HasActions() && (!tt.r.IsState() || tt.r.Kind().IsPseudo()) {
				t.Errorf("%v carries actions but is no state, or a pseudo-state", tt.r)
			}
		})
	}
}
