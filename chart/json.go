package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxChartSize bounds a chart file read by ReadJSON.
const maxChartSize = 256 << 20

// chartKeys lists the keys each object of a chart file may have, by path
// with the array indices left out.
var chartKeys = func() map[string][]string {
	pos := []string{"file", "page", "shape", "shapeName", "line", "col"}
	k := map[string][]string{
		"":                     {"name", "file", "stencil", "states", "transitions", "diagnostics"},
		"states[]":             {"id", "name", "kind", "initial", "entry", "parent", "box", "pos"},
		"states[].entry[]":     {"property", "value", "pos"},
		"states[].entry[].pos": pos,
		"states[].box":         {"x", "y", "w", "h"},
		"states[].pos":         pos,
		"transitions[]":        {"id", "from", "anyState", "order", "test", "value", "label", "event", "guard", "action", "target", "push", "pos"},
		"transitions[].target": {"kind", "state"},
		"transitions[].pos":    pos,
		"diagnostics[]":        {"pos", "severity", "message", "hint"},
		"diagnostics[].pos":    pos,
		"stencil":              stencilKeys[""],
		"stencil.masters":      stencilKeys["masters"],
		"stencil.properties":   stencilKeys["properties"],
		"stencil.tests[]":      stencilKeys["tests[]"],
		"stencil.actions[]":    stencilKeys["actions[]"],
	}
	return k
}()

// WriteJSON writes c as indented JSON, the chart's own file format (what
// "fsmforge convert" writes for a .json output): every field of the chart,
// its stencil and its diagnostics, in a stable order. ReadJSON reads it
// back.
func WriteJSON(w io.Writer, c *Chart) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// LoadJSON reads the chart file at path; see [ReadJSON].
func LoadJSON(path string) (*Chart, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Diagnostics{{Pos: Pos{File: path}, Message: "chart: cannot read chart: " + errText(err, path), Err: err}}
	}
	defer f.Close()
	return ReadJSON(f, path)
}

// ReadJSON reads a chart written by [WriteJSON] (or by hand) from r; name
// names the file in positions. It checks the file's form, not the chart:
// malformed JSON, unknown or repeated keys, values of the wrong type or
// unknown kinds, and the embedded stencil, each with its line and column.
// Package compile checks the chart itself. The chart's File is set to name
// when the file gives none. Files over 256 MiB are refused.
//
// The error, when not nil, is a [Diagnostics] list, and the chart is nil.
// Diagnostics stored in the file are kept in the chart's Diagnostics and
// do not make ReadJSON fail.
func ReadJSON(r io.Reader, name string) (*Chart, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxChartSize+1))
	if err != nil {
		return nil, Diagnostics{{Pos: Pos{File: name}, Message: "chart: cannot read chart: " + err.Error(), Err: err}}
	}
	if len(data) > maxChartSize {
		return nil, Diagnostics{{Pos: Pos{File: name}, Message: "chart: chart file is larger than 256 MiB", Hint: "Is this the right file?"}}
	}
	lines := newLineIndex(data)
	at := func(off int) Pos {
		line, col := lines.pos(off)
		return Pos{File: name, Line: line, Col: col}
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, Diagnostics{{Pos: Pos{File: name}, Message: "chart: not a chart: a chart file is a JSON object", Hint: "Write one with \"fsmforge convert DRAWING OUT.json\"."}}
	}
	idx, problems, wellFormed := indexJSON(data, chartKeys, "chart")
	var diags Diagnostics
	for _, p := range problems {
		diags = append(diags, Diagnostic{Pos: at(p.off), Message: "chart: " + p.msg, Hint: p.hint})
	}
	if !wellFormed {
		return nil, diags
	}
	if _, ok := idx["states"]; !ok {
		diags = append(diags, Diagnostic{Pos: at(idx[""]), Message: "chart: not a chart: the object has no \"states\"",
			Hint: "A chart file lists states and transitions; a stencil or a table is read by other commands."})
	}
	if len(diags) > 0 {
		return nil, diags
	}
	c := new(Chart)
	if err := json.Unmarshal(data, c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			p, what := at(idx[""]), "chart"
			if te.Field != "" {
				what += " " + te.Field
				p = at(int(te.Offset))
				if off, ok := fieldOffset(idx, te.Field, int(te.Offset)); ok {
					p = at(off)
				}
			}
			return nil, Diagnostics{{Pos: p, Message: fmt.Sprintf("chart: %s: want a JSON %s, not %s", what, jsonTypeName(te.Type.Kind().String()), te.Value)}}
		}
		return nil, Diagnostics{{Pos: Pos{File: name}, Message: "chart: " + strings.TrimPrefix(strings.TrimPrefix(err.Error(), "json: "), "chart: ")}}
	}
	if c.File == "" {
		c.File = name
	}
	if c.States == nil {
		c.States = []State{}
	}
	if c.Transitions == nil {
		c.Transitions = []Transition{}
	}
	if c.Stencil != nil {
		c.Stencil.File = name
		if d := c.Stencil.check(func(path string) Pos {
			if off, ok := idx["stencil."+path]; ok {
				return at(off)
			}
			if off, ok := idx["stencil"]; ok {
				return at(off)
			}
			return Pos{File: name}
		}); len(d) > 0 {
			return nil, d
		}
	}
	return c, nil
}
