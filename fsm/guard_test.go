package fsm

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

// probe is a test entity: guards read its flags, actions append to its log.
type probe struct {
	flags map[string]bool
	log   []string
}

func (p *probe) is(flag string) func(*probe) bool {
	return func(*probe) bool { return p.flags[flag] }
}

// abc builds A, B, C with logging actions.
func abc(t *testing.T) (*Graph[*probe, int], [3]StateID) {
	t.Helper()
	g := &Graph[*probe, int]{}
	var ids [3]StateID
	for i, name := range []string{"A", "B", "C"} {
		ids[i] = g.AddState(State[*probe, int]{
			Name:  name,
			Tag:   i * 10,
			Enter: func(p *probe) { p.log = append(p.log, "enter "+name) },
			Exit:  func(p *probe) { p.log = append(p.log, "exit "+name) },
		})
	}
	return g, ids
}

func TestUpdate(t *testing.T) {
	type edge struct {
		from, to int
		flag     string
	}
	tests := []struct {
		name     string
		edges    []edge
		flags    []string
		limit    int
		want     string // current state after Update
		wantPrev string
		wantLog  []string
		wantErr  error
	}{
		{
			name:     "no guard holds",
			edges:    []edge{{0, 1, "x"}},
			want:     "A",
			wantPrev: "none",
		},
		{
			name:     "one transition",
			edges:    []edge{{0, 1, "x"}},
			flags:    []string{"x"},
			want:     "B",
			wantPrev: "A",
			wantLog:  []string{"exit A", "enter B"},
		},
		{
			name:     "first guard that holds wins",
			edges:    []edge{{0, 1, "x"}, {0, 2, "y"}},
			flags:    []string{"x", "y"},
			want:     "B",
			wantPrev: "A",
			wantLog:  []string{"exit A", "enter B"},
		},
		{
			name:     "earlier guard false, later true",
			edges:    []edge{{0, 1, "x"}, {0, 2, "y"}},
			flags:    []string{"y"},
			want:     "C",
			wantPrev: "A",
			wantLog:  []string{"exit A", "enter C"},
		},
		{
			name:     "chains while a guard holds",
			edges:    []edge{{0, 1, "x"}, {1, 2, "y"}},
			flags:    []string{"x", "y"},
			want:     "C",
			wantPrev: "B",
			wantLog:  []string{"exit A", "enter B", "exit B", "enter C"},
		},
		{
			name:     "self transition runs exit and enter once per update",
			edges:    []edge{{0, 0, "x"}},
			flags:    []string{"x"},
			limit:    1,
			want:     "A",
			wantPrev: "A",
			wantLog:  []string{"exit A", "enter A"},
			wantErr:  machine.ErrChainLimit,
		},
		{
			name:     "guard cycle stops at the default limit",
			edges:    []edge{{0, 1, "x"}, {1, 0, "x"}},
			flags:    []string{"x"},
			want:     "B", // 3 states: A→B→A→B, then the guard to A still holds
			wantPrev: "A",
			wantLog:  []string{"exit A", "enter B", "exit B", "enter A", "exit A", "enter B"},
			wantErr:  machine.ErrChainLimit,
		},
		{
			name:     "guard cycle with a set limit",
			edges:    []edge{{0, 1, "x"}, {1, 0, "x"}},
			flags:    []string{"x"},
			limit:    2,
			want:     "A",
			wantPrev: "B",
			wantLog:  []string{"exit A", "enter B", "exit B", "enter A"},
			wantErr:  machine.ErrChainLimit,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ids := abc(t)
			g.ChainLimit = tt.limit
			p := &probe{flags: map[string]bool{}}
			for _, f := range tt.flags {
				p.flags[f] = true
			}
			for _, e := range tt.edges {
				g.AddTransition(ids[e.from], ids[e.to], p.is(e.flag))
			}
			m := g.New(p, ids[0])
			err := m.Update()
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Update() = %v, want %v", err, tt.wantErr)
			}
			if got := m.Name(); got != tt.want {
				t.Errorf("Name() = %s, want %s", got, tt.want)
			}
			if got := g.StateName(m.Previous()); got != tt.wantPrev {
				t.Errorf("Previous() = %s, want %s", got, tt.wantPrev)
			}
			if !slices.Equal(p.log, tt.wantLog) {
				t.Errorf("actions = %q, want %q", p.log, tt.wantLog)
			}
		})
	}
}

