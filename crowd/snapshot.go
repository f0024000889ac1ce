package crowd

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fsmforge/fsmforge/machine"
)

// Snapshot is the state of a [Machine] as plain data, for a saved game, a
// replay or a rollback: its entities, each with its ID, state, previous
// state and data, and how they are laid out. Fill one with
// [Machine.Snapshot], load one with [Machine.Restore]; its binary form is
// written by [Snapshot.AppendBinary] and read by [Snapshot.Decode].
//
// The machine's states and options are not part of it: the game makes the
// machine again with [New] and the same states and options, then restores.
// With the same ChunkSize, the restored machine goes on exactly as the
// saved one would have: the same states, data and bucket order after every
// step, the same counts and transitions, the same OnFinal calls.
//
// IDs, States, Previous and Data hold one entry per entity, in bucket
// order: the entities of state 0 in the order the next step runs them,
// then those of state 1, and so on. Runs, Holes and Open describe the
// storage: how the next steps cut the buckets into work, which decides the
// order inside the buckets after them. A snapshot made by hand may leave
// them zero; its machine then steps as correctly, in an order of its own.
type Snapshot[E any] struct {
	// Steps is the number of steps taken, [Machine.Steps].
	Steps uint64

	// IDs holds each entity's ID.
	IDs []ID
	// States holds each entity's state.
	States []StateID
	// Previous holds the state each entity was in at the previous step,
	// what its state function gets as prev: [NoState] for an entity added
	// since.
	Previous []StateID
	// Data holds each entity's data: a copy, which shares what the data
	// points to with the machine, when E holds pointers.
	Data []E

	// Runs holds the lengths of the runs the entities are stored in, in
	// order; they add up to the number of entities, and the entities of a
	// run share their state and previous state. Restore also cuts a run
	// where the state or the previous state changes, so that nil means
	// one run per stretch of entities sharing both.
	Runs []uint32
	// Holes is the number of places in the storage that hold no entity:
	// the storage is rewritten when they outnumber the entities.
	Holes int
	// Open is the state whose last run ends the storage: entities added
	// to that state before the next step join that run. It is [NoState]
	// when there is none; Restore ignores a state whose last run has a
	// previous state other than NoState.
	Open StateID
}

// Snapshot fills dst with the machine's state, reusing the capacity of
// dst's slices, so that snapshots taken into the same value allocate
// nothing once it has grown. Entities removed since the last step are left
// out, as the next step would drop them.
//
// Snapshot panics if called during a step (from a state function or
// OnFinal) or an [Machine.Each] loop: take snapshots between steps.
//
// Cost: O(entities), a copy of each entity's ID and data and a write of its
// two states, about 1.5 times as long as copying the bytes written (see the
// package documentation, "Saving and restoring").
func (m *Machine[E]) Snapshot(dst *Snapshot[E]) {
	if m.stepping.Load() || m.iterating > 0 {
		panic("crowd: Machine.Snapshot called during a step or an Each loop (take snapshots between steps)")
	}
	n := m.total
	ids, states, prevs := resize(dst.IDs, n), resize(dst.States, n), resize(dst.Previous, n)
	if len(dst.Data) > n {
		clear(dst.Data[n:]) // let the data of the previous snapshot go
	}
	data := resize(dst.Data, n)
	runs := dst.Runs[:0]
	i := 0
	for s := range m.buckets {
		b := &m.buckets[s]
		for _, sg := range b.segs {
			start := i
			src := m.cur[sg.off : sg.off+sg.n]
			if b.dead == 0 {
				copySlots(ids[i:i+len(src)], data[i:i+len(src)], src)
				i += len(src)
			} else {
				for j := range src {
					if m.where.get(src[j].id) != dead {
						ids[i], data[i] = src[j].id, src[j].data
						i++
					}
				}
			}
			if i == start {
				continue
			}
			fill(states[start:i], StateID(s))
			fill(prevs[start:i], sg.prev)
			runs = append(runs, uint32(i-start))
		}
	}
	dst.Steps = m.steps
	dst.IDs, dst.States, dst.Previous, dst.Data, dst.Runs = ids, states, prevs, data, runs
	dst.Holes = len(m.cur) + m.ghost - m.total
	dst.Open = m.openAfterPurge()
}

