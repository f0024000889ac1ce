package viewer

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsmforge/fsmforge/machine"
)

// Options says how a viewer serves and what it allows. The zero value
// serves on a free port of 127.0.0.1, accepts commands that carry the
// token New makes, and keeps the last machine.DefaultSize transitions.
type Options struct {
	// Addr is where Start listens, "host:port". Default "127.0.0.1:0": a
	// free port, on this machine only.
	Addr string
	// Remote lets Addr be an address other machines reach. Default false:
	// Start refuses any address but a loopback one, since whoever reaches
	// the page sees the game's machines.
	Remote bool
	// ReadOnly refuses every command (pause, step, breakpoints, messages):
	// the page only watches.
	ReadOnly bool
	// Token is what every command must carry. Default: 128 random bits,
	// made by New, in the URL Start returns.
	Token string
	// Record is how many transitions the flight recorder keeps. Default
	// (0): machine.DefaultSize.
	Record int
	// Paused starts the game paused at its first frame, and keeps it
	// paused while no page watches: it runs only as the page steps or
	// resumes it. The simulator (fsmforge view) starts so.
	Paused bool
}

// Viewer serves the live view of a game's machines. Make one with New,
// register the machines with Add, serve it with Start (or Handler, in a
// server of the game's own) and call Frame once per frame.
//
// The viewer touches the machines only inside Frame, on the game's
// goroutine: pause, single steps, messages sent from the page and
// breakpoints take effect there, so the viewer never races the game loop
// and the game's per-frame paths take no lock. With no page watching,
// Frame costs an atomic load and the machines carry no observer.
type Viewer struct {
	opt   Options
	token string
	rec   *machine.Recorder

	mu       sync.Mutex
	wake     *sync.Cond // tells a paused Frame that a command came
	idle     func()     // WhilePaused's
	woken    bool       // Wake was called since a paused Frame last ran idle
	machines []*entry
	queue    []func()     // work for the game's goroutine: commands and queries
	paused   bool         // the game waits in Frame
	steps    int          // frames to run while paused
	tick     uint64       // the game's last tick
	frames   uint64       // frames seen
	streams  int          // event streams open
	picks    map[pick]int // agents the streams follow, and by how many
	view     *frameView   // the last frame's view
	changed  chan struct{}
	problems []Problem
	lastHit  *Hit
	pending  []*pendingReload // new versions the next frame shows (Reloaded)
	reloads  []Reload         // the last maxReloads shown
	reloaded uint64           // the reloads shown so far
	closed   bool             // Close was called: nothing waits any more
	replay   bool             // a recording's viewer (Open): no game calls Frame
	gen      uint64           // counts the times the last stream closed, for the grace before resuming

	busy atomic.Bool              // Frame has something to do
	bps  atomic.Pointer[breakSet] // the breakpoints, or nil
	hit  atomic.Pointer[Hit]      // the breakpoint hit since the last frame
	srv  atomic.Pointer[http.Server]
}

// entry is a registered machine.
type entry struct {
	name   string
	src    Source
	desc   machine.Description
	layout Layout
	tap    *tap
	record bool // record its events while watched
	on     bool // its observer is attached
	// version counts the machine's versions, from 1 at Add; since is the
	// number of transitions recorded (of every machine) when the version
	// began: the machine's before it are an older version's.
	version int
	since   uint64
	refused string // why its last new version was refused (Refused), or ""
}

// pick is an agent a stream follows.
type pick struct {
	m  int
	id uint64
}

// maxProblems is how many reported problems the viewer keeps, the latest.
const maxProblems = 64

// New returns a viewer with the options opt, serving nothing yet.
func New(opt Options) *Viewer {
	v := &Viewer{opt: opt, token: opt.Token, rec: machine.NewRecorder(opt.Record), picks: map[pick]int{}, changed: make(chan struct{}), paused: opt.Paused}
	if v.token == "" {
		var b [16]byte
		rand.Read(b[:])
		v.token = hex.EncodeToString(b[:])
	}
	v.wake = sync.NewCond(&v.mu)
	v.view = &frameView{Machines: []machineView{}, Agents: []Agent{}}
	v.busy.Store(opt.Paused)
	return v
}

// Token returns the token commands must carry.
func (v *Viewer) Token() string { return v.token }

// Recorder returns the viewer's flight recorder, which holds the
// transitions of the machines while a page watches them.
func (v *Viewer) Recorder() *machine.Recorder { return v.rec }

