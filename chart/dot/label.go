package dot

import (
	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/exporter"
)

// Push, "⤴ push", marks the label of a transition that pushes the state it
// leaves.
const Push = exporter.Push

// Stay, "↺ stays", marks the label of a transition without target
// (ToNone): it performs its actions and the machine stays where it is.
const Stay = exporter.Stay

// Internal, "«internal»", marks the label of an internal transition: one
// that does not leave and re-enter its source to reach states inside it.
const Internal = exporter.Internal

// Parallel, "‖", ends the name of a parallel state, whose regions run
// together.
const Parallel = exporter.Parallel

// stateLabel is what a state's node says: its name, or its ID when it has
// none; a parallel state's ends with the Parallel mark.
func stateLabel(s *chart.State) string {
	name := s.Name
	if name == "" {
		if !exporter.CanContain(s.Kind) {
			return ""
		}
		name = s.ID
	}
	return exporter.StateLabel(s, name)
}
