package fsm_test

import (
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/fsm"
)

// flyer is the benchmark's formation ship: the article's six states and
// seven guards, with a target that comes and goes so that every ship takes
// a transition about every 8 frames.
type flyer struct {
	leader  *flyer
	members int
	target  *flyer
	phase   int
	x, vx   float32
	state   uint8 // used by the hand-written switch only
}

const (
	sIdle uint8 = iota
	sFollow
	sLead
	sRally
	sPatrol
	sAttack
)

const benchFormation = 4

// world advances one frame for ship i: the target appears for 8 frames and
// is gone for 8.
func (f *flyer) world(frame int) {
	if (frame+f.phase)&8 != 0 {
		f.target = f
	} else {
		f.target = nil
	}
}

// act is the per-frame behaviour of the state (the article's Tag(elapsed)).
func (f *flyer) act(state uint8) {
	switch state {
	case sPatrol:
		f.x += f.vx
	case sAttack:
		f.x -= f.vx * 2
	case sRally:
		f.x *= 0.5
	}
}

func enterLead(f *flyer)  { f.members = benchFormation - 1 }
func enterRally(f *flyer) { f.members++ }

func flyerGraph() (*fsm.Graph[*flyer, uint8], fsm.StateID) {
	g := &fsm.Graph[*flyer, uint8]{}
	idle := g.AddState(fsm.State[*flyer, uint8]{Name: "idle", Tag: sIdle})
	follow := g.AddState(fsm.State[*flyer, uint8]{Name: "follow", Tag: sFollow})
	lead := g.AddState(fsm.State[*flyer, uint8]{Name: "lead", Tag: sLead, Enter: enterLead})
	rally := g.AddState(fsm.State[*flyer, uint8]{Name: "rally", Tag: sRally, Enter: enterRally})
	patrol := g.AddState(fsm.State[*flyer, uint8]{Name: "patrol", Tag: sPatrol})
	attack := g.AddState(fsm.State[*flyer, uint8]{Name: "attack", Tag: sAttack})
	g.AddTransition(idle, lead, func(f *flyer) bool { return f.leader == nil })
	g.AddTransition(idle, follow, func(f *flyer) bool { return f.leader != nil })
	g.AddTransition(follow, lead, func(f *flyer) bool { return f.leader == nil })
	g.AddTransition(lead, rally, func(f *flyer) bool { return f.members < benchFormation })
	g.AddTransition(rally, patrol, func(f *flyer) bool { return f.members == benchFormation })
	g.AddTransition(patrol, attack, func(f *flyer) bool { return f.target != nil })
	g.AddTransition(attack, patrol, func(f *flyer) bool { return f.target == nil })
	return g, idle
}

// switchUpdate is the same FSM written by hand: the speed floor.
func switchUpdate(f *flyer) {
	for {
		switch f.state {
		case sIdle:
			if f.leader == nil {
				f.state = sLead
				enterLead(f)
				continue
			}
			f.state = sFollow
			continue
		case sFollow:
			if f.leader == nil {
				f.state = sLead
				enterLead(f)
				continue
			}
		case sLead:
			if f.members < benchFormation {
				f.state = sRally
				enterRally(f)
				continue
			}
		case sRally:
			if f.members == benchFormation {
				f.state = sPatrol
				continue
			}
		case sPatrol:
			if f.target != nil {
				f.state = sAttack
				continue
			}
		case sAttack:
			if f.target == nil {
				f.state = sPatrol
				continue
			}
		}
		return
	}
}

func newFlyers(n int) []flyer {
	fs := make([]flyer, n)
	for i := range fs {
		fs[i].phase = i / 4 * 5 // a formation of four sees the enemy together
		fs[i].vx = float32(i%7) * 0.25
	}
	return fs
}

