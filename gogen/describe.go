package gogen

import (
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/machine"
)

// describe writes, with Options.Observe, the function Describe, which
// returns the table's machine.Description as table.Table.Describe does:
// so that a game running generated code, without the table, can register
// its machines with a flight recorder or the viewer, and save them with
// the fingerprint a table agent's save carries. A table keeps no
// positions, so its description has no Source to write.
func (p *printer) describe() {
	m := p.m
	if !m.opt.Observe {
		return
	}
	d := m.t.Describe()
	p.c("%s returns the machine's definition as plain data, a new one on each call: exactly what table.Table.Describe returns for the table this file was generated from, so that the events a %s reports, its saves (machine.Fingerprint) and a table agent's are interchangeable. A flight recorder or a viewer registers it.", m.id("Describe"), m.id("Machine"))
	p.f("func %s() machine.Description {\nreturn machine.Description{\n", m.id("Describe"))
	p.f("Name: %s,\nKind: machine.%s,\nInitial: %s,\n", strconv.Quote(d.Name), kindName(d.Kind), stateLit(d.Initial))
	p.f("States: []machine.State{\n")
	for _, s := range d.States {
		p.f("{Name: %s, Kind: machine.%s, Parent: %s", strconv.Quote(s.Name), stateKindName(s.Kind), stateLit(s.Parent))
		if len(s.Entry) > 0 {
			p.f(", Entry: []string{")
			for i, a := range s.Entry {
				if i > 0 {
					p.f(", ")
				}
				p.f("%s", strconv.Quote(a))
			}
			p.f("}")
		}
		p.f("},\n")
	}
	p.f("},\n")
	if d.Transitions != nil {
		p.f("Transitions: []machine.Transition{\n")
		for _, tr := range d.Transitions {
			p.f("{%s},\n", transitionLit(&tr))
		}
		p.f("},\n")
	}
	if d.Triggers != nil {
		p.f("Triggers: []machine.Trigger{\n")
		for _, tg := range d.Triggers {
			p.f("{Name: %s, Kind: machine.%s},\n", strconv.Quote(tg.Name), triggerKindName(tg.Kind))
		}
		p.f("},\n")
	}
	p.f("}\n}\n\n")
}

// transitionLit returns the fields of tr as a composite literal's, those
// at their zero value left out.
func transitionLit(tr *machine.Transition) string {
	var b strings.Builder
	b.WriteString("From: " + stateLit(tr.From))
	if tr.To != nil {
		b.WriteString(", To: []machine.StateID{")
		for i, s := range tr.To {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(stateLit(s))
		}
		b.WriteString("}")
	}
	b.WriteString(", Trigger: " + strconv.Itoa(int(tr.Trigger)))
	if tr.Condition != "" {
		b.WriteString(", Condition: " + strconv.Quote(tr.Condition))
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"Final", tr.Final}, {"Return", tr.Return}, {"Push", tr.Push}} {
		if f.set {
			b.WriteString(", " + f.name + ": true")
		}
	}
	return b.String()
}

// stateLit returns state s as Go source.
func stateLit(s machine.StateID) string {
	switch s {
	case machine.NoState:
		return "machine.NoState"
	case machine.Final:
		return "machine.Final"
	}
	return strconv.Itoa(int(s))
}

// kindName returns the name of k's constant in package machine.
func kindName(k machine.Kind) string {
	if k == machine.KindStatechart {
		return "KindStatechart"
	}
	return "KindTable"
}

// stateKindName returns the name of k's constant in package machine.
func stateKindName(k machine.StateKind) string {
	return [...]string{machine.Atomic: "Atomic", machine.Compound: "Compound", machine.Parallel: "Parallel",
		machine.FinalState: "FinalState", machine.History: "History", machine.DeepHistory: "DeepHistory"}[k]
}

// triggerKindName returns the name of k's constant in package machine.
func triggerKindName(k machine.TriggerKind) string {
	return [...]string{machine.TriggerTest: "TriggerTest", machine.TriggerMessage: "TriggerMessage", machine.TriggerEvent: "TriggerEvent"}[k]
}
