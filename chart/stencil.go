package chart

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/fsmforge/fsmforge/diag"
)

// Stencil is the programmers' vocabulary for a family of drawings: which
// Visio masters draw states and transitions, which tests a transition may
// use, and which entry-action properties a state carries, each with the
// drop-list of values the game code implements. It is kept in a small JSON
// file next to the Visio stencil (see the package documentation for the
// format) and loaded with [LoadStencil] or [ReadStencil].
//
// A Stencil is read-only once loaded and safe to share between goroutines.
type Stencil struct {
	// Name names the stencil ("goomba"); required.
	Name string `json:"name"`

	// Version is free text, shown in messages about drawings made with
	// another version of the stencil.
	Version string `json:"version,omitempty"`

	Masters    Masters    `json:"masters"`             // the masters that draw a chart
	Properties Properties `json:"properties,omitzero"` // the Shape Data rows that carry it

	// Tests lists the tests a transition may use, in the order of the
	// transition master's drop-list.
	Tests []Test `json:"tests"`

	// Actions lists the entry-action properties of the state masters, in
	// the order a state's actions are listed and run.
	Actions []Property `json:"actions,omitempty"`

	// File is where the stencil was read from, for positions; "" for a
	// stencil built in Go.
	File string `json:"-"`
}

// Masters names the Visio masters (by universal name, NameU) whose shapes
// play a part in a chart. State and Transition are required.
type Masters struct {
	// State: a 2-D shape that is a state; its text or name property names
	// it, its action properties are its entry actions.
	State string `json:"state"`
	// Initial: a state the machine starts in (optional).
	Initial string `json:"initial,omitempty"`
	// Transition: a connector from state to state. Its start must be glued
	// to a state or a message handler; an end glued to nothing enters the
	// final state.
	Transition string `json:"transition"`
	// AnyState: a 2-D "message handler" shape (optional). Transitions that
	// start from it apply in every state.
	AnyState string `json:"anyState,omitempty"`

	// The masters of statecharts, all optional. A state master's shape
	// that holds states is a compound state too; these draw the parts of
	// a statechart as UML draws them.
	//
	// Composite: a container that is a compound state: the states drawn
	// in it are its children; its name property or its text names it
	// (Visio: in its heading), its action properties are its entry
	// actions, as a state's.
	Composite string `json:"composite,omitempty"`
	// Parallel: a container that is a parallel state: each state drawn
	// in it (a composite, or a state holding states) is a region, and
	// all of them are active together.
	Parallel string `json:"parallel,omitempty"`
	// Start: a start pseudo-state (UML's initial state, a filled
	// circle), at the top or inside a compound state: its one transition,
	// without a test, goes to the state its parent starts in. The initial
	// master marks the state the machine starts in; a start shape is how
	// a compound state the machine does not start in says where it
	// starts.
	Start string `json:"start,omitempty"`
	// History and DeepHistory: history pseudo-states (UML's "H" and
	// "H*"), drawn inside a compound state. A transition into one enters
	// what was active in the compound state when it was last left; its
	// one transition out says where to go the first time.
	History     string `json:"history,omitempty"`
	DeepHistory string `json:"deepHistory,omitempty"`
}

// Properties names the custom properties (Visio Prop rows, matched by
// universal name, then local name, then label) that carry a chart's data.
// An empty field means its default; see [Stencil.PropertyNames].
type Properties struct {
	// Name: a state's name (default "Name"); when the property is absent or
	// empty, the shape's text names the state.
	Name string `json:"name,omitempty"`
	// Test: a transition's test, one of the stencil's tests (default "Test").
	Test string `json:"test,omitempty"`
	// Value: the test's optional argument (default "Value").
	Value string `json:"value,omitempty"`
	// Order: the transition's rank among those leaving its state, an
	// integer from 1 (default "Order"); when absent, empty or 0, document
	// order.
	Order string `json:"order,omitempty"`
	// Stack: the transition's stack operation, "none", "push" or "return"
	// (default "Stack"); see StackNone.
	Stack string `json:"stack,omitempty"`
	// Final: on a transition whose end is glued to no state, says that the
	// machine ends there on purpose (default "Final"): true (1, yes) keeps
	// importers from warning that the arrow's end may have come loose.
	// Optional in the masters: a drawing without it is not warned about.
	Final string `json:"final,omitempty"`
}

// Values of a transition's stack property. An empty value means StackNone.
const (
	StackNone   = "none"   // no stack operation
	StackPush   = "push"   // push the state left, then go to the target
	StackReturn = "return" // go to the state on top of the stack; the end must not be glued
)

