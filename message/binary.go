package message

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/fsmforge/fsmforge/internal/wire"
	"github.com/fsmforge/fsmforge/machine"
)

// Codec says how the binary forms of [DispatcherSnapshot] and
// [BoardSnapshot] write the game's own values: its entity IDs, its message
// types and the values telegrams and messages carry. Each is a
// [machine.Codec]; the snapshot stores the length of what each Append
// wrote, so a Decode is given exactly those bytes. [IntCodec] serves IDs
// and message types that are integers.
type Codec[ID, K comparable] struct {
	ID   machine.Codec[ID] // senders, receivers, From and To; required
	Type machine.Codec[K]  // a telegram's Msg, a message's Type; required
	// Value writes a telegram's Extra or a message's Payload when it is
	// not nil; a nil one is written as a single 0 byte and read back as
	// nil without calling Value. With Value's functions nil, a snapshot
	// holding a value that is not nil cannot be encoded (an error), and
	// one written with values cannot be decoded.
	Value machine.Codec[any]
}

// IntCodec returns a codec for an integer type: a value is written as a
// signed varint, 1 byte for -64 to 63. Decode refuses bytes that are not
// exactly one varint, or a number T cannot hold.
func IntCodec[T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr]() machine.Codec[T] {
	return machine.Codec[T]{
		Append: func(b []byte, v *T) ([]byte, error) {
			if x := int64(*v); -64 <= x && x < 64 {
				return append(b, byte(x<<1^x>>63)), nil // zig-zag, as AppendVarint
			}
			return binary.AppendVarint(b, int64(*v)), nil
		},
		Decode: func(b []byte, v *T) error {
			if len(b) == 1 && b[0] < 0x80 {
				x := int64(b[0]>>1) ^ -int64(b[0]&1)
				if int64(T(x)) == x {
					*v = T(x)
					return nil
				}
			}
			x, n := binary.Varint(b)
			switch {
			case n <= 0 || n != len(b):
				return fmt.Errorf("%d bytes are not one varint", len(b))
			case int64(T(x)) != x:
				return fmt.Errorf("%d does not fit in a %T", x, *v)
			}
			*v = T(x)
			return nil
		},
	}
}

// binaryVersion is the version of the binary forms: their first byte.
const binaryVersion = 1

// The fewest bytes a telegram and a message take: a time of 8 bytes, a
// length for each value.
const (
	minTelegram = 8 + 4
	minMessage  = 1 + 4
)

// AppendBinary appends the snapshot's binary form to b, writing IDs,
// message types and Extra values with c, and returns the extended slice.
// The form is a version (1), Time (8 bytes), the number of pending
// telegrams, then each telegram: DispatchTime (8 bytes), Sender, Receiver
// and Msg (each the length of what c wrote, then those bytes) and Extra
// (0 if nil, else the length plus one, then c.Value's bytes).
//
// It returns the error of a codec, or of a codec missing, saying which
// telegram; b is then returned as it was given. It allocates nothing when
// b has room and the codecs allocate nothing. Cost: a few nanoseconds per
// telegram beside the codecs' calls.
func (s *DispatcherSnapshot[ID, K]) AppendBinary(b []byte, c Codec[ID, K]) ([]byte, error) {
	const op = "DispatcherSnapshot.AppendBinary"
	if err := c.check(op); err != nil {
		return b, err
	}
	start := len(b)
	b = wire.AppendUint(b, binaryVersion)
	b = wire.AppendFloat(b, s.Time)
	b = wire.AppendUint(b, uint64(len(s.Pending)))
	var err error
	for i := range s.Pending {
		t := &s.Pending[i]
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t.DispatchTime))
		if b, err = appendValue(b, &t.Sender, c.ID.Append); err == nil {
			if b, err = appendValue(b, &t.Receiver, c.ID.Append); err == nil {
				if b, err = appendValue(b, &t.Msg, c.Type.Append); err == nil {
					b, err = appendAny(b, &t.Extra, c.Value.Append)
				}
			}
		}
		if err != nil {
			return b[:start], &SnapshotError{Op: op, Field: "Pending", Index: i, Err: err}
		}
	}
	return b, nil
}

