package table

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// chartVersion is the binary format's version for statechart tables: the
// sections META, PROP and TEST of version 1, then CHRT in place of STAT,
// ANYS and DEST (doc.go describes it). Flat tables are still written as
// version 1, so that their files do not change.
const chartVersion = 2

// chartSectionTags are the sections of a version 2 file, in order.
var chartSectionTags = [...]string{"META", "PROP", "TEST", "CHRT"}

// appendChart appends the CHRT section's contents: the options a
// statechart adds, the timers, the states (name, kind, parent, entry and
// exit actions), the states SetInitial marked, the transitions, the
// any-state transitions and the default transitions.
func (t *Table) appendChart(b []byte) []byte {
	src := &t.sc.src
	u16 := func(v int) { b = binary.LittleEndian.AppendUint16(b, uint16(v)) }
	u32 := func(v int) { b = binary.LittleEndian.AppendUint32(b, uint32(v)) }
	str := func(s string) { b = append(b, byte(len(s))); b = append(b, s...) }
	conds := func(list Cond) {
		u16(len(list))
		for _, c := range list {
			b = append(b, byte(c.Op))
			u16(int(c.Test))
			u16(int(c.State))
		}
	}
	actions := func(list []Action) {
		u16(len(list))
		for _, a := range list {
			b = append(b, byte(a.Kind))
			u16(int(a.Property))
			u16(int(a.Value))
			u16(int(a.Event))
			u16(int(a.Timer))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(a.Delay))
			conds(a.Cond)
		}
	}
	ids := func(list []StateID) {
		u16(len(list))
		for _, s := range list {
			u16(int(s))
		}
	}
	transitions := func(list []Transition) {
		u32(len(list))
		for _, tr := range list {
			u16(int(tr.From))
			u16(int(tr.Test))
			u16(int(tr.To))
			var f byte
			if tr.Push {
				f |= 1
			}
			if tr.Internal {
				f |= 2
			}
			b = append(b, f)
			u16(len(tr.Events))
			for _, e := range tr.Events {
				u16(int(e))
			}
			conds(tr.Cond)
			ids(tr.Also)
			actions(tr.Actions)
		}
	}
	u16(t.opts.QueueLimit)
	u16(t.opts.TimerLimit)
	u16(len(src.timers))
	for _, name := range src.timers {
		str(name)
	}
	u16(len(t.states))
	for s, st := range t.states {
		str(st.name)
		b = append(b, byte(src.kinds[s]))
		u16(int(src.parents[s]))
		actions(st.actions)
		actions(src.exits[s])
	}
	ids(src.marked)
	transitions(src.own)
	transitions(src.any)
	transitions(src.defaults)
	return b
}

