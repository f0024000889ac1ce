package scxml_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/diag"
)

// TestFallback reads the chart's Fallback from ff:fallback on <scxml>; a
// name of no state is no error of the reader. Write keeps it, and so
// does the chart's JSON file in between.
func TestFallback(t *testing.T) {
	const states = `<state id="idle"><transition event="go" target="walk_left"/></state><state id="walk_left" ff:name="walk left"/>`
	for _, tt := range []struct {
		name, src string
		want      string
		diags     []string // the reader's, as they render
	}{
		{"none", doc(``, states), "", nil},
		{"a state", doc(` ff:fallback="idle"`, states), "idle", nil},
		{"white space", doc(` ff:fallback="  walk&#10;  left "`, states), "walk left", nil},
		{"empty", doc(` ff:fallback=""`, states), "", nil},
		{"no such state", doc(` ff:fallback="nowhere"`, states), "nowhere", nil},
		{"with chain", doc(` ff:chain="true" ff:fallback="idle"`, states), "idle", nil},
		{"not fsmforge's", doc(` fallback="idle"`, states), "", []string{`c.scxml:2:1: warning: scxml: <scxml> has no attribute "fallback"; ignored`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := scxml.Read(strings.NewReader(tt.src), scxml.Options{File: "c.scxml"})
			if err != nil {
				t.Fatal(err)
			}
			if c.Fallback != tt.want {
				t.Errorf("Read: Fallback = %q, want %q", c.Fallback, tt.want)
			}
			if want := (diag.Pos{File: "c.scxml", Line: 2, Col: 1}); tt.want != "" && c.FallbackPos != want || tt.want == "" && c.FallbackPos != (diag.Pos{}) {
				t.Errorf("Read: FallbackPos = %v, want %v when set", c.FallbackPos, want)
			}
			var got []string
			for _, d := range c.Diagnostics {
				got = append(got, d.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.diags, "\n") {
				t.Errorf("Read: diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.diags, "\n"))
			}

			var b bytes.Buffer
			if err := scxml.Write(&b, c, scxml.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(b.String(), ` ff:fallback="`); n != min(len(tt.want), 1) {
				t.Errorf("Write: %d ff:fallback attributes, want %d\n%s", n, min(len(tt.want), 1), b.String())
			}
			back, err := scxml.Read(bytes.NewReader(b.Bytes()), scxml.Options{File: "c.scxml"})
			if err != nil || back.Fallback != tt.want {
				t.Errorf("Read(Write(c)): Fallback = %q (%v), want %q\n%s", back.Fallback, err, tt.want, b.String())
			}

			var js bytes.Buffer
			if err := chart.WriteJSON(&js, c); err != nil {
				t.Fatal(err)
			}
			fromJSON, err := chart.ReadJSON(&js, "c.json")
			if err != nil {
				t.Fatal(err)
			}
			b.Reset()
			if err := scxml.Write(&b, fromJSON, scxml.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			back, err = scxml.Read(bytes.NewReader(b.Bytes()), scxml.Options{File: "c.scxml"})
			if err != nil || fromJSON.Fallback != tt.want || back.Fallback != tt.want {
				t.Errorf("through JSON: Fallback = %q, then written and read %q (%v), want %q", fromJSON.Fallback, back.Fallback, err, tt.want)
			}
		})
	}
}
