package message

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

type tg = Telegram[entity, kind]

// recorder registers entities whose handlers log what they receive.
type recorder struct {
	d   *Dispatcher[entity, kind]
	log []string
	// refuse makes the handler of an entity return false.
	refuse map[entity]bool
}

func newRecorder(opts DispatcherOptions, ids ...entity) *recorder {
	r := &recorder{d: NewDispatcher[entity, kind](opts), refuse: map[entity]bool{}}
	for _, id := range ids {
		r.register(id)
	}
	return r
}

func (r *recorder) register(id entity) {
	r.d.Register(id, func(t tg) bool {
		r.log = append(r.log, fmt.Sprintf("%v>%v:%v@%g", t.Sender, t.Receiver, t.Msg, t.DispatchTime))
		return !r.refuse[id]
	})
}

func (r *recorder) take() []string {
	l := r.log
	r.log = nil
	return l
}

func pendingStrings(d *Dispatcher[entity, kind]) []string {
	var out []string
	for _, t := range d.AppendPending(nil) {
		out = append(out, fmt.Sprintf("%v>%v:%v@%g", t.Sender, t.Receiver, t.Msg, t.DispatchTime))
	}
	return out
}

func TestDispatchImmediate(t *testing.T) {
	for _, delay := range []float64{0, -1, math.Copysign(0, -1), -1e300} {
		t.Run(fmt.Sprint(delay), func(t *testing.T) {
			r := newRecorder(DispatcherOptions{}, 1, 2)
			r.d.SetTime(5)
			if err := r.d.Dispatch(delay, 1, 2, hello, nil); err != nil {
				t.Fatalf("Dispatch(%v, e1, e2, hello) = %v, want nil", delay, err)
			}
			if got, want := r.take(), []string{"e1>e2:hello@5"}; !slices.Equal(got, want) {
				t.Errorf("delivered = %v, want %v", got, want)
			}
			if got := r.d.Len(); got != 0 {
				t.Errorf("Len() = %d, want 0", got)
			}
		})
	}
}

func TestDispatchExtra(t *testing.T) {
	var d Dispatcher[entity, kind] // zero value
	var got any
	d.Register(1, func(t tg) bool { got = t.Extra; return true })
	if err := d.Dispatch(0, 2, 1, hello, "gold"); err != nil {
		t.Fatalf("Dispatch = %v, want nil", err)
	}
	if got != "gold" {
		t.Errorf("Extra = %v, want gold", got)
	}
	if err := d.Dispatch(1, 2, 1, hello, "silver"); err != nil {
		t.Fatalf("Dispatch(1, ...) = %v, want nil", err)
	}
	if err := d.DispatchDelayed(1); err != nil {
		t.Fatalf("DispatchDelayed(1) = %v, want nil", err)
	}
	if got != "silver" {
		t.Errorf("Extra = %v, want silver", got)
	}
}

