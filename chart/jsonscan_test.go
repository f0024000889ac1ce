package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/diag"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestJSONDepth checks that chart and stencil files nested 100,000 deep
// are refused at the 65th level, in linear time and memory (a path per
// level made them quadratic: 272 MB for 10,000 levels).
func TestJSONDepth(t *testing.T) {
	const n = 100000
	for _, tt := range []struct {
		name, head, open, close, tail string
		read                          func([]byte) error
		want                          string
	}{
		{"chart arrays", `{"states": `, "[", "]", "}", readChart, "c.json:1:75: chart: the file nests more than 64 levels deep"},
		{"chart objects", `{"states": [], "stencil": {"masters": {"state": `, `{"a":`, "}", "}}}", readChart, "c.json:1:"},
		{"chart values", `{"name": `, `[{"x": `, "}]", "}", readChart, "c.json:1:"},
		{"stencil", `{"tests": `, "[", "]", "}", readStencil, "s.json:1:74: chart: stencil: the file nests more than 64 levels deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.head + strings.Repeat(tt.open, n) + strings.Repeat(tt.close, n) + tt.tail)
			var err error
			start := time.Now()
			alloc := allocated(func() { err = tt.read(data) })
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("reading %d levels took %v", n, d)
			}
			if alloc > 4*uint64(len(data))+1<<20 {
				t.Errorf("reading %d levels (%d bytes) allocated %d bytes", n, len(data), alloc)
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), "nests more than 64 levels deep") || !errors.Is(err, ErrLimit) {
				t.Errorf("reading %d levels: %v, want %s...", n, err, tt.want)
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 || !strings.Contains(l[0].Hint, "is this the right file?") {
				t.Errorf("reading %d levels: diagnostics %#v, want one whose hint asks whether it is the right file", n, l)
			}
		})
	}
	// 64 levels are read: a chart nests 6.
	data := `{"states": [], "name": ` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`
	if err := readChart([]byte(data)); err == nil || !strings.Contains(err.Error(), "want a JSON string, not array") {
		t.Errorf("reading 64 levels: %v, want a type error", err)
	}
}

func readChart(data []byte) error {
	_, err := ReadJSON(bytes.NewReader(data), "c.json")
	return err
}

func readStencil(data []byte) error {
	_, err := ReadStencil(bytes.NewReader(data), "s.json")
	return err
}

// TestJSONSyntax checks that jsonScan takes the documents encoding/json
// takes, and explains the others as encoding/json's decoder does (or
// more precisely), at the offending byte (the decoder gives the start of
// the value).
func TestJSONSyntax(t *testing.T) {
	for _, in := range []string{
		`{}`, ` {"a": [1, -2.5e+3, 0, 0.1, 1E9, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9y"]} `,
		`{"a":{"b":{}}, "c": [[], [{}]]}`, "{\"\xff\": \"\xfe\"}", `{"\u0041": 1}`, `"x"`, `1`, `{"a": -0}`, `{"a": 1e-0}`,
		`{`, `{"a"`, `{"a":`, `{"a": 1`, `{"a": 1,}`, `{"a" 1}`, `{a: 1}`, `{"a": [1,]}`, `{"a": [1 2]}`,
		`{"a": 01}`, `{"a": -}`, `{"a": 1.}`, `{"a": 1e}`, `{"a": .5}`, `{"a": +1}`, `{"a": tru}`, `{"a": nul}`, `{"a": True}`,
		`{"a": "x`, `{"a": "\x"}`, `{"a": "\u12"}`, `{"a": "\u12g4"}`, "{\"a\": \"\x01\"}", `{"a": "\`,
		`{} {}`, `{} x`, `[`, `]`, ``, ` `, `{"a": 1}}`, `{"a": [}`, `{"a": {]}`,
	} {
		sc := jsonScan{data: []byte(in), what: "chart"}
		ok := sc.scan(nil)
		if ok != json.Valid([]byte(in)) {
			t.Errorf("scan(%q) = %v (%v), json.Valid = %v", in, ok, sc.problems, !ok)
			continue
		}
		if ok {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(in))
		var err error
		for err == nil {
			_, err = dec.Token()
		}
		var se *json.SyntaxError
		p := sc.problems[0]
		switch {
		case strings.Contains(p.msg, "unexpected data after the chart's closing '}'"):
			var v any
			first := json.NewDecoder(strings.NewReader(in))
			_ = first.Decode(&v)
			if rest := in[first.InputOffset():]; p.off != len(in)-len(strings.TrimLeft(rest, " ")) {
				t.Errorf("scan(%q) = %d: %s, want the offset of %q", in, p.off, p.msg, strings.TrimLeft(rest, " "))
			}
		case errors.As(err, &se):
			if want := "malformed JSON: " + se.Error(); !strings.HasPrefix(p.msg, want) || p.off < int(dec.InputOffset()) {
				t.Errorf("scan(%q) = %d: %s, want %s at %d or after", in, p.off, p.msg, want, dec.InputOffset())
			}
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			if p.msg != "malformed JSON: unexpected end of file" || p.off != len(in) {
				t.Errorf("scan(%q) = %d: %s, want the end of the file", in, p.off, p.msg)
			}
		default:
			t.Errorf("scan(%q) = %d: %s; the decoder's error %v is not compared", in, p.off, p.msg, err)
		}
	}
}

// TestReadJSONLimits checks each limit of a chart file.
func TestReadJSONLimits(t *testing.T) {
	// chart writes a chart file of states states of actions entry
	// actions each, transitions transitions and diags diagnostics.
	chart := func(states, transitions, actions, diags int) string {
		var b strings.Builder
		b.WriteString(`{"states": [`)
		for i := range states {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`{"id": "s` + strconv.Itoa(i) + `", "entry": [` + strings.TrimSuffix(strings.Repeat(`{"property": "p"}, `, actions), ", ") + `]}`)
		}
		b.WriteString(`], "transitions": [`)
		for i := range transitions {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`{"id": "t` + strconv.Itoa(i) + `", "from": "s0", "target": {"kind": "final"}}`)
		}
		b.WriteString(`], "diagnostics": [`)
		for i := range diags {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`{"message": "x"}`)
		}
		b.WriteString("]}")
		return b.String()
	}
	for _, tt := range []struct {
		name   string
		in     string
		opt    ReadOptions
		want   string // "" for no error
		marker string // the want's position is that of the fourth marker
	}{
		{"within", chart(3, 3, 1, 3), ReadOptions{MaxElements: 3, MaxTransitions: 3}, "", ""},
		{"states", chart(4, 0, 0, 0), ReadOptions{MaxElements: 3}, `chart: the chart has more than 3 states`, `{"id": "s`},
		{"transitions", chart(1, 4, 0, 0), ReadOptions{MaxTransitions: 3}, `chart: the chart has more than 3 transitions`, `{"id": "t`},
		{"actions", chart(2, 0, 2, 0), ReadOptions{MaxElements: 3}, `chart: the chart has more than 3 entry actions`, `{"property"`},
		{"diagnostics", chart(1, 0, 0, 4), ReadOptions{MaxElements: 3}, `chart: the chart has more than 3 diagnostics`, `{"message"`},
		{"size", chart(3, 0, 0, 0), ReadOptions{MaxSize: 100}, `c.json: chart: the chart file is larger than 100 bytes`, ""},
		{"stencil", `{"states": [], "stencil": {"name": "` + strings.Repeat("x", 17<<20) + `"}}`, ReadOptions{}, `c.json:1:16: chart: the chart's stencil is larger than 16 MiB`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.File = "c.json"
			c, err := readJSON(strings.NewReader(tt.in), tt.opt)
			if tt.want == "" {
				if err != nil || c == nil {
					t.Errorf("readJSON = %v", err)
				}
				return
			}
			if tt.marker != "" {
				off := 0
				for range 4 {
					off += strings.Index(tt.in[off:], tt.marker) + 1
				}
				tt.want = "c.json:1:" + strconv.Itoa(off) + ": " + tt.want
			}
			if err == nil || c != nil || err.Error() != tt.want {
				t.Fatalf("readJSON = %v, want %s", err, tt.want)
			}
			if l := err.(diag.List); len(l) != 1 || !errors.Is(l[0], ErrLimit) || l[0].Hint == "" {
				t.Errorf("readJSON = %v with hint %q, want one error wrapping ErrLimit with a hint", l, l[0].Hint)
			}
		})
	}
	_, err := readJSON(strings.NewReader(chart(4, 0, 0, 0)), ReadOptions{File: "c.json", MaxElements: 3})
	if l := err.(diag.List); !strings.Contains(l[0].Hint, "ReadOptions.MaxElements") {
		t.Errorf("hint %q, want ReadOptions.MaxElements in it", l[0].Hint)
	}
}

// TestReadJSONProblems checks that a file of many problems gives the
// first 100 and a count of the others.
func TestReadJSONProblems(t *testing.T) {
	in := `{"states": [` + strings.Repeat(`{"colour": 1}, `, 1000) + `{}]}`
	_, err := ReadJSON(strings.NewReader(in), "c.json")
	l, _ := err.(diag.List)
	if len(l) != 101 || !strings.HasPrefix(l[100].Message, "chart: and 900 more problems") || l[99].Message != `chart: unknown key "states[99].colour"` {
		t.Errorf("ReadJSON(1,000 unknown keys) = %d diagnostics, the last %v", len(l), l[len(l)-1])
	}
}

// TestReadJSONPositions checks where ReadJSON reports the values of the
// wrong type, now that it decodes the chart member by member.
func TestReadJSONPositions(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"name": 5, "states": []}`, `c.json:1:2: chart: chart name: want a JSON string, not number`},
		{`{"states": 5}`, `c.json:1:2: chart: chart states: want a JSON array, not number`},
		{`{"states": [{}, 7]}`, `c.json:1:17: chart: chart states: want a JSON object, not number`},
		{"{\"states\": [{\"id\": \"a\"},\n {\"id\": \"b\", \"entry\": [{}, {\"property\": 5}]}]}", `c.json:2:29: chart: chart states.entry.property: want a JSON string, not number`},
		{`{"states": [], "transitions": [{"target": {"kind": 1}}]}`, `c.json:1:44: chart: chart transitions.target.kind: want a JSON uint8, not number`},
		{`{"states": [], "transitions": [{"target": {"kind": "up"}}]}`, `c.json:1:32: chart: unknown target kind "up"`},
		{`{"states": [], "diagnostics": [{"severity": "bad"}]}`, `c.json:1:32: chart: unknown severity "bad"`},
		{`{"states": [], "stencil": {"name": "s", "tests": [{"name": "t", "message": 1}]}}`, `c.json:1:65: chart: chart stencil.tests.message: want a JSON boolean (true or false), not number`},
		{`{"states": [], "stencil": {"name": "s", "masters": {"state": "S"}, "tests": [{"name": "t"}]}}`, `c.json:1:16: chart: stencil: the transition master is missing`},
		{`{"states": [], "stencil": {"name": "", "masters": {"state": "S", "transition": "T"}, "tests": []}}`, `c.json:1:28: chart: stencil: name is missing (and 1 more)`},
	} {
		_, err := ReadJSON(strings.NewReader(tt.in), "c.json")
		if err == nil || err.Error() != tt.want {
			t.Errorf("ReadJSON(%s) = %v, want %s", tt.in, err, tt.want)
		}
	}
}

// TestReadJSONNested checks that a chart file whose states nest keeps its
// nesting (package compile runs it as a statechart), and reads back the
// same.
func TestReadJSONNested(t *testing.T) {
	c := nest("S working - i", "S red working i", "S yellow working", "S broken -",
		"T next red 1 yellow", "T fail working 1 broken", "T fix broken 1 working")
	got := roundTrip(t, c)
	if s := summary(got); s != "working* red*^working yellow^working broken | next:red.1>yellow fail:working.1>broken fix:broken.1>working" {
		t.Errorf("ReadJSON(nested) = %s", s)
	}
	if len(got.Diagnostics) != 0 {
		t.Errorf("ReadJSON(nested) diagnostics %v, want none", got.Diagnostics)
	}
	// A parent that is no state is compile's to report.
	got, err := ReadJSON(strings.NewReader(`{"states": [{"id": "a", "initial": true}, {"id": "b", "parent": "x"}]}`), "c.json")
	if err != nil || got == nil || got.States[1].Parent != "x" {
		t.Errorf("ReadJSON(unknown parent) = %v, %v; want the chart as written", got, err)
	}
}

// fill sets every field of v that JSON writes to a value that is not
// zero, with the strings that need escaping.
func fill(v reflect.Value, seed int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strconv.Itoa(seed) + "\"\\<>&\u2028\x01\t\xff é")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(int64(seed + 1))
	case reflect.Uint8:
		v.SetUint(1)
	case reflect.Float64:
		v.SetFloat([]float64{1.5e-7, 3, -0.1, 1e21, 123456.789}[seed%5])
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), seed+1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), seed+i+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), seed+i)
			}
		}
	}
}

// TestWriteJSONMarshalIndent checks that WriteJSON writes what
// json.MarshalIndent does, byte for byte: for charts with every field
// set, none set, and the importers' golden charts. (A field added to the
// chart's types that this fails on needs jsonWriter.value taught its
// kind.)
func TestWriteJSONMarshalIndent(t *testing.T) {
	full := new(Chart)
	fill(reflect.ValueOf(full).Elem(), 0)
	for i := range full.States {
		full.States[i].Box.X = float64(i) * 1e-9
	}
	charts := map[string]*Chart{
		"full":  full,
		"zero":  {},
		"nil":   nil,
		"empty": {States: []State{{}}, Transitions: []Transition{{}}, Diagnostics: diag.List{{}}, Stencil: &Stencil{}},
	}
	goldens, _ := filepath.Glob("*/testdata/*.golden.json")
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		c := new(Chart)
		if err := json.Unmarshal(data, c); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		charts[g] = c
	}
	if len(goldens) < 5 {
		t.Errorf("%d golden charts, want the importers' (5 or more)", len(goldens))
	}
	for name, c := range charts {
		want, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != string(want)+"\n" {
			t.Errorf("%s: WriteJSON =\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// TestWriteJSONFloats checks numbers against encoding/json.
func TestWriteJSONFloats(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e300, -2.5e-300, 123456789.123456, 5e-324, math.MaxFloat64} {
		want, _ := json.Marshal(f)
		e := &jsonWriter{}
		e.float(f, 64)
		if string(e.b) != string(want) {
			t.Errorf("float(%v) = %s, want %s", f, e.b, want)
		}
	}
}

// countWriter counts what is written, and remembers the largest write.
type countWriter struct{ n, largest int }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

// TestWriteJSONStreams checks that WriteJSON writes a large chart in
// pieces, holding little memory: a state named by 32 MiB of '<' (each
// written as 6 bytes) and 100,000 more states.
func TestWriteJSONStreams(t *testing.T) {
	c := &Chart{States: make([]State, 100001), Transitions: []Transition{}}
	c.States[0].Name = strings.Repeat("<", 32<<20)
	for i := range c.States {
		c.States[i].ID = strconv.Itoa(i)
	}
	var w countWriter
	var err error
	alloc := allocated(func() { err = WriteJSON(&w, c) })
	if err != nil {
		t.Fatal(err)
	}
	if w.n < 6*32<<20 || w.largest > jsonChunk+1024 || alloc > 8<<20 {
		t.Errorf("WriteJSON wrote %d bytes, %d at most at once, allocating %d bytes; want writes of at most 64 KiB and 8 MiB allocated", w.n, w.largest, alloc)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

// TestWriteJSONErrors checks that what JSON cannot hold is refused before
// anything is written, and that the writer's error stops the writing.
func TestWriteJSONErrors(t *testing.T) {
	for _, c := range []*Chart{
		{States: []State{{ID: "a", Kind: 9}}},
		{States: []State{{ID: "a", Box: &Box{X: math.NaN()}}}},
		{Transitions: []Transition{{ID: "t", Target: Target{Kind: 7}}}},
		{Diagnostics: diag.List{{Severity: 5}}},
	} {
		var w countWriter
		err := WriteJSON(&w, c)
		if _, merr := json.Marshal(c); err == nil || merr == nil || w.n != 0 || !strings.HasPrefix(err.Error(), "chart: cannot write") {
			t.Errorf("WriteJSON(%+v) = %v, %d bytes written (json.Marshal: %v)", c, err, w.n, merr)
		}
	}
	w := &failWriter{}
	c := &Chart{States: make([]State, 10000)}
	if err := WriteJSON(w, c); err == nil || err.Error() != "disk full" || w.n != 1 {
		t.Errorf("WriteJSON(failing writer) = %v after %d writes, want disk full after 1", err, w.n)
	}
}

// TestReadJSONMemory checks that ReadJSON allocates a small multiple of
// the file: a chart of 300,000 transitions (the old reader allocated 40
// times a file of a million).
func TestReadJSONMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a large chart")
	}
	c := &Chart{Name: "big", States: []State{}, Transitions: make([]Transition, 0, 300000)}
	for i := range 3000 {
		c.States = append(c.States, State{ID: "s" + strconv.Itoa(i), Name: "state" + strconv.Itoa(i)})
	}
	for i := range 300000 {
		c.Transitions = append(c.Transitions, Transition{ID: "t" + strconv.Itoa(i), From: "s" + strconv.Itoa(i%3000), Order: i/3000 + 1,
			Test: "e" + strconv.Itoa(i/3000), Target: Target{State: "s" + strconv.Itoa((i+1)%3000)}, Pos: diag.Pos{File: "big.scxml", Line: i + 2}})
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	var got *Chart
	var err error
	alloc := allocated(func() { got, err = ReadJSON(&buf, "big.json") })
	if err != nil || len(got.Transitions) != 300000 {
		t.Fatalf("ReadJSON = %d transitions, %v", len(got.Transitions), err)
	}
	if alloc > 5*uint64(size) {
		t.Errorf("ReadJSON of %d MB allocated %d MB, %.1f times the file; want at most 5", size>>20, alloc>>20, float64(alloc)/float64(size))
	}
	t.Logf("ReadJSON of %d MB allocated %d MB, %.1f times the file", size>>20, alloc>>20, float64(alloc)/float64(size))
}

// TestReadJSONProblemsThenLimit checks that a limit is reported after the
// first 100 problems of a file.
func TestReadJSONProblemsThenLimit(t *testing.T) {
	in := `{"states": [` + strings.Repeat(`{"colour": 1}, `, 200) + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `]}`
	_, err := ReadJSON(strings.NewReader(in), "c.json")
	l, _ := err.(diag.List)
	if len(l) != 102 || !strings.HasPrefix(l[100].Message, "chart: and 100 more problems") || !errors.Is(l[101], ErrLimit) {
		t.Errorf("ReadJSON(200 unknown keys, then 70 levels) = %d diagnostics: %v, %v", len(l), l[100], l[len(l)-1])
	}
}

// TestReadStencilManyValues checks that a drop-list of 200,000 values is
// checked in linear time (a search for each value's twin took minutes).
func TestReadStencilManyValues(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name": "s", "masters": {"state": "S", "transition": "T"}, "tests": [{"name": "t", "values": ["v0"`)
	for i := range 200000 {
		b.WriteString(`, "v` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(`]}]}`)
	start := time.Now()
	_, err := ReadStencil(strings.NewReader(b.String()), "s.json")
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("ReadStencil of 200,000 values took %v", d)
	}
	if err == nil || !strings.HasPrefix(err.Error(), `s.json:1:102: chart: stencil: test "t" lists value "v0" twice`) {
		t.Errorf("ReadStencil = %v", err)
	}
}
