package tablecrowd_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// specTable builds a table from a few lines of text, for tests:
//
//	a x b           transition from a on polled test x to b
//	a !m b          … on message m
//	a x=1 b push    … on test x with value 1, pushing a
//	* !m b          any-state transition
//	a x final       to the final state; "return" pops the stack
//	enter a P=v     entry action of a: property P (made on first use) to v
//	options chain 3 stack 2
//
// States are added in the order they first appear; the first is initial.
func specTable(spec string) (*table.Table, error) {
	// First pass: the properties and each state's entry actions.
	var propOrder []string
	props := map[string][]string{}
	type pv struct{ p, v string }
	enters := map[string][]pv{}
	for line := range strings.Lines(spec) {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "enter" {
			continue
		}
		p, v, _ := strings.Cut(f[2], "=")
		if _, ok := props[p]; !ok {
			propOrder = append(propOrder, p)
		}
		if !slices.Contains(props[p], v) {
			props[p] = append(props[p], v)
		}
		enters[f[1]] = append(enters[f[1]], pv{p, v})
	}

	var b table.Builder
	b.Name = "spec"
	for _, p := range propOrder {
		b.AddProperty(p, props[p]...)
	}
	states := map[string]table.StateID{}
	state := func(name string) table.StateID {
		switch name {
		case "*":
			return table.AnyState
		case "final":
			return table.Final
		case "return":
			return table.Return
		}
		if id, ok := states[name]; ok {
			return id
		}
		var acts []table.Action
		for _, e := range enters[name] {
			acts = append(acts, b.Action(e.p, e.v))
		}
		id := b.AddState(name, acts...)
		states[name] = id
		return id
	}
	for line := range strings.Lines(spec) {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "options":
			for i := 1; i+1 < len(f); i += 2 {
				n, err := strconv.Atoi(f[i+1])
				if err != nil {
					return nil, err
				}
				switch f[i] {
				case "chain":
					b.Options.Chain, b.Options.ChainLimit = true, n
				case "stack":
					b.Options.StackLimit = n
				}
			}
		case f[0] == "enter":
			state(f[1])
		case len(f) == 3 || len(f) == 4 && f[3] == "push":
			from := state(f[0])
			name, value, _ := strings.Cut(strings.TrimPrefix(f[1], "!"), "=")
			var id table.TestID
			if strings.HasPrefix(f[1], "!") {
				id = b.AddMessage(name, value)
			} else {
				id = b.AddTest(name, value)
			}
			b.AddTransition(table.Transition{From: from, Test: id, To: state(f[2]), Push: len(f) == 4})
		default:
			return nil, fmt.Errorf("spec: cannot read %q", line)
		}
	}
	return b.Build()
}

func mustSpec(tb testing.TB, spec string) *table.Table {
	tb.Helper()
	t, err := specTable(spec)
	if err != nil {
		tb.Fatalf("specTable:\n%s\n%v", spec, err)
	}
	return t
}

// probe is a test entity: the polled tests that hold, by name, and a log
// of what the host was asked to do.
type probe struct {
	t     *table.Table
	holds map[string]bool
	log   []string
	asked []string
	// hooks run inside Test or Do, to call back into the agent
	onTest func()
	onDo   func()
}

type probeHost struct{}

func (probeHost) Test(p *probe, id table.TestID) bool {
	name := p.t.Test(id).String()
	p.asked = append(p.asked, name)
	if p.onTest != nil {
		p.onTest()
	}
	return p.holds[name]
}

func (probeHost) Do(p *probe, a table.PropertyID, v table.ValueID) {
	p.log = append(p.log, p.t.Property(a)+"="+p.t.Value(a, v))
	if p.onDo != nil {
		p.onDo()
	}
}

func newProbe(t *table.Table, holds ...string) *probe {
	p := &probe{t: t, holds: map[string]bool{}}
	for _, h := range holds {
		p.holds[h] = true
	}
	return p
}

// testID returns the ID of the test name (or name=value) in t, failing the test if
// there is none.
func testID(tb testing.TB, t *table.Table, name string) table.TestID {
	tb.Helper()
	n, v, _ := strings.Cut(name, "=")
	id, ok := t.LookupTest(n, v)
	if !ok {
		tb.Fatalf("no test %q", name)
	}
	return id
}

func stateID(tb testing.TB, t *table.Table, name string) table.StateID {
	tb.Helper()
	id, ok := t.LookupState(name)
	if !ok {
		tb.Fatalf("no state %q", name)
	}
	return id
}

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

// spawn places goomba i between its triggers.
func spawn(g *goomba, i int) {
	span := int32(8 + i%32)
	*g = goomba{left: -span, right: span}
}

// hitAt reports whether the player hits goomba i in this frame: about once
// every 500 frames each.
func hitAt(frame, i int) bool { return (frame+i*37)%499 == 0 }

func perAgent(b *testing.B, agents int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*agents), "ns/agent")
}

// buildGoombaV2 builds the Goomba as the designer saved it again: dying
// renamed dead, and a state added, stunned, that a hit now leads to
// first; the tests keep their IDs (stunOver is added after them), so that
// the game's host answers both versions.
func buildGoombaV2() (*table.Table, error) {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "existing", "right", "left", "death")
	b.AddProperty("Animation", "existing", "moveRight", "moveLeft", "death")
	left := b.AddTest("hitTriggerLeft", "")
	right := b.AddTest("hitTriggerRight", "")
	hit := b.AddMessage("hitByPlayer", "")
	done := b.AddTest("animationDone", "")
	over := b.AddTest("stunOver", "")
	wl := b.AddState("walkLeft", b.Action("XMovement", "left"), b.Action("Animation", "moveLeft"))
	wr := b.AddState("walkRight", b.Action("XMovement", "right"), b.Action("Animation", "moveRight"))
	dead := b.AddState("dead", b.Action("XMovement", "death"), b.Action("Animation", "death"))
	stunned := b.AddState("stunned", b.Action("XMovement", "existing"))
	b.AddTransition(table.Transition{From: wl, Test: hit, To: stunned})
	b.AddTransition(table.Transition{From: wl, Test: left, To: wr})
	b.AddTransition(table.Transition{From: wr, Test: hit, To: stunned})
	b.AddTransition(table.Transition{From: wr, Test: right, To: wl})
	b.AddTransition(table.Transition{From: stunned, Test: over, To: dead})
	b.AddTransition(table.Transition{From: dead, Test: done, To: table.Final})
	return b.Build()
}

// renamed returns the mapping from table from to table to, told that
// state was renamed as: what a tool that watched the designer rename it
// makes of machine.MappingBetween's.
func renamed(from, to *table.Table, state, as string) *machine.Mapping {
	od, nd := from.Describe(), to.Describe()
	mp := machine.MappingBetween(&od, &nd)
	q, _ := from.LookupState(state)
	r, _ := to.LookupState(as)
	mp.To[q] = machine.StateID(r)
	return mp
}
