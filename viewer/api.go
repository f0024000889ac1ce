package viewer

import (
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fsmforge/fsmforge/machine"
)

//go:embed static
var static embed.FS

// frameView is what the page sees of one frame.
type frameView struct {
	Tick     uint64        `json:"tick"`
	Frame    uint64        `json:"frame"`
	Paused   bool          `json:"paused"`
	Hit      *Hit          `json:"hit,omitempty"`
	Machines []machineView `json:"machines"`
	Agents   []Agent       `json:"agents"`             // the agents the pages follow
	Problems []Problem     `json:"problems,omitempty"` // the errors the game reported
	Reloads  []Reload      `json:"reloads,omitempty"`  // the last new versions of machines shown, oldest first; only when they changed (see events)
	Recorded uint64        `json:"recorded"`           // transitions recorded so far
	// Breaks lists the breakpoints set: each machine's states and
	// transitions.
	Breaks []breaks `json:"breaks"`

	reloaded uint64 // the reloads shown so far
}

// breaks is one machine's breakpoints, in a frame's view.
type breaks struct {
	States      []int `json:"states"`
	Transitions []int `json:"transitions"`
}

// machineView is what a frame's view says of one machine.
type machineView struct {
	Agents    int             `json:"agents"`
	Counts    []int           `json:"counts"`          // agents in each state
	Rates     []machine.Count `json:"rates,omitempty"` // a crowd's transitions in the frame
	Recording bool            `json:"recording"`       // its events are recorded
	Version   int             `json:"version"`         // the version of the machine the game runs (see Viewer.Reloaded)
	Refused   string          `json:"refused,omitempty"`
	since     uint64          // the transitions recorded before the version began
}

// publish makes the view of the frame and wakes the streams, when there
// are any.
func (v *Viewer) publish() {
	if v.streams == 0 {
		return
	}
	fv := &frameView{Tick: v.tick, Frame: v.frames, Paused: v.paused, Hit: v.lastHit, Recorded: v.rec.Total(),
		Machines: make([]machineView, len(v.machines)), Agents: []Agent{}}
	if !v.paused {
		fv.Hit = nil
	}
	for i, e := range v.machines {
		mv := machineView{Agents: e.src.Len(), Counts: make([]int, len(e.desc.States)), Recording: e.record,
			Version: e.version, Refused: e.refused, since: e.since}
		e.src.Counts(mv.Counts)
		if r, ok := e.src.(Rater); ok {
			mv.Rates = r.Transitions(nil)
		}
		fv.Machines[i] = mv
	}
	for p := range v.picks {
		if p.m >= len(v.machines) {
			continue
		}
		var a Agent
		a.reset()
		if v.machines[p.m].src.Agent(p.id, &a) {
			a.Machine = p.m
			fv.Agents = append(fv.Agents, a)
		}
	}
	fv.Problems = append([]Problem(nil), v.problems...)
	fv.Reloads, fv.reloaded = append([]Reload(nil), v.reloads...), v.reloaded
	// The breakpoints' lists are shared with the breakSet, which is
	// never changed, only replaced.
	b := v.bps.Load()
	if b != nil && len(b.byMachine) == len(v.machines) {
		fv.Breaks = b.byMachine
	} else {
		fv.Breaks = make([]breaks, len(v.machines))
		for i := range fv.Breaks {
			fv.Breaks[i] = breaks{States: []int{}, Transitions: []int{}}
			if b != nil && i < len(b.byMachine) {
				fv.Breaks[i] = b.byMachine[i]
			}
		}
	}
	v.view = fv
	close(v.changed)
	v.changed = make(chan struct{})
}

// fresh reports whether fv shows the version of every machine it shows
// that the game runs; v.mu is held. A view is stale when a machine was
// reloaded while no page watched: the next frame's view is the one to
// send.
func (v *Viewer) fresh(fv *frameView) bool {
	for i, mv := range fv.Machines {
		if i < len(v.machines) && mv.Version != v.machines[i].version {
			return false
		}
	}
	return true
}

