package chart

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxJSONDepth bounds how deeply a chart file or a stencil file nests. A
// chart nests 6 levels deep (the chart, its states, a state, its entry
// actions, an action, its position), a stencil 4; deeper files are not
// charts, and the bound keeps the reading of hostile files linear.
const maxJSONDepth = 64

// maxJSONProblems bounds the problems reported for one file; one more
// diagnostic says how many were left out.
const maxJSONProblems = 100

// jsonProblem is a problem found in a JSON file, at a byte offset.
type jsonProblem struct {
	off       int
	msg, hint string
	err       error // a sentinel, or nil
}

// jsonSchema describes the objects of a JSON document for jsonScan: the
// keys an object may have, and the schema of each key's value.
type jsonSchema struct {
	name   string                 // the path, array indices left out: "states[].pos"
	keys   []string               // the keys of the object, in order; nil: not checked (at most 64)
	kids   map[string]*jsonSchema // the schema of each key's value
	elem   *jsonSchema            // the schema of an array's elements
	report bool                   // jsonScan.visit is told about each value of this schema
}

// newJSONSchema builds the schema of a document from the keys of each of
// its objects, by path with the array indices left out (chartKeys).
func newJSONSchema(paths map[string][]string) *jsonSchema {
	nodes := make(map[string]*jsonSchema)
	var node func(path string) *jsonSchema
	node = func(path string) *jsonSchema {
		if n, ok := nodes[path]; ok {
			return n
		}
		n := &jsonSchema{name: path}
		nodes[path] = n
		if keys, ok := paths[path]; ok {
			if len(keys) > 64 {
				panic("chart: a JSON object of more than 64 keys: " + path)
			}
			n.keys = keys
			n.kids = make(map[string]*jsonSchema, len(keys))
			for _, k := range keys {
				child := k
				if path != "" {
					child = path + "." + k
				}
				n.kids[k] = node(child)
			}
		}
		for p := range paths {
			if strings.HasPrefix(p, path+"[]") && path != "" {
				n.elem = node(path + "[]")
				break
			}
		}
		return n
	}
	return node("")
}

// at returns the schema at path ("states[]"), which must exist.
func (s *jsonSchema) at(path string) *jsonSchema {
	for path != "" {
		if rest, ok := strings.CutPrefix(path, "[]"); ok {
			s, path = s.elem, strings.TrimPrefix(rest, ".")
			continue
		}
		i := strings.IndexAny(path, ".[")
		if i < 0 {
			i = len(path)
		}
		s, path = s.kids[path[:i]], strings.TrimPrefix(path[i:], ".")
	}
	if s == nil {
		panic("chart: no such JSON schema")
	}
	return s
}

// jsonScan reads a JSON document through once, without building it:
// it checks its syntax, its depth (maxJSONDepth) and, against a schema,
// its keys (unknown and repeated ones), and tells visit where each value
// of the schemas marked report is. It costs time linear in the document
// and memory in proportion to its depth; it never builds a string per key
// or per path (only the messages of problems do).
type jsonScan struct {
	data     []byte
	what     string // "chart" or "stencil", in messages
	problems []jsonProblem
	more     int  // problems left out after maxJSONProblems
	stop     bool // a syntax error, a limit or visit stopped the scan
	depth    int
	path     []jsonSeg // from the root to the value being read, for messages

	// visit, when not nil, is called after each value of a schema marked
	// report: keyOff is where its key starts (-1 for an array element),
	// [start, end) the value. A problem it returns stops the scan.
	visit func(s *jsonSchema, keyOff, start, end int) *jsonProblem
}

// jsonSeg is a step of a path: a member's key, or an element's index.
type jsonSeg struct {
	key   []byte // nil for an array element
	index int
}

// scan reads the document against root. It reports whether it read it
// through: false after a syntax error, a limit, or visit stopping it.
func (sc *jsonScan) scan(root *jsonSchema) bool {
	off := sc.space(0)
	end, ok := sc.value(off, root, -1)
	if ok {
		if end = sc.space(end); end < len(sc.data) {
			sc.syntax(end, "unexpected data after the %s's closing '}'", sc.what)
		}
	}
	if sc.more > 0 { // after the first maxJSONProblems, before a fatal one
		sc.problems = slices.Insert(sc.problems, maxJSONProblems, jsonProblem{off: sc.problems[maxJSONProblems-1].off,
			msg: "and " + pluralC(sc.more, "more problem"), hint: "fix the problems above and read the file again"})
	}
	return !sc.stop
}

