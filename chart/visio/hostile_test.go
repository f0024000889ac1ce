package visio_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// hostileFile is a file made to attack a reader, and the error it must
// end with.
type hostileFile struct {
	name    string
	data    []byte
	stencil bool  // read with the Goomba's stencil
	err     error // what the error wraps
	want    string
}

// hostileFiles returns a file of each kind made to attack a reader, of a
// few megabytes, or with big of tens of megabytes: a package that lists a
// part thousands of times, characters XML does not allow, names of a
// megabyte repeated, binary files.
func hostileFiles(t testing.TB, big bool) []hostileFile {
	scale := 1
	if big {
		scale = 16
	}
	const doc = "<?xml version='1.0'?>\n<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core'>\n"
	long := strings.Repeat("n", 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 4<<20*scale)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	// A page part of 1 MB, listed 2000 times: 2 GB of XML to read.
	bigPage := unzipParts(t, vsdxgen.Generate(200, 600))
	// A drawing of a few megabytes with something wrong at its end.
	drawing := vdxgen.Generate(100*scale, 400*scale)
	atEnd := func(s string) []byte {
		i := bytes.LastIndex(drawing, []byte("</Pages>"))
		return append(append(drawing[:i:i], s...), drawing[i:]...)
	}
	var longNames strings.Builder
	longNames.WriteString(doc + "<Pages>")
	for range 4 * scale {
		longNames.WriteString("<" + long + ">")
	}
	good := goombaParts()
	twice := goomba(nil)
	for range 200 {
		twice.Pages[0].Shapes = append(twice.Pages[0].Shapes, vdxgen.Shape{ID: long[:min(len(long), 64<<10*scale)], Master: "3"})
	}
	// A stored page part of 64 KB (with big, 1 MB) listed 2000 times: the
	// file holds its text, and 2000 times as much would be read.
	storedPage := editPart(good, page1, "<Shapes>", "<Shapes><!-- "+strings.Repeat("x", 64<<10*scale)+" -->")
	return []hostileFile{
		{"page listed 2000 times", vsdxgen.Zip(listedTimes(bigPage, 2000, false)), false, visio.ErrUnsafe, "a part read again and again"},
		{"stored page listed 2000 times", vsdxgen.Store(listedTimes(storedPage, 2000, false)), false, visio.ErrUnsafe, "a part read again and again"},
		{"2000 relationships to a page", vsdxgen.Zip(listedTimes(bigPage, 2000, true)), false, visio.ErrUnsafe, "a part read again and again"},
		{"NUL in a package", vsdxgen.Zip(editPart(good, page1, "walkLeft", "walk\x00Left")), false, visio.ErrMalformed, "character U+0000 (a NUL byte) is not allowed in XML"},
		{"NUL at the end", atEnd("<Page Name='walk\x00Left'/>"), false, visio.ErrMalformed, "character U+0000 (a NUL byte) is not allowed in XML"},
		{"control reference at the end", atEnd("<Page Name='&#x1B;[31m'/>"), false, visio.ErrMalformed, "&#x1B; is U+001B (a control character)"},
		{"invalid UTF-8 at the end", atEnd("<Page Name='caf\xE9'/>"), false, visio.ErrMalformed, "invalid UTF-8 (byte 0xE9 at byte offset"},
		{"long names", []byte(longNames.String()), false, visio.ErrMalformed, "nnn...> (line 3:"},
		{"long IDs used twice", twice.Bytes(), true, nil, "more of this kind are not listed"},
		{"shapes past MaxElements", []byte(doc + "<Pages><Page ID='0'><Shapes>" + strings.Repeat("<Shape/>", 1<<20+1) + "</Shapes></Page></Pages></VisioDocument>"),
			false, visio.ErrTooLarge, "the drawing has more than 1048576 elements"},
		{"binary", noise, false, visio.ErrNotVisio, "this is a binary file"},
		{"NUL after text", append([]byte(doc+"<Pages>\x00"), noise...), false, visio.ErrNotVisio, "a NUL byte at byte offset 98"},
	}
}

