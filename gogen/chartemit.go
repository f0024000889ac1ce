package gogen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/table"
)

// chartPrefix returns the prefix of the unexported package-level names of
// a statechart's data and runtime: sc, or guardSC with Prefix "Guard".
func (m *model) chartPrefix() string {
	if m.pre == "" {
		return "sc"
	}
	return lowerFirst(m.pre) + "SC"
}

// emitChart writes the whole file for statechart c.
func (m *model) emitChart(c *chartM) []byte {
	p := &printer{m: m}
	p.header("encoding/binary", "errors", "math", "math/bits", "strconv")
	p.chartIntro(c)
	p.states()
	p.tests()
	p.messages()
	p.chartTimers(c)
	p.properties()
	p.testValues()
	p.host()
	p.chartErrors()
	p.chartResult()
	p.chartData(c)
	p.chartHostCalls()
	p.b.WriteString(m.chartNames().Replace(chartSections(chartRuntime, m.stack, m.opt.Observe)))
	p.chartObserver(c)
	p.describe()
	if m.stack {
		p.stackErrorType(fmt.Sprintf("The update goes on without the transition (another may be taken instead) and returns the first error it met. State is the state the machine showed then (%s.State), as for table.StackError.", m.id("Machine")))
	}
	p.chartPost()
	p.chartIsEvent()
	p.b.WriteString(m.chartNames().Replace(chartSections(chartSnapshot, m.stack, m.opt.Observe)))
	p.stateWire()
	p.snapshotReader(true)
	return p.b.Bytes()
}

// chartSections returns the runtime template src for a statechart with or
// without the stack, and with or without Options.Observe: the lines
// between a line «if stack» and the next «else» or «end» are kept with the
// stack, those between «else» and «end» without it; «if observe» likewise
// with Options.Observe. The marker lines go. It panics on markers out of
// order (sections do not nest): the template is this package's.
func chartSections(src string, stack, observe bool) string {
	var b strings.Builder
	b.Grow(len(src))
	in, on, keep := "", false, true
	for line := range strings.Lines(src) {
		switch mark := strings.TrimSpace(line); mark {
		case "«if stack»", "«if observe»":
			if in != "" {
				panic("gogen: chart runtime: " + mark + " inside " + in)
			}
			in, on = mark, stack
			if mark == "«if observe»" {
				on = observe
			}
			keep = on
			continue
		case "«else»":
			if in == "" {
				panic("gogen: chart runtime: «else» outside «if»")
			}
			keep = !on
			continue
		case "«end»":
			if in == "" {
				panic("gogen: chart runtime: «end» outside «if»")
			}
			in, keep = "", true
			continue
		}
		if keep {
			b.WriteString(line)
		}
	}
	if in != "" {
		panic("gogen: chart runtime: " + in + " without «end»")
	}
	return b.String()
}

// chartNames replaces the names of chartRuntime.
func (m *model) chartNames() *strings.Replacer {
	chainDoc, chainErr := "", ""
	if m.chain {
		chainDoc = fmt.Sprintf(" The table chains: Update goes on taking microsteps until none is enabled and both queues are empty, at most %d.", m.chainLimit)
		chainErr = ", or a *" + m.id("ChainError")
	}
	if m.stack {
		stackErr := " a *" + m.id("StackError") + " for a transition the stack refused (a return with an empty stack, a push onto a full one)"
		if chainErr == "" {
			chainErr = ", or" + stackErr
		} else {
			chainErr = "," + stackErr + chainErr
		}
	}
	return strings.NewReplacer(
		"«Machine»", m.id("Machine"), "«State»", m.id("State"), "«Test»", m.id("Test"), "«Result»", m.id("Result"),
		"«Host»", m.hostParam, "«NoState»", m.id("NoState"), "«NoTest»", m.id("NoTest"), "«Final»", m.id("Final"),
		"«NumStates»", m.id("NumStates"), "«NumTests»", m.id("NumTests"), "«NewMachine»", m.newMachine(),
		"«ErrNotStarted»", m.errName("NotStarted"), "«ErrReentrant»", m.errName("Reentrant"),
		"«ErrQueueFull»", m.errName("QueueFull"), "«ErrChainLimit»", m.errName("ChainLimit"),
		"«ChainError»", m.id("ChainError"), "«QueueError»", m.id("QueueError"),
		"«StackError»", m.id("StackError"), "«StackLimit»", m.id("StackLimit"),
		"«ready»", m.status("Ready"), "«busy»", m.status("Busy"), "«done»", m.status("Done"),
		"«p»", m.chartPrefix(), "«tname»", m.tname(), "«aMachine»", an(m.id("Machine")),
		"«ctx»", lit(m.ctx()), "«chainDoc»", chainDoc, "«chainErr»", chainErr,
		"«Snapshot»", m.id("Snapshot"), "«aSnapshot»", an(m.id("Snapshot")), "«Recorded»", m.id("Recorded"),
		"«PendingTimer»", m.id("PendingTimer"), "«Timer»", m.id("Timer"), "«NoTimer»", m.id("NoTimer"),
		"«NumTimers»", m.id("NumTimers"), "«AnyState»", m.id("AnyState"), "«RestoreMachine»", m.restoreMachine(), "«reader»", m.readerName(),
		"«observer»", m.observerName(),
	)
}