func TestDispatchDelayedOrder(t *testing.T) {
	type send struct {
		delay float64
		from  entity
		msg   kind
	}
	tests := []struct {
		name  string
		sends []send
		at    []float64 // DispatchDelayed times
		want  [][]string
	}{
		{
			name:  "time order",
			sends: []send{{3, 1, hello}, {1, 1, attack}, {2, 1, flee}},
			at:    []float64{10},
			want:  [][]string{{"e1>e9:attack@1", "e1>e9:flee@2", "e1>e9:hello@3"}},
		},
		{
			name:  "ties in send order",
			sends: []send{{2, 3, hello}, {1, 1, hello}, {2, 1, attack}, {2, 2, hello}, {1, 2, flee}},
			at:    []float64{5},
			want:  [][]string{{"e1>e9:hello@1", "e2>e9:flee@1", "e3>e9:hello@2", "e1>e9:attack@2", "e2>e9:hello@2"}},
		},
		{
			name:  "due exactly at now",
			sends: []send{{1, 1, hello}, {1.5, 1, attack}, {2, 1, flee}},
			at:    []float64{0.5, 1, 1.4999, 1.5, 3},
			want:  [][]string{nil, {"e1>e9:hello@1"}, nil, {"e1>e9:attack@1.5"}, {"e1>e9:flee@2"}},
		},
		{
			name:  "same sender, receiver, message and time",
			sends: []send{{1, 1, hello}, {1, 1, hello}},
			at:    []float64{1},
			want:  [][]string{{"e1>e9:hello@1", "e1>e9:hello@1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(DispatcherOptions{}, 9)
			for _, s := range tc.sends {
				if err := r.d.Dispatch(s.delay, s.from, 9, s.msg, nil); err != nil {
					t.Fatalf("Dispatch(%v, %v, e9, %v) = %v, want nil", s.delay, s.from, s.msg, err)
				}
			}
			for i, now := range tc.at {
				if err := r.d.DispatchDelayed(now); err != nil {
					t.Fatalf("DispatchDelayed(%v) = %v, want nil", now, err)
				}
				if got := r.take(); !slices.Equal(got, tc.want[i]) {
					t.Errorf("DispatchDelayed(%v) delivered %v, want %v", now, got, tc.want[i])
				}
				if got := r.d.Time(); got != now {
					t.Errorf("Time() after DispatchDelayed(%v) = %v, want %v", now, got, now)
				}
			}
			if got := r.d.Len(); got != 0 {
				t.Errorf("Len() at the end = %d, want 0", got)
			}
		})
	}
}

func TestDispatchDelayIsFromCurrentTime(t *testing.T) {
	r := newRecorder(DispatcherOptions{}, 1)
	r.d.SetTime(100)
	if err := r.d.Dispatch(2.5, 1, 1, hello, nil); err != nil {
		t.Fatalf("Dispatch = %v", err)
	}
	if got, want := pendingStrings(r.d), []string{"e1>e1:hello@102.5"}; !slices.Equal(got, want) {
		t.Errorf("pending = %v, want %v", got, want)
	}
}

func TestDuplicateWindow(t *testing.T) {
	type send struct {
		delay    float64
		from, to entity
		msg      kind
		wantErr  error
	}
	tests := []struct {
		name    string
		window  float64
		sends   []send
		pending []string
	}{
		{
			name:   "off keeps identical telegrams",
			window: 0,
			sends:  []send{{1, 1, 2, hello, nil}, {1.1, 1, 2, hello, nil}, {1, 1, 2, hello, nil}},
			pending: []string{
				"e1>e2:hello@1", "e1>e2:hello@1", "e1>e2:hello@1.1",
			},
		},
		{
			name:   "on drops identical within the window, either side",
			window: 0.25,
			sends: []send{
				{1, 1, 2, hello, nil},
				{1.2, 1, 2, hello, ErrDuplicate},
				{0.8, 1, 2, hello, ErrDuplicate},
				{1, 1, 2, hello, ErrDuplicate},
				{1.25, 1, 2, hello, nil}, // exactly the window apart: kept
				{0.5, 1, 2, hello, nil},
				{0.74, 1, 2, hello, ErrDuplicate},
			},
			pending: []string{"e1>e2:hello@0.5", "e1>e2:hello@1", "e1>e2:hello@1.25"},
		},
		{
			name:   "on keeps different telegrams sharing a time",
			window: 0.25,
			sends: []send{
				{1, 1, 2, hello, nil},
				{1, 1, 2, attack, nil},
				{1, 2, 2, hello, nil},
				{1, 1, 1, hello, nil},
			},
			pending: []string{"e1>e2:hello@1", "e1>e2:attack@1", "e2>e2:hello@1", "e1>e1:hello@1"},
		},
		{
			name:   "infinite window keeps one per identity",
			window: math.Inf(1),
			sends: []send{
				{1, 1, 2, hello, nil},
				{1000, 1, 2, hello, ErrDuplicate},
				{1000, 1, 2, attack, nil},
			},
			pending: []string{"e1>e2:hello@1", "e1>e2:attack@1000"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(DispatcherOptions{DuplicateWindow: tc.window}, 1, 2)
			for _, s := range tc.sends {
				err := r.d.Dispatch(s.delay, s.from, s.to, s.msg, nil)
				if err != s.wantErr {
					t.Errorf("Dispatch(%v, %v, %v, %v) = %v, want %v", s.delay, s.from, s.to, s.msg, err, s.wantErr)
				}
			}
			if got := pendingStrings(r.d); !slices.Equal(got, tc.pending) {
				t.Errorf("pending = %v, want %v", got, tc.pending)
			}
		})
	}
}

func TestDuplicateWindowAfterDelivery(t *testing.T) {
	r := newRecorder(DispatcherOptions{DuplicateWindow: 0.25}, 1, 2)
	if err := r.d.Dispatch(1, 1, 2, hello, nil); err != nil {
		t.Fatalf("Dispatch = %v", err)
	}
	if err := r.d.DispatchDelayed(1); err != nil {
		t.Fatalf("DispatchDelayed(1) = %v", err)
	}
	// The first one is gone: an identical one due 0.1 later is no duplicate.
	if err := r.d.Dispatch(0.1, 1, 2, hello, nil); err != nil {
		t.Errorf("Dispatch after delivery = %v, want nil", err)
	}
	if got := r.d.dups.len(); got != 1 {
		t.Errorf("duplicate keys tracked = %d, want 1", got)
	}
	if err := r.d.DispatchDelayed(2); err != nil {
		t.Fatalf("DispatchDelayed(2) = %v", err)
	}
	if got := r.d.dups.len(); got != 0 {
		t.Errorf("duplicate keys tracked when nothing is pending = %d, want 0", got)
	}
}

// TestDuplicateWindowRandom checks the duplicate rule against a brute-force
// check over all pending telegrams, with random delays and deliveries.
func TestDuplicateWindowRandom(t *testing.T) {
	const w = 0.25
	rnd := rand.New(rand.NewPCG(7, 8))
	r := newRecorder(DispatcherOptions{DuplicateWindow: w}, 0, 1, 2)
	var pending []tg
	now := 0.0
	for step := range 5000 {
		if rnd.IntN(20) == 0 {
			now += rnd.Float64()
			if err := r.d.DispatchDelayed(now); err != nil {
				t.Fatalf("DispatchDelayed(%v) = %v", now, err)
			}
			pending = slices.DeleteFunc(pending, func(t tg) bool { return t.DispatchTime <= now })
			r.take()
			continue
		}
		delay := float64(rnd.IntN(40)+1) / 16
		from, to, k := entity(rnd.IntN(2)), entity(rnd.IntN(3)), kind(rnd.IntN(2))
		when := now + delay
		dup := slices.ContainsFunc(pending, func(t tg) bool {
			return t.Sender == from && t.Receiver == to && t.Msg == k && math.Abs(t.DispatchTime-when) < w
		})
		err := r.d.Dispatch(delay, from, to, k, nil)
		if got := errors.Is(err, ErrDuplicate); got != dup {
			t.Fatalf("step %d: Dispatch(%v, %v, %v, %v) = %v, want duplicate %v", step, delay, from, to, k, err, dup)
		}
		if err == nil {
			pending = append(pending, tg{Sender: from, Receiver: to, Msg: k, DispatchTime: when})
		}
		if got := r.d.Len(); got != len(pending) {
			t.Fatalf("step %d: Len() = %d, want %d", step, got, len(pending))
		}
	}
}

func TestDispatchErrors(t *testing.T) {
	tests := []struct {
		name     string
		delay    float64
		receiver entity
		want     error
		text     string
	}{
		{"unknown receiver now (register it with Dispatcher.Register before sending to it)", 0, 7, ErrUnknownReceiver, "message: telegram hello from e1 to e7 at t=10: unknown receiver e7 (register it with Dispatcher.Register before sending to it)"},
		{"unknown receiver later (register it with Dispatcher.Register before sending to it)", 2, 7, ErrUnknownReceiver, "message: telegram hello from e1 to e7 at t=12: unknown receiver e7 (register it with Dispatcher.Register before sending to it)"},
		{"NaN delay", math.NaN(), 2, ErrBadDelay, "message: telegram hello from e1 to e2 at t=NaN: delay is NaN or infinite, or too large for the game time (use a finite delay; 0 or less sends at once)"},
		{"-Inf delay", math.Inf(-1), 2, ErrBadDelay, "message: telegram hello from e1 to e2 at t=-Inf: delay is NaN or infinite, or too large for the game time (use a finite delay; 0 or less sends at once)"},
		{"+Inf delay", math.Inf(1), 2, ErrBadDelay, "message: telegram hello from e1 to e2 at t=+Inf: delay is NaN or infinite, or too large for the game time (use a finite delay; 0 or less sends at once)"},
		{"NaN delay, unknown receiver", math.NaN(), 7, ErrBadDelay, "message: telegram hello from e1 to e7 at t=NaN: delay is NaN or infinite, or too large for the game time (use a finite delay; 0 or less sends at once)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(DispatcherOptions{DuplicateWindow: 0.25}, 1, 2)
			r.d.SetTime(10)
			if err := r.d.Dispatch(3, 1, 2, attack, nil); err != nil {
				t.Fatalf("Dispatch(3, ...) = %v", err)
			}
			before := pendingStrings(r.d)
			err := r.d.Dispatch(tc.delay, 1, tc.receiver, hello, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Dispatch(%v, e1, %v, hello) = %v, want %v", tc.delay, tc.receiver, err, tc.want)
			}
			if got := err.Error(); got != tc.text {
				t.Errorf("Dispatch(%v, e1, %v, hello).Error() = %q, want %q", tc.delay, tc.receiver, got, tc.text)
			}
			var te *TelegramError[entity, kind]
			if !errors.As(err, &te) || te.Telegram.Receiver != tc.receiver {
				t.Errorf("errors.As(%v) receiver = %v, want %v", err, te, tc.receiver)
			}
			if got := r.take(); len(got) != 0 {
				t.Errorf("delivered %v, want nothing", got)
			}
			if got := pendingStrings(r.d); !slices.Equal(got, before) {
				t.Errorf("pending = %v, want %v", got, before)
			}
			if got := r.d.dups.len(); got != 1 {
				t.Errorf("duplicate keys tracked = %d, want 1", got)
			}
			if got := r.d.Time(); got != 10 {
				t.Errorf("Time() = %v, want 10", got)
			}
		})
	}
}

