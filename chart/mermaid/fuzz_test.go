package mermaid_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/mermaid"
)

// FuzzWrite draws charts whose IDs, names, labels and entry actions are
// arbitrary text: the output must always pass the checker of
// syntax_test.go, with one transition per chart transition and the initial
// one, and every label must read back as written, line breaks and control
// characters aside.
func FuzzWrite(f *testing.F) {
	for _, s := range []string{"walkLeft", `say "hi"`, "a:b;c#d", "x\ny", "<b>&amp;</b>", "\xff\xfe", "__any", "", "%%", "direction TB", "<<choice>>", "ü 😀", "a\r\nb\u2028c", " "} {
		f.Add(s, s+"2", s, false)
		f.Add(s, "b", "c", true)
	}
	f.Fuzz(func(t *testing.T, id, name, label string, stencil bool) {
		c := &chart.Chart{
			Name: name,
			States: []chart.State{
				{ID: id, Name: name, Initial: true, Entry: []chart.Action{{Property: label, Value: name}}},
				{ID: name, Name: label, Kind: chart.ChoiceState},
			},
			Transitions: []chart.Transition{
				{ID: "t1", From: id, Order: 1, Label: label, Test: label, Value: name, Target: chart.Target{State: name}},
				{ID: "t2", From: name, Order: 1, Test: label, Push: true, Target: chart.Target{Kind: chart.ToReturn}},
				{ID: "t3", AnyState: true, Order: 1, Test: name, Target: chart.Target{Kind: chart.ToFinal}},
				{ID: "t4", From: label, Order: 1, Test: id, Target: chart.Target{State: id}},
			},
		}
		if stencil {
			c.Stencil = &chart.Stencil{Name: "s"}
		}
		var b bytes.Buffer
		if err := mermaid.Write(&b, c, mermaid.Options{}); err != nil {
			t.Fatal(err)
		}
		d, err := parseMermaid(b.String())
		if err != nil {
			t.Fatalf("parseMermaid = %v\n%s", err, b.String())
		}
		if len(d.transitions) != 5 {
			t.Fatalf("%d transitions, want 5:\n%s", len(d.transitions), b.String())
		}
		want := label
		if stencil || label == "" {
			want = label + " (" + name + ")"
			if name == "" {
				want = label
			}
		}
		if id == "" || name == id || label == id {
			want = "1. " + want // t1 shares its source with another transition
		}
		want = strings.TrimSpace(want)
		if strings.TrimSpace(plain(want)) == "" {
			want = "" // nothing to show: no label
		}
		if got := d.transitions[1].label; got != plain(want) {
			t.Errorf("label = %q, want %q", got, plain(want))
		}
	})
}

// plain is s as a label shows it: valid UTF-8, line breaks as \n, other
// control characters as spaces.
func plain(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
