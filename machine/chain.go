package machine

import (
	"errors"
	"fmt"
	"strings"
)

// ErrChainLimit is matched by [errors.Is] against every [*ChainError].
var ErrChainLimit = errors.New("machine: chain limit reached")

// ChainPathMax is how many of the states visited a [ChainError] lists in
// Path: the first ones.
const ChainPathMax = 16

// ChainError reports that one update took as many transitions as its
// machine's chain limit allows and another would still be taken: usually a
// cycle of guards or tests that hold together, such as A → B → A with both
// true. Every runtime that chains returns it: a guarded machine (package
// fsm), a table agent chaining its tests or a statechart its microsteps
// (package table), a table crowd's entity. The transitions in Path were
// all taken, with their actions; the machine is in At, and the next update
// carries on from there.
//
// A ChainError is plain data with the names it prints, so that a tool
// (the viewer, a log) can show it without the machine.
type ChainError struct {
	Kind    Kind      // the runtime: KindGuarded, KindTable or KindStatechart
	Machine string    // the machine's name (a table's), or ""
	Limit   int       // transitions allowed in one update
	Path    []StateID // states visited, the starting state first; at most the first ChainPathMax
	Names   []string  // the names of Path's states
	Visited int       // states visited in all, Limit+1: more than len(Path) in a long chain
	At      StateID   // the state the machine stopped in: the last one visited
	AtName  string    // its name
	// Trigger is the test that still held, an index in the machine's
	// Description.Triggers (a table's TestID), or -1: a guard, or a
	// statechart's pending microstep.
	Trigger     int32
	TriggerName string  // the test's name, or ""
	Next        StateID // where the guard that held leads, for a guarded machine; NoState otherwise
	NextName    string  // its name, or ""
}

// Error names the limit and the states visited, for example
//
//	fsm: 2 transitions in one update and a guard still holds (a guard cycle?): a → b → a, then b; the machine stays in a (check these guards, or raise Graph.ChainLimit)
//	table "spec": 3 transitions in one update and a test still holds (a cycle?): a → b → a → b, then test "x" holds; the agent stays in b (check these tests, or raise Options.ChainLimit)
func (e *ChainError) Error() string {
	var b strings.Builder
	switch {
	case e.Kind == KindGuarded:
		fmt.Fprintf(&b, "fsm: %d transitions in one update and a guard still holds (a guard cycle?): ", e.Limit)
	case e.Trigger >= 0:
		fmt.Fprintf(&b, "table %q: %d transitions in one update and a test still holds (a cycle?): ", e.Machine, e.Limit)
	default:
		fmt.Fprintf(&b, "table %q: %d microsteps in one update and another is still pending (a cycle?): ", e.Machine, e.Limit)
	}
	b.WriteString(strings.Join(e.Names, " → "))
	if more := e.Visited - len(e.Path); more > 0 {
		fmt.Fprintf(&b, " → … (%d more)", more)
	}
	switch {
	case e.Kind == KindGuarded:
		fmt.Fprintf(&b, ", then %s; the machine stays in %s (check these guards, or raise Graph.ChainLimit)", e.NextName, e.AtName)
	case e.Trigger >= 0:
		fmt.Fprintf(&b, ", then test %q holds; the agent stays in %s (check these tests, or raise Options.ChainLimit)", e.TriggerName, e.AtName)
	default:
		fmt.Fprintf(&b, "; the agent stays in %s (check these transitions, or raise Options.ChainLimit)", e.AtName)
	}
	return b.String()
}

// Is makes [errors.Is](err, [ErrChainLimit]) true.
func (e *ChainError) Is(target error) bool { return target == ErrChainLimit }
