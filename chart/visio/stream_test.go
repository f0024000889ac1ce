package visio_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// A package's parts are read a window at a time (64 KiB); these tests
// read with windows of a few bytes, which cut every token somewhere.

// readings renders what Read and DecodeVSDX make of a package, with and
// without the stencil st: the charts, the documents and the errors.
func readings(t testing.TB, data []byte, st *chart.Stencil) string {
	t.Helper()
	var b strings.Builder
	for _, o := range []visio.Options{{File: "w.vsdx"}, {File: "w.vsdx", Stencil: st, MaxDepth: 20}} {
		c, err := visio.Read(bytes.NewReader(data), o)
		j, jerr := json.Marshal(c)
		if jerr != nil {
			t.Fatal(jerr)
		}
		fmt.Fprintf(&b, "chart %s\nerror %v\n", j, err)
		if c != nil {
			for _, d := range c.Diagnostics {
				fmt.Fprintf(&b, "diagnostic %s (%s)\n", d.Error(), d.Hint)
			}
		}
		b.WriteString(decoding(t, data, o))
	}
	return b.String()
}

// decoding renders what DecodeVSDX makes of a package with options o: the
// document, resolved, and the error.
func decoding(t testing.TB, data []byte, o visio.Options) string {
	t.Helper()
	doc, err := visio.DecodeVSDX(bytes.NewReader(data), int64(len(data)), o)
	if doc != nil {
		doc.Resolve()
	}
	j, jerr := json.Marshal(doc)
	if jerr != nil {
		t.Fatal(jerr)
	}
	return fmt.Sprintf("document %s\nerror %v\n", j, err)
}

// checkDecodeWindow checks that DecodeVSDX decodes a package with options
// o and a window of w bytes as with the default: what Interpret makes of
// it follows.
func checkDecodeWindow(t *testing.T, data []byte, o visio.Options, w int) {
	t.Helper()
	want := decoding(t, data, o)
	restore := visio.SetPartWindow(w)
	got := decoding(t, data, o)
	restore()
	if got != want {
		t.Errorf("decoded with a window of %d bytes:\n%.2000s\nwant\n%.2000s", w, got, want)
	}
}

// checkWindows checks that a package reads the same whatever the window
// of its parts' text.
func checkWindows(t *testing.T, data []byte, st *chart.Stencil, windows ...int) {
	t.Helper()
	want := readings(t, data, st)
	for _, w := range windows {
		restore := visio.SetPartWindow(w)
		got := readings(t, data, st)
		restore()
		if got != want {
			t.Errorf("read with a window of %d bytes:\n%.2000s\nwant\n%.2000s", w, got, want)
		}
	}
}

// TestVSDXWindows reads packages, good and bad, with windows of a few
// bytes: the charts, documents and errors are those of the default.
func TestVSDXWindows(t *testing.T) {
	st := charttest.Stencil(t)
	good := goombaParts()
	obstacle := readObstacleCar(t)
	for name, data := range map[string][]byte{
		"goomba":                   vsdxgen.Zip(good),
		"stored":                   vsdxgen.Store(good),
		"obstacle car":             obstacle,
		"generated":                vsdxgen.Generate(20, 60),
		"byte-order mark":          vsdxgen.Zip(editPart(good, page1, "<?xml", "\uFEFF<?xml")),
		"line ends and characters": vsdxgen.Zip(editPart(good, page1, "<fld IX='0'>walkLeft</fld>", "walk\r\n&#xD;€ 😀 Left\u2028")),
		"comments":                 vsdxgen.Zip(editPart(good, page1, "<Shapes>", "<Shapes><!-- "+strings.Repeat("-", 100)+" --><![CDATA[ ]]>")),
		"malformed":                vsdxgen.Zip(editPart(good, page1, "<Text>", "<Text><Text>")),
		"invalid UTF-8":            vsdxgen.Zip(editPart(good, page1, "walkLeft", "walk\xE2\x82Left")),
		"NUL":                      vsdxgen.Zip(editPart(good, page1, "walkLeft", "walk\x00Left")),
		"noncharacter in comment":  vsdxgen.Zip(editPart(good, page1, "<Shapes>", "<Shapes><!-- \uFFFF -->")),
		"cut character":            vsdxgen.Zip(editPart(good, page1, "</PageContents>", "</PageContents>\xE2\x82")),
		"deep":                     vsdxgen.Zip(editPart(good, page1, "<Shapes>", strings.Repeat("<Shapes><Shape ID='99' Type='Group'>", 30))),
		"wrong root":               vsdxgen.Zip(withPart(good, page1, []byte("\n\n  <Foo/>"))),
	} {
		t.Run(name, func(t *testing.T) { checkWindows(t, data, st, 1, 2, 3, 7, 100, 4096) })
	}
}

