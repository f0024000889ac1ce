// Package oddgen is a chaining table with awkward names (Go keywords,
// leading digits, spaces, punctuation, accents, symbols) as generated Go
// code: odd_fsm.go is what gogen writes for fixtures.Odd with
// Options.Prefix "Odd" and no Options.Host, so that its machine calls the
// OddHost interface. Its tests run it against table.Agent.
package oddgen
