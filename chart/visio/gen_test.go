package visio_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/chart"
)

// The drawings of the tests, the benchmark and the fuzz corpus are built
// with package internal/vdxgen.

// goombaStencil loads the stencil of examples/goomba.
func goombaStencil(t testing.TB) *chart.Stencil {
	t.Helper()
	st, err := chart.LoadStencil("../../examples/goomba/goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	return st
}
