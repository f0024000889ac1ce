package graphml

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
	"github.com/fsmforge/fsmforge/internal/source"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// interp holds the state of one reading.
type interp struct {
	opt   Options
	st    *chart.Stencil // nil for a plain state diagram
	props chart.Properties
	file  string
	c     *chart.Chart

	keys    map[string]*key
	keyList []*key
	defs    map[string][]*key // keys with a <default>, by attr.name
	nodes   []*node
	byID    map[string]*node
	edges   []*edge
	machine *node
	badKeys map[string]bool // data keys reported as undeclared
	fatal   error           // a problem that stops the reading: too deep, too large
	noRole  int             // nodes without a role, with a stencil

	// A drawing made for StateSmith (a node labelled with one of its
	// keywords) is read with StateSmith's grammar.
	ss         bool
	flatRoot   bool               // the $STATEMACHINE node holds no node: the top level is the machine
	unlabelled int                // nodes without a label or an edge, in a StateSmith drawing
	orders     []float64          // per transition, the order drawn ([importer.RankOrders])
	smith      statesmith.Reading // entry and exit points, handlers, events
}

func interpret(doc *document, opt Options) (*chart.Chart, error) {
	in := &interp{
		opt:     opt,
		st:      opt.Stencil,
		file:    doc.file,
		c:       &chart.Chart{File: doc.file, Stencil: opt.Stencil},
		keys:    make(map[string]*key),
		byID:    make(map[string]*node, doc.nodes),
		badKeys: make(map[string]bool),
	}
	if in.st != nil {
		in.props = in.st.PropertyNames()
	}
	in.readKeys(doc.root)
	for _, g := range doc.root.kids {
		if g.local == "graph" {
			in.chain(g)
			in.readGraph(g, nil, 0)
		}
	}
	if in.fatal != nil {
		return nil, in.fatal
	}
	in.run()
	if in.fatal != nil {
		return nil, in.fatal
	}
	if in.c.States == nil {
		in.c.States = []chart.State{}
	}
	if in.c.Transitions == nil {
		in.c.Transitions = []chart.Transition{}
	}
	return in.c, in.c.Diagnostics.Err()
}

func (in *interp) diag(sev diag.Severity, at diag.Pos, hint, format string, args ...any) {
	in.c.Diagnostics = append(in.c.Diagnostics, diag.Diagnostic{
		Pos: at, Severity: sev, Message: "graphml: " + fmt.Sprintf(format, args...), Hint: hint,
	})
}

// at returns the position of element e, for a node or an edge with the
// given ID and name.
func (in *interp) at(e *elem, id, name string) diag.Pos {
	p := diag.Pos{File: in.file, Shape: id, ShapeName: name}
	if e != nil {
		p.Line, p.Col = e.line, e.col
	}
	return p
}

// sev is the severity of a problem that leaves an element out: an error
// in a drawing made with a stencil (a build asset), a warning in a plain
// diagram.
func (in *interp) sev() diag.Severity {
	if in.st != nil {
		return diag.Error
	}
	return diag.Warning
}

func (in *interp) readKeys(root *elem) {
	for _, e := range root.kids {
		if e.local != "key" {
			continue
		}
		k := &key{id: e.get("id"), domain: e.get("for"), name: e.get("attr.name"), yType: e.get("yfiles.type"), line: e.line, col: e.col}
		if d := e.kid("default"); d != nil {
			k.def, k.hasDef = string(d.text), true
		}
		if _, dup := in.keys[k.id]; dup {
			in.diag(diag.Warning, diag.Pos{File: in.file, Line: e.line, Col: e.col}, "The file is damaged; save it again from yEd.",
				"key %q is declared twice; the first declaration is kept", k.id)
			continue
		}
		in.keys[k.id] = k
		in.keyList = append(in.keyList, k)
		if k.hasDef && k.name != "" {
			if in.defs == nil {
				in.defs = make(map[string][]*key)
			}
			in.defs[k.name] = append(in.defs[k.name], k)
		}
	}
}

// values reads the <data> elements of a node or an edge: its graphics
// and its custom properties.
func (in *interp) values(e *elem, kind string) ([]value, look) {
	var vals []value
	var lk look
	for _, d := range e.kids {
		if d.local != "data" {
			continue
		}
		id := d.get("key")
		k := in.keys[id]
		if k == nil {
			if !in.badKeys[id] {
				in.badKeys[id] = true
				in.diag(diag.Warning, diag.Pos{File: in.file, Line: d.line, Col: d.col}, "The file is damaged; save it again from yEd.",
					"<data> refers to key %q, which no <key> declares; ignored", id)
			}
			continue
		}
		switch k.yType {
		case "nodegraphics":
			if kind == "node" {
				lk = readNodeLook(d)
			}
			continue
		case "edgegraphics":
			if kind == "edge" {
				lk = readEdgeLook(d)
			}
			continue
		}
		if k.name != "" {
			vals = append(vals, value{k: k, text: string(d.text), line: d.line, col: d.col})
		}
	}
	return vals, lk
}