func (p *printer) chartIntro(c *chartM) {
	m := p.m
	what := []string{plural(len(m.states), "state", "states"), plural(len(m.tests), "test", "tests")}
	if len(m.msgs) > 0 {
		what[1] += " (" + plural(len(m.msgs), "event", "events") + ")"
	}
	what = append(what, plural(len(m.props), "game-action property", "game-action properties"))
	how := "one microstep per update"
	if m.chain {
		how = fmt.Sprintf("microsteps until none is pending, at most %d per update", m.chainLimit)
	}
	host := "through the game's " + m.id("Host") + " interface"
	if m.hostName != "" {
		host = "calling the methods of " + m.hostParam + " directly"
	}
	holds := plural(c.nhist, "history state", "history states") + " and " + plural(len(c.timers), "named timer", "named timers")
	if m.stack {
		holds = plural(c.nhist, "history state", "history states") + ", " + plural(len(c.timers), "named timer", "named timers") +
			fmt.Sprintf(" and a stack of at most %d states", m.stackLimit)
	}
	p.c("This file is the fsmforge statechart %s as Go code: %s. %s runs it with the semantics of fsmforge's table.Agent (SCXML's algorithm), %s, %s. It holds %s.%s",
		m.tname(), strings.Join(what, ", "), m.id("Machine"), how, host, holds, m.observeIntro())
	p.f("\n")
}

func (p *printer) chartErrors() {
	m := p.m
	mt := m.id("Machine")
	p.c("Errors of %s's methods, for errors.Is.", mt)
	p.f("var (\n")
	p.ci("%s is returned by Update and Post on a zero %s: make machines with %s or %s.", m.errName("NotStarted"), mt, m.newMachine(), m.restoreMachine())
	p.f("%s = errors.New(%s)\n", m.errName("NotStarted"), lit(m.opt.Package+": "+mt+" not started (make it with "+m.newMachine()+" or "+m.restoreMachine()+")"))
	p.ci("%s is returned by Update called from inside the same machine's update (from a host method). The machine is unchanged.", m.errName("Reentrant"))
	p.f("%s = errors.New(%s)\n", m.errName("Reentrant"), lit(m.opt.Package+": "+mt+" updated from inside its own update"))
	p.ci("%s is matched by every *%s: an event or a send dropped.", m.errName("QueueFull"), m.id("QueueError"))
	p.f("%s = errors.New(%s)\n", m.errName("QueueFull"), lit(m.opt.Package+": event queue full"))
	p.ci("%s is matched by every *%s.", m.errName("ChainLimit"), m.id("ChainError"))
	p.f("%s = errors.New(%s)\n", m.errName("ChainLimit"), lit(m.opt.Package+": chain limit reached"))
	if m.stack {
		p.stackErrVars()
	}
	p.f(")\n\n")
	if m.stack {
		p.f("const (\n")
		p.stackLimitConst()
		p.f(")\n\n")
	}
}