// chart reads the CHRT section into t's states and a Builder's
// statechart, then builds the table again, which validates it.
func (d *decoder) chart(t *Table) *Table {
	var src chartSource
	d.what, d.index = "options", -1
	t.opts.QueueLimit = d.u16()
	t.opts.TimerLimit = d.u16()
	d.what = "timers"
	src.timers = make([]string, d.count("timers", 1))
	for i := range src.timers {
		src.timers[i] = d.str()
	}
	conds := func() Cond {
		k := d.count("condition terms", 5)
		if k == 0 {
			return nil
		}
		list := make(Cond, k)
		for j := range list {
			list[j] = CondTerm{Op: CondOp(d.u8()), Test: TestID(d.u16()), State: StateID(d.u16())}
		}
		return list
	}
	actions := func() []Action {
		list := make([]Action, d.count("actions", 19))
		for i := range list {
			a := &list[i]
			a.Kind = ActionKind(d.u8())
			a.Property = PropertyID(d.u16())
			a.Value = ValueID(d.u16())
			a.Event = TestID(d.u16())
			a.Timer = TimerID(d.u16())
			if d.need(8) {
				a.Delay = math.Float64frombits(binary.LittleEndian.Uint64(d.data[d.off:]))
				d.off += 8
			}
			a.Cond = conds()
		}
		return list
	}
	ids := func(what string) []StateID {
		list := make([]StateID, d.count(what, 2))
		for i := range list {
			list[i] = StateID(d.u16())
		}
		return list
	}
	n := d.count("states", 1+1+2+2+2)
	t.states = make([]state, n)
	src.kinds, src.parents, src.exits = make([]StateKind, n), make([]StateID, n), make([][]Action, n)
	for s := range n {
		d.what, d.index = "state", s
		t.states[s].name = d.str()
		src.kinds[s] = StateKind(d.u8())
		src.parents[s] = StateID(d.u16())
		t.states[s].actions = actions()
		src.exits[s] = actions()
		if d.err != nil {
			return nil
		}
	}
	d.what, d.index = "initial states", -1
	src.marked = ids("initial states")
	transitions := func(what string) []Transition {
		d.what, d.index = what, -1
		m := d.u32count(what, 2+2+2+1+2+2+2+2)
		list := make([]Transition, m)
		for i := range list {
			d.index = i
			tr := &list[i]
			tr.From, tr.Test, tr.To = StateID(d.u16()), TestID(d.u16()), StateID(d.u16())
			f := d.u8()
			if f > 3 {
				d.off--
				d.fail(ErrCorrupt, "transition flags %#02x; version %d defines 0x01 (push) and 0x02 (internal)", f, chartVersion)
			}
			tr.Push, tr.Internal = f&1 != 0, f&2 != 0
			if k := d.count("events", 2); k > 0 {
				tr.Events = make([]TestID, k)
				for j := range tr.Events {
					tr.Events[j] = TestID(d.u16())
				}
			}
			tr.Cond = conds()
			if also := ids("targets"); len(also) > 0 {
				tr.Also = also
			}
			if acts := actions(); len(acts) > 0 {
				tr.Actions = acts
			}
			if d.err != nil {
				return nil
			}
		}
		return list
	}
	src.own = transitions("transitions")
	src.any = transitions("any-state transitions")
	src.defaults = transitions("default transitions")
	if d.err != nil {
		return nil
	}
	b := src.builder(t)
	nt, err := b.Build()
	if err != nil {
		d.fail(ErrInvalid, "%v", err)
		return nil
	}
	return nt
}

// u32count reads a uint32 count of items of at least min bytes each, as
// count does.
func (d *decoder) u32count(what string, min int) int {
	if !d.need(4) {
		return 0
	}
	n := int(binary.LittleEndian.Uint32(d.data[d.off:]))
	d.off += 4
	if n > (d.end-d.off)/min {
		d.fail(ErrCorrupt, "%d %s need at least %d bytes each; %d remain in the section", n, what, min, d.end-d.off)
		return 0
	}
	return n
}

// marshalChartJSON writes a statechart table's JSON form, version 2: every
// state with its kind, parent and exit actions, transitions listed under
// their source state, with events, condition, further targets and
// actions, and the default transitions.
func (t *Table) marshalChartJSON() ([]byte, error) {
	src := &t.sc.src
	j := jsonTable{
		Format:  jsonFormat,
		Version: chartVersion,
		Name:    t.name,
		Options: jsonOptions{Chain: t.opts.Chain, ChainLimit: t.opts.ChainLimit, StackLimit: t.opts.StackLimit,
			QueueLimit: t.opts.QueueLimit, TimerLimit: t.opts.TimerLimit},
		Properties: make([]jsonProperty, len(t.props)),
		Tests:      make([]jsonTest, len(t.tests)),
		Initial:    t.states[t.initial].name,
		Any:        make([]jsonTrans, 0, len(src.any)),
		States:     make([]jsonState, len(t.states)),
		Timers:     src.timers,
	}
	for i, p := range t.props {
		j.Properties[i] = jsonProperty{Name: p.name, Values: p.values}
	}
	for i, tt := range t.tests {
		j.Tests[i] = jsonTest(tt)
	}
	for q, s := range t.states {
		js := jsonState{Name: s.name, Actions: t.jsonActions(s.actions), Transitions: []jsonTrans{}, Exit: t.jsonActions(src.exits[q])}
		if k := src.kinds[q]; k != KindBasic {
			js.Kind = k.String()
		}
		if p := src.parents[q]; p != NoState {
			js.Parent = t.states[p].name
		}
		js.Initial = slices.Contains(src.marked, StateID(q))
		if len(js.Exit) == 0 {
			js.Exit = nil
		}
		j.States[q] = js
	}
	for _, tr := range src.own {
		j.States[tr.From].Transitions = append(j.States[tr.From].Transitions, t.jsonChartTrans(tr))
	}
	for _, tr := range src.any {
		j.Any = append(j.Any, t.jsonChartTrans(tr))
	}
	for _, tr := range src.defaults {
		jt := t.jsonChartTrans(tr)
		if tr.From != NoState {
			jt.From = t.states[tr.From].name
		}
		j.Defaults = append(j.Defaults, jt)
	}
	return json.Marshal(j)
}