func TestDispatchOverflowingDelay(t *testing.T) {
	r := newRecorder(DispatcherOptions{}, 1)
	r.d.SetTime(math.MaxFloat64)
	if err := r.d.Dispatch(math.MaxFloat64, 1, 1, hello, nil); !errors.Is(err, ErrBadDelay) {
		t.Errorf("Dispatch(MaxFloat64) at time MaxFloat64 = %v, want %v", err, ErrBadDelay)
	}
	if got := r.d.Len(); got != 0 {
		t.Errorf("Len() = %d, want 0", got)
	}
}

func TestDispatchUnhandled(t *testing.T) {
	r := newRecorder(DispatcherOptions{}, 1, 2)
	r.refuse[2] = true
	err := r.d.Dispatch(0, 1, 2, hello, nil)
	if !errors.Is(err, ErrUnhandled) {
		t.Fatalf("Dispatch(0, e1, e2, hello) = %v, want %v", err, ErrUnhandled)
	}
	if got, want := err.Error(), "message: telegram hello from e1 to e2 at t=0: telegram not handled"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := r.take(), []string{"e1>e2:hello@0"}; !slices.Equal(got, want) {
		t.Errorf("delivered = %v, want %v", got, want)
	}
}

func TestDispatchDelayedErrors(t *testing.T) {
	r := newRecorder(DispatcherOptions{}, 1, 2, 3)
	r.refuse[3] = true
	for _, s := range []struct {
		delay float64
		to    entity
	}{{1, 2}, {2, 3}, {3, 1}, {4, 2}, {5, 2}} {
		if err := r.d.Dispatch(s.delay, 1, s.to, hello, nil); err != nil {
			t.Fatalf("Dispatch(%v, e1, %v) = %v", s.delay, s.to, err)
		}
	}
	r.d.Unregister(2)
	r.d.Unregister(42) // unknown: nothing happens
	err := r.d.DispatchDelayed(4)
	if got, want := r.take(), []string{"e1>e3:hello@2", "e1>e1:hello@3"}; !slices.Equal(got, want) {
		t.Errorf("delivered = %v, want %v", got, want)
	}
	var list TelegramErrors[entity, kind]
	if !errors.As(err, &list) {
		t.Fatalf("DispatchDelayed(4) = %#v, want a TelegramErrors", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, fmt.Sprintf("%v@%g: %v", e.Telegram.Receiver, e.Telegram.DispatchTime, e.Unwrap()))
	}
	want := []string{
		"e2@1: message: unknown receiver",
		"e3@2: message: telegram not handled",
		"e2@4: message: unknown receiver",
	}
	if !slices.Equal(got, want) {
		t.Errorf("DispatchDelayed(4) errors = %v, want %v", got, want)
	}
	if !errors.Is(err, ErrUnknownReceiver) || !errors.Is(err, ErrUnhandled) || errors.Is(err, ErrDuplicate) {
		t.Errorf("errors.Is(%v, ...) does not match the list", err)
	}
	if got, want := err.Error(), "message: telegram hello from e1 to e2 at t=1: unknown receiver e2 (register it with Dispatcher.Register before sending to it) (and 2 more)"; got != want {
		t.Errorf("DispatchDelayed(4).Error() = %q, want %q", got, want)
	}
	// Registered again before it falls due: delivered.
	r.register(2)
	if err := r.d.DispatchDelayed(5); err != nil {
		t.Errorf("DispatchDelayed(5) = %v, want nil", err)
	}
	if got, want := r.take(), []string{"e1>e2:hello@5"}; !slices.Equal(got, want) {
		t.Errorf("delivered = %v, want %v", got, want)
	}
}

