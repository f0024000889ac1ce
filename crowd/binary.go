package crowd

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fsmforge/fsmforge/internal/wire"
	"github.com/fsmforge/fsmforge/machine"
)

// snapshotVersion is the version of a Snapshot's binary form.
const snapshotVersion = 1

// AppendBinary appends the snapshot's binary form to b and returns the
// result: its runs (each a state, a previous state and a length) instead
// of a state and a previous state per entity, each ID in 4 bytes, and each
// entity's data as c.Append writes it. A zero Codec (c.Append nil) writes
// no data: the snapshot reads back with every entity's data the zero value
// of E, for a game that keeps its entities' data itself, by ID. See the
// package documentation, "Saving and restoring", for the layout and the
// sizes.
//
// It returns an error, and b unchanged, if the slices' lengths differ, if
// Runs do not add up to the entities or hold an empty run, if Holes is
// negative, or if c.Append fails (the error names the entity).
// It allocates only to grow b.
func (s *Snapshot[E]) AppendBinary(b []byte, c machine.Codec[E]) ([]byte, error) {
	n := len(s.IDs)
	if len(s.States) != n || len(s.Previous) != n || len(s.Data) != n {
		return b, fmt.Errorf("crowd: Snapshot.AppendBinary: %d IDs, %d states, %d previous states and %d data: one of each per entity", n, len(s.States), len(s.Previous), len(s.Data))
	}
	if err := checkRuns(s.Runs, n); err != nil {
		return b, fmt.Errorf("crowd: Snapshot.AppendBinary: %w", err)
	}
	if s.Holes < 0 || s.Holes > maxHoles {
		return b, fmt.Errorf("crowd: Snapshot.AppendBinary: Holes %d is not between 0 and %d", s.Holes, uint32(maxHoles))
	}
	b0 := len(b)
	b = wire.AppendUint(b, snapshotVersion)
	b = wire.AppendUint(b, s.Steps)
	b = wire.AppendUint(b, uint64(n))
	b = slices.Grow(b, 4*n)
	at := len(b)
	b = b[:at+4*n]
	putIDs(b[at:], s.IDs)
	if s.uniform() {
		b = wire.AppendUint(b, uint64(len(s.Runs)))
		at := 0
		for _, n := range s.Runs {
			b = appendRun(b, s.States[at], s.Previous[at], n)
			at += int(n)
		}
	} else {
		runs := 0
		for c := s.runs(); c.next(); {
			runs++
		}
		b = wire.AppendUint(b, uint64(runs))
		for c := s.runs(); c.next(); {
			b = appendRun(b, s.States[c.start], s.Previous[c.start], uint32(c.n))
		}
	}
	b = wire.AppendUint(b, uint64(s.Holes))
	b = wire.AppendUint(b, plusOne(s.Open))
	if c.Append == nil {
		return append(b, 0), nil
	}
	b = append(b, 1)
	for i := range s.Data {
		at := len(b)
		b = append(b, 0) // the length, if under 128
		var err error
		if b, err = c.Append(b, &s.Data[i]); err != nil {
			return b[:b0], fmt.Errorf("crowd: Snapshot.AppendBinary: entity %d (ID %d): %w", i, s.IDs[i], err)
		}
		b = wire.PutLength(b, at, uint64(len(b)-at-1))
	}
	return b, nil
}

// appendRun appends a run: its state, previous state and length.
func appendRun(b []byte, st, prev StateID, n uint32) []byte {
	b = wire.AppendUint(b, uint64(st))
	b = wire.AppendUint(b, plusOne(prev))
	return wire.AppendUint(b, uint64(n))
}

// uniform reports whether s has runs and each run's entities share their
// state and previous state, as a snapshot Snapshot fills has them.
func (s *Snapshot[E]) uniform() bool {
	if len(s.Runs) == 0 {
		return false
	}
	at := 0
	for _, n := range s.Runs {
		if !same(s.States[at:at+int(n)]) || !same(s.Previous[at:at+int(n)]) {
			return false
		}
		at += int(n)
	}
	return true
}

// same reports whether the elements of s, not empty, are all equal.
func same(s []StateID) bool {
	v := s[0]
	for _, x := range s {
		if x != v {
			return false
		}
	}
	return true
}

// putIDs writes ids to b, 4 bytes each, little endian.
func putIDs(b []byte, ids []ID) {
	b = b[:4*len(ids)]
	for len(ids) >= 4 {
		p := (*[16]byte)(b)
		binary.LittleEndian.PutUint32(p[0:], uint32(ids[0]))
		binary.LittleEndian.PutUint32(p[4:], uint32(ids[1]))
		binary.LittleEndian.PutUint32(p[8:], uint32(ids[2]))
		binary.LittleEndian.PutUint32(p[12:], uint32(ids[3]))
		b, ids = b[16:], ids[4:]
	}
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
	}
}

