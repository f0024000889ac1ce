package viewer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
)

// Reload is a new version of a machine that the game moved its agents
// onto ([Viewer.Reloaded]), as the page lists it.
type Reload struct {
	Tick    uint64 `json:"tick"` // the tick of the frame the new version was shown from
	Machine int    `json:"machine"`
	Name    string `json:"name"`    // the machine's name
	Version int    `json:"version"` // the machine's version from then on
	Report  string `json:"report"`  // what the game said changed: states renamed, added, removed, where agents went
}

// maxReloads is how many reloads the viewer lists, the latest.
const maxReloads = 16

// pendingReload is a new version of a machine that the next Frame shows.
type pendingReload struct {
	m      int
	src    Source
	desc   machine.Description
	layout Layout
	report string
}

// errReloaded is the error of a command meant for another version of the
// machine than the one the game runs.
var errReloaded = errors.New("viewer: the machine was reloaded: the command names a state, transition or trigger of another version (the page shows the new one; try again)")

// Reloaded makes machine m (the number Add returned) show s, a new version
// of its machine (a drawing reloaded while the game runs: other states,
// transitions, triggers), drawn as d (nil: laid out), from the next frame,
// and shows report (plain text, one or more lines: what was renamed,
// added, removed, where agents went) in the page's list of reloads, with
// the tick of that frame. It clears the refusal [Viewer.Refused] showed for
// m. Replace is for a source of the same description; Reloaded for a new
// one.
//
// Reloaded may be called from any goroutine, and from the function
// WhilePaused set, but not from a Source method the viewer calls (it
// holds its lock then); it calls
// s.Describe at once, and does the rest in the next Frame (or at once in
// the Frame a paused game waits in), on the game's goroutine: the
// observer goes from the old source to s, the breakpoints
// whose state (by name) or transition (by its states' names, trigger and
// condition) the new version still has are kept, with their new IDs, and
// the others are dropped; the problems reported and the breakpoint the
// game stands at name the new IDs. Call it where the game moves its agents
// onto the new version, before the Frame that follows: the transitions
// recorded from that Frame on are the new version's. The machine's
// timeline starts again there: the recording and the event stream leave
// out the transitions of the machine recorded before, which name the old
// version's states. Several calls for m before a frame make one reload,
// the last source shown, their reports joined.
//
// Reloaded panics if m is not a machine's number. It costs a Describe, the
// layout of the new version (when d has no box for some state), and at
// the frame a pass over the breakpoints.
func (v *Viewer) Reloaded(m int, s Source, d *Drawing, report string) {
	desc := s.Describe()
	l := layoutOf(&desc, d)
	report = strings.TrimRight(report, "\n")
	v.mu.Lock()
	defer v.mu.Unlock()
	e := v.mustEntry("Reloaded", m)
	e.refused = ""
	for _, p := range v.pending {
		if p.m == m {
			p.src, p.desc, p.layout = s, desc, l
			p.report = strings.TrimPrefix(p.report+"\n"+report, "\n")
			return
		}
	}
	v.pending = append(v.pending, &pendingReload{m: m, src: s, desc: desc, layout: l, report: report})
	if v.replay {
		v.applyReloads() // no game: nothing else would
		return
	}
	v.busy.Store(true)
	v.wake.Broadcast() // a paused game shows it now
}

