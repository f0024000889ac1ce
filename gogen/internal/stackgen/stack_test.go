package stackgen

import (
	"errors"
	"slices"
	"testing"
)

// sentryHost answers Healthy from healthy and records the animations.
type sentryHost struct {
	healthy bool
	anims   []Anim
}

func (h *sentryHost) Healthy() bool { return h.healthy }
func (h *sentryHost) Anim(v Anim)   { h.anims = append(h.anims, v) }

// TestStack takes the sentry through pushes and returns of an atomic
// state, a compound and the whole configuration (parallel regions
// included), and the two errors of the stack, checking after each update
// the active states, Depth and the error: its sentinel and its fields.
func TestStack(t *testing.T) {
	h := &sentryHost{}
	m := NewMachine(h)
	under := func(s State, test Test) *StackError {
		return &StackError{State: s, Test: test, Limit: StackLimit}
	}
	over := func(s State, test Test) *StackError {
		return &StackError{Overflow: true, State: s, Test: test, Limit: StackLimit}
	}
	for i, step := range []struct {
		what    string
		post    []Message
		healthy bool
		active  []State
		depth   int
		err     *StackError
	}{
		{"a return with nothing pushed", []Message{MessageClear}, false, []State{StatePatrol, StateLegA}, 0, under(StateLegA, TestClear)},
		{"to the other leg", []Message{MessageCalm}, false, []State{StatePatrol, StateLegB}, 0, nil},
		{"push the leg", []Message{MessageNoise}, false, []State{StateInvestigate}, 1, nil},
		{"push investigate", []Message{MessageNoise}, false, []State{StateInvestigate}, 2, nil},
		{"a push onto a full stack", []Message{MessageNoise}, false, []State{StateInvestigate}, 2, over(StateInvestigate, TestNoise)},
		{"return to investigate", []Message{MessageClear}, false, []State{StateInvestigate}, 1, nil},
		{"return to the leg, not the patrol's first", []Message{MessageClear}, false, []State{StatePatrol, StateLegB}, 0, nil},
		{"push the patrol", []Message{MessageHit}, false, []State{StateAlert, StateWeapon, StateAim, StateWatch, StateLook}, 1, nil},
		{"both regions move", []Message{MessageNoise}, false, []State{StateAlert, StateWeapon, StateFire, StateWatch, StateListen}, 1, nil},
		{"push everything", []Message{MessageHit}, false, []State{StateStunned}, 2, nil},
		{"a push from the root onto a full stack", []Message{MessageHit}, false, []State{StateStunned}, 2, over(StateStunned, TestHit)},
		{"an eventless return to both regions", nil, true, []State{StateAlert, StateWeapon, StateFire, StateWatch, StateListen}, 1, nil},
		{"a return from a region (fire's; the alert's conflicts)", []Message{MessageClear}, true, []State{StatePatrol, StateLegB}, 0, nil},
		{"a push and its return in one update", []Message{MessageHit, MessageHit}, true, []State{StateAlert, StateWeapon, StateAim, StateWatch, StateLook}, 1, nil},
	} {
		h.healthy = step.healthy
		for _, msg := range step.post {
			if err := m.Post(msg); err != nil {
				t.Fatal(err)
			}
		}
		_, err := m.Update(h)
		if got := m.Active(nil); !slices.Equal(got, step.active) {
			t.Errorf("step %d (%s): Active() = %v, want %v", i, step.what, got, step.active)
		}
		if m.Depth() != step.depth {
			t.Errorf("step %d (%s): Depth() = %d, want %d", i, step.what, m.Depth(), step.depth)
		}
		if step.err == nil {
			if err != nil {
				t.Errorf("step %d (%s): Update() = %v, want no error", i, step.what, err)
			}
			continue
		}
		var se *StackError
		if !errors.As(err, &se) || *se != *step.err {
			t.Errorf("step %d (%s): Update() = %#v, want %#v", i, step.what, err, step.err)
			continue
		}
		sentinel, other := ErrStackUnderflow, ErrStackOverflow
		if step.err.Overflow {
			sentinel, other = other, sentinel
		}
		if !errors.Is(err, sentinel) || errors.Is(err, other) {
			t.Errorf("step %d (%s): %v matches %v: %v, %v: %v; want only the first", i, step.what, err, sentinel, errors.Is(err, sentinel), other, errors.Is(err, other))
		}
	}
}

// TestStackError checks the text of a StackError: the package, the state
// and the test, what went wrong.
func TestStackError(t *testing.T) {
	for _, c := range []struct {
		err  *StackError
		want string
	}{
		{&StackError{State: StateLegA, Test: TestClear, Limit: 2},
			`stackgen: table "sentry": state "legA", test "clear": return with an empty stack (no transition pushed a state to return to); the transition was not taken`},
		{&StackError{Overflow: true, State: StateStunned, Test: TestHit, Limit: 2},
			`stackgen: table "sentry": state "stunned", test "hit": push onto a full stack (2 states; look for a push cycle, or raise the table's stack limit); the transition was not taken`},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

// TestAllocs checks that updates that push and return allocate nothing;
// only an update that returns a StackError allocates it.
func TestAllocs(t *testing.T) {
	h := &sentryHost{}
	m := NewMachine(h)
	n := 0
	script := []Message{MessageNoise, MessageNoise, MessageClear, MessageClear, MessageHit, MessageHit, MessageClear}
	allocs := testing.AllocsPerRun(1000, func() {
		msg := script[n%len(script)]
		h.healthy = msg == MessageClear // the stun ends at once
		n++
		h.anims = h.anims[:0]
		_ = m.Post(msg)
		if _, err := m.Update(h); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Update allocates %v times per call, want 0", allocs)
	}
	if n%len(script) == 0 && m.Depth() != 0 {
		t.Errorf("after %d updates (the script %d times), Depth() = %d, want 0", n, n/len(script), m.Depth())
	}
}
