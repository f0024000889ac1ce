package exporter

import (
	"strconv"

	"github.com/fsmforge/fsmforge/chart"
)

// Tree is the nesting of a chart's states, by index into its States: which
// state each is drawn inside and which states each contains.
//
// A state is drawn inside its Parent when that names a state of the chart
// that can contain others (see [CanContain]) other than itself; otherwise,
// and to break a cycle of parents, it is drawn at the top level. A
// repeated ID is drawn once, by its first state, so children name it.
type Tree struct {
	Parent   []int   // by state: the index of the state it is drawn inside, or -1
	Children [][]int // by state: the states drawn inside it, in chart order
	Nested   bool    // some state is drawn inside another
}

// NewTree returns the nesting of c's states. index maps each state's ID
// to its first index in c.States; NewTree panics when an ID of c is
// missing from it. It costs time and memory linear in the number of
// states.
func NewTree(c *chart.Chart, index map[string]int) *Tree {
	n := len(c.States)
	t := &Tree{Parent: make([]int, n), Children: make([][]int, n)}
	for i, s := range c.States {
		t.Parent[i] = -1
		if s.Parent == "" {
			continue
		}
		p, ok := index[s.Parent]
		if ok && p != i && CanContain(c.States[p].Kind) {
			t.Parent[i] = p
		}
	}
	t.breakCycles()
	for i, s := range c.States {
		first, ok := index[s.ID]
		if !ok {
			panic("exporter: NewTree: index has no state " + strconv.Quote(s.ID))
		}
		if p := t.Parent[i]; p >= 0 && first == i {
			t.Children[p] = append(t.Children[p], i)
			t.Nested = true
		}
	}
	return t
}

// CanContain reports whether a state of kind k can have children: normal
// and parallel states can, pseudo-states cannot.
func CanContain(k chart.StateKind) bool {
	return k == chart.NormalState || k == chart.ParallelState
}

// breakCycles draws a state of each cycle of parents at the top level:
// following parents from the cycle's first state in chart order, the one
// whose parent is already on the path; the first is drawn inside it.
func (t *Tree) breakCycles() {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(t.Parent))
	var path []int
	for i := range t.Parent {
		path = path[:0]
		for j := i; j >= 0 && state[j] != done; j = t.Parent[j] {
			if state[j] == onPath {
				t.Parent[path[len(path)-1]] = -1 // the edge that closes the cycle
				break
			}
			state[j] = onPath
			path = append(path, j)
		}
		for _, j := range path {
			state[j] = done
		}
	}
}

// IsContainer reports whether state i is drawn with states inside it. A
// negative i (a node outside every state) is not.
func (t *Tree) IsContainer(i int) bool { return i >= 0 && len(t.Children[i]) > 0 }

// Within reports whether state i is state anc or drawn inside it, at any
// depth. A negative i (a node outside every state) is within none.
func (t *Tree) Within(i, anc int) bool {
	for ; i >= 0; i = t.Parent[i] {
		if i == anc {
			return true
		}
	}
	return false
}
