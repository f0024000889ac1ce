package statesmith

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// Transition is one transition an edge's label stands for: a behaviour of
// the label, with one of its triggers.
type Transition struct {
	// Text is the behaviour as written: the transition's label.
	Text string

	// Event is the trigger as written, or "" for StateSmith's do event,
	// the machine's update ("do", or no trigger). Its spelling is not
	// folded yet: see [Events].
	Event string

	Guard, Action string

	// Else marks the else transition, tried after the others.
	Else bool

	// Order is the order drawn, a key of [importer.RankOrders]: the
	// behaviour's number, [importer.Unordered], or [importer.Else].
	Order float64

	// ViaEntry and ViaExit are the points the transition goes through
	// ([ResolveVias]), or "".
	ViaEntry, ViaExit string
}

// Test is the transition's test, as fsmforge names it: its event, else
// its guard, else "else" for the else transition.
func (t Transition) Test() string {
	switch {
	case t.Event != "":
		return t.Event
	case t.Guard != "":
		return t.Guard
	case t.Else:
		return "else"
	}
	return ""
}

// EdgeTransitions reads the label of an edge of a StateSmith drawing that
// leaves a vertex of kind from ([SourceKind]): one transition per
// behaviour (a line of the label) and per trigger of its trigger list,
// in the label's order, each to the edge's target. An empty label is one
// transition without event, guard or action. A behaviour StateSmith refuses gives no transition but a
// problem: one that does not follow its grammar; "else" with an order, or
// as a trigger with another trigger or a guard; a trigger on the
// transition of a pseudo-state (from is Initial, Choice, EntryPoint,
// ExitPoint, History or HistoryContinue), or on a transition
// "via exit", which leaves from the exit point; "enter", "entry" or
// "exit" as a trigger. It costs one pass over the label.
func EdgeTransitions(label string, from Kind) ([]Transition, []importer.Problem) {
	bs := ParseBehaviors(label)
	if len(bs) == 0 {
		return []Transition{{Order: importer.Unordered}}, nil
	}
	var out []Transition
	var ps []importer.Problem
	refuse := func(b *Behavior, hint, format string, args ...any) {
		ps = append(ps, importer.Problem{Severity: diag.Error, Hint: hint,
			Message: "behaviour " + strconv.Quote(importer.Shorten(b.Text, 60)) + ": " + fmt.Sprintf(format, args...)})
	}
	for i := range bs {
		b := &bs[i]
		if b.Err != "" {
			ps = append(ps, importer.Problem{Severity: diag.Error, Hint: hintGrammar,
				Message: "behaviour " + strconv.Quote(importer.Shorten(b.Text, 60)) + " does not follow StateSmith's grammar: " + b.Err})
			continue
		}
		order, ok := orderKey(b)
		switch {
		case b.ElseTrigger && (b.Order != "" || b.Guard != "" || len(b.Triggers) > 0):
			refuse(b, hintElse, "else with an order, a trigger or a guard")
			continue
		case b.Else && b.Order != "":
			refuse(b, hintElseOrder, "[else] with an order")
			continue
		case !ok:
			refuse(b, hintOrder, "order %q is not a number", b.Order)
			continue
		case b.ViaExit != "" && len(b.Triggers) > 0:
			refuse(b, hintViaExit, "a transition via an exit point leaves from the point, a pseudo-state, so it cannot have a trigger")
			continue
		case from.pseudo() && len(b.Triggers) > 0:
			refuse(b, hintPseudo, "a transition from %s cannot have a trigger", from.article())
			continue
		}
		triggers := b.Triggers
		if len(triggers) == 0 {
			triggers = []string{""}
		}
		for _, ev := range triggers {
			switch strings.ToLower(ev) {
			case "do":
				ev = "" // StateSmith's do event is the machine's update
			case "enter", "entry", "exit":
				refuse(b, hintEnterExit, "a transition cannot be taken on %s", ev)
				continue
			}
			out = append(out, Transition{Text: b.Text, Event: ev, Guard: b.Guard, Action: b.Action, Else: b.Else,
				Order: order, ViaEntry: b.ViaEntry, ViaExit: b.ViaExit})
		}
	}
	return out, ps
}

// orderKey returns the key of [importer.RankOrders] for a behaviour's
// order; ok is false when its order is not a number.
func orderKey(b *Behavior) (key float64, ok bool) {
	switch {
	case b.Else:
		return importer.Else, true
	case b.Order == "":
		return importer.Unordered, true
	}
	o, err := strconv.ParseFloat(b.Order, 64)
	if err != nil || o < 0 {
		return 0, false
	}
	return o, true
}

// SourceKind is what StateSmith makes of a vertex that a transition
// leaves, for [EdgeTransitions], from what its label says (drawn, from
// [ParseVertex]) and the kind the importer gave its state in the chart: a
// state's (a $PARENT_ALIAS stands for one) is State; a pseudo-state's is
// its keyword's kind or, for one told by its style (a black dot, a
// rhombus), Initial or Choice.
func SourceKind(drawn Kind, kind chart.StateKind) Kind {
	switch {
	case kind == chart.NormalState:
		return State
	case drawn != State:
		return drawn
	case kind == chart.StartState:
		return Initial
	case kind == chart.ChoiceState:
		return Choice
	}
	return State
}

