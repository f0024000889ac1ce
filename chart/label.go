package chart

import (
	"strings"
	"unicode"
)

// NormalizeSpace trims s and makes each run of white space (line breaks,
// U+2028 and tabs included) a single space: how importers clean a shape's
// text into a state's name. It allocates only when that changes s.
func NormalizeSpace(s string) string {
	space := true // before the start: a leading space is a change
	for _, r := range s {
		if unicode.IsSpace(r) {
			if r != ' ' || space {
				return strings.Join(strings.Fields(s), " ")
			}
			space = true
		} else {
			space = false
		}
	}
	if space && s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

// ParseLabel splits a UML transition label, "event [guard] / action", as
// importers read the labels of plain state diagrams: the action follows the
// first '/' outside brackets and parentheses, the guard is between the
// first '[' and the last ']' before it, the event is the rest. Each part is
// trimmed, and the event's white space normalised ([NormalizeSpace]); a
// part that is absent is "".
func ParseLabel(label string) (event, guard, action string) {
	label = NormalizeSpace(label)
	depth := 0
loop:
	for i := 0; i < len(label); i++ {
		switch label[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth <= 0 {
				action = strings.TrimSpace(label[i+1:])
				label = label[:i]
				break loop
			}
		}
	}
	if i := strings.IndexByte(label, '['); i >= 0 {
		if j := strings.LastIndexByte(label, ']'); j > i {
			guard = strings.TrimSpace(label[i+1 : j])
			label = label[:i] + " " + label[j+1:]
		}
	}
	return NormalizeSpace(label), guard, action
}

// ParseActions reads the action part of a UML transition label (the
// action ParseLabel returns) as the game actions it names, each at pos.
// Actions are separated by ';' or ',' outside parentheses and quotes.
// "property = value" (or ":=") sets the property to the value;
// "name(argument)" sets property name to the argument; "name()" and a
// bare "name" set property name to "()": a call the game makes. Empty
// actions are skipped.
func ParseActions(text string, pos Pos) []Action {
	var out []Action
	for _, part := range splitActions(text) {
		if a, ok := parseAction(part); ok {
			a.Pos = pos
			out = append(out, a)
		}
	}
	return out
}

// splitActions splits text at the ';' and ',' outside parentheses,
// brackets and quotes.
func splitActions(text string) []string {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case (c == ';' || c == ',') && depth <= 0:
			parts = append(parts, text[start:i])
			start = i + 1
		}
	}
	return append(parts, text[start:])
}

// parseAction reads one action of ParseActions.
func parseAction(s string) (Action, bool) {
	s = NormalizeSpace(s)
	if s == "" {
		return Action{}, false
	}
	if i := strings.Index(s, "="); i > 0 && !strings.ContainsAny(s[:i], "(\"'") && !strings.HasPrefix(s[i+1:], "=") {
		p := strings.TrimSpace(strings.TrimSuffix(s[:i], ":"))
		v := strings.TrimSpace(s[i+1:])
		if p != "" && v != "" {
			return Action{Property: p, Value: v}, true
		}
	}
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		name, arg := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:len(s)-1])
		if arg == "" {
			arg = "()"
		}
		return Action{Property: name, Value: arg}, true
	}
	return Action{Property: s, Value: "()"}, true
}
