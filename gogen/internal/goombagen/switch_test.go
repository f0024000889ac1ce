package goombagen

// The hand-written switch of the same machine, as in table/goomba_test.go:
// the speed floor. The compiler does not inline updateSwitch (go build
// -gcflags=-m=2 puts its cost at 219, over the budget of 80), so the
// switch, like every other variant, costs a call per goomba.
const (
	sWalkLeft uint8 = iota
	sWalkRight
	sDying
)

// enterSwitch is the switch's entry into state s.
func (g *Goomba) enterSwitch(s uint8) {
	g.state = s
	switch s {
	case sWalkLeft:
		g.vx, g.anim, g.animFrames = -1, AnimationMoveLeft, 0
	case sWalkRight:
		g.vx, g.anim, g.animFrames = 1, AnimationMoveRight, 0
	case sDying:
		g.vx, g.anim, g.animFrames = 0, AnimationDeath, 0
	}
}

// updateSwitch is one update of the hand-written machine, hit being the
// hitByPlayer flag; it reports whether the goomba is done.
func (g *Goomba) updateSwitch(hit bool) bool {
	switch g.state {
	case sWalkLeft:
		if hit {
			g.enterSwitch(sDying)
		} else if g.x <= g.left {
			g.enterSwitch(sWalkRight)
		}
	case sWalkRight:
		if hit {
			g.enterSwitch(sDying)
		} else if g.x >= g.right {
			g.enterSwitch(sWalkLeft)
		}
	case sDying:
		if g.anim == AnimationDeath && g.animFrames >= deathFrames {
			return true
		}
	}
	return false
}
