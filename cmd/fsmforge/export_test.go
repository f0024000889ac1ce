package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportCommands runs graph, convert and stencil as a user would, and
// checks that what convert writes compiles to the same table as the
// drawing it came from.
func TestExportCommands(t *testing.T) {
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	want := compiledGoomba(t, goombaVDX)
	sameTable := func(path string) func(t *testing.T) {
		return func(t *testing.T) {
			if got := compiledGoomba(t, path); got != want {
				t.Errorf("%s compiles to another table than goomba.vdx:\n%s\nwant\n%s", path, got, want)
			}
		}
	}
	nested := out("nested.scxml")
	writeTestFile(t, nested, `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="on">
  <state id="on" initial="low">
    <state id="low"><transition event="up" target="high"/></state>
    <state id="high"><transition event="down" target="low"/></state>
    <transition event="off" target="off"/>
  </state>
  <state id="off"><transition event="on" target="on"/><onentry><script>f()</script></onentry></state>
</scxml>`)

	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string
		stderr     []string
		afterwards func(t *testing.T)
	}{
		{name: "graph dot", args: []string{"graph", goombaVDX, "-stencil", goombaStencil},
			stdout: []string{`digraph "goomba" {`, `"3" -> "__final" [label="animationDone"];`}},
		{name: "graph mermaid", args: []string{"graph", "-format", "mermaid", "-stencil", goombaStencil, goombaVDX},
			stdout: []string{"stateDiagram-v2\n", "[*] --> s0\n", "s2 --> [*] : animationDone\n"}},
		{name: "graph, bad format", args: []string{"graph", "-format", "svg", goombaVDX}, code: 2, stderr: []string{`unknown -format "svg"; use dot or mermaid`}},
		{name: "graph, drawing with errors", args: []string{"graph", nested}, code: 1, stderr: []string{"scxml: <script>", "1 error, 0 warnings, 0 notes; nothing written", "run: fsmforge graph -lenient ... "}},
		{name: "graph, lenient", args: []string{"graph", "-lenient", nested}, stdout: []string{`"low" -> "high"`}},
		{name: "convert to scxml", args: []string{"convert", "-stencil", goombaStencil, goombaVDX, out("goomba.scxml")},
			stdout: []string{"goomba.scxml: 3 states, 5 transitions"}, afterwards: sameTable(out("goomba.scxml"))},
		{name: "convert to json", args: []string{"convert", "-stencil", goombaStencil, goombaVDX, out("goomba.json")},
			stdout: []string{"goomba.json: 3 states"}, afterwards: sameTable(out("goomba.json"))},
		{name: "convert json to drawio", args: []string{"convert", out("goomba.json"), out("goomba.drawio")},
			stdout: []string{"goomba.drawio: 3 states"}, afterwards: sameTable(out("goomba.drawio"))},
		{name: "convert, unknown output", args: []string{"convert", goombaVDX, out("goomba.png")}, code: 2, stderr: []string{`cannot write ".png" files`}},
		{name: "convert, one file", args: []string{"convert", goombaVDX}, code: 2},
		{name: "convert nested scxml, strict", args: []string{"convert", nested, out("nested.drawio")}, code: 1,
			stderr: []string{"scxml: <script>", "nothing written"}},
		{name: "convert nested scxml, lenient", args: []string{"convert", "-lenient", nested, out("nested.drawio")},
			stdout: []string{"nested.drawio: 4 states, 4 transitions"}, stderr: []string{`<script> in <onentry> of state "off"`}},
		{name: "stencil vsx", args: []string{"stencil", "-format", "vsx", "-o", out("goomba.vsx"), goombaStencil},
			afterwards: func(t *testing.T) {
				b, err := os.ReadFile(out("goomba.vsx"))
				if err != nil || !strings.Contains(string(b), "<VisioDocument") || !strings.Contains(string(b), "hitTriggerLeft;animationDone;hitTriggerRight;hitByPlayer") {
					t.Errorf("goomba.vsx is not a stencil with the tests' drop-list: %.200s, %v", b, err)
				}
			}},
		{name: "stencil drawio", args: []string{"stencil", "-format", "drawio", goombaStencil}, stdout: []string{"<mxlibrary>"}},
		{name: "stencil, no format", args: []string{"stencil", goombaStencil}, code: 2, stderr: []string{"-format is required"}},
		{name: "stencil, bad stencil", args: []string{"stencil", "-format", "vsx", goombaVDX}, code: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, tt.args...)
			checkOutput(t, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			if tt.afterwards != nil && !t.Failed() {
				tt.afterwards(t)
			}
		})
	}
}

// compiledGoomba returns inspect's print of the table the drawing at path
// compiles to, with the Goomba's stencil unless path is a chart file (which
// carries its own).
func compiledGoomba(t *testing.T, path string) string {
	t.Helper()
	args := []string{"inspect", path, "-stencil", goombaStencil}
	code, stdout, stderr := cli(t, args...)
	if code != 0 {
		t.Fatalf("inspect %s: exit %d: %s", path, code, stderr)
	}
	return stdout
}
