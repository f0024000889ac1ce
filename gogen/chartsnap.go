package gogen

// chartSnapshot is a generated statechart's Snapshot: the type,
// Machine.Snapshot, RestoreMachine and the binary form, that of
// table.Snapshot (format 1). Its names are replaced as chartRuntime's
// (see chartNames), and its «if stack» sections kept or dropped as
// chartRuntime's (see chartSections).
const chartSnapshot = `
// «Snapshot» is «aMachine»'s state as plain data, to save a game, show in
// a viewer, or restore with «RestoreMachine». It holds what table.Snapshot
// holds for a statechart agent of the same table, in the file's types, and
// its binary form (AppendBinary) is table.Snapshot's byte for byte: a save
// made by either runtime restores into the other. Every list of states is
// ascending.
type «Snapshot» struct {
	// State is the state the machine shows: its first active atomic state
	// in document order, or the final state it ended in; «NoState» for a
	// machine not started.
	State «State»
	// Done is true once the machine ended in a top-level final state.
	Done bool
«if stack»
	// Stack holds the sources of the transitions that pushed and were not
	// returned to, bottom first: a state, or «AnyState» for an any-state
	// transition's (which pushes the whole configuration).
	Stack []«State»
«end»
	// Active holds the active states: the atomic ones with their compound
	// and parallel ancestors. It is empty for a machine that is done or
	// not started.
	Active []«State»
	// History holds, for each history state that has recorded (ascending
	// by ID), the states it recorded.
	History []«Recorded»
	// Internal and External hold the events waiting in the internal and
	// in the external queue, the next to be handled first.
	Internal, External []«Test»
	// Timers holds the pending sends in the order they fire: by due time,
	// then in the order they were sent.
	Timers []«PendingTimer»
	// Now is the game time last given to SetTime.
	Now float64
«if stack»
	// Saved holds, for each entry of Stack, the atomic states that were
	// active in it when it was pushed: what a return enters again.
	Saved [][]«State»
«end»
}

// «Recorded» is what a history state recorded when its parent was last
// left: the parent's active children (a shallow history), or the atomic
// states active inside the parent (a deep history).
type «Recorded» struct {
	History «State»   // the history state
	States  []«State» // what it recorded, ascending
}

// «PendingTimer» is a send waiting for its time: Event joins the external
// queue once the game time reaches Due. Timer is the timer a cancel names,
// or «NoTimer».
type «PendingTimer» struct {
	Timer «Timer»
	Event «Test»
	Due   float64
}

// Snapshot fills s with the machine's state, reusing the capacity of its
// slices and of the slices in them, so that taking snapshots into the same
// value allocates nothing once it has grown. A zero machine gives State
// «NoState» and empty lists.
func (m *«Machine») Snapshot(s *«Snapshot») {
	s.State, s.Done, s.Now = m.State(), m.Done(), m.now
	s.Active = «p»AppendSet(s.Active[:0], m.conf[:])
	s.History = s.History[:0]
	for _, h := range «p»HistStates {
		slot := int(«p»Nodes[h].hist)
		if !«p»Has(m.recorded[:], slot) {
			continue
		}
		s.History = «p»Extend(s.History)
		r := &s.History[len(s.History)-1]
		r.History = «State»(h)
		r.States = «p»AppendSet(r.States[:0], m.hist[slot*«p»Words:(slot+1)*«p»Words])
	}
	s.Internal = m.internal.appendTo(s.Internal[:0])
	s.External = m.external.appendTo(s.External[:0])
	s.Timers = s.Timers[:0]
	for _, t := range m.timers[:m.ntimers] {
		s.Timers = append(s.Timers, «PendingTimer»{Timer: «Timer»(t.id), Event: t.event, Due: t.due})
	}
	«p»SortTimers(s.Timers)
«if stack»
	s.Stack = append(s.Stack[:0], m.stack[:m.depth]...)
	s.Saved = s.Saved[:0]
	for i := range int(m.depth) {
		s.Saved = «p»Extend(s.Saved)
		s.Saved[i] = «p»AppendSet(s.Saved[i][:0], m.saved[i*«p»Words:(i+1)*«p»Words])
	}
«end»
}

// «p»AppendSet appends the members of set to dst, ascending.
func «p»AppendSet(dst []«State», set []uint64) []«State» {
	for q := «p»Next(set, 0); q >= 0; q = «p»Next(set, q+1) {
		dst = append(dst, «State»(q))
	}
	return dst
}

// «p»Extend returns list one element longer, reusing the element (and
// the capacity of its slices) beyond its length when there is room.
func «p»Extend[T any](list []T) []T {
	if len(list) < cap(list) {
		return list[:len(list)+1]
	}
	var zero T
	return append(list, zero)
}

// «p»SortTimers sorts pending sends, given in the order they were sent,
// into the order they fire: a stable sort by due time, NaN first as
// cmp.Compare orders it (table.Agent's order).
func «p»SortTimers(ts []«PendingTimer») {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0; j-- {
			x, y := ts[j].Due, ts[j-1].Due
			if !(x < y || x != x && y == y) {
				break
			}
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// appendTo appends the queue's events to dst, the next to be popped first.
func (q *«p»Queue) appendTo(dst []«Test») []«Test» {
	for i := range q.size {
		dst = append(dst, q.buf[(q.head+i)%len(q.buf)])
	}
	return dst
}

// «RestoreMachine» returns a machine in the state s describes, performing
// no action: for loading a saved game (the game restores its entity's own
// data). The machine goes on exactly as the one the snapshot was taken
// from would have. Lists of states are sets here: their order does not
// matter (the binary form requires them ascending).
//
// It checks all of s first, as table.RestoreAgent does, and returns an
// error and a zero machine if s is nil or anything does not fit: a state,
// test or timer that is not one of the table's; a queue or the timers
// holding more than the table allows, or a test that is not an event (a
// message test); a due time or Now that is NaN, or sends out of firing
// order; a history record, saved stack entry or configuration that is not
// one the chart can be in (every active state's parent active, one active
// child of an active compound state and of the chart, every region of an
// active parallel state, no history state active); a State that is not
// the first active atomic state; or a machine done other than in a
// top-level final state with nothing active.
//
// A snapshot with no active state that is not done (as table's
// Snapshot.Remap leaves one whose configuration lost a state) restores into
// the configuration that entering State enters: State with its ancestors
// and their default descendants (histories included), as a transition to
// State would, but performing no action and raising no event. The pending
// sends are numbered in the order given, and the next send after them, so
// that they fire in the order they would have. «RestoreMachine» allocates
// nothing unless it returns an error.
func «RestoreMachine»(s *«Snapshot») («Machine», error) {
	if s == nil {
		return «Machine»{}, errors.New(«ctx» + "«RestoreMachine»: no snapshot (nil)")
	}
	m := «Machine»{status: «ready», final: «NoState», now: s.Now}
	if msg := m.restore(s); msg != "" {
		return «Machine»{}, errors.New(«ctx» + "«RestoreMachine»: " + msg)
	}
	return m, nil
}

// restore sets the machine from s, checking it; it returns what is wrong
// with s, or "".
func (m *«Machine») restore(s *«Snapshot») string {
	if msg := m.restoreLists(s); msg != "" {
		return msg
	}
	if msg := m.restoreHistory(s.History); msg != "" {
		return msg
	}
«if stack»
	if msg := m.restoreStack(s); msg != "" {
		return msg
	}
«end»
	return m.restoreConf(s)
}

// «p»Name names state s in a message: its name quoted, or "the chart" for
// the root.
func «p»Name(s int32) string {
	if s == «p»Root {
		return "the chart"
	}
	return strconv.Quote(«State»(s).String())
}

// restoreLists sets the time, the queues and the pending sends.
func (m *«Machine») restoreLists(s *«Snapshot») string {
	if s.Now != s.Now {
		return "the time (Now) is NaN"
	}
	if msg := m.internal.restore(s.Internal, "internal"); msg != "" {
		return msg
	}
	if msg := m.external.restore(s.External, "external"); msg != "" {
		return msg
	}
	return m.restoreTimers(s.Timers)
}

// restore fills the queue with events, the next to be popped first.
func (q *«p»Queue) restore(events []«Test», name string) string {
	if len(events) > len(q.buf) {
		return strconv.Itoa(len(events)) + " events in the " + name + " queue; the table's queues hold " + strconv.Itoa(len(q.buf))
	}
	for i, e := range events {
		if !«p»IsEvent(e) {
			return name + " queue, event " + strconv.Itoa(i) + ": " + strconv.Quote(e.String()) + " is not an event (a message test) of the table"
		}
		q.buf[i] = e
	}
	q.head, q.size = 0, len(events)
	return ""
}

// restoreTimers sets the pending sends, numbering them in order.
func (m *«Machine») restoreTimers(list []«PendingTimer») string {
	if len(list) > len(m.timers) {
		return strconv.Itoa(len(list)) + " pending sends; the table allows " + strconv.Itoa(len(m.timers))
	}
	for i, t := range list {
		at := func() string { return "pending send " + strconv.Itoa(i) + ": " }
		switch {
		case t.Timer >= «NumTimers» && t.Timer != «NoTimer»:
			return at() + t.Timer.String() + " is not a timer of the table"
		case !«p»IsEvent(t.Event):
			return at() + strconv.Quote(t.Event.String()) + " is not an event (a message test) of the table"
		case t.Due != t.Due:
			return at() + "its due time is NaN"
		case i > 0 && t.Due < list[i-1].Due:
			return at() + "due before the send listed before it: list them in firing order"
		}
		m.timers[i] = «p»Timer{due: t.Due, seq: uint64(i), event: t.Event, id: uint16(t.Timer)}
	}
	m.ntimers, m.seq = len(list), uint64(len(list))
	return ""
}

// restoreHistory sets what the history states recorded.
func (m *«Machine») restoreHistory(list []«Recorded») string {
	for i, r := range list {
		h := r.History
		if int(h) >= «NumStates» || «p»Nodes[h].hist < 0 {
			return "history record " + strconv.Itoa(i) + ": " + strconv.Quote(h.String()) + " is not a history state"
		}
		nd := &«p»Nodes[h]
		at := func() string { return "history state " + «p»Name(int32(h)) + ": " }
		slot := int(nd.hist)
		if «p»Has(m.recorded[:], slot) {
			return at() + "recorded twice"
		}
		rec := m.hist[slot*«p»Words : (slot+1)*«p»Words]
		deep := nd.kind == «p»KindDeepHistory
		for _, q := range r.States {
			switch {
			case int(q) >= «NumStates» || !«p»IsBelow(int32(q), nd.parent):
				return at() + "recorded " + strconv.Quote(q.String()) + ", which is not inside its parent " + «p»Name(nd.parent)
			case deep && !«p»Has(«p»Atomic[:], int(q)):
				return at() + "recorded " + «p»Name(int32(q)) + ", which is not an atomic state"
			case !deep && («p»Nodes[q].parent != nd.parent || «p»Nodes[q].hist >= 0):
				return at() + "recorded " + «p»Name(int32(q)) + ", which is not a child state of " + «p»Name(nd.parent)
			}
			«p»Add(rec, int(q))
		}
		msg := ""
		if deep {
			msg = m.checkBelow(rec, nd.parent)
		} else {
			msg = «p»CheckChildren(rec, nd.parent)
		}
		if msg != "" {
			return at() + "what it recorded is no configuration of " + «p»Name(nd.parent) + ": " + msg
		}
		«p»Add(m.recorded[:], slot)
	}
	return ""
}
«if stack»

// restoreStack sets the stack and the states saved with its entries.
func (m *«Machine») restoreStack(s *«Snapshot») string {
	switch {
	case len(s.Stack) > «StackLimit»:
		return "a stack of " + strconv.Itoa(len(s.Stack)) + " states; the table's stack limit is " + strconv.Itoa(«StackLimit»)
	case len(s.Saved) != len(s.Stack):
		return strconv.Itoa(len(s.Saved)) + " saved configurations for a stack of " + strconv.Itoa(len(s.Stack)) + " states (one each)"
	}
	for i, q := range s.Stack {
		top := int32(«p»Root)
		if q != «AnyState» {
			if int(q) >= «NumStates» || «p»Nodes[q].hist >= 0 {
				return "stack entry " + strconv.Itoa(i) + ": " + strconv.Quote(q.String()) + " is not a state a transition leaves"
			}
			top = int32(q)
		}
		at := func() string {
			if top == «p»Root {
				return "stack entry " + strconv.Itoa(i) + ": "
			}
			return "stack entry " + strconv.Itoa(i) + " (" + «p»Name(top) + "): "
		}
		saved := m.saved[i*«p»Words : (i+1)*«p»Words]
		for _, x := range s.Saved[i] {
			if int(x) >= «NumStates» || !«p»Has(«p»Atomic[:], int(x)) {
				return at() + "saved " + strconv.Quote(x.String()) + ", which is not an atomic state"
			}
			if top != «p»Root && int32(x) != top && !«p»IsBelow(int32(x), top) {
				return at() + "saved " + «p»Name(int32(x)) + ", which is not inside it"
			}
			«p»Add(saved, int(x))
		}
		if top != «p»Root && «p»Has(«p»Atomic[:], int(top)) {
			if len(s.Saved[i]) != 1 || s.Saved[i][0] != q {
				return at() + "an atomic state saved with " + strconv.Itoa(len(s.Saved[i])) + " states; it saves itself alone"
			}
		} else if msg := m.checkBelow(saved, top); msg != "" {
			return at() + "what it saved is no configuration of it: " + msg
		}
		m.stack[i] = q
	}
	m.depth = uint8(len(s.Stack))
	return ""
}
«end»

// restoreConf sets the configuration from s.Done, s.State and s.Active;
// the history is set.
func (m *«Machine») restoreConf(s *«Snapshot») string {
	q := s.State
	if int(q) >= «NumStates» {
		return "state " + q.String() + " is not a state of the table (it has " + strconv.Itoa(«NumStates») + ")"
	}
	topFinal := «p»Nodes[q].kind == «p»KindFinal && «p»Nodes[q].parent == «p»Root
	switch {
	case s.Done && len(s.Active) > 0:
		return "done, with " + strconv.Itoa(len(s.Active)) + " active states (a machine that is done has none)"
	case s.Done && !topFinal:
		return "done in " + «p»Name(int32(q)) + ", which is not a final state at the top"
	case s.Done:
		m.final, m.state = q, q
		m.status |= «done»
		return ""
	case len(s.Active) == 0 && topFinal:
		return "nothing active, and " + «p»Name(int32(q)) + " is a final state at the top: a machine there is done"
	case len(s.Active) == 0:
		// Enter State as a transition from outside would, without actions.
		m.addDescendants(int32(q))
		m.addAncestors(int32(q), «p»Root)
		copy(m.conf[:], m.enter[:])
		clear(m.enter[:])
		clear(m.dflt[:])
		clear(m.hdflt[:])
		m.represent()
		return ""
	}
	for _, a := range s.Active {
		if int(a) >= «NumStates» {
			return "active state " + a.String() + " is not a state of the table (it has " + strconv.Itoa(«NumStates») + ")"
		}
		«p»Add(m.conf[:], int(a))
	}
	if msg := «p»CheckTree(m.conf[:], «p»Root); msg != "" {
		return "the configuration: " + msg
	}
	m.represent()
	if m.state != q {
		return "state " + «p»Name(int32(q)) + ", but the configuration's first active atomic state is " + «p»Name(int32(m.state))
	}
	return ""
}

// checkBelow checks that the atomic states of set, with their ancestors
// below top, are a configuration of top, using m.exit as scratch (it is
// left empty).
func (m *«Machine») checkBelow(set []uint64, top int32) string {
	scratch := m.exit[:]
	for q := «p»Next(set, 0); q >= 0; q = «p»Next(set, q+1) {
		for p := int32(q); p != top && p != «p»Root && p >= 0; p = «p»Nodes[p].parent {
			«p»Add(scratch, int(p))
		}
	}
	msg := «p»CheckTree(scratch, top)
	clear(scratch)
	return msg
}

// «p»CheckTree checks that set, the states active below top (top itself
// active), is a configuration of top: each state's parent active, one
// active child in each active compound state (and at the top of the
// chart), every region of each active parallel state, no history state.
func «p»CheckTree(set []uint64, top int32) string {
	lo, hi := «p»Below(top)
	for q := «p»Next(set, lo); q >= 0 && q < hi; q = «p»Next(set, q+1) {
		nd := &«p»Nodes[q]
		if nd.hist >= 0 {
			return "history state " + «p»Name(int32(q)) + " is active"
		}
		if p := nd.parent; p != top && !«p»Has(set, int(p)) {
			return "state " + «p»Name(int32(q)) + " is active, but not its parent " + «p»Name(p)
		}
	}
	if msg := «p»CheckChildren(set, top); msg != "" {
		return msg
	}
	for q := «p»Next(set, lo); q >= 0 && q < hi; q = «p»Next(set, q+1) {
		if msg := «p»CheckChildren(set, int32(q)); msg != "" {
			return msg
		}
	}
	return ""
}

// «p»CheckChildren checks the active children (members of set) of active
// state p: one of a compound state's or of the chart's top, all of a
// parallel state's.
func «p»CheckChildren(set []uint64, p int32) string {
	nd := &«p»Nodes[p]
	kids := «p»Kids[nd.klo:nd.khi]
	if nd.kind == «p»KindParallel {
		for _, k := range kids {
			if !«p»Has(set, int(k)) {
				return "parallel state " + «p»Name(p) + " is active, but not its region " + «p»Name(k)
			}
		}
		return ""
	}
	if len(kids) == 0 {
		return ""
	}
	n := 0
	for _, k := range kids {
		if «p»Has(set, int(k)) {
			n++
		}
	}
	switch {
	case n == 1:
		return ""
	case p == «p»Root:
		return strconv.Itoa(n) + " states active at the top of the chart; one is"
	}
	return "compound state " + «p»Name(p) + " is active with " + strconv.Itoa(n) + " active children; one is"
}

// AppendBinary appends the snapshot's binary form to b and returns it: the
// bytes table.Snapshot's AppendBinary writes for a statechart agent of the
// same table in the same state (format 1: a flags byte, the state, the
// stack, no posted messages, then the active states, the history, the
// queues, the pending sends, the time and the states saved with the
// stack), so that a save made by either runtime restores into the other.
// It returns an error, and b unchanged, if s cannot be written as it is
// (as table's does): Active, History (by history state), a history
«if stack»
// record's States or an entry of Saved not strictly ascending, or Saved
// not one entry per stack entry. A snapshot taken by Snapshot is always
// written. It allocates only to grow b.
«else»
// record's States not strictly ascending. A snapshot taken by Snapshot is
// always written. It allocates only to grow b.
«end»
func (s *«Snapshot») AppendBinary(b []byte) ([]byte, error) {
	if msg := s.checkOrder(); msg != "" {
		return b, errors.New(«ctx» + "«Snapshot».AppendBinary: " + msg)
	}
	flags := byte(2) // a statechart
	if s.Done {
		flags |= 1
	}
	b = append(b, flags)
	b = binary.AppendVarint(b, s.State.wire())
«if stack»
	b = binary.AppendUvarint(b, uint64(len(s.Stack)))
	for _, q := range s.Stack {
		b = binary.AppendVarint(b, q.wire())
	}
«else»
	b = append(b, 0) // no stack
«end»
	b = append(b, 0) // no posted messages: a statechart queues its events
	b = «p»AppendIDs(b, s.Active)
	b = binary.AppendUvarint(b, uint64(len(s.History)))
	for _, r := range s.History {
		b = binary.AppendUvarint(b, uint64(r.History))
		b = «p»AppendIDs(b, r.States)
	}
	b = «p»AppendIDs(b, s.Internal)
	b = «p»AppendIDs(b, s.External)
	b = binary.AppendUvarint(b, uint64(len(s.Timers)))
	for _, t := range s.Timers {
		b = binary.AppendUvarint(b, uint64(t.Timer))
		b = binary.AppendUvarint(b, uint64(t.Event))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.Due))
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.Now))
«if stack»
	b = binary.AppendUvarint(b, uint64(len(s.Saved)))
	for _, set := range s.Saved {
		b = «p»AppendIDs(b, set)
	}
«else»
	b = append(b, 0) // no stack
«end»
	return b, nil
}

// checkOrder reports what keeps s from being written as it is, or "".
func (s *«Snapshot») checkOrder() string {
	if !«p»Ascending(s.Active) {
		return "Active is not strictly ascending"
	}
	for i, r := range s.History {
		if i > 0 && r.History <= s.History[i-1].History {
			return "History is not strictly ascending by history state"
		}
		if !«p»Ascending(r.States) {
			return "History[" + strconv.Itoa(i) + "].States is not strictly ascending"
		}
	}
«if stack»
	if len(s.Saved) != len(s.Stack) {
		return strconv.Itoa(len(s.Saved)) + " saved configurations for a stack of " + strconv.Itoa(len(s.Stack)) + " states (one each)"
	}
	for i, set := range s.Saved {
		if !«p»Ascending(set) {
			return "Saved[" + strconv.Itoa(i) + "] is not strictly ascending"
		}
	}
«end»
	return ""
}

// «p»Ascending reports whether list is strictly ascending.
func «p»Ascending[T ~uint8 | ~uint16](list []T) bool {
	for i := 1; i < len(list); i++ {
		if list[i] <= list[i-1] {
			return false
		}
	}
	return true
}

// «p»AppendIDs appends the count of ids, then each as an unsigned varint.
func «p»AppendIDs[T ~uint8 | ~uint16](b []byte, ids []T) []byte {
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id))
	}
	return b
}

// UnmarshalBinary sets s from the binary form AppendBinary writes, or
// table.Snapshot's for a statechart agent of the same table, reusing the
// capacity of s's slices. It returns an error, and leaves s unchanged, for
// bytes that are not such a form: truncated, with bytes left over, a flat
// table's snapshot, posted messages, saved states for other than each
«if stack»
// stack entry, or an ID that is not one of the table's (a state, a test,
// a timer). «RestoreMachine» checks the rest.
«else»
// stack entry (this table has no stack), or an ID that is not one of the
// table's (a state, a test, a timer). «RestoreMachine» checks the rest.
«end»
func (s *«Snapshot») UnmarshalBinary(b []byte) error {
	if msg := s.read(b, false); msg != "" {
		return errors.New(«ctx» + "«Snapshot».UnmarshalBinary: " + msg)
	}
	s.read(b, true)
	return nil
}

// read reads the binary form b, into s when fill is set; it returns what
// is wrong with b, or "". UnmarshalBinary reads b twice, so that s is
// changed only when b is right.
func (s *«Snapshot») read(b []byte, fill bool) string {
	r := «reader»{b: b}
	flags := r.flags()
	switch {
	case r.err == "" && flags&2 == 0:
		r.fail("a flat table's snapshot; this table is a statechart")
	case flags&^3 != 0:
		r.fail("unknown flags " + strconv.Itoa(int(flags)))
	}
	state := r.state("state")
	depth := r.count(1, "stack entries")
«if stack»
	if fill {
		s.Stack = s.Stack[:0]
	}
	for range depth {
		q := r.state("stack entry")
		if fill {
			s.Stack = append(s.Stack, q)
		}
	}
«else»
	if depth > 0 {
		r.fail("a stack; this table has none")
	}
«end»
	if r.count(1, "posted messages") > 0 {
		r.fail("posted messages; a statechart queues its events")
	}
	s.Active = «p»ReadIDs(&r, s.Active, «NumStates», "active state", "states", true, fill)
	n := r.count(2, "history states")
	if fill {
		s.History = s.History[:0]
	}
	var skip «Recorded»
	prev := -1
	for range n {
		rec := &skip
		if fill {
			s.History = «p»Extend(s.History)
			rec = &s.History[len(s.History)-1]
		}
		h := r.id("history state", «NumStates», "states")
		if r.err == "" && h <= prev {
			r.fail("history state " + strconv.Itoa(h) + " after " + strconv.Itoa(prev) + ": not ascending")
		}
		prev = h
		rec.History = «State»(h)
		rec.States = «p»ReadIDs(&r, rec.States, «NumStates», "recorded state", "states", true, fill)
	}
	s.Internal = «p»ReadIDs(&r, s.Internal, «NumTests», "internal event", "tests", false, fill)
	s.External = «p»ReadIDs(&r, s.External, «NumTests», "external event", "tests", false, fill)
	n = r.count(10, "pending sends")
	if fill {
		s.Timers = s.Timers[:0]
	}
	for range n {
		t := «PendingTimer»{Timer: r.timer(), Event: «Test»(r.id("event", «NumTests», "tests")), Due: r.float()}
		if fill {
			s.Timers = append(s.Timers, t)
		}
	}
	now := r.float()
	if n = r.count(1, "saved configurations"); n != depth {
		r.fail(strconv.Itoa(n) + " saved configurations for a stack of " + strconv.Itoa(depth))
	}
«if stack»
	if fill {
		s.Saved = s.Saved[:0]
	}
	var skipSet []«State»
	for range n {
		set := &skipSet
		if fill {
			s.Saved = «p»Extend(s.Saved)
			set = &s.Saved[len(s.Saved)-1]
		}
		*set = «p»ReadIDs(&r, *set, «NumStates», "saved state", "states", true, fill)
	}
«end»
	r.finish()
	if fill {
		s.State, s.Done, s.Now = state, flags&1 != 0, now
	}
	return r.err
}

// «p»ReadIDs reads a count then that many unsigned IDs below hi (each an
// item, the table having hi of them; strictly ascending if sorted),
// appended to dst[:0] when fill is set; without fill it returns dst
// unchanged.
func «p»ReadIDs[T ~uint8 | ~uint16](r *«reader», dst []T, hi int, item, of string, sorted, fill bool) []T {
	n := r.count(1, item+"s")
	if fill {
		dst = dst[:0]
	}
	prev := -1
	for range n {
		v := r.id(item, hi, of)
		if sorted && r.err == "" && v <= prev {
			r.fail(item + " " + strconv.Itoa(v) + " after " + strconv.Itoa(prev) + ": not ascending")
		}
		prev = v
		if fill {
			dst = append(dst, T(v))
		}
	}
	return dst
}
`
