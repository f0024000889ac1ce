package tablecrowd

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Crowd runs one table for many entities on a [crowd.Machine]: one crowd
// state per table state (crowd.StateID(q) is table.StateID q, with the
// same name), each entity in the bucket of its state, every entity updated
// once per [Crowd.Step] on the machine's workers. An entity's data (of any
// type E) is stored in the machine, as crowd stores it, and the host gets a
// pointer to it. Make one with [New].
//
// A step does for each entity what [table.Agent.Update] does for an agent:
// the same tests are asked of the host, in the same order, and the same
// entry actions performed, so a crowd and as many agents fed the same
// messages end every step in the same states, having made the same host
// calls entity by entity (see the package documentation). What differs is
// what the crowd cannot do: there is no Receive (a message waits for the
// next step), and a message posted during a step waits for the next step
// even if the entity it is for has not been updated yet.
//
// A Crowd is not safe for concurrent use, with one exception: during
// [Crowd.Step], the host's Test and Do, which run on several workers at
// once, and the machine's OnFinal hook may call [Crowd.Post] and
// [Crowd.Add]. Call [Crowd.Close] to stop the workers.
type Crowd[E any] struct {
	layout // the table as the updates read it; replaced whole by a reload
	h      table.Host[*E]
	m      *crowd.Machine[E]

	tmp *E // where Add performs the entry actions, reused

	stepping atomic.Bool
	reading  bool // messages were posted before this step: state functions read flags
	panicked bool // the machine's step has not returned

	// reloads counts the reloads committed, so that a commit knows
	// whether another came first (see PrepareReload).
	reloads uint64

	byID // the entities' messages and stacks, by ID; a reload renumbers them in place

	dirtyMsgs []bool // per dirty ID, during a step: it was in a state that tests messages
	kept      []post // after a step that panicked: the messages kept for the next

	mu      sync.Mutex // guards what follows during a step
	posts   []post
	adds    []add[E]
	failed  int
	first   []fault // the failed updates with the smallest IDs
	addErrs []error

	// Attached by Observe, or nil; set between steps only.
	obs      machine.Observer
	batchObs machine.BatchObserver // obs, if it takes batches
	evMu     sync.Mutex            // guards evFree during a step
	evFree   []*events             // the event buffers not in use

	members []uint64 // Restore's scratch: a bit per ID of the snapshot
}

// layout is what the updates read of the table, laid out by newLayout
// from the table's exported description. A reload replaces it whole,
// between steps: the state functions read it at each batch.
type layout struct {
	t          *table.Table
	spans      []span
	steps      []step
	acts       []act
	slot       []uint8        // per test: message slot, or noSlot for a polled test
	msgTests   []table.TestID // per message slot: its test
	msgs       []bool         // per state: its updates may test messages
	chain      bool           // Options.Chain
	chainLimit int            // the effective chain limit
	stackLimit int            // the effective stack limit
	limit      int            // the stack limit, or 0 if the table never pushes or returns
}

// byID is what the crowd keeps per ID beside the machine. It is written
// between steps, and during a step only by the entity's own update (which
// clears the flags it read once its batch is done, so that a step that
// panics knows who saw them).
type byID struct {
	flags  []uint64        // messages posted since the last step, one bit per message slot
	posted []uint64        // one bit per ID: its flags are not zero
	dirty  []crowd.ID      // the IDs whose flags are not zero
	depth  []uint8         // the stack's depth, if limit > 0
	stack  []table.StateID // the stacks, limit entries per ID, bottom first
}

// span locates one state's steps and entry actions.
type span struct {
	lo, hi   uint32 // steps
	alo, ahi uint32 // acts
}

// step is one transition as an update tries it.
type step struct {
	test table.TestID
	to   table.StateID
	slot uint8 // message slot, or noSlot for a polled test
	push bool
}

// noSlot is the slot of a polled test.
const noSlot = 0xFF

// act is an entry action as the host performs it.
type act struct {
	p table.PropertyID
	v table.ValueID
}

type post struct {
	id  crowd.ID
	bit uint64
}

type add[E any] struct {
	id   crowd.ID
	data E
}

// chainPathMax is how many visited states a ChainError names: the first
// ones (as package table).
const chainPathMax = machine.ChainPathMax

