package visio_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
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

const obstacleCar = "testdata/hossam_obstacle_car_uml_statemachine.vsdx"

// vsdxFiles lists the .vsdx drawings of testdata and, when the folder is
// there, of ../../../shared/fixtures/vsdx.
func vsdxFiles(t testing.TB) []string {
	files, _ := filepath.Glob("testdata/*.vsdx")
	shared, _ := filepath.Glob("../../../shared/fixtures/vsdx/*.vsdx")
	if len(files) < 4 {
		t.Fatalf("testdata/*.vsdx = %v", files)
	}
	return append(files, shared...)
}

// TestVSDXFixtures reads every .vsdx drawing written by others as a plain
// diagram, and with the goomba stencil: refused as made with another
// stencil, but for the UML drawing, whose "State" master has the name of
// the stencil's.
func TestVSDXFixtures(t *testing.T) {
	st := charttest.Stencil(t)
	want := map[string]struct {
		states, transitions int
		err                 string // the plain reading's error, if any
	}{
		"hossam_obstacle_car_uml_statemachine.vsdx": {11, 13, `visio: the connector is glued to no shape, though its start lies on state 247 "Dist > 70 cm"`},
		"davehoward_test4_connectors.vsdx":          {10, 4, ""},
		"davehoward_test6_shape_properties.vsdx":    {10, 0, ""},
		"startleft_self_pointing_connectors.vsdx":   {2, 2, ""},
	}
	for _, f := range vsdxFiles(t) {
		t.Run(f, func(t *testing.T) {
			c, err := visio.ReadFile(f, visio.Options{})
			if c == nil {
				t.Fatalf("ReadFile = nil, %v", err)
			}
			w, ok := want[filepath.Base(f)]
			if !ok {
				t.Fatalf("no expectations for %s", f)
			}
			if len(c.States) != w.states || len(c.Transitions) != w.transitions {
				t.Errorf("ReadFile = %d states, %d transitions, want %d, %d", len(c.States), len(c.Transitions), w.states, w.transitions)
			}
			if w.err == "" && err != nil || w.err != "" && (err == nil || !strings.Contains(err.Error(), w.err)) {
				t.Errorf("ReadFile error = %v, want %q", err, w.err)
			}
			for _, d := range c.Diagnostics {
				if !strings.HasPrefix(d.Message, "visio: ") && !strings.HasPrefix(d.Message, "chart: ") {
					t.Errorf("diagnostic %q: message without the package's prefix", d.Error())
				}
			}
			checkChart(t, c, err)
			for _, s := range c.States {
				if s.Box == nil || s.Box.W <= 0 || s.Box.H <= 0 {
					t.Errorf("state %s %q: Box %v", s.ID, s.Name, s.Box)
				}
			}

			c, err = visio.ReadFile(f, visio.Options{Stencil: st})
			if c == nil {
				t.Fatalf("ReadFile with the goomba stencil = nil, %v", err)
			}
			checkChart(t, c, err)
			if filepath.Base(f) == filepath.Base(obstacleCar) {
				if err != nil || len(c.States) != 6 || len(c.Transitions) != 0 || !slices.ContainsFunc(c.Diagnostics, func(d diag.Diagnostic) bool {
					return strings.Contains(d.Message, `master "Dynamic connector" is not in stencil "goomba": its 16 shapes are ignored`)
				}) {
					t.Errorf("ReadFile with the goomba stencil = %d states, %d transitions, %v; %v", len(c.States), len(c.Transitions), err, c.Diagnostics)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), `the drawing was not made with stencil "goomba"`) || len(c.States) != 0 {
				t.Errorf("ReadFile with the goomba stencil = %v, want an error: not made with stencil goomba", err)
			}
		})
	}
}

