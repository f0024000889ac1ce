package tablecrowd_test

import (
	"fmt"
	"testing"

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
