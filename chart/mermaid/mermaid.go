package mermaid

import (
	"bufio"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
)

// Options says how to draw a chart. The zero value draws it top to bottom
// with the chart's name as title.
type Options struct {
	// Title is written in the diagram's front matter, above it. Default:
	// the chart's Name; no front matter when both are empty.
	Title string

	// LeftToRight lays the diagram out from left to right (direction LR).
	// Default: top to bottom.
	LeftToRight bool
}

// IDs of the states the writer adds to the chart's. The chart's states are
// s0, s1, ..., which never clash with these.
const (
	anyID    = "__any"
	returnID = "__return"
)

// Push marks the label of a transition that pushes the state it leaves.
const Push = "⤴ push"

// Return labels the state of the transitions that return to the state on
// top of the stack.
const Return = "↩ return"

// ErrNilChart is returned by Write for a nil chart.
var ErrNilChart = errors.New("mermaid: nil chart")

// Write writes chart c to w as a Mermaid stateDiagram-v2. What it draws is
// described in the package documentation; the chart's diagnostics are not
// drawn. The output depends only on c and opt: the same chart gives the
// same bytes.
//
// Write returns ErrNilChart for a nil chart, or the first error of w. It
// does not change c, and costs time and memory linear in the chart.
func Write(w io.Writer, c *chart.Chart, opt Options) error {
	if c == nil {
		return ErrNilChart
	}
	bw := bufio.NewWriter(w)
	newDiagram(c).write(bw, opt)
	return bw.Flush()
}

// diagram is a chart being drawn.
type diagram struct {
	c *chart.Chart

	id      map[string]string // a chart state's ID → its Mermaid ID: s0, s1, ...
	index   map[string]int    // a chart state's ID → its first index in c.States
	missing []string          // IDs that transitions name but no state has, in order of first use

	// Pseudo-states drawn as [*]: a start with no transition into it, an
	// end with none out of it.
	star []bool

	labels []string // each transition's text: chart.TransitionLabels

	useAny, useReturn bool
}

func newDiagram(c *chart.Chart) *diagram {
	d := &diagram{c: c, id: make(map[string]string, len(c.States)), index: make(map[string]int, len(c.States))}
	for i, s := range c.States {
		if _, ok := d.index[s.ID]; !ok {
			d.index[s.ID] = i
		}
	}
	into := map[string]bool{}
	outOf := map[string]bool{}
	for _, t := range c.Transitions {
		if isAny(t) {
			d.useAny = true
		} else {
			outOf[t.From] = true
		}
		switch t.Target.Kind {
		case chart.ToReturn:
			d.useReturn = true
		case chart.ToState:
			into[t.Target.State] = true
		}
	}
	// Pseudo-states drawn as [*] take no ID; the others s0, s1, ... in
	// chart order, then the missing states in order of first use.
	d.star = make([]bool, len(c.States))
	n := 0
	for i, s := range c.States {
		if d.index[s.ID] != i {
			continue
		}
		d.star[i] = s.Kind == chart.StartState && !into[s.ID] ||
			s.Kind == chart.EndState && !outOf[s.ID] && !s.Initial
		if !d.star[i] {
			d.id[s.ID] = "s" + strconv.Itoa(n)
			n++
		}
	}
	use := func(id string) {
		if _, ok := d.index[id]; ok {
			return
		}
		if _, ok := d.id[id]; !ok {
			d.id[id] = "s" + strconv.Itoa(n)
			n++
			d.missing = append(d.missing, id)
		}
	}
	for _, t := range c.Transitions {
		if !isAny(t) {
			use(t.From)
		}
		if t.Target.Kind == chart.ToState {
			use(t.Target.State)
		}
	}
	d.labels = chart.TransitionLabels(c)
	return d
}

// isAny reports whether t applies in any state.
func isAny(t chart.Transition) bool { return t.AnyState || t.From == "" }

// label returns the text drawn on transition i: its rank when its source
// has several, its test and value (or, in a plain diagram, its label as
// drawn), and the push mark.
func (d *diagram) label(i int) string {
	text := d.labels[i]
	if d.c.Transitions[i].Push {
		text = strings.TrimSpace(text + " " + Push)
	}
	return text
}

// isStar reports whether state id is drawn as [*].
func (d *diagram) isStar(id string) bool {
	i, ok := d.index[id]
	return ok && d.star[i]
}

