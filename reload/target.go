package reload

import (
	"iter"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// A Target runs a drawing's table and moves onto a new version of it: the
// game's agents (Agents), a crowd (a *tablecrowd.Crowd is a Target), or
// the game's own binding of test and property IDs by name (Func).
//
// PrepareReload readies the move onto t with m, the mapping from the
// current table's states and tests (its Describe) to t's, in which it
// records the entities it sends to m.Fallback (m.Moved). It changes
// nothing, so that a refused reload leaves every target as it was, and
// returns the commit, which makes the move and cannot fail. Frame calls
// every target's PrepareReload, then, when none failed, every commit, all
// at one frame boundary.
type Target interface {
	PrepareReload(t *table.Table, m *machine.Mapping) (commit func(), err error)
}

// Func is a Target written as a function: the game's step of a reload,
// say binding its host's test and property IDs by name in the new table
// (which fails when the drawing lost a test the game answers).
type Func func(t *table.Table, m *machine.Mapping) (commit func(), err error)

// PrepareReload calls f.
func (f Func) PrepareReload(t *table.Table, m *machine.Mapping) (func(), error) { return f(t, m) }

// Agents returns the Target that moves the agents agents yields (as
// viewer.Each yields a slice's) onto the new table, as
// table.PrepareReload does: each keeps its state, stack, configuration,
// history, queued events and timers, mapped by name; m.Moved numbers
// them in the order agents yields them. The agents must all run the
// drawing's table; with none, the move does nothing; a zero Agent (an
// empty slot of a pool) refuses the version.
//
// Agents moves the agents only. A host that holds the table's test or
// property IDs, looked up by name, must look them up again in the new
// table, whose IDs may differ: run a Func beside Agents that binds them
// and commits the new binding (the package documentation shows one), or
// give the level a PrepareReload that does both, as examples/goomba's
// does. The same holds for a crowd's host.
func Agents[E any](agents iter.Seq[*table.Agent[E]]) Target {
	return Func(func(t *table.Table, m *machine.Mapping) (func(), error) {
		return table.PrepareReload(t, agents, m)
	})
}
