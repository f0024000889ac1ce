package drawio_test

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/base64"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

var hostileDir = flag.String("hostile", "", "write the hostile inputs of TestHostile at full size into this `directory`, for a check of the CLI under a memory limit")

// hostile is a class of file made to exhaust a careless reader: to make it
// allocate more than a process may, loop for ever, or print megabytes of
// diagnostics. gen makes the file at the size the test reads it with opt
// (a few MB at most, its limits lowered), or, big, at the size that
// exceeds the default limits (up to a few hundred MB; see -hostile).
type hostile struct {
	name string
	ext  string // of the file written by -hostile: how the CLI reads it
	gen  func(big bool) []byte
	opt  drawio.Options
	err  error  // the sentinel of the error Read must return; nil: a chart
	msg  string // in the error, or in a diagnostic of the chart
}

// testMaxSize is Options.MaxSize for the test: the files exceed it as the
// big ones exceed the default.
const testMaxSize = 8 << 20

// size returns small, or big for the big file.
func size(big bool, small, large int) int {
	if big {
		return large
	}
	return small
}

// repeatReader reads b n times.
type repeatReader struct {
	b byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n)]
	for i := range p {
		p[i] = r.b
	}
	r.n -= int64(len(p))
	return len(p), nil
}

// deflate compresses what r reads, raw or with a zlib header.
func deflate(r io.Reader, withZlib bool) []byte {
	var b bytes.Buffer
	var w io.WriteCloser
	if withZlib {
		w, _ = zlib.NewWriterLevel(&b, zlib.BestCompression)
	} else {
		w, _ = flate.NewWriter(&b, flate.BestCompression)
	}
	io.Copy(w, r)
	w.Close()
	return b.Bytes()
}

// zTXt is a PNG zTXt chunk whose text, Latin-1, inflates from data.
func zTXt(keyword string, data []byte) []byte {
	return chunk("zTXt", append([]byte(keyword+"\x00\x00"), data...))
}

