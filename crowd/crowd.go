package crowd

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/fsmforge/fsmforge/machine"
)

// StateID identifies a state of a [Machine]: the index of its [Def] in the
// slice given to [New]. Two values are reserved: [Final] and [NoState].
type StateID uint32

const (
	// Final, returned by a state function, removes the entity after the
	// step; [Options.OnFinal] sees it go.
	Final StateID = math.MaxUint32
	// NoState is the previous state of an entity that has not been
	// stepped yet, so that a state function sees prev != its own state on
	// an entity's first step, as it does on every entry.
	NoState StateID = math.MaxUint32 - 1
	// MaxStates is the most states a Machine holds: 2³¹−1, so that every
	// state has a [machine.StateID] in [Machine.Describe] and in the events
	// an observer gets.
	MaxStates = math.MaxInt32
)

// String returns "#n", "final" or "none". Use [Machine.StateName] for the name.
func (s StateID) String() string {
	switch s {
	case Final:
		return "final"
	case NoState:
		return "none"
	}
	return "#" + strconv.FormatUint(uint64(s), 10)
}

// ID is the game's handle for an entity: an index into its own columns, an
// ECS entity index, a pool slot. The machine keeps a byte per ID up to the
// largest one added (four if it has more than 254 states), so IDs should be
// dense; it accepts IDs up to [Options.MaxID].
type ID uint32

// MaxID is the largest value [Options.MaxID] may take: the largest ID a
// Machine can be made to accept. A machine that holds it keeps 1 GiB (or
// 4 GiB) for its index by ID.
const MaxID ID = 1<<30 - 1

// DefaultMaxID is the largest ID a Machine accepts when [Options.MaxID] is
// 0: 16,777,215, for which its index by ID takes 16 MiB (or 64 MiB).
const DefaultMaxID ID = 1<<24 - 1

// Func is a per-entity state function: it gets the entity's data and the
// state the entity was in at the previous step ([NoState] on its first step),
// and returns the state for the next step, or [Final]. It may change the
// data freely; the data moves with the entity from bucket to bucket.
type Func[E any] func(e *E, prev StateID) StateID

// BatchFunc is a per-bucket state function: it gets a run of the state's
// entities at once (see [Batch]), so the compiler can inline the loop over
// them. Every entity stays in the state unless the function calls
// [Batch.Set].
type BatchFunc[E any] func(b *Batch[E])

// Def defines one state: a unique name and exactly one of Func and Batch.
type Def[E any] struct {
	Name  string
	Func  Func[E]
	Batch BatchFunc[E]
}

// Options configures a [Machine]. The zero value is the default.
type Options[E any] struct {
	// OnFinal, if set, is called after each step for every entity whose
	// state function returned Final, in bucket order, once it has left the
	// machine: the game's hook to despawn it. It runs on the goroutine that
	// called Step and may call Add and Remove. e points to the machine's
	// last copy of the entity's data, which is cleared after the call (see
	// the package documentation, "What the machine keeps").
	OnFinal func(id ID, e *E)
	// ChunkSize is how many entities make one unit of work for a worker;
	// default 2048. The result of a step depends on it (the order inside
	// buckets does), never on the number of workers.
	ChunkSize int
	// MaxID is the largest ID the machine accepts: Add refuses larger ones
	// with an error, rather than grow its index by ID (a byte per ID up to
	// the largest added, four with more than 254 states) to the size of a
	// stray ID. Default 0: [DefaultMaxID] (16,777,215). More than the
	// constant [MaxID] (2³⁰−1) is an error of New.
	MaxID ID
}

// Errors returned by the Machine's methods.
var (
	ErrExists   = errors.New("crowd: entity already added")
	ErrNotFound = errors.New("crowd: no such entity")
	ErrBusy     = errors.New("crowd: machine is stepping or iterating; Step cannot start inside a state function, OnFinal or an Each loop")
	ErrWorkers  = errors.New("crowd: worker count must be at least 1")
)

