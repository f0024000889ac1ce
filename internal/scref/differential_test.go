package scref_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/scref"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Charts and frames of TestDifferential: go test -charts 100000 -frames
// 50 runs more.
var (
	charts = flag.Int("charts", 2000, "random charts TestDifferential runs")
	frames = flag.Int("frames", 20, "updates TestDifferential runs each chart for")
)

// TestDifferential runs random charts (scref.Generate) compiled into
// tables by package compile and run by table agents, and the same charts
// run by the reference, through the same random scripts, and compares
// them after the start and after every update: the active states, Done,
// the game actions performed and the pending timers, the microsteps
// taken and the errors. A chart that does not compile is skipped and
// counted. The first difference fails the test with the seed, the
// script, what the reference did until then, and the chart
// (scref.Generate(seed) makes it again).
func TestDifferential(t *testing.T) {
	start := time.Now()
	var st stats
	for seed := range uint64(*charts) {
		c := scref.Generate(seed)
		res, err := compile.Compile(c, compile.Options{})
		if err != nil {
			st.skipped++
			if st.skipped <= 3 {
				t.Logf("seed %d: skipped: the generated chart does not compile: %v", seed, err)
			}
			continue
		}
		sc := randomScript(seed, *frames, c)
		if d := compare(c, res, sc, &st); d != "" {
			t.Fatalf("seed %d: %s\nscript:\n%s\nchart:\n%s", seed, d, sc, compactChart(c))
		}
		st.compared++
	}
	t.Logf("%d charts compared (%d updates, %d microsteps; %d charts ended, %d chain limits, %d full queues), %d skipped (not compiled); %v",
		st.compared, st.updates, st.steps, st.done, st.chainLimits, st.queueFull, st.skipped, time.Since(start).Round(time.Millisecond))
}

// stats counts what TestDifferential did.
type stats struct {
	compared, skipped      int // charts
	updates, steps         int // of the reference
	done                   int // charts that ended
	chainLimits, queueFull int // updates that returned these errors
}

// frame is one frame of a script: the time advances by dt, the events
// are posted (those the table knows), the tests answered by answers, and
// both sides update. Frame 0 is the start: only its answers count.
type frame struct {
	dt      float64
	post    []string
	answers map[string]bool
}

type script []frame

// randomScript returns the script of seed for chart c: n frames after
// the start, each advancing the time by 0.1 to 0.7 s and posting 0 to 2
// events: scref.Events, and at times the done event of one of c's
// states.
func randomScript(seed uint64, n int, c *chart.Chart) script {
	r := rand.New(rand.NewPCG(seed, 0xf4a3e))
	sc := make(script, n+1)
	for i := range sc {
		f := &sc[i]
		f.answers = map[string]bool{}
		for _, name := range scref.Tests {
			f.answers[name] = r.IntN(2) == 0
		}
		if i == 0 {
			continue
		}
		f.dt = float64(1+r.IntN(7)) / 10
		for range r.IntN(3) {
			e := scref.Events[r.IntN(len(scref.Events))]
			if r.IntN(10) == 0 {
				e = "done.state." + c.States[r.IntN(len(c.States))].Name
			}
			f.post = append(f.post, e)
		}
	}
	return sc
}

func (sc script) String() string {
	var b strings.Builder
	for i, f := range sc {
		var names []string
		for _, name := range scref.Tests {
			if f.answers[name] {
				names = append(names, name)
			}
		}
		fmt.Fprintf(&b, "  frame %d: +%.1fs, post %v, true tests %v\n", i, f.dt, f.post, names)
	}
	return b.String()
}

// host answers tests from a frame's answers and records game actions,
// for both sides: by name for the reference, by ID for the table.
type host struct {
	t       *table.Table
	answers map[string]bool
	did     []string
}

func (h *host) Test(name string) bool { return h.answers[name] }
func (h *host) Do(property, value string) {
	h.did = append(h.did, property+"="+value)
}

// tableHost is host as a table.Host.
type tableHost struct{ *host }

func (h tableHost) Test(_ struct{}, id table.TestID) bool { return h.answers[h.t.Test(id).Name] }
func (h tableHost) Do(_ struct{}, p table.PropertyID, v table.ValueID) {
	h.host.Do(h.t.Property(p), h.t.Value(p, v))
}

