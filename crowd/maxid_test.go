package crowd_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
)

// TestMaxID checks that Add refuses an ID above the machine's largest, with
// an error naming the ID, the limit and the option, without growing its
// index by ID to that size; and that New refuses a MaxID above crowd.MaxID.
func TestMaxID(t *testing.T) {
	defs := []crowd.Def[int]{{Name: "a", Func: func(*int, crowd.StateID) crowd.StateID { return 0 }}}
	tests := []struct {
		maxID crowd.ID // the option
		id    crowd.ID
		ok    bool
		text  string // in the error
	}{
		{0, 1000, true, ""},
		{0, crowd.DefaultMaxID + 1, false, "crowd: ID 16777216 is above the machine's largest ID, 16777215 (Options.MaxID;"},
		{0, crowd.MaxID, false, "crowd: ID 1073741823 is above the machine's largest ID, 16777215 (Options.MaxID;"},
		{0, crowd.MaxID + 1, false, "above the machine's largest ID, 16777215"},
		{100, 100, true, ""},
		{100, 101, false, "crowd: ID 101 is above the machine's largest ID, 100 (Options.MaxID;"},
		{crowd.MaxID, crowd.MaxID + 1, false, "crowd: ID 1073741824 is above crowd.MaxID (1073741823)"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("MaxID=%d/Add(%d)", tc.maxID, tc.id), func(t *testing.T) {
			m, err := crowd.New(defs, crowd.Options[int]{MaxID: tc.maxID})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			want := tc.maxID
			if want == 0 {
				want = crowd.DefaultMaxID
			}
			if got := m.MaxID(); got != want {
				t.Errorf("MaxID() = %d, want %d", got, want)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = m.Add(tc.id, 1, 0)
			runtime.ReadMemStats(&after)
			if tc.ok {
				if err != nil || m.Len() != 1 {
					t.Errorf("Add(%d) = %v with Len %d, want nil with 1", tc.id, err, m.Len())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("Add(%d) = %v, want an error containing %q", tc.id, err, tc.text)
			}
			if m.Len() != 0 {
				t.Errorf("Add(%d) failed but Len() = %d, want 0", tc.id, m.Len())
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("Add(%d) failed but allocated %d bytes", tc.id, grew)
			}
		})
	}
	if _, err := crowd.New(defs, crowd.Options[int]{MaxID: crowd.MaxID + 1}); err == nil || !strings.Contains(err.Error(), "MaxID") {
		t.Errorf("New(MaxID: crowd.MaxID+1) = %v, want an error naming MaxID", err)
	}
}
