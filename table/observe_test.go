package table_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// events collects what an observer is told.
type events []machine.Event

func (e *events) Observe(ev machine.Event) { *e = append(*e, ev) }

// render writes events with names from d.
func render(d *machine.Description, evs []machine.Event) []string {
	var out []string
	for _, ev := range evs {
		trig := "-"
		if ev.Trigger >= 0 {
			trig = d.Triggers[ev.Trigger].Name
		}
		tr := "-"
		if ev.Transition >= 0 {
			tr = describeLines(d)[ev.Transition]
		}
		out = append(out, fmt.Sprintf("%d: %s -> %s %s %s (%s)", ev.Entity, d.StateName(ev.From), d.StateName(ev.To), ev.Cause, trig, tr))
	}
	return out
}

// TestObserveFlat watches goombas: messages, polled tests, the end, and a
// chain of transitions in one update.
func TestObserveFlat(t *testing.T) {
	tb := goombaTable(t)
	d := tb.Describe()
	g := &goomba{left: -1, right: 1}
	w := &world{}
	a := table.NewAgent(tb, g, w)
	var got events
	a.Observe(&got, 42)
	if o, id := a.Observer(); o != &got || id != 42 {
		t.Errorf("Observer() = %v, %d", o, id)
	}
	copied := a // shares the observer
	for range 3 {
		g.step()
		a.Update(w)
	}
	a.Receive(w, hitByPlayer)
	g.animFrames = deathFrames
	a.Update(w)
	want := []string{
		"42: walkLeft -> walkRight test hitTriggerLeft (walkLeft --hitTriggerLeft--> walkRight)",
		"42: walkRight -> walkLeft test hitTriggerRight (walkRight --hitTriggerRight--> walkLeft)",
		"42: walkLeft -> dying message hitByPlayer (walkLeft --hitByPlayer--> dying)",
		"42: dying -> final test animationDone (dying --animationDone--> final)",
	}
	if r := render(&d, got); !slices.Equal(r, want) {
		t.Errorf("events:\n%q\nwant\n%q", r, want)
	}
	got = got[:0]
	copied.Receive(w, hitByPlayer)
	if len(got) != 1 {
		t.Errorf("a copy made after Observe reported %d events, want 1 (it shares the observer)", len(got))
	}
	copied.Observe(nil, 0)
	b := table.NewAgent(tb, g, w)
	b.Receive(w, hitByPlayer)
	if o, _ := copied.Observer(); o != nil || len(got) != 1 {
		t.Errorf("after Observe(nil): observer %v, %d events", o, len(got))
	}

	// A chain reports each transition.
	chain := mustSpec(t, "a x b\nb x c push\nc x return\noptions chain 3")
	d = chain.Describe()
	p := newProbe(chain, "x")
	c := table.NewAgent(chain, p, probeHost{})
	got = got[:0]
	c.Observe(&got, 1)
	res, err := c.Update(probeHost{})
	want = []string{
		"1: a -> b test x (a --x--> b)",
		"1: b -> c test x (b --x--> c push)",
		"1: c -> b test x (c --x--> return)",
	}
	if r := render(&d, got); !slices.Equal(r, want) || err == nil {
		t.Errorf("chain (%+v, %v): events:\n%q\nwant\n%q", res, err, r, want)
	}
}

// TestObserveChart watches a guard NPC: events, eventless transitions,
// timers, the history; and a statechart's any-state transitions.
func TestObserveChart(t *testing.T) {
	tb, noise, calm := guardChart(t)
	d := tb.Describe()
	h := &seesHost{}
	a := table.NewAgent[int](tb, 0, h)
	var got events
	a.Observe(&got, 7)
	a.Post(noise)
	a.Update(h)  // noise: alert, then stand -> chase by In(aim)
	h.frame = 1  // sees the player
	a.Update(h)  // aim -> fire
	a.SetTime(3) // the search gives up
	h.frame = 2  // does not see the player
	a.Update(h)  // fire -> aim, then the timer
	want := []string{
		"7: patrol -> aim event noise (patrol --noise--> alertHistory)",
		"7: aim -> aim eventless - (stand --- [In(aim)]--> chase)",
		"7: aim -> fire eventless - (aim --- [seesPlayer]--> fire)",
		"7: fire -> aim eventless - (fire --- [!seesPlayer]--> aim)",
		"7: aim -> patrol timer giveUp (alert --giveUp--> patrol)",
	}
	if r := render(&d, got); !slices.Equal(r, want) {
		t.Errorf("events:\n%q\nwant\n%q", r, want)
	}

	// A timer's event after an event dropped, and an event before a
	// timer's, in one update.
	got = got[:0]
	a.Post(noise)
	a.Update(h)   // back to alert, the search timer again (due at 5)
	a.Post(noise) // alert has no transition on noise: dropped
	a.SetTime(5)
	a.Update(h)
	a.Post(noise)
	a.Update(h)
	a.Post(calm)
	a.SetTime(7)
	a.Update(h)
	want = []string{
		"7: patrol -> aim event noise (patrol --noise--> alertHistory)",
		"7: aim -> patrol timer giveUp (alert --giveUp--> patrol)",
		"7: patrol -> aim event noise (patrol --noise--> alertHistory)",
		"7: aim -> patrol event calm (alert --calm--> patrol)",
	}
	if r := render(&d, got); !slices.Equal(r, want) {
		t.Errorf("events:\n%q\nwant\n%q", r, want)
	}

	st := stackChart(t)
	d = st.Describe()
	next, _ := st.LookupTest("next", "")
	alarm, _ := st.LookupTest("alarm", "")
	done, _ := st.LookupTest("done", "")
	n := &nopHost{}
	b := table.NewAgent[int](st, 0, n)
	got = got[:0]
	b.Observe(&got, 3)
	for _, ev := range []table.TestID{next, next, done, alarm, done} {
		b.Post(ev)
		b.Update(n)
	}
	// In legB, next is the any-state transition's: listed under patrol.
	want = []string{
		"3: legA -> legB event next (legA --next--> legB)",
		"3: legB -> fight event next (patrol --next--> fight push)",
		"3: fight -> legB event done (fight --done--> return)",
		"3: legB -> fight event alarm (patrol --alarm--> fight push)",
		"3: fight -> legB event done (fight --done--> return)",
	}
	if r := render(&d, got); !slices.Equal(r, want) {
		t.Errorf("events:\n%q\nwant\n%q", r, want)
	}
}

// TestObserveAllocs checks that an update with a recorder attached
// allocates nothing, and that observing a flat agent allocates once.
func TestObserveAllocs(t *testing.T) {
	tb := goombaTable(t)
	rec := machine.NewRecorder(64)
	obs := rec.Register(tb.Describe())
	g := &goomba{left: -3, right: 3}
	w := &world{}
	var a table.Agent[*goomba]
	if n := testing.AllocsPerRun(100, func() { a = table.NewAgent(tb, g, w); a.Observe(obs, 1) }); n != 1 {
		t.Errorf("NewAgent and Observe: %v allocations, want 1", n)
	}
	if n := testing.AllocsPerRun(1000, func() {
		g.step()
		if r, _ := a.Update(w); r.Final() {
			a = table.NewAgent(tb, g, w)
		}
		a.Receive(w, hitByPlayer)
	}); n != 0 {
		t.Errorf("Update and Receive, observed: %v allocations, want 0", n)
	}
	if rec.Total() == 0 {
		t.Error("the recorder recorded nothing")
	}
}
