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
