package crowd

import (
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/machine"
)

// Redefine makes the machine run states, a new version of its definition,
// keeping every entity where it is: its data stays in place in the
// storage, and its state is renumbered as mp says, by the same rules as
// [Snapshot.Remap]. mp.To[q] is the new state of old state q (mp.To has
// one entry per old state), or [machine.NoState] for a state that is gone,
// whose entities go to mp.Fallback and are reported in mp.Moved with their
// IDs, in bucket order. Several old states may map to one new state. Make
// mp with [machine.NewMapping] from the machine's state names and the new
// definition's description ([machine.MappingBetween] when both
// descriptions are at hand), and set mp.To[q] by hand for a state renamed.
// It moves no entity data: the buckets are renumbered and merged, the
// index by ID rewritten.
//
// The machine then holds what a machine made by [New] with states and
// this machine's options would hold once this machine's [Snapshot],
// remapped by mp, was restored into it, and goes on exactly as that one
// would: the same states, data and previous states, the same bucket order,
// counts, transitions and OnFinal calls, step after step, whatever the
// number of workers. In particular:
//
//   - The bucket of a new state holds the entities of the old states mapped
//     to it, old states in ascending order, each old bucket in its order;
//     each old run of entities stays a run.
//   - A previous state becomes its new ID, or NoState if it is gone; an
//     entity sent to the fallback gets previous state NoState, so that its
//     state function runs its entry code.
//   - Entities added before the next step join the run that adds joined,
//     unless its state is gone, or a later old state maps to the same new
//     state (its runs now follow): they then start a run of their own, as
//     in the restored machine (see [Snapshot.Open]).
//   - [Machine.Transitions] keeps the counts of the last step when every
//     old state keeps its ID (mp.To[q] is q: states added at the end, or
//     only names and functions changed); otherwise it appends nothing until
//     the next step, as after [Machine.Restore].
//
// The observer attached, the workers, the options, the storage and the
// step count are kept; entities removed and not yet purged stay removed.
// Snapshots taken before Redefine name the old states: remap them with mp
// to restore them.
//
// Redefine returns an error, and changes nothing (mp.Moved included), if
// states is not a definition New accepts (see New), if mp is nil or does
// not map the machine's states (one entry of To per state, each NoState or
// a state of states), or if a state is gone and mp.Fallback is not a state
// of states; and one wrapping [ErrBusy] during a step (from a state
// function or OnFinal) or an [Machine.Each] loop. It is not safe for
// concurrent use.
//
// Cost: in time proportional to the states and the runs of the storage,
// plus, when entities change state ID, a rewrite of their entries in the
// index by ID: a pass over the index (a byte per ID up to the largest
// added, four with more than 254 states), or, when they are few, a write
// per entity that changes ID; plus an entry of mp.Moved per entity of a
// gone state. It allocates the new buckets (a few words per state and per
// run), and a new index by ID (4 bytes per ID, or one) when the number of
// states crosses 254. For a million entities (BenchmarkRedefine, medians
// of 5 on a shared 2-core machine) that is about 1.6 µs for a state
// renamed (the mapping told of it) or added, 0.55 ms for the states
// reordered (every entity changing ID) and 2.4 ms for a state removed, its
// quarter of the entities sent to the fallback; a Snapshot and a Restore
// take 23 ms.
func (m *Machine[E]) Redefine(states []Def[E], mp *machine.Mapping) error {
	if m.stepping.Load() || m.iterating > 0 {
		return fmt.Errorf("crowd: Redefine: %w", ErrBusy)
	}
	if err := checkNumStates(len(states)); err != nil {
		return fmt.Errorf("crowd: Redefine: %w", err)
	}
	byName := make(map[string]StateID, len(states))
	if err := checkDefs(states, byName); err != nil {
		return fmt.Errorf("crowd: Redefine: %w", err)
	}
	r, err := m.newRenumbering(mp, len(states))
	if err != nil {
		return fmt.Errorf("crowd: Redefine: %w", err)
	}
	m.reportMoved(&r, mp)
	m.renumberWhere(&r, len(states))
	m.open = r.open(m.open)
	m.renumberBuckets(&r, len(states))
	m.defs, m.byName = slices.Clone(states), byName
	for _, w := range m.scratch {
		if len(w.cnt) < len(states)+1 { // zero between steps, as finish leaves it
			w.cnt, w.off = make([]uint32, len(states)+1), make([]uint32, len(states)+1)
		}
	}
	if !r.identity {
		m.tasks = m.tasks[:0] // Transitions: no step since
	}
	return nil
}

