package visio_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// TestFallback reads the chart's Fallback where PropChain is read: the
// document's custom property fsmforgeFallback, in both containers, or
// else the Shape Data of its page. A name of no state is no error of the
// reader; Interpret reads the same from the Document (see
// checkAsDocument).
func TestFallback(t *testing.T) {
	st := charttest.Stencil(t)
	vt := func(v string) string { return "<vt:lpwstr>" + v + "</vt:lpwstr>" }
	for _, tt := range []struct {
		name string
		data []byte
		want string
		at   string // where FallbackPos is, as it renders; "" for none
	}{
		{"none", vdxCustom(nil, nil), "", ""},
		{"vdx custom", vdxCustom([][2]string{{"Author&apos;s note", "x"}, {"fsmforgeFallback", "walkLeft"}}, nil), "walkLeft", "c.vdx:3:"},
		{"vdx custom any case", vdxCustom([][2]string{{"FSMFORGEFALLBACK", "  walk   left "}}, nil), "walk left", "c.vdx:3:"},
		{"vdx custom with chain", vdxCustom([][2]string{{"fsmforgeChain", "1"}, {"fsmforgeFallback", "dead"}}, nil), "dead", "c.vdx:3:"},
		{"vdx custom no such state", vdxCustom([][2]string{{"fsmforgeFallback", "Nowhere"}}, nil), "Nowhere", "c.vdx:3:"},
		{"vdx page", vdxCustom(nil, [][2]string{{"fsmforgeFallback", "walkRight"}}), "walkRight", `page "Page-1"`},
		{"vdx custom before page", vdxCustom([][2]string{{"fsmforgeFallback", "dead"}}, [][2]string{{"fsmforgeFallback", "walkRight"}}), "dead", "c.vdx:3:"},
		{"vdx custom empty", vdxCustom([][2]string{{"fsmforgeFallback", ""}}, [][2]string{{"fsmforgeFallback", "walkRight"}}), "", ""},
		{"vdx chain custom, fallback page", vdxCustom([][2]string{{"fsmforgeChain", "1"}}, [][2]string{{"fsmforgeFallback", "walkRight"}}), "walkRight", `page "Page-1"`},
		{"vsdx custom", vsdxCustom([][2]string{{"fsmforgeFallback", vt("dead")}}, nil), "dead", "c.vdx!docProps/custom.xml:2:"},
		{"vsdx page", vsdxCustom(nil, [][2]string{{"fsmforgeFallback", "walkLeft"}}), "walkLeft", "c.vdx!visio/pages/pages.xml:2:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, o := range []visio.Options{{File: "c.vdx", Stencil: st}, {File: "c.vdx"}} {
				c, err := visio.Read(bytes.NewReader(tt.data), o)
				if c == nil {
					t.Fatalf("Read = nil, %v", err)
				}
				checkChart(t, c, err)
				checkAsDocument(t, tt.data, o, c, err)
				if c.Fallback != tt.want {
					t.Errorf("Read(stencil %v): Fallback = %q, want %q", o.Stencil != nil, c.Fallback, tt.want)
				}
				if at := c.FallbackPos.String(); tt.at == "" && at != "" || !strings.Contains(at, tt.at) {
					t.Errorf("Read(stencil %v): FallbackPos = %s, want %s", o.Stencil != nil, at, tt.at)
				}
				for _, d := range c.Diagnostics {
					if strings.Contains(d.Message, visio.PropFallback) {
						t.Errorf("Read(stencil %v): diagnostic %v, want none about %s", o.Stencil != nil, d, visio.PropFallback)
					}
				}
			}
		})
	}
}
