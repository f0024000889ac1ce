package gogen

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fsmforge/fsmforge/table"
)

// model is what the generated file says about a table: every name made an
// identifier, every feature the table uses, in table order.
type model struct {
	t   *table.Table
	opt Options
	pre string // Options.Prefix

	// The parameter type of NewMachine, Update and Receive, and the guard.
	hostParam string // "*Goomba", or the Host interface's name
	hostName  string // "Goomba", or "" with no Options.Host
	hostPtr   bool

	states []stateM
	tests  []testM
	msgs   []int // message slot → test index
	groups []groupM
	props  []propM
	any    []table.Transition

	chain      bool
	chainLimit int
	stackLimit int
	stack      bool // some transition pushes or returns
	push       bool // some state's own transition pushes (DestPush is written)

	stateType, testType, propType, flagsType string
	final, ret, anyState, noState            uint64
	noTest                                   uint64
}

type stateM struct {
	name    string
	konst   string // StateWalkLeft
	enter   string // the Machine method that enters it: enterWalkLeft
	actions []table.Action
	own     []table.Transition // the state's transitions, in order
	steps   []table.Transition // what Update tries: the any-state ones that apply, then own
}

type testM struct {
	name, value string
	message     bool
	konst       string // TestHitTriggerLeft
	slot        int    // message: its Message value; polled: -1
	msgKonst    string // message: MessageHitByPlayer
	group       int    // polled: its index in model.groups
	arg         string // polled: the argument of the host call ("", a quoted string, or a value constant)
}

// groupM is a host method answering the polled tests of one name.
type groupM struct {
	name   string
	method string   // HitTriggerLeft
	typ    string   // the parameter type: "" (none), "string", or a value type such as Health
	values []valueM // with a value type: its constants
	tests  []int    // the tests it answers
}

type valueM struct{ name, konst string }

type propM struct {
	name   string
	konst  string // PropertyXMovement
	typ    string // XMovement
	method string // XMovement
	values []valueM
}

// fixedNames are the package-level names every generated file reserves,
// before the prefix; New and Restore take the prefix after their verb, Err
// after Err.
var fixedNames = []string{
	"State", "Test", "Message", "Property", "Action", "Transition", "Host", "Machine",
	"Result", "Snapshot", "StackError", "ChainError", "QueueError",
	"Final", "Return", "AnyState", "NoState", "NoTest", "Initial",
	"NumStates", "NumTests", "NumMessages", "NumProperties", "StackLimit", "ChainLimit",
	"Transitions", "EntryActions", "AnyTransitions", "Dest", "DestPush",
}

// chartNames are the package-level names a statechart's file reserves
// besides fixedNames, before the prefix: the types of its snapshot.
var chartNames = []string{"Timer", "NoTimer", "NumTimers", "PendingTimer", "Recorded"}

// Generator-declared names that are not a prefix followed by a fixed name.
func (m *model) newMachine() string     { return "New" + m.pre + "Machine" }
func (m *model) restoreMachine() string { return "Restore" + m.pre + "Machine" }
func (m *model) errName(s string) string {
	return "Err" + m.pre + s
}

// observerName is the unexported type that holds what Observe attached:
// machineObserver, or oddMachineObserver with Prefix "Odd".
func (m *model) observerName() string { return lowerFirst(m.pre + "MachineObserver") }

// readerName is the unexported type that reads a snapshot's binary form:
// snapshotReader, or oddSnapshotReader with Prefix "Odd".
func (m *model) readerName() string { return lowerFirst(m.pre + "SnapshotReader") }

var errNames = []string{"NotStarted", "Reentrant", "StackOverflow", "StackUnderflow", "ChainLimit", "QueueFull"}

// id returns a fixed package-level name with the prefix.
func (m *model) id(name string) string { return m.pre + name }

// status returns the name of a machine status constant: machineReady,
// guardMachineReady.
func (m *model) status(s string) string { return lowerFirst(m.pre+"Machine") + s }

