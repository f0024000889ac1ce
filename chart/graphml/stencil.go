package graphml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
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
		first chart.Pos
	}
	uses := make(map[string]*use)
	var values []string // in order of first use
	known, elements := false, 0
	record := func(v string, at chart.Pos) {
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
		in.diag(chart.Error, chart.Pos{File: in.file},
			fmt.Sprintf("In yEd, give each node and edge a %q property (Edit > Properties Manager) whose value names its master in the stencil, or read the drawing without a stencil, as a plain state diagram.", roleKey),
			"the drawing was not made with stencil %q: the %q property names its masters (%q, %q...), but %s",
			st.Name, roleKey, st.Masters.State, st.Masters.Transition, used)
		return false
	}
	for _, v := range values {
		u := uses[v]
		in.diag(chart.Warning, u.first, "Use the stencil's masters only: "+strings.Join(masterNames(st), ", ")+".",
			"role %q is not a master of stencil %q: its %s ignored", v, st.Name, pluralElems(u.count))
	}
	in.checkKeys()
	return true
}

// masterNames lists the stencil's masters.
func masterNames(st *chart.Stencil) []string {
	var names []string
	for _, m := range [...]string{st.Masters.State, st.Masters.Initial, st.Masters.Transition, st.Masters.AnyState} {
		if m != "" {
			names = append(names, strconv.Quote(m))
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
			in.diag(chart.Warning, chart.Pos{File: in.file}, add,
				"the file declares no node property %q, which stencil %q (version %s) lists", a.Name, st.Name, importer.Version(st))
		}
	}
	if !declared(names.Test, "edge") {
		in.diag(chart.Warning, chart.Pos{File: in.file}, add,
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
		in.diag(chart.Note, chart.Pos{File: in.file, Line: k.line, Col: k.col}, "",
			"property %q is not in stencil %q; ignored", k.name, st.Name)
	}
}

func pluralElems(n int) string {
	if n == 1 {
		return "node or edge is"
	}
	return strconv.Itoa(n) + " nodes and edges are"
}
