package compile

import (
	"errors"
	"unicode/utf8"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// Options tunes a compile. The zero value checks a chart against the
// stencil it was read with (or as a plain diagram), does not minimise, and
// builds a table with the runtime's defaults.
type Options struct {
	// Stencil is the stencil the drawing must have been made with: a chart
	// read with another one (another name, or the same name and another
	// version), or read without one, is an error. Nil (the default) means
	// the chart's own stencil, or none for a plain diagram.
	Stencil *chart.Stencil

	// Minimize merges the states that behave identically (see the package
	// documentation); Result.Merged reports what was merged. Off by
	// default: every state of the drawing is a state of the table.
	Minimize bool

	// Chain, ChainLimit and StackLimit are copied into the table's
	// [table.Options]: false, 0 (the number of states) and 0 ([table.MaxStack])
	// by default. ChainLimit must be 0 to 65535 and StackLimit 0 to
	// table.MaxStack, or Compile reports an error. A chart whose drawing
	// says that it chains ([chart.Chart] Chain and ChainLimit) chains
	// whatever Chain says; a ChainLimit of 0 then takes the chart's.
	Chain      bool
	ChainLimit int
	StackLimit int

	// Name is the table's name; "" (the default) means the chart's Name.
	Name string

	// Checked, when set, is called once the chart has been checked, before
	// it is lowered into a table (which it is not when the checks found
	// errors): a tool that times the phases, as hot reload (package
	// reload) reports them, tells checking from compiling so.
	Checked func()
}

// Result is what Compile made of a chart.
type Result struct {
	// Table is the compiled table, or nil when Diagnostics holds errors.
	Table *table.Table

	// Diagnostics holds the chart's own diagnostics (from its importer)
	// followed by the compiler's: errors, warnings and notes.
	Diagnostics diag.List

	// Merged lists what minimisation merged, one entry per state kept that
	// absorbed others, in the order of the table's states. Empty unless
	// Options.Minimize is set.
	Merged []Merge

	// States maps the ID of each state of the chart to the table's state:
	// the state it became (the state it was merged into, when minimised);
	// [table.Final] for an end pseudo-state. Start pseudo-states, which
	// only say where the machine starts, are not in it.
	States map[string]table.StateID

	// Pos gives, for each state of the table (indexed by StateID), where
	// it was drawn: the state kept, for a class of merged states.
	Pos []diag.Pos
}

// Merge is one state of a minimised table and the states of the chart
// merged into it.
type Merge struct {
	Kept      string        // the kept state's name in the table
	State     table.StateID // its ID in the minimised table
	Pos       diag.Pos      // where the kept state was drawn
	Merged    []string      // the names the merged states had, in chart order
	MergedPos []diag.Pos    // where each merged state was drawn
}

// Sentinel errors, for [errors.Is] on a [diag.Diagnostic] (its Err) or on
// the error Compile returns. Each names a kind of problem; whether it is an
// error or a warning depends on the chart (see the package documentation).
var (
	// ErrWrongStencil: the chart was read with another stencil than the
	// one expected, another version of it, or none.
	ErrWrongStencil = errors.New("compile: wrong stencil")
	// ErrBadStencil: the stencil itself is invalid (a stencil built in Go
	// that [chart.Stencil.Validate] refuses); its diagnostics say why.
	ErrBadStencil = errors.New("compile: invalid stencil")
	// ErrUnknownTest: a transition's test is not in the stencil.
	ErrUnknownTest = errors.New("compile: unknown test")
	// ErrUnknownAction: an entry action's property is not in the stencil.
	ErrUnknownAction = errors.New("compile: unknown action property")
	// ErrUnknownValue: a value that is not in its drop-list, for an entry
	// action or a test that lists its values.
	ErrUnknownValue = errors.New("compile: value not in the drop-list")
	// ErrNoTest: a transition without a test in a chart drawn with a
	// stencil.
	ErrNoTest = errors.New("compile: transition without a test")
	// ErrNoInitial: no initial state, or a start pseudo-state that leads
	// to no state.
	ErrNoInitial = errors.New("compile: no initial state")
	// ErrTwoInitials: more than one initial state or start pseudo-state,
	// or a start with more than one transition.
	ErrTwoInitials = errors.New("compile: more than one initial state")
	// ErrDuplicateName: two states share a name.
	ErrDuplicateName = errors.New("compile: duplicate state name")
	// ErrDuplicateID: two states of a chart share an ID.
	ErrDuplicateID = errors.New("compile: duplicate state ID")
	// ErrName: a name the table cannot hold: empty, longer than
	// table.MaxName bytes, or not UTF-8.
	ErrName = errors.New("compile: bad name")
	// ErrMissingState: a transition from or to a state the chart does not
	// have; the chart's Fallback naming none of its states (a warning).
	ErrMissingState = errors.New("compile: no such state")
	// ErrTransition: a transition that cannot be lowered as drawn (into a
	// start pseudo-state, out of an end one, a push with no state to go
	// to, an unknown target kind).
	ErrTransition = errors.New("compile: transition cannot be lowered")
	// ErrSameTest: two transitions from one state on the same test: the
	// later could never be taken.
	ErrSameTest = errors.New("compile: two transitions on the same test")
	// ErrShadowed: a state's transition whose test an any-state
	// transition already takes: it is never taken.
	ErrShadowed = errors.New("compile: transition never taken")
	// ErrNoPush: a transition returns to the state on top of the stack,
	// but no transition pushes one.
	ErrNoPush = errors.New("compile: return without push")
	// ErrUnreachable: a state the machine never enters.
	ErrUnreachable = errors.New("compile: unreachable state")
	// ErrNoWayOut: a state no transition leaves.
	ErrNoWayOut = errors.New("compile: state with no way out")
	// ErrIgnored: part of the drawing that a table cannot represent and
	// the compiler left out (the label of a start pseudo-state's or a
	// default transition, the initial mark of a parallel state's region).
	ErrIgnored = errors.New("compile: part of the chart ignored")
	// ErrLowered: a plain diagram's construct lowered in a way worth
	// knowing (completion transitions, choice pseudo-states, events
	// polled rather than received).
	ErrLowered = errors.New("compile: lowered")
	// ErrLimit: the chart exceeds a limit of the table: states, tests,
	// message tests, destination cells.
	ErrLimit = errors.New("compile: table limit exceeded")
	// ErrNesting: states that nest wrongly: inside a state the chart does
	// not have, inside themselves, too deep, a history state at the top, a
	// parallel state without regions, a final state with states inside.
	ErrNesting = errors.New("compile: bad nesting")
	// ErrOptions: Options out of range.
	ErrOptions = errors.New("compile: bad options")
)

// Completion is the name of the polled test of a plain diagram's
// transitions that have no label: UML completion transitions, taken when
// the host says the state's work is done.
const Completion = "completion"

// Check checks a chart without building its table: it returns the chart's
// own diagnostics followed by the compiler's (the same as Compile's, except
// for the table's internal errors, which only building can find). The
// returned list is new; c is not changed. Check never panics; a nil chart
// is reported as an error. It costs time and memory in proportion to the
// chart, plus tests × states for the limits.
func Check(c *chart.Chart, opt Options) diag.List {
	if c == nil {
		return nilChart()
	}
	x := analyze(c, fromChart(opt, c))
	return x.all()
}

// fromChart returns opt with what the chart says of how its machine runs:
// it chains when either says so; the options' ChainLimit wins when not 0.
func fromChart(opt Options, c *chart.Chart) Options {
	opt.Chain = opt.Chain || c.Chain
	if opt.ChainLimit == 0 {
		opt.ChainLimit = c.ChainLimit
	}
	return opt
}

// Compile checks a chart and lowers it into a table. It always returns a
// Result with every diagnostic; Result.Table is nil when some are errors,
// and the error is then a [diag.List] of those errors
// ([diag.List.Err]). Warnings and notes do not stop it.
//
// The same chart and options always give the same table, byte for byte
// ([table.Table.MarshalBinary]). Compile never panics; it is safe to call
// concurrently on the same chart, which it does not change. It costs time
// and memory in proportion to the chart plus tests × states (the
// destination table), and O(m log n) more to minimise n states with m
// transitions.
func Compile(c *chart.Chart, opt Options) (*Result, error) {
	if c == nil {
		d := nilChart()
		return &Result{Diagnostics: d}, d.Err()
	}
	opt = fromChart(opt, c)
	x := analyze(c, opt)
	if opt.Checked != nil {
		opt.Checked()
	}
	r := &Result{}
	if !x.diags.HasErrors() && !c.Diagnostics.HasErrors() {
		x.build(r, opt)
	}
	r.Diagnostics = x.all()
	if r.Diagnostics.HasErrors() {
		r.Table = nil
	}
	return r, r.Diagnostics.Err()
}

func nilChart() diag.List {
	return diag.List{{Message: "compile: no chart (nil)", Hint: "pass the chart an importer returned", Err: ErrMissingState}}
}

// all returns the chart's diagnostics followed by the compiler's, in a new
// slice.
func (x *lowering) all() diag.List {
	x.summarize()
	out := make(diag.List, 0, len(x.c.Diagnostics)+len(x.diags))
	out = append(out, x.c.Diagnostics...)
	return append(out, x.diags...)
}

// build lowers the checked chart into r.Table, minimising it if asked.
func (x *lowering) build(r *Result, opt Options) {
	if x.sc != nil {
		x.buildChart(r, opt)
		return
	}
	n := len(x.states)
	class := make([]int, n) // lowered state → state of the table
	keep := make([]int, 0, n)
	if opt.Minimize {
		var members [][]int
		class, keep, members = x.minimize()
		for k, ms := range members {
			if len(ms) < 2 {
				continue
			}
			m := Merge{Kept: x.states[keep[k]].name, State: table.StateID(k), Pos: x.pos(keep[k])}
			for _, s := range ms {
				if s != keep[k] {
					m.Merged = append(m.Merged, x.states[s].name)
					m.MergedPos = append(m.MergedPos, x.pos(s))
				}
			}
			r.Merged = append(r.Merged, m)
		}
	} else {
		for i := range n {
			class[i] = i
			keep = append(keep, i)
		}
	}
	dest := func(to int) table.StateID {
		switch to {
		case toFinal:
			return table.Final
		case toReturn:
			return table.Return
		}
		return table.StateID(class[to])
	}

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
	for _, q := range keep {
		b.AddState(x.states[q].name, x.states[q].actions...)
	}
	b.SetInitial(table.StateID(class[x.initial]))
	for _, tr := range x.any {
		b.AddTransition(table.Transition{From: table.AnyState, Test: table.TestID(tr.test), To: dest(tr.to), Push: tr.push})
	}
	for k, q := range keep {
		for _, tr := range x.states[q].trans {
			b.AddTransition(table.Transition{From: table.StateID(k), Test: table.TestID(tr.test), To: dest(tr.to), Push: tr.push})
		}
	}
	t, err := b.Build()
	if err != nil {
		// The checks above should have caught whatever the table refuses.
		x.errorf(diag.Pos{File: x.c.File}, ErrLimit, "please report this as a bug of package compile, with the drawing",
			"the table does not build: %v", err)
		return
	}
	r.Table = t
	r.States = make(map[string]table.StateID, len(x.c.States))
	for i, s := range x.c.States {
		switch l := x.low[i]; {
		case l >= 0:
			r.States[s.ID] = table.StateID(class[l])
		case l == lowEnd:
			r.States[s.ID] = table.Final
		}
	}
	r.Pos = make([]diag.Pos, len(keep))
	for k, q := range keep {
		r.Pos[k] = x.pos(q)
	}
}

// validName reports whether s can name something in a table.
func validName(s string) bool {
	return s != "" && len(s) <= table.MaxName && utf8.ValidString(s)
}

// Describe returns the table's description ([table.Table.Describe]) with
// each state's Source set to where it was drawn: what a tool that shows
// the machine (the viewer) names when it points at a state. Nil when the
// chart did not compile.
func (r *Result) Describe() *machine.Description {
	if r == nil || r.Table == nil {
		return nil
	}
	d := r.Table.Describe()
	for i := range d.States {
		if i < len(r.Pos) && !r.Pos[i].IsZero() {
			d.States[i].Source = r.Pos[i].String()
		}
	}
	return &d
}
