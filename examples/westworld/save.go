package westworld

import (
	"encoding/json"
	"fmt"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/message"
	"github.com/fsmforge/fsmforge/save"
)

// The entries of a West World save.
const (
	entryBob       = "Miner Bob" // Bob's machine, a BehaviorSnapshot
	entryElsa      = "Elsa"      // Elsa's machine
	entryTelegrams = "telegrams" // the dispatcher, telegrams pending
	entryWorld     = "world"     // the characters' data and the dice, as JSON
)

// TelegramCodec writes West World's telegrams in a save: their IDs and
// message types as integers. Its telegrams carry no Extra.
var TelegramCodec = message.Codec[EntityID, Msg]{ID: message.IntCodec[EntityID](), Type: message.IntCodec[Msg]()}

// world is the game's own data in a save.
type world struct {
	Updates int
	Solo    bool
	Dice    []byte // Elsa's dice: the random source's state
	Bob     Miner
	Elsa    *Wife
}

// Save adds the world to f between two updates: each character's machine
// (by the state IDs of MinerStates and WifeStates), the telegrams pending
// (Elsa's StewReady while the stew cooks) with their due times and order,
// and the world's own data. It returns an error if an update's errors
// have not been reported yet.
func (w *World) Save(f *save.File) error {
	if len(w.errs) > 0 {
		return fmt.Errorf("westworld: saving in the middle of an update")
	}
	var s fsm.BehaviorSnapshot
	b, err := machineBytes(w.Bob.FSM, &s)
	if err != nil {
		return err
	}
	d := MinerStates.Describe()
	f.Add(entryBob, &d, b)
	data := world{Updates: w.updates, Solo: w.solo, Bob: *w.Bob}
	data.Bob.FSM = nil
	if w.Elsa != nil {
		if b, err = machineBytes(w.Elsa.FSM, &s); err != nil {
			return err
		}
		d := WifeStates.Describe()
		f.Add(entryElsa, &d, b)
		elsa := *w.Elsa
		elsa.FSM = nil
		data.Elsa = &elsa
	}
	var telegrams message.DispatcherSnapshot[EntityID, Msg]
	w.Dispatcher.Snapshot(&telegrams)
	if b, err = telegrams.AppendBinary(nil, TelegramCodec); err != nil {
		return err
	}
	f.AddData(entryTelegrams, b)
	if data.Dice, err = w.dice.MarshalBinary(); err != nil {
		return err
	}
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	f.AddData(entryWorld, js)
	return nil
}

func machineBytes[E any](m *fsm.BehaviorMachine[E, Telegram], s *fsm.BehaviorSnapshot) ([]byte, error) {
	m.Snapshot(s)
	return s.MarshalBinary()
}

// LoadWorld returns the world a save holds, ready for its next update.
// opts gives where the characters speak (Out, Color); Elsa's dice, as
// they stood, and whether Bob is alone come from the save. A save of other states (another
// version of the game) is refused with save.ErrMismatch.
func LoadWorld(f *save.File, opts Options) (*World, error) {
	e, err := f.Need(entryWorld)
	if err != nil {
		return nil, err
	}
	var data world
	if err := json.Unmarshal(e.Data, &data); err != nil {
		return nil, fmt.Errorf("westworld: the saved world: %w", err)
	}
	opts.Solo = data.Solo
	w := NewWorld(opts)
	if err := w.dice.UnmarshalBinary(data.Dice); err != nil {
		return nil, fmt.Errorf("westworld: the saved dice: %w", err)
	}
	w.updates = data.Updates
	if err := loadMachine(f, entryBob, MinerStates, w.Bob.FSM); err != nil {
		return nil, err
	}
	bob := w.Bob.FSM
	*w.Bob = data.Bob
	w.Bob.FSM, w.Bob.world = bob, w
	if w.Elsa != nil {
		if data.Elsa == nil {
			return nil, fmt.Errorf("westworld: the save has no Elsa, and the world is not solo")
		}
		if err := loadMachine(f, entryElsa, WifeStates, w.Elsa.FSM); err != nil {
			return nil, err
		}
		elsa := w.Elsa.FSM
		*w.Elsa = *data.Elsa
		w.Elsa.FSM, w.Elsa.world = elsa, w
	}
	t, err := f.Need(entryTelegrams)
	if err != nil {
		return nil, err
	}
	var telegrams message.DispatcherSnapshot[EntityID, Msg]
	if err := telegrams.Decode(t.Data, TelegramCodec); err != nil {
		return nil, err
	}
	if err := w.Dispatcher.Restore(&telegrams); err != nil {
		return nil, err
	}
	return w, nil
}

func loadMachine[E any](f *save.File, name string, states *fsm.Behaviors[E, Telegram], m *fsm.BehaviorMachine[E, Telegram]) error {
	e, err := f.Need(name)
	if err != nil {
		return err
	}
	d := states.Describe()
	if err := e.Exact(&d); err != nil {
		return err
	}
	var s fsm.BehaviorSnapshot
	if err := s.UnmarshalBinary(e.Data); err != nil {
		return fmt.Errorf("westworld: %s's machine: %w", name, err)
	}
	if err := m.Restore(&s); err != nil {
		return fmt.Errorf("westworld: %s's machine: %w", name, err)
	}
	return nil
}
