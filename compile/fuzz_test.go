package compile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// FuzzCompile reads arbitrary files as drawings, with and without the
// Goomba stencil, and compiles every chart the reader returns, with and
// without minimisation: Compile must not panic, must return a table exactly
// when there are no errors, and every diagnostic must render (see
// checkResult). The corpus starts from the drawings of testdata/bad,
// goomba.vdx, chart/visio/testdata and drawings of package vdxgen.
//
//	go test -run '^$' -fuzz FuzzCompile -fuzztime 1m -fuzzminimizetime 5s ./compile
func FuzzCompile(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"testdata/bad/*.vdx", goombaVDX, visioDir + "/*.vdx"} {
		files, _ := filepath.Glob(pattern)
		seeds = append(seeds, files...)
	}
	for _, file := range seeds {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(vdxgen.Generate(5, 12))
	f.Add(vdxgen.Goomba([]vdxgen.Shape{{ID: "9", Name: "Message Handler", Master: vdxgen.MasterHandler},
		vdxgen.Transition("10", "hitByPlayer", vdxgen.Prop{Row: "Stack", Value: "push", Inherit: true})}, vdxgen.Glue("10", "9", "3")).Bytes())

	st := stencil(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range []*chart.Stencil{nil, st} {
			c, _ := visio.Read(bytes.NewReader(data), visio.Options{File: "fuzz.vdx", Stencil: s, MaxDepth: 20})
			if c == nil {
				continue
			}
			for _, opt := range []compile.Options{{}, {Minimize: true, Stencil: st}} {
				r, err := compile.Compile(c, opt)
				checkResult(t, r, err)
			}
		}
	})
}
