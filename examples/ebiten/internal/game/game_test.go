package game_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/examples/ebiten/internal/game"
	"github.com/fsmforge/fsmforge/examples/goomba"
)

// The designer's drawing and stencil, from this package's folder.
var (
	drawing = filepath.Join("..", "..", "..", "goomba", "goomba.vdx")
	stencil = filepath.Join("..", "..", "..", "goomba", "goomba.stencil.json")
)

// stomps are the player's clicks of the tests: at a frame, the goomba
// clicked (its ID). The first comes before the player meets a goomba, the
// second stomps a goomba that is dying, the third one already removed.
var stomps = map[uint64]int{40: 1, 41: 1, 500: 2, 900: 3}

// ref is the level of package goomba run directly, with the rules
// package game documents: a step every DefaultStepEvery frames, the
// player back ReenterTicks ticks after a jump or after walking off the
// left end, a new level when every goomba is gone.
type ref struct {
	t      *testing.T
	brains func() goomba.Brains
	n      int
	l      *goomba.Level
	frame  uint64
	levels int
	jumped int
}

func newRef(t *testing.T, n int, brains func() goomba.Brains) *ref {
	r := &ref{t: t, brains: brains, n: n}
	r.restart()
	return r
}

func (r *ref) restart() {
	l, err := goomba.NewLevel(r.n, r.brains())
	if err != nil {
		r.t.Fatal(err)
	}
	r.l, r.jumped = l, -1
	r.levels++
}

// update runs a frame; stomp is the goomba clicked, or 0.
func (r *ref) update(stomp int) {
	if stomp > 0 {
		r.l.Stomp(stomp - 1)
	}
	r.frame++
	if r.frame%game.DefaultStepEvery != 0 {
		return
	}
	l := r.l
	if l.Alive() == 0 {
		r.restart()
		return
	}
	if l.Jumped && l.Tick-r.jumped >= game.ReenterTicks || !l.Jumped && l.Player < 0 {
		l.Jumped, l.Player, r.jumped = false, l.Width-1, -1
	}
	if err := l.Step(); err != nil {
		r.t.Fatal(err)
	}
	if l.Jumped && r.jumped < 0 {
		r.jumped = l.Tick
	}
}

// same fails the test unless w's level is r's, the goombas' states named
// as rename says.
func same(t *testing.T, w *game.World, r *ref, rename func(string) string) {
	t.Helper()
	l, rl := w.Level(), r.l
	if w.Frame() != r.frame || w.Levels() != r.levels || l.Tick != rl.Tick || l.Player != rl.Player || l.Jumped != rl.Jumped {
		t.Fatalf("frame %d: World is at frame %d, level %d, tick %d, player %d (jumped %v); want frame %d, level %d, tick %d, player %d (jumped %v)",
			r.frame, w.Frame(), w.Levels(), l.Tick, l.Player, l.Jumped, r.frame, r.levels, rl.Tick, rl.Player, rl.Jumped)
	}
	i := 0
	for g, state := range w.States() {
		rg, want := rl.Goombas[i], rename(rl.Brains[i].State())
		if rg.Removed {
			want = "removed"
		}
		if g.X != rg.X || g.VX != rg.VX || g.Removed != rg.Removed || state != want {
			t.Fatalf("frame %d: goomba %d is %s at x=%d (vx %d, removed %v); want %s at x=%d (vx %d, removed %v)",
				r.frame, g.ID, state, g.X, g.VX, g.Removed, want, rg.X, rg.VX, rg.Removed)
		}
		i++
	}
	if i != len(rl.Goombas) {
		t.Fatalf("frame %d: %d goombas, want %d", r.frame, i, len(rl.Goombas))
	}
}

func unchanged(s string) string { return s }