// Refused tells the page that a new version of machine m's drawing was
// refused (err: the drawing's errors, usually a [diag.List], each with
// file, position and hint): the page shows it prominently (the game goes
// on with the machine it has) until the next Reloaded or Refused for m;
// a nil err takes it away (the designer put the drawing back as it runs).
// The page shows err's text, and when that is one line and err's chain
// holds a diag.List, each of the list's errors on a line of its own, with
// its hint under it. Refused may be called from any
// goroutine, a watcher's say; the page shows it at the next frame. Like
// Report, it checks nothing: it ignores an m that is no machine's.
func (v *Viewer) Refused(m int, err error) {
	text := ""
	if err != nil {
		text = refusal(err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if m < 0 || m >= len(v.machines) {
		return
	}
	v.machines[m].refused = text
	v.wake.Broadcast() // a paused game shows it now
}

// refusal renders err for the page: as its Error says when that takes
// several lines (it lists its errors itself, as package reload's do) or
// when err holds no diag.List; else what err says around the list, then
// the list's errors one a line, each with its hint under it.
func refusal(err error) string {
	s := err.Error()
	var l diag.List
	if strings.Contains(s, "\n") || !errors.As(err, &l) || !l.HasErrors() {
		return s
	}
	var b strings.Builder
	if around, ok := strings.CutSuffix(s, l.Error()); !ok {
		b.WriteString(s + "\n") // err says it its own way: its line first
	} else if around = strings.TrimRight(around, ": "); around != "" {
		b.WriteString(around + ":\n")
	}
	l.Errors().Print(&b, "")
	return strings.TrimSuffix(b.String(), "\n")
}

// mustEntry returns machine m, or panics saying which call named a machine
// that is not one; v.mu is held.
func (v *Viewer) mustEntry(call string, m int) *entry {
	if m < 0 || m >= len(v.machines) {
		panic(fmt.Sprintf("viewer: %s(%d): no machine %d: Add numbered %d machines, from 0", call, m, m, len(v.machines)))
	}
	return v.machines[m]
}

// applyReloads shows the new versions Reloaded gave, on the game's
// goroutine inside Frame; v.mu is held.
func (v *Viewer) applyReloads() {
	for i, p := range v.pending {
		v.apply(p)
		v.pending[i] = nil
	}
	v.pending = v.pending[:0]
}

// apply makes machine p.m the new version p.
func (v *Viewer) apply(p *pendingReload) {
	e := v.machines[p.m]
	mp := machine.MappingBetween(&e.desc, &p.desc)
	v.remap(p.m, mp, transitionsBetween(&e.desc, &p.desc, mp))
	if e.on {
		e.src.Observe(nil) // the next runQueue attaches the new tap to s
	}
	_, wasRater := e.src.(Rater)
	if _, rater := p.src.(Rater); rater != wasRater {
		e.record = !rater // another kind of source: its default
	}
	e.src, e.on, e.desc, e.layout = p.src, false, p.desc, p.layout

	e.tap = &tap{v: v, m: p.m, obs: e.tap.obs, up: ancestors(&p.desc)}
	e.version++
	e.since = v.rec.Total()
	if len(v.reloads) == maxReloads {
		v.reloads = append(v.reloads[:0], v.reloads[1:]...)
	}
	v.reloads = append(v.reloads, Reload{Tick: v.tick, Machine: p.m, Name: e.name, Version: e.version, Report: p.report})
	v.reloaded++
}

// remap renumbers what the viewer holds of machine m's states and
// transitions for its new version: the breakpoints (dropping those whose
// state or transition is gone), the problems reported and the breakpoint
// hit. trs maps each old transition to its new index, or -1.
func (v *Viewer) remap(m int, mp *machine.Mapping, trs []int32) {
	state := func(q machine.StateID) machine.StateID {
		if q >= 0 && int(q) < len(mp.To) {
			return mp.To[q]
		}
		return q // NoState, Final
	}
	transition := func(k int32) int32 {
		if k >= 0 && int(k) < len(trs) {
			return trs[k]
		}
		return -1
	}
	if old := v.bps.Load(); old != nil && old.has(m) {
		states, transitions := map[pick]bool{}, map[pick]bool{}
		for p := range old.states {
			if p.m != m {
				states[p] = true
			} else if q := state(machine.StateID(p.id)); q >= 0 {
				states[pick{m, uint64(q)}] = true
			}
		}
		for p := range old.transitions {
			if p.m != m {
				transitions[p] = true
			} else if k := transition(int32(p.id)); k >= 0 {
				transitions[pick{m, uint64(k)}] = true
			}
		}
		v.bps.Store(newBreakSet(states, transitions, len(v.machines)))
	}
	for i := range v.problems {
		if p := &v.problems[i]; p.Machine == m {
			p.State = state(p.State)
		}
	}
	if h := v.lastHit; h != nil && h.Machine == m {
		v.lastHit = &Hit{Tick: h.Tick, Machine: m, Agent: h.Agent, State: state(h.State), Transition: transition(h.Transition)}
	}
}

// transitionsBetween maps each transition of old to the transition of d
// that leaves the same state (by name) for the same states, on the same
// trigger (by name and kind) and condition, with the same flags: its index
// in d, or -1 when d has none. Of several alike, the first maps to the
// first, the second to the second.
func transitionsBetween(old, d *machine.Description, mp *machine.Mapping) []int32 {
	type key struct {
		from    machine.StateID
		to      string
		trigger int32
		cond    string
		flags   [3]bool
	}
	keyOf := func(t *machine.Transition, state func(machine.StateID) machine.StateID, trigger func(int32) int32) (key, bool) {
		k := key{from: state(t.From), trigger: -1, cond: t.Condition, flags: [3]bool{t.Final, t.Return, t.Push}}
		if k.from < 0 {
			return k, false
		}
		if t.Trigger >= 0 {
			if k.trigger = trigger(t.Trigger); k.trigger < 0 {
				return k, false
			}
		}
		var to []byte
		for _, q := range t.To {
			if q = state(q); q < 0 {
				return k, false
			}
			to = strconv.AppendInt(append(to, ' '), int64(q), 10)
		}
		k.to = string(to)
		return k, true
	}
	same := func(q machine.StateID) machine.StateID { return q }
	sameTrigger := func(t int32) int32 { return t }
	byKey := make(map[key][]int32, len(d.Transitions))
	for i := range d.Transitions {
		if k, ok := keyOf(&d.Transitions[i], same, sameTrigger); ok {
			byKey[k] = append(byKey[k], int32(i))
		}
	}
	state := func(q machine.StateID) machine.StateID {
		if q >= 0 && int(q) < len(mp.To) {
			return mp.To[q]
		}
		return machine.NoState
	}
	trigger := func(t int32) int32 {
		n, _ := mp.Trigger(t)
		return n
	}
	out := make([]int32, len(old.Transitions))
	for i := range old.Transitions {
		out[i] = -1
		if k, ok := keyOf(&old.Transitions[i], state, trigger); ok {
			if ks := byKey[k]; len(ks) > 0 {
				out[i], byKey[k] = ks[0], ks[1:]
			}
		}
	}
	return out
}
