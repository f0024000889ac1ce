package message

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
)

// testCodec writes IDs and kinds as varints, and Extra and Payload values
// that are ints or strings, with a tag byte; a string of "fail" fails.
var testCodec = Codec[entity, kind]{
	ID:   IntCodec[entity](),
	Type: IntCodec[kind](),
	Value: machine.Codec[any]{
		Append: func(b []byte, v *any) ([]byte, error) {
			switch x := (*v).(type) {
			case int:
				return binary.AppendVarint(append(b, 'i'), int64(x)), nil
			case string:
				if x == "fail" {
					return b, errors.New("cannot write fail")
				}
				return append(append(b, 's'), x...), nil
			}
			return b, fmt.Errorf("no codec for %T", *v)
		},
		Decode: func(b []byte, v *any) error {
			if len(b) == 0 {
				return errors.New("empty")
			}
			switch b[0] {
			case 'i':
				x, n := binary.Varint(b[1:])
				if n <= 0 || n != len(b)-1 {
					return errors.New("bad int")
				}
				*v = int(x)
			case 's':
				*v = string(b[1:])
			default:
				return fmt.Errorf("tag %q", b[0])
			}
			return nil
		},
	},
}

func TestDispatcherSnapshotBinary(t *testing.T) {
	long := strings.Repeat("x", 300) // a length of two bytes
	s := dsnap{Time: 2.5, Pending: []tg{
		{Sender: 1, Receiver: 2, Msg: hello, DispatchTime: 3},
		{Sender: -70, Receiver: 1 << 30, Msg: 255, DispatchTime: 3, Extra: 7},
		{Sender: 3, Receiver: 3, Msg: attack, DispatchTime: 1e300, Extra: long},
		{Sender: 3, Receiver: 3, Msg: attack, DispatchTime: math.Copysign(0, -1), Extra: ""},
	}}
	b, err := s.AppendBinary([]byte("head"), testCodec)
	if err != nil || !bytes.HasPrefix(b, []byte("head")) {
		t.Fatalf("AppendBinary = %v, %v", b, err)
	}
	got := dsnap{Time: 9, Pending: make([]tg, 7)}
	got.Pending[6].Extra = "old"
	if err := got.Decode(b[4:], testCodec); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) || math.Signbit(got.Pending[3].DispatchTime) != true {
		t.Errorf("Decode(AppendBinary(s)) =\n%+v\nwant\n%+v", got, s)
	}
	if old := got.Pending[:7][6].Extra; old != nil {
		t.Errorf("Decode kept the Extra %v of the previous snapshot", old)
	}
	// Decoding into the same value again allocates nothing (the values
	// decoded are small ints or strings: take the strings out).
	s.Pending[2].Extra, s.Pending[3].Extra = nil, nil
	b, _ = s.AppendBinary(nil, testCodec)
	if n := testing.AllocsPerRun(10, func() {
		if err := got.Decode(b, testCodec); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Decode allocates %v times, want 0", n)
	}
	buf := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(10, func() { buf, _ = s.AppendBinary(buf[:0], testCodec) }); n != 0 {
		t.Errorf("AppendBinary allocates %v times, want 0", n)
	}
}