// sides is a table agent and the reference running one chart.
type sides struct {
	tb     *table.Table
	names  []string // table state → chart ID
	agent  table.Agent[struct{}]
	ref    *scref.Interpreter
	th, rh *host
	now    float64
}

// outcome is what each side said of an update.
type outcome struct {
	tSteps, rSteps int
	tErr, rErr     error
}

// compare runs chart c, compiled into res, and the reference through
// script sc, and returns the first difference, or "".
func compare(c *chart.Chart, res *compile.Result, sc script, st *stats) string {
	s := &sides{tb: res.Table, names: make([]string, res.Table.NumStates()),
		th: &host{t: res.Table, answers: sc[0].answers}, rh: &host{answers: sc[0].answers}}
	for id, q := range res.States {
		s.names[q] = id
	}
	s.agent = table.NewAgent[struct{}](s.tb, struct{}{}, tableHost{s.th})
	var err error
	s.ref, err = scref.New(c, scref.Options{QueueLimit: table.DefaultQueueLimit, TimerLimit: table.DefaultTimerLimit}, s.rh)
	if err != nil {
		return fmt.Sprintf("scref.New: %v", err)
	}
	var log strings.Builder
	for i, f := range sc {
		var o outcome
		if i > 0 {
			if s.agent.Done() {
				break
			}
			if d := s.post(f); d != "" {
				return fmt.Sprintf("frame %d: %s", i, d)
			}
			o = s.update(f)
			st.updates++
			st.steps += o.rSteps
		}
		fmt.Fprintf(&log, "  frame %d at %.1fs: steps %d, active %v, actions %v, timers %v, error %v\n",
			i, s.now, o.rSteps, s.refActive(), s.rh.did, refTimerList(s.ref.AppendTimers(nil)), o.rErr)
		if diffs := s.diff(o); len(diffs) > 0 {
			return fmt.Sprintf("frame %d differs:\n  %s\nrun so far (the reference's side):\n%s", i, strings.Join(diffs, "\n  "), log.String())
		}
		switch {
		case errors.Is(o.rErr, scref.ErrChainLimit):
			st.chainLimits++
		case errors.Is(o.rErr, scref.ErrQueueFull):
			st.queueFull++
		}
	}
	if s.ref.Done() {
		st.done++
	}
	return ""
}

// post advances the time and posts f's events that the table knows to
// both sides, returning a difference of their errors.
func (s *sides) post(f frame) string {
	s.now += f.dt
	s.agent.SetTime(s.now)
	s.ref.SetTime(s.now)
	for _, e := range f.post {
		id, ok := s.tb.LookupTest(e, "")
		if !ok || !s.tb.Test(id).Message {
			continue // an event the table does not have: posted to neither
		}
		if d := sameError(s.agent.Post(id), s.ref.Post(e)); d != "" {
			return fmt.Sprintf("Post %q: %s", e, d)
		}
	}
	return ""
}

// update updates both sides with f's answers.
func (s *sides) update(f frame) outcome {
	s.th.answers, s.rh.answers = f.answers, f.answers
	s.th.did, s.rh.did = nil, nil
	r, tErr := s.agent.Update(tableHost{s.th})
	rSteps, rErr := s.ref.Update(s.rh)
	return outcome{tSteps: int(r.Steps), tErr: tErr, rSteps: rSteps, rErr: rErr}
}

// refActive returns the reference's active states: its configuration,
// or the final state it ended in, as table.Agent.AppendActive.
func (s *sides) refActive() []string {
	if s.ref.Done() {
		return []string{s.ref.Final()}
	}
	return s.ref.AppendConfiguration(nil)
}

// diff compares the two sides after an update (or the start) that ended
// in o.
func (s *sides) diff(o outcome) []string {
	var diffs []string
	if d := sameError(o.tErr, o.rErr); d != "" {
		diffs = append(diffs, "update error: "+d)
	}
	if o.tSteps != o.rSteps {
		diffs = append(diffs, fmt.Sprintf("microsteps: table %d, reference %d", o.tSteps, o.rSteps))
	}
	var tActive []string
	for _, q := range s.agent.AppendActive(nil) {
		tActive = append(tActive, s.names[q])
	}
	if rActive := s.refActive(); !slices.Equal(tActive, rActive) {
		diffs = append(diffs, fmt.Sprintf("active states: table %v, reference %v", tActive, rActive))
	}
	if s.agent.Done() != s.ref.Done() {
		diffs = append(diffs, fmt.Sprintf("done: table %v, reference %v", s.agent.Done(), s.ref.Done()))
	}
	if !slices.Equal(s.th.did, s.rh.did) {
		diffs = append(diffs, fmt.Sprintf("game actions: table %v, reference %v", s.th.did, s.rh.did))
	}
	tTimers := timerList(s.tb, s.agent.AppendTimers(nil))
	if rTimers := refTimerList(s.ref.AppendTimers(nil)); !slices.Equal(tTimers, rTimers) {
		diffs = append(diffs, fmt.Sprintf("timers: table %v, reference %v", tTimers, rTimers))
	}
	return diffs
}

