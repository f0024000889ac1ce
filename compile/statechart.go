package compile

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/cond"
	"github.com/fsmforge/fsmforge/table"
)

// isStatechart reports whether c needs a statechart table: a chart that
// says it is one (an SCXML document), or one with states that
// nest, parallel or history states, exit actions, actions on transitions
// or that raise, send or cancel events, transitions with several targets,
// none, or internal ones; in a plain diagram, a label that says more than
// a table transition holds: "event [guard]", or "/ action". Other charts
// are flat and compile as they always have.
func isStatechart(c *chart.Chart, plain bool) bool {
	if c.Statechart {
		return true
	}
	for i := range c.States {
		s := &c.States[i]
		if s.Parent != "" || s.Kind == chart.ParallelState || s.Kind == chart.HistoryState || s.Kind == chart.DeepHistoryState || len(s.Exit) > 0 {
			return true
		}
		for _, a := range s.Entry {
			if a.Kind != chart.GameAction {
				return true
			}
		}
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		if len(t.Also) > 0 || t.Internal || len(t.Actions) > 0 || t.Target.Kind == chart.ToNone {
			return true
		}
		if plain && (t.Event != "" && t.Guard != "" || performsActions(t)) {
			return true
		}
		if _, ok := afterDelay(t.Event); ok && c.Stencil == nil {
			return true
		}
	}
	return false
}

// sc is what lowering a statechart adds to a lowering.
type sc struct {
	order     []int // chart states that become table states, in document order (parents first)
	parent    []int // per lowered state: its parent's lowered index, or -1
	kind      []table.StateKind
	initial   []int           // per chart state: the lowered child marked initial, or -1
	start     []int           // per chart state (and the top, at len): its start pseudo-state, or -1
	final     int             // the lowered final state made for transitions to the final state, or -1
	events    []string        // the events, in the order of their test IDs among the messages
	eventIdx  map[string]int  // event name → test index
	polledIdx map[testKey]int // polled test → test index
	timers    map[string]table.TimerID
	conds     map[string]bool // a plain drawing's names tested as conditions: an event so named is polled too
	noted     map[string]bool // events of conds noted as polled
	sorted    []string        // the events' names, sorted, once all are known
	exit      [][]table.Action
	completes []bool               // per lowered state: a compound with a final child, or a parallel
	pushes    bool                 // some transition pushes
	trans     [][]table.Transition // per lowered state (and the root, at len): its transitions
	dflt      []table.Transition
}

// analyzeChart checks a statechart and lowers it: the states in document
// order, parents before their children; the transitions with their
// events and conditions; the actions.
func (x *lowering) analyzeChart() {
	x.sc = &sc{final: -1, eventIdx: map[string]int{}, polledIdx: map[testKey]int{}, timers: map[string]table.TimerID{}}
	x.lowerTree()
	if len(x.states) > table.MaxStates {
		x.errorf(x.chartPos(), ErrLimit, "split the machine into several charts", "%d states; a table holds at most %d", len(x.states), table.MaxStates)
	}
	if x.diags.HasErrors() {
		return
	}
	x.nameStates()
	x.checkFallback()
	x.addFinal()
	x.completing()
	x.initProps()
	x.groupTransitions()
	x.plainConditions()
	x.lowerEvents()
	x.lowerChartActions()
	x.lowerChartTransitions()
	x.lowerDefaults()
	x.checkChartGraph()
}