func TestDispatcherSnapshotBinaryErrors(t *testing.T) {
	noValue := testCodec
	noValue.Value = machine.Codec[any]{}
	noID := testCodec
	noID.ID.Decode = nil
	ok := dsnap{Time: 1, Pending: []tg{{Sender: 1, Receiver: 2, Msg: hello, DispatchTime: 3, Extra: 5}}}
	good, _ := ok.AppendBinary(nil, testCodec)

	appendTests := []struct {
		name  string
		s     dsnap
		codec Codec[entity, kind]
		want  string
	}{
		{"codec fails", dsnap{Pending: []tg{{}, {Extra: "fail"}}}, testCodec,
			"message: DispatcherSnapshot.AppendBinary: Pending[1]: cannot write fail"},
		{"no value codec", ok, noValue,
			"message: DispatcherSnapshot.AppendBinary: Pending[0]: a value of type int, and the Codec has no Value codec"},
		{"no ID codec", ok, noID,
			"message: DispatcherSnapshot.AppendBinary: the Codec has no ID codec (IntCodec serves integer IDs)"},
	}
	for _, tt := range appendTests {
		b, err := tt.s.AppendBinary([]byte("x"), tt.codec)
		if err == nil || err.Error() != tt.want || string(b) != "x" || !errors.Is(err, ErrBadSnapshot) {
			t.Errorf("%s: AppendBinary = %q, %v; want %q, x unchanged", tt.name, b, err, tt.want)
		}
	}

	decodeTests := []struct {
		name  string
		b     []byte
		codec Codec[entity, kind]
		want  string
	}{
		{"empty", nil, testCodec, "message: DispatcherSnapshot.Decode: byte 0: truncated or overlong number"},
		{"version", []byte{2}, testCodec, "message: DispatcherSnapshot.Decode: byte 1: format version 2; this fsmforge reads version 1"},
		{"count too large", append(good[:9:9], 0xff, 0xff, 0x03), testCodec,
			"message: DispatcherSnapshot.Decode: byte 12: 65535 telegrams, more than the 0 bytes left can hold"},
		{"truncated", good[:len(good)-2], testCodec,
			"message: DispatcherSnapshot.Decode: Pending[0]: Extra: byte 25: truncated: 2 bytes wanted, 0 left"},
		{"left over", append(good[:len(good):len(good)], 0), testCodec,
			"message: DispatcherSnapshot.Decode: byte 27: 1 bytes left over"},
		{"codec refuses", bytes.Replace(good, []byte{3, 'i', 10}, []byte{3, 'j', 10}, 1), testCodec,
			"message: DispatcherSnapshot.Decode: Pending[0]: Extra (2 bytes from byte 25): tag 'j'"},
		{"int too large", bytes.Replace(good, []byte{1, 2, 1, 4, 1, byte(hello) * 2}, []byte{1, 2, 1, 4, 2, 0x80, 0x04}, 1), testCodec,
			"message: DispatcherSnapshot.Decode: Pending[0]: Msg (2 bytes from byte 23): 256 does not fit in a message.kind"},
		{"no value codec", good, noValue,
			"message: DispatcherSnapshot.Decode: Pending[0]: Extra (2 bytes from byte 25): a value, and the Codec has no Value codec"},
	}
	for _, tt := range decodeTests {
		s := dsnap{Time: 4, Pending: []tg{{Extra: 1}}}
		err := s.Decode(tt.b, tt.codec)
		var se *SnapshotError
		if err == nil || err.Error() != tt.want || !errors.As(err, &se) || !errors.Is(err, ErrBadSnapshot) {
			t.Errorf("%s: Decode(%v) = %v\nwant %s", tt.name, tt.b, err, tt.want)
		}
		if s.Time != 0 || len(s.Pending) != 0 || s.Pending[:1][0].Extra != nil {
			t.Errorf("%s: a failed Decode left %+v", tt.name, s)
		}
	}
}

func TestBoardSnapshotBinary(t *testing.T) {
	s := bsnap{
		Last:    []msg{{Type: hello, From: 1, To: 2}, {Type: attack, From: 2, To: 9, Broadcast: true, Payload: "hi"}},
		Current: []msg{{Type: 200, From: -1, To: 1 << 20, Payload: -5}},
	}
	b, err := s.AppendBinary(nil, testCodec)
	if err != nil {
		t.Fatal(err)
	}
	var got bsnap
	if err := got.Decode(b, testCodec); err != nil || !reflect.DeepEqual(got, s) {
		t.Errorf("Decode(AppendBinary(s)) = %+v, %v\nwant %+v", got, err, s)
	}
	for i := range len(b) {
		got := bsnap{Last: []msg{{Payload: 1}}}
		err := got.Decode(b[:i], testCodec)
		if err == nil || !errors.Is(err, ErrBadSnapshot) || len(got.Last)+len(got.Current) != 0 {
			t.Errorf("Decode of %d bytes of %d = %v, left %+v", i, len(b), err, got)
		}
	}
	s.Current[0].Payload = "fail"
	if _, err := s.AppendBinary(nil, testCodec); err == nil || err.Error() != "message: BoardSnapshot.AppendBinary: Current[0]: cannot write fail" {
		t.Errorf("AppendBinary of a payload the codec refuses = %v", err)
	}
}

