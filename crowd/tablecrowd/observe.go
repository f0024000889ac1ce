package tablecrowd

import (
	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Describe returns the crowd's machine as a [machine.Description]: the
// table's ([table.Table.Describe]: its name, states, initial state, tests
// as triggers and transitions, in the same order, with the same indexes),
// with Kind [machine.KindTableCrowd]. The table is the machine the entities
// run, so the description is the table's; the kind says that its
// entities are a crowd's, saved and restored as one [Snapshot], so that a
// save of the crowd ([machine.Fingerprint] covers the kind) is never taken
// for a save of agents of the same table, nor the other way round.
// Initial is the state [Crowd.Add] puts entities in.
//
// The crowd's machine ([Crowd.Machine]) describes itself too, as any
// crowd.Machine does: the same states, no transitions, Initial NoState.
// Describe makes a new description on each call, in time and memory
// proportional to the table.
func (c *Crowd[E]) Describe() machine.Description {
	d := c.t.Describe()
	d.Kind = machine.KindTableCrowd
	return d
}

// Observe attaches o to the crowd: from the next step on, each transition
// an entity takes is reported to o as a [machine.Event], as a
// [table.Agent] observed with the entity's ID as its number reports it
// (see [table.Agent.Observe]): Entity the crowd ID; From and To the table's
// states ([machine.Final] when the entity finished); Cause
// [machine.CauseTest] for a polled test, [machine.CauseMessage] for a
// message; Trigger the test; Transition the index of the transition taken
// in [Crowd.Describe]'s list (the table's). With [table.Options.Chain] an
// entity may report several in a step, in the order it took them. The
// transitions an update could not take (a [*table.StackError], the one a
// [*machine.ChainError] refused) are not reported, and neither is an
// entity's entering the initial state when it is added. Observe(nil)
// detaches the observer; attaching replaces the one attached before. The
// observer of the crowd's machine ([crowd.Machine.Observe]), if any, is
// another: it is told of each entity that changed bucket in a step, with
// Cause [machine.CauseCall].
//
// The workers report as they go, each the events of one batch of entities
// (up to 256, and never more than [crowd.Options.ChunkSize]) once their
// updates are done, in the order of the batch, up to 256 events at a time:
// in one call to o.ObserveBatch if o is a [machine.BatchObserver], else in
// a call to o.Observe per event. So o is called from several goroutines at
// once and must be safe for concurrent use ([machine.Recorder] is); the
// order of the batches' reports depends on the workers, the events of each
// entity, and of each batch, do not. o must not call back into the crowd,
// nor keep the slice it gets. An observer that panics makes Step panic as a
// host that panics does (a [*crowd.PanicError]): the machine undoes the
// batch, whose entities keep their messages and run again at the next step
// (their events are then reported again; those of a batch of more than 256
// events may have been reported once already, as may the events of a
// batch whose host panicked).
//
// Observe panics if called during a step (from the host or OnFinal).
//
// Cost: with no observer attached, a check per transition taken. With one,
// a 40-byte event written per transition, a lock per batch that reports
// events to take a buffer of 256 events (10 KiB, one per worker, allocated
// once), and the observer's calls; no allocation per step.
func (c *Crowd[E]) Observe(o machine.Observer) {
	if c.stepping.Load() {
		panic("tablecrowd: Crowd.Observe called during a step (attach observers between steps)")
	}
	c.obs = o
	c.batchObs, _ = o.(machine.BatchObserver)
	if o == nil {
		c.evFree = nil
	}
}

// events is a buffer of the events of one batch's updates.
type events struct {
	evs []machine.Event // up to eventBatch
}

// eventBatch is how many events the observer gets at most at once: few
// enough that the buffer they are written to stays in cache.
const eventBatch = 256

// takeEvents returns an empty buffer for a batch's events, from the free
// list or new.
func (c *Crowd[E]) takeEvents() *events {
	c.evMu.Lock()
	n := len(c.evFree)
	if n == 0 {
		c.evMu.Unlock()
		return &events{evs: make([]machine.Event, 0, eventBatch)}
	}
	ev := c.evFree[n-1]
	c.evFree = c.evFree[:n-1]
	c.evMu.Unlock()
	return ev
}

// giveEvents reports the events left in ev, then puts it back on the free
// list. A buffer whose observer panicked is not put back.
func (c *Crowd[E]) giveEvents(ev *events) {
	if len(ev.evs) > 0 {
		c.tell(ev.evs)
		ev.evs = ev.evs[:0]
	}
	c.evMu.Lock()
	c.evFree = append(c.evFree, ev)
	c.evMu.Unlock()
}

// record writes the event of transition c.steps[k], s, which entity id
// took from state from to state to (or Final), to the batch's buffer,
// taken at its first event, reporting the buffer first if it is full.
func (c *Crowd[E]) record(v *batchVars, id crowd.ID, from, to table.StateID, s *step, k int) {
	if v.ev == nil {
		v.ev = c.takeEvents()
	}
	ev := v.ev
	if len(ev.evs) == cap(ev.evs) {
		c.tell(ev.evs)
		ev.evs = ev.evs[:0]
	}
	cause := machine.CauseTest
	if s.slot != noSlot {
		cause = machine.CauseMessage
	}
	mto := machine.StateID(to)
	if to == table.Final {
		mto = machine.Final
	}
	// Set field by field, not as a composite literal, which is built on the
	// stack and copied with loads that stall on the narrow stores just made
	// (see crowd's setEvent).
	ev.evs = ev.evs[:len(ev.evs)+1]
	e := &ev.evs[len(ev.evs)-1]
	e.Tick, e.Entity, e.Machine = 0, uint64(id), 0
	e.From, e.To = machine.StateID(from), mto
	e.Cause, e.Trigger, e.Transition = cause, int32(s.test), int32(k)
}

// tell gives evs to the observer.
func (c *Crowd[E]) tell(evs []machine.Event) {
	if c.batchObs != nil {
		c.batchObs.ObserveBatch(evs)
		return
	}
	for i := range evs {
		c.obs.Observe(evs[i])
	}
}
