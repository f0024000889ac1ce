package chart

import "testing"

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