// openAfterPurge returns m.open as the next purge leaves it: NoState if the
// open segment holds only removed entities.
func (m *Machine[E]) openAfterPurge() StateID {
	if m.open == NoState || m.buckets[m.open].dead == 0 {
		return m.open
	}
	b := &m.buckets[m.open]
	sg := b.segs[len(b.segs)-1]
	for _, sl := range m.cur[sg.off : sg.off+sg.n] {
		if m.where.get(sl.id) != dead {
			return m.open
		}
	}
	return NoState
}

// resize returns s with length n, in a new array if s's is too small.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// copySlots copies the IDs and data of src to ids and data, of the same
// length.
func copySlots[E any](ids []ID, data []E, src []slot[E]) {
	ids, data = ids[:len(src)], data[:len(src)]
	for j := range src {
		ids[j] = src[j].id
		data[j] = src[j].data
	}
}

// fill sets every element of s to v: a few at a time, then by doubling
// copies, which run at the speed of copy.
func fill[T any](s []T, v T) {
	const few = 16
	for i := range s[:min(len(s), few)] {
		s[i] = v
	}
	for k := few; k < len(s); k *= 2 {
		copy(s[k:], s[:k])
	}
}

// run is a run of entities of a snapshot, for Restore: s.IDs[start:start+n]
// and the other slices' entries there, stored from off.
type run struct {
	start, n, off uint32
	state, prev   StateID
}

// maxHoles is the most Holes a snapshot may have: the storage's places are
// numbered by uint32.
const maxHoles = math.MaxUint32

// Restore replaces the machine's entities with those of s: each entity in
// its state, with its previous state (so that a state function sees prev ==
// its own state for an entity that had been in it, and runs no entry code
// again) and its data; the step count is s.Steps. With s taken from a
// machine of the same states and ChunkSize, the machine then goes on
// exactly as that one would have (see [Snapshot]). Restore copies what it
// needs: s may be reused or changed afterwards. [Machine.Transitions]
// reports nothing until the next step. The observer attached, the workers
// and the options are kept.
//
// The entities need not be grouped by state (after [Snapshot.Remap] they
// may not be): Restore puts each state's in the order s lists them.
//
// Restore checks the whole snapshot before it changes the machine and, if
// it is not one the machine could hold, returns an error that says what
// and where, and changes nothing: slices of different lengths, Runs that do
// not add up to the entities or hold an empty run, a state or previous
// state the machine does not have, an ID above [Machine.MaxID] or listed
// twice, Holes negative or above 2³²−1, an Open that is neither NoState
// nor a state. It returns [ErrBusy] during a step or an Each loop.
//
// Cost: O(entities): a copy of each entity's ID and data into the spare
// storage, which then becomes the storage, and a write of its state into
// the index by ID that the last Restore replaced (allocated the first
// time, a byte, or four, per ID up to the largest), which then becomes the
// index; about three times a copy of the snapshot's IDs, states and
// previous states (see the package documentation, "Saving and
// restoring"). It allocates the spare storage too if it is too small.
func (m *Machine[E]) Restore(s *Snapshot[E]) error {
	if m.stepping.Load() || m.iterating > 0 {
		return fmt.Errorf("crowd: Restore: %w", ErrBusy)
	}
	if err := m.checkShape(s); err != nil {
		return fmt.Errorf("crowd: Restore: %w", err)
	}
	trust := len(s.Runs) > 0 // the runs are uniform, until seen otherwise
	for {
		runs, err := m.planRuns(s, trust)
		if err != nil {
			return fmt.Errorf("crowd: Restore: %w", err)
		}
		where, err := m.storeRuns(s, runs)
		if err == errMixed && trust {
			trust = false // a run mixes states: cut it where they change
			continue
		}
		if err != nil {
			return fmt.Errorf("crowd: Restore: %w", err)
		}
		m.commitRestore(s, runs, where)
		return nil
	}
}

