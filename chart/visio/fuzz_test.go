package visio_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// FuzzRead feeds the reader arbitrary files, with and without a stencil: it
// must not panic or hang, it must return a chart or an error that is a
// chart.Diagnostics, every diagnostic must render, and every chart must
// hold together (see checkChart). The corpus starts from the drawings of
// testdata, the fixtures of ../../../shared/fixtures/vdx when that folder
// is there, goomba.vdx, and drawings built by the tests.
//
// The fuzzer minimizes each new interesting input, for up to a minute by
// default; from a seed of hundreds of kilobytes that stalls it, so bound
// the minimization:
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 3m -fuzzminimizetime 5s ./chart/visio
func FuzzRead(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"testdata/*.vdx", "../../../shared/fixtures/vdx/*.vdx", "../../examples/goomba/*.vdx"} {
		files, _ := filepath.Glob(pattern) // a missing folder matches nothing
		seeds = append(seeds, files...)
	}
	for _, file := range seeds {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	handler := vdxgen.Shape{ID: "9", Name: "Message Handler", Master: "5", Text: "on hit"}
	f.Add(vdxgen.Goomba(nil).Bytes())
	f.Add(vdxgen.Goomba([]vdxgen.Shape{handler, vdxgen.Transition("10", "hitByPlayer", vdxgen.Prop{Row: "Stack", Value: "push", Inherit: true})}, vdxgen.Glue("10", "9", "3")).Bytes())
	f.Add(vdxgen.Generate(3, 5))
	f.Add([]byte(inheritance))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("<VisioDocument xmlns='urn:schemas-microsoft-com:office:visio'><Pages><Page><Shapes><Shape ID='1'><Shapes><Shape ID='1'/></Shapes></Shape></Shapes><Connects><Connect FromSheet='1' FromCell='BeginX' ToSheet='1'/></Connects></Page></Pages></VisioDocument>"))

	st := goombaStencil(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, stencil := range []*chart.Stencil{nil, st} {
			c, err := visio.Read(bytes.NewReader(data), visio.Options{File: "fuzz.vdx", Stencil: stencil, MaxDepth: 20})
			if err != nil {
				var l chart.Diagnostics
				if !errors.As(err, &l) || len(l) == 0 || !l.HasErrors() {
					t.Fatalf("Read error %T %v is not a list of errors", err, err)
				}
				for _, d := range l {
					if d.Error() == "" || d.Message == "" {
						t.Fatalf("diagnostic %#v renders empty", d)
					}
				}
			}
			if c == nil {
				if err == nil {
					t.Fatal("Read = nil, nil")
				}
				continue
			}
			checkChart(t, c)
			if (err != nil) != c.Diagnostics.HasErrors() {
				t.Fatalf("Read error %v, chart diagnostics %v", err, c.Diagnostics)
			}
		}
	})
}