// checkNumStates checks the number of states of a definition.
func checkNumStates(n int) error {
	switch {
	case n == 0:
		return fmt.Errorf("a machine needs at least one state")
	case n > MaxStates:
		return fmt.Errorf("%d states, more than the %d a machine holds", n, MaxStates)
	}
	return nil
}

// renumbering is what Redefine makes of a mapping, per old state.
type renumbering struct {
	to       []StateID // the new state of the old state's entities: its own, or the fallback
	prev     []StateID // what the old state becomes as a previous state: its new ID, or NoState if gone
	identity bool      // every old state keeps its ID
}

// gone reports whether old state q is gone: its entities go to the
// fallback, as newcomers.
func (r *renumbering) gone(q StateID) bool { return r.prev[q] == NoState }

// prevOf returns what previous state p of the entities of old state q
// becomes.
func (r *renumbering) prevOf(q, p StateID) StateID {
	if p == NoState || r.gone(q) {
		return NoState
	}
	return r.prev[p]
}

// open returns what the open state o becomes: its new state, unless o is
// gone or a later old state maps to the same new state, whose runs then
// end the bucket (as [Snapshot.Remap] renumbers Open).
func (r *renumbering) open(o StateID) StateID {
	if o == NoState || r.gone(o) {
		return NoState
	}
	for q := o + 1; q < StateID(len(r.to)); q++ {
		if r.to[q] == r.to[o] {
			return NoState
		}
	}
	return r.to[o]
}

// newRenumbering checks mp against the machine's states and n new ones.
func (m *Machine[E]) newRenumbering(mp *machine.Mapping, n int) (renumbering, error) {
	old := len(m.defs)
	switch {
	case mp == nil:
		return renumbering{}, fmt.Errorf("no mapping (nil): make one with machine.NewMapping from the machine's state names and the new states' description")
	case len(mp.To) != old:
		return renumbering{}, fmt.Errorf("the mapping maps %d states, and the machine has %d: make it from the machine's current states", len(mp.To), old)
	}
	r := renumbering{to: make([]StateID, old), prev: make([]StateID, old), identity: true}
	gone := -1
	for q, to := range mp.To {
		switch {
		case to == machine.NoState:
			gone = q
			r.to[q], r.prev[q] = StateID(mp.Fallback), NoState
		case to < 0 || int64(to) >= int64(n):
			return renumbering{}, fmt.Errorf("the mapping sends state %q to %v, which is not one of the %d new states", m.defs[q].Name, to, n)
		default:
			r.to[q], r.prev[q] = StateID(to), StateID(to)
		}
		r.identity = r.identity && to == machine.StateID(q)
	}
	if gone >= 0 && (mp.Fallback < 0 || int64(mp.Fallback) >= int64(n)) {
		return renumbering{}, fmt.Errorf("state %q is gone (the mapping sends it to NoState), and the mapping's Fallback, %v, is not one of the %d new states: set Fallback to the state its entities are to go to", m.defs[gone].Name, mp.Fallback, n)
	}
	return r, nil
}

