package message

import (
	"hash/maphash"
	"math/bits"
	"reflect"
	"slices"
)

// The duplicate window's index: for each (sender, receiver, message) with
// pending telegrams, their dispatch times in increasing order.
//
// It is a hash table of its own rather than a Go map so that Restore can
// rebuild it in bulk: a Go map takes a million keys one random place at a
// time (a cache miss each, some 300 ns a key), where sorting the keys by
// hash first, with a radix sort, lets the table be filled from its first
// slot to its last (see BenchmarkDispatcherSnapshot and
// BenchmarkDispatcherSave). The table is open
// addressing with linear probing, a key's home slot the top bits of its
// hash, so keys in hash order land in increasing slots.

// dupKey is what makes two telegrams identical for the duplicate window.
type dupKey[ID, K comparable] struct {
	sender, receiver ID
	msg              K
}

// dupSet is the index. The zero value is empty.
type dupSet[ID, K comparable] struct {
	seed  maphash.Seed
	slots []dupSlot // len a power of two, at least twice the keys held; nil when never used
	shift uint      // a hash's home slot is hash >> shift
	keys  int       // keys held
	lists []dupTimes[ID, K]
	free  []int32 // lists not in use, their buffers kept for reuse
	bulk  []float64
}

// dupSlot is a slot of the table: a key's hash and its list.
type dupSlot struct {
	hash uint32
	list int32 // index in lists plus one; 0 for an empty slot
}

// dupTimes is a key's sorted list of times: times[head:].
type dupTimes[ID, K comparable] struct {
	key   dupKey[ID, K]
	times []float64
	head  int
}

const minDupSlots = 16

// dupHashMask is and-ed with every hash: tests make keys collide by
// clearing bits.
var dupHashMask uint32 = 1<<32 - 1

// hash returns k's hash, the top 32 bits of a seeded maphash.
func (s *dupSet[ID, K]) hash(k dupKey[ID, K]) uint32 {
	return uint32(maphash.Comparable(s.seed, k)>>32) & dupHashMask
}

// ensureSeed makes the hash key (a maphash.Seed), once.
func (s *dupSet[ID, K]) ensureSeed() {
	if s.seed == (maphash.Seed{}) {
		s.seed = maphash.MakeSeed()
	}
}

// init makes the table ready for n keys, empty. It keeps the slots when
// they are enough and not too many (clearing them).
func (s *dupSet[ID, K]) init(n int) {
	s.ensureSeed()
	size := max(minDupSlots, 1<<bits.Len(uint(2*n)))
	if len(s.slots) >= size && len(s.slots) <= 8*size {
		clear(s.slots)
	} else {
		s.slots = make([]dupSlot, size)
	}
	s.shift = uint(32 - bits.Len(uint(len(s.slots)-1)))
	s.keys = 0
	clear(s.lists) // keys may hold pointers
	s.lists = s.lists[:0]
	s.free = s.free[:0]
}

// find returns the slot of k, whose hash is h, and its list, or the empty
// slot where it would go and -1.
func (s *dupSet[ID, K]) find(k dupKey[ID, K], h uint32) (slot int, list int32) {
	mask := len(s.slots) - 1
	for i := int(h >> s.shift); ; i = (i + 1) & mask {
		sl := s.slots[i]
		if sl.list == 0 {
			return i, -1
		}
		if sl.hash == h && s.lists[sl.list-1].key == k {
			return i, sl.list - 1
		}
	}
}

// place puts list, of a key whose hash is h, in the table, which has room.
func (s *dupSet[ID, K]) place(h uint32, list int32) {
	mask := len(s.slots) - 1
	i := int(h >> s.shift)
	for s.slots[i].list != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = dupSlot{hash: h, list: list + 1}
	s.keys++
}

// grow doubles the table, placing the keys again in slot order, which is
// the order of their home slots but for those that wrapped round.
func (s *dupSet[ID, K]) grow() {
	old := s.slots
	s.slots = make([]dupSlot, 2*len(old))
	s.shift--
	s.keys = 0
	for _, sl := range old {
		if sl.list != 0 {
			s.place(sl.hash, sl.list-1)
		}
	}
}

// unplace empties slot i, moving back the keys after it that it would
// hide (deletion in linear probing, without tombstones).
func (s *dupSet[ID, K]) unplace(i int) {
	mask := len(s.slots) - 1
	s.keys--
	for {
		s.slots[i] = dupSlot{}
		j := i
		for {
			j = (j + 1) & mask
			sl := s.slots[j]
			if sl.list == 0 {
				return
			}
			home := int(sl.hash >> s.shift)
			// The key at j stays if its home is cyclically in (i, j].
			if i <= j && i < home && home <= j || i > j && (i < home || home <= j) {
				continue
			}
			s.slots[i] = sl
			i = j
			break
		}
	}
}

