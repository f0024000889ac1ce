package formation

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fsmforge/fsmforge/fsm"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestArticleFlow(t *testing.T) {
	g := NewGraph(3)
	var states []string
	for id := range fsm.StateID(g.NumStates()) {
		states = append(states, g.StateName(id))
	}
	if want := []string{"idle", "follow", "lead", "rally", "patrol", "attack"}; !slices.Equal(states, want) {
		t.Errorf("states = %q, want %q", states, want)
	}
	var edges []string
	for id := range fsm.StateID(g.NumStates()) {
		for tr := range g.Transitions(id) {
			edges = append(edges, g.StateName(tr.From)+"→"+g.StateName(tr.To))
		}
	}
	want := []string{"idle→lead", "idle→follow", "follow→lead", "lead→rally", "rally→patrol", "patrol→attack", "attack→patrol"}
	if !slices.Equal(edges, want) {
		t.Errorf("transitions = %q, want %q", edges, want)
	}
	for name, id := range map[string]fsm.StateID{"idle": Idle, "follow": Follow, "lead": Lead, "rally": Rally, "patrol": Patrol, "attack": Attack} {
		if got, _ := g.LookupState(name); got != id {
			t.Errorf("Lookup(%s) = %v, want %v", name, got, id)
		}
	}
}

func summaries(t *testing.T, opts Options, frames int) string {
	t.Helper()
	var b bytes.Buffer
	sq := NewSquadron(opts)
	for range frames {
		if err := sq.Step(); err != nil {
			t.Fatal(err)
		}
		sq.Summary(&b)
		checkInvariants(t, sq)
	}
	return b.String()
}

// checkInvariants checks what must hold after every frame.
func checkInvariants(t *testing.T, sq *Squadron) {
	t.Helper()
	byID := map[ShipID]*Ship{}
	for _, s := range sq.Ships {
		byID[s.ID] = s
	}
	total := 0
	for _, n := range sq.Counts() {
		total += n
	}
	if total != len(sq.Ships) {
		t.Fatalf("frame %d: counts add up to %d, %d ships", sq.Frame(), total, len(sq.Ships))
	}
	for _, s := range sq.Ships {
		if len(s.Members) > sq.opts.FormationSize {
			t.Fatalf("frame %d: %s leads %d ships, more than %d", sq.Frame(), s.ID, len(s.Members), sq.opts.FormationSize)
		}
		switch {
		case s.AI.In(Follow) && s.Leader != 0:
			// Its leader is alive, or died this frame and told it so.
		case s.AI.In(Follow):
			t.Fatalf("frame %d: %s follows nobody", sq.Frame(), s.ID)
		case !s.AI.In(Idle) && s.Leader != 0:
			t.Fatalf("frame %d: %s is in %s with a leader", sq.Frame(), s.ID, s.AI.Name())
		}
		for _, m := range s.Members {
			if f, ok := byID[m]; ok && f.Leader != s.ID {
				t.Fatalf("frame %d: %s lists %s, which follows %v", sq.Frame(), s.ID, m, f.Leader)
			}
		}
	}
}

func TestGolden(t *testing.T) {
	got := summaries(t, Options{Seed: 1}, 60)
	path := filepath.Join("testdata", "seed1.txt")
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the run differs from %s:\n%s", path, got)
	}
}

