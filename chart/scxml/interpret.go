package scxml

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// interp holds the state of one reading of a document into a chart.
type interp struct {
	doc     *document
	opt     Options
	st      *chart.Stencil // nil for a plain state machine
	c       *chart.Chart
	recs    []*srec          // state, parallel, final and history elements, in document order
	bySID   map[string]*srec // by SCXML id
	used    map[string]bool  // chart IDs of states and transitions
	unnamed map[string]int   // elements without id so far, by name
	trans   []tnode          // transition elements, in document order

	rootInitial *srec                // the state the root's initial attribute names
	extra       []*srec              // states with ff:initial="true"
	noInitial   bool                 // ff:initial="none" on the root
	exact       map[int]bool         // transitions whose event ff:event names exactly
	handlers    []statesmith.Handler // transitions without a target, which stop their event
	handlerAt   []int                // for each, how many transitions the chart had before it
}

// srec is an element that is, or stands in, a state: <state>, <parallel>,
// <final>, <history>.
type srec struct {
	n        *node
	parent   *srec
	kids     []*srec // child states, parallels and finals (not histories)
	sid      string  // SCXML id
	id       string  // chart ID
	name     string
	kind     chart.StateKind
	any      bool // <state ff:kind="anyState">: holds any-state transitions
	implicit bool // <final ff:implicit="true">: the final state, not a chart state
	history  bool
	initial  *srec // a compound's initial state (a descendant)
	initNode *node // a compound's <initial> element
	entry    []chart.Action
	geometry []float64 // qt:editorinfo geometry: x;y of the position, x;y;w;h of the rectangle
	scene    []float64 // qt:editorinfo scenegeometry
	ntrans   int       // its transition elements so far
}

// tnode is a transition element and the state element it is in.
type tnode struct {
	n     *node
	owner *srec
	k     int // its position among the owner's transitions, from 1
}

// chartState reports whether r becomes a state of the chart.
func (r *srec) chartState() bool { return !r.history && !r.any && !r.implicit }

// what names an element for messages: `state "walkLeft"`.
func (r *srec) what() string {
	w := r.n.local
	if r.any {
		w = "any-state element"
	}
	if r.sid != "" {
		w += " " + strconv.Quote(r.sid)
	}
	return w
}

