package table_test

import (
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/table"
)

// BenchmarkGoomba compares an Agent running the Goomba table with a
// hand-written switch of the same machine, over a crowd of goombas. Each
// frame, every goomba moves (the same two additions for both), is sometimes
// hit by the player (Receive, which updates at once), and updates; one that
// finishes its death animation is removed and a new one spawns in its
// place. A goomba turns every 16 to 78 frames and is hit about every 500.
// ns/agent is the cost of one goomba's frame.
func BenchmarkGoomba(b *testing.B) {
	const n = 1024
	name := "agents=" + strconv.Itoa(n)
	b.Run("switch/"+name, func(b *testing.B) {
		gs := make([]goomba, n)
		for i := range gs {
			spawn(&gs[i], i)
			gs[i].enterSwitch(sWalkLeft)
		}
		frame := 0
		for b.Loop() {
			for i := range gs {
				g := &gs[i]
				g.step()
				if hitAt(frame, i) {
					g.updateSwitch(true) // the article's receive(): set the flag, update
				}
				if g.updateSwitch(false) {
					spawn(g, i)
					g.enterSwitch(sWalkLeft)
				}
			}
			frame++
		}
		perAgent(b, n)
	})
	b.Run("Agent/"+name, func(b *testing.B) { benchGoombaAgents(b, n, nil) })
	// The same, each agent observed by a flight recorder.
	b.Run("Agent+Recorder/"+name, func(b *testing.B) {
		rec := machine.NewRecorder(0)
		benchGoombaAgents(b, n, rec)
		b.ReportMetric(float64(rec.Total())/float64(b.N*n), "events/agent")
	})
}

// benchGoombaAgents is BenchmarkGoomba's Agent case, its agents observed
// by rec unless nil.
func benchGoombaAgents(b *testing.B, n int, rec *machine.Recorder) {
	{
		t := goombaTable(b)
		w := &world{}
		gs := make([]goomba, n)
		as := make([]table.Agent[*goomba], n)
		var obs machine.Observer
		if rec != nil {
			obs = rec.Register(t.Describe())
		}
		observe := func(i int) {
			if obs != nil {
				as[i].Observe(obs, uint64(i))
			}
		}
		for i := range gs {
			spawn(&gs[i], i)
			as[i] = table.NewAgent(t, &gs[i], w)
			observe(i)
		}
		frame := 0
		for b.Loop() {
			for i := range gs {
				g, a := &gs[i], &as[i]
				g.step()
				if hitAt(frame, i) {
					if _, err := a.Receive(w, hitByPlayer); err != nil {
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
					observe(i)
				}
			}
			frame++
		}
		perAgent(b, n)
	}
}

func perAgent(b *testing.B, agents int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*agents), "ns/agent")
}

// BenchmarkNewAgent measures making one agent from a built table,
// including the initial state's two entry actions.
func BenchmarkNewAgent(b *testing.B) {
	t := goombaTable(b)
	g := &goomba{}
	var sink table.Agent[*goomba]
	for b.Loop() {
		sink = table.NewAgent(t, g, &world{})
	}
	_ = sink
}
