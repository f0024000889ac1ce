package tablecrowd

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Snapshot is the state of a [Crowd] as plain data, for a saved game, a
// replay or a rollback: its machine's snapshot (the entities, their
// states, previous states and data, and how they are stored), the stacks
// of the entities that have one, and the messages posted and not yet seen.
// Fill one with [Crowd.Snapshot], load one with [Crowd.Restore]; its
// binary form is written by [Snapshot.AppendBinary] and read by
// [Snapshot.Decode].
//
// Neither the table nor the host nor the options are part of it: the game
// makes the crowd again with [New], the same table and the same options,
// then restores. With the same ChunkSize, the restored crowd goes on
// exactly as the saved one would have: the same host calls, entity by
// entity, the same states and bucket order after every step, the same
// errors, the same OnFinal calls. States and tests are the table's IDs
// (crowd.StateID(q) is the table's state q); a save carries the table's
// fingerprint ([Crowd.Describe], [machine.Fingerprint]) to notice a
// changed table, and [Snapshot.Remap] renumbers the states for one.
type Snapshot[E any] struct {
	// Crowd is the snapshot of the crowd's machine ([crowd.Snapshot]).
	Crowd crowd.Snapshot[E]
	// Stacks holds the stacks that are not empty, one per entity,
	// ascending by ID. It is empty for a table that never pushes or
	// returns.
	Stacks []Stack
	// Posted holds the messages posted to entities and not yet seen by a
	// step, ascending by ID then test. It is usually empty, unless the game
	// saves between posting messages and stepping.
	Posted []Posted
}

// Stack is an entity's stack: what [table.Snapshot.Stack] is for an agent.
type Stack struct {
	ID     crowd.ID
	States []table.StateID // the states pushed and not yet returned to, bottom first
}

// Posted is a message posted to an entity and not yet seen by a step:
// what [table.Snapshot.Posted] lists for an agent.
type Posted struct {
	ID  crowd.ID
	Msg table.TestID // a message test of the table
}

// Snapshot fills dst with the crowd's state, reusing the capacity of dst's
// slices (the stacks' included), so that snapshots taken into the same
// value allocate nothing once it has grown. Entities removed since the
// last step are left out, as the next step would drop them; so are their
// stacks and messages.
//
// Snapshot panics if called during a step (from the host or OnFinal) or
// a [crowd.Machine.Each] loop: take snapshots between steps.
//
// Cost: [crowd.Machine.Snapshot]'s, plus, for a table that pushes or
// returns, a pass over a byte per ID up to the largest added and a copy of
// each stack that is not empty, and a sort of the messages posted.
func (c *Crowd[E]) Snapshot(dst *Snapshot[E]) {
	if c.stepping.Load() {
		panic("tablecrowd: Crowd.Snapshot called during a step (take snapshots between steps)")
	}
	c.m.Snapshot(&dst.Crowd)
	dst.Stacks = dst.Stacks[:0]
	for id, d := range c.depth {
		if d == 0 {
			continue
		}
		if _, ok := c.m.StateOf(crowd.ID(id)); !ok {
			continue
		}
		dst.Stacks = grow(dst.Stacks)
		st := &dst.Stacks[len(dst.Stacks)-1]
		st.ID = crowd.ID(id)
		at := id * c.limit
		st.States = append(st.States[:0], c.stack[at:at+int(d)]...)
	}
	dst.Posted = dst.Posted[:0]
	for _, id := range c.dirty {
		if _, ok := c.m.StateOf(id); !ok {
			continue
		}
		for f := c.flags[id]; f != 0; f &= f - 1 {
			dst.Posted = append(dst.Posted, Posted{ID: id, Msg: c.msgTests[bits.TrailingZeros64(f)]})
		}
	}
	slices.SortFunc(dst.Posted, comparePosted)
}

// comparePosted orders posted messages by entity, then test.
func comparePosted(a, b Posted) int {
	return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Msg, b.Msg))
}