func TestChainError(t *testing.T) {
	g, ids := abc(t)
	g.ChainLimit = 2
	yes := func(*probe) bool { return true }
	g.AddTransition(ids[0], ids[1], yes)
	g.AddTransition(ids[1], ids[0], yes)
	m := g.New(&probe{}, ids[0])
	err := m.Update()
	var ce *machine.ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("Update() = %v, want a *ChainError", err)
	}
	if want := []machine.StateID{machine.StateID(ids[0]), machine.StateID(ids[1]), machine.StateID(ids[0])}; !slices.Equal(ce.Path, want) {
		t.Errorf("Path = %v, want %v", ce.Path, want)
	}
	if ce.Next != machine.StateID(ids[1]) || ce.Limit != 2 || ce.At != machine.StateID(ids[0]) || ce.Visited != 3 {
		t.Errorf("Next, Limit, At, Visited = %v, %d, %v, %d, want %v, 2, %v, 3", ce.Next, ce.Limit, ce.At, ce.Visited, ids[1], ids[0])
	}
	const want = "fsm: 2 transitions in one update and a guard still holds (a guard cycle?): A → B → A, then B; the machine stays in A (check these guards, or raise Graph.ChainLimit)"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	// The next update carries on from where the last stopped.
	if err := m.Update(); !errors.Is(err, machine.ErrChainLimit) || m.Name() != "A" {
		t.Errorf("second Update() = %v in %s, want a chain error in A", err, m.Name())
	}
}

func TestLongChainError(t *testing.T) {
	var g Graph[int, int]
	var ids []StateID
	for i := range 40 {
		ids = append(ids, g.AddState(State[int, int]{Name: fmt.Sprint("s", i)}))
	}
	for i := range ids {
		g.AddTransition(ids[i], ids[(i+1)%len(ids)], func(int) bool { return true })
	}
	m := g.New(0, ids[0])
	err := m.Update()
	var ce *machine.ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("Update() = %v, want a *ChainError", err)
	}
	if len(ce.Path) != chainPathMax || ce.Visited != 41 || ce.At != machine.StateID(ids[0]) || m.State() != ids[0] {
		t.Errorf("len(Path), Visited, At, Current = %d, %d, %v, %v; want %d, 41, s0, s0", len(ce.Path), ce.Visited, ce.At, m.State(), chainPathMax)
	}
	if want := "s15 → … (25 more), then s1; the machine stays in s0 (check these guards, or raise Graph.ChainLimit)"; !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Error() = %q, want it to end %q", err, want)
	}
}

func TestZeroMachine(t *testing.T) {
	var m GuardMachine[*probe, int]
	if err := m.Update(); err != ErrNoState {
		t.Errorf("Update() = %v, want ErrNoState", err)
	}
	if err := m.Goto(0); err != ErrNoState {
		t.Errorf("Goto(0) = %v, want ErrNoState", err)
	}
	if m.State() != NoState || m.Previous() != NoState || m.Name() != "none" || m.In(0) || m.Tag() != 0 {
		t.Errorf("zero machine = %v %v %q, want none", m.State(), m.Previous(), m.Name())
	}
	var f Flow[int]
	if err := f.Update(); err != ErrNoState {
		t.Errorf("Flow.Update() before Start = %v, want ErrNoState", err)
	}
}

func TestReentrantUpdate(t *testing.T) {
	g := &Graph[*probe, int]{}
	var m GuardMachine[*probe, int]
	var inner error
	a := g.AddState(State[*probe, int]{Name: "A"})
	b := g.AddState(State[*probe, int]{Name: "B", Enter: func(*probe) { inner = m.Update() }})
	g.AddTransition(a, b, func(*probe) bool { return true })
	m = g.New(&probe{}, a)
	if err := m.Update(); err != nil {
		t.Fatalf("Update() = %v", err)
	}
	if inner != ErrReentrant {
		t.Errorf("Update() from Enter = %v, want ErrReentrant", inner)
	}
	if !m.In(b) {
		t.Errorf("state = %s, want B", m.Name())
	}
}

