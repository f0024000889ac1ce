package tablecrowd_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fsmforge/fsmforge/crowd"
	"github.com/fsmforge/fsmforge/crowd/tablecrowd"
	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// BenchmarkCrowdGoomba runs BenchmarkGoomba's workload on a Crowd, beside
// the same workload on a slice of agents. Each frame every goomba moves,
// the player hits some (about one in 500 per frame: a message posted, seen
// by the frame's update) and every goomba updates; one that finishes its
// death animation is removed and respawned. The agents' loop does all of it
// in one pass; the crowd's frame moves the goombas through the machine's
// Each (the game's own pass), posts the hits by ID, and steps, on 1 and 2
// workers, a respawn being an Add from OnFinal. ns/agent is the cost of one
// goomba's frame, after 600 untimed warm-up frames.
func BenchmarkCrowdGoomba(b *testing.B) {
	const warmup = 600 // frames: every goomba has been hit once, and the storage has grown
	for _, n := range []int{1024, 65536} {
		b.Run(fmt.Sprintf("Agent/agents=%d", n), func(b *testing.B) {
			t := goombaTable(b)
			w := &world{}
			gs := make([]goomba, n)
			as := make([]table.Agent[*goomba], n)
			for i := range gs {
				spawn(&gs[i], i)
				as[i] = table.NewAgent(t, &gs[i], w)
			}
			frame := 0
			step := func() {
				for i := range gs {
					g, a := &gs[i], &as[i]
					g.step()
					if hitAt(frame, i) {
						if err := a.Post(hitByPlayer); err != nil {
							b.Fatal(err)
						}
					}
					r, err := a.Update(w)
					if err != nil {
						b.Fatal(err)
					}
					if r.Final() {
						spawn(g, i)
						*a = table.NewAgent(t, g, w)
					}
				}
				frame++
			}
			for range warmup {
				step()
			}
			for b.Loop() {
				step()
			}
			perAgent(b, n)
		})
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("Crowd/agents=%d/workers=%d", n, workers), func(b *testing.B) {
				c, frame := goombaCrowd(b, n, crowd.Options[goomba]{})
				defer c.Close()
				if err := c.Machine().SetWorkers(workers); err != nil {
					b.Fatal(err)
				}
				for range warmup {
					if err := frame(); err != nil {
						b.Fatal(err)
					}
				}
				for b.Loop() {
					if err := frame(); err != nil {
						b.Fatal(err)
					}
				}
				perAgent(b, n)
			})
		}
	}
}

// BenchmarkCrowdGoombaObserved runs BenchmarkCrowdGoomba's crowd of 65536
// on one worker with a machine.Recorder attached to the crowd (Observe),
// recording every transition (turns, hits and deaths: about 1,900 a frame,
// one goomba in 35), beside the same crowd unobserved.
func BenchmarkCrowdGoombaObserved(b *testing.B) {
	const n, warmup = 65536, 600
	for _, observed := range []bool{false, true} {
		name := "unobserved"
		if observed {
			name = "recorder"
		}
		b.Run(fmt.Sprintf("agents=%d/%s", n, name), func(b *testing.B) {
			c, frame := goombaCrowd(b, n, crowd.Options[goomba]{})
			defer c.Close()
			if err := c.Machine().SetWorkers(1); err != nil {
				b.Fatal(err)
			}
			rec := machine.NewRecorder(0)
			if observed {
				c.Observe(rec.Register(c.Describe()))
			}
			for range warmup {
				if err := frame(); err != nil {
					b.Fatal(err)
				}
			}
			before := rec.Total()
			for b.Loop() {
				if err := frame(); err != nil {
					b.Fatal(err)
				}
			}
			perAgent(b, n)
			b.ReportMetric(float64(rec.Total()-before)/float64(b.N), "events/op")
		})
	}
}

