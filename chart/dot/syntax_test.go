package dot_test

import (
	"encoding/xml"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds a parser of the DOT language (https://graphviz.org/doc/info/lang.html),
// enough of it to check the writer's output when the dot binary is not
// installed: the whole grammar of statements, and the four kinds of ID
// (names, numerals, quoted strings, HTML strings). It checks more than
// Graphviz does: every node ID is quoted, every edge ends at a declared
// node, no node is declared twice, HTML strings are well-formed XML, and
// an edge clipped at a cluster (lhead, ltail) ends inside it and starts
// outside it, as Graphviz wants.

// dotGraph is a parsed digraph.
type dotGraph struct {
	name     string
	attrs    map[string]string // graph attributes, "label" and the like
	nodes    []dotNode
	edges    []dotEdge
	clusters []string // subgraph IDs, in order of their closing braces

	clusterParent map[string]string            // subgraph ID → the subgraph it is in, or ""
	clusterAttrs  map[string]map[string]string // subgraph ID → its attributes
}

// inCluster reports whether node n is declared in cluster c, at any depth.
func (g *dotGraph) inCluster(n dotNode, c string) bool {
	for k := n.cluster; k != ""; k = g.clusterParent[k] {
		if k == c {
			return true
		}
	}
	return false
}

type dotNode struct {
	id      string
	attrs   map[string]string
	cluster string // the subgraph it was declared in, or ""
}

type dotEdge struct {
	from, to string
	attrs    map[string]string
}

func (g *dotGraph) node(id string) (dotNode, bool) {
	for _, n := range g.nodes {
		if n.id == id {
			return n, true
		}
	}
	return dotNode{}, false
}

type tokKind int

const (
	tEOF tokKind = iota
	tID
	tHTML
	tPunct // { } [ ] ; , = : ->
)

type token struct {
	kind   tokKind
	text   string // an ID's value (a quoted string unquoted), or the punctuation
	quoted bool
	off    int
}

type dotParser struct {
	src    string
	toks   []token
	i      int
	g      *dotGraph
	seen   map[string]bool
	strict bool
}

// parseDOT parses src, a digraph, and checks it.
func parseDOT(src string) (*dotGraph, error) { return parse(src, true) }

// parse parses src; strict adds the checks that DOT itself does not make
// (every edge's nodes declared first).
func parse(src string, strict bool) (*dotGraph, error) {
	if !utf8.ValidString(src) {
		return nil, fmt.Errorf("not UTF-8")
	}
	p := &dotParser{src: src, seen: map[string]bool{}, strict: strict,
		g: &dotGraph{attrs: map[string]string{}, clusterParent: map[string]string{}, clusterAttrs: map[string]map[string]string{}}}
	if err := p.lex(); err != nil {
		return nil, err
	}
	if err := p.graph(); err != nil {
		return nil, err
	}
	for _, e := range p.g.edges {
		if !strict {
			break
		}
		for _, id := range []string{e.from, e.to} {
			if !p.seen[id] {
				return nil, fmt.Errorf("edge %q -> %q: node %q is not declared", e.from, e.to, id)
			}
		}
		if err := p.g.checkClip(e); err != nil {
			return nil, err
		}
	}
	return p.g, nil
}

// checkClip checks an edge's lhead and ltail as Graphviz does, when it
// warns "head not inside head cluster" or "tail is inside head cluster".
func (g *dotGraph) checkClip(e dotEdge) error {
	from, _ := g.node(e.from)
	to, _ := g.node(e.to)
	for _, c := range []struct {
		attr     string
		in, away dotNode
	}{{"lhead", to, from}, {"ltail", from, to}} {
		cl, ok := e.attrs[c.attr]
		if !ok {
			continue
		}
		if g.attrs["compound"] != "true" {
			return fmt.Errorf("edge %q -> %q: %s without compound=true", e.from, e.to, c.attr)
		}
		if _, ok := g.clusterAttrs[cl]; !ok {
			return fmt.Errorf("edge %q -> %q: %s %q is not a cluster", e.from, e.to, c.attr, cl)
		}
		if !g.inCluster(c.in, cl) || g.inCluster(c.away, cl) {
			return fmt.Errorf("edge %q -> %q: %s %q must hold one end and not the other", e.from, e.to, c.attr, cl)
		}
	}
	return nil
}

func (p *dotParser) errorf(t token, format string, args ...any) error {
	line := 1 + strings.Count(p.src[:t.off], "\n")
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

func isIDStart(r rune) bool { return r == '_' || r >= 0x80 || unicode.IsLetter(r) && r < 0x80 }

func (p *dotParser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == ' ' || r == '\t' || r == '\r':
			i += n
		case strings.HasPrefix(s[i:], "//") || (r == '#' && (i == 0 || s[i-1] == '\n')):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return fmt.Errorf("unterminated comment")
			}
			i += end + 4
		case strings.HasPrefix(s[i:], "->") || strings.HasPrefix(s[i:], "--"):
			p.toks = append(p.toks, token{kind: tPunct, text: s[i : i+2], off: i})
			i += 2
		case strings.ContainsRune("{}[];,=:", r):
			p.toks = append(p.toks, token{kind: tPunct, text: string(r), off: i})
			i++
		case r == '"':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return fmt.Errorf("offset %d: unterminated string", i)
				}
				c := s[j]
				if c == '"' {
					break
				}
				if c == '\n' {
					return fmt.Errorf("offset %d: line break in a quoted string", i)
				}
				if c == '\\' && j+1 < len(s) && s[j+1] == '"' {
					b.WriteByte('"')
					j += 2
					continue
				}
				if c == '\\' && j+1 < len(s) && s[j+1] == '\\' {
					b.WriteString(`\\`) // kept escaped: see unescString
					j += 2
					continue
				}
				if c == '\\' && j+1 < len(s) && s[j+1] == '\n' {
					return fmt.Errorf("offset %d: line continuation in a quoted string", i)
				}
				b.WriteByte(c)
				j++
			}
			p.toks = append(p.toks, token{kind: tID, text: b.String(), quoted: true, off: i})
			i = j + 1
		case r == '<':
			depth, j := 0, i
			for ; j < len(s); j++ {
				if s[j] == '<' {
					depth++
				} else if s[j] == '>' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j >= len(s) {
				return fmt.Errorf("offset %d: unterminated HTML string", i)
			}
			p.toks = append(p.toks, token{kind: tHTML, text: s[i+1 : j], off: i})
			i = j + 1
		case r == '-' || r == '.' || (r >= '0' && r <= '9'):
			j := i
			if s[j] == '-' {
				j++
			}
			start := j
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			if j == start || strings.Count(s[start:j], ".") > 1 {
				return fmt.Errorf("offset %d: bad numeral %q", i, s[i:j+1])
			}
			p.toks = append(p.toks, token{kind: tID, text: s[i:j], off: i})
			i = j
		case isIDStart(r):
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !isIDStart(r) && !(r >= '0' && r <= '9') {
					break
				}
				j += n
			}
			p.toks = append(p.toks, token{kind: tID, text: s[i:j], off: i})
			i = j
		default:
			return fmt.Errorf("offset %d: unexpected %q", i, r)
		}
	}
	p.toks = append(p.toks, token{kind: tEOF, off: len(s)})
	return nil
}