// problem adds a problem, up to maxJSONProblems.
func (sc *jsonScan) problem(p jsonProblem) {
	if len(sc.problems) >= maxJSONProblems {
		sc.more++
		return
	}
	sc.problems = append(sc.problems, p)
}

// fatal adds a problem that stops the scan, even past maxJSONProblems.
func (sc *jsonScan) fatal(p jsonProblem) {
	sc.problems = append(sc.problems, p)
	sc.stop = true
}

// syntax adds a syntax error and stops the scan.
func (sc *jsonScan) syntax(off int, format string, args ...any) {
	sc.fatal(jsonProblem{off: off, msg: "malformed JSON: " + fmt.Sprintf(format, args...)})
}

// unexpected reports the byte at off (or the end of the file) as a syntax
// error found while looking for context.
func (sc *jsonScan) unexpected(off int, context string) {
	if off >= len(sc.data) {
		sc.syntax(len(sc.data), "unexpected end of file")
		return
	}
	sc.syntax(off, "invalid character %s %s", quoteChar(sc.data[off]), context)
}

// quoteChar quotes a byte as encoding/json's messages do.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	if c >= 0x80 {
		s = strconv.Quote(string([]byte{c}))
	}
	return "'" + s[1:len(s)-1] + "'"
}

// space skips white space from off.
func (sc *jsonScan) space(off int) int {
	for off < len(sc.data) {
		switch sc.data[off] {
		case ' ', '\t', '\r', '\n':
			off++
		default:
			return off
		}
	}
	return off
}

// value reads the value at off, of schema s (nil: not checked), and
// returns where it ends.
func (sc *jsonScan) value(off int, s *jsonSchema, keyOff int) (end int, ok bool) {
	if off >= len(sc.data) {
		sc.unexpected(off, "")
		return 0, false
	}
	switch c := sc.data[off]; {
	case c == '{':
		end, ok = sc.object(off, s)
	case c == '[':
		end, ok = sc.array(off, s)
	case c == '"':
		end, _, ok = sc.str(off)
	case c == '-' || c >= '0' && c <= '9':
		end, ok = sc.number(off)
	case c == 't':
		end, ok = sc.literal(off, "true")
	case c == 'f':
		end, ok = sc.literal(off, "false")
	case c == 'n':
		end, ok = sc.literal(off, "null")
	default:
		sc.unexpected(off, "looking for beginning of value")
		return 0, false
	}
	if ok && s != nil && s.report && sc.visit != nil && !sc.stop {
		if p := sc.visit(s, keyOff, off, end); p != nil {
			sc.fatal(*p)
		}
	}
	return end, ok && !sc.stop
}

// enter counts a level of nesting at off, and refuses one too many.
func (sc *jsonScan) enter(off int) bool {
	sc.depth++
	if sc.depth > maxJSONDepth {
		sc.fatal(jsonProblem{off: off, err: ErrLimit,
			msg:  fmt.Sprintf("the file nests more than %d levels deep", maxJSONDepth),
			hint: fmt.Sprintf("a %s file nests a few levels deep (a chart 6, a stencil 4); is this the right file?", sc.what)})
		return false
	}
	return true
}

