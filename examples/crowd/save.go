package crowd

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/save"
)

// entryHorde names the horde's machine in a save.
const entryHorde = "horde"

// monsterSize is a monster's size in a save: seven 4-byte numbers.
const monsterSize = 28

// MonsterCodec writes a monster's data in a save: its seven fields, 4
// bytes each, little endian.
var MonsterCodec = machine.Codec[Monster]{
	Append: func(b []byte, m *Monster) ([]byte, error) {
		for _, f := range [...]float32{m.X, m.Y, m.VX, m.VY, m.Timer, m.Energy} {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		return binary.LittleEndian.AppendUint32(b, m.Seed), nil
	},
	Decode: func(b []byte, m *Monster) error {
		if len(b) != monsterSize {
			return fmt.Errorf("crowd demo: a monster of %d bytes, want %d", len(b), monsterSize)
		}
		var v [7]uint32
		for i := range v {
			v[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		*m = Monster{
			X: math.Float32frombits(v[0]), Y: math.Float32frombits(v[1]),
			VX: math.Float32frombits(v[2]), VY: math.Float32frombits(v[3]),
			Timer: math.Float32frombits(v[4]), Energy: math.Float32frombits(v[5]), Seed: v[6],
		}
		return nil
	},
}

// Save adds the horde to f between two steps: every monster's state,
// previous state and data, in the order the machine stores them.
func Save(f *save.File, m *crowd.Machine[Monster]) error {
	var s crowd.Snapshot[Monster]
	m.Snapshot(&s)
	b, err := s.AppendBinary(nil, MonsterCodec)
	if err != nil {
		return err
	}
	d := m.Describe()
	f.Add(entryHorde, &d, b)
	return nil
}

// Load returns the horde a save holds, stepping on the given number of
// workers (the result does not depend on it): it goes on exactly as the
// horde that was saved.
func Load(f *save.File, workers int) (*crowd.Machine[Monster], error) {
	e, err := f.Need(entryHorde)
	if err != nil {
		return nil, err
	}
	var s crowd.Snapshot[Monster]
	if err := s.Decode(e.Data, MonsterCodec); err != nil {
		return nil, err
	}
	maxID := crowd.ID(0)
	for _, id := range s.IDs {
		maxID = max(maxID, id)
	}
	m, err := crowd.New(Defs(), crowd.Options[Monster]{MaxID: maxID})
	if err != nil {
		return nil, err
	}
	d := m.Describe()
	if err := e.Exact(&d); err != nil {
		m.Close()
		return nil, err
	}
	if err := m.SetWorkers(workers); err != nil {
		m.Close()
		return nil, err
	}
	if err := m.Restore(&s); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}