// checkShape checks what Restore checks before looking at the entities.
func (m *Machine[E]) checkShape(s *Snapshot[E]) error {
	n := len(s.IDs)
	switch {
	case len(s.States) != n || len(s.Previous) != n || len(s.Data) != n:
		return fmt.Errorf("the snapshot has %d IDs, %d states, %d previous states and %d data: one of each per entity", n, len(s.States), len(s.Previous), len(s.Data))
	case s.Holes < 0 || s.Holes > maxHoles:
		return fmt.Errorf("Holes %d is not between 0 and %d", s.Holes, uint32(maxHoles))
	case s.Open != NoState && int64(s.Open) >= int64(len(m.defs)):
		return fmt.Errorf("Open is %s, not a state (the machine has %d states) nor NoState", s.Open, len(m.defs))
	}
	return checkRuns(s.Runs, n)
}

// checkRuns checks that runs, if any, are not empty and add up to n
// entities.
func checkRuns(runs []uint32, n int) error {
	if len(runs) == 0 {
		return nil
	}
	sum := 0
	for i, r := range runs {
		if r == 0 {
			return fmt.Errorf("run %d is empty", i)
		}
		sum += int(r)
	}
	if sum != n {
		return fmt.Errorf("the runs hold %d entities, not %d", sum, n)
	}
	return nil
}

// planRuns returns the runs of s in the order they are to be stored, each
// with its place in the storage, and checks their states. If trust is
// set, they are s.Runs, assumed uniform (storeRuns checks); else s.Runs
// cut where the state or the previous state changes.
func (m *Machine[E]) planRuns(s *Snapshot[E], trust bool) ([]run, error) {
	runs := m.restoreRuns[:0]
	if trust {
		at := uint32(0)
		for _, n := range s.Runs {
			runs = append(runs, run{start: at, n: n, state: s.States[at], prev: s.Previous[at]})
			at += n
		}
	} else {
		for c := s.runs(); c.next(); {
			runs = append(runs, run{start: uint32(c.start), n: uint32(c.n), state: s.States[c.start], prev: s.Previous[c.start]})
		}
	}
	m.restoreRuns = runs
	numStates := StateID(len(m.defs))
	for _, r := range runs {
		if r.state >= numStates {
			return nil, fmt.Errorf("entity %d (ID %d): state %s does not exist (the machine has %d states)", r.start, s.IDs[r.start], r.state, numStates)
		}
		if r.prev >= numStates && r.prev != NoState {
			return nil, fmt.Errorf("entity %d (ID %d): previous state %s does not exist (the machine has %d states)", r.start, s.IDs[r.start], r.prev, numStates)
		}
	}
	runs = m.sortRuns()

	// The open state's last run goes last, so that adds can join it.
	last := -1
	if s.Open != NoState {
		for k := len(runs) - 1; k >= 0 && runs[k].state >= s.Open; k-- {
			if runs[k].state == s.Open {
				if runs[k].prev == NoState {
					last = k
				}
				break
			}
		}
	}
	off := uint32(0)
	for k := range runs {
		if k != last {
			runs[k].off = off
			off += runs[k].n
		}
	}
	if last >= 0 {
		runs[last].off = off
	}
	return runs, nil
}

// sortRuns puts m.restoreRuns in state order, keeping the order of each
// state's, and returns them.
func (m *Machine[E]) sortRuns() []run {
	runs := m.restoreRuns
	sorted := true
	for k := 1; k < len(runs) && sorted; k++ {
		sorted = runs[k].state >= runs[k-1].state
	}
	if sorted {
		return runs
	}
	// A counting sort by state.
	at := make([]int, len(m.defs)+1)
	for _, r := range runs {
		at[r.state+1]++
	}
	for s := 1; s < len(at); s++ {
		at[s] += at[s-1]
	}
	out := make([]run, len(runs))
	for _, r := range runs {
		out[at[r.state]] = r
		at[r.state]++
	}
	m.restoreRuns = out
	return out
}

// errMixed reports a run whose entities do not share their states.
var errMixed = errors.New("crowd: internal: a run mixes states")

