package gogen

// chartRuntime is the runtime of a generated statechart: package table's
// run.go (SCXML's Appendix D over states in document order) over the
// static arrays of the file and fixed-size arrays in the Machine. The
// names between « and » are replaced by the file's (see chartNames); the
// lines between «if stack», «else» and «end» are the runtime with and
// without the pushdown stack (see chartSections): a statechart that
// neither pushes nor returns gets no stack, as table's newRun gives its
// agents none. Those between «if observe», «else» and «end» are the
// runtime with and without Options.Observe.
const chartRuntime = `
// «Machine» runs «tname» for one entity, as table.Agent runs a statechart
// table: a configuration of active states, history, an internal and an
«if stack»
// external event queue, pending timers and the stack («StackLimit» states
// pushed at most, each with the atomic states active in it), all in
// fixed-size arrays sized for the table, so that the machine is a value of
// fixed size that the game keeps in the entity or in a slice. Make one
// with «NewMachine», or with «RestoreMachine» from «aSnapshot»; the zero
// «Machine» is not started and its updates return «ErrNotStarted».
«else»
// external event queue and pending timers, all in fixed-size arrays sized
// for the table, so that the machine is a value of fixed size that
// the game keeps in the entity or in a slice. Make one with
// «NewMachine», or with «RestoreMachine» from «aSnapshot»; the zero
// «Machine» is not started and its updates return «ErrNotStarted».
«end»
//
// «Machine» is not safe for concurrent use; different machines are
// independent.
type «Machine» struct {
	conf     [«p»Words]uint64
	hist     [«p»NumHist * «p»Words]uint64 // per history state: what it recorded
	recorded [(«p»NumHist + 63) / 64]uint64
	// Scratch sets of one microstep.
	enter, dflt, hdflt, exit [«p»Words]uint64
	enabled                  [«p»NumNodes]int32
	domains                  [«p»NumNodes]int32
	nenabled                 int
	internal, external       «p»Queue
	timers                   [«p»TimerLimit]«p»Timer
	ntimers                  int
	seq                      uint64
	now                      float64
	err                      error
	final                    «State»
	state                    «State»
	status                   uint8
«if stack»
	// The stack: the states pushed, stack[:depth] («AnyState» for an
	// any-state transition's, which pushes the root), and for each the atomic states
	// that were active in it («p»Words words each), saved[:depth*«p»Words];
	// popped holds the entry a microstep's return took off.
	depth  uint8
	stack  [«StackLimit»]«State»
	saved  [«StackLimit» * «p»Words]uint64
	popped [«p»Words]uint64
«end»
«if observe»
	obs *«observer» // nil: not observed (see Observe)
«end»
}

// «p»Queue is a ring of events.
type «p»Queue struct {
	buf        [«p»QueueLimit]«Test»
	head, size int
}

func (q *«p»Queue) push(e «Test») bool {
	if q.size == len(q.buf) {
		return false
	}
	q.buf[(q.head+q.size)%len(q.buf)] = e
	q.size++
	return true
}

func (q *«p»Queue) pop() («Test», bool) {
	if q.size == 0 {
		return «NoTest», false
	}
	e := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return e, true
}

// «p»Timer is a pending send.
type «p»Timer struct {
	due   float64
	seq   uint64
	event «Test»
	id    uint16
}

// «Machine»'s status bits.
const (
	«ready» uint8 = 1 << iota // made by «NewMachine» or «RestoreMachine»
	«busy»                    // in an update
	«done»                    // ended in a top-level final state
)

// «NewMachine» returns «aMachine» in the initial configuration of «tname»,
// having performed the actions of entering it through h. It allocates
// nothing: the machine is a value (of fixed size; see «Machine»).
func «NewMachine»(h «Host») «Machine» {
	m := «Machine»{status: «ready» | «busy», final: «NoState»}
	d := «p»Nodes[«p»Root].dflt
	m.enabled[0], m.domains[0], m.nenabled = d, «p»Root, 1
	t := &«p»Trans[d]
	m.act(h, t.alo, t.ahi)
	m.enterStates(h)
	m.represent()
	m.status &^= «busy»
	return m
}

// Update handles due timers (they join the external queue), then takes one
// microstep: the eventless transitions enabled, or else those of the next
// internal event, or else of the next external event; events that enable
// nothing are dropped.«chainDoc» It returns what it did, and the first
// error of the update: a *«QueueError» for an event or a send dropped«chainErr».
// A machine already done returns a Result with To «Final» and does nothing.
// Update allocates nothing unless it returns an error.
func (m *«Machine») Update(h «Host») («Result», error) {
	switch {
	case m.status == 0:
		return «Result»{From: «NoState», To: «NoState», Test: «NoTest»}, «ErrNotStarted»
	case m.status&«busy» != 0:
		return «Result»{From: m.state, To: m.state, Test: «NoTest»}, «ErrReentrant»
	case m.status&«done» != 0:
		return «Result»{From: m.state, To: «Final», Test: «NoTest»}, nil
	}
	m.status |= «busy»
	defer m.idle()
	m.err = nil
«if observe»
	// The external queue's events from pop timedLo+1 to timedHi of this
	// update are the sends that came due: for the observer.
	timedLo := m.external.size
	m.fireTimers()
	timedHi, xpops := m.external.size, 0
«else»
	m.fireTimers()
«end»
	res := «Result»{From: m.state, To: m.state, Test: «NoTest»}
	var path [16]«State»
	path[0] = m.state
	for {
«if observe»
		from := m.state
		test, ev, pops, ok := m.microstep(h)
		if !ok {
			break
		}
		xpops += pops // the event handled, if external, is pop xpops
		if m.obs != nil {
			m.observe(from, ev, pops > 0 && xpops > timedLo && xpops <= timedHi)
		}
«else»
		test, ok := m.microstep(h)
		if !ok {
			break
		}
«end»
		res.Steps++
		res.Test = test
		res.To = m.at()
		if int(res.Steps) < len(path) {
			path[res.Steps] = m.state
		}
		if m.status&«done» != 0 || !«p»Chain {
			break
		}
		if int(res.Steps) >= «p»ChainLimit && m.pending(h) {
			n := min(int(res.Steps)+1, len(path))
			return res, &«ChainError»{Limit: «p»ChainLimit, Path: append([]«State»(nil), path[:n]...), Visited: int(res.Steps) + 1, At: m.state}
		}
	}
	return res, m.err
}

func (m *«Machine») idle() { m.status &^= «busy» }

// at returns the state Result.To shows.
func (m *«Machine») at() «State» {
	if m.status&«done» != 0 {
		return «Final»
	}
	return m.state
}

// represent sets m.state to the first active atomic state, or the final
// state the machine ended in.
func (m *«Machine») represent() {
	if m.final != «NoState» {
		m.state = m.final
		return
	}
	for i := range m.conf {
		if w := m.conf[i] & «p»Atomic[i]; w != 0 {
			m.state = «State»(i*64 + bits.TrailingZeros64(w))
			return
		}
	}
}

// pending reports whether another microstep would take a transition or
// handle an event.
func (m *«Machine») pending(h «Host») bool {
	return m.internal.size > 0 || m.external.size > 0 || m.selectTransitions(h, «NoTest»)
}

// fireTimers moves the sends that are due to the external queue, in the
// order of their due times, then of their sending.
func (m *«Machine») fireTimers() {
	for m.ntimers > 0 {
		best := -1
		for i := range m.ntimers {
			if t := &m.timers[i]; t.due <= m.now && (best < 0 || t.due < m.timers[best].due || t.due == m.timers[best].due && t.seq < m.timers[best].seq) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		m.queueEvent(&m.external, m.timers[best].event)
		copy(m.timers[best:m.ntimers], m.timers[best+1:m.ntimers])
		m.ntimers--
	}
}

«if observe»
// microstep takes one set of transitions; it reports false when nothing
// was taken, and the event handled or else the first transition's test;
// and, for the observer, the event handled («NoTest» for none) and how
// many events it took from the external queue: when not 0, the last is
// the event handled.
func (m *«Machine») microstep(h «Host») (test, event «Test», pops int, ok bool) {
	test, event = «NoTest», «NoTest»
	if !m.selectTransitions(h, «NoTest») {
		found := false
		for !found {
			ev, ok := m.internal.pop()
			if !ok {
				if ev, ok = m.external.pop(); !ok {
					return «NoTest», «NoTest», 0, false
				}
				pops++
			}
			found, test = m.selectTransitions(h, ev), ev
		}
		event = test
	}
	if test == «NoTest» {
		test = «p»Trans[m.enabled[0]].test
	}
	m.takeTransitions(h)
	m.represent()
	return test, event, pops, true
}
«else»
// microstep takes one set of transitions; it reports false when nothing
// was taken, and the event handled or else the first transition's test.
func (m *«Machine») microstep(h «Host») («Test», bool) {
	test := «NoTest»
	if !m.selectTransitions(h, «NoTest») {
		found := false
		for !found {
			ev, ok := m.internal.pop()
			if !ok {
				if ev, ok = m.external.pop(); !ok {
					return «NoTest», false
				}
			}
			found, test = m.selectTransitions(h, ev), ev
		}
	}
	if test == «NoTest» {
		test = «p»Trans[m.enabled[0]].test
	}
	m.takeTransitions(h)
	m.represent()
	return test, true
}
«end»

// selectTransitions selects the transitions that event ev (or, for
// «NoTest», no event) enables, conflicts removed.
func (m *«Machine») selectTransitions(h «Host», ev «Test») bool {
	m.nenabled = 0
	for w, word := range m.conf {
		for active := word & «p»Atomic[w]; active != 0; active &= active - 1 {
			s := int32(w*64 + bits.TrailingZeros64(active))
		ancestors:
			for q := s; q >= 0; q = «p»Nodes[q].parent {
				nd := &«p»Nodes[q]
				if ev == «NoTest» && !nd.eventless {
					continue
				}
				for i := nd.tlo; i < nd.thi; i++ {
					if m.enabledBy(h, i, ev) {
						if !m.isEnabled(i) {
							m.enabled[m.nenabled] = i
							m.nenabled++
						}
						break ancestors
					}
				}
			}
		}
	}
	if m.nenabled == 0 {
		return false
	}
	m.removeConflicts()
	return true
}

func (m *«Machine») isEnabled(i int32) bool {
	for _, e := range m.enabled[:m.nenabled] {
		if e == i {
			return true
		}
	}
	return false
}

// enabledBy reports whether transition i is enabled by event ev («NoTest»:
// an eventless transition) and its condition holds.
func (m *«Machine») enabledBy(h «Host», i int32, ev «Test») bool {
	t := &«p»Trans[i]
	if ev == «NoTest» {
		if t.eventful {
			return false
		}
	} else if !t.eventful || !«p»HasEvent(«p»Events[t.elo:t.ehi], ev) {
		return false
	}
«if stack»
	if t.clo != t.chi && !m.cond(h, t.clo, t.chi) {
		return false
	}
	switch {
	case t.ret && m.depth == 0:
		m.stackError(t, false)
		return false
	case t.push && int(m.depth) >= «StackLimit»:
		m.stackError(t, true)
		return false
	}
	return true
}

// stackError records that transition t cannot be taken: it returns with
// nothing pushed, or pushes onto a full stack. The first error of an
// update is the one Update returns.
func (m *«Machine») stackError(t *«p»Transition, overflow bool) {
	if m.err == nil {
		m.err = &«StackError»{Overflow: overflow, State: m.state, Test: t.test, Limit: «StackLimit»}
	}
}

// top returns the atomic states saved with the state on top of the stack.
func (m *«Machine») top() []uint64 {
	return m.saved[(int(m.depth)-1)*«p»Words : int(m.depth)*«p»Words]
}
«else»
	return t.clo == t.chi || m.cond(h, t.clo, t.chi)
}
«end»

func «p»HasEvent(evs []«Test», ev «Test») bool {
	for _, e := range evs {
		if e == ev {
			return true
		}
	}
	return false
}

// cond evaluates the condition «p»Conds[lo:hi], in postfix form.
func (m *«Machine») cond(h «Host», lo, hi int32) bool {
	var stack uint64
	n := 0
	for _, t := range «p»Conds[lo:hi] {
		var v bool
		switch t.op {
		case «p»CondTest:
			v = m.test(h, t.test)
		case «p»CondIn:
			v = «p»Has(m.conf[:], int(t.state))
		case «p»CondTrue:
			v = true
		case «p»CondFalse:
		case «p»CondNot:
			stack ^= 1 << (n - 1)
			continue
		case «p»CondAnd, «p»CondOr:
			n--
			x, y := stack>>(n-1)&1, stack>>n&1
			r := x & y
			if t.op == «p»CondOr {
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

// domain returns the domain of transition i (-1 for none), working it out
«if stack»
// for one whose targets are history states or the top of the stack.
«else»
// for one whose targets are history states.
«end»
func (m *«Machine») domain(i int32) int32 {
	t := &«p»Trans[i]
	if !t.dynamic {
		return t.domain
	}
«if stack»
	if t.thi == t.tlo && !t.ret {
		return -1
	}
	clear(m.exit[:]) // scratch until the microstep's exit set
	if t.ret {
		copy(m.exit[:], m.top())
	} else {
		m.effectiveTargets(«p»Targets[t.tlo:t.thi], m.exit[:])
	}
«else»
	if t.thi == t.tlo {
		return -1
	}
	clear(m.exit[:]) // scratch until the microstep's exit set
	m.effectiveTargets(«p»Targets[t.tlo:t.thi], m.exit[:])
«end»
	if «p»Next(m.exit[:], 0) < 0 {
		return -1
	}
	src := t.source
	if t.internal && src != «p»Root && «p»Nodes[src].compound && m.allBelow(m.exit[:], src) {
		return src
	}
	for anc := «p»Nodes[src].parent; ; anc = «p»Nodes[anc].parent {
		if anc < 0 {
			return «p»Root
		}
		if anc != «p»Root && !«p»Nodes[anc].compound {
			continue
		}
		if m.allBelow(m.exit[:], anc) {
			return anc
		}
	}
}

// allBelow reports whether every member of set is below state anc.
func (m *«Machine») allBelow(set []uint64, anc int32) bool {
	lo, hi := «p»Below(anc)
	for s := «p»Next(set, 0); s >= 0; s = «p»Next(set, s+1) {
		if s < lo || s >= hi {
			return false
		}
	}
	return true
}

// effectiveTargets adds to set the effective targets of targets: a history
// state's recorded states, or its default's targets.
func (m *«Machine») effectiveTargets(targets []int32, set []uint64) {
	for _, s := range targets {
		nd := &«p»Nodes[s]
		if nd.hist < 0 {
			«p»Add(set, int(s))
			continue
		}
		if «p»Has(m.recorded[:], int(nd.hist)) {
			rec := m.hist[int(nd.hist)*«p»Words : int(nd.hist+1)*«p»Words]
			for i := range set {
				set[i] |= rec[i]
			}
			continue
		}
		d := &«p»Trans[nd.dflt]
		m.effectiveTargets(«p»Targets[d.tlo:d.thi], set)
	}
}

// removeConflicts keeps, of two enabled transitions whose exit sets
// intersect, the one whose source is deeper, or else the first.
func (m *«Machine») removeConflicts() {
	kept := 0
	for _, t1 := range m.enabled[:m.nenabled] {
		d1 := m.domain(t1)
		preempted := false
		for j := 0; j < kept; j++ {
			if !m.exitsIntersect(d1, m.domains[j]) {
				continue
			}
			if «p»IsBelow(«p»Trans[t1].source, «p»Trans[m.enabled[j]].source) {
				copy(m.enabled[j:kept], m.enabled[j+1:kept])
				copy(m.domains[j:kept], m.domains[j+1:kept])
				kept--
				j--
				continue
			}
			preempted = true
			break
		}
		if !preempted {
			m.enabled[kept], m.domains[kept] = t1, d1
			kept++
		}
	}
	m.nenabled = kept
}

// exitsIntersect reports whether the exit sets of transitions of domains
// d1 and d2 share a state.
func (m *«Machine») exitsIntersect(d1, d2 int32) bool {
	if d1 < 0 || d2 < 0 {
		return false
	}
	lo1, hi1 := «p»Below(d1)
	lo2, hi2 := «p»Below(d2)
	lo, hi := max(lo1, lo2), min(hi1, hi2)
	return lo < hi && «p»Any(m.conf[:], lo, hi)
}

// takeTransitions exits the states the enabled transitions leave, performs
// their actions and enters their targets.
func (m *«Machine») takeTransitions(h «Host») {
«if stack»
	// Pushes save their source and what is active in it, before it is left.
	for _, i := range m.enabled[:m.nenabled] {
		if t := &«p»Trans[i]; t.push {
			m.push(t.source)
		}
	}
«end»
	clear(m.exit[:])
	for _, d := range m.domains[:m.nenabled] {
		if d < 0 {
			continue
		}
		lo, hi := «p»Below(d)
		for s := «p»Next(m.conf[:], lo); s >= 0 && s < hi; s = «p»Next(m.conf[:], s+1) {
			«p»Add(m.exit[:], s)
		}
	}
	for s := «p»Next(m.exit[:], 0); s >= 0; s = «p»Next(m.exit[:], s+1) {
		nd := &«p»Nodes[s]
		for _, hs := range «p»Kids[nd.hlo:nd.hhi] {
			m.record(int32(s), hs)
		}
	}
	for s := «p»Prev(m.exit[:], «p»Root-1); s >= 0; s = «p»Prev(m.exit[:], s-1) {
		nd := &«p»Nodes[s]
		m.act(h, nd.xlo, nd.xhi)
		«p»Del(m.conf[:], s)
	}
	for _, i := range m.enabled[:m.nenabled] {
		t := &«p»Trans[i]
		m.act(h, t.alo, t.ahi)
	}
	m.enterStates(h)
}
«if stack»

// push pushes state s on the stack with the atomic states active in it (s
// itself when it is atomic).
func (m *«Machine») push(s int32) {
	if int(m.depth) >= «StackLimit» {
		return // enabledBy refused it; a second push in one microstep is dropped
	}
	m.stack[m.depth] = «AnyState» // the root: the whole configuration
	if s != «p»Root {
		m.stack[m.depth] = «State»(s)
	}
	m.depth++
	saved := m.top()
	clear(saved)
	if s != «p»Root && «p»Has(«p»Atomic[:], int(s)) {
		«p»Add(saved, int(s))
		return
	}
	lo, hi := «p»Below(s)
	for q := «p»Next(m.conf[:], lo); q >= 0 && q < hi; q = «p»Next(m.conf[:], q+1) {
		if «p»Has(«p»Atomic[:], q) {
			«p»Add(saved, q)
		}
	}
}
«end»

// record records in history state hs what is active below its parent s.
func (m *«Machine») record(s, hs int32) {
	slot := int(«p»Nodes[hs].hist)
	rec := m.hist[slot*«p»Words : (slot+1)*«p»Words]
	clear(rec)
	nd := &«p»Nodes[s]
	if «p»Nodes[hs].kind == «p»KindDeepHistory {
		lo, hi := «p»Below(s)
		for q := «p»Next(m.conf[:], lo); q >= 0 && q < hi; q = «p»Next(m.conf[:], q+1) {
			if «p»Has(«p»Atomic[:], q) {
				«p»Add(rec, q)
			}
		}
	} else {
		for _, k := range «p»Kids[nd.klo:nd.khi] {
			if «p»Has(m.conf[:], int(k)) {
				«p»Add(rec, int(k))
			}
		}
	}
	«p»Add(m.recorded[:], slot)
}

// enterStates enters the targets of the enabled transitions.
func (m *«Machine») enterStates(h «Host») {
	clear(m.enter[:])
	clear(m.dflt[:])
	clear(m.hdflt[:])
	for k, i := range m.enabled[:m.nenabled] {
		t := &«p»Trans[i]
«if stack»
		if t.ret {
			m.enterPopped(m.domains[k])
			continue
		}
«end»
		if t.thi == t.tlo {
			continue
		}
		for _, s := range «p»Targets[t.tlo:t.thi] {
			m.addDescendants(s)
		}
		d := m.domains[k]
		for _, s := range «p»Targets[t.tlo:t.thi] {
			m.addEffectiveAncestors(s, d)
		}
	}
	for s := «p»Next(m.enter[:], 0); s >= 0; s = «p»Next(m.enter[:], s+1) {
		«p»Add(m.conf[:], s)
		nd := &«p»Nodes[s]
		m.act(h, nd.elo, nd.ehi)
		if «p»Has(m.dflt[:], s) {
			d := &«p»Trans[nd.dflt]
			m.act(h, d.alo, d.ahi)
		}
		for _, hs := range «p»Kids[nd.hlo:nd.hhi] {
			if «p»Has(m.hdflt[:], int(hs)) {
				d := &«p»Trans[«p»Nodes[hs].dflt]
				m.act(h, d.alo, d.ahi)
			}
		}
		if nd.kind != «p»KindFinal {
			continue
		}
		p := nd.parent
		if p == «p»Root {
			m.finish(h, «State»(s))
			return
		}
		m.raise(«p»Done[p])
		if g := «p»Nodes[p].parent; g != «p»Root && «p»Nodes[g].kind == «p»KindParallel && m.inFinal(g) {
			m.raise(«p»Done[g])
		}
	}
}

«if stack»
// enterPopped pops the stack and adds its saved states, with their
// ancestors up to domain d, to the states to enter.
func (m *«Machine») enterPopped(d int32) {
	if m.depth == 0 {
		return
	}
	copy(m.popped[:], m.top())
	m.depth--
	for q := «p»Next(m.popped[:], 0); q >= 0; q = «p»Next(m.popped[:], q+1) {
		m.addDescendants(int32(q))
	}
	for q := «p»Next(m.popped[:], 0); q >= 0; q = «p»Next(m.popped[:], q+1) {
		m.addAncestors(int32(q), d)
	}
}

«end»
// addEffectiveAncestors adds the ancestors of target s (or of the states a
// history target s stands for) up to domain d.
func (m *«Machine») addEffectiveAncestors(s, d int32) {
	nd := &«p»Nodes[s]
	if nd.hist < 0 {
		m.addAncestors(s, d)
		return
	}
	if «p»Has(m.recorded[:], int(nd.hist)) {
		rec := m.hist[int(nd.hist)*«p»Words : int(nd.hist+1)*«p»Words]
		for q := «p»Next(rec, 0); q >= 0; q = «p»Next(rec, q+1) {
			m.addAncestors(int32(q), d)
		}
		return
	}
	t := &«p»Trans[nd.dflt]
	for _, q := range «p»Targets[t.tlo:t.thi] {
		m.addEffectiveAncestors(q, d)
	}
}

// addDescendants adds state s to the states to enter, with what entering
// it enters by default.
func (m *«Machine») addDescendants(s int32) {
	nd := &«p»Nodes[s]
	if nd.hist >= 0 {
		if «p»Has(m.recorded[:], int(nd.hist)) {
			rec := m.hist[int(nd.hist)*«p»Words : int(nd.hist+1)*«p»Words]
			for q := «p»Next(rec, 0); q >= 0; q = «p»Next(rec, q+1) {
				m.addDescendants(int32(q))
			}
			for q := «p»Next(rec, 0); q >= 0; q = «p»Next(rec, q+1) {
				m.addAncestors(int32(q), nd.parent)
			}
			return
		}
		«p»Add(m.hdflt[:], int(s))
		m.enterDefault(nd.dflt, nd.parent)
		return
	}
	«p»Add(m.enter[:], int(s))
	switch {
	case nd.compound:
		«p»Add(m.dflt[:], int(s))
		m.enterDefault(nd.dflt, s)
	case nd.kind == «p»KindParallel:
		for _, k := range «p»Kids[nd.klo:nd.khi] {
			if lo, hi := «p»Below(k); !«p»Any(m.enter[:], lo, hi) {
				m.addDescendants(k)
			}
		}
	}
}

// enterDefault adds the targets of default transition d, and their
// ancestors up to anc.
func (m *«Machine») enterDefault(d, anc int32) {
	t := &«p»Trans[d]
	for _, q := range «p»Targets[t.tlo:t.thi] {
		m.addDescendants(q)
	}
	for _, q := range «p»Targets[t.tlo:t.thi] {
		m.addAncestors(q, anc)
	}
}

// addAncestors adds the proper ancestors of s below anc, and the regions
// of the parallel states among them.
func (m *«Machine») addAncestors(s, anc int32) {
	for q := «p»Nodes[s].parent; q != anc && q != «p»Root && q >= 0; q = «p»Nodes[q].parent {
		«p»Add(m.enter[:], int(q))
		nd := &«p»Nodes[q]
		if nd.kind != «p»KindParallel {
			continue
		}
		for _, k := range «p»Kids[nd.klo:nd.khi] {
			if lo, hi := «p»Below(k); !«p»Any(m.enter[:], lo, hi) {
				m.addDescendants(k)
			}
		}
	}
}

// inFinal reports whether s is in a final configuration.
func (m *«Machine») inFinal(s int32) bool {
	nd := &«p»Nodes[s]
	switch {
	case nd.compound:
		for _, k := range «p»Kids[nd.klo:nd.khi] {
			if «p»Nodes[k].kind == «p»KindFinal && «p»Has(m.conf[:], int(k)) {
				return true
			}
		}
	case nd.kind == «p»KindParallel:
		for _, k := range «p»Kids[nd.klo:nd.khi] {
			if !m.inFinal(k) {
				return false
			}
		}
		return true
	}
	return false
}

// finish ends the machine in top-level final state q: every active state
// is left, in reverse document order, running its exit actions.
func (m *«Machine») finish(h «Host», q «State») {
	for s := «p»Prev(m.conf[:], «p»Root-1); s >= 0; s = «p»Prev(m.conf[:], s-1) {
		nd := &«p»Nodes[s]
		m.act(h, nd.xlo, nd.xhi)
		«p»Del(m.conf[:], s)
	}
	m.final = q
	m.status |= «done»
}

// act performs the actions «p»Actions[lo:hi].
func (m *«Machine») act(h «Host», lo, hi int32) {
	for i := lo; i < hi; i++ {
		a := &«p»Actions[i]
		if a.clo != a.chi && !m.cond(h, a.clo, a.chi) {
			continue
		}
		switch a.kind {
		case «p»Game:
			«p»Do(h, a.property, a.value)
		case «p»Raise:
			m.raise(a.event)
		case «p»Send:
			m.send(a)
		case «p»Cancel:
			m.cancel(a.timer)
		}
	}
}

// raise puts ev on the internal queue.
func (m *«Machine») raise(ev «Test») {
	if ev != «NoTest» {
		m.queueEvent(&m.internal, ev)
	}
}

// queueEvent puts ev on queue q, recording an error when q is full.
func (m *«Machine») queueEvent(q *«p»Queue, ev «Test») {
	if !q.push(ev) && m.err == nil {
		m.err = &«QueueError»{Event: ev, Limit: len(q.buf)}
	}
}

// send performs a send action.
func (m *«Machine») send(a *«p»Action) {
	if a.delay <= 0 {
		m.queueEvent(&m.external, a.event)
		return
	}
	if m.ntimers == len(m.timers) {
		if m.err == nil {
			m.err = &«QueueError»{Event: a.event, Send: true, Limit: len(m.timers)}
		}
		return
	}
	m.timers[m.ntimers] = «p»Timer{due: m.now + a.delay, seq: m.seq, event: a.event, id: a.timer}
	m.ntimers++
	m.seq++
}

// cancel takes back the pending sends of timer id.
func (m *«Machine») cancel(id uint16) {
	n := 0
	for _, t := range m.timers[:m.ntimers] {
		if t.id != id {
			m.timers[n] = t
			n++
		}
	}
	m.ntimers = n
}

// SetTime tells the machine the game's time, in seconds: sends whose delay
// has passed are handled by the next update. It should not go back.
func (m *«Machine») SetTime(now float64) { m.now = now }

// Time returns the game time last given to SetTime.
func (m *«Machine») Time() float64 { return m.now }

// NextTimer returns the game time at which the earliest pending send is
// due, and false if none is pending.
func (m *«Machine») NextTimer() (float64, bool) {
	if m.ntimers == 0 {
		return 0, false
	}
	due := m.timers[0].due
	for _, t := range m.timers[1:m.ntimers] {
		due = min(due, t.due)
	}
	return due, true
}

// In reports whether state s is active, or is the final state the machine
// ended in.
func (m *«Machine») In(s «State») bool {
	if m.status == 0 || int(s) >= «NumStates» {
		return false
	}
	return «p»Has(m.conf[:], int(s)) || m.final == s
}

// Active appends the active states to dst, in document order, and returns
// it: the configuration (compound and parallel states with their active
// descendants), or the final state the machine ended in.
func (m *«Machine») Active(dst []«State») []«State» {
	switch {
	case m.status == 0:
		return dst
	case m.final != «NoState»:
		return append(dst, m.final)
	}
	for s := «p»Next(m.conf[:], 0); s >= 0; s = «p»Next(m.conf[:], s+1) {
		dst = append(dst, «State»(s))
	}
	return dst
}

// State returns the state the machine shows: its first active atomic
// state in document order, or the final state it ended in; «NoState» for
// a machine not started.
func (m *«Machine») State() «State» {
	if m.status == 0 {
		return «NoState»
	}
	return m.state
}

// Done reports whether the machine ended in a top-level final state.
func (m *«Machine») Done() bool { return m.status&«done» != 0 }
«if stack»

// Depth returns the number of states on the stack.
func (m *«Machine») Depth() int { return int(m.depth) }
«end»

// «p»Below returns the range of states strictly below s: [lo, hi).
func «p»Below(s int32) (lo, hi int) {
	if s == «p»Root {
		return 0, «p»Root
	}
	return int(s) + 1, int(«p»Nodes[s].end)
}

// «p»IsBelow reports whether a is a proper descendant of s.
func «p»IsBelow(a, s int32) bool {
	lo, hi := «p»Below(s)
	return int(a) >= lo && int(a) < hi
}

func «p»Has(s []uint64, i int) bool { return s[i/64]>>(i%64)&1 != 0 }
func «p»Add(s []uint64, i int)      { s[i/64] |= 1 << (i % 64) }
func «p»Del(s []uint64, i int)      { s[i/64] &^= 1 << (i % 64) }

// «p»Any reports whether s has a member in [lo, hi).
func «p»Any(s []uint64, lo, hi int) bool {
	for lo < hi {
		w := lo / 64
		left := s[w] >> (lo % 64)
		if span := hi - lo; span < 64-lo%64 {
			left &= 1<<span - 1
		}
		if left != 0 {
			return true
		}
		lo = (w + 1) * 64
	}
	return false
}

// «p»Next returns the first member of s at or after i, or -1.
func «p»Next(s []uint64, i int) int {
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

// «p»Prev returns the last member of s at or before i, or -1.
func «p»Prev(s []uint64, i int) int {
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

// «QueueError» reports an event dropped because its queue was full, or a
// send dropped because as many sends as the table allows were pending.
// It matches «ErrQueueFull».
type «QueueError» struct {
	Event «Test» // the event dropped
	Send  bool   // a send with a delay, over the timer limit
	Limit int    // the queue's or the timers' limit
}

// Error names the event and the limit.
func (e *«QueueError») Error() string {
	if e.Send {
		return «ctx» + "send of " + strconv.Quote(e.Event.String()) + " dropped: " + strconv.Itoa(e.Limit) + " sends are pending (the table's timer limit)"
	}
	return «ctx» + "event " + strconv.Quote(e.Event.String()) + " dropped: " + strconv.Itoa(e.Limit) + " events are waiting (the table's queue limit)"
}

// Is makes errors.Is(err, «ErrQueueFull») true.
func (e *«QueueError») Is(target error) bool { return target == «ErrQueueFull» }

// «ChainError» reports that a chaining update took «p»ChainLimit
// microsteps and another was still pending (an event queued, or an
// eventless transition enabled). Path holds the states the machine showed,
// the starting one first; the next update carries on.
type «ChainError» struct {
	Limit   int       // microsteps allowed in one update
	Path    []«State» // states shown, the starting state first; at most the first 16
	Visited int       // Limit+1
	At      «State»   // the state the machine stopped in
}

// Error names the limit and the states visited.
func (e *«ChainError») Error() string {
	s := «ctx» + strconv.Itoa(e.Limit) + " microsteps in one update and another is pending (a cycle?): "
	for i, q := range e.Path {
		if i > 0 {
			s += " → "
		}
		s += q.String()
	}
	return s + "; the machine stays in " + e.At.String()
}

// Is makes errors.Is(err, «ErrChainLimit») true.
func (e *«ChainError») Is(target error) bool { return target == «ErrChainLimit» }
`
