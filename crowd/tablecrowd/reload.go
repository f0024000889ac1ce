package tablecrowd

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// PrepareReload readies moving the crowd onto t, a new version of its
// table, with mp mapping the crowd's current table (c.Table().Describe())
// to t (t.Describe()). It changes nothing; the returned commit, called
// between steps from the goroutine that steps the crowd, makes the move
// and cannot fail. Entities keep their IDs, data, state (mapped by mp; a
// state that is gone goes to mp.Fallback and is reported in mp.Moved),
// stacks and posted messages (renumbered through mp's triggers, dropped
// when their test is gone). The *Crowd stays the same pointer: the game's
// references stay valid. The crowd keeps its host, its options (ChunkSize,
// MaxID, OnFinal, worker count), its observers (the crowd's, and its
// machine's when the machine is kept: see the two routes below) and its
// recorder if any. The old machine's workers are stopped.
//
// Nothing runs: no entry action is performed, and neither the host nor
// OnFinal is called; an entity sent to the fallback is put there without
// the fallback's entry actions (mp.Moved lists them, for a game that wants
// to perform them itself). The host stays: a host that binds the table's
// tests and properties by ID (as a game's generated constants do) must be
// bound to t before the next step, which commit leaves to the game.
//
// # Two routes
//
// When t has the crowd's states, by name and in the same order, mp maps
// each to itself, the message tests keep their order (their IDs may
// change) and the stack limit is the same (the designer changed
// transitions, tests or entry actions), the crowd keeps its machine:
// commit only makes the crowd's state functions read t, whatever the
// crowd did since PrepareReload, and costs nothing per entity. The
// machine's observer, its Transitions of the last step and the game's
// references to [Crowd.Machine] stay valid.
//
// Otherwise the crowd moves to a new [crowd.Machine] of t's states, made
// with the options given to New: PrepareReload takes the crowd's
// [Snapshot], remaps it ([Snapshot.Remap]) and restores it into the new
// machine, and commit puts the new machine in place of the old, which it
// closes. The crowd then goes on exactly as a crowd made by New with t and
// the same options, into which the remapped snapshot was restored, would:
// the same host calls, states, bucket order, errors and OnFinal calls. A
// game that keeps a reference to the old machine must take
// [Crowd.Machine] again. Package crowd gives no way to read the observer
// attached to a machine ([crowd.Machine.Observe]), so that observer is not
// carried to the new machine: attach it again after commit.
//
// On both routes the crowd's own observer ([Crowd.Observe]) stays attached
// and reports t's states, tests and transitions from the next step on. An
// observer made by a [machine.Recorder] for the old description
// ([machine.Recorder.Register]) names what it records by that one: register
// [Crowd.Describe] again after commit and attach the new observer.
//
// # Between PrepareReload and commit
//
// The crowd must not step or change between PrepareReload and commit:
// what commit puts in place was built from the crowd as it was. Commit
// checks cheaply whether the crowd changed since (a step, an add or a post
// through the crowd, a Restore, an entity removed from its machine: a
// count of the crowd's changes, the machine's step count and size) and, if
// it did, redoes the move from the crowd as it is then, at the cost of
// PrepareReload, rather than lose the changes, and rewrites what it
// reported in mp.Moved. Changes it cannot see are lost: an entity's data
// changed through the machine's Each, a [crowd.Machine.Remove] followed by
// a [crowd.Machine.Add], a Restore of the machine itself. In the one case
// the redone move cannot be made (a stack grew deeper than t's stack limit
// since), commit leaves the crowd as it is, on its old table, as
// [Crowd.Table] then says. A commit called again, or after another reload
// was committed, does nothing. Commit panics if called during a step (from
// the host or OnFinal); it must not be called inside an Each loop either.
//
// # Errors
//
// PrepareReload returns an error, and changes nothing (mp.Moved
// included), if t is nil or has no states, if t is a statechart table, if
// mp is nil or does not map the crowd's current table (its To has one
// entry per state of c.Table(), its Triggers none or one per test), if mp
// maps a state outside t's states, or a state to none while its Fallback
// is not a state of t, or a message to a test that is not a message of t;
// if an entity's stack is deeper than t's stack limit (any stack, for a
// table that never pushes or returns); and an error wrapping
// [crowd.ErrBusy] if it is called during a step (from the host or
// OnFinal), or, on the second route, inside one of the machine's Each
// loops. The errors name both tables and say what to do. PrepareReload
// never panics on a bad table or mapping.
//
// # Costs
//
// PrepareReload lays out t as [New] does: in time and memory proportional
// to the table. On the second route it also takes a snapshot, remaps it
// and restores it into the new machine, allocating the snapshot (12 bytes
// per entity and its data), the new machine's storage (see package crowd)
// and the crowd's arrays by ID. For a million goombas of 24 bytes on a
// shared 2-core machine (BenchmarkReload) that is about 37 ms and 110 MB:
// half of it what a crowd made by New and restored costs (its storage
// allocated and written for the first time), the other half the snapshot
// (36 MB, allocated and written for the first time too) and its remap.
// The new machine allocates its arena at its first step, as a crowd made
// by New does. Commit costs nothing per entity on either route (about a
// microsecond), unless it redoes the move; the old machine's storage is
// left to the garbage collector.
func (c *Crowd[E]) PrepareReload(t *table.Table, mp *machine.Mapping) (commit func(), err error) {
	return c.prepareReload("Crowd.PrepareReload", t, mp)
}

