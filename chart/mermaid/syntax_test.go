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
// writer uses, with texts the lexer reads whole, IDs Mermaid accepts, and
// every state a transition names declared first.

// mmdDiagram is a parsed diagram, its texts decoded.
type mmdDiagram struct {
	title       string
	direction   string
	states      []mmdState
	notes       map[string]string // state ID → note
	transitions []mmdTransition
	classes     map[string]string // state ID → class
	classDefs   map[string]string
}

type mmdState struct {
	id     string
	name   string   // from `state "name" as id`; "" for a choice
	choice bool     // `state id <<choice>>`
	descr  []string // `id : descr` lines
}

type mmdTransition struct{ from, to, label string }

func (d *mmdDiagram) state(id string) (*mmdState, bool) {
	for i := range d.states {
		if d.states[i].id == id {
			return &d.states[i], true
		}
	}
	return nil, false
}

var (
	reIdent      = `[A-Za-z_][A-Za-z0-9_]*`
	reStateAs    = regexp.MustCompile(`^    state "([^"\n]*)" as (` + reIdent + `)$`)
	reChoice     = regexp.MustCompile(`^    state (` + reIdent + `) <<choice>>$`)
	reDescr      = regexp.MustCompile(`^    (` + reIdent + `) : ([^:\n;]+)$`)
	reNote       = regexp.MustCompile(`^    note right of (` + reIdent + `) : ([^:\n;]+)$`)
	reTransition = regexp.MustCompile(`^    (` + reIdent + `|\[\*\]) --> (` + reIdent + `|\[\*\])(?: : ([^:\n;]+))?$`)
	reClassDef   = regexp.MustCompile(`^    classDef (\w+) ([^\n#;]+)$`)
	reClass      = regexp.MustCompile(`^    class (` + reIdent + `) (\w+)$`)
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
	d := &mmdDiagram{notes: map[string]string{}, classes: map[string]string{}, classDefs: map[string]string{}}
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
		if line == "    direction LR" {
			d.direction = "LR"
			continue
		}
		if reDirection.MatchString(line) {
			return nil, errf("read as a direction statement")
		}
		if line == "" {
			continue
		}
		var err error
		switch m := match(line, reStateAs, reChoice, reDescr, reNote, reTransition, reClassDef, reClass); {
		case m.re == reStateAs:
			if strings.Contains(m.sub[1], "<<") || strings.Contains(m.sub[1], "[[") {
				return nil, errf("a type in a state statement")
			}
			if err = declare(m.sub[2]); err == nil {
				err = checkText(m.sub[1])
			}
			d.states = append(d.states, mmdState{id: m.sub[2], name: decode(m.sub[1])})
		case m.re == reChoice:
			err = declare(m.sub[1])
			d.states = append(d.states, mmdState{id: m.sub[1], choice: true})
		case m.re == reDescr:
			s, ok := d.state(m.sub[1])
			if !ok {
				return nil, errf("description of an undeclared state")
			}
			err = checkText(m.sub[2])
			s.descr = append(s.descr, decode(m.sub[2]))
		case m.re == reNote:
			if !declared[m.sub[1]] {
				return nil, errf("note on an undeclared state")
			}
			err = checkText(m.sub[2])
			d.notes[m.sub[1]] = decode(m.sub[2])
		case m.re == reTransition:
			for _, id := range m.sub[1:3] {
				if id != "[*]" && !declared[id] {
					return nil, errf("transition names undeclared state %s", id)
				}
			}
			if m.sub[3] != "" {
				err = checkText(m.sub[3])
			}
			d.transitions = append(d.transitions, mmdTransition{m.sub[1], m.sub[2], decode(m.sub[3])})
		case m.re == reClassDef:
			d.classDefs[m.sub[1]] = m.sub[2]
		case m.re == reClass:
			if !declared[m.sub[1]] || d.classDefs[m.sub[2]] == "" {
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
