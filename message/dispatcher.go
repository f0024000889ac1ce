package message

import (
	"cmp"
	"math"
	"slices"
)

// Telegram is a message delivered by a [Dispatcher] to one entity's
// [Handler], now or after a delay (Buckland's Telegram).
//
// DispatchTime is the game time at which it is (or was) due: the time of the
// [Dispatcher.Dispatch] call plus the delay, or the time of the call for an
// immediate telegram. Extra is carried untouched.
type Telegram[ID, K comparable] struct {
	Sender, Receiver ID
	Msg              K
	DispatchTime     float64
	Extra            any
}

// Handler is an entity's telegram handler, registered with
// [Dispatcher.Register]. It reports whether it handled the telegram; a false
// return is reported as [ErrUnhandled]. A handler may call any method of its
// dispatcher, Dispatch included (within [DispatcherOptions.MaxDepth] for
// immediate telegrams), except [Dispatcher.DispatchDelayed] while being run
// by DispatchDelayed (that panics).
type Handler[ID, K comparable] func(Telegram[ID, K]) bool

// DispatcherOptions configures a [Dispatcher]. The zero value gives the
// defaults.
type DispatcherOptions struct {
	// DuplicateWindow, when positive, drops a delayed telegram if an identical
	// one (same sender, receiver and message; Extra is not compared) is
	// already pending with a dispatch time less than DuplicateWindow away, as
	// Buckland's dispatcher does with its 0.25 s SmallestDelay; Dispatch then
	// returns [ErrDuplicate]. Telegrams that merely share a dispatch time are
	// all kept. +Inf allows at most one identical telegram pending at a time.
	//
	// Default 0: off, every telegram is queued. Negative or NaN panics in
	// [NewDispatcher].
	DuplicateWindow float64

	// MaxDepth is how many deliveries may be nested inside one another
	// through immediate telegrams: a handler that dispatches with no delay
	// runs the receiver's handler inside its own, which may do the same, and
	// so on. The delivery of a telegram sent from outside any handler, or by
	// [Dispatcher.DispatchDelayed], is at depth 1; an immediate telegram
	// sent by a handler at depth MaxDepth is not delivered: Dispatch returns
	// a [*TelegramError] matching [ErrDepthLimit], and the outermost
	// delivery reports it too (see [Dispatcher.Dispatch]). So a handler that
	// answers itself at once, or a ring of handlers that do, cannot overflow
	// the stack. Handlers that must talk back and forth without end should
	// send with a delay.
	//
	// Default 0: [DefaultMaxDepth] (64). 1 refuses every immediate telegram
	// sent by a handler. Negative panics in [NewDispatcher].
	MaxDepth int
}

// DefaultMaxDepth is the [DispatcherOptions.MaxDepth] of a Dispatcher made
// with MaxDepth 0, and of the zero Dispatcher: far more than chains of
// replies need, and little stack.
const DefaultMaxDepth = 64

// Dispatcher is Buckland's MessageDispatcher: entities register a [Handler]
// under their ID and send each other telegrams ([Telegram]), delivered at once
// or after a delay in game time.
//
// Time is whatever the caller passes in ([Dispatcher.SetTime],
// [Dispatcher.DispatchDelayed]): game seconds, ticks... never the wall clock.
// It starts at 0.
//
// The zero value is ready to use, with the default [DispatcherOptions]. A
// Dispatcher must not be copied after first use.
//
// A Dispatcher is not safe for concurrent use. Handlers run synchronously on
// the caller's goroutine and may call back into the dispatcher (see
// [Dispatcher.Dispatch] and [Dispatcher.DispatchDelayed]).
//
// Cost: queued telegrams live in a binary min-heap, so queueing and delivering
// one costs O(log pending) and, once the buffers have grown, allocates
// nothing.
type Dispatcher[ID, K comparable] struct {
	window   float64
	maxDepth int // 0: DefaultMaxDepth
	now      float64
	handlers map[ID]Handler[ID, K]

	// Immediate deliveries: depth is the number of handlers running, one
	// inside the other. Once a telegram was refused for depth, cut refuses
	// every immediate telegram until the outermost delivery returns, and
	// refused lists them for it to report.
	depth   int
	cut     bool
	refused TelegramErrors[ID, K]

	heap     []entry // pending telegrams, a min-heap on (time, seq)
	incoming []entry // queued during delivery, merged into heap after it
	slots    []Telegram[ID, K]
	free     []int32 // unused slots
	seq      uint64  // sequence number of the next queued telegram

	delivering bool
	dups       dupSet[ID, K]     // used only when window > 0
	dupScratch dupScratch[ID, K] // for Restore, when window > 0
	scratch    []entry           // for AppendPending and Snapshot
	counts     []int32           // for Snapshot
}

