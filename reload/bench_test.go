package reload_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/drawio"
	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/table"
)

// benchEntity is an agent's or a crowd entity's data: a counter the host
// turns into test answers.
type benchEntity struct{ n uint32 }

// benchHost answers a test now and then (one time in 64), differently
// per entity, so that entities spread over the states and a few change
// state each frame, as a game's do.
type benchHost struct{}

func (benchHost) Test(e *benchEntity, id table.TestID) bool {
	e.n = e.n*1103515245 + 12345
	return (e.n>>16+uint32(id))%64 == 0
}
func (benchHost) Do(*benchEntity, table.PropertyID, table.ValueID) {}

// BenchmarkReload measures hot reload as the game sees it: a game loop
// steps 10,000 agents and a 1,000,000-entity crowd running a drawing of
// 1,000 states and 4,000 transitions (vdxgen's, with the Goomba
// stencil), at 60 frames a second when it can, calling the Reloader's
// Frame at each frame boundary, while an editor saves the drawing 20
// times, each time with one more state renamed, the way editors save: a
// temporary file renamed over the drawing. Each save's latency runs from
// the end of the rename to the end of the swap that moved every agent and
// entity onto the new table. The same machine is saved as Visio's .vdx
// (5.9 MB), draw.io's and SCXML. It reports the median and the 99th
// percentile (with 20 saves, the slowest) of the latencies, the median of
// each phase of the Reloader's reports, and the game's frame without a
// reload (ms/frame). The Reloader polls (every 5 ms): see package
// reload/fsnotify for notifications.
//
//	go test -run '^$' -bench Reload -benchtime 1x -count 5 ./reload
func BenchmarkReload(b *testing.B) {
	const (
		states, transitions = 1000, 4000
		agents, entities    = 10_000, 1_000_000
		edits               = 20
	)
	st, err := goomba.Stencil()
	if err != nil {
		b.Fatal(err)
	}
	vdx := vdxgen.Generate(states, transitions)
	c, err := chart.Read(bytes.NewReader(vdx), "big.vdx", chart.ReadOptions{Stencil: st})
	if err != nil {
		b.Fatal(err)
	}
	var dio, scx bytes.Buffer
	if err := drawio.Write(&dio, c, drawio.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	if err := scxml.Write(&scx, c, scxml.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	// rename returns the file of version k: states s2 to s(k+1) renamed.
	renameText := func(src []byte) func(k int) []byte {
		return func(k int) []byte {
			out := src
			for i := range k {
				out = bytes.ReplaceAll(out, []byte(`"s`+strconv.Itoa(2+i)+`"`), []byte(`"renamed`+strconv.Itoa(i)+`"`))
			}
			return out
		}
	}
	for _, f := range []struct {
		name    string
		version func(k int) []byte
	}{
		{"vdx", func(k int) []byte {
			d := vdxgen.GenerateDrawing(states, transitions)
			for i := range k {
				d.Pages[0].Shapes[1+i] = vdxgen.State(strconv.Itoa(2+i), vdxgen.MasterState, "renamed"+strconv.Itoa(i), "left", "moveLeft")
			}
			return d.Bytes()
		}},
		{"drawio", renameText(dio.Bytes())},
		{"scxml", renameText(scx.Bytes())},
	} {
		b.Run(fmt.Sprintf("format=%s", f.name), func(b *testing.B) {
			for b.Loop() {
				benchReload(b, "big."+f.name, f.version, st, agents, entities, edits)
			}
		})
	}
}

// benchReload runs one game of BenchmarkReload on the drawing version
// makes, named file.
func benchReload(b *testing.B, file string, version func(k int) []byte, st *chart.Stencil, agents, entities, edits int) {
	dir := b.TempDir()
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, version(0), 0o644); err != nil {
		b.Fatal(err)
	}
	r := reload.New(reload.Options{})
	defer r.Close()
	d, err := r.Load(path, reload.Config{Read: chart.ReadOptions{Stencil: st}})
	if err != nil {
		b.Fatal(err)
	}
	t := d.Table()
	as := make([]table.Agent[*benchEntity], agents)
	es := make([]benchEntity, agents)
	for i := range as {
		es[i].n = uint32(i)
		as[i] = table.NewAgent[*benchEntity](t, &es[i], benchHost{})
	}
	c, err := tablecrowd.New[benchEntity](t, benchHost{}, crowd.Options[benchEntity]{MaxID: crowd.ID(entities)})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for i := range entities {
		if err := c.Add(crowd.ID(i), benchEntity{n: uint32(i)}); err != nil {
			b.Fatal(err)
		}
	}
	d.Run("agents", reload.Agents(each(as)))
	d.Run("crowd", c)

	var frames []time.Duration
	reports := make(chan reload.Report, edits)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // the game, at 60 frames a second when it can
		defer close(done)
		next := time.Now()
		for tick := uint64(0); ; tick++ {
			select {
			case <-stop:
				return
			default:
			}
			for _, rep := range r.Frame(tick) {
				reports <- rep
			}
			start := time.Now()
			for i := range as {
				as[i].Update(benchHost{})
			}
			if err := c.Step(); err != nil {
				panic(err)
			}
			frames = append(frames, time.Since(start))
			next = next.Add(time.Second / 60)
			if wait := time.Until(next); wait > 0 {
				time.Sleep(wait) // vsync
			} else {
				next = time.Now()
			}
		}
	}()
	var latency []time.Duration
	var phases []reload.Phases
	for k := range edits {
		data := version(k + 1)
		time.Sleep(50 * time.Millisecond) // the designer's pause between saves
		tmp := filepath.Join(dir, "."+file+"~")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			b.Fatal(err)
		}
		written := time.Now()
		var rep reload.Report
		select {
		case rep = <-reports:
		case <-time.After(10 * time.Second):
			b.Fatalf("save %d: no reload within 10 s", k)
		}
		latency = append(latency, time.Since(written))
		if rep.Err != nil {
			b.Fatalf("save %d: %v", k, rep.Err)
		}
		if len(rep.Renamed) != 1 {
			b.Fatalf("save %d: renamed %v, want one", k, rep.Renamed)
		}
		phases = append(phases, rep.Phases)
	}
	close(stop)
	<-done
	slices.Sort(latency)
	b.ReportMetric(ms(latency[len(latency)/2]), "ms-p50")
	b.ReportMetric(ms(latency[len(latency)-1]), "ms-p99")
	for _, p := range []struct {
		name string
		of   func(reload.Phases) time.Duration
	}{
		{"notice", func(p reload.Phases) time.Duration { return p.Notice }},
		{"settle", func(p reload.Phases) time.Duration { return p.Settle }},
		{"read", func(p reload.Phases) time.Duration { return p.Read }},
		{"check", func(p reload.Phases) time.Duration { return p.Check }},
		{"compile", func(p reload.Phases) time.Duration { return p.Compile }},
		{"wait", func(p reload.Phases) time.Duration { return p.Wait }},
		{"swap", func(p reload.Phases) time.Duration { return p.Swap }},
	} {
		var ds []time.Duration
		for _, ph := range phases {
			ds = append(ds, p.of(ph))
		}
		slices.Sort(ds)
		b.ReportMetric(ms(ds[len(ds)/2]), "ms-"+p.name)
	}
	slices.Sort(frames)
	b.ReportMetric(ms(frames[len(frames)/2]), "ms/frame")
	b.ReportMetric(float64(len(version(0)))/1e6, "MB-file")
	if testing.Verbose() {
		fmt.Printf("%s: latencies %v\n", file, latency)
	}
}

// each yields a pointer to each element of s.
func each[T any](s []T) func(func(*T) bool) {
	return func(yield func(*T) bool) {
		for i := range s {
			if !yield(&s[i]) {
				return
			}
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
