package table

import (
	"errors"
	"fmt"

	"github.com/fsmforge/fsmforge/internal/wire"
)

// The binary form of a Snapshot, format 1, is laid out in the package
// documentation (# Snapshots and saves); it is shared byte for byte with
// the snapshots of the code package gogen generates.

// Flags of a snapshot's binary form.
const (
	snapDone  = 1 << 0
	snapChart = 1 << 1
)

// AppendBinary appends the binary form of s to b (format 1, laid out in
// the package documentation) and returns it. It returns an error, and b
// unchanged, if s cannot be written as it is: Posted, Active, a history
// record's States or a saved configuration not strictly ascending, History
// not ascending by state, statechart fields set in a flat agent's
// snapshot, or Saved not one entry per stack entry. A snapshot made by
// [Agent.Snapshot] is always written. It allocates only when b grows.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	if err := s.checkOrder(); err != nil {
		return b, fmt.Errorf("table: Snapshot.AppendBinary: %w", err)
	}
	return s.appendBinary(b), nil
}

// appendBinary appends s, which checkOrder accepts.
func (s *Snapshot) appendBinary(b []byte) []byte {
	flags := byte(0)
	if s.Done {
		flags |= snapDone
	}
	if s.Statechart {
		flags |= snapChart
	}
	b = append(b, flags)
	b = appendState(b, s.State)
	b = wire.AppendUint(b, uint64(len(s.Stack)))
	for _, q := range s.Stack {
		b = appendState(b, q)
	}
	b = appendTests(b, s.Posted)
	if !s.Statechart {
		return b
	}
	b = appendStates(b, s.Active)
	b = wire.AppendUint(b, uint64(len(s.History)))
	for i := range s.History {
		h := &s.History[i]
		b = wire.AppendUint(b, uint64(h.History))
		b = appendStates(b, h.States)
	}
	b = appendTests(b, s.Internal)
	b = appendTests(b, s.External)
	b = wire.AppendUint(b, uint64(len(s.Timers)))
	for _, t := range s.Timers {
		b = wire.AppendUint(b, uint64(t.Timer))
		b = wire.AppendUint(b, uint64(t.Event))
		b = wire.AppendFloat(b, t.Due)
	}
	b = wire.AppendFloat(b, s.Now)
	b = wire.AppendUint(b, uint64(len(s.Saved)))
	for _, saved := range s.Saved {
		b = appendStates(b, saved)
	}
	return b
}

// appendState appends a state as a signed varint: markers as their int16
// reading, -4 to -1.
func appendState(b []byte, q StateID) []byte {
	if q >= NoState {
		return wire.AppendInt(b, int64(int16(q)))
	}
	return wire.AppendInt(b, int64(q))
}

// appendStates appends a count then states as unsigned varints.
func appendStates(b []byte, list []StateID) []byte {
	b = wire.AppendUint(b, uint64(len(list)))
	for _, q := range list {
		b = wire.AppendUint(b, uint64(q))
	}
	return b
}

// appendTests appends a count then tests.
func appendTests(b []byte, list []TestID) []byte {
	b = wire.AppendUint(b, uint64(len(list)))
	for _, id := range list {
		b = wire.AppendUint(b, uint64(id))
	}
	return b
}

// checkOrder reports what keeps s from being written as it is.
func (s *Snapshot) checkOrder() error {
	if !ascending(s.Posted) {
		return errors.New("Posted is not strictly ascending")
	}
	if !s.Statechart {
		if len(s.Active) > 0 || len(s.History) > 0 || len(s.Internal) > 0 || len(s.External) > 0 || len(s.Timers) > 0 || len(s.Saved) > 0 || s.Now != 0 {
			return errors.New("statechart fields set in a flat agent's snapshot (Statechart is false)")
		}
		return nil
	}
	if !ascending(s.Active) {
		return errors.New("Active is not strictly ascending")
	}
	for i := range s.History {
		if i > 0 && s.History[i].History <= s.History[i-1].History {
			return errors.New("History is not strictly ascending by history state")
		}
		if !ascending(s.History[i].States) {
			return fmt.Errorf("History[%d].States is not strictly ascending", i)
		}
	}
	if len(s.Saved) != len(s.Stack) {
		return fmt.Errorf("%d saved configurations for a stack of %d states (one each)", len(s.Saved), len(s.Stack))
	}
	for i, saved := range s.Saved {
		if !ascending(saved) {
			return fmt.Errorf("Saved[%d] is not strictly ascending", i)
		}
	}
	return nil
}

