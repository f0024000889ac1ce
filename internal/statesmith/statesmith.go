// Package statesmith reads StateSmith's drawings, their labels and the
// chart read from them, for the importers of draw.io and yEd files
// (chart/drawio, chart/graphml), which both read StateSmith's conventions.
//
// StateSmith (github.com/StateSmith/StateSmith) generates code from state
// machines drawn in draw.io and yEd. Its drawings give meaning to text:
// a vertex's label says what the vertex is ("$initial_state", "$choice",
// "$H", "entry : 1", "$NOTES ..."), and a state's label or an edge's label
// holds behaviours, one per line, each "order. triggers [guard] / action
// via entry|exit point". This package parses both the way StateSmith's
// grammar (StateSmithLabelGrammar.g4) does, without its code expansion:
// what a behaviour's action does is code for StateSmith's generator, kept
// as text.
//
// Both importers read a StateSmith drawing in the same steps, each a
// function of this package: a vertex's label says what it is
// ([ParseVertex]; [IsKeyword] tells a drawing made for StateSmith); an
// edge's label stands for transitions ([Reading.Edge], which reads it
// with [EdgeTransitions]), whose events are folded to one spelling each
// ([Events]); a state's behaviour holds the handlers that stop events
// ([Reading.State], with [StateHandlers]). Once the chart is read, still
// nested, [Reading.Finish] resolves the transitions through entry and
// exit points ([ResolveVias]), makes those into an $initial_state go
// where it leads ([EnterStarts]), and reports what a chart cannot say
// ([CheckStarts], [CheckHandlers]); then [Reading.Hierarchy] reads what
// StateSmith draws of a statechart's structure: the $ORTHO regions the
// importer recorded, whose states become parallel ([Regions]), the $H
// history vertices, which the $HC vertices it recorded may make deep
// ([Histories]), and the local transitions into a state from around it
// ([LocalTransitions]); it checks the transitions of the $H vertices as
// package internal/importer checks any history's, and the states
// entered without an $initial_state ([CheckEntries]). A plain diagram's
// nesting the importer checks with importer.CheckNesting instead.
//
// What StateSmith refuses, or a chart cannot say, is returned as a
// Problem of package internal/importer, a value the importer words as its
// diagnostic, with its prefix and its style of hints
// (importer.AppendDiagnostics): the reading goes on.
//
// # Sections
//
//   - Vertices: [ParseVertex], [Vertex], [Kind], [IsKeyword],
//     [IsStateName], [SetsTriggerMap].
//   - Behaviours: [ParseBehaviors], [Behavior].
//   - Edges: [EdgeTransitions], [Transition], [SourceKind], [Events].
//   - States: [StateHandlers], [Handler].
//   - Charts: [Reading], whose [Reading.State] and [Reading.Edge] read
//     and [Reading.Finish] runs [ResolveVias] ([Point], [Via]),
//     [EnterStarts], [CheckStarts] and [CheckHandlers].
//   - Structure: [Reading.Hierarchy], which runs [Regions] ([Region]),
//     [Histories] ([Continue]), [LocalTransitions] and [CheckEntries].
package statesmith

import (
	"strings"
	"unicode"
)

// Kind is what a vertex of a StateSmith drawing is, by its label.
type Kind uint8

const (
	State           Kind = iota // a state: its first line is its name
	Initial                     // "$initial_state": the initial pseudo-state
	Choice                      // "$choice" or "$choice : label": a choice point
	EntryPoint                  // "entry : label": an entry point of the state around it
	ExitPoint                   // "exit : label": an exit point of the state around it
	History                     // "$H": the history of the state around it
	HistoryContinue             // "$HC": carries the history around its state into it
	Notes                       // "$NOTES ...": a comment, with whatever is drawn in it
	Config                      // "$CONFIG : name": a setting of StateSmith's generator
	RenderConfig                // "$RenderConfig": settings of StateSmith's generator
	Machine                     // "$STATEMACHINE : Name": the machine itself
	Ortho                       // "$ORTHO order : NAME": an orthogonal region of the state around it
	ParentAlias                 // "$PARENT_ALIAS": stands for the state around it
)

var kindNames = [...]string{
	State: "state", Initial: "$initial_state", Choice: "$choice", EntryPoint: "entry point",
	ExitPoint: "exit point", History: "$H", HistoryContinue: "$HC", Notes: "$NOTES",
	Config: "$CONFIG", RenderConfig: "$RenderConfig", Machine: "$STATEMACHINE",
	Ortho: "$ORTHO", ParentAlias: "$PARENT_ALIAS",
}

