package compile

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/source"
	"github.com/fsmforge/fsmforge/table"
)

// lowering holds the state of one Check or Compile: the chart, what the
// checks found, and the chart lowered to the table's shape (states,
// tests, properties and transitions by index), ready for the Builder.
type lowering struct {
	c     *chart.Chart
	st    *chart.Stencil // the vocabulary checked against; nil for a plain diagram or a wrong stencil
	plain bool           // a plain diagram: no stencil at all
	diags diag.List

	repeats map[repeatKey]*repeated // diagnostics by kind, to list only the first few of each
	hints   map[[2]int]string       // hints that list names, built once (see hint)

	stTests  map[string]int    // the stencil's test names → index, once asked (see stencilTest)
	stValues map[testValue]int // the stencil tests' values → their place in the drop-list, once asked (see valueRank)

	flagged map[diag.Pos]bool // elements the importer reported errors for: File, Page and Shape only

	idx   map[string]int // chart state ID → index in c.States (the first, for a repeated ID)
	low   []int          // chart state index → lowered state, or lowStart, lowEnd, lowNone
	outs  []int          // chart transition indices grouped by source state (CSR, with outAt)
	outAt []int          // outs[outAt[i]:outAt[i+1]] leave chart state i, sorted by Order

	name    string
	props   []lprop
	tests   []ltest
	states  []lstate
	any     []ltrans
	initial int  // lowered state, or -1
	chain   bool // Options.Chain

	propIdx map[string]int    // action property → index in props
	valIdx  map[propValue]int // property and value → index of the value

	sc *sc // a statechart's lowering; nil for a flat chart

	choices    int // choice pseudo-states lowered as states
	completion int // transitions given the completion test
	firstComp  diag.Pos
}

// Markers of lowering.low.
const (
	lowNone  = -1 // a duplicate ID: left out
	lowStart = -2 // a start pseudo-state: not a state of the table
	lowEnd   = -3 // an end pseudo-state: the final state
)

// Markers of ltrans.to.
const (
	toFinal  = -1
	toReturn = -2
)

type lprop struct {
	name   string
	values []string
}

type ltest struct {
	name, value string
	message     bool
	polled      bool     // plain: some use is a condition, not an event
	pos         diag.Pos // first use
}

type lstate struct {
	src     int // index in c.States, where its position is (see lowering.pos)
	name    string
	actions []table.Action
	trans   []ltrans // in the order they are tried
}

type ltrans struct {
	src  int // index in c.Transitions
	test int // index in tests
	to   int // lowered state, toFinal or toReturn
	push bool
	evt  bool // plain: read as an event (a message, unless polled)
}

type testKey struct{ name, value string }

func (x *lowering) diag(sev diag.Severity, at diag.Pos, err error, hint, format string, args ...any) {
	if x.listed(sev, err) {
		x.diags = append(x.diags, diag.Diagnostic{Pos: at, Severity: sev, Message: "compile: " + fmt.Sprintf(format, args...), Hint: hint, Err: err})
	}
}

func (x *lowering) errorf(at diag.Pos, err error, hint, format string, args ...any) {
	x.diag(diag.Error, at, err, hint, format, args...)
}

func (x *lowering) warnf(at diag.Pos, err error, hint, format string, args ...any) {
	x.diag(diag.Warning, at, err, hint, format, args...)
}

func (x *lowering) notef(at diag.Pos, err error, hint, format string, args ...any) {
	x.diag(diag.Note, at, err, hint, format, args...)
}

// strict is Error with a stencil and sev in a plain diagram.
func (x *lowering) strict(sev diag.Severity) diag.Severity {
	if x.plain {
		return sev
	}
	return diag.Error
}

// pos is where lowered state q was drawn.
func (x *lowering) pos(q int) diag.Pos { return x.c.States[x.states[q].src].Pos }

// chartPos is the position of the chart as a whole.
func (x *lowering) chartPos() diag.Pos { return diag.Pos{File: x.c.File} }

// isFlagged reports whether the importer reported an error for the element
// at p, so that the compiler does not repeat it.
func (x *lowering) isFlagged(p diag.Pos) bool {
	return p.Shape != "" && x.flagged[diag.Pos{File: p.File, Page: p.Page, Shape: p.Shape}]
}

// short shortens a name of the drawing or the stencil for a message, as
// the importers do (see source.Shorten): a name of a megabyte, quoted
// whole, would make every message about it a megabyte long. It costs
// O(1).
func short(s string) string { return source.Shorten(s, source.MaxQuoted) }

// where names an element for a message: its shape, page and line, or its
// ID when it has no position.
func where(p diag.Pos, id string) string {
	var b strings.Builder
	if p.Shape != "" {
		b.WriteString("shape " + short(p.Shape))
		if p.Page != "" {
			b.WriteString(" on page " + strconv.Quote(short(p.Page)))
		}
	} else {
		b.WriteString("ID " + strconv.Quote(short(id)))
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, ", line %d", p.Line)
	}
	return b.String()
}

// analyze checks c and lowers it.
func analyze(c *chart.Chart, opt Options) *lowering {
	x := &lowering{c: c, initial: -1, chain: opt.Chain}
	for _, d := range c.Diagnostics {
		if d.Severity == diag.Error && d.Pos.Shape != "" {
			if x.flagged == nil {
				x.flagged = make(map[diag.Pos]bool)
			}
			x.flagged[diag.Pos{File: d.Pos.File, Page: d.Pos.Page, Shape: d.Pos.Shape}] = true
		}
	}
	x.checkOptions(opt)
	if !x.checkStencil(opt) {
		return x // everything else would follow from the wrong stencil
	}
	if isStatechart(c, x.plain) {
		if opt.Minimize {
			x.errorf(x.chartPos(), ErrOptions, "compile without -minimize", "minimisation merges the states of flat charts only; this chart nests states (or has exit actions, events raised or sent, transitions with several targets)")
		}
		x.analyzeChart()
		return x
	}
	x.lowerStates()
	x.checkFallback()
	x.lowerProps()
	x.groupTransitions()
	x.lowerInitial()
	x.lowerTransitions()
	x.checkLimits()
	x.checkGraph()
	return x
}

