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
