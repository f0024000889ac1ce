package graphml

import (
	"io"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/source"
)

// Format is GraphML's format for [chart.Read] and [chart.ReadFile],
// registered when the package is imported: a <graphml> document, or one
// compressed with gzip (.graphmlz).
var Format = chart.Format{
	Name:       "GraphML",
	Extensions: []string{".graphml", ".graphmlz", ".xml"},
	Match: func(head []byte) bool {
		return source.IsGzip(head) || source.RootElement(head) == "graphml"
	},
	Read: func(r io.Reader, opt chart.ReadOptions) (*chart.Chart, error) {
		return Read(r, opt)
	},
	ReadFile: func(path string, opt chart.ReadOptions) (*chart.Chart, error) {
		return ReadFile(path, opt)
	},
}

func init() { chart.RegisterFormat(Format) }
