package viewer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/viewer"
)

// TestRecording saves a running game's recording, reads it back and opens
// it: the viewer of the recording serves the same machines and events.
func TestRecording(t *testing.T) {
	g := newGame(t, 6, viewer.Options{})
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.run(ctx)
	ch := stream(t, ctx, srv.URL+"/api/events")
	next(t, ch, "20 transitions", func(f frame) bool { return len(f.Events) > 0 && g.v.Recorder().Total() >= 20 })

	resp, err := http.Get(srv.URL + "/api/recording")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	resp.Body.Close()
	rec, err := viewer.ReadRecording(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Machines) != 1 || len(rec.Events) < 20 {
		t.Fatalf("recording: %d machines, %d events", len(rec.Machines), len(rec.Events))
	}
	v := viewer.Open(rec, viewer.Options{})
	osrv := httptest.NewServer(v.Handler())
	defer osrv.Close()
	var back viewer.Recording
	getJSON(t, osrv.URL+"/api/recording", &back)
	a, _ := json.Marshal(rec.Events)
	b, _ := json.Marshal(back.Events)
	if !bytes.Equal(a, b) || back.Machines[0].Name != "goombas" {
		t.Errorf("the opened recording serves other events or machines")
	}
	if r := post(t, osrv.URL+"/api/pause", v.Token(), ""); r.StatusCode != http.StatusForbidden {
		t.Errorf("pause on a recording: %s, want 403 (read-only)", r.Status)
	}
}

func TestReadRecordingErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"machines": [`, "not a recording"},
		{`{"machines": [{"name": "m", "description": {"states": [{"name": "a", "parent": -1}]}, "layout": {"states": []}}]}`, "0 boxes for 1 states"},
		{`{"machines": [], "events": [{"machine": 3}]}`, "machine 3; it has 0"},
		{`{"machines": [{"name": "m", "description": {"states": [{"name": "a", "parent": -1}]}, "layout": {"states": [{}]}}], "events": [{"machine": 0, "to": 5}]}`, "not a state"},
	} {
		if _, err := viewer.ReadRecording(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadRecording(%s) = %v, want an error with %q", tt.in, err, tt.want)
		}
	}
}

func FuzzReadRecording(f *testing.F) {
	f.Add([]byte(`{"machines": [{"name": "m", "description": {"states": [{"name": "a", "parent": -1}, {"name": "b", "parent": 0}], "transitions": [{"from": 0, "to": [1], "trigger": -1}]}, "layout": {"states": [{}, {}]}}], "events": [{"machine": 0, "from": 0, "to": 1}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := viewer.ReadRecording(bytes.NewReader(b))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error renders empty")
			}
			return
		}
		v := viewer.Open(rec, viewer.Options{})
		srv := httptest.NewServer(v.Handler())
		defer srv.Close()
		var back viewer.Recording
		getJSON(t, srv.URL+"/api/recording", &back)
		if len(back.Events) != len(rec.Events) {
			t.Fatalf("opened %d events, serves %d", len(rec.Events), len(back.Events))
		}
	})
}

// TestSim steps a simulated goomba: it turns when the page makes its
// trigger hold, dies when sent the message hit, and lists the actions.
func TestSim(t *testing.T) {
	s := viewer.NewSim(goomba(t), 0.5)
	var a viewer.Agent
	s.Agent(0, &a)
	if a.State != 0 || len(a.Actions) != 1 || a.Actions[0] != "XMovement=left" {
		t.Fatalf("a new agent: %+v, want walkLeft with its entry action", a)
	}
	if err := s.Hold(0, 0, true); err != nil {
		t.Fatal(err)
	}
	if err := s.Hold(0, 2, true); err == nil {
		t.Error("Hold of a message succeeded")
	}
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	a = viewer.Agent{}
	s.Agent(0, &a)
	if a.State != 1 || a.Actions[0] != "XMovement=right" || len(a.Holding) != 1 || a.Time != 0.5 {
		t.Errorf("after a step holding hitLeft: %+v, want walkRight, XMovement=right, holding 1, time 0.5", a)
	}
	s.Hold(0, 0, false)
	if err := s.Post(0, 2); err != nil {
		t.Fatal(err)
	}
	s.Step()
	a = viewer.Agent{}
	s.Agent(0, &a)
	if a.State != 2 {
		t.Errorf("after hit: state %d, want 2 (dying)", a.State)
	}
}
