package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyDrawing copies the drawing at src into a temporary folder and
// returns the copy's path.
func copyDrawing(t *testing.T, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// saveAs writes data over path as editors often do: into a temporary file
// renamed over it.
func saveAs(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// edit saves path with old replaced by new.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	saveAs(t, path, []byte(strings.ReplaceAll(string(b), old, new)))
}

// watchDemo runs "fsmforge demo" with args until the test ends, and
// returns its output.
func watchDemo(t *testing.T, args ...string) *syncBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errw syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"demo"}, args...), strings.NewReader(""), &out, &errw) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("demo %v: %v\n%s", args, err, errw.String())
		}
	})
	waitFor(t, &out, "reloading it when it is saved")
	return &out
}

// waitFor waits until out holds want, for up to 10 s.
func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if strings.Contains(out.String(), want) {
			return
		}
	}
	t.Fatalf("no %q within 10 s in:\n%s", want, out.String())
}

// TestGoombaWatch runs the Goomba from a copy of each of its drawings,
// renames a state in it, saves a broken version, and mends it: each save
// is reported as it happens, and the demo runs on.
func TestGoombaWatch(t *testing.T) {
	for _, tc := range []struct{ file, old, new string }{
		{"goomba.drawio", `label="walkRight"`, `label="strollRight"`},
		{"goomba.scxml", `"walkRight"`, `"strollRight"`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := copyDrawing(t, filepath.Join("../../examples/goomba", tc.file))
			out := watchDemo(t, "goomba", "-watch", "-drawing", path, "-tps", "200")
			good, _ := os.ReadFile(path)
			edit(t, path, tc.old, tc.new)
			waitFor(t, out, "renamed walkRight → strollRight")
			saveAs(t, path, good[:len(good)/2])
			waitFor(t, out, "refused at tick")
			waitFor(t, out, "the game keeps the version it has")
			saveAs(t, path, good)
			waitFor(t, out, "renamed strollRight → walkRight")
		})
	}
}

// TestGuardWatch runs the guards' statechart from a copy of guard.scxml and
// adds a state to it while they run.
func TestGuardWatch(t *testing.T) {
	path := copyDrawing(t, "../../examples/guard/guard.scxml")
	out := watchDemo(t, "guard", "-watch", "-drawing", path, "-tps", "200")
	edit(t, path, `<final id="dead"/>`, `<state id="stunned"/><final id="dead"/>`)
	waitFor(t, out, "added stunned")
}

// TestViewReload opens a copy of the guard's drawing in the simulator and
// saves it with a state added: the viewer's machine becomes version 2.
func TestViewReload(t *testing.T) {
	path := copyDrawing(t, "../../examples/guard/guard.scxml")
	base, _ := serveView(t, path)
	edit(t, path, `<final id="dead"/>`, `<state id="stunned"/><final id="dead"/>`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the viewer did not show the new version within 10 s")
		}
		resp, err := http.Get(base + "/api/machines")
		if err != nil {
			t.Fatal(err)
		}
		var ms []struct {
			Version int `json:"version"`
		}
		err = json.NewDecoder(resp.Body).Decode(&ms)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) == 1 && ms[0].Version == 2 {
			return
		}
	}
}

// TestWatchUsage checks the -watch flags' usage errors.
func TestWatchUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "goomba", "-watch", "-code", "gen"}, "generated code is compiled into the game and cannot be reloaded"},
		{[]string{"demo", "goomba", "-drawing", "x.vdx"}, "-drawing is for -watch"},
		{[]string{"demo", "goomba", "-watch", "-drawing", "nowhere.vdx"}, "run from the repository's root, or give -drawing FILE"},
		{[]string{"demo", "guard", "-watch", "-save-at", "3"}, "-watch runs until interrupted"},
	} {
		code, _, stderr := cli(t, tt.args...)
		if code == 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want a failure with %q", tt.args, code, stderr, tt.want)
		}
	}
}
