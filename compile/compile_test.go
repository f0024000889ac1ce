package compile_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

// want is an expected diagnostic: its severity, sentinel and a part of its
// rendering.
type want struct {
	sev  diag.Severity
	err  error
	text string
}

const (
	E = diag.Error
	W = diag.Warning
	N = diag.Note
)

func checkDiags(t *testing.T, got diag.List, wants []want) {
	t.Helper()
	ok := len(got) == len(wants)
	for i := 0; ok && i < len(got); i++ {
		w := wants[i]
		ok = got[i].Severity == w.sev && (w.err == nil && got[i].Err == nil || w.err != nil && errors.Is(got[i], w.err)) && strings.Contains(got[i].Error(), w.text)
	}
	if !ok {
		var ws []string
		for _, w := range wants {
			ws = append(ws, fmt.Sprintf("%v %s: ...%s...", w.sev, sentinelName(w.err), w.text))
		}
		t.Errorf("diagnostics =\n%swant\n%s", render(got), strings.Join(ws, "\n"))
	}
}

// TestChecks checks charts built by code: what is reported, with which
// severity and sentinel, and whether a table comes out.
func TestChecks(t *testing.T) {
	st := stencil(t)
	valued := *st
	valued.Tests = slices.Clone(st.Tests)
	valued.Tests[0].Values = []string{"1", "2"}
	v2, koopa := *st, *st
	v2.Version, koopa.Name = "2", "koopa"
	changed := *st
	changed.Tests = append(slices.Clone(st.Tests), chart.Test{Name: "jump"})
	many := *st
	many.Tests = nil
	for i := range 65 {
		many.Tests = append(many.Tests, chart.Test{Name: "m" + strconv.Itoa(i), Message: true})
	}

	type tc struct {
		name  string
		c     *chart.Chart
		opt   compile.Options
		diags []want
	}
	cases := []tc{
		{"goomba", goombaChart(st, nil), compile.Options{}, nil},
		{"goomba expected", goombaChart(st, nil), compile.Options{Stencil: st}, nil},
		{"another version", goombaChart(&v2, nil), compile.Options{Stencil: st},
			[]want{{E, compile.ErrWrongStencil, `t: compile: the drawing was made with version 2 of stencil "goomba", but version 1 is expected`}}},
		{"another stencil", goombaChart(&koopa, nil), compile.Options{Stencil: st},
			[]want{{E, compile.ErrWrongStencil, `made with stencil "koopa", not "goomba"`}}},
		{"read without stencil", goombaChart(nil, nil), compile.Options{Stencil: st},
			[]want{{E, compile.ErrWrongStencil, `read without a stencil, as a plain diagram, but stencil "goomba" is expected`}}},
		{"invalid stencil", goombaChart(&chart.Stencil{Name: "bad", Masters: chart.Masters{State: "S", Transition: "T"}, Tests: []chart.Test{{Name: "a;b"}}}, nil), compile.Options{},
			[]want{{E, compile.ErrBadStencil, `chart: stencil: test name "a;b" contains ';'`}}},
		{"another copy", goombaChart(&changed, nil), compile.Options{Stencil: st},
			[]want{{W, compile.ErrWrongStencil, `whose tests or actions differ`}}},
		{"unknown test", goombaChart(st, nil, trans("9", "3", "jump", "1")), compile.Options{},
			[]want{{E, compile.ErrUnknownTest, `t: shape 9 "jump": compile: test "jump" is not in stencil "goomba"`}}},
		{"no test", goombaChart(st, nil, trans("9", "3", "", "1")), compile.Options{},
			[]want{{E, compile.ErrNoTest, `shape 9: compile: transition without a test`}}},
		{"test value", goombaChart(&valued, nil, trans("9", "3", "hitTriggerLeft=3", "1"), trans("10", "3", "hitTriggerLeft=2", "1")), compile.Options{},
			[]want{{E, compile.ErrUnknownValue, `test "hitTriggerLeft" does not take value "3"`}}},
		{"unknown action", goombaChart(st, []chart.State{state("9", "jumping", "YMovement=up", "XMovement=fly", "Animation=death", "Animation=moveLeft")}, trans("10", "3", "hitTriggerLeft", "9")), compile.Options{},
			[]want{{E, compile.ErrUnknownAction, `state "jumping": action property "YMovement" is not in stencil "goomba"`},
				{E, compile.ErrUnknownValue, `state "jumping": XMovement value "fly" is not in the drop-list of stencil "goomba"`},
				{E, compile.ErrUnknownAction, `state "jumping" sets Animation twice`},
				{W, compile.ErrNoWayOut, `state "jumping" has no way out`}}},
		{"flagged by the importer", func() *chart.Chart {
			c := goombaChart(st, nil, trans("9", "3", "jump", "1"))
			c.Diagnostics = diag.List{{Pos: diag.Pos{File: "t", Shape: "9", Line: 3}, Message: "visio: test \"jump\" is not in stencil \"goomba\""}}
			return c
		}(), compile.Options{}, []want{{E, nil, `visio: test "jump"`}}},
		{"importer warnings", func() *chart.Chart {
			c := goombaChart(st, nil)
			c.Diagnostics = diag.List{{Severity: W, Message: "visio: something ignored"}}
			return c
		}(), compile.Options{}, []want{{W, nil, `visio: something ignored`}}},
		{"no initial", func() *chart.Chart {
			c := goombaChart(st, nil)
			c.States[0].Initial = false
			return c
		}(), compile.Options{}, []want{{E, compile.ErrNoInitial, `t: compile: no initial state`}}},
		{"three initials", goombaChart(st, []chart.State{initial(state("9", "idle")), initial(state("10", "rest"))}, trans("11", "9", "hitByPlayer", "1"), trans("12", "10", "hitByPlayer", "1")), compile.Options{},
			[]want{{E, compile.ErrTwoInitials, `shape 1 "walkLeft": compile: 3 initial states: "walkLeft", and "idle" at shape 9, "rest" at shape 10`},
				{W, compile.ErrUnreachable, `state "idle" is unreachable`}, {W, compile.ErrUnreachable, `state "rest" is unreachable`}}},
		{"no states", &chart.Chart{Name: "empty", Stencil: st}, compile.Options{}, []want{{E, compile.ErrNoInitial, `compile: the chart has no states`}}},
		{"duplicate name", goombaChart(st, []chart.State{state("9", "walkRight")}, trans("10", "3", "hitTriggerLeft", "9"), trans("11", "9", "animationDone", "final")), compile.Options{},
			[]want{{E, compile.ErrDuplicateName, `shape 9 "walkRight": compile: state name "walkRight" is also the name of shape 2`}}},
		{"nameless", goombaChart(st, []chart.State{state("9", "")}, trans("10", "3", "hitTriggerLeft", "9"), trans("11", "9", "animationDone", "final")), compile.Options{},
			[]want{{E, compile.ErrName, `shape 9: compile: state without a name`}}},
		{"duplicate ID", goombaChart(st, []chart.State{state("2", "other")}), compile.Options{},
			[]want{{E, compile.ErrDuplicateID, `state ID "2" is also the ID of shape 2; this state is left out`}}},
		{"missing states", goombaChart(st, nil, trans("9", "77", "hitByPlayer", "1"), trans("10", "3", "hitByPlayer", "78"), trans("11", "", "hitByPlayer", "1")), compile.Options{},
			[]want{{E, compile.ErrMissingState, `transition "9" leaves state "77", which the chart does not have`},
				{E, compile.ErrMissingState, `transition "11" leaves no state`},
				{E, compile.ErrMissingState, `transition "10" goes to state "78", which the chart does not have`}}},
		{"bad target", goombaChart(st, nil, func() chart.Transition {
			t := trans("9", "3", "hitByPlayer", "1")
			t.Target.Kind = 9
			return t
		}()), compile.Options{}, []want{{E, compile.ErrTransition, `unknown target kind 9`}}},
		{"push to final", goombaChart(st, nil, push(trans("9", "3", "hitByPlayer", "final"))), compile.Options{},
			[]want{{E, compile.ErrTransition, `the transition pushes but goes to the final state`}}},
		{"same test", goombaChart(st, nil, trans("9", "1", "hitTriggerLeft", "3")), compile.Options{},
			[]want{{E, compile.ErrSameTest, `shape 9 "hitTriggerLeft": compile: state "walkLeft": a transition on "hitTriggerLeft" already leaves the same state before this one, which is never taken`}}},
		{"any state, push and return", goombaChart(st, []chart.State{state("9", "stunned", "XMovement=existing")},
			push(trans("10", "*", "hitByPlayer", "9")), trans("11", "9", "animationDone", "return")), compile.Options{},
			[]want{{W, compile.ErrShadowed, `shape 6 "hitByPlayer": warning: compile: the transition on "hitByPlayer" is never taken: the any-state transition on it (shape 10) is tried first`},
				{W, compile.ErrShadowed, `shape 7`}}},
		{"return without push", goombaChart(st, nil, trans("9", "3", "hitByPlayer", "return")), compile.Options{},
			[]want{{W, compile.ErrNoPush, `shape 9 "hitByPlayer": warning: compile: the transition returns to the state on top of the stack, but no transition pushes one`}}},
		{"unreachable and stuck", goombaChart(st, []chart.State{state("9", "stunned"), state("10", "hiding")}, trans("11", "3", "hitByPlayer", "10")), compile.Options{},
			[]want{{W, compile.ErrNoWayOut, `shape 9 "stunned": warning: compile: state "stunned" has no way out`},
				{W, compile.ErrNoWayOut, `state "hiding" has no way out`},
				{W, compile.ErrUnreachable, `state "stunned" is unreachable: no path leads to it from the initial state "walkLeft"`}}},
		{"only any-state exits", goombaChart(st, []chart.State{state("9", "stunned")}, trans("10", "*", "hitTriggerRight", "9"), trans("11", "*", "animationDone", "1")), compile.Options{},
			[]want{{W, compile.ErrShadowed, `shape 5 "hitTriggerRight"`}, {W, compile.ErrShadowed, `shape 8 "animationDone"`}}},
		{"options", goombaChart(st, nil), compile.Options{ChainLimit: -1, StackLimit: 17},
			[]want{{E, compile.ErrOptions, `compile: chain limit -1 is out of range`}, {E, compile.ErrOptions, `compile: stack limit 17 is out of range`}}},
		{"long table name", goombaChart(st, nil), compile.Options{Name: strings.Repeat("é", 200)},
			[]want{{N, compile.ErrName, `the table's name is 400 bytes long; it is cut to 254`}}},
		{"long state name", goombaChart(st, []chart.State{state("9", strings.Repeat("x", 300))}, trans("10", "3", "hitByPlayer", "9"), trans("11", "9", "hitByPlayer", "final")), compile.Options{},
			[]want{{E, compile.ErrName, `is 300 bytes long, more than a table holds (255); it is cut`}}},
		{"invalid UTF-8", goombaChart(st, []chart.State{state("9", "a\xffb")}, trans("10", "3", "hitByPlayer", "9"), trans("11", "9", "hitByPlayer", "final")), compile.Options{},
			[]want{{E, compile.ErrName, `state name "a\xffb" is not valid UTF-8`}}},
		{"too many messages", &chart.Chart{Name: "m", Stencil: &many, States: []chart.State{initial(state("1", "a"))},
			Transitions: []chart.Transition{trans("2", "1", "m0", "final")}}, compile.Options{},
			[]want{{E, compile.ErrLimit, `compile: 65 message tests; a table holds at most 64`}}},
		{"unknown kind", goombaChart(st, []chart.State{kind(7, state("9", "odd"))}, trans("10", "3", "hitByPlayer", "9"), trans("11", "9", "hitByPlayer", "final")), compile.Options{},
			[]want{{E, compile.ErrTransition, `state "odd" has an unknown kind 7`}}},

		// Plain diagrams.
		{"plain goomba", goombaChart(nil, nil), compile.Options{}, nil},
		{"plain", &chart.Chart{Name: "door", States: []chart.State{
			kind(chart.StartState, state("1", "")), state("2", "Closed"), state("3", "Open"), kind(chart.ChoiceState, state("4", "")),
			state("5", "Closed"), state("6", ""), kind(chart.EndState, state("7", "")), state("8", "Closed#2"),
		}, Transitions: []chart.Transition{
			uml("10", "1", "", "2"),
			uml("11", "2", "push [unlocked] / swing()", "3"),
			uml("12", "3", "[timeout]", "4"),
			uml("13", "4", "[locked]", "5"),
			uml("14", "4", "else", "2"),
			uml("15", "5", "", "7"),
			uml("16", "2", "timeout", "6"),
			uml("17", "6", "", "2"),
			uml("18", "6", "", "8"),
			uml("19", "8", "", "1"),
			uml("20", "7", "", "2"),
		}}, compile.Options{}, []want{
			{W, compile.ErrDuplicateName, `shape 5 "Closed": warning: compile: state name "Closed" is also the name of shape 2; this state is called "Closed#3" in the table`},
			{W, compile.ErrName, `shape 6: warning: compile: state without a name; it is called "state" in the table`},
			{N, compile.ErrLowered, `shape 16 "timeout": note: compile: event "timeout" is also tested as a condition (a [guard], a choice's branch or a completion): it is a polled test, not a message`},
			{W, compile.ErrTransition, `shape 20: warning: compile: 1 transition leaves a final state; it is ignored`},
			{W, compile.ErrTransition, `shape 19: warning: compile: the transition enters the start pseudo-state; it is ignored`},
			{W, compile.ErrNoWayOut, `state "Closed#2" has no way out`},
		}},
		{"plain, event and guard", &chart.Chart{Name: "door", States: []chart.State{
			kind(chart.StartState, state("1", "")), state("2", "Closed"), state("3", "Open"), kind(chart.ChoiceState, state("4", "")),
		}, Transitions: []chart.Transition{
			uml("10", "1", "", "2"),
			uml("11", "2", "push [unlocked]", "3"),
			uml("12", "3", "close", "4"),
			uml("13", "4", "lock [key]", "2"),
		}}, compile.Options{}, nil},
		{"plain without start", &chart.Chart{Name: "x", States: []chart.State{state("1", "a")}}, compile.Options{},
			[]want{{E, compile.ErrNoInitial, `compile: no initial state`}, {W, compile.ErrNoWayOut, `state "a" has no way out`}}},
		{"plain starts", &chart.Chart{Name: "x", States: []chart.State{kind(chart.StartState, state("1", "")), kind(chart.StartState, state("2", "")),
			kind(chart.StartState, state("3", "")), state("4", "a"), kind(chart.EndState, state("5", ""))},
			Transitions: []chart.Transition{uml("6", "1", "go", "4"), uml("7", "1", "", "4"), uml("8", "3", "", "5"), uml("9", "4", "", "5")}}, compile.Options{},
			[]want{{E, compile.ErrTwoInitials, `shape 1: compile: the start pseudo-state has 2 transitions`},
				{W, compile.ErrIgnored, `the label "go" of the start pseudo-state's transition is ignored`},
				{E, compile.ErrNoInitial, `shape 2: compile: the start pseudo-state has no transition`},
				{E, compile.ErrNoInitial, `shape 8: compile: the start pseudo-state leads to no state (5)`},
				{E, compile.ErrTwoInitials, `compile: 3 initial states (or start pseudo-states): a start pseudo-state, and a start pseudo-state at shape 2, a start pseudo-state at shape 3`},
				{N, compile.ErrLowered, `shape 9: note: compile: 1 transition without a label is a completion transition`}}},
		{"plain events", func() *chart.Chart {
			c := &chart.Chart{Name: "x", States: []chart.State{kind(chart.StartState, state("s", "")), state("0", "a")}}
			c.Transitions = append(c.Transitions, uml("t", "s", "", "0"))
			for i := range 70 {
				c.Transitions = append(c.Transitions, uml("t"+strconv.Itoa(i), "0", "e"+strconv.Itoa(i), "0"))
			}
			return c
		}(), compile.Options{}, []want{{W, compile.ErrLimit, `shape t64 "e64": warning: compile: the chart has more than 64 events; a table holds at most 64 message tests, so the last 6 ("e64", "e65", "e66", "e67", "e68", ...) are polled tests`}}},
		{"plain too large", func() *chart.Chart {
			c := &chart.Chart{Name: "x", States: []chart.State{kind(chart.StartState, state("s", ""))}}
			c.Transitions = append(c.Transitions, uml("t", "s", "", "0"))
			for i := range 1100 {
				id := strconv.Itoa(i)
				c.States = append(c.States, state(id, "s"+id))
				c.Transitions = append(c.Transitions, uml("t"+id, id, "["+id+"]", strconv.Itoa((i+1)%1100)))
			}
			return c
		}(), compile.Options{}, []want{{E, compile.ErrLimit, `compile: 1100 tests × 1100 states make a destination table of 1210000 cells; a table holds at most 1048576`}}},
		{"plain long label", &chart.Chart{Name: "x", States: []chart.State{kind(chart.StartState, state("1", "")), state("2", "a")},
			Transitions: []chart.Transition{uml("3", "1", "", "2"), uml("4", "2", strings.Repeat("é", 200), "final")}}, compile.Options{},
			[]want{{W, compile.ErrName, `is 400 bytes long, more than a table holds (255); it is cut`}}},
		{"plain entry actions", &chart.Chart{Name: "x", States: []chart.State{initial(state("1", "a", "P=1", "Q=x")), state("2", "b", "P=2", "P=3")},
			Transitions: []chart.Transition{trans("3", "1", "go", "2"), trans("4", "2", "go", "1")}}, compile.Options{},
			[]want{{E, compile.ErrUnknownAction, `state "b" sets P twice`}}},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r, err := compile.Compile(tt.c, tt.opt)
			checkResult(t, r, err)
			checkDiags(t, r.Diagnostics, tt.diags)
			if d := compile.Check(tt.c, tt.opt); render(d) != render(r.Diagnostics) {
				t.Errorf("Check =\n%sCompile's diagnostics =\n%s", render(d), render(r.Diagnostics))
			}
		})
	}
}