func TestDispatchDelayedBadTime(t *testing.T) {
	for _, now := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		t.Run(fmt.Sprint(now), func(t *testing.T) {
			r := newRecorder(DispatcherOptions{}, 1)
			r.d.SetTime(3)
			if err := r.d.Dispatch(1, 1, 1, hello, nil); err != nil {
				t.Fatalf("Dispatch = %v", err)
			}
			err := r.d.DispatchDelayed(now)
			if !errors.Is(err, ErrBadTime) {
				t.Errorf("DispatchDelayed(%v) = %v, want %v", now, err, ErrBadTime)
			}
			if got := r.d.Time(); got != 3 {
				t.Errorf("Time() = %v, want 3", got)
			}
			if got := r.d.Len(); got != 1 || len(r.take()) != 0 {
				t.Errorf("Len() = %d and something delivered, want 1 pending", got)
			}
		})
	}
}

func TestReentrantDispatch(t *testing.T) {
	var d Dispatcher[entity, kind]
	var log []string
	// e1 answers hello with an immediate attack to e2, and re-sends itself
	// hello with a tiny delay: one per DispatchDelayed call, never a hang.
	// (See TestDispatchDueDuringDelivery for one that is already due.)
	d.Register(1, func(t tg) bool {
		log = append(log, fmt.Sprintf("e1 got %v@%g", t.Msg, t.DispatchTime))
		if t.Msg == hello {
			if err := d.Dispatch(0, 1, 2, attack, nil); err != nil {
				log = append(log, err.Error())
			}
			delay := 1e-9
			if d.Time() == 0 {
				delay = math.SmallestNonzeroFloat64 // exact at time 0
			}
			if err := d.Dispatch(delay, 1, 1, hello, nil); err != nil {
				log = append(log, err.Error())
			}
		}
		return true
	})
	d.Register(2, func(t tg) bool {
		log = append(log, fmt.Sprintf("e2 got %v@%g", t.Msg, t.DispatchTime))
		if t.Msg == attack {
			if err := d.Dispatch(0.5, 2, 1, flee, nil); err != nil {
				log = append(log, err.Error())
			}
		}
		return true
	})
	if err := d.Dispatch(0, 2, 1, hello, nil); err != nil {
		t.Fatalf("Dispatch = %v", err)
	}
	want := []string{"e1 got hello@0", "e2 got attack@0"}
	if !slices.Equal(log, want) {
		t.Fatalf("immediate re-entrant dispatch: log = %v, want %v", log, want)
	}
	log = nil
	for i, now := range []float64{1, 1, 2} {
		if err := d.DispatchDelayed(now); err != nil {
			t.Fatalf("DispatchDelayed(%v) = %v", now, err)
		}
		if i == 0 {
			want := []string{"e1 got hello@5e-324", "e2 got attack@1", "e1 got flee@0.5"}
			if !slices.Equal(log, want) {
				t.Fatalf("DispatchDelayed(1): log = %v, want %v", log, want)
			}
			if got, want := pendingStrings(&d), []string{"e1>e1:hello@1.000000001", "e2>e1:flee@1.5"}; !slices.Equal(got, want) {
				t.Fatalf("pending after DispatchDelayed(1) = %v, want %v", got, want)
			}
		}
		log = nil
	}
	if got := d.Len(); got != 2 {
		t.Errorf("Len() = %d, want 2 (the last hello and flee)", got)
	}
}

