package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/fsmforge/fsmforge/diag"
)

// chartKeys lists the keys each object of a chart file may have, by path
// with the array indices left out.
var chartKeys = map[string][]string{
	"":                            {"name", "file", "stencil", "chain", "chainLimit", "fallback", "statechart", "states", "transitions", "diagnostics"},
	"states[]":                    {"id", "name", "kind", "initial", "entry", "exit", "parent", "box", "pos"},
	"states[].entry[]":            actionKeys,
	"states[].entry[].pos":        posKeys,
	"states[].exit[]":             actionKeys,
	"states[].exit[].pos":         posKeys,
	"states[].box":                {"x", "y", "w", "h"},
	"states[].pos":                posKeys,
	"transitions[]":               {"id", "from", "anyState", "order", "test", "value", "label", "event", "guard", "action", "target", "also", "internal", "actions", "push", "pos"},
	"transitions[].target":        {"kind", "state"},
	"transitions[].actions[]":     actionKeys,
	"transitions[].actions[].pos": posKeys,
	"transitions[].pos":           posKeys,
	"diagnostics[]":               {"pos", "severity", "message", "hint"},
	"diagnostics[].pos":           posKeys,
	"stencil":                     stencilKeys[""],
	"stencil.masters":             stencilKeys["masters"],
	"stencil.properties":          stencilKeys["properties"],
	"stencil.tests[]":             stencilKeys["tests[]"],
	"stencil.actions[]":           stencilKeys["actions[]"],
}

// actionKeys are the keys of an Action.
var actionKeys = []string{"kind", "property", "value", "event", "delay", "timer", "guard", "pos"}

// posKeys are the keys of a Pos.
var posKeys = []string{"file", "page", "shape", "shapeName", "line", "col"}

// Schemas of the chart file and of the stencil file, with the values
// ReadJSON is told about marked.
var (
	chartSchema   = newJSONSchema(chartKeys)
	stencilSchema = newJSONSchema(stencilKeys)

	chartName        = chartSchema.at("name")
	chartFile        = chartSchema.at("file")
	chartStencil     = chartSchema.at("stencil")
	chartChain       = chartSchema.at("chain")
	chartChainLimit  = chartSchema.at("chainLimit")
	chartFallback    = chartSchema.at("fallback")
	chartStatechart  = chartSchema.at("statechart")
	chartStates      = chartSchema.at("states")
	chartTransitions = chartSchema.at("transitions")
	chartDiagnostics = chartSchema.at("diagnostics")
	chartState       = chartSchema.at("states[]")
	chartTransition  = chartSchema.at("transitions[]")
	chartDiagnostic  = chartSchema.at("diagnostics[]")
	chartAction      = chartSchema.at("states[].entry[]")

	// chartMembers are the members of a chart file, in the order ReadJSON
	// decodes them.
	chartMembers = []*jsonSchema{chartName, chartFile, chartStencil, chartChain, chartChainLimit, chartFallback, chartStatechart, chartStates, chartTransitions, chartDiagnostics}
)

func init() {
	for _, s := range chartMembers {
		s.report = true
	}
	for _, s := range []*jsonSchema{chartState, chartTransition, chartDiagnostic, chartAction} {
		s.report = true
	}
}

// LoadJSON reads the chart file at path; see [ReadJSON].
func LoadJSON(path string) (*Chart, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, diag.List{{Pos: diag.Pos{File: path}, Message: "chart: cannot read chart: " + errText(err, path), Err: err}}
	}
	defer f.Close()
	return ReadJSON(f, path)
}

