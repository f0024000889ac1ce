package layout

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
)

// Options says how to lay a chart out. The zero value lays layers out as
// rows from top to bottom, 80 pixels apart, states 40 pixels apart.
type Options struct {
	// LeftToRight lays layers out as columns from left to right. Default:
	// rows from top to bottom.
	LeftToRight bool

	// LayerGap is the space between two layers, in pixels. Default
	// (0 or less): 80.
	LayerGap float64

	// NodeGap is the space between two states of a layer, in pixels.
	// Default (0 or less): 40.
	NodeGap float64
}

// Defaults of Options, and the margin left at the top and left of a page.
const (
	DefaultLayerGap = 80
	DefaultNodeGap  = 40
	Margin          = 40
)

// Sizes of the boxes Layered gives states: see Size.
const (
	MinWidth     = 120 // a state's smallest width
	Height       = 60  // a state's height, for one line of text
	LineHeight   = 20  // the height each further line adds
	CharWidth    = 8   // the width of a character
	TextPadding  = 40  // the width added to the longest line
	MaxLineChars = 40  // characters in a line before the text wraps
	PseudoSize   = 30  // the width and height of a start or end pseudo-state
	ChoiceSize   = 60  // the smallest width and height of a choice pseudo-state
)

// passes is how many times the ordering and the coordinates are swept down
// and up the layers.
const passes = 4

func (o Options) withDefaults() Options {
	if !(o.LayerGap > 0) || math.IsInf(o.LayerGap, 0) {
		o.LayerGap = DefaultLayerGap
	}
	if !(o.NodeGap > 0) || math.IsInf(o.NodeGap, 0) {
		o.NodeGap = DefaultNodeGap
	}
	return o
}

// Size returns the width and height Layered gives state s: for a state,
// CharWidth pixels per character of its longest line plus TextPadding, at
// least MinWidth, and Height plus LineHeight for each line after the
// first. Its lines are its name (its ID when it has none) and one line
// per entry action, "entry / XMovement=left"; a line longer than
// MaxLineChars characters wraps. A start or end pseudo-state is a
// PseudoSize square; a choice at least a ChoiceSize square, wider for a
// long name.
func Size(s *chart.State) (w, h float64) {
	switch s.Kind {
	case chart.StartState, chart.EndState:
		return PseudoSize, PseudoSize
	case chart.ChoiceState:
		if strings.TrimSpace(s.Name) == "" {
			return ChoiceSize, ChoiceSize
		}
		longest, lines := measure(s.Name, 0, 0)
		return max(ChoiceSize, float64(CharWidth*longest+TextPadding)), float64(Height + LineHeight*(lines-1))
	}
	name := s.Name
	if strings.TrimSpace(name) == "" {
		name = s.ID
	}
	longest, lines := measure(name, 0, 0)
	for _, a := range s.Entry {
		longest, lines = measure("entry / "+a.Property+"="+a.Value, longest, lines)
	}
	return max(MinWidth, float64(CharWidth*longest+TextPadding)), float64(Height + LineHeight*(lines-1))
}

// measure adds the lines of text to a count of lines and the length of the
// longest, in characters.
func measure(text string, longest, lines int) (int, int) {
	for line := range strings.SplitSeq(text, "\n") {
		n := utf8.RuneCountInString(line)
		lines += max(1, (n+MaxLineChars-1)/MaxLineChars)
		longest = max(longest, min(n, MaxLineChars))
	}
	return longest, lines
}

// Layered gives a Box to every state of c that has none, by a layered
// (Sugiyama) layout of each page of the chart: see the package
// documentation. States that have a Box keep it, and the new boxes are
// placed to the right of them. Layered does nothing for a nil chart.
//
// The boxes depend only on the chart and the options. Layered changes c
// and must not run while c is read elsewhere. It costs O((n + m) log n)
// time for n states and m transitions, and O(n + m) memory, plus the
// dummy nodes of long edges (at most twice n + m of them).
func Layered(c *chart.Chart, opt Options) {
	if c == nil || len(c.States) == 0 {
		return
	}
	opt = opt.withDefaults()
	index := make(map[string]int, len(c.States))
	for i, s := range c.States {
		if _, ok := index[s.ID]; !ok {
			index[s.ID] = i
		}
	}
	n := &nesting{c: c, index: index, local: make([]int32, len(c.States)), size: map[int][2]float64{}}
	for i := range n.local {
		n.local[i] = -1
	}
	n.build()
	// Inside out: each compound's children first, laid out from the
	// origin; the compound is then as large as they need. Then each page's
	// top level, and last the children are moved into their compound.
	for _, p := range n.post {
		n.layoutGroup(n.kids[p], p, opt)
	}
	var pages [][]int
	pageOf := map[string]int{}
	for _, i := range n.top {
		s := &c.States[i]
		pg, ok := pageOf[s.Pos.Page]
		if !ok {
			pg = len(pages)
			pageOf[s.Pos.Page] = pg
			pages = append(pages, nil)
		}
		pages[pg] = append(pages[pg], i)
	}
	for _, states := range pages {
		n.layoutGroup(states, -1, opt)
	}
	n.moveIn()
}

