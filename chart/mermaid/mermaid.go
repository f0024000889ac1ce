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
	"github.com/fsmforge/fsmforge/internal/exporter"
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
// does not change c, and costs time and memory linear in the chart (times
// the depth of its nesting).
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
	c    *chart.Chart
	tree *exporter.Tree

	id      map[string]string // a chart state's ID → its Mermaid ID: s0, s1, ...
	index   map[string]int    // a chart state's ID → its first index in c.States
	missing []string          // IDs that transitions name but no state has, in order of first use

	// Pseudo-states drawn as [*]: a start with no transition into it, an
	// end with none out of it.
	star []bool

	labels []string // each transition's text: exporter.TransitionLabels

	// The arrows of the transitions, in chart order: those written at the
	// top level, and by state index those written inside a composite state.
	topArrows []arrow
	arrows    [][]arrow

	// By state index, for a start (end) pseudo-state drawn as the [*] of a
	// composite state: the ID of the fork (join) bar that stands for it in
	// arrows to (from) states that are not children of the composite, or "".
	bar  []string
	next int // the number of the next Mermaid ID, s0, s1, ...

	useAny, useReturn bool
}

// arrow is a line `from --> to : label`.
type arrow struct{ from, to, label string }

func newDiagram(c *chart.Chart) *diagram {
	d := &diagram{c: c, id: make(map[string]string, len(c.States)), index: make(map[string]int, len(c.States))}
	for i, s := range c.States {
		if _, ok := d.index[s.ID]; !ok {
			d.index[s.ID] = i
		}
	}
	d.tree = exporter.NewTree(c, d.index)
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
		for _, id := range t.Also {
			into[id] = true
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
		for _, id := range t.Also {
			use(id)
		}
	}
	d.next = n
	d.labels = exporter.TransitionLabels(c)
	d.placeArrows()
	return d
}

// isAny reports whether t applies in any state.
func isAny(t chart.Transition) bool { return t.AnyState || t.From == "" }

// isStar reports whether state id is drawn as [*].
func (d *diagram) isStar(id string) bool {
	i, ok := d.index[id]
	return ok && d.star[i]
}

// stateIndex returns the index of the state drawn for id, or -1 when the
// chart has none.
func (d *diagram) stateIndex(id string) int {
	if i, ok := d.index[id]; ok {
		return i
	}
	return -1
}

// placeArrows turns each transition into arrows, one to each of its
// targets (an arrow to its source when it has none), and places them.
//
// Mermaid puts a state in the last composite state whose text names it, a
// name at the top level aside. So an arrow is written inside a composite
// state only when both its ends are children of it, or its [*]; every
// other arrow is written at the top level. There, [*] means the start or
// the end of the machine: an arrow from the start pseudo-state of a
// composite state to a state further down starts from a fork bar, one
// from a state outside it to its final state ends at a join bar, and the
// bar, a child of the composite, is joined to its [*].
func (d *diagram) placeArrows() {
	c := d.c
	if d.tree.Nested {
		d.arrows = make([][]arrow, len(c.States))
		d.bar = make([]string, len(c.States))
	}
	for i, t := range c.Transitions {
		from, fi := anyID, -1
		if !isAny(t) {
			from, fi = d.ref(t.From), d.stateIndex(t.From)
		}
		label := d.labels[i]
		switch t.Target.Kind {
		case chart.ToReturn:
			d.place(from, fi, returnID, -1, label)
		case chart.ToState:
			d.place(from, fi, d.ref(t.Target.State), d.stateIndex(t.Target.State), label)
		case chart.ToNone:
			d.place(from, fi, from, fi, label)
		default:
			d.place(from, fi, "[*]", -1, label)
		}
		for _, id := range t.Also {
			d.place(from, fi, d.ref(id), d.stateIndex(id), label)
		}
	}
}

// place places the arrow from state fi to state ti (-1: a state written
// at the top level): see placeArrows.
func (d *diagram) place(from string, fi int, to string, ti int, label string) {
	level := func(i int) int {
		if i < 0 {
			return -1
		}
		return d.tree.Parent[i]
	}
	if p := level(fi); p == level(ti) {
		d.addArrow(p, arrow{from, to, label})
		return
	}
	if p := level(fi); p >= 0 && d.star[fi] {
		from = d.barOf(fi, p)
	}
	if p := level(ti); p >= 0 && d.star[ti] {
		to = d.barOf(ti, p)
	}
	d.addArrow(-1, arrow{from, to, label})
}

