package save

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/internal/wire"
	"github.com/fsmforge/fsmforge/machine"
)

func goomba() machine.Description {
	return machine.Description{
		Name:    "goomba",
		Kind:    machine.KindTable,
		States:  []machine.State{{Name: "walkLeft", Parent: machine.NoState}, {Name: "walkRight", Parent: machine.NoState}, {Name: "die", Parent: machine.NoState}},
		Initial: 0,
		Transitions: []machine.Transition{
			{From: 0, To: []machine.StateID{1}, Trigger: -1},
			{From: 1, To: []machine.StateID{0}, Trigger: -1},
		},
	}
}

func sample() *File {
	var f File
	d := goomba()
	f.Add("goombas", &d, []byte{1, 2, 3})
	w := machine.Description{Kind: machine.KindBehavior, States: []machine.State{{Name: "EnterMineAndDigForNugget"}}}
	f.Add("Miner Bob", &w, nil)
	return &f
}

func TestRoundTrip(t *testing.T) {
	f := sample()
	b := f.Encode(nil)
	g, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Entries) != 2 {
		t.Fatalf("%d entries, want 2", len(g.Entries))
	}
	for i := range f.Entries {
		a, c := f.Entries[i], g.Entries[i]
		if a.Name != c.Name || a.Kind != c.Kind || a.Fingerprint != c.Fingerprint || !slices.Equal(a.States, c.States) || !bytes.Equal(a.Data, c.Data) {
			t.Errorf("entry %d = %+v, want %+v", i, c, a)
		}
	}
	if !bytes.Equal(g.Encode(nil), b) {
		t.Error("encoding the decoded save gives other bytes")
	}
}

func TestCorrupt(t *testing.T) {
	b := sample().Encode(nil)
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrCorrupt},
		{"other file", []byte("<?xml version='1.0'?><scxml/>"), ErrCorrupt},
		{"truncated", b[:len(b)-7], ErrCorrupt},
		{"flipped", flip(b, 20), ErrCorrupt},
		{"later", resum(append([]byte("fsmforge\x09"), b[9:len(b)-4]...)), ErrVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Decode(tc.in)
			if !errors.Is(err, tc.want) || f != nil {
				t.Errorf("Decode = %v, %v; want an error wrapping %v", f, err, tc.want)
			}
		})
	}
	// Every truncation fails.
	for n := range len(b) {
		if _, err := Decode(b[:n]); err == nil {
			t.Fatalf("Decode of the first %d of %d bytes succeeded", n, len(b))
		}
	}
}

func flip(b []byte, i int) []byte {
	c := slices.Clone(b)
	c[i] ^= 0x10
	return c
}

// resum gives body a valid checksum.
func resum(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, castagnoli))
}

func TestMapping(t *testing.T) {
	f := sample()
	e, _ := f.Entry("goombas")
	d := goomba()
	if m, err := e.Mapping(&d); m != nil || err != nil {
		t.Errorf("same definition: Mapping = %v, %v; want nil, nil", m, err)
	}
	if err := e.Exact(&d); err != nil {
		t.Errorf("Exact = %v", err)
	}
	d.States[1].Name = "walkEast"
	m, err := e.Mapping(&d)
	if err != nil || m == nil || !slices.Equal(m.Lost(), []string{"walkRight"}) {
		t.Errorf("renamed: Mapping = %v, %v; want walkRight lost", m, err)
	}
	if err := e.Exact(&d); !errors.Is(err, ErrMismatch) || err.Error() != `save: the machine does not match the save: "goombas": its definition changed (states gone: ["walkRight"])` {
		t.Errorf("Exact = %v", err)
	}
	d.Kind = machine.KindCrowd
	if _, err := e.Mapping(&d); !errors.Is(err, ErrMismatch) {
		t.Errorf("another kind: Mapping error = %v, want ErrMismatch", err)
	}
	if _, err := f.Need("elsa"); err == nil || !errors.Is(err, ErrMissing) || err.Error() != `save: no such entry: "elsa"; the save has ["goombas" "Miner Bob"]` {
		t.Errorf("Need = %v", err)
	}
}

func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.save")
	if err := WriteFile(path, sample()); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil || len(f.Entries) != 2 {
		t.Fatalf("ReadFile = %v, %v", f, err)
	}
	os.WriteFile(path, []byte("fsmforge"), 0o666)
	if _, err := ReadFile(path); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ReadFile of a cut file = %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the save alone", len(entries))
	}
}

// FuzzDecode decodes a save's body with its checksum made right, so that
// the fuzzer reaches the entries (with a wrong checksum every input stops
// there): no panic, every error renders, and what decodes encodes into a
// save that decodes to the same entries.
func FuzzDecode(f *testing.F) {
	body := func(b []byte) []byte { return b[:len(b)-4] }
	f.Add(body(sample().Encode(nil)))
	f.Add([]byte("fsmforge\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		b = resum(slices.Clip(b))
		s, err := Decode(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error renders empty")
			}
			return
		}
		back, err := Decode(s.Encode(nil))
		if err != nil {
			t.Fatalf("a decoded save, encoded again, does not decode: %v", err)
		}
		if fmt.Sprint(back.Entries) != fmt.Sprint(s.Entries) {
			t.Errorf("a decoded save, encoded and decoded again, differs:\n%v\n%v", back.Entries, s.Entries)
		}
	})
}

func ExampleFile() {
	// A game saves each machine's snapshot bytes under its own name...
	var f File
	d := goomba()
	f.Add("goombas", &d, []byte("the table agents' snapshots"))
	b := f.Encode(nil)

	// ...and on loading, checks each against the definition it runs now.
	loaded, err := Decode(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	e, _ := loaded.Entry("goombas")
	d.States[1].Name = "walkEast" // the designer renamed a state since
	m, _ := e.Mapping(&d)
	fmt.Println(m.Lost(), "->", d.StateName(m.Fallback))
	// Output: [walkRight] -> walkLeft
}

func TestRecords(t *testing.T) {
	b := AppendRecord(AppendRecord(nil, []byte("bob")), nil)
	rec, rest, err := NextRecord(b)
	if string(rec) != "bob" || err != nil {
		t.Fatalf("NextRecord = %q, %v; want bob", rec, err)
	}
	if rec, rest, err = NextRecord(rest); len(rec) != 0 || len(rest) != 0 || err != nil {
		t.Fatalf("NextRecord = %q, %q, %v; want two empty slices", rec, rest, err)
	}
	if _, _, err := NextRecord(b[:2]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("NextRecord of a cut record = %v, want ErrCorrupt", err)
	}
}

// TestVersion1 reads a save of format version 1, which had no triggers:
// its entries come back with their states and data, and no triggers.
func TestVersion1(t *testing.T) {
	f := sample()
	b := []byte(magic)
	b = wire.AppendUint(b, 1)
	b = wire.AppendUint(b, uint64(len(f.Entries)))
	for _, e := range f.Entries {
		b = wire.AppendString(b, e.Name)
		b = append(b, byte(e.Kind))
		b = binary.LittleEndian.AppendUint64(b, e.Fingerprint)
		b = wire.AppendUint(b, uint64(len(e.States)))
		for _, s := range e.States {
			b = wire.AppendString(b, s)
		}
		b = wire.AppendBytes(b, e.Data)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	g, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Entries {
		a, c := f.Entries[i], g.Entries[i]
		if a.Name != c.Name || a.Fingerprint != c.Fingerprint || !slices.Equal(a.States, c.States) || !bytes.Equal(a.Data, c.Data) || c.Triggers != nil {
			t.Errorf("entry %d = %+v, want %+v without triggers", i, c, a)
		}
	}
}