// jsonActions returns actions by name.
func (t *Table) jsonActions(list []Action) []jsonAction {
	out := make([]jsonAction, len(list))
	for i, a := range list {
		ja := &out[i]
		switch a.Kind {
		case GameAction:
			ja.Property, ja.Value = t.props[a.Property].name, t.props[a.Property].values[a.Value]
			continue
		case RaiseAction, SendAction:
			ja.Event = t.tests[a.Event].Name
			ja.Delay = a.Delay
		}
		ja.Kind = a.Kind.String()
		if a.Timer != NoTimer {
			ja.Timer = t.sc.src.timers[a.Timer]
		}
	}
	for i, a := range list {
		out[i].Cond = t.jsonCond(a.Cond)
	}
	return out
}

// jsonCond returns a condition by name.
func (t *Table) jsonCond(cond Cond) []jsonCond {
	var out []jsonCond
	for _, c := range cond {
		jc := jsonCond{Op: condNames[c.Op]}
		switch c.Op {
		case CondTest:
			jc.Test, jc.Value = t.tests[c.Test].Name, t.tests[c.Test].Value
		case CondIn:
			jc.State = t.states[c.State].name
		}
		out = append(out, jc)
	}
	return out
}

// jsonChartTrans returns a statechart transition by name.
func (t *Table) jsonChartTrans(tr Transition) jsonTrans {
	var j jsonTrans
	if tr.Test != NoTest {
		j.Test, j.Value = t.tests[tr.Test].Name, t.tests[tr.Test].Value
	}
	switch tr.To {
	case NoState:
	case Return:
		j.Return = true
	default:
		j.To = t.states[tr.To].name
	}
	for _, e := range tr.Events {
		j.Events = append(j.Events, jsonTest(t.tests[e]))
	}
	j.Cond = t.jsonCond(tr.Cond)
	for _, s := range tr.Also {
		j.Also = append(j.Also, t.states[s].name)
	}
	j.Internal, j.Push = tr.Internal, tr.Push
	if len(tr.Actions) > 0 {
		j.Actions = t.jsonActions(tr.Actions)
	}
	return j
}

var condNames = [...]string{CondTest: "test", CondIn: "in", CondNot: "not", CondAnd: "and", CondOr: "or", CondTrue: "true", CondFalse: "false"}

