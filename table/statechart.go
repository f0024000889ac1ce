package table

import (
	"cmp"
	"iter"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// A statechart table is a table whose states nest: compound states with
// an initial child, parallel states whose children (regions) are all
// active at once, final states, and history. It runs with the semantics
// of the W3C SCXML recommendation (its Appendix D algorithm): an agent is
// in a configuration of states, not one state; transitions have a trigger
// (events, which are the table's message tests) and a condition; states
// have exit actions beside their entry actions; transitions have actions;
// actions may raise an event or send one to the agent itself after a
// delay of game time (a timer).
//
// A [Builder] makes a statechart table when any of these is used:
// [Builder.Nest], [Builder.SetKind], [Builder.SetExit], [Builder.SetDefault],
// a transition with Events, Cond, Also, Internal or Actions, or an action
// that is not a game action. In a statechart table, a transition may have
// To [NoState]: it has no target. Otherwise it makes a flat table, which runs as the article
// describes.

// StateKind is the kind of a state of a statechart table.
type StateKind uint8

const (
	// KindBasic is a state that is atomic, or compound when states are
	// nested in it: entering it enters its initial child.
	KindBasic StateKind = iota
	// KindParallel is a state whose children are regions, all entered
	// with it.
	KindParallel
	// KindFinal is a final state: entering it completes its parent (the
	// agent raises the event "done.state.PARENT"), or, at the top, ends
	// the agent.
	KindFinal
	// KindHistory is a shallow history pseudo-state: a transition to it
	// enters the children of its parent that were active when the parent
	// was last left, or, the first time, the targets of its default
	// transition ([Builder.SetDefault]).
	KindHistory
	// KindDeepHistory is a deep history pseudo-state: as KindHistory, with
	// the atomic states below the parent that were active.
	KindDeepHistory
)

var kindNames = [...]string{KindBasic: "basic", KindParallel: "parallel", KindFinal: "final", KindHistory: "history", KindDeepHistory: "deepHistory"}

// String returns "basic", "parallel", "final", "history" or "deepHistory".
func (k StateKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "StateKind(" + strconv.Itoa(int(k)) + ")"
}

// ActionKind says what an [Action] does.
type ActionKind uint8

const (
	// GameAction sets Property to Value: the host performs it ([Host.Do]).
	GameAction ActionKind = iota
	// RaiseAction puts Event on the agent's internal queue: it is handled
	// before any event from outside.
	RaiseAction
	// SendAction puts Event on the agent's external queue after Delay
	// seconds of game time ([Agent.SetTime]), or at once when Delay is 0.
	SendAction
	// CancelAction takes back the pending SendActions of Timer.
	CancelAction
)

var actionKindNames = [...]string{GameAction: "game", RaiseAction: "raise", SendAction: "send", CancelAction: "cancel"}

// String returns "game", "raise", "send" or "cancel".
func (k ActionKind) String() string {
	if int(k) < len(actionKindNames) {
		return actionKindNames[k]
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// TimerID identifies a named timer of a statechart table: the name a
// SendAction gives its pending event, so that a CancelAction can take it
// back. A state timer ("after 2 s in this state") is a send on entry and a
// cancel on exit.
type TimerID uint16

// NoTimer is the Timer of a SendAction that cannot be cancelled.
const NoTimer TimerID = 0xFFFF

// CondOp is one step of a [Cond].
type CondOp uint8

const (
	// CondTest pushes whether polled test Test holds.
	CondTest CondOp = iota
	// CondIn pushes whether State is active (SCXML's In()).
	CondIn
	// CondNot replaces the top of the stack by its negation.
	CondNot
	// CondAnd and CondOr replace the two values on top by their
	// conjunction or disjunction.
	CondAnd
	CondOr
	// CondTrue and CondFalse push a constant.
	CondTrue
	CondFalse
)

// CondTerm is one step of a [Cond]: an operation and its operand.
type CondTerm struct {
	Op    CondOp
	Test  TestID  // for CondTest: a polled test
	State StateID // for CondIn
}

// Cond is a transition's condition in postfix form: each term pushes a
// value or combines the values on top of a stack; the condition holds
// when the one value left is true. A nil Cond always holds. Every term
// is evaluated, in order: the host is asked each of the condition's
// polled tests (&& and || do not stop early), so that a table and the
// code generated from it ask the same questions.
//
// The operand a term does not use is zero: Test for every op but
// CondTest, State for every op but CondIn.
type Cond []CondTerm

// MaxCondDepth is the deepest stack a Cond may need.
const MaxCondDepth = 64

// Limits of a statechart table's runtime (see [Options]).
const (
	// DefaultQueueLimit is the default of Options.QueueLimit.
	DefaultQueueLimit = 32
	// DefaultTimerLimit is the default of Options.TimerLimit.
	DefaultTimerLimit = 16
	// MaxDepth is the deepest nesting of states.
	MaxDepth = 64
)

// Nest makes state s a child of state parent. Children are entered in
// the order of their IDs: add a state's children after it, and before any
// state outside it (IDs in document order).
func (b *Builder) Nest(s, parent StateID) {
	b.chart().parent[s] = parent
}

// SetKind sets the kind of state s (by default [KindBasic]).
func (b *Builder) SetKind(s StateID, k StateKind) {
	b.chart().kind[s] = k
}

// SetExit sets the actions performed when an agent leaves state s.
func (b *Builder) SetExit(s StateID, actions ...Action) {
	b.chart().exit[s] = slices.Clone(actions)
}

// SetDefault sets the transition taken on entering tr.From by default: for
// a compound state, the transition to its initial states (SCXML's
// <initial>; by default, the child set with [Builder.SetInitial], else its
// first child); for a history state, the transition taken when its parent
// has no history yet. tr.From may be [NoState] for the agent's start. A
// default transition has only targets (To and Also) and Actions: its Test
// is NoTest.
func (b *Builder) SetDefault(tr Transition) {
	c := b.chart()
	c.defaults = append(c.defaults, tr)
}

// AddTimer returns the ID of the timer named name, adding it if it is new.
func (b *Builder) AddTimer(name string) TimerID {
	c := b.chart()
	if i := slices.Index(c.timers, name); i >= 0 {
		return TimerID(i)
	}
	if len(c.timers) >= int(NoTimer) {
		b.errs.invalid("", "more than %d timers", int(NoTimer))
		return NoTimer
	}
	c.timers = append(c.timers, name)
	return TimerID(len(c.timers) - 1)
}

// Raise returns the action that raises event (a message test).
func (b *Builder) Raise(event TestID) Action {
	b.chart()
	return Action{Kind: RaiseAction, Event: event, Timer: NoTimer}
}

// Send returns the action that sends event (a message test) to the agent
// itself after delay seconds of game time, as timer (or [NoTimer]).
func (b *Builder) Send(event TestID, delay float64, timer TimerID) Action {
	b.chart()
	return Action{Kind: SendAction, Event: event, Delay: delay, Timer: timer}
}

// Cancel returns the action that takes back the pending sends of timer.
func (b *Builder) Cancel(timer TimerID) Action {
	b.chart()
	return Action{Kind: CancelAction, Event: NoTest, Timer: timer}
}

// chartBuild is what a Builder holds of a statechart.
type chartBuild struct {
	parent   map[StateID]StateID
	kind     map[StateID]StateKind
	exit     map[StateID][]Action
	defaults []Transition
	timers   []string
}

// chart returns the Builder's statechart part, making the table a
// statechart.
func (b *Builder) chart() *chartBuild {
	if b.sc == nil {
		b.sc = &chartBuild{parent: map[StateID]StateID{}, kind: map[StateID]StateKind{}, exit: map[StateID][]Action{}}
	}
	return b.sc
}

// isChart reports whether tr needs a statechart table.
func (tr *Transition) isChart() bool {
	if tr.Events != nil || tr.Cond != nil || tr.Also != nil || tr.Internal || tr.Actions != nil {
		return true
	}
	return false
}

// statechart is the part of a Table that runs it as a statechart. States
// are numbered in document order, so the descendants of state s are the
// states s+1 to end[s]-1; the root, the parent of the top-level states,
// is numbered len(states).
type statechart struct {
	nodes   []node // per state, then the root
	kids    []StateID
	trans   []ctrans // per state in order, then the root's (any-state)
	targets []StateID
	acts    []Action
	conds   []CondTerm
	events  []TestID // per transition (elo to ehi), sorted: the events that trigger it
	timers  []string
	atomic  []uint64 // the atomic states, as a set
	words   int      // of a set of states
	nhist   int
	hists   []StateID // the history states, ascending
	listed  []int32   // per state: the index in Describe's Transitions of its first
	done    []TestID  // per state: the done event it raises when completed, or NoTest
	stack   bool      // some transition pushes or returns
	queue   int       // limits, from the options
	ntimers int
	src     chartSource
}

// chartSource is what a Builder was given of a statechart, beyond a flat
// table's states, tests and properties: what encodings write, and what
// decoding gives a Builder again.
type chartSource struct {
	kinds    []StateKind
	parents  []StateID // NoState at the top
	exits    [][]Action
	own      []Transition // in the order added
	any      []Transition
	defaults []Transition
	marked   []StateID
	timers   []string
}

// source returns the builder's statechart as a chartSource.
func (b *Builder) source(n int) chartSource {
	src := chartSource{kinds: make([]StateKind, n), parents: make([]StateID, n), exits: make([][]Action, n),
		own: cloneTransitions(b.own), any: cloneTransitions(b.any), defaults: cloneTransitions(b.sc.defaults),
		marked: slices.Clone(b.marked), timers: slices.Clone(b.sc.timers)}
	// Transitions by source, in order: a state's own transitions are all
	// that their order among others' means.
	slices.SortStableFunc(src.own, func(a, b Transition) int { return int(a.From) - int(b.From) })
	for s := range n {
		src.parents[s] = NoState
		if p, ok := b.sc.parent[StateID(s)]; ok {
			src.parents[s] = p
		}
		src.kinds[s] = b.sc.kind[StateID(s)]
		src.exits[s] = slices.Clone(b.sc.exit[StateID(s)])
	}
	return src
}

// cloneTransitions returns a deep copy of list.
func cloneTransitions(list []Transition) []Transition {
	out := slices.Clone(list)
	for i := range out {
		t := &out[i]
		t.Events, t.Cond, t.Also, t.Actions = slices.Clone(t.Events), slices.Clone(t.Cond), slices.Clone(t.Also), slices.Clone(t.Actions)
	}
	return out
}

// builder returns a Builder that builds t again: how decoding makes a
// statechart table from what an encoding holds.
func (src *chartSource) builder(t *Table) *Builder {
	b := &Builder{Name: t.name, Options: t.opts}
	for _, p := range t.props {
		b.AddProperty(p.name, p.values...)
	}
	for _, tt := range t.tests {
		b.addTest(tt)
	}
	for _, s := range t.states {
		b.AddState(s.name, s.actions...)
	}
	b.SetInitial(t.initial)
	c := b.chart()
	c.timers = slices.Clone(src.timers)
	for s := range src.kinds {
		if src.parents[s] != NoState {
			c.parent[StateID(s)] = src.parents[s]
		}
		if src.kinds[s] != KindBasic {
			c.kind[StateID(s)] = src.kinds[s]
		}
		if len(src.exits[s]) > 0 {
			c.exit[StateID(s)] = src.exits[s]
		}
	}
	b.marked = append(b.marked[:0], src.marked...)
	b.own, b.any, c.defaults = src.own, src.any, src.defaults
	return b
}

// node is a state of a statechart.
type node struct {
	parent    StateID
	end       StateID // descendants are below end
	kind      StateKind
	compound  bool   // a basic state with children
	eventless bool   // some transition of tlo:thi has no event
	hist      int32  // for a history state, its slot; else -1
	klo, khi  uint32 // kids: children that are states (not history)
	hlo, hhi  uint32 // kids: history children
	tlo, thi  uint32 // trans
	elo, ehi  uint32 // acts: entry
	xlo, xhi  uint32 // acts: exit
	dflt      int32  // trans index of the default transition, or -1
}

// ctrans is a transition of a statechart.
type ctrans struct {
	source   StateID
	test     TestID // for Result.Test: the trigger, or the polled test
	tlo, thi uint32 // targets
	alo, ahi uint32 // acts
	clo, chi uint32 // conds
	elo, ehi uint32 // events
	domain   StateID
	eventful bool
	internal bool
	dynamic  bool // a target is a history state, or the stack's top: the domain depends on it
	push     bool // pushes its source, with what is active inside it
	ret      bool // returns to the configuration on top of the stack
}

// root returns the root's number.
func (c *statechart) root() StateID { return StateID(len(c.nodes) - 1) }

// below returns the range of states strictly below s: [lo, hi).
func (c *statechart) below(s StateID) (lo, hi int) {
	if s == c.root() {
		return 0, int(s)
	}
	return int(s) + 1, int(c.nodes[s].end)
}

// isBelow reports whether a is a proper descendant of s.
func (c *statechart) isBelow(a, s StateID) bool {
	lo, hi := c.below(s)
	return int(a) >= lo && int(a) < hi
}

// buildChart lays out a statechart table from the builder, reporting the
// problems in x.
func (b *Builder) buildChart(t *Table, x *errs) {
	sc := b.sc
	n := len(t.states)
	c := &statechart{nodes: make([]node, n+1), words: (n + 63) / 64, queue: t.opts.QueueLimit, ntimers: t.opts.TimerLimit}
	c.queue = cmp.Or(c.queue, DefaultQueueLimit)
	c.ntimers = cmp.Or(c.ntimers, DefaultTimerLimit)
	c.timers = slices.Clone(sc.timers)
	root := StateID(n)
	for s := range c.nodes {
		c.nodes[s] = node{parent: root, end: StateID(s + 1), hist: -1, dflt: -1}
	}
	c.nodes[root].parent = NoState
	c.nodes[root].end = root
	name := func(s StateID) string { return t.quoteState(s) }
	for s, p := range sc.parent {
		switch {
		case !t.HasState(s):
			x.invalid("", "Nest: %s is not a state", s)
		case !t.HasState(p):
			x.invalid("state "+name(s), "Nest: parent %s is not a state", p)
		case p >= s:
			x.invalid("state "+name(s), "is nested in %s, added after it: add a state's children after it", name(p))
		default:
			c.nodes[s].parent = p
		}
	}
	for s, k := range sc.kind {
		if !t.HasState(s) || k > KindDeepHistory {
			x.invalid("", "SetKind: %s is not a state, or %s is not a kind", s, k)
			continue
		}
		c.nodes[s].kind = k
	}
	if len(x.list) > 0 {
		return
	}
	// Subtrees must be contiguous: the end of each state's descendants.
	for s := n - 1; s >= 0; s-- {
		p := c.nodes[s].parent
		if p != root && c.nodes[s].end > c.nodes[p].end {
			c.nodes[p].end = c.nodes[s].end
		}
	}
	// In document order, the states whose range holds s are exactly its
	// ancestors: count them (opened minus closed) and compare.
	open := make([]int, n+1)
	for s := range n {
		open[s+1]++
		open[c.nodes[s].end]--
	}
	spans := 0
	for s := range n {
		spans += open[s]
		depth := 0
		for q := c.nodes[s].parent; q != root; q = c.nodes[q].parent {
			if depth++; depth > MaxDepth {
				x.invalid("state "+name(StateID(s)), "is nested more than %d deep", MaxDepth)
				return
			}
		}
		if spans != depth {
			x.invalid("state "+name(StateID(s)), "is added between the children of a state it is not nested in: add each state's children together, right after it")
			return
		}
	}
	// Children: states first, then history.
	for s := range c.nodes {
		sp := StateID(s)
		c.nodes[s].klo = uint32(len(c.kids))
		lo, hi := c.below(sp)
		for q := lo; q < hi; q = int(c.nodes[q].end) {
			if k := c.nodes[q].kind; k != KindHistory && k != KindDeepHistory {
				c.kids = append(c.kids, StateID(q))
			}
		}
		c.nodes[s].khi = uint32(len(c.kids))
		c.nodes[s].hlo = c.nodes[s].khi
		for q := lo; q < hi; q = int(c.nodes[q].end) {
			if k := c.nodes[q].kind; k == KindHistory || k == KindDeepHistory {
				c.kids = append(c.kids, StateID(q))
				if c.nodes[q].end != StateID(q+1) {
					x.invalid("state "+name(StateID(q)), "is a history state with states inside it")
				}
				if sp == root {
					x.invalid("state "+name(StateID(q)), "is a history state at the top: a history state belongs to a compound or parallel state")
				}
				c.nodes[q].hist = int32(c.nhist)
				c.nhist++
			}
		}
		c.nodes[s].hhi = uint32(len(c.kids))
		nd := &c.nodes[s]
		nd.compound = sp != root && nd.kind == KindBasic && nd.khi > nd.klo
		if sp != root && (nd.kind == KindFinal) && nd.khi > nd.klo {
			x.invalid("state "+name(sp), "is a final state with states inside it")
		}
		if sp != root && nd.kind == KindParallel && nd.khi == nd.klo {
			x.invalid("state "+name(sp), "is a parallel state without regions: nest states in it")
		}
	}
	for s := range n {
		if c.nodes[s].hist >= 0 {
			c.hists = append(c.hists, StateID(s))
		}
	}
	c.atomic = make([]uint64, c.words)
	for s := range n {
		nd := &c.nodes[s]
		if nd.khi == nd.klo && nd.kind != KindHistory && nd.kind != KindDeepHistory {
			c.atomic[s/64] |= 1 << (s % 64)
		}
	}
	b.layOutChartTransitions(t, c, x)
	if len(x.list) > 0 {
		return
	}
	// Describe lists each state's transitions, and after those of each
	// top-level state the root's (the any-state ones).
	c.listed = make([]int32, n)
	rt := &c.nodes[root]
	total := int32(0)
	for s := range n {
		c.listed[s] = total
		total += int32(c.nodes[s].thi - c.nodes[s].tlo)
		if c.nodes[s].parent == root {
			total += int32(rt.thi - rt.tlo)
		}
	}
	// Actions.
	for s := range n {
		nd := &c.nodes[s]
		nd.elo = uint32(len(c.acts))
		c.acts = append(c.acts, t.states[s].actions...)
		nd.ehi = uint32(len(c.acts))
		nd.xlo = nd.ehi
		c.acts = append(c.acts, sc.exit[StateID(s)]...)
		nd.xhi = uint32(len(c.acts))
	}
	for _, a := range c.acts {
		t.checkChartAction(x, a, c, b.badActions)
	}
	// Done events: "done.state.NAME" when the table has such a message.
	done := make(map[string]TestID) // as LookupTest finds them, in one pass
	for i, tt := range t.tests {
		if _, seen := done[tt.Name]; !seen && tt.Value == "" && strings.HasPrefix(tt.Name, "done.state.") {
			done[tt.Name] = TestID(i)
		}
	}
	c.done = make([]TestID, n+1)
	for s := range c.done {
		c.done[s] = NoTest
		if s == n {
			continue
		}
		if id, ok := done["done.state."+t.states[s].name]; ok && t.tests[id].Message {
			c.done[s] = id
		}
	}
	t.slot = make([]uint8, len(t.tests))
	for i, tt := range t.tests {
		if !tt.Message {
			t.slot[i] = noSlot
		}
	}
	c.src = b.source(n)
	t.sc = c
}

// layOutChartTransitions lays out the transitions, the defaults and the
// events they are triggered by.
func (b *Builder) layOutChartTransitions(t *Table, c *statechart, x *errs) {
	n := len(t.states)
	root := c.root()
	var msgs []TestID // the message tests: events
	for i, tt := range t.tests {
		if tt.Message {
			msgs = append(msgs, TestID(i))
		}
	}
	bySource := make([][]Transition, n+1)
	for _, tr := range b.own {
		if !t.HasState(tr.From) {
			x.invalid("", "transition from %s: not a state", tr.From)
			continue
		}
		bySource[tr.From] = append(bySource[tr.From], tr)
	}
	bySource[root] = append(bySource[root], b.any...)
	dflt := make([]*Transition, n+1)
	for i := range b.sc.defaults {
		tr := &b.sc.defaults[i]
		from := tr.From
		if from == NoState {
			from = root
		}
		if !t.HasState(from) && from != root {
			x.invalid("", "SetDefault: %s is not a state", tr.From)
			continue
		}
		if dflt[from] != nil {
			x.invalid("state "+t.quoteState(from), "has two default transitions")
		}
		if tr.Test != NoTest || tr.Events != nil || tr.Cond != nil || tr.Internal || tr.Push || tr.To == NoState || tr.To == Return {
			x.invalid("default transition of "+t.quoteState(from), "has a test, events, a condition, internal or push set, or no target: a default transition has only targets and actions")
		}
		dflt[from] = tr
	}
	// Default initial transitions: the child set initial, else the first.
	for s := range c.nodes {
		sp := StateID(s)
		nd := &c.nodes[s]
		if dflt[s] != nil || (sp != root && !nd.compound) {
			continue
		}
		first := NoState
		for _, k := range c.kids[nd.klo:nd.khi] {
			if first == NoState {
				first = k
			}
			if slices.Contains(b.marked, k) || (sp == root && k == t.initial) {
				first = k
				break
			}
		}
		if first == NoState {
			if sp == root {
				x.invalid("", "no top-level state to start in")
			}
			continue
		}
		dflt[s] = &Transition{From: sp, Test: NoTest, To: first}
	}
	for s := range c.nodes {
		sp := StateID(s)
		nd := &c.nodes[s]
		if k := nd.kind; (k == KindHistory || k == KindDeepHistory) && dflt[s] == nil {
			x.invalid("state "+t.quoteState(sp), "is a history state without a default transition (SetDefault)")
		}
		nd.tlo = uint32(len(c.trans))
		for i := range bySource[s] {
			c.addTrans(t, x, sp, &bySource[s][i], msgs)
			nd.eventless = nd.eventless || !c.trans[len(c.trans)-1].eventful
		}
		nd.thi = uint32(len(c.trans))
	}
	for s := range c.nodes {
		d := dflt[s]
		if d == nil {
			continue
		}
		// A default transition enters states inside the state it is the
		// default of (a history's: inside its parent): anything else
		// would make entering loop or leave the state half entered.
		inside := StateID(s)
		if c.nodes[s].hist >= 0 {
			inside = c.nodes[s].parent
		}
		for _, to := range append([]StateID{d.To}, d.Also...) {
			if t.HasState(to) && !c.isBelow(to, inside) {
				x.invalid("default transition of "+t.quoteState(StateID(s)), "enters %s, which is not inside %s", t.quoteState(to), t.quoteState(inside))
			}
			if t.HasState(to) && c.nodes[s].hist >= 0 && c.nodes[to].hist >= 0 {
				x.invalid("default transition of "+t.quoteState(StateID(s)), "enters history state %s: a history's default enters states", t.quoteState(to))
			}
		}
		c.nodes[s].dflt = int32(len(c.trans))
		c.addTrans(t, x, StateID(s), d, nil)
	}
}

// addTrans appends transition tr of source s.
func (c *statechart) addTrans(t *Table, x *errs, s StateID, tr *Transition, msgs []TestID) {
	where := "transition from " + t.quoteState(s)
	ct := ctrans{source: s, test: tr.Test, internal: tr.Internal}
	// Events: the Test if it is a message, and Events.
	ct.elo = uint32(len(c.events))
	addEvent := func(id TestID) {
		if int(id) >= len(t.tests) || !t.tests[id].Message {
			x.invalid(where, "event %s is not a message test", id)
			return
		}
		c.events = append(c.events, id)
		ct.eventful = true
	}
	ct.clo = uint32(len(c.conds))
	if tr.Test != NoTest {
		switch {
		case int(tr.Test) >= len(t.tests):
			x.invalid(where, "on %s: the table has %d tests", tr.Test, len(t.tests))
		case t.tests[tr.Test].Message:
			addEvent(tr.Test)
		default:
			c.conds = append(c.conds, CondTerm{Op: CondTest, Test: tr.Test})
		}
	}
	for _, id := range tr.Events {
		addEvent(id)
	}
	if len(tr.Cond) > 0 {
		t.checkCond(x, where, tr.Cond)
		if len(c.conds) > int(ct.clo) { // Test was polled: and it with Cond
			c.conds = append(c.conds, tr.Cond...)
			c.conds = append(c.conds, CondTerm{Op: CondAnd})
		} else {
			c.conds = append(c.conds, tr.Cond...)
		}
	}
	ct.chi = uint32(len(c.conds))
	evs := c.events[ct.elo:]
	slices.Sort(evs)
	c.events = c.events[:int(ct.elo)+len(slices.Compact(evs))]
	ct.ehi = uint32(len(c.events))
	// Targets.
	ct.tlo = uint32(len(c.targets))
	if tr.To == Return {
		ct.ret, ct.dynamic = true, true
		if len(tr.Also) > 0 || tr.Push {
			x.invalid(where, "returns, with further targets or a push: a return goes to what the stack holds")
		}
	} else if tr.To != NoState {
		for _, to := range append([]StateID{tr.To}, tr.Also...) {
			if !t.HasState(to) {
				x.invalid(where, "target %s: not a state (a statechart table has no Final or Return targets: add a final state)", to)
				continue
			}
			if k := c.nodes[to].kind; k == KindHistory || k == KindDeepHistory {
				ct.dynamic = true
			}
			c.targets = append(c.targets, to)
		}
	} else if len(tr.Also) > 0 {
		x.invalid(where, "Also without To")
	}
	ct.thi = uint32(len(c.targets))
	if tr.Push && tr.To == NoState {
		x.invalid(where, "pushes, but has no target: a push is only useful with a transition that leaves its source")
	}
	ct.push = tr.Push && tr.To != Return
	c.stack = c.stack || ct.push || ct.ret
	ct.alo = uint32(len(c.acts))
	c.acts = append(c.acts, tr.Actions...)
	ct.ahi = uint32(len(c.acts))
	c.trans = append(c.trans, ct)
	if !ct.dynamic {
		tc := &c.trans[len(c.trans)-1]
		tc.domain = c.domainOf(tc, c.targets[tc.tlo:tc.thi])
	}
}

// checkCond checks a condition: its tests are polled tests, its states
// states, and it leaves one value on a stack of at most MaxCondDepth.
func (t *Table) checkCond(x *errs, where string, cond Cond) {
	depth, most := 0, 0
	for _, ct := range cond {
		// The operand a term does not use is zero, so that every
		// encoding of a table says the same thing.
		if ct.Op != CondTest && ct.Test != 0 || ct.Op != CondIn && ct.State != 0 {
			x.invalid(where, "condition: term %d sets an operand it does not use", ct.Op)
		}
		switch ct.Op {
		case CondTest:
			if int(ct.Test) >= len(t.tests) || t.tests[ct.Test].Message {
				x.invalid(where, "condition tests %s, which is not a polled test", ct.Test)
			}
			depth++
		case CondIn:
			if !t.HasState(ct.State) {
				x.invalid(where, "condition In(%s): not a state", ct.State)
			}
			depth++
		case CondTrue, CondFalse:
			depth++
		case CondNot:
			if depth < 1 {
				x.invalid(where, "condition: ! with nothing to negate")
			}
		case CondAnd, CondOr:
			if depth < 2 {
				x.invalid(where, "condition: && or || with fewer than two values")
			}
			depth--
		default:
			x.invalid(where, "condition: unknown operation %d", ct.Op)
		}
		most = max(most, depth)
	}
	if depth != 1 || most > MaxCondDepth {
		x.invalid(where, "condition leaves %d values (want 1) or needs a stack of %d (at most %d)", depth, most, MaxCondDepth)
	}
}

// domainOf returns the transition domain of t with effective targets tgt
// (SCXML's getTransitionDomain), or NoState for a transition without
// targets.
func (c *statechart) domainOf(t *ctrans, tgt []StateID) StateID {
	if len(tgt) == 0 {
		return NoState
	}
	src := t.source
	if t.internal && src != c.root() && c.nodes[src].compound {
		all := true
		for _, s := range tgt {
			if !c.isBelow(s, src) {
				all = false
				break
			}
		}
		if all {
			return src
		}
	}
	// The least common compound ancestor of the source and the targets.
	for anc := c.nodes[src].parent; ; anc = c.nodes[anc].parent {
		if anc == NoState {
			return c.root()
		}
		if anc != c.root() && !c.nodes[anc].compound {
			continue
		}
		all := true
		for _, s := range tgt {
			if !c.isBelow(s, anc) {
				all = false
				break
			}
		}
		if all {
			return anc
		}
	}
}

// checkChartAction checks an action of a statechart table: its entry and
// exit actions and its transitions' (the game actions among the entry
// actions are checked again: validate reported them first).
func (t *Table) checkChartAction(x *errs, a Action, c *statechart, badActions []string) {
	if a.Cond != nil {
		t.checkCond(x, a.Kind.String()+" action", a.Cond)
	}
	switch a.Kind {
	case GameAction:
		switch {
		case a.Property == badProperty && int(a.Value) < len(badActions):
			x.invalid("", "%s", badActions[a.Value])
		case int(a.Property) >= len(t.props):
			x.invalid("", "action: %s is not a property of the table (it has %d)", a.Property, len(t.props))
		case int(a.Value) >= len(t.props[a.Property].values):
			x.invalid("", "action: %s is not a value of property %q", a.Value, t.props[a.Property].name)
		}
	case RaiseAction, SendAction:
		if int(a.Event) >= len(t.tests) || !t.tests[a.Event].Message {
			x.invalid("", "%s action: event %s is not a message test", a.Kind, a.Event)
		}
		if a.Kind == SendAction && (a.Delay < 0 || a.Delay != a.Delay || a.Delay > 1e15) {
			x.invalid("", "send action: delay %v is not a number of seconds from 0", a.Delay)
		}
		if a.Timer != NoTimer && int(a.Timer) >= len(c.timers) {
			x.invalid("", "send action: %d is not a timer", a.Timer)
		}
	case CancelAction:
		if int(a.Timer) >= len(c.timers) {
			x.invalid("", "cancel action: %d is not a timer", a.Timer)
		}
	default:
		x.invalid("", "action of unknown kind %d", a.Kind)
		return
	}
	// What an action's kind does not use is zero (or NoTest, NoTimer), so
	// that every encoding of a table says the same thing: make actions
	// with Builder.Action, Raise, Send and Cancel.
	zero := math.Float64bits(a.Delay) == 0
	var unused bool
	switch a.Kind {
	case GameAction:
		unused = a.Event == 0 && a.Timer == 0 && zero
	case RaiseAction:
		unused = a.Property == 0 && a.Value == 0 && a.Timer == NoTimer && zero
	case SendAction:
		unused = a.Property == 0 && a.Value == 0 && !math.Signbit(a.Delay)
	case CancelAction:
		unused = a.Property == 0 && a.Value == 0 && a.Event == NoTest && zero
	}
	if !unused {
		x.invalid("", "%s action sets fields its kind does not use (make it with Builder.Action, Raise, Send or Cancel)", a.Kind)
	}
}

// Sets of states, as bits.

func setHas(s []uint64, i StateID) bool { return s[i/64]>>(i%64)&1 != 0 }
func setAdd(s []uint64, i StateID)      { s[i/64] |= 1 << (i % 64) }
func setDel(s []uint64, i StateID)      { s[i/64] &^= 1 << (i % 64) }

// setAny reports whether s has a member in [lo, hi).
func setAny(s []uint64, lo, hi int) bool {
	for lo < hi {
		w := lo / 64
		bitsLeft := s[w] >> (lo % 64)
		if span := hi - lo; span < 64-lo%64 {
			bitsLeft &= 1<<span - 1
		}
		if bitsLeft != 0 {
			return true
		}
		lo = (w + 1) * 64
	}
	return false
}

// setNext returns the first member of s at or after i, or -1.
func setNext(s []uint64, i int) int {
	w := i / 64
	if w >= len(s) {
		return -1
	}
	if b := s[w] >> (i % 64); b != 0 {
		return i + bits.TrailingZeros64(b)
	}
	for w++; w < len(s); w++ {
		if s[w] != 0 {
			return w*64 + bits.TrailingZeros64(s[w])
		}
	}
	return -1
}

// setPrev returns the last member of s at or before i, or -1.
func setPrev(s []uint64, i int) int {
	if i < 0 {
		return -1
	}
	w := i / 64
	if b := s[w] << (63 - i%64); b != 0 {
		return i - bits.LeadingZeros64(b)
	}
	for w--; w >= 0; w-- {
		if s[w] != 0 {
			return w*64 + 63 - bits.LeadingZeros64(s[w])
		}
	}
	return -1
}

// isChart reports whether the builder makes a statechart table.
func (b *Builder) isChart() bool {
	if b.sc != nil {
		return true
	}
	for _, list := range [][]Transition{b.own, b.any} {
		for i := range list {
			if list[i].isChart() {
				return true
			}
		}
	}
	for _, s := range b.states {
		for _, a := range s.actions {
			if a.Kind != GameAction {
				return true
			}
		}
	}
	return false
}

// buildStatechart is Build for a statechart table.
func (b *Builder) buildStatechart(t *Table, x errs) (*Table, error) {
	b.chart()
	t.sc = &statechart{} // marks t as a statechart for validate
	if !checkSize(&x, len(t.tests), len(t.states), true) {
		return nil, x.err()
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"QueueLimit", t.opts.QueueLimit}, {"TimerLimit", t.opts.TimerLimit}} {
		if l.v < 0 || l.v > math.MaxUint16 {
			x.invalid("options", "%s %d; use 0 (the default) to %d", l.name, l.v, math.MaxUint16)
		}
	}
	t.validate(&x, b.badActions)
	if len(x.list) == 0 {
		b.buildChart(t, &x)
	}
	if len(x.list) > 0 {
		return nil, x.err()
	}
	return t, nil
}

// Statechart reports whether t is a statechart table: states that nest,
// exit actions, events raised or sent (see [StateKind]).
func (t *Table) Statechart() bool { return t.sc != nil }

// Kind returns the kind of state s: [KindBasic] for every state of a flat
// table, and for an ID that is not a state.
func (t *Table) Kind(s StateID) StateKind {
	if t.sc == nil || !t.HasState(s) {
		return KindBasic
	}
	return t.sc.nodes[s].kind
}

// Parent returns the state s is nested in, or [NoState] at the top (and
// for every state of a flat table, and for an ID that is not a state).
func (t *Table) Parent(s StateID) StateID {
	if t.sc == nil || !t.HasState(s) {
		return NoState
	}
	if p := t.sc.nodes[s].parent; p != t.sc.root() {
		return p
	}
	return NoState
}

// Atomic reports whether s is a state with no states nested in it (every
// state of a flat table).
func (t *Table) Atomic(s StateID) bool {
	if t.sc == nil {
		return t.HasState(s)
	}
	return t.HasState(s) && setHas(t.sc.atomic, s)
}

// transitions yields a statechart's transitions leaving from, in order,
// as they were added ([Table.Transitions]).
func (c *statechart) transitions(from StateID) iter.Seq[Transition] {
	return func(yield func(Transition) bool) {
		list := c.src.any
		if from != AnyState {
			lo, _ := slices.BinarySearchFunc(c.src.own, from, func(tr Transition, s StateID) int { return int(tr.From) - int(s) })
			list = c.src.own[lo:]
		}
		for _, tr := range list {
			if from != AnyState && tr.From != from || !yield(tr) {
				return
			}
		}
	}
}

// TimerName returns the name of timer id, or "" for NoTimer or an ID that
// is not one of t's timers.
func (t *Table) TimerName(id TimerID) string {
	if t.sc == nil || int(id) >= len(t.sc.timers) {
		return ""
	}
	return t.sc.timers[id]
}

// ExitActions yields the exit actions of state s of a statechart table,
// in the order they are performed. It yields nothing for a flat table or
// an ID that is not a state.
func (t *Table) ExitActions(s StateID) iter.Seq[Action] {
	return func(yield func(Action) bool) {
		if t.sc == nil || !t.HasState(s) {
			return
		}
		for _, a := range t.sc.src.exits[s] {
			if !yield(a) {
				return
			}
		}
	}
}

// Default returns the default transition of state s of a statechart
// table, as [Builder.SetDefault] took it (or as Build made it: to a
// compound's initial child), and whether it has one: for a compound
// state, the transition to its initial states; for a history state, the
// one taken when its parent has no history; for [NoState], the agent's
// start.
func (t *Table) Default(s StateID) (Transition, bool) {
	if t.sc == nil {
		return Transition{}, false
	}
	q := s
	if s == NoState {
		q = t.sc.root()
	} else if !t.HasState(s) {
		return Transition{}, false
	}
	d := t.sc.nodes[q].dflt
	if d < 0 {
		return Transition{}, false
	}
	ct := &t.sc.trans[d]
	tr := Transition{From: s, Test: NoTest, To: NoState}
	if targets := t.sc.targets[ct.tlo:ct.thi]; len(targets) > 0 {
		tr.To = targets[0]
		if len(targets) > 1 {
			tr.Also = slices.Clone(targets[1:])
		}
	}
	if ct.ahi > ct.alo {
		tr.Actions = slices.Clone(t.sc.acts[ct.alo:ct.ahi])
	}
	return tr, true
}

// NumTimers returns the number of named timers of a statechart table;
// their IDs are 0 to NumTimers()-1 ([Table.TimerName]).
func (t *Table) NumTimers() int {
	if t.sc == nil {
		return 0
	}
	return len(t.sc.timers)
}