// current drops from evs, the transitions recorded up to seq, those of a
// machine recorded before the version fv shows: they name an older
// version's states.
func (fv *frameView) current(evs []machine.Event, seq uint64) []machine.Event {
	first := seq - uint64(len(evs))
	out := evs[:0]
	for i, ev := range evs {
		if int(ev.Machine) < len(fv.Machines) && first+uint64(i) < fv.Machines[ev.Machine].since {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// Handler returns the viewer's HTTP handler: the page and its API (see the
// package documentation), for a game that serves it itself. It answers
// only requests addressed to this machine by name (localhost, 127.0.0.1,
// [::1]) unless Options.Remote is set, so that another site cannot reach
// it through a name it points here.
func (v *Viewer) Handler() http.Handler {
	mux := http.NewServeMux()
	files, _ := fs.Sub(static, "static")
	mux.Handle("GET /", http.FileServerFS(files))
	mux.HandleFunc("GET /api/machines", v.listMachines)
	mux.HandleFunc("GET /api/machines/{m}", v.getMachine)
	mux.HandleFunc("GET /api/machines/{m}/agents", v.listAgents)
	mux.HandleFunc("GET /api/machines/{m}/agents/{id}", v.getAgent)
	mux.HandleFunc("GET /api/events", v.events)
	mux.HandleFunc("GET /api/recording", v.recording)
	mux.HandleFunc("POST /api/pause", v.command(func(r *http.Request) error { return v.setPaused(true, 0) }))
	mux.HandleFunc("POST /api/resume", v.command(func(r *http.Request) error { return v.setPaused(false, 0) }))
	mux.HandleFunc("POST /api/step", v.command(func(r *http.Request) error { return v.setPaused(true, 1) }))
	mux.HandleFunc("POST /api/breakpoints", v.command(v.breakpoint))
	mux.HandleFunc("POST /api/post", v.command(v.post))
	mux.HandleFunc("POST /api/record", v.command(v.record))
	mux.HandleFunc("POST /api/hold", v.command(v.hold))
	return v.guard(mux)
}

// guard refuses requests for another host than this machine, unless the
// viewer serves other machines.
func (v *Viewer) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if !v.opt.Remote && !loopback(strings.Trim(host, "[]")) {
			http.Error(w, "viewer: this viewer answers requests for this machine only (localhost, 127.0.0.1)", http.StatusForbidden)
			return
		}
		// A browser names where a request comes from: only the page's own,
		// or a request made by hand (the address bar, a script), may read
		// or drive the game. Another site's page may not, not even blind.
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			http.Error(w, "viewer: a request from another site", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			http.Error(w, "viewer: a request from another origin than the viewer's page", http.StatusForbidden)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// command wraps a command's handler: it needs the token in the header
// X-Fsmforge-Token and, from a browser, a request of the page's own
// origin; a read-only viewer refuses it.
func (v *Viewer) command(f func(r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case v.opt.ReadOnly:
			http.Error(w, "viewer: read-only: commands are refused", http.StatusForbidden)
			return
		case subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Fsmforge-Token")), []byte(v.token)) != 1:
			http.Error(w, "viewer: the command needs the token printed when the viewer started, in the header X-Fsmforge-Token", http.StatusUnauthorized)
			return
		}
		if err := f(r); err != nil {
			status := http.StatusBadRequest
			switch {
			case errors.Is(err, errNoFrame):
				status = http.StatusServiceUnavailable
			case errors.Is(err, errReloaded):
				status = http.StatusConflict
			}
			http.Error(w, err.Error(), status)
			return
		}
		writeJSON(w, map[string]bool{"ok": true})
	}
}

// setPaused pauses or resumes the game; steps frames to run paused.
func (v *Viewer) setPaused(paused bool, steps int) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return errors.New("viewer: closed")
	}
	v.paused, v.steps = paused, steps
	if !paused || steps > 0 {
		v.lastHit = nil
	}
	v.busy.Store(true)
	v.wake.Broadcast()
	return nil
}

// breakpoint sets or clears a breakpoint: {"machine": 0, "state": 3,
// "on": true}, or "transition" instead of "state".
func (v *Viewer) breakpoint(r *http.Request) error {
	var req struct {
		Machine    int    `json:"machine"`
		State      *int32 `json:"state"`
		Transition *int32 `json:"transition"`
		On         bool   `json:"on"`
		Version    int    `json:"version"` // the machine's version the IDs are of; 0: the current one
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	e, err := v.entry(req.Machine)
	if err != nil {
		return err
	}
	if req.Version != 0 && req.Version != e.version {
		return errReloaded
	}
	states, transitions := map[pick]bool{}, map[pick]bool{}
	if old := v.bps.Load(); old != nil {
		states, transitions = maps.Clone(old.states), maps.Clone(old.transitions)
	}
	switch {
	case req.State != nil && *req.State >= 0 && int(*req.State) < len(e.desc.States):
		set(states, pick{req.Machine, uint64(int64(*req.State))}, req.On)
	case req.Transition != nil && *req.Transition >= 0 && int(*req.Transition) < len(e.desc.Transitions):
		set(transitions, pick{req.Machine, uint64(*req.Transition)}, req.On)
	default:
		return fmt.Errorf("viewer: a breakpoint names a state or a transition of machine %d", req.Machine)
	}
	v.bps.Store(newBreakSet(states, transitions, len(v.machines)))
	return nil
}

func set(m map[pick]bool, p pick, on bool) {
	if on {
		m[p] = true
	} else {
		delete(m, p)
	}
}

// post sends a message or event to an agent at the next frame:
// {"machine": 0, "agent": 7, "trigger": 3}.
func (v *Viewer) post(r *http.Request) error {
	return v.agentCommand(r, func(e *entry, agent uint64, trigger int32, _ bool) (func() error, error) {
		p, ok := e.src.(Poster)
		switch {
		case !ok:
			return nil, errNoPost
		case trigger < 0 || int(trigger) >= len(e.desc.Triggers) || e.desc.Triggers[trigger].Kind == machine.TriggerTest:
			return nil, fmt.Errorf("viewer: trigger %d of machine %q is not a message or event", trigger, e.name)
		}
		return func() error { return p.Post(agent, trigger) }, nil
	})
}

// hold makes an agent's polled test hold, or not: {"machine": 0,
// "agent": 0, "trigger": 1, "on": true}.
func (v *Viewer) hold(r *http.Request) error {
	return v.agentCommand(r, func(e *entry, agent uint64, trigger int32, on bool) (func() error, error) {
		h, ok := e.src.(Holder)
		if !ok {
			return nil, errNoHold
		}
		return func() error { return h.Hold(agent, trigger, on) }, nil
	})
}

// agentCommand reads a command to an agent, {"machine", "agent",
// "trigger", "on", "version"}, and runs what prepare makes of it on the
// game's goroutine at the next frame, unless the machine was reloaded in
// the meantime (or since the version the command names).
func (v *Viewer) agentCommand(r *http.Request, prepare func(e *entry, agent uint64, trigger int32, on bool) (func() error, error)) error {
	var req struct {
		Machine int    `json:"machine"`
		Agent   uint64 `json:"agent"`
		Trigger int32  `json:"trigger"`
		On      bool   `json:"on"`
		Version int    `json:"version"` // the machine's version the trigger is of; 0: the current one
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	v.mu.Lock()
	e, err := v.entry(req.Machine)
	var run func() error
	var version int
	switch {
	case err != nil:
	case req.Version != 0 && req.Version != e.version:
		err = errReloaded
	default:
		version = e.version
		run, err = prepare(e, req.Agent, req.Trigger, req.On)
	}
	v.mu.Unlock()
	if err != nil {
		return err
	}
	var rerr error
	if err := v.do(func() { rerr = e.unless(version, run) }, 5*time.Second); err != nil {
		return err
	}
	return rerr
}

// record starts or stops recording a machine's events: {"machine": 0,
// "on": true}.
func (v *Viewer) record(r *http.Request) error {
	var req struct {
		Machine int  `json:"machine"`
		On      bool `json:"on"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	e, err := v.entry(req.Machine)
	if err != nil {
		return err
	}
	e.record = req.On
	v.busy.Store(true)
	return nil
}

// unless runs f, on the game's goroutine, unless e is no more the
// version given, which f was made for.
func (e *entry) unless(version int, f func() error) error {
	if e.version != version {
		return errReloaded
	}
	return f()
}

// entry returns machine m; v.mu is held.
func (v *Viewer) entry(m int) (*entry, error) {
	if m < 0 || m >= len(v.machines) {
		return nil, fmt.Errorf("viewer: no machine %d (there are %d)", m, len(v.machines))
	}
	return v.machines[m], nil
}

// machineInfo is a machine in the list GET /api/machines returns.
type machineInfo struct {
	ID      int    `json:"id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	States  int    `json:"states"`
	Agents  int    `json:"agents"`
	Version int    `json:"version"`           // 1 as added, one more at each Viewer.Reloaded
	Refused string `json:"refused,omitempty"` // why its last new version was refused (Viewer.Refused)
}

func (v *Viewer) listMachines(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	out := make([]machineInfo, len(v.machines))
	for i, e := range v.machines {
		n := 0
		if i < len(v.view.Machines) {
			n = v.view.Machines[i].Agents
		}
		out[i] = machineInfo{ID: i, Name: e.name, Kind: e.desc.Kind.String(), States: len(e.desc.States), Agents: n, Version: e.version, Refused: e.refused}
	}
	v.mu.Unlock()
	writeJSON(w, out)
}

// machineDetail is what GET /api/machines/{m} returns.
type machineDetail struct {
	machineInfo
	Description machine.Description `json:"description"`
	Layout      Layout              `json:"layout"`
	Postable    bool                `json:"postable"`  // it takes messages and events from the page
	Holdable    bool                `json:"holdable"`  // its agents' polled tests hold as the page says (Sim, HoldHost)
	Simulated   bool                `json:"simulated"` // it is a simulated agent (Sim): the page follows agent 0
}

// canHold reports whether s's agents' polled tests hold as the page says.
func canHold(s Source) bool {
	if c, ok := s.(interface{ canHold() bool }); ok {
		return c.canHold()
	}
	_, ok := s.(Holder)
	return ok
}

func (v *Viewer) detail(i int, e *entry) machineDetail {
	_, postable := e.src.(Poster)
	if c, ok := e.src.(interface{ canPost() bool }); ok {
		postable = c.canPost()
	}
	holdable := canHold(e.src)
	_, simulated := e.src.(*Sim)
	return machineDetail{machineInfo: machineInfo{ID: i, Name: e.name, Kind: e.desc.Kind.String(), States: len(e.desc.States), Version: e.version, Refused: e.refused},
		Description: e.desc, Layout: e.layout, Postable: postable, Holdable: holdable, Simulated: simulated}
}

func (v *Viewer) getMachine(w http.ResponseWriter, r *http.Request) {
	e, ok := v.pathEntry(w, r)
	if !ok {
		return
	}
	m, _ := strconv.Atoi(r.PathValue("m"))
	v.mu.Lock()
	d := v.detail(m, e)
	v.mu.Unlock()
	writeJSON(w, d)
}

// listAgents answers GET /api/machines/{m}/agents?state=S&max=N: the IDs
// of up to N (default 100) agents in state S (any state without it).
func (v *Viewer) listAgents(w http.ResponseWriter, r *http.Request) {
	e, ok := v.pathEntry(w, r)
	if !ok {
		return
	}
	v.mu.Lock()
	states, version := len(e.desc.States), e.version
	v.mu.Unlock()
	st := machine.NoState
	if s := r.URL.Query().Get("state"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n >= states {
			http.Error(w, "viewer: state "+strconv.Quote(s)+" is not a state ID of the machine", http.StatusBadRequest)
			return
		}
		st = machine.StateID(n)
	}
	max := 100
	if s := r.URL.Query().Get("max"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			max = min(n, 10000)
		}
	}
	ids := []uint64{}
	var rerr error
	if err := v.do(func() {
		rerr = e.unless(version, func() error { ids = e.src.Agents(st, max, ids); return nil })
	}, 5*time.Second); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	if rerr != nil {
		http.Error(w, rerr.Error(), http.StatusConflict)
		return
	}
	writeJSON(w, ids)
}

func (v *Viewer) getAgent(w http.ResponseWriter, r *http.Request) {
	e, ok := v.pathEntry(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "viewer: agent "+strconv.Quote(r.PathValue("id"))+" is not a number", http.StatusBadRequest)
		return
	}
	var a Agent
	a.reset()
	found := false
	if err := v.do(func() { found = e.src.Agent(id, &a) }, 5*time.Second); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	if !found {
		http.Error(w, fmt.Sprintf("viewer: machine %q has no agent %d", e.name, id), http.StatusNotFound)
		return
	}
	a.Machine, _ = strconv.Atoi(r.PathValue("m"))
	writeJSON(w, a)
}

// pathEntry returns the machine the path names, or answers 404.
func (v *Viewer) pathEntry(w http.ResponseWriter, r *http.Request) (*entry, bool) {
	m, err := strconv.Atoi(r.PathValue("m"))
	v.mu.Lock()
	var e *entry
	if err == nil {
		e, err = v.entry(m)
	} else {
		err = fmt.Errorf("viewer: machine %q is not a number", r.PathValue("m"))
	}
	v.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return nil, false
	}
	return e, true
}

// maxStreamEvents is the most events one message of the stream carries;
// a page that falls further behind reads the rest from the recording.
const maxStreamEvents = 4096

// events streams the frames as server-sent events: each message a JSON
// object, the frame's view with the transitions recorded since the last
// message ("events"), and the list of reloads in the first message and
// whenever it changed. ?watch=0:7&watch=1:3 follows agents: each frame's
// view carries their state; ?since=N starts the events after the first N
// recorded (the recording's total), so that a page that read the recording
// misses none.
func (v *Viewer) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "viewer: streaming unsupported", http.StatusInternalServerError)
		return
	}
	var picks []pick
	watch := r.URL.Query()["watch"]
	if len(watch) > maxPicks {
		http.Error(w, fmt.Sprintf("viewer: %d agents to follow; a stream follows %d at most", len(watch), maxPicks), http.StatusBadRequest)
		return
	}
	v.mu.Lock()
	n := len(v.machines)
	v.mu.Unlock()
	for _, s := range watch {
		ms, ids, ok := strings.Cut(s, ":")
		m, err1 := strconv.Atoi(ms)
		id, err2 := strconv.ParseUint(ids, 10, 64)
		if !ok || err1 != nil || err2 != nil || m < 0 || m >= n {
			http.Error(w, "viewer: watch="+strconv.Quote(s)+": want MACHINE:AGENT, a machine's number and an agent's", http.StatusBadRequest)
			return
		}
		picks = append(picks, pick{m, id})
	}
	v.mu.Lock()
	if v.streams >= maxStreams {
		v.mu.Unlock()
		http.Error(w, fmt.Sprintf("viewer: %d pages watch already", maxStreams), http.StatusServiceUnavailable)
		return
	}
	v.streams++
	for _, p := range picks {
		v.picks[p]++
	}
	v.busy.Store(true)
	v.wake.Broadcast()
	ch, fv := v.changed, v.view
	v.mu.Unlock()
	defer v.closeStream(picks)

	w.Header().Set("Content-Type", "text/event-stream")
	seq := v.rec.Total()
	since := r.URL.Query().Get("since")
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		since = id // the browser reconnects: on from the last message it got
	}
	if n, err := strconv.ParseUint(since, 10, 64); err == nil && n < seq {
		seq = n // the page read the recording up to there
	}
	var evs []machine.Event
	var reloaded uint64 // the reloads the stream sent
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	// send sends the latest frame's view with the transitions recorded
	// since the last message, read together under v.mu, so that a reload
	// (applied under it) falls between two messages: the transitions a
	// message carries are all of the versions its view shows. A view
	// older than a reload is not sent: the next frame's is.
	send := func() bool {
		v.mu.Lock()
		ch, fv = v.changed, v.view
		if !v.fresh(fv) {
			v.mu.Unlock()
			return true
		}
		if total := v.rec.Total(); total > seq && total-seq > maxStreamEvents {
			seq = total - maxStreamEvents
		}
		evs, seq = v.rec.Since(seq, evs[:0])
		v.mu.Unlock()
		evs = fv.current(evs, seq)
		msg := fv
		if fv.reloaded == reloaded {
			cp := *fv
			cp.Reloads = nil // sent already
			msg = &cp
		}
		reloaded = fv.reloaded
		b, err := json.Marshal(struct {
			*frameView
			Events []machine.Event `json:"events"`
			Seq    uint64          `json:"seq"` // transitions recorded up to the last of Events: ?since= for a new stream
		}{msg, evs, seq})
		if err != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", seq, b); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	if !send() {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			fl.Flush()
			continue
		case <-ch:
		}
		if !send() {
			return
		}
	}
}

