package cond

import (
	"slices"
	"strings"
	"testing"
)

func TestDepth(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"a", 1},
		{"!!!a", 1},
		{"a && b", 2},
		{"a && b && c && d", 2},
		{"a || b && c", 3},
		{"a && (b && (c && d))", 4},
		{"(a || b) && (c || d)", 3},
		{"!(a && b) || In(x)", 2},
	} {
		e, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q) = error %v", tt.in, err)
		}
		if got := e.Depth(); got != tt.want {
			t.Errorf("Parse(%q).Depth() = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// truth returns a test function that answers true for the names listed.
func truth(names ...string) func(string) bool {
	return func(n string) bool { return slices.Contains(names, n) }
}

func TestEval(t *testing.T) {
	for _, tt := range []struct {
		in       string
		tests    []string // true tests
		states   []string // states the machine is in
		want     bool
		nilFuncs bool // evaluate with nil test and in
	}{
		{"true", nil, nil, true, true},
		{"false", nil, nil, false, true},
		{"!false && !true", nil, nil, false, true},
		{"a", []string{"a"}, nil, true, false},
		{"a", nil, nil, false, false},
		{"a", []string{"a"}, nil, false, true},
		{"!a", nil, nil, true, true},
		{"seesPlayer && !tired", []string{"seesPlayer"}, nil, true, false},
		{"seesPlayer && !tired", []string{"seesPlayer", "tired"}, nil, false, false},
		{"In(Alert) || (a && b)", nil, []string{"Alert"}, true, false},
		{"In(Alert) || (a && b)", []string{"a"}, nil, false, false},
		{"In(Alert) || (a && b)", []string{"a", "b"}, nil, true, false},
		{"a || b && c", []string{"a"}, nil, true, false},
		{"(a || b) && c", []string{"a"}, nil, false, false},
		{"hp < 10 && In('walk left')", []string{"hp < 10"}, []string{"walk left"}, true, false},
		{"In(a) && In(b)", nil, []string{"a"}, false, false},
	} {
		e, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q) = error %v", tt.in, err)
		}
		test, in := truth(tt.tests...), truth(tt.states...)
		if tt.nilFuncs {
			test, in = nil, nil
		}
		if got := e.Eval(test, in); got != tt.want {
			t.Errorf("Parse(%q).Eval(%v, %v) = %v, want %v", tt.in, tt.tests, tt.states, got, tt.want)
		}
	}
}

func TestEvalCallsEveryTerm(t *testing.T) {
	e, err := Parse("a || b && a || In(s) && false")
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	e.Eval(func(n string) bool { calls = append(calls, n); return true },
		func(s string) bool { calls = append(calls, "In("+s+")"); return true })
	if want := []string{"a", "b", "a", "In(s)"}; !slices.Equal(calls, want) {
		t.Errorf("Eval called %v, want %v", calls, want)
	}
}

func TestEvalAllocs(t *testing.T) {
	e, err := Parse(deepStack(MaxDepth / 2))
	if err != nil {
		t.Fatal(err)
	}
	yes := func(string) bool { return true }
	if n := testing.AllocsPerRun(100, func() { e.Eval(yes, yes) }); n != 0 {
		t.Errorf("Eval allocates %v times, want 0", n)
	}
}

func TestNamesStates(t *testing.T) {
	for _, tt := range []struct {
		in            string
		names, states []string
	}{
		{"true", nil, nil},
		{"seesPlayer && !tired || tired", []string{"seesPlayer", "tired"}, nil},
		{"In(Alert) || a && In('Alert') || In(b) && b", []string{"a", "b"}, []string{"Alert", "b"}},
		{"hp < 10 || hp  < 10 || hp < 10", []string{"hp < 10", "hp  < 10"}, nil},
	} {
		e, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q) = error %v", tt.in, err)
		}
		if got := e.Names(); !slices.Equal(got, tt.names) {
			t.Errorf("Parse(%q).Names() = %q, want %q", tt.in, got, tt.names)
		}
		if got := e.States(); !slices.Equal(got, tt.states) {
			t.Errorf("Parse(%q).States() = %q, want %q", tt.in, got, tt.states)
		}
	}
}

func TestNamesMany(t *testing.T) {
	// Past 16 names, distinct switches to a map: the order must hold.
	var parts, want []string
	for i := range 100 {
		n := "t" + itoa(i%40)
		parts = append(parts, n)
		if i < 40 {
			want = append(want, n)
		}
	}
	e, err := Parse(strings.Join(parts, " || "))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

func TestInvalidExpr(t *testing.T) {
	for _, tt := range []struct {
		name  string
		e     Expr
		depth int
	}{
		{"nil", nil, 0},
		{"empty", Expr{}, 0},
		{"not alone", Expr{{Op: Not}}, 0},
		{"and of one", Expr{{Op: Test, Name: "a"}, {Op: And}}, 1},
		{"two values", Expr{{Op: True}, {Op: False}}, 2},
		{"unknown op", Expr{{Op: 42}}, 0},
		{"or of none", Expr{{Op: Or}, {Op: True}}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			yes := func(string) bool { return true }
			if got := tt.e.String(); got != "<invalid guard>" {
				t.Errorf("%v.String() = %q, want %q", []Term(tt.e), got, "<invalid guard>")
			}
			if tt.e.Eval(yes, yes) {
				t.Errorf("%v.Eval() = true, want false", []Term(tt.e))
			}
			if got := tt.e.Depth(); got != tt.depth {
				t.Errorf("%v.Depth() = %d, want %d", []Term(tt.e), got, tt.depth)
			}
		})
	}
}

func TestHandBuiltString(t *testing.T) {
	for _, tt := range []struct {
		e    Expr
		want string
	}{
		{Expr{{Op: In, Name: ""}}, "In('')"},
		{Expr{{Op: In, Name: " a"}}, "In(' a')"},
		{Expr{{Op: In, Name: "it's (x)"}}, `In("it's (x)")`},
		{Expr{{Op: In, Name: "a||b"}}, "In('a||b')"},
		{Expr{{Op: Test, Name: "a"}, {Op: Test, Name: "b"}, {Op: Or}, {Op: Not}}, "!(a || b)"},
		{Expr{{Op: True}, {Op: Not}, {Op: Not}}, "!!true"},
	} {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("%v.String() = %q, want %q", []Term(tt.e), got, tt.want)
		}
	}
}

func TestOpString(t *testing.T) {
	var got []string
	for op := Test; op <= False+1; op++ {
		got = append(got, op.String())
	}
	want := []string{"Test", "In", "Not", "And", "Or", "True", "False", "Op(7)"}
	if !slices.Equal(got, want) {
		t.Errorf("Op.String() = %q, want %q", got, want)
	}
}
