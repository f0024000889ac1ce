package viewer_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/diag"
	crowddemo "github.com/fsmforge/fsmforge/examples/crowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/message"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// walker is a goomba of the tests: it turns at its triggers, which it
// reaches every few frames, and dies when hit.
type walker struct{ x, dir, span int }

type world struct{}

func (world) Test(w *walker, t table.TestID) bool {
	switch t {
	case 0:
		return w.x <= -w.span
	case 1:
		return w.x >= w.span
	}
	return false
}

func (world) Do(w *walker, p table.PropertyID, v table.ValueID) {
	if p == 0 {
		w.dir = map[table.ValueID]int{0: -1, 1: 1, 2: 0}[v]
	}
}

// goomba builds the table: walkLeft and walkRight turn at their triggers,
// the message hit sends either to dying.
func goomba(t testing.TB) *table.Table {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "left", "right", "death")
	left, right := b.AddTest("hitLeft", ""), b.AddTest("hitRight", "")
	hit := b.AddMessage("hit", "")
	wl := b.AddState("walkLeft", b.Action("XMovement", "left"))
	wr := b.AddState("walkRight", b.Action("XMovement", "right"))
	dy := b.AddState("dying", b.Action("XMovement", "death"))
	// The message first: an update that turns clears the messages it saw.
	b.AddTransition(table.Transition{From: wl, Test: hit, To: dy})
	b.AddTransition(table.Transition{From: wl, Test: left, To: wr})
	b.AddTransition(table.Transition{From: wr, Test: hit, To: dy})
	b.AddTransition(table.Transition{From: wr, Test: right, To: wl})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// game is a level of walkers run frame by frame on its own goroutine, as
// a game loop runs, with the viewer's Frame at each frame's start.
type game struct {
	t      *table.Table
	ws     []walker
	agents []table.Agent[*walker]
	v      *viewer.Viewer
	mu     sync.Mutex // guards frames, for the test to read
	frames int
	// boundary takes work for the game's goroutine at its next frame
	// boundary, before Frame (see atBoundary).
	boundary chan func()
}

func newGame(t testing.TB, n int, opt viewer.Options) *game {
	g := &game{t: goomba(t), ws: make([]walker, n), v: viewer.New(opt), boundary: make(chan func())}
	g.agents = make([]table.Agent[*walker], n)
	for i := range g.ws {
		g.ws[i] = walker{span: 2 + i%3}
		g.agents[i] = table.NewAgent(g.t, &g.ws[i], world{})
	}
	g.v.Add("goombas", viewer.TableAgents(g.t, viewer.Each(&g.agents)), nil)
	return g
}

// run runs frames until ctx ends.
func (g *game) run(ctx context.Context) {
	for tick := uint64(0); ctx.Err() == nil; tick++ {
		select {
		case f := <-g.boundary:
			f()
		default:
		}
		g.v.Frame(tick)
		g.update()
		g.mu.Lock()
		g.frames++
		g.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
}

// update moves the walkers and updates their agents.
func (g *game) update() {
	for i := range g.agents {
		g.ws[i].x += g.ws[i].dir
		g.agents[i].Update(world{})
	}
}

// atBoundary runs f on the game's goroutine at its next frame boundary,
// before Frame, where a game reloads its drawings, and waits for it.
func (g *game) atBoundary(f func()) {
	done := make(chan struct{})
	g.boundary <- func() { f(); close(done) }
	<-done
}

func (g *game) frameCount() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.frames
}

// frame is what the tests read of a frame of /api/events.
type frame struct {
	Tick     uint64 `json:"tick"`
	Paused   bool   `json:"paused"`
	Machines []struct {
		Agents  int    `json:"agents"`
		Counts  []int  `json:"counts"`
		Version int    `json:"version"`
		Refused string `json:"refused"`
	} `json:"machines"`
	Agents  []viewer.Agent  `json:"agents"`
	Events  []machine.Event `json:"events"`
	Hit     *viewer.Hit     `json:"hit"`
	Reloads []viewer.Reload `json:"reloads"`
	Breaks  []struct {
		States      []int `json:"states"`
		Transitions []int `json:"transitions"`
	} `json:"breaks"`
}

// stream reads the frames of /api/events?query into a channel.
func stream(t *testing.T, ctx context.Context, url string) <-chan frame {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	ch := make(chan frame, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var f frame
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				t.Errorf("a frame does not decode: %v\n%s", err, line)
				return
			}
			select {
			case ch <- f:
			default: // the test reads what it needs
			}
		}
	}()
	return ch
}

// next returns the next frame that satisfies ok, failing after 10 s.
func next(t *testing.T, ch <-chan frame, what string, ok func(f frame) bool) frame {
	t.Helper()
	timeout := time.After(10 * time.Second)
	var last frame
	for {
		select {
		case f, open := <-ch:
			if !open {
				t.Fatalf("the stream ended waiting for %s", what)
			}
			if ok(f) {
				return f
			}
			last = f
		case <-timeout:
			t.Fatalf("no frame with %s in 10 s; the last: %+v", what, last)
		}
	}
}