// Machine runs many entities through one state machine: the entities of each
// state sit in that state's bucket, and [Machine.Step] runs each bucket
// through its state's function, moving every entity (its data included) to
// the bucket of the state it returned. See the package documentation for the
// design.
//
// A Machine is not safe for concurrent use, except that state functions
// running on workers during Step may call [Machine.Add] and
// [Machine.Remove]. Close it to stop its worker goroutines.
type Machine[E any] struct {
	defs    []Def[E]
	byName  map[string]StateID
	opts    Options[E]
	chunk   int
	maxID   ID
	workers int
	// pointers tells whether E holds pointers. Only then does a step clear
	// the copies its entities leave behind in the storage, the spare and
	// the arena (see the package documentation, "What the machine keeps"):
	// for an E without pointers a stale copy keeps nothing alive, and
	// clearing it would cost a write per mover and per entity defragmented,
	// a few percent of a step of W3.
	pointers bool

	cur, nxt    []slot[E] // the entities, grouped in segments; nxt is the spare for defrag
	arena       []slot[E] // where a step's movers wait for their place
	arenaNext   []StateID // and their next states
	arenaUsed   atomic.Int64
	buckets     []bucket   // per state, segments of cur
	nbuckets    []bucket   // per state, segments of nxt, built by a step
	where       whereIndex // per ID: its state, or absent / dead
	spareWhere  whereIndex // the index the last Restore replaced, for the next
	dead        int        // removed entities still in buckets
	total       int        // live entities
	ghost       int        // holes of a restored storage, counted but not allocated (see Restore)
	open        StateID    // the state whose last segment ends the storage and takes adds, or NoState
	steps       uint64
	stepping    atomic.Bool
	iterating   int
	pieces      []seg
	stayBuf     []seg    // the tasks' stays
	targetBuf   []target // the tasks' targets
	runBuf      []span   // the tasks' runs of movers
	tasks       []task[E]
	claim       atomic.Int64
	phase       int
	jobs        int
	dsts        []uint32  // defrag: where each piece goes
	arrivals    []uint32  // per state, during place
	lastArrival []int32   // per state, during place: its last run in arrivalSegs, or -1
	arrivalSegs []arrival // per state receiving entities in the last step
	abort       atomic.Bool
	restoreRuns []run // Restore's runs of the snapshot, kept for the next
	scratch     []*scratch
	mu          sync.Mutex // guards pending during a step
	pending     []op[E]

	obs   machine.Observer      // attached by Observe, or nil
	batch machine.BatchObserver // obs, if it takes batches

	crew     chan struct{} // a token per worker wanted for a phase
	crewN    int
	crewBusy atomic.Int32 // tokens of the phase not yet done with
	closed   bool
	addErrs  []error
}

// where[] markers.
const (
	absent StateID = math.MaxUint32     // never added, or gone
	dead   StateID = math.MaxUint32 - 1 // removed, still in a bucket until purged
)

type slot[E any] struct {
	data E
	id   ID
}

// seg is a run of entities in a backing array that were all in state prev
// at the previous step: the previous state is kept per run, not per entity.
type seg struct {
	off, n uint32
	prev   StateID
}

type bucket struct {
	segs  []seg
	count int // live entities
	dead  int // tombstones among them
}

type op[E any] struct {
	add   bool
	twice bool // an add of an ID added twice in one step: not carried out
	id    ID
	state StateID
	data  E
}

