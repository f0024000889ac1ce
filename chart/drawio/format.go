package drawio

import (
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Format is draw.io's format for [chart.Read] and [chart.ReadFile],
// registered when the package is imported: an mxfile or a bare
// mxGraphModel, a shape library (refused with a hint), an SVG or a PNG
// with a diagram inside.
var Format = chart.Format{
	Name:       "draw.io",
	Extensions: []string{".drawio", ".dio", ".drawio.svg", ".drawio.png", ".xml"},
	Match: func(head []byte) bool {
		if source.IsPNG(head) {
			return true
		}
		switch source.RootElement(head) {
		case "mxfile", "mxGraphModel", "mxlibrary", "svg":
			return true
		}
		return false
	},
	Read: func(r io.Reader, opt chart.ReadOptions) (*chart.Chart, error) {
		return Read(r, opt)
	},
	ReadFile: func(path string, opt chart.ReadOptions) (*chart.Chart, error) {
		return ReadFile(path, opt)
	},
}

func init() { chart.RegisterFormat(Format) }
