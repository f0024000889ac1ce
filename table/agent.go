package table

import (
	"fmt"
	"strconv"
)

// Host is the game's side of an agent: it answers the table's polled tests
// and performs the entry actions, for the entity e that the agent runs. A
// host is typically one value for the whole game (a world, a level) and
// entities are pointers or handles.
//
// Test is called with a polled test's ID, never a message's; Do with each
// entry action of a state entered, in the table's order. Both are called
// from inside [Agent.Update], [Agent.Receive] and [NewAgent]; they must not
// update the same agent (that returns [ErrReentrant]), but they may [Agent.Post]
// to it: the message is seen by the next update.
//
// IDs are dense, so a host answers without a map look-up: a switch on
// TestIDs it looked up by name once ([Table.LookupTest]), or a slice of
// functions indexed by TestID. Each test tried costs one interface call.
type Host[E any] interface {
	Test(e E, t TestID) bool
	Do(e E, p PropertyID, v ValueID)
}

// Agent runs a [Table] for one entity: it is the AIObject of the article
// "Visual Finite State Machine AI Systems" without
// the game object. It is plain data (the table, the entity, the current
// state, the message flags, the stack and a few status bits, and a pointer
// to a statechart agent's configuration and to an observer), a value the
// game keeps in the entity or in a slice; many agents share one table. Make
// one with [NewAgent], or with [RestoreAgent] from a [Snapshot]. A copy of
// a statechart agent, or of an observed one, shares what the pointer
// holds: copy agents that are neither, or take a [Snapshot].
//
// An Agent is not safe for concurrent use; agents sharing a table may
// update concurrently if their host allows it. The zero Agent has no table:
// its methods return [ErrNoTable].
type Agent[E any] struct {
	table  *Table
	entity E
	flags  uint64 // posted messages, one bit per message slot
	// polled is table.polled[spans[state]]: the current state's steps with
	// a polled test, kept here so that Update reaches them in one load
	// rather than four.
	polled []step
	// sensed is the set of the current state's polled tests, by ID (those
	// below 64; see statusNarrow).
	sensed uint64
	state  StateID
	depth  uint8
	status uint8
	stack  [MaxStack]StateID // stack[:depth], bottom first
	// sc is a statechart agent's configuration, queues, timers and
	// observer (statusChart is set); for a flat agent, nil, or only its
	// observer (see Observe).
	sc *run
}

// Agent status bits.
const (
	statusDone uint8 = 1 << iota
	statusBusy
	statusPosted // flags is not 0
	// statusNarrow: the agent has a table, and the current state's polled
	// tests all have IDs below 64 (sensed names them all).
	statusNarrow
	// statusChart: the agent runs a statechart table (sc is set).
	statusChart
)

// Result says what an update did. From is the state it started in; To is
// the state it ended in (From if no transition was taken), or [Final] if the
// agent finished; Test is the test of the last transition taken, or
// [NoTest]; Steps is the number of transitions taken: 0 or 1, or more when
// the table chains ([Options.Chain]). For a statechart agent, From and To
// are its [Agent.State] before and after, Test is the last event handled
// (or the test of an eventless transition), and Steps counts microsteps.
type Result struct {
	From  StateID // the state at the start of the update
	To    StateID // the state at the end, or Final
	Test  TestID  // the last transition's test, or NoTest
	Steps uint16  // transitions taken
}

// Moved reports whether the update took a transition.
func (r Result) Moved() bool { return r.Steps > 0 }

// Final reports whether the agent is done: the update went to the final
// state, or the agent was already there. The game should remove the entity
// (the article's setDeletePending).
func (r Result) Final() bool { return r.To == Final }

// NewAgent returns an agent for entity e in t's initial state, having
// performed the initial state's entry actions through h (as the article's
// AIObject constructor enters its first state). For a flat table it
// allocates nothing: the agent is a value; for a statechart table, it
// enters the initial configuration and allocates the agent's fixed memory
// (see the package documentation). It panics if t has no states (a zero
// Table: build or decode one). h may be nil only for a table without polled tests or entry
// actions, here and in the agent's updates.
func NewAgent[E any](t *Table, e E, h Host[E]) Agent[E] {
	if t == nil || len(t.spans) == 0 && t.sc == nil {
		panic("table: NewAgent: the table has no states (make it with Builder.Build or decode it)")
	}
	a := Agent[E]{table: t, entity: e, state: t.initial, status: statusBusy}
	if t.sc != nil {
		a.startChart(h)
		a.status &^= statusBusy
		return a
	}
	a.enter(h, t.initial)
	a.status &^= statusBusy
	return a
}