func TestIntCodec(t *testing.T) {
	c := IntCodec[int8]()
	for _, v := range []int8{0, 1, -1, 63, 64, -64, -65, 127, -128} {
		b, _ := c.Append(nil, &v)
		var got int8
		if err := c.Decode(b, &got); err != nil || got != v {
			t.Errorf("Decode(Append(%d)) = %d, %v", v, got, err)
		}
	}
	u := IntCodec[uint64]()
	big := uint64(math.MaxUint64)
	b, _ := u.Append(nil, &big)
	var got uint64
	if err := u.Decode(b, &got); err != nil || got != big {
		t.Errorf("uint64: Decode(Append(max)) = %d, %v", got, err)
	}
	var v int8
	for _, tt := range []struct {
		b    []byte
		want string
	}{
		{nil, "0 bytes are not one varint"},
		{[]byte{2, 0}, "2 bytes are not one varint"},
		{[]byte{0x80, 2}, "128 does not fit in a int8"},
	} {
		if err := c.Decode(tt.b, &v); err == nil || err.Error() != tt.want {
			t.Errorf("Decode(%v) = %v, want %q", tt.b, err, tt.want)
		}
	}
}

// FuzzDispatcherSnapshotDecode: no input panics Decode or the Restore
// that follows; every error renders; what decodes encodes to bytes that
// decode to the same, and a dispatcher restores it or says why, changing
// nothing.
func FuzzDispatcherSnapshotDecode(f *testing.F) {
	for _, s := range []dsnap{
		{},
		{Time: 1, Pending: []tg{{Sender: 1, Receiver: 2, Msg: hello, DispatchTime: 3, Extra: 5}}},
		{Time: 1, Pending: []tg{{Sender: 1, Receiver: 2, Msg: hello, DispatchTime: 3}, {Sender: 1, Receiver: 2, Msg: hello, DispatchTime: 3.1, Extra: "x"}}},
		{Time: 1, Pending: []tg{{DispatchTime: 5}, {DispatchTime: 4}}},
	} {
		b, err := s.AppendBinary(nil, testCodec)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s dsnap
		if err := s.Decode(data, testCodec); err != nil {
			if err.Error() == "" || !errors.Is(err, ErrBadSnapshot) {
				t.Fatalf("Decode error %q does not render or match ErrBadSnapshot", err)
			}
			return
		}
		b, err := s.AppendBinary(nil, testCodec)
		if err != nil {
			t.Fatalf("AppendBinary of what Decode gave: %v", err)
		}
		var again dsnap
		if err := again.Decode(b, testCodec); err != nil || !reflect.DeepEqual(sameNaN(again), sameNaN(s)) {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, s)
		}
		for _, w := range []float64{0, 0.25, math.Inf(1)} {
			d := NewDispatcher[entity, kind](DispatcherOptions{DuplicateWindow: w})
			d.Dispatch(1, 1, 2, hello, nil)
			before := stateOf(d)
			if err := d.Restore(&s); err != nil {
				if err.Error() == "" || !errors.Is(err, ErrBadSnapshot) {
					t.Fatalf("Restore error %q", err)
				}
				if !reflect.DeepEqual(stateOf(d), before) {
					t.Fatalf("a refused Restore changed the dispatcher")
				}
				continue
			}
			var back dsnap
			if d.Snapshot(&back); !reflect.DeepEqual(back, s) && !(len(back.Pending) == 0 && len(s.Pending) == 0) {
				t.Fatalf("window %v: Snapshot after Restore = %+v, want %+v", w, back, s)
			}
		}
	})
}

// sameNaN replaces NaN times, which DeepEqual finds unequal to themselves.
func sameNaN(s dsnap) dsnap {
	s.Pending = append([]tg(nil), s.Pending...)
	for i := range s.Pending {
		if math.IsNaN(s.Pending[i].DispatchTime) {
			s.Pending[i].DispatchTime = -1
		}
	}
	if math.IsNaN(s.Time) {
		s.Time = -1
	}
	return s
}

// FuzzBoardSnapshotDecode: as FuzzDispatcherSnapshotDecode, for boards.
func FuzzBoardSnapshotDecode(f *testing.F) {
	s := bsnap{Last: []msg{{Type: hello, From: 1, To: 2}, {Type: attack, Broadcast: true, Payload: "hi"}}, Current: []msg{{Payload: 3}}}
	b, _ := s.AppendBinary(nil, testCodec)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var s bsnap
		if err := s.Decode(data, testCodec); err != nil {
			if err.Error() == "" || !errors.Is(err, ErrBadSnapshot) {
				t.Fatalf("Decode error %q does not render or match ErrBadSnapshot", err)
			}
			return
		}
		var board Board[entity, kind]
		if err := board.Restore(&s); err != nil {
			t.Fatalf("Restore of a decoded snapshot: %v", err)
		}
		var back bsnap
		board.Snapshot(&back)
		b, _ := s.AppendBinary(nil, testCodec)
		b2, err := back.AppendBinary(nil, testCodec)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("the board restored gives another snapshot: %v", err)
		}
	})
}
