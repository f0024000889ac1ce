package message

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The masks the duplicate index is tested with: real hashes; eight hashes,
// so that keys collide and probe far; one hash for every key.
var dupMasks = []uint32{1<<32 - 1, 0xe0000000, 0}

func withMask(t *testing.T, mask uint32) {
	old := dupHashMask
	dupHashMask = mask
	t.Cleanup(func() { dupHashMask = old })
}

// TestDupSetModel runs the index against a plain map of sorted slices:
// random adds and removes among many keys, so that the table grows,
// probes and moves keys back when one goes.
func TestDupSetModel(t *testing.T) {
	for _, mask := range dupMasks {
		withMask(t, mask)
		r := rand.New(rand.NewPCG(uint64(mask), 3))
		keys := 3000
		if mask != 1<<32-1 {
			keys = 300 // every look-up walks the keys of its hash
		}
		var s dupSet[entity, kind]
		model := map[dupKey[entity, kind]][]float64{}
		const w = 0.5
		for step := range 40000 {
			k := dupKey[entity, kind]{entity(r.IntN(keys)), entity(r.IntN(2)), kind(r.IntN(2))}
			at := float64(r.IntN(400)) / 8
			if r.IntN(3) == 0 {
				ts := model[k]
				if len(ts) == 0 {
					s.remove(k, at)
					continue
				}
				at = ts[r.IntN(len(ts))]
				s.remove(k, at)
				i, _ := slices.BinarySearch(ts, at)
				if ts = slices.Delete(ts, i, i+1); len(ts) == 0 {
					delete(model, k)
				} else {
					model[k] = ts
				}
			} else {
				ts := model[k]
				i, _ := slices.BinarySearch(ts, at)
				near := i < len(ts) && ts[i]-at < w || i > 0 && at-ts[i-1] < w
				if got := s.nearOrAdd(k, at, w); got != near {
					t.Fatalf("mask %#x, step %d: nearOrAdd(%v, %v) = %v, want %v", mask, step, k, at, got, near)
				}
				if !near {
					model[k] = slices.Insert(ts, i, at)
				}
			}
			if s.len() != len(model) {
				t.Fatalf("mask %#x, step %d: %d keys, want %d", mask, step, s.len(), len(model))
			}
		}
		for k, ts := range model {
			_, p := s.find(k, s.hash(k))
			if p < 0 || !slices.Equal(s.lists[p].times[s.lists[p].head:], ts) {
				t.Fatalf("mask %#x: key %v has times %v, want %v", mask, k, s.lists[p].times, ts)
			}
		}
	}
}

// TestDupRestore restores random snapshots with a duplicate window: Restore
// accepts exactly the valid ones, names the first telegram at fault as
// checking them in order does, and then drops exactly the duplicates the
// telegrams restored imply.
func TestDupRestore(t *testing.T) {
	const w = 1.0
	accepted, refused := 0, 0
	defer func() {
		if accepted < 100 || refused < 100 {
			t.Errorf("%d snapshots accepted, %d refused: the test misses cases", accepted, refused)
		}
	}()
	for _, mask := range dupMasks {
		withMask(t, mask)
		r := rand.New(rand.NewPCG(uint64(mask), 4))
		for round := range 300 {
			n := r.IntN(60)
			keys := 1 + r.IntN(12)
			s := dsnap{Time: 0}
			at := 0.0
			for range n {
				at += float64(r.IntN(6)) / 4
				s.Pending = append(s.Pending, tg{Sender: entity(r.IntN(keys)), Receiver: 1, Msg: kind(r.IntN(2)), DispatchTime: at})
			}
			if r.IntN(4) == 0 && n > 0 {
				s.Pending[r.IntN(n)].DispatchTime = math.NaN()
			}
			wantIndex := firstBad(s, w)
			d := NewDispatcher[entity, kind](DispatcherOptions{DuplicateWindow: w})
			for id := range entity(12) {
				d.Register(id, func(tg) bool { return true })
			}
			err := d.Restore(&s)
			var se *SnapshotError
			switch {
			case wantIndex < 0 && err != nil:
				t.Fatalf("mask %#x, round %d: Restore = %v, want nil", mask, round, err)
			case wantIndex >= 0 && (!errors.As(err, &se) || se.Index != wantIndex):
				t.Fatalf("mask %#x, round %d: Restore = %v, want an error at Pending[%d]", mask, round, err, wantIndex)
			case err != nil:
				refused++
				continue
			}
			accepted++
			for k := range 40 {
				sender, msg, delay := entity(r.IntN(keys)), kind(r.IntN(2)), float64(r.IntN(80)+1)/4
				when := d.Time() + delay
				dup := slices.ContainsFunc(s.Pending, func(p tg) bool {
					return p.Sender == sender && p.Msg == msg && math.Abs(p.DispatchTime-when) < w
				})
				err := d.Dispatch(delay, sender, 1, msg, nil)
				if errors.Is(err, ErrDuplicate) != dup {
					t.Fatalf("mask %#x, round %d, dispatch %d: Dispatch = %v, want duplicate %v", mask, round, k, err, dup)
				}
				if err == nil {
					s.Pending = append(s.Pending, tg{Sender: sender, Receiver: 1, Msg: msg, DispatchTime: when})
				}
				if r.IntN(8) == 0 {
					now := d.Time() + 2
					if err := d.DispatchDelayed(now); err != nil {
						t.Fatal(err)
					}
					s.Pending = slices.DeleteFunc(s.Pending, func(p tg) bool { return p.DispatchTime <= now })
				}
			}
		}
	}
}

// firstBad returns the index of the first telegram of s that Restore must
// refuse, checking them in order, or -1.
func firstBad(s dsnap, w float64) int {
	for i, t := range s.Pending {
		if math.IsNaN(t.DispatchTime) || i > 0 && t.DispatchTime < s.Pending[i-1].DispatchTime {
			return i
		}
		for _, u := range s.Pending[:i] {
			if u.Sender == t.Sender && u.Receiver == t.Receiver && u.Msg == t.Msg && t.DispatchTime-u.DispatchTime < w {
				return i
			}
		}
	}
	return -1
}

// TestDupCollisions runs the dispatcher's duplicate-window tests with keys
// that collide.
func TestDupCollisions(t *testing.T) {
	for _, mask := range dupMasks[1:] {
		withMask(t, mask)
		TestDuplicateWindow(t)
		TestDuplicateWindowAfterDelivery(t)
		TestDuplicateWindowRandom(t)
		TestDispatcherRestoreBad(t)
		TestDispatcherExactContinuation(t)
	}
}