// closeStream forgets a stream and the agents it followed; with the last
// stream gone, a paused game goes on.
func (v *Viewer) closeStream(picks []pick) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.streams--
	for _, p := range picks {
		if v.picks[p]--; v.picks[p] <= 0 {
			delete(v.picks, p)
		}
	}
	if v.streams == 0 && !v.opt.Paused {
		// The page may be reconnecting (it follows another agent, or its
		// connection broke): a paused game goes on only if no page comes
		// back within resumeAfter.
		v.gen++
		gen := v.gen
		time.AfterFunc(resumeAfter, func() {
			v.mu.Lock()
			defer v.mu.Unlock()
			if v.streams == 0 && v.gen == gen {
				v.paused, v.lastHit = false, nil
				v.wake.Broadcast()
			}
		})
	}
}

// How many pages may watch at once, how many agents each may follow, and
// how long a paused game waits for a page that left to come back.
const (
	maxStreams  = 16
	maxPicks    = 16
	resumeAfter = 2 * time.Second
)

// Recording is a flight recording: the machines, as GET /api/machines/{m}
// gives each, and the transitions recorded, oldest first. GET
// /api/recording returns it, and `fsmforge view -recording FILE` opens one
// saved to a file.
type Recording struct {
	Machines []machineDetail `json:"machines"`
	Events   []machine.Event `json:"events"`
	Total    uint64          `json:"total"` // transitions recorded in all, the ring's included
}

