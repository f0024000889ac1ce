package fsm

import (
	"slices"
	"testing"
)

type actor struct{ log []string }

// named is a Behavior that logs its calls and handles the messages it lists.
type named struct {
	name    string
	handles string
	// next, if set, is changed to from Execute.
	next *named
	m    **BehaviorMachine[*actor, string]
}

func (s *named) Enter(a *actor) { a.log = append(a.log, "enter "+s.name) }
func (s *named) Execute(a *actor) {
	a.log = append(a.log, "execute "+s.name)
	if s.next != nil {
		(*s.m).ChangeState(s.next)
	}
}
func (s *named) Exit(a *actor) { a.log = append(a.log, "exit "+s.name) }
func (s *named) OnMessage(a *actor, msg string) bool {
	a.log = append(a.log, s.name+" sees "+msg)
	return msg == s.handles
}
func (s *named) String() string { return s.name }

func TestBehaviorMachine(t *testing.T) {
	var m *BehaviorMachine[*actor, string]
	mine := &named{name: "mine", handles: "dig", m: &m}
	bank := &named{name: "bank", m: &m}
	global := &named{name: "global", handles: "bath", m: &m}
	mine.next = bank
	a := &actor{}
	m = NewBehaviorMachine(a, Behavior[*actor, string](mine))
	m.SetGlobal(global)

	check := func(step string, want ...string) {
		t.Helper()
		if !slices.Equal(a.log, want) {
			t.Errorf("%s: calls = %q, want %q", step, a.log, want)
		}
		a.log = nil
	}
	if err := m.Update(); err != nil {
		t.Fatal(err)
	}
	check("Update", "execute global", "execute mine", "exit mine", "enter bank")
	if m.Current() != bank || m.Previous() != mine || m.Global() != global || !m.IsInState(bank) || m.IsInState(mine) {
		t.Errorf("after Update: current %v previous %v", NameOf(m.Current()), NameOf(m.Previous()))
	}

	if err := m.RevertToPreviousState(); err != nil {
		t.Fatal(err)
	}
	check("Revert", "exit bank", "enter mine")
	if m.Current() != mine || m.Previous() != bank {
		t.Errorf("after Revert: current %v previous %v, want mine bank", NameOf(m.Current()), NameOf(m.Previous()))
	}

	tests := []struct {
		msg     string
		handled bool
		calls   []string
	}{
		{"dig", true, []string{"mine sees dig"}},
		{"bath", true, []string{"mine sees bath", "global sees bath"}},
		{"other", false, []string{"mine sees other", "global sees other"}},
	}
	for _, tt := range tests {
		if got := m.HandleMessage(tt.msg); got != tt.handled {
			t.Errorf("HandleMessage(%q) = %v, want %v", tt.msg, got, tt.handled)
		}
		check("HandleMessage("+tt.msg+")", tt.calls...)
	}

	if err := m.ChangeState(nil); err != ErrNilState {
		t.Errorf("ChangeState(nil) = %v, want ErrNilState", err)
	}
	check("ChangeState(nil)")
	if m.Current() != mine || m.Previous() != bank {
		t.Errorf("ChangeState(nil) changed the machine: current %v previous %v", NameOf(m.Current()), NameOf(m.Previous()))
	}
	if m.Owner() != a {
		t.Error("Owner() is not the entity given")
	}
}

func TestBehaviorMachineWithoutState(t *testing.T) {
	a := &actor{}
	global := &named{name: "global"}
	m := NewBehaviorMachine[*actor, string](a, nil)
	m.SetGlobal(global)
	if err := m.Update(); err != ErrNoState {
		t.Errorf("Update() = %v, want ErrNoState", err)
	}
	if err := m.RevertToPreviousState(); err != ErrNoPrevious {
		t.Errorf("RevertToPreviousState() = %v, want ErrNoPrevious", err)
	}
	if len(a.log) != 0 {
		t.Errorf("a machine with no state ran %q", a.log)
	}
	if m.HandleMessage("x") || m.IsInState(global) {
		t.Error("a machine with no current state handled a message or is in a state")
	}
	if want := []string{"global sees x"}; !slices.Equal(a.log, want) {
		t.Errorf("HandleMessage with no current state: calls = %q, want %q", a.log, want)
	}
	a.log = nil
	// The first ChangeState enters without an Exit.
	s := &named{name: "s"}
	if err := m.ChangeState(s); err != nil {
		t.Fatal(err)
	}
	if want := []string{"enter s"}; !slices.Equal(a.log, want) {
		t.Errorf("first ChangeState calls = %q, want %q", a.log, want)
	}
	if m.Previous() != nil {
		t.Errorf("Previous() = %v, want nil", NameOf(m.Previous()))
	}
	if err := m.RevertToPreviousState(); err != ErrNoPrevious {
		t.Errorf("RevertToPreviousState() with a nil previous = %v, want ErrNoPrevious", err)
	}
	m.SetCurrent(global)
	m.SetPrevious(s)
	if m.Current() != global || m.Previous() != s {
		t.Error("SetCurrent/SetPrevious did not set")
	}
}

