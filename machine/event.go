package machine

import "strconv"

// Event reports one transition of one entity. It is plain data, 40 bytes,
// passed by value: reporting it allocates nothing.
type Event struct {
	// Tick is the game's tick: runtimes leave it 0, and a Recorder sets
	// it to the tick the game last gave it.
	Tick uint64 `json:"tick"`
	// Entity is the entity or agent: the crowd's ID, or the number the game
	// gave when it attached the observer.
	Entity uint64 `json:"entity"`
	// Machine is the machine's number in the Recorder that recorded the
	// event (the order of Recorder.Register); runtimes leave it 0.
	Machine uint32 `json:"machine"`
	// From and To are the states left and entered. To is Final when the
	// entity finished. For a statechart they are the agent's State before
	// and after the microstep: its first active atomic state.
	From StateID `json:"from"`
	To   StateID `json:"to"`
	// Cause says what made the transition happen.
	Cause Cause `json:"cause"`
	// Trigger is the test, message or event that held, an index in the
	// machine's Description.Triggers, or -1 (a guard, a call, a timer).
	Trigger int32 `json:"trigger"`
	// Transition is the transition taken, an index in the machine's
	// Description.Transitions, or -1 when none was (a call such as Goto).
	Transition int32 `json:"transition"`
}

// Cause says what made a transition happen.
type Cause uint8

// The causes.
const (
	CauseTest    Cause = iota // a polled test held
	CauseGuard                // a guard function returned true
	CauseMessage              // a message posted to the entity
	CauseEvent                // a statechart event, raised, sent or posted
	CauseTimer                // a statechart's delayed send came due
	CauseNone                 // an eventless statechart transition
	CauseCall                 // the game's code: Goto, ChangeState, a state function's return
	CauseStart                // the machine entered its initial state
)

var causeNames = [...]string{"test", "guard", "message", "event", "timer", "eventless", "call", "start"}

// String returns the cause's name, for example "message".
func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "cause " + strconv.Itoa(int(c))
}

// MarshalText returns the cause's name, for JSON.
func (c Cause) MarshalText() ([]byte, error) { return marshalName(c, causeNames[:]) }

// UnmarshalText reads a cause's name.
func (c *Cause) UnmarshalText(b []byte) error { return unmarshalName(b, causeNames[:], "cause", c) }

// Observer is told of transitions. Observe is called once per transition,
// on the goroutine that ran it, before the runtime goes on; it must not
// call back into the machine, and should return quickly.
type Observer interface {
	Observe(ev Event)
}

// BatchObserver is an Observer that also takes events in batches. A crowd,
// which steps entities on several workers, gives its events to an observer
// that has the method one batch at a time, from each worker; any other
// observer it calls once per event, from the workers as well.
type BatchObserver interface {
	Observer
	ObserveBatch(evs []Event)
}

// ObserverFunc makes a function an Observer.
type ObserverFunc func(ev Event)

// Observe calls f(ev).
func (f ObserverFunc) Observe(ev Event) { f(ev) }

// Count is how many entities took one transition: the shape of a crowd's
// per-transition counts.
type Count struct {
	From StateID `json:"from"`
	To   StateID `json:"to"`
	N    int     `json:"n"`
}
