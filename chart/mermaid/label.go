package mermaid

import (
	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/exporter"
)

// Push, "⤴ push", marks the label of a transition that pushes the state it
// leaves.
const Push = exporter.Push

// Stay, "↺ stays", marks the label of a transition without target
// (ToNone), drawn as an arrow from its source to itself: it performs its
// actions and the machine stays where it is.
const Stay = exporter.Stay

// Internal, "«internal»", marks the label of an internal transition: one
// that does not leave and re-enter its source to reach states inside it.
const Internal = exporter.Internal

// Parallel, "‖", ends the name of a parallel state, whose regions run
// together.
const Parallel = exporter.Parallel

// stateLabel is what a state says: its name, or its ID when it has none (a
// pseudo-state: its kind); a parallel state's ends with the Parallel mark.
func stateLabel(s *chart.State) string {
	switch {
	case !blank(s.Name):
		return exporter.StateLabel(s, s.Name)
	case !exporter.CanContain(s.Kind):
		return s.Kind.String()
	case blank(s.ID):
		return exporter.StateLabel(s, "state")
	default:
		return exporter.StateLabel(s, s.ID)
	}
}
