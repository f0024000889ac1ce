package table_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

func TestUpdate(t *testing.T) {
	tests := []struct {
		name      string
		spec      string
		holds     []string // polled tests that hold
		post      []string // messages posted before the update
		want      string   // the state after one update, or "final"
		wantSteps int
		wantTest  string // the last transition's test, "" for none
		wantLog   []string
		wantAsked []string // polled tests asked, in order
		wantErr   error
	}{
		{
			name:      "no test holds",
			spec:      "a x b\na y c",
			want:      "a",
			wantAsked: []string{"x", "y"},
		},
		{
			name:      "first test that holds wins",
			spec:      "a x b\na y c\nenter b P=b\nenter c P=c",
			holds:     []string{"x", "y"},
			want:      "b",
			wantSteps: 1,
			wantTest:  "x",
			wantLog:   []string{"P=b"},
			wantAsked: []string{"x"},
		},
		{
			name:      "later test holds",
			spec:      "a x b\na y c",
			holds:     []string{"y"},
			want:      "c",
			wantSteps: 1,
			wantTest:  "y",
			wantAsked: []string{"x", "y"},
		},
		{
			name:      "one transition per update by default",
			spec:      "a x b\nb y c",
			holds:     []string{"x", "y"},
			want:      "b",
			wantSteps: 1,
			wantTest:  "x",
			wantAsked: []string{"x"},
		},
		{
			name:      "chain option goes on while tests hold",
			spec:      "options chain 0\na x b\nb y c\nc z a\nenter b P=b\nenter c P=c",
			holds:     []string{"x", "y"},
			want:      "c",
			wantSteps: 2,
			wantTest:  "y",
			wantLog:   []string{"P=b", "P=c"},
			wantAsked: []string{"x", "y", "z"},
		},
		{
			name:      "chain limit",
			spec:      "options chain 2\na x b\nb x a",
			holds:     []string{"x"},
			want:      "a",
			wantSteps: 2,
			wantTest:  "x",
			wantAsked: []string{"x", "x", "x"},
			wantErr:   machine.ErrChainLimit,
		},
		{
			name:      "chain stops at final",
			spec:      "options chain 0\na x b\nb x final",
			holds:     []string{"x"},
			want:      "final",
			wantSteps: 2,
			wantTest:  "x",
			wantAsked: []string{"x", "x"},
		},
		{
			name:      "a message is a flag",
			spec:      "a x b\na !m c",
			post:      []string{"m"},
			want:      "c",
			wantSteps: 1,
			wantTest:  "m",
			wantAsked: []string{"x"},
		},
		{
			name:      "a message is consumed by its transition in a chain",
			spec:      "options chain 0\na !m b\nb !m c",
			post:      []string{"m"},
			want:      "b",
			wantSteps: 1,
			wantTest:  "m",
		},
		{
			name:      "any-state transitions come first",
			spec:      "a x b\n* y c",
			holds:     []string{"x", "y"},
			want:      "c",
			wantSteps: 1,
			wantTest:  "y",
			wantAsked: []string{"y"},
		},
		{
			name:      "an any-state transition does not leave its destination for itself",
			spec:      "c x a\n* y c",
			holds:     []string{"x", "y"},
			want:      "a",
			wantSteps: 1,
			wantTest:  "x",
			wantAsked: []string{"x"},
		},
		{
			name:      "a self transition enters again",
			spec:      "a x a\nenter a P=a",
			holds:     []string{"x"},
			want:      "a",
			wantSteps: 1,
			wantTest:  "x",
			wantLog:   []string{"P=a"},
			wantAsked: []string{"x"},
		},
		{
			name:      "tests with values are distinct",
			spec:      "a hp=low b\na hp=high c",
			holds:     []string{"hp=high"},
			want:      "c",
			wantSteps: 1,
			wantTest:  "hp=high",
			wantAsked: []string{"hp=low", "hp=high"},
		},
		{
			name:      "final",
			spec:      "a x final\nenter a P=a",
			holds:     []string{"x"},
			want:      "final",
			wantSteps: 1,
			wantTest:  "x",
			wantAsked: []string{"x"},
		},
		{
			name:      "return with an empty stack",
			spec:      "a x return\na y b",
			holds:     []string{"x", "y"},
			want:      "a",
			wantTest:  "x",
			wantAsked: []string{"x"},
			wantErr:   table.ErrStackUnderflow,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tbl := mustSpec(t, tc.spec)
			p := newProbe(tbl, tc.holds...)
			a := table.NewAgent(tbl, p, probeHost{})
			p.log = nil
			for _, m := range tc.post {
				if err := a.Post(testID(t, tbl, m)); err != nil {
					t.Fatal(err)
				}
			}
			r, err := a.Update(probeHost{})
			if !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Fatalf("Update() error = %v, want %v", err, tc.wantErr)
			}
			got := a.Name()
			if a.Done() {
				got = "final"
			}
			if got != tc.want {
				t.Errorf("after Update: state %s, want %s", got, tc.want)
			}
			if r.From != tbl.Initial() {
				t.Errorf("Update().From = %v, want %v", r.From, tbl.Initial())
			}
			wantTo := a.State()
			if a.Done() {
				wantTo = table.Final
			}
			if r.To != wantTo {
				t.Errorf("Update().To = %v, want %v", r.To, wantTo)
			}
			if int(r.Steps) != tc.wantSteps || r.Moved() != (tc.wantSteps > 0) || r.Final() != (tc.want == "final") {
				t.Errorf("Update() = %+v (moved %t, final %t), want %d steps", r, r.Moved(), r.Final(), tc.wantSteps)
			}
			gotTest := ""
			if r.Test != table.NoTest {
				gotTest = tbl.Test(r.Test).String()
			}
			if gotTest != tc.wantTest {
				t.Errorf("Update().Test = %q, want %q", gotTest, tc.wantTest)
			}
			if !slices.Equal(p.log, tc.wantLog) {
				t.Errorf("entry actions %q, want %q", p.log, tc.wantLog)
			}
			if !slices.Equal(p.asked, tc.wantAsked) {
				t.Errorf("tests asked %q, want %q", p.asked, tc.wantAsked)
			}
		})
	}
}

