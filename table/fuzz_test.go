package table_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// seeds adds every testdata file with the extension to the corpus.
func seeds(f *testing.F, ext string) [][]byte {
	paths, err := filepath.Glob(filepath.Join("testdata", "*"+ext))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no testdata/*%s seeds: %v", ext, err)
	}
	var all [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		all = append(all, data)
	}
	return all
}

// FuzzUnmarshalBinary decodes arbitrary bytes: it must never panic or
// hang; every error must render with the package prefix; and a table that
// decodes must be canonical (it encodes to the same bytes), survive the
// JSON form unchanged, and run.
func FuzzUnmarshalBinary(f *testing.F) {
	for _, data := range seeds(f, ".fsmt") {
		f.Add(data[:len(data)/2])
		f.Add(fixCRC(append([]byte(nil), data[:len(data)-6]...)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeBinary(t, data)
		// The checksum and length stop almost every mutation at the door:
		// fix them up so that the sections get fuzzed too.
		if len(data) >= 20 && string(data[:4]) == "FSMT" {
			b := bytes.Clone(data)
			binary.LittleEndian.PutUint32(b[8:], uint32(len(b)))
			decodeBinary(t, fixCRC(b))
		}
	})
}

// decodeBinary checks one input of FuzzUnmarshalBinary.
func decodeBinary(t *testing.T, data []byte) {
	t.Helper()
	var tbl table.Table
	if err := tbl.UnmarshalBinary(data); err != nil {
		checkRendered(t, err)
		return
	}
	again, err := tbl.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Fatalf("decoded table encodes to different bytes:\n%x\nwant\n%x", again, data)
	}
	js, err := json.Marshal(&tbl)
	if err != nil {
		t.Fatal(err)
	}
	var back table.Table
	if err := back.UnmarshalJSON(js); err != nil {
		t.Fatalf("the JSON form of a decoded table does not decode: %v\n%s", err, js)
	}
	if b, _ := back.MarshalBinary(); !bytes.Equal(b, data) {
		t.Fatalf("the JSON round trip changed the table:\n%s", js)
	}
	exercise(t, &tbl, data)
}

// FuzzUnmarshalJSON decodes arbitrary JSON: no panic, errors rendered,
// and a table that decodes round-trips through both forms.
func FuzzUnmarshalJSON(f *testing.F) {
	seeds(f, ".json")
	f.Fuzz(func(t *testing.T, data []byte) {
		var tbl table.Table
		if err := tbl.UnmarshalJSON(data); err != nil {
			checkRendered(t, err)
			return
		}
		bin, err := tbl.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back table.Table
		if err := back.UnmarshalBinary(bin); err != nil {
			t.Fatalf("the binary form of a decoded table does not decode: %v", err)
		}
		js1, _ := json.Marshal(&tbl)
		js2, _ := json.Marshal(&back)
		if !bytes.Equal(js1, js2) {
			t.Fatalf("the binary round trip changed the table:\n%s\n%s", js1, js2)
		}
		exercise(t, &tbl, data)
	})
}

func checkRendered(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); !strings.HasPrefix(msg, "table: ") {
		t.Fatalf("error %q lacks the package prefix", msg)
	}
	var list diag.List
	if errors.As(err, &list) {
		for _, e := range list {
			if e.Error() == "" || e.Severity == diag.Error && e.Err == nil {
				t.Fatalf("empty error in %v", list)
			}
		}
	}
}

// chaos is a fuzzing host: tests hold by a pseudo-random sequence.
type chaos struct{ x uint64 }

type chaosHost struct{}

func (chaosHost) Test(c *chaos, _ table.TestID) bool {
	c.x ^= c.x << 13
	c.x ^= c.x >> 7
	c.x ^= c.x << 17
	return c.x&3 == 0
}

func (chaosHost) Do(*chaos, table.PropertyID, table.ValueID) {}

// exercise runs an agent on tbl with random tests and messages: only the
// runtime's own errors may come out, and snapshots must restore.
func exercise(t *testing.T, tbl *table.Table, seed []byte) {
	c := &chaos{x: 0x9E3779B97F4A7C15}
	for _, b := range seed {
		c.x = c.x*31 + uint64(b)
	}
	if c.x == 0 {
		c.x = 1
	}
	a := table.NewAgent(tbl, c, chaosHost{})
	var s table.Snapshot
	for i := range 32 {
		if n := tbl.NumTests(); n > 0 {
			id := table.TestID(c.x % uint64(n))
			if tbl.Test(id).Message {
				a.Post(id)
			}
		}
		_, err := a.Update(chaosHost{})
		if err != nil && !errors.Is(err, table.ErrStackOverflow) && !errors.Is(err, table.ErrStackUnderflow) && !errors.Is(err, machine.ErrChainLimit) && !errors.Is(err, table.ErrQueueFull) {
			t.Fatalf("update %d: unexpected error %v", i, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "table ") {
			t.Fatalf("error %q does not name the table", err)
		}
		a.SetTime(float64(i) / 4)
		a.Snapshot(&s)
		if _, err := table.RestoreAgent(tbl, c, &s); err != nil {
			t.Fatalf("a snapshot does not restore: %v", err)
		}
		data, err := s.AppendBinary(nil)
		var back table.Snapshot
		if err != nil || back.UnmarshalBinary(data) != nil {
			t.Fatalf("a snapshot does not go through its binary form: %v, %v", err, back.UnmarshalBinary(data))
		}
	}
}

// snapshotTables are the tables FuzzSnapshot restores into: flat ones with
// and without a stack, statecharts with history, timers and the stack.
func snapshotTables(tb testing.TB) []*table.Table {
	npc, _, _ := guardChart(tb)
	return []*table.Table{goombaTable(tb), mustSpec(tb, "a x b push\nb x c push\nc !m return\nc !n final\n* !o a"), npc, stackChart(tb), sampleChart(tb)}
}

// FuzzSnapshot decodes arbitrary bytes as a snapshot and restores it into
// a few tables: nothing may panic; every error must render, naming the
// table; a snapshot that decodes must encode to bytes that read back the
// same (the input's varints may be overlong); and an
// agent restored from it must snapshot to the same bytes (unless it was a
// restart, with nothing active) and run. The corpus starts from snapshots
// of agents of those tables, taken as they run.
func FuzzSnapshot(f *testing.F) {
	tables := snapshotTables(f)
	for i, tbl := range tables {
		c := &chaos{x: uint64(i)*7919 + 1}
		a := table.NewAgent(tbl, c, chaosHost{})
		var s table.Snapshot
		for frame := range 24 {
			if n := tbl.NumTests(); n > 0 && tbl.Test(table.TestID(c.x%uint64(n))).Message {
				a.Post(table.TestID(c.x % uint64(n)))
			}
			a.SetTime(float64(frame) / 3)
			a.Update(chaosHost{})
			if frame%4 == 3 {
				a.Snapshot(&s)
				data, err := s.AppendBinary(nil)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s table.Snapshot
		if err := s.UnmarshalBinary(data); err != nil {
			checkRendered(t, err)
			return
		}
		// Varints may be overlong in the input; written again, the bytes
		// are canonical and read back the same.
		again, err := s.AppendBinary(nil)
		var s2 table.Snapshot
		if err != nil || s2.UnmarshalBinary(again) != nil {
			t.Fatalf("decoded, then encoded: %x, %v", again, err)
		}
		if third, _ := s2.AppendBinary(nil); !bytes.Equal(third, again) {
			t.Fatalf("encoded twice: %x, then %x", again, third)
		}
		data = again
		for _, tbl := range tables {
			c := &chaos{x: 1}
			a, err := table.RestoreAgent(tbl, c, &s)
			if err != nil {
				checkRendered(t, err)
				if !strings.Contains(err.Error(), "(table \""+tbl.Name()+"\")") {
					t.Fatalf("error %q does not name table %q", err, tbl.Name())
				}
				continue
			}
			var back table.Snapshot
			a.Snapshot(&back)
			if got, _ := back.AppendBinary(nil); !bytes.Equal(got, data) && (len(s.Active) > 0 || s.Done || !s.Statechart) {
				t.Fatalf("table %q: the restored agent's snapshot is %x, want %x", tbl.Name(), got, data)
			}
			for i := range 8 {
				a.SetTime(s.Now + float64(i))
				if _, err := a.Update(chaosHost{}); err != nil {
					checkRendered(t, errors.Join(errors.New("table: "), err))
				}
			}
		}
	})
}
