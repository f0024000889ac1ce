// Package guard is a guard NPC drawn as a statechart: it patrols until it
// hears a noise, then is alert (a compound state that remembers where it
// was, with a deep history) and fights (a parallel state: its weapon aims
// and fires while its legs stand and chase), gives up the search after
// five seconds in the alert state (a state timer), and dies when hit. The
// drawing is guard.scxml, made for Qt Creator's SCXML editor, and the same
// machine is drawn in draw.io as guard.drawio (made from it with
// "fsmforge convert guard.scxml guard.drawio"): both compile to the same
// table, byte for byte. fsmforge runs it with the W3C SCXML semantics, as
// table.Agent does for any statechart table.
//
// Run it with "go run ./cmd/fsmforge demo guard".
package guard

import (
	"bytes"
	_ "embed"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/table"
)

//go:embed guard.scxml
var drawing []byte

// Load reads the guard's drawing and compiles it into a statechart table,
// as a game that loads drawings at run time does.
func Load() (*table.Table, error) {
	_, res, err := Drawing()
	if err != nil {
		return nil, err
	}
	return res.Table, nil
}

// Drawing reads guard.scxml and compiles it: the chart, with where the
// designer drew each state, and what compile made of it.
func Drawing() (*chart.Chart, *compile.Result, error) {
	c, err := scxml.Read(bytes.NewReader(drawing), scxml.Options{File: "guard.scxml"})
	if err != nil {
		return nil, nil, err
	}
	res, err := compile.Compile(c, compile.Options{})
	if err != nil {
		return nil, nil, err
	}
	return c, res, nil
}

// Guard is one guard of the level: what its machine asks about it.
type Guard struct {
	ID         int
	SeesPlayer bool
}

// host answers the table's one polled test, seesPlayer, for a guard; the
// drawing has no game actions.
type host struct{ sees table.TestID }

func (h host) Test(g *Guard, t table.TestID) bool       { return t == h.sees && g.SeesPlayer }
func (host) Do(*Guard, table.PropertyID, table.ValueID) {}

// Level runs guards on the table, driven by a seeded script of noises,
// sightings and shots: every run with the same seed is the same.
type Level struct {
	t      *table.Table
	h      host
	guards []Guard
	agents []table.Agent[*Guard]
	events struct{ noise, calm, lost, hit table.TestID }
	rng    *rand.Rand
	dice   *rand.PCG // rng's source, kept to save it
	tick   int
	active []table.StateID
}

// TickSeconds is a tick's game time.
const TickSeconds = 0.1

// NewLevel returns a level of n guards running t, its script seeded by
// seed.
func NewLevel(t *table.Table, n int, seed uint64) (*Level, error) {
	dice := rand.NewPCG(seed, 0x9E3779B97F4A7C15)
	l := &Level{dice: dice, rng: rand.New(dice), guards: make([]Guard, n), agents: make([]table.Agent[*Guard], n)}
	if err := l.bind(t); err != nil {
		return nil, err
	}
	for i := range l.guards {
		l.guards[i].ID = i + 1
		l.agents[i] = table.NewAgent[*Guard](t, &l.guards[i], l.h)
	}
	return l, nil
}

// bind binds the level's host and script to t's tests, by name.
func (l *Level) bind(t *table.Table) error {
	var ok bool
	if l.h.sees, ok = t.LookupTest("seesPlayer", ""); !ok {
		return fmt.Errorf("guard: table %q has no test seesPlayer", t.Name())
	}
	for _, e := range []struct {
		name string
		id   *table.TestID
	}{{"noise", &l.events.noise}, {"calm", &l.events.calm}, {"lost", &l.events.lost}, {"hit", &l.events.hit}} {
		if *e.id, ok = t.LookupTest(e.name, ""); !ok {
			return fmt.Errorf("guard: table %q has no event %q", t.Name(), e.name)
		}
	}
	l.t = t
	return nil
}

// Step runs one tick: the script decides what each guard hears and sees,
// then every guard's agent updates. It calls report for each guard whose
// active states changed, with the event it handled ("" for none).
func (l *Level) Step(report func(g *Guard, event string, active string)) error {
	l.tick++
	now := float64(l.tick) * TickSeconds
	for i := range l.agents {
		a, g := &l.agents[i], &l.guards[i]
		if a.Done() {
			continue
		}
		g.SeesPlayer = l.rng.IntN(4) == 0
		var post table.TestID = table.NoTest
		switch r := l.rng.IntN(100); {
		case r < 6:
			post = l.events.noise
		case r < 8:
			post = l.events.lost
		case r < 9:
			post = l.events.calm
		case r < 10 && l.tick > 40:
			post = l.events.hit
		}
		if post != table.NoTest {
			if err := a.Post(post); err != nil {
				return err
			}
		}
		a.SetTime(now)
		before := l.Active(i)
		r, err := a.Update(l.h)
		if err != nil {
			return fmt.Errorf("guard %d, tick %d: %w", g.ID, l.tick, err)
		}
		if after := l.Active(i); r.Moved() && after != before && report != nil {
			ev := ""
			if r.Test != table.NoTest && l.t.Test(r.Test).Message {
				ev = l.t.Test(r.Test).Name
			}
			report(g, ev, after)
		}
	}
	return nil
}

// Tick returns the number of ticks run.
func (l *Level) Tick() int { return l.tick }

// Active returns guard i's active atomic states, by name, separated by
// spaces: "fire chase", or "dead" once it died.
func (l *Level) Active(i int) string {
	l.active = l.agents[i].AppendActive(l.active[:0])
	var names []string
	for _, s := range l.active {
		if l.t.Atomic(s) {
			names = append(names, l.t.StateName(s))
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// Agents yields each guard's agent, in order: what a viewer shows.
func (l *Level) Agents() iter.Seq[*table.Agent[*Guard]] {
	return func(yield func(*table.Agent[*Guard]) bool) {
		for i := range l.agents {
			if !yield(&l.agents[i]) {
				return
			}
		}
	}
}

// Len returns the number of guards.
func (l *Level) Len() int { return len(l.guards) }
