// Package game is the goomba game of examples/ebiten without its window:
// the level of package goomba, stepped every few frames, a player who
// comes back after each stomp, a new level when every goomba is gone, and
// the designer's drawing reloaded while it runs. The main package draws a
// World and gives it the player's clicks; the tests run it frame by frame
// with no window at all, since importing Ebitengine needs a display.
//
// # Frames and steps
//
// A World's Update is one frame (Ebitengine calls it 60 times a second).
// Every Options.StepEvery frames (DefaultStepEvery) it steps the level
// once, so that a goomba's walk of one cell is seen; Phase says how far
// the frames are between two steps, for drawing the walk smoothly. Before
// a step, a player who has jumped and been gone ReenterTicks ticks, or who
// walked off the left end, enters again at the right end; a level whose
// goombas are all gone is made again (NewLevel) instead of stepped.
//
// # Hot reload and the viewer
//
// With Table, New loads the drawing with a reload.Reloader and Update
// calls its Frame first, at the frame boundary: a version saved since is
// swapped into the level of the moment (a *goomba.Level is a
// reload.Target), each goomba keeping its state by name, and Report
// returns the lines of the reload's report, or of the refusal of a
// version that does not read or compile. A new level takes the current
// version. With Options.Live the browser viewer shows the goombas'
// machine, drawn where the designer drew it, and follows each reload.
//
// # Development and release
//
// Options.Code is the one switch between them: with Table the goombas run
// the drawing's table (goomba.TableBrains) and the drawing reloads when
// the designer saves it; with Gen they run the Go code generated from it
// (goomba.GenBrains), which cannot be reloaded, and no file is read.
package game