// fault records an update that failed, to be turned into an error after
// the step: a StackError (chainLimit 0) or a ChainError.
type fault struct {
	id         crowd.ID
	overflow   bool
	state      table.StateID // StackError: the state the transition leaves; ChainError: At
	test       table.TestID
	chainLimit int
	visited    int
	npath      int
	path       [chainPathMax]table.StateID
}

// firstFaults is how many failed updates an [Error] describes.
const firstFaults = 8

// New returns a crowd running t with host h, on a new [crowd.Machine]
// made with opts (OnFinal is called for each entity that went to the final
// state, after the step that took it there; ChunkSize and MaxID as in
// crowd). It returns an error if t is nil or has no states (a zero Table:
// build or decode one), if t is a statechart table (a crowd runs flat
// tables), or if crowd.New refuses the options. h may be nil only for a
// table without polled tests or entry actions.
//
// The host is called from the machine's workers, several at once, each
// call for a different entity: it must be safe for concurrent use on
// distinct entities (reading shared data that the step does not change is
// fine). The *E it gets points into the machine's storage and is valid
// only during the call: entities move when they change state.
//
// New reads the table through its exported accessors once, keeping its
// own copy of what an update needs (a few bytes per transition tried in
// each state and per entry action), allocates the machine and one state
// function per state, and nothing per entity until entities are added.
func New[E any](t *table.Table, h table.Host[*E], opts crowd.Options[E]) (*Crowd[E], error) {
	switch {
	case t == nil:
		return nil, errors.New("tablecrowd: New: the table is nil (make it with table.Builder.Build or decode it)")
	case t.Statechart():
		return nil, fmt.Errorf("tablecrowd: New: table %q is a statechart (nested states, exit actions, events raised or sent); a crowd runs flat tables: run its entities as table.Agents", t.Name())
	case t.NumStates() == 0:
		return nil, errors.New("tablecrowd: New: the table has no states (make it with table.Builder.Build or decode it)")
	}
	c := &Crowd[E]{layout: newLayout(t), h: h, tmp: new(E), first: make([]fault, 0, firstFaults)}
	m, err := crowd.New(c.defs(&c.layout), opts)
	if err != nil {
		return nil, fmt.Errorf("tablecrowd: New (table %q): %w", t.Name(), err)
	}
	c.m = m
	return c, nil
}

// defs returns the machine's states for layout l: one per table state,
// named as the table names it, each running its entities through c's
// layout, whichever it is when the state runs.
func (c *Crowd[E]) defs(l *layout) []crowd.Def[E] {
	defs := make([]crowd.Def[E], l.t.NumStates())
	for q := range defs {
		defs[q] = crowd.Def[E]{Name: l.t.StateName(table.StateID(q)), Batch: c.stateFunc(table.StateID(q))}
	}
	return defs
}

// newLayout reads what the updates need from t's exported description, as
// package table lays out its own runtime: the message slots (the message
// tests numbered in TestID order), and per state the steps an update
// tries (the any-state transitions, except those into the state itself,
// then the state's own, in order), its entry actions, and whether it may
// test messages.
func newLayout(t *table.Table) layout {
	l := layout{t: t}
	o := t.Options()
	l.chain = o.Chain
	l.chainLimit = o.ChainLimit
	if l.chainLimit <= 0 {
		l.chainLimit = t.NumStates()
	}
	l.stackLimit = o.StackLimit
	if l.stackLimit <= 0 {
		l.stackLimit = table.MaxStack
	}

	l.slot = make([]uint8, t.NumTests())
	n := uint8(0)
	for id := range l.slot {
		l.slot[id] = noSlot
		if t.Test(table.TestID(id)).Message {
			l.slot[id] = n
			l.msgTests = append(l.msgTests, table.TestID(id))
			n++
		}
	}
	anyTr := slices.Collect(t.Transitions(table.AnyState))
	l.spans = make([]span, t.NumStates())
	l.msgs = make([]bool, t.NumStates())
	for q := range l.spans {
		sp := &l.spans[q]
		sp.lo = uint32(len(l.steps))
		for _, tr := range anyTr {
			if tr.To != table.StateID(q) { // an any-state transition never leaves its destination for itself
				l.steps = append(l.steps, l.step(tr))
			}
		}
		for tr := range t.Transitions(table.StateID(q)) {
			l.steps = append(l.steps, l.step(tr))
		}
		sp.hi = uint32(len(l.steps))
		sp.alo = uint32(len(l.acts))
		for a := range t.Actions(table.StateID(q)) {
			l.acts = append(l.acts, act{a.Property, a.Value})
		}
		sp.ahi = uint32(len(l.acts))
		msgs := l.chain // a chain may reach a state that tests a message
		for _, s := range l.steps[sp.lo:sp.hi] {
			msgs = msgs || s.slot != noSlot
		}
		l.msgs[q] = msgs && sp.hi > sp.lo
	}
	l.steps = slices.Clip(l.steps)
	l.acts = slices.Clip(l.acts)
	for _, s := range l.steps {
		if s.push || s.to == table.Return {
			l.limit = l.stackLimit
			break
		}
	}
	return l
}