// Compounds' padding, in pixels: the room a compound state leaves around
// its children, and above them for its name.
const (
	groupPad    = 20
	groupHeader = 30
)

// nesting is the chart's states as the tree their Parent fields make, and
// what laying it out keeps.
type nesting struct {
	c     *chart.Chart
	index map[string]int
	local []int32 // a state's node in the group being laid out, or -1
	top   []int   // the top-level states, in chart order
	kids  [][]int // each state's children, in chart order
	post  []int   // the states with children, children before parents
	group []int   // each state's parent (its index), or -1 at the top
	lca   [][]int // each compound's transitions (by index): those between its children
	topTr []int   // the top level's transitions
	size  map[int][2]float64
	// inside marks the states laid out inside their compound, from the
	// origin: moveIn puts them in place.
	inside []bool
}

// build reads the tree: a state whose Parent is not a state, or that a
// cycle of Parents would put inside itself, is at the top.
func (n *nesting) build() {
	c := n.c
	n.kids = make([][]int, len(c.States))
	n.group = make([]int, len(c.States))
	n.inside = make([]bool, len(c.States))
	for i := range c.States {
		n.group[i] = -1
	}
	for i := range c.States {
		if p, ok := n.index[c.States[i].Parent]; ok && !n.within(p, i) {
			n.group[i] = p
		}
	}
	for i := range c.States {
		if p := n.group[i]; p >= 0 {
			n.kids[p] = append(n.kids[p], i)
		} else {
			n.top = append(n.top, i)
		}
	}
	depth := make([]int, len(c.States))
	var visit func(i, d int)
	visit = func(i, d int) {
		depth[i] = d
		for _, k := range n.kids[i] {
			visit(k, d+1)
		}
		if len(n.kids[i]) > 0 {
			n.post = append(n.post, i)
		}
	}
	for _, i := range n.top {
		visit(i, 0)
	}
	// Each transition belongs to the group that holds both its ends: the
	// children of their lowest common ancestor.
	n.lca = make([][]int, len(c.States))
	for t := range c.Transitions {
		tr := &c.Transitions[t]
		to, ok := n.index[tr.Target.State]
		if tr.Target.Kind != chart.ToState || !ok {
			continue
		}
		from, ok := n.index[tr.From]
		if tr.AnyState || tr.From == "" || !ok {
			from = to // drawn from outside the states: its target's group
		}
		a, b := n.group[from], n.group[to]
		for a != b {
			if a >= 0 && (b < 0 || depth[a] >= depth[b]) {
				a = n.group[a]
			} else {
				b = n.group[b]
			}
		}
		if a < 0 {
			n.topTr = append(n.topTr, t)
		} else {
			n.lca[a] = append(n.lca[a], t)
		}
	}
}

// within reports whether state i is p or inside it, by the parents read
// so far.
func (n *nesting) within(i, p int) bool {
	for k := 0; i >= 0 && k <= len(n.group); k++ {
		if i == p {
			return true
		}
		i = n.group[i]
	}
	return false
}