// Add registers a machine under a name and returns its number, the
// machine's ID in the HTTP API. drawing, when not nil, is the designer's
// drawing of it ([FromCompile]): the page draws the states where the
// designer did; otherwise it lays them out. A crowd's events are recorded
// only when the page asks for them (see [Crowd]). Add may be called at
// any time, from any goroutine but inside Frame.
func (v *Viewer) Add(name string, s Source, drawing *Drawing) int {
	d := s.Describe()
	return v.add(name, s, &d, layoutOf(&d, drawing))
}

// add registers machine s, which d describes, drawn as l.
func (v *Viewer) add(name string, s Source, d *machine.Description, l Layout) int {
	e := &entry{name: name, src: s, desc: *d, layout: l, version: 1}
	_, rater := s.(Rater)
	e.record = !rater
	v.mu.Lock()
	defer v.mu.Unlock()
	e.tap = &tap{v: v, m: len(v.machines), obs: v.rec.Register(*d), up: ancestors(d)}
	v.machines = append(v.machines, e)
	return len(v.machines) - 1
}

// Replace makes machine m (the number Add returned) show s instead, from
// the next frame: a game that starts a level again, with new agents and
// perhaps a new definition object, keeps its machine on the page. s must
// run a machine of the same description (Describe); Replace panics if it
// describes another number of states (a new version of the machine is
// [Viewer.Reloaded]'s), or if m is not a machine's number.
func (v *Viewer) Replace(m int, s Source) {
	d := s.Describe()
	v.mu.Lock()
	defer v.mu.Unlock()
	e := v.mustEntry("Replace", m)
	if len(d.States) != len(e.desc.States) {
		panic(fmt.Sprintf("viewer: Replace(%d): the new source has %d states, machine %q %d (a new version of a machine is Reloaded's)", m, len(d.States), e.name, len(e.desc.States)))
	}
	if e.on {
		e.src.Observe(nil) // safe: the old agents are the game's no more
	}
	e.src, e.on = s, false
	v.busy.Store(true)
}

// Frame is the game's frame boundary, tick its tick: the viewer reads
// the machines, runs the commands that came (a message sent from the
// page is posted here), and, when the game is paused from the page or by
// a breakpoint, waits here until the page resumes it or steps a frame.
// Call it once per frame, between updates, on the goroutine that updates
// the machines. With no page watching it returns at once.
func (v *Viewer) Frame(tick uint64) {
	if !v.busy.Load() {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.tick, v.frames = tick, v.frames+1
	v.rec.SetTick(tick)
	if h := v.hit.Swap(nil); h != nil && v.streams > 0 {
		v.paused, v.steps, v.lastHit = true, 0, h
	}
	v.applyReloads()
	v.runQueue()
	v.publish()
	for v.paused && v.steps == 0 && (v.streams > 0 || v.opt.Paused) && !v.closed {
		if !v.woken {
			v.wake.Wait()
		}
		v.woken = false
		if f := v.idle; f != nil {
			v.mu.Unlock()
			f()
			v.mu.Lock()
		}
		v.applyReloads()
		v.runQueue()
		v.publish()
	}
	if v.steps > 0 {
		v.steps--
	}
	v.setBusy()
}

// WhilePaused makes f run on the game's goroutine each time a Frame that
// waits paused (from the page, at a breakpoint, or by Options.Paused)
// wakes: at each command, each Wake, Reloaded and Refused, a page that
// connects, and the end of the grace before resuming.
// The game stands at its frame boundary then, so f may change its
// machines, as hot reload does when it swaps in a drawing saved while the
// game is paused (package reload sets it). f runs with no lock held and
// may call the viewer's methods; it replaces the f set before, and nil
// takes it away. Set it before the game's first Frame.
func (v *Viewer) WhilePaused(f func()) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.idle = f
}

// Wake wakes a Frame that waits, paused from the page, so that it runs the
// function WhilePaused set, then waits again; a Frame that is about to
// wait, paused, runs it first. It may be called from any goroutine.
func (v *Viewer) Wake() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.woken = true // for a Frame not waiting yet: it runs the function at once
	v.wake.Broadcast()
}

