package scref

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/fsmforge/fsmforge/chart"
)

// Events are the events generated charts raise, send and listen for,
// and the events a script posts. Tests are the names their guards test.
var (
	Events = []string{"a", "b", "a.x", "c"}
	Tests  = []string{"p", "q"}
)

// MaxDepth is how deep Generate nests states.
const MaxDepth = 4

// Generate returns a random statechart made from seed: the same seed
// gives the same chart. Its states nest up to MaxDepth deep: compound
// states (entered at a child marked initial, at the target of a start
// state's transition with actions, or at their first child), parallel
// states of 2 or 3 regions (some nested directly), final states inside
// compounds (often in regions, with a transition to them), at the top
// and, rarely, directly in a parallel state, shallow and deep history
// states whose default enters states inside their parent. One chart in
// ten has more children per state, often over 64 states.
//
// Its transitions have 0 to 2 event descriptors (Events, the prefixes
// "a.*" and "a.x.*", done events "done.state.NAME" and "done", sometimes
// "*"), guards over Tests, true, false and In(), one target (any state,
// history states included), several in different regions of one
// parallel state, or none; some are internal, some any-state, some tied
// in Order. States and transitions have game, raise, send (after 0, 0.5
// or 1 s, some named t1 or t2) and cancel actions, some guarded. The
// chart is a statechart (unlabelled transitions are eventless) that
// chains or not at random, at times with a small ChainLimit, and lists
// its states and transitions in a shuffled order at times.
//
// State IDs are "n1", "n2"... and names "s1", "s2"... (start states are
// "i3", nameless). Generate makes only what package compile accepts,
// to its knowledge, and never a transition to the final state (ToFinal).
// It costs time linear in the chart.
func Generate(seed uint64) *chart.Chart {
	g := &generator{r: rand.New(rand.NewPCG(seed, 0x5c4ef)), c: &chart.Chart{Name: "gen" + strconv.FormatUint(seed, 10), Statechart: true}}
	g.c.Chain = g.r.IntN(2) == 0
	g.wide = g.r.IntN(10) == 0
	g.top = &gnode{kind: chart.NormalState}
	g.children(g.top)
	g.order(g.top)
	g.defaults()
	for _, n := range g.nodes {
		if n.kind == chart.NormalState || n.kind == chart.ParallelState {
			for range g.r.IntN(4) {
				g.transition(n)
			}
		}
		if n.kind == chart.EndState && g.r.IntN(20) == 0 {
			g.transition(n) // not SCXML, but a chart may
		}
		if n.kind == chart.EndState && n.parent != g.top && g.r.IntN(2) == 0 {
			g.toFinal(n)
		}
		if n.kind == chart.NormalState || n.kind == chart.ParallelState || n.kind == chart.EndState {
			n.Entry = g.actions(2)
			n.Exit = g.actions(2)
		}
	}
	if g.r.IntN(10) == 0 {
		for range 1 + g.r.IntN(2) {
			g.transition(g.top) // any-state transitions, the root's
		}
	}
	if g.c.Chain && g.r.IntN(5) == 0 {
		g.c.ChainLimit = 1 + g.r.IntN(5)
	}
	for _, n := range g.nodes {
		g.c.States = append(g.c.States, n.State)
	}
	if g.r.IntN(5) == 0 {
		// Another chart order: children before their parents, siblings
		// in another order (so another document order).
		g.r.Shuffle(len(g.c.States), func(i, j int) { g.c.States[i], g.c.States[j] = g.c.States[j], g.c.States[i] })
	}
	if g.r.IntN(5) == 0 {
		g.r.Shuffle(len(g.c.Transitions), func(i, j int) { g.c.Transitions[i], g.c.Transitions[j] = g.c.Transitions[j], g.c.Transitions[i] })
	}
	return g.c
}

// generator is what Generate keeps while it works.
type generator struct {
	r     *rand.Rand
	c     *chart.Chart
	top   *gnode   // the top level, not a state
	nodes []*gnode // every state made, starts included, in document order
	ids   int
	trans int
	wide  bool // more children per state: charts of over 64 states, often
}

// gnode is a state being made.
type gnode struct {
	chart.State
	kind   chart.StateKind
	parent *gnode // the top's children have g.top
	kids   []*gnode
	depth  int // 1 at the top level
}

