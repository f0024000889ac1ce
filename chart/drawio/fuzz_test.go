package drawio_test

import (
	"bytes"
	"net/url"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// FuzzRead feeds the reader arbitrary files, with and without a stencil: it
// must not panic or hang, it must return a chart or an error that is a
// chart.Diagnostics of errors, every diagnostic must render, and every
// chart must hold together (see charttest.CheckChart). A chart read without
// errors must write, and what Write writes must read. The corpus starts
// from the diagrams of testdata, goomba.drawio, and the door of the tests
// in every container.
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 60s ./chart/drawio
func FuzzRead(f *testing.F) {
	charttest.AddFiles(f, "testdata/*.drawio", "testdata/*.xml", "../../examples/goomba/*.drawio")
	mxfile := `<mxfile><diagram id="d1" name="Door">` + door + `</diagram></mxfile>`
	f.Add([]byte(door))
	f.Add([]byte(`<mxfile><diagram id="d1">` + compressed(door) + `</diagram><diagram id="d2">` + door + `</diagram></mxfile>`))
	f.Add([]byte(`<svg content="` + xmlEscape(mxfile) + `"/>`))
	f.Add(pngWith(chunk("tEXt", []byte("mxfile\x00"+url.PathEscape(mxfile)))))
	f.Add(utf16Bytes(mxfile, false))
	f.Add([]byte(model(uo("a", "State", acts, vcell), uo("h", "Message Handler", "", vcell), uo("t", "Transition", `Test="hitByPlayer" Stack="push"`, ecell("h", "a")),
		`<mxCell id="b" value="&lt;div&gt;B&lt;/div&gt;&lt;div&gt;entry / x&lt;/div&gt;" style="swimlane;html=1;" vertex="1" parent="a"/>`)))

	st := charttest.Stencil(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, stencil := range []*chart.Stencil{nil, st} {
			c, err := drawio.Read(bytes.NewReader(data), drawio.Options{File: "fuzz.drawio", Stencil: stencil, MaxDepth: 20, MaxSize: 8 << 20})
			charttest.CheckChart(t, c, err)
			if err != nil {
				continue
			}
			var out bytes.Buffer
			if werr := drawio.Write(&out, c, drawio.WriteOptions{}); werr != nil {
				continue // a chart Write cannot draw: it says so
			}
			if back, err := drawio.Read(&out, drawio.Options{Stencil: stencil}); back == nil {
				t.Fatalf("Read(Write(c)) = %v\n%s", err, out.String())
			}
		}
	})
}
