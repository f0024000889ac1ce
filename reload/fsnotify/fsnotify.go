package fsnotify

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsnotify/fsnotify"
)

// Sizes of the queues between fsnotify and the Reloader.
const (
	// eventBuffer is the capacity of the Events channel.
	eventBuffer = 64
	// maxPending is how many distinct paths wait behind a full Events
	// channel before they are dropped for one ErrDropped.
	maxPending = 256
	// maxErrors is how many errors wait for the Reloader before they are
	// dropped (and counted in an ErrDropped).
	maxErrors = 8
)

// relayed are the operations whose paths Events delivers. A change of
// attributes alone (fsnotify.Chmod) is not: see the package
// documentation.
const relayed = fsnotify.Create | fsnotify.Write | fsnotify.Remove | fsnotify.Rename

// ErrDropped is the error Errors delivers, wrapped with a count, when
// events were dropped because the Reloader did not keep up: the Reloader
// then looks at every drawing, which no dropped event can hide a change
// from.
var ErrDropped = errors.New("reload/fsnotify: events dropped")

// New returns a reload.Notifier that uses the operating system's
// notifications through github.com/fsnotify/fsnotify: give it to
// reload.New as Options.Notifier, which closes it.
//
// It fails where fsnotify cannot watch (a platform it does not cover, or
// Linux's limit on inotify instances reached); New then returns a nil
// Notifier with the error, and the nil Notifier, given to reload.New,
// polls.
//
// The Notifier is safe for concurrent use. It runs one goroutine beside
// fsnotify's, until Close; it never blocks fsnotify's, however slow the
// Reloader: Events is buffered, a path already waiting is not queued
// again, and when too many distinct paths wait it drops them for one
// error (ErrDropped) on Errors, which makes the Reloader look at every
// drawing.
func New() (reload.Notifier, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("reload/fsnotify: %w", err)
	}
	return start(w.Events, w.Errors, w.Add, w.Close), nil
}

// notifier is the reload.Notifier New returns: a relay from a watcher's
// channels to its own, which it closes at Close.
type notifier struct {
	events chan string
	errs   chan error

	add   func(dir string) error // the watcher's Add
	close func() error           // the watcher's Close

	mu   sync.Mutex
	dirs map[string]bool // the folders added, to tell when one goes

	once     sync.Once
	closeErr error         // what the watcher's Close returned
	stop     chan struct{} // closed by Close
	done     chan struct{} // closed when the relay has ended
}

// start returns a notifier relaying in and inErr, the channels of a
// watcher whose Add and Close are add and close, and starts its relay.
func start(in <-chan fsnotify.Event, inErr <-chan error, add func(string) error, close func() error) *notifier {
	n := &notifier{
		events: make(chan string, eventBuffer),
		errs:   make(chan error),
		add:    add,
		close:  close,
		dirs:   map[string]bool{},
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go n.relay(in, inErr)
	return n
}

// Add starts watching the folder dir, not its subfolders. It fails when
// dir is not a folder that can be watched (it does not exist, or Linux's
// fs.inotify.max_user_watches is reached), and after Close.
func (n *notifier) Add(dir string) error {
	select {
	case <-n.stop:
		return errors.New("reload/fsnotify: Add after Close")
	default:
	}
	dir = filepath.Clean(dir)
	if err := n.add(dir); err != nil {
		return fmt.Errorf("reload/fsnotify: %w", err)
	}
	n.mu.Lock()
	n.dirs[dir] = true
	n.mu.Unlock()
	return nil
}

// Events delivers the path of each file created, written, renamed or
// removed in a watched folder (the folder as given to Add, cleaned, joined
// with the file's name), and of a watched folder removed or renamed. It
// is closed by Close.
func (n *notifier) Events() <-chan string { return n.events }

// Errors delivers fsnotify's errors (fsnotify.ErrEventOverflow when the
// kernel's queue overflowed), an ErrDropped when events were dropped, and
// an error naming a watched folder that was removed or renamed, whose
// drawings are no longer watched. It is unbuffered, and closed by Close.
func (n *notifier) Errors() <-chan error { return n.errs }

// Close stops watching, closes Events and Errors, and returns when the
// notifier's goroutine and fsnotify's have ended. Events not yet
// received are dropped. Calling it again, or concurrently, does nothing
// more and returns the same error.
func (n *notifier) Close() error {
	n.once.Do(func() {
		n.closeErr = n.close()
		close(n.stop)
		<-n.done
	})
	return n.closeErr
}

// relay is the notifier's goroutine: it takes the watcher's events and
// errors as they come, and hands them on as the Reloader takes them.
func (n *notifier) relay(in <-chan fsnotify.Event, inErr <-chan error) {
	defer close(n.done)
	defer close(n.errs)
	defer close(n.events)
	var q queue
	for {
		q.flush(n.events)
		var out chan<- string
		var next string
		if len(q.paths) > 0 {
			out, next = n.events, q.paths[0]
		}
		var errOut chan<- error
		nextErr := q.nextErr()
		if nextErr != nil {
			errOut = n.errs
		}
		select {
		case ev, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			n.event(&q, ev)
		case err, ok := <-inErr:
			if !ok {
				inErr = nil
				continue
			}
			q.error(err)
		case out <- next:
			q.popPath()
		case errOut <- nextErr:
			q.popErr()
		case <-n.stop:
			if n.closeErr == nil {
				drain(in, inErr)
			}
			return
		}
	}
}

// event queues what ev says, if anything.
func (n *notifier) event(q *queue, ev fsnotify.Event) {
	if ev.Op&relayed == 0 {
		return // attributes only: nothing a drawing's content shows
	}
	name := filepath.Clean(ev.Name)
	if ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename) {
		n.mu.Lock()
		gone := n.dirs[name]
		delete(n.dirs, name)
		n.mu.Unlock()
		if gone {
			q.error(fmt.Errorf("reload/fsnotify: folder %s removed or renamed: its drawings are no longer watched", name))
		}
	}
	q.path(name)
}