// readGraph reads the nodes and edges of a graph, in document order, the
// members of a group node right after it.
func (in *interp) readGraph(g *elem, parent *node, depth int) {
	if depth > in.opt.MaxDepth {
		if in.fatal == nil {
			in.fatal = source.Fatal(in.file, g.line, g.col, ErrTooDeep, fmt.Sprintf("graphml: group nodes nest more than %d deep", in.opt.MaxDepth),
				sentence(chart.LimitHint("MaxDepth")))
		}
		return
	}
	for _, e := range g.kids {
		if in.fatal != nil {
			return
		}
		switch e.local {
		case "node":
			id := e.get("id")
			n := &node{e: e, id: id, parent: parent}
			n.values, n.look = in.values(e, "node")
			n.label = firstLabel(n.look.labels, n.values)
			switch {
			case id == "":
				in.diag(in.sev(), in.at(e, "", shownName(n.label)), "Every GraphML node needs an id; save the file again from yEd.",
					"node without an id; it and what it holds are ignored")
				continue
			case in.byID[id] != nil:
				in.diag(in.sev(), in.at(e, id, shownName(n.label)), "The file is damaged; save it again from yEd.",
					"node id %q is used twice; the second node and what it holds are ignored", id)
				continue
			}
			in.byID[id] = n
			in.nodes = append(in.nodes, n)
			graphs := 0
			for _, sub := range e.kids {
				if sub.local != "graph" {
					continue
				}
				if graphs++; graphs > 1 {
					in.diag(in.sev(), in.at(sub, id, shownName(n.label)), "A GraphML node holds at most one graph; save the file again from yEd.",
						"node %s holds a second graph; ignored", id)
					continue
				}
				in.readGraph(sub, n, depth+1)
			}
		case "edge":
			ed := &edge{e: e, id: e.get("id"), source: e.get("source"), target: e.get("target")}
			ed.values, ed.look = in.values(e, "edge")
			ed.label = firstLabel(ed.look.labels, ed.values)
			in.edges = append(in.edges, ed)
		case "hyperedge":
			in.diag(in.sev(), in.at(e, e.get("id"), ""), "Draw a transition as an edge between two nodes.",
				"hyperedge: not a transition; ignored")
		}
	}
}

// moreLabels reports the labels of a node or an edge after its first,
// which are not read. StateSmith reads the last label, and the reader
// cannot tell which the designer meant: an error in a drawing made for it.
// Elsewhere a warning, as a label left out may change what an edge
// means; a note with a stencil, whose properties say what an element is.
func (in *interp) moreLabels(e *elem, id string, labels []string) {
	if len(labels) < 2 {
		return
	}
	at := in.at(e, id, shownName(labels[0]))
	const hint = "Put all of a node's or an edge's text in one label."
	switch {
	case in.ss:
		in.diag(diag.Error, at, hint, "%s %s has %d labels: StateSmith reads its last, %q, and this reader its first, %q",
			e.local, id, len(labels), importer.Shorten(chart.NormalizeSpace(labels[len(labels)-1]), 40), importer.Shorten(chart.NormalizeSpace(labels[0]), 40))
	case in.st != nil:
		in.diag(diag.Note, at, hint, "%s has %d labels; only the first is read", e.local, len(labels))
	default:
		in.diag(diag.Warning, at, hint, "%s %s has %d labels; only the first is read, not %q",
			e.local, id, len(labels), importer.Shorten(chart.NormalizeSpace(strings.Join(labels[1:], " ")), 40))
	}
}

// firstLabel returns the text of a node or an edge: its first yEd label,
// or else its plain GraphML property "label" or "name".
func firstLabel(labels []string, vals []value) string {
	if len(labels) > 0 {
		return labels[0]
	}
	for _, name := range [...]string{"label", "name"} {
		for _, v := range vals {
			if strings.EqualFold(v.k.name, name) {
				if t := strings.TrimSpace(v.text); t != "" {
					return t
				}
			}
		}
	}
	return ""
}

// prop returns the value of a custom property of a node or an edge: its
// own, or else its key's default; at is where the value was set.
func (in *interp) prop(vals []value, kind, name string, e *elem) (v string, line, col int, ok bool) {
	for _, x := range vals {
		if x.k.name == name && x.k.applies(kind) {
			return x.text, x.line, x.col, true
		}
	}
	for _, k := range in.defs[name] {
		if k.applies(kind) {
			return k.def, e.line, e.col, true
		}
	}
	return "", 0, 0, false
}

