package cond

import "strings"

// Depth returns the most values evaluating e holds on its stack at once:
// 1 for "a", 2 for "a && b" and "a && b && c", 3 for "a || b && c". It
// is at most [MaxDepth]+1 for an Expr that [Parse] returned, so a runtime
// may evaluate every guard with a stack of that size. It costs one pass
// over e and does not allocate.
func (e Expr) Depth() int {
	h, most := 0, 0
	for _, t := range e {
		switch t.Op {
		case Test, In, True, False:
			h++
			most = max(most, h)
		case And, Or:
			h--
		}
	}
	return most
}

// Eval evaluates e: test answers a Test term, in an In term (nil for one
// that is always false). Every term is evaluated, in order, and test and
// in are called once for each of their terms, as a runtime without short
// circuits would: it is the reference for runtimes and the tool of tests.
// Eval returns false for an Expr that is not well formed. It does not
// allocate for an Expr that [Parse] returned (unless test or in escapes).
func (e Expr) Eval(test func(name string) bool, in func(state string) bool) bool {
	var buf [MaxDepth + 1]bool
	st := buf[:0]
	for _, t := range e {
		n := len(st)
		switch t.Op {
		case Test:
			st = append(st, test != nil && test(t.Name))
		case In:
			st = append(st, in != nil && in(t.Name))
		case True, False:
			st = append(st, t.Op == True)
		case Not:
			if n < 1 {
				return false
			}
			st[n-1] = !st[n-1]
		case And, Or:
			if n < 2 {
				return false
			}
			if t.Op == And {
				st[n-2] = st[n-2] && st[n-1]
			} else {
				st[n-2] = st[n-2] || st[n-1]
			}
			st = st[:n-1]
		default:
			return false
		}
	}
	return len(st) == 1 && st[0]
}

// Names returns the distinct names of e's Test terms, in the order they
// first appear: ["seesPlayer", "tired"] for "seesPlayer && !tired ||
// tired". It allocates the slice (nil when there are none).
func (e Expr) Names() []string { return e.distinct(Test) }

// States returns the distinct states of e's In terms, in the order they
// first appear: ["Alert"] for "In(Alert) || a && In('Alert')". It
// allocates the slice (nil when there are none).
func (e Expr) States() []string { return e.distinct(In) }

// distinct returns the distinct names of e's terms of operation op.
func (e Expr) distinct(op Op) []string {
	var names []string
	var seen map[string]bool // when names grows long
	for _, t := range e {
		if t.Op != op {
			continue
		}
		if seen == nil && len(names) > 16 {
			seen = make(map[string]bool, len(names))
			for _, n := range names {
				seen[n] = true
			}
		}
		if seen != nil {
			if !seen[t.Name] {
				seen[t.Name] = true
				names = append(names, t.Name)
			}
			continue
		}
		dup := false
		for _, n := range names {
			if n == t.Name {
				dup = true
				break
			}
		}
		if !dup {
			names = append(names, t.Name)
		}
	}
	return names
}

// String returns e as a guard in canonical form: tests as written, In
// with its state (quoted when it has to be), true and false, "!", " && "
// and " || ", and parentheses only where the structure needs them
// ("a && (b || c)", "a && (b && c)" but "a && b && c" for the
// left-associative chain). For an Expr that [Parse] returned,
// Parse(e.String()) returns an Expr of the same terms, offsets aside. It
// returns "<invalid guard>" for an Expr that is not well formed.
func (e Expr) String() string {
	start, ok := e.tree()
	if !ok {
		return "<invalid guard>"
	}
	var b strings.Builder
	w := writer{e: e, start: start, b: &b}
	w.write(len(e) - 1)
	return b.String()
}

// tree returns, for each term of e, the index of the first term of the
// subexpression it ends; false when e is not well formed.
func (e Expr) tree() ([]int, bool) {
	if len(e) == 0 {
		return nil, false
	}
	start := make([]int, len(e))
	h := 0
	for i, t := range e {
		switch t.Op {
		case Test, In, True, False:
			start[i] = i
			h++
		case Not:
			if h < 1 {
				return nil, false
			}
			start[i] = start[i-1]
		case And, Or:
			if h < 2 {
				return nil, false
			}
			start[i] = start[start[i-1]-1]
			h--
		default:
			return nil, false
		}
	}
	return start, h == 1
}

// writer writes the subexpressions of a well-formed Expr.
type writer struct {
	e     Expr
	start []int
	b     *strings.Builder
}

// prec returns the precedence of the operation of term i: || binds
// loosest, then &&, then ! and the operands.
func (w *writer) prec(i int) int {
	switch w.e[i].Op {
	case Or:
		return 1
	case And:
		return 2
	}
	return 3
}

// write writes the subexpression that term i ends.
func (w *writer) write(i int) {
	t := w.e[i]
	switch t.Op {
	case Test:
		w.b.WriteString(t.Name)
	case In:
		w.b.WriteString("In(")
		w.b.WriteString(quoteState(t.Name))
		w.b.WriteString(")")
	case True:
		w.b.WriteString("true")
	case False:
		w.b.WriteString("false")
	case Not:
		w.b.WriteString("!")
		w.operand(i-1, w.prec(i-1) < 3)
	case And, Or:
		p := w.prec(i)
		l, r := w.start[i-1]-1, i-1
		w.operand(l, w.prec(l) < p)
		if t.Op == And {
			w.b.WriteString(" && ")
		} else {
			w.b.WriteString(" || ")
		}
		w.operand(r, w.prec(r) <= p) // a && (b && c) keeps its structure
	}
}

// operand writes the subexpression that term i ends, in parentheses when
// paren is true.
func (w *writer) operand(i int, paren bool) {
	if paren {
		w.b.WriteString("(")
	}
	w.write(i)
	if paren {
		w.b.WriteString(")")
	}
}

// quoteState returns the state name as In reads it back: as it is, or in
// single quotes (double quotes if it holds a single one) when it is
// empty, starts or ends with white space, or holds parentheses, commas,
// quotes, && or ||.
func quoteState(name string) string {
	if name != "" && strings.TrimFunc(name, isSpace) == name &&
		!strings.ContainsAny(name, `()'",`) && !strings.Contains(name, "&&") && !strings.Contains(name, "||") {
		return name
	}
	if strings.Contains(name, "'") {
		return `"` + name + `"`
	}
	return "'" + name + "'"
}
