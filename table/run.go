package table

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/fsmforge/fsmforge/machine"
)

// run is what an agent holds behind its one pointer: its observer (see
// Observe) and, for an agent of a statechart table, the chart's state. A
// flat agent has none until it is observed, and then the chart's part is
// zero. (The chart's part is a value, not a pointer, so that a
// statechart's updates reach it in one load: behind a second pointer they
// measured 2% slower on BenchmarkGuard.)
type run struct {
	obs      machine.Observer // nil when not observed
	entity   uint64           // the number the observer's events carry
	chartRun                  // zero for a flat agent
}

// chartRun is what an agent of a statechart table holds besides its Agent
// fields: its configuration, history, queues and timers, and the scratch
// sets a microstep uses. It is made once, by NewAgent, in one size fixed
// by the table and its options; updates allocate nothing.
type chartRun struct {
	conf     []uint64 // the active states
	hist     []uint64 // per history state, words words: what it recorded
	recorded []uint64 // the history states that recorded something
	// Scratch sets of one microstep (SCXML's statesToEnter,
	// statesForDefaultEntry, defaultHistoryContent, the exit set).
	enter, dflt, hdflt, exit []uint64
	// The stack: for each state pushed (Agent.stack), the atomic states
	// that were active in it, words words each; popped holds the entry a
	// microstep's return took off.
	saved, popped      []uint64
	enabled            []int32   // the transitions selected
	domains            []StateID // their domains
	tgt                []StateID // effective targets of a transition to history or of a return
	internal, external queue
	timers             []timer
	seq                uint64 // of the next timer, to keep sends in order
	now                float64
	err                error // the first error of an action in this update
	final              StateID
}

// queue is a ring of events.
type queue struct {
	buf        []TestID
	head, size int
}

func (q *queue) push(e TestID) bool {
	if q.size == len(q.buf) {
		return false
	}
	q.buf[(q.head+q.size)%len(q.buf)] = e
	q.size++
	return true
}

func (q *queue) pop() (TestID, bool) {
	if q.size == 0 {
		return NoTest, false
	}
	e := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return e, true
}

// timer is a pending send.
type timer struct {
	due   float64
	seq   uint64
	event TestID
	id    TimerID
}

// newRun makes the run of an agent of statechart c.
func newRun(c *statechart, stack int) *run {
	w := c.words
	if !c.stack {
		stack = 0
	}
	mem := make([]uint64, w*(6+c.nhist+stack)+(c.nhist+63)/64)
	take := func(n int) []uint64 {
		s := mem[:n:n]
		mem = mem[n:]
		return s
	}
	r := &run{}
	r.chartRun = chartRun{conf: take(w), enter: take(w), dflt: take(w), hdflt: take(w), exit: take(w), popped: take(w), saved: take(w * stack),
		hist: take(w * c.nhist), recorded: take((c.nhist + 63) / 64), final: NoState}
	n := len(c.nodes)
	r.enabled = make([]int32, 0, n)
	r.domains = make([]StateID, 0, n)
	r.tgt = make([]StateID, 0, n)
	r.internal.buf = make([]TestID, c.queue)
	r.external.buf = make([]TestID, c.queue)
	r.timers = make([]timer, 0, c.ntimers)
	return r
}

// chart returns the run of a statechart agent, or nil for a flat or zero
// agent (whose sc, when set, only holds an observer).
func (a *Agent[E]) chart() *run {
	if a.status&statusChart != 0 {
		return a.sc
	}
	return nil
}

// startChart enters the initial configuration of a statechart agent.
func (a *Agent[E]) startChart(h Host[E]) {
	c := a.table.sc
	a.sc = newRun(c, a.table.stackLimit())
	a.status |= statusChart
	d := c.nodes[c.root()].dflt
	r := &a.sc.chartRun
	r.enabled = append(r.enabled[:0], d)
	r.domains = append(r.domains[:0], c.root())
	a.act(h, c.acts[c.trans[d].alo:c.trans[d].ahi])
	a.enterStates(h)
	a.represent()
}

// represent sets a.state to the state the agent shows: the first active
// atomic state, or the final state it ended in.
func (a *Agent[E]) represent() {
	r := &a.sc.chartRun
	if r.final != NoState {
		a.state = r.final
		return
	}
	c := a.table.sc
	for i := range r.conf {
		if w := r.conf[i] & c.atomic[i]; w != 0 {
			a.state = StateID(i*64 + bits.TrailingZeros64(w))
			return
		}
	}
}

