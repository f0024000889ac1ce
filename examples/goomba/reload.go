package goomba

import (
	"errors"
	"fmt"
	"iter"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// PrepareReload readies the move of the level's goombas onto t, a new
// version of the drawing reloaded while the level runs (package reload
// calls it at a frame boundary: a Level is a reload.Target). It binds the
// host's tests and entry-action properties by name in t, so a version
// that lost one the goombas need is refused, then readies the move of
// every goomba's agent, mapped by m (table.PrepareReload), reporting in
// m.Moved the goombas it sends to the fallback by their IDs. It changes
// nothing; the commit it returns moves the agents and makes the brains,
// those made afterwards included, run t.
//
// Goombas run by the generated code cannot be reloaded: Go code is
// compiled into the game. PrepareReload refuses them.
func (l *Level) PrepareReload(t *table.Table, m *machine.Mapping) (commit func(), err error) {
	h := l.brains.host
	for i, b := range l.Brains {
		if _, ok := b.(*tableBrain); !ok || h == nil {
			return nil, fmt.Errorf("goomba %d runs the generated code, which cannot be reloaded: run the drawing's table (TableBrains) while designing", l.Goombas[i].ID)
		}
	}
	if h == nil {
		return nil, errors.New("goomba: the level's brains run the generated code, which cannot be reloaded: run the drawing's table (TableBrains) while designing")
	}
	nh, err := bind(t)
	if err != nil {
		return nil, err
	}
	moves := len(m.Moved)
	move, err := table.PrepareReload(t, l.Agents(), m)
	if err != nil {
		return nil, err
	}
	for i := moves; i < len(m.Moved); i++ { // agent numbers to the goombas' IDs
		m.Moved[i].Entity = uint64(l.Goombas[m.Moved[i].Entity].ID)
	}
	return func() {
		move()
		*h = *nh
	}, nil
}

// Agents yields the agent of each goomba run by the drawing's table, in
// order: what package reload moves and package viewer shows.
func (l *Level) Agents() iter.Seq[*table.Agent[*Goomba]] {
	return func(yield func(*table.Agent[*Goomba]) bool) {
		for _, b := range l.Brains {
			if tb, ok := b.(*tableBrain); ok && !yield(&tb.a) {
				return
			}
		}
	}
}
