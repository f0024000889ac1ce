package message

import (
	"iter"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// entity and kind stand for a game's entity ID and message-type enum.
type entity int32

func (e entity) String() string { return "e" + strconv.Itoa(int(e)) }

type kind uint8

const (
	hello kind = iota
	attack
	flee
	numKinds
)

func (k kind) String() string {
	switch k {
	case hello:
		return "hello"
	case attack:
		return "attack"
	case flee:
		return "flee"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

type msg = Message[entity, kind]

// oracle is the article's linear scan, the reference the indexes must agree
// with.
func oracle(all []msg, match func(msg) bool) []msg {
	var out []msg
	for _, m := range all {
		if match(m) {
			out = append(out, m)
		}
	}
	return out
}

func TestBoardVisibleOnlyAfterSwap(t *testing.T) {
	var b Board[entity, kind]
	m := msg{Type: hello, From: 1, To: 2}
	b.Send(m)
	if got := b.Last().Len(); got != 0 {
		t.Fatalf("Last().Len() after Send = %d, want 0", got)
	}
	if got := slices.Collect(b.Last().To(2)); len(got) != 0 {
		t.Fatalf("Last().To(2) before Swap = %v, want none", got)
	}
	if got := b.Current().Len(); got != 1 {
		t.Fatalf("Current().Len() after Send = %d, want 1", got)
	}
	b.Swap()
	if got := slices.Collect(b.Last().To(2)); !slices.Equal(got, []msg{m}) {
		t.Fatalf("Last().To(2) after Swap = %v, want %v", got, []msg{m})
	}
	if got := b.Current().Len(); got != 0 {
		t.Fatalf("Current().Len() after Swap = %d, want 0", got)
	}
	b.Send(msg{Type: attack, From: 3, To: 2})
	if got := slices.Collect(b.Last().To(2)); !slices.Equal(got, []msg{m}) {
		t.Fatalf("Last().To(2) after a Send in the next frame = %v, want %v", got, []msg{m})
	}
	b.Swap()
	b.Swap()
	if got := b.Last().Len(); got != 0 {
		t.Fatalf("Last().Len() after two empty Swaps = %d, want 0", got)
	}
}

func TestZeroBoardAndFrame(t *testing.T) {
	var b Board[entity, kind]
	b.Swap()
	var f Frame[entity, kind]
	for _, fr := range []*Frame[entity, kind]{b.Last(), b.Current(), &f} {
		if got := slices.Collect(fr.To(1)); len(got) != 0 {
			t.Errorf("To(1) on an empty frame = %v, want none", got)
		}
		if got := slices.Collect(fr.OfTypeFrom(hello, 1)); len(got) != 0 {
			t.Errorf("OfTypeFrom(hello, 1) on an empty frame = %v, want none", got)
		}
		if got := fr.Len(); got != 0 {
			t.Errorf("Len() on an empty frame = %d, want 0", got)
		}
	}
}

// sample is a frame with broadcasts, repeated keys and interleaved sends.
var sample = []msg{
	{Type: hello, From: 1, To: 2, Payload: "a"},
	{Type: attack, From: 2, To: 1, Payload: "b"},
	{Type: hello, From: 3, Broadcast: true, To: 2, Payload: "c"}, // To ignored
	{Type: attack, From: 1, To: 2, Payload: "d"},
	{Type: flee, From: 2, To: 3, Payload: "e"},
	{Type: hello, From: 1, To: 2, Payload: "f"},
	{Type: attack, From: 3, To: 2, Payload: "g"},
	{Type: flee, From: 1, Broadcast: true, Payload: "h"},
}

func queryCases() []struct {
	name  string
	query func(*Frame[entity, kind]) iter.Seq[msg]
	match func(msg) bool
} {
	to := func(id entity) func(msg) bool { return func(m msg) bool { return !m.Broadcast && m.To == id } }
	return []struct {
		name  string
		query func(*Frame[entity, kind]) iter.Seq[msg]
		match func(msg) bool
	}{
		{"To(2)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.To(2) }, to(2)},
		{"To(1)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.To(1) }, to(1)},
		{"To(9)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.To(9) }, to(9)},
		{"From(1)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.From(1) }, func(m msg) bool { return m.From == 1 }},
		{"From(3)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.From(3) }, func(m msg) bool { return m.From == 3 }},
		{"OfType(hello)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfType(hello) }, func(m msg) bool { return m.Type == hello }},
		{"OfType(flee)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfType(flee) }, func(m msg) bool { return m.Type == flee }},
		{"OfType(numKinds)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfType(numKinds) }, func(m msg) bool { return m.Type == numKinds }},
		{"OfTypeTo(hello, 2)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfTypeTo(hello, 2) }, func(m msg) bool { return m.Type == hello && to(2)(m) }},
		{"OfTypeTo(attack, 2)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfTypeTo(attack, 2) }, func(m msg) bool { return m.Type == attack && to(2)(m) }},
		{"OfTypeTo(flee, 1)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfTypeTo(flee, 1) }, func(m msg) bool { return m.Type == flee && to(1)(m) }},
		{"OfTypeFrom(hello, 1)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfTypeFrom(hello, 1) }, func(m msg) bool { return m.Type == hello && m.From == 1 }},
		{"OfTypeFrom(flee, 1)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfTypeFrom(flee, 1) }, func(m msg) bool { return m.Type == flee && m.From == 1 }},
		{"OfTypeFrom(hello, 3)", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.OfTypeFrom(hello, 3) }, func(m msg) bool { return m.Type == hello && m.From == 3 }},
		{"Where(broadcast)", func(f *Frame[entity, kind]) iter.Seq[msg] {
			return f.Where(func(m msg) bool { return m.Broadcast })
		}, func(m msg) bool { return m.Broadcast }},
		{"All()", func(f *Frame[entity, kind]) iter.Seq[msg] { return f.All() }, func(msg) bool { return true }},
	}
}

func TestFrameQueries(t *testing.T) {
	var b Board[entity, kind]
	for _, m := range sample {
		b.Send(m)
	}
	// Before Swap, the queries answer on Current (the future frame).
	for _, c := range queryCases() {
		t.Run("Current/"+c.name, func(t *testing.T) {
			want := oracle(sample, c.match)
			if got := slices.Collect(c.query(b.Current())); !slices.Equal(got, want) {
				t.Errorf("Current().%s = %v, want %v", c.name, got, want)
			}
			if got := slices.Collect(c.query(b.Last())); len(got) != 0 {
				t.Errorf("Last().%s before Swap = %v, want none", c.name, got)
			}
		})
	}
	b.Swap()
	for _, c := range queryCases() {
		t.Run("Last/"+c.name, func(t *testing.T) {
			want := oracle(sample, c.match)
			if got := slices.Collect(c.query(b.Last())); !slices.Equal(got, want) {
				t.Errorf("Last().%s = %v, want %v", c.name, got, want)
			}
			if got := slices.Collect(c.query(b.Current())); len(got) != 0 {
				t.Errorf("Current().%s after Swap = %v, want none", c.name, got)
			}
		})
	}
}

func TestBroadcastsNotInTo(t *testing.T) {
	var b Board[entity, kind]
	b.Send(msg{Type: hello, From: 1, To: 7, Broadcast: true})
	b.Send(msg{Type: hello, From: 1, To: 7})
	b.Swap()
	want := []msg{{Type: hello, From: 1, To: 7}}
	if got := slices.Collect(b.Last().To(7)); !slices.Equal(got, want) {
		t.Errorf("To(7) = %v, want %v", got, want)
	}
	if got := slices.Collect(b.Last().OfTypeTo(hello, 7)); !slices.Equal(got, want) {
		t.Errorf("OfTypeTo(hello, 7) = %v, want %v", got, want)
	}
	if got := len(slices.Collect(b.Last().From(1))); got != 2 {
		t.Errorf("len(From(1)) = %d, want 2", got)
	}
}

func TestQueryEarlyStop(t *testing.T) {
	var b Board[entity, kind]
	for _, m := range sample {
		b.Send(m)
	}
	b.Swap()
	for _, c := range queryCases() {
		t.Run(c.name, func(t *testing.T) {
			want := oracle(sample, c.match)
			if len(want) > 1 {
				want = want[:1]
			}
			var got []msg
			for m := range c.query(b.Last()) {
				got = append(got, m)
				break
			}
			if !slices.Equal(got, want) {
				t.Errorf("first of %s = %v, want %v", c.name, got, want)
			}
		})
	}
}

// randomFrame sends n random messages among entities and returns them.
func randomFrame(r *rand.Rand, b *Board[entity, kind], n, entities int) []msg {
	sent := make([]msg, n)
	for i := range sent {
		m := msg{
			Type:      kind(r.IntN(int(numKinds))),
			From:      entity(r.IntN(entities)),
			To:        entity(r.IntN(entities)),
			Broadcast: r.IntN(10) == 0,
		}
		sent[i] = m
		b.Send(m)
	}
	return sent
}

// TestManyKeysAndReuse checks every query against the linear scan, for every
// key, over many frames with changing key sets: nothing from an old frame
// leaks into a new one.
func TestManyKeysAndReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b Board[entity, kind]
	var next []msg
	for frame := range 30 {
		entities := 5 + r.IntN(200)
		n := r.IntN(2000)
		sent := next
		b.Swap()
		next = randomFrame(r, &b, n, entities)
		last := b.Last()
		if got := last.Len(); got != len(sent) {
			t.Fatalf("frame %d: Len() = %d, want %d", frame, got, len(sent))
		}
		if got := slices.Collect(last.All()); !slices.Equal(got, sent) {
			t.Fatalf("frame %d: All() differs from what was sent", frame)
		}
		for id := entity(-1); id < 210; id++ {
			if got, want := slices.Collect(last.To(id)), oracle(sent, func(m msg) bool { return !m.Broadcast && m.To == id }); !slices.Equal(got, want) {
				t.Fatalf("frame %d: To(%v) = %v, want %v", frame, id, got, want)
			}
			if got, want := slices.Collect(last.From(id)), oracle(sent, func(m msg) bool { return m.From == id }); !slices.Equal(got, want) {
				t.Fatalf("frame %d: From(%v) = %v, want %v", frame, id, got, want)
			}
			for k := range numKinds + 1 {
				if got, want := slices.Collect(last.OfTypeTo(k, id)), oracle(sent, func(m msg) bool { return m.Type == k && !m.Broadcast && m.To == id }); !slices.Equal(got, want) {
					t.Fatalf("frame %d: OfTypeTo(%v, %v) = %v, want %v", frame, k, id, got, want)
				}
				if got, want := slices.Collect(last.OfTypeFrom(k, id)), oracle(sent, func(m msg) bool { return m.Type == k && m.From == id }); !slices.Equal(got, want) {
					t.Fatalf("frame %d: OfTypeFrom(%v, %v) = %v, want %v", frame, k, id, got, want)
				}
			}
		}
		for k := range numKinds + 1 {
			if got, want := slices.Collect(last.OfType(k)), oracle(sent, func(m msg) bool { return m.Type == k }); !slices.Equal(got, want) {
				t.Fatalf("frame %d: OfType(%v) = %v, want %v", frame, k, got, want)
			}
		}
		checkIndex(t, last, sent)
	}
}

// checkIndex checks the structure that makes queries O(matches): each index
// holds exactly the keys of its frame, and each key's chain holds exactly its
// matches, so walking it visits nothing else.
func checkIndex(t *testing.T, f *Frame[entity, kind], sent []msg) {
	t.Helper()
	count := func(match func(msg) bool) int32 { return int32(len(oracle(sent, match))) }
	to, from, typ := map[entity]bool{}, map[entity]bool{}, map[kind]bool{}
	for _, m := range sent {
		if !m.Broadcast {
			to[m.To] = true
		}
		from[m.From] = true
		typ[m.Type] = true
	}
	if len(f.to.pos) != len(to) || len(f.to.chains) != len(to) {
		t.Fatalf("destination index has %d keys and %d chains, want %d", len(f.to.pos), len(f.to.chains), len(to))
	}
	if len(f.from.pos) != len(from) || len(f.typ.pos) != len(typ) {
		t.Fatalf("sender/type indexes have %d/%d keys, want %d/%d", len(f.from.pos), len(f.typ.pos), len(from), len(typ))
	}
	for id := range to {
		_, n := f.to.lookup(id)
		if want := count(func(m msg) bool { return !m.Broadcast && m.To == id }); n != want {
			t.Fatalf("destination chain of %v has %d messages, want %d", id, n, want)
		}
		visited := int32(0)
		for i, _ := f.to.lookup(id); i >= 0; i = f.to.next[i] {
			visited++
		}
		if visited != n {
			t.Fatalf("walking the destination chain of %v visits %d messages, want %d", id, visited, n)
		}
	}
	for id := range from {
		_, n := f.from.lookup(id)
		if want := count(func(m msg) bool { return m.From == id }); n != want {
			t.Fatalf("sender chain of %v has %d messages, want %d", id, n, want)
		}
	}
	for k := range typ {
		_, n := f.typ.lookup(k)
		if want := count(func(m msg) bool { return m.Type == k }); n != want {
			t.Fatalf("type chain of %v has %d messages, want %d", k, n, want)
		}
	}
}

func TestQueryUnknownKeyLeavesBoardUnchanged(t *testing.T) {
	var b Board[entity, kind]
	for _, m := range sample {
		b.Send(m)
	}
	b.Swap()
	f := b.Last()
	keys := func() [3]int { return [3]int{len(f.to.pos), len(f.from.pos), len(f.typ.pos)} }
	before, beforeLen := keys(), f.Len()
	queries := []struct {
		name string
		seq  iter.Seq[msg]
	}{
		{"To(99)", f.To(99)},
		{"From(99)", f.From(99)},
		{"OfType(numKinds)", f.OfType(numKinds)},
		{"OfTypeTo(hello, 99)", f.OfTypeTo(hello, 99)},
		{"OfTypeFrom(numKinds, 1)", f.OfTypeFrom(numKinds, 1)},
	}
	for _, q := range queries {
		t.Run(q.name, func(t *testing.T) {
			if got := slices.Collect(q.seq); len(got) != 0 {
				t.Errorf("%s = %v, want none", q.name, got)
			}
			if got := keys(); got != before {
				t.Errorf("index sizes after %s = %v, want %v", q.name, got, before)
			}
			if got := f.Len(); got != beforeLen {
				t.Errorf("Len() after %s = %d, want %d", q.name, got, beforeLen)
			}
			if _, ok := f.to.pos[99]; ok {
				t.Errorf("%s added key 99 to the destination index", q.name)
			}
		})
	}
	if got := slices.Collect(f.All()); !slices.Equal(got, sample) {
		t.Errorf("All() after the queries = %v, want %v", got, sample)
	}
}

func TestSwapDuringRangeStops(t *testing.T) {
	for _, c := range queryCases() {
		if len(oracle(sample, c.match)) == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var b Board[entity, kind]
			for _, m := range sample {
				b.Send(m)
			}
			b.Swap()
			n := 0
			for range c.query(b.Last()) {
				n++
				b.Swap()
				for _, m := range sample {
					b.Send(m) // refill the cleared frame
				}
			}
			if n != 1 {
				t.Errorf("%s yielded %d messages across a Swap, want 1", c.name, n)
			}
		})
	}
}

func TestSendDuringRangeOfCurrent(t *testing.T) {
	var b Board[entity, kind]
	b.Send(msg{Type: hello, From: 1, To: 2})
	var got []entity
	for m := range b.Current().To(2) {
		got = append(got, m.From)
		if m.From < 3 {
			b.Send(msg{Type: hello, From: m.From + 1, To: 2})
		}
	}
	if want := []entity{1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("senders seen while sending = %v, want %v", got, want)
	}
}

func TestWhereNilPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Where(nil) did not panic")
		}
	}()
	var f Frame[entity, kind]
	f.Where(nil)
}

// TestBoardNoAllocs checks that, once warm, a whole frame (sends with changing
// keys, swap, every kind of query, ranged and appended) allocates nothing.
func TestBoardNoAllocs(t *testing.T) {
	const entities, n = 300, 3000
	r := rand.New(rand.NewPCG(3, 4))
	frames := make([][]msg, 8)
	for i := range frames {
		frames[i] = make([]msg, n)
		for j := range frames[i] {
			frames[i][j] = msg{
				Type:      kind(r.IntN(int(numKinds))),
				From:      entity(r.IntN(entities) + i*entities/2), // key sets drift
				To:        entity(r.IntN(entities) + i*entities/2),
				Broadcast: j%10 == 0,
			}
		}
	}
	var b Board[entity, kind]
	var buf []msg
	sum := 0
	frame := 0
	run := func() {
		for _, m := range frames[frame%len(frames)] {
			b.Send(m)
		}
		frame++
		b.Swap()
		last := b.Last()
		for id := range entity(entities * 5) {
			for m := range last.To(id) {
				sum += int(m.From)
			}
			buf = slices.AppendSeq(buf[:0], last.From(id))
			sum += len(buf)
			for m := range last.OfTypeTo(attack, id) {
				sum += int(m.Type)
			}
			for m := range last.OfTypeFrom(hello, id) {
				sum += int(m.Type)
			}
		}
		for m := range last.OfType(flee) {
			sum += int(m.To)
		}
		for m := range last.Where(func(m msg) bool { return m.Broadcast }) {
			sum += int(m.To)
		}
		for m := range b.Current().All() {
			sum += int(m.To)
		}
	}
	for range 50 {
		run()
	}
	if allocs := testing.AllocsPerRun(50, run); allocs != 0 {
		t.Errorf("AllocsPerRun(frame) = %v, want 0", allocs)
	}
	_ = sum
}

// TestConcurrentQueries backs the doc's promise that queries only read (run
// with -race).
func TestConcurrentQueries(t *testing.T) {
	var b Board[entity, kind]
	r := rand.New(rand.NewPCG(5, 6))
	sent := randomFrame(r, &b, 5000, 100)
	b.Swap()
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for w := range counts {
		wg.Go(func() {
			for id := range entity(100) {
				for range b.Last().To(id) {
					counts[w]++
				}
			}
		})
	}
	wg.Wait()
	want := len(oracle(sent, func(m msg) bool { return !m.Broadcast }))
	for w, got := range counts {
		if got != want {
			t.Errorf("worker %d counted %d messages, want %d", w, got, want)
		}
	}
}
