package drawio

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// TestActionText writes actions as AttrEntry, AttrExit and AttrActions
// hold them, and reads them back.
func TestActionText(t *testing.T) {
	game := func(p, v string) chart.Action { return chart.Action{Property: p, Value: v} }
	for _, tt := range []struct {
		a    chart.Action
		text string
	}{
		{game("Animation", "walk"), "Animation=walk"},
		{game("swing", "()"), "swing()"},
		{game("swing", "(x)"), `swing="(x)"`},
		{game("walk left", `say "hi"`), `"walk left"="say \"hi\""`},
		{game("", "a=b"), `""="a=b"`},
		{game("[x]", "raise"), `"[x]"=raise`},
		{chart.Action{Kind: chart.RaiseAction, Event: "alarm.heard"}, "raise alarm.heard"},
		{chart.Action{Kind: chart.RaiseAction, Event: "="}, `raise "="`},
		{chart.Action{Kind: chart.SendAction, Event: "tick"}, "send tick"},
		{chart.Action{Kind: chart.SendAction, Event: "tick", Delay: 1.5, Timer: "t1"}, "send tick after 1.5s as t1"},
		{chart.Action{Kind: chart.SendAction, Event: "after", Timer: "as"}, "send after as as"},
		{chart.Action{Kind: chart.SendAction, Event: "e", Delay: 1e21}, "send e after 1000000000000000000000s"},
		{chart.Action{Kind: chart.CancelAction, Timer: "line\nbreak"}, `cancel "line\nbreak"`},
		{chart.Action{Kind: chart.RaiseAction, Event: "flee", Guard: "low"}, "[low] raise flee"},
		{chart.Action{Kind: chart.RaiseAction, Event: "e", Guard: "a[1] && In(fire)"}, "[a[1] && In(fire)] raise e"},
		{chart.Action{Kind: chart.RaiseAction, Event: "e", Guard: "x]"}, `["x]"] raise e`},
		{chart.Action{Kind: chart.RaiseAction, Event: "e", Guard: " spaced "}, `[" spaced "] raise e`},
		{chart.Action{Kind: chart.RaiseAction, Event: "e", Guard: `"q"`}, `["\"q\""] raise e`},
	} {
		if got := chart.FormatAction(tt.a); got != tt.text {
			t.Errorf("chart.FormatAction(%+v) = %s, want %s", tt.a, got, tt.text)
		}
		back, bad, _ := parseActions(tt.text, diag.Pos{}, 10)
		if len(bad) > 0 || len(back) != 1 || !reflect.DeepEqual(back[0], tt.a) {
			t.Errorf("parseActions(%s) = %+v, %v, want %+v", tt.text, back, bad, tt.a)
		}
	}
}

// TestActionTextByHand reads what a designer may type: spaces, blank
// lines, a delay without its s; and the lines that do not read, each with
// its reason.
func TestActionTextByHand(t *testing.T) {
	as, bad, _ := parseActions("  Speed = fast \n\n[ low ]raise   flee\nsend tick after 2\n", diag.Pos{Shape: "7"}, 3)
	want := []chart.Action{{Property: "Speed", Value: "fast", Pos: diag.Pos{Shape: "7"}},
		{Kind: chart.RaiseAction, Event: "flee", Guard: "low", Pos: diag.Pos{Shape: "7"}},
		{Kind: chart.SendAction, Event: "tick", Delay: 2, Pos: diag.Pos{Shape: "7"}}}
	if len(bad) > 0 || !reflect.DeepEqual(as, want) {
		t.Errorf("parseActions = %+v, %v, want %+v", as, bad, want)
	}
	for _, tt := range []struct{ line, why string }{
		{"jump now", "an action starts with raise, send or cancel, or is PROPERTY=VALUE or name(argument)"},
		{`"raise" e`, "an action starts with raise, send or cancel, or is PROPERTY=VALUE or name(argument)"},
		{"count++", "found \"+\", which is code, not an action fsmforge performs: " + chart.ActionSyntax},
		{"Speed=", "a game action is PROPERTY=VALUE, one word on each side of the '='"},
		{"a=b=c", "a game action is PROPERTY=VALUE, one word on each side of the '='"},
		{"raise", "raise takes one word: the event"},
		{"raise a b", "raise takes one word: the event"},
		{"cancel", "cancel takes one word: the timer"},
		{"send", "send takes an event, then optionally after and a delay in seconds (1.5s), then optionally as and a timer"},
		{"send e as t after 1s", "send takes an event, then optionally after and a delay in seconds (1.5s), then optionally as and a timer"},
		{"send e after soon", "the delay of a send is a number of seconds from 0 (1.5s)"},
		{"send e after -1s", "the delay of a send is a number of seconds from 0 (1.5s)"},
		{"send e after NaNs", "the delay of a send is a number of seconds from 0 (1.5s)"},
		{"[low raise e", "the guard's '[' is not closed by a ']'"},
		{`["low] raise e`, "the guard's quotes are not closed"},
		{`["low" raise e`, "the guard's '[' is not closed by a ']'"},
		{"[low]", "an action is missing after the guard"},
		{`raise "e`, "a quoted word is not closed, or holds a bad escape"},
	} {
		as, bad, _ := parseActions("raise ok\n"+tt.line, diag.Pos{}, 2)
		if len(as) != 1 || len(bad) != 1 || bad[0].line != 2 || bad[0].text != tt.line || bad[0].why != tt.why {
			t.Errorf("parseActions(%q) = %+v, %+v, want raise ok and line 2: %s", tt.line, as, bad, tt.why)
		}
	}
}

// TestActionTextLimit stops reading actions past the limit, the lines
// that do not read counted, the blank lines not.
func TestActionTextLimit(t *testing.T) {
	text := "raise a\n\n\nbad line\n" + strings.Repeat("\n", 1000) + "raise b"
	for _, tt := range []struct {
		max        int
		over       bool
		good, errs int
	}{{1, true, 0, 0}, {2, true, 0, 0}, {3, false, 2, 1}, {4, false, 2, 1}} {
		as, bad, over := parseActions(text, diag.Pos{}, tt.max)
		if over != tt.over || len(as) != tt.good || len(bad) != tt.errs {
			t.Errorf("parseActions(..., %d) = %d actions, %d bad, over %v, want %d, %d, %v", tt.max, len(as), len(bad), over, tt.good, tt.errs, tt.over)
		}
	}
}

// FuzzActionText reads any text as actions: no panic, and what reads
// writes back to text that reads the same.
func FuzzActionText(f *testing.F) {
	for _, s := range []string{"Animation=walk\n[low] raise flee", `send "a b" after 1.5s as t1`, `["x]"] cancel t`, "[a[1]] s=v", "=\n[", `"\u00e9"="\xff"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		as, bad, _ := parseActions(text, diag.Pos{}, len(text))
		for _, b := range bad {
			if b.why == "" || b.line < 1 || strings.Contains(b.text, "\n") {
				t.Errorf("bad line %+v", b)
			}
		}
		for _, a := range as {
			if why := checkAction(a); why != "" {
				t.Fatalf("parseActions(%q) = %+v, which Write refuses: %s", text, a, why)
			}
		}
		again, bad, _ := parseActions(formatActions(as), diag.Pos{}, len(as))
		if len(bad) > 0 || !reflect.DeepEqual(again, as) && len(as) > 0 {
			t.Fatalf("parseActions(%q) = %+v, but its text %q reads %+v, %v", text, as, formatActions(as), again, bad)
		}
	})
}
