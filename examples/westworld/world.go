package westworld

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/message"
)

// EntityID names the characters; it is the dispatcher's receiver ID.
type EntityID uint8

// The characters.
const (
	MinerBob EntityID = iota + 1
	Elsa
)

// String returns the character's name.
func (id EntityID) String() string {
	switch id {
	case MinerBob:
		return "Miner Bob"
	case Elsa:
		return "Elsa"
	}
	return fmt.Sprintf("entity %d", uint8(id))
}

// Msg is the type of the telegrams the characters send each other.
type Msg uint8

// The telegrams.
const (
	HiHoneyImHome Msg = iota + 1 // Bob to Elsa, when he walks into the shack
	StewReady                    // Elsa to herself after 1.5 s, then to Bob
)

// String returns the telegram's name.
func (m Msg) String() string {
	switch m {
	case HiHoneyImHome:
		return "HiHoneyImHome"
	case StewReady:
		return "StewReady"
	}
	return fmt.Sprintf("Msg(%d)", uint8(m))
}

// Telegram is a telegram between the characters.
type Telegram = message.Telegram[EntityID, Msg]

// Location is where a character is.
type Location uint8

// The places of West World.
const (
	Shack Location = iota
	Goldmine
	Bank
	Saloon
)

// String returns the place's name.
func (l Location) String() string {
	switch l {
	case Shack:
		return "shack"
	case Goldmine:
		return "goldmine"
	case Bank:
		return "bank"
	case Saloon:
		return "saloon"
	}
	return fmt.Sprintf("Location(%d)", uint8(l))
}

// SecondsPerUpdate is the game time an update takes (Buckland sleeps 800 ms).
const SecondsPerUpdate = 0.8

// StewDelay is how long the stew cooks, in game seconds.
const StewDelay = 1.5

// Options configures a [World]. The zero value is Bob and Elsa with seed 0,
// writing nowhere.
type Options struct {
	// Seed seeds Elsa's dice (the chore she picks, the outhouse visits).
	Seed uint64
	// Solo runs Bob alone, as in WestWorld1: he sends no telegrams.
	Solo bool
	// Out receives what the characters say, one line each; nil discards it.
	Out io.Writer
	// Color writes Bob in red, Elsa in green and telegrams in yellow, with
	// ANSI escapes, as in the book. Only for terminals.
	Color bool
}

// World holds the characters, the dispatcher and the game clock.
type World struct {
	Bob        *Miner
	Elsa       *Wife // nil in a solo world
	Dispatcher *message.Dispatcher[EntityID, Msg]

	out     io.Writer
	color   bool
	rng     *rand.Rand
	dice    *rand.PCG // rng's source, kept to save it
	solo    bool
	updates int
	errs    []error
}

// NewWorld returns a world at time 0 with Bob asleep in his shack and,
// unless opts.Solo, Elsa doing the housework.
func NewWorld(opts Options) *World {
	dice := rand.NewPCG(opts.Seed, 0x57e57)
	w := &World{
		out:   opts.Out,
		color: opts.Color,
		dice:  dice,
		rng:   rand.New(dice),
		solo:  opts.Solo,
		// Buckland's dispatcher drops a telegram identical to one pending within 0.25 s.
		Dispatcher: message.NewDispatcher[EntityID, Msg](message.DispatcherOptions{DuplicateWindow: 0.25}),
	}
	if w.out == nil {
		w.out = io.Discard
	}
	w.Bob = &Miner{ID: MinerBob, Location: Shack, world: w}
	w.Bob.FSM = MinerStates.New(w.Bob, MinerStates.StateOf(GoHomeAndSleepTilRested))
	w.Dispatcher.Register(MinerBob, w.Bob.FSM.HandleMessage)
	if !opts.Solo {
		w.Elsa = &Wife{ID: Elsa, Location: Shack, world: w}
		w.Elsa.FSM = WifeStates.New(w.Elsa, WifeStates.StateOf(DoHouseWork))
		w.Elsa.FSM.SetGlobal(WifesGlobalState)
		w.Dispatcher.Register(Elsa, w.Elsa.FSM.HandleMessage)
	}
	return w
}

// MinerStates and WifeStates register Bob's and Elsa's states under their
// names, so that the characters' machines can be saved by state ID
// ([fsm.BehaviorMachine.Snapshot]), listed and watched
// ([fsm.Behaviors.Describe], [fsm.Behaviors.Observe]).
var (
	MinerStates = register[*Miner]("miner", GoHomeAndSleepTilRested, EnterMineAndDigForNugget, VisitBankAndDepositGold, QuenchThirst, EatStew)
	WifeStates  = register[*Wife]("wife", WifesGlobalState, DoHouseWork, VisitBathroom, CookStew)
)

