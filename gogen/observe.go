package gogen

import (
	"fmt"
	"strings"

	"github.com/fsmforge/fsmforge/table"
)

// machinePath is the import path of package machine, which a file
// generated with Options.Observe imports for its Observer and Event.
const machinePath = "github.com/fsmforge/fsmforge/machine"

// observeIntro is the sentence the file's first comment ends with when the
// machine can be observed, with its leading space; empty otherwise.
func (m *model) observeIntro() string {
	if !m.opt.Observe {
		return ""
	}
	return fmt.Sprintf(" %s reports its transitions to a machine.Observer, as table.Agent does (see %s.Observe).", m.id("Machine"), m.id("Machine"))
}

// observeCall writes, in a flat machine's helper that ends an update,
// the report of the transition just taken from state from to state to:
// one comparison when no observer is attached. Nothing without
// Options.Observe.
func (p *printer) observeCall(from, to string) {
	if p.m.opt.Observe {
		p.f("if m.obs != nil {\nm.observe(%s, %s, t)\n}\n", from, to)
	}
}

// observerDoc is the part of the doc comment of Observe that a flat table
// and a statechart share: how to detach, who shares the observer, what is
// not reported, and the costs: after says when the observer is called,
// cost what an update pays without one.
func (m *model) observerDoc(after, cost string) string {
	notTaken := ""
	if m.stack {
		notTaken = fmt.Sprintf(" Transitions not taken (a *%s) are not reported.", m.id("StackError"))
	}
	return fmt.Sprintf("Observe(nil, 0) detaches it. The observer stays with the machine and with the copies made of it afterwards (they share it); a machine made by %s or %s has none, so entering the initial state is not reported.%s\n\n"+
		"The observer is called in the middle of the update, on its goroutine, %s: it must not update the machine, and should return quickly. With no observer an update pays %s. Observe allocates once (the observer and the entity, 24 bytes) unless o is nil.",
		m.newMachine(), m.restoreMachine(), notTaken, after, cost)
}

// observerType writes the type that holds what Observe attached, Observe
// and Observer. unit is what is reported ("transition it takes"), events
// what the events say, after and cost as for observerDoc.
func (p *printer) observerType(unit, events, after, cost string) {
	m := p.m
	mt, ot := m.id("Machine"), m.observerName()
	p.c("%s is what %s.Observe attached: the observer and the entity its events carry.", ot, mt)
	p.f("type %s struct {\no machine.Observer\nentity uint64\n}\n\n", ot)
	p.c("Observe attaches observer o to the machine: from now on, each %s is reported to o, with entity as the event's Entity (the game's number for the entity, for example its index in a slice), as table.Agent.Observe reports it for the same table. %s\n\n%s", unit, events, m.observerDoc(after, cost))
	p.f("func (m *%s) Observe(o machine.Observer, entity uint64) {\nif o == nil {\nm.obs = nil\nreturn\n}\nm.obs = &%s{o: o, entity: entity}\n}\n\n", mt, ot)
	p.c("Observer returns the machine's observer and the entity number its events carry, or nil and 0.")
	p.f("func (m *%s) Observer() (machine.Observer, uint64) {\nif m.obs == nil {\nreturn nil, 0\n}\nreturn m.obs.o, m.obs.entity\n}\n\n", mt)
}

// observer writes, for a flat table with Options.Observe, Observe,
// Observer and observe, which makes the event of a transition as
// table.Agent's observeStep does.
func (p *printer) observer() {
	m := p.m
	if !m.opt.Observe {
		return
	}
	mt, st, tt := m.id("Machine"), m.id("State"), m.id("Test")
	unit := "transition it takes"
	if m.chains() {
		unit = "transition it takes (several in one update: the table chains)"
	}
	p.observerType(unit, fmt.Sprintf("From and To are the states left and entered (machine.Final when the machine finished); Cause is machine.CauseTest for a polled test and machine.CauseMessage for a message; Trigger is the test, as its %s value; Transition is the transition's index in the Transitions of the table's Describe (table.Table.Describe of the table this file was generated from), which lists it under the state left.", tt),
		"after the transition's entry actions", "one comparison per transition taken")
	idx := m.firstSteps()
	p.c("observe reports to the observer the transition on test t from state from to state to (%s when the machine finished).", m.id("Final"))
	p.f("func (m *%s) observe(from, to %s, t %s) {\n", mt, st, tt)
	p.f("ev := machine.Event{Entity: m.obs.entity, From: machine.StateID(from), To: machine.StateID(to), Cause: machine.CauseTest, Trigger: int32(t), Transition: -1}\n")
	p.f("if to == %s {\nev.To = machine.Final\n}\n", m.id("Final"))
	var msgs []string
	for _, i := range m.msgs {
		msgs = append(msgs, m.tests[i].konst)
	}
	if len(msgs) > 0 {
		p.f("switch t {\ncase %s:\nev.Cause = machine.CauseMessage\n}\n", strings.Join(msgs, ", "))
	}
	some := false
	for _, s := range idx {
		some = some || len(s) > 0
	}
	if some {
		p.f("switch from {\n")
		for q, s := range idx {
			if len(s) == 0 {
				continue
			}
			p.f("case %s:\nswitch t {\n", m.states[q].konst)
			for _, x := range s {
				p.f("case %s:\nev.Transition = %d\n", m.tests[x.test].konst, x.index)
			}
			p.f("}\n")
		}
		p.f("}\n")
	}
	p.f("m.obs.o.Observe(ev)\n}\n\n")
}

