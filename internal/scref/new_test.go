package scref_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/scref"
)

// TestNewRefuses checks that New refuses what the reference does not
// model, and charts that are wrong.
func TestNewRefuses(t *testing.T) {
	to := func(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }
	base := func() *chart.Chart {
		return &chart.Chart{Name: "c", Statechart: true,
			States:      []chart.State{{ID: "a", Name: "a"}, {ID: "b", Name: "b"}},
			Transitions: []chart.Transition{{ID: "t", From: "a", Order: 1, Event: "e", Target: to("b")}}}
	}
	tests := []struct {
		name   string
		change func(c *chart.Chart)
	}{
		{"nil chart", nil},
		{"stencil", func(c *chart.Chart) { c.Stencil = &chart.Stencil{Name: "s"} }},
		{"not a statechart", func(c *chart.Chart) { c.Statechart = false }},
		{"choice state", func(c *chart.Chart) { c.States[1].Kind = chart.ChoiceState }},
		{"to the final state", func(c *chart.Chart) { c.Transitions[0].Target = chart.Target{Kind: chart.ToFinal} }},
		{"return", func(c *chart.Chart) { c.Transitions[0].Target = chart.Target{Kind: chart.ToReturn} }},
		{"push", func(c *chart.Chart) { c.Transitions[0].Push = true }},
		{"state timer", func(c *chart.Chart) { c.Transitions[0].Event = "after 2s" }},
		{"bad guard", func(c *chart.Chart) { c.Transitions[0].Guard = "a &&" }},
		{"In() of no state", func(c *chart.Chart) { c.Transitions[0].Guard = "In(zz)" }},
		{"action guard In() of no state", func(c *chart.Chart) { c.States[0].Entry = []chart.Action{{Property: "p", Value: "v", Guard: "In(zz)"}} }},
		{"missing target", func(c *chart.Chart) { c.Transitions[0].Target = to("zz") }},
		{"missing source", func(c *chart.Chart) { c.Transitions[0].From = "zz" }},
		{"missing parent", func(c *chart.Chart) { c.States[1].Parent = "zz" }},
		{"duplicate ID", func(c *chart.Chart) { c.States[1].ID = "a" }},
		{"raise of no event", func(c *chart.Chart) { c.States[0].Entry = []chart.Action{{Kind: chart.RaiseAction}} }},
		{"history without transition", func(c *chart.Chart) {
			c.States = append(c.States, chart.State{ID: "h", Kind: chart.HistoryState, Parent: "a"})
		}},
		{"two initial states", func(c *chart.Chart) { c.States[0].Initial, c.States[1].Initial = true, true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c *chart.Chart
			if tt.change != nil {
				c = base()
				tt.change(c)
			}
			if in, err := scref.New(c, scref.Options{}, nil); err == nil {
				t.Errorf("New = %v, nil; want an error", in.AppendConfiguration(nil))
			}
		})
	}
	if _, err := scref.New(base(), scref.Options{}, nil); err != nil {
		t.Errorf("New(base) = %v; want no error", err)
	}
}
