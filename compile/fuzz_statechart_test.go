package compile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsmforge/fsmforge/chart/scxml"
	"github.com/fsmforge/fsmforge/compile"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// FuzzStatechart reads arbitrary files as SCXML, compiles every chart the
// reader returns, and runs an agent of every table through a few frames:
// events posted, time advanced, tests answered by the bytes. Compile must
// not panic and must return a table exactly when there are no errors;
// the agent must not panic, and its updates may only fail with the
// runtime's errors (a chain or a queue at its limit). The corpus starts
// from the W3C tests (internal/w3c) and the guard example.
//
//	go test -run '^$' -fuzz FuzzStatechart -fuzztime 1m ./compile
func FuzzStatechart(f *testing.F) {
	files, _ := filepath.Glob("../internal/w3c/testdata/scxml/*.scxml")
	files = append(files, "../examples/guard/guard.scxml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _ := scxml.Read(bytes.NewReader(data), scxml.Options{File: "fuzz.scxml", MaxDepth: 20, Lenient: true})
		if c == nil {
			return
		}
		for _, opt := range []compile.Options{{}, {Chain: true, ChainLimit: 50}} {
			r, err := compile.Compile(c, opt)
			checkResult(t, r, err)
			if r.Table == nil {
				continue
			}
			h := &byteHost{data: data}
			a := table.NewAgent[int](r.Table, 0, h)
			for frame := range 16 {
				a.SetTime(float64(frame) * 0.5)
				if n := r.Table.NumTests(); n > 0 {
					id := table.TestID(h.next() % n)
					if r.Table.Test(id).Message {
						a.Post(id)
					}
				}
				if _, err := a.Update(h); err != nil && !errors.Is(err, machine.ErrChainLimit) && !errors.Is(err, table.ErrQueueFull) {
					t.Fatalf("frame %d: %v", frame, err)
				}
			}
		}
	})
}

// byteHost answers tests from the fuzzer's bytes, in turn.
type byteHost struct {
	data []byte
	i    int
}

func (h *byteHost) next() int {
	if len(h.data) == 0 {
		return 0
	}
	h.i++
	return int(h.data[h.i%len(h.data)])
}

func (h *byteHost) Test(int, table.TestID) bool             { return h.next()&1 == 1 }
func (h *byteHost) Do(int, table.PropertyID, table.ValueID) {}
