package message

import (
	"math"
	"slices"
	"strconv"
)

// maxFrame is the most messages a frame, or pending telegrams a dispatcher,
// can hold: their indexes are int32. Tests lower it to reach the limit.
var maxFrame = math.MaxInt32

// DispatcherSnapshot is the state of a [Dispatcher] as plain data, for a
// saved game, a replay or a rollback: its game time and its pending
// telegrams. Fill one with [Dispatcher.Snapshot], load one with
// [Dispatcher.Restore].
//
// The dispatcher's handlers and options are not part of it: the game makes
// the dispatcher again with the same [DispatcherOptions] and registers its
// entities again, before or after Restore. Extra values are carried as they
// are, neither copied nor encoded; a save format encodes them with the
// game's own codec.
//
// Size: 32 bytes, plus one [Telegram] per pending telegram (see the package
// documentation, section Saves).
type DispatcherSnapshot[ID, K comparable] struct {
	// Time is the dispatcher's game time, [Dispatcher.Time].
	Time float64

	// Pending holds the telegrams queued and not yet delivered, in the order
	// they will be delivered: by DispatchTime, telegrams due at the same
	// time in the order they were sent. Each DispatchTime is when the
	// telegram is due; it may be before Time (telegrams wait for the next
	// [Dispatcher.DispatchDelayed]).
	Pending []Telegram[ID, K]
}

// Snapshot fills dst with the dispatcher's time and pending telegrams,
// reusing the capacity of dst.Pending, so that snapshots taken into the same
// value allocate nothing once it has grown. The telegrams are copied:
// dst shares nothing with the dispatcher except the Extra values themselves.
//
// Snapshot puts the dispatcher's queue in delivery order, which changes
// neither what it delivers nor when; the next Snapshot, if few telegrams
// were queued or delivered in between, costs little more than copying them.
//
// Snapshot panics if called from a handler: the rest of a handler's work
// cannot be saved, so take snapshots between deliveries (between updates).
//
// Cost: putting the queue in order is a bucket sort on the due times,
// O(pending) for the usual spreads of time and O(pending · log pending) at
// worst, and a check when the queue already is in order; then O(pending)
// to copy the telegrams. The sort's scratch space, 24 bytes per pending
// telegram and 48 KiB, is allocated once and kept for the next snapshots;
// after that, no allocation once dst.Pending has grown.
func (d *Dispatcher[ID, K]) Snapshot(dst *DispatcherSnapshot[ID, K]) {
	if d.depth > 0 || d.delivering {
		panic("message: Dispatcher.Snapshot called by a handler (take snapshots between deliveries, outside handlers)")
	}
	d.sortHeap() // a sorted heap is still a heap
	dst.Time = d.now
	old := len(dst.Pending)
	p := dst.Pending[:0]
	for _, e := range d.heap {
		p = append(p, d.slots[e.slot])
	}
	if len(p) < old {
		clear(p[len(p):old]) // let the Extra values of the previous snapshot be collected
	}
	dst.Pending = p
}