func post(t *testing.T, url, token, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("X-Fsmforge-Token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %s: %s", url, resp.Status, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func TestAPI(t *testing.T) {
	g := newGame(t, 12, viewer.Options{})
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.run(ctx)

	var list []struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		Kind   string `json:"kind"`
		States int    `json:"states"`
	}
	getJSON(t, srv.URL+"/api/machines", &list)
	if len(list) != 1 || list[0].Name != "goombas" || list[0].Kind != "table" || list[0].States != 3 {
		t.Fatalf("GET /api/machines = %+v", list)
	}
	var detail struct {
		Description machine.Description `json:"description"`
		Layout      viewer.Layout       `json:"layout"`
		Postable    bool                `json:"postable"`
	}
	getJSON(t, srv.URL+"/api/machines/0", &detail)
	if len(detail.Layout.States) != 3 || detail.Layout.From != "layout" || !detail.Postable || detail.Description.States[2].Name != "dying" {
		t.Fatalf("GET /api/machines/0 = %+v", detail)
	}
	for i, b := range detail.Layout.States {
		if b.W <= 0 || b.H <= 0 {
			t.Errorf("state %d has no box: %+v", i, b)
		}
	}

	ch := stream(t, ctx, srv.URL+"/api/events?watch=0:4")
	f := next(t, ch, "agent 4 and events", func(f frame) bool { return len(f.Agents) == 1 && len(f.Events) > 0 })
	if f.Agents[0].ID != 4 || f.Machines[0].Agents != 12 {
		t.Errorf("frame follows %+v of %d agents, want agent 4 of 12", f.Agents, f.Machines[0].Agents)
	}
	if n := f.Machines[0].Counts[0] + f.Machines[0].Counts[1] + f.Machines[0].Counts[2]; n != 12 {
		t.Errorf("counts %v add up to %d, want 12", f.Machines[0].Counts, n)
	}

	// Commands need the token.
	if r := post(t, srv.URL+"/api/pause", "", ""); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("pause without the token: %s, want 401", r.Status)
	}
	// Send agent 4 the message hit: it dies at the next update.
	if r := post(t, srv.URL+"/api/post", g.v.Token(), `{"machine":0,"agent":4,"trigger":2}`); r.StatusCode != 200 {
		t.Fatalf("post: %s", r.Status)
	}
	next(t, ch, "agent 4 dying", func(f frame) bool { return len(f.Agents) == 1 && f.Agents[0].State == 2 })

	// Pause: the game stops at its next frame; a step runs exactly one.
	if r := post(t, srv.URL+"/api/pause", g.v.Token(), ""); r.StatusCode != 200 {
		t.Fatalf("pause: %s", r.Status)
	}
	paused := next(t, ch, "paused", func(f frame) bool { return f.Paused })
	time.Sleep(50 * time.Millisecond)
	at := g.frameCount()
	time.Sleep(50 * time.Millisecond)
	if g.frameCount() != at {
		t.Fatalf("the game ran %d frames while paused", g.frameCount()-at)
	}
	post(t, srv.URL+"/api/step", g.v.Token(), "")
	stepped := next(t, ch, "the next tick", func(f frame) bool { return f.Tick > paused.Tick })
	if stepped.Tick != paused.Tick+1 || !stepped.Paused {
		t.Errorf("a step went from tick %d to %d (paused %v), want one tick, paused", paused.Tick, stepped.Tick, stepped.Paused)
	}
	post(t, srv.URL+"/api/resume", g.v.Token(), "")
	next(t, ch, "running", func(f frame) bool { return !f.Paused && f.Tick > stepped.Tick+2 })

	// A breakpoint on walkRight pauses the game when an agent enters it.
	if r := post(t, srv.URL+"/api/breakpoints", g.v.Token(), `{"machine":0,"state":1,"on":true}`); r.StatusCode != 200 {
		t.Fatalf("breakpoint: %s", r.Status)
	}
	hit := next(t, ch, "a breakpoint hit", func(f frame) bool { return f.Paused && f.Hit != nil })
	if hit.Hit.State != 1 || hit.Hit.Machine != 0 {
		t.Errorf("hit = %+v, want machine 0 entering state 1", *hit.Hit)
	}
	var a viewer.Agent
	getJSON(t, srv.URL+"/api/machines/0/agents/"+itoa(hit.Hit.Agent), &a)
	if a.State != 1 {
		t.Errorf("the agent that hit the breakpoint is in state %d, want 1 (walkRight)", a.State)
	}
	var ids []uint64
	getJSON(t, srv.URL+"/api/machines/0/agents?state=2", &ids)
	if len(ids) != 1 || ids[0] != 4 {
		t.Errorf("agents in dying = %v, want [4]", ids)
	}
	post(t, srv.URL+"/api/breakpoints", g.v.Token(), `{"machine":0,"state":1,"on":false}`)
	post(t, srv.URL+"/api/resume", g.v.Token(), "")
	next(t, ch, "running again", func(f frame) bool { return !f.Paused })

	var rec viewer.Recording
	getJSON(t, srv.URL+"/api/recording", &rec)
	if len(rec.Machines) != 1 || len(rec.Events) == 0 || rec.Total < uint64(len(rec.Events)) {
		t.Errorf("recording: %d machines, %d events of %d", len(rec.Machines), len(rec.Events), rec.Total)
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// TestSecurity checks what the viewer refuses: requests for another host,
// commands without the token or from another origin, and every command
// of a read-only viewer; and that Start refuses an address other machines
// reach.
func TestSecurity(t *testing.T) {
	g := newGame(t, 2, viewer.Options{})
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/api/machines", nil)
	req.Host = "evil.example:80"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a request for another host: %v, %v, want 403", resp.Status, err)
	}
	req, _ = http.NewRequest("POST", srv.URL+"/api/resume", nil)
	req.Header.Set("X-Fsmforge-Token", g.v.Token())
	req.Header.Set("Origin", "http://evil.example")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a command from another origin: %v, %v, want 403", resp.Status, err)
	}
	if r := post(t, srv.URL+"/api/resume", "wrong", ""); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token: %s, want 401", r.Status)
	}
	ro := newGame(t, 2, viewer.Options{ReadOnly: true})
	rsrv := httptest.NewServer(ro.v.Handler())
	defer rsrv.Close()
	if r := post(t, rsrv.URL+"/api/pause", ro.v.Token(), ""); r.StatusCode != http.StatusForbidden {
		t.Errorf("pause on a read-only viewer: %s, want 403", r.Status)
	}
	if _, err := viewer.New(viewer.Options{Addr: "0.0.0.0:0"}).Start(); err == nil || !strings.Contains(err.Error(), "Options.Remote") {
		t.Errorf("Start on 0.0.0.0 = %v, want a refusal naming Options.Remote", err)
	}
	v := viewer.New(viewer.Options{})
	url, err := v.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/#token="+v.Token()) || len(v.Token()) != 32 {
		t.Errorf("Start = %q, token %q", url, v.Token())
	}
}