// layoutGroup lays out the states of one group that have no box: the
// children of compound parent, from the origin, or a page's top level,
// beside the page's boxes (parent -1). A compound with no box of its own
// then gets the size that holds its children.
func (n *nesting) layoutGroup(states []int, parent int, opt Options) {
	c := n.c
	trs := n.topTr
	if parent >= 0 {
		trs = n.lca[parent]
	}
	var free []int
	var taken []*chart.Box
	for _, i := range states {
		if c.States[i].Box == nil {
			n.local[i] = int32(len(free))
			free = append(free, i)
		} else {
			taken = append(taken, c.States[i].Box)
		}
	}
	defer func() {
		for _, i := range free {
			n.local[i] = -1
		}
	}()
	if len(free) == 0 {
		return
	}
	g := n.buildGraph(free, trs)
	g.rank()
	g.order()
	g.place(c, free, n.size, opt)

	// Where the group's layout goes: inside its compound, from the
	// origin; at the page's margin; or to the right of the boxes already
	// there.
	x0, y0 := float64(Margin), float64(Margin)
	if parent >= 0 {
		x0, y0 = 0, 0
	}
	if len(taken) > 0 {
		right, top := math.Inf(-1), math.Inf(1)
		for _, b := range taken {
			right = max(right, b.X+b.W)
			top = min(top, b.Y)
		}
		x0, y0 = math.Round(right+opt.LayerGap), math.Round(top)
	}
	minX, minY := math.Inf(1), math.Inf(1)
	for _, i := range free {
		minX = min(minX, c.States[i].Box.X)
		minY = min(minY, c.States[i].Box.Y)
	}
	for _, i := range free {
		b := c.States[i].Box
		b.X = math.Round(b.X - minX + x0)
		b.Y = math.Round(b.Y - minY + y0)
		n.inside[i] = parent >= 0 && len(taken) == 0
	}
	if parent < 0 || c.States[parent].Box != nil || len(taken) > 0 {
		return
	}
	// The compound holds its children, with the padding, and is at least
	// as large as its own text needs.
	w, h := Size(&c.States[parent])
	right, bottom := 0.0, 0.0
	for _, i := range states {
		b := c.States[i].Box
		right, bottom = max(right, b.X+b.W), max(bottom, b.Y+b.H)
	}
	n.size[parent] = [2]float64{max(w, right+2*groupPad), max(h, bottom+groupHeader+2*groupPad)}
}

// moveIn moves the states laid out inside their compound to where the
// compound is, outermost first.
func (n *nesting) moveIn() {
	var move func(i int)
	move = func(i int) {
		p := n.c.States[i].Box
		for _, k := range n.kids[i] {
			if b := n.c.States[k].Box; n.inside[k] && b != nil && p != nil {
				b.X += p.X + groupPad
				b.Y += p.Y + groupHeader + groupPad
			}
			move(k)
		}
	}
	for _, i := range n.top {
		move(i)
	}
}

// graph is the layered graph of a page: its free states (nodes 0..n-1)
// and, once ranked, dummy nodes on long edges (nodes n and up).
type graph struct {
	n     int        // real nodes
	edges [][2]int32 // the page's transitions between free states, self-loops left out
	roots []int32    // the order in which the DFS starts from nodes
	fixed []bool     // roots that stay on the first layer: initial and start states

	// After rank:
	layer []int32 // each node's layer, dummies included
	disc  []int32 // each real node's discovery order in the DFS
	up    csr     // each node's neighbours on earlier layers
	down  csr     // each node's neighbours on later layers
	adj   bool    // whether every edge joins adjacent layers (dummies inserted)

	// After order:
	layers [][]int32 // the nodes of each layer, in order
}

// csr is an adjacency list in compressed sparse rows: the neighbours of
// node v are list[start[v]:start[v+1]].
type csr struct {
	start []int32
	list  []int32
}

func (a *csr) of(v int32) []int32 { return a.list[a.start[v]:a.start[v+1]] }

// newCSR builds the lists of nodes 0..n-1 from edges, keyed by from.
func newCSR(n int, edges [][2]int32, from, to int) csr {
	a := csr{start: make([]int32, n+1), list: make([]int32, len(edges))}
	for _, e := range edges {
		a.start[e[from]+1]++
	}
	for v := range n {
		a.start[v+1] += a.start[v]
	}
	next := slices.Clone(a.start[:n])
	for _, e := range edges {
		a.list[next[e[from]]] = e[to]
		next[e[from]]++
	}
	return a
}

