package tablecrowd

import (
	"fmt"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/internal/wire"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// snapshotVersion is the version of a Snapshot's binary form.
const snapshotVersion = 1

// AppendBinary appends the snapshot's binary form to b and returns the
// result: the version (an unsigned varint, now 1); the number of stacks,
// then for each the entity's ID, the stack's depth and its states; the
// number of messages posted, then for each the entity's ID and the test;
// all unsigned varints; then, to the end, the machine's snapshot as
// [crowd.Snapshot.AppendBinary] writes it, each entity's data as c.Append
// writes it (a zero Codec writes no data). Only IDs are written: a save
// carries the table's fingerprint and its states' names beside (package
// save). Between steps a crowd without stacks or messages posted takes 3
// bytes more than its machine's snapshot.
//
// It returns an error, and b unchanged, if a stack is deeper than
// [table.MaxStack] or holds a marker rather than a state, a posted
// message is not a test, an ID is above [crowd.MaxID], or if the machine's
// snapshot cannot be written (see crowd.Snapshot.AppendBinary). It
// allocates only to grow b.
func (s *Snapshot[E]) AppendBinary(b []byte, c machine.Codec[E]) ([]byte, error) {
	for k := range s.Stacks {
		st := &s.Stacks[k]
		switch {
		case st.ID > crowd.MaxID:
			return b, fmt.Errorf("tablecrowd: Snapshot.AppendBinary: Stacks[%d]: ID %d is above crowd.MaxID (%d)", k, st.ID, crowd.MaxID)
		case len(st.States) > table.MaxStack:
			return b, fmt.Errorf("tablecrowd: Snapshot.AppendBinary: Stacks[%d] (entity %d): a stack of %d states, deeper than table.MaxStack (%d)", k, st.ID, len(st.States), table.MaxStack)
		}
		for _, q := range st.States {
			if int(q) >= table.MaxStates {
				return b, fmt.Errorf("tablecrowd: Snapshot.AppendBinary: Stacks[%d] (entity %d): %s is not a state a stack holds", k, st.ID, q)
			}
		}
	}
	for k, p := range s.Posted {
		switch {
		case p.ID > crowd.MaxID:
			return b, fmt.Errorf("tablecrowd: Snapshot.AppendBinary: Posted[%d]: ID %d is above crowd.MaxID (%d)", k, p.ID, crowd.MaxID)
		case int(p.Msg) >= table.MaxTests:
			return b, fmt.Errorf("tablecrowd: Snapshot.AppendBinary: Posted[%d] (entity %d): %s is not a test", k, p.ID, p.Msg)
		}
	}
	b0 := len(b)
	b = wire.AppendUint(b, snapshotVersion)
	b = wire.AppendUint(b, uint64(len(s.Stacks)))
	for k := range s.Stacks {
		st := &s.Stacks[k]
		b = wire.AppendUint(b, uint64(st.ID))
		b = wire.AppendUint(b, uint64(len(st.States)))
		for _, q := range st.States {
			b = wire.AppendUint(b, uint64(q))
		}
	}
	b = wire.AppendUint(b, uint64(len(s.Posted)))
	for _, p := range s.Posted {
		b = wire.AppendUint(b, uint64(p.ID))
		b = wire.AppendUint(b, uint64(p.Msg))
	}
	b, err := s.Crowd.AppendBinary(b, c)
	if err != nil {
		return b[:b0], fmt.Errorf("tablecrowd: Snapshot.AppendBinary: %w", err)
	}
	return b, nil
}

// Decode decodes the binary form [Snapshot.AppendBinary] writes
// into s, reusing the capacity of its slices (the stacks' included), so
// that decoding into the same value allocates nothing once it has grown
// (but what c.Decode does). The machine's part is decoded by
// [crowd.Snapshot.Decode], with c.
//
// It checks the form, not the IDs: [Crowd.Restore] checks them against the
// crowd and its table. It returns an error, and leaves s empty, if b is
// truncated, has bytes left over, is of another version, has a count
// larger than its bytes can hold, an ID above [crowd.MaxID], a state or a
// test that no table has, or a stack deeper than [table.MaxStack]; or if
// the machine's part does not decode. The error gives the byte offset of
// the problem. It never allocates more than b's size can account for.
func (s *Snapshot[E]) Decode(b []byte, c machine.Codec[E]) error {
	r := wire.NewReader(b)
	s.read(r)
	err := r.Err()
	if err == nil {
		if err = s.Crowd.Decode(b[r.Offset():], c); err != nil {
			err = fmt.Errorf("the machine's snapshot, from byte %d: %w", r.Offset(), err)
		}
	}
	if err != nil {
		s.empty()
		return fmt.Errorf("tablecrowd: Snapshot.Decode: %w", err)
	}
	return nil
}

// empty makes s a snapshot of no entities, keeping the capacity of its
// slices.
func (s *Snapshot[E]) empty() {
	s.Stacks, s.Posted = s.Stacks[:0], s.Posted[:0]
	m := &s.Crowd
	clear(m.Data)
	m.Steps, m.Holes, m.Open = 0, 0, crowd.NoState
	m.IDs, m.States, m.Previous, m.Data, m.Runs = m.IDs[:0], m.States[:0], m.Previous[:0], m.Data[:0], m.Runs[:0]
}

// read reads what precedes the machine's snapshot from r into s; r holds
// the first error.
func (s *Snapshot[E]) read(r *wire.Reader) {
	if v := r.Uint(); r.Err() == nil && v != snapshotVersion {
		r.Fail("version %d, not %d (a save from another version of fsmforge)", v, snapshotVersion)
	}
	n := r.Count(2, "stacks")
	s.Stacks = s.Stacks[:0]
	for range n {
		s.Stacks = grow(s.Stacks)
		st := &s.Stacks[len(s.Stacks)-1]
		st.ID = crowd.ID(r.Small(int(crowd.MaxID), "ID"))
		d := r.Small(table.MaxStack, "stack depth")
		st.States = st.States[:0]
		for range d {
			st.States = append(st.States, table.StateID(r.Small(table.MaxStates-1, "state")))
		}
		if r.Err() != nil {
			return
		}
	}
	n = r.Count(2, "messages posted")
	s.Posted = s.Posted[:0]
	for range n {
		id := crowd.ID(r.Small(int(crowd.MaxID), "ID"))
		msg := table.TestID(r.Small(table.MaxTests-1, "test"))
		if r.Err() != nil {
			return
		}
		s.Posted = append(s.Posted, Posted{ID: id, Msg: msg})
	}
}
