package visio

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

func TestKindOf(t *testing.T) {
	m := func(name string) *Master { return &Master{NameU: name} }
	for _, tt := range []struct {
		s    Shape
		want chart.StateKind
	}{
		{Shape{Master: m("com.lucidchart.UMLStartBlock20")}, chart.StartState},
		{Shape{Master: m("Final state")}, chart.EndState},
		{Shape{Master: m("Decision")}, chart.ChoiceState},
		{Shape{Master: m("Start/End"), Text: "Begin"}, chart.StartState},
		{Shape{Master: m("Terminator"), Text: "Stop"}, chart.EndState},
		{Shape{Master: m("Start/End"), Text: "Login"}, chart.NormalState},
		{Shape{Master: m("Process")}, chart.NormalState},
		{Shape{NameU: "Initial.3"}, chart.StartState},
		{Shape{NameU: "Weekend"}, chart.NormalState},
	} {
		if got := kindOf(&tt.s); got != tt.want {
			t.Errorf("kindOf(%+v) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
