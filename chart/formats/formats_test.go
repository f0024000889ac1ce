package formats_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats"
	"github.com/fsmforge/fsmforge/diag"
)

// TestDetect reads a file of each format, under its own name and under a
// misleading one, and checks the format found by its content.
func TestDetect(t *testing.T) {
	tests := []struct {
		path, format string
	}{
		{"../../examples/goomba/goomba.vdx", "Visio"},
		{"../../examples/goomba/goomba.vsdx", "Visio"},
		{"../../examples/goomba/goomba.drawio", "draw.io"},
		{"../../examples/goomba/goomba.scxml", "SCXML"},
		{"../graphml/testdata/goomba.graphml", "GraphML"},
		{"../drawio/testdata/jgraph_drawio_utf16le_bom_dfd.xml", "draw.io"},
		{"../scxml/testdata/commons_scxml_microwave01_jexl.xml", "SCXML"},
		{"../scxml/testdata/zhornyak_stopwatch_bom.scxml", "SCXML"},
		{"../scxml/testdata/qt_trafficlight.scxml", "SCXML"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			data, err := os.ReadFile(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatOf(t, data); got != tt.format {
				t.Errorf("format of %s = %q, want %q", tt.path, got, tt.format)
			}
			want, wantErr := chart.ReadFile(tt.path, chart.ReadOptions{})
			for _, name := range []string{filepath.Base(tt.path), "drawing.bin", ""} {
				got, err := chart.Read(bytes.NewReader(data), name, chart.ReadOptions{File: filepath.Base(tt.path)})
				if (err == nil) != (wantErr == nil) || (got == nil) != (want == nil) {
					t.Fatalf("Read(%q) = %v, %v; ReadFile = %v, %v", name, got != nil, err, want != nil, wantErr)
				}
				if got != nil && (len(got.States) != len(want.States) || len(got.Transitions) != len(want.Transitions)) {
					t.Errorf("Read(%q): %d states, %d transitions; ReadFile: %d, %d", name, len(got.States), len(got.Transitions), len(want.States), len(want.Transitions))
				}
			}
		})
	}
}

// formatOf returns the name of the one registered format that matches data.
func formatOf(t *testing.T, data []byte) string {
	var names []string
	for _, f := range chart.Formats() {
		if f.Match(data[:min(len(data), chart.SniffLen)]) {
			names = append(names, f.Name)
		}
	}
	if len(names) != 1 {
		t.Errorf("formats matching: %v, want one", names)
		return strings.Join(names, ",")
	}
	return names[0]
}

func TestUnknownFormat(t *testing.T) {
	for _, data := range []string{"", "hello, world", "\x00\x01\x02", "<html><body/></html>"} {
		_, err := chart.Read(strings.NewReader(data), "notes.txt", chart.ReadOptions{})
		if !errors.Is(err, chart.ErrUnknownFormat) {
			t.Errorf("Read(%q) = %v, want ErrUnknownFormat", data, err)
			continue
		}
		var ds diag.List
		if !errors.As(err, &ds) || !strings.Contains(ds[0].Hint, "draw.io (.drawio") {
			t.Errorf("Read(%q): hint %q does not list the formats", data, ds[0].Hint)
		}
	}
	// A known extension with unreadable content: the format's own error.
	_, err := chart.Read(strings.NewReader("hello"), "x.drawio", chart.ReadOptions{})
	if err == nil || errors.Is(err, chart.ErrUnknownFormat) || !strings.Contains(err.Error(), "drawio:") {
		t.Errorf("Read(hello, x.drawio) = %v, want draw.io's error", err)
	}
}