func (p *printer) chartResult() {
	m := p.m
	r, st := m.id("Result"), m.id("State")
	p.c("%s says what an update did, as table.Result does for a statechart: From and To are the states the machine showed before and after (To is %s if it ended); Test is the last event handled, or the test of an eventless transition, or %s; Steps counts microsteps.", r, m.id("Final"), m.id("NoTest"))
	p.f("type %s struct {\n", r)
	p.f("From %s // the state at the start of the update\n", st)
	p.f("To %s // the state at the end, or %s\n", st, m.id("Final"))
	p.f("Test %s // the last event handled, or %s\n", m.id("Test"), m.id("NoTest"))
	p.f("Steps uint16 // microsteps taken\n}\n\n")
	p.c("Moved reports whether the update took a microstep.")
	p.f("func (r %s) Moved() bool { return r.Steps > 0 }\n\n", r)
	p.c("Final reports whether the machine is done.")
	p.f("func (r %s) Final() bool { return r.To == %s }\n\n", r, m.id("Final"))
}

// chartData writes the statechart's arrays.
func (p *printer) chartData(c *chartM) {
	m := p.m
	x := m.chartPrefix()
	tt := m.id("Test")
	p.c("The statechart's layout, as package table's runtime holds it: states in document order, the root (the parent of the top-level states) numbered %s.", m.id("NumStates"))
	p.f("const (\n")
	p.f("%sWords = %d // of a set of states\n", x, c.words)
	p.f("%sNumHist = %d // history states\n", x, c.nhist)
	p.f("%sNumNodes = %d // states and the root\n", x, c.n+1)
	p.f("%sRoot = %d\n", x, c.n)
	p.f("%sQueueLimit = %d // events per queue\n", x, c.queue)
	p.f("%sTimerLimit = %d // pending sends\n", x, c.ntimers)
	p.f("%sChain = %v\n", x, m.chain)
	p.f("%sChainLimit = %d // microsteps per update, when chaining\n", x, m.chainLimit)
	p.f(")\n\n")
	p.c("Kinds of states, operations of conditions, kinds of actions.")
	p.f("const (\n%sKindBasic = iota\n%sKindParallel\n%sKindFinal\n%sKindHistory\n%sKindDeepHistory\n)\n\n", x, x, x, x, x)
	p.f("const (\n%sCondTest = iota\n%sCondIn\n%sCondNot\n%sCondAnd\n%sCondOr\n%sCondTrue\n%sCondFalse\n)\n\n", x, x, x, x, x, x, x)
	p.f("const (\n%sGame = iota\n%sRaise\n%sSend\n%sCancel\n)\n\n", x, x, x, x)

	p.c("%sNode is a state, or the root: its parent (-1 for the root) and the end of its descendants, its kind, its history slot (or -1), and ranges of %sKids (children, then history children), %sTrans (its transitions), %sActions (entry, exit), and its default transition (or -1).", x, x, x, x)
	p.f("type %sNode struct {\nparent, end int32\nkind uint8\ncompound, eventless bool\nhist int32\nklo, khi, hlo, hhi int32\ntlo, thi int32\nelo, ehi, xlo, xhi int32\ndflt int32\n}\n\n", x)
	p.f("var %sNodes = [...]%sNode{\n", x, x)
	for s, nd := range c.nodes {
		name := "the root"
		if s < c.n {
			name = q(nd.name)
		}
		p.f("{%d, %d, %d, %v, %v, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d}, // %d %s\n",
			nd.parent, nd.end, nd.kind, nd.compound, nd.eventless, nd.hist, nd.klo, nd.khi, nd.hlo, nd.hhi,
			nd.tlo, nd.thi, nd.elo, nd.ehi, nd.xlo, nd.xhi, nd.dflt, s, name)
	}
	p.f("}\n\n")
	p.f("var %sKids = [...]int32{%s}\n\n", x, ints(c.kids))
	p.c("%sHistStates holds the history states, ascending.", x)
	p.f("var %sHistStates = [%sNumHist]int32{%s}\n\n", x, x, ints(c.histStates()))
	p.f("var %sAtomic = [%sWords]uint64{", x, x)
	for i, w := range c.atomic {
		if i > 0 {
			p.f(", ")
		}
		p.f("%#x", w)
	}
	p.f("}\n\n")

	dynamic, flags, stackFields := "history states", "and whether it has events or is internal", ""
	if m.stack {
		dynamic = "history states or what is on top of the stack"
		flags = "whether it has events or is internal, and whether it pushes its source or returns to the top of the stack"
		stackFields = "push, ret bool\n"
	}
	p.c("%sTransition is a transition: its source, its test (the trigger or a polled test, for Result.Test), ranges of %sTargets, %sActions, %sConds and %sEvents (sorted), its domain (-1: none, or worked out at run time for a dynamic one, whose targets are %s), %s.", x, x, x, x, x, dynamic, flags)
	p.f("type %sTransition struct {\nsource int32\ntest %s\ntlo, thi, alo, ahi, clo, chi, elo, ehi int32\ndomain int32\neventful, internal, dynamic bool\n%s}\n\n", x, tt, stackFields)
	p.f("var %sTrans = [...]%sTransition{\n", x, x)
	for i, t := range c.trans {
		p.f("{%d, %s, %d, %d, %d, %d, %d, %d, %d, %d, %d, %v, %v, %v", t.source, m.testRef(t.test),
			t.tlo, t.thi, t.alo, t.ahi, t.clo, t.chi, t.elo, t.ehi, t.domain, t.eventful, t.internal, t.dynamic)
		note := ""
		if m.stack {
			p.f(", %v, %v", t.push, t.ret)
			switch {
			case t.push:
				note = " push"
			case t.ret:
				note = " return"
			}
		}
		p.f("}, // %d%s\n", i, note)
	}
	p.f("}\n\n")
	p.f("var %sTargets = [...]int32{%s}\n\n", x, ints(c.targets))
	var evs []string
	for _, e := range c.events {
		evs = append(evs, m.testRef(e))
	}
	p.f("var %sEvents = [...]%s{%s}\n\n", x, tt, strings.Join(evs, ", "))

	p.c("%sAction is an action: a game action (property and value), a raise or a send of an event (a send after delay seconds, as a timer), or a cancel of a timer; with the range of its condition in %sConds.", x, x)
	p.f("type %sAction struct {\nkind uint8\nproperty %s\nvalue uint16\nevent %s\ntimer uint16\ndelay float64\nclo, chi int32\n}\n\n", x, m.id("Property"), tt)
	p.f("var %sActions = [...]%sAction{\n", x, x)
	for i, a := range c.acts {
		note := ""
		switch a.Kind {
		case table.GameAction:
			note = q(m.props[a.Property].name + "=" + m.props[a.Property].values[a.Value].name)
		case table.RaiseAction:
			note = "raise " + q(m.tests[a.Event].name)
		case table.SendAction:
			note = "send " + q(m.tests[a.Event].name)
		case table.CancelAction:
			note = "cancel"
		}
		if a.Kind != table.GameAction && a.Timer != table.NoTimer && int(a.Timer) < len(c.timers) {
			note += ", timer " + q(c.timers[a.Timer])
		}
		prop, ev, timer := "0", m.id("NoTest"), a.Timer
		if a.Kind == table.GameAction {
			prop, timer = m.props[a.Property].konst, table.NoTimer
		} else {
			ev = m.testRef(a.Event)
		}
		p.f("{%d, %s, %d, %s, %d, %s, %d, %d}, // %d %s\n", a.Kind, prop, a.Value, ev, timer,
			strconv.FormatFloat(a.Delay, 'g', -1, 64), a.clo, a.chi, i, note)
	}
	p.f("}\n\n")
	p.c("%sCond is a term of a condition in postfix form.", x)
	p.f("type %sCond struct {\nop uint8\ntest %s\nstate int32\n}\n\n", x, tt)
	p.f("var %sConds = [...]%sCond{\n", x, x)
	for _, ct := range c.conds {
		test := "0"
		if ct.Op == table.CondTest {
			test = m.testRef(ct.Test)
		}
		state := 0
		if ct.Op == table.CondIn {
			state = int(ct.State)
		}
		p.f("{%d, %s, %d},\n", ct.Op, test, state)
	}
	p.f("}\n\n")
	var done []string
	for _, d := range c.done {
		done = append(done, m.testRef(d))
	}
	p.c("%sDone is, per state and the root, the event \"done.state.NAME\" its completion raises, or %s.", x, m.id("NoTest"))
	p.f("var %sDone = [...]%s{%s}\n\n", x, tt, strings.Join(done, ", "))
}

