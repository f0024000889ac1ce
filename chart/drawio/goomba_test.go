package drawio_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

const goombaDrawio = "../../examples/goomba/goomba.drawio"

// TestGoomba makes examples/goomba/goomba.drawio from the chart of
// goomba.vdx (go test -run Goomba -update rewrites it) and fails when it
// is stale. Read with the stencil, it gives the .vdx's states,
// transitions, tests and actions without a diagnostic, and compiles to
// the same table, byte for byte.
func TestGoomba(t *testing.T) {
	st := charttest.Stencil(t)
	vdx, err := visio.ReadFile("../../examples/goomba/goomba.vdx", visio.Options{Stencil: st})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := drawio.Write(&b, vdx, drawio.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goombaDrawio, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if old, err := os.ReadFile(goombaDrawio); err != nil || !bytes.Equal(old, b.Bytes()) {
		t.Errorf("%s is stale or missing (%v): run go test ./chart/drawio -run Goomba -update", goombaDrawio, err)
	}

	c, err := drawio.ReadFile(goombaDrawio, drawio.Options{Stencil: st})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %v, want none", c.Diagnostics)
	}
	if d := diff(render(c), render(vdx)); d != "" {
		t.Errorf("goomba.drawio and goomba.vdx differ at %s", d)
	}
	if c.Name != "goomba" {
		t.Errorf("Name = %q, want goomba", c.Name)
	}

	tables := make([][]byte, 2)
	for i, src := range []*chart.Chart{vdx, c} {
		res, err := compile.Compile(src, compile.Options{Stencil: st})
		if err != nil {
			t.Fatal(err)
		}
		if tables[i], err = res.Table.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(tables[0], tables[1]) {
		t.Errorf("the tables compiled from goomba.vdx and goomba.drawio differ")
	}
}
