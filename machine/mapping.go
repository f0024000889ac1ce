package machine

import (
	"encoding/binary"
	"hash/fnv"
	"strconv"
)

// Fingerprint returns a hash of what d defines: its kind, its states'
// names, kinds, parents and entry actions, its initial state, its triggers, its
// transitions and their triggers and conditions, in order. A save carries
// its machines' fingerprints so that restoring into another definition is
// noticed: two definitions with different fingerprints are not the same
// machine. The same fingerprint says that the definitions agree on all of
// that, not that the code behind them does: a guard's or a behaviour's
// body can change under the same names. Left out are the machine's name
// and source positions (moving a shape or renaming the file changes
// nothing), the transitions of a KindBehavior machine, which lists those
// it has seen, not a definition, and the conditions of a KindGuarded one,
// which are Go function names that a refactoring may change.
func Fingerprint(d *Description) uint64 {
	h := fnv.New64a()
	var b []byte
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str := func(s string) { num(int64(len(s))); b = append(b, s...) }
	num(int64(d.Kind))
	num(int64(d.Initial))
	num(int64(len(d.States)))
	for _, s := range d.States {
		str(s.Name)
		num(int64(s.Kind))
		num(int64(s.Parent))
		num(int64(len(s.Entry)))
		for _, a := range s.Entry {
			str(a)
		}
	}
	num(int64(len(d.Triggers)))
	for _, t := range d.Triggers {
		str(t.Name)
		num(int64(t.Kind))
	}
	transitions := d.Transitions
	if d.Kind == KindBehavior {
		transitions = nil
	}
	num(int64(len(transitions)))
	for _, t := range transitions {
		num(int64(t.From))
		num(int64(len(t.To)))
		for _, to := range t.To {
			num(int64(to))
		}
		num(int64(t.Trigger))
		if d.Kind != KindGuarded {
			str(t.Condition)
		}
		flags := 0
		for i, f := range [...]bool{t.Final, t.Return, t.Push} {
			if f {
				flags |= 1 << i
			}
		}
		num(int64(flags))
	}
	h.Write(b)
	return h.Sum64()
}

// Mapping maps the states and triggers of a machine as it was saved to
// those of the definition it is restored into, by name: the same mapping
// serves a saved game loaded into a newer version of a drawing and a
// drawing reloaded while the game runs. A state whose name is gone maps to
// the fallback, and each entity that was in one is reported in Moved; a
// trigger whose name (and kind) is gone maps to -1, and what waited on it
// (a message posted, an event queued) is dropped.
type Mapping struct {
	// To maps an old ID to the new one, or to NoState when the new
	// definition has no state of the old one's name.
	To []StateID
	// Old holds the old states' names, by old ID.
	Old []string
	// Triggers maps an old trigger (an index in the old
	// Description.Triggers) to the new one, or to -1 when the new
	// definition has no trigger of its name and kind.
	Triggers []int32
	// OldTriggers holds the old triggers, by old index.
	OldTriggers []Trigger
	// Fallback is where an entity in a state that is gone goes: the new
	// definition's initial state unless the caller says otherwise.
	Fallback StateID
	// Moved lists the entities sent to the fallback, in the order they
	// were mapped.
	Moved []Moved
}

// Moved reports one entity whose state could not be mapped by name.
type Moved struct {
	Entity uint64  // the entity or agent, as the runtime numbers it
	From   string  // the old state's name
	To     StateID // the state it was put in: the fallback
}

// NewMapping returns the mapping from states named states (by old ID) and
// from triggers (by old index) to the states and triggers of d, with d's
// initial state as the fallback (or state 0 when d names none). A trigger
// maps to the trigger of d of the same name and kind.
func NewMapping(states []string, triggers []Trigger, d *Description) *Mapping {
	m := &Mapping{To: make([]StateID, len(states)), Old: states, Fallback: d.Initial,
		Triggers: make([]int32, len(triggers)), OldTriggers: triggers}
	if m.Fallback == NoState && len(d.States) > 0 {
		m.Fallback = 0
	}
	byName := make(map[string]StateID, len(d.States))
	for i, s := range d.States {
		byName[s.Name] = StateID(i)
	}
	for i, name := range states {
		id, ok := byName[name]
		if !ok {
			id = NoState
		}
		m.To[i] = id
	}
	byTrigger := make(map[Trigger]int32, len(d.Triggers))
	for i, t := range d.Triggers {
		byTrigger[t] = int32(i)
	}
	for i, t := range triggers {
		id, ok := byTrigger[t]
		if !ok {
			id = -1
		}
		m.Triggers[i] = id
	}
	return m
}

// MappingBetween returns the mapping from the states and triggers of old
// to those of d: what a drawing reloaded while the game runs needs, both
// definitions at hand.
func MappingBetween(old, d *Description) *Mapping {
	states := make([]string, len(old.States))
	for i := range old.States {
		states[i] = old.States[i].Name
	}
	return NewMapping(states, old.Triggers, d)
}

// Trigger returns the new index of old trigger id, or -1 and false when it
// is gone.
func (m *Mapping) Trigger(id int32) (int32, bool) {
	if id < 0 || int(id) >= len(m.Triggers) || m.Triggers[id] < 0 {
		return -1, false
	}
	return m.Triggers[id], true
}

// Identity reports whether every old state and trigger keeps its ID.
func (m *Mapping) Identity() bool {
	for i, id := range m.To {
		if id != StateID(i) {
			return false
		}
	}
	for i, id := range m.Triggers {
		if id != int32(i) {
			return false
		}
	}
	return true
}

// Lost returns the names of the old states that have no namesake.
func (m *Mapping) Lost() []string {
	var lost []string
	for i, id := range m.To {
		if id == NoState {
			lost = append(lost, m.Old[i])
		}
	}
	return lost
}

// State returns the new ID of old state id for entity e: its namesake, or
// the fallback, recording the move. NoState and Final map to themselves;
// an ID that was never a state maps to the fallback as well, reported
// with the ID's String as its name.
func (m *Mapping) State(e uint64, id StateID) StateID {
	if id == NoState || id == Final {
		return id
	}
	if id >= 0 && int(id) < len(m.To) && m.To[id] != NoState {
		return m.To[id]
	}
	m.Moved = append(m.Moved, Moved{Entity: e, From: m.OldName(id), To: m.Fallback})
	return m.Fallback
}

// OldName returns the name of old state id: its name in Old, or, for an
// ID that was never a state, the ID's String. Moved names states so.
func (m *Mapping) OldName(id StateID) string {
	if id >= 0 && int(id) < len(m.Old) {
		return m.Old[id]
	}
	return id.String()
}

// String summarises the mapping: "identity", or how many states were lost
// and entities moved.
func (m *Mapping) String() string {
	if m.Identity() && len(m.Moved) == 0 {
		return "identity"
	}
	return strconv.Itoa(len(m.Lost())) + " states lost, " + strconv.Itoa(len(m.Moved)) + " entities moved"
}

// Codec turns the game's own values (an entity's data, a message's
// payload) into bytes and back, for saves: fsmforge never serialises the
// game's types by reflection. Append appends v's bytes to b; Decode reads
// back exactly the bytes one Append wrote (the save stores their length).
type Codec[T any] struct {
	Append func(b []byte, v *T) ([]byte, error)
	Decode func(b []byte, v *T) error
}
