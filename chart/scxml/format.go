package scxml

import (
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Format is SCXML's format for [chart.Read] and [chart.ReadFile],
// registered when the package is imported: an <scxml> document.
var Format = chart.Format{
	Name:       "SCXML",
	Extensions: []string{".scxml", ".xml"},
	Match: func(head []byte) bool {
		return source.RootElement(head) == "scxml"
	},
	Read: func(r io.Reader, opt chart.ReadOptions) (*chart.Chart, error) {
		return Read(r, opt)
	},
	ReadFile: func(path string, opt chart.ReadOptions) (*chart.Chart, error) {
		return ReadFile(path, opt)
	},
}

func init() { chart.RegisterFormat(Format) }
