package importer

import "github.com/fsmforge/fsmforge/diag"

// Problem is something a check the importers share (this package's, and
// package internal/statesmith's) found in a drawing: what a chart cannot
// say, or what the drawing's tool refuses. The importer words it as one
// of its diagnostics ([AppendDiagnostics]): its prefix ("drawio: ") and
// what the problem is about ("edge e1: ") before Message, Pos (or, when
// Pos is zero, the position of the shape it read), and Hint in its own
// style.
type Problem struct {
	Severity diag.Severity

	// Pos is where the problem is, for the checks of a chart
	// ([CheckNesting], statesmith.ResolveVias...); zero for the problems
	// of a label, which are at the shape that holds it.
	Pos diag.Pos

	// Message says what is wrong, in lower case, without a prefix:
	// `behaviour "EV1 EV2" does not follow StateSmith's grammar: ...`.
	Message string

	// Hint says what to do about it, in lower case, without a final
	// period; "" for a note.
	Hint string
}

// AppendDiagnostics appends problems ps to ds as an importer's
// diagnostics, and returns the extended list: each message is prefix
// (the importer's, "drawio: "), about (what the problems are about,
// `state "A": `, or "") and the problem's Message; a problem without a
// position of its own is at at; hint, when not nil, writes each hint in
// the importer's style.
func AppendDiagnostics(ds diag.List, ps []Problem, prefix, about string, at diag.Pos, hint func(string) string) diag.List {
	for _, p := range ps {
		d := diag.Diagnostic{Pos: p.Pos, Severity: p.Severity, Message: prefix + about + p.Message, Hint: p.Hint}
		if p.Pos == (diag.Pos{}) {
			d.Pos = at
		}
		if hint != nil {
			d.Hint = hint(p.Hint)
		}
		ds = append(ds, d)
	}
	return ds
}
