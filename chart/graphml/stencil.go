package graphml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// checkStencil reads the role of each node and compares the custom
// properties the file declares with the stencil's. It returns false when
// the drawing was not made with the stencil: no node or edge plays a part
// of it.
func (in *interp) checkStencil() bool {
	st, roleKey := in.st, in.opt.RoleKey
	type use struct {
		count int
		first diag.Pos
	}
	uses := make(map[string]*use)
	var values []string // in order of first use
	known, elements := false, 0
	record := func(v string, at diag.Pos) {
		if v == "" {
			return
		}
		if st.Role(v) != chart.RoleNone {
			known = true
			return
		}
		u := uses[v]
		if u == nil {
			u = &use{first: at}
			uses[v] = u
			values = append(values, v)
		}
		u.count++
	}
	for _, n := range in.nodes {
		if n.what == isMachine || n.what == isBad {
			continue
		}
		elements++
		v, _, _, _ := in.prop(n.values, "node", roleKey, n.e)
		n.roleVal = strings.TrimSpace(v)
		n.role = st.Role(n.roleVal)
		record(n.roleVal, in.at(n.e, n.id, shownName(n.label)))
	}
	for _, e := range in.edges {
		elements++
		v, _, _, _ := in.prop(e.values, "edge", roleKey, e.e)
		record(strings.TrimSpace(v), in.at(e.e, e.id, chart.NormalizeSpace(e.label)))
	}
	if !known && elements > 0 {
		used := "no node or edge has one"
		if len(values) > 0 {
			q := make([]string, len(values))
			for i, v := range values {
				q[i] = strconv.Quote(v)
			}
			used = "its values are " + strings.Join(q, ", ")
		}
		in.diag(diag.Error, diag.Pos{File: in.file},
			fmt.Sprintf("In yEd, give each node and edge a %q property (Edit > Properties Manager) whose value names its master in the stencil, or read the drawing without a stencil, as a plain state diagram.", roleKey),
			"the drawing was not made with stencil %q: the %q property names its masters (%q, %q...), but %s",
			st.Name, roleKey, st.Masters.State, st.Masters.Transition, used)
		return false
	}
	for _, v := range values {
		u := uses[v]
		in.diag(diag.Warning, u.first, "Use the stencil's masters only: "+strings.Join(masterNames(st, true, true), ", ")+".",
			"role %q is not a master of stencil %q: its %s ignored", v, st.Name, pluralElems(u.count))
	}
	in.checkKeys()
	return true
}

// masterNames lists the stencil's masters, quoted, in the order of
// [chart.Masters]: those of nodes, of edges, or both (forNodes, forEdges).
func masterNames(st *chart.Stencil, forNodes, forEdges bool) []string {
	m := st.Masters
	var names []string
	for _, name := range [...]string{m.State, m.Initial, m.Transition, m.AnyState, m.Composite, m.Parallel, m.Start, m.History, m.DeepHistory} {
		edge := name == m.Transition
		if name != "" && (edge && forEdges || !edge && forNodes) {
			names = append(names, strconv.Quote(name))
		}
	}
	return names
}

// checkKeys compares the custom properties the file declares with those
// of the stencil: a property the stencil lists and the file lacks is a
// warning; one the file has and the stencil does not know, a note.
func (in *interp) checkKeys() {
	st, names := in.st, in.props
	const add = "Add it in yEd (Edit > Properties Manager), or update the stencil file from the drawing."
	declared := func(name, kind string) bool {
		for _, k := range in.keyList {
			if k.name == name && k.applies(kind) {
				return true
			}
		}
		return false
	}
	for _, a := range st.Actions {
		if !declared(a.Name, "node") {
			in.diag(diag.Warning, diag.Pos{File: in.file}, add,
				"the file declares no node property %q, which stencil %q (version %s) lists", a.Name, st.Name, importer.Version(st))
		}
	}
	if !declared(names.Test, "edge") {
		in.diag(diag.Warning, diag.Pos{File: in.file}, add,
			"the file declares no edge property %q: its transitions have no test", names.Test)
	}
	known := []string{in.opt.RoleKey, names.Name, names.Test, names.Value, names.Order, names.Stack, "url", "description"}
	for _, a := range st.Actions {
		known = append(known, a.Name)
	}
	for _, k := range in.keyList {
		if k.name == "" || k.yType != "" || !(k.applies("node") || k.applies("edge")) || contains(known, k.name) {
			continue
		}
		in.diag(diag.Note, diag.Pos{File: in.file, Line: k.line, Col: k.col}, "",
			"property %q is not in stencil %q; ignored", k.name, st.Name)
	}
}

