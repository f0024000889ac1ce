package charttest

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// recorder is a testing.TB that records what CheckChart reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheckChart(t *testing.T) {
	good := func() *chart.Chart {
		return &chart.Chart{
			States: []chart.State{{ID: "a", Box: &chart.Box{W: 10, H: 10}}, {ID: "b"}},
			Transitions: []chart.Transition{
				{ID: "t1", From: "a", Order: 1, Target: chart.Target{Kind: chart.ToState, State: "b"}},
				{ID: "t2", AnyState: true, Order: 1, Target: chart.Target{Kind: chart.ToFinal}},
			},
			Diagnostics: diag.List{{Severity: diag.Note, Message: "x: a note"}},
		}
	}
	failed := diag.List{{Message: "x: bad"}}
	for _, tt := range []struct {
		name  string
		c     func() *chart.Chart
		err   error
		wrong bool
	}{
		{"good", good, nil, false},
		{"good with an error", func() *chart.Chart { c := good(); c.Diagnostics = failed; return c }, failed, false},
		{"nil chart with an error", func() *chart.Chart { return nil }, failed, false},
		{"nil chart without an error", func() *chart.Chart { return nil }, nil, true},
		{"error not a list", func() *chart.Chart { return nil }, errors.New("x"), true},
		{"error without the chart's", good, failed, true},
		{"nil States", func() *chart.Chart { c := good(); c.States = nil; c.Transitions = nil; return c }, nil, true},
		{"repeated ID", func() *chart.Chart { c := good(); c.Transitions[1].ID = "a"; return c }, nil, true},
		{"parent", func() *chart.Chart { c := good(); c.States[1].Parent = "a"; return c }, nil, false},
		{"unknown parent", func() *chart.Chart { c := good(); c.States[1].Parent = "zz"; return c }, nil, true},
		{"inside itself", func() *chart.Chart { c := good(); c.States[1].Parent = c.States[1].ID; return c }, nil, true},
		{"unknown also", func() *chart.Chart { c := good(); c.Transitions[0].Also = []string{"zz"}; return c }, nil, true},
		{"infinite box", func() *chart.Chart { c := good(); c.States[0].Box.W = math.Inf(1); return c }, nil, true},
		{"unknown From", func() *chart.Chart { c := good(); c.Transitions[0].From = "z"; return c }, nil, true},
		{"unknown target", func() *chart.Chart { c := good(); c.Transitions[0].Target.State = "z"; return c }, nil, true},
		{"into a compound Flatten could not enter", func() *chart.Chart {
			c := good()
			c.Transitions[0].Target.State = "compound"
			c.Diagnostics = diag.List{{Message: "chart: no initial state", Err: chart.ErrNesting}}
			return c
		}, diag.List{{Message: "chart: no initial state", Err: chart.ErrNesting}}, false},
		{"final with a state", func() *chart.Chart { c := good(); c.Transitions[1].Target.State = "a"; return c }, nil, true},
		{"order 0", func() *chart.Chart { c := good(); c.Transitions[0].Order = 0; return c }, nil, true},
		{"message without prefix", func() *chart.Chart { c := good(); c.Diagnostics[0].Message = "A note"; return c }, nil, true},
		{"bad severity", func() *chart.Chart { c := good(); c.Diagnostics[0].Severity = 7; return c }, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckChart(r, tt.c(), tt.err)
			if (len(r.errs) > 0) != tt.wrong {
				t.Errorf("CheckChart reported %q, want a problem: %v", r.errs, tt.wrong)
			}
		})
	}
}

func TestGolden(t *testing.T) {
	golden := filepath.Join(t.TempDir(), "c.golden.json")
	c := &chart.Chart{Name: "c", States: []chart.State{{ID: "a"}}, Transitions: []chart.Transition{}}
	Golden(t, c, golden, true)
	r := &recorder{TB: t}
	Golden(r, c, golden, false)
	c.Name = "d"
	Golden(r, c, golden, false)
	if len(r.errs) != 1 {
		t.Errorf("Golden reported %q, want one difference", r.errs)
	}
	if data, err := os.ReadFile(golden); err != nil || len(data) == 0 || data[len(data)-1] != '\n' {
		t.Errorf("golden file = %q, %v", data, err)
	}
}