// TestGoomba runs the article's patroller through its life.
func TestGoomba(t *testing.T) {
	tbl := goombaTable(t)
	var w world
	g := &goomba{left: -2, right: 2}
	a := table.NewAgent(tbl, g, &w)
	if a.State() != walkLeft || g.vx != -1 || g.anim != animMoveLeft {
		t.Fatalf("NewAgent: %s, vx %d, anim %d; want walkLeft, -1, moveLeft", a.Name(), g.vx, g.anim)
	}
	var trace []string
	for frame := 0; frame < 100 && !a.Done(); frame++ {
		g.step()
		var r table.Result
		var err error
		if frame == 9 {
			r, err = a.Receive(&w, hitByPlayer)
		} else {
			r, err = a.Update(&w)
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Moved() {
			trace = append(trace, tbl.StateName(r.From)+" --"+tbl.Test(r.Test).Name+"--> "+tbl.StateName(r.To)+" at x="+itoa(g.x))
		}
	}
	want := []string{
		"walkLeft --hitTriggerLeft--> walkRight at x=-2",
		"walkRight --hitTriggerRight--> walkLeft at x=2",
		"walkLeft --hitByPlayer--> dying at x=-2", // on the trigger: the message is tried first
		"dying --animationDone--> final at x=-2",
	}
	if !slices.Equal(trace, want) {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(trace, "\n"), strings.Join(want, "\n"))
	}
	if !a.Done() {
		t.Fatal("the goomba never finished")
	}
	r, err := a.Update(&w)
	if err != nil || !r.Final() || r.Moved() {
		t.Errorf("Update after final = %+v, %v; want To final, no steps, no error", r, err)
	}
}

func itoa(n int32) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