// lowerTree orders the states: each state's children after it, in the
// chart's order; pseudo-states are left out (start states give their
// parent's default transition).
func (x *lowering) lowerTree() {
	c, s := x.c, x.sc
	n := len(c.States)
	x.idx = make(map[string]int, n)
	x.low = make([]int, n)
	s.initial = make([]int, n+1)
	s.start = make([]int, n+1)
	for i := range s.start {
		s.start[i], s.initial[i] = -1, -1
	}
	for i := range c.States {
		st := &c.States[i]
		if j, dup := x.idx[st.ID]; dup {
			x.errorf(st.Pos, ErrDuplicateID, "give every state its own ID",
				"state ID %q is also the ID of %s", short(st.ID), where(c.States[j].Pos, c.States[j].ID))
			continue
		}
		x.idx[st.ID] = i
	}
	kids := make([][]int, n+1) // n: the top
	parent := make([]int, n)
	for i := range c.States {
		st := &c.States[i]
		p := n
		if st.Parent != "" {
			j, ok := x.idx[st.Parent]
			if !ok {
				x.errorf(st.Pos, ErrMissingState, "nest the state in a state of the chart, or at the top", "state %q is inside %q, which the chart does not have", short(st.Name), short(st.Parent))
				continue
			}
			p = j
		}
		parent[i] = p
		kids[p] = append(kids[p], i)
	}
	if x.diags.HasErrors() {
		return
	}
	// Depth first, from the top: states inside themselves are never reached.
	seen := make([]bool, n)
	var walk func(i, lowParent, depth int)
	walk = func(i, lowParent, depth int) {
		st := &c.States[i]
		seen[i] = true
		if depth > table.MaxDepth {
			x.errorf(st.Pos, ErrNesting, "nest fewer states inside each other", "state %q is nested more than %d deep", short(st.Name), table.MaxDepth)
			return
		}
		p := parent[i]
		switch st.Kind {
		case chart.StartState:
			x.low[i] = lowStart
			if p < n && c.States[p].Kind == chart.ParallelState {
				x.errorf(st.Pos, ErrNesting, "remove it: entering a parallel state enters every region, each at its own initial state",
					"start state %q is in parallel state %q, which has no initial state", short(st.ID), short(c.States[p].ID))
				return
			}
			if s.start[p] >= 0 {
				x.errorf(st.Pos, ErrTwoInitials, "keep one start state in each state", "%s has two start states", x.stateName(p))
			}
			s.start[p] = i
			if len(kids[i]) > 0 {
				x.errorf(st.Pos, ErrNesting, "", "start state %q has states inside it", short(st.ID))
			}
			return
		}
		q := len(x.states)
		x.low[i] = q
		x.states = append(x.states, lstate{src: i})
		s.order = append(s.order, i)
		s.parent = append(s.parent, lowParent)
		k := table.KindBasic
		switch st.Kind {
		case chart.ParallelState:
			k = table.KindParallel
		case chart.EndState:
			k = table.KindFinal
		case chart.HistoryState:
			k = table.KindHistory
		case chart.DeepHistoryState:
			k = table.KindDeepHistory
		}
		s.kind = append(s.kind, k)
		if (k == table.KindHistory || k == table.KindDeepHistory) && p == n {
			x.errorf(st.Pos, ErrNesting, "put the history state inside the state whose history it keeps", "history state %q is at the top: it belongs inside a compound state", short(st.ID))
		}
		if (k == table.KindFinal || k == table.KindHistory || k == table.KindDeepHistory) && len(kids[i]) > 0 {
			x.errorf(st.Pos, ErrNesting, "take the states out of it", "%s state %q has states inside it", st.Kind, short(st.ID))
		}
		if k == table.KindParallel && len(kids[i]) == 0 {
			x.errorf(st.Pos, ErrNesting, "nest the regions (states) in it", "parallel state %q has no regions", short(st.ID))
		}
		if st.Initial && p < n && c.States[p].Kind == chart.ParallelState {
			x.warnf(st.Pos, ErrIgnored, "remove the mark: entering a parallel state enters every region",
				"region %q of parallel state %q is marked initial; the mark is ignored", short(st.ID), short(c.States[p].ID))
		} else if st.Initial && k != table.KindHistory && k != table.KindDeepHistory {
			if s.initial[p] >= 0 {
				x.errorf(st.Pos, ErrTwoInitials, "mark one initial state in each state", "%s has two initial states: %q and this one", x.stateName(p), short(c.States[x.states[s.initial[p]].src].ID))
			}
			s.initial[p] = q
		}
		for _, k := range kids[i] {
			walk(k, q, depth+1)
		}
	}
	for _, i := range kids[n] {
		walk(i, -1, 1)
	}
	for i := range c.States {
		if !seen[i] && x.low[i] >= 0 {
			x.errorf(c.States[i].Pos, ErrNesting, "", "state %q is inside itself", short(c.States[i].ID))
			x.low[i] = lowNone
		}
	}
	for i := range x.low {
		if !seen[i] {
			x.low[i] = lowNone
		}
	}
	for p := range n + 1 {
		if s.initial[p] >= 0 && s.start[p] >= 0 {
			x.errorf(c.States[s.start[p]].Pos, ErrTwoInitials, "keep either the start state or the initial mark", "%s has a start state and an initial state", x.stateName(p))
		}
	}
	if len(kids[n]) == 0 {
		x.errorf(x.chartPos(), ErrNoInitial, "draw a state", "the chart has no states")
	}
}

// addFinal adds a final state at the top for the transitions to "the
// final state" (arrows that end on no state), named "final" or, when a
// state has that name, "final#2"...
func (x *lowering) addFinal() {
	c, s := x.c, x.sc
	for i := range c.Transitions {
		if c.Transitions[i].Target.Kind != chart.ToFinal {
			continue
		}
		taken := make(map[string]int, len(x.states))
		for q := range x.states {
			taken[x.states[q].name] = q
		}
		name := "final"
		if _, dup := taken[name]; dup {
			name = suffixed(name, taken, make(map[suffixKey]int))
		}
		s.final = len(x.states)
		x.states = append(x.states, lstate{src: -1, name: name})
		s.parent = append(s.parent, -1)
		s.kind = append(s.kind, table.KindFinal)
		return
	}
}

// stateName names chart state i, or the top level (i == len(States)), for
// a message.
func (x *lowering) stateName(i int) string {
	if i == len(x.c.States) {
		return "the top level"
	}
	return "state " + quote(x.c.States[i].ID)
}

func quote(s string) string { return "\"" + short(s) + "\"" }

// lowerEvents lists the events: those actions raise or send, those
// transitions name, and the done events of the states that complete. A
// transition's descriptors each match an event of that name or one that
// begins with it and a dot; "*" matches every event.
func (x *lowering) lowerEvents() {
	c, s := x.c, x.sc
	add := func(name string, at diag.Pos) {
		if name == "" || strings.ContainsAny(name, " \t\n") || name == "*" {
			return
		}
		if _, ok := s.eventIdx[name]; ok {
			return
		}
		if !validName(name) {
			x.errorf(at, ErrName, "", "event %q is too long or not UTF-8", short(name))
			return
		}
		s.eventIdx[name] = len(x.tests)
		x.tests = append(x.tests, ltest{name: name, message: true, pos: at})
	}
	for _, i := range s.order {
		st := &c.States[i]
		for _, list := range [][]chart.Action{st.Entry, st.Exit} {
			for _, a := range list {
				if a.Kind == chart.RaiseAction || a.Kind == chart.SendAction {
					add(a.Event, a.Pos)
				}
			}
		}
	}
	for i := range c.Transitions {
		t := &c.Transitions[i]
		for _, a := range t.Actions {
			if a.Kind == chart.RaiseAction || a.Kind == chart.SendAction {
				add(a.Event, a.Pos)
			}
		}
		for _, d := range x.descriptors(t) {
			if !strings.Contains(d, "*") && !s.conds[d] {
				add(d, t.Pos)
			}
		}
	}
	// Done events, for the compound and parallel states that can
	// complete, when a transition listens for them.
	listened := make(map[string]bool) // the descriptors' bases
	for i := range c.Transitions {
		for _, d := range x.descriptors(&c.Transitions[i]) {
			listened[descriptorBase(d)] = true
			if d == "*" {
				listened["*"] = true
			}
		}
	}
	for q, i := range s.order {
		if name := "done.state." + x.states[q].name; s.completes[q] && listensFor(listened, name) {
			add(name, c.States[i].Pos)
		}
	}
}

