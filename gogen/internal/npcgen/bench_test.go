package npcgen

import (
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// seesHost says the player is seen on odd frames, as table's benchmark of
// the NPC does.
type seesHost struct{ frame int }

func (h *seesHost) SeesPlayer() bool { return h.frame%2 == 1 }
func (h *seesHost) Anim(v Anim)      {}

// tableHost is seesHost for table.Agent.
type tableHost struct{ h *seesHost }

func (t tableHost) Test(e int, id table.TestID) bool              { return t.h.SeesPlayer() }
func (t tableHost) Do(e int, p table.PropertyID, v table.ValueID) {}

// TestAllocs checks that NewMachine and updates allocate nothing: events,
// timers, history and parallel regions included.
func TestAllocs(t *testing.T) {
	h := &seesHost{}
	var m Machine
	if n := testing.AllocsPerRun(100, func() { m = NewMachine(h) }); n != 0 {
		t.Errorf("NewMachine allocates %v times, want 0", n)
	}
	now := 0.0
	allocs := testing.AllocsPerRun(1000, func() {
		h.frame++
		now += 0.1
		m.SetTime(now)
		switch h.frame % 50 {
		case 1:
			_ = m.Post(MessageNoise)
		case 25:
			_ = m.Post(MessageCalm)
		}
		if _, err := m.Update(h); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Update allocates %v times per call, want 0", allocs)
	}
}

// BenchmarkNPC updates 1024 NPCs per iteration: the generated Machine
// (with the Host interface), and table.Agent on the same table as the
// baseline, through the same frames (a noise every 50 frames, a calm 25
// frames later, time advancing 0.1 s a frame, the player seen on odd
// frames).
func BenchmarkNPC(b *testing.B) {
	const n = 1024
	b.Run("gen/1024", func(b *testing.B) {
		h := &seesHost{}
		var hi Host = h
		ms := make([]Machine, n)
		for i := range ms {
			ms[i] = NewMachine(hi)
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
					_ = m.Post(MessageNoise)
				case 25:
					_ = m.Post(MessageCalm)
				}
				_, _ = m.Update(hi)
			}
		}
	})
	b.Run("table/1024", func(b *testing.B) {
		tbl := fixtures.NPC()
		noise, _ := tbl.LookupTest("noise", "")
		calm, _ := tbl.LookupTest("calm", "")
		h := &seesHost{}
		var th table.Host[int] = tableHost{h}
		as := make([]table.Agent[int], n)
		for i := range as {
			as[i] = table.NewAgent(tbl, i, th)
		}
		now := 0.0
		for b.Loop() {
			h.frame++
			now += 0.1
			for i := range as {
				a := &as[i]
				a.SetTime(now)
				switch h.frame % 50 {
				case 1:
					_ = a.Post(noise)
				case 25:
					_ = a.Post(calm)
				}
				_, _ = a.Update(th)
			}
		}
	})
}