// ReadJSON reads a chart written by [WriteJSON] (or by hand) from r; name
// names the file in positions. It checks the file's form, not the chart:
// malformed JSON, unknown or repeated keys, values of the wrong type or
// unknown kinds, and the embedded stencil, each with its line and column.
// Package compile checks the chart itself. The chart's File is set to name
// when the file gives none.
//
// A chart file whose states nest (a state's "parent" names another
// state) keeps its nesting: package compile runs it as a statechart.
//
// The limits of [ReadOptions], at their defaults, keep ReadJSON within
// bounds whatever the file: files over 256 MiB (DefaultMaxSize) are
// refused; so are files of more than DefaultMaxElements states,
// diagnostics or entry actions in all, or of more than
// DefaultMaxTransitions transitions, files that nest more than 64 levels
// deep (a chart file nests 6 levels) and stencils over 16 MiB. Each is an
// error wrapping [ErrLimit]. ReadJSON reads the file once to check it,
// then decodes its states and transitions one by one into slices made to
// size: it takes time linear in the file, and holds the file and the
// chart in memory, little else.
//
// The error, when not nil, is a [diag.List] list of at most 100 problems
// (then one more saying how many were left out, and the malformed JSON or
// the limit that stopped the reading, when it came after them), and the
// chart is nil.
// Diagnostics stored in the file are kept in the chart's Diagnostics and
// do not make ReadJSON fail.
func ReadJSON(r io.Reader, name string) (*Chart, error) {
	return readJSON(r, ReadOptions{File: name})
}

// readJSON is ReadJSON with the limits of opt (MaxSize, MaxElements,
// MaxTransitions), for the chart JSON format of Read.
func readJSON(r io.Reader, opt ReadOptions) (*Chart, error) {
	opt = opt.WithDefaults()
	name := opt.File
	data, err := readLimited(r, opt.MaxSize)
	if err != nil {
		return nil, diag.List{{Pos: diag.Pos{File: name}, Message: "chart: cannot read chart: " + err.Error(), Err: err}}
	}
	if int64(len(data)) > opt.MaxSize {
		return nil, diag.List{{Pos: diag.Pos{File: name}, Err: ErrLimit,
			Message: "chart: the chart file is larger than " + sizeString(opt.MaxSize), Hint: LimitHint("MaxSize")}}
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, diag.List{{Pos: diag.Pos{File: name}, Message: "chart: not a chart: a chart file is a JSON object", Hint: "Write one with \"fsmforge convert DRAWING OUT.json\"."}}
	}
	rd := &chartReader{doc: newJSONDoc(data, name), opt: opt, members: make(map[*jsonSchema]jsonSpan)}
	sc := jsonScan{data: data, what: "chart", visit: rd.visit}
	read := sc.scan(chartSchema)
	diags := rd.doc.diags(sc.problems, "chart: ")
	if !read {
		return nil, diags
	}
	if _, ok := rd.members[chartStates]; !ok {
		diags = append(diags, diag.Diagnostic{Pos: rd.doc.at(sc.space(0)), Message: "chart: not a chart: the object has no \"states\"",
			Hint: "A chart file lists states and transitions; a stencil or a table is read by other commands."})
	}
	if len(diags) > 0 {
		return nil, diags
	}
	c, d := rd.decode()
	if len(d) > 0 {
		return nil, d
	}
	return c, nil
}

// chartReader reads a chart file: jsonScan checks it and tells visit
// where its members and elements are; decode then decodes them one by
// one.
type chartReader struct {
	doc                              *jsonDoc
	opt                              ReadOptions
	members                          map[*jsonSchema]jsonSpan // the chart's members present
	states, transitions, diagnostics []jsonSpan
	actions                          int // entry actions, of all states
}

// jsonSpan is where a value is in a JSON file: [start, end), and its key
// at keyOff (-1 for an array element).
type jsonSpan struct{ keyOff, start, end int }

