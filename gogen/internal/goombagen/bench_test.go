package goombagen

import (
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// world is the Goomba's host for table.Agent, answering by the IDs the
// generated constants share with the table.
type world struct{}

func (world) Test(g *Goomba, t table.TestID) bool {
	switch Test(t) {
	case TestHitTriggerLeft:
		return g.HitTriggerLeft()
	case TestHitTriggerRight:
		return g.HitTriggerRight()
	case TestAnimationDone:
		return g.AnimationDone()
	}
	return false
}

func (world) Do(g *Goomba, p table.PropertyID, v table.ValueID) {
	switch Property(p) {
	case PropertyXMovement:
		g.XMovement(XMovement(v))
	case PropertyAnimation:
		g.Animation(Animation(v))
	}
}

// BenchmarkGoomba is table's BenchmarkGoomba with the generated machine
// beside the hand-written switch and table.Agent, over a crowd of goombas,
// and floor: what any runtime that calls its host through an interface
// costs at least (see floor). Each frame, every goomba moves (the same two
// additions for all), is sometimes hit by the player (Receive, which
// updates at once), and updates; one that finishes its death animation is
// removed and a new one spawns in its place. A goomba turns every 16 to 78
// frames and is hit about every 500. ns/agent is the cost of one goomba's
// frame.
func BenchmarkGoomba(b *testing.B) {
	const n = 1024
	name := "agents=" + strconv.Itoa(n)
	b.Run("switch/"+name, func(b *testing.B) { benchSwitch(b, n) })
	b.Run("gen/"+name, func(b *testing.B) { benchGen(b, n) })
	b.Run("table/"+name, func(b *testing.B) { benchTable(b, n) })
	b.Run("sensed/"+name, func(b *testing.B) { benchSensed(b, n) })
	b.Run("floor/"+name, func(b *testing.B) { benchFloor(b, n) })
}

// benchSwitch runs the hand-written switch: the speed floor.
func benchSwitch(b *testing.B, n int) {
	gs := make([]Goomba, n)
	for i := range gs {
		spawn(&gs[i], i)
		gs[i].enterSwitch(sWalkLeft)
	}
	frame := 0
	for b.Loop() {
		for i := range gs {
			g := &gs[i]
			g.step()
			if hitAt(frame, i) {
				g.updateSwitch(true) // the article's receive(): set the flag, update
			}
			if g.updateSwitch(false) {
				spawn(g, i)
				g.enterSwitch(sWalkLeft)
			}
		}
		frame++
	}
	perAgent(b, n)
}

// benchGen runs the generated machine, kept in the entity.
func benchGen(b *testing.B, n int) {
	gs := make([]Goomba, n)
	for i := range gs {
		spawn(&gs[i], i)
		gs[i].fsm = NewMachine(&gs[i])
	}
	frame := 0
	for b.Loop() {
		for i := range gs {
			g := &gs[i]
			g.step()
			if hitAt(frame, i) {
				if _, err := g.fsm.Receive(g, MessageHitByPlayer); err != nil {
					b.Fatal(err)
				}
			}
			if r, err := g.fsm.Update(g); r.Final() || err != nil {
				if err != nil {
					b.Fatal(err)
				}
				spawn(g, i)
				g.fsm = NewMachine(g)
			}
		}
		frame++
	}
	perAgent(b, n)
}

// agentCrowd returns the Goomba table and n goombas, each with a
// table.Agent of it.
func agentCrowd(n int) (*table.Table, []Goomba, []table.Agent[*Goomba]) {
	t := fixtures.Goomba()
	gs := make([]Goomba, n)
	as := make([]table.Agent[*Goomba], n)
	for i := range gs {
		spawn(&gs[i], i)
		as[i] = table.NewAgent(t, &gs[i], world{})
	}
	return t, gs, as
}

// benchTable runs table.Agent on the same table, with world as its host.
func benchTable(b *testing.B, n int) {
	t, gs, as := agentCrowd(n)
	hit := table.TestID(TestHitByPlayer)
	frame := 0
	for b.Loop() {
		for i := range gs {
			g, a := &gs[i], &as[i]
			g.step()
			if hitAt(frame, i) {
				if _, err := a.Receive(world{}, hit); err != nil {
					b.Fatal(err)
				}
			}
			if r, err := a.Update(world{}); r.Final() || err != nil {
				if err != nil {
					b.Fatal(err)
				}
				spawn(g, i)
				*a = table.NewAgent(t, g, world{})
			}
		}
		frame++
	}
	perAgent(b, n)
}

// benchSensed is benchTable with the goomba's perception worked out by the
// game each frame (Goomba.sensed) and given to UpdateSensed instead of
// asked of the host. (A loop of its own: one loop choosing between the two
// updates compiles worse for both and slowed them by a fifth.)
func benchSensed(b *testing.B, n int) {
	t, gs, as := agentCrowd(n)
	hit := table.TestID(TestHitByPlayer)
	frame := 0
	for b.Loop() {
		for i := range gs {
			g, a := &gs[i], &as[i]
			g.step()
			if hitAt(frame, i) {
				if _, err := a.Receive(world{}, hit); err != nil {
					b.Fatal(err)
				}
			}
			if r, err := a.UpdateSensed(world{}, g.sensed()); r.Final() || err != nil {
				if err != nil {
					b.Fatal(err)
				}
				spawn(g, i)
				*a = table.NewAgent(t, g, world{})
			}
		}
		frame++
	}
	perAgent(b, n)
}

// sensed is what the goomba perceives this frame, as the polled tests of
// table.Agent.UpdateSensed: one bit per test, by ID.
func (g *Goomba) sensed() uint64 {
	var s uint64
	if g.HitTriggerLeft() {
		s |= 1 << TestHitTriggerLeft
	}
	if g.HitTriggerRight() {
		s |= 1 << TestHitTriggerRight
	}
	if g.AnimationDone() {
		s |= 1 << TestAnimationDone
	}
	return s
}

// floor is the least a table runtime's update can be: a call the compiler
// does not inline, which makes one interface call to the host (world, as
// for table.Agent) for the state's one polled test. It runs no entry action
// (a goomba that turns only changes its state, and one hit by the player
// takes the switch's path), so it is cheaper than the machine it stands
// for.
type floor struct {
	g     *Goomba
	state uint8
}

var (
	floorTest = [3]table.TestID{table.TestID(TestHitTriggerLeft), table.TestID(TestHitTriggerRight), table.TestID(TestAnimationDone)}
	floorTo   = [3]uint8{sWalkRight, sWalkLeft, 255}
)

//go:noinline
func (f *floor) update(h table.Host[*Goomba]) (table.Result, error) {
	if h.Test(f.g, floorTest[f.state]) {
		f.state = floorTo[f.state]
		return table.Result{Steps: 1}, nil
	}
	return table.Result{}, nil
}

// benchFloor runs floor beside the goombas of the switch.
func benchFloor(b *testing.B, n int) {
	gs := make([]Goomba, n)
	fs := make([]floor, n)
	for i := range gs {
		spawn(&gs[i], i)
		gs[i].enterSwitch(sWalkLeft)
		fs[i].g = &gs[i]
	}
	var h table.Host[*Goomba] = world{}
	frame := 0
	for b.Loop() {
		for i := range gs {
			g := &gs[i]
			g.step()
			if hitAt(frame, i) {
				g.updateSwitch(true)
			}
			if r, err := fs[i].update(h); r.Final() || err != nil {
				spawn(g, i)
			}
		}
		frame++
	}
	perAgent(b, n)
}

func perAgent(b *testing.B, agents int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*agents), "ns/agent")
}
