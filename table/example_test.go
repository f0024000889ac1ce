package table_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/fsmforge/fsmforge/table"
)

// Building the designer-pipeline article's Goomba by code, and its layout: the deduplicated
// tests, each state's ordered tests and entry actions, and the destination
// table indexed by test and state (-1, Final, for the final state).
func ExampleBuilder() {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "existing", "right", "left", "death")
	b.AddProperty("Animation", "existing", "moveRight", "moveLeft", "death")
	left := b.AddTest("hitTriggerLeft", "")
	right := b.AddTest("hitTriggerRight", "")
	hit := b.AddMessage("hitByPlayer", "")
	done := b.AddTest("animationDone", "")
	walkLeft := b.AddState("walkLeft", b.Action("XMovement", "left"), b.Action("Animation", "moveLeft"))
	walkRight := b.AddState("walkRight", b.Action("XMovement", "right"), b.Action("Animation", "moveRight"))
	dying := b.AddState("dying", b.Action("XMovement", "death"), b.Action("Animation", "death"))
	b.AddTransition(table.Transition{From: walkLeft, Test: hit, To: dying})
	b.AddTransition(table.Transition{From: walkLeft, Test: left, To: walkRight})
	b.AddTransition(table.Transition{From: walkRight, Test: hit, To: dying})
	b.AddTransition(table.Transition{From: walkRight, Test: right, To: walkLeft})
	b.AddTransition(table.Transition{From: dying, Test: done, To: table.Final})
	t, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}

	for q := range table.StateID(t.NumStates()) {
		fmt.Printf("state %d %s: tests", q, t.StateName(q))
		for tr := range t.Transitions(q) {
			fmt.Printf(" %d", tr.Test)
		}
		fmt.Print("; enter")
		for a := range t.Actions(q) {
			fmt.Printf(" %s=%s", t.Property(a.Property), t.Value(a.Property, a.Value))
		}
		fmt.Println()
	}
	for id := range table.TestID(t.NumTests()) {
		fmt.Printf("%-16s", t.Test(id))
		for q := range table.StateID(t.NumStates()) {
			fmt.Printf(" %3d", int16(t.Dest(id, q))) // -4 is NoState: no transition
		}
		fmt.Println()
	}
	// Output:
	// state 0 walkLeft: tests 2 0; enter XMovement=left Animation=moveLeft
	// state 1 walkRight: tests 2 1; enter XMovement=right Animation=moveRight
	// state 2 dying: tests 3; enter XMovement=death Animation=death
	// hitTriggerLeft     1  -4  -4
	// hitTriggerRight   -4   0  -4
	// hitByPlayer        2   2  -4
	// animationDone     -4  -4  -1
}

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