// newModel names everything in t and records what it uses, reporting names
// that cannot be identifiers or that collide.
func newModel(x *errs, t *table.Table, opt Options) *model {
	m := &model{t: t, opt: opt, pre: opt.Prefix}
	o := t.Options()
	m.chain = o.Chain
	m.chainLimit = o.ChainLimit
	if m.chainLimit == 0 {
		m.chainLimit = t.NumStates()
	}
	m.stackLimit = o.StackLimit
	if m.stackLimit == 0 {
		m.stackLimit = table.MaxStack
	}

	pkg := newScope(x)
	for _, n := range fixedNames {
		pkg.fixed(m.id(n))
	}
	pkg.fixed(m.newMachine(), m.restoreMachine(), m.readerName())
	if opt.Observe {
		pkg.fixed(m.observerName(), m.id("Describe"))
	}
	if t.Statechart() {
		for _, n := range chartNames {
			pkg.fixed(m.id(n))
		}
	}
	for _, e := range errNames {
		pkg.fixed(m.errName(e))
	}
	for _, s := range []string{"Ready", "Busy", "Done"} {
		pkg.fixed(m.status(s))
	}
	host := newScope(x)

	// word returns camel(name), reporting a name with no letter or digit.
	word := func(where, name string) (string, bool) {
		c := camel(name)
		if c == "" {
			x.name(where, "cannot be made a Go identifier: it has no letter or digit; rename it")
			return "", false
		}
		return c, true
	}

	// Properties: a type, a constant, a host method, and the values.
	for p := range t.NumProperties() {
		id := table.PropertyID(p)
		name := t.Property(id)
		where := fmt.Sprintf("property %q", name)
		c, ok := word(where, name)
		if !ok {
			m.props = append(m.props, propM{name: name})
			continue
		}
		pm := propM{name: name, konst: m.pre + "Property" + c, typ: m.pre + exported(c), method: exported(c)}
		pkg.declare(pm.konst, where)
		pkg.declare(pm.typ, where+" (its type)")
		host.declare(pm.method, where)
		for v := range t.NumValues(id) {
			vname := t.Value(id, table.ValueID(v))
			vw := fmt.Sprintf("value %q of property %q", vname, name)
			vc, ok := word(vw, vname)
			if ok {
				pkg.declare(pm.typ+vc, vw)
			}
			pm.values = append(pm.values, valueM{name: vname, konst: pm.typ + vc})
		}
		m.props = append(m.props, pm)
	}

	// Tests: a constant each; messages a Message constant; polled tests a
	// host method per name, typed when the name has several values.
	groupOf := make(map[string]int)
	for i := range t.NumTests() {
		tt := t.Test(table.TestID(i))
		where := fmt.Sprintf("test %q", tt.String())
		if tt.Message {
			where = fmt.Sprintf("message %q", tt.String())
		}
		tm := testM{name: tt.Name, value: tt.Value, message: tt.Message, slot: -1, group: -1}
		c, ok := word(where, tt.Name)
		vc := ""
		if ok && tt.Value != "" {
			vc, ok = word(where+" (its value)", tt.Value)
		}
		if ok {
			tm.konst = m.pre + "Test" + c + vc
			declared := pkg.declare(tm.konst, where)
			if tt.Message {
				tm.slot = len(m.msgs)
				tm.msgKonst = m.pre + "Message" + c + vc
				if declared {
					pkg.declare(tm.msgKonst, where)
				}
			}
		} else if tt.Message {
			tm.slot = len(m.msgs)
		}
		if tt.Message {
			m.msgs = append(m.msgs, i)
		} else {
			g, seen := groupOf[tt.Name]
			if !seen {
				g = len(m.groups)
				groupOf[tt.Name] = g
				m.groups = append(m.groups, groupM{name: tt.Name})
			}
			tm.group = g
			m.groups[g].tests = append(m.groups[g].tests, i)
		}
		m.tests = append(m.tests, tm)
	}
	for g := range m.groups {
		gm := &m.groups[g]
		where := fmt.Sprintf("test %q", gm.name)
		c := camel(gm.name)
		if c == "" {
			continue // reported with the test
		}
		gm.method = exported(c)
		host.declare(gm.method, where)
		switch first := m.tests[gm.tests[0]]; {
		case len(gm.tests) == 1 && first.value == "":
		case len(gm.tests) == 1:
			gm.typ = "string"
			m.tests[gm.tests[0]].arg = strconv.Quote(first.value)
		default:
			gm.typ = m.pre + gm.method
			pkg.declare(gm.typ, where+" (the type of its values)")
			for _, i := range gm.tests {
				tm := &m.tests[i]
				vc := camel(tm.value)
				if tm.value == "" {
					vc = "None"
				} else if vc == "" {
					continue // reported with the test
				}
				k := gm.typ + vc
				pkg.declare(k, fmt.Sprintf("value %q of test %q", tm.value, gm.name))
				gm.values = append(gm.values, valueM{name: tm.value, konst: k})
				tm.arg = k
			}
		}
	}

	// States.
	for q := range t.NumStates() {
		id := table.StateID(q)
		name := t.StateName(id)
		where := fmt.Sprintf("state %q", name)
		sm := stateM{name: name}
		if c, ok := word(where, name); ok {
			sm.konst = m.pre + "State" + c
			sm.enter = "enter" + c
			pkg.declare(sm.konst, where)
		}
		for a := range t.Actions(id) {
			sm.actions = append(sm.actions, a)
		}
		for tr := range t.Transitions(id) {
			sm.own = append(sm.own, tr)
			m.push = m.push || tr.Push
			m.stack = m.stack || tr.Push || tr.To == table.Return
		}
		m.states = append(m.states, sm)
	}
	for tr := range t.Transitions(table.AnyState) {
		m.any = append(m.any, tr)
		m.stack = m.stack || tr.Push || tr.To == table.Return
	}
	for q := range m.states {
		s := &m.states[q]
		for _, tr := range m.any {
			if tr.To != table.StateID(q) { // an any-state transition never leaves its destination for itself
				s.steps = append(s.steps, tr)
			}
		}
		s.steps = append(s.steps, s.own...)
	}

	// The host type must not be one of the file's own names.
	if opt.Host != "" {
		name, ptr, _ := parseHost(opt.Host)
		m.hostName, m.hostPtr, m.hostParam = name, ptr, opt.Host
		if pkg.has(name) {
			x.option("Host", "%q is a name the generated file declares; use the game's own type (or set Options.Prefix)", name)
		}
	} else {
		m.hostParam = m.id("Host")
	}

	// Integer types.
	m.stateType, m.final = "uint8", math.MaxUint8
	if len(m.states) > math.MaxUint8-3 {
		m.stateType, m.final = "uint16", math.MaxUint16
	}
	m.ret, m.anyState, m.noState = m.final-1, m.final-2, m.final-3
	m.testType, m.noTest = "uint8", math.MaxUint8
	if len(m.tests) >= math.MaxUint8 {
		m.testType, m.noTest = "uint16", math.MaxUint16
	}
	m.propType = uintFor(len(m.props))
	switch n := len(m.msgs); {
	case n <= 8:
		m.flagsType = "uint8"
	case n <= 16:
		m.flagsType = "uint16"
	case n <= 32:
		m.flagsType = "uint32"
	default:
		m.flagsType = "uint64"
	}
	return m
}

// uintFor returns the smallest unsigned type that numbers n things.
func uintFor(n int) string {
	if n <= math.MaxUint8+1 {
		return "uint8"
	}
	return "uint16"
}
