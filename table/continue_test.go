package table_test

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/scref"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

var continueSeeds = flag.Int("continue-seeds", 300, "random tables TestExactContinuation saves and restores mid-run, of each kind")

// rec is the entity of the continuation tests: the polled tests that hold
// this frame, and a log of every call the agent made to the host.
type rec struct {
	holds []bool
	log   []string
}

type recHost struct{}

func (recHost) Test(e *rec, id table.TestID) bool {
	v := e.holds[id]
	e.log = append(e.log, "test "+strconv.Itoa(int(id))+" "+strconv.FormatBool(v))
	return v
}

func (recHost) Do(e *rec, p table.PropertyID, v table.ValueID) {
	e.log = append(e.log, "do "+strconv.Itoa(int(p))+"="+strconv.Itoa(int(v)))
}

// TestExactContinuation is the property that a save restores exactly: for
// random statecharts (internal/scref's generator, with the pushdown stack
// added to half of them: history, parallel regions, timers, queues,
// chains) and random flat tables (stack, messages, any-state transitions,
// chains), it runs a seeded script of frames once without stopping, and
// once stopping at a random frame k: Snapshot, AppendBinary,
// UnmarshalBinary, RestoreAgent into a fresh agent with a fresh entity,
// and on. The traces (every host call with its answer, every Post's and
// Update's result and error, and the agent's snapshot in binary after each
// frame) must be the same.
func TestExactContinuation(t *testing.T) {
	var charts, flats, frames, timers, depth int
	for seed := range uint64(*continueSeeds) {
		c, opt := randomStackChart(seed)
		res, err := compile.Compile(c, opt)
		if err != nil {
			continue
		}
		charts++
		st := checkContinuation(t, res.Table, seed)
		frames += st.frames
		timers += st.timers
		depth += st.stacked
		flats++
		st = checkContinuation(t, randomFlat(seed), seed)
		frames += st.frames
		depth += st.stacked
	}
	for _, tb := range []*table.Table{goombaTable(t), sampleChart(t), mustNPC(t)} {
		for seed := range uint64(20) {
			checkContinuation(t, tb, seed)
		}
	}
	if charts < *continueSeeds/2 || timers == 0 || depth == 0 {
		t.Errorf("%d charts, %d frames with timers pending, %d with a stack: the generators no longer make what this test needs", charts, timers, depth)
	}
	t.Logf("%d statecharts and %d flat tables, %d frames; %d frames with timers pending at a save point, %d with a stack", charts, flats, frames, timers, depth)
}