func TestDeterministic(t *testing.T) {
	for seed := range uint64(10) {
		opts := Options{Seed: seed, Ships: 30, FormationSize: 4}
		if a, b := summaries(t, opts, 200), summaries(t, opts, 200); a != b {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

// TestDoubleBuffered follows one join: the leader learns of it a frame after
// it is sent, the follower of the answer a frame after that.
func TestDoubleBuffered(t *testing.T) {
	sq := NewSquadron(Options{Ships: 2, FormationSize: 1, SpawnEvery: 1})
	sq.Step() // frame 1: ship1 arrives, leads, rallies (a Rally is sent)
	lead := sq.Ships[0]
	if !lead.AI.In(Rally) {
		t.Fatalf("frame 1: ship1 in %s, want rally", lead.AI.Name())
	}
	sq.Step() // frame 2: ship2 reads the Rally, sends Join, follows
	follower := sq.Ships[1]
	if !follower.AI.In(Follow) || follower.Leader != lead.ID {
		t.Fatalf("frame 2: ship2 in %s following %v", follower.AI.Name(), follower.Leader)
	}
	if len(lead.Members) != 0 {
		t.Fatalf("frame 2: the leader already knows of the join sent this frame")
	}
	sq.Step() // frame 3: the leader reads the Join: full, patrols
	if len(lead.Members) != 1 || lead.AI.In(Rally) {
		t.Fatalf("frame 3: leader has %v in %s, want [ship2] and patrolling", lead.Members, lead.AI.Name())
	}
}

// TestTurnedAway: two ships ask for the last place; the second is told the
// formation is full and leads one of its own.
func TestTurnedAway(t *testing.T) {
	sq := NewSquadron(Options{Ships: 3, FormationSize: 1, SpawnEvery: 1})
	for range 5 {
		if err := sq.Step(); err != nil {
			t.Fatal(err)
		}
	}
	s1, s2, s3 := sq.Ships[0], sq.Ships[1], sq.Ships[2]
	if !slices.Equal(s1.Members, []ShipID{s2.ID}) || s2.Leader != s1.ID {
		t.Errorf("ship1 leads %v, ship2 follows %v; want ship2 with ship1", s1.Members, s2.Leader)
	}
	if s3.Leader != 0 || !s3.AI.In(Rally) || s3.AI.Previous() != Lead {
		t.Errorf("ship3 in %s after %s with leader %v, want rallying after lead", s3.AI.Name(), sq.Flow.StateName(s3.AI.Previous()), s3.Leader)
	}
}

// TestSuccession: a leader shot down hands its formation to its first member.
func TestSuccession(t *testing.T) {
	sq := NewSquadron(Options{Ships: 4, FormationSize: 3, SpawnEvery: 1, EnemyChance: 1, HitChance: 1})
	sq.Step()
	lead := sq.Ships[0]
	for sq.Ships[0] == lead {
		if err := sq.Step(); err != nil {
			t.Fatal(err)
		}
		if sq.Frame() > 50 {
			t.Fatal("the leader was never shot down")
		}
	}
	if lead.AI.State() != Attack || len(lead.Members) != 3 {
		t.Fatalf("the leader was shot down in %s with %v", lead.AI.Name(), lead.Members)
	}
	heir := lead.Members[0]
	sq.Step() // the members read LeaderDown
	for _, s := range sq.Ships {
		switch {
		case s.ID == heir:
			if s.Leader != 0 || len(s.Members) != 2 || !s.AI.In(Rally) {
				t.Errorf("heir %s: leader %v, members %v, in %s; want its own, 2 members, rallying", s.ID, s.Leader, s.Members, s.AI.Name())
			}
		case slices.Contains(lead.Members, s.ID):
			if s.Leader != heir || !s.AI.In(Follow) {
				t.Errorf("%s follows %v in %s, want %v", s.ID, s.Leader, s.AI.Name(), heir)
			}
		}
	}
}

func TestNoGuardErrorsManySeeds(t *testing.T) {
	for seed := range uint64(50) {
		summaries(t, Options{Seed: seed, Ships: 20, FormationSize: 3}, 300)
	}
}

func TestNegativeChanceMeansNever(t *testing.T) {
	sq := NewSquadron(Options{Seed: 3, EnemyChance: 1, HitChance: -1})
	for range 200 {
		if err := sq.Step(); err != nil {
			t.Fatal(err)
		}
		if sq.lost > 0 {
			t.Fatalf("frame %d: a ship was shot down with HitChance -1", sq.Frame())
		}
	}
	sq = NewSquadron(Options{Seed: 3, EnemyChance: -1})
	for range 200 {
		sq.Step()
		if n := sq.Counts(); n[Attack] > 0 {
			t.Fatalf("frame %d: an attack with EnemyChance -1", sq.Frame())
		}
	}
}
