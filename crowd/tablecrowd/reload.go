package tablecrowd

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// PrepareReload readies moving the crowd onto t, a new version of its
// table, with mp mapping the crowd's current table (c.Table().Describe())
// to t (t.Describe()). It changes nothing in the crowd, and reports in
// mp.Moved the entities the move sends to the fallback; the returned
// commit, called between steps from the goroutine that steps the crowd,
// makes the move and cannot fail. Entities keep their IDs, data, state
// (mapped by mp; a state that is gone goes to mp.Fallback and is reported
// in mp.Moved), stacks and posted messages (renumbered through mp's
// triggers, dropped when their test is gone). The *Crowd and its machine
// ([Crowd.Machine]) stay the same pointers: the game's references stay
// valid. The crowd keeps its host, its options (ChunkSize, MaxID, OnFinal,
// worker count), its observers (the crowd's and its machine's) and its
// recorder if any.
//
// Nothing runs: no entry action is performed, and neither the host nor
// OnFinal is called; an entity sent to the fallback is put there without
// the fallback's entry actions (mp.Moved lists them, for a game that wants
// to perform them itself). The host stays: a host that binds the table's
// tests and properties by ID (as a game's generated constants do) must be
// bound to t before the next step, which commit leaves to the game.
//
// # In place
//
// Whatever changed (states renamed, added, removed or reordered, tests
// and messages renumbered, transitions, entry actions, the stack limit),
// commit moves the crowd in place, copying no entity's data: it redefines
// the machine onto t's states ([crowd.Machine.Redefine], which renumbers
// and merges the buckets and rewrites the index by ID), renumbers each
// stack (laying the stacks out anew if the stack limit changed) and the
// messages posted, and makes the state functions read t. The crowd then
// goes on exactly as a crowd made by New with t and the same options,
// into which the crowd's [Snapshot], remapped by mp ([Snapshot.Remap]),
// was restored, would: the same host calls, states, bucket order, errors
// and OnFinal calls. (That is also what a reload did before it moved the
// crowd in place, at a cost proportional to the entities.) When every
// state keeps its ID (t has the crowd's states in the same order, maybe
// with states added after them, and mp maps each to itself), the
// machine's Transitions of the last step stay; otherwise it reports none
// until the next step.
//
// The crowd's own observer ([Crowd.Observe]) stays attached and reports
// t's states, tests and transitions from the next step on; so does the
// machine's ([crowd.Machine.Observe]), with t's states. An
// observer made by a [machine.Recorder] for the old description
// ([machine.Recorder.Register]) names what it records by that one: register
// [Crowd.Describe] again after commit and attach the new observer.
//
// # Between PrepareReload and commit
//
// Commit moves the crowd as it is when commit is called: it may step and
// change between PrepareReload and commit, and nothing is lost. Of what
// PrepareReload worked out from the crowd as it was, commit checks the
// stacks against t's stack limit again, and, if the entities it sends to
// the fallback are not those reported, rewrites what PrepareReload
// reported in mp.Moved. In the one case the move cannot be made (a stack
// grew deeper than t's stack limit since), commit leaves the crowd as it
// is, on its old table, as [Crowd.Table] then says. A commit called
// again, or after another reload was committed, does nothing. Commit
// panics if called during a step (from the host or OnFinal) or inside one
// of the machine's Each loops, changing nothing; called again after, it
// makes the move.
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
// OnFinal); [Crowd.Reload] returns one too inside one of the machine's
// Each loops, where a commit panics. The errors name both tables and say
// what to do. PrepareReload never panics on a bad table or mapping.
//
// # Costs
//
// PrepareReload lays out t as [New] does, in time and memory proportional
// to the table; lists the entities of the states that are gone, through
// the machine's Each (40 bytes of mp.Moved each); and, when a state is
// gone or the stack limit falls, passes over the stacks' depths by ID (a
// byte per ID up to the largest), for a table that pushes or returns.
// Commit costs what [crowd.Machine.Redefine] costs (time proportional to
// the states and the machine's runs, a write in the index by ID per
// entity that changes state ID, or a pass over it when they are many),
// the list of the moves again, and, when a state changes ID or the stack
// limit changes, a pass over the stacks by ID (a new array of them, 2
// bytes per ID and stack entry, when the limit changes), and, when the
// message slots change, one over the entities with messages posted. For a
// million goombas of 24 bytes on a shared 2-core machine
// (BenchmarkReload, medians of 5), a reload that renames a state (the
// mapping told of it) and adds one takes about 2.5 µs, its commit 1.3 µs,
// allocating 2 KB; one that removes the state of 60,000 of them takes 2.3
// ms, its commit 1.1 ms, allocating 3.9 MB, mostly mp.Moved and the
// commit's list of the moves. Moving the crowd to a new machine through a
// snapshot, as reloads did before, took 37 to 80 ms and 110 MB.
func (c *Crowd[E]) PrepareReload(t *table.Table, mp *machine.Mapping) (commit func(), err error) {
	move, err := c.prepareReload("Crowd.PrepareReload", t, mp)
	if err != nil {
		return nil, err
	}
	return func() {
		if move() != nil {
			panic("tablecrowd: a reload's commit called inside one of the machine's Each loops (commit between steps, outside Each loops)")
		}
	}, nil
}

