package crowd

import (
	"runtime/debug"

	"github.com/fsmforge/fsmforge/machine"
)

// Describe returns the machine's states as a [machine.Description] of Kind
// [machine.KindCrowd]: States[id] is state id, with its name, Atomic and
// at the top. It lists no transitions and no triggers, as a crowd has none
// to list: its state functions decide at run time where each entity goes.
// Initial is NoState: the game puts each entity in its state with
// [Machine.Add]. Each call makes a new description.
func (m *Machine[E]) Describe() machine.Description {
	d := machine.Description{Kind: machine.KindCrowd, Initial: machine.NoState, States: make([]machine.State, len(m.defs))}
	for i := range m.defs {
		d.States[i] = machine.State{Name: m.defs[i].Name, Kind: machine.Atomic, Parent: machine.NoState}
	}
	return d
}

// Observe attaches o to the machine: every step reports each entity that
// changed state, as a [machine.Event] with Entity its ID, From and To the
// states (machine.StateID(s) for state s, [machine.Final] for an entity
// that returned [Final]), Cause [machine.CauseCall], Trigger and
// Transition -1. Entities that stay, and those whose function returned an
// invalid state, are not reported. Observe(nil) detaches the observer;
// attaching replaces the one attached before.
//
// The workers report as they go, each the events of one task (a run of up
// to ChunkSize entities of one state) once it has run: the entities that
// moved to another state, in bucket order, then those that returned Final,
// in bucket order, up to 256 events at a time, in one call to
// o.ObserveBatch if o is a [machine.BatchObserver], else in a call to
// o.Observe per event. So o is called from several goroutines at once and
// must be safe for concurrent use ([machine.Recorder] is); the order of the
// tasks' reports depends on the workers, the events inside each do not. o
// must not call back into the machine, nor keep the slice it gets. If o
// panics, Step panics with a [*PanicError] whose Observer field is set,
// once the step is carried out as after a state function's panic.
//
// Observe panics if called from a state function, during a step.
//
// Cost: with no observer attached, a check per task of up to ChunkSize
// entities. With one, a 40-byte event written per entity that changes
// state, read back from where the step keeps it anyway, and a buffer of
// 256 events per worker, allocated once; no allocation per step. With a
// Recorder recording every change of state of W3 (one entity in ten per
// step) a step takes 4 to 8% longer at a million entities, the events
// written here and the Recorder's copy of them (see the package
// documentation, "Watching").
func (m *Machine[E]) Observe(o machine.Observer) {
	if m.stepping.Load() {
		panic("crowd: Machine.Observe called during a step (attach observers between steps)")
	}
	m.obs = o
	m.batch, _ = o.(machine.BatchObserver)
	for _, w := range m.scratch {
		m.eventBuffer(w)
	}
}

// eventBuffer gives w a buffer of events if an observer is attached, or
// takes it away if none is.
func (m *Machine[E]) eventBuffer(w *scratch) {
	switch {
	case m.obs == nil:
		w.events = nil
	case cap(w.events) < eventBatch:
		w.events = make([]machine.Event, 0, eventBatch)
	}
}

// eventBatch is how many events the observer gets at most at once: few
// enough that the buffer they are written to stays in cache.
const eventBatch = 256

// report tells the observer of the entities of task t, which w ran, that
// changed state: its movers, as they wait in the arena, then its finals,
// each in bucket order, eventBatch at a time. A panic of the observer
// stops the step as a state function's does, naming it.
func (m *Machine[E]) report(t *task[E], w *scratch) {
	evs := w.events[:cap(w.events)]
	defer func() {
		if v := recover(); v != nil {
			if t.panic == nil {
				t.panic = &PanicError{State: t.state, StateName: m.defs[t.state].Name, ID: ID(evs[0].Entity),
					Observer: true, Value: v, Stack: debug.Stack()}
			}
			m.abort.Store(true)
		}
	}()
	from := machine.StateID(t.state)
	k := 0
	for _, r := range t.movers {
		movers, next := m.arena[r.off:r.off+r.n], m.arenaNext[r.off:r.off+r.n]
		next = next[:len(movers)]
		for i := range movers {
			if k == len(evs) {
				m.tell(evs)
				k = 0
			}
			setEvent(&evs[k], movers[i].id, from, machine.StateID(next[i]))
			k++
		}
	}
	for i := range t.finals {
		if k == len(evs) {
			m.tell(evs)
			k = 0
		}
		setEvent(&evs[k], t.finals[i].id, from, machine.Final)
		k++
	}
	if k > 0 {
		m.tell(evs[:k])
	}
}

// setEvent makes ev the event of entity id's move from from to to. It sets
// the fields one by one: a composite literal is built on the stack and
// copied, and that copy's wide loads of narrow stores just made stall the
// processor, doubling what reporting costs.
func setEvent(ev *machine.Event, id ID, from, to machine.StateID) {
	ev.Tick, ev.Entity, ev.Machine = 0, uint64(id), 0
	ev.From, ev.To = from, to
	ev.Cause, ev.Trigger, ev.Transition = machine.CauseCall, -1, -1
}

// tell gives evs to the observer. w.events, which evs is, keeps them until
// the next call, for a PanicError to name the first.
func (m *Machine[E]) tell(evs []machine.Event) {
	if m.batch != nil {
		m.batch.ObserveBatch(evs)
		return
	}
	for i := range evs {
		m.obs.Observe(evs[i])
	}
}
