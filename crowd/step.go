package crowd

import (
	"fmt"
	"math/bits"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/machine"
)

// Batch is a run of entities of one state, handed to a [BatchFunc]: up to
// 256 entities (and never more than [Options.ChunkSize]) that sit next to
// each other in memory and were all in the same state at the previous step
// ([Batch.Prev]). Index i runs from 0 to Len()-1.
type Batch[E any] struct {
	slots []slot[E]
	next  []StateID
	state StateID
	prev  StateID
	moved [sub / 64]uint64 // a bit per entity Set to another state
}

// Len returns the number of entities in the batch.
func (b *Batch[E]) Len() int { return len(b.slots) }

// State returns the state whose function runs.
func (b *Batch[E]) State() StateID { return b.state }

// Prev returns the state the batch's entities were in at the previous step
// ([NoState] for entities not stepped yet): a batch never mixes entities that
// came from different states.
func (b *Batch[E]) Prev() StateID { return b.prev }

// At returns entity i's data and the state it was in at the previous step,
// which is [Batch.Prev] for every i.
func (b *Batch[E]) At(i int) (*E, StateID) { return &b.slots[i].data, b.prev }

// ID returns entity i's ID.
func (b *Batch[E]) ID(i int) ID { return b.slots[i].id }

// Set sets the state entity i goes to after the step, or [Final].
func (b *Batch[E]) Set(i int, s StateID) {
	b.next[i] = s
	if s != b.state {
		b.moved[uint(i)/64%(sub/64)] |= 1 << (uint(i) % 64)
	}
}

// Invalid describes one invalid next state returned by a state function.
type Invalid struct {
	ID       ID
	State    StateID // the state the entity was in, and stays in
	Returned StateID // what its function returned
}

// StepError reports what went wrong in a step that otherwise completed: the
// invalid next states returned (each entity concerned stayed in its state),
// and adds that could not be carried out.
type StepError struct {
	Invalid   int       // how many invalid next states were returned
	First     []Invalid // the first few of them, in bucket order
	Adds      []error   // adds asked for during the step that failed
	names     []string  // the First entries' state names
	numStates int
}

// firstInvalid is how many invalid next states a StepError describes.
const firstInvalid = 8