func (x *lowering) checkOptions(opt Options) {
	if opt.ChainLimit < 0 || opt.ChainLimit > math.MaxUint16 {
		x.errorf(diag.Pos{}, ErrOptions, "use 0 (the number of states) to 65535", "chain limit %d is out of range", opt.ChainLimit)
	}
	if opt.StackLimit < 0 || opt.StackLimit > table.MaxStack {
		x.errorf(diag.Pos{}, ErrOptions, fmt.Sprintf("use 0 (the default, %d) to %d", table.MaxStack, table.MaxStack), "stack limit %d is out of range", opt.StackLimit)
	}
	x.name = opt.Name
	if x.name == "" {
		x.name = x.c.Name
	}
	if !utf8.ValidString(x.name) {
		x.name = strings.ToValidUTF8(x.name, "\uFFFD")
	}
	if len(x.name) > table.MaxName {
		short := truncate(x.name, table.MaxName)
		x.notef(x.chartPos(), ErrName, "", "the table's name is %d bytes long; it is cut to %d: %q", len(x.name), len(short), short)
		x.name = short
	}
}

// truncate cuts s to at most n bytes, at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func versionOf(st *chart.Stencil) string {
	if st.Version == "" {
		return "unnumbered"
	}
	return st.Version
}

// checkStencil compares the chart's stencil with the one expected and
// chooses the vocabulary to check against. It reports whether the chart
// was made with the stencil expected.
func (x *lowering) checkStencil(opt Options) bool {
	have, want := x.c.Stencil, opt.Stencil
	for _, st := range []*chart.Stencil{want, have} {
		if st == nil {
			continue
		}
		if err := st.Validate(); err != nil {
			var l diag.List
			if errors.As(err, &l) {
				for _, d := range l {
					d.Severity, d.Err = diag.Error, ErrBadStencil
					if x.listed(d.Severity, d.Err) {
						x.diags = append(x.diags, d)
					}
				}
			}
			return false
		}
		if have == want {
			break
		}
	}
	x.plain = have == nil
	x.st = have
	if want == nil || want == have {
		return true
	}
	at := x.chartPos()
	switch {
	case have == nil:
		x.errorf(at, ErrWrongStencil, "read the drawing with the stencil file (-stencil), or compile it without one as a plain diagram",
			"the chart was read without a stencil, as a plain diagram, but stencil %q is expected", short(want.Name))
		x.st = nil
	case have.Name != want.Name:
		x.errorf(at, ErrWrongStencil, fmt.Sprintf("redraw it with the masters of stencil %q, or compile it with the stencil it was made with", short(want.Name)),
			"the drawing was made with stencil %q, not %q", short(have.Name), short(want.Name))
		x.st = nil
	case have.Version != want.Version:
		x.errorf(at, ErrWrongStencil, "update the drawing's masters from the stencil, or use the stencil file of the drawing's version",
			"the drawing was made with version %s of stencil %q, but version %s is expected", versionOf(have), short(want.Name), versionOf(want))
		x.st = nil
	default:
		x.st = want
		if !sameVocabulary(have, want) {
			x.warnf(at, ErrWrongStencil, "two files claim to be the same stencil: give the changed one a new version",
				"the chart was read with a copy of stencil %q (version %s) whose tests or actions differ from the expected one; checking against the expected one",
				short(want.Name), versionOf(want))
		}
	}
	return x.st != nil
}

func sameVocabulary(a, b *chart.Stencil) bool {
	return slices.EqualFunc(a.Tests, b.Tests, func(s, t chart.Test) bool {
		return s.Name == t.Name && s.Message == t.Message && slices.Equal(s.Values, t.Values)
	}) && slices.EqualFunc(a.Actions, b.Actions, func(p, q chart.Property) bool {
		return p.Name == q.Name && slices.Equal(p.Values, q.Values)
	})
}

// lowerStates indexes the chart's states, chooses which become states of
// the table, and names them uniquely.
func (x *lowering) lowerStates() {
	c := x.c
	x.idx = make(map[string]int, len(c.States))
	x.low = make([]int, len(c.States))
	x.states = make([]lstate, 0, len(c.States))
	for i := range c.States {
		s := &c.States[i]
		if j, dup := x.idx[s.ID]; dup {
			x.errorf(s.Pos, ErrDuplicateID, "give every state its own ID",
				"state ID %q is also the ID of %s; this state is left out", short(s.ID), where(c.States[j].Pos, c.States[j].ID))
			x.low[i] = lowNone
			continue
		}
		x.idx[s.ID] = i
		switch s.Kind {
		case chart.StartState:
			x.low[i] = lowStart
			continue
		case chart.EndState:
			x.low[i] = lowEnd
			continue
		case chart.ChoiceState:
			x.choices++
		case chart.NormalState:
		default:
			x.errorf(s.Pos, ErrTransition, "", "state %q has an unknown kind %d", short(s.Name), s.Kind)
		}
		x.low[i] = len(x.states)
		x.states = append(x.states, lstate{src: i})
	}
	if x.choices > 0 && x.plain && !x.chain {
		x.choiceNote()
	}
	x.nameStates()
}