// listensFor reports whether a descriptor whose base is in bases matches
// event e: "*", e, or e up to one of its dots.
func listensFor(bases map[string]bool, e string) bool {
	if bases["*"] || bases[e] {
		return true
	}
	for i := range len(e) {
		if e[i] == '.' && bases[e[:i]] {
			return true
		}
	}
	return false
}

// completing sets sc.completes: the compound states with a final child,
// and the parallel states, which raise a done event when they complete.
func (x *lowering) completing() {
	s := x.sc
	s.completes = make([]bool, len(s.kind))
	for q, p := range s.parent {
		if p >= 0 && s.kind[q] == table.KindFinal {
			s.completes[p] = true
		}
		if s.kind[q] == table.KindParallel {
			s.completes[q] = true
		}
	}
}

// drawing reports whether the chart is a plain drawing: no stencil, and
// not an SCXML document.
func (x *lowering) drawing() bool { return x.plain && !x.c.Statechart }

// plainConditions lists, in a drawing, the names tested as conditions:
// the tests of guards, the labels of a choice's branches, and
// "completion". An event of one of these names is a polled test too, as
// in flat charts (see the package doc's Plain diagrams).
func (x *lowering) plainConditions() {
	if !x.drawing() {
		return
	}
	s := x.sc
	s.conds = map[string]bool{}
	for i := range x.c.Transitions {
		t := &x.c.Transitions[i]
		if e, err := cond.Parse(t.Guard); strings.TrimSpace(t.Guard) != "" && err == nil {
			for _, name := range e.Names() {
				s.conds[name] = true
			}
		}
		if x.fromChoice(t) {
			for _, d := range strings.Fields(t.Event) {
				s.conds[d] = true
			}
		}
		if q := x.source(t); x.isCompletion(t) && (q < 0 || !s.completes[q]) {
			s.conds[Completion] = true
		}
	}
}

// fromChoice reports whether t leaves a choice pseudo-state.
func (x *lowering) fromChoice(t *chart.Transition) bool {
	i, ok := x.idx[t.From]
	return ok && !t.AnyState && x.c.States[i].Kind == chart.ChoiceState
}

// isCompletion reports whether t is a UML completion transition of a
// drawing: a transition without event, guard or test, in a plain chart
// that is not an SCXML document (where it is an eventless transition).
// It is taken when its source completes: on the done event of a compound
// or parallel state that can complete, on the polled test "completion"
// of any other (the host says when the state's work is done), as in flat
// charts.
func (x *lowering) isCompletion(t *chart.Transition) bool {
	if !x.drawing() || t.Event != "" || t.Guard != "" || t.Test != "" {
		return false
	}
	return !x.fromChoice(t) // a choice's branches are taken at once
}

// source returns the lowered state transition t leaves, or -1.
func (x *lowering) source(t *chart.Transition) int {
	if i, ok := x.idx[t.From]; ok && !t.AnyState {
		return x.low[i]
	}
	return -1
}

// descriptors returns a transition's event descriptors: in a plain chart
// its Event split at spaces (or, for a completion transition from a state
// that completes, its done event); with a stencil, its Test when the
// stencil says it is a message.
func (x *lowering) descriptors(t *chart.Transition) []string {
	if x.plain || x.st == nil {
		q := x.source(t)
		if x.isCompletion(t) && q >= 0 && x.sc.completes[q] {
			return []string{"done.state." + x.states[q].name}
		}
		if _, ok := afterDelay(t.Event); ok && q >= 0 {
			return []string{x.timerEvent(t, q)}
		}
		return strings.Fields(t.Event)
	}
	if i := x.stencilTest(t.Test); i >= 0 && x.st.Tests[i].Message {
		return []string{t.Test}
	}
	return nil
}

// descriptorBase is descriptor d without its ".*" or "*": the event it
// names, which it matches with the events below it.
func descriptorBase(d string) string {
	return strings.TrimSuffix(strings.TrimSuffix(d, "*"), ".")
}

// matching appends to dst the IDs of the events descriptor d matches:
// every event for "*"; else the event it names and those below it ("a"
// and "a.*" match a and a.b, not ab). It finds them by name: the events
// below one are a range of the events sorted by name, so that matching
// costs what it finds, not the number of events.
func (x *lowering) matching(dst []table.TestID, d string) []table.TestID {
	s := x.sc
	if s.sorted == nil {
		s.sorted = make([]string, 0, len(s.eventIdx))
		for name := range s.eventIdx {
			s.sorted = append(s.sorted, name)
		}
		slices.Sort(s.sorted)
	}
	if d == "*" {
		for _, name := range s.sorted {
			dst = append(dst, table.TestID(s.eventIdx[name]))
		}
		return dst
	}
	base := descriptorBase(d)
	if id, ok := s.eventIdx[base]; ok {
		dst = append(dst, table.TestID(id))
	}
	prefix := base + "."
	i, _ := slices.BinarySearch(s.sorted, prefix)
	for ; i < len(s.sorted) && strings.HasPrefix(s.sorted[i], prefix); i++ {
		dst = append(dst, table.TestID(s.eventIdx[s.sorted[i]]))
	}
	return dst
}

// lowerChartActions lowers the states' entry and exit actions, and adds
// those of their state timers.
func (x *lowering) lowerChartActions() {
	c, s := x.c, x.sc
	s.exit = make([][]table.Action, len(x.states))
	for q := range x.states {
		i := x.states[q].src
		if i < 0 {
			continue
		}
		st := &c.States[i]
		x.states[q].actions = x.lowerActions(st.Entry, st.Pos, "state "+quote(st.Name))
		s.exit[q] = x.lowerActions(st.Exit, st.Pos, "state "+quote(st.Name))
	}
	x.stateTimers()
	x.checkProps()
}

