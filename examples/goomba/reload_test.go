package goomba_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/examples/goomba"
	"github.com/fsmforge/fsmforge/reload"
)

// edit is one save of the drawing while the level runs, at a tick.
type edit struct {
	tick int
	what string
	// change makes the new file from the one before.
	change func(t *testing.T, drawing string) string
	// want says where each goomba must be after the reload, from where
	// it was before; nil for a refused version (nowhere else).
	want func(before string) string
	// refused is true when the version must be refused.
	refused bool
}

// cell matches the draw.io object of the given ID, lines and all.
func cell(id string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)\n\s*<UserObject [^>]*\bid="` + id + `">.*?</UserObject>`)
}

func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("the drawing has no %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

func remove(t *testing.T, s string, ids ...string) string {
	t.Helper()
	for _, id := range ids {
		re := cell(id)
		if !re.MatchString(s) {
			t.Fatalf("the drawing has no object %s", id)
		}
		s = re.ReplaceAllString(s, "")
	}
	return s
}

// edits are the designer's saves of the end-to-end test: a rename, the
// removal of the state some goombas are in, a new transition, a save cut
// short, and its fix.
func edits() []edit {
	same := func(s string) string { return s }
	return []edit{
		{tick: 5, what: "rename walkRight to strollRight",
			change: func(t *testing.T, s string) string { return replace(t, s, `label="walkRight"`, `label="strollRight"`) },
			want: func(b string) string {
				if b == "walkRight" {
					return "strollRight"
				}
				return b
			}},
		{tick: 11, what: "remove strollRight, which goombas are in, and its transitions",
			change: func(t *testing.T, s string) string { return remove(t, s, "2", "4", "5", "7") },
			want: func(b string) string {
				if b == "strollRight" {
					return "walkLeft" // the initial state
				}
				return b
			}},
		{tick: 17, what: "add a transition: the left trigger kills",
			change: func(t *testing.T, s string) string {
				return replace(t, s, "\n      </root>", `
        <UserObject label="%Test%" placeholders="1" fsmforge="Transition" fsmforgeStencil="goomba" fsmforgeVersion="1" Test="hitTriggerLeft" Value="" Order="" Stack="none" id="9">
          <mxCell edge="1" parent="layer" source="1" target="3"><mxGeometry relative="1" as="geometry"/></mxCell>
        </UserObject>
      </root>`)
			},
			want: same},
		{tick: 23, what: "a save cut short", refused: true,
			change: func(t *testing.T, s string) string { return s[:len(s)/2] }},
		{tick: 24, what: "the save finished: the original drawing back",
			change: func(t *testing.T, s string) string { return "" }, // see run
			want:   same},
	}
}

// runEdited runs a level of n goombas from a copy of goomba.drawio for
// ticks ticks, making the edits at their ticks (each followed by
// Refresh, so that the next Frame swaps it in), and returns the trace:
// the level's lines and each reload's report, phases left out.
func runEdited(t *testing.T, n, ticks int) []string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "goomba.drawio")
	original, err := os.ReadFile("goomba.drawio")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, original, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := chart.LoadStencil("goomba.stencil.json")
	if err != nil {
		t.Fatal(err)
	}
	r := reload.New(reload.Options{Manual: true})
	defer r.Close()
	d, err := r.Load(path, reload.Config{Read: chart.ReadOptions{Stencil: st}})
	if err != nil {
		t.Fatal(err)
	}
	brains, err := goomba.TableBrains(d.Table())
	if err != nil {
		t.Fatal(err)
	}
	l, err := goomba.NewLevel(n, brains)
	if err != nil {
		t.Fatal(err)
	}
	d.Run("goombas", l)
	var trace []string
	phases := regexp.MustCompile(` \([0-9.]+ ms: [^)]*\)`)
	file := string(original)
	all := edits()
	var pending *edit
	for tick := 1; tick <= ticks; tick++ {
		before := states(l)
		for _, rep := range r.Frame(uint64(tick)) {
			trace = append(trace, strings.ReplaceAll(phases.ReplaceAllString(rep.String(), ""), dir+string(filepath.Separator), ""))
			if pending == nil {
				t.Fatalf("tick %d: a reload nobody asked for: %s", tick, rep.String())
			}
			after := states(l)
			if len(after) != len(before) {
				t.Fatalf("tick %d, %s: %d goombas before the reload, %d after", tick, pending.what, len(before), len(after))
			}
			for i := range before {
				want := before[i]
				if !pending.refused {
					want = pending.want(before[i])
				}
				if after[i] != want {
					t.Errorf("tick %d, %s: goomba %d was in %s, is in %s, want %s", tick, pending.what, i+1, before[i], after[i], want)
				}
			}
			if got := rep.Err != nil; got != pending.refused {
				t.Errorf("tick %d, %s: refused %v, want %v: %s", tick, pending.what, got, pending.refused, rep.String())
			}
			pending = nil
		}
		if tick == 3 {
			l.Stomp(0) // goomba 1 dies: some goombas are in death
		}
		if err := l.Step(); err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
		for i := range all {
			if all[i].tick != tick {
				continue
			}
			e := &all[i]
			if next := e.change(t, file); next != "" {
				file = next
			} else {
				file = string(original)
			}
			if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
				t.Fatal(err)
			}
			r.Refresh()
			pending = e
		}
	}
	if pending != nil {
		t.Fatalf("the edit %q was never swapped in", pending.what)
	}
	return append(trace, l.Trace...)
}

// states returns each goomba's state name, "(final)" for one done.
func states(l *goomba.Level) []string {
	var out []string
	for _, b := range l.Brains {
		if b.Done() {
			out = append(out, "(final)")
			continue
		}
		out = append(out, b.State())
	}
	return out
}

// TestReloadWhileRunning is the end-to-end test of hot reload: while a
// level runs, the designer renames a state, removes the state some
// goombas are in, adds a transition, saves a file cut short, then saves it
// whole. After each save the goombas are where the mapping says, none is
// lost, nothing panics, and the same saves at the same ticks give the same
// run.
func TestReloadWhileRunning(t *testing.T) {
	first := runEdited(t, 4, 40)
	again := runEdited(t, 4, 40)
	if !slices.Equal(first, again) {
		t.Errorf("two runs with the same saves at the same ticks differ:\n%s\n----\n%s", strings.Join(first, "\n"), strings.Join(again, "\n"))
	}
	joined := strings.Join(first, "\n")
	for _, want := range []string{
		"renamed walkRight → strollRight",
		"removed strollRight",
		"went to walkLeft (the initial state)",
		"refused at tick 24",
		"does not read",
		"added walkRight",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("the trace has no %q:\n%s", want, joined)
		}
	}
	if testing.Verbose() {
		fmt.Println(joined)
	}
}