// BenchmarkCrowdSnapshot takes a snapshot of a crowd of goombas and
// restores it, beside the same on its machine alone (crowd.Machine's
// Snapshot and Restore): what the Crowd adds is its stacks and messages.
func BenchmarkCrowdSnapshot(b *testing.B) {
	const n = 65536
	c, frame := goombaCrowd(b, n, crowd.Options[goomba]{})
	defer c.Close()
	for range 600 {
		if err := frame(); err != nil {
			b.Fatal(err)
		}
	}
	var s tablecrowd.Snapshot[goomba]
	c.Snapshot(&s)
	b.Run(fmt.Sprintf("agents=%d/Machine.Snapshot", n), func(b *testing.B) {
		for b.Loop() {
			c.Machine().Snapshot(&s.Crowd)
		}
	})
	b.Run(fmt.Sprintf("agents=%d/Crowd.Snapshot", n), func(b *testing.B) {
		for b.Loop() {
			c.Snapshot(&s)
		}
	})
	b.Run(fmt.Sprintf("agents=%d/Machine.Restore", n), func(b *testing.B) {
		for b.Loop() {
			if err := c.Machine().Restore(&s.Crowd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("agents=%d/Crowd.Restore", n), func(b *testing.B) {
		for b.Loop() {
			if err := c.Restore(&s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReload moves a crowd of a million goombas, spread over its
// three states with some messages posted, onto a new version of its table
// (a state renamed, the mapping told of it, and one added: every state
// keeps its ID) and back (the state added is gone again), one move per op,
// timing the commit apart (ns/commit); onto a version whose states are the
// same (a transition changed); and onto a version without dying, whose
// goombas (moved/op) go to the fallback, reported in Moved (the crowd is
// put back untimed, by a Restore). Beside them, in the same run, the
// baselines: a crowd made by New with the new table and restored from the
// remapped snapshot (what a reload did before it moved the crowd in place,
// but the snapshot), the crowd's Snapshot and Restore into the same crowd
// (buffers reused), and one Step of the crowd.
func BenchmarkReload(b *testing.B) {
	const n = 1_000_000
	v1 := goombaTable(b)
	v2, err := buildGoombaV2()
	if err != nil {
		b.Fatal(err)
	}
	var sb table.Builder // v1 with walkRight's turn on the left trigger too
	sb.Name = "goomba"
	sb.AddProperty("XMovement", "existing", "right", "left", "death")
	sb.AddProperty("Animation", "existing", "moveRight", "moveLeft", "death")
	left, right, hit, done := sb.AddTest("hitTriggerLeft", ""), sb.AddTest("hitTriggerRight", ""), sb.AddMessage("hitByPlayer", ""), sb.AddTest("animationDone", "")
	wl := sb.AddState("walkLeft", sb.Action("XMovement", "left"), sb.Action("Animation", "moveLeft"))
	wr := sb.AddState("walkRight", sb.Action("XMovement", "right"), sb.Action("Animation", "moveRight"))
	dy := sb.AddState("dying", sb.Action("XMovement", "death"), sb.Action("Animation", "death"))
	sb.AddTransition(table.Transition{From: wl, Test: hit, To: dy})
	sb.AddTransition(table.Transition{From: wl, Test: left, To: wr})
	sb.AddTransition(table.Transition{From: wr, Test: hit, To: dy})
	sb.AddTransition(table.Transition{From: wr, Test: right, To: wl})
	sb.AddTransition(table.Transition{From: wr, Test: left, To: wr})
	sb.AddTransition(table.Transition{From: dy, Test: done, To: table.Final})
	same, err := sb.Build()
	if err != nil {
		b.Fatal(err)
	}

	var c *tablecrowd.Crowd[goomba]
	c, err = tablecrowd.New(v1, &world{}, crowd.Options[goomba]{OnFinal: func(id crowd.ID, g *goomba) {
		spawn(g, int(id)) // respawned
		if err := c.Add(id, *g); err != nil {
			b.Error(err)
		}
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for i := range n {
		var g goomba
		spawn(&g, i)
		if err := c.Add(crowd.ID(i), g); err != nil {
			b.Fatal(err)
		}
	}
	frame := func(f int) {
		m := c.Machine() // a reload may have replaced it
		for q := range crowd.StateID(m.NumStates()) {
			for _, g := range m.Each(q) {
				g.step()
			}
		}
		for i := range n {
			if hitAt(f, i) {
				if err := c.Post(crowd.ID(i), hitByPlayer); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := c.Step(); err != nil {
			b.Fatal(err)
		}
	}
	for f := range 40 {
		frame(f)
	}
	for i := range n / 1000 { // messages posted and not yet seen
		if err := c.Post(crowd.ID(i*1000), hitByPlayer); err != nil {
			b.Fatal(err)
		}
	}
	counts := c.Machine().Counts(nil)
	if counts[dy] == 0 || counts[wl] == 0 || counts[wr] == 0 {
		b.Fatalf("counts %v: every state should hold goombas", counts)
	}
	name := fmt.Sprintf("entities=%d", n)

	b.Run(name+"/Reload", func(b *testing.B) {
		there, back := renamed(v1, v2, "dying", "dead"), renamed(v2, v1, "dead", "dying")
		var commits time.Duration
		for i := 0; b.Loop(); i++ {
			to, mp := v2, there
			if i%2 == 1 {
				to, mp = v1, back
			}
			mp.Moved = mp.Moved[:0]
			commit, err := c.PrepareReload(to, mp)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			commit()
			commits += time.Since(start)
		}
		if c.Table() != v1 {
			if err := c.Reload(v1, renamed(v2, v1, "dead", "dying")); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(commits.Nanoseconds())/float64(b.N), "ns/commit")
	})
	b.Run(name+"/Reload/same-states", func(b *testing.B) {
		there, back := renamed(v1, same, "dying", "dying"), renamed(same, v1, "dying", "dying")
		for i := 0; b.Loop(); i++ {
			to, mp := same, there
			if i%2 == 1 {
				to, mp = v1, back
			}
			if err := c.Reload(to, mp); err != nil {
				b.Fatal(err)
			}
		}
		if c.Table() != v1 {
			if err := c.Reload(v1, renamed(same, v1, "dying", "dying")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name+"/Reload/state-removed", func(b *testing.B) {
		var saved tablecrowd.Snapshot[goomba]
		c.Snapshot(&saved)
		var rb table.Builder // v1 without dying: its goombas go to walkLeft
		rb.Name = "goomba"
		rb.AddProperty("XMovement", "existing", "right", "left", "death")
		rb.AddProperty("Animation", "existing", "moveRight", "moveLeft", "death")
		left, right := rb.AddTest("hitTriggerLeft", ""), rb.AddTest("hitTriggerRight", "")
		rb.AddMessage("hitByPlayer", "")
		rb.AddTest("animationDone", "")
		wl := rb.AddState("walkLeft", rb.Action("XMovement", "left"), rb.Action("Animation", "moveLeft"))
		wr := rb.AddState("walkRight", rb.Action("XMovement", "right"), rb.Action("Animation", "moveRight"))
		rb.AddTransition(table.Transition{From: wl, Test: left, To: wr})
		rb.AddTransition(table.Transition{From: wr, Test: right, To: wl})
		removed, err := rb.Build()
		if err != nil {
			b.Fatal(err)
		}
		there, back := mapping(v1, removed), mapping(removed, v1)
		var commits time.Duration
		for b.Loop() {
			there.Moved = there.Moved[:0]
			commit, err := c.PrepareReload(removed, there)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			commit()
			commits += time.Since(start)
			b.StopTimer()
			if err := c.Reload(v1, back); err != nil {
				b.Fatal(err)
			}
			if err := c.Restore(&saved); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(commits.Nanoseconds())/float64(b.N), "ns/commit")
		b.ReportMetric(float64(len(there.Moved)), "moved/op")
	})
	b.Run(name+"/New+Restore", func(b *testing.B) {
		var s tablecrowd.Snapshot[goomba]
		c.Snapshot(&s)
		s.Remap(renamed(v1, v2, "dying", "dead"))
		for b.Loop() {
			fresh, err := tablecrowd.New(v2, &world{}, crowd.Options[goomba]{})
			if err != nil {
				b.Fatal(err)
			}
			if err := fresh.Restore(&s); err != nil {
				b.Fatal(err)
			}
			fresh.Close()
		}
	})
	b.Run(name+"/Snapshot+Restore", func(b *testing.B) {
		var s tablecrowd.Snapshot[goomba]
		for b.Loop() {
			c.Snapshot(&s)
			if err := c.Restore(&s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name+"/Step", func(b *testing.B) {
		for b.Loop() {
			if err := c.Step(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
