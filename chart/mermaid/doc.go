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
//     `state "walkLeft" as s0` (its ID when it has no name). Entry and exit
//     actions are description lines under the name,
//     `s0 : entry / XMovement=left`, then `s0 : exit / cancel t1`, in the
//     chart's order (see Labels below).
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
//     ToFinal share it (inside a composite state, [*] is the composite's
//     own: see Nesting).
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
// # Nesting
//
// A chart whose states nest (State.Parent: a statechart read from SCXML,
// a drawing with composite states) is drawn with Mermaid's composite
// states. A chart without nesting is drawn as described above, byte for
// byte as before nesting was drawn.
//
//   - A compound state (a state that others are drawn inside) is a
//     composite state, `state "combat" as s1 { ... }`, holding its
//     children in chart order. Mermaid draws no description under a
//     composite state's name (it fails on one), so its entry and exit
//     actions are further lines of its name.
//   - A parallel state's name ends with "‖" ([Parallel]); its children, its
//     regions, each a composite or a simple state, are separated by "--",
//     Mermaid's concurrency separator.
//   - Inside a composite state, [*] is its own start and end: its initial
//     children are entered by `[*] --> s6` (but a parallel state's regions,
//     all entered); a start pseudo-state inside it is that [*], and an end
//     pseudo-state, its final state, the [*] of `s10 --> [*]`.
//   - Mermaid has no history pseudo-states: a history state is a state
//     named "H" (shallow) or "H*" (deep), UML's notation, with its own name
//     as a description line; its default transition is an arrow like any
//     other.
//   - Mermaid 11 puts a state in the last composite state whose text names
//     it, wherever it was declared; only names at the top level move
//     nothing. So each state is declared in its parent, an arrow is written
//     inside a composite state only when both its ends are children of it
//     (or its [*]), and every other arrow at the top level, where [*] is
//     the machine's start and end. An arrow from a composite state's start
//     pseudo-state to a state further down starts from a fork bar,
//     `state s15 <<fork>>`, that [*] enters, UML's notation for entering
//     several regions; an arrow into a composite state's final state from
//     a state further out ends at a join bar, which goes on to [*]. The
//     bars take the IDs after the chart's states.
//   - A state whose Parent is missing, is a pseudo-state or itself, or
//     would close a cycle of parents is drawn at the top level.
//
// # Labels
//
// A transition's label reads "event [guard] / actions", UML's order: its
// rank and its label as drawn (or its test and value, see above), then,
// when it has actions (Transition.Actions), "/ " and each action briefly,
// separated by semicolons: "XMovement=left" for a game action,
// "raise hit", "send timeout after 1.5s as t1" (a delay in seconds, and
// the timer that names it), "cancel t1", each preceded by its guard in
// brackets, "[low] raise flee", when it has one. Marks end it: "⤴ push"
// ([Push]), "↺ stays" ([Stay]) for a transition without target (ToNone),
// drawn as an arrow from its source to itself, and "«internal»"
// ([Internal]) for an internal transition. A transition with several
// targets (Transition.Also) is an arrow to each, with the same label.
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
// order (each inside its parent), then the added states, the initial
// transition and the transitions in chart order (each composite state's
// own at its end). Nothing is read from a map in the order the map gives.
package mermaid
