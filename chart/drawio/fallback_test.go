package drawio_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
)

// fallbackModel returns a page of states A and "walk left", whose root
// cell has the Edit Data attrs (` fsmforgeFallback="A"`), none when
// attrs is "".
func fallbackModel(attrs string) string {
	root := `<mxCell id="0"/>`
	if attrs != "" {
		root = `<object label=""` + attrs + ` id="0"><mxCell/></object>`
	}
	return `<mxGraphModel><root>` + root + `<mxCell id="1" parent="0"/>` +
		vertex("s", "", "ellipse;shape=startState;") + vertex("a", "A", "") + vertex("w", "walk left", "") +
		edge("e0", "", "", "s", "a") + edge("e1", "go", "", "a", "w") + edge("e2", "back", "", "w", "a") + `</root></mxGraphModel>`
}

// TestFallback reads the chart's Fallback from the diagram's own Edit
// Data (AttrFallback), where the designer names the state that agents of
// a deleted state go to; a name of no state is no error of the reader.
// Write keeps it, and so does the chart's JSON file in between.
func TestFallback(t *testing.T) {
	page := func(id, body string) string {
		return `<diagram id="` + id + `" name="` + id + `">` + body + `</diagram>`
	}
	for _, tt := range []struct {
		name, xml string
		want      string
		page      string // the page of FallbackPos, "" for none
	}{
		{"none", fallbackModel(""), "", ""},
		{"a state", fallbackModel(` fsmforgeFallback="A"`), "A", "Page-1"},
		{"white space", fallbackModel(` fsmforgeFallback="  walk &#10;  left "`), "walk left", "Page-1"},
		{"empty", fallbackModel(` fsmforgeFallback=" "`), "", ""},
		{"no such state", fallbackModel(` fsmforgeFallback="Nowhere"`), "Nowhere", "Page-1"},
		{"with chain", fallbackModel(` fsmforgeChain="1" fsmforgeFallback="A"`), "A", "Page-1"},
		{"second page", `<mxfile>` + page("p1", fallbackModel("")) + page("p2", fallbackModel(` fsmforgeFallback="A"`)) + `</mxfile>`, "A", "p2"},
		{"first page wins", `<mxfile>` + page("p1", fallbackModel(` fsmforgeFallback="walk left"`)) + page("p2", fallbackModel(` fsmforgeFallback="A"`)) + `</mxfile>`, "walk left", "p1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := drawio.Read(strings.NewReader(tt.xml), drawio.Options{File: "x.drawio"})
			if err != nil {
				t.Fatal(err)
			}
			if c.Fallback != tt.want {
				t.Errorf("Read: Fallback = %q, want %q", c.Fallback, tt.want)
			}
			if p := c.FallbackPos; p.Page != tt.page || tt.page != "" && (p.File != "x.drawio" || p.Shape != "0" || p.Line == 0) {
				t.Errorf("Read: FallbackPos = %+v, want the root cell of page %q", p, tt.page)
			}
			for _, d := range c.Diagnostics {
				if strings.Contains(d.Message, drawio.AttrFallback) {
					t.Errorf("Read: diagnostic %v, want none about %s", d, drawio.AttrFallback)
				}
			}

			var b strings.Builder
			if err := drawio.Write(&b, c, drawio.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(b.String(), drawio.AttrFallback+"="); got != min(len(tt.want), 1) {
				t.Errorf("Write: %d %s attributes, want %d\n%s", got, drawio.AttrFallback, min(len(tt.want), 1), b.String())
			}
			back, err := drawio.Read(strings.NewReader(b.String()), drawio.Options{File: "x.drawio"})
			if err != nil {
				t.Fatal(err)
			}
			if back.Fallback != tt.want {
				t.Errorf("Read(Write(c)): Fallback = %q, want %q\n%s", back.Fallback, tt.want, b.String())
			}

			var js bytes.Buffer
			if err := chart.WriteJSON(&js, c); err != nil {
				t.Fatal(err)
			}
			fromJSON, err := chart.ReadJSON(&js, "x.json")
			if err != nil {
				t.Fatal(err)
			}
			b.Reset()
			if err := drawio.Write(&b, fromJSON, drawio.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			back, err = drawio.Read(strings.NewReader(b.String()), drawio.Options{File: "x.drawio"})
			if err != nil {
				t.Fatal(err)
			}
			if fromJSON.Fallback != tt.want || back.Fallback != tt.want {
				t.Errorf("through JSON: Fallback = %q, then drawn and read %q, want %q", fromJSON.Fallback, back.Fallback, tt.want)
			}
		})
	}
}
