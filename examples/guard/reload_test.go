package guard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/fsmforge/fsmforge/chart/formats"
	"github.com/fsmforge/fsmforge/examples/guard"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/table"
)

// TestReloadKeepsTheRun reloads the guards' statechart twice while they
// fight, with a state the run never enters added, then taken away again:
// each guard keeps its active states, its deep history, its queued
// events and its pending timer (the search it gives up 5 s after the
// alert), so the run goes on exactly as the run that never reloaded.
func TestReloadKeepsTheRun(t *testing.T) {
	src, err := os.ReadFile("guard.scxml")
	if err != nil {
		t.Fatal(err)
	}
	const ticks, first, second = 200, 45, 120
	play := func(reloads bool) (string, []string) {
		path := filepath.Join(t.TempDir(), "guard.scxml")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		r := reload.New(reload.Options{Manual: true})
		defer r.Close()
		d, err := r.Load(path, reload.Config{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := guard.NewLevel(d.Table(), 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		d.Run("guards", l)
		var b strings.Builder
		var reports []string
		for tick := 1; tick <= ticks; tick++ {
			for _, rep := range r.Frame(uint64(tick)) {
				if rep.Err != nil {
					t.Fatalf("tick %d: %v", tick, rep.Err)
				}
				reports = append(reports, fmt.Sprintf("tick %d: added %v, removed %v, %d moved", tick, rep.Added, rep.Removed, len(rep.Targets[0].Moved)))
			}
			if err := l.Step(func(g *guard.Guard, ev, active string) {
				fmt.Fprintf(&b, "%d %d %s: %s\n", l.Tick(), g.ID, ev, active)
			}); err != nil {
				t.Fatal(err)
			}
			if !reloads || tick != first && tick != second {
				continue
			}
			timers := 0
			for a := range l.Agents() {
				var snap table.Snapshot
				a.Snapshot(&snap)
				timers += len(snap.Timers)
			}
			if timers == 0 {
				t.Fatalf("tick %d: no guard has a timer pending: choose another tick", tick)
			}
			next := string(src)
			if tick == first {
				next = strings.Replace(next, `<final id="dead"/>`, `<state id="stunned"/><final id="dead"/>`, 1)
			}
			if err := os.WriteFile(path, []byte(next), 0o644); err != nil {
				t.Fatal(err)
			}
			r.Refresh()
		}
		return b.String(), reports
	}
	want, _ := play(false)
	got, reports := play(true)
	if got != want {
		t.Errorf("the run that reloaded differs from the one that did not:\n%s\n----\n%s", got, want)
	}
	wantReports := []string{
		fmt.Sprintf("tick %d: added [stunned], removed [], 0 moved", first+1),
		fmt.Sprintf("tick %d: added [], removed [stunned], 0 moved", second+1),
	}
	if fmt.Sprint(reports) != fmt.Sprint(wantReports) {
		t.Errorf("reports %q, want %q", reports, wantReports)
	}
	for _, s := range []string{"alert.after", "noise: aim stand"} {
		if !strings.Contains(got, s) {
			t.Errorf("the run never shows %q: the test does not reach the timers", s)
		}
	}
}
