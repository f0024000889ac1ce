package dot_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/chart"
	"github.com/fsmforge/fsmforge/chart/dot"
	"github.com/fsmforge/fsmforge/chart/scxml"
)

// TestNesting checks how the soldier's statechart is drawn, cluster by
// cluster and edge by edge.
func TestNesting(t *testing.T) {
	g, err := parseDOT(string(write(t, soldier(), dot.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	if g.attrs["compound"] != "true" {
		t.Errorf("compound = %q, want true", g.attrs["compound"])
	}
	const cl = "cluster_state_"
	clusters := map[string]string{ // cluster → the cluster it is in
		cl + "combat": "", cl + "engage": cl + "combat", cl + "weapon": cl + "engage",
		cl + "reload": cl + "weapon", cl + "cover": cl + "engage",
	}
	if len(g.clusters) != len(clusters) {
		t.Errorf("clusters %v, want %v", g.clusters, clusters)
	}
	for c, parent := range clusters {
		if got, ok := g.clusterParent[c]; !ok || got != parent {
			t.Errorf("cluster %s in %q, want %q", c, got, parent)
		}
	}
	for c, want := range map[string][2]string{ // label, style
		cl + "engage": {"engage " + dot.Parallel, "rounded"},
		cl + "weapon": {"weapon", "rounded,dashed"}, // a region
		cl + "cover":  {"cover", "rounded,dashed"},
		cl + "reload": {"reload", "rounded"},
	} {
		if a := g.clusterAttrs[c]; a["label"] != want[0] || a["style"] != want[1] {
			t.Errorf("cluster %s: label %q, style %q, want %q", c, a["label"], a["style"], want)
		}
	}
	if l := g.clusterAttrs[cl+"combat"]["label"]; !strings.Contains(l, "entry / send tick after 0.5s as combatTimer<br/>exit / cancel combatTimer") {
		t.Errorf("combat's label %q, want its entry and exit actions", l)
	}
	nodes := map[string]string{ // node → its cluster
		"idle": "", "dead": "", "__start": "",
		"combat#initial": cl + "combat", "combat.hist": cl + "combat", "combat.deep": cl + "combat", "retreat": cl + "combat",
		"aim": cl + "weapon", "fire": cl + "weapon", "__start_weapon": cl + "weapon",
		"eject": cl + "reload", "insert": cl + "reload", "reloaded": cl + "reload",
		"cover.seek": cl + "cover", "cover.hold": cl + "cover",
		"__anchor_combat": cl + "combat", "__anchor_reload": cl + "reload",
	}
	for id, want := range nodes {
		if n, ok := g.node(id); !ok || n.cluster != want {
			t.Errorf("node %s in %q, want %q", id, n.cluster, want)
		}
	}
	for id, want := range map[string]string{"combat.hist": "H", "combat.deep": "H*"} {
		if n, _ := g.node(id); n.attrs["label"] != want || n.attrs["shape"] != "circle" || n.attrs["xlabel"] != id {
			t.Errorf("history %s drawn %v, want a circle labelled %s", id, n.attrs, want)
		}
	}
	if n, _ := g.node("reloaded"); n.attrs["shape"] != "doublecircle" {
		t.Errorf("final state drawn %v, want a doublecircle", n.attrs)
	}
	if _, ok := g.node("__start_engage"); ok {
		t.Errorf("a start point in a parallel state: its regions are all entered")
	}

	edges := map[string]dotEdge{}
	for _, e := range g.edges {
		edges[e.from+"->"+e.to+":"+unescString(e.attrs["label"])] = e
	}
	for key, want := range map[string]string{ // attributes other than the label
		"__start->idle:":                "", // the only edge from the top-level start
		"__start_weapon->aim:":          "",
		"__start_reload->eject:":        "",
		"__start_cover->cover.seek:":    "",
		"combat#initial->aim:":          "", // one edge per target
		"combat#initial->cover.seek:":   "",
		"combat.hist->__anchor_engage:": "lhead=cluster_state_engage",
		"combat.deep->__anchor_reload:": "lhead=cluster_state_reload",
		"idle->__anchor_combat:1. enemy.seen [visible && !stunned] / raise alert":                    "lhead=cluster_state_combat",
		"__anchor_reload->aim:done.state.reload / Animation=aim":                                     "ltail=cluster_state_reload",
		"cover.seek->cover.hold:cover.found / send peek after 1.5s as peekTimer":                     "",
		"cover.hold->cover.hold:peek / raise peeked; send peek after 1.5s as peekTimer " + dot.Stay:  "style=dotted",
		"__anchor_combat->__anchor_combat:1. tick / send tick after 0.5s as combatTimer " + dot.Stay: "style=dotted",
		// Internal, into the state it leaves: not clipped at the cluster.
		"__anchor_combat->retreat:2. hurt [health < 30] / cancel peekTimer " + dot.Internal: "",
		"__anchor_combat->dead:4. killed": "ltail=cluster_state_combat",
	} {
		e, ok := edges[key]
		if !ok {
			t.Errorf("no edge %s", key)
			continue
		}
		var attrs []string
		for _, k := range []string{"lhead", "ltail", "style"} {
			if v, ok := e.attrs[k]; ok {
				attrs = append(attrs, k+"="+v)
			}
		}
		if got := strings.Join(attrs, ", "); got != want {
			t.Errorf("edge %s: %s, want %s", key, got, want)
		}
	}
	// 17 transitions, one with two targets, the initial arrows of the
	// machine and of weapon, reload and cover.
	if len(g.edges) != 22 {
		t.Errorf("%d edges, want 22", len(g.edges))
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

// TestSCXML draws statecharts read from SCXML: each state is drawn in
// the cluster of its parent, and Graphviz, when installed, draws them
// without a warning.
func TestSCXML(t *testing.T) {
	bin, _ := exec.LookPath("dot")
	for name, c := range scxmlFiles(t) {
		t.Run(name, func(t *testing.T) {
			out := write(t, c, dot.Options{})
			g, err := parseDOT(string(out))
			if err != nil {
				t.Fatalf("parseDOT = %v", err)
			}
			where := map[string]string{} // state ID → its node's or cluster's cluster
			for _, n := range g.nodes {
				where[n.id] = n.cluster
			}
			for cl, parent := range g.clusterParent {
				if id, ok := strings.CutPrefix(cl, "cluster_state_"); ok {
					where[id] = parent
				}
			}
			for _, s := range c.States {
				want := ""
				if s.Parent != "" {
					want = "cluster_state_" + s.Parent
				}
				if got, ok := where[s.ID]; !ok || got != want {
					t.Errorf("state %s drawn in %q, want %q", s.ID, got, want)
				}
			}
			if bin == "" {
				return
			}
			cmd := exec.Command(bin, "-Tsvg")
			cmd.Stdin = bytes.NewReader(out)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if _, err := cmd.Output(); err != nil || stderr.Len() > 0 {
				t.Errorf("dot -Tsvg = %v, stderr:\n%s", err, stderr.String())
			}
		})
	}
}
