package w3c_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/internal/w3c"
)

// TestConformance runs the 29 tests that need no data model, converted
// (testdata/scxml): the 28 automatic ones must end in pass, and the
// manual test 415 must halt in its final state at once.
func TestConformance(t *testing.T) {
	for _, n := range w3c.NoDataModel {
		name := fmt.Sprintf("test%d.scxml", n)
		t.Run(name, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join("testdata", "scxml", name))
			if err != nil {
				t.Fatal(err)
			}
			o, err := w3c.Run(name, doc)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case n == 415:
				if o.Final != "final" || o.Updates != 0 {
					t.Errorf("test 415 ended in %q after %d updates; want it halted in final at once", o.Final, o.Updates)
				}
			case !o.Passed():
				t.Errorf("ended in %q after %d updates, at %v s; want pass", o.Final, o.Updates, o.Time)
			}
		})
	}
}
