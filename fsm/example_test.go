package fsm_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/machine"
)

// Ship is a formation flyer from the XNA article's Astralia.
type Ship struct {
	Name    string
	Leader  *Ship
	Members int
	Target  *Ship
}

const formationSize = 2

// The graph is built once; every ship's machine is a small value that points at it.
func ExampleGraph() {
	var g fsm.Graph[*Ship, string]
	idle := g.AddState(fsm.State[*Ship, string]{Name: "idle"})
	follow := g.AddState(fsm.State[*Ship, string]{Name: "follow"})
	lead := g.AddState(fsm.State[*Ship, string]{Name: "lead",
		Enter: func(s *Ship) { fmt.Println(s.Name, "takes the lead") }})
	rally := g.AddState(fsm.State[*Ship, string]{Name: "rally"})
	patrol := g.AddState(fsm.State[*Ship, string]{Name: "patrol"})
	attack := g.AddState(fsm.State[*Ship, string]{Name: "attack"})

	g.AddTransition(idle, lead, func(s *Ship) bool { return s.Leader == nil })
	g.AddTransition(idle, follow, func(s *Ship) bool { return s.Leader != nil })
	g.AddTransition(follow, lead, func(s *Ship) bool { return s.Leader == nil })
	g.AddTransition(lead, rally, func(s *Ship) bool { return s.Members < formationSize })
	g.AddTransition(rally, patrol, func(s *Ship) bool { return s.Members == formationSize })
	g.AddTransition(patrol, attack, func(s *Ship) bool { return s.Target != nil })
	g.AddTransition(attack, patrol, func(s *Ship) bool { return s.Target == nil })

	alpha := &Ship{Name: "alpha"}
	beta := &Ship{Name: "beta", Leader: alpha}
	a, b := g.New(alpha, idle), g.New(beta, idle)

	a.Update() // idle → lead → rally in one update: guards chain
	b.Update()
	fmt.Println(a.Name(), b.Name())

	alpha.Members = formationSize
	alpha.Target = beta // any target will do
	a.Update()
	fmt.Println(a.Name(), "after", g.StateName(a.Previous()))

	for t := range g.Transitions(idle) {
		fmt.Printf("%s → %s (guard %d)\n", g.StateName(t.From), g.StateName(t.To), t.Index)
	}
	// Output:
	// alpha takes the lead
	// rally follow
	// attack after patrol
	// idle → lead (guard 0)
	// idle → follow (guard 1)
}

// The article's form: one machine per entity, guards are closures over it.
func ExampleFlow() {
	var leader *Ship
	var members []string

	var ai fsm.Flow[func() string]
	idle := ai.AddState("idle", nil, nil, nil)
	follow := ai.AddState("follow", func() string { return "following" }, nil, nil)
	lead := ai.AddState("lead", func() string { return "leading" }, func() { members = members[:0] }, nil)
	ai.AddTransition(idle, lead, func() bool { return leader == nil })
	ai.AddTransition(idle, follow, func() bool { return leader != nil })
	ai.AddTransition(follow, lead, func() bool { return leader == nil })

	leader = &Ship{Name: "alpha"}
	ai.Start(idle)
	ai.Update()
	fmt.Println(ai.Name(), ai.Tag()())

	leader = nil // the leader is shot down
	ai.Update()
	fmt.Println(ai.Name(), ai.Tag()())
	// Output:
	// follow following
	// lead leading
}

// A guard cycle does not hang the game: the chain stops and says where it went.
func ExampleGuardMachine_Update_chainLimit() {
	var g fsm.Graph[int, struct{}]
	a := g.AddState(fsm.State[int, struct{}]{Name: "a"})
	b := g.AddState(fsm.State[int, struct{}]{Name: "b"})
	always := func(int) bool { return true }
	g.AddTransition(a, b, always)
	g.AddTransition(b, a, always)

	m := g.New(0, a)
	err := m.Update()
	fmt.Println(err)
	fmt.Println(errors.Is(err, machine.ErrChainLimit), m.Name())
	// Output:
	// fsm: 2 transitions in one update and a guard still holds (a guard cycle?): a → b → a, then b; the machine stays in a (check these guards, or raise Graph.ChainLimit)
	// true a
}

// Miner is an entity driven by Buckland-style states.
type Miner struct {
	Gold    int
	Thirst  int
	Machine *fsm.BehaviorMachine[*Miner, string]
}

type digging struct {
	fsm.NopBehavior[*Miner, string]
}
type drinking struct {
	fsm.NopBehavior[*Miner, string]
}

// States are stateless package-level values; each decides when to leave.
var (
	Digging  digging
	Drinking drinking
)

func (digging) Enter(m *Miner) { fmt.Println("walk to the mine") }
func (digging) Execute(m *Miner) {
	m.Gold++
	m.Thirst++
	fmt.Println("dig, gold", m.Gold)
	if m.Thirst >= 2 {
		m.Machine.ChangeState(Drinking)
	}
}
func (drinking) Enter(m *Miner) { fmt.Println("walk to the saloon") }
func (drinking) Execute(m *Miner) {
	m.Thirst = 0
	fmt.Println("drink")
	m.Machine.ChangeState(Digging)
}
func (drinking) OnMessage(m *Miner, msg string) bool { return msg == "last orders" }

