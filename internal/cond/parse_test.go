package cond

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// postfix renders e's terms for a test: tests in brackets, In(state),
// the operators and constants as written.
func postfix(e Expr) string {
	var b strings.Builder
	for i, t := range e {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch t.Op {
		case Test:
			b.WriteString("[" + t.Name + "]")
		case In:
			b.WriteString("In(" + t.Name + ")")
		case Not:
			b.WriteString("!")
		case And:
			b.WriteString("&&")
		case Or:
			b.WriteString("||")
		case True:
			b.WriteString("true")
		case False:
			b.WriteString("false")
		default:
			b.WriteString(t.Op.String())
		}
	}
	return b.String()
}

// sameStructure reports whether a and b have the same terms, offsets
// aside.
func sameStructure(a, b Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Op != b[i].Op || a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

var parseTests = []struct {
	in, str, postfix string
}{
	{"hp < 10", "hp < 10", "[hp < 10]"},
	{"seesPlayer && !tired", "seesPlayer && !tired", "[seesPlayer] [tired] ! &&"},
	{"In(Alert) || (a && b)", "In(Alert) || a && b", "In(Alert) [a] [b] && ||"},
	{"In('s1')", "In(s1)", "In(s1)"},
	{`In("s1")`, "In(s1)", "In(s1)"},
	{"In ( s1 )", "In(s1)", "In(s1)"},
	{"In\t( 's1' )", "In(s1)", "In(s1)"},
	{"In(walk  left)", "In(walk  left)", "In(walk  left)"},
	{"In('a)b')", "In('a)b')", "In(a)b)"},
	{"In('a,b')", "In('a,b')", "In(a,b)"},
	{"In('x && y')", "In('x && y')", "In(x && y)"},
	{`In("it's")`, `In("it's")`, "In(it's)"},
	{`In('say "hi"')`, `In('say "hi"')`, `In(say "hi")`},
	{"In(' x ')", "In(' x ')", "In( x )"},
	{"In(In)", "In(In)", "In(In)"},
	{"In(a!)", "In(a!)", "In(a!)"},
	{"true", "true", "true"},
	{" false ", "false", "false"},
	{"!true", "!true", "true !"},
	{"true || false && true", "true || false && true", "true false true && ||"},
	{"trueish", "trueish", "[trueish]"},
	{"falsehood", "falsehood", "[falsehood]"},
	{"true x", "true x", "[true x]"},
	{"True", "True", "[True]"},
	{"Inside", "Inside", "[Inside]"},
	{"Inside(x)", "Inside(x)", "[Inside(x)]"},
	{"in(x)", "in(x)", "[in(x)]"},
	{"In", "In", "[In]"},
	{"In x", "In x", "[In x]"},
	{"In && In(In)", "In && In(In)", "[In] In(In) &&"},
	{"(In)", "In", "[In]"},
	{"a || b && c", "a || b && c", "[a] [b] [c] && ||"},
	{"a && b || c", "a && b || c", "[a] [b] && [c] ||"},
	{"(a || b) && c", "(a || b) && c", "[a] [b] || [c] &&"},
	{"a && (b || c)", "a && (b || c)", "[a] [b] [c] || &&"},
	{"a && b && c", "a && b && c", "[a] [b] && [c] &&"},
	{"(a && b) && c", "a && b && c", "[a] [b] && [c] &&"},
	{"a && (b && c)", "a && (b && c)", "[a] [b] [c] && &&"},
	{"a || b || c", "a || b || c", "[a] [b] || [c] ||"},
	{"a || (b || c)", "a || (b || c)", "[a] [b] [c] || ||"},
	{"!a && b", "!a && b", "[a] ! [b] &&"},
	{"!(a && b)", "!(a && b)", "[a] [b] && !"},
	{"!(a || b) || !c", "!(a || b) || !c", "[a] [b] || ! [c] ! ||"},
	{"!!a", "!!a", "[a] ! !"},
	{"! ! a", "!!a", "[a] ! !"},
	{"!(!a)", "!!a", "[a] ! !"},
	{"!In(x)", "!In(x)", "In(x) !"},
	{"((a))", "a", "[a]"},
	{"( ( a ) && ( b ) )", "a && b", "[a] [b] &&"},
	{"f(x) && y", "f(x) && y", "[f(x)] [y] &&"},
	{"(f(x))", "f(x)", "[f(x)]"},
	{"x > (y + 1)", "x > (y + 1)", "[x > (y + 1)]"},
	{"f(a && b) || c", "f(a && b) || c", "[f(a && b)] [c] ||"},
	{"f((a || b)) && g()", "f((a || b)) && g()", "[f((a || b))] [g()] &&"},
	{"hp != 0", "hp != 0", "[hp != 0]"},
	{"!hp != 0", "!hp != 0", "[hp != 0] !"},
	{"a ! b", "a ! b", "[a ! b]"},
	{`a == "x && y"`, `a == "x && y"`, `[a == "x && y"]`},
	{`a == 'x || y' || b`, `a == 'x || y' || b`, `[a == 'x || y'] [b] ||`},
	{`f(")") && b`, `f(")") && b`, `[f(")")] [b] &&`},
	{`(a == ")")`, `a == ")"`, `[a == ")"]`},
	{"a  &&  b", "a && b", "[a] [b] &&"},
	{"a&&b||c", "a && b || c", "[a] [b] && [c] ||"},
	{"two  spaces && x", "two  spaces && x", "[two  spaces] [x] &&"},
	{"\ta\n&&\u00a0b\u2003", "a && b", "[a] [b] &&"},
	{"a & b | c", "a & b | c", "[a & b | c]"},
	{"a &&& b", "a && & b", "[a] [& b] &&"},
	{"a ||| b", "a || | b", "[a] [| b] ||"},
	{"ünïcode && ok", "ünïcode && ok", "[ünïcode] [ok] &&"},
	{"x\xff && y", "x\xff && y", "[x\xff] [y] &&"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.in, func(t *testing.T) {
			e, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q) = error %v, want %q", tt.in, err, tt.str)
			}
			if got := e.String(); got != tt.str {
				t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.str)
			}
			if got := postfix(e); got != tt.postfix {
				t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.postfix)
			}
			again, err := Parse(e.String())
			if err != nil || !sameStructure(again, e) {
				t.Errorf("Parse(%q) = %s, %v, want %s", e.String(), postfix(again), err, tt.postfix)
			}
		})
	}
}

