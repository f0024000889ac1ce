// Package formats registers every drawing format fsmforge reads, for
// [chart.Read] and [chart.ReadFile]: import it for its side effect,
//
//	import _ "github.com/fsmforge/fsmforge/chart/formats"
//
// and a game or a tool reads any drawing with one call,
//
//	c, err := chart.ReadFile("goomba.drawio", chart.ReadOptions{Stencil: st})
//
// whatever editor drew it. The formats are Visio (package chart/visio),
// draw.io (chart/drawio), SCXML (chart/scxml) and GraphML (chart/graphml),
// beside the chart file format of package chart itself. A program that
// wants fewer imports the importers it wants instead: each registers its
// format when imported.
package formats

import (
	_ "github.com/fsmforge/fsmforge/chart/drawio"  // draw.io
	_ "github.com/fsmforge/fsmforge/chart/graphml" // yEd
	_ "github.com/fsmforge/fsmforge/chart/scxml"   // SCXML
	_ "github.com/fsmforge/fsmforge/chart/visio"   // Visio
)
