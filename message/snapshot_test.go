package message

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

type dsnap = DispatcherSnapshot[entity, kind]

// TestSnapshotSizes keeps the sizes the package documentation gives honest.
func TestSnapshotSizes(t *testing.T) {
	type id16 uint16
	type msg8 uint8
	tests := []struct {
		name      string
		got, want uintptr
	}{
		{"Telegram[uint16, uint8]", unsafe.Sizeof(Telegram[id16, msg8]{}), 32},
		{"Telegram[uint32, uint16]", unsafe.Sizeof(Telegram[uint32, uint16]{}), 40},
		{"Message[uint16, uint8]", unsafe.Sizeof(Message[id16, msg8]{}), 24},
		{"Message[uint32, uint16]", unsafe.Sizeof(Message[uint32, uint16]{}), 32},
		{"DispatcherSnapshot", unsafe.Sizeof(DispatcherSnapshot[id16, msg8]{}), 32},
		{"BoardSnapshot", unsafe.Sizeof(BoardSnapshot[id16, msg8]{}), 48},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("unsafe.Sizeof(%s) = %d, want %d (fix the package documentation)", tt.name, tt.got, tt.want)
		}
	}
}

// dispatcherState is everything a Dispatcher holds but its handlers, to
// check that a refused Restore changed nothing.
type dispatcherState struct {
	Window          float64
	MaxDepth, Depth int
	Now             float64
	Heap, Incoming  []entry
	Slots           []tg
	Free            []int32
	Seq             uint64
	Delivering, Cut bool
	DupSlots        []dupSlot
	DupKeys         int
	DupLists        []dupTimes[entity, kind]
	DupFree         []int32
	Handlers        []entity
}

func stateOf(d *Dispatcher[entity, kind]) dispatcherState {
	s := dispatcherState{
		Window: d.window, MaxDepth: d.maxDepth, Depth: d.depth, Now: d.now,
		Heap: slices.Clone(d.heap), Incoming: slices.Clone(d.incoming), Slots: slices.Clone(d.slots),
		Free: slices.Clone(d.free), Seq: d.seq, Delivering: d.delivering, Cut: d.cut,
		DupSlots: slices.Clone(d.dups.slots), DupKeys: d.dups.keys, DupFree: slices.Clone(d.dups.free),
	}
	for _, l := range d.dups.lists {
		s.DupLists = append(s.DupLists, dupTimes[entity, kind]{key: l.key, times: slices.Clone(l.times), head: l.head})
	}
	for id := range d.handlers {
		s.Handlers = append(s.Handlers, id)
	}
	slices.Sort(s.Handlers)
	return s
}

func telegramStrings(ts []tg) []string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%v>%v:%v@%g", t.Sender, t.Receiver, t.Msg, t.DispatchTime))
	}
	return out
}

