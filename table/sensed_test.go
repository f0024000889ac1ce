package table_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fsmforge/fsmforge/table"
)

// TestUpdateSensed runs two agents of each table side by side on random
// frames: one with Update, its host answering the polled tests, the other
// with UpdateSensed, given the same answers as bits. Their results, errors,
// states and entry actions must be the same, and UpdateSensed must ask the
// host only about tests with IDs of 64 and more.
func TestUpdateSensed(t *testing.T) {
	var wide strings.Builder // 70 polled tests: some beyond the bits
	for i := range 70 {
		fmt.Fprintf(&wide, "a t%d b\n", i)
	}
	wide.WriteString("b t66 a\nb t3 a\nb !m final\nenter b P=1\n")
	specs := map[string]string{
		"plain": "a x b\na y c\nb !m c\nb z a\nc w final\nc y b\n* !k a\nenter b P=1\nenter c P=2",
		"chain": "options chain 4\na x b\nb y c\nc x a\nc !m final\nenter a Q=1",
		"stack": "options stack 3\na x b push\nb y return\nb !m c push\nc x return\nc z final",
		"wide":  wide.String(),
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			tbl := mustSpec(t, spec)
			var polled, msgs []table.TestID
			for id := range table.TestID(tbl.NumTests()) {
				if tbl.Test(id).Message {
					msgs = append(msgs, id)
				} else {
					polled = append(polled, id)
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			p1, p2 := newProbe(tbl), newProbe(tbl)
			a1 := table.NewAgent(tbl, p1, probeHost{})
			a2 := table.NewAgent(tbl, p2, probeHost{})
			moves := 0
			for frame := range 2000 {
				var bits uint64
				clear(p1.holds)
				clear(p2.holds)
				for _, id := range polled {
					if rng.IntN(5) == 0 {
						n := tbl.Test(id).String()
						p1.holds[n], p2.holds[n] = true, true
						if id < 64 {
							bits |= 1 << id
						}
					}
				}
				if len(msgs) > 0 && rng.IntN(8) == 0 {
					m := msgs[rng.IntN(len(msgs))]
					_, _ = a1.Post(m), a2.Post(m)
				}
				p2.asked = p2.asked[:0]
				r1, err1 := a1.Update(probeHost{})
				r2, err2 := a2.UpdateSensed(probeHost{}, bits)
				if r1 != r2 || fmt.Sprint(err1) != fmt.Sprint(err2) || a1.String() != a2.String() || !slices.Equal(p1.log, p2.log) {
					t.Fatalf("frame %d: Update = %+v, %v (%s, did %q); UpdateSensed = %+v, %v (%s, did %q)",
						frame, r1, err1, a1.String(), p1.log, r2, err2, a2.String(), p2.log)
				}
				for _, n := range p2.asked {
					if id, _ := tbl.LookupTest(n, ""); id < 64 {
						t.Fatalf("frame %d: UpdateSensed asked the host about %q (ID %d)", frame, n, id)
					}
				}
				moves += int(r1.Steps)
				if r1.Final() {
					a1 = table.NewAgent(tbl, p1, probeHost{})
					a2 = table.NewAgent(tbl, p2, probeHost{})
				}
			}
			if moves < 100 {
				t.Errorf("only %d transitions in 2000 frames: the comparison says little", moves)
			}
		})
	}
}

func TestUpdateSensedZeroAndDone(t *testing.T) {
	var zero table.Agent[*probe]
	if _, err := zero.UpdateSensed(probeHost{}, ^uint64(0)); err != table.ErrNoTable {
		t.Errorf("zero agent: UpdateSensed = %v, want ErrNoTable", err)
	}
	tbl := mustSpec(t, "a x final")
	a := table.NewAgent(tbl, newProbe(tbl), probeHost{})
	if r, err := a.UpdateSensed(probeHost{}, 1); err != nil || !r.Final() || !a.Done() {
		t.Fatalf("UpdateSensed(x) = %+v, %v; want final", r, err)
	}
	if r, err := a.UpdateSensed(probeHost{}, 1); err != nil || !r.Final() || r.Moved() {
		t.Errorf("done agent: UpdateSensed = %+v, %v; want To final and no step", r, err)
	}
}
