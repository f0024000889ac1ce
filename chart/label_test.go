package chart

import (
	"strings"
	"testing"
)

func TestNormalizeSpace(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"a b", "a b"},
		{" a", "a"},
		{"a ", "a"},
		{"a  b", "a b"},
		{"a\nb\u2028c\td", "a b c d"},
		{"a\r\nb", "a b"},
		{"Retorna ao usuário", "Retorna ao usuário"},
	} {
		if got := NormalizeSpace(tt.in); got != tt.want {
			t.Errorf("NormalizeSpace(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseLabel(t *testing.T) {
	for _, tt := range []struct{ label, event, guard, action string }{
		{"", "", "", ""},
		{"Sim", "Sim", "", ""},
		{"[x > 0]", "", "x > 0", ""},
		{"evt [a[0] == 1] / do(a/b); log()", "evt", "a[0] == 1", "do(a/b); log()"},
		{"after(2s)/tick", "after(2s)", "", "tick"},
		{"/ entry", "", "", "entry"},
		{"x ] y", "x ] y", "", ""},
		{"typed [letter and\nnumbers?]\n/ display", "typed", "letter and numbers?", "display"},
	} {
		e, g, a := ParseLabel(tt.label)
		if e != tt.event || g != tt.guard || a != tt.action {
			t.Errorf("ParseLabel(%q) = %q, %q, %q, want %q, %q, %q", tt.label, e, g, a, tt.event, tt.guard, tt.action)
		}
	}
}

func TestParseActions(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", ""},
		{"swing()", "swing=()"},
		{"swing", "swing=()"},
		{"do(a/b); log()", "do=a/b log=()"},
		{"speed = fast, anim := run", "speed=fast anim=run"},
		{"play(\"a;b\", 2); ;", "play=\"a;b\", 2"},
		{"hp == 0", "hp == 0=()"},
		{"f(x[1,2])", "f=x[1,2]"},
	} {
		var got []string
		for _, a := range ParseActions(tt.text, Pos{Shape: "7"}) {
			if a.Kind != GameAction || a.Pos.Shape != "7" {
				t.Errorf("ParseActions(%q): %+v is not a game action at shape 7", tt.text, a)
			}
			got = append(got, a.Property+"="+a.Value)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("ParseActions(%q) = %q, want %q", tt.text, g, tt.want)
		}
	}
}
