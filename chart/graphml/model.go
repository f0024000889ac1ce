package graphml

import (
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/statesmith"
)

// This file reads the decoded elements into nodes and edges: keys, data
// values, and what yEd's graphics say about each.

// key is a <key> declaration: the meaning of the data values that name it.
type key struct {
	id     string
	domain string // its for attribute: node, edge, graph, all...
	name   string // attr.name: a custom property's name
	yType  string // yfiles.type: nodegraphics, edgegraphics...
	def    string // its <default>
	hasDef bool
	line   int
	col    int
}

// applies reports whether the key may hold values of elements of the
// given kind ("node" or "edge").
func (k *key) applies(kind string) bool {
	return k.domain == kind || k.domain == "all" || k.domain == ""
}

// value is a <data> element of a node or an edge with a custom property's
// value.
type value struct {
	k         *key
	text      string
	line, col int
}

// look is what yEd's graphics (the active realizer) say about a node or an
// edge.
type look struct {
	realizer string     // ShapeNode, GenericNode, GroupNode, PolyLineEdge...
	config   string     // a GenericNode's configuration: "com.yworks.flowchart.start1"
	shape    string     // a ShapeNode's shape type: "ellipse", "diamond"...
	box      *chart.Box // y:Geometry
	labels   []string   // the texts of its labels, in order, trimmed, empty ones left out
	style    []string   // the values of its style properties (y:StyleProperties)
	from, to string     // an edge's arrows at its source and target
}

// node is a <node> of the file, with what the reading found out about it.
type node struct {
	e      *elem
	id     string
	parent *node // the group node it is drawn in; nil at the top level
	values []value
	look   look
	label  string // its first label, or its label property
	in     int    // edges that end at it
	out    int    // edges that start from it

	what    nodeWhat
	kind    chart.StateKind
	name    string
	role    chart.Role
	roleVal string
	stateID string // the chart state it stands for ("" for none)

	ss     statesmith.Vertex // what its label says to StateSmith: see vertex
	parsed bool              // ss is set
}

// vertex returns what a node's label says to StateSmith
// ([statesmith.ParseVertex]), parsing it the first time only.
func (n *node) vertex() statesmith.Vertex {
	if !n.parsed {
		n.ss, n.parsed = statesmith.ParseVertex(n.label), true
	}
	return n.ss
}

// nodeWhat is what a node is in the chart.
type nodeWhat uint8

const (
	isIgnored  nodeWhat = iota // not part of the chart (a note, outside the machine, no role)
	isState                    // a state of the chart
	isMachine                  // the $STATEMACHINE group: the chart itself
	isNotes                    // a $NOTES node, or inside one
	isOutside                  // outside the $STATEMACHINE group
	isAlias                    // a $PARENT_ALIAS: its parent state
	isAnyState                 // the stencil's message handler
	isBad                      // reported as an error; its edges are left out
	isContinue                 // StateSmith's $HC: it makes the $H above it deep
)

// edge is an <edge> of the file.
type edge struct {
	e              *elem
	id             string
	source, target string
	values         []value
	look           look
	label          string
}

// firstLine returns the first line of s, trimmed, and the rest.
func firstLine(s string) (string, string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\n\r\u2028"); i >= 0 {
		return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
	}
	return s, ""
}

// readNodeLook reads yEd's node graphics held in a <data> element.
func readNodeLook(d *elem) look {
	var lk look
	r := realizer(d, "Node")
	if r == nil {
		return lk
	}
	if rs := r.kid("Realizers"); rs != nil {
		var list []*elem
		for _, k := range rs.kids {
			if strings.HasSuffix(k.local, "Node") {
				list = append(list, k)
			}
		}
		if len(list) == 0 {
			return lk
		}
		// The open view holds the group's members; the active one is
		// what yEd shows.
		active, _ := strconv.Atoi(rs.get("active"))
		if active < 0 || active >= len(list) {
			active = 0
		}
		r = list[active]
		if closed(r) {
			for _, k := range list {
				if !closed(k) {
					r = k
					break
				}
			}
		}
	}
	lk.realizer = r.local
	lk.config = r.get("configuration")
	if s := r.kid("Shape"); s != nil {
		lk.shape = s.get("type")
	}
	if g := r.kid("Geometry"); g != nil {
		lk.box = geometry(g)
	}
	for _, k := range r.kids {
		switch k.local {
		case "NodeLabel":
			if t := strings.TrimSpace(string(k.text)); t != "" {
				lk.labels = append(lk.labels, t)
			}
		case "StyleProperties":
			for _, p := range k.kids {
				if p.local == "Property" {
					lk.style = append(lk.style, p.get("name")+"="+p.get("value"))
				}
			}
		}
	}
	return lk
}

// closed reports whether a group realizer shows the group closed.
func closed(r *elem) bool {
	s := r.kid("State")
	return s != nil && s.get("closed") == "true"
}

// readEdgeLook reads yEd's edge graphics held in a <data> element.
func readEdgeLook(d *elem) look {
	var lk look
	r := realizer(d, "Edge")
	if r == nil {
		return lk
	}
	lk.realizer = r.local
	lk.config = r.get("configuration")
	for _, k := range r.kids {
		switch k.local {
		case "EdgeLabel":
			if t := strings.TrimSpace(string(k.text)); t != "" {
				lk.labels = append(lk.labels, t)
			}
		case "Arrows":
			lk.from, lk.to = k.get("source"), k.get("target")
		}
	}
	return lk
}

// realizer returns the first yEd element of d whose name ends with suffix.
func realizer(d *elem, suffix string) *elem {
	for _, k := range d.kids {
		if strings.HasSuffix(k.local, suffix) {
			return k
		}
	}
	return nil
}

// geometry reads a y:Geometry, or returns nil when it is not a box.
func geometry(g *elem) *chart.Box {
	var v [4]float64
	for i, a := range [4]string{"x", "y", "width", "height"} {
		f, err := strconv.ParseFloat(g.get(a), 64)
		if err != nil || f != f || f > 1e12 || f < -1e12 {
			return nil
		}
		v[i] = f
	}
	if v[2] < 0 || v[3] < 0 {
		return nil
	}
	return &chart.Box{X: v[0], Y: v[1], W: v[2], H: v[3]}
}