// Restore replaces the dispatcher's time and pending telegrams with those of
// s, so that the run goes on exactly as the one that was saved: the same
// telegrams delivered at the same times in the same order, the same errors,
// and the same duplicates dropped (when [DispatcherOptions.DuplicateWindow]
// is the same). Registered handlers are kept; a pending telegram to an
// entity not registered when it falls due is reported by
// [Dispatcher.DispatchDelayed], as always. Restore copies s.Pending: s may
// be reused or changed afterwards.
//
// Restore first checks the whole snapshot, and refuses, changing nothing,
// one that the dispatcher could not have produced, with a [*SnapshotError]
// that names the field and the telegram's index:
//   - a Time or a DispatchTime that is NaN or infinite (matches [ErrBadTime]);
//   - telegrams out of delivery order: a DispatchTime before that of the
//     telegram listed before it (matches [ErrBadOrder]);
//   - with a DuplicateWindow, a telegram identical to an earlier one (same
//     sender, receiver and message) due less than the window after it: the
//     dispatcher would have dropped it (matches [ErrDuplicate]);
//   - more than 2³¹-1 telegrams (matches [ErrBadSnapshot], as all do).
//
// When several telegrams are wrong, the error names the first.
//
// A DispatchTime before Time is valid: such a telegram was due but has not
// been delivered yet. Restore panics if called from a handler.
//
// Cost: O(pending), a copy, allocating nothing once the dispatcher's
// buffers have grown. With a DuplicateWindow, Restore also rebuilds the
// index of pending telegrams by (sender, receiver, message), in bulk: it
// hashes each telegram's triple, sorts the hashes (a radix sort, two or three
// linear passes) and fills the index in that order, which touches memory
// in sequence rather than once at random per telegram. Its scratch space,
// twice 32 bytes per pending telegram with small IDs and 4 per distinct
// triple, is kept for the next Restore, as is the index's own (about 80
// bytes per distinct triple).
func (d *Dispatcher[ID, K]) Restore(s *DispatcherSnapshot[ID, K]) error {
	if d.depth > 0 || d.delivering {
		panic("message: Dispatcher.Restore called by a handler (restore between deliveries, outside handlers)")
	}
	keys, err := d.check(s)
	if err != nil {
		return err
	}
	d.now = s.Time
	n := len(s.Pending)
	if len(d.slots) > n {
		clear(d.slots[n:]) // let the old Extra values be collected
	}
	d.slots = append(d.slots[:0], s.Pending...)
	if cap(d.heap) < n {
		d.heap = make([]entry, n)
	}
	h := d.heap[:n]
	for i := range h {
		h[i] = entry{time: s.Pending[i].DispatchTime, seq: uint64(i), slot: int32(i)}
	}
	d.heap = h // in order, so a heap
	d.seq = uint64(n)
	d.free = d.free[:0]
	d.incoming = d.incoming[:0]
	if d.window > 0 {
		d.dups.rebuild(keys, &d.dupScratch)
	}
	return nil
}

// check checks s for Restore. With a duplicate window, it leaves the
// telegrams sorted for dupSet.rebuild and returns the number of distinct
// keys.
func (d *Dispatcher[ID, K]) check(s *DispatcherSnapshot[ID, K]) (keys int, err error) {
	if math.IsNaN(s.Time) || math.IsInf(s.Time, 0) {
		return 0, &SnapshotError{Op: "Dispatcher.Restore", Field: "Time", Index: -1,
			Err: snapshotProblem{ErrBadTime, "time " + fmtTime(s.Time) + " is NaN or infinite"}}
	}
	if len(s.Pending) > maxFrame {
		return 0, &SnapshotError{Op: "Dispatcher.Restore", Field: "Pending", Index: -1,
			Err: snapshotProblem{ErrBadSnapshot, strconv.Itoa(len(s.Pending)) + " telegrams, more than a dispatcher holds (" + strconv.Itoa(maxFrame) + ")"}}
	}
	bad := -1 // the first telegram whose time is not finite or out of order
	var badErr error
	prev := math.Inf(-1)
	for i := range s.Pending {
		t := s.Pending[i].DispatchTime
		if math.IsNaN(t) || math.IsInf(t, 0) {
			bad, badErr = i, pendingError(s, i, ErrBadTime, "is NaN or infinite")
			break
		}
		if t < prev {
			bad, badErr = i, pendingError(s, i, ErrBadOrder,
				"is before Pending["+strconv.Itoa(i-1)+"] at t="+fmtTime(prev)+
					" (list pending telegrams in delivery order, as Dispatcher.Snapshot does)")
			break
		}
		prev = t
	}
	if d.window == 0 {
		return 0, badErr
	}
	p := s.Pending
	if bad >= 0 {
		p = p[:bad] // a duplicate before it is the first error
	}
	i, j, keys := d.dups.checkDups(p, d.window, &d.dupScratch)
	if i >= 0 {
		return 0, pendingError(s, i, ErrDuplicate, "is identical to Pending["+strconv.Itoa(j)+
			"] (same sender, receiver and message) and due less than the DuplicateWindow ("+fmtTime(d.window)+
			") after it, so Dispatch would have dropped it")
	}
	return keys, badErr
}