// ascending reports whether list is strictly ascending.
func ascending[T StateID | TestID](list []T) bool {
	for i := 1; i < len(list); i++ {
		if list[i] <= list[i-1] {
			return false
		}
	}
	return true
}

// UnmarshalBinary sets s to the snapshot whose binary form is b, reusing
// the capacity of s's slices (so that decoding many snapshots into one
// value allocates nothing once it has grown). It checks only the
// encoding: the flags, every count against the bytes left, IDs within
// their types' ranges, lists ascending where the format says so, as many
// saved configurations as stack entries, and no byte left over; whether
// the snapshot fits a table is [RestoreAgent]'s to check. The error gives
// the byte offset of the problem; on error, s holds what was read.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	r := wire.NewReader(b)
	s.read(r)
	if err := r.Done(); err != nil {
		return fmt.Errorf("table: Snapshot.UnmarshalBinary: %w", err)
	}
	return nil
}

// read reads one snapshot from r, reusing s's slices; r holds the first
// error.
func (s *Snapshot) read(r *wire.Reader) {
	flags := r.Byte()
	if flags&^(snapDone|snapChart) != 0 {
		r.Fail("flags %#x: bits other than 0 (done) and 1 (statechart) set", flags)
	}
	s.Done, s.Statechart = flags&snapDone != 0, flags&snapChart != 0
	s.State = readState(r, "state")
	s.Stack = s.Stack[:0]
	for range r.Count(1, "stack entries") {
		s.Stack = append(s.Stack, readState(r, "stack entry"))
	}
	s.Posted = readTests(r, s.Posted[:0], "posted messages", true)
	s.Active, s.History, s.Internal, s.External = s.Active[:0], s.History[:0], s.Internal[:0], s.External[:0]
	s.Timers, s.Saved, s.Now = s.Timers[:0], s.Saved[:0], 0
	if !s.Statechart || r.Err() != nil {
		return
	}
	s.Active = readStates(r, s.Active, "active states")
	n := r.Count(2, "history records")
	for i := range n {
		s.History = grow(s.History)
		h := &s.History[i]
		h.History = StateID(r.Small(MaxStates-1, "history state"))
		if i > 0 && h.History <= s.History[i-1].History {
			r.Fail("history state %d after %d: not ascending", h.History, s.History[i-1].History)
		}
		h.States = readStates(r, h.States[:0], "recorded states")
	}
	s.Internal = readTests(r, s.Internal, "internal events", false)
	s.External = readTests(r, s.External, "external events", false)
	for range r.Count(10, "pending sends") {
		id := TimerID(r.Small(int(NoTimer), "timer"))
		ev := TestID(r.Small(MaxTests-1, "event"))
		s.Timers = append(s.Timers, Timer{Timer: id, Event: ev, Due: r.Float()})
	}
	s.Now = r.Float()
	n = r.Count(1, "saved configurations")
	if r.Err() == nil && n != len(s.Stack) {
		r.Fail("%d saved configurations for a stack of %d states (one each)", n, len(s.Stack))
		return
	}
	for i := range n {
		s.Saved = grow(s.Saved)
		s.Saved[i] = readStates(r, s.Saved[i][:0], "saved states")
	}
}

// readState reads a state written by appendState.
func readState(r *wire.Reader, what string) StateID {
	v := r.Int()
	switch {
	case v >= -4 && v < 0:
		return StateID(0x10000 + v)
	case v >= 0 && v < int64(MaxStates):
		return StateID(v)
	}
	r.Fail("%s %d: neither a state (0 to %d) nor a marker (-4 to -1)", what, v, MaxStates-1)
	return NoState
}

// readStates reads a count then strictly ascending states, appending them
// to dst.
func readStates(r *wire.Reader, dst []StateID, what string) []StateID {
	for i := range r.Count(1, what) {
		q := StateID(r.Small(MaxStates-1, "state"))
		if i > 0 && q <= dst[len(dst)-1] {
			r.Fail("%s: %d after %d, not ascending", what, q, dst[len(dst)-1])
		}
		dst = append(dst, q)
	}
	return dst
}

// readTests reads a count then tests, strictly ascending if sorted,
// appending them to dst.
func readTests(r *wire.Reader, dst []TestID, what string, sorted bool) []TestID {
	for i := range r.Count(1, what) {
		id := TestID(r.Small(MaxTests-1, "test"))
		if sorted && i > 0 && id <= dst[len(dst)-1] {
			r.Fail("%s: %d after %d, not ascending", what, id, dst[len(dst)-1])
		}
		dst = append(dst, id)
	}
	return dst
}