// Reload is PrepareReload followed by its commit; inside one of the
// machine's Each loops, where the commit would panic, it returns an error
// wrapping [crowd.ErrBusy] and changes nothing (mp.Moved included).
func (c *Crowd[E]) Reload(t *table.Table, mp *machine.Mapping) error {
	mark := 0
	if mp != nil {
		mark = len(mp.Moved)
	}
	move, err := c.prepareReload("Crowd.Reload", t, mp)
	if err != nil {
		return err
	}
	if err := move(); err != nil {
		mp.Moved = mp.Moved[:mark]
		return c.reloadError("Crowd.Reload", t, err)
	}
	return nil
}

// prepareReload is PrepareReload, its errors naming op. The commit it
// returns makes the move, or returns an error wrapping crowd.ErrBusy,
// changing nothing, inside one of the machine's Each loops.
func (c *Crowd[E]) prepareReload(op string, t *table.Table, mp *machine.Mapping) (func() error, error) {
	if err := c.checkReload(t, mp); err != nil {
		return nil, c.reloadError(op, t, err)
	}
	l := newLayout(t)
	if err := c.checkDepths(&l); err != nil {
		return nil, c.reloadError(op, t, err)
	}
	pm := copyMapping(mp) // mp is the caller's: it may change before commit
	moved := c.stackMoves(pm, c.machineMoves(pm, nil))
	mark := len(mp.Moved)
	mp.Moved = append(mp.Moved, moved...)
	reloads := c.reloads
	spent := false
	return func() error {
		c.mustCommitBetweenSteps()
		if spent || c.reloads != reloads {
			return nil // committed already, or reloaded since
		}
		if c.checkDepths(&l) != nil {
			spent = true // a stack grew too deep since: the crowd stays on its table
			return nil
		}
		now, err := c.moveInPlace(&l, pm)
		if err != nil {
			return err
		}
		spent = true
		if !slices.Equal(now, moved) { // the crowd changed since
			mp.Moved = append(mp.Moved[:min(mark, len(mp.Moved))], now...)
		}
		return nil
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

// mustCommitBetweenSteps panics if a reload's commit is called during a
// step.
func (c *Crowd[E]) mustCommitBetweenSteps() {
	if c.stepping.Load() {
		panic("tablecrowd: a reload's commit called during a step (commit between steps, from the goroutine that steps the crowd)")
	}
}

// checkDepths returns an error if an entity's stack is deeper than l's
// limit: a pass over the depths by ID when l's limit is below the crowd's.
func (c *Crowd[E]) checkDepths(l *layout) error {
	if l.limit >= c.limit {
		return nil
	}
	deep, depth, more := -1, 0, 0
	for id, d := range c.depth {
		if int(d) <= l.limit {
			continue
		}
		if _, ok := c.m.StateOf(crowd.ID(id)); !ok {
			continue // a removed entity's: not a stack
		}
		if deep < 0 {
			deep, depth = id, int(d)
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
	if l.limit == 0 {
		return fmt.Errorf("entity %d has a stack of %d states%s, and the new table never pushes or returns: keep a transition that returns in the drawing, or reload once the entities have returned", deep, depth, also)
	}
	return fmt.Errorf("entity %d has a stack of %d states%s, deeper than the new table's stack limit, %d: raise the drawing's stack limit (table.Options.StackLimit), or reload once the stacks are shallower", deep, depth, also, l.limit)
}

// machineMoves appends to moved, and returns, the entities of the states
// that mp says are gone, which a reload sends to the fallback, in bucket
// order: as crowd.Machine.Redefine reports them (and Snapshot.Remap).
func (c *Crowd[E]) machineMoves(mp *machine.Mapping, moved []machine.Moved) []machine.Moved {
	n := 0
	for q, to := range mp.To {
		if to == machine.NoState {
			n += c.m.Count(crowd.StateID(q))
		}
	}
	moved = slices.Grow(moved, n)
	for q, to := range mp.To {
		if to != machine.NoState {
			continue
		}
		mv := machine.Moved{From: mp.OldName(machine.StateID(q)), To: mp.Fallback}
		for id := range c.m.Each(crowd.StateID(q)) {
			mv.Entity = uint64(id)
			moved = append(moved, mv)
		}
	}
	return moved
}

// stackMoves appends to moved, and returns, by ID, the entities whose
// stack holds a state that mp says is gone, each named by the first such
// state: as Snapshot.Remap reports them.
func (c *Crowd[E]) stackMoves(mp *machine.Mapping, moved []machine.Moved) []machine.Moved {
	if c.limit == 0 || !slices.Contains(mp.To, machine.NoState) {
		return moved
	}
	for id, d := range c.depth {
		if d == 0 {
			continue
		}
		if _, ok := c.m.StateOf(crowd.ID(id)); !ok {
			continue // a removed entity's: not a stack
		}
		for _, q := range c.stack[id*c.limit : id*c.limit+int(d)] {
			if mp.To[q] == machine.NoState {
				moved = append(moved, machine.Moved{Entity: uint64(id), From: mp.OldName(machine.StateID(q)), To: mp.Fallback})
				break
			}
		}
	}
	return moved
}

// moveInPlace moves the crowd onto layout l, as mp maps it, keeping its
// machine: the machine redefined, the stacks and the messages renumbered.
// It returns the entities sent to the fallback (see machineMoves and
// stackMoves); or an error wrapping crowd.ErrBusy, having changed nothing,
// inside one of the machine's Each loops. checkReload and checkDepths have
// checked everything else.
func (c *Crowd[E]) moveInPlace(l *layout, mp *machine.Mapping) ([]machine.Moved, error) {
	redefined := &machine.Mapping{To: mp.To, Old: mp.Old, Fallback: mp.Fallback}
	if err := c.m.Redefine(c.defs(l), redefined); err != nil {
		if errors.Is(err, crowd.ErrBusy) {
			return nil, fmt.Errorf("%w (reload between steps, outside the machine's Each loops)", crowd.ErrBusy)
		}
		panic("tablecrowd: internal error: a reload checked could not be made: " + err.Error())
	}
	moved := c.stackMoves(mp, redefined.Moved)
	c.remapStacks(l, mp)
	c.remapMessages(l, mp)
	c.layout = *l
	c.reloads++
	return moved, nil
}

// remapStacks renumbers the entities' stacks for layout l, as mp maps the
// states, a state that is gone becoming the fallback, as Snapshot.Remap
// does; and lays them out anew if l's stack limit differs. The stacks of
// removed entities are dropped.
func (c *Crowd[E]) remapStacks(l *layout, mp *machine.Mapping) {
	same := l.limit == c.limit
	for q, to := range mp.To {
		same = same && to == machine.StateID(q)
	}
	if same || c.limit == 0 && l.limit == 0 {
		return
	}
	n := len(c.flags) // the IDs the arrays by ID hold
	if l.limit == 0 {
		c.depth, c.stack = nil, nil // checkDepths found no stack
		return
	}
	if c.limit == 0 {
		c.depth, c.stack = make([]uint8, n), make([]table.StateID, n*l.limit)
		return
	}
	stack := c.stack
	if l.limit != c.limit {
		stack = make([]table.StateID, n*l.limit)
	}
	fallback := table.StateID(max(mp.Fallback, 0)) // a state when one is gone
	for id, d := range c.depth {
		if d == 0 {
			continue
		}
		if _, ok := c.m.StateOf(crowd.ID(id)); !ok {
			c.depth[id] = 0
			continue
		}
		from, to := c.stack[id*c.limit:id*c.limit+int(d)], stack[id*l.limit:id*l.limit+int(d)]
		for j, q := range from {
			if r := mp.To[q]; r != machine.NoState {
				to[j] = table.StateID(r)
			} else {
				to[j] = fallback
			}
		}
	}
	c.stack = stack
}

// remapMessages renumbers the messages posted for layout l's message
// slots, as mp maps the tests, dropping those whose test is gone (or that
// mp does not map) and those posted to entities removed since, as
// Snapshot.Remap and Restore do; the entities with messages are then listed
// by ID.
func (c *Crowd[E]) remapMessages(l *layout, mp *machine.Mapping) {
	if len(c.dirty) == 0 {
		return
	}
	var newBit [64]uint64 // per old slot, its new bit, or 0
	same := true
	for slot, test := range c.msgTests {
		if to, ok := mp.Trigger(int32(test)); ok && l.slot[to] != noSlot {
			newBit[slot] = 1 << (l.slot[to] & 63)
		}
		same = same && newBit[slot] == 1<<slot
	}
	if same {
		return
	}
	dirty := c.dirty[:0]
	for _, id := range c.dirty {
		var f uint64
		if _, ok := c.m.StateOf(id); ok {
			for old := c.flags[id]; old != 0; old &= old - 1 {
				f |= newBit[bits.TrailingZeros64(old)]
			}
		}
		c.flags[id] = f
		if f == 0 {
			c.posted[id/64] &^= 1 << (id % 64)
			continue
		}
		dirty = append(dirty, id)
	}
	slices.Sort(dirty)
	c.dirty = dirty
}