// unmarshalChartJSON reads a statechart table's JSON form into a Builder
// and builds it, which validates it.
func unmarshalChartJSON(j *jsonTable) (*Table, error) {
	var x errs
	b := &Builder{Name: j.Name, Options: Options{Chain: j.Options.Chain, ChainLimit: j.Options.ChainLimit, StackLimit: j.Options.StackLimit,
		QueueLimit: j.Options.QueueLimit, TimerLimit: j.Options.TimerLimit}}
	props := map[string]PropertyID{}
	for _, p := range j.Properties {
		props[p.Name] = b.AddProperty(p.Name, p.Values...)
	}
	tests := map[Test]TestID{}
	for _, tt := range j.Tests {
		tests[Test{Name: tt.Name, Value: tt.Value}] = b.addTest(Test(tt))
	}
	timers := map[string]TimerID{}
	for _, name := range j.Timers {
		timers[name] = b.AddTimer(name)
	}
	states := map[string]StateID{}
	for q := len(j.States) - 1; q >= 0; q-- {
		states[j.States[q].Name] = StateID(q)
	}
	state := func(where, name string) StateID {
		q, ok := states[name]
		if !ok {
			x.invalid(where, "%q is not a state of the table", name)
			return NoState
		}
		return q
	}
	test := func(where, name, value string) TestID {
		id, ok := tests[Test{Name: name, Value: value}]
		if !ok {
			x.invalid(where, "test %q is not in the tests array", Test{Name: name, Value: value}.String())
			return NoTest
		}
		return id
	}
	cond := func(where string, list []jsonCond) Cond {
		var out Cond
		for _, jc := range list {
			op := slices.Index(condNames[:], jc.Op)
			if op < 0 {
				x.invalid(where, "condition term %q is not one of %v", jc.Op, condNames)
				continue
			}
			ct := CondTerm{Op: CondOp(op)}
			switch ct.Op {
			case CondTest:
				ct.Test = test(where, jc.Test, jc.Value)
			case CondIn:
				ct.State = state(where, jc.State)
			}
			out = append(out, ct)
		}
		return out
	}
	actions := func(where string, list []jsonAction) []Action {
		var out []Action
		for i, ja := range list {
			aw := fmt.Sprintf("%s, action %d", where, i)
			timer := NoTimer
			if ja.Timer != "" {
				id, ok := timers[ja.Timer]
				if !ok {
					x.invalid(aw, "timer %q is not in the timers array", ja.Timer)
					continue
				}
				timer = id
			}
			switch ja.Kind {
			case "":
				p, ok := props[ja.Property]
				if !ok {
					x.invalid(aw, "%q is not a property of the table", ja.Property)
					continue
				}
				v := slices.Index(j.Properties[p].Values, ja.Value)
				if v < 0 {
					x.invalid(aw, "%q is not a value of property %q", ja.Value, ja.Property)
					continue
				}
				out = append(out, Action{Property: p, Value: ValueID(v)})
			case "raise":
				out = append(out, b.Raise(test(aw, ja.Event, "")))
			case "send":
				out = append(out, b.Send(test(aw, ja.Event, ""), ja.Delay, timer))
			case "cancel":
				out = append(out, b.Cancel(timer))
			default:
				x.invalid(aw, "kind %q is not raise, send or cancel", ja.Kind)
				continue
			}
			if len(ja.Cond) > 0 && len(out) > 0 {
				out[len(out)-1].Cond = cond(aw, ja.Cond)
			}
		}
		return out
	}
	trans := func(where string, from StateID, jt jsonTrans) Transition {
		tr := Transition{From: from, Test: NoTest, To: NoState, Push: jt.Push, Internal: jt.Internal}
		if jt.Test != "" {
			tr.Test = test(where, jt.Test, jt.Value)
		}
		if jt.To != "" {
			tr.To = state(where, jt.To)
		}
		switch {
		case jt.Final:
			x.invalid(where, "a statechart table has no final target: add a final state")
		case jt.Return && jt.To != "":
			x.invalid(where, "has both to and return; a transition has one")
		case jt.Return:
			tr.To = Return
		}
		for _, e := range jt.Events {
			tr.Events = append(tr.Events, test(where, e.Name, e.Value))
		}
		tr.Cond = cond(where, jt.Cond)
		for _, s := range jt.Also {
			tr.Also = append(tr.Also, state(where, s))
		}
		tr.Actions = actions(where, jt.Actions)
		return tr
	}
	for q, js := range j.States {
		where := fmt.Sprintf("state #%d %q", q, js.Name)
		b.AddState(js.Name, actions(where, js.Actions)...)
	}
	for q, js := range j.States {
		where := fmt.Sprintf("state #%d %q", q, js.Name)
		id := StateID(q)
		k := KindBasic
		if js.Kind != "" {
			i := slices.Index(kindNames[:], js.Kind)
			if i < 0 {
				x.invalid(where, "kind %q is not one of %v", js.Kind, kindNames)
			}
			k = StateKind(max(i, 0))
		}
		b.SetKind(id, k)
		if js.Parent != "" {
			b.Nest(id, state(where, js.Parent))
		}
		if js.Initial {
			b.SetInitial(id)
		}
		if len(js.Exit) > 0 {
			b.SetExit(id, actions(where+", exit", js.Exit)...)
		}
		for i, jt := range js.Transitions {
			b.AddTransition(trans(fmt.Sprintf("%s, transition %d", where, i), id, jt))
		}
	}
	if q, ok := states[j.Initial]; ok {
		b.initial = q
	} else {
		x.invalid("", "initial state %q is not a state of the table", j.Initial)
	}
	for i, jt := range j.Any {
		b.AddTransition(trans(fmt.Sprintf("any-state transition %d", i), AnyState, jt))
	}
	for i, jt := range j.Defaults {
		from := NoState
		if jt.From != "" {
			from = state(fmt.Sprintf("default transition %d", i), jt.From)
		}
		b.SetDefault(trans(fmt.Sprintf("default transition %d", i), from, jt))
	}
	if err := x.err(); err != nil {
		return nil, err
	}
	return b.Build()
}
