package reload

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// Drawing is one drawing a Reloader watches: its current version (chart,
// compile result, table) and what runs its table (targets). Its methods
// are for the game's goroutine, the one that calls Frame.
type Drawing struct {
	r    *Reloader
	path string // as given to Load
	abs  string
	real string // abs, its links followed: a link's target is watched too
	cfg  Config

	// The current version: read by the game's goroutine, changed by
	// Frame.
	chart   *chart.Chart
	res     *compile.Result
	desc    *machine.Description
	targets []target
	views   []view

	// Set under Reloader.mu.
	pending *loaded

	// Owned by whoever holds Reloader.work: what the watcher knows of the
	// file.
	seen       stamp     // the last stat
	dirty      bool      // changed since last read, or waiting for the rest of a save
	changedAt  time.Time // the last change seen
	noticed    time.Time // the first change seen since the last load
	hash       uint64    // the content of the version loaded or refused last
	bad        uint64    // the content that did not read, waiting for the grace
	badSince   time.Time
	badStamp   stamp
	badShown   bool
	unreadable bool // the file could not be opened: reported once
}

// target is one runtime the drawing's table runs in.
type target struct {
	name string
	t    Target
}

// view is a machine of the viewer that shows the drawing.
type view struct {
	m      int
	source func(t *table.Table) viewer.Source
}

// Path returns the drawing's path, as given to Load.
func (d *Drawing) Path() string { return d.path }

// Table returns the table of the current version.
func (d *Drawing) Table() *table.Table { return d.res.Table }

// Chart returns the chart of the current version, as the importer read it.
func (d *Drawing) Chart() *chart.Chart { return d.chart }

// Result returns what compile made of the current version.
func (d *Drawing) Result() *compile.Result { return d.res }

// Run adds t to what runs the drawing's table: at each reload, Frame moves
// every target onto the new table, or none of them. name names it in
// reports ("goombas", "crowd"). Targets are moved in the order they were
// added.
func (d *Drawing) Run(name string, t Target) {
	if t == nil {
		panic("reload: Drawing.Run: nil Target")
	}
	d.targets = append(d.targets, target{name, t})
}

// View adds the drawing's machine to the Reloader's viewer (Options.Viewer),
// drawn where the designer drew it, showing source(Table()); at each
// reload the page shows source(the new table), drawn anew, with the
// reload's report, and a refused version's errors. It returns the
// viewer's number for the machine. View panics without a viewer.
func (d *Drawing) View(name string, source func(t *table.Table) viewer.Source) int {
	v := d.r.opt.Viewer
	if v == nil {
		panic("reload: Drawing.View: the Reloader has no viewer (Options.Viewer)")
	}
	m := v.Add(name, source(d.res.Table), viewer.FromCompile(d.chart, d.res))
	d.views = append(d.views, view{m, source})
	return m
}

// loaded is a version of the drawing read and compiled off the game's
// goroutine, waiting for Frame: a working one (res), or why not (err).
type loaded struct {
	chart *chart.Chart
	res   *compile.Result
	err   error
	stamp stamp
	hash  uint64
	times phaseTimes
}

// phaseTimes are the moments a version went through.
type phaseTimes struct {
	written  time.Time // the file's modification time
	noticed  time.Time // the watcher saw it change
	started  time.Time // reading began (after it settled)
	read     time.Time // read and imported
	checked  time.Time // compile's checks done
	compiled time.Time // the table built
}

// look looks at the drawing's file: it notices a change, waits for the
// file to settle, then loads it and delivers the result to Frame. With
// force it reads the file now and reports what does not read at once.
func (d *Drawing) look(now time.Time, force bool) {
	st := statFile(d.abs)
	if !d.seen.same(st) {
		if !d.dirty {
			d.noticed = now
		}
		d.dirty, d.changedAt, d.seen = true, now, st
		if !force {
			return
		}
	}
	if !force && (!d.dirty || now.Sub(d.changedAt) < d.r.opt.Settle) {
		return
	}
	if !force && d.bad != 0 && d.badStamp.same(st) {
		if d.badShown || now.Sub(d.badSince) < d.r.opt.Grace {
			d.dirty = !d.badShown
			return // the file that does not read, unchanged
		}
	}
	if d.noticed.IsZero() {
		d.noticed = now
	}
	l := d.load(now, d.noticed, force)
	switch {
	case l == nil: // unchanged, waiting for the rest of a save, or changed while read
		return
	case l.err == nil && !statFile(d.abs).same(l.stamp):
		d.dirty, d.changedAt = true, now // written again while it compiled
		return
	}
	d.dirty, d.noticed = false, time.Time{}
	d.hash, d.bad = l.hash, 0
	d.r.deliver(d, l)
}

// contentSeed seeds the hashes that tell a file's versions apart.
var contentSeed = maphash.MakeSeed()

