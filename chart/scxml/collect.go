package scxml

import (
	"math"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// isSCXML reports whether n is SCXML's element local.
func (in *interp) isSCXML(n *node, local string) bool {
	return n.space == in.doc.ns && n.local == local
}

func isEditorInfo(n *node) bool {
	return n.local == qtEditorInfo && (n.space == QtNamespace || n.space == qtRuntimeNamespace || n.space == "qt")
}

// executable lists SCXML's executable content.
var executable = map[string]bool{
	"raise": true, "if": true, "elseif": true, "else": true, "foreach": true, "log": true,
	"assign": true, "script": true, "send": true, "cancel": true, "param": true, "content": true,
}

// stateElements lists the SCXML elements that are states.
var stateElements = map[string]bool{"state": true, "parallel": true, "final": true, "history": true}

// holds reports whether an element of SCXML's local may be a child of r
// (nil for <scxml>): SCXML's content models of the state elements.
func holds(r *srec, local string) bool {
	switch {
	case r == nil:
		return local != "history"
	case r.n.local == "state":
		return true
	case r.n.local == "parallel":
		return local != "final"
	}
	return false // <final>, <history>
}

// collect reads the children of the root, or of state r, recursively.
func (in *interp) collect(n *node, r *srec) {
	for _, k := range n.kids {
		switch {
		case isEditorInfo(k):
			if r != nil {
				in.editorInfo(k, r)
			}
		case k.space == in.doc.ns && stateElements[k.local]:
			if !holds(r, k.local) {
				in.misplaced(k, r)
				continue
			}
			in.element(k, r)
		case r == nil:
			in.rootChild(k)
		case r.history():
			in.historyChild(k, r)
		default:
			in.stateChild(k, r)
		}
	}
}

// rootChild reads a child of <scxml> that is not a state.
func (in *interp) rootChild(k *node) {
	if in.isSCXML(k, "datamodel") || in.isSCXML(k, "script") {
		in.diag(in.leniency(), in.pos(k, nil), ErrUnsupported, lenientHint, "%s: a chart has no data model or scripts; left out", in.tag(k))
		return
	}
	in.other(k, nil)
}

// stateChild reads a child of state, parallel or final r that is not a
// state: its actions, transitions and <initial>.
func (in *interp) stateChild(k *node, r *srec) {
	final := r.n.local == "final"
	switch {
	case in.isSCXML(k, "onentry"), in.isSCXML(k, "onexit"):
		in.attrs(k, in.pos(k, r), nil, nil)
		if !r.chartState() {
			in.diag(diag.Error, in.pos(k, r), ErrUnsupported, "only states have entry and exit actions: remove it",
				"%s of %s, which is not a state of the chart; left out", in.tag(k), r.what())
			return
		}
		list := &r.entry
		if k.local == "onexit" {
			list = &r.exit
		}
		if acts := in.actions(k, r); *list == nil {
			*list = acts
		} else {
			*list = append(*list, acts...)
		}
	case in.isSCXML(k, "transition") && !final:
		r.ntrans++
		in.trans = append(in.trans, tnode{k, r, r.ntrans})
	case in.isSCXML(k, "initial") && r.n.local == "state":
		in.initialElement(k, r)
	case in.isSCXML(k, "datamodel"):
		in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "<datamodel> in %s: a chart has no data model; left out", r.what())
	case in.isSCXML(k, "invoke") && !final:
		in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "<invoke> in %s: a chart cannot invoke other machines or services; left out", r.what())
	case in.isSCXML(k, "donedata") && final:
		in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "<donedata> in %s: a chart has no data; left out", r.what())
	default:
		in.other(k, r)
	}
}

// historyChild reads a child of history r: its default transition.
func (in *interp) historyChild(k *node, r *srec) {
	if !in.isSCXML(k, "transition") {
		in.other(k, r)
		return
	}
	if r.ntrans > 0 {
		in.diag(diag.Error, in.pos(k, r), ErrUnsupported, "keep one: it leads to the states entered the first time",
			"%s has a second <transition>; a history has one, its default", r.what())
		return
	}
	r.ntrans++
	in.trans = append(in.trans, tnode{k, r, r.ntrans})
}

