package machine

import "sync"

// DefaultSize is the number of events a Recorder keeps when not told.
const DefaultSize = 1 << 16

// Recorder is a flight recorder: it keeps the last events of a set of
// machines in a ring of fixed size, oldest overwritten first. Each machine
// is registered once ([Recorder.Register]) and gets an Observer to attach
// to its runtime. Recording an event costs a lock and a copy, and
// allocates nothing.
//
// A Recorder is safe for concurrent use: crowds record from their workers
// while the game or a viewer reads.
type Recorder struct {
	mu       sync.Mutex
	ring     []Event
	next     int    // where the next event goes in ring
	held     int    // how many events ring holds, up to its size
	total    uint64 // events recorded since the start (or Reset)
	tick     uint64
	machines []Description
}

// NewRecorder returns a recorder that keeps the last size events, or
// DefaultSize if size is 0 or less. The ring is allocated here, size × 40
// bytes.
func NewRecorder(size int) *Recorder {
	if size <= 0 {
		size = DefaultSize
	}
	return &Recorder{ring: make([]Event, size)}
}

// Register adds a machine to the recording and returns the observer to
// attach to it: the events it records carry the machine's number, its
// index in Machines (the order of registration).
func (r *Recorder) Register(d Description) Observer {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.machines = append(r.machines, d)
	return &tap{r: r, machine: uint32(len(r.machines) - 1)}
}

// Machines returns the descriptions of the machines registered, by number.
func (r *Recorder) Machines() []Description {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Description(nil), r.machines...)
}

// SetTick sets the tick stamped on the events recorded from now on: the
// game calls it once per frame with its own tick count.
func (r *Recorder) SetTick(tick uint64) {
	r.mu.Lock()
	r.tick = tick
	r.mu.Unlock()
}

// Size returns how many events the recorder keeps.
func (r *Recorder) Size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ring)
}

// SetSize changes how many events the recorder keeps, keeping the newest
// that fit. It allocates a new ring; size 0 or less means DefaultSize.
func (r *Recorder) SetSize(size int) {
	if size <= 0 {
		size = DefaultSize
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	kept := r.appendEvents(nil)
	if len(kept) > size {
		kept = kept[len(kept)-size:]
	}
	r.ring = make([]Event, size)
	r.held = copy(r.ring, kept)
	r.next = r.held % size
}

// Total returns how many events were recorded since the recorder was made
// or reset, including those the ring no longer holds.
func (r *Recorder) Total() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// Len returns how many events the recorder holds: Total, up to Size.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held
}

// Events appends the events held to dst, oldest first, and returns it.
func (r *Recorder) Events(dst []Event) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.appendEvents(dst)
}

func (r *Recorder) appendEvents(dst []Event) []Event { return r.appendLast(dst, r.held) }

// appendLast appends the last n events held, oldest first.
func (r *Recorder) appendLast(dst []Event, n int) []Event {
	first := (r.next - n + len(r.ring)) % len(r.ring)
	if first+n <= len(r.ring) {
		return append(dst, r.ring[first:first+n]...)
	}
	dst = append(dst, r.ring[first:]...)
	return append(dst, r.ring[:first+n-len(r.ring)]...)
}

// Since appends to dst the events recorded after the first seq of them,
// oldest first, and returns it with the number recorded so far: a reader
// that streams events (the viewer) passes back the number it got, and
// gets the next events only. Events the ring no longer holds are lost to
// it: it gets those that are still there.
func (r *Recorder) Since(seq uint64, dst []Event) ([]Event, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seq >= r.total {
		return dst, r.total
	}
	return r.appendLast(dst, int(min(r.total-seq, uint64(r.held)))), r.total
}

// Reset forgets the events recorded; the machines stay registered.
func (r *Recorder) Reset() {
	r.mu.Lock()
	r.total, r.next, r.held = 0, 0, 0
	r.mu.Unlock()
}

// record writes ev into the ring, stamped with the machine and the tick.
func (r *Recorder) record(machine uint32, ev *Event) {
	slot := &r.ring[r.next]
	*slot = *ev
	slot.Machine, slot.Tick = machine, r.tick
	if r.next++; r.next == len(r.ring) {
		r.next = 0
	}
	if r.held < len(r.ring) {
		r.held++
	}
	r.total++
}

// tap is the observer of one registered machine.
type tap struct {
	r       *Recorder
	machine uint32
}

func (t *tap) Observe(ev Event) {
	r := t.r
	r.mu.Lock()
	r.record(t.machine, &ev)
	r.mu.Unlock()
}

func (t *tap) ObserveBatch(evs []Event) {
	r := t.r
	r.mu.Lock()
	r.recordBatch(t.machine, evs)
	r.mu.Unlock()
}

// recordBatch writes evs into the ring as record does each, in at most two
// copies and one pass that stamps them: a crowd records a batch of 256
// events at a time, and record's bookkeeping per event would cost more
// than the copy.
func (r *Recorder) recordBatch(machine uint32, evs []Event) {
	if skip := len(evs) - len(r.ring); skip > 0 {
		evs = evs[skip:] // only the newest fit
		r.total += uint64(skip)
	}
	for len(evs) > 0 {
		dst := r.ring[r.next:]
		n := copy(dst, evs)
		tick := r.tick
		for i := range dst[:n] {
			dst[i].Machine, dst[i].Tick = machine, tick
		}
		evs = evs[n:]
		if r.next += n; r.next == len(r.ring) {
			r.next = 0
		}
		r.held = min(r.held+n, len(r.ring))
		r.total += uint64(n)
	}
}
