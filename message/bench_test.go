package message

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

// benchFrames returns a few frames of n random messages among entities, so
// that the key sets change from frame to frame.
func benchFrames(n, entities int) [][]msg {
	r := rand.New(rand.NewPCG(uint64(n), uint64(entities)))
	frames := make([][]msg, 4)
	for i := range frames {
		frames[i] = make([]msg, n)
		for j := range frames[i] {
			frames[i][j] = msg{
				Type: kind(r.IntN(int(numKinds))),
				From: entity(r.IntN(entities)),
				To:   entity(r.IntN(entities)),
			}
		}
	}
	return frames
}

// scanManager is the article's MessageManager: two lists, linear scans.
type scanManager struct {
	last, cur []msg
}

func (s *scanManager) send(m msg) { s.cur = append(s.cur, m) }

func (s *scanManager) update() { s.last, s.cur = s.cur, s.last[:0] }

func (s *scanManager) findByDestination(id entity, result []msg) []msg {
	for _, m := range s.last {
		if !m.Broadcast && m.To == id {
			result = append(result, m)
		}
	}
	return result
}

// BenchmarkBoard runs whole frames: send msgs messages among entities, swap,
// then every entity reads its own messages and sums something.
func BenchmarkBoard(b *testing.B) {
	report := func(b *testing.B, msgs int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(msgs), "ns/msg")
	}
	for _, size := range []struct{ msgs, entities int }{{10000, 1000}, {100000, 10000}} {
		b.Run(fmt.Sprintf("msgs=%d/entities=%d", size.msgs, size.entities), func(b *testing.B) {
			frames := benchFrames(size.msgs, size.entities)
			var board Board[entity, kind]
			sum, frame := 0, 0
			run := func() {
				for _, m := range frames[frame%len(frames)] {
					board.Send(m)
				}
				frame++
				board.Swap()
				last := board.Last()
				for id := range entity(size.entities) {
					for m := range last.To(id) {
						sum += int(m.From) + int(m.Type)
					}
				}
			}
			for range len(frames) + 1 {
				run() // warm the buffers and maps
			}
			b.ReportAllocs()
			for b.Loop() {
				run()
			}
			report(b, size.msgs)
			_ = sum
		})
	}
	b.Run("linear-scan/msgs=10000/entities=1000", func(b *testing.B) {
		const msgs, entities = 10000, 1000
		frames := benchFrames(msgs, entities)
		var mm scanManager
		var result []msg
		sum, frame := 0, 0
		run := func() {
			for _, m := range frames[frame%len(frames)] {
				mm.send(m)
			}
			frame++
			mm.update()
			for id := range entity(entities) {
				result = mm.findByDestination(id, result[:0])
				for _, m := range result {
					sum += int(m.From) + int(m.Type)
				}
			}
		}
		for range len(frames) + 1 {
			run()
		}
		b.ReportAllocs()
		for b.Loop() {
			run()
		}
		report(b, msgs)
		_ = sum
	})
}

// BenchmarkDispatcher schedules telegrams with random delays, then advances
// time in 1/60 s ticks until all are delivered, without a duplicate window
// and with Buckland's 0.25 s. The dispatcher is reused, so its buffers are
// warm.
func BenchmarkDispatcher(b *testing.B) {
	const telegrams, entities, horizon, tick = 1_000_000, 10_000, 10.0, 1.0 / 60
	r := rand.New(rand.NewPCG(13, 14))
	delays := make([]float64, telegrams)
	receivers := make([]entity, telegrams)
	for i := range delays {
		delays[i] = r.Float64()*horizon + 1e-9
		receivers[i] = entity(r.IntN(entities))
	}
	report := func(b *testing.B, mallocs0 uint64) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		n := float64(b.N) * telegrams
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/telegram")
		b.ReportMetric(float64(ms.Mallocs-mallocs0)/n, "allocs/telegram")
	}
	mallocs := func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.Mallocs
	}

	for _, window := range []float64{0, 0.25} {
		name := fmt.Sprintf("telegrams=%d", telegrams)
		if window > 0 {
			name = fmt.Sprintf("window=%g/telegrams=%d", window, telegrams)
		}
		b.Run(name, func(b *testing.B) {
			d := NewDispatcher[entity, kind](DispatcherOptions{DuplicateWindow: window})
			delivered := 0
			for id := range entity(entities) {
				d.Register(id, func(t tg) bool { delivered += int(t.Msg) + 1; return true })
			}
			run := func() {
				start := d.Time()
				for i, delay := range delays {
					if err := d.Dispatch(delay, entity(i%entities), receivers[i], kind(i%3), nil); err != nil && err != ErrDuplicate {
						b.Fatal(err)
					}
				}
				for now := start; d.Len() > 0; now += tick {
					if err := d.DispatchDelayed(now); err != nil {
						b.Fatal(err)
					}
				}
			}
			run() // warm the heap and slots
			b.ReportAllocs()
			m0 := mallocs()
			for b.Loop() {
				run()
			}
			report(b, m0)
			_ = delivered
		})
	}

	// The same with container/heap, which boxes every entry into an any.
	b.Run(fmt.Sprintf("container-heap/telegrams=%d", telegrams), func(b *testing.B) {
		handlers := make(map[entity]Handler[entity, kind], entities)
		delivered := 0
		for id := range entity(entities) {
			handlers[id] = func(t tg) bool { delivered += int(t.Msg) + 1; return true }
		}
		var q boxedQueue
		now := 0.0
		var seq uint64
		run := func() {
			start := now
			for i, delay := range delays {
				t := tg{Sender: entity(i % entities), Receiver: receivers[i], Msg: kind(i % 3), DispatchTime: now + delay}
				heap.Push(&q, boxed{t, seq})
				seq++
			}
			for now = start; q.Len() > 0; now += tick {
				for q.Len() > 0 && q[0].t.DispatchTime <= now {
					e := heap.Pop(&q).(boxed)
					handlers[e.t.Receiver](e.t)
				}
			}
		}
		run()
		b.ReportAllocs()
		m0 := mallocs()
		for b.Loop() {
			run()
		}
		report(b, m0)
		_ = delivered
	})
}

