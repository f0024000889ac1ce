// Package diag holds the problems fsmforge's tools find and where they
// are: one positioned list type for every step between a drawing and a
// running machine. The importers (package chart and its format packages),
// the compiler (package compile), tables (package table: building and
// decoding) and the code generator (package gogen) all report a [List] of
// [Diagnostic] values, as the Go parser reports a scanner.ErrorList, so
// that a tool reads and prints them one way whichever step found them.
//
// # Diagnostics
//
// A [Diagnostic] is one problem: its [Pos] (file, page, shape ID and name,
// line and column; any part may be empty), a [Severity] (Error, Warning
// or Note), a message that starts with the name of the package that found
// it ("visio: ...", "table: ..."), a hint for people on what to do, and a
// sentinel error of that package for [errors.Is].
//
// # Lists
//
// A [List] is an error that prints its first error and "(and N more)";
// its warnings and notes travel beside the errors without making it fail.
// [List.Err] is the list as an error when it holds errors, nil otherwise.
// [List.Add] stops a list at [Max] diagnostics, the last saying that the
// rest were left out, so that a hostile file cannot make a tool keep
// millions of them. [List.Sort] orders a list by position.
package diag
