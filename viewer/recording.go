package viewer

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fsmforge/fsmforge/machine"
)

// maxRecording is the most bytes ReadRecording reads: a recording of a
// million transitions takes about 120 MB of JSON.
const maxRecording = 256 << 20

// ReadRecording reads a recording saved from GET /api/recording and checks
// it: every machine's description well formed and its layout of one box
// per state, every transition of a machine of the recording. It reads at
// most 256 MiB.
func ReadRecording(r io.Reader) (*Recording, error) {
	dec := json.NewDecoder(io.LimitReader(r, maxRecording))
	var rec Recording
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("viewer: not a recording: %v", err)
	}
	for i := range rec.Machines {
		m := &rec.Machines[i]
		if err := m.Description.Check(); err != nil {
			return nil, fmt.Errorf("viewer: the recording's machine %d (%q): %v", i, m.Name, err)
		}
		if len(m.Layout.States) != len(m.Description.States) {
			return nil, fmt.Errorf("viewer: the recording's machine %d (%q): %d boxes for %d states", i, m.Name, len(m.Layout.States), len(m.Description.States))
		}
		if len(m.Layout.Labels) != len(m.Description.Transitions) {
			m.Layout.Labels = labels(&m.Description)
		}
	}
	for k, ev := range rec.Events {
		if int(ev.Machine) >= len(rec.Machines) {
			return nil, fmt.Errorf("viewer: the recording's transition %d is of machine %d; it has %d", k, ev.Machine, len(rec.Machines))
		}
		n := machine.StateID(len(rec.Machines[ev.Machine].Description.States))
		for _, q := range []machine.StateID{ev.From, ev.To} {
			if q >= n || q < machine.Final {
				return nil, fmt.Errorf("viewer: the recording's transition %d: %s is not a state of machine %d", k, q, ev.Machine)
			}
		}
	}
	if rec.Total < uint64(len(rec.Events)) {
		rec.Total = uint64(len(rec.Events))
	}
	return &rec, nil
}

// Open returns a read-only viewer of a recording, with no game: its
// machines drawn as they were, with no agents, and its transitions in the
// timeline, where the page follows an agent through them. Serve it with
// Start or Handler; Frame is not needed: queries are answered at once.
func Open(rec *Recording, opt Options) *Viewer {
	opt.ReadOnly = true
	if opt.Record < len(rec.Events) {
		opt.Record = len(rec.Events)
	}
	v := New(opt)
	v.replay = true
	for _, m := range rec.Machines {
		i := v.add(m.Name, &recorded{desc: m.Description}, &m.Description, m.Layout)
		v.machines[i].version = max(m.Version, 1)
	}
	for _, ev := range rec.Events {
		v.rec.SetTick(ev.Tick)
		v.machines[ev.Machine].tap.obs.Observe(ev)
	}
	return v
}

// recorded is a machine of a recording: a description and no agents.
type recorded struct{ desc machine.Description }

func (r *recorded) Describe() machine.Description                  { return r.desc }
func (r *recorded) Len() int                                       { return 0 }
func (r *recorded) Agent(uint64, *Agent) bool                      { return false }
func (r *recorded) Agents(machine.StateID, int, []uint64) []uint64 { return nil }
func (r *recorded) Counts([]int)                                   {}
func (r *recorded) Observe(machine.Observer)                       {}