func (x *lowering) choiceNote() {
	for i := range x.c.States {
		if s := &x.c.States[i]; s.Kind == chart.ChoiceState && x.low[i] >= 0 {
			x.notef(s.Pos, ErrLowered, "compile with chaining (-chain) to take a choice's branch in the same update as the transition into it",
				"%s polled tests, tried at the update after the choice is entered", count(x.choices, "choice pseudo-state is lowered as a state: its branches are", "choice pseudo-states are lowered as states: their branches are"))
			return
		}
	}
}

// nameStates gives every lowered state a unique name: its own, when no
// earlier state has it; otherwise (a repeated name, an error with a
// stencil), or for a nameless state (named after its kind: "state",
// "choice"), the name followed by "#2", "#3"..., skipping names taken.
// Named states are named first, so that they keep their names.
func (x *lowering) nameStates() {
	c := x.c
	taken := make(map[string]int, len(x.states)) // name → lowered state
	next := make(map[suffixKey]int)
	var later []int
	for q := range x.states {
		s := &c.States[x.states[q].src]
		switch {
		case s.Name == "":
			later = append(later, q)
			continue
		case !utf8.ValidString(s.Name):
			x.errorf(s.Pos, ErrName, "", "state name %q is not valid UTF-8", short(s.Name))
		case len(s.Name) > table.MaxName:
			x.diag(x.strict(diag.Warning), s.Pos, ErrName, "shorten the name",
				"state name %q is %d bytes long, more than a table holds (%d); it is cut", short(s.Name), len(s.Name), table.MaxName)
		}
		name := cleanName(s.Name)
		if p, dup := taken[name]; dup {
			if !x.plain {
				first := &c.States[x.states[p].src]
				x.errorf(s.Pos, ErrDuplicateName, "give each state its own name: the table, traces and generated code know states by name",
					"state name %q is also the name of %s", short(s.Name), where(first.Pos, first.ID))
			}
			later = append(later, q)
			continue
		}
		taken[name] = q
		x.states[q].name = name
	}
	for _, q := range later {
		s := &c.States[x.states[q].src]
		base := cleanName(s.Name)
		if base == "" {
			if s.Kind == chart.NormalState && !x.plain {
				x.errorf(s.Pos, ErrName, "type the state's name in its shape or its Name property", "state without a name")
			}
			base = s.Kind.String()
			if s.Kind == chart.NormalState {
				base = "state"
			}
		}
		name := suffixed(base, taken, next)
		taken[name] = q
		x.states[q].name = name
		if !x.plain {
			continue
		}
		if s.Name == "" {
			if s.Kind == chart.NormalState {
				x.warnf(s.Pos, ErrName, "type the state's name in its shape", "state without a name; it is called %q in the table", short(name))
			}
			continue
		}
		first := &c.States[x.states[taken[base]].src]
		x.warnf(s.Pos, ErrDuplicateName, "names are only labels in a plain diagram; rename the states to tell them apart in traces and generated code",
			"state name %q is also the name of %s; this state is called %q in the table", short(s.Name), where(first.Pos, first.ID), short(name))
	}
}

// hintFallback is the hint of a chart whose Fallback names no state.
const hintFallback = "name one of the drawing's states, or leave it empty for the initial state"

// checkFallback warns when the chart's Fallback, the state where package
// reload sends the agents of a state that a new version of the drawing no
// longer has, is not the name of one of its states, compared as
// nameStates made them the table's names (cleanName). It runs after
// nameStates, and costs a pass over the states.
func (x *lowering) checkFallback() {
	f := x.c.Fallback
	if f == "" {
		return
	}
	name := cleanName(f)
	for q := range x.states {
		if x.states[q].name == name {
			return
		}
	}
	at := x.c.FallbackPos
	if at == (diag.Pos{}) {
		at = x.chartPos()
	}
	x.warnf(at, ErrMissingState, hintFallback, "fallback %q is not the name of a state of the chart", short(f))
}

// suffixKey is a prefix of the names suffixed gives, and the number of
// digits of their suffix: base#2 to base#9, base#10 to base#99 (with base
// cut to fit table.MaxName)...
type suffixKey struct {
	prefix string
	digits int
}

// suffixed returns the first of base, base#2, base#3... (base cut so that
// the name fits in table.MaxName bytes) that is not taken. next holds,
// for each prefix and number of digits, the suffix the last search
// stopped after: the names before it were taken, and names are never
// given back, so the search goes on from there. Naming k states alike
// costs O(k) then, not O(k²), with the names a search from #2 gives.
func suffixed(base string, taken map[string]int, next map[suffixKey]int) string {
	if _, dup := taken[base]; !dup {
		return base
	}
	for digits, lo := 1, 2; ; digits, lo = digits+1, pow10(digits) {
		hi := pow10(digits) - 1
		k := suffixKey{truncate(base, table.MaxName-1-digits), digits}
		n := max(next[k], lo)
		for ; n <= hi; n++ {
			name := k.prefix + "#" + strconv.Itoa(n)
			if _, dup := taken[name]; !dup {
				next[k] = n + 1
				return name
			}
		}
		next[k] = n
	}
}

// pow10 returns 10 to the power d.
func pow10(d int) int {
	p := 1
	for range d {
		p *= 10
	}
	return p
}

// cleanName makes a name one a table can hold: UTF-8, at most
// table.MaxName bytes.
func cleanName(name string) string {
	return truncate(strings.ToValidUTF8(name, "\uFFFD"), table.MaxName)
}

