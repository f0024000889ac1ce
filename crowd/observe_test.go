package crowd_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/machine"
)

// collector gathers the events it is given, from several workers.
type collector struct {
	mu      sync.Mutex
	evs     []machine.Event
	batches int
}

func (c *collector) Observe(ev machine.Event) {
	c.mu.Lock()
	c.evs = append(c.evs, ev)
	c.mu.Unlock()
}

// batchCollector is a collector that takes batches.
type batchCollector struct{ collector }

func (c *batchCollector) ObserveBatch(evs []machine.Event) {
	c.mu.Lock()
	c.evs = append(c.evs, evs...)
	c.batches++
	c.mu.Unlock()
}

// take returns the events gathered, sorted, and forgets them.
func (c *collector) take() []machine.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	evs := c.evs
	c.evs = nil
	slices.SortFunc(evs, func(a, b machine.Event) int { return cmp.Compare(a.Entity, b.Entity) })
	return evs
}

// TestObserve checks that every entity that changed state is reported once,
// from and to the right states, that the events add up to Transitions, and
// that they are the same whatever the number of workers and whether the
// observer takes batches.
func TestObserve(t *testing.T) {
	var first [][]machine.Event
	for _, tc := range []struct {
		workers int
		batch   bool
	}{{1, true}, {3, true}, {2, false}} {
		t.Run(fmt.Sprintf("workers=%d/batch=%v", tc.workers, tc.batch), func(t *testing.T) {
			g := newW3Game(t, false, 256, tc.workers)
			g.populate(t, 20000, 5)
			var c *collector
			if tc.batch {
				bc := &batchCollector{}
				g.m.Observe(bc)
				c = &bc.collector
			} else {
				c = &collector{}
				g.m.Observe(c)
			}
			var all [][]machine.Event
			for step := range 12 {
				before := map[crowd.ID]crowd.StateID{}
				for s := range crowd.StateID(numW3) {
					for id := range g.m.Each(s) {
						before[id] = s
					}
				}
				g.frame()
				evs := c.take()
				all = append(all, evs)
				counts := map[[2]machine.StateID]int{}
				for i, ev := range evs {
					id := crowd.ID(ev.Entity)
					if i > 0 && evs[i-1].Entity == ev.Entity {
						t.Fatalf("step %d: entity %d reported twice", step, id)
					}
					if ev.Cause != machine.CauseCall || ev.Trigger != -1 || ev.Transition != -1 || ev.Tick != 0 || ev.Machine != 0 {
						t.Fatalf("step %d: event %+v", step, ev)
					}
					if from, ok := before[id]; !ok || machine.StateID(from) != ev.From {
						t.Fatalf("step %d: entity %d reported leaving %s, was in %s", step, id, ev.From, from)
					}
					now, ok := g.m.StateOf(id)
					switch {
					case ev.To == machine.Final && ok && id < 300000: // spawns may take a finished one's ID
						t.Fatalf("step %d: entity %d reported final, still in %s", step, id, now)
					case ev.To != machine.Final && ok && machine.StateID(now) != ev.To: // OnFinal removes some
						t.Fatalf("step %d: entity %d reported going to %s, is in %s", step, id, ev.To, now)
					}
					counts[[2]machine.StateID{ev.From, ev.To}]++
				}
				trs := g.m.Transitions(nil)
				n := 0
				for _, tr := range trs {
					n += tr.N
					if got := counts[[2]machine.StateID{tr.From, tr.To}]; got != tr.N {
						t.Errorf("step %d: %d events from %s to %s, Transitions says %d", step, got, tr.From, tr.To, tr.N)
					}
				}
				if n != len(evs) || n == 0 {
					t.Fatalf("step %d: %d events, %d transitions", step, len(evs), n)
				}
			}
			if tc.batch && c.batches == 0 {
				t.Error("a BatchObserver got no batch")
			}
			if first == nil {
				first = all
			} else if !slices.EqualFunc(first, all, slices.Equal) {
				t.Error("the events differ from those of 1 worker")
			}
			g.m.Observe(nil)
			g.frame()
			if evs := c.take(); len(evs) != 0 {
				t.Errorf("%d events after Observe(nil)", len(evs))
			}
		})
	}
}

func TestObserveRecorder(t *testing.T) {
	m := newW3(t, perBucketDefs(), 10000, 2, crowd.Options[monster]{})
	rec := machine.NewRecorder(1 << 20)
	m.Observe(rec.Register(m.Describe()))
	want := 0
	for range 5 {
		if err := m.Step(); err != nil {
			t.Fatal(err)
		}
		for _, tr := range m.Transitions(nil) {
			want += tr.N
		}
	}
	if got := rec.Total(); got != uint64(want) {
		t.Errorf("the recorder recorded %d events, want %d", got, want)
	}
	d := rec.Machines()[0]
	ev := rec.Events(nil)[0]
	if d.Kind != machine.KindCrowd || d.StateName(ev.From) == "" || d.StateName(ev.To) == ev.To.String() {
		t.Errorf("event %+v does not name states of %+v", ev, d)
	}
}

// TestObserverPanics checks that a panicking observer makes Step panic on
// the caller's goroutine, with a PanicError that says so, and loses no
// entity.
func TestObserverPanics(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			m := newW3(t, perEntityDefs(), 20000, 4, crowd.Options[monster]{ChunkSize: 500})
			_ = m.SetWorkers(workers)
			m.Observe(machine.ObserverFunc(func(ev machine.Event) {
				if ev.Entity%1000 == 7 {
					panic("seen")
				}
			}))
			pe := catch(t, m)
			if !pe.Observer || pe.Value != "seen" || !strings.HasPrefix(pe.Error(), "crowd: the observer panicked on the events of state ") {
				t.Errorf("PanicError = %v (Observer %v)", pe, pe.Observer)
			}
			n := 0
			for _, c := range m.Counts(nil) {
				n += c
			}
			if n != 20000 || m.Len() != 20000 {
				t.Errorf("after the panic: %d in the buckets, Len %d, want 20000", n, m.Len())
			}
			m.Observe(nil)
			if err := m.Step(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestObserveAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	m := newW3(t, perEntityDefs(), 10000, 5, crowd.Options[monster]{ChunkSize: 512})
	_ = m.SetWorkers(2)
	rec := machine.NewRecorder(4096)
	m.Observe(rec.Register(m.Describe()))
	for range 20 {
		_ = m.Step()
	}
	if a := testing.AllocsPerRun(20, func() { _ = m.Step() }); a != 0 {
		t.Errorf("Step with a recorder attached allocates %v times, want 0", a)
	}
}

func TestDescribe(t *testing.T) {
	m := newW3(t, perEntityDefs(), 0, 1, crowd.Options[monster]{})
	d := m.Describe()
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	want := machine.Description{Kind: machine.KindCrowd, Initial: machine.NoState, States: []machine.State{
		{Name: "idle", Parent: machine.NoState}, {Name: "wander", Parent: machine.NoState},
		{Name: "chase", Parent: machine.NoState}, {Name: "flee", Parent: machine.NoState},
	}}
	if fmt.Sprint(d) != fmt.Sprint(want) {
		t.Errorf("Describe() = %+v, want %+v", d, want)
	}
}