// visit records where the chart's members and elements are, and counts
// them against the limits.
func (rd *chartReader) visit(s *jsonSchema, keyOff, start, end int) *jsonProblem {
	limit := func(n, max int, what, field string) *jsonProblem {
		if n <= max {
			return nil
		}
		return &jsonProblem{off: start, err: ErrLimit, msg: fmt.Sprintf("the chart has more than %s %s", commas(max), what), hint: LimitHint(field)}
	}
	switch s {
	case chartState:
		rd.states = append(rd.states, jsonSpan{-1, start, end})
		return limit(len(rd.states), rd.opt.MaxElements, "states", "MaxElements")
	case chartTransition:
		rd.transitions = append(rd.transitions, jsonSpan{-1, start, end})
		return limit(len(rd.transitions), rd.opt.MaxTransitions, "transitions", "MaxTransitions")
	case chartDiagnostic:
		rd.diagnostics = append(rd.diagnostics, jsonSpan{-1, start, end})
		return limit(len(rd.diagnostics), rd.opt.MaxElements, "diagnostics", "MaxElements")
	case chartAction:
		rd.actions++
		return limit(rd.actions, rd.opt.MaxElements, "entry actions", "MaxElements")
	case chartStencil:
		if end-start > maxStencilSize {
			return &jsonProblem{off: keyOff, err: ErrLimit, msg: "the chart's stencil is larger than 16 MiB",
				hint: "a stencil lists masters, tests and drop-lists; is this the right file?"}
		}
	}
	rd.members[s] = jsonSpan{keyOff, start, end}
	return nil
}

// decode decodes the chart from the places visit recorded.
func (rd *chartReader) decode() (*Chart, diag.List) {
	doc, c := rd.doc, new(Chart)
	for _, s := range chartMembers {
		m, ok := rd.members[s]
		if !ok {
			continue
		}
		field := s.name
		var d *diag.Diagnostic
		switch s {
		case chartName:
			d = doc.unmarshal(m, "chart", field, &c.Name)
		case chartFile:
			d = doc.unmarshal(m, "chart", field, &c.File)
		case chartStencil:
			d = doc.unmarshal(m, "chart", field, &c.Stencil)
		case chartChain:
			d = doc.unmarshal(m, "chart", field, &c.Chain)
		case chartChainLimit:
			d = doc.unmarshal(m, "chart", field, &c.ChainLimit)
		case chartFallback:
			d = doc.unmarshal(m, "chart", field, &c.Fallback)
		case chartStatechart:
			d = doc.unmarshal(m, "chart", field, &c.Statechart)
		case chartStates:
			d = decodeList(doc, m, rd.states, field, &c.States)
		case chartTransitions:
			d = decodeList(doc, m, rd.transitions, field, &c.Transitions)
		case chartDiagnostics:
			d = decodeList(doc, m, rd.diagnostics, field, (*[]diag.Diagnostic)(&c.Diagnostics))
		}
		if d != nil {
			return nil, diag.List{*d}
		}
	}
	if c.File == "" {
		c.File = doc.name
	}
	if c.States == nil {
		c.States = []State{}
	}
	if c.Transitions == nil {
		c.Transitions = []Transition{}
	}
	if c.Stencil != nil {
		c.Stencil.File = doc.name
		m := rd.members[chartStencil]
		if d := doc.checkStencil(c.Stencil, m.start, m.keyOff); len(d) > 0 {
			return nil, d
		}
	}
	return c, nil
}

// decodeList decodes the array at m, whose elements are at elems, into
// *list, allocating it once; a value that is not an array is decoded
// whole, for its error.
func decodeList[T any](doc *jsonDoc, m jsonSpan, elems []jsonSpan, field string, list *[]T) *diag.Diagnostic {
	if doc.data[m.start] != '[' {
		return doc.unmarshal(m, "chart", field, list)
	}
	*list = make([]T, len(elems))
	for i, e := range elems {
		if d := doc.unmarshal(e, "chart", field, &(*list)[i]); d != nil {
			return d
		}
	}
	return nil
}

