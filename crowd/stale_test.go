package crowd

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"unsafe"
	"weak"
)

// The entity type of the tests of stale data: it holds a pointer to an
// object of its own, which the collector may free once the entity has left
// the machine, and only then.
type staleEnt struct {
	p  *staleObj
	id ID
	n  int // steps run
}

// staleObj is large enough to be an allocation of its own: the tiny
// allocator packs smaller pointer-free objects together, and one reachable
// object would keep its neighbours.
type staleObj struct {
	serial int
	id     ID // the entity it was made for
	_      [48]byte
}

// staleTracker makes the entities' objects and keeps a weak pointer to
// each, and why its entity left, if it did.
type staleTracker struct {
	mu   sync.Mutex // state functions make objects on several workers
	objs []weak.Pointer[staleObj]
	why  []string
}

func (tr *staleTracker) make(id ID) staleEnt {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	o := &staleObj{serial: len(tr.objs), id: id}
	tr.objs = append(tr.objs, weak.Make(o))
	tr.why = append(tr.why, "")
	return staleEnt{p: o, id: id}
}

func (tr *staleTracker) left(o *staleObj, why string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.why[o.serial] = why
}

// check runs the collector and checks that the objects reachable are
// those of the entities in m: each entity's own, and no other. It returns
// how many objects were made for entities that are not in m.
func (tr *staleTracker) check(t *testing.T, m *Machine[staleEnt]) (left int) {
	t.Helper()
	live := map[int]ID{} // by serial
	for s := range StateID(m.NumStates()) {
		for id, e := range m.Each(s) {
			if e.p == nil || e.p.id != id {
				t.Fatalf("entity %d holds the object of entity %v", id, e.p)
			}
			live[e.p.serial] = id
		}
	}
	if len(live) != m.Len() {
		t.Fatalf("%d objects among %d entities", len(live), m.Len())
	}
	stale := func() (n int) {
		for i, w := range tr.objs {
			if _, in := live[i]; !in && w.Value() != nil {
				n++
			}
		}
		return n
	}
	// One collection finds every object unreachable; the loop is bounded
	// and waits for nothing.
	for range 10 {
		runtime.GC()
		if stale() == 0 {
			break
		}
	}
	for i, w := range tr.objs {
		o := w.Value()
		if id, in := live[i]; in {
			if o == nil || o.id != id {
				t.Errorf("the object of entity %d, in the machine, was collected", id)
			}
			continue
		}
		left++
		if o != nil {
			why := cmp.Or(tr.why[i], "left")
			t.Errorf("the object of entity %d (%s) is still reachable", o.id, why)
		}
	}
	runtime.KeepAlive(m) // what it holds is reachable until here
	return left
}

// The states of the scenario, and the fates of entities chosen by ID.
const (
	staleWalk StateID = iota // per entity: moves to run every third step or so
	staleRun                 // per bucket: moves back to walk every fourth step or so
)

func staleFinal(e *staleEnt) bool { return e.id%11 == 0 && e.n == 3 }

