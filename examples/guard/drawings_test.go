package guard_test

import (
	"bytes"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/compile"
)

// TestDrawingsAgree checks that the guard drawn in draw.io (guard.drawio)
// and in Qt Creator's SCXML editor (guard.scxml) compile to the same
// table, byte for byte.
func TestDrawingsAgree(t *testing.T) {
	read := map[string]func(string) (*chart.Chart, error){
		"guard.scxml":  func(p string) (*chart.Chart, error) { return scxml.ReadFile(p, scxml.Options{}) },
		"guard.drawio": func(p string) (*chart.Chart, error) { return drawio.ReadFile(p, drawio.Options{}) },
	}
	var want []byte
	for _, name := range []string{"guard.scxml", "guard.drawio"} {
		c, err := read[name](name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := compile.Compile(c, compile.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Diagnostics) > 0 {
			t.Errorf("%s: %v", name, res.Diagnostics)
		}
		got, err := res.Table.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s compiles to another table than guard.scxml", name)
		}
	}
}