// buildGraph makes the graph of a group's free states and of transitions
// trs (by index) between states inside them: a transition from or to a
// state inside a compound of the group counts as one from or to the
// compound.
func (n *nesting) buildGraph(free []int, trs []int) *graph {
	c := n.c
	g := &graph{n: len(free), fixed: make([]bool, len(free))}
	node := func(id string) int32 {
		i, ok := n.index[id]
		for ok && i >= 0 {
			if n.local[i] >= 0 {
				return n.local[i]
			}
			i = n.group[i]
		}
		return -1
	}
	var anyTargets []int32
	indeg := make([]int32, g.n)
	for _, k := range trs {
		t := &c.Transitions[k]
		if t.Target.Kind != chart.ToState {
			continue
		}
		to := node(t.Target.State)
		if to < 0 {
			continue
		}
		if t.AnyState || t.From == "" {
			anyTargets = append(anyTargets, to)
			continue
		}
		from := node(t.From)
		if from < 0 || from == to {
			continue
		}
		g.edges = append(g.edges, [2]int32{from, to})
		indeg[to]++
	}

	// The DFS starts from the initial states, then the start
	// pseudo-states, then the states nothing enters, then the rest, each
	// in chart order.
	queued := make([]bool, g.n)
	add := func(v int32) {
		if !queued[v] {
			queued[v] = true
			g.roots = append(g.roots, v)
		}
	}
	for k, i := range free {
		if c.States[i].Initial {
			g.fixed[k] = true
			add(int32(k))
		}
	}
	for k, i := range free {
		if c.States[i].Kind == chart.StartState {
			g.fixed[k] = true
			add(int32(k))
		}
	}
	for k := range free {
		if indeg[k] == 0 {
			add(int32(k))
		}
	}
	for k := range free {
		add(int32(k))
	}

	// Any-state transitions are drawn from outside the states; for the
	// layout they leave the first initial or start state, so that their
	// targets come below it rather than beside it.
	if len(g.roots) > 0 && g.fixed[g.roots[0]] {
		r := g.roots[0]
		for _, to := range anyTargets {
			if to != r {
				g.edges = append(g.edges, [2]int32{r, to})
			}
		}
	}
	return g
}

// rank breaks the cycles, gives each node a layer and inserts dummy nodes
// on long edges.
func (g *graph) rank() {
	n := g.n
	out := newCSR(n, g.edges, 0, 1)

	// Depth-first search from the roots in order: an edge to a node on
	// the stack closes a cycle and is reversed.
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, n)
	g.disc = make([]int32, n)
	post := make([]int32, 0, n)
	dag := make([][2]int32, 0, len(g.edges))
	type frame struct{ v, next int32 }
	var stack []frame
	discovered := int32(0)
	for _, r := range g.roots {
		if color[r] != white {
			continue
		}
		color[r] = grey
		g.disc[r] = discovered
		discovered++
		stack = append(stack, frame{r, out.start[r]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == out.start[top.v+1] {
				color[top.v] = black
				post = append(post, top.v)
				stack = stack[:len(stack)-1]
				continue
			}
			u, v := top.v, out.list[top.next]
			top.next++
			switch color[v] {
			case white:
				dag = append(dag, [2]int32{u, v})
				color[v] = grey
				g.disc[v] = discovered
				discovered++
				stack = append(stack, frame{v, out.start[v]})
			case grey:
				dag = append(dag, [2]int32{v, u}) // a back edge, reversed
			default:
				dag = append(dag, [2]int32{u, v})
			}
		}
	}

	// Longest path from the sources, in topological order (the reverse
	// of the DFS's post-order).
	succ := newCSR(n, dag, 0, 1)
	layer := make([]int32, n)
	for k := len(post) - 1; k >= 0; k-- {
		u := post[k]
		for _, v := range succ.of(u) {
			layer[v] = max(layer[v], layer[u]+1)
		}
	}
	// A source other than an initial or start state moves down to just
	// above its nearest successor, rather than waiting on the first layer.
	pred := newCSR(n, dag, 1, 0)
	for v := range int32(n) {
		if g.fixed[v] || len(pred.of(v)) > 0 || len(succ.of(v)) == 0 {
			continue
		}
		nearest := int32(math.MaxInt32)
		for _, w := range succ.of(v) {
			nearest = min(nearest, layer[w])
		}
		layer[v] = max(0, nearest-1)
	}
	// Number the layers in use from 0.
	top := int32(0)
	for _, l := range layer {
		top = max(top, l)
	}
	used := make([]int32, top+2)
	for _, l := range layer {
		used[l+1] = 1
	}
	for l := 1; l < len(used); l++ {
		used[l] += used[l-1]
	}
	for v := range layer {
		layer[v] = used[layer[v]]
	}

	// Dummy nodes on edges that span several layers, when there are not
	// too many of them; otherwise long edges stay long.
	dummies := 0
	for _, e := range dag {
		dummies += int(layer[e[1]] - layer[e[0]] - 1)
	}
	g.adj = dummies <= 2*(n+len(dag))
	if g.adj {
		edges := make([][2]int32, 0, len(dag)+dummies)
		for _, e := range dag {
			u := e[0]
			for l := layer[e[0]] + 1; l < layer[e[1]]; l++ {
				d := int32(len(layer))
				layer = append(layer, l)
				edges = append(edges, [2]int32{u, d})
				u = d
			}
			edges = append(edges, [2]int32{u, e[1]})
		}
		dag = edges
	}
	g.layer = layer
	g.down = newCSR(len(layer), dag, 0, 1)
	g.up = newCSR(len(layer), dag, 1, 0)
}