func (v *Viewer) recording(w http.ResponseWriter, r *http.Request) {
	// The transitions first, then the machines: a machine reloaded in
	// between has its transitions, all recorded before, left out below.
	var rec Recording
	rec.Events, rec.Total = v.rec.Since(0, nil)
	v.mu.Lock()
	since := make([]uint64, len(v.machines))
	for i, e := range v.machines {
		rec.Machines = append(rec.Machines, v.detail(i, e))
		since[i] = e.since
	}
	v.mu.Unlock()
	first := rec.Total - uint64(len(rec.Events))
	kept := rec.Events[:0]
	for i, ev := range rec.Events {
		if int(ev.Machine) >= len(since) || first+uint64(i) >= since[ev.Machine] {
			kept = append(kept, ev)
		}
	}
	rec.Events = kept
	// ?machine=M&last=N: the last N transitions of machine M only, what a
	// page opening shows of the past.
	if m, err := strconv.Atoi(r.URL.Query().Get("machine")); err == nil {
		rec.Events = slices.DeleteFunc(rec.Events, func(ev machine.Event) bool { return int(ev.Machine) != m })
	}
	if n, err := strconv.Atoi(r.URL.Query().Get("last")); err == nil && n >= 0 && n < len(rec.Events) {
		rec.Events = rec.Events[len(rec.Events)-n:]
	}
	if rec.Events == nil {
		rec.Events = []machine.Event{}
	}
	w.Header().Set("Content-Disposition", `attachment; filename="recording.json"`)
	writeJSON(w, rec)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// readJSON decodes a command's body, at most 64 KiB of it.
func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("viewer: the command's body: %v", err)
	}
	return nil
}
