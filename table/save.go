package table

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/internal/wire"
	"github.com/fsmforge/fsmforge/machine"
)

// A save of agents ([AppendAgents]) is, in internal/wire's numbers:
//
//	magic        "FSMA"
//	version      1
//	fingerprint  the table's Fingerprint, an unsigned varint
//	states       count, then each state's name, by ID
//	tests        count, then each test: name, value, 1 byte message (0, 1)
//	timers       count, then each timer's name, by ID
//	agents       count, then each agent's snapshot in binary (format 1,
//	             Snapshot.AppendBinary), in the order of the slice
//
// The names are what loading into a changed table maps by ([RemapAgents]).
// A save of no agents has fingerprint 0 and no names, and loads into any
// table.

// saveMagic starts a save of agents.
const saveMagic = "FSMA"

// AppendAgents appends a save of agents, which must all run one table, to
// b and returns it: a header that names the table's states, tests and
// timers and carries its [Table.Fingerprint], then each agent's snapshot
// in its binary form ([Snapshot.AppendBinary]). [RestoreAgents] loads it
// into the same table, [RemapAgents] into a changed one. The game saves
// its entities' own data beside it.
//
// It returns an error, and b unchanged, if an agent is a zero agent or
// runs another table than the first. It allocates only as b grows: for a
// flat table, about 4 bytes per agent between updates (a few more with
// messages posted or a stack), which it reserves at once; for a statechart,
// a snapshot's worth per agent, which it takes one at a time, reusing one
// [Snapshot].
func AppendAgents[E any](b []byte, agents []Agent[E]) ([]byte, error) {
	start := len(b)
	b = append(b, saveMagic...)
	b = wire.AppendUint(b, 1)
	if len(agents) == 0 {
		return append(b, 0, 0, 0, 0, 0), nil // fingerprint, states, tests, timers, agents
	}
	t := agents[0].table
	if t == nil {
		return b[:start], errors.New("table: AppendAgents: agent 0 has no table (a zero Agent)")
	}
	b = t.appendHeader(b)
	b = wire.AppendUint(b, uint64(len(agents)))
	if t.sc == nil {
		b = slices.Grow(b, 4*len(agents))
	}
	var s Snapshot
	for i := range agents {
		a := &agents[i]
		switch {
		case a.table == nil:
			return b[:start], fmt.Errorf("table: AppendAgents: agent %d has no table (a zero Agent)", i)
		case a.table != t:
			return b[:start], fmt.Errorf("table: AppendAgents: agent %d runs another table (%q) than agent 0 (%q): save each table's agents apart",
				i, a.table.name, t.name)
		case a.status&statusChart == 0:
			b = a.appendFlat(b)
		default:
			a.Snapshot(&s)
			b = s.appendBinary(b)
		}
	}
	return b, nil
}

// appendHeader appends the fingerprint and the names of a save of t's
// agents.
func (t *Table) appendHeader(b []byte) []byte {
	b = wire.AppendUint(b, t.Fingerprint())
	b = wire.AppendUint(b, uint64(len(t.states)))
	for i := range t.states {
		b = wire.AppendString(b, t.states[i].name)
	}
	b = wire.AppendUint(b, uint64(len(t.tests)))
	for _, tt := range t.tests {
		b = wire.AppendString(b, tt.Name)
		b = wire.AppendString(b, tt.Value)
		b = wire.AppendBool(b, tt.Message)
	}
	b = wire.AppendUint(b, uint64(t.NumTimers()))
	for id := range t.NumTimers() {
		b = wire.AppendString(b, t.TimerName(TimerID(id)))
	}
	return b
}

// appendFlat appends the binary form of a flat agent's snapshot, without
// making one.
func (a *Agent[E]) appendFlat(b []byte) []byte {
	flags := byte(0)
	if a.status&statusDone != 0 {
		flags = snapDone
	}
	b = append(b, flags)
	b = appendState(b, a.state)
	b = wire.AppendUint(b, uint64(a.depth))
	for _, q := range a.stack[:a.depth] {
		b = appendState(b, q)
	}
	if a.flags == 0 {
		return append(b, 0)
	}
	n := 0
	for _, slot := range a.table.slot {
		if slot != noSlot && a.flags>>(slot&63)&1 != 0 {
			n++
		}
	}
	b = wire.AppendUint(b, uint64(n))
	for id, slot := range a.table.slot {
		if slot != noSlot && a.flags>>(slot&63)&1 != 0 {
			b = wire.AppendUint(b, uint64(id))
		}
	}
	return b
}

// saveHeader is what a save of agents says before its agents.
type saveHeader struct {
	fingerprint uint64
	states      []string
	tests       []Test
	timers      []string
	agents      int
}