// Decode sets s to the snapshot whose binary form is b, as AppendBinary
// wrote it with the same codecs, reusing the capacity of s.Pending: no
// allocation once it has grown, beside what the codecs allocate. The Extra
// values are what c.Value decodes.
//
// Decode checks the form only; [Dispatcher.Restore] checks the times and
// their order. It returns a [*SnapshotError] (matching [ErrBadSnapshot])
// that names the telegram and the byte where reading stopped, and wraps
// the codec's error when a codec refused its bytes; s then holds no
// telegrams and Time 0. A count of telegrams larger than b could hold is
// refused before anything is allocated. A Codec without its ID or Type
// functions is an error too, which leaves s as it was.
func (s *DispatcherSnapshot[ID, K]) Decode(b []byte, c Codec[ID, K]) error {
	const op = "DispatcherSnapshot.Decode"
	if err := c.check(op); err != nil {
		return err
	}
	r := wire.NewReader(b)
	r.Version(binaryVersion)
	t := r.Float()
	n := r.Count(minTelegram, "telegrams")
	if err := r.Err(); err != nil {
		s.reset()
		return &SnapshotError{Op: op, Field: "", Index: -1, Err: err}
	}
	p := s.Pending
	if cap(p) < n {
		p = make([]Telegram[ID, K], n)
	} else if len(p) > n {
		clear(p[n:]) // let the Extra values of the previous snapshot be collected
	}
	p = p[:n]
	for i := 0; i < n; i++ {
		// Most telegrams are read by decodeFast; one it cannot read, by
		// decodeTelegram, which reads any and says what is wrong.
		read, size := decodeFast(peek(r), p[i:], &c)
		r.Fixed(size)
		if i += read; i == n {
			break
		}
		if err := decodeTelegram(r, &p[i], &c); err != nil {
			s.Pending = p
			s.reset()
			return &SnapshotError{Op: op, Field: "Pending", Index: i, Err: err}
		}
	}
	if err := r.Done(); err != nil {
		s.Pending = p
		s.reset()
		return &SnapshotError{Op: op, Index: -1, Err: err}
	}
	s.Time, s.Pending = t, p
	return nil
}

// reset empties s after a failed Decode.
func (s *DispatcherSnapshot[ID, K]) reset() {
	clear(s.Pending[:cap(s.Pending)]) // let the Extra values be collected
	s.Time, s.Pending = 0, s.Pending[:0]
}

// decodeFast decodes telegrams from b into p while they are written the
// way most are, with values of less than 128 bytes each, and returns how
// many it decoded and the bytes they took. It stops at the first it cannot
// read so (a longer value, a codec's error, the end of b), for
// decodeTelegram to read or to say what is wrong. Reading telegrams from a
// slice rather than value by value from the Reader halves the cost of
// Decode.
func decodeFast[ID, K comparable](b []byte, p []Telegram[ID, K], c *Codec[ID, K]) (read, size int) {
	for read < len(p) {
		n := fastTelegram(b[size:], &p[read], c)
		if n == 0 {
			break
		}
		size += n
		read++
	}
	return read, size
}

// fastTelegram decodes one telegram from the start of b into t as
// decodeFast says, and returns the bytes it took, or 0.
func fastTelegram[ID, K comparable](b []byte, t *Telegram[ID, K], c *Codec[ID, K]) int {
	if len(b) < minTelegram {
		return 0
	}
	at := 8
	if at = fastValue(b, at, &t.Sender, c.ID.Decode); at == 0 {
		return 0
	}
	if at = fastValue(b, at, &t.Receiver, c.ID.Decode); at == 0 {
		return 0
	}
	if at = fastValue(b, at, &t.Msg, c.Type.Decode); at == 0 || at >= len(b) {
		return 0
	}
	switch x := int(b[at]); {
	case x == 0:
		t.Extra = nil
		at++
	case x >= 0x80 || x-1 > len(b)-at-1 || c.Value.Decode == nil:
		return 0
	default:
		t.Extra = nil
		if c.Value.Decode(b[at+1:at+x:at+x], &t.Extra) != nil {
			return 0
		}
		at += x
	}
	t.DispatchTime = math.Float64frombits(binary.LittleEndian.Uint64(b))
	return at
}

