package chart

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/diag"
)

// This file holds the one grammar of actions written as text: the action
// of a UML label ("push [unlocked] / swing(); speed = fast"), the actions
// importers keep in a drawing's attributes, the actions exporters show.
// An action reads
//
//	[guard] PROPERTY=VALUE        a game action (also PROPERTY := VALUE)
//	[guard] NAME(ARGUMENT)        a game action: property NAME, value ARGUMENT
//	[guard] NAME() or NAME        a game action: property NAME, value "()"
//	[guard] raise EVENT
//	[guard] send EVENT [after SECONDS s] [as TIMER]
//	[guard] cancel TIMER
//
// Actions are separated by line breaks, ';' or ',' outside quotes,
// brackets and parentheses. A word is a run of characters other than
// white space and ( ) [ ] { } < > = ! + * / % & | ^ ~ ; , " ' ` \, or a Go
// string in double quotes ("walk left"). An argument is the text between
// the parentheses, as written.

// ActionError is an action of a text that does not read.
type ActionError struct {
	Line int    // the line of the text it is on, from 1
	Text string // the action, trimmed
	Why  string // what is wrong, and how to write it
}

func (e *ActionError) Error() string {
	return "action " + strconv.Quote(e.Text) + " on line " + strconv.Itoa(e.Line) + ": " + e.Why
}

// ActionSyntax says how actions are written, for hints.
const ActionSyntax = "write PROPERTY=VALUE, name(argument), raise EVENT, send EVENT after 1.5s as TIMER or cancel TIMER, " +
	"each after an optional [guard], separated by ';'; quote a word with spaces as \"walk left\""

// ParseActions reads text as actions (see the grammar above), each at
// pos, and returns those that do not read apart, in order; empty actions
// are skipped. Its time is linear in the text.
func ParseActions(text string, pos diag.Pos) ([]Action, []ActionError) {
	var as []Action
	var bad []ActionError
	n := 0
	for line := range strings.Lines(text) {
		n++
		for _, part := range splitActions(line) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			a, why := parseAction(part)
			if why != "" {
				bad = append(bad, ActionError{Line: n, Text: part, Why: why})
				continue
			}
			a.Pos = pos
			as = append(as, a)
		}
	}
	return as, bad
}

// splitActions splits a line at the ';' and ',' outside quotes,
// brackets and parentheses.
func splitActions(line string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '"':
			if q, err := strconv.QuotedPrefix(line[i:]); err == nil {
				i += len(q) - 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ';', ',':
			if depth <= 0 {
				parts = append(parts, line[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, line[start:])
}

// parseAction reads one action, or says why it cannot.
func parseAction(s string) (Action, string) {
	var a Action
	if strings.HasPrefix(s, "[") {
		g, rest, why := cutGuard(s[1:])
		if why != "" {
			return a, why
		}
		a.Guard, s = g, strings.TrimSpace(rest)
	}
	if s == "" {
		return a, "an action is missing after the guard"
	}
	if name, arg, ok := cutCall(s); ok {
		a.Property, a.Value = name, arg
		return a, ""
	}
	words, why := splitWords(s)
	if why != "" {
		return a, why
	}
	if eq := indexEq(words); eq >= 0 {
		if len(words) != 3 || eq != 1 {
			return a, "a game action is PROPERTY=VALUE, one word on each side of the '='"
		}
		a.Property, a.Value = words[0].text, words[2].text
		return a, ""
	}
	if words[0].quoted {
		if len(words) == 1 {
			a.Property, a.Value = words[0].text, "()"
			return a, ""
		}
		return a, "an action starts with raise, send or cancel, or is PROPERTY=VALUE or name(argument)"
	}
	switch words[0].text {
	case "raise":
		if len(words) != 2 {
			return a, "raise takes one word: the event"
		}
		a.Kind, a.Event = RaiseAction, words[1].text
		return a, ""
	case "cancel":
		if len(words) != 2 {
			return a, "cancel takes one word: the timer"
		}
		a.Kind, a.Timer = CancelAction, words[1].text
		return a, ""
	case "send":
		return parseSend(a, words[1:])
	}
	if len(words) == 1 {
		a.Property, a.Value = words[0].text, "()"
		return a, ""
	}
	return a, "an action starts with raise, send or cancel, or is PROPERTY=VALUE or name(argument)"
}

// cutCall reads a call, "name(argument)": a word, then the argument
// between parentheses that close at the end. "name()" has the value
// "()".
func cutCall(s string) (name, arg string, ok bool) {
	i := strings.IndexByte(s, '(')
	if i <= 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	name = strings.TrimSpace(s[:i])
	if !isWord(name) || name == "raise" || name == "send" || name == "cancel" {
		return "", "", false
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 && j != len(s)-1 {
				return "", "", false // "f(a) + g(b)"
			}
		}
	}
	if arg = strings.TrimSpace(s[i+1 : len(s)-1]); arg == "" {
		arg = "()"
	}
	return name, arg, true
}

// parseSend reads what follows "send": EVENT [after SECONDS s] [as TIMER].
func parseSend(a Action, words []token) (Action, string) {
	a.Kind = SendAction
	const syntax = "send takes an event, then optionally after and a delay in seconds (1.5s), then optionally as and a timer"
	if len(words) == 0 {
		return a, syntax
	}
	a.Event, words = words[0].text, words[1:]
	if len(words) >= 2 && !words[0].quoted && words[0].text == "after" {
		text := words[1].text
		unit := 1.0
		if t, ok := strings.CutSuffix(text, "ms"); ok {
			text, unit = t, 0.001
		} else {
			text = strings.TrimSuffix(text, "s")
		}
		d, err := strconv.ParseFloat(text, 64)
		if err != nil || words[1].quoted || d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			return a, "the delay of a send is a number of seconds from 0 (1.5s)"
		}
		a.Delay, words = d*unit, words[2:]
	}
	if len(words) >= 2 && !words[0].quoted && words[0].text == "as" {
		a.Timer, words = words[1].text, words[2:]
	}
	if len(words) > 0 {
		return a, syntax
	}
	return a, ""
}

// cutGuard reads a guard after its '[': quoted, or up to the bracket
// that closes it; it returns the guard and what follows the ']'.
func cutGuard(s string) (guard, rest string, why string) {
	const unclosed = "the guard's '[' is not closed by a ']'"
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, `"`) {
		q, err := strconv.QuotedPrefix(t)
		if err != nil {
			return "", "", "the guard's quotes are not closed"
		}
		g, _ := strconv.Unquote(q) // QuotedPrefix checked it
		after := strings.TrimLeft(t[len(q):], " \t")
		if !strings.HasPrefix(after, "]") {
			return "", "", unclosed
		}
		return g, after[1:], ""
	}
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return strings.TrimSpace(s[:i]), s[i+1:], ""
			}
		}
	}
	return "", "", unclosed
}

