package gogen

import (
	"strings"
	"testing"
)

// TestChartSections checks the sections of a runtime template: with and
// without the stack, and the runtime's own markers.
func TestChartSections(t *testing.T) {
	src := "a\n«if stack»\nb\n«else»\nc\n«end»\nd\n\t«if stack»\ne\n\t«end»\n"
	for _, c := range []struct {
		stack bool
		want  string
	}{
		{true, "a\nb\nd\ne\n"},
		{false, "a\nc\nd\n"},
	} {
		if got := chartSections(src, c.stack); got != c.want {
			t.Errorf("chartSections(%q, %v) = %q, want %q", src, c.stack, got, c.want)
		}
	}
	for _, stack := range []bool{true, false} {
		if got := chartSections(chartRuntime, stack); strings.Contains(got, "«if") || strings.Contains(got, "«else»") || strings.Contains(got, "«end»") {
			t.Errorf("chartSections(chartRuntime, %v) leaves a marker", stack)
		}
	}
	for _, bad := range []string{"«if stack»\n«if stack»\n«end»\n", "«else»\n", "«end»\n", "«if stack»\na\n"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("chartSections(%q) did not panic", bad)
				}
			}()
			chartSections(bad, true)
		}()
	}
}