// String returns the keyword of the kind, or "state", "entry point" and
// "exit point".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// Vertex is what a vertex's label says.
type Vertex struct {
	Kind Kind

	// Name is a state's name (its first line, white space normalised);
	// the machine's name after "$STATEMACHINE :"; a point's label after
	// "entry :", "exit :" or "$choice :"; a setting's name after
	// "$CONFIG :". Empty for the other kinds.
	Name string

	// Behaviour is the text of a state's (or the machine's, or an
	// $ORTHO region's) label below its first line, trimmed: its
	// behaviours as written.
	Behaviour string

	// Order is an $ORTHO region's order, the number written between
	// "$ORTHO" and the colon ("2" in "$ORTHO 2 : ARMS"), or "" when there
	// is none; not checked. Empty for the other kinds.
	Order string
}

// ParseVertex reads a vertex's label (plain text, lines separated by
// '\n'). Keywords are matched as StateSmith matches them, and case does
// not matter for any of them. A label that is no keyword is a state.
func ParseVertex(label string) Vertex {
	label = strings.TrimSpace(strings.ReplaceAll(label, "\u00a0", " "))
	first, rest, _ := strings.Cut(label, "\n")
	first = strings.TrimSpace(first)
	rest = strings.TrimSpace(rest)
	lower := strings.ToLower(first)
	whole := strings.Join(strings.Fields(label), " ")
	switch {
	case keywordWord(lower, "$notes"):
		return Vertex{Kind: Notes}
	case keywordWord(lower, "$config"):
		return Vertex{Kind: Config, Name: afterColon(first[len("$config"):])}
	case lower == "$renderconfig":
		return Vertex{Kind: RenderConfig}
	case keywordWord(lower, "$statemachine"):
		return Vertex{Kind: Machine, Name: afterColon(first[len("$statemachine"):]), Behaviour: rest}
	case strings.HasPrefix(lower, "$ortho"):
		order, name, _ := strings.Cut(first[len("$ortho"):], ":")
		if r := lower[len("$ortho"):]; r != "" && (r[0] == '_' || r[0] >= 'a' && r[0] <= 'z') {
			order = "" // "$ortho_state", StateSmith's old keyword
		}
		return Vertex{Kind: Ortho, Name: strings.Join(strings.Fields(name), " "), Order: strings.TrimSpace(order), Behaviour: rest}
	case keywordWord(strings.ToLower(whole), "$choice"):
		return Vertex{Kind: Choice, Name: afterColon(strings.TrimSpace(label)[len("$choice"):])}
	case lower == "$initial_state" || lower == "$initial":
		return Vertex{Kind: Initial}
	case lower == "$h":
		return Vertex{Kind: History}
	case lower == "$hc":
		return Vertex{Kind: HistoryContinue}
	case lower == "$parent_alias":
		return Vertex{Kind: ParentAlias}
	}
	if name, ok := point(whole, "entry"); ok {
		return Vertex{Kind: EntryPoint, Name: name}
	}
	if name, ok := point(whole, "exit"); ok {
		return Vertex{Kind: ExitPoint, Name: name}
	}
	return Vertex{Kind: State, Name: strings.Join(strings.Fields(first), " "), Behaviour: rest}
}

// IsKeyword reports whether a vertex's label is one of StateSmith's
// keywords (any kind but State): a sign that the drawing was made for
// StateSmith. An importer asks it of every label until one is: a label
// that does not start with '$' (every keyword but the points' does), nor
// with an 'e' ("entry :", "exit :"), is told without [ParseVertex] and
// without allocating.
func IsKeyword(label string) bool {
	s := strings.TrimLeftFunc(label, unicode.IsSpace)
	if s == "" || s[0] != '$' && s[0] != 'e' && s[0] != 'E' {
		return false
	}
	return ParseVertex(label).Kind != State
}

// keywordWord reports whether s starts with the keyword kw followed by
// nothing, white space or a colon.
func keywordWord(s, kw string) bool {
	if !strings.HasPrefix(s, kw) {
		return false
	}
	rest := s[len(kw):]
	return rest == "" || rest[0] == ':' || unicode.IsSpace(rune(rest[0]))
}

