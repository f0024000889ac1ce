package graphml_test

import (
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart/graphml"
)

// TestFallback reads the chart's Fallback from the graph's own property
// fsmforgeFallback, as TestChain reads Chain: its value, or else its
// key's default. A name of no state is no error of the reader.
func TestFallback(t *testing.T) {
	const key = `<key attr.name="fsmforgeFallback" attr.type="string" for="graph" id="fb"/>`
	graph := `<graph edgedefault="directed" id="G">`
	with := func(keys, data string) string {
		return strings.Replace(doc(node("a", "A"), node("w", "walk left"), edge("e", "a", "w", "go")), graph, keys+graph+data, 1)
	}
	for _, tt := range []struct {
		name, data string
		want       string
	}{
		{"none", with("", ""), ""},
		{"a state", with(key, `<data key="fb">A</data>`), "A"},
		{"white space", with(key, "<data key=\"fb\">  walk\n  left </data>"), "walk left"},
		{"empty", with(key, `<data key="fb"></data>`), ""},
		{"no such state", with(key, `<data key="fb">Nowhere</data>`), "Nowhere"},
		{"default", with(`<key attr.name="fsmforgeFallback" attr.type="string" for="graph" id="fb"><default>walk left</default></key>`, ""), "walk left"},
		{"value over default", with(`<key attr.name="fsmforgeFallback" attr.type="string" for="graph" id="fb"><default>A</default></key>`, `<data key="fb">walk left</data>`), "walk left"},
		{"with chain", with(key+`<key attr.name="fsmforgeChain" attr.type="boolean" for="graph" id="ch"/>`, `<data key="ch">true</data><data key="fb">A</data>`), "A"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := graphml.Read(strings.NewReader(tt.data), graphml.Options{File: "test.graphml"})
			if err != nil {
				t.Fatal(err)
			}
			if c.Fallback != tt.want {
				t.Errorf("Read: Fallback = %q, want %q", c.Fallback, tt.want)
			}
			if p := c.FallbackPos; tt.want != "" && (p.File != "test.graphml" || p.Line == 0) || tt.want == "" && p.Line != 0 {
				t.Errorf("Read: FallbackPos = %v, want the data or the key's default when set", p)
			}
			for _, d := range c.Diagnostics {
				if strings.Contains(d.Message, graphml.PropFallback) {
					t.Errorf("Read: diagnostic %v, want none about %s", d, graphml.PropFallback)
				}
			}
		})
	}
}