// updateChart is Update for a statechart agent: due timers join the
// external queue, then one microstep, or with Options.Chain microsteps
// until no transition is enabled and both queues are empty.
func (a *Agent[E]) updateChart(h Host[E]) (Result, error) {
	if a.status&(statusBusy|statusDone) != 0 {
		return a.refuse()
	}
	a.status |= statusBusy
	defer a.idle()
	r := &a.sc.chartRun
	r.err = nil
	// The external queue's events from pop timedLo to timedHi of this
	// update are the sends that came due: for the observer.
	timedLo := r.external.size
	a.fireTimers()
	timedHi, xpops := r.external.size, 0
	res := Result{From: a.state, To: a.state, Test: NoTest}
	limit := a.table.chainLimit()
	var path [chainPathMax]StateID
	path[0] = a.state
	for {
		from := a.state
		test, ev, pops, ok := a.microstep(h)
		if !ok {
			break
		}
		xpops += pops // the event handled, if external, is pop xpops-1
		if a.sc.obs != nil {
			a.observeMicrostep(from, ev, pops > 0 && xpops > timedLo && xpops <= timedHi)
		}
		res.Steps++
		res.Test = test
		res.To = a.at()
		if int(res.Steps) < chainPathMax {
			path[res.Steps] = a.state
		}
		if a.status&statusDone != 0 || !a.table.opts.Chain {
			break
		}
		if int(res.Steps) >= limit && a.pending(h) {
			return res, a.table.chainError(limit, path[:min(int(res.Steps)+1, chainPathMax)], int(res.Steps)+1, a.state, NoTest)
		}
	}
	return res, r.err
}

// pending reports whether another microstep would take a transition or
// handle an event.
func (a *Agent[E]) pending(h Host[E]) bool {
	r := &a.sc.chartRun
	return r.internal.size > 0 || r.external.size > 0 || a.selectTransitions(h, NoTest)
}

