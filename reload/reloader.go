package reload

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/viewer"
)

// Defaults of Options.
const (
	DefaultPoll   = 5 * time.Millisecond
	DefaultSettle = 2 * time.Millisecond
	DefaultGrace  = 500 * time.Millisecond
)

// Options tunes a Reloader. The zero value polls the drawings every
// DefaultPoll, logs nothing and serves no viewer.
type Options struct {
	// Notifier tells the Reloader which files changed (see Notifier);
	// nil means polling. The Reloader closes it.
	Notifier Notifier

	// Poll is how often a Reloader without a Notifier looks at its
	// drawings' files (a stat each); 0 means DefaultPoll. With a
	// Notifier, it is how often the Reloader looks again at a file that
	// changed and has not settled yet.
	Poll time.Duration

	// Settle is how long a file must stay unchanged after a change before
	// it is read; 0 means DefaultSettle. A file is also read again when it
	// changed while it was read, and never delivered when it changed
	// while it compiled.
	Settle time.Duration

	// Grace is how long a file that does not read (malformed XML, a
	// truncated archive: perhaps the editor is still writing it) waits for
	// another change before its errors are reported; 0 means
	// DefaultGrace. A file that reads but does not compile is reported at
	// once.
	Grace time.Duration

	// Manual watches nothing in the background: only Refresh looks at
	// the files. For tests, which need reloads at known frames, and for a
	// game that reloads on a key press.
	Manual bool

	// Log receives each reload's report and each refused drawing (the
	// errors with their files, positions and hints), as Report.String
	// writes them, and the watcher's errors. Nil logs nothing. Reports
	// are written by Frame, on the game's goroutine; watcher errors by the
	// Reloader's own.
	Log io.Writer

	// Viewer, when set, is the game's viewer: Frame calls its Frame
	// after the swap, drawings added with Drawing.View are replaced on
	// the page when they reload, and refused drawings are shown there.
	// The Reloader sets the viewer's WhilePaused function, so that a
	// game paused from the page takes reloads where it waits: one
	// Reloader per viewer.
	Viewer *viewer.Viewer
}

// Reloader watches the game's drawings, compiles each new version off the
// game's goroutine, and swaps it in at a frame boundary (Frame). See the
// package documentation.
type Reloader struct {
	opt Options

	mu       sync.Mutex // guards drawings, pending results and closed
	drawings []*Drawing
	closed   bool
	ready    atomic.Bool // some drawing has a result for Frame

	work sync.Mutex // serialises looking at files and loading them

	logMu sync.Mutex

	// The game's goroutine's: the last frame's tick, and the reports of
	// the swaps made while the viewer held the game paused in that frame.
	tick  uint64
	early []Report

	stop chan struct{}
	done chan struct{}
	add  chan string // folders for the background goroutine's notifier
}

// New returns a Reloader watching nothing yet; Load adds drawings. Unless
// opt.Manual, it starts a goroutine that watches them until Close.
func New(opt Options) *Reloader {
	if opt.Poll <= 0 {
		opt.Poll = DefaultPoll
	}
	if opt.Settle <= 0 {
		opt.Settle = DefaultSettle
	}
	if opt.Grace <= 0 {
		opt.Grace = DefaultGrace
	}
	r := &Reloader{opt: opt, stop: make(chan struct{}), done: make(chan struct{}), add: make(chan string, 16)}
	if v := opt.Viewer; v != nil {
		// A game paused from the page waits in the viewer's Frame, at
		// its frame boundary: a drawing saved meanwhile is swapped in
		// there, so that the page shows it at once.
		v.WhilePaused(func() {
			if r.ready.Load() {
				r.early = append(r.early, r.swap(r.tick)...)
			}
		})
	}
	if opt.Manual {
		close(r.done)
		if opt.Notifier != nil {
			opt.Notifier.Close()
			r.opt.Notifier = nil
		}
		return r
	}
	go r.watch()
	return r
}

// Config says how a drawing is read and compiled, and where the agents of
// a state that a new version no longer has go.
type Config struct {
	Read    chart.ReadOptions // as chart.ReadFile takes them; File is set to the path
	Compile compile.Options   // as compile.Compile takes them; Stencil defaults to Read's

	// Fallback names the state that agents and entities go to when the
	// state they are in is gone from a new version and was not renamed
	// (the report says where each went). "" means the fallback the
	// drawing names (chart.Chart's Fallback: fsmforgeFallback in draw.io,
	// Visio or yEd, ff:fallback in SCXML), or else the new version's
	// initial state; so does a name the new version does not have (the
	// report says so).
	Fallback string
}

