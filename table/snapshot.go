package table

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/fsmforge/fsmforge/machine"
)

// Snapshot is an agent's state as plain data: what [RestoreAgent] needs to
// make an agent that goes on exactly as the one it was taken from, given
// the same host calls' answers and the same messages and times. A game
// saves it ([Snapshot.AppendBinary], [AppendAgents]), a viewer lists it.
// IDs are those of the agent's table: [Table.StateName] and [Table.Test]
// turn them into names, and [Snapshot.Remap] renumbers the states for a
// changed table.
//
// The first four fields are an agent's of either kind of table; the rest
// are a statechart agent's, and empty (Now 0) for a flat one. Lists of
// states and tests are ascending where the field says so; the binary form
// requires it, and [Agent.Snapshot] makes them so.
type Snapshot struct {
	// State is the current state ([Agent.State]); for an agent that is
	// done, the state it ended in; [NoState] for a zero agent.
	State StateID
	// Done is true once the agent went to the final state.
	Done bool
	// Stack holds the states pushed and not yet returned to, bottom first.
	// A statechart agent's any-state transition pushes the whole
	// configuration: that entry is [AnyState].
	Stack []StateID
	// Posted holds the messages posted to a flat agent and not yet seen by
	// an update, ascending; usually empty between updates. A statechart
	// agent's posted events are in External.
	Posted []TestID

	// Statechart is true for an agent of a statechart table.
	Statechart bool
	// Active is the configuration: every active state, compound and
	// parallel ones included, ascending. It is empty for an agent that is
	// done (its final state is State).
	Active []StateID
	// History lists the history states that recorded something, ascending
	// by ID, with what each recorded.
	History []Recorded
	// Internal and External are the event queues, first to be handled
	// first: events raised, and events posted or sent.
	Internal, External []TestID
	// Timers are the pending sends, in the order they will fire (by due
	// time, then in the order they were sent), as [Agent.AppendTimers]
	// lists them.
	Timers []Timer
	// Now is the game time last given to [Agent.SetTime].
	Now float64
	// Saved holds, for each entry of Stack, the atomic states that were
	// active inside the state pushed when it was pushed (the state itself
	// when it is atomic), ascending: where a return goes back to.
	Saved [][]StateID
}

// Recorded is what a history state of a statechart agent recorded when its
// parent was last left: the parent's active children for a shallow
// history, the atomic states active below the parent for a deep one,
// ascending.
type Recorded struct {
	History StateID
	States  []StateID
}

// Snapshot fills s with the agent's state, reusing the capacity of every
// slice in s (the lists inside History and Saved included), so that taking
// snapshots into the same value allocates nothing once it has grown. A
// zero agent gives State [NoState]. Take snapshots between updates: from
// inside one (from the host), a statechart agent may be half way through
// a microstep.
//
// It costs a copy of the stack and, for a flat agent with messages
// posted, a pass over the table's tests; for a statechart agent, a pass
// over the configuration, the history and the stack's saved
// configurations (one bit per state each) and the queues and timers.
func (a *Agent[E]) Snapshot(s *Snapshot) {
	s.State, s.Done = a.State(), a.Done()
	s.Stack, s.Posted = s.Stack[:0], s.Posted[:0]
	s.Statechart, s.Now = false, 0
	s.Active, s.History, s.Internal, s.External = s.Active[:0], s.History[:0], s.Internal[:0], s.External[:0]
	s.Timers, s.Saved = s.Timers[:0], s.Saved[:0]
	if a.table == nil {
		return
	}
	if r := a.chart(); r != nil {
		a.snapshotChart(s, r)
		return
	}
	s.Stack = append(s.Stack, a.stack[:a.depth]...)
	if a.flags == 0 {
		return
	}
	for id, slot := range a.table.slot {
		if slot != noSlot && a.flags>>(slot&63)&1 != 0 {
			s.Posted = append(s.Posted, TestID(id))
		}
	}
}

