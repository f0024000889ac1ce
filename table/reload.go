package table

import (
	"errors"
	"fmt"

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
// returns is the one hot reload reports (see package machine's Mapping).
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
	for i := range agents {
		if agents[i].table != old {
			return nil, fmt.Errorf("table: Reload: agent %d runs another table than agent 0 (%q, not %q): reload each table's agents apart", i, agents[i].table.Name(), old.Name())
		}
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
	h := old.header()
	tests, timers := t.renumbering(&h)
	moved := make([]Agent[E], len(agents))
	var s Snapshot
	for i := range agents {
		agents[i].Snapshot(&s)
		if err := remapInto(&moved[i], t, agents[i].entity, &s, m, tests, timers, uint64(i), h.states); err != nil {
			return nil, fmt.Errorf("table: Reload (table %q onto %q): agent %d: %w", old.Name(), t.Name(), i, err)
		}
		if o, id := agents[i].Observer(); o != nil {
			moved[i].Observe(o, id)
		}
	}
	copy(agents, moved)
	return m, nil
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