// Load reads and compiles the drawing at path now, on the caller's
// goroutine, and watches it from then on: its table is Drawing.Table.
// It returns an error naming the file, and the diagnostics (a diag.List,
// with positions and hints) when the drawing does not compile: a game
// cannot start without a working version. Warnings are logged.
func (r *Reloader) Load(path string, cfg Config) (*Drawing, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("reload: %s: %w", path, err)
	}
	d := &Drawing{r: r, path: path, abs: abs, real: abs, cfg: cfg}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		d.real = real // a link: the file it names is watched too
	}
	now := time.Now()
	l := d.load(now, now, true)
	if l.err != nil {
		var re *RefusedError
		if errors.As(l.err, &re) {
			re.First = true
		}
		return nil, fmt.Errorf("reload: Load: %w", l.err)
	}
	d.chart, d.res, d.desc = l.chart, l.res, l.res.Describe()
	d.seen, d.hash = l.stamp, l.hash
	var b strings.Builder
	warnings(l.res).Print(&b, "")
	if f := cfg.Fallback; f != "" {
		if _, ok := l.res.Table.LookupState(f); !ok {
			fmt.Fprintf(&b, "%s: reload: the game's fallback %q is not a state of the drawing; agents of a removed state go to the initial state\n", path, f)
		}
	}
	r.logf("%s", b.String())
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, errors.New("reload: Load after Close")
	}
	r.drawings = append(r.drawings, d)
	r.mu.Unlock()
	if !r.opt.Manual {
		for _, dir := range slices.Compact([]string{filepath.Dir(abs), filepath.Dir(d.real)}) {
			select {
			case r.add <- dir:
			case <-r.done:
			}
		}
	}
	return d, nil
}

// Frame swaps in, at the frame boundary it is called at, every new version
// of a drawing compiled since the last call (onto every target of the
// drawing: agents, crowds, the game's own bindings), then calls the
// viewer's Frame (Options.Viewer) with tick. Call it once per frame, from
// the goroutine that updates the machines, between their updates. It
// returns the reports of the drawings that changed, swapped or refused,
// which it has logged; nil, at the cost of an atomic load, when nothing
// changed. While the page holds the game paused in the viewer's Frame,
// new versions are swapped in there, as they arrive (see
// viewer.Viewer.WhilePaused); the next Frame returns their reports.
func (r *Reloader) Frame(tick uint64) []Report {
	r.tick = tick
	reps := r.early
	r.early = nil
	if r.ready.Load() {
		reps = append(reps, r.swap(tick)...)
	}
	if r.opt.Viewer != nil {
		r.opt.Viewer.Frame(tick)
	}
	return reps
}

// swap applies the pending results, in the order the drawings were loaded.
func (r *Reloader) swap(tick uint64) []Report {
	r.mu.Lock()
	var ready []*Drawing
	var loads []*loaded
	for _, d := range r.drawings {
		if d.pending != nil {
			ready, loads = append(ready, d), append(loads, d.pending)
			d.pending = nil
		}
	}
	r.ready.Store(false)
	r.mu.Unlock()
	reps := make([]Report, 0, len(ready))
	for i, d := range ready {
		rep := d.apply(loads[i], tick)
		r.logf("%s", rep.String())
		reps = append(reps, rep)
	}
	return reps
}

// Refresh looks at every drawing's file now, as the watcher would, and
// reads and compiles each that changed at once, without waiting for it to
// settle: the next Frame swaps in the new versions, or reports why not.
// It returns when they are ready. Errors of a file that does not read are
// reported at once too. Tests call it between writing a file and the
// next Frame, so that a reload happens at a known frame.
func (r *Reloader) Refresh() {
	r.mu.Lock()
	ds := append([]*Drawing(nil), r.drawings...)
	r.mu.Unlock()
	r.work.Lock()
	defer r.work.Unlock()
	now := time.Now()
	for _, d := range ds {
		d.look(now, true)
	}
}

// Close stops watching and waits for the Reloader's goroutine to end. The
// drawings keep their tables; Frame still swaps what was compiled before.
func (r *Reloader) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	close(r.stop)
	<-r.done
	return nil
}

