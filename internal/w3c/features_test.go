package w3c

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// node is an element of a converted test.
type node struct {
	name   string // local name; "conf:..." never remains
	attrs  map[string]string
	kids   []*node
	parent *node
}

func (n *node) walk(f func(*node)) {
	f(n)
	for _, k := range n.kids {
		k.walk(f)
	}
}

// parseSCXML reads a converted test into a tree, checking that every
// element is SCXML's and no attribute is in a namespace.
func parseSCXML(t *testing.T, doc []byte) *node {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var root, cur *node
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Space != SCXMLNamespace {
				t.Fatalf("element %s:%s is not SCXML's", e.Name.Space, e.Name.Local)
			}
			n := &node{name: e.Name.Local, attrs: map[string]string{}, parent: cur}
			for _, a := range e.Attr {
				switch {
				case a.Name.Space == "" && a.Name.Local == "xmlns":
				case a.Name.Space != "":
					t.Fatalf("<%s> has attribute %s:%s", e.Name.Local, a.Name.Space, a.Name.Local)
				default:
					n.attrs[a.Name.Local] = a.Value
				}
			}
			if cur == nil {
				root = n
			} else {
				cur.kids = append(cur.kids, n)
			}
			cur = n
		case xml.EndElement:
			cur = cur.parent
		}
	}
	return root
}

// feature is something of SCXML a test uses, which the importer and the
// runtime must support for it.
type feature struct {
	tag, what string
	// uses returns what of the feature the test whose root is root uses,
	// "" when none: "✓", or the values it uses.
	uses func(root *node) string
}

// features are listed in FEATURES.md in this order.
var features = []feature{
	{"parallel", "`<parallel>`", elem("parallel")},
	{"history", "`<history>` (its type)", func(r *node) string {
		return values(r, "history", "type", "shallow")
	}},
	{"initial-elem", "an `<initial>` element", elem("initial")},
	{"initial-multi", "an initial attribute naming several states (in parallel regions)", func(r *node) string {
		return anyNode(r, func(n *node) bool { return strings.Contains(strings.TrimSpace(n.attrs["initial"]), " ") })
	}},
	{"initial-deep", "an initial attribute or `<initial>` transition naming a state that is not a child", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			holder, ids := n, ""
			switch {
			case n.name == "transition" && n.parent.name == "initial":
				holder, ids = n.parent.parent, n.attrs["target"]
			case n.name != "transition":
				ids = n.attrs["initial"]
			}
			for _, id := range strings.Fields(ids) {
				if !slices.ContainsFunc(holder.kids, func(k *node) bool { return k.attrs["id"] == id }) {
					return true
				}
			}
			return false
		})
	}},
	{"depth", "the deepest nesting of states (1: all at the top level)", func(r *node) string {
		var deepest func(n *node) int
		deepest = func(n *node) int {
			d := 0
			for _, k := range n.kids {
				d = max(d, deepest(k))
			}
			if n.name == "state" || n.name == "parallel" || n.name == "final" {
				d++
			}
			return d
		}
		return fmt.Sprint(deepest(r))
	}},
	{"compound-transition", "a transition of a state that has child states", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			return n.name == "transition" && n.parent.name == "state" &&
				slices.ContainsFunc(n.parent.kids, func(k *node) bool { return k.name == "state" || k.name == "parallel" || k.name == "final" })
		})
	}},
	{"parallel-transition", "a transition of a `<parallel>`", func(r *node) string {
		return anyNode(r, func(n *node) bool { return n.name == "transition" && n.parent.name == "parallel" })
	}},
	{"parallel-actions", "`<onentry>` or `<onexit>` of a `<parallel>`", func(r *node) string {
		return anyNode(r, func(n *node) bool { return (n.name == "onentry" || n.name == "onexit") && n.parent.name == "parallel" })
	}},
	{"final-in-compound", "a `<final>` inside a state (done.state.id on entry)", func(r *node) string {
		return anyNode(r, func(n *node) bool { return n.name == "final" && n.parent.name != "scxml" })
	}},
	{"final-other", "a top-level `<final>` other than pass and fail", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			return n.name == "final" && n.parent.name == "scxml" && n.attrs["id"] != "pass" && n.attrs["id"] != "fail"
		})
	}},
	{"done-event", "a transition on done.state.id", func(r *node) string {
		return anyNode(r, func(n *node) bool { return n.name == "transition" && strings.HasPrefix(n.attrs["event"], "done.") })
	}},
	{"eventless", "a transition without event (of a state, not of `<initial>` or `<history>`)", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			_, ok := n.attrs["event"]
			return n.name == "transition" && !ok && n.parent.name != "initial" && n.parent.name != "history"
		})
	}},
	{"targetless", "a transition without target", func(r *node) string {
		return anyNode(r, func(n *node) bool { _, ok := n.attrs["target"]; return n.name == "transition" && !ok })
	}},
	{"multi-target", "a transition to several states", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			return n.name == "transition" && strings.Contains(strings.TrimSpace(n.attrs["target"]), " ")
		})
	}},
	{"transition-content", "executable content in a `<transition>`", func(r *node) string {
		return anyNode(r, func(n *node) bool { return n.name == "transition" && len(n.kids) > 0 })
	}},
	{"onentry-blocks", "several `<onentry>` or `<onexit>` in one state", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			count := func(name string) int {
				c := 0
				for _, k := range n.kids {
					if k.name == name {
						c++
					}
				}
				return c
			}
			return count("onentry") > 1 || count("onexit") > 1
		})
	}},
	{"event-star", "event=\"*\"", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			return n.name == "transition" && slices.Contains(strings.Fields(n.attrs["event"]), "*")
		})
	}},
	{"event-wildcard", "a descriptor ending in .*", func(r *node) string {
		return anyNode(r, func(n *node) bool {
			return n.name == "transition" && slices.ContainsFunc(strings.Fields(n.attrs["event"]), func(d string) bool { return strings.HasSuffix(d, ".*") })
		})
	}},
	{"event-list", "several descriptors in one event attribute", func(r *node) string {
		return anyNode(r, func(n *node) bool { return n.name == "transition" && len(strings.Fields(n.attrs["event"])) > 1 })
	}},
	{"event-prefix", "an event matched by a descriptor that is a prefix of it (foo matches foo.zoo)", func(r *node) string {
		var names, descs []string
		r.walk(func(n *node) {
			switch n.name {
			case "raise", "send":
				names = append(names, n.attrs["event"])
			case "transition":
				descs = append(descs, strings.Fields(n.attrs["event"])...)
			}
		})
		for _, e := range names {
			for _, d := range descs {
				d = strings.TrimSuffix(d, ".*")
				if d != "*" && strings.HasPrefix(e, d+".") {
					return "✓"
				}
			}
		}
		return ""
	}},
	{"in", "a cond In(...)", func(r *node) string {
		return anyNode(r, func(n *node) bool { return strings.HasPrefix(n.attrs["cond"], "In(") })
	}},
	{"if", "`<if>` (with `<elseif>`, `<else>`)", func(r *node) string {
		return anyNode(r, func(n *node) bool { return n.name == "if" || n.name == "elseif" || n.name == "else" })
	}},
	{"raise", "`<raise>`", elem("raise")},
	{"send", "`<send>` without delay", func(r *node) string {
		return anyNode(r, func(n *node) bool { _, ok := n.attrs["delay"]; return n.name == "send" && !ok })
	}},
	{"send-delay", "`<send delay>` (its values)", func(r *node) string { return values(r, "send", "delay", "") }},
	{"send-target", "`<send target>` (its values)", func(r *node) string { return values(r, "send", "target", "") }},
	{"send-type", "`<send type>` (its values)", func(r *node) string { return values(r, "send", "type", "") }},
	{"send-id", "`<send id>`", func(r *node) string {
		return anyNode(r, func(n *node) bool { _, ok := n.attrs["id"]; return n.name == "send" && ok })
	}},
	{"cancel", "`<cancel>`", elem("cancel")},
	{"log", "`<log>`", elem("log")},
}

