package importer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// Unordered and Else are the keys of [RankOrders] for a transition drawn
// without an order, and for an "else" transition, tried after all others.
var (
	Unordered = math.NaN()
	Else      = math.Inf(1)
)

// RankOrders sets the Order of the transitions of c from the orders the
// drawing gave them, and warns when a state's transitions mix transitions
// with and without an order. keys[i] is the order drawn on transition i,
// [Unordered] or [Else]; nil means each transition's own Order, 0 being
// Unordered. pkg prefixes the warnings ("drawio").
//
// Transitions leaving the same state (or the any-state transitions) are
// tried in this order, as StateSmith does: those with an order by
// increasing order (document order among equal ones), then those without
// one in document order, then the else ones. When no transition of a
// state has an order, Order is its position among them, from 1; when all
// have whole orders, they keep them; otherwise Order is made the rank
// that gives this order.
func RankOrders(c *chart.Chart, keys []float64, pkg string) {
	if keys == nil {
		keys = make([]float64, len(c.Transitions))
		for i := range c.Transitions {
			keys[i] = Unordered
			if o := c.Transitions[i].Order; o != 0 {
				keys[i] = float64(o)
			}
		}
	}
	// Group the transitions by the state they leave, in order of first
	// appearance, with a counting sort: a few allocations however many.
	groupOf := make([]int, len(c.Transitions))
	ids := make(map[string]int)
	var sizes []int
	for i := range c.Transitions {
		t := &c.Transitions[i]
		k := t.From
		if t.AnyState {
			k = "\x00any"
		}
		g, ok := ids[k]
		if !ok {
			g = len(sizes)
			ids[k] = g
			sizes = append(sizes, 0)
		}
		groupOf[i] = g
		sizes[g]++
	}
	start := make([]int, len(sizes)+1)
	for g, n := range sizes {
		start[g+1] = start[g] + n
	}
	order := make([]int, len(c.Transitions))
	next := slices.Clone(start[:len(sizes)])
	for i, g := range groupOf {
		order[next[g]] = i
		next[g]++
	}
	r := ranker{c: c, keys: keys, pkg: pkg, scratch: make([]int, 0, 16)}
	for g := range sizes {
		r.rank(order[start[g]:start[g+1]])
	}
}

// ranker ranks the transitions of a chart, one state's at a time.
type ranker struct {
	c       *chart.Chart
	keys    []float64 // by transition: the order drawn, Unordered or Else
	pkg     string
	scratch []int          // reused memory: one state's transitions, in the order tried
	states  map[string]int // the index of each state by ID, for messages; built when first needed
}

// rank ranks the transitions g of one state.
func (r *ranker) rank(g []int) {
	c, keys := r.c, r.keys
	// seq holds the ordered, then those without an order, then the else
	// ones: the order they are tried in, once the ordered are sorted.
	seq := r.scratch[:0]
	whole := true
	nOrdered, nNone := 0, 0
	for _, i := range g {
		if k := keys[i]; !math.IsNaN(k) && !math.IsInf(k, 1) {
			seq = append(seq, i)
			whole = whole && k == math.Trunc(k) && k >= 1 && k <= math.MaxInt32
			nOrdered++
		}
	}
	for _, i := range g {
		if math.IsNaN(keys[i]) {
			seq = append(seq, i)
			nNone++
		}
	}
	for _, i := range g {
		if math.IsInf(keys[i], 1) {
			seq = append(seq, i)
		}
	}
	r.scratch = seq
	ordered, none, elses := seq[:nOrdered], seq[nOrdered:nOrdered+nNone], seq[nOrdered+nNone:]
	slices.SortStableFunc(ordered, func(a, b int) int {
		ka, kb := keys[a], keys[b]
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	if whole { // all drawn orders whole, or none drawn
		last := 0
		for _, i := range ordered {
			c.Transitions[i].Order = int(keys[i])
			last = max(last, int(keys[i]))
		}
		for n, i := range seq[len(ordered):] { // without an order, then else
			c.Transitions[i].Order = last + n + 1
		}
	} else {
		for n, i := range seq {
			c.Transitions[i].Order = n + 1
		}
	}
	if len(ordered) > 0 && len(none) > 0 {
		r.warnMixed(seq, ordered, none)
	}
	if len(elses) > 1 {
		where, at := r.groupName(&c.Transitions[elses[1]])
		c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Pos: at, Severity: diag.Error,
			Message: fmt.Sprintf("%s: %s: %d transitions are marked else; one is taken when no other is, so only one may be", r.pkg, where, len(elses)),
			Hint:    "keep one else transition, and give the others a trigger or a guard"})
	}
}

// groupName names the state a transition leaves, for messages, and gives
// the state's position (the transition's for any-state transitions).
func (r *ranker) groupName(t *chart.Transition) (string, diag.Pos) {
	if t.AnyState {
		return "any-state transitions", t.Pos
	}
	if r.states == nil {
		r.states = make(map[string]int, len(r.c.States))
		for i := range r.c.States {
			if _, dup := r.states[r.c.States[i].ID]; !dup { // the first of a duplicated ID
				r.states[r.c.States[i].ID] = i
			}
		}
	}
	if i, ok := r.states[t.From]; ok {
		st := &r.c.States[i]
		name := st.Name
		if name == "" {
			name = st.ID
		}
		return "state " + strconv.Quote(Shorten(name, 40)), st.Pos
	}
	return "state " + strconv.Quote(t.From), t.Pos
}

// warnMixed warns that a state's transitions mix drawn orders and none,
// and lists the order they are tried in.
func (r *ranker) warnMixed(seq, ordered, none []int) {
	c, keys := r.c, r.keys
	where, at := r.groupName(&c.Transitions[seq[0]])
	var list []string
	for n, i := range seq {
		t := &c.Transitions[i]
		what := t.Label
		if what == "" {
			what = t.Test
		}
		if what == "" {
			what = "to " + t.Target.String()
		}
		s := fmt.Sprintf("%d. %q", n+1, Shorten(chart.NormalizeSpace(what), 30))
		switch k := keys[i]; {
		case math.IsNaN(k):
			s += " (no order)"
		case math.IsInf(k, 1):
			s += " (else)"
		default:
			s += " (order " + strconv.FormatFloat(k, 'f', -1, 64) + ")"
		}
		list = append(list, s)
	}
	c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Pos: at, Severity: diag.Warning,
		Message: fmt.Sprintf("%s: %s: %d of %d transitions have an order and %d %s none; those without one are tried after those with one, in document order: %s",
			r.pkg, where, len(ordered), len(seq), len(none), hasHave(len(none)), strings.Join(list, ", ")),
		Hint: "number every transition of the state, or none of them"})
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
