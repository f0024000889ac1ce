package drawio

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// This file reads what nesting makes of a drawing's states: parallel
// states and their regions, histories, the transitions that enter several
// regions at once; and what the nesting of the chart read asks of it,
// which package internal/importer checks for a plain diagram
// ([importer.CheckNesting]) and package internal/statesmith for a drawing
// made for StateSmith ([statesmith.Reading.Hierarchy]), as for
// chart/graphml.

// structure checks, once the cells of a page are classified, what their
// nesting says: a history drawn in no state is left out (an error), and a
// state marked parallel (or, with a stencil, drawn with its parallel
// master) that holds no states is a plain state (a warning).
func (in *interp) structure(pg *page, nodes []node, prefix string) {
	regions := make(map[*node]int)
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class != clState {
			continue
		}
		p := parentState(n)
		if n.kind.IsHistory() && p == nil {
			noun := "history"
			if n.ss.Kind == statesmith.History {
				noun = "$H"
			}
			in.report([]importer.Problem{importer.HistoryInNoState(in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), noun, n.c.id)}, diag.Pos{}, "")
			n.class = clBad
			continue
		}
		if p != nil && p.kind == chart.ParallelState {
			regions[p]++
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class != clState || n.kind != chart.ParallelState || regions[n] > 0 {
			continue
		}
		at := in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text))
		if st := in.st; st != nil {
			shapes := strconv.Quote(st.Masters.State)
			if st.Masters.Composite != "" {
				shapes = strconv.Quote(st.Masters.Composite) + " or " + shapes
			}
			in.diag(diag.Warning, at, fmt.Sprintf("drop its regions in it: a %s shape of stencil %q's library for each", shapes, st.Name),
				"parallel state %s (a %q shape) holds no states: read as a plain state", n.c.id, st.Masters.Parallel)
		} else {
			in.diag(diag.Warning, at, "draw its regions (containers) inside it, or remove "+AttrParallel,
				"state %s is marked %s = 1 but holds no states: read as a plain state", n.c.id, AttrParallel)
		}
		n.kind = chart.NormalState
	}
}

// alsoEdges reads the edges of a page that add a target to a transition
// (AttrAlso): each adds the state it ends on to the Also of the transition
// whose edge it names, among the page's, those from first on. One that
// names no transition of the page, or one that enters no state, or that
// does not start where the transition starts or ends on no state, is
// ignored with a warning.
func (in *interp) alsoEdges(pg *page, nodes []node, prefix string, first int) {
	var byID map[string]int
	for i := range nodes {
		n := &nodes[i]
		if n.skip || n.class != clAlso {
			continue
		}
		if byID == nil {
			byID = make(map[string]int, len(in.c.Transitions)-first)
			for k := first; k < len(in.c.Transitions); k++ {
				byID[in.c.Transitions[k].ID] = k
			}
		}
		v, _ := n.c.get(AttrAlso)
		v = strings.TrimSpace(v)
		at := in.pos(pg, n.c, prefix, chart.NormalizeSpace(edgeLabel(n)))
		const hint = "set " + AttrAlso + " (Edit Data) to the cell ID of the edge of the transition it adds a target to, or remove it to make the edge a transition of its own"
		k, ok := byID[prefix+v]
		if !ok {
			in.diag(diag.Warning, at, hint, "the edge adds a target to transition %q, which the page does not have; ignored", importer.Shorten(v, 40))
			continue
		}
		t := &in.c.Transitions[k]
		src, dst := aliased(n.src), aliased(n.dst)
		switch {
		case t.Target.Kind != chart.ToState:
			in.diag(diag.Warning, at, "glue the end of the transition's edge to a state", "the edge adds a target to transition %s, which enters no state; ignored", t.ID)
		case src == nil || src.class != clState || src.id != t.From:
			in.diag(diag.Warning, at, "start the edge at the state the transition leaves", "the edge adds a target to transition %s, but does not start at the state it leaves; ignored", t.ID)
		case dst == nil || dst.class != clState:
			in.diag(diag.Warning, at, "glue the end of the edge to the state the transition enters too", "the edge adds a target to transition %s, but ends on no state; ignored", t.ID)
		default:
			t.Also = append(t.Also, dst.id)
		}
	}
}

// stateSmithNesting records, for [statesmith.Reading.Hierarchy], the
// $ORTHO regions and the $HC vertices of a page of a drawing made for
// StateSmith.
func (in *interp) stateSmithNesting(pg *page, nodes []node, prefix string) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.skip:
		case n.class == clState && n.ss.Kind == statesmith.Ortho:
			in.smith.Regions = append(in.smith.Regions, statesmith.Region{State: n.id, Order: n.ss.Order, Pos: in.pos(pg, n.c, prefix, n.name)})
		case n.class == clContinue:
			id := ""
			if p := parentState(n); p != nil {
				id = p.id
			}
			in.smith.Continues = append(in.smith.Continues, statesmith.Continue{State: id, Pos: in.pos(pg, n.c, prefix, "$HC")})
		}
	}
}

// nested checks what the nesting of a chart read from a plain diagram,
// or from a drawing made with a stencil, asks of it
// ([importer.CheckNesting]): no pseudo-state directly in a parallel
// state, a history's transitions, the default UML gives a history drawn
// without one (added as the drawing's transitions are), an initial state
// in each compound state the machine enters by default
// ([importer.StencilInitialHint] says how a stencil's masters draw one).
// With a stencil, a start drawn directly in a parallel state is left to
// package compile, which reports it. A drawing made for StateSmith has
// its own rules ([statesmith.Reading.Hierarchy]).
func (in *interp) nested() {
	hint := "draw a start state in it, with a transition to the state to enter, or mark that state " + AttrInitial + " = 1 in its Edit Data; or end the transition at that state"
	if in.st != nil {
		hint = importer.StencilInitialHint(in.st, "the library's %q shape")
	}
	ps := importer.CheckNesting(in.c, importer.Nesting{InitialHint: hint,
		Add:                 func(t chart.Transition) { in.addTransition(t, importer.Unordered) },
		Taken:               func(id string) bool { return in.ids[id] },
		CompileChecksStarts: in.st != nil,
	})
	in.report(ps, diag.Pos{}, "")
}
