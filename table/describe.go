package table

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/fsmforge/fsmforge/machine"
)

// Describe returns the table as a [machine.Description], for tools that
// list, draw and watch any fsmforge runtime: its name; [machine.KindTable]
// or [machine.KindStatechart]; its states by ID (every state of a flat
// table is [machine.Atomic]; a statechart's are atomic, compound,
// parallel, final, history or deep history, with their parents); the
// initial state (a statechart's: the target of its start, the first when
// it has several); its tests by TestID as the triggers (a polled test is
// [machine.TriggerTest]; a message test is [machine.TriggerMessage] in a
// flat table and [machine.TriggerEvent] in a statechart); and its
// transitions, grouped by source state in ascending order, each state's in
// the order the runtime tries them:
//
//   - In a flat table, a state's transitions are the any-state transitions
//     that apply in it (all but those whose destination is the state
//     itself), then its own: the any-state ones are listed under every
//     state they are tried in. A transition to [Final] or [Return] has no
//     target and Final or Return set.
//   - In a statechart, a state's own transitions; after those of each
//     top-level state, the any-state transitions (the chart root's, tried
//     after every state's own and its ancestors'), listed under every
//     top-level state. Each has its targets (none for a targetless one, or
//     a return), its first event as its trigger (-1 for an eventless one;
//     further events are not listed), and its condition as text, in the
//     syntax of package compile's guards ("seesPlayer && !In(aim)").
//     Default transitions (into a compound's initial state, a history's
//     default) are not listed.
//
// The transition an agent's observer is told of ([Agent.Observe]) is an
// index in this list. Describe makes a fresh description on each call, in
// time and memory proportional to the table.
func (t *Table) Describe() machine.Description {
	d := machine.Description{Name: t.name, Kind: machine.KindTable, Initial: machine.StateID(t.initial),
		States: make([]machine.State, len(t.states)), Triggers: make([]machine.Trigger, len(t.tests))}
	for i := range t.states {
		d.States[i] = machine.State{Name: t.states[i].name, Kind: machine.Atomic, Parent: machine.NoState}
		for a := range t.Actions(StateID(i)) {
			d.States[i].Entry = append(d.States[i].Entry, t.ActionString(a))
		}
	}
	msg := machine.TriggerMessage
	if t.sc != nil {
		msg = machine.TriggerEvent
	}
	for i, tt := range t.tests {
		d.Triggers[i] = machine.Trigger{Name: tt.String(), Kind: machine.TriggerTest}
		if tt.Message {
			d.Triggers[i].Kind = msg
		}
	}
	if t.sc != nil {
		t.describeChart(&d)
		return d
	}
	d.Transitions = make([]machine.Transition, len(t.steps))
	for q := range t.states {
		sp := t.spans[q]
		for i := sp.lo; i < sp.hi; i++ {
			s := &t.steps[i]
			tr := machine.Transition{From: machine.StateID(q), Trigger: int32(s.test), Push: s.push}
			switch s.to {
			case Final:
				tr.Final = true
			case Return:
				tr.Return = true
			default:
				tr.To = []machine.StateID{machine.StateID(s.to)}
			}
			d.Transitions[i] = tr
		}
	}
	return d
}

// describeChart fills in what Describe says of a statechart table.
func (t *Table) describeChart(d *machine.Description) {
	c := t.sc
	root := c.root()
	d.Kind = machine.KindStatechart
	if tr, ok := t.Default(NoState); ok && t.HasState(tr.To) {
		d.Initial = machine.StateID(tr.To)
	}
	for q := range t.states {
		nd := &c.nodes[q]
		st := &d.States[q]
		switch {
		case nd.kind == KindParallel:
			st.Kind = machine.Parallel
		case nd.kind == KindFinal:
			st.Kind = machine.FinalState
		case nd.kind == KindHistory:
			st.Kind = machine.History
		case nd.kind == KindDeepHistory:
			st.Kind = machine.DeepHistory
		case nd.compound:
			st.Kind = machine.Compound
		}
		if nd.parent != root {
			st.Parent = machine.StateID(nd.parent)
		}
	}
	rt := &c.nodes[root]
	for q := range t.states {
		nd := &c.nodes[q]
		for i := nd.tlo; i < nd.thi; i++ {
			d.Transitions = append(d.Transitions, t.describeTrans(StateID(q), &c.trans[i]))
		}
		if nd.parent == root {
			for i := rt.tlo; i < rt.thi; i++ {
				d.Transitions = append(d.Transitions, t.describeTrans(StateID(q), &c.trans[i]))
			}
		}
	}
}

