package tablecrowd_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/table"
)

// lossEntity is the entity of TestCrowdPanicKeepsMessages.
type lossEntity struct{ id int }

// lossHost answers the tests of TestCrowdPanicKeepsMessages: x for even
// entities, y for odd ones, z always, and p never, except that p panics
// once for entity panicAt.
type lossHost struct {
	x, y, z, p table.TestID
	panicAt    int
	armed      atomic.Bool
}

func (h *lossHost) Test(e *lossEntity, id table.TestID) bool {
	switch id {
	case h.x:
		return e.id%2 == 0
	case h.y:
		return e.id%2 == 1
	case h.z:
		return true
	case h.p:
		if e.id == h.panicAt && h.armed.CompareAndSwap(true, false) {
			panic("boom")
		}
	}
	return false
}

func (h *lossHost) Do(*lossEntity, table.PropertyID, table.ValueID) {}

// TestCrowdPanicKeepsMessages posts a message to every entity, makes the
// host panic for one entity in the middle of the step, recovers, and checks
// that no message was lost: every entity in a state that tests the message
// sees it, in the step that panicked or in the next one. Entities in a state
// that does not test it drop it, as after any step, even if they leave for
// a state that does.
func TestCrowdPanicKeepsMessages(t *testing.T) {
	// n comes before a, so that with one worker the entities of n have
	// moved to a when the host panics in a.
	tbl := mustSpec(t, `
s y n
s x a
a p b
a !m c
n z a
`)
	const n = 5000
	for _, tc := range []struct{ workers, chunk int }{{1, 0}, {1, 64}, {2, 64}, {4, 7}} {
		t.Run(fmt.Sprintf("workers=%d/chunk=%d", tc.workers, tc.chunk), func(t *testing.T) {
			h := &lossHost{x: testID(t, tbl, "x"), y: testID(t, tbl, "y"), z: testID(t, tbl, "z"), p: testID(t, tbl, "p"), panicAt: n / 3 &^ 1}
			c, err := tablecrowd.New(tbl, table.Host[*lossEntity](h), crowd.Options[lossEntity]{ChunkSize: tc.chunk})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Machine().SetWorkers(tc.workers); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if err := c.Add(crowd.ID(i), lossEntity{i}); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.Step(); err != nil { // even entities to a, odd ones to n
				t.Fatal(err)
			}
			m := testID(t, tbl, "m")
			for i := range n {
				if err := c.Post(crowd.ID(i), m); err != nil {
					t.Fatal(err)
				}
			}
			h.armed.Store(true)
			func() {
				defer func() {
					if pe, ok := recover().(*crowd.PanicError); !ok || pe.Value != "boom" {
						t.Errorf("Step() panicked with %v, want a PanicError with boom", pe)
					}
				}()
				_ = c.Step()
				t.Error("Step() did not panic")
			}()
			for range 2 {
				if err := c.Step(); err != nil {
					t.Fatal(err)
				}
			}
			a, cc := stateID(t, tbl, "a"), stateID(t, tbl, "c")
			lost := 0
			for i := range n {
				s, ok := c.Machine().StateOf(crowd.ID(i))
				want := cc // the message was seen
				if i%2 == 1 {
					want = a // n dropped it, then went to a
				}
				if !ok || table.StateID(s) != want {
					if lost++; lost <= 3 {
						t.Errorf("entity %d in state %s, want %s", i, tbl.StateName(table.StateID(s)), tbl.StateName(want))
					}
				}
			}
			if lost > 0 {
				t.Errorf("%d of %d entities in the wrong state after the panic", lost, n)
			}
		})
	}
}

// TestCrowdMaxID checks that Add refuses an ID above the crowd's largest
// (crowd.Options.MaxID), with an error naming the ID, the limit and the
// option, before the crowd's per-ID storage grows to its size.
func TestCrowdMaxID(t *testing.T) {
	plain := mustSpec(t, "a !m b")
	stack := mustSpec(t, "a x b push\nb !m return")
	tests := []struct {
		name  string
		tbl   *table.Table
		maxID crowd.ID
		id    crowd.ID
		text  string // in the error; "" for none
	}{
		{"default/1000", plain, 0, 1000, ""},
		{"default/MaxID", plain, 0, crowd.MaxID, "tablecrowd: Crowd.Add: ID 1073741823 is above the crowd's largest ID, 16777215 (MaxID in the crowd.Options given to New; the crowd keeps 8 bytes per ID"},
		{"default/MaxID+1", plain, 0, crowd.MaxID + 1, "ID 1073741824 is above the crowd's largest ID, 16777215"},
		{"stack/default/DefaultMaxID+1", stack, 0, crowd.DefaultMaxID + 1, "ID 16777216 is above the crowd's largest ID, 16777215 (MaxID in the crowd.Options given to New; the crowd keeps 41 bytes per ID"},
		{"50/50", plain, 50, 50, ""},
		{"50/51", plain, 50, 51, "ID 51 is above the crowd's largest ID, 50"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tablecrowd.New(tc.tbl, &crowdProbeHost{}, crowd.Options[*probe]{MaxID: tc.maxID})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = c.Add(tc.id, newProbe(tc.tbl))
			runtime.ReadMemStats(&after)
			if tc.text == "" {
				if err != nil {
					t.Errorf("Add(%d) = %v, want nil", tc.id, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("Add(%d) = %v, want an error containing %q", tc.id, err, tc.text)
			}
			if c.Machine().Len() != 0 {
				t.Errorf("Add(%d) failed, but the machine holds %d entities", tc.id, c.Machine().Len())
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("Add(%d) failed but allocated %d bytes", tc.id, grew)
			}
		})
	}
}