// Test is a test a transition may use.
type Test struct {
	Name string `json:"name"` // an entry of the transition master's drop-list
	// Message is true for a test that is a message received (the article's
	// hitByPlayer, set by receive()), false for a condition polled every
	// update.
	Message bool `json:"message,omitempty"`
	// Values, when not empty, lists the values the transition's value
	// property may take for this test; when empty, any value (or none) is
	// accepted.
	Values []string `json:"values,omitempty"`
}

// Property is an entry-action property of the state masters and the
// values of its drop-list (the Goomba's XMovement: existing, right, left,
// death).
type Property struct {
	Name   string   `json:"name"`   // the Shape Data row: "XMovement"
	Values []string `json:"values"` // its drop-list, in order
}

// Role is the part a master plays in a chart drawn with a stencil.
type Role uint8

const (
	RoleNone        Role = iota // not a master of the stencil
	RoleState                   // Masters.State
	RoleInitial                 // Masters.Initial
	RoleTransition              // Masters.Transition
	RoleAnyState                // Masters.AnyState
	RoleComposite               // Masters.Composite
	RoleParallel                // Masters.Parallel
	RoleHistory                 // Masters.History
	RoleDeepHistory             // Masters.DeepHistory
	RoleStart                   // Masters.Start
)

var roleNames = [...]string{RoleNone: "none", RoleState: "state", RoleInitial: "initial state", RoleTransition: "transition", RoleAnyState: "message handler",
	RoleComposite: "composite state", RoleParallel: "parallel state", RoleHistory: "history state", RoleDeepHistory: "deep history state",
	RoleStart: "start state"}

// IsState reports whether a shape of the master is a state of the chart,
// a pseudo-state or a container of states: every role but none, the
// transition's and the message handler's.
func (r Role) IsState() bool { return r != RoleNone && r != RoleTransition && r != RoleAnyState }

// HasActions reports whether a shape of the master carries the stencil's
// action properties (Stencil.Actions: its state's entry actions): the
// state, initial-state, composite and parallel masters' shapes do; the
// pseudo-states' (history, deep history, start), the transition's and
// the message handler's do not.
func (r Role) HasActions() bool {
	return r == RoleState || r == RoleInitial || r == RoleComposite || r == RoleParallel
}

// Kind returns the kind of state a shape of the master is: a
// ParallelState, HistoryState, DeepHistoryState or StartState for those
// masters, a NormalState for the others.
func (r Role) Kind() StateKind {
	switch r {
	case RoleParallel:
		return ParallelState
	case RoleHistory:
		return HistoryState
	case RoleDeepHistory:
		return DeepHistoryState
	case RoleStart:
		return StartState
	}
	return NormalState
}

// String returns "none", "state", "initial state", "transition",
// "message handler", "composite state", "parallel state", "history
// state", "deep history state" or "start state".
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}

// Role returns the part played by the master with the given name. Visio
// renames a master it copies into a drawing that already has one of that
// name ("State.12"); such a suffix is ignored.
func (s *Stencil) Role(master string) Role {
	if r := s.role(master); r != RoleNone {
		return r
	}
	if i := strings.LastIndexByte(master, '.'); i > 0 && isDigits(master[i+1:]) {
		return s.role(master[:i])
	}
	return RoleNone
}

func (s *Stencil) role(name string) Role {
	switch name {
	case "":
		return RoleNone
	case s.Masters.State:
		return RoleState
	case s.Masters.Initial:
		return RoleInitial
	case s.Masters.Transition:
		return RoleTransition
	case s.Masters.AnyState:
		return RoleAnyState
	case s.Masters.Composite:
		return RoleComposite
	case s.Masters.Parallel:
		return RoleParallel
	case s.Masters.History:
		return RoleHistory
	case s.Masters.DeepHistory:
		return RoleDeepHistory
	case s.Masters.Start:
		return RoleStart
	}
	return RoleNone
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Matches reports whether a drawing whose shapes use the given masters was
// made with this stencil: every master plays a part ([Stencil.Role]) and
// the state master is among them.
func (s *Stencil) Matches(masters []string) bool {
	state := false
	for _, m := range masters {
		switch s.Role(m) {
		case RoleNone:
			return false
		case RoleState:
			state = true
		}
	}
	return state
}

// Test returns the stencil's test with the given name.
func (s *Stencil) Test(name string) (Test, bool) {
	for _, t := range s.Tests {
		if t.Name == name {
			return t, true
		}
	}
	return Test{}, false
}

// Action returns the stencil's entry-action property with the given name.
func (s *Stencil) Action(name string) (Property, bool) {
	for _, p := range s.Actions {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}

// PropertyNames returns s.Properties with the defaults filled in: Name,
// Test, Value, Order, Stack, Final.
func (s *Stencil) PropertyNames() Properties {
	p := s.Properties
	def := func(f *string, d string) {
		if *f == "" {
			*f = d
		}
	}
	def(&p.Name, "Name")
	def(&p.Test, "Test")
	def(&p.Value, "Value")
	def(&p.Order, "Order")
	def(&p.Stack, "Stack")
	def(&p.Final, "Final")
	return p
}

// maxStencilSize bounds a stencil file: it is a short list written by hand.
const maxStencilSize = 16 << 20

// LoadStencil reads and checks the stencil file at path. See [ReadStencil].
func LoadStencil(path string) (*Stencil, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, diag.List{{Pos: diag.Pos{File: path}, Message: "chart: cannot read stencil: " + errText(err, path), Err: err}}
	}
	defer f.Close()
	return ReadStencil(f, path)
}

// errText is err's message without a repetition of path.
func errText(err error, path string) string {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err.Error()
	}
	return err.Error()
}