// TestNobodyWatching checks that with no page open, Frame does nothing and
// the agents carry no observer.
func TestNobodyWatching(t *testing.T) {
	g := newGame(t, 3, viewer.Options{})
	for tick := range uint64(5) {
		g.v.Frame(tick)
	}
	for i := range g.agents {
		if o, _ := g.agents[i].Observer(); o != nil {
			t.Errorf("agent %d is observed with no page watching", i)
		}
	}
	if n := testing.AllocsPerRun(100, func() { g.v.Frame(1) }); n != 0 {
		t.Errorf("Frame allocates %v times with nobody watching", n)
	}
}

// TestWithTelegrams checks that an agent's view lists the telegrams a
// dispatcher holds for it, with the time left.
func TestWithTelegrams(t *testing.T) {
	d := message.NewDispatcher[uint8, string](message.DispatcherOptions{})
	d.Register(0, func(message.Telegram[uint8, string]) bool { return true })
	d.Register(1, func(message.Telegram[uint8, string]) bool { return true })
	d.SetTime(10)
	if err := d.Dispatch(1.5, 0, 1, "StewReady", nil); err != nil {
		t.Fatal(err)
	}
	src := &viewer.Custom{Description: goomba(t).Describe(), N: func() int { return 2 }, State: func(int) machine.StateID { return 0 }}
	s := viewer.WithTelegrams(src, d, func(id uint8) uint64 { return uint64(id) })
	var a viewer.Agent
	if !s.Agent(1, &a) || len(a.Telegrams) != 1 || a.Telegrams[0] != (viewer.Telegram{Msg: "StewReady", From: 0, Due: 11.5, Left: 1.5}) {
		t.Errorf("agent 1's telegrams = %+v, want StewReady from 0, due 11.5, in 1.5 s", a.Telegrams)
	}
	a = viewer.Agent{}
	if !s.Agent(0, &a) || len(a.Telegrams) != 0 {
		t.Errorf("agent 0's telegrams = %+v, want none", a.Telegrams)
	}
}