func elem(name string) func(*node) string {
	return func(r *node) string { return anyNode(r, func(n *node) bool { return n.name == name }) }
}

func anyNode(r *node, f func(*node) bool) string {
	found := false
	r.walk(func(n *node) { found = found || f(n) })
	if found {
		return "✓"
	}
	return ""
}

// values returns the values of the attribute attr of the elements name,
// sorted, def for one that has none; "" when there is no such element.
func values(r *node, name, attr, def string) string {
	var vs []string
	r.walk(func(n *node) {
		if n.name != name {
			return
		}
		v, ok := n.attrs[attr]
		if !ok {
			if def == "" {
				return
			}
			v = def
		}
		vs = append(vs, "`"+v+"`")
	})
	slices.Sort(vs)
	return strings.Join(slices.Compact(vs), ", ")
}

// groups are the README's groups of NoDataModel, in its order.
var groups = []struct {
	name string
	n    int
}{
	{"structure, In(), raise", 8},
	{"undelayed send to self", 6},
	{"delayed send, cancel", 14},
	{"manual", 1},
}

func groupOf(t *testing.T, test int) string {
	i := slices.Index(NoDataModel, test)
	for _, g := range groups {
		if i < g.n {
			return g.name
		}
		i -= g.n
	}
	t.Fatalf("test %d is in no group", test)
	return ""
}

// elemOrder is the order of elements in the inventories; others follow,
// sorted.
var elemOrder = []string{"scxml", "state", "parallel", "final", "initial", "history", "transition", "onentry", "onexit", "raise", "send", "cancel", "if", "elseif", "else", "log"}