// TestHostile reads files made to attack a reader: each ends with an
// error that says what is wrong (or, for the long IDs, diagnostics that
// say how many were left out) within seconds, and no message quotes more
// than a short prefix of the file. With FSMFORGE_HOSTILE_BIG set, the
// files are larger (see TestHostileMemoryLimit).
func TestHostile(t *testing.T) {
	big := os.Getenv("FSMFORGE_HOSTILE_BIG") != ""
	if testing.Short() && !big {
		t.Skip("reads files of megabytes")
	}
	st := charttest.Stencil(t)
	for _, h := range hostileFiles(t, big) {
		t.Run(h.name, func(t *testing.T) {
			o := visio.Options{File: "h"}
			if h.stencil {
				o.Stencil = st
			}
			start := time.Now()
			c, err := visio.Read(bytes.NewReader(h.data), o)
			elapsed := time.Since(start)
			t.Logf("%d bytes: %v, %.200v", len(h.data), elapsed.Round(time.Millisecond), err)
			if elapsed > 20*time.Second {
				t.Errorf("Read took %v", elapsed)
			}
			if err == nil || h.err != nil && !errors.Is(err, h.err) {
				t.Fatalf("Read error = %.300v, want %v", err, h.err)
			}
			var all diag.List
			if c != nil {
				all = c.Diagnostics
			} else if !errors.As(err, &all) {
				t.Fatalf("Read error %T is not a diag.List", err)
			}
			found, size := false, 0
			for _, d := range all {
				msg := d.Error()
				found = found || strings.Contains(msg, h.want)
				size += len(msg) + len(d.Hint)
				if len(msg) > 400 {
					t.Errorf("diagnostic of %d bytes: %.300s...", len(msg), msg)
				}
			}
			if !found || size > 100<<10 || len(err.Error()) > 1000 {
				t.Errorf("%d diagnostics of %d bytes in all, error %.300v; want one saying %q, no more than 100 KiB", len(all), size, err, h.want)
			}
		})
	}
}

// raceEnabled is set by race_test.go.
var raceEnabled bool

// TestHostileMemoryLimit runs TestHostile, with larger files, in a process
// that may map no more than 4 GB (ulimit -v 4000000): no file may make the
// reader crash for want of memory. It is skipped with -short and under the
// race detector, which maps far more.
func TestHostileMemoryLimit(t *testing.T) {
	if os.Getenv("FSMFORGE_HOSTILE_BIG") != "" {
		return // the child process
	}
	if testing.Short() || raceEnabled {
		t.Skip("reads files of tens of megabytes in a process of its own; not under the race detector")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh for ulimit")
	}
	cmd := exec.Command(sh, "-c", `ulimit -v 4000000 && exec "$0" "$@"`, os.Args[0], "-test.run=^TestHostile$", "-test.v", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), "FSMFORGE_HOSTILE_BIG=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s under ulimit -v 4000000, in %v:\n%s", strings.Join(cmd.Args[3:], " "), time.Since(start).Round(time.Millisecond), lastLines(out, 40))
	if err != nil {
		t.Errorf("the child process failed: %v", err)
	}
}

// lastLines returns the last n lines of out, each cut to 200 bytes.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	lines = lines[max(0, len(lines)-n):]
	for i, l := range lines {
		if len(l) > 200 {
			lines[i] = l[:200] + fmt.Sprintf("... (%d bytes)", len(l))
		}
	}
	return strings.Join(lines, "\n")
}

// TestMaxElements reads drawings of more elements than Options.MaxElements
// allows, of each kind the reader keeps: each is refused with an error
// wrapping ErrTooLarge at the first element over the limit, whose hint
// names the option; a drawing of as many elements as the limit is read.
func TestMaxElements(t *testing.T) {
	const doc = "<?xml version='1.0'?>\n<VisioDocument xmlns='http://schemas.microsoft.com/visio/2003/core'>"
	page := func(s string) []byte {
		return []byte(doc + "<Pages><Page ID='0' NameU='Page-1'>\n" + s + "\n</Page></Pages></VisioDocument>\n")
	}
	many := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i + 1))
		}
		return b.String()
	}
	id := func(i int) string { return fmt.Sprint(i) }
	vsdx := vsdxgen.Bytes(goomba(nil), vsdxgen.Options{})
	parts := unzipParts(t, vsdx)
	for _, tt := range []struct {
		name string
		data []byte
		max  int
		want string // the error's start; "" for none
	}{
		// The Goomba: 4 masters and their 4 shapes and 11 rows, a page,
		// its 8 shapes, 15 rows and 9 Connect rows.
		{"vdx at the limit", goomba(nil).Bytes(), 52, ""},
		{"vdx over the limit", goomba(nil).Bytes(), 51, "x:43:1: visio: the drawing has more than 51 elements"},
		// And the package's 12 content types.
		{"vsdx at the limit", vsdx, 64, ""},
		{"vsdx over the limit", vsdx, 63, "x!visio/pages/page1.xml:2:5865: visio: the drawing has more than 63 elements"},
		{"vsdx content types", vsdxgen.Zip(editPart(parts, "[Content_Types].xml", "</Types>", many(100, func(i int) string {
			return "<Override PartName='/x" + id(i) + ".xml' ContentType='application/xml'/>"
		})+"</Types>")), 90, "x![Content_Types].xml:2:"},
		{"shapes", page("<Shapes>" + many(30, func(i int) string { return "<Shape ID='" + id(i) + "'/>" }) + "</Shapes>"), 20, "x:3:"},
		{"empty shapes", page("<Shapes>" + strings.Repeat("<Shape/>", 30) + "</Shapes>"), 20, "x:3:161:"},
		{"rows", page("<Shapes><Shape ID='1'>" + strings.Repeat("<Prop><Value>1</Value></Prop>", 30) + "</Shape></Shapes>"), 20, "x:3:"},
		{"page rows", page("<PageSheet>" + strings.Repeat("<Prop><Value>1</Value></Prop>", 30) + "</PageSheet>"), 20, "x:3:"},
		{"connects", page("<Shapes><Shape ID='1'/></Shapes><Connects>" + strings.Repeat("<Connect FromSheet='1' FromCell='BeginX' ToSheet='1'/>", 30) + "</Connects>"), 20, "x:3:"},
		{"relationships", page("<Shapes><Shape ID='1'><v14:Layout xmlns:v14='http://schemas.microsoft.com/office/visio/2010/extension'><v14:Relationships F='SUM(DEPENDSON(1," +
			many(30, func(i int) string { return "Sheet." + id(i) + "!SheetRef()," }) + "Sheet.0!SheetRef()))'/></v14:Layout></Shape></Shapes>"), 20, "x:3:"},
		{"custom properties", []byte(doc + "<DocumentProperties><CustomProps>" + strings.Repeat("<CustomProp Name='a'>1</CustomProp>", 30) +
			"</CustomProps></DocumentProperties><Pages/></VisioDocument>"), 20, "x:2:"},
		{"pages", []byte(doc + "<Pages>" + many(30, func(i int) string { return "<Page ID='" + id(i) + "'/>" }) + "</Pages></VisioDocument>"), 20, "x:2:"},
		{"masters", []byte(doc + "<Masters>" + many(30, func(i int) string { return "<Master ID='" + id(i) + "'/>" }) + "</Masters></VisioDocument>"), 20, "x:2:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := visio.Read(bytes.NewReader(tt.data), visio.Options{File: "x", MaxElements: tt.max})
			if tt.want == "" {
				if err != nil || c == nil {
					t.Fatalf("Read = %v", err)
				}
				return
			}
			var l diag.List
			if c != nil || !errors.Is(err, visio.ErrTooLarge) || !errors.As(err, &l) || len(l) != 1 {
				t.Fatalf("Read = %v, want an error wrapping ErrTooLarge", err)
			}
			if got := l[0].Error(); !strings.HasPrefix(got, tt.want) || !strings.Contains(got, fmt.Sprintf("more than %d elements", tt.max)) {
				t.Errorf("Read error = %q, want it to start with %q", got, tt.want)
			}
			if l[0].Hint != chart.LimitHint("MaxElements") {
				t.Errorf("Hint = %q", l[0].Hint)
			}
		})
	}
}

