package visio_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart/visio"
	"github.com/fsmforge/fsmforge/internal/charttest"
	"github.com/fsmforge/fsmforge/internal/vdxgen"
	"github.com/fsmforge/fsmforge/internal/vsdxgen"
)

// BenchmarkRead imports generated drawings made with the goomba stencil,
// from 100 states and 400 transitions to the 10,000 and 40,000;
// peak/file is the most heap memory an import has in use (see peakHeap)
// per byte of the file. The baseline, encoding-xml-tokens, only runs the
// standard library's XML tokenizer over the same file: what the import
// would cost before building anything had it used encoding/xml.
func BenchmarkRead(b *testing.B) {
	st := charttest.Stencil(b)
	for _, size := range []struct{ states, transitions int }{{100, 400}, {10000, 40000}} {
		data := vdxgen.Generate(size.states, size.transitions)
		name := fmt.Sprintf("states=%d,transitions=%d", size.states, size.transitions)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			peak := peakHeap(func() { visio.Read(bytes.NewReader(data), visio.Options{Stencil: st}) })
			for b.Loop() {
				c, err := visio.Read(bytes.NewReader(data), visio.Options{Stencil: st})
				if err != nil || len(c.States) != size.states || len(c.Transitions) != size.transitions {
					b.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
				}
			}
			b.ReportMetric(float64(peak)/float64(len(data)), "peak/file")
		})
		b.Run(name+"/encoding-xml-tokens", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d := xml.NewDecoder(bytes.NewReader(data))
				for {
					if _, err := d.RawToken(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkReadVSDX imports generated .vsdx drawings made with the goomba
// stencil (vsdxgen.Generate), from 100 states and 400 transitions to 12,000
// and 48,000: a 5 MB file. MB/s counts the file's bytes, compressed;
// unpacked/file is how many bytes of XML each byte of the file holds,
// alloc/file how many bytes the import allocates per byte of the file, and
// peak/file the most heap memory it has in use (see peakHeap) per byte of
// the file.
func BenchmarkReadVSDX(b *testing.B) {
	st := charttest.Stencil(b)
	for _, size := range []struct{ states, transitions int }{{100, 400}, {12000, 48000}} {
		data := vsdxgen.Generate(size.states, size.transitions)
		unpacked := 0.0
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range zr.File {
			unpacked += float64(f.UncompressedSize64)
		}
		b.Run(fmt.Sprintf("states=%d,transitions=%d", size.states, size.transitions), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			peak := peakHeap(func() { visio.Read(bytes.NewReader(data), visio.Options{Stencil: st}) })
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				c, err := visio.Read(bytes.NewReader(data), visio.Options{Stencil: st})
				if err != nil || len(c.States) != size.states || len(c.Transitions) != size.transitions {
					b.Fatalf("Read = %d states, %d transitions, %v", len(c.States), len(c.Transitions), err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(unpacked/float64(len(data)), "unpacked/file")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(data)), "alloc/file")
			b.ReportMetric(float64(peak)/float64(len(data)), "peak/file")
		})
	}
}

// peakHeap runs f once and returns the most heap memory its run held at a
// time: the peak of the heap's objects, live or not yet swept (the
// runtime/metrics class /memory/classes/heap/objects:bytes), sampled every
// 50µs, above what the heap held before. It is what the run needs of
// memory with the default GOGC, not only what it keeps alive.
func peakHeap(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	peak := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(50 * time.Microsecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return max(peak, read()) - base
}
