package cond

import (
	"strconv"
	"unicode/utf8"
)

// Error is why [Parse] refused a guard: where, what it found there and
// what it expected, and what to do about it. Parse stops at the first
// problem, so a guard has at most one Error.
type Error struct {
	// Off is the byte offset in the guard where the problem is: the
	// character found instead of what was expected, or the parenthesis or
	// quote that is never closed. It is len(guard) when the guard ended
	// too soon.
	Off int

	// Col is the column of Off, counted in characters (runes) from 1, as
	// an editor shows it; a byte that is not UTF-8 counts as one.
	Col int

	// Msg says what was found and what was expected, in lower case,
	// without a prefix: `expected a condition after "&&", found the end
	// of the guard`.
	Msg string

	// Hint says what to do about it, for the designer who wrote the
	// guard, in lower case, without a final period.
	Hint string
}

// Error returns "column N: " and the message, for example `column 6:
// expected a condition after "&&", found the end of the guard`. The
// caller adds what the guard belongs to (a transition, a file).
func (e *Error) Error() string {
	return "column " + strconv.Itoa(e.Col) + ": " + e.Msg
}

// newError returns the Error at byte offset off of guard s.
func newError(s string, off int, hint, msg string) *Error {
	off = max(0, min(off, len(s)))
	return &Error{Off: off, Col: utf8.RuneCountInString(s[:off]) + 1, Msg: msg, Hint: hint}
}

// The hints of the errors, as a designer reads them.
const (
	hintEmpty     = "write a condition, such as seesPlayer or hp < 10, or true for a transition that is always taken"
	hintMissing   = "a condition is missing here: complete it, or remove the && or || (or the !) that has nothing to act on"
	hintEmptyPar  = "put a condition between the parentheses, or remove them"
	hintUnclosed  = `add the missing ")", or remove the "(" that opens too much`
	hintStray     = `remove the ")", or add the "(" it should close`
	hintJoin      = "join conditions with && (and) or || (or); a group in parentheses or In(...) ends at its )"
	hintQuote     = "close the quoted state name with the quote mark it starts with"
	hintIn        = "write the name of one state in In(...), such as In(Alert) or In('alert 2'), and join several with && or ||"
	hintInQuote   = "quote a state name that holds parentheses, commas or quotes: In('a(1)')"
	hintDeep      = "simplify the condition, or give a part of it a name of its own as a test the game answers"
	hintTooMany   = "split the condition over several transitions, or give parts of it names of their own as tests the game answers"
	hintTestQuote = "close the quoted text with the same quote mark, or remove a stray apostrophe from the test's name"
)

// found describes the text at byte offset i of s for a message: the end of
// the guard, or its next word (at most 24 bytes of it) quoted.
func found(s string, i int) string {
	if i >= len(s) {
		return "the end of the guard"
	}
	for _, tok := range [...]string{"&&", "||"} {
		if len(s)-i >= 2 && s[i:i+2] == tok {
			return strconv.Quote(tok)
		}
	}
	j, cut := i, false
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if isSpace(r) || (j > i && (r == '(' || r == ')' || r == '&' || r == '|')) {
			break
		}
		if j-i >= 24 {
			cut = true
			break
		}
		j += n
		if r == '(' || r == ')' {
			break
		}
	}
	if cut {
		return strconv.Quote(s[i:j] + "…")
	}
	return strconv.Quote(s[i:j])
}

// quote returns s quoted for a message, cut after 24 bytes.
func quote(s string) string {
	if len(s) <= 24 {
		return strconv.Quote(s)
	}
	n := 24
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n] + "…")
}