// New builds a machine from its states. It returns an error naming the state
// if a name is empty or repeated, if a state has both or neither of Func and
// Batch, or if there are more than [MaxStates] states or none; and an error
// if opts.ChunkSize is negative or opts.MaxID above [MaxID].
// Workers default to runtime.GOMAXPROCS(0); see [Machine.SetWorkers].
func New[E any](states []Def[E], opts Options[E]) (*Machine[E], error) {
	if err := checkNumStates(len(states)); err != nil {
		return nil, fmt.Errorf("crowd: %w", err)
	}
	switch {
	case opts.ChunkSize < 0:
		return nil, fmt.Errorf("crowd: ChunkSize %d is negative (0 means the default, 2048)", opts.ChunkSize)
	case opts.MaxID > MaxID:
		return nil, fmt.Errorf("crowd: Options.MaxID %d is above crowd.MaxID (%d)", opts.MaxID, MaxID)
	}
	m := &Machine[E]{
		defs:     slices.Clone(states),
		byName:   make(map[string]StateID, len(states)),
		opts:     opts,
		chunk:    cmp.Or(opts.ChunkSize, 2048),
		maxID:    cmp.Or(opts.MaxID, DefaultMaxID),
		workers:  runtime.GOMAXPROCS(0),
		pointers: holdsPointers(reflect.TypeFor[E]()),
		open:     NoState,
	}
	if err := checkDefs(states, m.byName); err != nil {
		return nil, fmt.Errorf("crowd: %w", err)
	}
	m.where = newWhereIndex(len(states))
	m.spareWhere = m.where
	m.buckets = make([]bucket, len(states))
	m.nbuckets = make([]bucket, len(states))
	return m, nil
}

// checkDefs checks states as New does, but for their number, and fills
// byName, which must be empty, with their IDs by name.
func checkDefs[E any](states []Def[E], byName map[string]StateID) error {
	for i, d := range states {
		switch {
		case d.Name == "":
			return fmt.Errorf("state #%d has no name", i)
		case (d.Func == nil) == (d.Batch == nil):
			return fmt.Errorf("state %q (#%d) needs exactly one of Func and Batch", d.Name, i)
		}
		if j, dup := byName[d.Name]; dup {
			return fmt.Errorf("states #%d and #%d are both named %q", j, i, d.Name)
		}
		byName[d.Name] = StateID(i)
	}
	return nil
}

// SetWorkers sets how many goroutines a step uses, counting the caller's;
// n must be at least 1. The result of a step does not depend on it.
func (m *Machine[E]) SetWorkers(n int) error {
	if n < 1 {
		return fmt.Errorf("%w, not %d", ErrWorkers, n)
	}
	m.workers = n
	return nil
}

// Workers returns the number of goroutines a step uses.
func (m *Machine[E]) Workers() int { return m.workers }

// MaxID returns the largest ID the machine accepts: [Options.MaxID], or
// [DefaultMaxID].
func (m *Machine[E]) MaxID() ID { return m.maxID }

// Close stops the machine's worker goroutines. The machine stays usable and
// steps on the caller's goroutine alone from then on.
func (m *Machine[E]) Close() {
	if m.crew != nil {
		close(m.crew)
		m.crew = nil
	}
	m.closed = true
}

// NumStates returns the number of states.
func (m *Machine[E]) NumStates() int { return len(m.defs) }

// Name returns the name of state s, or s.String() if s is not one of the
// machine's states.
func (m *Machine[E]) StateName(s StateID) string {
	if int64(s) < int64(len(m.defs)) {
		return m.defs[s].Name
	}
	return s.String()
}

// Lookup returns the state named name.
func (m *Machine[E]) LookupState(name string) (StateID, bool) {
	s, ok := m.byName[name]
	return s, ok
}

// Len returns the number of entities in the machine.
func (m *Machine[E]) Len() int { return m.total }

// Count returns the number of entities in state s (0 for a state the machine
// does not have).
func (m *Machine[E]) Count(s StateID) int {
	if int64(s) >= int64(len(m.buckets)) {
		return 0
	}
	return m.buckets[s].count
}

// Counts appends the count of every state, in state order, to dst.
func (m *Machine[E]) Counts(dst []int) []int {
	for i := range m.buckets {
		dst = append(dst, m.buckets[i].count)
	}
	return dst
}

// Steps returns the number of steps taken.
func (m *Machine[E]) Steps() uint64 { return m.steps }

// StateOf returns the state of entity id, and whether the machine holds it.
// During a step it is the state before the step.
func (m *Machine[E]) StateOf(id ID) (StateID, bool) {
	if int(id) >= m.where.len() {
		return 0, false
	}
	s := m.where.get(id)
	if s == absent || s == dead {
		return 0, false
	}
	return s, true
}

