package chart

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/diag"
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
			Flatten(tt.chart, 0)
			if got := summary(tt.chart); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			notes, errs := 0, 0
			for _, d := range tt.chart.Diagnostics {
				switch d.Severity {
				case diag.Note:
					notes++
				case diag.Error:
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
	Flatten(c, 0)
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

// compound returns a chart whose compound state "main" holds n states,
// each with a transition of its own, and has m transitions of its own.
func compound(n, m int) *Chart {
	c := &Chart{File: "big.scxml", States: []State{{ID: "main", Name: "main", Initial: true}}, Transitions: []Transition{}}
	for i := range n {
		id := "s" + strconv.Itoa(i)
		c.States = append(c.States, State{ID: id, Name: id, Parent: "main", Initial: i == 0})
		c.Transitions = append(c.Transitions, Transition{ID: "t" + id, From: id, Order: 1, Test: "next", Target: Target{State: "s" + strconv.Itoa((i+1)%n)}})
	}
	for i := range m {
		c.Transitions = append(c.Transitions, Transition{ID: "m" + strconv.Itoa(i), From: "main", Order: i + 1, Test: "e" + strconv.Itoa(i), Target: Target{Kind: ToFinal}})
	}
	return c
}

// TestFlattenLimit checks that Flatten counts the transitions it would
// make before it copies any: 3,000 states inside a compound of 3,000
// transitions would make 9,003,000 transitions (7.8 GB).
func TestFlattenLimit(t *testing.T) {
	c := compound(3000, 3000)
	states, transitions := len(c.States), len(c.Transitions)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Flatten(c, 0)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Flatten over the limit allocated %d MB, want under 16 MB", alloc>>20)
	}
	errs := c.Diagnostics.Errors()
	if len(errs) != 1 || !errors.Is(errs[0], ErrLimit) {
		t.Fatalf("Flatten(9,003,000 transitions) diagnostics %v, want one error wrapping ErrLimit", c.Diagnostics)
	}
	d := errs[0]
	for _, want := range []string{"9,003,000 transitions", "1,048,576", `compound state "main" copies its 3,000 transitions into each of its 3,000 states`} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message %q, want %q in it", d.Message, want)
		}
	}
	if !strings.Contains(d.Hint, "ReadOptions.MaxTransitions") || !strings.HasPrefix(d.Message, "chart: ") {
		t.Errorf("diagnostic %q, hint %q: want a chart: message and a hint naming ReadOptions.MaxTransitions", d.Message, d.Hint)
	}
	if len(c.States) != states || len(c.Transitions) != transitions || c.States[1].Parent != "main" {
		t.Errorf("Flatten over the limit changed the chart: %d states, %d transitions, want %d, %d, still nested", len(c.States), len(c.Transitions), states, transitions)
	}

	// The limit given is the limit: 3,000 × 3 + 3,000 is within 12,000.
	c = compound(3000, 3)
	Flatten(c, 12000)
	if c.Diagnostics.HasErrors() || len(c.Transitions) != 12000 {
		t.Errorf("Flatten(12,000 transitions, limit 12,000) = %d transitions, %v", len(c.Transitions), c.Diagnostics.Errors())
	}
	c = compound(3000, 3)
	Flatten(c, 11999)
	if errs := c.Diagnostics.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Message, "12,000 transitions, more than the limit of 11,999") {
		t.Errorf("Flatten(12,000 transitions, limit 11,999) = %v", c.Diagnostics)
	}
}

// TestFlattenLimitEntries checks that the entry actions copied count
// against the limit too.
func TestFlattenLimitEntries(t *testing.T) {
	c := compound(1000, 0)
	for i := range 2000 {
		c.States[0].Entry = append(c.States[0].Entry, Action{Property: "p" + strconv.Itoa(i), Value: "v"})
	}
	Flatten(c, 0)
	if errs := c.Diagnostics.Errors(); len(errs) != 1 || !errors.Is(errs[0], ErrLimit) ||
		!strings.Contains(errs[0].Message, "copy 2,000,000 entry actions") || !strings.Contains(errs[0].Message, "its 2,000 entry actions into each of its 1,000 states") {
		t.Errorf("Flatten(2,000,000 entry actions) = %v", c.Diagnostics)
	}
}

