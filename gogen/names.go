package gogen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// camel turns a designer's name into the words of a Go identifier: every
// run of letters and digits is a word, its first letter made upper case
// and the rest kept as written; everything else (spaces, punctuation,
// underscores, symbols) only separates words. "walkLeft" → "WalkLeft",
// "hit by player" → "HitByPlayer", "move_right" → "MoveRight", "XMovement"
// → "XMovement", "2nd wind" → "2ndWind". It returns "" for a name with no
// letter or digit.
func camel(name string) string {
	var b strings.Builder
	word := false
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			word = false
			continue
		}
		if !word {
			r = unicode.ToUpper(r)
			word = true
		}
		b.WriteRune(r)
	}
	return b.String()
}

// exported makes camel's result an exported identifier on its own (a type
// or a method name): one that does not start with an upper-case letter (a
// digit, or a letter without case) gets an "X" in front, as in "X2ndWind".
// Composed names ("State" + camel) need no such help.
func exported(c string) string {
	r, _ := utf8.DecodeRuneInString(c)
	if c == "" || unicode.IsUpper(r) {
		return c
	}
	return "X" + c
}

// lowerFirst returns s with its first letter in lower case.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// scope is a set of identifiers that must be distinct (the package's, or
// the Host interface's methods), each remembered with where it came from.
type scope struct {
	x     *errs
	names map[string]string // identifier → `state "walkLeft"`, or "" for one of the generator's own
}

func newScope(x *errs) *scope { return &scope{x: x, names: make(map[string]string)} }

// fixed declares the generator's own names.
func (s *scope) fixed(idents ...string) {
	for _, id := range idents {
		s.names[id] = ""
	}
}

// declare declares ident, made from the designer's name described by
// where, and reports a collision with a name declared before.
func (s *scope) declare(ident, where string) bool {
	prev, dup := s.names[ident]
	switch {
	case !dup:
		s.names[ident] = where
		return true
	case prev == "":
		s.x.name(where, "becomes %s, a name the generated code declares itself; rename it", ident)
	default:
		s.x.name(where, "becomes %s, as %s does; rename one of them", ident, prev)
	}
	return false
}

// has reports whether ident is declared.
func (s *scope) has(ident string) bool {
	_, ok := s.names[ident]
	return ok
}
