package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/table"
)

const eventsHelp = `The events file says, tick by tick, which tests hold and which messages
arrive; a tick it does not list has none. One line per tick:

  # comments start with '#'
  3: hitTriggerLeft          # a polled test holds at tick 3
  9: hitByPlayer             # a message arrives at tick 9
  12: animationDone
  14: health=low             # a test with a value

Ticks count from 1 and increase from line to line. At each tick, each
message is received in the order listed (the agent updates at once, as
receive() does in the article "Visual Finite State Machine AI Systems"),
then the agent updates with the listed tests holding. Event names may hold
dots, as SCXML's do (alarm.heard).

A statechart's timers (sends with a delay) run in game time: each tick is
-dt seconds (0.1 by default). After the last tick listed, the run goes on
to the ticks at which pending timers fire, until none is left or the
agent is done (or -ticks).
`

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f := newFlags("run", `Usage: fsmforge run [-stencil FILE] [-lenient] [-ticks N] -events EVENTS FILE

Runs one agent of a state machine against a scripted host, and prints each
transition it takes and the entry actions it performs. FILE is a compiled
table (binary or JSON), run as it is, or a drawing, compiled first with the
reading and compiling flags.

`+eventsHelp+`
Flags:
`)
	rf := addReadFlags(f)
	cf := addCompileFlags(f)
	eventsPath := f.String("events", "", "the events `FILE` (- for stdin)")
	ticks := f.Int("ticks", 0, "run `N` ticks (default: up to the last tick of the events and the timers pending then, or until the agent is done)")
	dt := f.Float64("dt", 0.1, "game time of a tick, in `SECONDS`, for a statechart's timers")
	trace := f.Bool("trace", false, "print one JSON object per line instead, at the start, after each event, and after each tick at which the machine moved without one: the tick, the event (if any) and the active atomic states, by ID, sorted")
	files, err := f.parseFiles(args, stdout, 1, 1)
	if err != nil {
		return err
	}
	if *eventsPath == "" {
		return &usageError{msg: "run: no events: give -events FILE", help: f.help()}
	}
	if *ticks < 0 {
		return &usageError{msg: fmt.Sprintf("run: -ticks %d: cannot be negative", *ticks), help: f.help()}
	}
	if !(*dt > 0) || *dt > 1e6 {
		return &usageError{msg: fmt.Sprintf("run: -dt %v: want a number of seconds above 0", *dt), help: f.help()}
	}
	ro, opt, err := options(f, rf, cf)
	if err != nil {
		return err
	}
	t, res, err := loadMachine("run", files[0], ro, opt, stderr)
	if err != nil {
		return err
	}
	var r io.Reader = stdin
	name := "stdin"
	if *eventsPath != "-" {
		file, err := os.Open(*eventsPath)
		if err != nil {
			return err
		}
		defer file.Close()
		r, name = file, *eventsPath
	}
	script, err := readEvents(r, name, t)
	if err != nil {
		return err
	}
	rn := &runner{w: stdout, t: t, script: script, n: *ticks, dt: *dt, ids: stateIDs(t, res)}
	if rn.n == 0 {
		rn.untilTimers = true
		if len(script) > 0 {
			rn.n = script[len(script)-1].tick
		}
	}
	if *trace {
		return rn.trace()
	}
	return rn.run()
}

// stateIDs names each state of t as the drawing does: its ID in the chart
// when t was compiled from one, else its name in the table.
func stateIDs(t *table.Table, res *compile.Result) []string {
	ids := make([]string, t.NumStates())
	for s := range ids {
		ids[s] = t.StateName(table.StateID(s))
	}
	if res == nil {
		return ids
	}
	for id, s := range res.States {
		if t.HasState(s) && t.StateName(s) != id {
			// Several chart states may have been merged into s: keep the
			// table's name then, which the first of them gave it.
			if ids[s] == t.StateName(s) {
				ids[s] = id
			}
		}
	}
	return ids
}

// tickEvents is a line of an events file.
type tickEvents struct {
	tick     int
	tests    []table.TestID // polled tests that hold
	messages []table.TestID // messages received, in order
}