func (l *layout) step(tr table.Transition) step {
	return step{test: tr.Test, to: tr.To, slot: l.slot[tr.Test], push: tr.Push}
}

// Table returns the crowd's table.
func (c *Crowd[E]) Table() *table.Table { return c.t }

// Machine returns the machine the crowd runs on, for what it offers beyond
// the Crowd: Len, Count and Counts, StateOf, Each, Transitions, Remove,
// SetWorkers; its state crowd.StateID(q) is the table's state q. Add
// entities and step through the Crowd, not the machine: [Crowd.Add]
// performs the initial entry actions, and [Crowd.Step] delivers the
// messages; a step of the machine itself panics (a [*crowd.PanicError]).
// The crowd keeps its machine for good: a reload redefines it in place
// ([Crowd.PrepareReload]), its states then being the new table's.
func (c *Crowd[E]) Machine() *crowd.Machine[E] { return c.m }

// Close stops the machine's worker goroutines; the crowd stays usable and
// steps on the caller's goroutine alone.
func (c *Crowd[E]) Close() { c.m.Close() }

// Add puts entity id, with its data e, in the table's initial state, having
// performed that state's entry actions on e through the host, as
// [table.NewAgent] does. The entity is updated from the next step on; its
// stack is empty and no message is waiting for it.
//
// It returns an error, and changes nothing, if id is above the machine's
// largest ID ([crowd.Options.MaxID] given to New, by default
// [crowd.DefaultMaxID]) or the crowd holds id already (wrapping
// [crowd.ErrExists]). During a step (from the host or OnFinal) the add
// waits for the end of the step: then the adds asked for are carried out
// in order of ID, each with its entry actions, after the messages posted
// during the step were delivered; an ID added twice in one step is not
// added, and such errors are reported by Step. Add allocates only when the
// machine or the crowd's per-ID storage grows (8 bytes and a bit per ID
// up to the largest, and 1 + 2×the stack limit bytes more for a table that
// uses the stack; about 140 MiB, or 690 MiB with a stack of 16, for an ID
// of 16,777,215).
func (c *Crowd[E]) Add(id crowd.ID, e E) error {
	if max := c.m.MaxID(); id > max {
		return fmt.Errorf("tablecrowd: Crowd.Add: ID %d is above the crowd's largest ID, %d (MaxID in the crowd.Options given to New; the crowd keeps %d bytes per ID up to the largest added: raise MaxID, up to crowd.MaxID (%d), if the game's IDs go that high)",
			id, max, 8+c.limit*2+min(c.limit, 1), crowd.MaxID)
	}
	if s, ok := c.m.StateOf(id); ok {
		return fmt.Errorf("tablecrowd: Crowd.Add: %w: %d (in state %q)", crowd.ErrExists, id, c.m.StateName(s))
	}
	if c.stepping.Load() {
		c.mu.Lock()
		c.adds = append(c.adds, add[E]{id, e})
		c.mu.Unlock()
		return nil
	}
	return c.add(id, e)
}

