package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"github.com/fsmforge/fsmforge/examples/ebiten/internal/game"
	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The screen's geometry, in pixels: the level is a row of cells on the
// ground, with two lines of text above and the last reload's report
// below.
const (
	cell      = 24
	margin    = 24
	groundY   = 116 // the top of the ground
	ground    = 16  // its thickness
	reportY   = groundY + ground + 8
	reportMax = 4  // lines of the report shown
	charW     = 6  // ebitenutil.DebugPrint's font
	lineH     = 16 //
)

// The colours: Super Mario Bros.'s sky and ground, and one colour a goomba
// for its triggers and its label.
var (
	sky       = color.RGBA{92, 148, 252, 255}
	soil      = color.RGBA{200, 76, 12, 255}
	grass     = color.RGBA{0, 168, 0, 255}
	panel     = color.RGBA{24, 24, 40, 255}
	body      = color.RGBA{172, 80, 36, 255}
	dying     = color.RGBA{110, 70, 50, 255}
	feet      = color.RGBA{60, 28, 8, 255}
	white     = color.RGBA{252, 252, 252, 255}
	black     = color.RGBA{0, 0, 0, 255}
	labelBack = color.RGBA{0, 0, 0, 160}
	red       = color.RGBA{228, 0, 24, 255}
	blue      = color.RGBA{32, 56, 236, 255}
	skin      = color.RGBA{252, 188, 116, 255}
	palette   = []color.RGBA{
		{252, 224, 56, 255}, {236, 64, 236, 255}, {64, 236, 236, 255}, {252, 152, 56, 255},
		{160, 252, 64, 255}, {252, 252, 252, 255}, {252, 116, 140, 255}, {140, 140, 252, 255},
	}
)

// layout places the level's cells on the screen.
type layout struct {
	width, height int
}

func newLayout(cells int) layout {
	return layout{width: 2*margin + cells*cell, height: reportY + reportMax*lineH + 8}
}

// x returns the screen position of the middle of cell x (a fraction for a
// goomba between two cells).
func (layout) x(x float64) float32 { return float32(margin + (x+0.5)*cell) }

// goombaAt returns the ID of the goomba still in the level drawn at the
// screen position (px, py), or 0.
func (l layout) goombaAt(w *game.World, px, py int) int {
	if py < groundY-3*cell || py > groundY+ground {
		return 0
	}
	for _, g := range w.Level().Goombas {
		gx := l.x(walked(g, w.Phase()))
		if !g.Removed && float32(px) >= gx-cell && float32(px) <= gx+cell {
			return g.ID
		}
	}
	return 0
}

// walked returns where g is drawn between two steps: the next one moves
// it by VX.
func walked(g *goomba.Goomba, phase float64) float64 {
	return float64(g.X) + float64(g.VX)*phase
}

// draw draws the World: the header, the level, and the last report.
func (l layout) draw(dst *ebiten.Image, w *game.World) {
	dst.Fill(sky)
	lv := w.Level()
	o := w.Options()
	what := "the generated code (release)"
	if o.Code == game.Table {
		what = filepath.Base(o.Drawing) + "'s table, hot reload on"
	}
	ebitenutil.DebugPrintAt(dst, fmt.Sprintf("goombas run %s   frame %d   level %d at tick %d", what, w.Frame(), w.Levels(), lv.Tick), 8, 4)
	hint := "click a goomba to stomp it"
	if o.Code == game.Table {
		hint += "; save the drawing and the goombas follow"
	}
	if u := w.URL(); u != "" {
		hint += "; viewer: " + u
	}
	ebitenutil.DebugPrintAt(dst, hint, 8, 4+lineH)

	vector.DrawFilledRect(dst, 0, groundY, float32(l.width), ground, soil, false)
	vector.DrawFilledRect(dst, 0, groundY, float32(l.width), 3, grass, false)
	for i, g := range lv.Goombas {
		if !g.Removed {
			c := palette[i%len(palette)]
			l.trigger(dst, g.Left, +1, c)
			l.trigger(dst, g.Right, -1, c)
		}
	}
	if !lv.Jumped {
		l.player(dst, lv, w.Phase())
	}
	for g, state := range w.States() {
		if !g.Removed {
			l.goomba(dst, g, state, palette[(g.ID-1)%len(palette)], w.Phase())
		}
	}

	vector.DrawFilledRect(dst, 0, groundY+ground, float32(l.width), float32(l.height-groundY-ground), panel, false)
	most := (l.width - 16) / charW
	for i, line := range w.Report() {
		if i == reportMax {
			break
		}
		line = strings.NewReplacer("\t", "    ", "→", "->").Replace(line) // the font has Latin-1 only
		if len(line) > most {
			line = line[:most-3] + "..."
		}
		ebitenutil.DebugPrintAt(dst, line, 8, reportY+i*lineH)
	}
}

