package mermaid_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/mermaid"
	"github.com/fsmforge/fsmforge/chart/scxml"
)

// TestNesting checks how the soldier's statechart is drawn, composite
// state by composite state and arrow by arrow.
func TestNesting(t *testing.T) {
	out := write(t, soldier(), mermaid.Options{})
	d, err := parseMermaid(string(out))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{ // composite → the composite it is in
		"s1": "", "s4": "s1", "s5": "s4", "s8": "s5", "s11": "s4",
	} {
		if s, ok := d.state(id); !ok || !s.composite || s.parent != want {
			t.Errorf("%s = %+v, want a composite state in %q", id, s, want)
		}
	}
	if s, _ := d.state("s1"); s.name != "combat\nentry / send tick after 0.5s as combatTimer\nexit / cancel combatTimer" {
		t.Errorf("combat named %q, want its name and actions", s.name)
	}
	if s, _ := d.state("s4"); s.name != "engage "+mermaid.Parallel || d.regions["s4"] != 1 {
		t.Errorf("engage named %q with %d separators, want the parallel mark and 1", s.name, d.regions["s4"])
	}
	for id, want := range map[string][2]string{"s2": {"H", "combat.hist"}, "s3": {"H*", "combat.deep"}} {
		if s, _ := d.state(id); s.name != want[0] || len(s.descr) != 1 || s.descr[0] != want[1] || s.parent != "s1" {
			t.Errorf("history %s = %+v, want %q named %q in s1", id, s, want[0], want[1])
		}
	}
	if s, _ := d.state("s15"); s.bar != "fork" || s.parent != "s1" {
		t.Errorf("s15 = %+v, want the fork of combat's start", s)
	}

	arrows := map[string]bool{}
	starts := 0
	for _, a := range d.transitions {
		arrows[a.doc+"| "+a.from+" --> "+a.to+" : "+a.label] = true
		if a.from == "[*]" && a.doc == "" {
			starts++
		}
	}
	for _, want := range []string{
		"| [*] --> s0 : ", // the machine's initial state, its only [*] at the top level
		"s5| [*] --> s6 : ",
		"s8| [*] --> s9 : ",
		"s11| [*] --> s12 : ",
		"s8| s10 --> [*] : inserted",          // reload's final state
		"s1| [*] --> s15 : ",                  // combat's start, to its fork,
		"| s15 --> s6 : ", "| s15 --> s12 : ", // into both regions
		"s1| s2 --> s4 : ", // the default of the shallow history
		"| s3 --> s8 : ",   // of the deep one, into a grandchild: at the top level
		"s5| s8 --> s6 : done.state.reload / Animation=aim",
		"s11| s13 --> s13 : peek / raise peeked; send peek after 1.5s as peekTimer " + mermaid.Stay,
		"| s1 --> s1 : 1. tick / send tick after 0.5s as combatTimer " + mermaid.Stay,
		"| s1 --> s14 : 2. hurt [health < 30] / cancel peekTimer " + mermaid.Internal,
		"| s1 --> [*] : 4. killed",
		"| s0 --> s1 : 1. enemy.seen [visible && !stunned] / raise alert",
	} {
		if !arrows[want] {
			t.Errorf("no arrow %q in %v", want, arrows)
		}
	}
	if starts != 1 {
		t.Errorf("%d arrows from the top-level [*], want 1", starts)
	}
	// 17 transitions, one with two targets, the initial arrows of the
	// machine, of weapon, reload and cover, and of combat to its fork.
	if len(d.transitions) != 23 {
		t.Errorf("%d arrows, want 23", len(d.transitions))
	}
}

