package viewer_test

import (
	"testing"

	"github.com/fsmforge/fsmforge/machine"
	"github.com/fsmforge/fsmforge/viewer"
)

// TestSimPrepareReload moves the simulated agent onto a new version of
// its drawing: it keeps its state and the tests held, by name, and
// nothing changes before the commit.
func TestSimPrepareReload(t *testing.T) {
	v1 := walkers(t, "walkLeft", "walkRight", "dying")
	v2 := walkers(t, "stunned", "walkRight", "walkLeft", "dying")
	s := viewer.NewSim(v1, 0.1)
	left, _ := v1.LookupTest("hitLeft", "")
	right2, _ := v2.LookupTest("hitRight", "")
	if err := s.Hold(0, int32(left), true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Step(); err != nil { // walkLeft → walkRight
		t.Fatal(err)
	}
	if err := s.Hold(0, int32(left), false); err != nil {
		t.Fatal(err)
	}
	hr, _ := v1.LookupTest("hitRight", "")
	s.Hold(0, int32(hr), true)
	od, nd := v1.Describe(), v2.Describe()
	commit, err := s.PrepareReload(v2, machine.MappingBetween(&od, &nd))
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Describe(); len(d.States) != 3 {
		t.Fatal("PrepareReload changed the Sim before the commit")
	}
	commit()
	var a viewer.Agent
	if !s.Agent(0, &a) || len(s.Describe().States) != 4 {
		t.Fatal("the Sim does not run the new version")
	}
	q, _ := v2.LookupState("walkRight")
	if a.State != machine.StateID(q) || len(a.Holding) != 1 || a.Holding[0] != int32(right2) {
		t.Errorf("after the reload: state %d, holding %v; want walkRight (%d), holding hitRight (%d)", a.State, a.Holding, q, right2)
	}
}