// TestDispatcherSnapshot: a snapshot lists the time and the pending
// telegrams in delivery order, whatever order they were queued in, and
// restoring it into a fresh dispatcher delivers the same.
func TestDispatcherSnapshot(t *testing.T) {
	type send struct {
		delay    float64
		from, to entity
		msg      kind
	}
	tests := []struct {
		name    string
		opts    DispatcherOptions
		setup   func(r *recorder)
		time    float64
		pending []string
	}{
		{
			name:  "empty",
			setup: func(*recorder) {},
		},
		{
			name: "time order, ties in send order",
			setup: func(r *recorder) {
				r.d.SetTime(10)
				for _, s := range []send{{3, 1, 2, hello}, {1, 2, 1, attack}, {3, 2, 1, flee}, {2, 1, 1, hello}, {1, 1, 2, flee}, {3, 1, 1, attack}} {
					if err := r.d.Dispatch(s.delay, s.from, s.to, s.msg, nil); err != nil {
						panic(err)
					}
				}
			},
			time:    10,
			pending: []string{"e2>e1:attack@11", "e1>e2:flee@11", "e1>e1:hello@12", "e1>e2:hello@13", "e2>e1:flee@13", "e1>e1:attack@13"},
		},
		{
			name: "due before now, not yet delivered",
			setup: func(r *recorder) {
				_ = r.d.Dispatch(2, 1, 2, hello, nil)
				_ = r.d.Dispatch(1, 1, 2, attack, nil)
				r.d.SetTime(5)
			},
			time:    5,
			pending: []string{"e1>e2:attack@1", "e1>e2:hello@2"},
		},
		{
			name: "time set back",
			setup: func(r *recorder) {
				r.d.SetTime(100)
				_ = r.d.Dispatch(2, 1, 2, hello, nil)
				r.d.SetTime(-3)
			},
			time:    -3,
			pending: []string{"e1>e2:hello@102"},
		},
		{
			name: "after a partial delivery, with telegrams queued by handlers",
			setup: func(r *recorder) {
				r.d.Register(3, func(t tg) bool {
					_ = r.d.Dispatch(0.5, 3, 1, flee, nil)  // due at once, waits for the next call
					_ = r.d.Dispatch(1.5, 3, 2, flee, nil)  // same time as a pending one, sent later
					_ = r.d.Dispatch(0.25, 3, 2, flee, nil) // before everything else
					return true
				})
				_ = r.d.Dispatch(1, 1, 3, hello, nil)
				_ = r.d.Dispatch(2.5, 1, 2, attack, nil)
				_ = r.d.Dispatch(1.2, 1, 2, hello, nil)
				if err := r.d.DispatchDelayed(1); err != nil {
					panic(err)
				}
			},
			time:    1,
			pending: []string{"e1>e2:hello@1.2", "e3>e2:flee@1.25", "e3>e1:flee@1.5", "e1>e2:attack@2.5", "e3>e2:flee@2.5"},
		},
		{
			name: "duplicate window",
			opts: DispatcherOptions{DuplicateWindow: 0.25},
			setup: func(r *recorder) {
				_ = r.d.Dispatch(1, 1, 2, hello, nil)
				_ = r.d.Dispatch(1.1, 1, 2, hello, nil) // dropped
				_ = r.d.Dispatch(1.3, 1, 2, hello, nil)
				_ = r.d.Dispatch(1.1, 2, 1, hello, nil)
			},
			pending: []string{"e1>e2:hello@1", "e2>e1:hello@1.1", "e1>e2:hello@1.3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder(tt.opts, 1, 2)
			tt.setup(r)
			r.take()
			var s dsnap
			r.d.Snapshot(&s)
			if s.Time != tt.time {
				t.Errorf("Snapshot: Time = %g, want %g", s.Time, tt.time)
			}
			if got := telegramStrings(s.Pending); !slices.Equal(got, tt.pending) {
				t.Errorf("Snapshot: Pending = %v, want %v", got, tt.pending)
			}
			if got, want := telegramStrings(r.d.AppendPending(nil)), tt.pending; !slices.Equal(got, want) {
				t.Errorf("AppendPending after Snapshot = %v, want %v", got, want)
			}

			// The original and a fresh dispatcher restored from the snapshot
			// deliver the same, and so do their duplicate windows.
			fresh := newRecorder(tt.opts, 1, 2)
			if err := fresh.d.Restore(&s); err != nil {
				t.Fatalf("Restore(Snapshot()) = %v, want nil", err)
			}
			if got := fresh.d.Time(); got != tt.time {
				t.Errorf("Time() after Restore = %g, want %g", got, tt.time)
			}
			if got := fresh.d.Len(); got != len(tt.pending) {
				t.Errorf("Len() after Restore = %d, want %d", got, len(tt.pending))
			}
			for _, r := range []*recorder{r, fresh} {
				r.refuse[2] = true
				r.log = append(r.log, fmt.Sprint(r.d.Dispatch(1.2, 1, 2, hello, nil)))
				r.log = append(r.log, fmt.Sprint(r.d.DispatchDelayed(r.d.Time()+200)))
			}
			if got, want := fresh.take(), r.take(); !slices.Equal(got, want) {
				t.Errorf("restored dispatcher logs\n%v\nwant\n%v", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestDispatcherSnapshotReuse: snapshots into the same value allocate
// nothing once it has grown, and a shorter snapshot clears what it no
// longer uses, so that old Extra values can be collected.
func TestDispatcherSnapshotReuse(t *testing.T) {
	r := newRecorder(DispatcherOptions{}, 1)
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range 1000 {
		_ = r.d.Dispatch(1+rnd.Float64()*10, 0, 1, kind(i%3), &i)
	}
	var s dsnap
	r.d.Snapshot(&s)
	allocs := testing.AllocsPerRun(20, func() {
		_ = r.d.Dispatch(1+rnd.Float64()*10, 0, 1, hello, nil) // the queue is out of order again
		r.d.Snapshot(&s)
	})
	if allocs != 0 {
		t.Errorf("AllocsPerRun(Dispatch + Snapshot into a reused value) = %v, want 0", allocs)
	}
	other := NewDispatcher[entity, kind](DispatcherOptions{})
	if err := other.Restore(&s); err != nil {
		t.Fatalf("Restore = %v, want nil", err)
	}
	if allocs := testing.AllocsPerRun(20, func() { _ = other.Restore(&s) }); allocs != 0 {
		t.Errorf("AllocsPerRun(Restore into a used dispatcher) = %v, want 0", allocs)
	}
	if err := r.d.DispatchDelayed(6); err != nil {
		t.Fatal(err)
	}
	n := len(s.Pending)
	r.d.Snapshot(&s)
	if len(s.Pending) >= n {
		t.Fatalf("Snapshot after delivering: %d telegrams, want fewer than %d", len(s.Pending), n)
	}
	for i, tel := range s.Pending[len(s.Pending):n] {
		if tel != (tg{}) {
			t.Fatalf("Snapshot left Pending[%d] = %+v beyond its length, want it cleared", len(s.Pending)+i, tel)
		}
	}
}

// TestDispatcherRestoreCopies: Restore copies the snapshot, keeps Extra
// values as they are, keeps the handlers and forgets what was pending.
func TestDispatcherRestoreCopies(t *testing.T) {
	var d Dispatcher[entity, kind]
	var got []any
	d.Register(1, func(t tg) bool { got = append(got, t.Extra); return true })
	_ = d.Dispatch(0.5, 2, 1, flee, "forgotten")
	gold := new(int)
	s := dsnap{Time: 3, Pending: []tg{{Sender: 2, Receiver: 1, Msg: hello, DispatchTime: 4, Extra: gold}}}
	if err := d.Restore(&s); err != nil {
		t.Fatalf("Restore = %v, want nil", err)
	}
	s.Pending[0] = tg{Sender: 9, Receiver: 9, DispatchTime: 100, Extra: "changed"}
	s.Time = 50
	if err := d.DispatchDelayed(10); err != nil {
		t.Fatalf("DispatchDelayed(10) = %v, want nil", err)
	}
	if len(got) != 1 || got[0] != any(gold) {
		t.Errorf("delivered Extra values %v, want only the *int restored (%p)", got, gold)
	}
}

// TestDispatcherRestoreBad: every snapshot the dispatcher could not have
// made is refused with an error naming the value, and changes nothing.
func TestDispatcherRestoreBad(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tel := func(from, to entity, msg kind, at float64) tg {
		return tg{Sender: from, Receiver: to, Msg: msg, DispatchTime: at}
	}
	tests := []struct {
		name    string
		opts    DispatcherOptions
		max     int // maxFrame, if not 0
		s       dsnap
		field   string
		index   int
		is      error
		message string
	}{
		{name: "time NaN", s: dsnap{Time: nan}, field: "Time", index: -1, is: ErrBadTime,
			message: "message: Dispatcher.Restore: Time: time NaN is NaN or infinite"},
		{name: "time +Inf", s: dsnap{Time: inf, Pending: []tg{tel(1, 2, hello, nan)}}, field: "Time", index: -1, is: ErrBadTime},
		{name: "time -Inf", s: dsnap{Time: -inf}, field: "Time", index: -1, is: ErrBadTime},
		{name: "due NaN", s: dsnap{Time: 1, Pending: []tg{tel(1, 2, hello, 1), tel(1, 2, hello, 2), tel(1, 2, attack, nan)}},
			field: "Pending", index: 2, is: ErrBadTime,
			message: "message: Dispatcher.Restore: Pending[2]: telegram attack from e1 to e2 due at t=NaN is NaN or infinite"},
		{name: "due +Inf", s: dsnap{Pending: []tg{tel(1, 2, hello, inf)}}, field: "Pending", index: 0, is: ErrBadTime},
		{name: "due -Inf", s: dsnap{Pending: []tg{tel(1, 2, hello, -inf), tel(1, 2, hello, 0)}}, field: "Pending", index: 0, is: ErrBadTime},
		{name: "out of order", s: dsnap{Pending: []tg{tel(1, 2, hello, 1), tel(1, 2, flee, 2), tel(2, 1, hello, 1.5), tel(1, 2, hello, 0)}},
			field: "Pending", index: 2, is: ErrBadOrder,
			message: "message: Dispatcher.Restore: Pending[2]: telegram hello from e2 to e1 due at t=1.5 is before Pending[1] at t=2 (list pending telegrams in delivery order, as Dispatcher.Snapshot does)"},
		{name: "out of order, negative", s: dsnap{Pending: []tg{tel(1, 2, hello, -1), tel(1, 2, flee, -2)}}, field: "Pending", index: 1, is: ErrBadOrder},
		{name: "identical at the same time", opts: DispatcherOptions{DuplicateWindow: 0.25},
			s:     dsnap{Pending: []tg{tel(1, 2, hello, 1), tel(2, 1, hello, 1), tel(1, 2, hello, 1)}},
			field: "Pending", index: 2, is: ErrDuplicate,
			message: "message: Dispatcher.Restore: Pending[2]: telegram hello from e1 to e2 due at t=1 is identical to Pending[0] (same sender, receiver and message) and due less than the DuplicateWindow (0.25) after it, so Dispatch would have dropped it"},
		{name: "identical within the window", opts: DispatcherOptions{DuplicateWindow: 0.25},
			s:     dsnap{Pending: []tg{tel(1, 2, hello, 1), tel(1, 2, hello, 1.3), tel(1, 2, attack, 1.4), tel(1, 2, hello, 1.5)}},
			field: "Pending", index: 3, is: ErrDuplicate},
		{name: "identical, window +Inf", opts: DispatcherOptions{DuplicateWindow: inf},
			s:     dsnap{Pending: []tg{tel(1, 2, hello, -1e300), tel(1, 2, hello, 1e300)}},
			field: "Pending", index: 1, is: ErrDuplicate},
		{name: "too many", max: 3, s: dsnap{Pending: make([]tg, 4)}, field: "Pending", index: -1, is: ErrBadSnapshot,
			message: "message: Dispatcher.Restore: Pending: 4 telegrams, more than a dispatcher holds (3)"},
		{name: "first problem reported", opts: DispatcherOptions{DuplicateWindow: 1},
			s:     dsnap{Pending: []tg{tel(1, 2, hello, 1), tel(1, 2, hello, 1), tel(1, 2, hello, nan), tel(1, 2, hello, 0)}},
			field: "Pending", index: 1, is: ErrDuplicate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.max != 0 {
				defer func(m int) { maxFrame = m }(maxFrame)
				maxFrame = tt.max
			}
			// A dispatcher with a past: pending telegrams, freed slots,
			// duplicates recorded; and its twin, which is not restored.
			prepare := func() *recorder {
				r := newRecorder(tt.opts, 1, 2, 3)
				for i := range 20 {
					_ = r.d.Dispatch(float64(i%7)+0.5, entity(i%3+1), entity(i%2+1), kind(i%3), i)
				}
				if err := r.d.DispatchDelayed(2); err != nil {
					panic(err)
				}
				r.d.SetTime(2.5)
				r.take()
				return r
			}
			r, twin := prepare(), prepare()
			before := stateOf(r.d)
			err := r.d.Restore(&tt.s)
			var se *SnapshotError
			if !errors.As(err, &se) {
				t.Fatalf("Restore = %v, want a *SnapshotError", err)
			}
			if se.Op != "Dispatcher.Restore" || se.Field != tt.field || se.Index != tt.index {
				t.Errorf("Restore: Op %q, Field %q, Index %d; want Dispatcher.Restore, %q, %d", se.Op, se.Field, se.Index, tt.field, tt.index)
			}
			if !errors.Is(err, ErrBadSnapshot) || !errors.Is(err, tt.is) {
				t.Errorf("Restore = %v, want it to match ErrBadSnapshot and %v", err, tt.is)
			}
			if msg := err.Error(); tt.message != "" && msg != tt.message || !strings.HasPrefix(msg, "message: Dispatcher.Restore: "+tt.field) {
				t.Errorf("Restore: error %q, want %q", msg, tt.message)
			}
			if after := stateOf(r.d); !reflect.DeepEqual(after, before) {
				t.Errorf("a refused Restore changed the dispatcher:\n%+v\nwant\n%+v", after, before)
			}
			for _, r := range []*recorder{r, twin} {
				r.log = append(r.log, fmt.Sprint(r.d.Dispatch(3.5, 1, 2, hello, nil)))
				r.log = append(r.log, fmt.Sprint(r.d.DispatchDelayed(100)))
			}
			if got, want := r.take(), twin.take(); !slices.Equal(got, want) {
				t.Errorf("after a refused Restore the dispatcher logs\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// TestDispatcherRestoreValid: what a snapshot may hold although Dispatch
// could not have queued it directly.
func TestDispatcherRestoreValid(t *testing.T) {
	tel := func(from, to entity, msg kind, at float64) tg {
		return tg{Sender: from, Receiver: to, Msg: msg, DispatchTime: at}
	}
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name string
		opts DispatcherOptions
		s    dsnap
		want []string // delivered by DispatchDelayed(1000)
	}{
		{"nothing", DispatcherOptions{}, dsnap{Time: 5}, nil},
		{"due long ago", DispatcherOptions{}, dsnap{Time: 1e9, Pending: []tg{tel(1, 2, hello, -1e9), tel(2, 1, hello, 0)}},
			[]string{"e1>e2:hello@-1e+09", "e2>e1:hello@0"}},
		{"both zeros are one time", DispatcherOptions{}, dsnap{Pending: []tg{tel(1, 2, hello, 0), tel(1, 2, attack, negZero), tel(1, 2, flee, 0)}},
			[]string{"e1>e2:hello@0", "e1>e2:attack@-0", "e1>e2:flee@0"}},
		{"identical, window off", DispatcherOptions{}, dsnap{Pending: []tg{tel(1, 2, hello, 1), tel(1, 2, hello, 1)}},
			[]string{"e1>e2:hello@1", "e1>e2:hello@1"}},
		{"identical, just outside the window", DispatcherOptions{DuplicateWindow: 0.25}, dsnap{Pending: []tg{tel(1, 2, hello, 1), tel(1, 2, hello, 1.25), tel(1, 2, hello, 1.5)}},
			[]string{"e1>e2:hello@1", "e1>e2:hello@1.25", "e1>e2:hello@1.5"}},
		{"unregistered receiver", DispatcherOptions{}, dsnap{Pending: []tg{tel(1, 7, hello, 1)}},
			[]string{"message: telegram hello from e1 to e7 at t=1: unknown receiver e7 (register it with Dispatcher.Register before sending to it)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder(tt.opts, 1, 2)
			if err := r.d.Restore(&tt.s); err != nil {
				t.Fatalf("Restore = %v, want nil", err)
			}
			var back dsnap
			r.d.Snapshot(&back)
			if back.Time != tt.s.Time || !slices.Equal(back.Pending, tt.s.Pending) {
				t.Errorf("Snapshot after Restore = %+v, want %+v", back, tt.s)
			}
			if err := r.d.DispatchDelayed(1000); err != nil {
				r.log = append(r.log, err.Error())
			}
			if got := r.take(); !slices.Equal(got, tt.want) {
				t.Errorf("delivered %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDispatcherSnapshotInHandlerPanics: a snapshot cannot hold the rest
// of a running handler, so Snapshot and Restore refuse to run in one.
func TestDispatcherSnapshotInHandlerPanics(t *testing.T) {
	for _, delayed := range []bool{false, true} {
		for _, op := range []string{"Snapshot", "Restore"} {
			t.Run(fmt.Sprintf("%s/delayed=%v", op, delayed), func(t *testing.T) {
				var d Dispatcher[entity, kind]
				var recovered any
				d.Register(1, func(tg) bool {
					defer func() { recovered = recover() }()
					var s dsnap
					if op == "Snapshot" {
						d.Snapshot(&s)
					} else {
						_ = d.Restore(&s)
					}
					return true
				})
				if delayed {
					_ = d.Dispatch(1, 2, 1, hello, nil)
					_ = d.DispatchDelayed(1)
				} else {
					_ = d.Dispatch(0, 2, 1, hello, nil)
				}
				if s, _ := recovered.(string); !strings.HasPrefix(s, "message: Dispatcher."+op+" called by a handler") {
					t.Errorf("%s in a handler panicked with %v, want a message: Dispatcher.%s called by a handler... string", op, recovered, op)
				}
			})
		}
	}
}

// script is a random run of a dispatcher: the property test's input.
type scriptOp struct {
	op       byte // 'd' Dispatch, 'D' DispatchDelayed, 's' SetTime
	delay    float64
	from, to entity
	msg      kind
	extra    int
	now      float64
}

func randomScript(r *rand.Rand, n int) []scriptOp {
	delays := []float64{0, 0, -1, 0.25, 0.5, 0.5, 1, 1, 1.5, 2, 3}
	ops := make([]scriptOp, n)
	now := 0.0
	for i := range ops {
		switch p := r.IntN(10); {
		case p < 6:
			delay := delays[r.IntN(len(delays))]
			if r.IntN(8) == 0 {
				delay = r.Float64() * 3
			}
			ops[i] = scriptOp{op: 'd', delay: delay, from: entity(r.IntN(5) + 1), to: entity(r.IntN(5) + 1), msg: kind(r.IntN(3)), extra: r.IntN(100)}
		case p < 9:
			now += float64(r.IntN(5)) / 4
			ops[i] = scriptOp{op: 'D', now: now}
		default:
			now += float64(r.IntN(9)-4) / 4 // forwards or backwards
			ops[i] = scriptOp{op: 's', now: now}
		}
	}
	return ops
}

// scripted is a dispatcher whose handlers (entities 1 to 4; 5 is never
// registered) log what they get and answer some telegrams, at once or
// later, as a function of the telegram alone: handlers are not part of a
// snapshot, so they must not keep state of their own.
type scripted struct {
	d   *Dispatcher[entity, kind]
	log *[]string
}

func newScripted(opts DispatcherOptions, log *[]string) *scripted {
	s := &scripted{d: NewDispatcher[entity, kind](opts), log: log}
	for id := entity(1); id <= 4; id++ {
		s.d.Register(id, func(t tg) bool {
			x := *t.Extra.(*int)
			s.logf("t=%g %v>%v:%v x=%d", t.DispatchTime, t.Sender, t.Receiver, t.Msg, x)
			switch {
			case t.Msg == hello && x%3 == 0: // answer later, often at a time already used
				s.logErr(s.d.Dispatch(float64(x%4)/2+0.5, id, t.Sender, attack, t.Extra))
			case t.Msg == attack && x%2 == 0: // answer at once
				s.logErr(s.d.Dispatch(0, id, t.Sender%5+1, flee, t.Extra))
			case t.Msg == flee && x%5 < 3: // back and forth at once, up to the depth limit
				next := new(int)
				*next = x + 5
				s.logErr(s.d.Dispatch(0, id, t.Sender, flee, next))
			}
			return id != 4 || t.Msg != flee // 4 does not handle flee
		})
	}
	return s
}

func (s *scripted) logf(format string, args ...any) {
	*s.log = append(*s.log, fmt.Sprintf(format, args...))
}

// logErr logs each error of err, a list or not.
func (s *scripted) logErr(err error) {
	var list TelegramErrors[entity, kind]
	switch {
	case err == nil:
	case errors.As(err, &list):
		for _, e := range list {
			s.logf("  error: %v", e)
		}
	default:
		s.logf("  error: %v", err)
	}
}

func (s *scripted) run(ops []scriptOp) {
	for _, op := range ops {
		switch op.op {
		case 'd':
			x := op.extra
			s.logf("Dispatch(%g, %v, %v, %v, %d)", op.delay, op.from, op.to, op.msg, x)
			s.logErr(s.d.Dispatch(op.delay, op.from, op.to, op.msg, &x))
		case 'D':
			s.logf("DispatchDelayed(%g)", op.now)
			s.logErr(s.d.DispatchDelayed(op.now))
		case 's':
			s.logf("SetTime(%g)", op.now)
			s.d.SetTime(op.now)
		}
	}
}

// TestDispatcherExactContinuation is the property that snapshots exist
// for: for random runs and a random step k, snapshot after step k, restore
// into another dispatcher (fresh, or with a past of its own), run the rest
// there, and the log of deliveries and errors is the one of the run that
// never stopped.
func TestDispatcherExactContinuation(t *testing.T) {
	options := []DispatcherOptions{
		{},
		{DuplicateWindow: 0.25},
		{MaxDepth: 3},
		{DuplicateWindow: math.Inf(1), MaxDepth: 2},
	}
	interesting := map[string]int{}
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 77))
		opts := options[seed%uint64(len(options))]
		ops := randomScript(r, 20+r.IntN(120))
		k := r.IntN(len(ops) + 1)

		var whole []string
		newScripted(opts, &whole).run(ops)

		var resumed []string
		first := newScripted(opts, &resumed)
		first.run(ops[:k])
		var saved dsnap
		first.d.Snapshot(&saved)
		loaded := dsnap{Time: saved.Time, Pending: slices.Clone(saved.Pending)} // as read back from a file
		second := newScripted(opts, &resumed)
		if seed%2 == 1 { // a dispatcher that already ran something else
			var junk []string
			second.log = &junk
			second.run(randomScript(rand.New(rand.NewPCG(seed, 78)), 30))
			second.log = &resumed
		}
		if err := second.d.Restore(&loaded); err != nil {
			t.Fatalf("seed %d, k %d: Restore(Snapshot()) = %v, want nil", seed, k, err)
		}
		clear(saved.Pending) // the restored dispatcher shares nothing with the snapshot
		second.run(ops[k:])

		if !slices.Equal(resumed, whole) {
			i := 0
			for i < len(resumed) && i < len(whole) && resumed[i] == whole[i] {
				i++
			}
			t.Fatalf("seed %d, options %+v, snapshot after step %d of %d: the resumed run differs from line %d:\n%s\nwant\n%s",
				seed, opts, k, len(ops), i, strings.Join(resumed[i:min(i+8, len(resumed))], "\n"), strings.Join(whole[i:min(i+8, len(whole))], "\n"))
		}
		if len(loaded.Pending) > 0 {
			interesting["telegrams pending at the snapshot"]++
		}
		for i := 1; i < len(loaded.Pending); i++ {
			if loaded.Pending[i].DispatchTime == loaded.Pending[i-1].DispatchTime {
				interesting["equal due times pending"]++
				break
			}
		}
		all := strings.Join(whole, "\n")
		for _, e := range []string{"unknown receiver", "not handled", "deliveries deep", "duplicate"} {
			if strings.Contains(all, e) {
				interesting[e]++
			}
		}
	}
	for _, what := range []string{"telegrams pending at the snapshot", "equal due times pending", "unknown receiver", "not handled", "deliveries deep", "duplicate"} {
		if interesting[what] < 20 {
			t.Errorf("only %d runs with %s: the scripts do not exercise it", interesting[what], what)
		}
	}
}

// TestSortHeap checks the bucket sort of Snapshot against a comparison
// sort, on times spread in many ways.
func TestSortHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	negZero := math.Copysign(0, -1)
	spreads := []struct {
		name string
		time func(i int) float64
	}{
		{"uniform", func(int) float64 { return r.Float64() * 10 }},
		{"ties", func(int) float64 { return float64(r.IntN(8)) / 4 }},
		{"all equal", func(int) float64 { return 7 }},
		{"zeros", func(int) float64 { return [...]float64{0, negZero, -1e-300, 1e-300}[r.IntN(4)] }},
		{"signs", func(int) float64 { return r.NormFloat64() * 1e3 }},
		{"huge range", func(int) float64 { return math.Ldexp(r.Float64(), r.IntN(2000)-1000) * float64(1-2*r.IntN(2)) }},
		{"exponential", func(int) float64 { return r.ExpFloat64() }},
		{"clustered", func(i int) float64 { return float64(i%3)*1e6 + r.Float64()*1e-6 }},
		{"one far", func(i int) float64 {
			if i == 0 {
				return 1e300
			}
			return r.Float64()
		}},
		{"steps", func(i int) float64 { return math.Ldexp(1, -i%60) }},
	}
	for _, sp := range spreads {
		for _, n := range []int{0, 1, 2, 24, 25, 100, 1000, 20000} {
			t.Run(fmt.Sprintf("%s/n=%d", sp.name, n), func(t *testing.T) {
				var d Dispatcher[entity, kind]
				for i := range n {
					// seqs with gaps and high bits, as after a long run
					d.push(entry{time: sp.time(i), seq: 1<<40 + uint64(i)*3, slot: int32(i)})
				}
				want := slices.Clone(d.heap)
				slices.SortFunc(want, compareEntries)
				d.sortHeap()
				if !slices.Equal(d.heap, want) {
					for i := range want {
						if d.heap[i] != want[i] {
							t.Fatalf("sortHeap: entry %d = %+v, want %+v", i, d.heap[i], want[i])
						}
					}
				}
			})
		}
	}
}

// Board snapshots.

type bsnap = BoardSnapshot[entity, kind]

// boardLog runs queries on both frames of b and returns what they yield,
// one line per query: the board's observable state.
func boardLog(b *Board[entity, kind], entities entity) []string {
	var out []string
	str := func(ms []msg) string {
		var sb strings.Builder
		for _, m := range ms {
			x := 0
			if p, ok := m.Payload.(*int); ok {
				x = *p
			}
			fmt.Fprintf(&sb, " %v>%v:%v/%v/%d", m.From, m.To, m.Type, m.Broadcast, x)
		}
		return sb.String()
	}
	for fi, f := range []*Frame[entity, kind]{b.Last(), b.Current()} {
		out = append(out, fmt.Sprintf("frame %d: Len %d, All%s", fi, f.Len(), str(slices.Collect(f.All()))))
		for id := range entities {
			out = append(out, fmt.Sprintf("frame %d: To(%v)%s From%s", fi, id, str(slices.Collect(f.To(id))), str(slices.Collect(f.From(id)))))
			for k := range numKinds {
				out = append(out, fmt.Sprintf("frame %d: %v/%v: OfTypeTo%s OfTypeFrom%s", fi, k, id,
					str(slices.Collect(f.OfTypeTo(k, id))), str(slices.Collect(f.OfTypeFrom(k, id)))))
			}
		}
		for k := range numKinds {
			out = append(out, fmt.Sprintf("frame %d: OfType(%v)%s", fi, k, str(slices.Collect(f.OfType(k)))))
		}
		out = append(out, fmt.Sprintf("frame %d: broadcasts%s", fi, str(slices.Collect(f.Where(func(m msg) bool { return m.Broadcast })))))
	}
	return out
}

func TestBoardSnapshot(t *testing.T) {
	p := func(x int) *int { return &x }
	tests := []struct {
		name          string
		last, current []msg
	}{
		{"empty", nil, nil},
		{"last only", []msg{{Type: hello, From: 1, To: 2, Payload: p(1)}, {Type: flee, From: 2, Broadcast: true}}, nil},
		{"current only", nil, []msg{{Type: attack, From: 3, To: 1}}},
		{"both, same keys", []msg{{Type: hello, From: 1, To: 2}, {Type: hello, From: 1, To: 2, Payload: p(2)}, {Type: attack, From: 2, To: 1}},
			[]msg{{Type: hello, From: 1, To: 2, Payload: p(3)}, {Type: flee, From: 3, To: 7, Broadcast: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Board[entity, kind]
			for _, m := range tt.last {
				b.Send(m)
			}
			b.Swap()
			for _, m := range tt.current {
				b.Send(m)
			}
			var s bsnap
			b.Snapshot(&s)
			if !slices.Equal(s.Last, tt.last) || !slices.Equal(s.Current, tt.current) {
				t.Fatalf("Snapshot = %+v, want Last %v, Current %v", s, tt.last, tt.current)
			}
			want := boardLog(&b, 8)

			// Into a fresh board and into one full of other messages.
			var fresh, used Board[entity, kind]
			randomFrame(rand.New(rand.NewPCG(1, 1)), &used, 50, 10)
			used.Swap()
			randomFrame(rand.New(rand.NewPCG(1, 2)), &used, 70, 10)
			for name, b := range map[string]*Board[entity, kind]{"fresh": &fresh, "used": &used} {
				last, cur := b.Last(), b.Current()
				if err := b.Restore(&s); err != nil {
					t.Fatalf("%s board: Restore = %v, want nil", name, err)
				}
				if got := boardLog(b, 8); !slices.Equal(got, want) {
					t.Errorf("%s board: queries after Restore\n%v\nwant\n%v", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if b.Last() != last || b.Current() != cur {
					t.Errorf("%s board: Restore moved the frames", name)
				}
				checkIndex(t, b.Last(), tt.last)
				checkIndex(t, b.Current(), tt.current)
			}
		})
	}
}

// TestBoardSnapshotReuse: snapshots into the same value allocate nothing
// once it has grown and clear what they no longer use; Restore copies.
func TestBoardSnapshotReuse(t *testing.T) {
	var b Board[entity, kind]
	r := rand.New(rand.NewPCG(7, 8))
	randomFrame(r, &b, 500, 40)
	b.Swap()
	randomFrame(r, &b, 300, 40)
	var s bsnap
	b.Snapshot(&s)
	if allocs := testing.AllocsPerRun(20, func() { b.Snapshot(&s) }); allocs != 0 {
		t.Errorf("AllocsPerRun(Snapshot into a reused value) = %v, want 0", allocs)
	}
	var other Board[entity, kind]
	if err := other.Restore(&s); err != nil {
		t.Fatalf("Restore = %v, want nil", err)
	}
	if allocs := testing.AllocsPerRun(20, func() { _ = other.Restore(&s) }); allocs != 0 {
		t.Errorf("AllocsPerRun(Restore into a used board) = %v, want 0", allocs)
	}
	want := boardLog(&b, 40)
	clear(s.Last)
	clear(s.Current)
	if got := boardLog(&other, 40); !slices.Equal(got, want) {
		t.Errorf("changing the snapshot after Restore changed the board")
	}

	b.Swap()
	b.Send(msg{Type: hello, From: 1, To: 2, Payload: new(int)})
	nc := len(s.Current)
	b.Snapshot(&s)
	if len(s.Last) != 300 || len(s.Current) != 1 {
		t.Fatalf("Snapshot: %d and %d messages, want 300 and 1", len(s.Last), len(s.Current))
	}
	for i, m := range s.Current[1:nc] {
		if m != (msg{}) {
			t.Fatalf("Snapshot left Current[%d] = %+v beyond its length, want it cleared", i+1, m)
		}
	}
}

// TestBoardRestoreBad: a frame too long for a board is refused and changes
// nothing.
func TestBoardRestoreBad(t *testing.T) {
	defer func(m int) { maxFrame = m }(maxFrame)
	maxFrame = 3
	three, four := make([]msg, 3), make([]msg, 4)
	tests := []struct {
		name    string
		s       bsnap
		field   string
		message string
	}{
		{"last", bsnap{Last: four, Current: three}, "Last", "message: Board.Restore: Last: 4 messages, more than a frame holds (3)"},
		{"current", bsnap{Last: three, Current: four}, "Current", "message: Board.Restore: Current: 4 messages, more than a frame holds (3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Board[entity, kind]
			b.Send(msg{Type: hello, From: 1, To: 2})
			b.Swap()
			b.Send(msg{Type: flee, From: 2, To: 1})
			before := boardLog(&b, 4)
			err := b.Restore(&tt.s)
			var se *SnapshotError
			if !errors.As(err, &se) || !errors.Is(err, ErrBadSnapshot) {
				t.Fatalf("Restore = %v, want a *SnapshotError matching ErrBadSnapshot", err)
			}
			if se.Op != "Board.Restore" || se.Field != tt.field || se.Index != -1 || err.Error() != tt.message {
				t.Errorf("Restore = %+v (%q), want Board.Restore, %s, -1 (%q)", *se, err, tt.field, tt.message)
			}
			if got := boardLog(&b, 4); !slices.Equal(got, before) {
				t.Errorf("a refused Restore changed the board:\n%v\nwant\n%v", got, before)
			}
		})
	}
}

// TestBoardExactContinuation: for random runs of Send, Swap and queries
// and a random step k, snapshot after step k, restore into another board,
// and the rest of the run answers every query as the run that never
// stopped.
func TestBoardExactContinuation(t *testing.T) {
	const entities = 6
	type op struct {
		what byte // 's' Send, 'w' Swap, 'q' query
		m    msg
		q    int
	}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 99))
		ops := make([]op, 20+r.IntN(150))
		for i := range ops {
			switch p := r.IntN(10); {
			case p < 6:
				x := r.IntN(100)
				ops[i] = op{what: 's', m: msg{Type: kind(r.IntN(int(numKinds))), From: entity(r.IntN(entities)), To: entity(r.IntN(entities)), Broadcast: r.IntN(6) == 0, Payload: &x}}
			case p < 7:
				ops[i] = op{what: 'w'}
			default:
				ops[i] = op{what: 'q', q: r.IntN(1 << 16)}
			}
		}
		k := r.IntN(len(ops) + 1)
		run := func(b *Board[entity, kind], ops []op, log *[]string) {
			for _, o := range ops {
				switch o.what {
				case 's':
					b.Send(o.m)
				case 'w':
					b.Swap()
				case 'q':
					all := boardLog(b, entities)
					*log = append(*log, all[o.q%len(all)])
				}
			}
		}
		var whole, resumed []string
		var b1, b2, b3 Board[entity, kind]
		run(&b1, ops, &whole)
		run(&b2, ops[:k], &resumed)
		var saved bsnap
		b2.Snapshot(&saved)
		loaded := bsnap{Last: slices.Clone(saved.Last), Current: slices.Clone(saved.Current)}
		if seed%2 == 1 {
			randomFrame(r, &b3, r.IntN(50), entities+3)
			b3.Swap()
			randomFrame(r, &b3, r.IntN(50), entities+3)
		}
		if err := b3.Restore(&loaded); err != nil {
			t.Fatalf("seed %d: Restore(Snapshot()) = %v, want nil", seed, err)
		}
		if got, want := boardLog(&b3, entities+3), boardLog(&b2, entities+3); !slices.Equal(got, want) {
			t.Fatalf("seed %d, k %d: the restored board answers\n%v\nwant\n%v", seed, k, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		run(&b3, ops[k:], &resumed)
		if !slices.Equal(resumed, whole) {
			t.Fatalf("seed %d, snapshot after step %d of %d: the resumed run answers\n%v\nwant\n%v", seed, k, len(ops), strings.Join(resumed, "\n"), strings.Join(whole, "\n"))
		}
		if got, want := boardLog(&b3, entities), boardLog(&b1, entities); !slices.Equal(got, want) {
			t.Fatalf("seed %d, k %d: the boards differ at the end", seed, k)
		}
	}
}
