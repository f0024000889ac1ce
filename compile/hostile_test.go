package compile_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
)

// hostileChart is a chart made to make a check slow or its messages long:
// many states or transitions sharing a name, a test or an ID, names of a
// megabyte, a stencil of thousands of tests. Each took minutes, or
// printed megabytes, before the compiler was linear in them and cut the
// names it quotes.
type hostileChart struct {
	name string
	gen  func() *chart.Chart
	want string // in some message, to check that the chart was read as meant
}

// plainChart returns a plain chart of the states and transitions, the
// first state initial.
func plainChart(states []chart.State, trans []chart.Transition) *chart.Chart {
	states[0].Initial = true
	return &chart.Chart{Name: "hostile", File: "hostile.json", States: states, Transitions: trans}
}

// manyStates returns n states named by name(i), with IDs s0, s1...
func manyStates(n int, name func(i int) string) []chart.State {
	states := make([]chart.State, n)
	for i := range states {
		id := "s" + strconv.Itoa(i)
		states[i] = chart.State{ID: id, Name: name(i), Pos: diag.Pos{File: "hostile.json", Shape: id}}
	}
	return states
}

// hostileStencil returns a stencil of the tests.
func hostileStencil(tests ...chart.Test) *chart.Stencil {
	return &chart.Stencil{Name: "hostile", Masters: chart.Masters{State: "State", Transition: "Transition"}, Tests: tests}
}

