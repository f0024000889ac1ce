package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
)

// hostileJSON returns small versions of the hostile chart files: deep
// nesting, nested states, long strings, many problems.
func hostileJSON() []string {
	long := strings.Repeat(`<&>"\\\u2028é`, 1000)
	return []string{
		`{"states": ` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`,
		`{"states": [], "name": ` + strings.Repeat(`{"a": `, 70) + `1` + strings.Repeat("}", 70) + `}`,
		`{"states": [{"id": "w", "initial": true}, {"id": "r", "parent": "w", "initial": true}, {"id": "y", "parent": "w"}, {"id": "b"}],
		 "transitions": [{"id": "f", "from": "w", "order": 1, "target": {"kind": "state", "state": "b"}}, {"id": "x", "from": "b", "order": 1, "target": {"kind": "state", "state": "w"}}]}`,
		`{"states": [{"id": "a", "parent": "b"}, {"id": "b", "parent": "a"}, {"id": "c", "parent": "nowhere"}]}`,
		`{"name": "` + long + `", "states": [{"id": "` + long + `", "name": "x\u0000\ud800"}], "transitions": []}`,
		`{"states": [` + strings.Repeat(`{"colour": 1, "id": "a", "id": "b"}, `, 60) + `{}]}`,
		`{"states": [{"id": "a", "entry": [{"property": 5}]}]}`,
		`{"states": [], "stencil": {"name": "", "masters": {}, "tests": [{"name": "a;b"}, {"name": "a;b"}]}}`,
		`{"states": [{"id": "a", "box": {"x": 1e308, "y": -0, "w": 1e-7, "h": 0.1}}], "diagnostics": [{"severity": "warning", "message": "m"}]}`,
	}
}

// FuzzReadJSON checks that ReadJSON never panics, that each error renders,
// that its scanner agrees with encoding/json on what is JSON, and that
// what it reads writes back as json.MarshalIndent would and reads again
// unchanged.
func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"name":"a","states":[{"id":"1","name":"x","kind":"normal","initial":true,"pos":{}}],"transitions":[{"id":"2","from":"1","order":1,"target":{"kind":"final"},"pos":{}}]}`))
	f.Add([]byte(`{"states":[],"stencil":{"name":"s","masters":{"state":"S","transition":"T"},"tests":[{"name":"t"}]}}`))
	f.Add([]byte(`{"states":[{"id":1}]}`))
	for _, s := range hostileJSON() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := jsonScan{data: data, what: "chart"}
		if ok := sc.scan(nil); ok != json.Valid(data) && !(len(sc.problems) > 0 && errors.Is(sc.problems[0].err, ErrLimit)) {
			t.Fatalf("jsonScan = %v (%v), json.Valid = %v", ok, sc.problems, !ok)
		}
		c, err := ReadJSON(bytes.NewReader(data), "f.json")
		if err != nil {
			var l diag.List
			if c != nil || !errors.As(err, &l) || len(l) == 0 || len(l) > maxJSONProblems+2 {
				t.Fatalf("ReadJSON: chart %v, error %q", c, err)
			}
			for _, d := range l {
				if !strings.HasPrefix(d.Message, "chart: ") || d.Error() == "" {
					t.Fatalf("ReadJSON: diagnostic %q", d.Error())
				}
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, c); err != nil {
			t.Fatalf("WriteJSON: %v", err)
		}
		want, err := json.MarshalIndent(c, "", "  ")
		if err != nil || buf.String() != string(want)+"\n" {
			t.Fatalf("WriteJSON =\n%s\njson.MarshalIndent = (%v)\n%s", buf.String(), err, want)
		}
		again, err := ReadJSON(bytes.NewReader(want), "f.json")
		if err != nil {
			t.Fatalf("ReadJSON(WriteJSON(c)): %v\n%s", err, buf.String())
		}
		var buf2 bytes.Buffer
		if err := WriteJSON(&buf2, again); err != nil || buf2.String() != buf.String() {
			t.Fatalf("WriteJSON(ReadJSON(WriteJSON(c))) = (%v)\n%s\nwant\n%s", err, buf2.String(), buf.String())
		}
	})
}

// FuzzReadStencil checks that ReadStencil never panics, that each error
// renders, and that a stencil it accepts validates.
func FuzzReadStencil(f *testing.F) {
	if data, err := os.ReadFile("../examples/goomba/goomba.stencil.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"name":"s","masters":{"state":"S","transition":"T"},"tests":[{"name":"t","values":["a;b"]}]}`))
	long := strings.Repeat(`<&>"\\\u2028é`, 1000)
	for _, s := range []string{
		`{"tests": ` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`,
		`{"name": "` + long + `", "masters": {"state": "` + long + `", "transition": "T"}, "tests": [{"name": "` + long + `"}]}`,
		`{"name": "s", "masters": {"state": "S", "transition": "T"}, "tests": [` + strings.Repeat(`{"name": ""}, `, 150) + `{"name": "t", "message": "yes"}]}`,
		`{"name": "s", "mastrs": {}, "tests": [{"name": "t", "nme": 1, "name": "u", "name": "v"}]}`,
		`{"name": "s", "masters": {"state": "S", "transition": "T"}, "tests": [{"name": "t"}]} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadStencil(bytes.NewReader(data), "s.json")
		if err != nil {
			var l diag.List
			if s != nil || !errors.As(err, &l) || len(l) == 0 || len(l) > 2*(maxJSONProblems+2) {
				t.Fatalf("ReadStencil: stencil %v, error %q", s, err)
			}
			for _, d := range l {
				if !strings.HasPrefix(d.Message, "chart: ") || strings.TrimSpace(d.Error()) == "" {
					t.Fatalf("ReadStencil: diagnostic %q", d.Error())
				}
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Validate of an accepted stencil: %v", err)
		}
	})
}