// Reload is PrepareReload followed by its commit.
func (c *Crowd[E]) Reload(t *table.Table, mp *machine.Mapping) error {
	commit, err := c.prepareReload("Crowd.Reload", t, mp)
	if err != nil {
		return err
	}
	commit()
	return nil
}

// prepareReload is PrepareReload, its errors naming op.
func (c *Crowd[E]) prepareReload(op string, t *table.Table, mp *machine.Mapping) (func(), error) {
	if err := c.checkReload(t, mp); err != nil {
		return nil, c.reloadError(op, t, err)
	}
	l := newLayout(t)
	pm := copyMapping(mp) // mp is the caller's: it may change before commit
	reloads := c.reloads
	if c.keepsMachine(&l, pm) {
		return func() {
			c.mustCommitBetweenSteps()
			if c.reloads != reloads {
				return // reloaded since, or committed already
			}
			c.layout = l
			c.reloads++
			c.gen++
		}, nil
	}
	var s Snapshot[E]
	if err := c.snapshotBetweenSteps(&s); err != nil {
		return nil, c.reloadError(op, t, err)
	}
	n, err := c.moveOnto(&l, pm, &s)
	if err != nil {
		return nil, c.reloadError(op, t, err)
	}
	mark := len(mp.Moved)
	mp.Moved = append(mp.Moved, pm.Moved...)
	gen, steps, size := c.gen, c.m.Steps(), c.m.Len()
	return func() {
		c.mustCommitBetweenSteps()
		if n == nil || c.reloads != reloads {
			return // committed already, or reloaded since
		}
		if c.gen != gen || c.m.Steps() != steps || c.m.Len() != size {
			again := copyMapping(pm)
			var s Snapshot[E]
			c.Snapshot(&s)
			redone, err := c.moveOnto(&l, again, &s)
			if err != nil {
				n = nil // a stack grew too deep since: the crowd stays on its table
				return
			}
			n = redone
			mp.Moved = append(mp.Moved[:min(mark, len(mp.Moved))], again.Moved...)
		}
		c.install(n)
		n = nil // the closure no longer holds what the crowd does not
	}, nil
}

// reloadError is err, from a reload onto t, prefixed with op and the two
// tables' names.
func (c *Crowd[E]) reloadError(op string, t *table.Table, err error) error {
	onto := "the new table"
	if t != nil && t.NumStates() > 0 {
		onto = fmt.Sprintf("%q", t.Name())
	}
	return fmt.Errorf("tablecrowd: %s (table %q onto %s): %w", op, c.t.Name(), onto, err)
}

// checkReload checks what PrepareReload refuses before it looks at the
// entities.
func (c *Crowd[E]) checkReload(t *table.Table, mp *machine.Mapping) error {
	switch {
	case c.stepping.Load():
		return fmt.Errorf("%w (reload between steps)", crowd.ErrBusy)
	case t == nil:
		return errors.New("the new table is nil (compile the changed drawing into a table, or decode one)")
	case t.Statechart():
		return errors.New("the new table is a statechart (nested states, exit actions, events raised or sent); a crowd runs flat tables: keep the drawing flat, or run its entities as table.Agents (table.Reload)")
	case t.NumStates() == 0:
		return errors.New("the new table has no states (a zero Table: compile the changed drawing into a table, or decode one)")
	case mp == nil:
		return errors.New("no mapping (nil): make one with machine.MappingBetween from the crowd's table's description (Crowd.Table().Describe()) and the new table's")
	case len(mp.To) != c.t.NumStates():
		return fmt.Errorf("the mapping maps %d states, and the crowd's table has %d: make it from the crowd's current table (Crowd.Table().Describe()), not from another version", len(mp.To), c.t.NumStates())
	case len(mp.Triggers) != 0 && len(mp.Triggers) != c.t.NumTests():
		return fmt.Errorf("the mapping maps %d triggers, and the crowd's table has %d tests: make it from the crowd's current table (Crowd.Table().Describe()), not from another version", len(mp.Triggers), c.t.NumTests())
	}
	lost := -1
	for q, to := range mp.To {
		switch {
		case to == machine.NoState:
			if lost < 0 {
				lost = q
			}
		case to < 0 || int(to) >= t.NumStates():
			return fmt.Errorf("the mapping sends state %q to %v, which is not a state of the new table (it has %d): make the mapping with machine.MappingBetween", c.t.StateName(table.StateID(q)), to, t.NumStates())
		}
	}
	if lost >= 0 && (mp.Fallback < 0 || int(mp.Fallback) >= t.NumStates()) {
		return fmt.Errorf("state %q has no namesake in the new table, and the mapping's Fallback, %v, is not one of its states (it has %d): set Fallback to the state its entities are to go to", c.t.StateName(table.StateID(lost)), mp.Fallback, t.NumStates())
	}
	for id, to := range mp.Triggers {
		if c.slot[id] == noSlot || to == -1 {
			continue // a polled test posts nothing; a message that is gone is dropped
		}
		if to < 0 || int(to) >= t.NumTests() || !t.Test(table.TestID(to)).Message {
			return fmt.Errorf("the mapping sends message %q to trigger %d, which is not a message of the new table: make the mapping with machine.MappingBetween, which maps a message to a message of the same name", c.t.Test(table.TestID(id)).String(), to)
		}
	}
	return nil
}

