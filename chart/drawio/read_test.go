package drawio_test

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"io/fs"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// door is a small plain state diagram: a start, two states, a transition
// to final.
const door = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` +
	`<mxCell id="s" value="" style="ellipse;fillColor=#000000;" vertex="1" parent="1"><mxGeometry x="10" y="10" width="30" height="30" as="geometry"/></mxCell>` +
	`<mxCell id="c" value="Closed" style="rounded=1;" vertex="1" parent="1"><mxGeometry x="100" y="10" width="80" height="40" as="geometry"/></mxCell>` +
	`<mxCell id="o" value="Open" style="rounded=1;" vertex="1" parent="1"><mxGeometry x="300" y="10" width="80" height="40" as="geometry"/></mxCell>` +
	`<mxCell id="e1" style="" edge="1" parent="1" source="s" target="c"><mxGeometry relative="1" as="geometry"/></mxCell>` +
	`<mxCell id="e2" value="push [unlocked] / swing()" edge="1" parent="1" source="c" target="o"><mxGeometry relative="1" as="geometry"/></mxCell>` +
	`<mxCell id="e3" value="kick" edge="1" parent="1" source="o"><mxGeometry relative="1" as="geometry"><mxPoint x="500" y="30" as="targetPoint"/></mxGeometry></mxCell>` +
	`</root></mxGraphModel>`

var doorWant = []string{
	`state "s" name="" kind=start initial=true parent="" entry=[]`,
	`state "c" name="Closed" kind=normal initial=false parent="" entry=[]`,
	`state "o" name="Open" kind=normal initial=false parent="" entry=[]`,
	`transition "e1" from="s" any=false order=1 test="" value="" label="" event="" guard="" action="" target=c push=false`,
	`transition "e2" from="c" any=false order=1 test="push" value="" label="push [unlocked] / swing()" event="push" guard="unlocked" action="swing()" target=o push=false`,
	`transition "e3" from="o" any=false order=1 test="kick" value="" label="kick" event="kick" guard="" action="" target=(final) push=false`,
}

// compressed encodes XML as draw.io compresses a page.
func compressed(xml string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	w.Write([]byte(url.PathEscape(xml)))
	w.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// deflated is base64 of the raw deflate of data, as is.
func deflated(data []byte) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// pngWith returns a 1×1 PNG with extra chunks after IHDR.
func pngWith(chunks ...[]byte) []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	data := b.Bytes()
	ihdrEnd := 8 + 12 + 13
	out := append([]byte{}, data[:ihdrEnd]...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, data[ihdrEnd:]...)
}

func chunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

func zlibbed(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = binary.BigEndian.AppendUint16(out, u)
		} else {
			out = binary.LittleEndian.AppendUint16(out, u)
		}
	}
	return out
}

// TestContainers reads the door in every container draw.io writes.
func TestContainers(t *testing.T) {
	mxfile := `<mxfile><diagram id="d1" name="Door">` + door + `</diagram></mxfile>`
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"bare mxGraphModel", []byte(door)},
		{"mxfile", []byte(mxfile)},
		{"mxfile with a declaration and a BOM", []byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + mxfile)},
		{"compressed page, attribute says not", []byte(`<mxfile compressed="false"><diagram id="d1" name="Door">` + compressed(door) + `</diagram></mxfile>`)},
		{"compressed page in lines", []byte("<mxfile><diagram>\n" + strings.Join(slices.Collect(chunks(compressed(door), 60)), "\n") + "\n</diagram></mxfile>")},
		{"plain page, attribute says compressed", []byte(`<mxfile compressed="true"><diagram id="d1">` + door + `</diagram></mxfile>`)},
		{"UTF-16LE with BOM", utf16Bytes(`<?xml version="1.0" encoding="UTF-16"?>`+mxfile, false)},
		{"UTF-16BE with BOM", utf16Bytes(mxfile, true)},
		{"SVG", []byte(`<svg xmlns="http://www.w3.org/2000/svg" content="` + xmlEscape(mxfile) + `"><g><rect/></g></svg>`)},
		{"SVG, compressed page", []byte(`<svg xmlns="http://www.w3.org/2000/svg" content="` + xmlEscape(`<mxfile><diagram>`+compressed(door)+`</diagram></mxfile>`) + `"/>`)},
		{"SVG, compressed content", []byte(`<svg content="` + compressed(mxfile) + `"/>`)},
		{"PNG tEXt mxfile", pngWith(chunk("tEXt", []byte("mxfile\x00"+url.PathEscape(mxfile))))},
		{"PNG zTXt mxGraphModel", pngWith(chunk("tEXt", []byte("Software\x00x")), chunk("zTXt", append([]byte("mxGraphModel\x00\x00"), zlibbed(door)...)))},
		{"PNG iTXt", pngWith(chunk("iTXt", append([]byte("mxfile\x00\x01\x00en\x00\x00"), zlibbed(mxfile)...)))},
		{"PNG tEXt compressed", pngWith(chunk("tEXt", []byte("mxGraphModel\x00"+compressed(door))))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(bytes.NewReader(tt.data), drawio.Options{File: "door.drawio.png"})
			if err != nil {
				t.Fatalf("Read = %v", err)
			}
			if d := diff(render(c), doorWant); d != "" {
				t.Errorf("Read differs at %s", d)
			}
			if c.Name != "door" {
				t.Errorf("Name = %q, want door", c.Name)
			}
			if b := c.States[1].Box; b == nil || *b != (chart.Box{X: 100, Y: 10, W: 80, H: 40}) {
				t.Errorf("Box = %v", b)
			}
			charttest.CheckChart(t, c, err)
		})
	}
}

func chunks(s string, n int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			k := min(n, len(s))
			if !yield(s[:k]) {
				return
			}
			s = s[k:]
		}
	}
}

// TestPositions checks the positions of a plain file's cells, and the
// page prefixes of IDs on pages after the first.
func TestPositions(t *testing.T) {
	page2 := strings.ReplaceAll(door, `"Closed"`, `"Shut"`)
	data := "<mxfile>\n<diagram id=\"d1\" name=\"One\">\n" + door + "\n</diagram>\n<diagram id=\"d2\" name=\"Two\">" + compressed(page2) + "</diagram></mxfile>"
	c, err := drawio.Read(strings.NewReader(data), drawio.Options{File: "two.drawio"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.States) != 6 || len(c.Transitions) != 6 {
		t.Fatalf("%d states, %d transitions, want 6, 6", len(c.States), len(c.Transitions))
	}
	col := strconv.Itoa(strings.Index(door, `<mxCell id="c"`) + 1)
	if s := c.States[1]; s.Pos.String() != `two.drawio:3:`+col+`: page "One", shape c "Closed"` {
		t.Errorf("Pos = %s", s.Pos)
	}
	if s := c.States[4]; s.ID != "d2/c" || s.Name != "Shut" || s.Pos.String() != `two.drawio: page "Two", shape d2/c "Shut"` {
		t.Errorf("state on page 2: %s %q at %s", s.ID, s.Name, s.Pos)
	}
	if tr := c.Transitions[4]; tr.ID != "d2/e2" || tr.From != "d2/c" || tr.Target.State != "d2/o" {
		t.Errorf("transition on page 2: %+v", tr)
	}
}

// TestBadInput feeds the reader files it must refuse with a clear error.
func TestBadInput(t *testing.T) {
	deep := "<mxfile>" + strings.Repeat("<a>", 200) + strings.Repeat("</a>", 200) + "</mxfile>"
	var chain strings.Builder
	chain.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/><mxCell id="c0" value="x" vertex="1" parent="1"/>`)
	for i := 1; i <= 150; i++ {
		chain.WriteString(`<mxCell id="c` + itoa(i) + `" value="x" vertex="1" parent="c` + itoa(i-1) + `"/>`)
	}
	chain.WriteString(`</root></mxGraphModel>`)
	bomb := deflated(make([]byte, 4<<20))
	page := func(content string) []byte {
		return []byte(`<mxfile><diagram name="P">` + content + `</diagram></mxfile>`)
	}
	okPNG := pngWith()
	text := []byte("mxfile\x00" + url.PathEscape(door))
	broken := pngWith(chunk("tEXt", text))
	broken[8+25+8+len(text)] ^= 1 // the text chunk's CRC, after the signature and IHDR
	for _, tt := range []struct {
		name    string
		data    []byte
		opt     drawio.Options
		err     error
		message string
	}{
		{"empty", nil, drawio.Options{}, drawio.ErrNotDrawio, "drawio: the file is empty"},
		{"text", []byte("hello world"), drawio.Options{}, drawio.ErrNotDrawio, "this is a text file that is not XML"},
		{"binary", []byte("\x00\x01\x02<"), drawio.Options{}, drawio.ErrNotDrawio, "this is a binary file"},
		{"zip", []byte("PK\x03\x04rest"), drawio.Options{}, drawio.ErrNotDrawio, "zip archive"},
		{"wrong root", []byte(`<mxfilee><diagram/></mxfilee>`), drawio.Options{}, drawio.ErrNotDrawio, "its root element is <mxfilee>, not <mxfile> or <mxGraphModel>"},
		{"library", []byte(`<mxlibrary>[]</mxlibrary>`), drawio.Options{}, drawio.ErrNotDrawio, "shape library"},
		{"malformed XML", []byte("<mxfile>\n<diagram>\n</mxfile>"), drawio.Options{File: "m.drawio"}, drawio.ErrMalformed, "m.drawio:3:1: drawio: malformed XML: <diagram> (line 2:1) is closed by </mxfile>"},
		{"invalid UTF-8", []byte("<mxfile>\xff</mxfile>"), drawio.Options{}, drawio.ErrMalformed, "invalid UTF-8"},
		{"other encoding", []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><mxfile/>`), drawio.Options{}, drawio.ErrMalformed, `encoding "ISO-8859-1" is not supported`},
		{"odd UTF-16", []byte("\xFF\xFE<\x00m"), drawio.Options{}, drawio.ErrNotDrawio, "starts like UTF-16 text but is not"},
		{"too large", []byte(door), drawio.Options{MaxSize: 100}, drawio.ErrTooLarge, "the file is larger than 100 bytes"},
		{"XML too deep", []byte(deep), drawio.Options{}, drawio.ErrTooDeep, "drawio: XML elements nested more than 132 deep"},
		{"cells too deep", []byte(chain.String()), drawio.Options{}, drawio.ErrTooDeep, "cells nest more than 100 deep"},
		{"bad base64", page("this is not base64!"), drawio.Options{}, drawio.ErrMalformed, `the compressed page "P" is neither XML nor valid base64 (byte 15: "!")`},
		{"bad deflate", page(base64.StdEncoding.EncodeToString([]byte("not deflate at all"))), drawio.Options{}, drawio.ErrMalformed, `the compressed page "P" is not valid deflate data`},
		{"bad URL encoding", page(deflated([]byte("%3Cmx%ZZ"))), drawio.Options{}, drawio.ErrMalformed, `inflates to text that is neither XML nor URL-encoded XML (bad escape at byte 5`},
		{"malformed inside", page(compressed("<mxGraphModel>\n<root>")), drawio.Options{}, drawio.ErrMalformed, `the compressed page "P", line 2, column 7: malformed XML: unexpected end of file`},
		{"not a model inside", page(compressed("<html/>")), drawio.Options{}, drawio.ErrMalformed, `the compressed page "P" holds <html>, not <mxGraphModel>`},
		{"deflate bomb", page(bomb), drawio.Options{MaxSize: 1 << 20}, drawio.ErrTooLarge, `the compressed page "P" inflates to more than 1 MiB`},
		{"PNG without a diagram", okPNG, drawio.Options{}, drawio.ErrNotDrawio, "this PNG holds no draw.io diagram"},
		{"PNG cut short", okPNG[:len(okPNG)-5], drawio.Options{}, drawio.ErrMalformed, "the PNG is damaged: a chunk is cut short"},
		{"PNG chunk too long", append(okPNG[:8:8], 0x7f, 0xff, 0xff, 0xff, 'I', 'H', 'D', 'R', 0, 0, 0, 0), drawio.Options{}, drawio.ErrMalformed, "claims 2147483647 bytes"},
		{"PNG bad CRC", broken, drawio.Options{}, drawio.ErrMalformed, "fails its CRC check"},
		{"PNG bomb", pngWith(chunk("zTXt", append([]byte("mxfile\x00\x00"), zlibbed(string(make([]byte, 4<<20)))...))), drawio.Options{MaxSize: 1 << 20}, drawio.ErrTooLarge, "inflates to more than 1 MiB"},
		{"SVG without content", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>`), drawio.Options{}, drawio.ErrNotDrawio, "this SVG holds no draw.io diagram"},
		{"SVG malformed content", []byte(`<svg content="&lt;mxfile&gt;&lt;diagram"/>`), drawio.Options{}, drawio.ErrMalformed, "the content attribute of the SVG, line 1, column 9: malformed XML: unexpected end of file inside <diagram>"},
		{"SVG content not base64", []byte(`<svg content="hello"/>`), drawio.Options{}, drawio.ErrMalformed, "the content attribute of the SVG is neither XML nor valid base64"},
		{"SVG content of another kind", []byte(`<svg content="&lt;html/&gt;"/>`), drawio.Options{}, drawio.ErrNotDrawio, "the content attribute of the SVG is XML but not a draw.io diagram: its root element is <html>"},
		{"SVG in SVG", []byte(`<svg content="&lt;svg/&gt;"/>`), drawio.Options{}, drawio.ErrNotDrawio, "the content attribute of the SVG is an SVG, not a diagram"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(bytes.NewReader(tt.data), tt.opt)
			if c != nil || !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.message) {
				t.Fatalf("Read = %v, %v; want nil and an error wrapping %v with %q", c, err, tt.err, tt.message)
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 || l[0].Severity != diag.Error {
				t.Errorf("error %#v is not one diag.Diagnostic", err)
			}
		})
	}
}

