package game

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats" // the drawing may be Visio, draw.io, SCXML or yEd
	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/reload/fsnotify"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// Defaults of Options, and the rule of the player.
const (
	DefaultGoombas   = 3
	DefaultStepEvery = 6 // frames a step: 10 steps a second at 60 TPS
	MaxGoombas       = 12

	// ReenterTicks is how long, in the level's ticks, the player is gone
	// after a jump before the next one enters at the right end.
	ReenterTicks = 8
)

// Code says what runs the goombas' machine.
type Code uint8

const (
	Table Code = iota // the drawing's table, reloaded when saved: for development
	Gen               // the Go code fsmforge gen made of the drawing: for release
)

// String returns "table" or "gen", as the -code flag takes them.
func (c Code) String() string {
	switch c {
	case Table:
		return "table"
	case Gen:
		return "gen"
	}
	return fmt.Sprintf("Code(%d)", c)
}

// Options says which drawing the goombas run, and how. The zero value
// runs DefaultGoombas goombas on the drawing's table; Drawing must then
// be set.
type Options struct {
	// Drawing is the path of the designer's drawing (goomba.vdx, or the
	// same machine drawn in another editor). Read only with Table; Gen
	// reads no file.
	Drawing string

	// Stencil is the path of the stencil the drawing was made with. ""
	// means goomba.stencil.json in the drawing's folder.
	Stencil string

	// Goombas is how many goombas the level has, 1 to MaxGoombas; 0
	// means DefaultGoombas.
	Goombas int

	// Code says what runs the goombas: Table (the default) or Gen.
	Code Code

	// StepEvery is how many frames pass between two steps of the level;
	// 0 means DefaultStepEvery.
	StepEvery int

	// Live is the address the browser viewer serves on ("127.0.0.1:0"
	// picks a free port); "" serves none. Table only: the viewer shows
	// the drawing's table and its agents.
	Live string

	// Log receives each reload's report (reload.Options.Log); nil logs
	// nothing.
	Log io.Writer

	// Manual reloads the drawing only when Refresh is called, at a
	// known frame, as tests want (reload.Options.Manual). False (the
	// default) watches the file.
	Manual bool
}

// Input is what the player did during a frame. The zero value is nothing.
type Input struct {
	// Stomp is the ID (from 1) of the goomba the player clicked, which
	// receives hitByPlayer at the next step; 0 is none.
	Stomp int
}

// World is the game without its window. Its methods are for the
// goroutine that runs the frames.
type World struct {
	opt    Options
	r      *reload.Reloader // nil with Gen
	d      *reload.Drawing
	v      *viewer.Viewer
	url    string
	level  *goomba.Level
	frame  uint64
	levels int
	jumped int // the tick at which the player jumped, or -1
	report []string
}

