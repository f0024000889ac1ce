package reload_test

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/reload"
)

// FuzzReload saves whatever the fuzzer makes as a new version of the
// door while three doors run it: the version is swapped in or refused,
// never a panic, and every door runs the drawing's table afterwards, in
// one of its states.
func FuzzReload(f *testing.F) {
	f.Add(door)
	f.Add(strings.ReplaceAll(door, `"opened"`, `"ajar"`))
	f.Add(door[:len(door)/3])
	f.Add(strings.Replace(door, `target="closed"`, `target="nowhere"`, 1))
	f.Add(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"><transition event="e" target="a"/></state></scxml>`)
	f.Fuzz(func(t *testing.T, src string) {
		l := newDoors(t, door, 3, reload.Config{Fallback: "opened"})
		l.send(t, 1, "open")
		l.send(t, 2, "open")
		l.send(t, 2, "lock")
		reps := l.save(t, src)
		if len(reps) > 1 {
			t.Fatalf("%d reports for one save", len(reps))
		}
		for i := range l.agents {
			a := &l.agents[i]
			if a.Table() != l.d.Table() {
				t.Fatalf("door %d runs another table than the drawing's", i)
			}
			if !a.Done() {
				if _, ok := l.d.Table().LookupState(a.Name()); !ok {
					t.Fatalf("door %d is in %q, not a state of the table", i, a.Name())
				}
			}
		}
	})
}
