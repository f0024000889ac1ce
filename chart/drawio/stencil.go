package drawio

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/importer"
)

// This file reads a drawing made with a stencil: its shapes carry, in
// their Edit Data, the master they stand for (AttrRole) and the stencil's
// properties.

// roleOf returns the part a cell plays: the role its fsmforge attribute
// names, unless it was drawn with another stencil.
func (in *interp) roleOf(c *cell) chart.Role {
	v, ok := c.get(in.opt.RoleKey)
	if !ok {
		return chart.RoleNone
	}
	if sn, ok := c.get(AttrStencil); ok && sn != in.st.Name {
		return chart.RoleNone
	}
	return in.st.Role(strings.TrimSpace(v))
}

// stencilVertex classifies a vertex of a drawing made with a stencil.
func (in *interp) stencilVertex(pg *page, n *node, prefix string) {
	n.role = in.roleOf(n.c)
	n.class = clNone
	switch r := n.role; {
	case r.IsState():
		n.class, n.kind = clState, r.Kind()
	case r == chart.RoleAnyState:
		n.class = clHandler
		in.unknownAttrs(n, nil, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)))
	case r == chart.RoleTransition:
		in.diag(diag.Warning, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "draw transitions with the library's transition, an edge",
			"shape %s has the role of master %q but is not an edge; ignored", n.c.id, in.st.Masters.Transition)
	}
}

// stencilState reads the state of shape n of a drawing made with a
// stencil, st holding what its shape says (ID, kind, parent, box), and
// adds it to the chart: its name (its name property, or else its label;
// the label of a pseudo-state, a history's H or H*, a start's filled
// circle, is not a name), whether it is initial (a shape of the
// initial-state master; a start, as in a plain diagram), its entry
// actions (a pseudo-state has none).
func (in *interp) stencilState(pg *page, n *node, prefix string, st chart.State) {
	c := n.c
	pseudo := n.role.Kind().IsPseudo() // a start or a history
	if v, ok := c.get(in.props.Name); ok {
		st.Name = chart.NormalizeSpace(v)
	}
	if st.Name == "" && !pseudo {
		st.Name = chart.NormalizeSpace(n.text)
	}
	st.Name = in.strs.Clone(st.Name)
	n.name = st.Name
	// A start is marked, as in a plain diagram: its compound state (or
	// the machine) starts at its transition's end.
	st.Initial = n.role == chart.RoleInitial || n.role == chart.RoleStart
	shapeName := st.Name
	if shapeName == "" {
		shapeName = chart.NormalizeSpace(n.text)
	}
	st.Pos = in.pos(pg, c, prefix, shapeName)
	if pseudo {
		in.unknownAttrs(n, in.stateAttrs[:1], st.Pos) // the name property
		in.c.States = append(in.c.States, st)
		return
	}
	st.Entry = make([]chart.Action, 0, len(in.st.Actions))
	for _, a := range in.st.Actions {
		v, ok := c.get(a.Name)
		if !ok {
			in.noteAttr(n.role, a.Name, true, st.Pos)
			continue
		}
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if !slices.Contains(a.Values, v) {
			in.diag(diag.Error, st.Pos, "pick one of "+strings.Join(a.Values, ", ")+" in the state's Edit Data",
				"state %q: %s value %q is not in the drop-list of stencil %q", st.Name, a.Name, v, in.st.Name)
			continue
		}
		st.Entry = append(st.Entry, chart.Action{Property: in.strs.Clone(a.Name), Value: in.strs.Clone(v), Pos: st.Pos})
	}
	if len(st.Entry) == 0 {
		st.Entry = nil
	}
	in.unknownAttrs(n, in.stateAttrs, st.Pos)
	in.c.States = append(in.c.States, st)
}

// stencilEdge classifies an edge of a drawing made with a stencil.
func (in *interp) stencilEdge(pg *page, n *node, prefix string) {
	n.role = in.roleOf(n.c)
	switch n.role {
	case chart.RoleTransition, chart.RoleNone:
	default:
		in.diag(diag.Warning, in.pos(pg, n.c, prefix, chart.NormalizeSpace(n.text)), "",
			"edge %s has the role of master %q, which is not the transition master; ignored", n.c.id, strings.TrimSpace(in.roleName(n.c)))
		n.role = chart.RoleNone
		n.class = clNone
	}
}

