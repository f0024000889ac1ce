package scref

import (
	"cmp"
	"errors"
	"slices"

	"github.com/fsmforge/fsmforge/chart"
)

// Host is the game's side of an [Interpreter]: it answers the tests that
// guards name and performs game actions, as a table's host does, by
// name.
type Host interface {
	Test(name string) bool
	Do(property, value string)
}

// Options says how an [Interpreter] runs. The zero value runs as the
// chart says: chaining when Chart.Chain is set, at most Chart.ChainLimit
// microsteps per update (0: the number of states).
type Options struct {
	// Chain makes every update take microsteps until nothing is enabled
	// and both queues are empty; the chart's Chain does too.
	Chain bool
	// ChainLimit bounds the microsteps of a chaining update; 0 means the
	// chart's ChainLimit, or, when that is 0, the number of its states
	// (start pseudo-states left out), as package compile makes tables.
	ChainLimit int
	// QueueLimit bounds each queue, as table.Options.QueueLimit: an event
	// that finds its queue full is dropped and the update (or Post)
	// returns an error wrapping ErrQueueFull. 0 means no bound.
	QueueLimit int
	// TimerLimit bounds the pending sends, as table.Options.TimerLimit: a
	// send over it is dropped, with the same error. 0 means no bound.
	TimerLimit int
}

// Timer is a pending send: its Event is due at game time Due. Timer is
// the name a cancel takes it back by ("" for none).
type Timer struct {
	Due   float64
	Event string
	Timer string
}

// timer is a pending send and its place in the order of sends.
type timer struct {
	Timer
	seq int
}

// ErrChainLimit is what Update returns when a chaining update took
// ChainLimit microsteps and more were pending, as table agents return a machine.ChainError.
var ErrChainLimit = errors.New("scref: chain limit reached")

// ErrQueueFull is what Update and Post return when an event was dropped
// for Options.QueueLimit or Options.TimerLimit.
var ErrQueueFull = errors.New("scref: event queue full")

// Interpreter runs a chart with the SCXML algorithm. It is not safe for
// concurrent use. Its cost is of no concern: every set is a slice,
// searched from the start.
type Interpreter struct {
	doc           *document
	configuration orderedSet[*state]
	historyValue  map[*state][]*state
	internalQueue []string
	externalQueue []string
	timers        []timer // in the order of sending
	sends         int     // sends so far, to order timers
	now           float64
	running       bool
	final         *state // the top-level final state entered
	chain         bool
	chainLimit    int
	queueLimit    int
	timerLimit    int
	err           error // the first event dropped in this update
	host          Host  // during New and Update
}

// New returns an interpreter of chart c in its initial configuration,
// having performed the initial entry's actions through h (nil: every
// test is false, game actions go nowhere). It returns an error for a
// chart it cannot run (see the package documentation). Like
// table.NewAgent, it takes no microstep: the first update does.
func New(c *chart.Chart, opt Options, h Host) (*Interpreter, error) {
	d, err := read(c)
	if err != nil {
		return nil, err
	}
	in := &Interpreter{doc: d, historyValue: map[*state][]*state{}, running: true,
		chain: opt.Chain || c.Chain, chainLimit: cmp.Or(opt.ChainLimit, c.ChainLimit, len(d.states)),
		queueLimit: opt.QueueLimit, timerLimit: opt.TimerLimit}
	in.host = h
	in.interpret()
	in.host = nil
	return in, nil
}

// interpret is SCXML's interpret without its main event loop, which
// Update runs: it enters the initial configuration. The root's initial
// transition is a top-level start state's, whose actions run first.
func (in *Interpreter) interpret() {
	t := in.doc.root.initial
	in.executeContent(t.content)
	in.enterStates(orderedSet[*transition]{t})
	if !in.running {
		in.exitInterpreter()
	}
}

// SetTime sets the game time, in seconds.
func (in *Interpreter) SetTime(now float64) { in.now = now }

// Post puts event on the external queue; an interpreter that is done
// ignores it. It returns ErrQueueFull when the queue is full.
func (in *Interpreter) Post(event string) error {
	if !in.running {
		return nil
	}
	if in.queueLimit > 0 && len(in.externalQueue) >= in.queueLimit {
		return ErrQueueFull
	}
	in.externalQueue = append(in.externalQueue, event)
	return nil
}

// enqueue puts event on queue q, unless it is full.
func (in *Interpreter) enqueue(q *[]string, event string) {
	if in.queueLimit > 0 && len(*q) >= in.queueLimit {
		in.err = cmp.Or(in.err, ErrQueueFull)
		return
	}
	*q = append(*q, event)
}