func (p *dotParser) peek() token { return p.toks[p.i] }
func (p *dotParser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *dotParser) punct(text string) bool {
	if t := p.peek(); t.kind == tPunct && t.text == text {
		p.i++
		return true
	}
	return false
}

func (p *dotParser) keyword(t token, kw string) bool {
	return t.kind == tID && !t.quoted && strings.EqualFold(t.text, kw)
}

func (p *dotParser) graph() error {
	t := p.next()
	if p.keyword(t, "strict") {
		t = p.next()
	}
	if !p.keyword(t, "digraph") {
		return p.errorf(t, "want digraph, got %q", t.text)
	}
	if t := p.peek(); t.kind == tID || t.kind == tHTML {
		p.g.name = p.next().text
	}
	if !p.punct("{") {
		return p.errorf(p.peek(), "want {")
	}
	if err := p.stmts(""); err != nil {
		return err
	}
	if t := p.peek(); t.kind != tEOF {
		return p.errorf(t, "text after the graph: %q", t.text)
	}
	return nil
}

// stmts parses statements up to and including the closing brace.
func (p *dotParser) stmts(cluster string) error {
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			return p.errorf(t, "want }")
		case t.kind == tPunct && t.text == "}":
			p.i++
			return nil
		case t.kind == tPunct && t.text == ";":
			p.i++
			continue
		}
		if err := p.stmt(cluster); err != nil {
			return err
		}
	}
}

func (p *dotParser) id() (token, error) {
	t := p.next()
	if t.kind != tID && t.kind != tHTML {
		return t, p.errorf(t, "want an ID, got %q", t.text)
	}
	if t.kind == tHTML {
		if err := checkHTML(t.text); err != nil {
			return t, p.errorf(t, "HTML string %q: %v", t.text, err)
		}
	}
	return t, nil
}