// tableBrains returns the brains of the drawing embedded in package
// goomba: the same file the World reads.
func tableBrains(t *testing.T) func() goomba.Brains {
	tab, err := goomba.Load()
	if err != nil {
		t.Fatal(err)
	}
	return func() goomba.Brains {
		b, err := goomba.TableBrains(tab)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// The World does, frame by frame, what the level of package goomba run
// directly with the same clicks does, whichever code runs the goombas;
// over 1,500 frames the player stomps every goomba and levels start
// again.
func TestWorldMatchesLevel(t *testing.T) {
	for _, tc := range []struct {
		code   game.Code
		brains func(t *testing.T) func() goomba.Brains
	}{
		{game.Table, tableBrains},
		{game.Gen, func(*testing.T) func() goomba.Brains { return goomba.GenBrains }},
	} {
		t.Run(tc.code.String(), func(t *testing.T) {
			opt := game.Options{Code: tc.code, Manual: true}
			if tc.code == game.Table {
				opt.Drawing = drawing
			}
			w, err := game.New(opt)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			r := newRef(t, game.DefaultGoombas, tc.brains(t))
			removed := false
			for f := range uint64(1500) {
				if err := w.Update(game.Input{Stomp: stomps[f]}); err != nil {
					t.Fatalf("frame %d: %v", f, err)
				}
				r.update(stomps[f])
				same(t, w, r, unchanged)
				for _, s := range w.States() {
					removed = removed || s == "removed"
				}
			}
			if w.Levels() < 3 {
				t.Errorf("after 1500 frames, %d levels; want at least 3 (every goomba stomped twice over)", w.Levels())
			}
			if !removed {
				t.Errorf("no goomba was removed")
			}
		})
	}
}

// copyDrawing copies the drawing and its stencil into a new folder and
// returns the drawing's path there.
func copyDrawing(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range []string{drawing, stencil} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "goomba.vdx")
}

// edit rewrites the drawing at path, replacing old by new everywhere.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte(old), []byte(new)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The designer renames walkRight while the goombas walk: they keep their
// places and follow the state under its new name, new levels are made
// with the new version, a version cut short is refused and the game goes
// on, and each report shows at the bottom of the screen.
func TestWorldReloads(t *testing.T) {
	path := copyDrawing(t)
	var log bytes.Buffer
	w, err := game.New(game.Options{Drawing: path, Manual: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r := newRef(t, game.DefaultGoombas, tableBrains(t))
	rename := unchanged
	seen := map[string]bool{}
	for f := range uint64(1500) {
		switch f { // the designer saves before the frame
		case 100:
			edit(t, path, "walkRight", "strollRight")
			w.Refresh()
			rename = func(s string) string { return strings.Replace(s, "walkRight", "strollRight", 1) }
		case 600:
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
				t.Fatal(err)
			}
			w.Refresh()
		}
		if err := w.Update(game.Input{Stomp: stomps[f]}); err != nil {
			t.Fatalf("frame %d: %v", f, err)
		}
		r.update(stomps[f])
		same(t, w, r, rename)
		switch got := strings.Join(w.Report(), "\n"); f {
		case 100:
			if !strings.Contains(got, "reloaded at tick 100") || !strings.Contains(got, "renamed walkRight → strollRight") {
				t.Fatalf("the report after the rename:\n%s\nwant it reloaded at tick 100, walkRight renamed", got)
			}
		case 600:
			if !strings.HasPrefix(got, path+": refused at tick 600") {
				t.Fatalf("the report after a save cut short:\n%s\nwant it refused at tick 600", got)
			}
		}
		if f > 100 {
			for _, s := range w.States() {
				seen[s] = true
			}
		}
	}
	if w.Levels() < 3 {
		t.Errorf("%d levels; want at least 3, made with the renamed version", w.Levels())
	}
	if !seen["strollRight"] || seen["walkRight"] {
		t.Errorf("states seen after the rename: %v; want strollRight, not walkRight", seen)
	}
	if !strings.Contains(log.String(), "refused at tick 600") {
		t.Errorf("the log has no refused version:\n%s", log.String())
	}
}

// With Live, the World serves the viewer's page, and the goombas do what
// they do without it.
func TestWorldLive(t *testing.T) {
	w, err := game.New(game.Options{Drawing: drawing, Manual: true, Live: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !strings.HasPrefix(w.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL() = %q, want the page on 127.0.0.1", w.URL())
	}
	get(t, w.URL())
	r := newRef(t, game.DefaultGoombas, tableBrains(t))
	for f := range uint64(300) {
		if err := w.Update(game.Input{Stomp: stomps[f]}); err != nil {
			t.Fatal(err)
		}
		r.update(stomps[f])
		same(t, w, r, unchanged)
	}
}

// With Live, the drawing reloads as without it (and the viewer's page
// shows the new version: package reload calls viewer.Viewer.Reloaded).
func TestWorldLiveReloads(t *testing.T) {
	path := copyDrawing(t)
	w, err := game.New(game.Options{Drawing: path, Manual: true, Live: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for f := range 60 {
		if f == 30 {
			edit(t, path, "walkRight", "strollRight")
			w.Refresh()
		}
		if err := w.Update(game.Input{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(w.Report(), "\n"); !strings.Contains(got, "renamed walkRight → strollRight") {
		t.Fatalf("the report:\n%s\nwant walkRight renamed", got)
	}
	u, err := url.Parse(w.URL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/api/machines/0"
	if body := get(t, u.String()); !strings.Contains(body, `"strollRight"`) || strings.Contains(body, `"walkRight"`) {
		t.Errorf("GET %s = %s\nwant the goombas' machine with strollRight, without walkRight", u.Path, body)
	}
}

// get returns the body of the page at u, failing the test unless it is
// 200 OK.
func get(t *testing.T, u string) string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK || len(body) == 0 {
		t.Fatalf("GET %s: %s, %d bytes, %v", u, res.Status, len(body), err)
	}
	return string(body)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the usage error's message has it; "" for none
		cfg  func(c game.Config) error
	}{
		{args: nil, cfg: func(c game.Config) error {
			if c.Code != game.Table || c.Goombas != game.DefaultGoombas || c.Frames != 0 || filepath.Base(c.Drawing) != "goomba.vdx" {
				return fmt.Errorf("%+v: want table, %d goombas, no frames, goomba.vdx found", c, game.DefaultGoombas)
			}
			if _, err := os.Stat(c.Drawing); err != nil {
				return err
			}
			return nil
		}},
		{args: []string{"-screenshot", "x.png"}, cfg: func(c game.Config) error {
			if c.Frames != game.DefaultShotFrames {
				return fmt.Errorf("Frames = %d, want %d", c.Frames, game.DefaultShotFrames)
			}
			return nil
		}},
		{args: []string{"-code", "gen", "-goombas", "5", "-frames", "10"}, cfg: func(c game.Config) error {
			if c.Code != game.Gen || c.Goombas != 5 || c.Frames != 10 || c.Drawing != "" {
				return fmt.Errorf("%+v: want gen, 5 goombas, 10 frames, no drawing", c)
			}
			return nil
		}},
		{args: []string{"-drawing", drawing, "-stencil", stencil}},
		{args: []string{"-code", "release"}, want: "-code release: want table or gen"},
		{args: []string{"-goombas", "0"}, want: "-goombas 0: want 1 to 12"},
		{args: []string{"-frames", "-1"}, want: "-frames -1"},
		{args: []string{"-code", "gen", "-drawing", drawing}, want: "-drawing and -stencil are for -code table"},
		{args: []string{"-code", "gen", "-live", "127.0.0.1:0"}, want: "it needs -code table"},
		{args: []string{"-drawing", "nowhere.vdx"}, want: "-drawing nowhere.vdx: no such file"},
		{args: []string{"goomba.vdx"}, want: "the drawing is given with -drawing"},
		{args: []string{"-fast"}, want: "flag provided but not defined: -fast"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			c, err := game.Parse(tc.args, io.Discard)
			var u *game.UsageError
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Parse(%q) = %v, want no error", tc.args, err)
			case tc.want != "" && (!errors.As(err, &u) || !strings.Contains(u.Msg, tc.want) || !strings.Contains(u.Help, "-drawing")):
				t.Fatalf("Parse(%q) = %v, want a usage error with %q and the flags", tc.args, err, tc.want)
			case tc.cfg != nil:
				if err := tc.cfg(c); err != nil {
					t.Errorf("Parse(%q): %v", tc.args, err)
				}
			}
		})
	}
	var help bytes.Buffer
	if _, err := game.Parse([]string{"-h"}, &help); !errors.Is(err, flag.ErrHelp) || !strings.Contains(help.String(), "-screenshot") {
		t.Errorf("Parse(-h) = %v, wrote %q; want flag.ErrHelp and the flags", err, help.String())
	}
}

// A game that cannot find its drawing says where it looked and which
// path to give.
func TestFindDrawing(t *testing.T) {
	got, err := game.FindDrawing("")
	if err != nil || filepath.Base(got) != "goomba.vdx" {
		t.Fatalf(`FindDrawing("") = %q, %v; want examples/goomba/goomba.vdx`, got, err)
	}
	if _, err := game.FindDrawing(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a file") {
		t.Errorf("FindDrawing(a folder) = %v, want not a file", err)
	}
}