// nearOrAdd reports whether k has a pending time less than w away from t;
// if not, it adds t to k's times.
func (s *dupSet[ID, K]) nearOrAdd(k dupKey[ID, K], t, w float64) bool {
	if s.slots == nil {
		s.init(0)
	}
	h := s.hash(k)
	slot, p := s.find(k, h)
	if p < 0 {
		if n := len(s.free); n > 0 {
			p = s.free[n-1]
			s.free = s.free[:n-1]
			s.lists[p].key = k
		} else {
			p = int32(len(s.lists))
			s.lists = append(s.lists, dupTimes[ID, K]{key: k})
		}
		s.slots[slot] = dupSlot{hash: h, list: p + 1}
		if s.keys++; 2*s.keys > len(s.slots) {
			s.grow()
		}
		l := &s.lists[p]
		l.times = append(l.times, t)
		return false
	}
	l := &s.lists[p]
	ts := l.times[l.head:]
	i, _ := slices.BinarySearch(ts, t)
	if i < len(ts) && ts[i]-t < w || i > 0 && t-ts[i-1] < w {
		return true
	}
	switch {
	case i == len(ts):
		l.times = append(l.times, t)
	case l.head > 0:
		copy(l.times[l.head-1:], ts[:i])
		l.head--
		l.times[l.head+i] = t
	default:
		l.times = slices.Insert(l.times, i, t)
	}
	return false
}

// remove removes time t of k, if k has it.
func (s *dupSet[ID, K]) remove(k dupKey[ID, K], t float64) {
	if s.keys == 0 {
		return
	}
	slot, p := s.find(k, s.hash(k))
	if p < 0 {
		return
	}
	l := &s.lists[p]
	i, found := slices.BinarySearch(l.times[l.head:], t)
	if !found {
		return
	}
	if i == 0 {
		l.head++
	} else {
		l.times = slices.Delete(l.times, l.head+i, l.head+i+1)
	}
	switch {
	case l.head == len(l.times):
		l.times = l.times[:0]
		l.head = 0
		l.key = dupKey[ID, K]{} // may hold pointers
		s.unplace(slot)
		s.free = append(s.free, p)
	case l.head > len(l.times)/2:
		n := copy(l.times, l.times[l.head:])
		l.times = l.times[:n]
		l.head = 0
	}
}

// len returns the number of keys with pending times.
func (s *dupSet[ID, K]) len() int { return s.keys }

// Building the index in bulk, for Restore.

// dupRecord is a pending telegram as the bulk build reads it: its key, the
// key's hash, its time and its index in the snapshot. Sorting records
// rather than indexes keeps the build from reading the telegrams in hash
// order, which is at random.
type dupRecord[ID, K comparable] struct {
	time  float64
	hash  uint32
	index int32
	key   dupKey[ID, K]
}

// dupScratch is what building the index needs, kept between restores.
type dupScratch[ID, K comparable] struct {
	a, b   []dupRecord[ID, K] // the sort's two buffers
	sorted []dupRecord[ID, K] // the records by hash, after checkDups: a or b
	others []dupRecord[ID, K] // a run's records of other keys than the one looked at
	keyRun []int32            // how many records each key has in sorted, in order, after checkDups
	// pointers is 2 if keys hold pointers, which a and b must then not
	// keep; 1 if not; 0 before the first rebuild.
	pointers int8
}

// sortRecords sorts h by the top bits of their hashes, keeping the order
// of records whose top bits are equal: a radix sort, buf being as long as
// h. It returns the sorted slice, h or buf. It sorts on all 32 bits for a
// million records and more, on the top 21 bits (two passes) for fewer:
// enough that records sharing their top bits are few, and most share
// their whole hash.
func sortRecords[ID, K comparable](h, buf []dupRecord[ID, K]) []dupRecord[ID, K] {
	var counts [3][1 << 11]int32
	first := 0 // the first pass: 0 sorts on all 32 bits, 1 on the top 21
	if len(h) < 1<<20 {
		first = 1
	}
	for i := range h {
		x := h[i].hash
		counts[0][x&0x7ff]++
		counts[1][x>>11&0x7ff]++
		counts[2][x>>22]++
	}
	for pass := first; pass < 3; pass++ {
		c := &counts[pass]
		shift := 11 * uint(pass)
		if c[h[0].hash>>shift&0x7ff] == int32(len(h)) {
			continue // one bucket: the pass would change nothing
		}
		var sum int32
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		for i := range h {
			b := h[i].hash >> shift & 0x7ff
			buf[c[b]] = h[i]
			c[b]++
		}
		h, buf = buf, h
	}
	return h
}