// entry is a pending telegram in the heap: when it is due, its place in
// send order, and where the telegram is.
type entry struct {
	time float64
	seq  uint64
	slot int32
}

func (a entry) less(b entry) bool {
	return a.time < b.time || a.time == b.time && a.seq < b.seq
}

func compareEntries(a, b entry) int {
	if c := cmp.Compare(a.time, b.time); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// NewDispatcher returns a dispatcher with no entities, at time 0, configured
// by opts (the zero value gives the defaults).
//
// NewDispatcher panics if opts.DuplicateWindow is negative or NaN, or if
// opts.MaxDepth is negative.
func NewDispatcher[ID, K comparable](opts DispatcherOptions) *Dispatcher[ID, K] {
	w := opts.DuplicateWindow
	if w < 0 || math.IsNaN(w) {
		panic("message: NewDispatcher: DuplicateWindow must be zero or positive")
	}
	if opts.MaxDepth < 0 {
		panic("message: NewDispatcher: MaxDepth must be zero (the default, 64) or positive")
	}
	return &Dispatcher[ID, K]{window: w, maxDepth: opts.MaxDepth}
}

// Register sets h as the handler of the entity id, replacing any previous
// one. Telegrams to id, immediate or delayed, go to h from now on, including
// telegrams queued before the call.
//
// Register panics if h is nil. Cost: one map insertion.
func (d *Dispatcher[ID, K]) Register(id ID, h Handler[ID, K]) {
	if h == nil {
		panic("message: Dispatcher.Register: nil handler")
	}
	if d.handlers == nil {
		d.handlers = make(map[ID]Handler[ID, K])
	}
	d.handlers[id] = h
}

// Unregister removes the entity id. Telegrams to it still pending are dropped
// when they fall due, and reported by [Dispatcher.DispatchDelayed] (unless
// id is registered again by then). Unregistering an unknown id does nothing.
// Cost: one map deletion.
func (d *Dispatcher[ID, K]) Unregister(id ID) {
	delete(d.handlers, id)
}

// Time returns the current game time: 0 at first, then the last value given
// to [Dispatcher.SetTime] or [Dispatcher.DispatchDelayed].
func (d *Dispatcher[ID, K]) Time() float64 {
	return d.now
}

// SetTime sets the current game time, which delayed telegrams are counted
// from. It delivers nothing (see [Dispatcher.DispatchDelayed]). Time may go
// backwards, for instance when loading a saved game; pending telegrams keep
// their dispatch times.
//
// SetTime panics if now is NaN or infinite.
func (d *Dispatcher[ID, K]) SetTime(now float64) {
	if math.IsNaN(now) || math.IsInf(now, 0) {
		panic("message: Dispatcher.SetTime: time must be finite")
	}
	d.now = now
}

// Len returns the number of pending (queued, not yet delivered) telegrams.
// Cost: O(1).
func (d *Dispatcher[ID, K]) Len() int {
	return len(d.heap) + len(d.incoming)
}

// AppendPending appends the pending telegrams to dst in delivery order (by
// dispatch time, ties in send order) and returns the extended slice, for
// saved games and viewers.
//
// Cost: O(pending · log pending); no allocation once dst and an internal
// buffer of the same size have grown.
func (d *Dispatcher[ID, K]) AppendPending(dst []Telegram[ID, K]) []Telegram[ID, K] {
	s := append(d.scratch[:0], d.heap...)
	s = append(s, d.incoming...)
	slices.SortFunc(s, compareEntries)
	for _, e := range s {
		dst = append(dst, d.slots[e.slot])
	}
	d.scratch = s[:0]
	return dst
}

// Dispatch sends the telegram msg from sender to receiver, with extra as its
// Extra field.
//
// A delay ≤ 0 delivers it now: the receiver's handler runs before Dispatch
// returns, with DispatchTime set to [Dispatcher.Time]. The handler may itself
// dispatch, immediately (recursively, up to [DispatcherOptions.MaxDepth]
// deliveries deep) or with a delay. A positive delay queues the telegram,
// due at Time() + delay, for [Dispatcher.DispatchDelayed]; the delay must be
// one that game time can count (see [ErrBadDelay]).
//
// Dispatch returns nil on success, or:
//   - a [*TelegramError] wrapping [ErrBadDelay] if delay is NaN or infinite,
//     Time() + delay overflows, or the delay is too small for the precision
//     of game time at Time(): Time() + delay rounds to Time(), or to a time
//     more than a thousandth of the delay away from the time asked for;
//   - a [*TelegramError] wrapping [ErrUnknownReceiver] if receiver is not
//     registered;
//   - a [*TelegramError] matching [ErrDepthLimit] if the telegram is
//     immediate, sent by a handler already MaxDepth deliveries deep, or
//     sent after another telegram was refused so in the same cascade of
//     immediate deliveries (see below);
//   - a [*TelegramError] wrapping [ErrUnhandled] if the telegram was
//     delivered now and the handler returned false;
//   - a [TelegramErrors] list if the telegram was delivered now, from
//     outside any handler, and immediate telegrams sent by the deliveries it
//     led to were refused for depth: the ErrUnhandled of this telegram if
//     its handler returned false, then those, in the order refused. Each
//     refused telegram was also returned to its sender; listing them again
//     here makes sure no telegram is lost unnoticed;
//   - [ErrDuplicate] itself, unwrapped and so free of allocation, if
//     DuplicateWindow is on and an identical telegram is already pending
//     close to the same time (see [DispatcherOptions]). Dropping duplicates
//     is what the window asks for: callers may ignore this error.
//
// Except for ErrUnhandled and the TelegramErrors list, the telegram was then
// neither delivered nor queued, and the dispatcher is as it was.
//
// Once one immediate telegram is refused for depth, every immediate
// telegram sent until the outermost delivery returns is refused too, so that
// handlers that each send several cannot multiply their calls without end.
//
// Cost: an immediate telegram costs one map look-up and the handler call; a
// delayed one O(log pending), plus one hash-table look-up and O(log m) for the
// duplicate check when it is on (m: identical telegrams pending; inserting
// one out of time order also moves up to m times). No allocation once the
// buffers have grown, except for the error values.
func (d *Dispatcher[ID, K]) Dispatch(delay float64, sender, receiver ID, msg K, extra any) error {
	t := Telegram[ID, K]{Sender: sender, Receiver: receiver, Msg: msg, DispatchTime: d.now, Extra: extra}
	if delay <= 0 && !math.IsInf(delay, -1) {
		h := d.handlers[receiver]
		if h == nil {
			return &TelegramError[ID, K]{Telegram: t, Err: ErrUnknownReceiver}
		}
		if d.depth > 0 && (d.cut || d.depth >= d.depthLimit()) {
			return d.refuse(t)
		}
		return d.deliverNow(h, t)
	}
	t.DispatchTime = d.now + delay
	if math.IsNaN(t.DispatchTime) || math.IsInf(t.DispatchTime, 0) {
		return &TelegramError[ID, K]{Telegram: t, Err: ErrBadDelay}
	}
	if lost := t.DispatchTime - d.now; lost == 0 || math.Abs(lost-delay) > delay/1000 {
		return &TelegramError[ID, K]{Telegram: t, Err: &precisionError{delay: delay, now: d.now}}
	}
	if _, ok := d.handlers[receiver]; !ok {
		return &TelegramError[ID, K]{Telegram: t, Err: ErrUnknownReceiver}
	}
	if d.window > 0 && d.dups.nearOrAdd(dupKey[ID, K]{sender, receiver, msg}, t.DispatchTime, d.window) {
		return ErrDuplicate // not wrapped: an expected outcome, kept free of allocation
	}
	d.queue(t)
	return nil
}

func (d *Dispatcher[ID, K]) depthLimit() int {
	if d.maxDepth == 0 {
		return DefaultMaxDepth
	}
	return d.maxDepth
}

// refuse refuses the immediate telegram t for depth, and records it for the
// outermost delivery to report.
func (d *Dispatcher[ID, K]) refuse(t Telegram[ID, K]) error {
	e := &TelegramError[ID, K]{Telegram: t, Err: depthError{limit: d.depthLimit(), cut: d.cut}}
	d.cut = true
	d.refused = append(d.refused, e)
	return e
}

// deliverNow runs h on the immediate telegram t. The outermost delivery
// (from outside any handler) also reports the telegrams refused for depth
// during it.
func (d *Dispatcher[ID, K]) deliverNow(h Handler[ID, K], t Telegram[ID, K]) error {
	outer := d.depth == 0
	d.depth++
	defer d.leave()
	handled := h(t)
	if outer && len(d.refused) > 0 {
		var errs TelegramErrors[ID, K]
		if !handled {
			errs = append(errs, &TelegramError[ID, K]{Telegram: t, Err: ErrUnhandled})
		}
		return append(errs, d.refused...)
	}
	if !handled {
		return &TelegramError[ID, K]{Telegram: t, Err: ErrUnhandled}
	}
	return nil
}

// leave ends a handler's delivery. When the outermost one ends, a handler
// having panicked or not, the cascade it started is over.
func (d *Dispatcher[ID, K]) leave() {
	d.depth--
	if d.depth <= 0 {
		d.endCascade()
	}
}

// endCascade forgets the telegrams refused for depth, which have been reported.
func (d *Dispatcher[ID, K]) endCascade() {
	d.depth = 0
	d.cut = false
	clear(d.refused)
	d.refused = d.refused[:0]
}

// queue stores t and adds it to the heap, or to incoming during delivery.
func (d *Dispatcher[ID, K]) queue(t Telegram[ID, K]) {
	var s int32
	if n := len(d.free); n > 0 {
		s = d.free[n-1]
		d.free = d.free[:n-1]
		d.slots[s] = t
	} else {
		if len(d.slots) == math.MaxInt32 {
			panic("message: Dispatcher.Dispatch: more than 2147483647 pending telegrams")
		}
		s = int32(len(d.slots))
		d.slots = append(d.slots, t)
	}
	e := entry{time: t.DispatchTime, seq: d.seq, slot: s}
	d.seq++
	if d.delivering {
		d.incoming = append(d.incoming, e)
		return
	}
	d.push(e)
}

// DispatchDelayed sets the time to now (as [Dispatcher.SetTime]) and delivers
// every pending telegram whose DispatchTime ≤ now, in order of dispatch time,
// ties in the order they were sent. Call it once per frame or tick.
//
// Telegrams that handlers dispatch with a delay during the call are queued,
// but not delivered by this call even if already due: they wait for the
// next one. A handler that keeps re-dispatching to itself therefore cannot
// hang the loop. Immediate dispatches from a handler are delivered at once,
// as always.
//
// A telegram whose receiver was unregistered since it was sent is dropped;
// one whose handler returns false counts as delivered. Both are reported,
// and the other telegrams are still delivered: the result is nil, or a
// [TelegramErrors] listing a [*TelegramError] (matching [ErrUnknownReceiver]
// or [ErrUnhandled]) per problem, in delivery order. Immediate telegrams
// that handlers sent and that were refused for depth (matching
// [ErrDepthLimit], see [DispatcherOptions.MaxDepth]) are listed too, after
// the telegram whose delivery led to them.
//
// If now is NaN or infinite, DispatchDelayed changes nothing and returns an
// error matching [ErrBadTime]. It panics if called from a handler during
// another DispatchDelayed. If a handler panics, the telegrams it and others
// queued during the call stay pending, and the telegram it was handling is
// gone.
//
// Cost: O(log pending) per telegram delivered, plus the handler calls; no
// allocation once the buffers have grown, except for the error values.
func (d *Dispatcher[ID, K]) DispatchDelayed(now float64) error {
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return timeError(now)
	}
	if d.delivering {
		panic("message: Dispatcher.DispatchDelayed called by a handler during DispatchDelayed")
	}
	d.now = now
	d.delivering = true
	base := d.depth // 0 unless called from a handler of an immediate telegram
	defer d.endDelivery(base)
	var errs TelegramErrors[ID, K]
	for len(d.heap) > 0 && d.heap[0].time <= now {
		e := d.pop()
		t := d.slots[e.slot]
		d.slots[e.slot] = Telegram[ID, K]{} // let Extra be collected
		d.free = append(d.free, e.slot)
		if d.window > 0 {
			d.dups.remove(dupKey[ID, K]{t.Sender, t.Receiver, t.Msg}, e.time)
		}
		h := d.handlers[t.Receiver]
		if h == nil {
			errs = append(errs, &TelegramError[ID, K]{Telegram: t, Err: ErrUnknownReceiver})
			continue
		}
		mark := len(d.refused)
		d.depth = base + 1
		ok := h(t)
		d.depth = base
		if !ok {
			errs = append(errs, &TelegramError[ID, K]{Telegram: t, Err: ErrUnhandled})
		}
		if len(d.refused) > mark {
			errs = append(errs, d.refused[mark:]...)
			if base == 0 { // else the outermost delivery reports them too
				d.endCascade()
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// endDelivery moves the telegrams queued during delivery into the heap, and
// ends the deliveries' cascade if a handler panicked.
func (d *Dispatcher[ID, K]) endDelivery(base int) {
	d.delivering = false
	d.depth = base
	if base == 0 {
		d.endCascade()
	}
	for _, e := range d.incoming {
		d.push(e)
	}
	d.incoming = d.incoming[:0]
}

func (d *Dispatcher[ID, K]) push(e entry) {
	d.heap = append(d.heap, e)
	siftUp(d.heap, len(d.heap)-1, e)
}

// siftUp puts e in the hole at h[i], moving the hole up past larger parents.
func siftUp(h []entry, i int, e entry) {
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// pop removes the least entry. It moves the hole at the root down to a leaf
// along the smaller children, then sifts the last entry up from there
// (Floyd's variant: about half the comparisons of the usual sift-down, since
// the last entry usually belongs near the bottom).
func (d *Dispatcher[ID, K]) pop() entry {
	h := d.heap
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	if n > 0 {
		i := 0
		for {
			c := 2*i + 1
			if c >= n {
				break
			}
			if c+1 < n && h[c+1].less(h[c]) {
				c++
			}
			h[i] = h[c]
			i = c
		}
		siftUp(h, i, last)
	}
	d.heap = h
	return top
}
