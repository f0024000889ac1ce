package dot

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
)

// Options says how to draw a chart. The zero value draws it top to bottom
// with the chart's name as title.
type Options struct {
	// Title is the graph's label, drawn above it. Default: the chart's Name;
	// no label when both are empty.
	Title string

	// LeftToRight lays the graph out from left to right (rankdir=LR).
	// Default: top to bottom.
	LeftToRight bool
}

// The names of the nodes the writer adds to the chart's states. A chart
// state with one of these IDs keeps its ID and the added node takes
// another, made unique by more leading underscores.
const (
	startNode  = "__start"
	anyNode    = "__any"
	returnNode = "__return"
	finalNode  = "__final"
)

// Push marks the label of a transition that pushes the state it leaves.
const Push = "⤴ push"

// Return labels the node of the transitions that return to the state on top
// of the stack.
const Return = "↩ return"

// ErrNilChart is returned by Write for a nil chart.
var ErrNilChart = errors.New("dot: nil chart")

// Write writes chart c to w as a Graphviz DOT digraph, ready for
// `dot -Tsvg`. What it draws is described in the package documentation;
// the chart's diagnostics are not drawn. The output depends only on c and
// opt: the same chart gives the same bytes.
//
// Write returns ErrNilChart for a nil chart, or the first error of w. It
// does not change c, and costs time and memory linear in the chart.
func Write(w io.Writer, c *chart.Chart, opt Options) error {
	if c == nil {
		return ErrNilChart
	}
	bw := bufio.NewWriter(w)
	g := newGraph(c)
	g.write(bw, opt)
	return bw.Flush()
}

// graph is a chart being drawn, with what the drawing needs to know
// beforehand: which states transitions name, which nodes to add and their
// IDs, and each transition's rank.
type graph struct {
	c *chart.Chart

	index   map[string]int // a state's ID → its first index in c.States
	missing []string       // IDs that transitions name but no state has, in order of first use

	start, anyState, ret, final string // the added nodes' IDs

	labels []string // each transition's text: chart.TransitionLabels

	useAny, useReturn, useFinal bool
}

func newGraph(c *chart.Chart) *graph {
	g := &graph{c: c, index: make(map[string]int, len(c.States))}
	for i, s := range c.States {
		if _, ok := g.index[s.ID]; !ok {
			g.index[s.ID] = i
		}
	}
	seen := map[string]bool{}
	use := func(id string) {
		if _, ok := g.index[id]; !ok && !seen[id] {
			seen[id] = true
			g.missing = append(g.missing, id)
		}
	}
	for _, t := range c.Transitions {
		if !isAny(t) {
			use(t.From)
		}
		switch t.Target.Kind {
		case chart.ToFinal:
			g.useFinal = true
		case chart.ToReturn:
			g.useReturn = true
		default:
			use(t.Target.State)
		}
		if isAny(t) {
			g.useAny = true
		}
	}
	taken := func(id string) bool { _, ok := g.index[id]; return ok || seen[id] }
	g.start = unique(startNode, taken)
	g.anyState = unique(anyNode, taken)
	g.ret = unique(returnNode, taken)
	g.final = unique(finalNode, taken)
	g.labels = chart.TransitionLabels(c)
	return g
}

// unique returns the first of id, "_"+id, "__"+id, ... that is not taken.
func unique(id string, taken func(string) bool) string {
	for taken(id) {
		id = "_" + id
	}
	return id
}

// isAny reports whether t applies in any state.
func isAny(t chart.Transition) bool { return t.AnyState || t.From == "" }

// label returns the text drawn on transition i: its rank when its source
// has several, its test and value (or, in a plain diagram, its label as
// drawn), and the push mark.
func (g *graph) label(i int) string {
	text := g.labels[i]
	if g.c.Transitions[i].Push {
		text = strings.TrimSpace(text + " " + Push)
	}
	return text
}