// copyMapping returns a copy of mp's maps, with no moves reported.
func copyMapping(mp *machine.Mapping) *machine.Mapping {
	return &machine.Mapping{To: slices.Clone(mp.To), Old: slices.Clone(mp.Old), Triggers: slices.Clone(mp.Triggers),
		OldTriggers: slices.Clone(mp.OldTriggers), Fallback: mp.Fallback}
}

// keepsMachine reports whether the crowd can move onto layout l, as mp
// maps it, keeping its machine and its arrays by ID: the same states, by
// name and ID; the same message slots; the same stack limit.
func (c *Crowd[E]) keepsMachine(l *layout, mp *machine.Mapping) bool {
	if l.t.NumStates() != c.t.NumStates() || l.limit != c.limit {
		return false
	}
	for q, to := range mp.To {
		if to != machine.StateID(q) || l.t.StateName(table.StateID(q)) != c.t.StateName(table.StateID(q)) {
			return false
		}
	}
	for slot, test := range c.msgTests {
		to, ok := mp.Trigger(int32(test))
		if !ok || slot >= len(l.msgTests) || l.msgTests[slot] != table.TestID(to) {
			return false
		}
	}
	return true
}

// snapshotBetweenSteps fills s with the crowd's snapshot, or returns an
// error wrapping crowd.ErrBusy if the crowd's machine is in an Each loop,
// where its Snapshot panics (before it writes anything): the panic is the
// machine's only way of saying so.
func (c *Crowd[E]) snapshotBetweenSteps(s *Snapshot[E]) (err error) {
	defer func() {
		if recover() != nil {
			err = fmt.Errorf("%w (reload between steps, outside the machine's Each loops)", crowd.ErrBusy)
		}
	}()
	c.Snapshot(s)
	return nil
}

// moveOnto returns a crowd on layout l, on a new machine, holding the
// entities, stacks and messages of s, c's snapshot, remapped through mp
// (which reports the moves). The new machine's state functions are c's: it
// is to become c's machine (see install), and runs nothing before.
func (c *Crowd[E]) moveOnto(l *layout, mp *machine.Mapping, s *Snapshot[E]) (*Crowd[E], error) {
	s.Remap(mp)
	if err := checkDepths(s.Stacks, l); err != nil {
		return nil, err
	}
	m, err := crowd.New(c.defs(l), c.opts)
	if err != nil {
		return nil, err // New accepted the options, and a table's states have distinct names
	}
	n := &Crowd[E]{layout: *l, m: m}
	top, err := n.checkRestore(s)
	if err == nil {
		err = m.Restore(&s.Crowd)
	}
	if err != nil {
		return nil, err // checked above: an ID, a state or a message out of place
	}
	n.commitRestore(s, top)
	return n, nil
}

// checkDepths returns an error if a stack is deeper than l's limit.
func checkDepths(stacks []Stack, l *layout) error {
	deep := -1
	more := 0
	for i := range stacks {
		if len(stacks[i].States) <= l.limit {
			continue
		}
		if deep < 0 {
			deep = i
		} else {
			more++
		}
	}
	if deep < 0 {
		return nil
	}
	also := ""
	if more > 0 {
		also = fmt.Sprintf(" (and %d more entities)", more)
	}
	st := &stacks[deep]
	if l.limit == 0 {
		return fmt.Errorf("entity %d has a stack of %d states%s, and the new table never pushes or returns: keep a transition that returns in the drawing, or reload once the entities have returned", st.ID, len(st.States), also)
	}
	return fmt.Errorf("entity %d has a stack of %d states%s, deeper than the new table's stack limit, %d: raise the drawing's stack limit (table.Options.StackLimit), or reload once the stacks are shallower", st.ID, len(st.States), also, l.limit)
}

// mustCommitBetweenSteps panics if a reload's commit is called during a
// step.
func (c *Crowd[E]) mustCommitBetweenSteps() {
	if c.stepping.Load() {
		panic("tablecrowd: a reload's commit called during a step (commit between steps, from the goroutine that steps the crowd)")
	}
}

// install makes n's layout, arrays by ID and machine c's, n having been
// made by moveOnto, and closes the old machine. The new machine gets the
// old one's number of workers, and is closed if the crowd was.
func (c *Crowd[E]) install(n *Crowd[E]) {
	old := c.m
	_ = n.m.SetWorkers(old.Workers()) // at least 1
	if c.closed {
		n.m.Close()
	}
	c.layout, c.byID, c.m = n.layout, n.byID, n.m
	c.reloads++
	c.gen++
	old.Close()
}