// fireTimers moves the sends that are due to the external queue, in the
// order of their due times, then of their sending.
func (a *Agent[E]) fireTimers() {
	r := &a.sc.chartRun
	for len(r.timers) > 0 {
		best := -1
		for i := range r.timers {
			if t := &r.timers[i]; t.due <= r.now && (best < 0 || t.due < r.timers[best].due || t.due == r.timers[best].due && t.seq < r.timers[best].seq) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		a.queueEvent(&r.external, r.timers[best].event)
		r.timers = slices.Delete(r.timers, best, best+1)
	}
}

// microstep takes one set of transitions: the eventless ones enabled, or
// else those of the next internal event, or else of the next external
// event; events that enable nothing are dropped. It reports false when
// nothing was taken, and the event handled, or else the test of the
// first transition (NoTest for one without); and, for the observer, the
// event handled (NoTest for none) and how many events it took from the
// external queue: when not 0, the last is the event handled.
func (a *Agent[E]) microstep(h Host[E]) (test, event TestID, pops int, ok bool) {
	r := &a.sc.chartRun
	test, event = NoTest, NoTest
	if !a.selectTransitions(h, NoTest) {
		found := false
		for !found {
			ev, ok := r.internal.pop() // never after an external one: nothing raises here
			if !ok {
				if ev, ok = r.external.pop(); !ok {
					return NoTest, NoTest, 0, false
				}
				pops++
			}
			found, test = a.selectTransitions(h, ev), ev
		}
		event = test
	}
	if test == NoTest {
		test = a.table.sc.trans[r.enabled[0]].test
	}
	a.takeTransitions(h)
	a.represent()
	return test, event, pops, true
}

// selectTransitions selects the transitions that event ev (or, for
// NoTest, no event) enables, into r.enabled, conflicts removed (SCXML's
// selectTransitions and selectEventlessTransitions). It reports whether
// there is one.
func (a *Agent[E]) selectTransitions(h Host[E], ev TestID) bool {
	r, c := &a.sc.chartRun, a.table.sc
	r.enabled = r.enabled[:0]
	r.domains = r.domains[:0]
	for w, word := range r.conf {
		for active := word & c.atomic[w]; active != 0; active &= active - 1 {
			s := StateID(w*64 + bits.TrailingZeros64(active))
		ancestors: // the state, its ancestors, then the root, whose parent is NoState
			for q := s; q != NoState; q = c.nodes[q].parent {
				nd := &c.nodes[q]
				if ev == NoTest && !nd.eventless {
					continue
				}
				for i := nd.tlo; i < nd.thi; i++ {
					if a.enabledBy(h, int32(i), ev) {
						if !slices.Contains(r.enabled, int32(i)) {
							r.enabled = append(r.enabled, int32(i))
						}
						break ancestors
					}
				}
			}
		}
	}
	if len(r.enabled) == 0 {
		return false
	}
	a.removeConflicts()
	return true
}

// enabledBy reports whether transition i is enabled by event ev (NoTest:
// an eventless transition) and its condition holds.
func (a *Agent[E]) enabledBy(h Host[E], i int32, ev TestID) bool {
	c := a.table.sc
	t := &c.trans[i]
	if ev == NoTest {
		if t.eventful {
			return false
		}
	} else if !t.eventful || !hasEvent(c.events[t.elo:t.ehi], ev) {
		return false
	}
	if t.clo != t.chi && !a.cond(h, c.conds[t.clo:t.chi]) {
		return false
	}
	switch {
	case t.ret && a.depth == 0:
		a.stackError(t, false)
		return false
	case t.push && int(a.depth) >= a.table.stackLimit():
		a.stackError(t, true)
		return false
	}
	return true
}

// stackError records that transition t cannot be taken: it returns with
// nothing pushed, or pushes onto a full stack.
func (a *Agent[E]) stackError(t *ctrans, overflow bool) {
	if a.sc.err == nil {
		a.sc.err = &StackError{Overflow: overflow, State: a.state, Test: t.test, Limit: a.table.stackLimit(), Table: a.table}
	}
}

// top returns the atomic states saved with the state on top of the stack.
func (a *Agent[E]) top() []uint64 {
	w := a.table.sc.words
	return a.sc.saved[(int(a.depth)-1)*w : int(a.depth)*w]
}

// hasEvent reports whether the sorted list evs holds ev.
func hasEvent(evs []TestID, ev TestID) bool {
	if len(evs) <= 8 {
		for _, e := range evs {
			if e == ev {
				return true
			}
		}
		return false
	}
	_, ok := slices.BinarySearch(evs, ev)
	return ok
}

// cond evaluates a condition.
func (a *Agent[E]) cond(h Host[E], terms []CondTerm) bool {
	var stack uint64
	n := 0
	for _, t := range terms {
		var v bool
		switch t.Op {
		case CondTest:
			v = h.Test(a.entity, t.Test)
		case CondIn:
			v = setHas(a.sc.conf, t.State)
		case CondTrue:
			v = true
		case CondFalse:
		case CondNot:
			stack ^= 1 << (n - 1)
			continue
		case CondAnd, CondOr:
			n--
			x, y := stack>>(n-1)&1, stack>>n&1
			r := x & y
			if t.Op == CondOr {
				r = x | y
			}
			stack = stack&^(3<<(n-1)) | r<<(n-1)
			continue
		}
		if v {
			stack |= 1 << n
		} else {
			stack &^= 1 << n
		}
		n++
	}
	return stack&1 != 0
}

// domain returns the domain of transition i, working it out for one whose
// targets are history states or the top of the stack.
func (a *Agent[E]) domain(i int32) StateID {
	c := a.table.sc
	t := &c.trans[i]
	if !t.dynamic {
		return t.domain
	}
	if t.thi == t.tlo && !t.ret {
		return NoState
	}
	// The effective targets are below the history states' parents, or
	// the recorded states: their common ancestor with the source.
	r := &a.sc.chartRun
	clear(r.exit) // scratch until the microstep's exit set
	if t.ret {
		copy(r.exit, a.top())
	} else {
		a.effectiveTargets(c.targets[t.tlo:t.thi], r.exit)
	}
	r.tgt = r.tgt[:0]
	for s := setNext(r.exit, 0); s >= 0; s = setNext(r.exit, s+1) {
		r.tgt = append(r.tgt, StateID(s))
	}
	return c.domainOf(t, r.tgt)
}

// effectiveTargets adds to set the effective targets of targets: a
// history state's recorded states, or its default's targets.
func (a *Agent[E]) effectiveTargets(targets []StateID, set []uint64) {
	c, r := a.table.sc, &a.sc.chartRun
	for _, s := range targets {
		nd := &c.nodes[s]
		if nd.hist < 0 {
			setAdd(set, s)
			continue
		}
		if setHas(r.recorded, StateID(nd.hist)) {
			rec := r.hist[int(nd.hist)*c.words : int(nd.hist+1)*c.words]
			for i := range set {
				set[i] |= rec[i]
			}
			continue
		}
		d := &c.trans[nd.dflt]
		a.effectiveTargets(c.targets[d.tlo:d.thi], set)
	}
}

// removeConflicts keeps, of two enabled transitions whose exit sets
// intersect, the one whose source is deeper, or else the first
// (SCXML's removeConflictingTransitions). It fills r.domains.
func (a *Agent[E]) removeConflicts() {
	r, c := &a.sc.chartRun, a.table.sc
	kept := r.enabled[:0]
	doms := r.domains[:0]
	for _, t1 := range r.enabled {
		d1 := a.domain(t1)
		preempted := false
		for j := 0; j < len(kept); j++ {
			if !a.exitsIntersect(d1, doms[j]) {
				continue
			}
			if c.isBelow(c.trans[t1].source, c.trans[kept[j]].source) {
				kept = slices.Delete(kept, j, j+1)
				doms = slices.Delete(doms, j, j+1)
				j--
				continue
			}
			preempted = true
			break
		}
		if !preempted {
			kept = append(kept, t1)
			doms = append(doms, d1)
		}
	}
	r.enabled, r.domains = kept, doms
}

// exitsIntersect reports whether the exit sets of transitions of domains
// d1 and d2 share a state: the active states below both.
func (a *Agent[E]) exitsIntersect(d1, d2 StateID) bool {
	if d1 == NoState || d2 == NoState {
		return false
	}
	c := a.table.sc
	lo1, hi1 := c.below(d1)
	lo2, hi2 := c.below(d2)
	lo, hi := max(lo1, lo2), min(hi1, hi2)
	return lo < hi && setAny(a.sc.conf, lo, hi)
}

// takeTransitions is SCXML's microstep: exit the states the enabled
// transitions leave, perform their actions, enter their targets.
func (a *Agent[E]) takeTransitions(h Host[E]) {
	r, c := &a.sc.chartRun, a.table.sc
	// Pushes save their source and what is active in it, before it is left.
	for _, i := range r.enabled {
		if t := &c.trans[i]; t.push {
			a.push(t.source)
		}
	}
	// The exit set.
	clear(r.exit)
	for _, d := range r.domains {
		if d == NoState {
			continue
		}
		lo, hi := c.below(d)
		for s := setNext(r.conf, lo); s >= 0 && s < hi; s = setNext(r.conf, s+1) {
			setAdd(r.exit, StateID(s))
		}
	}
	// Record history, then exit in reverse document order.
	for s := setNext(r.exit, 0); s >= 0; s = setNext(r.exit, s+1) {
		nd := &c.nodes[s]
		for _, hs := range c.kids[nd.hlo:nd.hhi] {
			a.record(StateID(s), hs)
		}
	}
	for s := setPrev(r.exit, len(c.nodes)-2); s >= 0; s = setPrev(r.exit, s-1) {
		nd := &c.nodes[s]
		a.act(h, c.acts[nd.xlo:nd.xhi])
		setDel(r.conf, StateID(s))
	}
	for _, i := range r.enabled {
		t := &c.trans[i]
		a.act(h, c.acts[t.alo:t.ahi])
	}
	a.enterStates(h)
}

// push pushes state s on the stack with the atomic states active in it
// (s itself when it is atomic).
func (a *Agent[E]) push(s StateID) {
	r, c := &a.sc.chartRun, a.table.sc
	if int(a.depth) >= a.table.stackLimit() {
		return // enabledBy refused it; a second push in one microstep is dropped
	}
	a.stack[a.depth] = s
	a.depth++
	saved := a.top()
	clear(saved)
	if s != c.root() && setHas(c.atomic, s) {
		setAdd(saved, s)
		return
	}
	lo, hi := c.below(s)
	for q := setNext(r.conf, lo); q >= 0 && q < hi; q = setNext(r.conf, q+1) {
		if setHas(c.atomic, StateID(q)) {
			setAdd(saved, StateID(q))
		}
	}
}

// record records in history state hs what is active below its parent s.
func (a *Agent[E]) record(s, hs StateID) {
	r, c := &a.sc.chartRun, a.table.sc
	slot := int(c.nodes[hs].hist)
	rec := r.hist[slot*c.words : (slot+1)*c.words]
	clear(rec)
	nd := &c.nodes[s]
	if c.nodes[hs].kind == KindDeepHistory {
		lo, hi := c.below(s)
		for q := setNext(r.conf, lo); q >= 0 && q < hi; q = setNext(r.conf, q+1) {
			if setHas(c.atomic, StateID(q)) {
				setAdd(rec, StateID(q))
			}
		}
	} else {
		for _, k := range c.kids[nd.klo:nd.khi] {
			if setHas(r.conf, k) {
				setAdd(rec, k)
			}
		}
	}
	setAdd(r.recorded, StateID(slot))
}

// enterStates enters the targets of r.enabled (SCXML's enterStates).
func (a *Agent[E]) enterStates(h Host[E]) {
	r, c := &a.sc.chartRun, a.table.sc
	clear(r.enter)
	clear(r.dflt)
	clear(r.hdflt)
	for k, i := range r.enabled {
		t := &c.trans[i]
		if t.ret {
			a.enterPopped(r.domains[k])
			continue
		}
		if t.thi == t.tlo {
			continue
		}
		for _, s := range c.targets[t.tlo:t.thi] {
			a.addDescendants(s)
		}
		d := r.domains[k]
		for _, s := range c.targets[t.tlo:t.thi] {
			a.addEffectiveAncestors(s, d)
		}
	}
	root := c.root()
	for s := setNext(r.enter, 0); s >= 0; s = setNext(r.enter, s+1) {
		q := StateID(s)
		setAdd(r.conf, q)
		nd := &c.nodes[q]
		a.act(h, c.acts[nd.elo:nd.ehi])
		if setHas(r.dflt, q) {
			d := &c.trans[nd.dflt]
			a.act(h, c.acts[d.alo:d.ahi])
		}
		for _, hs := range c.kids[nd.hlo:nd.hhi] {
			if setHas(r.hdflt, hs) {
				d := &c.trans[c.nodes[hs].dflt]
				a.act(h, c.acts[d.alo:d.ahi])
			}
		}
		if nd.kind != KindFinal {
			continue
		}
		p := nd.parent
		if p == root {
			a.finish(h, q)
			return
		}
		a.raise(c.done[p])
		if g := c.nodes[p].parent; g != root && c.nodes[g].kind == KindParallel && a.inFinal(g) {
			a.raise(c.done[g])
		}
	}
}

// enterPopped pops the stack and adds its saved states, with their
// ancestors up to domain d, to the states to enter.
func (a *Agent[E]) enterPopped(d StateID) {
	r := &a.sc.chartRun
	if a.depth == 0 {
		return
	}
	copy(r.popped, a.top())
	a.depth--
	for q := setNext(r.popped, 0); q >= 0; q = setNext(r.popped, q+1) {
		a.addDescendants(StateID(q))
	}
	for q := setNext(r.popped, 0); q >= 0; q = setNext(r.popped, q+1) {
		a.addAncestors(StateID(q), d)
	}
}

// addEffectiveAncestors adds the ancestors of target s (or of the states
// a history target s stands for) up to domain d.
func (a *Agent[E]) addEffectiveAncestors(s, d StateID) {
	c, r := a.table.sc, &a.sc.chartRun
	nd := &c.nodes[s]
	if nd.hist < 0 {
		a.addAncestors(s, d)
		return
	}
	if setHas(r.recorded, StateID(nd.hist)) {
		rec := r.hist[int(nd.hist)*c.words : int(nd.hist+1)*c.words]
		for q := setNext(rec, 0); q >= 0; q = setNext(rec, q+1) {
			a.addAncestors(StateID(q), d)
		}
		return
	}
	t := &c.trans[nd.dflt]
	for _, q := range c.targets[t.tlo:t.thi] {
		a.addEffectiveAncestors(q, d)
	}
}

// addDescendants adds state s to the states to enter, with what entering
// it enters by default (SCXML's addDescendantStatesToEnter).
func (a *Agent[E]) addDescendants(s StateID) {
	c, r := a.table.sc, &a.sc.chartRun
	nd := &c.nodes[s]
	if nd.hist >= 0 {
		if setHas(r.recorded, StateID(nd.hist)) {
			rec := r.hist[int(nd.hist)*c.words : int(nd.hist+1)*c.words]
			for q := setNext(rec, 0); q >= 0; q = setNext(rec, q+1) {
				a.addDescendants(StateID(q))
			}
			for q := setNext(rec, 0); q >= 0; q = setNext(rec, q+1) {
				a.addAncestors(StateID(q), nd.parent)
			}
			return
		}
		setAdd(r.hdflt, s)
		a.enterDefault(nd.dflt, nd.parent)
		return
	}
	setAdd(r.enter, s)
	switch {
	case nd.compound:
		setAdd(r.dflt, s)
		a.enterDefault(nd.dflt, s)
	case nd.kind == KindParallel:
		for _, k := range c.kids[nd.klo:nd.khi] {
			if lo, hi := c.below(k); !setAny(r.enter, lo, hi) {
				a.addDescendants(k)
			}
		}
	}
}

// enterDefault adds the targets of default transition d, and their
// ancestors up to anc.
func (a *Agent[E]) enterDefault(d int32, anc StateID) {
	c := a.table.sc
	t := &c.trans[d]
	for _, q := range c.targets[t.tlo:t.thi] {
		a.addDescendants(q)
	}
	for _, q := range c.targets[t.tlo:t.thi] {
		a.addAncestors(q, anc)
	}
}

// addAncestors adds the proper ancestors of s below anc, and the regions
// of the parallel states among them (SCXML's addAncestorStatesToEnter).
func (a *Agent[E]) addAncestors(s, anc StateID) {
	c, r := a.table.sc, &a.sc.chartRun
	for q := c.nodes[s].parent; q != anc && q != c.root() && q != NoState; q = c.nodes[q].parent {
		setAdd(r.enter, q)
		nd := &c.nodes[q]
		if nd.kind != KindParallel {
			continue
		}
		for _, k := range c.kids[nd.klo:nd.khi] {
			if lo, hi := c.below(k); !setAny(r.enter, lo, hi) {
				a.addDescendants(k)
			}
		}
	}
}

// inFinal reports whether s is in a final configuration: a compound whose
// active child is final, a parallel whose regions all are.
func (a *Agent[E]) inFinal(s StateID) bool {
	c, r := a.table.sc, &a.sc.chartRun
	nd := &c.nodes[s]
	switch {
	case nd.compound:
		for _, k := range c.kids[nd.klo:nd.khi] {
			if c.nodes[k].kind == KindFinal && setHas(r.conf, k) {
				return true
			}
		}
	case nd.kind == KindParallel:
		for _, k := range c.kids[nd.klo:nd.khi] {
			if !a.inFinal(k) {
				return false
			}
		}
		return true
	}
	return false
}

// finish ends the agent in top-level final state q: every active state is
// left, in reverse document order, running its exit actions.
func (a *Agent[E]) finish(h Host[E], q StateID) {
	r, c := &a.sc.chartRun, a.table.sc
	for s := setPrev(r.conf, len(c.nodes)-2); s >= 0; s = setPrev(r.conf, s-1) {
		nd := &c.nodes[s]
		a.act(h, c.acts[nd.xlo:nd.xhi])
		setDel(r.conf, StateID(s))
	}
	r.final = q
	a.status |= statusDone
}

// act performs actions.
func (a *Agent[E]) act(h Host[E], acts []Action) {
	for i := range acts {
		ac := &acts[i]
		if ac.Cond != nil && !a.cond(h, ac.Cond) {
			continue
		}
		switch ac.Kind {
		case GameAction:
			h.Do(a.entity, ac.Property, ac.Value)
		case RaiseAction:
			a.raise(ac.Event)
		case SendAction:
			a.send(ac)
		case CancelAction:
			a.cancel(ac.Timer)
		}
	}
}

// raise puts ev on the internal queue.
func (a *Agent[E]) raise(ev TestID) {
	if ev != NoTest {
		a.queueEvent(&a.sc.internal, ev)
	}
}

// queueEvent puts ev on queue q, recording an error when q is full.
func (a *Agent[E]) queueEvent(q *queue, ev TestID) {
	if !q.push(ev) && a.sc.err == nil {
		a.sc.err = &wrapped{fmt.Sprintf("table %q: event %q dropped: %d events are waiting (Options.QueueLimit)", a.table.name, a.table.testName(ev), len(q.buf)), ErrQueueFull}
	}
}

// send performs a SendAction.
func (a *Agent[E]) send(ac *Action) {
	r := &a.sc.chartRun
	if ac.Delay <= 0 {
		a.queueEvent(&r.external, ac.Event)
		return
	}
	if len(r.timers) == cap(r.timers) {
		if r.err == nil {
			r.err = &wrapped{fmt.Sprintf("table %q: send of %q dropped: %d sends are pending (Options.TimerLimit)", a.table.name, a.table.testName(ac.Event), len(r.timers)), ErrQueueFull}
		}
		return
	}
	r.timers = append(r.timers, timer{due: r.now + ac.Delay, seq: r.seq, event: ac.Event, id: ac.Timer})
	r.seq++
}

// cancel takes back the pending sends of timer id.
func (a *Agent[E]) cancel(id TimerID) {
	r := &a.sc.chartRun
	r.timers = slices.DeleteFunc(r.timers, func(t timer) bool { return t.id == id })
}

// SetTime tells a statechart agent the game's time, in seconds: sends
// whose delay has passed are handled by the next update. Time is the
// game's, passed in (never the wall clock), and should not go back. It
// does nothing for an agent of a flat table.
func (a *Agent[E]) SetTime(now float64) {
	if r := a.chart(); r != nil {
		r.now = now
	}
}

// Time returns the game time last given to [Agent.SetTime].
func (a *Agent[E]) Time() float64 {
	if r := a.chart(); r != nil {
		return r.now
	}
	return 0
}

// NextTimer returns the game time at which the earliest pending send is
// due, and false if none is pending.
func (a *Agent[E]) NextTimer() (float64, bool) {
	if a.chart() == nil || len(a.sc.timers) == 0 {
		return 0, false
	}
	due := a.sc.timers[0].due
	for _, t := range a.sc.timers[1:] {
		due = min(due, t.due)
	}
	return due, true
}

// In reports whether state s is active: the current state of a flat
// agent, or one of the states of a statechart agent's configuration.
func (a *Agent[E]) In(s StateID) bool {
	switch {
	case a.table == nil:
		return false
	case a.chart() == nil:
		return a.state == s
	}
	return a.table.HasState(s) && (setHas(a.sc.conf, s) || a.sc.final == s)
}

// AppendActive appends the active states to dst, in document order, and
// returns it: the current state of a flat agent, the configuration of a
// statechart agent (compound and parallel states with their active
// descendants; the final state it ended in, when done).
func (a *Agent[E]) AppendActive(dst []StateID) []StateID {
	switch {
	case a.table == nil:
		return dst
	case a.chart() == nil:
		return append(dst, a.state)
	case a.sc.final != NoState:
		return append(dst, a.sc.final)
	}
	for s := setNext(a.sc.conf, 0); s >= 0; s = setNext(a.sc.conf, s+1) {
		dst = append(dst, StateID(s))
	}
	return dst
}

// Timer is a pending send of a statechart agent: its event is due at
// game time Due. Timers are plain data: a viewer lists them, a save keeps
// them.
type Timer struct {
	Due   float64 // game time, in seconds
	Event TestID  // the event sent
	Timer TimerID // the timer a cancel names, or NoTimer
}

// AppendTimers appends a statechart agent's pending sends to dst, in the
// order they will fire (by due time, then by sending), and returns it.
// A flat agent has none.
func (a *Agent[E]) AppendTimers(dst []Timer) []Timer {
	if a.chart() == nil {
		return dst
	}
	start := len(dst)
	for _, t := range a.sc.timers {
		dst = append(dst, Timer{Due: t.due, Event: t.event, Timer: t.id})
	}
	// a.sc.timers are in sending order (cancel and firing delete, keeping
	// the order): a stable sort by due time gives the firing order.
	slices.SortStableFunc(dst[start:], func(x, y Timer) int { return cmp.Compare(x.Due, y.Due) })
	return dst
}
