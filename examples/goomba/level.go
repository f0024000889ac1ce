package goomba

import (
	"fmt"
	"io"
	"strings"

	"github.com/fsmforge/fsmforge/machine"
)

// Goomba is one patroller of the level: the entity the designer's machine
// drives. Its host methods (the tests the drawing uses and the entry
// actions it sets) read and change these fields.
type Goomba struct {
	ID          int
	X           int // position in the level, in cells
	Left, Right int // its two triggers: it turns when it reaches one
	VX          int // -1 walking left, +1 right, 0 still
	Anim        string
	Frame       int  // frames since Anim started
	Removed     bool // the machine reached its final state
}

// deathFrames is how long the death animation plays.
const deathFrames = 6

// The entry actions' effects, shared by both brains.

func (g *Goomba) setMovement(v string) {
	switch v {
	case "left":
		g.VX = -1
	case "right":
		g.VX = +1
	case "death":
		g.VX = 0
	} // "existing": unchanged
}

func (g *Goomba) setAnimation(v string) {
	if v != "existing" {
		g.Anim, g.Frame = v, 0
	}
}

// The tests, shared by both brains.

func (g *Goomba) hitTriggerLeft() bool  { return g.X <= g.Left }
func (g *Goomba) hitTriggerRight() bool { return g.X >= g.Right }
func (g *Goomba) animationDone() bool   { return g.Anim == "death" && g.Frame >= deathFrames }

// Step is what one update of a goomba's machine did.
type Step struct {
	Moved    bool
	From, To string // state names; To is "(final)" when the goomba is done
	Test     string // the test of the transition taken
}

// A Brain runs one goomba's machine: the drawing's table run by package
// table's Agent ([NewTableBrain]), or the Go code fsmforge gen made from
// the same drawing ([NewGenBrain]). The level runs either, and both must
// make the goombas do the same.
type Brain interface {
	Update(g *Goomba) (Step, error)      // the per-tick update
	Hit(g *Goomba) (Step, error)         // the player stomped g: receive hitByPlayer
	State() string                       // the current state's name
	Done() bool                          // the machine reached its final state
	AppendSave(b []byte) ([]byte, error) // the machine's snapshot in its binary form
}

// Brains makes the goombas' brains: new ones, in the initial state, for a
// new level, or ones restored from the bytes a Brain's AppendSave wrote.
// The table's brains and the generated code's write the same bytes, so a
// level saved with one loads with the other.
type Brains struct {
	New     func(g *Goomba) (Brain, error)
	Restore func(g *Goomba, saved []byte) (Brain, error)

	host *tableHost // the table brains' binding, which a reload rebinds; nil for the generated code
}

// Level is a one-dimensional level: goombas patrolling between their
// triggers, and a player walking left from the right end who stomps the
// first goomba it meets.
type Level struct {
	Width   int
	Goombas []*Goomba
	Brains  []Brain
	Player  int  // the player's position
	Jumped  bool // the player has stomped a goomba and left the level
	Tick    int
	Trace   []string // one line per transition, in order
	stomped []bool   // goombas to stomp at the next Step (Stomp)
	brains  Brains   // what made the brains: a reload rebinds its table's
}

// NewLevel makes the demo's level: n goombas, each with its own stretch
// between two triggers, the player starting at the right end. brains.New
// makes each goomba's machine and enters its initial state.
func NewLevel(n int, brains Brains) (*Level, error) {
	l := &Level{Width: 12*n + 4, brains: brains}
	l.Player = l.Width - 1
	for i := range n {
		left := 2 + 12*i
		g := &Goomba{ID: i + 1, Left: left, Right: left + 8 - i%3, X: left + 3 + i%4}
		b, err := brains.New(g)
		if err != nil {
			return nil, err
		}
		l.Goombas = append(l.Goombas, g)
		l.Brains = append(l.Brains, b)
		l.Trace = append(l.Trace, fmt.Sprintf("tick %3d: goomba %d enters %s at x=%d", 0, g.ID, b.State(), g.X))
	}
	return l, nil
}

