package compile

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// minimize partitions the lowered states into classes of states that
// behave identically, by partition refinement (Hopcroft's algorithm, with
// every initial block a splitter, as partial transition functions need).
//
// Two states start in the same block when they have the same entry
// actions, the same ordered tests with the same push flags and the same
// kinds of target (a state, Final, Return), and are the destinations of
// the same any-state transitions (an any-state transition is skipped in
// its own destination, so that matters). Blocks are then split until, for
// each test, the transitions of the states of a block go to states of one
// block.
//
// It returns, for each lowered state, its class; for each class, the state
// kept (the initial state in its class, else the first in chart order) and
// its members in chart order. Classes are numbered in the order of their
// first members, so that the table lists states as the chart does, less
// the states merged into earlier ones. It costs O(m log n) for n states and m transitions between
// states, plus a sort of each splitter's incoming transitions.
func (x *lowering) minimize() (class, keep []int, members [][]int) {
	n := len(x.states)
	anyInto := make([][]int, n)
	for k, tr := range x.any {
		if tr.to >= 0 {
			anyInto[tr.to] = append(anyInto[tr.to], k)
		}
	}

	// The initial partition, by signature.
	block := make([]int32, n)
	ids := make(map[string]int32)
	var buf []byte
	edges := 0
	for q := range x.states {
		s := &x.states[q]
		buf = binary.AppendUvarint(buf[:0], uint64(len(s.actions)))
		for _, a := range s.actions {
			buf = binary.AppendUvarint(buf, uint64(a.Property))
			buf = binary.AppendUvarint(buf, uint64(a.Value))
		}
		buf = binary.AppendUvarint(buf, uint64(len(anyInto[q])))
		for _, k := range anyInto[q] {
			buf = binary.AppendUvarint(buf, uint64(k))
		}
		buf = binary.AppendUvarint(buf, uint64(len(s.trans)))
		for _, tr := range s.trans {
			buf = binary.AppendUvarint(buf, uint64(tr.test))
			kind := byte(0) // a state
			switch tr.to {
			case toFinal:
				kind = 1
			case toReturn:
				kind = 2
			default:
				edges++
			}
			if tr.push {
				kind |= 4
			}
			buf = append(buf, kind)
		}
		id, ok := ids[string(buf)]
		if !ok {
			id = int32(len(ids))
			ids[string(buf)] = id
		}
		block[q] = id
	}

	// The refinable partition: elems holds the states block by block;
	// block b is elems[first[b]:end[b]], its marked states first.
	nb := len(ids)
	first := make([]int32, nb, 2*nb)
	end := make([]int32, nb, 2*nb)
	for _, b := range block {
		end[b]++
	}
	for b, at := 0, int32(0); b < nb; b++ {
		first[b], end[b], at = at, at, at+end[b]
	}
	elems := make([]int32, n)
	loc := make([]int32, n)
	for q, b := range block {
		elems[end[b]], loc[q] = int32(q), end[b]
		end[b]++
	}
	marked := make([]int32, nb, 2*nb)

	// Transitions into each state: (source, test).
	type edge struct{ test, src int32 }
	inAt := make([]int32, n+1)
	for q := range x.states {
		for _, tr := range x.states[q].trans {
			if tr.to >= 0 {
				inAt[tr.to+1]++
			}
		}
	}
	for q := 1; q <= n; q++ {
		inAt[q] += inAt[q-1]
	}
	in := make([]edge, edges)
	fill := slices.Clone(inAt[:n])
	for q := range x.states {
		for _, tr := range x.states[q].trans {
			if tr.to >= 0 {
				in[fill[tr.to]] = edge{int32(tr.test), int32(q)}
				fill[tr.to]++
			}
		}
	}

	work := make([]int32, nb)
	inWork := make([]bool, nb, 2*nb)
	for b := range nb {
		work[b], inWork[b] = int32(nb-1-b), true
	}
	var split []int32
	var pre []edge
	var touched []int32
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[b] = false
		split = append(split[:0], elems[first[b]:end[b]]...)
		pre = pre[:0]
		for _, r := range split {
			pre = append(pre, in[inAt[r]:inAt[r+1]]...)
		}
		slices.SortFunc(pre, func(a, b edge) int { return cmp.Compare(a.test, b.test) })
		for lo := 0; lo < len(pre); {
			hi := lo + 1
			for hi < len(pre) && pre[hi].test == pre[lo].test {
				hi++
			}
			// Mark the states that go into the splitter on this test.
			touched = touched[:0]
			for _, e := range pre[lo:hi] {
				p := e.src
				bp := block[p]
				if marked[bp] == 0 {
					touched = append(touched, bp)
				}
				i, j := loc[p], first[bp]+marked[bp]
				elems[i], elems[j] = elems[j], elems[i]
				loc[elems[i]], loc[elems[j]] = i, j
				marked[bp]++
			}
			// Split the blocks partly marked; the smaller part becomes a
			// new block and a splitter.
			for _, bp := range touched {
				m := marked[bp]
				marked[bp] = 0
				size := end[bp] - first[bp]
				if m == size {
					continue
				}
				nbk := int32(len(first))
				if m <= size-m { // the marked part is new
					first = append(first, first[bp])
					end = append(end, first[bp]+m)
					first[bp] += m
				} else {
					first = append(first, first[bp]+m)
					end = append(end, end[bp])
					end[bp] = first[bp] + m
				}
				marked = append(marked, 0)
				inWork = append(inWork, true)
				work = append(work, nbk)
				for i := first[nbk]; i < end[nbk]; i++ {
					block[elems[i]] = nbk
				}
			}
			lo = hi
		}
	}

	// The classes, in the order of their first members.
	num := make([]int, len(first))
	for b := range num {
		num[b] = -1
	}
	class = make([]int, n)
	for q := range x.states {
		b := block[q]
		if num[b] < 0 {
			num[b] = len(keep)
			keep = append(keep, q)
			members = append(members, nil)
		}
		k := num[b]
		class[q] = k
		members[k] = append(members[k], q)
	}
	if x.initial >= 0 {
		keep[class[x.initial]] = x.initial
	}
	return class, keep, members
}