// storeRuns copies the entities of s to the spare storage, where runs
// says, and returns a new index by ID of their states; or an error, the
// machine unchanged, if an ID is above the largest or listed twice, or
// errMixed if a run is not uniform.
func (m *Machine[E]) storeRuns(s *Snapshot[E], runs []run) (whereIndex, error) {
	n := len(s.IDs)
	if cap(m.nxt) < n {
		m.nxt = nil // let the old spare go first
		m.nxt = make([]slot[E], n, 2*n+n/4+2*m.chunk)
	}
	store := m.nxt[:n]
	// The index by ID the last Restore replaced, if any, else a new one.
	where := m.spareWhere
	m.spareWhere = whereIndex{bytes: m.where.bytes}
	if where.bytes {
		fill(where.small, 0xFF)
	} else {
		fill(where.big, absent)
	}
	if l := m.where.len(); l > where.len() {
		where.grow(ID(l - 1))
	}
	for k := range runs {
		r := &runs[k]
		for j := 0; j < int(r.n); {
			var bad int
			var why fault
			if where.bytes {
				bad, why = storeRun(s, r, j, store, where.small, 0xFF, uint8(r.state), m.maxID)
			} else {
				bad, why = storeRun(s, r, j, store, where.big, absent, r.state, m.maxID)
			}
			if why == fine {
				break
			}
			i := int(r.start) + bad // the entity, in s
			id := s.IDs[i]
			if why == outside && id <= m.maxID {
				where.grow(min(max(id, ID(2*where.len())), m.maxID))
				j = bad
				continue
			}
			if m.pointers {
				clear(store)
			}
			switch why {
			case outside:
				return where, fmt.Errorf("entity %d: ID %d is above the machine's largest ID, %d (Options.MaxID)", i, id, m.maxID)
			case twice:
				first := slices.Index(s.IDs, id)
				if first == i {
					first = i + 1 + slices.Index(s.IDs[i+1:], id)
				}
				return where, fmt.Errorf("entities %d and %d both have ID %d", min(first, i), max(first, i), id)
			}
			return where, errMixed
		}
	}
	return where, nil
}

// fault says why storeRun stopped.
type fault uint8

const (
	fine    fault = iota
	outside       // an ID beyond the index (or above the largest)
	twice         // an ID already stored
	mixed         // an entity whose states are not its run's
)

// storeRun copies the entities of run r of s from the j-th on to store,
// and records their state st in the index by ID idx. It returns the index
// in the run of the entity it stopped at, and why.
func storeRun[E any, W uint8 | StateID](s *Snapshot[E], r *run, j int, store []slot[E], idx []W, absent, st W, maxID ID) (int, fault) {
	lo, hi := int(r.start)+j, int(r.start+r.n)
	ids, data := s.IDs[lo:hi], s.Data[lo:hi]
	states, prevs := s.States[lo:hi], s.Previous[lo:hi]
	out := store[int(r.off)+j : int(r.off+r.n)]
	out, data = out[:len(ids)], data[:len(ids)]
	states, prevs = states[:len(ids)], prevs[:len(ids)]
	for i, id := range ids {
		if int(id) >= len(idx) {
			return j + i, outside
		}
		if idx[id] != absent {
			return j + i, twice
		}
		if states[i] != r.state || prevs[i] != r.prev {
			return j + i, mixed
		}
		idx[id] = st
		out[i] = slot[E]{data: data[i], id: id}
	}
	return 0, fine
}

// commitRestore makes the machine hold what storeRuns stored.
func (m *Machine[E]) commitRestore(s *Snapshot[E], runs []run, where whereIndex) {
	n := len(s.IDs)
	if m.pointers {
		clear(m.cur) // the old entities' data
	}
	m.cur, m.nxt = m.nxt[:n], m.cur[:0]
	m.where, m.spareWhere = where, m.where
	for st := range m.buckets {
		b := &m.buckets[st]
		b.segs, b.count, b.dead = b.segs[:0], 0, 0
	}
	m.open = NoState
	for _, r := range runs {
		b := &m.buckets[r.state]
		b.segs = append(b.segs, seg{r.off, r.n, r.prev})
		b.count += int(r.n)
		if r.off+r.n == uint32(n) && r.prev == NoState && r.state == s.Open {
			m.open = s.Open
		}
	}
	m.total, m.dead, m.steps, m.ghost = n, 0, s.Steps, s.Holes
	m.tasks = m.tasks[:0] // Transitions: no step since
}