func register[E any](name string, states ...fsm.Behavior[E, Telegram]) *fsm.Behaviors[E, Telegram] {
	r := &fsm.Behaviors[E, Telegram]{Name: name}
	for _, s := range states {
		r.Add(fsm.NameOf(s), s)
	}
	return r
}

// Now returns the game time of the current (or, between updates, the last) update.
func (w *World) Now() float64 { return w.Dispatcher.Time() }

// Updates returns how many updates have run.
func (w *World) Updates() int { return w.updates }

// Update runs one update at the next game time: Bob's, then Elsa's, then the
// delivery of the telegrams that have fallen due, as Buckland's main loop
// does. It returns what went wrong: telegrams that could not be sent or
// delivered, state changes that failed. A telegram nobody handled is not an
// error: the characters say so, as in the book.
func (w *World) Update() error {
	now := float64(w.updates) * SecondsPerUpdate
	w.updates++
	w.Dispatcher.SetTime(now)
	w.Bob.Update()
	if w.Elsa != nil {
		w.Elsa.Update()
	}
	w.report(w.Dispatcher.DispatchDelayed(now))
	errs := w.errs
	w.errs = nil
	return errors.Join(errs...)
}

// send dispatches a telegram and says so.
func (w *World) send(delay float64, from, to EntityID, msg Msg) {
	if delay <= 0 {
		w.say(0, "-> telegram %s from %s to %s, at once (t=%.1f)", msg, from, to, w.Now())
	} else {
		w.say(0, "-> telegram %s from %s to %s, due in %.1f s (at t=%.1f)", msg, from, to, delay, w.Now()+delay)
	}
	w.report(w.Dispatcher.Dispatch(delay, from, to, msg, nil))
}

// report notes a dispatcher error: unhandled telegrams are said, others kept
// for Update to return.
func (w *World) report(err error) {
	if err == nil {
		return
	}
	var list message.TelegramErrors[EntityID, Msg]
	var one *message.TelegramError[EntityID, Msg]
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			w.report(e)
		}
	case errors.As(err, &one) && errors.Is(one, message.ErrUnhandled):
		w.say(0, "   (%s had no use for %s)", one.Telegram.Receiver, one.Telegram.Msg)
	case errors.Is(err, message.ErrDuplicate):
		w.say(0, "   (the same telegram is already on its way)")
	default:
		w.note(err)
	}
}

// note keeps an error from a state change for Update to return.
func (w *World) note(err error) {
	if err != nil {
		w.errs = append(w.errs, err)
	}
}

// received notes, for a state's message handler, a telegram it handles.
func (w *World) received(t Telegram) {
	w.say(0, "   %s gets %s at t=%.1f", t.Receiver, t.Msg, w.Now())
}

const (
	ansiRed    = "\x1b[31;1m"
	ansiGreen  = "\x1b[32;1m"
	ansiYellow = "\x1b[33m"
	ansiReset  = "\x1b[0m"
)

// say writes one line: a character's (who ≠ 0) or a telegram's.
func (w *World) say(who EntityID, format string, args ...any) {
	color := ansiYellow
	switch who {
	case MinerBob:
		color = ansiRed
	case Elsa:
		color = ansiGreen
	}
	line := fmt.Sprintf(format, args...)
	if who != 0 {
		line = who.String() + ": " + line
	}
	if w.color {
		line = color + line + ansiReset
	}
	fmt.Fprintln(w.out, line)
}

// WriteTrace writes one tab-separated line per character about the state
// after the last update: update number, entity, state, location, gold
// carried, money in the bank, thirst, fatigue. Elsa's miner-only columns are "-".
func (w *World) WriteTrace(out io.Writer) error {
	b := w.Bob
	if _, err := fmt.Fprintf(out, "%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", w.updates, b.ID, fsm.NameOf(b.FSM.Current()),
		b.Location, b.GoldCarried, b.MoneyInBank, b.Thirst, b.Fatigue); err != nil {
		return err
	}
	if e := w.Elsa; e != nil {
		if _, err := fmt.Fprintf(out, "%d\t%s\t%s\t%s\t-\t-\t-\t-\n", w.updates, e.ID, fsm.NameOf(e.FSM.Current()), e.Location); err != nil {
			return err
		}
	}
	return nil
}