func (in *interp) run() {
	in.c.Name = chartName(in.file)
	// Edge ends, for telling start from end markers.
	for _, e := range in.edges {
		if n := in.byID[e.source]; n != nil {
			n.out++
		}
		if n := in.byID[e.target]; n != nil {
			n.in++
		}
	}
	in.findMachine()
	if in.st != nil && !in.checkStencil() {
		return
	}
	in.ss = in.madeForStateSmith()
	for _, n := range in.nodes {
		in.moreLabels(n.e, n.id, n.look.labels)
	}
	for _, e := range in.edges {
		in.moreLabels(e.e, e.id, e.look.labels)
	}
	in.classify()
	if in.st != nil {
		in.containers()
	}
	in.states()
	if in.st != nil {
		// The initial-state master's meaning in nested groups: the
		// machine starts in its node, so in each group around it, up to
		// a level that marks its own; a region's mark that says nothing
		// is a warning.
		in.report(importer.MarkInitialAncestors(in.c.States, in.st), diag.Pos{}, "")
	}
	in.transitions()
	if in.fatal != nil {
		return
	}
	if in.ss {
		in.report(in.smith.Finish(in.c), diag.Pos{}, "")
		in.report(in.smith.Hierarchy(in.c), diag.Pos{}, "")
	} else {
		in.nested()
		if in.st == nil {
			// With a stencil, a start's edges have no trigger or guard, and
			// package compile reports a start with more than one.
			in.report(statesmith.CheckStarts(in.c), diag.Pos{}, "")
		}
	}
	importer.RankOrders(in.c, in.orders, "graphml")
	in.layout()
}

// addTransition appends a transition to the chart, with the order drawn
// on it (a key of [importer.RankOrders]). Past Options.MaxTransitions
// (the labels of StateSmith and Kingly make several transitions of an
// edge), the reading stops with [ErrTooLarge].
func (in *interp) addTransition(t chart.Transition, key float64) {
	if in.fatal != nil {
		return
	}
	if len(in.c.Transitions) >= in.opt.MaxTransitions {
		in.fatal = source.Fatal(in.file, t.Pos.Line, t.Pos.Col, ErrTooLarge,
			fmt.Sprintf("graphml: the edges' labels make more than %d transitions", in.opt.MaxTransitions),
			sentence(chart.LimitHint("MaxTransitions")))
		return
	}
	in.c.Transitions = append(in.c.Transitions, t)
	in.orders = append(in.orders, key)
}

