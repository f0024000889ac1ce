package chart

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
)

func TestJSONRoundTrip(t *testing.T) {
	c := &Chart{
		Name: "goomba", File: "goomba.vdx", Chain: true, ChainLimit: 7, Fallback: "walk",
		Stencil: &Stencil{Name: "goomba", Version: "1",
			Masters: Masters{State: "State", Transition: "Transition"},
			Tests:   []Test{{Name: "hit"}, {Name: "stomp", Message: true}},
			Actions: []Property{{Name: "Anim", Values: []string{"walk", "die"}}}},
		States: []State{
			{ID: "1", Name: "walk", Initial: true, Entry: []Action{{Property: "Anim", Value: "walk", Pos: diag.Pos{Line: 3}}}, Box: &Box{X: 1, Y: 2, W: 3, H: 4}},
			{ID: "2", Name: "dead", Kind: EndState, Pos: diag.Pos{File: "goomba.vdx", Page: "Page-1", Shape: "2"}},
		},
		Transitions: []Transition{
			{ID: "3", From: "1", Order: 1, Test: "stomp", Target: Target{Kind: ToState, State: "2"}, Push: true},
			{ID: "4", AnyState: true, Order: 1, Test: "hit", Value: "x", Target: Target{Kind: ToReturn}},
			{ID: "5", From: "2", Order: 1, Label: "a [b] / c", Event: "a", Guard: "b", Action: "c", Target: Target{Kind: ToFinal}},
		},
		Diagnostics: diag.List{{Severity: diag.Warning, Message: "visio: x", Hint: "y"}},
	}
	got := roundTrip(t, c)
	c.Stencil.File = "c.json"
	if !reflect.DeepEqual(got, c) {
		t.Errorf("ReadJSON(WriteJSON(c)) =\n%+v\nwant\n%+v", got, c)
	}
}

// TestJSONFallback writes a chart's Fallback in the chart file, and
// reads it back; a chart without one writes no "fallback", and where the
// drawing named it (FallbackPos) is not kept.
func TestJSONFallback(t *testing.T) {
	for _, tt := range []struct{ fallback, want string }{
		{"", ""},
		{"idle", `  "fallback": "idle",` + "\n"},
		{"walk left", `  "fallback": "walk left",` + "\n"},
		{`say "hi" <é>`, `  "fallback": "say \"hi\" \u003cé\u003e",` + "\n"},
	} {
		t.Run(tt.fallback, func(t *testing.T) {
			c := &Chart{Name: "m", Fallback: tt.fallback, FallbackPos: diag.Pos{File: "m.drawio", Line: 2, Col: 3},
				States: []State{{ID: "1", Name: tt.fallback, Initial: true}}, Transitions: []Transition{}}
			var buf bytes.Buffer
			if err := WriteJSON(&buf, c); err != nil {
				t.Fatal(err)
			}
			if tt.want == "" && strings.Contains(buf.String(), `"fallback"`) || !strings.Contains(buf.String(), tt.want) {
				t.Errorf("WriteJSON(Fallback %q) =\n%s\nwant it to hold %q", tt.fallback, buf.String(), tt.want)
			}
			got, err := ReadJSON(&buf, "c.json")
			if err != nil {
				t.Fatal(err)
			}
			if got.Fallback != tt.fallback || got.FallbackPos != (diag.Pos{}) {
				t.Errorf("ReadJSON(WriteJSON(c)): Fallback, FallbackPos = %q, %v, want %q, none", got.Fallback, got.FallbackPos, tt.fallback)
			}
		})
	}
}

// TestChartKeys checks that ReadJSON knows every field WriteJSON writes:
// the keys of each object of a chart file are the JSON names of the
// fields of its Go type.
func TestChartKeys(t *testing.T) {
	var walk func(path string, typ reflect.Type)
	walk = func(path string, typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			if typ.Kind() == reflect.Slice {
				path += "[]"
			}
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || path == "stencil" || strings.HasPrefix(path, "stencil.") {
			return
		}
		var want []string
		for _, f := range reflect.VisibleFields(typ) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			want = append(want, name)
			walk(strings.TrimPrefix(path+"."+name, "."), f.Type)
		}
		if got := chartKeys[path]; !reflect.DeepEqual(got, want) {
			t.Errorf("chartKeys[%q] = %q, want the fields of %s: %q", path, got, typ, want)
		}
	}
	walk("", reflect.TypeFor[Chart]())
}

// roundTrip writes c with WriteJSON and reads it back with ReadJSON, as
// c.json.
func roundTrip(t *testing.T, c *Chart) *Chart {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	got, err := ReadJSON(&buf, "c.json")
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestReadJSONErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{``, "c.json: chart: not a chart: a chart file is a JSON object"},
		{`[1]`, "c.json: chart: not a chart"},
		{`{"states": [`, "c.json:1:13: chart: malformed JSON: unexpected end of file"},
		{`{"name": "x"}`, "c.json:1:1: chart: not a chart: the object has no \"states\""},
		{`{"states": [{"id": "a", "colour": "red"}]}`, "c.json:1:25: chart: unknown key \"states[0].colour\""},
		{`{"states": [{"id": 7}]}`, "c.json:1:14: chart: chart states.id: want a JSON string, not number"},
		{`{"states": [], "fallback": 7}`, "c.json:1:16: chart: chart fallback: want a JSON string, not number"},
		{`{"states": [{"id": "a", "kind": "weird"}]}`, "c.json:1:13: chart: unknown state kind \"weird\""},
		{"{\"states\": [],\n \"stencil\": {\"name\": \"\"}}", "c.json:2:14: chart: stencil: name is missing"},
	} {
		_, err := ReadJSON(strings.NewReader(tt.in), "c.json")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ReadJSON(%q) = %v, want %s...", tt.in, err, tt.want)
		}
	}
}