// stateLabel is what a state's node says: its name, or its ID when it has
// none.
func stateLabel(s *chart.State) string {
	if s.Name != "" {
		return s.Name
	}
	if s.Kind != chart.NormalState {
		return ""
	}
	return s.ID
}

func (g *graph) write(w *bufio.Writer, opt Options) {
	c := g.c
	w.WriteString("digraph ")
	if c.Name != "" {
		w.WriteString(quote(c.Name) + " ")
	}
	w.WriteString("{\n")
	title := opt.Title
	if title == "" {
		title = c.Name
	}
	if title != "" {
		w.WriteString("\tlabel=" + quoteLabel(title) + ";\n\tlabelloc=t;\n")
	}
	if opt.LeftToRight {
		w.WriteString("\trankdir=LR;\n")
	}
	w.WriteString("\tnode [shape=box, style=rounded];\n\n")

	// The initial marker, unless the initial state is a start pseudo-state,
	// which is drawn as one.
	var initial []string
	for _, s := range c.States {
		if s.Initial && s.Kind != chart.StartState {
			initial = append(initial, s.ID)
		}
	}
	if len(initial) > 0 {
		w.WriteString("\t" + quote(g.start) + " [label=\"\", shape=point, width=0.15];\n")
	}

	// The states, in chart order; in clusters by page when there are
	// several pages.
	pages := pagesOf(c)
	for p, pg := range pages {
		indent := "\t"
		if len(pages) > 1 {
			w.WriteString("\tsubgraph " + quote("cluster_"+strconv.Itoa(p)) + " {\n")
			w.WriteString("\t\tlabel=" + quoteLabel(pg.name) + ";\n\t\tstyle=dashed;\n")
			indent = "\t\t"
		}
		for _, i := range pg.states {
			if g.index[c.States[i].ID] != i {
				continue // a repeated ID: one node
			}
			w.WriteString(indent)
			g.writeState(w, &c.States[i])
		}
		if len(pages) > 1 {
			w.WriteString("\t}\n")
		}
	}
	for _, id := range g.missing {
		w.WriteString("\t" + quote(id) + " [label=" + quoteLabel(id+" (missing)") + ", style=dashed];\n")
	}
	if g.useAny {
		w.WriteString("\t" + quote(g.anyState) + " [label=\"any state\", shape=box, style=dashed];\n")
	}
	if g.useReturn {
		w.WriteString("\t" + quote(g.ret) + " [label=" + quoteLabel(Return) + ", shape=invhouse];\n")
	}
	if g.useFinal {
		w.WriteString("\t" + quote(g.final) + " [label=\"\", shape=doublecircle, style=filled, fillcolor=black, width=0.2, fixedsize=true, tooltip=\"final\"];\n")
	}

	if len(initial) > 0 || len(c.Transitions) > 0 {
		w.WriteString("\n")
	}
	for _, id := range initial {
		w.WriteString("\t" + quote(g.start) + " -> " + quote(id) + ";\n")
	}
	for i, t := range c.Transitions {
		from := t.From
		if isAny(t) {
			from = g.anyState
		}
		var to string
		switch t.Target.Kind {
		case chart.ToFinal:
			to = g.final
		case chart.ToReturn:
			to = g.ret
		default:
			to = t.Target.State
		}
		var attrs []string
		if l := g.label(i); l != "" {
			attrs = append(attrs, "label="+quoteLabel(l))
		}
		switch {
		case isAny(t) || t.Target.Kind == chart.ToReturn:
			if t.Push {
				attrs = append(attrs, `style="dashed,bold"`)
			} else {
				attrs = append(attrs, "style=dashed")
			}
		case t.Push:
			attrs = append(attrs, "style=bold")
		}
		w.WriteString("\t" + quote(from) + " -> " + quote(to))
		if len(attrs) > 0 {
			w.WriteString(" [" + strings.Join(attrs, ", ") + "]")
		}
		w.WriteString(";\n")
	}
	w.WriteString("}\n")
}