// afterDelay reads a state timer's label, "after 2s" (also "after 2 s",
// "after 500ms", "after(1.5s)"), as XState's after and godot-statecharts'
// delayed transitions: the transition is taken once its source has been
// active that long, in game time. It returns the delay in seconds.
func afterDelay(event string) (float64, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(event), "after")
	if !ok {
		return 0, false
	}
	rest = strings.TrimSpace(rest)
	if r, ok := strings.CutPrefix(rest, "("); ok {
		if rest, ok = strings.CutSuffix(r, ")"); !ok {
			return 0, false
		}
	} else if rest == strings.TrimLeft(strings.TrimSpace(event), "after") {
		return 0, false // "afterglow"
	}
	rest = strings.ReplaceAll(strings.TrimSpace(rest), " ", "")
	unit := 1.0
	switch {
	case strings.HasSuffix(rest, "ms"):
		rest, unit = strings.TrimSuffix(rest, "ms"), 0.001
	case strings.HasSuffix(rest, "s"):
		rest = strings.TrimSuffix(rest, "s")
	default:
		return 0, false
	}
	d, err := strconv.ParseFloat(rest, 64)
	if err != nil || !(d >= 0) || d > 1e9 {
		return 0, false
	}
	return d * unit, true
}

// timerEvent names the event of the state timer of transition t, leaving
// lowered state q: "STATE.after.K", K counting its timers from 1 in order.
func (x *lowering) timerEvent(t *chart.Transition, q int) string {
	k := 0
	for _, ti := range x.out(x.states[q].src) {
		u := &x.c.Transitions[ti]
		if _, ok := afterDelay(u.Event); ok {
			k++
		}
		if u == t {
			break
		}
	}
	return x.states[q].name + ".after." + strconv.Itoa(k)
}

// stateTimers gives each state with "after" transitions their timers: a
// send of the timer's event on entry, after the delay, and its cancel on
// exit.
func (x *lowering) stateTimers() {
	if x.st != nil && !x.plain {
		return
	}
	for q := range x.states {
		i := x.states[q].src
		if i < 0 {
			continue
		}
		for _, ti := range x.out(i) {
			t := &x.c.Transitions[ti]
			d, ok := afterDelay(t.Event)
			if !ok {
				continue
			}
			name := x.timerEvent(t, q)
			ev, ok := x.sc.eventIdx[name]
			if !ok {
				continue // reported with the names
			}
			timer := x.timer(name)
			x.states[q].actions = append(x.states[q].actions, table.Action{Kind: table.SendAction, Event: table.TestID(ev), Delay: d, Timer: timer})
			x.sc.exit[q] = append(x.sc.exit[q], table.Action{Kind: table.CancelAction, Event: table.NoTest, Timer: timer})
		}
	}
}

// lowerActions lowers a list of actions of the element named owner at
// pos.
func (x *lowering) lowerActions(list []chart.Action, pos diag.Pos, owner string) []table.Action {
	var out []table.Action
	for _, a := range list {
		at := a.Pos
		if at.IsZero() {
			at = pos
		}
		switch a.Kind {
		case chart.GameAction:
			act, ok := x.gameAction(a, at, owner, pos)
			if !ok {
				continue
			}
			out = append(out, act)
		case chart.RaiseAction, chart.SendAction:
			ev, ok := x.sc.eventIdx[a.Event]
			if !ok {
				x.errorf(at, ErrName, "name the event", "%s %s: event %q is empty or not one name", short(owner), a.Kind, short(a.Event))
				continue
			}
			act := table.Action{Kind: table.RaiseAction, Event: table.TestID(ev), Timer: table.NoTimer}
			if a.Kind == chart.SendAction {
				act.Kind, act.Delay = table.SendAction, a.Delay
				if a.Delay < 0 || a.Delay != a.Delay || a.Delay > 1e9 {
					x.errorf(at, ErrTransition, "write a delay from 0 seconds", "%s: send of %q after %v seconds", short(owner), short(a.Event), a.Delay)
					continue
				}
				if a.Timer != "" {
					act.Timer = x.timer(a.Timer)
				}
			}
			out = append(out, act)
		case chart.CancelAction:
			if a.Timer == "" {
				x.errorf(at, ErrName, "name the send to cancel (its id)", "%s: cancel without a timer", short(owner))
				continue
			}
			out = append(out, table.Action{Kind: table.CancelAction, Event: table.NoTest, Timer: x.timer(a.Timer)})
		default:
			x.errorf(at, ErrTransition, "", "%s: action of unknown kind %d", short(owner), a.Kind)
			continue
		}
		if a.Guard != "" && len(out) > 0 {
			out[len(out)-1].Cond, _ = x.guard(a.Guard, at, owner)
		}
	}
	return out
}

// timer returns the ID of the timer named name.
func (x *lowering) timer(name string) table.TimerID {
	if id, ok := x.sc.timers[name]; ok {
		return id
	}
	id := table.TimerID(len(x.sc.timers))
	x.sc.timers[name] = id
	return id
}

