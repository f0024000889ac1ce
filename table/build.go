package table

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Builder makes a [Table] by code: add the entry-action properties, the
// tests, the states and the transitions, then call [Builder.Build], which
// checks everything and lays the table out. IDs are handed out in the order
// things are added, so the same calls always build the same table (and the
// same encodings).
//
// The zero value is an empty builder ready to use. Mistakes in what is
// added are not panics: they are collected and returned by Build, because
// a compiler that lowers a designer's chart calls the Builder with data it
// did not write. A Builder is not safe for concurrent use.
type Builder struct {
	// Name is the table's name, kept in the table and its encodings.
	Name string
	// Options are the table's runtime options; the zero value is the article's
	// runtime (see [Options]).
	Options Options

	props   []property
	tests   []Test
	states  []state
	initial StateID
	any     []Transition
	own     []Transition // transitions from states, in the order added
	testIDs map[Test]TestID
	errs    errs
	// The problems of the entry actions Action could not make: an Action
	// it returns instead is a token, Property badProperty and Value the
	// index here, so that Build reports the problem where it is used.
	badActions []string
	sc         *chartBuild // a statechart's nesting, kinds and more; nil for a flat table
	marked     []StateID   // the states SetInitial was given
}

// badProperty is the Property of the tokens that Builder.Action returns for
// actions it cannot make: never a property (MaxProperties is 0xFFFF).
const badProperty = PropertyID(math.MaxUint16)

// AddProperty adds an entry-action property with its drop-list of values
// (XMovement: existing, right, left, death) and returns its ID; the values'
// IDs are their positions in the list.
func (b *Builder) AddProperty(name string, values ...string) PropertyID {
	b.props = append(b.props, property{name: name, values: slices.Clone(values)})
	return PropertyID(len(b.props) - 1)
}

// AddTest returns the ID of the polled test with this name and value (""
// for none), adding it if it is new: tests are deduplicated, so every
// transition on hitTriggerLeft shares one test. The host answers polled
// tests ([Host.Test]).
func (b *Builder) AddTest(name, value string) TestID {
	return b.addTest(Test{Name: name, Value: value})
}

// AddMessage is [Builder.AddTest] for a message test: one that holds when
// the agent has received that message ([Agent.Receive], [Agent.Post]).
func (b *Builder) AddMessage(name, value string) TestID {
	return b.addTest(Test{Name: name, Value: value, Message: true})
}

func (b *Builder) addTest(t Test) TestID {
	if b.testIDs == nil {
		b.testIDs = make(map[Test]TestID)
	}
	if id, ok := b.testIDs[t]; ok {
		return id
	}
	other := t
	other.Message = !t.Message
	if id, ok := b.testIDs[other]; ok {
		b.errs.invalid(fmt.Sprintf("test %q", t.String()), "is used both as a message and as a polled test; a test is one or the other (rename one of them)")
		return id
	}
	if len(b.tests) >= MaxTests {
		b.errs.invalid("", "more than %d tests", MaxTests)
		return NoTest
	}
	id := TestID(len(b.tests))
	b.tests = append(b.tests, t)
	b.testIDs[t] = id
	return id
}

// AddState adds a state with its entry actions, performed in order when an
// agent enters it, and returns its ID. The first state added is the initial
// state unless [Builder.SetInitial] says otherwise.
func (b *Builder) AddState(name string, actions ...Action) StateID {
	if len(b.states) >= MaxStates {
		b.errs.invalid("", "more than %d states", MaxStates)
		return NoState
	}
	b.states = append(b.states, state{name: name, actions: slices.Clone(actions)})
	return StateID(len(b.states) - 1)
}

// Action returns the entry action that sets the named property to the
// named value, for [Builder.AddState]. Build reports an unknown name, in
// the entry actions of each state given the action returned then.
func (b *Builder) Action(property, value string) Action {
	for p := range b.props {
		if b.props[p].name != property {
			continue
		}
		for v, name := range b.props[p].values {
			if name == value {
				return Action{Property: PropertyID(p), Value: ValueID(v)}
			}
		}
		return b.badAction(fmt.Sprintf("property %q has no value %q", property, value))
	}
	return b.badAction(fmt.Sprintf("no property named %q (add it with AddProperty before using it)", property))
}