// readLimited reads r to its end, or to max+1 bytes, in a buffer of the
// file's size when r tells it (a file, a bytes.Reader or Buffer).
func readLimited(r io.Reader, max int64) ([]byte, error) {
	size := int64(512)
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			size = min(fi.Size(), max) + 1
		}
	case interface{ Len() int }:
		size = min(int64(r.Len()), max) + 1
	}
	b := make([]byte, 0, size)
	lr := io.LimitReader(r, max+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// jsonDoc is a JSON file being read: its bytes, its name, and the lines
// of its positions.
type jsonDoc struct {
	data  []byte
	name  string
	lines *lineIndex
}

func newJSONDoc(data []byte, name string) *jsonDoc {
	return &jsonDoc{data: data, name: name, lines: newLineIndex(data)}
}

// at is the position of the byte at off. Positions asked for in
// increasing order cost time linear in the file in all.
func (doc *jsonDoc) at(off int) diag.Pos {
	line, col := doc.lines.pos(off)
	return diag.Pos{File: doc.name, Line: line, Col: col}
}

// diags turns jsonScan's problems into diagnostics whose messages start
// with prefix.
func (doc *jsonDoc) diags(problems []jsonProblem, prefix string) diag.List {
	var diags diag.List
	for _, p := range problems {
		diags = append(diags, diag.Diagnostic{Pos: doc.at(p.off), Message: prefix + p.msg, Hint: p.hint, Err: p.err})
	}
	return diags
}

// unmarshal decodes the value at m into v, reporting an error at the
// value, or at the member of it that is wrong: what ("chart", "stencil")
// and field (the path of the value, indices left out: "states") name it.
func (doc *jsonDoc) unmarshal(m jsonSpan, what, field string, v any) *diag.Diagnostic {
	err := json.Unmarshal(doc.data[m.start:m.end], v)
	if err == nil {
		return nil
	}
	at := m.start
	if m.keyOff >= 0 {
		at = m.keyOff
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		msg := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(err.Error(), "json: "), "chart: "), "diag: ")
		if what != "chart" {
			msg = what + ": " + msg
		}
		return &diag.Diagnostic{Pos: doc.at(at), Message: "chart: " + msg}
	}
	if te.Field != "" {
		at = m.start + int(te.Offset)
		if off, ok := jsonFieldOffset(doc.data, m.start, te.Field, at); ok {
			at = off
		}
		field = strings.TrimPrefix(field+"."+te.Field, ".")
	}
	if field != "" {
		what += " " + field
	}
	return &diag.Diagnostic{Pos: doc.at(at), Message: fmt.Sprintf("chart: %s: want a JSON %s, not %s", what, jsonTypeName(te.Type.Kind().String()), te.Value)}
}

// checkStencil checks a stencil decoded from the value at off (its key at
// keyOff, or -1 for a stencil file), with the position of each problem.
// It reports at most maxJSONProblems of them, and one more saying how
// many it left out.
func (doc *jsonDoc) checkStencil(s *Stencil, off, keyOff int) diag.List {
	// check names where each problem is by a path, asking once for each
	// diagnostic, in order: paths[i] is where diags[i] is. Find all the
	// paths in one reading of the stencil, then the positions in file
	// order.
	var paths []string
	diags := s.check(func(path string) diag.Pos {
		paths = append(paths, path)
		return diag.Pos{}
	})
	if len(diags) > maxJSONProblems {
		more := len(diags) - maxJSONProblems
		paths = paths[:maxJSONProblems]
		diags = append(diags[:maxJSONProblems:maxJSONProblems], diag.Diagnostic{Pos: diag.Pos{File: doc.name},
			Message: "chart: stencil: and " + pluralC(more, "more problem"), Hint: "fix the problems above and read the file again"})
	}
	found := jsonOffsets(doc.data, off, paths)
	type place struct{ diag, off int }
	var places []place
	for i, path := range paths {
		o, ok := found[path]
		switch {
		case ok:
			places = append(places, place{i, o})
		case keyOff >= 0:
			places = append(places, place{i, keyOff})
		default:
			diags[i].Pos = diag.Pos{File: doc.name}
		}
	}
	slices.SortStableFunc(places, func(a, b place) int { return a.off - b.off })
	for _, p := range places {
		diags[p.diag].Pos = doc.at(p.off)
	}
	return diags
}

// sizeString renders a size in bytes for a message: "256 MiB".
func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// commas renders n with thousands separated: "1,048,576".
func commas(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
