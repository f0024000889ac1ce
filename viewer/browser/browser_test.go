// Package browser tests the viewer's page in a real browser, Chromium
// driven by chromedp. It is a module of its own, so that fsmforge itself
// depends on nothing but the standard library. Without Chromium the tests
// skip, saying so, but under CI (CI=true) a missing browser fails them:
// .ci/run installs Debian's chromium.
package browser

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/diag"
	crowddemo "github.com/fsmforge/fsmforge/examples/crowd"
	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// browser returns a tab of a headless Chromium, or skips the test when
// there is none (fails it under CI).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium on this machine, and CI=true: .ci/run installs Debian's chromium package")
		}
		t.Skip("no Chromium (chromium, chromium-browser or google-chrome) on PATH: the browser tests need one")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1400, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// open navigates to the viewer at base and fails the test on any
// console error or uncaught exception of the page, then or later.
func open(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	cctx, stop := context.WithCancel(ctx)
	msgs := chromedp.Console(cctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(base)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() || strings.HasPrefix(m.String(), "error") {
				t.Errorf("the page logged: %s", m)
			}
		}
	}()
	t.Cleanup(func() { stop(); <-done })
}

// poll waits until the page's expression is true.
func poll(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// level is the Goomba's level run by its table, frame by frame, as the
// goomba demo runs it live: each goomba's transitions are timed, for the
// page's latency.
type level struct {
	t     *table.Table
	l     *goomba.Level
	v     *viewer.Viewer
	mu    sync.Mutex
	ticks int
	moves []move // goomba 1's transitions
}

type move struct {
	to string
	at time.Time
}

func newLevel(t *testing.T) *level {
	c, res, err := goomba.Drawing()
	if err != nil {
		t.Fatal(err)
	}
	brains, err := goomba.TableBrains(res.Table)
	if err != nil {
		t.Fatal(err)
	}
	l, err := goomba.NewLevel(3, brains)
	if err != nil {
		t.Fatal(err)
	}
	lv := &level{t: res.Table, l: l, v: viewer.New(viewer.Options{})}
	hit, _ := res.Table.LookupTest("hitByPlayer", "")
	lv.v.Add("goombas", &viewer.Custom{
		Description: res.Table.Describe(),
		N:           func() int { return len(l.Goombas) },
		State: func(i int) machine.StateID {
			if l.Brains[i].Done() {
				return machine.Final
			}
			q, _ := res.Table.LookupState(l.Brains[i].State())
			return machine.StateID(q)
		},
		Attach: l.Observe,
		Send: func(i int, trigger int32) error {
			if trigger != int32(hit) {
				return fmt.Errorf("not hitByPlayer")
			}
			l.Stomp(i)
			return nil
		},
	}, viewer.FromCompile(c, res))
	l.Jumped = true // no player: the goombas walk until the page stomps one
	return lv
}

// run runs the level at 50 frames a second until ctx ends.
func (lv *level) run(ctx context.Context) {
	for tick := uint64(0); ctx.Err() == nil; tick++ {
		lv.v.Frame(tick)
		before := lv.l.Brains[1].State()
		lv.l.Step()
		if after := lv.l.Brains[1].State(); after != before {
			lv.mu.Lock()
			lv.moves = append(lv.moves, move{after, time.Now()})
			lv.mu.Unlock()
		}
		lv.mu.Lock()
		lv.ticks++
		lv.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
}

// runGame runs a game loop until the test ends: the viewer's frame, then
// step, then a pause.
func runGame(t *testing.T, v *viewer.Viewer, step func(), pause time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		for tick := uint64(0); ctx.Err() == nil; tick++ {
			v.Frame(tick)
			step()
			time.Sleep(pause)
		}
	}()
}

// serve serves v until the test ends, closing the page's stream first.
func serve(t *testing.T, v *viewer.Viewer) *httptest.Server {
	srv := httptest.NewServer(v.Handler())
	t.Cleanup(func() {
		v.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

func (lv *level) serve(t *testing.T) string {
	srv := serve(t, lv.v)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go lv.run(ctx)
	return srv.URL + "/#token=" + lv.v.Token()
}

// TestGoomba follows a goomba on the page: it loads with no console
// error, the goomba's highlighted state changes within 200 ms of each of
// its transitions, pause and step stop and advance the game, and clicking
// hitByPlayer sends the goomba to its death.
func TestGoomba(t *testing.T) {
	ctx := browser(t)
	lv := newLevel(t)
	base := lv.serve(t)
	open(t, ctx, base)
	poll(t, ctx, "the drawing", `document.querySelectorAll('#svg .state').length === 3`)

	// Follow goomba 1, and note when each state of the drawing lights up.
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#pick"), "1")); err != nil {
		t.Fatal(err)
	}
	eval[bool](t, ctx, `(() => {
		window.lit = [];
		const seen = new Set();
		new MutationObserver(() => {
			for (const g of document.querySelectorAll('#svg .state')) {
				const on = g.classList.contains('active');
				const name = g.querySelector('text').textContent;
				if (on && !seen.has(name)) window.lit.push({name, at: Date.now()});
				if (on) seen.add(name); else seen.delete(name);
			}
		}).observe(document.getElementById('svg'), {attributes: true, subtree: true, attributeFilter: ['class']});
		return true;
	})()`)
	click(t, ctx, "#pickform button")
	poll(t, ctx, "goomba 1 followed", `document.querySelector('#agent dl') !== null`)
	lv.mu.Lock()
	lv.moves = nil
	lv.mu.Unlock()
	time.Sleep(3 * time.Second) // a few turns
	type lit struct {
		Name string `json:"name"`
		At   int64  `json:"at"`
	}
	lv.mu.Lock()
	moves := append([]move(nil), lv.moves...)
	lv.mu.Unlock()
	time.Sleep(300 * time.Millisecond) // the page shows the last of them
	shown := eval[[]lit](t, ctx, `window.lit`)
	if len(moves) < 2 {
		t.Fatalf("goomba 1 moved %d times in 3 s", len(moves))
	}
	for _, m := range moves {
		at := m.at.UnixMilli()
		delay := int64(-1)
		for _, s := range shown {
			if s.Name == m.to && s.At >= at-5 {
				delay = s.At - at
				break
			}
		}
		if delay < 0 || delay > 200 {
			t.Errorf("goomba 1 entered %s; the page showed it %d ms later, want within 200 ms (-1: never)", m.to, delay)
		}
	}

	// The panel names the entry actions of the state the goomba entered.
	poll(t, ctx, "the entry actions performed", `/entered walk(Left|Right)XMovement=(left|right), Animation=move(Left|Right)/.test(document.querySelector('#agent').textContent)`)

	// A transition clicked lists the agents that took it lately.
	turn := -1
	for k, tr := range lv.t.Describe().Transitions {
		if tr.Trigger >= 0 && lv.t.Test(table.TestID(tr.Trigger)).Name == "hitTriggerLeft" {
			turn = k
		}
	}
	eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('#tr-%d text').dispatchEvent(new MouseEvent('click', {bubbles: true}))`, turn))
	poll(t, ctx, "the goombas that turned at their left trigger", `document.querySelectorAll('#list a').length > 0`)

	// Pause: the tick the page shows stops; Step advances it by one.
	click(t, ctx, "#pause")
	poll(t, ctx, "paused", `document.getElementById('status').classList.contains('paused')`)
	tick := func() int {
		s := eval[string](t, ctx, `document.getElementById('status').textContent`)
		n, _ := strconv.Atoi(strings.Fields(s)[1])
		return n
	}
	paused := tick()
	time.Sleep(300 * time.Millisecond)
	if now := tick(); now != paused {
		t.Errorf("paused at tick %d, the page shows %d 300 ms later", paused, now)
	}
	click(t, ctx, "#step")
	poll(t, ctx, "the next tick", fmt.Sprintf(`document.getElementById('status').textContent.startsWith('tick %d ')`, paused+1))

	// Clicking hitByPlayer stomps the goomba followed: it dies.
	click(t, ctx, "#resume")
	hitTransition := -1
	for k, tr := range lv.t.Describe().Transitions {
		if tr.Trigger >= 0 && lv.t.Test(table.TestID(tr.Trigger)).Name == "hitByPlayer" {
			hitTransition = k
			break
		}
	}
	// The click goes to the transition's label, as a designer clicks it,
	// dispatched there: a real mouse aims at the middle of the element's
	// box, off a curve, and labels of a drawing may overlap. A stomp in the
	// update where the goomba reaches a trigger is lost (the drawing tries
	// the trigger's test first, and an update clears the messages it saw):
	// the test clicks again then.
	for try := 0; ; try++ {
		eval[bool](t, ctx, fmt.Sprintf(`document.querySelector('#tr-%d text').dispatchEvent(new MouseEvent('click', {bubbles: true}))`, hitTransition))
		// It lights up death, then leaves the level (its machine's final state).
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`window.lit.some(s => s.name === 'death')`, chromedp.WithPollingTimeout(2*time.Second)))
		if err == nil {
			break
		}
		if try == 4 {
			lv.mu.Lock()
			trace := strings.Join(lv.l.Trace[max(0, len(lv.l.Trace)-8):], "\n")
			lv.mu.Unlock()
			t.Fatalf("goomba 1 never lit death on the page after 5 clicks: %v\npage: %s\nlevel:\n%s", err,
				eval[string](t, ctx, `JSON.stringify({status: document.getElementById('status').textContent, lit: window.lit.slice(-3), problems: document.getElementById('problems').textContent})`), trace)
		}
	}
}

// TestSimulator steps the Goomba's drawing in the simulator: holding
// hitTriggerLeft and stepping turns the goomba right.
func TestSimulator(t *testing.T) {
	ctx := browser(t)
	_, res, err := goomba.Drawing()
	if err != nil {
		t.Fatal(err)
	}
	sim := viewer.NewSim(res.Table, 0.1)
	v := viewer.New(viewer.Options{Paused: true})
	v.Add("goomba", sim, nil)
	srv := serve(t, v)
	runGame(t, v, func() { sim.Step() }, 0)
	open(t, ctx, srv.URL+"/#token="+v.Token())
	poll(t, ctx, "the simulator's tests", `document.getElementById('hold-0') !== null`)
	poll(t, ctx, "walkLeft", `document.querySelector('#agent').dataset.state === 'walkLeft'`)
	click(t, ctx, "#hold-0")
	click(t, ctx, "#step")
	poll(t, ctx, "walkRight", `document.querySelector('#agent').dataset.state === 'walkRight'`)
	if got := eval[string](t, ctx, `document.querySelector('#agent').textContent`); !strings.Contains(got, "XMovement=right") {
		t.Errorf("the agent's panel says %q, want the action performed, XMovement=right", got)
	}
}

// TestCrowdHeatMap shows a crowd of 20,000 monsters: the counts the page
// writes in each state are the crowd's.
func TestCrowdHeatMap(t *testing.T) {
	ctx := browser(t)
	m, err := crowddemo.New(20000, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	v := viewer.New(viewer.Options{})
	v.Add("horde", viewer.Crowd(m), nil)
	srv := serve(t, v)
	runGame(t, v, func() { m.Step() }, 10*time.Millisecond)
	open(t, ctx, srv.URL+"/#token="+v.Token())
	poll(t, ctx, "the counts", `document.getElementById('count-0') && document.getElementById('count-0').textContent !== ''`)
	click(t, ctx, "#pause")
	poll(t, ctx, "paused", `document.getElementById('status').classList.contains('paused')`)
	time.Sleep(200 * time.Millisecond) // the paused frame's view reaches the page
	shown := eval[[]string](t, ctx, `[...document.querySelectorAll('#svg .count')].map(e => e.textContent)`)
	counts := m.Counts(nil)
	if len(shown) != len(counts) {
		t.Fatalf("the page shows %d counts, the crowd has %d states", len(shown), len(counts))
	}
	for q, n := range counts {
		if shown[q] != strconv.Itoa(n) {
			t.Errorf("state %s: the page shows %q, the crowd holds %d", m.StateName(crowd.StateID(q)), shown[q], n)
		}
	}
	if fill := eval[string](t, ctx, `document.querySelector('#state-0 rect').style.fill`); fill == "" {
		t.Error("state 0 holds monsters and has no heat colour")
	}
}

// pacer is a goomba of TestReload: it walks between two walls span apart
// and turns at each.
type pacer struct{ x, dir int }

type pacing struct{}

func (pacing) Test(p *pacer, t table.TestID) bool {
	switch t {
	case 0:
		return p.x <= -3
	case 1:
		return p.x >= 3
	}
	return false
}

func (pacing) Do(p *pacer, _ table.PropertyID, v table.ValueID) { p.dir = []int{-1, 1, 0}[v] }

// pacers builds a version of TestReload's table: walkLeft first, then
// right (the state that walks right, named so), then the others named,
// each a state that a message of its own ("to" and its name) leads to
// from both walking states.
func pacers(t *testing.T, right string, others ...string) *table.Table {
	var b table.Builder
	b.Name = "goomba"
	b.AddProperty("XMovement", "left", "right", "death")
	left, rightWall := b.AddTest("hitLeft", ""), b.AddTest("hitRight", "")
	wl := b.AddState("walkLeft", b.Action("XMovement", "left"))
	wr := b.AddState(right, b.Action("XMovement", "right"))
	for _, name := range others {
		msg := b.AddMessage("to"+name, "")
		q := b.AddState(name, b.Action("XMovement", "death"))
		b.AddTransition(table.Transition{From: wl, Test: msg, To: q})
		b.AddTransition(table.Transition{From: wr, Test: msg, To: q})
	}
	b.AddTransition(table.Transition{From: wl, Test: left, To: wr})
	b.AddTransition(table.Transition{From: wr, Test: rightWall, To: wl})
	tb, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestReload reloads the machine a page shows while the game runs: a new
// version with one state more and one renamed, drawn where its drawing
// puts its states. Within a second the page draws the new state there,
// the renamed one under its new name, lists the reload's report and still
// follows its agent; then a refused drawing's errors show over the
// drawing, with their positions and hints, until the next version.
func TestReload(t *testing.T) {
	ctx := browser(t)
	old := pacers(t, "walkRight", "dying")
	ps := make([]pacer, 4)
	agents := make([]table.Agent[*pacer], len(ps))
	for i := range ps {
		ps[i].x = i - 2
		agents[i] = table.NewAgent(old, &ps[i], pacing{})
	}
	v := viewer.New(viewer.Options{})
	v.Add("goombas", viewer.TableAgents(old, viewer.Each(&agents)), nil)
	srv := serve(t, v)
	boundary := make(chan func())
	runGame(t, v, func() {
		select {
		case f := <-boundary:
			f() // after this frame's update: before the next Frame
		default:
		}
		for i := range agents {
			ps[i].x += ps[i].dir
			agents[i].Update(pacing{})
		}
	}, 20*time.Millisecond)
	open(t, ctx, srv.URL+"/#token="+v.Token())
	poll(t, ctx, "the drawing", `document.querySelectorAll('#svg .state').length === 3`)
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#pick"), "1")); err != nil {
		t.Fatal(err)
	}
	click(t, ctx, "#pickform button")
	poll(t, ctx, "agent 1 followed", `document.querySelector('#agent dl') !== null`)

	// The new version: walkRight renamed strollRight, stunned added, each
	// state drawn in a row where the designer put it.
	nt := pacers(t, "strollRight", "dying", "stunned")
	nd := nt.Describe()
	c := &chart.Chart{}
	dr := &viewer.Drawing{Chart: c, States: map[string]machine.StateID{}}
	for i, s := range nd.States {
		id := strconv.Itoa(i + 2)
		c.States = append(c.States, chart.State{ID: id, Name: s.Name, Box: &chart.Box{X: 40 + 160*float64(i), Y: 60, W: 120, H: 50}})
		dr.States[id] = machine.StateID(i)
	}
	report := "goomba.vdx: reloaded\nwalkRight renamed strollRight\nstunned added"
	reloaded := make(chan time.Time)
	boundary <- func() {
		mp := machine.MappingBetween(ptr(old.Describe()), &nd)
		mp.To[1] = 1 // walkRight is strollRight
		commit, err := table.PrepareReload(nt, viewer.Each(&agents), mp)
		if err != nil {
			t.Error(err)
			close(reloaded)
			return
		}
		commit()
		v.Reloaded(0, viewer.TableAgents(nt, viewer.Each(&agents)), dr, report)
		reloaded <- time.Now()
	}
	at := <-reloaded
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`(() => {
		const s = document.querySelector('#svg .state[data-name="stunned"]');
		const r = document.getElementById('reloads');
		return s !== null && r.checkVisibility() && r.textContent.includes('walkRight renamed strollRight');
	})()`, chromedp.WithPollingTimeout(time.Second))); err != nil {
		t.Fatalf("the page shows no state stunned and no report within a second of Reloaded: %v\nstates: %s", err,
			eval[string](t, ctx, `[...document.querySelectorAll('#svg .state')].map(g => g.dataset.name).join(', ')`))
	}
	t.Logf("the page showed the new version %v after Reloaded", time.Since(at).Round(time.Millisecond))
	if names := eval[[]string](t, ctx, `[...document.querySelectorAll('#svg .state')].map(g => g.dataset.name)`); !slices.Equal(names, []string{"walkLeft", "strollRight", "dying", "stunned"}) {
		t.Errorf("the page draws %v, want walkLeft, strollRight, dying, stunned", names)
	}
	if x := eval[string](t, ctx, `document.querySelector('#svg .state[data-name="stunned"] rect').getAttribute('x')`); x != "520" {
		t.Errorf("stunned is drawn at x = %s, want 520, where its drawing puts it", x)
	}
	poll(t, ctx, "agent 1 followed in the new version", `/^(walkLeft|strollRight)$/.test(document.querySelector('#agent').dataset.state || '') && document.querySelector('#agent dl') !== null`)

	// A refused drawing: its errors over the drawing, with positions and hints.
	refused := diag.List{{Pos: diag.Pos{File: "goomba.vdx", Line: 12, Col: 3}, Message: `compile: state "stunned" has no way out`, Hint: "draw a transition from it, or mark it final"}}
	at = time.Now()
	v.Refused(0, fmt.Errorf("reload: %w", refused))
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`(() => {
		const r = document.getElementById('refused');
		return r.checkVisibility() && r.textContent.includes('goomba.vdx:12:3: compile: state "stunned" has no way out') && r.textContent.includes('hint: draw a transition from it');
	})()`, chromedp.WithPollingTimeout(time.Second))); err != nil {
		t.Fatalf("the page shows no refusal within a second of Refused: %v\n%s", err, eval[string](t, ctx, `document.getElementById('refused').outerHTML`))
	}
	t.Logf("the page showed the refusal %v after Refused", time.Since(at).Round(time.Millisecond))
	v.Refused(0, nil)
	poll(t, ctx, "the refusal gone", `!document.getElementById('refused').checkVisibility()`)
}

func ptr[T any](v T) *T { return &v }
