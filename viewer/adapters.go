package viewer

import (
	"iter"
	"slices"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/fsm"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// TableAgents is the Source of table agents (flat or statechart) that
// run t: agents yields them as they are now, each time the viewer asks
// ([Each] makes it of the game's slice); an agent's ID is its position.
// They take messages and events from the viewer ([Poster]). Observing an
// agent allocates once, 24 bytes, the first time; an agent the game
// replaces (a goomba that comes back) is observed again at the next frame.
func TableAgents[E any](t *table.Table, agents iter.Seq[*table.Agent[E]]) Source {
	return &tableAgents[E]{t: t, agents: agents}
}

// Each yields a pointer to each element of the slice *s, as it is when
// the viewer asks: a Source's agents, from the game's slice (given by
// pointer, so that the viewer sees it grow).
func Each[T any](s *[]T) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		for i := range *s {
			if !yield(&(*s)[i]) {
				return
			}
		}
	}
}

type tableAgents[E any] struct {
	t      *table.Table
	agents iter.Seq[*table.Agent[E]]
	snap   table.Snapshot
	active []table.StateID
	holds  map[any][]bool // by entity, the tests held; nil without a HoldHost
}

func (s *tableAgents[E]) Describe() machine.Description { return s.t.Describe() }
func (s *tableAgents[E]) Len() int                      { return count(s.agents) }

// count returns how many values seq yields.
func count[T any](seq iter.Seq[T]) int {
	n := 0
	for range seq {
		n++
	}
	return n
}

// nth returns the value seq yields at position id.
func nth[T any](seq iter.Seq[*T], id uint64) (*T, bool) {
	i := uint64(0)
	for v := range seq {
		if i == id {
			return v, true
		}
		i++
	}
	return nil, false
}

func (s *tableAgents[E]) Agent(id uint64, a *Agent) bool {
	ag, ok := nth(s.agents, id)
	if !ok {
		return false
	}
	fillTableAgent(ag, &s.snap, a)
	a.ID = id
	if s.holds != nil {
		for i, on := range s.holds[any(ag.Entity())] {
			if on {
				a.Holding = append(a.Holding, int32(i))
			}
		}
	}
	return true
}

// fillTableAgent fills a with what agent ag's snapshot says, taken into
// snap.
func fillTableAgent[E any](ag *table.Agent[E], snap *table.Snapshot, a *Agent) {
	ag.Snapshot(snap)
	a.State, a.Done, a.Time = tableState(ag.State()), snap.Done, snap.Now
	if snap.Statechart {
		for _, q := range snap.Active {
			a.Active = append(a.Active, tableState(q))
		}
		for _, h := range snap.History {
			rec := History{State: tableState(h.History)}
			for _, q := range h.States {
				rec.States = append(rec.States, tableState(q))
			}
			a.History = append(a.History, rec)
		}
		for _, ev := range snap.Internal {
			a.Pending = append(a.Pending, int32(ev))
		}
		for _, ev := range snap.External {
			a.Pending = append(a.Pending, int32(ev))
		}
		for _, tm := range snap.Timers {
			a.Timers = append(a.Timers, Timer{Trigger: int32(tm.Event), Due: tm.Due, Left: tm.Due - snap.Now})
		}
	}
	for _, q := range snap.Stack {
		a.Stack = append(a.Stack, tableState(q))
	}
	for _, m := range snap.Posted {
		a.Pending = append(a.Pending, int32(m))
	}
}

func (s *tableAgents[E]) Agents(st machine.StateID, max int, dst []uint64) []uint64 {
	i := uint64(0)
	for ag := range s.agents {
		if len(dst) >= max {
			break
		}
		if st == machine.NoState || st >= 0 && !ag.Done() && ag.In(table.StateID(st)) {
			dst = append(dst, i)
		}
		i++
	}
	return dst
}

func (s *tableAgents[E]) Counts(counts []int) {
	for ag := range s.agents {
		if ag.Done() {
			continue
		}
		s.active = ag.AppendActive(s.active[:0])
		for _, q := range s.active {
			if int(q) < len(counts) {
				counts[q]++
			}
		}
	}
}

func (s *tableAgents[E]) Observe(o machine.Observer) {
	i := uint64(0)
	for ag := range s.agents {
		if cur, id := ag.Observer(); cur != o || id != i {
			ag.Observe(o, i)
		}
		i++
	}
}

