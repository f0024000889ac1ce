package tablecrowd_test

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// bot is a test entity whose host answers from a per-entity random
// sequence, so that every host call changes what the next one answers and
// any difference in the calls made shows in the log.
type bot struct {
	id   int
	seed uint64
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func newBot(id, gen int) bot { return bot{id: id, seed: mix(uint64(id)<<20 | uint64(gen))} }

// botHost logs every call per entity. It is safe for concurrent use on
// distinct entities: each writes only its own log.
type botHost struct {
	t    *table.Table
	odds uint64 // a polled test holds with probability odds/16
	logs [][]string
	msgs []table.TestID // the table's message tests
	// post, if set, posts a message during an update
	post func(to int, msg table.TestID)
}

func newBotHost(t *table.Table, n int, odds uint64) *botHost {
	h := &botHost{t: t, odds: odds, logs: make([][]string, n)}
	for id := range table.TestID(t.NumTests()) {
		if t.Test(id).Message {
			h.msgs = append(h.msgs, id)
		}
	}
	return h
}

func (h *botHost) Test(b *bot, id table.TestID) bool {
	b.seed = mix(b.seed)
	ok := b.seed>>60 < h.odds
	h.logs[b.id] = append(h.logs[b.id], fmt.Sprintf("%s=%t", h.t.Test(id), ok))
	h.maybePost(b)
	return ok
}

func (h *botHost) Do(b *bot, p table.PropertyID, v table.ValueID) {
	b.seed ^= uint64(p)<<32 | uint64(v)
	h.logs[b.id] = append(h.logs[b.id], h.t.Property(p)+":="+h.t.Value(p, v))
	h.maybePost(b)
}

// maybePost posts, one call in 16, a message to a neighbour or to b itself.
func (h *botHost) maybePost(b *bot) {
	r := mix(b.seed ^ 0x5555)
	if h.post == nil || len(h.msgs) == 0 || r&15 != 0 {
		return
	}
	to := (b.id + int(r>>8%5)) % len(h.logs)
	h.post(to, h.msgs[int(r>>16)%len(h.msgs)])
}

// crowdSpecs are the tables the crowd is checked against agents with:
// the Goomba, the stack (with overflows and underflows), chaining (with
// chain errors), both again on message tests alone (the crowd makes its
// errors from a table of its own, which takes these tests; see errors.go),
// and any-state messages.
var crowdSpecs = []struct {
	name string
	spec string // "" for the Goomba
	odds uint64
}{
	{"goomba", "", 4},
	{"stack", `
options stack 2
a x b push
a r return
a q final
b !m return
b y c push
* !k a
c z d push
c w return
d v return
d u final
enter a P=a
enter b P=b
enter c P=c
enter d Q=d
`, 3},
	{"chain", `
options chain 3
a x b
a !m c
b y c
b !k a
c z a
c q final
* !n b
enter a P=1
enter b P=2
enter c P=3
enter c Q=x
`, 6},
	{"stackmsg", `
options stack 1
a !r return
a !p b push
a q final
b !p c push
b !r return
c x a
enter a P=a
enter b P=b
`, 3},
	{"chainmsg", `
options chain 1
a !m b
a !k b
b !m a
b !k a
b !q final
enter a P=a
enter b P=b
`, 4},
	{"anystate", `
* !alarm alert
* !calm idle
idle look idle
idle !ping idle
idle tired final
alert look idle
enter idle P=idle
enter alert P=alert
`, 4},
}

func crowdSpecTable(tb testing.TB, spec string) *table.Table {
	tb.Helper()
	if spec == "" {
		t, err := buildGoomba()
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
	return mustSpec(tb, spec)
}

// TestCrowdAsAgents runs n entities as a crowd and as n agents, with the
// same messages posted between and during steps, the same removals and the
// same respawns, and checks after every step that each entity is in the
// same state, has made the same host calls, and that the same updates
// failed with the same errors; with 1, 2 and 4 workers and a small chunk,
// so that a step is cut into many tasks.
func TestCrowdAsAgents(t *testing.T) {
	const n, frames = 150, 250
	for _, cs := range crowdSpecs {
		for _, workers := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%s/workers=%d", cs.name, workers), func(t *testing.T) {
				tbl := crowdSpecTable(t, cs.spec)
				runAsAgents(t, tbl, cs.odds, n, frames, workers, unobserved)
			})
		}
	}
}

