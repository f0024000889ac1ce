package gogen

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/table"
)

// TestChartSections checks the sections of a runtime template: with and
// without the stack and Options.Observe, and the runtime's own markers.
func TestChartSections(t *testing.T) {
	src := "a\n«if stack»\nb\n«else»\nc\n«end»\nd\n\t«if stack»\ne\n\t«end»\n«if observe»\nf\n«else»\ng\n«end»\n"
	for _, c := range []struct {
		stack, observe bool
		want           string
	}{
		{true, false, "a\nb\nd\ne\ng\n"},
		{false, false, "a\nc\nd\ng\n"},
		{false, true, "a\nc\nd\nf\n"},
		{true, true, "a\nb\nd\ne\nf\n"},
	} {
		if got := chartSections(src, c.stack, c.observe); got != c.want {
			t.Errorf("chartSections(%q, %v, %v) = %q, want %q", src, c.stack, c.observe, got, c.want)
		}
	}
	for _, stack := range []bool{true, false} {
		for _, observe := range []bool{true, false} {
			if got := chartSections(chartRuntime, stack, observe); strings.Contains(got, "«if") || strings.Contains(got, "«else»") || strings.Contains(got, "«end»") {
				t.Errorf("chartSections(chartRuntime, %v, %v) leaves a marker", stack, observe)
			}
		}
	}
	for _, bad := range []string{"«if stack»\n«if stack»\n«end»\n", "«if stack»\n«if observe»\n«end»\n", "«else»\n", "«end»\n", "«if stack»\na\n", "«if observe»\na\n"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("chartSections(%q) did not panic", bad)
				}
			}()
			chartSections(bad, true, true)
		}()
	}
}

// TestTemplateNames checks that every «name» of the statechart templates
// is replaced, with and without the stack.
func TestTemplateNames(t *testing.T) {
	var b table.Builder
	a := b.AddState("a")
	b.Nest(b.AddState("b"), a)
	tbl, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var x errs
	m := newModel(&x, tbl, Options{Package: "p", Prefix: "P"})
	if err := x.err(); err != nil {
		t.Fatal(err)
	}
	for _, stack := range []bool{false, true} {
		m.stack = stack
		for _, observe := range []bool{false, true} {
			for name, src := range map[string]string{"chartRuntime": chartRuntime, "chartSnapshot": chartSnapshot, "chartObserve": chartObserve} {
				got := m.chartNames().Replace(chartSections(src, stack, observe))
				if i := strings.Index(got, "«"); i >= 0 {
					t.Errorf("%s, stack %v, observe %v: %q is not replaced", name, stack, observe, got[i:min(i+20, len(got))])
				}
			}
		}
	}
	for name, src := range map[string]string{"snapshotReaderSrc": snapshotReaderSrc, "chartReaderSrc": chartReaderSrc} {
		if got := m.snapNames().Replace(src); strings.Contains(got, "«") {
			t.Errorf("%s: a name is not replaced", name)
		}
	}
}