// chartName is the file's base name without its extension.
func chartName(file string) string {
	if file == "" {
		return ""
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// findMachine finds StateSmith's $STATEMACHINE group at the top level:
// the chart itself.
func (in *interp) findMachine() {
	for _, n := range in.nodes {
		if n.parent != nil {
			continue
		}
		first, _ := firstLine(n.label)
		name, ok := machineName(first)
		if !ok {
			continue
		}
		if in.machine != nil {
			n.what = isBad
			in.diag(diag.Error, in.at(n.e, n.id, first), "Keep one state machine per file.",
				"a second $STATEMACHINE group; this reader reads the first one, %q", in.machine.name)
			continue
		}
		in.machine, n.what, n.name = n, isMachine, name
		if name != "" {
			in.c.Name = name
		}
		if _, rest := firstLine(n.label); rest != "" && in.st == nil {
			in.diag(diag.Warning, in.at(n.e, n.id, first), dropHint,
				"the $STATEMACHINE's behaviour is code for StateSmith's generator, which fsmforge does not run: %q", importer.Shorten(chart.NormalizeSpace(rest), 60))
		}
	}
	if m := in.machine; m != nil && !slices.ContainsFunc(in.nodes, func(k *node) bool { return k.parent == m }) {
		in.flatRoot = true // StateSmith's flat machine: the nodes beside it are its states
	}
}

// machineName reads a "$STATEMACHINE: Name" label.
func machineName(first string) (string, bool) {
	const tag = "$statemachine"
	if len(first) < len(tag) || !strings.EqualFold(first[:len(tag)], tag) {
		return "", false
	}
	rest := strings.TrimSpace(first[len(tag):])
	if rest != "" && rest[0] != ':' {
		return "", false
	}
	return chart.NormalizeSpace(strings.TrimPrefix(rest, ":")), true
}

// classify decides what each node is. Nodes come in document order, a
// group before its members, which share its fate when it is notes, outside
// the machine, or reported as an error.
func (in *interp) classify() {
	outside := 0
	var states []string // states among the nodes outside the machine
	leaveOut := func(n *node) {
		n.what = isOutside
		outside++
		if v := n.vertex(); v.Kind == statesmith.State && v.Name != "" && !isHistory(n) {
			states = append(states, strconv.Quote(importer.Shorten(v.Name, 30)))
		}
	}
	for i, n := range in.nodes {
		if n.what == isMachine || n.what == isBad {
			continue // by findMachine
		}
		if p := n.parent; p != nil && (p.what == isNotes || p.what == isOutside || p.what == isBad) {
			if p.what == isOutside {
				leaveOut(n)
			} else {
				n.what = p.what
			}
			continue
		}
		if in.ss {
			if in.machine != nil && n.parent == nil && !in.flatRoot && !isConfig(n) {
				leaveOut(n) // settings at the top level apply to the machine
				continue
			}
			in.classifyStateSmith(i, n)
			continue
		}
		if in.machine != nil && n.parent == nil && !in.flatRoot {
			leaveOut(n)
			continue
		}
		first, rest := firstLine(n.label)
		lower := strings.ToLower(first)
		if strings.HasPrefix(lower, "$notes") {
			n.what = isNotes
			members := in.members(i)
			in.diag(diag.Note, in.at(n.e, n.id, first), "", "$NOTES node: it and the %s inside it are notes, not part of the chart", importer.Plural(members, "node"))
			continue
		}
		if in.st != nil {
			in.classifyStencil(i, n, first, rest)
		} else {
			in.classifyPlain(i, n, first, lower)
		}
	}
	if in.unlabelled > 0 {
		in.diag(diag.Note, diag.Pos{File: in.file}, "", "%s without a label or an edge %s not part of the chart, as in StateSmith",
			importer.Plural(in.unlabelled, "node"), importer.IsAre(in.unlabelled))
	}
	switch {
	case outside == 0:
	case len(states) > 0:
		if len(states) > 3 {
			states = append(states[:3], "...")
		}
		in.diag(diag.Warning, in.at(in.machine.e, in.machine.id, "$STATEMACHINE: "+in.machine.name),
			"Draw the states of the machine inside its $STATEMACHINE group.",
			"%s outside the $STATEMACHINE group %s not part of the chart, as in StateSmith, %d of them states: %s",
			importer.Plural(outside, "node"), importer.IsAre(outside), len(states), strings.Join(states, ", "))
	default:
		in.diag(diag.Note, in.at(in.machine.e, in.machine.id, "$STATEMACHINE: "+in.machine.name), "",
			"%s outside the $STATEMACHINE group %s not part of the chart (notes, and nodes without a name)", importer.Plural(outside, "node"), importer.IsAre(outside))
	}
	if in.noRole > 0 {
		in.diag(diag.Note, diag.Pos{File: in.file}, "",
			"%s without a %q property or an edge %s not part of the chart", importer.Plural(in.noRole, "node"), in.opt.RoleKey, importer.IsAre(in.noRole))
	}
}

// members counts the nodes drawn inside the i-th node: those that follow
// it in document order while it is one of their groups.
func (in *interp) members(i int) int {
	n, count := in.nodes[i], 0
	for _, m := range in.nodes[i+1:] {
		inside := false
		for p := m.parent; p != nil && !inside; p = p.parent {
			inside = p == n
		}
		if !inside {
			break
		}
		count++
	}
	return count
}

// parentState returns the state a node is drawn inside: its nearest
// group that is a state, or nil.
func parentState(n *node) *node {
	for p := n.parent; p != nil; p = p.parent {
		if p.what == isState {
			return p
		}
	}
	return nil
}

// classifyPlain reads the i-th node of a plain diagram (not made for
// StateSmith, whose keywords classifyStateSmith reads): pseudo-states,
// and states. A pseudo-state holds no nodes: one that does is an error,
// and it and what it holds are left out.
func (in *interp) classifyPlain(i int, n *node, first, lower string) {
	if isHistory(n) {
		in.plainHistory(i, n, first)
		return
	}
	kind, name, behaviour := plainKind(n, first, lower)
	if kind != chart.NormalState {
		if members := in.members(i); members > 0 {
			n.what = isBad
			in.diag(diag.Error, in.at(n.e, n.id, first), "Draw the nodes beside the pseudo-state, not inside it; a state that holds states is drawn as a group with a name.",
				"node %s is read as a %s pseudo-state, but it holds %s: a pseudo-state holds none; it, what it holds and its edges are left out",
				n.id, kind, importer.Plural(members, "node"))
			return
		}
	}
	n.what, n.kind, n.name = isState, kind, name
	in.behaviour(n, behaviour)
}

// plainHistory reads the i-th node, a history pseudo-state drawn as
// Kingly and UML draw it ([isHistory]): "H" is a shallow history of the
// state it is drawn in, "H*" a deep one (see [interp.history]).
func (in *interp) plainHistory(i int, n *node, first string) {
	kind := chart.HistoryState
	if strings.HasSuffix(first, "*") {
		kind = chart.DeepHistoryState
	}
	in.history(i, n, first, kind)
}

// history makes the i-th node, whose label's first line is first, a
// history pseudo-state of the given kind, of the state it is drawn in.
// One drawn in no state, or holding nodes, is an error, and it and its
// edges are left out.
func (in *interp) history(i int, n *node, first string, kind chart.StateKind) {
	at := in.at(n.e, n.id, first)
	switch {
	case parentState(n) == nil:
		n.what = isBad
		in.report([]importer.Problem{importer.HistoryInNoState(diag.Pos{}, "history", n.id)}, at, "")
	case in.holdsNodes(i, n, first, "history"): // reported
	default:
		n.what, n.kind = isState, kind
	}
}

func isEllipse(n *node) bool {
	s := strings.ToLower(n.look.shape)
	return s == "ellipse" || s == "circle" || strings.Contains(strings.ToLower(n.look.config), "ellipse")
}

// small reports whether a node is drawn no larger than a marker.
func small(n *node) bool {
	b := n.look.box
	return b != nil && b.W <= 50 && b.H <= 50
}

// plainKind recognises the pseudo-states of a plain diagram, names the
// node and returns the behaviour written in a state.
func plainKind(n *node, first, lower string) (chart.StateKind, string, string) {
	name, behaviour := importer.SplitBehaviour(n.label)
	switch {
	case lower == "[*]":
		if n.out > 0 {
			return chart.StartState, "", ""
		}
		return chart.EndState, "", ""
	case strings.EqualFold(name, "init") && n.in == 0:
		return chart.StartState, "", "" // Kingly's, whatever its shape
	}
	if isEllipse(n) {
		switch lower {
		case "init", "initial", "start", "begin":
			return chart.StartState, "", ""
		case "final", "end", "$final_state":
			return chart.EndState, "", ""
		case "":
			switch {
			case !small(n):
			case n.out > 0 && n.in == 0:
				return chart.StartState, "", ""
			case n.in > 0 && n.out == 0:
				return chart.EndState, "", ""
			}
		}
	}
	if strings.EqualFold(n.look.shape, "diamond") {
		return chart.ChoiceState, name, ""
	}
	if n.look.config != "" {
		if k := configKind(n.look.config, n.look.style, lower); k != chart.NormalState {
			return k, name, ""
		}
	}
	return chart.NormalState, name, behaviour
}

// configKind recognises the pseudo-states among yEd's GenericNode
// configurations: BPMN start and end events and gateways, the flowchart's
// start, terminator and decision.
func configKind(config string, style []string, lower string) chart.StateKind {
	var start, end, choice, terminator, event bool
	for _, w := range importer.Words(config) {
		switch w {
		case "start", "initial":
			start = true
		case "end", "final":
			end = true
		case "decision", "choice", "gateway":
			choice = true
		case "terminator":
			terminator = true
		case "event":
			event = true
		}
	}
	if event {
		for _, s := range style {
			if strings.HasPrefix(s, "com.yworks.bpmn.characteristic=") {
				switch {
				case strings.Contains(s, "_START"):
					start = true
				case strings.Contains(s, "_END"):
					end = true
				}
			}
		}
	}
	switch {
	case choice:
		return chart.ChoiceState
	case start && !end:
		return chart.StartState
	case end && !start:
		return chart.EndState
	case terminator:
		return importer.TerminatorKind(lower)
	}
	return chart.NormalState
}

// states appends the chart's states, in document order.
func (in *interp) states() {
	count := 0
	for _, n := range in.nodes {
		if n.what == isState {
			count++
		}
	}
	in.c.States = slices.Grow(in.c.States, count)
	for _, n := range in.nodes {
		if n.what != isState {
			continue
		}
		n.stateID = n.id
		st := chart.State{ID: n.id, Name: n.name, Kind: n.kind, Box: n.look.box}
		if p := parentState(n); p != nil {
			st.Parent = p.id
		}
		first, _ := firstLine(n.label)
		shown := n.name
		if shown == "" {
			shown = first
		}
		st.Pos = in.at(n.e, n.id, shown)
		st.Initial = n.kind == chart.StartState // as in plain diagrams, with a stencil too
		if in.st != nil {
			st.Initial = st.Initial || n.role == chart.RoleInitial
			in.entryActions(n, &st)
		}
		in.c.States = append(in.c.States, st)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// end resolves an edge's end to the node it stands for: an alias stands
// for its parent state.
func (in *interp) end(id string) *node {
	n := in.byID[id]
	if n != nil && n.what == isAlias {
		return in.byID[n.stateID]
	}
	return n
}

// transitions appends the chart's transitions, in document order.
func (in *interp) transitions() {
	seen := make(map[string]bool, len(in.edges))
	given := make(map[string]bool, len(in.edges))
	for _, e := range in.edges {
		given[e.id] = true
	}
	ignored := 0
	var lost []string // edges left out with a state at one end
	in.c.Transitions = slices.Grow(in.c.Transitions, len(in.edges))
	for i, e := range in.edges {
		if e.id == "" {
			e.id = in.edgeID(i, given)
		} else if seen[e.id] || in.byID[e.id] != nil {
			in.diag(in.sev(), in.at(e.e, e.id, chart.NormalizeSpace(e.label)), "The file is damaged; save it again from yEd.",
				"edge id %q is used twice; the second edge is ignored", e.id)
			continue
		}
		seen[e.id] = true
		at := in.at(e.e, e.id, chart.NormalizeSpace(e.label))
		var ends [2]*node
		for j, ref := range [2]string{e.source, e.target} {
			which := [2]string{"source", "target"}[j]
			if ref == "" {
				in.diag(diag.Error, at, "Every GraphML edge needs a source and a target; save the file again from yEd.",
					"edge %s has no %s", e.id, which)
				break
			}
			n := in.end(ref)
			if n == nil {
				in.diag(diag.Error, at, "The file is damaged, or the node was deleted by hand; save the file again from yEd.",
					"edge %s: its %s, node %q, is not in the file", e.id, which, ref)
				break
			}
			ends[j] = n
		}
		if ends[0] == nil || ends[1] == nil {
			continue
		}
		from, to := ends[0], ends[1]
		if isArrow(e.look.from) && !isArrow(e.look.to) {
			const hint = "Draw the edge from the state it leaves to the state it enters, with its arrow at its end."
			switch {
			case in.ss:
				in.diag(diag.Warning, at, hint, "the edge's arrow is at its source, but StateSmith reads an edge from its source to its target: "+
					"read as a transition from %s to %s", from.id, to.id)
			case in.st != nil:
				from, to = to, from
				in.diag(diag.Warning, at, hint, "the edge's arrow is at its source: read as a transition from %s to %s", from.id, to.id)
			default:
				from, to = to, from
				in.diag(diag.Warning, at, hint, "the edge's arrow is at its source: read as a transition from %s to %s, as drawn "+
					"(Kingly and StateSmith read it from %[2]s to %[1]s)", from.id, to.id)
			}
		}
		if from.what == isMachine || to.what == isMachine {
			in.diag(diag.Error, at, "The $STATEMACHINE group is the machine itself: draw the transition to or from a state inside it.",
				"edge %s starts or ends at the $STATEMACHINE group", e.id)
			continue
		}
		if skipped(from) || skipped(to) {
			if from.what == isState || to.what == isState {
				lost = append(lost, e.id)
			} else {
				ignored++
			}
			continue
		}
		if from.what == isBad || to.what == isBad {
			continue // the node was reported
		}
		if from.what == isContinue || to.what == isContinue {
			in.diag(diag.Error, at, "Remove the edge: a $HC only marks the state it is drawn in.",
				"edge %s starts or ends at a $HC, which StateSmith allows no transition; ignored", e.id)
			continue
		}
		if in.st != nil {
			in.stencilTransition(e, from, to, at)
		} else {
			in.plainTransition(e, from, to, at)
		}
	}
	if ignored > 0 {
		in.diag(diag.Note, diag.Pos{File: in.file}, "", "%s to or from notes, or from nodes outside the $STATEMACHINE group, %s not part of the chart",
			importer.Plural(ignored, "edge"), importer.IsAre(ignored))
	}
	if len(lost) > 0 {
		in.diag(diag.Warning, diag.Pos{File: in.file}, "Draw the transition's states inside the $STATEMACHINE group, and out of $NOTES.",
			"%s between a state and a note or a node outside the $STATEMACHINE group %s not part of the chart, as in StateSmith: %s",
			importer.Plural(len(lost), "edge"), importer.IsAre(len(lost)), strings.Join(lost, ", "))
	}
}

func skipped(n *node) bool { return n.what == isNotes || n.what == isOutside }

func isArrow(s string) bool { return s != "" && s != "none" }

// edgeID makes an ID for the i-th edge, which has none, unlike the
// nodes and the edges given one.
func (in *interp) edgeID(i int, given map[string]bool) string {
	id := "edge" + strconv.Itoa(i+1)
	for in.byID[id] != nil || given[id] {
		id += "'"
	}
	return id
}

// plainTransition reads an edge of a plain diagram: its label is a UML
// label, "event [guard] / action", after an optional order ("2. "), or one
// made for StateSmith, read with its grammar.
func (in *interp) plainTransition(e *edge, from, to *node, at diag.Pos) {
	if from.what != isState || to.what != isState {
		in.diag(diag.Warning, at, "Draw a transition from a state to a state.", "edge %s does not join two states; ignored", e.id)
		return
	}
	t := chart.Transition{ID: e.id, From: from.stateID, Label: e.label, Pos: at,
		Target: chart.Target{Kind: chart.ToState, State: to.stateID}}
	if in.ss {
		in.stateSmithTransitions(t, from)
		return
	}
	parts := []string{e.label}
	if p, ok := kinglyParts(e.label); ok {
		parts = p
	}
	for k, text := range parts {
		u := t
		if len(parts) > 1 {
			u.Label = strings.TrimSpace(text)
			if k > 0 {
				u.ID = e.id + "#" + strconv.Itoa(k+1)
			}
		}
		key := importer.Unordered
		if order, rest, ok := cutOrder(text); ok {
			o, err := strconv.ParseFloat(order, 64)
			if err != nil || o > 1<<30 {
				in.diag(diag.Error, at, "Number the transitions leaving a state 1, 2, 3... in the order they are tried.",
					"edge %s: order %q is too large", e.id, order)
				continue
			}
			key, text = o, rest
		}
		u.Event, u.Guard, u.Action = chart.ParseLabel(text)
		u.Test = u.Event
		if u.Test == "" {
			u.Test = u.Guard
		}
		if topLevelComma(u.Guard) {
			in.diag(diag.Warning, at, "Name the condition that holds when all of them do, or draw a choice per condition.",
				"edge %s: guard %q is read as one condition of that name; Kingly reads a guard list as all of its conditions", e.id, u.Guard)
		}
		if u.Event == "" && strings.EqualFold(u.Guard, "else") {
			if !math.IsNaN(key) {
				in.diag(diag.Error, at, "An [else] transition has no order: it is tried after all the others.",
					"edge %s: [else] with an order", e.id)
				continue
			}
			key = importer.Else // UML's [else]: after the others
		}
		in.addTransition(u, key)
	}
}

// topLevelComma reports whether a guard holds a comma outside parentheses
// and brackets: Kingly's list of conditions, "[ready, loaded]".
func topLevelComma(guard string) bool {
	depth := 0
	for i := 0; i < len(guard); i++ {
		switch guard[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// kinglyParts splits a label that Kingly reads as several transitions,
// "| ev1 [g1] / a1 | ev2 / a2", at its bars outside brackets; ok is false
// for a label that does not start with a bar.
func kinglyParts(label string) (parts []string, ok bool) {
	label = strings.TrimSpace(label)
	if !strings.HasPrefix(label, "|") {
		return nil, false
	}
	depth, start := 0, 1
	for i := 1; i < len(label); i++ {
		switch label[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '|':
			if depth <= 0 {
				parts = append(parts, label[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, label[start:]), true
}

// cutOrder cuts StateSmith's order prefix off a label: "2. INCREASE" gives
// "2", "INCREASE"; "1.5. EV" gives "1.5", "EV". A number without the dot
// after it ("1.5s elapsed", "3 hits") is not an order.
func cutOrder(s string) (order, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i == len(s) || s[i] != '.' {
		return "", "", false
	}
	j := i + 1
	if j < len(s) && s[j] >= '0' && s[j] <= '9' {
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == len(s) || s[k] != '.' {
			return "", "", false // a decimal number
		}
		return s[:k], s[k+1:], true
	}
	return s[:i], s[j:], true
}

// stencilTransition reads an edge of a drawing made with a stencil.
func (in *interp) stencilTransition(e *edge, from, to *node, at diag.Pos) {
	roleVal, _, _, _ := in.prop(e.values, "edge", in.opt.RoleKey, e.e)
	roleVal = strings.TrimSpace(roleVal)
	switch role := in.st.Role(roleVal); {
	case roleVal == "":
		in.diag(diag.Warning, at, fmt.Sprintf("Set the edge's %q property to %q.", in.opt.RoleKey, in.st.Masters.Transition),
			"edge without a %q property: not a transition; ignored", in.opt.RoleKey)
		return
	case role == chart.RoleNone:
		return // reported with the roles
	case role != chart.RoleTransition:
		in.diag(diag.Warning, at, fmt.Sprintf("Set the edge's %q property to %q.", in.opt.RoleKey, in.st.Masters.Transition),
			"edge with role %q, which is for nodes; ignored", roleVal)
		return
	}
	t := chart.Transition{ID: e.id, Label: e.label, Pos: at}
	switch from.what {
	case isState:
		t.From = from.stateID
	case isAnyState:
		t.AnyState = true
	default:
		in.diag(diag.Error, at, "Start transitions at a state, or at a message handler for those that apply in any state.",
			"the transition starts at %s, which is not a state", describe(from))
		return
	}
	switch to.what {
	case isState:
		t.Target = chart.Target{Kind: chart.ToState, State: to.stateID}
	case isAnyState:
		in.diag(diag.Error, at, "A message handler only starts transitions.", "the transition ends at the message handler %s", describe(to))
		return
	default:
		t.Target = chart.Target{Kind: chart.ToFinal}
	}
	if !in.stencilProps(e, &t, from) {
		return
	}
	key := importer.Unordered
	if t.Order != 0 {
		key = float64(t.Order)
	}
	in.addTransition(t, key)
}

func describe(n *node) string {
	first, _ := firstLine(n.label)
	if first != "" {
		return fmt.Sprintf("node %s %q", n.id, importer.Shorten(chart.NormalizeSpace(first), 40))
	}
	return "node " + n.id
}

// stencilProps reads a transition's test, value, order and stack
// operation from its custom properties, as chart/visio reads Shape Data;
// it reports whether they are valid. The transition of a history or a
// start (from) is taken without a test
// ([chart.StateKind.UntestedTransition]): a test set on it (the stencil's
// transition master may preset one) is ignored, with a warning
// ([importer.IgnoredTest]), and the edge kept.
func (in *interp) stencilProps(e *edge, t *chart.Transition, from *node) bool {
	st, names := in.st, in.props
	valid := true
	get := func(name string) (string, diag.Pos, bool) {
		v, line, col, ok := in.prop(e.values, "edge", name, e.e)
		at := t.Pos
		at.Line, at.Col = line, col
		return strings.TrimSpace(v), at, ok
	}
	test, testAt, hasTest := get(names.Test)
	if t.Pos.ShapeName == "" {
		t.Pos.ShapeName, testAt.ShapeName = test, test
	}
	bad := func(at diag.Pos, hint, format string, args ...any) {
		in.diag(diag.Error, at, hint, format, args...)
		valid = false
	}
	pickTest := "Pick one of " + strings.Join(importer.TestNames(in.st), ", ") + " as the edge's " + strconv.Quote(names.Test) + " property."
	var tt chart.Test
	switch {
	case from.what == isState && from.kind.UntestedTransition():
		if test != "" {
			in.report([]importer.Problem{importer.IgnoredTest(testAt, from.kind, describe(from), test, names.Test, "properties (Edit > Properties > Data)")}, diag.Pos{}, "")
		}
	case !hasTest:
		bad(t.Pos, pickTest, "transition without a %q property", names.Test)
	case test == "":
		bad(testAt, pickTest, "transition without a test")
	default:
		t.Test = test
		var found bool
		if tt, found = st.Test(test); !found {
			bad(testAt, pickTest, "test %q is not in stencil %q", test, st.Name)
		}
	}
	if v, at, ok := get(names.Value); ok && v != "" {
		t.Value = v
		if len(tt.Values) > 0 && !contains(tt.Values, v) {
			bad(at, "Pick one of "+strings.Join(tt.Values, ", ")+".", "test %q does not take value %q", tt.Name, v)
		}
	}
	if v, at, ok := get(names.Order); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1<<30 {
			bad(at, "Number the transitions leaving a state 1, 2, 3... in the order their tests are tried (0 for document order).",
				"order %q is not a whole number", v)
			n = 0
		}
		t.Order = n // 0: document order
	}
	if v, at, ok := get(names.Stack); ok {
		switch strings.ToLower(v) {
		case "", chart.StackNone:
		case chart.StackPush:
			t.Push = true
		case chart.StackReturn:
			if t.Target.Kind == chart.ToState {
				bad(at, "End a returning transition at a node without a role (an end marker): it goes to the state on top of the stack.",
					"a returning transition ends at state %s", t.Target.State)
			}
			t.Target = chart.Target{Kind: chart.ToReturn}
		default:
			bad(at, "Pick one of none, push, return.", "stack operation %q is not one of none, push, return", v)
		}
	}
	return valid
}

// layout moves the boxes so that none has a negative coordinate: yEd's
// coordinates may be negative, a page's are not.
func (in *interp) layout() {
	minX, minY := 0.0, 0.0
	for _, s := range in.c.States {
		if s.Box != nil {
			minX, minY = min(minX, s.Box.X), min(minY, s.Box.Y)
		}
	}
	if minX == 0 && minY == 0 {
		return
	}
	for i := range in.c.States {
		if b := in.c.States[i].Box; b != nil {
			b.X -= minX
			b.Y -= minY
		}
	}
}

// shownName is how a node is named in positions: the first line of its
// text, white space normalised.
func shownName(label string) string {
	first, _ := firstLine(label)
	return chart.NormalizeSpace(first)
}

// Custom properties of the graph itself (yEd's Edit > Graph Properties,
// with keys for "graph") that say how the machine runs: the chart's
// Chain, ChainLimit and Fallback.
const (
	PropChain      = "fsmforgeChain"      // true, 1 or yes; false, 0, no or nothing
	PropChainLimit = "fsmforgeChainLimit" // a whole number from 0 to 65535, 0 for the number of states
	PropFallback   = "fsmforgeFallback"   // the name of a state, nothing for the initial state
)

// chain reads PropChain, PropChainLimit and PropFallback of a top-level
// graph: its own values, or else their keys' defaults. A fallback that
// names no state is package compile's to report.
func (in *interp) chain(g *elem) {
	vals, _ := in.values(g, "graph")
	get := func(name string) (string, diag.Pos, bool) {
		for _, v := range vals {
			if v.k.name == name {
				return strings.TrimSpace(v.text), diag.Pos{File: in.file, Line: v.line, Col: v.col}, true
			}
		}
		for _, k := range in.keyList {
			if k.name == name && k.hasDef && (k.domain == "graph" || k.domain == "all") {
				return strings.TrimSpace(k.def), diag.Pos{File: in.file, Line: k.line, Col: k.col}, true
			}
		}
		return "", diag.Pos{}, false
	}
	if v, at, ok := get(PropChain); ok {
		if on, ok := importer.ParseFlag(v); ok {
			in.c.Chain = on
		} else {
			in.diag(diag.Warning, at, "Write true or false.", "%s %q is not true or false; ignored", PropChain, importer.Shorten(v, 20))
		}
	}
	if v, at, ok := get(PropChainLimit); ok && v != "" {
		if n, ok := importer.ParseChainLimit(v); ok {
			in.c.ChainLimit = n
		} else {
			in.diag(diag.Warning, at, "Write a whole number from 1 to 65535, or nothing for the number of states.",
				"%s %q is not a whole number from 0 to 65535; ignored", PropChainLimit, importer.Shorten(v, 20))
		}
	}
	if v, at, ok := get(PropFallback); ok {
		if v = chart.NormalizeSpace(v); v != "" {
			in.c.Fallback, in.c.FallbackPos = v, at
		}
	}
}
