package difftest

import (
	"errors"

	"github.com/fsmforge/fsmforge/machine"
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

// Test returns the table's ID of generated test t.
func (x GenIDs[S, T]) Test(t T) table.TestID {
	if t == x.NoTest {
		return table.NoTest
	}
	return table.TestID(t)
}

// Result returns a generated Result's fields as a table.Result.
func (x GenIDs[S, T]) Result(from, to S, test T, steps uint16) table.Result {
	return table.Result{From: x.State(from), To: x.State(to), Test: x.Test(test), Steps: steps}
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

// GenStackErr describes an error of a generated machine with a stack when
// it is its *StackError (type E): errOverflow and errUnderflow are the
// file's sentinels, and fields returns the error's fields. It reports
// false for any other error (describe it with GenErr).
func GenStackErr[S, T ~uint8, E error](x GenIDs[S, T], err, errOverflow, errUnderflow error, fields func(E) (overflow bool, state S, test T, limit int)) (ChartErr, bool) {
	var se E
	if !errors.As(err, &se) {
		return ChartErr{}, false
	}
	overflow, state, test, limit := fields(se)
	kind := "underflow"
	switch {
	case errors.Is(err, errOverflow) && !errors.Is(err, errUnderflow):
		kind = "overflow"
	case errors.Is(err, errUnderflow) && !errors.Is(err, errOverflow):
	default:
		return ChartErr{Kind: "stack, but not exactly one of its sentinels"}, true
	}
	if overflow != (kind == "overflow") {
		return ChartErr{Kind: "stack, but Overflow does not match its sentinel"}, true
	}
	return ChartErr{Kind: kind, Limit: limit, State: x.State(state), Test: x.Test(test)}, true
}

// Add adds the counts of o to st (not its States).
func (st *ChartStats) Add(o ChartStats) {
	st.Updates += o.Updates
	st.Steps += o.Steps
	st.Finals += o.Finals
	st.QueueFull += o.QueueFull
	st.Chains += o.Chains
	st.Timers += o.Timers
	st.Overflows += o.Overflows
	st.Underflows += o.Underflows
	st.Pushes += o.Pushes
	st.Pops += o.Pops
	st.MaxDepth = max(st.MaxDepth, o.MaxDepth)
	st.Saves += o.Saves
	st.Events += o.Events
	if o.Causes != nil && st.Causes == nil {
		st.Causes = map[machine.Cause]int{}
	}
	for c, n := range o.Causes {
		st.Causes[c] += n
	}
}