// Step runs one tick: each goomba still in the level moves and animates,
// the player walks on, a goomba the player touches receives hitByPlayer,
// then every goomba's machine updates. A goomba whose machine ends is
// removed.
func (l *Level) Step() error {
	l.Tick++
	if !l.Jumped && l.Tick%2 == 0 {
		l.Player-- // the player walks at half a goomba's speed
	}
	for i, g := range l.Goombas {
		if g.Removed {
			continue
		}
		b := l.Brains[i]
		g.X += g.VX
		g.Frame++
		switch {
		case !l.Jumped && abs(g.X-l.Player) <= 1:
			l.Jumped = true // it jumps on this one, and the demo's player is done
			st, err := b.Hit(g)
			if err := l.record(g, b, st, err, " (stomped)"); err != nil {
				return err
			}
		case i < len(l.stomped) && l.stomped[i]:
			l.stomped[i] = false
			st, err := b.Hit(g)
			if err := l.record(g, b, st, err, " (stomped from the viewer)"); err != nil {
				return err
			}
		}
		if g.Removed {
			continue
		}
		st, err := b.Update(g)
		if err := l.record(g, b, st, err, ""); err != nil {
			return err
		}
	}
	return nil
}

func (l *Level) record(g *Goomba, b Brain, st Step, err error, how string) error {
	if err != nil {
		return fmt.Errorf("tick %d: goomba %d: %w", l.Tick, g.ID, err)
	}
	if !st.Moved {
		return nil
	}
	l.Trace = append(l.Trace, fmt.Sprintf("tick %3d: goomba %d %s -> %s on %s%s at x=%d", l.Tick, g.ID, st.From, st.To, st.Test, how, g.X))
	if b.Done() {
		g.Removed = true
		l.Trace = append(l.Trace, fmt.Sprintf("tick %3d: goomba %d removed", l.Tick, g.ID))
	}
	return nil
}

// Stomp has goomba i (its index in Goombas) stomped at the next Step, as
// if the player jumped on it: its machine receives hitByPlayer. The
// viewer's page sends the message so.
func (l *Level) Stomp(i int) {
	if i < 0 || i >= len(l.Goombas) {
		return
	}
	if len(l.stomped) < len(l.Goombas) {
		l.stomped = append(l.stomped, make([]bool, len(l.Goombas)-len(l.stomped))...)
	}
	l.stomped[i] = true
}

// Observe attaches o to each goomba's machine, goomba i's events carrying
// i, or detaches them (o nil). The table's brains report their
// transitions; the generated code, made without gen -observe, does not.
func (l *Level) Observe(o machine.Observer) {
	for i, b := range l.Brains {
		if ob, ok := b.(interface {
			Observe(o machine.Observer, entity uint64)
		}); ok {
			ob.Observe(o, uint64(i))
		}
	}
}

// Alive returns the number of goombas still in the level.
func (l *Level) Alive() int {
	n := 0
	for _, g := range l.Goombas {
		if !g.Removed {
			n++
		}
	}
	return n
}

// Draw writes the level on one line: '|' triggers, '<' and '>' goombas
// walking, 'x' a dying one, 'P' the player.
func (l *Level) Draw(w io.Writer) {
	row := []byte(strings.Repeat(".", l.Width))
	put := func(x int, c byte) {
		if x >= 0 && x < len(row) {
			row[x] = c
		}
	}
	for _, g := range l.Goombas {
		if g.Removed {
			continue
		}
		put(g.Left, '|')
		put(g.Right, '|')
	}
	for _, g := range l.Goombas {
		switch {
		case g.Removed:
		case g.Anim == "death":
			put(g.X, 'x')
		case g.VX < 0:
			put(g.X, '<')
		default:
			put(g.X, '>')
		}
	}
	if !l.Jumped {
		put(l.Player, 'P')
	}
	fmt.Fprintf(w, "tick %3d %s\n", l.Tick, row)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