// snapshotChart fills the statechart fields of s.
func (a *Agent[E]) snapshotChart(s *Snapshot, r *run) {
	c := a.table.sc
	s.Statechart, s.Now = true, r.now
	for _, q := range a.stack[:a.depth] {
		if q == c.root() {
			q = AnyState
		}
		s.Stack = append(s.Stack, q)
	}
	s.Active = appendMembers(s.Active, r.conf)
	for _, h := range c.hists {
		slot := c.nodes[h].hist
		if !setHas(r.recorded, StateID(slot)) {
			continue
		}
		s.History = grow(s.History)
		rec := &s.History[len(s.History)-1]
		rec.History = h
		rec.States = appendMembers(rec.States[:0], r.hist[int(slot)*c.words:int(slot+1)*c.words])
	}
	s.Internal = r.internal.appendTo(s.Internal)
	s.External = r.external.appendTo(s.External)
	s.Timers = a.AppendTimers(s.Timers)
	for i := range int(a.depth) {
		s.Saved = grow(s.Saved)
		saved := &s.Saved[len(s.Saved)-1]
		*saved = appendMembers((*saved)[:0], r.saved[i*c.words:(i+1)*c.words])
	}
}

// grow returns list one longer, reusing the element past its end when its
// capacity holds one (with the slices inside it).
func grow[T any](list []T) []T {
	if len(list) < cap(list) {
		return list[:len(list)+1]
	}
	var zero T
	return append(list, zero)
}

// appendMembers appends the members of set to dst, ascending.
func appendMembers(dst []StateID, set []uint64) []StateID {
	for w, word := range set {
		for ; word != 0; word &= word - 1 {
			dst = append(dst, StateID(w*64+bits.TrailingZeros64(word)))
		}
	}
	return dst
}

// appendTo appends the queue's events to dst, first to be handled first.
func (q *queue) appendTo(dst []TestID) []TestID {
	for i := range q.size {
		dst = append(dst, q.buf[(q.head+i)%len(q.buf)])
	}
	return dst
}

// RestoreAgent returns an agent for entity e running t, in the state s
// describes, performing no action: for loading a saved game (the game
// restores its entity's own data). The agent goes on exactly as the one
// the snapshot was taken from would have. It has no observer
// ([Agent.Observe]).
//
// It checks all of s against t first, and returns an error and a zero
// agent if anything does not fit: t has no states; s is a flat agent's
// and t a statechart or the other way round; a state, test or timer is
// not one of t's; the stack is deeper than t's stack limit; a posted
// message or queued event is not a message test; a queue or the timers
// hold more than t's options allow; a time is NaN; or a statechart
// agent's configuration, a history's record or a saved configuration is
// not one the table can be in: every active state's parent active,
// exactly one active child of an active compound state, every region of
// an active parallel state, State the first active atomic state, a done
// agent in a top-level final state with nothing active. The error names
// the table, the state and the problem.
//
// A statechart snapshot with no active state that is not done (as
// [Snapshot.Remap] leaves one whose configuration lost a state) restores
// into the configuration that entering State enters: State with its
// ancestors and their default descendants (histories included), as a
// transition to State would, but performing no action and raising no
// event.
//
// For a flat table it allocates nothing; for a statechart table, the
// agent's fixed memory, as [NewAgent].
func RestoreAgent[E any](t *Table, e E, s *Snapshot) (Agent[E], error) {
	var a Agent[E]
	if err := restore(&a, t, e, s); err != nil {
		name := ""
		if t != nil {
			name = t.name
		}
		return Agent[E]{}, fmt.Errorf("table: RestoreAgent (table %q): %w", name, err)
	}
	return a, nil
}

// restore sets *a to an agent for e running t in the state s describes,
// or returns what is wrong (without the package's prefix), leaving *a
// unchanged.
func restore[E any](a *Agent[E], t *Table, e E, s *Snapshot) error {
	switch {
	case s == nil:
		return errors.New("no snapshot (nil)")
	case t == nil || len(t.states) == 0:
		return errors.New("the table has no states (make it with Builder.Build or decode it)")
	case s.Statechart && t.sc == nil:
		return errors.New("the snapshot is a statechart agent's, and the table is flat")
	case !s.Statechart && t.sc != nil:
		return errors.New("the snapshot is a flat agent's, and the table is a statechart")
	case t.sc != nil:
		return restoreChart(a, t, e, s)
	}
	if err := t.checkFlat(s); err != nil {
		return err
	}
	*a = Agent[E]{table: t, entity: e, depth: uint8(len(s.Stack))}
	a.be(s.State)
	if s.Done {
		a.status |= statusDone
	}
	copy(a.stack[:], s.Stack)
	for _, id := range s.Posted {
		a.flags |= 1 << (t.slot[id] & 63)
		a.status |= statusPosted
	}
	return nil
}