// Update tries the current state's transitions in order (the any-state ones
// first) and takes the first whose test holds: a polled test holds if the
// host says so, a message test if its message was posted. Taking it pushes
// the state left if the transition says so, moves to the destination (or
// pops the stack for [Return]) and performs the new state's entry actions
// through h. By default that is all; a table with [Options.Chain] goes on
// trying from the new state, up to its chain limit. A transition to [Final]
// makes the agent done; it stops there.
//
// A message flag is consumed by the transition that uses it, and all the
// flags the update saw are cleared when it returns: a message nobody tested
// is dropped, as in the article. Messages posted during the update are kept
// for the next one.
//
// Update returns what happened and, for a transition that could not be
// taken, a [*StackError]; for a chain that reached its limit, a
// [*machine.ChainError] (with the transitions taken so far in the Result). An agent
// already done returns a Result with To [Final] and does nothing. Update
// allocates nothing unless it returns one of these errors; it costs one
// interface call per polled test tried, plus one per entry action.
func (a *Agent[E]) Update(h Host[E]) (Result, error) {
	if a.status&^statusNarrow != 0 || len(a.polled) != 1 {
		return a.updateSlow(h, sense{})
	}
	// The common case: nothing posted, and one polled test to try.
	a.status |= statusBusy
	if s := &a.polled[0]; h.Test(a.entity, s.test) {
		return a.take(h, s, 0, sense{})
	}
	a.status &^= statusBusy // the test may have posted a message
	return Result{From: a.state, To: a.state, Test: NoTest}, nil
}

// UpdateSensed is [Agent.Update] with the polled tests answered by the
// game beforehand, as Unity's Animator reads the parameters the game set:
// a polled test whose ID t is below 64 holds when bit t of sensed is set
// (sensed |= 1 << t), and only tests of larger IDs are asked of the host.
// Everything else is as in Update: messages, the order of the transitions,
// entry actions through h, chains, the stack and the errors.
//
// It suits a game that works out what its entity perceives once per frame
// in its own code, where the compiler inlines it: an update in which no
// test of the current state is set is a few instructions and no call to
// the host.
func (a *Agent[E]) UpdateSensed(h Host[E], sensed uint64) (Result, error) {
	if a.status != statusNarrow {
		return a.updateSlow(h, sense{sensed, true})
	}
	held := sensed & a.sensed
	if held == 0 {
		return Result{From: a.state, To: a.state, Test: NoTest}, nil
	}
	for i := range a.polled {
		if s := &a.polled[i]; held>>(s.test&63)&1 != 0 {
			a.status |= statusBusy
			return a.take(h, s, 0, sense{sensed, true})
		}
	}
	return Result{From: a.state, To: a.state, Test: NoTest}, nil // not reached: held names a polled test
}

// sense says how an update answers the polled tests: from the host, or,
// when on, from bits for the tests with IDs below 64 (UpdateSensed).
type sense struct {
	bits uint64
	on   bool
}

// updateSlow is Update for every other case: an agent that is busy, done
// or zero, messages posted, or a state with other than one polled test.
func (a *Agent[E]) updateSlow(h Host[E], sn sense) (Result, error) {
	if a.status&statusChart != 0 {
		return a.updateChart(h)
	}
	if a.status&(statusBusy|statusDone) != 0 || a.table == nil {
		return a.refuse()
	}
	f := a.flags
	a.flags = 0
	a.status = a.status&statusNarrow | statusBusy
	if s := fire(a.table, h, a.entity, a.state, f, sn); s != nil {
		return a.take(h, s, f, sn)
	}
	a.status &^= statusBusy
	return Result{From: a.state, To: a.state, Test: NoTest}, nil
}