// cells returns n times the cell made by cell(i), in a page.
func cells(n int, cell func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>`)
	for i := range n {
		b.WriteString(cell(i))
	}
	b.WriteString(`</root></mxGraphModel>`)
	return b.Bytes()
}

var hostiles = []hostile{
	{
		// A property of 1 KB (900 KB big) named 10,000 times in a label:
		// 10 MB (9 GB big) of text from a file of 30 KB (1 MB).
		name: "placeholders of one label", ext: ".drawio",
		gen: func(big bool) []byte {
			return []byte(model(`<UserObject id="a" placeholders="1" a="` + strings.Repeat("x", size(big, 1000, 900_000)) +
				`" label="` + strings.Repeat("%a%", 10_000) + `"><mxCell vertex="1" parent="1"/></UserObject>`))
		},
		err: drawio.ErrTooLarge, msg: `page "Page-1", shape a: drawio: the placeholders of the label expand to more than 8 MiB`,
	},
	{
		// Labels of 10 KB (50 KB), each well under the limit, 10 MB (500
		// MB) together.
		name: "placeholders of many labels", ext: ".drawio",
		gen: func(big bool) []byte {
			a, n, k := strings.Repeat("x", size(big, 100, 1000)), size(big, 100, 50), size(big, 1000, 10_000)
			return cells(k, func(i int) string {
				return `<UserObject id="u` + strconv.Itoa(i) + `" placeholders="1" a="` + a + `" label="` + strings.Repeat("%a%", n) + `"><mxCell vertex="1" parent="1"/></UserObject>`
			})
		},
		err: drawio.ErrTooLarge, msg: "with those of the other labels of the file",
	},
	{
		// 20,000 (200,000) properties, the last one named as many times:
		// quadratic in a reader that looks each up in a list.
		name: "placeholders among many properties", ext: ".drawio",
		gen: func(big bool) []byte {
			n := size(big, 20_000, 200_000)
			var b strings.Builder
			for i := range n {
				b.WriteString(` p` + strconv.Itoa(i) + `="v"`)
			}
			last := "%p" + strconv.Itoa(n-1) + "%"
			return []byte(model(`<UserObject id="a" placeholders="1"` + b.String() + ` label="` + strings.Repeat(last, n) + `%nope%"><mxCell vertex="1" parent="1"/></UserObject>`))
		},
	},
	{
		// 1M (14M) mxCell tags in a comment: a reader that sizes the cells
		// from a count of the tags allocates 0.3 GB (3.8 GB).
		name: "mxCell tags in a comment", ext: ".drawio",
		gen: func(big bool) []byte {
			return []byte(strings.Replace(door, `</root>`, `</root><!--`+strings.Repeat("<mxCell", size(big, 1_000_000, 14_000_000))+`-->`, 1))
		},
	},
	{
		// 60,000 (11M) empty cells, over Options.MaxElements.
		name: "too many cells", ext: ".drawio",
		gen: func(big bool) []byte {
			return cells(size(big, 60_000, 11_000_000), func(int) string { return `<mxCell/>` })
		},
		opt: drawio.Options{MaxElements: 50_000},
		err: drawio.ErrTooLarge, msg: "drawio: the diagram has more than 50000 cells and pages",
	},
	{
		// 20,000 (900,000) vertices without an ID, under Options.MaxElements:
		// an error each, all alike.
		name: "many cells without an ID", ext: ".drawio",
		gen: func(big bool) []byte {
			return cells(size(big, 20_000, 900_000), func(int) string { return `<mxCell vertex="1" parent="1"/>` })
		},
		msg: "drawio: cell without an ID; ignored (and 19990 more like it)",
	},
	{
		// 60,000 (20M) empty pages, over Options.MaxElements.
		name: "too many pages", ext: ".drawio",
		gen: func(big bool) []byte {
			return []byte("<mxfile>" + strings.Repeat("<diagram/>", size(big, 60_000, 20_000_000)) + "</mxfile>")
		},
		opt: drawio.Options{MaxElements: 50_000},
		err: drawio.ErrTooLarge, msg: "drawio: the diagram has more than 50000 cells and pages",
	},
	{
		// 20,000 (900,000) compressed pages: a reader that makes a new
		// inflater and buffers for each allocates 100 KB a page.
		name: "many compressed pages", ext: ".drawio",
		gen: func(big bool) []byte {
			pg := `<diagram>` + compressed(`<mxGraphModel/>`) + `</diagram>`
			return []byte("<mxfile>" + strings.Repeat(pg, size(big, 20_000, 900_000)) + "</mxfile>")
		},
	},
	{
		// A shape with 200,000 (20M) properties in one start tag. Big, it
		// exhausts 4 GB in internal/xmlscan, which holds a start tag's
		// attributes before the reader sees them and has no limit of its
		// own.
		name: "many properties", ext: ".drawio",
		gen: func(big bool) []byte {
			var b strings.Builder
			for i := range size(big, 200_000, 20_000_000) {
				b.WriteString(" p" + strconv.Itoa(i) + `=""`)
			}
			return []byte(model(`<UserObject id="a" label="A"` + b.String() + `><mxCell vertex="1" parent="1"/></UserObject>`))
		},
	},
	{
		// 10,000 (1M) shapes of 20 properties: 200,000 (20M) properties,
		// over Options.MaxElements.
		name: "too many properties", ext: ".drawio",
		gen: func(big bool) []byte {
			var props strings.Builder
			for i := range 20 {
				props.WriteString(" p" + strconv.Itoa(i) + `=""`)
			}
			return cells(size(big, 10_000, 1_000_000), func(i int) string {
				return `<object id="o` + strconv.Itoa(i) + `"` + props.String() + `><mxCell vertex="1" parent="1"/></object>`
			})
		},
		opt: drawio.Options{MaxElements: 100_000},
		err: drawio.ErrTooLarge, msg: "drawio: the diagram has more than 100000 properties",
	},
	{
		// 20,000 (900,000) elements that wrap no mxCell: a note each, all
		// alike.
		name: "wrappers without a cell", ext: ".drawio",
		gen: func(big bool) []byte {
			return cells(size(big, 20_000, 900_000), func(int) string { return `<a/>` })
		},
		msg: "drawio: <a> holds no mxCell; ignored (and 19990 more like it)",
	},
	{
		// A zTXt chunk of 5 MB (255 MB) of Latin-1 that is twice as much
		// UTF-8.
		name: "PNG zTXt of Latin-1", ext: ".drawio.png",
		gen: func(big bool) []byte {
			return pngWith(zTXt("mxfile", deflate(&repeatReader{0xFF, int64(size(big, 5<<20, 255<<20))}, true)))
		},
		err: drawio.ErrTooLarge, msg: `drawio: the zTXt chunk "mxfile" of the PNG inflates to more than 8 MiB`,
	},
	{
		// A compressed iTXt chunk of 9 MB (300 MB).
		name: "PNG iTXt bomb", ext: ".drawio.png",
		gen: func(big bool) []byte {
			return pngWith(chunk("iTXt", append([]byte("mxfile\x00\x01\x00en\x00\x00"), deflate(&repeatReader{'a', int64(size(big, 9<<20, 300<<20))}, true)...)))
		},
		err: drawio.ErrTooLarge, msg: `drawio: the iTXt chunk "mxfile" of the PNG inflates to more than 8 MiB`,
	},
	{
		// A tEXt chunk of 5 MB (200 MB) of Latin-1.
		name: "PNG tEXt of Latin-1", ext: ".drawio.png",
		gen: func(big bool) []byte {
			return pngWith(chunk("tEXt", append([]byte("mxfile\x00"), bytes.Repeat([]byte{0xE9}, size(big, 5<<20, 200<<20))...)))
		},
		err: drawio.ErrTooLarge, msg: `drawio: the tEXt chunk "mxfile" of the PNG is more than 8 MiB in UTF-8`,
	},
	{
		// A zTXt chunk of base64 of a deflate bomb: compressed twice.
		name: "PNG zTXt of a compressed diagram", ext: ".drawio.png",
		gen: func(big bool) []byte {
			inner := base64.StdEncoding.EncodeToString(deflate(&repeatReader{'<', int64(size(big, 16<<20, 1<<30))}, false))
			return pngWith(zTXt("mxfile", deflate(strings.NewReader(inner), true)))
		},
		err: drawio.ErrTooLarge, msg: `drawio: the zTXt chunk "mxfile" of the PNG inflates to more than 8 MiB`,
	},
	{
		// A compressed page of 16 MB (1 GB).
		name: "compressed page bomb", ext: ".drawio",
		gen: func(big bool) []byte {
			return []byte(`<mxfile><diagram name="P">` + base64.StdEncoding.EncodeToString(deflate(&repeatReader{'<', int64(size(big, 16<<20, 1<<30))}, false)) + `</diagram></mxfile>`)
		},
		err: drawio.ErrTooLarge, msg: `drawio: the compressed page "P" inflates to more than 8 MiB`,
	},
	{
		// An SVG whose content is compressed: 16 MB (1 GB).
		name: "SVG content bomb", ext: ".drawio.svg",
		gen: func(big bool) []byte {
			return []byte(`<svg content="` + base64.StdEncoding.EncodeToString(deflate(&repeatReader{'<', int64(size(big, 16<<20, 1<<30))}, false)) + `"/>`)
		},
		err: drawio.ErrTooLarge, msg: "drawio: the content attribute of the SVG inflates to more than 8 MiB",
	},
	{
		// A PNG whose diagram has 60 (200) elements with a name of 64 KB
		// (1 MB) that wrap no mxCell: a note each.
		name: "PNG of long names", ext: ".drawio.png",
		gen: func(big bool) []byte {
			name := strings.Repeat("n", size(big, 64<<10, 1<<20))
			xml := `<mxGraphModel><root>` + strings.Repeat("<"+name+"/>", size(big, 60, 200)) + `</root></mxGraphModel>`
			return pngWith(zTXt("mxfile", deflate(strings.NewReader(xml), true)))
		},
		msg: "holds no mxCell; ignored (and 50 more like it)",
	},
	{
		// A start tag of 1 MB (100 MB) not closed.
		name: "long name in malformed XML", ext: ".drawio",
		gen: func(big bool) []byte {
			return []byte("<mxfile><" + strings.Repeat("n", size(big, 1<<20, 100<<20)) + " ")
		},
		err: drawio.ErrMalformed, msg: "drawio: malformed XML: unexpected end of file inside <nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...>",
	},
	{
		// A page named with 100 KB (1 MB) whose 1,000 (100,000) cells have
		// no ID.
		name: "long page name", ext: ".drawio",
		gen: func(big bool) []byte {
			return []byte(`<mxfile><diagram name="` + strings.Repeat("p", size(big, 100<<10, 1<<20)) + `">` +
				string(cells(size(big, 1000, 100_000), func(int) string { return `<mxCell vertex="1" parent="1"/>` })) + `</diagram></mxfile>`)
		},
		msg: "drawio: cell without an ID; ignored (and 990 more like it)",
	},
	{
		// 100 (200) cells sharing an ID of 64 KB (1 MB).
		name: "long cell IDs", ext: ".drawio",
		gen: func(big bool) []byte {
			id := strings.Repeat("i", size(big, 64<<10, 1<<20))
			return cells(size(big, 100, 200), func(int) string { return `<mxCell id="` + id + `" value="A" vertex="1" parent="1"/>` })
		},
		msg: "is used twice on the page",
	},
	{
		// A geometry of 1 MB (100 MB) that is not a number, and a label as
		// long.
		name: "long values", ext: ".drawio",
		gen: func(big bool) []byte {
			long := strings.Repeat("9", size(big, 1<<20, 60<<20))
			return []byte(model(`<mxCell id="a" value="`+long+`" vertex="1" parent="1"><mxGeometry x="`+long+`x" as="geometry"/></mxCell>`,
				`<mxCell id="e" value="`+long+` " edge="1" parent="1" target="a"/>`))
		},
		msg: "drawio:",
	},
	{
		// 4 MB (200 MB) of UTF-16.
		name: "UTF-16", ext: ".drawio",
		gen: func(big bool) []byte {
			return utf16Bytes(strings.Replace(door, "<root>", "<root>"+strings.Repeat(" ", size(big, 2<<20, 100<<20)), 1), false)
		},
	},
}

