package mermaid_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds a checker of the Mermaid the writer emits, after the
// lexer of Mermaid's state diagram (packages/mermaid/src/diagrams/state/
// parser/stateDiagram.jison): each line must be one of the statements the
// writer uses, indented by its depth in composite states, with texts the
// lexer reads whole, IDs Mermaid accepts, braces balanced, every state a
// transition names declared first, and inside a composite state only its
// children named (Mermaid 11 moves a state into the last composite state
// whose text names it), and no description under a composite state's name
// (Mermaid throws "Group nodes can only have label").

// mmdDiagram is a parsed diagram, its texts decoded.
type mmdDiagram struct {
	title       string
	direction   string
	states      []mmdState
	notes       map[string]string // state ID → note
	transitions []mmdTransition
	classes     map[string]string // state ID → class
	classDefs   map[string]string
	regions     map[string]int // composite state ID → its number of "--" separators
}

type mmdState struct {
	id        string
	name      string   // from `state "name" as id`; "" for a choice
	choice    bool     // `state id <<choice>>`
	bar       string   // "fork" or "join" for `state id <<fork>>`, `state id <<join>>`
	descr     []string // `id : descr` lines
	parent    string   // the composite state it is declared in, or ""
	composite bool     // `state "name" as id {`
}

type mmdTransition struct {
	from, to, label string
	doc             string // the composite state it is written in, or ""
}

func (d *mmdDiagram) state(id string) (*mmdState, bool) {
	for i := range d.states {
		if d.states[i].id == id {
			return &d.states[i], true
		}
	}
	return nil, false
}

var (
	reIdent = `[A-Za-z_][A-Za-z0-9_]*`

	// Statements, their indentation removed.
	reStateAs    = regexp.MustCompile(`^state "([^"\n]*)" as (` + reIdent + `)$`)
	reComposite  = regexp.MustCompile(`^state "([^"\n]*)" as (` + reIdent + `) \{$`)
	reChoice     = regexp.MustCompile(`^state (` + reIdent + `) <<(choice|fork|join)>>$`)
	reDescr      = regexp.MustCompile(`^(` + reIdent + `) : ([^:\n;]+)$`)
	reNote       = regexp.MustCompile(`^note right of (` + reIdent + `) : ([^:\n;]+)$`)
	reTransition = regexp.MustCompile(`^(` + reIdent + `|\[\*\]) --> (` + reIdent + `|\[\*\])(?: : ([^:\n;]+))?$`)
	reClassDef   = regexp.MustCompile(`^classDef (\w+) ([^\n#;]+)$`)
	reClass      = regexp.MustCompile(`^class (` + reIdent + `) (\w+)$`)
	// What the lexer reads anywhere in a line (JavaScript's \s).
	reDirection = regexp.MustCompile(`(?i)direction[\s\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+(TB|BT|RL|LR)`)
	// Mermaid's first pass over a diagram replaces each entity code by a
	// placeholder without # or ;, so the lexer never sees them.
	reEntity      = regexp.MustCompile(`#\w+;`)
	rePlaceholder = regexp.MustCompile("\x01([^\x02]*)\x02")
)