// interpret reads a chart from a document; see Read.
func interpret(doc *document, opt Options) (*chart.Chart, error) {
	in := &interp{
		doc:     doc,
		opt:     opt,
		st:      opt.Stencil,
		bySID:   make(map[string]*srec),
		used:    make(map[string]bool),
		unnamed: make(map[string]int),
	}
	name, _ := doc.root.attr("", "name")
	in.c = &chart.Chart{Name: chartName(doc.file, name), File: doc.file, Stencil: opt.Stencil}
	if in.root() {
		in.collect(doc.root, nil)
		in.initials()
		in.states()
		in.transitions()
		in.stopped()
		in.descriptors()
		chart.Flatten(in.c, in.opt.MaxTransitions)
		in.markInitial()
		in.sortEntries()
	}
	if in.c.States == nil {
		in.c.States = []chart.State{}
	}
	if in.c.Transitions == nil {
		in.c.Transitions = []chart.Transition{}
	}
	slices.SortStableFunc(in.c.Diagnostics, func(a, b chart.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return in.c, in.c.Diagnostics.Err()
}

func (in *interp) diag(sev chart.Severity, at chart.Pos, err error, hint, format string, args ...any) {
	in.c.Diagnostics = append(in.c.Diagnostics, chart.Diagnostic{
		Pos: at, Severity: sev, Message: "scxml: " + fmt.Sprintf(format, args...), Hint: hint, Err: err,
	})
}

// pos is the position of element n, in state r (or nil).
func (in *interp) pos(n *node, r *srec) chart.Pos {
	p := chart.Pos{File: in.doc.file, Line: n.line, Col: n.col}
	if r != nil {
		p.Shape = r.id
		if r.name != r.id {
			p.ShapeName = r.name
		}
	}
	return p
}

// tag renders an element's name as the file writes it: "<send>", "<cs:var>".
func (in *interp) tag(n *node) string {
	if n.space == in.doc.ns {
		return "<" + n.local + ">"
	}
	if p, ok := in.doc.prefixes[n.space]; ok && p != "" {
		return "<" + p + ":" + n.local + ">"
	}
	if n.space == "" {
		return "<" + n.local + ">"
	}
	return "<{" + n.space + "}" + n.local + ">"
}

// leniency is the severity of what Options.Lenient forgives.
func (in *interp) leniency() chart.Severity {
	if in.opt.Lenient {
		return chart.Warning
	}
	return chart.Error
}

const lenientHint = "remove it, or read the file leniently to leave it out (ReadOptions.Lenient; -lenient on the command line)"

// root reads the root element's attributes. It returns false when the
// file was made with another stencil.
func (in *interp) root() bool {
	root := in.doc.root
	at := in.pos(root, nil)
	if in.doc.ns == "" {
		in.diag(chart.Warning, at, nil, `add xmlns="`+SCXMLNamespace+`" to the <scxml> element`,
			"the root element <scxml> declares no namespace; its elements are read as SCXML's")
	}
	in.attrs(root, in.pos(root, nil), []string{"version", "name", "initial", "datamodel", "binding"}, []string{attrStencil, attrVersion, attrInitial, attrChain, attrChainLimit})
	in.chain(root, at)
	if v, ok := root.attr("", "version"); ok && v != "1.0" {
		in.diag(chart.Warning, at, nil, "", "SCXML version %q: the reader knows version 1.0", v)
	}
	if v, ok := root.attr("", "datamodel"); ok && v != "" && v != "null" {
		in.diag(chart.Warning, at, ErrUnsupported, "", "data model %q: a chart has no data; conditions are read as the names of tests, not evaluated", v)
	}
	name, named := root.attr(Namespace, attrStencil)
	version, _ := root.attr(Namespace, attrVersion)
	switch {
	case in.st == nil && named:
		in.diag(chart.Note, at, nil, "read it with its stencil to check its tests and entry actions",
			"the chart was made with stencil %q; read without it, as a plain state machine", name)
	case in.st == nil:
	case !named:
		in.diag(chart.Warning, at, nil, fmt.Sprintf("add ff:stencil=%q to the <scxml> element", in.st.Name),
			"the file does not name its stencil; read as made with stencil %q", in.st.Name)
	case name != in.st.Name:
		in.diag(chart.Error, at, nil, "read it with the stencil it was made with, or without a stencil, as a plain state machine",
			"the chart was made with stencil %q, not %q", name, in.st.Name)
		return false
	case version != in.st.Version:
		in.diag(chart.Warning, at, nil, "update the file's ff:stencilVersion after checking it against the stencil, or use the stencil it was made with",
			"the chart was made with version %s of stencil %q; this is version %s", versionOf(version), name, versionOf(in.st.Version))
	}
	if v, ok := root.attr(Namespace, attrInitial); ok {
		if v == initialNone {
			in.noInitial = true
		} else {
			in.diag(chart.Error, at, ErrUnsupported, `on <scxml>, ff:initial can only be "none"`, "ff:initial %q on <scxml>", v)
		}
	}
	return true
}

func versionOf(v string) string {
	if v == "" {
		return "(unnumbered)"
	}
	return strconv.Quote(v)
}

// attrs reports the attributes of an element that SCXML (plain, the
// unqualified ones) or fsmforge (ff) does not have there: a warning for
// SCXML's, an error for fsmforge's, whose data would be lost.
func (in *interp) attrs(n *node, at chart.Pos, plain, ff []string) {
	for _, a := range n.attrs {
		switch a.Name.Space {
		case "":
			if a.Name.Local != "xmlns" && !slices.Contains(plain, a.Name.Local) {
				in.diag(chart.Warning, at, ErrUnsupported, "", "%s has no attribute %q; ignored", in.tag(n), a.Name.Local)
			}
		case Namespace:
			if !slices.Contains(ff, a.Name.Local) {
				hint := "fsmforge's attributes here are ff:" + strings.Join(ff, ", ff:")
				if len(ff) == 0 {
					hint = "fsmforge has no attributes on " + in.tag(n)
				}
				in.diag(chart.Error, at, ErrUnsupported, hint, "%s has no attribute ff:%s", in.tag(n), a.Name.Local)
			}
		}
	}
}

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

// collect reads the children of the root, or of state r, recursively.
func (in *interp) collect(n *node, r *srec) {
	for _, k := range n.kids {
		switch {
		case in.isSCXML(k, "state"), in.isSCXML(k, "parallel"), in.isSCXML(k, "final"), in.isSCXML(k, "history"):
			if r != nil && r.n.local == "final" {
				in.misplaced(k, r)
				continue
			}
			in.element(k, r)
		case isEditorInfo(k):
			if r != nil {
				in.editorInfo(k, r)
			}
		case r == nil && (in.isSCXML(k, "datamodel") || in.isSCXML(k, "script")):
			in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "%s: a chart has no data model or scripts; left out", in.tag(k))
		case r == nil:
			in.other(k, r)
		case in.isSCXML(k, "onentry"):
			in.attrs(k, in.pos(k, r), nil, nil)
			in.content(k, r, true)
		case in.isSCXML(k, "onexit"):
			in.attrs(k, in.pos(k, r), nil, nil)
			in.content(k, r, false)
		case in.isSCXML(k, "transition") && r.n.local != "final":
			r.ntrans++
			in.trans = append(in.trans, tnode{k, r, r.ntrans})
		case in.isSCXML(k, "initial") && r.n.local == "state":
			if r.initNode != nil {
				in.diag(chart.Error, in.pos(k, r), ErrUnsupported, "keep one", "%s has two <initial> elements", r.what())
				continue
			}
			r.initNode = k
		case in.isSCXML(k, "datamodel"):
			in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "<datamodel> in %s: a chart has no data model; left out", r.what())
		case in.isSCXML(k, "invoke"):
			in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "<invoke> in %s: a chart cannot invoke other machines or services; left out", r.what())
		case in.isSCXML(k, "donedata") && r.n.local == "final":
			in.diag(in.leniency(), in.pos(k, r), ErrUnsupported, lenientHint, "<donedata> in %s: a chart has no data; left out", r.what())
		default:
			in.other(k, r)
		}
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
		in.diag(chart.Error, in.pos(k, r), ErrUnsupported, "check the spelling; SCXML's elements are scxml, state, parallel, final, initial, history, transition, onentry, onexit and executable content",
			"unknown SCXML element %s", in.tag(k))
	case k.space == Namespace:
		in.diag(chart.Error, in.pos(k, r), ErrUnsupported, "fsmforge's only element is <ff:action>, in <onentry>",
			"%s cannot be here", in.tag(k))
	default:
		in.diag(chart.Warning, in.pos(k, r), ErrUnsupported, "", "%s is not SCXML; ignored", in.tag(k))
	}
}