func (sc *jsonScan) object(off int, s *jsonSchema) (int, bool) {
	if !sc.enter(off) {
		return 0, false
	}
	defer func() { sc.depth-- }()
	var seen uint64 // the keys of s seen, by index
	off = sc.space(off + 1)
	if off < len(sc.data) && sc.data[off] == '}' {
		return off + 1, true
	}
	for {
		if off >= len(sc.data) || sc.data[off] != '"' {
			sc.unexpected(off, "looking for beginning of object key string")
			return 0, false
		}
		keyOff := off
		end, esc, ok := sc.str(off)
		if !ok {
			return 0, false
		}
		key := sc.data[off+1 : end-1]
		if esc {
			var k string
			_ = json.Unmarshal(sc.data[off:end], &k) // well formed: str checked it
			key = []byte(k)
		}
		if off = sc.space(end); off >= len(sc.data) || sc.data[off] != ':' {
			sc.unexpected(off, "after object key")
			return 0, false
		}
		off = sc.space(off + 1)
		var child *jsonSchema
		sc.path = append(sc.path, jsonSeg{key: key})
		if s != nil && s.keys != nil {
			i := len(s.keys) - 1
			for i >= 0 && s.keys[i] != string(key) {
				i--
			}
			switch {
			case i >= 0 && seen&(1<<i) == 0:
				seen |= 1 << i
				child = s.kids[s.keys[i]]
			case len(sc.problems) >= maxJSONProblems:
				sc.more++ // counted, not described
			case i < 0:
				sc.problem(jsonProblem{off: keyOff, msg: fmt.Sprintf("unknown key %q", sc.pathString()),
					hint: "the keys here are " + strings.Join(s.keys, ", ")})
			default:
				sc.problem(jsonProblem{off: keyOff, msg: fmt.Sprintf("key %q is repeated", sc.pathString()), hint: "remove one of them"})
			}
		}
		end, ok = sc.value(off, child, keyOff)
		sc.path = sc.path[:len(sc.path)-1]
		if !ok {
			return 0, false
		}
		var more bool
		if off, more, ok = sc.next(end, '}', "after object key:value pair"); !more {
			return off, ok
		}
	}
}

func (sc *jsonScan) array(off int, s *jsonSchema) (int, bool) {
	if !sc.enter(off) {
		return 0, false
	}
	defer func() { sc.depth-- }()
	var elem *jsonSchema
	if s != nil {
		elem = s.elem
	}
	off = sc.space(off + 1)
	if off < len(sc.data) && sc.data[off] == ']' {
		return off + 1, true
	}
	for i := 0; ; i++ {
		sc.path = append(sc.path, jsonSeg{index: i})
		end, ok := sc.value(off, elem, -1)
		sc.path = sc.path[:len(sc.path)-1]
		if !ok {
			return 0, false
		}
		var more bool
		if off, more, ok = sc.next(end, ']', "after array element"); !more {
			return off, ok
		}
	}
}

// next reads what follows the member or element of an object or array
// that ends at end: a comma, then it returns where the next one starts
// and more; or the container's closing byte close, then where the
// container ends. Anything else is a syntax error, found context.
func (sc *jsonScan) next(end int, close byte, context string) (off int, more, ok bool) {
	off = sc.space(end)
	if off < len(sc.data) {
		switch sc.data[off] {
		case ',':
			return sc.space(off + 1), true, true
		case close:
			return off + 1, false, true
		}
	}
	sc.unexpected(off, context)
	return 0, false, false
}

// str reads the string at off; esc says whether it has escapes.
func (sc *jsonScan) str(off int) (end int, esc, ok bool) {
	d := sc.data
	for i := off + 1; i < len(d); {
		switch c := d[i]; {
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(d) {
				sc.unexpected(len(d), "")
				return 0, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(d) {
						sc.unexpected(k, "")
						return 0, false, false
					}
					if !isHex(d[k]) {
						sc.unexpected(k, `in \u hexadecimal character escape`)
						return 0, false, false
					}
				}
				i += 6
			default:
				sc.unexpected(i+1, "in string escape code")
				return 0, false, false
			}
		case c < 0x20:
			sc.unexpected(i, "in string literal")
			return 0, false, false
		default:
			i++
		}
	}
	sc.unexpected(len(d), "")
	return 0, false, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads the number at off.
func (sc *jsonScan) number(off int) (int, bool) {
	d, i := sc.data, off
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		sc.unexpected(i, "in numeric literal")
		return 0, false
	}
	if i < len(d) && d[i] == '.' {
		if i++; i >= len(d) || !isDigit(d[i]) {
			sc.unexpected(i, "after decimal point in numeric literal")
			return 0, false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		if i++; i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			sc.unexpected(i, "in exponent of numeric literal")
			return 0, false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	return i, true
}

// literal reads true, false or null at off.
func (sc *jsonScan) literal(off int, word string) (int, bool) {
	for k := 1; k < len(word); k++ {
		if off+k >= len(sc.data) || sc.data[off+k] != word[k] {
			sc.unexpected(off+k, fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k])))
			return 0, false
		}
	}
	return off + len(word), true
}