// readEvents parses an events file against t's tests.
func readEvents(r io.Reader, name string, t *table.Table) ([]tickEvents, error) {
	var out []tickEvents
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventsLine)
	line := 0
	last := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		at := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		num, rest, ok := strings.Cut(text, ":")
		if !ok {
			return nil, at("want TICK: TEST..., as in \"3: hitTriggerLeft\"")
		}
		tick, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || tick < 1 {
			return nil, at("tick %q: want a whole number from 1", strings.TrimSpace(num))
		}
		if tick <= last {
			return nil, at("tick %d comes after tick %d: list the ticks in increasing order, each once", tick, last)
		}
		last = tick
		ev := tickEvents{tick: tick}
		for _, word := range strings.Fields(rest) {
			id, err := lookupTest(t, word)
			if err != nil {
				return nil, at("%v", err)
			}
			if t.Test(id).Message {
				ev.messages = append(ev.messages, id)
			} else {
				ev.tests = append(ev.tests, id)
			}
		}
		out = append(out, ev)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line longer than %d bytes: an events line lists a tick's tests and messages", name, line+1, maxEventsLine)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// maxEventsLine is the longest line of an events file.
const maxEventsLine = 1 << 20

// lookupTest finds the test a word of an events file names: "name" or
// "name=value". A name alone stands for its test with no value, or for its
// only test.
func lookupTest(t *table.Table, word string) (table.TestID, error) {
	name, value, hasValue := strings.Cut(word, "=")
	if id, ok := t.LookupTest(name, value); ok {
		return id, nil
	}
	var found []table.TestID
	var names []string
	for id := range table.TestID(t.NumTests()) {
		names = append(names, t.Test(id).String())
		if t.Test(id).Name == name {
			found = append(found, id)
		}
	}
	switch {
	case len(found) == 1 && !hasValue:
		return found[0], nil
	case len(found) > 0 && !hasValue:
		return 0, fmt.Errorf("test %q has several values: write %s=VALUE", name, name)
	case len(found) > 0:
		return 0, fmt.Errorf("test %q has no value %q", name, value)
	}
	return 0, fmt.Errorf("table %q has no test %q; its tests: %s", t.Name(), name, strings.Join(names, ", "))
}

// scriptHost answers an agent's tests from the events of the current tick
// and records the entry actions it performs.
type scriptHost struct {
	t     *table.Table
	holds []bool // by TestID
	acts  []string
}

func (h *scriptHost) Test(_ struct{}, id table.TestID) bool { return h.holds[id] }

func (h *scriptHost) Do(_ struct{}, p table.PropertyID, v table.ValueID) {
	h.acts = append(h.acts, h.t.Property(p)+"="+h.t.Value(p, v))
}

// runner runs one agent of a table against an events script.
type runner struct {
	w           io.Writer
	t           *table.Table
	script      []tickEvents
	n           int  // the last tick to run
	untilTimers bool // then go on while timers are pending
	dt          float64
	ids         []string // by StateID: the name a trace gives each state
}

// maxTimerTicks bounds the ticks a run goes on for pending timers.
const maxTimerTicks = 1 << 24

// ticks calls step for each tick to run, in order, with the events
// listed for it; step returns false to stop. Ticks nobody needs (no
// event, nothing moved, no timer due) are skipped.
func (rn *runner) ticks(a *table.Agent[struct{}], step func(tick int, ev tickEvents) (moved, stop bool)) {
	next := 0
	for tick := 1; ; tick++ {
		if tick > rn.n {
			due, ok := a.NextTimer()
			if !rn.untilTimers || !ok || a.Done() {
				return
			}
			at := int(math.Ceil(due/rn.dt - 1e-9))
			if at > maxTimerTicks {
				return
			}
			tick = max(tick, at)
			rn.n = tick
		}
		var ev tickEvents
		if next < len(rn.script) && rn.script[next].tick == tick {
			ev = rn.script[next]
			next++
		}
		a.SetTime(float64(tick) * rn.dt)
		moved, stop := step(tick, ev)
		if stop {
			return
		}
		if len(ev.tests) == 0 && len(ev.messages) == 0 && !moved {
			// With no test holding, an update that takes no transition
			// leaves the agent as it was: so would every update until the
			// next tick the events list, or a timer fires. Skip to it.
			skip := rn.n
			if next < len(rn.script) {
				skip = rn.script[next].tick
			}
			if due, ok := a.NextTimer(); ok {
				skip = min(skip, int(math.Ceil(due/rn.dt-1e-9)))
			}
			tick = max(tick, skip-1)
		}
	}
}