// drain receives from the watcher's channels until its Close has closed
// them both, so that its goroutine has ended when Close returns.
func drain(in <-chan fsnotify.Event, inErr <-chan error) {
	for in != nil || inErr != nil {
		select {
		case _, ok := <-in:
			if !ok {
				in = nil
			}
		case _, ok := <-inErr:
			if !ok {
				inErr = nil
			}
		}
	}
}

// queue is what waits for the Reloader behind the channels: distinct
// paths, in the order they came, and errors, until too many wait, and
// then a count of what was dropped.
type queue struct {
	paths  []string
	queued map[string]bool
	errs   []error
	// Dropped since the last ErrDropped was delivered; while events >
	// 0, every event is dropped.
	droppedEvents, droppedErrors int
}

// flush moves the waiting paths into out while it has room.
func (q *queue) flush(out chan<- string) {
	for len(q.paths) > 0 {
		select {
		case out <- q.paths[0]:
			q.popPath()
		default:
			return
		}
	}
}

// path queues name, unless it waits already. When maxPending paths wait,
// they are all dropped, and so is every event until the Reloader takes
// the ErrDropped that says so: it then looks at every file anyway.
func (q *queue) path(name string) {
	switch {
	case q.droppedEvents > 0:
		q.droppedEvents++
	case q.queued[name]:
	case len(q.paths) == maxPending:
		q.droppedEvents = len(q.paths) + 1
		q.paths, q.queued = q.paths[:0], nil
	default:
		if q.queued == nil {
			q.queued = map[string]bool{}
		}
		q.paths = append(q.paths, name)
		q.queued[name] = true
	}
}

func (q *queue) popPath() {
	delete(q.queued, q.paths[0])
	q.paths = slices.Delete(q.paths, 0, 1)
}

// error queues err, or counts it as dropped when maxErrors wait.
func (q *queue) error(err error) {
	if len(q.errs) == maxErrors {
		q.droppedErrors++
		return
	}
	q.errs = append(q.errs, err)
}

// nextErr returns the error to deliver next, nil when none waits: what
// was dropped first, since it makes the Reloader look at every file.
func (q *queue) nextErr() error {
	if q.droppedEvents > 0 || q.droppedErrors > 0 {
		return droppedError{q.droppedEvents, q.droppedErrors}
	}
	if len(q.errs) > 0 {
		return q.errs[0]
	}
	return nil
}

func (q *queue) popErr() {
	if q.droppedEvents > 0 || q.droppedErrors > 0 {
		q.droppedEvents, q.droppedErrors = 0, 0
		return
	}
	q.errs = slices.Delete(q.errs, 0, 1)
}

// droppedError is an ErrDropped with its counts.
type droppedError struct{ events, errors int }

func (e droppedError) Error() string {
	var what string
	switch {
	case e.errors == 0:
		what = plural(e.events, "event")
	case e.events == 0:
		what = plural(e.errors, "error")
	default:
		what = plural(e.events, "event") + " and " + plural(e.errors, "error")
	}
	return fmt.Sprintf("reload/fsnotify: %s dropped while the Reloader was busy", what)
}

func (e droppedError) Is(target error) bool { return target == ErrDropped }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
