package scxml_test

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var update = flag.Bool("update", false, "rewrite examples/goomba/goomba.scxml")

const (
	goombaVDX   = "../../examples/goomba/goomba.vdx"
	goombaSCXML = "../../examples/goomba/goomba.scxml"
)

// goombaComment heads the converted file.
const goombaComment = "The Goomba of goomba.vdx, converted by package chart/scxml (go test ./chart/scxml -run Goomba -update). Edit it in Qt Creator's SCXML editor; read it with goomba.stencil.json."

// TestGoomba converts the Goomba of examples/goomba from its Visio drawing
// into examples/goomba/goomba.scxml (rewritten with -update; the test fails
// when the file is stale), reads the file back with the stencil, and
// checks that it gives the drawing's states, transitions, tests and
// actions, and compiles to the same table, byte for byte.
func TestGoomba(t *testing.T) {
	st := charttest.Stencil(t)
	drawn, err := visio.ReadFile(goombaVDX, visio.Options{File: "goomba.vdx", Stencil: st})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := scxml.Write(&b, drawn, scxml.WriteOptions{Comment: goombaComment}); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goombaSCXML, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goombaSCXML)
	if err != nil {
		t.Fatalf("%v (run go test ./chart/scxml -run Goomba -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("%s is stale (run go test ./chart/scxml -run Goomba -update and review the diff); the conversion gives:\n%s", goombaSCXML, b.String())
	}

	read, err := scxml.ReadFile(goombaSCXML, scxml.Options{File: "goomba.scxml", Stencil: st})
	if err != nil || len(read.Diagnostics) > 0 {
		t.Fatalf("ReadFile(%s) = %v, diagnostics %v", goombaSCXML, err, read.Diagnostics)
	}
	if err := sameChart(drawn, read); err != nil {
		t.Errorf("the chart of %s differs from the drawing's: %v", goombaSCXML, err)
	}
	if len(read.States) != 3 || len(read.Transitions) != 5 {
		t.Errorf("ReadFile(%s) = %d states, %d transitions, want 3, 5", goombaSCXML, len(read.States), len(read.Transitions))
	}

	tables := make([][]byte, 2)
	for i, c := range []*chart.Chart{drawn, read} {
		res, err := compile.Compile(c, compile.Options{Stencil: st})
		if err != nil {
			t.Fatalf("Compile(%s) = %v", c.File, err)
		}
		if tables[i], err = res.Table.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(tables[0], tables[1]) {
		t.Errorf("the table compiled from %s differs from the drawing's", goombaSCXML)
	}
}

// TestDocExample reads the example file of the package documentation with
// the goomba stencil: it must read without a diagnostic, compile, and be
// what ExampleWrite writes.
func TestDocExample(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "//\t<?xml") {
			in = true
		}
		if in {
			lines = append(lines, strings.TrimPrefix(line, "//\t"))
		}
		if in && line == "//\t</scxml>" {
			break
		}
	}
	example := strings.Join(lines, "\n")
	st := charttest.Stencil(t)
	c, err := scxml.Read(strings.NewReader(example), scxml.Options{Stencil: st})
	if err != nil || len(c.Diagnostics) > 0 {
		t.Fatalf("Read(the documentation's example) = %v, %v", err, c.Diagnostics)
	}
	any := 0
	for _, tr := range c.Transitions {
		if tr.AnyState {
			any++
		}
	}
	if len(c.States) != 4 || !c.States[0].Initial || c.States[0].Name != "walkLeft" || len(c.Transitions)-any != 4 || any != 2 {
		t.Errorf("the documentation's example = %d states (first %+v), %d transitions of which %d any-state; the documentation says 4 states (walkLeft initial), 4 and 2", len(c.States), c.States[0], len(c.Transitions), any)
	}
	if _, err := compile.Compile(c, compile.Options{Stencil: st}); err != nil {
		t.Errorf("Compile(the documentation's example) = %v", err)
	}
	var b bytes.Buffer
	if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil || b.String() != example+"\n" {
		t.Errorf("Write(Read(the documentation's example)) = %v:\n%s", err, b.String())
	}
}
