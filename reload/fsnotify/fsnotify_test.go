package fsnotify_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats" // SCXML, for chart.Read
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/reload/fsnotify"
)

// timeout bounds every wait for an event: generous, since it only fails
// a test, and an event on a loaded machine takes well under a second.
const timeout = 10 * time.Second

// watch returns a Notifier watching a new folder, closed at the test's
// end, and the folder.
func watch(t testing.TB) (reload.Notifier, string) {
	t.Helper()
	n, err := fsnotify.New()
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	t.Cleanup(func() { n.Close() })
	dir := t.TempDir()
	if err := n.Add(dir); err != nil {
		t.Fatalf("Add(%s) = %v", dir, err)
	}
	return n, dir
}

// await reads n's events until one names path, and fails the test on a
// watcher error, on closed channels, or after timeout. It returns the
// other paths it read.
func await(t testing.TB, n reload.Notifier, path string) []string {
	t.Helper()
	var others []string
	deadline := time.After(timeout)
	for {
		select {
		case got, ok := <-n.Events():
			if !ok {
				t.Fatalf("Events() closed while waiting for %s", path)
			}
			if got == path {
				return others
			}
			others = append(others, got)
		case err, ok := <-n.Errors():
			if !ok {
				t.Fatalf("Errors() closed while waiting for %s", path)
			}
			t.Fatalf("Errors() = %v while waiting for %s", err, path)
		case <-deadline:
			t.Fatalf("no event for %s after %v (got %q)", path, timeout, others)
		}
	}
}

var fences int

// fence writes a new file in dir and reads n's events until its own: the
// events of what was done before it have then been read, since a watcher
// delivers one folder's events in order. It returns the paths read
// before the fence's.
func fence(t testing.TB, n reload.Notifier, dir string) []string {
	t.Helper()
	fences++
	path := filepath.Join(dir, fmt.Sprintf("fence-%d", fences))
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return await(t, n, path)
}

// The saves of the editors the Reloader expects each yield an event that
// names the drawing.
func TestEvents(t *testing.T) {
	writeFile := func(path string) error { return os.WriteFile(path, []byte("<scxml/> new"), 0o644) }
	tests := []struct {
		name  string
		steps []func(path string) error // each followed by an event naming path
	}{
		{"write in place", []func(string) error{writeFile}},
		{"rename over", []func(string) error{func(path string) error {
			tmp := filepath.Join(filepath.Dir(path), ".goomba.scxml~")
			if err := os.WriteFile(tmp, []byte("<scxml/> renamed"), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}}},
		{"remove and recreate", []func(string) error{os.Remove, writeFile}},
		{"write in several writes", []func(string) error{func(path string) error {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return err
			}
			for range 3 {
				if _, err := f.WriteString("<scxml/>\n"); err != nil {
					f.Close()
					return err
				}
			}
			return f.Close()
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "goomba.scxml")
			if err := os.WriteFile(path, []byte("<scxml/> old"), 0o644); err != nil {
				t.Fatal(err)
			}
			n, err := fsnotify.New()
			if err != nil {
				t.Fatalf("New() = %v", err)
			}
			defer n.Close()
			if err := n.Add(dir); err != nil {
				t.Fatalf("Add(%s) = %v", dir, err)
			}
			for i, step := range tt.steps {
				fence(t, n, dir) // nothing left of the step before
				if err := step(path); err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				await(t, n, path)
			}
		})
	}
}

// A change of attributes alone is not delivered.
func TestChmodOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows sends no Chmod")
	}
	n, dir := watch(t)
	path := filepath.Join(dir, "goomba.scxml")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	await(t, n, path)
	fence(t, n, dir)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := fence(t, n, dir); slices.Contains(got, path) {
		t.Errorf("after a chmod, events = %q, want none for %s", got, path)
	}
}

// Events names files in a folder given with a trailing separator, or not
// clean, as filepath.Join names them.
func TestEventNameClean(t *testing.T) {
	n, err := fsnotify.New()
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	defer n.Close()
	dir := t.TempDir()
	if err := n.Add(dir + string(filepath.Separator) + "." + string(filepath.Separator)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "goomba.scxml")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	await(t, n, path)
}

// Removing a watched folder says that it is no longer watched.
func TestFolderRemoved(t *testing.T) {
	n, err := fsnotify.New()
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	defer n.Close()
	dir := filepath.Join(t.TempDir(), "art")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := n.Add(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-n.Errors():
		if want := "folder " + dir + " removed"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Errors() = %v, want an error containing %q", err, want)
		}
	case <-time.After(timeout):
		t.Fatalf("no error after %v", timeout)
	}
}

