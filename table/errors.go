package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
)

// sentinel is the type of the package's sentinel errors.
type sentinel struct{ reason string }

// Error returns the reason with the package prefix.
func (e *sentinel) Error() string { return "table: " + e.reason }

// Sentinel errors, for [errors.Is]. Building and decoding return a [diag.List]
// whose diagnostics wrap one of the first six; the runtime
// returns the others, bare or inside a [*StackError]; a chain that
// reaches its limit is a [*machine.ChainError], which matches
// [machine.ErrChainLimit].
var (
	// ErrInvalid: the table is well formed but does not make sense: an index
	// out of range, a duplicate name, a destination table that disagrees
	// with the states' transitions. From Build and from both decoders.
	ErrInvalid error = &sentinel{"invalid table"}

	// ErrNotTable: the data does not start with the table magic "FSMT".
	ErrNotTable error = &sentinel{"not a table file"}

	// ErrVersion: the file is a table of a format version (or with header
	// flags) this package does not read.
	ErrVersion error = &sentinel{"unsupported table format version"}

	// ErrTruncated: the data ends before the length its header gives, or a
	// section runs past the end.
	ErrTruncated error = &sentinel{"truncated table file"}

	// ErrChecksum: the CRC-32 at the end of the file does not match its
	// contents: the file was damaged.
	ErrChecksum error = &sentinel{"table file checksum mismatch"}

	// ErrCorrupt: the file's checksum matches but its sections are
	// malformed: a wrong section tag, a length that disagrees with the
	// contents, a reserved byte that is not zero.
	ErrCorrupt error = &sentinel{"malformed table file"}

	// ErrNoTable is returned by the methods of a zero [Agent], which has no
	// table: make agents with [NewAgent] or [RestoreAgent].
	ErrNoTable error = &sentinel{"agent has no table (make it with NewAgent or RestoreAgent)"}

	// ErrReentrant is returned by [Agent.Update] and [Agent.Receive] when
	// they are called from inside the same agent's update (from the host's
	// Test or Do), which would otherwise recurse. The agent is unchanged,
	// except that a message given to Receive is kept for the next update. An
	// agent whose host panicked in an update keeps returning it.
	ErrReentrant error = &sentinel{"agent updated from inside its own update (from the host's Test or Do, or after one of them panicked)"}

	// ErrNotMessage is returned by [Agent.Post] and [Agent.Receive] for a
	// TestID that is not a message test of the agent's table.
	ErrNotMessage error = &sentinel{"not a message test of the agent's table"}

	// ErrQueueFull is returned by [Agent.Post] and by updates of a
	// statechart agent when an event finds its queue full, or a send
	// finds as many sends pending as [Options.TimerLimit] allows: the
	// event is dropped.
	ErrQueueFull error = &sentinel{"event queue full"}

	// ErrStackOverflow and ErrStackUnderflow are matched by the
	// [*StackError] of a transition that pushes onto a full stack or returns
	// with an empty one.
	ErrStackOverflow  error = &sentinel{"stack overflow"}
	ErrStackUnderflow error = &sentinel{"stack underflow"}
)

// problem returns the diagnostic of a problem of kind kind (one of the
// sentinels above) found in the part of the table where names (empty for
// the table as a whole) and, for binary data, at byte offset (or -1):
// `table: byte 84: state "walkLeft", transition 2: test #9 is not a test
// of the table (it has 4)`.
func problem(offset int, kind error, where, msg string) diag.Diagnostic {
	var b strings.Builder
	b.WriteString("table: ")
	if offset >= 0 {
		b.WriteString("byte ")
		b.WriteString(strconv.Itoa(offset))
		b.WriteString(": ")
	}
	if where != "" {
		b.WriteString(where)
		b.WriteString(": ")
	}
	b.WriteString(msg)
	return diag.Diagnostic{Message: b.String(), Err: kind}
}

// errs accumulates problems, up to diag.Max.
type errs struct{ list diag.List }

func (x *errs) add(offset int, kind error, where, format string, args ...any) {
	if !x.list.Full() {
		x.list.Add(problem(offset, kind, where, fmt.Sprintf(format, args...)))
	}
}

func (x *errs) invalid(where, format string, args ...any) {
	x.add(-1, ErrInvalid, where, format, args...)
}

func (x *errs) err() error {
	if len(x.list) == 0 {
		return nil
	}
	return x.list
}

// StackError reports a transition that was not taken because it pushed
// onto a full stack ([ErrStackOverflow]) or returned with an empty one
// ([ErrStackUnderflow]). The agent stays in State; the message flags the
// update saw are cleared.
type StackError struct {
	Overflow bool    // true: push onto a full stack; false: return with an empty one
	State    StateID // the state the transition leaves
	Test     TestID  // the transition's test
	Limit    int     // the stack limit
	Table    *Table  // the agent's table, which names the state and test
}

// Error names the table, the state and the test, for example
// `table "guard": state "patrol", test "alarm": return with an empty stack
// (no transition pushed a state to return to); the transition was not taken`.
func (e *StackError) Error() string {
	head := fmt.Sprintf("table %q: state %q, test %q: ", e.Table.Name(), e.Table.StateName(e.State), e.Table.testName(e.Test))
	if e.Overflow {
		return head + fmt.Sprintf("push onto a full stack (%d states; raise Options.StackLimit, at most %d, or look for a push cycle); the transition was not taken", e.Limit, MaxStack)
	}
	return head + "return with an empty stack (no transition pushed a state to return to); the transition was not taken"
}

// Is makes errors.Is(err, ErrStackOverflow) or errors.Is(err,
// ErrStackUnderflow) true, as the case may be.
func (e *StackError) Is(target error) bool {
	if e.Overflow {
		return target == ErrStackOverflow
	}
	return target == ErrStackUnderflow
}

// chainPathMax is how many visited states a ChainError names: the first ones.
const chainPathMax = machine.ChainPathMax

// chainError returns the error of a chaining update of an agent of t
// ([Options.Chain]) that took limit transitions, visiting path (its first
// states) and visited states in all, and stopped in at with test still
// holding, or with a microstep pending (test NoTest): a
// [*machine.ChainError] that names them.
func (t *Table) chainError(limit int, path []StateID, visited int, at StateID, test TestID) *machine.ChainError {
	e := &machine.ChainError{Kind: machine.KindTable, Machine: t.Name(), Limit: limit, Path: make([]machine.StateID, len(path)), Names: make([]string, len(path)),
		Visited: visited, At: machineState(at), AtName: t.StateName(at), Trigger: -1, Next: machine.NoState}
	for i, id := range path {
		e.Path[i], e.Names[i] = machineState(id), t.StateName(id)
	}
	if t.Statechart() {
		e.Kind = machine.KindStatechart
	}
	if test != NoTest {
		e.Trigger, e.TriggerName = int32(test), t.testName(test)
	}
	return e
}
