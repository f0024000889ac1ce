package dot

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/exporter"
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
// another, made unique by more leading underscores. Inside a compound
// state "x", the start point is "__start_x" and the cluster's anchor
// "__anchor_x".
const (
	startNode  = "__start"
	anyNode    = "__any"
	returnNode = "__return"
	finalNode  = "__final"
	anchorNode = "__anchor_"
)

// clusterPrefix begins the name of the cluster of a compound or parallel
// state; the clusters of pages are "cluster_0", "cluster_1", ...
const clusterPrefix = "cluster_state_"

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
// does not change c, and costs time and memory linear in the chart (times
// the depth of its nesting).
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
// beforehand: which states transitions name, how states nest, which nodes
// to add and their IDs, and each transition's rank.
type graph struct {
	c    *chart.Chart
	tree *exporter.Tree

	index   map[string]int // a state's ID → its first index in c.States
	missing []string       // IDs that transitions name but no state has, in order of first use

	start, anyState, ret, final string // the added nodes' IDs

	// By state index, for the states drawn as clusters (nil when none
	// is): the invisible node that edges attach to, and the start point of
	// one with an initial child ("" for none).
	anchor, innerStart []string

	labels []string // each transition's text: exporter.TransitionLabels

	useAny, useReturn, useFinal bool
}

func newGraph(c *chart.Chart) *graph {
	g := &graph{c: c, index: make(map[string]int, len(c.States))}
	for i, s := range c.States {
		if _, ok := g.index[s.ID]; !ok {
			g.index[s.ID] = i
		}
	}
	g.tree = exporter.NewTree(c, g.index)
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
		case chart.ToNone: // a loop on its source
		default:
			use(t.Target.State)
		}
		for _, id := range t.Also {
			use(id)
		}
		if isAny(t) {
			g.useAny = true
		}
	}
	taken := func(id string) bool { _, ok := g.index[id]; return ok || seen[id] }
	added := func(id string) string {
		id = unique(id, taken)
		seen[id] = true
		return id
	}
	g.start = added(startNode)
	g.anyState = added(anyNode)
	g.ret = added(returnNode)
	g.final = added(finalNode)
	g.addInnerNodes(added)
	g.labels = exporter.TransitionLabels(c)
	return g
}

// addInnerNodes names the anchors of the clusters and the start points
// inside compound states.
func (g *graph) addInnerNodes(added func(string) string) {
	if !g.tree.Nested {
		return
	}
	g.anchor = make([]string, len(g.c.States))
	g.innerStart = make([]string, len(g.c.States))
	for i, s := range g.c.States {
		if !g.tree.IsContainer(i) {
			continue
		}
		g.anchor[i] = added(anchorNode + s.ID)
		if len(g.initialChildren(i)) > 0 {
			g.innerStart[i] = added(startNode + "_" + s.ID)
		}
	}
}