func decodeFile(t *testing.T, file string) *visio.Document {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := visio.DecodeVSDX(f, fi.Size(), visio.Options{File: filepath.Base(file)})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestObstacleCar reads the UML state machine of an obstacle-avoiding
// car, drawn with Visio's UML stencil: a start state, states whose names
// are in a member of their group and whose behaviours ("entry / ...") in
// another, a composite state that holds four states through its
// Relationships cell and is named by its heading, 16 dynamic connectors
// of which 3 are glued to nothing (though drawn between states: errors),
// and text with U+2028 line breaks.
func TestObstacleCar(t *testing.T) {
	doc := decodeFile(t, obstacleCar)
	if len(doc.Pages) != 1 || len(doc.Masters) != 19 || doc.Namespace != visio.NamespaceVSDX {
		t.Fatalf("%d pages, %d masters, namespace %q", len(doc.Pages), len(doc.Masters), doc.Namespace)
	}
	doc.Resolve()
	pg := doc.Pages[0]
	glued := map[string]bool{}
	for _, c := range pg.Connects {
		glued[c.FromSheet] = true
	}
	var connectors, unglued []string
	byID := map[string]*visio.Shape{}
	for _, s := range pg.Shapes {
		byID[s.ID] = s
		if s.OneD && s.Master != nil && s.Master.NameU == "Dynamic connector" {
			connectors = append(connectors, s.ID)
			if !glued[s.ID] {
				unglued = append(unglued, s.ID)
			}
		}
	}
	if len(pg.Shapes) != 27 || len(pg.Connects) != 26 || len(connectors) != 16 || !slices.Equal(unglued, []string{"266", "270", "274"}) {
		t.Errorf("%d shapes, %d Connect rows, %d connectors, unglued %v; want 27, 26, 16, [266 270 274]", len(pg.Shapes), len(pg.Connects), len(connectors), unglued)
	}
	if pg.Label() != "Page-1" || pg.Height < 22.88 || pg.Height > 22.89 {
		t.Errorf("page %q, height %g", pg.Label(), pg.Height)
	}
	if m := byID["235"].Members; len(m) != 13 || m[0] != "270" || m[12] != "247" {
		t.Errorf("shape 235: Members = %v", m)
	}
	if c := byID["247"].Containers; !slices.Equal(c, []string{"235"}) {
		t.Errorf("shape 247: Containers = %v", c)
	}
	if got := byID["220"].Text; got != "KPD1 (Start) \npressed\n" {
		t.Errorf("shape 220: Text = %q, want U+2028 made a line break", got)
	}

	c, err := visio.Interpret(doc, visio.Options{})
	if err == nil {
		t.Errorf("Interpret = nil error, want one: three connectors are glued to nothing")
	}
	var states []string
	for _, s := range c.States {
		in := ""
		if s.Parent != "" {
			in = " in " + s.Parent
		}
		states = append(states, s.ID+" "+s.Kind.String()+" "+s.Name+in)
		if s.Initial != (s.ID == "199") {
			t.Errorf("state %s: Initial %v", s.ID, s.Initial)
		}
	}
	wantStates := []string{
		"235 normal Distance Dependant States", // the container, named by its heading (shape 236)
		"13 normal Obstacle Avoidance Car Design V1.0 State-Machine Diagram", "199 start Start", "203 normal Inital state",
		"215 normal Direction Setting", "223 normal Starting", "243 normal Distance check", "247 normal Dist > 70 cm in 235",
		"252 normal 30 < Dist < 70 in 235", "257 normal 20 < Dist < 30 in 235", "260 normal Dist < 20 in 235",
	}
	if !slices.Equal(states, wantStates) {
		t.Errorf("states =\n%s\nwant\n%s", strings.Join(states, "\n"), strings.Join(wantStates, "\n"))
	}
	var transitions []string
	for _, tr := range c.Transitions {
		transitions = append(transitions, fmt.Sprintf("%s: %s -%s-> %v #%d", tr.ID, tr.From, tr.Event, tr.Target, tr.Order))
	}
	wantTransitions := []string{
		"214: 199 --> 203 #1",
		"220: 203 -KPD1 (Start) pressed-> 215 #1",
		"222: 215 -(PBTN0) Toggle rotation (right/left)-> 215 #1",
		"226: 215 -5 seconds timed-out-> 223 #2",
		"227: 223 -2 seconds OK-> 243 #1",
		"238: 235 -KPD2 (STOP) is pressed-> 203 #1", // the composite's: it applies in each of its states
		"263: 247 -Distance < 70-> 252 #1",
		"265: 257 -Distance < 20-> 260 #1",
		"271: 252 -Distance > 70-> 247 #1",
		"272: 243 -First Distance received-> 235 #1", // into the composite, which has no initial state
		"273: 260 -Distance > 20-> 257 #1",
		"275: 247 --> 247 #2",
		"277: 252 -Distance < 30-> 257 #2",
	}
	if !slices.Equal(transitions, wantTransitions) {
		t.Errorf("transitions =\n%s\nwant\n%s", strings.Join(transitions, "\n"), strings.Join(wantTransitions, "\n"))
	}
	const at = "hossam_obstacle_car_uml_statemachine.vsdx!visio/pages/page1.xml:"
	checkDiags(t, c.Diagnostics, []wantDiag{
		{diag.Warning, at + `5:16: page "Page-1", shape 203 "Inital state": warning: visio: state "Inital state": the text written in it besides its name is left out: "entry / car speed 0 do / wait for keypad button 1 (start)"`},
		{diag.Warning, `shape 215 "Direction Setting": warning: visio: state "Direction Setting": the text written in it besides its name is left out: "entry / Init`},
		{diag.Warning, `shape 223 "Starting": warning: visio: state "Starting": the text written in it besides its name is left out: "entry/ wait 2 seconds exit / setup LCD`},
		{diag.Warning, `shape 243 "Distance check": warning: visio: state "Distance check": the text`},
		{diag.Warning, `shape 247 "Dist > 70 cm": warning: visio: state "Dist > 70 cm": the text`},
		{diag.Warning, `shape 252 "30 < Dist < 70": warning: visio: state "30 < Dist < 70": the text`},
		{diag.Warning, `shape 257 "20 < Dist < 30": warning: visio: state "20 < Dist < 30": the text`},
		{diag.Warning, `shape 260 "Dist < 20": warning: visio: state "Dist < 20": the text`},
		{diag.Error, at + `75:16: page "Page-1", shape 266 "Distance < 20": visio: the connector is glued to no shape, though its start lies on state 247 "Dist > 70 cm" and its end on state 260 "Dist < 20": it is not a transition until its ends are glued`},
		{diag.Error, `shape 270 "Distance > 70": visio: the connector is glued to no shape, though its start lies on state 260 "Dist < 20" and its end on state 247 "Dist > 70 cm"`},
		{diag.Error, `shape 274 "Distance > 30": visio: the connector is glued to no shape, though its start lies on state 257 "20 < Dist < 30" and its end on state 252 "30 < Dist < 70"`},
		{diag.Warning, at + `2:182: page "Page-1", shape 235 "Distance Dependant States": warning: visio: composite state 235 "Distance Dependant States" has no initial state, though transition 272 enters it: it enters state 247 "Dist > 70 cm", the first of its states in the file`},
	})
	// Dist > 70 cm: PinX 2.2527, PinY 5.4379, 2.2800 by 2.2382 inches, on
	// a page 22.8858 inches high.
	if b := c.States[7].Box; b == nil || *b != (chart.Box{X: 106.818, Y: 1567.559, W: 218.883, H: 214.869}) {
		t.Errorf("state 247: Box = %+v", b)
	}
}

// TestSelfLoops reads connectors glued at both ends to the same shape.
func TestSelfLoops(t *testing.T) {
	c, err := visio.ReadFile("testdata/startleft_self_pointing_connectors.vsdx", visio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(c); !slices.Equal(got, []string{"52 --> 52 #1", "56 --> 56 #1"}) || len(c.Diagnostics) != 0 {
		t.Errorf("transitions = %q, diagnostics %v", got, c.Diagnostics)
	}
}

// TestDecodeVSDX checks the model of a drawing with Shape Data inherited
// from masters, on three pages.
func TestDecodeVSDX(t *testing.T) {
	doc := decodeFile(t, "testdata/davehoward_test6_shape_properties.vsdx")
	var pages []string
	for _, pg := range doc.Pages {
		pages = append(pages, fmt.Sprintf("%s %s %.4gx%.4g", pg.ID, pg.Label(), pg.Width, pg.Height))
	}
	if want := []string{"0 Page-1 8.268x11.69", "4 Page-2 8.268x11.69", "7 master_test 8.268x11.69"}; !slices.Equal(pages, want) {
		t.Errorf("pages = %q, want %q", pages, want)
	}
	if len(doc.Masters) != 2 || doc.Masters[0].Label() != "data_prop_test" || doc.Masters[1].Label() != "master 6" {
		t.Errorf("masters = %v", doc.Masters)
	}
	doc.Resolve()
	pg := doc.Pages[2]
	var got []string
	for _, s := range pg.Shapes {
		var props []string
		for _, p := range s.EffectiveProps() {
			props = append(props, fmt.Sprintf("%s(%s)=%s@%s", p.Row, p.Label, p.Value, p.Pos.Part))
		}
		got = append(got, fmt.Sprintf("%s %s: %s", s.ID, strings.TrimSpace(s.Text), strings.Join(props, ", ")))
	}
	want := []string{
		"2 A: Row_1(master_Prop)=master prop value@visio/masters/master1.xml",
		"3 B: Row_1(master_Prop)=master prop value@visio/masters/master1.xml, Row_2(shape_prop)=shape property value@visio/pages/page3.xml",
		"4 C: Row_1(master_Prop)=override@visio/pages/page3.xml",
		`5 D: Row_1(LongProp)=value not in an "attrib"@visio/pages/page3.xml`,
		"9 E: Row_2(empty_prop)=0@visio/pages/page3.xml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("shapes =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Shape A sets its pin; its size comes from its master.
	a := pg.Shapes[0].XForm
	if a.Set&(visio.XPinX|visio.XWidth|visio.XLocPinX) != visio.XPinX|visio.XWidth|visio.XLocPinX || a.Width < 1.10 || a.Width > 1.11 {
		t.Errorf("shape A: XForm = %+v", a)
	}
}

// TestVSSX reads a stencil package: masters, no pages.
func TestVSSX(t *testing.T) {
	data := vsdxgen.Bytes(&vdxgen.Drawing{Masters: vdxgen.GoombaMasters()}, vsdxgen.Options{Stencil: true, Title: "goomba"})
	doc, err := visio.DecodeVSDX(bytes.NewReader(data), int64(len(data)), visio.Options{File: "goomba.vssx"})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Masters) != 4 || len(doc.Pages) != 0 || doc.Title != "goomba" || doc.Masters[2].Label() != "Transition" || !doc.Masters[2].Shapes[0].OneD {
		t.Fatalf("DecodeVSDX(stencil) = %d masters, %d pages, title %q", len(doc.Masters), len(doc.Pages), doc.Title)
	}
	if p, ok := doc.Masters[1].Shapes[0].Prop("XMovement"); !ok || !slices.Equal(p.List(), []string{"existing", "right", "left", "death"}) {
		t.Errorf("State master: XMovement = %+v", p)
	}
	c, err := visio.Read(bytes.NewReader(data), visio.Options{File: "goomba.vssx"})
	if err == nil || !strings.Contains(err.Error(), "goomba.vssx: visio: the drawing has no pages") || c == nil {
		t.Errorf("Read(stencil) = %v", err)
	}
}

// TestVSDXGenerated reads drawings written by vsdxgen: the Goomba with and
// without its stencil, through every entry point.
func TestVSDXGenerated(t *testing.T) {
	st := charttest.Stencil(t)
	data := vsdxgen.Bytes(goomba(nil), vsdxgen.Options{})
	base := []string{"1 -hitTriggerLeft-> 2 #1", "2 -hitTriggerRight-> 1 #1", "1 -hitByPlayer-> 3 #2", "2 -hitByPlayer-> 3 #2", "3 -animationDone-> (final) #1"}
	dir := t.TempDir()
	file := filepath.Join(dir, "g.vsdx")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name string
		read func() (*chart.Chart, error)
	}{
		{"bytes.Reader", func() (*chart.Chart, error) { return visio.Read(bytes.NewReader(data), visio.Options{Stencil: st}) }},
		{"io.Reader", func() (*chart.Chart, error) {
			return visio.Read(struct{ io.Reader }{bytes.NewReader(data)}, visio.Options{Stencil: st})
		}},
		{"ReadFile", func() (*chart.Chart, error) { return visio.ReadFile(file, visio.Options{Stencil: st}) }},
	} {
		name, read := r.name, r.read
		t.Run(name, func(t *testing.T) {
			c, err := read()
			if err != nil || len(c.Diagnostics) != 0 {
				t.Fatalf("Read = %v, %v", err, c.Diagnostics)
			}
			if got := summary(c); !slices.Equal(got, base) {
				t.Errorf("transitions = %q, want %q", got, base)
			}
		})
	}
	c, err := visio.Read(bytes.NewReader(data), visio.Options{})
	if err != nil || len(c.States) != 3 || c.States[0].Name != "walkLeft" || len(c.Transitions) != 5 {
		t.Errorf("plain Read = %v, %+v", err, c)
	}

	// Pages in the order of the pages part, a background page left out.
	d := goomba(nil)
	d.Pages = append(d.Pages,
		vdxgen.Page{ID: "7", Name: "Background", Background: true, Shapes: []vdxgen.Shape{vdxgen.State("1", "3", "ghost", "existing", "existing")}},
		vdxgen.Page{ID: "4", Name: "Page-2", Shapes: []vdxgen.Shape{vdxgen.State("1", "3", "resting", "existing", "existing"), vdxgen.Transition("2", "animationDone", final("1"))}, Connects: vdxgen.Glue("2", "1", "")})
	c, err = visio.Read(bytes.NewReader(vsdxgen.Bytes(d, vsdxgen.Options{})), visio.Options{File: "p.vsdx", Stencil: st})
	if err != nil || len(c.States) != 4 || c.States[3].ID != "4/1" || c.States[3].Pos.Page != "Page-2" {
		t.Errorf("Read(three pages) = %v, %+v", err, c.States)
	}
	checkDiags(t, c.Diagnostics, []wantDiag{{diag.Note, `p.vsdx!visio/pages/pages.xml:2:`}})
}

// TestGoombaVSDX checks that examples/goomba/goomba.vsdx is goomba.vdx
// written as a .vsdx by vsdxgen (-update rewrites it), and that both read
// into the same chart.
func TestGoombaVSDX(t *testing.T) {
	const vdx, vsdx = "../../examples/goomba/goomba.vdx", "../../examples/goomba/goomba.vsdx"
	src, err := os.ReadFile(vdx)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := visio.DecodeVDX(bytes.NewReader(src), visio.Options{File: vdx})
	if err != nil {
		t.Fatal(err)
	}
	parts := vsdxgen.Parts(vsdxgen.FromDocument(doc), vsdxgen.Options{Title: doc.Title})
	if *update {
		if err := os.WriteFile(vsdx, vsdxgen.Zip(parts), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Compare the parts, not the zip: deflate's output may change with
	// the Go version.
	data, err := os.ReadFile(vsdx)
	if err != nil {
		t.Fatalf("%v (run go test ./chart/visio -run GoombaVSDX -update)", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	stale := len(zr.File) != len(parts)
	for i, f := range zr.File {
		if stale {
			break
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		stale = f.Name != parts[i].Name || !bytes.Equal(got, parts[i].Data)
	}
	if stale {
		t.Errorf("%s is not %s written by vsdxgen: run go test ./chart/visio -run GoombaVSDX -update", vsdx, vdx)
	}

	st := charttest.Stencil(t)
	want, err := visio.ReadFile(vdx, visio.Options{Stencil: st})
	if err != nil {
		t.Fatal(err)
	}
	got, err := visio.ReadFile(vsdx, visio.Options{Stencil: st})
	if err != nil || len(got.Diagnostics) != 0 {
		t.Fatalf("ReadFile(%s) = %v, %v", vsdx, err, got.Diagnostics)
	}
	if got.Name != "goomba" {
		t.Errorf("Name = %q", got.Name)
	}
	// The same chart, boxes included, but for positions in the files.
	for i := range got.States {
		if g, w := got.States[i].Box, want.States[i].Box; g == nil || w == nil || *g != *w {
			t.Errorf("state %s: Box %v, want %v", got.States[i].ID, g, w)
		}
	}
	strip := func(c *chart.Chart) *chart.Chart {
		c.File, c.Diagnostics = "", nil
		for i := range c.States {
			s := &c.States[i]
			s.Pos, s.Box = diag.Pos{}, nil
			for j := range s.Entry {
				s.Entry[j].Pos = diag.Pos{}
			}
		}
		for i := range c.Transitions {
			c.Transitions[i].Pos = diag.Pos{}
		}
		return c
	}
	g, w := strip(got), strip(want)
	if fmt.Sprint(g.States) != fmt.Sprint(w.States) || fmt.Sprint(g.Transitions) != fmt.Sprint(w.Transitions) {
		t.Errorf("chart of %s differs from %s's:\n%+v\n%+v\nwant\n%+v\n%+v", vsdx, vdx, g.States, g.Transitions, w.States, w.Transitions)
	}
}

// goombaParts returns the parts of the Goomba as a .vsdx.
func goombaParts() []vsdxgen.Part {
	return vsdxgen.Parts(goomba(nil), vsdxgen.Options{})
}

// page1 is the name of the Goomba's page among goombaParts.
const page1 = "visio/pages/page1.xml"

// readObstacleCar returns the bytes of the obstacleCar fixture.
func readObstacleCar(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(obstacleCar)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withPart returns parts with part name's data replaced (or added), or
// removed when data is nil.
func withPart(parts []vsdxgen.Part, name string, data []byte) []vsdxgen.Part {
	out := slices.Clone(parts)
	i := slices.IndexFunc(out, func(p vsdxgen.Part) bool { return p.Name == name })
	switch {
	case i < 0:
		out = append(out, vsdxgen.Part{Name: name, Data: data})
	case data == nil:
		out = slices.Delete(out, i, i+1)
	default:
		out[i].Data = data
	}
	return out
}

// editPart returns parts with old replaced by new in part name.
func editPart(parts []vsdxgen.Part, name, old, new string) []vsdxgen.Part {
	i := slices.IndexFunc(parts, func(p vsdxgen.Part) bool { return p.Name == name })
	if i < 0 || !bytes.Contains(parts[i].Data, []byte(old)) {
		panic("editPart: no " + old + " in " + name)
	}
	return withPart(parts, name, bytes.Replace(parts[i].Data, []byte(old), []byte(new), 1))
}

// rawPart is a file of a zip written as it is given: its header may lie.
type rawPart struct {
	name     string
	data     []byte // uncompressed
	declared uint64 // the uncompressed size the header gives; 0: the true one
	crc      uint32 // the checksum the header gives; 0: the true one
}

// rawZip writes a zip whose headers say what the parts say, compressed
// with deflate.
func rawZip(parts ...rawPart) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, p := range parts {
		var c bytes.Buffer
		fw, _ := flate.NewWriter(&c, flate.BestCompression)
		fw.Write(p.data)
		fw.Close()
		h := &zip.FileHeader{Name: p.name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(p.data),
			CompressedSize64: uint64(c.Len()), UncompressedSize64: uint64(len(p.data))}
		if p.declared != 0 {
			h.UncompressedSize64 = p.declared
		}
		if p.crc != 0 {
			h.CRC32 = p.crc
		}
		f, err := w.CreateRaw(h)
		if err != nil {
			panic(err)
		}
		f.Write(c.Bytes())
	}
	w.Close()
	return b.Bytes()
}

// raw turns parts into raw parts.
func raw(parts []vsdxgen.Part) []rawPart {
	out := make([]rawPart, len(parts))
	for i, p := range parts {
		out[i] = rawPart{name: p.Name, data: p.Data}
	}
	return out
}

// TestVSDXBadInput feeds damaged and hostile packages: each is refused
// with a clear error that says where, never a panic, a hang or an
// unbounded allocation.
func TestVSDXBadInput(t *testing.T) {
	good := goombaParts()
	pageXML := func(body string) []byte {
		return []byte("<?xml version='1.0' encoding='utf-8' ?>\n<PageContents xmlns='" + visio.NamespaceVSDX + "'>" + body + "</PageContents>")
	}
	spaces := pageXML(strings.Repeat(" ", 20<<20)) // 20 MiB that deflate packs into 20 KiB
	deepGroups := func(n int) []byte {
		var b strings.Builder
		b.WriteString("<Shapes>")
		for i := range n {
			fmt.Fprintf(&b, "<Shape ID='%d' Type='Group'><Shapes>", i+1)
		}
		for range n {
			b.WriteString("</Shapes></Shape>")
		}
		b.WriteString("</Shapes>")
		return pageXML(b.String())
	}
	docx := vsdxgen.Zip([]vsdxgen.Part{
		{Name: "[Content_Types].xml", Data: []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`)},
		{Name: "_rels/.rels", Data: []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)},
		{Name: "word/document.xml", Data: []byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>`)},
	})
	goodZip := vsdxgen.Zip(good)
	corrupt := slices.Clone(goodZip)
	if i := bytes.Index(corrupt, []byte(page1)); i > 0 { // damage the page's compressed data, after its local header
		for j := i + len(page1) + 20; j < i+len(page1)+60; j++ {
			corrupt[j] ^= 0x55
		}
	}
	many := slices.Clone(good)
	for i := range 20 {
		many = append(many, vsdxgen.Part{Name: fmt.Sprintf("extra/%d.bin", i), Data: []byte("x")})
	}

	for _, tt := range []struct {
		name string
		data []byte
		opt  visio.Options
		err  error
		want string
	}{
		{"not a zip", []byte("PK\x03\x04\x14\x00\x06\x00[Content_Types].xml"), visio.Options{}, visio.ErrZip, "b.vsdx: visio: the zip archive is damaged or truncated (zip: not a valid zip file)"},
		{"truncated", goodZip[:len(goodZip)/2], visio.Options{}, visio.ErrZip, "b.vsdx: visio: the zip archive is damaged or truncated"},
		{"no directory end", goodZip[:len(goodZip)-10], visio.Options{}, visio.ErrZip, "damaged or truncated"},
		{"damaged part", corrupt, visio.Options{}, visio.ErrZip, "b.vsdx!visio/pages/page1.xml: visio: cannot unpack part visio/pages/page1.xml"},
		{"empty zip", []byte("PK\x05\x06" + strings.Repeat("\x00", 18)), visio.Options{}, visio.ErrNotVisio, "b.vsdx: visio: this is a zip archive but not an Office document (it has no [Content_Types].xml)"},
		{"docx", docx, visio.Options{}, visio.ErrNotVisio, "b.vsdx: visio: this is a Word document (.docx), not a Visio drawing"},
		{"no package relationships", vsdxgen.Zip(withPart(good, "_rels/.rels", nil)), visio.Options{}, visio.ErrNotVisio, "this zip archive has no _rels/.rels"},
		{"no document relationship", vsdxgen.Zip(editPart(good, "_rels/.rels", "relationships/document", "relationships/other")), visio.Options{}, visio.ErrNotVisio, "this package has no Visio document part"},
		{"document content type", vsdxgen.Zip(editPart(good, "[Content_Types].xml", "ms-visio.drawing.main+xml", "openxmlformats-officedocument.wordprocessingml.document.main+xml")), visio.Options{}, visio.ErrNotVisio,
			`b.vsdx!_rels/.rels:2:`},
		{"page content type", vsdxgen.Zip(editPart(good, "[Content_Types].xml", "<Override PartName='/visio/pages/page1.xml' ContentType='application/vnd.ms-visio.page+xml'/>", "")), visio.Options{}, visio.ErrZip,
			`b.vsdx!visio/pages/_rels/pages.xml.rels:2:`},
		{"pages content type", vsdxgen.Zip(editPart(good, "[Content_Types].xml", "ms-visio.pages+xml", "ms-visio.masters+xml")), visio.Options{}, visio.ErrZip,
			`visio: the pages part visio/pages/pages.xml has content type "application/vnd.ms-visio.masters+xml" in [Content_Types].xml, not "application/vnd.ms-visio.pages+xml"`},
		{"no document relationships", vsdxgen.Zip(withPart(good, "visio/_rels/document.xml.rels", nil)), visio.Options{}, visio.ErrZip, "visio: the package has no relationships part visio/_rels/document.xml.rels for visio/document.xml"},
		{"no pages relationships", vsdxgen.Zip(withPart(good, "visio/pages/_rels/pages.xml.rels", nil)), visio.Options{}, visio.ErrZip, "no relationships part visio/pages/_rels/pages.xml.rels"},
		{"no page part", vsdxgen.Zip(withPart(good, page1, nil)), visio.Options{}, visio.ErrZip, "b.vsdx!visio/pages/pages.xml:2:"},
		{"unknown relationship", vsdxgen.Zip(editPart(good, "visio/pages/pages.xml", "r:id='rId1'", "r:id='rId9'")), visio.Options{}, visio.ErrZip, `page "Page-1" names relationship rId9, which visio/pages/_rels/pages.xml.rels does not have`},
		{"target outside", vsdxgen.Zip(editPart(good, "visio/pages/_rels/pages.xml.rels", "Target='page1.xml'", "Target='../../../etc/passwd'")), visio.Options{}, visio.ErrZip, `relationship rId1 leads to "../../../etc/passwd", which is not a part of the package`},
		{"wrong root", vsdxgen.Zip(withPart(good, page1, []byte("<Foo/>"))), visio.Options{}, visio.ErrZip, `b.vsdx!visio/pages/page1.xml:1:1: visio: page part visio/pages/page1.xml has root element <Foo>, not <PageContents>`},
		{"malformed part", vsdxgen.Zip(withPart(good, page1, pageXML("<Shapes><Shape ID='1'></Shapes>"))), visio.Options{}, visio.ErrMalformed, "b.vsdx!visio/pages/page1.xml:2:"},
		{"invalid UTF-8", vsdxgen.Zip(withPart(good, page1, pageXML("<Shapes><Shape ID='1'><Text>caf\xE9</Text></Shape></Shapes>"))), visio.Options{}, visio.ErrMalformed, "b.vsdx!visio/pages/page1.xml:2:"},
		{"deep groups", vsdxgen.Zip(withPart(good, page1, deepGroups(200))), visio.Options{}, visio.ErrTooDeep, "visio: groups nested more than 100 deep"},
		{"zip slip", rawZip(append(raw(good), rawPart{name: "../../evil.sh", data: []byte("x")})...), visio.Options{}, visio.ErrUnsafe, `the zip archive holds a file named "../../evil.sh", a path that leads outside the archive`},
		{"absolute name", rawZip(append(raw(good), rawPart{name: "/etc/passwd", data: []byte("x")})...), visio.Options{}, visio.ErrUnsafe, `"/etc/passwd"`},
		{"drive letter", rawZip(append(raw(good), rawPart{name: "C:/evil.xml", data: []byte("x")})...), visio.Options{}, visio.ErrUnsafe, `"C:/evil.xml"`},
		{"backslash", rawZip(append(raw(good), rawPart{name: "visio\\..\\..\\evil.xml", data: []byte("x")})...), visio.Options{}, visio.ErrUnsafe, `evil.xml`},
		{"twice", rawZip(append(raw(good), rawPart{name: "VISIO/pages/PAGE1.xml", data: []byte("x")})...), visio.Options{}, visio.ErrZip, `the zip archive holds two files named "VISIO/pages/PAGE1.xml"`},
		{"bomb", vsdxgen.Zip(withPart(good, page1, spaces)), visio.Options{}, visio.ErrUnsafe, "visio: part visio/pages/page1.xml would unpack from"},
		{"declared bomb", rawZip(append(raw(withPart(good, page1, nil)), rawPart{name: page1, data: []byte("x"), declared: 100 << 20})...), visio.Options{}, visio.ErrUnsafe, "to 104857600 or more, a compression ratio over 100: a zip bomb"},
		{"declared huge", rawZip(append(raw(withPart(good, page1, nil)), rawPart{name: page1, data: bytes.Repeat([]byte("x"), 1<<20), declared: 1 << 40})...), visio.Options{}, visio.ErrTooLarge, "visio: part visio/pages/page1.xml is 1099511627776 bytes uncompressed, more than 256 MiB"},
		{"lying header", rawZip(append(raw(withPart(good, page1, nil)), rawPart{name: page1, data: spaces, declared: 1000})...), visio.Options{}, visio.ErrZip, "cannot unpack part visio/pages/page1.xml"},
		{"part too large", goodZip, visio.Options{MaxPartSize: 1000}, visio.ErrTooLarge, "more than 1000 bytes"},
		{"too much", goodZip, visio.Options{MaxUnpacked: 5000}, visio.ErrTooLarge, "visio: the parts read come to more than 5000 bytes uncompressed"},
		{"too many parts", vsdxgen.Zip(many), visio.Options{MaxParts: 20}, visio.ErrTooLarge, "b.vsdx: visio: the zip archive holds 36 files, more than 20"},
		{"too large", goodZip, visio.Options{MaxSize: 100}, visio.ErrTooLarge, "b.vsdx: visio: the file is larger than 100 bytes"},
		{"too many pages", vsdxgen.Zip(editPart(good, "visio/pages/pages.xml", "<Page ", strings.Repeat("<Page ID='9' Name='again'><Rel r:id='rId1'/></Page>", 30)+"<Page ")), visio.Options{MaxParts: 20}, visio.ErrTooLarge,
			"b.vsdx!visio/pages/pages.xml: visio: visio/pages/pages.xml lists more than 20 pages"},
		{"NUL in text", vsdxgen.Zip(editPart(good, page1, "<fld IX='0'>walkLeft</fld>", "walk\x00Left")), visio.Options{}, visio.ErrMalformed,
			"b.vsdx!visio/pages/page1.xml:2:751: visio: malformed XML: character U+0000 (a NUL byte) is not allowed in XML: the file is damaged or was not written by an XML tool"},
		{"control reference", vsdxgen.Zip(editPart(good, page1, "<fld IX='0'>walkLeft</fld>", "walk&#1;Left")), visio.Options{}, visio.ErrMalformed,
			"b.vsdx!visio/pages/page1.xml:2:751: visio: malformed XML: character reference &#1; is U+0001 (a control character), which XML does not allow"},
		{"invalid UTF-8 offset", vsdxgen.Zip(editPart(good, page1, "<fld IX='0'>walkLeft</fld>", "caf\xE9")), visio.Options{}, visio.ErrMalformed,
			"b.vsdx!visio/pages/page1.xml:2:750: visio: malformed XML: invalid UTF-8 (byte 0xE9 at byte offset 789 of the part)"},
		{"long name", vsdxgen.Store(editPart(good, page1, "<Shapes>", "<Shapes><"+strings.Repeat("n", 1<<20)+">")), visio.Options{}, visio.ErrMalformed,
			"b.vsdx!visio/pages/page1.xml:2:1053596: visio: malformed XML: <" + strings.Repeat("n", 64) + "...> (line 2:182) is closed by </Shapes>"},
		// A part read again and again: each read counts.
		{"page listed 2000 times", vsdxgen.Zip(listedTimes(good, 2000, false)), visio.Options{}, visio.ErrUnsafe,
			"b.vsdx!visio/pages/page1.xml: visio: the parts read would unpack to more than 1892000 bytes, over 100 times the file's size: a zip bomb, or a part read again and again; refused"},
		{"relationships to one part", vsdxgen.Zip(listedTimes(good, 2000, true)), visio.Options{}, visio.ErrUnsafe, "a part read again and again"},
		{"listed, within MaxUnpacked", vsdxgen.Zip(listedTimes(good, 2000, false)), visio.Options{MaxUnpacked: 500000, MaxRatio: 1 << 20}, visio.ErrTooLarge,
			"b.vsdx!visio/pages/page1.xml: visio: the parts read come to more than 500000 bytes uncompressed"},
		{"too many relationships", vsdxgen.Zip(editPart(good, "visio/pages/_rels/pages.xml.rels", "</Relationships>",
			strings.Repeat("<Relationship Id='rId9' Type='http://schemas.microsoft.com/visio/2010/relationships/page' Target='page1.xml'/>", 30)+"</Relationships>")),
			visio.Options{MaxParts: 20}, visio.ErrTooLarge, "b.vsdx!visio/pages/_rels/pages.xml.rels: visio: visio/pages/_rels/pages.xml.rels lists more than 20 relationships"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.File = "b.vsdx"
			c, err := visio.Read(bytes.NewReader(tt.data), tt.opt)
			if c != nil || err == nil {
				t.Fatalf("Read = %.300v, %v, want an error", c, err)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("Read error %q is not %v", err, tt.err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Read error = %q, want %q in it", err, tt.want)
			}
			var l diag.List
			if !errors.As(err, &l) || len(l) != 1 || l[0].Severity != diag.Error || !strings.HasPrefix(l[0].Pos.File, "b.vsdx") {
				t.Errorf("Read error = %#v, want one diag.Diagnostic", err)
			}
		})
	}
}

// listedTimes returns parts whose pages part lists the Goomba's page n
// times: through one relationship, or (rels) through n relationships.
func listedTimes(parts []vsdxgen.Part, n int, rels bool) []vsdxgen.Part {
	var pages, targets strings.Builder
	for i := range n {
		id := "rId1"
		if rels {
			id = fmt.Sprintf("rId%d", i+1)
			fmt.Fprintf(&targets, "<Relationship Id='%s' Type='http://schemas.microsoft.com/visio/2010/relationships/page' Target='page1.xml'/>", id)
		}
		fmt.Fprintf(&pages, "<Page ID='%d' NameU='Page-%d'><Rel r:id='%s'/></Page>", i+10, i+10, id)
	}
	parts = editPart(parts, "visio/pages/pages.xml", "</Pages>", pages.String()+"</Pages>")
	if rels {
		parts = editPart(parts, "visio/pages/_rels/pages.xml.rels", "</Relationships>", targets.String()+"</Relationships>")
	}
	return parts
}

// TestVSDXOddParts reads packages that are odd but valid: a page part in
// UTF-16, two pages sharing a part, a damaged core properties part (a
// warning), text with CR LF.
func TestVSDXOddParts(t *testing.T) {
	good := goombaParts()
	i := slices.IndexFunc(good, func(p vsdxgen.Part) bool { return p.Name == page1 })
	src := strings.Replace(string(good[i].Data), "encoding='utf-8'", "encoding='UTF-16'", 1)
	src = strings.Replace(src, "<fld IX='0'>walkLeft</fld>", "walk&#xD;&#xA;Left\r\n", 1)
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range src { // all in the BMP
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	parts := withPart(good, page1, utf16)
	parts = editPart(parts, "visio/pages/pages.xml", "</Pages>", "<Page ID='5' NameU='Page-2'><Rel r:id='rId1'/></Page></Pages>")
	parts = withPart(parts, "docProps/core.xml", []byte("<cp:coreProperties xmlns:cp='http://schemas.openxmlformats.org/package/2006/metadata/core-properties'><broken>"))
	data := vsdxgen.Zip(parts)
	doc, err := visio.DecodeVSDX(bytes.NewReader(data), int64(len(data)), visio.Options{File: "o.vsdx"})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 2 || len(doc.Pages[1].Shapes) != 8 || doc.Pages[0].Shapes[0].Text != "walk\nLeft\n" {
		t.Errorf("%d pages, %d shapes on the second; text %q", len(doc.Pages), len(doc.Pages[1].Shapes), doc.Pages[0].Shapes[0].Text)
	}
	if len(doc.Diagnostics) != 1 || !strings.Contains(doc.Diagnostics[0].Error(), "o.vsdx!docProps/core.xml:1:") || doc.Diagnostics[0].Severity != diag.Warning ||
		!strings.HasSuffix(doc.Diagnostics[0].Message, "; the document's title is left out") {
		t.Errorf("Diagnostics = %v", doc.Diagnostics)
	}
	c, err := visio.Interpret(doc, visio.Options{Stencil: charttest.Stencil(t)})
	if err != nil || len(c.States) != 6 || c.States[3].ID != "5/1" || c.States[0].Name != "walkLeft" {
		t.Errorf("Interpret = %v, %+v", err, c.States)
	}
}

// TestVDXRefusesVSDX checks that DecodeVDX, which reads .vdx only, says
// what a .vsdx is.
func TestVDXRefusesVSDX(t *testing.T) {
	_, err := visio.DecodeVDX(bytes.NewReader(vsdxgen.Zip(goombaParts())), visio.Options{})
	if !errors.Is(err, visio.ErrNotVisio) || !strings.Contains(err.Error(), "probably a .vsdx drawing") {
		t.Errorf("DecodeVDX(.vsdx) = %v", err)
	}
}