func ExampleBehaviorMachine() {
	bob := &Miner{}
	bob.Machine = fsm.NewBehaviorMachine[*Miner, string](bob, Digging)
	for range 2 {
		bob.Machine.Update()
	}
	fmt.Println(fsm.NameOf(bob.Machine.Current()), bob.Machine.IsInState(Drinking))
	fmt.Println(bob.Machine.HandleMessage("last orders"), bob.Machine.HandleMessage("rain"))
	bob.Machine.RevertToPreviousState()
	fmt.Println(fsm.NameOf(bob.Machine.Current()))
	// Output:
	// dig, gold 1
	// dig, gold 2
	// walk to the saloon
	// drinking true
	// true false
	// walk to the mine
	// digging
}

// tooClose is a named guard: Describe gives its name as the condition.
func tooClose(s *Ship) bool { return s.Target != nil }

// A graph as plain data, for tools: its states and its transitions in the
// order guards are tried, each with its guard's name (empty for a
// function literal).
func ExampleGraph_Describe() {
	var g fsm.Graph[*Ship, string]
	patrol := g.AddState(fsm.State[*Ship, string]{Name: "patrol"})
	evade := g.AddState(fsm.State[*Ship, string]{Name: "evade"})
	g.AddTransition(patrol, evade, tooClose)
	g.AddTransition(evade, patrol, func(s *Ship) bool { return s.Target == nil })

	d := g.Describe()
	d.Name = "ship" // for tools that show it
	fmt.Println(d.Name, d.Kind, len(d.States), "states")
	for i, t := range d.Transitions {
		fmt.Printf("%d: %s → %s if %q\n", i, d.StateName(t.From), d.StateName(t.To[0]), t.Condition)
	}
	// Output:
	// ship guarded 2 states
	// 0: patrol → evade if "fsm_test.tooClose"
	// 1: evade → patrol if ""
}

// A flight recorder watches every ship of a graph: each transition is an
// event naming the entity, the states and, for a guard's, its transition.
func ExampleGraph_Observe() {
	var g fsm.Graph[*Ship, string]
	patrol := g.AddState(fsm.State[*Ship, string]{Name: "patrol"})
	evade := g.AddState(fsm.State[*Ship, string]{Name: "evade"})
	g.AddTransition(patrol, evade, tooClose)
	g.AddTransition(evade, patrol, func(s *Ship) bool { return s.Target == nil })

	rec := machine.NewRecorder(64)
	d := g.Describe()
	d.Name = "ship"
	ships := []*Ship{{Name: "alpha"}, {Name: "beta"}}
	g.Observe(rec.Register(d), func(s *Ship) uint64 { return uint64(slices.Index(ships, s)) })

	a, b := g.New(ships[0], patrol), g.New(ships[1], patrol)
	rec.SetTick(1)
	ships[1].Target = ships[0]
	a.Update()
	b.Update() // beta evades
	rec.SetTick(2)
	ships[1].Target = nil
	b.Update() // and goes back
	b.Goto(evade)

	for _, ev := range rec.Events(nil) {
		d := rec.Machines()[ev.Machine]
		fmt.Printf("tick %d: %s %s: %s → %s (%s, transition %d)\n", ev.Tick, d.Name, ships[ev.Entity].Name,
			d.StateName(ev.From), d.StateName(ev.To), ev.Cause, ev.Transition)
	}
	// Output:
	// tick 1: ship beta: patrol → evade (guard, transition 0)
	// tick 2: ship beta: evade → patrol (guard, transition 1)
	// tick 2: ship beta: patrol → evade (call, transition -1)
}

// Registered states have IDs and names: a machine made by the registry is
// saved and restored by ID, and the registry lists the changes of state
// its machines made.
func ExampleBehaviors() {
	var states fsm.Behaviors[*Miner, string]
	states.Name = "miner"
	dig := states.Add("digging", Digging)
	states.Add("drinking", Drinking)

	bob := &Miner{}
	bob.Machine = states.New(bob, dig)
	for range 3 {
		bob.Machine.Update()
	}
	var save fsm.BehaviorSnapshot
	bob.Machine.Snapshot(&save)
	data, _ := save.MarshalBinary()
	fmt.Println(states.StateName(bob.Machine.State()), data)

	// Load the save into another miner.
	var loaded fsm.BehaviorSnapshot
	if err := loaded.UnmarshalBinary(data); err != nil {
		fmt.Println(err)
	}
	jim := &Miner{}
	jim.Machine = states.New(jim, fsm.NoState)
	if err := jim.Machine.Restore(&loaded); err != nil {
		fmt.Println(err)
	}
	fmt.Println(fsm.NameOf(jim.Machine.Current()), fsm.NameOf(jim.Machine.Previous()))

	d := states.Describe()
	for _, t := range d.Transitions {
		fmt.Println("seen:", d.StateName(t.From), "→", d.StateName(t.To[0]))
	}
	// Output:
	// dig, gold 1
	// dig, gold 2
	// walk to the saloon
	// drink
	// walk to the mine
	// digging [1 1 2 0]
	// digging drinking
	// seen: digging → drinking
	// seen: drinking → digging
}
