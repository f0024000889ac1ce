package fsm

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

func TestFlowActions(t *testing.T) {
	var log []string
	var f Flow[int]
	on := map[string]bool{}
	states := make([]StateID, 3)
	for i, name := range []string{"A", "B", "C"} {
		states[i] = f.AddState(name, i*10,
			func() { log = append(log, "enter "+name) },
			func() { log = append(log, "exit "+name) })
	}
	a, b, c := states[0], states[1], states[2]
	f.AddTransition(a, b, func() bool { return on["ab"] })
	f.AddTransition(b, c, func() bool { return on["bc"] })
	f.Start(a)

	if err := f.Update(); err != nil || !f.In(a) || len(log) != 0 {
		t.Fatalf("Update() with no condition true = %v in %s, actions %q; want nil in A, none", err, f.Name(), log)
	}
	on["ab"], on["bc"] = true, true
	if err := f.Update(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"exit A", "enter B", "exit B", "enter C"}; !slices.Equal(log, want) {
		t.Errorf("actions = %q, want %q", log, want)
	}
	if f.State() != c || f.Previous() != b || f.Tag() != 20 {
		t.Errorf("Current, Previous, Tag = %v, %v, %d, want %v, %v, 20", f.State(), f.Previous(), f.Tag(), c, b)
	}
	log = nil
	if err := f.Goto(a); err != nil || !f.In(a) || !slices.Equal(log, []string{"exit C", "enter A"}) {
		t.Errorf("Goto(A) = %v in %s, actions %q; want nil in A, exit C then enter A", err, f.Name(), log)
	}
}

// TestFlowGraphGuards checks that a guard added through Flow.Graph runs
// beside the flow's own conditions, in the order they were added.
func TestFlowGraphGuards(t *testing.T) {
	var f Flow[string]
	a := f.AddState("A", "a", nil, nil)
	b := f.AddState("B", "b", nil, nil)
	c := f.AddState("C", "c", nil, nil)
	var tried []string
	f.AddTransition(a, b, func() bool { tried = append(tried, "cond"); return false })
	f.Graph().AddTransition(a, c, func(struct{}) bool { tried = append(tried, "guard"); return true })
	f.Start(a)
	if err := f.Update(); err != nil || !f.In(c) {
		t.Fatalf("Update() = %v in %s, want nil in C", err, f.Name())
	}
	if want := []string{"cond", "guard"}; !slices.Equal(tried, want) {
		t.Errorf("tried %q, want %q", tried, want)
	}
	// A machine made from a flow's graph runs the flow's conditions too.
	m := f.Graph().New(struct{}{}, a)
	tried = nil
	if err := m.Update(); err != nil || !m.In(c) || len(tried) != 2 {
		t.Errorf("Graph().New(A).Update() = %v in %s, tried %q; want nil in C, both", err, m.Name(), tried)
	}
}

// TestFlowGrows builds flows past the room a Flow holds: more states than
// it keeps in itself and more transitions than a state keeps in itself.
func TestFlowGrows(t *testing.T) {
	for _, n := range []int{2, firstNodes, firstNodes + 1, 3*firstNodes + 5} {
		t.Run(fmt.Sprint("states=", n), func(t *testing.T) {
			var f Flow[int]
			var entered []int
			ids := make([]StateID, n)
			for i := range n {
				ids[i] = f.AddState(fmt.Sprint("s", i), i, func() { entered = append(entered, i) }, nil)
			}
			// From s0, n transitions (more than a state keeps in itself),
			// of which only the last holds, to s(n-1); from every other
			// state, one to the next.
			for i := range n {
				f.AddTransition(ids[0], ids[i], func() bool { return i == n-1 })
			}
			for i := 1; i < n-1; i++ {
				f.AddTransition(ids[i], ids[i+1], func() bool { return false })
			}
			f.Start(ids[0])
			if err := f.Update(); err != nil || f.State() != ids[n-1] || f.Tag() != n-1 {
				t.Fatalf("Update() = %v in %s, want nil in s%d", err, f.Name(), n-1)
			}
			var got []StateID
			for tr := range f.Graph().Transitions(ids[0]) {
				got = append(got, tr.To)
			}
			if !slices.Equal(got, ids) {
				t.Errorf("Transitions(s0) lead to %v, want %v", got, ids)
			}
			for i, id := range ids {
				name := fmt.Sprint("s", i)
				if got, ok := f.Graph().LookupState(name); !ok || got != id || f.Graph().StateName(id) != name || f.Graph().Tag(id) != i {
					t.Errorf("Lookup(%s) = %v, %v; Name, Tag = %s, %d; want %v, true, %s, %d", name, got, ok, f.Graph().StateName(id), f.Graph().Tag(id), id, name, i)
				}
			}
			if _, ok := f.Graph().LookupState("missing"); ok {
				t.Error("Lookup(missing) found a state")
			}
			if f.Graph().NumStates() != n || !slices.Equal(entered, []int{n - 1}) {
				t.Errorf("Len() = %d, entered %v; want %d, [%d]", f.Graph().NumStates(), entered, n, n-1)
			}
		})
	}
}

