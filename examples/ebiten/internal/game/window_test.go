package game_test

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/examples/ebiten/internal/game"
)

// needDisplay skips the test where there is no X display, unless CI is
// true: CI runs the tests under xvfb-run, and a test skipped there would
// hide a broken game.
func needDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") != "" {
		return
	}
	const why = "no display (DISPLAY is unset): Ebitengine opens a window; run the tests under Xvfb: xvfb-run -a go test ./..."
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// The real game, in its window, run for 300 frames at 60 a second (five
// seconds), leaves the goombas where the World leaves them without a
// window, and its screenshot of the last frame shows them. The game is
// built and run as a program: importing Ebitengine needs a display, and
// this package's tests run without one.
func TestWindow(t *testing.T) {
	needDisplay(t)
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the game: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "ebiten")
	build := exec.CommandContext(ctx, gotool, "build", "-o", bin, "github.com/fsmforge/fsmforge/examples/ebiten")
	build.Dir = filepath.Join("..", "..")
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("go build: %v", time.Since(start).Round(time.Millisecond))

	const frames = 300
	shot := filepath.Join(dir, "last.png")
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-frames", "300", "-screenshot", shot, "-drawing", drawing)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start = time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("the game: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("the game ran %d frames in %v", frames, time.Since(start).Round(time.Millisecond))

	w, err := game.New(game.Options{Drawing: drawing, Manual: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for range frames {
		if err := w.Update(game.Input{}); err != nil {
			t.Fatal(err)
		}
	}
	var want strings.Builder
	w.Summary(&want)
	want.WriteString("saved " + shot + "\n")
	if stdout.String() != want.String() {
		t.Errorf("the game printed:\n%s\nwant, as the World without a window:\n%s\nstderr:\n%s", stdout.String(), want.String(), stderr.String())
	}

	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	// A goomba's body is the one thing drawn in its colour.
	var brown int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if near(img.At(x, y), color.RGBA{172, 80, 36, 255}) {
				brown++
			}
		}
	}
	alive := w.Level().Alive()
	if alive == 0 || brown < alive*200 {
		t.Errorf("the screenshot (%v) has %d pixels of a goomba's colour; want some 400 for each of the %d goombas in the level", b.Size(), brown, alive)
	}
}

// near reports whether c is within a few levels of want on each channel.
func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) bool { return int(x>>8)-int(y) < 4 && int(y)-int(x>>8) < 4 }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}