// badAction records why Action could not make an action and returns the
// token that stands for it.
func (b *Builder) badAction(msg string) Action {
	if len(b.badActions) >= math.MaxUint16 { // too many to number: report now, without a place
		b.errs.invalid("", "%s", msg)
		return Action{Property: badProperty, Value: math.MaxUint16}
	}
	b.badActions = append(b.badActions, msg)
	return Action{Property: badProperty, Value: ValueID(len(b.badActions) - 1)}
}

// SetInitial makes s the initial state. In a statechart table, a nested
// state s is instead the initial child of its parent.
func (b *Builder) SetInitial(s StateID) {
	b.marked = append(b.marked, s)
	b.initial = s
}

// AddTransition adds a transition after those already leaving tr.From
// (tests are tried in the order their transitions were added). tr.From is a
// state, or [AnyState] for a transition tried in every state before the
// state's own; tr.To is a state, [Final] or [Return].
func (b *Builder) AddTransition(tr Transition) {
	if tr.From == AnyState {
		b.any = append(b.any, tr)
		return
	}
	b.own = append(b.own, tr)
}

// Build checks what was added and returns the table. The errors are a
// [diag.List] of every problem found (each wrapping [ErrInvalid]; at most
// [diag.Max] are listed), such as a duplicate state name, an entry action on a
// property the table does not have, a transition on a test the table does
// not have, two transitions from a state on the same test, a push with a
// transition to Final: the problems met while adding, then those of the
// transitions, then those of the table as a whole. (A table too large to
// lay out is reported without looking further.) Build copies what it
// needs: later changes to the Builder do not affect the table. It costs
// time and memory in proportion to tests × states (the destination table).
func (b *Builder) Build() (*Table, error) {
	x := errs{list: slices.Clone(b.errs.list)}
	t := &Table{
		name:    b.Name,
		opts:    b.Options,
		props:   cloneProps(b.props),
		tests:   slices.Clone(b.tests),
		states:  make([]state, len(b.states)),
		initial: b.initial,
		any:     slices.Clone(b.any),
	}
	for i, s := range b.states {
		t.states[i] = state{name: s.name, actions: slices.Clone(s.actions)}
	}
	if b.isChart() {
		return b.buildStatechart(t, x)
	}
	if !t.layOut(&x, b.own) {
		b.reportLooseActions(&x, true)
		return nil, x.err()
	}
	err := t.check(&x, b.badActions)
	b.reportLooseActions(&x, false)
	if err != nil || len(x.list) > 0 {
		return nil, x.err()
	}
	return t, nil
}

// reportLooseActions reports, without a place, the problems of the actions
// that Action could not make and that validate did not report where they
// are used: those no state uses, or all of them when the table could not
// be laid out (and so was not validated).
func (b *Builder) reportLooseActions(x *errs, all bool) {
	if len(b.badActions) == 0 {
		return
	}
	used := make([]bool, len(b.badActions))
	for _, s := range b.states {
		for _, a := range s.actions {
			if !all && a.Property == badProperty && int(a.Property) >= len(b.props) && int(a.Value) < len(used) { // as validate places it
				used[a.Value] = true
			}
		}
	}
	for k, msg := range b.badActions {
		if !used[k] {
			x.invalid("", "%s", msg)
		}
	}
}