// pendingError reports what is wrong with s.Pending[i].
func pendingError[ID, K comparable](s *DispatcherSnapshot[ID, K], i int, err error, what string) error {
	t := &s.Pending[i]
	return &SnapshotError{Op: "Dispatcher.Restore", Field: "Pending", Index: i,
		Err: snapshotProblem{err, describe(t.Msg, t.Sender, t.Receiver) + " due at t=" + fmtTime(t.DispatchTime) + " " + what}}
}

// BoardSnapshot is the state of a [Board] as plain data: the messages of
// the last frame and of the current one, each in send order. Fill one with
// [Board.Snapshot], load one with [Board.Restore]. Payloads are carried as
// they are, neither copied nor encoded.
//
// Size: 48 bytes, plus one [Message] per message (see the package
// documentation, section Saves).
type BoardSnapshot[ID, K comparable] struct {
	Last    []Message[ID, K] // the messages of [Board.Last], in send order
	Current []Message[ID, K] // the messages of [Board.Current], in send order
}

// Snapshot fills dst with the messages of the last and the current frame,
// reusing the capacity of dst.Last and dst.Current, so that snapshots taken
// into the same value allocate nothing once it has grown. The messages are
// copied; their payloads are the same values.
//
// Cost: O(messages), a copy; no allocation once dst has grown.
func (b *Board[ID, K]) Snapshot(dst *BoardSnapshot[ID, K]) {
	dst.Last = copyMessages(dst.Last, b.Last().msgs)
	dst.Current = copyMessages(dst.Current, b.Current().msgs)
}

func copyMessages[ID, K comparable](dst, src []Message[ID, K]) []Message[ID, K] {
	old := len(dst)
	dst = append(dst[:0], src...)
	if len(dst) < old {
		clear(dst[len(dst):old]) // let the payloads of the previous snapshot be collected
	}
	return dst
}

// Restore replaces the board's last and current frames with the messages of
// s, so that every query answers as it did on the board that was saved, and
// the run goes on exactly as it would have. [Board.Last] and
// [Board.Current] keep returning the same pointers; ranges over queries of
// either frame in progress stop. Restore copies the messages: s may be
// reused or changed afterwards.
//
// Restore refuses, changing nothing, a frame of more than 2³¹-1 messages,
// with a [*SnapshotError] (matching [ErrBadSnapshot]); no other snapshot is
// invalid.
//
// Cost: O(messages + distinct keys), as sending them: three map look-ups
// per message. No allocation once the board's buffers have grown.
func (b *Board[ID, K]) Restore(s *BoardSnapshot[ID, K]) error {
	for _, f := range [...]struct {
		name string
		n    int
	}{{"Last", len(s.Last)}, {"Current", len(s.Current)}} {
		if f.n > maxFrame {
			return &SnapshotError{Op: "Board.Restore", Field: f.name, Index: -1,
				Err: snapshotProblem{ErrBadSnapshot, strconv.Itoa(f.n) + " messages, more than a frame holds (" + strconv.Itoa(maxFrame) + ")"}}
		}
	}
	b.Last().fill(s.Last)
	b.Current().fill(s.Current)
	return nil
}

// fill empties f and sends msgs into it.
func (f *Frame[ID, K]) fill(msgs []Message[ID, K]) {
	f.reset()
	f.msgs = append(f.msgs, msgs...)
	f.to.next = slices.Grow(f.to.next, len(msgs))
	f.from.next = slices.Grow(f.from.next, len(msgs))
	f.typ.next = slices.Grow(f.typ.next, len(msgs))
	for i := range f.msgs {
		f.index(&f.msgs[i], int32(i))
	}
}