// TestNoStaleData runs entities holding pointers through every way in and
// out of a machine (moves between states, Final, Remove outside and during
// a step, Add during a step, an ID added twice in one step, a removed ID
// added again, the storage growing and being defragmented, a state function
// and OnFinal panicking) and checks that the machine keeps no copy of an
// entity's data once the entity has left: after every step, where it keeps
// entities' data outside its live entities (the storage outside the buckets,
// the spare storage, the arena, the tasks' finals and batches, the pending
// adds) holds only zero values; at the end, once the collector has run, the
// objects of the entities still in the machine are reachable, and no other.
func TestNoStaleData(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			tr := &staleTracker{}
			var m *Machine[staleEnt]
			var armedFunc, armedBatch, armedFinal bool
			defs := []Def[staleEnt]{
				{Name: "walk", Func: func(e *staleEnt, _ StateID) StateID {
					e.n++
					switch {
					case armedFunc && e.id%50 == 0:
						panic("boom")
					case staleFinal(e):
						tr.left(e.p, "returned Final")
						return Final
					case e.id < 3000 && e.id%13 == 0 && e.n == 2:
						if err := m.Remove(e.id); err != nil {
							t.Error(err)
						}
						tr.left(e.p, "removed during a step")
					case e.id < 3000 && e.id%17 == 0 && e.n == 1:
						if err := m.Add(e.id+100000, tr.make(e.id+100000), staleRun); err != nil {
							t.Error(err)
						}
					case e.id < 3000 && e.id%23 == 0 && e.n == 1:
						// Pairs of entities add one ID: neither add is carried out.
						twice := 200000 + e.id/46
						o := tr.make(twice)
						tr.left(o.p, "added twice in one step")
						if err := m.Add(twice, o, staleWalk); err != nil {
							t.Error(err)
						}
					case (e.id+ID(e.n))%3 == 0:
						return staleRun
					}
					return staleWalk
				}},
				{Name: "run", Batch: func(b *Batch[staleEnt]) {
					for i := range b.Len() {
						e, _ := b.At(i)
						e.n++
						switch {
						case armedBatch && e.id%50 == 0:
							panic("boom")
						case staleFinal(e):
							tr.left(e.p, "returned Final")
							b.Set(i, Final)
						case (e.id+ID(e.n))%4 == 0:
							b.Set(i, staleWalk)
						}
					}
				}},
			}
			var err error
			m, err = New(defs, Options[staleEnt]{
				ChunkSize: 64,
				OnFinal: func(id ID, e *staleEnt) {
					if e.p == nil || e.p.id != id {
						t.Errorf("OnFinal(%d) got the object of entity %v", id, e.p)
					}
					if armedFinal {
						armedFinal = false
						panic("final")
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if err := m.SetWorkers(workers); err != nil {
				t.Fatal(err)
			}
			add := func(id ID, s StateID) {
				t.Helper()
				if err := m.Add(id, tr.make(id), s); err != nil {
					t.Fatal(err)
				}
			}
			remove := func(id ID, why string) {
				t.Helper()
				var o *staleObj
				for s := range StateID(2) {
					for i, e := range m.Each(s) {
						if i == id {
							o = e.p
						}
					}
				}
				if err := m.Remove(id); err != nil {
					t.Fatal(err)
				}
				tr.left(o, why)
			}
			check := func(when string) {
				t.Helper()
				if err := staleCopies(m); err != nil {
					t.Fatalf("%s: %v", when, err)
				}
			}
			for id := range ID(3000) {
				add(id, StateID(id%2))
			}

			defrags, grown := 0, 0
			for step := range 16 {
				switch step {
				case 3: // removed outside a step: purged by the next
					for id := ID(0); id < 3000; id += 19 {
						if _, ok := m.StateOf(id); ok {
							remove(id, "removed")
						}
					}
				case 4: // removed, then added again: purged by the add
					remove(5, "removed, and its ID added again")
					add(5, staleWalk)
				case 5: // the storage grows during the next step
					for id := ID(3000); id < 8000; id++ {
						add(id, StateID(id%2))
					}
				case 7:
					armedFunc = true
				case 8:
					armedBatch = true
				case 9: // their third step is step 11
					for id := ID(8000); id < 9000; id++ {
						add(id, StateID(id%2))
					}
				case 11:
					armedFinal = true
				case 13: // the steps after have fewer movers than before
					for id := ID(1); id < 9000; id += 2 {
						if _, ok := m.StateOf(id); ok {
							remove(id, "removed")
						}
					}
				}
				check(fmt.Sprintf("before step %d", step))
				storage := unsafe.SliceData(m.cur)
				p := stepCatching(t, m)
				if (p != nil) != (step == 7 || step == 8 || step == 11) {
					t.Fatalf("step %d panicked with %v", step, p)
				}
				armedFunc, armedBatch, armedFinal = false, false, false
				switch {
				case unsafe.SliceData(m.nxt) == storage:
					defrags++
				case unsafe.SliceData(m.cur) != storage:
					grown++ // by the step's arrivals: the tasks' batches saw the old array
				}
				check(fmt.Sprintf("after step %d", step))
			}
			if defrags == 0 || grown == 0 {
				t.Fatalf("the scenario defragmented the storage %d times and grew it %d times; it must do both", defrags, grown)
			}

			if left := tr.check(t, m); left < 1000 {
				t.Errorf("only %d entities left the machine; the scenario must make more leave", left)
			}
		})
	}
}

// TestNoStaleDataAfterPanic checks what TestNoStaleData does when a state
// function panics in the middle of a piece of its bucket: the runs sorted
// before the panic have moved, and the places they left in the piece hold
// nothing.
func TestNoStaleDataAfterPanic(t *testing.T) {
	const n, bad = 600, 400 // bad runs after the first 256 of the piece
	next := func(e *staleEnt) StateID {
		switch {
		case e.id%5 == 0:
			return Final
		case e.id%3 == 0:
			return 1
		}
		return 0
	}
	for _, form := range []string{"Func", "Batch"} {
		t.Run(form, func(t *testing.T) {
			tr := &staleTracker{}
			armed := true
			def := Def[staleEnt]{Name: "a", Func: func(e *staleEnt, _ StateID) StateID {
				if armed && e.id == bad {
					panic("boom")
				}
				return next(e)
			}}
			if form == "Batch" {
				def = Def[staleEnt]{Name: "a", Batch: func(b *Batch[staleEnt]) {
					for i := range b.Len() {
						e, _ := b.At(i)
						if armed && e.id == bad {
							panic("boom")
						}
						b.Set(i, next(e))
					}
				}}
			}
			idle := Def[staleEnt]{Name: "b", Batch: func(*Batch[staleEnt]) {}}
			m, err := New([]Def[staleEnt]{def, idle}, Options[staleEnt]{
				ChunkSize: 1024,
				OnFinal:   func(_ ID, e *staleEnt) { tr.left(e.p, "returned Final") },
			})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			for id := range ID(n) {
				if err := m.Add(id, tr.make(id), 0); err != nil {
					t.Fatal(err)
				}
			}
			p := stepCatching(t, m)
			if pe, ok := p.(*PanicError); !ok || (!pe.Batch && pe.ID != bad) {
				t.Fatalf("Step panicked with %v, want a PanicError for entity %d", p, bad)
			}
			if err := staleCopies(m); err != nil {
				t.Fatalf("after the panic: %v", err)
			}
			for id := range ID(256) { // the first run went where it said
				want, wantOK := next(&staleEnt{id: id}), true
				if want == Final {
					want, wantOK = 0, false
				}
				if s, ok := m.StateOf(id); s != want || ok != wantOK {
					t.Fatalf("StateOf(%d) = %s, %v after the panic, want %s, %v", id, s, ok, want, wantOK)
				}
			}
			armed = false
			for i := range 4 {
				if p := stepCatching(t, m); p != nil {
					t.Fatal(p)
				}
				if err := staleCopies(m); err != nil {
					t.Fatalf("after step %d: %v", i, err)
				}
			}
			if left := tr.check(t, m); left != n/5 {
				t.Errorf("%d entities left the machine, want %d", left, n/5)
			}
		})
	}
}

// stepCatching steps m and returns what it panicked with, if it did.
func stepCatching[E any](t *testing.T, m *Machine[E]) (p any) {
	t.Helper()
	defer func() { p = recover() }()
	if err := m.Step(); err != nil {
		var serr *StepError
		if !errors.As(err, &serr) || serr.Invalid > 0 || !errors.Is(err, ErrExists) {
			t.Fatalf("Step: %v", err)
		}
	}
	return nil
}

// staleCopies returns an error naming the first place where m keeps a copy
// of an entity's data outside its live entities: everywhere else what it
// holds must be zero. Removed entities still in their bucket until purged
// count as live.
func staleCopies[E comparable](m *Machine[E]) error {
	var zero slot[E]
	inBucket := make([]bool, cap(m.cur))
	for s := range m.buckets {
		for _, sg := range m.buckets[s].segs {
			for i := sg.off; i < sg.off+sg.n; i++ {
				inBucket[i] = true
			}
		}
	}
	for i, sl := range m.cur[:cap(m.cur)] {
		if !inBucket[i] && sl != zero {
			return fmt.Errorf("the storage holds entity %d at %d, outside the buckets (len %d)", sl.id, i, len(m.cur))
		}
	}
	for _, a := range []struct {
		what  string
		slots []slot[E]
	}{{"the spare storage", m.nxt}, {"the arena", m.arena}} {
		for i, sl := range a.slots[:cap(a.slots)] {
			if sl != zero {
				return fmt.Errorf("%s holds entity %d at %d", a.what, sl.id, i)
			}
		}
	}
	for k, t := range m.tasks[:cap(m.tasks)] {
		for _, sl := range t.finals[:cap(t.finals)] {
			if sl != zero {
				return fmt.Errorf("task %d's finals hold entity %d", k, sl.id)
			}
		}
		if t.batch.slots != nil {
			return fmt.Errorf("task %d's batch holds a view of the storage", k)
		}
	}
	for _, o := range m.pending[:cap(m.pending)] {
		if o.data != *new(E) {
			return fmt.Errorf("the pending adds hold the data of entity %d", o.id)
		}
	}
	return nil
}

// TestHoldsPointers checks the test that decides whether a step clears the
// copies its entities leave behind.
func TestHoldsPointers(t *testing.T) {
	type monster struct {
		X, Y  float32
		Seed  uint32
		Flags [4]bool
	}
	tests := []struct {
		typ  reflect.Type
		want bool
	}{
		{reflect.TypeFor[int](), false},
		{reflect.TypeFor[monster](), false},
		{reflect.TypeFor[[3]complex128](), false},
		{reflect.TypeFor[[0]*int](), false},
		{reflect.TypeFor[struct{}](), false},
		{reflect.TypeFor[*int](), true},
		{reflect.TypeFor[string](), true},
		{reflect.TypeFor[[]int](), true},
		{reflect.TypeFor[map[int]int](), true},
		{reflect.TypeFor[chan int](), true},
		{reflect.TypeFor[func()](), true},
		{reflect.TypeFor[any](), true},
		{reflect.TypeFor[error](), true},
		{reflect.TypeFor[unsafe.Pointer](), true},
		{reflect.TypeFor[staleEnt](), true},
		{reflect.TypeFor[struct {
			n int
			a [2]struct{ s []byte }
		}](), true},
	}
	for _, tt := range tests {
		if got := holdsPointers(tt.typ); got != tt.want {
			t.Errorf("holdsPointers(%v) = %v, want %v", tt.typ, got, tt.want)
		}
	}
}