// trigger draws a goomba's trigger at cell x: a post with a flag pointing
// to the goomba's side (dir).
func (l layout) trigger(dst *ebiten.Image, x, dir int, c color.RGBA) {
	px := l.x(float64(x))
	vector.StrokeLine(dst, px, groundY, px, groundY-2.2*cell, 3, c, true)
	fx := px
	if dir < 0 {
		fx -= 12
	}
	vector.DrawFilledRect(dst, fx, groundY-2.2*cell, 12, 8, c, false)
}

// goomba draws g walking, or squashed while it dies, with its state's
// name above it in a box of its colour.
func (l layout) goomba(dst *ebiten.Image, g *goomba.Goomba, state string, c color.RGBA, phase float64) {
	cx := l.x(walked(g, phase))
	const r = cell * 0.55
	top := float32(groundY - 2*r)
	if g.Anim == "death" {
		vector.DrawFilledRect(dst, cx-r, groundY-r*0.7, 2*r, r*0.7, dying, true)
		vector.StrokeLine(dst, cx-6, groundY-r*0.5, cx-2, groundY-r*0.2, 2, black, true)
		vector.StrokeLine(dst, cx+2, groundY-r*0.5, cx+6, groundY-r*0.2, 2, black, true)
		top = groundY - r*0.7
	} else {
		look := float32(g.VX) * 2.5
		vector.DrawFilledRect(dst, cx-r+1, groundY-5, r-2, 5, feet, true)
		vector.DrawFilledRect(dst, cx+1, groundY-5, r-2, 5, feet, true)
		vector.DrawFilledCircle(dst, cx, groundY-r-2, r, body, true)
		for _, ex := range []float32{-4.5, 4.5} {
			vector.DrawFilledCircle(dst, cx+ex+look*0.4, groundY-r-4, 3.5, white, true)
			vector.DrawFilledCircle(dst, cx+ex+look, groundY-r-4, 1.6, black, true)
		}
	}
	label(dst, cx, top-10, fmt.Sprintf("#%d %s", g.ID, state), c)
}

// player draws the player walking left, between two steps.
func (l layout) player(dst *ebiten.Image, lv *goomba.Level, phase float64) {
	x := float64(lv.Player)
	if (lv.Tick+1)%2 == 0 {
		x -= phase // it walks at every other tick
	}
	cx := l.x(x)
	const w = cell * 0.7
	vector.DrawFilledRect(dst, cx-w/2, groundY-cell*1.6, w, cell*0.35, red, false)   // cap
	vector.DrawFilledRect(dst, cx-w/2, groundY-cell*1.25, w, cell*0.45, skin, false) // face
	vector.DrawFilledRect(dst, cx-w/2, groundY-cell*0.8, w, cell*0.8, blue, false)   // overalls
	label(dst, cx, groundY-cell*1.6-10, "player", white)
}

// label draws text centred above (cx, bottom), on a dark box edged in c.
func label(dst *ebiten.Image, cx, bottom float32, text string, c color.RGBA) {
	w := float32(len(text)*charW + 6)
	x, y := cx-w/2, bottom-lineH
	vector.DrawFilledRect(dst, x, y, w, lineH, labelBack, false)
	vector.StrokeRect(dst, x, y, w, lineH, 1, c, false)
	ebitenutil.DebugPrintAt(dst, text, int(x)+2, int(y))
}