// add adds an entity between steps.
func (c *Crowd[E]) add(id crowd.ID, e E) error {
	if s, ok := c.m.StateOf(id); ok {
		return fmt.Errorf("tablecrowd: Crowd.Add: %w: %d (in state %q)", crowd.ErrExists, id, c.m.StateName(s))
	}
	c.grow(int(id) + 1)
	if c.flags[id] != 0 { // a message posted to an entity removed since is not for this one
		c.flags[id] = 0
		c.posted[id/64] &^= 1 << (id % 64)
	}
	if c.limit > 0 {
		c.depth[id] = 0
	}
	p := c.tmp // nil if the host adds from inside an add
	c.tmp = nil
	if p == nil {
		p = new(E)
	}
	*p = e
	initial := c.t.Initial()
	c.enter(p, initial)
	err := c.m.Add(id, *p, crowd.StateID(initial))
	var zero E
	*p = zero // drop the references the data holds
	c.tmp = p
	return err
}

// grow makes room for IDs below n in the arrays kept by ID.
func (c *Crowd[E]) grow(n int) {
	if n <= len(c.flags) {
		return
	}
	c.flags = slices.Grow(c.flags, n-len(c.flags))[:n]
	if w := (n + 63) / 64; w > len(c.posted) {
		c.posted = slices.Grow(c.posted, w-len(c.posted))[:w]
	}
	if c.limit > 0 {
		c.depth = slices.Grow(c.depth, n-len(c.depth))[:n]
		c.stack = slices.Grow(c.stack, n*c.limit-len(c.stack))[:n*c.limit]
	}
}

// Post posts message msg to entity id: its next update sees the message as
// one of its tests holding, as with [table.Agent.Post]. Between steps that
// is the next step; during a step (from the host or OnFinal) the message
// waits for the step after it, whether or not the entity was updated yet,
// so that what a step does never depends on the order of its workers. A
// message posted during a step to an entity that leaves in it (Final, or
// removed) is dropped. Posting a message twice before a step is posting it
// once.
//
// It returns an error wrapping [table.ErrNotMessage] if msg is not a
// message test of the table, and one wrapping [crowd.ErrNotFound] if the
// crowd does not hold id (an entity added during the current step joins
// after it). Post allocates nothing once the crowd has seen as many posts
// per step.
func (c *Crowd[E]) Post(id crowd.ID, msg table.TestID) error {
	t := c.t
	switch {
	case int(msg) >= len(c.slot):
		return &wrapped{fmt.Sprintf("tablecrowd: Crowd.Post %s: table %q has %d tests", msg, t.Name(), len(c.slot)), table.ErrNotMessage}
	case c.slot[msg] == noSlot:
		return &wrapped{fmt.Sprintf("tablecrowd: Crowd.Post %q: table %q: a polled test, not a message (the host answers polled tests; post messages only)", t.Test(msg).String(), t.Name()), table.ErrNotMessage}
	}
	if _, ok := c.m.StateOf(id); !ok || int(id) >= len(c.flags) {
		return fmt.Errorf("tablecrowd: Crowd.Post: %w: %d (add entities with Crowd.Add)", crowd.ErrNotFound, id)
	}
	bit := uint64(1) << (c.slot[msg] & 63)
	if c.stepping.Load() {
		c.mu.Lock()
		c.posts = append(c.posts, post{id, bit})
		c.mu.Unlock()
		return nil
	}
	c.post(id, bit)
	return nil
}

// wrapped is an error with its own message that matches a sentinel.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

func (c *Crowd[E]) post(id crowd.ID, bit uint64) {
	if c.flags[id] == 0 {
		c.dirty = append(c.dirty, id)
		c.posted[id/64] |= 1 << (id % 64)
	}
	c.flags[id] |= bit
}