func (in *interp) roleName(c *cell) string {
	v, _ := c.get(in.opt.RoleKey)
	return v
}

// unroledEdge reports an edge without a role between two states of a
// drawing made with a stencil (the arrow draw.io draws from a shape's
// hover arrows), and reports whether it did.
func (in *interp) unroledEdge(pg *page, n *node, prefix string) bool {
	if n.src == nil || n.dst == nil || n.src.class != clState && n.src.class != clHandler || n.dst.class != clState {
		return false
	}
	in.diag(diag.Warning, in.pos(pg, n.c, prefix, chart.NormalizeSpace(edgeLabel(n))),
		fmt.Sprintf("draw transitions with the %q shape of stencil %q's library (or copy an existing transition), then set its Test", in.st.Masters.Transition, in.st.Name),
		"the edge from %s to %s is not a transition of stencil %q (it has no %s=%q); ignored",
		describe(n.src), describe(n.dst), in.st.Name, in.opt.RoleKey, in.st.Masters.Transition)
	return true
}

// stencilTransition reads a transition's test, value, order and stack
// operation from its properties; it reports whether they are valid. A
// transition that leaves a start or a history is taken without a test
// ([chart.StateKind.UntestedTransition]): a test set on one (the
// library's transition presets one) is ignored, with a warning
// ([importer.IgnoredTest]), and the transition kept.
func (in *interp) stencilTransition(t *chart.Transition, n *node) bool {
	st, names, c := in.st, in.props, n.c
	valid := true
	test, hasTest := c.get(names.Test)
	if t.Pos.ShapeName == "" { // an edge without text: name it by its test
		t.Pos.ShapeName = in.strs.Clone(strings.TrimSpace(test))
	}
	bad := func(hint, format string, args ...any) {
		in.diag(diag.Error, t.Pos, hint, format, args...)
		valid = false
	}
	pickTest := func() string {
		return "pick one of " + strings.Join(importer.TestNames(in.st), ", ") + " in the transition's Edit Data"
	}
	var tst chart.Test
	switch {
	case n.src != nil && n.src.role.Kind().UntestedTransition(): // a start's or a history's
		if test := strings.TrimSpace(test); test != "" {
			in.report([]importer.Problem{importer.IgnoredTest(t.Pos, n.src.role.Kind(), describe(n.src), test, names.Test, "Edit Data")}, diag.Pos{}, "")
		}
	case !hasTest:
		bad(fmt.Sprintf("draw transitions with the %q shape of stencil %q's library", st.Masters.Transition, st.Name),
			"transition without a %q property", names.Test)
	case strings.TrimSpace(test) == "":
		bad(pickTest(), "transition without a test")
	default:
		t.Test = in.strs.Clone(strings.TrimSpace(test))
		var found bool
		if tst, found = st.Test(t.Test); !found {
			bad(pickTest(), "test %q is not in stencil %q", t.Test, st.Name)
		}
	}
	if v, ok := c.get(names.Value); ok {
		if v = strings.TrimSpace(v); v != "" {
			t.Value = in.strs.Clone(v)
			if len(tst.Values) > 0 && !slices.Contains(tst.Values, v) {
				bad("pick one of "+strings.Join(tst.Values, ", "), "test %q does not take value %q", tst.Name, v)
			}
		}
	}
	if v, ok := c.get(names.Order); ok {
		if v = strings.TrimSpace(v); v != "" {
			o, err := strconv.Atoi(v)
			if err != nil || o < 0 {
				bad("number the transitions leaving a state 1, 2, 3... in the order their tests are tried (0 for document order)",
					"order %q is not a whole number", v)
			}
			t.Order = max(o, 0) // 0: document order
		}
	}
	if v, ok := c.get(names.Stack); ok {
		switch v = strings.TrimSpace(v); strings.ToLower(v) {
		case "", chart.StackNone:
		case chart.StackPush:
			t.Push = true
		case chart.StackReturn:
			if t.Target.Kind == chart.ToState {
				bad("detach the end of the edge: a returning transition goes to the state on top of the stack",
					"a returning transition is attached at its end to state %s", t.Target.State)
			}
			t.Target = chart.Target{Kind: chart.ToReturn}
		default:
			bad("pick one of none, push, return", "stack operation %q is not one of none, push, return", v)
		}
	}
	in.unknownAttrs(n, in.edgeAttrs, t.Pos)
	return valid
}