// add makes a state of kind inside parent.
func (g *generator) add(parent *gnode, kind chart.StateKind) *gnode {
	g.ids++
	n := &gnode{kind: kind, parent: parent, depth: parent.depth + 1}
	k := strconv.Itoa(g.ids)
	n.State = chart.State{ID: "n" + k, Name: "s" + k, Kind: kind}
	if kind == chart.StartState {
		n.ID, n.Name = "i"+k, ""
	}
	if parent != g.top {
		n.Parent = parent.ID
	}
	parent.kids = append(parent.kids, n)
	return n
}

// order lists the states in document order, the start and history
// states (made last) moved among their siblings at times.
func (g *generator) order(p *gnode) {
	for i := len(p.kids) - 1; i >= 0; i-- {
		k := p.kids[i]
		if (k.kind == chart.StartState || k.kind == chart.HistoryState || k.kind == chart.DeepHistoryState) && g.r.IntN(2) == 0 {
			p.kids = slices.Delete(p.kids, i, i+1)
			p.kids = slices.Insert(p.kids, g.r.IntN(len(p.kids)+1), k)
		}
	}
	for _, k := range p.kids {
		g.nodes = append(g.nodes, k)
		g.order(k)
	}
}

// children makes the children of compound (or top) or parallel state p,
// at depth p.depth+1.
func (g *generator) children(p *gnode) {
	depth := p.depth + 1
	if p.kind == chart.ParallelState {
		for range 2 + g.r.IntN(2) {
			switch x := g.r.IntN(10); {
			case depth < MaxDepth && x < 5:
				g.children(g.add(p, chart.NormalState))
			case depth < MaxDepth && x < 6:
				g.children(g.add(p, chart.ParallelState))
			case x == 9 && g.r.IntN(4) == 0:
				g.add(p, chart.EndState) // not SCXML, but a chart may
			default:
				g.add(p, chart.NormalState)
			}
		}
		if g.r.IntN(8) == 0 {
			g.history(p)
		}
		return
	}
	count := 1 + g.r.IntN(3)
	if g.wide {
		count = 2 + g.r.IntN(5)
	}
	if p == g.top {
		count++
	}
	for i := range count {
		x := g.r.IntN(100)
		if depth >= MaxDepth {
			x = 40 + x*60/100 // atomic or final
		}
		switch {
		case x < 25:
			g.children(g.add(p, chart.NormalState))
		case x < 37:
			g.children(g.add(p, chart.ParallelState))
		case x < 87 || i == 0:
			g.add(p, chart.NormalState)
		default:
			g.add(p, chart.EndState)
		}
	}
	if p != g.top && p.parent.kind == chart.ParallelState && !p.completes() && g.r.IntN(2) == 0 {
		g.add(p, chart.EndState) // regions that complete make their parallel complete
	}
	if p != g.top && g.r.IntN(4) == 0 {
		g.history(p)
	}
	// The initial child: marked, a start state, or the first.
	switch x := g.r.IntN(10); {
	case x < 4:
		var list []*gnode
		for _, k := range p.kids {
			if k.kind != chart.HistoryState && k.kind != chart.DeepHistoryState && (k.kind != chart.EndState || g.r.IntN(8) == 0) {
				list = append(list, k)
			}
		}
		if len(list) > 0 {
			list[g.r.IntN(len(list))].Initial = true
		}
	case x < 7:
		g.add(p, chart.StartState)
		// Its transition is made by defaults, once every state is.
	}
}

// history adds a shallow or deep history state to p.
func (g *generator) history(p *gnode) {
	kind := chart.HistoryState
	if g.r.IntN(2) == 0 {
		kind = chart.DeepHistoryState
	}
	g.add(p, kind)
}

// defaults makes the transitions of the start and history states: to
// states inside their parent, with actions.
func (g *generator) defaults() {
	for _, n := range slices.Clone(g.nodes) {
		switch n.kind {
		case chart.StartState:
			t := g.newTransition(n)
			g.targets(t, n.parent, g.r.IntN(10) == 0)
			t.Actions = g.actions(2)
		case chart.HistoryState, chart.DeepHistoryState:
			t := g.newTransition(n)
			g.targets(t, n.parent, false)
			if g.r.IntN(3) == 0 {
				t.Actions = g.actions(2)
			}
		}
	}
}

