package main

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// TestMain runs the command itself when the test binary is started with
// FSMFORGE_RUN_MAIN=1: TestHostile runs each hostile file through it as a
// separate process, under a limit of its address space, as a user runs
// fsmforge.
func TestMain(m *testing.M) {
	if os.Getenv("FSMFORGE_RUN_MAIN") == "1" {
		os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
	}
	os.Exit(m.Run())
}

// hostile is a command line run on a file made to exhaust the reader.
type hostile struct {
	name string
	file string // its name, in the test's folder
	data func() []byte
	args []string // the command, FILE standing for the file
	code int      // the status it ends with
	says string   // what it says, on stdout or stderr: the limit that bounded it, or its result
}

// hostileFiles are the classes of files that killed fsmforge with
// "fatal error: out of memory", or hung it, before they were bounded:
// each is made here, at a size that did.
func hostileFiles() []hostile {
	return []hostile{
		{"SCXML compound of 3,000 states and transitions, run as a statechart", "nested.scxml", nestedSCXML, []string{"compile", "-o", "OUT.fsmt", "FILE"}, 0, "3001 states, 3000 tests"},
		{"draw.io container of 3,000 states and transitions, run as a statechart", "nested.drawio", nestedDrawio, []string{"compile", "-o", "OUT.fsmt", "FILE"}, 0, "3001 states, 3000 tests"},
		{"chart JSON nested 100,000 deep", "deep.json", deepJSON, []string{"convert", "FILE", "OUT.json"}, 1, "nests more than 64 levels deep"},
		{"stencil nested 100,000 deep", "deep.stencil.json", deepStencil, []string{"check", "-stencil", "FILE", "../../examples/goomba/goomba.vdx"}, 1, "nests more than 64 levels deep"},
		{"placeholders repeated 10,000 times", "placeholders.drawio", placeholders, []string{"graph", "FILE"}, 1, "-max-size"},
		{"<mxCell counted in a comment", "comment.drawio", mxCellComment, []string{"check", "FILE"}, 1, "comment.drawio: 0 states, 0 transitions"},
		{"PNG text chunk inflating to 255 MB", "bomb.drawio.png", pngBomb, []string{"check", "FILE"}, 1, "-max-size"},
		{"Visio page listed 2,000 times", "pages.vsdx", vsdxPages, []string{"check", "FILE"}, 1, "MaxRatio"},
		{"1 MB tag name", "tag.drawio", longTag, []string{"check", "FILE"}, 1, "tag.drawio: 0 states, 0 transitions"},
		{"events at tick 10^12", "far.events", farEvents, []string{"run", "-events", "FILE", "../../examples/goomba/goomba.vdx", "-stencil", "../../examples/goomba/goomba.stencil.json"},
			0, "tick 1000000000000: walkRight -> walkLeft on hitTriggerRight"},
		{"chart of 500,000 states converted", "big.json", bigChart, []string{"convert", "FILE", "OUT.drawio"}, 0, "out.drawio: 500000 states, 500000 transitions"},
	}
}

// TestHostile runs fsmforge on each hostile file, under a 4 GB limit of
// its address space (not under the race detector, which reserves more):
// each must end, within two minutes (the times are logged), with the
// status and the message of the limit that bounds it, or with its result,
// and say little.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile files take a few seconds each; skipped with -short")
	}
	for _, h := range hostileFiles() {
		t.Run(h.name, func(t *testing.T) {
			dir := t.TempDir() // a folder each, where no other file is suggested as a stencil
			path := filepath.Join(dir, h.file)
			if err := os.WriteFile(path, h.data(), 0o644); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(h.args))
			for i, a := range h.args {
				a = strings.ReplaceAll(a, "OUT", filepath.Join(dir, "out"))
				args[i] = strings.ReplaceAll(a, "FILE", path)
			}
			script := `exec "$0" "$@"`
			if !raceEnabled {
				script = `ulimit -v 4000000 && ` + script
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", script, os.Args[0]}, args...)...)
			cmd.Env = append(os.Environ(), "FSMFORGE_RUN_MAIN=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &limited{w: &stdout}, &limited{w: &stderr}
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			code := cmd.ProcessState.ExitCode()
			t.Logf("fsmforge %s: status %d in %v, %d bytes of output and %d of messages", strings.Join(h.args, " "), code, took.Round(time.Millisecond), stdout.Len(), stderr.Len())
			if ctx.Err() != nil {
				t.Fatalf("still running after %v: killed; messages:\n%s", took.Round(time.Millisecond), tail(stderr.String()))
			}
			if code != h.code {
				t.Errorf("status %d (%v), want %d; messages:\n%s", code, err, h.code, tail(stderr.String()))
			}
			if !strings.Contains(stdout.String()+stderr.String(), h.says) {
				t.Errorf("output and messages do not say %q; messages:\n%s", h.says, tail(stderr.String()))
			}
			if strings.Contains(stderr.String(), "fatal error") || strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("the process crashed:\n%s", tail(stderr.String()))
			}
			if stderr.Len() > 64<<10 {
				t.Errorf("%d bytes of messages, want a few lines", stderr.Len())
			}
		})
	}
}

// limited keeps the first 1 MiB written to it, and counts the rest.
type limited struct {
	w *bytes.Buffer
}

