package guard

import (
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// PrepareReload readies the move of the level's guards onto t, a new
// version of the drawing reloaded while the level runs (package reload
// calls it at a frame boundary: a Level is a reload.Target). It binds the
// host's test and the script's events by name in t, so that a version
// that lost one is refused, and readies the move of every guard's agent,
// mapped by m (table.PrepareReload): each keeps its active states,
// history, queued events and pending timers, by name; m.Moved names those
// sent to the fallback by their IDs. It changes nothing; the commit it
// returns makes the move.
func (l *Level) PrepareReload(t *table.Table, m *machine.Mapping) (commit func(), err error) {
	next := Level{h: l.h, events: l.events}
	if err := next.bind(t); err != nil {
		return nil, err
	}
	moves := len(m.Moved)
	move, err := table.PrepareReload(t, l.Agents(), m)
	if err != nil {
		return nil, err
	}
	for i := moves; i < len(m.Moved); i++ { // agent numbers to the guards' IDs
		m.Moved[i].Entity = uint64(l.guards[m.Moved[i].Entity].ID)
	}
	return func() {
		move()
		l.t, l.h, l.events = next.t, next.h, next.events
	}, nil
}