func (e *StepError) Error() string {
	var b strings.Builder
	if e.Invalid > 0 {
		f := e.First[0]
		fmt.Fprintf(&b, "crowd: %d invalid next state", e.Invalid)
		if e.Invalid > 1 {
			b.WriteByte('s')
		}
		fmt.Fprintf(&b, ": entity %d in state %q returned %s (the machine has %d states)", f.ID, e.names[0], f.Returned, e.numStates)
		if e.Invalid > 1 {
			fmt.Fprintf(&b, " (and %d more)", e.Invalid-1)
		}
		b.WriteString("; each such entity stayed where it was")
	}
	for i, err := range e.Adds {
		if b.Len() > 0 || i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

// Unwrap returns the failed adds' errors.
func (e *StepError) Unwrap() []error { return e.Adds }

// PanicError is the value [Machine.Step] panics with when a state function
// panicked, on whichever worker: it names the state and the entity.
//
// What the machine holds then: no entity is lost or duplicated. The work of
// a step is cut into tasks (runs of up to [Options.ChunkSize] entities of
// one state), and a task runs its entities' functions 256 at a time (a
// [BatchFunc] gets at most 256), moving each such run to the states its
// functions returned before the next run starts. Once a function panics, no
// new task starts. Every run that had finished is carried out as in a normal
// step (its entities moved to the states their functions returned,
// [Options.OnFinal] called for those that returned Final); the entities of
// the other runs, the panicking one included, stay in their state with their
// previous state unchanged, and those whose function had run keep the
// changes it made to their data. Which runs finished depends on the workers
// (with one worker: those before the panicking entity's run). Adds and
// removes asked for during the step are carried out.
//
// An observer (see [Machine.Observe]) that panics stops the step the same
// way: the PanicError then has Observer set, and names the state whose
// entities' events it was given and the first of those entities; the task
// whose events they were is carried out.
type PanicError struct {
	State     StateID
	StateName string
	ID        ID   // the entity whose function panicked
	Batch     bool // a BatchFunc panicked: ID is the batch's first entity
	Observer  bool // the observer panicked: ID is the first entity of the events it got
	Value     any  // what the function panicked with
	Stack     []byte
}

func (e *PanicError) Error() string {
	if e.Observer {
		return fmt.Sprintf("crowd: the observer panicked on the events of state %q from entity %d: %v", e.StateName, e.ID, e.Value)
	}
	who := fmt.Sprintf("entity %d", e.ID)
	if e.Batch {
		who = fmt.Sprintf("the batch starting at entity %d", e.ID)
	}
	return fmt.Sprintf("crowd: state %q panicked on %s: %v", e.StateName, who, e.Value)
}

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Transition counts the entities that went from one state to another in the
// last step: [machine.Count], the shape every runtime's counts share. From
// and To are the crowd's state IDs as [machine.StateID] values
// (machine.StateID(s) for state s); To is [machine.Final] for entities that
// returned [Final].
type Transition = machine.Count

// task is one unit of work: consecutive pieces of one state's bucket.
type task[E any] struct {
	state   StateID
	lo, hi  int // pieces[lo:hi]
	n       int // entities
	done    bool
	stays   []seg    // the pieces' stayers, compacted in place; in Machine.stayBuf
	targets []target // the movers, by target state; in Machine.targetBuf
	movers  []span   // the movers, in order: runs of the arena; in Machine.runBuf
	finals  []slot[E]
	invalid []Invalid
	nbad    int
	panic   *PanicError
	batch   Batch[E] // what a BatchFunc gets a pointer to

	// The workers write to their tasks as they run them: keep the fields
	// of neighbouring tasks, which run at the same time, in different
	// cache lines.
	_ [cacheLine]byte
}

// cacheLine is the size of a cache line, or more: the padding that keeps
// what one worker writes out of the lines another writes.
const cacheLine = 64

// span is a run of a backing array.
type span struct{ off, n uint32 }

// target is a group of movers: n entities going to state, placed from dst
// in the storage.
type target struct {
	state  StateID
	n, dst uint32
}

// scratch is one worker's working memory.
type scratch struct {
	_       [cacheLine]byte // see task
	next    []StateID
	holes   []uint32 // places the movers of a piece left
	cnt     []uint32 // per state, and one for Final
	off     []uint32
	touched []StateID
	at      int // index in its task of the entity running, for panics
	// The block of the arena the worker fills with movers: from arenaOff
	// to arenaEnd.
	arenaOff, arenaEnd int
	sub                int             // index in its task of the first entity not sorted yet
	events             []machine.Event // where the observer's events are written; nil with none
	_                  [cacheLine]byte
}

func (m *Machine[E]) newScratch() *scratch {
	n := len(m.defs) + 1
	w := &scratch{next: make([]StateID, m.chunk), holes: make([]uint32, 0, m.chunk), cnt: make([]uint32, n), off: make([]uint32, n)}
	m.eventBuffer(w)
	return w
}

// Step runs every entity's state function once and moves each entity to the
// state it returned. Entities in state 0 run first, then state 1, and so
// on, each bucket in its order; the work is spread over [Machine.Workers]
// goroutines, and the result (states, order inside every bucket, errors) is
// the same whatever their number.
//
// An invalid next state (neither a state of the machine nor [Final]) keeps
// the entity where it was; Step then returns a [*StepError] that counts them
// and describes the first few. A panicking state function makes Step panic
// with a [*PanicError] on the caller's goroutine; see PanicError for what the
// machine holds then. In steady state Step allocates nothing.
func (m *Machine[E]) Step() error {
	if m.stepping.Load() || m.iterating > 0 {
		return ErrBusy
	}
	m.purge()
	m.open = NoState // arrivals will end the storage
	if m.fragmented() {
		m.defrag()
	}
	m.plan()
	// A worker fills each block of the arena it claims but for less than a
	// run of movers (at most sub), or a last block.
	if need := m.total + m.total/(arenaBlock/sub-1) + (m.workers+1)*arenaBlock; cap(m.arena) < need {
		m.arena, m.arenaNext = nil, nil
		m.arena = make([]slot[E], need+m.total/8)
		m.arenaNext = make([]StateID, len(m.arena))
	}
	m.arena = m.arena[:cap(m.arena)]
	m.arenaUsed.Store(0)
	for _, w := range m.scratch {
		w.arenaOff, w.arenaEnd = 0, 0
	}
	m.stepping.Store(true)
	m.run(phaseRun, len(m.tasks))
	p := m.firstPanic()
	m.place()
	m.run(phaseCommit, len(m.tasks))
	m.stepping.Store(false)
	err := m.merge()
	m.steps++
	m.applyPending()
	m.callFinals()
	if p != nil {
		m.tasks = m.tasks[:0]
		panic(p)
	}
	if len(m.addErrs) > 0 {
		if err == nil {
			err = &StepError{numStates: len(m.defs)}
		}
		err.Adds = append(err.Adds, m.addErrs...)
		m.addErrs = m.addErrs[:0]
	}
	if err == nil {
		return nil
	}
	return err
}

// plan splits the buckets into pieces of at most chunk entities and groups
// consecutive pieces of a state into tasks of at most chunk entities.
// Nothing in it depends on the worker count.
func (m *Machine[E]) plan() {
	m.pieces = m.pieces[:0]
	nt := 0
	chunk := uint32(m.chunk)
	for s := range m.buckets {
		first := true
		for _, sg := range m.buckets[s].segs {
			for sg.n > 0 {
				p := seg{sg.off, min(sg.n, chunk), sg.prev}
				sg.off += p.n
				sg.n -= p.n
				if first || uint32(m.tasks[nt-1].n)+p.n > chunk {
					first = false
					if nt == len(m.tasks) { // reuse the slices of earlier tasks
						if nt < cap(m.tasks) {
							m.tasks = m.tasks[:nt+1]
						} else {
							m.tasks = append(m.tasks, task[E]{})
						}
					}
					t := &m.tasks[nt]
					nt++
					t.state, t.lo, t.hi, t.n, t.done = StateID(s), len(m.pieces), len(m.pieces), 0, false
					t.finals, t.invalid, t.nbad, t.panic = t.finals[:0], t.invalid[:0], 0, nil
				}
				t := &m.tasks[nt-1]
				m.pieces = append(m.pieces, p)
				t.hi++
				t.n += int(p.n)
			}
		}
	}
	m.tasks = m.tasks[:nt]

	// A task's stayers take at most two segments per piece, and its groups
	// of movers one per other state, up to one per entity: carve both from
	// buffers shared by the tasks, so that no task's slices grow when the
	// cut of the buckets into tasks changes from step to step.
	targets := 0
	for k := range m.tasks {
		targets += min(m.tasks[k].n, len(m.defs)-1)
	}
	if cap(m.targetBuf) < targets {
		m.targetBuf = make([]target, targets+targets/4)
	}
	if cap(m.stayBuf) < 2*len(m.pieces) {
		m.stayBuf = make([]seg, 2*len(m.pieces)+len(m.pieces)/2)
	}
	// A task's movers take at most a run of the arena per sub entities it
	// runs, and a piece has at most one sub that is not full.
	if runs := len(m.pieces) + m.total/sub; cap(m.runBuf) < runs {
		m.runBuf = make([]span, runs+runs/4)
	}
	targets, runs := 0, 0
	for k := range m.tasks {
		t := &m.tasks[k]
		n := min(t.n, len(m.defs)-1)
		t.targets = m.targetBuf[targets : targets : targets+n]
		targets += n
		t.stays = m.stayBuf[2*t.lo : 2*t.lo : 2*t.hi]
		n = t.hi - t.lo + t.n/sub
		t.movers = m.runBuf[runs : runs : runs+n]
		runs += n
	}
}

// The phases of a step that run on the workers.
const (
	phaseRun    = iota // per task: the state functions, stayers compacted, movers set aside
	phaseCommit        // per task: movers copied to their place, where updated
	phaseDefrag        // per piece: copied to its place in the spare storage
)

// run runs phase on items 0 to n-1 (tasks or pieces), on up to m.workers
// goroutines, and reports whether one of them panicked.
func (m *Machine[E]) run(phase, n int) {
	m.phase, m.jobs = phase, n
	w := min(m.workers, n)
	for len(m.scratch) < max(w, 1) {
		m.scratch = append(m.scratch, m.newScratch())
	}
	m.claim.Store(0)
	m.abort.Store(false)
	if w <= 1 || m.closed {
		m.work(m.scratch[0])
		return
	}
	m.startCrew(w - 1)
	m.crewBusy.Store(int32(w - 1))
	for range w - 1 {
		m.crew <- struct{}{}
	}
	m.work(m.scratch[0])
	// The others finish the items they claimed, a task each at most.
	for m.crewBusy.Load() > 0 {
		runtime.Gosched()
	}
}

// startCrew makes sure n worker goroutines wait on m.crew, each with its own
// scratch.
func (m *Machine[E]) startCrew(n int) {
	if m.crew == nil {
		m.crew = make(chan struct{}, crewTokens)
	}
	for m.crewN < n {
		m.crewN++
		for len(m.scratch) <= m.crewN {
			m.scratch = append(m.scratch, m.newScratch())
		}
		go m.crewMember(m.crew, m.scratch[m.crewN])
	}
}

// crewTokens is the room in the crew's channel: beyond it, sending the
// tokens of a phase waits for workers to take them.
const crewTokens = 64

// crewSpins is how many times a worker that has finished looks for the next
// phase's token, yielding in between, before it sleeps on the channel: the
// phases of a step follow each other within microseconds, and waking a
// sleeping goroutine can take tens of them, longer than a phase of a small
// crowd.
const crewSpins = 100

func (m *Machine[E]) crewMember(wake <-chan struct{}, w *scratch) {
	for {
		ok, got := true, false
		for range crewSpins {
			select {
			case _, ok = <-wake:
				got = true
			default:
				runtime.Gosched()
				continue
			}
			break
		}
		if !got {
			_, ok = <-wake
		}
		if !ok {
			return // closed
		}
		m.work(w)
		m.crewBusy.Add(-1)
	}
}

// work claims items until none is left or a task panicked.
func (m *Machine[E]) work(w *scratch) {
	for !m.abort.Load() {
		k := int(m.claim.Add(1) - 1)
		if k >= m.jobs {
			return
		}
		switch m.phase {
		case phaseRun:
			m.runTask(&m.tasks[k], w)
			if m.obs != nil {
				m.report(&m.tasks[k], w)
			}
		case phaseCommit:
			m.commit(&m.tasks[k], w)
		case phaseDefrag:
			p := m.pieces[k]
			from := m.cur[p.off : p.off+p.n]
			copy(m.nxt[m.dsts[k]:], from)
			if m.pointers {
				clear(from) // the storage becomes the spare
			}
		}
	}
}

func (m *Machine[E]) firstPanic() *PanicError {
	if !m.abort.Load() {
		return nil
	}
	for i := range m.tasks {
		if p := m.tasks[i].panic; p != nil {
			return p
		}
	}
	return nil
}

// arenaBlock is how much of the arena a worker claims at once: claiming
// a place for every run of movers would have the workers contend for the
// arena's counter.
const arenaBlock = 8 * sub

// sub is how many entities a task runs before it sorts out the movers:
// few enough that they are still in the L1 cache when it does.
const sub = 256

// runTask runs one task, piece by piece and sub entities at a time: their
// state functions, then, with their data still in cache, the movers copied
// aside in order and counted by target. Once a piece has run, the holes its
// movers left are filled with the stayers from its end.
func (m *Machine[E]) runTask(t *task[E], w *scratch) {
	defer m.recoverTask(t, w)
	s := t.state
	def := &m.defs[s]
	w.touched = w.touched[:0]
	i := 0 // index in the task of the piece's first entity
	for _, p := range m.pieces[t.lo:t.hi] {
		slots := m.cur[p.off : p.off+p.n]
		next := w.next[i : i+len(slots)]
		w.holes = w.holes[:0]
		for lo := 0; lo < len(slots); lo += sub {
			hi := min(lo+sub, len(slots))
			nx := next[lo:hi]
			w.sub, w.at = i+lo, i+lo
			if fn := def.Func; fn != nil {
				moved := &t.batch.moved
				*moved = [sub / 64]uint64{}
				for j := range nx {
					w.at = i + lo + j
					n := fn(&slots[lo+j].data, p.prev)
					nx[j] = n
					if n != s {
						moved[uint(j)/64%(sub/64)] |= 1 << (uint(j) % 64)
					}
				}
			} else {
				for j := range nx {
					nx[j] = s
				}
				t.batch = Batch[E]{slots: slots[lo:hi], next: nx, state: s, prev: p.prev}
				def.Batch(&t.batch)
			}
			m.sortOut(t, w, slots[lo:hi], nx, lo, &t.batch.moved)
		}
		w.sub = i + len(slots)
		k := len(slots)
		if len(w.holes) > 0 {
			k = fillHoles(slots, next, s, w.holes, m.pointers)
		}
		if k > 0 {
			t.stays = append(t.stays, seg{p.off, uint32(k), s})
		}
		i += len(slots)
	}
	w.sub = t.n
	m.finish(t, w)
}

// sortOut copies the movers among slots, whose next states are nx, to a
// run of the worker's block of the arena, counting them by target, sets the
// finals aside, and appends to w.holes the places they leave, numbered from
// base. Only the entities whose bit is set in moved can have left. An
// invalid next state is recorded, and the entity stays: nx then says so.
//
// Each worker packs the movers of the tasks it runs in its blocks, so the
// arena a step writes is hardly larger than its movers: small enough to
// stay in cache until the commit reads it back.
func (m *Machine[E]) sortOut(t *task[E], w *scratch, slots []slot[E], nx []StateID, base int, moved *[sub / 64]uint64) {
	need := 0
	for _, b := range moved {
		need += bits.OnesCount64(b)
	}
	if need == 0 {
		return
	}
	if w.arenaOff+need > w.arenaEnd { // claim a new block of the arena
		end := int(m.arenaUsed.Add(arenaBlock))
		w.arenaOff, w.arenaEnd = end-arenaBlock, end
	}
	off := w.arenaOff
	w.arenaOff += need
	arena := m.arena[off : off+need]
	arenaNext := m.arenaNext[off : off+need]
	c := 0
	s := t.state
	numStates := StateID(len(m.defs))
	for k, bits64 := range moved {
		for ; bits64 != 0; bits64 &= bits64 - 1 {
			j := k*64 + bits.TrailingZeros64(bits64)
			n := nx[j]
			if n == s { // set to another state, then back
				continue
			}
			if n < numStates {
				arena[c] = slots[j]
				arenaNext[c] = n
				c++
				if w.cnt[n] == 0 {
					w.touched = append(w.touched, n)
				}
				w.cnt[n]++
				w.holes = append(w.holes, uint32(base+j))
				continue
			}
			if n == Final {
				t.finals = append(t.finals, slots[j])
				w.holes = append(w.holes, uint32(base+j))
				continue
			}
			m.invalid(t, slots[j].id, n)
			nx[j] = s
		}
	}
	if c == 0 {
		return
	}
	if r := len(t.movers) - 1; r >= 0 && int(t.movers[r].off+t.movers[r].n) == off {
		t.movers[r].n += uint32(c)
	} else {
		t.movers = append(t.movers, span{uint32(off), uint32(c)})
	}
}

// fillHoles packs the stayers of a piece (the entities whose next state is
// s) at its start, filling each hole (the places in ascending order that
// the entities which went left) with the last stayer not yet packed, and
// returns how many stayers there are. It copies one entity per hole rather
// than shifting every stayer after the first hole; the order it leaves
// depends only on the piece. If drop is set, it clears what the piece holds
// after its stayers: copies of the movers, now in the arena, of the finals,
// now in their task, and of the stayers that filled the holes.
func fillHoles[E any](slots []slot[E], next []StateID, s StateID, holes []uint32, drop bool) int {
	k := len(slots) - len(holes)
	src := len(slots) - 1
	for _, h := range holes {
		if int(h) >= k {
			break
		}
		for next[src] != s {
			src--
		}
		slots[h] = slots[src]
		src--
	}
	if drop {
		clear(slots[k:])
	}
	return k
}

// finish records task t's groups of movers, from the counts w holds, and
// marks it done. It drops t's batch, whose view of the storage would keep
// the storage's array alive once a step has grown it into a new one.
func (m *Machine[E]) finish(t *task[E], w *scratch) {
	t.batch = Batch[E]{}
	for _, n := range w.touched {
		if n != t.state {
			t.targets = append(t.targets, target{state: n, n: w.cnt[n]})
		}
		w.cnt[n] = 0
	}
	w.touched = w.touched[:0]
	t.done = true
}

// place gives each group of movers its place at the end of the storage:
// the movers to state 0 first, from every task in order, then those to
// state 1, and so on, so each state receives one run of newcomers. As the
// tasks are in state order, that run is made of one segment per state the
// newcomers came from.
func (m *Machine[E]) place() {
	if len(m.arrivals) < len(m.defs) {
		m.arrivals = make([]uint32, len(m.defs))
		m.lastArrival = make([]int32, len(m.defs))
		for i := range m.lastArrival {
			m.lastArrival[i] = -1
		}
	}
	for k := range m.tasks {
		for _, tg := range m.tasks[k].targets {
			m.arrivals[tg.state] += tg.n
		}
	}
	base := uint32(len(m.cur))
	for s, n := range m.arrivals[:len(m.defs)] {
		if n > 0 {
			m.arrivals[s] = base // from here on, the next free place
			base += n
		}
	}
	m.arrivalSegs = m.arrivalSegs[:0]
	for k := range m.tasks {
		t := &m.tasks[k]
		for j := range t.targets {
			tg := &t.targets[j]
			tg.dst = m.arrivals[tg.state]
			m.arrivals[tg.state] += tg.n
			if a := m.lastArrival[tg.state]; a >= 0 && m.arrivalSegs[a].seg.prev == t.state {
				m.arrivalSegs[a].seg.n += tg.n
				continue
			}
			m.lastArrival[tg.state] = int32(len(m.arrivalSegs))
			m.arrivalSegs = append(m.arrivalSegs, arrival{tg.state, seg{tg.dst, tg.n, t.state}})
		}
	}
	for _, a := range m.arrivalSegs {
		m.arrivals[a.state], m.lastArrival[a.state] = 0, -1
	}
	if int(base) > cap(m.cur) {
		m.cur = slices.Grow(m.cur, max(int(base), m.roomy())-len(m.cur))
	}
	m.cur = m.cur[:base]
}

// arrival is a run of newcomers a state receives in a step from one state.
type arrival struct {
	state StateID
	seg   seg
}

// commit copies task t's movers to their places and records in where their
// new state and the departure of its finals: the part of a step that
// touches memory at random, done on the workers once every state function
// has returned.
func (m *Machine[E]) commit(t *task[E], w *scratch) {
	if !t.done {
		return
	}
	for _, tg := range t.targets {
		w.off[tg.state] = tg.dst
	}
	small, big := m.where.small, m.where.big
	for _, r := range t.movers {
		movers := m.arena[r.off : r.off+r.n]
		for i, n := range m.arenaNext[r.off : r.off+r.n] {
			m.cur[w.off[n]] = movers[i]
			w.off[n]++
			if m.where.bytes {
				small[movers[i].id] = uint8(n)
			} else {
				big[movers[i].id] = n
			}
		}
		if m.pointers {
			clear(movers) // the arena outlives the step
		}
	}
	for _, f := range t.finals {
		m.where.set(f.id, absent)
	}
}

// invalid records that entity id of t returned n, which is not a state.
func (m *Machine[E]) invalid(t *task[E], id ID, n StateID) {
	t.nbad++
	if len(t.invalid) < firstInvalid {
		t.invalid = append(t.invalid, Invalid{ID: id, State: t.state, Returned: n})
	}
}

// entityAt returns entity i of task t, which must not have been sorted yet.
func (m *Machine[E]) entityAt(t *task[E], i int) *slot[E] {
	for _, p := range m.pieces[t.lo:t.hi] {
		if i < int(p.n) {
			return &m.cur[int(p.off)+i]
		}
		i -= int(p.n)
	}
	panic("crowd: internal error: entity index out of its task")
}

// recoverTask turns a panic in task t's state functions into a PanicError,
// stops the step, and leaves the task as if it held only the entities it
// had sorted: those stay or move as their functions said, and the others,
// from the first of the run that panicked, stay where they were.
func (m *Machine[E]) recoverTask(t *task[E], w *scratch) {
	v := recover()
	if v == nil {
		return
	}
	p := &PanicError{State: t.state, StateName: m.defs[t.state].Name, Value: v, Stack: debug.Stack()}
	p.Batch = m.defs[t.state].Batch != nil
	if w.at < t.n {
		p.ID = m.entityAt(t, w.at).id
	}
	t.panic = p
	m.abort.Store(true)

	// Pieces before the one that panicked are sorted and their stayers
	// recorded. In that piece, the movers among the entities before w.sub
	// have been copied out; its stayers among them are packed at its start,
	// as stayers, and the rest of it after them, as it was.
	i := 0
	for _, pc := range m.pieces[t.lo:t.hi] {
		end := i + int(pc.n)
		if end <= w.sub {
			i = end
			continue
		}
		done := max(w.sub-i, 0)
		slots := m.cur[pc.off : pc.off+pc.n]
		k := 0
		for j, n := range w.next[i : i+done] {
			if n == t.state {
				if k != j {
					slots[k] = slots[j]
				}
				k++
			}
		}
		copy(slots[k:], slots[done:])
		clear(slots[k+len(slots)-done:]) // copies, as in runTask
		if k > 0 {
			t.stays = append(t.stays, seg{pc.off, uint32(k), t.state})
		}
		if rest := pc.n - uint32(done); rest > 0 {
			t.stays = append(t.stays, seg{pc.off + uint32(k), rest, pc.prev})
		}
		i = end
	}
	m.finish(t, w)
}

// merge makes the next buckets from the tasks' results: each state's
// stayers in task order, then its arrivals. A task that did not start (a
// state function panicked) keeps its pieces as they were. It returns the
// step's invalid states.
func (m *Machine[E]) merge() *StepError {
	for s := range m.nbuckets {
		b := &m.nbuckets[s]
		b.segs, b.count, b.dead = b.segs[:0], 0, 0
	}
	var serr *StepError
	for k := range m.tasks {
		t := &m.tasks[k]
		b := &m.nbuckets[t.state]
		if !t.done {
			for _, p := range m.pieces[t.lo:t.hi] {
				b.segs = append(b.segs, p)
				b.count += int(p.n)
			}
			continue
		}
		for _, sg := range t.stays {
			b.segs = append(b.segs, sg)
			b.count += int(sg.n)
		}
		m.total -= len(t.finals)
		if t.nbad > 0 {
			if serr == nil {
				serr = &StepError{numStates: len(m.defs)}
			}
			serr.Invalid += t.nbad
			for _, iv := range t.invalid {
				if len(serr.First) < firstInvalid {
					serr.First = append(serr.First, iv)
					serr.names = append(serr.names, m.defs[iv.State].Name)
				}
			}
		}
	}
	for _, a := range m.arrivalSegs {
		b := &m.nbuckets[a.state]
		b.segs = append(b.segs, a.seg)
		b.count += int(a.seg.n)
	}
	m.buckets, m.nbuckets = m.nbuckets, m.buckets
	return serr
}

// fragmented reports whether the storage should be rewritten: it holds many
// holes (left by entities that moved), or the buckets many small segments.
func (m *Machine[E]) fragmented() bool {
	if len(m.cur)+m.ghost > 2*m.total+m.chunk {
		return true
	}
	segs, runs := 0, 0 // runs: the segments a defrag would leave
	for s := range m.buckets {
		b := m.buckets[s].segs
		segs += len(b)
		for i := range b {
			if i == 0 || b[i].prev != b[i-1].prev {
				runs++
			}
		}
	}
	return segs > runs+m.total/64
}

// roomy is the capacity the storage gets when it grows: room for the
// holes and arrivals of the steps until the next defrag.
func (m *Machine[E]) roomy() int { return 2*m.total + m.total/4 + 2*m.chunk }

// defrag copies every bucket, in order, into one run of the spare storage,
// in parallel, and swaps the two. A bucket's segments then merge where they
// share their previous state.
func (m *Machine[E]) defrag() {
	live := m.total
	if cap(m.nxt) < m.roomy() {
		m.nxt = nil // let the old one go first
		m.nxt = make([]slot[E], live, m.roomy())
	}
	m.nxt = m.nxt[:live]
	m.pieces, m.dsts = m.pieces[:0], m.dsts[:0]
	chunk := uint32(m.chunk)
	var dst uint32
	for s := range m.buckets {
		b := &m.buckets[s]
		out := b.segs[:0] // written behind the reading
		for _, sg := range b.segs {
			if n := len(out); n > 0 && out[n-1].prev == sg.prev {
				out[n-1].n += sg.n
			} else {
				out = append(out, seg{dst, sg.n, sg.prev})
			}
			for sg.n > 0 {
				p := seg{sg.off, min(sg.n, chunk), sg.prev}
				m.pieces = append(m.pieces, p)
				m.dsts = append(m.dsts, dst)
				sg.off += p.n
				sg.n -= p.n
				dst += p.n
			}
		}
		b.segs = out
	}
	m.run(phaseDefrag, len(m.pieces))
	m.cur, m.nxt = m.nxt, m.cur
	m.ghost = 0
}

// callFinals tells the game about the entities that returned Final, then
// drops their data, even if OnFinal panics.
func (m *Machine[E]) callFinals() {
	m.iterating++ // a Step from OnFinal is refused; its adds wait until the end
	defer m.endIteration()
	defer m.dropFinals()
	if m.opts.OnFinal == nil {
		return
	}
	for k := range m.tasks {
		t := &m.tasks[k]
		if t.done {
			for i := range t.finals {
				m.opts.OnFinal(t.finals[i].id, &t.finals[i].data)
			}
		}
	}
}

// dropFinals clears the tasks' copies of the entities that returned Final,
// keeping their number for Transitions.
func (m *Machine[E]) dropFinals() {
	for k := range m.tasks {
		clear(m.tasks[k].finals)
	}
}

// Transitions appends to dst the number of entities that went from one state
// to another in the last step, sorted by From then To, with To
// [machine.Final] after the states; entities that stayed are not counted.
// After [Machine.Restore] and before the next step it appends nothing. It
// allocates only to grow dst.
func (m *Machine[E]) Transitions(dst []Transition) []Transition {
	start := len(dst)
	for k := range m.tasks {
		t := &m.tasks[k]
		from := machine.StateID(t.state)
		for _, tg := range t.targets {
			if tg.state != t.state {
				dst = append(dst, Transition{From: from, To: machine.StateID(tg.state), N: int(tg.n)})
			}
		}
		if len(t.finals) > 0 {
			dst = append(dst, Transition{From: from, To: machine.Final, N: len(t.finals)})
		}
	}
	out := dst[start:]
	slices.SortFunc(out, func(a, b Transition) int {
		if a.From != b.From {
			return cmpU(uint32(a.From), uint32(b.From))
		}
		return cmpU(uint32(a.To), uint32(b.To)) // machine.Final, -2, after the states
	})
	w := 0
	for _, tr := range out {
		if w > 0 && out[w-1].From == tr.From && out[w-1].To == tr.To {
			out[w-1].N += tr.N
			continue
		}
		out[w] = tr
		w++
	}
	return dst[:start+w]
}
