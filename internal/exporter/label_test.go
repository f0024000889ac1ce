package exporter

import (
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

func TestActionText(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    chart.Action
		want string
	}{
		{"game action", chart.Action{Property: "XMovement", Value: "left"}, "XMovement=left"},
		{"game action, empty", chart.Action{}, "="},
		{"raise", chart.Action{Kind: chart.RaiseAction, Event: "hit"}, "raise hit"},
		{"send", chart.Action{Kind: chart.SendAction, Event: "e"}, "send e"},
		{"send after", chart.Action{Kind: chart.SendAction, Event: "e", Delay: 1.5}, "send e after 1.5s"},
		{"send after, whole", chart.Action{Kind: chart.SendAction, Event: "e", Delay: 2}, "send e after 2s"},
		{"send after, small", chart.Action{Kind: chart.SendAction, Event: "e", Delay: 1e-7}, "send e after 1e-07s"},
		{"send after, negative", chart.Action{Kind: chart.SendAction, Event: "e", Delay: -1}, "send e"},
		{"send as", chart.Action{Kind: chart.SendAction, Event: "e", Timer: "t"}, "send e as t"},
		{"send after as", chart.Action{Kind: chart.SendAction, Event: "timeout", Delay: 1.5, Timer: "t1"}, "send timeout after 1.5s as t1"},
		{"cancel", chart.Action{Kind: chart.CancelAction, Timer: "t1"}, "cancel t1"},
		{"guarded", chart.Action{Kind: chart.RaiseAction, Event: "flee", Guard: "low"}, "[low] raise flee"},
		{"guarded game action", chart.Action{Property: "p", Value: "1", Guard: "x > 2"}, "[x > 2] p=1"},
		{"other fields ignored", chart.Action{Kind: chart.CancelAction, Timer: "t", Event: "e", Property: "p", Delay: 3}, "cancel t"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := ActionText(tt.a); got != tt.want {
				t.Errorf("ActionText(%+v) = %q, want %q", tt.a, got, tt.want)
			}
		})
	}
}

func TestTransitionLabels(t *testing.T) {
	raise := chart.Action{Kind: chart.RaiseAction, Event: "e"}
	cancel := chart.Action{Kind: chart.CancelAction, Timer: "t"}
	none := chart.Target{Kind: chart.ToNone}
	for _, tt := range []struct {
		name    string
		stencil bool
		ts      []chart.Transition
		want    []string
	}{
		{"none", true, nil, []string{}},
		{"empty", true, []chart.Transition{{From: "a"}}, []string{""}},
		{"test", true, []chart.Transition{{From: "a", Test: "go"}}, []string{"go"}},
		{"test and value", true, []chart.Transition{{From: "a", Test: "hp <", Value: "30"}}, []string{"hp < (30)"}},
		{"actions", true, []chart.Transition{{From: "a", Test: "go", Actions: []chart.Action{raise, cancel}}},
			[]string{"go / raise e; cancel t"}},
		{"actions only", true, []chart.Transition{{From: "a", Actions: []chart.Action{raise}}}, []string{"/ raise e"}},
		{"push", true, []chart.Transition{{From: "a", Test: "go", Push: true}}, []string{"go " + Push}},
		{"push only", true, []chart.Transition{{From: "a", Push: true}}, []string{Push}},
		{"stays", true, []chart.Transition{{From: "a", Test: "tick", Target: none}}, []string{"tick " + Stay}},
		{"internal", true, []chart.Transition{{From: "a", Test: "go", Internal: true}}, []string{"go " + Internal}},
		{"every mark, in order", true, []chart.Transition{{From: "a", Test: "go", Actions: []chart.Action{raise}, Push: true, Target: none, Internal: true}},
			[]string{"go / raise e " + Push + " " + Stay + " " + Internal}},
		{"ranked", true, []chart.Transition{{From: "a", Test: "x", Order: 2}, {From: "a", Test: "y", Order: 1, Actions: []chart.Action{cancel}}, {From: "b", Test: "z"}},
			[]string{"2. x", "1. y / cancel t", "z"}},
		{"plain: the label as drawn", false, []chart.Transition{{From: "a", Test: "go", Value: "1", Label: "go!"}}, []string{"go!"}},
		{"plain: label with its action", false, []chart.Transition{{From: "a", Label: "go / run", Action: "run", Actions: []chart.Action{raise}}},
			[]string{"go / run; raise e"}},
		{"plain: action without label", false, []chart.Transition{{From: "a", Test: "go", Action: "run", Actions: []chart.Action{raise}}},
			[]string{"go / raise e"}},
		{"stencil: label ignored", true, []chart.Transition{{From: "a", Test: "go", Label: "go / run", Action: "run", Actions: []chart.Action{raise}}},
			[]string{"go / raise e"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &chart.Chart{Transitions: tt.ts}
			if tt.stencil {
				c.Stencil = &chart.Stencil{Name: "s"}
			}
			if got := TransitionLabels(c); !slices.Equal(got, tt.want) {
				t.Errorf("TransitionLabels = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStateLabel(t *testing.T) {
	for _, tt := range []struct {
		kind chart.StateKind
		name string
		want string
	}{
		{chart.NormalState, "idle", "idle"},
		{chart.NormalState, "", ""},
		{chart.ParallelState, "engage", "engage " + Parallel},
		{chart.ParallelState, "", " " + Parallel},
		{chart.StartState, "start", "start"},
		{chart.ChoiceState, "", ""},
	} {
		s := &chart.State{ID: "id", Name: "ignored", Kind: tt.kind}
		if got := StateLabel(s, tt.name); got != tt.want {
			t.Errorf("StateLabel(%v state, %q) = %q, want %q", tt.kind, tt.name, got, tt.want)
		}
	}
}

func TestActionLines(t *testing.T) {
	raise := chart.Action{Kind: chart.RaiseAction, Event: "e"}
	set := chart.Action{Property: "p", Value: "1"}
	cancel := chart.Action{Kind: chart.CancelAction, Timer: "t", Guard: "g"}
	for _, tt := range []struct {
		name        string
		entry, exit []chart.Action
		want        []string
	}{
		{"none", nil, nil, []string{}},
		{"entry", []chart.Action{raise, set}, nil, []string{"entry / raise e", "entry / p=1"}},
		{"exit", nil, []chart.Action{cancel}, []string{"exit / [g] cancel t"}},
		{"entry before exit", []chart.Action{set}, []chart.Action{raise, cancel},
			[]string{"entry / p=1", "exit / raise e", "exit / [g] cancel t"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ActionLines(&chart.State{Entry: tt.entry, Exit: tt.exit})
			if !slices.Equal(got, tt.want) {
				t.Errorf("ActionLines = %q, want %q", got, tt.want)
			}
		})
	}
}
