package scxml_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// FuzzRead feeds the reader arbitrary files, with and without a stencil,
// strictly and leniently: it must not panic or hang, it must return a chart
// or an error that is a diag.List of errors, every diagnostic must
// render, and every chart must hold together (see checkChart). A
// chart read without errors must be written, and read back the same (see
// sameChart). The corpus starts from the files of testdata, the shared
// fixtures when they are there, the W3C conformance tests TestW3C reads,
// the Goomba, and generated charts, flat and nested.
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 60s ./chart/scxml
func FuzzRead(f *testing.F) {
	charttest.AddFiles(f, "testdata/*.scxml", "testdata/*.xml", "../../../shared/fixtures/scxml/*", "../../examples/goomba/*.scxml")
	r := rand.New(rand.NewPCG(3, 4))
	for _, st := range []*chart.Stencil{nil, testStencil(f)} {
		for _, gen := range []func(*rand.Rand, *chart.Stencil) *chart.Chart{genChart, genStatechart} {
			for range 3 {
				var b bytes.Buffer
				if err := scxml.Write(&b, gen(r, st), scxml.WriteOptions{}); err != nil {
					f.Fatal(err)
				}
				f.Add(b.Bytes())
			}
		}
	}
	for _, w := range w3cTests {
		f.Add(w3cDoc(f, w.file))
	}
	f.Add([]byte(doc(` initial="outer"`, `<state id="outer" initial="mid"><transition event="reset" target="outer"/><state id="first"/>
		<state id="mid"><initial><transition target="deep2"/></initial><state id="deep1"/><state id="deep2"/></state></state>
		<parallel id="p"><state id="r1"/><history id="h"/></parallel><final id="f"><onentry><ff:action property="XMovement" value="left"/></onentry></final>`)))
	f.Add([]byte(doc(` ff:chain="true" ff:fallback="walk  left"`, `<state id="idle"/><state id="walk_left" ff:name="walk left"/>`)))
	f.Add([]byte("\xFF\xFE<\x00s\x00c\x00x\x00m\x00l\x00/\x00>\x00"))

	goomba := charttest.Stencil(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []scxml.Options{
			{File: "fuzz.scxml", MaxDepth: 30},
			{File: "fuzz.scxml", MaxDepth: 30, Lenient: true},
			{File: "fuzz.scxml", MaxDepth: 30, Stencil: goomba},
		} {
			c, err := scxml.Read(bytes.NewReader(data), opt)
			charttest.CheckChart(t, c, err)
			if err != nil {
				continue
			}
			var b bytes.Buffer
			if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil {
				t.Fatalf("Write(Read(data)) = %v", err)
			}
			back, err := scxml.Read(bytes.NewReader(b.Bytes()), scxml.Options{Stencil: opt.Stencil})
			if err != nil || len(back.Diagnostics) > 0 {
				t.Fatalf("Read(Write(Read(data))) = %v, %v\n%s", err, back.Diagnostics, b.String())
			}
			back.Name = c.Name
			if err := sameChart(c, back); err != nil {
				t.Fatalf("Read(Write(Read(data))): %v\n%s", err, b.String())
			}
		}
	})
}

// TestMain bounds the time the fuzzer spends minimizing each input that
// reaches new code (see charttest.ShortMinimize).
func TestMain(m *testing.M) {
	charttest.ShortMinimize()
	os.Exit(m.Run())
}