// lowerProps lowers the properties (the stencil's, in order, with their
// whole drop-lists; in a plain diagram, those the states use, in order of
// first use) and the states' entry actions.
func (x *lowering) lowerProps() {
	c := x.c
	x.initProps()
	var setBy []int // property → lowered state + 1 that last set it
	for q := range x.states {
		s := &c.States[x.states[q].src]
		if len(s.Entry) == 0 {
			continue
		}
		acts := make([]table.Action, 0, len(s.Entry))
		for _, a := range s.Entry {
			at := a.Pos
			if at.IsZero() {
				at = s.Pos
			}
			act, ok := x.gameAction(a, at, "state "+strconv.Quote(short(s.Name)), s.Pos)
			if !ok {
				continue
			}
			p := int(act.Property)
			for len(setBy) < len(x.props) {
				setBy = append(setBy, 0)
			}
			if setBy[p] == q+1 {
				x.errorf(at, ErrUnknownAction, "a state sets each property once: remove one", "state %q sets %s twice", short(s.Name), short(a.Property))
				continue
			}
			setBy[p] = q + 1
			acts = append(acts, act)
		}
		x.states[q].actions = acts
	}
	x.checkProps()
}

// propValue is a property and one of its values, by name.
type propValue struct{ p, v string }

// initProps lists the stencil's action properties and their values; in a
// plain diagram, gameAction adds them as they are used.
func (x *lowering) initProps() {
	x.propIdx = make(map[string]int)
	x.valIdx = make(map[propValue]int)
	if x.st == nil {
		return
	}
	for _, a := range x.st.Actions {
		x.propIdx[a.Name] = len(x.props)
		x.props = append(x.props, lprop{name: a.Name, values: a.Values})
		for v, name := range a.Values {
			x.valIdx[propValue{a.Name, name}] = v
		}
	}
}

// gameAction lowers game action a of owner ("state \"x\"") drawn at
// ownerPos, set at at: a property and value of the stencil, or in a plain
// diagram any valid names, added as they come.
func (x *lowering) gameAction(a chart.Action, at diag.Pos, owner string, ownerPos diag.Pos) (table.Action, bool) {
	open := x.st == nil
	flagged := x.isFlagged(ownerPos)
	p, ok := x.propIdx[a.Property]
	switch {
	case ok:
	case open && validName(a.Property):
		p = len(x.props)
		x.propIdx[a.Property] = p
		x.props = append(x.props, lprop{name: a.Property})
	case open:
		x.errorf(at, ErrName, "", "%s: action property %q is empty, too long or not UTF-8", owner, short(a.Property))
		return table.Action{}, false
	default:
		if !flagged && !x.isFlagged(at) {
			x.errorf(at, ErrUnknownAction, x.actionHint(),
				"%s: action property %q is not in stencil %q", owner, short(a.Property), short(x.st.Name))
		}
		return table.Action{}, false
	}
	v, ok := x.valIdx[propValue{a.Property, a.Value}]
	switch {
	case ok:
	case open && validName(a.Value) && len(x.props[p].values) < table.MaxValues:
		v = len(x.props[p].values)
		x.valIdx[propValue{a.Property, a.Value}] = v
		x.props[p].values = append(x.props[p].values, a.Value)
	case open:
		x.errorf(at, ErrName, "", "%s: %s value %q is empty, too long or not UTF-8", owner, short(a.Property), short(a.Value))
		return table.Action{}, false
	default:
		if !flagged && !x.isFlagged(at) {
			x.errorf(at, ErrUnknownValue, x.valueHint(p),
				"%s: %s value %q is not in the drop-list of stencil %q", owner, short(a.Property), short(a.Value), short(x.st.Name))
		}
		return table.Action{}, false
	}
	return table.Action{Property: table.PropertyID(p), Value: table.ValueID(v)}, true
}

// checkProps reports more properties than a table holds.
func (x *lowering) checkProps() {
	if len(x.props) > table.MaxProperties {
		x.errorf(x.chartPos(), ErrLimit, "", "%d action properties; a table holds at most %d", len(x.props), table.MaxProperties)
	}
}

// maxListed is how many names a message or a hint lists (the stencil's
// tests, a drop-list's values, initial states); the others are counted.
const maxListed = 20

// listNames lists names for a message or a hint, each shortened, at most
// maxListed of them: "a, b, c", or "a, b, ..., t, and 80 more".
func listNames[T any](list []T, name func(T) string) string {
	var b strings.Builder
	for i, e := range list[:min(len(list), maxListed)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(short(name(e)))
	}
	if more := len(list) - maxListed; more > 0 {
		b.WriteString(", and " + commas(more) + " more")
	}
	return b.String()
}

func self(s string) string { return s }

// Hints that list names, by kind and index, each built once: a chart may
// have a million transitions with the same unknown test, and a stencil
// thousands of tests.
const (
	hintTests        = iota // the stencil's tests
	hintActions             // the stencil's action properties
	hintTestValues          // the values of stencil test i
	hintActionValues        // the values of lowered property i
)

// hint returns the hint of kind and index i, built by build the first
// time.
func (x *lowering) hint(kind, i int, build func() string) string {
	k := [2]int{kind, i}
	h, ok := x.hints[k]
	if !ok {
		if x.hints == nil {
			x.hints = make(map[[2]int]string)
		}
		h = build()
		x.hints[k] = h
	}
	return h
}

// testHint is the hint of a transition whose test is missing or not in
// the stencil.
func (x *lowering) testHint() string {
	return x.hint(hintTests, 0, func() string {
		return "pick one of " + listNames(x.st.Tests, func(t chart.Test) string { return t.Name }) + " in the transition's Test property"
	})
}

