package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer written by the command's goroutine and read by
// the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveView runs fsmforge view with args until the test ends, and returns
// the URL it printed and the token.
func serveView(t *testing.T, args ...string) (base, token string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errw syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"view"}, args...), strings.NewReader(""), &out, &errw) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("view: %v", err)
		}
	})
	re := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/#token=([0-9a-f]+)`)
	for range 200 {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1], m[2]
		}
		select {
		case err := <-done:
			t.Fatalf("view ended: %v\n%s", err, errw.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("view printed no URL: %q %q", out.String(), errw.String())
	return "", ""
}

// TestView opens the guard's drawing in the simulator and steps it: the
// noise sends the guard from patrol into its alert state.
func TestView(t *testing.T) {
	base, token := serveView(t, "../../examples/guard/guard.scxml")
	get := func(path string, v any) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	cmd := func(path, body string) {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("X-Fsmforge-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("POST %s: %s %s", path, resp.Status, b)
		}
	}
	var m struct {
		Simulated   bool `json:"simulated"`
		Description struct {
			States []struct {
				Name string `json:"name"`
			} `json:"states"`
			Triggers []struct {
				Name string `json:"name"`
			} `json:"triggers"`
		} `json:"description"`
	}
	get("/api/machines/0", &m)
	if !m.Simulated || len(m.Description.States) == 0 {
		t.Fatalf("the machine: %+v", m)
	}
	noise := -1
	for i, tr := range m.Description.Triggers {
		if tr.Name == "noise" {
			noise = i
		}
	}
	var a struct {
		State int `json:"state"`
	}
	get("/api/machines/0/agents/0", &a)
	if m.Description.States[a.State].Name != "patrol" {
		t.Fatalf("the guard starts in %s, want patrol", m.Description.States[a.State].Name)
	}
	cmd("/api/post", `{"machine":0,"agent":0,"trigger":`+itoa(noise)+`}`)
	cmd("/api/step", "")
	for range 100 {
		get("/api/machines/0/agents/0", &a)
		if m.Description.States[a.State].Name != "patrol" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("after the noise and a step the guard is still in patrol")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestViewUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"view"}, "view: no file given"},
		{[]string{"view", "-recording", "x.json", "y.scxml"}, "give no drawing besides"},
		{[]string{"view", "-tps", "0", "a.scxml"}, "-tps 0"},
		{[]string{"view", "-addr", "0.0.0.0:0", "../../examples/guard/guard.scxml"}, "not a loopback address"},
		{[]string{"view", "-recording", "../../examples/guard/guard.scxml"}, "not a recording"},
	} {
		code, _, stderr := cli(t, tt.args...)
		if code == 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want a failure with %q", tt.args, code, stderr, tt.want)
		}
	}
}
