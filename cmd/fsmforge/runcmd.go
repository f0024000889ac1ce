package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

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
message is received (the agent updates at once, as receive() does in the
article "Visual Finite State Machine AI Systems"), then the agent updates
with the listed tests holding.
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
	ticks := f.Int("ticks", 0, "run `N` ticks (default: up to the last tick of the events, or until the agent is done)")
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
	ro, opt, err := options(f, rf, cf)
	if err != nil {
		return err
	}
	t, _, err := loadMachine("run", files[0], ro, opt, stderr)
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
	n := *ticks
	if n == 0 && len(script) > 0 {
		n = script[len(script)-1].tick
	}
	return runScript(stdout, t, script, n)
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

func (h *scriptHost) Do(_ struct{}, p table.ActionID, v table.ValueID) {
	h.acts = append(h.acts, h.t.Property(p)+"="+h.t.Value(p, v))
}

// runScript runs an agent of t for n ticks, or until it is done, printing
// what it does.
func runScript(w io.Writer, t *table.Table, script []tickEvents, n int) error {
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
		if !r.Final() {
			to = t.StateName(r.To)
		}
		how := "on " + t.Test(r.Test).String()
		if r.Steps > 1 {
			how = fmt.Sprintf("in %d transitions, the last on %s", r.Steps, t.Test(r.Test))
		}
		fmt.Fprintf(w, "tick %d: %s -> %s %s%s%s\n", tick, t.StateName(r.From), to, how, via, h.entry())
	}
	next := 0
	for tick := 1; tick <= n; tick++ {
		clear(h.holds)
		var ev tickEvents
		if next < len(script) && script[next].tick == tick {
			ev = script[next]
			next++
		}
		idle := len(ev.tests) == 0 && len(ev.messages) == 0
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
			break
		}
		if idle && !moved {
			// With no test holding, an update that takes no transition
			// leaves the agent as it was: so would every update until the
			// next tick the events list. Skip to it.
			if next < len(script) {
				tick = script[next].tick - 1
			} else {
				break
			}
		}
	}
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