// actionHint is the hint of an entry action whose property is not in
// the stencil.
func (x *lowering) actionHint() string {
	return x.hint(hintActions, 0, func() string {
		list := "none"
		if len(x.st.Actions) > 0 {
			list = listNames(x.st.Actions, func(p chart.Property) string { return p.Name })
		}
		return "the action properties of stencil " + strconv.Quote(short(x.st.Name)) + " are " + list
	})
}

// valueHint is the hint of an entry action whose value is not in the
// drop-list of lowered property p.
func (x *lowering) valueHint(p int) string {
	return x.hint(hintActionValues, p, func() string { return "pick one of " + listNames(x.props[p].values, self) })
}

// stencilTest returns the index of the stencil's test called name (the
// first, as chart.Stencil.Test), or -1, in O(1): a lookup per transition
// in the stencil's list would cost transitions × tests.
func (x *lowering) stencilTest(name string) int {
	if x.stTests == nil {
		x.stTests = make(map[string]int, len(x.st.Tests))
		for i := len(x.st.Tests) - 1; i >= 0; i-- {
			x.stTests[x.st.Tests[i].Name] = i
		}
	}
	if i, ok := x.stTests[name]; ok {
		return i
	}
	return -1
}

// valueRank returns the place of value in the drop-list of stencil test
// i (its first), or -1 when the test does not list it, in O(1).
func (x *lowering) valueRank(i int, value string) int {
	if x.stValues == nil {
		x.stValues = make(map[testValue]int)
		for i, t := range x.st.Tests {
			for r := len(t.Values) - 1; r >= 0; r-- {
				x.stValues[testValue{i, t.Values[r]}] = r
			}
		}
	}
	if r, ok := x.stValues[testValue{i, value}]; ok {
		return r
	}
	return -1
}

// testValue is a value of the drop-list of stencil test i.
type testValue struct {
	test  int
	value string
}

// groupTransitions groups the transitions leaving each state, in the order
// they are tried: by Order, then in document order. It reports transitions
// from states that do not exist.
func (x *lowering) groupTransitions() {
	c := x.c
	n := len(c.States)
	x.outAt = make([]int, n+2) // the last slot: any-state transitions
	src := make([]int, len(c.Transitions))
	for i := range c.Transitions {
		t := &c.Transitions[i]
		switch {
		case t.AnyState:
			src[i] = n
		case t.From == "":
			x.errorf(t.Pos, ErrMissingState, "glue the start of the transition to a state", "transition %q leaves no state", short(t.ID))
			src[i] = -1
			continue
		default:
			j, ok := x.idx[t.From]
			if !ok {
				x.errorf(t.Pos, ErrMissingState, "", "transition %q leaves state %q, which the chart does not have", short(t.ID), short(t.From))
				src[i] = -1
				continue
			}
			src[i] = j
		}
		x.outAt[src[i]+1]++
	}
	for i := 1; i < len(x.outAt); i++ {
		x.outAt[i] += x.outAt[i-1]
	}
	x.outs = make([]int, x.outAt[n+1])
	fill := slices.Clone(x.outAt[:n+1])
	for i, s := range src {
		if s >= 0 {
			x.outs[fill[s]] = i
			fill[s]++
		}
	}
	byOrder := func(a, b int) int { return cmp.Compare(c.Transitions[a].Order, c.Transitions[b].Order) }
	for s := range n + 1 {
		if list := x.outs[x.outAt[s]:x.outAt[s+1]]; len(list) > 1 {
			slices.SortStableFunc(list, byOrder)
		}
	}
}

// out returns the transitions leaving chart state i (n: any state), in
// order.
func (x *lowering) out(i int) []int { return x.outs[x.outAt[i]:x.outAt[i+1]] }

// lowerInitial finds the initial state: a state marked Initial, or the
// target of a start pseudo-state's transition.
func (x *lowering) lowerInitial() {
	c := x.c
	type cand struct{ state, low int }
	var cands []cand
	for i := range c.States {
		s := &c.States[i]
		if x.low[i] == lowNone || !s.Initial && s.Kind != chart.StartState {
			continue
		}
		l := x.low[i]
		switch s.Kind {
		case chart.EndState:
			x.errorf(s.Pos, ErrNoInitial, "", "an end pseudo-state cannot be the initial state")
			l = -1
		case chart.StartState:
			l = x.startTarget(i)
		}
		cands = append(cands, cand{i, l})
	}
	switch len(cands) {
	case 0:
		hint := "draw a start node (a filled circle) with an arrow to the state the machine starts in"
		if !x.plain {
			hint = "draw the state the machine starts in with the initial-state master"
			if x.st != nil && x.st.Masters.Initial != "" {
				hint = fmt.Sprintf("draw the state the machine starts in with the %q master", short(x.st.Masters.Initial))
			}
		}
		if len(x.states) > 0 {
			x.errorf(x.chartPos(), ErrNoInitial, hint, "no initial state")
		} else {
			x.errorf(x.chartPos(), ErrNoInitial, "is it the right file, page or stencil?", "the chart has no states")
		}
	case 1:
	default:
		desc := func(s *chart.State) string {
			if s.Name == "" {
				return "a " + s.Kind.String() + " pseudo-state"
			}
			return strconv.Quote(short(s.Name))
		}
		var others []string
		for _, o := range cands[1:min(len(cands), 1+maxListed)] {
			s := &c.States[o.state]
			others = append(others, desc(s)+" at "+where(s.Pos, s.ID))
		}
		if more := len(cands) - 1 - len(others); more > 0 {
			others = append(others, "and "+commas(more)+" more")
		}
		first := &c.States[cands[0].state]
		what := "initial states"
		if x.plain {
			what = "initial states (or start pseudo-states)"
		}
		x.errorf(first.Pos, ErrTwoInitials, "a machine starts in one state: keep one initial state and draw the others as ordinary states",
			"%d %s: %s, and %s", len(cands), what, desc(first), strings.Join(others, ", "))
	}
	for _, cd := range cands {
		if cd.low >= 0 {
			x.initial = cd.low
			break
		}
	}
}