type boxed struct {
	t   tg
	seq uint64
}

type boxedQueue []boxed

func (q boxedQueue) Len() int { return len(q) }
func (q boxedQueue) Less(i, j int) bool {
	return q[i].t.DispatchTime < q[j].t.DispatchTime ||
		q[i].t.DispatchTime == q[j].t.DispatchTime && q[i].seq < q[j].seq
}
func (q boxedQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *boxedQueue) Push(x any)   { *q = append(*q, x.(boxed)) }
func (q *boxedQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// pendingDispatcher returns a dispatcher with n telegrams pending among
// 10,000 entities, due at random times within 10 s (a tenth of them sharing
// their due time with others), queued in random order.
func pendingDispatcher(b *testing.B, n int, opts DispatcherOptions) *Dispatcher[entity, kind] {
	const entities = 10_000
	r := rand.New(rand.NewPCG(15, 16))
	d := NewDispatcher[entity, kind](opts)
	for id := range entity(entities) {
		d.Register(id, func(tg) bool { return true })
	}
	for i := range n {
		delay := r.Float64()*10 + 1e-9
		if i%10 == 0 {
			delay = float64(r.IntN(100)+1) / 10 // ties
		}
		if err := d.Dispatch(delay, entity(i%entities), entity(r.IntN(entities)), kind(i%3), nil); err != nil && err != ErrDuplicate {
			b.Fatal(err)
		}
	}
	return d
}

// BenchmarkDispatcherSnapshot takes and restores snapshots of a million
// pending telegrams, beside a copy of the same telegrams. Snapshot/queue=heap
// is the first snapshot after telegrams were queued in random order (the
// queue is a heap to sort); Snapshot/queue=ordered the next one, with
// nothing queued or delivered in between.
func BenchmarkDispatcherSnapshot(b *testing.B) {
	const n = 1_000_000
	perTelegram := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/telegram")
	}
	d := pendingDispatcher(b, n, DispatcherOptions{})
	heap := slices.Clone(d.heap)
	var snap DispatcherSnapshot[entity, kind]
	d.Snapshot(&snap)
	name := fmt.Sprintf("telegrams=%d", n)

	b.Run("copy/"+name, func(b *testing.B) {
		dst := make([]tg, n)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, snap.Pending)
		}
		perTelegram(b)
	})
	b.Run("Snapshot/queue=heap/"+name, func(b *testing.B) {
		var dst DispatcherSnapshot[entity, kind]
		d.Snapshot(&dst)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			copy(d.heap, heap)
			b.StartTimer()
			d.Snapshot(&dst)
		}
		perTelegram(b)
	})
	b.Run("Snapshot/queue=ordered/"+name, func(b *testing.B) {
		var dst DispatcherSnapshot[entity, kind]
		d.Snapshot(&dst)
		b.ReportAllocs()
		for b.Loop() {
			d.Snapshot(&dst)
		}
		perTelegram(b)
	})
	b.Run("Restore/"+name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Restore(&snap); err != nil {
				b.Fatal(err)
			}
		}
		perTelegram(b)
	})
	b.Run("Restore/window=0.25/"+name, func(b *testing.B) {
		d := pendingDispatcher(b, n, DispatcherOptions{DuplicateWindow: 0.25})
		var snap DispatcherSnapshot[entity, kind]
		d.Snapshot(&snap)
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Restore(&snap); err != nil {
				b.Fatal(err)
			}
		}
		perTelegram(b)
	})
}

