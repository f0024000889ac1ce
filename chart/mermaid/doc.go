// Package mermaid writes a [chart.Chart] as a Mermaid state diagram
// (stateDiagram-v2), for `fsmforge graph FILE -format mermaid`: text that
// GitHub, GitLab and most Markdown tools draw inside a ```mermaid block.
//
//	c, err := visio.ReadFile("goomba.vdx", visio.Options{Stencil: st})
//	...
//	err = mermaid.Write(os.Stdout, c, mermaid.Options{})
//
// # What is drawn
//
// The chart's name (or Options.Title) is the title, in YAML front matter.
//
//   - Mermaid's state IDs must be plain identifiers, so the chart's states
//     are s0, s1, ... in chart order, each declared with its name,
//     `state "walkLeft" as s0` (its ID when it has no name). Entry actions
//     are description lines under the name, `s0 : entry / XMovement=left`,
//     in the chart's order.
//   - The initial state is entered from Mermaid's start, `[*] --> s0`. A
//     start pseudo-state is that [*] itself, an end pseudo-state the [*]
//     of `s3 --> [*]` (unless a transition enters the start or leaves the
//     end: it is then a state of its own, named after its kind). A choice
//     pseudo-state is `state s4 <<choice>>`, its name, when it has one, in
//     a note beside it.
//   - A transition is `s0 --> s1 : label`, labelled with its test, and its
//     value in brackets, "hitByPlayer (3)"; in a plain diagram (a chart
//     read without a stencil) with its label as drawn. When a state has
//     several transitions, each label starts with its rank,
//     "1. hitTriggerLeft", the order in which they are tried (by Order,
//     then chart order, as package compile does).
//   - A transition to the final state (ToFinal) goes to [*]. Mermaid draws
//     one final state for the whole diagram, so end pseudo-states and
//     ToFinal share it.
//   - A transition that returns to the state on top of the stack
//     (ToReturn) goes to one state, `state "↩ return" as __return`, with a
//     note saying what it means, and the dashed class returnState. A
//     transition that pushes (Push) has a label ending with "⤴ push"
//     (Mermaid cannot style one transition).
//   - Transitions that apply in any state (AnyState) start from one state,
//     `state "any state" as __any`, of the dashed class anyState.
//   - A transition naming a state the chart does not have draws that state
//     labelled "ID (missing)".
//
// Diagnostics and pages are not drawn.
//
// # Escaping
//
// Mermaid's state diagram parser ends a label at ":", ";" or a line break,
// a quoted name at `"`; reads "%%" as a comment, "<<choice>>" or
// "[[fork]]" anywhere in a state statement as its type, "direction LR"
// anywhere in a line as a direction; and draws labels as HTML. So in
// names, labels and notes the characters " # % & : ; < > [ ] ` { } are
// written as Mermaid entity codes ("#58;" for ":"), which Mermaid shows as
// the characters; the space after "direction" is an entity too; line
// breaks are written <br>; other control characters become spaces and
// invalid UTF-8 U+FFFD. Other characters, accented letters and emoji among
// them, are written as UTF-8. The title is a YAML double-quoted string.
//
// # Determinism
//
// The output depends only on the chart and the options: states in chart
// order, then the added states, the initial transition and the transitions
// in chart order. Nothing is read from a map in the order the map gives.
package mermaid
