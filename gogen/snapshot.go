package gogen

import (
	"fmt"
	"strings"
)

// This file writes a flat table's Snapshot: the type, Machine.Snapshot,
// RestoreMachine, and the binary form of table.Snapshot (format 1), which
// a statechart's file shares (see chartsnap.go).

// snapshot writes a flat table's Snapshot type, Machine.Snapshot,
// RestoreMachine and the binary form.
func (p *printer) snapshot() {
	m := p.m
	mt, sn, st := m.id("Machine"), m.id("Snapshot"), m.id("State")
	p.c("%s is a machine's state as plain data, to save a game or show in a viewer, and to restore with %s. It holds what table.Snapshot holds for an agent of the same table, in the file's types, and its binary form (AppendBinary) is table.Snapshot's byte for byte: a save made by either runtime restores into the other.", sn, m.restoreMachine())
	p.f("type %s struct {\n", sn)
	p.ci("State is the current state; for a machine that is done, its last state; for a zero machine, %s.", m.id("NoState"))
	p.f("State %s\n", st)
	p.ci("Done is true once the machine went to the final state.")
	p.f("Done bool\n")
	if m.stack {
		p.ci("Stack holds the states pushed and not yet returned to, bottom first.")
		p.f("Stack []%s\n", st)
	}
	if len(m.msgs) > 0 {
		p.ci("Posted holds the messages posted and not yet seen by an update, ascending; usually empty between updates.")
		p.f("Posted []%s\n", m.id("Message"))
	}
	p.f("}\n\n")
	reuse := ""
	if m.stack || len(m.msgs) > 0 {
		reuse = ", reusing the capacity of its slices, so that taking snapshots into the same value allocates nothing once it has grown"
	}
	p.c("Snapshot fills s with the machine's state%s. A zero machine gives State %s.", reuse, m.id("NoState"))
	p.f("func (m *%s) Snapshot(s *%s) {\n", mt, sn)
	p.f("s.State, s.Done = m.State(), m.Done()\n")
	if m.stack {
		p.f("s.Stack = append(s.Stack[:0], m.stack[:m.depth]...)\n")
	}
	if len(m.msgs) > 0 {
		p.f("s.Posted = s.Posted[:0]\n")
		p.f("for msg := range %s(%s) {\n", m.id("Message"), m.id("NumMessages"))
		p.f("if m.flags&(1<<msg) != 0 {\ns.Posted = append(s.Posted, msg)\n}\n}\n")
	}
	p.f("}\n\n")
	p.restore()
	p.stateWire()
	p.flatAppendBinary()
	p.flatUnmarshalBinary()
	p.snapshotReader(false)
}

// restore writes a flat table's RestoreMachine.
func (p *printer) restore() {
	m := p.m
	mt, sn := m.id("Machine"), m.id("Snapshot")
	// fail returns an error whose message alternates text and Go
	// expressions: text, expr, text...
	pre := m.ctx() + m.restoreMachine() + ": "
	fail := func(parts ...string) {
		parts[0] = pre + parts[0]
		for i := 0; i < len(parts); i += 2 {
			parts[i] = lit(parts[i])
		}
		p.f("return %s{}, errors.New(%s)\n", mt, strings.Join(parts, " + "))
	}
	var bad []string
	if m.stack {
		bad = append(bad, "a stack deeper than "+m.id("StackLimit")+" or holding such a state")
	}
	if len(m.msgs) > 0 {
		bad = append(bad, "a message that is not one of the table's")
	}
	badText := ""
	if len(bad) > 0 {
		badText = ", or " + strings.Join(bad, ", or ")
	}
	p.c("%s returns a machine in the state s describes, performing no action: for loading a saved game (the game restores its entity's own state). It checks all of s first and returns an error, and a zero machine, if s is nil or names a state that is not one of the table's%s. It allocates nothing unless it returns an error.", m.restoreMachine(), badText)
	p.f("func %s(s *%s) (%s, error) {\n", m.restoreMachine(), sn, mt)
	p.f("if s == nil {\n")
	fail("no snapshot (nil)")
	p.f("}\n")
	p.f("if s.State >= %s {\n", m.id("NumStates"))
	fail("state ", "s.State.String()", fmt.Sprintf(" is not a state of the table (it has %d)", len(m.states)))
	p.f("}\n")
	if m.stack {
		p.f("if len(s.Stack) > %s {\n", m.id("StackLimit"))
		fail("a stack of ", "strconv.Itoa(len(s.Stack))", fmt.Sprintf(" states; the stack limit is %d", m.stackLimit))
		p.f("}\n")
	}
	p.f("m := %s{state: s.State, status: %s}\n", mt, m.status("Ready"))
	p.f("if s.Done {\nm.status |= %s\n}\n", m.status("Done"))
	if m.stack {
		p.f("for i, q := range s.Stack {\nif q >= %s {\n", m.id("NumStates"))
		fail("stack entry ", "strconv.Itoa(i)", ": ", "q.String()", fmt.Sprintf(" is not a state of the table (it has %d)", len(m.states)))
		p.f("}\nm.stack[i] = q\n}\nm.depth = uint8(len(s.Stack))\n")
	}
	if len(m.msgs) > 0 {
		p.f("for _, msg := range s.Posted {\nif msg >= %s {\n", m.id("NumMessages"))
		fail("posted ", "msg.String()", " is not a message of the table")
		p.f("}\nm.flags |= 1 << msg\n}\n")
	}
	p.f("return m, nil\n}\n\n")
}