// Close closes both channels, and again does nothing more.
func TestClose(t *testing.T) {
	n, dir := watch(t)
	if err := n.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if _, ok := <-n.Events(); ok {
		t.Error("Events() not closed by Close")
	}
	if _, ok := <-n.Errors(); ok {
		t.Error("Errors() not closed by Close")
	}
	if err := n.Close(); err != nil {
		t.Errorf("Close() again = %v, want nil", err)
	}
	if err := n.Add(dir); err == nil {
		t.Error("Add after Close = nil, want an error")
	}
}

// Close may be called concurrently, and while events wait.
func TestCloseConcurrent(t *testing.T) {
	n, dir := watch(t)
	for i := range 100 { // more than the Events channel holds
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := n.Close(); err != nil {
				t.Errorf("Close() = %v", err)
			}
		})
	}
	wg.Wait()
	for range n.Events() {
	}
	for range n.Errors() {
	}
}

// Close ends the notifier's goroutine and fsnotify's.
func TestCloseLeaksNoGoroutine(t *testing.T) {
	before := goroutines()
	for range 3 {
		n, dir := watch(t)
		if err := os.WriteFile(filepath.Join(dir, "goomba.scxml"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		await(t, n, filepath.Join(dir, "goomba.scxml"))
		if got := goroutines(); got <= before {
			t.Fatalf("watching: %d goroutines of fsnotify, want more than %d", got, before)
		}
		n.Close()
	}
	// A goroutine that closed its channels may not have returned yet:
	// look again until it has.
	deadline := time.Now().Add(timeout)
	for goroutines() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("after Close, %d goroutines of fsnotify, want %d:\n%s", goroutines(), before, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
	}
}

// goroutines counts the goroutines running fsnotify's code or the
// notifier's.
func goroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	count := 0
	for g := range bytes.SplitSeq(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("github.com/fsnotify/fsnotify.")) || bytes.Contains(g, []byte("reload/fsnotify.(*notifier)")) {
			count++
		}
	}
	return count
}

// syncBuffer is a log that the Reloader's goroutine and the test's may
// both write.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// goomba copies the Goomba's SCXML drawing and its stencil into a new
// folder, and returns the drawing's path and the stencil.
func goomba(t testing.TB) (string, *chart.Stencil) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"goomba.scxml", "goomba.stencil.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "goomba", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := chart.LoadStencil(filepath.Join(dir, "goomba.stencil.json"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "goomba.scxml"), st
}

// rename returns the SCXML drawing src with the state from renamed to,
// its targets with it.
func rename(t testing.TB, src []byte, from, to string) []byte {
	t.Helper()
	old := []byte(`"` + from + `"`)
	if bytes.Count(src, old) < 2 {
		t.Fatalf("the drawing has no state %s with transitions to it", from)
	}
	return bytes.ReplaceAll(src, old, []byte(`"`+to+`"`))
}

// saveByRename writes data to path through a temporary file renamed over
// it, and returns the moment the rename began.
func saveByRename(t testing.TB, path string, data []byte) time.Time {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	return start
}

