package message_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/message"
)

// EntityID and Msg are what a game declares: small typed IDs with names.
type EntityID uint16

const (
	Bob EntityID = iota
	Elsa
	Cat
)

func (id EntityID) String() string { return [...]string{"Bob", "Elsa", "Cat"}[id] }

type Msg uint8

const (
	HiHoneyImHome Msg = iota
	StewReady
	Meow
)

func (m Msg) String() string { return [...]string{"HiHoneyImHome", "StewReady", "Meow"}[m] }

// A frame's messages become visible together after Swap; each entity pulls
// its own.
func ExampleBoard() {
	var board message.Board[EntityID, Msg]

	// Frame 1: entities send.
	board.Send(message.Message[EntityID, Msg]{Type: HiHoneyImHome, From: Bob, To: Elsa})
	board.Send(message.Message[EntityID, Msg]{Type: Meow, From: Cat, Broadcast: true})
	board.Send(message.Message[EntityID, Msg]{Type: StewReady, From: Elsa, To: Bob, Payload: "beef"})
	fmt.Println("visible before Swap:", board.Last().Len())

	// End of frame 1.
	board.Swap()

	// Frame 2: entities read; the slice is reused from frame to frame.
	var inbox []message.Message[EntityID, Msg]
	for _, self := range []EntityID{Bob, Elsa, Cat} {
		inbox = slices.AppendSeq(inbox[:0], board.Last().To(self))
		for _, m := range inbox {
			fmt.Printf("%v reads %v from %v (payload %v)\n", self, m.Type, m.From, m.Payload)
		}
	}
	for m := range board.Last().OfType(Meow) {
		fmt.Printf("everyone hears %v from %v\n", m.Type, m.From)
	}
	// Output:
	// visible before Swap: 0
	// Bob reads StewReady from Elsa (payload beef)
	// Elsa reads HiHoneyImHome from Bob (payload <nil>)
	// everyone hears Meow from Cat
}

// Current looks at the frame still being sent: the article's
// FindFutureMessagesByTypeAndDestination.
func ExampleBoard_Current() {
	var board message.Board[EntityID, Msg]
	board.Send(message.Message[EntityID, Msg]{Type: StewReady, From: Elsa, To: Bob})

	for m := range board.Current().OfTypeTo(StewReady, Bob) {
		fmt.Printf("already on its way to %v: %v from %v\n", m.To, m.Type, m.From)
	}
	fmt.Println("in the last frame:", len(slices.Collect(board.Last().OfTypeTo(StewReady, Bob))))
	// Output:
	// already on its way to Bob: StewReady from Elsa
	// in the last frame: 0
}

// An immediate telegram runs the receiver's handler before Dispatch returns.
func ExampleDispatcher() {
	d := message.NewDispatcher[EntityID, Msg](message.DispatcherOptions{DuplicateWindow: 0.25})
	d.Register(Elsa, func(t message.Telegram[EntityID, Msg]) bool {
		if t.Msg != HiHoneyImHome {
			return false
		}
		fmt.Printf("t=%g %v: hi %v, let me make some stew\n", t.DispatchTime, t.Receiver, t.Sender)
		return true
	})
	d.Register(Bob, func(message.Telegram[EntityID, Msg]) bool { return false })

	d.SetTime(12)
	if err := d.Dispatch(0, Bob, Elsa, HiHoneyImHome, nil); err != nil {
		fmt.Println(err)
	}
	err := d.Dispatch(0, Elsa, Cat, StewReady, nil)
	fmt.Println(err)
	var te *message.TelegramError[EntityID, Msg]
	if errors.As(err, &te) && errors.Is(err, message.ErrUnknownReceiver) {
		fmt.Println("nobody is registered as", te.Telegram.Receiver)
	}
	fmt.Println(d.Dispatch(0, Elsa, Bob, StewReady, nil))
	// Output:
	// t=12 Elsa: hi Bob, let me make some stew
	// message: telegram StewReady from Elsa to Cat at t=12: unknown receiver Cat (register it with Dispatcher.Register before sending to it)
	// nobody is registered as Cat
	// message: telegram StewReady from Elsa to Bob at t=12: telegram not handled
}

