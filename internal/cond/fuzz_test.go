package cond

import (
	"errors"
	"hash/maphash"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error it returns
// is an *Error at a place in the guard that renders, and that every Expr
// it returns is within the limits, prints as a guard that parses to the
// same terms, and evaluates as that one does.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, tt := range errorTests {
		if len(tt.in) <= 256 {
			f.Add(tt.in)
		}
	}
	f.Add(deepStack(MaxDepth / 2))
	f.Add(strings.Repeat("a && (", MaxDepth) + "a" + strings.Repeat(")", MaxDepth))
	seed := maphash.MakeSeed()
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error = %T %v, want *Error", s, err, err)
			}
			if e != nil {
				t.Fatalf("Parse(%q) = %v and an error, want nil", s, []Term(e))
			}
			checkError(t, s, pe)
			return
		}
		if len(e) == 0 || len(e) > MaxTerms {
			t.Fatalf("Parse(%q) has %d terms, want 1 to %d", s, len(e), MaxTerms)
		}
		if d := e.Depth(); d < 1 || d > MaxDepth+1 {
			t.Fatalf("Parse(%q).Depth() = %d, want 1 to %d", s, d, MaxDepth+1)
		}
		for _, term := range e {
			if term.Off < 0 || term.Off >= len(s) {
				t.Fatalf("Parse(%q) term %v at %d, outside the guard", s, term, term.Off)
			}
			switch term.Op {
			case Test:
				if term.Name == "" || !strings.HasPrefix(s[term.Off:], term.Name) || strings.TrimFunc(term.Name, isSpace) != term.Name {
					t.Fatalf("Parse(%q) test %q at %d, want the trimmed text there", s, term.Name, term.Off)
				}
			case In:
				if term.Name == "" || !strings.HasPrefix(s[term.Off:], "In") {
					t.Fatalf("Parse(%q) In(%q) at %d, want a state at an In", s, term.Name, term.Off)
				}
			}
		}
		str := e.String()
		again, err := Parse(str)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q, which does not parse: %v", s, str, err)
		}
		if !sameStructure(again, e) {
			t.Fatalf("Parse(%q) = %s, but Parse(%q) = %s", s, postfix(e), str, postfix(again))
		}
		if got := again.String(); got != str {
			t.Fatalf("Parse(%q).String() = %q, want %q", str, got, str)
		}
		test := func(name string) bool { return maphash.String(seed, name)&1 == 0 }
		in := func(state string) bool { return maphash.String(seed, state)&2 == 0 }
		if a, b := e.Eval(test, in), again.Eval(test, in); a != b {
			t.Fatalf("Parse(%q).Eval() = %v, but Parse(%q).Eval() = %v", s, a, str, b)
		}
	})
}