// stateWire writes State.wire, the binary form's number of a state.
func (p *printer) stateWire() {
	m := p.m
	p.c("wire returns s as the binary form writes it: as table's StateID read as an int16, so that the markers are negative (%s is -1, %s -4).", m.id("Final"), m.id("NoState"))
	p.f("func (s %s) wire() int64 {\nswitch s {\n", m.id("State"))
	p.f("case %s:\nreturn -1\n", m.id("Final"))
	if m.hasReturn() {
		p.f("case %s:\nreturn -2\n", m.id("Return"))
	}
	if m.hasAnyState() {
		p.f("case %s:\nreturn -3\n", m.id("AnyState"))
	}
	p.f("case %s:\nreturn -4\n", m.id("NoState"))
	p.f("}\nreturn int64(s)\n}\n\n")
}

// flatAppendBinary writes a flat table's Snapshot.AppendBinary.
func (p *printer) flatAppendBinary() {
	m := p.m
	sn := m.id("Snapshot")
	fails := "It never fails"
	if len(m.msgs) > 0 {
		fails = fmt.Sprintf("It returns an error, and b unchanged, if Posted is not strictly ascending or holds a value that is not one of the %s constants (as table's does). A snapshot taken by Snapshot is always written", m.id("Message"))
	}
	p.c("AppendBinary appends the snapshot's binary form to b and returns it: the bytes table.Snapshot's AppendBinary writes for an agent of the same table in the same state (format 1: a flags byte, the state, the stack and the posted messages as the table's test IDs), so that a save made by either runtime restores into the other. %s. It allocates only to grow b.", fails)
	p.f("func (s *%s) AppendBinary(b []byte) ([]byte, error) {\n", sn)
	if len(m.msgs) > 0 {
		p.f("for i, msg := range s.Posted {\nswitch {\n")
		p.f("case msg >= %s:\nreturn b, errors.New(%s + msg.String() + %s)\n", m.id("NumMessages"), lit(m.ctx()+sn+".AppendBinary: posted "), lit(" is not a message of the table"))
		p.f("case i > 0 && msg <= s.Posted[i-1]:\nreturn b, errors.New(%s)\n}\n}\n", lit(m.ctx()+sn+".AppendBinary: Posted is not strictly ascending"))
	}
	p.f("var flags byte\nif s.Done {\nflags = 1\n}\n")
	p.f("b = append(b, flags)\n")
	p.f("b = binary.AppendVarint(b, s.State.wire())\n")
	if m.stack {
		p.f("b = binary.AppendUvarint(b, uint64(len(s.Stack)))\n")
		p.f("for _, q := range s.Stack {\nb = binary.AppendVarint(b, q.wire())\n}\n")
	} else {
		p.f("b = append(b, 0) // no stack\n")
	}
	if len(m.msgs) > 0 {
		p.f("b = binary.AppendUvarint(b, uint64(len(s.Posted)))\n")
		p.f("for _, msg := range s.Posted {\nb = binary.AppendUvarint(b, uint64(msg.Test()))\n}\n")
	} else {
		p.f("b = append(b, 0) // no posted messages\n")
	}
	p.f("return b, nil\n}\n\n")
}