// checkFlat checks a flat agent's snapshot against flat table t.
func (t *Table) checkFlat(s *Snapshot) error {
	switch {
	case !t.HasState(s.State):
		return fmt.Errorf("state %s is not a state of the table (it has %d)", s.State, len(t.states))
	case len(s.Stack) > t.stackLimit():
		return fmt.Errorf("a stack of %d states; the table's stack limit is %d", len(s.Stack), t.stackLimit())
	case len(s.Active) > 0 || len(s.History) > 0 || len(s.Internal) > 0 || len(s.External) > 0 || len(s.Timers) > 0 || len(s.Saved) > 0 || s.Now != 0:
		return errors.New("a flat agent's snapshot with statechart fields set (Active, History, Internal, External, Timers, Now or Saved)")
	}
	for i, q := range s.Stack {
		if !t.HasState(q) {
			return fmt.Errorf("stack entry %d: %s is not a state of the table (it has %d)", i, q, len(t.states))
		}
	}
	for _, id := range s.Posted {
		if !t.isMessage(id) {
			return fmt.Errorf("posted %s is not a message test of the table", id)
		}
	}
	return nil
}

// isMessage reports whether id is a message test of t.
func (t *Table) isMessage(id TestID) bool { return int(id) < len(t.tests) && t.tests[id].Message }

// restoreChart is restore for a statechart table. It fills a new run as it
// checks s, and sets *a only when all of s is right.
func restoreChart[E any](a *Agent[E], t *Table, e E, s *Snapshot) error {
	c := t.sc
	r := newRun(c, t.stackLimit())
	b := Agent[E]{table: t, entity: e, state: s.State, depth: uint8(len(s.Stack)), status: statusChart, sc: r}
	if err := t.checkChartLists(s); err != nil {
		return err
	}
	if err := t.fillHistory(r, s.History); err != nil {
		return err
	}
	if err := t.fillStack(r, &b.stack, s); err != nil {
		return err
	}
	if err := b.fillConf(s); err != nil {
		return err
	}
	for _, ev := range s.Internal {
		r.internal.push(ev)
	}
	for _, ev := range s.External {
		r.external.push(ev)
	}
	for i, tm := range s.Timers {
		r.timers = append(r.timers, timer{due: tm.Due, seq: uint64(i), event: tm.Event, id: tm.Timer})
	}
	r.seq = uint64(len(s.Timers))
	r.now = s.Now
	if s.Done {
		b.status |= statusDone
	}
	*a = b
	return nil
}

// checkChartLists checks what a statechart agent's snapshot holds beyond
// its states: posted messages (none), the queues, the timers and the time.
func (t *Table) checkChartLists(s *Snapshot) error {
	c := t.sc
	if len(s.Posted) > 0 {
		return errors.New("posted messages in a statechart agent's snapshot (a statechart agent's posted events are in External)")
	}
	if s.Now != s.Now {
		return errors.New("the time (Now) is NaN")
	}
	for _, q := range []struct {
		name string
		evs  []TestID
	}{{"internal", s.Internal}, {"external", s.External}} {
		if len(q.evs) > c.queue {
			return fmt.Errorf("%d events in the %s queue; the table's queues hold %d (Options.QueueLimit)", len(q.evs), q.name, c.queue)
		}
		for i, ev := range q.evs {
			if !t.isMessage(ev) {
				return fmt.Errorf("%s queue, event %d: %s is not a message test of the table", q.name, i, ev)
			}
		}
	}
	if len(s.Timers) > c.ntimers {
		return fmt.Errorf("%d pending sends; the table allows %d (Options.TimerLimit)", len(s.Timers), c.ntimers)
	}
	for i, tm := range s.Timers {
		switch {
		case tm.Timer != NoTimer && int(tm.Timer) >= len(c.timers):
			return fmt.Errorf("pending send %d: timer %d is not a timer of the table (it has %d)", i, tm.Timer, len(c.timers))
		case !t.isMessage(tm.Event):
			return fmt.Errorf("pending send %d: event %s is not a message test of the table", i, tm.Event)
		case tm.Due != tm.Due:
			return fmt.Errorf("pending send %d (event %q): its due time is NaN", i, t.testName(tm.Event))
		case i > 0 && tm.Due < s.Timers[i-1].Due:
			return fmt.Errorf("pending send %d (event %q): due at %v, before the send listed before it (%v): list them in firing order", i, t.testName(tm.Event), tm.Due, s.Timers[i-1].Due)
		}
	}
	return nil
}