// lowerChartTransitions lowers the transitions of each state, in order,
// and the any-state ones (the root's).
func (x *lowering) lowerChartTransitions() {
	c, s := x.c, x.sc
	for i := range c.Transitions {
		s.pushes = s.pushes || c.Transitions[i].Push && c.Transitions[i].Target.Kind == chart.ToState
	}
	n := len(c.States)
	s.trans = make([][]table.Transition, len(x.states)+1)
	for i := range n + 1 {
		q := len(x.states) // the root
		if i < n {
			switch x.low[i] {
			case lowStart:
				continue // its transition is its parent's default
			case lowNone:
				continue
			}
			q = x.low[i]
			if k := s.kind[q]; k == table.KindHistory || k == table.KindDeepHistory {
				continue // its transition is its default
			}
			if out := x.out(i); s.kind[q] == table.KindFinal && len(out) > 0 && x.drawing() {
				t := &c.Transitions[out[0]]
				x.warnf(t.Pos, ErrTransition, "remove the arrows that leave the final state", "%s ignored", count(len(out), "transition leaves a final state; it is", "transitions leave a final state; they are"))
				continue
			}
		}
		for _, ti := range x.out(i) {
			if tr, ok := x.lowerChartTransition(&c.Transitions[ti], table.StateID(q)); ok {
				s.trans[q] = append(s.trans[q], tr)
			}
		}
	}
}

// lowerChartTransition lowers transition t leaving lowered state from.
func (x *lowering) lowerChartTransition(t *chart.Transition, from table.StateID) (table.Transition, bool) {
	tr := table.Transition{From: from, Test: table.NoTest, Internal: t.Internal}
	if int(from) == len(x.states) {
		tr.From = table.AnyState
	}
	ok := x.lowerTargets(t, &tr)
	// Trigger: events, or in a drawing the names tested as conditions.
	descs, polled := x.triggers(t)
	for _, d := range descs {
		tr.Events = x.matching(tr.Events, d)
	}
	if len(descs) > 0 && len(tr.Events) == 0 {
		x.warnf(t.Pos, ErrUnreachable, "check the event's spelling", "transition %q waits for %q, which nothing in the chart raises or sends, and no message of the game can be it", short(t.ID), short(t.Event))
		return tr, false
	}
	slices.Sort(tr.Events)
	tr.Events = slices.Compact(tr.Events)
	// Condition.
	guard := t.Guard
	if q := x.source(t); x.isCompletion(t) && (q < 0 || !x.sc.completes[q]) {
		polled = append(polled, Completion)
	}
	for k, name := range polled {
		tr.Cond = append(tr.Cond, table.CondTerm{Op: table.CondTest, Test: table.TestID(x.polled(name, "", t.Pos))})
		if k > 0 {
			tr.Cond = append(tr.Cond, table.CondTerm{Op: table.CondOr})
		}
	}
	if x.st != nil && !x.plain {
		if i := x.stencilTest(t.Test); i >= 0 && !x.st.Tests[i].Message {
			tr.Cond = table.Cond{{Op: table.CondTest, Test: table.TestID(x.polled(t.Test, t.Value, t.Pos))}}
		}
		guard = ""
	}
	if g := strings.TrimSpace(guard); g != "" {
		c, good := x.guard(g, t.Pos, "transition "+quote(t.ID))
		if !good {
			return tr, false
		}
		if len(tr.Cond) > 0 {
			c = append(append(tr.Cond, c...), table.CondTerm{Op: table.CondAnd})
		}
		tr.Cond = c
	}
	actions := t.Actions
	if x.drawing() && t.Action != "" {
		actions = append(x.labelActions(t), t.Actions...)
	}
	tr.Actions = x.lowerActions(actions, t.Pos, "transition "+t.ID)
	return tr, ok
}

// performsActions reports whether the label of a drawing's transition t
// names an action that reads ("push / swing(); speed = fast": see
// chart.ParseActions), which a flat table cannot perform.
func performsActions(t *chart.Transition) bool {
	if t.Action == "" {
		return false
	}
	as, _ := chart.ParseActions(t.Action, t.Pos)
	return len(as) > 0
}

// labelActions returns the game actions of transition t's label, and
// warns about those that do not read (code for a code generator, say),
// which are left out.
func (x *lowering) labelActions(t *chart.Transition) []chart.Action {
	as, bad := chart.ParseActions(t.Action, t.Pos)
	for _, e := range bad {
		x.warnf(t.Pos, ErrIgnored, chart.ActionSyntax,
			"transition %q: action %q is not one fsmforge performs (%s); it is left out", short(t.Label), short(e.Text), e.Why)
	}
	return as
}

// triggers returns the event descriptors of t that wait for events, and
// (in a drawing) the names it tests as conditions instead: a choice's
// branch, or an event also tested as a condition, which a note reports
// once.
func (x *lowering) triggers(t *chart.Transition) (events, polled []string) {
	descs := x.descriptors(t)
	if x.sc.conds == nil {
		return descs, nil
	}
	for _, d := range descs {
		if !x.sc.conds[d] {
			events = append(events, d)
			continue
		}
		polled = append(polled, d)
		if !x.fromChoice(t) && !x.sc.noted[d] {
			if x.sc.noted == nil {
				x.sc.noted = map[string]bool{}
			}
			x.sc.noted[d] = true
			x.notef(t.Pos, ErrLowered, "rename the event or the condition if they are not the same thing",
				"event %q is also tested as a condition (a [guard], a choice's branch or a completion): it is a polled test, not a message", short(d))
		}
	}
	return events, polled
}

// polled returns the index of the polled test name=value, adding it.
func (x *lowering) polled(name, value string, at diag.Pos) int {
	k := testKey{name, value}
	if i, ok := x.sc.polledIdx[k]; ok {
		return i
	}
	if i, ok := x.sc.eventIdx[name]; ok && value == "" {
		x.errorf(at, ErrSameTest, "rename the test or the event", "%q is both an event and a condition's test", short(name))
		return i
	}
	if !validName(name) {
		x.errorf(at, ErrName, "", "test %q is too long or not UTF-8", short(name))
	}
	x.sc.polledIdx[k] = len(x.tests)
	x.tests = append(x.tests, ltest{name: name, value: value, polled: true, pos: at})
	return len(x.tests) - 1
}

