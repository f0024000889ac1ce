package importer

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

func TestStrings(t *testing.T) {
	var x Strings
	file := "walkLeft walkLeft"
	a, b := x.Clone(file[:8]), x.Clone(file[9:])
	if a != "walkLeft" || b != "walkLeft" || unsafe.StringData(a) != unsafe.StringData(b) || unsafe.StringData(a) == unsafe.StringData(file) {
		t.Errorf("Clone = %q at %p, %q at %p: want one copy, not the file's", a, unsafe.StringData(a), b, unsafe.StringData(b))
	}
	if x.Clone("") != "" {
		t.Errorf(`Clone("") is not ""`)
	}
	p := x.Pos(diag.Pos{File: "f", Page: "p", Shape: "s", ShapeName: "walkLeft", Line: 3, Col: 4})
	if p != (diag.Pos{File: "f", Page: "p", Shape: "s", ShapeName: "walkLeft", Line: 3, Col: 4}) || unsafe.StringData(p.ShapeName) != unsafe.StringData(a) {
		t.Errorf("Pos = %+v, want the same with interned strings", p)
	}
}

func TestStencil(t *testing.T) {
	st := &chart.Stencil{Tests: []chart.Test{{Name: "a"}, {Name: "b"}}}
	if got := TestNames(st); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("TestNames = %q, want a, b", got)
	}
	if got := Version(st); got != "unnumbered" {
		t.Errorf("Version = %q, want unnumbered", got)
	}
	st.Version = "2"
	if got := Version(st); got != "2" {
		t.Errorf("Version = %q, want 2", got)
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"com.lucidchart.UMLStartBlock20": {"com", "lucidchart", "uml", "start", "block", "20"},
		"com.yworks.flowchart.start1":    {"com", "yworks", "flowchart", "start", "1"},
		"Initial state":                  {"initial", "state"},
		"Start/End":                      {"start", "end"},
		"XMLHttpRequest":                 {"xml", "http", "request"},
		"Legend":                         {"legend"},
		"":                               nil,
	} {
		if got := Words(in); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 40, "short"},
		{"exactly", 7, "exactly"},
		{"café au lait", 8, "café ..."},
	} {
		if got := Shorten(tt.s, tt.n); got != tt.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestTerminatorKind(t *testing.T) {
	for text, want := range map[string]chart.StateKind{
		"Start": chart.StartState, "begin here": chart.StartState, "End": chart.EndState, "STOP": chart.EndState,
		"finish line": chart.EndState, "start/end": chart.StartState, "Login": chart.NormalState, "": chart.NormalState,
	} {
		if got := TerminatorKind(text); got != want {
			t.Errorf("TerminatorKind(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestBlock(t *testing.T) {
	var b Block[int]
	if b.Keep(nil) != nil {
		t.Errorf("Keep(nil) is not nil")
	}
	src := []int{1, 2, 3}
	a := b.Keep(src)
	p := b.New()
	c := b.Keep([]int{4})
	src[0] = 9
	if !slices.Equal(a, []int{1, 2, 3}) || cap(a) != 3 || *p != 0 || !slices.Equal(c, []int{4}) || cap(c) != 1 {
		t.Errorf("Keep, New, Keep = %v (cap %d), %d, %v (cap %d)", a, cap(a), *p, c, cap(c))
	}
	big := b.Keep(make([]int, 1000))
	if len(big) != 1000 || cap(big) != 1000 {
		t.Errorf("Keep(1000 ints) = len %d, cap %d", len(big), cap(big))
	}
	allocs := testing.AllocsPerRun(100, func() {
		for range 200 {
			b.New()
		}
	})
	if allocs > 1 {
		t.Errorf("200 New calls cost %.1f allocations, want at most 1", allocs)
	}
}

func TestParseFlag(t *testing.T) {
	for _, tt := range []struct {
		v      string
		on, ok bool
	}{
		{"1", true, true}, {" TRUE ", true, true}, {"Yes", true, true},
		{"0", false, true}, {"false", false, true}, {"NO", false, true}, {"", false, true}, {"  ", false, true},
		{"2", false, false}, {"on", false, false}, {"truthy", false, false},
	} {
		if on, ok := ParseFlag(tt.v); on != tt.on || ok != tt.ok {
			t.Errorf("ParseFlag(%q) = %v, %v, want %v, %v", tt.v, on, ok, tt.on, tt.ok)
		}
	}
}

func TestParseChainLimit(t *testing.T) {
	for _, tt := range []struct {
		v  string
		n  int
		ok bool
	}{
		{"0", 0, true}, {" 12 ", 12, true}, {"65535", 65535, true},
		{"65536", 0, false}, {"-1", 0, false}, {"12.0", 0, false}, {"", 0, false}, {"many", 0, false},
	} {
		if n, ok := ParseChainLimit(tt.v); n != tt.n || ok != tt.ok {
			t.Errorf("ParseChainLimit(%q) = %d, %v, want %d, %v", tt.v, n, ok, tt.n, tt.ok)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 shapes are"}, {1, "1 shape is"}, {2, "2 shapes are"}} {
		if got := Plural(tt.n, "shape") + " " + IsAre(tt.n); got != tt.want {
			t.Errorf("Plural(%d, shape), IsAre(%d) = %q, want %q", tt.n, tt.n, got, tt.want)
		}
	}
}