func (m *Machine[E]) checkState(s StateID) error {
	if int64(s) >= int64(len(m.defs)) {
		return fmt.Errorf("crowd: state %s does not exist (the machine has %d states)", s, len(m.defs))
	}
	return nil
}

// Add puts entity id, with its data, in state s. The entity's first step
// sees prev == [NoState] ([Machine.Restore] puts entities back with the
// previous states they had). It returns an error, and changes nothing, if s is not
// a state, id is above [Machine.MaxID] (see [Options.MaxID]), or the machine
// already holds id ([ErrExists]). It allocates when the storage or the index
// by ID grows: the index to a byte (or four) per ID up to the largest added.
// During a step, an [Machine.Each] loop or [Options.OnFinal], the add takes
// effect after it; such adds are applied in order of state then ID, so a
// step's result does not depend on which worker asked first. If one ID is
// added twice in that time, neither add is carried out; the error is
// reported by Step.
func (m *Machine[E]) Add(id ID, data E, s StateID) error {
	if err := m.checkState(s); err != nil {
		return err
	}
	if id > m.maxID {
		return m.idError(id)
	}
	if m.stepping.Load() || m.iterating > 0 {
		m.mu.Lock()
		defer m.mu.Unlock()
		if _, ok := m.StateOf(id); ok {
			return fmt.Errorf("%w: %d (in state %q)", ErrExists, id, m.StateName(m.where.get(id)))
		}
		m.pending = append(m.pending, op[E]{add: true, id: id, state: s, data: data})
		return nil
	}
	return m.add(id, data, s)
}

// idError reports an ID above the machine's largest.
func (m *Machine[E]) idError(id ID) error {
	per := "a byte"
	if !m.where.bytes {
		per = "4 bytes"
	}
	if m.maxID == MaxID {
		return fmt.Errorf("crowd: ID %d is above crowd.MaxID (%d), the largest a machine accepts", id, MaxID)
	}
	return fmt.Errorf("crowd: ID %d is above the machine's largest ID, %d (Options.MaxID; the machine keeps %s per ID up to the largest added: raise MaxID, up to crowd.MaxID (%d), if the game's IDs go that high)", id, m.maxID, per, MaxID)
}

func (m *Machine[E]) add(id ID, data E, s StateID) error {
	if int(id) < m.where.len() {
		switch w := m.where.get(id); w {
		case absent:
		case dead:
			m.purge() // the old copy must go before a new one can be told apart
		default:
			return fmt.Errorf("%w: %d (in state %q)", ErrExists, id, m.StateName(w))
		}
	} else {
		m.where.grow(id)
	}
	m.where.set(id, s)
	off := uint32(len(m.cur))
	m.cur = append(m.cur, slot[E]{data: data, id: id})
	b := &m.buckets[s]
	// Adds to one state in a row make one segment: the last add's, which
	// ends the storage (see open). Which adds join a segment decides how
	// the next step cuts the bucket, so it depends only on what the game
	// did since the step, never on where the storage has room.
	if m.open == s {
		b.segs[len(b.segs)-1].n++
	} else {
		b.segs = append(b.segs, seg{off, 1, NoState})
		m.open = s
	}
	b.count++
	m.total++
	return nil
}

// Remove takes entity id out of the machine. It returns [ErrNotFound] if the
// machine does not hold it. Outside a step the entity is gone at once (its
// bucket is compacted lazily, at the next step, which drops its data);
// during a step the removal takes effect after it. Removing entities while
// iterating over a bucket with [Machine.Each] is safe.
//
// To remove an entity from its own state function, return [Final] instead:
// it costs nothing extra, where each step after Removes compacts the buckets
// that hold removed entities.
func (m *Machine[E]) Remove(id ID) error {
	s, ok := m.StateOf(id)
	if !ok {
		return fmt.Errorf("%w: %d", ErrNotFound, id)
	}
	if m.stepping.Load() {
		m.mu.Lock()
		m.pending = append(m.pending, op[E]{id: id})
		m.mu.Unlock()
		return nil
	}
	m.where.set(id, dead)
	m.dead++
	b := &m.buckets[s]
	b.count--
	b.dead++
	m.total--
	return nil
}