// token is a word of an action, quoted or not, or its '=' (eq).
type token struct {
	text   string
	quoted bool
	eq     bool
}

// indexEq returns the index of the '=' among words, or -1.
func indexEq(words []token) int {
	for i, w := range words {
		if w.eq {
			return i
		}
	}
	return -1
}

// notWord is what a word that is not quoted does not hold besides white
// space: operators and brackets, the marks of code rather than names.
const notWord = "()[]{}<>=!+*/%&|^~;,\"'`\\"

// isWord reports whether s is one word as written unquoted (not ending
// with ':', which a following '=' would make ":=").
func isWord(s string) bool {
	return s != "" && !strings.ContainsAny(s, notWord) && !strings.HasSuffix(s, ":") && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError
	})
}

// splitWords splits an action into words, quoted strings and its '='
// (":=" is one too); it says what is wrong with text that is not words,
// such as the operators of code.
func splitWords(s string) ([]token, string) {
	var ts []token
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		switch {
		case s == "":
			return ts, ""
		case strings.HasPrefix(s, ":="):
			ts = append(ts, token{text: "=", eq: true})
			s = s[2:]
		case s[0] == '=':
			if strings.HasPrefix(s, "==") {
				return nil, "a comparison is a condition: write it in the label's [guard]"
			}
			ts = append(ts, token{text: "=", eq: true})
			s = s[1:]
		case s[0] == '"':
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, "a quoted word is not closed, or holds a bad escape"
			}
			w, _ := strconv.Unquote(q)
			ts = append(ts, token{text: w, quoted: true})
			s = s[len(q):]
		default:
			end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(notWord, r) })
			if end < 0 {
				end = len(s)
			}
			if i := strings.Index(s[:min(end+1, len(s))], ":="); i >= 0 {
				end = i // "speed:=fast"
			}
			if end == 0 {
				if strings.ContainsRune("!<>", rune(s[0])) && strings.HasPrefix(s[1:], "=") {
					return nil, "a comparison is a condition: write it in the label's [guard]"
				}
				return nil, "found " + strconv.Quote(s[:1]) + ", which is code, not an action fsmforge performs: " + ActionSyntax
			}
			if !utf8.ValidString(s[:end]) {
				return nil, "a word is not valid UTF-8"
			}
			ts = append(ts, token{text: s[:end]})
			s = s[end:]
		}
	}
}

// FormatAction writes an action in the grammar ParseActions reads, so
// that it reads back the same: "XMovement=left", "swing()" (a game action
// whose value is "()"), "raise hit", "send timeout after 1.5s as t1",
// "cancel t1", each after its guard in brackets when it has one, "[low]
// raise flee". A word that would not read back as it is is quoted.
func FormatAction(a Action) string {
	var b strings.Builder
	if a.Guard != "" {
		b.WriteByte('[')
		if plainGuard(a.Guard) {
			b.WriteString(a.Guard)
		} else {
			b.WriteString(strconv.Quote(a.Guard))
		}
		b.WriteString("] ")
	}
	switch a.Kind {
	case RaiseAction:
		b.WriteString("raise " + word(a.Event))
	case SendAction:
		b.WriteString("send " + word(a.Event))
		if a.Delay != 0 {
			b.WriteString(" after " + strconv.FormatFloat(a.Delay, 'f', -1, 64) + "s") // not 1e+21, whose '+' is not a word's
		}
		if a.Timer != "" {
			b.WriteString(" as " + word(a.Timer))
		}
	case CancelAction:
		b.WriteString("cancel " + word(a.Timer))
	default:
		if a.Value == "()" && isWord(a.Property) && a.Property != "raise" && a.Property != "send" && a.Property != "cancel" {
			b.WriteString(a.Property + "()")
		} else {
			b.WriteString(word(a.Property) + "=" + word(a.Value))
		}
	}
	return b.String()
}

// word returns s as it is when it reads back as one word, else quoted.
func word(s string) string {
	if isWord(s) {
		return s
	}
	return strconv.Quote(s)
}

// plainGuard reports whether a guard reads back written between brackets
// as it is: trimmed, on one line, its brackets balanced, not starting
// with a quote.
func plainGuard(g string) bool {
	if g != strings.TrimSpace(g) || g[0] == '"' || strings.ContainsFunc(g, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) {
		return false
	}
	depth := 0
	for _, c := range []byte(g) {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