// fastValue decodes the value whose length is at b[at], of less than 128
// bytes, and returns where the next begins, or 0.
func fastValue[T any](b []byte, at int, v *T, decode func([]byte, *T) error) int {
	if at >= len(b) {
		return 0
	}
	n := int(b[at])
	at++
	if n >= 0x80 || n > len(b)-at || decode(b[at:at+n:at+n], v) != nil {
		return 0
	}
	return at + n
}

// peek returns the bytes r has left, without taking them.
func peek(r *wire.Reader) []byte {
	rr := *r
	return rr.Fixed(rr.Left())
}

func decodeTelegram[ID, K comparable](r *wire.Reader, t *Telegram[ID, K], c *Codec[ID, K]) error {
	t.DispatchTime = r.Float()
	if err := r.Err(); err != nil {
		return fmt.Errorf("DispatchTime: %w", err)
	}
	if err := decodeValue(r, &t.Sender, c.ID.Decode, "Sender"); err != nil {
		return err
	}
	if err := decodeValue(r, &t.Receiver, c.ID.Decode, "Receiver"); err != nil {
		return err
	}
	if err := decodeValue(r, &t.Msg, c.Type.Decode, "Msg"); err != nil {
		return err
	}
	return decodeAny(r, &t.Extra, c.Value.Decode, "Extra")
}

// AppendBinary appends the snapshot's binary form to b, writing IDs,
// message types and payloads with c, and returns the extended slice. The
// form is a version (1), then the last frame and the current one, each the
// number of its messages then each message: Type, From and To (each the
// length of what c wrote, then those bytes), Broadcast (a byte, 0 or 1)
// and Payload (0 if nil, else the length plus one, then c.Value's bytes).
//
// It returns the error of a codec, or of a codec missing, saying which
// message; b is then returned as it was given. It allocates nothing when b
// has room and the codecs allocate nothing.
func (s *BoardSnapshot[ID, K]) AppendBinary(b []byte, c Codec[ID, K]) ([]byte, error) {
	const op = "BoardSnapshot.AppendBinary"
	if err := c.check(op); err != nil {
		return b, err
	}
	start := len(b)
	b = wire.AppendUint(b, binaryVersion)
	for _, f := range [...]struct {
		name string
		msgs []Message[ID, K]
	}{{"Last", s.Last}, {"Current", s.Current}} {
		b = wire.AppendUint(b, uint64(len(f.msgs)))
		var err error
		for i := range f.msgs {
			m := &f.msgs[i]
			if b, err = appendValue(b, &m.Type, c.Type.Append); err == nil {
				if b, err = appendValue(b, &m.From, c.ID.Append); err == nil {
					if b, err = appendValue(b, &m.To, c.ID.Append); err == nil {
						b = wire.AppendBool(b, m.Broadcast)
						b, err = appendAny(b, &m.Payload, c.Value.Append)
					}
				}
			}
			if err != nil {
				return b[:start], &SnapshotError{Op: op, Field: f.name, Index: i, Err: err}
			}
		}
	}
	return b, nil
}

// Decode sets s to the snapshot whose binary form is b, as AppendBinary
// wrote it with the same codecs, reusing the capacity of s.Last and
// s.Current. It returns a [*SnapshotError] (matching [ErrBadSnapshot])
// that names the frame, the message and the byte where reading stopped,
// and wraps the codec's error when a codec refused its bytes; s then holds
// no messages. A Codec without its ID or Type functions is an error too,
// which leaves s as it was.
func (s *BoardSnapshot[ID, K]) Decode(b []byte, c Codec[ID, K]) error {
	const op = "BoardSnapshot.Decode"
	if err := c.check(op); err != nil {
		return err
	}
	r := wire.NewReader(b)
	r.Version(binaryVersion)
	var err error
	if s.Last, err = decodeMessages(r, s.Last, &c, op, "Last"); err == nil {
		if s.Current, err = decodeMessages(r, s.Current, &c, op, "Current"); err == nil {
			if err = r.Done(); err != nil {
				err = &SnapshotError{Op: op, Index: -1, Err: err}
			}
		}
	}
	if err != nil {
		clear(s.Last[:cap(s.Last)])
		clear(s.Current[:cap(s.Current)])
		s.Last, s.Current = s.Last[:0], s.Current[:0]
	}
	return err
}