// inventory returns the elements of the tree of root, each with its
// attributes, sorted.
func inventory(root *node) map[string][]string {
	inv := map[string][]string{}
	root.walk(func(n *node) {
		attrs := inv[n.name]
		for a := range n.attrs {
			attrs = append(attrs, a)
		}
		slices.Sort(attrs)
		inv[n.name] = slices.Compact(attrs)
	})
	for name, attrs := range inv {
		if attrs == nil {
			inv[name] = []string{}
		}
	}
	return inv
}

func sortedElems(inv map[string][]string) []string {
	var names []string
	for name := range inv {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		ia, ib := slices.Index(elemOrder, a), slices.Index(elemOrder, b)
		switch {
		case ia >= 0 && ib >= 0:
			return ia - ib
		case ia >= 0:
			return -1
		case ib >= 0:
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// TestFeatures writes testdata/FEATURES.md from the converted tests and
// checks the README's groups against them: the first group sends
// nothing, the second sends without delay and cancels nothing.
func TestFeatures(t *testing.T) {
	total := 0
	for _, g := range groups {
		total += g.n
	}
	if total != len(NoDataModel) {
		t.Fatalf("the groups hold %d tests, NoDataModel %d", total, len(NoDataModel))
	}
	type row struct {
		test  int
		group string
		uses  []string // by feature
		inv   map[string][]string
	}
	var rows []row
	union := map[string][]string{}
	for _, n := range NoDataModel {
		in, err := os.ReadFile(txmlFile(n))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Convert(in)
		if err != nil {
			t.Fatalf("Convert(%s) = %v", txmlFile(n), err)
		}
		root := parseSCXML(t, out)
		r := row{test: n, group: groupOf(t, n), inv: inventory(root)}
		for _, f := range features {
			r.uses = append(r.uses, f.uses(root))
		}
		for name, attrs := range r.inv {
			union[name] = slices.Compact(slices.Sorted(slices.Values(append(union[name], attrs...))))
		}
		rows = append(rows, r)

		uses := func(tag string) bool {
			return r.uses[slices.IndexFunc(features, func(f feature) bool { return f.tag == tag })] != ""
		}
		switch r.group {
		case groups[0].name:
			if uses("send") || uses("send-delay") || uses("cancel") {
				t.Errorf("test %d of group %q sends or cancels", n, r.group)
			}
		case groups[1].name:
			if uses("send-delay") || uses("cancel") {
				t.Errorf("test %d of group %q sends with a delay or cancels", n, r.group)
			}
		}
	}

	var b strings.Builder
	b.WriteString("# What the tests without a data model use\n\n")
	b.WriteString("Generated by `go test ./internal/w3c -run TestFeatures -update` from the converted tests\n")
	b.WriteString("(`testdata/scxml`); do not edit. The groups are those of `NoDataModel`.\n\n")

	b.WriteString("## Features by test\n\n| test | group | features |\n|---|---|---|\n")
	for _, r := range rows {
		var fs []string
		for i, f := range features {
			switch u := r.uses[i]; u {
			case "":
			case "✓":
				fs = append(fs, f.tag)
			default:
				fs = append(fs, f.tag+" "+u)
			}
		}
		fmt.Fprintf(&b, "| %d | %s | %s |\n", r.test, r.group, strings.Join(fs, ", "))
	}

	b.WriteString("\n## Tests by feature\n\n| feature | what | tests |\n|---|---|---|\n")
	for i, f := range features {
		// The tests, grouped by what they use of the feature when that
		// is more than ✓, the groups in the order of their first test.
		var uses []string
		byUse := map[string][]string{}
		for _, r := range rows {
			if u := r.uses[i]; u != "" {
				if byUse[u] == nil {
					uses = append(uses, u)
				}
				byUse[u] = append(byUse[u], fmt.Sprint(r.test))
			}
		}
		var cell []string
		for _, u := range uses {
			if u == "✓" {
				cell = append(cell, strings.Join(byUse[u], " "))
			} else {
				cell = append(cell, u+": "+strings.Join(byUse[u], " "))
			}
		}
		if len(cell) == 0 {
			cell = []string{"none"}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", f.tag, f.what, strings.Join(cell, "; "))
	}

	b.WriteString("\n## Elements and attributes by test\n\n| test | elements (attributes) |\n|---|---|\n")
	for _, r := range rows {
		var es []string
		for _, name := range sortedElems(r.inv) {
			es = append(es, fmt.Sprintf("%s(%s)", name, strings.Join(r.inv[name], " ")))
		}
		fmt.Fprintf(&b, "| %d | %s |\n", r.test, strings.Join(es, " "))
	}

	b.WriteString("\n## Elements and attributes of all of them\n\nWhat the importer must read for these tests:\n\n| element | attributes |\n|---|---|\n")
	for _, name := range sortedElems(union) {
		fmt.Fprintf(&b, "| `<%s>` | %s |\n", name, strings.Join(union[name], " "))
	}

	got := []byte(b.String())
	file := filepath.Join("testdata", "FEATURES.md")
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; go test -update rewrites it. It should be:\n%s", file, got)
	}
}