func pluralElems(n int) string {
	if n == 1 {
		return "node or edge is"
	}
	return strconv.Itoa(n) + " nodes and edges are"
}

// classifyStencil reads the i-th node of a drawing made with a stencil:
// its role property says what it is. A node of a history master's role
// is a history pseudo-state ([interp.history]); of the start master's, a
// start pseudo-state ([interp.start]); of the message handler's, the
// start of transitions that apply in any state; of another role whose
// master draws a state ([chart.Role.IsState], which covers the
// pseudo-states' too: here the state, initial-state, composite and
// parallel masters), a state of that kind, named by its name property or
// else by the first line of its label. The containers (the composite's
// and the parallel's) are checked once all are read ([interp.containers]).
func (in *interp) classifyStencil(i int, n *node, first, rest string) {
	n.what = isIgnored
	switch r := n.role; {
	case r == chart.RoleNone:
		if n.roleVal == "" && n.in == 0 && n.out == 0 {
			in.noRole++ // an unknown role is reported with the roles; an end marker is used
		}
	case r == chart.RoleTransition:
		in.diag(diag.Warning, in.at(n.e, n.id, first),
			"Give the node the role of one of the stencil's masters for nodes ("+strings.Join(masterNames(in.st, true, false), ", ")+"); transitions are edges.",
			"node with role %q, which is for edges; ignored", n.roleVal)
	case r == chart.RoleAnyState:
		n.what = isAnyState
		n.name = chart.NormalizeSpace(first)
	case r.Kind().IsHistory():
		in.history(i, n, first, r.Kind()) // nameless, as in plain diagrams
	case r == chart.RoleStart:
		in.start(i, n, first) // nameless too
	case r.IsState():
		n.what = isState
		n.name = in.stencilName(n, first)
		in.behaviour(n, rest) // before the kind is set: a parallel state's text is not read either
		n.kind = r.Kind()
	}
}

// stencilName names a state of a drawing made with a stencil: its name
// property, or else the first line of its label.
func (in *interp) stencilName(n *node, first string) string {
	if v, _, _, ok := in.prop(n.values, "node", in.props.Name, n.e); ok {
		if name := chart.NormalizeSpace(v); name != "" {
			return name
		}
	}
	return chart.NormalizeSpace(first)
}

// Hints about the containers of a stencil: the composite and parallel
// masters.
const (
	hintGroup = "In yEd, a state that holds states is a group node: select the states and group them (Edit > Grouping > Group), " +
		"then give the group the role %q; or give this node the role %q."
	hintRegions = "Draw its regions inside it, a state of the role %q for each, with the states of each region inside it; or give the node the role %q."
)

// containers checks the states of the composite and parallel masters,
// which hold states. A node of their roles that is not a group node (a
// shape, over which states may be drawn without yEd putting them inside
// it) holds none: it is read as a simple state, with a warning. So is a
// parallel state that holds no states, which would have no regions; a
// composite group that holds none is a simple state as drawn. It costs
// time linear in the nodes times the depth of their nesting.
func (in *interp) containers() {
	holds := make(map[*node]bool)
	for _, n := range in.nodes {
		if n.what != isState {
			continue
		}
		if p := parentState(n); p != nil {
			holds[p] = true
		}
	}
	m := in.st.Masters
	for _, n := range in.nodes {
		if n.what != isState || n.role != chart.RoleComposite && n.role != chart.RoleParallel || holds[n] {
			continue
		}
		at := in.at(n.e, n.id, n.name)
		switch {
		case !isGroup(n):
			in.diag(diag.Warning, at, fmt.Sprintf(hintGroup, n.roleVal, m.State),
				"%s has the role %q, a state that holds states, but is not a group node: it holds none, and is read as a simple state", describe(n), n.roleVal)
		case n.role == chart.RoleParallel:
			regions := m.Composite
			if regions == "" {
				regions = m.State
			}
			in.diag(diag.Warning, at, fmt.Sprintf(hintRegions, regions, m.State),
				"%s has the role %q, a parallel state, but holds no states to be its regions: it is read as a simple state", describe(n), n.roleVal)
		}
		n.kind = chart.NormalState
	}
}