// startTarget returns the lowered state a start pseudo-state leads to, or
// -1 after reporting why there is none.
func (x *lowering) startTarget(i int) int {
	c := x.c
	s := &c.States[i]
	out := x.out(i)
	if len(out) == 0 {
		x.errorf(s.Pos, ErrNoInitial, "draw an arrow from the start node to the state the machine starts in", "the start pseudo-state has no transition")
		return -1
	}
	if len(out) > 1 {
		x.errorf(s.Pos, ErrTwoInitials, "a start node has one arrow, to the state the machine starts in", "the start pseudo-state has %d transitions", len(out))
	}
	t := &c.Transitions[out[0]]
	if t.Label != "" || t.Test != "" {
		x.warnf(t.Pos, ErrIgnored, "remove the label", "the label %q of the start pseudo-state's transition is ignored: the machine starts in its target", short(cmp.Or(t.Label, t.Test)))
	}
	if t.Target.Kind == chart.ToState {
		j, ok := x.idx[t.Target.State]
		if !ok {
			x.errorf(t.Pos, ErrMissingState, "", "transition %q goes to state %q, which the chart does not have", short(t.ID), short(t.Target.State))
			return -1
		}
		if x.low[j] >= 0 {
			return x.low[j]
		}
	}
	x.errorf(t.Pos, ErrNoInitial, "glue the end of the start node's arrow to a state", "the start pseudo-state leads to no state (%v)", t.Target)
	return -1
}

// lowerTransitions lowers the any-state transitions and those of each
// state, in order, and the tests they use.
func (x *lowering) lowerTransitions() {
	c := x.c
	keys := make(map[testKey]int)
	var temp []ltest // tests in order of first use
	use := func(k testKey, at diag.Pos) int {
		if i, ok := keys[k]; ok {
			return i
		}
		keys[k] = len(temp)
		temp = append(temp, ltest{name: k.name, value: k.value, pos: at})
		return len(temp) - 1
	}
	if x.st != nil { // the stencil's tests first, in its order
		for _, t := range x.st.Tests {
			use(testKey{t.Name, ""}, diag.Pos{})
		}
	}
	pushes := false
	lowerList := func(list []int, kind chart.StateKind) []ltrans {
		out := make([]ltrans, 0, len(list))
		for _, i := range list {
			tr, ok := x.lowerTransition(i, kind, use)
			if ok {
				out = append(out, tr)
				pushes = pushes || tr.push
			}
		}
		return out
	}
	x.any = lowerList(x.out(len(c.States)), chart.NormalState)
	for q := range x.states {
		i := x.states[q].src
		x.states[q].trans = lowerList(x.out(i), c.States[i].Kind)
	}
	for i := range c.States {
		if x.low[i] == lowEnd && len(x.out(i)) > 0 {
			t := &c.Transitions[x.out(i)[0]]
			x.warnf(t.Pos, ErrTransition, "remove the arrows that leave the end node", "%s ignored", count(len(x.out(i)), "transition leaves an end pseudo-state; it is", "transitions leave an end pseudo-state; they are"))
		}
	}

	x.orderTests(temp)
	x.dedupe()
	if !pushes {
		x.returnsWithoutPush()
	}
	if x.completion > 0 {
		x.notef(x.firstComp, ErrLowered, "label the arrow with the event or [condition] that takes it, or have the host answer "+strconv.Quote(Completion)+" when a state's work is done",
			"%s the polled test %q", count(x.completion, "transition without a label is a completion transition: it takes", "transitions without a label are completion transitions: they take"), Completion)
	}
}

