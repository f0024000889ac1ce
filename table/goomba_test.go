package table_test

import (
	"fmt"
	"testing"

	"github.com/fsmforge/fsmforge/table"
)

// The Goomba's IDs in the order goombaTable adds them: what the article's tool
// writes into its generated header. A game keeps such constants and checks
// them against the table it loads (bindGoomba).
const (
	hitTriggerLeft table.TestID = iota
	hitTriggerRight
	hitByPlayer
	animationDone
)

const (
	xMovement table.PropertyID = iota
	animation
)

// XMovement values.
const (
	xExisting table.ValueID = iota
	xRight
	xLeft
	xDeath
)

// Animation values.
const (
	animExisting table.ValueID = iota
	animMoveRight
	animMoveLeft
	animDeath
)

const (
	walkLeft table.StateID = iota
	walkRight
	dying
)

// deathFrames is how long the death animation plays.
const deathFrames = 30

// buildGoomba builds the article's patroller: it walks left and right between
// two triggers until the player hits it, then dies and is removed. The
// message hitByPlayer is tried before the triggers, so that a hit is not
// lost to a turn in the same frame.
func buildGoomba() (*table.Table, error) {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "existing", "right", "left", "death")
	b.AddProperty("Animation", "existing", "moveRight", "moveLeft", "death")
	left := b.AddTest("hitTriggerLeft", "")
	right := b.AddTest("hitTriggerRight", "")
	hit := b.AddMessage("hitByPlayer", "")
	done := b.AddTest("animationDone", "")
	wl := b.AddState("walkLeft", b.Action("XMovement", "left"), b.Action("Animation", "moveLeft"))
	wr := b.AddState("walkRight", b.Action("XMovement", "right"), b.Action("Animation", "moveRight"))
	dy := b.AddState("dying", b.Action("XMovement", "death"), b.Action("Animation", "death"))
	b.AddTransition(table.Transition{From: wl, Test: hit, To: dy})
	b.AddTransition(table.Transition{From: wl, Test: left, To: wr})
	b.AddTransition(table.Transition{From: wr, Test: hit, To: dy})
	b.AddTransition(table.Transition{From: wr, Test: right, To: wl})
	b.AddTransition(table.Transition{From: dy, Test: done, To: table.Final})
	return b.Build()
}

func goombaTable(tb testing.TB) *table.Table {
	tb.Helper()
	t, err := buildGoomba()
	if err != nil {
		tb.Fatal(err)
	}
	if err := bindGoomba(t); err != nil {
		tb.Fatal(err)
	}
	return t
}

// bindGoomba checks that a table has the IDs the game's constants say.
func bindGoomba(t *table.Table) error {
	for _, c := range []struct {
		name string
		id   table.TestID
	}{{"hitTriggerLeft", hitTriggerLeft}, {"hitTriggerRight", hitTriggerRight}, {"hitByPlayer", hitByPlayer}, {"animationDone", animationDone}} {
		if id, ok := t.LookupTest(c.name, ""); !ok || id != c.id {
			return fmt.Errorf("test %s is %v (found %t), the game expects %v", c.name, id, ok, c.id)
		}
	}
	for _, c := range []struct {
		name   string
		id     table.PropertyID
		values []string
	}{{"XMovement", xMovement, []string{"existing", "right", "left", "death"}}, {"Animation", animation, []string{"existing", "moveRight", "moveLeft", "death"}}} {
		if id, ok := t.LookupProperty(c.name); !ok || id != c.id {
			return fmt.Errorf("property %s is %v (found %t), the game expects %v", c.name, id, ok, c.id)
		}
		for v, name := range c.values {
			if got, ok := t.LookupValue(c.id, name); !ok || got != table.ValueID(v) {
				return fmt.Errorf("value %s of %s is %v (found %t), the game expects %d", name, c.name, got, ok, v)
			}
		}
	}
	return nil
}

// goomba is the game's entity.
type goomba struct {
	x, vx       int32
	left, right int32 // trigger positions
	anim        table.ValueID
	animFrames  int32
	state       uint8 // the hand-written switch's state; unused by agents
}

// step is the game's per-frame movement: the same for both machines.
func (g *goomba) step() {
	g.x += g.vx
	g.animFrames++
}

// world is the Goomba's host: one value for the whole game.
type world struct{}

// Test answers the polled tests with a switch on the IDs bound at load.
func (*world) Test(g *goomba, t table.TestID) bool {
	switch t {
	case hitTriggerLeft:
		return g.x <= g.left
	case hitTriggerRight:
		return g.x >= g.right
	case animationDone:
		return g.anim == animDeath && g.animFrames >= deathFrames
	}
	return false
}

// Do performs an entry action.
func (*world) Do(g *goomba, p table.PropertyID, v table.ValueID) {
	switch p {
	case xMovement:
		switch v {
		case xRight:
			g.vx = 1
		case xLeft:
			g.vx = -1
		case xDeath:
			g.vx = 0
		}
	case animation:
		if v != animExisting {
			g.anim, g.animFrames = v, 0
		}
	}
}

// The hand-written switch of the same machine: the speed floor.
const (
	sWalkLeft uint8 = iota
	sWalkRight
	sDying
)

// enterSwitch is the switch's entry into state s.
func (g *goomba) enterSwitch(s uint8) {
	g.state = s
	switch s {
	case sWalkLeft:
		g.vx, g.anim, g.animFrames = -1, animMoveLeft, 0
	case sWalkRight:
		g.vx, g.anim, g.animFrames = 1, animMoveRight, 0
	case sDying:
		g.vx, g.anim, g.animFrames = 0, animDeath, 0
	}
}

// updateSwitch is one update of the hand-written machine, hit being the
// hitByPlayer flag; it reports whether the goomba is done.
func (g *goomba) updateSwitch(hit bool) bool {
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
		if g.anim == animDeath && g.animFrames >= deathFrames {
			return true
		}
	}
	return false
}

// spawn places goomba i between its triggers.
func spawn(g *goomba, i int) {
	span := int32(8 + i%32)
	*g = goomba{left: -span, right: span}
}

// hitAt reports whether the player hits goomba i in this frame: about once
// every 500 frames each.
func hitAt(frame, i int) bool { return (frame+i*37)%499 == 0 }