func TestMessages(t *testing.T) {
	tbl := mustSpec(t, "a !m b\nb !n c\na x c\n* !q a")
	m, n, q := testID(t, tbl, "m"), testID(t, tbl, "n"), testID(t, tbl, "q")
	p := newProbe(tbl)
	a := table.NewAgent(tbl, p, probeHost{})

	// A message the state does not test is dropped after the update.
	if r, err := a.Receive(probeHost{}, n); err != nil || r.Moved() {
		t.Fatalf("Receive(n) in a = %+v, %v; want no move", r, err)
	}
	if r, err := a.Update(probeHost{}); err != nil || r.Moved() {
		t.Fatalf("Update after a dropped message = %+v, %v; want no move", r, err)
	}
	// Receive updates at once.
	if r, err := a.Receive(probeHost{}, m); err != nil || a.Name() != "b" || r.Test != m {
		t.Fatalf("Receive(m) = %+v, %v, in %s; want b via m", r, err, a.Name())
	}
	// Posting twice is posting once; the flag is cleared after the update.
	a.Post(n)
	a.Post(n)
	var s table.Snapshot
	a.Snapshot(&s)
	if !slices.Equal(s.Posted, []table.TestID{n}) {
		t.Errorf("Snapshot().Posted = %v, want [%v]", s.Posted, n)
	}
	if _, err := a.Update(probeHost{}); err != nil || a.Name() != "c" {
		t.Fatalf("Update with n posted: %v, in %s; want c", err, a.Name())
	}
	a.Snapshot(&s)
	if len(s.Posted) != 0 {
		t.Errorf("Posted after the update = %v, want none", s.Posted)
	}
	// An any-state message handler.
	if _, err := a.Receive(probeHost{}, q); err != nil || a.Name() != "a" {
		t.Fatalf("Receive(q) from c: %v, in %s; want a", err, a.Name())
	}
	// A polled test is not a message.
	x := testID(t, tbl, "x")
	if err := a.Post(x); !errors.Is(err, table.ErrNotMessage) ||
		err.Error() != `table "spec": Post "x": a polled test, not a message (the host answers polled tests; post messages only)` {
		t.Errorf("Post(polled x) = %v, want ErrNotMessage", err)
	}
	if _, err := a.Receive(probeHost{}, 999); !errors.Is(err, table.ErrNotMessage) || err.Error() != `table "spec": Post test #999: the table has 4 tests` {
		t.Errorf("Receive(999) = %v, want ErrNotMessage", err)
	}
}

func TestReentrancy(t *testing.T) {
	tbl := mustSpec(t, "a x b\nb !m c\nenter b P=b")
	m := testID(t, tbl, "m")
	p := newProbe(tbl, "x")
	a := table.NewAgent(tbl, p, probeHost{})

	// A Receive from inside Do only posts: the next update sees it.
	var inner error
	p.onDo = func() { _, inner = a.Receive(probeHost{}, m) }
	if _, err := a.Update(probeHost{}); err != nil || a.Name() != "b" {
		t.Fatalf("Update: %v, in %s; want b", err, a.Name())
	}
	if !errors.Is(inner, table.ErrReentrant) {
		t.Errorf("Receive from Do = %v, want ErrReentrant", inner)
	}
	p.onDo = nil
	if _, err := a.Update(probeHost{}); err != nil || a.Name() != "c" {
		t.Fatalf("Update after a message posted from Do: %v, in %s; want c", err, a.Name())
	}

	// An Update from inside Test is refused and changes nothing.
	b := table.NewAgent(tbl, p, probeHost{})
	p.onTest = func() { _, inner = b.Update(probeHost{}) }
	if _, err := b.Update(probeHost{}); err != nil || b.Name() != "b" {
		t.Fatalf("Update: %v, in %s; want b", err, b.Name())
	}
	if !errors.Is(inner, table.ErrReentrant) {
		t.Errorf("Update from Test = %v, want ErrReentrant", inner)
	}

	// A Post from inside Test, in an update that takes no transition, is
	// kept for the next update.
	tbl = mustSpec(t, "a x b\na !m c")
	m = testID(t, tbl, "m")
	p = newProbe(tbl)
	c := table.NewAgent(tbl, p, probeHost{})
	p.onTest = func() { inner = c.Post(m) }
	if _, err := c.Update(probeHost{}); err != nil || inner != nil || c.Name() != "a" {
		t.Fatalf("Update: %v (Post from Test: %v), in %s; want a", err, inner, c.Name())
	}
	p.onTest = nil
	if _, err := c.Update(probeHost{}); err != nil || c.Name() != "c" {
		t.Fatalf("Update after a message posted from Test: %v, in %s; want c", err, c.Name())
	}
}