// isGroup reports whether a node is a group node: yEd's group or folder
// (yfiles.foldertype), or a node that holds a graph.
func isGroup(n *node) bool {
	switch n.e.get("foldertype") {
	case "group", "folder":
		return true
	}
	return n.e.kid("graph") != nil
}

// entryActions reads a state's entry actions from the stencil's action
// properties. A pseudo-state (a history, a start) has none
// ([interp.pseudoActions]).
func (in *interp) entryActions(n *node, st *chart.State) {
	if st.Kind.IsPseudo() {
		in.pseudoActions(n, st)
		return
	}
	for _, a := range in.st.Actions {
		v, line, col, ok := in.prop(n.values, "node", a.Name, n.e)
		v = strings.TrimSpace(v)
		if !ok || v == "" {
			continue
		}
		at := st.Pos
		at.Line, at.Col = line, col
		if !contains(a.Values, v) {
			in.diag(diag.Error, at, "Pick one of "+strings.Join(a.Values, ", ")+" in the node's properties (Edit > Properties > Data).",
				"state %q: %s value %q is not in the drop-list of stencil %q", st.Name, a.Name, v, in.st.Name)
			continue
		}
		st.Entry = append(st.Entry, chart.Action{Property: a.Name, Value: v, Pos: at})
	}
}

// pseudoActions reports the action properties set on a history or a
// start node, which are not read: a pseudo-state has no entry actions. A
// key's default, which applies to every node, is not reported.
func (in *interp) pseudoActions(n *node, st *chart.State) {
	noun, hint := "history", "Clear the property on the history; the state it is drawn in may have entry actions."
	if st.Kind == chart.StartState {
		noun, hint = "start state", "Clear the property on the start node; the state its edge leads to may have entry actions."
	}
	for _, v := range n.values {
		text := strings.TrimSpace(v.text)
		if _, ok := in.st.Action(v.k.name); !ok || text == "" || !v.k.applies("node") {
			continue
		}
		at := st.Pos
		at.Line, at.Col = v.line, v.col
		in.diag(diag.Warning, at, hint, "%s %s: %s %q is not read: a %[1]s is a pseudo-state, without entry actions",
			noun, n.id, v.k.name, importer.Shorten(text, 40))
	}
}

// start makes the i-th node, of the start master, a start pseudo-state
// (UML's initial state) of the state it is drawn in, or of the top level:
// nameless and marked Initial, as in plain diagrams. Its one edge, without
// a test, goes to the state its parent starts in ([interp.stencilProps]);
// package compile checks that it has one. One that holds nodes is an
// error, and it, what it holds and its edges are left out.
func (in *interp) start(i int, n *node, first string) {
	if in.holdsNodes(i, n, first, "start") {
		return
	}
	n.what, n.kind = isState, chart.StartState
}

// holdsNodes reports whether the i-th node, a pseudo-state (noun: "start",
// "history"), holds nodes: an error, and it, what it holds and its edges
// are left out.
func (in *interp) holdsNodes(i int, n *node, first, noun string) bool {
	if in.members(i) == 0 {
		return false
	}
	n.what = isBad
	in.diag(diag.Error, in.at(n.e, n.id, first), "Draw the nodes beside the "+noun+" node, not inside it.",
		"%s %s holds other nodes: a pseudo-state holds none; it, what it holds and its edges are left out", noun, describe(n))
	return true
}