// TestHoldHost makes a running agent's test hold from the viewer: the
// walker turns right at once, away from its trigger.
func TestHoldHost(t *testing.T) {
	tb := goomba(t)
	ws := []walker{{span: 100}, {span: 100}}
	var agents []table.Agent[*walker]
	src := viewer.TableAgents(tb, viewer.Each(&agents))
	h := viewer.HoldHost[*walker](src, world{})
	for i := range ws {
		agents = append(agents, table.NewAgent(tb, &ws[i], h))
	}
	holder := src.(viewer.Holder)
	if err := holder.Hold(0, 0, true); err != nil { // hitLeft, for walker 0
		t.Fatal(err)
	}
	if err := holder.Hold(0, 2, true); err == nil {
		t.Error("Hold of a message succeeded")
	}
	for i := range agents {
		agents[i].Update(h)
	}
	if agents[0].Name() != "walkRight" || agents[1].Name() != "walkLeft" {
		t.Errorf("after holding hitLeft for walker 0: %s and %s, want walkRight and walkLeft", agents[0].Name(), agents[1].Name())
	}
	var a viewer.Agent
	src.Agent(0, &a)
	if len(a.Holding) != 1 || a.Holding[0] != 0 {
		t.Errorf("agent 0 holds %v, want [0]", a.Holding)
	}
	holder.Hold(0, 0, false)
	a = viewer.Agent{}
	src.Agent(0, &a)
	if len(a.Holding) != 0 {
		t.Errorf("after letting go, agent 0 holds %v", a.Holding)
	}
	if err := viewer.TableAgents(tb, viewer.Each(&agents)).(viewer.Holder).Hold(0, 0, true); err == nil {
		t.Error("Hold without a HoldHost succeeded")
	}
}

// TestStreamLimits checks what an event stream refuses: a machine that is
// not one, too many agents to follow, a request from another site.
func TestStreamLimits(t *testing.T) {
	g := newGame(t, 2, viewer.Options{})
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	many := strings.Repeat("&watch=0:1", 17)
	for _, tt := range []struct {
		query  string
		header string
		want   int
	}{
		{"?watch=-1:0", "", http.StatusBadRequest},
		{"?watch=1:0", "", http.StatusBadRequest},
		{"?x=1" + many, "", http.StatusBadRequest},
		{"", "cross-site", http.StatusForbidden},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/events"+tt.query, nil)
		if tt.header != "" {
			req.Header.Set("Sec-Fetch-Site", tt.header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("GET /api/events%s (%s): %s, want %d", tt.query, tt.header, resp.Status, tt.want)
		}
	}
}

// TestReconnectWhilePaused checks that a page that reconnects (to follow
// another agent) leaves a paused game paused.
func TestReconnectWhilePaused(t *testing.T) {
	g := newGame(t, 3, viewer.Options{})
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.run(ctx)
	sctx, stop := context.WithCancel(ctx)
	ch := stream(t, sctx, srv.URL+"/api/events")
	post(t, srv.URL+"/api/pause", g.v.Token(), "")
	next(t, ch, "paused", func(f frame) bool { return f.Paused })
	stop() // the page closes its stream...
	time.Sleep(100 * time.Millisecond)
	ch = stream(t, ctx, srv.URL+"/api/events?watch=0:2") // ...and opens another
	at := g.frameCount()
	time.Sleep(2500 * time.Millisecond) // past the grace
	if g.frameCount() != at {
		t.Errorf("the game ran %d frames after the page reconnected; want it paused", g.frameCount()-at)
	}
	post(t, srv.URL+"/api/resume", g.v.Token(), "")
	next(t, ch, "running", func(f frame) bool { return !f.Paused })
}

// TestCommandTimeout checks that a command the game never reached a frame
// for is dropped, not run later.
func TestCommandTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 5 s")
	}
	g := newGame(t, 2, viewer.Options{})
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	if r := post(t, srv.URL+"/api/post", g.v.Token(), `{"machine":0,"agent":1,"trigger":2}`); r.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("post with no frame: %s, want 503", r.Status)
	}
	g.v.Frame(1)
	var s table.Snapshot
	g.agents[1].Snapshot(&s)
	if len(s.Posted) != 0 {
		t.Errorf("the command that timed out was run at the next frame: posted %v", s.Posted)
	}
}

// TestCrowdBreakpoint checks that a breakpoint stops a crowd, whose
// events are not recorded unless asked.
func TestCrowdBreakpoint(t *testing.T) {
	m, err := crowddemo.New(2000, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	v := viewer.New(viewer.Options{})
	v.Add("horde", viewer.Crowd(m), nil)
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for tick := uint64(0); ctx.Err() == nil; tick++ {
			v.Frame(tick)
			m.Step()
			time.Sleep(time.Millisecond)
		}
	}()
	defer v.Close()
	ch := stream(t, ctx, srv.URL+"/api/events")
	if r := post(t, srv.URL+"/api/breakpoints", v.Token(), `{"machine":0,"state":2,"on":true}`); r.StatusCode != 200 {
		t.Fatalf("breakpoint: %s", r.Status)
	}
	f := next(t, ch, "the breakpoint", func(f frame) bool { return f.Paused && f.Hit != nil })
	if f.Hit.State != 2 {
		t.Errorf("hit = %+v, want state 2", *f.Hit)
	}
	if len(f.Events) != 0 {
		t.Errorf("the crowd's events were recorded (%d) with no one asking", len(f.Events))
	}
	post(t, srv.URL+"/api/resume", v.Token(), "")
}

