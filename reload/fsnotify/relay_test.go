package fsnotify

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

const timeout = 10 * time.Second

// fake is a watcher's side of a notifier: the channels fsnotify sends on,
// which its Close closes.
type fake struct {
	t      *testing.T
	events chan fsnotify.Event
	errs   chan error
	added  []string
	n      *notifier
}

func newFake(t *testing.T) *fake {
	f := &fake{t: t, events: make(chan fsnotify.Event), errs: make(chan error)}
	f.n = start(f.events, f.errs,
		func(dir string) error { f.added = append(f.added, dir); return nil },
		func() error { close(f.events); close(f.errs); return nil })
	t.Cleanup(func() { f.n.Close() })
	return f
}

// send sends ev as fsnotify's goroutine does, and fails the test if the
// notifier does not take it: it must never block fsnotify.
func (f *fake) send(ev fsnotify.Event) {
	f.t.Helper()
	select {
	case f.events <- ev:
	case <-time.After(timeout):
		f.t.Fatalf("the notifier blocked fsnotify's goroutine on %v", ev)
	}
}

func (f *fake) sendError(err error) {
	f.t.Helper()
	select {
	case f.errs <- err:
	case <-time.After(timeout):
		f.t.Fatalf("the notifier blocked fsnotify's goroutine on %v", err)
	}
}

// until reads the notifier's events until path, and returns those before.
func (f *fake) until(path string) []string {
	f.t.Helper()
	var got []string
	for {
		select {
		case p := <-f.n.events:
			if p == path {
				return got
			}
			got = append(got, p)
		case err := <-f.n.errs:
			f.t.Fatalf("Errors() = %v while waiting for %s", err, path)
		case <-time.After(timeout):
			f.t.Fatalf("no event for %s after %v (got %q)", path, timeout, got)
		}
	}
}

func (f *fake) error() error {
	f.t.Helper()
	select {
	case err := <-f.n.errs:
		return err
	case <-time.After(timeout):
		f.t.Fatalf("no error after %v", timeout)
		return nil
	}
}

// A Reloader that does not read gets each waiting path once, behind the
// full Events channel.
func TestCoalesce(t *testing.T) {
	f := newFake(t)
	paths := []string{"/art/a", "/art/b", "/art/c"}
	for i := range 10_000 {
		f.send(fsnotify.Event{Name: paths[i%3], Op: fsnotify.Write})
	}
	f.send(fsnotify.Event{Name: "/art/z", Op: fsnotify.Create})
	got := f.until("/art/z")
	// The channel's buffer, filled in order, then a path of each waiting.
	var want []string
	for i := range eventBuffer {
		want = append(want, paths[i%3])
	}
	want = append(want, paths[eventBuffer%3], paths[(eventBuffer+1)%3], paths[(eventBuffer+2)%3])
	if !slices.Equal(got, want) {
		t.Errorf("events = %q (%d), want %q (%d)", got, len(got), want, len(want))
	}
}

// Past maxPending distinct paths, the events are dropped for one
// ErrDropped, and then delivered again.
func TestDropped(t *testing.T) {
	f := newFake(t)
	const sent = eventBuffer + maxPending + 100
	for i := range sent {
		f.send(fsnotify.Event{Name: fmt.Sprintf("/art/%d", i), Op: fsnotify.Write})
	}
	err := f.error()
	if !errors.Is(err, ErrDropped) {
		t.Fatalf("Errors() = %v, want an ErrDropped", err)
	}
	if want := fmt.Sprintf("reload/fsnotify: %d events dropped while the Reloader was busy", sent-eventBuffer); err.Error() != want {
		t.Errorf("Errors() = %q, want %q", err, want)
	}
	f.send(fsnotify.Event{Name: "/art/z", Op: fsnotify.Write})
	got := f.until("/art/z")
	if len(got) != eventBuffer || got[0] != "/art/0" || got[eventBuffer-1] != fmt.Sprintf("/art/%d", eventBuffer-1) {
		t.Errorf("events = %q, want /art/0 to /art/%d", got, eventBuffer-1)
	}
}

// Errors wait for the Reloader too, the excess counted.
func TestErrorsQueued(t *testing.T) {
	f := newFake(t)
	for i := range maxErrors + 3 {
		f.sendError(fmt.Errorf("error %d", i))
	}
	if err := f.error(); !errors.Is(err, ErrDropped) || err.Error() != "reload/fsnotify: 3 errors dropped while the Reloader was busy" {
		t.Errorf("Errors() = %v, want 3 errors dropped", err)
	}
	for i := range maxErrors {
		if err, want := f.error(), fmt.Sprintf("error %d", i); err.Error() != want {
			t.Errorf("Errors() = %v, want %s", err, want)
		}
	}
}

// Which operations are delivered, and as which path.
func TestOps(t *testing.T) {
	f := newFake(t)
	for _, ev := range []fsnotify.Event{
		{Name: "/art/chmod", Op: fsnotify.Chmod},
		{Name: "/art/create", Op: fsnotify.Create},
		{Name: "/art/write", Op: fsnotify.Write},
		{Name: "/art/remove", Op: fsnotify.Remove},
		{Name: "/art/rename", Op: fsnotify.Rename},
		{Name: "/art/chmod+rename", Op: fsnotify.Chmod | fsnotify.Rename},
		{Name: "/art//unclean/../x", Op: fsnotify.Write},
	} {
		f.send(ev)
	}
	f.send(fsnotify.Event{Name: "/art/end", Op: fsnotify.Write})
	want := []string{"/art/create", "/art/write", "/art/remove", "/art/rename", "/art/chmod+rename", "/art/x"}
	if got := f.until("/art/end"); !slices.Equal(got, want) {
		t.Errorf("events = %q, want %q", got, want)
	}
}

// A watched folder removed or renamed is an error, and an event.
func TestFolderGone(t *testing.T) {
	for _, op := range []fsnotify.Op{fsnotify.Remove, fsnotify.Rename} {
		t.Run(op.String(), func(t *testing.T) {
			f := newFake(t)
			if err := f.n.Add("/art/"); err != nil {
				t.Fatal(err)
			}
			if want := []string{"/art"}; !slices.Equal(f.added, want) {
				t.Errorf("added %q, want %q", f.added, want)
			}
			f.send(fsnotify.Event{Name: "/art", Op: op})
			want := "reload/fsnotify: folder /art removed or renamed: its drawings are no longer watched"
			if err := f.error(); err.Error() != want {
				t.Errorf("Errors() = %v, want %s", err, want)
			}
			if got := f.until("/art"); len(got) != 0 {
				t.Errorf("events before /art = %q, want none", got)
			}
		})
	}
}

// Close returns the watcher's error, and does not wait for its channels
// then, since a watcher that failed to close may not close them.
func TestCloseError(t *testing.T) {
	boom := errors.New("boom")
	in, inErr := make(chan fsnotify.Event), make(chan error)
	n := start(in, inErr, func(string) error { return nil }, func() error { return boom })
	done := make(chan error)
	go func() { done <- n.Close() }()
	select {
	case err := <-done:
		if err != boom {
			t.Errorf("Close() = %v, want %v", err, boom)
		}
	case <-time.After(timeout):
		t.Fatal("Close() did not return")
	}
	if err := n.Close(); err != boom {
		t.Errorf("Close() again = %v, want %v", err, boom)
	}
	if _, ok := <-n.Events(); ok {
		t.Error("Events() not closed")
	}
}