// sameError reports whether a crowd's failed update (got) returned the
// error the agent's did (want): the same type, exported fields and message.
func sameError(got, want error) bool {
	var gs, ws *table.StackError
	var gc, wc *machine.ChainError
	switch {
	case got == nil || want == nil || got.Error() != want.Error():
		return false
	case errors.As(want, &ws):
		return errors.As(got, &gs) && gs.Overflow == ws.Overflow && gs.State == ws.State && gs.Test == ws.Test && gs.Limit == ws.Limit
	case errors.As(want, &wc):
		return errors.As(got, &gc) && gc.Limit == wc.Limit && slices.Equal(gc.Path, wc.Path) && gc.Visited == wc.Visited && gc.At == wc.At && gc.Trigger == wc.Trigger && slices.Equal(gc.Names, wc.Names)
	}
	return false
}

// respawns reports whether entity id, finished at frame, comes back.
func respawns(id, frame int) bool { return (id+frame)%3 != 0 }

// How runAsAgents observes the agents and the crowd.
type observing int

const (
	unobserved        observing = iota
	observed                    // the crowd's observer takes events one at a time
	observedInBatches           // the crowd's observer is a machine.BatchObserver
)

func runAsAgents(t *testing.T, tbl *table.Table, odds uint64, n, frames, workers int, obs observing) {
	// The observers: the agents', on this goroutine, and the crowd's.
	var agentEvents, crowdEvents []machine.Event
	agentObs := machine.ObserverFunc(func(ev machine.Event) { agentEvents = append(agentEvents, ev) })
	crowdObs := &eventLog{}
	observe := func(a *table.Agent[*bot], i int) {
		if obs != unobserved {
			a.Observe(agentObs, uint64(i))
		}
	}
	// The agents.
	ah := newBotHost(tbl, n, odds)
	var pending []struct {
		to  int
		msg table.TestID
	}
	bots := make([]bot, n)
	agents := make([]table.Agent[*bot], n)
	alive := make([]bool, n)
	inFrame := false
	ah.post = func(to int, msg table.TestID) {
		switch {
		case inFrame: // after the frame, as the crowd does
			pending = append(pending, struct {
				to  int
				msg table.TestID
			}{to, msg})
		case alive[to]:
			if err := agents[to].Post(msg); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range n {
		bots[i] = newBot(i, 0)
		agents[i] = table.NewAgent(tbl, &bots[i], table.Host[*bot](ah))
		observe(&agents[i], i)
		alive[i] = true
	}

	// The crowd.
	ch := newBotHost(tbl, n, odds)
	frame := 0
	var c *tablecrowd.Crowd[bot]
	c, err := tablecrowd.New(tbl, ch, crowd.Options[bot]{
		ChunkSize: 7,
		OnFinal: func(id crowd.ID, b *bot) {
			if b.id != int(id) {
				t.Errorf("OnFinal(%d) got bot %d", id, b.id)
			}
			if respawns(int(id), frame) {
				if err := c.Add(id, newBot(int(id), frame)); err != nil {
					t.Error(err)
				}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Machine().SetWorkers(workers); err != nil {
		t.Fatal(err)
	}
	switch obs {
	case observed:
		c.Observe(machine.ObserverFunc(crowdObs.Observe))
	case observedInBatches:
		c.Observe(crowdObs)
	}
	ch.post = func(to int, msg table.TestID) {
		if err := c.Post(crowd.ID(to), msg); err != nil && !errors.Is(err, crowd.ErrNotFound) {
			t.Error(err)
		}
	}
	for i := range n {
		if err := c.Add(crowd.ID(i), newBot(i, 0)); err != nil {
			t.Fatal(err)
		}
	}
	compareCrowd(t, 0, c, ah, ch, agents, alive)

	type failure struct {
		id  int
		err error
	}
	var failures []failure
	moved, finals, failed, events := 0, 0, 0, 0
	for frame = 1; frame <= frames; frame++ {
		// Messages from the game between steps.
		for i := range n {
			r := mix(uint64(frame)<<32 | uint64(i))
			if len(ah.msgs) == 0 || r&7 != 0 {
				continue
			}
			msg := ah.msgs[int(r>>8)%len(ah.msgs)]
			if alive[i] {
				if err := agents[i].Post(msg); err != nil {
					t.Fatal(err)
				}
			}
			err := c.Post(crowd.ID(i), msg)
			if alive[i] != (err == nil) {
				t.Fatalf("frame %d: Post(%d) = %v with the agent alive = %t", frame, i, err, alive[i])
			}
		}

		// The agents' frame.
		failures = failures[:0]
		var done []int
		inFrame = true
		for i := range n {
			if !alive[i] {
				continue
			}
			r, err := agents[i].Update(ah)
			if err != nil {
				failures = append(failures, failure{i, err})
				failed++
			}
			if r.Final() {
				alive[i] = false
				done = append(done, i)
			}
			if r.Moved() {
				moved++
			}
		}
		for _, p := range pending {
			if alive[p.to] {
				if err := agents[p.to].Post(p.msg); err != nil {
					t.Fatal(err)
				}
			}
		}
		pending = pending[:0]
		inFrame = false
		for _, i := range done {
			finals++
			if respawns(i, frame) {
				bots[i] = newBot(i, frame)
				agents[i] = table.NewAgent(tbl, &bots[i], table.Host[*bot](ah))
				observe(&agents[i], i)
				alive[i] = true
			}
		}

		// The crowd's.
		err := c.Step()
		var ce *tablecrowd.Error
		switch {
		case len(failures) == 0 && err != nil:
			t.Fatalf("frame %d: Step() = %v, want nil", frame, err)
		case len(failures) > 0 && !errors.As(err, &ce):
			t.Fatalf("frame %d: Step() = %v, want a *tablecrowd.Error", frame, err)
		case ce != nil:
			if ce.Failed != len(failures) || len(ce.Adds) != 0 {
				t.Fatalf("frame %d: Step() failed %d updates and %d adds, want %d and 0: %v", frame, ce.Failed, len(ce.Adds), len(failures), err)
			}
			if want := min(len(failures), 8); len(ce.First) != want {
				t.Fatalf("frame %d: Step() describes %d failures, want %d", frame, len(ce.First), want)
			}
			for k, f := range ce.First {
				if int(f.ID) != failures[k].id || !sameError(f.Err, failures[k].err) {
					t.Fatalf("frame %d: failure %d = entity %d: %#v\nwant entity %d: %#v", frame, k, f.ID, f.Err, failures[k].id, failures[k].err)
				}
			}
		}
		if !compareCrowd(t, frame, c, ah, ch, agents, alive) {
			return
		}
		if obs != unobserved {
			crowdEvents = crowdObs.take(crowdEvents[:0])
			slices.SortStableFunc(crowdEvents, func(a, b machine.Event) int { return cmp.Compare(a.Entity, b.Entity) })
			if !slices.Equal(crowdEvents, agentEvents) {
				t.Fatalf("frame %d: the crowd's events, by entity\n%v\nwant (the agents')\n%v", frame, crowdEvents, agentEvents)
			}
			events += len(agentEvents)
			agentEvents = agentEvents[:0]
		}
	}
	if obs != unobserved && events == 0 {
		t.Error("no event was reported: the test exercises too little")
	}
	if obs == observedInBatches && crowdObs.batches == 0 {
		t.Error("the crowd's BatchObserver got no batch")
	}
	if moved == 0 || finals == 0 {
		t.Errorf("%d transitions and %d finals in %d frames: the test exercises too little", moved, finals, frames)
	}
	t.Logf("%d transitions, %d finals, %d failed updates", moved, finals, failed)
}

// compareCrowd checks that the crowd holds the agents that are alive, in
// their states, and that both hosts logged the same calls for each entity.
func compareCrowd(t *testing.T, frame int, c *tablecrowd.Crowd[bot], ah, ch *botHost, agents []table.Agent[*bot], alive []bool) bool {
	t.Helper()
	m := c.Machine()
	for i := range agents {
		s, ok := m.StateOf(crowd.ID(i))
		if ok != alive[i] || ok && table.StateID(s) != agents[i].State() {
			t.Errorf("frame %d: entity %d: crowd in %s (held %t), agent in %s (alive %t)", frame, i, m.StateName(s), ok, agents[i].Name(), alive[i])
			return false
		}
		if !slices.Equal(ah.logs[i], ch.logs[i]) {
			k := 0
			for k < min(len(ah.logs[i]), len(ch.logs[i])) && ah.logs[i][k] == ch.logs[i][k] {
				k++
			}
			t.Errorf("frame %d: entity %d: host calls differ from call %d:\nagent: %v\ncrowd: %v", frame, i, k, ah.logs[i][k:], ch.logs[i][k:])
			return false
		}
	}
	return true
}

// goombaCrowd returns a crowd of n goombas in the bench's level, with
// OnFinal respawning a goomba in its place, and the game's frame: move
// every goomba, let the player hit some, step.
func goombaCrowd(tb testing.TB, n int, opts crowd.Options[goomba]) (*tablecrowd.Crowd[goomba], func() error) {
	tbl := goombaTable(tb)
	var c *tablecrowd.Crowd[goomba]
	onFinal := opts.OnFinal
	opts.OnFinal = func(id crowd.ID, g *goomba) {
		if onFinal != nil {
			onFinal(id, g)
		}
		spawn(g, int(id))
		if err := c.Add(id, *g); err != nil {
			tb.Error(err)
		}
	}
	c, err := tablecrowd.New(tbl, &world{}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		var g goomba
		spawn(&g, i)
		if err := c.Add(crowd.ID(i), g); err != nil {
			tb.Fatal(err)
		}
	}
	m := c.Machine()
	frame := 0
	return c, func() error {
		for q := range crowd.StateID(m.NumStates()) {
			for _, g := range m.Each(q) {
				g.step()
			}
		}
		for i := range n {
			if hitAt(frame, i) {
				if err := c.Post(crowd.ID(i), hitByPlayer); err != nil {
					return err
				}
			}
		}
		frame++
		return c.Step()
	}
}

// TestCrowdWorkers checks that what a step leaves (every bucket's order,
// the order of the OnFinal calls, the transitions counted) does not depend
// on the number of workers.
func TestCrowdWorkers(t *testing.T) {
	const n, frames = 1000, 250
	run := func(workers int) []string {
		var trace []string
		c, frame := goombaCrowd(t, n, crowd.Options[goomba]{
			ChunkSize: 32,
			OnFinal: func(id crowd.ID, g *goomba) {
				trace = append(trace, fmt.Sprintf("final %d x=%d", id, g.x))
			},
		})
		defer c.Close()
		m := c.Machine()
		if err := m.SetWorkers(workers); err != nil {
			t.Fatal(err)
		}
		var trs []crowd.Transition
		for f := range frames {
			if err := frame(); err != nil {
				t.Fatal(err)
			}
			trs = m.Transitions(trs[:0])
			trace = append(trace, fmt.Sprintf("frame %d: %v %v", f, m.Counts(nil), trs))
			var b strings.Builder
			for q := range crowd.StateID(m.NumStates()) {
				for id, g := range m.Each(q) {
					fmt.Fprintf(&b, "%d:%d,%d ", id, g.x, g.vx)
				}
				b.WriteString("| ")
			}
			trace = append(trace, b.String())
		}
		return trace
	}
	want := run(1)
	if !slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "final") }) {
		t.Fatal("no goomba finished: the test exercises too little")
	}
	for _, workers := range []int{2, 4} {
		got := run(workers)
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("workers=%d: trace line %d = %q, want (as with 1 worker) %q", workers, i, got[i], want[i])
			}
		}
		if len(got) != len(want) {
			t.Fatalf("workers=%d: %d trace lines, want %d", workers, len(got), len(want))
		}
	}
}

// TestCrowdAllocations checks that a step of a goomba crowd in steady state
// (goombas hit, dying, removed and respawned every frame) allocates
// nothing, on one worker or two.
func TestCrowdAllocations(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			finals := 0
			c, frame := goombaCrowd(t, 1024, crowd.Options[goomba]{OnFinal: func(crowd.ID, *goomba) { finals++ }})
			defer c.Close()
			if err := c.Machine().SetWorkers(workers); err != nil {
				t.Fatal(err)
			}
			for range 1000 {
				if err := frame(); err != nil {
					t.Fatal(err)
				}
			}
			before := finals
			if n := testing.AllocsPerRun(200, func() {
				if err := frame(); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("a frame: %v allocations, want 0", n)
			}
			if finals == before {
				t.Error("no goomba finished while allocations were counted")
			}
		})
	}
}