// pseudo reports whether a vertex of kind k is a pseudo-state, whose
// transitions StateSmith takes as soon as it is entered.
func (k Kind) pseudo() bool {
	switch k {
	case Initial, Choice, EntryPoint, ExitPoint, History, HistoryContinue:
		return true
	}
	return false
}

// article names a kind of vertex in a sentence: "an $initial_state",
// "an entry point", "a $choice".
func (k Kind) article() string {
	switch k {
	case Initial, EntryPoint, ExitPoint:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// StateHandlers reads the behaviour written in a state below its name
// (Vertex.Behaviour) and returns the events the state handles without a
// transition whose handling stops them from reaching the states around
// it, as StateSmith's generated code does: an event handler does (not
// "enter", "entry" or "exit", nor a trigger that starts with '$' such as
// "$mod"), unless its action sets "consume_event = false;"; a handler of
// the do event (no trigger, or "do") does only when its action uses
// consume_event otherwise: its Event is then "". A guarded handler stops
// the event only when its guard holds: its Guard says so. Each handler's
// State and Pos are left for the importer to set, and its Event's spelling
// for [Events] to fold.
//
// A behaviour that does not follow StateSmith's grammar, or with "else"
// as a trigger (else is only for transitions), or an order with the
// guard "[else]", is a problem and gives no handler. It costs one pass
// over the text.
func StateHandlers(behaviour string) ([]Handler, []importer.Problem) {
	var hs []Handler
	var ps []importer.Problem
	for _, b := range ParseBehaviors(behaviour) {
		text := strconv.Quote(importer.Shorten(b.Text, 60))
		switch {
		case b.Err != "":
			ps = append(ps, importer.Problem{Severity: diag.Error, Hint: hintGrammar,
				Message: "behaviour " + text + " does not follow StateSmith's grammar: " + b.Err})
			continue
		case b.ElseTrigger:
			ps = append(ps, importer.Problem{Severity: diag.Error, Hint: hintElseHandler,
				Message: "behaviour " + text + ": else as a trigger is only valid on a transition"})
			continue
		case b.Else && b.Order != "":
			ps = append(ps, importer.Problem{Severity: diag.Error, Hint: hintElseOrder,
				Message: "behaviour " + text + ": [else] with an order"})
			continue
		}
		consume := consumes(b.Action)
		triggers := b.Triggers
		if len(triggers) == 0 {
			triggers = []string{"do"} // StateSmith's default
		}
		for _, ev := range triggers {
			switch lower := strings.ToLower(ev); {
			case lower == "do" && consume == always:
				hs = append(hs, Handler{Guard: b.Guard, Text: b.Text})
			case lower == "enter" || lower == "entry" || lower == "exit" || lower == "do" || strings.HasPrefix(ev, "$"):
				// Run, not consumed; "$mod" renames states in the code.
			case consume != never:
				hs = append(hs, Handler{Event: ev, Guard: b.Guard, Text: b.Text})
			}
		}
	}
	return hs, ps
}

// consumption says whether a state's behaviour stops the event it handles
// from reaching the states around it.
type consumption uint8

const (
	usual  consumption = iota // an event is consumed, the do event is not
	never                     // "consume_event = false;"
	always                    // "consume_event = true;", or another use of it
)

// consumes reads StateSmith's consume_event variable in a behaviour's
// action. An action that uses it otherwise than setting it to false may
// consume the event: it is taken to.
func consumes(action string) consumption {
	if !strings.Contains(action, "consume_event") {
		return usual
	}
	rest := action
	for _, f := range [...]string{"consume_event = false", "consume_event=false"} {
		rest = strings.ReplaceAll(rest, f, "")
	}
	if !strings.Contains(rest, "consume_event") {
		return never
	}
	return always
}

// Events folds the case of a drawing's events as StateSmith does, whose
// events ignore case: the first spelling met of an event names it for
// all its spellings. The zero value is ready to use; it is not safe for
// concurrent use.
type Events struct {
	first map[string]string // the first spelling, by the lower case
	told  map[string]bool   // the other spellings reported
}

// Name returns the name under which the chart knows event ev: the first
// spelling of it met. The first time another spelling is met, a warning
// says which.
func (e *Events) Name(ev string) (string, []importer.Problem) {
	lower := strings.ToLower(ev)
	first, ok := e.first[lower]
	switch {
	case !ok:
		if e.first == nil {
			e.first = make(map[string]string)
		}
		e.first[lower] = ev
		return ev, nil
	case first != ev && !e.told[ev]:
		if e.told == nil {
			e.told = make(map[string]bool)
		}
		e.told[ev] = true
		return first, []importer.Problem{{Severity: diag.Warning, Hint: hintSpelling,
			Message: "event " + ev + " is read as " + first + ": StateSmith's events ignore case"}}
	}
	return first, nil
}

// SetsTriggerMap reports whether the label of a $CONFIG or $RenderConfig
// vertex sets StateSmith's TriggerMap, which renames or widens the
// drawing's events ("INPUT => *"): a chart read with the events as drawn
// would mean something else.
func SetsTriggerMap(label string) bool {
	return strings.Contains(strings.ToLower(label), "triggermap")
}

// IsStateName reports whether a state's name is one StateSmith's grammar
// reads: an identifier ([$a-zA-Z_][$a-zA-Z_0-9]*), "#" before it making
// it global.
func IsStateName(name string) bool {
	name = strings.TrimPrefix(name, "#")
	for i, c := range []byte(name) {
		if !(c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return name != ""
}