// grow returns list one longer, reusing the element past its end when its
// capacity holds one (with the slice inside it).
func grow[T any](list []T) []T {
	if len(list) < cap(list) {
		return list[:len(list)+1]
	}
	var zero T
	return append(list, zero)
}

// Restore replaces the crowd's entities with those of s: the machine's
// as [crowd.Machine.Restore] puts them back, each entity's stack, and the
// messages posted, which the next step sees. With s taken from a crowd of
// the same table and ChunkSize, the crowd then goes on exactly as that one
// would have (see [Snapshot]). Restore performs no entry action and calls
// neither the host nor OnFinal. It copies what it needs: s may be reused
// or changed afterwards. The observers attached, the workers and the
// options are kept; the errors of adds that a step that panicked left for
// the next Step to report are dropped.
//
// Restore checks the whole snapshot before it changes the crowd and, if it
// is not one the crowd could hold, returns an error that names the table
// and says what and where, and changes nothing: what crowd.Machine.Restore
// refuses (a state that is not one of the table's, an ID above the
// machine's largest or listed twice, and the others); Stacks not ascending
// by ID, or naming an entity that s.Crowd does not hold, or holding a
// state that is not the table's, or deeper than the table's stack limit
// (any stack at all for a table that never pushes or returns); Posted
// naming an entity that s.Crowd does not hold or a test that is not a
// message. It returns an error wrapping [crowd.ErrBusy] when called during
// a step (from the host or OnFinal) or an Each loop.
//
// Cost: crowd.Machine.Restore's, plus, when s has stacks or messages, a
// pass over s's IDs setting a bit per ID up to the largest (kept for the
// next Restore), and for a table that pushes or returns, a clear of a byte
// per ID. It allocates when the crowd's arrays by ID grow.
func (c *Crowd[E]) Restore(s *Snapshot[E]) error {
	top, err := c.checkRestore(s)
	if err == nil {
		err = c.m.Restore(&s.Crowd)
	}
	if err != nil {
		return fmt.Errorf("tablecrowd: Crowd.Restore (table %q): %w", c.t.Name(), err)
	}
	c.commitRestore(s, top)
	return nil
}

// checkRestore checks what Restore checks beyond the machine's snapshot,
// and returns the largest ID of s, or -1.
func (c *Crowd[E]) checkRestore(s *Snapshot[E]) (int, error) {
	if c.stepping.Load() {
		return 0, fmt.Errorf("%w (restore between steps)", crowd.ErrBusy)
	}
	if s == nil {
		return 0, errors.New("no snapshot (nil)")
	}
	top, maxID := -1, c.m.MaxID()
	for i, id := range s.Crowd.IDs {
		if id > maxID {
			return 0, fmt.Errorf("entity %d: ID %d is above the machine's largest ID, %d (crowd.Options.MaxID)", i, id, maxID)
		}
		top = max(top, int(id))
	}
	if len(s.Stacks) == 0 && len(s.Posted) == 0 {
		return top, nil
	}
	// The IDs of s, a bit each.
	words := top/64 + 1
	if cap(c.members) < words {
		c.members = make([]uint64, words)
	}
	members := c.members[:words]
	defer clear(members)
	for _, id := range s.Crowd.IDs {
		members[id/64] |= 1 << (id % 64)
	}
	holds := func(id crowd.ID) bool {
		return int(id/64) < len(members) && members[id/64]>>(id%64)&1 != 0
	}
	for k := range s.Stacks {
		if err := c.checkStack(s.Stacks, k, holds); err != nil {
			return 0, err
		}
	}
	for k, p := range s.Posted {
		switch {
		case !holds(p.ID):
			return 0, fmt.Errorf("Posted[%d]: entity %d is not in the snapshot (Crowd.IDs)", k, p.ID)
		case int(p.Msg) >= len(c.slot):
			return 0, fmt.Errorf("Posted[%d] (entity %d): %s is not a test of the table (it has %d)", k, p.ID, p.Msg, len(c.slot))
		case c.slot[p.Msg] == noSlot:
			return 0, fmt.Errorf("Posted[%d] (entity %d): %q is a polled test, not a message", k, p.ID, c.t.Test(p.Msg).String())
		}
	}
	return top, nil
}

