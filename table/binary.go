package table

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"

	"github.com/fsmforge/fsmforge/diag"
)

// The binary format; doc.go describes it byte by byte.
const (
	magic         = "FSMT"
	formatVersion = 1
	headerSize    = 16
	trailerSize   = 4 // CRC-32
	sectionHead   = 8 // tag and length
)

// Section tags, in the order they appear.
var sectionTags = [...]string{"META", "PROP", "TEST", "STAT", "ANYS", "DEST"}

// errZeroTable is returned when encoding a Table that was never built.
var errZeroTable = errors.New("table: cannot encode a table with no states (make it with Builder.Build or decode it)")

// MarshalBinary returns the table's binary form (see the package
// documentation). The same table always gives the same bytes. It returns
// an error only for a zero Table.
func (t *Table) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// AppendBinary appends the table's binary form to b, as [Table.MarshalBinary].
func (t *Table) AppendBinary(b []byte) ([]byte, error) {
	if len(t.spans) == 0 && t.sc == nil {
		return b, errZeroTable
	}
	start := len(b)
	b = append(b, magic...)
	version := formatVersion
	if t.sc != nil {
		version = chartVersion
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(version))
	b = binary.LittleEndian.AppendUint16(b, 0) // flags
	b = binary.LittleEndian.AppendUint32(b, 0) // length, patched below
	b = binary.LittleEndian.AppendUint32(b, 0) // reserved

	var mark int
	open := func(tag string) {
		b = append(b, tag...)
		mark = len(b)
		b = binary.LittleEndian.AppendUint32(b, 0)
	}
	closeSection := func() {
		binary.LittleEndian.PutUint32(b[mark:], uint32(len(b)-mark-4))
	}
	u16 := func(v int) { b = binary.LittleEndian.AppendUint16(b, uint16(v)) }
	str := func(s string) { b = append(b, byte(len(s))); b = append(b, s...) }

	open("META")
	str(t.name)
	var flags byte
	if t.opts.Chain {
		flags |= 1
	}
	b = append(b, flags)
	u16(t.opts.ChainLimit)
	b = append(b, byte(t.opts.StackLimit))
	closeSection()

	open("PROP")
	u16(len(t.props))
	for _, p := range t.props {
		str(p.name)
		u16(len(p.values))
		for _, v := range p.values {
			str(v)
		}
	}
	closeSection()

	open("TEST")
	u16(len(t.tests))
	for _, tt := range t.tests {
		var kind byte
		if tt.Message {
			kind = 1
		}
		b = append(b, kind)
		str(tt.Name)
		str(tt.Value)
	}
	closeSection()

	if t.sc != nil {
		open("CHRT")
		b = t.appendChart(b)
		closeSection()
		binary.LittleEndian.PutUint32(b[start+8:], uint32(len(b)-start+trailerSize))
		return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:])), nil
	}

	open("STAT")
	u16(len(t.states))
	u16(int(t.initial))
	for _, s := range t.states {
		str(s.name)
		u16(len(s.tests))
		for _, id := range s.tests {
			u16(int(id))
		}
		u16(len(s.actions))
		for _, a := range s.actions {
			u16(int(a.Property))
			u16(int(a.Value))
		}
	}
	closeSection()

	open("ANYS")
	u16(len(t.any))
	for _, tr := range t.any {
		u16(int(tr.Test))
		u16(int(tr.To))
		var push byte
		if tr.Push {
			push = 1
		}
		b = append(b, push)
	}
	closeSection()

	open("DEST")
	u16(len(t.tests))
	u16(len(t.states))
	for _, d := range t.dest {
		u16(int(d))
	}
	b = append(b, t.push...)
	closeSection()

	binary.LittleEndian.PutUint32(b[start+8:], uint32(len(b)-start+trailerSize))
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:])), nil
}

// UnmarshalBinary decodes a table in the binary form, replacing t's
// contents, and validates it as [Builder.Build] does. Every problem is
// returned as a [diag.List] whose diagnostics wrap [ErrNotTable],
// [ErrVersion], [ErrTruncated], [ErrChecksum], [ErrCorrupt] or [ErrInvalid]
// and give, in their message, the byte offset where it was found. It never panics, and
// allocates at most a small multiple of len(data): every count is checked
// against the bytes that remain before anything is allocated. On error t is
// left unchanged. t must not be in use by agents.
func (t *Table) UnmarshalBinary(data []byte) error {
	d := decoder{data: data}
	nt, err := d.decode()
	if err != nil {
		return err
	}
	*t = *nt
	return nil
}

// decoder reads the binary form; the first problem stops it.
type decoder struct {
	data    []byte
	off     int // next byte to read
	end     int // end of the current section
	section string
	what    string // what is being read, for errors: "test" …
	index   int    // … and which one, if index >= 0
	err     *diag.Diagnostic
}

func (d *decoder) fail(kind error, format string, args ...any) {
	if d.err != nil {
		return
	}
	where := ""
	if d.section != "" {
		where = "section " + d.section
		if d.what != "" {
			where += ", " + d.what
			if d.index >= 0 {
				where += " #" + strconv.Itoa(d.index)
			}
		}
	}
	e := problem(d.off, kind, where, fmt.Sprintf(format, args...))
	d.err = &e
}