// lowerTransition lowers chart transition i, leaving a state of the given
// kind; use registers its test.
func (x *lowering) lowerTransition(i int, from chart.StateKind, use func(testKey, diag.Pos) int) (ltrans, bool) {
	c := x.c
	t := &c.Transitions[i]
	tr := ltrans{src: i, push: t.Push}
	ok := true

	// Target.
	switch t.Target.Kind {
	case chart.ToState:
		j, found := x.idx[t.Target.State]
		switch {
		case !found:
			x.errorf(t.Pos, ErrMissingState, "", "transition %q goes to state %q, which the chart does not have", short(t.ID), short(t.Target.State))
			ok = false
		case x.low[j] == lowStart:
			x.warnf(t.Pos, ErrTransition, "a start node only starts the machine: glue the arrow's end to a state", "the transition enters the start pseudo-state; it is ignored")
			return tr, false
		case x.low[j] == lowEnd:
			tr.to = toFinal
		default:
			tr.to = x.low[j]
		}
	case chart.ToFinal:
		tr.to = toFinal
	case chart.ToReturn:
		tr.to = toReturn
	default:
		x.errorf(t.Pos, ErrTransition, "", "transition %q has an unknown target kind %d", short(t.ID), t.Target.Kind)
		ok = false
	}
	if t.Push && ok && tr.to < 0 {
		x.errorf(t.Pos, ErrTransition, "a push saves the state left for a later return: glue the transition's end to a state, or drop the push",
			"the transition pushes but goes to the %s state", map[int]string{toFinal: "final", toReturn: "returned-to"}[tr.to])
		ok = false
	}

	// Test.
	k := testKey{t.Test, t.Value}
	flagged := x.isFlagged(t.Pos)
	if x.plain {
		// A label with both an event and a guard, or an action that
		// reads, makes a statechart (isStatechart): here a label tests
		// one thing, and its actions, if any, do not read.
		tr.evt = from != chart.ChoiceState && t.Event != "" && t.Test == t.Event
		if t.Action != "" {
			x.labelActions(t)
		}
		if k.name == "" {
			k.name = Completion
			tr.evt = false
			if x.completion == 0 {
				x.firstComp = t.Pos
			}
			x.completion++
		}
		if len(k.name) > table.MaxName {
			x.warnf(t.Pos, ErrName, "shorten the label", "test %q is %d bytes long, more than a table holds (%d); it is cut", short(k.name), len(k.name), table.MaxName)
			k.name = truncate(k.name, table.MaxName)
		}
	} else if x.st != nil {
		switch i := x.stencilTest(k.name); {
		case k.name == "":
			if !flagged {
				x.errorf(t.Pos, ErrNoTest, x.testHint(), "transition without a test")
			}
			ok = false
		case i < 0:
			if !flagged {
				x.errorf(t.Pos, ErrUnknownTest, x.testHint(), "test %q is not in stencil %q", short(k.name), short(x.st.Name))
			}
			ok = false
		case k.value != "" && len(x.st.Tests[i].Values) > 0 && x.valueRank(i, k.value) < 0:
			if !flagged {
				x.errorf(t.Pos, ErrUnknownValue, x.hint(hintTestValues, i, func() string { return "pick one of " + listNames(x.st.Tests[i].Values, self) }),
					"test %q does not take value %q", short(k.name), short(k.value))
			}
			ok = false
		}
	} else if k.name == "" {
		ok = false // a wrong stencil: reported once
	}
	if ok && (!validName(k.name) || !utf8.ValidString(k.value) || len(k.value) > table.MaxName) {
		x.errorf(t.Pos, ErrName, "", "test %q with value %q: names are 1 to %d bytes of UTF-8, values up to %d", short(k.name), short(k.value), table.MaxName, table.MaxName)
		ok = false
	}
	if !ok {
		return tr, false
	}
	tr.test = use(k, t.Pos)
	return tr, true
}

// orderTests fixes the tests' IDs and kinds. With a stencil: the stencil's
// tests in its order, each followed by the values used with it, in the
// order of the test's values, or of first use if it lists none; messages
// as the stencil says. In a plain diagram: in order of first use; a test
// is a message when every use is an event (not a condition, a choice's
// branch or a completion), up to table.MaxMessages.
func (x *lowering) orderTests(temp []ltest) {
	if x.plain {
		x.kinds(temp)
	}
	order := make([]int, 0, len(temp)) // new ID → temp index
	if x.st != nil {
		byName := make(map[string][]int)
		for i, t := range temp {
			if t.value != "" {
				byName[t.name] = append(byName[t.name], i)
			}
		}
		for i, st := range x.st.Tests {
			order = append(order, i) // the valueless test: temp index i
			vals := byName[st.Name]
			if len(st.Values) > 0 && len(vals) > 1 {
				slices.SortStableFunc(vals, func(a, b int) int {
					return cmp.Compare(x.valueRank(i, temp[a].value), x.valueRank(i, temp[b].value))
				})
			}
			order = append(order, vals...)
			temp[i].message = st.Message
			for _, v := range vals {
				temp[v].message = st.Message
			}
		}
	} else {
		for i := range temp {
			order = append(order, i)
		}
	}
	id := make([]int, len(temp))
	x.tests = make([]ltest, len(order))
	for n, i := range order {
		id[i] = n
		x.tests[n] = temp[i]
	}
	remap := func(list []ltrans) {
		for k := range list {
			list[k].test = id[list[k].test]
		}
	}
	remap(x.any)
	for q := range x.states {
		remap(x.states[q].trans)
	}
}

// kinds decides which tests of a plain diagram are messages, and reports
// events that are polled.
func (x *lowering) kinds(temp []ltest) {
	c := x.c
	each := func(f func(tr *ltrans)) {
		for k := range x.any {
			f(&x.any[k])
		}
		for q := range x.states {
			for k := range x.states[q].trans {
				f(&x.states[q].trans[k])
			}
		}
	}
	each(func(tr *ltrans) {
		if !tr.evt {
			temp[tr.test].polled = true
		}
	})
	messages := 0
	over := 0              // tests over table.MaxMessages
	var overNames []string // the first few, quoted
	var overPos diag.Pos
	overflow := make([]bool, len(temp)) // by test
	for i := range temp {
		if temp[i].polled {
			continue
		}
		if messages == table.MaxMessages {
			if over == 0 {
				overPos = temp[i].pos
			}
			if len(overNames) < 5 {
				overNames = append(overNames, strconv.Quote(short(temp[i].name)))
			}
			over++
			overflow[i] = true
			temp[i].polled = true
			continue
		}
		temp[i].message = true
		messages++
	}
	if over > 0 {
		list := overNames
		if over > len(list) {
			list = append(list, "...")
		}
		x.warnf(overPos, ErrLimit, "use fewer events, or turn some into [conditions]",
			"the chart has more than %d events; a table holds at most %d message tests, so the last %d (%s) are polled tests", table.MaxMessages, table.MaxMessages, over, strings.Join(list, ", "))
	}
	warned := make([]bool, len(temp)) // by test
	each(func(tr *ltrans) {
		if tr.evt && temp[tr.test].polled && !warned[tr.test] && !overflow[tr.test] {
			warned[tr.test] = true
			t := &c.Transitions[tr.src]
			x.notef(t.Pos, ErrLowered, "rename the event or the condition if they are not the same thing",
				"event %q is also tested as a condition (a [guard], a choice's branch or a completion): it is a polled test, not a message", short(t.Event))
		}
	})
}

