package chart_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

var errSentinel = errors.New("sentinel")

func TestJSON(t *testing.T) {
	c := chart.Chart{
		Name: "goomba",
		States: []chart.State{
			{ID: "1", Name: "walkLeft", Initial: true, Entry: []chart.Action{{Property: "XMovement", Value: "left"}}},
			{ID: "9", Kind: chart.ChoiceState},
		},
		Transitions: []chart.Transition{
			{ID: "4", From: "1", Order: 1, Test: "hitTriggerLeft", Target: chart.Target{Kind: chart.ToState, State: "9"}},
			{ID: "5", AnyState: true, Order: 1, Test: "hitByPlayer", Push: true, Target: chart.Target{Kind: chart.ToReturn}},
			{ID: "6", From: "9", Order: 1, Test: "animationDone", Target: chart.Target{Kind: chart.ToFinal}},
		},
		Diagnostics: diag.List{{Severity: diag.Note, Message: "visio: fyi", Err: errSentinel}},
	}
	b, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind":"choice"`, `"kind":"return"`, `"kind":"final"`, `"severity":"note"`, `"anyState":true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("json.Marshal(chart) = %s, want %s in it", b, want)
		}
	}
	var back chart.Chart
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	c.Diagnostics[0].Err = nil // not in JSON
	b2, _ := json.Marshal(&back)
	if string(b2) != string(b) {
		t.Errorf("round trip:\n got %s\nwant %s", b2, b)
	}
	if err := json.Unmarshal([]byte(`{"states":[{"kind":"weird"}]}`), &back); err == nil {
		t.Errorf("json.Unmarshal(unknown kind) = nil error")
	}
	if _, err := json.Marshal(chart.State{Kind: 9}); err == nil {
		t.Errorf("json.Marshal(StateKind(9)) = nil error")
	}
}

func TestKindStrings(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{chart.NormalState.String(), "normal"}, {chart.EndState.String(), "end"}, {chart.StateKind(7).String(), "StateKind(7)"},
		{chart.ToState.String(), "state"}, {chart.ToReturn.String(), "return"}, {chart.TargetKind(7).String(), "TargetKind(7)"},
		{chart.RoleAnyState.String(), "message handler"}, {chart.RoleStart.String(), "start state"}, {chart.Role(99).String(), "Role(99)"},
		{chart.Target{Kind: chart.ToState, State: "12"}.String(), "12"},
		{chart.Target{Kind: chart.ToFinal}.String(), "(final)"},
	} {
		if tt.got != tt.want {
			t.Errorf("String() = %q, want %q", tt.got, tt.want)
		}
	}
}