type sleepy struct{ NopBehavior[*actor, string] }
type generic[T any] struct{ NopBehavior[*actor, string] }

func TestNameOf(t *testing.T) {
	tests := []struct {
		state any
		want  string
	}{
		{nil, "none"},
		{&named{name: "mine"}, "mine"},
		{sleepy{}, "sleepy"},
		{&sleepy{}, "sleepy"},
		{generic[int]{}, "generic"},
		{42, "int"},
	}
	for _, tt := range tests {
		if got := NameOf(tt.state); got != tt.want {
			t.Errorf("NameOf(%#v) = %q, want %q", tt.state, got, tt.want)
		}
	}
}

func TestNopBehavior(t *testing.T) {
	var s Behavior[*actor, string] = sleepy{}
	a := &actor{}
	s.Enter(a)
	s.Execute(a)
	s.Exit(a)
	if s.OnMessage(a, "x") {
		t.Error("NopBehavior handled a message")
	}
}

// hooked is a Behavior whose methods run the hooks that are set.
type hooked struct {
	name                       string
	onEnter, onExecute, onExit func()
	onMessage                  func() bool
}

func (s *hooked) Enter(*actor) {
	if s.onEnter != nil {
		s.onEnter()
	}
}
func (s *hooked) Execute(*actor) {
	if s.onExecute != nil {
		s.onExecute()
	}
}
func (s *hooked) Exit(*actor) {
	if s.onExit != nil {
		s.onExit()
	}
}
func (s *hooked) OnMessage(*actor, string) bool { return s.onMessage != nil && s.onMessage() }
func (s *hooked) String() string                { return s.name }

// TestBehaviorMachineReentrant checks that the calls that would recurse
// without end (Update inside an update, a change of state inside a change
// of state) return ErrReentrant, change nothing, and leave the machine
// working.
func TestBehaviorMachineReentrant(t *testing.T) {
	type machine = BehaviorMachine[*actor, string]
	tests := []struct {
		name string
		// set sets the hooks of a, b and global; the call that must be
		// refused stores its error in *got.
		set func(m *machine, a, b, g *hooked, got *error)
		// run is the outer call, which must succeed.
		run           func(m *machine, a, b *hooked) error
		current, prev string
	}{
		{
			name: "ChangeState(b) from b.Enter",
			set: func(m *machine, a, b, g *hooked, got *error) {
				b.onEnter = func() { *got = m.ChangeState(b) }
			},
			run:     func(m *machine, a, b *hooked) error { return m.ChangeState(b) },
			current: "b", prev: "a",
		},
		{
			name: "ChangeState(a) from a.Exit",
			set: func(m *machine, a, b, g *hooked, got *error) {
				a.onExit = func() { *got = m.ChangeState(a) }
			},
			run:     func(m *machine, a, b *hooked) error { return m.ChangeState(b) },
			current: "b", prev: "a",
		},
		{
			name: "RevertToPreviousState from b.Enter",
			set: func(m *machine, a, b, g *hooked, got *error) {
				b.onEnter = func() { *got = m.RevertToPreviousState() }
			},
			run:     func(m *machine, a, b *hooked) error { return m.ChangeState(b) },
			current: "b", prev: "a",
		},
		{
			name: "RevertToPreviousState from a.Exit during a revert",
			set: func(m *machine, a, b, g *hooked, got *error) {
				m.SetPrevious(b)
				a.onExit = func() { *got = m.RevertToPreviousState() }
			},
			run:     func(m *machine, a, b *hooked) error { return m.RevertToPreviousState() },
			current: "b", prev: "a",
		},
		{
			name: "Update from a.Execute",
			set: func(m *machine, a, b, g *hooked, got *error) {
				a.onExecute = func() { *got = m.Update() }
			},
			run:     func(m *machine, a, b *hooked) error { return m.Update() },
			current: "a", prev: "none",
		},
		{
			name: "Update from global.Execute",
			set: func(m *machine, a, b, g *hooked, got *error) {
				g.onExecute = func() { *got = m.Update() }
			},
			run:     func(m *machine, a, b *hooked) error { return m.Update() },
			current: "a", prev: "none",
		},
		{
			name: "Update from b.Enter",
			set: func(m *machine, a, b, g *hooked, got *error) {
				b.onEnter = func() { *got = m.Update() }
			},
			run:     func(m *machine, a, b *hooked) error { return m.ChangeState(b) },
			current: "b", prev: "a",
		},
		{
			name: "Update from b.Enter after a.Execute changed state",
			set: func(m *machine, a, b, g *hooked, got *error) {
				a.onExecute = func() { m.ChangeState(b) }
				b.onEnter = func() { *got = m.Update() }
			},
			run:     func(m *machine, a, b *hooked) error { return m.Update() },
			current: "b", prev: "a",
		},
		{
			name: "ChangeState(a) from b.OnMessage during b.Enter",
			set: func(m *machine, a, b, g *hooked, got *error) {
				b.onEnter = func() { m.HandleMessage("x") }
				b.onMessage = func() bool { *got = m.ChangeState(a); return true }
			},
			run:     func(m *machine, a, b *hooked) error { return m.ChangeState(b) },
			current: "b", prev: "a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b, g := &hooked{name: "a"}, &hooked{name: "b"}, &hooked{name: "global"}
			m := NewBehaviorMachine[*actor, string](&actor{}, a)
			m.SetGlobal(g)
			var got error
			tt.set(m, a, b, g, &got)
			if err := tt.run(m, a, b); err != nil {
				t.Fatalf("outer call = %v, want nil", err)
			}
			if got != ErrReentrant {
				t.Errorf("inner call = %v, want ErrReentrant", got)
			}
			if NameOf(m.Current()) != tt.current || NameOf(m.Previous()) != tt.prev {
				t.Errorf("after: current, previous = %s, %s, want %s, %s", NameOf(m.Current()), NameOf(m.Previous()), tt.current, tt.prev)
			}
			// The machine keeps working.
			*a, *b, *g = hooked{name: "a"}, hooked{name: "b"}, hooked{name: "global"}
			if err := m.Update(); err != nil {
				t.Errorf("Update() after = %v, want nil", err)
			}
			if err := m.ChangeState(a); err != nil || m.Current() != Behavior[*actor, string](a) {
				t.Errorf("ChangeState(a) after = %v, in %s, want nil, in a", err, NameOf(m.Current()))
			}
		})
	}
}