// flatUnmarshalBinary writes a flat table's Snapshot.UnmarshalBinary and
// its read.
func (p *printer) flatUnmarshalBinary() {
	m := p.m
	sn, rd := m.id("Snapshot"), m.readerName()
	var fields []string
	if m.stack {
		fields = append(fields, "Stack")
	}
	if len(m.msgs) > 0 {
		fields = append(fields, "Posted")
	}
	reuse := ""
	if len(fields) > 0 {
		reuse = fmt.Sprintf(", reusing the capacity of s.%s", strings.Join(fields, " and s."))
	}
	var lacks []string
	if !m.stack {
		lacks = append(lacks, "a stack")
	}
	if len(m.msgs) == 0 {
		lacks = append(lacks, "posted messages")
	}
	lackText := ""
	if len(lacks) > 0 {
		lackText = ", " + strings.Join(lacks, " or ") + " (which this table has not)"
	}
	p.c("UnmarshalBinary sets s from the binary form AppendBinary writes, or table.Snapshot's for an agent of the same table%s. It returns an error, and leaves s unchanged, for bytes that are not such a form: truncated, with bytes left over, a statechart's snapshot%s, or an ID that is not one of the table's (a state, a message). %s checks the rest.", reuse, lackText, m.restoreMachine())
	p.f("func (s *%s) UnmarshalBinary(b []byte) error {\n", sn)
	p.f("if msg := s.read(b, false); msg != \"\" {\n")
	p.f("return errors.New(%s + msg)\n}\n", lit(m.ctx()+sn+".UnmarshalBinary: "))
	p.f("s.read(b, true)\nreturn nil\n}\n\n")

	p.c("read reads the binary form b, into s when fill is set; it returns what is wrong with b, or \"\". UnmarshalBinary reads b twice, so that s is changed only when b is right.")
	p.f("func (s *%s) read(b []byte, fill bool) string {\n", sn)
	p.f("r := %s{b: b}\n", rd)
	p.f("flags := r.flags()\n")
	p.f("switch {\ncase flags&2 != 0:\nr.fail(\"a statechart's snapshot; this table is flat\")\n")
	p.f("case flags&^1 != 0:\nr.fail(\"unknown flags \" + strconv.Itoa(int(flags)))\n}\n")
	p.f("state := r.state(\"state\")\n")
	p.f("n := r.count(1, \"stack entries\")\n")
	if m.stack {
		p.f("if fill {\ns.Stack = s.Stack[:0]\n}\n")
		p.f("for range n {\nq := r.state(\"stack entry\")\n")
		p.f("if fill {\ns.Stack = append(s.Stack, q)\n}\n}\n")
	} else {
		p.f("if n > 0 {\nr.fail(\"a stack; this table has none\")\n}\n")
	}
	p.f("n = r.count(1, \"posted messages\")\n")
	if len(m.msgs) > 0 {
		p.f("if fill {\ns.Posted = s.Posted[:0]\n}\n")
		p.f("prev := -1\n")
		p.f("for range n {\nv := r.id(\"posted message\", %s, \"tests\")\n", m.id("NumTests"))
		p.f("msg, ok := %s(v).Message()\n", m.id("Test"))
		p.f("switch {\ncase r.err != \"\":\ncase !ok:\nr.fail(\"posted \" + strconv.Quote(%s(v).String()) + \" is not a message\")\n", m.id("Test"))
		p.f("case v <= prev:\nr.fail(\"posted message \" + strconv.Itoa(v) + \" after \" + strconv.Itoa(prev) + \": not ascending\")\n}\nprev = v\n")
		p.f("if fill {\ns.Posted = append(s.Posted, msg)\n}\n}\n")
	} else {
		p.f("if n > 0 {\nr.fail(\"posted messages; this table has none\")\n}\n")
	}
	p.f("r.finish()\n")
	p.f("if fill {\ns.State, s.Done = state, flags&1 != 0\n}\n")
	p.f("return r.err\n}\n\n")
}

// snapshotReader writes the reader of the binary form; chart adds what a
// statechart's form needs besides.
func (p *printer) snapshotReader(chart bool) {
	p.b.WriteString(p.m.snapNames().Replace(snapshotReaderSrc))
	p.readerState()
	if chart {
		p.b.WriteString(p.m.snapNames().Replace(chartReaderSrc))
	}
}

