package scref_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/internal/scref"
	"github.com/fsmforge/fsmforge/internal/w3c"
)

// TestW3C runs the 29 converted W3C conformance tests that need no data
// model through the reference, as internal/w3c runs them through a
// table: chaining, the time jumping to the next pending send when an
// update changes nothing. The 28 automatic tests must end in pass; the
// manual test 415 must halt in its final state at once.
func TestW3C(t *testing.T) {
	if len(w3c.NoDataModel) != 29 {
		t.Fatalf("len(w3c.NoDataModel) = %d, want 29", len(w3c.NoDataModel))
	}
	for _, n := range w3c.NoDataModel {
		name := fmt.Sprintf("test%d.scxml", n)
		t.Run(name, func(t *testing.T) {
			c, err := scxml.ReadFile(filepath.Join("..", "w3c", "testdata", "scxml", name), scxml.Options{})
			if err != nil {
				t.Fatal(err)
			}
			in, err := scref.New(c, scref.Options{Chain: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			updates := 0
			for ; updates < 1000 && !in.Done(); updates++ {
				steps, err := in.Update(nil)
				if err != nil {
					t.Fatalf("update %d: %v", updates+1, err)
				}
				if steps > 0 {
					continue
				}
				due, ok := in.NextTimer()
				if !ok {
					break
				}
				in.SetTime(due)
			}
			switch {
			case n == 415:
				if in.Final() != "final" || updates != 0 {
					t.Errorf("test 415 ended in %q after %d updates; want it halted in final at once", in.Final(), updates)
				}
			case in.Final() != "pass":
				t.Errorf("ended in %q (configuration %v) after %d updates, at %v s; want pass", in.Final(), in.AppendConfiguration(nil), updates, in.Time())
			}
		})
	}
}
