package table_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/table"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// buildGuard is a pushdown machine that uses every feature of the format:
// test values, an any-state message handler, pushes and returns, and
// chaining options.
func buildGuard() (*table.Table, error) {
	var b table.Builder
	b.Name = "guard"
	b.Options = table.Options{Chain: true, ChainLimit: 4, StackLimit: 4}
	b.AddProperty("Animation", "existing", "walk", "run", "look")
	b.AddProperty("Speed", "stop", "slow", "fast")
	see := b.AddTest("seePlayer", "")
	lost := b.AddTest("lostPlayer", "")
	footsteps := b.AddMessage("heard", "footsteps")
	glass := b.AddMessage("heard", "glass")
	timeout := b.AddTest("timer", "5s")
	killed := b.AddMessage("killed", "")
	patrol := b.AddState("patrol", b.Action("Animation", "walk"), b.Action("Speed", "slow"))
	chase := b.AddState("chase", b.Action("Animation", "run"), b.Action("Speed", "fast"))
	search := b.AddState("search", b.Action("Animation", "look"), b.Action("Speed", "stop"))
	investigate := b.AddState("investigate", b.Action("Speed", "slow"))
	b.AddTransition(table.Transition{From: table.AnyState, Test: killed, To: table.Final})
	b.AddTransition(table.Transition{From: patrol, Test: see, To: chase})
	b.AddTransition(table.Transition{From: patrol, Test: footsteps, To: investigate, Push: true})
	b.AddTransition(table.Transition{From: patrol, Test: glass, To: investigate, Push: true})
	b.AddTransition(table.Transition{From: investigate, Test: see, To: chase})
	b.AddTransition(table.Transition{From: investigate, Test: glass, To: investigate, Push: true})
	b.AddTransition(table.Transition{From: investigate, Test: timeout, To: table.Return})
	b.AddTransition(table.Transition{From: chase, Test: lost, To: search})
	b.AddTransition(table.Transition{From: search, Test: see, To: chase})
	b.AddTransition(table.Transition{From: search, Test: timeout, To: patrol})
	return b.Build()
}

var goldens = []struct {
	name  string
	build func() (*table.Table, error)
}{
	{"goomba", buildGoomba},
	{"guard", buildGuard},
	{"npc", buildNPC},
}

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write the golden files)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the encoding (%d bytes, want %d); run go test -update if the change is meant", path, len(got), len(want))
	}
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			tbl, err := g.build()
			if err != nil {
				t.Fatal(err)
			}
			bin, err := tbl.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.MarshalIndent(tbl, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			js = append(js, '\n')
			golden(t, g.name+".fsmt", bin)
			golden(t, g.name+".json", js)

			// Decoding the goldens gives the same table: the same bytes.
			var fromBin, fromJSON table.Table
			if err := fromBin.UnmarshalBinary(bin); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(js, &fromJSON); err != nil {
				t.Fatal(err)
			}
			for _, dec := range []*table.Table{&fromBin, &fromJSON} {
				again, _ := dec.MarshalBinary()
				if !bytes.Equal(again, bin) {
					t.Error("a decoded table encodes differently")
				}
				againJS, _ := json.MarshalIndent(dec, "", "  ")
				if !bytes.Equal(append(againJS, '\n'), js) {
					t.Error("a decoded table's JSON differs")
				}
			}
			if app, _ := tbl.AppendBinary([]byte("xyz")); !bytes.Equal(app[3:], bin) || string(app[:3]) != "xyz" {
				t.Error("AppendBinary does not append the MarshalBinary bytes")
			}
		})
	}
}

// TestGuard runs the pushdown table decoded from its golden file.
func TestGuard(t *testing.T) {
	data, err := os.ReadFile("testdata/guard.fsmt")
	if err != nil {
		t.Fatal(err)
	}
	var tbl table.Table
	if err := tbl.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	p := newProbe(&tbl)
	a := table.NewAgent(&tbl, p, probeHost{})
	glass, killed := testID(t, &tbl, "heard=glass"), testID(t, &tbl, "killed")
	steps := []struct {
		do    func() (table.Result, error)
		holds []string
		want  string
	}{
		{func() (table.Result, error) { return a.Receive(probeHost{}, glass) }, nil, "investigate (stack 1)"},
		{func() (table.Result, error) { return a.Receive(probeHost{}, glass) }, nil, "investigate (stack 2)"},
		{func() (table.Result, error) { return a.Update(probeHost{}) }, []string{"timer=5s"}, "patrol"}, // chained: two returns
		{func() (table.Result, error) { return a.Update(probeHost{}) }, []string{"seePlayer"}, "chase"},
		{func() (table.Result, error) { return a.Update(probeHost{}) }, []string{"lostPlayer"}, "search"},
		{func() (table.Result, error) { return a.Receive(probeHost{}, killed) }, nil, "search (done)"},
	}
	for i, s := range steps {
		p.holds = map[string]bool{}
		for _, h := range s.holds {
			p.holds[h] = true
		}
		if _, err := s.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if a.String() != s.want {
			t.Fatalf("step %d: agent %s, want %s", i, a.String(), s.want)
		}
	}
}