// scxmlFiles are statecharts read by chart/scxml: W3C conformance tests
// (internal/w3c) and the SCXML of ../shared/fixtures, read leniently.
func scxmlFiles(t *testing.T) map[string]*chart.Chart {
	t.Helper()
	files := []string{
		"../../internal/w3c/testdata/scxml/test364.scxml", // a start pseudo-state into two regions, four deep
		"../../internal/w3c/testdata/scxml/test387.scxml", // shallow and deep history
		"../../internal/w3c/testdata/scxml/test576.scxml", // a parallel state, initial states nested
	}
	shared, _ := filepath.Glob("../../../shared/fixtures/scxml/*.scxml")
	files = append(files, shared...)
	charts := map[string]*chart.Chart{}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			continue
		}
		c, err := scxml.ReadFile(f, scxml.Options{Lenient: true})
		if err != nil {
			t.Errorf("scxml.ReadFile(%s) = %v", f, err)
			continue
		}
		charts[filepath.Base(f)] = c
	}
	if len(charts) == 0 {
		t.Skip("no SCXML files")
	}
	return charts
}

// TestSCXML draws statecharts read from SCXML: each state is declared in
// the composite state of its parent. (SCXML names its states by their
// IDs, which the diagram shows.)
func TestSCXML(t *testing.T) {
	for name, c := range scxmlFiles(t) {
		t.Run(name, func(t *testing.T) {
			d, err := parseMermaid(string(write(t, c, mermaid.Options{})))
			if err != nil {
				t.Fatalf("parseMermaid = %v", err)
			}
			chartID := map[string]string{} // Mermaid ID → chart ID
			for _, s := range d.states {
				id, _, _ := strings.Cut(strings.TrimSuffix(s.name, " "+mermaid.Parallel), "\n")
				if s.name == "H" || s.name == "H*" {
					id = s.descr[0]
				}
				chartID[s.id] = id
			}
			parent := map[string]string{}
			for _, s := range d.states {
				parent[chartID[s.id]] = chartID[s.parent]
			}
			for _, s := range c.States {
				got, ok := parent[s.ID]
				if !ok && (s.Kind == chart.StartState || s.Kind == chart.EndState) {
					continue // drawn as [*]
				}
				if !ok || got != s.Parent {
					t.Errorf("state %s declared in %q, want %q", s.ID, got, s.Parent)
				}
			}
		})
	}
}

// TestBars draws arrows that cross into a composite state from its start
// and into its final state from outside: through a fork and a join bar,
// children of the composite, since [*] at the top level is the machine's.
func TestBars(t *testing.T) {
	c := &chart.Chart{
		Name: "bars",
		States: []chart.State{
			{ID: "a", Name: "a", Initial: true},
			{ID: "b", Name: "b"},
			{ID: "b0", Kind: chart.StartState, Initial: true, Parent: "b"},
			{ID: "c", Name: "c", Parent: "b"},
			{ID: "c1", Name: "c1", Parent: "c"},
			{ID: "end", Kind: chart.EndState, Parent: "b"},
		},
		Transitions: []chart.Transition{
			{ID: "1", From: "b0", Order: 1, Target: chart.Target{State: "c1"}},
			{ID: "2", From: "a", Order: 1, Test: "quit", Target: chart.Target{State: "end"}},
			{ID: "3", From: "c", Order: 1, Test: "done", Target: chart.Target{State: "end"}},
			{ID: "4", From: "a", Order: 2, Test: "go", Target: chart.Target{State: "b"}},
		},
	}
	out := write(t, c, mermaid.Options{})
	d, err := parseMermaid(string(out))
	if err != nil {
		t.Fatalf("parseMermaid = %v\n%s", err, out)
	}
	arrows := map[string]bool{}
	for _, a := range d.transitions {
		arrows[a.doc+"| "+a.from+" --> "+a.to+" : "+a.label] = true
	}
	for _, want := range []string{
		"s1| [*] --> s4 : ", "| s4 --> s3 : ", // b's start, by its fork, into c1
		"| s0 --> s5 : 1. quit", "s1| s5 --> [*] : ", // a into b's final state, by its join
		"s1| s2 --> [*] : done", // c, a child of b, straight to it
		"| s0 --> s1 : 2. go",
	} {
		if !arrows[want] {
			t.Errorf("no arrow %q in %v\n%s", want, arrows, out)
		}
	}
	for id, want := range map[string]string{"s4": "fork", "s5": "join"} {
		if s, ok := d.state(id); !ok || s.bar != want || s.parent != "s1" {
			t.Errorf("%s = %+v, want a %s in s1", id, s, want)
		}
	}
}
