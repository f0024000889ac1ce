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
		return Read(r, options(opt))
	},
	ReadFile: func(path string, opt chart.ReadOptions) (*chart.Chart, error) {
		return ReadFile(path, options(opt))
	},
}

func init() { chart.RegisterFormat(Format) }

func options(o chart.ReadOptions) Options {
	return Options{File: o.File, Stencil: o.Stencil, Lenient: o.Lenient, MaxSize: o.MaxSize, MaxDepth: o.MaxDepth, MaxElements: o.MaxElements}
}