func (s *tableAgents[E]) Post(id uint64, trigger int32) error {
	ag, ok := nth(s.agents, id)
	if !ok {
		return errNoAgent
	}
	return ag.Post(table.TestID(trigger))
}

// tableState returns a table's state as package machine numbers it.
func tableState(q table.StateID) machine.StateID {
	switch {
	case q == table.Final:
		return machine.Final
	case int(q) >= table.MaxStates:
		return machine.NoState // NoState, and the markers a stack holds
	}
	return machine.StateID(q)
}

// Crowd is the Source of a crowd's entities, by their crowd IDs. It
// counts its own transitions ([Rater]): the viewer records its entities'
// events only when the page asks, since that costs 4 to 8% of a step of a
// million entities where counting costs nothing.
func Crowd[E any](m *crowd.Machine[E]) Source { return &crowdSource[E]{m: m} }

type crowdSource[E any] struct {
	m   *crowd.Machine[E]
	obs machine.Observer
	cts []int
	trs []crowd.Transition
}

func (s *crowdSource[E]) Describe() machine.Description { return s.m.Describe() }
func (s *crowdSource[E]) Len() int                      { return s.m.Len() }

func (s *crowdSource[E]) Agent(id uint64, a *Agent) bool {
	st, ok := s.m.StateOf(crowd.ID(id))
	if !ok {
		return false
	}
	a.ID, a.State = id, machine.StateID(st)
	return true
}

func (s *crowdSource[E]) Agents(st machine.StateID, max int, dst []uint64) []uint64 {
	return crowdAgents(s.m, st, max, dst)
}

// crowdAgents appends up to max entities of m in state st, or of any.
func crowdAgents[E any](m *crowd.Machine[E], st machine.StateID, max int, dst []uint64) []uint64 {
	for q := range crowd.StateID(m.NumStates()) {
		if st != machine.NoState && machine.StateID(q) != st {
			continue
		}
		for id := range m.Each(q) {
			if len(dst) >= max {
				return dst
			}
			dst = append(dst, uint64(id))
		}
	}
	return dst
}

func (s *crowdSource[E]) Counts(counts []int) {
	s.cts = s.m.Counts(s.cts[:0])
	copy(counts, s.cts)
}

func (s *crowdSource[E]) Observe(o machine.Observer) {
	if o != s.obs {
		s.m.Observe(o)
		s.obs = o
	}
}

func (s *crowdSource[E]) Transitions(dst []machine.Count) []machine.Count {
	s.trs = s.m.Transitions(s.trs[:0])
	return append(dst, s.trs...)
}

// TableCrowd is the Source of a table run over a crowd, by crowd IDs. It
// counts its own transitions as [Crowd] does, and takes messages from the
// viewer ([Poster]).
func TableCrowd[E any](c *tablecrowd.Crowd[E]) Source { return &tableCrowd[E]{c: c} }

type tableCrowd[E any] struct {
	c   *tablecrowd.Crowd[E]
	obs machine.Observer
	cts []int
	trs []crowd.Transition
}

func (s *tableCrowd[E]) Describe() machine.Description { return s.c.Describe() }
func (s *tableCrowd[E]) Len() int                      { return s.c.Machine().Len() }

func (s *tableCrowd[E]) Agent(id uint64, a *Agent) bool {
	st, ok := s.c.Machine().StateOf(crowd.ID(id))
	if !ok {
		return false
	}
	a.ID, a.State = id, machine.StateID(st)
	return true
}

func (s *tableCrowd[E]) Agents(st machine.StateID, max int, dst []uint64) []uint64 {
	return crowdAgents(s.c.Machine(), st, max, dst)
}

func (s *tableCrowd[E]) Counts(counts []int) {
	s.cts = s.c.Machine().Counts(s.cts[:0])
	copy(counts, s.cts)
}

func (s *tableCrowd[E]) Observe(o machine.Observer) {
	if o != s.obs {
		s.c.Observe(o)
		s.obs = o
	}
}

func (s *tableCrowd[E]) Transitions(dst []machine.Count) []machine.Count {
	s.trs = s.c.Machine().Transitions(s.trs[:0])
	return append(dst, s.trs...)
}

func (s *tableCrowd[E]) Post(id uint64, trigger int32) error {
	return s.c.Post(crowd.ID(id), table.TestID(trigger))
}

