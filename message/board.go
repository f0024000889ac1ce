package message

import (
	"iter"
	"math"
)

// Message is one message on a [Board]: a fire-and-forget note from one
// entity to another, or to everyone.
//
// ID is the game's entity ID type (a small integer, a generational handle
// struct...) and K its message-type enumeration. Type, From and To are
// indexed by the board; Payload is carried untouched. When Broadcast is true
// the message has no destination: the board ignores To (it keeps whatever
// value it had) and [Frame.To] does not yield it.
type Message[ID, K comparable] struct {
	Type      K
	From      ID
	To        ID
	Broadcast bool
	Payload   any
}

// Board is the double-buffered, pull-based message board: entities [Board.Send]
// messages during a frame, the game loop calls [Board.Swap] once per frame,
// and from then on everything sent during that frame is visible at once in
// [Board.Last], where each entity pulls what concerns it.
//
// The zero value is an empty board ready to use. A Board must not be copied
// after first use (copies would share buffers).
//
// A Board is not safe for concurrent use: Send and Swap must not run at the
// same time as each other or as a query. Queries only read, so several
// goroutines may query the same board at once while nobody sends or swaps.
//
// Cost: Send is amortized O(1) (three map look-ups, no allocation once the
// buffers have grown to the frame size); Swap is O(messages + distinct keys)
// of the frame it clears, never O(capacity). See [Frame] for the queries.
type Board[ID, K comparable] struct {
	frames [2]Frame[ID, K]
	cur    uint8 // index of the current frame; the other is the last frame
}

// Send adds m to the current frame. It becomes visible in [Board.Last] after
// the next [Board.Swap]; until then only [Board.Current] sees it.
//
// Send panics if the current frame already holds [math.MaxInt32] messages.
// Cost: amortized O(1); no allocation in steady state.
func (b *Board[ID, K]) Send(m Message[ID, K]) {
	b.frames[b.cur].send(m)
}

// Swap ends the frame: everything sent since the previous Swap becomes the
// last frame, visible all at once, and a new, empty current frame starts.
// The messages of the frame before that are forgotten.
//
// The two frames trade places, so a *Frame obtained from [Board.Last] before
// Swap is the (empty) current frame after it. A range over a query of the
// frame Swap clears stops at once.
//
// Cost: O(messages + distinct keys) of the cleared frame; no allocation.
func (b *Board[ID, K]) Swap() {
	b.cur ^= 1
	b.frames[b.cur].reset()
}

// Last returns the frame made visible by the last [Board.Swap]: the messages
// to act on now. It is empty before the first Swap.
//
// The pointer stays valid for the life of the board, but after the next Swap
// it designates the current frame. Cost: O(1).
func (b *Board[ID, K]) Last() *Frame[ID, K] {
	return &b.frames[b.cur^1]
}

// Current returns the frame being sent: the messages sent since the last
// [Board.Swap]. Querying it is the article's FindFuture… look-ahead; it is
// rarely needed, and a sign that the messages carry state.
//
// The pointer stays valid for the life of the board, but after the next Swap
// it designates the last frame. Cost: O(1).
func (b *Board[ID, K]) Current() *Frame[ID, K] {
	return &b.frames[b.cur]
}

// Frame is the indexed list of the messages sent during one frame of a
// [Board]. Obtain one from [Board.Last] or [Board.Current]; the zero Frame is
// empty.
//
// Every query returns an [iter.Seq] that yields the matching messages in send
// order. The sequence reads the frame when it is ranged over, not when it is
// made, and allocates nothing. To keep the result, append it into a slice of
// your own, reused from frame to frame:
//
//	mine = slices.AppendSeq(mine[:0], board.Last().To(self))
//
// A query about a key the frame never saw (an entity that received nothing, a
// type nobody sent) yields nothing and leaves the frame unchanged.
//
// Messages sent into a frame while ranging over one of its queries (only
// possible for [Board.Current]) are yielded too if they match and come after
// the current position, so a range that answers every match with a new match
// never ends. If [Board.Swap] clears the frame during the range, the range
// stops.
//
// Frame is not safe for concurrent use with [Board.Send] or [Board.Swap];
// queries only read and may run concurrently with each other.
type Frame[ID, K comparable] struct {
	msgs []Message[ID, K]
	to   index[ID] // broadcasts are left out
	from index[ID]
	typ  index[K]
	gen  uint64 // bumped by reset, so that ranges in progress stop
}

// index links together the messages of a frame that share a key: for each
// key, a chain from head to tail through next, in send order.
type index[T comparable] struct {
	pos    map[T]int32 // key → its chain in chains
	chains []chain[T]  // one per distinct key, in order of first use
	next   []int32     // per message: the next message with the same key, or -1
}

type chain[T comparable] struct {
	key        T
	head, tail int32
	n          int32 // number of messages in the chain
}

// add appends message i to the chain of key.
func (x *index[T]) add(key T, i int32) {
	x.next = append(x.next, -1)
	if c, ok := x.pos[key]; ok {
		ch := &x.chains[c]
		x.next[ch.tail] = i
		ch.tail = i
		ch.n++
		return
	}
	if x.pos == nil {
		x.pos = make(map[T]int32)
	}
	x.pos[key] = int32(len(x.chains))
	x.chains = append(x.chains, chain[T]{key: key, head: i, tail: i, n: 1})
}

// skip records that message i is in no chain of x.
func (x *index[T]) skip() {
	x.next = append(x.next, -1)
}

// lookup returns the first message with key and the number of such messages,
// or -1, 0.
func (x *index[T]) lookup(key T) (head, n int32) {
	if c, ok := x.pos[key]; ok {
		ch := &x.chains[c]
		return ch.head, ch.n
	}
	return -1, 0
}

