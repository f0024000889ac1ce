package fsm

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

// registry returns a registry of three named states, A, B and C, and a
// global state G.
func registry() (*Behaviors[*actor, string], [4]*named) {
	r := &Behaviors[*actor, string]{Name: "actor"}
	s := [4]*named{{name: "A"}, {name: "B"}, {name: "C"}, {name: "G"}}
	for _, b := range s {
		r.Add(b.name, b)
	}
	return r, s
}

func TestBehaviors(t *testing.T) {
	r, s := registry()
	if r.NumStates() != 4 || r.StateName(1) != "B" || r.StateName(9) != "#9" || r.StateName(NoState) != "none" {
		t.Errorf("NumStates, StateName(1), (9), (NoState) = %d %q %q %q", r.NumStates(), r.StateName(1), r.StateName(9), r.StateName(NoState))
	}
	if id, ok := r.LookupState("C"); !ok || id != 2 {
		t.Errorf("LookupState(C) = %v, %v, want 2, true", id, ok)
	}
	if _, ok := r.LookupState("D"); ok {
		t.Error("LookupState(D) found a state")
	}
	if r.StateOf(s[3]) != 3 || r.StateOf(&named{name: "A"}) != NoState || r.StateOf(nil) != NoState {
		t.Errorf("StateOf(G), StateOf(another A), StateOf(nil) = %s %s %s, want #3 none none", r.StateOf(s[3]), r.StateOf(&named{name: "A"}), r.StateOf(nil))
	}
	if r.Behavior(0) != s[0] || r.Behavior(NoState) != nil {
		t.Error("Behavior(0) is not A, or Behavior(NoState) is not nil")
	}
	// Past 8 states the registry finds them by map.
	var big Behaviors[*actor, string]
	var states []*named
	for i := range 20 {
		states = append(states, &named{name: stateNames[i%8] + strings.Repeat("'", i/8)})
		big.Add(states[i].name, states[i])
	}
	for i, st := range states {
		if id, ok := big.LookupState(st.name); big.StateOf(st) != StateID(i) || !ok || id != StateID(i) {
			t.Errorf("state %d: StateOf = %s, LookupState = %s, %v", i, big.StateOf(st), id, ok)
		}
	}
}

type uncomparable struct {
	NopBehavior[*actor, string]
	f []int
}

func TestBehaviorsAddPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func(r *Behaviors[*actor, string])
		want string
	}{
		{"empty name", func(r *Behaviors[*actor, string]) { r.Add("", &named{}) }, "needs a name"},
		{"nil", func(r *Behaviors[*actor, string]) { r.Add("D", nil) }, "nil state"},
		{"duplicate name", func(r *Behaviors[*actor, string]) { r.Add("A", &named{}) }, `"A" is already`},
		{"duplicate state", func(r *Behaviors[*actor, string]) { r.Add("D", r.Behavior(1)) }, `already registered as "B"`},
		{"uncomparable", func(r *Behaviors[*actor, string]) { r.Add("D", uncomparable{}) }, "not comparable"},
		{"new in no state", func(r *Behaviors[*actor, string]) { r.New(nil, 4) }, "#4 is not a state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := registry()
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("panic %q, want one containing %q", msg, tt.want)
				}
			}()
			tt.f(r)
		})
	}
}

