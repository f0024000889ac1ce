package graphml

import (
	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// This file reads what nesting adds to a drawing: StateSmith's history
// vertices ($H and $HC; UML's and Kingly's "H" and "H*" are read with the
// other nodes of a plain diagram), and what the nesting of the chart read
// asks of it, which package internal/importer checks for a plain diagram
// ([importer.CheckNesting]) and package internal/statesmith for a drawing
// made for StateSmith ([statesmith.Reading.Hierarchy]: $ORTHO regions,
// how deep a $H keeps, local transitions), as for chart/drawio.

// smithHistory reads the i-th node of a drawing made for StateSmith, a $H
// or a $HC, which StateSmith draws inside the state whose history it
// keeps: a $H is a history pseudo-state, a $HC a mark without edges that
// makes the $H of the state around its own keep one more level. Whether
// a $H is shallow or deep, and what StateSmith refuses of them,
// [statesmith.Reading.Hierarchy] says once the chart is read.
func (in *interp) smithHistory(i int, n *node, v statesmith.Vertex, bad func(hint, format string, args ...any)) {
	p := parentState(n)
	switch {
	case in.members(i) > 0:
		bad("Draw the nodes beside it, not inside it.", "%s node %s holds other nodes, which StateSmith refuses for a pseudo-state", v.Kind, n.id)
	case v.Kind == statesmith.HistoryContinue:
		n.what = isContinue
		id := ""
		if p != nil {
			id = p.id
		}
		in.smith.Continues = append(in.smith.Continues, statesmith.Continue{State: id, Pos: in.at(n.e, n.id, "$HC")})
	case p == nil:
		p := importer.HistoryInNoState(diag.Pos{}, "$H", n.id)
		bad(sentence(p.Hint), "%s", p.Message)
	default:
		n.what, n.kind = isState, chart.HistoryState
	}
}

// nested checks what the nesting of a chart read from a plain diagram,
// or from a drawing made with a stencil, asks of it
// ([importer.CheckNesting]): a history's transitions, the default UML
// and Kingly give a history drawn without one (added as the edges'
// transitions are), a start state in each group the machine enters by
// default ([importer.StencilInitialHint] says how a stencil's roles draw
// one). With a stencil, a start node drawn directly in a parallel group
// is left to package compile, which reports it (a plain diagram has no
// parallel states). A drawing made for StateSmith has its own rules
// ([statesmith.Reading.Hierarchy]).
func (in *interp) nested() {
	var hint string // a start state's
	if in.st != nil {
		hint = importer.StencilInitialHint(in.st, "a node of the role %q")
	}
	ps := importer.CheckNesting(in.c, importer.Nesting{InitialHint: hint,
		Add:                 func(t chart.Transition) { in.addTransition(t, importer.Unordered) },
		Taken:               func(id string) bool { return in.byID[id] != nil },
		CompileChecksStarts: in.st != nil,
	})
	in.report(ps, diag.Pos{}, "")
}