func itoa(i int) string {
	return strings.TrimLeft(string(rune('0'+i/100%10))+string(rune('0'+i/10%10))+string(rune('0'+i%10)), "0")
}

// model wraps cells in an mxGraphModel with its root and layer.
func model(cells ...string) string {
	return `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` + strings.Join(cells, "") + `</root></mxGraphModel>`
}

func vertex(id, value, style string) string {
	return `<mxCell id="` + id + `" value="` + xmlEscape(value) + `" style="` + style + `" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`
}

func edge(id, value, style, source, target string) string {
	ends := ""
	if source != "" {
		ends += ` source="` + source + `"`
	}
	if target != "" {
		ends += ` target="` + target + `"`
	}
	return `<mxCell id="` + id + `" value="` + xmlEscape(value) + `" style="` + style + `" edge="1" parent="1"` + ends + `><mxGeometry relative="1" as="geometry"/></mxCell>`
}

// TestPlain checks the rules of the plain reading, one drawing at a time:
// the chart, and the diagnostics.
func TestPlain(t *testing.T) {
	for _, tt := range []struct {
		name  string
		xml   string
		want  []string // in the rendering of the chart
		diags []string // in the diagnostics
	}{
		{"pseudo-states",
			model(vertex("a", "", "ellipse;html=1;shape=startState;"), vertex("b", "", "ellipse;shape=endState;fillColor=#000000;"),
				vertex("c", "", "rhombus;"), vertex("d", "", "ellipse;fillColor=none;"), vertex("e", "$initial_state", "ellipse;noLabel=1;"),
				vertex("f", "", "doubleEllipse;"), vertex("g", "Idle", "ellipse;")),
			[]string{`"a" name="" kind=start initial=true`, `"b" name="" kind=end`, `"c" name="" kind=choice`, `"d" name="" kind=choice`,
				`"e" name="" kind=start initial=true`, `"f" name="" kind=end`, `"g" name="Idle" kind=normal`},
			nil},
		{"HTML labels",
			model(vertex("a", "<div><b>ON3</b></div><div>enter / {</div><div>&nbsp; count = 0;</div>", "rounded=1;html=1;"),
				vertex("b", "Waiting for <br>Update &amp; Request", "html=1;"), vertex("c", "a<br>b", "rounded=1;"),
				edge("e", "go&lt;now&gt;<br/>[x &gt; 1]", "html=1;", "a", "b")),
			[]string{`"a" name="ON3"`, `"b" name="Waiting for Update & Request"`, `"c" name="a<br>b"`,
				`label="go<now>\n[x > 1]" event="go<now>" guard="x > 1"`},
			[]string{`state "ON3": the behaviour written in it is code for a code generator, which fsmforge does not run: "enter / { count = 0;"`}},
		{"edge labels",
			model(vertex("a", "A", ""), vertex("b", "B", ""), edge("e", "", "", "a", "b"),
				`<mxCell id="l1" value="push" style="edgeLabel;html=1;" vertex="1" connectable="0" parent="e"><mxGeometry relative="1" as="geometry"/></mxCell>`,
				`<mxCell id="l2" value="/ swing()" style="edgeLabel;" vertex="1" parent="e"><mxGeometry relative="1" as="geometry"/></mxCell>`),
			[]string{`transition "e" from="a" any=false order=1 test="push" value="" label="push\n/ swing()" event="push" guard="" action="swing()"`},
			nil},
		{"orders",
			model(vertex("a", "A", ""), vertex("b", "B", ""), edge("e1", "x", "", "a", "b"), edge("e2", "1. y", "", "a", "b"), edge("e3", "z", "", "a", "a")),
			// "1. y" first, then those without an order, in document order, as StateSmith reads them.
			[]string{`"e1" from="a" any=false order=2 test="x"`, `"e2" from="a" any=false order=1 test="y"`, `"e3" from="a" any=false order=3 test="z"`},
			[]string{`state "A": 1 of 3 transitions have an order and 2 have none; those without one are tried after those with one, in document order: 1. "1. y" (order 1), 2. "x" (no order), 3. "z" (no order)`}},
		{"decorations and frames",
			model(vertex("t", "Title", "text;"), vertex("n", "a note", "shape=note;"), vertex("f", "Frame", "shape=umlFrame;"),
				vertex("i", "", "image;image=x.png;"), vertex("g", "", "group;"),
				`<mxCell id="a" value="A" style="rounded=1;" vertex="1" parent="g"><mxGeometry x="10" y="20" width="80" height="40" as="geometry"/></mxCell>`,
				vertex("tx", "Linked text", "text;"), edge("e", "", "", "a", "tx")),
			[]string{`state "a" name="A" kind=normal initial=false parent=""`, `state "tx" name="Linked text"`},
			[]string{`text t "Title" is not a state; ignored`, `note n "a note" is not a state; ignored`, `frame f "Frame" is not a state; ignored`,
				`2 shapes without text (groups, lines, images, empty boxes) are not part of the chart`}},
		{"dangling edges",
			model(vertex("a", "A", ""), edge("e1", "end", "", "a", ""), edge("e2", "start", "", "", "a"), edge("e3", "loose", "", "", ""),
				edge("e4", "", "", "a", "nowhere"), edge("e5", "", "endArrow=none;", "a", "a")),
			[]string{`"e1" from="a" any=false order=1 test="end" value="" label="end" event="end" guard="" action="" target=(final)`},
			[]string{`shape e2 "start": drawio: the start of the edge is attached to no state`, `shape e3 "loose": warning: drawio: edge "loose" attached to no shape: not a transition; ignored`,
				`shape e4: warning: drawio: the end of the edge is attached to cell "nowhere", which is not on the page; ignored`,
				`shape e5: warning: drawio: line without an arrowhead between shape a "A" and shape a "A": not a transition; ignored`}},
		{"not a state",
			model(vertex("a", "A", ""), vertex("t", "", "text;"), edge("l", "x", "", "a", "b"),
				`<mxCell id="b" value="" style="edgeLabel;" vertex="1" parent="l"/>`, edge("m", "y", "", "l", "a")),
			[]string{`state "a"`},
			[]string{`shape l "x": warning: drawio: the end of the edge is attached to shape b (edgeLabel), which is not a state; ignored`,
				`shape m "y": warning: drawio: the start of the edge is attached to shape l "x", which is not a state; ignored`}},
		{"history and regions",
			model(vertex("h", "H*", "ellipse;"), vertex("s", "S", "rounded=1;"), edge("d", "", "endArrow=none;dashed=1;", "s", "s"),
				`<mxCell id="l" value="" style="line;dashed=1;" vertex="1" parent="s"><mxGeometry as="geometry"/></mxCell>`),
			[]string{`state "s" name="S"`},
			[]string{`shape h "H*": drawio: history h is drawn in no state: a history keeps the history of the state it is drawn in; it and its transitions are left out`,
				`shape l: drawio: a dashed line inside shape s "S" divides it into parallel regions, which a line cannot say: which states are in which region?`,
				`shape d: drawio: a dashed line across shape s "S" divides it into parallel regions, which a line cannot say: which states are in which region?`}},
		{"compound",
			model(vertex("st", "", "ellipse;fillColor=#000;"), `<mxCell id="on" value="On" style="swimlane;" vertex="1" parent="1"><mxGeometry x="100" y="100" width="300" height="200" as="geometry"/></mxCell>`,
				`<mxCell id="is" value="" style="ellipse;fillColor=black;" vertex="1" parent="on"><mxGeometry x="5" y="5" width="10" height="10" as="geometry"/></mxCell>`,
				`<mxCell id="a" value="A" style="" vertex="1" parent="on"><mxGeometry x="10" y="30" width="80" height="40" as="geometry"/></mxCell>`,
				`<mxCell id="b" value="B" style="" vertex="1" parent="on"><mxGeometry x="150" y="30" width="80" height="40" as="geometry"/></mxCell>`,
				vertex("off", "Off", ""), edge("t0", "", "", "st", "on"), edge("t1", "", "", "is", "b"), edge("t2", "next", "", "b", "a"), edge("t3", "off", "", "on", "off")),
			[]string{`state "on" name="On" kind=normal initial=false parent=""`, `state "is" name="" kind=start initial=true parent="on"`,
				`state "a" name="A" kind=normal initial=false parent="on"`,
				`transition "t0" from="st" any=false order=1 test="" value="" label="" event="" guard="" action="" target=on`,
				`transition "t1" from="is" any=false order=1 test="" value="" label="" event="" guard="" action="" target=b`,
				`transition "t3" from="on" any=false order=1 test="off"`},
			nil},
		{"cycle",
			model(`<mxCell id="a" value="A" vertex="1" parent="b"/>`, `<mxCell id="b" value="B" vertex="1" parent="a"/>`),
			[]string{`state "a"`, `state "b"`},
			[]string{`shape a: drawio: cells a, b are nested inside each other; they are read as drawn at the top of the page`}},
		{"duplicate IDs",
			model(vertex("a", "A", ""), vertex("a", "A2", ""), `<mxCell value="x" vertex="1" parent="1"/>`, vertex("o", "orphan", "")[:0]+`<mxCell id="o" value="Orphan" vertex="1" parent="zz"/>`),
			[]string{`state "a" name="A"`, `state "o" name="Orphan"`},
			[]string{`shape a: warning: drawio: cell ID "a" is used twice on the page; the second cell is ignored`, `warning: drawio: cell without an ID; ignored`,
				`shape o: warning: drawio: the parent of cell o, "zz", is not on the page`}},
		{"attributes of plain drawings",
			model(`<object label="A" fsmforgeInitial="1" id="a"><mxCell vertex="1" parent="1"/></object>`, vertex("b", "B", ""),
				`<object label="go [x]" fsmforgeOrder="3" fsmforgeTest="t" fsmforgeEvent="e" fsmforgeGuard="g" fsmforgeAction="a" id="e"><mxCell edge="1" parent="1" source="a" target="b"/></object>`,
				`<object label="bad" fsmforgeOrder="x" id="f"><mxCell edge="1" parent="1" source="a" target="b"/></object>`),
			[]string{`state "a" name="A" kind=normal initial=true`, `transition "e" from="a" any=false order=3 test="t" value="" label="go [x]" event="e" guard="g" action="a"`},
			[]string{`warning: drawio: fsmforgeOrder "x" is not a whole number; ignored`}},
		{"actions, targetless transitions, a history's name",
			model(`<object label="A" fsmforgeEntry="Animation=walk&#10;[low] raise flee" fsmforgeExit="send tick after 1.5s as t1&#10;&#10;cancel t1" id="a"><mxCell style="swimlane;" vertex="1" parent="1"/></object>`,
				`<object label="B" fsmforgeInitial="1" id="b"><mxCell vertex="1" parent="a"/></object>`,
				`<object label="H*" fsmforgeName="deepHistory" id="h"><mxCell style="ellipse;" vertex="1" parent="a"/></object>`,
				`<object label="tick" fsmforgeStay="1" fsmforgeActions="raise &quot;walk left&quot;" id="e1"><mxCell edge="1" parent="1" source="a" target="a"/></object>`,
				`<object label="poke" fsmforgeStay="1" fsmforgeFinal="1" id="e2"><mxCell edge="1" parent="1" source="b"/></object>`,
				`<object label="go" fsmforgeStay="0" id="e3"><mxCell edge="1" parent="1" source="b" target="a"/></object>`),
			[]string{`state "a" name="A" kind=normal initial=false parent="" entry=[Animation=walk ["low"] raise "flee"] exit=[send "tick" after 1.5s as "t1" cancel "t1"]`,
				`state "h" name="deepHistory" kind=deepHistory initial=false parent="a" entry=[]`,
				`transition "e1" from="a" any=false order=1 test="tick" value="" label="tick" event="tick" guard="" action="" target=(none) push=false actions=[raise "walk left"]`,
				`transition "e2" from="b" any=false order=1 test="poke" value="" label="poke" event="poke" guard="" action="" target=(none)`,
				`transition "e3" from="b" any=false order=2 test="go" value="" label="go" event="go" guard="" action="" target=a`},
			nil},
		{"actions and targetless transitions, wrongly",
			model(`<object label="A" fsmforgeEntry="raise&#10;jump now&#10;Speed=fast" fsmforgeExit="send e after soon" id="a"><mxCell vertex="1" parent="1"/></object>`, vertex("b", "B", ""),
				`<object label="x" fsmforgeStay="1" id="e1"><mxCell edge="1" parent="1" source="a" target="b"/></object>`,
				`<object label="y" fsmforgeStay="maybe" fsmforgeActions="[low raise e" id="e2"><mxCell edge="1" parent="1" source="a" target="b"/></object>`,
				`<object label="C" fsmforgeExit="`+strings.Repeat("jump now&#10;", 7)+`" id="c"><mxCell vertex="1" parent="1"/></object>`),
			[]string{`state "a" name="A" kind=normal initial=false parent="" entry=[Speed=fast]`,
				`transition "e2" from="a" any=false order=1 test="y" value="" label="y" event="y" guard="" action="" target=b push=false`},
			[]string{`shape a "A": warning: drawio: fsmforgeEntry line 1 "raise": raise takes one word: the event; ignored`,
				`shape a "A": warning: drawio: fsmforgeEntry line 2 "jump now": an action starts with raise, send or cancel, or is PROPERTY=VALUE or name(argument); ignored`,
				`shape a "A": warning: drawio: fsmforgeExit line 1 "send e after soon": the delay of a send is a number of seconds from 0 (1.5s); ignored`,
				`shape e1 "x": warning: drawio: the edge is marked fsmforgeStay = 1, but its end is glued to shape b "B", another state; ignored`,
				`shape e2 "y": warning: drawio: fsmforgeStay "maybe" is not 1 or 0; ignored`,
				`shape e2 "y": warning: drawio: fsmforgeActions line 1 "[low raise e": the guard's '[' is not closed by a ']'; ignored`,
				`shape c "C": warning: drawio: fsmforgeExit line 5 "jump now"`, // 5 lines one by one, then the others counted
				`shape c "C": warning: drawio: fsmforgeExit: 2 more lines do not read; ignored`}},
		{"placeholders",
			model(`<UserObject label="%who% is %mood%" placeholders="1" who="Bob" id="a"><mxCell vertex="1" parent="1"/></UserObject>`),
			[]string{`state "a" name="Bob is %mood%"`}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(strings.NewReader(tt.xml), drawio.Options{File: "t.drawio"})
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
			charttest.CheckChart(t, c, err)
			checkContains(t, c, tt.want, tt.diags)
		})
	}
}

