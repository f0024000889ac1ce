package fsm_test

import (
	"errors"
	"fmt"

	"github.com/fsmforge/fsmforge/fsm"
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
func ExampleChainError() {
	var g fsm.Graph[int, struct{}]
	a := g.AddState(fsm.State[int, struct{}]{Name: "a"})
	b := g.AddState(fsm.State[int, struct{}]{Name: "b"})
	always := func(int) bool { return true }
	g.AddTransition(a, b, always)
	g.AddTransition(b, a, always)

	m := g.New(0, a)
	err := m.Update()
	fmt.Println(err)
	fmt.Println(errors.Is(err, fsm.ErrChainLimit), m.Name())
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