func TestGuardReentry(t *testing.T) {
	g, ids := abc(t)
	p := &probe{}
	var m GuardMachine[*probe, int]
	var errs []error
	g.AddTransition(ids[0], ids[1], func(*probe) bool {
		errs = append(errs, m.Update(), m.Goto(ids[2]))
		return false
	})
	m = g.New(p, ids[0])
	if err := m.Update(); err != nil {
		t.Fatal(err)
	}
	if len(errs) != 2 || errs[0] != ErrReentrant || errs[1] != ErrReentrant {
		t.Errorf("Update and Goto from a guard = %v, want ErrReentrant twice", errs)
	}
	if !m.In(ids[0]) || m.Previous() != NoState || len(p.log) != 0 {
		t.Errorf("a guard's calls changed the machine: %s, previous %v, %q", m.Name(), m.Previous(), p.log)
	}
}

func TestPanicInGuardIsReported(t *testing.T) {
	g, ids := abc(t)
	g.AddTransition(ids[0], ids[1], func(*probe) bool { panic("guard bug") })
	m := g.New(&probe{}, ids[0])
	func() {
		defer func() { recover() }()
		m.Update()
	}()
	if err := m.Update(); err != ErrReentrant || !strings.Contains(err.Error(), "guard panicked") {
		t.Errorf("Update after a guard panicked = %v, want ErrReentrant saying so", err)
	}
}

func TestRestore(t *testing.T) {
	g, ids := abc(t)
	g.AddTransition(ids[1], ids[2], func(p *probe) bool { return true })
	p := &probe{}
	m, err := g.Restore(p, &Snapshot{State: ids[1], Previous: ids[0]})
	if err != nil {
		t.Fatal(err)
	}
	if !m.In(ids[1]) || m.Previous() != ids[0] || len(p.log) != 0 {
		t.Errorf("Restore(B, A) = %s after %s with %q, want B after A and no actions", m.Name(), g.StateName(m.Previous()), p.log)
	}
	if err := m.Update(); err != nil || !m.In(ids[2]) {
		t.Errorf("restored machine: Update() = %v in %s, want C", err, m.Name())
	}
	var s Snapshot
	m.Snapshot(&s)
	back, err := g.Restore(p, &s)
	if err != nil || back.State() != m.State() || back.Previous() != m.Previous() {
		t.Errorf("Restore(Snapshot()) = %s after %s, %v; want %s after %s", back.Name(), g.StateName(back.Previous()), err, m.Name(), g.StateName(m.Previous()))
	}
	if _, err := g.Restore(p, &Snapshot{State: ids[0], Previous: NoState}); err != nil {
		t.Errorf("Restore(A, none) = %v", err)
	}
	for _, bad := range [][2]StateID{{9, NoState}, {ids[0], 9}, {NoState, ids[0]}} {
		if _, err := g.Restore(p, &Snapshot{State: bad[0], Previous: bad[1]}); err == nil || !strings.Contains(err.Error(), "not a state") {
			t.Errorf("Restore(%v, %v) = %v, want an error naming the state", bad[0], bad[1], err)
		}
	}
}

func TestPanicInActionLeavesMachineUsable(t *testing.T) {
	g := &Graph[*probe, int]{}
	a := g.AddState(State[*probe, int]{Name: "A"})
	b := g.AddState(State[*probe, int]{Name: "B", Enter: func(*probe) { panic("boom") }})
	on := true
	g.AddTransition(a, b, func(*probe) bool { return on })
	m := g.New(&probe{}, a)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recover() = %v, want boom", r)
			}
		}()
		m.Update()
	}()
	if !m.In(b) {
		t.Errorf("after a panic in B's Enter, state = %s, want B", m.Name())
	}
	on = false
	if err := m.Update(); err != nil {
		t.Errorf("Update() after a panic = %v, want nil", err)
	}
}

func TestGoto(t *testing.T) {
	g, ids := abc(t)
	p := &probe{}
	m := g.New(p, ids[0])
	if err := m.Goto(StateID(7)); err == nil || !strings.Contains(err.Error(), "#7") {
		t.Errorf("Goto(#7) = %v, want an error naming #7", err)
	}
	if !m.In(ids[0]) || len(p.log) != 0 {
		t.Errorf("a failed Goto changed the machine: %s %q", m.Name(), p.log)
	}
	if err := m.Goto(ids[2]); err != nil {
		t.Fatal(err)
	}
	if want := []string{"exit A", "enter C"}; !m.In(ids[2]) || m.Previous() != ids[0] || !slices.Equal(p.log, want) {
		t.Errorf("Goto(C): state %s, previous %s, log %q; want C, A, %q", m.Name(), g.StateName(m.Previous()), p.log, want)
	}
	if m.Tag() != 20 {
		t.Errorf("Tag() = %d, want 20", m.Tag())
	}
}