// readHeader reads a save's header.
func readHeader(r *wire.Reader) saveHeader {
	var h saveHeader
	if magic := r.Fixed(len(saveMagic)); r.Err() == nil && string(magic) != saveMagic {
		r.Fail("not a save of agents (it starts %q, not %q)", magic, saveMagic)
	}
	if v := r.Uint(); r.Err() == nil && v != 1 {
		r.Fail("a save of format %d; this package reads format 1", v)
	}
	h.fingerprint = r.Uint()
	h.states = make([]string, r.Count(1, "state names"))
	for i := range h.states {
		h.states[i] = r.String()
	}
	h.tests = make([]Test, r.Count(3, "tests"))
	for i := range h.tests {
		h.tests[i] = Test{Name: r.String(), Value: r.String(), Message: r.Bool()}
	}
	h.timers = make([]string, r.Count(1, "timer names"))
	for i := range h.timers {
		h.timers[i] = r.String()
	}
	h.agents = r.Count(4, "agents")
	return h
}

// SavedStates returns the names of the states of the table a save of
// agents ([AppendAgents]) was made with, by ID, and its fingerprint:
// what [machine.NewMapping] takes to map them to a changed table's, for
// [RemapAgents]. It returns an error if b does not start as a save does.
func SavedStates(b []byte) (names []string, fingerprint uint64, err error) {
	r := wire.NewReader(b)
	h := readHeader(r)
	if err := r.Err(); err != nil {
		return nil, 0, fmt.Errorf("table: SavedStates: %w", err)
	}
	return h.states, h.fingerprint, nil
}

// RestoreAgents loads a save of agents made by [AppendAgents] into t: it
// appends the agents, in the order saved, to dst and returns it, each
// running t for entity entity(i) (i its index in the save) in the state
// it was saved in, performing no action, as [RestoreAgent] does.
//
// The save must have been made with t or an identical table: it returns
// an error if the save's fingerprint is not t's (load it with
// [RemapAgents] instead) or its timers are not t's. It returns an error,
// with dst as it was given (its spare capacity may have been written), if
// b is not a save, is damaged, or holds an agent RestoreAgent refuses;
// the error gives the agent's index.
//
// It allocates the save's names (a few allocations per save), dst when it
// must grow, and, for a statechart table, each agent's fixed memory, as
// NewAgent does; a flat agent costs a few tens of nanoseconds.
func RestoreAgents[E any](t *Table, b []byte, entity func(i int) E, dst []Agent[E]) ([]Agent[E], error) {
	return loadAgents(t, b, nil, entity, dst, "RestoreAgents")
}

// RemapAgents is [RestoreAgents] for a save made with an older version of
// t's table, whose states, tests or timers may have been added, removed,
// renamed or renumbered since: each agent's snapshot is renumbered by
// [Snapshot.Remap] through m, a mapping from the save's states
// ([SavedStates]) to t's, made with [machine.NewMapping]; its messages,
// queued events and pending sends are renumbered by the tests' and
// timers' names, and those whose test or timer is gone (or no longer a
// message) are dropped. The save's fingerprint is not checked.
//
// An agent whose state is gone goes to m's fallback (see Snapshot.Remap).
// A statechart agent whose configuration, history or stack no longer fits
// t (a state now nested elsewhere, a region added) is put in the default
// configuration of the fallback, with no history and an empty stack,
// performing no action. Each is reported in m.Moved, once, with its index
// in the save as its entity. A save of a flat table does not load into a
// statechart table, nor the other way round.
func RemapAgents[E any](t *Table, b []byte, m *machine.Mapping, entity func(i int) E, dst []Agent[E]) ([]Agent[E], error) {
	if m == nil {
		return dst, errors.New("table: RemapAgents: no mapping (make one with machine.NewMapping(names, nil, &desc), names from SavedStates; tests and timers are mapped by the names the save holds)")
	}
	return loadAgents(t, b, m, entity, dst, "RemapAgents")
}