// trace runs the agent, printing its active atomic states as JSON lines.
func (rn *runner) trace() error {
	t := rn.t
	h := &scriptHost{t: t, holds: make([]bool, t.NumTests())}
	a := table.NewAgent(t, struct{}{}, table.Host[struct{}](h))
	var active []table.StateID
	failed := 0
	line := func(tick int, event string, err error) {
		if err != nil {
			failed++
		}
		active = a.AppendActive(active[:0])
		names := make([]string, 0, len(active))
		for _, s := range active {
			if t.Atomic(s) {
				names = append(names, rn.ids[s])
			}
		}
		slices.Sort(names)
		l := traceLine{Tick: tick, Event: event, Active: names, Done: a.Done()}
		if err != nil {
			l.Error = err.Error()
		}
		b, _ := json.Marshal(l)
		fmt.Fprintf(rn.w, "%s\n", b)
	}
	// The start: the initial configuration, settled by an update in which
	// nothing holds (a statechart's eventless transitions and raised
	// events, as SCXML's interpreters run them before any event).
	_, err := a.Update(h)
	line(0, "", err)
	rn.ticks(&a, func(tick int, ev tickEvents) (bool, bool) {
		clear(h.holds)
		for _, id := range ev.tests {
			h.holds[id] = true
		}
		moved := false
		for _, msg := range ev.messages {
			r, err := a.Receive(h, msg)
			moved = moved || r.Moved()
			line(tick, t.Test(msg).String(), err)
			if a.Done() {
				return moved, true
			}
		}
		r, err := a.Update(h)
		if r.Moved() || err != nil {
			line(tick, "", err)
		}
		return moved || r.Moved(), a.Done()
	})
	if failed > 0 {
		return errors.New("run: " + plural(failed, "update") + " failed")
	}
	return nil
}

// traceLine is a line of -trace.
type traceLine struct {
	Tick   int      `json:"tick"`
	Event  string   `json:"event,omitempty"`
	Active []string `json:"active"`
	Done   bool     `json:"done,omitempty"`
	Error  string   `json:"error,omitempty"`
}

// run runs an agent of t for n ticks, or until it is done, printing what
// it does.
func (rn *runner) run() error {
	w, t := rn.w, rn.t
	h := &scriptHost{t: t, holds: make([]bool, t.NumTests())}
	a := table.NewAgent(t, struct{}{}, table.Host[struct{}](h))
	fmt.Fprintf(w, "tick 0: start in %s%s\n", t.StateName(a.State()), h.entry())
	failed := 0
	report := func(tick int, via string, r table.Result, err error) {
		if err != nil {
			failed++
			fmt.Fprintf(w, "tick %d: %s: error: %v\n", tick, t.StateName(r.From), err)
		}
		if !r.Moved() {
			h.acts = h.acts[:0]
			return
		}
		to := "(final)"
		switch {
		case t.Statechart():
			to = t.StateName(a.State()) // a final state of its own
		case !r.Final():
			to = t.StateName(r.To)
		}
		how := "on " + t.Test(r.Test).String()
		if r.Test == table.NoTest {
			how = "without event"
		}
		if r.Steps > 1 {
			how = fmt.Sprintf("in %d transitions, the last on %s", r.Steps, t.Test(r.Test))
		}
		fmt.Fprintf(w, "tick %d: %s -> %s %s%s%s\n", tick, t.StateName(r.From), to, how, via, h.entry())
	}
	rn.ticks(&a, func(tick int, ev tickEvents) (bool, bool) {
		clear(h.holds)
		for _, id := range ev.tests {
			h.holds[id] = true
		}
		for _, msg := range ev.messages {
			r, err := a.Receive(h, msg)
			report(tick, " (message)", r, err)
			if a.Done() {
				break
			}
		}
		moved := false
		if !a.Done() {
			r, err := a.Update(h)
			moved = r.Moved() || err != nil
			report(tick, "", r, err)
		}
		if a.Done() {
			fmt.Fprintf(w, "tick %d: done: the game removes the entity\n", tick)
			return moved, true
		}
		return moved, false
	})
	if !a.Done() {
		fmt.Fprintf(w, "end: in %s\n", t.StateName(a.State()))
	}
	if failed > 0 {
		return errors.New("run: " + plural(failed, "update") + " failed")
	}
	return nil
}

// entry renders and forgets the entry actions recorded: ": XMovement=left
// Animation=moveLeft".
func (h *scriptHost) entry() string {
	if len(h.acts) == 0 {
		return ""
	}
	s := ": " + strings.Join(h.acts, " ")
	h.acts = h.acts[:0]
	return s
}
