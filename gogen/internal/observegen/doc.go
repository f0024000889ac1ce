// Package observegen holds machines generated with gogen.Options.Observe,
// whose transitions an observer is told of as table.Agent's is: the files
// *_fsm.go are what gogen writes for fixtures.Goomba (Prefix "Goomba",
// Host "*Goomba"), fixtures.Guard ("Guard"), fixtures.Odd ("Odd"),
// fixtures.NPC ("NPC") and fixtures.Sentry ("Sentry"), all with
// Options.Observe, and, without it, fixtures.Goomba again (Prefix
// "Plain", Host "*PlainGoomba"): the baseline of the benchmark.
//
// Its tests attach a machine.Recorder to each generated machine and to a
// table.Agent of the same table, run both through the same random frames,
// and compare the events they recorded: the flat tables (plain, with
// any-state transitions and the stack, chaining) and the statecharts
// (timers, eventless transitions, parallel regions, the stack, any-state
// transitions). Its benchmarks measure what the option costs when no
// observer is attached, and when a recorder is.
package observegen

// deathFrames is how long the goomba's death animation plays.
const deathFrames = 30

// walker is the goomba entity of goombagen, which both generated goombas
// host: Goomba the one generated with Options.Observe, PlainGoomba the one
// without. The property values are the table's ValueIDs, the same in both
// files.
type walker struct {
	x, vx       int32
	left, right int32 // trigger positions
	animFrames  int32
	anim        uint16
}

func (w *walker) hitTriggerLeft() bool  { return w.x <= w.left }
func (w *walker) hitTriggerRight() bool { return w.x >= w.right }
func (w *walker) animationDone() bool {
	return w.anim == uint16(GoombaAnimationDeath) && w.animFrames >= deathFrames
}

func (w *walker) xMovement(v uint16) {
	switch GoombaXMovement(v) {
	case GoombaXMovementRight:
		w.vx = 1
	case GoombaXMovementLeft:
		w.vx = -1
	case GoombaXMovementDeath:
		w.vx = 0
	}
}

func (w *walker) animation(v uint16) {
	if GoombaAnimation(v) != GoombaAnimationExisting {
		w.anim, w.animFrames = v, 0
	}
}

// step is the game's per-frame movement.
func (w *walker) step() {
	w.x += w.vx
	w.animFrames++
}

// spawn places goomba i between its triggers.
func (w *walker) spawn(i int) {
	span := int32(8 + i%32)
	*w = walker{left: -span, right: span}
}

// hitAt reports whether the player hits goomba i in this frame: about once
// every 500 frames each.
func hitAt(frame, i int) bool { return (frame+i*37)%499 == 0 }

// Goomba hosts a GoombaMachine, generated with Options.Observe.
type Goomba struct{ walker }

// HitTriggerLeft answers the test "hitTriggerLeft".
func (g *Goomba) HitTriggerLeft() bool { return g.hitTriggerLeft() }

// HitTriggerRight answers the test "hitTriggerRight".
func (g *Goomba) HitTriggerRight() bool { return g.hitTriggerRight() }

// AnimationDone answers the test "animationDone".
func (g *Goomba) AnimationDone() bool { return g.animationDone() }

// XMovement sets the goomba's speed.
func (g *Goomba) XMovement(v GoombaXMovement) { g.xMovement(uint16(v)) }

// Animation starts an animation.
func (g *Goomba) Animation(v GoombaAnimation) { g.animation(uint16(v)) }

// PlainGoomba hosts a PlainMachine, generated without Options.Observe.
type PlainGoomba struct{ walker }

// HitTriggerLeft answers the test "hitTriggerLeft".
func (g *PlainGoomba) HitTriggerLeft() bool { return g.hitTriggerLeft() }

// HitTriggerRight answers the test "hitTriggerRight".
func (g *PlainGoomba) HitTriggerRight() bool { return g.hitTriggerRight() }

// AnimationDone answers the test "animationDone".
func (g *PlainGoomba) AnimationDone() bool { return g.animationDone() }

// XMovement sets the goomba's speed.
func (g *PlainGoomba) XMovement(v PlainXMovement) { g.xMovement(uint16(v)) }

// Animation starts an animation.
func (g *PlainGoomba) Animation(v PlainAnimation) { g.animation(uint16(v)) }