// sameError compares a table error with the reference's: none, a chain
// limit, a full queue.
func sameError(tErr, rErr error) string {
	var chain *machine.ChainError
	switch {
	case tErr == nil && rErr == nil:
		return ""
	case errors.As(tErr, &chain) && errors.Is(rErr, scref.ErrChainLimit):
		return ""
	case errors.Is(tErr, table.ErrQueueFull) && errors.Is(rErr, scref.ErrQueueFull):
		return ""
	}
	return fmt.Sprintf("table %v, reference %v", tErr, rErr)
}

// timerList writes a table's timers as the reference's.
func timerList(tb *table.Table, list []table.Timer) []string {
	var out []string
	for _, tm := range list {
		out = append(out, fmt.Sprintf("%s@%g/%s", tb.Test(tm.Event).Name, tm.Due, tb.TimerName(tm.Timer)))
	}
	return out
}

func refTimerList(list []scref.Timer) []string {
	var out []string
	for _, tm := range list {
		out = append(out, fmt.Sprintf("%s@%g/%s", tm.Event, tm.Due, tm.Timer))
	}
	return out
}

// compactChart writes c as text, one line per state (indented by
// nesting, in document order) and per transition.
func compactChart(c *chart.Chart) string {
	var b strings.Builder
	fmt.Fprintf(&b, "chart %q chain=%v statechart=%v\n", c.Name, c.Chain, c.Statechart)
	kids := map[string][]int{}
	for i, s := range c.States {
		kids[s.Parent] = append(kids[s.Parent], i)
	}
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, i := range kids[parent] {
			s := &c.States[i]
			fmt.Fprintf(&b, "%s%s %q %s", strings.Repeat("  ", depth+1), s.ID, s.Name, s.Kind)
			if s.Initial {
				b.WriteString(" initial")
			}
			if len(s.Entry) > 0 {
				b.WriteString(" entry{" + actionList(s.Entry) + "}")
			}
			if len(s.Exit) > 0 {
				b.WriteString(" exit{" + actionList(s.Exit) + "}")
			}
			b.WriteString("\n")
			walk(s.ID, depth+1)
		}
	}
	walk("", 0)
	for _, t := range c.Transitions {
		from := t.From
		if t.AnyState {
			from = "(any)"
		}
		fmt.Fprintf(&b, "  %s order %d: %s -> %s", t.ID, t.Order, from, t.Target)
		for _, a := range t.Also {
			b.WriteString(" " + a)
		}
		if t.Event != "" {
			fmt.Fprintf(&b, " on %q", t.Event)
		}
		if t.Guard != "" {
			fmt.Fprintf(&b, " [%s]", t.Guard)
		}
		if t.Internal {
			b.WriteString(" internal")
		}
		if len(t.Actions) > 0 {
			b.WriteString(" / " + actionList(t.Actions))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// actionList writes actions as text: "anim=x", "raise a", "send b
// after 0.5 as t1", "cancel t2", each with its guard in brackets.
func actionList(list []chart.Action) string {
	var parts []string
	for _, a := range list {
		var s string
		switch a.Kind {
		case chart.GameAction:
			s = a.Property + "=" + a.Value
		case chart.RaiseAction:
			s = "raise " + a.Event
		case chart.SendAction:
			s = "send " + a.Event
			if a.Delay > 0 {
				s += fmt.Sprintf(" after %g", a.Delay)
			}
			if a.Timer != "" {
				s += " as " + a.Timer
			}
		case chart.CancelAction:
			s = "cancel " + a.Timer
		}
		if a.Guard != "" {
			s += " [" + a.Guard + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
