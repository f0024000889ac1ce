package observegen

import (
	"strconv"
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/gogen/internal/npcgen"
	"github.com/fsmforge/fsmforge/machine"
)

// BenchmarkGoomba is goombagen's BenchmarkGoomba for what Options.Observe
// costs: each frame, every goomba of a crowd moves, is sometimes hit by
// the player (Receive) and updates, and one that finishes dying respawns.
// plain is the machine generated without the option (the baseline),
// observe the one generated with it and no observer attached, and
// recorder the same with a machine.Recorder attached to every goomba (its
// allocations are Observe's, 24 bytes for each goomba that respawns, whose
// new machine is observed again). ns/agent is the cost of one goomba's
// frame.
func BenchmarkGoomba(b *testing.B) {
	const n = 1024
	name := "agents=" + strconv.Itoa(n)
	b.Run("plain/"+name, func(b *testing.B) {
		gs := make([]PlainGoomba, n)
		ms := make([]PlainMachine, n)
		for i := range gs {
			gs[i].spawn(i)
			ms[i] = NewPlainMachine(&gs[i])
		}
		frame := 0
		for b.Loop() {
			for i := range gs {
				g, m := &gs[i], &ms[i]
				g.step()
				if hitAt(frame, i) {
					_, _ = m.Receive(g, PlainMessageHitByPlayer)
				}
				if r, _ := m.Update(g); r.Final() {
					g.spawn(i)
					*m = NewPlainMachine(g)
				}
			}
			frame++
		}
		perAgent(b, n)
	})
	observed := func(b *testing.B, obs machine.Observer) {
		gs := make([]Goomba, n)
		ms := make([]GoombaMachine, n)
		for i := range gs {
			gs[i].spawn(i)
			ms[i] = NewGoombaMachine(&gs[i])
			if obs != nil {
				ms[i].Observe(obs, uint64(i))
			}
		}
		frame := 0
		for b.Loop() {
			for i := range gs {
				g, m := &gs[i], &ms[i]
				g.step()
				if hitAt(frame, i) {
					_, _ = m.Receive(g, GoombaMessageHitByPlayer)
				}
				if r, _ := m.Update(g); r.Final() {
					g.spawn(i)
					*m = NewGoombaMachine(g)
					if obs != nil {
						m.Observe(obs, uint64(i))
					}
				}
			}
			frame++
		}
		perAgent(b, n)
	}
	b.Run("observe/"+name, func(b *testing.B) { observed(b, nil) })
	b.Run("recorder/"+name, func(b *testing.B) {
		observed(b, machine.NewRecorder(0).Register(fixtures.Goomba().Describe()))
	})
}

// seesHost says the player is seen on odd frames, as npcgen's benchmark
// of the NPC does: it hosts both generated NPCs.
type seesHost struct{ frame int }

func (h *seesHost) SeesPlayer() bool { return h.frame%2 == 1 }
func (h *seesHost) Anim(v NPCAnim)   {}

// npcgenHost is seesHost as npcgen.Host, whose Anim takes npcgen's type.
type npcgenHost struct{ *seesHost }

func (h npcgenHost) Anim(v npcgen.Anim) {}

// BenchmarkNPC is npcgen's BenchmarkNPC for what Options.Observe costs a
// statechart: 1024 NPCs updated per iteration through the same frames (a
// noise every 50 frames, a calm 25 frames later, time advancing 0.1 s a
// frame, the player seen on odd frames), all through the Host interface.
// plain is npcgen's machine, generated without the option (the baseline),
// observe the one generated with it and no observer attached, and
// recorder the same with a machine.Recorder attached to every NPC.
func BenchmarkNPC(b *testing.B) {
	const n = 1024
	b.Run("plain/1024", func(b *testing.B) {
		h := &seesHost{}
		var hi npcgen.Host = npcgenHost{h}
		ms := make([]npcgen.Machine, n)
		for i := range ms {
			ms[i] = npcgen.NewMachine(hi)
		}
		now := 0.0
		for b.Loop() {
			h.frame++
			now += 0.1
			for i := range ms {
				m := &ms[i]
				m.SetTime(now)
				switch h.frame % 50 {
				case 1:
					_ = m.Post(npcgen.MessageNoise)
				case 25:
					_ = m.Post(npcgen.MessageCalm)
				}
				_, _ = m.Update(hi)
			}
		}
	})
	observed := func(b *testing.B, obs machine.Observer) {
		h := &seesHost{}
		var hi NPCHost = h
		ms := make([]NPCMachine, n)
		for i := range ms {
			ms[i] = NewNPCMachine(hi)
			if obs != nil {
				ms[i].Observe(obs, uint64(i))
			}
		}
		now := 0.0
		for b.Loop() {
			h.frame++
			now += 0.1
			for i := range ms {
				m := &ms[i]
				m.SetTime(now)
				switch h.frame % 50 {
				case 1:
					_ = m.Post(NPCMessageNoise)
				case 25:
					_ = m.Post(NPCMessageCalm)
				}
				_, _ = m.Update(hi)
			}
		}
	}
	b.Run("observe/1024", func(b *testing.B) { observed(b, nil) })
	b.Run("recorder/1024", func(b *testing.B) {
		observed(b, machine.NewRecorder(0).Register(fixtures.NPC().Describe()))
	})
}

func perAgent(b *testing.B, agents int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*agents), "ns/agent")
}
