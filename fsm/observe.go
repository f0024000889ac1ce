package fsm

import (
	"reflect"
	"runtime"
	"strings"

	"github.com/fsmforge/fsmforge/machine"
)

// Observe attaches o to the graph: every machine of the graph reports each
// transition it takes to o, as a [machine.Event]. A transition a guard took
// has Cause [machine.CauseGuard] and Transition its index in the
// transitions of [Graph.Describe]; one [GuardMachine.Goto] made has Cause
// [machine.CauseCall] and Transition -1. Trigger is always -1 (a graph has
// no triggers). Entity is entity(e) for the machine's entity e, or 0 when
// entity is nil. o is called after the old state's Exit and after
// [Graph.OnTransition], before the new state's Enter.
//
// Observe(nil, nil) detaches the observer. Attaching replaces the one
// attached before. With no observer attached, a transition costs one
// comparison for it and an update that takes none costs nothing; with one,
// a transition costs the call of entity and of o.Observe, plus a look
// along the state's transitions for the index (allocating nothing).
//
// Observe must not be called while a machine of the graph updates, as the
// graph must not be changed then. Adding a transition while an observer is
// attached costs O(states), to keep the indexes; attach it once the graph
// is built. o is called on the goroutine that updates the machine: if
// machines of one graph update on several goroutines, o must be safe for
// concurrent use ([machine.Recorder] is).
func (g *Graph[E, T]) Observe(o machine.Observer, entity func(E) uint64) {
	if o == nil {
		g.watch = nil
		return
	}
	if g.watch == nil {
		w := &watch[E]{bases: make([]int32, 0, len(g.nodes))}
		k := 0
		for _, n := range g.nodes {
			w.bases = append(w.bases, int32(k))
			k += len(n.out)
		}
		g.watch = w
	}
	g.watch.obs, g.watch.entityOf = o, entity
}

// report tells the graph's OnTransition and observer that e moved from from
// to to: by transition t, or by a call when t is nil. Either may be nil.
func (g *Graph[E, T]) report(e E, from, to *node[E, T], t *transition[E, T]) {
	if hook := g.OnTransition; hook != nil {
		hook(e, from.id, to.id)
	}
	w := g.watch
	if w == nil {
		return
	}
	ev := machine.Event{From: machine.StateID(from.id), To: machine.StateID(to.id),
		Cause: machine.CauseCall, Trigger: -1, Transition: -1}
	if t != nil {
		ev.Cause = machine.CauseGuard
		for i := range from.out {
			if &from.out[i] == t {
				ev.Transition = w.bases[from.id] + int32(i)
				break
			}
		}
	}
	if w.entityOf != nil {
		ev.Entity = w.entityOf(e)
	}
	w.obs.Observe(ev)
}

// Describe returns the graph as plain data, unnamed (set the
// description's Name for tools that show it): its states by ID, and its
// transitions grouped by source state in ID order, each state's in the
// order its guards are tried, so that the transitions leaving state s are
// those [Graph.Transitions](s) yields, in that order. Kind is
// [machine.KindGuarded]; Initial is [machine.NoState], since
// [Graph.New] takes the initial state; there are no triggers. A
// transition's Condition is its guard's Go name, such as
// "formation.(*Ship).tooClose" or "formation.tooClose" (package, type and
// function), or empty for a function literal, whose name says nothing.
//
// Describe allocates the description afresh on every call: a few slices,
// and the guards' names. It is for tools, not per-frame paths.
func (g *Graph[E, T]) Describe() machine.Description {
	d := machine.Description{Kind: machine.KindGuarded, Initial: machine.NoState,
		States: make([]machine.State, len(g.nodes))}
	n := 0
	for i, s := range g.nodes {
		d.States[i] = machine.State{Name: s.Name, Kind: machine.Atomic, Parent: machine.NoState}
		n += len(s.out)
	}
	d.Transitions = make([]machine.Transition, 0, n)
	to := make([]machine.StateID, n) // one array for every transition's To
	for _, s := range g.nodes {
		for i := range s.out {
			t := &s.out[i]
			k := len(d.Transitions)
			to[k] = machine.StateID(t.to.id)
			var guard any = t.cond
			if t.guard != nil {
				guard = t.guard
			}
			d.Transitions = append(d.Transitions, machine.Transition{From: machine.StateID(s.id),
				To: to[k : k+1 : k+1], Trigger: -1, Condition: funcName(guard)})
		}
	}
	return d
}

// funcName returns the Go name of function f, without its package's path
// ("formation.(*Ship).tooClose"), or "" for a function literal.
func funcName(f any) string {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return ""
	}
	name := fn.Name()
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(name, "-fm")       // a method value
	name = strings.ReplaceAll(name, "[...]", "") // a generic function
	// A function literal is named after the function around it:
	// "pkg.outer.func1", "pkg.outer.func1.2", "pkg.init.func3" or
	// "pkg.glob..func1". That names the place, not the test.
	for part := range strings.SplitSeq(name, ".") {
		if part == "" || isDigits(part) || strings.HasPrefix(part, "func") && isDigits(part[len("func"):]) {
			return ""
		}
	}
	return name
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Observe attaches o to the flow: its transitions are reported as
// [Graph.Observe] says, each with Entity set to entity. Observe(nil, 0)
// detaches it.
func (f *Flow[T]) Observe(o machine.Observer, entity uint64) {
	if o == nil {
		f.graph.Observe(nil, nil)
		return
	}
	f.graph.Observe(o, func(struct{}) uint64 { return entity })
}

// Describe returns the flow's graph as plain data, as [Graph.Describe]
// does; a transition's Condition is its condition's Go name, or empty for
// a function literal.
func (f *Flow[T]) Describe() machine.Description { return f.graph.Describe() }
