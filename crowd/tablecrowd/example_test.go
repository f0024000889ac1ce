package tablecrowd_test

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Goomba is a game entity.
type Goomba struct {
	X, VX      int
	Anim       string
	AnimFrames int
}

// Level is the game's host for every goomba: it binds the table's tests
// and properties by name once, then answers by ID with a switch.
type Level struct {
	t                         *table.Table
	left, right, done         table.TestID
	xMovement, animation      table.PropertyID
	LeftTrigger, RightTrigger int
}

// NewLevel binds a goomba table: a table without the tests the game knows
// is an error at load time, not a wrong answer in the middle of a frame.
func NewLevel(t *table.Table) (*Level, error) {
	l := &Level{t: t, LeftTrigger: -2, RightTrigger: 2}
	var ok [5]bool
	l.left, ok[0] = t.LookupTest("hitTriggerLeft", "")
	l.right, ok[1] = t.LookupTest("hitTriggerRight", "")
	l.done, ok[2] = t.LookupTest("animationDone", "")
	l.xMovement, ok[3] = t.LookupProperty("XMovement")
	l.animation, ok[4] = t.LookupProperty("Animation")
	for _, found := range ok {
		if !found {
			return nil, errors.New("not a goomba table")
		}
	}
	return l, nil
}

// Test answers a polled test.
func (l *Level) Test(g *Goomba, id table.TestID) bool {
	switch id {
	case l.left:
		return g.X <= l.LeftTrigger
	case l.right:
		return g.X >= l.RightTrigger
	case l.done:
		return g.Anim == "death" && g.AnimFrames >= 2
	}
	return false
}

// Do performs an entry action.
func (l *Level) Do(g *Goomba, p table.PropertyID, v table.ValueID) {
	value := l.t.Value(p, v)
	switch {
	case p == l.xMovement && value == "left":
		g.VX = -1
	case p == l.xMovement && value == "right":
		g.VX = 1
	case p == l.xMovement && value == "death":
		g.VX = 0
	case p == l.animation && value != "existing":
		g.Anim, g.AnimFrames = value, 0
	}
}