// wrapped is an error with its own message that matches a sentinel.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// refuse says why Update cannot run.
func (a *Agent[E]) refuse() (Result, error) {
	switch {
	case a.table == nil:
		return Result{From: NoState, To: NoState, Test: NoTest}, ErrNoTable
	case a.status&statusBusy != 0:
		return Result{From: a.state, To: a.state, Test: NoTest}, ErrReentrant
	}
	return Result{From: a.state, To: Final, Test: NoTest}, nil // done
}

// take takes the transition s found by Update, then chains if the table
// says so. The agent is busy; f holds the flags the update saw.
func (a *Agent[E]) take(h Host[E], s *step, f uint64, sn sense) (Result, error) {
	res := Result{From: a.state, To: a.state, Test: s.test}
	if err := a.move(h, s); err != nil {
		a.status &^= statusBusy
		return res, err
	}
	res.Steps = 1
	res.To = a.at()
	if a.sc != nil || a.table.opts.Chain {
		return a.takeMore(h, s, res, f, sn)
	}
	a.status &^= statusBusy
	return res, nil
}

// takeMore is the rest of take for an agent observed or a table that
// chains: it reports the transition, then chains.
func (a *Agent[E]) takeMore(h Host[E], s *step, res Result, f uint64, sn sense) (Result, error) {
	if a.sc != nil {
		a.observeStep(s, res.From)
	}
	if a.table.opts.Chain && a.status&statusDone == 0 {
		if s.slot != noSlot {
			f &^= 1 << (s.slot & 63)
		}
		return a.chain(h, res, f, sn)
	}
	a.status &^= statusBusy
	return res, nil
}

// at returns the agent's state, or Final if it is done.
func (a *Agent[E]) at() StateID {
	if a.status&statusDone != 0 {
		return Final
	}
	return a.state
}

// chain keeps taking transitions after the first, up to the chain limit.
func (a *Agent[E]) chain(h Host[E], res Result, f uint64, sn sense) (Result, error) {
	defer a.idle()
	limit := a.table.chainLimit()
	var path [chainPathMax]StateID
	path[0], path[1] = res.From, a.state
	for n := 1; ; n++ {
		s := fire(a.table, h, a.entity, a.state, f, sn)
		if s == nil {
			return res, nil
		}
		if n >= limit {
			return res, a.table.chainError(limit, path[:min(n+1, chainPathMax)], n+1, a.state, s.test)
		}
		if s.slot != noSlot {
			f &^= 1 << (s.slot & 63)
		}
		from := a.state
		if err := a.move(h, s); err != nil {
			return res, err
		}
		if a.sc != nil {
			a.observeStep(s, from)
		}
		res.Steps++
		res.Test = s.test
		res.To = a.at()
		if res.To == Final {
			return res, nil
		}
		if n+1 < chainPathMax {
			path[n+1] = a.state
		}
	}
}

func (a *Agent[E]) idle() { a.status &^= statusBusy }

// fire returns the first step of state q of t whose test holds for entity
// e, with the message flags f and the polled tests answered as sn says, or
// nil. (tablecrowd, which steps many entities at once, has its own.)
func fire[E any](t *Table, h Host[E], e E, q StateID, f uint64, sn sense) *step {
	sp := t.spans[q]
	steps := t.steps[sp.lo:sp.hi]
	for i := range steps {
		s := &steps[i]
		switch {
		case s.slot != noSlot:
			if f>>(s.slot&63)&1 != 0 {
				return s
			}
		case sn.on && s.test < 64:
			if sn.bits>>s.test&1 != 0 {
				return s
			}
		case h.Test(e, s.test):
			return s
		}
	}
	return nil
}

// move takes one transition: push, pop or finish, then enter.
func (a *Agent[E]) move(h Host[E], s *step) error {
	t := a.table
	to := s.to
	switch to {
	case Final:
		a.status |= statusDone
		return nil
	case Return:
		if a.depth == 0 {
			return &StackError{State: a.state, Test: s.test, Limit: t.stackLimit(), Table: t}
		}
		a.depth--
		to = a.stack[a.depth]
	}
	if s.push {
		if int(a.depth) >= t.stackLimit() {
			return &StackError{Overflow: true, State: a.state, Test: s.test, Limit: t.stackLimit(), Table: t}
		}
		a.stack[a.depth] = a.state
		a.depth++
	}
	a.enter(h, to)
	return nil
}

