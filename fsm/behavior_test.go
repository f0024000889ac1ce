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