func (d *diagram) write(w *bufio.Writer, opt Options) {
	c := d.c
	title := opt.Title
	if title == "" {
		title = c.Name
	}
	if title != "" {
		w.WriteString("---\ntitle: " + yamlQuote(title) + "\n---\n")
	}
	w.WriteString("stateDiagram-v2\n")
	if opt.LeftToRight {
		w.WriteString("    direction LR\n")
	}
	if d.useAny {
		w.WriteString("    classDef anyState stroke-dasharray:5\n")
	}
	if d.useReturn {
		w.WriteString("    classDef returnState stroke-dasharray:2\n")
	}

	// The states, in chart order.
	for i := range c.States {
		s := &c.States[i]
		if d.index[s.ID] != i || d.star[i] {
			continue
		}
		id := d.id[s.ID]
		switch {
		case s.Kind == chart.ChoiceState:
			w.WriteString("    state " + id + " <<choice>>\n")
			if !blank(s.Name) {
				w.WriteString("    note right of " + id + " : " + text(s.Name) + "\n")
			}
		default:
			w.WriteString("    state \"" + text(stateLabel(s)) + "\" as " + id + "\n")
			for _, a := range s.Entry {
				w.WriteString("    " + id + " : " + text("entry / "+a.Property+"="+a.Value) + "\n")
			}
		}
	}
	for _, m := range d.missing {
		w.WriteString("    state \"" + text(m+" (missing)") + "\" as " + d.id[m] + "\n")
	}
	if d.useAny {
		w.WriteString("    state \"any state\" as " + anyID + "\n")
	}
	if d.useReturn {
		w.WriteString("    state \"" + text(Return) + "\" as " + returnID + "\n")
		w.WriteString("    note right of " + returnID + " : " + text("back to the state the last push saved") + "\n")
	}

	// The transitions: the initial marker, then in chart order.
	w.WriteString("\n")
	for i, s := range c.States {
		if s.Initial && d.index[s.ID] == i && !d.star[i] {
			w.WriteString("    [*] --> " + d.id[s.ID] + "\n")
		}
	}
	for i, t := range c.Transitions {
		from := anyID
		if !isAny(t) {
			from = d.ref(t.From)
		}
		to := "[*]"
		switch t.Target.Kind {
		case chart.ToReturn:
			to = returnID
		case chart.ToState:
			to = d.ref(t.Target.State)
		}
		w.WriteString("    " + from + " --> " + to)
		if l := d.label(i); !blank(l) {
			w.WriteString(" : " + text(l))
		}
		w.WriteString("\n")
	}
	if d.useAny {
		w.WriteString("    class " + anyID + " anyState\n")
	}
	if d.useReturn {
		w.WriteString("    class " + returnID + " returnState\n")
	}
}

// ref returns the Mermaid ID of state id in a transition: [*] for a start
// or end pseudo-state drawn as such.
func (d *diagram) ref(id string) string {
	if d.isStar(id) {
		return "[*]"
	}
	return d.id[id]
}

// stateLabel is what a state says: its name, or its ID when it has none (a
// pseudo-state: its kind).
func stateLabel(s *chart.State) string {
	if !blank(s.Name) {
		return s.Name
	}
	if s.Kind != chart.NormalState {
		return s.Kind.String()
	}
	if blank(s.ID) {
		return "state"
	}
	return s.ID
}

// blank reports whether s shows nothing: only white space, line breaks
// and control characters. Mermaid trims texts, and an empty one is a
// syntax error.
func blank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) && !isControl(r) {
			return false
		}
	}
	return true
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

// entities are the characters that Mermaid's state diagram parser reads as
// syntax, or that its HTML labels would: each is written as an entity code,
// "#58;", which Mermaid turns back into the character.
var entities = [128]string{
	'"': "#34;", '#': "#35;", '%': "#37;", '&': "#38;", ':': "#58;", ';': "#59;",
	'<': "#60;", '>': "#62;", '[': "#91;", ']': "#93;", '`': "#96;", '{': "#123;", '}': "#125;",
}

// direction matches the start of what Mermaid's lexer reads as a direction
// statement anywhere in a line, "direction LR": the word and a space
// (JavaScript's \s, once line breaks and tabs are gone).
var direction = regexp.MustCompile(`(?i)direction[ \x{a0}\x{1680}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}\x{feff}]`)

// text escapes s for a state description, a transition label or a note:
// the characters of entities as entity codes; line breaks as <br>; other
// control characters as spaces; invalid UTF-8 as U+FFFD; and the space
// of "direction " as an entity, lest it be read as a direction statement.
func text(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	s = strings.ToValidUTF8(s, "\uFFFD")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r < 128 && entities[r] != "":
			b.WriteString(entities[r])
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			b.WriteString("<br>")
		case r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
			b.WriteString("<br>")
		case isControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return direction.ReplaceAllStringFunc(b.String(), func(m string) string {
		r, n := utf8.DecodeLastRuneInString(m)
		return m[:len(m)-n] + "#" + strconv.Itoa(int(r)) + ";"
	})
}

// yamlQuote returns s as a YAML double-quoted scalar on one line.
func yamlQuote(s string) string {
	return strconv.Quote(strings.ToValidUTF8(s, "\uFFFD"))
}