// TestVSDXFirstProblem checks that a part's problems are reported as when
// parts were read whole before they were parsed: a part that does not
// unpack within the limits first (those its header declares are checked
// before), then invalid UTF-8, then malformed XML, wherever each is in the
// part.
func TestVSDXFirstProblem(t *testing.T) {
	good := goombaParts()
	// A page malformed at its start (2:1), then long.
	pageXML := func(rest string) []byte {
		return []byte("<?xml version='1.0' encoding='utf-8' ?>\n</Bad><PageContents xmlns='" + visio.NamespaceVSDX + "'>" + strings.Repeat("<Shapes/>\n", 10000) + rest + "</PageContents>")
	}
	withPage := func(data []byte) []rawPart { return raw(withPart(good, page1, data)) }
	badCRC := withPage(pageXML(""))
	for i := range badCRC {
		if badCRC[i].name == page1 {
			badCRC[i].crc = 1
		}
	}
	for _, tt := range []struct {
		name string
		data []byte
		opt  visio.Options
		err  error
		want string
	}{
		{"malformed", rawZip(withPage(pageXML(""))...), visio.Options{}, visio.ErrMalformed, "w.vsdx!visio/pages/page1.xml:2:1: visio: malformed XML: </Bad> closes no element"},
		{"invalid UTF-8 after", rawZip(withPage(pageXML("<Shapes>caf\xE9</Shapes>"))...), visio.Options{}, visio.ErrMalformed, "w.vsdx!visio/pages/page1.xml:10002:12: visio: malformed XML: invalid UTF-8"},
		{"cut character at the end", rawZip(withPage(append(pageXML(""), 0xE2, 0x82))...), visio.Options{}, visio.ErrMalformed, "w.vsdx!visio/pages/page1.xml:10002:16: visio: malformed XML: invalid UTF-8"},
		{"checksum", rawZip(badCRC...), visio.Options{}, visio.ErrZip, "w.vsdx!visio/pages/page1.xml: visio: cannot unpack part visio/pages/page1.xml: its checksum is wrong"},
		{"part too large", rawZip(withPage(pageXML(""))...), visio.Options{MaxPartSize: 50000}, visio.ErrTooLarge, "bytes uncompressed, more than 50000 bytes"},
		{"bomb", rawZip(withPage(pageXML(strings.Repeat(" ", 20<<20)))...), visio.Options{}, visio.ErrUnsafe, "visio: part visio/pages/page1.xml would unpack from"},
	} {
		for _, w := range []int{16, 64 << 10} {
			t.Run(fmt.Sprintf("%s/window=%d", tt.name, w), func(t *testing.T) {
				defer visio.SetPartWindow(w)()
				tt.opt.File = "w.vsdx"
				c, err := visio.Read(bytes.NewReader(tt.data), tt.opt)
				if c != nil || !errors.Is(err, tt.err) || !strings.Contains(fmt.Sprint(err), tt.want) {
					t.Errorf("Read = %v, %v, want %v: %q", c, err, tt.err, tt.want)
				}
			})
		}
	}
}

// TestVSDXMemory checks that a Document does not keep its parts' text in
// memory: a drawing's Document takes less memory than the XML it comes
// from, which a single string of the text kept would double.
func TestVSDXMemory(t *testing.T) {
	data := vsdxgen.Generate(400, 1600)
	unpacked := 0
	for _, p := range unzipParts(t, data) {
		unpacked += len(p.Data)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	doc, err := visio.DecodeVSDX(bytes.NewReader(data), int64(len(data)), visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kept := int64(heap()) - int64(before)
	runtime.KeepAlive(doc)
	t.Logf("the Document of %d bytes of XML holds %d bytes of memory", unpacked, kept)
	if kept > int64(unpacked) {
		t.Errorf("the Document of %d bytes of XML holds %d bytes of memory, want less", unpacked, kept)
	}
}

// must returns b, or panics on err.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// unzipParts returns the parts of a package.
func unzipParts(t testing.TB, data []byte) []vsdxgen.Part {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []vsdxgen.Part
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, vsdxgen.Part{Name: f.Name, Data: b})
	}
	return out
}