// TestCrowdMessages checks when a message is seen: posted between steps,
// at the next step; posted during a step, at the step after, whether the
// entity was updated before or after the post; dropped when unused.
func TestCrowdMessages(t *testing.T) {
	tbl := mustSpec(t, `
a !go b
b !go a
b !stay b
enter a P=a
enter b P=b
`)
	goID, stay := testID(t, tbl, "go"), testID(t, tbl, "stay")
	p := &probe{t: tbl}
	var c *tablecrowd.Crowd[*probe]
	h := &crowdProbeHost{}
	c, err := tablecrowd.New(tbl, h, crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(1, p); err != nil {
		t.Fatal(err)
	}
	state := func() string {
		s, _ := c.Machine().StateOf(1)
		return tbl.StateName(table.StateID(s))
	}
	step := func() {
		t.Helper()
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(p.log, " "); got != "P=a" {
		t.Errorf("after Add: entry actions %q, want %q", got, "P=a")
	}
	step()
	if state() != "a" {
		t.Fatalf("no message: in %s, want a", state())
	}
	if err := c.Post(1, stay); err != nil { // a has no transition on stay: dropped
		t.Fatal(err)
	}
	step()
	if err := c.Post(1, goID); err != nil {
		t.Fatal(err)
	}
	step()
	if state() != "b" {
		t.Fatalf("after go: in %s, want b", state())
	}
	step() // stay was dropped: it is not seen in b
	if state() != "b" || strings.Join(p.log, " ") != "P=a P=b" {
		t.Fatalf("stay was kept: in %s, entry actions %v", state(), p.log)
	}
	// A post during the step, from the entity's own entry action: for the
	// step after.
	if err := c.Post(1, stay); err != nil {
		t.Fatal(err)
	}
	h.onDo = func() {
		h.onDo = nil
		if err := c.Post(1, goID); err != nil {
			t.Error(err)
		}
	}
	step() // b --stay--> b, whose entry action posts go
	if state() != "b" {
		t.Fatalf("after stay: in %s, want b", state())
	}
	step() // b --go--> a
	if state() != "a" || strings.Join(p.log, " ") != "P=a P=b P=b P=a" {
		t.Fatalf("in %s, entry actions %v; want a, P=a P=b P=b P=a", state(), p.log)
	}
}

// crowdProbeHost is probeHost with a hook run after each entry action.
type crowdProbeHost struct {
	probeHost
	onDo func()
}

func (h *crowdProbeHost) Test(p **probe, id table.TestID) bool { return h.probeHost.Test(*p, id) }
func (h *crowdProbeHost) Do(p **probe, a table.PropertyID, v table.ValueID) {
	h.probeHost.Do(*p, a, v)
	if h.onDo != nil {
		h.onDo()
	}
}

// TestCrowdAddDuringStep checks adds asked for during a step: carried out
// after it in order of ID, with their entry actions; an ID added twice is
// not added, and the error says so.
func TestCrowdAddDuringStep(t *testing.T) {
	tbl := mustSpec(t, `
a x b
enter a P=a
enter b P=b
`)
	p := &probe{t: tbl, holds: map[string]bool{"x": true}}
	h := &crowdProbeHost{}
	c, err := tablecrowd.New(tbl, h, crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(0, p); err != nil {
		t.Fatal(err)
	}
	q := &probe{t: tbl}
	h.onDo = func() { // b's entry action, during the step
		h.onDo = nil
		for _, id := range []crowd.ID{9, 5, 7, 7} {
			if err := c.Add(id, q); err != nil {
				t.Error(err)
			}
		}
		if err := c.Add(0, q); !errors.Is(err, crowd.ErrExists) {
			t.Errorf("Add(0) during the step = %v, want ErrExists", err)
		}
		if n := c.Machine().Len(); n != 1 {
			t.Errorf("during the step the machine holds %d entities, want 1", n)
		}
		if err := c.Post(5, testID(t, tbl, "x")); !errors.Is(err, table.ErrNotMessage) {
			t.Errorf("Post(polled test) = %v, want ErrNotMessage", err)
		}
	}
	err = c.Step()
	var ce *tablecrowd.Error
	if !errors.As(err, &ce) || ce.Failed != 0 || len(ce.Adds) != 1 || !errors.Is(err, crowd.ErrExists) {
		t.Fatalf("Step() = %v, want a tablecrowd.Error for the two adds of 7", err)
	}
	if want := "tablecrowd: step: tablecrowd: Crowd.Add: crowd: entity already added: 7 was added 2 times in one step; none of the adds was carried out"; err.Error() != want {
		t.Errorf("Step() = %q,\nwant %q", err, want)
	}
	if got, want := strings.Join(q.log, " "), "P=a P=a"; got != want { // 5 and 9
		t.Errorf("entry actions of the added entities: %q, want %q", got, want)
	}
	var ids []crowd.ID
	for id := range c.Machine().Each(0) {
		ids = append(ids, id)
	}
	if !slices.Equal(ids, []crowd.ID{5, 9}) {
		t.Errorf("state a holds %v, want [5 9]", ids)
	}
	if err := c.Step(); err != nil {
		t.Errorf("the next Step() = %v, want nil (errors are reported once)", err)
	}
}

// TestCrowdErrors checks the errors of New, Add, Post and Step, and
// that a step of the machine itself is refused.
func TestCrowdErrors(t *testing.T) {
	if _, err := tablecrowd.New(nil, probeHost{}, crowd.Options[probe]{}); err == nil {
		t.Error("New(nil) succeeded")
	}
	if _, err := tablecrowd.New(&table.Table{}, probeHost{}, crowd.Options[probe]{}); err == nil {
		t.Error("New(zero Table) succeeded")
	}
	var sb table.Builder
	sb.Name = "nested"
	outer := sb.AddState("outer")
	sb.Nest(sb.AddState("inner"), outer)
	chart, err := sb.Build()
	if err != nil {
		t.Fatal(err)
	}
	const wantChart = `tablecrowd: New: table "nested" is a statechart (nested states, exit actions, events raised or sent); a crowd runs flat tables: run its entities as table.Agents`
	if _, err := tablecrowd.New(chart, probeHost{}, crowd.Options[probe]{}); err == nil || err.Error() != wantChart {
		t.Errorf("New(statechart) = %v, want %q", err, wantChart)
	}
	tbl := mustSpec(t, "a !m a\na x b push\nb x b push\noptions stack 2")
	if _, err := tablecrowd.New(tbl, probeHost{}, crowd.Options[probe]{ChunkSize: -1}); err == nil || !strings.HasPrefix(err.Error(), "tablecrowd: New") {
		t.Errorf("New(ChunkSize -1) = %v, want an error from crowd.New", err)
	}
	h := &crowdProbeHost{}
	c, err := tablecrowd.New(tbl, h, crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Table() != tbl {
		t.Error("Table() is not the table")
	}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"Add(MaxID+1)", c.Add(crowd.MaxID+1, nil), nil},
		{"Post to no entity", c.Post(3, testID(t, tbl, "m")), crowd.ErrNotFound},
		{"Post(polled test)", c.Post(3, testID(t, tbl, "x")), table.ErrNotMessage},
		{"Post(no such test)", c.Post(3, 99), table.ErrNotMessage},
	} {
		if tc.err == nil || tc.want != nil && !errors.Is(tc.err, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	for id := range crowd.ID(10) {
		p := newProbe(tbl)
		if id%2 == 0 {
			p.holds["x"] = true
		}
		if err := c.Add(id, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Add(3, nil); !errors.Is(err, crowd.ErrExists) {
		t.Errorf("Add(3) again = %v, want ErrExists", err)
	}
	// Entities 0, 2, 4, 6, 8 push a, push b, then overflow.
	for range 2 {
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
	}
	err = c.Step()
	var ce *tablecrowd.Error
	if !errors.As(err, &ce) || ce.Failed != 5 || len(ce.First) != 5 || !errors.Is(err, table.ErrStackOverflow) {
		t.Fatalf("Step() = %v, want 5 stack overflows", err)
	}
	for i, f := range ce.First {
		var se *table.StackError
		if f.ID != crowd.ID(2*i) || !errors.As(f.Err, &se) || !se.Overflow {
			t.Errorf("failure %d = entity %d: %v, want entity %d: an overflow", i, f.ID, f.Err, 2*i)
		}
	}
	const want = `tablecrowd: step: entity 0: table "spec": state "b", test "x": push onto a full stack (2 states; raise Options.StackLimit, at most 16, or look for a push cycle); the transition was not taken (and 4 more failed updates)`
	if err.Error() != want {
		t.Errorf("Step() = %q,\nwant %q", err, want)
	}
	if s, _ := c.Machine().StateOf(0); s != 1 {
		t.Errorf("entity 0 in state %d after the overflow, want 1 (b)", s)
	}

	// Step from inside a step, and a step of the machine itself.
	h.onDo = func() {}
	p := newProbe(tbl)
	p.onTest = func() {
		p.onTest = nil
		if err := c.Step(); !errors.Is(err, crowd.ErrBusy) {
			t.Errorf("Step() inside a step = %v, want ErrBusy", err)
		}
	}
	if err := c.Machine().Remove(1); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(1, p); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(); err == nil || !errors.Is(err, table.ErrStackOverflow) {
		t.Errorf("Step() = %v, want the overflows again", err)
	}
	func() {
		defer func() {
			pe, ok := recover().(*crowd.PanicError)
			if !ok || !strings.Contains(fmt.Sprint(pe.Value), "call Crowd.Step") {
				t.Errorf("Machine().Step() panicked with %v, want a PanicError saying to call Crowd.Step", pe)
			}
		}()
		_ = c.Machine().Step()
	}()
}

// TestCrowdStackAndChain checks the stack's and the chain's bookkeeping per
// entity with hand-picked answers: a push and a return, a chain that stops
// at its limit.
func TestCrowdStackAndChain(t *testing.T) {
	tbl := mustSpec(t, `
options chain 2
a x b push
b y c
c z return
enter a P=a
enter b P=b
enter c P=c
`)
	p := newProbe(tbl, "x", "y")
	c, err := tablecrowd.New(tbl, &crowdProbeHost{}, crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(4, p); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(); err != nil { // a → b → c, and z does not hold
		t.Fatal(err)
	}
	if s, _ := c.Machine().StateOf(4); s != 2 {
		t.Fatalf("in state %d, want 2 (c)", s)
	}
	p.holds["z"] = true
	err = c.Step() // c → a (returned to) → b, and y holds: the chain limit
	var ce *tablecrowd.Error
	if !errors.As(err, &ce) || ce.Failed != 1 || !errors.Is(err, machine.ErrChainLimit) {
		t.Fatalf("Step() = %v, want a chain error", err)
	}
	const want = `tablecrowd: step: entity 4: table "spec": 2 transitions in one update and a test still holds (a cycle?): c → a → b, then test "y" holds; the agent stays in b (check these tests, or raise Options.ChainLimit)`
	if err.Error() != want {
		t.Errorf("Step() = %q,\nwant %q", err, want)
	}
	if got := strings.Join(p.log, " "); got != "P=a P=b P=c P=a P=b" {
		t.Errorf("entry actions %q", got)
	}
}

// TestCrowdPanic checks that a host that panics makes Step panic with a
// crowd.PanicError, and that the crowd is usable afterwards, the adds
// asked for during the step carried out.
func TestCrowdPanic(t *testing.T) {
	tbl := mustSpec(t, "a x b\nenter b P=b")
	h := &crowdProbeHost{}
	c, err := tablecrowd.New(tbl, h, crowd.Options[*probe]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := newProbe(tbl)
	p.onTest = func() {
		p.onTest = nil
		if err := c.Add(7, newProbe(tbl)); err != nil {
			t.Error(err)
		}
		panic("boom")
	}
	if err := c.Add(1, p); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if pe, ok := recover().(*crowd.PanicError); !ok || pe.ID != 1 || pe.Value != "boom" {
				t.Errorf("Step() panicked with %v, want a PanicError for entity 1", pe)
			}
		}()
		_ = c.Step()
		t.Error("Step() did not panic")
	}()
	if _, ok := c.Machine().StateOf(7); !ok {
		t.Error("the add asked for during the step was not carried out")
	}
	p.holds["x"] = true
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Machine().StateOf(1); s != 1 || strings.Join(p.log, " ") != "P=b" {
		t.Errorf("after the panic: entity 1 in state %d with entry actions %v, want 1 and P=b", s, p.log)
	}
}
