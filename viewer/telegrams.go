package viewer

import (
	"fmt"

	"github.com/fsmforge/fsmforge/message"
)

// Telegram is a message waiting for an agent in a dispatcher: what the
// agent's view lists besides its own queues.
type Telegram struct {
	Msg  string  `json:"msg"`  // the message, as its String says
	From uint64  `json:"from"` // the sender's ID
	Due  float64 `json:"due"`  // the game time it is delivered at
	Left float64 `json:"left"` // Due less the dispatcher's time
}

// WithTelegrams returns src with the telegrams d holds for each agent in
// the agent's view: an agent's ID is id(receiver). Buckland's West World
// shows so that Elsa's stew is on its way to Bob.
func WithTelegrams[ID, K comparable](src Source, d *message.Dispatcher[ID, K], id func(ID) uint64) Source {
	return &telegrams[ID, K]{Source: src, d: d, id: id}
}

type telegrams[ID, K comparable] struct {
	Source
	d       *message.Dispatcher[ID, K]
	id      func(ID) uint64
	pending []message.Telegram[ID, K]
}

// Agent fills a as the source does, with the telegrams waiting for it.
func (s *telegrams[ID, K]) Agent(id uint64, a *Agent) bool {
	if !s.Source.Agent(id, a) {
		return false
	}
	s.pending = s.d.AppendPending(s.pending[:0])
	now := s.d.Time()
	for _, t := range s.pending {
		if s.id(t.Receiver) == id {
			a.Telegrams = append(a.Telegrams, Telegram{Msg: fmt.Sprint(t.Msg), From: s.id(t.Sender), Due: t.DispatchTime, Left: t.DispatchTime - now})
		}
	}
	return true
}

// Post sends the source's agent a message, when the source takes them.
func (s *telegrams[ID, K]) Post(id uint64, trigger int32) error {
	if p, ok := s.Source.(Poster); ok {
		return p.Post(id, trigger)
	}
	return errNoPost
}

// Hold forwards to the source, whose tests the page may hold (HoldHost).
func (s *telegrams[ID, K]) Hold(id uint64, trigger int32, on bool) error {
	if h, ok := s.Source.(Holder); ok && canHold(s.Source) {
		return h.Hold(id, trigger, on)
	}
	return errNoHold
}

// canPost and canHold say what the source takes from the page: the
// telegrams add nothing to it.
func (s *telegrams[ID, K]) canPost() bool { _, ok := s.Source.(Poster); return ok }
func (s *telegrams[ID, K]) canHold() bool { return canHold(s.Source) }
