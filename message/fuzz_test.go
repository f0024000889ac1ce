package message

import (
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fuzzSnapshot decodes data into dispatcher options and a snapshot. The
// first byte picks the duplicate window; each group of 3 bytes after it is
// a telegram: sender and receiver (3 bits each), message, and how its time
// follows the previous one's (mostly later, sometimes equal, earlier, or
// not finite). A time byte of 255 takes the next 8 bytes as a raw float64.
func fuzzSnapshot(data []byte) (DispatcherOptions, dsnap) {
	var opts DispatcherOptions
	var s dsnap
	if len(data) == 0 {
		return opts, s
	}
	opts.DuplicateWindow = [...]float64{0, 0.25, 1, math.Inf(1)}[data[0]%4]
	data = data[1:]
	if len(data) >= 8 && data[0]&1 == 1 {
		s.Time = math.Float64frombits(binary.LittleEndian.Uint64(data))
		data = data[8:]
	}
	at := 0.0
	for len(data) >= 3 {
		who, msg, step := data[0], data[1], data[2]
		data = data[3:]
		switch {
		case step == 255 && len(data) >= 8:
			at = math.Float64frombits(binary.LittleEndian.Uint64(data))
			data = data[8:]
		case step >= 240:
			at = [...]float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, -1e300, 1e300, math.SmallestNonzeroFloat64}[step%8]
		case step >= 200:
			at -= float64(step-199) / 8
		default:
			at += float64(step) / 16
		}
		s.Pending = append(s.Pending, tg{Sender: entity(who & 7), Receiver: entity(who >> 3 & 7), Msg: kind(msg % 3), DispatchTime: at})
	}
	return opts, s
}

// validSnapshot says, independently of Restore, whether the dispatcher
// could have made s.
func validSnapshot(opts DispatcherOptions, s dsnap) bool {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !finite(s.Time) {
		return false
	}
	for i, t := range s.Pending {
		if !finite(t.DispatchTime) || i > 0 && t.DispatchTime < s.Pending[i-1].DispatchTime {
			return false
		}
		for _, u := range s.Pending[:i] {
			if opts.DuplicateWindow > 0 && u.Sender == t.Sender && u.Receiver == t.Receiver && u.Msg == t.Msg &&
				t.DispatchTime-u.DispatchTime < opts.DuplicateWindow {
				return false
			}
		}
	}
	return true
}

// FuzzDispatcherRestore: Restore accepts exactly the snapshots the
// dispatcher could have made; a refused one changes nothing and its error
// renders; an accepted one is given back by Snapshot and delivered in its
// order, also after more telegrams were queued.
func FuzzDispatcherRestore(f *testing.F) {
	f.Add([]byte{1, 0x12, 0, 8, 0x21, 1, 8, 0x12, 0, 0})
	f.Add([]byte{0, 0x12, 0, 16, 0x12, 0, 0, 0x12, 0, 0})
	f.Add([]byte{3, 0x09, 2, 240, 0x09, 2, 0})
	f.Add([]byte{2, 0x11, 1, 250, 0x11, 1, 1, 0x11, 1, 210})
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0x12, 0, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		opts, s := fuzzSnapshot(data)
		var log []string
		d := NewDispatcher[entity, kind](opts)
		for id := range entity(8) {
			d.Register(id, func(t tg) bool {
				log = append(log, telegramStrings([]tg{t})[0])
				return true
			})
		}
		_ = d.Dispatch(0.5, 1, 2, hello, nil) // something to keep or replace
		before := stateOf(d)
		err := d.Restore(&s)
		if valid := validSnapshot(opts, s); (err == nil) != valid {
			t.Fatalf("Restore(%+v) with window %g = %v, want valid %v", s, opts.DuplicateWindow, err, valid)
		}
		if err != nil {
			var se *SnapshotError
			if !errors.As(err, &se) || !errors.Is(err, ErrBadSnapshot) || !strings.HasPrefix(err.Error(), "message: Dispatcher.Restore: "+se.Field) {
				t.Fatalf("Restore = %q (%T), want a *SnapshotError matching ErrBadSnapshot", err, err)
			}
			if se.Index >= len(s.Pending) {
				t.Fatalf("Restore: Index %d of %d telegrams", se.Index, len(s.Pending))
			}
			if after := stateOf(d); !reflect.DeepEqual(after, before) {
				t.Fatalf("a refused Restore changed the dispatcher")
			}
			return
		}
		var back dsnap
		d.Snapshot(&back)
		if math.Float64bits(back.Time) != math.Float64bits(s.Time) || !slices.Equal(back.Pending, s.Pending) {
			t.Fatalf("Snapshot after Restore = %+v, want %+v", back, s)
		}

		// Queue more, at times among the restored ones, and check Snapshot
		// against the order Restore implies: restored ones first among
		// equal times.
		want := slices.Clone(s.Pending)
		d.SetTime(0)
		for i, t := range s.Pending {
			if i%3 == 0 && t.DispatchTime > 0 && d.Dispatch(t.DispatchTime, 5, 5, flee, nil) == nil {
				want = append(want, tg{Sender: 5, Receiver: 5, Msg: flee, DispatchTime: t.DispatchTime})
			}
		}
		slices.SortStableFunc(want, func(a, b tg) int {
			if a.DispatchTime < b.DispatchTime {
				return -1
			}
			if a.DispatchTime > b.DispatchTime {
				return 1
			}
			return 0
		})
		d.Snapshot(&back)
		if !slices.Equal(back.Pending, want) {
			t.Fatalf("Snapshot = %v, want %v", telegramStrings(back.Pending), telegramStrings(want))
		}
		log = log[:0]
		if err := d.DispatchDelayed(math.MaxFloat64); err != nil {
			t.Fatalf("DispatchDelayed = %v", err)
		}
		if !slices.Equal(log, telegramStrings(want)) {
			t.Fatalf("delivered %v, want %v", log, telegramStrings(want))
		}
	})
}

// FuzzSortHeap checks the bucket sort of Snapshot against a comparison
// sort. Each group of 9 bytes is an entry: a time (raw bits; NaN, which
// Dispatch refuses, read as 0) and a gap before its seq.
func FuzzSortHeap(f *testing.F) {
	f.Add(make([]byte, 9*30))
	seed := make([]byte, 0, 9*200)
	for i := range 200 {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(float64(i%17)*1.5-3))
		seed = append(seed, byte(i))
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Dispatcher[entity, kind]
		seq := uint64(0)
		for i := 0; len(data) >= 9; i++ {
			at := math.Float64frombits(binary.LittleEndian.Uint64(data))
			if math.IsNaN(at) {
				at = 0
			}
			seq += uint64(data[8]) + 1
			if data[8] == 255 {
				seq += 1 << 50
			}
			d.push(entry{time: at, seq: seq, slot: int32(i)})
			data = data[9:]
		}
		want := slices.Clone(d.heap)
		slices.SortFunc(want, compareEntries)
		d.sortHeap()
		if !slices.Equal(d.heap, want) {
			t.Fatalf("sortHeap = %v, want %v", d.heap, want)
		}
	})
}
