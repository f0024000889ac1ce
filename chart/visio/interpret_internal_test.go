package visio

import (
	"math/rand/v2"
	"strconv"
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
		// History states: deep when the name or the text (UML's H*) says so.
		{Shape{Master: m("Shallow history"), Text: "H"}, chart.HistoryState, false},
		{Shape{Master: m("Deep history"), Text: "H*"}, chart.DeepHistoryState, false},
		{Shape{Master: m("History"), Text: "H*"}, chart.DeepHistoryState, false},
		{Shape{Master: m("DeepHistoryState")}, chart.DeepHistoryState, false},
		{Shape{NameU: "History.7"}, chart.HistoryState, false},
	} {
		if got, initial := kindOf(&tt.s); got != tt.want || initial != tt.initial {
			t.Errorf("kindOf(%+v) = %v, %v; want %v, %v", tt.s, got, initial, tt.want, tt.initial)
		}
	}
}

// TestFindProp checks findProp against the way it looked rows up before it
// found the rows a shape has once for all (heldRows): one row labelled as
// asked after the other, each looked up in the shape, on random shapes of
// up to three levels (a shape, its base, its base's base) whose rows share
// a few names, labels and deletions.
func TestFindProp(t *testing.T) {
	oneByOne := func(s *Shape, name string) (Prop, bool) {
		if p, ok := s.Prop(name); ok {
			return p, true
		}
		for sh := s; sh != nil; sh = sh.Base {
			for i := range sh.Props {
				if sh.Props[i].Label == name && !sh.Props[i].Deleted {
					if p, ok := s.Prop(sh.Props[i].Row); ok {
						return p, true
					}
				}
			}
		}
		return Prop{}, false
	}
	names := []string{"", "a", "b", "c", "Test"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(names []string) string { return names[r.IntN(len(names))] }
	found := 0
	for range 20000 {
		var s *Shape
		for range 1 + r.IntN(3) {
			sh := &Shape{Base: s}
			for range r.IntN(16) {
				sh.Props = append(sh.Props, Prop{Row: pick(names), Name: pick(names), Label: pick(names[3:]), Value: strconv.Itoa(r.IntN(100)), Deleted: r.IntN(3) == 0, Set: CellValue})
			}
			s = sh
		}
		for _, name := range names {
			got, ok := findProp(s, name)
			want, wantOK := oneByOne(s, name)
			if ok != wantOK || got != want {
				t.Fatalf("findProp(%+v, %q) = %+v, %v; want %+v, %v", s, name, got, ok, want, wantOK)
			}
			if ok {
				found++
			}
		}
	}
	if found == 0 {
		t.Errorf("findProp found no row")
	}
}

// TestMasterShape checks that a master's shapes are found by ID as a
// search of its shapes and their members in document order finds them:
// the first of an ID.
func TestMasterShape(t *testing.T) {
	b, c, f := &Shape{ID: "2"}, &Shape{ID: "3"}, &Shape{ID: "4"}
	a := &Shape{ID: "1", Shapes: []*Shape{b, c}}
	m := &Master{Shapes: []*Shape{a, {ID: "2"}, {ID: "3", Shapes: []*Shape{f}}, {ID: "4"}}}
	var d Document
	for id, want := range map[string]*Shape{"1": a, "2": b, "3": c, "4": f, "9": nil} {
		if got := d.masterShape(m, id); got != want {
			t.Errorf("masterShape(%q) = %p, want %p", id, got, want)
		}
	}
}