// toFinal adds a transition to final state n from one of its siblings,
// on an event or when a test holds.
func (g *generator) toFinal(n *gnode) {
	var from []*gnode
	for _, k := range n.parent.kids {
		if k.kind == chart.NormalState || k.kind == chart.ParallelState {
			from = append(from, k)
		}
	}
	if len(from) == 0 {
		return
	}
	t := g.newTransition(from[g.r.IntN(len(from))])
	t.Target = chart.Target{Kind: chart.ToState, State: n.ID}
	if g.r.IntN(2) == 0 {
		t.Event = Events[g.r.IntN(len(Events))]
	} else {
		t.Guard = Tests[g.r.IntN(len(Tests))]
	}
	t.Actions = g.actions(1)
}

// newTransition adds a transition from n (an any-state transition for
// the top), without target.
func (g *generator) newTransition(n *gnode) *chart.Transition {
	g.trans++
	g.c.Transitions = append(g.c.Transitions, chart.Transition{ID: "t" + strconv.Itoa(g.trans), From: n.ID, Order: g.trans,
		AnyState: n == g.top, Target: chart.Target{Kind: chart.ToNone}})
	return &g.c.Transitions[len(g.c.Transitions)-1]
}

// below returns the states strictly inside p (every state for the top),
// without start states, and without history states unless hist.
func (g *generator) below(p *gnode, hist bool) []*gnode {
	var out []*gnode
	var walk func(n *gnode)
	walk = func(n *gnode) {
		for _, k := range n.kids {
			switch k.kind {
			case chart.StartState:
				continue
			case chart.HistoryState, chart.DeepHistoryState:
				if !hist {
					continue
				}
			}
			out = append(out, k)
			walk(k)
		}
	}
	walk(p)
	return out
}

// targets sets the targets of default transition t of a state inside p:
// one state strictly inside p (a history state only if hist), or, at
// times, states in different regions of a parallel state inside p.
func (g *generator) targets(t *chart.Transition, p *gnode, hist bool) {
	list := g.below(p, hist)
	if g.r.IntN(5) == 0 && g.multi(t, list, hist) {
		return
	}
	s := list[g.r.IntN(len(list))]
	t.Target = chart.Target{Kind: chart.ToState, State: s.ID}
}

// multi sets targets of t in 2 or 3 regions of a parallel state among
// list (history states among them if hist), reporting false when list
// has none.
func (g *generator) multi(t *chart.Transition, list []*gnode, hist bool) bool {
	var pars []*gnode
	for _, n := range list {
		if n.kind == chart.ParallelState {
			pars = append(pars, n)
		}
	}
	if len(pars) == 0 {
		return false
	}
	p := pars[g.r.IntN(len(pars))]
	var regions []*gnode
	for _, k := range p.kids {
		if k.kind != chart.HistoryState && k.kind != chart.DeepHistoryState {
			regions = append(regions, k)
		}
	}
	g.r.Shuffle(len(regions), func(i, j int) { regions[i], regions[j] = regions[j], regions[i] })
	regions = regions[:2+g.r.IntN(len(regions)-1)]
	var ids []string
	for _, reg := range regions {
		in := append([]*gnode{reg}, g.below(reg, hist && g.r.IntN(4) == 0)...)
		ids = append(ids, in[g.r.IntN(len(in))].ID)
	}
	t.Target = chart.Target{Kind: chart.ToState, State: ids[0]}
	t.Also = ids[1:]
	return true
}