// frames calls r.Frame once a millisecond until it returns a report, and
// returns it; it fails the test after timeout.
func frames(t testing.TB, r *reload.Reloader, log fmt.Stringer) reload.Report {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for tick := uint64(0); ; tick++ {
		if reps := r.Frame(tick); len(reps) > 0 {
			if len(reps) != 1 {
				t.Errorf("Frame(%d) = %d reports, want 1", tick, len(reps))
			}
			return reps[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no reload after %v; log:\n%s", timeout, log)
		}
		time.Sleep(time.Millisecond) // the rest of the frame
	}
}

// added is a Notifier that says when the Reloader has added a folder. The
// Reloader adds the drawing's folder on its own goroutine, after Load has
// returned, then looks at the drawing once: a test that saves after the
// Add knows that the event, not that look, made the reload.
type added struct {
	reload.Notifier
	dirs chan string
}

// newAdded returns a Notifier made by New, which tells of each Add.
func newAdded(t testing.TB) added {
	t.Helper()
	n, err := fsnotify.New()
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	return added{n, make(chan string, 16)}
}

func (a added) Add(dir string) error {
	err := a.Notifier.Add(dir)
	a.dirs <- dir
	return err
}

// wait waits for the Reloader to add the folder of path.
func (a added) wait(t testing.TB, path string) {
	t.Helper()
	select {
	case dir := <-a.dirs:
		if dir != filepath.Dir(path) {
			t.Fatalf("the Reloader added %s, want %s", dir, filepath.Dir(path))
		}
	case <-time.After(timeout):
		t.Fatalf("the Reloader did not add %s after %v", filepath.Dir(path), timeout)
	}
}

// A Reloader with the Notifier reloads a drawing saved by a rename. With
// a Notifier, the Reloader does not poll the files that did not change,
// so the reload shows that the event arrived.
func TestReloader(t *testing.T) {
	path, st := goomba(t)
	n := newAdded(t)
	var log syncBuffer
	r := reload.New(reload.Options{Notifier: n, Log: &log, Poll: time.Hour})
	defer r.Close()
	d, err := r.Load(path, reload.Config{Read: chart.ReadOptions{Stencil: st}})
	if err != nil {
		t.Fatalf("Load(%s) = %v", path, err)
	}
	n.wait(t, path)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	saveByRename(t, path, rename(t, src, "walkRight", "strollRight"))

	rep := frames(t, r, &log)
	if rep.Err != nil {
		t.Fatalf("the reload was refused: %v", rep.Err)
	}
	if want := []reload.Renamed{{From: "walkRight", To: "strollRight"}}; !slices.Equal(rep.Renamed, want) {
		t.Errorf("Renamed = %v, want %v", rep.Renamed, want)
	}
	if rep.Table() != d.Table() {
		t.Error("Report.Table() is not the drawing's table")
	}
	if _, ok := d.Table().LookupState("strollRight"); !ok {
		t.Error("the new table has no state strollRight")
	}
	if _, ok := d.Table().LookupState("walkRight"); ok {
		t.Error("the new table still has a state walkRight")
	}
	t.Logf("%s", rep.String())
}

// A drawing loaded through a symbolic link reloads when the file the link
// names is written: the Reloader watches that file's folder too.
func TestSymlink(t *testing.T) {
	path, st := goomba(t)
	link := filepath.Join(t.TempDir(), "goomba.scxml")
	if err := os.Symlink(path, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	n := newAdded(t)
	var log syncBuffer
	r := reload.New(reload.Options{Notifier: n, Log: &log, Poll: time.Hour})
	defer r.Close()
	if _, err := r.Load(link, reload.Config{Read: chart.ReadOptions{Stencil: st}}); err != nil {
		t.Fatalf("Load(%s) = %v", link, err)
	}
	for range 2 {
		select {
		case <-n.dirs:
		case <-time.After(timeout):
			t.Fatalf("the Reloader did not add both folders after %v", timeout)
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, rename(t, src, "walkRight", "strollRight"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := frames(t, r, &log); rep.Err != nil || len(rep.Renamed) != 1 {
		t.Fatalf("report %s", rep.String())
	}
}

// BenchmarkNotice times a save by rename, from the rename (a system call
// of microseconds: the Reloader may notice before the call has returned)
// until it is noticed (ms/notice): the event's arrival from the
// Notifier, and the moment a Reloader noticed, with the Notifier and when
// it polls. For the Reloaders it also reports their Report's
// Phases.Notice (ms/phases.notice), which runs from the file's
// modification time, and the whole reload, from the rename to the report
// (ms/reload), with Frame called once a millisecond.
func BenchmarkNotice(b *testing.B) {
	b.Run("notifier", func(b *testing.B) {
		n, dir := watch(b)
		path := filepath.Join(dir, "goomba.scxml")
		var times []time.Duration
		for i := 0; b.Loop(); i++ {
			start := saveByRename(b, path, fmt.Appendf(nil, "<scxml/> %d", i))
			await(b, n, path)
			times = append(times, time.Since(start))
		}
		b.ReportMetric(ms(median(times)), "ms/notice")
	})
	for _, mode := range []string{"fsnotify", "poll"} {
		b.Run("reloader="+mode, func(b *testing.B) {
			var opt reload.Options
			var n added
			if mode == "fsnotify" {
				n = newAdded(b)
				opt.Notifier = n
			}
			var log syncBuffer
			opt.Log = &log
			r := reload.New(opt)
			defer r.Close()
			path, st := goomba(b)
			if _, err := r.Load(path, reload.Config{Read: chart.ReadOptions{Stencil: st}}); err != nil {
				b.Fatal(err)
			}
			if mode == "fsnotify" {
				n.wait(b, path)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			versions := [][]byte{rename(b, src, "walkRight", "strollRight"), src}
			var notice, phase, total []time.Duration
			for i := 0; b.Loop(); i++ {
				start := saveByRename(b, path, versions[i%2])
				fi, err := os.Stat(path)
				if err != nil {
					b.Fatal(err)
				}
				rep := frames(b, r, &log)
				total = append(total, time.Since(start))
				if rep.Err != nil {
					b.Fatal(rep.Err)
				}
				// Phases.Notice runs from the modification time the
				// Reloader read, the one fi has: from it, the moment the
				// Reloader noticed, on the wall clock.
				notice = append(notice, fi.ModTime().Add(rep.Phases.Notice).Sub(start))
				phase = append(phase, rep.Phases.Notice)
			}
			b.ReportMetric(ms(median(notice)), "ms/notice")
			b.ReportMetric(ms(median(phase)), "ms/phases.notice")
			b.ReportMetric(ms(median(total)), "ms/reload")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