// guard parses and lowers condition g of owner, at at; ok is false for
// one that cannot be lowered (reported).
func (x *lowering) guard(g string, at diag.Pos, owner string) (table.Cond, bool) {
	g = strings.TrimSpace(g)
	if g == "" {
		return nil, true
	}
	e, err := cond.Parse(g)
	if err != nil {
		x.errorf(at, ErrTransition, "write test names combined with !, && and || (and parentheses), true, false or In(state)",
			"%s: condition %q: %v", owner, short(g), err)
		return nil, false
	}
	if e.Depth() > table.MaxCondDepth {
		x.errorf(at, ErrTransition, "split the condition, or nest fewer parentheses",
			"%s: condition %q needs a stack of %d values; a table evaluates at most %d", owner, short(g), e.Depth(), table.MaxCondDepth)
		return nil, false
	}
	return x.lowerCond(e, at, owner), true
}

// lowerCond lowers a parsed condition of owner, at at.
func (x *lowering) lowerCond(e cond.Expr, at diag.Pos, owner string) table.Cond {
	out := make(table.Cond, 0, len(e))
	for _, term := range e {
		switch term.Op {
		case cond.Test:
			out = append(out, table.CondTerm{Op: table.CondTest, Test: table.TestID(x.polled(term.Name, "", at))})
		case cond.In:
			i, ok := x.idx[term.Name]
			if !ok || x.low[i] < 0 {
				x.errorf(at, ErrMissingState, "name a state of the chart by its ID", "%s: In(%s): the chart has no such state", owner, short(term.Name))
				out = append(out, table.CondTerm{Op: table.CondFalse})
				continue
			}
			out = append(out, table.CondTerm{Op: table.CondIn, State: table.StateID(x.low[i])})
		case cond.Not:
			out = append(out, table.CondTerm{Op: table.CondNot})
		case cond.And:
			out = append(out, table.CondTerm{Op: table.CondAnd})
		case cond.Or:
			out = append(out, table.CondTerm{Op: table.CondOr})
		case cond.True:
			out = append(out, table.CondTerm{Op: table.CondTrue})
		case cond.False:
			out = append(out, table.CondTerm{Op: table.CondFalse})
		}
	}
	return out
}

// lowerTargets sets tr's targets from t's, reporting whether they are
// states of the chart that can be entered together.
func (x *lowering) lowerTargets(t *chart.Transition, tr *table.Transition) bool {
	switch t.Target.Kind {
	case chart.ToNone:
		tr.To = table.NoState
		if len(t.Also) > 0 {
			x.errorf(t.Pos, ErrTransition, "", "transition %q has no target but %d more", short(t.ID), len(t.Also))
			return false
		}
		return true
	case chart.ToFinal:
		tr.To = table.StateID(x.sc.final)
		return true
	case chart.ToReturn:
		if t.Push || len(t.Also) > 0 {
			x.errorf(t.Pos, ErrTransition, "a return goes back to what a push saved: remove the push or the further targets", "transition %q returns and pushes, or has further targets", short(t.ID))
			return false
		}
		if !x.sc.pushes {
			x.errorf(t.Pos, ErrNoPush, "mark the transition that should save the state (Stack = push)", "transition %q returns to a pushed state, but no transition pushes one", short(t.ID))
			return false
		}
		tr.To = table.Return
		return true
	case chart.ToState:
	default:
		x.errorf(t.Pos, ErrTransition, "", "transition %q has an unknown target kind %d", short(t.ID), t.Target.Kind)
		return false
	}
	tr.Push = t.Push
	ids := append([]string{t.Target.State}, t.Also...)
	qs := make([]int, 0, len(ids))
	for _, id := range ids {
		i, ok := x.idx[id]
		switch {
		case !ok:
			x.errorf(t.Pos, ErrMissingState, "", "transition %q goes to %q, which the chart does not have", short(t.ID), short(id))
			return false
		case x.low[i] == lowStart && x.drawing():
			x.warnf(t.Pos, ErrTransition, "a start node only starts the machine: glue the arrow's end to a state", "the transition enters the start pseudo-state; it is ignored")
			return false
		case x.low[i] == lowStart:
			x.errorf(t.Pos, ErrTransition, "draw it to the state the start state leads to", "transition %q goes into start state %q", short(t.ID), short(id))
			return false
		case x.low[i] < 0:
			return false
		}
		qs = append(qs, x.low[i])
	}
	// Several targets must be in different regions of a parallel state.
	for a := range qs {
		for b := range a {
			if l := x.lca(qs[a], qs[b]); l < 0 || l == qs[a] || l == qs[b] || x.sc.kind[l] != table.KindParallel {
				x.errorf(t.Pos, ErrTransition, "target states in different regions of one parallel state",
					"transition %q goes to %q and %q, which cannot be active together", short(t.ID), short(ids[b]), short(ids[a]))
				return false
			}
		}
	}
	tr.To = table.StateID(qs[0])
	for _, q := range qs[1:] {
		tr.Also = append(tr.Also, table.StateID(q))
	}
	return true
}

// lca returns the lowest common ancestor of lowered states a and b (a
// itself when b is below it), or -1 at the top.
func (x *lowering) lca(a, b int) int {
	for p := a; p >= 0; p = x.sc.parent[p] {
		for q := b; q >= 0; q = x.sc.parent[q] {
			if p == q {
				return p
			}
		}
	}
	return -1
}

