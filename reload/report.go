package reload

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// Report is what one reload of a drawing did: the new version swapped in,
// with what changed and where the agents went, or why it was refused.
type Report struct {
	File string // the drawing's path, as given to Load
	Tick uint64 // the frame it was swapped in at (Frame's tick)

	// Err says why the new version was refused (a *RefusedError: it does
	// not read, does not compile, or a target refused it); the game runs
	// on the version it had, and the rest of the report is empty.
	Err error

	// What changed between the versions, by state name. A state drawn as
	// the same shape under a new name is renamed, and its agents follow
	// it.
	Renamed []Renamed
	Added   []string
	Removed []string

	// Transitions counts the transitions of the old and the new version.
	Transitions [2]int

	// Fallback is the state of the new version where agents and entities
	// of a removed state went, and why: "the initial state", "the
	// drawing's fallback" (chart.Chart's Fallback) or "the game's
	// fallback" (Config.Fallback, which wins).
	Fallback, Why string

	// Targets says, for each target (Drawing.Run), which agents or
	// entities went to the fallback: those of removed states, and
	// statechart agents whose configuration no longer fits.
	Targets []Moves

	// Warnings holds the new version's warnings (unreachable states,
	// actions left out...), each with its position and hint.
	Warnings diag.List

	// Phases times the reload.
	Phases Phases

	table *table.Table
}

// Renamed is a state drawn as the same shape in both versions under
// another name.
type Renamed struct{ From, To string }

// Moves lists the entities of one target that went to the fallback.
type Moves struct {
	Target string
	Moved  []machine.Moved // Entity as the target numbers them; To the new table's state
}

// Phases says how long each step of a reload took, from the moment the
// editor finished writing the file (its modification time) to the moment
// every target ran the new table. The modification time is the file's
// last write: for a temporary file renamed over the drawing, the
// temporary file's, so Notice includes the rest of the save; and some
// file systems keep it coarsely (a clock tick, a second, two on FAT),
// which makes Notice, and Total, too long by up to as much.
type Phases struct {
	Notice  time.Duration // from the file's modification time until the watcher saw the change (see below)
	Settle  time.Duration // waiting for the file to stay unchanged
	Read    time.Duration // reading the file and importing the drawing
	Check   time.Duration // compile's checks
	Compile time.Duration // lowering into a table
	Wait    time.Duration // waiting for the frame boundary
	Swap    time.Duration // moving every target onto the new table
}

// Total returns the sum of the phases: from the write to the swap.
func (p Phases) Total() time.Duration {
	return p.Notice + p.Settle + p.Read + p.Check + p.Compile + p.Wait + p.Swap
}

// String renders the phases in milliseconds.
func (p Phases) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/1e6) }
	return fmt.Sprintf("%s ms: notice %s, settle %s, read %s, check %s, compile %s, wait %s, swap %s",
		ms(p.Total()), ms(p.Notice), ms(p.Settle), ms(p.Read), ms(p.Check), ms(p.Compile), ms(p.Wait), ms(p.Swap))
}

// phases returns the phases of times, the frame having started at frame
// and ended the swap at end.
func (t phaseTimes) phases(frame, end time.Time) Phases {
	since := func(a, b time.Time) time.Duration {
		if a.IsZero() || b.IsZero() || b.Before(a) {
			return 0
		}
		return b.Sub(a)
	}
	return Phases{
		Notice:  since(t.written, t.noticed),
		Settle:  since(t.noticed, t.started),
		Read:    since(t.started, t.read),
		Check:   since(t.read, t.checked),
		Compile: since(t.checked, t.compiled),
		Wait:    since(t.compiled, frame),
		Swap:    since(frame, end),
	}
}

// Table returns the table swapped in, or nil for a refused version.
func (r Report) Table() *table.Table { return r.table }

// String renders the report as the log shows it:
//
//	goomba.vdx: reloaded at tick 42 (21.3 ms: notice 0.4, ...)
//		renamed walkLeft → strollLeft
//		added idle
//		removed death
//		goombas: 1 went to walkLeft (the initial state): #2 (was in death)
func (r Report) String() string {
	var b strings.Builder
	if r.Err != nil {
		fmt.Fprintf(&b, "%s: refused at tick %d: %v\n", r.File, r.Tick, r.Err)
		return b.String()
	}
	fmt.Fprintf(&b, "%s: reloaded at tick %d (%s)\n", r.File, r.Tick, r.Phases)
	for _, n := range r.Renamed {
		fmt.Fprintf(&b, "\trenamed %s → %s\n", n.From, n.To)
	}
	if len(r.Added) > 0 {
		fmt.Fprintf(&b, "\tadded %s\n", strings.Join(r.Added, ", "))
	}
	if len(r.Removed) > 0 {
		fmt.Fprintf(&b, "\tremoved %s\n", strings.Join(r.Removed, ", "))
	}
	if r.Transitions[0] != r.Transitions[1] {
		fmt.Fprintf(&b, "\ttransitions: %d, were %d\n", r.Transitions[1], r.Transitions[0])
	}
	if len(r.Renamed)+len(r.Added)+len(r.Removed) == 0 {
		b.WriteString("\tthe same states\n")
	}
	for _, t := range r.Targets {
		if len(t.Moved) == 0 {
			if len(r.Removed) > 0 {
				fmt.Fprintf(&b, "\t%s: every one kept its state\n", t.Target)
			}
			continue
		}
		fmt.Fprintf(&b, "\t%s: %d went to %s (%s): %s\n", t.Target, len(t.Moved), r.Fallback, r.Why, r.movedList(t.Moved, 8))
	}
	r.Warnings.Print(&b, "\t")
	return b.String()
}

