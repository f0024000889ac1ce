package machine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func goomba() Description {
	return Description{
		Name:    "goomba",
		Kind:    KindTable,
		Initial: 0,
		States:  []State{{Name: "walkLeft", Parent: NoState}, {Name: "walkRight", Parent: NoState}, {Name: "die", Parent: NoState}},
		Triggers: []Trigger{
			{Name: "hitTriggerLeft", Kind: TriggerTest},
			{Name: "hit", Kind: TriggerMessage},
		},
		Transitions: []Transition{
			{From: 0, To: []StateID{1}, Trigger: 0},
			{From: 0, To: []StateID{2}, Trigger: 1},
			{From: 1, To: []StateID{0}, Trigger: 0},
			{From: 2, Final: true, Trigger: -1},
		},
	}
}

func TestRecorderRing(t *testing.T) {
	r := NewRecorder(4)
	obs := r.Register(goomba())
	for i := range 6 {
		r.SetTick(uint64(i))
		obs.Observe(Event{Entity: uint64(i), From: 0, To: 1, Trigger: -1, Transition: 0})
	}
	got := r.Events(nil)
	var ents []uint64
	for _, ev := range got {
		ents = append(ents, ev.Entity)
		if ev.Tick != ev.Entity {
			t.Errorf("event of entity %d has tick %d, want %d", ev.Entity, ev.Tick, ev.Entity)
		}
	}
	if want := []uint64{2, 3, 4, 5}; !slices.Equal(ents, want) {
		t.Errorf("entities = %v, want %v", ents, want)
	}
	if r.Total() != 6 || r.Len() != 4 {
		t.Errorf("Total, Len = %d, %d, want 6, 4", r.Total(), r.Len())
	}
	r.SetSize(2)
	ents = ents[:0]
	for _, ev := range r.Events(nil) {
		ents = append(ents, ev.Entity)
	}
	if want := []uint64{4, 5}; !slices.Equal(ents, want) {
		t.Errorf("after SetSize(2): entities = %v, want %v", ents, want)
	}
	obs.Observe(Event{Entity: 6})
	ents = ents[:0]
	for _, ev := range r.Events(nil) {
		ents = append(ents, ev.Entity)
	}
	if want := []uint64{5, 6}; !slices.Equal(ents, want) {
		t.Errorf("after one more: entities = %v, want %v", ents, want)
	}
	r.SetSize(8)
	obs.(BatchObserver).ObserveBatch([]Event{{Entity: 7}, {Entity: 8}})
	ents = ents[:0]
	for _, ev := range r.Events(nil) {
		ents = append(ents, ev.Entity)
	}
	if want := []uint64{5, 6, 7, 8}; !slices.Equal(ents, want) {
		t.Errorf("after growing: entities = %v, want %v", ents, want)
	}
}

// TestRecordBatch checks that a batch is recorded as its events one by one
// would be, whatever the ring's size, where the ring's next slot is and how
// long the batch is (longer than the ring included).
func TestRecordBatch(t *testing.T) {
	for _, size := range []int{1, 3, 8} {
		for _, before := range []int{0, 2, 7} {
			for _, n := range []int{0, 1, 5, 8, 19} {
				t.Run(fmt.Sprintf("size=%d/before=%d/n=%d", size, before, n), func(t *testing.T) {
					one, many := NewRecorder(size), NewRecorder(size)
					a, b := one.Register(goomba()), many.Register(goomba())
					for i := range before {
						a.Observe(Event{Entity: uint64(i)})
						b.Observe(Event{Entity: uint64(i)})
					}
					one.SetTick(9)
					many.SetTick(9)
					batch := make([]Event, n)
					for i := range batch {
						batch[i] = Event{Entity: uint64(100 + i), Machine: 5, Tick: 5, From: 1, To: 2}
						a.Observe(batch[i])
					}
					b.(BatchObserver).ObserveBatch(batch)
					if got, want := many.Events(nil), one.Events(nil); !slices.Equal(got, want) {
						t.Errorf("ObserveBatch recorded %v, want %v", got, want)
					}
					if many.Total() != one.Total() || many.Len() != one.Len() {
						t.Errorf("Total, Len = %d, %d, want %d, %d", many.Total(), many.Len(), one.Total(), one.Len())
					}
				})
			}
		}
	}
}