// TestBehaviorMachinePanic checks that a state that panics leaves the
// machine in a consistent state: changes of state keep working, and updates
// too unless the panic interrupted one.
func TestBehaviorMachinePanic(t *testing.T) {
	type machine = BehaviorMachine[*actor, string]
	tests := []struct {
		name          string
		set           func(m *machine, a, b *hooked)
		run           func(m *machine, b *hooked) error
		current, prev string
		update        error // what Update returns after the panic
	}{
		// Buckland's order: the previous state is recorded before Exit.
		{"a.Exit", func(m *machine, a, b *hooked) { a.onExit = func() { panic("boom") } },
			func(m *machine, b *hooked) error { return m.ChangeState(b) }, "a", "a", nil},
		{"b.Enter", func(m *machine, a, b *hooked) { b.onEnter = func() { panic("boom") } },
			func(m *machine, b *hooked) error { return m.ChangeState(b) }, "b", "a", nil},
		// A panic during Update leaves the machine refusing updates, as a
		// GuardMachine does; changes of state still work.
		{"a.Execute", func(m *machine, a, b *hooked) { a.onExecute = func() { panic("boom") } },
			func(m *machine, b *hooked) error { return m.Update() }, "a", "none", ErrReentrant},
		{"b.Enter from a.Execute", func(m *machine, a, b *hooked) {
			a.onExecute = func() { m.ChangeState(b) }
			b.onEnter = func() { panic("boom") }
		}, func(m *machine, b *hooked) error { return m.Update() }, "b", "a", ErrReentrant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := &hooked{name: "a"}, &hooked{name: "b"}
			m := NewBehaviorMachine[*actor, string](&actor{}, a)
			tt.set(m, a, b)
			func() {
				defer func() {
					if v := recover(); v != "boom" {
						t.Errorf("recover() = %v, want boom", v)
					}
				}()
				tt.run(m, b)
			}()
			if NameOf(m.Current()) != tt.current || NameOf(m.Previous()) != tt.prev {
				t.Errorf("after the panic: current, previous = %s, %s, want %s, %s", NameOf(m.Current()), NameOf(m.Previous()), tt.current, tt.prev)
			}
			*a, *b = hooked{name: "a"}, hooked{name: "b"}
			if err := m.Update(); err != tt.update {
				t.Errorf("Update() after the panic = %v, want %v", err, tt.update)
			}
			if err := m.ChangeState(a); err != nil {
				t.Errorf("ChangeState(a) after the panic = %v, want nil", err)
			}
		})
	}
}
