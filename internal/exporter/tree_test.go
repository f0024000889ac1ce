package exporter

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

// st is a state with an ID, a parent and a kind.
type st struct {
	id, parent string
	kind       chart.StateKind
}

// treeOf builds a chart of states and its tree, indexing each ID by its
// first state.
func treeOf(states []st) *Tree {
	c := &chart.Chart{}
	index := map[string]int{}
	for i, s := range states {
		c.States = append(c.States, chart.State{ID: s.id, Parent: s.parent, Kind: s.kind})
		if _, ok := index[s.id]; !ok {
			index[s.id] = i
		}
	}
	return NewTree(c, index)
}

func TestNewTree(t *testing.T) {
	for _, tt := range []struct {
		name     string
		states   []st
		parent   []int
		children string // by state, fmt's %v of Children
		nested   bool
	}{
		{"empty", nil, []int{}, "[]", false},
		{"flat", []st{{"a", "", 0}, {"b", "", 0}}, []int{-1, -1}, "[[] []]", false},
		{"child", []st{{"a", "", 0}, {"b", "a", 0}}, []int{-1, 0}, "[[1] []]", true},
		{"child before its parent", []st{{"b", "a", 0}, {"a", "", 0}}, []int{1, -1}, "[[] [0]]", true},
		{"in order of the chart", []st{{"p", "", 0}, {"x", "p", 0}, {"y", "", 0}, {"z", "p", 0}}, []int{-1, 0, -1, 0}, "[[1 3] [] [] []]", true},
		{"nested deep", []st{{"a", "", 0}, {"b", "a", 0}, {"c", "b", 0}}, []int{-1, 0, 1}, "[[1] [2] []]", true},
		{"parallel parent", []st{{"p", "", chart.ParallelState}, {"r", "p", 0}}, []int{-1, 0}, "[[1] []]", true},
		{"pseudo-state child", []st{{"p", "", 0}, {"i", "p", chart.StartState}}, []int{-1, 0}, "[[1] []]", true},
		{"missing parent", []st{{"a", "nowhere", 0}}, []int{-1}, "[[]]", false},
		{"itself", []st{{"a", "a", 0}}, []int{-1}, "[[]]", false},
		{"pseudo-state parent", []st{{"c", "", chart.ChoiceState}, {"a", "c", 0}}, []int{-1, -1}, "[[] []]", false},
		{"history parent", []st{{"h", "", chart.HistoryState}, {"a", "h", 0}}, []int{-1, -1}, "[[] []]", false},
		{"cycle of two", []st{{"a", "b", 0}, {"b", "a", 0}}, []int{1, -1}, "[[] [0]]", true},
		{"cycle of three", []st{{"a", "c", 0}, {"b", "a", 0}, {"c", "b", 0}}, []int{2, -1, 1}, "[[] [2] [0]]", true},
		{"cycle below a root", []st{{"r", "", 0}, {"a", "b", 0}, {"b", "a", 0}, {"x", "r", 0}}, []int{-1, 2, -1, 0}, "[[3] [] [1] []]", true},
		{"repeated ID drawn once", []st{{"p", "", 0}, {"a", "p", 0}, {"a", "p", 0}}, []int{-1, 0, 0}, "[[1] [] []]", true},
		{"repeated parent ID: the first", []st{{"p", "", 0}, {"p", "", chart.ParallelState}, {"a", "p", 0}}, []int{-1, -1, 0}, "[[2] [] []]", true},
		{"repeated parent ID, the first a pseudo-state", []st{{"p", "", chart.EndState}, {"p", "", 0}, {"a", "p", 0}}, []int{-1, -1, -1}, "[[] [] []]", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := treeOf(tt.states)
			if !slices.Equal(tr.Parent, tt.parent) {
				t.Errorf("Parent = %v, want %v", tr.Parent, tt.parent)
			}
			if got := fmt.Sprint(tr.Children); got != tt.children {
				t.Errorf("Children = %s, want %s", got, tt.children)
			}
			if tr.Nested != tt.nested {
				t.Errorf("Nested = %v, want %v", tr.Nested, tt.nested)
			}
		})
	}
}

func TestNewTreePanics(t *testing.T) {
	defer func() {
		const want = `exporter: NewTree: index has no state "b"`
		if r := recover(); r != want {
			t.Errorf("NewTree with an incomplete index panicked with %v, want %q", r, want)
		}
	}()
	c := &chart.Chart{States: []chart.State{{ID: "a"}, {ID: "b"}}}
	NewTree(c, map[string]int{"a": 0})
}

func TestIsContainerWithin(t *testing.T) {
	// r > a > b, r > c; d at the top level.
	tr := treeOf([]st{{"r", "", 0}, {"a", "r", 0}, {"b", "a", 0}, {"c", "r", 0}, {"d", "", 0}})
	for _, tt := range []struct {
		i, anc    int
		container bool // of i
		within    bool
	}{
		{0, 0, true, true},
		{1, 0, true, true},
		{2, 0, false, true},
		{2, 1, false, true},
		{2, 2, false, true},
		{3, 1, false, false},
		{0, 1, true, false},
		{4, 0, false, false},
		{4, -1, false, false},
		{-1, 0, false, false},
		{-1, -1, false, false},
	} {
		t.Run(fmt.Sprint(tt.i, "in", tt.anc), func(t *testing.T) {
			if got := tr.IsContainer(tt.i); got != tt.container {
				t.Errorf("IsContainer(%d) = %v, want %v", tt.i, got, tt.container)
			}
			if got := tr.Within(tt.i, tt.anc); got != tt.within {
				t.Errorf("Within(%d, %d) = %v, want %v", tt.i, tt.anc, got, tt.within)
			}
		})
	}
}

func TestCanContain(t *testing.T) {
	for k := range chart.DeepHistoryState + 2 {
		want := k == chart.NormalState || k == chart.ParallelState
		if got := CanContain(k); got != want {
			t.Errorf("CanContain(%v) = %v, want %v", k, got, want)
		}
	}
}