func TestRecorderConcurrent(t *testing.T) {
	r := NewRecorder(100)
	a, b := r.Register(goomba()), r.Register(goomba())
	var wg sync.WaitGroup
	for _, obs := range []Observer{a, b} {
		wg.Go(func() {
			for i := range 1000 {
				obs.Observe(Event{Entity: uint64(i)})
			}
		})
	}
	wg.Go(func() {
		for range 100 {
			r.Events(nil)
		}
	})
	wg.Wait()
	if r.Total() != 2000 || r.Len() != 100 {
		t.Errorf("Total, Len = %d, %d, want 2000, 100", r.Total(), r.Len())
	}
	if r.Machines()[1].Name != "goomba" {
		t.Errorf("machine 1 = %q, want goomba", r.Machines()[1].Name)
	}
}

func TestRecordAllocs(t *testing.T) {
	r := NewRecorder(16)
	obs := r.Register(goomba())
	if n := testing.AllocsPerRun(100, func() { obs.Observe(Event{Entity: 1}) }); n != 0 {
		t.Errorf("Observe allocates %v times, want 0", n)
	}
}

func TestMapping(t *testing.T) {
	d := goomba()
	d.States[1].Name = "walkEast" // renamed: walkRight is lost
	m := NewMapping([]string{"walkLeft", "walkRight", "die"}, nil, &d)
	if got := m.State(7, 0); got != 0 {
		t.Errorf("State(walkLeft) = %v, want 0", got)
	}
	if got := m.State(8, 1); got != 0 {
		t.Errorf("State(walkRight) = %v, want the fallback 0", got)
	}
	if got := m.State(9, 5); got != 0 {
		t.Errorf("State(5) = %v, want the fallback 0", got)
	}
	want := []Moved{{Entity: 8, From: "walkRight", To: 0}, {Entity: 9, From: "state 5", To: 0}}
	if !slices.Equal(m.Moved, want) {
		t.Errorf("Moved = %v, want %v", m.Moved, want)
	}
	if got := m.Lost(); !slices.Equal(got, []string{"walkRight"}) {
		t.Errorf("Lost = %v, want [walkRight]", got)
	}
	if m.String() != "1 states lost, 2 entities moved" {
		t.Errorf("String = %q", m.String())
	}
	if id := MappingBetween(new(goomba()), new(goomba())); !id.Identity() {
		t.Errorf("same names: Identity() = false, To = %v, Triggers = %v", id.To, id.Triggers)
	}
}

// TestMappingTriggers checks that triggers map by name and kind: one that
// moved is renumbered, one whose kind changed or that is gone maps to -1.
func TestMappingTriggers(t *testing.T) {
	old, d := goomba(), goomba()
	d.Triggers = []Trigger{
		{Name: "jump", Kind: TriggerMessage},
		{Name: "hit", Kind: TriggerMessage},            // was trigger 1
		{Name: "hitTriggerLeft", Kind: TriggerMessage}, // was a polled test
	}
	m := MappingBetween(&old, &d)
	for _, tt := range []struct {
		old  int32
		want int32
		ok   bool
	}{{0, -1, false}, {1, 1, true}, {2, -1, false}, {-1, -1, false}} {
		if got, ok := m.Trigger(tt.old); got != tt.want || ok != tt.ok {
			t.Errorf("Trigger(%d) = %d, %v, want %d, %v", tt.old, got, ok, tt.want, tt.ok)
		}
	}
	if m.Identity() {
		t.Error("Identity() = true with triggers renumbered")
	}
}

func TestFingerprint(t *testing.T) {
	a, b := goomba(), goomba()
	b.Name, b.States[0].Source = "other", "goomba.vdx, shape 3"
	if Fingerprint(&a) != Fingerprint(&b) {
		t.Error("a machine's name or sources changed its fingerprint")
	}
	b.Transitions[1].To = []StateID{1}
	if Fingerprint(&a) == Fingerprint(&b) {
		t.Error("a changed target kept the fingerprint")
	}
}