// statFile stats the file at path; a file that cannot be stat'ed has a
// zero stamp.
func statFile(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{fi}
}

// load reads and compiles the drawing's file. It returns nil when there
// is nothing to deliver: the content is the version loaded last, the file
// changed while it was read, or it does not read and the grace is not
// over. With initial (Load) or a forced look, every failure is returned.
//
// now is the time of the look, for the settle and the grace; the phases
// are timed by the clock.
func (d *Drawing) load(now, noticed time.Time, force bool) *loaded {
	l := &loaded{times: phaseTimes{noticed: noticed, started: time.Now()}}
	before := statFile(d.abs)
	data, err := os.ReadFile(d.abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !force && now.Sub(d.changedAt) < d.r.opt.Grace {
			return nil // removed to be written again, perhaps
		}
		if d.unreadable && !force {
			return nil
		}
		d.unreadable = true
		l.err = refused(d.path, "cannot be read", err)
		return l
	}
	d.unreadable = false
	l.stamp = statFile(d.abs)
	if !before.same(l.stamp) {
		d.dirty, d.changedAt, d.seen = true, now, l.stamp // still being written
		return nil
	}
	if l.stamp.info != nil {
		l.times.written = l.stamp.info.ModTime()
	}
	l.hash = maphash.Bytes(contentSeed, data)
	if l.hash == d.hash && d.hash != 0 {
		d.dirty, d.bad, d.badShown = false, 0, false
		return nil // saved again unchanged
	}
	if l.hash == d.bad && !force && (d.badShown || now.Sub(d.badSince) < d.r.opt.Grace) {
		return nil
	}
	ro := d.cfg.Read
	ro.File = d.path
	c, err := chart.Read(bytes.NewReader(data), d.path, ro)
	l.times.read = time.Now()
	if c == nil || err != nil && !worthCompiling(c) {
		if c == nil && err == nil {
			err = fmt.Errorf("%s: nothing read", d.path)
		}
		if d.bad != l.hash {
			d.bad, d.badSince, d.badShown = l.hash, now, false
		}
		d.badStamp = l.stamp
		if !force && now.Sub(d.badSince) < d.r.opt.Grace {
			return nil // perhaps half written: wait for the rest
		}
		d.badShown = true
		l.err = refused(d.path, "does not read", err)
		return l
	}
	co := d.cfg.Compile
	if co.Stencil == nil {
		co.Stencil = ro.Stencil
	}
	co.Checked = func() { l.times.checked = time.Now() }
	res, err := compile.Compile(c, co)
	l.times.compiled = time.Now()
	if l.times.checked.IsZero() {
		l.times.checked = l.times.compiled
	}
	if err != nil {
		l.err = refused(d.path, "does not compile", res.Diagnostics)
		return l
	}
	l.chart, l.res = c, res
	return l
}

// worthCompiling reports whether c, read with errors, still holds a
// machine worth compiling (whose errors compile then reports with the
// chart's): an importer's error list on a chart it read through.
func worthCompiling(c *chart.Chart) bool {
	return c != nil && len(c.States) > 0
}

// refused wraps what made a version unusable: a diag.List keeps its
// diagnostics (errors.As finds it), with a first line that counts them.
func refused(path, what string, err error) error {
	return &RefusedError{Path: path, What: what, Err: err}
}

// RefusedError is why a new version of a drawing was refused: the game
// runs on with the version it has.
type RefusedError struct {
	Path string // the drawing's path
	What string // "cannot be read", "does not read", "does not compile", "does not fit the game"
	Err  error  // the diagnostics (a diag.List) or the target's error

	// First is true for the version Load read: there is no other to
	// keep, and the game cannot start.
	First bool
}

// Error returns the first line, "goomba.vdx: does not compile (2 errors);
// the game keeps the version it has" (without the second half for the
// first version), then each error with its hint.
func (e *RefusedError) Error() string {
	var b strings.Builder
	var ds diag.List
	if errors.As(e.Err, &ds) {
		errs := ds.Errors()
		fmt.Fprintf(&b, "%s: %s (%d %s)%s\n", e.Path, e.What, len(errs), plural(len(errs), "error"), e.keeps())
		errs.Print(&b, "\t")
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(&b, "%s: %s%s: %v", e.Path, e.What, e.keeps(), e.Err)
	return b.String()
}

// keeps says what the game does meanwhile.
func (e *RefusedError) keeps() string {
	if e.First {
		return ""
	}
	return "; the game keeps the version it has"
}

// Unwrap returns the diagnostics or the target's error.
func (e *RefusedError) Unwrap() error { return e.Err }

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// warnings returns the warnings of a compile.
func warnings(res *compile.Result) diag.List {
	var ws diag.List
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Warning {
			ws = append(ws, d)
		}
	}
	return ws
}