var hostileCharts = []hostileChart{
	{
		// 200,000 nameless states: "state", "state#2"... Naming each
		// searched from "state#2": 100,000 took 5 minutes.
		name: "nameless states",
		gen: func() *chart.Chart {
			return plainChart(manyStates(200_000, func(int) string { return "" }), nil)
		},
		want: `state without a name; it is called "state#10" in the table`,
	},
	{
		// 100,000 states named Idle, and one named Idle#5, which the
		// others skip.
		name: "states sharing a name",
		gen: func() *chart.Chart {
			return plainChart(manyStates(100_000, func(i int) string { return cmp(i == 7, "Idle#5", "Idle") }), nil)
		},
		want: `this state is called "Idle#6" in the table`,
	},
	{
		// 20,000 names of table.MaxName bytes that differ in their last
		// three, each twice: cut to fit with their suffix, they are
		// alike, and a search from #2 skipped the names of the others.
		name: "names cut alike",
		gen: func() *chart.Chart {
			const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			long := strings.Repeat("x", 252)
			return plainChart(manyStates(40_000, func(i int) string {
				k := i / 2
				return long + string(digits[k%62]) + string(digits[k/62%62]) + string(digits[k/62/62])
			}), nil)
		},
		want: `; this state is called "xxxx`,
	},
	{
		// 100,000 states with a stencil, all named Idle: an error each,
		// that quotes where the first is.
		name: "states sharing a name, with a stencil",
		gen: func() *chart.Chart {
			c := plainChart(manyStates(100_000, func(int) string { return "Idle" }), nil)
			c.Stencil = hostileStencil(chart.Test{Name: "go"})
			return c
		},
		want: `state name "Idle" is also the name of shape s0`,
	},
	{
		// A state of 500,000 entry actions on as many properties: each
		// was looked for among those before.
		name: "entry actions",
		gen: func() *chart.Chart {
			c := plainChart(manyStates(1, func(int) string { return "A" }), nil)
			for i := range 500_000 {
				c.States[0].Entry = append(c.States[0].Entry, chart.Action{Property: "p" + strconv.Itoa(i), Value: "v"})
			}
			return c
		},
		want: "500000 action properties; a table holds at most 65535",
	},
	{
		// A stencil of 20,000 tests, and 100,000 transitions on tests it
		// does not have: the hint listing the tests was built for each.
		name: "unknown tests",
		gen: func() *chart.Chart {
			var tests []chart.Test
			for i := range 20_000 {
				tests = append(tests, chart.Test{Name: "t" + strconv.Itoa(i)})
			}
			c := plainChart(manyStates(2, func(i int) string { return "S" + strconv.Itoa(i) }), nil)
			c.Stencil = hostileStencil(tests...)
			for i := range 100_000 {
				c.Transitions = append(c.Transitions, trans("e"+strconv.Itoa(i), "s0", "u"+strconv.Itoa(i), "s1"))
			}
			return c
		},
		want: `compile: test "u0" is not in stencil "hostile"`,
	},
	{
		// A test of 20,000 values, used in reverse order (sorted by
		// their place in the drop-list, looked for in it), and 100,000
		// transitions with values it does not have (a hint listing the
		// values each).
		name: "values",
		gen: func() *chart.Chart {
			var values []string
			for i := range 20_000 {
				values = append(values, "v"+strconv.Itoa(i))
			}
			c := plainChart(manyStates(2, func(i int) string { return "S" + strconv.Itoa(i) }), nil)
			c.Stencil = hostileStencil(chart.Test{Name: "t", Values: values})
			for i := range 20_000 {
				c.Transitions = append(c.Transitions, trans("e"+strconv.Itoa(i), "s"+strconv.Itoa(i%2), "t="+values[len(values)-1-i], "s1"))
			}
			for i := range 100_000 {
				c.Transitions = append(c.Transitions, trans("f"+strconv.Itoa(i), "s0", "t=w"+strconv.Itoa(i), "s1"))
			}
			return c
		},
		want: `compile: test "t" does not take value "w0"`,
	},
	{
		// 100,000 initial states: the error listed them all.
		name: "initial states",
		gen: func() *chart.Chart {
			c := plainChart(manyStates(100_000, func(i int) string { return "S" + strconv.Itoa(i) }), nil)
			for i := range c.States {
				c.States[i].Initial = true
			}
			c.Stencil = hostileStencil(chart.Test{Name: "go"})
			return c
		},
		want: "compile: 100000 initial states",
	},
	{
		// An any-state transition whose ID is a megabyte, and 100,000
		// transitions it shadows: each message quoted the ID, whole,
		// even those not listed.
		name: "long ID of an any-state transition",
		gen: func() *chart.Chart {
			c := plainChart(manyStates(100_000, func(i int) string { return "S" + strconv.Itoa(i) }), nil)
			any := trans(strings.Repeat("i", 1<<20), "*", "go", "s0")
			any.Pos = diag.Pos{}
			c.Transitions = append(c.Transitions, any)
			for i := range c.States {
				c.Transitions = append(c.Transitions, trans("e"+strconv.Itoa(i), "s"+strconv.Itoa(i), "go", "s1"))
			}
			c.Stencil = hostileStencil(chart.Test{Name: "go"})
			return c
		},
		want: `the any-state transition on it (ID "iiii`,
	},
	{
		// A state whose ID is a megabyte, and 100,000 states of its name:
		// each message quoted the ID, whole, even those not listed.
		name: "long ID of a state",
		gen: func() *chart.Chart {
			c := plainChart(manyStates(100_000, func(int) string { return "Idle" }), nil)
			c.States[0].ID, c.States[0].Pos = strings.Repeat("i", 1<<20), diag.Pos{}
			return c
		},
		want: `is also the name of ID "iiii`,
	},
	{
		// 20 states whose name is a megabyte, no two alike but in their
		// last bytes, and a transition from each on a test of a megabyte:
		// every message quoted them whole. (Each state's name is read
		// whole, to tell whether it is UTF-8: a chart of 100,000 states
		// of the same name of a megabyte, shared, takes minutes; a file
		// of them would be 100 GB.)
		name: "long names",
		gen: func() *chart.Chart {
			long := strings.Repeat("n", 1<<20)
			c := plainChart(manyStates(20, func(i int) string { return long + strconv.Itoa(i) }), nil)
			c.States[3].Name = long[:1000] + "\xff"
			test := strings.Repeat("t", 1<<20)
			for i := range c.States {
				tr := trans("e"+strconv.Itoa(i), "s"+strconv.Itoa(i), "", "s1")
				tr.Label, tr.Test, tr.Event, tr.Guard, tr.Action = test+"e[g]/a", test, test, test, test
				c.Transitions = append(c.Transitions, tr)
			}
			return c
		},
		want: `compile: state name "nnnn`,
	},
}

func cmp[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// maxMessageBytes is the most a check of a hostile chart may print, all
// messages and hints together: ten diagnostics of each kind and a count
// of the others, each quoting at most 64 bytes of a name, and at most 20
// names of a list.
const maxMessageBytes = 64 << 10

// TestHostileCharts checks that a check of a chart made to be slow, or to
// make long messages, takes well under a second (30 s allowed, for slow
// and race-detecting builds: each took minutes before), lists a few
// diagnostics of each kind and quotes at most a short part of any name.
func TestHostileCharts(t *testing.T) {
	for _, h := range hostileCharts {
		t.Run(h.name, func(t *testing.T) {
			c := h.gen()
			start := time.Now()
			diags := compile.Check(c, compile.Options{})
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("Check took %v", d)
			}
			size, found := 0, false
			for _, d := range diags {
				size += len(d.Message) + len(d.Hint)
				found = found || strings.Contains(d.Message, h.want)
			}
			if !found {
				t.Errorf("no message says %q; the diagnostics:\n%v", h.want, diags)
			}
			if len(diags) > 200 || size > maxMessageBytes {
				t.Errorf("Check = %d diagnostics, of %d bytes; want at most 200, of %d bytes", len(diags), size, maxMessageBytes)
			}
		})
	}
}