// readerState writes the reader's state method: a state, or one of the
// markers the file declares as table writes it.
func (p *printer) readerState() {
	m := p.m
	p.c("state reads a state as a signed varint: one of the table's, or a marker as table's StateID read as an int16 (the binary form allows one anywhere; %s checks where).", m.restoreMachine())
	p.f("func (r *%s) state(what string) %s {\n", m.readerName(), m.id("State"))
	p.f("if r.err != \"\" {\nreturn 0\n}\n")
	p.f("v, n := binary.Varint(r.b[r.off:])\n")
	p.f("if n <= 0 {\nr.fail(\"truncated or overlong number\")\nreturn 0\n}\n")
	p.f("r.off += n\nswitch {\n")
	p.f("case v == -1:\nreturn %s\n", m.id("Final"))
	if m.hasReturn() {
		p.f("case v == -2:\nreturn %s\n", m.id("Return"))
	}
	if m.hasAnyState() {
		p.f("case v == -3:\nreturn %s\n", m.id("AnyState"))
	}
	p.f("case v == -4:\nreturn %s\n", m.id("NoState"))
	p.f("case v < 0 || v >= %s:\n", m.id("NumStates"))
	p.f("r.fail(what + \" \" + strconv.FormatInt(v, 10) + \" is neither a state of the table nor a marker it has\")\nreturn 0\n}\n")
	p.f("return %s(v)\n}\n\n", m.id("State"))
}

// snapNames replaces the names of the snapshot templates.
func (m *model) snapNames() *strings.Replacer {
	return strings.NewReplacer("«reader»", m.readerName(), "«State»", m.id("State"), "«NoState»", m.id("NoState"),
		"«Timer»", m.id("Timer"), "«NoTimer»", m.id("NoTimer"), "«NumTimers»", m.id("NumTimers"))
}

// snapshotReaderSrc is the reader of the binary form in every file.
const snapshotReaderSrc = `// «reader» reads the binary form of a snapshot. The first problem
// sticks: every later read returns zero.
type «reader» struct {
	b   []byte
	off int
	err string
}

// fail records a problem at the current offset, unless one is recorded.
func (r *«reader») fail(msg string) {
	if r.err == "" {
		r.err = "byte " + strconv.Itoa(r.off) + ": " + msg
	}
}

// finish records a problem if bytes are left over.
func (r *«reader») finish() {
	if left := len(r.b) - r.off; left > 0 {
		r.fail(strconv.Itoa(left) + " bytes left over")
	}
}

// flags reads the flags byte.
func (r *«reader») flags() byte {
	if r.err != "" {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail("truncated")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// num reads an unsigned varint.
func (r *«reader») num() uint64 {
	if r.err != "" {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("truncated or overlong number")
		return 0
	}
	r.off += n
	return v
}

// count reads a count of items of at least min bytes each: it must fit in
// the bytes left, so that a corrupt count never makes the reader allocate
// beyond the input's size.
func (r *«reader») count(min int, what string) int {
	v := r.num()
	if left := len(r.b) - r.off; r.err == "" && v > uint64(left/min) {
		r.fail(strconv.FormatUint(v, 10) + " " + what + ", more than the " + strconv.Itoa(left) + " bytes left can hold")
		return 0
	}
	return int(v)
}

// id reads an unsigned ID, which must be below hi: the table has hi of.
func (r *«reader») id(what string, hi int, of string) int {
	v := r.num()
	if r.err == "" && v >= uint64(hi) {
		r.fail(what + " " + strconv.FormatUint(v, 10) + ": the table has " + strconv.Itoa(hi) + " " + of)
		return 0
	}
	return int(v)
}

`

// chartReaderSrc is what a statechart's reader needs besides.
const chartReaderSrc = `// float reads a float64: its IEEE 754 bits, 8 bytes little endian.
func (r *«reader») float() float64 {
	if r.err != "" {
		return 0
	}
	if len(r.b)-r.off < 8 {
		r.fail("truncated")
		return 0
	}
	r.off += 8
	return math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.off-8:]))
}

// timer reads a timer: one of the table's, or «NoTimer».
func (r *«reader») timer() «Timer» {
	v := r.num()
	if r.err == "" && v >= «NumTimers» && v != uint64(«NoTimer») {
		r.fail("timer " + strconv.FormatUint(v, 10) + ": the table has " + strconv.Itoa(«NumTimers») + " timers")
		return 0
	}
	return «Timer»(v)
}

`