// A crowd of goombas on package crowd: the Goomba table (built as in
// package table's Builder example), the level as host, each goomba's data stored in the
// machine. The game moves the goombas, the player stomps one now and then
// (a message, posted by crowd ID), and each step updates every goomba as
// its own agent would; a goomba whose death animation is done goes to the
// final state and leaves the machine, which OnFinal reports.
func ExampleCrowd() {
	t, _ := buildGoomba()
	level, err := NewLevel(t)
	if err != nil {
		fmt.Println(err)
		return
	}
	hit, _ := t.LookupTest("hitByPlayer", "")

	frame := 0
	c, err := tablecrowd.New(t, level, crowd.Options[Goomba]{
		OnFinal: func(id crowd.ID, g *Goomba) {
			fmt.Printf("frame %d: goomba %d removed at x=%d\n", frame, id, g.X)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for id := range crowd.ID(4) {
		if err := c.Add(id, Goomba{X: int(id) - 1}); err != nil { // enters walkLeft
			fmt.Println(err)
			return
		}
	}

	m := c.Machine()
	walkLeft, _ := m.LookupState("walkLeft") // crowd.StateID(q) is the table's state q
	walkRight, _ := m.LookupState("walkRight")
	dying, _ := m.LookupState("dying")
	for frame = 1; m.Len() > 0; frame++ {
		for q := range crowd.StateID(m.NumStates()) { // the game's own work
			for _, g := range m.Each(q) {
				g.X += g.VX
				g.AnimFrames++
			}
		}
		if frame%3 == 0 {
			// The player stomps goomba 0 at frame 3, 1 at frame 6, and so on.
			if err := c.Post(crowd.ID(frame/3-1), hit); err != nil {
				fmt.Println(err)
				return
			}
		}
		if err := c.Step(); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("frame %d: walkLeft %d, walkRight %d, dying %d\n", frame, m.Count(walkLeft), m.Count(walkRight), m.Count(dying))
	}
	// Output:
	// frame 1: walkLeft 3, walkRight 1, dying 0
	// frame 2: walkLeft 2, walkRight 2, dying 0
	// frame 3: walkLeft 1, walkRight 2, dying 1
	// frame 4: walkLeft 0, walkRight 3, dying 1
	// frame 5: goomba 0 removed at x=0
	// frame 5: walkLeft 0, walkRight 3, dying 0
	// frame 6: walkLeft 0, walkRight 2, dying 1
	// frame 7: walkLeft 1, walkRight 1, dying 1
	// frame 8: goomba 1 removed at x=2
	// frame 8: walkLeft 2, walkRight 0, dying 0
	// frame 9: walkLeft 1, walkRight 0, dying 1
	// frame 10: walkLeft 1, walkRight 0, dying 1
	// frame 11: goomba 2 removed at x=0
	// frame 11: walkLeft 1, walkRight 0, dying 0
	// frame 12: walkLeft 0, walkRight 0, dying 1
	// frame 13: walkLeft 0, walkRight 0, dying 1
	// frame 14: goomba 3 removed at x=-2
	// frame 14: walkLeft 0, walkRight 0, dying 0
}

// goombaCodec writes a Goomba's fields for a save: the game's own
// encoding, as package machine's Codec asks.
var goombaCodec = machine.Codec[Goomba]{
	Append: func(b []byte, g *Goomba) ([]byte, error) {
		b = binary.AppendVarint(b, int64(g.X))
		b = binary.AppendVarint(b, int64(g.VX))
		b = binary.AppendVarint(b, int64(g.AnimFrames))
		return append(b, g.Anim...), nil
	},
	Decode: func(b []byte, g *Goomba) error {
		var v [3]int64
		for i := range v {
			x, n := binary.Varint(b)
			if n <= 0 {
				return errors.New("a goomba's numbers are cut short")
			}
			v[i], b = x, b[n:]
		}
		*g = Goomba{X: int(v[0]), VX: int(v[1]), AnimFrames: int(v[2]), Anim: string(b)}
		return nil
	},
}

// Saving a crowd of goombas with a message posted and not yet seen, and
// loading the save into a new crowd of the same table, which goes on as
// the first would have: the stomped goomba dies in the next step.
func ExampleCrowd_Restore() {
	t, _ := buildGoomba()
	level, _ := NewLevel(t)
	hit, _ := t.LookupTest("hitByPlayer", "")
	c, _ := tablecrowd.New(t, level, crowd.Options[Goomba]{})
	defer c.Close()
	for id := range crowd.ID(3) {
		_ = c.Add(id, Goomba{X: int(id) - 3}) // goomba 0 is past the left trigger
	}
	_ = c.Post(1, hit)

	var s tablecrowd.Snapshot[Goomba]
	c.Snapshot(&s)
	save, err := s.AppendBinary(nil, goombaCodec)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range s.Posted {
		fmt.Printf("saved: %s posted to goomba %d\n", t.Test(p.Msg), p.ID)
	}
	fmt.Printf("saved: %d goombas in %d bytes\n", len(s.Crowd.IDs), len(save))

	// Later, in a new game: the same table and options, then the save.
	var loaded tablecrowd.Snapshot[Goomba]
	if err := loaded.Decode(save, goombaCodec); err != nil {
		fmt.Println(err)
		return
	}
	c2, _ := tablecrowd.New(t, level, crowd.Options[Goomba]{})
	defer c2.Close()
	if err := c2.Restore(&loaded); err != nil {
		fmt.Println(err)
		return
	}
	_ = c2.Step()
	m := c2.Machine()
	for id := range crowd.ID(3) {
		s, _ := m.StateOf(id)
		fmt.Printf("goomba %d: %s\n", id, m.StateName(s))
	}
	// Output:
	// saved: hitByPlayer posted to goomba 1
	// saved: 3 goombas in 63 bytes
	// goomba 0: walkRight
	// goomba 1: dying
	// goomba 2: walkLeft
}

// Watching a crowd's transitions with a flight recorder: each event names
// the goomba, the states and what made it move, by the crowd's
// description.
func ExampleCrowd_Observe() {
	t, _ := buildGoomba()
	level, _ := NewLevel(t)
	hit, _ := t.LookupTest("hitByPlayer", "")
	c, _ := tablecrowd.New(t, level, crowd.Options[Goomba]{})
	defer c.Close()
	for id := range crowd.ID(3) {
		_ = c.Add(id, Goomba{X: int(id) - 3}) // goomba 0 is past the left trigger
	}
	rec := machine.NewRecorder(64)
	c.Observe(rec.Register(c.Describe()))
	_ = c.Post(1, hit)
	_ = c.Step()

	evs := rec.Events(nil)
	slices.SortFunc(evs, func(a, b machine.Event) int { return cmp.Compare(a.Entity, b.Entity) }) // the workers report in any order
	for _, ev := range evs {
		d := rec.Machines()[ev.Machine]
		fmt.Printf("goomba %d: %s -> %s on %s %s (transition %d)\n", ev.Entity,
			d.StateName(ev.From), d.StateName(ev.To), ev.Cause, d.Triggers[ev.Trigger].Name, ev.Transition)
	}
	// Output:
	// goomba 0: walkLeft -> walkRight on test hitTriggerLeft (transition 1)
	// goomba 1: walkLeft -> dying on message hitByPlayer (transition 0)
}

// Reloading a running crowd's table: the designer saved the Goomba again,
// with dying renamed dead and a state added, stunned, that a stomp leads
// to first. At the frame boundary the game prepares the move, binds its
// host to the new table (either may fail: the game then plays on with the
// old one), and commits; each goomba stays where it was, by state name, and
// the message posted before the save is seen by the next step. The goomba
// that was dying, a state the new table does not have, goes to its initial
// state, as the mapping reports.
func ExampleCrowd_Reload() {
	t, _ := buildGoomba()
	level, _ := NewLevel(t)
	hit, _ := t.LookupTest("hitByPlayer", "")
	c, _ := tablecrowd.New(t, level, crowd.Options[Goomba]{})
	defer c.Close()
	for id := range crowd.ID(3) {
		_ = c.Add(id, Goomba{X: int(id) - 3}) // goomba 0 is past the left trigger
	}
	_ = c.Post(2, hit)
	_ = c.Step() // goomba 0 turns right; goomba 2 is dying
	_ = c.Post(1, hit)

	// The designer saves: the game compiles the drawing again.
	nt, err := buildGoombaV2()
	if err != nil {
		fmt.Println(err)
		return
	}
	old, now := c.Table().Describe(), nt.Describe()
	mp := machine.MappingBetween(&old, &now)
	commit, err := c.PrepareReload(nt, mp)
	if err != nil {
		fmt.Println(err)
		return
	}
	bound, err := NewLevel(nt)
	if err != nil {
		fmt.Println(err) // not committed: the crowd runs the old table
		return
	}
	commit()
	*level = *bound // the host answers the new table's IDs from the next step on
	for _, mv := range mp.Moved {
		fmt.Printf("goomba %d: %s is gone, moved to %s\n", mv.Entity, mv.From, nt.StateName(table.StateID(mv.To)))
	}

	_ = c.Step()
	m := c.Machine() // the same machine, with the new table's states
	for id := range crowd.ID(3) {
		s, _ := m.StateOf(id)
		fmt.Printf("goomba %d: %s\n", id, m.StateName(s))
	}
	// Output:
	// goomba 2: dying is gone, moved to walkLeft
	// goomba 0: walkRight
	// goomba 1: stunned
	// goomba 2: walkLeft
}
