package drawio_test

import (
	"bytes"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// FuzzRead feeds the reader arbitrary files, with and without a stencil: it
// must not panic or hang, it must return a chart or an error that is a
// diag.List of errors, every diagnostic must render, and every
// chart must hold together (see charttest.CheckChart). A chart read without
// errors must write, and what Write writes must read. The corpus starts
// from the diagrams of testdata, goomba.drawio, the door of the tests in
// every container, and small versions of the hostile inputs of
// TestHostile, and a drawing made with the sentry stencil's start. It
// reads each without a stencil, with the goomba stencil and with the
// sentry stencil (which has the masters of statecharts). The
// limits are lowered (1 MiB, 2,000 cells and properties) so that no input
// is slow to read, and so that they are reached.
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
	f.Add([]byte(fallbackModel(` fsmforgeChain="1" fsmforgeFallback="walk left"`)))
	f.Add([]byte(model(uo("a", "State", acts, vcell), uo("h", "Message Handler", "", vcell), uo("t", "Transition", `Test="hitByPlayer" Stack="push"`, ecell("h", "a")),
		`<mxCell id="b" value="&lt;div&gt;B&lt;/div&gt;&lt;div&gt;entry / x&lt;/div&gt;" style="swimlane;html=1;" vertex="1" parent="a"/>`)))
	// Nesting: StateSmith's history, history continue and regions; a
	// plain parallel state, a history and a transition to two regions.
	f.Add([]byte(model(vertex("i", "$initial_state", ssStart), group("g", "G", "1"), inside("h", "$H", "", "g"), group("a", "A", "g"),
		inside("hc", "$HC", "", "a"), inside("a1", "A1", "", "a"), group("r", "$ORTHO 2 : R", "g"), inside("r1", "R1", "", "r"), group("q", "$ORTHO 1 : Q", "g"),
		edge("e0", "", "", "i", "g"), edge("e1", "", "", "h", "a"), edge("e2", "GO", "", "g", "r1"))))
	f.Add([]byte(model(vertex("s", "", startSt), obj("p", "P", `fsmforgeParallel="1"`, "swimlane;", "1"), in("r1", "R1", box, "p", 0, 0), in("a", "A", "", "r1", 0, 0),
		in("r2", "R2", box, "p", 0, 50), in("b", "B", "", "r2", 0, 0), in("h", "H*", "ellipse;", "r2", 0, 0),
		edge("e0", "go", "", "s", "a"), also("e1", "e0", "s", "b"))))
	// With the sentry stencil: a composite state the machine starts in,
	// as its state is drawn with the initial-state master, and one that
	// says where it starts with a start, whose transition has no test.
	sentryShape := func(id, role, attrs, cell string) string {
		return strings.Replace(uo(id, role, attrs, cell), `fsmforgeStencil="goomba"`, `fsmforgeStencil="sentry"`, 1)
	}
	cellIn := func(parent string) string { return strings.Replace(vcell, `parent="1"`, `parent="`+parent+`"`, 1) }
	f.Add([]byte(model(sentryShape("p", "Composite State", "", vcell), sentryShape("w", "Initial State", `Animation="walk"`, cellIn("p")),
		sentryShape("c", "Composite State", "", vcell), sentryShape("s", "Start", `Name=""`, cellIn("c")), sentryShape("a", "State", "", cellIn("c")),
		sentryShape("t1", "Transition", `Test=""`, ecell("s", "a")), sentryShape("t2", "Transition", `Test="noise"`, ecell("w", "c")))))
	for _, seed := range hostileSeeds() {
		f.Add(seed)
	}

	goomba, sentry := charttest.Stencil(f), sentryStencil(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, stencil := range []*chart.Stencil{nil, goomba, sentry} {
			c, err := drawio.Read(bytes.NewReader(data), fuzzOptions(stencil))
			charttest.CheckChart(t, c, err)
			if err != nil {
				continue
			}
			var out bytes.Buffer
			if werr := drawio.Write(&out, c, drawio.WriteOptions{}); werr != nil {
				continue // a chart Write cannot draw: it says so
			}
			back, err := drawio.Read(bytes.NewReader(out.Bytes()), drawio.Options{Stencil: stencil})
			if back == nil {
				t.Fatalf("Read(Write(c)) = %v\n%s", err, out.String())
			}
			if back.Fallback != c.Fallback {
				t.Fatalf("Read(Write(c)): Fallback = %q, want %q\n%s", back.Fallback, c.Fallback, out.String())
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

// fuzzOptions are the options of FuzzRead.
func fuzzOptions(st *chart.Stencil) drawio.Options {
	return drawio.Options{File: "fuzz.drawio", Stencil: st, MaxDepth: 20, MaxSize: 1 << 20, MaxElements: 2000}
}

// hostileSeeds are small versions of the hostile inputs of TestHostile,
// whose mutations reach the limits of fuzzOptions.
func hostileSeeds() [][]byte {
	props := ""
	for i := range 12 {
		props += ` p` + strconv.Itoa(i) + `="v&amp;"`
	}
	uobj := func(attrs, label string) string {
		return `<UserObject id="p" placeholders="1"` + attrs + ` label="` + label + `"><mxCell vertex="1" parent="1"/></UserObject>`
	}
	latin1 := model(vertex("a", "caf\xe9", ""), vertex("b", "\xff", ""), edge("e", "go \xe0", "", "a", "b"))
	longName := strings.Repeat("n", 300)
	return [][]byte{
		[]byte(model(uo("a", "State", `a="xxxx"`, vcell), uobj(` a="x%a%"`, strings.Repeat("%a%", 20)+"%b%%"))),
		[]byte(model(uobj(props, "%p11%%p0%%p12%%%p3%"))),
		[]byte(strings.Replace(door, "</root>", "</root><!--<mxCell<mxCell<mxCell-->", 1)),
		[]byte(model(`<mxCell/><mxCell/><mxCell vertex="1"/><a/><a/><b/>`)),
		[]byte("<mxfile><diagram/><diagram/>" + strings.Repeat(`<diagram>`+compressed(`<mxGraphModel/>`)+`</diagram>`, 3) + "</mxfile>"),
		pngWith(zTXt("mxfile", zlibbed(latin1))),
		pngWith(chunk("tEXt", []byte("mxGraphModel\x00"+latin1))),
		pngWith(zTXt("mxfile", zlibbed(strings.Repeat("\xff", 100)))),
		pngWith(chunk("iTXt", append([]byte("mxfile\x00\x01\x00en\x00\x00"), zlibbed(strings.Repeat("a", 1000))...))),
		pngWith(zTXt("mxfile", zlibbed(compressed(door)))),
		[]byte(`<mxfile><diagram name="P">` + deflated(bytes.Repeat([]byte("<"), 2<<20)) + `</diagram></mxfile>`),
		[]byte(`<svg content="` + compressed(`<mxfile><diagram>`+compressed(door)+`</diagram></mxfile>`) + `"/>`),
		[]byte(model("<" + longName + "/><" + longName + "/>")),
		[]byte("<mxfile><" + longName + " "),
		[]byte(`<mxfile><diagram name="` + longName + `">` + model(`<mxCell id="`+longName+`" vertex="1" parent="1"><mxGeometry x="`+longName+`"/></mxCell>`) + `</diagram></mxfile>`),
	}
}