func mustNPC(tb testing.TB) *table.Table {
	t, err := buildNPC()
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// contStats counts what checkContinuation saw at its save points.
type contStats struct{ frames, timers, stacked int }

// checkContinuation runs tb through the script of seed whole, then stopped
// and restored at a frame the seed chooses, and compares the traces.
func checkContinuation(t *testing.T, tb *table.Table, seed uint64) contStats {
	t.Helper()
	frames := 40 + int(seed%7)*20
	k := int(rand.New(rand.NewPCG(seed, 0x6b)).IntN(frames + 1))
	whole, _ := runScript(t, tb, seed, frames, -1)
	split, st := runScript(t, tb, seed, frames, k)
	if len(whole) != len(split) {
		t.Fatalf("table %q, seed %d, saved at frame %d: %d lines of trace, %d without the save", tb.Name(), seed, k, len(split), len(whole))
	}
	for i := range whole {
		if whole[i] != split[i] {
			lo := max(0, i-6)
			t.Fatalf("table %q, seed %d, saved at frame %d: traces differ at line %d:\n without the save: %q\n with it:          %q\nbefore:\n%q",
				tb.Name(), seed, k, i, whole[i], split[i], whole[lo:i])
		}
	}
	st.frames = frames
	return st
}

// runScript runs an agent of tb through frames frames of the script of
// seed, and returns its trace. At frame save (if not -1), before the
// frame, the agent is saved to bytes and replaced by the one restored
// from them, with a new entity.
func runScript(t *testing.T, tb *table.Table, seed uint64, frames, save int) ([]string, contStats) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5c41))
	var msgs []table.TestID
	for i := range tb.NumTests() {
		if tb.Test(table.TestID(i)).Message {
			msgs = append(msgs, table.TestID(i))
		}
	}
	e := &rec{holds: make([]bool, tb.NumTests())}
	a := table.NewAgent(tb, e, recHost{})
	trace := []string{fmt.Sprintf("start %q", e.log)}
	e.log = e.log[:0]
	var s, back table.Snapshot
	var st contStats
	now := 0.0
	for frame := range frames {
		if frame == save {
			a.Snapshot(&s)
			data, err := s.AppendBinary(nil)
			if err != nil {
				t.Fatalf("table %q, seed %d, frame %d: AppendBinary: %v", tb.Name(), seed, frame, err)
			}
			if err := back.UnmarshalBinary(data); err != nil {
				t.Fatalf("table %q, seed %d, frame %d: UnmarshalBinary: %v\n% x", tb.Name(), seed, frame, err, data)
			}
			fresh := &rec{holds: slices.Clone(e.holds)}
			r, err := table.RestoreAgent(tb, fresh, &back)
			if err != nil {
				t.Fatalf("table %q, seed %d, frame %d: RestoreAgent: %v\nsnapshot %+v", tb.Name(), seed, frame, err, s)
			}
			if r.Entity() != fresh || r.String() != a.String() {
				t.Fatalf("restored agent %v (entity %p), want %v (entity %p)", r.String(), r.Entity(), a.String(), fresh)
			}
			a, e = r, fresh
			if len(s.Timers) > 0 {
				st.timers++
			}
			if len(s.Stack) > 0 {
				st.stacked++
			}
		}
		for i := range e.holds {
			e.holds[i] = rng.IntN(3) == 0
		}
		line := "frame " + strconv.Itoa(frame) + ":"
		if len(msgs) > 0 {
			n := 0
			switch r := rng.IntN(10); {
			case r < 4:
				n = 1
			case r == 4:
				n = 2 + rng.IntN(40)
			}
			for range n {
				ev := msgs[rng.IntN(len(msgs))]
				line += fmt.Sprintf(" post %d: %v;", ev, a.Post(ev))
			}
		}
		switch r := rng.IntN(10); {
		case r < 5:
			now += rng.Float64() * 0.5
		case r == 5:
			if due, ok := a.NextTimer(); ok {
				now = max(now, due)
			}
		}
		if rng.IntN(4) != 0 { // and sometimes the game forgets
			a.SetTime(now)
		}
		var res table.Result
		var err error
		if len(msgs) > 0 && rng.IntN(8) == 0 {
			ev := msgs[rng.IntN(len(msgs))]
			line += fmt.Sprintf(" receive %d", ev)
			res, err = a.Receive(recHost{}, ev)
		} else {
			res, err = a.Update(recHost{})
		}
		line += fmt.Sprintf(" %+v %v %q", res, err, e.log)
		var chain *machine.ChainError
		if errors.As(err, &chain) {
			line += fmt.Sprintf(" chain %v", chain.Path)
		}
		e.log = e.log[:0]
		a.Snapshot(&s)
		data, err := s.AppendBinary(nil)
		if err != nil {
			t.Fatalf("table %q, seed %d, frame %d: AppendBinary: %v", tb.Name(), seed, frame, err)
		}
		line += " " + hex.EncodeToString(data) + " " + a.String()
		trace = append(trace, line)
		if a.Done() {
			a = table.NewAgent(tb, e, recHost{})
			trace = append(trace, fmt.Sprintf("restart %q", e.log))
			e.log = e.log[:0]
		}
	}
	return trace, st
}

