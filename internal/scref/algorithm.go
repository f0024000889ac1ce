package scref

import (
	"slices"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/cond"
)

// This file is SCXML's Appendix D ("Algorithm for SCXML Interpretation"),
// function by function and under the same names, with the null data
// model: no <invoke>, no data, no <donedata>. Comments quote what
// differs.

// orderedSet is SCXML's OrderedSet: a list without repeats that keeps
// the order of its additions.
type orderedSet[T comparable] []T

func (s *orderedSet[T]) add(x T) {
	if !slices.Contains(*s, x) {
		*s = append(*s, x)
	}
}

func (s *orderedSet[T]) delete(x T) {
	*s = slices.DeleteFunc(*s, func(y T) bool { return y == x })
}

func (s *orderedSet[T]) union(o orderedSet[T]) {
	for _, x := range o {
		s.add(x)
	}
}

func (s orderedSet[T]) isMember(x T) bool { return slices.Contains(s, x) }

func (s orderedSet[T]) some(f func(T) bool) bool { return slices.ContainsFunc(s, f) }

func (s orderedSet[T]) every(f func(T) bool) bool {
	for _, x := range s {
		if !f(x) {
			return false
		}
	}
	return true
}

func (s orderedSet[T]) hasIntersection(o orderedSet[T]) bool {
	return s.some(o.isMember)
}

func (s orderedSet[T]) toList() []T { return slices.Clone(s) }

// documentOrder and exitOrder sort states.
func documentOrder(a, b *state) int { return a.order - b.order }
func exitOrder(a, b *state) int     { return b.order - a.order }

// Predicates on states.

func isAtomicState(s *state) bool {
	return !s.root && !isHistoryState(s) && len(s.children) == 0
}

func isCompoundState(s *state) bool {
	return !s.root && s.kind == chart.NormalState && len(s.children) > 0
}

func isCompoundStateOrScxmlElement(s *state) bool { return s.root || isCompoundState(s) }

func isParallelState(s *state) bool { return !s.root && s.kind == chart.ParallelState }

func isFinalState(s *state) bool { return !s.root && s.kind == chart.EndState }

func isHistoryState(s *state) bool {
	return s.kind == chart.HistoryState || s.kind == chart.DeepHistoryState
}

func isSCXMLElement(s *state) bool { return s.root }

// isDescendant reports whether s1 is a proper descendant of s2.
func isDescendant(s1, s2 *state) bool {
	for p := s1.parent; p != nil; p = p.parent {
		if p == s2 {
			return true
		}
	}
	return false
}

// getChildStates returns the <state>, <final> and <parallel> children
// of s: not its history states.
func getChildStates(s *state) orderedSet[*state] { return orderedSet[*state](s.children) }

// getProperAncestors returns the ancestors of s1, parent first, up to
// but not including s2; with s2 nil, up to and including the root.
func getProperAncestors(s1, s2 *state) []*state {
	var out []*state
	for p := s1.parent; p != nil && p != s2; p = p.parent {
		out = append(out, p)
	}
	return out
}

// nameMatch reports whether one of descriptors matches event: "*", the
// event's name, or a prefix of it ending before a dot; a trailing ".*"
// counts for nothing ("a.*" is "a").
func nameMatch(descriptors []string, event string) bool {
	for _, d := range descriptors {
		if d == "*" {
			return true
		}
		d = strings.TrimSuffix(strings.TrimSuffix(d, "*"), ".")
		if event == d || strings.HasPrefix(event, d+".") {
			return true
		}
	}
	return false
}

// eval evaluates a guard: tests are the host's, In() the configuration's.
func (in *Interpreter) eval(e cond.Expr) bool {
	test := func(name string) bool { return in.host != nil && in.host.Test(name) }
	return e.Eval(test, in.In)
}

func (in *Interpreter) conditionMatch(t *transition) bool {
	return t.cond == nil || in.eval(t.cond)
}

// selectEventlessTransitions: for each active atomic state in document
// order, the first eventless transition whose condition holds, of the
// state or else of its nearest ancestor that has one.
func (in *Interpreter) selectEventlessTransitions() orderedSet[*transition] {
	return in.selectBy(func(t *transition) bool { return len(t.events) == 0 && in.conditionMatch(t) })
}

// selectTransitions: as selectEventlessTransitions, for the transitions
// that event triggers.
func (in *Interpreter) selectTransitions(event string) orderedSet[*transition] {
	return in.selectBy(func(t *transition) bool {
		return len(t.events) > 0 && nameMatch(t.events, event) && in.conditionMatch(t)
	})
}

// selectBy is the loop selectEventlessTransitions and selectTransitions
// share; enabled says whether a transition is.
func (in *Interpreter) selectBy(enabled func(*transition) bool) orderedSet[*transition] {
	var enabledTransitions orderedSet[*transition]
	atomicStates := slices.DeleteFunc(in.configuration.toList(), func(s *state) bool { return !isAtomicState(s) })
	slices.SortFunc(atomicStates, documentOrder)
	for _, st := range atomicStates {
	loop:
		for _, s := range append([]*state{st}, getProperAncestors(st, nil)...) {
			for _, t := range s.transitions {
				if enabled(t) {
					enabledTransitions.add(t)
					break loop
				}
			}
		}
	}
	return in.removeConflictingTransitions(enabledTransitions)
}