// fixCRC rewrites the checksum after a deliberate change.
func fixCRC(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

func goombaBytes(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/goomba.fsmt")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkErr checks that err is a rendered diag.List wrapping kind.
func checkErr(t *testing.T, err, kind error, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want %v", what, kind)
	}
	var list diag.List
	if !errors.As(err, &list) || !errors.Is(err, kind) {
		t.Fatalf("%s: error %v (%T), want a diag.List wrapping %v", what, err, err, kind)
	}
	if !strings.HasPrefix(err.Error(), "table: ") {
		t.Errorf("%s: error %q lacks the package prefix", what, err)
	}
}

func TestDecodeTruncated(t *testing.T) {
	data := goombaBytes(t)
	for n := range len(data) {
		var tbl table.Table
		err := tbl.UnmarshalBinary(data[:n])
		kind := table.ErrTruncated
		if n >= 4 && n < 20 {
			kind = table.ErrTruncated
		}
		checkErr(t, err, kind, "truncated")
		if n == len(data)/2 && !strings.Contains(err.Error(), "the file was cut short") {
			t.Errorf("truncated error %q does not say so", err)
		}
	}
}

func TestDecodeFlips(t *testing.T) {
	data := goombaBytes(t)
	for i := range data {
		for bit := range 8 {
			b := bytes.Clone(data)
			b[i] ^= 1 << bit
			var tbl table.Table
			if err := tbl.UnmarshalBinary(b); err == nil {
				t.Fatalf("byte %d bit %d flipped: decoded without error", i, bit)
			} else if !strings.HasPrefix(err.Error(), "table: ") {
				t.Fatalf("byte %d bit %d: error %q", i, bit, err)
			}
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	data := goombaBytes(t)
	// Offsets in the goomba file: the header is 16 bytes, then META.
	const meta = 16
	metaLen := int(binary.LittleEndian.Uint32(data[meta+4:]))
	prop := meta + 8 + metaLen
	propLen := int(binary.LittleEndian.Uint32(data[prop+4:]))
	test := prop + 8 + propLen
	testLen := int(binary.LittleEndian.Uint32(data[test+4:]))
	stat := test + 8 + testLen
	tests := []struct {
		name   string
		change func(b []byte) []byte
		kind   error
		want   string
	}{
		{"empty", func([]byte) []byte { return nil }, table.ErrTruncated, "table: byte 0: 0 bytes; a table file has at least 20"},
		{"not a table", func([]byte) []byte { return []byte("GIF89a") }, table.ErrNotTable, `does not start with "FSMT"`},
		{"JSON", func([]byte) []byte { return []byte(`{"format":"fsmforge table"}`) }, table.ErrNotTable, "JSON tables are read with UnmarshalJSON"},
		{"version", func(b []byte) []byte { b[4] = 3; return b }, table.ErrVersion, "table: byte 4: format version 3; this package reads versions 1 and 2"},
		{"flags", func(b []byte) []byte { b[6] = 1; return b }, table.ErrVersion, "header flags 0x0001"},
		{"checksum", func(b []byte) []byte { b[len(b)-1]++; return b }, table.ErrChecksum, "the file is damaged"},
		{"extra bytes", func(b []byte) []byte { return append(b, 0) }, table.ErrCorrupt, "(1 extra bytes after the table)"},
		{"short length", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 3); return b }, table.ErrCorrupt, "a length of 3 bytes"},
		{"reserved", func(b []byte) []byte { b[12] = 1; return fixCRC(b) }, table.ErrCorrupt, "reserved header bytes"},
		{"section tag", func(b []byte) []byte { copy(b[prop:], "PROX"); return fixCRC(b) }, table.ErrCorrupt, `section "PROX" found where section PROP is expected`},
		{"section length", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[prop+4:], 1<<30); return fixCRC(b) },
			table.ErrCorrupt, "section PROP has a length of 1073741824 bytes"},
		{"huge count", func(b []byte) []byte { binary.LittleEndian.PutUint16(b[stat+8:], 0xFFFF); return fixCRC(b) },
			table.ErrCorrupt, "section STAT: 65535 states need at least 393210 bytes"},
		{"test kind", func(b []byte) []byte { b[test+10] = 7; return fixCRC(b) }, table.ErrCorrupt, "section TEST, test #0: the kind is 7; it is 0 or 1"},
		{"name past section", func(b []byte) []byte { b[test+11] = 200; return fixCRC(b) }, table.ErrCorrupt, "section TEST, test #0: runs past the end of the section"},
		{"initial", func(b []byte) []byte { b[stat+10] = 9; return fixCRC(b) }, table.ErrInvalid, "initial state #9 is not a state"},
		{"bad name", func(b []byte) []byte { b[stat+13] = 0xff; return fixCRC(b) }, table.ErrInvalid, `state #0 "\xffalkLeft": name is not valid UTF-8`},
		{"dest cell", func(b []byte) []byte {
			// The last cell (animationDone, dying) is Final: make it a state.
			i := len(b) - 4 - 2 - 2
			binary.LittleEndian.PutUint16(b[i:], 7)
			return fixCRC(b)
		}, table.ErrInvalid, `state #2 "dying", transition 0: destination #7 is not a state of the table (it has 3), Final or Return`},
		{"unused cell", func(b []byte) []byte {
			i := len(b) - 4 - 2 - 24 // the first cell: hitTriggerLeft, walkLeft
			binary.LittleEndian.PutUint16(b[i+2:], 0)
			return fixCRC(b)
		}, table.ErrInvalid, "destination table, test #0, state #1: holds #0 (push false) but the state has no transition on the test"},
		{"push bit", func(b []byte) []byte { b[len(b)-4-1] |= 0x80; return fixCRC(b) }, table.ErrInvalid, "push bits beyond the last cell are set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tbl table.Table
			err := tbl.UnmarshalBinary(tc.change(bytes.Clone(data)))
			checkErr(t, err, tc.kind, tc.name)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%s\nwant it to contain:\n%s", err, tc.want)
			}
			if tbl.NumStates() != 0 {
				t.Error("a failed decode changed the table")
			}
		})
	}
}