// runQueue runs the work queued for the game's goroutine, then attaches
// or detaches the observers as the streams want.
func (v *Viewer) runQueue() {
	for len(v.queue) > 0 {
		q := v.queue
		v.queue = nil
		for _, f := range q {
			f()
		}
	}
	bps := v.bps.Load()
	for i, e := range v.machines {
		// Observed while a page watches and its events are recorded, or
		// it has a breakpoint, which its observer checks.
		e.tap.record.Store(e.record)
		want := v.streams > 0 && (e.record || bps.has(i))
		switch {
		case want:
			e.src.Observe(e.tap)
		case e.on:
			e.src.Observe(nil)
		}
		e.on = want
	}
}

// setBusy sets whether Frame has work: a stream open, work queued, or
// observers to take away.
func (v *Viewer) setBusy() {
	busy := v.streams > 0 || len(v.queue) > 0 || len(v.pending) > 0 || v.paused && v.opt.Paused
	for _, e := range v.machines {
		busy = busy || e.on
	}
	v.busy.Store(busy)
}

// do runs f on the game's goroutine at the next frame (or now, when the
// game waits paused in Frame) and waits for it, at most timeout; f does
// not run once do has given up. A recording's viewer, with no game, runs
// f at once.
func (v *Viewer) do(f func(), timeout time.Duration) error {
	v.mu.Lock()
	if v.replay {
		defer v.mu.Unlock()
		f()
		return nil
	}
	if len(v.queue) >= maxQueue {
		v.mu.Unlock()
		return errBusy
	}
	done := make(chan struct{})
	var gaveUp bool // guarded by v.mu
	v.queue = append(v.queue, func() {
		if !gaveUp {
			f()
		}
		close(done)
	})
	v.busy.Store(true)
	v.wake.Broadcast()
	v.mu.Unlock()
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		v.mu.Lock()
		gaveUp = true
		v.mu.Unlock()
		select {
		case <-done: // it ran just before
			return nil
		default:
			return errNoFrame
		}
	}
}

// maxQueue is the most work the page may queue for the game at once.
const maxQueue = 64

var (
	errNoFrame = errors.New("viewer: the game has not reached a frame boundary (does it call Viewer.Frame?)")
	errNoAgent = errors.New("viewer: no such agent")
	errNoPost  = errors.New("viewer: this machine takes no messages from the viewer")
	errNotTest = errors.New("viewer: not a polled test of the machine")
	errBusy    = errors.New("viewer: too many commands wait for the game's next frame")
	errNoHold  = errors.New("viewer: this machine's tests are the game's, not the page's (only a simulated agent's hold when told)")
)