// describeTrans describes statechart transition ct, listed under state q.
func (t *Table) describeTrans(q StateID, ct *ctrans) machine.Transition {
	c := t.sc
	tr := machine.Transition{From: machine.StateID(q), Trigger: -1, Return: ct.ret, Push: ct.push,
		Condition: t.condText(c.conds[ct.clo:ct.chi])}
	if ct.ehi > ct.elo {
		tr.Trigger = int32(c.events[ct.elo])
	}
	for _, to := range c.targets[ct.tlo:ct.thi] {
		tr.To = append(tr.To, machine.StateID(to))
	}
	return tr
}

// CondString renders condition c of a statechart table in infix, as
// package compile reads guards: test names, In(state), !, && and ||, with
// parentheses around operands that are not single terms. It returns ""
// for no condition.
func (t *Table) CondString(c Cond) string { return t.condText(c) }

// ActionString renders action a of t as a designer writes it:
// "Animation=walk", "raise e", "send e after 2s as t", "cancel t", after
// its condition in brackets ("[hp < 10] raise flee").
func (t *Table) ActionString(a Action) string {
	var s string
	switch a.Kind {
	case GameAction:
		s = t.Property(a.Property) + "=" + t.Value(a.Property, a.Value)
	case RaiseAction:
		s = "raise " + t.testName(a.Event)
	case SendAction:
		s = "send " + t.testName(a.Event)
		if a.Delay > 0 {
			s += " after " + strconv.FormatFloat(a.Delay, 'g', -1, 64) + "s"
		}
		if a.Timer != NoTimer {
			s += " as " + t.TimerName(a.Timer)
		}
	case CancelAction:
		s = "cancel " + t.TimerName(a.Timer)
	}
	if c := t.condText(a.Cond); c != "" {
		s = "[" + c + "] " + s
	}
	return s
}

// condText writes a condition in infix, as package compile reads guards:
// test names, In(state), !, && and ||, with parentheses around operands
// that are not single terms.
func (t *Table) condText(terms []CondTerm) string {
	if len(terms) == 0 {
		return ""
	}
	var stack []string
	wrap := func(s string) string {
		if strings.ContainsRune(s, ' ') {
			return "(" + s + ")"
		}
		return s
	}
	for _, ct := range terms {
		switch ct.Op {
		case CondTest:
			stack = append(stack, t.testName(ct.Test))
		case CondIn:
			stack = append(stack, "In("+t.StateName(ct.State)+")")
		case CondTrue:
			stack = append(stack, "true")
		case CondFalse:
			stack = append(stack, "false")
		case CondNot:
			stack[len(stack)-1] = "!" + wrap(stack[len(stack)-1])
		case CondAnd, CondOr:
			op := " && "
			if ct.Op == CondOr {
				op = " || "
			}
			n := len(stack)
			stack[n-2] = wrap(stack[n-2]) + op + wrap(stack[n-1])
			stack = stack[:n-1]
		}
	}
	return stack[len(stack)-1]
}

// Fingerprint returns [machine.Fingerprint] of the table's description
// ([Table.Describe]): a hash of its states, tests and transitions, which
// a save of its agents carries ([AppendAgents]) so that loading it into
// another table is noticed. The first call describes the table; the value
// is kept, and later calls cost an atomic load. Safe for concurrent use.
func (t *Table) Fingerprint() uint64 {
	if v := atomic.LoadUint64(&t.fp); v != 0 {
		return v
	}
	d := t.Describe()
	v := machine.Fingerprint(&d)
	atomic.StoreUint64(&t.fp, v)
	return v
}

// machineState returns s as a machine.StateID: a state keeps its number,
// Final is machine.Final, the other markers machine.NoState.
func machineState(s StateID) machine.StateID {
	switch {
	case s == Final:
		return machine.Final
	case s >= NoState:
		return machine.NoState
	}
	return machine.StateID(s)
}

// tableState returns s as a StateID: a state keeps its number,
// machine.Final is Final, and anything else that is not a state NoState.
func tableState(s machine.StateID) StateID {
	switch {
	case s == machine.Final:
		return Final
	case s < 0 || s >= machine.StateID(NoState):
		return NoState
	}
	return StateID(s)
}
