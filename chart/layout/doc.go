// Package layout places the states of a [chart.Chart] that has no
// geometry, so that a drawing written from it (draw.io, SCXML with
// positions) opens readably: `fsmforge convert` calls [Layered] before
// writing a chart whose states have no [chart.Box].
//
//	c, err := scxml.ReadFile("machine.scxml", scxml.Options{})
//	...
//	layout.Layered(c, layout.Options{})
//	// every state now has a Box; those that had one keep it.
//
// # The layout
//
// [Layered] is a layered drawing in the manner of Sugiyama, Tagawa and
// Toda (1981), as Graphviz's dot draws graphs. Each page of the chart
// (State.Pos.Page) is laid out on its own; transitions between pages are
// left out.
//
// Nested states (State.Parent) are laid out inside their compound, inside
// out, as Graphviz lays out clusters: each compound's children are laid
// out as a small chart of their own, with the transitions between them
// (one into or out of a state inside a child counts as one of the child),
// and the compound becomes as large as they need, with 20 pixels around
// them and 30 more above for its name; at the next level up the compound
// is one state of that size. A compound that has a Box keeps it, and its
// children without one are placed inside it from its top-left corner,
// overflowing it if it is too small; when some of a compound's children
// have a Box already, the new ones go to their right, as on a page, and the
// compound is sized by its own text.
//
//   - Cycles are broken by a depth-first search from the initial state,
//     then the start pseudo-states, then the states no transition enters,
//     then the others, each in chart order, following transitions in
//     chart order: a transition back to a state on the search's path is
//     reversed. Self-loops are left out.
//   - Layers: each state goes one layer below the lowest of the states
//     with a transition into it (the longest path from the initial
//     state), so that the initial state and the start pseudo-states are
//     on the first layer; a state no transition enters then moves down to
//     just above its nearest successor. An any-state transition counts as
//     a transition from the initial (or start) state to its target, which
//     so comes below it.
//   - Order within layers: first the order in which the search found the
//     states, then four sweeps down and up the layers that sort each layer
//     by the barycentre of its states' neighbours on the layers before
//     (down) or after (up). Edges that span several layers go through
//     dummy nodes, so that they take part, unless there would be more than
//     twice as many dummies as states and transitions (long chains of
//     large charts): long edges then count as they are. With dummies, the
//     order with the fewest crossings seen is kept.
//   - Coordinates: layers are rows from top to bottom (or columns from
//     left to right with Options.LeftToRight), LayerGap apart, each as
//     thick as its largest state, whose states it centres. Across the
//     layer, states keep their order at least NodeGap apart, and are moved
//     towards the mean position of their neighbours on the layer before,
//     then after, four times, then on both: a least-squares placement
//     under the order and gaps (pool-adjacent-violators).
//   - Sizes come from the text a state shows, by [Size]: 8 pixels a
//     character plus 40, at least 120 wide and 60 high, 20 higher for
//     each line of entry action or of a name over 40 characters. Start and
//     end pseudo-states are 30 pixels square, choices at least 60.
//   - A page's layout starts Margin (40) pixels from the page's top-left
//     corner; when some states of the page already have a Box, the new
//     boxes go to their right, LayerGap further, from the top of the
//     highest. Coordinates are whole pixels.
//
// # Determinism and costs
//
// The boxes depend only on the chart and the options: nothing depends on
// the order of a map. A chart of 10,000 states and 40,000 transitions
// lays out in 15 to 50 milliseconds on one core of the shared
// machine this was measured on (BenchmarkLayered, -benchtime 3x).
package layout