// TestDispatchDueDuringDelivery: a telegram that a handler queues during
// DispatchDelayed waits for the next call even if already due (here the
// handler set the time back), so a handler that keeps re-sending to itself
// cannot hang the loop.
func TestDispatchDueDuringDelivery(t *testing.T) {
	var d Dispatcher[entity, kind]
	n := 0
	d.Register(1, func(t tg) bool {
		n++
		d.SetTime(0)
		if err := d.Dispatch(0.5, 1, 1, hello, nil); err != nil {
			panic(err)
		}
		return true
	})
	if err := d.Dispatch(1, 1, 1, hello, nil); err != nil {
		t.Fatalf("Dispatch = %v", err)
	}
	for i := 1; i <= 3; i++ {
		if err := d.DispatchDelayed(1); err != nil {
			t.Fatalf("DispatchDelayed(1) = %v", err)
		}
		if n != i || d.Len() != 1 {
			t.Fatalf("after DispatchDelayed(1) #%d: %d delivered, %d pending, want %d and 1", i, n, d.Len(), i)
		}
	}
}

func TestNestedDispatchDelayedPanics(t *testing.T) {
	var d Dispatcher[entity, kind]
	d.Register(1, func(t tg) bool {
		_ = d.Dispatch(1, 1, 1, attack, nil) // queued during delivery
		_ = d.DispatchDelayed(10)
		return true
	})
	if err := d.Dispatch(1, 1, 1, hello, nil); err != nil {
		t.Fatalf("Dispatch = %v", err)
	}
	func() {
		defer func() {
			r := recover()
			if s, _ := r.(string); !strings.Contains(s, "DispatchDelayed") {
				t.Errorf("DispatchDelayed from a handler panicked with %v, want a message naming DispatchDelayed", r)
			}
		}()
		_ = d.DispatchDelayed(1)
	}()
	// The dispatcher is usable again, and the telegram queued before the
	// panic is pending.
	if got := d.Len(); got != 1 {
		t.Errorf("Len() after the panic = %d, want 1", got)
	}
	d.Register(1, func(tg) bool { return true })
	if err := d.DispatchDelayed(3); err != nil || d.Len() != 0 {
		t.Errorf("DispatchDelayed(3) = %v with %d pending, want nil with 0", err, d.Len())
	}
}