// BenchmarkBoardSnapshot takes and restores snapshots of a board holding a
// million messages among 10,000 entities, half in the last frame and half
// in the current one, beside a copy of the same messages.
func BenchmarkBoardSnapshot(b *testing.B) {
	const n, entities = 1_000_000, 10_000
	perMessage := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/msg")
	}
	frames := benchFrames(n/2, entities)
	var board Board[entity, kind]
	for _, m := range frames[0] {
		board.Send(m)
	}
	board.Swap()
	for _, m := range frames[1] {
		board.Send(m)
	}
	var snap BoardSnapshot[entity, kind]
	board.Snapshot(&snap)
	all := append(slices.Clone(snap.Last), snap.Current...)
	name := fmt.Sprintf("msgs=%d/entities=%d", n, entities)

	b.Run("copy/"+name, func(b *testing.B) {
		dst := make([]msg, n)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, all)
		}
		perMessage(b)
	})
	b.Run("Snapshot/"+name, func(b *testing.B) {
		var dst BoardSnapshot[entity, kind]
		board.Snapshot(&dst)
		b.ReportAllocs()
		for b.Loop() {
			board.Snapshot(&dst)
		}
		perMessage(b)
	})
	b.Run("Restore/"+name, func(b *testing.B) {
		if err := board.Restore(&snap); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := board.Restore(&snap); err != nil {
				b.Fatal(err)
			}
		}
		perMessage(b)
	})
}

// smallIntCodec writes Extra values that are small ints (0 to 255, which
// an interface holds without allocating): the trivial payload of
// BenchmarkDispatcherSave.
var smallIntCodec = Codec[entity, kind]{
	ID:   IntCodec[entity](),
	Type: IntCodec[kind](),
	Value: machine.Codec[any]{
		Append: func(b []byte, v *any) ([]byte, error) { return append(b, byte((*v).(int))), nil },
		Decode: func(b []byte, v *any) error {
			if len(b) != 1 {
				return errors.New("not one byte")
			}
			*v = int(b[0])
			return nil
		},
	},
}

// BenchmarkDispatcherSave saves a dispatcher with a million pending
// telegrams to bytes (Snapshot then AppendBinary) and restores one from
// them (Decode then Restore), with Buckland's duplicate window of 0.25 and
// without, each telegram carrying a small int as its Extra, written by a
// one-byte codec. copy is the floor: copying the snapshot's telegrams.
// ns/telegram is the cost of one telegram's save or restore.
func BenchmarkDispatcherSave(b *testing.B) {
	const n = 1_000_000
	perTelegram := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/telegram")
	}
	for _, window := range []float64{0, 0.25} {
		opts := DispatcherOptions{DuplicateWindow: window}
		d := pendingDispatcher(b, n, opts)
		for i := range d.slots {
			d.slots[i].Extra = i % 200
		}
		var snap DispatcherSnapshot[entity, kind]
		d.Snapshot(&snap)
		data, err := snap.AppendBinary(nil, smallIntCodec)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("window=%g/telegrams=%d", window, n)
		if window == 0 {
			b.Run("copy/telegrams=1000000", func(b *testing.B) {
				dst := make([]tg, n)
				for b.Loop() {
					copy(dst, snap.Pending)
				}
				perTelegram(b)
			})
		}
		b.Run("save/"+name, func(b *testing.B) {
			var s DispatcherSnapshot[entity, kind]
			d.Snapshot(&s) // grow s and buf first: a game saves more than once
			buf, err := s.AppendBinary(nil, smallIntCodec)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				d.Snapshot(&s)
				if buf, err = s.AppendBinary(buf[:0], smallIntCodec); err != nil {
					b.Fatal(err)
				}
			}
			perTelegram(b)
			b.ReportMetric(float64(len(buf))/n, "bytes/telegram")
		})
		b.Run("restore/"+name, func(b *testing.B) {
			var s DispatcherSnapshot[entity, kind]
			to := NewDispatcher[entity, kind](opts)
			if err := s.Decode(data, smallIntCodec); err != nil { // grow the buffers first
				b.Fatal(err)
			}
			if err := to.Restore(&s); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Decode(data, smallIntCodec); err != nil {
					b.Fatal(err)
				}
				if err := to.Restore(&s); err != nil {
					b.Fatal(err)
				}
			}
			perTelegram(b)
		})
	}
}