func decodeMessages[ID, K comparable](r *wire.Reader, msgs []Message[ID, K], c *Codec[ID, K], op, field string) ([]Message[ID, K], error) {
	n := r.Count(minMessage, "messages")
	if err := r.Err(); err != nil {
		return msgs[:0], &SnapshotError{Op: op, Field: field, Index: -1, Err: err}
	}
	if cap(msgs) < n {
		msgs = make([]Message[ID, K], n)
	}
	msgs = msgs[:n]
	for i := range msgs {
		m := &msgs[i]
		err := decodeValue(r, &m.Type, c.Type.Decode, "Type")
		if err == nil {
			if err = decodeValue(r, &m.From, c.ID.Decode, "From"); err == nil {
				if err = decodeValue(r, &m.To, c.ID.Decode, "To"); err == nil {
					m.Broadcast = r.Bool()
					err = decodeAny(r, &m.Payload, c.Value.Decode, "Payload")
				}
			}
		}
		if err != nil {
			return msgs, &SnapshotError{Op: op, Field: field, Index: i, Err: err}
		}
	}
	return msgs, nil
}

// check reports a codec missing.
func (c *Codec[ID, K]) check(op string) error {
	switch {
	case c.ID.Append == nil || c.ID.Decode == nil:
		return &SnapshotError{Op: op, Index: -1, Err: snapshotProblem{ErrBadSnapshot, "the Codec has no ID codec (IntCodec serves integer IDs)"}}
	case c.Type.Append == nil || c.Type.Decode == nil:
		return &SnapshotError{Op: op, Index: -1, Err: snapshotProblem{ErrBadSnapshot, "the Codec has no Type codec (IntCodec serves integer message types)"}}
	}
	return nil
}

// appendValue appends the length of what add appends for v, then that.
func appendValue[T any](b []byte, v *T, add func([]byte, *T) ([]byte, error)) ([]byte, error) {
	at := len(b)
	b, err := add(append(b, 0), v)
	if err != nil {
		return b[:at], err
	}
	return wire.PutLength(b, at, uint64(len(b)-at-1)), nil
}

// appendAny appends 0 for a nil value, or the length of what add appends
// plus one, then that.
func appendAny(b []byte, v *any, add func([]byte, *any) ([]byte, error)) ([]byte, error) {
	if *v == nil {
		return append(b, 0), nil
	}
	if add == nil {
		return b, fmt.Errorf("a value of type %T, and the Codec has no Value codec", *v)
	}
	at := len(b)
	b, err := add(append(b, 0), v)
	if err != nil {
		return b[:at], err
	}
	return wire.PutLength(b, at, uint64(len(b)-at)), nil
}

// decodeValue reads a length and that many bytes, and decodes them into v.
func decodeValue[T any](r *wire.Reader, v *T, decode func([]byte, *T) error, field string) error {
	p := r.Bytes()
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	if err := decode(p, v); err != nil {
		return fmt.Errorf("%s (%d bytes from byte %d): %w", field, len(p), r.Offset()-len(p), err)
	}
	return nil
}

// decodeAny reads what appendAny wrote.
func decodeAny(r *wire.Reader, v *any, decode func([]byte, *any) error, field string) error {
	n := r.Uint()
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	if n == 0 {
		*v = nil
		return nil
	}
	p := r.Fixed(int(min(n-1, math.MaxInt32)))
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	if decode == nil {
		return fmt.Errorf("%s (%d bytes from byte %d): a value, and the Codec has no Value codec", field, len(p), r.Offset()-len(p))
	}
	*v = nil
	if err := decode(p, v); err != nil {
		return fmt.Errorf("%s (%d bytes from byte %d): %w", field, len(p), r.Offset()-len(p), err)
	}
	return nil
}