// barOf returns the ID of the bar of pseudo-state i, drawn as the [*] of
// composite state p: the first time, it gives it the next ID and adds the
// arrow from [*] to a start's fork, or from an end's join to [*].
func (d *diagram) barOf(i, p int) string {
	if d.bar[i] == "" {
		d.bar[i] = "s" + strconv.Itoa(d.next)
		d.next++
		if d.c.States[i].Kind == chart.StartState {
			d.addArrow(p, arrow{"[*]", d.bar[i], ""})
		} else {
			d.addArrow(p, arrow{d.bar[i], "[*]", ""})
		}
	}
	return d.bar[i]
}

// addArrow adds an arrow to those written inside composite state p, or at
// the top level when p is -1.
func (d *diagram) addArrow(p int, a arrow) {
	if p < 0 {
		d.topArrows = append(d.topArrows, a)
	} else {
		d.arrows[p] = append(d.arrows[p], a)
	}
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

	// The states, in chart order; inside composite states, their children.
	for i := range c.States {
		if d.index[c.States[i].ID] == i && d.tree.Parent[i] < 0 {
			d.writeState(w, i, "    ")
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
		if s.Initial && d.index[s.ID] == i && !d.star[i] && d.tree.Parent[i] < 0 {
			w.WriteString("    [*] --> " + d.id[s.ID] + "\n")
		}
	}
	writeArrows(w, d.topArrows, "    ")
	if d.useAny {
		w.WriteString("    class " + anyID + " anyState\n")
	}
	if d.useReturn {
		w.WriteString("    class " + returnID + " returnState\n")
	}
}

// writeState writes the statements that declare state i, unless it is
// drawn as [*]: a composite state with its children, the arrow from its
// start to its initial child and the arrows that stay inside it.
func (d *diagram) writeState(w *bufio.Writer, i int, indent string) {
	s := &d.c.States[i]
	if d.star[i] {
		return
	}
	id := d.id[s.ID]
	switch {
	case d.tree.IsContainer(i):
		d.writeComposite(w, i, indent)
	case s.Kind == chart.ChoiceState:
		w.WriteString(indent + "state " + id + " <<choice>>\n")
		if !blank(s.Name) {
			w.WriteString(indent + "note right of " + id + " : " + text(s.Name) + "\n")
		}
	case s.Kind == chart.HistoryState || s.Kind == chart.DeepHistoryState:
		h := "H"
		if s.Kind == chart.DeepHistoryState {
			h = "H*"
		}
		w.WriteString(indent + "state \"" + h + "\" as " + id + "\n")
		if !blank(s.Name) {
			w.WriteString(indent + id + " : " + text(s.Name) + "\n")
		}
	default:
		w.WriteString(indent + "state \"" + text(stateLabel(s)) + "\" as " + id + "\n")
		for _, l := range exporter.ActionLines(s) {
			w.WriteString(indent + id + " : " + text(l) + "\n")
		}
	}
}

// writeComposite writes composite state i. Mermaid draws no description
// lines under a composite state's name, so its entry and exit actions are
// lines of its name. The regions of a parallel state are separated by
// "--" and have no initial arrow.
func (d *diagram) writeComposite(w *bufio.Writer, i int, indent string) {
	s := &d.c.States[i]
	name := stateLabel(s)
	for _, l := range exporter.ActionLines(s) {
		name += "\n" + l
	}
	w.WriteString(indent + "state \"" + text(name) + "\" as " + d.id[s.ID] + " {\n")
	in := indent + "    "
	parallel := s.Kind == chart.ParallelState
	regions := 0
	for _, k := range d.tree.Children[i] {
		if d.star[k] {
			continue
		}
		if parallel && regions > 0 {
			w.WriteString(in + "--\n")
		}
		regions++
		d.writeState(w, k, in)
	}
	for _, k := range d.tree.Children[i] {
		switch {
		case d.bar[k] == "":
		case d.c.States[k].Kind == chart.StartState:
			w.WriteString(in + "state " + d.bar[k] + " <<fork>>\n")
		default:
			w.WriteString(in + "state " + d.bar[k] + " <<join>>\n")
		}
	}
	if !parallel {
		for _, k := range d.tree.Children[i] {
			if d.c.States[k].Initial && !d.star[k] {
				w.WriteString(in + "[*] --> " + d.id[d.c.States[k].ID] + "\n")
			}
		}
	}
	writeArrows(w, d.arrows[i], in)
	w.WriteString(indent + "}\n")
}

// writeArrows writes arrows, one a line.
func writeArrows(w *bufio.Writer, arrows []arrow, indent string) {
	for _, a := range arrows {
		w.WriteString(indent + a.from + " --> " + a.to)
		if !blank(a.label) {
			w.WriteString(" : " + text(a.label))
		}
		w.WriteString("\n")
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