// removeConflictingTransitions keeps, of two transitions whose exit sets
// intersect, the one whose source is a descendant of the other's, else
// the one selected first.
func (in *Interpreter) removeConflictingTransitions(enabledTransitions orderedSet[*transition]) orderedSet[*transition] {
	var filteredTransitions orderedSet[*transition]
	for _, t1 := range enabledTransitions.toList() {
		t1Preempted := false
		var transitionsToRemove orderedSet[*transition]
		for _, t2 := range filteredTransitions.toList() {
			if in.computeExitSet(orderedSet[*transition]{t1}).hasIntersection(in.computeExitSet(orderedSet[*transition]{t2})) {
				if isDescendant(t1.source, t2.source) {
					transitionsToRemove.add(t2)
				} else {
					t1Preempted = true
					break
				}
			}
		}
		if !t1Preempted {
			for _, t3 := range transitionsToRemove.toList() {
				filteredTransitions.delete(t3)
			}
			filteredTransitions.add(t1)
		}
	}
	return filteredTransitions
}

// microstep takes a set of transitions.
func (in *Interpreter) microstep(enabledTransitions orderedSet[*transition]) {
	in.exitStates(enabledTransitions)
	in.executeTransitionContent(enabledTransitions)
	in.enterStates(enabledTransitions)
}

// exitStates leaves the states the transitions exit, innermost first,
// recording history first.
func (in *Interpreter) exitStates(enabledTransitions orderedSet[*transition]) {
	statesToExit := in.computeExitSet(enabledTransitions).toList()
	slices.SortFunc(statesToExit, exitOrder)
	for _, s := range statesToExit {
		for _, h := range s.history {
			var f func(s0 *state) bool
			if h.kind == chart.DeepHistoryState {
				f = func(s0 *state) bool { return isAtomicState(s0) && isDescendant(s0, s) }
			} else {
				f = func(s0 *state) bool { return s0.parent == s }
			}
			in.historyValue[h] = slices.DeleteFunc(in.configuration.toList(), func(s0 *state) bool { return !f(s0) })
		}
	}
	for _, s := range statesToExit {
		in.executeContent(s.onexit)
		in.configuration.delete(s)
	}
}

// computeExitSet returns the active states below the domains of the
// transitions that have targets.
func (in *Interpreter) computeExitSet(transitions orderedSet[*transition]) orderedSet[*state] {
	var statesToExit orderedSet[*state]
	for _, t := range transitions {
		if len(t.target) > 0 {
			domain := in.getTransitionDomain(t)
			for _, s := range in.configuration {
				if isDescendant(s, domain) {
					statesToExit.add(s)
				}
			}
		}
	}
	return statesToExit
}

func (in *Interpreter) executeTransitionContent(enabledTransitions orderedSet[*transition]) {
	for _, t := range enabledTransitions {
		in.executeContent(t.content)
	}
}

// enterStates enters the targets of the transitions, outermost first,
// with their default entries, and raises the done events.
func (in *Interpreter) enterStates(enabledTransitions orderedSet[*transition]) {
	var statesToEnter, statesForDefaultEntry orderedSet[*state]
	defaultHistoryContent := map[*state]*transition{} // by the history's parent
	in.computeEntrySet(enabledTransitions, &statesToEnter, &statesForDefaultEntry, defaultHistoryContent)
	list := statesToEnter.toList()
	slices.SortFunc(list, documentOrder)
	for _, s := range list {
		in.configuration.add(s)
		in.executeContent(s.onentry)
		if statesForDefaultEntry.isMember(s) {
			in.executeContent(s.initial.content)
		}
		if t := defaultHistoryContent[s]; t != nil {
			in.executeContent(t.content)
		}
		if isFinalState(s) {
			if isSCXMLElement(s.parent) {
				in.running = false
				in.final = s
			} else {
				parent := s.parent
				grandparent := parent.parent
				in.raiseDone(parent)
				if isParallelState(grandparent) {
					if getChildStates(grandparent).every(in.isInFinalState) {
						in.raiseDone(grandparent)
					}
				}
			}
		}
	}
}

// raiseDone raises "done.state." and the name of s. Not in SCXML: only
// when a transition of the chart listens for it, as package compile
// makes the done events of a table; the others would change nothing but
// the length of the internal queue, which a table bounds.
func (in *Interpreter) raiseDone(s *state) {
	event := "done.state." + s.name
	if in.doc.listened(event) {
		in.enqueue(&in.internalQueue, event)
	}
}