// lowerDefaults lowers the start states' transitions and the history
// states' transitions into default transitions.
func (x *lowering) lowerDefaults() {
	c, s := x.c, x.sc
	n := len(c.States)
	for p := range n + 1 {
		i := s.start[p]
		if i < 0 {
			continue
		}
		out := x.out(i)
		if len(out) != 1 {
			x.errorf(c.States[i].Pos, ErrTwoInitials, "draw one transition from the start state", "start state %q has %d transitions; it needs one", short(c.States[i].ID), len(out))
			continue
		}
		from := table.NoState
		if p < n {
			from = table.StateID(x.low[p])
		}
		if tr, ok := x.lowerDefault(&c.Transitions[out[0]], from); ok {
			s.dflt = append(s.dflt, tr)
		}
	}
	for q, i := range s.order {
		if k := s.kind[q]; k != table.KindHistory && k != table.KindDeepHistory {
			continue
		}
		out := x.out(i)
		if len(out) != 1 {
			x.errorf(c.States[i].Pos, ErrTransition, "draw one transition from the history state to the states entered the first time",
				"history state %q has %d transitions; it needs one", short(c.States[i].ID), len(out))
			continue
		}
		if tr, ok := x.lowerDefault(&c.Transitions[out[0]], table.StateID(q)); ok {
			s.dflt = append(s.dflt, tr)
		}
	}
	if s.initial[n] < 0 && s.start[n] < 0 {
		for _, i := range s.order {
			if x.sc.parent[x.low[i]] < 0 {
				x.notef(c.States[i].Pos, ErrNoInitial, "mark the initial state", "no initial state at the top: the machine starts in %q, the first", short(c.States[i].ID))
				break
			}
		}
	}
	// A compound without an initial state is entered at its first child,
	// as SCXML says; a drawing did not say so (an SCXML reader marks it).
	first := make([]int, len(s.kind))
	for k := len(s.parent) - 1; k >= 0; k-- {
		if p := s.parent[k]; p >= 0 && s.kind[k] != table.KindHistory && s.kind[k] != table.KindDeepHistory {
			first[p] = k + 1
		}
	}
	for q, i := range s.order {
		if s.kind[q] == table.KindBasic && first[q] > 0 && s.initial[i] < 0 && s.start[i] < 0 {
			x.warnf(c.States[i].Pos, ErrNoInitial, "mark its initial state, or draw a start state inside it",
				"state %q has no initial state: entering it enters %q, its first", short(c.States[i].ID), short(x.states[first[q]-1].name))
		}
	}
}

// lowerDefault lowers a default transition: targets and actions only.
func (x *lowering) lowerDefault(t *chart.Transition, from table.StateID) (table.Transition, bool) {
	tr := table.Transition{From: from, Test: table.NoTest}
	if t.Event != "" || t.Guard != "" || t.Test != "" || t.Value != "" {
		x.warnf(t.Pos, ErrIgnored, "remove the label (with a stencil: clear the test)",
			"transition %q is a default transition, taken without a test: what it tests (%q) is ignored", short(t.ID), short(cmp.Or(t.Label, t.Test, t.Value)))
	}
	if !x.lowerTargets(t, &tr) {
		return tr, false
	}
	if tr.To == table.NoState {
		x.errorf(t.Pos, ErrNoInitial, "draw it to a state", "transition %q is a default transition without a target", short(t.ID))
		return tr, false
	}
	// It enters states inside the state it is the default of (a
	// history's: inside its parent); from the top, any.
	inside := -1
	if from != table.NoState {
		inside = int(from)
		if k := x.sc.kind[inside]; k == table.KindHistory || k == table.KindDeepHistory {
			inside = x.sc.parent[inside]
		}
	}
	for _, to := range append([]table.StateID{tr.To}, tr.Also...) {
		q := int(to)
		if inside >= 0 && (q == inside || x.lca(q, inside) != inside) {
			x.errorf(t.Pos, ErrTransition, "draw it to a state inside "+quote(x.states[inside].name),
				"default transition %q goes to %q, which is not inside %q", short(t.ID), short(x.states[q].name), short(x.states[inside].name))
			return tr, false
		}
		if k := x.sc.kind[q]; (k == table.KindHistory || k == table.KindDeepHistory) && from != table.NoState && q != int(from) &&
			(x.sc.kind[from] == table.KindHistory || x.sc.kind[from] == table.KindDeepHistory) {
			x.errorf(t.Pos, ErrTransition, "draw it to the states to enter the first time", "history state %q: its default transition goes to history state %q", short(x.states[from].name), short(x.states[q].name))
			return tr, false
		}
	}
	tr.Actions = x.lowerActions(t.Actions, t.Pos, "transition "+t.ID)
	return tr, true
}

// buildChart builds the statechart table.
func (x *lowering) buildChart(r *Result, opt Options) {
	s := x.sc
	b := table.Builder{Name: x.name, Options: table.Options{Chain: opt.Chain, ChainLimit: opt.ChainLimit, StackLimit: opt.StackLimit}}
	for _, p := range x.props {
		b.AddProperty(p.name, p.values...)
	}
	for _, t := range x.tests {
		if t.message {
			b.AddMessage(t.name, t.value)
		} else {
			b.AddTest(t.name, t.value)
		}
	}
	names := make([]string, len(s.timers))
	for name, id := range s.timers {
		names[id] = name
	}
	for _, name := range names {
		b.AddTimer(name)
	}
	for q := range x.states {
		id := b.AddState(x.states[q].name, x.states[q].actions...)
		b.SetKind(id, s.kind[q])
		if p := s.parent[q]; p >= 0 {
			b.Nest(id, table.StateID(p))
		}
		if len(s.exit[q]) > 0 {
			b.SetExit(id, s.exit[q]...)
		}
	}
	for p, q := range s.initial {
		if q >= 0 && (p == len(x.c.States) || x.low[p] >= 0) {
			b.SetInitial(table.StateID(q))
		}
	}
	for _, tr := range s.dflt {
		b.SetDefault(tr)
	}
	for _, list := range s.trans {
		for _, tr := range list {
			b.AddTransition(tr)
		}
	}
	t, err := b.Build()
	if err != nil {
		x.errorf(x.chartPos(), ErrLimit, "please report this as a bug of package compile, with the drawing", "the table does not build: %v", err)
		return
	}
	r.Table = t
	r.States = make(map[string]table.StateID, len(x.c.States))
	for i, st := range x.c.States {
		if l := x.low[i]; l >= 0 {
			r.States[st.ID] = table.StateID(l)
		}
	}
	r.Pos = make([]diag.Pos, len(x.states))
	for q := range x.states {
		if i := x.states[q].src; i >= 0 {
			r.Pos[q] = x.c.States[i].Pos
		}
	}
}