// groups calls f for each key of the records h, sorted by sortRecords,
// with the key's records in h's order (a run of h, rearranged). It
// rearranges each run of records whose hashes sortRecords left unsorted
// (with the same top bits) so that each key's records follow each other,
// in order, so that calling it again on h gives the same groups.
func groups[ID, K comparable](h []dupRecord[ID, K], other *[]dupRecord[ID, K], f func(run []dupRecord[ID, K])) {
	mask := ^uint32(0)
	if len(h) < 1<<20 {
		mask = 0xfffff800 // the top 21 bits, as sortRecords sorts
	}
	for len(h) > 0 {
		n := 1
		for n < len(h) && (h[n].hash^h[0].hash)&mask == 0 {
			n++
		}
		run := h[:n]
		h = h[n:]
		for len(run) > 1 {
			// Split off the records of the first one's key, keeping the
			// others for the next round: in a run of one hash there is
			// almost always one key.
			k, h := run[0].key, run[0].hash
			same := 1
			o := (*other)[:0]
			for i := 1; i < len(run); i++ {
				if run[i].hash == h && run[i].key == k {
					run[same] = run[i]
					same++
				} else {
					o = append(o, run[i])
				}
			}
			f(run[:same])
			n := copy(run[same:], o)
			run = run[same : same+n]
			*other = o
		}
		if len(run) == 1 {
			f(run)
		}
	}
}

// checkDups returns the first telegram of p, all of whose times are finite
// and in order, due less than window after an identical telegram before
// it, and that telegram, or -1, -1. It leaves p's telegrams sorted by the
// hash of their key (by s's seed) in sc.sorted, and returns the number of
// keys.
func (s *dupSet[ID, K]) checkDups(p []Telegram[ID, K], window float64, sc *dupScratch[ID, K]) (i, j, keys int) {
	s.ensureSeed()
	n := len(p)
	if cap(sc.a) < n {
		sc.a = make([]dupRecord[ID, K], n)
		sc.b = make([]dupRecord[ID, K], n)
	}
	h := sc.a[:n]
	for i := range p {
		t := &p[i]
		k := dupKey[ID, K]{t.Sender, t.Receiver, t.Msg}
		h[i] = dupRecord[ID, K]{time: t.DispatchTime, hash: s.hash(k), index: int32(i), key: k}
	}
	if n > 0 {
		h = sortRecords(h, sc.b[:n])
	}
	sc.sorted = h
	sc.keyRun = sc.keyRun[:0]
	i, j = -1, -1
	groups(h, &sc.others, func(run []dupRecord[ID, K]) {
		keys++
		sc.keyRun = append(sc.keyRun, int32(len(run)))
		for k := 1; k < len(run); k++ {
			if run[k].time-run[k-1].time < window {
				if at := int(run[k].index); i < 0 || at < i {
					i, j = at, int(run[k-1].index)
				}
				break // the key's later ones come after it
			}
		}
	})
	return i, j, keys
}

// rebuild makes the index that of the telegrams checkDups checked, which
// it left in sc.sorted, with keys keys.
func (s *dupSet[ID, K]) rebuild(keys int, sc *dupScratch[ID, K]) {
	s.init(keys)
	n := len(sc.sorted)
	if cap(s.bulk) < n {
		s.bulk = make([]float64, n)
	}
	bulk := s.bulk[:n]
	// groups left each key's records together in sorted, in the runs
	// checkDups counted: the index takes them in that order without
	// grouping them again.
	at := 0
	for _, k := range sc.keyRun {
		run := sc.sorted[at : at+int(k)]
		times := bulk[at : at+len(run) : at+len(run)]
		for k := range run {
			times[k] = run[k].time
		}
		at += len(run)
		s.lists = append(s.lists, dupTimes[ID, K]{key: run[0].key, times: times})
		s.place(run[0].hash, int32(len(s.lists)-1))
	}
	if sc.pointers == 0 {
		sc.pointers = 1
		if hasPointers(reflect.TypeFor[dupKey[ID, K]]()) {
			sc.pointers = 2
		}
	}
	if sc.pointers == 2 { // let what the keys point to be collected
		clear(sc.a)
		clear(sc.b)
	}
}

// hasPointers reports whether a value of type t holds pointers.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	}
	return true
}
