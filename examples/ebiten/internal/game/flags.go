package game

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// DefaultShotFrames is the frame -screenshot saves when -frames is not
// given.
const DefaultShotFrames = 240

// Config is the command line of the game: the World's options and what
// the window does with them.
type Config struct {
	Options

	// Frames is how many frames the game runs before it quits; 0 runs
	// until the window closes.
	Frames int

	// Screenshot is the PNG file the screen is saved to at the last
	// frame (Frames, or DefaultShotFrames), before the game quits; ""
	// saves none.
	Screenshot string
}

// UsageError is a mistake in the command line: the game exits with
// status 2 and prints Help.
type UsageError struct {
	Msg  string
	Help string
}

func (e *UsageError) Error() string { return e.Msg }

// Parse reads the command line args (without the program's name). It
// finds the drawing (FindDrawing) when -code is table. It returns
// flag.ErrHelp for -h, having written the usage to stderr, and a
// *UsageError for a mistake.
func Parse(args []string, stderr io.Writer) (Config, error) {
	var c Config
	f := flag.NewFlagSet("ebiten", flag.ContinueOnError)
	f.SetOutput(io.Discard)
	code := f.String("code", "table", "what runs the goombas: `table` (the drawing's table, hot reloaded: development) or gen (the generated goomba_fsm.go: release)")
	f.StringVar(&c.Drawing, "drawing", "", "the designer's drawing `FILE` (default: examples/goomba/goomba.vdx, found from the working directory)")
	f.StringVar(&c.Stencil, "stencil", "", "the drawing's stencil `FILE` (default: goomba.stencil.json beside the drawing)")
	f.IntVar(&c.Goombas, "goombas", DefaultGoombas, fmt.Sprintf("how many goombas, 1 to %d", MaxGoombas))
	f.StringVar(&c.Live, "live", "", "serve the browser viewer on `ADDR` (127.0.0.1:0 picks a free port) and print its URL")
	f.IntVar(&c.Frames, "frames", 0, "quit after `N` frames (60 a second); 0 runs until the window closes")
	f.StringVar(&c.Screenshot, "screenshot", "", fmt.Sprintf("save the screen at the last frame as a PNG `FILE`, then quit (at frame %d unless -frames says)", DefaultShotFrames))
	help := func() string {
		var b strings.Builder
		b.WriteString("Usage: go run . [flags] (from examples/ebiten)\n\nGoombas walk the way the designer drew them; saving the drawing reloads it.\n\nFlags:\n")
		f.SetOutput(&b)
		f.PrintDefaults()
		f.SetOutput(io.Discard)
		return b.String()
	}
	usage := func(format string, args ...any) error {
		return &UsageError{Msg: fmt.Sprintf(format, args...), Help: help()}
	}
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stderr, help())
			return c, err
		}
		return c, usage("%v", err)
	}
	switch *code {
	case "table":
		c.Code = Table
	case "gen":
		c.Code = Gen
	default:
		return c, usage("-code %s: want table or gen", *code)
	}
	switch {
	case f.NArg() > 0:
		return c, usage("unexpected arguments %q: the drawing is given with -drawing", f.Args())
	case c.Goombas < 1 || c.Goombas > MaxGoombas:
		return c, usage("-goombas %d: want 1 to %d", c.Goombas, MaxGoombas)
	case c.Frames < 0:
		return c, usage("-frames %d: want 0 (until the window closes) or more", c.Frames)
	case c.Code == Gen && (c.Drawing != "" || c.Stencil != ""):
		return c, usage("-code gen runs the code generated from the drawing and reads no file: -drawing and -stencil are for -code table")
	case c.Code == Gen && c.Live != "":
		return c, usage("-live shows the drawing's table and its agents: it needs -code table")
	}
	if c.Screenshot != "" && c.Frames == 0 {
		c.Frames = DefaultShotFrames
	}
	if c.Code == Table {
		d, err := FindDrawing(c.Drawing)
		if err != nil {
			return c, usage("%v", err)
		}
		c.Drawing = d
	}
	return c, nil
}

// FindDrawing returns the path of the drawing to load: given, when it is
// not "" (an error when no file is there); otherwise goomba.vdx of
// examples/goomba, looked for from the working directory (examples/ebiten,
// the repository's root, examples/goomba), then from the folder of this
// source file when the binary was built here without -trimpath (go run
// from anywhere). The error says where it looked and which path to give.
func FindDrawing(given string) (string, error) {
	if given != "" {
		fi, err := os.Stat(given)
		switch {
		case err != nil:
			return "", fmt.Errorf("-drawing %s: no such file", given)
		case !fi.Mode().IsRegular():
			return "", fmt.Errorf("-drawing %s: not a file", given)
		}
		return given, nil
	}
	candidates := []string{
		filepath.Join("..", "goomba", "goomba.vdx"),       // from examples/ebiten: go run .
		filepath.Join("examples", "goomba", "goomba.vdx"), // from the repository's root
		"goomba.vdx", // from examples/goomba
	}
	if dir := sourceDir(); dir != "" {
		candidates = append(candidates, filepath.Join(dir, "..", "..", "..", "goomba", "goomba.vdx"))
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c, nil
		}
	}
	wd, _ := os.Getwd()
	return "", fmt.Errorf("cannot find the goombas' drawing: looked for %s from %s; run from examples/ebiten (go run .) or give the drawing with -drawing path/to/fsmforge/examples/goomba/goomba.vdx",
		strings.Join(candidates, ", "), wd)
}

// sourceDir returns the folder of this file, when the binary was built
// from source with its paths (not -trimpath), or "".
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(file)
}