// walkers builds a version of the goomba's table with the states named,
// in that order (so that their IDs change from version to version):
// walkLeft (the initial state) and walkRight turn at their triggers, the
// message hit sends either to dying, the message stun sends walkLeft to
// stunned. A state of another name is a state of nothing.
func walkers(t testing.TB, states ...string) *table.Table {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "left", "right", "death")
	left, right := b.AddTest("hitLeft", ""), b.AddTest("hitRight", "")
	has := func(name string) bool { return slices.Contains(states, name) }
	var hit, stun table.TestID
	if has("dying") {
		hit = b.AddMessage("hit", "")
	}
	if has("stunned") {
		stun = b.AddMessage("stun", "")
	}
	id := map[string]table.StateID{}
	for _, s := range states {
		switch s {
		case "walkLeft":
			id[s] = b.AddState(s, b.Action("XMovement", "left"))
		case "walkRight":
			id[s] = b.AddState(s, b.Action("XMovement", "right"))
		case "dying":
			id[s] = b.AddState(s, b.Action("XMovement", "death"))
		default:
			id[s] = b.AddState(s)
		}
	}
	wl, wr := id["walkLeft"], id["walkRight"]
	b.SetInitial(wl)
	if has("dying") {
		b.AddTransition(table.Transition{From: wl, Test: hit, To: id["dying"]})
	}
	if has("stunned") {
		b.AddTransition(table.Transition{From: wl, Test: stun, To: id["stunned"]})
	}
	b.AddTransition(table.Transition{From: wl, Test: left, To: wr})
	if has("dying") {
		b.AddTransition(table.Transition{From: wr, Test: hit, To: id["dying"]})
	}
	b.AddTransition(table.Transition{From: wr, Test: right, To: wl})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// misfit says what of ev a machine d describes has not: a state, or a
// transition between its states on its trigger; "" when ev fits.
func misfit(d *machine.Description, ev machine.Event) string {
	n := machine.StateID(len(d.States))
	switch {
	case ev.From < 0 || ev.From >= n:
		return fmt.Sprintf("from %d: %d states", ev.From, n)
	case ev.To < machine.Final || ev.To >= n:
		return fmt.Sprintf("to %d: %d states", ev.To, n)
	case ev.Transition < 0:
		return ""
	case int(ev.Transition) >= len(d.Transitions):
		return fmt.Sprintf("transition %d: %d transitions", ev.Transition, len(d.Transitions))
	}
	tr := d.Transitions[ev.Transition]
	if tr.From != ev.From || !slices.Contains(tr.To, ev.To) || tr.Trigger != ev.Trigger {
		return fmt.Sprintf("transition %d is %d→%v on %d", ev.Transition, tr.From, tr.To, tr.Trigger)
	}
	return ""
}

// transition returns the index of d's transition from the state named
// from on the trigger named trigger, or -1.
func transition(d *machine.Description, from, trigger string) int {
	for k, tr := range d.Transitions {
		if d.States[tr.From].Name == from && tr.Trigger >= 0 && d.Triggers[tr.Trigger].Name == trigger {
			return k
		}
	}
	return -1
}

