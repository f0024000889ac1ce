package formation

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/message"
	"github.com/fsmforge/fsmforge/save"
)

// The entries of a squadron's save.
const (
	entryShips     = "ships"     // every ship's machine, fsm.Snapshots in ship order
	entryBoard     = "board"     // the board: last frame's messages, to be read
	entrySquadron  = "squadron"  // the squadron's own data, as JSON
	flowName       = "formation" // the flow's name in a save
	payloadShip    = 1           // a payload that is a ShipID
	payloadPlaces  = 2           // a payload that is an int (a rally's places left)
	maxPayloadSize = binary.MaxVarintLen64 + 1
)

// BoardCodec writes the board's messages in a save: ship IDs and kinds as
// integers, payloads (a ShipID or an int) as a tag and a number.
var BoardCodec = message.Codec[ShipID, Kind]{
	ID:   message.IntCodec[ShipID](),
	Type: message.IntCodec[Kind](),
	Value: machine.Codec[any]{
		Append: func(b []byte, v *any) ([]byte, error) {
			switch p := (*v).(type) {
			case ShipID:
				return binary.AppendVarint(append(b, payloadShip), int64(p)), nil
			case int:
				return binary.AppendVarint(append(b, payloadPlaces), int64(p)), nil
			}
			return b, fmt.Errorf("formation: a payload of type %T", *v)
		},
		Decode: func(b []byte, v *any) error {
			if len(b) < 2 || len(b) > maxPayloadSize {
				return fmt.Errorf("formation: a payload of %d bytes", len(b))
			}
			n, k := binary.Varint(b[1:])
			if k != len(b)-1 {
				return fmt.Errorf("formation: a payload's number is malformed")
			}
			switch b[0] {
			case payloadShip:
				*v = ShipID(n)
			case payloadPlaces:
				*v = int(n)
			default:
				return fmt.Errorf("formation: a payload tagged %d", b[0])
			}
			return nil
		},
	},
}

// squadron is a save's squadron data.
type squadron struct {
	Opts      Options
	Dice      []byte
	Frame     int
	NextID    ShipID
	ToSpawn   int
	EnemyLeft int
	Ships     []ship
}

type ship struct {
	ID      ShipID
	Leader  ShipID
	Members []ShipID
	Target  bool
}

// Save adds the squadron to f between two frames: every ship's machine,
// the board with the messages sent last frame and not yet read, and the
// squadron's own data.
func (sq *Squadron) Save(f *save.File) error {
	d := sq.Flow.Describe()
	d.Name = flowName
	// Each ship's snapshot, after its length.
	var b, one []byte
	var snap fsm.Snapshot
	for _, s := range sq.Ships {
		s.AI.Snapshot(&snap)
		one, _ = snap.AppendBinary(one[:0])
		b = save.AppendRecord(b, one)
	}
	f.Add(entryShips, &d, b)
	var board message.BoardSnapshot[ShipID, Kind]
	sq.Board.Snapshot(&board)
	b, err := board.AppendBinary(nil, BoardCodec)
	if err != nil {
		return err
	}
	f.AddData(entryBoard, b)
	data := squadron{Opts: sq.opts, Frame: sq.frame, NextID: sq.nextID, ToSpawn: sq.toSpawn, EnemyLeft: sq.enemyLeft}
	if data.Dice, err = sq.dice.MarshalBinary(); err != nil {
		return err
	}
	for _, s := range sq.Ships {
		data.Ships = append(data.Ships, ship{ID: s.ID, Leader: s.Leader, Members: s.Members, Target: s.Target})
	}
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	f.AddData(entrySquadron, js)
	return nil
}

// LoadSquadron returns the squadron a save holds, ready for its next
// frame. A save of another flow is refused with save.ErrMismatch.
func LoadSquadron(f *save.File) (*Squadron, error) {
	e, err := f.Need(entrySquadron)
	if err != nil {
		return nil, err
	}
	var data squadron
	if err := json.Unmarshal(e.Data, &data); err != nil {
		return nil, fmt.Errorf("formation: the saved squadron: %w", err)
	}
	sq := NewSquadron(data.Opts)
	if err := sq.dice.UnmarshalBinary(data.Dice); err != nil {
		return nil, fmt.Errorf("formation: the saved dice: %w", err)
	}
	sq.frame, sq.nextID, sq.toSpawn, sq.enemyLeft = data.Frame, data.NextID, data.ToSpawn, data.EnemyLeft
	ships, err := f.Need(entryShips)
	if err != nil {
		return nil, err
	}
	d := sq.Flow.Describe()
	d.Name = flowName
	if err := ships.Exact(&d); err != nil {
		return nil, err
	}
	b := ships.Data
	for _, saved := range data.Ships {
		var snap fsm.Snapshot
		rec, rest, err := save.NextRecord(b)
		if err != nil {
			return nil, fmt.Errorf("formation: %s's machine: %w", saved.ID, err)
		}
		if err := snap.UnmarshalBinary(rec); err != nil {
			return nil, fmt.Errorf("formation: %s's machine: %w", saved.ID, err)
		}
		b = rest
		s := &Ship{ID: saved.ID, Leader: saved.Leader, Members: saved.Members, Target: saved.Target, sq: sq}
		if s.AI, err = sq.Flow.Restore(s, &snap); err != nil {
			return nil, fmt.Errorf("formation: %s's machine: %w", saved.ID, err)
		}
		sq.Ships = append(sq.Ships, s)
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("formation: the save has machines for more ships than the squadron")
	}
	be, err := f.Need(entryBoard)
	if err != nil {
		return nil, err
	}
	var board message.BoardSnapshot[ShipID, Kind]
	if err := board.Decode(be.Data, BoardCodec); err != nil {
		return nil, err
	}
	if err := sq.Board.Restore(&board); err != nil {
		return nil, err
	}
	return sq, nil
}