// initialElement reads the <initial> element k of state parent: a start
// pseudo-state inside it, whose transition leads to the states the
// parent enters first.
func (in *interp) initialElement(k *node, parent *srec) {
	at := in.pos(k, parent)
	if parent.start != nil {
		in.diag(diag.Error, at, ErrUnsupported, "keep one", "%s has two <initial> elements", parent.what())
		return
	}
	in.attrs(k, at, []string{"id"}, []string{attrID, attrName})
	s := &srec{n: k, parent: parent, kind: chart.StartState, initial: true}
	in.identify(s, parent.id+"#initial")
	parent.start = s
	for _, kk := range k.kids {
		switch {
		case isEditorInfo(kk):
			in.editorInfo(kk, s)
		case in.isSCXML(kk, "transition") && s.ntrans == 0:
			s.ntrans++
			in.trans = append(in.trans, tnode{kk, s, 1})
		case in.isSCXML(kk, "transition"):
			in.diag(diag.Error, in.pos(kk, s), ErrUnsupported, "keep one", "%s has a second <transition>", s.what())
		default:
			in.other(kk, s)
		}
	}
	if s.ntrans == 0 {
		in.diag(diag.Error, at, ErrUnsupported, `write <transition target="..."/> in it`, "<initial> of %s has no transition", parent.what())
	}
}

// other reports an element the reader does not know, or that cannot be
// where it is.
func (in *interp) other(k *node, r *srec) {
	switch {
	case k.space == in.doc.ns && (structural[k.local] || executable[k.local] || k.local == "datamodel" || k.local == "data" ||
		k.local == "invoke" || k.local == "donedata" || k.local == "finalize"):
		in.misplaced(k, r)
	case k.space == in.doc.ns:
		in.diag(diag.Error, in.pos(k, r), ErrUnsupported, "check the spelling; SCXML's elements are scxml, state, parallel, final, initial, history, transition, onentry, onexit and executable content",
			"unknown SCXML element %s", in.tag(k))
	case k.space == Namespace:
		in.diag(diag.Error, in.pos(k, r), ErrUnsupported, "fsmforge's only element is <ff:action>, in <onentry>, <onexit> and <transition>",
			"%s cannot be here", in.tag(k))
	default:
		in.diag(diag.Warning, in.pos(k, r), ErrUnsupported, "", "%s is not SCXML; ignored", in.tag(k))
	}
}

func (in *interp) misplaced(k *node, r *srec) {
	where := "<scxml>"
	if r != nil {
		where = "<" + r.n.local + ">"
	}
	in.diag(diag.Error, in.pos(k, r), ErrUnsupported, "see the SCXML specification for where each element may be",
		"%s cannot be a child of %s", in.tag(k), where)
}

// element reads a state, parallel, final or history element in r.
func (in *interp) element(n *node, parent *srec) {
	r := &srec{n: n, parent: parent}
	r.sid, _ = n.attr("", "id")
	in.identify(r, "")
	in.recs = append(in.recs, r)
	switch {
	case parent == nil:
		in.top = append(in.top, r)
	case n.local != "history":
		parent.kids = append(parent.kids, r)
	}
	switch n.local {
	case "state":
		in.stateElement(n, r)
	case "parallel":
		in.attrs(n, in.pos(n, r), []string{"id"}, []string{attrID, attrName, attrInitial})
		r.kind = chart.ParallelState
	case "final":
		in.attrs(n, in.pos(n, r), []string{"id"}, []string{attrID, attrName, attrImplicit, attrInitial})
		r.kind = chart.EndState
		if v, _ := n.attr(Namespace, attrImplicit); v == valueTrue {
			r.implicit = true
		}
	case "history":
		in.attrs(n, in.pos(n, r), []string{"id", "type"}, []string{attrID, attrName})
		r.kind = chart.HistoryState
		switch v, _ := n.attr("", "type"); v {
		case "", "shallow":
		case "deep":
			r.kind = chart.DeepHistoryState
		default:
			in.diag(diag.Error, in.pos(n, r), ErrUnsupported, `type is "shallow" or "deep"`, "history type %q; read as shallow", v)
		}
	}
	in.collect(n, r)
	if r.any && len(r.kids) > 0 {
		in.diag(diag.Error, in.pos(n, r), ErrUnsupported, "move the states out of it", "an any-state element cannot hold states")
		r.any = false
	}
	if r.history() && r.ntrans == 0 {
		in.diag(diag.Error, in.pos(n, r), ErrUnsupported, `write <transition target="..."/> in it, to the states entered the first time`,
			"%s has no default transition", r.what())
	}
}

// stateElement reads the attributes of <state> r.
func (in *interp) stateElement(n *node, r *srec) {
	in.attrs(n, in.pos(n, r), []string{"id", "initial"}, []string{attrID, attrName, attrKind, attrInitial})
	kind, _ := n.attr(Namespace, attrKind)
	switch kind {
	case "":
	case kindStart:
		r.kind = chart.StartState
	case kindChoice:
		r.kind = chart.ChoiceState
	case kindEnd:
		r.kind = chart.EndState
	case kindAnyState:
		r.any = true
	default:
		in.diag(diag.Error, in.pos(n, r), ErrUnsupported, "ff:kind is one of start, choice, end, anyState", "unknown ff:kind %q", kind)
	}
	if r.any && r.parent != nil {
		in.diag(diag.Error, in.pos(n, r), ErrUnsupported, "move it to the top level, beside the states", "an any-state element cannot be inside another state")
		r.any = false
	}
}