// parseMermaid parses and checks src.
func parseMermaid(src string) (*mmdDiagram, error) {
	if !utf8.ValidString(src) {
		return nil, fmt.Errorf("not UTF-8")
	}
	if !strings.HasSuffix(src, "\n") {
		return nil, fmt.Errorf("no final line break")
	}
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	d := &mmdDiagram{notes: map[string]string{}, classes: map[string]string{}, classDefs: map[string]string{}, regions: map[string]int{}}
	if len(lines) >= 3 && lines[0] == "---" {
		title, ok := strings.CutPrefix(lines[1], "title: ")
		if !ok || lines[2] != "---" {
			return nil, fmt.Errorf("front matter %q", lines[:3])
		}
		t, err := strconv.Unquote(title)
		if err != nil {
			return nil, fmt.Errorf("title %s: %v", title, err)
		}
		d.title = t
		lines = lines[3:]
	}
	if len(lines) == 0 || lines[0] != "stateDiagram-v2" {
		return nil, fmt.Errorf("no stateDiagram-v2 line")
	}
	declared := map[string]bool{}
	declare := func(id string) error {
		if declared[id] {
			return fmt.Errorf("state %s declared twice", id)
		}
		declared[id] = true
		return nil
	}
	var open []string // the composite states the line is in, outermost first
	doc := func() string {
		if len(open) == 0 {
			return ""
		}
		return open[len(open)-1]
	}
	for n, line := range lines[1:] {
		errf := func(format string, args ...any) error {
			return fmt.Errorf("line %d %q: %s", n+2, line, fmt.Sprintf(format, args...))
		}
		if strings.ContainsAny(line, "\x01\x02") {
			return nil, errf("placeholder bytes")
		}
		line = reEntity.ReplaceAllStringFunc(line, func(m string) string { return "\x01" + m[1:len(m)-1] + "\x02" })
		for _, r := range line {
			if r == '\x01' || r == '\x02' {
				continue
			}
			if r == '\r' || r == 0x2028 || r == 0x2029 || r < 0x20 {
				return nil, errf("control character %U", r)
			}
		}
		if strings.Contains(line, "%%") {
			return nil, errf("a comment")
		}
		if line == "    direction LR" && len(open) == 0 {
			d.direction = "LR"
			continue
		}
		if reDirection.MatchString(line) {
			return nil, errf("read as a direction statement")
		}
		if line == "" {
			continue
		}
		stmt := strings.TrimLeft(line, " ")
		depth := len(open) + 1
		if stmt == "}" {
			depth--
		}
		if len(line)-len(stmt) != 4*depth || depth == 0 {
			return nil, errf("indented %d spaces in %d composite states", len(line)-len(stmt), len(open))
		}
		if stmt == "}" {
			open = open[:len(open)-1]
			continue
		}
		if stmt == "--" {
			if len(open) == 0 {
				return nil, errf("-- outside a composite state")
			}
			d.regions[doc()]++
			continue
		}
		var err error
		switch m := match(stmt, reStateAs, reComposite, reChoice, reDescr, reNote, reTransition, reClassDef, reClass); {
		case m.re == reComposite:
			if err = declare(m.sub[2]); err == nil {
				err = checkText(m.sub[1])
			}
			d.states = append(d.states, mmdState{id: m.sub[2], name: decode(m.sub[1]), parent: doc(), composite: true})
			open = append(open, m.sub[2])
		case m.re == reStateAs:
			if strings.Contains(m.sub[1], "<<") || strings.Contains(m.sub[1], "[[") {
				return nil, errf("a type in a state statement")
			}
			if err = declare(m.sub[2]); err == nil {
				err = checkText(m.sub[1])
			}
			d.states = append(d.states, mmdState{id: m.sub[2], name: decode(m.sub[1]), parent: doc()})
		case m.re == reChoice:
			err = declare(m.sub[1])
			s := mmdState{id: m.sub[1], parent: doc()}
			if m.sub[2] == "choice" {
				s.choice = true
			} else {
				s.bar = m.sub[2]
			}
			d.states = append(d.states, s)
		case m.re == reDescr:
			s, ok := d.state(m.sub[1])
			if !ok {
				return nil, errf("description of an undeclared state")
			}
			if s.composite {
				return nil, errf("description of a composite state")
			}
			err = checkText(m.sub[2])
			s.descr = append(s.descr, decode(m.sub[2]))
		case m.re == reNote:
			if s, ok := d.state(m.sub[1]); !ok || s.parent != doc() {
				return nil, errf("note on an undeclared state, or on one of another composite state")
			}
			err = checkText(m.sub[2])
			d.notes[m.sub[1]] = decode(m.sub[2])
		case m.re == reTransition:
			for _, id := range m.sub[1:3] {
				if id != "[*]" && !declared[id] {
					return nil, errf("transition names undeclared state %s", id)
				}
				if s, ok := d.state(id); ok && doc() != "" && s.parent != doc() {
					return nil, errf("transition in composite state %s names %s, of %q: Mermaid would move it", doc(), id, s.parent)
				}
			}
			if m.sub[3] != "" {
				err = checkText(m.sub[3])
			}
			d.transitions = append(d.transitions, mmdTransition{m.sub[1], m.sub[2], decode(m.sub[3]), doc()})
		case m.re == reClassDef:
			d.classDefs[m.sub[1]] = m.sub[2]
		case m.re == reClass:
			if len(open) > 0 || !declared[m.sub[1]] || d.classDefs[m.sub[2]] == "" {
				return nil, errf("class of an undeclared state, or undefined class")
			}
			d.classes[m.sub[1]] = m.sub[2]
		default:
			return nil, errf("not a statement the writer emits")
		}
		if err != nil {
			return nil, errf("%v", err)
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("composite state %s not closed", doc())
	}
	return d, nil
}

type matched struct {
	re  *regexp.Regexp
	sub []string
}

func match(line string, res ...*regexp.Regexp) matched {
	for _, re := range res {
		if sub := re.FindStringSubmatch(line); sub != nil {
			return matched{re, sub}
		}
	}
	return matched{}
}

// checkText checks a text after Mermaid's entity pass: every entity code
// numeric, no other "#", and no HTML but <br>.
func checkText(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("blank text")
	}
	for _, m := range rePlaceholder.FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(m[1]); err != nil {
			return fmt.Errorf("text %q: entity code %q is not a number", s, m[1])
		}
	}
	rest := rePlaceholder.ReplaceAllString(s, "")
	if strings.ContainsAny(rest, "#&\"`") {
		return fmt.Errorf("text %q: # & \" or ` outside an entity code", s)
	}
	if strings.ContainsAny(strings.ReplaceAll(rest, "<br>", ""), "<>") {
		return fmt.Errorf("text %q: HTML", s)
	}
	return nil
}

// decode reads a text as Mermaid shows it: entity codes as characters,
// <br> as a line break.
func decode(s string) string {
	s = strings.ReplaceAll(s, "<br>", "\n")
	return rePlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(m[1 : len(m)-1])
		return string(rune(n))
	})
}