// getIDs reads ids from b, 4 bytes each, little endian.
func getIDs(ids []ID, b []byte) {
	b = b[:4*len(ids)]
	for len(ids) >= 4 {
		p, q := (*[16]byte)(b), (*[4]ID)(ids)
		q[0] = ID(binary.LittleEndian.Uint32(p[0:]))
		q[1] = ID(binary.LittleEndian.Uint32(p[4:]))
		q[2] = ID(binary.LittleEndian.Uint32(p[8:]))
		q[3] = ID(binary.LittleEndian.Uint32(p[12:]))
		b, ids = b[16:], ids[4:]
	}
	for i := range ids {
		ids[i] = ID(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// plusOne writes a state that may be NoState: 0 for NoState, s+1 for s.
func plusOne(s StateID) uint64 {
	if s == NoState {
		return 0
	}
	return uint64(s) + 1
}

// runs returns a cursor over the snapshot's runs, cut as Restore cuts
// them; s.Runs must have been checked.
func (s *Snapshot[E]) runs() runCursor {
	return runCursor{states: s.States, prevs: s.Previous, given: s.Runs}
}

// runCursor walks the runs of a snapshot: given's runs (all the entities
// one if given is empty), cut where the state or the previous state
// changes. Each call of next that returns true moves it to the next run:
// the entities from start, n of them.
type runCursor struct {
	states, prevs []StateID
	given         []uint32
	start, n      int
	cut, k        int // where the next given run starts, and which it is
}

func (c *runCursor) next() bool {
	i := c.start + c.n
	if i >= len(c.states) {
		return false
	}
	if i == c.cut && c.k < len(c.given) {
		c.cut += int(c.given[c.k])
		c.k++
	}
	st, p := c.states[i], c.prevs[i]
	j := i + 1
	for j < len(c.states) && j != c.cut && c.states[j] == st && c.prevs[j] == p {
		j++
	}
	c.start, c.n = i, j-i
	return true
}

// Decode decodes the binary form [Snapshot.AppendBinary] writes
// into s, reusing the capacity of its slices, so that decoding into the
// same value allocates nothing once it has grown (but what c.Decode does).
// Each entity's data is set to the zero value of E, then given to c.Decode
// with the bytes c.Append wrote; if the data was saved with a zero Codec,
// it stays zero, and c is not used.
//
// It checks the form, not the states: [Machine.Restore] checks them against
// the machine. It returns an error, and leaves s empty, if b is truncated,
// has bytes left over, is of another version, lists more entities or runs
// than its bytes can hold, has runs that do not add up to the entities, or
// holds data while c.Decode is nil; or if c.Decode fails (the error names
// the entity). It never allocates more than b's size can account for.
func (s *Snapshot[E]) Decode(b []byte, c machine.Codec[E]) error {
	if err := s.decode(b, c); err != nil {
		s.Steps, s.Holes, s.Open = 0, 0, NoState
		clear(s.Data)
		s.IDs, s.States, s.Previous, s.Data, s.Runs = s.IDs[:0], s.States[:0], s.Previous[:0], s.Data[:0], s.Runs[:0]
		return fmt.Errorf("crowd: Snapshot.Decode: %w", err)
	}
	return nil
}

func (s *Snapshot[E]) decode(b []byte, c machine.Codec[E]) error {
	r := wire.NewReader(b)
	if v := r.Uint(); r.Err() == nil && v != snapshotVersion {
		return fmt.Errorf("version %d, not %d (a save from another version of fsmforge)", v, snapshotVersion)
	}
	s.Steps = r.Uint()
	n := r.Count(4, "entities")
	raw := r.Fixed(4 * n)
	nruns := r.Count(3, "runs")
	if r.Err() != nil {
		return r.Err()
	}
	s.IDs = resize(s.IDs, n)
	getIDs(s.IDs, raw)
	s.States, s.Previous, s.Runs = resize(s.States, n), resize(s.Previous, n), resize(s.Runs, nruns)
	at := 0
	for k := range s.Runs {
		st := StateID(readUint32(r, "state"))
		prev := minusOne(r, "previous state")
		l := r.Small(n-at, "run length")
		if r.Err() != nil {
			return r.Err()
		}
		if l == 0 {
			return fmt.Errorf("byte %d: run %d is empty", r.Offset(), k)
		}
		fill(s.States[at:at+l], st)
		fill(s.Previous[at:at+l], prev)
		s.Runs[k] = uint32(l)
		at += l
	}
	if at != n {
		return fmt.Errorf("byte %d: the runs hold %d entities, not %d", r.Offset(), at, n)
	}
	s.Holes = int(readUint32(r, "holes"))
	s.Open = minusOne(r, "open state")
	saved := r.Bool()
	if r.Err() != nil {
		return r.Err()
	}
	s.Data = resize(s.Data, n)
	clear(s.Data)
	if saved {
		if c.Decode == nil {
			return errors.New("the snapshot holds the entities' data: decoding it needs a Codec with Decode")
		}
		for i := range s.Data {
			p := r.Bytes()
			if r.Err() != nil {
				return r.Err()
			}
			if err := c.Decode(p, &s.Data[i]); err != nil {
				return fmt.Errorf("entity %d (ID %d): %w", i, s.IDs[i], err)
			}
		}
	}
	return r.Done()
}

// minusOne reads a state written by plusOne.
func minusOne(r *wire.Reader, what string) StateID {
	v := r.Uint()
	switch {
	case v == 0:
		return NoState
	case v-1 > math.MaxUint32:
		r.Fail("%s %d is more than %d", what, v-1, uint32(math.MaxUint32))
		return NoState
	}
	return StateID(v - 1)
}

// readUint32 reads a number that must fit in 32 bits.
func readUint32(r *wire.Reader, what string) uint32 {
	v := r.Uint()
	if v > math.MaxUint32 {
		r.Fail("%s %d is more than %d", what, v, uint32(math.MaxUint32))
		return 0
	}
	return uint32(v)
}
