package goomba

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/save"
)

// The names of the level's entries in a save.
const (
	saveLevel   = "level"   // the world: the level, the goombas' data, the trace
	saveGoombas = "goombas" // the goombas' machines
)

// level is what a save holds of the level besides the machines: the
// game's own data, in the game's own encoding (JSON here).
type level struct {
	Width   int
	Player  int
	Jumped  bool
	Tick    int
	Trace   []string
	Goombas []Goomba
}

// Save adds the level to f: the goombas' machines as one entry, the
// machine d describes (the drawing's table: the generated code is the same
// machine), and the rest of the level as the game's data.
func (l *Level) Save(f *save.File, d *machine.Description) error {
	// The goombas' snapshots, each after its length.
	b := binary.AppendUvarint(nil, uint64(len(l.Brains)))
	var one []byte
	for i, br := range l.Brains {
		var err error
		if one, err = br.AppendSave(one[:0]); err != nil {
			return fmt.Errorf("goomba: saving goomba %d: %w", l.Goombas[i].ID, err)
		}
		b = save.AppendRecord(b, one)
	}
	f.Add(saveGoombas, d, b)
	data := level{Width: l.Width, Player: l.Player, Jumped: l.Jumped, Tick: l.Tick, Trace: l.Trace}
	for _, g := range l.Goombas {
		data.Goombas = append(data.Goombas, *g)
	}
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	f.AddData(saveLevel, js)
	return nil
}

// LoadLevel returns the level a save holds, its goombas' machines restored
// by brains. d describes the machine the brains run: a save made with
// another drawing is refused (save.ErrMismatch).
func LoadLevel(f *save.File, d *machine.Description, brains Brains) (*Level, error) {
	e, err := f.Need(saveGoombas)
	if err != nil {
		return nil, err
	}
	if err := e.Exact(d); err != nil {
		return nil, err
	}
	w, err := f.Need(saveLevel)
	if err != nil {
		return nil, err
	}
	var data level
	if err := json.Unmarshal(w.Data, &data); err != nil {
		return nil, fmt.Errorf("goomba: the saved level: %w", err)
	}
	l := &Level{Width: data.Width, Player: data.Player, Jumped: data.Jumped, Tick: data.Tick, Trace: data.Trace, brains: brains}
	b := e.Data
	n, k := binary.Uvarint(b)
	if k <= 0 || n != uint64(len(data.Goombas)) {
		return nil, fmt.Errorf("goomba: the save holds machines for %d goombas and data for %d", n, len(data.Goombas))
	}
	b = b[k:]
	for i := range data.Goombas {
		g := &data.Goombas[i]
		rec, rest, err := save.NextRecord(b)
		if err != nil {
			return nil, fmt.Errorf("goomba: goomba %d: %w", g.ID, err)
		}
		br, err := brains.Restore(g, rec)
		if err != nil {
			return nil, fmt.Errorf("goomba: restoring goomba %d: %w", g.ID, err)
		}
		b = rest
		l.Goombas = append(l.Goombas, g)
		l.Brains = append(l.Brains, br)
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("goomba: %d bytes left over after the goombas' machines", len(b))
	}
	return l, nil
}
