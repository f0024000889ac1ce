package gogen_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/gogen"
	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
)

// TestStatechartsTypeCheck generates code for every converted W3C test
// and type-checks it: every statechart the suite's shapes make compiles.
func TestStatechartsTypeCheck(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "internal", "w3c", "testdata", "scxml", "*.scxml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no W3C tests: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".scxml")
		t.Run(name, func(t *testing.T) {
			tbl := fixtures.W3C(name)
			opt := gogen.Options{Package: "w3c"}
			got, err := gogen.Generate(tbl, opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := typeCheck(got, opt); err != nil {
				t.Errorf("the generated code does not type-check: %v", err)
			}
		})
	}
}
