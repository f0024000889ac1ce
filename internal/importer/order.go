package importer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
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
	key := func(i int) float64 { return keys[i] }
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
	scratch := make([]int, 0, 16)
	for g := range sizes {
		scratch = rankGroup(c, order[start[g]:start[g+1]], key, pkg, scratch)
	}
}

// rankGroup ranks the transitions g of one state; scratch is reused
// memory, returned for the next group.
func rankGroup(c *chart.Chart, g []int, key func(int) float64, pkg string, scratch []int) []int {
	// scratch holds the ordered, then those without an order, then the
	// else ones.
	scratch = scratch[:0]
	whole := true
	nOrdered, nNone := 0, 0
	for _, i := range g {
		if k := key(i); !math.IsNaN(k) && !math.IsInf(k, 1) {
			scratch = append(scratch, i)
			whole = whole && k == math.Trunc(k) && k >= 1 && k <= math.MaxInt32
			nOrdered++
		}
	}
	for _, i := range g {
		if math.IsNaN(key(i)) {
			scratch = append(scratch, i)
			nNone++
		}
	}
	for _, i := range g {
		if math.IsInf(key(i), 1) {
			scratch = append(scratch, i)
		}
	}
	ordered, none, elses := scratch[:nOrdered], scratch[nOrdered:nOrdered+nNone], scratch[nOrdered+nNone:]
	slices.SortStableFunc(ordered, func(a, b int) int {
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	seq := scratch
	switch {
	case len(ordered) == 0:
		for r, i := range seq {
			c.Transitions[i].Order = r + 1
		}
	case whole:
		last := 0
		for _, i := range ordered {
			c.Transitions[i].Order = int(key(i))
			last = max(last, int(key(i)))
		}
		for r, i := range scratch[len(ordered):] { // without an order, then else
			c.Transitions[i].Order = last + r + 1
		}
	default:
		for r, i := range seq {
			c.Transitions[i].Order = r + 1
		}
	}
	if len(ordered) > 0 && len(none) > 0 {
		warnMixed(c, seq, ordered, none, key, pkg)
	}
	if len(elses) > 1 {
		where, at := groupName(c, &c.Transitions[elses[1]])
		c.Diagnostics = append(c.Diagnostics, chart.Diagnostic{Pos: at, Severity: chart.Error,
			Message: fmt.Sprintf("%s: %s: %d transitions are marked else; one is taken when no other is, so only one may be", pkg, where, len(elses)),
			Hint:    "keep one else transition, and give the others a trigger or a guard"})
	}
	return scratch
}

// groupName names the state a transition leaves, for messages, and gives
// the state's position (the transition's for any-state transitions).
func groupName(c *chart.Chart, t *chart.Transition) (string, chart.Pos) {
	if t.AnyState {
		return "any-state transitions", t.Pos
	}
	for i := range c.States {
		if st := &c.States[i]; st.ID == t.From {
			name := st.Name
			if name == "" {
				name = st.ID
			}
			return "state " + strconv.Quote(Shorten(name, 40)), st.Pos
		}
	}
	return "state " + strconv.Quote(t.From), t.Pos
}

// warnMixed warns that a state's transitions mix drawn orders and none,
// and lists the order they are tried in.
func warnMixed(c *chart.Chart, seq, ordered, none []int, key func(int) float64, pkg string) {
	where, at := groupName(c, &c.Transitions[seq[0]])
	var list []string
	for r, i := range seq {
		t := &c.Transitions[i]
		what := t.Label
		if what == "" {
			what = t.Test
		}
		if what == "" {
			what = "to " + t.Target.String()
		}
		s := fmt.Sprintf("%d. %q", r+1, Shorten(chart.NormalizeSpace(what), 30))
		switch k := key(i); {
		case math.IsNaN(k):
			s += " (no order)"
		case math.IsInf(k, 1):
			s += " (else)"
		default:
			s += " (order " + strconv.FormatFloat(k, 'f', -1, 64) + ")"
		}
		list = append(list, s)
	}
	c.Diagnostics = append(c.Diagnostics, chart.Diagnostic{Pos: at, Severity: chart.Warning,
		Message: fmt.Sprintf("%s: %s: %d of %d transitions have an order and %d %s none; those without one are tried after those with one, in document order: %s",
			pkg, where, len(ordered), len(seq), len(none), hasHave(len(none)), strings.Join(list, ", ")),
		Hint: "number every transition of the state, or none of them"})
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
