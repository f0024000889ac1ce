package tablecrowd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/table"
)

// Error is what [Crowd.Step] returns when something went wrong in a step
// that otherwise completed: entities' updates that stopped with an error
// (each entity stays where its update stopped, as an agent does), and adds
// that could not be carried out.
type Error struct {
	// Failed is how many entities' updates stopped with an error.
	Failed int
	// First holds the first few of them (at most 8), in order of entity ID.
	First []Failure
	// Adds holds the errors of the adds asked for during the step that were
	// not carried out, and the error of the machine's own step, if any.
	Adds []error
}

// Failure is an entity's update that stopped with an error.
type Failure struct {
	ID  crowd.ID // the entity
	Err error    // a *table.StackError or a *table.ChainError, as table.Agent.Update returns them
}

// Error returns the first failed update and the failed adds, for example
// `tablecrowd: step: entity 7: table "guard": state "patrol", test
// "alarm": return with an empty stack (...); the transition was not taken
// (and 2 more failed updates)`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("tablecrowd: step: ")
	if len(e.First) > 0 {
		fmt.Fprintf(&b, "entity %d: %v", e.First[0].ID, e.First[0].Err)
		if more := e.Failed - 1; more > 0 {
			fmt.Fprintf(&b, " (and %d more failed update", more)
			if more > 1 {
				b.WriteByte('s')
			}
			b.WriteByte(')')
		}
	}
	for i, err := range e.Adds {
		if len(e.First) > 0 || i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

// Unwrap returns the errors of First and Adds, so that [errors.Is] finds
// [table.ErrStackOverflow] and the others.
func (e *Error) Unwrap() []error {
	errs := make([]error, 0, len(e.First)+len(e.Adds))
	for _, f := range e.First {
		errs = append(errs, f.Err)
	}
	return append(errs, e.Adds...)
}

// protos makes the *table.StackError and *table.ChainError values that a
// failed update returns.
//
// Package table does not export a way to make them outside it: their
// Error method names the table's states and tests through an unexported
// field. Until it does (a Table field, or constructors), a crowd takes one
// error of each kind from an agent running a small table made for the
// purpose, with the crowd's table's name, states and tests, and copies it,
// setting the exported fields: the message is the one an agent of the
// crowd's table would give, and errors.Is matches the same sentinels. The
// tables are made on the first failed update of each kind, on the
// goroutine that called Step, and cost what building the crowd's table
// costs.
type protos struct {
	stack *table.StackError
	chain *table.ChainError
}

// stackError returns the StackError of a transition on test from state
// that pushed onto a full stack (overflow) or returned with an empty one.
func (p *protos) stackError(t *table.Table, overflow bool, state table.StateID, test table.TestID, limit int) error {
	if p.stack == nil {
		p.stack = makeStackProto(t)
	}
	if p.stack == nil { // not reached: the failed transition has a test, so the table has one
		return fmt.Errorf("tablecrowd: table %q: state %q, test %q: a stack error (overflow %t, limit %d)", t.Name(), t.StateName(state), t.Test(test), overflow, limit)
	}
	e := *p.stack
	e.Overflow, e.State, e.Test, e.Limit = overflow, state, test, limit
	return &e
}

// chainError returns the ChainError of a chain that took limit
// transitions along path and found test holding in at.
func (p *protos) chainError(t *table.Table, limit int, path []table.StateID, visited int, at table.StateID, test table.TestID) error {
	if p.chain == nil {
		p.chain = makeChainProto(t)
	}
	if p.chain == nil { // not reached: a chain that reached its limit needs a polled test, or two messages
		return fmt.Errorf("tablecrowd: table %q: %d transitions in one update and test %q still holds; the entity stays in %s", t.Name(), limit, t.Test(test), t.StateName(at))
	}
	e := *p.chain
	e.Limit, e.Path, e.Visited, e.At, e.Test = limit, path, visited, at, test
	return &e
}

// mirror returns a Builder for a table with t's name, states and tests
// (same IDs), and no transitions.
func mirror(t *table.Table) *table.Builder {
	b := &table.Builder{Name: t.Name()}
	for q := range table.StateID(t.NumStates()) {
		b.AddState(t.StateName(q))
	}
	for id := range table.TestID(t.NumTests()) {
		if tt := t.Test(id); tt.Message {
			b.AddMessage(tt.Name, tt.Value)
		} else {
			b.AddTest(tt.Name, tt.Value)
		}
	}
	return b
}

// yes answers every polled test: it holds.
type yes struct{}

func (yes) Test(struct{}, table.TestID) bool             { return true }
func (yes) Do(struct{}, table.PropertyID, table.ValueID) {}

// makeStackProto returns a StackError of t's mirror: test 0 returns from
// state 0 with an empty stack. It returns nil if t has no test.
func makeStackProto(t *table.Table) *table.StackError {
	if t.NumTests() == 0 {
		return nil
	}
	b := mirror(t)
	b.AddTransition(table.Transition{From: 0, Test: 0, To: table.Return})
	var se *table.StackError
	errors.As(update(b, 0), &se)
	return se
}

// makeChainProto returns a ChainError of t's mirror with chain limit 1:
// state 0 goes to itself on a polled test (which always holds), or on two
// messages (both posted). It returns nil if t has neither.
func makeChainProto(t *table.Table) *table.ChainError {
	var polled, msgs []table.TestID
	for id := range table.TestID(t.NumTests()) {
		if t.Test(id).Message {
			msgs = append(msgs, id)
		} else {
			polled = append(polled, id)
		}
	}
	var tests []table.TestID
	switch {
	case len(polled) > 0:
		tests = polled[:1]
	case len(msgs) >= 2:
		tests = msgs[:2]
	default:
		return nil
	}
	b := mirror(t)
	b.Options = table.Options{Chain: true, ChainLimit: 1}
	for _, id := range tests {
		b.AddTransition(table.Transition{From: 0, Test: id, To: 0})
	}
	var ce *table.ChainError
	errors.As(update(b, tests...), &ce)
	return ce
}

// update builds b's table, makes an agent in state 0, posts it the
// messages among tests, updates it once and returns the update's error.
func update(b *table.Builder, tests ...table.TestID) error {
	t, err := b.Build()
	if err != nil {
		return err
	}
	a := table.NewAgent[struct{}](t, struct{}{}, yes{})
	for _, id := range tests {
		if t.Test(id).Message {
			if err := a.Post(id); err != nil {
				return err
			}
		}
	}
	_, err = a.Update(yes{})
	return err
}
