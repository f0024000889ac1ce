package goomba_test

import (
	"bytes"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
)

// The Goomba is also drawn in Visio 2013's .vsdx, in draw.io and in SCXML
// (Qt Creator): each compiles to the same table, byte for byte, as the
// article's .vdx.
func TestEveryFormatCompilesToTheSameTable(t *testing.T) {
	st, err := chart.LoadStencil("goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	readers := []struct {
		file string
		read func(string) (*chart.Chart, error)
	}{
		{"goomba.vdx", func(p string) (*chart.Chart, error) { return visio.ReadFile(p, visio.Options{Stencil: st}) }},
		{"goomba.vsdx", func(p string) (*chart.Chart, error) { return visio.ReadFile(p, visio.Options{Stencil: st}) }},
		{"goomba.drawio", func(p string) (*chart.Chart, error) { return drawio.ReadFile(p, drawio.Options{Stencil: st}) }},
		{"goomba.scxml", func(p string) (*chart.Chart, error) { return scxml.ReadFile(p, scxml.Options{Stencil: st}) }},
	}
	var want []byte
	for _, r := range readers {
		c, err := r.read(r.file)
		if err != nil {
			t.Fatalf("%s: %v", r.file, err)
		}
		if len(c.Diagnostics) > 0 {
			t.Errorf("%s: %v", r.file, c.Diagnostics)
		}
		res, err := compile.Compile(c, compile.Options{Stencil: st})
		if err != nil {
			t.Fatalf("%s: %v", r.file, err)
		}
		got, err := res.Table.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s compiles to another table than goomba.vdx", r.file)
		}
	}
}