func TestCheck(t *testing.T) {
	d := goomba()
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	d.Transitions[0].To = []StateID{9}
	if err := d.Check(); err == nil || err.Error() != `machine: transition 0 from "walkLeft" goes to state 9, which is not a state` {
		t.Errorf("Check = %v", err)
	}
}

func ExampleRecorder() {
	rec := NewRecorder(1024)
	obs := rec.Register(goomba()) // attach obs to the runtime
	rec.SetTick(42)
	obs.Observe(Event{Entity: 3, From: 0, To: 2, Cause: CauseMessage, Trigger: 1, Transition: 1})
	for _, ev := range rec.Events(nil) {
		d := rec.Machines()[ev.Machine]
		fmt.Printf("tick %d: %s %d: %s -> %s on %s %s\n", ev.Tick, d.Name, ev.Entity,
			d.StateName(ev.From), d.StateName(ev.To), ev.Cause, d.Triggers[ev.Trigger].Name)
	}
	// Output: tick 42: goomba 3: walkLeft -> die on message hit
}

// The package documentation says an event is 40 bytes.
func TestEventSize(t *testing.T) {
	if n := unsafe.Sizeof(Event{}); n != 40 {
		t.Errorf("an Event is %d bytes; the documentation says 40", n)
	}
}

func TestRecorderSince(t *testing.T) {
	r := NewRecorder(4)
	obs := r.Register(goomba())
	entities := func(evs []Event) []uint64 {
		var out []uint64
		for _, ev := range evs {
			out = append(out, ev.Entity)
		}
		return out
	}
	evs, seq := r.Since(0, nil)
	if len(evs) != 0 || seq != 0 {
		t.Fatalf("Since(0) on an empty recorder = %v, %d", evs, seq)
	}
	for i := range 3 {
		obs.Observe(Event{Entity: uint64(i)})
	}
	evs, seq = r.Since(1, nil)
	if got := entities(evs); !slices.Equal(got, []uint64{1, 2}) || seq != 3 {
		t.Errorf("Since(1) = %v, %d, want [1 2], 3", got, seq)
	}
	for i := 3; i < 9; i++ {
		obs.Observe(Event{Entity: uint64(i)})
	}
	evs, seq = r.Since(3, nil) // 6 recorded since, the ring holds 4
	if got := entities(evs); !slices.Equal(got, []uint64{5, 6, 7, 8}) || seq != 9 {
		t.Errorf("Since(3) after wrapping = %v, %d, want [5 6 7 8], 9", got, seq)
	}
	if evs, _ := r.Since(9, nil); len(evs) != 0 {
		t.Errorf("Since(Total) = %v, want none", evs)
	}
}

// TestJSON checks that descriptions and events read as names in JSON, and
// read back.
func TestJSON(t *testing.T) {
	d := goomba()
	b, err := json.Marshal(&d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind":"table"`, `"kind":"atomic"`, `"kind":"message"`, `"final":true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
	var back Description
	if err := json.Unmarshal(b, &back); err != nil || Fingerprint(&back) != Fingerprint(&d) {
		t.Errorf("read back: %v, fingerprint %x, want %x", err, Fingerprint(&back), Fingerprint(&d))
	}
	ev := Event{Tick: 3, Entity: 7, From: 0, To: Final, Cause: CauseMessage, Trigger: 1, Transition: 2}
	b, _ = json.Marshal(ev)
	if want := `{"tick":3,"entity":7,"machine":0,"from":0,"to":-2,"cause":"message","trigger":1,"transition":2}`; string(b) != want {
		t.Errorf("event JSON = %s, want %s", b, want)
	}
	var e2 Event
	if err := json.Unmarshal(b, &e2); err != nil || e2 != ev {
		t.Errorf("event read back = %+v, %v", e2, err)
	}
	if err := json.Unmarshal([]byte(`{"cause":"wish"}`), &e2); err == nil {
		t.Error("an unknown cause read without an error")
	}
}