// TestReloaded moves a running game's agents onto a new version of their
// table, with more states or fewer, each renumbered: the page's API gives
// the new description and version from the frame of the reload on, the
// transitions of each frame and of the recording are all of the version
// the frame or recording describes, the breakpoints whose state or
// transition is still there are kept with their new IDs, the agent
// followed is still followed, and the reload is listed.
func TestReloaded(t *testing.T) {
	for _, tt := range []struct {
		name   string
		states []string
		keep   bool // the breakpoints, on dying and on walkRight's hit, are kept
	}{
		{"more", []string{"stunned", "walkLeft", "walkRight", "dying"}, true},
		{"fewer", []string{"walkRight", "walkLeft"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, 12, viewer.Options{})
			srv := httptest.NewServer(g.v.Handler())
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go g.run(ctx)
			old := g.t.Describe()
			ch := stream(t, ctx, srv.URL+"/api/events?watch=0:4")
			// Breakpoints on what no walker reaches: dying, and walkRight's hit.
			hit := transition(&old, "walkRight", "hit")
			for _, body := range []string{`{"machine":0,"state":2,"on":true}`, `{"machine":0,"transition":` + strconv.Itoa(hit) + `,"on":true}`} {
				if r := post(t, srv.URL+"/api/breakpoints", g.v.Token(), body); r.StatusCode != 200 {
					t.Fatalf("breakpoint %s: %s", body, r.Status)
				}
			}
			seen := 0
			next(t, ch, "transitions of version 1", func(f frame) bool {
				for _, ev := range f.Events {
					if why := misfit(&old, ev); why != "" {
						t.Errorf("version 1's frame has transition %+v: %s", ev, why)
					}
				}
				seen += len(f.Events)
				return seen >= 5 && len(f.Breaks) == 1 && len(f.Breaks[0].Transitions) == 1
			})

			nt := walkers(t, tt.states...)
			var report string
			g.atBoundary(func() {
				// Transitions of version 1 that no frame has sent yet.
				for range 4 {
					g.update()
				}
				mp, err := table.Reload(nt, g.agents, "")
				if err != nil {
					t.Error(err)
					return
				}
				report = "goomba.vdx reloaded\n" + mp.String()
				g.v.Reloaded(0, viewer.TableAgents(nt, viewer.Each(&g.agents)), nil, report)
			})
			nd := nt.Describe()

			// The frames up to the reload are version 1's, the rest
			// version 2's; each frame's transitions are its version's.
			var first frame
			seen = 0
			next(t, ch, "transitions of version 2", func(f frame) bool {
				d := &old
				if f.Machines[0].Version == 2 {
					d = &nd
					if first.Machines == nil {
						first = f
					}
					seen += len(f.Events)
				} else if first.Machines != nil {
					t.Errorf("a frame of version %d after version 2's", f.Machines[0].Version)
				}
				for _, ev := range f.Events {
					if why := misfit(d, ev); why != "" {
						t.Errorf("version %d's frame has transition %+v: %s", f.Machines[0].Version, ev, why)
					}
				}
				return seen >= 5
			})
			if got := len(first.Machines[0].Counts); got != len(nd.States) {
				t.Errorf("the first frame of version 2 counts %d states, want %d", got, len(nd.States))
			}
			sum := 0
			for _, n := range first.Machines[0].Counts {
				sum += n
			}
			if sum != 12 {
				t.Errorf("version 2's counts %v add up to %d, want 12", first.Machines[0].Counts, sum)
			}
			if len(first.Agents) != 1 || first.Agents[0].ID != 4 || nd.StateName(first.Agents[0].State) == "" {
				t.Errorf("version 2's first frame follows %+v, want agent 4 in a state of version 2", first.Agents)
			}
			if len(first.Reloads) != 1 || first.Reloads[0] != (viewer.Reload{Tick: first.Reloads[0].Tick, Machine: 0, Name: "goombas", Version: 2, Report: strings.TrimSpace(report)}) || first.Reloads[0].Tick > first.Tick {
				t.Errorf("reloads = %+v, want goombas's version 2 with the report %q, at tick %d at the latest", first.Reloads, report, first.Tick)
			}
			var wantStates, wantTransitions []int
			if tt.keep {
				q, _ := nd.LookupState("dying")
				wantStates, wantTransitions = []int{int(q)}, []int{transition(&nd, "walkRight", "hit")}
			}
			if b := first.Breaks[0]; !slices.Equal(b.States, wantStates) || !slices.Equal(b.Transitions, wantTransitions) {
				t.Errorf("breakpoints after the reload: states %v, transitions %v; want %v, %v", b.States, b.Transitions, wantStates, wantTransitions)
			}

			var list []struct {
				States  int `json:"states"`
				Version int `json:"version"`
			}
			getJSON(t, srv.URL+"/api/machines", &list)
			if len(list) != 1 || list[0].States != len(nd.States) || list[0].Version != 2 {
				t.Errorf("GET /api/machines = %+v, want %d states, version 2", list, len(nd.States))
			}
			var detail struct {
				Version     int                 `json:"version"`
				Description machine.Description `json:"description"`
				Layout      viewer.Layout       `json:"layout"`
			}
			getJSON(t, srv.URL+"/api/machines/0", &detail)
			a, _ := json.Marshal(detail.Description)
			b, _ := json.Marshal(nd)
			if detail.Version != 2 || !bytes.Equal(a, b) || len(detail.Layout.States) != len(nd.States) || len(detail.Layout.Labels) != len(nd.Transitions) {
				t.Errorf("GET /api/machines/0 = version %d, %s, %d boxes; want version 2, %s, %d boxes", detail.Version, a, len(detail.Layout.States), b, len(nd.States))
			}

			// The recording describes version 2, and holds its transitions only.
			resp, err := http.Get(srv.URL + "/api/recording")
			if err != nil {
				t.Fatal(err)
			}
			rec, err := viewer.ReadRecording(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Machines[0].Version != 2 || len(rec.Events) == 0 {
				t.Errorf("the recording: version %d, %d transitions; want version 2's", rec.Machines[0].Version, len(rec.Events))
			}
			for _, ev := range rec.Events {
				if why := misfit(&rec.Machines[0].Description, ev); why != "" {
					t.Errorf("the recording has transition %+v: %s", ev, why)
				}
			}

			// A command for version 1's IDs is refused.
			if r := post(t, srv.URL+"/api/breakpoints", g.v.Token(), `{"machine":0,"state":0,"on":true,"version":1}`); r.StatusCode != http.StatusConflict {
				t.Errorf("a breakpoint for version 1: %s, want 409", r.Status)
			}
		})
	}
}

