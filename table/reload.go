package table

import (
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/fsmforge/fsmforge/machine"
)

// Reload moves agents, which all run one table, onto t, a new version of
// it (the drawing changed while the game runs): each agent keeps its
// state, stack, statechart configuration, history, queued events and
// pending timers, mapped by name (states, tests and timers), and its
// entity. An agent in a state that t no longer has goes to t's initial
// state, or to fallback when it names a state of t, and is reported in
// the mapping's Moved (by its index in agents); a statechart agent whose
// configuration no longer fits t is restarted there too. Messages and
// events whose test is gone are dropped, and so are timers whose event or
// name is gone. Nothing performs an action: the agents are where they
// were.
//
// Reload checks every agent before it changes any: on an error (a zero
// agent, agents of two tables, an agent that cannot be moved) agents are
// left as they were. It must not run while an agent updates. It costs a
// snapshot and a restore per agent, and allocates them. The mapping it
// returns is the one hot reload reports (see package machine's Mapping);
// [PrepareReload] is the same move with the caller's mapping, in two
// steps.
func Reload[E any](t *Table, agents []Agent[E], fallback string) (*machine.Mapping, error) {
	if t == nil || len(t.states) == 0 {
		return nil, errors.New("table: Reload: the new table has no states")
	}
	if len(agents) == 0 {
		d := t.Describe()
		return machine.MappingBetween(&d, &d), nil // nothing to move
	}
	old := agents[0].table
	if old == nil {
		return nil, errors.New("table: Reload: agent 0 has no table (a zero Agent)")
	}
	od, nd := old.Describe(), t.Describe()
	m := machine.MappingBetween(&od, &nd)
	if fallback != "" {
		q, ok := t.LookupState(fallback)
		if !ok {
			return nil, fmt.Errorf("table: Reload: fallback %q is not a state of table %q", fallback, t.Name())
		}
		m.Fallback = machine.StateID(q)
	}
	commit, err := PrepareReload(t, func(yield func(*Agent[E]) bool) {
		for i := range agents {
			if !yield(&agents[i]) {
				return
			}
		}
	}, m)
	if err != nil {
		return nil, err
	}
	commit()
	return m, nil
}

// PrepareReload readies the move of agents, which all run one table, onto
// t, a new version of it, as [Reload] moves them, with the caller's
// mapping m from the old table's states and tests (its Describe) to t's:
// a mapping made by [machine.MappingBetween] and then changed, say to follow a
// state the designer renamed, or to send the agents of a removed state to
// a fallback of the game's choosing. It changes nothing, and returns the
// function that moves the agents, which cannot fail; the agents must not
// change between the two (call both at one frame boundary). The agents
// are numbered in the order agents yields them, as Reload numbers them in
// m.Moved, and agents must yield the same agents to both steps' reads:
// PrepareReload keeps the pointers it was given.
//
// It returns an error, and m.Moved as it was, when an agent is a zero
// Agent, runs another table than the first, or cannot be moved (m does
// not fit the agents' table: a state ID it maps out of t's range).
func PrepareReload[E any](t *Table, agents iter.Seq[*Agent[E]], m *machine.Mapping) (commit func(), err error) {
	if t == nil || len(t.states) == 0 {
		return nil, errors.New("table: PrepareReload: the new table has no states")
	}
	if m == nil {
		return nil, errors.New("table: PrepareReload: no mapping (make one with machine.MappingBetween)")
	}
	var (
		old   *Table
		at    []*Agent[E]
		moved []Agent[E]
		s     Snapshot
	)
	moves := len(m.Moved)
	fail := func(err error) (func(), error) {
		m.Moved = m.Moved[:moves]
		return nil, err
	}
	var h saveHeader
	var tests []TestID
	var timers []TimerID
	for a := range agents {
		i := len(at)
		switch {
		case a == nil || a.table == nil:
			return fail(fmt.Errorf("table: PrepareReload: agent %d has no table (a zero Agent)", i))
		case old == nil:
			old = a.table
			if len(m.To) != len(old.states) {
				return fail(fmt.Errorf("table: PrepareReload: the mapping maps %d states, table %q has %d: make it from the agents' table", len(m.To), old.Name(), len(old.states)))
			}
			for q, name := range m.Old {
				if q < len(old.states) && name != old.states[q].name {
					return fail(fmt.Errorf("table: PrepareReload: the mapping's state %d is %q, table %q's is %q: make the mapping from the agents' table", q, name, old.Name(), old.states[q].name))
				}
			}
			for _, q := range slices.Concat(m.To, []machine.StateID{m.Fallback}) {
				if q != machine.NoState && (q < 0 || int(q) >= len(t.states)) {
					return fail(fmt.Errorf("table: PrepareReload: the mapping maps a state to %d, which table %q does not have (%d states)", q, t.Name(), len(t.states)))
				}
			}
			h = old.header()
			tests, timers = t.renumbering(&h)
			if len(m.Triggers) == len(tests) { // the caller's mapping of tests, as a crowd takes it
				for i, to := range m.Triggers {
					tests[i] = NoTest
					if to >= 0 && int(to) < len(t.tests) {
						tests[i] = TestID(to)
					}
				}
			}
		case a.table != old:
			return fail(fmt.Errorf("table: PrepareReload: agent %d runs another table than agent 0 (%q, not %q): reload each table's agents apart", i, a.table.Name(), old.Name()))
		}
		a.Snapshot(&s)
		moved = append(moved, Agent[E]{})
		if err := remapInto(&moved[i], t, a.entity, &s, m, tests, timers, uint64(i), h.states); err != nil {
			return fail(fmt.Errorf("table: PrepareReload (table %q onto %q): agent %d: %w", old.Name(), t.Name(), i, err))
		}
		if o, id := a.Observer(); o != nil {
			moved[i].Observe(o, id)
		}
		at = append(at, a)
	}
	return func() {
		for i, a := range at {
			*a = moved[i]
		}
	}, nil
}

// header returns what a save of t's agents says of t: its states', tests'
// and timers' names.
func (t *Table) header() saveHeader {
	h := saveHeader{fingerprint: t.Fingerprint(), states: make([]string, len(t.states)), tests: append([]Test(nil), t.tests...), timers: t.sc.timerNames()}
	for i := range t.states {
		h.states[i] = t.states[i].name
	}
	return h
}