// TestHugeInput reads inputs made to be slow to a careless reader: each
// must be read in time linear in its size.
func TestHugeInput(t *testing.T) {
	var selfClosing, chain, labels strings.Builder
	selfClosing.WriteString("<mxfile>")
	for range 20000 {
		selfClosing.WriteString(`<diagram><mxGraphModel/></diagram>`)
	}
	selfClosing.WriteString("</mxfile>")
	chain.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>`)
	for i := range 50000 {
		chain.WriteString(`<mxCell id="c` + strconv.Itoa(i+1) + `" vertex="1" parent="c` + strconv.Itoa(i) + `"/>`)
	}
	chain.WriteString(`<mxCell id="c0" vertex="1" parent="c50000"/></root></mxGraphModel>`)
	labels.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/><mxCell id="a" vertex="1" parent="1"/><mxCell id="e" edge="1" parent="1" source="a" target="a"/>`)
	for i := range 30000 {
		labels.WriteString(`<mxCell id="l` + strconv.Itoa(i) + `" value="x" vertex="1" parent="e"/>`)
	}
	labels.WriteString(`</root></mxGraphModel>`)
	// One state of 30,000 histories without a transition, and a
	// parallel state of 30,000 regions, each entered by a transition.
	var histories, regions strings.Builder
	histories.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/><mxCell id="g" value="G" style="swimlane;" vertex="1" parent="1"/>` +
		`<mxCell id="s" style="shape=startState;" vertex="1" parent="g"/><mxCell id="a" value="A" vertex="1" parent="g"/><mxCell id="e" edge="1" parent="1" source="s" target="a"/>`)
	regions.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/><object label="P" fsmforgeParallel="1" id="p"><mxCell vertex="1" parent="1"/></object>`)
	for i := range 30000 {
		n := strconv.Itoa(i)
		histories.WriteString(`<mxCell id="h` + n + `" value="H" style="ellipse;" vertex="1" parent="g"/>`)
		regions.WriteString(`<mxCell id="r` + n + `" value="R" vertex="1" parent="p"/><mxCell id="x` + n + `" value="X" vertex="1" parent="r` + n + `"/>` +
			`<mxCell id="e` + n + `" value="go" edge="1" parent="1" source="p" target="x` + n + `"/>`)
	}
	histories.WriteString(`</root></mxGraphModel>`)
	regions.WriteString(`</root></mxGraphModel>`)
	for _, tt := range []struct {
		name, data string
		opt        drawio.Options
	}{
		{"many pages", selfClosing.String(), drawio.Options{}},
		{"a long cycle of cells", chain.String(), drawio.Options{MaxDepth: 100000}},
		{"many labels of an edge", labels.String(), drawio.Options{}},
		{"many histories in a state", histories.String(), drawio.Options{}},
		{"many regions entered", regions.String(), drawio.Options{}},
		{"HTML of '<'", model(vertex("a", strings.Repeat("<", 1<<20), "html=1;")), drawio.Options{}},
		{"HTML of scripts", model(vertex("a", strings.Repeat("<script>", 1<<17), "html=1;")), drawio.Options{}},
		{"placeholders", model(`<UserObject label="` + strings.Repeat("%a", 1<<19) + `" placeholders="1" id="a"><mxCell vertex="1" parent="1"/></UserObject>`), drawio.Options{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A reader quadratic in one of these shows as a slow test.
			c, err := drawio.Read(strings.NewReader(tt.data), tt.opt)
			if c == nil {
				t.Fatalf("Read = nil, %v", err)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	c, err := drawio.ReadFile("testdata/nope.drawio", drawio.Options{})
	if c != nil || !errors.Is(err, fs.ErrNotExist) || err.Error() != "testdata/nope.drawio: drawio: cannot read the diagram: no such file or directory" {
		t.Errorf("ReadFile(missing) = %v, %v", c, err)
	}
}

func TestNegativeOptions(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "must not be negative") {
			t.Errorf("Read with MaxSize -1 panicked with %v", r)
		}
	}()
	drawio.Read(strings.NewReader(door), drawio.Options{MaxSize: -1})
}

// TestPageIDs reads pages that share an ID, and a cell whose ID is that of
// a cell of another page with its prefix: IDs stay unique.
func TestPageIDs(t *testing.T) {
	data := `<mxfile><diagram id="p">` + model(vertex("p/q", "A", "")) + `</diagram>` +
		`<diagram id="p">` + model(vertex("q", "B", "")) + `</diagram>` +
		`<diagram id="p">` + model(vertex("q", "C", "")) + `</diagram></mxfile>`
	c, err := drawio.Read(strings.NewReader(data), drawio.Options{})
	if c == nil {
		t.Fatal(err)
	}
	charttest.CheckChart(t, c, err)
	got := strings.Join(render(c), "\n")
	for _, want := range []string{`state "p/q" name="A"`, `state "p-2/q" name="C"`} {
		if !strings.Contains(got, want) {
			t.Errorf("chart lacks %s in\n%s", want, got)
		}
	}
	if err == nil || !strings.Contains(err.Error(), `cell q of page "Page-2" has the ID "p/q" of a cell of another page; ignored`) {
		t.Errorf("Read error = %v", err)
	}
}
