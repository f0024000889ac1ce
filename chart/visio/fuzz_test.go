package visio_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
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
	charttest.AddFiles(f, "testdata/*.vdx", "../../../shared/fixtures/vdx/*.vdx", "../../examples/goomba/*.vdx")
	handler := vdxgen.Shape{ID: "9", Name: "Message Handler", Master: "5", Text: "on hit"}
	f.Add(vdxgen.Goomba(nil).Bytes())
	f.Add([]byte(strings.Replace(string(vdxgen.Goomba(nil).Bytes()), "<Shape ID='2'", "<Shape ID='9' Type='Group'><v14:Layout xmlns:v14='http://schemas.microsoft.com/office/visio/2010/extension'><v14:Relationships F='SUM(DEPENDSON(1,Sheet.1!SheetRef()))'/></v14:Layout><Text>outer</Text><Shapes/></Shape><Shape ID='2'", 1)))
	f.Add(vdxgen.Goomba([]vdxgen.Shape{handler, vdxgen.Transition("10", "hitByPlayer", vdxgen.Prop{Row: "Stack", Value: "push", Inherit: true})}, vdxgen.Glue("10", "9", "3")).Bytes())
	f.Add(vdxgen.Generate(3, 5))
	f.Add([]byte(inheritance))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("<VisioDocument xmlns='urn:schemas-microsoft-com:office:visio'><Pages><Page><Shapes><Shape ID='1'><Shapes><Shape ID='1'/></Shapes></Shape></Shapes><Connects><Connect FromSheet='1' FromCell='BeginX' ToSheet='1'/></Connects></Page></Pages></VisioDocument>"))

	f.Add(vsdxgen.Zip(goombaParts()))
	st := charttest.Stencil(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, st) })
}

// fuzzRead reads data with and without the stencil st and checks what
// every reading must satisfy: no panic, a chart or an error that is a list
// of errors, diagnostics that render, a chart that holds together, and for
// a package the chart Interpret reads from its Document (see
// checkAsDocument).
func fuzzRead(t *testing.T, data []byte, st *chart.Stencil) {
	for _, stencil := range []*chart.Stencil{nil, st} {
		o := visio.Options{File: "fuzz.vdx", Stencil: stencil, MaxDepth: 20}
		c, err := visio.Read(bytes.NewReader(data), o)
		checkChart(t, c, err)
		checkAsDocument(t, data, o, c, err)
	}
}

// FuzzReadVSDX feeds the reader arbitrary zip archives, starting from the
// .vsdx drawings of testdata and ../../../shared/fixtures/vsdx, the
// Goomba's, a stencil package, and damaged archives; see FuzzRead for what
// it checks, and it checks too that reading the parts' text in a window
// of a few bytes changes nothing (see checkDecodeWindow). As a drawing's parts
// are compressed, the fuzzer mostly changes the zip's structure:
// FuzzVSDXPart changes the parts.
func FuzzReadVSDX(f *testing.F) {
	charttest.AddFiles(f, "testdata/*.vsdx", "../../../shared/fixtures/vsdx/*.vsdx", "../../examples/goomba/*.vsdx")
	good := vsdxgen.Zip(goombaParts())
	f.Add(good)
	f.Add(vsdxgen.Store(goombaParts()))
	f.Add(good[:len(good)/2])
	f.Add(vsdxgen.Bytes(&vdxgen.Drawing{Masters: vdxgen.GoombaMasters()}, vsdxgen.Options{Stencil: true}))
	f.Add(vsdxgen.Bytes(vdxgen.Goomba(nil), vsdxgen.Options{}))
	f.Add(rawZip(rawPart{name: "../x", data: []byte("x")}))
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	st := charttest.Stencil(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, st)
		checkDecodeWindow(t, data, len(data)%13+1)
	})
}

// FuzzVSDXPart replaces one part of the Goomba's .vsdx (part%16 of
// vsdxgen's parts: content types, relationships, document, pages,
// masters, a page, a master) with arbitrary XML, seeded from the part
// itself, then reads the package (stored, not compressed, to go faster);
// see FuzzReadVSDX for what it checks.
func FuzzVSDXPart(f *testing.F) {
	parts := goombaParts()
	for i, p := range parts {
		f.Add(uint8(i), p.Data)
	}
	f.Add(uint8(slices.IndexFunc(parts, func(p vsdxgen.Part) bool { return p.Name == page1 })),
		[]byte("<PageContents xmlns='"+visio.NamespaceVSDX+"'><Shapes><Shape ID='1' Type='Group'><Cell N='PinX' V='1e308'/><Cell N='Width' V='NaN'/>"+
			"<Cell N='Relationships' F='SUM(DEPENDSON(1,Sheet.2!SheetRef()),DEPENDSON(4,Sheet.1!SheetRef())'/><Shapes><Shape ID='2'/></Shapes></Shape></Shapes></PageContents>"))
	st := charttest.Stencil(f)
	f.Fuzz(func(t *testing.T, part uint8, data []byte) {
		p := slices.Clone(parts)
		p[int(part)%len(p)].Data = data
		pkg := vsdxgen.Store(p)
		fuzzRead(t, pkg, st)
		checkDecodeWindow(t, pkg, len(data)%13+1)
	})
}
