package goomba_test

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/gogen"
)

var update = flag.Bool("update", false, "rewrite testdata/level.trace")

// run plays the demo's level for ticks ticks with brains.
func run(t *testing.T, brains goomba.Brains, ticks int) []string {
	t.Helper()
	l, err := goomba.NewLevel(3, brains)
	if err != nil {
		t.Fatal(err)
	}
	for range ticks {
		if err := l.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return l.Trace
}

// The drawing run at run time and the code generated from it make the
// goombas do the same, tick for tick; the trace is the golden one.
func TestDrawingAndCodeAgree(t *testing.T) {
	tab, err := goomba.Load()
	if err != nil {
		t.Fatal(err)
	}
	brains, err := goomba.TableBrains(tab)
	if err != nil {
		t.Fatal(err)
	}
	fromDrawing := run(t, brains, 60)
	fromCode := run(t, goomba.GenBrains(), 60)
	if a, b := strings.Join(fromDrawing, "\n"), strings.Join(fromCode, "\n"); a != b {
		t.Fatalf("the drawing's trace:\n%s\n\nthe generated code's:\n%s", a, b)
	}
	got := strings.Join(fromDrawing, "\n") + "\n"
	if *update {
		if err := os.WriteFile("testdata/level.trace", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/level.trace")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("trace differs from testdata/level.trace (go test -update to accept):\n%s", got)
	}
	for _, line := range []string{"on hitByPlayer (stomped)", "on animationDone", "removed"} {
		if !strings.Contains(got, line) {
			t.Errorf("the trace has no %q", line)
		}
	}
}

// goomba_fsm.go is what fsmforge gen makes of the drawing today: if the
// drawing, the stencil or the generator changed, run go generate.
func TestGeneratedCodeIsFresh(t *testing.T) {
	tab, err := goomba.Load()
	if err != nil {
		t.Fatal(err)
	}
	code, err := gogen.Generate(tab, gogen.Options{
		Package: "goomba",
		Host:    "*Goomba",
		Command: "fsmforge gen goomba.vdx -stencil goomba.stencil.json -pkg goomba -host *Goomba -o goomba_fsm.go",
	})
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("goomba_fsm.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(code, have) {
		t.Error("goomba_fsm.go is stale: run go generate ./examples/goomba")
	}
}
