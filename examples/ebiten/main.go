// Command ebiten is the Goomba of examples/goomba in an Ebitengine window:
// goombas walk a one-dimensional level the way the designer drew them in
// goomba.vdx, a player stomps them one by one, and a new level starts
// when they are all gone. Saving the drawing reloads it while the game
// runs (package reload): every goomba keeps its state, by name.
//
// Usage, from examples/ebiten:
//
//	go run .                            # the window; edit ../goomba/goomba.vdx and save
//	go run . -live 127.0.0.1:0          # and the browser viewer: prints its URL
//	go run . -code gen                  # the generated code instead: the release build
//	go run . -frames 240 -screenshot /tmp/ebiten.png
//
// Click a goomba to stomp it. The game logic is package internal/game,
// which runs and is tested without a window; this package draws it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/fsmforge/fsmforge/examples/ebiten/internal/game"
	"github.com/hajimehoshi/ebiten/v2"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode reports err on stderr and returns the status to exit with: 2
// for a usage error, 1 for any other.
func exitCode(err error, stderr io.Writer) int {
	var usage *game.UsageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, "ebiten:", usage.Msg)
		fmt.Fprint(stderr, usage.Help)
		return 2
	default:
		fmt.Fprintln(stderr, "ebiten:", err)
		return 1
	}
}

// run plays the game the command line args ask for, until the window
// closes, ctx ends, or the frames asked for have run; it then prints the
// goombas' states (game.World.Summary) on stdout.
func run(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, err := game.Parse(args, stderr)
	if err != nil {
		return err
	}
	cfg.Log = stderr
	w, err := game.New(cfg.Options)
	if err != nil {
		return err
	}
	defer w.Close()
	if u := w.URL(); u != "" {
		fmt.Fprintf(stdout, "the viewer is at %s\n", u)
	}
	s := newScreen(ctx, w, cfg)
	ebiten.SetWindowTitle(s.title())
	ebiten.SetWindowSize(s.windowSize())
	ebiten.SetTPS(60)
	ebiten.SetRunnableOnUnfocused(true)
	if err := ebiten.RunGame(s); err != nil {
		return err
	}
	w.Summary(stdout)
	if cfg.Screenshot != "" {
		fmt.Fprintf(stdout, "saved %s\n", cfg.Screenshot)
	}
	return nil
}
