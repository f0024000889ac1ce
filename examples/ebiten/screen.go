package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/fsmforge/fsmforge/examples/ebiten/internal/game"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// screen is the ebiten.Game: it gives the World its frames and the
// player's clicks, draws it, and quits after the frames asked for, with
// a screenshot of the last one if asked.
type screen struct {
	ctx    context.Context
	w      *game.World
	cfg    game.Config
	layout layout

	shot   bool // the screenshot is saved
	waited int  // updates waiting for the screenshot's frame to be drawn
	err    error
}

func newScreen(ctx context.Context, w *game.World, cfg game.Config) *screen {
	return &screen{ctx: ctx, w: w, cfg: cfg, layout: newLayout(w.Level().Width)}
}

// title returns the window's title.
func (s *screen) title() string {
	if s.cfg.Code == game.Gen {
		return "fsmforge: goombas (the generated code)"
	}
	return fmt.Sprintf("fsmforge: goombas (%s, hot reload)", filepath.Base(s.cfg.Drawing))
}

// windowSize returns the window's size: the screen's, made smaller for a
// level too wide for most displays.
func (s *screen) windowSize() (int, int) {
	const most = 1280
	w, h := s.layout.width, s.layout.height
	if w > most {
		return most, h * most / w
	}
	return w, h
}

// Update runs a frame of the World, unless the game is over.
func (s *screen) Update() error {
	switch {
	case s.err != nil:
		return s.err
	case s.ctx.Err() != nil:
		return ebiten.Termination
	case s.cfg.Frames > 0 && s.w.Frame() >= uint64(s.cfg.Frames):
		if s.cfg.Screenshot == "" || s.shot {
			return ebiten.Termination
		}
		// Draw saves the screenshot of the last frame; the World waits.
		if s.waited++; s.waited > 600 {
			return errors.New("no frame was drawn in 10 seconds: no screenshot")
		}
		return nil
	}
	return s.w.Update(s.input())
}

// input returns what the player did this frame: a click on a goomba
// stomps it.
func (s *screen) input() game.Input {
	var in game.Input
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		in.Stomp = s.layout.goombaAt(s.w, x, y)
	}
	return in
}

// Draw draws the World, and saves the screenshot at the last frame.
func (s *screen) Draw(dst *ebiten.Image) {
	s.layout.draw(dst, s.w)
	if s.cfg.Screenshot != "" && !s.shot && s.cfg.Frames > 0 && s.w.Frame() >= uint64(s.cfg.Frames) {
		s.err = save(dst, s.cfg.Screenshot)
		s.shot = true
	}
}

// Layout returns the screen's size, whatever the window's: Ebitengine
// scales it to the window.
func (s *screen) Layout(int, int) (int, int) { return s.layout.width, s.layout.height }

// save writes the image as a PNG file.
func save(img *ebiten.Image, path string) error {
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	img.ReadPixels(rgba.Pix) // premultiplied RGBA, as image.RGBA holds it
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, rgba); err != nil {
		f.Close()
		return fmt.Errorf("screenshot: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	return nil
}