// randomStackChart returns the random statechart of seed (internal/scref's
// generator) and its compile options; an odd seed adds the pushdown stack
// as gogen's differential test does: about a fifth of the transitions
// that have targets push and a tenth return, at least one of each; two
// pushes in three get a way back from the state they go to; two charts in
// three get a stack limit of 1 to 3.
func randomStackChart(seed uint64) (*chart.Chart, compile.Options) {
	c := scref.Generate(seed)
	if seed%2 == 0 {
		return c, compile.Options{}
	}
	r := rand.New(rand.NewPCG(seed, 0x57ac))
	kind := make(map[string]chart.StateKind, len(c.States))
	for _, s := range c.States {
		kind[s.ID] = s.Kind
	}
	var cand []int
	for i := range c.Transitions {
		tr := &c.Transitions[i]
		if tr.Target.Kind != chart.ToState {
			continue
		}
		if k := kind[tr.From]; tr.AnyState || k == chart.NormalState || k == chart.ParallelState || k == chart.EndState {
			cand = append(cand, i)
		}
	}
	if len(cand) < 2 {
		return c, compile.Options{}
	}
	const (
		goes = iota
		pushes
		returns
	)
	does := make([]int, len(cand))
	for k := range does {
		switch x := r.IntN(10); {
		case x < 2:
			does[k] = pushes
		case x == 2:
			does[k] = returns
		}
	}
	if !slices.Contains(does, pushes) {
		does[r.IntN(len(does))] = pushes
	}
	if !slices.Contains(does, returns) {
		p := slices.Index(does, pushes)
		does[(p+1+r.IntN(len(does)-1))%len(does)] = returns
	}
	var back []chart.Transition
	for k, i := range cand {
		tr := &c.Transitions[i]
		switch does[k] {
		case pushes:
			tr.Push = true
			if to := tr.Target.State; r.IntN(3) != 0 && (kind[to] == chart.NormalState || kind[to] == chart.ParallelState) {
				b := chart.Transition{ID: fmt.Sprintf("r%d", len(back)+1), From: to, Order: len(c.Transitions) + len(back) + 1,
					Target: chart.Target{Kind: chart.ToReturn}}
				if r.IntN(3) == 0 {
					b.Guard = scref.Tests[r.IntN(len(scref.Tests))]
				} else {
					b.Event = scref.Events[r.IntN(len(scref.Events))]
				}
				back = append(back, b)
			}
		case returns:
			tr.Target, tr.Also, tr.Push = chart.Target{Kind: chart.ToReturn}, nil, false
		}
	}
	c.Transitions = append(c.Transitions, back...)
	var opt compile.Options
	if r.IntN(3) != 0 {
		opt.StackLimit = 1 + r.IntN(3)
	}
	return c, opt
}

// randomFlat returns a random flat table: 2 to 7 states with entry
// actions, polled tests and messages, transitions to states (some
// pushing), to Final and Return, any-state transitions, and a chain and a
// small stack limit now and then.
func randomFlat(seed uint64) *table.Table {
	r := rand.New(rand.NewPCG(seed, 0xf1a7))
	var b table.Builder
	b.Name = "flat" + strconv.FormatUint(seed, 10)
	if r.IntN(3) == 0 {
		b.Options.Chain, b.Options.ChainLimit = true, 1+r.IntN(6)
	}
	if r.IntN(2) == 0 {
		b.Options.StackLimit = 1 + r.IntN(4)
	}
	props := []table.PropertyID{b.AddProperty("p", "v0", "v1", "v2"), b.AddProperty("q", "v0", "v1")}
	var tests []table.TestID
	for i := range 1 + r.IntN(3) {
		tests = append(tests, b.AddTest("t"+strconv.Itoa(i), ""))
	}
	for i := range 1 + r.IntN(4) {
		tests = append(tests, b.AddMessage("m"+strconv.Itoa(i), ""))
	}
	ns := 2 + r.IntN(6)
	for i := range ns {
		var acts []table.Action
		for _, p := range props[:r.IntN(3)] {
			acts = append(acts, table.Action{Property: p, Value: table.ValueID(r.IntN(2))})
		}
		b.AddState("s"+strconv.Itoa(i), acts...)
	}
	dest := func() (table.StateID, bool) {
		switch x := r.IntN(20); {
		case x == 0:
			return table.Final, false
		case x < 4:
			return table.Return, false
		default:
			return table.StateID(r.IntN(ns)), r.IntN(4) == 0
		}
	}
	for q := range ns {
		for _, k := range r.Perm(len(tests)) {
			if r.IntN(2) == 0 {
				continue
			}
			to, push := dest()
			b.AddTransition(table.Transition{From: table.StateID(q), Test: tests[k], To: to, Push: push})
		}
	}
	for _, k := range r.Perm(len(tests))[:r.IntN(3)] {
		to, push := dest()
		b.AddTransition(table.Transition{From: table.AnyState, Test: tests[k], To: to, Push: push})
	}
	tb, err := b.Build()
	if err != nil {
		panic(fmt.Sprintf("randomFlat(%d): %v", seed, err))
	}
	return tb
}
