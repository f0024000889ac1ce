package viewer_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/fsmforge/fsmforge/message"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// TestWithTelegramsTakes checks that a source with telegrams takes from
// the page what its source takes, no more: no message buttons for a
// source that takes none, the tests held of a HoldHost's agents.
func TestWithTelegramsTakes(t *testing.T) {
	d := message.NewDispatcher[uint8, string](message.DispatcherOptions{})
	id := func(i uint8) uint64 { return uint64(i) }
	tb := goomba(t)
	var agents []table.Agent[*walker]
	held := viewer.TableAgents(tb, viewer.Each(&agents))
	viewer.HoldHost[*walker](held, world{})
	type noPost struct{ viewer.Source } // only a Source's methods
	v := viewer.New(viewer.Options{})
	defer v.Close()
	v.Add("none", viewer.WithTelegrams(noPost{&viewer.Custom{Description: tb.Describe(), N: func() int { return 0 }}}, d, id), nil)
	v.Add("held", viewer.WithTelegrams(held, d, id), nil)
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	for m, want := range []struct{ postable, holdable bool }{{false, false}, {true, true}} {
		var got struct {
			Postable bool `json:"postable"`
			Holdable bool `json:"holdable"`
		}
		getJSON(t, fmt.Sprintf("%s/api/machines/%d", srv.URL, m), &got)
		if got.Postable != want.postable || got.Holdable != want.holdable {
			t.Errorf("machine %d: postable %v, holdable %v; want %v, %v", m, got.Postable, got.Holdable, want.postable, want.holdable)
		}
	}
}