// checkChartGraph reports, in a statechart, the states no run of the
// machine enters (the outermost of each such subtree) and the atomic
// states entered that nothing leaves: no transition of their own, of an
// ancestor or of the root, and no other region of a parallel ancestor.
func (x *lowering) checkChartGraph() {
	if x.diags.HasErrors() {
		return
	}
	s := x.sc
	n := len(x.states)
	r := reach{x: x, seen: make([]bool, n), kids: make([][]int, n+1), dflt: make([][]table.StateID, n+1)}
	for q, p := range s.parent {
		if p < 0 {
			p = n
		}
		r.kids[p] = append(r.kids[p], q)
	}
	for _, tr := range s.dflt {
		f := n
		if tr.From != table.NoState {
			f = int(tr.From)
		}
		r.dflt[f] = append([]table.StateID{tr.To}, tr.Also...)
	}
	r.enterDefault(n)
	if len(r.stack) > 0 { // the any-state transitions, taken from any state entered
		r.follow(s.trans[n])
	}
	for len(r.stack) > 0 {
		q := r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
		r.follow(s.trans[q])
	}
	for q := range x.states {
		i := x.states[q].src
		if i < 0 || s.kind[q] == table.KindHistory || s.kind[q] == table.KindDeepHistory {
			continue
		}
		if p := s.parent[q]; !r.seen[q] && (p < 0 || r.seen[p]) {
			x.warnf(x.c.States[i].Pos, ErrUnreachable, "draw a transition into it, or delete it",
				"state %q is unreachable: no run of the machine enters it", short(x.states[q].name))
		}
		if !r.seen[q] || s.kind[q] != table.KindBasic || len(r.kids[q]) > 0 || len(s.trans[n]) > 0 {
			continue
		}
		out := false // a parallel state's other regions may leave it too
		for a := q; a >= 0 && !out; a = s.parent[a] {
			out = len(s.trans[a]) > 0 || s.kind[a] == table.KindParallel
		}
		if !out {
			x.warnf(x.c.States[i].Pos, ErrNoWayOut, "add a transition out of it or out of a state around it (one to a final state ends the machine), unless the machine is meant to stay there",
				"state %q has no way out: no transition leaves it or a state around it, so the machine stays there for ever", short(x.states[q].name))
		}
	}
}

// reach walks the states a statechart's runs can enter.
type reach struct {
	x     *lowering
	seen  []bool            // per lowered state
	stack []int             // states seen whose transitions are not yet followed
	kids  [][]int           // per lowered state (the top at len): its children
	dflt  [][]table.StateID // per lowered state (the top at len): its default transition's targets
	left  map[int]int       // per parallel state entered: the one region not entered by default yet, or -1
}

func (r *reach) mark(q int) {
	if !r.seen[q] {
		r.seen[q] = true
		r.stack = append(r.stack, q)
	}
}

// follow enters the targets of transitions.
func (r *reach) follow(list []table.Transition) {
	for _, tr := range list {
		if int(tr.To) < len(r.seen) {
			r.enterTarget(int(tr.To))
		}
		for _, to := range tr.Also {
			r.enterTarget(int(to))
		}
	}
}

// enterTarget enters q as a transition's target: its ancestors, the
// other regions of the parallel states among them, then q by default.
func (r *reach) enterTarget(q int) {
	parent := r.x.sc.parent
	for c, a := q, parent[q]; a >= 0; c, a = a, parent[a] {
		r.mark(a)
		if r.x.sc.kind[a] == table.KindParallel {
			r.enterRegions(a, c)
		}
	}
	r.enterDefault(q)
}

// enterRegions enters by default the regions of parallel state a but c,
// once each: the first call enters all but c, a later one with another
// region enters c, so that many transitions into a wide parallel state
// cost its width once.
func (r *reach) enterRegions(a, c int) {
	if r.left == nil {
		r.left = make(map[int]int)
	}
	left, ok := r.left[a]
	switch {
	case !ok:
		r.left[a] = c
		for _, k := range r.kids[a] {
			if k != c {
				r.enterDefault(k)
			}
		}
	case left >= 0 && left != c:
		r.left[a] = -1
		r.enterDefault(left)
	}
}

// enterDefault enters q (the top, at len(seen)) and what entering it by
// default enters: every region of a parallel state, a compound state's
// initial states, a history state's default targets.
func (r *reach) enterDefault(q int) {
	s, n := r.x.sc, len(r.seen)
	if q < n {
		if r.seen[q] {
			return
		}
		r.mark(q)
	}
	kind := table.KindBasic
	if q < n {
		kind = s.kind[q]
	}
	switch {
	case kind == table.KindParallel:
		for _, k := range r.kids[q] {
			r.enterDefault(k)
		}
	case len(r.dflt[q]) > 0:
		for _, to := range r.dflt[q] {
			r.enterTarget(int(to))
		}
	case kind == table.KindHistory || kind == table.KindDeepHistory || len(r.kids[q]) == 0:
	default:
		i := len(r.x.c.States)
		if q < n {
			i = r.x.states[q].src
		}
		if k := s.initial[i]; k >= 0 {
			r.enterDefault(k)
			return
		}
		for _, k := range r.kids[q] {
			if s.kind[k] != table.KindHistory && s.kind[k] != table.KindDeepHistory {
				r.enterDefault(k)
				return
			}
		}
	}
}
