package reload

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/fsmforge/fsmforge/chart/formats"
)

const door = `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="closed">
  <state id="closed"><transition event="open" target="opened"/></state>
  <state id="opened"><transition event="close" target="closed"/></state>
</scxml>
`

// TestSettleAndGrace walks the watcher's looks at a file through a save
// made of several writes, at chosen times rather than the clock's: a
// changed file waits to settle; a file that does not read waits for the
// rest of the save, and is reported only when the grace is over; the
// whole file is delivered once settled.
func TestSettleAndGrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "door.scxml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(door)
	r := New(Options{Manual: true, Settle: 10 * time.Millisecond, Grace: 100 * time.Millisecond})
	d, err := r.Load(path, Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	pending := func() *loaded {
		r.mu.Lock()
		defer r.mu.Unlock()
		l := d.pending
		d.pending = nil
		return l
	}
	next := door[:len(door)/2] + "<!-- half -->"
	steps := []struct {
		what    string
		write   string // "" writes nothing
		at      int
		deliver string // "", "ok" or "error"
		dirty   bool
	}{
		{"the first half is written", next, 0, "", true},
		{"not settled", "", 5, "", true},
		{"settled, but does not read: wait", "", 20, "", true},
		{"still within the grace", "", 90, "", true},
		{"the grace is over: report", "", 130, "error", false},
		{"unchanged: nothing more", "", 200, "", false},
		{"the whole file", door + "<!-- v2 -->", 300, "", true},
		{"settled: delivered", "", 315, "ok", false},
		{"the same content again", door + "<!-- v2 -->", 400, "", true},
		{"settled: nothing new", "", 415, "", false},
	}
	for _, s := range steps {
		if s.write != "" {
			write(s.write)
			// A stat may not tell two writes in one clock tick apart:
			// make the modification time the look's.
			os.Chtimes(path, at(s.at), at(s.at))
		}
		d.look(at(s.at), false)
		l := pending()
		got := ""
		switch {
		case l != nil && l.err != nil:
			got = "error"
		case l != nil:
			got = "ok"
		}
		if got != s.deliver || d.dirty != s.dirty {
			t.Errorf("%s (at %d ms): delivered %q, dirty %v; want %q, %v", s.what, s.at, got, d.dirty, s.deliver, s.dirty)
		}
	}
}

// TestRemovedDuringSave checks that a drawing removed to be written again
// is not reported as missing within the grace.
func TestRemovedDuringSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "door.scxml")
	if err := os.WriteFile(path, []byte(door), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New(Options{Manual: true, Settle: 10 * time.Millisecond, Grace: 100 * time.Millisecond})
	d, err := r.Load(path, Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	os.Remove(path)
	d.look(t0, false)
	d.look(t0.Add(20*time.Millisecond), false)
	if d.pending != nil {
		t.Fatalf("a file removed within the grace was reported: %v", d.pending.err)
	}
	d.look(t0.Add(200*time.Millisecond), false)
	if d.pending == nil || d.pending.err == nil {
		t.Fatal("a file still missing after the grace was not reported")
	}
}
