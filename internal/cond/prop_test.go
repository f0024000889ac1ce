package cond

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// node is a guard as a tree, built by the property test.
type node struct {
	op   Op
	name string
	l, r *node // r for And and Or; l for Not, And and Or
}

var (
	propTests = []string{
		"a", "b", "seesPlayer", "tired", "hp < 10", "hp != 0", "f(x)", "g(a && b, c)",
		`name == "x && y"`, `s == 'a || b)'`, "Inside", "trueish", "true x", "False",
		"In", "In x", "a & b", "a | b", "x > (y + 1)", "two  spaces", "ünïcode", `f(")")`,
	}
	propStates = []string{
		"Alert", "s1", "walk left", "a)b", "it's", " padded ", "a,b", "x&&y", "In", "true", "(", `say "hi"`,
	}
	propSpaces = []string{"", "", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000"}
)

// randomNode returns a random tree at most depth levels deep.
func randomNode(r *rand.Rand, depth int) *node {
	if depth == 0 || r.IntN(3) == 0 {
		switch r.IntN(10) {
		case 0:
			return &node{op: True}
		case 1:
			return &node{op: False}
		case 2, 3:
			return &node{op: In, name: propStates[r.IntN(len(propStates))]}
		}
		return &node{op: Test, name: propTests[r.IntN(len(propTests))]}
	}
	switch r.IntN(4) {
	case 0:
		return &node{op: Not, l: randomNode(r, depth-1)}
	case 1:
		return &node{op: Or, l: randomNode(r, depth-1), r: randomNode(r, depth-1)}
	}
	return &node{op: And, l: randomNode(r, depth-1), r: randomNode(r, depth-1)}
}

// postfix returns the terms of n, as Parse should return them.
func (n *node) postfix(e Expr) Expr {
	if n.l != nil {
		e = n.l.postfix(e)
	}
	if n.r != nil {
		e = n.r.postfix(e)
	}
	return append(e, Term{Op: n.op, Name: n.name})
}

func (n *node) eval(test, in func(string) bool) bool {
	switch n.op {
	case Test:
		return test(n.name)
	case In:
		return in(n.name)
	case True:
		return true
	case False:
		return false
	case Not:
		return !n.l.eval(test, in)
	case And:
		return n.l.eval(test, in) && n.r.eval(test, in)
	}
	return n.l.eval(test, in) || n.r.eval(test, in)
}

func (n *node) prec() int {
	switch n.op {
	case Or:
		return 1
	case And:
		return 2
	}
	return 3
}

// printer writes trees as guards: canonically (the form Expr.String
// should give, written here independently), or, with r set, with random
// white space, random quotes and random parentheses around the needed
// ones.
type printer struct {
	r *rand.Rand
	b strings.Builder
}

func (p *printer) space() {
	if p.r != nil {
		p.b.WriteString(propSpaces[p.r.IntN(len(propSpaces))])
	}
}

func (p *printer) print(n *node, paren bool) {
	if p.r != nil && p.r.IntN(8) == 0 {
		paren = true
	}
	if paren {
		p.b.WriteString("(")
		p.space()
	}
	switch n.op {
	case Test:
		p.b.WriteString(n.name)
	case True:
		p.b.WriteString("true")
	case False:
		p.b.WriteString("false")
	case In:
		p.b.WriteString("In")
		p.space()
		p.b.WriteString("(")
		p.space()
		p.b.WriteString(p.state(n.name))
		p.space()
		p.b.WriteString(")")
	case Not:
		p.b.WriteString("!")
		p.space()
		p.print(n.l, n.l.prec() < 3)
	case And, Or:
		p.print(n.l, n.l.prec() < n.prec())
		if p.r == nil {
			p.b.WriteString(" ")
		}
		p.space()
		if n.op == And {
			p.b.WriteString("&&")
		} else {
			p.b.WriteString("||")
		}
		if p.r == nil {
			p.b.WriteString(" ")
		}
		p.space()
		p.print(n.r, n.r.prec() <= n.prec())
	}
	if paren {
		p.space()
		p.b.WriteString(")")
	}
}

// state returns the state name as written in In(...).
func (p *printer) state(name string) string {
	plain := name != "" && strings.TrimSpace(name) == name && !strings.ContainsAny(name, `()'",`) &&
		!strings.Contains(name, "&&") && !strings.Contains(name, "||")
	if p.r == nil || !plain {
		if plain {
			return name
		}
		if strings.Contains(name, "'") {
			return `"` + name + `"`
		}
		return "'" + name + "'"
	}
	switch p.r.IntN(3) {
	case 0:
		return "'" + name + "'"
	case 1:
		return `"` + name + `"`
	}
	return name
}

// TestRandomGuards builds random guards as trees, prints them with random
// white space, quotes and parentheses, and checks that Parse returns the
// tree's terms, that String prints them canonically, and that Eval agrees
// with the tree under random answers.
func TestRandomGuards(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := append(append([]string(nil), propTests...), propStates...)
	for i := range 3000 {
		n := randomNode(r, 1+i%7)
		rp := printer{r: r}
		rp.print(n, false)
		guard := rp.b.String()
		want := n.postfix(nil)

		e, err := Parse(guard)
		if err != nil {
			t.Fatalf("Parse(%q) = error %v, want %s", guard, err, postfix(want))
		}
		if !sameStructure(e, want) {
			t.Fatalf("Parse(%q) = %s, want %s", guard, postfix(e), postfix(want))
		}
		var cp printer
		cp.print(n, false)
		if got := e.String(); got != cp.b.String() {
			t.Fatalf("Parse(%q).String() = %q, want %q", guard, got, cp.b.String())
		}
		again, err := Parse(e.String())
		if err != nil || !sameStructure(again, e) {
			t.Fatalf("Parse(%q) = %s, %v, want %s", e.String(), postfix(again), err, postfix(want))
		}

		for range 8 {
			truths := map[string]bool{}
			for _, name := range names {
				truths[name] = r.IntN(2) == 0
			}
			test := func(name string) bool { return truths[name] }
			in := func(state string) bool { return !truths[state] }
			if got, want := e.Eval(test, in), n.eval(test, in); got != want {
				t.Fatalf("Parse(%q).Eval(%v) = %v, want %v", guard, truths, got, want)
			}
		}
	}
}