func TestStack(t *testing.T) {
	tbl := mustSpec(t, `options stack 2
patrol alarm search push
search alarm search push
search !clear return
enter patrol Anim=walk
enter search Anim=look`)
	alarm, clearMsg := testID(t, tbl, "alarm"), testID(t, tbl, "clear")
	p := newProbe(tbl, "alarm")
	a := table.NewAgent(tbl, p, probeHost{})
	p.log = nil
	step := func(want string, depth int) {
		t.Helper()
		if a.Name() != want || a.Depth() != depth {
			t.Fatalf("in %s with a stack of %d, want %s and %d", a.Name(), a.Depth(), want, depth)
		}
	}
	if _, err := a.Update(probeHost{}); err != nil {
		t.Fatal(err)
	}
	step("search", 1)
	if _, err := a.Update(probeHost{}); err != nil {
		t.Fatal(err)
	}
	step("search", 2)
	_, err := a.Update(probeHost{})
	var se *table.StackError
	if !errors.As(err, &se) || !errors.Is(err, table.ErrStackOverflow) || se.Limit != 2 || se.Test != alarm {
		t.Fatalf("third push: %v, want a StackError for overflow at 2", err)
	}
	if !strings.Contains(err.Error(), `state "search", test "alarm": push onto a full stack (2 states`) {
		t.Errorf("error %q does not say where", err)
	}
	step("search", 2)

	p.holds["alarm"] = false
	for _, want := range []struct {
		state string
		depth int
	}{{"search", 1}, {"patrol", 0}} {
		r, err := a.Receive(probeHost{}, clearMsg)
		if err != nil || !r.Moved() {
			t.Fatalf("Receive(clear) = %+v, %v", r, err)
		}
		step(want.state, want.depth)
	}
	want := []string{"Anim=look", "Anim=look", "Anim=look", "Anim=walk"}
	if !slices.Equal(p.log, want) {
		t.Errorf("entry actions %q, want %q (a return enters the state again)", p.log, want)
	}
}

func TestChainError(t *testing.T) {
	tbl := mustSpec(t, "options chain 3\na x b\nb x a")
	a := table.NewAgent(tbl, newProbe(tbl, "x"), probeHost{})
	r, err := a.Update(probeHost{})
	var ce *machine.ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("Update() error = %v, want a ChainError", err)
	}
	const want = `table "spec": 3 transitions in one update and a test still holds (a cycle?): a → b → a → b, then test "x" holds; the agent stays in b (check these tests, or raise Options.ChainLimit)`
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
	if r.Steps != 3 || a.Name() != "b" || ce.At != machine.StateID(a.State()) {
		t.Errorf("Update() = %+v in %s (At %v); want 3 steps, in b", r, a.Name(), ce.At)
	}
	// The next update carries on.
	if r, err := a.Update(probeHost{}); r.Steps != 3 || err == nil {
		t.Errorf("next Update() = %+v, %v; want 3 more steps and the error again", r, err)
	}
}

func TestZeroAgent(t *testing.T) {
	var a table.Agent[*probe]
	if _, err := a.Update(probeHost{}); err != table.ErrNoTable {
		t.Errorf("Update() on a zero agent = %v, want ErrNoTable", err)
	}
	if _, err := a.Receive(probeHost{}, 0); err != table.ErrNoTable {
		t.Errorf("Receive() on a zero agent = %v, want ErrNoTable", err)
	}
	if a.State() != table.NoState || a.Name() != "none" || a.Table() != nil || a.Done() {
		t.Errorf("zero agent: %v %q %v %t", a.State(), a.Name(), a.Table(), a.Done())
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no states") {
			t.Errorf("NewAgent(zero table) panicked with %v, want a message about states", r)
		}
	}()
	table.NewAgent(&table.Table{}, &probe{}, probeHost{})
}

func TestDone(t *testing.T) {
	tbl := mustSpec(t, "a !m final\na x b")
	m := testID(t, tbl, "m")
	p := newProbe(tbl)
	a := table.NewAgent(tbl, p, probeHost{})
	r, err := a.Receive(probeHost{}, m)
	if err != nil || !r.Final() || !a.Done() || a.Name() != "a" {
		t.Fatalf("Receive(m) = %+v, %v; done %t in %s; want final, done, last state a", r, err, a.Done(), a.Name())
	}
	p.holds["x"] = true
	if err := a.Post(m); err != nil {
		t.Errorf("Post on a done agent = %v, want nil", err)
	}
	for range 2 {
		if r, err := a.Update(probeHost{}); err != nil || !r.Final() || r.Moved() {
			t.Errorf("Update on a done agent = %+v, %v; want final, no move", r, err)
		}
	}
	if len(p.asked) != 0 {
		t.Errorf("a done agent asked %q", p.asked)
	}
	if a.String() != "a (done)" {
		t.Errorf("String() = %q, want %q", a.String(), "a (done)")
	}
}

