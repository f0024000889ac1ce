package message

import (
	"math"
	"math/bits"
	"slices"
)

// Sorting the queue for [Dispatcher.Snapshot]. A comparison sort (pdqsort
// through slices.SortFunc) of a million entries makes some twenty calls of
// the comparison per entry, several times the cost of the bucket sort's few
// linear passes over the bits of the due times (see
// BenchmarkDispatcherSnapshot).

const (
	smallSort   = 24 // runs of at most this many entries are insertion-sorted
	bucketBits  = 11 // at most 2¹¹ buckets per pass: the counts stay in the L1 cache
	bucketDepth = 6  // bucket passes nested deeper fall back to a comparison sort
)

// sortHeap puts the heap in (time, seq) order, which keeps it a heap. It
// keeps its scratch buffers in d.scratch and d.counts.
func (d *Dispatcher[ID, K]) sortHeap() {
	h := d.heap
	if sortedEntries(h) {
		return
	}
	if len(h) <= smallSort {
		insertionSort(h)
		return
	}
	if cap(d.scratch) < len(h) {
		d.scratch = make([]entry, len(h))
	}
	if n := bucketDepth << bucketBits; len(d.counts) < n {
		d.counts = make([]int32, n)
	}
	bucketSort(h, d.scratch[:len(h)], d.counts, 0) // entries hold no pointers: nothing to clear
}

func sortedEntries(h []entry) bool {
	for i := 1; i < len(h); i++ {
		if h[i].less(h[i-1]) {
			return false
		}
	}
	return true
}

func insertionSort(h []entry) {
	for i := 1; i < len(h); i++ {
		e := h[i]
		j := i
		for ; j > 0 && e.less(h[j-1]); j-- {
			h[j] = h[j-1]
		}
		h[j] = e
	}
}

// timeKey maps a time to an integer in the same order: the float64's bits,
// the sign bit flipped for positive times, all bits for negative ones. Both
// zeros, equal as times, have the key of +0.
func timeKey(t float64) uint64 {
	if t == 0 {
		return 1 << 63
	}
	u := math.Float64bits(t)
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

// bucketSort sorts h by (time, seq), buf being as long as h and counts
// holding 2^bucketBits counts for this depth and each deeper one. It
// distributes h into buckets by the leading bits of what differs among
// its keys (the time keys, or the seqs if all times are equal), then sorts
// each bucket: small ones by insertion, others by bucketSort again. The
// buckets follow the keys' order, so no merge is needed.
func bucketSort(h, buf []entry, counts []int32, depth int) {
	if depth == bucketDepth {
		slices.SortFunc(h, compareEntries)
		return
	}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i := range h {
		k := timeKey(h[i].time)
		lo, hi = min(lo, k), max(hi, k)
	}
	bySeq := lo == hi
	if bySeq {
		lo, hi = math.MaxUint64, 0
		for i := range h {
			lo, hi = min(lo, h[i].seq), max(hi, h[i].seq)
		}
	}
	b := min(bits.Len(uint(len(h)))-2, bucketBits)
	shift := max(bits.Len64(hi-lo)-b, 0)
	key := func(e *entry) uint64 {
		if bySeq {
			return (e.seq - lo) >> shift
		}
		return (timeKey(e.time) - lo) >> shift
	}
	c := counts[:1<<b]
	clear(c)
	for i := range h {
		c[key(&h[i])]++
	}
	var sum int32
	for i, n := range c {
		c[i] = sum
		sum += n
	}
	for i := range h {
		k := key(&h[i])
		buf[c[k]] = h[i]
		c[k]++
	}
	copy(h, buf)
	start := int32(0)
	for _, end := range c { // c[i] is now the end of bucket i
		switch n := end - start; {
		case n > smallSort:
			bucketSort(h[start:end], buf[start:end], counts[1<<bucketBits:], depth+1)
		case n > 1:
			insertionSort(h[start:end])
		}
		start = end
	}
}
