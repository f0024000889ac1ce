package drawio

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
)

// This file writes and reads the actions of a plain diagram's states and
// transitions (AttrEntry, AttrExit, AttrActions): one action a line, as
// the exporters' labels show them ("[low] raise flee"):
//
//	[guard] PROPERTY=VALUE
//	[guard] raise EVENT
//	[guard] send EVENT [after SECONDS s] [as TIMER]
//	[guard] cancel TIMER
//
// A word is written as it is when it can be read back so (not empty,
// without white space, '"' or '=', not starting with '['), else quoted as
// a Go string ("\"walk left\""); a guard is written between brackets as
// it is when its brackets balance, else quoted between them.

// actionSyntax is the hint of the warnings about an action that does not
// read.
const actionSyntax = `write one action a line: PROPERTY=VALUE, raise EVENT, send EVENT after 1.5s as TIMER, cancel TIMER, each after an optional [guard]; quote a word with spaces as "walk left"`

// formatActions writes actions one a line.
func formatActions(as []chart.Action) string {
	lines := make([]string, len(as))
	for i, a := range as {
		lines[i] = formatAction(a)
	}
	return strings.Join(lines, "\n")
}

// formatAction writes one action. The action is one checkAction accepts.
func formatAction(a chart.Action) string {
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
	case chart.RaiseAction:
		b.WriteString("raise " + word(a.Event))
	case chart.SendAction:
		b.WriteString("send " + word(a.Event))
		if a.Delay != 0 {
			b.WriteString(" after " + strconv.FormatFloat(a.Delay, 'g', -1, 64) + "s")
		}
		if a.Timer != "" {
			b.WriteString(" as " + word(a.Timer))
		}
	case chart.CancelAction:
		b.WriteString("cancel " + word(a.Timer))
	default:
		b.WriteString(word(a.Property) + "=" + word(a.Value))
	}
	return b.String()
}

// word returns s as it is when it reads back as one word, else quoted.
func word(s string) string {
	if s == "" || s[0] == '[' || strings.ContainsFunc(s, func(r rune) bool {
		return r == '"' || r == '=' || unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError
	}) {
		return strconv.Quote(s)
	}
	return s
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

// checkAction returns what keeps an action from being written so that
// it reads back, or "": a kind it does not know, a field its kind does
// not use, a delay that is not a number of seconds from 0.
func checkAction(a chart.Action) string {
	var stray []string
	extra := func(set bool, field string) {
		if set {
			stray = append(stray, field)
		}
	}
	switch a.Kind {
	case chart.GameAction:
		extra(a.Event != "", "an event")
		extra(a.Delay != 0, "a delay")
		extra(a.Timer != "", "a timer")
	case chart.RaiseAction:
		extra(a.Property != "" || a.Value != "", "a property or value")
		extra(a.Delay != 0, "a delay")
		extra(a.Timer != "", "a timer")
	case chart.SendAction:
		extra(a.Property != "" || a.Value != "", "a property or value")
		if a.Delay < 0 || math.IsNaN(a.Delay) || math.IsInf(a.Delay, 0) {
			return "a send action with delay " + strconv.FormatFloat(a.Delay, 'g', -1, 64) + ": a delay is 0 or more seconds"
		}
	case chart.CancelAction:
		extra(a.Property != "" || a.Value != "", "a property or value")
		extra(a.Event != "", "an event")
		extra(a.Delay != 0, "a delay")
	default:
		return "an action of unknown kind " + strconv.Itoa(int(a.Kind))
	}
	if len(stray) > 0 {
		return "a " + a.Kind.String() + " action with " + strings.Join(stray, " and ") + ", which it does not use"
	}
	return ""
}

// badAction is a line of an actions attribute that does not read.
type badAction struct {
	line int    // from 1
	text string // the line, trimmed
	why  string
}

// parseActions reads the actions of an attribute, one a line, each at
// pos; blank lines are skipped. It returns the lines that do not read
// apart; over, when the text holds more than max lines that are not
// blank (nothing else is then returned). Its time is linear in the text;
// it allocates for what it returns.
func parseActions(text string, pos chart.Pos, max int) (as []chart.Action, bad []badAction, over bool) {
	n := 0
	for line := range strings.Lines(text) {
		n++
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(as)+len(bad) == max {
			return nil, nil, true
		}
		a, why := parseAction(line)
		if why != "" {
			bad = append(bad, badAction{line: n, text: line, why: why})
			continue
		}
		a.Pos = pos
		as = append(as, a)
	}
	return as, bad, false
}

// parseAction reads one line of parseActions, or says why it cannot.
func parseAction(line string) (chart.Action, string) {
	var a chart.Action
	rest := line
	if strings.HasPrefix(rest, "[") {
		g, after, why := cutGuard(rest[1:])
		if why != "" {
			return a, why
		}
		a.Guard, rest = g, after
	}
	words, why := splitWords(rest)
	if why != "" {
		return a, why
	}
	if len(words) == 0 {
		return a, "an action is missing after the guard"
	}
	if slices.ContainsFunc(words, func(t token) bool { return t.eq }) {
		if len(words) != 3 || !words[1].eq || words[0].eq || words[2].eq {
			return a, "a game action is PROPERTY=VALUE, one word on each side of the '='"
		}
		a.Property, a.Value = words[0].text, words[2].text
		return a, ""
	}
	const unknown = "an action starts with raise, send or cancel, or is PROPERTY=VALUE"
	if words[0].quoted {
		return a, unknown
	}
	switch words[0].text {
	case "raise":
		if len(words) != 2 {
			return a, "raise takes one word: the event"
		}
		a.Kind, a.Event = chart.RaiseAction, words[1].text
		return a, ""
	case "cancel":
		if len(words) != 2 {
			return a, "cancel takes one word: the timer"
		}
		a.Kind, a.Timer = chart.CancelAction, words[1].text
		return a, ""
	case "send":
		return parseSend(a, words[1:])
	}
	return a, unknown
}

// parseSend reads what follows "send": EVENT [after SECONDS s] [as TIMER].
func parseSend(a chart.Action, words []token) (chart.Action, string) {
	a.Kind = chart.SendAction
	const syntax = "send takes an event, then optionally after and a delay in seconds (1.5s), then optionally as and a timer"
	if len(words) == 0 {
		return a, syntax
	}
	a.Event, words = words[0].text, words[1:]
	if len(words) >= 2 && !words[0].quoted && words[0].text == "after" {
		d, err := strconv.ParseFloat(strings.TrimSuffix(words[1].text, "s"), 64)
		if err != nil || words[1].quoted || d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			return a, "the delay of a send is a number of seconds from 0 (1.5s)"
		}
		a.Delay, words = d, words[2:]
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

// token is a word of an action: quoted or not, or the '=' of a game
// action (eq).
type token struct {
	text   string
	quoted bool
	eq     bool
}

// splitWords splits a line into words, quoted strings and '='.
func splitWords(s string) ([]token, string) {
	var ts []token
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		switch {
		case s == "":
			return ts, ""
		case s[0] == '=':
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
			end := strings.IndexFunc(s, func(r rune) bool { return r == '=' || r == '"' || unicode.IsSpace(r) })
			if end < 0 {
				end = len(s)
			}
			ts = append(ts, token{text: s[:end]})
			s = s[end:]
		}
	}
}