// afterColon returns what follows the colon of " : name", trimmed, or "".
func afterColon(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, ":") {
		return ""
	}
	return strings.Join(strings.Fields(s[1:]), " ")
}

// point reads "entry : label" (or "exit : label") as a whole label.
func point(whole, kw string) (string, bool) {
	if len(whole) < len(kw) || !strings.EqualFold(whole[:len(kw)], kw) {
		return "", false
	}
	rest := strings.TrimSpace(whole[len(kw):])
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	name := strings.TrimSpace(rest[1:])
	if name == "" || strings.ContainsAny(name, " \t") {
		return "", false
	}
	return name, true
}

// Behavior is one behaviour of a state's or an edge's label, such as
// "2. EV1 [count > 3] / count = 0; via exit done", each part optional.
// On an edge, a behaviour is a transition to the edge's target; on a
// state, it is what the state does on an event (enter, exit, do, or the
// event's name) without leaving.
type Behavior struct {
	// Text is the behaviour as written, trimmed.
	Text string

	// Order is the number before the first dot, as written ("2", "1.5"),
	// or "" when there is none: behaviours are tried by increasing order,
	// those without one after those with one.
	Order string

	// Triggers are the events the behaviour is taken on ("EV1", or those
	// of a list "(EV1, EV2)"); none means StateSmith's "do" event, the
	// machine's update. "else" is not among them: Else is set instead.
	Triggers []string

	// Guard is the condition between brackets, trimmed, or "".
	Guard string

	// Action is the code after the slash, trimmed (without its braces
	// when braced), or "".
	Action string

	// ViaEntry and ViaExit name the entry point of the target, and the
	// exit point of the source, that an edge's transition goes through
	// ("via entry 1", "via exit done"), or "".
	ViaEntry, ViaExit string

	// Else marks the "else" behaviour: tried after all others. It is
	// written as a trigger, "else" (ElseTrigger is then set too), or as
	// the guard "[else]", which may follow triggers ("EV [else]").
	Else, ElseTrigger bool

	// Err, when not "", says why the behaviour does not follow
	// StateSmith's grammar; the other fields hold what could be read.
	Err string
}

// ParseBehaviors splits a label into its behaviours: one per line, a line
// break inside brackets, braces, parentheses or quotes being part of the
// behaviour, and a line that starts with "via" continuing the previous
// behaviour. Empty lines are skipped.
func ParseBehaviors(text string) []Behavior {
	text = strings.ReplaceAll(text, "\u00a0", " ") // HTML's &nbsp;
	var out []Behavior
	for _, line := range splitLines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(out) > 0 && isVia(line) {
			prev := &out[len(out)-1]
			*prev = parseBehavior(prev.Text + " " + line)
			continue
		}
		out = append(out, parseBehavior(line))
	}
	return out
}

func isVia(line string) bool {
	return strings.HasPrefix(line, "via ") || strings.HasPrefix(line, "via\t")
}

// splitLines splits text at its line breaks that are outside brackets,
// braces, parentheses and quoted strings.
func splitLines(text string) []string {
	var lines []string
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = closeQuote(text, i)
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		case (c == '\n' || c == '\r') && depth == 0:
			lines = append(lines, text[start:i])
			start = i + 1
		}
	}
	return append(lines, text[start:])
}

// closeQuote returns the index of the quote that closes the string
// opening at s[i] (a quote character), a backslash escaping the character
// after it, or len(s) when none does.
func closeQuote(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return len(s)
}