func TestPendingOrder(t *testing.T) {
	r := newRecorder(DispatcherOptions{}, 1, 2)
	rnd := rand.New(rand.NewPCG(9, 10))
	type sent struct {
		t   tg
		seq int
	}
	var all []sent
	for i := range 500 {
		delay := float64(rnd.IntN(20)+1) / 4 // many ties
		to := entity(rnd.IntN(2) + 1)
		if err := r.d.Dispatch(delay, 0, to, kind(i%3), i); err != nil {
			t.Fatalf("Dispatch = %v", err)
		}
		when := r.d.Time() + delay
		all = append(all, sent{tg{Sender: 0, Receiver: to, Msg: kind(i % 3), DispatchTime: when, Extra: i}, i})
		if i%100 == 99 {
			// Deliver some, so the heap is not in insertion order.
			now := float64(i/100) / 2
			if err := r.d.DispatchDelayed(now); err != nil {
				t.Fatalf("DispatchDelayed = %v", err)
			}
			all = slices.DeleteFunc(all, func(s sent) bool { return s.t.DispatchTime <= now })
		}
	}
	slices.SortStableFunc(all, func(a, b sent) int {
		switch {
		case a.t.DispatchTime < b.t.DispatchTime:
			return -1
		case a.t.DispatchTime > b.t.DispatchTime:
			return 1
		}
		return a.seq - b.seq
	})
	var want []tg
	for _, s := range all {
		want = append(want, s.t)
	}
	got := r.d.AppendPending(make([]tg, 0, 1))
	if !slices.Equal(got, want) {
		t.Fatalf("AppendPending = %d telegrams, want %d in (time, send) order", len(got), len(want))
	}
	if r.d.Len() != len(want) {
		t.Errorf("Len() = %d, want %d", r.d.Len(), len(want))
	}
	// Delivery follows the same order.
	r.take()
	if err := r.d.DispatchDelayed(100); err != nil {
		t.Fatalf("DispatchDelayed = %v", err)
	}
	var wantLog []string
	for _, t := range want {
		wantLog = append(wantLog, fmt.Sprintf("%v>%v:%v@%g", t.Sender, t.Receiver, t.Msg, t.DispatchTime))
	}
	if got := r.take(); !slices.Equal(got, wantLog) {
		t.Errorf("delivery order differs from AppendPending order")
	}
}

func TestDispatcherPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"Register(nil)", func() { var d Dispatcher[entity, kind]; d.Register(1, nil) }},
		{"SetTime(NaN)", func() { var d Dispatcher[entity, kind]; d.SetTime(math.NaN()) }},
		{"SetTime(+Inf)", func() { var d Dispatcher[entity, kind]; d.SetTime(math.Inf(1)) }},
		{"NewDispatcher(window -1)", func() { NewDispatcher[entity, kind](DispatcherOptions{DuplicateWindow: -1}) }},
		{"NewDispatcher(window NaN)", func() { NewDispatcher[entity, kind](DispatcherOptions{DuplicateWindow: math.NaN()}) }},
		{"NewDispatcher(MaxDepth -1)", func() { NewDispatcher[entity, kind](DispatcherOptions{MaxDepth: -1}) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "message: ") {
					t.Errorf("%s panicked with %v, want a message: ... string", tc.name, r)
				}
			}()
			tc.f()
		})
	}
}

// TestDispatcherNoAllocs: once warm, dispatching and delivering delayed
// telegrams allocates nothing, with the duplicate window off and on.
func TestDispatcherNoAllocs(t *testing.T) {
	for _, window := range []float64{0, 0.25} {
		t.Run(fmt.Sprintf("window=%g", window), func(t *testing.T) {
			const n, entities = 2000, 50
			d := NewDispatcher[entity, kind](DispatcherOptions{DuplicateWindow: window})
			sum := 0
			for id := range entity(entities) {
				d.Register(id, func(t tg) bool { sum += int(t.Msg); return true })
			}
			rnd := rand.New(rand.NewPCG(11, 12))
			delays := make([]float64, n)
			for i := range delays {
				delays[i] = 1 + rnd.Float64()*10
			}
			dups := 0
			run := func() {
				for i, delay := range delays {
					if d.Dispatch(delay, entity(i%entities), entity(i*7%entities), kind(i%3), nil) == ErrDuplicate {
						dups++
					}
					_ = d.Dispatch(0, entity(i%entities), entity(i*7%entities), kind(i%3), nil)
				}
				for range 20 {
					if err := d.DispatchDelayed(d.Time() + 0.6); err != nil {
						panic(err)
					}
				}
			}
			for range 3 {
				run()
			}
			if allocs := testing.AllocsPerRun(20, run); allocs != 0 {
				t.Errorf("AllocsPerRun(%d telegrams) = %v, want 0", n, allocs)
			}
			if window > 0 && dups == 0 {
				t.Errorf("no duplicates dropped with window %v; the test does not exercise the window", window)
			}
			_ = sum
		})
	}
}