// deliver hands l to the next Frame, replacing a result not swapped yet.
func (r *Reloader) deliver(d *Drawing, l *loaded) {
	r.mu.Lock()
	d.pending = l
	r.ready.Store(true)
	r.mu.Unlock()
	if v := r.opt.Viewer; v != nil {
		v.Wake() // a game paused in the viewer's Frame swaps it in now
	}
}

// logf writes to the log, if any, a line at a time.
func (r *Reloader) logf(format string, args ...any) {
	if r.opt.Log == nil {
		return
	}
	s := fmt.Sprintf(format, args...)
	if s == "" {
		return
	}
	r.logMu.Lock()
	defer r.logMu.Unlock()
	io.WriteString(r.opt.Log, s)
	if s[len(s)-1] != '\n' {
		io.WriteString(r.opt.Log, "\n")
	}
}

// watch is the Reloader's goroutine: it takes the notifier's events, or
// polls, and looks at the files that changed.
func (r *Reloader) watch() {
	defer close(r.done)
	n := r.opt.Notifier
	var events <-chan string
	var errs <-chan error
	if n != nil {
		events, errs = n.Events(), n.Errors()
	}
	defer func() {
		if n != nil {
			n.Close()
		}
	}()
	tick := time.NewTicker(r.opt.Poll)
	defer tick.Stop()
	settle := time.NewTimer(time.Hour)
	settle.Stop()
	dirs := map[string]bool{}
	for {
		var dirty bool
		select {
		case <-r.stop:
			return
		case dir := <-r.add:
			if n != nil && !dirs[dir] {
				dirs[dir] = true
				if err := n.Add(dir); err != nil {
					r.logf("reload: watching %s: %v; polling instead", dir, err)
					n.Close()
					n, events, errs = nil, nil, nil // poll every drawing from now on
				}
			}
			// A save between Load and the watch is seen so.
			dirty = r.lookIn(dir)
		case path, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			dirty = r.changed(path)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			r.logf("reload: watcher: %v; looking at every drawing", err)
			dirty = r.changed("")
		case <-settle.C:
			dirty = r.poll(false)
		case <-tick.C:
			dirty = r.poll(events == nil)
		}
		if dirty {
			settle.Reset(r.opt.Settle)
		}
	}
}

// changed marks the drawing at path (every drawing, for "") as changed,
// and looks at it.
func (r *Reloader) changed(path string) (dirty bool) {
	return r.lookAt(true, func(d *Drawing) bool {
		return path == "" || samePath(d.abs, path) || samePath(d.real, path)
	})
}

// lookIn looks at the drawings of folder dir.
func (r *Reloader) lookIn(dir string) (dirty bool) {
	return r.lookAt(false, func(d *Drawing) bool { return filepath.Dir(d.abs) == dir || filepath.Dir(d.real) == dir })
}

// poll looks at the drawings that changed and have not settled, and, with
// every true, at every drawing.
func (r *Reloader) poll(every bool) (dirty bool) {
	return r.lookAt(false, func(d *Drawing) bool { return every || d.dirty })
}

// lookAt looks at each drawing which selects, marked changed first when
// mark is set, and reports whether some drawing waits to settle.
func (r *Reloader) lookAt(mark bool, which func(*Drawing) bool) (dirty bool) {
	now := time.Now()
	r.work.Lock()
	defer r.work.Unlock()
	for _, d := range r.watched() {
		if which(d) {
			if mark {
				if !d.dirty {
					d.noticed = now
				}
				d.dirty, d.changedAt = true, now
			}
			d.look(now, false)
		}
		dirty = dirty || d.dirty
	}
	return dirty
}

// watched returns the drawings.
func (r *Reloader) watched() []*Drawing {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.drawings
}

// stamp is what a stat says of a file, to notice a change.
type stamp struct {
	info os.FileInfo
}

// same reports whether s and o describe the same file, unchanged.
func (s stamp) same(o stamp) bool {
	switch {
	case s.info == nil || o.info == nil:
		return s.info == nil && o.info == nil
	case s.info.Size() != o.info.Size(), !s.info.ModTime().Equal(o.info.ModTime()):
		return false
	}
	return os.SameFile(s.info, o.info)
}

// samePath reports whether the notifier's path names the drawing at abs:
// without regard to case where file systems usually ignore it.
func samePath(abs, path string) bool {
	path = filepath.Clean(path)
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.EqualFold(abs, path)
	}
	return abs == path
}