func (in *interp) misplaced(k *node, r *srec) {
	where := "<scxml>"
	if r != nil {
		where = "<" + r.n.local + ">"
	}
	in.diag(chart.Error, in.pos(k, r), ErrUnsupported, "see the SCXML specification for where each element may be",
		"%s cannot be a child of %s", in.tag(k), where)
}

// element reads a state, parallel, final or history element in r.
func (in *interp) element(n *node, parent *srec) {
	r := &srec{n: n, parent: parent}
	r.sid, _ = n.attr("", "id")
	in.identify(r)
	in.recs = append(in.recs, r)
	if parent != nil && n.local != "history" {
		parent.kids = append(parent.kids, r)
	}
	switch n.local {
	case "state":
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
			in.diag(chart.Error, in.pos(n, r), ErrUnsupported, "ff:kind is one of start, choice, end, anyState", "unknown ff:kind %q", kind)
		}
		if r.any && parent != nil {
			in.diag(chart.Error, in.pos(n, r), ErrUnsupported, "move it to the top level, beside the states", "an any-state element cannot be inside another state")
			r.any = false
		}
	case "parallel":
		in.attrs(n, in.pos(n, r), []string{"id"}, nil)
		in.diag(chart.Error, in.pos(n, r), ErrUnsupported,
			"a chart is in one state at a time: draw the regions as machines of their own, or as one machine of their combined states",
			"<parallel> %q: parallel states cannot be expressed in a chart; read as a state entering its first child", r.sid)
	case "final":
		in.attrs(n, in.pos(n, r), []string{"id"}, []string{attrID, attrName, attrImplicit, attrInitial})
		r.kind = chart.EndState
		if v, _ := n.attr(Namespace, attrImplicit); v == valueTrue {
			r.implicit = true
		}
		if parent != nil && !r.implicit {
			in.diag(in.leniency(), in.pos(n, r), ErrUnsupported, "draw the final state at the top level, or "+lenientHint,
				"<final> %q is inside %s: in SCXML it completes %q (event done.state.%s), in a chart it ends the machine", r.sid, parent.what(), parent.sid, parent.sid)
		}
	case "history":
		r.history = true
		in.attrs(n, in.pos(n, r), []string{"id", "type"}, nil)
		in.diag(chart.Error, in.pos(n, r), ErrUnsupported, "a chart keeps no history: draw transitions to the states themselves",
			"<history> %q: history states cannot be expressed in a chart; transitions into it are left out", r.sid)
		return // its contents are its default transition
	}
	in.collect(n, r)
	if r.any && len(r.kids) > 0 {
		in.diag(chart.Error, in.pos(n, r), ErrUnsupported, "move the states out of it", "an any-state element cannot hold states")
		r.any = false
	}
}