// loadAgents is RestoreAgents, and RemapAgents when m is not nil.
func loadAgents[E any](t *Table, b []byte, m *machine.Mapping, entity func(i int) E, dst []Agent[E], fn string) ([]Agent[E], error) {
	name := ""
	if t != nil {
		name = t.name
	}
	fail := func(format string, args ...any) ([]Agent[E], error) {
		return dst, fmt.Errorf("table: %s (table %q): "+format, append([]any{fn, name}, args...)...)
	}
	if t == nil || len(t.states) == 0 {
		return fail("the table has no states (make it with Builder.Build or decode it)")
	}
	r := wire.NewReader(b)
	h := readHeader(r)
	if err := r.Err(); err != nil {
		return fail("%w", err)
	}
	var tests []TestID   // old test to new, NoTest when gone
	var timers []TimerID // old timer to new
	switch {
	case h.agents == 0:
	case m != nil:
		tests, timers = t.renumbering(&h)
	case h.fingerprint != t.Fingerprint():
		return fail("the save was made with another table (fingerprint %#x, the table's is %#x): load it with RemapAgents", h.fingerprint, t.Fingerprint())
	case !slices.Equal(h.timers, t.sc.timerNames()):
		return fail("the save's timers %q are not the table's %q: load it with RemapAgents", h.timers, t.sc.timerNames())
	}
	start := len(dst)
	moved := 0 // m.Moved as it was: an error takes back what this load added
	if m != nil {
		moved = len(m.Moved)
	}
	fail = func(format string, args ...any) ([]Agent[E], error) {
		if m != nil {
			m.Moved = m.Moved[:moved]
		}
		return dst, fmt.Errorf("table: %s (table %q): "+format, append([]any{fn, name}, args...)...)
	}
	dst = slices.Grow(dst, h.agents)
	var s Snapshot
	for i := range h.agents {
		s.read(r)
		if err := r.Err(); err != nil {
			dst = dst[:start]
			return fail("agent %d: %w", i, err)
		}
		var err error
		dst = dst[:start+i+1]
		if m != nil {
			err = remapInto(&dst[start+i], t, entity(i), &s, m, tests, timers, uint64(i), h.states)
		} else {
			err = restore(&dst[start+i], t, entity(i), &s)
		}
		if err != nil {
			dst = dst[:start]
			return fail("agent %d: %w", i, err)
		}
	}
	if err := r.Done(); err != nil {
		dst = dst[:start]
		return fail("%w", err)
	}
	return dst, nil
}

// timerNames returns the names of the timers, by ID: none for a flat
// table (c nil).
func (c *statechart) timerNames() []string {
	if c == nil {
		return nil
	}
	return c.timers
}

// renumbering maps a save's tests and timers to t's by name: NoTest for a
// test that is gone or no longer a message (or no longer polled), NoTimer
// for a timer that is gone.
func (t *Table) renumbering(h *saveHeader) ([]TestID, []TimerID) {
	tests := make([]TestID, len(h.tests))
	for i, old := range h.tests {
		tests[i] = NoTest
		if id, ok := t.LookupTest(old.Name, old.Value); ok && t.tests[id].Message == old.Message {
			tests[i] = id
		}
	}
	timers := make([]TimerID, len(h.timers))
	for i, old := range h.timers {
		timers[i] = NoTimer
		for id := range t.NumTimers() {
			if t.TimerName(TimerID(id)) == old {
				timers[i] = TimerID(id)
				break
			}
		}
	}
	return tests, timers
}

// remapInto is restore for a snapshot of an older table: s is renumbered
// through m (states), tests and timers, then restored into *a; a
// statechart agent whose configuration no longer fits is restarted in the
// fallback.
func remapInto[E any](a *Agent[E], t *Table, e E, s *Snapshot, m *machine.Mapping, tests []TestID, timers []TimerID, entity uint64, old []string) error {
	if s.Statechart != (t.sc != nil) {
		return restore(a, t, e, s) // which says why not
	}
	state := s.State
	s.remapStates(m, entity)
	test := func(id TestID) TestID {
		if int(id) < len(tests) {
			return tests[id]
		}
		return NoTest
	}
	s.renumberTests(test)
	kept := s.Timers[:0]
	for _, tm := range s.Timers {
		if int(tm.Event) >= len(tests) || tests[tm.Event] == NoTest || tm.Timer != NoTimer && (int(tm.Timer) >= len(timers) || timers[tm.Timer] == NoTimer) {
			continue
		}
		tm.Event = tests[tm.Event]
		if tm.Timer != NoTimer {
			tm.Timer = timers[tm.Timer]
		}
		kept = append(kept, tm)
	}
	s.Timers = kept
	err := restore(a, t, e, s)
	if err == nil || !s.Statechart || len(s.Active) == 0 && len(s.History) == 0 && len(s.Stack) == 0 {
		return err
	}
	// The configuration, history or stack no longer fits: start again in
	// the fallback.
	s.Active, s.History, s.Stack, s.Saved, s.Done = s.Active[:0], s.History[:0], s.Stack[:0], s.Saved[:0], false
	s.State = tableState(m.Fallback)
	if err := restore(a, t, e, s); err != nil {
		return err
	}
	from := state.String()
	if int(state) < len(old) {
		from = old[state]
	}
	if n := len(m.Moved); n == 0 || m.Moved[n-1].Entity != entity {
		m.Moved = append(m.Moved, machine.Moved{Entity: entity, From: from, To: m.Fallback})
	}
	return nil
}

// renumberTests renumbers list in place through test, dropping the tests
// that are gone (NoTest).
func renumberTests(list []TestID, test func(TestID) TestID) []TestID {
	kept := list[:0]
	for _, id := range list {
		if to := test(id); to != NoTest {
			kept = append(kept, to)
		}
	}
	return kept
}