// checkRoles compares the roles the drawing's shapes name with the
// stencil, as chart/visio compares a drawing's masters. It returns false
// when the drawing was made with another stencil altogether.
func (in *interp) checkRoles(pages []*page) bool {
	st := in.st
	type use struct {
		n  int
		at diag.Pos
	}
	roles := make(map[string]*use) // by role name, for shapes of this stencil
	var roleOrder []string
	others := make(map[string]*use) // by stencil name
	var otherOrder []string
	var version *use
	versionSeen := ""
	content := 0
	count := func(m map[string]*use, order *[]string, key string, at func() diag.Pos) {
		u := m[key]
		if u == nil {
			u = &use{at: at()}
			m[key] = u
			*order = append(*order, key)
		}
		u.n++
	}
	for _, pg := range pages {
		for i := range pg.cells {
			c := &pg.cells[i]
			if !c.vertex && !c.edge {
				continue
			}
			content++
			v, ok := c.get(in.opt.RoleKey)
			if !ok {
				continue
			}
			at := func() diag.Pos { return in.pos(pg, c, "", chart.NormalizeSpace(labelText(c))) }
			if sn, ok := c.get(AttrStencil); ok && sn != st.Name {
				count(others, &otherOrder, sn, at)
				continue
			}
			count(roles, &roleOrder, strings.TrimSpace(v), at)
			if ver, ok := c.get(AttrVersion); ok && ver != st.Version && version == nil {
				version, versionSeen = &use{at: at()}, ver
			}
		}
	}
	known := false
	for _, r := range roleOrder {
		known = known || st.Role(r) != chart.RoleNone
	}
	if !known && content > 0 {
		var used []string
		for _, r := range roleOrder {
			used = append(used, strconv.Quote(r))
		}
		what := "no shape has an " + in.opt.RoleKey + " attribute"
		switch {
		case len(otherOrder) > 0:
			var names []string
			for _, s := range otherOrder {
				names = append(names, strconv.Quote(s))
			}
			what = "its shapes come from stencil " + strings.Join(names, ", ")
		case len(used) > 0:
			what = "its shapes' " + in.opt.RoleKey + " attributes name " + strings.Join(used, ", ")
		}
		in.diag(diag.Error, diag.Pos{File: in.strs.Clone(in.doc.file)},
			"read it with the stencil it was made with, or without a stencil, as a plain state diagram",
			"the drawing was not made with stencil %q: %s, none of which is the stencil's %q or %q",
			st.Name, what, st.Masters.State, st.Masters.Transition)
		return false
	}
	for _, r := range roleOrder {
		if st.Role(r) == chart.RoleNone {
			u := roles[r]
			in.diag(diag.Warning, u.at, "draw charts with the shapes of the stencil's library only",
				"master %q is not in stencil %q: its %d shapes are ignored", r, st.Name, u.n)
		}
	}
	for _, s := range otherOrder {
		u := others[s]
		in.diag(diag.Warning, u.at, "draw charts with the shapes of one stencil's library",
			"%d shapes come from stencil %q, not %q; ignored", u.n, s, st.Name)
	}
	if version != nil {
		in.diag(diag.Warning, version.at, "update the drawing's shapes from the stencil's library, or the stencil file",
			"the drawing was made with version %s of stencil %q, which is at version %s", strconv.Quote(versionSeen), st.Name, strconv.Quote(st.Version))
	}
	return true
}