// GuardMachines is the Source of guarded machines that share graph g:
// machines yields them as they are now, each time the viewer asks (see
// [Each]); entity numbers each machine's entity, as the graph's observer
// does ([fsm.Graph.Observe]): that number is the agent's ID. Finding an
// agent by ID goes through the machines.
func GuardMachines[E, T any](g *fsm.Graph[E, T], machines iter.Seq[*fsm.GuardMachine[E, T]], entity func(E) uint64) Source {
	return &guardMachines[E, T]{g: g, machines: machines, entity: entity}
}

type guardMachines[E, T any] struct {
	g        *fsm.Graph[E, T]
	machines iter.Seq[*fsm.GuardMachine[E, T]]
	entity   func(E) uint64
	obs      machine.Observer
}

func (s *guardMachines[E, T]) Describe() machine.Description { return s.g.Describe() }
func (s *guardMachines[E, T]) Len() int                      { return count(s.machines) }

func (s *guardMachines[E, T]) Agent(id uint64, a *Agent) bool {
	for m := range s.machines {
		if s.entity(m.Entity()) == id {
			a.ID, a.State, a.Previous = id, fsmState(m.State()), fsmState(m.Previous())
			return true
		}
	}
	return false
}

func (s *guardMachines[E, T]) Agents(st machine.StateID, max int, dst []uint64) []uint64 {
	for m := range s.machines {
		if len(dst) >= max {
			break
		}
		if st == machine.NoState || fsmState(m.State()) == st {
			dst = append(dst, s.entity(m.Entity()))
		}
	}
	return dst
}

func (s *guardMachines[E, T]) Counts(counts []int) {
	for m := range s.machines {
		if q := m.State(); q != fsm.NoState && int(q) < len(counts) {
			counts[q]++
		}
	}
}

func (s *guardMachines[E, T]) Observe(o machine.Observer) {
	if o != s.obs {
		s.g.Observe(o, s.entity)
		s.obs = o
	}
}

// fsmState returns an fsm state as package machine numbers it.
func fsmState(q fsm.StateID) machine.StateID {
	if q == fsm.NoState {
		return machine.NoState
	}
	return machine.StateID(q)
}

// BehaviorMachines is the Source of behaviour machines whose states r
// registers: machines yields them as they are now, each time the viewer
// asks; entity numbers each machine's owner, as the registry's observer
// does ([fsm.Behaviors.Observe]): that number is the agent's ID. Its
// transitions are those its machines have taken so far.
func BehaviorMachines[E, M any](r *fsm.Behaviors[E, M], machines iter.Seq[*fsm.BehaviorMachine[E, M]], entity func(E) uint64) Source {
	return &behaviorMachines[E, M]{r: r, machines: machines, entity: entity}
}

type behaviorMachines[E, M any] struct {
	r        *fsm.Behaviors[E, M]
	machines iter.Seq[*fsm.BehaviorMachine[E, M]]
	entity   func(E) uint64
	obs      machine.Observer
}

func (s *behaviorMachines[E, M]) Describe() machine.Description { return s.r.Describe() }
func (s *behaviorMachines[E, M]) Len() int                      { return count(s.machines) }

func (s *behaviorMachines[E, M]) Agent(id uint64, a *Agent) bool {
	for m := range s.machines {
		if s.entity(m.Owner()) == id {
			a.ID, a.State, a.Previous = id, fsmState(m.State()), fsmState(s.r.StateOf(m.Previous()))
			return true
		}
	}
	return false
}

func (s *behaviorMachines[E, M]) Agents(st machine.StateID, max int, dst []uint64) []uint64 {
	for m := range s.machines {
		if len(dst) >= max {
			break
		}
		if st == machine.NoState || fsmState(m.State()) == st {
			dst = append(dst, s.entity(m.Owner()))
		}
	}
	return dst
}

func (s *behaviorMachines[E, M]) Counts(counts []int) {
	for m := range s.machines {
		if q := m.State(); q != fsm.NoState && int(q) < len(counts) {
			counts[q]++
		}
	}
}

func (s *behaviorMachines[E, M]) Observe(o machine.Observer) {
	if o != s.obs {
		s.r.Observe(o, s.entity)
		s.obs = o
	}
}

