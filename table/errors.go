package table

import (
	"fmt"
	"strconv"
	"strings"
)

// sentinel is the type of the package's sentinel errors.
type sentinel struct{ reason string }

// Error returns the reason with the package prefix.
func (e *sentinel) Error() string { return "table: " + e.reason }

// Sentinel errors, for [errors.Is]. Building and decoding return [*Error]
// values (in an [ErrorList]) that wrap one of the first six; the runtime
// returns the last five, bare or inside a [*StackError] or [*ChainError].
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

	// ErrChainLimit is matched by every [*ChainError].
	ErrChainLimit error = &sentinel{"chain limit reached"}
)

// Error is one problem found while building or decoding a table.
type Error struct {
	// Offset is the byte offset in the binary data where the problem was
	// found, or -1 when the table did not come from binary data or the
	// problem is with the table as a whole.
	Offset int
	// Where names the part of the table concerned, for example
	// `state "walkLeft", transition 2`; empty for the whole table or file.
	Where string
	// Err is the kind of problem: ErrInvalid, ErrNotTable, ErrVersion,
	// ErrTruncated, ErrChecksum or ErrCorrupt.
	Err error
	// Msg says what is wrong and, where it helps, what to do.
	Msg string
}

// Error returns the problem prefixed by the package and its place, for
// example `table: byte 84: state "walkLeft", transition 2: test #9 is not a
// test of the table (it has 4)`.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("table: ")
	if e.Offset >= 0 {
		b.WriteString("byte ")
		b.WriteString(strconv.Itoa(e.Offset))
		b.WriteString(": ")
	}
	if e.Where != "" {
		b.WriteString(e.Where)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is the problems found while building or decoding a table, in
// the order found; it is never empty when returned as an error, and lists
// at most 50 problems (the 50th then says the rest were not listed).
// [errors.Is] and [errors.As] look into each element.
type ErrorList []*Error

// maxErrors is the most problems an ErrorList holds; a last one says the
// list stopped.
const maxErrors = 50

// Error returns the first problem, followed by "(and N more)" when there
// are others.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "table: no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more)", l[0].Error(), len(l)-1)
}

// Unwrap returns the elements, for [errors.Is] and [errors.As].
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// errs accumulates problems.
type errs struct {
	list ErrorList
	full bool
}

func (x *errs) add(offset int, kind error, where, format string, args ...any) {
	if x.full {
		return
	}
	if len(x.list) == maxErrors-1 {
		x.list = append(x.list, &Error{Offset: -1, Err: kind, Msg: "too many problems; the rest are not listed"})
		x.full = true
		return
	}
	x.list = append(x.list, &Error{Offset: offset, Where: where, Err: kind, Msg: fmt.Sprintf(format, args...)})
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
const chainPathMax = 16

// ChainError reports that a chaining update ([Options.Chain]) took as many
// transitions as its limit allows and a test still held: usually a cycle of
// tests that hold together. The transitions in Path were all taken, with
// their entry actions; the agent is in At, the last state of Path. The next
// update carries on from there.
type ChainError struct {
	Limit   int       // transitions allowed in one update
	Path    []StateID // states visited, the starting state first; at most the first 16
	Visited int       // states visited in all: Limit+1
	At      StateID   // the state the agent stopped in
	Test    TestID    // the test that still held
	Table   *Table    // the agent's table, which names the states and test
}

// Error names the limit and the states visited, for example `table "t": 2
// transitions in one update and a test still holds (a cycle?): a → b → a,
// then test "go" holds; the agent stays in a (check these tests, or raise
// Options.ChainLimit)`.
func (e *ChainError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "table %q: %d transitions in one update and a test still holds (a cycle?): ", e.Table.Name(), e.Limit)
	for i, s := range e.Path {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(e.Table.StateName(s))
	}
	if more := e.Visited - len(e.Path); more > 0 {
		fmt.Fprintf(&b, " → … (%d more)", more)
	}
	fmt.Fprintf(&b, ", then test %q holds; the agent stays in %s (check these tests, or raise Options.ChainLimit)",
		e.Table.testName(e.Test), e.Table.StateName(e.At))
	return b.String()
}

// Is makes errors.Is(err, ErrChainLimit) true.
func (e *ChainError) Is(target error) bool { return target == ErrChainLimit }