// Each returns the entities in state s, in bucket order: the order in which
// the next step visits them. The data may be changed through the pointer.
// Entities added during the loop join after it; removed ones are skipped.
func (m *Machine[E]) Each(s StateID) iter.Seq2[ID, *E] {
	return func(yield func(ID, *E) bool) {
		if int64(s) >= int64(len(m.buckets)) {
			return
		}
		m.iterating++
		defer m.endIteration()
		b := &m.buckets[s]
		segs := b.segs[:len(b.segs):len(b.segs)]
		for _, sg := range segs {
			for i := sg.off; i < sg.off+sg.n; i++ {
				sl := &m.cur[i]
				if m.where.get(sl.id) == dead {
					continue
				}
				if !yield(sl.id, &sl.data) {
					return
				}
			}
		}
	}
}

func (m *Machine[E]) endIteration() {
	m.iterating--
	if m.iterating == 0 && !m.stepping.Load() {
		m.applyPending()
	}
}

// purge compacts the buckets that hold removed entities, in place. Each
// segment keeps its end: its live entities move towards it, in order, so
// that the segment adds join (see open) still ends the storage, as a
// restored machine, which has no removed entities, has it.
func (m *Machine[E]) purge() {
	if m.dead == 0 {
		return
	}
	for s := range m.buckets {
		b := &m.buckets[s]
		if b.dead == 0 {
			continue
		}
		out := b.segs[:0]
		for _, sg := range b.segs {
			end := sg.off + sg.n
			w := end // the kept go below w
			for r := end; r > sg.off; r-- {
				if id := m.cur[r-1].id; m.where.get(id) == dead {
					m.where.set(id, absent)
					continue
				}
				w--
				if w != r-1 {
					m.cur[w] = m.cur[r-1]
				}
			}
			if w < end {
				out = append(out, seg{w, end - w, sg.prev})
			}
			clear(m.cur[sg.off:w]) // the removed, and copies of the kept
		}
		b.segs, b.dead = out, 0
		if m.open == StateID(s) {
			if n := len(out); n == 0 || out[n-1].off+out[n-1].n != uint32(len(m.cur)) {
				m.open = NoState // its segment held only removed entities
			}
		}
	}
	m.dead = 0
}

// applyPending carries out the adds and removes asked for during a step or
// an iteration: removes first, then adds in (state, ID) order.
func (m *Machine[E]) applyPending() {
	m.mu.Lock()
	p := m.pending
	m.pending = m.pending[:0]
	m.mu.Unlock()
	if len(p) == 0 {
		return
	}
	for _, o := range p {
		if !o.add {
			_ = m.Remove(o.id) // gone already (returned Final) is fine
		}
	}
	// Two adds of one ID: which came first depends on the workers, so
	// neither is carried out.
	slices.SortStableFunc(p, func(a, b op[E]) int { return cmpU(a.id, b.id) })
	for i := 1; i < len(p); i++ {
		if a, b := &p[i-1], &p[i]; a.add && b.add && a.id == b.id {
			if !a.twice {
				m.addErrs = append(m.addErrs, fmt.Errorf("%w: %d was added twice in one step; neither add was carried out", ErrExists, a.id))
			}
			a.twice, b.twice = true, true
		}
	}
	slices.SortStableFunc(p, func(a, b op[E]) int { return cmpU(a.state, b.state) })
	for _, o := range p {
		if o.add && !o.twice {
			if err := m.add(o.id, o.data, o.state); err != nil {
				m.addErrs = append(m.addErrs, err)
			}
		}
	}
	clear(p) // drop references held by the data
}

// holdsPointers reports whether a value of type t holds pointers the
// garbage collector follows. New asks once, for E.
func holdsPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && holdsPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true // pointers, strings, slices, maps, channels, functions, interfaces
}

func cmpU[T ~uint32](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
