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
	badSCXML := filepath.Join(dir, "bad.scxml")
	writeTestFile(t, badSCXML, `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a"><state id="a"><transition event="go" target="nowhere"/></state></scxml>`)

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
		// "Initial State" shape a state the machine starts in); the stencil
		// beside it is suggested.
		{name: "check without the stencil", args: []string{"check", goombaVDX},
			stdout: []string{"goomba.vdx: 3 states, 5 transitions: 0 errors, 0 warnings"},
			stderr: []string{"read as a plain state diagram", "give -stencil"}},
		{name: "check, not Visio", args: []string{"check", notVisio}, code: 1, stderr: []string{"notes.vdx:1:22: visio: this is XML but not a Visio drawing"}},
		{name: "check, unknown format", args: []string{"check", unknown}, code: 1, stderr: []string{"chart.txt: not a drawing fsmforge reads (it reads .dio, .drawio, .drawio.png, .drawio.svg, .graphml, .graphmlz, .json, .scxml, .vdx, .vsdx, .vssx, .vsx, .xml)"}},
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