// Update runs the game loop's step, as table.Agent.Update does: the
// timers due join the external queue, then one microstep is taken, or,
// when chaining, microsteps until none is enabled and both queues are
// empty, at most the chain limit (then it returns ErrChainLimit). It
// returns the number of microsteps taken. An interpreter that is done
// does nothing.
func (in *Interpreter) Update(h Host) (int, error) {
	if !in.running {
		return 0, nil
	}
	in.host = h
	defer func() { in.host = nil }()
	in.err = nil
	in.fireTimers()
	steps := 0
	for in.step() {
		steps++
		if !in.running || !in.chain {
			break
		}
		if steps >= in.chainLimit && in.pending() {
			return steps, ErrChainLimit
		}
	}
	return steps, in.err
}

// step takes one microstep: the eventless transitions enabled, or else
// those of the first internal event that enables any, or else of the
// first external one; events that enable nothing are dropped. It reports
// false when nothing was taken.
func (in *Interpreter) step() bool {
	enabledTransitions := in.selectEventlessTransitions()
	for len(enabledTransitions) == 0 {
		var event string
		switch {
		case len(in.internalQueue) > 0:
			event, in.internalQueue = in.internalQueue[0], in.internalQueue[1:]
		case len(in.externalQueue) > 0:
			event, in.externalQueue = in.externalQueue[0], in.externalQueue[1:]
		default:
			return false
		}
		enabledTransitions = in.selectTransitions(event)
	}
	in.microstep(enabledTransitions)
	if !in.running {
		in.exitInterpreter()
	}
	return true
}

// pending reports whether another microstep would take transitions or
// handle an event.
func (in *Interpreter) pending() bool {
	return len(in.internalQueue) > 0 || len(in.externalQueue) > 0 || len(in.selectEventlessTransitions()) > 0
}

// fireTimers moves the sends that are due to the external queue, by due
// time, then in the order they were sent.
func (in *Interpreter) fireTimers() {
	var due []timer
	in.timers = slices.DeleteFunc(in.timers, func(t timer) bool {
		if t.Due <= in.now {
			due = append(due, t)
			return true
		}
		return false
	})
	slices.SortFunc(due, func(a, b timer) int { return cmp.Or(cmp.Compare(a.Due, b.Due), cmp.Compare(a.seq, b.seq)) })
	for _, t := range due {
		in.enqueue(&in.externalQueue, t.Event)
	}
}

// executeContent performs actions in order, each whose guard holds.
func (in *Interpreter) executeContent(content []action) {
	for _, a := range content {
		if a.cond != nil && !in.eval(a.cond) {
			continue
		}
		switch a.Kind {
		case chart.GameAction:
			if in.host != nil {
				in.host.Do(a.Property, a.Value)
			}
		case chart.RaiseAction:
			in.enqueue(&in.internalQueue, a.Event)
		case chart.SendAction:
			if a.Delay <= 0 {
				in.enqueue(&in.externalQueue, a.Event)
				continue
			}
			if in.timerLimit > 0 && len(in.timers) >= in.timerLimit {
				in.err = cmp.Or(in.err, ErrQueueFull)
				continue
			}
			in.timers = append(in.timers, timer{Timer{Due: in.now + a.Delay, Event: a.Event, Timer: a.Timer}, in.sends})
			in.sends++
		case chart.CancelAction:
			in.timers = slices.DeleteFunc(in.timers, func(t timer) bool { return t.Timer.Timer == a.Timer })
		}
	}
}

// Done reports whether the interpreter entered a top-level final state.
func (in *Interpreter) Done() bool { return !in.running }

// Final returns the ID of the top-level final state the interpreter
// ended in, or "" while it runs.
func (in *Interpreter) Final() string {
	if in.final == nil {
		return ""
	}
	return in.final.id
}

// AppendConfiguration appends the IDs of the active states to dst, in
// document order, and returns it: none once done.
func (in *Interpreter) AppendConfiguration(dst []string) []string {
	list := in.configuration.toList()
	slices.SortFunc(list, documentOrder)
	for _, s := range list {
		dst = append(dst, s.id)
	}
	return dst
}

// In reports whether the state of ID id is active.
func (in *Interpreter) In(id string) bool {
	s := in.doc.byID[id]
	return s != nil && in.configuration.isMember(s)
}

// AppendTimers appends the pending sends to dst in the order they will
// fire (by due time, then by sending) and returns it.
func (in *Interpreter) AppendTimers(dst []Timer) []Timer {
	list := slices.Clone(in.timers)
	slices.SortStableFunc(list, func(a, b timer) int { return cmp.Compare(a.Due, b.Due) })
	for _, t := range list {
		dst = append(dst, t.Timer)
	}
	return dst
}

// Time returns the game time last set.
func (in *Interpreter) Time() float64 { return in.now }

// NextTimer returns the due time of the earliest pending send, and
// false when none is pending.
func (in *Interpreter) NextTimer() (float64, bool) {
	if len(in.timers) == 0 {
		return 0, false
	}
	due := in.timers[0].Due
	for _, t := range in.timers[1:] {
		due = min(due, t.Due)
	}
	return due, true
}
