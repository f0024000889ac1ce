package viewer_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	crowddemo "github.com/fsmforge/fsmforge/examples/crowd"
	"github.com/fsmforge/fsmforge/viewer"
)

// BenchmarkCrowdWatched steps the crowd demo's million monsters with the
// viewer's Frame before each step: alone (no page), and watched (a page's
// event stream open, read by a client as a browser reads it: the counts,
// the transitions of each step). ns/step is the cost of a frame, on the
// game's goroutine.
func BenchmarkCrowdWatched(b *testing.B) {
	const n = 1_000_000
	for _, watched := range []bool{false, true} {
		name := "alone"
		if watched {
			name = "watched"
		}
		b.Run(fmt.Sprintf("entities=%d/%s", n, name), func(b *testing.B) {
			m, err := crowddemo.New(n, 1, 1)
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			v := viewer.New(viewer.Options{})
			v.Add("horde", viewer.Crowd(m), nil)
			if watched {
				srv := httptest.NewServer(v.Handler())
				ctx, cancel := context.WithCancel(context.Background())
				defer func() { cancel(); srv.CloseClientConnections(); srv.Close() }()
				req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/events", nil)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					defer resp.Body.Close()
					sc := bufio.NewScanner(resp.Body)
					sc.Buffer(nil, 1<<24)
					for sc.Scan() {
					}
				}()
			}
			for tick := range uint64(16) { // warm up
				v.Frame(tick)
				m.Step()
			}
			tick := uint64(16)
			for b.Loop() {
				v.Frame(tick)
				if err := m.Step(); err != nil {
					b.Fatal(err)
				}
				tick++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/step")
		})
	}
}