// saysAll is an error that lists its diagnostics itself, as package
// reload's do.
type saysAll struct{ diag.List }

func (saysAll) Error() string {
	return "goomba.vdx: does not compile (2 errors)\n\tgoomba.vdx:41:7: ..."
}
func (e saysAll) Unwrap() error { return e.List }

// TestRefused shows a refused drawing's errors in the page's JSON, each
// with its position and hint, until the next version or a nil error.
func TestRefused(t *testing.T) {
	list := diag.List{
		{Pos: diag.Pos{File: "goomba.vdx", Line: 41, Col: 7}, Message: `compile: state "walkLeft" has two transitions on hitLeft`, Hint: "remove one, or give one a condition"},
		{Pos: diag.Pos{File: "goomba.vdx", Line: 60, Col: 3}, Severity: diag.Warning, Message: "visio: a shape with no text"},
		{Pos: diag.Pos{File: "goomba.vdx", Line: 75, Col: 1}, Message: "compile: no initial state"},
	}
	v := viewer.New(viewer.Options{})
	v.Add("goombas", viewer.TableAgents(goomba(t), viewer.Each(&[]table.Agent[*walker]{})), nil)
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"an error", errors.New("reload: goomba.vdx: unexpected EOF"), "reload: goomba.vdx: unexpected EOF"},
		{"a list", list, "goomba.vdx:41:7: compile: state \"walkLeft\" has two transitions on hitLeft\n\thint: remove one, or give one a condition\ngoomba.vdx:75:1: compile: no initial state"},
		{"a list wrapped", fmt.Errorf("reload: goomba.vdx: %w", list), "reload: goomba.vdx:\ngoomba.vdx:41:7: compile: state \"walkLeft\" has two transitions on hitLeft\n\thint: remove one, or give one a condition\ngoomba.vdx:75:1: compile: no initial state"},
		{"a list its error lists", saysAll{list}, "goomba.vdx: does not compile (2 errors)\n\tgoomba.vdx:41:7: ..."},
		{"nil", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v.Refused(0, tt.err)
			var list []struct {
				Refused string `json:"refused"`
			}
			getJSON(t, srv.URL+"/api/machines", &list)
			if list[0].Refused != tt.want {
				t.Errorf("Refused(0, %v): refused = %q, want %q", tt.err, list[0].Refused, tt.want)
			}
		})
	}
	v.Refused(1, list) // no machine 1: ignored, as Report does
	v.Refused(-1, list)

	// In a running game: a frame shows it, and the next version clears it.
	g := newGame(t, 3, viewer.Options{})
	gsrv := httptest.NewServer(g.v.Handler())
	defer gsrv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.run(ctx)
	ch := stream(t, ctx, gsrv.URL+"/api/events")
	g.v.Refused(0, list)
	f := next(t, ch, "the refusal", func(f frame) bool { return len(f.Machines) == 1 && f.Machines[0].Refused != "" })
	if !strings.Contains(f.Machines[0].Refused, "goomba.vdx:41:7") || !strings.Contains(f.Machines[0].Refused, "hint: remove one") {
		t.Errorf("refused = %q, want the first error's position and hint", f.Machines[0].Refused)
	}
	nt := walkers(t, "walkLeft", "walkRight", "dying", "stunned")
	g.atBoundary(func() {
		if _, err := table.Reload(nt, g.agents, ""); err != nil {
			t.Error(err)
		}
		g.v.Reloaded(0, viewer.TableAgents(nt, viewer.Each(&g.agents)), nil, "stunned added")
	})
	f = next(t, ch, "version 2", func(f frame) bool { return f.Machines[0].Version == 2 })
	if f.Machines[0].Refused != "" {
		t.Errorf("version 2's frame still shows the refusal %q", f.Machines[0].Refused)
	}
}

// TestReloadedPanics checks that Reloaded and Replace say which machine
// they were given is not one.
func TestReloadedPanics(t *testing.T) {
	tb := goomba(t)
	src := viewer.TableAgents(tb, viewer.Each(&[]table.Agent[*walker]{}))
	v := viewer.New(viewer.Options{})
	v.Add("goombas", src, nil)
	for _, tt := range []struct {
		name string
		call func()
		want string
	}{
		{"Reloaded(1)", func() { v.Reloaded(1, src, nil, "") }, "viewer: Reloaded(1): no machine 1: Add numbered 1 machines"},
		{"Reloaded(-1)", func() { v.Reloaded(-1, src, nil, "") }, "viewer: Reloaded(-1): no machine -1"},
		{"Replace(2)", func() { v.Replace(2, src) }, "viewer: Replace(2): no machine 2"},
		{"Replace with more states", func() {
			v.Replace(0, viewer.TableAgents(walkers(t, "walkLeft", "walkRight", "dying", "stunned"), viewer.Each(&[]table.Agent[*walker]{})))
		}, "a new version of a machine is Reloaded's"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
					t.Errorf("%s panicked with %v, want a panic saying %q", tt.name, r, tt.want)
				}
			}()
			tt.call()
		})
	}
}

