package stackgen

import (
	"testing"

	"github.com/fsmforge/fsmforge/gogen/internal/fixtures"
	"github.com/fsmforge/fsmforge/table"
)

// benchScript is what a sentry hears, one message a frame: two pushes of
// investigate and their returns, a push of the patrol and of the whole
// alert, and the returns (the stun ends on the frame of the clear).
var benchScript = []Message{MessageNoise, MessageNoise, MessageClear, MessageClear, MessageHit, MessageHit, MessageClear}

// benchHost is healthy on the frames that clear.
type benchHost struct{ healthy bool }

func (h *benchHost) Healthy() bool { return h.healthy }
func (h *benchHost) Anim(v Anim)   {}

// tableHost is benchHost for table.Agent.
type tableHost struct{ h *benchHost }

func (t tableHost) Test(e int, id table.TestID) bool              { return t.h.healthy }
func (t tableHost) Do(e int, p table.PropertyID, v table.ValueID) {}

// BenchmarkSentry updates 1024 sentries per iteration, each posted a
// message of benchScript every frame so that every update pushes or
// returns: the generated Machine (with the Host interface), and
// table.Agent on the same table as the baseline.
func BenchmarkSentry(b *testing.B) {
	const n = 1024
	b.Run("gen/1024", func(b *testing.B) {
		h := &benchHost{}
		var hi Host = h
		ms := make([]Machine, n)
		for i := range ms {
			ms[i] = NewMachine(hi)
		}
		frame := 0
		for b.Loop() {
			msg := benchScript[frame%len(benchScript)]
			h.healthy = msg == MessageClear
			frame++
			for i := range ms {
				m := &ms[i]
				_ = m.Post(msg)
				if _, err := m.Update(hi); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("table/1024", func(b *testing.B) {
		tbl := fixtures.Sentry()
		ids := make([]table.TestID, len(benchScript))
		for i, msg := range benchScript {
			ids[i] = table.TestID(msg.Test()) // the generated IDs are the table's
		}
		h := &benchHost{}
		var th table.Host[int] = tableHost{h}
		as := make([]table.Agent[int], n)
		for i := range as {
			as[i] = table.NewAgent(tbl, i, th)
		}
		frame := 0
		for b.Loop() {
			k := frame % len(benchScript)
			h.healthy = benchScript[k] == MessageClear
			frame++
			for i := range as {
				a := &as[i]
				_ = a.Post(ids[k])
				if _, err := a.Update(th); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