// computeEntrySet fills statesToEnter with the states the transitions
// enter, statesForDefaultEntry with the compounds entered by default,
// and defaultHistoryContent with the history defaults taken.
func (in *Interpreter) computeEntrySet(transitions orderedSet[*transition], statesToEnter, statesForDefaultEntry *orderedSet[*state], defaultHistoryContent map[*state]*transition) {
	for _, t := range transitions {
		for _, s := range t.target {
			in.addDescendantStatesToEnter(s, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
		}
		ancestor := in.getTransitionDomain(t)
		for _, s := range in.getEffectiveTargetStates(t) {
			in.addAncestorStatesToEnter(s, ancestor, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
		}
	}
}

func (in *Interpreter) addDescendantStatesToEnter(st *state, statesToEnter, statesForDefaultEntry *orderedSet[*state], defaultHistoryContent map[*state]*transition) {
	if isHistoryState(st) {
		if hv, ok := in.historyValue[st]; ok {
			for _, s := range hv {
				in.addDescendantStatesToEnter(s, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
			}
			for _, s := range hv {
				in.addAncestorStatesToEnter(s, st.parent, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
			}
		} else {
			defaultHistoryContent[st.parent] = st.transition
			for _, s := range st.transition.target {
				in.addDescendantStatesToEnter(s, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
			}
			for _, s := range st.transition.target {
				in.addAncestorStatesToEnter(s, st.parent, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
			}
		}
		return
	}
	statesToEnter.add(st)
	if isCompoundState(st) {
		statesForDefaultEntry.add(st)
		for _, s := range st.initial.target {
			in.addDescendantStatesToEnter(s, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
		}
		for _, s := range st.initial.target {
			in.addAncestorStatesToEnter(s, st, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
		}
	} else if isParallelState(st) {
		for _, child := range getChildStates(st) {
			if !statesToEnter.some(func(s *state) bool { return isDescendant(s, child) }) {
				in.addDescendantStatesToEnter(child, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
			}
		}
	}
}

func (in *Interpreter) addAncestorStatesToEnter(st, ancestor *state, statesToEnter, statesForDefaultEntry *orderedSet[*state], defaultHistoryContent map[*state]*transition) {
	for _, anc := range getProperAncestors(st, ancestor) {
		if isSCXMLElement(anc) {
			break // reached only for ancestor nil, which no caller passes
		}
		statesToEnter.add(anc)
		if isParallelState(anc) {
			for _, child := range getChildStates(anc) {
				if !statesToEnter.some(func(s *state) bool { return isDescendant(s, child) }) {
					in.addDescendantStatesToEnter(child, statesToEnter, statesForDefaultEntry, defaultHistoryContent)
				}
			}
		}
	}
}

// isInFinalState reports whether compound s has an active final child,
// or all regions of parallel s are in a final state.
func (in *Interpreter) isInFinalState(s *state) bool {
	switch {
	case isCompoundState(s):
		return getChildStates(s).some(func(s *state) bool { return isFinalState(s) && in.configuration.isMember(s) })
	case isParallelState(s):
		return getChildStates(s).every(in.isInFinalState)
	}
	return false
}

// getTransitionDomain returns the state whose descendants the
// transition exits and enters: nil for a targetless one; its source for
// an internal one whose targets are all inside its compound source; else
// the least common compound ancestor of the source and the targets.
func (in *Interpreter) getTransitionDomain(t *transition) *state {
	tstates := in.getEffectiveTargetStates(t)
	switch {
	case len(tstates) == 0:
		return nil
	case t.internal && isCompoundState(t.source) && tstates.every(func(s *state) bool { return isDescendant(s, t.source) }):
		return t.source
	}
	return findLCCA(append([]*state{t.source}, tstates...))
}

// findLCCA returns the least common compound ancestor of the states:
// the nearest proper ancestor of the first that is compound (or the
// root) and holds the others. Not in SCXML: a list that begins with the
// root (the source of any-state transitions and of the start) has the
// root.
func findLCCA(stateList []*state) *state {
	head, tail := stateList[0], orderedSet[*state](stateList[1:])
	if head.root {
		return head
	}
	for _, anc := range getProperAncestors(head, nil) {
		if !isCompoundStateOrScxmlElement(anc) {
			continue
		}
		if tail.every(func(s *state) bool { return isDescendant(s, anc) }) {
			return anc
		}
	}
	panic("scref: findLCCA: the root is every state's ancestor")
}

// getEffectiveTargetStates returns the targets of t, with each history
// state replaced by what it recorded, or else by its default's targets.
func (in *Interpreter) getEffectiveTargetStates(t *transition) orderedSet[*state] {
	var targets orderedSet[*state]
	for _, s := range t.target {
		if isHistoryState(s) {
			if hv, ok := in.historyValue[s]; ok {
				targets.union(hv)
			} else {
				targets.union(in.getEffectiveTargetStates(s.transition))
			}
		} else {
			targets.add(s)
		}
	}
	return targets
}

// exitInterpreter leaves every active state, innermost first, running
// their exit actions.
func (in *Interpreter) exitInterpreter() {
	statesToExit := in.configuration.toList()
	slices.SortFunc(statesToExit, exitOrder)
	for _, s := range statesToExit {
		in.executeContent(s.onexit)
		in.configuration.delete(s)
	}
}
