package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Goomba drawing, its stencil and its events, as a user has them.
const (
	goombaVDX     = "../../examples/goomba/goomba.vdx"
	goombaStencil = "../../examples/goomba/goomba.stencil.json"
	goombaEvents  = "../../examples/goomba/goomba.events"
)

func TestFileCommands(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "goomba.fsmt")
	tableJSON := filepath.Join(dir, "goomba.json")
	badEvents := filepath.Join(dir, "bad.events")
	writeTestFile(t, badEvents, "3: hitTrigerLeft\n")
	backwards := filepath.Join(dir, "backwards.events")
	writeTestFile(t, backwards, "5: hitTriggerLeft\n2: hitTriggerRight\n")
	corrupt := filepath.Join(dir, "corrupt.fsmt")
	notVisio := filepath.Join(dir, "notes.vdx")
	writeTestFile(t, notVisio, "<?xml version='1.0'?><VDX/>")
	pkgDir := filepath.Join(dir, "mygame")
	if err := os.Mkdir(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "chart.txt")
	writeTestFile(t, unknown, "states")
	farEvents := filepath.Join(dir, "far.events")
	writeTestFile(t, farEvents, "3: hitTriggerLeft\n1000000000000: hitTriggerRight\n")
	longEvents := filepath.Join(dir, "long.events")
	writeTestFile(t, longEvents, "3: hitTriggerLeft\n4: "+strings.Repeat("hitTriggerRight ", 100000)+"\n")
	guarded := filepath.Join(dir, "guarded.drawio")
	writeTestFile(t, guarded, `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>`+
		`<mxCell id="s" value="" style="ellipse;shape=startState;" vertex="1" parent="1"><mxGeometry width="30" height="30" as="geometry"/></mxCell>`+
		`<mxCell id="a" value="Idle" style="rounded=1;" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`+
		`<mxCell id="b" value="Hurt" style="rounded=1;" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`+
		`<mxCell id="e0" value="" edge="1" parent="1" source="s" target="a"><mxGeometry relative="1" as="geometry"/></mxCell>`+
		`<mxCell id="e1" value="hit [hp &lt; 10]" edge="1" parent="1" source="a" target="b"><mxGeometry relative="1" as="geometry"/></mxCell>`+
		`<mxCell id="e2" value="heal" edge="1" parent="1" source="b" target="a"><mxGeometry relative="1" as="geometry"/></mxCell>`+
		`</root></mxGraphModel>`)
	badSCXML := filepath.Join(dir, "bad.scxml")
	writeTestFile(t, badSCXML, `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a"><state id="a"><transition event="go" target="nowhere"/></state></scxml>`)

	alarm := filepath.Join(dir, "alarm.scxml")
	writeTestFile(t, alarm, `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="guard">
  <state id="guard" initial="patrol">
    <state id="patrol"><transition event="alarm.heard" target="alert"/></state>
    <parallel id="alert">
      <onentry><send event="giveUp" delay="2s" id="search"/></onentry>
      <onexit><cancel sendid="search"/></onexit>
      <state id="eyes"><state id="look"/></state>
      <state id="legs" initial="walk"><state id="walk"><transition event="run" target="run"/></state><state id="run"/></state>
      <transition event="giveUp" target="patrol"/>
      <transition event="calm" target="patrol"/>
    </parallel>
  </state>
</scxml>`)
	alarmEvents := filepath.Join(dir, "alarm.events")
	writeTestFile(t, alarmEvents, "2: alarm.heard run\n5: calm\n")
	alarmOnly := filepath.Join(dir, "alarm-only.events")
	writeTestFile(t, alarmOnly, "2: alarm.heard\n")

	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string
		stderr     []string
		noStderr   bool
		afterwards func(t *testing.T)
	}{
		{name: "check", args: []string{"check", "-stencil", goombaStencil, goombaVDX}, stdout: []string{"goomba.vdx: 3 states, 5 transitions: 0 errors, 0 warnings"}, noStderr: true},
		{name: "check, flags after the file", args: []string{"check", goombaVDX, "-stencil", goombaStencil}, stdout: []string{"0 errors"}, noStderr: true},
		// Without the stencil the Goomba reads as a plain diagram (its
		// "Initial State" shape a state the machine starts in), whose loose
		// arrow is not marked final (its Final row is the stencil's); the
		// stencil beside it is suggested.
		{name: "check without the stencil", args: []string{"check", goombaVDX},
			stdout: []string{"goomba.vdx: 3 states, 5 transitions: 0 errors, 1 warning, 0 notes"},
			stderr: []string{"warning: visio: the end of the connector is glued to no state", "read as a plain state diagram", "give -stencil"}},
		{name: "check, not Visio", args: []string{"check", notVisio}, code: 1, stderr: []string{"notes.vdx:1:22: visio: this is XML but not a Visio drawing"}},
		{name: "check, unknown format", args: []string{"check", unknown}, code: 1, stderr: []string{"chart.txt: chart: not a drawing: its content is no drawing format this program reads", "hint: this program reads chart JSON (.json); draw.io (.drawio, .dio, .drawio.svg, .drawio.png, .xml); GraphML"}},
		{name: "check, no file", args: []string{"check"}, code: 2, stderr: []string{"check: no file given"}},
		{name: "check, missing stencil", args: []string{"check", "-stencil", "nope.json", goombaVDX}, code: 1, stderr: []string{"nope.json"}},
		{name: "compile", args: []string{"compile", goombaVDX, "-stencil", goombaStencil, "-o", table}, stdout: []string{"3 states, 4 tests, 2 properties: wrote", "339 bytes, binary"}, noStderr: true},
		{name: "compile json", args: []string{"compile", "-stencil", goombaStencil, "-o", tableJSON, goombaVDX}, stdout: []string{"json"}, noStderr: true,
			afterwards: func(t *testing.T) {
				b, err := os.ReadFile(tableJSON)
				if err != nil || !strings.Contains(string(b), "\n  \"name\": \"goomba\"") {
					t.Errorf("the JSON table is not indented for people: %.80q, %v", b, err)
				}
			}},
		{name: "compile, no -o", args: []string{"compile", "-stencil", goombaStencil, goombaVDX}, code: 2, stderr: []string{"give -o OUT"}},
		{name: "compile, bad format", args: []string{"compile", "-format", "xml", "-o", table, goombaVDX}, code: 2, stderr: []string{`-format "xml"`}},
		{name: "compile, two files", args: []string{"compile", "-o", table, goombaVDX, goombaVDX}, code: 2, stderr: []string{"unexpected argument"}},
		{name: "compile, errors", args: []string{"compile", "-o", filepath.Join(dir, "x.fsmt"), badSCXML}, code: 1, stderr: []string{`target "nowhere" is not the id of a state`, "fsmforge: " + badSCXML + ": 1 error"},
			afterwards: func(t *testing.T) {
				if _, err := os.Stat(filepath.Join(dir, "x.fsmt")); err == nil {
					t.Error("a failed compile wrote its output")
				}
			}},
		{name: "inspect table", args: []string{"inspect", table}, stdout: []string{`table "goomba": 3 states`, "0 walkLeft (initial): entry XMovement=left Animation=moveLeft", "hitByPlayer -> death", "animationDone -> (final)", "3 hitByPlayer (message)"}, noStderr: true},
		{name: "inspect json", args: []string{"inspect", tableJSON}, stdout: []string{"initial state walkLeft"}, noStderr: true},
		{name: "inspect drawing", args: []string{"inspect", goombaVDX, "-stencil", goombaStencil}, stdout: []string{"destinations (test × state"}, noStderr: true},
		{name: "inspect corrupt", args: []string{"inspect", corrupt}, code: 1, stderr: []string{"corrupt.fsmt: table: byte 335: CRC-32", "the file is damaged"}},
		{name: "run drawing", args: []string{"run", goombaVDX, "-stencil", goombaStencil, "-events", goombaEvents},
			stdout: []string{"tick 0: start in walkLeft: XMovement=left Animation=moveLeft", "tick 4: walkLeft -> walkRight on hitTriggerLeft: XMovement=right Animation=moveRight", "tick 13: walkLeft -> death on hitByPlayer (message)", "tick 14: done"}, noStderr: true},
		{name: "run table", args: []string{"run", "-events", goombaEvents, table}, stdout: []string{"tick 14: death -> (final) on animationDone"}, noStderr: true},
		{name: "inspect statechart", args: []string{"inspect", alarm}, noStderr: true, stdout: []string{
			"a statechart: updates run to a stable configuration", "    2 alert (parallel)\n", "entry: send giveUp after 2s as search", "exit: cancel search",
			"default -> walk", "run -> run", "giveUp -> patrol"}},
		{name: "run, trace", args: []string{"run", "-trace", "-events", alarmEvents, alarm}, noStderr: true, stdout: []string{
			`{"tick":0,"active":["patrol"]}` + "\n" +
				`{"tick":2,"event":"alarm.heard","active":["look","walk"]}` + "\n" +
				`{"tick":2,"event":"run","active":["look","run"]}` + "\n" +
				`{"tick":5,"event":"calm","active":["patrol"]}` + "\n"}},
		{name: "run, the guard", args: []string{"run", "-trace", "-events", "../../examples/guard/guard.events", "../../examples/guard/guard.scxml"}, noStderr: true, stdout: []string{
			`{"tick":20,"event":"noise","active":["aim","stand"]}`, `{"tick":70,"active":["patrol"]}`, `{"tick":90,"event":"hit","active":["dead"],"done":true}`}},
		{name: "run, timers", args: []string{"run", "-trace", "-dt", "0.5", "-events", alarmOnly, alarm}, noStderr: true, stdout: []string{
			`{"tick":2,"event":"alarm.heard","active":["look","walk"]}` + "\n" + `{"tick":6,"active":["patrol"]}` + "\n"}},
		{name: "run, ticks", args: []string{"run", "-events", goombaEvents, "-ticks", "5", table}, stdout: []string{"end: in walkRight"}, noStderr: true},
		{name: "run, no events", args: []string{"run", table}, code: 2, stderr: []string{"give -events FILE"}},
		{name: "run, unknown test", args: []string{"run", "-events", badEvents, table}, code: 1, stderr: []string{"bad.events:1: table \"goomba\" has no test \"hitTrigerLeft\"; its tests: hitTriggerLeft"}},
		{name: "run, ticks backwards", args: []string{"run", "-events", backwards, table}, code: 1, stderr: []string{"backwards.events:2: tick 2 comes after tick 5"}},
		{name: "gen", args: []string{"gen", goombaVDX, "-stencil", goombaStencil, "-pkg", "goomba", "-host", "*Goomba", "-o", "-"},
			stdout: []string{"// Code generated by \"fsmforge gen ../../examples/goomba/goomba.vdx -stencil", "; DO NOT EDIT.\n\npackage goomba\n", "type Host interface {", "\tHitTriggerLeft() bool\n", "\tXMovement(v XMovement)\n", "func (m *Machine) Update(h *Goomba) (Result, error)"}, noStderr: true},
		{name: "gen, package from the directory", args: []string{"gen", table, "-o", filepath.Join(pkgDir, "goomba_fsm.go")}, noStderr: true,
			afterwards: func(t *testing.T) {
				b, err := os.ReadFile(filepath.Join(pkgDir, "goomba_fsm.go"))
				if want := "\npackage mygame\n"; err != nil || !strings.Contains(string(b), want) {
					t.Errorf("the generated file has no %q: %v", want, err)
				}
			}},
		{name: "gen, bad package", args: []string{"gen", table, "-pkg", "go-omba", "-o", "-"}, code: 1, stderr: []string{"gen: ", "go-omba"}},
		{name: "gen, no -o", args: []string{"gen", table}, code: 2, stderr: []string{"give -o OUT"}},
		{name: "compile into a missing folder", args: []string{"compile", "-stencil", goombaStencil, "-o", filepath.Join(dir, "nope", "g.fsmt"), goombaVDX}, code: 1,
			stderr: []string{"cannot write " + filepath.Join(dir, "nope", "g.fsmt") + ": folder " + filepath.Join(dir, "nope") + " does not exist"}},
		{name: "inspect a stencil", args: []string{"inspect", goombaStencil}, code: 1, stderr: []string{"goomba.stencil.json is a stencil file, not a drawing or a table: give it as -stencil"}},
		{name: "check a missing file", args: []string{"check", filepath.Join(dir, "missing.drawio")}, code: 1, stderr: []string{"missing.drawio: chart: cannot read drawing"}},
		{name: "run, a far tick", args: []string{"run", "-events", farEvents, table}, stdout: []string{"tick 3: walkLeft -> walkRight on hitTriggerLeft", "tick 1000000000000: walkRight -> walkLeft on hitTriggerRight"}, noStderr: true},
		{name: "run, a long line", args: []string{"run", "-events", longEvents, table}, code: 1, stderr: []string{"long.events:2: line longer than 1048576 bytes"}},
		{name: "compile, event and guard", args: []string{"compile", "-o", filepath.Join(dir, "g.fsmt"), guarded},
			stdout: []string{"2 states, 3 tests"}, noStderr: true},
		{name: "gen, every option", args: []string{"gen", goombaVDX, "-stencil", goombaStencil, "-pkg", "game", "-prefix", "Goomba", "-chain", "-chain-limit", "4", "-command", "go generate", "-o", "-"},
			stdout: []string{"// Code generated by \"go generate\"; DO NOT EDIT.", "type GoombaHost interface {", "func NewGoombaMachine("}, noStderr: true},
		{name: "run, stencil for a table", args: []string{"run", "-events", goombaEvents, "-stencil", goombaStencil, table}, code: 1, stderr: []string{"needs no -stencil"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "inspect corrupt" {
				b, err := os.ReadFile(table)
				if err != nil {
					t.Fatal(err)
				}
				b[20] ^= 0xFF
				writeTestFile(t, corrupt, string(b))
			}
			code, stdout, stderr := cli(t, tt.args...)
			checkOutput(t, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			if tt.noStderr && stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
			if tt.afterwards != nil {
				tt.afterwards(t)
			}
		})
	}
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"goomba.vdx", "-host", "*Goomba"}, "fsmforge gen goomba.vdx -host *Goomba"},
		{[]string{"my drawings/goomba.vdx"}, "fsmforge gen 'my drawings/goomba.vdx'"},
		{[]string{"it's.vdx", ""}, `fsmforge gen 'it'\''s.vdx' ''`},
	} {
		if got := commandLine("fsmforge gen", tc.args); got != tc.want {
			t.Errorf("commandLine(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}