// TestDispatchPrecision: a positive delay that game time cannot count (the
// dispatch time rounds to now, or far from now + delay) is refused with
// ErrBadDelay, and nothing is queued.
func TestDispatchPrecision(t *testing.T) {
	tests := []struct {
		now, delay float64
		ok         bool
	}{
		{0, 1, true},
		{10, 0.1, true},
		{0, math.SmallestNonzeroFloat64, true}, // exact at 0
		{1, math.SmallestNonzeroFloat64, false},
		{1, 1e-9, true},
		{1e20, 1, false},     // 1e20 + 1 == 1e20
		{1e20, 10000, false}, // due at 1e20 + 16384
		{1e20, 16384, true},  // exact
		{1e20, 1e10, true},   // off by less than a thousandth
		{-1e20, 1, false},
		{1e16, 1.5, false},   // due at 1e16 + 2
		{1e16, 1000.5, true}, // due at 1e16 + 1000
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%g+%g", tc.now, tc.delay), func(t *testing.T) {
			r := newRecorder(DispatcherOptions{}, 1)
			r.d.SetTime(tc.now)
			err := r.d.Dispatch(tc.delay, 1, 1, hello, nil)
			if tc.ok {
				if err != nil || r.d.Len() != 1 {
					t.Errorf("Dispatch(%g) at time %g = %v with %d pending, want nil with 1", tc.delay, tc.now, err, r.d.Len())
				}
				return
			}
			if !errors.Is(err, ErrBadDelay) {
				t.Fatalf("Dispatch(%g) at time %g = %v, want %v", tc.delay, tc.now, err, ErrBadDelay)
			}
			if r.d.Len() != 0 {
				t.Errorf("Dispatch(%g) at time %g queued it: Len() = %d, want 0", tc.delay, tc.now, r.d.Len())
			}
			if err := r.d.DispatchDelayed(tc.now); err != nil || len(r.take()) != 0 {
				t.Errorf("DispatchDelayed(%g) = %v, or delivered something", tc.now, err)
			}
		})
	}

	r := newRecorder(DispatcherOptions{}, 1, 2)
	r.d.SetTime(1e20)
	err := r.d.Dispatch(1, 1, 2, attack, nil)
	want := "message: telegram attack from e1 to e2 at t=1e+20: delay 1 is too small for game time 1e+20, which a float64 counts there in steps of 1.64e+04 (use a delay of at least 8.19e+06, or 0 to send at once, or keep game time small, counting it from the start of the level)"
	if err == nil || err.Error() != want {
		t.Errorf("Dispatch(1) at time 1e20 = %v, want %s", err, want)
	}
}

