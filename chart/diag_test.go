package chart_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

var errSentinel = errors.New("sentinel")

func TestDiagnostics(t *testing.T) {
	at := chart.Pos{File: "g.vdx", Line: 3, Col: 4, Page: "Page-1", Shape: "7"}
	warn := chart.Diagnostic{Pos: at, Severity: chart.Warning, Message: "visio: odd"}
	note := chart.Diagnostic{Severity: chart.Note, Message: "visio: fyi"}
	err1 := chart.Diagnostic{Pos: at, Message: "visio: bad", Hint: "fix it", Err: errSentinel}
	err2 := chart.Diagnostic{Message: "visio: worse"}

	for _, tt := range []struct {
		name string
		l    chart.Diagnostics
		want string
		errs int
	}{
		{"empty", nil, "chart: no diagnostics", 0},
		{"warnings only", chart.Diagnostics{warn, note}, `g.vdx:3:4: page "Page-1", shape 7: warning: visio: odd`, 0},
		{"one error", chart.Diagnostics{warn, err1}, `g.vdx:3:4: page "Page-1", shape 7: visio: bad`, 1},
		{"errors", chart.Diagnostics{warn, err1, note, err2, err2}, `g.vdx:3:4: page "Page-1", shape 7: visio: bad (and 2 more)`, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if got := len(tt.l.Errors()); got != tt.errs {
				t.Errorf("len(Errors()) = %d, want %d", got, tt.errs)
			}
			if got := len(tt.l.Warnings()); got != len(tt.l)-tt.errs {
				t.Errorf("len(Warnings()) = %d, want %d", got, len(tt.l)-tt.errs)
			}
			if got := tt.l.HasErrors(); got != (tt.errs > 0) {
				t.Errorf("HasErrors() = %v, want %v", got, tt.errs > 0)
			}
			err := tt.l.Err()
			if (err != nil) != (tt.errs > 0) {
				t.Fatalf("Err() = %v, want an error: %v", err, tt.errs > 0)
			}
			if err != nil {
				var l chart.Diagnostics
				if !errors.As(err, &l) || len(l) != tt.errs || l.HasErrors() != true || len(l.Warnings()) != 0 {
					t.Errorf("Err() = %#v, want the %d errors alone", err, tt.errs)
				}
				if !errors.Is(err, errSentinel) {
					t.Errorf("errors.Is(Err(), sentinel) = false")
				}
			}
		})
	}
	if got := note.Error(); got != "note: visio: fyi" {
		t.Errorf("note.Error() = %q", got)
	}
}

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
		Diagnostics: chart.Diagnostics{{Severity: chart.Note, Message: "visio: fyi", Err: errSentinel}},
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
		{chart.Warning.String(), "warning"}, {chart.Severity(7).String(), "Severity(7)"},
		{chart.RoleAnyState.String(), "message handler"}, {chart.RoleStart.String(), "start state"}, {chart.Role(99).String(), "Role(99)"},
		{chart.Target{Kind: chart.ToState, State: "12"}.String(), "12"},
		{chart.Target{Kind: chart.ToFinal}.String(), "(final)"},
	} {
		if tt.got != tt.want {
			t.Errorf("String() = %q, want %q", tt.got, tt.want)
		}
	}
}