// checkStack checks stacks[k], holds telling which IDs the snapshot has.
func (c *Crowd[E]) checkStack(stacks []Stack, k int, holds func(crowd.ID) bool) error {
	st := &stacks[k]
	switch {
	case k > 0 && st.ID <= stacks[k-1].ID:
		return fmt.Errorf("Stacks[%d]: entity %d after entity %d: not ascending by ID", k, st.ID, stacks[k-1].ID)
	case !holds(st.ID):
		return fmt.Errorf("Stacks[%d]: entity %d is not in the snapshot (Crowd.IDs)", k, st.ID)
	case len(st.States) > 0 && c.limit == 0:
		return fmt.Errorf("Stacks[%d] (entity %d): a stack of %d states, and the table never pushes or returns", k, st.ID, len(st.States))
	case len(st.States) > c.limit:
		return fmt.Errorf("Stacks[%d] (entity %d): a stack of %d states; the table's stack limit is %d", k, st.ID, len(st.States), c.limit)
	}
	for j, q := range st.States {
		if !c.t.HasState(q) {
			return fmt.Errorf("Stacks[%d] (entity %d): entry %d: %s is not a state of the table (it has %d)", k, st.ID, j, q, c.t.NumStates())
		}
	}
	return nil
}

// commitRestore sets the stacks and the messages of s, which checkRestore
// accepted, whose largest ID is top, once the machine is restored.
func (c *Crowd[E]) commitRestore(s *Snapshot[E], top int) {
	for _, id := range c.dirty {
		c.flags[id] = 0
		c.posted[id/64] = 0
	}
	c.dirty = c.dirty[:0]
	c.grow(top + 1)
	clear(c.depth)
	for _, st := range s.Stacks {
		if len(st.States) > 0 {
			copy(c.stack[int(st.ID)*c.limit:], st.States)
			c.depth[st.ID] = uint8(len(st.States))
		}
	}
	for _, p := range s.Posted {
		c.post(p.ID, 1<<(c.slot[p.Msg]&63))
	}
	clear(c.addErrs)
	c.addErrs = c.addErrs[:0]
}

// Remap renumbers the snapshot's states for a table whose states differ
// from those of the table it was taken from, by name, as mp says (see
// [machine.Mapping]; make mp with [save.Entry.Mapping], or
// [machine.MappingBetween] from the old and new crowds' [Crowd.Describe]): the machine's part
// as [crowd.Snapshot.Remap] does (an entity whose state is gone goes to
// mp.Fallback, reported in mp.Moved), and each stack's entries, an entry
// whose state is gone becoming mp.Fallback, the entity reported in
// mp.Moved once for its stack, from the first such state. Posted messages
// are renumbered through mp's triggers, as [table.Snapshot.Remap] does;
// those whose test is gone, or that mp does not map (a mapping made
// without the saved triggers), are dropped.
func (s *Snapshot[E]) Remap(mp *machine.Mapping) {
	s.Crowd.Remap(mp)
	posted := s.Posted[:0]
	for _, p := range s.Posted {
		if to, ok := mp.Trigger(int32(p.Msg)); ok {
			p.Msg = table.TestID(to)
			posted = append(posted, p)
		}
	}
	s.Posted = posted
	slices.SortFunc(s.Posted, comparePosted)
	fallback := table.NoState
	if mp.Fallback >= 0 {
		fallback = table.StateID(mp.Fallback)
	}
	for i := range s.Stacks {
		st := &s.Stacks[i]
		lost := -1
		for j, q := range st.States {
			if int(q) < len(mp.To) && mp.To[q] >= 0 {
				st.States[j] = table.StateID(mp.To[q])
				continue
			}
			if lost < 0 {
				lost = int(q)
			}
			st.States[j] = fallback
		}
		if lost >= 0 {
			mp.Moved = append(mp.Moved, machine.Moved{Entity: uint64(st.ID), From: mp.OldName(machine.StateID(lost)), To: mp.Fallback})
		}
	}
}