// fillHistory checks the history records of a snapshot and sets them in r.
func (t *Table) fillHistory(r *run, hist []Recorded) error {
	c := t.sc
	for i, h := range hist {
		if !t.HasState(h.History) || c.nodes[h.History].hist < 0 {
			return fmt.Errorf("history record %d: %s is not a history state", i, t.quoteState(h.History))
		}
		slot := int(c.nodes[h.History].hist)
		if setHas(r.recorded, StateID(slot)) {
			return fmt.Errorf("history state %s: recorded twice", t.quoteState(h.History))
		}
		p := c.nodes[h.History].parent
		deep := c.nodes[h.History].kind == KindDeepHistory
		rec := r.hist[slot*c.words : (slot+1)*c.words]
		for _, q := range h.States {
			switch {
			case !t.HasState(q) || !c.isBelow(q, p):
				return fmt.Errorf("history state %s: recorded %s, which is not inside its parent %s", t.quoteState(h.History), t.quoteState(q), t.quoteState(p))
			case deep && !setHas(c.atomic, q):
				return fmt.Errorf("deep history state %s: recorded %s, which is not an atomic state", t.quoteState(h.History), t.quoteState(q))
			case !deep && (c.nodes[q].parent != p || c.nodes[q].hist >= 0):
				return fmt.Errorf("history state %s: recorded %s, which is not a child state of %s", t.quoteState(h.History), t.quoteState(q), t.quoteState(p))
			}
			setAdd(rec, q)
		}
		var err error
		if deep {
			err = t.checkBelow(r.exit, rec, p)
		} else {
			err = t.checkChildren(rec, p)
		}
		if err != nil {
			return fmt.Errorf("history state %s: what it recorded is no configuration of %s: %w", t.quoteState(h.History), t.quoteState(p), err)
		}
		setAdd(r.recorded, StateID(slot))
	}
	return nil
}

// fillStack checks the stack of a snapshot and its saved configurations,
// and sets them in stack and r.
func (t *Table) fillStack(r *run, stack *[MaxStack]StateID, s *Snapshot) error {
	c := t.sc
	switch {
	case len(s.Stack) > t.stackLimit():
		return fmt.Errorf("a stack of %d states; the table's stack limit is %d", len(s.Stack), t.stackLimit())
	case len(s.Stack) > 0 && !c.stack:
		return fmt.Errorf("a stack of %d states, but no transition of the table pushes", len(s.Stack))
	case len(s.Saved) != len(s.Stack):
		return fmt.Errorf("%d saved configurations for a stack of %d states (one each)", len(s.Saved), len(s.Stack))
	}
	w := c.words
	for i, q := range s.Stack {
		top := q
		if q == AnyState {
			top = c.root()
		} else if !t.HasState(q) || c.nodes[q].hist >= 0 {
			return fmt.Errorf("stack entry %d: %s is not a state a transition leaves", i, t.quoteState(q))
		}
		atomic := top != c.root() && setHas(c.atomic, top)
		if atomic && (len(s.Saved[i]) != 1 || s.Saved[i][0] != top) {
			return fmt.Errorf("stack entry %d: atomic state %s saved with %d states; it saves itself alone", i, t.quoteState(q), len(s.Saved[i]))
		}
		saved := r.saved[i*w : (i+1)*w]
		for _, x := range s.Saved[i] {
			if !t.HasState(x) || !setHas(c.atomic, x) {
				return fmt.Errorf("stack entry %d (%s): saved %s, which is not an atomic state", i, t.quoteState(q), t.quoteState(x))
			}
			if top != c.root() && top != x && !c.isBelow(x, top) {
				return fmt.Errorf("stack entry %d (%s): saved %s, which is not inside it", i, t.quoteState(q), t.quoteState(x))
			}
			setAdd(saved, x)
		}
		if !atomic {
			if err := t.checkBelow(r.exit, saved, top); err != nil {
				return fmt.Errorf("stack entry %d (%s): what it saved is no configuration of it: %w", i, t.quoteState(q), err)
			}
		}
		stack[i] = top
	}
	return nil
}