// TestReloadedRace reloads a running game's table back and forth while
// pages read the frames, the machines and the recording, a watcher
// refuses drawings and another goroutine reloads a second machine: every
// frame's transitions are of the version it says, and go test -race has
// nothing to say.
func TestReloadedRace(t *testing.T) {
	g := newGame(t, 8, viewer.Options{})
	versions := []*table.Table{g.t, walkers(t, "stunned", "walkRight", "walkLeft", "dying")}
	descs := []machine.Description{versions[0].Describe(), versions[1].Describe()}
	other := g.v.Add("doors", &viewer.Custom{Description: descs[0], N: func() int { return 0 }}, nil)
	srv := httptest.NewServer(g.v.Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.run(ctx)
	ch := stream(t, ctx, srv.URL+"/api/events?watch=0:1")
	next(t, ch, "a frame", func(f frame) bool { return len(f.Machines) == 2 })

	var wg sync.WaitGroup
	done := make(chan struct{})
	spin := func(f func(i int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				f(i)
				time.Sleep(time.Millisecond)
			}
		}()
	}
	spin(func(i int) {
		if i%2 == 0 {
			g.v.Refused(0, errors.New("reload: goomba.vdx: unexpected EOF"))
		} else {
			g.v.Refused(other, nil)
		}
	})
	spin(func(i int) {
		g.v.Reloaded(other, &viewer.Custom{Description: descs[i%2], N: func() int { return 0 }}, nil, "doors "+strconv.Itoa(i))
	})
	spin(func(int) {
		for _, path := range []string{"/api/machines", "/api/machines/0", "/api/recording?machine=0&last=50", "/api/machines/0/agents?state=1"} {
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Error(err)
				return
			}
			var rec viewer.Recording
			if strings.HasPrefix(path, "/api/recording") && json.NewDecoder(resp.Body).Decode(&rec) == nil {
				for _, ev := range rec.Events {
					if why := misfit(&rec.Machines[0].Description, ev); why != "" {
						t.Errorf("the recording of version %d has transition %+v: %s", rec.Machines[0].Version, ev, why)
					}
				}
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 && resp.StatusCode != http.StatusConflict {
				t.Errorf("GET %s: %s", path, resp.Status)
			}
		}
	})
	spin(func(i int) {
		// On the doors, which have no agents to stop at it.
		r := post(t, srv.URL+"/api/breakpoints", g.v.Token(), fmt.Sprintf(`{"machine":%d,"state":2,"on":%v}`, other, i%2 == 0))
		if r.StatusCode != 200 {
			t.Errorf("a breakpoint on the doors' state 2: %s", r.Status)
		}
	})

	const reloads = 20
	var frames, events int
	for n := 1; n <= reloads; n++ {
		nt := versions[n%2]
		g.atBoundary(func() {
			g.update() // transitions of the old version that no frame has sent yet
			if _, err := table.Reload(nt, g.agents, ""); err != nil {
				t.Error(err)
			}
			g.v.Reloaded(0, viewer.TableAgents(nt, viewer.Each(&g.agents)), nil, "version "+strconv.Itoa(n+1))
		})
		at := 0 // frames of the new version seen
		next(t, ch, "frames of version "+strconv.Itoa(n+1), func(f frame) bool {
			frames++
			ver := f.Machines[0].Version
			for _, ev := range f.Events {
				if ev.Machine != 0 {
					continue
				}
				events++
				if why := misfit(&descs[(ver-1)%2], ev); why != "" {
					t.Errorf("version %d's frame has transition %+v: %s", ver, ev, why)
				}
			}
			if ver == n+1 {
				at++
			}
			return at == 3
		})
	}
	close(done)
	wg.Wait()
	// A stream's first message lists the reloads; the next ones, unchanged,
	// leave them out (once the doors' last reload is shown).
	for at := g.frameCount(); g.frameCount() < at+2; {
		time.Sleep(time.Millisecond)
	}
	late := stream(t, ctx, srv.URL+"/api/events")
	if f := next(t, late, "a frame", func(f frame) bool { return len(f.Machines) == 2 }); len(f.Reloads) != 16 {
		t.Errorf("the first frame lists %d reloads, want the last 16", len(f.Reloads))
	}
	if f := next(t, late, "a frame", func(f frame) bool { return true }); len(f.Reloads) != 0 {
		t.Errorf("the second frame lists %d reloads again, want none", len(f.Reloads))
	}
	t.Logf("%d frames, %d transitions of machine 0 checked", frames, events)
}
