package difftest

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Observable is a machine under test that reports its transitions to an
// observer: a table.Agent, and the adapter of a machine generated with
// gogen.Options.Observe. When the generated machine's adapter is one, Run
// and RunChart attach a flight recorder to each machine and compare the
// events they record.
type Observable interface {
	Observe(o machine.Observer, entity uint64)
	Observer() (machine.Observer, uint64)
}

// Observe attaches o to the agent.
func (a *agent) Observe(o machine.Observer, entity uint64) { a.a.Observe(o, entity) }

// Observer returns the agent's observer.
func (a *agent) Observer() (machine.Observer, uint64) { return a.a.Observer() }

// Observe attaches o to the agent.
func (a *chartAgent) Observe(o machine.Observer, entity uint64) { a.a.Observe(o, entity) }

// Observer returns the agent's observer.
func (a *chartAgent) Observer() (machine.Observer, uint64) { return a.a.Observer() }

// watchEntity is the entity number the machines' events carry.
const watchEntity = 0x5eed

// watcher records the events of one machine under test in a
// machine.Recorder, registered with the table's description.
type watcher struct {
	d   machine.Description
	rec *machine.Recorder
	obs machine.Observer
	buf []machine.Event
}

// newWatcher returns a watcher for machines of t.
func newWatcher(t *table.Table) *watcher {
	w := &watcher{d: t.Describe(), rec: machine.NewRecorder(4096)}
	w.obs = w.rec.Register(w.d)
	return w
}

// attach attaches the watcher to m if m is Observable and has no
// observer (a machine restored from a snapshot has none), and reports
// whether m is Observable.
func (w *watcher) attach(m any) bool {
	o, ok := m.(Observable)
	if !ok {
		return false
	}
	if obs, _ := o.Observer(); obs == nil {
		o.Observe(w.obs, watchEntity)
		if obs, entity := o.Observer(); obs != w.obs || entity != watchEntity {
			panic(fmt.Sprintf("difftest: %T.Observer() = %v, %d after Observe(%v, %d)", m, obs, entity, w.obs, watchEntity))
		}
	}
	return true
}

// take returns the events recorded since the last call, and forgets them.
// It reports as a problem an event whose transition is not in the
// description, and more events than the recorder holds.
func (w *watcher) take() ([]machine.Event, string) {
	problem := ""
	if n := w.rec.Total(); n > uint64(w.rec.Size()) {
		problem = fmt.Sprintf("%d events in one operation, more than the recorder holds", n)
	}
	w.buf = w.rec.Events(w.buf[:0])
	w.rec.Reset()
	for _, ev := range w.buf {
		if ev.Transition < -1 || int(ev.Transition) >= len(w.d.Transitions) || ev.Trigger < -1 || int(ev.Trigger) >= len(w.d.Triggers) {
			problem = fmt.Sprintf("event %+v: transition or trigger out of the description's range", ev)
		}
	}
	return w.buf, problem
}

// showEvents writes events as the test's traces show them.
func showEvents(evs []machine.Event) string {
	var b strings.Builder
	for i, ev := range evs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{entity %#x %v→%v %v trigger %d transition %d}", ev.Entity, ev.From, ev.To, ev.Cause, ev.Trigger, ev.Transition)
	}
	return "[" + b.String() + "]"
}

// countCauses adds the events' causes to counts.
func countCauses(counts *map[machine.Cause]int, evs []machine.Event) {
	if *counts == nil {
		*counts = map[machine.Cause]int{}
	}
	for _, ev := range evs {
		(*counts)[ev.Cause]++
	}
}
