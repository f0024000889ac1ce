package layout_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// The charts the tests lay out (see package charttest), without the
// geometry the drawings have, as charts read from a format without any.
func goomba(t testing.TB) *chart.Chart {
	return charttest.WithoutBoxes(charttest.Goomba(t))
}

func lucidchart(t testing.TB) *chart.Chart {
	return charttest.WithoutBoxes(charttest.Lucidchart(t))
}

func guard() *chart.Chart { return charttest.Guard() }

// nested is a guard NPC drawn as a statechart without coordinates: a
// compound alert state holding a search and a parallel combat state of two
// regions, each a compound of two states.
func nested() *chart.Chart {
	st := func(id, parent string, initial bool) chart.State {
		return chart.State{ID: id, Name: id, Parent: parent, Initial: initial}
	}
	tr := func(from, to, event string) chart.Transition {
		return chart.Transition{ID: from + "-" + to, From: from, Event: event, Target: chart.Target{Kind: chart.ToState, State: to}}
	}
	return &chart.Chart{
		Name: "guard",
		States: []chart.State{
			st("patrol", "", true), st("alert", "", false), st("dead", "", false),
			st("search", "alert", true), st("combat", "alert", false),
			st("weapon", "combat", false), st("legs", "combat", false),
			st("aim", "weapon", true), st("fire", "weapon", false),
			st("stand", "legs", true), st("chase", "legs", false),
		},
		Transitions: []chart.Transition{
			tr("patrol", "alert", "noise"), tr("alert", "patrol", "calm"), tr("search", "combat", "see"),
			tr("combat", "search", "lost"), tr("aim", "fire", "ready"), tr("fire", "aim", "fired"),
			tr("stand", "chase", "far"), tr("chase", "stand", "near"), tr("alert", "dead", "hit"),
			tr("fire", "dead", "hit"),
		},
		Statechart: true,
	}
}
