package gogen

import (
	"cmp"
	"slices"

	"github.com/fsmforge/fsmforge/table"
)

// chartM is a statechart table laid out as the generated file holds it:
// the same arrays, in the same order, as package table's runtime builds
// (table/statechart.go), worked out again here from the table's public
// API. States are numbered in document order; the root, the parent of the
// top-level states, is numbered NumStates.
type chartM struct {
	n       int // states; the root is n
	nodes   []cnode
	kids    []int
	trans   []ctrans
	targets []int
	acts    []cact
	conds   []table.CondTerm
	events  []table.TestID
	timers  []string
	atomic  []uint64
	words   int
	nhist   int
	done    []table.TestID // per node: the done event, or NoTest
	queue   int
	ntimers int
}

type cnode struct {
	parent, end int // parent: -1 for the root
	kind        table.StateKind
	compound    bool
	eventless   bool
	hist        int
	klo, khi    int
	hlo, hhi    int
	tlo, thi    int
	elo, ehi    int
	xlo, xhi    int
	dflt        int
	name        string
	entry, exit []table.Action
}

type ctrans struct {
	source             int
	test               table.TestID
	tlo, thi           int
	alo, ahi           int
	clo, chi           int
	elo, ehi           int
	domain             int // -1: none (no targets, or dynamic)
	eventful, internal bool
	dynamic            bool // a target is a history state, or the top of the stack
	push               bool // pushes its source, with what is active inside it
	ret                bool // returns to what is on top of the stack
}

// cact is an action with the range of its condition in conds.
type cact struct {
	table.Action
	clo, chi int
}

// chartSource is what gogen reads of a statechart table beyond its states
// and transitions: exit actions, default transitions (those Builder was
// given and those Build made) and the timers' names.
type chartSource struct {
	exits    [][]table.Action
	defaults []table.Transition
	timers   []string
}

func readSource(t *table.Table) *chartSource {
	n := t.NumStates()
	src := &chartSource{exits: make([][]table.Action, n)}
	for s := range table.StateID(n) {
		for a := range t.ExitActions(s) {
			src.exits[s] = append(src.exits[s], a)
		}
		if d, ok := t.Default(s); ok {
			src.defaults = append(src.defaults, d)
		}
	}
	if d, ok := t.Default(table.NoState); ok {
		src.defaults = append(src.defaults, d)
	}
	for id := range table.TimerID(t.NumTimers()) {
		src.timers = append(src.timers, t.TimerName(id))
	}
	return src
}

// newChart lays out statechart t as table/statechart.go's buildChart
// does. t is valid: Build or decoding checked it.
func newChart(t *table.Table) *chartM {
	// The states' transitions, then AnyState's (the root's).
	src := readSource(t)
	n := t.NumStates()
	o := t.Options()
	c := &chartM{n: n, nodes: make([]cnode, n+1), words: (n + 63) / 64, timers: src.timers,
		queue: cmp.Or(o.QueueLimit, table.DefaultQueueLimit), ntimers: cmp.Or(o.TimerLimit, table.DefaultTimerLimit)}
	root := n
	for s := range c.nodes {
		c.nodes[s] = cnode{parent: root, end: s + 1, hist: -1, dflt: -1}
		if s < n {
			id := table.StateID(s)
			nd := &c.nodes[s]
			if p := t.Parent(id); p != table.NoState {
				nd.parent = int(p)
			}
			nd.kind = t.Kind(id)
			nd.name = t.StateName(id)
			for a := range t.Actions(id) {
				nd.entry = append(nd.entry, a)
			}
			nd.exit = src.exits[s]
		}
	}
	c.nodes[root].parent = -1
	c.nodes[root].end = root
	for s := n - 1; s >= 0; s-- {
		if p := c.nodes[s].parent; p != root && c.nodes[s].end > c.nodes[p].end {
			c.nodes[p].end = c.nodes[s].end
		}
	}
	isHist := func(s int) bool { k := c.nodes[s].kind; return k == table.KindHistory || k == table.KindDeepHistory }
	for s := range c.nodes {
		nd := &c.nodes[s]
		lo, hi := c.below(s)
		nd.klo = len(c.kids)
		for q := lo; q < hi; q = c.nodes[q].end {
			if !isHist(q) {
				c.kids = append(c.kids, q)
			}
		}
		nd.khi = len(c.kids)
		nd.hlo = nd.khi
		for q := lo; q < hi; q = c.nodes[q].end {
			if isHist(q) {
				c.kids = append(c.kids, q)
				c.nodes[q].hist = c.nhist
				c.nhist++
			}
		}
		nd.hhi = len(c.kids)
		nd.compound = s != root && nd.kind == table.KindBasic && nd.khi > nd.klo
	}
	c.atomic = make([]uint64, c.words)
	for s := range n {
		if nd := &c.nodes[s]; nd.khi == nd.klo && !isHist(s) {
			c.atomic[s/64] |= 1 << (s % 64)
		}
	}
	c.layOutTransitions(t, src)
	for s := range n {
		nd := &c.nodes[s]
		nd.elo = len(c.acts)
		c.addActs(nd.entry)
		nd.ehi = len(c.acts)
		nd.xlo = nd.ehi
		c.addActs(nd.exit)
		nd.xhi = len(c.acts)
	}
	c.done = make([]table.TestID, n+1)
	for s := range c.done {
		c.done[s] = table.NoTest
		if s < n {
			if id, ok := t.LookupTest("done.state."+t.StateName(table.StateID(s)), ""); ok && t.Test(id).Message {
				c.done[s] = id
			}
		}
	}
	return c
}

