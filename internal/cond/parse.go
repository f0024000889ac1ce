package cond

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parse parses the guard s (the syntax is in the package documentation)
// into an [Expr]. It returns an [*Error] for a guard it cannot read: an
// empty guard or condition, a parenthesis or quote that is not closed, a
// stray ")", an In without a state or with more than one, a guard nested
// more than [MaxDepth] deep or longer than [MaxTerms] terms.
//
// Parse never panics, takes time linear in the length of s, and nests
// its recursion at most MaxDepth levels deep whatever s holds. The names
// in the Expr are substrings of s (they keep s in memory); a guard costs
// one allocation, its Expr, unless it is refused. It is safe to call
// concurrently.
func Parse(s string) (Expr, error) {
	p := parser{s: s, out: make(Expr, 0, estimate(s))}
	if !p.or("") {
		return nil, p.err
	}
	if j := p.skip(p.i); j < len(s) {
		if s[j] == ')' {
			p.fail(j, hintStray, `found ")" with no "(" to close: expected &&, || or the end of the guard`)
		} else {
			p.fail(j, hintJoin, "expected &&, || or the end of the guard, found %s", found(s, j))
		}
		return nil, p.err
	}
	return p.out, nil
}

// estimate returns how many terms the guard s probably has, at most
// MaxTerms: two for each && and ||, one for each !, and one.
func estimate(s string) int {
	n := 1
	for i := 0; i < len(s) && n < MaxTerms; i++ {
		switch s[i] {
		case '!':
			n++
		case '&', '|':
			if i+1 < len(s) && s[i+1] == s[i] {
				n += 2
				i++
			}
		}
	}
	return min(n, MaxTerms)
}

// parser reads one guard by recursive descent, one method per rule of the
// grammar. Each method returns false when it found an error, in err.
type parser struct {
	s      string
	i      int  // the next byte to read
	out    Expr // the program so far
	nest   int  // the ( and ! open around i
	height int  // the values out leaves on the stack
	err    *Error
}

// fail records the error at byte offset off (the first only) and returns
// false.
func (p *parser) fail(off int, hint, format string, args ...any) bool {
	if p.err == nil {
		p.err = newError(p.s, off, hint, fmt.Sprintf(format, args...))
	}
	return false
}

// emit appends t to the program, refusing more than MaxTerms terms and
// more than MaxDepth+1 values on the stack.
func (p *parser) emit(t Term) bool {
	if len(p.out) >= MaxTerms {
		return p.fail(t.Off, hintTooMany, "found term %d: expected at most %d tests, constants and operators in a guard", MaxTerms+1, MaxTerms)
	}
	switch t.Op {
	case Test, In, True, False:
		if p.height > MaxDepth {
			return p.fail(t.Off, hintDeep, "found a condition nested too deeply, with %d before it waiting for the rest of their && or ||: expected at most %d", p.height, MaxDepth)
		}
		p.height++
	case And, Or:
		p.height--
	}
	p.out = append(p.out, t)
	return true
}

// open counts one more level of ( and ! at byte offset off, refusing more
// than MaxDepth.
func (p *parser) open(off int) bool {
	if p.nest >= MaxDepth {
		return p.fail(off, hintDeep, "found %q nested %d levels deep: expected at most %d parentheses and ! inside one another", p.s[off:off+1], MaxDepth+1, MaxDepth)
	}
	p.nest++
	return true
}

// or parses or := and ( "||" and )*; after is what came before it, for
// messages.
func (p *parser) or(after string) bool {
	if !p.and(after) {
		return false
	}
	for {
		j := p.skip(p.i)
		if !strings.HasPrefix(p.s[j:], "||") {
			return true
		}
		p.i = j + 2
		if !p.and("||") || !p.emit(Term{Op: Or, Off: j}) {
			return false
		}
	}
}

// and parses and := unary ( "&&" unary )*.
func (p *parser) and(after string) bool {
	if !p.unary(after) {
		return false
	}
	for {
		j := p.skip(p.i)
		if !strings.HasPrefix(p.s[j:], "&&") {
			return true
		}
		p.i = j + 2
		if !p.unary("&&") || !p.emit(Term{Op: And, Off: j}) {
			return false
		}
	}
}

// unary parses unary := "!" unary | primary.
func (p *parser) unary(after string) bool {
	j := p.skip(p.i)
	if j == len(p.s) || p.s[j] != '!' {
		return p.primary(after)
	}
	if !p.open(j) {
		return false
	}
	p.i = j + 1
	if !p.unary("!") {
		return false
	}
	p.nest--
	return p.emit(Term{Op: Not, Off: j})
}

// primary parses primary := "(" or ")" | "true" | "false" | In "(" state ")"
// | operand.
func (p *parser) primary(after string) bool {
	s := p.s
	j := p.skip(p.i)
	where := func() string { // for the messages, only
		if after == "" {
			return ""
		}
		return ` after "` + after + `"`
	}
	switch {
	case j == len(s) && strings.TrimFunc(s, isSpace) == "":
		return p.fail(j, hintEmpty, "expected a condition, found an empty guard")
	case j == len(s):
		return p.fail(j, hintMissing, "expected a condition%s, found the end of the guard", where())
	case s[j] == ')' && after == "(":
		return p.fail(j, hintEmptyPar, `expected a condition between "(" and ")", found empty parentheses`)
	case s[j] == ')', strings.HasPrefix(s[j:], "&&"), strings.HasPrefix(s[j:], "||"):
		return p.fail(j, hintMissing, "expected a condition%s, found %s", where(), found(s, j))
	case s[j] == '(':
		return p.group(j)
	case p.isIn(j):
		return p.in(j)
	}
	return p.operand(j)
}