// parseBehavior reads one behaviour.
func parseBehavior(s string) Behavior {
	b := Behavior{Text: s}
	p := &parser{s: s}
	p.space()
	b.Order = p.order()
	p.space()
	switch {
	case p.peek() == '(':
		b.Triggers = p.triggerList(&b)
	case isIdentStart(p.peek()):
		save := p.i
		id := p.ident()
		if id == "via" && p.peekSpace() {
			p.i = save // "via exit X" alone
		} else {
			b.Triggers = []string{id}
		}
	}
	p.space()
	if p.peek() == '[' {
		g, ok := p.balanced('[', ']')
		if !ok {
			b.Err = "its guard's '[' is not closed by ']'"
		}
		b.Guard = strings.TrimSpace(g)
	}
	p.space()
	if p.peek() == '/' {
		p.i++
		p.space()
		if p.peek() == '{' {
			a, ok := p.balanced('{', '}')
			if !ok && b.Err == "" {
				b.Err = "its action's '{' is not closed by '}'"
			}
			b.Action = strings.TrimSpace(a)
		} else {
			b.Action = strings.TrimSpace(p.until(" via "))
		}
	}
	for {
		p.space()
		if !strings.HasPrefix(p.s[p.i:], "via") {
			break
		}
		save := p.i
		p.i += 3
		if !p.peekSpace() {
			p.i = save
			break
		}
		p.space()
		kind := p.ident()
		p.space()
		label := p.pointLabel()
		switch {
		case kind == "entry" && label != "":
			b.ViaEntry = label
		case kind == "exit" && label != "":
			b.ViaExit = label
		default:
			if b.Err == "" {
				b.Err = `"via" must be followed by "entry" or "exit" and a point's label`
			}
		}
	}
	p.space()
	if p.i < len(p.s) && b.Err == "" {
		b.Err = "unexpected text " + quoteShort(p.s[p.i:])
	}
	for i := 0; i < len(b.Triggers); i++ {
		if strings.EqualFold(b.Triggers[i], "else") {
			b.Else, b.ElseTrigger = true, true
			b.Triggers = append(b.Triggers[:i], b.Triggers[i+1:]...)
			i--
		}
	}
	if strings.EqualFold(b.Guard, "else") {
		b.Else, b.Guard = true, ""
	}
	if len(b.Triggers) == 0 {
		b.Triggers = nil
	}
	return b
}

func quoteShort(s string) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > 30 {
		return `"` + string(r[:27]) + `..."`
	}
	return `"` + string(r) + `"`
}

type parser struct {
	s string
	i int
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) peekSpace() bool {
	c := p.peek()
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// order reads "2." or "1.5." and returns the number, or "" (and reads
// nothing) when the behaviour has no order.
func (p *parser) order() string {
	digits := func(j int) int {
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		return j
	}
	j := digits(p.i)
	if j == p.i {
		return ""
	}
	end := j
	if j+1 < len(p.s) && p.s[j] == '.' && p.s[j+1] >= '0' && p.s[j+1] <= '9' {
		k := digits(j + 1)
		if k2 := skipSpace(p.s, k); k2 < len(p.s) && p.s[k2] == '.' {
			n := p.s[p.i:k]
			p.i = k2 + 1
			return n
		}
	}
	if k := skipSpace(p.s, end); k < len(p.s) && p.s[k] == '.' {
		n := p.s[p.i:end]
		p.i = k + 1
		return n
	}
	return ""
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func isIdentStart(c byte) bool {
	return c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func (p *parser) ident() string {
	start := p.i
	if !isIdentStart(p.peek()) {
		return ""
	}
	for p.i < len(p.s) && isIdentPart(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// pointLabel reads a point's label: digits and an identifier, or an
// identifier.
func (p *parser) pointLabel() string {
	start := p.i
	for p.i < len(p.s) && isIdentPart(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// triggerList reads "(EV1, EV2)".
func (p *parser) triggerList(b *Behavior) []string {
	inner, ok := p.balanced('(', ')')
	if !ok {
		b.Err = "its trigger list's '(' is not closed by ')'"
	}
	var out []string
	for _, t := range strings.Split(inner, ",") {
		t = strings.TrimSpace(t)
		if t == "" || !isIdent(t) {
			if b.Err == "" {
				b.Err = "its trigger list holds " + quoteShort(t) + ", which is not an event's name"
			}
			continue
		}
		out = append(out, t)
	}
	return out
}

func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentPart(s[i]) {
			return false
		}
	}
	return true
}

// balanced reads from an opening character to its matching closing one
// and returns what is between them; ok is false when the text ends first
// (what was read is returned).
func (p *parser) balanced(open, close byte) (string, bool) {
	start := p.i + 1
	depth := 0
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			p.i = closeQuote(p.s, p.i)
		case c == open:
			depth++
		case c == close:
			depth--
			if depth == 0 {
				inner := p.s[start:p.i]
				p.i++
				return inner, true
			}
		}
	}
	p.i = len(p.s)
	return p.s[min(start, len(p.s)):], false
}

// until reads up to the first occurrence of sep outside brackets and
// quotes, or to the end.
func (p *parser) until(sep string) string {
	start := p.i
	depth := 0
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			p.i = closeQuote(p.s, p.i)
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth <= 0 && strings.HasPrefix(p.s[p.i:], sep):
			return p.s[start:p.i]
		}
	}
	p.i = len(p.s)
	return p.s[start:]
}