func (d *decoder) decode() (*Table, error) {
	data := d.data
	if len(data) < 4 || string(data[:4]) != magic {
		if len(data) < 4 && string(data) == magic[:len(data)] {
			d.fail(ErrTruncated, "%d bytes; a table file has at least %d", len(data), headerSize+trailerSize)
		} else {
			d.fail(ErrNotTable, "the data does not start with %q (is it a table file? JSON tables are read with UnmarshalJSON)", magic)
		}
		return nil, diag.List{*d.err}
	}
	if len(data) < headerSize+trailerSize {
		d.fail(ErrTruncated, "%d bytes; a table file has at least %d", len(data), headerSize+trailerSize)
		return nil, diag.List{*d.err}
	}
	d.off = 4
	version := int(binary.LittleEndian.Uint16(data[4:]))
	if version != formatVersion && version != chartVersion {
		d.fail(ErrVersion, "format version %d; this package reads versions %d and %d (was the file written by a newer fsmforge?)", version, formatVersion, chartVersion)
		return nil, diag.List{*d.err}
	}
	d.off = 6
	if f := binary.LittleEndian.Uint16(data[6:]); f != 0 {
		d.fail(ErrVersion, "header flags %#04x; version %d defines none (was the file written by a newer fsmforge?)", f, formatVersion)
		return nil, diag.List{*d.err}
	}
	d.off = 8
	n := binary.LittleEndian.Uint32(data[8:])
	switch {
	case uint64(n) > uint64(len(data)):
		d.fail(ErrTruncated, "the header gives a length of %d bytes; there are only %d (the file was cut short)", n, len(data))
	case n < headerSize+trailerSize:
		d.fail(ErrCorrupt, "the header gives a length of %d bytes; a table file has at least %d", n, headerSize+trailerSize)
	case int(n) < len(data):
		d.fail(ErrCorrupt, "the header gives a length of %d bytes; there are %d (%d extra bytes after the table)", n, len(data), len(data)-int(n))
	}
	if d.err != nil {
		return nil, diag.List{*d.err}
	}
	body := len(data) - trailerSize
	if want, got := binary.LittleEndian.Uint32(data[body:]), crc32.ChecksumIEEE(data[:body]); want != got {
		d.off = body
		d.fail(ErrChecksum, "CRC-32 is %#08x, the contents give %#08x: the file is damaged", want, got)
		return nil, diag.List{*d.err}
	}
	d.off = 12
	if r := binary.LittleEndian.Uint32(data[12:]); r != 0 {
		d.fail(ErrCorrupt, "reserved header bytes are %#08x, not zero", r)
		return nil, diag.List{*d.err}
	}
	d.off = headerSize
	d.data = data[:body] // sections end before the checksum

	t := &Table{}
	tags := sectionTags[:]
	if version == chartVersion {
		tags = chartSectionTags[:]
	}
	t = d.sections(t, tags)
	if d.err != nil {
		return nil, diag.List{*d.err}
	}
	if t.sc != nil {
		return t, nil // built, and so checked, by chart
	}
	if err := t.setUp(); err != nil {
		return nil, err
	}
	return t, nil
}

// sections reads the sections tags in order into t, and returns the
// table: t, or for a statechart the table built from them.
func (d *decoder) sections(t *Table, tags []string) *Table {
	for _, tag := range tags {
		d.section, d.what, d.index = "", "", -1
		if !d.open(tag, tags) {
			return t
		}
		switch tag {
		case "META":
			d.meta(t)
		case "PROP":
			d.props(t)
		case "TEST":
			d.tests(t)
		case "STAT":
			d.states(t)
		case "ANYS":
			d.anys(t)
		case "DEST":
			d.dests(t)
		case "CHRT":
			if nt := d.chart(t); nt != nil {
				t = nt
			}
		}
		if d.err != nil {
			return t
		}
		d.what, d.index = "", -1
		if d.off != d.end {
			d.fail(ErrCorrupt, "%d bytes left over at the end of the section", d.end-d.off)
			return t
		}
	}
	d.section = ""
	if d.off != len(d.data) {
		d.fail(ErrCorrupt, "%d bytes after the last section, before the checksum", len(d.data)-d.off)
	}
	return t
}

// open reads a section's head and sets the section's end.
func (d *decoder) open(tag string, tags []string) bool {
	if len(d.data)-d.off < sectionHead {
		d.fail(ErrCorrupt, "section %s expected, but only %d bytes remain before the checksum", tag, len(d.data)-d.off)
		return false
	}
	if got := string(d.data[d.off : d.off+4]); got != tag {
		d.fail(ErrCorrupt, "section %q found where section %s is expected (sections are %v, in that order)", got, tag, tags)
		return false
	}
	d.off += 4
	n := binary.LittleEndian.Uint32(d.data[d.off:])
	if uint64(n) > uint64(len(d.data)-d.off-4) {
		d.fail(ErrCorrupt, "section %s has a length of %d bytes; only %d remain before the checksum", tag, n, len(d.data)-d.off-4)
		return false
	}
	d.off += 4
	d.section = tag
	d.end = d.off + int(n)
	return true
}

