package reload_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/chart"
	_ "github.com/fsmforge/fsmforge/chart/formats"
	"github.com/fsmforge/fsmforge/diag"
	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/reload"
	"github.com/fsmforge/fsmforge/table"
	"github.com/fsmforge/fsmforge/viewer"
)

// door is a small SCXML drawing whose states carry shape IDs (ff:id), as
// a drawing's shapes do, so that renames can be followed.
const door = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:ff="https://fsmforge.dev/scxml" version="1.0" name="door" initial="closed">
  <state id="closed" ff:id="1"><transition event="open" target="opened"/></state>
  <state id="opened" ff:id="2"><transition event="close" target="closed"/><transition event="lock" target="locked"/></state>
  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>
</scxml>
`

// nobody is the host of the door's agents: no polled test, no action.
type nobody struct{}

func (nobody) Test(*int, table.TestID) bool             { return false }
func (nobody) Do(*int, table.PropertyID, table.ValueID) {}

// doors is a level of door agents run by a reloaded drawing.
type doors struct {
	r      *reload.Reloader
	d      *reload.Drawing
	path   string
	agents []table.Agent[*int]
	ids    []int
}

// newDoors writes src into a temporary folder, loads it with a manual
// Reloader, and makes n agents of it.
func newDoors(t *testing.T, src string, n int, cfg reload.Config) *doors {
	t.Helper()
	l := &doors{path: filepath.Join(t.TempDir(), "door.scxml")}
	write(t, l.path, src)
	l.r = reload.New(reload.Options{Manual: true})
	t.Cleanup(func() { l.r.Close() })
	var err error
	if l.d, err = l.r.Load(l.path, cfg); err != nil {
		t.Fatal(err)
	}
	l.ids = make([]int, n)
	for i := range n {
		l.ids[i] = i
		l.agents = append(l.agents, table.NewAgent[*int](l.d.Table(), &l.ids[i], nobody{}))
	}
	l.d.Run("doors", reload.Agents(each(l.agents)))
	return l
}

// send makes agent i handle event ev.
func (l *doors) send(t *testing.T, i int, ev string) {
	t.Helper()
	tb := l.d.Table()
	id, ok := tb.LookupTest(ev, "")
	if !ok {
		t.Fatalf("no event %q", ev)
	}
	if err := l.agents[i].Post(id); err != nil {
		t.Fatal(err)
	}
	if _, err := l.agents[i].Update(nobody{}); err != nil {
		t.Fatal(err)
	}
}

// states returns each agent's state.
func (l *doors) states() []string {
	var out []string
	for i := range l.agents {
		out = append(out, l.agents[i].Name())
	}
	return out
}

// save writes src as the new version and returns the reports of the
// next frame.
func (l *doors) save(t *testing.T, src string) []reload.Report {
	t.Helper()
	write(t, l.path, src)
	l.r.Refresh()
	return l.r.Frame(1)
}

func write(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReload runs the door through the edits a designer makes, each
// saved while three agents are closed, opened and locked.
func TestReload(t *testing.T) {
	for _, tc := range []struct {
		name     string
		edit     func(string) string
		fallback string
		want     []string // the agents' states after the reload
		report   []string // in the report's text
	}{
		{"rename", func(s string) string { return strings.ReplaceAll(s, `"opened"`, `"ajar"`) }, "",
			[]string{"closed", "ajar", "locked"}, []string{"renamed opened → ajar"}},
		{"remove a state agents are in", func(s string) string {
			s = strings.Replace(s, `<transition event="lock" target="locked"/>`, "", 1)
			return strings.Replace(s, `  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>`+"\n", "", 1)
		}, "", []string{"closed", "opened", "closed"}, []string{"removed locked", "doors: 1 went to closed (the initial state): #2 (was in locked)"}},
		{"shapes numbered anew: no rename", func(s string) string {
			// opened is removed, and locked's shape takes its number, as
			// yEd numbers its nodes at each save.
			s = strings.Replace(s, `<transition event="open" target="opened"/>`, `<transition event="open" target="locked"/>`, 1)
			s = strings.Replace(s, `  <state id="opened" ff:id="2"><transition event="close" target="closed"/><transition event="lock" target="locked"/></state>`+"\n", "", 1)
			return strings.Replace(s, `ff:id="3"`, `ff:id="2"`, 1)
		}, "", []string{"closed", "closed", "locked"}, []string{"removed opened", "doors: 1 went to closed (the initial state): #1 (was in opened)"}},
		{"remove, to the game's fallback", func(s string) string {
			s = strings.Replace(s, `<transition event="lock" target="locked"/>`, "", 1)
			return strings.Replace(s, `  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>`+"\n", "", 1)
		}, "opened", []string{"closed", "opened", "opened"}, []string{"went to opened (the game's fallback)"}},
		{"remove, to the drawing's fallback", func(s string) string {
			s = strings.Replace(s, `name="door"`, `name="door" ff:fallback="opened"`, 1)
			s = strings.Replace(s, `<transition event="lock" target="locked"/>`, "", 1)
			return strings.Replace(s, `  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>`+"\n", "", 1)
		}, "", []string{"closed", "opened", "opened"}, []string{"went to opened (the drawing's fallback)"}},
		{"the game's fallback before the drawing's", func(s string) string {
			s = strings.Replace(s, `name="door"`, `name="door" ff:fallback="opened"`, 1)
			s = strings.Replace(s, `<transition event="lock" target="locked"/>`, "", 1)
			return strings.Replace(s, `  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>`+"\n", "", 1)
		}, "closed", []string{"closed", "opened", "closed"}, []string{"went to closed (the game's fallback)"}},
		{"a fallback the new version lacks", func(s string) string {
			s = strings.Replace(s, `<transition event="lock" target="locked"/>`, "", 1)
			return strings.Replace(s, `  <state id="locked" ff:id="3"><transition event="unlock" target="closed"/></state>`+"\n", `  <state id="jammed" ff:id="9"/>`+"\n", 1)
		}, "locked", []string{"closed", "opened", "closed"}, []string{"added jammed", "the game's fallback \"locked\" is not in the new version"}},
		{"add a state and a transition", func(s string) string {
			s = strings.Replace(s, `<transition event="close" target="closed"/>`, `<transition event="close" target="closed"/><transition event="kick" target="broken"/>`, 1)
			return strings.Replace(s, "</scxml>", `  <state id="broken" ff:id="4"/>`+"\n</scxml>", 1)
		}, "", []string{"closed", "opened", "locked"}, []string{"added broken", "transitions: 5, were 4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newDoors(t, door, 3, reload.Config{Fallback: tc.fallback})
			l.send(t, 1, "open")
			l.send(t, 2, "open")
			l.send(t, 2, "lock")
			reps := l.save(t, tc.edit(door))
			if len(reps) != 1 || reps[0].Err != nil {
				t.Fatalf("reports %v", reps)
			}
			if got := l.states(); !slices.Equal(got, tc.want) {
				t.Errorf("states %v, want %v", got, tc.want)
			}
			text := reps[0].String()
			for _, w := range tc.report {
				if !strings.Contains(text, w) {
					t.Errorf("the report has no %q:\n%s", w, text)
				}
			}
			if reps[0].Table() != l.d.Table() || l.agents[0].Table() != l.d.Table() {
				t.Error("the drawing or its agents do not run the new table")
			}
		})
	}
}

// TestRefused checks that a version that does not read, does not compile
// or does not fit the game replaces nothing, and says why.
func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(string) string
		what  string
		diags bool // the error holds a diag.List
	}{
		{"cut short", func(s string) string { return s[:len(s)/2] }, "does not read", true},
		{"unknown target", func(s string) string {
			return strings.Replace(s, `target="closed"/></state>`, `target="nowhere"/></state>`, 1)
		}, "does not", true},
		{"empty", func(string) string { return "" }, "does not read", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newDoors(t, door, 2, reload.Config{})
			l.send(t, 1, "open")
			old := l.d.Table()
			reps := l.save(t, tc.edit(door))
			if len(reps) != 1 || reps[0].Err == nil {
				t.Fatalf("reports %v, want one refusal", reps)
			}
			var re *reload.RefusedError
			if !errors.As(reps[0].Err, &re) || !strings.Contains(re.What, strings.TrimSuffix(tc.what, " read")) {
				t.Errorf("error %v, want a *RefusedError saying %q", reps[0].Err, tc.what)
			}
			var ds diag.List
			if tc.diags && !errors.As(reps[0].Err, &ds) {
				t.Errorf("error %v holds no diag.List", reps[0].Err)
			}
			if !strings.Contains(reps[0].String(), "door.scxml") || !strings.Contains(reps[0].String(), "the game keeps the version it has") {
				t.Errorf("report %q", reps[0].String())
			}
			if l.d.Table() != old || l.agents[1].Table() != old || l.agents[1].Name() != "opened" {
				t.Error("a refused version changed the game")
			}
			// The game runs on; the mended file reloads.
			l.send(t, 1, "close")
			if reps := l.save(t, strings.ReplaceAll(door, `"locked"`, `"bolted"`)); len(reps) != 1 || reps[0].Err != nil {
				t.Fatalf("the mended version: %v", reps)
			}
			if l.d.Table() == old {
				t.Error("the mended version was not swapped in")
			}
		})
	}
}

// TestRefusedByTarget checks that a target that refuses a version stops
// every target's move, those before it included.
func TestRefusedByTarget(t *testing.T) {
	l := newDoors(t, door, 2, reload.Config{})
	l.send(t, 1, "open")
	committed := false
	l.d.Run("host", reload.Func(func(nt *table.Table, m *machine.Mapping) (func(), error) {
		if _, ok := nt.LookupTest("lock", ""); !ok {
			return nil, errors.New("the game locks doors: the drawing has no event lock")
		}
		return func() { committed = true }, nil
	}))
	old := l.d.Table()
	s := strings.Replace(door, `<transition event="lock" target="locked"/>`, "", 1)
	reps := l.save(t, s)
	if len(reps) != 1 || reps[0].Err == nil || !strings.Contains(reps[0].Err.Error(), "host: the game locks doors") {
		t.Fatalf("reports %v", reps)
	}
	if l.d.Table() != old || l.agents[0].Table() != old || committed {
		t.Error("a refused version was partly swapped in")
	}
	if reps := l.save(t, strings.ReplaceAll(door, `"opened"`, `"ajar"`)); len(reps) != 1 || reps[0].Err != nil || !committed {
		t.Fatalf("the next version: %v, committed %v", reps, committed)
	}
	if got := l.states(); !slices.Equal(got, []string{"closed", "ajar"}) {
		t.Errorf("states %v", got)
	}
}

// TestUnchanged checks that saving the same content again reloads
// nothing, and that Frame costs nothing when nothing changed.
func TestUnchanged(t *testing.T) {
	l := newDoors(t, door, 1, reload.Config{})
	if reps := l.save(t, door); reps != nil {
		t.Errorf("the same content reloaded: %v", reps)
	}
	if n := testing.AllocsPerRun(100, func() { l.r.Frame(2) }); n != 0 {
		t.Errorf("Frame allocates %v times with nothing to swap", n)
	}
}

// TestLoad checks Load's errors: each names the file.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	r := reload.New(reload.Options{Manual: true})
	defer r.Close()
	bad := filepath.Join(dir, "bad.scxml")
	write(t, bad, door[:40])
	for _, path := range []string{filepath.Join(dir, "missing.scxml"), bad} {
		if _, err := r.Load(path, reload.Config{}); err == nil || !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("Load(%s) = %v, want an error naming the file", path, err)
		}
	}
}

// TestWatch saves the drawing as editors do, with a Reloader that polls
// in the background, and waits for each version to arrive at a frame.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "door.scxml")
	write(t, path, door)
	r := reload.New(reload.Options{})
	defer r.Close()
	d, err := r.Load(path, reload.Config{})
	if err != nil {
		t.Fatal(err)
	}
	saves := []struct {
		name string
		save func(src string)
	}{
		{"in place", func(src string) { write(t, path, src) }},
		{"renamed over", func(src string) {
			write(t, path+".tmp", src)
			if err := os.Rename(path+".tmp", path); err != nil {
				t.Fatal(err)
			}
		}},
		{"removed, then written", func(src string) {
			os.Remove(path)
			write(t, path, src)
		}},
		{"in two writes", func(src string) {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(src[:len(src)/2])
			f.Sync()
			f.WriteString(src[len(src)/2:])
			f.Close()
		}},
	}
	for i, s := range saves {
		name := "state" + string(rune('a'+i))
		s.save(strings.ReplaceAll(door, `"locked"`, `"`+name+`"`))
		deadline := time.Now().Add(10 * time.Second)
		var reps []reload.Report
		for tick := uint64(0); len(reps) == 0; tick++ {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no reload within 10 s", s.name)
			}
			reps = r.Frame(tick)
			time.Sleep(time.Millisecond)
		}
		if reps[0].Err != nil {
			t.Fatalf("%s: %v", s.name, reps[0].Err)
		}
		if _, ok := d.Table().LookupState(name); !ok {
			t.Errorf("%s: the new version has no state %s", s.name, name)
		}
	}
}

// TestViewer checks what the page is told: a refused version's errors,
// then the next version, with its report, which clears them.
func TestViewer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "door.scxml")
	write(t, path, door)
	v := viewer.New(viewer.Options{})
	defer v.Close()
	r := reload.New(reload.Options{Manual: true, Viewer: v})
	defer r.Close()
	d, err := r.Load(path, reload.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ids := []int{0}
	agents := []table.Agent[*int]{table.NewAgent[*int](d.Table(), &ids[0], nobody{})}
	d.Run("doors", reload.Agents(each(agents)))
	d.View("doors", func(t *table.Table) viewer.Source { return viewer.TableAgents(t, each(agents)) })
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	machines := func() (version int, refused string, states []string) {
		t.Helper()
		resp, err := http.Get(srv.URL + "/api/machines/0")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m struct {
			Version     int    `json:"version"`
			Refused     string `json:"refused"`
			Description struct {
				States []struct {
					Name string `json:"name"`
				} `json:"states"`
			} `json:"description"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		for _, s := range m.Description.States {
			states = append(states, s.Name)
		}
		return m.Version, m.Refused, states
	}
	write(t, path, door[:len(door)/2])
	r.Refresh()
	r.Frame(1)
	if ver, refused, _ := machines(); ver != 1 || !strings.Contains(refused, "does not read") || !strings.Contains(refused, "door.scxml") {
		t.Errorf("after a refused version: version %d, refused %q", ver, refused)
	}
	write(t, path, strings.ReplaceAll(door, `"locked"`, `"bolted"`))
	r.Refresh()
	r.Frame(2)
	ver, refused, states := machines()
	if ver != 2 || refused != "" || !slices.Contains(states, "bolted") {
		t.Errorf("after the next version: version %d, refused %q, states %v", ver, refused, states)
	}
}

// TestFormats loads each of the Goomba's drawings: a Reloader reads every
// format the fsmforge command reads, Visio's zipped .vsdx included.
func TestFormats(t *testing.T) {
	st, err := goomba.Stencil()
	if err != nil {
		t.Fatal(err)
	}
	r := reload.New(reload.Options{Manual: true})
	defer r.Close()
	for _, file := range []string{"goomba.vdx", "goomba.vsdx", "goomba.drawio", "goomba.scxml"} {
		d, err := r.Load(filepath.Join("../examples/goomba", file), reload.Config{Read: chart.ReadOptions{Stencil: st}})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if n := d.Table().NumStates(); n != 3 {
			t.Errorf("%s: %d states, want 3", file, n)
		}
	}
}