// checkAsDocument checks that c and err, what Read made of data with
// options o, are what DecodeVSDX (or DecodeVDX) and Interpret make of it:
// Read hands a drawing's shapes to the interpretation as it parses them,
// Interpret reads them from the Document. (But for a .vdx whose masters
// come after its pages, which Read reads without them, and says so.)
func checkAsDocument(t *testing.T, data []byte, o visio.Options, c *chart.Chart, err error) {
	t.Helper()
	var doc *visio.Document
	var derr error
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")) {
		doc, derr = visio.DecodeVSDX(bytes.NewReader(data), int64(len(data)), o)
	} else {
		if c != nil && slices.ContainsFunc(c.Diagnostics, func(d diag.Diagnostic) bool { return strings.Contains(d.Message, "the masters come after the pages") }) {
			return
		}
		doc, derr = visio.DecodeVDX(bytes.NewReader(data), o)
	}
	var want *chart.Chart
	werr := derr
	if doc != nil {
		want, werr = visio.Interpret(doc, o)
	}
	got, _ := json.Marshal(c)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) || fmt.Sprint(err) != fmt.Sprint(werr) {
		t.Errorf("Read = %.2000s, %v\nInterpret(Decode) = %.2000s, %v", got, err, wantJSON, werr)
	}
}