// Step updates every entity once, as [table.Agent.Update] would, on the
// machine's workers, and moves each to the bucket of the state it ends in;
// an entity whose update went to the final state leaves the machine, and
// the machine's OnFinal hook sees it go. The messages posted before the
// step are seen by it and then cleared; then the messages and the adds
// asked for during the step are carried out, in that order (see
// [Crowd.Post] and [Crowd.Add]). The result is the same whatever the
// number of workers.
//
// An update that stops with a [*table.StackError] or a [*machine.ChainError]
// leaves its entity where the update stopped, as it leaves an agent; Step
// then returns an [*Error] that counts these and holds the first few by
// entity ID, with the adds that could not be carried out. Step returns
// [crowd.ErrBusy], doing nothing, when called from inside a step or a
// machine's Each loop. A host that panics makes Step panic with a
// [*crowd.PanicError] (see there for what the machine holds then); the
// posts and adds asked for during the step are still carried out, and the
// errors of the adds reported by the next Step. No message posted before
// the step is lost then: an entity whose update did not run, or ran in a
// run of entities that the machine undid (see crowd.PanicError; its entry
// actions are then performed again), keeps its messages for the next step,
// where its update runs again; the others saw theirs. Step allocates
// nothing in steady state, unless it returns an error.
func (c *Crowd[E]) Step() error {
	if c.stepping.Load() {
		return crowd.ErrBusy
	}
	c.failed, c.first = 0, c.first[:0]
	c.reading = len(c.dirty) > 0
	c.dirtyMsgs = c.dirtyMsgs[:0]
	for _, id := range c.dirty { // for a step that panics
		s, ok := c.m.StateOf(id)
		c.dirtyMsgs = append(c.dirtyMsgs, ok && c.msgs[s])
	}
	c.stepping.Store(true)
	c.panicked = true
	defer c.settleIfPanicked()
	err := c.m.Step()
	c.panicked = false
	if errors.Is(err, crowd.ErrBusy) {
		c.stepping.Store(false) // nothing ran: the messages wait
		return err
	}
	c.settle(false)
	return c.report(err)
}

func (c *Crowd[E]) settleIfPanicked() {
	if c.panicked {
		c.panicked = false
		c.settle(true)
	}
}

// settle ends a step: the flags it saw are cleared, then the posts and the
// adds asked for during it are carried out. After a step that panicked, the
// flags that no finished batch cleared are kept for the next step, where
// they were posted to a state that tests messages.
func (c *Crowd[E]) settle(panicked bool) {
	c.stepping.Store(false)
	c.kept = c.kept[:0]
	for i, id := range c.dirty {
		if f := c.flags[id]; panicked && f != 0 && c.dirtyMsgs[i] {
			c.kept = append(c.kept, post{id, f})
		}
		c.flags[id] = 0
		c.posted[id/64] = 0
	}
	c.dirty = c.dirty[:0]
	for _, p := range c.kept {
		if _, ok := c.m.StateOf(p.id); ok {
			c.post(p.id, p.bit)
		}
	}
	for _, p := range c.posts {
		if _, ok := c.m.StateOf(p.id); ok {
			c.post(p.id, p.bit)
		}
	}
	c.posts = c.posts[:0]
	if len(c.adds) == 0 {
		return
	}
	adds := c.adds
	c.adds = nil // if the host panics below, the adds left are dropped, not carried out twice
	slices.SortStableFunc(adds, func(a, b add[E]) int { return cmp.Compare(a.id, b.id) })
	for i := 0; i < len(adds); {
		j := i + 1
		for j < len(adds) && adds[j].id == adds[i].id {
			j++
		}
		if j > i+1 {
			c.addErrs = append(c.addErrs, fmt.Errorf("tablecrowd: Crowd.Add: %w: %d was added %d times in one step; none of the adds was carried out", crowd.ErrExists, adds[i].id, j-i))
		} else if err := c.add(adds[i].id, adds[i].data); err != nil {
			c.addErrs = append(c.addErrs, err)
		}
		i = j
	}
	clear(adds)
	c.adds = adds[:0]
}

// report makes the error Step returns.
func (c *Crowd[E]) report(merr error) error {
	if c.failed == 0 && len(c.addErrs) == 0 && merr == nil {
		return nil
	}
	e := &Error{Failed: c.failed}
	for i := range c.first {
		e.First = append(e.First, Failure{ID: c.first[i].id, Err: c.err(&c.first[i])})
	}
	e.Adds = append(e.Adds, c.addErrs...)
	if merr != nil {
		e.Adds = append(e.Adds, merr)
	}
	clear(c.addErrs)
	c.addErrs = c.addErrs[:0]
	return e
}

// err returns the error the agent's update would have returned.
func (c *Crowd[E]) err(x *fault) error {
	if x.chainLimit == 0 {
		return &table.StackError{Overflow: x.overflow, State: x.state, Test: x.test, Limit: c.stackLimit, Table: c.t}
	}
	return chainError(c.t, x)
}