// layOut fills the destination table and the states' lists of tests from
// the transitions leaving states, in order, reporting what cannot be laid
// out. It returns false, having laid out nothing, if the table is too large
// or has no states.
func (t *Table) layOut(x *errs, own []Transition) bool {
	if !checkSize(x, len(t.tests), len(t.states), false) {
		return false
	}
	nt, ns := len(t.tests), len(t.states)
	t.dest = make([]StateID, nt*ns)
	for i := range t.dest {
		t.dest[i] = NoState
	}
	t.push = make([]byte, (nt*ns+7)/8)
	for _, tr := range own {
		where := func() string {
			return fmt.Sprintf("transition %s --%s--> %s", t.quoteState(tr.From), t.testName(tr.Test), t.quoteState(tr.To))
		}
		switch {
		case int(tr.From) >= ns:
			x.invalid(where(), "source %s is not a state of the table (it has %d)", tr.From, ns)
			continue
		case int(tr.Test) >= nt:
			x.invalid(where(), "%s is not a test of the table (it has %d)", tr.Test, nt)
			continue
		}
		cell := t.cell(tr.Test, tr.From)
		if t.dest[cell] != NoState {
			x.invalid(where(), "state %q already has a transition on this test, which is always tried first: this one could never be taken (remove one)", t.states[tr.From].name)
			continue
		}
		if tr.To == NoState {
			x.invalid(where(), "destination is NoState; use a state, Final or Return")
			continue
		}
		t.dest[cell] = tr.To
		if tr.Push {
			t.push[cell>>3] |= 1 << (cell & 7)
		}
		t.states[tr.From].tests = append(t.states[tr.From].tests, tr.Test)
	}
	return true
}

func cloneProps(ps []property) []property {
	out := make([]property, len(ps))
	for i, p := range ps {
		out[i] = property{name: p.name, values: slices.Clone(p.values)}
	}
	return out
}

// quoteState returns a state's quoted name, or the marker's name.
func (t *Table) quoteState(s StateID) string {
	if t.HasState(s) {
		return strconv.Quote(t.states[s].name)
	}
	return s.String()
}

// checkSize reports a table too large to lay out; a statechart (chart)
// has no destination table.
func checkSize(x *errs, tests, states int, chart bool) bool {
	switch {
	case states == 0:
		x.invalid("", "no states: a table needs at least one")
	case states > MaxStates:
		x.invalid("", "%d states; at most %d", states, MaxStates)
	case tests > MaxTests:
		x.invalid("", "%d tests; at most %d", tests, MaxTests)
	case tests*states > MaxCells && !chart:
		x.invalid("", "%d tests × %d states make a destination table of %d cells; at most %d", tests, states, tests*states, MaxCells)
	default:
		return true
	}
	return false
}

// setUp validates t's stored fields and derives the runtime's. Build (through
// check) and both decoders end with it, so every Table has passed the same
// checks.
func (t *Table) setUp() error {
	var x errs
	return t.check(&x, nil)
}

// check is setUp adding to the problems already in x: it validates t (see
// validate for badActions) and, if x then holds no problem, derives the
// runtime's fields.
func (t *Table) check(x *errs, badActions []string) error {
	t.validate(x, badActions)
	if err := x.err(); err != nil {
		return err
	}
	t.compile()
	return nil
}

// checkName reports a name that is empty, too long or not UTF-8.
func checkName(x *errs, where, what, name string, empty bool) {
	switch {
	case name == "" && !empty:
		x.invalid(where, "%s is empty", what)
	case len(name) > MaxName:
		x.invalid(where, "%s is %d bytes long; at most %d", what, len(name), MaxName)
	case !utf8.ValidString(name):
		x.invalid(where, "%s is not valid UTF-8", what)
	}
}