func TestParseOffsets(t *testing.T) {
	for _, tt := range []struct {
		in   string
		offs []int
	}{
		{"seesPlayer && !tired", []int{0, 15, 14, 11}},
		{"  In ( 'x' ) || true", []int{2, 16, 13}},
		{"(a)||  b c ", []int{1, 7, 3}},
		{"é && false", []int{0, 6, 3}},
	} {
		e, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q) = error %v", tt.in, err)
		}
		var got []int
		for _, term := range e {
			got = append(got, term.Off)
		}
		if !equalInts(got, tt.offs) {
			t.Errorf("Parse(%q) offsets = %v, want %v", tt.in, got, tt.offs)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// deepStack nests n levels of "a || b && (", each keeping two values on
// the stack.
func deepStack(n int) string {
	return strings.Repeat("a || b && (", n) + "c" + strings.Repeat(")", n)
}

var errorTests = []struct {
	name, in string
	off      int
	msg      string
}{
	{"empty", "", 0, "expected a condition, found an empty guard"},
	{"blank", " \t ", 3, "expected a condition, found an empty guard"},
	{"and at end", "a && ", 5, `expected a condition after "&&", found the end of the guard`},
	{"or at end", "a ||", 4, `expected a condition after "||", found the end of the guard`},
	{"and first", "&& b", 0, `expected a condition, found "&&"`},
	{"or first", "  || b", 2, `expected a condition, found "||"`},
	{"two operators", "a && || b", 5, `expected a condition after "&&", found "||"`},
	{"not alone", "!", 1, `expected a condition after "!", found the end of the guard`},
	{"not before paren", "a && !)", 6, `expected a condition after "!", found ")"`},
	{"empty parens", "()", 1, `expected a condition between "(" and ")", found empty parentheses`},
	{"empty parens spaced", "a && (  )", 8, "found empty parentheses"},
	{"paren then and", "(&& a)", 1, `expected a condition after "(", found "&&"`},
	{"unclosed", "(a", 0, `found "(" that is never closed: expected ")" before the end of the guard`},
	{"unclosed outer", "((a)", 0, `"(" that is never closed`},
	{"unclosed inner", "a || (b && (c)", 5, `"(" that is never closed`},
	{"stray", "a)", 1, `found ")" with no "(" to close: expected &&, || or the end of the guard`},
	{"stray after group", "(a))", 3, `found ")" with no "("`},
	{"stray first", ")", 0, `expected a condition, found ")"`},
	{"unclosed in operand", "f(x", 1, `found "(" in "f(x" that is never closed`},
	{"unclosed in operand nested", "a && f(g(x)", 6, `"(" in "f(g(x)" that is never closed`},
	{"In empty", "In()", 3, `expected a state name between "In(" and ")", found ")"`},
	{"In open", "In(", 2, `found "In(" that is never closed`},
	{"In unclosed", "In(x", 2, `found "In(" that is never closed`},
	{"In unclosed spaced", "In (x ", 3, `found "In(" that is never closed`},
	{"In quoted unclosed", "In('x'", 2, `found "In(" that is never closed`},
	{"In junk after quote", "In('x' y)", 7, `expected ")" after the state name "x", found "y"`},
	{"In empty quotes", "In('')", 3, "expected a state name between the quotes, found ''"},
	{"In quote unterminated", `In("x)`, 3, `found the quote " that is never closed`},
	{"In two states", "In(a, b)", 4, `expected ")" after the state name "a", found ","`},
	{"In expression", "In(a && b)", 5, `expected ")" after the state name "a", found "&&"`},
	{"In or", "In(a||b)", 4, `expected ")" after the state name "a", found "||"`},
	{"In paren in name", "In(a(b))", 4, `expected ")" after the state name "a", found "("`},
	{"In paren first", "In((a))", 3, `expected a state name after "In(", found "("`},
	{"In quote in name", "In(it's)", 5, `expected ")" after the state name "it", found "'s"`},
	{"In junk after", "In(x) y", 6, `expected &&, || or the end of the guard, found "y"`},
	{"In junk in group", "(In(x) y)", 7, `expected &&, || or ")", found "y"`},
	{"quote", `a == "x`, 5, `found the quote " that is never closed: expected another " before the end of the guard`},
	{"apostrophe", "player's turn", 6, "found the quote ' that is never closed"},
	{"junk after group", "(a) b", 4, `expected &&, || or the end of the guard, found "b"`},
	{"junk after group in group", "((a) b)", 5, `expected &&, || or ")", found "b"`},
	{"group after group", "(a)(b)", 3, `expected &&, || or the end of the guard, found "("`},
	{"single ampersand after group", "(a) & b", 4, `found "&"`},
	{"long junk", "(a) abcdefghijklmnopqrstuvwxyz", 4, `found "abcdefghijklmnopqrstuvwx…"`},
	{"deep parens", strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1), MaxDepth,
		`found "(" nested 65 levels deep: expected at most 64 parentheses and ! inside one another`},
	{"deep nots", strings.Repeat("!", MaxDepth+1) + "a", MaxDepth, `found "!" nested 65 levels deep`},
	{"deep mixed", strings.Repeat("!(", MaxDepth/2) + "!a" + strings.Repeat(")", MaxDepth/2), MaxDepth, `found "!" nested 65 levels deep`},
	{"huge parens", strings.Repeat("(", 1<<20), MaxDepth, "nested 65 levels deep"},
	{"huge nots", strings.Repeat("!", 1<<20), MaxDepth, "nested 65 levels deep"},
	{"deep stack", deepStack(MaxDepth/2 + 1), (MaxDepth/2)*len("a || b && (") + len("a || "),
		"found a condition nested too deeply, with 65 before it waiting for the rest of their && or ||: expected at most 64"},
	{"too many terms", "a" + strings.Repeat(" && a", MaxTerms/2), len("a") + (MaxTerms/2-1)*len(" && a") + 1,
		"found term 1025: expected at most 1024 tests, constants and operators in a guard"},
	{"huge", strings.Repeat("a||", 1<<18), 1 + 3*(MaxTerms/2-1), "found term 1025"},
	{"huge operand unclosed", "f(" + strings.Repeat("x", 1<<20), 1, `found "(" in "f(xxxxxxxxxxxxxxxxxxxxxx…" that is never closed`},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%.40q) = %s, want error %q", tt.in, e, tt.msg)
			}
			if e != nil {
				t.Errorf("Parse(%.40q) = %s and an error, want nil", tt.in, e)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%.40q) error = %T, want *Error", tt.in, err)
			}
			if pe.Off != tt.off {
				t.Errorf("Parse(%.40q) error at %d, want %d (%v)", tt.in, pe.Off, tt.off, err)
			}
			if !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("Parse(%.40q) error = %q, want it to contain %q", tt.in, pe.Msg, tt.msg)
			}
			checkError(t, tt.in, pe)
		})
	}
}

