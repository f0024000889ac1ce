package tablecrowd_test

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// eventLog is a BatchObserver that keeps what it is told, safe for the
// crowd's workers.
type eventLog struct {
	mu      sync.Mutex
	evs     []machine.Event
	batches int
}

func (l *eventLog) Observe(ev machine.Event) {
	l.mu.Lock()
	l.evs = append(l.evs, ev)
	l.mu.Unlock()
}

func (l *eventLog) ObserveBatch(evs []machine.Event) {
	l.mu.Lock()
	l.evs = append(l.evs, evs...)
	l.batches++
	l.mu.Unlock()
}

// take appends the events kept to dst, forgets them and returns dst.
func (l *eventLog) take(dst []machine.Event) []machine.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	dst = append(dst, l.evs...)
	l.evs = l.evs[:0]
	return dst
}

// TestObserveAsAgents runs TestCrowdAsAgents's game with the crowd and
// every agent observed, and checks after every frame that the crowd
// reported, entity by entity, the events the agents did: the same states,
// causes, triggers and transitions, in the same order.
func TestObserveAsAgents(t *testing.T) {
	const n, frames = 150, 250
	for _, cs := range crowdSpecs {
		for _, workers := range []int{1, 4} {
			for _, obs := range []observing{observed, observedInBatches} {
				t.Run(fmt.Sprintf("%s/workers=%d/batches=%t", cs.name, workers, obs == observedInBatches), func(t *testing.T) {
					tbl := crowdSpecTable(t, cs.spec)
					runAsAgents(t, tbl, cs.odds, n, frames, workers, obs)
				})
			}
		}
	}
}

// TestObserveEvents checks the events of a goomba crowd against its
// description: a hit is a message, a turn a test, a death's end a final,
// each naming the transition Describe lists.
func TestObserveEvents(t *testing.T) {
	c, frame := goombaCrowd(t, 64, crowd.Options[goomba]{ChunkSize: 16})
	defer c.Close()
	d := c.Describe()
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	var log eventLog
	c.Observe(&log)
	var evs []machine.Event
	for range 600 {
		if err := frame(); err != nil {
			t.Fatal(err)
		}
		evs = log.take(evs)
	}
	causes := map[machine.Cause]int{}
	finals := 0
	for _, ev := range evs {
		tr := d.Transitions[ev.Transition]
		switch {
		case tr.From != ev.From || int32(tr.Trigger) != ev.Trigger:
			t.Fatalf("event %+v: transition %d is %+v", ev, ev.Transition, tr)
		case tr.Final != (ev.To == machine.Final) || !tr.Final && tr.To[0] != ev.To:
			t.Fatalf("event %+v goes elsewhere than transition %d, %+v", ev, ev.Transition, tr)
		case (d.Triggers[ev.Trigger].Kind == machine.TriggerMessage) != (ev.Cause == machine.CauseMessage):
			t.Fatalf("event %+v: cause %s for trigger %+v", ev, ev.Cause, d.Triggers[ev.Trigger])
		}
		causes[ev.Cause]++
		if ev.To == machine.Final {
			finals++
		}
	}
	if causes[machine.CauseTest] == 0 || causes[machine.CauseMessage] == 0 || finals == 0 {
		t.Errorf("events by cause %v, %d finals: the test exercises too little", causes, finals)
	}

	c.Observe(nil)
	if err := frame(); err != nil {
		t.Fatal(err)
	}
	if evs = log.take(evs[:0]); len(evs) != 0 {
		t.Errorf("%d events after Observe(nil)", len(evs))
	}
}

// TestObserveDuringStep checks that Observe panics during a step.
func TestObserveDuringStep(t *testing.T) {
	tbl := mustSpec(t, "a x final")
	var c *tablecrowd.Crowd[*probe]
	var got any
	c, err := tablecrowd.New(tbl, table.Host[**probe](&crowdProbeHost{}), crowd.Options[*probe]{
		OnFinal: func(crowd.ID, **probe) {
			defer func() { got = recover() }()
			c.Observe(nil)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Add(0, newProbe(tbl, "x")); err != nil {
		t.Fatal(err)
	}
	if err := c.Step(); err != nil {
		t.Fatal(err)
	}
	if got == nil {
		t.Error("Observe during a step did not panic")
	}
}

// TestObserveAllocations checks that a goomba crowd's frame allocates
// nothing in steady state with an observer attached.
func TestObserveAllocations(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			c, frame := goombaCrowd(t, 1024, crowd.Options[goomba]{})
			defer c.Close()
			if err := c.Machine().SetWorkers(workers); err != nil {
				t.Fatal(err)
			}
			rec := machine.NewRecorder(1 << 12)
			c.Observe(rec.Register(c.Describe()))
			for range 1000 {
				if err := frame(); err != nil {
					t.Fatal(err)
				}
			}
			before := rec.Total()
			if n := testing.AllocsPerRun(200, func() {
				if err := frame(); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("a frame: %v allocations, want 0", n)
			}
			if rec.Total() == before {
				t.Error("nothing was recorded while allocations were counted")
			}
		})
	}
}

// TestDescribe checks that a crowd describes its table, as a crowd.
func TestDescribe(t *testing.T) {
	tbl := goombaTable(t)
	c, err := tablecrowd.New(tbl, &world{}, crowd.Options[goomba]{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, want := c.Describe(), tbl.Describe()
	if got.Kind != machine.KindTableCrowd {
		t.Errorf("Kind = %s, want crowd", got.Kind)
	}
	if got.Name != want.Name || got.Initial != want.Initial || !reflect.DeepEqual(got.States, want.States) || !slices.Equal(got.Triggers, want.Triggers) ||
		!slices.EqualFunc(got.Transitions, want.Transitions, func(a, b machine.Transition) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		t.Errorf("Describe() = %+v\nwant the table's %+v", got, want)
	}
	if machine.Fingerprint(&got) == tbl.Fingerprint() {
		t.Error("the crowd's fingerprint is its table's: a save of agents would be taken for a crowd's")
	}
}