// fillConf checks the configuration of a snapshot (its Done, State and
// Active) and sets it in the agent, whose history is set.
func (a *Agent[E]) fillConf(s *Snapshot) error {
	t, c, r := a.table, a.table.sc, a.sc
	root := c.root()
	topFinal := func(q StateID) bool { return c.nodes[q].kind == KindFinal && c.nodes[q].parent == root }
	switch {
	case !t.HasState(s.State):
		return fmt.Errorf("state %s is not a state of the table (it has %d)", s.State, len(t.states))
	case s.Done && len(s.Active) > 0:
		return fmt.Errorf("a done agent with %d active states (one that is done has none)", len(s.Active))
	case s.Done && !topFinal(s.State):
		return fmt.Errorf("done in %s, which is not a final state at the top", t.quoteState(s.State))
	case s.Done:
		r.final = s.State
		return nil
	case len(s.Active) == 0 && topFinal(s.State):
		return fmt.Errorf("nothing active, and %s is a final state at the top: an agent there is done", t.quoteState(s.State))
	case len(s.Active) == 0:
		// Enter State as a transition from outside would, without actions.
		clear(r.enter)
		clear(r.dflt)
		clear(r.hdflt)
		a.addDescendants(s.State)
		a.addAncestors(s.State, root)
		copy(r.conf, r.enter)
		clear(r.enter)
		clear(r.dflt)
		clear(r.hdflt)
		a.represent()
		return nil
	}
	for _, q := range s.Active {
		if !t.HasState(q) {
			return fmt.Errorf("active state %s is not a state of the table (it has %d)", q, len(t.states))
		}
		setAdd(r.conf, q)
	}
	if err := t.checkTree(r.conf, root); err != nil {
		return fmt.Errorf("the configuration: %w", err)
	}
	a.represent()
	if a.state != s.State {
		return fmt.Errorf("state %s, but the configuration's first active atomic state is %s", t.quoteState(s.State), t.quoteState(a.state))
	}
	return nil
}

// checkBelow checks that the atomic states of set, with their ancestors
// below top, are a configuration of top, using scratch (a set, left
// empty).
func (t *Table) checkBelow(scratch, set []uint64, top StateID) error {
	c := t.sc
	clear(scratch)
	defer clear(scratch)
	for q := setNext(set, 0); q >= 0; q = setNext(set, q+1) {
		for p := StateID(q); p != top && p != NoState; p = c.nodes[p].parent {
			setAdd(scratch, p)
		}
	}
	return t.checkTree(scratch, top)
}

// checkTree checks that set, the states active below top (top itself
// active), is a configuration of top: each state's parent active, one
// active child in each active compound state (and at the top of the
// chart), every region of each active parallel state, no history state.
func (t *Table) checkTree(set []uint64, top StateID) error {
	c := t.sc
	lo, hi := c.below(top)
	for q := setNext(set, lo); q >= 0 && q < hi; q = setNext(set, q+1) {
		nd := &c.nodes[q]
		if nd.hist >= 0 {
			return fmt.Errorf("history state %s is active", t.quoteState(StateID(q)))
		}
		if p := nd.parent; p != top && !setHas(set, p) {
			return fmt.Errorf("state %s is active, but not its parent %s", t.quoteState(StateID(q)), t.quoteState(p))
		}
	}
	if err := t.checkChildren(set, top); err != nil {
		return err
	}
	for q := setNext(set, lo); q >= 0 && q < hi; q = setNext(set, q+1) {
		if err := t.checkChildren(set, StateID(q)); err != nil {
			return err
		}
	}
	return nil
}

// checkChildren checks the active children (members of set) of active
// state p: one of a compound state or of the chart's top, all of a
// parallel state's.
func (t *Table) checkChildren(set []uint64, p StateID) error {
	c := t.sc
	nd := &c.nodes[p]
	kids := c.kids[nd.klo:nd.khi]
	if nd.kind == KindParallel {
		for _, k := range kids {
			if !setHas(set, k) {
				return fmt.Errorf("parallel state %s is active, but not its region %s", t.quoteState(p), t.quoteState(k))
			}
		}
		return nil
	}
	if len(kids) == 0 {
		return nil
	}
	n := 0
	for _, k := range kids {
		if setHas(set, k) {
			n++
		}
	}
	if n != 1 {
		if p == c.root() {
			return fmt.Errorf("%d states active at the top of the chart; one is", n)
		}
		return fmt.Errorf("compound state %s is active with %d active children; one is", t.quoteState(p), n)
	}
	return nil
}