// Report tells the viewer of an error the game got from machine m's
// agent id (an update's chain limit, a stack error, a crowd's panic): the
// page shows it, at the agent's state when the error names one. It keeps
// the last 64. Report may be called from any goroutine.
func (v *Viewer) Report(m int, id uint64, err error) {
	if err == nil {
		return
	}
	p := Problem{Machine: m, Agent: id, Message: err.Error(), State: machine.NoState}
	var ce *machine.ChainError
	if errors.As(err, &ce) {
		p.State = ce.At
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	p.Tick = v.tick
	if len(v.problems) == maxProblems {
		v.problems = append(v.problems[:0], v.problems[1:]...)
	}
	v.problems = append(v.problems, p)
}

// Problem is an error the game reported.
type Problem struct {
	Tick    uint64          `json:"tick"`
	Machine int             `json:"machine"`
	Agent   uint64          `json:"agent"`
	State   machine.StateID `json:"state"` // where it happened, or machine.NoState
	Message string          `json:"message"`
}

// Hit is a breakpoint the game reached.
type Hit struct {
	Tick       uint64          `json:"tick"`
	Machine    int             `json:"machine"`
	Agent      uint64          `json:"agent"`
	State      machine.StateID `json:"state"`      // the state entered, for a breakpoint on a state
	Transition int32           `json:"transition"` // the transition taken, for one on a transition, or -1
}

// breakSet is the breakpoints, replaced whole when they change, so that
// the machines' observers read it without a lock.
type breakSet struct {
	states      map[pick]bool // machine and state entered
	transitions map[pick]bool // machine and transition taken
	byMachine   []breaks      // each machine's, sorted: what the frames' views show
}

// newBreakSet returns the breakpoints states and transitions name among n
// machines, with each machine's listed, or nil when there are none.
func newBreakSet(states, transitions map[pick]bool, n int) *breakSet {
	if len(states) == 0 && len(transitions) == 0 {
		return nil
	}
	b := &breakSet{states: states, transitions: transitions, byMachine: make([]breaks, n)}
	for i := range b.byMachine {
		b.byMachine[i] = breaks{States: []int{}, Transitions: []int{}}
	}
	for p := range states {
		b.byMachine[p.m].States = append(b.byMachine[p.m].States, int(p.id))
	}
	for p := range transitions {
		b.byMachine[p.m].Transitions = append(b.byMachine[p.m].Transitions, int(p.id))
	}
	for i := range b.byMachine {
		slices.Sort(b.byMachine[i].States)
		slices.Sort(b.byMachine[i].Transitions)
	}
	return b
}

// tap is the observer the viewer attaches to a machine: it records the
// events and checks the breakpoints. The crowd's workers call it at once.
type tap struct {
	v      *Viewer
	m      int
	obs    machine.Observer
	up     [][]machine.StateID // each state and the states around it, for the breakpoints
	record atomic.Bool         // record the events, not only check them
}

func (t *tap) Observe(ev machine.Event) {
	t.check(&ev)
	if t.record.Load() {
		t.obs.Observe(ev)
	}
}

func (t *tap) ObserveBatch(evs []machine.Event) {
	if t.v.bps.Load() != nil {
		for i := range evs {
			t.check(&evs[i])
		}
	}
	if t.record.Load() {
		t.obs.(machine.BatchObserver).ObserveBatch(evs)
	}
}

// check pauses the game at the next frame if ev reaches a breakpoint: a
// transition, or a state it enters, a compound around it included. (A
// statechart's event names the first active atomic state only: a state
// entered in a second parallel region is not seen.)
func (t *tap) check(ev *machine.Event) {
	b := t.v.bps.Load()
	if b == nil {
		return
	}
	if ev.Transition >= 0 && b.transitions[pick{t.m, uint64(ev.Transition)}] {
		t.v.hit.CompareAndSwap(nil, &Hit{Tick: ev.Tick, Machine: t.m, Agent: ev.Entity, State: ev.To, Transition: ev.Transition})
		return
	}
	if ev.To < 0 || int(ev.To) >= len(t.up) {
		return
	}
	for _, q := range t.up[ev.To] {
		if b.states[pick{t.m, uint64(q)}] && (ev.From < 0 || int(ev.From) >= len(t.up) || !slices.Contains(t.up[ev.From], q)) {
			t.v.hit.CompareAndSwap(nil, &Hit{Tick: ev.Tick, Machine: t.m, Agent: ev.Entity, State: q, Transition: -1})
			return
		}
	}
}

// ancestors returns each state of d with the states around it, itself
// first.
func ancestors(d *machine.Description) [][]machine.StateID {
	up := make([][]machine.StateID, len(d.States))
	for i := range d.States {
		for q := machine.StateID(i); q >= 0 && int(q) < len(d.States) && len(up[i]) <= len(d.States); q = d.States[q].Parent {
			up[i] = append(up[i], q)
		}
	}
	return up
}

// has reports whether machine m has a breakpoint.
func (b *breakSet) has(m int) bool {
	return b != nil && m < len(b.byMachine) && len(b.byMachine[m].States)+len(b.byMachine[m].Transitions) > 0
}

// Start serves the viewer on Options.Addr and returns the page's URL,
// which carries the token. It refuses an address other machines reach
// unless Options.Remote is set. The server runs until Close.
func (v *Viewer) Start() (string, error) {
	addr := v.opt.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("viewer: address %q: %w", addr, err)
	}
	if !v.opt.Remote && !loopback(host) {
		return "", fmt.Errorf("viewer: %s is not a loopback address: other machines would see the game's machines (set Options.Remote to mean it)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("viewer: %w", err)
	}
	srv := &http.Server{Handler: v.Handler(), ReadHeaderTimeout: 10 * time.Second}
	if !v.srv.CompareAndSwap(nil, srv) {
		ln.Close()
		return "", errors.New("viewer: Start called twice")
	}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/#token=" + v.token, nil
}

// Close stops the server Start started, and lets a paused game go on.
func (v *Viewer) Close() error {
	v.mu.Lock()
	v.paused, v.closed = false, true
	v.wake.Broadcast()
	v.mu.Unlock()
	if srv := v.srv.Swap(nil); srv != nil {
		return srv.Close()
	}
	return nil
}

// loopback reports whether host names this machine only.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