// need reports whether n more bytes remain in the section, failing if not.
func (d *decoder) need(n int) bool {
	if d.err != nil {
		return false
	}
	if d.end-d.off < n {
		d.fail(ErrCorrupt, "runs past the end of the section (%d bytes needed, %d remain)", n, d.end-d.off)
		return false
	}
	return true
}

// count reads a uint16 count of items of at least min bytes each, failing
// if they cannot fit in what remains of the section.
func (d *decoder) count(what string, min int) int {
	n := d.u16()
	if d.err == nil && n*min > d.end-d.off {
		d.fail(ErrCorrupt, "%d %s need at least %d bytes; %d remain in the section", n, what, n*min, d.end-d.off)
	}
	if d.err != nil {
		return 0
	}
	return n
}

func (d *decoder) u8() int {
	if !d.need(1) {
		return 0
	}
	v := d.data[d.off]
	d.off++
	return int(v)
}

func (d *decoder) u16() int {
	if !d.need(2) {
		return 0
	}
	v := binary.LittleEndian.Uint16(d.data[d.off:])
	d.off += 2
	return int(v)
}

// flag reads a byte that must be 0 or 1.
func (d *decoder) flag(what string) bool {
	v := d.u8()
	if v > 1 {
		d.off--
		d.fail(ErrCorrupt, "%s is %d; it is 0 or 1", what, v)
	}
	return v == 1
}

func (d *decoder) str() string {
	n := d.u8()
	if !d.need(n) {
		return ""
	}
	s := string(d.data[d.off : d.off+n])
	d.off += n
	return s
}

func (d *decoder) meta(t *Table) {
	d.what, d.index = "name", -1
	t.name = d.str()
	d.what, d.index = "options", -1
	f := d.u8()
	if f > 1 {
		d.off--
		d.fail(ErrCorrupt, "option flags %#02x; version %d defines only 0x01 (Chain)", f, formatVersion)
		return
	}
	t.opts.Chain = f == 1
	t.opts.ChainLimit = d.u16()
	t.opts.StackLimit = d.u8()
}

func (d *decoder) props(t *Table) {
	n := d.count("properties", 3)
	t.props = make([]property, n)
	for i := range t.props {
		d.what, d.index = "property", i
		p := &t.props[i]
		p.name = d.str()
		p.values = make([]string, d.count("values", 1))
		for v := range p.values {
			p.values[v] = d.str()
		}
		if d.err != nil {
			return
		}
	}
}

func (d *decoder) tests(t *Table) {
	n := d.count("tests", 3)
	t.tests = make([]Test, n)
	for i := range t.tests {
		d.what, d.index = "test", i
		t.tests[i].Message = d.flag("the kind")
		t.tests[i].Name = d.str()
		t.tests[i].Value = d.str()
		if d.err != nil {
			return
		}
	}
}

func (d *decoder) states(t *Table) {
	n := d.count("states", 1+1+2+2)
	t.initial = StateID(d.u16())
	t.states = make([]state, n)
	for i := range t.states {
		d.what, d.index = "state", i
		s := &t.states[i]
		s.name = d.str()
		s.tests = make([]TestID, d.count("transitions", 2))
		for j := range s.tests {
			s.tests[j] = TestID(d.u16())
		}
		s.actions = make([]Action, d.count("entry actions", 4))
		for j := range s.actions {
			s.actions[j] = Action{Property: PropertyID(d.u16()), Value: ValueID(d.u16())}
		}
		if d.err != nil {
			return
		}
	}
}

func (d *decoder) anys(t *Table) {
	t.any = make([]Transition, d.count("any-state transitions", 5))
	for i := range t.any {
		d.what, d.index = "any-state transition", i
		t.any[i] = Transition{From: AnyState, Test: TestID(d.u16()), To: StateID(d.u16())}
		t.any[i].Push = d.flag("push")
		if d.err != nil {
			return
		}
	}
}

func (d *decoder) dests(t *Table) {
	d.what, d.index = "dimensions", -1
	nt, ns := d.u16(), d.u16()
	if d.err != nil {
		return
	}
	if nt != len(t.tests) || ns != len(t.states) {
		d.off -= 4
		d.fail(ErrCorrupt, "%d tests × %d states; the TEST and STAT sections have %d tests and %d states", nt, ns, len(t.tests), len(t.states))
		return
	}
	cells := nt * ns
	if cells > MaxCells {
		d.fail(ErrCorrupt, "%d cells; at most %d", cells, MaxCells)
		return
	}
	d.what, d.index = "cells", -1
	if !d.need(cells*2 + (cells+7)/8) {
		return
	}
	t.dest = make([]StateID, cells)
	for i := range t.dest {
		t.dest[i] = StateID(binary.LittleEndian.Uint16(d.data[d.off:]))
		d.off += 2
	}
	n := (cells + 7) / 8
	t.push = append([]byte(nil), d.data[d.off:d.off+n]...)
	if t.push == nil {
		t.push = []byte{}
	}
	d.off += n
}