// TestDispatchDepthLimit: immediate telegrams that handlers keep sending are
// refused past MaxDepth nested deliveries, with an error naming the
// telegram; every telegram sent is delivered or reported, and the
// dispatcher keeps working.
func TestDispatchDepthLimit(t *testing.T) {
	tests := []struct {
		name     string
		maxDepth int
		// fanOut is how many immediate telegrams each handler sends: to
		// itself (e1 → e1) or around a ring (e1 → e2 → e1).
		fanOut  int
		ring    bool
		delayed bool // the first telegram is delivered by DispatchDelayed
		calls   int  // handler calls
		refused int
	}{
		{"self", 0, 1, false, false, DefaultMaxDepth, 1},
		{"self/MaxDepth=3", 3, 1, false, false, 3, 1},
		{"self/MaxDepth=1", 1, 1, false, false, 1, 1},
		{"ring", 0, 1, true, false, DefaultMaxDepth, 1},
		// Without the cut after the first refusal, 2⁶⁴ calls.
		{"fan-out 2", 0, 2, false, false, DefaultMaxDepth, DefaultMaxDepth + 1},
		{"fan-out 3/MaxDepth=5", 5, 3, true, false, 5, 1 + 2*5},
		{"self/delayed", 0, 1, false, true, DefaultMaxDepth, 1},
		{"fan-out 2/delayed", 4, 2, false, true, 4, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDispatcher[entity, kind](DispatcherOptions{MaxDepth: tc.maxDepth})
			calls, sent, failed := 0, 1, 0
			var handlerErr error
			for _, id := range []entity{1, 2} {
				d.Register(id, func(m tg) bool {
					calls++
					to := id
					if tc.ring {
						to = 3 - id
					}
					for range tc.fanOut {
						sent++
						if err := d.Dispatch(0, id, to, hello, nil); err != nil {
							failed++
							if handlerErr == nil {
								handlerErr = err
							}
						}
					}
					return true
				})
			}
			var err error
			if tc.delayed {
				if err := d.Dispatch(1, 2, 1, hello, nil); err != nil {
					t.Fatal(err)
				}
				err = d.DispatchDelayed(1)
			} else {
				err = d.Dispatch(0, 2, 1, hello, nil)
			}
			var list TelegramErrors[entity, kind]
			if !errors.As(err, &list) {
				t.Fatalf("outer call = %v, want a TelegramErrors", err)
			}
			if calls != tc.calls || len(list) != tc.refused || failed != tc.refused {
				t.Errorf("%d handler calls, %d refused telegrams listed, %d returned to handlers; want %d, %d, %d", calls, len(list), failed, tc.calls, tc.refused, tc.refused)
			}
			if calls+len(list) != sent {
				t.Errorf("%d telegrams sent, %d delivered and %d reported: some were lost", sent, calls, len(list))
			}
			for _, e := range list {
				if !errors.Is(e, ErrDepthLimit) {
					t.Errorf("listed %v, want an error matching ErrDepthLimit", e)
				}
			}
			if handlerErr != list[0] {
				t.Errorf("the handler's Dispatch returned %v, want the first listed, %v", handlerErr, list[0])
			}
			limit := cmp.Or(tc.maxDepth, DefaultMaxDepth)
			want := fmt.Sprintf("message: telegram hello from %v to %v at t=%g: immediate telegram not delivered: sent by a handler already %d deliveries deep, the most DispatcherOptions.MaxDepth allows (a handler that keeps answering at once?); send it with a delay, or raise MaxDepth",
				list[0].Telegram.Sender, list[0].Telegram.Receiver, d.Time(), limit)
			if got := list[0].Error(); got != want {
				t.Errorf("Error() = %q, want %q", got, want)
			}
			// The dispatcher keeps working: a chain of MaxDepth deliveries
			// goes through.
			calls = 0
			left := limit
			d.Register(3, func(m tg) bool {
				calls++
				if left--; left > 0 {
					if err := d.Dispatch(0, 3, 3, hello, nil); err != nil {
						t.Errorf("nested Dispatch after the refusal = %v", err)
					}
				}
				return true
			})
			if err := d.Dispatch(0, 3, 3, hello, nil); err != nil || calls != limit {
				t.Errorf("after the refusal: Dispatch = %v with %d calls, want nil with %d", err, calls, limit)
			}
		})
	}
}

// TestDispatchDepthAfterPanic: a handler that panics in a cascade of
// immediate deliveries leaves the dispatcher at depth 0.
func TestDispatchDepthAfterPanic(t *testing.T) {
	d := NewDispatcher[entity, kind](DispatcherOptions{MaxDepth: 4})
	depth, calls := 0, 0
	d.Register(1, func(m tg) bool {
		calls++
		if depth++; depth == 3 {
			panic("boom")
		}
		return d.Dispatch(0, 1, 1, hello, nil) == nil
	})
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recover() = %v, want boom", r)
			}
		}()
		_ = d.Dispatch(0, 1, 1, hello, nil)
	}()
	depth, calls = -100, 0
	if err := d.Dispatch(0, 1, 1, hello, nil); !errors.Is(err, ErrDepthLimit) || calls != 4 {
		t.Errorf("Dispatch after the panic = %v with %d calls, want ErrDepthLimit with 4", err, calls)
	}
}

// TestDispatchDepthLimitUnhandled: when the outer telegram is not handled
// and the cascade it started was cut, Dispatch lists both, its own problem
// first.
func TestDispatchDepthLimitUnhandled(t *testing.T) {
	d := NewDispatcher[entity, kind](DispatcherOptions{MaxDepth: 2})
	d.Register(1, func(m tg) bool {
		_ = d.Dispatch(0, 1, 1, attack, nil)
		return m.Msg != hello
	})
	err := d.Dispatch(0, 2, 1, hello, nil)
	var list TelegramErrors[entity, kind]
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("Dispatch = %v, want a list of 2", err)
	}
	if got := list[0]; !errors.Is(got, ErrUnhandled) || got.Telegram.Msg != hello {
		t.Errorf("list[0] = %v, want hello unhandled", got)
	}
	if got := list[1]; !errors.Is(got, ErrDepthLimit) || got.Telegram.Msg != attack {
		t.Errorf("list[1] = %v, want attack refused for depth", got)
	}
}
