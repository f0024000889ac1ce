package compile_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
)

// sameID returns a plain chart of n states sharing one ID.
func sameID(n int) *chart.Chart {
	c := &chart.Chart{Name: "same", File: "same.json", Transitions: []chart.Transition{}}
	for i := range n {
		s := state("x", "s"+strconv.Itoa(i))
		s.Initial = i == 0
		c.States = append(c.States, s)
	}
	return c
}

// TestRepeatedDiagnostics checks that a check lists the first 10
// diagnostics of a kind, then one that counts the others.
func TestRepeatedDiagnostics(t *testing.T) {
	for _, tt := range []struct {
		states int
		listed int    // diagnostics of ErrDuplicateID listed
		last   string // the message of the last of them
	}{
		{11, 10, `compile: state ID "x" is also the ID of shape x; this state is left out`},
		{12, 11, "compile: and 1 more state sharing an ID with another"},
		{100000, 11, "compile: and 99,989 more states sharing an ID with another"},
	} {
		t.Run(strconv.Itoa(tt.states), func(t *testing.T) {
			start := time.Now()
			diags := compile.Check(sameID(tt.states), compile.Options{})
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("Check of %d states sharing an ID took %v", tt.states, d)
			}
			var got diag.List
			for _, d := range diags {
				if errors.Is(d, compile.ErrDuplicateID) {
					got = append(got, d)
				}
			}
			if len(got) != tt.listed || got[len(got)-1].Message != tt.last {
				t.Fatalf("Check(%d states sharing an ID) listed %d of them, the last %q; want %d, the last %q", tt.states, len(got), got[len(got)-1].Message, tt.listed, tt.last)
			}
			if last := got[len(got)-1]; tt.states > 11 && (last.Severity != diag.Error || last.Pos != (diag.Pos{File: "same.json"})) {
				t.Errorf("the last diagnostic is %v at %v, want an error at the chart", last.Severity, last.Pos)
			}
			if tt.states > 11 && len(diags) > 30 {
				t.Errorf("Check(%d states sharing an ID) = %d diagnostics, want at most 30", tt.states, len(diags))
			}
		})
	}
}

// TestRepeatedKinds checks that each kind (sentinel and severity) is
// counted on its own.
func TestRepeatedKinds(t *testing.T) {
	c := &chart.Chart{Name: "loose", File: "loose.json"}
	for i := range 15 {
		c.States = append(c.States, state(strconv.Itoa(i), "s"+strconv.Itoa(i)))
	}
	c.States[0].Initial = true
	for i := range 13 {
		c.Transitions = append(c.Transitions, trans("t"+strconv.Itoa(i), "0", "go", "nowhere"+strconv.Itoa(i)))
	}
	diags := compile.Check(c, compile.Options{})
	count := map[error]int{}
	for _, d := range diags {
		count[d.Err]++
	}
	for _, tt := range []struct {
		err  error
		want int
		last string
	}{
		{compile.ErrMissingState, 11, "compile: and 3 more transitions from or to a state the chart does not have"},
		{compile.ErrUnreachable, 11, "warning: compile: and 4 more unreachable states"},
	} {
		var last string
		for _, d := range diags {
			if d.Err == tt.err {
				last = d.Error()
			}
		}
		if count[tt.err] != tt.want || last != "loose.json: "+tt.last {
			t.Errorf("%v: %d diagnostics, the last %q; want %d, the last %q", tt.err, count[tt.err], last, tt.want, "loose.json: "+tt.last)
		}
	}
}
