package difftest

import (
	"errors"

	"github.com/fsmforge/fsmforge/table"
)

// GenIDs converts a generated statechart's state and test IDs to the
// table's: they are the same numbers, but for the generated file's own
// Final, NoState and NoTest. Each generated package's ChartMachine adapter
// uses one.
type GenIDs[S, T ~uint8] struct {
	Final, NoState S
	NoTest         T
}

// State returns the table's ID of generated state s.
func (x GenIDs[S, T]) State(s S) table.StateID {
	switch s {
	case x.Final:
		return table.Final
	case x.NoState:
		return table.NoState
	}
	return table.StateID(s)
}

// Result returns a generated Result's fields as a table.Result.
func (x GenIDs[S, T]) Result(from, to S, test T, steps uint16) table.Result {
	id := table.TestID(test)
	if test == x.NoTest {
		id = table.NoTest
	}
	return table.Result{From: x.State(from), To: x.State(to), Test: id, Steps: steps}
}

// AppendStates appends the table's IDs of states to dst.
func (x GenIDs[S, T]) AppendStates(dst []table.StateID, states []S) []table.StateID {
	for _, s := range states {
		dst = append(dst, x.State(s))
	}
	return dst
}

// GenErr describes an error of a generated machine: errQueueFull and
// errChainLimit are the file's, and chain returns the fields of its
// *ChainError (type E).
func GenErr[S, T ~uint8, E error](x GenIDs[S, T], err, errQueueFull, errChainLimit error, chain func(E) (limit int, path []S, visited int, at S)) ChartErr {
	var ce E
	switch {
	case err == nil:
		return ChartErr{}
	case errors.Is(err, errQueueFull):
		return ChartErr{Kind: "queue full"}
	case errors.As(err, &ce):
		if !errors.Is(err, errChainLimit) {
			return ChartErr{Kind: "chain, but not its ErrChainLimit"}
		}
		limit, path, visited, at := chain(ce)
		return ChartErr{Kind: "chain", Limit: limit, Path: x.AppendStates(nil, path), Visited: visited, At: x.State(at)}
	}
	return ChartErr{Kind: "other: " + err.Error()}
}

// Add adds the counts of o to st (not its States).
func (st *ChartStats) Add(o ChartStats) {
	st.Updates += o.Updates
	st.Steps += o.Steps
	st.Finals += o.Finals
	st.QueueFull += o.QueueFull
	st.Chains += o.Chains
	st.Timers += o.Timers
}