func TestSnapshotRestore(t *testing.T) {
	tbl := mustSpec(t, "a x b push\nb x c push\nc !m return\nc !n final")
	m, n := testID(t, tbl, "m"), testID(t, tbl, "n")
	p := newProbe(tbl, "x")
	a := table.NewAgent(tbl, p, probeHost{})
	a.Update(probeHost{})
	a.Update(probeHost{})
	a.Post(m)
	var s table.Snapshot
	a.Snapshot(&s)
	want := table.Snapshot{State: stateID(t, tbl, "c"), Stack: []table.StateID{0, 1}, Posted: []table.TestID{m}}
	if s.State != want.State || s.Done || !slices.Equal(s.Stack, want.Stack) || !slices.Equal(s.Posted, want.Posted) {
		t.Fatalf("Snapshot() = %+v, want %+v", s, want)
	}
	if a.String() != "c (stack 2)" {
		t.Errorf("String() = %q", a.String())
	}
	b, err := table.RestoreAgent(tbl, p, &s)
	if err != nil {
		t.Fatal(err)
	}
	p.log = nil
	for _, ag := range []*table.Agent[*probe]{&a, &b} {
		if _, err := ag.Update(probeHost{}); err != nil || ag.Name() != "b" || ag.Depth() != 1 {
			t.Errorf("Update of a restored agent: %v, in %s with %d; want b, 1", err, ag.Name(), ag.Depth())
		}
	}
	if len(p.log) != 0 {
		t.Errorf("RestoreAgent performed %q", p.log)
	}

	// A finished agent restores finished.
	a.Update(probeHost{})
	a.Receive(probeHost{}, n)
	a.Snapshot(&s)
	if b, err := table.RestoreAgent(tbl, p, &s); err != nil || !b.Done() {
		t.Errorf("RestoreAgent(done) = %v, done %t", err, b.Done())
	}

	allocs := testing.AllocsPerRun(100, func() { a.Snapshot(&s) })
	if allocs != 0 {
		t.Errorf("Snapshot into a grown value: %v allocations, want 0", allocs)
	}

	bad := []struct {
		name string
		s    table.Snapshot
		want string
	}{
		{"state", table.Snapshot{State: 3}, "state #3 is not a state"},
		{"final state", table.Snapshot{State: table.Final}, "state final is not a state"},
		{"stack entry", table.Snapshot{Stack: []table.StateID{0, 7}}, "stack entry 1: #7 is not a state"},
		{"stack depth", table.Snapshot{Stack: make([]table.StateID, 17)}, "a stack of 17 states; the table's stack limit is 16"},
		{"posted polled", table.Snapshot{Posted: []table.TestID{testID(t, tbl, "x")}}, "posted test #0 is not a message test"},
		{"posted unknown", table.Snapshot{Posted: []table.TestID{40}}, "posted test #40 is not a message test"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := table.RestoreAgent(tbl, p, &tc.s)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), `table: RestoreAgent (table "spec"): `) {
				t.Errorf("RestoreAgent(%+v) = %v, want an error containing %q", tc.s, err, tc.want)
			}
		})
	}
	if _, err := table.RestoreAgent(nil, p, &table.Snapshot{}); err == nil {
		t.Error("RestoreAgent(nil table) succeeded")
	}
}

func TestAllocations(t *testing.T) {
	tbl := goombaTable(t)
	w := &world{}
	g := &goomba{left: -3, right: 3}
	var a table.Agent[*goomba]
	if n := testing.AllocsPerRun(100, func() { a = table.NewAgent(tbl, g, w) }); n != 0 {
		t.Errorf("NewAgent: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() {
		g.step()
		if _, err := a.Update(w); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Update: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		a = table.NewAgent(tbl, g, w)
		a.Receive(w, hitByPlayer)
	}); n != 0 {
		t.Errorf("Receive: %v allocations, want 0", n)
	}
}

// TestCrowd runs goombas the way a crowd does: one slice of agents, one
// host, and an entity removed when its agent reports Final.
func TestCrowd(t *testing.T) {
	tbl := goombaTable(t)
	w := &world{}
	gs := make([]goomba, 64)
	as := make([]table.Agent[*goomba], 0, len(gs))
	for i := range gs {
		spawn(&gs[i], i)
		as = append(as, table.NewAgent(tbl, &gs[i], w))
	}
	removed := 0
	for frame := 0; len(as) > 0; frame++ {
		if frame > 10000 {
			t.Fatalf("%d goombas still alive after %d frames", len(as), frame)
		}
		for i := 0; i < len(as); i++ {
			a := &as[i]
			a.Entity().step()
			if frame%50 == i%50 {
				if _, err := a.Receive(w, hitByPlayer); err != nil {
					t.Fatal(err)
				}
			}
			r, err := a.Update(w)
			if err != nil {
				t.Fatal(err)
			}
			if r.Final() {
				as[i] = as[len(as)-1] // swap-remove, as a crowd does
				as = as[:len(as)-1]
				i--
				removed++
			}
		}
	}
	if removed != len(gs) {
		t.Errorf("%d goombas removed, want %d", removed, len(gs))
	}
}