func TestBehaviorMachineRegistered(t *testing.T) {
	r, s := registry()
	a := &actor{}
	var evs []machine.Event
	r.Observe(machine.ObserverFunc(func(ev machine.Event) {
		evs = append(evs, ev)
		a.log = append(a.log, "observed")
	}), func(*actor) uint64 { return 5 })
	m := r.New(a, NoState)
	if m.State() != NoState || m.Current() != nil || m.Behaviors() != r {
		t.Fatalf("a new machine in NoState is in %s (%v)", m.State(), m.Current())
	}
	m.SetGlobal(s[3])
	for _, to := range []*named{s[0], s[1], s[0], s[1], s[2]} {
		if err := m.ChangeState(to); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.RevertToPreviousState(); err != nil {
		t.Fatal(err)
	}
	if m.State() != 1 || m.Current() != s[1] {
		t.Errorf("State() = %s, want #1 (B)", m.State())
	}
	want := []machine.Event{
		{Entity: 5, From: machine.NoState, To: 0, Cause: machine.CauseCall, Trigger: -1, Transition: -1},
		{Entity: 5, From: 0, To: 1, Cause: machine.CauseCall, Trigger: -1, Transition: 0},
		{Entity: 5, From: 1, To: 0, Cause: machine.CauseCall, Trigger: -1, Transition: 1},
		{Entity: 5, From: 0, To: 1, Cause: machine.CauseCall, Trigger: -1, Transition: 0},
		{Entity: 5, From: 1, To: 2, Cause: machine.CauseCall, Trigger: -1, Transition: 2},
		{Entity: 5, From: 2, To: 1, Cause: machine.CauseCall, Trigger: -1, Transition: 3},
	}
	if !slices.Equal(evs, want) {
		t.Errorf("events\n%+v\nwant\n%+v", evs, want)
	}
	if got, want := a.log[:3], []string{"observed", "enter A", "exit A"}; !slices.Equal(got, want) {
		t.Errorf("log starts %q, want %q (reported before Enter)", got, want)
	}
	d := r.Describe()
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range d.Transitions {
		got = append(got, d.StateName(tr.From)+"→"+d.StateName(tr.To[0]))
	}
	if want := []string{"A→B", "B→A", "B→C", "C→B"}; !slices.Equal(got, want) || d.Kind != machine.KindBehavior || d.Name != "actor" || len(d.States) != 4 {
		t.Errorf("Describe() = %s %q, transitions %q; want behavior actor, %q", d.Kind, d.Name, got, want)
	}

	// A state not registered is refused, and nothing changes.
	a.log = nil
	err := m.ChangeState(&named{name: "stranger"})
	if !errors.Is(err, ErrUnregistered) || !strings.Contains(err.Error(), "stranger") || m.State() != 1 || len(a.log) != 0 {
		t.Errorf("ChangeState(stranger) = %v, in %s, ran %q; want ErrUnregistered, in B, nothing run", err, m.State(), a.log)
	}
	func() {
		defer func() {
			if msg, _ := recover().(string); !strings.Contains(msg, "SetCurrent(stranger)") {
				t.Errorf("SetCurrent(stranger) panic %q", msg)
			}
		}()
		m.SetCurrent(&named{name: "stranger"})
	}()

	// Snapshot and restore by ID.
	var snap BehaviorSnapshot
	m.Snapshot(&snap)
	if want := (BehaviorSnapshot{Current: 1, Previous: 2, Global: 3}); snap != want {
		t.Errorf("Snapshot = %+v, want %+v", snap, want)
	}
	m2 := r.New(&actor{}, 0)
	if err := m2.Restore(&snap); err != nil || m2.Current() != s[1] || m2.Previous() != s[2] || m2.Global() != s[3] || m2.State() != 1 {
		t.Errorf("Restore = %v: %v %v %v", err, m2.Current(), m2.Previous(), m2.Global())
	}
	bad := BehaviorSnapshot{Current: 0, Previous: NoState, Global: 4}
	if err := m2.Restore(&bad); err == nil || err.Error() != "fsm: BehaviorMachine.Restore: Global state #4 is not a state of the registry (it has 4)" || m2.State() != 1 {
		t.Errorf("Restore(bad) = %v, in %s; want an error naming Global, still in B", err, m2.State())
	}
	if err := m2.RevertToPreviousState(); err != nil || m2.State() != 2 {
		t.Errorf("after Restore, RevertToPreviousState = %v, in %s; want C", err, m2.State())
	}
	if err := NewBehaviorMachine[*actor, string](a, s[0]).Restore(&snap); err == nil {
		t.Error("Restore on a machine with no registry succeeded")
	}

	// Detached: no more events.
	r.Observe(nil, nil)
	evs = nil
	_ = m.ChangeState(s[0])
	if len(evs) != 0 {
		t.Errorf("detached observer told %v", evs)
	}
}

func TestBehaviorMachineUnregisteredState(t *testing.T) {
	m := NewBehaviorMachine[*actor, string](&actor{}, &named{name: "A"})
	if m.State() != NoState || m.Behaviors() != nil {
		t.Errorf("a machine with no registry: State() = %s", m.State())
	}
	defer func() {
		if recover() == nil {
			t.Error("Snapshot of a machine with no registry did not panic")
		}
	}()
	m.Snapshot(&BehaviorSnapshot{})
}

// TestBehaviorsConcurrent runs machines of one registry on several
// goroutines: the pairs seen are recorded once each (run with -race).
func TestBehaviorsConcurrent(t *testing.T) {
	r := &Behaviors[*actor, string]{}
	var states []*named
	for i := range 12 {
		states = append(states, &named{name: "s" + string(rune('a'+i))})
		r.Add(states[i].name, states[i])
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			m := r.New(&actor{}, 0)
			for i := range 500 {
				if err := m.ChangeState(states[(i*(w+1)+i/12)%12]); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	d := r.Describe()
	seen := map[[2]machine.StateID]bool{}
	for _, tr := range d.Transitions {
		k := [2]machine.StateID{tr.From, tr.To[0]}
		if seen[k] {
			t.Errorf("pair %v listed twice", k)
		}
		seen[k] = true
	}
	if len(seen) == 0 {
		t.Error("no pair seen")
	}
}

func TestBehaviorMachineRegisteredNoAllocs(t *testing.T) {
	type quiet struct {
		NopBehavior[*actor, string]
		n int
	}
	var r Behaviors[*actor, string]
	s := []*quiet{{n: 0}, {n: 1}}
	r.Add("A", s[0])
	r.Add("B", s[1])
	var n int
	r.Observe(machine.ObserverFunc(func(machine.Event) { n++ }), nil)
	m := r.New(&actor{}, 0)
	for _, st := range []*quiet{s[1], s[0]} { // see the pairs once
		if err := m.ChangeState(st); err != nil {
			t.Fatal(err)
		}
	}
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		i++
		if err := m.ChangeState(s[i%2]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || n != 103 {
		t.Errorf("ChangeState allocates %v times, told %d; want 0, 103", allocs, n)
	}
}