// TestDecodeMemory: counts in a small file cannot make the decoder
// allocate much, whatever they claim.
func TestDecodeMemory(t *testing.T) {
	data := goombaBytes(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 16; i < len(data)-4; i++ {
		for _, v := range []byte{0xFF, 0x7F} {
			b := bytes.Clone(data)
			b[i] = v
			var tbl table.Table
			_ = tbl.UnmarshalBinary(fixCRC(b))
		}
	}
	runtime.ReadMemStats(&after)
	if perDecode := (after.TotalAlloc - before.TotalAlloc) / uint64(2*len(data)); perDecode > 64<<10 {
		t.Errorf("decoding corrupt goombas allocated %d bytes each on average; want under 64 KiB", perDecode)
	}
}

func TestJSONErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/goomba.json")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	tests := []struct {
		name, old, new, want string
	}{
		{"unknown member", `"initial"`, `"start": "x", "initial"`, `table: JSON: json: unknown field "start"`},
		{"version", `"version": 1`, `"version": 3`, `format "fsmforge table" version 3; this package reads "fsmforge table" versions 1 and 2`},
		{"initial", `"initial": "walkLeft"`, `"initial": "flying"`, `initial state "flying" is not a state of the table`},
		{"destination", `"to": "walkRight"`, `"to": "flying"`, `table: state #0 "walkLeft", transition 1: destination "flying" is not a state of the table`},
		{"test", `"test": "hitTriggerLeft"`, `"test": "hitTriggerUp"`, `test "hitTriggerUp" is not in the tests array`},
		{"two destinations", `"final": true`, `"final": true, "return": true`, "has 2 of to, final and return; a transition has exactly one"},
		{"property", `"property": "XMovement"`, `"property": "YMovement"`, `"YMovement" is not a property of the table`},
		{"value", `"value": "moveLeft"`, `"value": "moonwalk"`, `"moonwalk" is not a value of property "Animation"`},
		{"duplicate value", `"existing",`, `"right",`, `table: property #0 "XMovement": value "right" appears twice (#0 and #1)`},
		{"trailing data", "", " {}", "table: JSON: more data after the table"},
		{"not JSON", "{", "[", "table: JSON: invalid character"},
		{"empty value", `"existing",`, `"",`, `table: property #0 "XMovement", value #0: value is empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := good + tc.new
			if tc.old != "" {
				in = strings.Replace(good, tc.old, tc.new, 1)
			}
			if in == good {
				t.Fatalf("%q is not in the golden file", tc.old)
			}
			var tbl table.Table
			err := tbl.UnmarshalJSON([]byte(in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Unmarshal error:\n%v\nwant it to contain:\n%s", err, tc.want)
			}
			if tbl.NumStates() != 0 {
				t.Error("a failed decode changed the table")
			}
		})
	}
}

func TestMarshalZero(t *testing.T) {
	var tbl table.Table
	if _, err := tbl.MarshalBinary(); err == nil {
		t.Error("MarshalBinary of a zero Table succeeded")
	}
	if _, err := json.Marshal(&tbl); err == nil {
		t.Error("MarshalJSON of a zero Table succeeded")
	}
}