func TestNilChart(t *testing.T) {
	r, err := compile.Compile(nil, compile.Options{})
	if err == nil || r == nil || r.Table != nil || !errors.Is(err, compile.ErrMissingState) {
		t.Errorf("Compile(nil) = %v, %v", r, err)
	}
	if d := compile.Check(nil, compile.Options{}); !d.HasErrors() {
		t.Errorf("Check(nil) = %v", d)
	}
}

// TestPlainLowering checks how a plain diagram becomes a table: pseudo-
// states, names, messages and polled tests.
func TestPlainLowering(t *testing.T) {
	c := &chart.Chart{Name: "door", States: []chart.State{
		kind(chart.StartState, state("1", "")), state("2", "Closed"), state("3", "Open"), kind(chart.ChoiceState, state("4", "")),
		state("5", "Closed"), kind(chart.EndState, state("6", "")),
	}, Transitions: []chart.Transition{
		uml("10", "1", "", "2"),
		uml("11", "2", "push", "3"),
		uml("12", "3", "[timeout]", "4"),
		uml("13", "4", "[locked]", "5"),
		uml("14", "4", "else", "2"),
		uml("15", "5", "", "6"),
		uml("16", "3", "pull", "2"),
	}}
	r, err := compile.Compile(c, compile.Options{Chain: true})
	checkResult(t, r, err)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table
	var got []string
	for id := range table.TestID(tb.NumTests()) {
		got = append(got, tb.Test(id).String()+map[bool]string{true: "!", false: "?"}[tb.Test(id).Message])
	}
	if want := []string{"push!", "timeout?", "pull!", "locked?", "else?", "completion?"}; !slices.Equal(got, want) {
		t.Errorf("tests = %v, want %v", got, want)
	}
	got = nil
	for q := range table.StateID(tb.NumStates()) {
		got = append(got, tb.StateName(q))
	}
	if want := []string{"Closed", "Open", "choice", "Closed#2"}; !slices.Equal(got, want) || tb.Initial() != 0 || !tb.Options().Chain {
		t.Errorf("states = %v, initial %v, options %+v", got, tb.Initial(), tb.Options())
	}
	if r.States["6"] != table.Final || r.States["5"] != 3 {
		t.Errorf("States = %v", r.States)
	}
	if _, ok := r.States["1"]; ok {
		t.Errorf("States has the start pseudo-state")
	}
	if d := tb.Dest(5, 3); d != table.Final {
		t.Errorf("Dest(completion, Closed#2) = %v, want final", d)
	}
	if len(r.Diagnostics) != 2 || len(r.Diagnostics.Warnings()) != 2 { // the duplicate name, the completion; chaining: no note on the choice
		t.Errorf("diagnostics =\n%s", render(r.Diagnostics))
	}
}