// New loads the drawing (with Table), makes the first level and, with
// opt.Live, serves the viewer. It returns an error naming the file when
// the drawing or its stencil does not read or compile: the game cannot
// start without a working version. Close stops the watcher and the viewer.
func New(opt Options) (*World, error) {
	if opt.Goombas == 0 {
		opt.Goombas = DefaultGoombas
	}
	if opt.StepEvery <= 0 {
		opt.StepEvery = DefaultStepEvery
	}
	switch {
	case opt.Goombas < 1 || opt.Goombas > MaxGoombas:
		return nil, fmt.Errorf("game: %d goombas: want 1 to %d", opt.Goombas, MaxGoombas)
	case opt.Code != Table && opt.Code != Gen:
		return nil, fmt.Errorf("game: unknown %v", opt.Code)
	case opt.Code == Gen && opt.Live != "":
		return nil, errors.New("game: the viewer shows the drawing's table: it needs Code Table")
	case opt.Code == Table && opt.Drawing == "":
		return nil, errors.New("game: no drawing: Options.Drawing names it")
	}
	w := &World{opt: opt, jumped: -1}
	if opt.Code == Table {
		if err := w.load(); err != nil {
			w.Close()
			return nil, err
		}
	} else {
		w.report = []string{"the generated code (goomba_fsm.go) runs the goombas: nothing reloads (-code table reloads the drawing)"}
	}
	if err := w.restart(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// load reads and compiles the drawing, watches it, and has the level and
// the viewer follow its reloads.
func (w *World) load() error {
	stencil := w.opt.Stencil
	if stencil == "" {
		stencil = filepath.Join(filepath.Dir(w.opt.Drawing), "goomba.stencil.json")
	}
	st, err := chart.LoadStencil(stencil)
	if err != nil {
		return fmt.Errorf("game: the drawing's stencil: %w", err)
	}
	if w.opt.Live != "" {
		w.v = viewer.New(viewer.Options{Addr: w.opt.Live})
	}
	// The operating system's notifications, through fsnotify: a save is
	// seen at once. Where there are none (a network mount), New fails and
	// the Reloader polls.
	var n reload.Notifier
	if !w.opt.Manual {
		if n, err = fsnotify.New(); err != nil && w.opt.Log != nil {
			fmt.Fprintf(w.opt.Log, "%v; polling the drawing instead\n", err)
		}
	}
	w.r = reload.New(reload.Options{Log: w.opt.Log, Viewer: w.v, Manual: w.opt.Manual, Notifier: n})
	w.d, err = w.r.Load(w.opt.Drawing, reload.Config{Read: chart.ReadOptions{Stencil: st}})
	if err != nil {
		return err
	}
	// The level is made again when its goombas are gone: the target and
	// the viewer's agents are those of the level of the moment.
	w.d.Run("goombas", reload.Func(func(t *table.Table, m *machine.Mapping) (func(), error) {
		return w.level.PrepareReload(t, m)
	}))
	if w.v != nil {
		w.d.View("goombas", func(t *table.Table) viewer.Source { return viewer.TableAgents(t, w.agents) })
		if w.url, err = w.v.Start(); err != nil {
			return fmt.Errorf("game: the viewer: %w", err)
		}
	}
	w.report = []string{fmt.Sprintf("%s: loaded; save it in the editor and the goombas follow", w.opt.Drawing)}
	return nil
}

// agents yields the agents of the level of the moment, for the viewer.
func (w *World) agents(yield func(*table.Agent[*goomba.Goomba]) bool) {
	for a := range w.level.Agents() {
		if !yield(a) {
			return
		}
	}
}

// brains returns what runs a new level's goombas: the switch between
// development and release.
func (w *World) brains() (goomba.Brains, error) {
	if w.d == nil {
		return goomba.GenBrains(), nil // release: the generated code, compiled in
	}
	return goomba.TableBrains(w.d.Table()) // development: the drawing's current version
}

// restart makes a new level with the current version of the drawing.
func (w *World) restart() error {
	brains, err := w.brains()
	if err != nil {
		return err
	}
	l, err := goomba.NewLevel(w.opt.Goombas, brains)
	if err != nil {
		return err
	}
	w.level, w.jumped = l, -1
	w.levels++
	return nil
}

// Update runs one frame: it swaps in a new version of the drawing, if one
// is ready (and lets the viewer see the frame), takes the player's input,
// and every StepEvery frames steps the level, makes it again, or brings
// the player back.
func (w *World) Update(in Input) error {
	if w.r != nil {
		if reps := w.r.Frame(w.frame); len(reps) > 0 {
			w.report = lines(reps[len(reps)-1].String())
		}
	}
	if in.Stomp > 0 {
		w.level.Stomp(in.Stomp - 1)
	}
	w.frame++
	if w.frame%uint64(w.opt.StepEvery) != 0 {
		return nil
	}
	l := w.level
	if l.Alive() == 0 {
		return w.restart()
	}
	if l.Jumped && l.Tick-w.jumped >= ReenterTicks || !l.Jumped && l.Player < 0 {
		l.Jumped, l.Player, w.jumped = false, l.Width-1, -1
	}
	if err := l.Step(); err != nil {
		return err
	}
	if l.Jumped && w.jumped < 0 {
		w.jumped = l.Tick
	}
	return nil
}

// Refresh reads the drawing now if it changed, for the next Update to
// swap in (reload.Reloader.Refresh); with Gen it does nothing.
func (w *World) Refresh() {
	if w.r != nil {
		w.r.Refresh()
	}
}

// Close stops watching the drawing and serving the viewer.
func (w *World) Close() error {
	var err error
	if w.r != nil {
		err = w.r.Close()
	}
	if w.v != nil {
		err = errors.Join(err, w.v.Close())
	}
	return err
}

// Level returns the level of the moment: a new one after every goomba is
// gone.
func (w *World) Level() *goomba.Level { return w.level }

// Frame returns the number of frames run.
func (w *World) Frame() uint64 { return w.frame }

// Levels returns how many levels were made, the current one included.
func (w *World) Levels() int { return w.levels }

// Phase returns how far the frames are between the last step and the
// next, from 0 to 1 (excluded): a goomba drawn at X+VX*Phase walks
// smoothly, since the next step moves it by VX.
func (w *World) Phase() float64 {
	return float64(w.frame%uint64(w.opt.StepEvery)) / float64(w.opt.StepEvery)
}

// Options returns the options, with the defaults filled in.
func (w *World) Options() Options { return w.opt }

// URL returns the viewer's page, with its token, or "" without Live.
func (w *World) URL() string { return w.url }

// Report returns the lines of the last reload's report (reload.Report's
// String), or what runs the goombas before the first.
func (w *World) Report() []string { return w.report }

// States yields each goomba of the level with the name of its state,
// "removed" for a goomba whose machine has ended.
func (w *World) States() iter.Seq2[*goomba.Goomba, string] {
	return func(yield func(*goomba.Goomba, string) bool) {
		for i, g := range w.level.Goombas {
			s := w.level.Brains[i].State()
			if g.Removed {
				s = "removed"
			}
			if !yield(g, s) {
				return
			}
		}
	}
}

// Summary writes the frame, the level and each goomba's state and
// position, then the level drawn as text (goomba.Level.Draw): what the
// game prints when it ends, and what its tests compare.
func (w *World) Summary(out io.Writer) {
	l := w.level
	fmt.Fprintf(out, "frame %d, level %d, tick %d: %d of %d goombas left, %s\n", w.frame, w.levels, l.Tick, l.Alive(), len(l.Goombas), w.opt.Code)
	for g, s := range w.States() {
		fmt.Fprintf(out, "goomba %d: %s x=%d\n", g.ID, s, g.X)
	}
	l.Draw(out)
}

// lines splits a report into its lines, without the last newline.
func lines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}
