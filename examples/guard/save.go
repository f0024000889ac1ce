package guard

import (
	"encoding/json"
	"fmt"

	"github.com/fsmforge/fsmforge/save"
	"github.com/fsmforge/fsmforge/table"
)

// The entries of a level's save.
const (
	entryGuards = "guards" // every guard's agent: configuration, history, queues, timers
	entryLevel  = "level"  // the level's own data, as JSON
)

// level is a save's level data.
type level struct {
	Tick   int
	Dice   []byte
	Guards []Guard
}

// Save adds the level to f between two ticks: each guard's agent, with
// its active states, what its deep history recorded and the search timer
// still running, then the level's own data.
func (l *Level) Save(f *save.File) error {
	var b, one []byte
	var s table.Snapshot
	for i := range l.agents {
		l.agents[i].Snapshot(&s)
		var err error
		if one, err = s.AppendBinary(one[:0]); err != nil {
			return fmt.Errorf("guard: saving guard %d: %w", l.guards[i].ID, err)
		}
		b = save.AppendRecord(b, one)
	}
	d := l.t.Describe()
	f.Add(entryGuards, &d, b)
	data := level{Tick: l.tick, Guards: l.guards}
	var err error
	if data.Dice, err = l.dice.MarshalBinary(); err != nil {
		return err
	}
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	f.AddData(entryLevel, js)
	return nil
}

// LoadLevel returns the level a save holds, running t, ready for its next
// tick. A save of another chart is refused with save.ErrMismatch.
func LoadLevel(t *table.Table, f *save.File) (*Level, error) {
	e, err := f.Need(entryLevel)
	if err != nil {
		return nil, err
	}
	var data level
	if err := json.Unmarshal(e.Data, &data); err != nil {
		return nil, fmt.Errorf("guard: the saved level: %w", err)
	}
	l, err := NewLevel(t, len(data.Guards), 0)
	if err != nil {
		return nil, err
	}
	if err := l.dice.UnmarshalBinary(data.Dice); err != nil {
		return nil, fmt.Errorf("guard: the saved dice: %w", err)
	}
	l.tick = data.Tick
	copy(l.guards, data.Guards)
	g, err := f.Need(entryGuards)
	if err != nil {
		return nil, err
	}
	d := t.Describe()
	if err := g.Exact(&d); err != nil {
		return nil, err
	}
	b := g.Data
	for i := range l.agents {
		rec, rest, err := save.NextRecord(b)
		if err != nil {
			return nil, fmt.Errorf("guard: guard %d: %w", l.guards[i].ID, err)
		}
		var s table.Snapshot
		if err := s.UnmarshalBinary(rec); err != nil {
			return nil, fmt.Errorf("guard: guard %d: %w", l.guards[i].ID, err)
		}
		if l.agents[i], err = table.RestoreAgent(t, &l.guards[i], &s); err != nil {
			return nil, fmt.Errorf("guard: guard %d: %w", l.guards[i].ID, err)
		}
		b = rest
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("guard: the save has agents for more guards than it has guards")
	}
	return l, nil
}
