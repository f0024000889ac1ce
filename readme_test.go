package fsmforge_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmePrograms keeps the README's minimal programs the ones that
// compile and run in examples/minimal (their Example tests pin the output).
func TestReadmePrograms(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"examples/minimal/guarded/main.go", "examples/minimal/behavior/main.go"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The README shows the file from its package clause on.
		body := string(src[strings.Index(string(src), "package main"):])
		if !strings.Contains(string(readme), "```go\n"+body+"```\n") {
			t.Errorf("README.md does not show %s as it is; copy it into the README's go block", path)
		}
	}
}
