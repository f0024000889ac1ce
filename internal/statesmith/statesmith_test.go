package statesmith

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

func TestParseVertex(t *testing.T) {
	tests := []struct {
		label string
		want  Vertex
	}{
		{"ON1\nenter / light_on1();", Vertex{Kind: State, Name: "ON1", Behaviour: "enter / light_on1();"}},
		{"  OFF  ", Vertex{Kind: State, Name: "OFF"}},
		{"$initial_state", Vertex{Kind: Initial}},
		{"$Initial_State", Vertex{Kind: Initial}},
		{"$choice", Vertex{Kind: Choice}},
		{"$choice: check", Vertex{Kind: Choice, Name: "check"}},
		{"$choice : 2", Vertex{Kind: Choice, Name: "2"}},
		{"$choices", Vertex{Kind: State, Name: "$choices"}},
		{"entry : from_back", Vertex{Kind: EntryPoint, Name: "from_back"}},
		{"entry: 1", Vertex{Kind: EntryPoint, Name: "1"}},
		{"exit : FOOD_SELECTED", Vertex{Kind: ExitPoint, Name: "FOOD_SELECTED"}},
		{"exit\n:\ndone", Vertex{Kind: ExitPoint, Name: "done"}},
		{"exit", Vertex{Kind: State, Name: "exit"}},
		{"$H", Vertex{Kind: History}},
		{"$h", Vertex{Kind: History}},
		{"$HC", Vertex{Kind: HistoryContinue}},
		{"$NOTES", Vertex{Kind: Notes}},
		{"$NOTES MENU is a collapsed group", Vertex{Kind: Notes}},
		{"$notes\nanything", Vertex{Kind: Notes}},
		{"$CONFIG: toml\n[RenderConfig]", Vertex{Kind: Config, Name: "toml"}},
		{"$RenderConfig", Vertex{Kind: RenderConfig}},
		{"$STATEMACHINE: LightSm", Vertex{Kind: Machine, Name: "LightSm"}},
		{"$STATEMACHINE : Ui\nEV / x++;", Vertex{Kind: Machine, Name: "Ui", Behaviour: "EV / x++;"}},
		{"$ORTHO 1 : BASIC", Vertex{Kind: Ortho, Name: "BASIC", Order: "1"}},
		{"$ORTHO26.7:ARMS\nEV / x++;", Vertex{Kind: Ortho, Name: "ARMS", Order: "26.7", Behaviour: "EV / x++;"}},
		{"$ORTHO : LEGS", Vertex{Kind: Ortho, Name: "LEGS"}},
		{"$ortho_state", Vertex{Kind: Ortho}},
		{"$PARENT_ALIAS", Vertex{Kind: ParentAlias}},
		{"\u00a0 $initial_state", Vertex{Kind: Initial}},
		{"\n Exit : 2", Vertex{Kind: ExitPoint, Name: "2"}},
		{"ENTRY:x", Vertex{Kind: EntryPoint, Name: "x"}},
		{"enter / x();", Vertex{Kind: State, Name: "enter / x();"}},
		{"", Vertex{Kind: State}},
	}
	for _, tt := range tests {
		if got := ParseVertex(tt.label); got != tt.want {
			t.Errorf("ParseVertex(%q) = %+v, want %+v", tt.label, got, tt.want)
		}
		if got, want := IsKeyword(tt.label), tt.want.Kind != State; got != want {
			t.Errorf("IsKeyword(%q) = %v, want %v", tt.label, got, want)
		}
	}
}