// TestHostile reads each class of hostile input: each must end quickly,
// with the error expected or a chart, allocating a small multiple of the
// file and its limits, and render its diagnostics in a few KB. With
// -hostile DIR, it writes the big files into DIR instead, for a check of
// the CLI:
//
//	go test -run TestHostile ./chart/drawio -args -hostile=/tmp/hostile
//	go build -o /tmp/ff ./cmd/fsmforge
//	for f in /tmp/hostile/*; do (ulimit -v 4000000; time /tmp/ff check $f > /dev/null 2>&1; echo $?); done
func TestHostile(t *testing.T) {
	if *hostileDir != "" {
		writeHostile(t, *hostileDir)
		return
	}
	for _, h := range hostiles {
		t.Run(h.name, func(t *testing.T) {
			data := h.gen(false)
			opt := h.opt
			opt.File = "hostile" + h.ext
			if opt.MaxSize == 0 {
				opt.MaxSize = testMaxSize
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			c, err := drawio.Read(bytes.NewReader(data), opt)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes: %v, %d MB allocated", len(data), took.Round(time.Millisecond), alloc>>20)
			if took > 20*time.Second { // a hang shows as minutes; -race on a loaded machine as seconds
				t.Errorf("Read took %v", took)
			}
			// The output is small; what the reader may allocate is bounded
			// by the file and by what its limits let it produce: a few
			// times the text, and a KB a cell.
			limit := 16*uint64(len(data)) + 6*uint64(opt.MaxSize)
			if h.opt.MaxElements > 0 {
				limit += 1 << 10 * uint64(h.opt.MaxElements)
			}
			if alloc > limit {
				t.Errorf("Read allocated %d MB, more than %d MB", alloc>>20, limit>>20)
			}
			charttest.CheckChart(t, c, err)
			ds := diagnostics(c, err)
			rendered, long := 0, 0
			for _, d := range ds {
				n := len(d.Error()) + len(d.Hint)
				if n > 2000 {
					if long++; long == 1 {
						t.Errorf("diagnostic of %d bytes: %.300s...", n, d.Error())
					}
				}
				rendered += n
			}
			if rendered > 64<<10 || long > 1 {
				t.Errorf("%d diagnostics of %d bytes in all, %d of them over 2000", len(ds), rendered, long)
			}
			if c != nil {
				// Other packages quote the positions of states and
				// transitions in their messages.
				for _, s := range c.States {
					if n := len(s.Pos.String()); n > 1000 {
						t.Fatalf("state at a position of %d bytes: %.300s...", n, s.Pos)
					}
				}
				for _, tr := range c.Transitions {
					if n := len(tr.Pos.String()); n > 1000 {
						t.Fatalf("transition at a position of %d bytes: %.300s...", n, tr.Pos)
					}
				}
			}
			switch {
			case h.err != nil:
				if c != nil || !errors.Is(err, h.err) || !strings.Contains(err.Error(), h.msg) {
					t.Fatalf("Read = %v, %.500v; want nil and an error wrapping %v with %q", c != nil, err, h.err, h.msg)
				}
			case c == nil:
				t.Fatalf("Read = nil, %.500v", err)
			case h.msg != "" && !hasDiagnostic(ds, h.msg):
				t.Errorf("no diagnostic says %q in %.2000v", h.msg, ds)
			}
		})
	}
}

// TestHostileDoor checks that what a hostile input adds to the door does
// not change how it reads.
func TestHostileDoor(t *testing.T) {
	checked := 0
	for _, h := range hostiles {
		if h.name != "mxCell tags in a comment" && h.name != "UTF-16" {
			continue
		}
		checked++
		c, err := drawio.Read(bytes.NewReader(h.gen(false)), drawio.Options{})
		if err != nil {
			t.Fatalf("%s: Read = %v", h.name, err)
		}
		if d := diff(render(c), doorWant); d != "" {
			t.Errorf("%s: Read differs at %s", h.name, d)
		}
	}
	if checked != 2 {
		t.Errorf("%d of the 2 hostile inputs checked: one was renamed", checked)
	}
}

// diagnostics returns the diagnostics of a reading: the chart's, or the
// error's.
func diagnostics(c *chart.Chart, err error) diag.List {
	if c != nil {
		return c.Diagnostics
	}
	var l diag.List
	errors.As(err, &l)
	return l
}

func hasDiagnostic(ds diag.List, msg string) bool {
	for _, d := range ds {
		if strings.Contains(d.Error(), msg) {
			return true
		}
	}
	return false
}

// writeHostile writes the big hostile files into dir.
func writeHostile(t *testing.T, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, h := range hostiles {
		name := strings.ReplaceAll(h.name, " ", "-")
		path := filepath.Join(dir, strconv.Itoa(i+1)+"-"+name+h.ext)
		data := h.gen(true)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", path, len(data))
	}
}

// TestLimits reads files at the limits of Options and one over: each limit
// counts what it says, and its error names the option that raises it.
func TestLimits(t *testing.T) {
	// A label of 100 placeholders of a property of 1,000 bytes: 100,000.
	label := model(`<UserObject id="a" placeholders="1" a="` + strings.Repeat("x", 1000) + `" label="` + strings.Repeat("%a%", 100) + `"><mxCell vertex="1" parent="1"/></UserObject>`)
	// The door: a page and 8 cells.
	// Two shapes of the stencil: 2 × 8 attributes.
	shapes := model(uo("a", "State", acts, vcell), uo("b", "State", acts, vcell))
	// A zTXt chunk of the door with a name in Latin-1: 1 more byte in
	// UTF-8.
	latin1 := strings.Replace(door, "Closed", "Ferm\xe9", 1)
	png := pngWith(zTXt("mxfile", zlibbed(latin1)))
	// Two states of 7 and 2 actions, the blank lines not counted; an
	// edge of 3 (one does not read): 12 actions, in 9 cells of 10
	// properties.
	actions := model(`<object label="A" fsmforgeEntry="raise a&#10;&#10;raise b&#10;raise c&#10;&#10;raise d&#10;raise e&#10;raise f" fsmforgeExit="cancel t" id="a"><mxCell vertex="1" parent="1"/></object>`,
		`<object label="B" fsmforgeExit="x=1&#10;y=2" id="b"><mxCell vertex="1" parent="1"/></object>`,
		`<object label="go" fsmforgeActions="raise c&#10;jump&#10;raise d" id="e"><mxCell edge="1" parent="1" source="a" target="b"/></object>`)
	for _, tt := range []struct {
		name string
		data []byte
		opt  drawio.Options
		msg  string // of the error; "" for a chart
	}{
		{"actions at MaxElements", []byte(actions), drawio.Options{MaxElements: 12}, ""},
		{"actions over MaxElements", []byte(actions), drawio.Options{MaxElements: 11}, "the diagram has more than 11 actions (lines of fsmforgeEntry, fsmforgeExit and fsmforgeActions)"},
		{"placeholders at MaxSize", []byte(label), drawio.Options{MaxSize: 100_000}, ""},
		{"placeholders over MaxSize", []byte(label), drawio.Options{MaxSize: 99_999}, "the placeholders of the label expand to more than 99999 bytes"},
		{"cells at MaxElements", []byte(door), drawio.Options{MaxElements: 9}, ""},
		{"cells over MaxElements", []byte(door), drawio.Options{MaxElements: 8}, "the diagram has more than 8 cells and pages"},
		{"properties at MaxElements", []byte(shapes), drawio.Options{MaxElements: 16}, ""},
		{"properties over MaxElements", []byte(shapes), drawio.Options{MaxElements: 15}, "the diagram has more than 15 properties"},
		{"Latin-1 at MaxSize", png, drawio.Options{MaxSize: int64(len(latin1) + 1)}, ""},
		{"Latin-1 over MaxSize", png, drawio.Options{MaxSize: int64(len(latin1))}, "inflates to more than"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(bytes.NewReader(tt.data), tt.opt)
			if tt.msg == "" {
				if c == nil {
					t.Fatalf("Read = nil, %v", err)
				}
				return
			}
			if c != nil || !errors.Is(err, drawio.ErrTooLarge) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Read = %v, %v; want nil and an error wrapping ErrTooLarge with %q", c != nil, err, tt.msg)
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 || !strings.Contains(l[0].Hint, "the limit is ReadOptions.Max") {
				t.Errorf("error %#v is not one diagnostic naming the option to raise", err)
			}
		})
	}
	t.Run("Latin-1 read", func(t *testing.T) {
		c, err := drawio.Read(bytes.NewReader(png), drawio.Options{})
		if err != nil || c.States[1].Name != "Fermé" {
			t.Errorf("Read = %v, %v; want state c named Fermé", render(c), err)
		}
	})
}

