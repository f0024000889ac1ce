package visio

import (
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Format is Visio's format for [chart.Read] and [chart.ReadFile],
// registered when the package is imported: a Visio XML drawing or stencil
// (.vdx, .vsx, .vtx), or an Office package (.vsdx, .vssx, .vstx), which is
// told from other zip archives once opened.
var Format = chart.Format{
	Name:       "Visio",
	Extensions: []string{".vdx", ".vsx", ".vtx", ".vsdx", ".vssx", ".vstx", ".vsdm", ".xml"},
	Match: func(head []byte) bool {
		return source.IsZip(string(head[:min(len(head), 4)])) || source.RootElement(head) == "VisioDocument"
	},
	Read: func(r io.Reader, opt chart.ReadOptions) (*chart.Chart, error) {
		return Read(r, opt)
	},
	ReadFile: func(path string, opt chart.ReadOptions) (*chart.Chart, error) {
		return ReadFile(path, opt)
	},
}

func init() { chart.RegisterFormat(Format) }
