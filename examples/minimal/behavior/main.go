// Command behavior is the README's minimal BehaviorMachine program.
package main

import (
	"fmt"

	"github.com/fsmforge/fsmforge/fsm"
)

// Miner is the entity; its machine runs the states below.
type Miner struct {
	Gold int
	AI   *fsm.BehaviorMachine[*Miner, string]
}

// States are stateless values; embed NopBehavior and write what you need.
type nop = fsm.NopBehavior[*Miner, string]
type (
	dig  struct{ nop }
	bank struct{ nop }
)

// Dig and Bank are the states: one value each, shared by every miner.
var Dig, Bank = dig{}, bank{}

func (dig) Execute(m *Miner) {
	if m.Gold++; m.Gold == 3 {
		m.AI.ChangeState(Bank)
	}
}
func (bank) Enter(m *Miner)   { fmt.Println("to the bank with", m.Gold, "nuggets") }
func (bank) Execute(m *Miner) { m.Gold = 0; m.AI.ChangeState(Dig) }

func main() {
	bob := &Miner{}
	bob.AI = fsm.NewBehaviorMachine[*Miner, string](bob, Dig)
	for range 8 {
		bob.AI.Update()
	}
	fmt.Println("now:", fsm.NameOf(bob.AI.Current()), "- before:", fsm.NameOf(bob.AI.Previous()))
}
