// Package stackgen is a statechart that uses the pushdown stack as
// generated Go code: sentry_fsm.go is what gogen writes for
// fixtures.Sentry (pushes of an atomic, a compound and the root's whole
// configuration, returns into a parallel state, a stack of 2 that
// overflows, a return with an empty stack). Its tests run it against
// table.Agent and check the stack's API: Depth, StackError,
// ErrStackOverflow and ErrStackUnderflow.
package stackgen