// pathString renders the path to the value being read for a message:
// "states[2].colour", each key cut to 40 bytes.
func (sc *jsonScan) pathString() string {
	var b strings.Builder
	for i, seg := range sc.path {
		if seg.key == nil {
			b.WriteString("[" + strconv.Itoa(seg.index) + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		k := seg.key
		if len(k) > 40 {
			b.Write(k[:37])
			b.WriteString("...")
			continue
		}
		b.Write(k)
	}
	return b.String()
}

// The functions below read documents that jsonScan found well formed.

// skipValue returns where the value at off ends.
func skipValue(d []byte, off int) int {
	switch d[off] {
	case '"':
		return skipString(d, off)
	case '{', '[':
		depth := 0
		for i := off; i < len(d); i++ {
			switch d[i] {
			case '"':
				i = skipString(d, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(d)
	}
	i := off
	for i < len(d) && !strings.ContainsRune(",]} \t\r\n", rune(d[i])) {
		i++
	}
	return i
}

// skipString returns where the string at off ends.
func skipString(d []byte, off int) int {
	for i := off + 1; i < len(d); i++ {
		switch d[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(d)
}

// skipSpace skips white space, commas and colons.
func skipSpace(d []byte, off int) int {
	for off < len(d) && strings.IndexByte(" \t\r\n,:", d[off]) >= 0 {
		off++
	}
	return off
}

// keyAt returns the key at off, unquoted, and where it ends.
func keyAt(d []byte, off int) (string, int) {
	end := skipString(d, off)
	raw := d[off+1 : end-1]
	if slices.Contains(raw, '\\') {
		var k string
		_ = json.Unmarshal(d[off:end], &k)
		return k, end
	}
	return string(raw), end
}

// eachChild calls fn for each member (with its key and where the key
// starts) or element (with its index, key "") of the object or array at
// off, with where its value starts, and returns where the container
// ends. fn returns where the value ends, or -1 to have it skipped.
func eachChild(d []byte, off int, fn func(key string, index, keyOff, valOff int) int) int {
	open := d[off]
	off = skipSpace(d, off+1)
	for i := 0; off < len(d) && d[off] != '}' && d[off] != ']'; i++ {
		key, keyOff := "", off
		if open == '{' {
			key, off = keyAt(d, off)
			off = skipSpace(d, off)
		}
		end := fn(key, i, keyOff, off)
		if end < 0 {
			end = skipValue(d, off)
		}
		off = skipSpace(d, end)
	}
	return min(off+1, len(d))
}

// jsonOffsets finds where each of paths ("tests[2].name", relative to the
// value at off) starts in a well-formed document: for a member, its key;
// for an array element, its value; "" is the value at off. Paths not
// found are left out. It reads the document once, going only into the
// values on the way to a path.
func jsonOffsets(d []byte, off int, paths []string) map[string]int {
	on := make(map[string]bool) // the paths and the paths to them
	for _, p := range paths {
		on[p] = true
		for i := range len(p) {
			if p[i] == '.' || p[i] == '[' {
				on[p[:i]] = true
			}
		}
	}
	found := make(map[string]int)
	var walk func(path string, off int) int
	walk = func(path string, off int) int {
		if d[off] != '{' && d[off] != '[' {
			return -1
		}
		return eachChild(d, off, func(key string, index, keyOff, valOff int) int {
			child := path + "[" + strconv.Itoa(index) + "]"
			at := valOff
			if d[off] == '{' {
				child, at = key, keyOff
				if path != "" {
					child = path + "." + key
				}
			}
			if !on[child] {
				return -1
			}
			found[child] = at
			return walk(child, valOff)
		})
	}
	found[""] = off
	walk("", off)
	return found
}

// jsonFieldOffset finds where the member field (encoding/json's path,
// "tests.message", without array indices) that ends at end starts in the
// well-formed value at off: the last of its keys whose path is field once
// the indices are removed, starting before end.
func jsonFieldOffset(d []byte, off int, field string, end int) (int, bool) {
	best := -1
	var walk func(path string, off int) int
	walk = func(path string, off int) int {
		if d[off] != '{' && d[off] != '[' {
			return -1
		}
		return eachChild(d, off, func(key string, _, keyOff, valOff int) int {
			child := path
			if d[off] == '{' {
				child = key
				if path != "" {
					child = path + "." + key
				}
				if child == field && keyOff <= end && keyOff > best {
					best = keyOff
				}
			}
			if d[off] == '{' && !strings.HasPrefix(field, child+".") {
				return -1
			}
			return walk(child, valOff)
		})
	}
	walk("", off)
	return best, best >= 0
}