func (p *dotParser) stmt(cluster string) error {
	t := p.peek()
	if p.keyword(t, "subgraph") || (t.kind == tPunct && t.text == "{") {
		id, err := p.subgraph(cluster)
		if err != nil {
			return err
		}
		if p.peek().text == "->" && p.peek().kind == tPunct {
			return p.errorf(p.peek(), "edges from subgraphs are not used by the writer")
		}
		p.g.clusters = append(p.g.clusters, id)
		return nil
	}
	if p.keyword(t, "graph") || p.keyword(t, "node") || p.keyword(t, "edge") {
		p.i++
		attrs, err := p.attrList()
		if err != nil {
			return err
		}
		if len(attrs) == 0 {
			return p.errorf(t, "%s without attributes", t.text)
		}
		if p.keyword(t, "graph") {
			for k, v := range attrs {
				p.g.attrs[k] = v
			}
		}
		return nil
	}
	first, err := p.id()
	if err != nil {
		return err
	}
	if p.punct("=") {
		v, err := p.id()
		if err != nil {
			return err
		}
		if cluster == "" {
			p.g.attrs[first.text] = v.text
		} else {
			p.g.clusterAttrs[cluster][first.text] = v.text
		}
		return nil
	}
	if p.strict && !first.quoted {
		return p.errorf(first, "node ID %q is not quoted", first.text)
	}
	if p.punct(":") { // a port
		if _, err := p.id(); err != nil {
			return err
		}
	}
	if t := p.peek(); t.kind == tPunct && t.text == "--" {
		return p.errorf(t, "-- in a digraph")
	}
	if p.punct("->") {
		to, err := p.id()
		if err != nil {
			return err
		}
		if p.strict && !to.quoted {
			return p.errorf(to, "node ID %q is not quoted", to.text)
		}
		if t := p.peek(); t.kind == tPunct && (t.text == "->" || t.text == "--") {
			return p.errorf(t, "chains of edges are not used by the writer")
		}
		attrs, err := p.attrList()
		if err != nil {
			return err
		}
		p.g.edges = append(p.g.edges, dotEdge{from: first.text, to: to.text, attrs: attrs})
		return nil
	}
	attrs, err := p.attrList()
	if err != nil {
		return err
	}
	if p.seen[first.text] {
		return p.errorf(first, "node %q declared twice", first.text)
	}
	p.seen[first.text] = true
	p.g.nodes = append(p.g.nodes, dotNode{id: first.text, attrs: attrs, cluster: cluster})
	return nil
}

func (p *dotParser) subgraph(parent string) (string, error) {
	name := ""
	if p.keyword(p.peek(), "subgraph") {
		p.i++
		if t := p.peek(); t.kind == tID {
			name = p.next().text
		}
	}
	if !p.punct("{") {
		return "", p.errorf(p.peek(), "want { after subgraph")
	}
	if name == "" && !p.strict {
		name = fmt.Sprintf("\x00anonymous %d", len(p.g.clusterAttrs)) // DOT allows them; the writer names its own
	}
	if _, dup := p.g.clusterAttrs[name]; dup || name == "" {
		return "", p.errorf(p.peek(), "subgraph %q: no name, or a name used twice", name)
	}
	p.g.clusterParent[name] = parent
	p.g.clusterAttrs[name] = map[string]string{}
	return name, p.stmts(name)
}

// attrList parses zero or more [a=b, c=d] lists.
func (p *dotParser) attrList() (map[string]string, error) {
	attrs := map[string]string{}
	for p.punct("[") {
		for !p.punct("]") {
			k, err := p.id()
			if err != nil {
				return nil, err
			}
			if !p.punct("=") {
				return nil, p.errorf(p.peek(), "attribute %q without a value", k.text)
			}
			v, err := p.id()
			if err != nil {
				return nil, err
			}
			if _, dup := attrs[k.text]; dup {
				return nil, p.errorf(k, "attribute %q set twice", k.text)
			}
			if v.kind == tHTML {
				attrs[k.text] = "<" + v.text + ">"
			} else {
				attrs[k.text] = v.text
			}
			if !p.punct(",") {
				p.punct(";")
			}
		}
	}
	return attrs, nil
}

// checkHTML checks that an HTML string is well-formed XML.
func checkHTML(s string) error {
	d := xml.NewDecoder(strings.NewReader("<x>" + s + "</x>"))
	d.Strict = true
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return nil
			}
			return err
		}
	}
}

// unescString reads a quoted label as Graphviz shows it: "\\" is a
// backslash, "\n" a line break, "&amp;" an ampersand. (The lexer has
// already turned \" into ".)
func unescString(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], `\\`):
			b.WriteByte('\\')
			i++
		case strings.HasPrefix(s[i:], `\n`):
			b.WriteByte('\n')
			i++
		case strings.HasPrefix(s[i:], "&amp;"):
			b.WriteByte('&')
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
