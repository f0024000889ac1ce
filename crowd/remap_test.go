package crowd

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

// TestRemapRuns checks that Remap's stretch-at-a-time renumbering gives
// what the entity-by-entity one gives, moves included, whatever the
// snapshot holds: states gone, kept and merged, NoState and Final,
// states out of range, runs that share a state but not a previous one.
func TestRemapRuns(t *testing.T) {
	base := Snapshot[int]{
		IDs:      []ID{4, 2, 9, 1, 3, 8, 5, 6, 7},
		States:   []StateID{2, 2, 0, NoState, 7, 2, 1, 1, Final},
		Previous: []StateID{2, 1, 2, 0, NoState, 3, 1, 1, 2},
		Data:     make([]int, 9),
		Open:     2,
	}
	for _, tc := range []struct {
		name string
		to   []machine.StateID
		fb   machine.StateID
	}{
		{"identity", []machine.StateID{0, 1, 2, 3}, 0},
		{"rename and reorder", []machine.StateID{3, 2, 1, 0}, 0},
		{"a state gone, to the fallback", []machine.StateID{0, machine.NoState, 2, 3}, 2},
		{"two gone, merged", []machine.StateID{0, machine.NoState, machine.NoState, 1}, 0},
		{"gone, no fallback", []machine.StateID{0, 1, machine.NoState, 3}, machine.NoState},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clone := func() *Snapshot[int] {
				s := base
				s.IDs, s.States, s.Previous, s.Data = slices.Clone(s.IDs), slices.Clone(s.States), slices.Clone(s.Previous), slices.Clone(s.Data)
				return &s
			}
			mapping := func() *machine.Mapping {
				return &machine.Mapping{To: slices.Clone(tc.to), Old: []string{"a", "b", "c", "d"}, Fallback: tc.fb}
			}
			runs, each := clone(), clone()
			mpRuns, mpEach := mapping(), mapping()
			runs.remapRuns(mpRuns)
			each.remapEach(mpEach)
			if fmt.Sprint(*runs) != fmt.Sprint(*each) || fmt.Sprint(mpRuns.Moved) != fmt.Sprint(mpEach.Moved) {
				t.Errorf("by stretches:\n%+v\nmoved %v\nwant, entity by entity:\n%+v\nmoved %v", *runs, mpRuns.Moved, *each, mpEach.Moved)
			}
		})
	}
}