// content reads the children of <onentry> (entry true), <onexit>, a
// transition or an initial transition of state r: fsmforge's entry
// actions and executable content.
func (in *interp) content(n *node, r *srec, entry bool) {
	where := in.tag(n)
	if r != nil {
		where += " of " + r.what()
	}
	for _, k := range n.kids {
		switch {
		case isEditorInfo(k):
		case k.space == Namespace && k.local == elemAction && entry:
			in.action(k, r)
		case k.space == Namespace && k.local == elemAction:
			in.diag(chart.Error, in.pos(k, r), ErrUnsupported, "move it to the state's <onentry>",
				"<ff:action> in %s: a chart has entry actions only", where)
		case k.space == Namespace:
			in.other(k, r)
		case k.space == in.doc.ns && !executable[k.local]:
			in.diag(chart.Error, in.pos(k, r), ErrUnsupported, "SCXML allows executable content here", "%s cannot be in %s", in.tag(k), where)
		default:
			in.diag(in.leniency(), in.pos(k, r), ErrUnsupported,
				"a chart's only actions are entry actions, <ff:action property=\"...\" value=\"...\"/> in <onentry>: "+lenientHint,
				"%s in %s: executable content cannot be expressed in a chart; left out", in.tag(k), where)
		}
	}
}

// action reads an <ff:action> of state r.
func (in *interp) action(n *node, r *srec) {
	at := in.pos(n, r)
	in.attrs(n, in.pos(n, r), []string{attrProperty, attrValue}, nil)
	prop, _ := n.attr("", attrProperty)
	value, _ := n.attr("", attrValue)
	prop, value = strings.TrimSpace(prop), strings.TrimSpace(value)
	switch {
	case r == nil:
		in.diag(chart.Error, at, ErrUnsupported, "only states have entry actions", "an entry action outside a state")
		return
	case !r.chartState():
		in.diag(chart.Error, at, ErrUnsupported, "only states have entry actions", "an entry action of %s", r.what())
		return
	case prop == "":
		in.diag(chart.Error, at, ErrUnsupported, `write <ff:action property="..." value="..."/>`, "<ff:action> without a property")
		return
	case value == "":
		in.diag(chart.Warning, at, nil, "pick a value, or remove the action", "entry action %s has no value; ignored", prop)
		return
	}
	if in.st != nil {
		p, ok := in.st.Action(prop)
		if !ok {
			names := make([]string, len(in.st.Actions))
			for i, a := range in.st.Actions {
				names[i] = a.Name
			}
			hint := "stencil " + strconv.Quote(in.st.Name) + " has no action properties"
			if len(names) > 0 {
				hint = "the stencil's action properties are " + strings.Join(names, ", ")
			}
			in.diag(chart.Error, at, nil, hint, "%s: entry-action property %q is not in stencil %q", r.what(), prop, in.st.Name)
			return
		}
		if !slices.Contains(p.Values, value) {
			in.diag(chart.Error, at, nil, "pick one of "+strings.Join(p.Values, ", "),
				"%s: %s value %q is not in the drop-list of stencil %q", r.what(), prop, value, in.st.Name)
			return
		}
	}
	r.entry = append(r.entry, chart.Action{Property: prop, Value: value, Pos: at})
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
				in.diag(chart.Warning, in.pos(n, r), nil, "move the state in Qt Creator to rewrite it",
					"qt:editorinfo %s %q is not %d numbers; ignored", key, v, want)
				return nil
			}
			out = append(out, x)
		}
		if len(out) != want {
			in.diag(chart.Warning, in.pos(n, r), nil, "move the state in Qt Creator to rewrite it",
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
func (in *interp) identify(r *srec) {
	if r.sid != "" {
		if o, dup := in.bySID[r.sid]; dup {
			in.diag(chart.Error, in.pos(r.n, nil), ErrUnsupported, "give every state its own id",
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
	default:
		in.unnamed[r.n.local]++
		id = r.n.local + "#" + strconv.Itoa(in.unnamed[r.n.local])
	}
	if in.used[id] {
		if explicit {
			in.diag(chart.Error, in.pos(r.n, nil), ErrUnsupported, "give every state its own ff:id", "ff:id %q is also the ID of another state", id)
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
		in.diag(chart.Error, in.pos(n, r), ErrUnsupported, "check the spelling of the id", "%s %q is not the id of a state", what, sid)
		return nil, false
	case t.history:
		return nil, false // reported with the history
	case t.any:
		in.diag(chart.Error, in.pos(n, r), ErrUnsupported, "an any-state element only holds transitions that apply in every state",
			"%s %q is the any-state element", what, sid)
		return nil, false
	}
	return t, true
}

// initials finds the state the machine starts in, and each compound's
// initial state.
func (in *interp) initials() {
	root := in.doc.root
	if v, ok := root.attr("", "initial"); ok && !in.noInitial {
		ids := strings.Fields(v)
		if len(ids) > 1 {
			in.diag(chart.Error, in.pos(root, nil), ErrUnsupported, "a chart starts in one state: name one",
				"initial %q names %d states: they can only be the regions of a parallel state", v, len(ids))
		}
		if len(ids) > 0 {
			if t, ok := in.resolve(root, nil, "initial state", ids[0]); ok && t.implicit {
				in.diag(chart.Error, in.pos(root, nil), ErrUnsupported, "name the state the machine starts in", "the initial state %q is the final state", ids[0])
			} else if ok {
				in.rootInitial = t
			}
		}
	} else if !in.noInitial {
		for _, r := range in.recs {
			if r.parent == nil && r.chartState() {
				in.rootInitial = r
				break
			}
		}
	}
	for _, r := range in.recs {
		if v, ok := r.n.attr(Namespace, attrInitial); ok {
			switch {
			case v != valueTrue:
				in.diag(chart.Error, in.pos(r.n, r), ErrUnsupported, `ff:initial is "true" or absent`, "ff:initial %q", v)
			case r.parent != nil || !r.chartState():
				in.diag(chart.Warning, in.pos(r.n, r), nil, "", "ff:initial on %s, which is not a state at the top level; ignored", r.what())
			default:
				in.extra = append(in.extra, r)
			}
		}
		if r.history || len(r.kids) == 0 {
			if v, ok := r.n.attr("", "initial"); ok && !r.history {
				in.diag(chart.Warning, in.pos(r.n, r), nil, "", "initial %q on %s, which has no states inside; ignored", v, r.what())
			}
			if r.initNode != nil {
				in.diag(chart.Warning, in.pos(r.initNode, r), nil, "", "<initial> in %s, which has no states inside; ignored", r.what())
			}
			continue
		}
		in.compoundInitial(r)
	}
}

// compoundInitial finds the initial state of compound r.
func (in *interp) compoundInitial(r *srec) {
	v, hasAttr := r.n.attr("", "initial")
	at := r.n
	if r.initNode != nil {
		if hasAttr {
			in.diag(chart.Error, in.pos(r.initNode, r), ErrUnsupported, "keep one of them", "%s has both an initial attribute and an <initial> element", r.what())
		}
		in.attrs(r.initNode, in.pos(r.initNode, r), []string{"id"}, nil)
		at = r.initNode
		hasAttr, v = false, ""
		var tr *node
		for _, k := range r.initNode.kids {
			switch {
			case isEditorInfo(k):
			case in.isSCXML(k, "transition") && tr == nil:
				tr = k
			default:
				in.other(k, r)
			}
		}
		if tr == nil {
			in.diag(chart.Error, in.pos(r.initNode, r), ErrUnsupported, `write <transition target="..."/> in it`, "<initial> of %s has no transition", r.what())
		} else {
			in.attrs(tr, in.pos(tr, r), []string{"target", "type"}, nil)
			in.content(tr, r, false)
			v, _ = tr.attr("", "target")
			hasAttr, at = true, tr
		}
	}
	if hasAttr {
		ids := strings.Fields(v)
		if len(ids) != 1 {
			in.diag(chart.Error, in.pos(at, r), ErrUnsupported, "a state is entered in one child: name one",
				"the initial state of %s is %q: it names %d states", r.what(), v, len(ids))
		}
		if len(ids) > 0 {
			if t, ok := in.resolve(at, r, "initial state", ids[0]); ok {
				if t.inside(r) && t.chartState() {
					r.initial = t
				} else {
					in.diag(chart.Error, in.pos(at, r), ErrUnsupported, "name one of the states inside it",
						"the initial state %q of %s is not inside it", ids[0], r.what())
				}
			}
		}
	}
	if r.initial == nil {
		for _, k := range r.kids {
			if k.chartState() {
				r.initial = k
				break
			}
		}
	}
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

// leaf is the state entering r enters: r, or its initial state's leaf.
func (r *srec) leaf() *srec {
	for r != nil && r.initial != nil {
		r = r.initial
	}
	return r
}

// states adds the chart's states, in document order, compounds before
// their children.
func (in *interp) states() {
	in.c.States = slices.Grow(in.c.States, len(in.recs))
	in.c.Transitions = slices.Grow(in.c.Transitions, len(in.trans))
	for _, r := range in.recs {
		if !r.chartState() {
			continue // its entry actions were reported
		}
		s := chart.State{ID: r.id, Name: r.name, Kind: r.kind, Box: r.box(), Pos: in.pos(r.n, r)}
		if r.parent != nil {
			s.Parent = r.parent.id
			s.Initial = r.parent.initial == r
		}
		if len(r.kids) > 0 && s.Kind != chart.NormalState {
			in.diag(chart.Error, s.Pos, ErrUnsupported, "remove ff:kind, or the states inside it", "a %s pseudo-state cannot hold states", s.Kind)
			s.Kind = chart.NormalState
		}
		s.Entry = r.entry
		in.c.States = append(in.c.States, s)
		// A compound's initial state deeper than its children: a start
		// pseudo-state inside it leads there (see chart.Flatten).
		if t := r.initial; t != nil && t.parent != r {
			start := in.unique(r.id + "#initial")
			in.used[start] = true
			tid := in.unique(start + "#1")
			in.used[tid] = true
			in.c.States = append(in.c.States, chart.State{ID: start, Kind: chart.StartState, Parent: r.id, Pos: s.Pos})
			in.c.Transitions = append(in.c.Transitions, chart.Transition{
				ID: tid, From: start, Order: 1, Target: chart.Target{State: t.id}, Pos: s.Pos,
			})
		}
	}
}

// sortEntries lists the entry actions of a chart made with a stencil in
// the stencil's order, those a state took from its compounds included.
func (in *interp) sortEntries() {
	if in.st == nil {
		return
	}
	for i := range in.c.States {
		slices.SortStableFunc(in.c.States[i].Entry, func(a, b chart.Action) int {
			return cmp.Compare(in.actionIndex(a.Property), in.actionIndex(b.Property))
		})
	}
}

func (in *interp) actionIndex(prop string) int {
	for i, a := range in.st.Actions {
		if a.Name == prop {
			return i
		}
	}
	return len(in.st.Actions)
}

// markInitial marks the initial state after flattening: the leaf the
// root's initial state leads to, and the states marked ff:initial.
func (in *interp) markInitial() {
	want := map[string]bool{}
	if r := in.rootInitial.leaf(); r != nil {
		want[r.id] = true
	}
	for _, r := range in.extra {
		if l := r.leaf(); l != nil {
			want[l.id] = true
		}
	}
	for i := range in.c.States {
		in.c.States[i].Initial = want[in.c.States[i].ID]
	}
}

// chain reads ff:chain and ff:chainLimit on <scxml>: how the machine runs.
func (in *interp) chain(root *node, at chart.Pos) {
	if v, ok := root.attr(Namespace, attrChain); ok {
		switch strings.TrimSpace(v) {
		case "true", "1":
			in.c.Chain = true
		case "false", "0", "":
		default:
			in.diag(chart.Warning, at, nil, `write "true" or "false"`, "ff:chain %q is not true or false; ignored", v)
		}
	}
	if v, ok := root.attr(Namespace, attrChainLimit); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > 65535 {
			in.diag(chart.Warning, at, nil, "write a whole number from 1 to 65535, or leave it out for the number of states", "ff:chainLimit %q is not a whole number from 0 to 65535; ignored", v)
		} else {
			in.c.ChainLimit = n
		}
	}
}