// initialChildren returns the children of compound state i marked Initial,
// but for start pseudo-states, which are drawn as start points themselves.
// The regions of a parallel state are all entered: none is initial.
func (g *graph) initialChildren(i int) []int {
	if g.c.States[i].Kind == chart.ParallelState {
		return nil
	}
	var initial []int
	for _, k := range g.tree.Children[i] {
		if s := &g.c.States[k]; s.Initial && s.Kind != chart.StartState {
			initial = append(initial, k)
		}
	}
	return initial
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

// isRegion reports whether state i is a region of a parallel state.
func (g *graph) isRegion(i int) bool {
	p := g.tree.Parent[i]
	return p >= 0 && g.c.States[p].Kind == chart.ParallelState
}

func (g *graph) write(w *bufio.Writer, opt Options) {
	g.writeHeader(w, opt)

	// The top-level initial marker, unless the initial state is a start
	// pseudo-state, which is drawn as one.
	var initial []int
	for i, s := range g.c.States {
		if s.Initial && s.Kind != chart.StartState && g.tree.Parent[i] < 0 {
			initial = append(initial, i)
		}
	}
	if len(initial) > 0 {
		w.WriteString("\t" + quote(g.start) + " [label=\"\", shape=point, width=0.15];\n")
	}
	g.writeNodes(w)

	// The edges: the initial markers', then the transitions in chart order.
	inner := slices.ContainsFunc(g.innerStart, func(id string) bool { return id != "" })
	if len(initial) > 0 || inner || len(g.c.Transitions) > 0 {
		w.WriteString("\n")
	}
	for _, i := range initial {
		g.writeEdge(w, endpoint{node: g.start, state: -1}, g.stateEnd(g.c.States[i].ID), nil)
	}
	for i, start := range g.innerStart {
		for _, k := range g.initialChildren(i) {
			if start != "" {
				g.writeEdge(w, endpoint{node: start, state: i}, g.stateEnd(g.c.States[k].ID), nil)
			}
		}
	}
	for i := range g.c.Transitions {
		g.writeTransition(w, i)
	}
	w.WriteString("}\n")
}

// writeHeader opens the digraph and writes its attributes.
func (g *graph) writeHeader(w *bufio.Writer, opt Options) {
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
	if g.tree.Nested {
		// compound for the edges clipped at clusters; newrank ranks nodes
		// across clusters, where the old ranking loses edges.
		w.WriteString("\tcompound=true;\n\tnewrank=true;\n")
	}
	w.WriteString("\tnode [shape=box, style=rounded];\n\n")
}

// writeNodes writes the states, in chart order, each compound state's
// inside its cluster, and the top-level states in clusters by page when
// there are several pages; then the nodes the writer adds.
func (g *graph) writeNodes(w *bufio.Writer) {
	c := g.c
	pages := pagesOf(c, g.tree)
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
			g.writeSubtree(w, i, indent)
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
}

// writeSubtree writes state i: its node, or, when states are drawn inside
// it, its cluster with its anchor, its start point and its children.
func (g *graph) writeSubtree(w *bufio.Writer, i int, indent string) {
	s := &g.c.States[i]
	if !g.tree.IsContainer(i) {
		w.WriteString(indent)
		g.writeState(w, s, g.isRegion(i))
		return
	}
	in := indent + "\t"
	w.WriteString(indent + "subgraph " + quote(clusterPrefix+s.ID) + " {\n")
	w.WriteString(in + "label=" + nodeLabel(s) + ";\n")
	if g.isRegion(i) {
		w.WriteString(in + "style=\"rounded,dashed\";\n")
	} else {
		w.WriteString(in + "style=rounded;\n")
	}
	w.WriteString(in + quote(g.anchor[i]) + " [label=\"\", shape=point, style=invis, width=0.01, height=0.01];\n")
	if g.innerStart[i] != "" {
		w.WriteString(in + quote(g.innerStart[i]) + " [label=\"\", shape=point, width=0.1];\n")
	}
	for _, k := range g.tree.Children[i] {
		g.writeSubtree(w, k, in)
	}
	w.WriteString(indent + "}\n")
}

// writeState writes the node statement of s; the node of a region of a
// parallel state is dashed.
func (g *graph) writeState(w *bufio.Writer, s *chart.State, region bool) {
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
	case chart.HistoryState, chart.DeepHistoryState:
		h := "H"
		if s.Kind == chart.DeepHistoryState {
			h = "H*"
		}
		w.WriteString(" [label=" + quoteLabel(h) + ", shape=circle, style=solid, width=0.3")
		if s.Name != "" {
			w.WriteString(", xlabel=" + quoteLabel(s.Name))
		}
		w.WriteString("];\n")
		return
	}
	w.WriteString(" [label=" + nodeLabel(s))
	if region {
		w.WriteString(", style=\"rounded,dashed\"")
	}
	w.WriteString("];\n")
}