// group parses "(" or ")", the "(" at byte offset j.
func (p *parser) group(j int) bool {
	if !p.open(j) {
		return false
	}
	p.i = j + 1
	if !p.or("(") {
		return false
	}
	k := p.skip(p.i)
	switch {
	case k == len(p.s):
		return p.fail(j, hintUnclosed, `found "(" that is never closed: expected ")" before the end of the guard`)
	case p.s[k] != ')':
		return p.fail(k, hintJoin, `expected &&, || or ")", found %s`, found(p.s, k))
	}
	p.i = k + 1
	p.nest--
	return true
}

// isIn reports whether the primary at byte offset j is In(...): "In",
// spaces perhaps, and "(".
func (p *parser) isIn(j int) bool {
	if !strings.HasPrefix(p.s[j:], "In") {
		return false
	}
	k := p.skip(j + 2)
	return k < len(p.s) && p.s[k] == '('
}

// in parses In "(" state ")", the "In" at byte offset j. The state is
// quoted with ' or " (and then any text but that quote), or the text
// before the ")", trimmed, without parentheses, commas, quotes, && or ||.
func (p *parser) in(j int) bool {
	s := p.s
	open := p.skip(j + 2)
	k := p.skip(open + 1)
	unclosed := func() bool {
		return p.fail(open, hintIn, `found "In(" that is never closed: expected a state name and ")" before the end of the guard`)
	}
	if k == len(s) {
		return unclosed()
	}
	var name string
	switch c := s[k]; c {
	case ')':
		return p.fail(k, hintIn, `expected a state name between "In(" and ")", found ")"`)
	case '\'', '"':
		e := strings.IndexByte(s[k+1:], c)
		if e < 0 {
			return p.fail(k, hintQuote, "found the quote %c that is never closed: expected another %c before the end of the guard", c, c)
		}
		name = s[k+1 : k+1+e]
		if name == "" {
			return p.fail(k, hintIn, "expected a state name between the quotes, found %c%c", c, c)
		}
		m := p.skip(k + 2 + e)
		if m == len(s) {
			return unclosed()
		}
		if s[m] != ')' {
			return p.fail(m, hintIn, `expected ")" after the state name %q, found %s`, name, found(s, m))
		}
		p.i = m + 1
	default:
		e := k
		for ; e < len(s) && s[e] != ')'; e++ {
			hint := ""
			switch s[e] {
			case '(', '\'', '"':
				hint = hintInQuote
			case ',':
				hint = hintIn
			case '&', '|':
				if e+1 < len(s) && s[e+1] == s[e] {
					hint = hintIn
				}
			}
			if hint == "" {
				continue
			}
			if e == k {
				return p.fail(e, hint, `expected a state name after "In(", found %s`, found(s, e))
			}
			return p.fail(e, hint, `expected ")" after the state name %q, found %s`, strings.TrimRightFunc(s[k:e], isSpace), found(s, e))
		}
		if e == len(s) {
			return unclosed()
		}
		name = strings.TrimRightFunc(s[k:e], isSpace)
		p.i = e + 1
	}
	return p.emit(Term{Op: In, Name: name, Off: j})
}

// operand parses an operand starting at byte offset j (not white space,
// "!", "(", ")", "&&" or "||"): the text up to "&&", "||" or a ")" that
// it did not open, or the end, skipping quoted text, trimmed. The words
// true and false alone are the constants.
func (p *parser) operand(j int) bool {
	s := p.s
	e, depth, open := j, 0, 0
loop:
	for ; e < len(s); e++ {
		switch c := s[e]; c {
		case '\'', '"':
			q := strings.IndexByte(s[e+1:], c)
			if q < 0 {
				return p.fail(e, hintTestQuote, "found the quote %c that is never closed: expected another %c before the end of the guard", c, c)
			}
			e += q + 1
		case '(':
			if depth == 0 {
				open = e
			}
			depth++
		case ')':
			if depth == 0 {
				break loop
			}
			depth--
		case '&', '|':
			if depth == 0 && e+1 < len(s) && s[e+1] == c {
				break loop
			}
		}
	}
	if depth > 0 {
		return p.fail(open, hintUnclosed, `found "(" in %s that is never closed: expected ")" before the end of the guard`, quote(strings.TrimRightFunc(s[j:], isSpace)))
	}
	p.i = e
	t := Term{Op: Test, Name: strings.TrimRightFunc(s[j:e], isSpace), Off: j}
	switch t.Name {
	case "true":
		t = Term{Op: True, Off: j}
	case "false":
		t = Term{Op: False, Off: j}
	}
	return p.emit(t)
}

// skip returns the offset of the first byte at or after i that does not
// start white space.
func (p *parser) skip(i int) int {
	for i < len(p.s) {
		if c := p.s[i]; c < utf8.RuneSelf {
			if c != ' ' && (c < '\t' || c > '\r') {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(p.s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// isSpace reports whether r is white space, as [unicode.IsSpace] says.
func isSpace(r rune) bool { return unicode.IsSpace(r) }
