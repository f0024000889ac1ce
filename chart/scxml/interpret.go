package scxml

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

// interp holds the state of one reading of a document into a chart.
type interp struct {
	doc     *document
	opt     Options
	st      *chart.Stencil // nil for a plain state machine
	c       *chart.Chart
	recs    []*srec          // state, parallel, final and history elements, in document order
	top     []*srec          // those at the top level
	bySID   map[string]*srec // by SCXML id
	used    map[string]bool  // chart IDs of states and transitions
	unnamed map[string]int   // elements without id so far, by name
	trans   []tnode          // transition elements, in document order

	rootStart *srec // the start pseudo-state made for the root's initial attribute, if it needs one
	noInitial bool  // ff:initial="none" on the root
}

// srec is an element that is, or stands in, a state: <state>, <parallel>,
// <final>, <history>, and the start pseudo-state of a compound (its
// <initial> element, or one made for its initial attribute).
type srec struct {
	n        *node
	parent   *srec
	kids     []*srec // child states, parallels and finals (not histories, not the start)
	sid      string  // SCXML id
	id       string  // chart ID
	name     string
	kind     chart.StateKind
	any      bool // <state ff:kind="anyState">: holds any-state transitions
	implicit bool // <final ff:implicit="true">: the final state, not a chart state
	initial  bool // State.Initial: the machine's initial state, or its parent's
	start    *srec
	targets  []*srec // a start made for an initial attribute: the states it names
	ignored  bool    // an <initial> of a state without states inside: left out
	entry    []chart.Action
	exit     []chart.Action
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
func (r *srec) chartState() bool { return !r.any && !r.implicit && !r.ignored }

// history reports whether r is a <history>.
func (r *srec) history() bool {
	return r.kind == chart.HistoryState || r.kind == chart.DeepHistoryState
}

// untested reports whether r's transitions are taken without a test: those
// of a start pseudo-state and of a history (its default).
func (r *srec) untested() bool { return r.kind == chart.StartState || r.history() }

// what names an element for messages: `state "walkLeft"`.
func (r *srec) what() string {
	if r.n.local == "initial" && r.parent != nil {
		return "<initial> of " + r.parent.what()
	}
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
		in.sortEntries()
	}
	if in.c.States == nil {
		in.c.States = []chart.State{}
	}
	if in.c.Transitions == nil {
		in.c.Transitions = []chart.Transition{}
	}
	slices.SortStableFunc(in.c.Diagnostics, func(a, b diag.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return in.c, in.c.Diagnostics.Err()
}

func (in *interp) diag(sev diag.Severity, at diag.Pos, err error, hint, format string, args ...any) {
	in.c.Diagnostics = append(in.c.Diagnostics, diag.Diagnostic{
		Pos: at, Severity: sev, Message: "scxml: " + fmt.Sprintf(format, args...), Hint: hint, Err: err,
	})
}

// pos is the position of element n, in state r (or nil).
func (in *interp) pos(n *node, r *srec) diag.Pos {
	p := diag.Pos{File: in.doc.file, Line: n.line, Col: n.col}
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
func (in *interp) leniency() diag.Severity {
	if in.opt.Lenient {
		return diag.Warning
	}
	return diag.Error
}

const lenientHint = "remove it, or read the file leniently to leave it out (ReadOptions.Lenient; -lenient on the command line)"

// root reads the root element's attributes. It returns false when the
// file was made with another stencil.
func (in *interp) root() bool {
	root := in.doc.root
	at := in.pos(root, nil)
	if in.doc.ns == "" {
		in.diag(diag.Warning, at, nil, `add xmlns="`+SCXMLNamespace+`" to the <scxml> element`,
			"the root element <scxml> declares no namespace; its elements are read as SCXML's")
	}
	in.attrs(root, in.pos(root, nil), []string{"version", "name", "initial", "datamodel", "binding"}, []string{attrStencil, attrVersion, attrInitial, attrChain, attrChainLimit, attrStatechart, attrFallback})
	in.chain(root, at)
	in.fallback(root, at)
	in.statechart(root, at)
	if v, ok := root.attr("", "version"); ok && v != "1.0" {
		in.diag(diag.Warning, at, nil, "", "SCXML version %q: the reader knows version 1.0", v)
	}
	if v, ok := root.attr("", "datamodel"); ok && v != "" && v != "null" {
		in.diag(diag.Warning, at, ErrUnsupported, "", "data model %q: a chart has no data; conditions are read as the names of tests, not evaluated", v)
	}
	name, named := root.attr(Namespace, attrStencil)
	version, _ := root.attr(Namespace, attrVersion)
	switch {
	case in.st == nil && named:
		in.diag(diag.Note, at, nil, "read it with its stencil to check its tests and entry actions",
			"the chart was made with stencil %q; read without it, as a plain state machine", name)
	case in.st == nil:
	case !named:
		in.diag(diag.Warning, at, nil, fmt.Sprintf("add ff:stencil=%q to the <scxml> element", in.st.Name),
			"the file does not name its stencil; read as made with stencil %q", in.st.Name)
	case name != in.st.Name:
		in.diag(diag.Error, at, nil, "read it with the stencil it was made with, or without a stencil, as a plain state machine",
			"the chart was made with stencil %q, not %q", name, in.st.Name)
		return false
	case version != in.st.Version:
		in.diag(diag.Warning, at, nil, "update the file's ff:stencilVersion after checking it against the stencil, or use the stencil it was made with",
			"the chart was made with version %s of stencil %q; this is version %s", versionOf(version), name, versionOf(in.st.Version))
	}
	if v, ok := root.attr(Namespace, attrInitial); ok {
		if v == initialNone {
			in.noInitial = true
		} else {
			in.diag(diag.Error, at, ErrUnsupported, `on <scxml>, ff:initial can only be "none"`, "ff:initial %q on <scxml>", v)
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
func (in *interp) attrs(n *node, at diag.Pos, plain, ff []string) {
	for _, a := range n.attrs {
		switch a.Name.Space {
		case "":
			if a.Name.Local != "xmlns" && !slices.Contains(plain, a.Name.Local) {
				in.diag(diag.Warning, at, ErrUnsupported, "", "%s has no attribute %q; ignored", in.tag(n), a.Name.Local)
			}
		case Namespace:
			if !slices.Contains(ff, a.Name.Local) {
				hint := "fsmforge's attributes here are ff:" + strings.Join(ff, ", ff:")
				if len(ff) == 0 {
					hint = "fsmforge has no attributes on " + in.tag(n)
				}
				in.diag(diag.Error, at, ErrUnsupported, hint, "%s has no attribute ff:%s", in.tag(n), a.Name.Local)
			}
		}
	}
}

// sortEntries lists the game actions among the entry actions of a chart
// made with a stencil in the stencil's order; the statechart's own
// actions (raise, send, cancel) keep their places.
func (in *interp) sortEntries() {
	if in.st == nil {
		return
	}
	byIndex := func(a, b chart.Action) int {
		return cmp.Compare(in.actionIndex(a.Property), in.actionIndex(b.Property))
	}
	for i := range in.c.States {
		entry := in.c.States[i].Entry
		if !slices.ContainsFunc(entry, func(a chart.Action) bool { return a.Kind != chart.GameAction }) {
			slices.SortStableFunc(entry, byIndex)
			continue
		}
		var game []chart.Action
		for _, a := range entry {
			if a.Kind == chart.GameAction {
				game = append(game, a)
			}
		}
		slices.SortStableFunc(game, byIndex)
		for j := range entry {
			if entry[j].Kind == chart.GameAction {
				entry[j], game = game[0], game[1:]
			}
		}
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

// statechart says whether the machine runs as SCXML says
// (Chart.Statechart): a file that declares fsmforge's namespace is
// fsmforge's chart, which says so with ff:statechart="true"; any other
// SCXML file does, and takes SCXML's macrosteps (Chart.Chain: an update
// runs until the configuration is stable).
func (in *interp) statechart(root *node, at diag.Pos) {
	if _, ff := in.doc.prefixes[Namespace]; !ff {
		in.c.Statechart, in.c.Chain = true, true
		return
	}
	if v, ok := root.attr(Namespace, attrStatechart); ok {
		switch strings.TrimSpace(v) {
		case "true", "1":
			in.c.Statechart = true
		case "false", "0", "":
		default:
			in.diag(diag.Warning, at, nil, `write "true" or "false"`, "ff:statechart %q is not true or false; ignored", v)
		}
	}
}

// fallback reads ff:fallback on <scxml>, at at: the chart's Fallback, its
// white space made single spaces as in a state's name. A name of no state
// is package compile's to report.
func (in *interp) fallback(root *node, at diag.Pos) {
	if v, ok := root.attr(Namespace, attrFallback); ok {
		if v = chart.NormalizeSpace(v); v != "" {
			in.c.Fallback, in.c.FallbackPos = v, at
		}
	}
}

// chain reads ff:chain and ff:chainLimit on <scxml>: how the machine runs.
func (in *interp) chain(root *node, at diag.Pos) {
	if v, ok := root.attr(Namespace, attrChain); ok {
		switch strings.TrimSpace(v) {
		case "true", "1":
			in.c.Chain = true
		case "false", "0", "":
		default:
			in.diag(diag.Warning, at, nil, `write "true" or "false"`, "ff:chain %q is not true or false; ignored", v)
		}
	}
	if v, ok := root.attr(Namespace, attrChainLimit); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > 65535 {
			in.diag(diag.Warning, at, nil, "write a whole number from 1 to 65535, or leave it out for the number of states", "ff:chainLimit %q is not a whole number from 0 to 65535; ignored", v)
		} else {
			in.c.ChainLimit = n
		}
	}
}
