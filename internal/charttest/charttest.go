// Package charttest holds the charts the exporters' and importers' tests
// share: the designer-pipeline article's Goomba read from examples/goomba,
// the Lucidchart UML state diagram of chart/visio's testdata, and a
// hand-built guard with what those drawings lack (push and return,
// any-state transitions, values, a self-loop, orders that differ from
// chart order); in soldier.go, a hand-built statechart with every feature
// of nesting ([Soldier]); and, in check.go, what every importer's tests
// check of the charts they read: [CheckChart], [Golden] files, and fuzz
// seeds from files ([AddFiles]).
package charttest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
)

// Root returns the repository's root directory, wherever the test runs.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Paths of the drawings, relative to Root.
const (
	GoombaVDX     = "examples/goomba/goomba.vdx"
	GoombaStencil = "examples/goomba/goomba.stencil.json"
	LucidchartVDX = "chart/visio/testdata/jgraph_drawio_utf8_lucidchart_uml_state_diagram.vdx"
)

// Stencil loads the Goomba's stencil.
func Stencil(tb testing.TB) *chart.Stencil {
	tb.Helper()
	st, err := chart.LoadStencil(filepath.Join(Root(), GoombaStencil))
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// Goomba reads the designer-pipeline article's Goomba with its stencil, its File the path
// relative to Root.
func Goomba(tb testing.TB) *chart.Chart {
	tb.Helper()
	c, err := visio.ReadFile(filepath.Join(Root(), GoombaVDX), visio.Options{File: GoombaVDX, Stencil: Stencil(tb)})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Lucidchart reads the Lucidchart UML state diagram without a stencil:
// start, end and choice pseudo-states, accented text, repeated names. It
// skips the test when the file is not there.
func Lucidchart(tb testing.TB) *chart.Chart {
	tb.Helper()
	path := filepath.Join(Root(), LucidchartVDX)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("fixture not there: %v", err)
	}
	c, err := visio.ReadFile(path, visio.Options{File: LucidchartVDX})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Guard is a hand-built chart with what the drawings lack: transitions
// that push and return, any-state transitions, one to the final state,
// values, a self-loop, and orders that differ from chart order.
func Guard() *chart.Chart {
	st := &chart.Stencil{
		Name:    "guard",
		Masters: chart.Masters{State: "State", Initial: "Initial State", Transition: "Transition", AnyState: "Message Handler"},
		Tests:   []chart.Test{{Name: "seePlayer"}, {Name: "lostPlayer"}, {Name: "inRange"}, {Name: "done"}, {Name: "timeout"}, {Name: "hit", Message: true}, {Name: "killed", Message: true}},
		Actions: []chart.Property{{Name: "Animation", Values: []string{"walk", "run", "swing", "daze"}}, {Name: "Speed", Values: []string{"slow", "fast"}}},
	}
	entry := func(kv ...string) []chart.Action {
		var a []chart.Action
		for i := 0; i < len(kv); i += 2 {
			a = append(a, chart.Action{Property: kv[i], Value: kv[i+1]})
		}
		return a
	}
	to := func(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }
	return &chart.Chart{
		Name:    "guard",
		Stencil: st,
		States: []chart.State{
			{ID: "1", Name: "patrol", Initial: true, Entry: entry("Animation", "walk", "Speed", "slow")},
			{ID: "2", Name: "chase", Entry: entry("Animation", "run", "Speed", "fast")},
			{ID: "3", Name: "attack", Entry: entry("Animation", "swing")},
			{ID: "4", Name: "stunned", Entry: entry("Animation", "daze")},
		},
		Transitions: []chart.Transition{
			{ID: "10", From: "1", Order: 2, Test: "timeout", Value: "5", Target: to("1")},
			{ID: "11", From: "1", Order: 1, Test: "seePlayer", Target: to("2")},
			{ID: "12", From: "2", Order: 1, Test: "inRange", Push: true, Target: to("3")},
			{ID: "13", From: "2", Order: 2, Test: "lostPlayer", Target: to("1")},
			{ID: "14", From: "3", Order: 1, Test: "done", Target: chart.Target{Kind: chart.ToReturn}},
			{ID: "15", AnyState: true, Order: 1, Test: "hit", Target: to("4")},
			{ID: "16", AnyState: true, Order: 2, Test: "killed", Target: chart.Target{Kind: chart.ToFinal}},
			{ID: "17", From: "4", Order: 1, Test: "timeout", Value: "2", Target: chart.Target{Kind: chart.ToReturn}},
		},
	}
}

// WithoutBoxes forgets c's geometry, as a chart read from a format without
// any, and returns c.
func WithoutBoxes(c *chart.Chart) *chart.Chart {
	for i := range c.States {
		c.States[i].Box = nil
	}
	return c
}