// TestPlaceholdersIndexed checks that a label naming many properties reads
// as one naming few: the first of properties of the same name wins,
// references are replaced.
func TestPlaceholdersIndexed(t *testing.T) {
	var props strings.Builder
	for i := range 100 {
		props.WriteString(` p` + strconv.Itoa(i) + `="` + strconv.Itoa(i) + `"`)
	}
	props.WriteString(` p7="again" amp="a &amp; b"`)
	label := strings.Repeat("%p0%", 10) + "%p7%%amp%%nope%%%p99%%"
	c, err := drawio.Read(strings.NewReader(model(`<UserObject id="a" placeholders="1"`+props.String()+` label="`+label+`"><mxCell vertex="1" parent="1"/></UserObject>`)), drawio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.States[0].Name, "00000000007a & b%nope%%99%"; got != want {
		t.Errorf("name = %q, want %q", got, want)
	}
}

// TestTidy checks what diagnostics quote of a file: positions and words
// shortened, repetitions counted.
func TestTidy(t *testing.T) {
	long := strings.Repeat("é", 300)
	data := `<mxfile><diagram name="` + long + `">` + model(strings.Repeat(`<mxCell vertex="1" parent="1"/>`, 25),
		`<mxCell id="`+long+`" value="A" vertex="1" parent="1"/>`, `<mxCell id="`+long+`" value="B" vertex="1" parent="1"/>`) + `</diagram></mxfile>`
	c, _ := drawio.Read(strings.NewReader(data), drawio.Options{})
	if c == nil {
		t.Fatal("Read = nil")
	}
	short := strings.Repeat("é", 97) + "..."
	var got []string
	for _, d := range c.Diagnostics {
		got = append(got, d.Error())
	}
	want := []string{
		`page "` + short + `": warning: drawio: cell without an ID; ignored`, // 9 times
		`page "` + short + `": warning: drawio: cell without an ID; ignored (and 15 more like it)`,
		`page "` + short + `", shape ` + short + `: warning: drawio: cell ID "` + strings.Repeat("é", 59) + `..." is used twice on the page; the second cell is ignored`,
	}
	if len(got) != 11 || !strings.HasSuffix(got[0], want[0]) || !strings.HasSuffix(got[9], want[1]) || !strings.HasSuffix(got[10], want[2]) {
		t.Errorf("diagnostics:\n%s\nwant 9 times\n%s\nthen\n%s\n%s", strings.Join(got, "\n"), want[0], want[1], want[2])
	}
	if p := c.States[0].Pos; p.Page != short || p.Shape != short || c.States[0].ID != long {
		t.Errorf("state at %s, ID %.20s...", p, c.States[0].ID)
	}
}