// An agent runs the table for one goomba against the level: one
// transition at most per update, the message hitByPlayer by Receive, and
// Final when the game should remove the goomba.
func ExampleAgent() {
	t, _ := buildGoomba() // as in the Builder example
	level, err := NewLevel(t)
	if err != nil {
		fmt.Println(err)
		return
	}
	hit, _ := t.LookupTest("hitByPlayer", "")

	g := &Goomba{}
	a := table.NewAgent(t, g, level) // performs walkLeft's entry actions
	fmt.Println("start:", a.Name(), g.VX, g.Anim)
	for frame := 1; ; frame++ {
		g.X += g.VX
		g.AnimFrames++
		var r table.Result
		if frame == 6 {
			r, err = a.Receive(level, hit) // the player jumps on it
		} else {
			r, err = a.Update(level)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		if r.Final() {
			fmt.Printf("frame %d: remove the goomba\n", frame)
			return
		}
		if r.Moved() {
			fmt.Printf("frame %d: x=%d %s --%s--> %s, %s\n", frame, g.X, t.StateName(r.From), t.Test(r.Test), t.StateName(r.To), g.Anim)
		}
	}
	// Output:
	// start: walkLeft -1 moveLeft
	// frame 2: x=-2 walkLeft --hitTriggerLeft--> walkRight, moveRight
	// frame 6: x=2 walkRight --hitByPlayer--> dying, death
	// frame 8: remove the goomba
}

// Sense works out what the goomba perceives this frame, as the bits of
// UpdateSensed: bit t set when polled test t holds. (The tests of a
// table with more than 64 are asked of the host from the 65th on.)
func (l *Level) Sense(g *Goomba) uint64 {
	var s uint64
	if g.X <= l.LeftTrigger {
		s |= 1 << l.left
	}
	if g.X >= l.RightTrigger {
		s |= 1 << l.right
	}
	if g.Anim == "death" && g.AnimFrames >= 2 {
		s |= 1 << l.done
	}
	return s
}

// The same goomba with its perception worked out by the game each frame
// and given to UpdateSensed, as Unity's Animator reads the parameters the
// game sets: the host is only asked to perform entry actions.
func ExampleAgent_UpdateSensed() {
	t, _ := buildGoomba()
	level, err := NewLevel(t)
	if err != nil {
		fmt.Println(err)
		return
	}
	hit, _ := t.LookupTest("hitByPlayer", "")

	g := &Goomba{}
	a := table.NewAgent(t, g, level)
	for frame := 1; ; frame++ {
		g.X += g.VX
		g.AnimFrames++
		if frame == 6 {
			a.Post(hit) // seen by this frame's update
		}
		r, err := a.UpdateSensed(level, level.Sense(g))
		if err != nil {
			fmt.Println(err)
			return
		}
		if r.Final() {
			fmt.Printf("frame %d: remove the goomba\n", frame)
			return
		}
		if r.Moved() {
			fmt.Printf("frame %d: x=%d %s --%s--> %s\n", frame, g.X, t.StateName(r.From), t.Test(r.Test), t.StateName(r.To))
		}
	}
	// Output:
	// frame 2: x=-2 walkLeft --hitTriggerLeft--> walkRight
	// frame 6: x=2 walkRight --hitByPlayer--> dying
	// frame 8: remove the goomba
}

// A pushdown machine: a transition may push the state it leaves, and a
// transition to Return goes back to it, entering it again.
func ExampleTransition_push() {
	var b table.Builder
	b.Name = "guard"
	alarm := b.AddMessage("alarm", "")
	allClear := b.AddMessage("allClear", "")
	patrol := b.AddState("patrol")
	search := b.AddState("search")
	b.AddTransition(table.Transition{From: patrol, Test: alarm, To: search, Push: true})
	b.AddTransition(table.Transition{From: search, Test: alarm, To: search, Push: true})
	b.AddTransition(table.Transition{From: search, Test: allClear, To: table.Return})
	b.Options.StackLimit = 2
	t, _ := b.Build()

	a := table.NewAgent[*Goomba](t, nil, nil) // no polled tests, no entry actions: no host needed
	for _, m := range []table.TestID{alarm, alarm, alarm, allClear, allClear, allClear} {
		_, err := a.Receive(nil, m)
		fmt.Printf("%-8s → %-16s %v\n", t.Test(m), a.String(), err)
	}
	// Output:
	// alarm    → search (stack 1) <nil>
	// alarm    → search (stack 2) <nil>
	// alarm    → search (stack 2) table "guard": state "search", test "alarm": push onto a full stack (2 states; raise Options.StackLimit, at most 16, or look for a push cycle); the transition was not taken
	// allClear → search (stack 1) <nil>
	// allClear → patrol           <nil>
	// allClear → patrol           <nil>
}

// Any-state transitions, the article's message-handler shape: tried in every
// state before the state's own, so one transition handles a message
// everywhere.
func ExampleTransition_anyState() {
	var b table.Builder
	tick := b.AddTest("tick", "")
	killed := b.AddMessage("killed", "")
	red := b.AddState("red")
	green := b.AddState("green")
	b.AddTransition(table.Transition{From: red, Test: tick, To: green})
	b.AddTransition(table.Transition{From: green, Test: tick, To: red})
	b.AddTransition(table.Transition{From: table.AnyState, Test: killed, To: table.Final})
	t, _ := b.Build()
	for tr := range t.Transitions(table.AnyState) {
		fmt.Printf("any --%s--> %s\n", t.Test(tr.Test), t.StateName(tr.To))
	}

	a := table.NewAgent(t, &Goomba{}, always{})
	a.Update(always{})
	r, _ := a.Receive(always{}, killed)
	fmt.Println(t.StateName(r.From), "→", t.StateName(r.To), a.Done())
	// Output:
	// any --killed--> final
	// green → final true
}

// always is a host whose polled tests always hold.
type always struct{}

func (always) Test(*Goomba, table.TestID) bool             { return true }
func (always) Do(*Goomba, table.PropertyID, table.ValueID) {}

// Encoding a table: a compact binary form for the game, a JSON form for
// people; both decode to the same table.
func ExampleTable_MarshalBinary() {
	t, _ := buildGoomba()
	data, err := t.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d bytes, magic %q, version %d\n", len(data), data[:4], data[4])

	var loaded table.Table
	if err := loaded.UnmarshalBinary(data); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(loaded.Name(), loaded.NumStates(), "states, initial", loaded.StateName(loaded.Initial()))

	data[len(data)/2] ^= 1 // one bit of damage
	err = loaded.UnmarshalBinary(data)
	fmt.Println(errors.Is(err, table.ErrChecksum), err)
	// Output:
	// 339 bytes, magic "FSMT", version 1
	// goomba 3 states, initial walkLeft
	// true table: byte 335: CRC-32 is 0x68e210e5, the contents give 0x479c74fc: the file is damaged
}

func ExampleTable_MarshalJSON() {
	var b table.Builder
	b.Name = "door"
	b.AddProperty("Sound", "creak", "slam")
	push := b.AddMessage("push", "")
	locked := b.AddTest("key", "brass")
	closed := b.AddState("closed", b.Action("Sound", "slam"))
	open := b.AddState("open", b.Action("Sound", "creak"))
	b.AddTransition(table.Transition{From: closed, Test: push, To: open})
	b.AddTransition(table.Transition{From: open, Test: push, To: closed})
	b.AddTransition(table.Transition{From: closed, Test: locked, To: table.Final})
	t, _ := b.Build()

	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.Encode(t)
	// Output:
	// {
	//  "format": "fsmforge table",
	//  "version": 1,
	//  "name": "door",
	//  "options": {
	//   "chain": false,
	//   "chainLimit": 0,
	//   "stackLimit": 0
	//  },
	//  "properties": [
	//   {
	//    "name": "Sound",
	//    "values": [
	//     "creak",
	//     "slam"
	//    ]
	//   }
	//  ],
	//  "tests": [
	//   {
	//    "name": "push",
	//    "message": true
	//   },
	//   {
	//    "name": "key",
	//    "value": "brass"
	//   }
	//  ],
	//  "initial": "closed",
	//  "any": [],
	//  "states": [
	//   {
	//    "name": "closed",
	//    "actions": [
	//     {
	//      "property": "Sound",
	//      "value": "slam"
	//     }
	//    ],
	//    "transitions": [
	//     {
	//      "test": "push",
	//      "to": "open"
	//     },
	//     {
	//      "test": "key",
	//      "value": "brass",
	//      "final": true
	//     }
	//    ]
	//   },
	//   {
	//    "name": "open",
	//    "actions": [
	//     {
	//      "property": "Sound",
	//      "value": "creak"
	//     }
	//    ],
	//    "transitions": [
	//     {
	//      "test": "push",
	//      "to": "closed"
	//     }
	//    ]
	//   }
	//  ]
	// }
}
