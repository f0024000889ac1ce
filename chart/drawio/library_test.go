package drawio_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// readLibrary parses a library as draw.io does: the text of the
// <mxlibrary> element is a JSON array of entries.
func readLibrary(t *testing.T, data []byte) []drawio.LibraryEntry {
	t.Helper()
	var lib struct {
		XMLName xml.Name `xml:"mxlibrary"`
		Text    string   `xml:",chardata"`
	}
	if err := xml.Unmarshal(data, &lib); err != nil {
		t.Fatalf("the library is not XML with an <mxlibrary> root: %v", err)
	}
	var entries []drawio.LibraryEntry
	if err := json.Unmarshal([]byte(lib.Text), &entries); err != nil {
		t.Fatalf("the library's text is not a JSON array of entries: %v", err)
	}
	return entries
}

// shapeOf returns the UserObject of a library entry's mxGraphModel.
func shapeOf(t *testing.T, e drawio.LibraryEntry) string {
	t.Helper()
	if err := xml.Unmarshal([]byte(e.XML), new(struct {
		XMLName xml.Name `xml:"mxGraphModel"`
	})); err != nil {
		t.Fatalf("entry %q: xml is not an mxGraphModel: %v", e.Title, err)
	}
	i, j := strings.Index(e.XML, "<UserObject"), strings.LastIndex(e.XML, "</UserObject>")
	if i < 0 || j < i || strings.Count(e.XML, "<UserObject") != 1 {
		t.Fatalf("entry %q: want one UserObject in %s", e.Title, e.XML)
	}
	return e.XML[i : j+len("</UserObject>")]
}

// designer edits a shape copied from the library as a designer does in
// draw.io: a new ID, attributes set in Edit Data, the label typed, the
// ends of an edge connected.
func designer(shape, id string, set map[string]string, ends string) string {
	shape = strings.Replace(shape, ` id="2"`, ` id="`+id+`"`, 1)
	for k, v := range set {
		re := regexp.MustCompile(` ` + regexp.QuoteMeta(k) + `="[^"]*"`)
		shape = re.ReplaceAllLiteralString(shape, ` `+k+`="`+v+`"`)
	}
	if ends != "" {
		shape = strings.Replace(shape, ` edge="1" parent="1"`, ` edge="1" parent="1" `+ends, 1)
	}
	return shape
}

func TestLibrary(t *testing.T) {
	for _, tt := range []struct {
		stencil *chart.Stencil
		titles  []string
	}{
		{charttest.Stencil(t), []string{"State (stencil goomba)", "Initial State (stencil goomba)", "Transition (stencil goomba)", "Message Handler (stencil goomba)"}},
		{robotStencil(t), []string{"Room (stencil robot)", "Door (stencil robot)"}},
	} {
		t.Run(tt.stencil.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := drawio.WriteLibrary(&b, tt.stencil); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), "<mxlibrary>[") || !strings.HasSuffix(b.String(), "]</mxlibrary>\n") {
				t.Errorf("library = %.40q...%q, want <mxlibrary>[...]</mxlibrary>", b.String(), b.String()[max(0, b.Len()-20):])
			}
			entries := readLibrary(t, b.Bytes())
			if len(entries) != len(tt.titles) {
				t.Fatalf("%d entries, want %d", len(entries), len(tt.titles))
			}
			for i, e := range entries {
				if !strings.HasPrefix(e.Title, tt.titles[i]) || e.W <= 0 || e.H <= 0 {
					t.Errorf("entry %d: %q %dx%d, want title %q", i, e.Title, e.W, e.H, tt.titles[i])
				}
				shape := shapeOf(t, e)
				if !strings.Contains(shape, ` fsmforge="`) || !strings.Contains(shape, ` fsmforgeStencil="`+tt.stencil.Name+`"`) || !strings.Contains(shape, ` tooltip="`) {
					t.Errorf("entry %d: shape %s lacks the role, stencil or tooltip", i, shape)
				}
			}
			var again bytes.Buffer
			drawio.WriteLibrary(&again, tt.stencil)
			if !bytes.Equal(again.Bytes(), b.Bytes()) {
				t.Errorf("WriteLibrary is not deterministic")
			}
			if e, err := drawio.Library(nil); err == nil || e != nil {
				t.Errorf("Library(nil) = %v, %v, want an error", e, err)
			}
		})
	}
}

// TestLibraryDrawing assembles the Goomba from the shapes of the goomba
// stencil's library, as a designer would, and reads it with the stencil:
// the chart of goomba.vdx, and not a diagnostic.
func TestLibraryDrawing(t *testing.T) {
	st := charttest.Stencil(t)
	var lib bytes.Buffer
	if err := drawio.WriteLibrary(&lib, st); err != nil {
		t.Fatal(err)
	}
	entries := readLibrary(t, lib.Bytes())
	state, initial, transition, handler := shapeOf(t, entries[0]), shapeOf(t, entries[1]), shapeOf(t, entries[2]), shapeOf(t, entries[3])
	cells := []string{
		designer(initial, "wl", map[string]string{"label": "walkLeft", "XMovement": "left", "Animation": "moveLeft"}, ""),
		designer(state, "wr", map[string]string{"label": "walkRight", "XMovement": "right", "Animation": "moveRight"}, ""),
		designer(state, "d", map[string]string{"label": "Death", "Name": "death", "XMovement": "death", "Animation": "death"}, ""),
		designer(handler, "h", nil, ""),
		designer(transition, "t1", nil, `source="wl" target="wr"`), // the default test, hitTriggerLeft
		designer(transition, "t2", map[string]string{"Test": "hitTriggerRight"}, `source="wr" target="wl"`),
		designer(transition, "t3", map[string]string{"Test": "hitByPlayer", "Stack": "push"}, `source="h" target="d"`),
		designer(transition, "t4", map[string]string{"Test": "animationDone", "Order": "1", "Final": "1"}, `source="d"`),
	}
	doc := `<mxfile><diagram id="p" name="Goomba"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` +
		strings.Join(cells, "\n") + `</root></mxGraphModel></diagram></mxfile>`
	c, err := drawio.Read(strings.NewReader(doc), drawio.Options{Stencil: st, File: "designed.drawio"})
	if err != nil {
		t.Fatalf("Read = %v\n%s", err, doc)
	}
	if len(c.Diagnostics) != 0 {
		t.Errorf("Diagnostics = %v, want none", c.Diagnostics)
	}
	got := render(c)
	want := []string{
		`state "wl" name="walkLeft" kind=normal initial=true parent="" entry=[XMovement=left Animation=moveLeft]`,
		`state "wr" name="walkRight" kind=normal initial=false parent="" entry=[XMovement=right Animation=moveRight]`,
		`state "d" name="death" kind=normal initial=false parent="" entry=[XMovement=death Animation=death]`,
		`transition "t1" from="wl" any=false order=1 test="hitTriggerLeft" value="" label="hitTriggerLeft" event="" guard="" action="" target=wr push=false`,
		`transition "t2" from="wr" any=false order=1 test="hitTriggerRight" value="" label="hitTriggerRight" event="" guard="" action="" target=wl push=false`,
		`transition "t3" from="" any=true order=1 test="hitByPlayer" value="" label="hitByPlayer" event="" guard="" action="" target=d push=true`,
		`transition "t4" from="d" any=false order=1 test="animationDone" value="" label="animationDone" event="" guard="" action="" target=(final) push=false`,
	}
	if d := diff(got, want); d != "" {
		t.Errorf("the designed Goomba differs at %s", d)
	}
}
