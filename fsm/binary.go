package fsm

import (
	"fmt"

	"github.com/fsmforge/fsmforge/internal/wire"
)

// binaryVersion is the version of the binary forms of Snapshot and
// BehaviorSnapshot: their first byte.
const binaryVersion = 1

// appendID appends id as an unsigned varint of id+1, so that NoState is 0.
func appendID(b []byte, id StateID) []byte {
	if id == NoState {
		return wire.AppendUint(b, 0)
	}
	return wire.AppendUint(b, uint64(id)+1)
}

// readID reads what appendID wrote.
func readID(r *wire.Reader, what string) StateID {
	v := r.Small(MaxStates, what)
	if v == 0 {
		return NoState
	}
	return StateID(v - 1)
}

// AppendBinary appends the snapshot's binary form to b: a version (1) and
// the two states, each as an unsigned varint of its ID plus one (0 for
// [NoState]); 3 bytes for graphs of up to 127 states. The error is always
// nil. It allocates only if b must grow.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	b = wire.AppendUint(b, binaryVersion)
	b = appendID(b, s.State)
	return appendID(b, s.Previous), nil
}

// MarshalBinary returns the snapshot's binary form (see AppendBinary).
func (s *Snapshot) MarshalBinary() ([]byte, error) { return s.AppendBinary(make([]byte, 0, 8)) }

// UnmarshalBinary sets s from the binary form AppendBinary wrote. It checks
// the form only (a state ID is at most [MaxStates]-1), not that the states
// are those of a graph: [Graph.Restore] does. On error, which names the
// byte where reading stopped, s is unchanged.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	r := wire.NewReader(b)
	r.Version(binaryVersion)
	state := readID(r, "state")
	prev := readID(r, "previous state")
	if err := r.Done(); err != nil {
		return fmt.Errorf("fsm: Snapshot.UnmarshalBinary: %w", err)
	}
	s.State, s.Previous = state, prev
	return nil
}

// AppendBinary appends the snapshot's binary form to b: a version (1) and
// the current, previous and global states, each as an unsigned varint of
// its ID plus one (0 for [NoState]). The error is always nil. It allocates
// only if b must grow.
func (s *BehaviorSnapshot) AppendBinary(b []byte) ([]byte, error) {
	b = wire.AppendUint(b, binaryVersion)
	b = appendID(b, s.Current)
	b = appendID(b, s.Previous)
	return appendID(b, s.Global), nil
}

// MarshalBinary returns the snapshot's binary form (see AppendBinary).
func (s *BehaviorSnapshot) MarshalBinary() ([]byte, error) {
	return s.AppendBinary(make([]byte, 0, 8))
}

// UnmarshalBinary sets s from the binary form AppendBinary wrote. It checks
// the form only, not that the states are registered:
// [BehaviorMachine.Restore] does. On error, which names the byte where
// reading stopped, s is unchanged.
func (s *BehaviorSnapshot) UnmarshalBinary(b []byte) error {
	r := wire.NewReader(b)
	r.Version(binaryVersion)
	cur := readID(r, "current state")
	prev := readID(r, "previous state")
	glob := readID(r, "global state")
	if err := r.Done(); err != nil {
		return fmt.Errorf("fsm: BehaviorSnapshot.UnmarshalBinary: %w", err)
	}
	s.Current, s.Previous, s.Global = cur, prev, glob
	return nil
}