// testRef returns the constant of test id, or NoTest.
func (m *model) testRef(id table.TestID) string {
	if id == table.NoTest || int(id) >= len(m.tests) {
		return m.id("NoTest")
	}
	return m.tests[id].konst
}

func ints(list []int) string {
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}

// chartHostCalls writes the calls to the host: a polled test, a game
// action.
func (p *printer) chartHostCalls() {
	m := p.m
	p.c("test asks the host whether polled test t holds.")
	p.f("func (m *%s) test(h %s, t %s) bool {\nswitch t {\n", m.id("Machine"), m.hostParam, m.id("Test"))
	for _, t := range m.tests {
		if !t.message {
			p.f("case %s:\nreturn h.%s(%s)\n", t.konst, m.groups[t.group].method, t.arg)
		}
	}
	p.f("}\nreturn false\n}\n\n")
	p.c("%sDo performs a game action: sets property p to value v.", m.chartPrefix())
	p.f("func %sDo(h %s, p %s, v uint16) {\nswitch p {\n", m.chartPrefix(), m.hostParam, m.id("Property"))
	for _, pr := range m.props {
		p.f("case %s:\nh.%s(%s(v))\n", pr.konst, pr.method, pr.typ)
	}
	p.f("}\n}\n\n")
}

func (p *printer) chartPost() {
	m := p.m
	if len(m.msgs) == 0 {
		return
	}
	p.c("Post puts event msg on the machine's external queue: a later update handles it. It may be called from a host method during an update. It returns a *%s when the queue is full, %s on a zero machine, and does nothing for a machine that is done.", m.id("QueueError"), m.errName("NotStarted"))
	p.f("func (m *%s) Post(msg %s) error {\n", m.id("Machine"), m.id("Message"))
	p.f("switch {\ncase m.status == 0:\nreturn %s\ncase m.status&%s != 0:\nreturn nil\n}\n", m.errName("NotStarted"), m.status("Done"))
	p.f("ev := msg.Test()\nif ev == %s {\nreturn errors.New(%s + msg.String() + \" is not a message\")\n}\n", m.id("NoTest"), lit(m.ctx()+"Post: "))
	p.f("if !m.external.push(ev) {\nreturn &%s{Event: ev, Limit: len(m.external.buf)}\n}\nreturn nil\n}\n", m.id("QueueError"))
}

