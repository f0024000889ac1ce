package statesmith

import "github.com/fsmforge/fsmforge/chart"

// Problem is something this package found in a StateSmith drawing that
// StateSmith refuses, or that a chart cannot say. The importer words it
// as one of its diagnostics: its prefix ("drawio: ") and what the problem
// is about ("edge e1: ") before Message, Pos (or, when Pos is zero, the
// position of the shape it read), and Hint in its own style.
type Problem struct {
	Severity chart.Severity

	// Pos is where the problem is, for the checks of a chart (ResolveVias,
	// CheckHandlers...); zero for the problems of a label, which are at
	// the shape that holds it.
	Pos chart.Pos

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
func AppendDiagnostics(ds chart.Diagnostics, ps []Problem, prefix, about string, at chart.Pos, hint func(string) string) chart.Diagnostics {
	for _, p := range ps {
		d := chart.Diagnostic{Pos: p.Pos, Severity: p.Severity, Message: prefix + about + p.Message, Hint: p.Hint}
		if p.Pos == (chart.Pos{}) {
			d.Pos = at
		}
		if hint != nil {
			d.Hint = hint(p.Hint)
		}
		ds = append(ds, d)
	}
	return ds
}

// The hints of the problems, as StateSmith's designers read them.
const (
	hintGrammar     = "write the behaviour as StateSmith reads it: order. trigger [guard] / action"
	hintElse        = "an else transition has no order of its own, and else as a trigger takes no other trigger or guard: it is tried after all the others"
	hintElseOrder   = "remove the order: an [else] transition is tried after all the others"
	hintElseHandler = "draw the else as a transition, or write the guard [else] instead"
	hintOrder       = `write the order as a number: "2. EVENT"`
	hintViaExit     = "remove the trigger, and put it on the transitions that enter the exit point"
	hintPseudo      = "remove the trigger: the transitions of a pseudo-state are taken as soon as it is entered, when their guard holds"
	hintEnterExit   = "an enter or exit behaviour belongs in the state's label, not on a transition"
	hintSpelling    = "write each event with one spelling"
	hintDo          = "remove consume_event, or draw the transition on each state inside that should take it"
	hintEnterStart  = "draw the transition to the state it should enter"
	hintChoice      = "draw one transition from it, without a label, to a choice (a diamond, or $choice), and the branches from the choice"
	hintCode        = "no code from the drawing is run: a state's entry actions come from a stencil's properties, and the game does the rest"
	hintTwice       = "give each entry or exit point of a state its own label"
	hintRegion      = "draw the $ORTHO regions inside the state that runs them in parallel"
	hintNotRegion   = "draw it inside one of the regions, or label it \"$ORTHO : NAME\" to make it a region"
	hintRegionOrder = "write the order as a number: \"$ORTHO 2 : NAME\""
	hintHistory     = "draw one transition, without a label, from the $H to the state to enter while the state has no history yet"
)