// reset empties x, deleting only the keys it holds.
func (x *index[T]) reset() {
	for i := range x.chains {
		delete(x.pos, x.chains[i].key)
	}
	clear(x.chains) // keys may hold pointers
	x.chains = x.chains[:0]
	x.next = x.next[:0]
}

func (f *Frame[ID, K]) send(m Message[ID, K]) {
	n := len(f.msgs)
	if n == math.MaxInt32 {
		panic("message: Board.Send: more than 2147483647 messages in one frame")
	}
	f.msgs = append(f.msgs, m)
	f.index(&f.msgs[n], int32(n))
}

// index adds m, message i of the frame, to the frame's indexes.
func (f *Frame[ID, K]) index(m *Message[ID, K], i int32) {
	if m.Broadcast {
		f.to.skip()
	} else {
		f.to.add(m.To, i)
	}
	f.from.add(m.From, i)
	f.typ.add(m.Type, i)
}

func (f *Frame[ID, K]) reset() {
	f.gen++
	f.to.reset()
	f.from.reset()
	f.typ.reset()
	clear(f.msgs) // let payloads be collected
	f.msgs = f.msgs[:0]
}

// walk yields the chain starting at i, linked through *next.
func (f *Frame[ID, K]) walk(i int32, next *[]int32, yield func(Message[ID, K]) bool) {
	gen := f.gen
	for i >= 0 {
		if !yield(f.msgs[i]) || f.gen != gen {
			return
		}
		i = (*next)[i]
	}
}

// Len returns the number of messages in the frame, broadcasts included.
// Cost: O(1).
func (f *Frame[ID, K]) Len() int {
	return len(f.msgs)
}

// All yields every message of the frame in send order.
// Cost: O(messages).
func (f *Frame[ID, K]) All() iter.Seq[Message[ID, K]] {
	return func(yield func(Message[ID, K]) bool) {
		gen := f.gen
		for i := 0; i < len(f.msgs); i++ {
			if !yield(f.msgs[i]) || f.gen != gen {
				return
			}
		}
	}
}

// To yields the messages sent to id, in send order. Broadcasts are not
// included (as in the article: a broadcast has no destination); find them
// with [Frame.Where]. An id that received nothing yields nothing.
// Cost: one map look-up, then O(matches).
func (f *Frame[ID, K]) To(id ID) iter.Seq[Message[ID, K]] {
	return func(yield func(Message[ID, K]) bool) {
		i, _ := f.to.lookup(id)
		f.walk(i, &f.to.next, yield)
	}
}

// From yields the messages sent by id, broadcasts included, in send order.
// Cost: one map look-up, then O(matches).
func (f *Frame[ID, K]) From(id ID) iter.Seq[Message[ID, K]] {
	return func(yield func(Message[ID, K]) bool) {
		i, _ := f.from.lookup(id)
		f.walk(i, &f.from.next, yield)
	}
}

// OfType yields the messages of type k, broadcasts included, in send order.
// Cost: one map look-up, then O(matches).
func (f *Frame[ID, K]) OfType(k K) iter.Seq[Message[ID, K]] {
	return func(yield func(Message[ID, K]) bool) {
		i, _ := f.typ.lookup(k)
		f.walk(i, &f.typ.next, yield)
	}
}

// OfTypeTo yields the messages of type k sent to id, in send order.
// Broadcasts are not included, as for [Frame.To].
// Cost: two map look-ups, then O(min(messages to id, messages of type k)).
func (f *Frame[ID, K]) OfTypeTo(k K, id ID) iter.Seq[Message[ID, K]] {
	return func(yield func(Message[ID, K]) bool) {
		f.typeAnd(k, id, true, yield)
	}
}

// OfTypeFrom yields the messages of type k sent by id, broadcasts included,
// in send order.
// Cost: two map look-ups, then O(min(messages from id, messages of type k)).
func (f *Frame[ID, K]) OfTypeFrom(k K, id ID) iter.Seq[Message[ID, K]] {
	return func(yield func(Message[ID, K]) bool) {
		f.typeAnd(k, id, false, yield)
	}
}

// typeAnd walks the shorter of the chains of type k and of id (as
// destination if to, else as sender), filtering on the other key.
func (f *Frame[ID, K]) typeAnd(k K, id ID, to bool, yield func(Message[ID, K]) bool) {
	ids := &f.from
	if to {
		ids = &f.to
	}
	ti, tn := f.typ.lookup(k)
	ii, in := ids.lookup(id)
	if tn == 0 || in == 0 {
		return
	}
	gen := f.gen
	if in <= tn {
		for i := ii; i >= 0; i = ids.next[i] {
			if f.msgs[i].Type == k {
				if !yield(f.msgs[i]) || f.gen != gen {
					return
				}
			}
		}
		return
	}
	for i := ti; i >= 0; i = f.typ.next[i] {
		m := &f.msgs[i]
		if to && !m.Broadcast && m.To == id || !to && m.From == id {
			if !yield(*m) || f.gen != gen {
				return
			}
		}
	}
}

// Where yields the messages for which match returns true, in send order. It
// is the escape hatch for questions the indexes do not answer (broadcasts
// only, payload contents...).
// Cost: O(messages), one call of match per message. Where panics if match is
// nil.
func (f *Frame[ID, K]) Where(match func(Message[ID, K]) bool) iter.Seq[Message[ID, K]] {
	if match == nil {
		panic("message: Frame.Where: nil match function")
	}
	return func(yield func(Message[ID, K]) bool) {
		gen := f.gen
		for i := 0; i < len(f.msgs); i++ {
			if match(f.msgs[i]) {
				if !yield(f.msgs[i]) || f.gen != gen {
					return
				}
			}
		}
	}
}