// order orders each layer: first by discovery in the DFS, then by
// barycentre sweeps down and up the layers, keeping the order with the
// fewest crossings when every edge joins adjacent layers.
func (g *graph) order() {
	total := len(g.layer)
	key := make([]float64, total)
	for v := range g.n {
		key[v] = float64(g.disc[v])
	}
	// A dummy follows its edge's source.
	for v := range g.n {
		for _, d := range g.down.of(int32(v)) {
			for d >= int32(g.n) {
				key[d] = key[v] + 0.5
				d = g.down.of(d)[0]
			}
		}
	}
	nl := int32(0)
	for _, l := range g.layer {
		nl = max(nl, l+1)
	}
	g.layers = make([][]int32, nl)
	for v, l := range g.layer {
		g.layers[l] = append(g.layers[l], int32(v))
	}
	for _, nodes := range g.layers {
		slices.SortStableFunc(nodes, func(a, b int32) int { return cmpFloat(key[a], key[b]) })
	}

	pos := make([]float64, total) // a node's place in its layer, scaled to (0, 1)
	setPos := func(nodes []int32) {
		for i, v := range nodes {
			pos[v] = (float64(i) + 0.5) / float64(len(nodes))
		}
	}
	for _, nodes := range g.layers {
		setPos(nodes)
	}
	sweep := func(l int, nb *csr) {
		nodes := g.layers[l]
		for _, v := range nodes {
			if ns := nb.of(v); len(ns) > 0 {
				sum := 0.0
				for _, u := range ns {
					sum += pos[u]
				}
				key[v] = sum / float64(len(ns))
			} else {
				key[v] = pos[v]
			}
		}
		slices.SortStableFunc(nodes, func(a, b int32) int { return cmpFloat(key[a], key[b]) })
		setPos(nodes)
	}

	best, bestCross := [][]int32(nil), 0
	if g.adj {
		best, bestCross = cloneLayers(g.layers), g.crossings()
	}
	for range passes {
		if g.adj && bestCross == 0 {
			break
		}
		for l := 1; l < len(g.layers); l++ {
			sweep(l, &g.up)
		}
		for l := len(g.layers) - 2; l >= 0; l-- {
			sweep(l, &g.down)
		}
		if g.adj {
			if cr := g.crossings(); cr < bestCross {
				best, bestCross = cloneLayers(g.layers), cr
			}
		}
	}
	if g.adj {
		g.layers = best
	}
}