// Remap renumbers the snapshot's states for a machine whose states differ
// from those it was taken from, by name, as mp says (see
// [machine.Mapping]; make mp with [machine.NewMapping] from the saved
// states' names and the new machine's [Machine.Describe]). Each entity
// whose state has no namesake goes to mp.Fallback, reported in mp.Moved
// with its ID as Entity, and gets previous state NoState, so that it runs
// the entry code of the state it is put in. A previous state with no
// namesake becomes NoState; so does Open, and also when a later state maps
// to the same new state as Open (the fallback included), since that
// state's runs then follow Open's ([Machine.Redefine] leaves it so). Runs
// are kept: a run's entities still share their states. The entities are
// no longer grouped by state when two old states map to one new; Restore
// groups them.
//
// Remap maps each stretch of entities that share a state and a previous
// state once, not entity by entity: for a million entities, about half
// the time.
func (s *Snapshot[E]) Remap(mp *machine.Mapping) {
	if len(s.Previous) == len(s.States) && len(s.IDs) == len(s.States) {
		s.remapRuns(mp)
	} else {
		s.remapEach(mp) // a snapshot made by hand
	}
	s.Open = remapOpen(mp, s.Open)
}

// remapRuns is Remap's work on the entities, a stretch that shares its
// state and previous state at a time; an entity whose state is gone is
// mapped, and reported, one by one, as remapEach does.
func (s *Snapshot[E]) remapRuns(mp *machine.Mapping) {
	states, prevs := s.States, s.Previous
	for i := 0; i < len(states); {
		st, prev := states[i], prevs[i]
		j := i + 1
		for j < len(states) && states[j] == st && prevs[j] == prev {
			j++
		}
		p := byName(mp, prev)
		switch to := byName(mp, st); {
		case st == NoState || st == Final: // not a state: kept, as mp.State keeps it
			fill(prevs[i:j], p)
		case to != NoState:
			fill(states[i:j], to)
			fill(prevs[i:j], p)
		default:
			for k := i; k < j; k++ {
				moved := len(mp.Moved)
				states[k] = fromMachine(mp.State(uint64(s.IDs[k]), toMachine(st)))
				if len(mp.Moved) > moved {
					prevs[k] = NoState
				} else {
					prevs[k] = p
				}
			}
		}
		i = j
	}
}

// remapEach is Remap's work on the entities, one by one, for a snapshot
// whose slices' lengths differ.
func (s *Snapshot[E]) remapEach(mp *machine.Mapping) {
	for i, st := range s.States {
		var e uint64
		if i < len(s.IDs) {
			e = uint64(s.IDs[i])
		}
		moved := len(mp.Moved)
		s.States[i] = fromMachine(mp.State(e, toMachine(st)))
		if i < len(s.Previous) {
			if len(mp.Moved) > moved {
				s.Previous[i] = NoState
			} else {
				s.Previous[i] = byName(mp, s.Previous[i])
			}
		}
	}
}

// remapOpen returns what Open becomes under mp: its namesake, or NoState
// if it has none, or if a later old state maps to the same new state (the
// fallback included): that state's runs then end the new state's entities,
// and adds cannot join Open's last run, which no longer does.
func remapOpen(mp *machine.Mapping, open StateID) StateID {
	to := byName(mp, open)
	if to == NoState {
		return NoState
	}
	for q := open + 1; q < StateID(len(mp.To)); q++ {
		if r := mp.To[q]; StateID(r) == to || r == machine.NoState && StateID(mp.Fallback) == to {
			return NoState
		}
	}
	return to
}

// byName returns the new ID of old state st, or NoState if it has no
// namesake.
func byName(mp *machine.Mapping, st StateID) StateID {
	if st < StateID(len(mp.To)) && mp.To[st] >= 0 {
		return StateID(mp.To[st])
	}
	return NoState
}

// toMachine returns s as a machine.StateID.
func toMachine(s StateID) machine.StateID {
	switch {
	case s == Final:
		return machine.Final
	case s == NoState:
		return machine.NoState
	case s > math.MaxInt32:
		return math.MaxInt32 // no state, as s is not
	}
	return machine.StateID(s)
}

// fromMachine returns s as a StateID.
func fromMachine(s machine.StateID) StateID {
	switch s {
	case machine.Final:
		return Final
	case machine.NoState:
		return NoState
	}
	return StateID(s)
}