func TestIntrospection(t *testing.T) {
	g, ids := abc(t)
	yes := func(*probe) bool { return true }
	g.AddTransition(ids[0], ids[1], yes)
	g.AddTransition(ids[0], ids[2], yes)
	var got []Transition
	for tr := range g.Transitions(ids[0]) {
		got = append(got, tr)
	}
	want := []Transition{{From: ids[0], To: ids[1], Index: 0}, {From: ids[0], To: ids[2], Index: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("Transitions(A) = %v, want %v", got, want)
	}
	if n := len(slices.Collect(g.Transitions(NoState))); n != 0 {
		t.Errorf("Transitions(NoState) yields %d, want 0", n)
	}
	if id, ok := g.LookupState("C"); !ok || id != ids[2] {
		t.Errorf("Lookup(C) = %v, %v, want %v, true", id, ok, ids[2])
	}
	if _, ok := g.LookupState("D"); ok {
		t.Error("Lookup(D) found a state")
	}
	if g.NumStates() != 3 || g.StateName(NoState) != "none" || g.Tag(9) != 0 {
		t.Errorf("Len, Name(NoState), Tag(9) = %d %q %d", g.NumStates(), g.StateName(NoState), g.Tag(9))
	}
}

func TestOnTransition(t *testing.T) {
	g, ids := abc(t)
	yes := func(*probe) bool { return true }
	g.AddTransition(ids[0], ids[1], yes)
	g.AddTransition(ids[1], ids[2], yes)
	var seen []string
	g.OnTransition = func(p *probe, from, to StateID) {
		seen = append(seen, g.StateName(from)+"→"+g.StateName(to))
		p.log = append(p.log, "hook")
	}
	p := &probe{}
	m := g.New(p, ids[0])
	if err := m.Update(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"A→B", "B→C"}; !slices.Equal(seen, want) {
		t.Errorf("OnTransition saw %q, want %q", seen, want)
	}
	if want := []string{"exit A", "hook", "enter B", "exit B", "hook", "enter C"}; !slices.Equal(p.log, want) {
		t.Errorf("order = %q, want %q", p.log, want)
	}
}

func TestBuildPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func(g *Graph[*probe, int])
		want string
	}{
		{"empty name", func(g *Graph[*probe, int]) { g.AddState(State[*probe, int]{}) }, "needs a name"},
		{"duplicate name", func(g *Graph[*probe, int]) { g.AddState(State[*probe, int]{Name: "A"}) }, `"A" is already`},
		{"unknown from", func(g *Graph[*probe, int]) { g.AddTransition(5, 0, func(*probe) bool { return true }) }, "#5 is not a state"},
		{"unknown to", func(g *Graph[*probe, int]) { g.AddTransition(0, NoState, func(*probe) bool { return true }) }, "none is not a state"},
		{"nil guard", func(g *Graph[*probe, int]) { g.AddTransition(0, 1, nil) }, "nil guard"},
		{"unknown initial", func(g *Graph[*probe, int]) { g.New(nil, 3) }, "#3 is not a state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := abc(t)
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.want) {
					t.Errorf("panic = %v, want one containing %q", r, tt.want)
				}
			}()
			tt.f(g)
		})
	}
}

func TestNoAllocs(t *testing.T) {
	type ticker struct{ n int }
	g := &Graph[*ticker, int]{}
	a := g.AddState(State[*ticker, int]{Name: "A", Exit: func(e *ticker) {}})
	b := g.AddState(State[*ticker, int]{Name: "B", Enter: func(e *ticker) {}})
	g.AddTransition(a, b, func(e *ticker) bool { return e.n%2 == 0 })
	g.AddTransition(b, a, func(e *ticker) bool { return e.n%2 == 1 })
	e := &ticker{}
	var m GuardMachine[*ticker, int]
	if n := testing.AllocsPerRun(100, func() { m = g.New(e, a) }); n != 0 {
		t.Errorf("New allocs = %v, want 0", n)
	}
	moves := 0
	g.OnTransition = func(*ticker, StateID, StateID) { moves++ }
	if n := testing.AllocsPerRun(100, func() {
		e.n++
		if err := m.Update(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Update allocs = %v, want 0", n)
	}
	if moves != 100 { // 101 runs; the first, with n = 1, finds no guard
		t.Errorf("transitions = %d, want 100", moves)
	}
}