// enter makes to the current state and performs its entry actions.
func (a *Agent[E]) enter(h Host[E], to StateID) {
	sp := a.be(to)
	for _, act := range a.table.acts[sp.alo:sp.ahi] {
		h.Do(a.entity, act.Property, act.Value)
	}
}

// be makes q the current state, with what an update reads of it kept in
// the agent, and returns q's span.
func (a *Agent[E]) be(q StateID) span {
	sp := a.table.spans[q]
	a.state = q
	a.polled = a.table.polled[sp.plo:sp.phi:sp.phi]
	a.sensed = sp.sensed
	a.status = a.status&^statusNarrow | sp.narrow*statusNarrow
	return sp
}

// Post sets the flag of message test msg: the next update sees the message
// (as one of its tests holding) and then clears it. Posting a message twice
// before an update is posting it once. Post on an agent that is done does
// nothing. It returns an error wrapping [ErrNotMessage] if msg is not a
// message test of the agent's table, and [ErrNoTable] for a zero agent.
func (a *Agent[E]) Post(msg TestID) error {
	t := a.table
	switch {
	case t == nil:
		return ErrNoTable
	case int(msg) >= len(t.tests):
		return &wrapped{fmt.Sprintf("table %q: Post %s: the table has %d tests", t.name, msg, len(t.tests)), ErrNotMessage}
	case t.slot[msg] == noSlot:
		return &wrapped{fmt.Sprintf("table %q: Post %q: a polled test, not a message (the host answers polled tests; post messages only)", t.name, t.tests[msg].String()), ErrNotMessage}
	case a.status&statusDone != 0:
		return nil
	case a.status&statusChart != 0:
		if !a.sc.external.push(msg) {
			return &wrapped{fmt.Sprintf("table %q: Post %q: %d events are waiting (Options.QueueLimit)", t.name, t.tests[msg].String(), len(a.sc.external.buf)), ErrQueueFull}
		}
		return nil
	}
	a.flags |= 1 << (t.slot[msg] & 63)
	a.status |= statusPosted
	return nil
}

// Receive posts message msg and updates at once, as the article's receive()
// does: it is [Agent.Post] then [Agent.Update]. Called from inside the
// agent's own update, it only posts (the message waits for the next update)
// and returns [ErrReentrant].
func (a *Agent[E]) Receive(h Host[E], msg TestID) (Result, error) {
	if err := a.Post(msg); err != nil {
		return Result{From: a.State(), To: a.State(), Test: NoTest}, err
	}
	return a.Update(h)
}

// State returns the current state; for an agent that is done, the last
// state it was in. A zero agent returns [NoState].
func (a *Agent[E]) State() StateID {
	if a.table == nil {
		return NoState
	}
	return a.state
}

// Name returns the current state's name (see [Agent.State]), or "none" for
// a zero agent.
func (a *Agent[E]) Name() string {
	if a.table == nil {
		return NoState.String()
	}
	return a.table.StateName(a.state)
}

// Done reports whether the agent went to the final state: the game should
// remove its entity.
func (a *Agent[E]) Done() bool { return a.status&statusDone != 0 }

// Depth returns the number of states on the stack.
func (a *Agent[E]) Depth() int { return int(a.depth) }

// Entity returns the entity the agent passes to its host.
func (a *Agent[E]) Entity() E { return a.entity }

// Table returns the agent's table, nil for a zero agent.
func (a *Agent[E]) Table() *Table { return a.table }

// String returns a short description for traces: the state's name, then
// " (done)" or the stack's depth when not empty, for example "patrol
// (stack 2)".
func (a *Agent[E]) String() string {
	name := a.Name()
	switch {
	case a.Done():
		return name + " (done)"
	case a.depth > 0:
		return name + " (stack " + strconv.Itoa(int(a.depth)) + ")"
	}
	return name
}