// Delayed telegrams are delivered by DispatchDelayed in time order, ties in
// the order they were sent; identical ones within the duplicate window are
// dropped.
func ExampleDispatcher_DispatchDelayed() {
	d := message.NewDispatcher[EntityID, Msg](message.DispatcherOptions{DuplicateWindow: 0.25})
	for _, id := range []EntityID{Bob, Elsa, Cat} {
		d.Register(id, func(t message.Telegram[EntityID, Msg]) bool {
			fmt.Printf("t=%g: %v gets %v from %v\n", t.DispatchTime, t.Receiver, t.Msg, t.Sender)
			return true
		})
	}
	_ = d.Dispatch(1.5, Elsa, Bob, StewReady, nil)
	_ = d.Dispatch(1.0, Cat, Elsa, Meow, nil)
	_ = d.Dispatch(1.5, Elsa, Cat, StewReady, nil) // same time as Bob's: kept, after it
	err := d.Dispatch(1.6, Elsa, Bob, StewReady, nil)
	fmt.Println("again 0.1 s later:", err)

	for _, t := range d.AppendPending(nil) {
		fmt.Printf("pending: %v to %v at t=%g\n", t.Msg, t.Receiver, t.DispatchTime)
	}
	for _, now := range []float64{1, 2} {
		if err := d.DispatchDelayed(now); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// again 0.1 s later: message: duplicate telegram dropped
	// pending: Meow to Elsa at t=1
	// pending: StewReady to Bob at t=1.5
	// pending: StewReady to Cat at t=1.5
	// t=1: Elsa gets Meow from Cat
	// t=1.5: Bob gets StewReady from Elsa
	// t=1.5: Cat gets StewReady from Elsa
}

// A game saved while Elsa's stew is cooking goes on, once loaded into a new
// dispatcher, exactly as the game that was not stopped.
func ExampleDispatcher_Snapshot() {
	// newGame makes the dispatcher and registers the handlers, which are
	// not part of a snapshot. Elsa answers Bob at once and puts the stew on;
	// when it is ready she tells Bob.
	newGame := func(name string) *message.Dispatcher[EntityID, Msg] {
		d := message.NewDispatcher[EntityID, Msg](message.DispatcherOptions{DuplicateWindow: 0.25})
		for _, id := range []EntityID{Bob, Elsa} {
			d.Register(id, func(t message.Telegram[EntityID, Msg]) bool {
				fmt.Printf("%s t=%.1f: %v gets %v from %v\n", name, d.Time(), t.Receiver, t.Msg, t.Sender)
				switch {
				case t.Msg == HiHoneyImHome:
					return d.Dispatch(1.5, Elsa, Elsa, StewReady, "beef") == nil
				case t.Msg == StewReady && t.Receiver == Elsa:
					return d.Dispatch(0, Elsa, Bob, StewReady, t.Extra) == nil
				}
				return true
			})
		}
		return d
	}
	play := func(d *message.Dispatcher[EntityID, Msg], from, to int) {
		for tick := from; tick < to; tick++ {
			now := float64(tick) * 0.8
			d.SetTime(now)
			if tick == 1 {
				_ = d.Dispatch(0, Bob, Elsa, HiHoneyImHome, nil)
			}
			if err := d.DispatchDelayed(now); err != nil {
				fmt.Println(err)
			}
		}
	}

	game := newGame("game")
	play(game, 0, 2)

	// Save after tick 2, the stew on the stove...
	var save message.DispatcherSnapshot[EntityID, Msg]
	game.Snapshot(&save)
	for _, t := range save.Pending {
		fmt.Printf("saved at t=%.1f: %v to %v, due at t=%.1f, Extra %v\n", save.Time, t.Msg, t.Receiver, t.DispatchTime, t.Extra)
	}

	// ...and load it into a new dispatcher: both go on the same.
	loaded := newGame("loaded")
	if err := loaded.Restore(&save); err != nil {
		fmt.Println(err)
	}
	play(game, 2, 5)
	play(loaded, 2, 5)
	// Output:
	// game t=0.8: Elsa gets HiHoneyImHome from Bob
	// saved at t=0.8: StewReady to Elsa, due at t=2.3, Extra beef
	// game t=2.4: Elsa gets StewReady from Elsa
	// game t=2.4: Bob gets StewReady from Elsa
	// loaded t=2.4: Elsa gets StewReady from Elsa
	// loaded t=2.4: Bob gets StewReady from Elsa
}

// A board saved between frames answers, once loaded, every query as before.
func ExampleBoard_Snapshot() {
	var board message.Board[EntityID, Msg]
	board.Send(message.Message[EntityID, Msg]{Type: HiHoneyImHome, From: Bob, To: Elsa})
	board.Swap()
	board.Send(message.Message[EntityID, Msg]{Type: Meow, From: Cat, Broadcast: true})

	var save message.BoardSnapshot[EntityID, Msg]
	board.Snapshot(&save)
	fmt.Printf("saved %d + %d messages\n", len(save.Last), len(save.Current))

	var loaded message.Board[EntityID, Msg]
	if err := loaded.Restore(&save); err != nil {
		fmt.Println(err)
	}
	for m := range loaded.Last().To(Elsa) {
		fmt.Printf("Elsa reads %v from %v\n", m.Type, m.From)
	}
	loaded.Swap()
	for m := range loaded.Last().OfType(Meow) {
		fmt.Printf("next frame, everyone hears %v from %v\n", m.Type, m.From)
	}
	// Output:
	// saved 1 + 1 messages
	// Elsa reads HiHoneyImHome from Bob
	// next frame, everyone hears Meow from Cat
}

// A dispatcher's pending telegrams saved to bytes and loaded into a fresh
// dispatcher: the IDs and message types are written by IntCodec, the Extra
// values (here strings) by the game's own codec.
func ExampleDispatcherSnapshot_AppendBinary() {
	codec := message.Codec[EntityID, Msg]{
		ID:   message.IntCodec[EntityID](),
		Type: message.IntCodec[Msg](),
		Value: machine.Codec[any]{
			Append: func(b []byte, v *any) ([]byte, error) {
				s, ok := (*v).(string)
				if !ok {
					return b, fmt.Errorf("cannot save a %T", *v)
				}
				return append(b, s...), nil
			},
			Decode: func(b []byte, v *any) error { *v = string(b); return nil },
		},
	}
	opts := message.DispatcherOptions{DuplicateWindow: 0.25}
	d := message.NewDispatcher[EntityID, Msg](opts)
	d.Register(Bob, func(message.Telegram[EntityID, Msg]) bool { return true })
	d.Dispatch(1.5, Elsa, Bob, StewReady, "beef stew")
	d.Dispatch(2, Cat, Bob, Meow, nil)

	var snap message.DispatcherSnapshot[EntityID, Msg]
	d.Snapshot(&snap)
	data, err := snap.AppendBinary(nil, codec)
	fmt.Println(len(data), "bytes", err)

	// Later, in another run.
	var loaded message.DispatcherSnapshot[EntityID, Msg]
	if err := loaded.Decode(data, codec); err != nil {
		fmt.Println(err)
	}
	fresh := message.NewDispatcher[EntityID, Msg](opts)
	fresh.Register(Bob, func(t message.Telegram[EntityID, Msg]) bool {
		fmt.Printf("t=%g: %v from %v (%v)\n", t.DispatchTime, t.Msg, t.Sender, t.Extra)
		return true
	})
	if err := fresh.Restore(&loaded); err != nil {
		fmt.Println(err)
	}
	fmt.Println(fresh.Dispatch(1.6, Elsa, Bob, StewReady, "more stew")) // within the window of the first
	fresh.DispatchDelayed(2)

	// A value the codec cannot write is an error that names the telegram.
	d.Dispatch(3, Bob, Bob, Meow, 42)
	d.Snapshot(&snap)
	_, err = snap.AppendBinary(nil, codec)
	fmt.Println(err)
	// Output:
	// 49 bytes <nil>
	// message: duplicate telegram dropped
	// t=1.5: StewReady from Elsa (beef stew)
	// t=2: Meow from Cat (<nil>)
	// message: DispatcherSnapshot.AppendBinary: Pending[2]: cannot save a int
}