// Custom is a Source made of functions, for machines the viewer has no
// Source of its own for: code generated by fsmforge gen (whose file's
// Describe, with gen -observe, is the description; Observe attaches the
// observer to each machine), or the game's own. Agent IDs are indexes
// from 0 to Len()-1. Nil functions leave their part out: with no Observe,
// the viewer shows states but records no events.
type Custom struct {
	Description machine.Description
	N           func() int                       // how many agents
	State       func(i int) machine.StateID      // agent i's current state
	Attach      func(o machine.Observer)         // attach o to every agent (nil: detach); called when o changes
	Send        func(i int, trigger int32) error // send an event or message to agent i

	attached machine.Observer
}

var _ Poster = (*Custom)(nil)

// Describe returns c.Description.
func (c *Custom) Describe() machine.Description { return c.Description }

// Len returns c.N(), or 0.
func (c *Custom) Len() int {
	if c.N == nil {
		return 0
	}
	return c.N()
}

// Agent fills a from c.State.
func (c *Custom) Agent(id uint64, a *Agent) bool {
	if c.State == nil || id >= uint64(c.Len()) {
		return false
	}
	a.ID, a.State = id, c.State(int(id))
	return true
}

// Agents lists the agents in state s from c.State.
func (c *Custom) Agents(s machine.StateID, max int, dst []uint64) []uint64 {
	for i := range c.Len() {
		if len(dst) >= max || c.State == nil {
			break
		}
		if s == machine.NoState || c.State(i) == s {
			dst = append(dst, uint64(i))
		}
	}
	return dst
}

// Counts counts the agents by c.State.
func (c *Custom) Counts(counts []int) {
	for i := range c.Len() {
		if c.State == nil {
			return
		}
		if q := c.State(i); q >= 0 && int(q) < len(counts) {
			counts[q]++
		}
	}
}

// Observe calls c.Attach when o is not the observer attached last.
func (c *Custom) Observe(o machine.Observer) {
	if c.Attach != nil && o != c.attached {
		c.Attach(o)
		c.attached = o
	}
}

// Post calls c.Send, or returns an error when there is none.
func (c *Custom) Post(id uint64, trigger int32) error {
	if c.Send == nil {
		return errNoPost
	}
	return c.Send(int(id), trigger)
}

// HoldHost returns a host that answers as h does, but that makes hold the
// polled tests the page makes hold for the agents of src, a TableAgents
// Source of agents that update with it: the page's test boxes then work
// for a running game's agent as for the simulator's, so that a designer
// can make the goomba followed see its trigger. An agent is known by its
// entity (a pointer, usually). A test asked costs a look-up in a map while
// some test is held, a length check otherwise. HoldHost panics if src is
// not a TableAgents Source of entities of type E.
func HoldHost[E comparable](src Source, h table.Host[E]) table.Host[E] {
	ta, ok := src.(*tableAgents[E])
	if !ok {
		panic("viewer.HoldHost: src is not a viewer.TableAgents Source of agents of this entity type")
	}
	if ta.holds == nil {
		ta.holds = map[any][]bool{}
	}
	return &holdHost[E]{ta: ta, h: h}
}

type holdHost[E comparable] struct {
	ta *tableAgents[E]
	h  table.Host[E]
}

func (x *holdHost[E]) Test(e E, t table.TestID) bool {
	if len(x.ta.holds) > 0 {
		if m := x.ta.holds[e]; int(t) < len(m) && m[t] {
			return true
		}
	}
	return x.h.Test(e, t)
}

func (x *holdHost[E]) Do(e E, p table.PropertyID, v table.ValueID) { x.h.Do(e, p, v) }

// Hold makes polled test trigger hold for agent id, or not, when a
// HoldHost answers its tests.
func (s *tableAgents[E]) Hold(id uint64, trigger int32, on bool) error {
	if s.holds == nil {
		return errNoHold
	}
	if trigger < 0 || int(trigger) >= s.t.NumTests() || s.t.Test(table.TestID(trigger)).Message {
		return errNotTest
	}
	ag, ok := nth(s.agents, id)
	if !ok {
		return errNoAgent
	}
	key := any(ag.Entity())
	m := s.holds[key]
	if m == nil {
		m = make([]bool, s.t.NumTests())
	}
	m[trigger] = on
	if slices.Contains(m, true) {
		s.holds[key] = m
	} else {
		delete(s.holds, key)
	}
	return nil
}

// canHold reports whether Hold works: a HoldHost answers the tests.
func (s *tableAgents[E]) canHold() bool { return s.holds != nil }