// stepIndex is the transition an update reports for a test of a state.
type stepIndex struct {
	test  table.TestID
	index int
}

// firstSteps returns, per state, the index in the table's Describe of the
// first of the state's transitions on each test it has one on, in the
// order they are tried: what table.Agent's observer is told when the
// state takes a transition on that test.
func (m *model) firstSteps() [][]stepIndex {
	d := m.t.Describe()
	out := make([][]stepIndex, len(m.states))
	for i, tr := range d.Transitions {
		q := int(tr.From)
		if q < 0 || q >= len(out) || tr.Trigger < 0 {
			continue
		}
		test := table.TestID(tr.Trigger)
		seen := false
		for _, x := range out[q] {
			seen = seen || x.test == test
		}
		if !seen {
			out[q] = append(out[q], stepIndex{test, i})
		}
	}
	return out
}

// listed returns, per state, the index in the table's Describe of its
// first transition: its own transitions, then, for a top-level state, the
// chart root's (the any-state ones), as table.Table.Describe lists them.
func (c *chartM) listed() []int {
	root := &c.nodes[c.n]
	out := make([]int, c.n)
	k := 0
	for q := range c.n {
		out[q] = k
		nd := &c.nodes[q]
		k += nd.thi - nd.tlo
		if nd.parent == c.n {
			k += root.thi - root.tlo
		}
	}
	return out
}

// chartObserver writes, for a statechart with Options.Observe, the
// listing of its transitions for the observer, Observe, Observer and
// observe, which makes the event of a microstep as table.Agent's
// observeMicrostep does.
func (p *printer) chartObserver(c *chartM) {
	m := p.m
	if !m.opt.Observe {
		return
	}
	x := m.chartPrefix()
	p.c("%sListed holds, per state, the index of its first transition in the Transitions of the table's Describe: its own, then for a top-level state the any-state ones (the root's).", x)
	p.f("var %sListed = [%s]int32{%s}\n\n", x, m.id("NumStates"), ints(c.listed()))
	p.observerType("microstep it takes", fmt.Sprintf("From and To are the machine's State before and after (machine.Final when it ended); Cause is machine.CauseEvent for an event raised, posted or sent without delay, machine.CauseTimer for a send whose delay passed, handled in the update that found it due (handled in a later one, it is machine.CauseEvent, as for table.Agent), and machine.CauseNone for eventless transitions; Trigger is the event, as its %s value, or -1; Transition is the first transition the microstep took (of several in parallel regions), as its index in the Transitions of the table's Describe (table.Table.Describe of the table this file was generated from), which lists it under its source, or under the active top-level state for an any-state transition.", m.id("Test")),
		"after the microstep's actions", "one comparison per microstep taken, and counts the events it takes from the external queue (to tell a timer's), as table.Agent does")
	p.b.WriteString(m.chartNames().Replace(chartObserve))
}

// chartObserve is the statechart's observe (see chartRuntime for the
// names).
const chartObserve = `// observe reports the microstep the machine took from state from, handling
// event ev («NoTest» for none), which a timer sent if timed.
func (m *«Machine») observe(from «State», ev «Test», timed bool) {
	e := machine.Event{Entity: m.obs.entity, From: machine.StateID(from), To: machine.StateID(m.state),
		Cause: machine.CauseNone, Trigger: -1, Transition: -1}
	if m.status&«done» != 0 {
		e.To = machine.Final
	}
	if ev != «NoTest» {
		e.Trigger, e.Cause = int32(ev), machine.CauseEvent
		if timed {
			e.Cause = machine.CauseTimer
		}
	}
	if m.nenabled > 0 {
		i := m.enabled[0]
		if src := «p»Trans[i].source; src != «p»Root {
			e.Transition = «p»Listed[src] + i - «p»Nodes[src].tlo
		} else if int(from) < «NumStates» {
			top := int32(from)
			for «p»Nodes[top].parent != «p»Root {
				top = «p»Nodes[top].parent
			}
			nd := &«p»Nodes[top]
			e.Transition = «p»Listed[top] + nd.thi - nd.tlo + i - «p»Nodes[«p»Root].tlo
		}
	}
	m.obs.o.Observe(e)
}

`
