package chart

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// nest builds a chart from compact lines: "S id parent [initial]" for a
// state ("-" for no parent; kind start when id starts with "start"), and
// "T id from order target" for a transition.
func nest(lines ...string) *Chart {
	c := &Chart{States: []State{}, Transitions: []Transition{}}
	for _, l := range lines {
		f := strings.Fields(l)
		switch f[0] {
		case "S":
			st := State{ID: f[1], Name: f[1]}
			if f[2] != "-" {
				st.Parent = f[2]
			}
			if len(f) > 3 {
				st.Initial = true
			}
			if strings.HasPrefix(f[1], "start") {
				st.Kind = StartState
			}
			c.States = append(c.States, st)
		case "T":
			var order int
			fmt.Sscan(f[3], &order)
			c.Transitions = append(c.Transitions, Transition{ID: f[1], From: f[2], Order: order, Test: f[1], Target: Target{State: f[4]}})
		}
	}
	return c
}

func summary(c *Chart) string {
	var b strings.Builder
	for _, s := range c.States {
		fmt.Fprintf(&b, "%s", s.ID)
		if s.Initial {
			b.WriteString("*")
		}
		if s.Parent != "" {
			b.WriteString("^" + s.Parent)
		}
		b.WriteString(" ")
	}
	b.WriteString("|")
	for _, t := range c.Transitions {
		fmt.Fprintf(&b, " %s:%s.%d>%s", t.ID, t.From, t.Order, t.Target.State)
	}
	return b.String()
}

func TestFlatten(t *testing.T) {
	for _, tt := range []struct {
		name  string
		chart *Chart
		want  string
		notes int
		errs  int
	}{
		{"flat", nest("S a - i", "S b -", "T t a 1 b"), "a* b | t:a.1>b", 0, 0},
		{
			// The traffic light: working{red, yellow, green} and broken.
			"compound",
			nest("S working - i", "S red working i", "S yellow working", "S green working",
				"S broken -", "T next red 1 yellow", "T go yellow 1 green",
				"T fail working 1 broken", "T fix broken 1 working"),
			"red* yellow green broken | next:red.1>yellow go:yellow.1>green fix:broken.1>red fail@red:red.2>broken fail@yellow:yellow.2>broken fail@green:green.1>broken",
			1, 0,
		},
		{
			// A start pseudo-state inside the compound names its initial
			// child; two levels of nesting, innermost transitions first.
			"start and depth",
			nest("S outer - i", "S start1 outer", "S inner outer", "S x inner i", "S y inner",
				"T s start1 1 inner", "T o outer 1 y", "T n inner 1 x", "T xy x 1 y"),
			"x* y | xy:x.1>y n@x:x.2>x o@x:x.3>y n@y:y.1>x o@y:y.2>y",
			2, 0,
		},
		{"unknown parent", nest("S a - i", "S b nowhere"), "a* b |", 0, 1},
		// b's chain of parents comes back to b: b moves to the top level,
		// keeping c, and has no initial state.
		{"cycle", nest("S a - i", "S b c", "S c b"), "a* c |", 2, 1},
		// A compound nothing enters needs no initial state.
		{"not entered", nest("S a - i", "S box -", "S b box", "T t box 1 a"), "a* b | t@b:b.1>a", 2, 0},
		{"no initial", nest("S a - i", "S box -", "S b box", "T t a 1 box"), "a* b | t:a.1>box", 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			Flatten(tt.chart)
			if got := summary(tt.chart); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			notes, errs := 0, 0
			for _, d := range tt.chart.Diagnostics {
				switch d.Severity {
				case Note:
					notes++
				case Error:
					errs++
					if !errors.Is(d, ErrNesting) {
						t.Errorf("%v does not wrap ErrNesting", d)
					}
				}
			}
			if notes != tt.notes || errs != tt.errs {
				t.Errorf("%d notes, %d errors, want %d, %d: %v", notes, errs, tt.notes, tt.errs, tt.chart.Diagnostics)
			}
		})
	}
}

func TestFlattenEntryActions(t *testing.T) {
	c := nest("S box - i", "S a box i", "S b box")
	c.States[0].Entry = []Action{{Property: "Animation", Value: "walk"}, {Property: "XMovement", Value: "left"}}
	c.States[1].Entry = []Action{{Property: "XMovement", Value: "right"}}
	Flatten(c)
	var got []string
	for _, st := range c.States {
		for _, a := range st.Entry {
			got = append(got, st.ID+"."+a.Property+"="+a.Value)
		}
	}
	want := "a.XMovement=right a.Animation=walk b.Animation=walk b.XMovement=left"
	if strings.Join(got, " ") != want {
		t.Errorf("entries %s, want %s", got, want)
	}
}
