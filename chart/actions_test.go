package chart

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
)

func TestParseActions(t *testing.T) {
	for _, tt := range []struct{ text, want, bad string }{
		{"", "", ""},
		{"swing()", "swing=()", ""},
		{"swing", "swing=()", ""},
		{"slam(hard); sound = creak", "slam=hard sound=creak", ""},
		{"speed = fast, anim := run, hp:=full", "speed=fast anim=run hp=full", ""},
		{"do(a/b); log()", "do=a/b log=()", ""},
		{`play("a;b", 2); ;`, `play="a;b", 2`, ""},
		{"f(x[1,2])", "f=x[1,2]", ""},
		{"raise alarm; send tick after 2s as t1\ncancel t1", "raise:alarm send:tick@2/t1 cancel:/t1", ""},
		{"send e after 250ms", "send:e@0.25", ""},
		{"[low && !In(hurt)] raise flee", "[low && !In(hurt)]raise:flee", ""},
		{`"walk left" = "very fast"`, "walk left=very fast", ""},
		{"hp != 0", "", "a comparison is a condition"},
		{"x <= 3", "", "a comparison is a condition"},
		{"hp == 0", "", "a comparison is a condition"},
		{"f(a) + g(b)", "", "which is code"},
		{"= 5", "", "one word on each side"},
		{"(x)", "", "which is code"},
		{"count++", "", "which is code"},
		{"raise", "", "raise takes one word"},
		{"send e after soon", "", "the delay of a send"},
		{"[unclosed raise x", "", "not closed"},
		{"ok(); hp -= 1", "ok=()", "one word on each side"},
	} {
		as, bad := ParseActions(tt.text, diag.Pos{Shape: "7"})
		var got []string
		for _, a := range as {
			if a.Pos.Shape != "7" {
				t.Errorf("ParseActions(%q): %+v is not at shape 7", tt.text, a)
			}
			got = append(got, actionString(a))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("ParseActions(%q) = %q, want %q", tt.text, g, tt.want)
		}
		switch {
		case tt.bad == "" && len(bad) > 0:
			t.Errorf("ParseActions(%q): unexpected %v", tt.text, bad[0].Error())
		case tt.bad != "" && (len(bad) != 1 || !strings.Contains(bad[0].Why, tt.bad)):
			t.Errorf("ParseActions(%q) errors = %v, want one saying %q", tt.text, bad, tt.bad)
		}
	}
}

// actionString renders an action for TestParseActions.
func actionString(a Action) string {
	g := ""
	if a.Guard != "" {
		g = "[" + a.Guard + "]"
	}
	switch a.Kind {
	case RaiseAction:
		return g + "raise:" + a.Event
	case SendAction:
		s := g + "send:" + a.Event
		if a.Delay != 0 {
			s += "@" + strings.TrimSuffix(strings.TrimSuffix(FormatAction(Action{Kind: SendAction, Event: "x", Delay: a.Delay})[len("send x after "):], "s"), "")
		}
		if a.Timer != "" {
			s += "/" + a.Timer
		}
		return s
	case CancelAction:
		return g + "cancel:/" + a.Timer
	}
	return g + a.Property + "=" + a.Value
}

// TestFormatAction checks that what FormatAction writes reads back as the
// same action.
func TestFormatAction(t *testing.T) {
	for _, a := range []Action{
		{Property: "XMovement", Value: "left"},
		{Property: "swing", Value: "()"},
		{Property: "walk left", Value: "very fast"},
		{Property: "f", Value: "a=b"},
		{Property: "raise", Value: "()"},
		{Property: "x(y)", Value: "()"},
		{Kind: RaiseAction, Event: "alarm.heard"},
		{Kind: SendAction, Event: "tick", Delay: 1.5, Timer: "t 1"},
		{Kind: CancelAction, Timer: "t1", Guard: "low"},
		{Kind: RaiseAction, Event: "e", Guard: "a]["},
	} {
		text := FormatAction(a)
		as, bad := ParseActions(text, diag.Pos{})
		if len(bad) > 0 || len(as) != 1 || as[0] != a {
			t.Errorf("FormatAction(%+v) = %q, which reads back as %+v, %v", a, text, as, bad)
		}
	}
}

func FuzzParseActions(f *testing.F) {
	for _, s := range []string{"swing(); speed = fast", "[a] raise b\nsend c after 1s as t", `"x y" = "z"`, "f(a) + g(b)", "cancel t1, x := 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		as, _ := ParseActions(text, diag.Pos{})
		for _, a := range as {
			back, bad := ParseActions(FormatAction(a), diag.Pos{})
			if len(bad) > 0 || len(back) != 1 || back[0] != a {
				t.Errorf("%+v, written %q, reads back as %+v, %v", a, FormatAction(a), back, bad)
			}
		}
	})
}
