package goomba

import (
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
// every goomba's agent, mapped by m (table.PrepareReload). It changes
// nothing; the commit it returns moves the agents and makes the brains,
// those made afterwards included, run t.
//
// Goombas run by the generated code cannot be reloaded: Go code is
// compiled into the game. PrepareReload refuses them.
func (l *Level) PrepareReload(t *table.Table, m *machine.Mapping) (commit func(), err error) {
	var h *tableHost
	for i, b := range l.Brains {
		tb, ok := b.(*tableBrain)
		if !ok {
			return nil, fmt.Errorf("goomba %d runs the generated code, which cannot be reloaded: run the drawing's table (TableBrains) while designing", l.Goombas[i].ID)
		}
		h = tb.h
	}
	nh, err := bind(t)
	if err != nil {
		return nil, err
	}
	move, err := table.PrepareReload(t, l.Agents(), m)
	if err != nil {
		return nil, err
	}
	return func() {
		move()
		if h != nil {
			*h = *nh
		}
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
