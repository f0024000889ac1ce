// Package exporter holds what the exporters that draw a chart as text
// (chart/dot, chart/mermaid) share besides the syntax they write: how the
// chart's states nest, and the words of transition and state labels.
// It is to them what internal/importer is to the importers.
//
// # Sections
//
//   - Nesting: [Tree], made by [NewTree], tells which state each is drawn
//     inside ([Tree.Parent], [Tree.Within]) and which states each contains
//     ([Tree.Children], [Tree.IsContainer]); [CanContain] tells the kinds
//     of state that can have children.
//   - Transition labels: [TransitionLabels] reads "event [guard] /
//     actions" followed by the marks [Push], [Stay] and [Internal].
//   - State labels: [StateLabel] ends a parallel state's name with the
//     [Parallel] mark; [ActionLines] are the "entry / ..." and
//     "exit / ..." lines under it; [ActionText] is how one action reads.
//
// The exporters re-export the marks as constants of their own (dot.Stay,
// mermaid.Stay, ...), which are their public API: a mark changed here
// changes the output of both.
package exporter