// addActs appends actions, their conditions to conds.
func (c *chartM) addActs(list []table.Action) {
	for _, a := range list {
		ca := cact{Action: a, clo: len(c.conds)}
		c.conds = append(c.conds, a.Cond...)
		ca.chi = len(c.conds)
		c.acts = append(c.acts, ca)
	}
}

// below returns the range of states strictly below s.
func (c *chartM) below(s int) (lo, hi int) {
	if s == c.n {
		return 0, s
	}
	return s + 1, c.nodes[s].end
}

func (c *chartM) isBelow(a, s int) bool {
	lo, hi := c.below(s)
	return a >= lo && a < hi
}

// layOutTransitions is table's layOutChartTransitions for a valid table.
func (c *chartM) layOutTransitions(t *table.Table, src *chartSource) {
	n, root := c.n, c.n
	bySource := make([][]table.Transition, n+1)
	for s := range n {
		for tr := range t.Transitions(table.StateID(s)) {
			bySource[s] = append(bySource[s], tr)
		}
	}
	for tr := range t.Transitions(table.AnyState) {
		bySource[root] = append(bySource[root], tr)
	}
	dflt := make([]*table.Transition, n+1)
	for i := range src.defaults {
		tr := &src.defaults[i]
		from := int(tr.From)
		if tr.From == table.NoState {
			from = root
		}
		dflt[from] = tr
	}
	for s := range c.nodes {
		nd := &c.nodes[s]
		nd.tlo = len(c.trans)
		for i := range bySource[s] {
			c.addTrans(t, s, &bySource[s][i])
			nd.eventless = nd.eventless || !c.trans[len(c.trans)-1].eventful
		}
		nd.thi = len(c.trans)
	}
	for s := range c.nodes {
		if d := dflt[s]; d != nil {
			c.nodes[s].dflt = len(c.trans)
			c.addTrans(t, s, d)
		}
	}
}

// addTrans appends transition tr of source s, as table's addTrans.
func (c *chartM) addTrans(t *table.Table, s int, tr *table.Transition) {
	ct := ctrans{source: s, test: tr.Test, internal: tr.Internal, domain: -1}
	ct.elo = len(c.events)
	ct.clo = len(c.conds)
	if tr.Test != table.NoTest {
		if t.Test(tr.Test).Message {
			c.events = append(c.events, tr.Test)
			ct.eventful = true
		} else {
			c.conds = append(c.conds, table.CondTerm{Op: table.CondTest, Test: tr.Test})
		}
	}
	for _, id := range tr.Events {
		c.events = append(c.events, id)
		ct.eventful = true
	}
	if len(tr.Cond) > 0 {
		polled := len(c.conds) > ct.clo
		c.conds = append(c.conds, tr.Cond...)
		if polled {
			c.conds = append(c.conds, table.CondTerm{Op: table.CondAnd})
		}
	}
	ct.chi = len(c.conds)
	evs := c.events[ct.elo:]
	slices.Sort(evs)
	c.events = c.events[:ct.elo+len(slices.Compact(evs))]
	ct.ehi = len(c.events)
	ct.tlo = len(c.targets)
	switch {
	case tr.To == table.Return:
		ct.ret, ct.dynamic = true, true
	case tr.To != table.NoState:
		for _, to := range append([]table.StateID{tr.To}, tr.Also...) {
			if k := c.nodes[to].kind; k == table.KindHistory || k == table.KindDeepHistory {
				ct.dynamic = true
			}
			c.targets = append(c.targets, int(to))
		}
	}
	ct.thi = len(c.targets)
	ct.push = tr.Push && !ct.ret
	ct.alo = len(c.acts)
	c.addActs(tr.Actions)
	ct.ahi = len(c.acts)
	if !ct.dynamic {
		ct.domain = c.domainOf(&ct, c.targets[ct.tlo:ct.thi])
	}
	c.trans = append(c.trans, ct)
}

// domainOf is table's domainOf: -1 for a transition without targets.
func (c *chartM) domainOf(t *ctrans, tgt []int) int {
	if len(tgt) == 0 {
		return -1
	}
	all := func(anc int) bool {
		for _, s := range tgt {
			if !c.isBelow(s, anc) {
				return false
			}
		}
		return true
	}
	src := t.source
	if t.internal && src != c.n && c.nodes[src].compound && all(src) {
		return src
	}
	for anc := c.nodes[src].parent; ; anc = c.nodes[anc].parent {
		if anc < 0 {
			return c.n
		}
		if anc != c.n && !c.nodes[anc].compound {
			continue
		}
		if all(anc) {
			return anc
		}
	}
}

// check reports what the generated runtime cannot hold.
func (c *chartM) check(x *errs, m *model) {
	if c.n+1 >= int(m.noState) {
		x.name("", "%d states: a statechart gogen generates holds at most %d", c.n, m.noState-2)
	}
	if len(c.timers) >= 0xFFFF {
		x.name("", "%d timers: at most %d", len(c.timers), 0xFFFE)
	}
}
