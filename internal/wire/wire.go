// Package wire reads and writes the binary forms of fsmforge's saves: the
// snapshots of every runtime and the save file that holds them. Numbers
// are unsigned varints unless said otherwise, strings and byte strings a
// varint length then the bytes, floats their IEEE bits as 8 bytes little
// endian.
//
// A Reader never panics and never allocates more than its input can hold:
// a count larger than the bytes left is an error, so a corrupt or hostile
// save is refused before it is trusted.
package wire

import (
	"encoding/binary"
	"fmt"
	"math"
)

// AppendUint appends v as an unsigned varint.
func AppendUint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// AppendInt appends v as a signed (zig-zag) varint.
func AppendInt(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// AppendBool appends 1 or 0.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendFloat appends v's IEEE 754 bits, 8 bytes little endian: exactly,
// so a restored clock is the same float.
func AppendFloat(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// AppendString appends len(s) then s.
func AppendString(b []byte, s string) []byte {
	return append(AppendUint(b, uint64(len(s))), s...)
}

// AppendBytes appends len(p) then p.
func AppendBytes(b, p []byte) []byte {
	return append(AppendUint(b, uint64(len(p))), p...)
}

// Reader reads values from a byte slice. The first error sticks: every
// later read returns zero, and Err reports it.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader returns a reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err returns the first error, or nil.
func (r *Reader) Err() error { return r.err }

// Offset returns the number of bytes read.
func (r *Reader) Offset() int { return r.off }

// Left returns the number of bytes not read yet.
func (r *Reader) Left() int { return len(r.b) - r.off }

// Fail records an error at the current offset, unless one is recorded.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("byte %d: %s", r.off, fmt.Sprintf(format, args...))
	}
}

// Done returns Err, or an error if bytes are left over.
func (r *Reader) Done() error {
	if r.err == nil && r.off != len(r.b) {
		r.Fail("%d bytes left over", len(r.b)-r.off)
	}
	return r.err
}

// Uint reads an unsigned varint.
func (r *Reader) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.Fail("truncated or overlong number")
		return 0
	}
	r.off += n
	return v
}

// Int reads a signed varint.
func (r *Reader) Int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.Fail("truncated or overlong number")
		return 0
	}
	r.off += n
	return v
}

// Small reads an unsigned varint that must be at most max, as an int.
func (r *Reader) Small(max int, what string) int {
	v := r.Uint()
	if r.err == nil && v > uint64(max) {
		r.Fail("%s %d is more than %d", what, v, max)
		return 0
	}
	return int(v)
}

// Count reads a count of items that take at least min bytes each (1 if
// min is less): it must fit in the bytes left, so that a corrupt count
// never makes the caller allocate beyond the input's size.
func (r *Reader) Count(min int, what string) int {
	if min < 1 {
		min = 1
	}
	v := r.Uint()
	if r.err == nil && v > uint64(r.Left()/min) {
		r.Fail("%d %s, more than the %d bytes left can hold", v, what, r.Left())
		return 0
	}
	return int(v)
}

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool() bool {
	b := r.Byte()
	if b > 1 {
		r.off--
		r.Fail("a flag of %d, not 0 or 1", b)
		return false
	}
	return b == 1
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.Fail("truncated")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// Float reads 8 bytes of IEEE 754 bits.
func (r *Reader) Float() float64 {
	p := r.Fixed(8)
	if p == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(p))
}

// Fixed reads n bytes, returning a slice of the input (nil on error).
func (r *Reader) Fixed(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.Left() {
		r.Fail("truncated: %d bytes wanted, %d left", n, r.Left())
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

// Bytes reads a length then that many bytes, a slice of the input.
func (r *Reader) Bytes() []byte {
	n := r.Count(1, "bytes")
	if r.err != nil {
		return nil
	}
	return r.Fixed(n)
}

// String reads a length then that many bytes as a string.
func (r *Reader) String() string { return string(r.Bytes()) }

// PutLength writes n as an unsigned varint at b[at], a byte kept for it
// before the bytes that follow, making room when n takes more than one
// byte (the bytes after it move up), and returns b: how a length is
// written before bytes whose length is known only once appended.
func PutLength(b []byte, at int, n uint64) []byte {
	if n < 0x80 {
		b[at] = byte(n)
		return b
	}
	var size [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(size[:], n)
	end := len(b)
	b = append(b, size[:l-1]...) // room for the length's other bytes
	copy(b[at+l:], b[at+1:end])
	copy(b[at:], size[:l])
	return b
}

// Version reads a format version and fails unless it is want.
func (r *Reader) Version(want uint64) {
	if v := r.Uint(); r.err == nil && v != want {
		r.Fail("format version %d; this fsmforge reads version %d", v, want)
	}
}
