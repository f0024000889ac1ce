package formats_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/internal/charttest"
)

// FuzzRead feeds chart.Read arbitrary files under arbitrary names: it
// must tell a format or refuse the file with a list of errors, and what
// the importer it picked returns must hold together (see
// charttest.CheckChart). The corpus starts
// from small drawings of every format, which the fuzzer mutates into one
// another's.
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 60s ./chart/formats
func FuzzRead(f *testing.F) {
	charttest.AddFiles(f, "../../examples/goomba/goomba.*", "../drawio/testdata/*.drawio", "../scxml/testdata/*.scxml", "../graphml/testdata/*.graphml")
	for _, seed := range []string{
		"", "{", `{"name": "x", "states": [], "transitions": []}`, "\x89PNG\r\n\x1a\n", "PK\x03\x04", "\x1f\x8b",
		"<mxfile/>", "<scxml/>", "<graphml/>", "<VisioDocument/>", "<svg/>", "\xff\xfe<\x00s\x00",
		"<?xml version='1.0'?><!-- c --><!DOCTYPE x [<!ENTITY a 'b'>]><mxGraphModel/>",
	} {
		f.Add([]byte(seed))
	}
	names := []string{"", "x.drawio", "x.vdx", "x.scxml", "x.graphml", "x.json", "x.txt"}
	f.Fuzz(func(t *testing.T, data []byte) {
		name := names[len(data)%len(names)]
		c, err := chart.Read(bytes.NewReader(data), name, chart.ReadOptions{File: "fuzz", MaxSize: 1 << 20, MaxDepth: 20, MaxElements: 2000, MaxTransitions: 4000})
		charttest.CheckChart(t, c, err) // an unknown format too: nil and a list of errors that render
	})
}

// TestMain bounds the time the fuzzer spends minimizing each input that
// reaches new code (see charttest.ShortMinimize).
func TestMain(m *testing.M) {
	charttest.ShortMinimize()
	os.Exit(m.Run())
}