// TestFlattenNames checks that the error names the three compounds that
// copy the most, most first.
func TestFlattenNames(t *testing.T) {
	c := &Chart{States: []State{}, Transitions: []Transition{}}
	for k, size := range []int{10, 40, 20, 30, 5} {
		comp := "c" + strconv.Itoa(k)
		c.States = append(c.States, State{ID: comp})
		for i := range size {
			c.States = append(c.States, State{ID: comp + "." + strconv.Itoa(i), Parent: comp, Initial: i == 0})
		}
		for i := range 10 {
			c.Transitions = append(c.Transitions, Transition{ID: comp + "t" + strconv.Itoa(i), From: comp, Target: Target{Kind: ToFinal}})
		}
	}
	Flatten(c, 100)
	errs := c.Diagnostics.Errors()
	if len(errs) != 1 {
		t.Fatalf("Flatten = %v, want one error", c.Diagnostics)
	}
	want := `chart: the flat chart would have 1,050 transitions, more than the limit of 100: ` +
		`compound state "c1" copies its 10 transitions into each of its 40 states; ` +
		`compound state "c3" copies its 10 transitions into each of its 30 states; ` +
		`compound state "c2" copies its 10 transitions into each of its 20 states; and 2 more compound states copy transitions`
	if errs[0].Message != want {
		t.Errorf("message\n%s\nwant\n%s", errs[0].Message, want)
	}
}

// TestFlattenDeep checks that Flatten takes linear time however deeply
// the states nest: a chain of 200,000 compounds, the innermost holding
// 100,000 states, each compound with a transition only at the top.
func TestFlattenDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("a large chart")
	}
	const depth, leaves = 200000, 100000
	c := &Chart{States: []State{}, Transitions: []Transition{{ID: "up", From: "c0", Target: Target{Kind: ToFinal}}}}
	for i := range depth {
		s := State{ID: "c" + strconv.Itoa(i), Initial: true}
		if i > 0 {
			s.Parent = "c" + strconv.Itoa(i-1)
		}
		c.States = append(c.States, s)
	}
	c.States[depth-1].Entry = []Action{{Property: "p", Value: "v"}}
	for i := range leaves {
		c.States = append(c.States, State{ID: "l" + strconv.Itoa(i), Parent: "c" + strconv.Itoa(depth-1), Initial: i == 0})
	}
	start := time.Now()
	Flatten(c, 0)
	if d := time.Since(start); d > time.Minute { // 1.5 s alone; walking up from each leaf, hours
		t.Errorf("Flatten of %d nested compounds took %v", depth, d)
	}
	if len(c.States) != leaves || len(c.Transitions) != leaves || c.Diagnostics.HasErrors() || !c.States[0].Initial || len(c.States[leaves-1].Entry) != 1 {
		t.Errorf("Flatten = %d states, %d transitions, errors %v", len(c.States), len(c.Transitions), c.Diagnostics.Errors())
	}

	// A chain of parents in a circle is cut once, however long.
	c = &Chart{}
	for i := range depth {
		c.States = append(c.States, State{ID: "c" + strconv.Itoa(i), Parent: "c" + strconv.Itoa((i+1)%depth)})
	}
	start = time.Now()
	Flatten(c, 0)
	if d := time.Since(start); d > time.Minute { // walking up from each state, n² steps
		t.Errorf("Flatten of a circle of %d states took %v", depth, d)
	}
	if errs := c.Diagnostics.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Message, `state "c0" is nested inside itself`) {
		t.Errorf("Flatten(circle) errors %v", errs)
	}
}