// TestTestOrder checks the IDs of tests with a stencil: the stencil's
// tests, each followed by the values used with it, in the order of its
// values, or of first use.
func TestTestOrder(t *testing.T) {
	st := stencil(t)
	valued := *st
	valued.Tests = slices.Clone(st.Tests)
	valued.Tests[1].Values = []string{"b", "a"} // animationDone
	c := goombaChart(&valued, nil,
		trans("9", "3", "hitTriggerLeft=y", "1"), trans("10", "3", "animationDone=a", "1"),
		trans("11", "2", "hitTriggerLeft=x", "2"), trans("12", "1", "animationDone=b", "1"))
	r, err := compile.Compile(c, compile.Options{})
	checkResult(t, r, err)
	var got []string
	for id := range table.TestID(r.Table.NumTests()) {
		got = append(got, r.Table.Test(id).String())
	}
	want := []string{"hitTriggerLeft", "hitTriggerLeft=x", "hitTriggerLeft=y", "animationDone", "animationDone=b", "animationDone=a", "hitTriggerRight", "hitByPlayer"}
	if !slices.Equal(got, want) {
		t.Errorf("tests = %v, want %v", got, want)
	}
}

// TestDeterministic compiles the same charts twice, and a chart listing its
// transitions in another order with the same Order values: the tables are
// the same bytes.
func TestDeterministic(t *testing.T) {
	st := stencil(t)
	build := func(reverse bool) *chart.Chart {
		c := goombaChart(st, []chart.State{state("9", "stunned", "Animation=death"), state("10", "hiding", "XMovement=existing")},
			trans("11", "*", "hitByPlayer", "9"), trans("12", "9", "animationDone", "10"), trans("13", "10", "hitTriggerLeft", "1"),
			trans("14", "10", "hitTriggerRight", "2"), trans("15", "*", "animationDone", "final"), trans("16", "10", "hitTriggerLeft=2", "3"))
		// The importer numbers the transitions leaving each state.
		n := map[string]int{}
		for i := range c.Transitions {
			tr := &c.Transitions[i]
			n[tr.From+fmt.Sprint(tr.AnyState)]++
			tr.Order = n[tr.From+fmt.Sprint(tr.AnyState)]
		}
		if reverse {
			slices.Reverse(c.Transitions)
		}
		return c
	}
	var first []byte
	for i, c := range []*chart.Chart{build(false), build(false), build(true)} {
		for _, min := range []bool{false, true} {
			r, err := compile.Compile(c, compile.Options{Minimize: min})
			checkResult(t, r, err)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := r.Table.MarshalBinary()
			if !min {
				if first == nil {
					first = b
				} else if !bytes.Equal(b, first) {
					t.Errorf("chart %d: MarshalBinary differs", i)
				}
			}
		}
	}
}