func TestParseBehaviors(t *testing.T) {
	tests := []struct {
		text string
		want []Behavior
	}{
		{"EV1", []Behavior{{Text: "EV1", Triggers: []string{"EV1"}}}},
		{"2. INCREASE [count >= 3]", []Behavior{{Text: "2. INCREASE [count >= 3]", Order: "2", Triggers: []string{"INCREASE"}, Guard: "count >= 3"}}},
		{"1.5. EV", []Behavior{{Text: "1.5. EV", Order: "1.5", Triggers: []string{"EV"}}}},
		{"3.EV", []Behavior{{Text: "3.EV", Order: "3", Triggers: []string{"EV"}}}},
		{"else", []Behavior{{Text: "else", Else: true, ElseTrigger: true}}},
		{"[else]", []Behavior{{Text: "[else]", Else: true}}},
		{"[ count > 3 ] / { x = 1; }", []Behavior{{Text: "[ count > 3 ] / { x = 1; }", Guard: "count > 3", Action: "x = 1;"}}},
		{"(EV1, EV2) / go()", []Behavior{{Text: "(EV1, EV2) / go()", Triggers: []string{"EV1", "EV2"}, Action: "go()"}}},
		{"via exit FOOD_SELECTED", []Behavior{{Text: "via exit FOOD_SELECTED", ViaExit: "FOOD_SELECTED"}}},
		{"BACK via entry from_back", []Behavior{{Text: "BACK via entry from_back", Triggers: []string{"BACK"}, ViaEntry: "from_back"}}},
		{"EV / a(); via exit 1", []Behavior{{Text: "EV / a(); via exit 1", Triggers: []string{"EV"}, Action: "a();", ViaExit: "1"}}},
		{"NEXT / { }\n[ t1_ms() > 2000 ] / { }", []Behavior{
			{Text: "NEXT / { }", Triggers: []string{"NEXT"}},
			{Text: "[ t1_ms() > 2000 ] / { }", Guard: "t1_ms() > 2000"},
		}},
		{"EV / {\n  a();\n  b();\n}", []Behavior{{Text: "EV / {\n  a();\n  b();\n}", Triggers: []string{"EV"}, Action: "a();\n  b();"}}},
		{"EV1\nvia exit done", []Behavior{{Text: "EV1 via exit done", Triggers: []string{"EV1"}, ViaExit: "done"}}},
		{"enter / light_on1();\nexit / off();", []Behavior{
			{Text: "enter / light_on1();", Triggers: []string{"enter"}, Action: "light_on1();"},
			{Text: "exit / off();", Triggers: []string{"exit"}, Action: "off();"},
		}},
		{"EV [x", []Behavior{{Text: "EV [x", Triggers: []string{"EV"}, Guard: "x", Err: "its guard's '[' is not closed by ']'"}}},
		{"EV1 EV2", []Behavior{{Text: "EV1 EV2", Triggers: []string{"EV1"}, Err: `unexpected text "EV2"`}}},
		{"\n\n", nil},
	}
	for _, tt := range tests {
		if got := ParseBehaviors(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseBehaviors(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestEdgeTransitions(t *testing.T) {
	un := importer.Unordered
	tests := []struct {
		label    string
		from     Kind
		want     []Transition
		problems []string // the start of each problem's message
	}{
		{"", State, []Transition{{Order: un}}, nil},
		{"EV", State, []Transition{{Text: "EV", Event: "EV", Order: un}}, nil},
		{"do [t > 2]", State, []Transition{{Text: "do [t > 2]", Guard: "t > 2", Order: un}}, nil},
		{"2. (A, B) / go()", State, []Transition{
			{Text: "2. (A, B) / go()", Event: "A", Action: "go()", Order: 2},
			{Text: "2. (A, B) / go()", Event: "B", Action: "go()", Order: 2}}, nil},
		{"EV [else]", State, []Transition{{Text: "EV [else]", Event: "EV", Else: true, Order: importer.Else}}, nil},
		{"else", Choice, []Transition{{Text: "else", Else: true, Order: importer.Else}}, nil},
		{"[x]", Initial, []Transition{{Text: "[x]", Guard: "x", Order: un}}, nil},
		{"BACK via entry 1", State, []Transition{{Text: "BACK via entry 1", Event: "BACK", ViaEntry: "1", Order: un}}, nil},
		{"via exit done", State, []Transition{{Text: "via exit done", ViaExit: "done", Order: un}}, nil},
		{"(EV, else)", State, nil, []string{`behaviour "(EV, else)": else with an order, a trigger or a guard`}},
		{"1. else", State, nil, []string{`behaviour "1. else": else with an order`}},
		{"else [x]", State, nil, []string{`behaviour "else [x]": else with an order`}},
		{"1. [else]", State, nil, []string{`behaviour "1. [else]": [else] with an order`}},
		{"GO via exit 1", State, nil, []string{`behaviour "GO via exit 1": a transition via an exit point`}},
		{"EV", Initial, nil, []string{`behaviour "EV": a transition from an $initial_state cannot have a trigger`}},
		{"do", Choice, nil, []string{`behaviour "do": a transition from a $choice cannot have a trigger`}},
		{"EV", ExitPoint, nil, []string{`behaviour "EV": a transition from an exit point cannot have a trigger`}},
		{"(entry, EV)", State, []Transition{{Text: "(entry, EV)", Event: "EV", Order: un}},
			[]string{`behaviour "(entry, EV)": a transition cannot be taken on entry`}},
		{"EV1 EV2\nOK", State, []Transition{{Text: "OK", Event: "OK", Order: un}},
			[]string{`behaviour "EV1 EV2" does not follow StateSmith's grammar: unexpected text "EV2"`}},
	}
	for _, tt := range tests {
		got, ps := EdgeTransitions(tt.label, tt.from)
		if !sameTransitions(got, tt.want) {
			t.Errorf("EdgeTransitions(%q, %v) = %+v, want %+v", tt.label, tt.from, got, tt.want)
		}
		checkProblems(t, fmt.Sprintf("EdgeTransitions(%q, %v)", tt.label, tt.from), ps, tt.problems)
	}
}

// sameTransitions compares transitions, whose orders may be NaN.
func sameTransitions(a, b []Transition) bool {
	return slices.EqualFunc(a, b, func(x, y Transition) bool {
		ox, oy := x.Order, y.Order
		x.Order, y.Order = 0, 0
		return reflect.DeepEqual(x, y) && (ox == oy || math.IsNaN(ox) && math.IsNaN(oy))
	})
}

// checkProblems checks that each problem's message starts as one of want
// does, in order, and that errors and warnings have hints.
func checkProblems(t *testing.T, call string, ps []importer.Problem, want []string) {
	t.Helper()
	if len(ps) != len(want) {
		t.Errorf("%s: %d problems %+v, want %d", call, len(ps), ps, len(want))
		return
	}
	for i, p := range ps {
		if !strings.HasPrefix(p.Message, want[i]) {
			t.Errorf("%s: problem %d = %q, want %q...", call, i, p.Message, want[i])
		}
		if p.Hint == "" && p.Severity != diag.Note {
			t.Errorf("%s: problem %q has no hint", call, p.Message)
		}
	}
}

func TestSourceKind(t *testing.T) {
	for _, tt := range []struct {
		drawn Kind
		kind  chart.StateKind
		want  Kind
	}{
		{State, chart.NormalState, State}, {ParentAlias, chart.NormalState, State}, {EntryPoint, chart.ChoiceState, EntryPoint},
		{Initial, chart.StartState, Initial}, {State, chart.StartState, Initial}, {State, chart.ChoiceState, Choice}, {State, chart.EndState, State},
	} {
		if got := SourceKind(tt.drawn, tt.kind); got != tt.want {
			t.Errorf("SourceKind(%v, %v) = %v, want %v", tt.drawn, tt.kind, got, tt.want)
		}
	}
}

func TestStateHandlers(t *testing.T) {
	tests := []struct {
		behaviour string
		want      []Handler
		problems  []string
	}{
		{"enter / on();\nexit / off();\nentry / x();\ndo / tick();", nil, nil},
		{"EV / count++;", []Handler{{Event: "EV", Text: "EV / count++;"}}, nil},
		{"EV [x > 1] / count++;", []Handler{{Event: "EV", Guard: "x > 1", Text: "EV [x > 1] / count++;"}}, nil},
		{"(A, enter, B)", []Handler{{Event: "A", Text: "(A, enter, B)"}, {Event: "B", Text: "(A, enter, B)"}}, nil},
		{"EV / consume_event = false;", nil, nil},
		{"EV / consume_event=false; log();", nil, nil},
		{"EV / consume_event = x > 2;", []Handler{{Event: "EV", Text: "EV / consume_event = x > 2;"}}, nil},
		{"$mod / prefix.auto();", nil, nil},
		{"do / consume_event = true;", []Handler{{Text: "do / consume_event = true;"}}, nil},
		{"[busy] / consume_event = true;", []Handler{{Guard: "busy", Text: "[busy] / consume_event = true;"}}, nil},
		{"EV [else] / z();", []Handler{{Event: "EV", Text: "EV [else] / z();"}}, nil},
		{"else / y();", nil, []string{`behaviour "else / y();": else as a trigger is only valid on a transition`}},
		{"1. [else] / y();", nil, []string{`behaviour "1. [else] / y();": [else] with an order`}},
		{"EV1 EV2 / x();", nil, []string{`behaviour "EV1 EV2 / x();" does not follow StateSmith's grammar`}},
	}
	for _, tt := range tests {
		got, ps := StateHandlers(tt.behaviour)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("StateHandlers(%q) = %+v, want %+v", tt.behaviour, got, tt.want)
		}
		checkProblems(t, fmt.Sprintf("StateHandlers(%q)", tt.behaviour), ps, tt.problems)
	}
}

func TestEvents(t *testing.T) {
	var e Events
	for _, tt := range []struct {
		ev, want string
		warn     bool
	}{{"Go", "Go", false}, {"GO", "Go", true}, {"go", "Go", true}, {"GO", "Go", false}, {"Go", "Go", false}, {"STOP", "STOP", false}} {
		got, ps := e.Name(tt.ev)
		if got != tt.want || (len(ps) > 0) != tt.warn {
			t.Errorf("Name(%q) = %q, %v, want %q and a warning %v", tt.ev, got, ps, tt.want, tt.warn)
		}
	}
}

// nested is a chart whose states nest: G holds a start, A and B; C is
// beside G.
func nested(ts ...chart.Transition) *chart.Chart {
	return &chart.Chart{States: []chart.State{
		{ID: "s", Kind: chart.StartState, Initial: true}, {ID: "g", Name: "G"},
		{ID: "gs", Kind: chart.StartState, Parent: "g"}, {ID: "a", Name: "A", Parent: "g"}, {ID: "b", Name: "B", Parent: "g"},
		{ID: "c", Name: "C"},
	}, Transitions: ts}
}

func to(id string) chart.Target { return chart.Target{Kind: chart.ToState, State: id} }

func TestCheckHandlers(t *testing.T) {
	c := nested(chart.Transition{ID: "e1", From: "g", Event: "EV", Label: "EV", Target: to("c")},
		chart.Transition{ID: "e2", From: "g", Guard: "t > 3", Label: "[t > 3]", Target: to("c")})
	for _, tt := range []struct {
		h    Handler
		want string // the start of the message, or "" for none
	}{
		{Handler{State: "a", Event: "EV", Text: "EV / x++;"}, `state "A" handles EV itself ("EV / x++;"), which stops the transition on EV of state "G" ("EV") while the machine is in it;`},
		{Handler{State: "a", Event: "ev", Text: "ev / x++;"}, `state "A" handles ev itself ("ev / x++;"), which stops the transition on EV of state "G"`},
		{Handler{State: "a", Event: "EV", Guard: "x", Text: "EV [x] / y();"}, `state "A" handles EV itself ("EV [x] / y();"), which stops the transition on EV of state "G" ("EV") while the machine is in it and the guard [x] holds;`},
		{Handler{State: "b", Text: "do / consume_event = true;"}, `state "B" consumes the do event ("do / consume_event = true;"), which stops the transition e2 of state "G" ("[t > 3]") while the machine is in it;`},
		{Handler{State: "a", Event: "OTHER", Text: "OTHER"}, ""},
		{Handler{State: "g", Event: "EV", Text: "EV"}, ""},
		{Handler{State: "c", Text: "do / consume_event = true;"}, ""},
	} {
		ps := CheckHandlers(c, []Handler{tt.h})
		var want []string
		if tt.want != "" {
			want = []string{tt.want}
		}
		checkProblems(t, fmt.Sprintf("CheckHandlers(%+v)", tt.h), ps, want)
	}
}

func TestStarts(t *testing.T) {
	for _, tt := range []struct {
		name   string
		ts     []chart.Transition
		starts []string // CheckStarts
		enter  []string // EnterStarts
		target string   // of transition "in" after EnterStarts
	}{
		{"one way in", []chart.Transition{{ID: "i", From: "gs", Target: to("a")}, {ID: "in", From: "b", Event: "R", Target: to("gs")}},
			nil, []string{"edge in enters the initial state gs: it goes where the initial state leads, to a"}, "a"},
		{"branches", []chart.Transition{{ID: "i", From: "gs", Guard: "x", Target: to("a")}, {ID: "j", From: "gs", Target: to("b")}, {ID: "in", From: "c", Target: to("gs")}},
			[]string{`the initial state of state "G" has 2 transitions`}, []string{"edge in enters the initial state gs, which does not lead to one state"}, "a"},
		{"nowhere", []chart.Transition{{ID: "in", From: "c", Target: to("gs")}},
			nil, []string{"edge in enters the initial state gs, which does not lead to one state"}, "gs"},
		{"guarded", []chart.Transition{{ID: "i", From: "gs", Guard: "x", Label: "[x]", Target: to("a")}},
			[]string{`the transition of the initial state of state "G" has a trigger or a guard ("[x]")`}, nil, ""},
		{"action", []chart.Transition{{ID: "i", From: "gs", Action: "log()", Target: to("a")}},
			[]string{`the action of the initial transition of state "G" is code`}, nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := nested(tt.ts...)
			checkProblems(t, "EnterStarts", EnterStarts(c), tt.enter)
			checkProblems(t, "CheckStarts", CheckStarts(c), tt.starts)
			for _, tr := range c.Transitions {
				if tr.ID == "in" && tr.Target.State != tt.target {
					t.Errorf("after EnterStarts, transition in goes to %v, want %s", tr.Target, tt.target)
				}
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2. EV [x] / y(); via exit 1", "(A, B", "$choice : x", "entry : 1", "[[[", "{\"}\"", "1.5.", "via via", "EV [else]", "(else, do)", "99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999. EV"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v := ParseVertex(s); IsKeyword(s) != (v.Kind != State) {
			t.Errorf("IsKeyword(%q) = %v, but ParseVertex gives %v", s, IsKeyword(s), v.Kind)
		}
		for _, b := range ParseBehaviors(s) {
			if b.Text == "" {
				t.Errorf("ParseBehaviors(%q): a behaviour without text", s)
			}
		}
		for _, from := range []Kind{State, Choice} {
			ts, ps := EdgeTransitions(s, from)
			if len(ts) == 0 && len(ps) == 0 {
				t.Errorf("EdgeTransitions(%q, %v): no transition and no problem", s, from)
			}
			checkRendered(t, ps)
		}
		_, ps := StateHandlers(s)
		checkRendered(t, ps)
	})
}

// checkRendered checks that each problem says something, and how to fix
// it unless it is a note.
func checkRendered(t *testing.T, ps []importer.Problem) {
	for _, p := range ps {
		if p.Message == "" || p.Hint == "" && p.Severity != diag.Note {
			t.Errorf("problem %+v: no message or no hint", p)
		}
	}
}