// editorInfo reads the layout Qt Creator keeps for state r.
func (in *interp) editorInfo(n *node, r *srec) {
	read := func(key string, want int) []float64 {
		v, ok := n.attr("", key)
		if !ok {
			return nil
		}
		var out []float64
		for _, f := range strings.Split(v, ";") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			x, err := strconv.ParseFloat(f, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || len(out) == want {
				in.diag(diag.Warning, in.pos(n, r), nil, "move the state in Qt Creator to rewrite it",
					"qt:editorinfo %s %q is not %d numbers; ignored", key, v, want)
				return nil
			}
			out = append(out, x)
		}
		if len(out) != want {
			in.diag(diag.Warning, in.pos(n, r), nil, "move the state in Qt Creator to rewrite it",
				"qt:editorinfo %s %q is not %d numbers; ignored", key, v, want)
			return nil
		}
		return out
	}
	r.geometry = read(qtGeometry, 6)
	r.scene = read(qtSceneGeometry, 6)
}

// box returns where r is drawn, in scene coordinates: its position plus
// those of the states around it, plus its rectangle's corner; or, when a
// state around it has no geometry, its scene geometry.
func (r *srec) box() *chart.Box {
	if g := r.geometry; g != nil {
		x, y := g[0]+g[2], g[1]+g[3]
		ok := true
		for p := r.parent; p != nil && ok; p = p.parent {
			if p.geometry == nil {
				ok = false
				break
			}
			x, y = x+p.geometry[0], y+p.geometry[1]
		}
		if ok || r.scene == nil {
			return &chart.Box{X: x, Y: y, W: g[4], H: g[5]}
		}
	}
	if s := r.scene; s != nil {
		return &chart.Box{X: s[2], Y: s[3], W: s[4], H: s[5]}
	}
	return nil
}

// identify gives state r its chart ID and name, and indexes its SCXML id.
// The ID is ff:id, else the SCXML id, else def, else the element's name
// and its count ("state#2").
func (in *interp) identify(r *srec, def string) {
	if r.sid != "" {
		if o, dup := in.bySID[r.sid]; dup {
			in.diag(diag.Error, in.pos(r.n, nil), ErrUnsupported, "give every state its own id",
				"id %q is also the id of the %s at line %d; transitions go to the first", r.sid, o.n.local, o.n.line)
		} else {
			in.bySID[r.sid] = r
		}
	}
	id, explicit := r.n.attr(Namespace, attrID)
	switch {
	case explicit && id != "":
	case r.sid != "":
		id = r.sid
	case def != "":
		id = def
	default:
		in.unnamed[r.n.local]++
		id = r.n.local + "#" + strconv.Itoa(in.unnamed[r.n.local])
	}
	if in.used[id] {
		if explicit {
			in.diag(diag.Error, in.pos(r.n, nil), ErrUnsupported, "give every state its own ff:id", "ff:id %q is also the ID of another state", id)
		}
		id = in.unique(id)
	}
	in.used[id] = true
	r.id = id
	if name, ok := r.n.attr(Namespace, attrName); ok {
		r.name = chart.NormalizeSpace(name)
	} else {
		r.name = chart.NormalizeSpace(r.sid)
	}
}

// unique returns id, or id followed by "~2", "~3"... when it is taken.
func (in *interp) unique(id string) string {
	if !in.used[id] {
		return id
	}
	for i := 2; ; i++ {
		if s := id + "~" + strconv.Itoa(i); !in.used[s] {
			return s
		}
	}
}

// resolve finds the state an initial attribute or transition target
// names, reporting what it cannot be.
func (in *interp) resolve(n *node, r *srec, what, sid string) (*srec, bool) {
	t, ok := in.bySID[sid]
	switch {
	case !ok:
		in.diag(diag.Error, in.pos(n, r), ErrUnsupported, "check the spelling of the id", "%s %q is not the id of a state", what, sid)
		return nil, false
	case t.any:
		in.diag(diag.Error, in.pos(n, r), ErrUnsupported, "an any-state element only holds transitions that apply in every state",
			"%s %q is the any-state element", what, sid)
		return nil, false
	}
	return t, true
}

// inside reports whether r is a descendant of p.
func (r *srec) inside(p *srec) bool {
	for q := r.parent; q != nil; q = q.parent {
		if q == p {
			return true
		}
	}
	return false
}