// movedList renders up to max moves, "#2 (was in death), #5 (was in death) and
// 3 more". An entity whose state the new version still has was restarted:
// a statechart agent whose configuration (its active states, its history,
// its stack) no longer fits.
func (r Report) movedList(ms []machine.Moved, max int) string {
	var parts []string
	for i, m := range ms {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(ms)-max))
			break
		}
		if _, kept := r.lookup(m.From); kept {
			parts = append(parts, fmt.Sprintf("#%d (restarted from %s: its configuration no longer fits)", m.Entity, m.From))
			continue
		}
		parts = append(parts, fmt.Sprintf("#%d (was in %s)", m.Entity, m.From))
	}
	return strings.Join(parts, ", ")
}

// lookup looks name up among the new version's states.
func (r Report) lookup(name string) (table.StateID, bool) {
	if r.table == nil {
		return table.NoState, false
	}
	return r.table.LookupState(name)
}

// apply swaps l, compiled off the game's goroutine, into the drawing's
// targets, or reports why not.
func (d *Drawing) apply(l *loaded, tick uint64) Report {
	frame := time.Now()
	rep := Report{File: d.path, Tick: tick}
	if l.err != nil {
		return d.refuse(rep, l.err)
	}
	nt, nd := l.res.Table, l.res.Describe()
	m := machine.MappingBetween(d.desc, nd)
	rep.Renamed = d.follow(l, m)
	rep.Fallback, rep.Why = nt.StateName(table.StateID(m.Fallback)), "the initial state"
	for _, f := range []struct{ name, whose string }{{l.chart.Fallback, "the drawing's"}, {d.cfg.Fallback, "the game's"}} {
		if f.name == "" {
			continue
		}
		if q, ok := nt.LookupState(f.name); ok {
			m.Fallback = machine.StateID(q)
			rep.Fallback, rep.Why = f.name, f.whose+" fallback"
		} else {
			rep.Why = fmt.Sprintf("%s: %s fallback %q is not in the new version", rep.Why, f.whose, f.name)
		}
	}
	rep.Removed = m.Lost()
	rep.Transitions = [2]int{len(d.desc.Transitions), len(nd.Transitions)}
	kept := make([]bool, len(nd.States))
	for _, q := range m.To {
		if q >= 0 {
			kept[q] = true
		}
	}
	for q, s := range nd.States {
		if !kept[q] {
			rep.Added = append(rep.Added, s.Name)
		}
	}
	commits := make([]func(), 0, len(d.targets))
	for _, tg := range d.targets {
		tm := *m // a target may change its copy: the next gets the Reloader's
		tm.To, tm.Triggers, tm.Moved = slices.Clone(m.To), slices.Clone(m.Triggers), nil
		commit, err := tg.t.PrepareReload(nt, &tm)
		if err != nil {
			return d.refuse(Report{File: d.path, Tick: tick}, &RefusedError{Path: d.path, What: "does not fit the game", Err: fmt.Errorf("%s: %w", tg.name, err)})
		}
		commits = append(commits, commit)
		rep.Targets = append(rep.Targets, Moves{Target: tg.name, Moved: tm.Moved})
	}
	for _, commit := range commits {
		commit()
	}
	d.chart, d.res, d.desc = l.chart, l.res, nd
	rep.table = nt
	rep.Warnings = warnings(l.res)
	rep.Phases = l.times.phases(frame, time.Now())
	if v := d.r.opt.Viewer; v != nil && len(d.views) > 0 {
		text := rep.String()
		drawing := viewer.FromCompile(d.chart, d.res)
		for _, w := range d.views {
			v.Reloaded(w.m, w.source(nt), drawing, text)
		}
	}
	return rep
}

// refuse reports err for the drawing, and shows it on the viewer.
func (d *Drawing) refuse(rep Report, err error) Report {
	rep.Err = err
	if v := d.r.opt.Viewer; v != nil {
		for _, w := range d.views {
			v.Refused(w.m, err)
		}
	}
	return rep
}

// follow makes m send the agents of a state the designer renamed to the
// renamed state, and returns the renames. A rename is a shape (a state's
// chart ID) that both versions have, named by the old one as a state the
// new one lacks and by the new one as a state the old one lacked: an
// editor that numbers its shapes anew at each save (yEd does) may give a
// shape's ID to another state, which is then no rename, since that
// state's name is in both versions.
func (d *Drawing) follow(l *loaded, m *machine.Mapping) []Renamed {
	if strings.EqualFold(filepath.Ext(d.path), ".graphml") {
		return nil // yEd numbers its nodes anew at each save
	}
	taken := make([]bool, l.res.Table.NumStates()) // new states an old one maps to
	for _, q := range m.To {
		if q >= 0 && int(q) < len(taken) {
			taken[q] = true
		}
	}
	var out []Renamed
	for _, s := range d.chart.States {
		oq, ok := d.res.States[s.ID]
		if !ok || oq < 0 || int(oq) >= len(m.To) || m.To[oq] != machine.NoState {
			continue
		}
		nq, ok := l.res.States[s.ID]
		if !ok || nq < 0 || int(nq) >= len(taken) || taken[nq] {
			continue
		}
		taken[nq] = true
		m.To[oq] = machine.StateID(nq)
		out = append(out, Renamed{From: m.Old[oq], To: l.res.Table.StateName(nq)})
	}
	return out
}
