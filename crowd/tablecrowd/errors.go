package tablecrowd

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/crowd"
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
	Err error    // a *table.StackError or a *machine.ChainError, as table.Agent.Update returns them
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