// histStates returns the history states, ascending.
func (c *chartM) histStates() []int {
	var hs []int
	for s := range c.n {
		if c.nodes[s].hist >= 0 {
			hs = append(hs, s)
		}
	}
	return hs
}

// chartTimers writes the Timer type: the IDs of the table's named timers.
func (p *printer) chartTimers(c *chartM) {
	m := p.m
	tm := m.id("Timer")
	p.c("%s is a named timer of %s, numbered as the table's TimerIDs: what a send action starts and a cancel action stops. It appears in the pending sends of %s.", tm, m.tname(), an(m.id("Snapshot")))
	p.f("type %s uint16\n\n", tm)
	p.f("const (\n")
	p.ci("%s is the timer of a send that no cancel names.", m.id("NoTimer"))
	p.f("%s %s = %d\n", m.id("NoTimer"), tm, 0xFFFF)
	p.ci("%s is the number of named timers.", m.id("NumTimers"))
	p.f("%s = %d\n", m.id("NumTimers"), len(c.timers))
	p.f(")\n\n")
	p.c("String returns the timer's name in the table, \"no timer\" for %s, or \"%s(n)\".", m.id("NoTimer"), tm)
	p.f("func (t %s) String() string {\nswitch t {\n", tm)
	for i, name := range c.timers {
		p.f("case %d:\nreturn %s\n", i, lit(name))
	}
	p.f("case %s:\nreturn \"no timer\"\n", m.id("NoTimer"))
	p.f("}\nreturn %s + strconv.Itoa(int(t)) + \")\"\n}\n\n", lit(tm+"("))
}

// chartIsEvent writes the function that tells the tests a queue or a
// pending send may hold: the message tests.
func (p *printer) chartIsEvent() {
	m := p.m
	p.c("%sIsEvent reports whether t is an event, a message test: what the queues and the pending sends hold.", m.chartPrefix())
	if len(m.msgs) == 0 {
		p.f("func %sIsEvent(t %s) bool { return false }\n\n", m.chartPrefix(), m.id("Test"))
		return
	}
	p.f("func %sIsEvent(t %s) bool {\n_, ok := t.Message()\nreturn ok\n}\n\n", m.chartPrefix(), m.id("Test"))
}
