// Package goombagen is the designer-pipeline article's Goomba as generated Go code: goomba_fsm.go
// is what gogen writes for the Goomba table (fixtures.Goomba) with
// Options.Host "*Goomba", and Goomba, here, is the game entity that hosts
// it. Its tests run the generated machine against table.Agent, and its
// benchmark compares both with a hand-written switch.
package goombagen

// deathFrames is how long the death animation plays.
const deathFrames = 30

// Goomba is the game's entity, as in table/goomba_test.go, and the
// generated machine's host: one method per polled test and per property.
type Goomba struct {
	x, vx       int32
	left, right int32 // trigger positions
	animFrames  int32
	anim        Animation
	state       uint8   // the hand-written switch's state; unused by the machines
	fsm         Machine // the generated machine; unused by the others
}

// HitTriggerLeft answers the test "hitTriggerLeft".
func (g *Goomba) HitTriggerLeft() bool { return g.x <= g.left }

// HitTriggerRight answers the test "hitTriggerRight".
func (g *Goomba) HitTriggerRight() bool { return g.x >= g.right }

// AnimationDone answers the test "animationDone".
func (g *Goomba) AnimationDone() bool { return g.anim == AnimationDeath && g.animFrames >= deathFrames }

// XMovement sets the goomba's speed.
func (g *Goomba) XMovement(v XMovement) {
	switch v {
	case XMovementRight:
		g.vx = 1
	case XMovementLeft:
		g.vx = -1
	case XMovementDeath:
		g.vx = 0
	}
}

// Animation starts an animation.
func (g *Goomba) Animation(v Animation) {
	if v != AnimationExisting {
		g.anim, g.animFrames = v, 0
	}
}

// step is the game's per-frame movement: the same for every machine.
func (g *Goomba) step() {
	g.x += g.vx
	g.animFrames++
}

// spawn places goomba i between its triggers.
func spawn(g *Goomba, i int) {
	span := int32(8 + i%32)
	*g = Goomba{left: -span, right: span}
}

// hitAt reports whether the player hits goomba i in this frame: about once
// every 500 frames each.
func hitAt(frame, i int) bool { return (frame+i*37)%499 == 0 }
