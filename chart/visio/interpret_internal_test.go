package visio

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

func TestKindOf(t *testing.T) {
	m := func(name string) *Master { return &Master{NameU: name} }
	for _, tt := range []struct {
		s       Shape
		want    chart.StateKind
		initial bool
	}{
		{Shape{Master: m("com.lucidchart.UMLStartBlock20")}, chart.StartState, true},
		{Shape{Master: m("Final state")}, chart.EndState, false},
		{Shape{Master: m("Decision")}, chart.ChoiceState, false},
		{Shape{Master: m("Start/End"), Text: "Begin"}, chart.StartState, true},
		{Shape{Master: m("Terminator"), Text: "Stop"}, chart.EndState, false},
		{Shape{Master: m("Start/End"), Text: "Login"}, chart.NormalState, false},
		{Shape{Master: m("Process")}, chart.NormalState, false},
		{Shape{NameU: "Initial.3"}, chart.StartState, true},
		{Shape{NameU: "Weekend"}, chart.NormalState, false},
		// A named shape of an initial-state master is a state, initial.
		{Shape{Master: m("Initial State"), Text: "walkLeft"}, chart.NormalState, true},
		{Shape{Master: m("Initial state"), Text: "Start"}, chart.StartState, true},
	} {
		if got, initial := kindOf(&tt.s); got != tt.want || initial != tt.initial {
			t.Errorf("kindOf(%+v) = %v, %v; want %v, %v", tt.s, got, initial, tt.want, tt.initial)
		}
	}
}