// BenchmarkFormation compares the guarded machine with a hand-written
// switch of the same six-state FSM over a squadron of ships, each taking a
// transition about every 8 frames (the enemy is in sight for 8 frames, then
// gone for 8; the four ships of a formation see it at the same time).
// ns/ship is the cost of one ship's frame, written as a game writes it: sense
// the world, update the FSM, and ("frame" sub-benchmarks) run the state's
// behaviour. The closure and Flow sub-benchmarks give each ship its own
// machine in the article's closure form: the closure port (xnaMachine) and
// fsm.Flow.
func BenchmarkFormation(b *testing.B) {
	const ships = 1024
	for _, withAct := range []bool{false, true} {
		kind := "update"
		if withAct {
			kind = "frame"
		}
		b.Run(kind+"/switch/ships="+strconv.Itoa(ships), func(b *testing.B) {
			fs := newFlyers(ships)
			frame := 0
			for b.Loop() {
				for i := range fs {
					f := &fs[i]
					f.world(frame)
					switchUpdate(f)
					if withAct {
						f.act(f.state)
					}
				}
				frame++
			}
			perShip(b, ships)
		})
		b.Run(kind+"/GuardMachine/ships="+strconv.Itoa(ships), func(b *testing.B) {
			fs, ms := newMachines(ships)
			frame := 0
			for b.Loop() {
				for i := range fs {
					f := &fs[i]
					f.world(frame)
					if err := ms[i].Update(); err != nil {
						b.Fatal(err)
					}
					if withAct {
						f.act(ms[i].Tag())
					}
				}
				frame++
			}
			perShip(b, ships)
		})
		b.Run(kind+"/closure/ships="+strconv.Itoa(ships), func(b *testing.B) {
			fs := newFlyers(ships)
			ms := make([]*xnaMachine[uint8], ships)
			for i := range fs {
				ms[i] = xnaFlyer(&fs[i])
			}
			frame := 0
			for b.Loop() {
				for i := range fs {
					f := &fs[i]
					f.world(frame)
					ms[i].update()
					if withAct {
						f.act(ms[i].current.tag)
					}
				}
				frame++
			}
			perShip(b, ships)
		})
		b.Run(kind+"/Flow/ships="+strconv.Itoa(ships), func(b *testing.B) {
			fs := newFlyers(ships)
			ms := make([]*fsm.Flow[uint8], ships)
			for i := range fs {
				ms[i] = flowFlyer(&fs[i])
			}
			frame := 0
			for b.Loop() {
				for i := range fs {
					f := &fs[i]
					f.world(frame)
					if err := ms[i].Update(); err != nil {
						b.Fatal(err)
					}
					if withAct {
						f.act(ms[i].Tag())
					}
				}
				frame++
			}
			perShip(b, ships)
		})
	}
}

func newMachines(n int) ([]flyer, []fsm.GuardMachine[*flyer, uint8]) {
	g, idle := flyerGraph()
	fs := newFlyers(n)
	ms := make([]fsm.GuardMachine[*flyer, uint8], n)
	for i := range fs {
		ms[i] = g.New(&fs[i], idle)
	}
	return fs, ms
}

func perShip(b *testing.B, ships int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*ships), "ns/ship")
}

// BenchmarkNew measures making one entity's machine from a built graph.
func BenchmarkNew(b *testing.B) {
	g, idle := flyerGraph()
	f := &flyer{}
	var sink fsm.GuardMachine[*flyer, uint8]
	for b.Loop() {
		sink = g.New(f, idle)
	}
	_ = sink
}

// BenchmarkNewPointer is New plus moving the machine to the heap, for games
// that keep machines behind pointers: one allocation.
func BenchmarkNewPointer(b *testing.B) {
	g, idle := flyerGraph()
	f := &flyer{}
	var sink *fsm.GuardMachine[*flyer, uint8]
	for b.Loop() {
		m := g.New(f, idle)
		sink = &m
	}
	_ = sink
}

// worker is the BehaviorMachine benchmark's entity: a West World miner in
// two states that swap every 8 frames, with a global state that counts.
type worker struct {
	m      *fsm.BehaviorMachine[*worker, int]
	frames int
	gold   int
}

type (
	digState   struct{ fsm.NopBehavior[*worker, int] }
	bankState  struct{ fsm.NopBehavior[*worker, int] }
	countState struct{ fsm.NopBehavior[*worker, int] }
)

var (
	benchDig   digState
	benchBank  bankState
	benchCount countState
)

func (digState) Enter(w *worker) { w.gold = 0 }
func (digState) Execute(w *worker) {
	w.gold++
	if w.frames&7 == 7 {
		w.m.ChangeState(benchBank)
	}
}
func (bankState) Execute(w *worker) {
	if w.frames&7 == 7 {
		w.m.ChangeState(benchDig)
	}
}
func (countState) Execute(w *worker) { w.frames++ }
func (digState) OnMessage(w *worker, msg int) bool {
	w.gold += msg
	return true
}

// BenchmarkBehaviorMachine updates a crowd of West World miners, each with
// its own BehaviorMachine: a global state and two states that change into
// each other from Execute every 8 frames; "message" sub-benchmarks also
// offer each miner a message every frame. ns/entity is the cost of one
// miner's frame.
func BenchmarkBehaviorMachine(b *testing.B) {
	const entities = 1024
	for _, withMsg := range []bool{false, true} {
		kind := "update"
		if withMsg {
			kind = "message"
		}
		b.Run(kind+"/entities="+strconv.Itoa(entities), func(b *testing.B) {
			ws := make([]worker, entities)
			for i := range ws {
				w := &ws[i]
				w.frames = i
				w.m = fsm.NewBehaviorMachine[*worker, int](w, benchDig)
				w.m.SetGlobal(benchCount)
			}
			for b.Loop() {
				for i := range ws {
					m := ws[i].m
					if err := m.Update(); err != nil {
						b.Fatal(err)
					}
					if withMsg {
						m.HandleMessage(1)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*entities), "ns/entity")
		})
	}
}