// transition adds a random transition from n.
func (g *generator) transition(n *gnode) {
	t := g.newTransition(n)
	if g.r.IntN(4) == 0 {
		t.Order = 1 + g.r.IntN(3) // ties keep chart order
	}
	descs := []string{"a", "b", "a.x", "c", "a.*", "a.x.*"}
	k := 0
	switch x := g.r.IntN(20); {
	case x < 3:
	case x < 17:
		k = 1
	default:
		k = 2
	}
	var evs []string
	for range k {
		d := descs[g.r.IntN(len(descs))]
		switch x := g.r.IntN(20); {
		case x == 0:
			d = "*"
		case x < 4:
			d = g.done(n)
		}
		evs = append(evs, d)
	}
	t.Event = joinSpace(evs)
	switch {
	case k == 0:
		// Eventless: mostly guarded by a test, which holds in half the
		// frames, so that few charts loop for ever.
		t.Guard = Tests[g.r.IntN(len(Tests))]
		if g.r.IntN(3) == 0 {
			t.Guard = g.guard(2) + " && " + t.Guard
		}
		if g.r.IntN(10) == 0 {
			t.Guard = g.guard(2)
		}
	case g.r.IntN(10) < 4:
		t.Guard = g.guard(2)
	}
	switch x := g.r.IntN(100); {
	case x < 12:
		// targetless
	case x < 22 && g.multi(t, g.below(g.top, true), true):
	default:
		all := g.below(g.top, true)
		t.Target = chart.Target{Kind: chart.ToState, State: all[g.r.IntN(len(all))].ID}
	}
	t.Internal = g.r.IntN(4) == 0
	t.Actions = g.actions(2)
}

// done returns a descriptor of done events: mostly that of n or of one
// of its ancestors that can complete (a compound with a final child, a
// parallel), else of any state, or "done".
func (g *generator) done(n *gnode) string {
	var list []*gnode
	for p := n; p != g.top; p = p.parent {
		if p.completes() {
			list = append(list, p)
		}
	}
	if len(list) == 0 || g.r.IntN(4) == 0 {
		for _, m := range g.below(g.top, false) {
			if m.completes() {
				list = append(list, m)
			}
		}
	}
	if len(list) == 0 || g.r.IntN(10) == 0 {
		return "done"
	}
	return "done.state." + list[g.r.IntN(len(list))].Name
}

// completes reports whether n raises a done event: a compound with a
// final child, or a parallel.
func (n *gnode) completes() bool {
	if n.kind == chart.ParallelState {
		return true
	}
	return slices.ContainsFunc(n.kids, func(k *gnode) bool { return k.kind == chart.EndState })
}

// actions returns 0 to most random actions.
func (g *generator) actions(most int) []chart.Action {
	var out []chart.Action
	for range g.r.IntN(most + 1) {
		var a chart.Action
		switch x := g.r.IntN(40); {
		case x < 20:
			a = chart.Action{Property: []string{"anim", "move"}[g.r.IntN(2)], Value: []string{"x", "y", "z"}[g.r.IntN(3)]}
		case x < 23:
			a = chart.Action{Kind: chart.RaiseAction, Event: Events[g.r.IntN(len(Events))]}
		case x < 32:
			a = chart.Action{Kind: chart.SendAction, Event: Events[g.r.IntN(len(Events))],
				Delay: []float64{0, 0.5, 0.5, 1, 1}[g.r.IntN(5)], Timer: []string{"", "t1", "t2"}[g.r.IntN(3)]}
		default:
			a = chart.Action{Kind: chart.CancelAction, Timer: []string{"t1", "t2"}[g.r.IntN(2)]}
		}
		if g.r.IntN(10) == 0 {
			a.Guard = g.guard(1)
		}
		out = append(out, a)
	}
	return out
}

// guard returns a random condition over Tests and In() of the states,
// of depth at most depth.
func (g *generator) guard(depth int) string {
	if depth == 0 || g.r.IntN(2) == 0 {
		var s string
		switch x := g.r.IntN(10); {
		case x < 6:
			s = Tests[g.r.IntN(len(Tests))]
		case x < 9:
			all := g.below(g.top, false)
			s = "In(" + all[g.r.IntN(len(all))].ID + ")"
		default:
			s = []string{"true", "false"}[g.r.IntN(2)]
		}
		if g.r.IntN(4) == 0 {
			s = "!" + s
		}
		return s
	}
	op := " && "
	if g.r.IntN(2) == 0 {
		op = " || "
	}
	s := g.guard(depth-1) + op + g.guard(depth-1)
	if g.r.IntN(3) == 0 {
		s = "!(" + s + ")"
	}
	return s
}

func joinSpace(list []string) string {
	s := ""
	for i, e := range list {
		if i > 0 {
			s += " "
		}
		s += e
	}
	return s
}
