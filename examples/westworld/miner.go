package westworld

import (
	"fmt"

	"github.com/fsmforge/fsmforge/fsm"
)

// Bob's constants, Buckland's numbers.
const (
	ComfortLevel       = 5 // money in the bank that lets Bob go home content
	MaxNuggets         = 3 // nuggets his pockets hold
	ThirstLevel        = 5 // thirst at which he heads for the saloon
	TirednessThreshold = 5 // fatigue above which he is tired
)

// Miner is Miner Bob: his state machine and the numbers his states read.
type Miner struct {
	ID          EntityID
	Location    Location
	GoldCarried int
	MoneyInBank int
	Thirst      int // rises by one every update
	Fatigue     int // rises with every nugget, falls with every nap
	FSM         *fsm.BehaviorMachine[*Miner, Telegram]

	world *World
}

// Update makes Bob thirstier and runs his state machine.
func (m *Miner) Update() {
	m.Thirst++
	m.world.note(m.FSM.Update())
}

// PocketsFull reports whether Bob carries as many nuggets as he can.
func (m *Miner) PocketsFull() bool { return m.GoldCarried >= MaxNuggets }

// Thirsty reports whether Bob needs a drink.
func (m *Miner) Thirsty() bool { return m.Thirst >= ThirstLevel }

// Fatigued reports whether Bob is tired.
func (m *Miner) Fatigued() bool { return m.Fatigue > TirednessThreshold }

// Rich reports whether Bob has enough in the bank to call it a day.
func (m *Miner) Rich() bool { return m.MoneyInBank >= ComfortLevel }

// BuyAndDrinkAWhiskey quenches Bob's thirst for 2 of his savings.
func (m *Miner) BuyAndDrinkAWhiskey() {
	m.Thirst = 0
	m.MoneyInBank -= 2
}

func (m *Miner) say(format string, args ...any) { m.world.say(m.ID, format, args...) }

func (m *Miner) change(s fsm.Behavior[*Miner, Telegram]) { m.world.note(m.FSM.ChangeState(s)) }

// minerState gives Bob's states the methods they do not write.
type minerState = fsm.NopBehavior[*Miner, Telegram]

// Bob's states: stateless values shared by every miner.
var (
	GoHomeAndSleepTilRested  goHomeAndSleepTilRested
	EnterMineAndDigForNugget enterMineAndDigForNugget
	VisitBankAndDepositGold  visitBankAndDepositGold
	QuenchThirst             quenchThirst
	EatStew                  eatStew
)

type goHomeAndSleepTilRested struct{} // writes all four methods

func (goHomeAndSleepTilRested) String() string { return "GoHomeAndSleepTilRested" }

func (goHomeAndSleepTilRested) Enter(m *Miner) {
	if m.Location != Shack {
		m.say("Home sweet shack, here ah come")
		m.Location = Shack
		if w := m.world; w.Elsa != nil {
			w.send(0, m.ID, Elsa, HiHoneyImHome)
		}
	}
}

func (goHomeAndSleepTilRested) Execute(m *Miner) {
	if !m.Fatigued() {
		m.say("Rested up and ready. Back to diggin'!")
		m.change(EnterMineAndDigForNugget)
		return
	}
	m.Fatigue--
	m.say("ZZZZ... (snorin' like a mule)")
}

func (goHomeAndSleepTilRested) Exit(m *Miner) { m.say("Steppin' out of the shack") }

func (goHomeAndSleepTilRested) OnMessage(m *Miner, t Telegram) bool {
	if t.Msg != StewReady {
		return false
	}
	m.world.received(t)
	m.say("Stew? Ah'm comin', darlin'!")
	m.change(EatStew)
	return true
}

type enterMineAndDigForNugget struct{ minerState }

func (enterMineAndDigForNugget) String() string { return "EnterMineAndDigForNugget" }

func (enterMineAndDigForNugget) Enter(m *Miner) {
	if m.Location != Goldmine {
		m.say("Trampin' up the hill to the mine")
		m.Location = Goldmine
	}
}

func (enterMineAndDigForNugget) Execute(m *Miner) {
	m.GoldCarried++
	m.Fatigue++
	m.say("Chip, chip... got me a nugget")
	// Both checks run, as in the book: full pockets and a thirst in the
	// same update send Bob to the bank and straight on to the saloon.
	if m.PocketsFull() {
		m.change(VisitBankAndDepositGold)
	}
	if m.Thirsty() {
		m.change(QuenchThirst)
	}
}

func (enterMineAndDigForNugget) Exit(m *Miner) {
	m.say("Leavin' the mine with mah pockets a-janglin'")
}

type visitBankAndDepositGold struct{ minerState }

func (visitBankAndDepositGold) String() string { return "VisitBankAndDepositGold" }

func (visitBankAndDepositGold) Enter(m *Miner) {
	if m.Location != Bank {
		m.say("Off to the bank with mah gold")
		m.Location = Bank
	}
}

func (visitBankAndDepositGold) Execute(m *Miner) {
	m.MoneyInBank += m.GoldCarried
	m.GoldCarried = 0
	m.say("Gold's in the vault. Savin's now: %d", m.MoneyInBank)
	if m.Rich() {
		m.say("That's a fine pile for one day. Home to mah sweetheart")
		m.change(GoHomeAndSleepTilRested)
		return
	}
	m.change(EnterMineAndDigForNugget)
}

func (visitBankAndDepositGold) Exit(m *Miner) { m.say("Tippin' mah hat to the teller") }

type quenchThirst struct{ minerState }

func (quenchThirst) String() string { return "QuenchThirst" }

func (quenchThirst) Enter(m *Miner) {
	if m.Location != Saloon {
		m.Location = Saloon
		m.say("Mah throat's drier'n a desert. To the saloon!")
	}
}

func (quenchThirst) Execute(m *Miner) {
	if !m.Thirsty() { // Buckland prints "ERROR!": Bob only comes here thirsty
		m.world.note(fmt.Errorf("westworld: Bob is in the saloon with thirst %d, below %d", m.Thirst, ThirstLevel))
		return
	}
	m.BuyAndDrinkAWhiskey()
	m.say("Now that hits the spot")
	m.change(EnterMineAndDigForNugget)
}

func (quenchThirst) Exit(m *Miner) { m.say("Moseyin' out of the saloon, feelin' fine") }

type eatStew struct{ minerState }

func (eatStew) String() string { return "EatStew" }

func (eatStew) Enter(m *Miner) { m.say("Mmm, that stew smells mighty fine!") }

func (eatStew) Execute(m *Miner) {
	m.say("Best stew this side o' the Pecos")
	m.world.note(m.FSM.RevertToPreviousState())
}

func (eatStew) Exit(m *Miner) { m.say("Thank ya kindly. Back to what ah was doin'") }
