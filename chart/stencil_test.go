package chart_test

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/diag"
)

const goombaStencil = "../examples/goomba/goomba.stencil.json"

func TestLoadStencilGoomba(t *testing.T) {
	st, err := chart.LoadStencil(goombaStencil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Name != "goomba" || st.Version != "1" || st.File != goombaStencil {
		t.Errorf("LoadStencil = %q version %q file %q, want goomba version 1 from %s", st.Name, st.Version, st.File, goombaStencil)
	}
	want := chart.Masters{State: "State", Initial: "Initial State", Transition: "Transition", AnyState: "Message Handler"}
	if st.Masters != want {
		t.Errorf("Masters = %+v, want %+v", st.Masters, want)
	}
	var tests []string
	for _, x := range st.Tests {
		tests = append(tests, x.Name)
	}
	if want := []string{"hitTriggerLeft", "animationDone", "hitTriggerRight", "hitByPlayer"}; !slices.Equal(tests, want) {
		t.Errorf("Tests = %v, want %v", tests, want)
	}
	if tt, ok := st.Test("hitByPlayer"); !ok || !tt.Message {
		t.Errorf("Test(hitByPlayer) = %+v, %v, want a message", tt, ok)
	}
	if tt, ok := st.Test("hitTriggerLeft"); !ok || tt.Message {
		t.Errorf("Test(hitTriggerLeft) = %+v, %v, want a polled test", tt, ok)
	}
	if _, ok := st.Test("jump"); ok {
		t.Errorf("Test(jump) found")
	}
	if a, ok := st.Action("XMovement"); !ok || !slices.Equal(a.Values, []string{"existing", "right", "left", "death"}) {
		t.Errorf("Action(XMovement) = %+v, %v", a, ok)
	}
	if a, ok := st.Action("Animation"); !ok || !slices.Equal(a.Values, []string{"existing", "moveRight", "moveLeft", "death"}) {
		t.Errorf("Action(Animation) = %+v, %v", a, ok)
	}
	if got, want := st.PropertyNames(), (chart.Properties{Name: "Name", Test: "Test", Value: "Value", Order: "Order", Stack: "Stack", Final: "Final"}); got != want {
		t.Errorf("PropertyNames() = %+v, want %+v", got, want)
	}
	if err := st.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}

func TestStencilRole(t *testing.T) {
	st, err := chart.LoadStencil(goombaStencil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		master string
		want   chart.Role
	}{
		{"State", chart.RoleState},
		{"State.12", chart.RoleState},
		{"Initial State", chart.RoleInitial},
		{"Transition.3", chart.RoleTransition},
		{"Message Handler", chart.RoleAnyState},
		{"State.", chart.RoleNone},
		{"State.x", chart.RoleNone},
		{"state", chart.RoleNone},
		{"Dynamic connector", chart.RoleNone},
		{"", chart.RoleNone},
	} {
		if got := st.Role(tt.master); got != tt.want {
			t.Errorf("Role(%q) = %v, want %v", tt.master, got, tt.want)
		}
	}
	for _, tt := range []struct {
		masters []string
		want    bool
	}{
		{[]string{"Initial State", "State", "Transition"}, true},
		{[]string{"State"}, true},
		{[]string{"State", "Transition", "Process"}, false},
		{[]string{"Transition"}, false},
		{nil, false},
	} {
		if got := st.Matches(tt.masters); got != tt.want {
			t.Errorf("Matches(%q) = %v, want %v", tt.masters, got, tt.want)
		}
	}
}

// TestReadStencilErrors checks that each problem is reported at its line
// and column.
func TestReadStencilErrors(t *testing.T) {
	const head = `{"name": "g", "masters": {"state": "S", "transition": "T"},` + "\n"
	for _, tt := range []struct {
		name, json string
		want       []string // "line:col: text in the message"
	}{
		{"malformed", "{\n  \"name\": \"g\",\n  \"tests\": [}\n", []string{"3:13: malformed JSON"}},
		{"truncated", "{\"name\": \"g\",\n", []string{"malformed JSON: unexpected end of file"}},
		{"trailing", `{"name": "g", "masters": {"state": "S", "transition": "T"}, "tests": [{"name": "t"}]} {}`, []string{"1:87: unexpected data after"}},
		{"not an object", `[1]`, []string{"1:1: chart: stencil: want a JSON object, not array"}},
		{"unknown key", head + `"tests": [{"name": "t", "mesage": true}]}`, []string{`2:25: unknown key "tests[0].mesage"`}},
		{"repeated key", head + `"tests": [{"name": "t"}], "tests": []}`, []string{`2:27: key "tests" is repeated`, `2:27: no tests`}},
		{"wrong type", head + `"tests": [{"name": "t", "message": "yes"}]}`, []string{`2:25: stencil tests.message: want a JSON boolean`}},
		{"missing", `{"tests": [{"name": "t"}]}`, []string{"name is missing", "the state master is missing", "the transition master is missing"}},
		{"no tests", head + `"tests": []}`, []string{"2:1: chart: stencil: no tests"}},
		{"bad names", head + `"tests": [{"name": ""}, {"name": "a;b"}, {"name": " x"}, {"name": "t"}, {"name": "t"}, {"name": "u\u0007"}]}`,
			[]string{"2:12: chart: stencil: test name is empty", `2:26: test name "a;b" contains ';'`, `2:43: test name " x" has spaces`, `2:74: test "t" is listed twice`, `2:89: test name "u\a" contains a control`}},
		{"bad values", head + `"tests": [{"name": "t", "values": ["1", "1", ""]}], "actions": [{"name": "A", "values": []}, {"name": "A", "values": ["x"]}]}`,
			[]string{`2:41: test "t" lists value "1" twice`, `2:46: test "t" value is empty`, `2:79: action property "A" has no values`, `2:95: action property "A" is listed twice`}},
		{"shared master", `{"name": "g", "masters": {"state": "S", "transition": "S"}, "tests": [{"name": "t"}]}`, []string{`1:41: master "S" is both masters.state and masters.transition`}},
		{"shared property", head + `"properties": {"test": "Name"}, "tests": [{"name": "t"}], "actions": [{"name": "Value", "values": ["v"]}]}`,
			[]string{`2:16: property "Name" is both properties.name and properties.test`, `2:72: action property "Value" has the name of properties.value`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, err := chart.ReadStencil(strings.NewReader(tt.json), "s.json")
			if err == nil {
				t.Fatalf("ReadStencil(%s) = %+v, want an error", tt.json, st)
			}
			var l diag.List
			if !errors.As(err, &l) {
				t.Fatalf("ReadStencil error %T, want diag.List", err)
			}
			var got []string
			for _, d := range l {
				got = append(got, d.Error())
			}
			for _, w := range tt.want {
				pos, text, _ := strings.Cut(w, ": ")
				if !strings.Contains(pos, ":") || strings.ContainsAny(pos, " \"") {
					pos, text = "", w
				}
				found := slices.ContainsFunc(got, func(g string) bool {
					return strings.Contains(g, text) && (pos == "" || strings.HasPrefix(g, "s.json:"+pos+":"))
				})
				if !found {
					t.Errorf("ReadStencil: want %q among\n%s", w, strings.Join(got, "\n"))
				}
			}
			if len(l) != len(tt.want) {
				t.Errorf("ReadStencil: %d diagnostics, want %d:\n%s", len(l), len(tt.want), strings.Join(got, "\n"))
			}
		})
	}
}

func TestLoadStencilMissing(t *testing.T) {
	_, err := chart.LoadStencil("testdata/no-such-file.json")
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "testdata/no-such-file.json: chart: cannot read stencil: ") {
		t.Errorf("LoadStencil(missing) = %v", err)
	}
}

func TestReadStencilTooLarge(t *testing.T) {
	_, err := chart.ReadStencil(strings.NewReader(`{"name": "`+strings.Repeat("x", 17<<20)+`"}`), "big.json")
	if err == nil || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("ReadStencil(17 MiB) = %v", err)
	}
}

func TestStencilJSONRoundTrip(t *testing.T) {
	st, err := chart.LoadStencil(goombaStencil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := chart.ReadStencil(strings.NewReader(string(b)), "again.json")
	if err != nil {
		t.Fatalf("ReadStencil(Marshal(goomba)) = %v\n%s", err, b)
	}
	back.File = st.File
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Errorf("round trip:\n got %s\nwant %s", b2, b)
	}
}

func TestValidate(t *testing.T) {
	st := &chart.Stencil{Name: "x", Masters: chart.Masters{State: "S", Transition: "T"}, Tests: []chart.Test{{Name: "t"}}}
	if err := st.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
	st.Tests = append(st.Tests, chart.Test{Name: "t"})
	if err := st.Validate(); err == nil || !strings.Contains(err.Error(), `test "t" is listed twice`) {
		t.Errorf("Validate(duplicate) = %v", err)
	}
}