// nodeLabel returns the label of a state's node or cluster, quoted: its
// name; or, when it has entry or exit actions, an HTML-like label of its
// name, a rule, and the actions aligned left.
func nodeLabel(s *chart.State) string {
	lines := exporter.ActionLines(s)
	if len(lines) == 0 {
		return quoteLabel(stateLabel(s))
	}
	var b strings.Builder
	b.WriteString(`<<table border="0" cellborder="0" cellspacing="0"><tr><td>`)
	b.WriteString(html(stateLabel(s)))
	b.WriteString(`</td></tr><hr/><tr><td align="left" balign="left">`)
	for k, l := range lines {
		if k > 0 {
			b.WriteString("<br/>")
		}
		b.WriteString(html(l))
	}
	b.WriteString("</td></tr></table>>")
	return b.String()
}

// endpoint is an end of an edge: a node, the state it stands for or is
// drawn inside (-1 for none), and whether it is the anchor of that state's
// cluster, where the edge is to be clipped.
type endpoint struct {
	node    string
	state   int
	cluster bool
}

// stateEnd returns the endpoint of an edge to or from the state with ID
// id: its node, the anchor of its cluster, or the node of a missing state.
func (g *graph) stateEnd(id string) endpoint {
	i, ok := g.index[id]
	if !ok {
		return endpoint{node: id, state: -1}
	}
	if g.tree.IsContainer(i) {
		return endpoint{node: g.anchor[i], state: i, cluster: true}
	}
	return endpoint{node: id, state: i}
}

// writeTransition writes the edges of transition i: one to each of its
// targets, with the same label; a loop when it has none.
func (g *graph) writeTransition(w *bufio.Writer, i int) {
	t := g.c.Transitions[i]
	from := endpoint{node: g.anyState, state: -1}
	if !isAny(t) {
		from = g.stateEnd(t.From)
	}
	var to endpoint
	switch t.Target.Kind {
	case chart.ToFinal:
		to = endpoint{node: g.final, state: -1}
	case chart.ToReturn:
		to = endpoint{node: g.ret, state: -1}
	case chart.ToNone:
		to = from
	default:
		to = g.stateEnd(t.Target.State)
	}
	var attrs []string
	if l := g.labels[i]; l != "" {
		attrs = append(attrs, "label="+quoteLabel(l))
	}
	var style []string
	switch {
	case isAny(t) || t.Target.Kind == chart.ToReturn:
		style = append(style, "dashed")
	case t.Target.Kind == chart.ToNone:
		style = append(style, "dotted")
	}
	if t.Push {
		style = append(style, "bold")
	}
	switch len(style) {
	case 0:
	case 1:
		attrs = append(attrs, "style="+style[0])
	default:
		attrs = append(attrs, "style="+quote(strings.Join(style, ",")))
	}
	g.writeEdge(w, from, to, attrs)
	for _, id := range t.Also {
		g.writeEdge(w, from, g.stateEnd(id), attrs)
	}
}

// writeEdge writes an edge with attributes attrs, clipped at the cluster of
// an end that is the anchor of one, unless the other end is inside it.
func (g *graph) writeEdge(w *bufio.Writer, from, to endpoint, attrs []string) {
	if from.cluster && !g.tree.Within(to.state, from.state) {
		attrs = append(attrs[:len(attrs):len(attrs)], "ltail="+quote(clusterPrefix+g.c.States[from.state].ID))
	}
	if to.cluster && !g.tree.Within(from.state, to.state) {
		attrs = append(attrs[:len(attrs):len(attrs)], "lhead="+quote(clusterPrefix+g.c.States[to.state].ID))
	}
	w.WriteString("\t" + quote(from.node) + " -> " + quote(to.node))
	if len(attrs) > 0 {
		w.WriteString(" [" + strings.Join(attrs, ", ") + "]")
	}
	w.WriteString(";\n")
}

// page is a page of the chart and its states, by index.
type page struct {
	name   string
	states []int
}

// pagesOf groups the top-level states by the page they are drawn on, pages
// in order of first appearance, states in chart order.
func pagesOf(c *chart.Chart, t *exporter.Tree) []page {
	var pages []page
	at := map[string]int{}
	for i, s := range c.States {
		if t.Parent[i] >= 0 {
			continue // drawn inside its parent
		}
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