// ReadStencil reads a stencil in JSON from r and checks it; name names the
// file in positions. The error, when not nil, is a [diag.List] list whose
// positions give the line and column of each problem: malformed JSON, an
// unknown or repeated key, a value of the wrong type, an empty or repeated
// name, a value that cannot be a Visio drop-list entry (empty, with a ';' or
// surrounding spaces), a missing state or transition master; at most 100
// of each sort, with one more saying how many were left out. Files over
// 16 MiB, and files nested more than 64 levels deep (a stencil nests 4),
// are refused with an error wrapping [ErrLimit].
func ReadStencil(r io.Reader, name string) (*Stencil, error) {
	data, err := readLimited(r, maxStencilSize)
	if err != nil {
		return nil, diag.List{{Pos: diag.Pos{File: name}, Message: "chart: cannot read stencil: " + err.Error(), Err: err}}
	}
	if len(data) > maxStencilSize {
		return nil, diag.List{{Pos: diag.Pos{File: name}, Err: ErrLimit, Message: "chart: stencil file is larger than 16 MiB", Hint: "a stencil lists masters, tests and drop-lists; is this the right file?"}}
	}
	doc := newJSONDoc(data, name)
	sc := jsonScan{data: data, what: "stencil"}
	read := sc.scan(stencilSchema)
	diags := doc.diags(sc.problems, "chart: stencil: ")
	if !read {
		return nil, diags
	}
	s := new(Stencil)
	if d := doc.unmarshal(jsonSpan{-1, sc.space(0), len(data)}, "stencil", "", s); d != nil {
		return nil, append(diags, *d)
	}
	s.File = name
	diags = append(diags, doc.checkStencil(s, sc.space(0), -1)...)
	if len(diags) > 0 {
		return nil, diags
	}
	return s, nil
}

// jsonTypeName names a Go kind as JSON does.
func jsonTypeName(kind string) string {
	switch kind {
	case "slice", "array":
		return "array"
	case "struct", "map":
		return "object"
	case "bool":
		return "boolean (true or false)"
	}
	return kind
}

// Validate checks a stencil built in Go, as ReadStencil checks a file. The
// error, when not nil, is a [diag.List] list.
func (s *Stencil) Validate() error {
	if d := s.check(func(string) diag.Pos { return diag.Pos{File: s.File} }); len(d) > 0 {
		return d
	}
	return nil
}