// Remap renumbers the states of s, a snapshot of an agent of an older
// version of a table, through m, a mapping by name to the states of the
// table it will be restored into ([machine.NewMapping]): State, the
// stack, and a statechart's configuration, history and saved
// configurations. A state whose name the new table has is renumbered; a
// state that is gone is replaced as follows, and the agent (as entity) is
// reported once in m.Moved, from the first gone state it was in:
//
//   - A flat agent's State or stack entry that is gone becomes m.Fallback.
//   - A statechart agent whose configuration holds a state that is gone
//     (or which is done in one) is restarted: Active is emptied, Done
//     cleared and State set to m.Fallback, so that [RestoreAgent] puts it
//     in the fallback's default configuration, performing no action.
//   - A statechart agent's stack holding a state that is gone, in an entry
//     or a saved configuration, is emptied.
//   - A history record naming a state that is gone is dropped (the history
//     then enters its default), without a report.
//
// Messages posted, events queued and the events of pending timers are
// renumbered through m's triggers (the tests of the table, by TestID: a
// mapping made by [save.Entry.Mapping] or [machine.MappingBetween] has
// them); those whose trigger is gone, or that m does not map, are dropped.
// A pending timer's TimerID, the name of the send that can cancel it, is
// kept: [RemapAgents], whose save names the timers, renumbers those by
// name.
//
// Lists are sorted again in the new IDs. Markers (NoState, AnyState) are
// kept. Remap allocates only what m.Moved needs.
func (s *Snapshot) Remap(m *machine.Mapping, entity uint64) {
	s.remapStates(m, entity)
	test := func(id TestID) TestID {
		if to, ok := m.Trigger(int32(id)); ok {
			return TestID(to)
		}
		return NoTest
	}
	s.renumberTests(test)
	kept := s.Timers[:0]
	for _, tm := range s.Timers {
		if tm.Event = test(tm.Event); tm.Event != NoTest {
			kept = append(kept, tm)
		}
	}
	s.Timers = kept
}

// renumberTests renumbers the messages posted and the events queued
// through test, dropping those it maps to NoTest.
func (s *Snapshot) renumberTests(test func(TestID) TestID) {
	s.Posted = renumberTests(s.Posted, test)
	slices.Sort(s.Posted)
	s.Internal = renumberTests(s.Internal, test)
	s.External = renumberTests(s.External, test)
}

// remapStates is Remap for the states alone.
func (s *Snapshot) remapStates(m *machine.Mapping, entity uint64) {
	lost := NoState // the first state that is gone, by its old ID
	look := func(q StateID, report bool) (StateID, bool) {
		if q >= NoState {
			return q, true
		}
		if int(q) < len(m.To) && m.To[q] >= 0 {
			return StateID(m.To[q]), true
		}
		if report && lost == NoState {
			lost = q
		}
		return tableState(m.Fallback), false
	}
	if !s.Statechart {
		s.State, _ = look(s.State, true)
		for i, q := range s.Stack {
			s.Stack[i], _ = look(q, true)
		}
		s.reportLost(m, entity, lost)
		return
	}
	kept := true
	for i, q := range s.Active {
		var ok bool
		s.Active[i], ok = look(q, true)
		kept = kept && ok
	}
	q, ok := look(s.State, true)
	if kept && ok {
		s.State = q
		slices.Sort(s.Active)
	} else {
		s.Active, s.Done, s.State = s.Active[:0], false, tableState(m.Fallback)
	}
	hist := s.History[:0]
	for _, rec := range s.History {
		h, ok := look(rec.History, false)
		for i, q := range rec.States {
			var in bool
			rec.States[i], in = look(q, false)
			ok = ok && in
		}
		if ok {
			rec.History = h
			slices.Sort(rec.States)
			hist = append(hist, rec)
		}
	}
	s.History = hist
	slices.SortFunc(s.History, func(a, b Recorded) int { return cmp.Compare(a.History, b.History) })
	kept = true
	for i, q := range s.Stack {
		var ok bool
		s.Stack[i], ok = look(q, true)
		kept = kept && ok
	}
	for _, saved := range s.Saved {
		for i, q := range saved {
			var ok bool
			saved[i], ok = look(q, true)
			kept = kept && ok
		}
		slices.Sort(saved)
	}
	if !kept {
		s.Stack, s.Saved = s.Stack[:0], s.Saved[:0]
	}
	s.reportLost(m, entity, lost)
}

// reportLost records in m.Moved that entity was in state lost (an old
// ID), unless lost is NoState.
func (s *Snapshot) reportLost(m *machine.Mapping, entity uint64, lost StateID) {
	if lost == NoState {
		return
	}
	m.Moved = append(m.Moved, machine.Moved{Entity: entity, From: m.OldName(machine.StateID(lost)), To: m.Fallback})
}
