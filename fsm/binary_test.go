package fsm

import (
	"bytes"
	"testing"
)

func TestSnapshotBinary(t *testing.T) {
	for _, s := range []Snapshot{{0, NoState}, {3, 1}, {NoState - 1, 200}, {NoState, NoState}} {
		b, err := s.AppendBinary([]byte("x"))
		if err != nil || b[0] != 'x' {
			t.Fatalf("AppendBinary(%v) = %v, %v", s, b, err)
		}
		got := Snapshot{State: 7, Previous: 7}
		if err := got.UnmarshalBinary(b[1:]); err != nil || got != s {
			t.Errorf("UnmarshalBinary(AppendBinary(%v)) = %v, %v", s, got, err)
		}
	}
	if b, _ := (&Snapshot{State: 2, Previous: NoState}).MarshalBinary(); !bytes.Equal(b, []byte{1, 3, 0}) {
		t.Errorf("MarshalBinary = %v, want [1 3 0]", b)
	}
	tests := []struct {
		in   []byte
		want string
	}{
		{nil, "fsm: Snapshot.UnmarshalBinary: byte 0: truncated or overlong number"},
		{[]byte{2, 1, 1}, "fsm: Snapshot.UnmarshalBinary: byte 1: format version 2; this fsmforge reads version 1"},
		{[]byte{1, 1}, "fsm: Snapshot.UnmarshalBinary: byte 2: truncated or overlong number"},
		{[]byte{1, 1, 1, 0}, "fsm: Snapshot.UnmarshalBinary: byte 3: 1 bytes left over"},
		{[]byte{1, 0x80, 0x80, 0x04, 0}, "fsm: Snapshot.UnmarshalBinary: byte 4: state 65536 is more than 65535"},
	}
	for _, tt := range tests {
		s := Snapshot{State: 4, Previous: 5}
		if err := s.UnmarshalBinary(tt.in); err == nil || err.Error() != tt.want || s != (Snapshot{4, 5}) {
			t.Errorf("UnmarshalBinary(%v) = %v, left %v; want %q, unchanged", tt.in, err, s, tt.want)
		}
	}
}

func TestBehaviorSnapshotBinary(t *testing.T) {
	for _, s := range []BehaviorSnapshot{{0, NoState, NoState}, {3, 1, 2}, {NoState - 1, 200, 0}} {
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got BehaviorSnapshot
		if err := got.UnmarshalBinary(b); err != nil || got != s {
			t.Errorf("UnmarshalBinary(MarshalBinary(%v)) = %v, %v", s, got, err)
		}
	}
	s := BehaviorSnapshot{1, 2, 3}
	if err := s.UnmarshalBinary([]byte{1, 1, 1}); err == nil || err.Error() != "fsm: BehaviorSnapshot.UnmarshalBinary: byte 3: truncated or overlong number" || s != (BehaviorSnapshot{1, 2, 3}) {
		t.Errorf("UnmarshalBinary(short) = %v, left %v", err, s)
	}
}

// FuzzSnapshotUnmarshal: no input panics; every error renders and leaves
// the snapshot as it was; what decodes encodes back to what decodes the
// same, and a graph restores it or says why.
func FuzzSnapshotUnmarshal(f *testing.F) {
	for _, s := range []Snapshot{{0, NoState}, {3, 1}, {NoState - 1, 200}} {
		b, _ := s.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte{1, 0x80, 0x80, 0x04, 0})
	g, _ := abcGraph()
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Snapshot{State: 1, Previous: 2}
		if err := s.UnmarshalBinary(data); err != nil {
			if err.Error() == "" || s != (Snapshot{1, 2}) {
				t.Fatalf("error %q, snapshot %v", err, s)
			}
			return
		}
		b, _ := s.MarshalBinary()
		var again Snapshot
		if err := again.UnmarshalBinary(b); err != nil || again != s {
			t.Fatalf("round trip of %v: %v, %v", s, again, err)
		}
		if m, err := g.Restore(nil, &s); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
		} else if m.State() != s.State || m.Previous() != s.Previous {
			t.Fatalf("restored %v as %s, %s", s, m.State(), m.Previous())
		}
	})
}

// FuzzBehaviorSnapshotUnmarshal: as FuzzSnapshotUnmarshal, restoring into
// a machine of a registry.
func FuzzBehaviorSnapshotUnmarshal(f *testing.F) {
	for _, s := range []BehaviorSnapshot{{0, NoState, NoState}, {3, 1, 2}, {NoState - 1, 200, 0}} {
		b, _ := s.MarshalBinary()
		f.Add(b)
	}
	r, _ := registry()
	f.Fuzz(func(t *testing.T, data []byte) {
		s := BehaviorSnapshot{1, 2, 3}
		if err := s.UnmarshalBinary(data); err != nil {
			if err.Error() == "" || s != (BehaviorSnapshot{1, 2, 3}) {
				t.Fatalf("error %q, snapshot %v", err, s)
			}
			return
		}
		b, _ := s.MarshalBinary()
		var again BehaviorSnapshot
		if err := again.UnmarshalBinary(b); err != nil || again != s {
			t.Fatalf("round trip of %v: %v, %v", s, again, err)
		}
		m := r.New(&actor{}, 0)
		if err := m.Restore(&s); err != nil {
			if err.Error() == "" || m.State() != 0 {
				t.Fatalf("refused restore: error %q, in %s", err, m.State())
			}
			return
		}
		var back BehaviorSnapshot
		if m.Snapshot(&back); back != s {
			t.Fatalf("restored %v, snapshot %v", s, back)
		}
	})
}

// abcGraph is a graph of three states, A, B and C.
func abcGraph() (*Graph[*probe, int], [3]StateID) {
	g := &Graph[*probe, int]{}
	var ids [3]StateID
	for i, name := range []string{"A", "B", "C"} {
		ids[i] = g.AddState(State[*probe, int]{Name: name})
	}
	return g, ids
}