// check validates s; at gives the position of a JSON path ("tests[2].name").
// It calls at once for each diagnostic, in their order (checkStencil
// relies on it).
func (s *Stencil) check(at func(path string) diag.Pos) diag.List {
	var diags diag.List
	bad := func(path, hint, format string, args ...any) {
		diags = append(diags, diag.Diagnostic{Pos: at(path), Message: "chart: stencil: " + fmt.Sprintf(format, args...), Hint: hint})
	}
	entry := func(path, what, v string) bool {
		switch {
		case v == "":
			bad(path, "", "%s is empty", what)
		case strings.ContainsRune(v, ';'):
			bad(path, "Visio separates drop-list entries with ';': remove it from the name", "%s %q contains ';'", what, v)
		case strings.TrimSpace(v) != v:
			bad(path, "", "%s %q has spaces around it", what, v)
		case strings.ContainsFunc(v, unicode.IsControl):
			bad(path, "", "%s %q contains a control character", what, v)
		default:
			return true
		}
		return false
	}
	if s.Name == "" {
		bad("name", `give the stencil a name: "name": "goomba"`, "name is missing")
	}

	// Masters: the state and transition masters are required; no master
	// plays two parts.
	if s.Masters.State == "" {
		bad("masters.state", `name the master whose shapes are states: "masters": {"state": "State", ...}`, "the state master is missing")
	}
	if s.Masters.Transition == "" {
		bad("masters.transition", `name the connector master whose shapes are transitions: "masters": {"transition": "Transition", ...}`, "the transition master is missing")
	}
	masters := []struct{ path, name string }{
		{"masters.state", s.Masters.State}, {"masters.initial", s.Masters.Initial},
		{"masters.transition", s.Masters.Transition}, {"masters.anyState", s.Masters.AnyState},
		{"masters.composite", s.Masters.Composite}, {"masters.parallel", s.Masters.Parallel},
		{"masters.history", s.Masters.History}, {"masters.deepHistory", s.Masters.DeepHistory},
		{"masters.start", s.Masters.Start},
	}
	for i, m := range masters {
		for _, o := range masters[:i] {
			if m.name != "" && m.name == o.name {
				bad(m.path, "each part needs its own master", "master %q is both %s and %s", m.name, o.path, m.path)
			}
		}
	}

	// Property names: distinct from each other and from the actions.
	p := s.PropertyNames()
	props := []struct{ path, name string }{
		{"properties.name", p.Name}, {"properties.test", p.Test}, {"properties.value", p.Value},
		{"properties.order", p.Order}, {"properties.stack", p.Stack}, {"properties.final", p.Final},
	}
	for i, q := range props {
		for _, o := range props[:i] {
			if q.name == o.name {
				bad(q.path, "", "property %q is both %s and %s", q.name, o.path, q.path)
			}
		}
	}

	// Tests.
	if len(s.Tests) == 0 {
		bad("tests", `list the tests the game implements: "tests": [{"name": "hitTriggerLeft"}]`, "no tests")
	}
	seen := make(map[string]bool)
	for i, t := range s.Tests {
		path := fmt.Sprintf("tests[%d]", i)
		if entry(path+".name", "test name", t.Name) {
			if seen[t.Name] {
				bad(path+".name", "", "test %q is listed twice", t.Name)
			}
			seen[t.Name] = true
		}
		s.checkValues(path+".values", "test "+strconv.Quote(t.Name), t.Values, false, entry, bad)
	}

	// Actions.
	clear(seen)
	for i, a := range s.Actions {
		path := fmt.Sprintf("actions[%d]", i)
		if entry(path+".name", "action property name", a.Name) {
			if seen[a.Name] {
				bad(path+".name", "", "action property %q is listed twice", a.Name)
			}
			seen[a.Name] = true
			for _, q := range props {
				if a.Name == q.name {
					bad(path+".name", "rename the action property, or set "+q.path+" to another name", "action property %q has the name of %s", a.Name, q.path)
				}
			}
		}
		s.checkValues(path+".values", "action property "+strconv.Quote(a.Name), a.Values, true, entry, bad)
	}
	return diags
}

func (s *Stencil) checkValues(path, owner string, values []string, required bool, entry func(path, what, v string) bool, bad func(path, hint, format string, args ...any)) {
	if required && len(values) == 0 {
		bad(path, `list the drop-list's values: "values": ["existing", "left", "right"]`, "%s has no values", owner)
	}
	seen := make(map[string]bool, len(values)) // not slices.Index: a hostile list is long
	for j, v := range values {
		vp := fmt.Sprintf("%s[%d]", path, j)
		if entry(vp, owner+" value", v) {
			if seen[v] {
				bad(vp, "", "%s lists value %q twice", owner, v)
			}
			seen[v] = true
		}
	}
}

// stencilKeys lists the keys each object of a stencil file may have, by
// path with the array indices left out.
var stencilKeys = map[string][]string{
	"":           {"name", "version", "masters", "properties", "tests", "actions"},
	"masters":    {"state", "initial", "transition", "anyState", "composite", "parallel", "history", "deepHistory", "start"},
	"properties": {"name", "test", "value", "order", "stack", "final"},
	"tests[]":    {"name", "message", "values"},
	"actions[]":  {"name", "values"},
}

// lineIndex turns byte offsets into line and column, moving forward; a
// step back starts over from the beginning.
type lineIndex struct {
	data            []byte
	off, line, from int // from: offset of the line's first byte
}

func newLineIndex(data []byte) *lineIndex { return &lineIndex{data: data, line: 1} }

func (x *lineIndex) pos(off int) (line, col int) {
	off = min(max(off, 0), len(x.data))
	if off < x.off {
		x.off, x.line, x.from = 0, 1, 0
	}
	seg := x.data[x.off:off]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		x.line += n
		x.from = x.off + bytes.LastIndexByte(seg, '\n') + 1
	}
	x.off = off
	return x.line, off - x.from + 1
}