// writeState writes the node statement of s.
func (g *graph) writeState(w *bufio.Writer, s *chart.State) {
	w.WriteString(quote(s.ID))
	switch s.Kind {
	case chart.StartState:
		w.WriteString(" [label=\"\", shape=point, width=0.15")
		if s.Name != "" {
			w.WriteString(", xlabel=" + quoteLabel(s.Name))
		}
		w.WriteString("];\n")
		return
	case chart.EndState:
		w.WriteString(" [label=\"\", shape=doublecircle, style=filled, fillcolor=black, width=0.2, fixedsize=true")
		if s.Name != "" {
			w.WriteString(", xlabel=" + quoteLabel(s.Name))
		}
		w.WriteString("];\n")
		return
	case chart.ChoiceState:
		w.WriteString(" [label=" + quoteLabel(stateLabel(s)) + ", shape=diamond];\n")
		return
	}
	if len(s.Entry) == 0 {
		w.WriteString(" [label=" + quoteLabel(stateLabel(s)) + "];\n")
		return
	}
	// An HTML-like label: the name, a rule, the entry actions aligned left.
	w.WriteString(` [label=<<table border="0" cellborder="0" cellspacing="0"><tr><td>`)
	w.WriteString(html(stateLabel(s)))
	w.WriteString(`</td></tr><hr/><tr><td align="left" balign="left">`)
	for k, a := range s.Entry {
		if k > 0 {
			w.WriteString("<br/>")
		}
		w.WriteString(html("entry / " + a.Property + "=" + a.Value))
	}
	w.WriteString("</td></tr></table>>];\n")
}

// page is a page of the chart and its states, by index.
type page struct {
	name   string
	states []int
}

// pagesOf groups the states by the page they are drawn on, pages in order
// of first appearance, states in chart order.
func pagesOf(c *chart.Chart) []page {
	var pages []page
	at := map[string]int{}
	for i, s := range c.States {
		p, ok := at[s.Pos.Page]
		if !ok {
			p = len(pages)
			at[s.Pos.Page] = p
			pages = append(pages, page{name: s.Pos.Page})
		}
		pages[p].states = append(pages[p].states, i)
	}
	return pages
}

// quote returns s as a DOT quoted string for an ID. IDs must stay apart,
// so control characters, line breaks, bytes of invalid UTF-8 and "%" are
// percent-encoded, "%01", rather than replaced.
func quote(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '%' || r == utf8.RuneError && n == 1 || isControl(r) || isNewline(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return escape(s, false)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '%' || r == utf8.RuneError && n == 1 || isControl(r) || isNewline(r) {
			for k := range n {
				b.WriteString("%" + strconv.FormatUint(uint64(s[i+k])|0x100, 16)[1:])
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return escape(b.String(), false)
}

// quoteLabel returns s as a DOT quoted string for a label, where Graphviz
// would read an entity such as "&amp;": an ampersand is written "&amp;".
func quoteLabel(s string) string {
	return escape(s, true)
}

// escape quotes s for DOT: quotes and backslashes are escaped (a label's
// "\n", "\l" and "\N" mean something to Graphviz), line breaks become "\n",
// other control characters spaces, invalid UTF-8 U+FFFD.
func escape(s string, label bool) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	s = strings.ToValidUTF8(s, "\uFFFD")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '&' && label:
			b.WriteString("&amp;")
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			b.WriteString(`\n`)
		case isNewline(r):
			b.WriteString(`\n`)
		case isControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// html escapes s for the text of an HTML-like label.
func html(s string) string {
	var b strings.Builder
	s = strings.ToValidUTF8(s, "\uFFFD")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == 0xfffe || r == 0xffff: // not XML characters
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			b.WriteString("<br/>")
		case isNewline(r):
			b.WriteString("<br/>")
		case isControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isNewline(r rune) bool {
	return r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
}