// validate checks every rule a table obeys, adding one problem per broken
// rule and place. badActions are the problems of the actions that
// Builder.Action could not make: an entry action that is one of its tokens
// is reported with its problem rather than as an unknown property.
func (t *Table) validate(x *errs, badActions []string) {
	nt, ns := len(t.tests), len(t.states)
	if !checkSize(x, nt, ns, t.sc != nil) {
		return
	}
	if t.sc == nil && (len(t.dest) != nt*ns || len(t.push) != (nt*ns+7)/8) {
		x.invalid("destination table", "has %d cells and %d push bytes; %d tests × %d states need %d and %d", len(t.dest), len(t.push), nt, ns, nt*ns, (nt*ns+7)/8)
		return
	}
	checkName(x, "table", "name", t.name, true)
	o := t.opts
	if o.ChainLimit < 0 || o.ChainLimit > math.MaxUint16 {
		x.invalid("options", "ChainLimit %d; use 0 (the number of states) to %d", o.ChainLimit, math.MaxUint16)
	}
	if o.StackLimit < 0 || o.StackLimit > MaxStack {
		x.invalid("options", "StackLimit %d; use 0 (the default, %d) to %d", o.StackLimit, MaxStack, MaxStack)
	}

	// Properties and values.
	if len(t.props) > MaxProperties {
		x.invalid("", "%d properties; at most %d", len(t.props), MaxProperties)
	}
	seen := make(map[string]int)
	for i, p := range t.props {
		where := fmt.Sprintf("property #%d %q", i, p.name)
		checkName(x, where, "name", p.name, false)
		if j, dup := seen[p.name]; dup {
			x.invalid(where, "the name is also property #%d's; property names are unique", j)
		}
		seen[p.name] = i
		if len(p.values) == 0 || len(p.values) > MaxValues {
			x.invalid(where, "has %d values; a property has 1 to %d", len(p.values), MaxValues)
		}
		vals := make(map[string]int, len(p.values))
		for v, name := range p.values {
			checkName(x, fmt.Sprintf("%s, value #%d", where, v), "value", name, false)
			if w, dup := vals[name]; dup {
				x.invalid(where, "value %q appears twice (#%d and #%d); values are unique in a property", name, w, v)
			}
			vals[name] = v
		}
	}

	// Tests.
	clear(seen)
	messages := 0
	for i, tt := range t.tests {
		where := fmt.Sprintf("test #%d %q", i, tt.String())
		checkName(x, where, "name", tt.Name, false)
		checkName(x, where, "value", tt.Value, true)
		key := tt.Name + "\x00" + tt.Value
		if j, dup := seen[key]; dup {
			x.invalid(where, "is also test #%d; tests are deduplicated, each name and value once", j)
		}
		seen[key] = i
		if tt.Message {
			messages++
		}
	}
	if messages > MaxMessages && t.sc == nil {
		x.invalid("", "%d message tests; at most %d (the agent keeps their flags in a 64-bit word)", messages, MaxMessages)
	}

	// States, their entry actions and their transitions.
	clear(seen)
	if int(t.initial) >= ns {
		x.invalid("", "initial state %s is not a state of the table (it has %d)", t.initial, ns)
	}
	listed := make([]byte, (nt*ns+7)/8)
	setBy := make([]int, len(t.props)) // 1 + the state that last set each property
	for q, s := range t.states {
		where := fmt.Sprintf("state #%d %q", q, s.name)
		checkName(x, where, "name", s.name, false)
		if j, dup := seen[s.name]; dup {
			x.invalid(where, "the name is also state #%d's; state names are unique", j)
		}
		seen[s.name] = q
		for i, a := range s.actions {
			aw := fmt.Sprintf("%s, entry action %d", where, i)
			if a.Kind != GameAction {
				continue // a statechart's own: see checkChartAction
			}
			switch {
			case int(a.Property) >= len(t.props) && a.Property == badProperty && int(a.Value) < len(badActions):
				x.invalid(aw, "%s", badActions[a.Value])
				continue
			case int(a.Property) >= len(t.props):
				x.invalid(aw, "%s is not a property of the table (it has %d)", a.Property, len(t.props))
				continue
			case int(a.Value) >= len(t.props[a.Property].values):
				x.invalid(aw, "%s is not a value of property %q (it has %d)", a.Value, t.props[a.Property].name, len(t.props[a.Property].values))
			}
			if setBy[a.Property] == q+1 && t.sc == nil {
				x.invalid(aw, "sets property %q again; a state sets each property once", t.props[a.Property].name)
			}
			setBy[a.Property] = q + 1
		}
		for i, id := range s.tests {
			tw := fmt.Sprintf("%s, transition %d", where, i)
			if int(id) >= nt {
				x.invalid(tw, "%s is not a test of the table (it has %d)", id, nt)
				continue
			}
			cell := t.cell(id, StateID(q))
			if listed[cell>>3]&(1<<(cell&7)) != 0 {
				x.invalid(tw, "test %q is already used by an earlier transition of this state, which is always tried first", t.tests[id].String())
				continue
			}
			listed[cell>>3] |= 1 << (cell & 7)
			t.checkDest(x, tw, t.dest[cell], t.pushAt(cell))
		}
	}

	// The destination table holds exactly the states' transitions.
	for cell, d := range t.dest {
		if listed[cell>>3]&(1<<(cell&7)) != 0 {
			continue
		}
		if d != NoState || t.pushAt(cell) {
			id, q := cell/ns, cell%ns
			x.invalid(fmt.Sprintf("destination table, test #%d, state #%d", id, q),
				"holds %s (push %t) but the state has no transition on the test; an unused cell is NoState without push", d, t.pushAt(cell))
		}
	}
	if pad := len(t.dest) & 7; pad != 0 && t.push[len(t.push)-1]>>pad != 0 {
		x.invalid("destination table", "push bits beyond the last cell are set")
	}

	// Any-state transitions.
	anyTest := make([]bool, nt)
	for i, tr := range t.any {
		if t.sc != nil {
			break // checked with the statechart's transitions
		}
		where := fmt.Sprintf("any-state transition %d", i)
		if tr.From != AnyState {
			x.invalid(where, "source is %s, not AnyState", tr.From)
		}
		if int(tr.Test) >= nt {
			x.invalid(where, "%s is not a test of the table (it has %d)", tr.Test, nt)
			continue
		}
		if anyTest[tr.Test] {
			x.invalid(where, "test %q is already used by an earlier any-state transition, which is always tried first", t.tests[tr.Test].String())
		}
		anyTest[tr.Test] = true
		t.checkDest(x, where, tr.To, tr.Push)
	}
}