// TestGraphDuplicateName checks that a duplicate name is refused in small
// graphs (found by scanning) and large ones (found in a map).
func TestGraphDuplicateName(t *testing.T) {
	for _, n := range []int{1, firstNodes, firstNodes + 1, 40} {
		t.Run(fmt.Sprint("states=", n), func(t *testing.T) {
			var g Graph[int, int]
			for i := range n {
				g.AddState(State[int, int]{Name: fmt.Sprint("s", i)})
			}
			for _, name := range []string{"s0", fmt.Sprint("s", n-1)} {
				func() {
					defer func() {
						if msg, _ := recover().(string); !strings.Contains(msg, "already in the graph") {
							t.Errorf("AddState(%s) again: panic %q, want one saying it is already in the graph", name, msg)
						}
					}()
					g.AddState(State[int, int]{Name: name})
				}()
			}
		})
	}
}

func TestFlowAllocs(t *testing.T) {
	// The caller's closures are made once: what is counted is the flow's own.
	enter := func() {}
	cond := func() bool { return false }
	build := func() *Flow[int] {
		f := new(Flow[int])
		var ids [firstNodes]StateID
		for i := range ids {
			ids[i] = f.AddState(stateNames[i], i, enter, nil)
		}
		for i := range ids {
			f.AddTransition(ids[i], ids[(i+1)%len(ids)], cond)
			f.AddTransition(ids[i], ids[(i+2)%len(ids)], cond)
		}
		f.Start(ids[0])
		return f
	}
	var f *Flow[int]
	if n := testing.AllocsPerRun(100, func() { f = build() }); n != 1 {
		t.Errorf("building a flow of %d states allocates %v times, want 1 (the Flow)", firstNodes, n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := f.Update(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Flow.Update allocates %v times, want 0", n)
	}
}

var stateNames = [...]string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"}

// TestFlowChainLimit checks that a flow's guard cycle stops at its graph's
// chain limit, as a GuardMachine's does.
func TestFlowChainLimit(t *testing.T) {
	var f Flow[int]
	a := f.AddState("a", 0, nil, nil)
	b := f.AddState("b", 1, nil, nil)
	yes := func() bool { return true }
	f.AddTransition(a, b, yes)
	f.AddTransition(b, a, yes)
	f.Graph().ChainLimit = 3
	f.Start(a)
	var ce *machine.ChainError
	if err := f.Update(); !errors.As(err, &ce) || ce.Limit != 3 || !f.In(b) {
		t.Errorf("Update() = %v in %s, want a ChainError with limit 3, in b", err, f.Name())
	}
}

// TestFlowSnapshot saves a flow and restores it into another built alike:
// it goes on from the same states, running no action on the way in.
func TestFlowSnapshot(t *testing.T) {
	build := func(log *[]string, step *int) (*Flow[int], StateID, StateID) {
		f := &Flow[int]{}
		a := f.AddState("A", 0, func() { *log = append(*log, "enter A") }, nil)
		b := f.AddState("B", 0, func() { *log = append(*log, "enter B") }, nil)
		f.AddTransition(a, b, func() bool { return *step == 1 })
		f.AddTransition(b, a, func() bool { return *step == 2 })
		f.Start(a)
		return f, a, b
	}
	var log1, log2 []string
	step := 1
	f1, _, _ := build(&log1, &step)
	if err := f1.Update(); err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	f1.Snapshot(&s)
	f2, a, b := build(&log2, &step)
	if err := f2.Restore(&s); err != nil || f2.State() != b || f2.Previous() != a || len(log2) != 0 {
		t.Fatalf("Restore = %v: in %s after %s, actions %q; want B after A, none", err, f2.Name(), f2.graph.StateName(f2.Previous()), log2)
	}
	if err := f2.Restore(&Snapshot{State: 9, Previous: NoState}); err == nil || f2.State() != b {
		t.Errorf("Restore of state 9 = %v, in %s; want an error, still in B", err, f2.Name())
	}
	step = 2
	if err1, err2 := f1.Update(), f2.Update(); err1 != nil || err2 != nil || f1.State() != a || f2.State() != a || len(log2) != 1 || log2[0] != "enter A" {
		t.Errorf("after one more update: %s (%v) and %s (%v), %q and %q; want both in A", f1.Name(), err1, f2.Name(), err2, log1, log2)
	}
}

// TestFlowRestoreReentrant checks that a restore from inside the flow's own
// update is refused and changes nothing, and that a zero machine's
// snapshot says it has no previous state.
func TestFlowRestoreReentrant(t *testing.T) {
	var f Flow[int]
	var a, b, c StateID
	var err error
	a = f.AddState("a", 0, nil, nil)
	b = f.AddState("b", 0, func() { err = f.Restore(&Snapshot{State: c, Previous: NoState}) }, nil)
	c = f.AddState("c", 0, nil, nil)
	f.AddTransition(a, b, func() bool { return true })
	var zero Snapshot
	f.Snapshot(&zero)
	if zero != (Snapshot{State: NoState, Previous: NoState}) {
		t.Errorf("Snapshot before Start = %+v, want NoState for both", zero)
	}
	f.Start(a)
	if uerr := f.Update(); uerr != nil {
		t.Fatal(uerr)
	}
	if !errors.Is(err, ErrReentrant) || f.State() != b {
		t.Errorf("Restore from an Enter = %v, then in %s; want ErrReentrant, in b", err, f.Name())
	}
	if err := f.Restore(&Snapshot{State: c, Previous: a}); err != nil || f.State() != c || f.Previous() != a {
		t.Errorf("Restore between updates = %v, in %s; want nil, in c", err, f.Name())
	}
}