// checkError checks what every error of Parse must be: at an offset in
// the guard, in the right column, with a message and a hint, rendered.
func checkError(t *testing.T, in string, e *Error) {
	t.Helper()
	if e.Off < 0 || e.Off > len(in) {
		t.Fatalf("Parse(%.40q) error at %d, outside the guard of %d bytes", in, e.Off, len(in))
	}
	if want := utf8.RuneCountInString(in[:e.Off]) + 1; e.Col != want {
		t.Errorf("Parse(%.40q) error column = %d, want %d", in, e.Col, want)
	}
	if e.Msg == "" || e.Hint == "" {
		t.Errorf("Parse(%.40q) error = %q, hint %q, want both", in, e.Msg, e.Hint)
	}
	for _, s := range []string{e.Msg, e.Hint} {
		if s != "" && (strings.ToLower(s[:1]) != s[:1] || strings.HasSuffix(s, ".")) {
			t.Errorf("Parse(%.40q) error text %q, want lower case without a final period", in, s)
		}
	}
	if want := "column " + itoa(e.Col) + ": " + e.Msg; e.Error() != want {
		t.Errorf("Parse(%.40q) error renders %q, want %q", in, e.Error(), want)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestErrorColumn(t *testing.T) {
	for _, tt := range []struct {
		in       string
		off, col int
		text     string
	}{
		{"héllo && ", 10, 10, `column 10: expected a condition after "&&", found the end of the guard`},
		{"ü)", 2, 2, `column 2: found ")" with no "(" to close: expected &&, || or the end of the guard`},
		{"\xff\xfe)", 2, 3, `column 3: found ")"`},
	} {
		_, err := Parse(tt.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Parse(%q) = %v, want an *Error", tt.in, err)
		}
		if e.Off != tt.off || e.Col != tt.col || !strings.HasPrefix(e.Error(), tt.text) {
			t.Errorf("Parse(%q) error = %d, %d, %q, want %d, %d, %q", tt.in, e.Off, e.Col, e.Error(), tt.off, tt.col, tt.text)
		}
	}
}

func TestParseLimits(t *testing.T) {
	for _, tt := range []struct {
		name, in     string
		depth, terms int // terms: 0 when not checked
	}{
		{"parens", strings.Repeat("(", MaxDepth) + "a" + strings.Repeat(")", MaxDepth), 1, 1},
		{"nots", strings.Repeat("!", MaxDepth) + "a", 1, MaxDepth + 1},
		{"right-nested", strings.Repeat("a && (", MaxDepth) + "a" + strings.Repeat(")", MaxDepth), MaxDepth + 1, 2*MaxDepth + 1},
		{"stack", deepStack(MaxDepth / 2), MaxDepth + 1, 0},
		{"terms", "!a" + strings.Repeat(" && a", MaxTerms/2-1), 2, MaxTerms},
		{"long chain", strings.Repeat("a || ", MaxTerms/2-1) + "a", 2, MaxTerms - 1},
		{"long operand", strings.Repeat("x", 1<<20), 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%.40q) = error %v, want an Expr", tt.in, err)
			}
			if len(e) > MaxTerms || tt.terms != 0 && len(e) != tt.terms {
				t.Errorf("Parse(%.40q) has %d terms, want %d (at most %d)", tt.in, len(e), tt.terms, MaxTerms)
			}
			if got := e.Depth(); got != tt.depth {
				t.Errorf("Parse(%.40q).Depth() = %d, want %d", tt.in, got, tt.depth)
			}
			again, err := Parse(e.String())
			if err != nil || !sameStructure(again, e) {
				t.Errorf("Parse(Parse(%.40q).String()) = %v, want the same terms", tt.in, err)
			}
		})
	}
}

// TestDocMistakes keeps the examples of the package documentation true.
func TestDocMistakes(t *testing.T) {
	for in, want := range map[string]string{
		"seesPlayer &&": `column 14: expected a condition after "&&", found the end of the guard`,
		"(a || b":       `column 1: found "(" that is never closed: expected ")" before the end of the guard`,
		"()":            `column 2: expected a condition between "(" and ")", found empty parentheses`,
		"a)":            `column 2: found ")" with no "(" to close: expected &&, || or the end of the guard`,
		"In()":          `column 4: expected a state name between "In(" and ")", found ")"`,
		"player's turn": `column 7: found the quote ' that is never closed: expected another ' before the end of the guard`,
	} {
		if _, err := Parse(in); err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %s", in, err, want)
		}
	}
}