// chainError returns the error of fault x, a chain that reached its
// limit: the one table.Agent.Update returns for the same chain.
func chainError(t *table.Table, x *fault) *machine.ChainError {
	e := &machine.ChainError{Kind: machine.KindTable, Machine: t.Name(), Limit: x.chainLimit, Path: make([]machine.StateID, x.npath), Names: make([]string, x.npath),
		Visited: x.visited, At: machine.StateID(x.state), AtName: t.StateName(x.state),
		Trigger: int32(x.test), TriggerName: t.Test(x.test).String(), Next: machine.NoState}
	for i, id := range x.path[:x.npath] {
		e.Path[i], e.Names[i] = machine.StateID(id), t.StateName(id)
	}
	return e
}

// errDirectStep is what a state function panics with when the machine is
// stepped without the Crowd.
const errDirectStep = "tablecrowd: the machine of a Crowd was stepped directly; call Crowd.Step, which delivers the messages"

// stateFunc returns the crowd state function of state q: Agent.Update for
// each entity in q, as the crowd's layout has it when the state runs.
func (c *Crowd[E]) stateFunc(q table.StateID) crowd.BatchFunc[E] {
	return func(b *crowd.Batch[E]) { c.run(b, q) }
}

// run updates the entities of a batch, in state q.
func (c *Crowd[E]) run(b *crowd.Batch[E], q table.StateID) {
	if !c.stepping.Load() {
		panic(errDirectStep)
	}
	sp := c.spans[q]
	if sp.hi == sp.lo {
		return
	}
	steps := c.steps[sp.lo:sp.hi:sp.hi]
	h := c.h
	var posted []uint64
	if c.msgs[q] && c.reading {
		posted = c.posted
	}
	read := batchVars{lo: -1}
	for i := range b.Len() {
		e, _ := b.At(i)
		var f uint64
		if posted != nil {
			if id := b.ID(i); int(id/64) < len(posted) && posted[id/64]>>(id%64)&1 != 0 {
				f = c.flags[id]
				read.add(i)
			}
		}
		for k := range steps {
			s := &steps[k]
			if s.slot != noSlot {
				if f>>(s.slot&63)&1 == 0 {
					continue
				}
			} else if !h.Test(e, s.test) {
				continue
			}
			if to := c.take(b.ID(i), e, q, int(sp.lo)+k, f, &read); to != q {
				if to == table.Final {
					b.Set(i, crowd.Final)
				} else {
					b.Set(i, crowd.StateID(to))
				}
			}
			break
		}
	}
	if read.ev != nil {
		c.giveEvents(read.ev) // before the flags are cleared: if the observer panics, the batch is undone
	}
	if read.lo >= 0 {
		c.seen(b, posted, read.lo, read.hi)
	}
}

// batchVars is what run keeps beside its loop over a batch: the first and
// last entities whose flags were read, and the buffer of the batch's
// events. It is updated by a call that is not inlined, and given by address
// to take, so that it stays in memory rather than in registers that the
// loop over the batch would save and restore around every call to the host
// (as two local variables, lo and hi cost about 3% of BenchmarkCrowdGoomba's
// frame; a message is rare, the call too). The buffer of events is taken at
// the batch's first transition: taking it before the loop, when an
// observer is attached, cost as much again with none attached.
type batchVars struct {
	lo, hi int
	ev     *events // nil until the batch reports an event
}

//go:noinline
func (r *batchVars) add(i int) {
	if r.lo < 0 {
		r.lo = i
	}
	r.hi = i
}

// seen clears the flags of entities lo to hi of a batch whose updates are
// done: if the step panics, the flags not cleared are kept for the next
// step (see settle). A batch whose function panicked is undone by the
// machine, its entities left where they were: their flags stay, and so they
// see their messages when their update runs again.
func (c *Crowd[E]) seen(b *crowd.Batch[E], posted []uint64, lo, hi int) {
	for i := lo; i <= hi; i++ {
		if id := b.ID(i); int(id/64) < len(posted) && posted[id/64]>>(id%64)&1 != 0 {
			c.flags[id] = 0
		}
	}
}

