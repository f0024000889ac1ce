package visio_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"testing"

	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
)

// BenchmarkRead imports generated drawings made with the goomba stencil,
// from 100 states and 400 transitions to the 10,000 and 40,000.
// The baseline, encoding-xml-tokens, only runs the standard library's XML
// tokenizer over the same file: what the import would cost before
// building anything had it used encoding/xml.
func BenchmarkRead(b *testing.B) {
	st := goombaStencil(b)
	for _, size := range []struct{ states, transitions int }{{100, 400}, {10000, 40000}} {
		data := vdxgen.Generate(size.states, size.transitions)
		name := fmt.Sprintf("states=%d,transitions=%d", size.states, size.transitions)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				c, err := visio.Read(bytes.NewReader(data), visio.Options{Stencil: st})
				if err != nil || len(c.States) != size.states || len(c.Transitions) != size.transitions {
					b.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
				}
			}
		})
		b.Run(name+"/encoding-xml-tokens", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d := xml.NewDecoder(bytes.NewReader(data))
				for {
					if _, err := d.RawToken(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
