package wire

import (
	"math"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var b []byte
	b = AppendUint(b, 300)
	b = AppendInt(b, -7)
	b = AppendBool(b, true)
	b = AppendFloat(b, math.Pi)
	b = AppendString(b, "stew")
	b = AppendBytes(b, []byte{1, 2})
	r := NewReader(b)
	if got := r.Uint(); got != 300 {
		t.Errorf("Uint = %d, want 300", got)
	}
	if got := r.Int(); got != -7 {
		t.Errorf("Int = %d, want -7", got)
	}
	if !r.Bool() {
		t.Error("Bool = false, want true")
	}
	if got := r.Float(); got != math.Pi {
		t.Errorf("Float = %v, want π", got)
	}
	if got := r.String(); got != "stew" {
		t.Errorf("String = %q, want stew", got)
	}
	if got := r.Bytes(); len(got) != 2 || got[1] != 2 {
		t.Errorf("Bytes = %v, want [1 2]", got)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		read func(r *Reader)
		want string
	}{
		{"truncated", []byte{0x80}, func(r *Reader) { r.Uint() }, "byte 0: truncated or overlong number"},
		{"count", []byte{200, 1, 0}, func(r *Reader) { r.Count(1, "states") }, "byte 2: 200 states, more than the 1 bytes left can hold"},
		{"flag", []byte{2}, func(r *Reader) { r.Bool() }, "byte 0: a flag of 2, not 0 or 1"},
		{"left", []byte{1, 2}, func(r *Reader) { r.Byte() }, "byte 1: 1 bytes left over"},
		{"small", []byte{9}, func(r *Reader) { r.Small(4, "depth") }, "byte 1: depth 9 is more than 4"},
		{"fixed", []byte{1}, func(r *Reader) { r.Float() }, "byte 0: truncated: 8 bytes wanted, 1 left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(tc.in)
			tc.read(r)
			err := r.Done()
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v, want %s", err, tc.want)
			}
		})
	}
}

func TestPutLength(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 16383, 16384, 70000} {
		b := append([]byte("head"), 0)
		for i := range n {
			b = append(b, byte(i))
		}
		b = PutLength(b, 4, uint64(n))
		r := NewReader(b)
		if string(r.Fixed(4)) != "head" {
			t.Fatalf("n=%d: the bytes before the length moved", n)
		}
		got := r.Bytes()
		if err := r.Done(); err != nil || len(got) != n {
			t.Fatalf("n=%d: read back %d bytes, %v", n, len(got), err)
		}
		for i := range got {
			if got[i] != byte(i) {
				t.Fatalf("n=%d: byte %d is %d, want %d", n, i, got[i], byte(i))
			}
		}
	}
}