// checkDest checks a transition's destination and push flag.
func (t *Table) checkDest(x *errs, where string, to StateID, push bool) {
	switch {
	case to == Final || to == Return:
		if push {
			x.invalid(where, "pushes, but goes to %s: a push is only useful with a transition to a state", to)
		}
	case int(to) >= len(t.states):
		x.invalid(where, "destination %s is not a state of the table (it has %d), Final or Return", to, len(t.states))
	}
}

// compile lays out the runtime's data: for each state, the steps it tries
// (the any-state transitions that apply there, then its own) and its entry
// actions. It assumes t is valid; its memory is at most a few bytes per
// cell of the destination table.
func (t *Table) compile() {
	t.slot = make([]uint8, len(t.tests))
	n := uint8(0)
	for i, tt := range t.tests {
		t.slot[i] = noSlot
		if tt.Message {
			t.slot[i] = n
			n++
		}
	}
	t.spans = make([]span, len(t.states))
	nsteps, nacts := 0, 0
	for _, s := range t.states {
		nsteps += len(t.any) + len(s.tests)
		nacts += len(s.actions)
	}
	t.steps = make([]step, 0, nsteps)
	t.polled = make([]step, 0, nsteps)
	t.acts = make([]gameAction, 0, nacts)
	for q, s := range t.states {
		sp := &t.spans[q]
		sp.lo = uint32(len(t.steps))
		for _, tr := range t.any {
			if tr.To == StateID(q) {
				continue // an any-state transition never leaves its destination for itself
			}
			t.steps = append(t.steps, step{test: tr.Test, to: tr.To, slot: t.slot[tr.Test], push: tr.Push})
		}
		for _, id := range s.tests {
			cell := t.cell(id, StateID(q))
			t.steps = append(t.steps, step{test: id, to: t.dest[cell], slot: t.slot[id], push: t.pushAt(cell)})
		}
		sp.hi = uint32(len(t.steps))
		sp.plo = uint32(len(t.polled))
		sp.narrow = 1
		for _, st := range t.steps[sp.lo:sp.hi] {
			if st.slot == noSlot {
				t.polled = append(t.polled, st)
				if st.test < 64 {
					sp.sensed |= 1 << st.test
				} else {
					sp.narrow = 0
				}
			}
		}
		sp.phi = uint32(len(t.polled))
		sp.alo = uint32(len(t.acts))
		for _, a := range s.actions {
			t.acts = append(t.acts, gameAction{a.Property, a.Value})
		}
		sp.ahi = uint32(len(t.acts))
	}
}