// dedupe drops a state's later transitions on a test an earlier one
// already takes, and reports transitions shadowed by any-state ones.
func (x *lowering) dedupe() {
	c := x.c
	seen := make([]int, len(x.tests)) // lowered state + 2 that last used the test; 1 for the any-state list
	anyAt := make([]int, len(x.tests))
	drop := func(list []ltrans, mark int) []ltrans {
		out := list[:0]
		for _, tr := range list {
			if seen[tr.test] == mark {
				t := &c.Transitions[tr.src]
				in := "the any-state transitions: "
				if mark >= 2 {
					in = "state " + strconv.Quote(truncate(x.states[mark-2].name, 40)) + ": "
				}
				x.diag(x.strict(diag.Warning), t.Pos, ErrSameTest, "tests are tried in order, so only the first can be taken: remove one, or give it another test",
					"%sa transition on %q already leaves the same state before this one, which is never taken%s", in, short(x.tests[tr.test].label()), x.dropped())
				continue
			}
			seen[tr.test] = mark
			out = append(out, tr)
		}
		return out
	}
	x.any = drop(x.any, 1)
	for k, tr := range x.any {
		anyAt[tr.test] = k + 1
	}
	for q := range x.states {
		x.states[q].trans = drop(x.states[q].trans, q+2)
		for _, tr := range x.states[q].trans {
			if a := anyAt[tr.test]; a > 0 && x.any[a-1].to != q {
				t, at := &c.Transitions[tr.src], &c.Transitions[x.any[a-1].src]
				x.warnf(t.Pos, ErrShadowed, "any-state transitions are tried first: remove this one, or use another test",
					"the transition on %q is never taken: the any-state transition on it (%s) is tried first", short(x.tests[tr.test].label()), where(at.Pos, at.ID))
			}
		}
	}
}

func (x *lowering) dropped() string {
	if x.plain {
		return "; it is left out"
	}
	return ""
}

func (t ltest) label() string {
	if t.value == "" {
		return t.name
	}
	return t.name + "=" + t.value
}

func (x *lowering) returnsWithoutPush() {
	c := x.c
	check := func(list []ltrans) {
		for _, tr := range list {
			if tr.to == toReturn {
				t := &c.Transitions[tr.src]
				x.warnf(t.Pos, ErrNoPush, "set the stack operation of the transition that leads here to push",
					"the transition returns to the state on top of the stack, but no transition pushes one: it always fails")
			}
		}
	}
	check(x.any)
	for q := range x.states {
		check(x.states[q].trans)
	}
}

// checkLimits reports a chart too large for a table.
func (x *lowering) checkLimits() {
	at := x.chartPos()
	ns, nt := len(x.states), len(x.tests)
	messages := 0
	for _, t := range x.tests {
		if t.message {
			messages++
		}
	}
	switch {
	case ns > table.MaxStates:
		x.errorf(at, ErrLimit, "split the machine into several charts", "%d states; a table holds at most %d", ns, table.MaxStates)
	case nt > table.MaxTests:
		x.errorf(at, ErrLimit, "use fewer distinct tests and values", "%d tests; a table holds at most %d", nt, table.MaxTests)
	case nt*ns > table.MaxCells:
		x.errorf(at, ErrLimit, "split the machine into several charts, or use fewer distinct tests",
			"%d tests × %d states make a destination table of %d cells; a table holds at most %d", nt, ns, nt*ns, table.MaxCells)
	}
	if messages > table.MaxMessages {
		x.errorf(at, ErrLimit, `mark some tests of the stencil as polled conditions ("message": false)`,
			"%d message tests; a table holds at most %d", messages, table.MaxMessages)
	}
}

// label names lowered state q in a message: by its name in the table in a
// plain diagram (where it may have been renamed), by its name in the
// drawing otherwise.
func (x *lowering) label(q int) string {
	if name := x.c.States[x.states[q].src].Name; !x.plain && name != "" {
		return name
	}
	return x.states[q].name
}

// checkGraph reports unreachable states and states with no way out.
func (x *lowering) checkGraph() {
	n := len(x.states)
	if n == 0 {
		return
	}
	// A state is left by its own transitions and by the any-state
	// transitions that do not go to it.
	anyDest := make([]int, n) // number of any-state transitions into the state
	for _, tr := range x.any {
		if tr.to >= 0 {
			anyDest[tr.to]++
		}
	}
	for q := range x.states {
		s := &x.states[q]
		if len(s.trans) == 0 && len(x.any)-anyDest[q] == 0 {
			x.warnf(x.pos(q), ErrNoWayOut, "add a transition out of it (one to the final state ends the machine), unless the machine is meant to stay there",
				"state %q has no way out: no transition leaves it, so the machine stays there for ever", short(x.label(q)))
		}
	}
	if x.initial < 0 {
		return
	}
	seen := make([]bool, n)
	stack := []int{x.initial}
	seen[x.initial] = true
	visit := func(to int) {
		if to >= 0 && !seen[to] {
			seen[to] = true
			stack = append(stack, to)
		}
	}
	for _, tr := range x.any { // taken from the initial state at least, unless it goes there
		visit(tr.to)
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, tr := range x.states[q].trans {
			visit(tr.to)
		}
	}
	for q := range x.states {
		if !seen[q] {
			x.warnf(x.pos(q), ErrUnreachable, "draw a transition into it, or delete it",
				"state %q is unreachable: no path leads to it from the initial state %q", short(x.label(q)), short(x.label(x.initial)))
		}
	}
}

// count renders n and the words that follow it, in the singular or the
// plural: count(1, "state is", "states are") is "1 state is".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