func (l *limited) Write(p []byte) (int, error) {
	if room := 1<<20 - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// nestedSCXML is a compound of 3,000 states with 3,000 transitions of
// its own (181 KB): flattened, 9,000,000 transitions.
func nestedSCXML() []byte {
	var b strings.Builder
	b.WriteString(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="main"><state id="main" initial="s0">`)
	for i := range 3000 {
		fmt.Fprintf(&b, `<transition event="e%d" target="s%d"/>`, i, i)
	}
	for i := range 3000 {
		fmt.Fprintf(&b, `<state id="s%d"/>`, i)
	}
	b.WriteString(`</state></scxml>`)
	return []byte(b.String())
}

// nestedDrawio is the same in a draw.io container.
func nestedDrawio() []byte {
	var b strings.Builder
	b.WriteString(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>`)
	b.WriteString(`<mxCell id="s" style="shape=startState;" vertex="1" parent="1"><mxGeometry width="30" height="30" as="geometry"/></mxCell>`)
	b.WriteString(`<mxCell id="g" value="G" style="container=1;" vertex="1" parent="1"><mxGeometry width="800" height="800" as="geometry"/></mxCell>`)
	b.WriteString(`<mxCell id="e" edge="1" parent="1" source="s" target="c0"><mxGeometry relative="1" as="geometry"/></mxCell>`)
	for i := range 3000 {
		fmt.Fprintf(&b, `<mxCell id="c%d" value="s%d" vertex="1" parent="g"><mxGeometry width="80" height="40" as="geometry"/></mxCell>`, i, i)
		fmt.Fprintf(&b, `<mxCell id="t%d" value="e%d" edge="1" parent="1" source="g" target="c%d"><mxGeometry relative="1" as="geometry"/></mxCell>`, i, i, i)
	}
	b.WriteString(`</root></mxGraphModel>`)
	return []byte(b.String())
}

// deepJSON is a chart file whose states are nested 100,000 deep.
func deepJSON() []byte {
	return []byte(`{"name": "x", "states": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`)
}

// deepStencil is a stencil file whose tests are nested 100,000 deep.
func deepStencil() []byte {
	return []byte(`{"name": "x", "tests": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`)
}

// placeholders is a label that names a 100 KB attribute 10,000 times
// (1 MB of file, 1 GB of text).
func placeholders() []byte {
	return []byte(`<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>` +
		`<object id="a" label="` + strings.Repeat("%a%", 10000) + `" placeholders="1" a="` + strings.Repeat("x", 100<<10) + `">` +
		`<mxCell vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell></object></root></mxGraphModel>`)
}

// mxCellComment holds 2,000,000 "<mxCell" in a comment.
func mxCellComment() []byte {
	return []byte(`<mxGraphModel><!-- ` + strings.Repeat("<mxCell", 2000000) + ` --><root><mxCell id="0"/><mxCell id="1" parent="0"/></root></mxGraphModel>`)
}

// pngBomb is a PNG whose zTXt chunk inflates to 255 MB of Latin-1.
func pngBomb() []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, flate.BestCompression)
	chunk := bytes.Repeat([]byte{0xE9}, 1<<20)
	for range 255 {
		w.Write(chunk)
	}
	w.Close()
	var png bytes.Buffer
	png.WriteString("\x89PNG\r\n\x1a\n")
	writeChunk(&png, "IHDR", []byte{0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0})
	writeChunk(&png, "zTXt", append([]byte("mxfile\x00\x00"), z.Bytes()...))
	writeChunk(&png, "IEND", nil)
	return png.Bytes()
}

func writeChunk(w io.Writer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	w.Write([]byte(typ))
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// vsdxPages is a Visio package whose page list names one page part of
// a megabyte 2,000 times.
func vsdxPages() []byte {
	parts := vsdxgen.Parts(vdxgen.GenerateDrawing(200, 600), vsdxgen.Options{})
	for i, p := range parts {
		if p.Name == "visio/pages/pages.xml" {
			var pages strings.Builder
			pages.WriteString(`<?xml version="1.0" encoding="utf-8"?><Pages xmlns="http://schemas.microsoft.com/office/visio/2012/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
			for k := range 2000 {
				fmt.Fprintf(&pages, `<Page ID="%d" Name="P%d"><Rel r:id="rId1"/></Page>`, k, k)
			}
			pages.WriteString(`</Pages>`)
			parts[i].Data = []byte(pages.String())
		}
	}
	return vsdxgen.Zip(parts)
}

// longTag is a draw.io file with an element name of a megabyte.
func longTag() []byte {
	return []byte(`<mxfile><diagram id="p"><mxGraphModel><root><` + strings.Repeat("n", 1<<20) + `/></root></mxGraphModel></diagram></mxfile>`)
}

// farEvents lists a tick a million million ticks away.
func farEvents() []byte {
	return []byte("3: hitTriggerLeft\n1000000000000: hitTriggerRight\n")
}

// bigChart is a legal chart file of 500,000 states in a ring.
func bigChart() []byte {
	var b bytes.Buffer
	b.WriteString(`{"name": "big", "states": [`)
	const n = 500000
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id": "s%d", "name": "s%d", "kind": "normal", "initial": %v, "pos": {}}`, i, i, i == 0)
	}
	b.WriteString(`], "transitions": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id": "t%d", "from": "s%d", "order": 1, "test": "go", "target": {"kind": "state", "state": "s%d"}, "pos": {}}`, i, i, (i+1)%n)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// raceEnabled is true under the race detector (race_test.go).
var raceEnabled bool
