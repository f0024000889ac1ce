package table

import "github.com/fsmforge/fsmforge/machine"

// Observe attaches observer o to the agent: from now on, each transition
// the agent takes is reported to o, with entity as the event's Entity
// (the game's number for the agent, for example its index in a slice).
// Observe(nil, 0) detaches it. The observer stays with the agent and with
// the copies made of it afterwards (they share it); an agent made by
// [NewAgent] or [RestoreAgent] has none.
//
// Each event says, as [machine.Event] documents, where the transition
// went from and to ([machine.Final] when the agent finished) and what
// caused it, and indexes the table's [Table.Describe]:
//
//   - A flat agent reports each transition it takes (several in one update
//     with [Options.Chain]): Cause [machine.CauseTest] for a polled test,
//     [machine.CauseMessage] for a message; Trigger its test; Transition
//     the transition as Describe lists it under the state left.
//   - A statechart agent reports each microstep that took transitions:
//     From and To are its [Agent.State] before and after; Cause
//     [machine.CauseEvent] for an event raised, posted or sent without
//     delay, [machine.CauseTimer] for a send whose delay passed, and
//     [machine.CauseNone] for eventless transitions; Trigger the event, or
//     -1; Transition the first transition the microstep took (of several
//     in parallel regions), as listed under its source, or under the
//     active top-level state for an any-state transition.
//
// Entering the initial state is not reported: the agent is made before an
// observer can be attached. Transitions not taken (a [*StackError]) are not
// reported.
//
// The observer is called in the middle of the update, on its goroutine,
// after the transition's entry actions: it must not update the agent, and
// should return quickly. With no observer an update pays one comparison
// per transition taken, and nothing else. Observing a flat agent allocates
// once (about 460 bytes: the observer is kept where a statechart agent
// keeps its configuration, so that agents stay the same size).
func (a *Agent[E]) Observe(o machine.Observer, entity uint64) {
	switch {
	case a.status&statusChart != 0:
		a.sc.obs, a.sc.entity = o, entity
	case o == nil:
		a.sc = nil
	default:
		a.sc = &run{obs: o, entity: entity}
	}
}

// Observer returns the agent's observer and the entity number its events
// carry, or nil and 0.
func (a *Agent[E]) Observer() (machine.Observer, uint64) {
	if a.sc == nil {
		return nil, 0
	}
	return a.sc.obs, a.sc.entity
}

// observeStep reports the transition s a flat agent took from state from.
func (a *Agent[E]) observeStep(s *step, from StateID) {
	r := a.sc
	if r.obs == nil {
		return
	}
	cause := machine.CauseTest
	if s.slot != noSlot {
		cause = machine.CauseMessage
	}
	r.obs.Observe(machine.Event{Entity: r.entity, From: machineState(from), To: machineState(a.at()),
		Cause: cause, Trigger: int32(s.test), Transition: a.table.stepIndex(from, s)})
}

// stepIndex returns the index in t.steps, which Describe lists in order, of
// the step s of state q took: s itself when it points into t.steps, else
// (a copy in the polled list) the first step of q with the same test and
// target, which only an identical transition earlier in q could shadow.
func (t *Table) stepIndex(q StateID, s *step) int32 {
	sp := t.spans[q]
	for i := sp.lo; i < sp.hi; i++ {
		if &t.steps[i] == s {
			return int32(i)
		}
	}
	for i := sp.lo; i < sp.hi; i++ {
		if t.steps[i] == *s {
			return int32(i)
		}
	}
	return -1
}

// observeMicrostep reports the microstep a statechart agent took from
// state from, handling event (NoTest for none), which a timer sent if
// timed.
func (a *Agent[E]) observeMicrostep(from StateID, event TestID, timed bool) {
	r, c := a.sc, a.table.sc
	ev := machine.Event{Entity: r.entity, From: machineState(from), To: machineState(a.at()),
		Cause: machine.CauseNone, Trigger: -1, Transition: -1}
	if event != NoTest {
		ev.Trigger, ev.Cause = int32(event), machine.CauseEvent
		if timed {
			ev.Cause = machine.CauseTimer
		}
	}
	if len(r.enabled) > 0 {
		i := uint32(r.enabled[0])
		root := c.root()
		if src := c.trans[i].source; src != root {
			ev.Transition = c.listed[src] + int32(i-c.nodes[src].tlo)
		} else if a.table.HasState(from) {
			top := from
			for c.nodes[top].parent != root {
				top = c.nodes[top].parent
			}
			nd := &c.nodes[top]
			ev.Transition = c.listed[top] + int32(nd.thi-nd.tlo) + int32(i-c.nodes[root].tlo)
		}
	}
	r.obs.Observe(ev)
}