// take takes transition c.steps[k] from q, found by the state function,
// then chains if the table says so; f holds the flags the update saw, v
// the batch's buffer of events, if an observer is attached. It returns the
// state the entity ends in, or Final.
func (c *Crowd[E]) take(id crowd.ID, e *E, q table.StateID, k int, f uint64, v *batchVars) table.StateID {
	s := &c.steps[k]
	at, ok := c.move(id, e, q, s)
	if !ok {
		return at
	}
	if c.obs != nil {
		c.record(v, id, q, at, s, k)
	}
	if at == table.Final || !c.chain {
		return at
	}
	// As Agent.Update's chain.
	limit := c.chainLimit
	var path [chainPathMax]table.StateID
	path[0], path[1] = q, at
	for n := 1; ; n++ {
		if s.slot != noSlot {
			f &^= 1 << (s.slot & 63)
		}
		if k = c.fire(e, at, f); k < 0 {
			return at
		}
		s = &c.steps[k]
		if n >= limit {
			x := fault{id: id, state: at, test: s.test, chainLimit: limit, visited: n + 1, npath: min(n+1, chainPathMax), path: path}
			c.fail(&x)
			return at
		}
		from := at
		if at, ok = c.move(id, e, at, s); !ok {
			return at
		}
		if c.obs != nil {
			c.record(v, id, from, at, s, k)
		}
		if at == table.Final {
			return at
		}
		if n+1 < chainPathMax {
			path[n+1] = at
		}
	}
}

// fire returns the index in c.steps of the first step of state q whose
// test holds for entity e, with the message flags f, or -1: what
// Agent.Update tries.
func (c *Crowd[E]) fire(e *E, q table.StateID, f uint64) int {
	sp := c.spans[q]
	steps := c.steps[sp.lo:sp.hi]
	for i := range steps {
		s := &steps[i]
		if s.slot != noSlot {
			if f>>(s.slot&63)&1 != 0 {
				return int(sp.lo) + i
			}
		} else if c.h.Test(e, s.test) {
			return int(sp.lo) + i
		}
	}
	return -1
}

// move takes one transition from q, as Agent.Update does: push, pop or
// finish, then enter. It returns the state entered, or Final, and false
// (with q) if the stack did not allow the transition.
func (c *Crowd[E]) move(id crowd.ID, e *E, q table.StateID, s *step) (table.StateID, bool) {
	to := s.to
	switch to {
	case table.Final:
		return table.Final, true
	case table.Return:
		d := c.depthOf(id)
		if d == 0 {
			c.fail(&fault{id: id, state: q, test: s.test})
			return q, false
		}
		d--
		c.depth[id] = d
		to = c.stack[int(id)*c.limit+int(d)]
	}
	if s.push {
		d := c.depthOf(id)
		if int(d) >= c.limit {
			c.fail(&fault{id: id, overflow: true, state: q, test: s.test})
			return q, false
		}
		c.stack[int(id)*c.limit+int(d)] = q
		c.depth[id] = d + 1
	}
	c.enter(e, to)
	return to, true
}

func (c *Crowd[E]) depthOf(id crowd.ID) uint8 {
	if int(id) >= len(c.depth) {
		panic("tablecrowd: entity " + strconv.FormatUint(uint64(id), 10) + " of a Crowd was added to its machine directly; add entities with Crowd.Add")
	}
	return c.depth[id]
}

// enter performs the entry actions of state q on e.
func (c *Crowd[E]) enter(e *E, q table.StateID) {
	sp := c.spans[q]
	for _, a := range c.acts[sp.alo:sp.ahi] {
		c.h.Do(e, a.p, a.v)
	}
}

// fail records a failed update. An entity's update fails at most once per
// step, so keeping the smallest IDs gives the same errors whatever the
// order in which the workers report them.
func (c *Crowd[E]) fail(x *fault) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed++
	i, _ := slices.BinarySearchFunc(c.first, x.id, func(f fault, id crowd.ID) int { return cmp.Compare(f.id, id) })
	switch {
	case len(c.first) < firstFaults:
		c.first = slices.Insert(c.first, i, *x) // within its capacity
	case i < firstFaults:
		copy(c.first[i+1:], c.first[i:firstFaults-1])
		c.first[i] = *x
	}
}