// reportMoved appends to mp.Moved the entities of the gone states, in
// bucket order, as Snapshot.Remap reports them.
func (m *Machine[E]) reportMoved(r *renumbering, mp *machine.Mapping) {
	for q := range m.buckets {
		b := &m.buckets[q]
		if !r.gone(StateID(q)) || b.count == 0 {
			continue
		}
		mv := machine.Moved{From: mp.OldName(machine.StateID(q)), To: mp.Fallback}
		mp.Moved = slices.Grow(mp.Moved, b.count)
		for _, sg := range b.segs {
			for _, sl := range m.cur[sg.off : sg.off+sg.n] {
				if b.dead == 0 || m.where.get(sl.id) != dead {
					mv.Entity = uint64(sl.id)
					mp.Moved = append(mp.Moved, mv)
				}
			}
		}
	}
}

// renumberWhere rewrites the index by ID for r and n new states: in place
// entity by entity when few entities change ID, else in one pass over the
// index, into a new one if n states take entries of another size.
func (m *Machine[E]) renumberWhere(r *renumbering, n int) {
	bytes := n <= smallStates
	moving := 0
	for q, to := range r.to {
		if to != StateID(q) {
			moving += m.buckets[q].count
		}
	}
	if bytes == m.where.bytes {
		if moving == 0 {
			return
		}
		if moving < m.where.len()/8 {
			m.renumberEntities(r)
			return
		}
	}
	var lut [256]StateID // for an index of bytes: the new entry of each
	for b := range lut {
		switch {
		case b < len(r.to):
			lut[b] = r.to[b]
		case b == 0xFE:
			lut[b] = dead
		default:
			lut[b] = absent // no entry holds it but 0xFF
		}
	}
	x := &m.where
	switch {
	case x.bytes && bytes:
		var lut8 [256]uint8
		for b, s := range lut {
			lut8[b] = uint8(s)
		}
		for i, b := range x.small {
			x.small[i] = lut8[b]
		}
	case x.bytes:
		big := make([]StateID, len(x.small))
		for i, b := range x.small {
			big[i] = lut[b]
		}
		*x = whereIndex{big: big}
	case bytes:
		small := make([]uint8, len(x.big))
		for i, s := range x.big {
			if s < StateID(len(r.to)) {
				s = r.to[s]
			}
			small[i] = uint8(s) // absent and dead end in 0xFF and 0xFE
		}
		*x = whereIndex{bytes: true, small: small}
	default:
		for i, s := range x.big {
			if s < StateID(len(r.to)) {
				x.big[i] = r.to[s]
			}
		}
	}
	if m.spareWhere.bytes != bytes {
		m.spareWhere = whereIndex{bytes: bytes} // Restore's spare index: of the other size
	}
}

// renumberEntities writes the new state of each entity that changes ID in
// the index by ID.
func (m *Machine[E]) renumberEntities(r *renumbering) {
	for q, to := range r.to {
		b := &m.buckets[q]
		if to == StateID(q) || b.count == 0 {
			continue
		}
		for _, sg := range b.segs {
			for _, sl := range m.cur[sg.off : sg.off+sg.n] {
				if b.dead == 0 || m.where.get(sl.id) != dead {
					m.where.set(sl.id, to)
				}
			}
		}
	}
}

// renumberBuckets makes the n new buckets from the old: each the old
// buckets mapped to it, in ascending order of old state, with their runs'
// previous states renumbered. The new buckets take over the old buckets'
// runs, and the spare buckets the old spares', so that no two share an
// array.
func (m *Machine[E]) renumberBuckets(r *renumbering, n int) {
	buckets := make([]bucket, n)
	for q := range m.buckets {
		old := &m.buckets[q]
		for k := range old.segs {
			old.segs[k].prev = r.prevOf(StateID(q), old.segs[k].prev)
		}
		b := &buckets[r.to[q]]
		if b.segs == nil {
			b.segs = old.segs
		} else {
			b.segs = append(b.segs, old.segs...)
		}
		b.count += old.count
		b.dead += old.dead
	}
	spare := make([]bucket, n)
	for s := range min(n, len(m.nbuckets)) {
		spare[s].segs = m.nbuckets[s].segs[:0]
	}
	m.buckets, m.nbuckets = buckets, spare
}
