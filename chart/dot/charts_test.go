package dot_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// The charts the tests draw (see package charttest).
func goomba(t testing.TB) *chart.Chart     { return charttest.Goomba(t) }
func lucidchart(t testing.TB) *chart.Chart { return charttest.Lucidchart(t) }
func guard() *chart.Chart                  { return charttest.Guard() }
func soldier() *chart.Chart                { return charttest.Soldier() }