func cloneLayers(layers [][]int32) [][]int32 {
	c := make([][]int32, len(layers))
	for i, l := range layers {
		c[i] = slices.Clone(l)
	}
	return c
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// crossings counts the edge crossings between adjacent layers, by
// counting inversions with a Fenwick tree (Barth, Jünger and Mutzel).
func (g *graph) crossings() int {
	at := make([]int32, len(g.layer))
	for _, nodes := range g.layers {
		for i, v := range nodes {
			at[v] = int32(i)
		}
	}
	total := 0
	var ends []int32
	var tree []int32
	for l := 0; l+1 < len(g.layers); l++ {
		ends = ends[:0]
		for _, v := range g.layers[l] { // sources in order, ends sorted within each
			start := len(ends)
			for _, w := range g.down.of(v) {
				ends = append(ends, at[w])
			}
			slices.Sort(ends[start:])
		}
		size := len(g.layers[l+1])
		tree = slices.Grow(tree[:0], size+1)[:size+1]
		clear(tree)
		for k, e := range ends {
			// Edges so far whose end is after e cross this one.
			le := 0
			for i := int(e) + 1; i > 0; i -= i & -i {
				le += int(tree[i])
			}
			total += k - le
			for i := int(e) + 1; i <= size; i += i & -i {
				tree[i]++
			}
		}
	}
	return total
}

// place gives each free state its box: layers one after the other along
// the main axis, states in layer order across it, each moved towards its
// neighbours on the other layers as far as the gaps allow.
func (g *graph) place(c *chart.Chart, free []int, sizes map[int][2]float64, opt Options) {
	total := len(g.layer)
	across := make([]float64, total) // a node's size across the layers
	along := make([]float64, total)  // and along them
	for v, i := range free {
		w, h := Size(&c.States[i])
		if s, ok := sizes[i]; ok {
			w, h = s[0], s[1]
		}
		if opt.LeftToRight {
			across[v], along[v] = h, w
		} else {
			across[v], along[v] = w, h
		}
	}
	gap := func(a, b int32) float64 {
		if int(a) < g.n && int(b) < g.n {
			return opt.NodeGap
		}
		return opt.NodeGap / 2
	}

	centre := make([]float64, total)
	for _, nodes := range g.layers {
		x := 0.0
		for i, v := range nodes {
			if i > 0 {
				x += across[nodes[i-1]]/2 + gap(nodes[i-1], v) + across[v]/2
			}
			centre[v] = x
		}
		for _, v := range nodes {
			centre[v] -= x / 2
		}
	}

	want := make([]float64, total)
	var off, sums []float64
	var counts, starts []int
	align := func(l int, lists ...*csr) {
		nodes := g.layers[l]
		for _, v := range nodes {
			sum, k := 0.0, 0
			for _, nb := range lists {
				for _, u := range nb.of(v) {
					sum += centre[u]
					k++
				}
			}
			if k > 0 {
				want[v] = sum / float64(k)
			} else {
				want[v] = centre[v]
			}
		}
		// Least squares under the order and the gaps: with off the least
		// distance of each node from the first, centre - off must not
		// decrease along the layer; pool adjacent violators.
		off = append(off[:0], 0)
		for i := 1; i < len(nodes); i++ {
			a, b := nodes[i-1], nodes[i]
			off = append(off, off[i-1]+across[a]/2+gap(a, b)+across[b]/2)
		}
		sums, counts, starts = sums[:0], counts[:0], starts[:0]
		for i, v := range nodes {
			sums, counts, starts = append(sums, want[v]-off[i]), append(counts, 1), append(starts, i)
			for k := len(sums) - 1; k > 0 && sums[k-1]*float64(counts[k]) > sums[k]*float64(counts[k-1]); k-- {
				sums[k-1] += sums[k]
				counts[k-1] += counts[k]
				sums, counts, starts = sums[:k], counts[:k], starts[:k]
			}
		}
		for k := range sums {
			mean := sums[k] / float64(counts[k])
			for i := starts[k]; i < starts[k]+counts[k]; i++ {
				centre[nodes[i]] = mean + off[i]
			}
		}
	}
	for range passes {
		for l := 1; l < len(g.layers); l++ {
			align(l, &g.up)
		}
		for l := len(g.layers) - 2; l >= 0; l-- {
			align(l, &g.down)
		}
	}
	for l := range g.layers {
		align(l, &g.up, &g.down)
	}

	// Along the layers: each layer as thick as its thickest state, the
	// states centred in it.
	start := 0.0
	for _, nodes := range g.layers {
		thick := 0.0
		for _, v := range nodes {
			thick = max(thick, along[v])
		}
		for _, v := range nodes {
			if int(v) >= g.n {
				continue
			}
			a := start + (thick-along[v])/2
			cx := centre[v] - across[v]/2
			w, h := across[v], along[v]
			b := &chart.Box{X: cx, Y: a, W: w, H: h}
			if opt.LeftToRight {
				b = &chart.Box{X: a, Y: cx, W: h, H: w}
			}
			c.States[free[v]].Box = b
		}
		start += thick + opt.LayerGap
	}
}