// TestReadAsDocument reads drawings whose pages are laid out in unusual
// ways with Read and with DecodeVSDX or DecodeVDX and Interpret: the
// charts are the same (see checkAsDocument).
func TestReadAsDocument(t *testing.T) {
	st := charttest.Stencil(t)
	good := goombaParts()
	obstacle := readObstacleCar(t)
	text := string(good[slices.IndexFunc(good, func(p vsdxgen.Part) bool { return p.Name == page1 })].Data)
	i, j := strings.Index(text, "<Connects>"), strings.Index(text, "</Connects>")+len("</Connects>")
	connects, noConnects := text[i:j], text[:i]+text[j:]
	first := strings.Index(connects, "/>") + len("/>")
	c1, c2 := connects[:first]+"</Connects>", "<Connects>"+connects[first:] // its first row, the others
	afterShapes := func(s, x string) string {
		k := strings.LastIndex(s, "</Shapes>") + len("</Shapes>")
		return s[:k] + x + s[k:]
	}
	edit := func(s string) []byte { return vsdxgen.Zip(withPart(good, page1, []byte(s))) }
	pages := goomba(nil)
	pages.Pages = append(pages.Pages,
		vdxgen.Page{ID: "7", Name: "Background", Background: true, Shapes: []vdxgen.Shape{{ID: "1", Master: "42", Text: "ghost"}}},
		vdxgen.Page{ID: "4", Name: "Page-2", Shapes: []vdxgen.Shape{vdxgen.State("1", "3", "resting", "existing", "existing"), vdxgen.Transition("2", "animationDone")}, Connects: vdxgen.Glue("2", "1", "")})
	group := goomba([]vdxgen.Shape{
		{ID: "9", Name: "State.9", Master: "6", Text: "grouped", Shapes: []vdxgen.Shape{{ID: "10", MasterShape: "6"}, {ID: "11", MasterShape: "7"}}},
		vdxgen.Transition("12", "animationDone"),
	}, vdxgen.Glue("12", "11", "10"))
	group.Masters = append(group.Masters, vdxgen.Master{ID: "6", Name: "State", Shape: vdxgen.Shape{ID: "5", Text: "state", Props: vdxgen.GoombaMasters()[1].Shape.Props, Shapes: []vdxgen.Shape{{ID: "6"}, {ID: "7", Text: "name"}}}})
	for name, data := range map[string][]byte{
		"goomba":             vsdxgen.Zip(good),
		"obstacle car":       obstacle,
		"generated":          vsdxgen.Generate(50, 200),
		"connects first":     edit(strings.Replace(noConnects, "<Shapes>", connects+"<Shapes>", 1)),
		"connects around":    edit(strings.Replace(afterShapes(noConnects, c2), "<Shapes>", c1+"<Shapes>", 1)),
		"connects twice":     edit(afterShapes(noConnects, c1+c2)),
		"empty shapes first": edit(strings.Replace(text, "<Shapes>", "<Shapes/><Shapes>", 1)),
		"two shapes":         edit(strings.Replace(text, "</Shapes>", "</Shapes><Shapes><Shape ID='99' Master='2'/></Shapes>", 1)),
		"shape IDs":          edit(strings.Replace(strings.Replace(text, "<Shape ID='2'", "<Shape ID='1'", 1), "<Shape ID='3'", "<Shape", 1)),
		"unknown master":     edit(strings.Replace(text, "Master='2'", "Master='77'", 1)),
		"pages":              vsdxgen.Bytes(pages, vsdxgen.Options{}),
		"group":              vsdxgen.Bytes(group, vsdxgen.Options{}),
		"vdx":                goomba(nil).Bytes(),
		"vdx pages":          pages.Bytes(),
		"vdx group":          group.Bytes(),
		"vdx fixture":        must(os.ReadFile(lucid)),
		"vdx page sheet last": func() []byte { // the page's size after its shapes: boxes all the same
			src := string(goomba(nil).Bytes())
			i, j := strings.LastIndex(src, "<PageSheet>"), strings.LastIndex(src, "</PageSheet>")+len("</PageSheet>")
			k := strings.LastIndex(src, "</Page>")
			return []byte(src[:i] + src[j:k] + src[i:j] + src[k:])
		}(),
		"vdx connects first": func() []byte {
			src := string(goomba(nil).Bytes())
			i, j := strings.Index(src, "<Connects>"), strings.Index(src, "</Connects>")+len("</Connects>")
			k := strings.LastIndex(src, "<Shapes>")
			return []byte(src[:k] + src[i:j] + src[k:i] + src[j:])
		}(),
		"vdx two shapes": []byte(strings.Replace(string(goomba(nil).Bytes()), "</Shapes>\n<Connects>", "</Shapes><Shapes><Shape ID='99' Master='2'/></Shapes>\n<Connects>", 1)),
	} {
		t.Run(name, func(t *testing.T) {
			for _, o := range []visio.Options{{File: "w.vsdx"}, {File: "w.vsdx", Stencil: st}} {
				c, err := visio.Read(bytes.NewReader(data), o)
				if c == nil {
					t.Fatalf("Read: %v", err)
				}
				checkAsDocument(t, data, o, c, err)
				if strings.HasPrefix(name, "vdx page sheet") && c.States[0].Box == nil {
					t.Errorf("state %s: no Box", c.States[0].ID)
				}
				if strings.Contains(name, "connects") && len(c.Transitions) != 5 {
					t.Errorf("Read = %d transitions, want the page's 5", len(c.Transitions))
				}
			}
		})
	}
}

// TestMastersAfterPages reads a .vdx whose masters follow its pages, as
// Visio never writes them: Read, which reads the pages' shapes as they
// come, reads them without their masters and says so.
func TestMastersAfterPages(t *testing.T) {
	src := string(goomba(nil).Bytes())
	i, j := strings.Index(src, "<Masters>"), strings.Index(src, "</Masters>")+len("</Masters>")
	k := strings.Index(src, "</Pages>") + len("</Pages>")
	data := []byte(src[:i] + src[j:k] + src[i:j] + src[k:])
	c, err := visio.Read(bytes.NewReader(data), visio.Options{File: "late.vdx"})
	if c == nil {
		t.Fatalf("Read = %v", err)
	}
	if !slices.ContainsFunc(c.Diagnostics, func(d diag.Diagnostic) bool {
		return d.Severity == diag.Warning && strings.HasPrefix(d.Error(), "late.vdx:") &&
			strings.Contains(d.Message, "visio: the masters come after the pages, where Visio never writes them: the pages' shapes were read without their masters")
	}) {
		t.Errorf("Diagnostics = %v, want a warning that the masters come after the pages", c.Diagnostics)
	}
	doc, err := visio.DecodeVDX(bytes.NewReader(data), visio.Options{File: "late.vdx"})
	if err != nil || len(doc.Masters) != 4 || len(doc.Diagnostics) != 0 {
		t.Errorf("DecodeVDX = %d masters, %v, %v", len(doc.Masters), doc.Diagnostics, err)
	}
}