// TestLinearLookups reads drawings made so that a lookup, for each of
// many shapes or rows, among as many took time in proportion to their
// square, and minutes: a connector whose master has 100,000 Shape Data
// rows labelled fsmforgeFinal, which the connector deletes (findProp
// tried each row in turn, at the cost of a lookup among all of them); and
// an instance of a group master of 100,000 members, whose own 100,000
// members each name one of the master's (Resolve searched the master's
// members for each). Each takes well under a second.
func TestLinearLookups(t *testing.T) {
	const doc = "<VisioDocument xmlns='" + visio.NamespaceVDX2003 + "'>"
	const n = 100_000
	many := func(f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	for _, tt := range []struct {
		name        string
		src         string
		transitions int
	}{
		{"rows labelled alike", doc + "<Masters><Master ID='1' NameU='Line'><Shapes><Shape ID='5'>" +
			many(func(i int) string {
				return fmt.Sprintf("<Prop NameU='r%d'><Value>1</Value><Label>%s</Label></Prop>", i, visio.PropFinal)
			}) +
			"</Shape></Shapes></Master></Masters><Pages><Page ID='0'><Shapes><Shape ID='1'><Text>a</Text></Shape><Shape ID='2' Master='1'><XForm1D/>" +
			many(func(i int) string { return fmt.Sprintf("<Prop NameU='r%d' Del='1'/>", i) }) +
			"</Shape></Shapes><Connects><Connect FromSheet='2' FromCell='BeginX' ToSheet='1'/></Connects></Page></Pages></VisioDocument>", 1},
		{"members of a group master", doc + "<Masters><Master ID='1' NameU='Group'><Shapes><Shape ID='5' Type='Group'><Shapes>" +
			many(func(i int) string { return fmt.Sprintf("<Shape ID='m%d'/>", i) }) +
			"</Shapes></Shape></Shapes></Master></Masters><Pages><Page ID='0'><Shapes><Shape ID='1' Master='1' Type='Group'><Shapes>" +
			many(func(i int) string { return fmt.Sprintf("<Shape ID='s%d' MasterShape='m%d'/>", i, n-1-i) }) +
			"</Shapes></Shape></Shapes></Page></Pages></VisioDocument>", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			c, err := visio.Read(strings.NewReader(tt.src), visio.Options{File: "l.vdx"})
			if d := time.Since(start); err != nil || len(c.Transitions) != tt.transitions || d > 10*time.Second {
				t.Errorf("Read = %.300v, %v, in %v; want %d transitions, in well under a second", c, err, d, tt.transitions)
			}
		})
	}
}
